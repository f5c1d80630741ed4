//! Movement (§19 of the rules): the location graph ([`routes`]), travel times
//! ([`travel`]), journeys and the movement orders ([`journey`]). What a stack
//! arriving somewhere meets is decided by the mechanic that guards places, through
//! the [`ArrivalGate`]. The rules followed and the choices made are in
//! `docs/movement.md`.

pub mod journey;
pub mod routes;
pub mod travel;

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::mechanics::scheduler::OrderHandlers;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::Journey;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// The travel tables of the rule set, resolved once.
#[derive(Resource, Debug)]
pub struct Travel(pub travel::TravelTables);

/// What a stack arriving at its destination meets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arrival {
    /// It enters.
    Enter,
    /// It turns back, for this reason.
    TurnBack(String),
}

/// What the stack `group` (its top unit first) meets on arriving by journey `j`.
pub type ArrivalCheck = fn(&mut World, &[Entity], Journey) -> Arrival;

/// Decides what a stack arriving somewhere meets: set by the mechanic that guards
/// places (MOV-GUARD). Without one, every stack enters.
#[derive(Resource, Default)]
pub struct ArrivalGate(pub Option<ArrivalCheck>);

/// The movement orders, the month's location graph, and each day's travel.
pub struct MovementPlugin;

impl Plugin for MovementPlugin {
    fn build(&self, app: &mut App) {
        let tables = travel::TravelTables::new(app.world().resource::<Catalog>());
        app.insert_resource(Travel(tables));
        app.init_resource::<routes::Routes>();
        app.init_resource::<ArrivalGate>();
        journey::register(&mut app.world_mut().resource_mut::<OrderHandlers>());
        app.add_step_system("month_start", routes::build_routes);
        app.add_step_system("month_start", journey::retreat_at_month_start);
        app.add_step_system("movement", journey::advance);
    }
}

#[cfg(test)]
mod tests;
