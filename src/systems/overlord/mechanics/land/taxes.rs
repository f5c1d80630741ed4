//! Taxes and occupation (OWN-TAX, OWN-OCCUPY, OWN-FORCE).
//!
//! * **Taxes** of a place, a month: its population × `tax_per_hundred` / 100 ×
//!   the season's `tax_percent` / 100 (`economy.ron` `land`; autumn +25%). At the
//!   start of each day ([`levy`], the plan's `levy` step) the day's share (the
//!   month's taxes spread evenly over its days, remainders to the later days)
//!   comes into the place's tax pool, which never grows past a month's taxes by
//!   levies (what the market's spread adds stays).
//! * **Occupation**: at each day's end (into [`Occupation`]) ([`collect`], the plan's `taxes` step) a
//!   place is occupied by the faction, other than its owner and not held allied
//!   by it (`Aid`), with the most figures in units able to do combat damage there,
//!   when they are a significant force: one figure per `people_per_figure`
//!   people, within `min_figures`..`max_figures` (`force`).
//! * **Collection**: then the legal owner's faction takes the pool of each place
//!   it owns that is not occupied, into its funds. On the month's last day each
//!   faction is told, place by place, what it collected in the month. A place
//!   taxed in the month has its optimum lowered by `tax_optimum_percent` at month
//!   end ([`taxed`], read by the population's month end).

use crate::core::engine::plan::Clock;
use crate::systems::overlord::data::{ForceRule, StanceGrant};
use crate::systems::overlord::mechanics::diplomacy::grants;
use crate::systems::overlord::mechanics::scheduler::label;
use crate::systems::overlord::mechanics::stats::{Armed, UnitStats};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, Diplomacy, Events, Figures, Funds, Journey, LandOwner, Livelihood, Location, Occupants, Owner, Population,
};
use crate::systems::overlord::world::resources::{Directory, Month, Occupation};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

/// The month's occupiers and taxes collected, by place.
#[derive(Resource, Debug, Default)]
pub struct LandBook {
    /// Taxes collected this month, by place: the faction and the coins. The places
    /// taxed this month (their optimum falls at month end).
    pub collected: EntityHashMap<(Entity, u64)>,
    /// Places their owner pillaged this month, and the owner (OWN-SELF-PILLAGE).
    pub self_pillaged: EntityHashMap<Entity>,
    /// The last day each place was pillaged (its harm comes once a day).
    pub pillaged: EntityHashMap<u32>,
}

/// A month's taxes of a place of `people` in month `month` (OWN-TAX).
pub fn monthly_taxes(catalog: &Catalog, month: u32, people: u32) -> u64 {
    let per = u64::from(catalog.rules.economy.land.tax_per_hundred);
    let season = catalog.season(month).map_or(100, |s| u64::from(s.system.tax_percent));
    u64::from(people) * per / 100 * season / 100
}

/// Whether a unit with these statistics can do combat damage (OWN-FORCE): it
/// strikes with some damage, in melee or with missiles.
pub fn does_damage(s: &UnitStats) -> bool {
    s.does_damage()
}

/// The plan's `levy` step: the day's taxes come into each place's pool.
pub fn levy(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let month = world.resource::<Month>().0;
    let (day, days) = {
        let c = world.resource::<Clock>();
        (u64::from(c.tick.max(1)), u64::from(c.ticks.max(1)))
    };
    if day == 1 {
        // A new month's book.
        let mut book = world.resource_mut::<LandBook>();
        book.collected.clear();
        book.pillaged.clear();
    }
    let mut q = world.query::<(&Population, &mut Livelihood)>();
    for (p, mut v) in q.iter_mut(world) {
        if p.0 == 0 {
            continue;
        }
        let month_taxes = monthly_taxes(&catalog, month, p.0);
        if month_taxes == 0 {
            continue;
        }
        let share = month_taxes * day / days - month_taxes * (day - 1) / days;
        if share > 0 && v.tax_pool < month_taxes {
            v.tax_pool = (v.tax_pool + share).min(month_taxes);
        }
    }
}

/// The plan's `taxes` step: occupation is reckoned, owners collect.
pub fn collect(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let Some(money) = catalog.money() else { return };
    let mut watch = match world.remove_resource::<Watch>() {
        Some(w) => w,
        None => Watch {
            places: world.query_filtered(),
            units: world.query_filtered(),
            stances: world.query_filtered(),
            owners: world.query_filtered(),
            pools: world.query(),
            funds: world.query(),
            owned: Vec::new(),
        },
    };
    let occupied = reckon(world, &catalog.rules.economy.land.force, &mut watch);
    // The places with an owner, kept from day to day: most have none. Those
    // whose owner changed are merged in, in one pass over the kept ones (the
    // first day, every owned place: no insertion shifts the rest).
    let mut changed: Vec<(Entity, bool)> = watch.owners.iter(world).map(|(l, o)| (l, o.0.is_some())).collect();
    if !changed.is_empty() {
        changed.sort_unstable_by_key(|c| c.0);
        watch.owned = merge_owned(&watch.owned, &changed);
    }
    #[cfg(test)]
    {
        let mut q = world.query::<(Entity, &LandOwner)>();
        let mut all: Vec<Entity> = q.iter(world).filter(|(_, o)| o.0.is_some()).map(|(l, _)| l).collect();
        all.sort_unstable();
        assert_eq!(all, watch.owned, "the places kept as owned are those that have an owner");
    }
    let mut book = world.remove_resource::<LandBook>().unwrap_or_default();
    // The pools the owners take (in any order: each goes to its own place's
    // owner, and funds are kept sorted); each place's owner and pool are found
    // with one lookup, every day, for every owned place.
    let mut taken: Vec<(Entity, Entity, u64)> = Vec::new();
    for &l in &watch.owned {
        if occupied.contains_key(&l) {
            continue;
        }
        let Ok((owner, mut v)) = watch.pools.get_mut(world, l) else { continue };
        let Some(owner) = owner.0.as_ref().map(|x| x.0) else { continue };
        if v.tax_pool == 0 {
            continue;
        }
        taken.push((l, owner, std::mem::take(&mut v.tax_pool)));
    }
    for (l, owner, pool) in taken {
        let Ok(mut funds) = watch.funds.get_mut(world, owner) else {
            world.get_mut::<Livelihood>(l).expect("place").tax_pool = pool;
            continue;
        };
        match funds.0.iter_mut().find(|x| x.0 == money) {
            Some(x) => x.1 += pool,
            None => {
                funds.0.push((money, pool));
                funds.0.sort_by_key(|x| x.0);
            }
        }
        let e = book.collected.entry(l).or_insert((owner, 0));
        *e = (owner, e.1 + pool);
    }
    world.insert_resource(watch);
    let (day, last) = {
        let c = world.resource::<Clock>();
        (c.tick, c.tick >= c.ticks)
    };
    if last {
        let places = world.resource::<Directory>().locations.clone();
        for &l in &places {
            let Some(&(f, n)) = book.collected.get(&l) else { continue };
            let text = format!("{} taxes from {} collected.", catalog.items_text(money, n), label(world, l));
            if let Some(mut e) = world.get_mut::<Events>(f) {
                e.push(day, text);
            }
        }
    }
    world.insert_resource(book);
    world.insert_resource(Occupation(occupied));
}

/// The owned places `owned` (in entity order) after the places of `changed`
/// (in entity order, each once) came to have an owner (`true`) or none.
fn merge_owned(owned: &[Entity], changed: &[(Entity, bool)]) -> Vec<Entity> {
    let mut out = Vec::with_capacity(owned.len() + changed.len());
    let mut i = 0;
    for &(l, has_owner) in changed {
        while i < owned.len() && owned[i] < l {
            out.push(owned[i]);
            i += 1;
        }
        if owned.get(i) == Some(&l) {
            i += 1;
        }
        if has_owner {
            out.push(l);
        }
    }
    out.extend_from_slice(&owned[i..]);
    out
}

/// Whether the owner of `place` collected taxes there this month (POP-OPTIMA:
/// "Taxing decreases the optima", reckoned by the population at month end).
pub fn taxed(world: &World, place: Entity) -> bool {
    world.get_resource::<LandBook>().is_some_and(|b| b.collected.contains_key(&place))
}

/// A place whose units, people or owner changed.
type PlaceChanged = Or<(Changed<Occupants>, Changed<Population>, Changed<LandOwner>)>;
/// A unit whose figures, arms or faction changed.
type UnitChanged = Or<(Changed<Figures>, Changed<Armed>, Changed<Owner>)>;

/// What the `taxes` step looks at to find what changed since it last ran: for
/// the reckoning of occupation ([`reckon`]), the places whose units came or
/// went, set out or arrived or changed faction ([`Occupants`]), whose people or
/// owner changed, the units whose figures, arms or faction changed, and the
/// factions whose stances changed; for the collection, the places whose owner
/// changed, and those that have one.
#[derive(Resource)]
struct Watch {
    places: QueryState<Entity, (With<Location>, PlaceChanged)>,
    units: QueryState<&'static At, UnitChanged>,
    stances: QueryState<(), Changed<Diplomacy>>,
    owners: QueryState<(Entity, &'static LandOwner), Changed<LandOwner>>,
    /// A place's owner and tax pool, and a faction's funds, for the day's taking.
    pools: QueryState<(&'static LandOwner, &'static mut Livelihood)>,
    funds: QueryState<&'static mut Funds>,
    /// The places that have an owner, in entity order.
    owned: Vec<Entity>,
}

/// The faction occupying each place where some faction's significant force stands
/// (OWN-OCCUPY, OWN-FORCE), as of this day's end. The first day the world has,
/// and any day a faction's stances changed (whether an owner holds a force allied
/// reaches every place it owns), every place is reckoned ([`occupiers`]); on the
/// others yesterday's occupation is kept but for the places where what decides it
/// may have changed ([`Watch`]), each reckoned from its units ([`occupier_at`]).
/// The same map either way (in tests, every day compares the two; and
/// `an_occupation_begins_when_the_force_arrives_and_ends_when_it_leaves_own_occupy`).
fn reckon(world: &mut World, force: &ForceRule, watch: &mut Watch) -> EntityHashMap<Entity> {
    let previous = world.remove_resource::<Occupation>();
    let changed_stances = watch.stances.iter(world).next().is_some();
    let result = match previous {
        Some(Occupation(mut occupied)) if !changed_stances => {
            let mut dirty: Vec<Entity> = watch.places.iter(world).collect();
            dirty.extend(watch.units.iter(world).map(|at| at.location));
            dirty.sort_unstable();
            dirty.dedup();
            let least = force.figures_for(0);
            let (mut here, mut sides) = (Vec::new(), Vec::new());
            for l in dirty {
                here.clear();
                for &u in crate::systems::overlord::world::components::occupants(world, l) {
                    let r = world.entity(u);
                    if r.contains::<Journey>() {
                        continue;
                    }
                    let (Some(o), Some(n), Some(armed)) = (r.get::<Owner>(), r.get::<Figures>(), r.get::<Armed>())
                    else {
                        continue;
                    };
                    if let Some(n) = force_figures(n, armed) {
                        here.push((o.0, n));
                    }
                }
                match occupier_at(world, force, least, l, &mut here, &mut sides) {
                    Some(f) => occupied.insert(l, f),
                    None => occupied.remove(&l),
                };
            }
            occupied
        }
        _ => occupiers(world, force),
    };
    // Every test that plays a day holds the kept occupation to a full reckoning.
    #[cfg(test)]
    assert_eq!(result, occupiers(world, force), "occupation kept from day to day differs from a full reckoning");
    result
}

/// The faction occupying each place where some faction's significant force stands
/// (OWN-OCCUPY, OWN-FORCE), every place reckoned.
fn occupiers(world: &mut World, force: &ForceRule) -> EntityHashMap<Entity> {
    // (faction, armed figures) of every armed unit, chained by place: `first` of
    // a place's entity index is its last unit's position, `next` of a position the
    // one before it at the same place (so a place's units are found without
    // sorting or hashing all of them).
    // Whether a unit does damage is kept beside its statistics ([`Armed`]), brought
    // up to date in this step before this reckoning: a byte a unit read here every
    // day, not its whole statistics.
    let mut q = world.query_filtered::<(&At, &Owner, &Figures, &Armed), Without<Journey>>();
    let most = q.iter(world).size_hint().1.unwrap_or(0);
    let mut armed: Vec<(Entity, u32)> = Vec::with_capacity(most);
    let mut next: Vec<u32> = Vec::with_capacity(most);
    let mut first: Vec<u32> = Vec::new();
    let mut places: Vec<Entity> = Vec::new();
    for (at, o, n, strikes) in q.iter(world) {
        let Some(n) = force_figures(n, strikes) else { continue };
        let i = at.location.index_u32() as usize;
        if i >= first.len() {
            first.resize(i + 1, u32::MAX);
        }
        if first[i] == u32::MAX {
            places.push(at.location);
        }
        next.push(first[i]);
        first[i] = armed.len() as u32;
        armed.push((o.0, n));
    }
    // No place needs fewer figures than a place without people.
    let least = force.figures_for(0);
    // Places in the order they are stored (the order of their ids), not the order
    // their first armed unit was met in: their people and owner are then read
    // from memory one after another, not each from anywhere. The result is a map:
    // the order changes nothing in it.
    places.sort_unstable_by_key(|l| l.index_u32());
    let mut out = EntityHashMap::default();
    let mut here: Vec<(Entity, u32)> = Vec::new();
    let mut sides: Vec<(Entity, u32)> = Vec::new();
    for &l in &places {
        here.clear();
        let mut k = first[l.index_u32() as usize];
        while k != u32::MAX {
            here.push(armed[k as usize]);
            k = next[k as usize];
        }
        if let Some(f) = occupier_at(world, force, least, l, &mut here, &mut sides) {
            out.insert(l, f);
        }
    }
    out
}

/// The figures a unit not on a journey adds to its faction's force where it
/// stands: all of them when it does damage, none otherwise (OWN-FORCE).
fn force_figures(n: &Figures, armed: &Armed) -> Option<u32> {
    (n.0 > 0 && armed.0).then_some(n.0)
}

/// The faction occupying place `l`, given `here`, the (faction, figures) of its
/// armed units not on a journey, in any order (the best side is found by figures,
/// then by faction seniority); `least` is the fewest figures any place needs.
/// `here` is sorted, `sides` is room to work in.
fn occupier_at(
    world: &World,
    force: &ForceRule,
    least: u32,
    l: Entity,
    here: &mut [(Entity, u32)],
    sides: &mut Vec<(Entity, u32)>,
) -> Option<Entity> {
    here.sort_unstable_by_key(|x| x.0.to_bits());
    sides.clear();
    for side in here.chunk_by(|a, b| a.0 == b.0) {
        sides.push((side[0].0, side.iter().fold(0u32, |n, x| n.saturating_add(x.1))));
    }
    if sides.iter().all(|&(_, n)| n < least) {
        return None;
    }
    let seq = |f: Entity| world.get::<crate::systems::overlord::world::components::Seq>(f).map_or(u32::MAX, |s| s.0);
    let people = world.get::<Population>(l).map_or(0, |p| p.0);
    let need = force.figures_for(people);
    let owner = world.get::<LandOwner>(l).and_then(|o| o.0.as_ref().map(|x| x.0));
    sides
        .iter()
        .filter(|&&(f, n)| {
            n >= need && Some(f) != owner && owner.is_none_or(|o| !grants(world, o, f, StanceGrant::Aid))
        })
        .max_by_key(|&&(f, n)| (n, std::cmp::Reverse(seq(f))))
        .map(|&(f, _)| f)
}

#[cfg(test)]
mod tests {
    use super::merge_owned;
    use bevy_ecs::prelude::*;
    use rand::RngExt;

    /// The owned places merged with the day's changes are those a set of the
    /// places, changed one at a time, holds: in entity order, each once, over
    /// many seeded draws of owned places and changes (first days, when every
    /// place changes, among them).
    #[test]
    fn the_owned_places_merged_with_the_changes_are_those_changed_one_at_a_time() {
        let mut world = World::new();
        let places: Vec<Entity> = (0..64).map(|_| world.spawn_empty().id()).collect();
        for draw in 0..500u64 {
            let mut rng = crate::core::engine::rng::stream(draw, 1, "owned places", 0);
            let mut owned: std::collections::BTreeSet<Entity> =
                places.iter().copied().filter(|_| rng.random_bool(0.3)).collect();
            let kept: Vec<Entity> = owned.iter().copied().collect();
            let share = if draw % 10 == 0 { 1.0 } else { 0.2 };
            let mut changed: Vec<(Entity, bool)> = Vec::new();
            for &l in &places {
                if rng.random_bool(share) {
                    changed.push((l, rng.random_bool(0.5)));
                }
            }
            // In entity order, as the day's changes are merged.
            changed.sort_unstable_by_key(|c| c.0);
            for &(l, has_owner) in &changed {
                if has_owner {
                    owned.insert(l);
                } else {
                    owned.remove(&l);
                }
            }
            assert_eq!(merge_owned(&kept, &changed), owned.into_iter().collect::<Vec<_>>(), "draw {draw}");
        }
    }
}
