//! The survey of a month's end: who is where and what each unit shows, indexed once
//! so that a faction's view of a place costs what it sees (VIS-SEE). The knowledge
//! step and the reports read the same survey.

use super::{Facts, Sight};
use crate::core::engine::plan::Clock;
use crate::systems::overlord::data::{ItemFlag, SightRules, SkillLevelReq};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{At, Owner, StackLeader, StackMembers, StructureAt, Titles};
use crate::systems::overlord::world::components::{Resources, Skills};
use crate::systems::overlord::world::ids::ItemId;
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_ecs::entity::EntityHashSet;
use bevy_ecs::prelude::*;
use std::collections::BTreeMap;

/// Places whose units' facts one thread reads at a time.
const PLACES_PER_STRETCH: usize = 2_048;

/// Who is where at a moment of the turn (its [`Clock`] stamp), and what any faction
/// finds of each unit.
#[derive(Resource, Debug)]
pub struct Survey {
    /// The turn and tick it was taken on.
    pub stamp: (u32, u32),
    /// The locations' positions in the directory ([`Survey::place_of`]).
    places: Places,
    /// The units of each location, in directory order.
    pub by_location: Vec<Vec<Entity>>,
    /// Parallel to `by_location`: what any faction finds of each unit.
    pub facts: Vec<Vec<Facts>>,
    /// Per location: the positions of the units that do not show themselves, by
    /// stealth, lowest first; and of those that do.
    by_stealth: Vec<Vec<(i32, u32)>>,
    shown: Vec<Vec<u32>>,
    /// Each unit's position in its location's list, by its entity's index
    /// (`u32::MAX`: none); [`Survey::slot_of`] reads it.
    slot_at: Vec<u32>,
    /// Units holding a title.
    pub holders: EntityHashSet,
    /// The structures of each location, in directory order.
    pub structures_at: Vec<Vec<Entity>>,
}

/// The locations, in directory order, and each one's position by its entity's
/// index (`u32::MAX`: none).
#[derive(Debug)]
struct Places {
    locations: Vec<Entity>,
    at: Vec<u32>,
}

impl Places {
    fn new(locations: &[Entity]) -> Self {
        let mut at = Vec::new();
        for (i, &e) in locations.iter().enumerate() {
            let k = e.index_u32() as usize;
            if k >= at.len() {
                at.resize(k + 1, u32::MAX);
            }
            at[k] = i as u32;
        }
        Places { locations: locations.to_vec(), at }
    }

    /// The position of location `e`, if it is one (an entity of a location's
    /// index but another generation is not).
    fn of(&self, e: Entity) -> Option<usize> {
        let i = *self.at.get(e.index_u32() as usize)? as usize;
        (self.locations.get(i) == Some(&e)).then_some(i)
    }
}

/// How one faction looks at the places where it has units.
#[derive(Debug, Default)]
pub struct View {
    /// Its best observation at each place (by directory position).
    pub best: BTreeMap<usize, i32>,
    /// The units it sees whatever their stealth: its own and those stacked directly
    /// with them, as (place, position), sorted, each once.
    pub near: Vec<(usize, u32)>,
    /// Its own units, by place, in the order given.
    pub own: BTreeMap<usize, Vec<Entity>>,
}

impl View {
    /// The faction's own units at place `l`.
    pub fn own_at(&self, l: usize) -> &[Entity] {
        self.own.get(&l).map_or(&[], Vec::as_slice)
    }
}

impl Survey {
    /// Surveys the world as it stands.
    pub fn new(world: &World) -> Survey {
        let dir = world.resource::<Directory>();
        let places = Places::new(&dir.locations);
        let mut by_location = vec![Vec::new(); dir.locations.len()];
        for &u in dir.units() {
            if let Some(l) = world.get::<At>(u).and_then(|a| places.of(a.location)) {
                by_location[l].push(u);
            }
        }
        let mut holders = EntityHashSet::default();
        for &l in &dir.locations {
            let Some(t) = world.get::<Titles>(l) else { continue };
            holders.extend(t.0.iter().filter_map(|(_, h)| dir.get(Kind::Unit, h.as_deref()?)));
        }
        let mut structures_at = vec![Vec::new(); dir.locations.len()];
        for &s in &dir.structures {
            if let Some(l) = world.get::<StructureAt>(s).and_then(|a| places.of(a.0)) {
                structures_at[l].push(s);
            }
        }
        let clock = world.resource::<Clock>();
        let day = clock.tick;
        // What any faction finds of each unit, a stretch of places at a time on the
        // engine's threads (a read of each unit's skills, items and settings).
        let threads = world.get_resource::<crate::core::engine::ThreadCount>().map_or(1, |t| t.0).max(1);
        let stretches: Vec<&[Vec<Entity>]> = by_location.chunks(PLACES_PER_STRETCH).collect();
        let facts: Vec<Vec<Facts>> = crate::core::engine::parallel::map_ordered(&stretches, threads, |places| {
            places
                .iter()
                .map(|v| v.iter().map(|&u| super::facts(world, u, day, holders.contains(&u))).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        })
        .into_iter()
        .flatten()
        .collect();
        let mut by_stealth = Vec::with_capacity(facts.len());
        let mut shown = Vec::with_capacity(facts.len());
        for v in &facts {
            let mut hiding: Vec<(i32, u32)> =
                v.iter().enumerate().filter(|(_, f)| !f.shows_itself).map(|(p, f)| (f.stealth, p as u32)).collect();
            hiding.sort_unstable();
            by_stealth.push(hiding);
            shown.push(v.iter().enumerate().filter(|(_, f)| f.shows_itself).map(|(p, _)| p as u32).collect());
        }
        let mut slot_at = Vec::new();
        for v in &by_location {
            for (p, &u) in v.iter().enumerate() {
                let k = u.index_u32() as usize;
                if k >= slot_at.len() {
                    slot_at.resize(k + 1, u32::MAX);
                }
                slot_at[k] = p as u32;
            }
        }
        Survey {
            stamp: (clock.turn, clock.tick),
            places,
            by_location,
            facts,
            by_stealth,
            shown,
            slot_at,
            holders,
            structures_at,
        }
    }

    /// The position in the directory of location `e`, if it is one.
    pub fn place_of(&self, e: Entity) -> Option<usize> {
        self.places.of(e)
    }

    /// The position of unit `u` in the list of place `l` (directory position), if
    /// it is there.
    pub fn slot_of(&self, l: usize, u: Entity) -> Option<u32> {
        let p = *self.slot_at.get(u.index_u32() as usize)?;
        (self.by_location.get(l)?.get(p as usize) == Some(&u)).then_some(p)
    }

    /// The survey kept in `world` if it was taken at the present moment.
    pub fn current(world: &World) -> Option<&Survey> {
        let clock = world.get_resource::<Clock>()?;
        world.get_resource::<Survey>().filter(|s| s.stamp == (clock.turn, clock.tick))
    }

    /// How the faction owning `units` looks at their places.
    pub fn view(&self, world: &World, units: &[Entity]) -> View {
        let mut v = View::default();
        let beside = |x: Entity, near: &mut Vec<(usize, u32)>| {
            let l = world.get::<At>(x).and_then(|a| self.place_of(a.location));
            if let Some((l, p)) = l.and_then(|l| Some((l, self.slot_of(l, x)?))) {
                near.push((l, p));
            }
        };
        for &u in units {
            let r = world.entity(u);
            if let Some(l) = r.get::<At>().and_then(|a| self.place_of(a.location)) {
                let o = super::observation(world, u);
                v.best.entry(l).and_modify(|b| *b = (*b).max(o)).or_insert(o);
                v.own.entry(l).or_default().push(u);
                if let Some(p) = self.slot_of(l, u) {
                    v.near.push((l, p));
                }
            }
            if let Some(leader) = r.get::<StackLeader>().and_then(|s| s.0) {
                beside(leader, &mut v.near);
            }
            for &m in r.get::<StackMembers>().map_or(&[][..], |m| m.get()) {
                beside(m, &mut v.near);
            }
        }
        // Sorted, so that a place's are found without reading the others'.
        v.near.sort_unstable();
        v.near.dedup();
        v
    }

    /// VIS-SEE: the units of place `l` (directory position) faction `fe` sees, in
    /// directory order, with what it makes of each.
    pub fn sighted(&self, world: &World, fe: Entity, l: usize, view: &View) -> Vec<(Entity, Sight)> {
        let units = &self.by_location[l];
        let own = |p: u32| world.get::<Owner>(units[p as usize]).is_some_and(|o| o.0 == fe);
        self.sighted_at(super::rules(world), l, view, own).into_iter().map(|(p, s)| (units[p as usize], s)).collect()
    }

    /// [`sighted`](Self::sighted), the units given by their positions in the
    /// place's list ([`Survey::by_location`]); `own(p)` says whether the unit at
    /// position `p` is the faction's.
    pub fn sighted_at(
        &self,
        rules: &SightRules,
        l: usize,
        view: &View,
        own: impl Fn(u32) -> bool,
    ) -> Vec<(u32, Sight)> {
        let observation = view.best.get(&l).copied();
        let hiding = &self.by_stealth[l];
        let seen = observation.map_or(0, |o| hiding.partition_point(|&(s, _)| s <= o));
        let mut list: Vec<u32> = hiding[..seen].iter().map(|&(_, p)| p).collect();
        list.extend_from_slice(&self.shown[l]);
        let from = view.near.partition_point(|&(at, _)| at < l);
        let near = &view.near[from..];
        list.extend(near[..near.partition_point(|&(at, _)| at == l)].iter().map(|&(_, p)| p));
        list.sort_unstable();
        list.dedup();
        list.into_iter()
            .map(|p| {
                let sight = match super::judge(rules, observation, self.facts[l][p as usize]) {
                    _ if own(p) => Sight::Known,
                    Sight::Hidden => Sight::Seen,
                    s => s,
                };
                (p, sight)
            })
            .collect()
    }
}

/// RES-LIST, RES-HIDDEN: the resources of place `l` a faction whose units there are
/// `own` may see, with the count left: the hidden ones only when one of those units
/// has the skill to find them.
pub fn resources_seen(world: &World, l: Entity, own: &[Entity]) -> Vec<(ItemId, u32)> {
    let Some(stock) = world.get::<Resources>(l) else { return Vec::new() };
    let catalog = world.resource::<Catalog>();
    let prospects = |req: &SkillLevelReq| {
        let Some(skill) = catalog.skill(&req.skill) else { return false };
        own.iter().any(|&u| {
            world
                .get::<Skills>(u)
                .is_some_and(|k| k.0.iter().any(|&(s, x)| s == skill && catalog.skill_level(s, x) >= req.level))
        })
    };
    stock
        .0
        .iter()
        .filter(|s| s.current > 0)
        .filter(|s| {
            let def = &catalog.rules.items[s.item.index()].system;
            !def.flags.contains(&ItemFlag::Hidden) || def.prospect_skill.as_ref().is_some_and(prospects)
        })
        .map(|s| (s.item, s.current))
        .collect()
}
