//! Non-player factions (§30 of the rules; NPC-IMP, NPC-MAGES, NPC-CIT, NPC-ALLY,
//! NPC-OUT, NPC-CRE, NPC-UNITS).
//!
//! What the non-player factions do is mostly data the other mechanics carry out:
//! their stances (`factions.ron`: the Imperials Friendly to players, the Outlaws
//! and Creatures hostile or Enemy, allies among themselves), which make their
//! guards defend the units they are friendly to and enemies attack on sight
//! (`combat`, `guards`); their units' standing orders (`@GUARD`, `@TEACH skill`,
//! the Emperor's `CLAIM over`), carried out like any unit's.
//!
//! This mechanic adds the one behaviour no stance expresses: a faction with a
//! `provoked` stance takes it toward a faction that attacks it, if it is less
//! friendly than the stance it holds ("Friendly unless attacked, then Enemy").
//! After each battle, every faction of the defending side (the attacked faction and
//! those who came to its defence) takes its `provoked` stance toward every faction
//! of the attacking side, and says so in its report. The choices are in
//! `docs/npc.md`.

#[cfg(test)]
mod tests;

use crate::core::engine::plan::{Clock, PlanApp};
use crate::systems::overlord::mechanics::combat::Battles;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Diplomacy, Events, Faction};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Registers the reaction to attacks.
pub struct NpcPlugin;

impl Plugin for NpcPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("battle", react_to_attacks);
    }
}

/// Battle step, after the day's battles: the attacked factions with a `provoked`
/// stance take it toward their attackers (NPC-IMP, NPC-MAGES).
pub fn react_to_attacks(world: &mut World) {
    let day = world.resource::<Clock>().tick;
    let battles = world.resource::<Battles>();
    if !battles.0.iter().any(|b| b.day == day) {
        return;
    }
    let dir = world.resource::<Directory>();
    let faction = |id: &str| dir.get(Kind::Faction, id);
    // (defender, attacker, place) of today's battles, in the order fought.
    let mut attacked: Vec<(Entity, Entity, String)> = Vec::new();
    // The pairs met (a set: a day of many battles is not quadratic in them).
    let mut met: std::collections::HashSet<(Entity, Entity), bevy_platform::hash::FixedHasher> = Default::default();
    for b in battles.0.iter().filter(|b| b.day == day) {
        for d in b.sides[1].factions.iter().filter_map(|f| faction(f)) {
            for a in b.sides[0].factions.iter().filter_map(|f| faction(f)) {
                if a != d && met.insert((d, a)) {
                    attacked.push((d, a, b.location_name.clone()));
                }
            }
        }
    }
    let catalog = world.resource::<Catalog>().clone();
    let table = &catalog.stances;
    for (d, a, place) in attacked {
        let Some(provoked) = world.get::<Faction>(d).and_then(|f| f.provoked()).and_then(|t| table.by_tag(t)) else {
            continue;
        };
        let Some(mut dip) = world.get_mut::<Diplomacy>(d) else { continue };
        if dip.toward(a).is_some_and(|held| table.rank(held) <= table.rank(provoked)) {
            continue;
        }
        dip.set(a, provoked);
        let who = crate::systems::overlord::mechanics::scheduler::label(world, a);
        let text = format!("Attacked by {who} at {place}: we hold that faction {} now.", table.name(provoked));
        if let Some(mut e) = world.get_mut::<Events>(d) {
            e.push(day, text);
        }
    }
}
