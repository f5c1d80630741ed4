//! The test kit: the bundled rule set and the alpha world, tiny worlds built in a
//! few lines ([`Tiny`]) or written in RON ([`scenario`]), orders as text, months
//! or days run, events and state read ([`Game`]).

use crate::core::engine::{Engine, Threads};
use crate::systems::overlord::data::{self, RuleSet, Scenario};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Events, Inventory};
use crate::systems::overlord::world::resources::{Directory, Kind};
use crate::systems::overlord::{Overlord, OverlordRules};
use bevy_app::{App, PluginGroup};
use bevy_ecs::entity::Entity;
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
    let issues = data::validate::validate(&overlord_rules(), &scenario);
    assert!(issues.is_empty(), "the test's world does not validate: {issues:?}");
    Engine::<Overlord>::new(overlord_rules(), scenario, Threads::One).expect("test scenario builds")
}

/// An engine on `scenario` with every mechanic but money (wages and upkeep), on one
/// thread: for tests of other mechanics that count coins or read event lists, which
/// month-end upkeep would change.
pub fn engine_without_money(scenario: Scenario) -> Engine<Overlord> {
    engine_with(scenario, false, |_| {})
}

/// An engine on `scenario` with the rule set `rules` changed by a test, on one
/// thread, with every mechanic (or all but money).
pub fn engine_with_rules(rules: RuleSet, scenario: Scenario, money: bool) -> Engine<Overlord> {
    build(Arc::new(rules), scenario, money, |_| {})
}

/// An engine on `scenario`, on one thread, with every mechanic (or all but money),
/// and what `extra` adds: a test's own systems in the plan's steps (they run after
/// the mechanics' systems of the same step).
pub fn engine_with(scenario: Scenario, money: bool, extra: impl FnOnce(&mut App)) -> Engine<Overlord> {
    build(overlord_rules(), scenario, money, extra)
}

fn build(mut rules: Arc<RuleSet>, scenario: Scenario, money: bool, extra: impl FnOnce(&mut App)) -> Engine<Overlord> {
    if !money {
        // The plan without the step only money runs in.
        let mut r = (*rules).clone();
        r.plan.end.retain(|s| s != "wages");
        rules = Arc::new(r);
    }
    let issues = data::validate::validate(&rules, &scenario);
    assert!(issues.is_empty(), "the test's world does not validate: {issues:?}");
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
    assert_saved_state_valid(e);
}

/// Every state the engine saves validates against its rules (README): checked after
/// every month a test runs, so that no mechanic leaves a state the next run refuses.
pub fn assert_saved_state_valid(e: &Engine<Overlord>) {
    let rules = e.world().resource::<Catalog>().rules.clone();
    let issues = data::validate::validate(&rules, &e.state());
    assert!(issues.is_empty(), "the state after the month does not validate: {issues:?}");
}

/// The entity of unit, faction, location or structure `id`.
pub fn entity(e: &Engine<Overlord>, id: &str) -> Entity {
    let dir = e.world().resource::<Directory>();
    [Kind::Unit, Kind::Faction, Kind::Location, Kind::Structure]
        .into_iter()
        .find_map(|k| dir.get(k, id))
        .unwrap_or_else(|| panic!("nothing has id {id}"))
}

/// The events of unit or faction `id` this month, with their days: `"day: text"`.
pub fn events(e: &Engine<Overlord>, id: &str) -> Vec<String> {
    dated(e, id).into_iter().map(|(day, text)| format!("{day}: {text}")).collect()
}

/// The events of unit or faction `id` this month, without their days.
pub fn texts(e: &Engine<Overlord>, id: &str) -> Vec<String> {
    dated(e, id).into_iter().map(|x| x.1).collect()
}

/// The events of unit or faction `id` this month: `(day, text)`.
pub fn dated(e: &Engine<Overlord>, id: &str) -> Vec<(u32, String)> {
    let events = e.world().get::<Events>(entity(e, id)).unwrap_or_else(|| panic!("{id} has no events"));
    events.0.iter().map(|x| (x.day, x.text.to_string())).collect()
}

/// The day of the first event of `id` this month that contains `what`.
pub fn said(e: &Engine<Overlord>, id: &str, what: &str) -> Option<u32> {
    dated(e, id).into_iter().find(|x| x.1.contains(what)).map(|x| x.0)
}

/// Unit `id`'s pending orders, as the order template writes them.
pub fn orders(e: &Engine<Overlord>, id: &str) -> Vec<String> {
    let c = e.world().resource::<Catalog>();
    let list = e.world().get::<crate::systems::overlord::world::components::Orders>(unit(e, id)).expect("unit");
    list.0.iter().map(|q| q.entry.written(c).to_string()).collect()
}

/// The figures of unit `id`.
pub fn figures(e: &Engine<Overlord>, id: &str) -> u32 {
    e.world().get::<crate::systems::overlord::world::components::Figures>(unit(e, id)).expect("unit").0
}

/// The id of the location where unit `id` is seen.
pub fn place(e: &Engine<Overlord>, id: &str) -> String {
    use crate::systems::overlord::world::components::{At, Id};
    let l = e.world().get::<At>(unit(e, id)).expect("unit").location;
    e.world().get::<Id>(l).expect("location").0.clone()
}

/// How many of `item` unit `id` holds.
pub fn count(e: &Engine<Overlord>, id: &str, item: &str) -> u32 {
    let i = e.world().resource::<Catalog>().item(item).expect("item");
    e.world().get::<Inventory>(unit(e, id)).expect("unit").count(i)
}

/// How many of `item` faction `id` holds in its funds.
pub fn funds(e: &Engine<Overlord>, id: &str, item: &str) -> u64 {
    let i = e.world().resource::<Catalog>().item(item).expect("item");
    let funds = e.world().get::<crate::systems::overlord::world::components::Funds>(entity(e, id)).expect("faction");
    funds.0.iter().find(|x| x.0 == i).map_or(0, |x| x.1)
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

/// A tiny Overlord world for a test, built in a few lines: factions, locations and
/// their exits, units with their items and skills. Each faction's password is its
/// id, so that [`Game::orders`] can write the header. The game starts in June (no
/// winter upkeep), seed 7.
///
/// ```ignore
/// let mut g = Tiny::new()
///     .faction("fa")
///     .location("L1", "plai")
///     .unit("U1", "fa", "ldr", 1, "L1")
///     .items(&[("coin", 100)])
///     .build();
/// g.orders("fa", "UNIT U1\nGIVE U2 coin 10\n").run();
/// assert_eq!(g.count("U1", "coin"), 90);
/// ```
pub struct Tiny {
    scenario: Scenario,
    rules: RuleSet,
    money: bool,
}

impl Default for Tiny {
    fn default() -> Self {
        Tiny::new()
    }
}

impl Tiny {
    /// An empty world with the bundled rule set.
    pub fn new() -> Self {
        Tiny { scenario: scenario(EMPTY), rules: (*overlord_rules()).clone(), money: true }
    }

    /// Adds a player faction with id `id` (name and password `id`), default stance
    /// neutral.
    pub fn faction(mut self, id: &str) -> Self {
        let f: data::Faction =
            ron::from_str(&format!(r#"(id: "{id}", name: "{id}", password: "{id}", default_stance: "neutral")"#))
                .expect("faction parses");
        self.scenario.factions.push(f);
        self
    }

    /// Changes the last faction added.
    pub fn with_faction(mut self, f: impl FnOnce(&mut data::Faction)) -> Self {
        f(self.scenario.factions.last_mut().expect("a faction was added"));
        self
    }

    /// Adds a location `id` of terrain `terrain`, population 100, fair weather.
    pub fn location(mut self, id: &str, terrain: &str) -> Self {
        let weather = self.rules.climate.weathers.first().map(|w| w.tag.clone());
        self.scenario.locations.push(data::Location {
            id: id.into(),
            name: id.into(),
            terrain: terrain.into(),
            population: 100,
            weather,
            ..Default::default()
        });
        self
    }

    /// Changes the last location added.
    pub fn with_location(mut self, f: impl FnOnce(&mut data::Location)) -> Self {
        f(self.scenario.locations.last_mut().expect("a location was added"));
        self
    }

    /// An exit from location `from` in direction `dir` to `to`.
    pub fn exit(mut self, from: &str, dir: &str, to: &str) -> Self {
        let l = self.scenario.locations.iter_mut().find(|l| l.id == from).expect("the exit's location was added");
        l.exits.push(data::Exit { dir: dir.into(), to: to.into(), mode: None, days: None });
        self
    }

    /// Adds a finished structure `id` of construction `kind` at location `at`.
    pub fn structure(mut self, id: &str, kind: &str, at: &str) -> Self {
        self.scenario.structures.push(data::Structure {
            id: id.into(),
            kind: kind.into(),
            location: at.into(),
            ..Default::default()
        });
        self
    }

    /// Puts the last unit inside structure `id`.
    pub fn inside(self, id: &str) -> Self {
        self.with_unit(|u| u.structure = Some(id.into()))
    }

    /// Adds unit `id` of faction `faction`: `figures` figures of race `race` at
    /// location `at`.
    pub fn unit(mut self, id: &str, faction: &str, race: &str, figures: u32, at: &str) -> Self {
        self.scenario.units.push(data::Unit {
            id: id.into(),
            name: id.into(),
            faction: faction.into(),
            race: race.into(),
            figures,
            location: at.into(),
            ..Default::default()
        });
        self
    }

    /// Gives the last unit these items, unequipped.
    pub fn items(self, items: &[(&str, u32)]) -> Self {
        self.with_unit(|u| u.items.extend(items.iter().map(|&(t, n)| data::ItemHolding(t.into(), n, 0))))
    }

    /// Gives the last unit these skills, with experience points.
    pub fn skills(self, skills: &[(&str, u32)]) -> Self {
        self.with_unit(|u| u.skills.extend(skills.iter().map(|&(t, x)| data::SkillExperience(t.into(), x))))
    }

    /// Stacks the last unit under `leader`.
    pub fn under(self, leader: &str) -> Self {
        self.with_unit(|u| u.stack_leader = Some(leader.into()))
    }

    /// Changes the last unit added.
    pub fn with_unit(mut self, f: impl FnOnce(&mut data::Unit)) -> Self {
        f(self.scenario.units.last_mut().expect("a unit was added"));
        self
    }

    /// Changes the game's settings (`month` of turn 1, seed…).
    pub fn with_game(mut self, f: impl FnOnce(&mut data::GameSettings)) -> Self {
        f(&mut self.scenario.game);
        self
    }

    /// Changes the whole scenario (a location other than the last, for instance).
    pub fn with_scenario(mut self, f: impl FnOnce(&mut data::Scenario)) -> Self {
        f(&mut self.scenario);
        self
    }

    /// Changes the rule set for this world.
    pub fn with_rules(mut self, f: impl FnOnce(&mut RuleSet)) -> Self {
        f(&mut self.rules);
        self
    }

    /// Every faction's units show their faction (SET-ADVERTISE at faction level), so
    /// that other factions judge them by their declared stances (DIP-UNSEEN).
    pub fn advertising(mut self) -> Self {
        for f in &mut self.scenario.factions {
            f.settings.advertise = true;
        }
        self
    }

    /// Leaves out wages and upkeep, which change coin counts and event lists.
    pub fn without_money(mut self) -> Self {
        self.money = false;
        self
    }

    /// The rule set and the scenario as built so far, to work on as data.
    pub fn parts(self) -> (RuleSet, Scenario) {
        (self.rules, self.scenario)
    }

    /// A world from a rule set and a scenario (say, the [`parts`](Self::parts) of
    /// another, changed).
    pub fn from_parts(rules: RuleSet, scenario: Scenario) -> Self {
        Tiny { scenario, rules, money: true }
    }

    /// The engine on this world, on one thread.
    pub fn build(self) -> Game {
        let Tiny { scenario, rules, money } = self;
        Game { engine: engine_with_rules(rules, scenario, money), files: Vec::new() }
    }
}

/// The scenario a [`Tiny`] starts from.
const EMPTY: &str = r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 5),
  factions: [], locations: [], structures: [], units: [],
)"#;

/// A tiny world running: orders in as text, days or whole months run, events and
/// state read.
pub struct Game {
    /// The engine.
    pub engine: Engine<Overlord>,
    /// Order files waiting for the next turn.
    files: Vec<String>,
}

impl Game {
    /// Queues faction `faction`'s orders for the next turn: `text` is what follows
    /// the `GAME` line (its faction orders and `UNIT` blocks).
    pub fn orders(&mut self, faction: &str, text: &str) -> &mut Self {
        self.files.push(format!("GAME {faction} {faction}\n{text}"));
        self
    }

    fn submit(&mut self) {
        if self.files.is_empty() {
            return;
        }
        let files = std::mem::take(&mut self.files);
        let parsed = files.iter().map(|t| self.engine.parse(t).expect("test orders parse")).collect();
        self.engine.submit(parsed);
    }

    /// Runs the rest of the turn (a whole month when none is under way) with the
    /// queued orders.
    pub fn run(&mut self) -> &mut Self {
        self.submit();
        self.engine.run_turn(|_, _| {});
        assert_saved_state_valid(&self.engine);
        self
    }

    /// Runs the next `days` days (beginning a month with the queued orders when none
    /// is under way, finishing it after day 30).
    pub fn days(&mut self, days: u32) -> &mut Self {
        self.submit();
        self.engine.run_ticks(days);
        self
    }

    /// The entity of unit, location, structure or faction `id`.
    pub fn entity(&self, id: &str) -> Entity {
        entity(&self.engine, id)
    }

    /// A component of `id`.
    pub fn get<C: bevy_ecs::component::Component>(&self, id: &str) -> &C {
        self.engine.world().get::<C>(self.entity(id)).unwrap_or_else(|| panic!("{id} lacks the component"))
    }

    /// The events of unit or faction `id` this month: `"day: text"`.
    pub fn events(&self, id: &str) -> Vec<String> {
        events(&self.engine, id)
    }

    /// Whether an event of `id` this month contains `text`.
    pub fn said(&self, id: &str, text: &str) -> bool {
        self.get::<Events>(id).0.iter().any(|e| e.text.contains(text))
    }

    /// The tag of the stance faction `of` holds toward faction `toward`.
    pub fn stance(&self, of: &str, toward: &str) -> String {
        let d = self.get::<crate::systems::overlord::world::components::Diplomacy>(of);
        let s = d.toward(self.entity(toward)).expect("a stance");
        self.engine.world().resource::<crate::systems::overlord::world::Catalog>().stances.tag(s).to_string()
    }

    /// How many of `item` unit `unit` holds.
    pub fn count(&self, unit: &str, item: &str) -> u32 {
        count(&self.engine, unit, item)
    }

    /// Faction `faction`'s text report of the last turn run.
    pub fn report_text(&self, faction: &str) -> String {
        let c = self.engine.world().resource::<crate::systems::overlord::world::Catalog>();
        let r = self.engine.reports().iter().find(|r| r.faction.id == faction).expect("a report of the faction");
        crate::systems::overlord::report::text::render(r, c)
    }

    /// Days left of enchantment `tag` on unit `unit` (0: none).
    pub fn effect(&self, unit: &str, tag: &str) -> u32 {
        let c = self.engine.world().resource::<crate::systems::overlord::world::Catalog>();
        let Some(e) = c.effect(tag) else { return 0 };
        self.get::<crate::systems::overlord::world::components::Effects>(unit)
            .0
            .iter()
            .find(|x| x.0 == e)
            .map_or(0, |x| x.1)
    }

    /// The units of race `race`, by id, in report order.
    pub fn units_of_race(&self, race: &str) -> Vec<String> {
        let w = self.engine.world();
        let c = w.resource::<crate::systems::overlord::world::Catalog>();
        let Some(r) = c.race(race) else { return Vec::new() };
        w.resource::<crate::systems::overlord::world::resources::Directory>()
            .units()
            .iter()
            .filter(|&&u| w.get::<crate::systems::overlord::world::components::Race>(u).is_some_and(|x| x.0 == r))
            .filter_map(|&u| w.get::<crate::systems::overlord::world::components::Id>(u).map(|i| i.0.clone()))
            .collect()
    }

    /// Experience points of unit `unit` in `skill`.
    pub fn points(&self, unit: &str, skill: &str) -> u32 {
        points(&self.engine, unit, skill)
    }

    /// The world as it would be saved.
    pub fn state(&self) -> Scenario {
        self.engine.state()
    }
}
