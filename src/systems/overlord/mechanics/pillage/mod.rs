//! PILLAGE (ORD-PILLAGE, OWN-PILLAGE-MIN, OWN-PILLAGE-HARM, OWN-SELF-PILLAGE,
//! GRD-PILLAGE), with the numbers of `economy.ron` `land.pillage` and `land.force`.
//!
//! A full-day order. The unit needs the `skill` (1st combat; the order is removed
//! otherwise). It pillages a day only when it is able to do combat damage (armed,
//! or with a skill that strikes) and has at least `min_figures` figures and a
//! significant force for the people there (OWN-FORCE); otherwise the day has no
//! effect and the order waits, saying why once a month.
//!
//! Where a unit on guard stands whose faction does not grant the pillager's
//! `Pillage` (only allies do), that guard attacks the pillager (GRD-PILLAGE: the
//! guards and their allies attack, the pillagers and their allies defend, by the
//! battle's sides) and nothing is taken that day. Otherwise the unit takes all
//! the tax money stored in the place (OWN-TAX: "If some location is pillaged all
//! tax money stored there will be looted"), and its day counts as a day of work
//! ("and work at the same time"), paid at month end. It gains no combat experience.
//!
//! The harm, once a day per place however many pillage it: the optimum drops by
//! `optimum_percent` points (people leave over the month end's migration), and
//! `market_percent` of what is left of the month's market quantities and recruits
//! is gone. An owner pillaging its own land (OWN-SELF-PILLAGE) drops the optimum
//! `self_optimum_percent` % as much, and risks an uprising at month end
//! ([`crate::systems::overlord::mechanics::land::uprisings`]). The owner's faction
//! is told that its land was pillaged.

#[cfg(test)]
mod tests;

use crate::systems::overlord::data::StanceGrant;
use crate::systems::overlord::mechanics::combat::{Cause, ask};
use crate::systems::overlord::mechanics::guards::guard_against;
use crate::systems::overlord::mechanics::land::LandBook;
use crate::systems::overlord::mechanics::land::taxes::does_damage;
use crate::systems::overlord::mechanics::money::log_work;
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, label, waits};
use crate::systems::overlord::mechanics::stats::{CapacityTables, compute};
use crate::systems::overlord::mechanics::transfer;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::{Entry, Keyword};
use crate::systems::overlord::world::components::{
    Events, Figures, Inventory, LandOwner, Livelihood, Market, Population, Race, Recruits, Skills,
};
use crate::systems::overlord::world::meets;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Registers PILLAGE.
pub struct PillagePlugin;

impl Plugin for PillagePlugin {
    fn build(&self, app: &mut App) {
        app.world_mut().resource_mut::<OrderHandlers>().set(module_path!(), Keyword::Pillage, pillage);
    }
}

/// ORD-PILLAGE.
fn pillage(act: &mut Act, entry: &mut Entry) -> Outcome {
    let me = act.unit;
    let Some(at) = act.at(me) else { return Outcome::NotNow };
    let Some(f) = act.faction_of(me) else { return Outcome::NotNow };
    let place = at.location;
    let rules = act.catalog().rules.economy.land.clone();
    if let Some(req) = &rules.pillage.skill
        && !meets(act.world, me, req)
    {
        return Outcome::Invalid(format!("pillaging needs level {} in {}", req.level, req.skill));
    }
    let figures = act.world.get::<Figures>(me).map_or(0, |n| n.0);
    let people = act.world.get::<Population>(place).map_or(0, |p| p.0);
    let need = rules.pillage.min_figures.max(if people > 0 { rules.force.figures_for(people) } else { 0 });
    if figures < need {
        waits(
            act.world,
            me,
            act.day,
            entry,
            format_args!("{figures} figures are too few to pillage here: {need} are needed"),
        );
        return Outcome::NotNow;
    }
    if !able_to_strike(act.world, me) {
        let why = "pillaging needs figures able to do combat damage: weapons, or a skill to strike with";
        waits(act.world, me, act.day, entry, why);
        return Outcome::NotNow;
    }
    // GRD-PILLAGE: guards who do not let this faction pillage attack.
    if let Some(g) = guard_against(act.world, place, me, StanceGrant::Pillage) {
        let (gn, here) = (act.name(g), act.name(place));
        let text = format!("Battle at {here}: {gn}, on guard, attacks the pillagers, {}.", act.name(me));
        act.event(g, text.clone());
        act.log(text);
        ask(act.world, place, g, me, Cause::Pillage);
        return Outcome::Ran(Progress::Step);
    }
    let Some(money) = act.catalog().money() else { return Outcome::NotNow };
    let loot = act.world.get_mut::<Livelihood>(place).map_or(0, |mut v| std::mem::take(&mut v.tax_pool));
    if loot > 0 {
        let mut inv = act.world.get_mut::<Inventory>(me).expect("unit");
        transfer::add(&mut inv, money, loot.min(u64::from(u32::MAX)) as u32);
    }
    log_work(act.world, me, place);
    let here = act.name(place);
    let text = act.catalog().items_text(money, loot);
    act.log(format!("Pillaged {here}: took {text}."));
    harm(act.world, place, f);
    Outcome::Ran(Progress::Step)
}

/// Whether unit `u`, as it stands now, can do combat damage (OWN-FORCE).
fn able_to_strike(world: &World, u: Entity) -> bool {
    let r = world.entity(u);
    let (Some(race), Some(n), Some(inv), Some(sk)) =
        (r.get::<Race>(), r.get::<Figures>(), r.get::<Inventory>(), r.get::<Skills>())
    else {
        return false;
    };
    let fx = crate::systems::overlord::world::under(world, u);
    let catalog = world.resource::<crate::systems::overlord::world::Catalog>();
    does_damage(&compute(catalog, world.resource::<CapacityTables>(), race.0, n.0, inv, sk, &fx))
}

/// OWN-PILLAGE-HARM, OWN-SELF-PILLAGE: what a day of pillage does to `place`, once a
/// day however many pillage it.
fn harm(world: &mut World, place: Entity, f: Entity) {
    let day = world.resource::<crate::core::engine::plan::Clock>().tick;
    {
        let mut book = world.resource_mut::<LandBook>();
        if book.pillaged.get(&place) == Some(&day) {
            return;
        }
        book.pillaged.insert(place, day);
    }
    let catalog = world.resource::<crate::systems::overlord::world::Catalog>().clone();
    let rules = &catalog.rules.economy.land.pillage;
    let owner = world.get::<LandOwner>(place).and_then(|o| o.0.as_ref().map(|x| x.0));
    let own = owner == Some(f);
    let mut points = i64::from(rules.optimum_percent);
    if own {
        points = points * i64::from(rules.self_optimum_percent) / 100;
        world.resource_mut::<LandBook>().self_pillaged.insert(place, f);
    }
    let limit = i64::from(catalog.rules.economy.population.optimum_shift_limit);
    if let Some(mut v) = world.get_mut::<Livelihood>(place) {
        v.optimum_shift = (i64::from(v.optimum_shift) - points).max(-limit) as i32;
    }
    let cut = |left: u32| (u64::from(left) * u64::from(rules.market_percent) / 100) as u32;
    if let Some(mut m) = world.get_mut::<Market>(place) {
        let m = &mut *m;
        for g in m.sells.iter_mut().chain(m.buys.iter_mut()) {
            g.traded += cut(g.left());
        }
    }
    if let Some(mut r) = world.get_mut::<Recruits>(place) {
        for o in &mut r.0 {
            o.count -= cut(o.count);
        }
    }
    let text = format!("{} was pillaged.", label(world, place));
    if let Some(o) = owner.filter(|&o| o != f)
        && let Some(mut e) = world.get_mut::<Events>(o)
    {
        e.push(day, text.clone());
    }
    // RPT-EVENTS: every faction there sees it.
    crate::systems::overlord::mechanics::visibility::witnessed(world, place, &text, owner.filter(|&o| o != f));
}
