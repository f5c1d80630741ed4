//! Movement (§19 of the rules): the location graph ([`routes`]), travel times
//! ([`travel`]), journeys and the movement orders ([`journey`]) and guards on the
//! movement side ([`guards`]). The rules followed and the choices made are in
//! `docs/movement.md`.

pub mod guards;
pub mod journey;
pub mod routes;
pub mod travel;

use crate::core::engine::schedule::{Day, MonthStart, MonthStep, Phase};
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
        app.add_systems(MonthStart, (routes::build_routes, guards::index_titles).chain().in_set(MonthStep::Orders));
        app.add_systems(MonthStart, journey::retreat_at_month_start.after(MonthStep::FactionOrders));
        app.add_systems(Day, journey::advance.in_set(Phase::Movement));
        app.add_systems(Day, guards::guard_clashes.in_set(Phase::Battle));
    }
}

#[cfg(test)]
mod tests;
