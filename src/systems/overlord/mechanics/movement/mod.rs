//! Movement (§19 of the rules): the location graph ([`routes`]), travel times
//! ([`travel`]), journeys and the movement orders ([`journey`]) and guards on the
//! movement side ([`guards`]). The rules followed and the choices made are in
//! `docs/movement.md`.

pub mod guards;
pub mod journey;
pub mod routes;
pub mod travel;

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::mechanics::scheduler::OrderHandlers;
use crate::systems::overlord::world::Catalog;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// The travel tables of the rule set, resolved once.
#[derive(Resource, Debug)]
pub struct Travel(pub travel::TravelTables);

/// The movement orders, the month's location graph and title index, and each
/// day's travel.
pub struct MovementPlugin;

impl Plugin for MovementPlugin {
    fn build(&self, app: &mut App) {
        let tables = travel::TravelTables::new(app.world().resource::<Catalog>());
        app.insert_resource(Travel(tables));
        app.init_resource::<routes::Routes>();
        app.init_resource::<guards::TitleIndex>();
        app.init_resource::<guards::BattleRequests>();
        {
            let mut h = app.world_mut().resource_mut::<OrderHandlers>();
            journey::register(&mut h);
            guards::register(&mut h);
        }
        app.add_step_system("month_start", routes::build_routes);
        app.add_step_system("month_start", guards::index_titles);
        app.add_step_system("month_start", journey::retreat_at_month_start);
        app.add_step_system("movement", journey::advance);
        app.add_step_system("battle", guards::guard_clashes);
    }
}

#[cfg(test)]
mod tests;
