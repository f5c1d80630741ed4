//! Production: USE of harvesting and crafting skills (ORD-USE, SKL-USE-HARVEST,
//! SKL-USE-CRAFT, SKL-TOOL, SKL-EXP-USE, RES-SHARE, RES-NOCARRY).
//!
//! A unit's level in the skill gives the production of that level
//! (`levels[n].production`): a batch takes `days` figure-days and yields `multiple`
//! of the output (or, for a harvest, the `harvest` count of the resource). Each day
//! of USE adds figures × speed to the unit's work in progress (speed, batches and
//! experience: [`skill_use`](super::skill_use)). Work in progress is kept across
//! days and months; using another skill drops it.
//!
//! * **Harvest**: the batches completed today ask for resource from the location's
//!   stock of the month (`resources`). When the day's demand at a location exceeds
//!   the stock, harvesters share it in proportion to their demand, rounded down
//!   (RES-SHARE; TV-HARVEST: 15 for 20 and 40 gives 5 and 10). Work beyond what the
//!   land gave is lost, but for less than a batch. Where a unit is on guard whose
//!   faction's stance toward the harvester's does not grant `Harvest`, the harvest
//!   is refused (GRD-EFFECT).
//! * **Renewal** (RES-NOCARRY): at month end every stock is back to its monthly
//!   amount (`max`); what was not harvested is not carried over. Seasons act on the
//!   harvest through the skills' season bonuses (`climate.ron`).
//! * **Owner** (RES-OWNER, rulings 11): the land's legal owner lets only the
//!   factions its stance grants `Harvest` (Friendly and better) harvest there.
//! * **Craft**: the inputs of a batch are consumed when it starts. A batch that
//!   cannot start leaves the figures idle; a USE that cannot start at all waits.
//!
//! `USE skill` is one day of work (`N USE`, `@USE` for more); `USE skill number`
//! goes on until `number` items are made (`@USE HORS 10`). Building skills are
//! `structures`'; enchanting, summoning and special actions come with their
//! mechanics.

use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::UseKind;
use crate::systems::overlord::mechanics::scheduler::{Act, not_yet};
use crate::systems::overlord::mechanics::skill_use::{
    Retarget, Specs, UseHandlers, batches, daily_work, first_inputs, gain_experience, lacks_inputs,
};
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::{Entry, Order};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Events, Inventory, Orders, Production, Resources};
use crate::systems::overlord::world::ids::{ItemId, SkillId};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use std::collections::BTreeMap;

#[cfg(test)]
mod tests;

/// The day's harvest demands, settled after the full-day orders.
#[derive(Resource, Debug, Default)]
pub struct Harvests(Vec<Claim>);

#[derive(Debug, Clone)]
struct Claim {
    unit: Entity,
    location: Entity,
    item: ItemId,
    skill: SkillId,
    /// Items the work done allows today.
    wanted: u32,
    /// Items per batch, and the work a batch takes (hundredths of figure-days).
    per_batch: u32,
    batch: u32,
    /// Work in progress including today's.
    progress: u32,
}

/// Carries out USE of harvesting and crafting skills, and adds [`settle_harvests`]
/// after the full-day orders.
pub struct ProductionPlugin;

impl Plugin for ProductionPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Harvests>();
        let mut h = app.world_mut().resource_mut::<UseHandlers>();
        h.set(module_path!(), UseKind::Harvest, use_skill, Retarget::Keep);
        h.set(module_path!(), UseKind::Craft, use_skill, Retarget::Keep);
        app.add_step_system("harvests", settle_harvests);
        app.add_step_system("places", renew_resources);
    }
}

/// USE of a harvesting or crafting skill (ORD-USE), at the unit's `level`.
fn use_skill(act: &mut Act, entry: &mut Entry, skill: SkillId, level: u32) -> Outcome {
    let Order::Use { count, .. } = entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let catalog = act.catalog();
    let Some(prod) = act.world.resource::<Specs>().0[skill.index()][level as usize - 1].clone() else {
        not_yet(act.world, me, act.day, entry, "this use of a skill");
        return Outcome::NotNow;
    };
    // What a USE that waits reads of the unit every day, in one look-up.
    let look = act.me();
    let Some(at) = look.at else { return Outcome::NotNow };
    // GRD-HALF: a guard works with half its figures, rounded down.
    let figures = look.working_figures(catalog);
    if figures == 0 {
        return Outcome::NotNow;
    }
    // The day's work (`daily_work`, which only reads) is reckoned once the order
    // is known to run today: a USE that waits (nothing left to harvest, no
    // inputs for a batch) is tried again every day.
    let batch = prod.batch;
    let wip = match look.production {
        Some((k, x)) if k == skill => x,
        _ => 0,
    };
    if let Some((item, per_batch)) = prod.harvest {
        // GRD-EFFECT: guards stop factions they do not hold Friendly from the land's
        // resources.
        if let Some(g) = crate::systems::overlord::mechanics::guards::guard_against(
            act.world,
            at.location,
            me,
            crate::systems::overlord::data::StanceGrant::Harvest,
        ) {
            let name = act.name(g);
            return Outcome::Invalid(format!("{name}, on guard here, does not let this unit's faction harvest"));
        }
        // RES-OWNER, rulings 11, OWN-POLICY: the land's owner, and its occupier, let
        // only the factions their stance grants harvest.
        if let Some((o, role)) = crate::systems::overlord::mechanics::diplomacy::barring(
            act.world,
            at.location,
            me,
            crate::systems::overlord::data::StanceGrant::Harvest,
        ) {
            let name = act.name(o);
            return Outcome::Invalid(format!("{name}, who {role}, does not let this unit's faction harvest"));
        }
        // Nothing left today: no harvest, no experience; the work in progress stays.
        if stock(act.world, at.location, item) == 0 {
            let why = format_args!("there is no {} to harvest here this month", catalog.item_label(item));
            crate::systems::overlord::mechanics::scheduler::waits(act.world, me, act.day, entry, why);
            return Outcome::NotNow;
        }
        let total = wip + daily_work(act, catalog, skill, &prod.tools, figures);
        let mut wanted = total / batch * per_batch;
        if let Some(n) = count {
            wanted = wanted.min(n);
        }
        act.world.resource_mut::<Harvests>().0.push(Claim {
            unit: me,
            location: at.location,
            item,
            skill,
            wanted,
            per_batch,
            batch,
            progress: total,
        });
        gain_experience(act, catalog, skill);
        return Outcome::Ran(if count.is_some() { Progress::Continue } else { Progress::Step });
    }
    // Crafting: a batch's inputs go when it starts.
    let Some(output) = prod.output else {
        not_yet(act.world, me, act.day, entry, "this use of a skill");
        return Outcome::NotNow;
    };
    // A first batch whose inputs are lacking: the order waits (as `first_inputs`
    // says), without the day's work reckoned. Reckoned before the inputs go, as
    // they may be tools that speed the work.
    // Only the unit's own items or work can end this wait (the checks above
    // that could end it otherwise wait too, or read its orders, race and skills).
    if lacks_inputs(look.production, look.inventory, skill, &prod) {
        act.waits_on_itself();
        return Outcome::NotNow;
    }
    let gain = daily_work(act, catalog, skill, &prod.tools, figures);
    let Some(wip) = first_inputs(act, skill, &prod) else { return Outcome::NotNow };
    let (mut made, mut remaining) = (0u32, count);
    batches(act, skill, &prod, wip, gain, |_| {
        made += prod.multiple;
        if let Some(n) = remaining.as_mut() {
            *n = n.saturating_sub(prod.multiple);
        }
        remaining != Some(0)
    });
    if made > 0 {
        crate::systems::overlord::mechanics::transfer::add(
            &mut act.world.get_mut::<Inventory>(me).expect("unit"),
            output,
            made,
        );
        // VIS-SEE: a unit making money shows itself.
        if catalog.is_money(output) {
            crate::systems::overlord::mechanics::visibility::expose(act.world, me);
        }
        act.routine(format!("Produced {}.", catalog.items_text(output, u64::from(made))));
    }
    if let (Some(n), Order::Use { count: c, .. }) = (remaining, &mut entry.order) {
        *c = Some(n);
        if n == 0 {
            return Outcome::Ran(Progress::Done);
        }
    }
    Outcome::Ran(if count.is_some() { Progress::Continue } else { Progress::Step })
}

/// What is left this month of resource `item` at `location`.
fn stock(world: &World, location: Entity, item: ItemId) -> u32 {
    world.get::<Resources>(location).and_then(|l| l.0.iter().find(|r| r.item == item)).map_or(0, |r| r.current)
}

/// RES-SHARE: the day's harvests, location by location and resource by resource;
/// demand beyond the stock is shared in proportion.
pub fn settle_harvests(world: &mut World) {
    let claims = std::mem::take(&mut world.resource_mut::<Harvests>().0);
    if claims.is_empty() {
        return;
    }
    let catalog = world.resource::<Catalog>().clone();
    let day = world.resource::<Clock>().tick;
    let mut groups: BTreeMap<(Entity, ItemId), Vec<usize>> = BTreeMap::new();
    for (i, c) in claims.iter().enumerate() {
        groups.entry((c.location, c.item)).or_default().push(i);
    }
    let mut given = vec![0u32; claims.len()];
    for ((location, item), idx) in groups {
        let available = stock(world, location, item);
        let demand: u64 = idx.iter().map(|&i| u64::from(claims[i].wanted)).sum();
        let mut taken = 0u32;
        for &i in &idx {
            let w = claims[i].wanted;
            let g = if demand <= u64::from(available) {
                w
            } else {
                (u64::from(available) * u64::from(w) / demand.max(1)) as u32
            };
            given[i] = g;
            taken += g;
        }
        if taken == 0 {
            continue;
        }
        if let Some(mut l) = world.get_mut::<Resources>(location)
            && let Some(r) = l.0.iter_mut().find(|r| r.item == item)
        {
            r.current -= taken.min(r.current);
        }
    }
    for (i, c) in claims.iter().enumerate() {
        let g = given[i];
        // Work turned into items is spent; what the land could not give is lost, but
        // for less than a batch.
        let spent = g.div_ceil(c.per_batch) * c.batch;
        let left = c.progress.saturating_sub(spent).min(c.batch - 1);
        if let Some(mut p) = world.get_mut::<Production>(c.unit) {
            p.0 = Some((c.skill, left));
        }
        if g == 0 {
            continue;
        }
        crate::systems::overlord::mechanics::transfer::add(
            &mut world.get_mut::<Inventory>(c.unit).expect("unit"),
            c.item,
            g,
        );
        // VIS-SEE: a unit taking something of weight out of the land shows itself.
        if catalog.rules.items[c.item.index()].weight > 0 {
            crate::systems::overlord::mechanics::visibility::expose(world, c.unit);
        }
        // SET-SILENT, the unit's or its faction's.
        let silent = crate::systems::overlord::world::silent(world, c.unit);
        if !silent && let Some(mut e) = world.get_mut::<Events>(c.unit) {
            e.push(day, format!("Harvested {}.", catalog.items_text(c.item, u64::from(g))));
        }
        // A stop condition (`USE HORS 10`) counts what was harvested.
        if let Some(mut o) = world.get_mut::<Orders>(c.unit)
            && let Some(i) = o.0.iter().position(|q| {
                q.ran_on == day && matches!(q.entry.order, Order::Use { skill, count: Some(_) } if skill == c.skill)
            })
        {
            let done = match &mut o.0[i].entry.order {
                Order::Use { count: Some(n), .. } => {
                    *n = n.saturating_sub(g);
                    *n == 0
                }
                _ => false,
            };
            if done {
                o.0.remove(i);
            }
        }
    }
}

/// RES-NOCARRY: next month's stocks, fresh; nothing carried over.
pub fn renew_resources(mut q: Query<&mut Resources>) {
    for mut r in &mut q {
        for s in r.0.iter_mut() {
            s.current = s.max;
        }
    }
}
