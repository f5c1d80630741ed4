//! Recruiting: RECRUIT (ORD-RECRUIT, REC-OFFER, REC-PRICE, FILE-NEWID-LIFE).
//!
//! `RECRUIT new-id number race price` hires figures from the location's offer for the
//! month (`recruits` of the location: race, count, price). It runs as soon as one
//! figure can be hired: the race is offered here, the price given is at least the
//! offer's (0 means the offer's), and the leader's own cash pays for one (faction
//! funds are not used). It takes as many figures as asked, or (`number` 0) as many as
//! the supply and the cash allow. The recruits are paid for and taken from the
//! month's supply at once, in the order the day's orders run, so an earlier order
//! can leave nothing to a later one. They join at the end of the day. The new unit
//! then stands stacked under the leader and comes right after it in report order.
//! Its figures leave the location's population. It takes the orders given to its
//! new id, and every order naming the new id now names its permanent id.
//!
//! The price dynamics of REC-OVER and REC-DRIFT come with markets: until then a
//! request that exceeds the supply is served in the order it runs.

use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::mechanics::intake::NewIds;
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, Visiting, label};
use crate::systems::overlord::orders::line::is_new_id;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::orders::syntax::{Entry, Order};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{At, Events, Holding, Id, Inventory, Population, Recruits};
use crate::systems::overlord::world::ids::{ItemId, RaceId};
use crate::systems::overlord::world::resources::{Directory, Kind};
use crate::systems::overlord::world::{NewUnit, spawn_unit};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

#[cfg(test)]
mod tests;

/// Recruits hired today, joining at the end of the day.
#[derive(Resource, Debug, Default)]
pub struct Hired(Vec<Hire>);

#[derive(Debug, Clone)]
struct Hire {
    leader: Entity,
    new_id: String,
    race: RaceId,
    figures: u32,
    cost: u64,
}

/// Whether leader `u` recruited today: it cannot move that day (ORD-RECRUIT).
pub fn recruited_today(world: &World, u: Entity) -> bool {
    world.get_resource::<Hired>().is_some_and(|h| h.0.iter().any(|x| x.leader == u))
}

/// Registers RECRUIT and adds [`muster`] to the end of each day.
pub struct RecruitPlugin;

impl Plugin for RecruitPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Hired>();
        app.world_mut().resource_mut::<OrderHandlers>().set(module_path!(), Keyword::Recruit, recruit);
        app.add_step_system("day_end", muster);
    }
}

/// ORD-RECRUIT.
fn recruit(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Recruit { unit: new_id, count, race, price } = &entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let Some(faction) = act.faction_of(me) else { return Outcome::NotNow };
    let faction_id = act.world.get::<Id>(faction).map(|i| i.0.clone()).unwrap_or_default();
    if !is_new_id(new_id, 'U') || !new_id.starts_with(&faction_id) {
        return Outcome::Invalid(format!(
            "recruits form a new unit, named {faction_id}nU00 to {faction_id}nU99, not {new_id}"
        ));
    }
    let taken = act.world.resource::<Hired>().0.iter().any(|h| h.new_id == *new_id)
        || act.world.resource::<Directory>().get(Kind::Unit, new_id).is_some();
    if taken {
        return Outcome::Invalid(format!("{new_id} has already been created"));
    }
    let catalog = act.catalog().clone();
    let Some(money) = catalog.money() else { return Outcome::Invalid("this game has no money".into()) };
    let Some(at) = act.at(me) else { return Outcome::NotNow };
    let Some(offer) = act
        .world
        .get::<Recruits>(at.location)
        .and_then(|l| l.0.iter().find(|o| o.race == *race).map(|o| (o.count, o.price)))
    else {
        return Outcome::NotNow;
    };
    let (supply, listed) = offer;
    let pay = if *price == 0 { listed } else { *price };
    if supply == 0 || pay < listed {
        return Outcome::NotNow;
    }
    let cash = act.world.get::<Inventory>(me).map_or(0, |i| i.count(money));
    let affordable = cash.checked_div(pay).unwrap_or(u32::MAX);
    let wanted = if *count == 0 { supply } else { *count };
    let n = wanted.min(supply).min(affordable);
    if n == 0 {
        return Outcome::NotNow;
    }
    let cost = u64::from(n) * u64::from(pay);
    take(&mut act.world.get_mut::<Inventory>(me).expect("unit"), money, cost as u32);
    if let Some(mut l) = act.world.get_mut::<Recruits>(at.location)
        && let Some(o) = l.0.iter_mut().find(|o| o.race == *race)
    {
        o.count -= n;
    }
    act.world.resource_mut::<Hired>().0.push(Hire {
        leader: me,
        new_id: new_id.clone(),
        race: *race,
        figures: n,
        cost,
    });
    Outcome::Ran(Progress::Done)
}

fn take(inv: &mut Inventory, item: ItemId, n: u32) {
    if let Some(i) = inv.0.iter().position(|h| h.item == item) {
        let h = &mut inv.0[i];
        h.count -= n.min(h.count);
        h.equipped = h.equipped.min(h.count);
        if h.count == 0 {
            inv.0.remove(i);
        }
    }
}

/// REC-PRICE, FILE-NEWID-LIFE: the day's recruits join, stacked under their leaders.
pub fn muster(world: &mut World) {
    let hired = std::mem::take(&mut world.resource_mut::<Hired>().0);
    if hired.is_empty() {
        return;
    }
    let catalog = world.resource::<Catalog>().clone();
    let day = world.resource::<Clock>().tick;
    for h in hired {
        let Some(at) = world.get::<At>(h.leader).copied() else { continue };
        let Some(owner) = world.get::<crate::systems::overlord::world::components::Owner>(h.leader).map(|o| o.0) else {
            continue;
        };
        let id = world.resource::<Directory>().next_unit_id();
        let orders = NewIds::adopt(world, &h.new_id, &id);
        let race = &catalog.rules.races[h.race.index()];
        let skills = race.system.innate_skills.iter().filter_map(|s| catalog.skill(&s.0).map(|k| (k, s.1))).collect();
        let plural = if h.figures == 1 || race.plural.is_empty() { &race.name } else { &race.plural };
        let name = format!("{} {plural}", h.figures);
        let e = spawn_unit(
            world,
            NewUnit {
                id: id.clone(),
                name: name.clone(),
                owner,
                race: h.race,
                figures: h.figures,
                at,
                leader: Some(h.leader),
                items: Vec::<Holding>::new(),
                skills,
                orders,
                after: Some(h.leader),
            },
        );
        NewIds::watch(world, e);
        if let Some(mut p) = world.get_mut::<Population>(at.location) {
            p.0 = p.0.saturating_sub(h.figures);
        }
        let what = catalog.money().map(|m| catalog.items_text(m, h.cost)).unwrap_or_default();
        let leader_name = label(world, h.leader);
        if let Some(mut ev) = world.get_mut::<Events>(h.leader) {
            ev.push(
                day,
                format!("Recruited {} {plural} [{}] as {name} [{id}] ({}) for {what}.", h.figures, race.tag, h.new_id),
            );
        }
        if let Some(mut ev) = world.get_mut::<Events>(e) {
            ev.push(day, format!("Joined the faction, stacked under {leader_name}."));
        }
    }
    world.resource_mut::<Visiting>().invalidate();
}
