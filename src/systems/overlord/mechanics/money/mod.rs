//! Money: wages for WORK and upkeep at the end of the month (ORD-WORK, PFX-WORK,
//! CASH-WORK, MON-WAGE, MON-UPKEEP, CASH-RATE, CASH-FULL, CASH-ORDER, CASH-FOOD,
//! CASH-DISSENT, CLI-WINTER, SET-SUPPORT, SET-CONSUME).
//!
//! **Wages.** Each day a unit works (WORK, or the invisible WORK at the end of every
//! list) counts one day of work where it stands. At the end of the month it is paid
//! figures × the location's wages × days worked ÷ days in the month, rounded down,
//! in the game's money. Work done somewhere the unit has since left is lost. Leaders
//! and followers work; creatures do not.
//!
//! **Upkeep.** Each unit owes its statistics' upkeep ([`UnitStats`]) × the season's
//! `upkeep_percent` (winter doubles it), whatever the days served. Each figure fed
//! with an equipped ration (`rations`; with SET-CONSUME, any ration it carries) pays
//! `ration_percent` of its share in food, one ration each; figures still unfed eat
//! rations of units of the faction in the same place that share (SET-SHARE). The
//! rest is paid in money:
//! from the unit's own cash; then from units of the same faction in the same location
//! that have money left after their own upkeep, in report order (the order units are
//! listed in the location); then from faction funds. With SET-SUPPORT (the unit's or
//! the faction's), faction funds come first. Units are settled in report order.
//!
//! Units of non-player factions pay nothing unless the rule set's `npc_upkeep` says
//! so.
//!
//! **Dissent.** A unit whose upkeep is not fully paid gets the `dissent_effect` for
//! `dissent_days`; one that is already disaffected deserts instead: its figures join
//! the location's population (CASH-DISSENT).

use crate::core::engine::by_entity::ByEntity;
use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, label};
use crate::systems::overlord::mechanics::stats::UnitStats;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::Entry;
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, Effects, Events, FactionRole, FactionSettings, Figures, Funds, Inventory, OnGuard, Owner, UnitSettings, Wages,
};
use crate::systems::overlord::world::resources::Directory;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use std::collections::BTreeMap;

#[cfg(test)]
mod tests;

/// Days worked this month per unit: where, and how many days.
///
/// By entity, so that a day's work of every idle unit costs no hashing:
/// [`WorkLog::day`] runs for units × days.
#[derive(Resource, Debug, Default)]
pub struct WorkLog(ByEntity<Worked>);

/// Where a unit worked this month, and for how many days.
#[derive(Debug, Clone, Copy)]
struct Worked {
    place: Entity,
    days: u32,
}

impl Default for Worked {
    fn default() -> Self {
        Worked { place: Entity::PLACEHOLDER, days: 0 }
    }
}

impl WorkLog {
    /// Counts a day of work of unit `u` at `place` (work done elsewhere before is
    /// lost).
    pub fn day(&mut self, u: Entity, place: Entity) {
        let w = self.0.entry(u);
        if w.place != place {
            *w = Worked { place, days: 0 };
        }
        w.days += 1;
    }

    /// Where unit `u` worked this month and for how many days, if it did.
    pub fn get(&self, u: Entity) -> Option<(Entity, u32)> {
        self.0.get(u).filter(|w| w.days > 0).map(|w| (w.place, w.days))
    }
}

/// Registers WORK and adds [`pay_wages`] and [`pay_upkeep`].
pub struct MoneyPlugin;

impl Plugin for MoneyPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<WorkLog>();
        let mut h = app.world_mut().resource_mut::<OrderHandlers>();
        h.set(module_path!(), Keyword::Work, work);
        h.set_default(work_all);
        app.add_step_system("wages", pay_wages);
        app.add_step_system("upkeep", pay_upkeep);
    }
}

/// ORD-WORK: one day of work where the unit stands. Work done elsewhere is lost.
/// Who may work is checked by the scheduler (WORK is for leaders and followers).
fn work(act: &mut Act, _: &mut Entry) -> Outcome {
    let Some(at) = act.at(act.unit) else { return Outcome::NotNow };
    // GRD-HALF: a unit on guard cannot work.
    if act.on_guard(act.unit) {
        return Outcome::NotNow;
    }
    log_work(act.world, act.unit, at.location);
    Outcome::Ran(Progress::Step)
}

/// Counts a day of work of unit `u` at `place`, paid at month end (work done
/// elsewhere before is lost). Nothing where no money is paid (an engine without
/// this mechanic).
pub fn log_work(world: &mut World, u: Entity, place: Entity) {
    let Some(mut log) = world.get_resource_mut::<WorkLog>() else { return };
    log.day(u, place);
}

/// PFX-WORK: a day of the invisible WORK for every idle unit, where it stands.
///
/// When the idle units are many of the world's (a big world, where most units
/// have nothing to do but the invisible WORK), they are marked and every unit's
/// place read in one pass in the order the units are stored ([`work_marked`]),
/// without a look-up of each one's place and guard by entity (which finds the
/// query's columns again for every unit); when they are few, each is looked up
/// ([`work_each`]). Each unit's day of work is its own, so the order in which
/// they are counted changes nothing.
fn work_all(world: &mut World, units: &[Entity], day: u32) {
    let all = world.get_resource::<Directory>().map_or(0, |d| d.units().len());
    if units.len().saturating_mul(MARKED_BELOW) >= all {
        work_marked(world, units, day);
    } else {
        work_each(world, units, day);
    }
}

/// [`work_all`] marks the idle units and reads every unit once when at least
/// one unit in this many is idle.
const MARKED_BELOW: usize = 4;

/// [`work_all`] for a few units: each one's place and guard looked up by entity.
fn work_each(world: &mut World, units: &[Entity], day: u32) {
    // One query for the whole list: a lookup per unit without finding the
    // components' ids each time.
    let mut q = world.query::<(&At, Option<&OnGuard>)>();
    world.resource_scope(|world, mut log: Mut<WorkLog>| {
        for &u in units {
            let Ok((at, guard)) = q.get(world, u) else { continue };
            // GRD-HALF: a unit on guard cannot work.
            if guard.is_some_and(|g| g.0 == day) {
                continue;
            }
            log.day(u, at.location);
        }
    });
}

/// What [`work_marked`] keeps from one day to the next: the marks of the units
/// to work (each day's with a stamp of its own, so none is cleared), and its
/// queries.
#[derive(Resource, Default)]
struct IdleMarks {
    marks: ByEntity<u32>,
    stamp: u32,
    places: Option<QueryState<(Entity, &'static At)>>,
    guards: Option<QueryState<(Entity, &'static OnGuard)>>,
}

/// [`work_all`] for many units: they are marked, the marks of those on guard
/// today taken off (a pass over the guards), and every unit's place read in
/// storage order, a day counted for each marked one.
fn work_marked(world: &mut World, units: &[Entity], day: u32) {
    let mut idle = world.remove_resource::<IdleMarks>().unwrap_or_default();
    // Stamp 0 marks no unit: it is what a slot set by `ByEntity` starts with.
    idle.stamp = idle.stamp.checked_add(1).unwrap_or_else(|| {
        idle.marks.clear();
        1
    });
    let stamp = idle.stamp;
    for &u in units {
        idle.marks.set(u, stamp);
    }
    let mut guards = idle.guards.take().unwrap_or_else(|| world.query());
    // GRD-HALF: a unit on guard cannot work.
    for (u, g) in guards.iter(world) {
        if g.0 == day && idle.marks.get(u) == Some(&stamp) {
            idle.marks.set(u, 0);
        }
    }
    let mut places = idle.places.take().unwrap_or_else(|| world.query());
    world.resource_scope(|world, mut log: Mut<WorkLog>| {
        for (u, at) in places.iter(world) {
            if idle.marks.get(u) == Some(&stamp) {
                log.day(u, at.location);
            }
        }
    });
    idle.places = Some(places);
    idle.guards = Some(guards);
    world.insert_resource(idle);
}

/// MON-WAGE: work is paid in money at the end of the month.
pub fn pay_wages(world: &mut World) {
    let log = std::mem::take(&mut *world.resource_mut::<WorkLog>());
    let Some(money) = world.resource::<Catalog>().money() else { return };
    let (day, days) = {
        let c = world.resource::<Clock>();
        (c.tick, c.ticks.max(1))
    };
    // Each unit is paid on its own: in the order the units are stored.
    let units = crate::systems::overlord::world::in_stored_order(world.resource::<Directory>().units());
    for u in units {
        let Some((place, worked)) = log.get(u) else { continue };
        let Some(at) = world.get::<At>(u).copied() else { continue };
        let figures = world.get::<Figures>(u).map_or(0, |f| f.0);
        let wages = world.get::<Wages>(place).map_or(0, |w| w.0);
        if worked == 0 || (wages == 0 && at.location == place) {
            continue;
        }
        let place_name = label(world, place);
        let catalog = world.resource::<Catalog>();
        let note = if at.location != place {
            format!("Lost the wages of {worked} days of work in {place_name}: the unit left.")
        } else {
            let pay = u64::from(figures) * u64::from(wages) * u64::from(worked) / u64::from(days);
            // "Earned 12 coins [coin] for 30 days of work in Plain [L1]."
            let mut text = String::with_capacity(48 + place_name.len());
            text.push_str("Earned ");
            catalog.write_items_text(&mut text, money, pay);
            text.push_str(" for ");
            text.push_str(itoa::Buffer::new().format(worked));
            text.push_str(" days of work in ");
            text.push_str(&place_name);
            text.push('.');
            if pay > 0 {
                let mut inv = world.get_mut::<Inventory>(u).expect("unit");
                crate::systems::overlord::mechanics::transfer::add(
                    &mut inv,
                    money,
                    pay.min(u64::from(u32::MAX)) as u32,
                );
            }
            text
        };
        if let Some(mut e) = world.get_mut::<Events>(u) {
            e.push(day, note);
        }
    }
}

/// One unit's bill.
struct Bill {
    unit: Entity,
    faction: Entity,
    location: Entity,
    due: u64,
    support: bool,
}

/// MON-UPKEEP: every unit pays its upkeep, in food and money.
pub fn pay_upkeep(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let params = &catalog.rules.info.parameters;
    let Some(money) = catalog.money() else { return };
    let clock = *world.resource::<Clock>();
    let season = catalog.season(world.resource::<crate::systems::overlord::world::resources::Month>().0);
    let percent = season.map_or(100, |s| u64::from(s.system.upkeep_percent));
    let rations: Vec<_> = params.rations.iter().filter_map(|t| catalog.item(t)).collect();
    let units = world.resource::<Directory>().units().to_vec();
    // Food first: each unit's own rations, then rations shared by units of the
    // faction in the same place (SET-SHARE); then each unit's bill in money.
    struct Mouth {
        unit: Entity,
        faction: Entity,
        location: Entity,
        figures: u64,
        owed: u64,
        fed: u64,
        support: bool,
        share: bool,
        eaten: Vec<(crate::systems::overlord::world::ItemId, u64)>,
    }
    let mut mouths: Vec<Mouth> = Vec::with_capacity(units.len());
    for &u in &units {
        let (Some(stats), Some(figures), Some(owner), Some(at)) =
            (world.get::<UnitStats>(u), world.get::<Figures>(u), world.get::<Owner>(u), world.get::<At>(u))
        else {
            continue;
        };
        let (figures, faction, location) = (u64::from(figures.0), owner.0, at.location);
        if !params.npc_upkeep && world.get::<FactionRole>(faction).is_some_and(|f| f.npc) {
            continue;
        }
        let owed = stats.upkeep() * percent / 100;
        let us = world.get::<UnitSettings>(u).map(|x| &x.0);
        let fs = world.get::<FactionSettings>(faction).map(|f| &f.0);
        let flag = |unit: fn(&crate::systems::overlord::data::UnitSettings) -> bool,
                    fac: fn(&crate::systems::overlord::data::FactionSettings) -> bool| {
            us.is_some_and(unit) || fs.is_some_and(fac)
        };
        let (support, share, consume) =
            (flag(|s| s.support, |s| s.support), flag(|s| s.share, |s| s.share), flag(|s| s.consume, |s| s.consume));
        let mut m = Mouth { unit: u, faction, location, figures, owed, fed: 0, support, share, eaten: Vec::new() };
        if owed > 0 && figures > 0 {
            eat(world, u, &rations, consume, &mut m.fed, figures, &mut m.eaten);
        }
        mouths.push(m);
    }
    if mouths.iter().any(|m| m.share) {
        // The sharing units of each faction and place, in report order.
        let mut sharers: BTreeMap<(Entity, Entity), Vec<usize>> = BTreeMap::new();
        for (j, m) in mouths.iter().enumerate().filter(|(_, m)| m.share) {
            sharers.entry((m.faction, m.location)).or_default().push(j);
        }
        for i in 0..mouths.len() {
            if mouths[i].owed == 0 || mouths[i].fed >= mouths[i].figures {
                continue;
            }
            let Some(givers) = sharers.get(&(mouths[i].faction, mouths[i].location)) else { continue };
            for &j in givers {
                let (a, b) = (&mouths[i], &mouths[j]);
                if i == j {
                    continue;
                }
                let (giver, need) = (b.unit, a.figures - a.fed);
                let mut got = 0;
                let mut from = Vec::new();
                eat(world, giver, &rations, true, &mut got, need, &mut from);
                mouths[i].fed += got;
                mouths[i].eaten.extend(from);
                if mouths[i].fed >= mouths[i].figures {
                    break;
                }
            }
        }
    }
    let mut bills = Vec::with_capacity(mouths.len());
    for m in mouths {
        let covered = m.owed * m.fed * u64::from(params.ration_percent) / (m.figures.max(1) * 100);
        if !m.eaten.is_empty() {
            let mut text = String::from("Ate ");
            for (k, &(r, n)) in m.eaten.iter().enumerate() {
                if k > 0 {
                    text.push_str(", ");
                }
                catalog.write_items_text(&mut text, r, n);
            }
            text.push_str(" as upkeep.");
            world.get_mut::<Events>(m.unit).expect("unit").push(clock.tick, text);
        }
        let bill =
            Bill { unit: m.unit, faction: m.faction, location: m.location, due: m.owed - covered, support: m.support };
        bills.push((bill, 0u64));
    }
    // Own cash, unless the unit draws on faction funds first.
    for (b, paid) in bills.iter_mut() {
        if !b.support {
            *paid += take_cash(world, b.unit, money, b.due);
        }
    }
    // What is left: helpers of the same faction in the same place, faction funds.
    // The bills of each faction and place, in report order: runs of `by_place`.
    let mut by_place: Vec<usize> = (0..bills.len()).collect();
    by_place.sort_by_key(|&j| (bills[j].0.faction, bills[j].0.location));
    let mut helpers = vec![0..0; bills.len()];
    let mut start = 0;
    for run in by_place
        .chunk_by(|&a, &b| (bills[a].0.faction, bills[a].0.location) == (bills[b].0.faction, bills[b].0.location))
    {
        for &j in run {
            helpers[j] = start..start + run.len();
        }
        start += run.len();
    }
    let owing: Vec<u64> = bills.iter().map(|(b, paid)| b.due - *paid).collect();
    let mut outcome = Vec::with_capacity(bills.len());
    for (i, (b, paid)) in bills.iter().enumerate() {
        let mut paid = *paid;
        let mut from = Vec::new();
        if paid > 0 && paid < b.due {
            from.push(format!("{paid} from its own cash"));
        }
        if b.support {
            let f = take_funds(world, b.faction, money, b.due - paid);
            if f > 0 {
                from.push(format!("{f} from the faction funds"));
            }
            paid += f;
            let own = take_cash(world, b.unit, money, b.due - paid);
            if own > 0 {
                from.push(format!("{own} from its own cash"));
            }
            paid += own;
        }
        if paid < b.due {
            for &j in &by_place[helpers[i].clone()] {
                let h = bills[j].0.unit;
                if j == i || owing[j] > 0 {
                    continue;
                }
                let got = take_cash(world, h, money, b.due - paid);
                if got > 0 {
                    let name = label(world, h);
                    from.push(format!("{got} from {name}"));
                    paid += got;
                }
                if paid == b.due {
                    break;
                }
            }
        }
        if paid < b.due && !b.support {
            let f = take_funds(world, b.faction, money, b.due - paid);
            if f > 0 {
                from.push(format!("{f} from the faction funds"));
            }
            paid += f;
        }
        outcome.push((b.unit, b.due, paid, from));
    }
    let dissent = params.dissent_effect.as_deref().and_then(|t| catalog.effect(t));
    let mut deserters = Vec::new();
    for (u, due, paid, from) in outcome {
        if due == 0 {
            continue;
        }
        let mut text = String::with_capacity(48);
        if paid < due {
            text.push_str("Could pay only ");
            text.push_str(itoa::Buffer::new().format(paid));
            text.push_str(" of the ");
            catalog.write_items_text(&mut text, money, due);
            text.push_str(" of upkeep.");
            let disaffected = dissent.is_some_and(|d| world.get::<Effects>(u).is_some_and(|e| e.has(d)));
            if disaffected {
                deserters.push(u);
            } else if let Some(d) = dissent {
                world.get_mut::<Effects>(u).expect("unit").set(d, params.dissent_days);
                text.push_str(" The unit is disaffected.");
            }
        } else {
            // "Paid 12 coins [coin] of upkeep (5 from its own cash, 7 from …)."
            text.push_str("Paid ");
            catalog.write_items_text(&mut text, money, due);
            text.push_str(" of upkeep");
            for (k, f) in from.iter().enumerate() {
                text.push_str(if k == 0 { " (" } else { ", " });
                text.push_str(f);
            }
            text.push_str(if from.is_empty() { "." } else { ")." });
        }
        world.get_mut::<Events>(u).expect("unit").push(clock.tick, text);
    }
    for u in deserters {
        let figures = world.get::<Figures>(u).map_or(0, |f| f.0);
        let name = label(world, u);
        if let Some(f) = world.get::<Owner>(u).map(|o| o.0) {
            let text =
                format!("{name} was not paid again and deserted; its {figures} figures joined the local population.");
            world.get_mut::<Events>(f).expect("faction").push(clock.tick, text);
        }
        world.get_mut::<Events>(u).expect("unit").push(clock.tick, "Deserted, not paid again.");
        crate::systems::overlord::mechanics::stacks::remove_unit(world, u, true);
    }
}

/// Unit `u` gives up to `want` rations (equipped ones, or any with `all`): adds
/// them to `fed` and lists them in `eaten`.
fn eat(
    world: &mut World,
    u: Entity,
    rations: &[crate::systems::overlord::world::ItemId],
    all: bool,
    fed: &mut u64,
    want: u64,
    eaten: &mut Vec<(crate::systems::overlord::world::ItemId, u64)>,
) {
    if rations.is_empty() {
        return;
    }
    let Some(mut inv) = world.get_mut::<Inventory>(u) else { return };
    let start = *fed;
    for &r in rations {
        let Some(h) = inv.0.iter_mut().find(|h| h.item == r) else { continue };
        let usable = if all { h.count } else { h.equipped.min(h.count) };
        let take = u64::from(usable).min(want - (*fed - start)) as u32;
        if take > 0 {
            h.count -= take;
            h.equipped = h.equipped.saturating_sub(take).min(h.count);
            *fed += u64::from(take);
            match eaten.iter_mut().find(|x| x.0 == r) {
                Some(x) => x.1 += u64::from(take),
                None => eaten.push((r, u64::from(take))),
            }
        }
    }
    inv.0.retain(|h| h.count > 0);
}

/// Takes up to `want` money from unit `u`'s cash; returns how much.
fn take_cash(world: &mut World, u: Entity, money: crate::systems::overlord::world::ItemId, want: u64) -> u64 {
    if want == 0 {
        return 0;
    }
    let Some(mut inv) = world.get_mut::<Inventory>(u) else { return 0 };
    let Some(i) = inv.0.iter().position(|h| h.item == money) else { return 0 };
    let h = &mut inv.0[i];
    let take = u64::from(h.count).min(want) as u32;
    h.count -= take;
    h.equipped = h.equipped.min(h.count);
    if h.count == 0 {
        inv.0.remove(i);
    }
    u64::from(take)
}

/// Takes up to `want` money from faction `f`'s funds; returns how much.
fn take_funds(world: &mut World, f: Entity, money: crate::systems::overlord::world::ItemId, want: u64) -> u64 {
    if want == 0 {
        return 0;
    }
    let Some(mut funds) = world.get_mut::<Funds>(f) else { return 0 };
    let Some(x) = funds.0.iter_mut().find(|x| x.0 == money) else { return 0 };
    let take = x.1.min(want);
    x.1 -= take;
    take
}
