//! SPLIT and MERGE on a tiny world.

use crate::systems::overlord::Overlord;

use crate::core::engine::Engine;
use crate::systems::overlord::testkit::*;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Effects, Inventory, Orders, StackLeader};
use crate::systems::overlord::world::resources::{Directory, Kind};

fn world(units: &str) -> String {
    format!(
        r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 5),
  factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral")],
  locations: [(id: "L1", name: "Ford", terrain: "city", population: 1000)],
  structures: [],
  units: [{units}],
)"#
    )
}

fn holding(e: &Engine<Overlord>, id: &str, item: &str) -> (u32, u32) {
    let i = e.world().resource::<Catalog>().item(item).unwrap();
    e.world()
        .get::<Inventory>(unit(e, id))
        .unwrap()
        .0
        .iter()
        .find(|h| h.item == i)
        .map_or((0, 0), |h| (h.count, h.equipped))
}

#[test]
fn merged_experience_is_the_figure_weighted_average_tv_merge() {
    // TV-MERGE: 10 men at 2nd combat (90 days) + 20 men with none → 30 men at 30
    // days, 1st level. All of U2's figures move: it is left a stockpile of its sword.
    let units = r#"
    (id: "U2", name: "Veterans", faction: "fa", race: "man", figures: 10, location: "L1", skills: [("cmbt", 9000)],
     items: [("swrd", 1, 0)]),
    (id: "U3", name: "Levies", faction: "fa", race: "man", figures: 20, location: "L1"),"#;
    let mut e = engine_without_money(scenario(&world(units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nMERGE U3 10\nNAME \"never\"\n"]);
    assert_eq!((figures(&e, "U3"), points(&e, "U3", "cmbt")), (30, 3000));
    assert_eq!(figures(&e, "U2"), 0);
    assert_eq!(holding(&e, "U2", "swrd"), (1, 0), "items stay behind");
    assert!(e.world().get::<Orders>(unit(&e, "U2")).unwrap().0.is_empty(), "a stockpile has no orders");
    assert_eq!(e.state().units[0].name, "Veterans", "the NAME after the MERGE never ran");
    // The stockpile is a valid unit of the saved state (run_month validates it), and
    // the next month starts from it.
    let saved = ron::to_string(&e.state()).unwrap();
    let mut e = engine_without_money(scenario(&saved));
    run_month(&mut e, &[]);
    assert_eq!((figures(&e, "U2"), holding(&e, "U2", "swrd")), (0, (1, 0)));
}

#[test]
fn incoming_figures_forget_a_second_basic_skill_skl_merge_basic() {
    // U3 knows digging (basic). U2's cooking (basic, not combat) is forgotten by
    // the incoming figures; combat (a basic combat skill) is kept and averaged.
    let units = r#"
    (id: "U2", name: "Cooks", faction: "fa", race: "man", figures: 10, location: "L1", skills: [("cook", 3000), ("cmbt", 3000)]),
    (id: "U3", name: "Diggers", faction: "fa", race: "man", figures: 10, location: "L1", skills: [("digg", 3000)]),"#;
    let mut e = engine_without_money(scenario(&world(units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nMERGE U3 5\n"]);
    assert_eq!((points(&e, "U3", "digg"), points(&e, "U3", "cook"), points(&e, "U3", "cmbt")), (2000, 0, 1000));
    assert_eq!((figures(&e, "U2"), points(&e, "U2", "cook")), (5, 3000), "the figures left behind keep theirs");
}

#[test]
fn merge_zero_moves_everything_and_the_unit_is_gone() {
    let units = r#"
    (id: "U2", name: "A", faction: "fa", race: "man", figures: 10, location: "L1", items: [("coin", 30, 0)]),
    (id: "U3", name: "B", faction: "fa", race: "man", figures: 10, location: "L1", items: [("coin", 5, 0)]),"#;
    let mut e = engine_without_money(scenario(&world(units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nMERGE U3 0\n"]);
    assert!(e.world().resource::<Directory>().get(Kind::Unit, "U2").is_none());
    assert_eq!((figures(&e, "U3"), holding(&e, "U3", "coin").0), (20, 35));
}

#[test]
fn split_takes_bare_figures_first_and_equipped_ones_with_their_gear_ord_split() {
    // 10 men, 3 of them on horses; 5 swords lie unequipped. Splitting 8 takes the 7
    // bare men and 1 rider with his horse; the swords stay. Skills and effects are
    // copied; the new unit comes right after, in the same stack, and runs its block.
    let units = r#"
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1"),
    (id: "U2", name: "Men", faction: "fa", race: "man", figures: 10, location: "L1", stack_leader: Some("U1"),
     items: [("hrse", 3, 3), ("swrd", 5, 0)], skills: [("cmbt", 3000)], effects: [("effhapy", 100000)]),"#;
    let mut e = engine_without_money(scenario(&world(units)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nSPLIT fanU01 8\nUNIT fanU01\nNAME \"Scouts\"\n"]);
    let u3 = unit(&e, "U3");
    assert_eq!((figures(&e, "U3"), figures(&e, "U2")), (8, 2));
    assert_eq!((holding(&e, "U3", "hrse"), holding(&e, "U2", "hrse")), ((1, 1), (2, 2)));
    assert_eq!((holding(&e, "U3", "swrd").0, holding(&e, "U2", "swrd").0), (0, 5));
    assert_eq!(points(&e, "U3", "cmbt"), 3000);
    assert_eq!(e.world().get::<Effects>(u3).unwrap().0.len(), 1);
    assert_eq!(e.world().get::<StackLeader>(u3).unwrap().0, Some(unit(&e, "U1")));
    let order = e.world().resource::<Directory>().units().to_vec();
    assert_eq!(order, [unit(&e, "U1"), unit(&e, "U2"), u3]);
    assert_eq!(e.state().units[2].name, "Scouts", "the block's NAME ran the same day");
}
