//! Who watches at a place: the best observation of each faction's units there,
//! and the factions present in the order of their first unit there (report order).
//!
//! A place's watch is reckoned when first asked for, from the units there, and
//! kept while nothing there changes ([`WatchKey`]): so a question reads the units
//! of its own place, never every unit of the world, and a place asked about a
//! hundred times between two changes sorts its units once. A place's factions are
//! sorted, so a place crowded with factions costs `n log n`, never `n²`.

use bevy_ecs::entity::{Entity, EntityHashMap};

/// What a place's watch was reckoned from: it is reckoned again when either
/// changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WatchKey {
    /// The changes at the place so far: units that came or left, set out or
    /// ended a journey, changed faction or observation (the place's
    /// [`Occupants::changes`](crate::systems::overlord::world::components::Occupants::changes)).
    pub place: u32,
    /// The changes to the report order of units so far (which unit of a place
    /// comes first).
    pub order: u64,
}

/// The watch of one place (see the module).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlaceWatch {
    /// Each faction with units there and the best observation of its units there,
    /// sorted by faction.
    sides: Vec<(Entity, i32)>,
    /// The factions in the order of their first unit there.
    present: Vec<Entity>,
}

impl PlaceWatch {
    /// The watch of a place whose units are `units`, each as (report order key,
    /// faction, observation), in any order; `units` is left sorted by faction.
    pub fn new(units: &mut [(u64, Entity, i32)]) -> Self {
        units.sort_unstable_by_key(|x| (x.1.to_bits(), x.0));
        let mut sides = Vec::new();
        let mut firsts: Vec<(u64, Entity)> = Vec::new();
        for side in units.chunk_by(|a, b| a.1 == b.1) {
            let best = side.iter().map(|x| x.2).max().unwrap_or(i32::MIN);
            sides.push((side[0].1, best));
            firsts.push((side[0].0, side[0].1));
        }
        firsts.sort_unstable_by_key(|x| x.0);
        PlaceWatch { sides, present: firsts.into_iter().map(|x| x.1).collect() }
    }

    /// The best observation of faction `f`'s units there.
    pub fn best(&self, f: Entity) -> Option<i32> {
        let k = self.sides.binary_search_by_key(&f.to_bits(), |x| x.0.to_bits()).ok()?;
        Some(self.sides[k].1)
    }

    /// The factions with units there, in the order of their first unit there.
    pub fn present(&self) -> &[Entity] {
        &self.present
    }
}

/// The places' watches reckoned so far, each with what it was reckoned from.
#[derive(Debug, Default)]
pub struct WatchBook {
    places: EntityHashMap<(WatchKey, PlaceWatch)>,
    /// Kept from one reckoning to the next.
    units: Vec<(u64, Entity, i32)>,
}

impl WatchBook {
    /// The watch of `place` as of `key`: the one kept, or one reckoned afresh from
    /// the units `units` gives (in `units`' buffer) when none was kept for `key`.
    pub fn get(
        &mut self,
        place: Entity,
        key: WatchKey,
        units: impl FnOnce(&mut Vec<(u64, Entity, i32)>),
    ) -> &PlaceWatch {
        if self.places.get(&place).is_none_or(|e| e.0 != key) {
            self.units.clear();
            units(&mut self.units);
            self.places.insert(place, (key, PlaceWatch::new(&mut self.units)));
        }
        &self.places[&place].1
    }

    /// Whether no place's watch is kept.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::PlaceWatch;
    use bevy_ecs::entity::Entity;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    use std::collections::BTreeMap;

    fn entity(i: u32) -> Entity {
        Entity::from_raw_u32(i).unwrap()
    }

    /// A place's watch answers as the plain maps it replaces: the best observation
    /// by faction, and the factions in the order of their first unit (by report
    /// key); over random places, crowded and empty, the units given in any order.
    #[test]
    fn a_places_watch_answers_as_maps_of_its_units() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for round in 0..300 {
            let factions = 1 + round % 29;
            let n = rng.random_range(0..200);
            // Report keys are distinct; the units come in a shuffled order.
            let mut units: Vec<(u64, Entity, i32)> = (0..n)
                .map(|k| (k as u64 * 7 + 3, entity(1000 + rng.random_range(0..factions)), rng.random_range(-3..50)))
                .collect();
            let mut best: BTreeMap<Entity, i32> = BTreeMap::new();
            let mut present: Vec<Entity> = Vec::new();
            for &(_, f, o) in &units {
                let b = best.entry(f).or_insert(i32::MIN);
                if *b == i32::MIN {
                    present.push(f);
                }
                *b = (*b).max(o);
            }
            for i in (1..units.len()).rev() {
                units.swap(i, rng.random_range(0..=i));
            }
            let w = PlaceWatch::new(&mut units);
            assert_eq!(w.present(), present.as_slice(), "round {round}");
            for f in (0..factions + 1).map(|i| entity(1000 + i)) {
                assert_eq!(w.best(f), best.get(&f).copied(), "round {round}");
            }
        }
    }
}
