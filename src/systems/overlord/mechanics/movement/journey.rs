//! Journeys (§19): MOVE, MARCH, CARAVAN, STAY and RETREAT, and each day's progress
//! of the units on the way (ORD-MOVE, ORD-MARCH, ORD-CARAVAN, ORD-STAY, ORD-RETREAT;
//! MOV-BUSY, MOV-HALF, MOV-RETREAT, MOV-FOLLOWER, STK-AGG, STK-LOST).
//!
//! A move is a full-day order. The unit that gives it leaves its own stack first
//! (with its substack), the members whose STAY can run drop off, and everything
//! left sets out together: every unit gets its own [`Journey`]. From then on the
//! units run no orders and cannot be dealt with (`Act::at` gives `None`). Each day's
//! `movement` step of the plan counts a day of travel; after
//! half the journey (rounded down) the units are seen at the destination, and on
//! the last day they arrive there.

use super::Travel;
use super::routes::{Routes, Toward};
use super::travel::{Load, Trip};
use super::{Arrival, ArrivalGate};
use crate::core::engine::plan::Clock;
use crate::systems::overlord::data::{JourneyKind, RaceKind};
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, Visiting, label};
use crate::systems::overlord::mechanics::stacks::set_leader;
use crate::systems::overlord::mechanics::stats::load_of;
use crate::systems::overlord::mechanics::visibility;
use crate::systems::overlord::orders::queue::{self, Outcome, Progress};
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::orders::syntax::{Destination, Entry, Order, Repeat};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, Events, Journey, Orders, Production, Refusing, Seq, StackLeader, StructureAt, StructureKind, substack,
};
use crate::systems::overlord::world::meets;
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_ecs::prelude::*;

/// Registers the movement orders.
pub fn register(h: &mut OrderHandlers) {
    h.set(module_path!(), Keyword::Move, move_order);
    h.set(module_path!(), Keyword::March, move_order);
    h.set(module_path!(), Keyword::Caravan, caravan);
    h.set(module_path!(), Keyword::Stay, stay);
    h.set(module_path!(), Keyword::Retreat, retreat);
}

/// ORD-MOVE, ORD-MARCH: sets out toward a direction or a neighbouring location.
fn move_order(act: &mut Act, entry: &mut Entry) -> Outcome {
    let (d, kind) = match &entry.order {
        Order::Move(d) => (d.clone(), JourneyKind::Move),
        Order::March(d) => (d.clone(), JourneyKind::March),
        _ => return Outcome::NotNow,
    };
    let result = match &d {
        Destination::Direction(dir) => depart(act, Toward::Direction(dir), kind),
        Destination::Location(id) => match act.world.resource::<Directory>().get(Kind::Location, id) {
            Some(to) => depart(act, Toward::Location(to), kind),
            None => Err(Outcome::Invalid(format!("there is no location {id}"))),
        },
    };
    match result {
        Ok(()) => Outcome::Ran(Progress::Step),
        Err(o) => o,
    }
}

/// ORD-CARAVAN: from the listed location the unit is in, on to the next one; at the
/// last one the list turns round and the order counts as done (with `@` it goes on
/// back along the list). Where a location is listed twice, its first place counts.
fn caravan(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Caravan(list) = &entry.order else { return Outcome::NotNow };
    let Some(at) = act.at(act.unit) else { return Outcome::NotNow };
    if list.len() < 2 {
        return Outcome::Invalid("a caravan needs at least two locations".into());
    }
    let mut places = Vec::with_capacity(list.len());
    for id in list {
        match act.world.resource::<Directory>().get(Kind::Location, id) {
            Some(e) => places.push(e),
            None => return Outcome::Invalid(format!("there is no location {id}")),
        }
    }
    let Some(mut pos) = places.iter().position(|&p| p == at.location) else {
        return Outcome::Invalid("the unit is at none of the caravan's locations".into());
    };
    if pos == places.len() - 1 {
        if let Order::Caravan(list) = &mut entry.order {
            list.reverse();
        }
        places.reverse();
        let name = act.name(at.location);
        act.log(format!("The caravan reached the end of its route at {name} and turns round."));
        if entry.prefix.repeat != Repeat::Always {
            return Outcome::Ran(Progress::Done);
        }
        pos = 0;
    }
    match depart(act, Toward::Location(places[pos + 1]), JourneyKind::Move) {
        Ok(()) => Outcome::Ran(Progress::Continue),
        Err(o) => o,
    }
}

/// ORD-STAY acts only when the unit's stack sets out (see [`depart`]).
fn stay(_: &mut Act, _: &mut Entry) -> Outcome {
    Outcome::NotNow
}

/// ORD-RETREAT given to a unit that is not travelling: there is nothing to turn
/// back. (A travelling unit's RETREAT is read at the start of the month, by
/// [`retreat_at_month_start`].)
fn retreat(_: &mut Act, _: &mut Entry) -> Outcome {
    Outcome::Invalid("RETREAT turns back a journey under way, and this unit is not travelling".into())
}

/// Sets the acting unit out toward `toward` with its substack, or says why not.
fn depart(act: &mut Act, toward: Toward, kind: JourneyKind) -> Result<(), Outcome> {
    let me = act.unit;
    let Some(at) = act.at(me) else { return Err(Outcome::NotNow) };
    // ORD-RECRUIT: a leader that recruited today waits for its recruits.
    if act.world.get::<crate::systems::overlord::world::components::Hiring>(me).is_some_and(|h| h.0 == act.day) {
        return Err(Outcome::NotNow);
    }
    let catalog = act.world.resource::<Catalog>();
    // MOV-FOLLOWER: followers move on their own only with the skill for it.
    if act.race_kind(me) == RaceKind::Follower {
        let req = catalog.rules.info.parameters.follower_move_skill.clone();
        if !req.as_ref().is_some_and(|r| meets(act.world, me, r)) {
            let how = req.map_or(String::new(), |r| format!(" (they need level {} in {})", r.level, r.skill));
            return Err(Outcome::Invalid(format!("followers move only in a stack or with scouting{how}")));
        }
    }
    let routes = act.world.resource::<Routes>();
    let legs = routes.legs(catalog, at.location, toward);
    // STR-KIND, STR-SHIP: the captain of a vessel (its first unit inside) sails it
    // with everyone aboard.
    if let Some(v) = at.structure
        && is_vessel(act.world, v)
        && crate::systems::overlord::mechanics::structures::owner_unit(act.world, v) == Some(me)
        && !legs.is_empty()
    {
        return sail(act, v, at, &legs, kind);
    }
    if legs.is_empty() {
        let what = match toward {
            Toward::Direction(d) => d.to_string(),
            Toward::Location(e) => label(act.world, e),
        };
        return Err(Outcome::Invalid(format!("there is no way to {what} from {}", act.name(at.location))));
    }

    // Who goes: the substack, less the units whose STAY can run, with theirs.
    let all = substack(act.world, me);
    let mut staying: Vec<Entity> = Vec::new();
    let day = act.day;
    for &u in &all[1..] {
        if staying.iter().any(|&s| act.is_above(s, u)) {
            continue;
        }
        let r = act.world.entity(u);
        let stays = !r.contains::<Refusing>()
            && r.get::<Orders>().is_some_and(|o| queue::find_considered(&o.0, day, |o| *o == Order::Stay).is_some());
        if stays {
            staying.push(u);
        }
    }
    let going: Vec<Entity> =
        all.iter().copied().filter(|&u| !staying.iter().any(|&s| s == u || act.is_above(s, u))).collect();

    // How: the fastest leg the whole group can take.
    let (weight_milli, capacity) = load_of(act.world, &going);
    let tables = &act.world.resource::<Travel>().0;
    let load = Load { weight_milli, capacity: &capacity };
    let trips: Vec<(Trip, Entity)> = legs.iter().map(|(leg, to, _)| (tables.trip(catalog, leg, load), *to)).collect();
    let best = trips
        .iter()
        .filter_map(|&(t, to)| match t {
            Trip::Go { mode, days, overloaded } => Some((days, mode, overloaded, to)),
            _ => None,
        })
        .min_by_key(|x| (x.0, x.1));
    let Some((days, mode, overloaded, to)) = best else {
        let weight = weight_milli / 1000;
        let walk = capacity.first().copied().unwrap_or(0);
        let why = if let Some(d) = trips.iter().find_map(|t| if let Trip::TooLong(d) = t.0 { Some(d) } else { None }) {
            let max = catalog.rules.info.parameters.max_travel_days;
            format!("the journey would take {d} days, more than {max}")
        } else if trips.iter().any(|t| t.0 == Trip::Overloaded) {
            format!("the stack is too heavy to move: weight {weight}, walking capacity {walk}")
        } else {
            "no way of travelling this stack has can go there".to_string()
        };
        return Err(Outcome::Invalid(why));
    };
    let mode_name = catalog.rules.movement.modes[mode].name.clone();

    // Set out.
    if let Some(l) = act.leader_of(me) {
        set_leader(act.world, me, None);
        let name = act.name(l);
        act.log(format!("Left the stack of {name} to move."));
    }
    let my_name = act.name(me);
    for &s in &staying {
        set_leader(act.world, s, None);
        if let Some(mut o) = act.world.get_mut::<Orders>(s)
            && let Some(i) = queue::find_considered(&o.0, day, |o| *o == Order::Stay)
        {
            queue::settle(&mut o.0, i, day, Progress::Step);
        }
        act.event(s, format!("Stayed behind when the stack of {my_name} set out."));
    }
    let (from_name, to_name) = (act.name(at.location), act.name(to));
    for &u in &going {
        let j = Journey { from: at.location, to, mode, days, elapsed: 0, kind };
        let mut r = act.world.entity_mut(u);
        r.insert(j);
        let here = *r.get::<At>().expect("unit");
        if here.structure.is_some() {
            r.insert(At { structure: None, ..here });
        }
        act.world.resource_mut::<Visiting>().moved(u);
        let mut r = act.world.entity_mut(u);
        let lost = r.get_mut::<Production>().and_then(|mut p| p.0.take());
        if lost.is_some() {
            act.event(u, "Its unfinished work was lost when it set out (MOVE wipes work in progress).");
        }
        if u != me {
            act.event(u, format!("Set out with the stack of {my_name} from {from_name} to {to_name}."));
        }
    }
    let verb = if kind == JourneyKind::March { "Marched" } else { "Set out" };
    let slow = if overloaded { ", overloaded" } else { "" };
    let plural = if days == 1 { "" } else { "s" };
    act.log(format!("{verb} from {from_name} to {to_name}, {mode_name}{slow}: {days} day{plural}."));
    // The visiting order stays as it is: the scheduler passes over travelling
    // units, and arrivals bring it up to date.
    Ok(())
}

/// Whether structure `s` is a vessel: its construction has a movement capacity.
pub fn is_vessel(world: &World, s: Entity) -> bool {
    let catalog = world.resource::<Catalog>();
    world.get::<StructureKind>(s).is_some_and(|k| !catalog.rules.constructions.constructions[k.0].capacity.is_empty())
}

/// The units inside structure `s`, in report order.
fn aboard(world: &World, s: Entity) -> Vec<Entity> {
    use crate::systems::overlord::world::components::occupants;
    let dir = world.resource::<Directory>();
    let mut units: Vec<(u64, Entity)> =
        occupants(world, s).iter().filter_map(|&u| Some((dir.unit_key(u)?, u))).collect();
    units.sort_unstable();
    units.into_iter().map(|x| x.1).collect()
}

/// The captain sets vessel `v` out along the fastest of `legs` with every unit
/// aboard (STR-SHIP). The vessel's capacity per mode must cover the weight of the
/// units aboard and what they carry (the vessel's own weight is its own affair),
/// and the crew must be there: `crew` figures (at least one) with `crew_skill`.
fn sail(
    act: &mut Act,
    v: Entity,
    at: At,
    legs: &[(super::travel::Leg, Entity, usize)],
    kind: JourneyKind,
) -> Result<(), Outcome> {
    let catalog = act.catalog().clone();
    let Some(k) = act.world.get::<StructureKind>(v).map(|k| k.0) else { return Err(Outcome::NotNow) };
    let c = &catalog.rules.constructions.constructions[k];
    let on_board = aboard(act.world, v);
    let crew: u32 = on_board
        .iter()
        .filter(|&&u| c.crew_skill.as_ref().is_none_or(|req| meets(act.world, u, req)))
        .map(|&u| act.figures(u))
        .sum();
    if crew < c.crew.max(1) {
        let skill = c.crew_skill.as_ref().map_or(String::new(), |r| format!(" with level {} in {}", r.level, r.skill));
        return Err(Outcome::Invalid(format!(
            "the {} needs a crew of {} figure{}{skill} aboard, and has {crew}",
            c.name,
            c.crew.max(1),
            if c.crew.max(1) == 1 { "" } else { "s" }
        )));
    }
    let (weight_milli, _) = load_of(act.world, &on_board);
    let capacity: Vec<u64> = catalog
        .rules
        .movement
        .modes
        .iter()
        .map(|m| c.capacity.get(&m.tag).map_or(0, |&x| u64::try_from(x).unwrap_or(0)))
        .collect();
    let tables = &act.world.resource::<Travel>().0;
    let load = Load { weight_milli, capacity: &capacity };
    let trips: Vec<(Trip, Entity)> = legs.iter().map(|(leg, to, _)| (tables.trip(&catalog, leg, load), *to)).collect();
    let best = trips
        .iter()
        .filter_map(|&(t, to)| if let Trip::Go { mode, days, .. } = t { Some((days, mode, to)) } else { None })
        .min_by_key(|x| (x.0, x.1));
    let Some((days, mode, to)) = best else {
        let why = if trips.iter().any(|t| matches!(t.0, Trip::Overloaded)) {
            let most = capacity.iter().max().copied().unwrap_or(0);
            format!("the {} carries {most}, and the units aboard weigh {}", c.name, weight_milli / 1000)
        } else if let Some(d) = trips.iter().find_map(|t| if let Trip::TooLong(d) = t.0 { Some(d) } else { None }) {
            format!("the voyage would take {d} days, more than {}", catalog.rules.info.parameters.max_travel_days)
        } else {
            format!("the {} cannot go there: it sails on water and along coasts", c.name)
        };
        return Err(Outcome::Invalid(why));
    };
    let me = act.unit;
    let (from_name, to_name, ship) = (act.name(at.location), act.name(to), label(act.world, v));
    for &u in &on_board {
        act.world.entity_mut(u).insert(Journey { from: at.location, to, mode, days, elapsed: 0, kind });
        act.world.resource_mut::<Visiting>().moved(u);
        let lost = act.world.get_mut::<Production>(u).and_then(|mut p| p.0.take());
        if lost.is_some() {
            act.event(u, "Its unfinished work was lost when it set out (MOVE wipes work in progress).");
        }
        if u != me {
            act.event(u, format!("Sailed aboard {ship} from {from_name} to {to_name}."));
        }
    }
    let mode_name = &catalog.rules.movement.modes[mode].name;
    let plural = if days == 1 { "" } else { "s" };
    act.log(format!("Set out aboard {ship} from {from_name} to {to_name}, {mode_name}: {days} day{plural}."));
    Ok(())
}

/// The units on a journey, in a fixed order.
fn travellers(world: &mut World) -> Vec<Entity> {
    let mut q = world.query_filtered::<(Entity, &Seq), With<Journey>>();
    let mut v: Vec<(u32, Entity)> = q.iter(world).map(|(e, s)| (s.0, e)).collect();
    v.sort_unstable();
    v.into_iter().map(|x| x.1).collect()
}

/// Movement phase: a day of travel for every unit on the way. After half the
/// journey, rounded down, the units are seen at the destination (MOV-HALF); on the
/// last day they arrive, unless a guard there turns them back or stops them.
pub fn advance(world: &mut World) {
    let movers = travellers(world);
    if movers.is_empty() {
        return;
    }
    let day = world.resource::<Clock>().tick;
    let seen_percent = world.resource::<Catalog>().rules.info.parameters.journey_seen_percent;
    let mut arriving = Vec::new();
    for &u in &movers {
        let mut r = world.entity_mut(u);
        let Some(mut j) = r.get_mut::<Journey>() else { continue };
        j.elapsed += 1;
        let j = *j;
        if j.elapsed >= j.seen_from(seen_percent) {
            let at = *r.get::<At>().expect("unit");
            if at.location != j.to {
                r.insert(At { location: j.to, ..at });
                let (old, aboard) = (at.location, at.structure);
                world.resource_mut::<Visiting>().moved(u);
                visibility::visits::left(world, u, old);
                // A vessel is where the units aboard are seen.
                if let Some(mut v) = aboard.and_then(|v| world.get_mut::<StructureAt>(v)) {
                    v.0 = j.to;
                }
            }
        }
        if j.elapsed >= j.days {
            arriving.push(u);
        }
    }
    // Arrivals, stack by stack: the top unit of each arriving group decides.
    let arriving_set: bevy_ecs::entity::EntityHashSet = arriving.iter().copied().collect();
    let tops: Vec<Entity> = arriving
        .iter()
        .copied()
        .filter(|&u| world.get::<StackLeader>(u).and_then(|s| s.0).is_none_or(|l| !arriving_set.contains(&l)))
        .collect();
    let mut ships_done: Vec<Entity> = Vec::new();
    for top in tops {
        // Everyone aboard a vessel arrives together; other stacks one by one.
        let ship = world.get::<At>(top).and_then(|a| a.structure).filter(|&v| is_vessel(world, v));
        let group: Vec<Entity> = match ship {
            Some(v) if ships_done.contains(&v) => continue,
            Some(v) => {
                ships_done.push(v);
                arriving
                    .iter()
                    .copied()
                    .filter(|&u| world.get::<At>(u).is_some_and(|a| a.structure == Some(v)))
                    .collect()
            }
            None => substack(world, top).into_iter().filter(|u| world.get::<Journey>(*u).is_some()).collect(),
        };
        let Some(j) = world.get::<Journey>(top).copied() else { continue };
        let gate = world.resource::<ArrivalGate>().0;
        match gate.map_or(Arrival::Enter, |g| g(world, &group, j)) {
            Arrival::Enter => land(world, &group, j.to, day),
            Arrival::TurnBack(reason) => {
                turn_back(world, &group, j.days, &reason, day);
            }
        }
    }
}

/// The units of `group` end their journey at `place`.
fn land(world: &mut World, group: &[Entity], place: Entity, day: u32) {
    let name = label(world, place);
    for (i, &u) in group.iter().enumerate() {
        // Units aboard a vessel stay aboard, and the vessel is here.
        let ship = world.get::<At>(u).and_then(|a| a.structure).filter(|&v| is_vessel(world, v));
        if let Some(mut v) = ship.and_then(|v| world.get_mut::<StructureAt>(v)) {
            v.0 = place;
        }
        let mut r = world.entity_mut(u);
        r.remove::<Journey>();
        let old = *r.get::<At>().expect("unit");
        let now = At { location: place, structure: ship };
        if now != old {
            r.insert(now);
        }
        world.resource_mut::<Visiting>().moved(u);
        if old.location != place {
            visibility::visits::left(world, u, old.location);
        }
        let mut r = world.entity_mut(u);
        if i == 0
            && let Some(mut e) = r.get_mut::<Events>()
        {
            e.push(day, format!("Arrived at {name}."));
        }
    }
}

/// The units of `group` turn back toward where they came from; the way back takes
/// `spent` days (MOV-RETREAT). A journey turned back cannot be turned back again.
fn turn_back(world: &mut World, group: &[Entity], spent: u32, reason: &str, day: u32) {
    let Some(j) = group.first().and_then(|&u| world.get::<Journey>(u)).copied() else { return };
    let back = Journey { from: j.to, to: j.from, mode: j.mode, days: spent, elapsed: 0, kind: JourneyKind::Retreat };
    let name = label(world, j.from);
    if spent == 0 {
        land(world, group, j.from, day);
        return;
    }
    for (i, &u) in group.iter().enumerate() {
        let mut r = world.entity_mut(u);
        r.insert(back);
        if i == 0
            && let Some(mut e) = r.get_mut::<Events>()
        {
            let plural = if spent == 1 { "" } else { "s" };
            e.push(day, format!("{reason}: turned back toward {name}, {spent} day{plural} away."));
        }
    }
}

/// The units of `group`, which arrived by `journey`, retreat the way they came; the
/// way back takes as long as the way there (CMB-MARCH, MOV-RETREAT). A retreat is
/// never turned back.
pub fn send_back(world: &mut World, group: &[Entity], journey: Journey, reason: &str) {
    let day = world.resource::<Clock>().tick;
    let back = Journey {
        from: journey.to,
        to: journey.from,
        mode: journey.mode,
        days: journey.days,
        elapsed: 0,
        kind: JourneyKind::Retreat,
    };
    let name = label(world, journey.from);
    for (i, &u) in group.iter().enumerate() {
        if journey.days == 0 {
            continue;
        }
        world.entity_mut(u).insert(back);
        if i == 0
            && let Some(mut e) = world.get_mut::<Events>(u)
        {
            let plural = if journey.days == 1 { "" } else { "s" };
            e.push(day, format!("{reason}: retreats toward {name}, {} day{plural} away.", journey.days));
        }
    }
    if journey.days == 0 {
        land(world, group, journey.from, day);
    }
}

/// Month start (PFX-RETREAT1, ORD-RETREAT): a travelling unit whose first order is
/// RETREAT turns back with its substack; the way back takes the days already spent.
/// A member of a moving stack that retreats breaks off while the rest goes on. A
/// retreat cannot be turned back.
pub fn retreat_at_month_start(world: &mut World) {
    let day = world.resource::<Clock>().tick;
    for u in travellers(world) {
        let first = world.get::<Orders>(u).and_then(|o| o.0.first().map(|q| q.entry.order == Order::Retreat));
        if first != Some(true) {
            continue;
        }
        if let Some(mut o) = world.get_mut::<Orders>(u) {
            queue::remove(&mut o.0, 0);
        }
        let Some(j) = world.get::<Journey>(u).copied() else { continue };
        if j.kind == JourneyKind::Retreat {
            if let Some(mut e) = world.get_mut::<Events>(u) {
                e.push(day, "RETREAT: this journey is already a retreat and cannot be turned back.");
            }
            continue;
        }
        // A captain turns its vessel and everyone aboard; others break off.
        let ship = world.get::<At>(u).and_then(|a| a.structure).filter(|&v| is_vessel(world, v));
        let group: Vec<Entity> = match ship {
            Some(v) => {
                let all = aboard(world, v);
                if all.first() != Some(&u) {
                    if let Some(mut e) = world.get_mut::<Events>(u) {
                        e.push(day, "RETREAT: only the captain (the first unit aboard) can turn a vessel back.");
                    }
                    continue;
                }
                all.into_iter().filter(|x| world.get::<Journey>(*x).is_some()).collect()
            }
            None => {
                set_leader(world, u, None);
                substack(world, u).into_iter().filter(|x| world.get::<Journey>(*x).is_some()).collect()
            }
        };
        turn_back(world, &group, j.elapsed, "RETREAT", day);
    }
}
