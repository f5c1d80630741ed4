//! The month, top to bottom.
//!
//! A turn is one month. [`run_month`] runs these schedules on the game world, in
//! this order:
//!
//! 1. [`MonthStart`]: [`MonthStep::Orders`] (submitted order files replace pending
//!    orders) → [`MonthStep::Press`] (press rewards, notices) → [`MonthStep::FactionOrders`].
//! 2. For each day `1..=days_per_month`, [`Day`]: [`Phase::Immediate`] →
//!    [`Phase::FullDay`] → [`Phase::Movement`] → [`Phase::Battle`] → [`Phase::Market`]
//!    → [`Phase::DayEnd`] (recruits arrive, mana, effects tick).
//!    After day 1 only, [`ControlCheck`] (control points are checked).
//! 3. [`MonthEnd`]: [`MonthStep::NewIds`] (new ids never created vanish) → [`MonthStep::Wages`] → [`MonthStep::Upkeep`] (and desertion) →
//!    [`MonthStep::Allegiance`] → [`MonthStep::Evolve`] (locations) →
//!    [`MonthStep::Weather`] (next month's weather).
//! 4. [`Report`]: [`MonthStep::Knowledge`] → [`MonthStep::Reports`].
//!
//! Each mechanic is a plugin (`src/rules/<mechanic>/`) that adds its systems to these
//! sets. Sets within a schedule run in the order above; systems within a set run in
//! the order their plugin gives, or in parallel when they touch disjoint data.

use crate::systems::overlord::world::resources::Clock;
use bevy_app::App;
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{MultiThreadedExecutor, ScheduleLabel, SingleThreadedExecutor};

/// Before day 1.
#[derive(ScheduleLabel, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MonthStart;

/// One day; run `days_per_month` times.
#[derive(ScheduleLabel, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Day;

/// The control-point check, after day 1.
#[derive(ScheduleLabel, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ControlCheck;

/// After the last day.
#[derive(ScheduleLabel, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MonthEnd;

/// Building the factions' knowledge and reports.
#[derive(ScheduleLabel, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Report;

/// The phases of a day, in order.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Immediate orders, in passes until a pass executes nothing.
    Immediate,
    /// One full-day order per unit.
    FullDay,
    /// Stacks on the move advance.
    Movement,
    /// The day's battles.
    Battle,
    /// Markets clear, on market days.
    Market,
    /// Recruits arrive, mana changes, effects lose a day.
    DayEnd,
}

impl Phase {
    /// All phases in the order they run.
    pub const ALL: [Phase; 6] =
        [Phase::Immediate, Phase::FullDay, Phase::Movement, Phase::Battle, Phase::Market, Phase::DayEnd];
}

/// The steps of the schedules outside the days, in order within each schedule.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MonthStep {
    /// [`MonthStart`]: submitted order files are applied.
    Orders,
    /// [`MonthStart`]: press rewards are added to faction funds; notices are delivered.
    Press,
    /// [`MonthStart`]: faction-wide orders run.
    FactionOrders,
    /// [`ControlCheck`]: control points are checked.
    ControlPoints,
    /// [`MonthEnd`]: new ids that no order created vanish (FILE-NEWID-LIFE).
    NewIds,
    /// [`MonthEnd`]: work wages are paid.
    Wages,
    /// [`MonthEnd`]: upkeep is paid; dissent and desertion.
    Upkeep,
    /// [`MonthEnd`]: allegiance changes.
    Allegiance,
    /// [`MonthEnd`]: locations evolve.
    Evolve,
    /// [`MonthEnd`]: next month's weather is drawn.
    Weather,
    /// [`Report`]: factions' knowledge is updated.
    Knowledge,
    /// [`Report`]: report models are built.
    Reports,
}

/// Adds the schedules and orders their sets. `single_threaded` runs every system on
/// the calling thread; otherwise systems that touch disjoint data run in parallel.
pub fn configure(app: &mut App, single_threaded: bool) {
    fn add(app: &mut App, label: impl ScheduleLabel, single_threaded: bool) {
        let mut schedule = Schedule::new(label);
        if single_threaded {
            schedule.set_executor(SingleThreadedExecutor::new());
        } else {
            schedule.set_executor(MultiThreadedExecutor::new());
        }
        app.add_schedule(schedule);
    }
    add(app, MonthStart, single_threaded);
    add(app, Day, single_threaded);
    add(app, ControlCheck, single_threaded);
    add(app, MonthEnd, single_threaded);
    add(app, Report, single_threaded);
    use MonthStep::*;
    app.configure_sets(MonthStart, (Orders, Press, FactionOrders).chain());
    app.configure_sets(
        Day,
        (Phase::Immediate, Phase::FullDay, Phase::Movement, Phase::Battle, Phase::Market, Phase::DayEnd).chain(),
    );
    app.configure_sets(ControlCheck, ControlPoints);
    app.configure_sets(MonthEnd, (NewIds, Wages, Upkeep, Allegiance, Evolve, Weather).chain());
    app.configure_sets(Report, (Knowledge, Reports).chain());
}

/// Runs one month on `world`: the schedules in the order given at the top of this file.
/// `on_day` is called after each day (for progress display).
pub fn run_month(world: &mut World, mut on_day: impl FnMut(u32, u32)) {
    world.run_schedule(MonthStart);
    let days = world.resource::<Clock>().days_per_month;
    for day in 1..=days {
        world.resource_mut::<Clock>().day = day;
        world.run_schedule(Day);
        if day == 1 {
            world.run_schedule(ControlCheck);
        }
        on_day(day, days);
    }
    world.run_schedule(MonthEnd);
    world.run_schedule(Report);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::overlord::testkit::{TINY, overlord_rules, scenario};
    use bevy_app::Plugin;

    /// What ran, in order.
    #[derive(Resource, Default)]
    struct Log(Vec<String>);

    fn note(what: &'static str) -> impl FnMut(ResMut<Log>, Res<Clock>) {
        move |mut log: ResMut<Log>, clock: Res<Clock>| log.0.push(format!("{}:{what}", clock.day))
    }

    struct Recorder;
    impl Plugin for Recorder {
        fn build(&self, app: &mut App) {
            app.init_resource::<Log>();
            use MonthStep::*;
            app.add_systems(MonthStart, (note("Orders").in_set(Orders), note("Press").in_set(Press)));
            app.add_systems(MonthStart, note("FactionOrders").in_set(FactionOrders));
            // Added in reverse order: the sets, not the order of adding, decide.
            for (phase, name) in
                Phase::ALL.iter().zip(["Immediate", "FullDay", "Movement", "Battle", "Market", "DayEnd"]).rev()
            {
                app.add_systems(Day, note(name).in_set(*phase));
            }
            app.add_systems(ControlCheck, note("ControlPoints").in_set(ControlPoints));
            app.add_systems(MonthEnd, note("Weather").in_set(Weather));
            app.add_systems(MonthEnd, note("Evolve").in_set(Evolve));
            app.add_systems(MonthEnd, note("Allegiance").in_set(Allegiance));
            app.add_systems(MonthEnd, note("Upkeep").in_set(Upkeep));
            app.add_systems(MonthEnd, note("Wages").in_set(Wages));
            app.add_systems(Report, note("Reports").in_set(Reports));
            app.add_systems(Report, note("Knowledge").in_set(Knowledge));
        }
    }

    fn run(threads: crate::core::engine::Threads) -> Vec<String> {
        let mut e =
            crate::core::engine::Engine::with_plugins(overlord_rules(), scenario(TINY), threads, Recorder).unwrap();
        e.run_turn(|_, _| {});
        std::mem::take(&mut e.world_mut().resource_mut::<Log>().0)
    }

    #[test]
    fn phases_run_in_the_order_of_the_rules() {
        // MON-PRE, MON-D1, MON-CP, MON-D2, SCH-DAYEND, MON-WAGE..MON-EVOLVE, MON-REPORT.
        let day = |d: u32| {
            ["Immediate", "FullDay", "Movement", "Battle", "Market", "DayEnd"].map(|p| format!("{d}:{p}")).to_vec()
        };
        let mut want: Vec<String> = ["0:Orders", "0:Press", "0:FactionOrders"].map(String::from).to_vec();
        want.extend(day(1));
        want.push("1:ControlPoints".into());
        for d in 2..=30 {
            want.extend(day(d));
        }
        // Month end and reports happen after day 30 (the clock still says 30).
        want.extend(
            ["Wages", "Upkeep", "Allegiance", "Evolve", "Weather", "Knowledge", "Reports"].map(|s| format!("30:{s}")),
        );
        assert_eq!(run(crate::core::engine::Threads::One), want);
        assert_eq!(run(crate::core::engine::Threads::All), want, "the multi-threaded executor keeps the order");
    }
}
