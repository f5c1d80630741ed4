//! Order intake, before day 1 of the month.
//!
//! 1. [`apply_submissions`] (step `orders`): each submitted order file replaces
//!    the pending orders of the units it has a `UNIT` block for (FILE-REPLACE). Units
//!    without a block keep their list (FILE-PERSIST). Blocks for new ids
//!    (`f06nU01`) wait in [`NewIds`] until an order creates the unit
//!    (FILE-NEWID-LIFE).
//! 2. [`apply_faction_orders`] (step `faction_orders`): the faction orders before
//!    the first `UNIT` (§5): NAME, PASSWORD, EMAIL, SETTING, RESIGN, RESHOW (MON-PRE).
//!
//! A block for a unit that does not exist or belongs to another faction is ignored,
//! with the same message in both cases, so that a player cannot probe for other
//! factions' unit ids.

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::orders::line::{is_new_id, is_new_id_of};
use crate::systems::overlord::orders::queue::Queued;
use crate::systems::overlord::orders::syntax::Setting;
use crate::systems::overlord::orders::{FactionOrder, OrderFile};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    Contact, DisplayName, Events, FactionRole, FactionSettings, Id, Orders, Owner, Race, Unit,
};
use crate::systems::overlord::world::resources::{Directory, Kind, Submissions};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use std::collections::BTreeMap;

/// Adds [`apply_submissions`] and [`apply_faction_orders`].
pub struct IntakePlugin;

impl Plugin for IntakePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<NewIds>();
        app.add_step_system("orders", apply_submissions);
        app.add_step_system("faction_orders", apply_faction_orders);
    }
}

/// FAC-RESHOW as the knowledge mechanic carries it out: faction, what, level → what
/// the faction is told. Installed by that mechanic's plugin.
#[derive(Resource, Clone, Copy)]
pub struct ReshowRule(pub fn(&mut World, Entity, &str, Option<u32>) -> String);

/// Orders for units not created yet, by new id (FILE-NEWID-LIFE), and the units
/// whose lists name each new id. Emptied at the end of the month: ids never created
/// vanish with every order naming them.
#[derive(Resource, Debug, Default)]
pub struct NewIds {
    /// New id → (faction, its pending orders).
    pub blocks: BTreeMap<String, (Entity, Vec<Queued>)>,
    /// New id → units whose lists name it.
    pub named_by: BTreeMap<String, Vec<Entity>>,
}

impl NewIds {
    /// New id `new_id` became unit `id` (RECRUIT, SPLIT; FILE-NEWID-LIFE): every list
    /// naming it now names `id`, and the orders given to it are returned, renamed, for
    /// the new unit. The id is no longer purged at the end of the month.
    pub fn adopt(world: &mut World, new_id: &str, id: &str) -> Vec<Queued> {
        let (mut block, named_by) = {
            let mut new = world.resource_mut::<NewIds>();
            (
                new.blocks.remove(new_id).map(|b| b.1).unwrap_or_default(),
                new.named_by.remove(new_id).unwrap_or_default(),
            )
        };
        for q in &mut block {
            q.entry.order.rename_reference(new_id, id);
        }
        for u in named_by {
            if let Some(mut o) = world.get_mut::<Orders>(u) {
                for q in &mut o.0 {
                    q.entry.order.rename_reference(new_id, id);
                }
            }
        }
        block
    }

    /// Notes the new ids that unit `u`'s list names, so that they are renamed or
    /// purged with the others.
    pub fn watch(world: &mut World, u: Entity) {
        let named: Vec<String> = world
            .get::<Orders>(u)
            .map(|o| {
                o.0.iter()
                    .flat_map(|q| q.entry.order.references())
                    .filter(|r| is_new_id(r, 'U') || is_new_id(r, 'B'))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let mut new = world.resource_mut::<NewIds>();
        for id in named {
            let by = new.named_by.entry(id).or_default();
            if !by.contains(&u) {
                by.push(u);
            }
        }
    }
}

/// Applies the month's order files, in faction order.
pub fn apply_submissions(world: &mut World) {
    let submissions = std::mem::take(&mut world.resource_mut::<Submissions>().0);
    world.resource_mut::<NewIds>().blocks.clear();
    world.resource_mut::<NewIds>().named_by.clear();
    for file in &submissions {
        apply_file(world, file);
    }
    world.resource_mut::<Submissions>().0 = submissions;
}

fn apply_file(world: &mut World, file: &OrderFile) {
    let Some(faction) = world.resource::<Directory>().get(Kind::Faction, &file.header.faction) else { return };
    let faction_id = file.header.faction.clone();
    let mut notes = Vec::new();
    for w in &file.warnings {
        notes.push(format!("Orders, {w}."));
    }
    for block in &file.units {
        let list: Vec<Queued> = block.orders.iter().map(|l| Queued::new(l.entry.clone())).collect();
        let named: Vec<String> = list
            .iter()
            .flat_map(|q| q.entry.order.references())
            .filter(|r| is_new_id(r, 'U') || is_new_id(r, 'B'))
            .map(str::to_string)
            .collect();
        if is_new_id(&block.unit, 'U') {
            if !is_new_id_of(&block.unit, 'U', &faction_id) {
                notes.push(format!(
                    "Line {}: orders for {} ignored: new units of your faction are named {faction_id}nU00 to {faction_id}nU99.",
                    block.line, block.unit
                ));
                continue;
            }
            let mut new = world.resource_mut::<NewIds>();
            for id in named {
                new.named_by.entry(id).or_default();
            }
            new.blocks.insert(block.unit.clone(), (faction, list));
            continue;
        }
        let found = world
            .resource::<Directory>()
            .get(Kind::Unit, &block.unit)
            .filter(|&u| world.get::<Owner>(u).is_some_and(|o| o.0 == faction) && world.get::<Unit>(u).is_some());
        let Some(unit) = found else {
            notes.push(format!("Line {}: orders for {} ignored: not one of your units.", block.line, block.unit));
            continue;
        };
        let n = list.len();
        world.get_mut::<Orders>(unit).expect("units have orders").0 = list;
        world
            .get_mut::<Events>(unit)
            .expect("units have events")
            .push(0, format!("Received {n} order{}.", if n == 1 { "" } else { "s" }));
        let mut new = world.resource_mut::<NewIds>();
        for id in named {
            let by = new.named_by.entry(id).or_default();
            if !by.contains(&unit) {
                by.push(unit);
            }
        }
    }
    if let Some(mut events) = world.get_mut::<Events>(faction) {
        for n in notes {
            events.push(0, n);
        }
    }
}

/// Runs the faction orders of the month's files (MON-PRE, §5).
pub fn apply_faction_orders(world: &mut World) {
    let submissions = std::mem::take(&mut world.resource_mut::<Submissions>().0);
    for file in &submissions {
        let Some(faction) = world.resource::<Directory>().get(Kind::Faction, &file.header.faction) else { continue };
        for line in &file.faction_orders {
            let note = match &line.read {
                Err(reason) => format!("Line {}: `{}` ignored: {reason}.", line.line, line.text),
                Ok(order) => faction_order(world, faction, order),
            };
            world.get_mut::<Events>(faction).expect("factions have events").push(0, note);
        }
    }
    world.resource_mut::<Submissions>().0 = submissions;
}

fn faction_order(world: &mut World, faction: Entity, order: &FactionOrder) -> String {
    match order {
        FactionOrder::Name(name) => {
            world.get_mut::<DisplayName>(faction).expect("factions have names").0 = name.clone();
            format!("The faction is now called {name}.")
        }
        FactionOrder::Password(p) => {
            world.get_mut::<Contact>(faction).expect("faction").password = p.clone();
            "The password was changed.".into()
        }
        FactionOrder::Email(e) => {
            world.get_mut::<Contact>(faction).expect("faction").email = e.clone();
            format!("Reports now go to {e}.")
        }
        FactionOrder::Setting { setting, on } => {
            let mut f = world.get_mut::<FactionSettings>(faction).expect("faction");
            let s = &mut f.0;
            *match setting {
                Setting::Advertise => &mut s.advertise,
                Setting::Announce => &mut s.announce,
                Setting::Consume => &mut s.consume,
                Setting::Silent => &mut s.silent,
                Setting::Share => &mut s.share,
                Setting::Support => &mut s.support,
                Setting::Terse => &mut s.terse,
            } = *on;
            format!("Faction setting {} is {}.", setting.keyword(), if *on { "ON" } else { "OFF" })
        }
        FactionOrder::Resign(to) => resign(world, faction, to),
        FactionOrder::Reshow { what, level } => match world.get_resource::<ReshowRule>().map(|r| r.0) {
            Some(rule) => rule(world, faction, what, *level),
            None => format!("RESHOW {what}: this rule system keeps no knowledge; nothing was shown."),
        },
    }
}

/// FAC-RESIGN: every unit goes to the named faction, creatures to the creatures'
/// faction; the faction is left with no units.
fn resign(world: &mut World, faction: Entity, to: &str) -> String {
    let dir = world.resource::<Directory>();
    let takes = |f: Entity| world.get::<FactionRole>(f).is_some_and(|r| r.takes_resignations);
    let id_of = |f: Entity| world.get::<Id>(f).map_or("", |i| i.0.as_str());
    let target = dir.factions.iter().copied().find(|&f| takes(f) && id_of(f).eq_ignore_ascii_case(to));
    let Some(target) = target else {
        let names: Vec<&str> = dir.factions.iter().copied().filter(|&f| takes(f)).map(id_of).collect();
        return format!("RESIGN {to} refused: you may resign only to {}.", names.join(", "));
    };
    let creatures = dir.factions.iter().copied().find(|&f| world.get::<FactionRole>(f).is_some_and(|r| r.creatures));
    let units: Vec<Entity> =
        dir.units().iter().copied().filter(|&u| world.get::<Owner>(u).is_some_and(|o| o.0 == faction)).collect();
    let catalog = world.resource::<Catalog>().clone();
    let n = units.len();
    for u in units {
        let creature = world.get::<Race>(u).is_some_and(|r| {
            catalog.rules.races[r.0.index()].system.kind == crate::systems::overlord::data::RaceKind::Creature
        });
        let new = if creature { creatures.unwrap_or(target) } else { target };
        let to = world.get::<DisplayName>(new).map(|n| n.0.clone()).unwrap_or_default();
        let id = world.get::<Id>(new).map(|i| i.0.clone()).unwrap_or_default();
        world.get_mut::<Events>(u).expect("unit").push(0, format!("Now serves {to} [{id}]: the faction resigned."));
        crate::systems::overlord::world::change_faction(world, u, new);
    }
    let name = world.get::<DisplayName>(target).map(|n| n.0.clone()).unwrap_or_default();
    format!("The faction resigned: its {n} units went to {name} [{to}].")
}

#[cfg(test)]
mod tests;
