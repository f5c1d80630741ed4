//! What a turn carries from step to step: the orders read at its start (by
//! player, in this turn's player order), and what happened, for the reports.

use crate::systems::generals::orders::Overtax;
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

/// One order of a player's file, with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given<T> {
    /// The player who gave it.
    pub player: Entity,
    /// Its line in the order file.
    pub line: usize,
    /// The order, its names resolved.
    pub order: T,
}

/// A general's action, its names resolved to entities and rule set indexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Act {
    /// Alone to `to`, through `via`.
    Travel {
        /// Destination.
        to: Entity,
        /// Regions passed through.
        via: Vec<Entity>,
    },
    /// With `troops` to `to`, through `via`.
    Move {
        /// Troop units.
        troops: Vec<Entity>,
        /// Destination.
        to: Entity,
        /// Regions passed through.
        via: Vec<Entity>,
    },
    /// Into `region` with `troops` under battle order `order`.
    Attack {
        /// The region attacked.
        region: Entity,
        /// Troop units.
        troops: Vec<Entity>,
        /// Battle order index.
        order: usize,
    },
    /// `men` of troop type `kind`.
    Recruit {
        /// Men.
        men: u32,
        /// Troop type index.
        kind: usize,
    },
    /// Prepare Battlefield.
    Prepare,
    /// R and R.
    Rest,
    /// Train a general named `name`.
    Train {
        /// His name.
        name: String,
    },
}

/// Skills bought on one line: a new one (during R and R) and levels raised,
/// paid for whole or not at all (ruling 9).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Purchase {
    /// The general.
    pub general: Entity,
    /// A new skill, by index.
    pub learn: Option<usize>,
    /// Skills raised a level, by index, in order.
    pub raise: Vec<usize>,
}

/// A region's defensive order for this turn and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defense {
    /// The region.
    pub region: Entity,
    /// Battle order index.
    pub order: usize,
    /// The rearguard, when it withdraws.
    pub rearguard: Vec<Entity>,
}

/// The turn's orders, read by the intake: every list in this turn's player
/// order, then in the order of each file.
#[derive(Resource, Debug, Default)]
pub struct TurnOrders {
    /// The players in the order they act this turn (ruling 1).
    pub players: Vec<Entity>,
    /// One action per general.
    pub actions: Vec<Given<(Entity, Act)>>,
    /// Skills bought.
    pub purchases: Vec<Given<Purchase>>,
    /// Invincible Warriors' champions: (general, troop unit).
    pub champions: Vec<Given<(Entity, Entity)>>,
    /// Defensive orders.
    pub defenses: Vec<Given<Defense>>,
    /// Overtax conversions: region, which way, steps.
    pub overtaxes: Vec<Given<(Entity, Overtax, u32)>>,
}

/// A line of a player's report: what happened, and the order line it came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Event {
    /// The order line, if an order caused it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// What happened.
    pub text: String,
}

/// What happened this turn, per player and per general.
#[derive(Resource, Debug, Default)]
pub struct Journal {
    events: EntityHashMap<Vec<Event>>,
    deeds: EntityHashMap<String>,
    income: EntityHashMap<u64>,
}

impl Journal {
    /// Tells `player` something, from order line `line`.
    pub fn note(&mut self, player: Entity, line: Option<usize>, text: impl Into<String>) {
        self.events.entry(player).or_default().push(Event { line, text: text.into() });
    }
    /// An order of `player` at `line` not carried out, and why.
    pub fn refuse(&mut self, player: Entity, line: usize, why: impl std::fmt::Display) {
        self.note(player, Some(line), format!("Not done: {why}."));
    }
    /// What `player` was told, in order.
    pub fn events(&self, player: Entity) -> &[Event] {
        self.events.get(&player).map_or(&[], Vec::as_slice)
    }
    /// Records the action `general` carried out, as the report says it.
    pub fn deed(&mut self, general: Entity, text: impl Into<String>) {
        self.deeds.insert(general, text.into());
    }
    /// The action `general` carried out this turn, if any.
    pub fn deed_of(&self, general: Entity) -> Option<&str> {
        self.deeds.get(&general).map(String::as_str)
    }
    /// Adds to the gold `player` gained this turn.
    pub fn gain(&mut self, player: Entity, gold: u64) {
        *self.income.entry(player).or_default() += gold;
    }
    /// The gold `player` gained this turn.
    pub fn gained(&self, player: Entity) -> u64 {
        self.income.get(&player).copied().unwrap_or(0)
    }
}
