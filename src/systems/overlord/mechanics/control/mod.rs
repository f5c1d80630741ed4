//! Control points and the end of factions (CP-BASE, CP-MAX, CP-CHECK, CP-IDLE,
//! UNIT-FACTION-DEATH).
//!
//! * **Control points** are checked once, after day 1's orders. A faction may use
//!   `starting_control_points` plus the `control` of every title its units hold. It
//!   needs the sum of its units' control points ([`UnitStats`]). When it needs M more
//!   than it has, each of its units refuses to act for the rest of the month with a
//!   probability of M% (at most 100%). Such a unit runs no orders, not even the
//!   invisible WORK. It still goes where its stack goes, when there is movement.
//!   Units of NPC factions are exempt. The faction's excess is kept for the month
//!   ([`OverControl`]): battles read it (CP-BATTLE).
//! * **Factions with no units** left at the end of the month are destroyed; their
//!   report says so. NPC factions are kept (UNIT-FACTION-DEATH).

use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::mechanics::scheduler::Visiting;
use crate::systems::overlord::mechanics::stats::{UnitStats, refresh};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    Destroyed, Events, FactionRole, Id, OverControl, Owner, Refusing, Titles, Unit,
};
use crate::systems::overlord::world::resources::{Directory, Kind, Randomness};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use rand::RngExt;

#[cfg(test)]
mod tests;

/// Adds the control-point check and the end of factions (after the month's changes
/// of allegiance, `mechanics::allegiance`).
pub struct ControlPlugin;

impl Plugin for ControlPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("month_start", clear_refusals);
        app.add_step_system("control_points", refresh);
        app.add_step_system("control_points", check_control_points);
        app.add_step_system("allegiance", end_empty_factions);
    }
}

fn clear_refusals(
    mut commands: Commands,
    refusing: Query<Entity, With<Refusing>>,
    over: Query<Entity, With<OverControl>>,
) {
    for e in &refusing {
        commands.entity(e).remove::<Refusing>();
    }
    for e in &over {
        commands.entity(e).remove::<OverControl>();
    }
}

/// CP-CHECK, CP-IDLE.
pub fn check_control_points(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let p = &catalog.rules.info.parameters;
    let dir = world.resource::<Directory>();
    // Each faction's units, in report order, in one pass.
    let (factions, by_faction) = (dir.factions.clone(), dir.units_by_faction(world));
    let titles = title_control(world);
    let day = world.resource::<Clock>().tick;
    let randomness = *world.resource::<Randomness>();
    let mut refused = false;
    for (f, mine) in factions.into_iter().zip(by_faction) {
        let Some(role) = world.get::<FactionRole>(f) else { continue };
        if role.npc {
            continue;
        }
        let fid = world.get::<Id>(f).map(|i| i.0.clone()).unwrap_or_default();
        let needed: u64 = mine.iter().map(|&u| world.get::<UnitStats>(u).map_or(0, |s| u64::from(s.control()))).sum();
        let max = u64::from(p.starting_control_points) + titles.get(&f).copied().unwrap_or(0);
        if needed <= max {
            continue;
        }
        let over = needed - max;
        world.entity_mut(f).insert(OverControl(over));
        let chance = over.saturating_mul(u64::from(p.refusal_percent_per_control_point)).min(100) as u32;
        world.get_mut::<Events>(f).expect("faction").push(
            day,
            format!(
                "Control points: {needed} needed, {max} available. Each unit may refuse to act this month ({chance}%)."
            ),
        );
        for u in mine {
            let id = world.get::<Id>(u).map_or("", |i| i.0.as_str());
            let mut rng = randomness.stream_of_parts("control", &[&fid, "/", id]);
            if rng.random_range(0..100u32) < chance {
                refused = true;
                world.entity_mut(u).insert(Refusing);
                world
                    .get_mut::<Events>(u)
                    .expect("unit")
                    .push(day, "Refuses to act this month: the faction has too many units to control.");
            }
        }
    }
    // The units that refuse leave the visiting order; where none does, it stands.
    if refused {
        world.resource_mut::<Visiting>().invalidate();
    }
}

/// The control points each faction's titles add (CP-MAX), in one pass over the
/// locations.
pub fn title_control(world: &World) -> bevy_ecs::entity::EntityHashMap<u64> {
    let catalog = world.resource::<Catalog>();
    let dir = world.resource::<Directory>();
    let mut out: bevy_ecs::entity::EntityHashMap<u64> = Default::default();
    for &l in &dir.locations {
        let Some(titles) = world.get::<Titles>(l) else { continue };
        for (title, holder) in &titles.0 {
            let Some(holder) = holder.as_deref().and_then(|h| dir.get(Kind::Unit, h)) else { continue };
            let Some(f) = world.get::<Owner>(holder).map(|o| o.0) else { continue };
            *out.entry(f).or_default() += u64::from(catalog.rules.titles[*title].control);
        }
    }
    out
}

/// UNIT-FACTION-DEATH: a player faction with no units left is destroyed.
pub fn end_empty_factions(world: &mut World) {
    let dir = world.resource::<Directory>();
    let factions = dir.factions.clone();
    let units = dir.units().to_vec();
    let day = world.resource::<Clock>().tick;
    let mut alive: bevy_ecs::entity::EntityHashSet = Default::default();
    for &u in &units {
        if let Some(o) = world.get::<Owner>(u)
            && world.entity(u).contains::<Unit>()
        {
            alive.insert(o.0);
        }
    }
    for f in factions {
        let Some(role) = world.get::<FactionRole>(f) else { continue };
        if role.npc || world.entity(f).contains::<Destroyed>() || alive.contains(&f) {
            continue;
        }
        world.entity_mut(f).insert(Destroyed);
        world.get_mut::<Events>(f).expect("faction").push(
            day,
            "The faction has no units left and is destroyed. Write to the game master to join the game again.",
        );
    }
}
