//! The turn engine: a Bevy ECS world holding the game, and the schedule that runs a
//! month on it.
//!
//! * [`ids`] — interned ids of items, skills, races, terrains; the [`Catalog`];
//! * [`components`] — what entities are made of;
//! * [`resources`] — clock, settings, directory of entities, randomness, inputs;
//! * [`schedule`] — the month, top to bottom;
//! * [`world`] — scenario ⇄ world;
//! * [`rng`] — random streams per purpose and entity.
//!
//! [`Engine`] ties them together: load a scenario, submit order files, run a turn,
//! take the reports and the new state.

pub mod parallel;
pub mod rng;
pub mod schedule;

use crate::systems::overlord::world::{self, Catalog, resources};

use crate::systems::overlord::data::{RuleSet, Scenario};
use crate::systems::overlord::orders::OrderFile;
use crate::systems::overlord::report::{FactionReport, Reports};
use bevy_app::{App, Plugins};
use bevy_ecs::prelude::*;
use resources::{Clock, Randomness, Submissions};
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

/// A game loaded into an ECS world, ready to run turns.
pub struct Engine {
    app: App,
}

impl Engine {
    /// Loads `scenario` with the rule set `rules` and the standard Overlord mechanics.
    pub fn new(rules: Arc<RuleSet>, scenario: Scenario, threads: Threads) -> Result<Self, Vec<String>> {
        Self::with_plugins(rules, scenario, threads, crate::systems::overlord::mechanics::OverlordRules)
    }

    /// Loads `scenario` with the rule set `rules` and the given mechanics.
    pub fn with_plugins<M>(
        rules: Arc<RuleSet>,
        scenario: Scenario,
        threads: Threads,
        plugins: impl Plugins<M>,
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
        let mut app = App::empty();
        schedule::configure(&mut app, single);
        app.insert_resource(Catalog::new(rules));
        app.insert_resource(ThreadCount(threads.count()));
        app.init_resource::<Reports>();
        // Plugins first: they register the components each unit requires, which are
        // then spawned with it rather than added one entity at a time.
        app.add_plugins(plugins);
        world::build(app.world_mut(), scenario)?;
        app.finish();
        app.cleanup();
        Ok(Engine { app })
    }

    /// The game world.
    pub fn world(&self) -> &World {
        self.app.world()
    }

    /// The game world, to change.
    pub fn world_mut(&mut self) -> &mut World {
        self.app.world_mut()
    }

    /// Reads an order file with this game's vocabulary.
    pub fn parse(&self, text: &str) -> Result<OrderFile, crate::systems::overlord::orders::OrderError> {
        crate::systems::overlord::orders::parse(text, self.world().resource::<Catalog>())
    }

    /// Sets the order files for the next turn (in the order they are to be applied).
    pub fn submit(&mut self, files: Vec<OrderFile>) {
        self.world_mut().insert_resource(Submissions(files));
    }

    /// Sets the articles and notices for the next turn.
    pub fn deliver(&mut self, inbox: resources::Inbox) {
        self.world_mut().insert_resource(inbox);
    }

    /// Runs the next turn: one month. `on_day(day, days)` is called after each day.
    pub fn run_turn(&mut self, on_day: impl FnMut(u32, u32)) {
        let world = self.world_mut();
        let turn = world.resource::<Clock>().turn + 1;
        let months = world.resource::<Catalog>().rules.climate.months.len();
        let month = world::month_of_turn(&world.resource::<resources::Game>().0, months, turn);
        {
            let mut clock = world.resource_mut::<Clock>();
            clock.turn = turn;
            clock.month = month;
            clock.day = 0;
        }
        world.resource_mut::<Randomness>().turn = turn;
        clear_events(world);
        schedule::run_month(world, on_day);
        world.insert_resource(Submissions::default());
        world.insert_resource(resources::Inbox::default());
    }

    /// Builds the reports of the current state without running a turn (turn 0).
    pub fn report_only(&mut self) {
        let world = self.world_mut();
        clear_events(world);
        world.run_schedule(schedule::Report);
    }

    /// From now on no reports are built at the end of a month; the caller builds
    /// them from the world with [`crate::systems::overlord::report::build::Builder`] (as the game
    /// folder's writer does, a batch of factions at a time), and
    /// [`reports`](Self::reports) is empty.
    pub fn defer_reports(&mut self) {
        self.world_mut().init_resource::<crate::systems::overlord::report::DeferReports>();
    }

    /// The reports built by the last [`run_turn`](Self::run_turn) or
    /// [`report_only`](Self::report_only), in faction order.
    pub fn reports(&self) -> &[FactionReport] {
        &self.world().resource::<Reports>().0
    }

    /// The state as a scenario.
    pub fn scenario(&self) -> Scenario {
        world::extract(self.world())
    }
}

/// Events are per month: a new month starts with none.
fn clear_events(world: &mut World) {
    let mut q = world.query::<&mut crate::systems::overlord::world::components::Events>();
    for mut e in q.iter_mut(world) {
        if !e.0.is_empty() {
            e.0.clear();
        }
    }
}
