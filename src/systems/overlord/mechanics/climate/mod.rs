//! Seasons and weather (§18 of the rules; CLI-CAL, CLI-NEIGHBOR, CLI-REPORT;
//! rulings 13).
//!
//! The calendar is data: twelve months in the Overlord rules, each naming its
//! season. At the end of each month the weather of the next one is drawn:
//!
//! 1. every territory whose terrain has climate (not `covered`) draws a weather by
//!    the odds of next month's season (`weather_weights`), from its own random
//!    stream, in report order;
//! 2. then, in report order, every territory whose weather names
//!    `neighbour_weathers` (a storm: wind, rain or storm) makes each hex neighbour
//!    drawn otherwise take one of those instead, drawn by the season's odds among
//!    them, the triggering weather left out (so a storm never spreads storms);
//! 3. inner locations take the weather of the location they lie in; covered
//!    terrains have none.
//!
//! The weather a location had during the month just played is kept for the
//! report, which shows it with next month's forecast (CLI-REPORT).

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Exits, Id, Terrain, Weather, Within};
use crate::systems::overlord::world::resources::{Directory, Randomness};
use bevy_app::{App, Plugin};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use rand::RngExt;

/// The weather each location had during the month just played (index in the rule
/// set's weathers), for the report. Filled when the next month's is drawn.
#[derive(Resource, Debug, Default)]
pub struct PlayedWeather(pub EntityHashMap<usize>);

/// Draws next month's weather at the end of each month.
pub struct ClimatePlugin;

impl Plugin for ClimatePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<PlayedWeather>();
        app.add_step_system("weather", draw_weather);
    }
}

/// Picks an index by weight with `rng`; `None` when every weight is 0.
fn pick(rng: &mut impl rand::Rng, weights: &[(usize, u64)]) -> Option<usize> {
    let total: u64 = weights.iter().map(|w| w.1).sum();
    if total == 0 {
        return None;
    }
    let mut x = rng.random_range(0..total);
    for &(i, w) in weights {
        if x < w {
            return Some(i);
        }
        x -= w;
    }
    None
}

/// Month end: next month's weather everywhere (CLI-NEIGHBOR).
pub fn draw_weather(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let climate = &catalog.rules.climate;
    let months = climate.months.len().max(1) as u32;
    let next = (world.resource::<crate::systems::overlord::world::resources::Month>().0 + 1) % months;
    let Some(season) = catalog.season(next) else { return };
    let weathers = &climate.weathers;
    let weight_of = |i: usize| season.weather_weights.get(&weathers[i].tag).map_or(0, |&w| w.max(0) as u64);
    let all: Vec<(usize, u64)> = (0..weathers.len()).map(|i| (i, weight_of(i))).collect();
    let neighbours: Vec<Vec<(usize, u64)>> = weathers
        .iter()
        .enumerate()
        .map(|(me, w)| {
            w.system
                .neighbour_weathers
                .iter()
                .filter_map(|t| weathers.iter().position(|x| x.tag == *t))
                .filter(|&i| i != me)
                .map(|i| (i, weight_of(i)))
                .collect()
        })
        .collect();
    let hex: Vec<bool> = catalog.rules.movement.directions.iter().map(|d| d.hex.is_some()).collect();
    let rand = *world.resource::<Randomness>();
    let dir = world.resource::<Directory>();

    // What was played, and the territories that draw.
    let mut played = EntityHashMap::default();
    let mut drawn: EntityHashMap<usize> = EntityHashMap::default();
    for &l in &dir.locations {
        let (Some(within), Some(t), Some(id)) = (world.get::<Within>(l), world.get::<Terrain>(l), world.get::<Id>(l))
        else {
            continue;
        };
        if let Some(w) = world.get::<Weather>(l).and_then(|w| w.0) {
            played.insert(l, w);
        }
        if within.inner || catalog.rules.terrains[t.0.index()].covered {
            continue;
        }
        let mut rng = rand.stream("weather", &id.0);
        if let Some(w) = pick(&mut rng, &all) {
            drawn.insert(l, w);
        }
    }
    // A storm's neighbours have at least wind or rain.
    for &l in &dir.locations {
        let Some(&w) = drawn.get(&l) else { continue };
        if neighbours[w].is_empty() {
            continue;
        }
        let Some(exits) = world.get::<Exits>(l) else { continue };
        for n in exits.0.iter().filter(|x| hex[x.dir]).map(|x| x.to) {
            let Some(&nw) = drawn.get(&n) else { continue };
            let allowed = nw == w || neighbours[w].iter().any(|x| x.0 == nw);
            if allowed {
                continue;
            }
            let id = world.get::<Id>(n).map(|i| i.0.clone()).unwrap_or_default();
            let mut rng = rand.stream("weather-neighbour", &id);
            let new = pick(&mut rng, &neighbours[w]).unwrap_or(neighbours[w][0].0);
            drawn.insert(n, new);
        }
    }
    // Inner locations share their container's.
    let writes: Vec<(Entity, Option<usize>)> = dir
        .locations
        .iter()
        .map(|&l| {
            let inner_of = world.get::<Within>(l).filter(|w| w.inner).and_then(|w| w.container);
            let w = match inner_of {
                Some(c) => outer_weather(world, &drawn, c),
                None => drawn.get(&l).copied(),
            };
            (l, w)
        })
        .collect();
    for (l, w) in writes {
        if let Some(mut weather) = world.get_mut::<Weather>(l)
            && weather.0 != w
        {
            weather.0 = w;
        }
    }
    world.resource_mut::<PlayedWeather>().0 = played;
}

/// The weather of the territory an inner location lies in, through any depth.
fn outer_weather(world: &World, drawn: &EntityHashMap<usize>, mut at: Entity) -> Option<usize> {
    for _ in 0..64 {
        if let Some(&w) = drawn.get(&at) {
            return Some(w);
        }
        at = world.get::<Within>(at)?.container?;
    }
    None
}

#[cfg(test)]
mod tests;
