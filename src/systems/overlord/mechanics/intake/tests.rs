use crate::systems::overlord::testkit::{TINY, engine, scenario, texts};
use crate::systems::overlord::world::components::Orders;
use crate::systems::overlord::world::resources::{Directory, Kind};

fn orders_of(e: &crate::core::engine::Engine<crate::systems::overlord::Overlord>, unit: &str) -> Vec<String> {
    let u = e.world().resource::<Directory>().get(Kind::Unit, unit).unwrap();
    let catalog = e.world().resource::<crate::systems::overlord::world::Catalog>();
    e.world().get::<Orders>(u).unwrap().0.iter().map(|q| q.entry.written(catalog).to_string()).collect()
}

#[test]
fn a_unit_block_replaces_pending_orders_and_others_keep_theirs() {
    // FILE-REPLACE, FILE-PERSIST.
    let mut e = engine(scenario(TINY));
    e.submit(vec![e.parse("GAME fa pa\nUNIT U2\nSEE U4\n@ work\nEND\n").unwrap()]);
    e.run_turn(|_, _| {});
    assert_eq!(orders_of(&e, "U2"), ["SEE U4", "@WORK"]);
    assert_eq!(orders_of(&e, "U1"), ["@GUARD"], "a unit without a block keeps its list");
    assert_eq!(texts(&e, "U2")[0], "Received 2 orders.");
    // The next month, with no orders, the lists carry over.
    e.run_turn(|_, _| {});
    assert_eq!(orders_of(&e, "U2"), ["SEE U4", "@WORK"]);
    assert!(!texts(&e, "U2").iter().any(|e| e.starts_with("Received")), "events are per month");
}

#[test]
fn blocks_for_other_factions_units_are_refused_without_telling_whose() {
    let mut e = engine(scenario(TINY));
    e.submit(vec![e.parse("GAME fa pa\nUNIT U3\nMOVE N\nUNIT U99\nMOVE N\n").unwrap()]);
    e.run_turn(|_, _| {});
    assert!(orders_of(&e, "U3").is_empty());
    let notes = texts(&e, "fa");
    assert_eq!(
        notes,
        [
            "Line 2: orders for U3 ignored: not one of your units.",
            "Line 4: orders for U99 ignored: not one of your units."
        ]
    );
    assert!(texts(&e, "fb").is_empty(), "the owner is not told");
}
