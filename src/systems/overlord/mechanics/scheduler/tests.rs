//! Whole months on a tiny world: orders as text, state and events checked.

use crate::systems::overlord::Overlord;
use crate::systems::overlord::orders::syntax::Keyword;

use super::*;
use crate::core::engine::plan::PlanApp;
use crate::core::engine::{Engine, Threads};
use crate::systems::overlord::testkit::*;
use crate::systems::overlord::world::components::{DisplayName, Funds, Inventory, StackLeader};
use bevy_app::App;

/// Two factions; fb holds fa Friendly. U5 of fa waits in L2; the structure B1 stands in L1.
const WORLD: &str = r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 0),
  factions: [
    (id: "fa", name: "Alphans", password: "pa", default_stance: "neutral", funds: {"coin": 500}),
    (id: "fb", name: "Betans", password: "pb", default_stance: "neutral", stances: {"fa": "friend"}),
  ],
  locations: [
    (id: "L1", name: "Ford", terrain: "city", population: 1000),
    (id: "L2", name: "Heath", terrain: "plai", population: 200),
  ],
  structures: [(id: "B1", kind: "gtow", location: "L1")],
  units: [
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1",
     items: [("coin", 100, 0)], skills: [("cmbt", 3000)]),
    (id: "U2", name: "Ann's men", faction: "fa", race: "man", figures: 10, location: "L1", stack_leader: Some("U1"),
     items: [("swrd", 12, 0)], skills: [("blde", 3000)]),
    (id: "U3", name: "Bob", faction: "fb", race: "ldr", figures: 1, location: "L1"),
    (id: "U4", name: "Cid", faction: "fb", race: "ldr", figures: 1, location: "L2"),
    (id: "U5", name: "Dee", faction: "fa", race: "ldr", figures: 1, location: "L2"),
  ],
)"#;

fn game() -> Engine<Overlord> {
    engine_without_money(scenario(WORLD))
}

fn has(events: &[String], text: &str) -> bool {
    events.iter().any(|e| e.contains(text))
}

/// A test system: brings U4 to L1 in the movement phase of day 5.
fn u4_arrives_on_day_5(world: &mut World) {
    use crate::systems::overlord::world::resources::Kind;
    if world.resource::<Clock>().tick == 5 {
        let dir = world.resource::<Directory>();
        let (u4, l1) = (dir.get(Kind::Unit, "U4").unwrap(), dir.get(Kind::Location, "L1").unwrap());
        let a = *world.get::<At>(u4).unwrap();
        world.entity_mut(u4).insert(At { location: l1, ..a });
        world.resource_mut::<Visiting>().invalidate();
    }
}

#[test]
fn give_waits_for_its_target_to_arrive_pfx_seq() {
    // PFX-SEQ, ORD-GIVE: GIVE U4 waits until U4 is present; a test system brings U4
    // to L1 in the movement phase of day 5, so the gift happens on day 6.
    let mut e = engine_with(scenario(WORLD), false, |app: &mut App| {
        app.add_step_system("movement", u4_arrives_on_day_5);
    });
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nGIVE U4 coin 10\n"]);
    assert!(has(&events(&e, "U1"), "6: Gave 10 coins [coin] to Cid [U4]."), "{:?}", events(&e, "U1"));
    assert!(has(&events(&e, "U4"), "6: Received 10 coins [coin] from Ann [U1]."));
    assert_eq!(count(&e, "U1", "coin"), 90);
    assert!(orders(&e, "U1").is_empty(), "the GIVE ran and left the list");
}

#[test]
fn a_gift_the_receiver_refuses_is_removed_dip_friendly() {
    // fa holds fb Neutral: fa's units do not accept fb's gifts.
    let mut e = game();
    let text = "GAME fb pb\nUNIT U3\nGIVE U1 coin 1\n";
    let (u3, coin) = (unit(&e, "U3"), e.world().resource::<Catalog>().item("coin").unwrap());
    e.world_mut().get_mut::<Inventory>(u3).unwrap().0.push(crate::systems::overlord::world::components::Holding {
        item: coin,
        count: 5,
        equipped: 0,
    });
    run_month(&mut e, &[text]);
    assert!(has(&events(&e, "U3"), "GIVE U1 coin 1: removed from the orders: Ann [U1] does not accept gifts"));
    assert_eq!(count(&e, "U3", "coin"), 5);
}

#[test]
fn synchro_pairs_fire_together_anywhere_in_one_faction_ord_synchro() {
    // The rules' example: on day 10 both units describe themselves at the same moment;
    // U1 is in L1 and U5 in L2 (same faction: anywhere).
    let mut e = game();
    run_month(
        &mut e,
        &["GAME fa pa\nUNIT U1\nDAY 10\n-SYNCHRO U5\n--NAME \"One\"\nUNIT U5\nDAY 10\n-SYNCHRO U1\n--NAME \"Five\"\n"],
    );
    assert!(has(&events(&e, "U1"), "10: Synchronised with Dee [U5]."), "{:?}", events(&e, "U1"));
    assert!(has(&events(&e, "U1"), "10: Is now called One."));
    assert!(has(&events(&e, "U5"), "10: Is now called Five."));
    assert!(orders(&e, "U1").is_empty() && orders(&e, "U5").is_empty());
    // A SYNCHRO whose partner never answers waits, with what follows it.
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nSYNCHRO U5\n-NAME \"x\"\n"]);
    assert_eq!(orders(&e, "U1"), ["SYNCHRO U5", "-NAME \"x\""]);
}

#[test]
fn an_order_that_waits_all_month_says_so_once_pfx_seq() {
    // PFX-SEQ: GIVE U4 waits for Cid, who stays in L2. The order is kept, and the
    // last day of the month says so; the dashed order behind it was never tried.
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nGIVE U4 coin 10\n-NAME \"x\"\n"]);
    let ev = events(&e, "U1");
    let waits: Vec<&String> = ev.iter().filter(|x| x.contains("waited all month")).collect();
    assert_eq!(
        waits,
        ["30: GIVE U4 coin 10: waited all month, its conditions never met. The order stays in the list."]
    );
    assert_eq!(orders(&e, "U1"), ["GIVE U4 coin 10", "-NAME \"x\""]);
    // An order that ran on some day of the month says nothing of the days it waited.
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT U1\n@NAME \"Ann\"\n"]);
    assert!(!has(&events(&e, "U1"), "waited all month"), "{:?}", events(&e, "U1"));
}

#[test]
fn one_synchro_per_unit_per_day_ord_synchro() {
    // ORD-SYNCHRO: "One SYNCHRO per day." The second pair waits for day 2.
    let mut e = game();
    run_month(
        &mut e,
        &[
            "GAME fa pa\nUNIT U1\nSYNCHRO U5\n-NAME \"One\"\nSYNCHRO U5\n-NAME \"Two\"\nUNIT U5\nSYNCHRO U1\nSYNCHRO U1\n",
        ],
    );
    let ev = events(&e, "U1");
    assert!(has(&ev, "1: Is now called One."), "{ev:?}");
    assert!(has(&ev, "2: Is now called Two."), "{ev:?}");
    assert!(!has(&ev, "1: Is now called Two."), "{ev:?}");
}

/// A WORK handler that records the order in which the full-day pass visits units.
#[derive(Resource, Default)]
struct Visits(Vec<(u32, String)>);

fn record_work(act: &mut Act, _: &mut Entry) -> Outcome {
    let id = act.world.get::<crate::systems::overlord::world::components::Id>(act.unit).unwrap().0.clone();
    let day = act.day;
    act.world.resource_mut::<Visits>().0.push((day, id));
    Outcome::Ran(crate::systems::overlord::orders::queue::Progress::Step)
}

fn recording_engine() -> Engine<Overlord> {
    engine_with(scenario(WORLD), false, |app: &mut App| {
        app.init_resource::<Visits>();
        app.world_mut().resource_mut::<OrderHandlers>().set(module_path!(), Keyword::Work, record_work);
    })
}

fn visits_on(e: &Engine<Overlord>, day: u32) -> Vec<String> {
    e.world().resource::<Visits>().0.iter().filter(|v| v.0 == day).map(|v| v.1.clone()).collect()
}

#[test]
fn the_units_with_immediate_orders_are_found_alike_by_search_and_by_reading_them_all_sch_imm_sch_unit() {
    // SCH-IMM, SCH-UNIT: the immediate passes find the units with immediate
    // orders by a search for their places or by reading every unit's bits (as
    // the share of such units has it): the same units in the same order each day,
    // whatever moves (U2 leaves the stack, is promoted, enters B1 and leaves it;
    // U1 gives every day), so the same month.
    let orders = [
        "GAME fa pa\nUNIT U1\n@GIVE U2 coin 1\nD3 PROMOTE U2\nUNIT U2\nUNSTACK\nD4 ENTER B1\nD9 LEAVE\n@GIVE U1 swrd 1\n",
    ];
    let month = |below: usize| {
        let mut e = recording_engine();
        e.world_mut().resource_mut::<Visiting>().searched_below = Some(below);
        run_month(&mut e, &orders);
        let said: Vec<Vec<String>> = ["U1", "U2", "U3", "U4", "U5"].iter().map(|id| events(&e, id)).collect();
        (said, format!("{:?}", e.state().units), e.world().resource::<Visits>().0.clone())
    };
    // Always searched (no share is below none) and never.
    let (searched, read) = (month(0), month(usize::MAX));
    assert!(searched.0[0].iter().filter(|t| t.contains("Gave")).count() > 20, "U1 gave every day: {:?}", searched.0[0]);
    assert!(searched.0[1].iter().any(|t| t.contains("B1")), "U2 entered B1: {:?}", searched.0[1]);
    assert_eq!(searched, read);
}

#[test]
fn units_are_visited_by_location_then_report_order_and_promote_changes_it_sch_unit() {
    // SCH-LOC, SCH-UNIT: L1 before L2; in L1 the units outside, then those in B1.
    let mut e = recording_engine();
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nENTER B1\n"]);
    assert_eq!(visits_on(&e, 1), ["U1", "U3", "U2", "U4", "U5"], "U2 entered B1 on day 1");
    // ORD-PROMOTE, SCH-ORDERDEP: Ann's men leave her stack on day 1; on day 2 she
    // promotes them, and they act before her from then on.
    let mut e = recording_engine();
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nUNSTACK\nUNIT U1\nD2 PROMOTE U2\n"]);
    assert_eq!(visits_on(&e, 1), ["U1", "U2", "U3", "U4", "U5"]);
    assert_eq!(visits_on(&e, 2), ["U2", "U1", "U3", "U4", "U5"], "U2 acts before U1 from day 2");
    let s = e.state();
    let ids: Vec<&str> = s.units.iter().map(|u| u.id.as_str()).collect();
    assert_eq!(ids, ["U2", "U1", "U3", "U4", "U5"], "the report order is saved");
}

#[test]
fn promote_moves_only_the_faction_s_own_units_ord_promote() {
    // ORD-PROMOTE (docs/orders.md): Bob of fb stands beside Ann at the same level, but
    // fa's order cannot reorder fb's units; the order goes with its reason.
    let mut e = recording_engine();
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nPROMOTE U3\n"]);
    assert_eq!(visits_on(&e, 2), ["U1", "U2", "U3", "U4", "U5"], "nothing moved");
    assert!(has(&events(&e, "U1"), "1: PROMOTE U3: removed from the orders: Bob [U3] is not a unit of this faction."));
    assert!(orders(&e, "U1").is_empty());
}

#[test]
fn a_51st_order_is_ignored_file_limit() {
    let mut text = String::from("GAME fa pa\nUNIT U1\n");
    for i in 1..=51 {
        text.push_str(&format!("D{} DAY 31\n", i % 30 + 1));
    }
    let mut e = game();
    run_month(&mut e, &[&text]);
    assert_eq!(orders(&e, "U1").len(), 50);
    assert!(has(&events(&e, "fa"), "0: Orders, line 53: unit U1 already has 50 orders; this one is ignored."));
}

#[test]
fn a_never_created_new_id_is_purged_from_every_list_file_newid_life() {
    let mut e = game();
    run_month(
        &mut e,
        &["GAME fa pa\nUNIT U1\nSEE fanU01\n-GIVE fanU01 coin 5\nPILLAGE\nUNIT fanU01\nNAME \"Recruits\"\n"],
    );
    assert_eq!(orders(&e, "U1"), ["PILLAGE"]);
    assert!(has(&events(&e, "U1"), "2 orders naming fanU01 removed: no unit or structure fanU01 was created"));
    assert!(has(&events(&e, "fa"), "Orders for fanU01 dropped: no unit fanU01 was created this month."));
    // Another faction's new id cannot be given orders.
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT fbnU01\nNAME \"x\"\n"]);
    assert!(has(&events(&e, "fa"), "orders for fbnU01 ignored"));
}

#[test]
fn orders_of_a_mechanic_left_out_say_plainly_that_they_did_nothing() {
    // This engine runs without the money mechanic: WORK has no handler. It waits in
    // the list and says so once a month.
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nWORK\n"]);
    let ev = events(&e, "U1");
    let notes: Vec<&String> = ev.iter().filter(|x| x.contains("does nothing")).collect();
    assert_eq!(notes.len(), 1, "reported once a month: {ev:?}");
    assert_eq!(notes[0], "0: WORK: does nothing: money is not part of this engine yet. The order stays in the list.");
    assert_eq!(orders(&e, "U1"), ["WORK"]);
}

#[test]
fn orders_restricted_to_a_kind_of_unit_are_removed_for_others_pfx_kind() {
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nBUY 1 swrd\n-NAME \"after\"\n"]);
    assert!(has(&events(&e, "U2"), "1: BUY 1 swrd: removed from the orders: only leaders may give BUY."));
    assert!(has(&events(&e, "U2"), "1: Is now called after."), "the next order loses its dash");
}

#[test]
fn stacks_stack_unstack_eject_and_accept() {
    // ORD-STACK under a unit of another faction needs its ACCEPT (ORD-ACCEPT).
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nSTACK U3\n", "GAME fb pb\nUNIT U3\nWAIT 2\n-ACCEPT U1\n"]);
    let leader = |e: &Engine<Overlord>, id: &str| e.world().get::<StackLeader>(unit(e, id)).unwrap().0;
    assert_eq!(leader(&e, "U1"), None, "refused on day 1: no ACCEPT yet");
    assert!(has(&events(&e, "U1"), "does not accept this unit in its stack"));
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nWAIT 3\n-STACK U3\n", "GAME fb pb\nUNIT U3\nWAIT 2\n-ACCEPT U1\n"]);
    assert_eq!(leader(&e, "U1"), Some(unit(&e, "U3")));
    assert!(orders(&e, "U3").is_empty(), "the ACCEPT was used");
    // U2 came along under U1 (STK-LEAD); EJECT by U1 puts U2 under U3 directly.
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nEJECT U2\n"]);
    assert_eq!(leader(&e, "U2"), Some(unit(&e, "U3")));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nUNSTACK\n"]);
    assert_eq!(leader(&e, "U1"), None);
    // Only leaders lead stacks.
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nSTACK U2\n"]);
    assert!(has(&events(&e, "U1"), "a unit cannot stack under itself or a unit of its own stack"));
}

#[test]
fn enter_and_leave_move_the_substack_ord_enter_ord_leave() {
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nENTER B1\nWAIT 4\n-LEAVE\n"]);
    let at = |e: &Engine<Overlord>, id: &str| e.world().get::<At>(unit(e, id)).unwrap().structure;
    assert!(has(&events(&e, "U1"), "1: Entered B1."));
    assert!(has(&events(&e, "U1"), "5: Left B1."));
    assert_eq!(at(&e, "U1"), None);
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nENTER B1\n"]);
    let b1 = e.world().resource::<Directory>().get(crate::systems::overlord::world::resources::Kind::Structure, "B1");
    assert_eq!(at(&e, "U1"), b1);
    assert_eq!(at(&e, "U2"), b1, "the stacked men came along");
    // Bob of fb may not enter: fa, Ann's faction, holds fb Neutral.
    run_month(&mut e, &["GAME fb pb\nUNIT U3\nENTER B1\n"]);
    assert!(has(&events(&e, "U3"), "the owner of B1 does not let this unit in"));
}

#[test]
fn identity_orders_and_settings() {
    let mut e = game();
    run_month(
        &mut e,
        &[
            "GAME fa pa\nUNIT U1\nNAME “Ann the Bold”\nDESCRIBE \"tall\"\nSETTING silent on\nSTANCE fb ally\nSTANCE fa hostile\nTACTIC fight center left stand\nCOMBAT cmbt\n",
        ],
    );
    let u1 = unit(&e, "U1");
    assert_eq!(e.world().get::<DisplayName>(u1).unwrap().0, "Ann the Bold");
    let s = e.state();
    let rec = s.units.iter().find(|u| u.id == "U1").unwrap();
    assert_eq!(rec.description, "tall");
    assert!(rec.settings.silent);
    assert_eq!(rec.tactics.as_ref().unwrap().rank, "middle", "CENTER is the middle rank (ORD-TACTIC)");
    assert_eq!(rec.combat_orders, ["cmbt"]);
    let fa = s.factions.iter().find(|f| f.id == "fa").unwrap();
    assert_eq!(fa.stances.get("fb").map(String::as_str), Some("ally"));
    assert_eq!(fa.default_stance, "hostile");
}

#[test]
fn equip_drop_get_and_withdraw() {
    let mut e = game();
    // ORD-EQUIP: 12 swords, 10 men: at most 10 equipped.
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nEQUIP swrd\nDROP swrd 0 10\nUNIT U1\nWITHDRAW 50\n"]);
    let inv = e.world().get::<Inventory>(unit(&e, "U2")).unwrap().0.clone();
    assert_eq!((inv[0].count, inv[0].equipped), (10, 10), "2 unequipped swords were dropped first");
    assert_eq!(e.state().locations[0].inventory, [crate::systems::overlord::data::ItemCount("swrd".into(), 2)]);
    assert_eq!(count(&e, "U1", "coin"), 150);
    let fa = e.world().resource::<Directory>().factions[0];
    assert_eq!(e.world().get::<Funds>(fa).unwrap().0[0].1, 450);
    // GET L1 [number] item [left]: `GET L1 swrd 1` takes all but one.
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nGET L1 swrd 1\n"]);
    assert!(has(&events(&e, "U1"), "1: Picked up 1 sword [swrd]."), "{:?}", events(&e, "U1"));
    // WITHDRAW only in a city.
    run_month(&mut e, &["GAME fa pa\nUNIT U5\nWITHDRAW 5\n"]);
    assert!(has(&events(&e, "U5"), "WITHDRAW works only in a city"));
}

#[test]
fn disband_returns_figures_to_the_population_ord_disband() {
    // Days 1 to 29: the month's end moves the population.
    let mut e = game();
    let file = e.parse("GAME fa pa\nUNIT U2\nDISBAND CONFIRM\n").unwrap();
    e.submit(vec![file]);
    e.run_ticks(29);
    assert!(
        e.world().resource::<Directory>().get(crate::systems::overlord::world::resources::Kind::Unit, "U2").is_none()
    );
    let l1 = e.world().get::<At>(unit(&e, "U1")).unwrap().location;
    assert_eq!(e.world().get::<crate::systems::overlord::world::components::Population>(l1).unwrap().0, 1010);
    assert!(has(&events(&e, "fa"), "Ann's men [U2] disbanded; its 10 figures joined the local population."));
    assert_eq!(e.state().units.len(), 4);
}

#[test]
fn conditions_at_have_size_skill_leader_leading() {
    let mut e = game();
    run_month(
        &mut e,
        &[
            "GAME fa pa\nUNIT U2\nAT L1\n-LEADER U1\n--SIZE 10\n---HAVE swrd 12\n----NAME \"ok\"\nUNIT U1\nSKILL cmbt 1\n-SKILL cmbt 30 DAYS\n--LEADING U2\n---NAME \"lead\"\nAT L2\n+NAME \"here\"\n",
        ],
    );
    assert!(has(&events(&e, "U2"), "1: Is now called ok."), "{:?}", events(&e, "U2"));
    assert!(has(&events(&e, "U1"), "1: Is now called lead."), "{:?}", events(&e, "U1"));
    assert!(has(&events(&e, "U1"), "1: Is now called here."));
    assert_eq!(orders(&e, "U1"), ["AT L2"]);
}

#[test]
fn the_same_orders_give_the_same_month_on_one_thread_or_many() {
    let text = "GAME fa pa\nUNIT U1\nDAY 3\n-GIVE U2 coin 7\nUNIT U2\nHAVE coin 7\n-DROP coin 2\n";
    // Every mechanic, wages and upkeep included.
    let mut one = Engine::<Overlord>::new(overlord_rules(), scenario(WORLD), Threads::One).unwrap();
    run_month(&mut one, &[text]);
    let mut many = Engine::<Overlord>::new(overlord_rules(), scenario(WORLD), Threads::Count(3)).unwrap();
    run_month(&mut many, &[text]);
    assert_eq!(one.state(), many.state());
    assert_eq!(one.reports(), many.reports());
}

/// SCH-LOC, SCH-UNIT: after units move (between locations, into a structure, out of
/// the world), the order kept up to date by merging is the one built from scratch.
#[test]
fn moved_units_take_the_place_a_fresh_order_gives_them() {
    let mut e = game();
    let w = e.world_mut();
    w.resource_mut::<Visiting>().invalidate();
    refresh(w);
    let dir = w.resource::<Directory>().clone();
    let get = |id: &str| dir.get(crate::systems::overlord::world::resources::Kind::Unit, id).unwrap();
    let (l1, l2) = (
        dir.get(crate::systems::overlord::world::resources::Kind::Location, "L1").unwrap(),
        dir.get(crate::systems::overlord::world::resources::Kind::Location, "L2").unwrap(),
    );
    let b1 = dir.get(crate::systems::overlord::world::resources::Kind::Structure, "B1").unwrap();
    let before = w.resource::<Visiting>().order.clone();
    assert_eq!(before, ["U1", "U2", "U3", "U4", "U5"].map(get).to_vec());
    // U1 walks to L2, U5 to L1 and into B1, U3 vanishes.
    let a = *w.get::<At>(get("U1")).unwrap();
    w.entity_mut(get("U1")).insert(At { location: l2, ..a });
    w.entity_mut(get("U5")).insert(At { location: l1, structure: Some(b1) });
    w.despawn(get("U3"));
    for id in ["U1", "U5", "U3"] {
        w.resource_mut::<Visiting>().moved(get(id));
    }
    refresh(w);
    let merged = w.resource::<Visiting>().order.clone();
    assert_eq!(merged, ["U2", "U5", "U1", "U4"].map(get).to_vec(), "L1 outside, L1 in B1, then L2 by report order");
    let fresh: Vec<Entity> = visiting_keys(w).into_iter().map(|k| k.3).collect();
    assert_eq!(merged, fresh);
}

/// SCH-LOC, SCH-UNIT: random moves (to either place, in or out of the structure,
/// some units moved twice, some vanished, some listed twice) leave the merged order
/// equal to the one built from scratch, every time.
#[test]
fn any_moves_leave_the_merged_order_equal_to_a_fresh_one() {
    use crate::systems::overlord::world::resources::Kind;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    for seed in 0..20u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut e = game();
        let w = e.world_mut();
        let dir = w.resource::<Directory>().clone();
        let places = [dir.get(Kind::Location, "L1").unwrap(), dir.get(Kind::Location, "L2").unwrap()];
        let b1 = dir.get(Kind::Structure, "B1").unwrap();
        let mut alive: Vec<Entity> = dir.units().to_vec();
        w.resource_mut::<Visiting>().invalidate();
        refresh(w);
        for round in 0..15 {
            for _ in 0..rng.random_range(0..5) {
                if alive.is_empty() {
                    break;
                }
                let u = alive[rng.random_range(0..alive.len())];
                match rng.random_range(0..8) {
                    0 if round > 5 => {
                        w.despawn(u);
                        alive.retain(|&x| x != u);
                    }
                    k => {
                        let location = places[k % 2];
                        let structure = (location == places[0] && rng.random_range(0..2) == 0).then_some(b1);
                        w.entity_mut(u).insert(At { location, structure });
                    }
                }
                w.resource_mut::<Visiting>().moved(u);
                if rng.random_range(0..4) == 0 {
                    w.resource_mut::<Visiting>().moved(u);
                }
            }
            refresh(w);
            let merged = w.resource::<Visiting>().order.clone();
            let fresh: Vec<Entity> = visiting_keys(w).into_iter().map(|k| k.3).collect();
            assert_eq!(merged, fresh, "seed {seed}, round {round}");
            // Each unit's place is kept with it for the next arrivals.
            let v = w.resource::<Visiting>();
            for (u, p) in v.order.iter().zip(&v.places) {
                assert_eq!(v.place_of.get(*u), Some(p), "seed {seed}, round {round}");
            }
        }
    }
}

#[test]
fn an_order_for_one_day_runs_on_it_every_month_pfx_day_pfx_repeat() {
    // PFX-DAY, PFX-REPEAT: @D30 GIVE runs on day 30 of each month, month after month
    // in one run of the engine: last month's day 30 does not count as this month's.
    let mut e = game();
    run_month(&mut e, &["GAME fa pa\nUNIT U1\n@D30 GIVE U2 coin 1\n"]);
    run_month(&mut e, &[]);
    run_month(&mut e, &[]);
    assert_eq!((count(&e, "U1", "coin"), count(&e, "U2", "coin")), (97, 3));
    let gave: Vec<_> = events(&e, "U1").into_iter().filter(|t| t.contains("Gave")).collect();
    assert_eq!(gave, ["30: Gave 1 coin [coin] to Ann's men [U2]."], "the third month's events");
}

/// SCH-IMM: the immediate passes read only the lists that may hold something to
/// do (`listed`), kept up to date from the lists' change ticks; an order another
/// mechanic puts into a unit's list between two days runs on the next day, as
/// it did when every list was read every day.
#[test]
fn an_order_put_in_a_list_by_another_mechanic_runs_the_next_day_sch_imm() {
    use crate::systems::overlord::orders::queue::Queued;
    use crate::systems::overlord::world::resources::Kind;
    #[derive(Resource)]
    struct Planted(Option<Entry>);
    fn plant(world: &mut World) {
        if world.resource::<Clock>().tick != 5 {
            return;
        }
        let u5 = world.resource::<Directory>().get(Kind::Unit, "U5").unwrap();
        if let Some(entry) = world.resource_mut::<Planted>().0.take() {
            world.get_mut::<Orders>(u5).unwrap().0.push(Queued::new(entry));
        }
    }
    let mut e = engine_with(scenario(WORLD), false, |app: &mut App| {
        app.add_step_system("movement", plant);
    });
    let file = e.parse("GAME fa pa\nUNIT U5\nNAME \"Zed\"\n").unwrap();
    let entry = file.units[0].orders[0].entry.clone();
    e.world_mut().insert_resource(Planted(Some(entry)));
    // U5 starts the month with nothing to do in the immediate passes.
    run_month(&mut e, &["GAME fa pa\nUNIT U5\nWORK\n"]);
    let u5 = unit(&e, "U5");
    assert_eq!(e.world().get::<DisplayName>(u5).unwrap().0, "Zed");
    assert!(e.world().resource::<Planted>().0.is_none(), "planted on day 5");
    assert!(orders(&e, "U5").iter().all(|o| !o.starts_with("NAME")), "the NAME ran: {:?}", orders(&e, "U5"));
}

/// SCH-IMM, SCH-FULL: a step marks a unit's list changed only when what the
/// list's bits say changed (`listed`): a WORK repeated every day, or a GIVE
/// that waits for its receiver, is booked without the list being read again
/// the next day; the GIVE that runs and leaves the list marks it, and the
/// month goes as before (the gift on day 6, the work every day).
#[test]
fn a_step_marks_the_list_changed_only_when_its_bits_change_sch_imm() {
    use crate::systems::overlord::world::components::Id;
    #[derive(Resource, Default)]
    struct Changed(Vec<(u32, String)>);
    fn record(clock: Res<Clock>, lists: Query<(&Id, Ref<Orders>)>, mut changed: ResMut<Changed>) {
        for (id, list) in &lists {
            if list.is_changed() {
                changed.0.push((clock.tick, id.0.clone()));
            }
        }
    }
    let paid = WORLD.replace("population: 1000)", "population: 1000, wages: 12)");
    let mut e = engine_with(scenario(&paid), true, |app: &mut App| {
        app.init_resource::<Changed>();
        app.add_step_system("movement", u4_arrives_on_day_5);
        app.add_step_system("movement", record);
    });
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nGIVE U4 coin 10\nUNIT U2\n@WORK\n"]);
    assert!(has(&events(&e, "U1"), "6: Gave 10 coins [coin] to Cid [U4]."), "{:?}", events(&e, "U1"));
    assert!(has(&events(&e, "U2"), "30 days of work in Ford [L1]"), "{:?}", events(&e, "U2"));
    assert_eq!(orders(&e, "U2"), ["@WORK"]);
    let changed = &e.world().resource::<Changed>().0;
    let on = |id: &str| changed.iter().filter(|(_, u)| u == id).map(|&(d, _)| d).collect::<Vec<u32>>();
    assert!(on("U2").iter().all(|&d| d == 1), "U2's bits never change after day 1: {:?}", on("U2"));
    assert_eq!(on("U1").into_iter().filter(|&d| d > 1).collect::<Vec<_>>(), [6], "marked when the GIVE left");
}

/// A component no entity had before the test gives it: the unit moves to a kind
/// of entity the pass's query has not met.
#[derive(Component)]
struct NotMetYet;

#[test]
fn a_handler_reads_the_acting_unit_alike_in_one_look_up_or_component_by_component_grd_half() {
    use crate::systems::overlord::world::components::{Journey, OnGuard, Production};
    use crate::systems::overlord::world::resources::Kind;
    let mut e = game();
    let world = e.world_mut();
    let catalog = world.resource::<Catalog>().clone();
    let dir = world.resource::<Directory>();
    let (u2, l1, l2) = (
        dir.get(Kind::Unit, "U2").unwrap(),
        dir.get(Kind::Location, "L1").unwrap(),
        dir.get(Kind::Location, "L2").unwrap(),
    );
    let blades = catalog.skill("blde").unwrap();
    let swords = catalog.item("swrd").unwrap();
    // U2: 10 figures with 12 swords in L1, on guard on day 3, a batch under way.
    world.entity_mut(u2).insert((OnGuard(3), Production(Some((blades, 250)))));
    let mut look = world.query::<Look>();
    let read = |world: &mut World, look: &QueryState<Look>, day: u32| {
        let act = Act::new(world, u2, day, &catalog, look);
        let me = act.me();
        let by_component = (act.at(u2), act.figures(u2), act.on_guard(u2), act.working_figures(u2));
        let seen = (me.at, me.figures, me.on_guard, me.working_figures(&catalog));
        assert_eq!(seen, by_component, "day {day}");
        (seen, me.production, me.inventory.map(|i| i.count(swords)))
    };
    let guard_share = on_guard_share(&catalog, 10);
    assert!(guard_share < 10, "the rule set's guard_work_percent halves a guard's work (GRD-HALF)");
    let on_day_3 = read(world, &look, 3);
    assert_eq!(on_day_3.0.0.map(|a| a.location), Some(l1));
    assert_eq!((on_day_3.0.1, on_day_3.0.2, on_day_3.0.3), (10, true, guard_share));
    assert_eq!(on_day_3.1, Some((blades, 250)));
    assert_eq!(on_day_3.2, Some(12));
    // The next day it is no longer on guard: all its figures work.
    let on_day_4 = read(world, &look, 4);
    assert_eq!((on_day_4.0.2, on_day_4.0.3), (false, 10));
    // Moved to a kind of entity the query has not met: read component by
    // component, the same values.
    world.entity_mut(u2).insert(NotMetYet);
    assert!(look.get_manual(world, u2).is_err(), "the query has not met U2's new kind of entity");
    assert_eq!(read(world, &look, 3), on_day_3);
    // On a journey it is nowhere (as `Act::at`), met or not by the query.
    let j = Journey { from: l1, to: l2, mode: 0, days: 5, elapsed: 1, kind: Default::default() };
    world.entity_mut(u2).insert(j);
    assert_eq!(read(world, &look, 3).0.0, None);
    look.update_archetypes(world);
    assert!(look.get_manual(world, u2).is_ok());
    assert_eq!(read(world, &look, 3).0.0, None);
    assert_eq!(read(world, &look, 3).1, Some((blades, 250)));
}

/// Each day's end: the days of work counted so far for units U2 to U5.
#[derive(Resource, Default)]
struct WorkDays(Vec<(u32, [Option<u32>; 4])>);

fn note_work_days(world: &mut World) {
    use crate::systems::overlord::mechanics::money::WorkLog;
    use crate::systems::overlord::world::resources::Kind;
    let day = world.resource::<Clock>().tick;
    let dir = world.resource::<Directory>();
    let units = ["U2", "U3", "U4", "U5"].map(|id| dir.get(Kind::Unit, id).unwrap());
    let log = world.resource::<WorkLog>();
    let days = units.map(|u| log.get(u).map(|(_, n)| n));
    world.resource_mut::<WorkDays>().0.push((day, days));
}

/// A test system: U5 is on guard every day, from before the full-day pass.
fn u5_on_guard(world: &mut World) {
    use crate::systems::overlord::world::components::OnGuard;
    use crate::systems::overlord::world::resources::Kind;
    let day = world.resource::<Clock>().tick;
    let u5 = world.resource::<Directory>().get(Kind::Unit, "U5").unwrap();
    world.entity_mut(u5).insert(OnGuard(day));
}

#[test]
fn a_unit_with_no_full_day_order_works_as_it_stood_when_its_turn_came_sch_unit_sch_moving_pfx_work() {
    // SCH-UNIT, SCH-FULL, SCH-MOVING, PFX-WORK, STK-AGG: U1's MOVE sets its stack
    // out on day 1, in U1's turn of the full-day pass. U2, stacked under U1 but
    // listed before it, had its turn first, at rest: its full-day slot was free,
    // so it worked that day. U3, listed after U1, was on its way when its turn
    // came: no work. Neither works on the way. U4, alone, works every day; U5,
    // on guard every day (a test system puts it there), never (GRD-HALF). None
    // of U2 to U5 has a full-day order: a full-day pass that left such units
    // unread in their turn must still count what each was doing then.
    let text = r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 5),
  factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral")],
  locations: [
    (id: "L1", name: "Home", terrain: "plai", population: 100, weather: Some("fair"), exits: [(dir: "N", to: "L2")]),
    (id: "L2", name: "Away", terrain: "plai", population: 100, weather: Some("fair"), exits: [(dir: "S", to: "L1")]),
  ],
  structures: [],
  units: [
    (id: "U2", name: "Early", faction: "fa", race: "man", figures: 10, location: "L1", stack_leader: Some("U1")),
    (id: "U1", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "L1"),
    (id: "U3", name: "Late", faction: "fa", race: "man", figures: 10, location: "L1", stack_leader: Some("U1")),
    (id: "U4", name: "Alone", faction: "fa", race: "man", figures: 10, location: "L1"),
    (id: "U5", name: "Watch", faction: "fa", race: "man", figures: 10, location: "L1"),
  ],
)"#;
    let mut e = engine_with(scenario(text), true, |app: &mut App| {
        app.init_resource::<WorkDays>();
        app.add_step_system("day_end", note_work_days);
        app.add_step_system("lessons", u5_on_guard);
    });
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\n"]);
    assert_eq!(said(&e, "U1", "Set out from Home [L1] to Away [L2]"), Some(1));
    let seen = &e.world().resource::<WorkDays>().0;
    let on = |day: u32| seen.iter().find(|s| s.0 == day).unwrap().1;
    assert_eq!(on(1), [Some(1), None, Some(1), None], "day 1: U2 worked before the stack set out, U3 did not");
    assert_eq!(on(5), [Some(1), None, Some(5), None], "on the way, no work");
    // Arrived on day 9: both work at Away from day 10, U2's day at Home lost.
    assert_eq!(on(10), [Some(1), Some(1), Some(10), None]);
    assert_eq!(on(30), [Some(21), Some(21), Some(30), None]);
}

/// U2's smiths, 30 of them (a sword a day, 5 iron each, SKL-USE-CRAFT), and U3
/// beside them, after them in the visiting order.
const SMITHY: &str = r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 5),
  factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral")],
  locations: [(id: "L1", name: "Forge", terrain: "city", population: 100)],
  structures: [],
  units: [
    (id: "U2", name: "Smiths", faction: "fa", race: "man", figures: 30, location: "L1", skills: [("blsm", 3000)]),
    (id: "U3", name: "Porters", faction: "fa", race: "man", figures: 1, location: "L1"),
  ],
)"#;

/// A WORK handler: U3's hands U2 5 iron on days 1 and 12 (U2's invisible WORK
/// does nothing).
fn hand_over_iron(act: &mut Act, _: &mut Entry) -> Outcome {
    let u2 = act.unit_named("U2").unwrap();
    if matches!(act.day, 1 | 12) && act.unit != u2 {
        let iron = act.catalog().item("iron").unwrap();
        crate::systems::overlord::mechanics::transfer::add(&mut act.world.get_mut::<Inventory>(u2).unwrap(), iron, 5);
    }
    Outcome::Ran(crate::systems::overlord::orders::queue::Progress::Step)
}

#[test]
fn a_craft_lacking_inputs_sleeps_until_the_unit_s_items_change_sch_full_skl_use_craft() {
    // SCH-FULL, SKL-USE-CRAFT: a craft that lacks the inputs of its first batch
    // waits on the unit itself, and the full-day pass leaves the unit's list
    // untried until its items or work change. U2 waits on day 1; U3, visited
    // after it, hands it 5 iron in that same pass: U2 makes a sword on day 2,
    // then waits, dormant, until U3 hands it 5 more on day 12: a sword on day 13.
    let mut e = engine_with(scenario(SMITHY), false, |app: &mut App| {
        app.world_mut().resource_mut::<OrderHandlers>().set(module_path!(), Keyword::Work, hand_over_iron);
    });
    let files = ["GAME fa pa\nUNIT U2\n@USE blsm\nUNIT U3\n@WORK\n"];
    let parsed = files.iter().map(|t| e.parse(t).unwrap()).collect();
    e.submit(parsed);
    e.run_ticks(8);
    let u2 = unit(&e, "U2");
    assert!(e.world().resource::<Visiting>().dormant.get(u2).is_some(), "U2 waits on itself after its sword of day 2");
    e.run_ticks(22);
    let made: Vec<(u32, String)> = dated(&e, "U2").into_iter().filter(|(_, t)| t.starts_with("Produced")).collect();
    assert_eq!(made.iter().map(|m| m.0).collect::<Vec<_>>(), [2, 13], "{made:?}");
    assert_eq!((count(&e, "U2", "swrd"), count(&e, "U2", "iron")), (2, 0));
    assert_eq!(orders(&e, "U2"), ["@USE blsm"]);
}

#[test]
fn a_unit_with_an_order_for_a_day_of_its_own_is_not_left_dormant_sch_full_pfx_day() {
    // SCH-FULL, PFX-DAY: U2's craft waits on itself, but its list also holds a
    // WORK for day 10 alone, which the pass must try then: U2's WORK runs on day
    // 10 (a test handler counts the days of the WORK given, not the invisible
    // one), and on no other.
    #[derive(Resource, Default)]
    struct Given(Vec<u32>);
    fn given_work(act: &mut Act, entry: &mut Entry) -> Outcome {
        if entry.prefix.day.is_some() {
            let day = act.day;
            act.world.resource_mut::<Given>().0.push(day);
        }
        Outcome::Ran(crate::systems::overlord::orders::queue::Progress::Step)
    }
    let mut e = engine_with(scenario(SMITHY), false, |app: &mut App| {
        app.init_resource::<Given>();
        app.world_mut().resource_mut::<OrderHandlers>().set(module_path!(), Keyword::Work, given_work);
    });
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n@USE blsm\n@D10 WORK\n"]);
    assert_eq!(e.world().resource::<Given>().0, [10]);
    assert!(e.world().resource::<Visiting>().dormant.get(unit(&e, "U2")).is_none());
}
