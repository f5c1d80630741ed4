//! Journeys and guards on tiny worlds: two plains territories, L1 and L2, nine
//! days' walk apart (six riding, four flying), with the Overlord rules.

use crate::systems::overlord::Overlord;

use crate::core::engine::Engine;
use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::mechanics::combat::Battles;
use crate::systems::overlord::testkit::*;
use crate::systems::overlord::world::components::{At, Journey, Orders, Production, StackLeader};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Where unit U2 was at the end of each day, and whether it was travelling.
#[derive(Resource, Default)]
struct Seen(Vec<(u32, String, bool)>);

struct Recorder;

impl Plugin for Recorder {
    fn build(&self, app: &mut App) {
        app.init_resource::<Seen>();
        app.add_step_system("day_end", record);
    }
}

fn record(world: &mut World) {
    let day = world.resource::<Clock>().tick;
    let Some(u) = world.resource::<Directory>().get(Kind::Unit, "U2") else { return };
    let at = world.get::<At>(u).unwrap().location;
    let id = world.get::<crate::systems::overlord::world::components::Id>(at).unwrap().0.clone();
    let moving = world.get::<Journey>(u).is_some();
    world.resource_mut::<Seen>().0.push((day, id, moving));
}

/// `exits` of L1 toward L2 and back; `units` and `extra` (more factions) as RON.
fn world(exit: &str, units: &str, factions: &str) -> String {
    format!(
        r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 5),
  factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral", settings: (advertise: true)), {factions}],
  locations: [
    (id: "L1", name: "Home", terrain: "plai", population: 100, weather: Some("fair"),
     exits: [(dir: "N", to: "L2"{exit})]),
    (id: "L2", name: "Away", terrain: "plai", population: 100, weather: Some("fair"),
     exits: [(dir: "S", to: "L1"{exit})]),
  ],
  structures: [],
  units: [{units}],
)"#
    )
}

fn engine(text: &str) -> Engine<Overlord> {
    crate::systems::overlord::testkit::engine_with(scenario(text), false, |app| {
        app.add_plugins(Recorder);
    })
}

const LEADER: &str = r#"(id: "U1", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "L1"),"#;

fn men(extra: &str) -> String {
    format!(r#"(id: "U2", name: "Men", faction: "fa", race: "man", figures: 10, location: "L1"{extra}),"#)
}

fn seen(e: &Engine<Overlord>, day: u32) -> (String, bool) {
    let s = &e.world().resource::<Seen>().0;
    let x = s.iter().find(|x| x.0 == day).unwrap();
    (x.1.clone(), x.2)
}

#[test]
fn a_stack_walks_nine_days_and_is_seen_at_home_for_four_tv_move_mov_half_stk_agg() {
    // TV-MOVE: plains take 9 days' walk. The followers of the stack (STK-AGG) go
    // with their leader; they are seen at home for ⌊9/2⌋ = 4 days (MOV-HALF), then
    // at the destination, and arrive on day 9.
    let units = format!("{LEADER}{}", men(r#", stack_leader: Some("U1")"#));
    let mut e = engine(&world("", &units, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\nUNIT U2\nDAY 10\nNAME \"Travellers\"\n"]);
    assert_eq!(seen(&e, 1), ("L1".into(), true));
    assert_eq!(seen(&e, 3), ("L1".into(), true));
    assert_eq!(seen(&e, 4), ("L2".into(), true), "after 4 days the stack is seen at the destination");
    assert_eq!(seen(&e, 8), ("L2".into(), true));
    assert_eq!(seen(&e, 9), ("L2".into(), false), "arrived on day 9");
    assert_eq!(said(&e, "U1", "Arrived at Away [L2]"), Some(9));
    assert_eq!(said(&e, "U1", "Set out from Home [L1] to Away [L2], walking: 9 days"), Some(1));
    // Still under its leader, and free to act on day 10 (MOV-BUSY ends on arrival).
    assert_eq!(e.world().get::<StackLeader>(unit(&e, "U2")).unwrap().0, Some(unit(&e, "U1")));
    assert_eq!(said(&e, "U2", "DAY 10: condition met"), Some(10), "U2 acts again after arriving");
    assert_eq!(e.state().units[1].name, "Travellers");
}

#[test]
fn riders_take_a_third_less_and_flyers_four_days_mov_ride_mov_mode() {
    // MOV-RIDE: a leader on an equipped horse rides: 9 → 6 days. MOV-MODE: with a
    // pegasus equipped, flying (4 days) is the fastest mode the stack can use.
    let rider =
        r#"(id: "U1", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("hrse", 1, 1)]),"#;
    let mut e = engine(&world("", rider, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\n"]);
    assert_eq!(said(&e, "U1", "riding: 6 days"), Some(1));
    assert_eq!(said(&e, "U1", "Arrived"), Some(6));
    let flyer =
        r#"(id: "U1", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("pega", 1, 1)]),"#;
    let mut e = engine(&world("", flyer, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE L2\n"]);
    assert_eq!(said(&e, "U1", "flying: 4 days"), Some(1));
    assert_eq!(place(&e, "U1"), "L2");
}

#[test]
fn moving_wipes_work_in_progress_and_stay_drops_off_mov_busy_ord_stay() {
    // MOV-BUSY: unfinished production is lost on setting out. ORD-STAY: a member
    // with STAY leaves the stack just before it sets out, and stays.
    let units = format!(
        "{LEADER}{}{}",
        men(r#", stack_leader: Some("U1"), production: Some(("digg", 400))"#),
        r#"(id: "U3", name: "Stayers", faction: "fa", race: "man", figures: 5, location: "L1", stack_leader: Some("U1")),"#
    );
    let mut e = engine(&world("", &units, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\nUNIT U3\nSTAY\n"]);
    assert_eq!(e.world().get::<Production>(unit(&e, "U2")).unwrap().0, None);
    assert!(said(&e, "U2", "unfinished work was lost").is_some());
    assert_eq!((place(&e, "U2"), place(&e, "U3")), ("L2".into(), "L1".into()));
    assert_eq!(e.world().get::<StackLeader>(unit(&e, "U3")).unwrap().0, None);
    assert!(e.world().get::<Orders>(unit(&e, "U3")).unwrap().0.is_empty(), "STAY ran and left the list");
}

#[test]
fn followers_move_alone_only_with_scouting_and_leave_their_stack_first_mov_follower() {
    // MOV-FOLLOWER: a follower without scouting cannot MOVE on its own.
    let mut e = engine(&world("", &men(""), ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nMOVE N\n"]);
    assert_eq!(place(&e, "U2"), "L1");
    assert!(said(&e, "U2", "followers move only in a stack or with scouting").is_some());
    // With 1st scouting it can; stacked, it leaves its leader first (ORD-MOVE).
    let units = format!("{LEADER}{}", men(r#", stack_leader: Some("U1"), skills: [("scou", 3000)]"#));
    let mut e = engine(&world("", &units, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nMOVE N\n"]);
    assert_eq!((place(&e, "U1"), place(&e, "U2")), ("L1".into(), "L2".into()), "{:?}", dated(&e, "U2"));
    assert_eq!(e.world().get::<StackLeader>(unit(&e, "U2")).unwrap().0, None);
    assert_eq!(said(&e, "U2", "Left the stack of Lead [U1] to move"), Some(1));
}

#[test]
fn unknown_ways_and_overloaded_stacks_are_refused_with_the_reason_mov_dest_mov_over() {
    let heavy = r#"(id: "U1", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("ston", 100, 0)]),"#;
    let mut e = engine(&world("", heavy, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\nMOVE SE\n"]);
    assert_eq!(place(&e, "U1"), "L1");
    assert!(said(&e, "U1", "too heavy to move").is_some(), "{:?}", dated(&e, "U1"));
    assert!(said(&e, "U1", "there is no way to SE from Home [L1]").is_some(), "{:?}", dated(&e, "U1"));
}

#[test]
fn a_journey_outlasts_the_month_is_saved_and_retreat_takes_the_time_spent_mov_retreat() {
    // A 50-day passage: after month 1 the stack is 30 days out, seen at the
    // destination (past halfway, MOV-HALF), and the journey is saved with it.
    let units = format!("{LEADER}{}", men(r#", stack_leader: Some("U1")"#));
    let mut e = engine(&world(", days: Some(50)", &units, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\n"]);
    let saved = e.state();
    let j = saved.units[1].journey.clone().expect("U2's journey is saved");
    assert_eq!((j.from.as_str(), j.to.as_str(), j.days, j.elapsed), ("L1", "L2", 50, 30));
    assert_eq!(saved.units[1].location, "L2");
    // Month 2, from the saved state: RETREAT first turns the stack back; the way
    // home takes the 30 days spent, and it is seen at home after 15 (ORD-RETREAT).
    let mut e = engine(&ron::to_string(&saved).unwrap());
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nRETREAT\n"]);
    assert_eq!(seen(&e, 14), ("L2".into(), true));
    assert_eq!(seen(&e, 15), ("L1".into(), true));
    assert_eq!(seen(&e, 30), ("L1".into(), false));
    assert!(said(&e, "U1", "RETREAT: turned back toward Home [L1], 30 days away").is_some());
}

#[test]
fn a_retreat_cannot_be_retreated_and_a_member_that_retreats_breaks_off() {
    let units = format!("{LEADER}{}", men(r#", stack_leader: Some("U1"), skills: [("scou", 3000)]"#));
    let mut e = engine(&world(", days: Some(50)", &units, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\n"]);
    let saved = e.state();
    // The member retreats alone: it breaks off; the leader goes on.
    let mut e = engine(&ron::to_string(&saved).unwrap());
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nRETREAT\n"]);
    assert_eq!(e.world().get::<StackLeader>(unit(&e, "U2")).unwrap().0, None);
    assert_eq!(place(&e, "U2"), "L1");
    assert!(said(&e, "U1", "Arrived at Away [L2]").is_some());
    // A journey already turned back cannot be turned back again.
    let mut saved2 = saved.clone();
    for u in &mut saved2.units {
        if let Some(j) = &mut u.journey {
            j.kind = crate::systems::overlord::data::JourneyKind::Retreat;
        }
    }
    let mut e = engine(&ron::to_string(&saved2).unwrap());
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nRETREAT\n"]);
    assert!(said(&e, "U1", "already a retreat").is_some());
    assert!(said(&e, "U1", "Arrived at Away [L2]").is_some());
}

#[test]
fn a_stack_whose_leader_is_lost_on_the_way_stops_where_the_leader_was_stk_lost() {
    let units = format!("{LEADER}{}", men(r#", stack_leader: Some("U1")"#));
    let mut e = engine(&world(", days: Some(50)", &units, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\n"]);
    // The leader dies 30 days out, seen at L2: its men end their journey there.
    let leader = unit(&e, "U1");
    crate::systems::overlord::mechanics::stacks::remove_unit(e.world_mut(), leader, false);
    let u2 = unit(&e, "U2");
    assert!(e.world().get::<Journey>(u2).is_none());
    assert_eq!(place(&e, "U2"), "L2");
    assert_eq!(e.world().get::<StackLeader>(u2).unwrap().0, None);
    assert!(said(&e, "U2", "leader was lost on the way").is_some());
    // Next month they act again.
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nNAME \"Survivors\"\n"]);
    assert_eq!(e.state().units[0].name, "Survivors");
}

#[test]
fn a_caravan_shuttles_along_its_list_ord_caravan() {
    // One-day passages: `@CARAVAN L1 L2` goes out on odd days and back on even days.
    let mut e = engine(&world(", days: Some(1)", LEADER, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\n@CARAVAN L1 L2\n"]);
    assert_eq!(place(&e, "U1"), "L1");
    let arrivals = dated(&e, "U1").iter().filter(|x| x.1.starts_with("Arrived")).count();
    assert_eq!(arrivals, 30);
    // Without `@`, the order is done when the caravan reaches the end of its list.
    let mut e = engine(&world(", days: Some(1)", LEADER, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nCARAVAN L1 L2\n"]);
    assert_eq!(place(&e, "U1"), "L2");
    assert!(e.world().get::<Orders>(unit(&e, "U1")).unwrap().0.is_empty());
}

/// A guard of non-player faction `fg` at L2, holding `fa` at `stance`.
fn guarded(stance: &str, exit: &str, leader: &str) -> String {
    let factions = format!(
        r#"(id: "fg", name: "Guards", password: "pg", npc: true, default_stance: "neutral", stances: {{"fa": "{stance}"}})"#
    );
    let units = format!(
        r#"{leader}(id: "U9", name: "Watch", faction: "fg", race: "man", figures: 10, location: "L2", skills: [("cmbt", 3000)], orders: ["@GUARD"]),"#
    );
    world(exit, &units, &factions)
}

#[test]
fn a_guarded_place_turns_a_hostile_stack_back_mov_autoretreat() {
    let mut e = engine(&guarded("hostile", ", days: Some(4)", LEADER));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\n"]);
    assert_eq!(place(&e, "U1"), "L1");
    let back = said(&e, "U1", "Watch [U9], on guard, holds this stack hostile: turned back toward Home [L1], 4 days");
    assert_eq!(back, Some(4), "{:?}", dated(&e, "U1"));
    assert_eq!(said(&e, "U1", "Arrived at Home [L1]"), Some(8));
    assert!(e.world().resource::<Battles>().0.is_empty());
}

#[test]
fn a_march_into_a_guarded_place_is_a_battle_mov_guard_cmb_march() {
    // Guards without combat cannot wound, nor can the unskilled leader: a draw.
    let world = guarded("hostile", ", days: Some(4)", LEADER).replace(r#"skills: [("cmbt", 3000)], "#, "");
    let mut e = engine(&world);
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMARCH N\n"]);
    let b = &e.world().resource::<Battles>().0;
    assert_eq!(b.len(), 1, "the only battle");
    assert_eq!((b[0].day, b[0].cause.as_str(), b[0].location.as_str()), (4, "march", "L2"));
    assert_eq!((b[0].sides[0].units[0].id.as_str(), b[0].sides[1].units[0].id.as_str()), ("U1", "U9"));
    assert!(said(&e, "U9", "Battle at Away [L2]").is_some());
    assert!(said(&e, "U1", "Battle at Away [L2]").is_some());
    // CMB-MARCH: a march that did not win retreats the way it came, taking as long.
    assert_eq!(b[0].winner, None);
    assert_eq!(said(&e, "U1", "The march failed: retreats toward Home [L1], 4 days away"), Some(4));
    assert_eq!(place(&e, "U1"), "L1");
    // An Enemy guard attacks even a plain MOVE, which enters.
    let mut e = engine(&guarded("enemy", ", days: Some(4)", LEADER));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\n"]);
    let b = &e.world().resource::<Battles>().0;
    assert_eq!((b[0].day, b[0].cause.as_str(), b[0].sides[0].units[0].id.as_str()), (4, "guard", "U9"));
    // Then, each day the two are still there, the guard's faction attacks on sight.
    assert!(b[1..].iter().all(|x| x.cause == "enemy" && x.day > 4), "{b:?}");
}

#[test]
fn a_guard_stops_only_the_stacks_it_sees_vis_guard() {
    // U1 has 1st stealth (1); the guard's men look with 0: it walks past a guard
    // that holds its faction hostile, and one that holds it Enemy, unseen.
    let sneak = r#"(id: "U1", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "L1", skills: [("stea", 6000)]),"#;
    for stance in ["hostile", "enemy"] {
        let mut e = engine(&guarded(stance, ", days: Some(4)", sneak));
        run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\n"]);
        assert_eq!(said(&e, "U1", "Arrived at Away [L2]"), Some(4), "{stance}: {:?}", dated(&e, "U1"));
        assert!(said(&e, "U1", "holds this stack hostile").is_none());
        assert!(said(&e, "U9", "attacks an enemy stack arriving").is_none(), "{stance}");
        // Nor is it attacked on sight once there (CMB-SIGHT asks the same rule).
        assert!(e.world().resource::<Battles>().0.is_empty(), "{stance}");
    }
    // Announcing itself (SET-ANNOUNCE), the same unit is stopped.
    let shown = sneak.replace("skills:", "settings: (announce: true), skills:");
    let mut e = engine(&guarded("hostile", ", days: Some(4)", &shown));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\n"]);
    assert_eq!(place(&e, "U1"), "L1", "{:?}", dated(&e, "U1"));
    assert!(said(&e, "U1", "on guard, holds this stack hostile").is_some());
}

#[test]
fn flyers_pass_walking_guards_mov_flypast() {
    let flyer =
        r#"(id: "U1", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("pega", 1, 1)]),"#;
    let mut e = engine(&guarded("hostile", "", flyer));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE N\n"]);
    assert_eq!(place(&e, "U1"), "L2", "{:?}", dated(&e, "U1"));
    assert_eq!(said(&e, "U1", "Arrived at Away [L2]"), Some(4));
}

#[test]
fn player_guards_need_combat_and_a_title_covering_the_place_grd_req() {
    // A player unit with no title cannot guard; the order is removed with the reason.
    let units = r#"(id: "U1", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "L1", skills: [("cmbt", 3000)]),"#;
    let mut e = engine(&world("", units, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\n@GUARD\n"]);
    assert!(said(&e, "U1", "needs a title of the faction whose range covers it").is_some(), "{:?}", dated(&e, "U1"));
    // Without combat, neither.
    let mut e = engine(&world("", LEADER, ""));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\n@GUARD\n"]);
    assert!(said(&e, "U1", "guarding needs level 1 in cmbt").is_some());
    // A sheriff's title at L1 (range 1 walking day) covers L1 but not L2, 9 days
    // away; any unit of the title holder's faction may guard where it reaches.
    let titled = world("", units, "").replace(
        r#"terrain: "plai", population: 100, weather: Some("fair"),
     exits: [(dir: "N""#,
        r#"terrain: "plai", population: 100, weather: Some("fair"), titles: [(title: "shrf", holder: Some("U1"))],
     exits: [(dir: "N""#,
    );
    assert_ne!(titled, world("", units, ""), "the title is in place");
    let mut e = engine(&titled);
    run_month(&mut e, &["GAME fa pa\nUNIT U1\n@GUARD\n"]);
    assert_eq!(said(&e, "U1", "On guard at Home [L1]"), Some(1));
    assert_eq!(e.world().get::<Orders>(unit(&e, "U1")).unwrap().0.len(), 1, "@GUARD stays");
    let away = titled.replace(r#"figures: 1, location: "L1", skills"#, r#"figures: 1, location: "L2", skills"#);
    let mut e = engine(&away);
    run_month(&mut e, &["GAME fa pa\nUNIT U1\n@GUARD\n"]);
    assert!(said(&e, "U1", "guarding Away [L2] needs a title").is_some(), "{:?}", dated(&e, "U1"));
}

#[test]
fn a_guard_works_as_if_it_had_half_its_figures_grd_half() {
    // GRD-HALF, SCH-HALF: ten guards dig with five figures; a one-figure guard
    // studies nothing; guards earn no wages.
    let units = r#"
        (id: "U9", name: "Watch", faction: "fg", race: "man", figures: 10, location: "L2", skills: [("digg", 3000)]),
        (id: "U8", name: "Captain", faction: "fg", race: "ldr", figures: 1, location: "L2", items: [("coin", 1000, 0)]),
        (id: "U7", name: "Idle watch", faction: "fg", race: "man", figures: 10, location: "L2"),
    "#;
    let factions = r#"(id: "fg", name: "Guards", password: "pg", npc: true, default_stance: "neutral")"#;
    let text = world("", units, factions).replace(
        "population: 100,",
        "population: 100, wages: 2, resources: [(item: \"ston\", current: 500, max: 500)],",
    );
    let mut e = engine(&text);
    run_month(&mut e, &["GAME fg pg\nUNIT U9\n@GUARD\n@USE digg\nUNIT U8\n@GUARD\n@STUDY obse\nUNIT U7\n@GUARD\n"]);
    let stones = |e: &Engine<Overlord>, id: &str| {
        let i = e.world().resource::<crate::systems::overlord::world::Catalog>().item("ston").unwrap();
        e.world().get::<crate::systems::overlord::world::components::Inventory>(unit(e, id)).unwrap().count(i)
    };
    // Digging 1: a stone takes 6 figure-days. 5 figures × 30 days = 150 → 25 stones.
    assert_eq!(stones(&e, "U9"), 25);
    assert_eq!(crate::systems::overlord::testkit::points(&e, "U8", "obse"), 0, "a one-figure guard does nothing else");
    // Guards do not work: with wages paid, the idle watch on guard earns nothing
    // and the same unit off guard earns its wages.
    let mut e = crate::systems::overlord::testkit::engine(scenario(&text));
    run_month(&mut e, &["GAME fg pg\nUNIT U7\n@GUARD\n"]);
    let coins = |e: &Engine<Overlord>, id: &str| {
        let i = e.world().resource::<crate::systems::overlord::world::Catalog>().item("coin").unwrap();
        e.world().get::<crate::systems::overlord::world::components::Inventory>(unit(e, id)).unwrap().count(i)
    };
    assert_eq!(coins(&e, "U7"), 0, "guards do not work");
    let mut e = crate::systems::overlord::testkit::engine(scenario(&text));
    run_month(&mut e, &["GAME fg pg\nUNIT U7\nWORK\n"]);
    assert!(coins(&e, "U7") > 0, "off guard, the unit earns wages");
    // Without GUARD the same unit digs 50 stones.
    let mut e = engine(&text);
    run_month(&mut e, &["GAME fg pg\nUNIT U9\n@USE digg\n"]);
    assert_eq!(stones(&e, "U9"), 50);
}

#[test]
fn a_guard_studies_at_half_speed_grd_half() {
    let units = r#"(id: "U9", name: "Watch", faction: "fg", race: "man", figures: 10, location: "L2", items: [("coin", 5000, 0)]),"#;
    let factions = r#"(id: "fg", name: "Guards", password: "pg", npc: true, default_stance: "neutral")"#;
    let mut e = engine(&world("", units, factions));
    run_month(&mut e, &["GAME fg pg\nUNIT U9\n@GUARD\n10 STUDY cmbt\n"]);
    assert_eq!(crate::systems::overlord::testkit::points(&e, "U9", "cmbt"), 10 * 50);
}

/// A fishing boat B1 on the shore L1, the ocean L2, the far shore L4 (plains).
/// `aboard` are the units inside B1; U3 waits on the far shore.
fn sea_world(aboard: &str) -> String {
    format!(
        r#"(
  game: (name: "sea", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 5),
  factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral")],
  locations: [
    (id: "L1", name: "Shore", terrain: "plai", population: 100, weather: Some("fair"), exits: [(dir: "S", to: "L2")]),
    (id: "L2", name: "Sea", terrain: "ocea", weather: Some("fair"), exits: [(dir: "N", to: "L1"), (dir: "S", to: "L4")]),
    (id: "L4", name: "Far Shore", terrain: "plai", population: 100, weather: Some("fair"), exits: [(dir: "N", to: "L2")]),
  ],
  structures: [(id: "B1", kind: "fshi", location: "L1", owner: Some("fa"))],
  units: [{aboard}
    (id: "U3", name: "Waiting", faction: "fa", race: "ldr", figures: 1, location: "L4"),
  ],
)"#
    )
}

const CAPTAIN: &str = r#"(id: "U1", name: "Captain", faction: "fa", race: "ldr", figures: 1, location: "L1", structure: Some("B1"), skills: [("fshn", 3000)]),"#;
const PASSENGERS: &str = r#"(id: "U2", name: "Passengers", faction: "fa", race: "man", figures: 10, location: "L1", structure: Some("B1"), items: [("wood", 5, 0)]),"#;

fn ship_at(e: &Engine<Overlord>) -> String {
    let b = e.world().resource::<Directory>().get(Kind::Structure, "B1").unwrap();
    let l = e.world().get::<crate::systems::overlord::world::components::StructureAt>(b).unwrap().0;
    e.world().get::<crate::systems::overlord::world::components::Id>(l).unwrap().0.clone()
}

#[test]
fn a_ship_crosses_the_water_with_its_passengers_and_lands_str_ship_mov_sail_str_kind() {
    // The captain (first aboard, with fishing for the boat's crew) sails B1 out onto
    // the ocean (5 days) and lands on the far shore (the 5 days of the water left).
    // The passengers and their cargo go along and stay aboard; the boat goes with
    // them, and is seen where they are (MOV-HALF: at sea from day 2).
    let mut e = engine(&sea_world(&format!("{CAPTAIN}{PASSENGERS}")));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE S\nMOVE L4\n"]);
    assert_eq!(
        said(&e, "U1", "Set out aboard fishing boat [B1] from Shore [L1] to Sea [L2], swimming: 5 days"),
        Some(1)
    );
    assert_eq!(said(&e, "U1", "Arrived at Sea [L2]"), Some(5));
    assert_eq!(said(&e, "U1", "Arrived at Far Shore [L4]"), Some(10));
    assert_eq!(said(&e, "U2", "Sailed aboard fishing boat [B1] from Shore [L1] to Sea [L2]"), Some(1));
    let b1 = e.world().resource::<Directory>().get(Kind::Structure, "B1").unwrap();
    for id in ["U1", "U2"] {
        assert_eq!(place(&e, id), "L4", "{id}");
        assert_eq!(e.world().get::<At>(unit(&e, id)).unwrap().structure, Some(b1), "{id} is still aboard");
    }
    assert_eq!(ship_at(&e), "L4");
    let c = e.world().resource::<crate::systems::overlord::world::Catalog>().item("wood").unwrap();
    assert_eq!(
        e.world().get::<crate::systems::overlord::world::components::Inventory>(unit(&e, "U2")).unwrap().count(c),
        5
    );
}

#[test]
fn a_ship_without_its_crew_stays_and_a_passenger_cannot_sail_it_str_ship() {
    // Without fishing aboard, the boat has no crew. U2, second aboard, is no captain:
    // its MOVE takes it off the boat, and men cannot walk onto the ocean.
    let captain = CAPTAIN.replace(r#", skills: [("fshn", 3000)]"#, "");
    let mut e = engine(&sea_world(&format!("{captain}{PASSENGERS}")));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE S\nUNIT U2\nMOVE S\n"]);
    assert!(
        said(&e, "U1", "the fishing boat needs a crew of 1 figure with level 1 in fshn aboard, and has 0").is_some()
    );
    assert!(said(&e, "U2", "followers move only in a stack").is_some());
    assert_eq!(ship_at(&e), "L1");
    assert_eq!(place(&e, "U1"), "L1");
}

#[test]
fn a_leader_that_recruits_sets_out_the_next_day_with_its_recruits_ord_recruit() {
    // ORD-RECRUIT: "the leader cannot move that day". Ann hires 5 men on day 1; they
    // join under her at the end of the day, and the whole stack sets out on day 2.
    let text = world("", r#"(id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("coin", 1000, 0)]),"#, "")
        .replace(r#"(id: "L1", name: "Home", terrain: "plai", population: 100,"#, r#"(id: "L1", name: "Home", terrain: "plai", population: 100, recruits: [(race: "man", count: 20, price: 50)],"#);
    let mut e = engine(&text);
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nRECRUIT fanU01 5 man 50\nMOVE N\n"]);
    assert_eq!(said(&e, "U1", "Set out from Home [L1] to Away [L2]"), Some(2));
    assert_eq!(said(&e, "U1", "Arrived at Away [L2]"), Some(10));
    assert_eq!(place(&e, "U2"), "L2", "the recruits (U2) went along");
}

#[test]
fn guards_of_factions_that_hold_each_other_hostile_clash_grd_clash() {
    // Two NPC factions (no title needed) guard Home; fg holds fh Hostile: fg's first
    // guard attacks fh's, once a day.
    let factions = r#"(id: "fg", name: "Guards", password: "pg", npc: true, default_stance: "neutral", stances: {"fh": "hostile"}),
       (id: "fh", name: "Others", password: "ph", npc: true, default_stance: "neutral")"#;
    let guard = |id: &str, f: &str| {
        format!(
            r#"(id: "{id}", name: "Guard {id}", faction: "{f}", race: "ldr", figures: 1, location: "L1", orders: ["@GUARD"]),"#
        )
    };
    let units = [LEADER.to_string(), guard("U7", "fh"), guard("U8", "fg"), guard("U9", "fh")].concat();
    let mut e = engine(&world("", &units, factions));
    run_month(&mut e, &[]);
    let b = &e.world().resource::<Battles>().0;
    // Unarmed leaders hardly wound each other: a draw most days, and a clash the
    // next, until the battles' experience tells.
    assert!(b.len() > 1 && b.iter().all(|x| x.cause == "clash"), "{b:?}");
    let ids = |s: usize| b[0].sides[s].units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>();
    assert_eq!((b[0].day, b[0].cause.as_str()), (1, "clash"));
    // CMB-PULL: every unit of the factions involved joins; fa's leader only watches.
    assert_eq!((ids(0), ids(1)), (vec!["U8"], vec!["U7", "U9"]));
    assert!(b[0].witnesses.iter().any(|w| w.1 == crate::core::battle::Role::Bystander));
    assert!(said(&e, "U7", "attacks a hostile guard").is_some());
    // With neutral stances on both sides, nothing happens.
    let calm = factions.replace(r#", stances: {"fh": "hostile"}"#, "");
    let mut e = engine(&world("", &units, &calm));
    run_month(&mut e, &[]);
    assert!(e.world().resource::<Battles>().0.is_empty());
}

#[test]
fn a_guard_gone_over_to_a_hostile_faction_is_met_as_its_the_same_day_grd_clash() {
    // U7 and U8 of fg guard Home on day 1: no clash. Once the day's posts are built,
    // U7 goes over to fh, which fg holds Hostile: the same day's clash step meets
    // it as fh's (the posts are built again when a unit changes faction).
    use crate::core::battle::Requests;
    use crate::systems::overlord::mechanics::combat::Cause;
    use crate::systems::overlord::mechanics::guards::guard_clashes;
    use crate::systems::overlord::world::change_faction;
    use crate::systems::overlord::world::components::OnGuard;
    let factions = r#"(id: "fg", name: "Guards", password: "pg", npc: true, default_stance: "neutral", stances: {"fh": "hostile"}),
       (id: "fh", name: "Others", password: "ph", npc: true, default_stance: "neutral")"#;
    let guard = |id: &str| {
        format!(r#"(id: "{id}", name: "Guard {id}", faction: "fg", race: "ldr", figures: 1, location: "L1"),"#)
    };
    let mut e = engine(&world("", &[LEADER.to_string(), guard("U7"), guard("U8")].concat(), factions));
    let (u7, u8, fh) = (unit(&e, "U7"), unit(&e, "U8"), entity(&e, "fh"));
    let w = e.world_mut();
    w.resource_mut::<Clock>().tick = 1;
    for u in [u7, u8] {
        w.entity_mut(u).insert(OnGuard(1));
    }
    guard_clashes(w);
    assert!(w.resource::<Requests<Cause>>().pending().is_empty(), "one faction's guards do not clash");
    change_faction(w, u7, fh);
    assert_eq!(w.get::<crate::systems::overlord::world::components::Owner>(u7).map(|o| o.0), Some(fh));
    guard_clashes(w);
    let asked: Vec<_> = w.resource::<Requests<Cause>>().pending().iter().map(|r| (r.attacker, r.target)).collect();
    assert_eq!(asked, vec![(u8, u7)], "fg's guard attacks the guard gone over to fh");
}

#[test]
fn a_voyage_longer_than_a_month_is_saved_aboard_and_goes_on_str_ship_mov_busy() {
    // A 40-day passage: at month end the boat and everyone aboard are at sea (seen at
    // L2 after 20 days). The saved state is valid, and the voyage ends on day 10 of
    // the next month with the passengers still aboard.
    let text = sea_world(&format!("{CAPTAIN}{PASSENGERS}"))
        .replace(r#"exits: [(dir: "S", to: "L2")]"#, r#"exits: [(dir: "S", to: "L2", days: Some(40))]"#);
    let mut e = engine(&text);
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nMOVE S\n"]);
    assert_eq!(ship_at(&e), "L2");
    let saved = e.state();
    let passenger = saved.units.iter().find(|u| u.id == "U2").unwrap();
    assert_eq!((passenger.structure.as_deref(), passenger.journey.as_ref().map(|j| j.elapsed)), (Some("B1"), Some(30)));
    let issues = crate::systems::overlord::data::validate::validate(&overlord_rules(), &saved);
    assert!(issues.is_empty(), "{issues:?}");
    let mut e = engine(&ron::to_string(&saved).unwrap());
    run_month(&mut e, &[]);
    assert_eq!(said(&e, "U1", "Arrived at Sea [L2]"), Some(10));
    let b1 = e.world().resource::<Directory>().get(Kind::Structure, "B1").unwrap();
    assert_eq!(e.world().get::<At>(unit(&e, "U2")).unwrap().structure, Some(b1));
    assert_eq!(ship_at(&e), "L2");
}

#[test]
fn a_guard_shows_its_faction_and_its_stance_toward_the_reader_grd_show() {
    // GRD-SHOW: fg's guard in Home is listed in fa's report with its faction and fg's
    // stance toward fa; a unit of fg that is not on guard stays anonymous.
    let factions = r#"(id: "fg", name: "Guards", password: "pg", npc: true, default_stance: "neutral", stances: {"fa": "hostile"})"#;
    let units = format!(
        "{LEADER}{}{}",
        r#"(id: "U7", name: "Warden", faction: "fg", race: "ldr", figures: 1, location: "L1", orders: ["@GUARD"]),"#,
        r#"(id: "U8", name: "Idler", faction: "fg", race: "ldr", figures: 1, location: "L1"),"#
    );
    let mut e = engine(&world("", &units, factions));
    run_month(&mut e, &[]);
    let fa = &e.reports()[0];
    let seen = &fa.locations[0].units;
    let warden = seen.iter().find(|u| u.id == "U7").unwrap();
    assert_eq!((warden.faction.as_deref(), warden.guard_stance.as_deref()), (Some("fg"), Some("hostile")));
    let idler = seen.iter().find(|u| u.id == "U8").unwrap();
    assert_eq!((idler.faction.as_deref(), idler.guard_stance.as_deref()), (None, None));
    let text = crate::systems::overlord::report::text::render(
        fa,
        e.world().resource::<crate::systems::overlord::world::Catalog>(),
    );
    assert!(text.contains("+ Warden [U7], 1 leader [ldr], of [fg], on guard, Hostile to you."), "{text}");
}

/// Two plains nine days' walk apart, and a leader at Home, in the test kit.
fn walk(seen_percent: u32) -> crate::systems::overlord::testkit::Game {
    crate::systems::overlord::testkit::Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .location("L2", "plai")
        .exit("L1", "N", "L2")
        .exit("L2", "S", "L1")
        .unit("U1", "fa", "ldr", 1, "L1")
        .with_rules(|r| r.info.parameters.journey_seen_percent = seen_percent)
        .without_money()
        .build()
}

#[test]
fn the_point_a_traveller_is_seen_at_its_destination_comes_from_the_rule_set_mov_half() {
    // MOV-HALF with the rule set's journey_seen_percent: 50 → after 4 of 9 days;
    // 100 → only on arrival; day by day through the test kit.
    for (percent, first_day_away) in [(50, 4), (100, 9), (0, 1)] {
        let mut g = walk(percent);
        g.orders("fa", "UNIT U1\nMOVE N\n");
        let mut away = None;
        for day in 1..=9 {
            g.days(1);
            let at = g.get::<At>("U1").location;
            if away.is_none() && at == g.entity("L2") {
                away = Some(day);
            }
        }
        assert_eq!(away, Some(first_day_away), "journey_seen_percent {percent}");
        g.run();
        assert!(g.said("U1", "Arrived at L2 [L2]"));
    }
}

#[test]
fn the_share_a_guard_works_with_comes_from_the_rule_set_grd_half() {
    // GRD-HALF with guard_work_percent: twelve guards of a non-player faction (no
    // title needed) dig as if they were 6 (50%) or 3 (25%); a stone takes 6
    // figure-days, 30 days.
    for (percent, stones) in [(50, 30), (25, 15)] {
        let mut g = crate::systems::overlord::testkit::Tiny::new()
            .faction("fg")
            .with_faction(|f| f.npc = true)
            .location("L1", "moun")
            .with_location(|l| {
                l.resources.push(crate::systems::overlord::data::ResourceStock {
                    item: "ston".into(),
                    current: 500,
                    max: 500,
                })
            })
            .unit("U9", "fg", "man", 12, "L1")
            .skills(&[("digg", 3000)])
            .with_rules(|r| r.info.parameters.guard_work_percent = percent)
            .without_money()
            .build();
        g.orders("fg", "UNIT U9\n@GUARD\n@USE digg\n").run();
        assert_eq!(g.count("U9", "ston"), stones, "guard_work_percent {percent}");
    }
}
