//! The contract between the core and a rule system.
//!
//! A rule system (Overlord, a generals game, …) is a type implementing
//! [`RuleSystem`]. The core's [`Engine`](crate::core::engine::Engine) runs it: it
//! adds the system's mechanics to a Bevy app, checks the turn plan of its rule set
//! against the steps those mechanics use, spawns the state, and runs turns step by
//! step as the plan says. Everything else about the system — its data tables, its
//! order language, its reports — stays behind this trait.

use crate::core::engine::plan::TurnPlan;
use bevy_app::App;
use bevy_ecs::world::World;
use std::sync::Arc;

/// A rule system, as the core's engine runs it.
pub trait RuleSystem: Sized + Send + Sync + 'static {
    /// The name rule sets give in `ruleset.ron` (`system: "overlord"`).
    const NAME: &'static str;
    /// The rule set, as loaded from its folder.
    type Rules: Send + Sync + 'static;
    /// A world at a moment of play: a scenario, or the state saved after a turn.
    type State: Send + 'static;
    /// One order file of the system's order language.
    type Orders: Clone + Send + Sync + 'static;

    /// The turn plan of a rule set.
    fn plan(rules: &Self::Rules) -> &TurnPlan;

    /// Adds the system's mechanics to `app`: resources they share, and plugins that
    /// attach systems to the plan's steps
    /// ([`PlanApp::add_step_system`](crate::core::engine::plan::PlanApp::add_step_system)).
    fn plugins(app: &mut App, rules: &Arc<Self::Rules>);

    /// Spawns `state` into `world`, after the plugins were added. The world holds a
    /// [`Clock`](crate::core::engine::plan::Clock) with the plan's ticks; the
    /// system sets its turn (and may set the ticks a game plays). Fails with one
    /// message per reference that does not resolve.
    fn build(world: &mut World, rules: &Arc<Self::Rules>, state: Self::State) -> Result<(), Vec<String>>;

    /// Called when a turn begins, after the clock moved to it and before its first
    /// step.
    fn begin_turn(_world: &mut World) {}

    /// Called when a turn has run its last step.
    fn end_turn(_world: &mut World) {}

    /// The state of `world`, as saved after a turn.
    fn extract(world: &World) -> Self::State;
}
