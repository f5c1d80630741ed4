//! USE over a month on a tiny world. Digging [digg] level 1: a stone takes 6
//! figure-days, harvested from the location. Bladesmith [blsm] level 1: a sword takes
//! 30 figure-days and 5 iron.

use crate::systems::overlord::Overlord;

use crate::core::engine::Engine;
use crate::systems::overlord::testkit::{count, engine_without_money, points, run_month, scenario, unit};
use crate::systems::overlord::world::components::Production;

fn world(stone: u32, units: &str) -> String {
    format!(
        r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 5),
  factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral")],
  locations: [(id: "L1", name: "Quarry", terrain: "moun", population: 100,
               resources: [(item: "ston", current: {stone}, max: {stone})])],
  structures: [],
  units: [{units}],
)"#
    )
}

fn stock(e: &Engine<Overlord>) -> u32 {
    e.state().locations[0].resources[0].current
}

fn digger(id: &str, figures: u32) -> String {
    format!(
        r#"(id: "{id}", name: "Diggers", faction: "fa", race: "man", figures: {figures}, location: "L1", skills: [("digg", 3000)]),"#
    )
}

#[test]
fn scarce_resources_are_shared_in_proportion_tv_harvest() {
    // TV-HARVEST, RES-SHARE: 15 stones; 120 diggers could take 20 today, 240 could
    // take 40: they get 5 and 10.
    let units = format!("{}{}", digger("U2", 120), digger("U3", 240));
    let mut e = engine_without_money(scenario(&world(15, &units)));
    run_days(&mut e, &["GAME fa pa\nUNIT U2\nUSE digg\nUNIT U3\nUSE digg\n"], 29);
    assert_eq!((count(&e, "U2", "ston"), count(&e, "U3", "ston"), stock(&e)), (5, 10, 0));
}

/// Submits `files` and runs the first `days` days of the month.
fn run_days(e: &mut Engine<Overlord>, files: &[&str], days: u32) {
    let parsed = files.iter().map(|t| e.parse(t).expect("test orders parse")).collect();
    e.submit(parsed);
    e.run_ticks(days);
}

#[test]
fn a_fresh_amount_appears_each_month_and_nothing_carries_over_res_nocarry() {
    // RES-NOCARRY: the quarry gives 100 stones a month. Month 1: 10 diggers take 50;
    // the month's end brings the stock back to 100, not 150. Month 2: 20 diggers on
    // @USE take the whole 100 (they could take 100 by day 30), and month 3 it is
    // back again.
    let mut e = engine_without_money(scenario(&world(100, &digger("U2", 10))));
    run_days(&mut e, &["GAME fa pa\nUNIT U2\n30 USE digg\n"], 30);
    assert_eq!((count(&e, "U2", "ston"), stock(&e)), (50, 100));
    let big = digger("U2", 40);
    let mut e = engine_without_money(scenario(&world(100, &big)));
    run_days(&mut e, &["GAME fa pa\nUNIT U2\n@USE digg\n"], 29);
    assert_eq!(stock(&e), 0, "40 diggers empty the quarry within the month");
    e.run_ticks(1);
    assert_eq!(stock(&e), 100);
    run_month(&mut e, &[]);
    assert_eq!((count(&e, "U2", "ston"), stock(&e)), (200, 100));
}

#[test]
fn harvest_adds_up_figure_days_and_keeps_work_in_progress_skl_use_harvest() {
    // 10 figures do 10 figure-days a day: 30 days make 300, 50 stones of 6. The
    // work left over is kept for next month, and saved.
    let mut e = engine_without_money(scenario(&world(100, &digger("U2", 10))));
    run_days(&mut e, &["GAME fa pa\nUNIT U2\n30 USE digg\n"], 29);
    e.run_ticks(1);
    assert_eq!(count(&e, "U2", "ston"), 50);
    // SKL-EXP-USE: 10% of a day of study a day.
    assert_eq!(points(&e, "U2", "digg"), 3000 + 30 * 10);
    let mut e = engine_without_money(scenario(&world(100, &digger("U2", 10))));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n4 USE digg\n"]);
    // 40 figure-days: 6 stones (36), 4 figure-days in progress.
    assert_eq!(count(&e, "U2", "ston"), 6);
    let p = e.world().get::<Production>(unit(&e, "U2")).unwrap().0.map(|x| x.1);
    assert_eq!(p, Some(400));
    assert_eq!(e.state().units[0].production, Some(("digg".to_string(), 400)));
}

#[test]
fn a_stop_condition_counts_the_items_made_pfx_stop() {
    // `@USE digg 3`: three stones, then the order is done.
    let mut e = engine_without_money(scenario(&world(100, &digger("U2", 6))));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n@USE digg 3\n"]);
    assert_eq!(count(&e, "U2", "ston"), 3);
    assert!(e.world().get::<crate::systems::overlord::world::components::Orders>(unit(&e, "U2")).unwrap().0.is_empty());
}

#[test]
fn crafting_consumes_inputs_when_a_batch_starts_skl_use_craft() {
    // TV-HARVEST: 30 smiths on a 30-day sword make one a day. 12 iron start two
    // swords (5 each); the third cannot start: 2 iron stay, and the order waits.
    let units = r#"(id: "U2", name: "Smiths", faction: "fa", race: "man", figures: 30, location: "L1",
                    skills: [("blsm", 3000)], items: [("iron", 12, 0)]),"#;
    let mut e = engine_without_money(scenario(&world(0, units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n@USE blsm\n"]);
    assert_eq!((count(&e, "U2", "swrd"), count(&e, "U2", "iron")), (2, 2));
    assert_eq!(e.world().get::<Production>(unit(&e, "U2")).unwrap().0, None);
}

#[test]
fn an_equipped_tool_cuts_the_time_skl_tool() {
    // 20 smiths, all with hammers equipped: 150% speed, 30 figure-days a day: one
    // sword a day instead of two every three days.
    let units = r#"(id: "U2", name: "Smiths", faction: "fa", race: "man", figures: 20, location: "L1",
                    skills: [("blsm", 3000)], items: [("iron", 50, 0), ("hamm", 20, 20)]),"#;
    let mut e = engine_without_money(scenario(&world(0, units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n3 USE blsm\n"]);
    assert_eq!(count(&e, "U2", "swrd"), 3);
}

#[test]
fn a_unit_without_the_skill_cannot_use_it_ord_use() {
    let units = r#"(id: "U2", name: "Idle", faction: "fa", race: "man", figures: 5, location: "L1"),"#;
    let mut e = engine_without_money(scenario(&world(10, units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nUSE digg\n"]);
    let ev: Vec<String> = e
        .world()
        .get::<crate::systems::overlord::world::components::Events>(unit(&e, "U2"))
        .unwrap()
        .0
        .iter()
        .map(|x| x.text.to_string())
        .collect();
    assert!(
        ev.contains(
            &"USE digg: removed from the orders: the unit does not know digging [digg] at 1st level.".to_string()
        ),
        "{ev:?}"
    );
}

#[test]
fn a_guard_stops_factions_it_does_not_hold_friendly_from_harvesting_grd_effect() {
    // GRD-EFFECT: fg's guard (an NPC faction, no title needed) holds fa neutral, so
    // fa's diggers may not take the quarry's stone; fb, held friendly, may.
    let text = world(100, &format!("{}{}", digger("U2", 12), digger("U3", 12).replace(r#""fa""#, r#""fb""#)))
        .replace(
            r#"factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral")],"#,
            r#"factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral", settings: (advertise: true)),
                (id: "fb", name: "Betans", password: "pb", default_stance: "neutral", settings: (advertise: true)),
                (id: "fg", name: "Guards", password: "pg", npc: true, default_stance: "neutral", stances: {"fb": "friend"})],"#,
        )
        .replace(
            "units: [",
            r#"units: [(id: "U9", name: "Warden", faction: "fg", race: "ldr", figures: 1, location: "L1", orders: ["@GUARD"]),"#,
        );
    let mut e = engine_without_money(scenario(&text));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nUSE digg\n", "GAME fb pb\nUNIT U3\nUSE digg\n"]);
    assert_eq!(count(&e, "U2", "ston"), 0);
    assert_eq!(count(&e, "U3", "ston"), 2, "12 figure-days: two stones");
    let events = &e.world().get::<crate::systems::overlord::world::components::Events>(unit(&e, "U2")).unwrap().0;
    assert!(
        events.iter().any(|x| x.text.contains("Warden [U9], on guard here, does not let this unit's faction harvest"))
    );
    // DIP-UNSEEN: a unit that does not show its faction may always harvest, even
    // under a guard whose stance is Neutral.
    let hidden = text.replace(r#""neutral", settings: (advertise: true)),"#, r#""neutral"),"#);
    let mut e = engine_without_money(scenario(&hidden));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nUSE digg\n"]);
    assert_eq!(count(&e, "U2", "ston"), 2, "fa's hidden diggers harvest");
}

#[test]
fn a_guard_refuses_a_harvest_even_where_nothing_is_left_grd_effect() {
    // GRD-EFFECT before RES-LIST: where a guard holding the harvester's faction
    // Neutral stands, the USE is refused (and removed from the orders) whether or
    // not anything is left to take; it does not wait for the next month's stock.
    let text = world(0, &digger("U2", 12))
        .replace(
            r#"factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral")],"#,
            r#"factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral", settings: (advertise: true)),
                (id: "fg", name: "Guards", password: "pg", npc: true, default_stance: "neutral")],"#,
        )
        .replace(
            "units: [",
            r#"units: [(id: "U9", name: "Warden", faction: "fg", race: "ldr", figures: 1, location: "L1", orders: ["@GUARD"]),"#,
        );
    let mut e = engine_without_money(scenario(&text));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n@USE digg\n"]);
    let said = crate::systems::overlord::testkit::events(&e, "U2");
    assert!(
        said.iter().any(|t| t.contains("Warden [U9], on guard here, does not let this unit's faction harvest")),
        "{said:?}"
    );
    assert!(!said.iter().any(|t| t.contains("waits")), "{said:?}");
    assert!(crate::systems::overlord::testkit::orders(&e, "U2").is_empty());
}

#[test]
fn a_faction_wide_silent_setting_silences_harvest_lines_set_silent() {
    // SET-SILENT, FAC-SETTING: a faction's SETTING SILENT ON silences the routine
    // lines of all its units, harvests included; the unit's own setting does too.
    let harvested = |files: &[&str]| {
        let mut e = engine_without_money(scenario(&world(100, &digger("U2", 6))));
        run_month(&mut e, files);
        let events = e.world().get::<crate::systems::overlord::world::components::Events>(unit(&e, "U2")).unwrap();
        (count(&e, "U2", "ston"), events.0.iter().filter(|x| x.text.starts_with("Harvested")).count())
    };
    assert_eq!(harvested(&["GAME fa pa\nUNIT U2\n3 USE digg\n"]), (3, 3), "a line a day when not silent");
    assert_eq!(harvested(&["GAME fa pa\nSETTING SILENT ON\nUNIT U2\n3 USE digg\n"]), (3, 0));
    assert_eq!(harvested(&["GAME fa pa\nUNIT U2\nSETTING SILENT ON\n3 USE digg\n"]), (3, 0));
}

#[test]
fn a_harvest_with_nothing_left_waits_and_says_so_once_a_month_res_list() {
    // 6 stones, 60 diggers: they take 6 on day 1 (their 10 a day, short of what the
    // quarry holds). From day 2 there is nothing: the @USE waits, and the report
    // says why once, not every day; a day without harvest teaches nothing.
    let mut e = engine_without_money(scenario(&world(6, &digger("U2", 60))));
    run_days(&mut e, &["GAME fa pa\nUNIT U2\n@USE digg\n"], 1);
    let learnt = points(&e, "U2", "digg");
    assert!(learnt > 3000);
    e.run_ticks(28);
    assert_eq!((count(&e, "U2", "ston"), stock(&e), points(&e, "U2", "digg")), (6, 0, learnt));
    let said = crate::systems::overlord::testkit::events(&e, "U2");
    let waits: Vec<_> = said.iter().filter(|t| t.contains("waits")).collect();
    assert_eq!(
        waits,
        ["2: @USE digg: waits: there is no stone [ston] to harvest here this month. The order stays in the list."],
        "{said:?}"
    );
}
