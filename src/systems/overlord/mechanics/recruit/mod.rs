//! Recruiting: RECRUIT (ORD-RECRUIT, REC-OFFER, REC-PRICE, REC-OVER, REC-DRIFT,
//! REC-CASTLE, REC-STANCE, FILE-NEWID-LIFE, POP-RECRUIT).
//!
//! `RECRUIT new-id number race price` asks the location's offer for the month
//! (`recruits` of the location: race, count, price). The order enters the day's
//! hiring once it can: the race is offered here, the price given is at least the
//! offer's (0 means the offer's), and the leader's own cash pays for one (faction
//! funds are not used). Units inside a structure the rule set names in
//! `economy.ron` `no_recruit_in` (castles) cannot recruit (REC-CASTLE).
//!
//! The day's hiring is settled at the end of the day, place by place and race by
//! race, in the order the requests were made. Each asks for `number` figures (0: as
//! many as the supply allows), no more than its leader's cash pays at its price.
//! When the supply covers them all, each is served at its own price. When more are
//! asked than offered, the market rule applies (REC-OVER, MKT-CLEAR): the highest
//! prices are served first, then in the order asked, each paying its own price, and
//! the offer's price rises a step (`economy.ron` `recruits`) and to at least the
//! lowest price served. A leader whose faction the land's owner or a guard
//! embargoes is refused (REC-STANCE). A request served nothing keeps its order for
//! another day.
//!
//! The recruits join at the end of the day, stacked under their leader, right
//! after it in report order. Their figures leave the location's population. The
//! new unit takes the orders given to its new id, and every order naming the new id
//! now names its permanent id.
//!
//! At month end the offer renews from the population (REC-OFFER): each race on
//! offer with a `recruit_fraction` offers one figure per that many people, at most
//! its `recruit_max`; every place also comes to offer the races of `economy.ron`
//! `offered_everywhere` its people are numerous enough for, at the race's cost
//! (men in most places, leaders in cities). Its price drifts (REC-DRIFT): a step up if the month's supply
//! was all hired, a step down if less than `slow_percent` of it was, never below
//! `floor_percent` of the race's `recruit_cost`.

use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::mechanics::intake::NewIds;
use crate::systems::overlord::mechanics::market::clear::{Offer, clear};
use crate::systems::overlord::mechanics::market::step_price;
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, Visiting, label};
use crate::systems::overlord::mechanics::transfer;
use crate::systems::overlord::orders::line::is_new_id_of;
use crate::systems::overlord::orders::queue;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::orders::syntax::{Entry, Order};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, Events, Hiring, Holding, Id, Inventory, Orders, Owner, Population, Recruits, StructureKind,
};
use crate::systems::overlord::world::ids::{ItemId, RaceId};
use crate::systems::overlord::world::resources::{Directory, Kind};
use crate::systems::overlord::world::{NewUnit, spawn_unit};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use std::collections::BTreeMap;

#[cfg(test)]
mod tests;

/// The day's requests for recruits, settled at the end of the day.
#[derive(Resource, Debug, Default)]
pub struct Hired(Vec<Hire>);

#[derive(Debug, Clone)]
struct Hire {
    leader: Entity,
    location: Entity,
    new_id: String,
    race: RaceId,
    /// 0: as many as possible.
    wanted: u32,
    price: u32,
    day: u32,
}

/// Registers RECRUIT and adds [`muster`] to the end of each day.
pub struct RecruitPlugin;

impl Plugin for RecruitPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Hired>();
        app.world_mut().resource_mut::<OrderHandlers>().set(module_path!(), Keyword::Recruit, recruit);
        app.add_step_system("day_end", muster);
        app.add_step_system("places", renew_offers);
    }
}

/// ORD-RECRUIT: the request enters the day's hiring.
fn recruit(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Recruit { unit: new_id, count, race, price } = &entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let Some(faction) = act.faction_of(me) else { return Outcome::NotNow };
    let faction_id = act.world.get::<Id>(faction).map(|i| i.0.clone()).unwrap_or_default();
    if !is_new_id_of(new_id, 'U', &faction_id) {
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
    // REC-CASTLE.
    if let Some(s) = at.structure
        && let Some(k) = act.world.get::<StructureKind>(s)
    {
        let c = &catalog.rules.constructions.constructions[k.0];
        if catalog.rules.economy.no_recruit_in.contains(&c.tag) {
            return Outcome::Invalid(format!("nobody can be recruited in a {} [{}]", c.name, c.tag));
        }
    }
    let Some((supply, listed)) = act
        .world
        .get::<Recruits>(at.location)
        .and_then(|l| l.0.iter().find(|o| o.race == *race).map(|o| (o.count, o.price)))
    else {
        return Outcome::NotNow;
    };
    let pay = if *price == 0 { listed } else { *price };
    if supply == 0 || pay < listed {
        return Outcome::NotNow;
    }
    let cash = act.world.get::<Inventory>(me).map_or(0, |i| i.count(money));
    if cash < pay {
        return Outcome::NotNow;
    }
    act.world.entity_mut(me).insert(Hiring(act.day));
    act.world.resource_mut::<Hired>().0.push(Hire {
        leader: me,
        location: at.location,
        new_id: new_id.clone(),
        race: *race,
        wanted: *count,
        price: pay,
        day: act.day,
    });
    Outcome::Ran(Progress::Continue)
}

/// REC-PRICE, REC-OVER, REC-STANCE, FILE-NEWID-LIFE: the day's requests are
/// served, and the recruits join, stacked under their leaders.
pub fn muster(world: &mut World) {
    let hired = std::mem::take(&mut world.resource_mut::<Hired>().0);
    if hired.is_empty() {
        return;
    }
    let catalog = world.resource::<Catalog>().clone();
    let Some(money) = catalog.money() else { return };
    let day = world.resource::<Clock>().tick;
    let served = serve(world, &catalog, money, &hired, day);
    for (h, n) in hired.iter().zip(served) {
        if n == 0 {
            continue;
        }
        let cost = u64::from(n) * u64::from(h.price);
        transfer::take(&mut world.get_mut::<Inventory>(h.leader).expect("unit"), money, cost as u32);
        if let Some(mut o) = world.get_mut::<Orders>(h.leader)
            && let Some(i) = o.0.iter().position(|q| {
                q.ran_on == h.day && matches!(&q.entry.order, Order::Recruit { unit, .. } if *unit == h.new_id)
            })
        {
            queue::remove(&mut o.0, i);
        }
        join(world, &catalog, h, n, cost, day);
    }
    world.resource_mut::<Visiting>().invalidate();
}

/// How many figures each of the day's requests gets (REC-OVER), taken from the
/// offers; the offers' prices rise where more were asked than offered.
fn serve(world: &mut World, catalog: &Catalog, money: ItemId, hired: &[Hire], day: u32) -> Vec<u32> {
    let mut books: BTreeMap<(Entity, RaceId), Vec<usize>> = BTreeMap::new();
    for (i, h) in hired.iter().enumerate() {
        books.entry((h.location, h.race)).or_default().push(i);
    }
    let mut served = vec![0u32; hired.len()];
    for ((place, race), idx) in books {
        let Some((supply, listed)) =
            world.get::<Recruits>(place).and_then(|l| l.0.iter().find(|o| o.race == race).map(|o| (o.count, o.price)))
        else {
            continue;
        };
        let mut cash: BTreeMap<Entity, u64> = BTreeMap::new();
        let mut asks: Vec<(usize, Offer)> = Vec::new();
        for &i in &idx {
            let h = &hired[i];
            if world.get::<At>(h.leader).is_none_or(|a| a.location != place) {
                continue;
            }
            if let Some(reason) = crate::systems::overlord::mechanics::guards::embargo(world, place, h.leader) {
                if let Some(mut ev) = world.get_mut::<Events>(h.leader) {
                    ev.push(day, format!("Could not recruit ({}): {reason}.", h.new_id));
                }
                continue;
            }
            let inv = world.get::<Inventory>(h.leader);
            let left = cash.entry(h.leader).or_insert_with(|| u64::from(inv.map_or(0, |i| i.count(money))));
            let afford = (*left / u64::from(h.price.max(1))).min(u64::from(supply)) as u32;
            let n = if h.wanted == 0 { afford } else { h.wanted.min(afford) };
            *left -= u64::from(n) * u64::from(h.price);
            asks.push((i, Offer { price: h.price, quantity: n }));
        }
        let demand: u64 = asks.iter().map(|a| u64::from(a.1.quantity)).sum();
        let fills: Vec<u32> = if demand <= u64::from(supply) {
            asks.iter().map(|a| a.1.quantity).collect()
        } else {
            let bids: Vec<Offer> = asks.iter().map(|a| a.1).collect();
            clear(&bids, &[Offer { price: listed, quantity: supply }]).map_or(vec![0; bids.len()], |c| c.bought)
        };
        let taken: u32 = fills.iter().sum();
        let lowest = asks.iter().zip(&fills).filter(|(_, n)| **n > 0).map(|(a, _)| a.1.price).min();
        for ((i, _), &n) in asks.iter().zip(&fills) {
            served[*i] = n;
            if n == 0
                && let Some(mut ev) = world.get_mut::<Events>(hired[*i].leader)
            {
                ev.push(
                    day,
                    format!("Could not recruit ({}): the day's recruits went to higher offers.", hired[*i].new_id),
                );
            }
        }
        let base = catalog.rules.races[race.index()].system.recruit_cost;
        if let Some(mut l) = world.get_mut::<Recruits>(place)
            && let Some(o) = l.0.iter_mut().find(|o| o.race == race)
        {
            o.count -= taken.min(o.count);
            o.hired += taken;
            if demand > u64::from(supply) {
                let rules = &catalog.rules.economy.recruits;
                o.price = step_price(o.price, base, true, false, rules).max(lowest.unwrap_or(0));
            }
        }
    }
    served
}

/// The recruits of request `h` join: `n` figures that cost `cost`.
fn join(world: &mut World, catalog: &Catalog, h: &Hire, n: u32, cost: u64, day: u32) {
    {
        let Some(at) = world.get::<At>(h.leader).copied() else { return };
        let Some(owner) = world.get::<Owner>(h.leader).map(|o| o.0) else { return };
        let id = world.resource::<Directory>().next_unit_id();
        let orders = NewIds::adopt(world, &h.new_id, &id);
        let race = &catalog.rules.races[h.race.index()];
        let skills = race.system.innate_skills.iter().filter_map(|s| catalog.skill(&s.0).map(|k| (k, s.1))).collect();
        let plural = catalog.race_name_for(h.race, u64::from(n));
        let name = format!("{n} {plural}");
        let e = spawn_unit(
            world,
            NewUnit {
                id: id.clone(),
                name: name.clone(),
                owner,
                race: h.race,
                figures: n,
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
            p.0 = p.0.saturating_sub(n);
        }
        let what = catalog.money().map(|m| catalog.items_text(m, cost)).unwrap_or_default();
        let leader_name = label(world, h.leader);
        if let Some(mut ev) = world.get_mut::<Events>(h.leader) {
            ev.push(day, format!("Recruited {n} {plural} [{}] as {name} [{id}] ({}) for {what}.", race.tag, h.new_id));
        }
        if let Some(mut ev) = world.get_mut::<Events>(e) {
            ev.push(day, format!("Joined the faction, stacked under {leader_name}."));
        }
    }
}

/// REC-OFFER, REC-DRIFT: next month's offers, from the population; prices drift
/// with the month's hiring.
pub fn renew_offers(mut q: Query<(&mut Recruits, &Population)>, catalog: Res<Catalog>) {
    let rules = &catalog.rules.economy.recruits;
    let everywhere: Vec<RaceId> =
        catalog.rules.economy.offered_everywhere.iter().filter_map(|t| catalog.race(t)).collect();
    let count_for = |race: RaceId, people: u32| -> Option<u32> {
        let r = &catalog.rules.races[race.index()].system;
        let max = if r.recruit_max == 0 { u32::MAX } else { r.recruit_max };
        people.checked_div(r.recruit_fraction).map(|n| n.min(max))
    };
    for (mut offers, people) in &mut q {
        for o in offers.0.iter_mut() {
            let race = &catalog.rules.races[o.race.index()].system;
            let supply = o.count + o.hired;
            let bought_out = supply > 0 && o.count == 0;
            let slow = u64::from(o.hired) * 100 < u64::from(supply) * u64::from(rules.slow_percent);
            o.price = step_price(o.price, race.recruit_cost, bought_out, slow && !bought_out, rules);
            // A race with no recruit_fraction keeps the supply the data gives it.
            o.count = count_for(o.race, people.0).unwrap_or(supply);
            o.hired = 0;
        }
        // REC-OFFER: the races every populated place offers, where not yet offered.
        for &race in &everywhere {
            if offers.0.iter().any(|o| o.race == race) {
                continue;
            }
            let count = count_for(race, people.0).unwrap_or(0);
            if count > 0 {
                let price = catalog.rules.races[race.index()].system.recruit_cost;
                offers.0.push(crate::systems::overlord::world::components::Offer { race, count, price, hired: 0 });
            }
        }
    }
}
