//! The generals game (`../shared/seeds/generals-rules.txt`, settled by
//! `docs/generals.md`): the second rule system over the core. Players command
//! generals, one action each per turn, who move armies of troop types over
//! regions held by having troops in them.
//!
//! * [`data`] — the rule set (`assets/rules/generals/`) and scenarios, read and
//!   validated with file, line and column;
//! * [`orders`] — the order language and its checker;
//! * [`world`] — the ECS world a scenario spawns and is extracted from;
//! * [`mechanics`] — one plugin per mechanic, each on its step of the turn plan
//!   (`assets/rules/generals/plan.ron`); [`STEPS`] says which runs where;
//! * [`report`] — the players' reports: text, JSON, order template;
//! * [`map`] — the map as SVG, whole or as a player's report shows it;
//! * [`routes`] — paths over the map, for the checker and the mechanics;
//! * [`generate`] — worlds of any size.
//!
//! [`Generals`] is the system as the core runs it.

pub mod data;
#[cfg(test)]
pub mod fixture;
pub mod generate;
pub mod map;
pub mod mechanics;
pub mod orders;
pub mod report;
pub mod routes;
pub mod world;

use crate::core::diag::Diagnostic;
use crate::core::engine::Engine;
use crate::core::engine::plan::TurnPlan;
use crate::core::orders::check::Check;
use crate::core::orders::mail::{Header, Mail, OrderError, parse_mail};
use crate::core::system::{FactionEntry, FolderFile, GameEntry, GameSystem, RuleSystem};
use bevy_app::App;
use bevy_ecs::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// The generals rule system.
pub struct Generals;

/// The words an order file is read and checked with: the rule set's, and the
/// rule set itself for the checker.
pub struct Words {
    /// The rule set.
    pub rules: Arc<data::RuleSet>,
    /// Its words.
    pub words: orders::Words,
}

impl RuleSystem for Generals {
    const NAME: &'static str = "generals";
    type Rules = data::RuleSet;
    type State = data::Scenario;
    type Orders = orders::OrderFile;

    fn plan(rules: &data::RuleSet) -> &TurnPlan {
        &rules.plan
    }

    fn plugins(app: &mut App, rules: &Arc<data::RuleSet>) {
        app.insert_resource(world::Rules(rules.clone()));
        app.add_plugins((mechanics::GeneralsRules, report::ReportPlugin));
    }

    fn build(world: &mut World, rules: &Arc<data::RuleSet>, state: data::Scenario) -> Result<(), Vec<String>> {
        world::build(world, rules, state)
    }

    fn extract(world: &World) -> data::Scenario {
        world::extract(world, &world.resource::<world::Rules>().0)
    }
}

impl GameSystem for Generals {
    type Words = Words;
    type Reports<'w> = report::Writer<'w>;

    fn load_rules(dir: &Path) -> Result<data::RuleSet, Vec<Diagnostic>> {
        data::load::load_ruleset(dir)
    }

    fn rules_files(rules: &data::RuleSet) -> std::io::Result<Vec<FolderFile>> {
        data::load::ruleset_files(rules)
    }

    fn load_state(dir: &Path) -> Result<data::Scenario, Vec<Diagnostic>> {
        data::load::load_scenario(dir)
    }

    fn validate(rules: &data::RuleSet, state: &data::Scenario, rules_dir: &Path, state_dir: &Path) -> Vec<Diagnostic> {
        data::validate::validate(rules, state, rules_dir, state_dir)
    }

    const STATE_FILES: &'static [&'static str] = &data::load::STATE_FILES;

    fn state_files(state: &data::Scenario) -> std::io::Result<Vec<FolderFile>> {
        data::load::scenario_files(state)
    }

    fn game(state: &data::Scenario) -> GameEntry<'_> {
        GameEntry { name: &state.game.name, title: "", turn: state.game.turn }
    }

    fn factions(state: &data::Scenario) -> Vec<FactionEntry<'_>> {
        state
            .players
            .iter()
            .map(|p| FactionEntry { id: &p.id, name: &p.name, password: &p.password, email: &p.email })
            .collect()
    }

    fn passwords_mut(state: &mut data::Scenario) -> Vec<(&str, &mut String)> {
        state.players.iter_mut().map(|p| (p.id.as_str(), &mut p.password)).collect()
    }

    fn units(state: &data::Scenario) -> usize {
        state.troops.len()
    }

    fn counts(_rules: &data::RuleSet, s: &data::Scenario) -> String {
        format!(
            "{} players, {} regions, {} generals, {} troop units",
            s.players.len(),
            s.regions.len(),
            s.generals.len(),
            s.troops.len()
        )
    }

    fn words(rules: &Arc<data::RuleSet>) -> Words {
        Words { rules: rules.clone(), words: orders::Words::new(rules) }
    }

    fn read_mail(words: &Words, text: &str) -> Result<Mail<orders::OrderFile>, OrderError> {
        parse_mail(text, &words.words)
    }

    fn header(file: &orders::OrderFile) -> &Header {
        &file.header
    }

    fn header_mut(file: &mut orders::OrderFile) -> &mut Header {
        &mut file.header
    }

    const BLOCK: &'static str = "order line";

    fn blocks(file: &orders::OrderFile) -> usize {
        file.lines.len()
    }

    fn check(words: &Words, state: &data::Scenario, faction: &str, file: &orders::OrderFile) -> Check {
        orders::check::check(&words.rules, state, faction, file)
    }

    fn reports(world: &World) -> report::Writer<'_> {
        report::Writer::new(world)
    }

    fn atlas(rules: &data::RuleSet, state: &data::Scenario) -> Option<Box<dyn crate::core::map::Atlas>> {
        Some(Box::new(map::Atlas { rules: rules.clone(), state: state.clone() }))
    }

    fn headlines(world: &World) -> Vec<String> {
        let Some(battles) = world.get_resource::<mechanics::battle::Battles>() else { return Vec::new() };
        battles
            .0
            .iter()
            .map(|b| {
                let who = |s: usize| world::label(world, b.sides[s].player);
                let (winner, loser) = (who(b.winner), who(1 - b.winner));
                format!("{winner} defeated {loser} at {}.", world::label(world, b.region))
            })
            .collect()
    }
}

/// Which system runs in which step of the turn plan (`plan.ron`), in the order
/// they run: paths below `systems::generals`. `steps_follow_the_table` checks
/// the built app against this table.
pub const STEPS: &[(&str, &[&str])] = &[
    ("orders", &["mechanics::intake::take_orders"]),
    ("recovery", &["mechanics::economy::collect"]),
    ("renown", &["mechanics::skills::buy_skills"]),
    ("training", &["mechanics::training::train"]),
    ("recruiting", &["mechanics::recruiting::recruit"]),
    ("movement", &["mechanics::movement::move_generals"]),
    (
        "battle",
        &["mechanics::battle::set_defenses", "mechanics::battle::declare_attacks", "mechanics::battle::fight_battles"],
    ),
    ("aftermath", &["mechanics::aftermath::reckon"]),
    ("preparation", &["mechanics::preparation::prepare"]),
    ("control", &["mechanics::control::score"]),
    ("reports", &["report::build_reports"]),
];

/// What a generals game adds to the core's engine.
impl Engine<Generals> {
    /// The reports built by the last turn, in player order.
    pub fn reports(&self) -> &[report::PlayerReport] {
        &self.world().resource::<report::Reports>().0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::engine::Threads;

    #[test]
    fn steps_follow_the_table() {
        let rules = Arc::new(fixture::rules());
        let e = Engine::<Generals>::new(rules.clone(), fixture::a_row(), Threads::One).unwrap();
        // Each system in its step, in the order of STEPS, and no other.
        let prefix = concat!(env!("CARGO_CRATE_NAME"), "::systems::generals::");
        if let Err(e) = e.steps().check_table(prefix, STEPS) {
            panic!("{e}");
        }
        // Every step of the plan is in the table, in the plan's order.
        let plan: Vec<&str> = rules.plan.steps().into_iter().map(|s| s.2).collect();
        let table: Vec<&str> = STEPS.iter().map(|s| s.0).collect();
        assert_eq!(plan, table);
    }
}
