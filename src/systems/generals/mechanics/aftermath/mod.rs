//! After the battles (plan step `aftermath`; generals-rules.txt 96; rulings 9,
//! 14): each surviving general gains `1` renown per `renown_men` enemy men his
//! side killed and `renown_general` per enemy general killed, and loses
//! `renown_defeat` for a lost battle (never below 0); the winner's player gains
//! the scenario's victory points for a battle won, and each side's player those
//! for every enemy general killed. Both players are told how it went.

#[cfg(test)]
mod tests;

use super::battle::Battles;
use super::turn::Journal;
use crate::core::engine::plan::PlanApp;
use crate::systems::generals::world::{GameInfo, General, Points, Rules, label};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Renown and victory points of the battles.
pub struct AftermathPlugin;

impl Plugin for AftermathPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("aftermath", reckon);
    }
}

/// Renown, victory points and the news of each battle, in the order fought.
pub fn reckon(world: &mut World) {
    let battles = std::mem::take(&mut world.resource_mut::<Battles>().0);
    let p = world.resource::<Rules>().0.info.parameters.clone();
    let victory = world.resource::<GameInfo>().0.victory.clone();
    for b in &battles {
        let place = label(world, b.region);
        for s in 0..2 {
            let (side, enemy) = (&b.sides[s], &b.sides[1 - s]);
            let killed = enemy.men().1;
            let gained =
                killed / p.renown_men.max(1) + p.renown_general.saturating_mul(enemy.generals_killed.len() as u32);
            let lost = if b.winner == s { 0 } else { p.renown_defeat };
            let mut notes = Vec::new();
            for &g in &side.survivors {
                let name = label(world, g);
                if let Some(mut general) = world.get_mut::<General>(g) {
                    general.renown = general.renown.saturating_add(gained).saturating_sub(lost);
                    notes.push(format!("{name} has {} renown (+{gained}, −{lost})", general.renown));
                }
            }
            let mut points = 0u64;
            if b.winner == s {
                points += u64::from(victory.battle_won);
            }
            points += u64::from(victory.general_killed) * enemy.generals_killed.len() as u64;
            if let Some(mut x) = world.get_mut::<Points>(side.player) {
                x.0 = x.0.saturating_add(points);
            }
            let (men, lost_men) = side.men();
            let role = if s == 0 { "attacked" } else { "defended" };
            let result = if b.winner == s { "won" } else { "lost" };
            let mut text = format!(
                "Battle of {place}: you {role} and {result} after {} rounds, losing {lost_men} of {men} men and killing {killed}.",
                b.rounds
            );
            for dead in &side.generals_killed {
                text.push_str(&format!(" {dead} died."));
            }
            for dead in &enemy.generals_killed {
                text.push_str(&format!(" The enemy general {dead} died."));
            }
            if side.destroyed {
                text.push_str(" With nowhere to retreat, the army was destroyed.");
            } else if let Some(r) = side.retreat {
                text.push_str(&format!(" The army retreated to {}.", label(world, r)));
            }
            if !notes.is_empty() {
                text.push_str(&format!(" {}.", notes.join("; ")));
            }
            if points > 0 {
                text.push_str(&format!(" {points} victory points."));
            }
            let line = (s == 0).then_some(b.line);
            world.resource_mut::<Journal>().note(side.player, line, text);
        }
    }
    world.resource_mut::<Battles>().0 = battles;
}
