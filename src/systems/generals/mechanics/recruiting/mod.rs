//! Recruit Troops (plan step `recruiting`; generals-rules.txt 46-47; rulings 12,
//! 13): a general hires men of a troop type offered in his region, which his
//! player must hold. Their points (per man) must fit in what the region may still
//! hire this turn (its [`Levy`]: generals recruiting in one region share it), and
//! the player pays `gold_per_point` gold per point. Beyond the limit or the gold,
//! nothing is hired. A Rabble Rouser brings extra men (generals-rules.txt 120),
//! a Necromancer free undead (generals-rules.txt 108): a unit of the rule set's
//! first undead troop type.

#[cfg(test)]
mod tests;

use super::economy::Levy;
use super::skills::level;
use super::turn::{Act, Journal, TurnOrders};
use crate::core::engine::plan::PlanApp;
use crate::systems::generals::data::SkillEffect;
use crate::systems::generals::world::{
    At, Directory, General, Id, Owner, Region, Rules, Seq, Treasury, Troop, holders, label,
};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Recruiting.
pub struct RecruitingPlugin;

impl Plugin for RecruitingPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("recruiting", recruit);
    }
}

/// New troop unit ids: `T` and the next number above every `T<n>` id in use.
struct NewIds(u64);

impl NewIds {
    fn of(world: &World) -> Self {
        let dir = world.resource::<Directory>();
        let top = dir
            .troops
            .iter()
            .filter_map(|&t| world.get::<Id>(t))
            .filter_map(|id| id.0.strip_prefix(['T', 't']).and_then(|n| n.parse::<u64>().ok()))
            .max()
            .unwrap_or(0);
        NewIds(top + 1)
    }
    fn next(&mut self, dir: &Directory) -> String {
        loop {
            let id = format!("T{}", self.0);
            self.0 += 1;
            if dir.troop(&id).is_none() {
                return id;
            }
        }
    }
}

/// Spawns a troop unit of `player` in `region`.
fn spawn_troop(world: &mut World, ids: &mut NewIds, player: Entity, region: Entity, troop: Troop) -> Entity {
    let id = ids.next(world.resource::<Directory>());
    let seq = world.resource::<Directory>().troops.len() as u32;
    let e = world.spawn((Seq(seq), Id(id.clone()), Owner(player), At(region), troop)).id();
    world.resource_mut::<Directory>().add_troop(&id, e);
    e
}

/// Every RECRUIT of the turn, in order.
pub fn recruit(world: &mut World) {
    let rules = world.resource::<Rules>().0.clone();
    let p = &rules.info.parameters;
    let recruits: Vec<_> = world
        .resource::<TurnOrders>()
        .actions
        .iter()
        .filter_map(|a| match a.order.1 {
            Act::Recruit { men, kind } => Some((a.player, a.line, a.order.0, men, kind)),
            _ => None,
        })
        .collect();
    if recruits.is_empty() {
        return;
    }
    let held = holders(world);
    let mut ids = NewIds::of(world);
    let undead = rules.troops.iter().position(|t| t.undead);
    for (player, line, g, men, kind) in recruits {
        let who = label(world, g);
        let t = &rules.troops[kind];
        let result = (|| {
            let at = world.get::<At>(g).ok_or(format!("{who} is dead"))?.0;
            let place = label(world, at);
            if held.get(&at) != Some(&player) {
                return Err(format!("{place} is not yours: no one there hires for you"));
            }
            if !world.get::<Region>(at).is_some_and(|r| r.hires.contains(&kind)) {
                return Err(format!("{place} offers no {} for hire", t.name));
            }
            let points = u64::from(men) * u64::from(t.points);
            let left = world.get::<Levy>(at).map_or(0, Levy::left);
            if points > u64::from(left) {
                return Err(format!(
                    "{men} {} are worth {points} points, over what {place} may still hire this turn ({left})",
                    t.name
                ));
            }
            let cost = points * u64::from(p.gold_per_point);
            let gold = world.get::<Treasury>(player).map_or(0, |x| x.0);
            if cost > gold {
                return Err(format!("{men} {} cost {cost} gold and the treasury holds {gold}", t.name));
            }
            Ok((at, points as u32, cost))
        })();
        let (at, points, cost) = match result {
            Ok(x) => x,
            Err(why) => {
                world.resource_mut::<Journal>().refuse(player, line, why);
                continue;
            }
        };
        world.get_mut::<Treasury>(player).expect("a player").0 -= cost;
        world.get_mut::<Levy>(at).expect("a region").hired += points;
        let general = world.get::<General>(g).expect("a general").clone();
        let (rabble_level, rabble) = level(&rules, &general, |e| match e {
            SkillEffect::Rabble(v) => Some(*v),
            _ => None,
        });
        let extra =
            (u64::from(men) * u64::from(rabble_level.saturating_mul(rabble)) / 100).min(u64::from(u32::MAX)) as u32;
        let unit = Troop { kind, men: men.saturating_add(extra), veteran: 0, reserve: false };
        let e = spawn_troop(world, &mut ids, player, at, unit);
        let mut text = format!(
            "{who} recruited {} {} as {} in {} for {cost} gold",
            men.saturating_add(extra),
            t.name,
            label(world, e),
            label(world, at)
        );
        if extra > 0 {
            text.push_str(&format!(" ({extra} of them flocked to his banner)"));
        }
        let (necro_level, per_level) = level(&rules, &general, |e| match e {
            SkillEffect::Undead(v) => Some(*v),
            _ => None,
        });
        let raised_men = necro_level.saturating_mul(per_level);
        if let (Some(u), true) = (undead, raised_men > 0) {
            let raised = Troop { kind: u, men: raised_men, veteran: 0, reserve: false };
            let e = spawn_troop(world, &mut ids, player, at, raised);
            text.push_str(&format!(
                "; he raised {} {} as {} for free",
                raised_men,
                rules.troops[u].name,
                label(world, e)
            ));
        }
        let mut journal = world.resource_mut::<Journal>();
        journal.deed(g, format!("recruited {men} {}", t.name));
        journal.note(player, Some(line), format!("{text}."));
    }
}
