//! Where each faction's units were during the month, and on which days (RPT-LOC:
//! "each location where the faction was"), and the places each faction has ever
//! been to ([`Explored`], the map's memory).
//!
//! A unit is somewhere from the month's first day, or from the day it got there,
//! to the day it is seen elsewhere ([`left`], which the movement mechanic calls
//! whenever a unit's location changes) or the month's last day. A stay is the
//! faction's that owned the unit when it ended. Only changes of place are
//! recorded, so the cost is the month's journeys, not units × days.

use crate::core::engine::plan::Clock;
use crate::systems::overlord::world::components::{At, Explored, Owner, Seq};
use crate::systems::overlord::world::resources::Directory;
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use std::collections::BTreeMap;

/// The month's stays that ended before its end: (faction, place, first day, last
/// day), and the day each unit that moved reached its present place.
#[derive(Resource, Debug, Default)]
pub struct Visits {
    ended: Vec<(Entity, Entity, u32, u32)>,
    since: EntityHashMap<u32>,
}

/// A month starts with no stays recorded.
pub fn start_month(mut v: ResMut<Visits>) {
    v.ended.clear();
    v.since.clear();
}

/// Unit `u` is no longer seen at `place` (it is somewhere else from today).
pub fn left(world: &mut World, u: Entity, place: Entity) {
    let day = world.get_resource::<Clock>().map_or(0, |c| c.tick);
    let Some(owner) = world.get::<Owner>(u).map(|o| o.0) else { return };
    let Some(mut v) = world.get_resource_mut::<Visits>() else { return };
    let from = v.since.insert(u, day).unwrap_or(1);
    v.ended.push((owner, place, from, day));
}

/// Where [`days_present`] finds each faction's days: the month's ended stays
/// (positions in [`Visits`]) by faction, in [`Directory`] faction order. Made once
/// for all reports; each report asks [`days_present`] for its faction's days.
pub fn stays_by_faction(world: &World) -> Vec<Vec<u32>> {
    let dir = world.resource::<Directory>();
    let index: EntityHashMap<usize> = dir.factions.iter().enumerate().map(|(i, &f)| (f, i)).collect();
    let mut out = vec![Vec::new(); dir.factions.len()];
    if let Some(v) = world.get_resource::<Visits>() {
        for (k, &(f, ..)) in v.ended.iter().enumerate() {
            if let Some(&i) = index.get(&f) {
                out[i].push(k as u32);
            }
        }
    }
    out
}

/// The days of the month a faction's units were at each place, by place, as
/// sorted, merged ranges of days: from its ended stays (`stays`, of
/// [`stays_by_faction`]) and its units now (`units`); `last` is the month's last
/// day.
pub fn days_present(world: &World, stays: &[u32], units: &[Entity], last: u32) -> BTreeMap<Entity, Vec<(u32, u32)>> {
    let mut out: BTreeMap<Entity, Vec<(u32, u32)>> = BTreeMap::new();
    let visits = world.get_resource::<Visits>();
    if let Some(v) = visits {
        for &k in stays {
            let (_, place, from, to) = v.ended[k as usize];
            out.entry(place).or_default().push((from, to));
        }
    }
    for &u in units {
        let Some(at) = world.get::<At>(u) else { continue };
        let from = visits.and_then(|v| v.since.get(&u).copied()).unwrap_or(1);
        out.entry(at.location).or_default().push((from, last));
    }
    for ranges in out.values_mut() {
        merge(ranges);
    }
    out
}

/// Sorts day ranges and merges those that overlap or touch.
fn merge(ranges: &mut Vec<(u32, u32)>) {
    ranges.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
    for &(a, b) in ranges.iter() {
        match merged.last_mut() {
            Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    *ranges = merged;
}

/// Month's end: every place a faction's units were at this month joins the places
/// it has explored (kept with the game; `overlord map`).
pub fn record_explored(world: &mut World) {
    let dir = world.resource::<Directory>();
    let factions = dir.factions.clone();
    let mut places: EntityHashMap<Vec<u32>> = EntityHashMap::default();
    if let Some(v) = world.get_resource::<Visits>() {
        for &(f, place, _, _) in &v.ended {
            if let Some(s) = world.get::<Seq>(place) {
                places.entry(f).or_default().push(s.0);
            }
        }
    }
    for &u in world.resource::<Directory>().units() {
        let (Some(o), Some(at)) = (world.get::<Owner>(u), world.get::<At>(u)) else { continue };
        if let Some(s) = world.get::<Seq>(at.location) {
            places.entry(o.0).or_default().push(s.0);
        }
    }
    for f in factions {
        let Some(seen) = places.remove(&f) else { continue };
        if let Some(mut e) = world.get_mut::<Explored>(f) {
            e.0.extend(seen);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn ranges_merge_when_they_touch_or_overlap() {
        let mut r = vec![(5, 9), (1, 3), (4, 4), (20, 30), (12, 15), (14, 18)];
        super::merge(&mut r);
        assert_eq!(r, [(1, 9), (12, 18), (20, 30)]);
    }
}
