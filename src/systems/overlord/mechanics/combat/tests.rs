//! Battle, scenario style: tiny worlds, orders as text, a day or a month run,
//! asserts on the state, the record and the report. Checklist ids in each name.

use super::Battles;
use super::record::BattleRecord;
use crate::systems::overlord::testkit::{Game, Tiny};
use crate::systems::overlord::world::components::Figures;

/// Two player factions at L1 (plains) with an exit north to L2: `fa` has `U1`, a
/// leader with 1st combat, and `U2`, ten men with 1st combat and swords under it;
/// `fb` has `U3`, ten men with 1st combat.
fn two_armies() -> Tiny {
    Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "plai")
        .location("L2", "plai")
        .exit("L1", "N", "L2")
        .exit("L2", "S", "L1")
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(&[("cmbt", 3000)])
        .unit("U2", "fa", "man", 10, "L1")
        .skills(&[("cmbt", 3000), ("blde", 3000)])
        .with_unit(|u| u.items.push(crate::systems::overlord::data::ItemHolding("swrd".into(), 10, 10)))
        .under("U1")
        .unit("U3", "fb", "man", 10, "L1")
        .skills(&[("cmbt", 3000)])
        .without_money()
}

fn battles(g: &Game) -> &[BattleRecord] {
    &g.engine.world().resource::<Battles>().0
}

fn alive(g: &Game, id: &str) -> bool {
    crate::systems::overlord::world::resources::Directory::get(
        g.engine.world().resource(),
        crate::systems::overlord::world::resources::Kind::Unit,
        id,
    )
    .is_some()
}

fn figures(g: &Game, id: &str) -> u32 {
    if alive(g, id) { g.get::<Figures>(id).0 } else { 0 }
}

#[test]
fn attack_starts_a_battle_at_the_end_of_the_day_ord_attack_cmb_trigger() {
    let mut g = two_armies().build();
    g.orders("fa", "UNIT U1\nATTACK U3\n").days(1);
    let b = battles(&g);
    assert_eq!(b.len(), 1, "one battle on day 1");
    assert_eq!(b[0].day, 1);
    assert_eq!(b[0].cause, "attack");
    let ids = |s: usize| b[0].sides[s].units.iter().map(|u| u.id.clone()).collect::<Vec<_>>();
    // STK-BATTLE: the leader brings its stack.
    assert_eq!(ids(0), ["U1", "U2"]);
    assert_eq!(ids(1), ["U3"]);
    assert!(g.said("U1", "Attacks U3 [U3]."), "{:?}", g.events("U1"));
    assert!(!b[0].rounds.is_empty());
}

#[test]
fn the_whole_stack_fights_and_the_dead_leave_loot_to_the_winners_cmb_stackpull_cmb_loot() {
    // fa's leader attacks fb's leader U4 with its armed stack while fb's men stay
    // out on AVOID: U4 dies and half its 100 coins go to a unit of the winning side.
    let mut g = two_armies().unit("U4", "fb", "ldr", 1, "L1").items(&[("coin", 100)]).build();
    g.orders("fa", "UNIT U1\nATTACK U4\n").orders("fb", "UNIT U3\nTACTIC AVOID REAR LEFT STAND\n").days(1);
    let b = &battles(&g)[0];
    assert_eq!(b.sides[0].units.len(), 2, "the leader and its stack");
    // CMB-PULL: the target's faction joins, except its unit on AVOID.
    let defenders: Vec<&str> = b.sides[1].units.iter().map(|u| u.id.as_str()).collect();
    assert_eq!(defenders, ["U4"]);
    // A lone unarmed leader against eleven: it falls, and fa wins.
    assert_eq!(b.winner, Some(0), "{:?}", b.aftermath);
    assert!(!alive(&g, "U4"), "{:?}", b.aftermath);
    let loot: u32 = ["U1", "U2"].iter().filter(|u| alive(&g, u)).map(|u| g.count(u, "coin")).sum();
    assert_eq!(loot, 50, "{:?}", b.aftermath);
    // Survivors are what the record says.
    assert_eq!(figures(&g, "U2"), b.sides[0].units[1].survivors);
}

#[test]
fn attack_on_your_own_unit_or_a_missing_one_is_refused_or_waits_ord_attack() {
    let mut g = two_armies().build();
    g.orders("fa", "UNIT U1\nATTACK U2\nUNIT U2\nATTACK U99\n").days(1);
    assert!(g.events("U1").iter().any(|e| e.contains("is a unit of your own faction")), "{:?}", g.events("U1"));
    assert!(battles(&g).is_empty());
}

#[test]
fn battle_experience_goes_to_the_survivors_skl_exp_battle() {
    let mut g = two_armies().build();
    let before = g.points("U2", "cmbt");
    g.orders("fa", "UNIT U1\nATTACK U3\n").days(1);
    let rounds = battles(&g)[0].rounds.len() as u32;
    // U2 survives with this seed; a day of combat (100 points) per round fought at
    // 1st combat, plus melee for rounds it struck.
    assert!(alive(&g, "U2"));
    let gained = g.points("U2", "cmbt") - before;
    assert_eq!(gained, 100 * rounds, "{gained} for {rounds} rounds");
    assert!(g.points("U2", "mele") > 0, "melee experience for MELEE rounds with 1st combat");
}

#[test]
fn battles_do_not_depend_on_the_thread_count() {
    let run = |threads| {
        let mut g = two_armies().build();
        g.engine.world_mut().insert_resource(crate::core::engine::ThreadCount(threads));
        g.orders("fa", "UNIT U1\nATTACK U3\n").days(1);
        format!("{:?}", battles(&g))
    };
    assert_eq!(run(1), run(4));
}
