//! Helpers for tests: the bundled rule set and tiny worlds written in RON.

use crate::core::engine::{Engine, Threads};
use crate::systems::overlord::data::{self, RuleSet, Scenario};
use crate::systems::overlord::{Overlord, OverlordRules};
use bevy_app::{App, PluginGroup};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// The repository folder.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The bundled Overlord rule set (`assets/rules/overlord`), loaded once.
pub fn overlord_rules() -> Arc<RuleSet> {
    static RULES: OnceLock<Arc<RuleSet>> = OnceLock::new();
    RULES
        .get_or_init(|| {
            Arc::new(data::load_ruleset(&repo().join("assets/rules/overlord")).expect("bundled rule set loads"))
        })
        .clone()
}

/// The bundled alpha scenario.
pub fn alpha() -> Scenario {
    data::load_scenario(Path::new(&repo().join("scenarios/alpha"))).expect("alpha loads")
}

/// A world of two player factions and two plains locations:
///
/// * `fa` (password `pa`): `U1` (a leader in `L1`, with 100 coins, orders `@ guard`),
///   `U2` (10 men stacked under `U1`);
/// * `fb` (password `pb`): `U3` (a leader in `L1`, advertising), `U4` (a leader in `L2`).
pub const TINY: &str = r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 0),
  factions: [
    (id: "fa", name: "Alphans", password: "pa", default_stance: "neutral", funds: {"coin": 500}),
    (id: "fb", name: "Betans", password: "pb", default_stance: "neutral"),
  ],
  locations: [
    (id: "L1", name: "Ford", terrain: "plai", population: 1000, titles: [(title: "shrf", holder: Some("U1"))]),
    (id: "L2", name: "Heath", terrain: "plai", population: 200),
  ],
  structures: [],
  units: [
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1",
     items: [("coin", 100, 0)], skills: [("cmbt", 3000)], orders: ["@ guard"]),
    (id: "U2", name: "Ann's men", faction: "fa", race: "man", figures: 10, location: "L1", stack_leader: Some("U1")),
    (id: "U3", name: "Bob", faction: "fb", race: "ldr", figures: 1, location: "L1", settings: (advertise: true)),
    (id: "U4", name: "Cid", faction: "fb", race: "ldr", figures: 1, location: "L2"),
  ],
)"#;

/// A scenario from RON text with the fields `game`, `factions`, `locations`,
/// `structures` and `units`, as in [`TINY`].
pub fn scenario(ron_text: &str) -> Scenario {
    ron::from_str(ron_text).expect("test scenario parses")
}

/// An engine on `scenario` with the Overlord rules, on one thread.
pub fn engine(scenario: Scenario) -> Engine<Overlord> {
    Engine::<Overlord>::new(overlord_rules(), scenario, Threads::One).expect("test scenario builds")
}

/// An engine on `scenario` with every mechanic but money (wages and upkeep), on one
/// thread: for tests of other mechanics that count coins or read event lists, which
/// month-end upkeep would change.
pub fn engine_without_money(scenario: Scenario) -> Engine<Overlord> {
    engine_with(scenario, false, |_| {})
}

/// An engine on `scenario`, on one thread, with every mechanic (or all but money),
/// and what `extra` adds: a test's own systems in the plan's steps (they run after
/// the mechanics' systems of the same step).
pub fn engine_with(scenario: Scenario, money: bool, extra: impl FnOnce(&mut App)) -> Engine<Overlord> {
    let mut rules = overlord_rules();
    if !money {
        // The plan without the step only money runs in.
        let mut r = (*rules).clone();
        r.plan.end.retain(|s| s != "wages");
        rules = Arc::new(r);
    }
    Engine::<Overlord>::with(rules, scenario, Threads::One, |app, rules| {
        Overlord::resources(app, rules);
        let group = OverlordRules.build();
        if money {
            app.add_plugins(group);
        } else {
            app.add_plugins(group.disable::<crate::systems::overlord::mechanics::money::MoneyPlugin>());
        }
        extra(app);
    })
    .expect("test scenario builds")
}

/// Runs one month with these order files.
pub fn run_month(e: &mut Engine<Overlord>, files: &[&str]) {
    let parsed = files.iter().map(|t| e.parse(t).expect("test orders parse")).collect();
    e.submit(parsed);
    e.run_turn(|_, _| {});
}

/// The unit with id `id`.
pub fn unit(e: &Engine<Overlord>, id: &str) -> bevy_ecs::entity::Entity {
    use crate::systems::overlord::world::resources::{Directory, Kind};
    e.world().resource::<Directory>().get(Kind::Unit, id).unwrap_or_else(|| panic!("no unit {id}"))
}

/// Experience points of unit `id` in skill `skill`.
pub fn points(e: &Engine<Overlord>, id: &str, skill: &str) -> u32 {
    let s = e.world().resource::<crate::systems::overlord::world::Catalog>().skill(skill).expect("skill");
    e.world()
        .get::<crate::systems::overlord::world::components::Skills>(unit(e, id))
        .expect("unit")
        .0
        .iter()
        .find(|x| x.0 == s)
        .map_or(0, |x| x.1)
}

/// Copies a folder tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}
