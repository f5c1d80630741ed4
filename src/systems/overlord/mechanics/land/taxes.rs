//! Taxes and occupation (OWN-TAX, OWN-OCCUPY, OWN-FORCE).
//!
//! * **Taxes** of a place, a month: its population × `tax_per_hundred` / 100 ×
//!   the season's `tax_percent` / 100 (`economy.ron` `land`; autumn +25%). At the
//!   start of each day ([`levy`], the plan's `levy` step) the day's share (the
//!   month's taxes spread evenly over its days, remainders to the later days)
//!   comes into the place's tax pool, which never grows past a month's taxes by
//!   levies (what the market's spread adds stays).
//! * **Occupation**: at each day's end (into [`Occupation`]) ([`collect`], the plan's `taxes` step) a
//!   place is occupied by the faction, other than its owner and not held allied
//!   by it (`Aid`), with the most figures in units able to do combat damage there,
//!   when they are a significant force: one figure per `people_per_figure`
//!   people, within `min_figures`..`max_figures` (`force`).
//! * **Collection**: then the legal owner's faction takes the pool of each place
//!   it owns that is not occupied, into its funds. On the month's last day each
//!   faction is told, place by place, what it collected in the month. A place
//!   taxed in the month has its optimum lowered by `tax_optimum_percent` at month
//!   end ([`taxed`], read by the population's month end).

use crate::core::engine::plan::Clock;
use crate::systems::overlord::data::{ForceRule, StanceGrant};
use crate::systems::overlord::mechanics::diplomacy::grants;
use crate::systems::overlord::mechanics::scheduler::label;
use crate::systems::overlord::mechanics::stats::UnitStats;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, Events, Figures, Funds, Journey, LandOwner, Livelihood, Owner, Population,
};
use crate::systems::overlord::world::resources::{Directory, Month, Occupation};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

/// The month's occupiers and taxes collected, by place.
#[derive(Resource, Debug, Default)]
pub struct LandBook {
    /// Taxes collected this month, by place: the faction and the coins. The places
    /// taxed this month (their optimum falls at month end).
    pub collected: EntityHashMap<(Entity, u64)>,
    /// Places their owner pillaged this month, and the owner (OWN-SELF-PILLAGE).
    pub self_pillaged: EntityHashMap<Entity>,
    /// The last day each place was pillaged (its harm comes once a day).
    pub pillaged: EntityHashMap<u32>,
}

/// A month's taxes of a place of `people` in month `month` (OWN-TAX).
pub fn monthly_taxes(catalog: &Catalog, month: u32, people: u32) -> u64 {
    let per = u64::from(catalog.rules.economy.land.tax_per_hundred);
    let season = catalog.season(month).map_or(100, |s| u64::from(s.system.tax_percent));
    u64::from(people) * per / 100 * season / 100
}

/// Whether a unit with these statistics can do combat damage (OWN-FORCE): it
/// strikes with some damage, in melee or with missiles.
pub fn does_damage(s: &UnitStats) -> bool {
    (s.stats.melee > 0 && s.stats.damage > 0) || (s.stats.missile > 0 && s.stats.ranged_damage > 0)
}

/// The plan's `levy` step: the day's taxes come into each place's pool.
pub fn levy(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let month = world.resource::<Month>().0;
    let (day, days) = {
        let c = world.resource::<Clock>();
        (u64::from(c.tick.max(1)), u64::from(c.ticks.max(1)))
    };
    if day == 1 {
        // A new month's book.
        let mut book = world.resource_mut::<LandBook>();
        book.collected.clear();
        book.pillaged.clear();
    }
    let mut q = world.query::<(&Population, &mut Livelihood)>();
    for (p, mut v) in q.iter_mut(world) {
        if p.0 == 0 {
            continue;
        }
        let month_taxes = monthly_taxes(&catalog, month, p.0);
        if month_taxes == 0 {
            continue;
        }
        let share = month_taxes * day / days - month_taxes * (day - 1) / days;
        if share > 0 && v.tax_pool < month_taxes {
            v.tax_pool = (v.tax_pool + share).min(month_taxes);
        }
    }
}

/// The plan's `taxes` step: occupation is reckoned, owners collect.
pub fn collect(world: &mut World) {
    let catalog = world.resource::<Catalog>().clone();
    let Some(money) = catalog.money() else { return };
    let occupied = occupiers(world, &catalog.rules.economy.land.force);
    let places = world.resource::<Directory>().locations.clone();
    let mut book = world.remove_resource::<LandBook>().unwrap_or_default();
    for &l in &places {
        let Some(owner) = world.get::<LandOwner>(l).and_then(|o| o.0.as_ref().map(|x| x.0)) else { continue };
        if occupied.contains_key(&l) {
            continue;
        }
        let Some(mut v) = world.get_mut::<Livelihood>(l) else { continue };
        let pool = std::mem::take(&mut v.tax_pool);
        if pool == 0 {
            continue;
        }
        let Some(mut funds) = world.get_mut::<Funds>(owner) else {
            world.get_mut::<Livelihood>(l).expect("place").tax_pool = pool;
            continue;
        };
        match funds.0.iter_mut().find(|x| x.0 == money) {
            Some(x) => x.1 += pool,
            None => {
                funds.0.push((money, pool));
                funds.0.sort_by_key(|x| x.0);
            }
        }
        let e = book.collected.entry(l).or_insert((owner, 0));
        *e = (owner, e.1 + pool);
    }
    let (day, last) = {
        let c = world.resource::<Clock>();
        (c.tick, c.tick >= c.ticks)
    };
    if last {
        for &l in &places {
            let Some(&(f, n)) = book.collected.get(&l) else { continue };
            let text = format!("{} taxes from {} collected.", catalog.items_text(money, n), label(world, l));
            if let Some(mut e) = world.get_mut::<Events>(f) {
                e.push(day, text);
            }
        }
    }
    world.insert_resource(book);
    world.insert_resource(Occupation(occupied));
}

/// Whether the owner of `place` collected taxes there this month (POP-OPTIMA:
/// "Taxing decreases the optima", reckoned by the population at month end).
pub fn taxed(world: &World, place: Entity) -> bool {
    world.get_resource::<LandBook>().is_some_and(|b| b.collected.contains_key(&place))
}

/// The faction occupying each place where some faction's significant force stands
/// (OWN-OCCUPY, OWN-FORCE).
fn occupiers(world: &mut World, force: &ForceRule) -> EntityHashMap<Entity> {
    // (place, faction) → armed figures, in order of first sight.
    let mut armed: EntityHashMap<Vec<(Entity, u32)>> = EntityHashMap::default();
    let mut q = world.query_filtered::<(&At, &Owner, &Figures, &UnitStats), Without<Journey>>();
    for (at, o, n, s) in q.iter(world) {
        if n.0 == 0 || !does_damage(s) {
            continue;
        }
        let v = armed.entry(at.location).or_default();
        match v.iter_mut().find(|x| x.0 == o.0) {
            Some(x) => x.1 = x.1.saturating_add(n.0),
            None => v.push((o.0, n.0)),
        }
    }
    let mut out = EntityHashMap::default();
    for (l, sides) in armed {
        let people = world.get::<Population>(l).map_or(0, |p| p.0);
        let need = force.figures_for(people);
        let owner = world.get::<LandOwner>(l).and_then(|o| o.0.as_ref().map(|x| x.0));
        let seq =
            |f: Entity| world.get::<crate::systems::overlord::world::components::Seq>(f).map_or(u32::MAX, |s| s.0);
        let best = sides
            .iter()
            .filter(|&&(f, n)| {
                n >= need && Some(f) != owner && owner.is_none_or(|o| !grants(world, o, f, StanceGrant::Aid))
            })
            .max_by_key(|&&(f, n)| (n, std::cmp::Reverse(seq(f))));
        if let Some(&(f, _)) = best {
            out.insert(l, f);
        }
    }
    out
}
