//! Skills bought with renown, and R and R (plan step `renown`;
//! generals-rules.txt 52-53, 98-142; ruling 9): a new skill costs
//! `new_skill_renown` during R and R; raising a skill to level n costs
//! `raise_renown_per_level` × n, at any time. What one order line buys is paid
//! for whole, or the line is refused. Invincible Warriors name their champion
//! unit here too.
//!
//! [`level`] and [`best`] are how the other mechanics read a general's skills.

#[cfg(test)]
mod tests;

use super::turn::{Act, Journal, TurnOrders};
use crate::core::engine::plan::PlanApp;
use crate::systems::generals::data::{RuleSet, SkillEffect};
use crate::systems::generals::world::{General, Owner, Rules, label};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Skills and R and R.
pub struct SkillsPlugin;

impl Plugin for SkillsPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("renown", buy_skills);
    }
}

/// The level of the skill whose effect `pick` selects (with its per-level
/// value) that `g` has, and that value: (level, per level); (0, 0) without it.
pub fn level(rules: &RuleSet, g: &General, pick: impl Fn(&SkillEffect) -> Option<u32>) -> (u32, u32) {
    g.skills.iter().filter_map(|&(k, l)| pick(&rules.skills[k].effect).map(|v| (l, v))).max().unwrap_or((0, 0))
}

/// The effect `pick` selects, at the best level among `generals`: level × per
/// level.
pub fn best<'a>(
    rules: &RuleSet,
    generals: impl IntoIterator<Item = &'a General>,
    pick: impl Fn(&SkillEffect) -> Option<u32> + Copy,
) -> u32 {
    generals
        .into_iter()
        .map(|g| {
            let (l, v) = level(rules, g, pick);
            l.saturating_mul(v)
        })
        .max()
        .unwrap_or(0)
}

/// R and R, skills bought, champions named.
pub fn buy_skills(world: &mut World) {
    let rules = world.resource::<Rules>().0.clone();
    let p = &rules.info.parameters;
    let orders = world.resource::<TurnOrders>();
    let rests: Vec<Entity> =
        orders.actions.iter().filter(|a| matches!(a.order.1, Act::Rest)).map(|a| a.order.0).collect();
    let purchases = orders.purchases.clone();
    let champions = orders.champions.clone();
    let mut notes: Vec<(Entity, usize, Result<String, String>)> = Vec::new();
    for &g in &rests {
        world.resource_mut::<Journal>().deed(g, "R and R");
    }
    for b in &purchases {
        let g = b.order.general;
        let name = label(world, g);
        let Some(mut general) = world.get_mut::<General>(g) else {
            notes.push((b.player, b.line, Err(format!("{name} is dead"))));
            continue;
        };
        let mut skills = general.skills.clone();
        let mut cost = 0u32;
        let mut bought = Vec::new();
        let result = (|| {
            if let Some(s) = b.order.learn {
                if skills.iter().any(|x| x.0 == s) {
                    return Err(format!("{name} knows {} already", rules.skills[s].name));
                }
                skills.push((s, p.starting_skill_level.max(1)));
                skills.sort_unstable();
                cost = cost.saturating_add(p.new_skill_renown);
                bought.push(format!("learns {}", rules.skills[s].name));
            }
            for &s in &b.order.raise {
                let Some(x) = skills.iter_mut().find(|x| x.0 == s) else {
                    return Err(format!("{name} does not know {}", rules.skills[s].name));
                };
                if x.1 >= p.max_skill_level {
                    return Err(format!("{} is at its highest level, {}", rules.skills[s].name, p.max_skill_level));
                }
                x.1 += 1;
                cost = cost.saturating_add(p.raise_renown_per_level.saturating_mul(x.1));
                bought.push(format!("raises {} to level {}", rules.skills[s].name, x.1));
            }
            if cost > general.renown {
                return Err(format!("{name} has {} renown and this costs {cost}", general.renown));
            }
            Ok(())
        })();
        match result {
            Ok(()) => {
                general.renown -= cost;
                general.skills = skills;
                let text = format!("{name} {} for {cost} renown ({} left)", bought.join(" and "), general.renown);
                notes.push((b.player, b.line, Ok(text)));
            }
            Err(why) => notes.push((b.player, b.line, Err(why))),
        }
    }
    for c in &champions {
        let (g, t) = c.order;
        let (name, unit) = (label(world, g), label(world, t));
        let mine = world.get::<Owner>(t).is_some_and(|o| o.0 == c.player);
        match world.get_mut::<General>(g) {
            Some(mut general) if mine => {
                general.champion = Some(t);
                notes.push((c.player, c.line, Ok(format!("{name} fights alongside {unit}"))));
            }
            Some(_) => notes.push((c.player, c.line, Err(format!("{unit} is no longer yours")))),
            None => notes.push((c.player, c.line, Err(format!("{name} is dead")))),
        }
    }
    let mut journal = world.resource_mut::<Journal>();
    for (player, line, result) in notes {
        match result {
            Ok(text) => journal.note(player, Some(line), format!("{text}.")),
            Err(why) => journal.refuse(player, line, why),
        }
    }
}
