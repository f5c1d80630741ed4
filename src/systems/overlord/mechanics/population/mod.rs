//! Population at month end (§13: POP-DRIFT, POP-OPTIMA, POP-MIGRATE, POP-FAMINE,
//! POP-ECON, POP-NEWTOWN; MON-EVOLVE). Recruits leaving (POP-RECRUIT) and disbanded
//! figures joining (POP-DISBAND) happen when they do, in `recruit` and `stacks`.
//!
//! Each month, places in report order, with the numbers of `economy.ron`
//! `population` (docs/economy.md):
//!
//! 1. **Optimum** (POP-OPTIMA): the terrain's `optimum_population` × (100 + the
//!    `economy` % of the finished structures standing there + the place's hidden
//!    shift) / 100. The shift goes back toward 0 by `optimum_recovery_percent`, then
//!    rises by `market_optimum_percent` if the market traded this month and falls by
//!    `battle_optimum_percent` per battle fought there, and falls by `land`
//!    `tax_optimum_percent` if its owner taxed it (OWN-TAX); it stays within
//!    ±`optimum_shift_limit`.
//! 2. **Drift** (POP-DRIFT): each place's population changes by a random amount of
//!    up to ±`drift_percent`.
//! 3. **Migration** (POP-MIGRATE): between each place and each neighbour it has an
//!    exit to, people move from the higher population-to-optimum ratio to the lower:
//!    `migration_percent` of the people that would even the two ratios, divided by
//!    the days of travel (the quickest way). All flows are reckoned from the same
//!    populations, then applied. A place with no optimum (water) takes nobody in.
//!    A new town (POP-NEWTOWN: population 0, an optimum) draws people this way.
//! 4. **Famine** (POP-FAMINE): more people than `famine_percent` of the optimum,
//!    plus `food_feeds` for each food item units sold on the place's market this
//!    month: `famine_deaths_percent` of the excess die, and the plague breaks out
//!    with a chance of `plague_outbreak_permille`.
//! 5. **Plague** (the `plague` effect: `length`, `incubation`, `virality`,
//!    `lethality`): a place with the plague counts its days; past the incubation it
//!    loses `lethality` % of its people each month and spreads to each populated
//!    neighbour with a chance of `virality` %; it ends after `length` days.
//! 6. **Wages** (POP-ECON): where wages are paid, they drop by `wage_step_percent`
//!    when the people present (population and the figures of units there) are more
//!    than `crowded_percent` of the optimum, and rise when fewer than
//!    `sparse_percent`, within `wage_min`..`wage_max`.

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::PopulationRules;
use crate::systems::overlord::mechanics::combat::Battles;
use crate::systems::overlord::mechanics::market::MarketMonth;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, Exits, Figures, Id, Livelihood, Missing, Population, StructureAt, StructureKind, Terrain, Wages,
};
use crate::systems::overlord::world::resources::{Directory, Randomness};
use bevy_app::{App, Plugin};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use rand::RngExt;
use std::collections::HashMap;

#[cfg(test)]
mod tests;

/// Adds [`evolve`] to the month's end.
pub struct PopulationPlugin;

impl Plugin for PopulationPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PlaceNews>();
        app.add_step_system("places", evolve);
    }
}

/// What the month's end did to places that the newspaper tells (famine, plague),
/// a line each, places in report order.
#[derive(Resource, Debug, Default)]
pub struct PlaceNews(pub Vec<String>);

/// The month's famines and plagues as the newspaper tells them.
pub fn headlines(world: &World) -> Vec<String> {
    world.get_resource::<PlaceNews>().map_or(Vec::new(), |n| n.0.clone())
}

/// The month's population changes (MON-EVOLVE).
pub fn evolve(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let rules = &catalog.rules.economy.population;
    let places: Vec<Entity> = world.resource::<Directory>().locations.clone();
    if places.is_empty() {
        return;
    }
    let index: EntityHashMap<usize> = places.iter().enumerate().map(|(i, &l)| (l, i)).collect();
    let optimum = optima(world, &catalog, &places, &index);
    let rand = *world.resource::<Randomness>();
    let ids: Vec<String> =
        places.iter().map(|&l| world.get::<Id>(l).map(|i| i.0.clone()).unwrap_or_default()).collect();
    let mut pop: Vec<u64> = places.iter().map(|&l| u64::from(world.get::<Population>(l).map_or(0, |p| p.0))).collect();

    // POP-DRIFT.
    if rules.drift_percent > 0 {
        for (i, p) in pop.iter_mut().enumerate() {
            if *p == 0 {
                continue;
            }
            let d = i64::from(rules.drift_percent) * 100;
            let r = rand.stream("population", &ids[i]).random_range(-d..=d);
            *p = (*p as i64 + *p as i64 * r / 10_000).max(0) as u64;
        }
    }

    // POP-MIGRATE: flows from one snapshot.
    if rules.migration_percent > 0 {
        let mut delta = vec![0i64; places.len()];
        for (a, &l) in places.iter().enumerate() {
            if pop[a] == 0 {
                continue;
            }
            for (to, days) in crate::systems::overlord::mechanics::movement::routes::least_days_now(world, l) {
                let Some(&b) = index.get(&to) else { continue };
                let Some(days) = days.filter(|&d| d > 0) else { continue };
                let (oa, ob) = (optimum[a], optimum[b]);
                if ob == 0 {
                    continue;
                }
                // People that would even the two ratios; positive from a to b.
                let even = (pop[a] as i128 * ob as i128 - pop[b] as i128 * oa as i128) / (oa + ob) as i128;
                if even <= 0 {
                    continue;
                }
                let flow = (even * i128::from(rules.migration_percent) / 100 / i128::from(days)) as i64;
                delta[a] -= flow;
                delta[b] += flow;
            }
        }
        for (p, d) in pop.iter_mut().zip(delta) {
            *p = (*p as i64 + d).max(0) as u64;
        }
    }

    // POP-FAMINE and the plague.
    let month = world.resource::<MarketMonth>();
    let mut fed = vec![0u64; places.len()];
    for (&(l, item), &n) in &month.sold {
        if rules.food.iter().any(|f| catalog.item(f) == Some(item))
            && let Some(&i) = index.get(&l)
        {
            fed[i] += n * u64::from(rules.food_feeds);
        }
    }
    let plague = rules.plague.as_ref().and_then(|t| catalog.rules.enchantments.effects.iter().find(|e| e.tag == *t));
    let days = world.resource::<crate::core::engine::plan::Clock>().ticks;
    let mut sick: Vec<Option<u32>> =
        places.iter().map(|&l| world.get::<Livelihood>(l).and_then(|v| v.plague)).collect();
    let mut caught = vec![false; places.len()];
    let mut starved = vec![0u64; places.len()];
    let mut killed = vec![0u64; places.len()];
    for i in 0..places.len() {
        let limit = optimum[i] * u64::from(rules.famine_percent) / 100 + fed[i];
        if rules.famine_percent > 0 && optimum[i] > 0 && pop[i] > limit {
            starved[i] = (pop[i] - limit) * u64::from(rules.famine_deaths_percent) / 100;
            pop[i] -= starved[i];
            if plague.is_some()
                && sick[i].is_none()
                && rand.stream("plague outbreak", &ids[i]).random_range(0..1000) < rules.plague_outbreak_permille
            {
                caught[i] = true;
            }
        }
    }
    if let Some(p) = plague {
        for i in 0..places.len() {
            let Some(age) = sick[i] else { continue };
            let age = age + days;
            if age > p.incubation {
                killed[i] = pop[i] * u64::from(p.lethality.min(100)) / 100;
                pop[i] -= killed[i];
                let mut draw = rand.stream("plague", &ids[i]);
                if let Some(x) = world.get::<Exits>(places[i]) {
                    for e in &x.0 {
                        if let Some(&b) = index.get(&e.to)
                            && pop[b] > 0
                            && draw.random_range(0..100) < p.virality
                        {
                            caught[b] = true;
                        }
                    }
                }
            }
            sick[i] = (age < p.length).then_some(age);
        }
        for i in 0..places.len() {
            if caught[i] && sick[i].is_none() {
                sick[i] = Some(0);
            }
        }
    }

    // The newspaper: famines, outbreaks, deaths of the plague, its end.
    let was: Vec<Option<u32>> = places.iter().map(|&l| world.get::<Livelihood>(l).and_then(|v| v.plague)).collect();
    let mut news = Vec::new();
    for (i, &l) in places.iter().enumerate() {
        if starved[i] == 0 && killed[i] == 0 && was[i].is_some() == sick[i].is_some() {
            continue;
        }
        let name = crate::systems::overlord::mechanics::scheduler::label(world, l);
        if starved[i] > 0 {
            news.push(format!("Famine in {name}: {} people starved.", starved[i]));
        }
        if was[i].is_none() && sick[i].is_some() {
            news.push(format!("The plague broke out in {name}."));
        }
        if killed[i] > 0 {
            news.push(format!("The plague killed {} people in {name}.", killed[i]));
        }
        if was[i].is_some() && sick[i].is_none() {
            news.push(format!("The plague in {name} is over."));
        }
    }
    world.resource_mut::<PlaceNews>().0 = news;

    // POP-ECON: the people present, units included.
    let mut present = vec![0u64; places.len()];
    let mut q = world.query::<(&At, &Figures)>();
    for (at, f) in q.iter(world) {
        if let Some(&i) = index.get(&at.location) {
            present[i] += u64::from(f.0);
        }
    }
    for (i, &l) in places.iter().enumerate() {
        let mut e = world.entity_mut(l);
        if let Some(mut p) = e.get_mut::<Population>() {
            p.0 = pop[i].min(u64::from(u32::MAX)) as u32;
        }
        if let Some(mut v) = e.get_mut::<Livelihood>() {
            v.plague = sick[i];
        }
        if let Some(mut w) = e.get_mut::<Wages>() {
            w.0 = wages(w.0, pop[i] + present[i], optimum[i], rules);
        }
    }
}

/// POP-OPTIMA: each place's optimum, after this month's change of its shift.
fn optima(world: &mut World, catalog: &Catalog, places: &[Entity], index: &EntityHashMap<usize>) -> Vec<u64> {
    let rules = &catalog.rules.economy.population;
    let mut economy = vec![0i64; places.len()];
    let mut q = world.query::<(&StructureAt, &StructureKind, &Missing)>();
    for (at, kind, missing) in q.iter(world) {
        if missing.0.is_empty()
            && let Some(&i) = index.get(&at.0)
        {
            economy[i] += i64::from(catalog.rules.constructions.constructions[kind.0].economy);
        }
    }
    let mut battles: HashMap<&str, i64> = HashMap::new();
    let fought = world.get_resource::<Battles>().map(|b| b.0.iter().map(|r| r.location.clone()).collect::<Vec<_>>());
    for l in fought.iter().flatten() {
        *battles.entry(l.as_str()).or_default() += 1;
    }
    let traded = world.resource::<MarketMonth>().traded.clone();
    let limit = i64::from(rules.optimum_shift_limit);
    let mut out = Vec::with_capacity(places.len());
    for (i, &l) in places.iter().enumerate() {
        let id = world.get::<Id>(l).map(|i| i.0.clone()).unwrap_or_default();
        let base = world.get::<Terrain>(l).map_or(0, |t| catalog.rules.terrains[t.0.index()].system.optimum_population);
        let fights = battles.get(id.as_str()).copied().unwrap_or(0);
        let taxed = crate::systems::overlord::mechanics::land::taxed(world, l);
        let Some(mut v) = world.get_mut::<Livelihood>(l) else {
            out.push(0);
            continue;
        };
        let mut shift = i64::from(v.optimum_shift);
        let back = i64::from(rules.optimum_recovery_percent).min(shift.abs());
        shift -= back * shift.signum();
        if traded.contains(&l) {
            shift += i64::from(rules.market_optimum_percent);
        }
        shift -= fights * i64::from(rules.battle_optimum_percent);
        if taxed {
            shift -= i64::from(catalog.rules.economy.land.tax_optimum_percent);
        }
        shift = shift.clamp(-limit, limit);
        v.optimum_shift = shift as i32;
        out.push((i64::from(base) * (100 + economy[i] + shift)).max(0) as u64 / 100);
    }
    out
}

/// POP-ECON: next month's wages for `people` present against `optimum`.
fn wages(w: u32, people: u64, optimum: u64, rules: &PopulationRules) -> u32 {
    if w == 0 || optimum == 0 || rules.wage_step_percent == 0 {
        return w;
    }
    let ratio = people * 100 / optimum;
    let step = ((u64::from(w) * u64::from(rules.wage_step_percent) + 50) / 100).max(1) as u32;
    let (lo, hi) = (rules.wage_min.max(1), rules.wage_max.max(rules.wage_min).max(1));
    if ratio > u64::from(rules.crowded_percent) {
        w.saturating_sub(step).max(lo.min(w))
    } else if ratio < u64::from(rules.sparse_percent) {
        w.saturating_add(step).min(hi.max(w))
    } else {
        w
    }
}
