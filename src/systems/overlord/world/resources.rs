//! Resources of the game world: the month, the game settings, the index of entities
//! by id, the random streams and the month's inputs.

use crate::core::engine::rng;
use crate::systems::overlord::data::{GameSettings, Tag};
use crate::systems::overlord::orders::OrderFile;
use bevy_ecs::prelude::*;
use rand::rngs::ChaCha8Rng;

/// The month of the turn being played (of the loaded state when no turn runs):
/// its index in the rule set's calendar.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Month(pub u32);

/// The game's settings, as in `game.ron`.
#[derive(Resource, Debug, Clone)]
pub struct Game(pub GameSettings);

/// The game's randomness: see [`rng`].
#[derive(Resource, Debug, Clone, Copy)]
pub struct Randomness {
    /// The game seed.
    pub seed: u64,
    /// The turn being played.
    pub turn: u32,
}

impl Randomness {
    /// The stream for `purpose` and the entity with scenario id `tag`.
    pub fn stream(&self, purpose: &str, tag: &str) -> ChaCha8Rng {
        rng::stream(self.seed, self.turn, purpose, rng::key_of(tag))
    }
}

/// The entities of each kind, in report order, and by scenario id.
///
/// Lookups by id are for resolving what players and data name; systems that visit
/// every entity of a kind in a fixed order use the ordered lists.
#[derive(Resource, Debug, Default, Clone)]
pub struct Directory {
    /// Factions in report order.
    pub factions: Vec<Entity>,
    /// Locations in report order.
    pub locations: Vec<Entity>,
    /// Structures in report order.
    pub structures: Vec<Entity>,
    /// Units in report order.
    pub units: Vec<Entity>,
    by_id: [crate::core::data::FastMap<Tag, Entity>; 4],
    /// Entities of each kind ever listed: the next one's [`super::components::Seq`].
    issued: [u32; 4],
    /// The highest number of an id `<letter><number>` of each kind (`U12`, `B3`).
    top_number: [u64; 4],
}

/// The kinds of entity a scenario id may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A faction.
    Faction,
    /// A location.
    Location,
    /// A structure.
    Structure,
    /// A unit.
    Unit,
}

impl Directory {
    /// Records `entity` as the next of its kind.
    pub fn insert(&mut self, kind: Kind, id: &str, entity: Entity) {
        self.note(kind, id);
        self.by_id[kind as usize].insert(id.to_string(), entity);
        match kind {
            Kind::Faction => self.factions.push(entity),
            Kind::Location => self.locations.push(entity),
            Kind::Structure => self.structures.push(entity),
            Kind::Unit => self.units.push(entity),
        }
    }
    /// Adds a unit right after unit `after` in report order (a new unit joins next
    /// to the unit that made it), or last.
    pub fn insert_unit_after(&mut self, id: &str, entity: Entity, after: Option<Entity>) {
        self.note(Kind::Unit, id);
        self.by_id[Kind::Unit as usize].insert(id.to_string(), entity);
        let at = after.and_then(|a| self.units.iter().position(|&u| u == a)).map_or(self.units.len(), |i| i + 1);
        self.units.insert(at, entity);
    }
    fn note(&mut self, kind: Kind, id: &str) {
        self.issued[kind as usize] += 1;
        let n = id.get(1..).and_then(|n| n.parse::<u64>().ok()).unwrap_or(0);
        let top = &mut self.top_number[kind as usize];
        *top = (*top).max(n);
    }
    /// The sequence number the next entity of `kind` takes: never one given before,
    /// even to an entity since removed.
    pub fn next_seq(&self, kind: Kind) -> u32 {
        self.issued[kind as usize]
    }
    /// The next free unit id: `U` and one more than the highest number in use.
    pub fn next_unit_id(&self) -> Tag {
        format!("U{}", self.top_number[Kind::Unit as usize] + 1)
    }
    /// The next free structure id: `B` and one more than the highest number in use.
    pub fn next_structure_id(&self) -> Tag {
        format!("B{}", self.top_number[Kind::Structure as usize] + 1)
    }
    /// Forgets `entity` (a unit disbanded, a structure destroyed…).
    pub fn remove(&mut self, kind: Kind, id: &str, entity: Entity) {
        self.by_id[kind as usize].remove(id);
        let list = match kind {
            Kind::Faction => &mut self.factions,
            Kind::Location => &mut self.locations,
            Kind::Structure => &mut self.structures,
            Kind::Unit => &mut self.units,
        };
        list.retain(|&e| e != entity);
    }
    /// The entity of `kind` with scenario id `id`.
    pub fn get(&self, kind: Kind, id: &str) -> Option<Entity> {
        self.by_id[kind as usize].get(id).copied()
    }
}

/// The order files submitted for the turn being played, in faction order. Applied
/// in the plan's `orders` step.
pub type Submissions = crate::core::engine::Submissions<OrderFile>;

/// The faction occupying each occupied place, as of the last day's end
/// (OWN-OCCUPY): reckoned by the land mechanic, read by whoever applies a place's
/// policy. Not saved: each day's end reckons it again.
#[derive(Resource, Debug, Default)]
pub struct Occupation(pub bevy_ecs::entity::EntityHashMap<Entity>);

/// Units that left their faction this month, as they were when they left: dead,
/// disbanded, deserted, merged into another unit, or gone to another faction
/// (RPT-UNIT, RPT-XFER). Their faction's report lists them in full. Not saved: a
/// month starts with none.
#[derive(Resource, Debug, Default)]
pub struct Departures(pub Vec<Departed>);

/// A unit as it was when it left its faction.
#[derive(Debug, Clone)]
pub struct Departed {
    /// The faction it left.
    pub faction: Entity,
    /// The day it left.
    pub day: u32,
    /// Its id and name.
    pub id: Tag,
    /// Its name.
    pub name: String,
    /// Its race.
    pub race: super::ids::RaceId,
    /// Its figures.
    pub figures: u32,
    /// Where it was.
    pub location: Option<Entity>,
    /// What it held.
    pub items: Vec<super::components::Holding>,
    /// Its skills, with their experience.
    pub skills: Vec<(super::ids::SkillId, u32)>,
    /// Its month's events, to the last.
    pub events: Vec<super::components::Event>,
}
