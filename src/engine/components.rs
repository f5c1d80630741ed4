//! The components of game entities.
//!
//! Every faction, location, structure and unit of a scenario is an entity. What the
//! day-phase systems read and write often is held in small typed components with
//! interned ids (the *hot* data); what they rarely touch stays in the scenario record
//! the entity was loaded from (the *cold* data: descriptions, market offers, tactics, …).
//!
//! Invariant: a value lives in one place only. When a field has a typed component, the
//! copy in the cold record is ignored while the game runs and overwritten when the
//! world is saved (see [`super::world::extract`]).

use super::ids::{EffectId, ItemId, RaceId, SkillId, TerrainId};
use crate::data::{self, Tag};
use bevy_ecs::prelude::*;

/// A stable position in the report order of entities of one kind: the order of the
/// scenario files. Systems that must visit entities in a fixed order sort by it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seq(pub u32);

/// The scenario id of an entity (`"U12"`, `"L3"`, `"f01"`, `"B2"`).
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct Id(pub Tag);

/// A display name.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct DisplayName(pub String);

// ------------------------------------------------------------------ factions

/// Marks a faction entity; holds its cold record (funds live in [`Funds`]).
#[derive(Component, Debug, Clone)]
pub struct Faction(pub data::Faction);

/// A faction's funds: coins and items, by item id, sorted by id.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Funds(pub Vec<(ItemId, u64)>);

// ------------------------------------------------------------------ locations

/// Marks a location entity; holds its cold record (terrain and population live in
/// [`Terrain`] and [`Population`]).
#[derive(Component, Debug, Clone)]
pub struct Location(pub data::Location);

/// A location's terrain.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terrain(pub TerrainId);

/// A location's population.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Population(pub u32);

// ------------------------------------------------------------------ structures

/// Marks a structure (building or vessel); holds its cold record.
#[derive(Component, Debug, Clone)]
pub struct Structure(pub data::Structure);

/// Where a structure stands.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct StructureAt(pub Entity);

// ------------------------------------------------------------------ units

/// Marks a unit; holds the cold part of its record (description, tactics, settings).
#[derive(Component, Debug, Clone, Default)]
pub struct Unit(pub data::Unit);

/// The faction a unit belongs to.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner(pub Entity);

/// A unit's race.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Race(pub RaceId);

/// Number of figures in a unit.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures(pub u32);

/// Where a unit is: its location, and the structure it is inside, if any.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct At {
    /// The location entity.
    pub location: Entity,
    /// The structure entity, if the unit is inside one.
    pub structure: Option<Entity>,
}

/// The unit this unit is stacked under, if any.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StackLeader(pub Option<Entity>);

/// One kind of item a unit holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holding {
    /// The item.
    pub item: ItemId,
    /// How many are held.
    pub count: u32,
    /// How many of those are equipped.
    pub equipped: u32,
}

/// What a unit holds, in the order the items were acquired.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Inventory(pub Vec<Holding>);

impl Inventory {
    /// How many of `item` the unit holds.
    pub fn count(&self, item: ItemId) -> u32 {
        self.0.iter().find(|h| h.item == item).map_or(0, |h| h.count)
    }
}

/// A unit's experience per skill, in experience points, in the order learnt.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Skills(pub Vec<(SkillId, u32)>);

/// A unit's work in progress: the skill used and the work done towards the next
/// batch, in hundredths of a figure-day.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Production(pub Option<(SkillId, u32)>);

/// Effects on a unit and the days each has left, in the order received (ITM-ENCH).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects(pub Vec<(EffectId, u32)>);

impl Effects {
    /// Whether the unit is under effect `e`.
    pub fn has(&self, e: EffectId) -> bool {
        self.0.iter().any(|x| x.0 == e)
    }
    /// Puts effect `e` on for `days`, or extends it to `days` if it is shorter.
    pub fn set(&mut self, e: EffectId, days: u32) {
        match self.0.iter_mut().find(|x| x.0 == e) {
            Some(x) => x.1 = x.1.max(days),
            None => self.0.push((e, days)),
        }
    }
}

/// A unit's pending orders, typed, in list order (see [`crate::orders::queue`]).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Orders(pub Vec<crate::orders::queue::Queued>);

/// A unit that refuses to act for the rest of the month (CP-IDLE): it runs no
/// orders. Added by the control-point check, removed when the month starts.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusing;

/// A unit on a journey: it runs no orders and is in no location until it arrives
/// (SCH-MOVING). Added and removed by the movement mechanic.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct InTransit;

/// Something that happened to an entity, dated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Day of the month (0: before day 1).
    pub day: u32,
    /// What happened, as the report prints it.
    pub text: String,
}

/// The dated events of a unit or faction this month, in the order they happened.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Events(pub Vec<Event>);

impl Events {
    /// Records an event.
    pub fn push(&mut self, day: u32, text: impl Into<String>) {
        self.0.push(Event { day, text: text.into() });
    }
}
