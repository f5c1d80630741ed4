//! Land: who owns a place, the taxes it pays, who occupies it (§14: OWN-LEGAL,
//! OWN-TAX, OWN-OCCUPY, OWN-FORCE, OWN-POLICY, OWN-SELF-PILLAGE; TTL-LAND).
//!
//! * [`taxes`]: the day's taxes come in (`levy`), occupation is reckoned and owners
//!   collect (`taxes`); the factions whose policy rules a place (OWN-POLICY: its
//!   owner and its occupier) are [`crate::systems::overlord::mechanics::diplomacy::authorities`].
//! * [`owners`]: at month end, each place's legal owner from the titles covering it.
//! * [`cancel`]: CANCEL, a land title revoking a lower one in its range.
//!
//! At the month's end ([`keep_in_range`], the plan's `land` step) each land title
//! whose holder stands out of its reach is lost: the holder must stand at the
//! title's location, in the location containing it or in one of its inner
//! locations, or within the title's `range` × `keep_percent` % (100 when 0) in
//! walking days along the quickest path from the title's location (RULINGS 5: a
//! Baron keeps its title up to 1.5 × its range). A guild title `held_in_place` is
//! lost likewise when its holder is away from the title's location (MAG-GUILD: a
//! Head of Guild who leaves the guild). A lost title is unclaimed, and its holder
//! told.

pub mod cancel;
pub mod owners;
pub mod taxes;
#[cfg(test)]
mod tests;

pub use owners::{Reach, reach, reckon_owners};
pub use taxes::{LandBook, collect, levy, taxed};

use crate::core::engine::plan::{Clock, PlanApp};
use crate::systems::overlord::data::TitleKind;
use crate::systems::overlord::mechanics::movement::Travel;
use crate::systems::overlord::mechanics::movement::routes::Routes;
use crate::systems::overlord::mechanics::scheduler::{OrderHandlers, label};
use crate::systems::overlord::mechanics::titles;
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{At, Events, Titles, Within};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// The month end of land titles, the day's taxes, and CANCEL.
pub struct LandPlugin;

impl Plugin for LandPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<LandBook>();
        app.world_mut().resource_mut::<OrderHandlers>().set(module_path!(), Keyword::Cancel, cancel::cancel);
        app.add_step_system("levy", levy);
        app.add_step_system("taxes", collect);
        app.add_step_system("land", keep_in_range);
        app.add_step_system("land", uprisings);
        app.add_step_system("land", reckon_owners);
    }
}

/// TTL-LAND, RULINGS 5: land titles whose holders stand out of reach are lost.
pub fn keep_in_range(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let held = titles::held_titles(world);
    // (place, slot, holder, whether away from a title held in place)
    let mut lost: Vec<(Entity, usize, Entity, bool)> = Vec::new();
    {
        let dir = world.resource::<Directory>();
        let routes = world.get_resource::<Routes>();
        let tables = world.get_resource::<Travel>();
        let mut by_holder: Vec<(&String, &Vec<(Entity, usize)>)> = held.iter().collect();
        by_holder.sort();
        for (holder, places) in by_holder {
            let Some(u) = dir.get(Kind::Unit, holder) else { continue };
            let Some(at) = world.get::<At>(u).map(|a| a.location) else { continue };
            for &(l, slot) in places {
                let Some(ti) = world.get::<Titles>(l).map(|t| t.0[slot].0) else { continue };
                let t = &catalog.rules.titles[ti];
                let bound = t.kind == TitleKind::Guild && t.held_in_place;
                if (t.kind != TitleKind::Land && !bound) || at == l {
                    continue;
                }
                let container = |x: Entity| world.get::<Within>(x).and_then(|w| w.container);
                if container(l) == Some(at) || container(at) == Some(l) {
                    continue;
                }
                if bound {
                    lost.push((l, slot, u, true));
                    continue;
                }
                let keep = u64::from(t.range) * u64::from(if t.keep_percent == 0 { 100 } else { t.keep_percent }) / 100;
                let days = match (routes, tables) {
                    (Some(r), Some(tb)) => r.walking_days(&catalog, &tb.0, l, at),
                    _ => None,
                };
                if days.is_none_or(|d| u64::from(d) > keep) {
                    lost.push((l, slot, u, false));
                }
            }
        }
    }
    titles::put_back(world, held);
    let day = world.resource::<Clock>().tick;
    for (l, slot, u, away) in lost {
        let name = world.get::<Titles>(l).map(|t| catalog.rules.titles[t.0[slot].0].name.clone()).unwrap_or_default();
        titles::set_holder(world, l, slot, None);
        let place = label(world, l);
        let why = if away { "Away from" } else { "Out of reach of" };
        if let Some(mut e) = world.get_mut::<Events>(u) {
            e.push(day, format!("{why} {place}: the title of {name} is lost, and unclaimed."));
        }
    }
}

/// Month end (OWN-SELF-PILLAGE): where an owner pillaged its own land this month,
/// an uprising, with a chance of `pillage.uprising_percent` (one draw per place,
/// from its own stream), takes the most local title of the owner's covering the
/// place; its holder is told.
pub fn uprisings(world: &mut World) {
    let chance = world.resource::<Catalog>().rules.economy.land.pillage.uprising_percent;
    let pillaged = std::mem::take(&mut world.resource_mut::<LandBook>().self_pillaged);
    let places = world.resource::<Directory>().locations.clone();
    let day = world.resource::<Clock>().tick;
    for l in places {
        let Some(&f) = pillaged.get(&l) else { continue };
        let id =
            world.get::<crate::systems::overlord::world::components::Id>(l).map(|i| i.0.clone()).unwrap_or_default();
        let mut rng =
            world.resource::<crate::systems::overlord::world::resources::Randomness>().stream("uprising", &id);
        if rand::RngExt::random_range(&mut rng, 0..100u32) >= chance {
            continue;
        }
        let Some((tl, slot, holder)) = owners::local_title(world, l, f) else { continue };
        let name = world
            .get::<Titles>(tl)
            .map(|t| world.resource::<Catalog>().rules.titles[t.0[slot].0].name.clone())
            .unwrap_or_default();
        titles::set_holder(world, tl, slot, None);
        let place = label(world, l);
        if let Some(mut e) = world.get_mut::<Events>(holder) {
            e.push(
                day,
                format!("The people of {place} rise against their pillaging lord: the title of {name} is lost."),
            );
        }
        // RPT-EVENTS: the factions there see the people rise.
        let seen = format!("The people of {place} rise against their lord.");
        crate::systems::overlord::mechanics::visibility::witnessed(world, l, &seen, None);
    }
}
