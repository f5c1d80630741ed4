//! Building on tiny worlds with the Overlord rules: L1 plains on the coast of L2, an
//! ocean, and L3 plains inland (north of L1).

use crate::systems::overlord::Overlord;

use crate::core::engine::Engine;
use crate::systems::overlord::testkit::*;
use crate::systems::overlord::world::components::{At, DisplayName};
use crate::systems::overlord::world::resources::{Directory, Kind};

/// Factions fa and fb (fb holds fa as `fb_to_fa`), the three locations, `structures`
/// and `units` as RON.
fn world(fb_to_fa: &str, structures: &str, units: &str) -> String {
    format!(
        r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 5),
  factions: [
    (id: "fa", name: "Alphans", password: "pa", default_stance: "neutral", settings: (advertise: true)),
    (id: "fb", name: "Betans", password: "pb", default_stance: "neutral", stances: {{"fa": "{fb_to_fa}"}}),
  ],
  locations: [
    (id: "L1", name: "Shore", terrain: "plai", population: 100, weather: Some("fair"),
     exits: [(dir: "S", to: "L2"), (dir: "N", to: "L3")]),
    (id: "L2", name: "Sea", terrain: "ocea", weather: Some("fair"), exits: [(dir: "N", to: "L1")]),
    (id: "L3", name: "plains", terrain: "plai", population: 100, weather: Some("fair"), exits: [(dir: "S", to: "L1")]),
  ],
  structures: [{structures}],
  units: [{units}],
)"#
    )
}

/// Ten men of faction `f` at `place` with `skills` and `items` (RON lists).
fn men(id: &str, f: &str, place: &str, skills: &str, items: &str) -> String {
    format!(
        r#"(id: "{id}", name: "Builders {id}", faction: "{f}", race: "man", figures: 10, location: "{place}",
           skills: [{skills}], items: [{items}]),"#
    )
}

const CARPENTERS: &str = r#"("buil", 3000), ("carp", 3000)"#;

fn structure(e: &Engine<Overlord>, id: &str) -> Option<crate::systems::overlord::data::Structure> {
    e.state().structures.into_iter().find(|s| s.id == id)
}

fn missing(b: &crate::systems::overlord::data::Structure) -> Vec<(String, u32)> {
    b.missing.iter().map(|m| (m.0.clone(), m.1)).collect()
}

#[test]
fn a_target_tag_and_use_start_a_mine_and_put_a_work_in_per_batch_str_start_str_work() {
    // STR-START, STR-WORK: carpentry at level 1 makes a wood structure work in 10
    // figure-days from 1 wood; ten men make one a day. 25 wood give 25 works to a
    // new mine (75 needed), started by the first batch and owned by the faction.
    let units = men("U2", "fa", "L1", CARPENTERS, r#"("wood", 25, 0)"#);
    let mut e = engine_without_money(scenario(&world("neutral", "", &units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nTARGET mine\n@USE carp\n"]);
    let b = structure(&e, "B1").expect("the mine was started");
    assert_eq!((b.kind.as_str(), b.location.as_str(), b.owner.as_deref()), ("mine", "L1", Some("fa")));
    assert_eq!(missing(&b), vec![("woodwk".to_string(), 50)]);
    assert_eq!(count(&e, "U2", "wood"), 0);
    assert_eq!(said(&e, "U2", "Started mine [B1]"), Some(1));
    // The target became the structure, and the USE waits for wood.
    let u = e.world().get::<crate::systems::overlord::world::components::SkillTarget>(unit(&e, "U2")).unwrap();
    assert_eq!(u.0.as_deref(), Some("B1"));
    assert_eq!(orders(&e, "U2").len(), 1);
    // RPT-LOC: the location lists the mine, and so does the faction's own list.
    let report = &e.reports()[0];
    let text = crate::systems::overlord::report::text::render(
        report,
        e.world().resource::<crate::systems::overlord::world::Catalog>(),
    );
    assert!(text.contains("  »» mine [B1], mine [mine], of [fa]; missing: 50 wood structure works.\n"), "{text}");
    assert!(
        text.contains("Structures and vessels:\n»» mine [B1], mine [mine], of [fa], at [L1]; missing: 50"),
        "{text}"
    );
    assert!(e.reports()[1].locations.is_empty() && e.reports()[1].structures.is_empty(), "fb sees nothing of it");
    // The state saves the structure and the target.
    let s = e.state();
    assert_eq!(s.structures.len(), 1);
    assert_eq!(s.units[0].target.as_deref(), Some("B1"));
}

#[test]
fn units_of_a_faction_targeting_a_tag_build_one_structure_and_a_new_id_waits_for_it_str_start_file_newid_life() {
    // U2 starts the mine; U3 aims at the new id fanB01, waits until it exists, and
    // then works on B1 with U2. fb's U4 targets the same tag and starts its own.
    let units = [
        men("U2", "fa", "L1", CARPENTERS, r#"("wood", 10, 0)"#),
        men("U3", "fa", "L1", CARPENTERS, r#"("wood", 10, 0)"#),
        men("U4", "fb", "L1", CARPENTERS, r#"("wood", 3, 0)"#),
    ]
    .concat();
    let mut e = engine_without_money(scenario(&world("neutral", "", &units)));
    run_month(
        &mut e,
        &[
            "GAME fa pa\nUNIT U2\nTARGET mine\n@USE carp\nUNIT U3\nTARGET fanB01\n@USE carp\n",
            "GAME fb pb\nUNIT U4\nTARGET mine\n@USE carp\n",
        ],
    );
    let b1 = structure(&e, "B1").unwrap();
    assert_eq!(b1.owner.as_deref(), Some("fa"));
    assert_eq!(missing(&b1), vec![("woodwk".to_string(), 55)], "20 works from U2 and U3");
    let b2 = structure(&e, "B2").unwrap();
    assert_eq!((b2.owner.as_deref(), missing(&b2)), (Some("fb"), vec![("woodwk".to_string(), 72)]));
    let target = |id: &str| {
        e.world()
            .get::<crate::systems::overlord::world::components::SkillTarget>(unit(&e, id))
            .unwrap()
            .0
            .clone()
            .unwrap_or_default()
    };
    assert_eq!((target("U2"), target("U3"), target("U4")), ("B1".into(), "B1".into(), "B2".into()));
    assert!(said(&e, "U3", "Put 1 wood structure work into mine [B1]").is_some());
}

#[test]
fn a_structure_is_entered_only_once_complete_and_build_is_target_then_use_str_rules_ord_build() {
    // B5 lacks 5 works: BUILD carp B5 finishes it on day 5. U3 waits to ENTER it
    // until then (STR-RULES), and the owner fa lets its own unit in.
    let structures = r#"(id: "B5", kind: "mine", location: "L1", owner: Some("fa"), missing: [("woodwk", 5)])"#;
    let units = [
        men("U2", "fa", "L1", CARPENTERS, r#"("wood", 9, 0)"#),
        r#"(id: "U3", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "L1"),"#.to_string(),
    ]
    .concat();
    let mut e = engine_without_money(scenario(&world("neutral", structures, &units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n@BUILD carp B5\nUNIT U3\nENTER B5\n"]);
    assert!(structure(&e, "B5").unwrap().missing.is_empty());
    assert_eq!(said(&e, "U2", "mine [B5] is complete"), Some(5));
    assert_eq!(count(&e, "U2", "wood"), 4);
    assert_eq!(orders(&e, "U2").len(), 0, "BUILD ends with the structure");
    assert_eq!(said(&e, "U3", "Entered B5"), Some(6));
    let b5 = e.world().resource::<Directory>().get(Kind::Structure, "B5").unwrap();
    assert_eq!(e.world().get::<At>(unit(&e, "U3")).unwrap().structure, Some(b5));
}

#[test]
fn nothing_is_built_on_water_nor_without_the_construction_skill_str_rules_str_cost() {
    // On the ocean, TARGET mine + USE carp is refused and removed; a mage guild needs
    // 2nd building (buil 9000), which U3 lacks.
    let units = [
        men("U2", "fa", "L2", CARPENTERS, r#"("wood", 9, 0)"#),
        men("U3", "fa", "L1", r#"("buil", 3000), ("maso", 3000)"#, r#"("ston", 9, 0)"#),
    ]
    .concat();
    let mut e = engine_without_money(scenario(&world("neutral", "", &units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nTARGET mine\n@USE carp\nUNIT U3\nTARGET mgld\n@USE maso\n"]);
    assert!(e.world().resource::<Directory>().structures.is_empty());
    assert_eq!(said(&e, "U2", "nothing can be built on water"), Some(1));
    assert_eq!(said(&e, "U3", "building a mage's guild needs buil at level 2"), Some(1));
    assert_eq!((count(&e, "U2", "wood"), count(&e, "U3", "ston")), (9, 9), "nothing was consumed");
}

#[test]
fn shipcraft_launches_a_fishing_boat_on_the_coast_not_inland_str_ship() {
    // Shipcraft 1: a fishing boat takes 120 figure-days and 30 wood: 12 days for ten
    // men on the shore. Inland (L3) it is refused.
    let skills = r#"("buil", 3000), ("ship", 3000)"#;
    let units =
        [men("U2", "fa", "L1", skills, r#"("wood", 30, 0)"#), men("U3", "fa", "L3", skills, r#"("wood", 30, 0)"#)]
            .concat();
    let mut e = engine_without_money(scenario(&world("neutral", "", &units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nUSE ship 1\nUNIT U3\nUSE ship 1\n"]);
    let b = structure(&e, "B1").expect("a boat");
    assert_eq!((b.kind.as_str(), b.owner.as_deref(), b.missing.is_empty()), ("fshi", Some("fa"), true));
    assert_eq!(said(&e, "U2", "Built fishing boat [B1]"), Some(12));
    assert_eq!(count(&e, "U2", "wood"), 0);
    assert!(said(&e, "U3", "is built on a coast").is_some());
    assert_eq!(count(&e, "U3", "wood"), 30);
}

#[test]
fn docks_speed_up_shipcraft_for_the_units_inside_str_benefit_str_prod() {
    // Docks give shipcraft +20% (`production`): twelve figure-days a day, so the boat
    // is launched on day 10.
    let structures = r#"(id: "B7", kind: "dock", location: "L1", owner: Some("fa"))"#;
    let units = men("U2", "fa", "L1", r#"("buil", 3000), ("ship", 3000)"#, r#"("wood", 30, 0)"#)
        .replace(r#"location: "L1","#, r#"location: "L1", structure: Some("B7"),"#);
    let mut e = engine_without_money(scenario(&world("neutral", structures, &units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nUSE ship 1\n"]);
    assert_eq!(said(&e, "U2", "Built fishing boat [B8]"), Some(10));
}

#[test]
fn an_empty_structure_is_guarded_by_its_owning_faction_str_owner() {
    // B5 belongs to fb and nobody is inside. fb holds fa neutral: fa's U3 is refused.
    // In a second world fb holds fa friendly, and U3 enters.
    let structures = r#"(id: "B5", kind: "mine", location: "L1", owner: Some("fb"))"#;
    let units = r#"(id: "U3", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "L1"),"#;
    let mut e = engine_without_money(scenario(&world("neutral", structures, units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U3\nENTER B5\n"]);
    assert_eq!(said(&e, "U3", "the owner of B5 does not let this unit in"), Some(1));
    let mut e = engine_without_money(scenario(&world("friend", structures, units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U3\nENTER B5\n"]);
    assert_eq!(said(&e, "U3", "Entered B5"), Some(1));
    // At month end the first unit inside makes its faction the owner.
    assert_eq!(structure(&e, "B5").unwrap().owner.as_deref(), Some("fa"));
}

#[test]
fn the_owner_christens_its_structure_and_a_plain_named_location_ord_christen() {
    // U3 is first inside B5 and renames it; U4, second inside, may not. U5 renames
    // L3, which is still called "plains"; L1 ("Shore") cannot be renamed.
    let structures = r#"(id: "B5", kind: "mine", location: "L1", owner: Some("fa"))"#;
    let leader = |id: &str, place: &str, inside: &str| {
        format!(r#"(id: "{id}", name: "Lead", faction: "fa", race: "ldr", figures: 1, location: "{place}"{inside}),"#)
    };
    let units = [
        leader("U3", "L1", r#", structure: Some("B5")"#),
        leader("U4", "L1", r#", structure: Some("B5")"#),
        leader("U5", "L3", ""),
        leader("U6", "L1", ""),
    ]
    .concat();
    let mut e = engine_without_money(scenario(&world("neutral", structures, &units)));
    run_month(
        &mut e,
        &[
            "GAME fa pa\nUNIT U3\nCHRISTEN \"Deep Pit\"\nUNIT U4\nCHRISTEN \"Other\"\nUNIT U5\nCHRISTEN \"Greenfield\"\nUNIT U6\nCHRISTEN \"Nope\"\n",
        ],
    );
    let name = |kind: Kind, id: &str| {
        let x = e.world().resource::<Directory>().get(kind, id).unwrap();
        e.world().get::<DisplayName>(x).unwrap().0.clone()
    };
    assert_eq!(name(Kind::Structure, "B5"), "Deep Pit");
    assert_eq!(name(Kind::Location, "L3"), "Greenfield");
    assert_eq!(name(Kind::Location, "L1"), "Shore");
    assert!(said(&e, "U4", "only the owner of a structure").is_some());
    assert!(said(&e, "U6", "can be christened").is_some());
}
