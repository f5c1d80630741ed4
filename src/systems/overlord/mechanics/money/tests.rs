//! Wages and upkeep over whole months on a tiny world.

use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::testkit::{count, engine, funds, scenario, texts, unit};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{At, Effects, Population};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_app::App;
use bevy_ecs::prelude::*;

/// `month` 5 is June (summer: upkeep 100%), 0 is January (winter: 200%). L1 pays
/// `wages` a month.
fn world(month: u32, wages: u32, units: &str, funds: u32) -> String {
    format!(
        r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: {month}),
  factions: [
    (id: "fa", name: "Alphans", password: "pa", default_stance: "neutral", funds: {{"coin": {funds}}}),
    (id: "fb", name: "Betans", password: "pb", default_stance: "neutral"),
  ],
  locations: [
    (id: "L1", name: "Ford", terrain: "city", population: 1000, wages: {wages}),
    (id: "L2", name: "Heath", terrain: "plai", population: 200, wages: {wages}),
  ],
  structures: [],
  units: [{units}],
)"#
    )
}

#[test]
fn work_is_paid_per_figure_and_day_then_upkeep_is_due_cash_work() {
    // ORD-WORK, PFX-WORK, CASH-WORK, CASH-RATE: the invisible WORK runs every day; 10
    // men earn 10 × 12 for the month, a leader 12; a leader's upkeep is 20, a man's 10.
    let units = r#"
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("coin", 100, 0)]),
    (id: "U2", name: "Men", faction: "fa", race: "man", figures: 10, location: "L1"),
    (id: "U3", name: "Bones", faction: "fa", race: "skel", figures: 5, location: "L1"),"#;
    let mut e = engine(scenario(&world(5, 12, units, 0)));
    e.run_turn(|_, _| {});
    // Ann also pays the skeletons' upkeep (CASH-ORDER): they have no cash.
    assert_eq!(texts(&e, "U3"), ["Paid 50 coins [coin] of upkeep (50 from Ann [U1])."]);
    assert_eq!(count(&e, "U1", "coin"), 100 + 12 - 20 - 50);
    assert_eq!(count(&e, "U2", "coin"), 120 - 100);
    assert_eq!(
        texts(&e, "U2"),
        ["Earned 120 coins [coin] for 30 days of work in Ford [L1].", "Paid 100 coins [coin] of upkeep."]
    );
    // Creatures do not work.
    assert!(!texts(&e, "U3").iter().any(|t| t.starts_with("Earned")), "{:?}", texts(&e, "U3"));
}

#[test]
fn wages_are_lost_when_the_unit_leaves_cash_work() {
    // A test system moves U2 to L2 at the end of day 10: the 10 days worked in L1 are
    // lost; the 20 days in L2 are paid.
    fn leave(world: &mut World) {
        if world.resource::<Clock>().tick == 10 {
            let dir = world.resource::<Directory>();
            let (u2, l2) = (dir.get(Kind::Unit, "U2").unwrap(), dir.get(Kind::Location, "L2").unwrap());
            {
                let a = *world.get::<At>(u2).unwrap();
                world.entity_mut(u2).insert(At { location: l2, ..a });
            }
            world.resource_mut::<crate::systems::overlord::mechanics::scheduler::Visiting>().invalidate();
        }
    }
    let units = r#"(id: "U2", name: "Men", faction: "fa", race: "man", figures: 10, location: "L1"),"#;
    let mut e =
        crate::systems::overlord::testkit::engine_with(scenario(&world(5, 30, units, 1000)), true, |app: &mut App| {
            app.add_step_system("movement", leave);
        });
    e.run_turn(|_, _| {});
    assert_eq!(texts(&e, "U2")[0], "Earned 200 coins [coin] for 20 days of work in Heath [L2].");
}

#[test]
fn upkeep_is_paid_from_cash_then_other_units_then_funds_cash_order() {
    // CASH-ORDER: U1 has no cash; U2, in the same place, has 500 left after its own
    // upkeep and pays for it. U3 stands alone in L2: faction funds pay. No wages.
    let units = r#"
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1"),
    (id: "U2", name: "Men", faction: "fa", race: "man", figures: 10, location: "L1", items: [("coin", 600, 0)]),
    (id: "U3", name: "Dee", faction: "fa", race: "ldr", figures: 1, location: "L2"),
    (id: "U4", name: "Bob", faction: "fb", race: "ldr", figures: 1, location: "L1", items: [("coin", 20, 0)]),"#;
    let mut e = engine(scenario(&world(5, 0, units, 1000)));
    e.run_turn(|_, _| {});
    assert_eq!(texts(&e, "U1"), ["Paid 20 coins [coin] of upkeep (20 from Men [U2])."]);
    assert_eq!(texts(&e, "U2"), ["Paid 100 coins [coin] of upkeep."]);
    assert_eq!(texts(&e, "U3"), ["Paid 20 coins [coin] of upkeep (20 from the faction funds)."]);
    assert_eq!((count(&e, "U2", "coin"), funds(&e, "fa", "coin")), (480, 980));
    // Another faction's unit never pays for fa's.
    assert_eq!(count(&e, "U4", "coin"), 0);
}

#[test]
fn support_draws_on_faction_funds_first_set_support() {
    let units = r#"
    (id: "U2", name: "Men", faction: "fa", race: "man", figures: 10, location: "L1", items: [("coin", 600, 0)],
     settings: (support: true)),"#;
    let mut e = engine(scenario(&world(5, 0, units, 1000)));
    e.run_turn(|_, _| {});
    assert_eq!((count(&e, "U2", "coin"), funds(&e, "fa", "coin")), (600, 900));
}

#[test]
fn equipped_rations_pay_most_of_the_upkeep_cash_food() {
    // CASH-FOOD: 20 of 30 men eat a ration each: 20 × (2 coins) + 10 × 10 = 140
    // coins. A leader with a ration pays 4. Unequipped food is kept, unless CONSUME.
    let units = r#"
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("food", 3, 1), ("coin", 10, 0)]),
    (id: "U2", name: "Men", faction: "fa", race: "man", figures: 30, location: "L1",
     items: [("food", 25, 20), ("coin", 140, 0)]),
    (id: "U3", name: "Eaters", faction: "fa", race: "man", figures: 10, location: "L2",
     items: [("food", 10, 0)], settings: (consume: true)),"#;
    let mut e = engine(scenario(&world(5, 0, units, 0)));
    e.run_turn(|_, _| {});
    assert_eq!((count(&e, "U2", "coin"), count(&e, "U2", "food")), (0, 5));
    assert_eq!(texts(&e, "U2"), ["Ate 20 food [food] as upkeep.", "Paid 140 coins [coin] of upkeep."]);
    assert_eq!((count(&e, "U1", "coin"), count(&e, "U1", "food")), (6, 2));
    // CONSUME eats carried food; 10 men owe 100, food pays 80: 20 unpaid.
    assert_eq!(count(&e, "U3", "food"), 0);
    assert!(texts(&e, "U3")[1].starts_with("Could pay only 0 of the 20 coins [coin] of upkeep."));
}

#[test]
fn winter_doubles_upkeep_cli_winter() {
    let units = r#"(id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("coin", 100, 0)]),"#;
    let mut e = engine(scenario(&world(0, 0, units, 0)));
    e.run_turn(|_, _| {});
    assert_eq!(count(&e, "U1", "coin"), 60);
}

#[test]
fn unpaid_units_grow_disaffected_then_desert_cash_dissent() {
    // CASH-DISSENT: the first unpaid upkeep gives disaffection (−1 initiative), the
    // second makes the unit desert into the population.
    let units = r#"
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("coin", 1000, 0)]),
    (id: "U2", name: "Men", faction: "fa", race: "man", figures: 10, location: "L2", stack_leader: None),"#;
    // Population still, so that the deserters are counted exactly.
    let mut rules = (*crate::systems::overlord::testkit::overlord_rules()).clone();
    rules.economy.population = Default::default();
    let mut e = crate::systems::overlord::testkit::engine_with_rules(rules, scenario(&world(5, 0, units, 0)), true);
    e.run_turn(|_, _| {});
    let u2 = unit(&e, "U2");
    assert_eq!(texts(&e, "U2"), ["Could pay only 0 of the 100 coins [coin] of upkeep. The unit is disaffected."]);
    let dissent = e.world().resource::<Catalog>().effect("effdisc").unwrap();
    assert!(e.world().get::<Effects>(u2).unwrap().has(dissent));
    e.run_turn(|_, _| {});
    assert!(e.world().resource::<Directory>().get(Kind::Unit, "U2").is_none(), "U2 deserted");
    let l2 = e.world().resource::<Directory>().get(Kind::Location, "L2").unwrap();
    assert_eq!(e.world().get::<Population>(l2).unwrap().0, 210);
    assert!(texts(&e, "fa").contains(
        &"Men [U2] was not paid again and deserted; its 10 figures joined the local population.".to_string()
    ));
}

#[test]
fn units_of_npc_factions_pay_no_upkeep() {
    // `npc_upkeep: false` in the Overlord rule set: fb is an NPC faction; its penniless
    // unit is neither billed nor disaffected.
    let units = r#"(id: "U4", name: "Bob", faction: "fb", race: "ldr", figures: 1, location: "L1"),"#;
    let mut s = scenario(&world(5, 0, units, 0));
    s.factions[1].npc = true;
    let mut e = engine(s);
    e.run_turn(|_, _| {});
    assert!(texts(&e, "U4").is_empty(), "{:?}", texts(&e, "U4"));
    assert!(e.world().get::<Effects>(unit(&e, "U4")).unwrap().0.is_empty());
}

#[test]
fn units_that_share_feed_others_of_the_faction_in_the_same_place_set_share() {
    // SET-SHARE: the Cooks carry 40 food and share; the 30 Men eat 30 of it and owe
    // 30 × 2 coins. A unit elsewhere gets nothing.
    let units = r#"
    (id: "U2", name: "Men", faction: "fa", race: "man", figures: 30, location: "L1", items: [("coin", 100, 0)]),
    (id: "U3", name: "Cooks", faction: "fa", race: "man", figures: 1, location: "L1", items: [("food", 40, 0), ("coin", 10, 0)],
     settings: (share: true)),
    (id: "U4", name: "Far", faction: "fa", race: "man", figures: 1, location: "L2", items: [("coin", 10, 0)]),"#;
    let mut e = engine(scenario(&world(5, 0, units, 0)));
    e.run_turn(|_, _| {});
    assert_eq!(texts(&e, "U2"), ["Ate 30 food [food] as upkeep.", "Paid 60 coins [coin] of upkeep."]);
    assert_eq!((count(&e, "U3", "food"), count(&e, "U4", "coin")), (10, 0));
}

#[test]
fn the_work_log_keeps_days_per_unit_and_place_and_forgets_a_removed_unit_cash_work() {
    // CASH-WORK: days count where the unit stands; work done elsewhere before is
    // lost. The log keeps a slot per entity index: a unit spawned where a removed
    // one was does not inherit its days.
    use super::WorkLog;
    let mut world = World::new();
    let (p, q) = (world.spawn_empty().id(), world.spawn_empty().id());
    let gone = world.spawn_empty().id();
    let mut log = WorkLog::default();
    log.day(gone, p);
    log.day(gone, p);
    assert_eq!(log.get(gone), Some((p, 2)));
    // The entity a later spawn may get at the same index.
    let new = Entity::from_index_and_generation(gone.index(), gone.generation().after_versions(1));
    assert_eq!(log.get(new), None, "the new unit worked no day");
    log.day(new, p);
    log.day(new, q);
    assert_eq!(log.get(new), Some((q, 1)), "the day at p is lost when it works at q");
    assert_eq!(log.get(gone), None);
    assert_eq!(log.get(p), None, "an entity that never worked");
}

#[test]
fn the_invisible_work_counts_the_same_days_marked_or_looked_up_pfx_work_grd_half() {
    // PFX-WORK, GRD-HALF, CASH-WORK: a day of the invisible WORK for the idle units
    // given, where each stands, but not for one on guard today (one on guard
    // yesterday works), nor for a unit not given. The two ways of counting it (a
    // look-up per unit, or marks and a pass over every unit) count the same days.
    use super::{WorkLog, work_each, work_marked};
    use crate::systems::overlord::world::components::OnGuard;
    let units = r#"
    (id: "U1", name: "A", faction: "fa", race: "man", figures: 1, location: "L1"),
    (id: "U2", name: "B", faction: "fa", race: "man", figures: 1, location: "L2"),
    (id: "U3", name: "C", faction: "fb", race: "man", figures: 1, location: "L1"),
    (id: "U4", name: "D", faction: "fb", race: "man", figures: 1, location: "L2"),
    (id: "U5", name: "E", faction: "fb", race: "man", figures: 1, location: "L1"),"#;
    let mut e = engine(scenario(&world(5, 12, units, 0)));
    let [u1, u2, u3, u4, u5] = ["U1", "U2", "U3", "U4", "U5"].map(|id| unit(&e, id));
    let (l1, l2) = {
        let dir = e.world().resource::<Directory>();
        (dir.get(Kind::Location, "L1").unwrap(), dir.get(Kind::Location, "L2").unwrap())
    };
    let world = e.world_mut();
    world.entity_mut(u3).insert(OnGuard(4));
    world.entity_mut(u4).insert(OnGuard(3));
    let idle = [u1, u4, u3, u2];
    let mut logs = Vec::new();
    for count in [work_each as fn(&mut World, &[Entity], u32), work_marked] {
        *world.resource_mut::<WorkLog>() = WorkLog::default();
        // Two days, the second without U1: yesterday's marks count no more.
        count(world, &idle, 3);
        count(world, &idle[1..], 4);
        let log = world.resource::<WorkLog>();
        logs.push([u1, u2, u3, u4, u5].map(|u| log.get(u)));
    }
    assert_eq!(logs[0], [Some((l1, 1)), Some((l2, 2)), Some((l1, 1)), Some((l2, 1)), None], "looked up");
    assert_eq!(logs[1], logs[0], "marked");
}
