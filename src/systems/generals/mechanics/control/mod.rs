//! Control and victory (plan step `control`; generals-rules.txt 7, 13; ruling
//! 14): at the end of the turn each player gains the scenario's points for every
//! region it holds (`victory.regions`). The game ends after `victory.last_turn`,
//! or when a player has `victory.points`; then each player also gains
//! `victory.per_100_gold` per 100 gold held, and the final report ranks them.

#[cfg(test)]
mod tests;

use crate::core::engine::plan::{Clock, PlanApp};
use crate::systems::generals::world::{Directory, GameInfo, Points, Treasury, holders};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Control and victory.
pub struct ControlPlugin;

impl Plugin for ControlPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("control", score);
    }
}

/// Victory points for regions held, and the end of the game.
pub fn score(world: &mut World) {
    let info = world.resource::<GameInfo>().0.clone();
    if info.ended {
        return;
    }
    let held = holders(world);
    let dir = world.resource::<Directory>();
    let mut gains = Vec::new();
    for (id, &points) in &info.victory.regions {
        if let Some(r) = dir.region(id)
            && let Some(&p) = held.get(&r)
        {
            gains.push((p, u64::from(points)));
        }
    }
    for (p, n) in gains {
        if let Some(mut x) = world.get_mut::<Points>(p) {
            x.0 = x.0.saturating_add(n);
        }
    }
    let turn = world.resource::<Clock>().turn;
    let players = world.resource::<Directory>().players.clone();
    let v = &info.victory;
    let top = players.iter().filter_map(|&p| world.get::<Points>(p)).map(|p| p.0).max().unwrap_or(0);
    let over = (v.last_turn > 0 && turn >= v.last_turn) || (v.points > 0 && top >= u64::from(v.points));
    if over {
        for p in players {
            let gold = world.get::<Treasury>(p).map_or(0, |t| t.0);
            if let Some(mut x) = world.get_mut::<Points>(p) {
                x.0 = x.0.saturating_add((gold / 100).saturating_mul(u64::from(v.per_100_gold)));
            }
        }
        world.resource_mut::<GameInfo>().0.ended = true;
    }
    // The dead leave the lists.
    let mut dir = std::mem::take(&mut *world.resource_mut::<Directory>());
    dir.compact(|e| world.get_entity(e).is_ok());
    world.insert_resource(dir);
}
