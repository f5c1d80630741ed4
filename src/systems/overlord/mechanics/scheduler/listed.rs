//! What each unit's order list holds that a pass could act on, kept from day to
//! day: the passes read the lists of only the units that may have something to
//! do, where every unit's list was read every day.
//!
//! A unit's bits say whether its list holds an order the immediate passes look
//! at and could act on ([`IMMEDIATE`], [`super::actionable`]), whatever the day:
//! an order asleep today, or one that already ran today, still counts. So a unit
//! whose bit is clear has nothing the passes would step it for
//! ([`super::worth_stepping`] is false), and one whose bit is set is looked at
//! as before. The units whose bit is set are kept in a list of their own too, so
//! that the immediate passes find them without reading every unit's bits. (The
//! full-day pass reads every unit's list anyway: a unit with nothing to do there
//! works, PFX-WORK.)
//!
//! The bits are brought up to date before a pass looks at them, from the units
//! whose list or race changed since they last were (their change ticks, read a
//! table at a time), and every unit's the first time. Whoever changes a list,
//! the scheduler or another mechanic, changes its tick: nothing else needs to
//! tell. The passes' own steps, which book the order they ran in the list (the
//! day it ran, how far it got) and take out those that finished, change the
//! tick only when what the list holds changes (`super::step`).

use super::{Stepping, actionable};
use crate::core::engine::by_entity::ByEntity;
use crate::systems::overlord::orders::queue::{Pass, Queued};
use crate::systems::overlord::world::components::{Orders, Race};
use bevy_ecs::change_detection::Tick;
use bevy_ecs::prelude::*;

/// The list holds an order the immediate passes could act on.
pub const IMMEDIATE: u8 = 1;

/// The bits of every unit, by entity index, as of a tick.
#[derive(Default)]
pub struct Listed {
    slots: ByEntity<u8>,
    /// The units whose bits were set to [`IMMEDIATE`], each once, and perhaps
    /// some whose bits have been cleared since or that are gone
    /// ([`Listed::immediate`] leaves those out). A unit is added when its bits
    /// become [`IMMEDIATE`]; one whose bits were cleared is left out at the next
    /// look, before its bits can be set again.
    immediate: Vec<Entity>,
    /// The world's change tick when the bits were last brought up to date; none
    /// before the first time.
    as_of: Option<Tick>,
    /// What reads the lists and races, kept from one time to the next.
    query: Option<QueryState<Lists>>,
}

impl std::fmt::Debug for Listed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Listed").field("slots", &self.slots.slots()).field("as_of", &self.as_of).finish()
    }
}

/// A unit's list and race, with their change ticks.
type Lists = (Entity, Ref<'static, Orders>, Ref<'static, Race>);

impl Listed {
    /// Unit `u`'s bits, if they are known (a unit spawned since, or not a unit
    /// with a list and a race, has none: look at its list).
    pub fn get(&self, u: Entity) -> Option<u8> {
        self.slots.get(u).copied()
    }

    fn set(&mut self, u: Entity, bits: u8) {
        let had = self.get(u).is_some_and(|b| b & IMMEDIATE != 0);
        self.slots.set(u, bits);
        if bits & IMMEDIATE != 0 && !had {
            self.immediate.push(u);
        }
    }

    /// The units whose bits say [`IMMEDIATE`], each once, in no particular
    /// order: what the immediate passes look at, without reading every unit's
    /// bits. Looked at each time the bits are brought up to date
    /// ([`bring_up_to_date`]).
    pub fn immediate(&mut self) -> &[Entity] {
        let Listed { slots, immediate, .. } = self;
        immediate.retain(|&u| slots.get(u).is_some_and(|b| b & IMMEDIATE != 0));
        immediate
    }
}

/// The bits of `list`, for a unit of race kind `kind`.
pub fn bits_of(list: &[Queued], cx: &Stepping, kind: crate::systems::overlord::data::RaceKind) -> u8 {
    let immediate =
        list.iter().any(|q| Pass::Immediate.admits(&q.entry.order) && actionable(&q.entry.order, &cx.handlers, kind));
    if immediate { IMMEDIATE } else { 0 }
}

/// Brings `listed` up to date: the bits of the units whose list or race changed
/// since it last was (every unit's the first time), then moves the world's
/// change tick on, so that what changes from now on is newer than the bits.
pub fn bring_up_to_date(world: &mut World, listed: &mut Listed, cx: &Stepping) {
    let now = world.change_tick();
    let mut q = listed.query.take().unwrap_or_else(|| world.query::<Lists>());
    let since = listed.as_of;
    let newer = |t: Tick| since.is_none_or(|s| t.is_newer_than(s, now));
    let kinds = &cx.kinds;
    match (since, q.contiguous_iter(world)) {
        // A table at a time: the ticks of the two columns compared in one pass.
        (Some(_), Ok(tables)) => {
            for (entities, orders, races) in tables {
                let (list_ticks, race_ticks) = (orders.changed_ticks_slice(), races.changed_ticks_slice());
                let (lists, races) = (orders.into_inner(), races.into_inner());
                for (i, (&lt, &rt)) in list_ticks.iter().zip(race_ticks).enumerate() {
                    if newer(lt) || newer(rt) {
                        listed.set(entities[i], bits_of(&lists[i].0, cx, kinds[races[i].0.index()]));
                    }
                }
            }
        }
        _ => {
            for (u, list, race) in q.iter(world) {
                if newer(list.last_changed()) || newer(race.last_changed()) {
                    listed.set(u, bits_of(&list.0, cx, kinds[race.0.index()]));
                }
            }
        }
    }
    listed.as_of = Some(now);
    listed.query = Some(q);
    world.increment_change_tick();
}
