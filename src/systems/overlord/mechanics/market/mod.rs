//! Markets: BUY and SELL, the clearing at the end of market days, and the drift of
//! the places' own offers month by month (§16: MKT-EXIST, MKT-DAYS, MKT-CLEAR,
//! MKT-PAY, MKT-STANCE, MKT-DRIFT; ORD-BUY, ORD-SELL; TV-MARKET).
//!
//! * **Where and when.** Every place has a market (the data gives every location
//!   one); what the place itself sells and buys is its `market` data, and it clears
//!   on its market days (the location's `days`, else the rule set's `market_days`).
//! * **Orders.** `BUY number item [price]` and `SELL number item [price]` wait for a
//!   market day where the unit stands. That day the order enters the unit's offer
//!   and stays in the list; the market clears after the day's battles, and a unit
//!   that left the place that day (or is on its way) trades nothing. Without a price
//!   (or with 0), a BUY bids what the place asks for the item and a SELL asks what
//!   the place pays; where the place lists no such offer, the order needs a price.
//!   A buyer pays with its own coins (faction funds are not used), so it wants no
//!   more than its coins buy at its price; a seller offers no more than it holds.
//!   `number` 0 is as many as possible.
//! * **Clearing** ([`clear`]): per place and item, units' and the place's own offers
//!   together; the price that trades the most, the lowest on ties; buyers pay their
//!   own bid, sellers receive their own ask, and the spread goes to the place's tax
//!   pool (RULINGS 7).
//! * **After.** A partial fill leaves the order with the number reduced; a filled
//!   order leaves (even with `@`); `number` 0 leaves once it traded, unless `@`.
//! * **Bars** (MKT-STANCE, GRD-EFFECT, rulings 11): the land's owner and the units on
//!   guard bar the factions their stance embargoes (Hostile and Enemy in the bundled
//!   rules); a barred offer trades nothing and stays.
//! * **Drift** (MKT-DRIFT, month end, `economy.ron` `market`): an offer the place
//!   sells that was bought out grows dearer, one of which less than `slow_percent`
//!   sold grows cheaper; the other way round for what the place buys; within
//!   `floor_percent`..`ceiling_percent` of the item's price. Quantities renew, and
//!   follow the month's change of the place's people by `economy.ron`
//!   `market_population_percent` (100: in proportion).

pub mod clear;

use crate::core::engine::plan::{Clock, PlanApp};
use crate::systems::overlord::data::{ItemFlag, PriceDrift};
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers};
use crate::systems::overlord::mechanics::transfer;
use crate::systems::overlord::orders::queue::{self, Outcome, Progress};
use crate::systems::overlord::orders::syntax::{Entry, Keyword, Order, Repeat};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, Events, Inventory, Journey, Livelihood, Market, Orders, Population,
};
use crate::systems::overlord::world::ids::ItemId;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use clear::{Offer, clear};
use std::collections::{BTreeMap, BTreeSet};

#[cfg(test)]
mod tests;

/// The day's offers of units, cleared at the end of the day.
#[derive(Resource, Debug, Default)]
pub struct Bids(Vec<Bid>);

#[derive(Debug, Clone, Copy)]
struct Bid {
    unit: Entity,
    location: Entity,
    item: ItemId,
    selling: bool,
    /// 0: as many as possible.
    count: u32,
    price: u32,
}

/// What the month's markets did, for the month's end (POP-OPTIMA, POP-FAMINE,
/// MKT-DRIFT): the places whose market traded, the items units sold there, and the
/// people of each place with its own offers when the month began.
#[derive(Resource, Debug, Default)]
pub struct MarketMonth {
    /// Places where something changed hands.
    pub traded: BTreeSet<Entity>,
    /// Items units sold, by place and item.
    pub sold: BTreeMap<(Entity, ItemId), u64>,
    /// Population at the month's start of the places that sell or buy themselves.
    pub people: BTreeMap<Entity, u32>,
    /// Every day of the month that is a market day somewhere, ascending: a BUY or
    /// SELL sleeps until the next one ([`Outcome::NotUntil`]), wherever its unit
    /// goes meanwhile.
    pub days: Vec<u32>,
}

/// Registers BUY and SELL, clears the markets each day and moves the places'
/// offers at month end.
pub struct MarketPlugin;

impl Plugin for MarketPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Bids>();
        app.init_resource::<MarketMonth>();
        let mut handlers = app.world_mut().resource_mut::<OrderHandlers>();
        handlers.set(module_path!(), Keyword::Buy, trade);
        handlers.set(module_path!(), Keyword::Sell, trade);
        app.add_step_system("month_start", start_month);
        app.add_step_system("market", clear_markets);
        app.add_step_system("places", drift);
    }
}

/// A new month: nothing traded yet; the people of the places with offers, for the
/// month end's drift.
pub fn start_month(
    mut month: ResMut<MarketMonth>,
    places: Query<(Entity, &Market, &Population)>,
    catalog: Res<Catalog>,
) {
    *month = MarketMonth::default();
    let mut days: BTreeSet<u32> = catalog.rules.info.parameters.market_days.iter().copied().collect();
    for (e, m, p) in &places {
        if !m.sells.is_empty() || !m.buys.is_empty() {
            month.people.insert(e, p.0);
        }
        days.extend(m.days.iter().copied());
    }
    month.days = days.into_iter().collect();
}

/// Whether `day` is a market day at `place` (MKT-DAYS).
pub fn market_day(world: &World, place: Entity, day: u32) -> bool {
    match world.get::<Market>(place) {
        Some(m) if !m.days.is_empty() => m.days.contains(&day),
        _ => world.resource::<Catalog>().rules.info.parameters.market_days.contains(&day),
    }
}

/// The place's own offer of `item`: what it sells (`selling` false: for a buyer) or
/// what it buys.
fn listed(world: &World, place: Entity, item: ItemId, for_seller: bool) -> Option<u32> {
    let m = world.get::<Market>(place)?;
    let goods = if for_seller { &m.buys } else { &m.sells };
    goods.iter().find(|g| g.item == item).map(|g| g.price)
}

/// ORD-BUY, ORD-SELL: the offer enters the day's market.
fn trade(act: &mut Act, entry: &mut Entry) -> Outcome {
    let (selling, count, item, price) = match entry.order {
        Order::Buy { count, item, price } => (false, count, item, price),
        Order::Sell { count, item, price } => (true, count, item, price),
        _ => return Outcome::NotNow,
    };
    // Most days are not market days: that is found first, cheaply, and the order
    // sleeps until the next market day anywhere.
    let me = act.unit;
    let Some(at) = act.at(me) else { return Outcome::NotNow };
    if !market_day(act.world, at.location, act.day) {
        let days = &act.world.resource::<MarketMonth>().days;
        return match days.iter().find(|&&d| d > act.day) {
            Some(&d) => Outcome::NotUntil(d),
            None => Outcome::NotUntil(u32::MAX),
        };
    }
    let catalog = act.catalog().clone();
    let Some(money) = catalog.money() else { return Outcome::Invalid("this game has no money".into()) };
    let def = &catalog.rules.items[item.index()];
    if item == money || def.system.flags.contains(&ItemFlag::Special) {
        return Outcome::Invalid(format!("{} [{}] cannot be bought or sold on markets", def.plural, def.tag));
    }
    let price = match price.filter(|&p| p > 0).or_else(|| listed(act.world, at.location, item, selling)) {
        Some(p) => p,
        None => {
            let what = if selling { "buys" } else { "sells" };
            return Outcome::Invalid(format!(
                "give a price: this market {what} no {} [{}] to take its price from",
                def.plural, def.tag
            ));
        }
    };
    let held = act.world.get::<Inventory>(me).map_or(0, |i| i.count(if selling { item } else { money }));
    if (selling && held == 0) || (!selling && held < price) {
        return Outcome::NotNow;
    }
    act.world.resource_mut::<Bids>().0.push(Bid { unit: me, location: at.location, item, selling, count, price });
    Outcome::Ran(Progress::Continue)
}

/// One participant of a clearing: a unit's offer (its index in the day's bids) or
/// the place's own.
#[derive(Clone, Copy)]
enum Who {
    Unit(usize),
    Place,
}

/// MKT-CLEAR, MKT-PAY: the day's markets clear, place by place and item by item.
pub fn clear_markets(world: &mut World) {
    let bids = std::mem::take(&mut world.resource_mut::<Bids>().0);
    if bids.is_empty() {
        return;
    }
    let catalog = world.resource::<Catalog>().clone();
    let Some(money) = catalog.money() else { return };
    let day = world.resource::<Clock>().tick;
    let mut books: BTreeMap<(Entity, ItemId), Vec<usize>> = BTreeMap::new();
    for (i, b) in bids.iter().enumerate() {
        books.entry((b.location, b.item)).or_default().push(i);
    }
    let mut filled = vec![0u32; bids.len()];
    for ((place, item), idx) in books {
        // What each unit can still spend or sell today, across its offers.
        let mut cash: BTreeMap<Entity, u64> = BTreeMap::new();
        let mut stock: BTreeMap<Entity, u64> = BTreeMap::new();
        let mut buyers: Vec<(Who, Offer)> = Vec::new();
        let mut sellers: Vec<(Who, Offer)> = Vec::new();
        for &i in &idx {
            let b = bids[i];
            let stayed = world.get::<At>(b.unit).is_some_and(|a| a.location == place)
                && !world.entity(b.unit).contains::<Journey>();
            if !stayed {
                note(world, b.unit, day, format!("Left before the market closed: {}.", offer_text(&catalog, &b)));
                continue;
            }
            if let Some(reason) = crate::systems::overlord::mechanics::guards::embargo(world, place, b.unit) {
                note(world, b.unit, day, format!("Could not trade at the market: {reason}."));
                continue;
            }
            let inv = world.get::<Inventory>(b.unit);
            let quantity = if b.selling {
                let left = stock.entry(b.unit).or_insert_with(|| u64::from(inv.map_or(0, |i| i.count(item))));
                let n = if b.count == 0 { *left } else { u64::from(b.count).min(*left) };
                *left -= n;
                n
            } else {
                let left = cash.entry(b.unit).or_insert_with(|| u64::from(inv.map_or(0, |i| i.count(money))));
                let afford = *left / u64::from(b.price.max(1));
                let n = if b.count == 0 { afford } else { u64::from(b.count).min(afford) };
                *left -= n * u64::from(b.price);
                n
            };
            let o = Offer { price: b.price, quantity: quantity.min(u64::from(u32::MAX)) as u32 };
            if b.selling { sellers.push((Who::Unit(i), o)) } else { buyers.push((Who::Unit(i), o)) }
        }
        // The place's own offers come after the units'.
        if let Some(m) = world.get::<Market>(place) {
            if let Some(g) = m.sells.iter().find(|g| g.item == item) {
                sellers.push((Who::Place, Offer { price: g.price, quantity: g.left() }));
            }
            if let Some(g) = m.buys.iter().find(|g| g.item == item) {
                buyers.push((Who::Place, Offer { price: g.price, quantity: g.left() }));
            }
        }
        let offers = |v: &[(Who, Offer)]| v.iter().map(|x| x.1).collect::<Vec<_>>();
        let result = clear(&offers(&buyers), &offers(&sellers));
        let market_price = result.as_ref().map(|c| c.price);
        let (mut paid, mut received) = (0u64, 0u64);
        for (side, fills, selling) in [
            (&buyers, result.as_ref().map(|c| c.bought.clone()), false),
            (&sellers, result.as_ref().map(|c| c.sold.clone()), true),
        ] {
            for (k, (who, o)) in side.iter().enumerate() {
                let n = fills.as_ref().map_or(0, |f| f[k]);
                let value = u64::from(n) * u64::from(o.price);
                if selling {
                    received += value
                } else {
                    paid += value
                }
                match *who {
                    Who::Place => {
                        if n > 0
                            && let Some(mut m) = world.get_mut::<Market>(place)
                        {
                            let goods = if selling { &mut m.sells } else { &mut m.buys };
                            if let Some(g) = goods.iter_mut().find(|g| g.item == item) {
                                g.traded += n;
                            }
                        }
                    }
                    Who::Unit(i) => {
                        filled[i] = n;
                        settle(world, &catalog, money, &bids[i], n, market_price, day);
                    }
                }
            }
        }
        if let Some(c) = result {
            let mut month = world.resource_mut::<MarketMonth>();
            month.traded.insert(place);
            let by_units: u64 = sellers
                .iter()
                .zip(&c.sold)
                .filter(|(s, _)| matches!(s.0, Who::Unit(_)))
                .map(|(_, &n)| u64::from(n))
                .sum();
            if by_units > 0 {
                *month.sold.entry((place, item)).or_default() += by_units;
            }
            if let Some(mut l) = world.get_mut::<Livelihood>(place) {
                l.tax_pool += paid.saturating_sub(received);
            }
        }
    }
    // The orders: reduced by what traded, or finished.
    for (i, b) in bids.iter().enumerate() {
        update_order(world, b, filled[i], day);
    }
}

/// Moves the goods and the coins of one unit's fill, and tells the unit.
fn settle(world: &mut World, catalog: &Catalog, money: ItemId, b: &Bid, n: u32, market: Option<u32>, day: u32) {
    let what = offer_text(catalog, b);
    if n == 0 {
        let why = match market {
            Some(p) => format!("the market cleared at {p}"),
            None if b.selling => "no one bought at that price".to_string(),
            None => "no one sold at that price".to_string(),
        };
        note(world, b.unit, day, format!("Traded nothing at the market ({what}): {why}."));
        return;
    }
    let value = u64::from(n) * u64::from(b.price);
    let mut inv = world.get_mut::<Inventory>(b.unit).expect("unit");
    let coins = catalog.items_text(money, value);
    let goods = catalog.items_text(b.item, u64::from(n));
    let text = if b.selling {
        transfer::take(&mut inv, b.item, n);
        transfer::add(&mut inv, money, value.min(u64::from(u32::MAX)) as u32);
        format!("Sold {goods} for {coins} (market price {}).", market.unwrap_or(b.price))
    } else {
        transfer::take(&mut inv, money, value.min(u64::from(u32::MAX)) as u32);
        transfer::add(&mut inv, b.item, n);
        format!("Bought {goods} for {coins} (market price {}).", market.unwrap_or(b.price))
    };
    note(world, b.unit, day, text);
}

/// "buying 10 swords [swrd] at 150", as an event names an offer.
fn offer_text(catalog: &Catalog, b: &Bid) -> String {
    let def = &catalog.rules.items[b.item.index()];
    let n = if b.count == 0 { "as many as possible".to_string() } else { b.count.to_string() };
    let verb = if b.selling { "selling" } else { "buying" };
    format!("{verb} {n} {} [{}] at {}", def.plural, def.tag, b.price)
}

fn note(world: &mut World, u: Entity, day: u32, text: String) {
    if let Some(mut e) = world.get_mut::<Events>(u) {
        e.push(day, text);
    }
}

/// ORD-BUY, ORD-SELL: a partial fill reduces the number; a filled order, or an
/// "as many as possible" that traded (without `@`), leaves the list.
fn update_order(world: &mut World, b: &Bid, n: u32, day: u32) {
    let Some(mut orders) = world.get_mut::<Orders>(b.unit) else { return };
    let matches = |o: &Order| match *o {
        Order::Buy { item, .. } => !b.selling && item == b.item,
        Order::Sell { item, .. } => b.selling && item == b.item,
        _ => false,
    };
    let Some(i) = orders.0.iter().position(|q| q.ran_on == day && matches(&q.entry.order)) else { return };
    let entry = &mut orders.0[i].entry;
    let repeat = entry.prefix.repeat;
    let done = match &mut entry.order {
        Order::Buy { count, .. } | Order::Sell { count, .. } if *count > 0 => {
            *count = count.saturating_sub(n);
            *count == 0
        }
        _ => n > 0 && repeat != Repeat::Always,
    };
    if done {
        queue::remove(&mut orders.0, i);
    }
}

/// MKT-DRIFT: the places' own offers move with the month's trade, and renew.
pub fn drift(mut q: Query<(Entity, &mut Market, &Population)>, catalog: Res<Catalog>, month: Res<MarketMonth>) {
    let rules = &catalog.rules.economy.market;
    let follow = catalog.rules.economy.market_population_percent;
    for (place, mut m, people) in &mut q {
        let m = &mut *m;
        let before = month.people.get(&place).copied();
        for (goods, sold_by_place) in [(&mut m.sells, true), (&mut m.buys, false)] {
            for g in goods.iter_mut() {
                let base = catalog.rules.items[g.item.index()].price;
                // A thing the place sells that was bought out is dearer; a thing it buys
                // that it got all of is cheaper.
                let busy = g.quantity > 0 && g.traded >= g.quantity;
                let slow = u64::from(g.traded) * 100 < u64::from(g.quantity) * u64::from(rules.slow_percent);
                let up = if sold_by_place { busy } else { slow };
                let down = if sold_by_place { slow } else { busy };
                g.price = step_price(g.price, base, up, down, rules);
                g.traded = 0;
                if let Some(before) = before {
                    g.quantity = follow_people(g.quantity, before, people.0, follow);
                }
            }
        }
    }
}

/// A monthly quantity after the place's people went from `before` to `after`: it
/// moves by `percent` % of their relative change, rounded; a place still inhabited
/// keeps at least one of what it had (MKT-DRIFT).
pub fn follow_people(quantity: u32, before: u32, after: u32, percent: u32) -> u32 {
    if before == 0 || percent == 0 || before == after {
        return quantity;
    }
    let (q, b, a, p) = (i128::from(quantity), i128::from(before), i128::from(after), i128::from(percent));
    // q × (1 + (a − b) / b × p / 100), rounded half up.
    let num = q * (b * 100 + (a - b) * p);
    let den = b * 100;
    let moved = (2 * num + den).div_euclid(2 * den);
    let floor = if quantity > 0 && after > 0 { 1 } else { 0 };
    moved.clamp(floor, i128::from(u32::MAX)) as u32
}

/// A price moved one step up or down, within the floor and ceiling around `base`
/// (MKT-DRIFT, REC-DRIFT).
pub fn step_price(price: u32, base: u32, up: bool, down: bool, rules: &PriceDrift) -> u32 {
    if rules.price_step_percent == 0 || up == down {
        return price;
    }
    let step = ((u64::from(price) * u64::from(rules.price_step_percent) + 50) / 100).max(1);
    let floor = (u64::from(base) * u64::from(rules.floor_percent) / 100).max(1);
    let ceiling = if rules.ceiling_percent == 0 || base == 0 {
        u64::from(u32::MAX)
    } else {
        (u64::from(base) * u64::from(rules.ceiling_percent) / 100).max(floor)
    };
    let p = u64::from(price);
    let moved = if up { (p + step).min(ceiling.max(p)) } else { p.saturating_sub(step).max(floor.min(p)) };
    moved as u32
}

#[cfg(test)]
mod drift_tests {
    use super::*;

    #[test]
    fn quantities_follow_the_people_in_the_share_given_mkt_drift() {
        // 1000 → 1100 people (+10%): 40 → 44 in full, 42 at half; 1000 → 500: 20.
        assert_eq!(follow_people(40, 1000, 1100, 100), 44);
        assert_eq!(follow_people(40, 1000, 1100, 50), 42);
        assert_eq!(follow_people(40, 1000, 500, 100), 20);
        // Rounded half up: 5 × 1.1 = 5.5 → 6; 5 × 0.9 = 4.5 → 5.
        assert_eq!(follow_people(5, 1000, 1100, 100), 6);
        assert_eq!(follow_people(5, 1000, 900, 100), 5);
        // An inhabited place keeps one; an emptied place none; no people before or
        // share 0: unchanged.
        assert_eq!(follow_people(1, 1000, 100, 100), 1);
        assert_eq!(follow_people(10, 1000, 0, 100), 0);
        assert_eq!(follow_people(10, 0, 500, 100), 10);
        assert_eq!(follow_people(10, 1000, 2000, 0), 10);
        // A share above 100 cannot go below nothing.
        assert_eq!(follow_people(10, 1000, 100, 300), 1);
    }

    #[test]
    fn prices_move_a_step_within_floor_and_ceiling_mkt_drift() {
        let r = PriceDrift { price_step_percent: 10, slow_percent: 50, floor_percent: 50, ceiling_percent: 200 };
        assert_eq!(step_price(100, 100, true, false, &r), 110);
        assert_eq!(step_price(100, 100, false, true, &r), 90);
        assert_eq!(step_price(100, 100, false, false, &r), 100);
        // Never past the ceiling (200) nor the floor (50); at least 1 a step.
        assert_eq!(step_price(195, 100, true, false, &r), 200);
        assert_eq!(step_price(52, 100, false, true, &r), 50);
        assert_eq!(step_price(3, 0, true, false, &r), 4);
        // A price already beyond a bound is not pushed further out, nor pulled in.
        assert_eq!(step_price(300, 100, true, false, &r), 300);
        assert_eq!(step_price(40, 100, false, true, &r), 40);
    }
}
