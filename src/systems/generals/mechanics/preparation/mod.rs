//! Prepared battlefields (plan step `preparation`; generals-rules.txt 49-50):
//! a battlefield stays prepared while the general who prepared it is there;
//! once he has left (or died) it is lost. A general who prepared this turn
//! prepares his region for the turns after, and its defenders then fight with
//! the bonuses of `prepared_as` as well as of their own order
//! ([`battle`](super::battle)).

#[cfg(test)]
mod tests;

use super::turn::{Act, Journal, TurnOrders};
use crate::core::engine::plan::PlanApp;
use crate::systems::generals::world::{At, Directory, PreparedBy, label};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Prepared battlefields.
pub struct PreparationPlugin;

impl Plugin for PreparationPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("preparation", prepare);
    }
}

/// Battlefields lost and prepared.
pub fn prepare(world: &mut World) {
    let regions = world.resource::<Directory>().regions.clone();
    for r in regions {
        if let Some(p) = world.get::<PreparedBy>(r)
            && world.get::<At>(p.0).is_none_or(|a| a.0 != r)
        {
            world.entity_mut(r).remove::<PreparedBy>();
        }
    }
    let prepares: Vec<_> = world
        .resource::<TurnOrders>()
        .actions
        .iter()
        .filter(|a| matches!(a.order.1, Act::Prepare))
        .map(|a| (a.player, a.line, a.order.0))
        .collect();
    for (player, line, g) in prepares {
        let who = label(world, g);
        let Some(at) = world.get::<At>(g).map(|a| a.0) else {
            world.resource_mut::<Journal>().refuse(player, line, format!("{who} died"));
            continue;
        };
        world.entity_mut(at).insert(PreparedBy(g));
        let text = format!("{who} prepared the battlefield of {}.", label(world, at));
        let mut journal = world.resource_mut::<Journal>();
        journal.deed(g, "prepared the battlefield");
        journal.note(player, Some(line), text);
    }
}
