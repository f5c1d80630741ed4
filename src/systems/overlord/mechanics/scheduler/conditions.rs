//! Conditions (ORD-AT, ORD-DAY, ORD-HAVE, ORD-LEADER, ORD-LEADING, ORD-SEE, ORD-SIZE,
//! ORD-SKILL, ORD-WAIT, ORD-SYNCHRO) and the specials that only answer another
//! unit's order (ORD-ACCEPT).

use super::handlers::{Act, OrderHandlers};
use crate::systems::overlord::orders::queue::{self, Outcome, Progress};
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::orders::syntax::{Entry, Order, Place};
use crate::systems::overlord::world::components::{Inventory, Orders, Skills};
use crate::systems::overlord::world::resources::{Directory, Kind};

pub(super) fn register(h: &mut OrderHandlers) {
    use Keyword::*;
    for k in [At, Day, Have, Leader, Leading, See, Size, Skill, Wait] {
        h.set(module_path!(), k, condition);
    }
    h.set(module_path!(), Keyword::Synchro, synchro);
}

/// Whether a condition holds for the acting unit now.
fn holds(act: &Act, order: &Order) -> bool {
    let me = act.unit;
    match order {
        Order::At(place) => {
            let Some(at) = act.at(me) else { return false };
            let dir = act.world.resource::<Directory>();
            match place {
                Place::Location(l) => at.structure.is_none() && dir.get(Kind::Location, l) == Some(at.location),
                Place::Structure(s) => at.structure.is_some() && dir.get(Kind::Structure, s) == at.structure,
            }
        }
        Order::Day(n) => act.day == *n,
        Order::Have { item, count } => act.world.get::<Inventory>(me).is_some_and(|i| i.count(*item) >= *count),
        Order::Leader(u) => act.unit_named(u).is_some_and(|l| act.is_above(l, me)),
        Order::Leading(u) => act.unit_named(u).is_some_and(|m| act.is_above(me, m) && act.sees(m)),
        Order::See(u) => act.unit_named(u).is_some_and(|o| act.sees(o)),
        Order::Size(n) => act.figures(me) >= *n,
        Order::Skill { skill, amount, days } => {
            let exp = act.world.get::<Skills>(me).and_then(|s| s.0.iter().find(|(id, _)| id == skill).map(|x| x.1));
            let exp = exp.unwrap_or(0);
            let c = act.catalog();
            if *days { c.experience_days(exp) >= *amount } else { c.skill_level(*skill, exp) >= *amount }
        }
        Order::Wait(n) => *n == 0,
        _ => false,
    }
}

fn condition(act: &mut Act, entry: &mut Entry) -> Outcome {
    if holds(act, &entry.order) {
        let text = act.text(entry);
        act.routine(format!("{text}: condition met."));
        Outcome::Ran(Progress::Step)
    } else {
        Outcome::NotNow
    }
}

/// The units that have synchronised on a day (ORD-SYNCHRO: one SYNCHRO per day).
#[derive(bevy_ecs::prelude::Resource, Default)]
struct Synchronised {
    /// (turn, day) the set is for.
    when: (u32, u32),
    units: bevy_ecs::entity::EntityHashSet,
}

/// ORD-SYNCHRO: fires for both units at once when the other unit's list offers the
/// matching SYNCHRO today. Units of one faction synchronise anywhere; units of two
/// factions must be able to interact (present and seen). A unit synchronises once a
/// day: a second SYNCHRO waits for the next day.
fn synchro(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Synchro(other_id) = &entry.order else { return Outcome::NotNow };
    let Some(other) = act.unit_named(other_id) else { return Outcome::NotNow };
    if other == act.unit {
        return Outcome::Invalid("a unit cannot SYNCHRO with itself".into());
    }
    let when = (act.world.resource::<crate::core::engine::plan::Clock>().turn, act.day);
    let done = act.world.get_resource_or_insert_with(Synchronised::default);
    let already = done.when == when && (done.units.contains(&act.unit) || done.units.contains(&other));
    if already {
        return Outcome::NotNow;
    }
    let same_faction = act.faction_of(other) == act.faction_of(act.unit);
    if !(same_faction || act.sees(other) && act.at(other).is_some()) {
        return Outcome::NotNow;
    }
    let my_id = act
        .world
        .get::<crate::systems::overlord::world::components::Id>(act.unit)
        .map(|i| i.0.clone())
        .unwrap_or_default();
    let day = act.day;
    let Some(mut theirs) = act.world.get_mut::<Orders>(other) else { return Outcome::NotNow };
    let Some(i) = queue::find_considered(&theirs.0, day, |o| matches!(o, Order::Synchro(u) if *u == my_id)) else {
        return Outcome::NotNow;
    };
    queue::settle(&mut theirs.0, i, day, Progress::Step);
    let me_entity = act.unit;
    let mut done = act.world.resource_mut::<Synchronised>();
    if done.when != when {
        done.when = when;
        done.units.clear();
    }
    done.units.insert(me_entity);
    done.units.insert(other);
    let name = act.name(other);
    let me = act.name(act.unit);
    act.routine(format!("Synchronised with {name}."));
    act.event(other, format!("Synchronised with {me}."));
    Outcome::Ran(Progress::Step)
}
