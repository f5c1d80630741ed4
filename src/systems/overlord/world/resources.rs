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
    /// [`Randomness::stream`] of the tag that `parts` make one after the other.
    pub fn stream_of_parts(&self, purpose: &str, parts: &[&str]) -> ChaCha8Rng {
        rng::stream(self.seed, self.turn, purpose, rng::key_of_parts(parts))
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
    /// Units in report order: [`Directory::units`].
    units: UnitOrder,
    /// See [`Directory::unit_changes`].
    unit_changes: u64,
    by_id: [Ids; 4],
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
        self.name(kind, id, entity);
        match kind {
            Kind::Faction => self.factions.push(entity),
            Kind::Location => self.locations.push(entity),
            Kind::Structure => self.structures.push(entity),
            Kind::Unit => {
                self.units.push(entity);
                self.unit_changes += 1;
            }
        }
    }
    /// Records units `units` (id, entity) as the next units, in that order: as
    /// [`Directory::insert`] of each, at once (a world being built).
    pub fn insert_units<'a>(&mut self, units: impl IntoIterator<Item = (&'a str, Entity)>) {
        let mut listed = Vec::new();
        for (id, entity) in units {
            self.name(Kind::Unit, id, entity);
            listed.push(entity);
        }
        self.unit_changes += listed.len() as u64;
        self.units.push_all(&listed);
    }
    /// Makes room for `n` more entities of `kind` (a world being built).
    pub fn reserve(&mut self, kind: Kind, n: usize) {
        self.by_id[kind as usize].reserve(n);
        match kind {
            Kind::Faction => self.factions.reserve(n),
            Kind::Location => self.locations.reserve(n),
            Kind::Structure => self.structures.reserve(n),
            Kind::Unit => {}
        }
    }
    /// Adds a unit right after unit `after` in report order (a new unit joins next
    /// to the unit that made it), or last.
    pub fn insert_unit_after(&mut self, id: &str, entity: Entity, after: Option<Entity>) {
        self.name(Kind::Unit, id, entity);
        self.unit_changes += 1;
        match after.filter(|&a| self.units.key(a).is_some()) {
            Some(a) => self.units.insert_after(entity, a),
            None => self.units.push(entity),
        }
    }
    /// How many times the list of units has changed so far: a unit added,
    /// removed or moved in report order.
    pub fn unit_changes(&self) -> u64 {
        self.unit_changes
    }
    /// The units in report order.
    pub fn units(&self) -> &[Entity] {
        self.units.list()
    }
    /// The units of each faction, by the faction's place in `factions`, each
    /// list in report order; units of no listed faction are left out. A faction
    /// is found by its entity's index in a table, not hashed, for every unit.
    pub fn units_by_faction(&self, world: &World) -> Vec<Vec<Entity>> {
        let mut place = Vec::new();
        for (i, f) in self.factions.iter().enumerate() {
            let k = f.index_u32() as usize;
            if k >= place.len() {
                place.resize(k + 1, usize::MAX);
            }
            place[k] = i;
        }
        let mut out = vec![Vec::new(); self.factions.len()];
        for &u in self.units() {
            let Some(owner) = world.get::<super::components::Owner>(u) else { continue };
            // The same index with another generation is another entity.
            let i = place.get(owner.0.index_u32() as usize).copied().filter(|&i| i != usize::MAX);
            if let Some(i) = i.filter(|&i| self.factions[i] == owner.0) {
                out[i].push(u);
            }
        }
        out
    }
    /// Where unit `u` stands in report order, as a key: of two units, the one with
    /// the smaller key comes first. Keys change when units are added or moved, so
    /// compare keys taken at the same moment. `None` for an entity not listed.
    pub fn unit_key(&self, u: Entity) -> Option<u64> {
        self.units.key(u)
    }
    /// Moves unit `u` right before unit `before` in report order (ORD-PROMOTE).
    /// Nothing changes unless both are listed.
    pub fn move_unit_before(&mut self, u: Entity, before: Entity) {
        if u != before && self.units.key(u).is_some() && self.units.key(before).is_some() {
            self.units.remove(u);
            self.units.insert_before(u, before);
            self.unit_changes += 1;
        }
    }
    /// Finds `entity` by `id` from now on, and counts it as issued.
    fn name(&mut self, kind: Kind, id: &str, entity: Entity) {
        self.note(kind, id);
        self.by_id[kind as usize].insert(id, entity);
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
            Kind::Unit => {
                self.unit_changes += 1;
                return self.units.remove(entity);
            }
        };
        list.retain(|&e| e != entity);
    }
    /// The entity of `kind` with scenario id `id`.
    pub fn get(&self, kind: Kind, id: &str) -> Option<Entity> {
        self.by_id[kind as usize].get(id)
    }
}

/// Entities by id. An id of up to 15 bytes (most: `U123456`, `L04212`) is held in
/// the table itself, so that finding one reads no string elsewhere and listing one
/// allocates nothing (a million units are listed when a world is built); longer
/// ids are kept as strings.
#[derive(Debug, Default, Clone)]
struct Ids {
    short: crate::core::data::FastMap<u128, Entity>,
    long: crate::core::data::FastMap<Tag, Entity>,
}

impl Ids {
    /// `id` as an inline key: its bytes, and its length in the last byte (so no
    /// two ids share a key).
    fn short(id: &str) -> Option<u128> {
        let b = id.as_bytes();
        (b.len() < 16).then(|| {
            let mut k = [0u8; 16];
            k[..b.len()].copy_from_slice(b);
            k[15] = b.len() as u8;
            u128::from_le_bytes(k)
        })
    }
    fn insert(&mut self, id: &str, e: Entity) {
        match Self::short(id) {
            Some(k) => self.short.insert(k, e),
            None => self.long.insert(id.to_string(), e),
        };
    }
    fn remove(&mut self, id: &str) {
        match Self::short(id) {
            Some(k) => self.short.remove(&k),
            None => self.long.remove(id),
        };
    }
    fn get(&self, id: &str) -> Option<Entity> {
        match Self::short(id) {
            Some(k) => self.short.get(&k),
            None => self.long.get(id),
        }
        .copied()
    }
    fn reserve(&mut self, n: usize) {
        self.short.reserve(n);
    }
}

/// The units in report order, kept so that adding a unit after another, moving one
/// before another and removing one each cost a logarithm of the units, not a scan
/// of them (a month of a million units adds and loses thousands).
///
/// Each unit has a key; report order is the order of the keys. Keys are spread
/// [`UnitOrder::GAP`] apart, so a unit put between two others takes the key
/// halfway; when no key is left between two units, all are numbered again. The
/// list in order is made again only when asked for after a change.
#[derive(Debug, Default, Clone)]
struct UnitOrder {
    by_key: std::collections::BTreeMap<u64, Entity>,
    /// Each unit's key, by entity index (0: not listed).
    key_of: Vec<u64>,
    list: std::sync::OnceLock<Vec<Entity>>,
}

impl UnitOrder {
    /// The room between two keys numbered afresh.
    const GAP: u64 = 1 << 20;

    fn key(&self, u: Entity) -> Option<u64> {
        let k = *self.key_of.get(u.index_u32() as usize)?;
        (k != 0 && self.by_key.get(&k) == Some(&u)).then_some(k)
    }
    fn list(&self) -> &[Entity] {
        self.list.get_or_init(|| self.by_key.values().copied().collect())
    }
    fn set(&mut self, u: Entity, k: u64) {
        let i = u.index_u32() as usize;
        if i >= self.key_of.len() {
            self.key_of.resize(i + 1, 0);
        }
        self.key_of[i] = k;
        self.by_key.insert(k, u);
        self.list.take();
    }
    fn push(&mut self, u: Entity) {
        let last = self.by_key.last_key_value().map_or(0, |(&k, _)| k);
        self.set(u, last + Self::GAP);
    }
    /// [`UnitOrder::push`] of each of `units`, the tree built in one go.
    fn push_all(&mut self, units: &[Entity]) {
        let last = self.by_key.last_key_value().map_or(0, |(&k, _)| k);
        let mut more: std::collections::BTreeMap<u64, Entity> = units
            .iter()
            .enumerate()
            .map(|(n, &u)| {
                let k = last + (n as u64 + 1) * Self::GAP;
                let i = u.index_u32() as usize;
                if i >= self.key_of.len() {
                    self.key_of.resize(i + 1, 0);
                }
                self.key_of[i] = k;
                (k, u)
            })
            .collect();
        self.by_key.append(&mut more);
        self.list.take();
    }
    fn remove(&mut self, u: Entity) {
        if let Some(k) = self.key(u) {
            self.by_key.remove(&k);
            self.key_of[u.index_u32() as usize] = 0;
            self.list.take();
        }
    }
    /// Puts `u` between `a` (listed) and the unit after it.
    fn insert_after(&mut self, u: Entity, a: Entity) {
        let ka = self.key(a).expect("listed");
        let next = self.by_key.range(ka + 1..).next().map(|(&k, _)| k);
        match next {
            None => self.push(u),
            Some(kb) if kb - ka >= 2 => self.set(u, ka + (kb - ka) / 2),
            Some(_) => {
                self.renumber();
                self.insert_after(u, a);
            }
        }
    }
    /// Puts `u` between `b` (listed) and the unit before it.
    fn insert_before(&mut self, u: Entity, b: Entity) {
        let kb = self.key(b).expect("listed");
        let before = self.by_key.range(..kb).next_back().map(|(&k, _)| k).unwrap_or(0);
        if kb - before >= 2 {
            self.set(u, before + (kb - before) / 2);
        } else {
            self.renumber();
            self.insert_before(u, b);
        }
    }
    /// Spreads the keys [`UnitOrder::GAP`] apart again, in the same order.
    fn renumber(&mut self) {
        let units: Vec<Entity> = self.by_key.values().copied().collect();
        self.by_key.clear();
        for (i, &u) in units.iter().enumerate() {
            let k = (i as u64 + 1) * Self::GAP;
            self.key_of[u.index_u32() as usize] = k;
            self.by_key.insert(k, u);
        }
        self.list.take();
    }
}

#[cfg(test)]
mod unit_order_tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The order as a plain list would keep it, against the keyed order, over many
    /// random additions, moves and removals, including thousands at one spot (which
    /// use up the room between two keys and make the keys be numbered again).
    #[test]
    fn the_keyed_order_is_the_order_a_plain_list_keeps() {
        for seed in 0..40u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut world = World::new();
            let mut dir = Directory::default();
            let mut plain: Vec<Entity> = Vec::new();
            let mut n = 0;
            for _ in 0..rng.random_range(0..20) {
                let e = world.spawn_empty().id();
                n += 1;
                dir.insert(Kind::Unit, &format!("U{n}"), e);
                plain.push(e);
            }
            let crowd = seed % 4 == 0;
            for _ in 0..600 {
                let pick = |rng: &mut ChaCha8Rng, plain: &[Entity]| plain[rng.random_range(0..plain.len())];
                match rng.random_range(0..10) {
                    0..=4 => {
                        let e = world.spawn_empty().id();
                        n += 1;
                        let after = (!plain.is_empty() && rng.random_range(0..5) > 0)
                            .then(|| if crowd { plain[0] } else { pick(&mut rng, &plain) });
                        dir.insert_unit_after(&format!("U{n}"), e, after);
                        let at = after.map_or(plain.len(), |a| plain.iter().position(|&x| x == a).unwrap() + 1);
                        plain.insert(at, e);
                    }
                    5..=6 if !plain.is_empty() => {
                        let e = pick(&mut rng, &plain);
                        dir.remove(Kind::Unit, "", e);
                        plain.retain(|&x| x != e);
                        world.despawn(e);
                    }
                    7..=8 if !plain.is_empty() => {
                        let (u, b) = (pick(&mut rng, &plain), if crowd { plain[0] } else { pick(&mut rng, &plain) });
                        dir.move_unit_before(u, b);
                        if u != b {
                            plain.retain(|&x| x != u);
                            let at = plain.iter().position(|&x| x == b).unwrap();
                            plain.insert(at, u);
                        }
                    }
                    9 => {
                        // Units listed at once, as a world being built lists them.
                        let mut batch = Vec::new();
                        for _ in 0..rng.random_range(1..6) {
                            n += 1;
                            batch.push((format!("U{n}"), world.spawn_empty().id()));
                        }
                        dir.insert_units(batch.iter().map(|(id, e)| (id.as_str(), *e)));
                        plain.extend(batch.iter().map(|x| x.1));
                        for (id, e) in &batch {
                            assert_eq!(dir.get(Kind::Unit, id), Some(*e));
                        }
                    }
                    _ => {}
                }
                if rng.random_range(0..4) == 0 {
                    assert_eq!(dir.units(), &plain[..], "seed {seed}");
                }
            }
            assert_eq!(dir.units(), &plain[..], "seed {seed}");
            let keys: Vec<u64> = plain.iter().map(|&u| dir.unit_key(u).expect("listed")).collect();
            assert!(keys.windows(2).all(|w| w[0] < w[1]), "keys follow the order, seed {seed}");
            // A removed unit has no key.
            if let Some(&gone) = plain.first() {
                dir.remove(Kind::Unit, "", gone);
                world.despawn(gone);
                assert_eq!(dir.unit_key(gone), None);
            }
        }
    }
}

#[cfg(test)]
mod by_faction_tests {
    use super::*;
    use crate::systems::overlord::world::components::Owner;

    /// Each faction's units in report order (a unit added after another stands
    /// after it), whatever order the factions were listed in; a unit of no
    /// faction, or of an entity with a listed faction's index but another
    /// generation, is in no list.
    #[test]
    fn units_are_listed_by_faction_in_report_order() {
        let mut world = World::new();
        let mut dir = Directory::default();
        let a = world.spawn_empty().id();
        let b = world.spawn_empty().id();
        // `a`'s index with another generation: not a listed faction.
        let stranger = Entity::from_index_and_generation(a.index(), a.generation().after_versions(1));
        assert_eq!((stranger.index_u32(), stranger == a), (a.index_u32(), false));
        dir.insert(Kind::Faction, "b", b);
        dir.insert(Kind::Faction, "a", a);
        let unit = |world: &mut World, f: Entity| world.spawn(Owner(f)).id();
        let (a1, b1, s1, a2) =
            (unit(&mut world, a), unit(&mut world, b), unit(&mut world, stranger), unit(&mut world, a));
        let loose = world.spawn_empty().id();
        for (n, u) in [a1, b1, s1, a2, loose].into_iter().enumerate() {
            dir.insert(Kind::Unit, &format!("U{n}"), u);
        }
        let b2 = unit(&mut world, b);
        dir.insert_unit_after("U9", b2, Some(a1));
        assert_eq!(dir.units_by_faction(&world), vec![vec![b2, b1], vec![a1, a2]]);
    }
}

#[cfg(test)]
mod ids_tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The ids table finds what a plain map of strings finds, over random
    /// listings and removals of ids of every length around the inline limit,
    /// among them ids that differ only by a trailing NUL or by their length.
    #[test]
    fn ids_are_found_as_a_map_of_strings_finds_them() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut world = World::new();
        let mut ids = Ids::default();
        let mut plain: std::collections::BTreeMap<String, Entity> = Default::default();
        let pool: Vec<String> = (0..40)
            .flat_map(|n| {
                let base: String = (0..n).map(|i| (b'A' + (i % 26) as u8) as char).collect();
                [base.clone(), format!("{base}\0"), format!("U{n}")]
            })
            .collect();
        for _ in 0..5000 {
            let id = &pool[rng.random_range(0..pool.len())];
            if rng.random_range(0..3) == 0 {
                ids.remove(id);
                plain.remove(id);
            } else {
                let e = world.spawn_empty().id();
                ids.insert(id, e);
                plain.insert(id.clone(), e);
            }
            let probe = &pool[rng.random_range(0..pool.len())];
            assert_eq!(ids.get(probe), plain.get(probe).copied(), "{probe:?}");
        }
        for id in &pool {
            assert_eq!(ids.get(id), plain.get(id).copied(), "{id:?}");
        }
        assert!(ids.short.len() + ids.long.len() == plain.len());
        assert!(!ids.long.is_empty() && !ids.short.is_empty(), "both kinds of id were used");
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

/// How many times a unit has gone over to another faction since the world was
/// built ([`crate::systems::overlord::world::change_faction`]): whoever keeps an
/// index of units by faction for a day rebuilds it when this changes.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct FactionChanges(pub u64);

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
