//! Travel and Move Army (plan step `movement`; generals-rules.txt 37-41; ruling
//! 1): in this turn's player order, a general travels alone to any region of his
//! player's kingdom, or takes troops of his region up to `move_army_reach`
//! regions away, every region entered held by his player. Who holds what is read
//! once, before anyone moves, so that one player's move does not open or close
//! another's path. Without VIA the route is the shortest (docs/generals.md).

#[cfg(test)]
mod tests;

use super::turn::{Act, Journal, TurnOrders};
use crate::core::engine::plan::PlanApp;
use crate::systems::generals::routes::{self, RouteError};
use crate::systems::generals::world::{Adjacent, At, Attacking, Owner, Rules, holders, label};
use bevy_app::{App, Plugin};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

/// Travel and Move Army.
pub struct MovementPlugin;

impl Plugin for MovementPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("movement", move_generals);
    }
}

/// The regions next to `r`.
pub fn next(world: &World, r: Entity) -> Vec<Entity> {
    world.get::<Adjacent>(r).map_or_else(Vec::new, |a| a.0.clone())
}

/// `route` checked on the world: from `from` to `to` (through `via`), every
/// region entered one `open` allows, at most `reach` steps.
pub fn route_on(
    world: &World,
    (from, via, to): (Entity, &[Entity], Entity),
    reach: u32,
    what: &str,
    open: impl Fn(Entity) -> bool,
) -> Result<Vec<Entity>, String> {
    routes::route(from, via, to, reach, |r| next(world, r), open).map_err(|e: RouteError<Entity>| {
        routes::explain(&e, what, reach, (&label(world, from), &label(world, to)), |r| label(world, r))
    })
}

/// The troop units `troops` of `player`, all in `at` and not marching to an
/// attack, or why not.
pub fn troops_here(world: &World, player: Entity, troops: &[Entity], at: Entity) -> Result<(), String> {
    for &t in troops {
        let name = label(world, t);
        let Some(here) = world.get::<At>(t) else { return Err(format!("{name} is gone")) };
        if world.get::<Owner>(t).is_none_or(|o| o.0 != player) {
            return Err(format!("{name} is not yours"));
        }
        if here.0 != at || world.get::<Attacking>(t).is_some() {
            return Err(format!("{name} is in {}, not {}", label(world, here.0), label(world, at)));
        }
    }
    Ok(())
}

/// Every TRAVEL and MOVE of the turn, in order.
pub fn move_generals(world: &mut World) {
    let reach = world.resource::<Rules>().0.info.parameters.move_army_reach;
    let moves: Vec<_> = world
        .resource::<TurnOrders>()
        .actions
        .iter()
        .filter(|a| matches!(a.order.1, Act::Travel { .. } | Act::Move { .. }))
        .cloned()
        .collect();
    if moves.is_empty() {
        return;
    }
    let held: EntityHashMap<Entity> = holders(world);
    for m in moves {
        let (g, act) = &m.order;
        let who = label(world, *g);
        let result = (|| -> Result<(Vec<Entity>, Vec<Entity>), String> {
            let from = world.get::<At>(*g).ok_or(format!("{who} is dead"))?.0;
            let open = |r: Entity| held.get(&r) == Some(&m.player);
            match act {
                Act::Travel { to, via } => {
                    let path = route_on(world, (from, via, *to), u32::MAX, "TRAVEL", open)?;
                    Ok((path, Vec::new()))
                }
                Act::Move { troops, to, via } => {
                    troops_here(world, m.player, troops, from)?;
                    let path = route_on(world, (from, via, *to), reach, "MOVE", open)?;
                    Ok((path, troops.clone()))
                }
                _ => unreachable!("only moves are listed"),
            }
        })();
        let (path, troops) = match result {
            Ok(x) => x,
            Err(why) => {
                world.resource_mut::<Journal>().refuse(m.player, m.line, why);
                continue;
            }
        };
        let to = *path.last().unwrap_or(&world.get::<At>(*g).expect("alive").0);
        for &t in troops.iter().chain([g]) {
            world.entity_mut(t).insert(At(to));
        }
        let way: Vec<String> = path.iter().map(|&r| label(world, r)).collect();
        let with = if troops.is_empty() {
            String::new()
        } else {
            format!(" with {}", troops.iter().map(|&t| label(world, t)).collect::<Vec<_>>().join(", "))
        };
        let deed = if troops.is_empty() { "travelled" } else { "moved" };
        let mut journal = world.resource_mut::<Journal>();
        journal.deed(*g, format!("{deed} to {}", way.last().cloned().unwrap_or_default()));
        journal.note(m.player, Some(m.line), format!("{who} {deed}{with} to {}.", way.join(", then ")));
    }
}
