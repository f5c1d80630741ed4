//! Movement (§19 of the rules): the location graph ([`routes`]) and travel times
//! ([`travel`]). The MOVE order, journeys, guards and weather come next; until then
//! MOVE is noted as not part of the engine yet (the scheduler's `not_yet`).

pub mod routes;
pub mod travel;

use crate::engine::Catalog;
use crate::engine::schedule::{MonthStart, MonthStep};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// The travel tables of the rule set, resolved once.
#[derive(Resource, Debug)]
pub struct Travel(pub travel::TravelTables);

/// Resolves the travel tables and builds the location graph each month.
pub struct MovementPlugin;

impl Plugin for MovementPlugin {
    fn build(&self, app: &mut App) {
        let tables = travel::TravelTables::new(app.world().resource::<Catalog>());
        app.insert_resource(Travel(tables));
        app.init_resource::<routes::Routes>();
        app.add_systems(MonthStart, routes::build_routes.in_set(MonthStep::Orders));
    }
}
