//! Overlord, the first rule system: the rules of Overlord v1.2 as played in the
//! original engine's alpha game.
//!
//! * [`data`] — the rule set and scenario formats (RON), loading and validation;
//! * [`orders`] — the order language: order files, order lines, list semantics;
//! * [`world`] — the ECS world: components, the catalogue of interned ids, the
//!   scenario spawned into the world and extracted back;
//! * [`mechanics`] — one plugin per mechanic, each attaching its systems to the
//!   steps of the turn plan (`assets/rules/overlord/plan.ron`);
//! * [`report`] — the factions' reports: model, text, JSON;
//! * [`check`] — the order checker;
//! * [`legacy`] — the original engine's file format, imported;
//! * [`generate`] — worlds of any size, for tests and benchmarks;
//! * [`join`] — new players: a faction made between turns (§29);
//! * [`gaps`] — what of a rule set the engine does not carry out yet, for warnings.
//!
//! [`Overlord`] is the system as the core runs it.

pub mod check;
pub mod data;
pub mod gaps;
pub mod generate;
pub mod join;
pub mod legacy;
pub mod legacy_orders;
pub mod map;
pub mod mechanics;
pub mod orders;
pub mod report;
pub mod save;
#[doc(hidden)]
pub mod testkit;
pub mod world;

use crate::core::diag::Diagnostic;
use crate::core::engine::Engine;
use crate::core::engine::plan::{Clock, TurnPlan};
use crate::core::orders::check::Check;
use crate::core::system::{FactionEntry, FolderFile, GameEntry, GameSystem, RuleSystem};
use bevy_app::{App, PluginGroup, PluginGroupBuilder};
use bevy_ecs::prelude::*;
use std::path::Path;
use std::sync::Arc;

/// The Overlord rule system.
pub struct Overlord;

impl RuleSystem for Overlord {
    const NAME: &'static str = data::SYSTEM;
    type Rules = data::RuleSet;
    type State = data::Scenario;
    type Orders = orders::OrderFile;

    fn plan(rules: &data::RuleSet) -> &TurnPlan {
        &rules.plan
    }

    fn plugins(app: &mut App, rules: &Arc<data::RuleSet>) {
        Self::resources(app, rules);
        app.add_plugins(OverlordRules);
    }

    fn build(world: &mut World, _rules: &Arc<data::RuleSet>, state: data::Scenario) -> Result<(), Vec<String>> {
        world::build(world, state)
    }

    fn begin_turn(world: &mut World) {
        let turn = world.resource::<Clock>().turn;
        let months = world.resource::<world::Catalog>().rules.climate.months.len();
        let month = world::month_of_turn(&world.resource::<world::resources::Game>().0, months, turn);
        world.resource_mut::<world::resources::Month>().0 = month;
        world.resource_mut::<world::resources::Randomness>().turn = turn;
        // Events are per month: a new month starts with none.
        let mut q = world.query::<&mut world::components::Events>();
        for mut e in q.iter_mut(world) {
            if !e.0.is_empty() {
                e.0.clear();
            }
        }
    }

    fn extract(world: &World) -> data::Scenario {
        world::extract(world)
    }
}

impl GameSystem for Overlord {
    type Words = world::Catalog;
    type Reports<'w> = report::Writer<'w>;

    fn load_rules(dir: &Path) -> Result<data::RuleSet, Vec<Diagnostic>> {
        data::load_ruleset(dir)
    }

    fn rules_files(rules: &data::RuleSet) -> std::io::Result<Vec<FolderFile>> {
        data::load::ruleset_files(rules)
    }

    fn load_state(dir: &Path) -> Result<data::Scenario, Vec<Diagnostic>> {
        data::load_scenario(dir)
    }

    fn validate(rules: &data::RuleSet, state: &data::Scenario, rules_dir: &Path, state_dir: &Path) -> Vec<Diagnostic> {
        let mut issues = data::validate(rules, state);
        issues.extend(gaps::unworkable(rules).iter().map(|u| u.issue(rules)));
        data::validate::resolve(&issues, rules_dir, state_dir)
    }

    const STATE_FILES: &'static [&'static str] = &data::load::STATE_FILES;

    fn state_files(state: &data::Scenario) -> std::io::Result<Vec<FolderFile>> {
        Ok(data::scenario_files(state)?.into_iter().map(|(name, bytes)| (name.into(), bytes)).collect())
    }

    fn write_state(
        world: &World,
        out: &mut crate::core::game::StateOut<'_, '_, data::RuleSet>,
    ) -> Option<std::io::Result<crate::core::game::StateSummary>> {
        Some(save::write_state(world, out))
    }

    fn game(state: &data::Scenario) -> GameEntry<'_> {
        GameEntry { name: &state.game.name, title: &state.game.title, turn: state.game.turn }
    }

    fn factions(state: &data::Scenario) -> Vec<FactionEntry<'_>> {
        state
            .factions
            .iter()
            .map(|f| FactionEntry { id: &f.id, name: &f.name, password: &f.password, email: &f.email })
            .collect()
    }

    fn passwords_mut(state: &mut data::Scenario) -> Vec<(&str, &mut String)> {
        state.factions.iter_mut().map(|f| (f.id.as_str(), &mut f.password)).collect()
    }

    fn units(state: &data::Scenario) -> usize {
        state.units.len()
    }

    fn counts(rules: &data::RuleSet, state: &data::Scenario) -> String {
        data::Counts::of(rules, state).to_string()
    }

    fn words(rules: &Arc<data::RuleSet>) -> world::Catalog {
        world::Catalog::new(rules.clone())
    }

    fn read_mail(words: &world::Catalog, text: &str) -> Result<orders::Mail, orders::OrderError> {
        orders::parse_mail(text, words)
    }

    fn header(file: &orders::OrderFile) -> &orders::Header {
        &file.header
    }

    fn header_mut(file: &mut orders::OrderFile) -> &mut orders::Header {
        &mut file.header
    }

    fn secret_lines(file: &orders::OrderFile) -> Vec<usize> {
        file.faction_orders
            .iter()
            .filter(|l| matches!(l.read, Ok(orders::FactionOrder::Password(_))))
            .map(|l| l.line)
            .collect()
    }

    fn blocks(file: &orders::OrderFile) -> usize {
        file.units.len()
    }

    fn check(words: &world::Catalog, state: &data::Scenario, faction: &str, file: &orders::OrderFile) -> Check {
        check::check(file, faction, state, words)
    }

    fn mail_rules(rules: &data::RuleSet) -> Option<data::RuleSet> {
        Some(check::records::mail_rules(rules))
    }

    fn mail_records(
        state: &data::Scenario,
        out: &mut crate::core::game::index::SystemRecords,
    ) -> Result<(), crate::core::data::bin::Error> {
        check::records::records(state, out)
    }

    fn mail_state(
        records: &crate::core::game::index::SystemLookup,
        faction: &str,
        file: &orders::OrderFile,
    ) -> Result<Option<data::Scenario>, crate::core::game::index::Damage> {
        check::records::state(records, faction, file).map(Some)
    }

    fn reports(world: &World) -> report::Writer<'_> {
        report::Writer::new(world)
    }

    fn headlines(world: &World) -> Vec<String> {
        let mut lines = mechanics::combat::headlines(world);
        lines.extend(mechanics::population::headlines(world));
        lines
    }

    fn html(words: &world::Catalog, json: &str, _text: &str, map: Option<&str>) -> Result<String, String> {
        report::html::from_json(json, words, map)
    }

    fn atlas(rules: &data::RuleSet, state: &data::Scenario) -> Option<Box<dyn crate::core::map::Atlas>> {
        Some(Box::new(map::Atlas::new(rules, state)))
    }

    fn join(
        rules: &data::RuleSet,
        state: &mut data::Scenario,
        request: &crate::core::system::JoinRequest,
    ) -> Result<crate::core::system::Joined, String> {
        join::join(rules, state, request)
    }
}

impl Overlord {
    /// What every Overlord app holds before its mechanics are added: the catalogue
    /// of the rule set and the report store.
    pub fn resources(app: &mut App, rules: &Arc<data::RuleSet>) {
        app.insert_resource(world::Catalog::new(rules.clone()));
        app.init_resource::<report::Reports>();
    }
}

/// Every mechanic of the Overlord rules, and the reports, in the order they are
/// added: within a step of the plan, systems run in this order.
pub struct OverlordRules;

impl PluginGroup for OverlordRules {
    fn build(self) -> PluginGroupBuilder {
        use mechanics::*;
        PluginGroupBuilder::start::<Self>()
            .add(intake::IntakePlugin)
            .add(stats::StatsPlugin)
            .add(scheduler::OrdersPlugin)
            .add(press::PressPlugin)
            .add(identity::IdentityPlugin)
            .add(diplomacy::DiplomacyPlugin)
            .add(transfer::TransferPlugin)
            .add(stacks::StacksPlugin)
            .add(effects::EffectsPlugin)
            .add(visibility::VisibilityPlugin)
            .add(money::MoneyPlugin)
            .add(study::StudyPlugin)
            .add(population::PopulationPlugin)
            .add(recruit::RecruitPlugin)
            .add(merge::MergePlugin)
            .add(skill_use::SkillUsePlugin)
            .add(production::ProductionPlugin)
            .add(market::MarketPlugin)
            .add(structures::StructuresPlugin)
            .add(movement::MovementPlugin)
            .add(guards::GuardsPlugin)
            .add(titles::TitlesPlugin)
            .add(land::LandPlugin)
            .add(pillage::PillagePlugin)
            .add(combat::CombatPlugin)
            .add(npc::NpcPlugin)
            .add(climate::ClimatePlugin)
            .add(magic::MagicPlugin)
            .add(allegiance::AllegiancePlugin)
            .add(control::ControlPlugin)
            .add(knowledge::KnowledgePlugin)
            .add(report::ReportPlugin)
    }
}

/// Which system runs in which step of the turn plan (`plan.ron`), in the order they
/// run: paths below `systems::overlord`. Mechanics attach their systems in their
/// plugins; `steps_follow_the_table` checks the built app against this table.
pub const STEPS: &[(&str, &[&str])] = &[
    // Before day 1.
    ("orders", &["mechanics::intake::apply_submissions", "mechanics::stacks::start_month"]),
    ("press", &["mechanics::press::pay_rewards", "mechanics::press::deliver_notices"]),
    ("faction_orders", &["mechanics::intake::apply_faction_orders"]),
    (
        "month_start",
        &[
            "mechanics::stats::refresh",
            "mechanics::scheduler::start_month",
            "mechanics::scheduler::note_unhandled",
            "mechanics::visibility::start_month",
            "mechanics::visibility::visits::start_month",
            "mechanics::study::start_month",
            "mechanics::study::find_teachers",
            "mechanics::market::start_month",
            "mechanics::movement::routes::build_routes",
            "mechanics::movement::journey::retreat_at_month_start",
            "mechanics::guards::index_titles",
            "mechanics::titles::overlord::find_the_seat",
            "mechanics::combat::start_month",
            "mechanics::control::clear_refusals",
        ],
    ),
    // Every day.
    ("levy", &["mechanics::land::taxes::levy"]),
    ("immediate", &["mechanics::scheduler::immediate_passes"]),
    ("lessons", &["mechanics::study::plan_lessons"]),
    ("full_day", &["mechanics::scheduler::full_day_pass"]),
    ("harvests", &["mechanics::production::settle_harvests"]),
    ("movement", &["mechanics::movement::journey::advance"]),
    (
        "battle",
        &[
            "mechanics::guards::guard_clashes",
            "mechanics::combat::enemies_on_sight",
            "mechanics::combat::fight_battles",
            "mechanics::npc::react_to_attacks",
        ],
    ),
    ("market", &["mechanics::market::clear_markets"]),
    ("taxes", &["mechanics::stats::refresh", "mechanics::land::taxes::collect"]),
    (
        "day_end",
        &[
            "mechanics::scheduler::end_day",
            "mechanics::effects::wear_off",
            "mechanics::recruit::muster",
            "mechanics::titles::overlord::serve_the_overlord",
            "mechanics::magic::spells::summoned_arrive",
            "mechanics::magic::mana_tides",
        ],
    ),
    // After day 1.
    ("control_points", &["mechanics::stats::refresh", "mechanics::control::check_control_points"]),
    // After the last day.
    ("new_ids", &["mechanics::scheduler::purge_new_ids", "mechanics::scheduler::note_waiting"]),
    ("wages", &["mechanics::money::pay_wages"]),
    ("upkeep", &["mechanics::stats::refresh", "mechanics::money::pay_upkeep"]),
    (
        "allegiance",
        &[
            "mechanics::allegiance::change_allegiances",
            "mechanics::allegiance::creatures_follow_their_leaders",
            "mechanics::control::end_empty_factions",
        ],
    ),
    (
        "land",
        &[
            "mechanics::titles::overlord::serve_the_overlord",
            "mechanics::land::keep_in_range",
            "mechanics::land::uprisings",
            "mechanics::land::owners::reckon_owners",
        ],
    ),
    ("owners", &["mechanics::structures::update_owners"]),
    (
        "places",
        &[
            "mechanics::population::evolve",
            "mechanics::recruit::renew_offers",
            "mechanics::production::renew_resources",
            "mechanics::market::drift",
        ],
    ),
    ("weather", &["mechanics::climate::draw_weather"]),
    // Before the reports.
    (
        "knowledge",
        &["mechanics::stats::refresh", "mechanics::visibility::visits::record_explored", "mechanics::knowledge::learn"],
    ),
    ("reports", &["report::build::build_reports"]),
];

/// What an Overlord game adds to the core's engine.
impl Engine<Overlord> {
    /// Reads an order file with this game's vocabulary.
    pub fn parse(&self, text: &str) -> Result<orders::OrderFile, orders::OrderError> {
        orders::parse(text, self.world().resource::<world::Catalog>())
    }

    /// The reports built by the last turn or [`report_only`](Self::report_only), in
    /// faction order.
    pub fn reports(&self) -> &[report::FactionReport] {
        &self.world().resource::<report::Reports>().0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::engine::Threads;

    #[test]
    fn steps_follow_the_table() {
        // Each system of the real Overlord app in its step, in the order of STEPS;
        // moving one to another step, or reordering a step, fails here.
        let e = testkit::engine(testkit::alpha());
        let prefix = concat!(env!("CARGO_CRATE_NAME"), "::systems::overlord::");
        if let Err(e) = e.steps().check_table(prefix, STEPS) {
            panic!("{e}");
        }
    }

    #[test]
    fn the_table_lists_the_plans_steps_in_the_plans_order() {
        let rules = testkit::overlord_rules();
        let plan: Vec<&str> = rules.plan.steps().into_iter().map(|s| s.2).collect();
        let table: Vec<&str> = STEPS.iter().map(|s| s.0).collect();
        assert_eq!(plan, table);
    }

    #[test]
    fn a_turn_runs_the_plan_day_by_day() {
        // MON-PRE, MON-D1, MON-CP, MON-D2, SCH-DAYEND, MON-WAGE..MON-EVOLVE,
        // MON-REPORT: a recording system in every step shows the order of a month.
        use crate::core::engine::plan::PlanApp;
        #[derive(Resource, Default)]
        struct Log(Vec<String>);
        let mut e = testkit::engine_with(testkit::scenario(testkit::TINY), true, |app| {
            app.init_resource::<Log>();
            for (step, _) in STEPS {
                app.add_step_system(step, move |mut log: ResMut<Log>, c: Res<Clock>| {
                    log.0.push(format!("{}:{step}", c.tick))
                });
            }
        });
        e.run_turn(|_, _| {});
        let log = std::mem::take(&mut e.world_mut().resource_mut::<Log>().0);
        let day = |d: u32| {
            ["levy", "immediate", "lessons", "full_day", "harvests", "movement", "battle", "market", "taxes", "day_end"]
                .map(|s| format!("{d}:{s}"))
        };
        let mut want: Vec<String> =
            ["orders", "press", "faction_orders", "month_start"].map(|s| format!("0:{s}")).to_vec();
        want.extend(day(1));
        want.push("1:control_points".into());
        for d in 2..=30 {
            want.extend(day(d));
        }
        want.extend(
            ["new_ids", "wages", "upkeep", "allegiance", "land", "owners", "places", "weather", "knowledge", "reports"]
                .map(|s| format!("30:{s}")),
        );
        assert_eq!(log, want);
    }

    #[test]
    fn a_plan_step_no_mechanic_runs_stops_the_engine_with_its_line() {
        // A plan with a step no mechanic knows is refused, and the message names the
        // plan's file, line and column.
        let text = std::fs::read_to_string(testkit::repo().join("assets/rules/overlord/plan.ron")).unwrap();
        let text = text.replace("\"battle\",", "\"battle\",\n    \"tournament\",");
        let line = text.lines().position(|l| l.contains("\"tournament\"")).unwrap() + 1;
        let mut rules = (*testkit::overlord_rules()).clone();
        rules.plan = TurnPlan::from_ron(&text, "rules/plan.ron").unwrap();
        let err = Engine::<Overlord>::new(Arc::new(rules), testkit::scenario(testkit::TINY), Threads::One)
            .err()
            .expect("refused");
        assert_eq!(
            err,
            [format!(
                "rules/plan.ron:{line}:5: error: step \"tournament\" has no system: no mechanic of this rule system runs in it"
            )]
        );
    }
}
