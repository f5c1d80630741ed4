//! Magic: mana (MAG-MAXMANA, MAG-REGEN, MAG-OVER, ITM-GIVE) and spells cast in the
//! world ([`spells`]).
//!
//! A unit's mana is a count of the rule set's `parameters.mana_item` in its
//! possessions. Its maximum is its `mana` statistic ([`UnitStats`]): the sum of the
//! `mana` its skills' levels give (MAG-MAXMANA: one per level of each magic skill in
//! Overlord's data).
//!
//! At the end of every `mana_regen_days`-th day (days 2, 4, … in Overlord; rulings
//! 10):
//!
//! * a unit below its maximum regains one point (MAG-REGEN);
//! * a unit above it loses one point, plus one per `mana_over_step_percent` (50) of
//!   its maximum it is over (MAG-OVER): under 50% over, 1; under 100%, 2 (one a
//!   day); under 150%, 3; and so on, never below the maximum. *Choice:* the rules
//!   give the first three steps, "and so on" continues them by 50%; a unit with no
//!   maximum counts as having one.
//!
//! Battles, which run before the day's end, lose nothing. Mana cannot be given,
//! taken, dropped or swapped (ITM-GIVE: "Cannot be given or gotten"; the transfer
//! orders refuse it).

pub mod spells;
#[cfg(test)]
mod spells_tests;
pub mod support;
#[cfg(test)]
mod tests;

use crate::core::engine::plan::{Clock, PlanApp};
use crate::systems::overlord::mechanics::skill_use::UseHandlers;
use crate::systems::overlord::mechanics::stats::UnitStats;
use crate::systems::overlord::mechanics::transfer;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::Inventory;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Carries out USE of spells, brings summoned figures in at the day's end, and
/// adds the day's tides of mana.
pub struct MagicPlugin;

impl Plugin for MagicPlugin {
    fn build(&self, app: &mut App) {
        spells::register(&mut app.world_mut().resource_mut::<UseHandlers>());
        let gaps = support::Gaps::new(&app.world().resource::<crate::systems::overlord::world::Catalog>().rules);
        app.insert_resource(gaps);
        app.init_resource::<spells::Summoned>();
        app.add_step_system("day_end", spells::summoned_arrive);
        app.add_step_system("day_end", mana_tides);
    }
}

/// The change of a unit's mana at a regeneration day's end: `have` points against a
/// maximum of `max` (MAG-REGEN, MAG-OVER).
pub fn tide(have: u32, max: u32, over_step_percent: u32) -> i64 {
    if have < max {
        return 1;
    }
    if have == max || over_step_percent == 0 {
        return 0;
    }
    let over = u64::from(have - max);
    let steps = over * 100 / (u64::from(max.max(1)) * u64::from(over_step_percent));
    -((1 + steps).min(over) as i64)
}

/// The plan's `day_end` step: mana returns, or ebbs above the maximum.
pub fn mana_tides(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let Some(mana) = catalog.mana() else { return };
    let p = &catalog.rules.info.parameters;
    let day = world.resource::<Clock>().tick;
    if day == 0 || !day.is_multiple_of(p.mana_regen_days.max(1)) {
        return;
    }
    let mut q = world.query::<(&UnitStats, &mut Inventory)>();
    for (stats, mut inv) in q.iter_mut(world) {
        let max = stats.stats.mana.max(0) as u32;
        let have = inv.count(mana);
        if max == 0 && have == 0 {
            continue;
        }
        match tide(have, max, p.mana_over_step_percent) {
            0 => {}
            n if n > 0 => transfer::add(&mut inv, mana, n as u32),
            n => transfer::take(&mut inv, mana, n.unsigned_abs() as u32),
        }
    }
}
