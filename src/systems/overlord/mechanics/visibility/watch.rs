//! A day's index of who watches where: the best observation of each faction's
//! units at each place, and the factions present at each place in the order of
//! their first unit there (report order).
//!
//! Built in one pass over the units and a counting sort by place, so that a
//! million units cost a few tens of milliseconds a day, with no hash map of
//! (place, faction) pairs; a place's factions are sorted once, so a place
//! crowded with factions costs `n log n`, never `n²`.

use bevy_ecs::entity::Entity;

/// The index of one day (see the module).
#[derive(Debug, Default)]
pub struct WatchDay {
    /// The turn and day it was built for.
    pub(super) stamp: Option<(u32, u32)>,
    /// A place's factions lie at `start[i]..start[i + 1]` of `sides` and of
    /// `present`, `i` the place's entity index.
    start: Vec<u32>,
    /// The place of each entity index that has units (`None` for the others).
    place: Vec<Option<Entity>>,
    /// Each place's factions with the best observation of their units there,
    /// sorted by faction.
    sides: Vec<(Entity, i32)>,
    /// Each place's factions in the order of their first unit there.
    present: Vec<Entity>,
    /// Kept from one day to the next: the units given, and their counting sort.
    rows: Vec<(Entity, Entity, i32)>,
    first: Vec<u32>,
    fill: Vec<u32>,
    by_place: Vec<u32>,
}

impl WatchDay {
    /// The index of units given as (place, faction, observation), in report order.
    pub fn new(units: impl IntoIterator<Item = (Entity, Entity, i32)>) -> Self {
        let mut day = WatchDay::default();
        day.rebuild(units);
        day
    }

    /// Makes this the index of `units` (as [`WatchDay::new`]), keeping the
    /// memory it had; the stamp is left for the caller.
    pub fn rebuild(&mut self, units: impl IntoIterator<Item = (Entity, Entity, i32)>) {
        let rows = &mut self.rows;
        rows.clear();
        rows.extend(units);
        let places = rows.iter().map(|r| r.0.index_u32() as usize + 1).max().unwrap_or(0);
        // Counting sort by place, stable: each place's units stay in report order.
        let first = &mut self.first;
        first.clear();
        first.resize(places + 1, 0);
        for r in rows.iter() {
            first[r.0.index_u32() as usize + 1] += 1;
        }
        for i in 1..first.len() {
            first[i] += first[i - 1];
        }
        let fill = &mut self.fill;
        fill.clear();
        fill.extend_from_slice(first);
        let by_place = &mut self.by_place;
        by_place.clear();
        by_place.resize(rows.len(), 0);
        for (k, r) in rows.iter().enumerate() {
            let slot = &mut fill[r.0.index_u32() as usize];
            by_place[*slot as usize] = k as u32;
            *slot += 1;
        }
        self.start.clear();
        self.start.push(0);
        self.place.clear();
        self.place.resize(places, None);
        self.sides.clear();
        self.present.clear();
        // (faction, position at the place, observation) of a place's units; then
        // (first position, faction) of its factions.
        let mut here: Vec<(Entity, u32, i32)> = Vec::new();
        let mut firsts: Vec<(u32, Entity)> = Vec::new();
        for p in 0..places {
            let units = &by_place[first[p] as usize..first[p + 1] as usize];
            // Most entity indices are not places with units (units, factions,
            // empty places), and most places hold the units of one faction.
            let Some(&k) = units.first() else {
                self.start.push(self.sides.len() as u32);
                continue;
            };
            let (place, f, _) = rows[k as usize];
            self.place[p] = Some(place);
            if units.iter().all(|&k| rows[k as usize].1 == f) {
                let best = units.iter().map(|&k| rows[k as usize].2).max().unwrap_or(i32::MIN);
                self.sides.push((f, best));
                self.present.push(f);
                self.start.push(self.sides.len() as u32);
                continue;
            }
            here.clear();
            here.extend(units.iter().enumerate().map(|(n, &k)| {
                let (_, f, obs) = rows[k as usize];
                (f, n as u32, obs)
            }));
            here.sort_unstable_by_key(|x| (x.0.to_bits(), x.1));
            firsts.clear();
            for side in here.chunk_by(|a, b| a.0 == b.0) {
                let best = side.iter().map(|x| x.2).max().unwrap_or(i32::MIN);
                self.sides.push((side[0].0, best));
                firsts.push((side[0].1, side[0].0));
            }
            firsts.sort_unstable();
            self.present.extend(firsts.iter().map(|x| x.1));
            self.start.push(self.sides.len() as u32);
        }
    }

    /// Where `place`'s factions lie, if it has units.
    fn range(&self, place: Entity) -> Option<std::ops::Range<usize>> {
        let i = place.index_u32() as usize;
        (self.place.get(i).copied().flatten() == Some(place))
            .then(|| self.start[i] as usize..self.start[i + 1] as usize)
    }

    /// The best observation of faction `f`'s units at `place`.
    pub fn best(&self, place: Entity, f: Entity) -> Option<i32> {
        let sides = &self.sides[self.range(place)?];
        sides.binary_search_by_key(&f.to_bits(), |x| x.0.to_bits()).ok().map(|k| sides[k].1)
    }

    /// The factions with units at `place`, in the order of their first unit there.
    pub fn present(&self, place: Entity) -> &[Entity] {
        self.range(place).map_or(&[], |r| &self.present[r])
    }

    /// Whether no unit is indexed.
    pub fn is_empty(&self) -> bool {
        self.sides.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::WatchDay;
    use bevy_ecs::entity::Entity;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};
    use std::collections::BTreeMap;

    fn entity(i: u32) -> Entity {
        Entity::from_raw_u32(i).unwrap()
    }

    /// The index answers as the plain maps it replaces: the best observation by
    /// (place, faction), and each place's factions in the order of their first
    /// unit; over random worlds, crowded places and empty ones, the index made
    /// again each time in the memory of the last.
    #[test]
    fn the_index_answers_as_maps_of_every_unit() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut day = WatchDay::default();
        for round in 0..200 {
            let (places, factions) = (1 + round % 13, 1 + round % 29);
            let n = rng.random_range(0..400);
            // Places are entities 100.., factions 1000.. (indices apart, as in a world).
            let units: Vec<(Entity, Entity, i32)> = (0..n)
                .map(|_| {
                    let p = entity(100 + 3 * rng.random_range(0..places));
                    let f = entity(1000 + rng.random_range(0..factions));
                    (p, f, rng.random_range(-3..50))
                })
                .collect();
            let mut best: BTreeMap<(Entity, Entity), i32> = BTreeMap::new();
            let mut present: BTreeMap<Entity, Vec<Entity>> = BTreeMap::new();
            for &(p, f, o) in &units {
                let b = best.entry((p, f)).or_insert(i32::MIN);
                if *b == i32::MIN {
                    present.entry(p).or_default().push(f);
                }
                *b = (*b).max(o);
            }
            day.rebuild(units.iter().copied());
            if round == 0 {
                let fresh = WatchDay::new(units.iter().copied());
                assert_eq!((fresh.sides.clone(), fresh.present.clone()), (day.sides.clone(), day.present.clone()));
            }
            assert_eq!(day.is_empty(), units.is_empty());
            for p in (0..places + 2).map(|i| entity(100 + 3 * i)) {
                assert_eq!(day.present(p), present.get(&p).map_or(&[][..], |v| v.as_slice()), "round {round}");
                for f in (0..factions + 1).map(|i| entity(1000 + i)) {
                    assert_eq!(day.best(p, f), best.get(&(p, f)).copied(), "round {round}");
                }
            }
            // An entity that is no place with units is asked in vain.
            assert_eq!(day.best(entity(101), entity(1000)), None);
            assert!(day.present(entity(5000)).is_empty());
        }
    }
}
