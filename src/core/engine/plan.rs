//! The turn plan: which steps a turn runs, in which order, read from the rule set.
//!
//! A rule system's turn is a sequence of named **steps**. Its rule set says, in one
//! RON file (`plan.ron`), how many **ticks** a turn has (30 days for a month of
//! days, one for a game resolved all at once) and which steps run before the ticks, in every
//! tick, after given ticks only, after the last tick, and to prepare the reports:
//!
//! ```ron
//! (
//!   tick: "day",
//!   ticks: 30,
//!   start: ["orders", "faction_orders"],
//!   each_tick: ["immediate", "full_day", "movement", "day_end"],
//!   after_tick: [(tick: 1, steps: ["control_points"])],
//!   end: ["wages", "upkeep"],
//!   report: ["reports"],
//! )
//! ```
//!
//! Mechanics attach their systems to steps by name ([`PlanApp::add_step_system`]).
//! Each step is a schedule of its own; its systems run in the order they were
//! added. When the engine starts it checks the two against each other
//! ([`TurnPlan::check`]): every step a mechanic uses is in the plan, and every step
//! of the plan has a system; a problem names the plan's file, line and column.

use crate::core::data::ronpos::{self, Seg};
use crate::core::diag::Diagnostic;
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{ScheduleLabel, SingleThreadedExecutor};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The most ticks a turn may have: a bound that keeps a mistyped number from
/// running a turn for ever.
pub const MAX_TICKS: u32 = 1000;

/// A rule system's turn, as its rule set gives it (`plan.ron`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnPlan {
    /// What a tick is called (`"day"`, `"phase"`), for messages and progress.
    pub tick: String,
    /// Ticks in a turn. A rule system may let a game set its own.
    pub ticks: u32,
    /// Steps before the first tick, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start: Vec<String>,
    /// Steps of every tick, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub each_tick: Vec<String>,
    /// Steps that run after the steps of one tick only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub after_tick: Vec<AfterTick>,
    /// Steps after the last tick, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub end: Vec<String>,
    /// Steps that prepare the reports: after every turn, and when a game starts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub report: Vec<String>,
    /// The file the plan was read from and its text, for messages and for writing
    /// it back as it was (comments included). Not part of the plan's value.
    #[serde(skip)]
    pub origin: Origin,
}

/// Steps that run after a given tick's steps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AfterTick {
    /// The tick (from 1).
    pub tick: u32,
    /// The steps, in order.
    pub steps: Vec<String>,
}

/// Where a plan was read from: its file and text. Two plans that differ only in
/// their origin are equal.
#[derive(Debug, Clone, Default)]
pub struct Origin(pub Option<(PathBuf, Arc<str>)>);

impl PartialEq for Origin {
    fn eq(&self, _: &Origin) -> bool {
        true
    }
}
impl Eq for Origin {}

/// Which part of the plan a step is listed in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// Before the ticks.
    Start,
    /// In every tick.
    EachTick,
    /// After one tick (the index in `after_tick`).
    AfterTick(usize),
    /// After the ticks.
    End,
    /// Preparing the reports.
    Report,
}

impl TurnPlan {
    /// Reads a plan from RON text; `path` is named in errors and kept as its origin.
    pub fn from_ron(text: &str, path: impl Into<PathBuf>) -> Result<TurnPlan, Diagnostic> {
        let path = path.into();
        let mut plan: TurnPlan = ron::Options::default()
            .from_str(text)
            .map_err(|e| Diagnostic::error(&path, e.span.start.line, e.span.start.col, e.code.to_string()))?;
        plan.origin = Origin(Some((path, Arc::from(text))));
        Ok(plan)
    }

    /// Every step the plan names, with where it is listed, in the order they run
    /// within each part.
    pub fn steps(&self) -> Vec<(Part, usize, &str)> {
        fn list<'a>(out: &mut Vec<(Part, usize, &'a str)>, part: Part, steps: &'a [String]) {
            out.extend(steps.iter().enumerate().map(|(i, s)| (part, i, s.as_str())));
        }
        let mut out = Vec::new();
        list(&mut out, Part::Start, &self.start);
        list(&mut out, Part::EachTick, &self.each_tick);
        for (k, a) in self.after_tick.iter().enumerate() {
            list(&mut out, Part::AfterTick(k), &a.steps);
        }
        list(&mut out, Part::End, &self.end);
        list(&mut out, Part::Report, &self.report);
        out
    }

    /// The path of a listed step inside the plan's RON value, for positions.
    fn path_of(part: Part, i: usize) -> Vec<Seg> {
        match part {
            Part::Start => vec![Seg::Field("start"), Seg::Index(i)],
            Part::EachTick => vec![Seg::Field("each_tick"), Seg::Index(i)],
            Part::AfterTick(k) => vec![Seg::Field("after_tick"), Seg::Index(k), Seg::Field("steps"), Seg::Index(i)],
            Part::End => vec![Seg::Field("end"), Seg::Index(i)],
            Part::Report => vec![Seg::Field("report"), Seg::Index(i)],
        }
    }

    /// An error at `path` of the plan's file (its start when the plan has no file).
    fn error_at(&self, path: &[Seg], message: String) -> Diagnostic {
        match &self.origin.0 {
            Some((file, text)) => {
                let pos = ronpos::locate(text, path);
                Diagnostic::error(file, pos.line, pos.col, message)
            }
            None => Diagnostic::error("plan", 0, 0, message),
        }
    }

    /// Checks the plan against the steps the rule system's mechanics use: every step
    /// they use must be in the plan, and every step of the plan must have a system.
    /// Each problem names the plan's file, line and column.
    pub fn check(&self, book: &StepBook) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        if self.ticks == 0 {
            out.push(self.error_at(&[Seg::Field("ticks")], "a turn needs at least one tick".into()));
        }
        if self.ticks > MAX_TICKS {
            let msg = format!("a turn has at most {MAX_TICKS} ticks (a longer one would run for hours)");
            out.push(self.error_at(&[Seg::Field("ticks")], msg));
        }
        for (k, a) in self.after_tick.iter().enumerate() {
            if a.tick == 0 || a.tick > self.ticks {
                let path = [Seg::Field("after_tick"), Seg::Index(k), Seg::Field("tick")];
                out.push(self.error_at(&path, format!("tick {} is outside the turn (1..={})", a.tick, self.ticks)));
            }
        }
        let listed = self.steps();
        for &(part, i, name) in &listed {
            if book.systems(name).is_empty() {
                let message = format!("step \"{name}\" has no system: no mechanic of this rule system runs in it");
                out.push(self.error_at(&Self::path_of(part, i), message));
            }
        }
        for (name, systems) in &book.steps {
            if !listed.iter().any(|s| s.2 == *name) {
                let message = format!(
                    "the mechanics run {} in a step \"{name}\" that the plan does not list",
                    systems.join(", ")
                );
                out.push(self.error_at(&[], message));
            }
        }
        out
    }
}

/// A step of the turn plan: the schedule its systems run in.
#[derive(ScheduleLabel, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Step(pub &'static str);

/// The place of one system in its step: systems added later run later.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Slot(&'static str, usize);

/// The systems each step runs, by name, in the order they run; kept as mechanics
/// add them ([`PlanApp::add_step_system`]).
#[derive(Resource, Debug, Default, Clone)]
pub struct StepBook {
    steps: BTreeMap<&'static str, Vec<String>>,
}

impl StepBook {
    /// The systems of step `name`, in order, by their Rust paths.
    pub fn systems(&self, name: &str) -> &[String] {
        self.steps.get(name).map_or(&[], |v| v.as_slice())
    }
    /// Every step with systems, by name, and its systems in order.
    pub fn all(&self) -> impl Iterator<Item = (&'static str, &[String])> {
        self.steps.iter().map(|(k, v)| (*k, v.as_slice()))
    }
    /// The book as a table: each step with systems (by name) and its systems in
    /// order, their names without `prefix`; for checking a rule system's table of
    /// steps against the app it builds.
    fn table(&self, prefix: &str) -> Vec<(String, Vec<String>)> {
        self.all()
            .map(|(step, systems)| {
                (step.to_string(), systems.iter().map(|s| s.strip_prefix(prefix).unwrap_or(s).to_string()).collect())
            })
            .collect()
    }
    /// Checks the book against a rule system's table of steps (each step with its
    /// systems in order, names without `prefix`): every step with systems is in
    /// the table with exactly those systems, in that order. The error shows both.
    pub fn check_table(&self, prefix: &str, steps: &[(&str, &[&str])]) -> Result<(), String> {
        let mut want: Vec<(String, Vec<String>)> = steps
            .iter()
            .map(|(step, systems)| (step.to_string(), systems.iter().map(|s| s.to_string()).collect()))
            .collect();
        want.sort();
        let built = self.table(prefix);
        if built == want { Ok(()) } else { Err(format!("the app runs {built:?}\nthe table says {want:?}")) }
    }
    /// The label of step `name`, if a mechanic uses it.
    pub fn label(&self, name: &str) -> Option<Step> {
        self.steps.get_key_value(name).map(|(k, _)| Step(k))
    }
}

/// The name a system is listed under: its Rust path
/// (`overlord::systems::overlord::mechanics::intake::apply_submissions`).
fn system_name<S>() -> String {
    let full = std::any::type_name::<S>();
    full.split('<').next().unwrap_or(full).to_string()
}

/// Adding systems to the steps of the turn plan.
pub trait PlanApp {
    /// Adds `system` to step `step`. It runs after the systems added to that step
    /// before it.
    fn add_step_system<M, S: IntoScheduleConfigs<bevy_ecs::system::ScheduleSystem, M>>(
        &mut self,
        step: &'static str,
        system: S,
    ) -> &mut Self;
}

impl PlanApp for App {
    fn add_step_system<M, S: IntoScheduleConfigs<bevy_ecs::system::ScheduleSystem, M>>(
        &mut self,
        step: &'static str,
        system: S,
    ) -> &mut Self {
        let name = system_name::<S>();
        let mut book = self.world_mut().get_resource_or_init::<StepBook>();
        let list = book.steps.entry(step).or_default();
        let slot = list.len();
        list.push(name);
        if slot == 0 {
            // A step's systems run one after another, each after the one added
            // before it, so no two of them could run at once: a step runs them
            // all on the calling thread. A multi-threaded executor would hand
            // each to the task pool and move it between cores, away from the
            // data the one before left in the cache (docs/performance.md,
            // "seventh part"). A system shares its own work among threads where
            // that pays (`ThreadCount`, `map_ordered`, `par_iter`).
            let mut schedule = Schedule::new(Step(step));
            schedule.set_executor(SingleThreadedExecutor::new());
            self.add_schedule(schedule);
        } else {
            self.configure_sets(Step(step), Slot(step, slot - 1).before(Slot(step, slot)));
        }
        self.add_systems(Step(step), system.in_set(Slot(step, slot)))
    }
}

/// The plan resolved against the steps of a built app: what [`run_turn`] runs.
#[derive(Resource, Debug, Clone)]
pub struct Runner {
    start: Vec<Step>,
    each_tick: Vec<Step>,
    after_tick: Vec<(u32, Vec<Step>)>,
    end: Vec<Step>,
    report: Vec<Step>,
}

impl Runner {
    /// Resolves `plan` against `book`; fails as [`TurnPlan::check`] does.
    pub fn new(plan: &TurnPlan, book: &StepBook) -> Result<Runner, Vec<Diagnostic>> {
        let problems = plan.check(book);
        if !problems.is_empty() {
            return Err(problems);
        }
        let resolve = |steps: &[String]| steps.iter().filter_map(|s| book.label(s)).collect::<Vec<_>>();
        Ok(Runner {
            start: resolve(&plan.start),
            each_tick: resolve(&plan.each_tick),
            after_tick: plan.after_tick.iter().map(|a| (a.tick, resolve(&a.steps))).collect(),
            end: resolve(&plan.end),
            report: resolve(&plan.report),
        })
    }
}

/// Where in time the game is: the turn, and the tick within it.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    /// The turn being played (the state loaded was the turn before), or the turn of
    /// the loaded state when no turn is running.
    pub turn: u32,
    /// The tick of the turn: 0 before the first, then `1..=ticks`.
    pub tick: u32,
    /// Ticks in a turn.
    pub ticks: u32,
}

/// Runs the steps of one turn on `world`, in the plan's order: the start steps, then
/// for each tick its steps (and the steps after that tick), the end steps and the
/// report steps. `on_tick(tick, ticks)` is called after each tick.
pub fn run_turn(world: &mut World, mut on_tick: impl FnMut(u32, u32)) {
    run_start(world);
    let ticks = world.resource::<Clock>().ticks;
    for tick in 1..=ticks {
        run_tick(world, tick);
        on_tick(tick, ticks);
    }
    run_end(world);
}

/// Runs the start steps of a turn.
pub fn run_start(world: &mut World) {
    let runner = world.resource::<Runner>().clone();
    for s in &runner.start {
        run_step(world, *s);
    }
}

/// Runs tick `tick`: its steps, then the steps after that tick.
pub fn run_tick(world: &mut World, tick: u32) {
    let runner = world.resource::<Runner>().clone();
    world.resource_mut::<Clock>().tick = tick;
    for s in &runner.each_tick {
        run_step(world, *s);
    }
    for (_, steps) in runner.after_tick.iter().filter(|a| a.0 == tick) {
        for s in steps {
            run_step(world, *s);
        }
    }
}

/// Runs one step; at the `trace` level (`-vvv`) logs its time, the process's
/// peak memory so far and its live bytes after the step, which finds the step that
/// costs a big world its time or memory.
fn run_step(world: &mut World, step: Step) {
    if !tracing::enabled!(tracing::Level::TRACE) {
        world.run_schedule(step);
        return;
    }
    let started = std::time::Instant::now();
    world.run_schedule(step);
    let tick = world.resource::<Clock>().tick;
    tracing::trace!(
        step = step.0,
        tick,
        seconds = started.elapsed().as_secs_f64(),
        peak_mb = crate::core::alloc::peak_mb(),
        live_mb = crate::core::alloc::live_mb(),
        "step ran"
    );
}

/// Runs the end steps and the report steps of a turn.
pub fn run_end(world: &mut World) {
    let runner = world.resource::<Runner>().clone();
    for s in runner.end.iter().chain(&runner.report) {
        run_step(world, *s);
    }
}

/// Runs only the report steps (a game's starting reports).
pub fn run_report(world: &mut World) {
    let runner = world.resource::<Runner>().clone();
    for s in &runner.report {
        run_step(world, *s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = r#"(
  tick: "day",
  ticks: 3,
  start: ["a"],
  each_tick: ["b", "c"],
  after_tick: [(tick: 2, steps: ["d"])],
  end: ["e"],
  report: ["f"],
)"#;

    #[derive(Resource, Default)]
    struct Log(Vec<String>);

    fn app(steps: &[&'static str]) -> App {
        let mut app = App::empty();
        app.init_resource::<StepBook>();
        app.insert_resource(Clock { turn: 1, tick: 0, ticks: 3 });
        app.init_resource::<Log>();
        for &s in steps {
            app.add_step_system(s, move |mut log: ResMut<Log>, c: Res<Clock>| log.0.push(format!("{}{s}", c.tick)));
        }
        app
    }

    #[test]
    fn a_turn_runs_the_steps_in_the_plans_order() {
        let plan = TurnPlan::from_ron(PLAN, "plan.ron").unwrap();
        // Added in another order: the plan, not the order of adding, decides.
        let mut app = app(&["f", "e", "d", "c", "b", "a"]);
        let runner = Runner::new(&plan, app.world().resource::<StepBook>()).unwrap();
        app.insert_resource(runner);
        run_turn(app.world_mut(), |_, _| {});
        let log = &app.world().resource::<Log>().0;
        assert_eq!(log.join(" "), "0a 1b 1c 2b 2c 2d 3b 3c 3e 3f");
    }

    #[test]
    fn steps_without_systems_and_systems_outside_the_plan_are_named_with_their_line() {
        let plan = TurnPlan::from_ron(PLAN, "rules/plan.ron").unwrap();
        let app = app(&["a", "b", "d", "e", "f", "x"]);
        let errors: Vec<String> =
            plan.check(app.world().resource::<StepBook>()).iter().map(|d| d.to_string()).collect();
        assert_eq!(
            errors,
            [
                "rules/plan.ron:5:20: error: step \"c\" has no system: no mechanic of this rule system runs in it",
                "rules/plan.ron:1:1: error: the mechanics run overlord::core::engine::plan::tests::app::{{closure}} in a step \"x\" that the plan does not list",
            ]
        );
    }

    #[test]
    fn a_turn_of_more_ticks_than_the_bound_is_refused() {
        // A plan of 4294967295 ticks once ran a generals turn for ever.
        let plan = TurnPlan::from_ron(&PLAN.replace("ticks: 3", "ticks: 4294967295"), "plan.ron").unwrap();
        let app = app(&["a", "b", "c", "d", "e", "f"]);
        let errors: Vec<String> =
            plan.check(app.world().resource::<StepBook>()).iter().map(|d| d.to_string()).collect();
        assert!(errors.iter().any(|e| e.contains("a turn has at most 1000 ticks")), "{errors:?}");
        assert!(errors.iter().all(|e| !e.contains("outside the turn")), "{errors:?}");
    }

    #[test]
    fn systems_of_one_step_run_in_the_order_they_were_added() {
        let mut app = App::empty();
        app.init_resource::<StepBook>();
        app.init_resource::<Log>();
        for n in ["1", "2", "3", "4"] {
            app.add_step_system("s", move |mut log: ResMut<Log>| log.0.push(n.to_string()));
        }
        app.world_mut().run_schedule(Step("s"));
        assert_eq!(app.world().resource::<Log>().0, ["1", "2", "3", "4"]);
    }

    #[test]
    fn systems_are_named_by_their_path() {
        fn apply_submissions() {}
        fn of<T>(_: &T) -> String {
            system_name::<T>()
        }
        assert_eq!(
            of(&apply_submissions),
            "overlord::core::engine::plan::tests::systems_are_named_by_their_path::apply_submissions"
        );
    }
}
