//! The daily scheduler: every unit's order list, worked through day after day
//! (checklist §3, SCH-*), with the conditions of the order reference.
//!
//! Each day, in the plan's `immediate` step:
//!
//! * units are visited in a fixed order: locations in report order (the order of the
//!   scenario's `locations.ron`), and in each location the units outside structures
//!   in report order, then the units in each structure, structures in report order
//!   (SCH-LOC, SCH-UNIT); units on a journey are skipped (SCH-MOVING);
//! * in a pass each unit tries to run one immediate order ([`queue::run_one`]); while
//!   a pass runs anything, another pass starts from the first unit (SCH-IMM,
//!   SCH-IMM-LOOP). A pass covers the whole world, so that a SYNCHRO between two
//!   units of one faction in different locations fires in the same pass for both.
//!
//! In the `full_day` step, one more pass runs one full-day order per unit, or the
//! invisible WORK when none runs (SCH-FULL, PFX-WORK). In the `day_end` step, WAIT
//! orders count down.
//!
//! A unit whose full-day orders all wait for something only the unit itself can
//! change ([`Act::waits_on_itself`]: a craft lacking its inputs) is left
//! dormant: the full-day pass does not try its list again, and the unit goes on
//! as if its orders had waited, until its orders, race, skills, work in progress
//! or items change (Bevy's change ticks, read in [`still_dormant`]), in that
//! pass or any later one. The month is the same as if the orders were tried
//! every day.
//!
//! What an order *does* is a [`Handler`], registered by the plugin of its mechanic in
//! [`OrderHandlers`]. An order with no handler yet is skipped and kept, and the unit's
//! report says so once a month.

mod conditions;
mod handlers;
mod listed;

pub use handlers::{Act, Handler, Look, Me, OrderHandlers, Sees, label, on_guard_share};

use crate::core::engine::by_entity::ByEntity;
use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::RaceKind;
use crate::systems::overlord::mechanics::intake::NewIds;
use crate::systems::overlord::orders::queue::{self, Outcome, Pass};
use crate::systems::overlord::orders::syntax::{Entry, Order, Who};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{At, Events, Journey, Orders, Race, Refusing, Seq};
use crate::systems::overlord::world::components::{Inventory, Production, Skills};
use crate::systems::overlord::world::resources::Directory;
use bevy_app::{App, Plugin};
use bevy_ecs::change_detection::Tick;
use bevy_ecs::prelude::*;

/// The scheduler, the conditions, and the purge of new ids never created.
pub struct OrdersPlugin;

impl Plugin for OrdersPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<OrderHandlers>();
        app.init_resource::<Visiting>();
        conditions::register(&mut app.world_mut().resource_mut::<OrderHandlers>());
        app.add_step_system("month_start", start_month);
        app.add_step_system("month_start", note_unhandled);
        app.add_step_system("immediate", immediate_passes);
        app.add_step_system("full_day", full_day_pass);
        app.add_step_system("day_end", end_day);
        app.add_step_system("new_ids", purge_new_ids);
        app.add_step_system("new_ids", note_waiting);
    }
}

/// The order in which units are visited, kept until something changes where units
/// are or their report order (ENTER, LEAVE, PROMOTE, new and vanished units…).
///
/// Travelling units keep their place in it (the passes skip them), so a departure
/// changes nothing; an arrival moves only the units that arrived ([`Visiting::moved`]),
/// which costs a merge, not a new sort.
#[derive(Resource, Debug, Default)]
pub struct Visiting {
    /// Each visited unit's place in the order (location seq, structure seq + 1 or 0,
    /// report position), sorted; `order` holds the units, in the same order.
    places: Vec<Place>,
    /// The units in visiting order: what the passes walk.
    order: Vec<Entity>,
    /// [`relocate`]'s second buffers of `places` and `order`, which it copies into
    /// and swaps with them, kept between its runs so that a big world's are not
    /// allocated afresh.
    spare: (Vec<Place>, Vec<Entity>),
    stale: bool,
    /// Units whose place changed since the order was built, when only that changed.
    moved: Vec<Entity>,
    /// Each unit's place in `places`, kept with them: where a unit stands is
    /// found by a search for its place ([`positions`]), without reading the order.
    place_of: ByEntity<Place>,
    /// [`active_units`] searches for the units with immediate orders when fewer
    /// than one unit in this many hold one: [`SEARCHED_BELOW`] unless set (a
    /// test takes one way or the other so).
    searched_below: Option<usize>,
    /// Units with immediate orders today, in visiting order.
    immediate: Vec<Entity>,
    /// What each unit's list holds that a pass could act on.
    listed: listed::Listed,
    /// Bit per order kind already noted in the unit's report this month (not run by
    /// this engine yet, or why it waits), per unit: a waiting order asks every day
    /// of the month whether it was noted. Emptied each month.
    noted: ByEntity<u64>,
    /// The units whose full-day step found only orders that wait on the unit
    /// itself ([`Act::waits_on_itself`]), with the tick of that pass: until
    /// the unit's orders, race, skills, work in progress or items change, the
    /// full-day pass does not step them again ([`still_dormant`]). Emptied each
    /// month.
    dormant: ByEntity<Tick>,
}

/// Marks a unit whose whole order list is dropped once the order it is running is
/// done (a unit that became a stockpile, ORD-MERGE).
#[derive(Component, Debug, Clone, Copy)]
#[component(storage = "SparseSet")]
pub struct DropOrders;

impl Visiting {
    /// Marks the visiting order as out of date.
    pub fn invalidate(&mut self) {
        self.stale = true;
    }
    /// Unit `u` is now somewhere else (its report position is unchanged): it takes
    /// its new place at the next pass.
    pub fn moved(&mut self, u: Entity) {
        self.moved.push(u);
    }
}

/// Unit `u`'s place in the visiting order (SCH-LOC, SCH-UNIT) but its report position,
/// or `None` for a unit that is not visited.
fn place_key(world: &World, u: Entity) -> Option<(u32, u32)> {
    let r = world.get_entity(u).ok()?;
    if r.contains::<Refusing>() {
        return None;
    }
    let at = r.get::<At>()?;
    let seq = |e: Entity| world.get::<Seq>(e).map(|s| s.0);
    Some(crate::systems::overlord::world::visiting_place(seq(at.location), at.structure.and_then(seq)))
}

/// The visiting order of SCH-LOC and SCH-UNIT, from scratch.
fn visiting_keys(world: &World) -> Vec<Key> {
    let dir = world.resource::<Directory>();
    let mut keyed: Vec<Key> = Vec::with_capacity(dir.units().len());
    for (pos, &u) in dir.units().iter().enumerate() {
        if let Some((loc, inside)) = place_key(world, u) {
            keyed.push((loc, inside, pos as u32, u));
        }
    }
    keyed.sort_unstable();
    keyed
}

/// A unit's place in the visiting order: location seq, structure seq + 1 or 0,
/// report position. No two units share one (report positions are distinct).
type Place = (u32, u32, u32);

/// A unit's place in the visiting order, with the unit.
type Key = (u32, u32, u32, Entity);

/// The units of [`Visiting::moved`] that the order holds leave their old place
/// and take their new one; the rest keeps its order. Where the moved units stood
/// is found by a search of the places for their old ones ([`positions`]), each
/// new place by a binary search of the old ones,
/// and the new order is copied from the old a run at a time between the places
/// left and taken. A day's arrivals cost those searches and a copy, where
/// removing and inserting unit by unit moved every key twice, and where finding
/// the moved units read the whole order.
fn relocate(world: &World, v: &mut Visiting, moved: &[Entity]) {
    if moved.is_empty() {
        return;
    }
    let Visiting { places, order, spare, place_of, .. } = v;
    // Where the moved units stand in the order, in order (a unit named twice
    // counts once; one the order does not hold, not at all).
    let gone = positions(places, order, place_of, moved);
    debug_assert!(
        {
            // A check that stays linear in the order, whatever the day's arrivals.
            let mut named = moved.to_vec();
            named.sort_unstable();
            gone == (0..order.len()).filter(|&i| named.binary_search(&order[i]).is_ok()).collect::<Vec<_>>()
        },
        "the places kept by unit are those of the order"
    );
    for &i in &gone {
        place_of.remove(order[i]);
    }
    // Their new places (none where they are no longer visited), sorted, each with
    // where it goes among the old ones.
    let mut placed: Vec<(Place, Entity)> = gone
        .iter()
        .filter_map(|&i| place_key(world, order[i]).map(|(loc, inside)| ((loc, inside, places[i].2), order[i])))
        .collect();
    placed.sort_unstable();
    let at: Vec<usize> = placed.iter().map(|(p, _)| places.partition_point(|k| k < p)).collect();
    let (new_places, new_order) = spare;
    new_places.clear();
    new_order.clear();
    new_places.reserve(places.len() - gone.len() + placed.len());
    new_order.reserve(places.len() - gone.len() + placed.len());
    // The old order a run at a time: up to the next place taken (a new one goes
    // before the old one it was searched against) or left.
    let (mut from, mut g, mut a) = (0, 0, 0);
    loop {
        let (next_gone, next_at) = (gone.get(g).copied(), at.get(a).copied());
        let next = match (next_gone, next_at) {
            (None, None) => places.len(),
            (Some(x), None) | (None, Some(x)) => x,
            (Some(x), Some(y)) => x.min(y),
        };
        new_places.extend_from_slice(&places[from..next]);
        new_order.extend_from_slice(&order[from..next]);
        from = next;
        if next_at == Some(next) {
            new_places.push(placed[a].0);
            new_order.push(placed[a].1);
            a += 1;
        } else if next_gone == Some(next) {
            from += 1;
            g += 1;
        } else {
            break;
        }
    }
    for &(p, u) in &placed {
        place_of.set(u, p);
    }
    std::mem::swap(places, new_places);
    std::mem::swap(order, new_order);
}

/// Where `units` stand in the visiting order (`places` and `order`), in order:
/// each unit the order holds once (one named twice counts once; one it does not
/// hold, not at all). Their places ([`Visiting::place_of`]) are sorted and found
/// one after the other by a galloping search from the last one found, so that the
/// search reads the places near each other in turn (few of a million's places
/// are read, and those mostly from the cache), rather than from the middle each
/// time.
fn positions(places: &[Place], order: &[Entity], place_of: &ByEntity<Place>, units: &[Entity]) -> Vec<usize> {
    let mut keys: Vec<(Place, Entity)> = units.iter().filter_map(|&u| place_of.get(u).map(|&p| (p, u))).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut found = Vec::with_capacity(keys.len());
    let mut from = 0;
    for (p, u) in keys {
        // Doubling steps from `from` to a place past `p`, then a binary search
        // between the last two.
        let rest = &places[from..];
        let mut hi = 1;
        while hi < rest.len() && rest[hi] <= p {
            hi *= 2;
        }
        let lo = hi / 2;
        let hi = hi.min(rest.len());
        match rest[lo..hi].binary_search(&p) {
            Ok(j) => {
                let i = from + lo + j;
                // A place kept for a unit the order no longer holds may be
                // another's now.
                if order[i] == u {
                    found.push(i);
                }
                from = i;
            }
            Err(j) => from += lo + j,
        }
    }
    found
}

fn refresh(world: &mut World) {
    let v = world.resource::<Visiting>();
    if v.stale {
        let keys = visiting_keys(world);
        let mut v = world.resource_mut::<Visiting>();
        v.order.clear();
        v.order.extend(keys.iter().map(|k| k.3));
        v.places.clear();
        v.places.extend(keys.iter().map(|k| (k.0, k.1, k.2)));
        for k in &keys {
            v.place_of.set(k.3, (k.0, k.1, k.2));
        }
        v.stale = false;
        v.moved.clear();
    } else if !v.moved.is_empty() {
        world.resource_scope(|world, mut v: Mut<Visiting>| {
            let mut moved = std::mem::take(&mut v.moved);
            relocate(world, &mut v, &moved);
            moved.clear();
            v.moved = moved;
        });
    }
}

/// Says once a month, in unit `u`'s report, that `entry` did nothing because `what`
/// is not part of the engine yet; the order stays in the list.
pub fn not_yet(world: &mut World, u: Entity, day: u32, entry: &Entry, what: impl std::fmt::Display) {
    note_once(world, u, day, entry, format_args!("does nothing: {what} is not part of this engine yet"));
}

/// Says once a month, in unit `u`'s report, why `entry` waits (`why`); the order
/// stays in the list and is tried again the next day. Nothing is written (and
/// `why` not formatted) on the other days the order waits.
pub fn waits(world: &mut World, u: Entity, day: u32, entry: &Entry, why: impl std::fmt::Display) {
    note_once(world, u, day, entry, format_args!("waits: {why}"));
}

fn note_once(world: &mut World, u: Entity, day: u32, entry: &Entry, what: std::fmt::Arguments<'_>) {
    let index = entry.order.index();
    let mut v = world.resource_mut::<Visiting>();
    let seen = v.noted.entry(u);
    if *seen & (1 << index) != 0 {
        return;
    }
    *seen |= 1 << index;
    let text = entry.written(world.resource::<Catalog>()).to_string();
    if let Some(mut e) = world.get_mut::<Events>(u) {
        e.push(day, format!("{text}: {what}. The order stays in the list."));
    }
}

/// Month start: the visiting order is built afresh; notes are per month; no order
/// has run or sleeps yet this month.
fn start_month(mut visiting: ResMut<Visiting>, mut lists: Query<&mut Orders>) {
    visiting.stale = true;
    visiting.noted.clear();
    visiting.dormant.clear();
    for mut o in &mut lists {
        if o.0.iter().any(|q| q.ran_on != 0 || q.wake_on != 0 || q.waited) {
            o.0.iter_mut().for_each(queue::Queued::new_month);
        }
    }
}

/// Month start, after the orders arrived: each order whose mechanic is not part of
/// the engine says so once, before day 1. The scheduler then steps a unit only for
/// orders that can do something (see [`worth_stepping`]).
fn note_unhandled(world: &mut World) {
    let handlers = world.resource::<OrderHandlers>().clone();
    let catalog = world.resource::<Catalog>().clone();
    // Each unit's notes are its own: in the order the units are stored.
    let units = crate::systems::overlord::world::in_stored_order(world.resource::<Directory>().units());
    for u in units {
        let Some(kind) = world.get::<Race>(u).map(|r| catalog.rules.races[r.0.index()].system.kind) else { continue };
        let pending: Vec<Entry> = world
            .get::<Orders>(u)
            .map(|o| {
                o.0.iter()
                    .filter(|q| {
                        let o = &q.entry.order;
                        !matches!(o, Order::Unreadable { .. })
                            && handlers.get(o.index()).is_none()
                            && o.who().allows(kind)
                    })
                    .map(|q| q.entry.clone())
                    .collect()
            })
            .unwrap_or_default();
        for entry in pending {
            let what = handlers::pending_mechanic(&entry.order);
            not_yet(world, u, 0, &entry, what);
        }
    }
}

/// Whether a unit's list holds an order `pass` looks at that can do something: one
/// with a handler, an unreadable line (to be removed), or an order its kind may not
/// give (to be removed). Orders of mechanics not built yet only wait.
fn worth_stepping(list: &[queue::Queued], day: u32, pass: Pass, handlers: &OrderHandlers, kind: RaceKind) -> bool {
    list.iter().any(|q| {
        let o = &q.entry.order;
        pass.admits(o) && !q.asleep(day) && actionable(o, handlers, kind)
    })
}

/// Whether a step could do something with order `o` of a unit of race kind
/// `kind`, any day: carry it out (it has a handler), or remove it (unreadable,
/// or not for this kind of unit).
fn actionable(o: &Order, handlers: &OrderHandlers, kind: RaceKind) -> bool {
    matches!(o, Order::Unreadable { .. }) || handlers.get(o.index()).is_some() || !o.who().allows(kind)
}

/// Whether a unit's list still holds an immediate order worth a step later today:
/// as [`worth_stepping`], less the orders that already ran today, which run at
/// most once a day (PFX-REPEAT, SCH-IMM). A unit whose immediate orders all ran
/// has nothing left for the passes that follow.
fn worth_another_pass(list: &[queue::Queued], day: u32, handlers: &OrderHandlers, kind: RaceKind) -> bool {
    list.iter().any(|q| {
        let o = &q.entry.order;
        q.ran_on != day && Pass::Immediate.admits(o) && !q.asleep(day) && actionable(o, handlers, kind)
    })
}

/// What every step of a pass reads, taken from the world once per pass: the
/// order handlers, the catalogue, and the kind of each race (by race index).
struct Stepping {
    handlers: OrderHandlers,
    catalog: Catalog,
    kinds: Vec<RaceKind>,
}

impl Stepping {
    fn of(world: &World) -> Self {
        let catalog = world.resource::<Catalog>().clone();
        let kinds = catalog.rules.races.iter().map(|r| r.system.kind).collect();
        Stepping { handlers: world.resource::<OrderHandlers>().clone(), catalog, kinds }
    }
}

/// SCH-IMM, SCH-IMM-LOOP.
pub fn immediate_passes(world: &mut World, (peek, lists, look): Queries) {
    let day = world.resource::<Clock>().tick;
    refresh(world);
    let cx = Stepping::of(world);
    let mut active = active_units(world, day, &cx, peek);
    // What the handlers read of a unit ([`Act::me`]) is found in one look-up
    // for the kinds of entity the query has met: it learns of new ones between
    // passes (a unit of a kind made meanwhile is read component by component).
    look.update_archetypes(world);
    // The units a pass visits: after a pass, those that may still run something
    // today, in the same order (a unit left out had every immediate order run).
    let mut visit = active.clone();
    loop {
        let mut ran = false;
        for &u in &visit {
            ran |= step(world, (lists, &*look), &cx, u, day, Pass::Immediate).ran;
        }
        if !ran {
            break;
        }
        let v = world.resource::<Visiting>();
        if v.stale || !v.moved.is_empty() {
            refresh(world);
            active = active_units(world, day, &cx, peek);
            visit.clone_from(&active);
        }
        // Nothing changes the world while the list is sifted: the query learns of
        // new archetypes once, not at every unit.
        peek.update_archetypes(world);
        look.update_archetypes(world);
        visit.retain(|&u| {
            peek.get_manual(world, u).is_ok_and(|(_, orders, moving, race)| {
                !moving && worth_another_pass(&orders.0, day, &cx.handlers, cx.kinds[race.0.index()])
            })
        });
    }
    world.resource_mut::<Visiting>().immediate = active;
}

/// The units, in visiting order, whose lists hold an immediate order worth a step.
///
/// Only the lists of units whose bits ([`listed`], brought up to date first) say
/// they hold an immediate order are read; the others have none worth a step.
/// Where those units are few ([`SEARCHED_BELOW`]), they are taken from a list of
/// their own ([`listed::Listed::immediate`]) and found in the visiting order by a
/// search for their places ([`positions`]): the day's look costs as many
/// searches as there are such units. Where they are many, the
/// visiting order is read, every unit's bits, a stretch at a time on the
/// engine's threads (the world is only read).
fn active_units(world: &mut World, day: u32, cx: &Stepping, peek: &mut QueryState<Peek, Visited>) -> Vec<Entity> {
    update_listed(world, cx);
    peek.update_archetypes(world);
    let mut v = world.resource_mut::<Visiting>();
    let Visiting { listed, places, order, place_of, searched_below, .. } = &mut *v;
    let immediate = listed.immediate();
    let few = immediate.len().saturating_mul(searched_below.unwrap_or(SEARCHED_BELOW)) < order.len();
    // Where they stand in the order (none that it does not hold), in order;
    // always searched in a build with debug checks, which compares the two ways.
    let searched = (few || cfg!(debug_assertions)).then(|| positions(places, order, place_of, immediate));
    let world = &*world;
    let peek = &*peek;
    let visiting = world.resource::<Visiting>();
    let worth = |u: Entity| {
        peek.get_manual(world, u).is_ok_and(|(_, orders, moving, race)| {
            !moving && worth_stepping(&orders.0, day, Pass::Immediate, &cx.handlers, cx.kinds[race.0.index()])
        })
    };
    let read = |units: &[Entity]| -> Vec<Entity> {
        let listed = |u: Entity| visiting.listed.get(u).is_none_or(|bits| bits & listed::IMMEDIATE != 0);
        units.iter().copied().filter(|&u| listed(u) && worth(u)).collect()
    };
    let found = searched.map(|at| at.into_iter().map(|i| visiting.order[i]).filter(|&u| worth(u)).collect::<Vec<_>>());
    match found {
        Some(active) if few => {
            debug_assert_eq!(
                active,
                read(&visiting.order),
                "the units kept as holding an immediate order are those whose bits say so"
            );
            active
        }
        found => {
            let threads = world.get_resource::<crate::core::engine::ThreadCount>().map_or(1, |t| t.0).max(1);
            let stretches: Vec<&[Entity]> = visiting.order.chunks(UNITS_PER_STRETCH).collect();
            let read = crate::core::engine::parallel::map_ordered(&stretches, threads, |units| read(units)).concat();
            debug_assert!(
                found.is_none_or(|active| active == read),
                "the units kept as holding an immediate order are those whose bits say so"
            );
            read
        }
    }
}

/// [`active_units`] searches for the units whose bits say they hold an
/// immediate order when fewer than one unit in this many do (the generated
/// worlds: one in thirty; a search and a sort cost about as much as reading
/// this many units' bits), and reads every unit's bits otherwise (alpha, where
/// four units in ten stand guard every day).
const SEARCHED_BELOW: usize = 8;

/// Units a thread reads at a time when the passes read every unit's bits to find
/// those with something to do (`active_units`): enough that a stretch is worth
/// a thread's start and its cold cache. A world of fewer units (alpha ×100:
/// 27,500) is read on the calling thread, which went 5% faster than on two.
pub const UNITS_PER_STRETCH: usize = 65_536;

/// Brings the units' bits ([`listed`]) up to date with their lists.
fn update_listed(world: &mut World, cx: &Stepping) {
    let mut kept = std::mem::take(&mut world.resource_mut::<Visiting>().listed);
    listed::bring_up_to_date(world, &mut kept, cx);
    world.resource_mut::<Visiting>().listed = kept;
}

/// The passes' queries, kept from run to run: what they need to know of a unit
/// before stepping it, its order list, and what its handlers read of it
/// ([`Act::me`]).
type Queries<'a> = (&'a mut QueryState<Peek, Visited>, &'a mut QueryState<List>, &'a mut QueryState<Look>);

/// What the passes need to know of a unit before stepping it.
type Peek = (Entity, &'static Orders, Has<Journey>, &'static Race);

/// The units the passes visit: not those refusing to act this month (CP-IDLE).
type Visited = Without<Refusing>;

/// A unit's order list, to work through, whether it is on a journey, and whether
/// its list is to be dropped.
type List = (&'static mut Orders, Has<Journey>, Has<DropOrders>);

/// SCH-FULL, PFX-WORK. Units with no full-day order that may run are not stepped;
/// the invisible WORK is done for every unit left idle, at once when its mechanic
/// has a bulk handler.
pub fn full_day_pass(world: &mut World, (peek, lists, look): Queries, woken: &mut QueryState<Woken>) {
    let day = world.resource::<Clock>().tick;
    refresh(world);
    let cx = Stepping::of(world);
    // Taken for the pass (nothing rebuilds them before the next pass) and put back.
    let order = std::mem::take(&mut world.resource_mut::<Visiting>().order);
    let mut dormant = std::mem::take(&mut world.resource_mut::<Visiting>().dormant);
    // What the pass changes has this tick: a unit marked dormant now wakes for a
    // change made later in the pass as for one made any day after.
    let tick = world.change_tick();
    let work = cx.handlers.get(Order::Work.index());
    let bulk = cx.handlers.default_handler();
    // Who may give WORK, by race: the invisible WORK follows the same rule (PFX-KIND).
    let who = Order::Work.who();
    let may_work: Vec<bool> = cx.kinds.iter().map(|&k| who.allows(k)).collect();
    let mut idle = Vec::new();
    let mut known = None;
    for &u in &order {
        // The query learns of new archetypes only when there are some (a step
        // may make them), not at every unit.
        let now = world.archetypes().generation();
        if known != Some(now) {
            peek.update_archetypes(world);
            look.update_archetypes(world);
            woken.update_archetypes(world);
            known = Some(now);
        }
        let Ok((_, orders, moving, race)) = peek.get_manual(world, u) else { continue };
        if moving {
            continue;
        }
        let (i, kind) = (race.0.index(), cx.kinds[race.0.index()]);
        let busy = worth_stepping(&orders.0, day, Pass::FullDay, &cx.handlers, kind);
        if busy {
            let mark = dormant.get(u).copied();
            // A dormant unit's orders would wait again: it goes on as if they had.
            if !mark.is_some_and(|since| still_dormant(world, woken, u, since)) {
                let stepped = step(world, (lists, &*look), &cx, u, day, Pass::FullDay);
                if stepped.dormant {
                    dormant.set(u, tick);
                } else if mark.is_some() {
                    dormant.remove(u);
                }
                if stepped.ran {
                    continue;
                }
            }
        }
        // A step may have ended the unit (merged away, say).
        if !may_work[i] || (busy && world.get_entity(u).is_err()) {
            continue;
        }
        match (bulk, work) {
            (Some(_), _) => idle.push(u),
            (None, Some(work)) => {
                let mut entry = Entry { prefix: Default::default(), order: Order::Work };
                work(&mut Act::new(world, u, day, &cx.catalog, look), &mut entry);
            }
            (None, None) => {}
        }
    }
    let mut v = world.resource_mut::<Visiting>();
    v.order = order;
    v.dormant = dormant;
    if let Some(bulk) = bulk {
        bulk(world, &idle, day);
    }
}

/// Day end: WAIT orders count down.
pub fn end_day(world: &mut World) {
    let day = world.resource::<Clock>().tick;
    let units = std::mem::take(&mut world.resource_mut::<Visiting>().immediate);
    for u in units {
        // Most lists hold no WAIT: they are only read.
        let waits = world.get::<Orders>(u).is_some_and(|o| o.0.iter().any(|q| matches!(q.entry.order, Order::Wait(_))));
        if waits && let Some(mut o) = world.get_mut::<Orders>(u) {
            queue::end_day(&mut o.0, day);
        }
    }
}

/// What a step of a unit did ([`step`]).
struct Stepped {
    /// An order ran.
    ran: bool,
    /// None ran, and every order tried waits on the unit itself
    /// ([`Act::waits_on_itself`]); nothing but those orders would be tried on a
    /// later day (none asleep, none for a day of its own): the unit is
    /// dormant until its orders, race, skills, work in progress or items change.
    dormant: bool,
}

/// Runs one pass step for unit `u`: at most one order.
///
/// The list is marked changed only when what it holds changed (an entry gone or
/// added, or become another order: [`queue::Report::reshaped`]), which is all its
/// bits ([`listed`]) are reckoned from: a step that books the order it ran (the
/// day it ran, how far it got, what it waits for) leaves the list's bits as they
/// were, and the next pass need not read the list again to know so.
fn step(
    world: &mut World,
    (lists, look): (&mut QueryState<List>, &QueryState<Look>),
    cx: &Stepping,
    u: Entity,
    day: u32,
    pass: Pass,
) -> Stepped {
    let idle = Stepped { ran: false, dormant: false };
    // Only units have `Orders`.
    let Ok((mut orders, moving, _)) = lists.get_mut(world, u) else { return idle };
    if orders.0.is_empty() || !queue::has_any(&orders.0, pass) || moving {
        return idle;
    }
    let mut list = std::mem::take(&mut orders.bypass_change_detection().0);
    // Whether an order was tried, and whether each tried waits on the unit itself.
    let (mut tried, mut self_bound) = (false, true);
    let report = queue::run_one(&mut list, day, pass, |entry| {
        tried = true;
        dispatch(world, cx, look, u, day, entry, &mut self_bound)
    });
    let dormant = pass == Pass::FullDay
        && !report.ran
        && !report.reshaped
        && report.invalid.is_empty()
        && tried
        && self_bound
        && tried_again_alike(&list, day);
    if let Ok((mut o, _, drop)) = lists.get_mut(world, u) {
        if drop {
            list.clear();
        }
        // Orders a handler added meanwhile (none today) would go after the list.
        let kept = &mut o.bypass_change_detection().0;
        let added = std::mem::replace(kept, list);
        let reshaped = report.reshaped || drop || !added.is_empty();
        kept.extend(added);
        if reshaped {
            o.set_changed();
        }
        if drop {
            world.entity_mut(u).remove::<DropOrders>();
        }
    }
    if !report.invalid.is_empty() {
        let notes: Vec<String> = report
            .invalid
            .iter()
            .map(|(entry, reason)| format!("{}: removed from the orders: {reason}.", entry.written(&cx.catalog)))
            .collect();
        if let Some(mut events) = world.get_mut::<Events>(u) {
            for n in notes {
                events.push(day, n);
            }
        }
    }
    Stepped { ran: report.ran, dormant }
}

/// Whether a full-day pass on a later day would try the same entries of `list`
/// as today's, when none ran today: every full-day entry that a dash does not
/// hold back may be tried any day (none for a day of its own, none asleep).
fn tried_again_alike(list: &[queue::Queued], day: u32) -> bool {
    list.iter()
        .filter(|q| Pass::FullDay.admits(&q.entry.order) && q.entry.prefix.dashes == 0)
        .all(|q| q.entry.prefix.day.is_none() && !q.asleep(day) && q.ran_on != day)
}

/// What tells whether a dormant unit ([`Visiting::dormant`]) is to be woken:
/// when its orders, race, skills, work in progress and items last changed, and
/// whether its list is to be dropped.
type Woken = (
    Ref<'static, Orders>,
    Ref<'static, Race>,
    Ref<'static, Skills>,
    Ref<'static, Production>,
    Ref<'static, Inventory>,
    Has<DropOrders>,
);

/// Whether unit `u`, found dormant by the full-day pass of tick `since`, still
/// is: none of its orders, race, skills, work in progress or items changed in or
/// after that pass, and its list is not to be dropped.
fn still_dormant(world: &World, woken: &QueryState<Woken>, u: Entity, since: Tick) -> bool {
    let Ok((orders, race, skills, production, inventory, drop)) = woken.get_manual(world, u) else { return false };
    // Changed in that pass or later: after the tick before it.
    let before = Tick::new(since.get().wrapping_sub(1));
    let now = world.read_change_tick();
    let changed = [
        orders.last_changed(),
        race.last_changed(),
        skills.last_changed(),
        production.last_changed(),
        inventory.last_changed(),
    ];
    !drop && !changed.iter().any(|t| t.is_newer_than(before, now))
}

/// Tries `entry` for unit `u`: its handler, once the kind of unit is allowed
/// it. `self_bound` is cleared unless the order waits on the unit itself
/// ([`Act::waits_on_itself`]).
fn dispatch(
    world: &mut World,
    cx: &Stepping,
    look: &QueryState<Look>,
    u: Entity,
    day: u32,
    entry: &mut Entry,
    self_bound: &mut bool,
) -> Outcome {
    if let Order::Unreadable { reason, .. } = &entry.order {
        *self_bound = false;
        return Outcome::Invalid(reason.clone());
    }
    let who = entry.order.who();
    if who != Who::Any {
        let kind = world.get::<Race>(u).map_or(RaceKind::Follower, |r| cx.kinds[r.0.index()]);
        if !who.allows(kind) {
            *self_bound = false;
            return Outcome::Invalid(format!("only {} may give {}", who.text(), entry.order.keyword()));
        }
    }
    match cx.handlers.get(entry.order.index()) {
        Some(h) => {
            let mut act = Act::new(world, u, day, &cx.catalog, look);
            let outcome = h(&mut act, entry);
            // The order waits on the unit itself only when it waits.
            *self_bound &= act.self_bound && matches!(outcome, Outcome::NotNow);
            outcome
        }
        None => {
            *self_bound = false;
            let what = handlers::pending_mechanic(&entry.order);
            not_yet(world, u, day, entry, what);
            Outcome::NotNow
        }
    }
}

/// Month end (FILE-NEWID-LIFE): new ids that no order created vanish, with every
/// order that names them.
pub fn purge_new_ids(world: &mut World) {
    let new = std::mem::take(&mut *world.resource_mut::<NewIds>());
    let day = world.resource::<Clock>().tick;
    for (id, units) in &new.named_by {
        for &u in units {
            // A skill target naming the id goes too (ORD-TARGET).
            if let Some(mut c) = world.get_mut::<crate::systems::overlord::world::components::SkillTarget>(u)
                && c.0.as_deref() == Some(id.as_str())
            {
                c.0 = None;
            }
            let removed = world.get_mut::<Orders>(u).map_or(0, |mut o| queue::purge(&mut o.0, id));
            if removed > 0
                && let Some(mut e) = world.get_mut::<Events>(u)
            {
                e.push(
                    day,
                    format!(
                        "{removed} order{} naming {id} removed: no unit or structure {id} was created this month.",
                        if removed == 1 { "" } else { "s" }
                    ),
                );
            }
        }
    }
    for (id, (faction, list)) in &new.blocks {
        if !list.is_empty()
            && let Some(mut e) = world.get_mut::<Events>(*faction)
        {
            e.push(day, format!("Orders for {id} dropped: no unit {id} was created this month."));
        }
    }
}

/// Month end: an order that was tried and never ran this month says so in its
/// unit's report, unless the unit was already told why it waits. Every order a
/// player gave either runs, is removed with a reason, or is reported waiting.
pub fn note_waiting(
    visiting: Res<Visiting>,
    catalog: Res<Catalog>,
    clock: Res<Clock>,
    mut units: Query<(Entity, &Orders, &mut Events)>,
) {
    for (u, orders, mut events) in &mut units {
        let noted = visiting.noted.get(u).copied().unwrap_or(0);
        for q in orders.0.iter().filter(|q| q.waited_all_month()) {
            if noted & (1 << q.entry.order.index()) == 0 {
                let text = q.entry.written(&*catalog);
                events.push(
                    clock.tick,
                    format!("{text}: waited all month, its conditions never met. The order stays in the list."),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests;
