//! Units changing faction: OATH, GIVE of a whole unit, creatures following their
//! leaders (ORD-OATH, UNIT-XFER, MON-ALLEG, STK-CREATURE, CASH-FULL).
//!
//! * **OATH unit** (immediate, one-shot) waits until the unit meets the unit named
//!   (present and seen). It swears the unit to that unit's faction.
//! * **GIVE receiver unit** hands over a whole unit: the giver itself or a unit of
//!   its faction stacked under it (directly or further down). It waits, as GIVE of
//!   items does, until the receiver is present and seen.
//! * Either way the receiver's faction must accept gifts from the unit's faction
//!   (the `Gifts` grant of its stance, as for items: "giving whole units follows the
//!   same rules as giving individual items"). A faction cannot be handed units it
//!   does not want, and so their control points and upkeep.
//! * The unit stays with its faction until the end of the month: it goes on with its
//!   orders, and that faction pays its upkeep (CASH-FULL: upkeep comes before
//!   allegiance). At the month's `allegiance` step it changes faction: its order list
//!   is emptied, so it WORKs until its new faction orders it (UNIT-XFER), and its
//!   month's events go to the old faction's report, which is told where the unit
//!   went. The new faction sees the unit in its report without the events. The unit
//!   keeps its place in any stack, its possessions and its title. If it swore twice,
//!   the last oath holds; a unit that died, or whose new faction is gone, stays.
//! * **Creatures** (STK-CREATURE) then take the faction of the leader they are
//!   stacked under. A player's creature unit that stands alone goes back to the
//!   faction the scenario marks `creatures` (RULINGS §15). So a creature that swears
//!   to another faction while its old faction's leader still leads it stays.

#[cfg(test)]
mod tests;

use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::{RaceKind, StanceGrant};
use crate::systems::overlord::mechanics::diplomacy;
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, label};
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::{Entry, Keyword, Order};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    Destroyed, Events, FactionRole, Orders, Owner, Race, StackLeader, Unit,
};
use crate::systems::overlord::world::resources::Directory;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Registers OATH and the month's changes of allegiance.
pub struct AllegiancePlugin;

impl Plugin for AllegiancePlugin {
    fn build(&self, app: &mut App) {
        app.world_mut().resource_mut::<OrderHandlers>().set(module_path!(), Keyword::Oath, oath);
        app.add_step_system("allegiance", change_allegiances);
        app.add_step_system("allegiance", creatures_follow_their_leaders);
    }
}

/// A unit sworn or given to another faction this month: it joins `faction` at the
/// month's end. It lives only within the month (the turn applies it), so it is not
/// saved.
#[derive(Component, Debug, Clone, Copy)]
#[component(storage = "SparseSet")]
pub struct Pledge {
    /// The faction the unit joins.
    pub faction: Entity,
    /// The unit it met (the receiver of a GIVE, the unit named by OATH).
    pub before: Entity,
}

/// ORD-OATH.
fn oath(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Oath(target) = &entry.order else { return Outcome::NotNow };
    let Some(to) = act.unit_named(target) else { return Outcome::NotNow };
    swear(act, act.unit, to)
}

/// Swears unit `given` to the faction of unit `to`, whom the acting unit meets
/// (OATH, and GIVE of a unit): waits until `to` is present and seen; refuses when
/// `to` is of the unit's own faction or its faction accepts no gifts from the unit's.
pub fn swear(act: &mut Act, given: Entity, to: Entity) -> Outcome {
    if to == given {
        return Outcome::Invalid("a unit cannot be given or sworn to itself".into());
    }
    if !act.sees(to) {
        return Outcome::NotNow;
    }
    let Some(faction) = act.faction_of(to) else { return Outcome::NotNow };
    if act.faction_of(given) == Some(faction) {
        return Outcome::Invalid(format!("{} is of the same faction", act.name(to)));
    }
    if !diplomacy::unit_grants(act.world, to, given, StanceGrant::Gifts) {
        return Outcome::Invalid(format!("{}'s faction accepts no units from this one's", act.name(to)));
    }
    act.world.entity_mut(given).insert(Pledge { faction, before: to });
    let (who, them, side) = (act.name(given), act.name(to), label(act.world, faction));
    let text = format!("{who} swore allegiance to {side} before {them}; it serves its faction until the month's end.");
    act.log(text);
    act.event(to, format!("{who} swore allegiance to your faction before {them}; it joins at the month's end."));
    Outcome::Ran(Progress::Done)
}

/// MON-ALLEG, UNIT-XFER: sworn and given units join their new factions, in report
/// order.
pub fn change_allegiances(world: &mut World) {
    let pledged: Vec<(Entity, Pledge)> = {
        let mut q = world.query::<(Entity, &Pledge)>();
        q.iter(world).map(|(e, p)| (e, *p)).collect()
    };
    if pledged.is_empty() {
        return;
    }
    let dir = world.resource::<Directory>();
    let mut pledged = pledged;
    pledged.sort_by_key(|(u, _)| dir.unit_key(*u).unwrap_or(u64::MAX));
    let day = world.resource::<Clock>().tick;
    for (u, p) in pledged {
        world.entity_mut(u).remove::<Pledge>();
        let Some(old) = world.get::<Owner>(u).map(|o| o.0) else { continue };
        if !world.entity(u).contains::<Unit>() || old == p.faction {
            continue;
        }
        let name = label(world, u);
        if world.entity(p.faction).contains::<Destroyed>() {
            world
                .get_mut::<Events>(old)
                .expect("faction")
                .push(day, format!("{name} stays with the faction: the faction it swore to is no more."));
            continue;
        }
        let (to, from) = (label(world, p.faction), label(world, old));
        // RPT-XFER: the old faction still reads the unit in full, its month to the
        // last; the new one only sees the unit.
        world.get_mut::<Events>(u).expect("unit").push(day, format!("Now serves {to}."));
        crate::systems::overlord::world::change_faction(world, u, p.faction);
        world.get_mut::<Events>(old).expect("faction").push(day, format!("{name} now serves {to}."));
        world.get_mut::<Orders>(u).expect("unit").0.clear();
        world
            .get_mut::<Events>(p.faction)
            .expect("faction")
            .push(day, format!("{name} joined the faction from {from}."));
    }
}

/// STK-CREATURE: creature units follow their stack leader's faction; alone, a
/// player's creatures return to the creatures' faction.
pub fn creatures_follow_their_leaders(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let dir = world.resource::<Directory>();
    let units = dir.units().to_vec();
    let creatures_faction =
        dir.factions.iter().copied().find(|&f| world.get::<FactionRole>(f).is_some_and(|x| x.creatures));
    let day = world.resource::<Clock>().tick;
    for u in units {
        let Some(race) = world.get::<Race>(u) else { continue };
        if catalog.rules.races[race.0.index()].system.kind != RaceKind::Creature {
            continue;
        }
        let Some(owner) = world.get::<Owner>(u).map(|o| o.0) else { continue };
        let leader = world.get::<StackLeader>(u).and_then(|s| s.0);
        let target = match leader {
            Some(l) => world.get::<Owner>(l).map(|o| o.0),
            None if world.get::<FactionRole>(owner).is_some_and(|f| !f.npc) => creatures_faction,
            None => None,
        };
        let Some(target) = target.filter(|&t| t != owner) else { continue };
        let name = label(world, u);
        // The faction's name as it stands this month (NAME may have changed it).
        let to = label(world, target);
        world.get_mut::<Events>(u).expect("unit").push(day, format!("Now follows {to}."));
        crate::systems::overlord::world::change_faction(world, u, target);
        world.get_mut::<Events>(owner).expect("faction").push(day, format!("{name} now follows {to}."));
    }
}
