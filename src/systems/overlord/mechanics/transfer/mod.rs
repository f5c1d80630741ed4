//! Items changing hands: GIVE, GET, DROP, SWAP, EQUIP, WITHDRAW (ORD-GIVE, ORD-GET,
//! ORD-DROP, ORD-SWAP, ORD-EQUIP, ORD-WITHDRAW), and GIVE of a whole unit (UNIT-XFER,
//! carried out by `mechanics::allegiance`).
//!
//! Counts follow the order reference: no number means all; `0 k` means all but `k`,
//! as long as one item moves; `n k` needs `n + k`. An order whose counts cannot be
//! met waits (it is skipped and kept). Items leave unequipped ones first.

use crate::systems::overlord::data::StanceGrant;
use crate::systems::overlord::mechanics::allegiance;
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers};
use crate::systems::overlord::orders::queue::{self, Outcome, Progress};
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::orders::syntax::{Entry, Order, Target};
use crate::systems::overlord::world::ItemId;
use crate::systems::overlord::world::components::{At, Funds, Ground, Holding, Id, Inventory, Orders, Skills, Terrain};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Registers the item orders.
pub struct TransferPlugin;

impl Plugin for TransferPlugin {
    fn build(&self, app: &mut App) {
        let mut h = app.world_mut().resource_mut::<OrderHandlers>();
        h.set(module_path!(), Keyword::Give, give);
        h.set(module_path!(), Keyword::Get, get);
        h.set(module_path!(), Keyword::Drop, drop_items);
        h.set(module_path!(), Keyword::Swap, swap);
        h.set(module_path!(), Keyword::Equip, equip);
        h.set(module_path!(), Keyword::Withdraw, withdraw);
    }
}

/// How many items move when `have` are held and the order says `count` and `kept`.
pub fn amount(have: u32, count: Option<u32>, kept: Option<u32>) -> Option<u32> {
    let n = match (count, kept) {
        (None | Some(0), None) => have,
        (Some(0) | None, Some(k)) => have.saturating_sub(k),
        (Some(n), k) => {
            if have >= n.saturating_add(k.unwrap_or(0)) {
                n
            } else {
                0
            }
        }
    };
    (n > 0).then_some(n)
}

/// Takes `n` of `item` from an inventory (unequipped first). The caller checked the count.
pub fn take(inv: &mut Inventory, item: ItemId, n: u32) {
    if let Some(pos) = inv.0.iter().position(|h| h.item == item) {
        let h = &mut inv.0[pos];
        h.count -= n.min(h.count);
        h.equipped = h.equipped.min(h.count);
        if h.count == 0 {
            inv.0.remove(pos);
        }
    }
}

/// Adds `n` of `item` to an inventory, unequipped.
pub fn add(inv: &mut Inventory, item: ItemId, n: u32) {
    match inv.0.iter_mut().find(|h| h.item == item) {
        Some(h) => h.count = h.count.saturating_add(n),
        None => inv.0.push(Holding { item, count: n, equipped: 0 }),
    }
}

/// ITM-GIVE: mana ("cannot be given or gotten") never changes hands.
fn bound(act: &Act, item: ItemId) -> Option<Outcome> {
    (act.catalog().mana() == Some(item)).then(|| Outcome::Invalid("mana cannot change hands".into()))
}

fn held(act: &Act, u: Entity, item: ItemId) -> u32 {
    act.world.get::<Inventory>(u).map_or(0, |i| i.count(item))
}

fn moved(act: &mut Act, from: Entity, to: Entity, item: ItemId, n: u32) {
    take(&mut act.world.get_mut::<Inventory>(from).expect("unit"), item, n);
    add(&mut act.world.get_mut::<Inventory>(to).expect("unit"), item, n);
}

fn items(act: &Act, item: ItemId, n: u32) -> String {
    act.catalog().items_text(item, u64::from(n))
}

/// ORD-GIVE: waits until the receiver is present and seen and the items are there;
/// the receiver's faction must hold the giver's at least Friendly (DIP-FRIENDLY).
/// `GIVE receiver unit` hands over a whole unit (UNIT-XFER, `mechanics::allegiance`).
fn give(act: &mut Act, entry: &mut Entry) -> Outcome {
    if let Order::GiveUnit { to, unit } = &entry.order {
        return give_unit(act, to, unit);
    }
    let Order::Give { to, item, count, kept } = &entry.order else { return Outcome::NotNow };
    if let Some(no) = bound(act, *item) {
        return no;
    }
    let Some(target) = act.unit_named(to) else { return Outcome::NotNow };
    if target == act.unit {
        return Outcome::Invalid("a unit cannot give to itself".into());
    }
    if !act.sees(target) {
        return Outcome::NotNow;
    }
    let Some(n) = amount(held(act, act.unit, *item), *count, *kept) else { return Outcome::NotNow };
    if !crate::systems::overlord::mechanics::diplomacy::unit_grants(act.world, target, act.unit, StanceGrant::Gifts) {
        return Outcome::Invalid(format!("{} does not accept gifts from your faction", act.name(target)));
    }
    let what = items(act, *item, n);
    moved(act, act.unit, target, *item, n);
    let (them, me) = (act.name(target), act.name(act.unit));
    act.routine(format!("Gave {what} to {them}."));
    act.event(target, format!("Received {what} from {me}."));
    Outcome::Ran(Progress::Step)
}

/// UNIT-XFER: the giver hands over itself or a unit of its faction stacked under it.
fn give_unit(act: &mut Act, to: &str, unit: &str) -> Outcome {
    let Some(given) = act.unit_named(unit) else { return Outcome::NotNow };
    let me = act.unit;
    if given != me && (!act.is_above(me, given) || act.faction_of(given) != act.faction_of(me)) {
        return Outcome::Invalid(format!("{unit} is neither this unit nor a unit of its faction stacked under it"));
    }
    let Some(target) = act.unit_named(to) else { return Outcome::NotNow };
    allegiance::swear(act, given, target)
}

/// ORD-GET: from a unit of one's own faction, or from the ground of one's location if
/// it is unowned or its owner holds one's faction as an ally.
fn get(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Get { from, count, item, left } = &entry.order else { return Outcome::NotNow };
    if let Some(no) = bound(act, *item) {
        return no;
    }
    match from {
        Target::Unit(id) => {
            let Some(source) = act.unit_named(id) else { return Outcome::NotNow };
            if act.faction_of(source) != act.faction_of(act.unit) {
                return Outcome::Invalid(format!("{id} is not a unit of your faction"));
            }
            if !act.present(source) {
                return Outcome::NotNow;
            }
            let Some(n) = amount(held(act, source, *item), *count, *left) else { return Outcome::NotNow };
            let what = items(act, *item, n);
            moved(act, source, act.unit, *item, n);
            let (them, me) = (act.name(source), act.name(act.unit));
            act.routine(format!("Took {what} from {them}."));
            act.event(source, format!("{me} took {what}."));
            Outcome::Ran(Progress::Step)
        }
        Target::Location(id) => {
            let Some(at) = act.at(act.unit) else { return Outcome::NotNow };
            if act.world.resource::<Directory>().get(Kind::Location, id) != Some(at.location) {
                return Outcome::NotNow;
            }
            if let Some((_, role)) = crate::systems::overlord::mechanics::diplomacy::barring(
                act.world,
                at.location,
                act.unit,
                StanceGrant::Ground,
            ) {
                return Outcome::Invalid(format!(
                    "the faction that {role} of {id} does not let you take from the ground"
                ));
            }
            let on_ground = ground(act, at.location, *item);
            let Some(n) = amount(on_ground, *count, *left) else { return Outcome::NotNow };
            set_ground(act, at.location, *item, on_ground - n);
            let what = items(act, *item, n);
            add(&mut act.world.get_mut::<Inventory>(act.unit).expect("unit"), *item, n);
            act.routine(format!("Picked up {what}."));
            Outcome::Ran(Progress::Step)
        }
        _ => Outcome::Invalid("GET takes from a unit or a location".into()),
    }
}

/// How many of `item` lie on the ground of `loc`.
fn ground(act: &Act, loc: Entity, item: ItemId) -> u32 {
    act.world.get::<Ground>(loc).and_then(|g| g.0.iter().find(|c| c.0 == item).map(|c| c.1)).unwrap_or(0)
}

/// Sets how many of `item` lie on the ground of `loc`.
fn set_ground(act: &mut Act, loc: Entity, item: ItemId, n: u32) {
    let mut g = act.world.get_mut::<Ground>(loc).expect("location");
    let inv = &mut g.0;
    match inv.iter().position(|c| c.0 == item) {
        Some(i) if n == 0 => {
            inv.remove(i);
        }
        Some(i) => inv[i].1 = n,
        None if n > 0 => inv.push((item, n)),
        None => {}
    }
}

/// ORD-DROP: items go to the location's ground.
fn drop_items(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Drop { item, count, kept } = &entry.order else { return Outcome::NotNow };
    if let Some(no) = bound(act, *item) {
        return no;
    }
    let Some(at) = act.at(act.unit) else { return Outcome::NotNow };
    let Some(n) = amount(held(act, act.unit, *item), *count, *kept) else { return Outcome::NotNow };
    let now = ground(act, at.location, *item);
    set_ground(act, at.location, *item, now.saturating_add(n));
    take(&mut act.world.get_mut::<Inventory>(act.unit).expect("unit"), *item, n);
    let what = items(act, *item, n);
    act.routine(format!("Dropped {what}."));
    Outcome::Ran(Progress::Step)
}

/// ORD-SWAP: runs when the other unit, present, gives the mirror SWAP today and both
/// have their part. No stance is needed.
fn swap(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Swap { with, give, take: want } = &entry.order else { return Outcome::NotNow };
    if let Some(no) = bound(act, give.1).or_else(|| bound(act, want.1)) {
        return no;
    }
    let Some(other) = act.unit_named(with) else { return Outcome::NotNow };
    if !act.present(other) {
        return Outcome::NotNow;
    }
    let my_id = act.world.get::<Id>(act.unit).map(|i| i.0.clone()).unwrap_or_default();
    let (give, want) = (*give, *want);
    if held(act, act.unit, give.1) < give.0 || held(act, other, want.1) < want.0 {
        return Outcome::NotNow;
    }
    let day = act.day;
    let mirror =
        |o: &Order| matches!(o, Order::Swap { with, give: g, take: t } if *with == my_id && *g == want && *t == give);
    let Some(i) = act.world.get::<Orders>(other).and_then(|o| queue::find_considered(&o.0, day, mirror)) else {
        return Outcome::NotNow;
    };
    moved(act, act.unit, other, give.1, give.0);
    moved(act, other, act.unit, want.1, want.0);
    queue::settle(&mut act.world.get_mut::<Orders>(other).expect("unit").0, i, day, Progress::Step);
    let (a, b) = (items(act, give.1, give.0), items(act, want.1, want.0));
    let (them, me) = (act.name(other), act.name(act.unit));
    act.routine(format!("Swapped {a} for {b} with {them}."));
    act.event(other, format!("Swapped {b} for {a} with {me}."));
    Outcome::Ran(Progress::Step)
}

/// ORD-EQUIP: sets the number equipped, within the per-figure limit of the item's
/// slot shared with other items of that slot (ITM-SLOT), if the unit has the skill.
fn equip(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Equip { item, count } = &entry.order else { return Outcome::NotNow };
    let c = act.catalog().clone();
    let data = &c.rules.items[item.index()];
    let Some(slot) = &data.system.slot else {
        return Outcome::Invalid(format!("{} cannot be equipped", data.name));
    };
    if let Some(req) = &data.system.equip_skill {
        let level = c.skill(&req.skill).map_or(0, |s| {
            let exp = act.world.get::<Skills>(act.unit).and_then(|k| k.0.iter().find(|x| x.0 == s).map(|x| x.1));
            c.skill_level(s, exp.unwrap_or(0))
        });
        if level < req.level {
            return Outcome::Invalid(format!("equipping {} needs level {} in {}", data.name, req.level, req.skill));
        }
    }
    let figures = act.figures(act.unit);
    let inv = act.world.get::<Inventory>(act.unit).cloned().unwrap_or_default();
    let others: u32 = inv
        .0
        .iter()
        .filter(|h| h.item != *item && c.rules.items[h.item.index()].system.slot.as_ref() == Some(slot))
        .map(|h| h.equipped)
        .sum();
    let limit = (figures.saturating_mul(data.system.max_per_figure)).saturating_sub(others);
    let have = inv.count(*item);
    let n = count.unwrap_or(u32::MAX).min(limit).min(have);
    let mut inv = act.world.get_mut::<Inventory>(act.unit).expect("unit");
    if let Some(h) = inv.0.iter_mut().find(|h| h.item == *item) {
        h.equipped = n;
    }
    let what = items(act, *item, n);
    act.routine(format!("Has {what} equipped."));
    Outcome::Ran(Progress::Step)
}

/// ORD-WITHDRAW: only in a city; up to `amount` coins (or items) from faction funds.
fn withdraw(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Withdraw { amount: wanted, item } = &entry.order else { return Outcome::NotNow };
    let c = act.catalog().clone();
    let Some(At { location, .. }) = act.at(act.unit) else { return Outcome::NotNow };
    let allowed = &c.rules.info.parameters.withdraw_terrains;
    let here = act.world.get::<Terrain>(location).map(|t| t.0);
    if !here.is_some_and(|t| allowed.iter().any(|a| c.terrain(a) == Some(t))) {
        let names: Vec<&str> =
            allowed.iter().filter_map(|a| c.terrain(a)).map(|t| c.rules.terrains[t.index()].name.as_str()).collect();
        return Outcome::Invalid(format!("WITHDRAW works only in a {}", names.join(" or a ").to_lowercase()));
    }
    let Some(item) = item.or_else(|| c.money()) else { return Outcome::Invalid("this game has no money".into()) };
    let Some(f) = act.faction_of(act.unit) else { return Outcome::NotNow };
    let mut funds = act.world.get_mut::<Funds>(f).expect("faction");
    let available = funds.0.iter().find(|x| x.0 == item).map_or(0, |x| x.1);
    let n = u64::from(*wanted).min(available) as u32;
    if let Some(x) = funds.0.iter_mut().find(|x| x.0 == item) {
        x.1 -= u64::from(n);
    }
    if n > 0 {
        add(&mut act.world.get_mut::<Inventory>(act.unit).expect("unit"), item, n);
    }
    let what = items(act, item, n);
    act.routine(format!("Withdrew {what} from the faction funds."));
    Outcome::Ran(Progress::Step)
}

#[cfg(test)]
mod tests {
    use super::amount;
    use crate::systems::overlord::testkit::Tiny;

    /// 20 men of fa in L1 with `skills` and `items`, given `orders`, after a day.
    fn equipped(
        skills: &[(&str, u32)],
        items: &[(&str, u32)],
        orders: &str,
    ) -> crate::systems::overlord::testkit::Game {
        let mut g = Tiny::new()
            .faction("fa")
            .location("L1", "plai")
            .unit("U1", "fa", "man", 20, "L1")
            .skills(skills)
            .items(items)
            .without_money()
            .build();
        g.orders("fa", &format!("UNIT U1\n{orders}"));
        g.days(1);
        g
    }

    fn on(g: &crate::systems::overlord::testkit::Game, item: &str) -> u32 {
        let c = g.engine.world().resource::<crate::systems::overlord::world::Catalog>();
        let i = c.item(item).unwrap();
        g.get::<crate::systems::overlord::world::components::Inventory>("U1")
            .0
            .iter()
            .find(|h| h.item == i)
            .map_or(0, |h| h.equipped)
    }

    #[test]
    fn the_per_figure_limit_is_shared_by_everything_in_the_slot_itm_slot() {
        // Swords and war hammers are both weapons, one a figure: 20 figures hold 12
        // swords and then 8 hammers, not 10.
        let g = equipped(&[("blde", 3000), ("mele", 3000)], &[("swrd", 12), ("wham", 10)], "EQUIP swrd\nEQUIP wham\n");
        assert_eq!((on(&g, "swrd"), on(&g, "wham")), (12, 8));
    }

    #[test]
    fn equipping_needs_the_items_skill_and_level_itm_eqskill() {
        // A longbow needs 2nd archery [arch]: with 1st it is refused, with 2nd held.
        let g = equipped(&[("arch", 3000)], &[("lbow", 5)], "EQUIP lbow\n");
        assert_eq!(on(&g, "lbow"), 0);
        assert!(g.said("U1", "equipping longbow needs level 2 in arch"), "{:?}", g.events("U1"));
        let g = equipped(&[("arch", 9000)], &[("lbow", 5)], "EQUIP lbow\n");
        assert_eq!(on(&g, "lbow"), 5);
    }

    #[test]
    fn counts_of_give_get_and_drop() {
        // ORD-GIVE: no number = all; `0 k` = all but k; `n k` needs n + k.
        assert_eq!(amount(10, None, None), Some(10));
        assert_eq!(amount(0, None, None), None);
        assert_eq!(amount(10, Some(0), Some(4)), Some(6));
        assert_eq!(amount(4, Some(0), Some(4)), None, "at least one item must move");
        assert_eq!(amount(10, Some(3), None), Some(3));
        assert_eq!(amount(2, Some(3), None), None, "waits for the items");
        assert_eq!(amount(10, Some(3), Some(7)), Some(3));
        assert_eq!(amount(10, Some(3), Some(8)), None);
    }
}
