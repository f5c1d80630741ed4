//! Stacks, report order and structures: STACK, UNSTACK, EJECT, PROMOTE, ENTER,
//! LEAVE, EXIT, DISBAND (ORD-STACK, ORD-UNSTACK, ORD-EJECT, ORD-PROMOTE, ORD-ENTER,
//! ORD-LEAVE, ORD-EXIT, ORD-DISBAND; STK-LEAD, STK-LOST).
//!
//! A unit that leaves its stack takes its own substack with it (STK-LEAD): the
//! members keep pointing at it. Entering or leaving a structure moves the unit and
//! its substack.

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::{RaceKind, StanceGrant};
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, Visiting, label};
use crate::systems::overlord::orders::queue::{self, Outcome, Progress};
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::orders::syntax::{Entry, Order};
use crate::systems::overlord::world::components::{
    At, Events, Id, Journey, Missing, Orders, Population, StackLeader, StackMembers, StructureAt, substack,
};
use crate::systems::overlord::world::resources::{Departures, Directory, Kind};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Registers the stack and structure orders.
pub struct StacksPlugin;

impl Plugin for StacksPlugin {
    fn build(&self, app: &mut App) {
        let mut h = app.world_mut().resource_mut::<OrderHandlers>();
        // ORD-ACCEPT waits for the STACK it lets in (see `stack`).
        h.set(module_path!(), Keyword::Accept, |_, _| Outcome::NotNow);
        h.set(module_path!(), Keyword::Stack, stack);
        h.set(module_path!(), Keyword::Unstack, unstack);
        h.set(module_path!(), Keyword::Eject, eject);
        h.set(module_path!(), Keyword::Promote, promote);
        h.set(module_path!(), Keyword::Enter, enter);
        h.set(module_path!(), Keyword::Leave, leave);
        h.set(module_path!(), Keyword::Exit, leave);
        h.set(module_path!(), Keyword::Disband, disband);
        app.init_resource::<Departures>();
        app.add_step_system("orders", start_month);
    }
}

/// A month starts with no unit departed (the first step, before any can leave).
pub fn start_month(mut d: ResMut<Departures>) {
    d.0.clear();
}

/// Puts unit `u` under `leader` (or out of any stack with `None`).
pub fn set_leader(world: &mut World, u: Entity, leader: Option<Entity>) {
    if world.get::<StackLeader>(u).is_some_and(|s| s.0 != leader) {
        world.entity_mut(u).insert(StackLeader(leader));
    }
}

fn unstack(act: &mut Act, _: &mut Entry) -> Outcome {
    if let Some(l) = act.leader_of(act.unit) {
        set_leader(act.world, act.unit, None);
        let name = act.name(l);
        act.log(format!("Left the stack of {name}."));
    }
    Outcome::Ran(Progress::Step)
}

/// ORD-STACK: under a leader present in the same place, if its faction holds this
/// unit's as an ally or it gives ACCEPT for this unit today.
fn stack(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Stack(target) = &entry.order else { return Outcome::NotNow };
    let Some(target) = target else { return unstack(act, entry) };
    let Some(t) = act.unit_named(target) else { return Outcome::NotNow };
    let me = act.unit;
    if t == me || act.is_above(me, t) {
        return Outcome::Invalid("a unit cannot stack under itself or a unit of its own stack".into());
    }
    if act.race_kind(t) != RaceKind::Leader {
        return Outcome::Invalid(format!("{} is not a leader: only leaders lead stacks", act.name(t)));
    }
    if !act.present(t) || act.at(t) != act.at(me) {
        return Outcome::NotNow;
    }
    if act.leader_of(me) == Some(t) {
        return Outcome::Ran(Progress::Step);
    }
    if !crate::systems::overlord::mechanics::diplomacy::unit_grants(act.world, t, me, StanceGrant::Stack) {
        // ORD-ACCEPT: the leader lets this one unit in, whatever the stance.
        let my_id = act.world.get::<Id>(me).map(|i| i.0.clone()).unwrap_or_default();
        let day = act.day;
        let accept = act
            .world
            .get::<Orders>(t)
            .and_then(|o| queue::find_considered(&o.0, day, |o| matches!(o, Order::Accept(u) if *u == my_id)));
        let Some(i) = accept else {
            return Outcome::Invalid(format!("{} does not accept this unit in its stack", act.name(t)));
        };
        queue::settle(&mut act.world.get_mut::<Orders>(t).expect("unit").0, i, day, Progress::Step);
    }
    set_leader(act.world, me, Some(t));
    let (them, name) = (act.name(t), act.name(me));
    act.log(format!("Stacked under {them}."));
    act.event(t, format!("{name} stacked under this unit."));
    Outcome::Ran(Progress::Step)
}

/// ORD-EJECT: a unit directly under this one leaves: out of the stack if this unit
/// leads the whole stack, else into this unit's own leader's stack.
fn eject(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Eject(target) = &entry.order else { return Outcome::NotNow };
    let Some(t) = act.unit_named(target) else { return Outcome::NotNow };
    if act.leader_of(t) != Some(act.unit) {
        return Outcome::NotNow;
    }
    let up = act.leader_of(act.unit);
    set_leader(act.world, t, up);
    let (them, me) = (act.name(t), act.name(act.unit));
    act.log(format!("Ejected {them} from the stack."));
    act.event(t, format!("Was ejected from the stack of {me}."));
    Outcome::Ran(Progress::Step)
}

/// ORD-PROMOTE: a unit at the same place and stack level that comes later in report
/// order moves just before this one (SCH-ORDERDEP).
fn promote(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Promote(target) = &entry.order else { return Outcome::NotNow };
    let Some(t) = act.unit_named(target) else { return Outcome::NotNow };
    let me = act.unit;
    if !act.present(t) || act.at(t) != act.at(me) || act.leader_of(t) != act.leader_of(me) {
        return Outcome::NotNow;
    }
    // A unit promotes only its own faction's units: the report order of another
    // faction's units is theirs to arrange (docs/orders.md, "The day").
    if act.faction_of(t) != act.faction_of(me) {
        return Outcome::Invalid(format!("{} is not a unit of this faction", act.name(t)));
    }
    let dir = act.world.resource::<Directory>();
    let (Some(mine), Some(theirs)) = (dir.unit_key(me), dir.unit_key(t)) else {
        return Outcome::NotNow;
    };
    if theirs > mine {
        act.world.resource_mut::<Directory>().move_unit_before(t, me);
        act.world.resource_mut::<Visiting>().invalidate();
    }
    let them = act.name(t);
    act.log(format!("Promoted {them} ahead of this unit."));
    Outcome::Ran(Progress::Step)
}

/// Moves `u` and its substack into `structure` (or out of any, with `None`), and
/// takes `u` out of its stack.
fn relocate(act: &mut Act, structure: Option<Entity>) {
    let group = substack(act.world, act.unit);
    for u in group {
        let here = *act.world.get::<At>(u).expect("unit");
        act.world.entity_mut(u).insert(At { structure, ..here });
        act.world.resource_mut::<Visiting>().moved(u);
    }
    set_leader(act.world, act.unit, None);
}

/// ORD-ENTER: a finished structure here whose owner (the first unit inside) holds
/// this unit's faction at least Friendly.
fn enter(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Enter(id) = &entry.order else { return Outcome::NotNow };
    let Some(s) = act.world.resource::<Directory>().get(Kind::Structure, id) else { return Outcome::NotNow };
    let Some(at) = act.at(act.unit) else { return Outcome::NotNow };
    if act.world.get::<StructureAt>(s).map(|a| a.0) != Some(at.location) {
        return Outcome::NotNow;
    }
    if at.structure == Some(s) {
        return Outcome::Invalid(format!("already inside {id}"));
    }
    if act.world.get::<Missing>(s).is_some_and(|m| !m.complete())
        || crate::systems::overlord::mechanics::structures::under_way(act.world, s)
    {
        return Outcome::NotNow;
    }
    // STR-OWNER: the owner unit, or the owning faction of an empty structure, guards it.
    if !crate::systems::overlord::mechanics::structures::may_enter(act.world, s, act.unit) {
        return Outcome::Invalid(format!("the owner of {id} does not let this unit in"));
    }
    relocate(act, Some(s));
    act.log(format!("Entered {id}."));
    Outcome::Ran(Progress::Step)
}

/// ORD-LEAVE, ORD-EXIT: out of the structure the unit is in, into its location.
fn leave(act: &mut Act, entry: &mut Entry) -> Outcome {
    let named = match &entry.order {
        Order::Leave(s) | Order::Exit(s) => s.clone(),
        _ => return Outcome::NotNow,
    };
    let Some(at) = act.at(act.unit) else { return Outcome::NotNow };
    let Some(inside) = at.structure else {
        return Outcome::Invalid("the unit is not inside a structure".into());
    };
    let inside_id = act.world.get::<Id>(inside).map(|i| i.0.clone()).unwrap_or_default();
    if named.as_ref().is_some_and(|n| *n != inside_id) {
        return Outcome::Invalid(format!("the unit is in {inside_id}, not in {}", named.unwrap_or_default()));
    }
    relocate(act, None);
    act.log(format!("Left {inside_id}."));
    Outcome::Ran(Progress::Step)
}

/// ORD-DISBAND: the unit disappears with its possessions; its figures join the local
/// population (POP-DISBAND); units directly under it unstack (STK-LOST).
fn disband(act: &mut Act, _: &mut Entry) -> Outcome {
    let me = act.unit;
    if act.world.get::<At>(me).is_none() {
        return Outcome::NotNow;
    }
    let figures = act.figures(me);
    let name = act.name(me);
    if let Some(f) = act.faction_of(me) {
        act.event(f, format!("{name} disbanded; its {figures} figures joined the local population."));
    }
    act.log(format!("Disbanded: its {figures} figures joined the local population."));
    remove_unit(act.world, me, true);
    Outcome::Ran(Progress::Done)
}

/// Takes unit `u` out of the game (DISBAND, desertion, death). With `to_population`
/// its figures join the population of its location. Its direct members stack under
/// its own leader, or stand alone if it had none (STK-LOST).
pub fn remove_unit(world: &mut World, u: Entity, to_population: bool) {
    let Some(at) = world.get::<At>(u).copied() else { return };
    if to_population {
        let figures = world.get::<crate::systems::overlord::world::components::Figures>(u).map_or(0, |f| f.0);
        if let Some(mut p) = world.get_mut::<Population>(at.location) {
            p.0 = p.0.saturating_add(figures);
        }
    }
    let above = world.get::<StackLeader>(u).and_then(|s| s.0);
    let members: Vec<Entity> = world.get::<StackMembers>(u).map(|m| m.get().to_vec()).unwrap_or_default();
    // STK-LOST: when the leader of a moving stack is lost on the way, its units
    // arrive where it was.
    let stop = above.is_none() && world.get::<Journey>(u).is_some();
    let day = world.get_resource::<crate::core::engine::plan::Clock>().map_or(0, |c| c.tick);
    for m in members {
        set_leader(world, m, above);
        if stop {
            let place = world.get::<At>(m).map(|a| a.location);
            for x in substack(world, m) {
                world.entity_mut(x).remove::<Journey>();
            }
            let name = place.map(|p| label(world, p)).unwrap_or_default();
            if let Some(mut e) = world.get_mut::<Events>(m) {
                e.push(day, format!("The stack's leader was lost on the way; the journey ended at {name}."));
            }
        }
    }
    crate::systems::overlord::world::record_departure(world, u);
    let id = world.get::<Id>(u).map(|i| i.0.clone()).unwrap_or_default();
    world.resource_mut::<Directory>().remove(Kind::Unit, &id, u);
    if let Some(mut v) = world.get_resource_mut::<Visiting>() {
        v.moved(u);
    }
    world.despawn(u);
}
