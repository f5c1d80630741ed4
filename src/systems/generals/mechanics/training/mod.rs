//! Train General (plan step `training`; generals-rules.txt 55-56): the general
//! spends his turn training another for his player, who pays
//! `train_general_cost` gold. The new general starts in the trainer's region with
//! renown 0 and `starting_skills` skills at `starting_skill_level`
//! (generals-rules.txt 142), drawn from the game's seed by his name, and may only
//! move until the next turn. Generals trained last turn lose that restriction
//! here, once the intake has held them to it.

#[cfg(test)]
mod tests;

use super::turn::{Act, Journal, TurnOrders};
use crate::core::engine::plan::{Clock, PlanApp};
use crate::core::engine::rng::{key_of, stream};
use crate::systems::generals::world::{At, Directory, GameInfo, General, Id, Owner, Rules, Seq, Treasury, label};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use rand::RngExt;

/// Training generals.
pub struct TrainingPlugin;

impl Plugin for TrainingPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("training", train);
    }
}

/// The skills a new general named `name` starts with, in turn `turn`: distinct,
/// drawn from the game's seed.
pub fn starting_skills(world: &World, name: &str) -> Vec<(usize, u32)> {
    let rules = &world.resource::<Rules>().0;
    let p = &rules.info.parameters;
    let seed = world.resource::<GameInfo>().0.seed;
    let turn = world.resource::<Clock>().turn;
    let mut rng = stream(seed, turn, "training", key_of(&name.to_ascii_uppercase()));
    let mut pool: Vec<usize> = (0..rules.skills.len()).collect();
    let mut skills = Vec::new();
    while skills.len() < p.starting_skills as usize && !pool.is_empty() {
        let k = pool.swap_remove(rng.random_range(0..pool.len()));
        skills.push((k, p.starting_skill_level));
    }
    skills.sort_unstable();
    skills
}

/// Last turn's new generals may act; this turn's are trained.
pub fn train(world: &mut World) {
    let mut q = world.query::<&mut General>();
    for mut g in q.iter_mut(world) {
        if g.new {
            g.new = false;
        }
    }
    let cost = u64::from(world.resource::<Rules>().0.info.parameters.train_general_cost);
    let trainings: Vec<_> = world
        .resource::<TurnOrders>()
        .actions
        .iter()
        .filter_map(|a| match &a.order.1 {
            Act::Train { name } => Some((a.player, a.line, a.order.0, name.clone())),
            _ => None,
        })
        .collect();
    for (player, line, trainer, name) in trainings {
        let who = label(world, trainer);
        let result = (|| {
            let at = world.get::<At>(trainer).ok_or(format!("{who} is dead"))?.0;
            let dir = world.resource::<Directory>();
            if dir.general(&name).is_some_and(|g| world.get::<General>(g).is_some()) {
                return Err(format!("a general is named '{name}' already"));
            }
            let gold = world.get::<Treasury>(player).map_or(0, |t| t.0);
            if gold < cost {
                return Err(format!("a new general costs {cost} gold and the treasury holds {gold}"));
            }
            Ok(at)
        })();
        let at = match result {
            Ok(at) => at,
            Err(why) => {
                world.resource_mut::<Journal>().refuse(player, line, why);
                continue;
            }
        };
        world.get_mut::<Treasury>(player).expect("a player").0 -= cost;
        let skills = starting_skills(world, &name);
        let seq = world.resource::<Directory>().generals.len() as u32;
        let general = General { renown: 0, skills, champion: None, new: true };
        let e = world.spawn((Seq(seq), Id(name.clone()), Owner(player), At(at), general)).id();
        world.resource_mut::<Directory>().add_general(&name, e);
        let place = label(world, at);
        let mut journal = world.resource_mut::<Journal>();
        journal.deed(trainer, format!("trained {name}"));
        journal.note(player, Some(line), format!("{who} trained a new general, {name}, in {place} for {cost} gold."));
    }
}
