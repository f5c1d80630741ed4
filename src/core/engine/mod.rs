//! The turn engine: a Bevy ECS world holding a game, and the turn plan that runs
//! its steps.
//!
//! * [`plan`] — the turn plan: steps, ticks, the clock, running a turn;
//! * [`rng`] — random streams per purpose and entity;
//! * [`parallel`] — an ordered parallel map;
//! * [`by_entity`] — a table of values by entity index.
//!
//! [`Engine`] ties them to a rule system ([`RuleSystem`]): load a state, submit
//! order files, run a turn, take the new state.

pub mod by_entity;
pub mod parallel;
pub mod plan;
pub mod rng;

use crate::core::diag::Diagnostic;
use crate::core::orders::mail::ArticleKind;
use crate::core::system::RuleSystem;
use bevy_app::App;
use bevy_ecs::prelude::*;
use plan::{Clock, Runner, StepBook};
use std::marker::PhantomData;
use std::sync::Arc;

/// How many threads the engine may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Threads {
    /// Everything on the calling thread.
    One,
    /// The default pool: one thread per core.
    #[default]
    All,
    /// A pool of this many threads (at least 2; fixed for the life of the process).
    Count(usize),
}

impl Threads {
    /// From a command-line count: 0 means all cores, 1 one thread.
    pub fn from_count(n: usize) -> Self {
        match n {
            0 => Threads::All,
            1 => Threads::One,
            n => Threads::Count(n),
        }
    }
    /// The number of worker threads this stands for.
    pub fn count(self) -> usize {
        match self {
            Threads::One => 1,
            Threads::All => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Threads::Count(n) => n,
        }
    }
}

/// The number of threads the engine's own parallel loops use (report building).
#[derive(Resource, Debug, Clone, Copy)]
pub struct ThreadCount(pub usize);

/// The order files submitted for the turn to be played, in the order they are to
/// be applied (a rule system's own type of order file).
#[derive(Resource, Debug, Clone)]
pub struct Submissions<F: Send + Sync + 'static>(pub Vec<F>);

impl<F: Send + Sync + 'static> Default for Submissions<F> {
    fn default() -> Self {
        Submissions(Vec::new())
    }
}

/// Mail for the turn to be played other than orders: newspaper articles (for
/// their rewards) and notices to factions, from the game folder. Emptied when a
/// turn ends.
#[derive(Resource, Debug, Default, Clone)]
pub struct Inbox {
    /// Articles to be published: the author's faction id and the kind, in the order
    /// received.
    pub articles: Vec<(String, ArticleKind)>,
    /// Notices: a faction id and a text for that faction's report.
    pub notices: Vec<(String, String)>,
}

/// When present, a turn's report steps build no reports: the caller builds them a
/// batch of factions at a time as it writes them (a game folder does), so that a
/// big world's reports never sit in memory all at once.
#[derive(Resource, Debug, Default)]
pub struct ReportsDeferred;

/// A game of rule system `S` loaded into an ECS world, ready to run turns.
pub struct Engine<S: RuleSystem> {
    app: App,
    /// Whether a turn is under way (begun by [`Engine::run_ticks`], not finished).
    in_turn: bool,
    system: PhantomData<S>,
}

impl<S: RuleSystem> Engine<S> {
    /// Loads `state` with the rule set `rules` and every mechanic of the system.
    pub fn new(rules: Arc<S::Rules>, state: S::State, threads: Threads) -> Result<Self, Vec<String>> {
        Self::with(rules, state, threads, S::plugins)
    }

    /// Loads `state` with the rule set `rules` and the mechanics `plugins` adds (a
    /// test may leave some out). Fails when the state does not fit the rules, or
    /// when the turn plan and the mechanics' steps do not match.
    pub fn with(
        rules: Arc<S::Rules>,
        state: S::State,
        threads: Threads,
        plugins: impl FnOnce(&mut App, &Arc<S::Rules>),
    ) -> Result<Self, Vec<String>> {
        let single = threads == Threads::One;
        if !single {
            // The engine does no I/O or async work on pools: every thread computes.
            let n = threads.count();
            let mut opts = bevy_app::TaskPoolOptions::with_num_threads(n);
            for pool in [&mut opts.io, &mut opts.async_compute] {
                pool.min_threads = 0;
                pool.max_threads = 0;
            }
            opts.compute.min_threads = n;
            opts.create_default_pools();
        }
        let mut app = Self::app(&rules, threads, plugins);
        let plan = S::plan(&rules);
        let book = app.world().resource::<StepBook>();
        let runner = Runner::new(plan, book).map_err(|d| d.iter().map(|d| d.to_string()).collect::<Vec<_>>())?;
        // Every system of a step goes through the book, which fixes its order.
        let schedules = app.world().resource::<Schedules>();
        let unbooked: Vec<String> = book
            .all()
            .filter(|(name, systems)| schedules.get(plan::Step(name)).is_some_and(|s| s.systems_len() != systems.len()))
            .map(|(name, _)| format!("step \"{name}\" has systems added without PlanApp::add_step_system"))
            .collect();
        if !unbooked.is_empty() {
            return Err(unbooked);
        }
        app.insert_resource(runner);
        S::build(app.world_mut(), &rules, state)?;
        app.finish();
        app.cleanup();
        Ok(Engine { app, in_turn: false, system: PhantomData })
    }

    /// The app of a rule set's mechanics, with no world loaded yet. Mechanics are
    /// added first: they register the components each entity requires, which are
    /// then spawned with it rather than added one entity at a time.
    fn app(rules: &Arc<S::Rules>, threads: Threads, plugins: impl FnOnce(&mut App, &Arc<S::Rules>)) -> App {
        let mut app = App::empty();
        app.init_resource::<StepBook>();
        app.insert_resource(ThreadCount(threads.count()));
        app.insert_resource(Clock { turn: 0, tick: 0, ticks: S::plan(rules).ticks });
        app.init_resource::<Submissions<S::Orders>>();
        app.init_resource::<Inbox>();
        plugins(&mut app, rules);
        app
    }

    /// The problems of a rule set's turn plan against the steps its system's
    /// mechanics use, with the plan file's line and column; none when they match.
    /// (The engine makes this check whenever it loads a game.)
    pub fn check_plan(rules: &Arc<S::Rules>) -> Vec<Diagnostic> {
        let app = Self::app(rules, Threads::One, S::plugins);
        S::plan(rules).check(app.world().resource::<StepBook>())
    }

    /// The game world.
    pub fn world(&self) -> &World {
        self.app.world()
    }

    /// Lets the engine go without waiting for its memory to be given back: the world
    /// (every entity of a large game, millions of small allocations) is dropped on
    /// a thread of its own, which a command that ends right after does not wait
    /// for. Its last words are its turn's, already written.
    pub fn let_go(mut self) {
        crate::core::alloc::drop_aside("world", std::mem::take(self.app.world_mut()));
    }

    /// The game world, to change.
    pub fn world_mut(&mut self) -> &mut World {
        self.app.world_mut()
    }

    /// Sets the order files for the next turn (in the order they are to be applied).
    pub fn submit(&mut self, files: Vec<S::Orders>) {
        self.world_mut().insert_resource(Submissions(files));
    }

    /// Sets the articles and notices for the next turn.
    pub fn deliver(&mut self, inbox: Inbox) {
        self.world_mut().insert_resource(inbox);
    }

    /// From now on the report steps build no reports ([`ReportsDeferred`]).
    pub fn defer_reports(&mut self) {
        self.world_mut().init_resource::<ReportsDeferred>();
    }

    /// Runs the next turn (or what is left of the turn under way). `on_tick(tick,
    /// ticks)` is called after each tick.
    pub fn run_turn(&mut self, mut on_tick: impl FnMut(u32, u32)) {
        self.begin();
        let clock = *self.world().resource::<Clock>();
        for tick in clock.tick + 1..=clock.ticks {
            plan::run_tick(self.world_mut(), tick);
            on_tick(tick, clock.ticks);
        }
        self.finish();
    }

    /// Runs the next `ticks` ticks: begins a turn when none is under way (its start
    /// steps), and finishes it (its end and report steps) when its last tick has
    /// run. Returns whether the turn is finished. For tests that look at the world
    /// in the middle of a turn.
    pub fn run_ticks(&mut self, ticks: u32) -> bool {
        self.begin();
        for _ in 0..ticks {
            let clock = *self.world().resource::<Clock>();
            if clock.tick >= clock.ticks {
                break;
            }
            plan::run_tick(self.world_mut(), clock.tick + 1);
        }
        let clock = *self.world().resource::<Clock>();
        if clock.tick >= clock.ticks {
            self.finish();
        }
        !self.in_turn
    }

    /// Begins the next turn, unless one is under way: the clock moves to it and its
    /// start steps run.
    fn begin(&mut self) {
        if self.in_turn {
            return;
        }
        self.in_turn = true;
        let world = self.world_mut();
        {
            let mut clock = world.resource_mut::<Clock>();
            clock.turn += 1;
            clock.tick = 0;
        }
        S::begin_turn(world);
        plan::run_start(world);
    }

    /// Finishes the turn under way: its end and report steps run, and the turn's
    /// inputs are emptied.
    fn finish(&mut self) {
        if !self.in_turn {
            return;
        }
        self.in_turn = false;
        let world = self.world_mut();
        plan::run_end(world);
        world.insert_resource(Submissions::<S::Orders>::default());
        world.insert_resource(Inbox::default());
        S::end_turn(world);
    }

    /// Runs the plan's report steps on the current state without running a turn (a
    /// game's starting reports).
    pub fn report_only(&mut self) {
        plan::run_report(self.world_mut());
    }

    /// The state of the world, as the rule system saves it.
    pub fn state(&self) -> S::State {
        S::extract(self.world())
    }

    /// The systems of each step of the plan, in the order they run (for tests and
    /// for `--help`-style listings).
    pub fn steps(&self) -> &StepBook {
        self.world().resource::<StepBook>()
    }
}
