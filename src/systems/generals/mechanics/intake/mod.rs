//! The players' orders, read at the start of the turn (plan step `orders`): the
//! order of the players for this turn is drawn from the game's seed (ruling 1),
//! each file's names are resolved against the world, and what cannot be resolved
//! is refused with its line. One action per general (generals-rules.txt 15): a
//! second is refused, naming the first's line; a general trained last turn may
//! only move (generals-rules.txt 56). Whether an order can be carried out is
//! decided by its mechanic, when its step comes.

#[cfg(test)]
mod tests;

use super::turn::{Act, Defense, Given, Journal, Purchase, TurnOrders};
use crate::core::engine::Submissions;
use crate::core::engine::plan::{Clock, PlanApp};
use crate::core::engine::rng::stream;
use crate::systems::generals::orders::{Action, Entry, OrderFile};
use crate::systems::generals::world::{Directory, GameInfo, General, Id, Owner, Rules};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use rand::RngExt;
use std::collections::HashMap;

/// Reads the turn's order files.
pub struct IntakePlugin;

impl Plugin for IntakePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TurnOrders>().init_resource::<Journal>().add_step_system("orders", take_orders);
    }
}

/// The players in this turn's order: a shuffle drawn from the game's seed.
pub fn player_order(world: &World) -> Vec<Entity> {
    let mut players = world.resource::<Directory>().players.clone();
    let seed = world.resource::<GameInfo>().0.seed;
    let turn = world.resource::<Clock>().turn;
    let mut rng = stream(seed, turn, "player order", 0);
    for i in (1..players.len()).rev() {
        let j = rng.random_range(0..=i);
        players.swap(i, j);
    }
    players
}

/// Reads every order file of the turn into [`TurnOrders`].
pub fn take_orders(world: &mut World) {
    let files = std::mem::take(&mut world.resource_mut::<Submissions<OrderFile>>().0);
    let players = player_order(world);
    let mut orders = TurnOrders { players: players.clone(), ..Default::default() };
    let mut journal = Journal::default();
    let ended = world.resource::<GameInfo>().0.ended;
    let dir = world.resource::<Directory>();
    // The last file of each player counts (a later mail replaces an earlier one).
    let mut by_player: HashMap<Entity, &OrderFile> = HashMap::new();
    for f in &files {
        if let Some(p) = dir.player(&f.header.faction) {
            by_player.insert(p, f);
        }
    }
    for &p in &players {
        let Some(file) = by_player.get(&p) else { continue };
        if ended {
            journal.note(p, None, "The game is over: orders are no longer carried out.");
            continue;
        }
        let mut r = Reader { world, player: p, acted: HashMap::new(), orders: &mut orders };
        for l in &file.lines {
            let result = match &l.read {
                Ok(e) => r.entry(l.line, e),
                Err(m) => Err(m.clone()),
            };
            if let Err(why) = result {
                journal.refuse(p, l.line, why);
            }
        }
    }
    world.insert_resource(orders);
    world.insert_resource(journal);
}

/// Resolves one player's lines.
struct Reader<'a> {
    world: &'a World,
    player: Entity,
    acted: HashMap<Entity, usize>,
    orders: &'a mut TurnOrders,
}

impl Reader<'_> {
    fn dir(&self) -> &Directory {
        self.world.resource::<Directory>()
    }

    fn general(&self, name: &str) -> Result<Entity, String> {
        self.dir()
            .general(name)
            .filter(|&g| self.world.get::<General>(g).is_some())
            .filter(|&g| self.world.get::<Owner>(g).is_some_and(|o| o.0 == self.player))
            .ok_or_else(|| format!("you have no general '{name}'"))
    }

    fn region(&self, id: &str) -> Result<Entity, String> {
        self.dir().region(id).ok_or_else(|| format!("no region '{id}'"))
    }

    fn regions(&self, ids: &[String]) -> Result<Vec<Entity>, String> {
        ids.iter().map(|id| self.region(id)).collect()
    }

    /// The player's troop units named, each once.
    fn troops(&self, ids: &[String]) -> Result<Vec<Entity>, String> {
        let mut seen = std::collections::HashSet::new();
        ids.iter()
            .filter(|id| seen.insert(id.to_ascii_uppercase()))
            .map(|id| {
                let t = self.dir().troop(id).filter(|&t| self.world.get::<Id>(t).is_some());
                let t = t.ok_or_else(|| format!("no troop unit '{id}'"))?;
                if self.world.get::<Owner>(t).is_none_or(|o| o.0 != self.player) {
                    return Err(format!("{id} is not yours"));
                }
                Ok(t)
            })
            .collect()
    }

    fn index(list: impl Iterator<Item = impl AsRef<str>>, tag: &str, what: &str) -> Result<usize, String> {
        list.into_iter().position(|t| t.as_ref() == tag).ok_or_else(|| format!("no {what} '{tag}'"))
    }

    fn given<T>(&self, line: usize, order: T) -> Given<T> {
        Given { player: self.player, line, order }
    }

    fn entry(&mut self, line: usize, e: &Entry) -> Result<(), String> {
        let rules = &self.world.resource::<Rules>().0;
        match e {
            Entry::General { general, action, raise } => {
                let g = self.general(general)?;
                let raise = raise
                    .iter()
                    .map(|s| Self::index(rules.skills.iter().map(|x| &x.tag), s, "skill"))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut learn = None;
                if let Some(a) = action {
                    if let Some(first) = self.acted.get(&g) {
                        return Err(format!("{general} has an action already (line {first}): one action per general"));
                    }
                    let new = self.world.get::<General>(g).is_some_and(|x| x.new);
                    if new && !matches!(a, Action::Travel { .. } | Action::Move { .. }) {
                        return Err(format!("{general} was trained last turn: he may only move"));
                    }
                    let act = match a {
                        Action::Travel { to, via } => Act::Travel { to: self.region(to)?, via: self.regions(via)? },
                        Action::Move { troops, to, via } => {
                            Act::Move { troops: self.troops(troops)?, to: self.region(to)?, via: self.regions(via)? }
                        }
                        Action::Attack { region, troops, order } => Act::Attack {
                            region: self.region(region)?,
                            troops: self.troops(troops)?,
                            order: Self::index(rules.combat.orders.iter().map(|x| &x.tag), order, "battle order")?,
                        },
                        Action::Recruit { men, troop } => Act::Recruit {
                            men: *men,
                            kind: Self::index(rules.troops.iter().map(|x| &x.tag), troop, "troop type")?,
                        },
                        Action::Prepare => Act::Prepare,
                        Action::Rest { learn: l } => {
                            if let Some(s) = l {
                                learn = Some(Self::index(rules.skills.iter().map(|x| &x.tag), s, "skill")?);
                            }
                            Act::Rest
                        }
                        Action::Train { name } => Act::Train { name: name.clone() },
                    };
                    self.acted.insert(g, line);
                    let given = self.given(line, (g, act));
                    self.orders.actions.push(given);
                }
                if learn.is_some() || !raise.is_empty() {
                    let given = self.given(line, Purchase { general: g, learn, raise });
                    self.orders.purchases.push(given);
                }
            }
            Entry::Champion { general, troop } => {
                let g = self.general(general)?;
                let t = self.troops(std::slice::from_ref(troop))?[0];
                let given = self.given(line, (g, t));
                self.orders.champions.push(given);
            }
            Entry::Defense { region, order, rearguard } => {
                let d = Defense {
                    region: self.region(region)?,
                    order: Self::index(rules.combat.orders.iter().map(|x| &x.tag), order, "battle order")?,
                    rearguard: self.troops(rearguard)?,
                };
                let given = self.given(line, d);
                self.orders.defenses.push(given);
            }
            Entry::Overtax { region, kind, steps } => {
                let given = self.given(line, (self.region(region)?, *kind, *steps));
                self.orders.overtaxes.push(given);
            }
        }
        Ok(())
    }
}
