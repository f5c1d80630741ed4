//! Unit statistics: what a unit weighs and carries, how it fights and sees, what it
//! costs (UNIT-STATS, UNIT-WEIGHT, UNIT-CAP, MOV-CAPSRC, ITM-PROP, CP-UNIT, CP-HERO,
//! CP-MAGE, CASH-RATE).
//!
//! [`UnitStats`] is derived from the unit's race, figures, skills and equipment, and
//! kept on the unit. [`refresh`] recomputes it only for units whose inputs changed
//! since it last ran in any step ([`LastRefresh`]; Bevy's change ticks of [`Race`],
//! [`Figures`], [`Inventory`], [`Skills`], [`Effects`] and [`At`], read a table
//! column at a time); it runs before upkeep and before the reports, and wherever a mechanic
//! reads the statistics of many units at once. Code that needs a unit's statistics in the middle of a pass,
//! after changing its inputs, calls [`compute`].
//! Beside them it keeps [`Armed`], whether the unit does damage, which the daily
//! reckoning of occupied places reads of every unit.
//!
//! The rules, with every number from the rule set:
//!
//! * **Weight** = figures × the race's weight + each item's weight × count; an item
//!   of weight 0 weighs 1/1000 (3000 coins weigh 3). Kept in thousandths, shown
//!   rounded down.
//! * **Capacity** per movement mode = figures × the race's capacity + figures × the
//!   capacity of each skill level + per item: `equipped_capacity` for the equipped
//!   ones (if the item has any), `capacity` for the rest (TV-UNIT600: an unequipped
//!   horse still carries 95 riding).
//! * **Per-figure statistics** (initiative, melee, defense, missile, damage, ranged
//!   damage, hits, life, stealth, observation, mana) = the race's (or
//!   `default_stats` where the race says 0), plus the stats of each skill's current
//!   level, plus for each equipped item its stats × equipped ÷ figures, rounded
//!   toward zero (ITM-PROP: a +3 horse on 10 of 30 figures gives +1, a ±1 item
//!   counts only when every figure has one).
//! * **Upkeep** per month = figures × (race + skill levels) + each equipped item's
//!   upkeep × equipped (a hunting hound eats 2).
//! * **Control points** = the race's control × ⌈figures ÷ `figures_per_control_point`⌉
//!   (+ the race's extra for heroes is in its control value) + ⌈maximum mana ÷
//!   `mana_per_control_point`⌉ (CP-UNIT, CP-HERO, CP-MAGE; TV-CP).
//!
//! Effects (enchantments, [`Effects`]) add their statistics per figure and their
//! capacity per figure, like a skill level.

use crate::core::engine::ThreadCount;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::{Stats, TagMap};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{At, Effects, Figures, Inventory, Occupants, Race, Skills, Unit};
use crate::systems::overlord::world::ids::RaceId;
use bevy_app::{App, Plugin};
use bevy_ecs::change_detection::Tick;
use bevy_ecs::prelude::*;
use bevy_tasks::ComputeTaskPool;

#[cfg(test)]
mod tests;

/// A unit's derived statistics.
#[derive(Component, Debug, Clone, PartialEq, Eq, Default)]
pub struct UnitStats {
    /// Weight in thousandths.
    pub weight_milli: u64,
    /// Capacity per movement mode, in the order of the rule set's modes.
    pub capacity: Vec<u64>,
    /// Per-figure statistics; `upkeep` and `control` are the unit's totals.
    pub stats: Stats,
    /// False until first computed (units are spawned with empty statistics).
    pub computed: bool,
    /// Computed under enchantments of the unit's place or structure.
    pub placed: bool,
}

impl UnitStats {
    /// Weight, rounded down.
    pub fn weight(&self) -> u64 {
        self.weight_milli / 1000
    }
    /// Upkeep per month.
    pub fn upkeep(&self) -> u64 {
        self.stats.upkeep.max(0) as u64
    }
    /// Control points used.
    pub fn control(&self) -> u32 {
        self.stats.control.max(0) as u32
    }
    /// Whether the unit can do combat damage (OWN-FORCE): it strikes with some
    /// damage, in melee or with missiles.
    pub fn does_damage(&self) -> bool {
        let s = &self.stats;
        (s.melee > 0 && s.damage > 0) || (s.missile > 0 && s.ranged_damage > 0)
    }
}

/// Whether a unit can do combat damage ([`UnitStats::does_damage`]), kept beside
/// its statistics by [`refresh`]: what the daily reckoning of occupied places
/// reads of every unit, a byte where the statistics are a hundred.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Armed(pub bool);

/// The capacities of the rule set by movement-mode index, resolved once.
#[derive(Resource, Debug)]
pub struct CapacityTables {
    modes: usize,
    race: Vec<Vec<i64>>,
    item: Vec<Vec<i64>>,
    /// `None`: the item carries the same when equipped.
    item_equipped: Vec<Option<Vec<i64>>>,
    /// Per skill, per level.
    skill_level: Vec<Vec<Vec<i64>>>,
    /// Per enchantment.
    effect: Vec<Vec<i64>>,
}

impl CapacityTables {
    /// Resolves every capacity map of the rule set to mode indices.
    pub fn new(catalog: &Catalog) -> Self {
        let modes: Vec<&str> = catalog.rules.movement.modes.iter().map(|m| m.tag.as_str()).collect();
        let resolve =
            |map: &TagMap| -> Vec<i64> { modes.iter().map(|m| map.get(*m).copied().map_or(0, i64::from)).collect() };
        let r = &catalog.rules;
        CapacityTables {
            modes: modes.len(),
            race: r.races.iter().map(|x| resolve(&x.capacity)).collect(),
            item: r.items.iter().map(|x| resolve(&x.capacity)).collect(),
            item_equipped: r
                .items
                .iter()
                .map(|x| (!x.system.equipped_capacity.is_empty()).then(|| resolve(&x.system.equipped_capacity)))
                .collect(),
            skill_level: r
                .skills
                .iter()
                .map(|s| s.system.levels.iter().map(|l| resolve(&l.capacity)).collect())
                .collect(),
            effect: r.enchantments.enchantments.iter().map(|x| resolve(&x.capacity)).collect(),
        }
    }
}

/// When [`refresh`] last brought every unit's statistics up to date, whichever
/// step ran it: a later run needs to look only at what changed since. (Each step
/// that runs it has its own copy of the system; by their own last runs, each
/// copy's first run of a turn would look at every unit again.) `None` before the
/// turn's first run.
#[derive(Resource, Debug, Default)]
pub struct LastRefresh(Option<Tick>);

/// Adds [`UnitStats`] to every unit and keeps it current.
pub struct StatsPlugin;

impl Plugin for StatsPlugin {
    fn build(&self, app: &mut App) {
        let tables = CapacityTables::new(app.world().resource::<Catalog>());
        app.insert_resource(tables);
        app.init_resource::<LastRefresh>();
        // Every unit is spawned with (empty) statistics, so computing them never
        // moves a unit to another archetype.
        app.world_mut().register_required_components::<crate::systems::overlord::world::components::Unit, UnitStats>();
        app.world_mut().register_required_components::<crate::systems::overlord::world::components::Unit, Armed>();
        // Sight reads them from the first day (VIS-SEE), upkeep and the reports
        // read every unit's.
        app.add_step_system("month_start", refresh);
        app.add_step_system("upkeep", refresh);
        app.add_step_system("knowledge", refresh);
        app.add_step_system("taxes", refresh);
    }
}

/// What statistics are computed from, as one unit's view.
#[derive(bevy_ecs::query::QueryData)]
pub struct StatInputs {
    race: Ref<'static, Race>,
    figures: Ref<'static, Figures>,
    inventory: Ref<'static, Inventory>,
    skills: Ref<'static, Skills>,
    effects: Ref<'static, Effects>,
    at: Option<Ref<'static, At>>,
}

/// A unit's inputs and its statistics, brought up to date.
type Refreshed = (StatInputs, Mut<'static, UnitStats>, Mut<'static, Armed>);

/// When each input of a unit's statistics last changed, and when its statistics
/// were added: what tells the units that may be out of date ([`maybe_stale`]).
type Stamps = (
    Entity,
    Ref<'static, Race>,
    Ref<'static, Figures>,
    Ref<'static, Inventory>,
    Ref<'static, Skills>,
    Ref<'static, Effects>,
    Option<Ref<'static, At>>,
    Ref<'static, UnitStats>,
);

/// The units whose statistics may be out of date, places' enchantments aside: an
/// input (race, figures, items, skills, enchantments, place) changed after tick
/// `last`, or the unit has been given its statistics since; every unit when there
/// is no `last`. In storage order.
///
/// Read a table at a time: each input's change ticks are compared in one pass
/// over their column, which the compiler makes into vector instructions, instead
/// of up to seven checks with a branch each for every unit (the filter
/// `Or<(Changed<Race>, …, Added<UnitStats>)>` cost about 100 instructions a unit
/// at each of the month's 34 runs). Were any of these components stored outside
/// tables (none is), every unit would be listed: slower, never wrong.
fn maybe_stale(q: &Query<Stamps>, last: Option<Tick>, now: Tick) -> Vec<Entity> {
    let (Some(last), Ok(tables)) = (last, q.contiguous_iter()) else { return q.iter().map(|x| x.0).collect() };
    let newer = |t: Tick| t.is_newer_than(last, now);
    let mut out = Vec::new();
    let mut marked: Vec<bool> = Vec::new();
    for (entities, race, figures, inventory, skills, effects, at, stats) in tables {
        marked.clear();
        marked.resize(entities.len(), false);
        let columns = [
            race.changed_ticks_slice(),
            figures.changed_ticks_slice(),
            inventory.changed_ticks_slice(),
            skills.changed_ticks_slice(),
            effects.changed_ticks_slice(),
            stats.added_ticks_slice(),
        ];
        for ticks in columns.into_iter().chain(at.as_ref().map(|a| a.changed_ticks_slice())) {
            for (m, &t) in marked.iter_mut().zip(ticks) {
                *m |= newer(t);
            }
        }
        out.extend(entities.iter().zip(&marked).filter(|x| *x.1).map(|x| *x.0));
    }
    out
}

/// Recomputes the statistics of units whose race, figures, items, skills or
/// enchantments changed after their statistics were last computed, and adds
/// statistics to units that have none. A unit under enchantments of its place or
/// structure is computed again when it moves or when they change. Whichever schedule
/// runs it, a unit is computed again only when an input changed.
///
/// Each unit's statistics depend on that unit alone: with more than one thread
/// ([`ThreadCount`]), the units are shared among the threads, and the result is the
/// same on any number of them.
#[allow(clippy::too_many_arguments)]
pub fn refresh(
    catalog: Res<Catalog>,
    tables: Res<CapacityTables>,
    ticks: bevy_ecs::system::SystemChangeTick,
    threads: Option<Res<ThreadCount>>,
    mut units: ParamSet<(Query<Refreshed>, Query<Stamps>)>,
    places: Query<(Entity, Ref<Effects>), Without<Unit>>,
    mut here: Query<&mut Occupants>,
    mut last_refresh: ResMut<LastRefresh>,
) {
    let now = ticks.this_run();
    let last = last_refresh.0.replace(now);
    // The places (and structures) under enchantments, or whose enchantments
    // changed since statistics were last brought up to date: only their units look
    // their places up.
    let enchanted: Vec<Entity> = places
        .iter()
        .filter(|(_, fx)| !fx.0.is_empty() || last.is_none_or(|l| fx.last_changed().is_newer_than(l, now)))
        .map(|(p, _)| p)
        .collect();
    let enchanted_places = !enchanted.is_empty();
    // The places where a unit's observation changed (in any order: each is counted
    // as a change there).
    let watched = std::sync::Mutex::new(Vec::new());
    let one = |(x, mut s, mut armed): (StatInputsItem, Mut<UnitStats>, Mut<Armed>)| {
        let since = s.last_changed();
        let inputs = [
            x.race.last_changed(),
            x.figures.last_changed(),
            x.inventory.last_changed(),
            x.skills.last_changed(),
            x.effects.last_changed(),
        ];
        let mut stale = !s.computed || inputs.iter().any(|t| t.is_newer_than(since, now));
        let mut around: [Option<&Effects>; 2] = [None, None];
        if let Some(at) = x.at.as_ref().filter(|_| enchanted_places || s.placed) {
            let mut moved = at.last_changed().is_newer_than(since, now);
            for (slot, p) in around.iter_mut().zip([Some(at.location), at.structure]) {
                let Some((_, fx)) = p.and_then(|p| places.get(p).ok()) else { continue };
                moved |= fx.last_changed().is_newer_than(since, now);
                *slot = Some(fx.into_inner()).filter(|fx| !fx.0.is_empty());
            }
            stale |= moved && (s.placed || around.iter().any(Option::is_some));
        }
        if !stale {
            return;
        }
        let (was, computed) = (s.stats.observation, s.computed);
        let placed = around.iter().any(Option::is_some);
        *s = if placed {
            let mut all = Effects::clone(&x.effects);
            for fx in around.into_iter().flatten() {
                all.0.extend_from_slice(&fx.0);
            }
            compute(&catalog, &tables, x.race.0, x.figures.0, &x.inventory, &x.skills, &all)
        } else {
            compute(&catalog, &tables, x.race.0, x.figures.0, &x.inventory, &x.skills, &x.effects)
        };
        s.placed = placed;
        let strikes = s.does_damage();
        armed.set_if_neq(Armed(strikes));
        // Who sees what at its place may change with it (the factions' watch).
        if (!computed || s.stats.observation != was)
            && let Some(at) = x.at.as_ref()
        {
            watched.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(at.location);
        }
    };
    let parallel = threads.is_some_and(|t| t.0 > 1) && ComputeTaskPool::try_get().is_some_and(|p| p.thread_num() > 1);
    // A unit is stale only when an input changed after its statistics were
    // computed; every run brings every unit up to date, so one whose inputs have
    // not changed since the last run (of any step) is not, unless it stands where
    // enchantments are or changed.
    {
        let stale = maybe_stale(&units.p1(), last, now);
        // SAFETY: the entities are those of distinct rows of the tables, each once.
        let stale = unsafe { bevy_ecs::entity::UniqueEntityVec::from_vec_unchecked(stale) };
        let mut q = units.p0();
        // Every entity listed is one of the query's (the same components).
        if parallel {
            q.par_iter_many_unique_mut(stale).for_each(|x| x.into_iter().for_each(&one))
        } else {
            q.iter_many_unique_mut(stale).flatten().for_each(&one)
        }
    }
    // On a first run every unit counts as changed, so the pass above read them all.
    let first = last.is_none();
    let mut q = units.p0();
    for &p in enchanted.iter().filter(|_| !first) {
        for &u in here.get(p).map_or(&[][..], |o| o.get()) {
            if let Ok(item) = q.get_mut(u) {
                one(item);
            }
        }
    }
    for place in watched.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        if let Ok(mut o) = here.get_mut(place) {
            o.note_change();
        }
    }
}

/// The statistics of a unit of `figures` figures of `race` with these items and
/// skills.
pub fn compute(
    catalog: &Catalog,
    tables: &CapacityTables,
    race: RaceId,
    figures: u32,
    inventory: &Inventory,
    skills: &Skills,
    effects: &Effects,
) -> UnitStats {
    let rules = &catalog.rules;
    let params = &rules.info.parameters;
    let r = &rules.races[race.index()];
    let n = i64::from(figures);
    let mut s = r.system.stats.with_defaults(&params.default_stats);
    let mut capacity: Vec<i64> = tables.race[race.index()].iter().map(|c| c * n).collect();
    capacity.resize(tables.modes, 0);
    let mut upkeep = i64::from(r.system.stats.upkeep) * n;
    for &(skill, experience) in &skills.0 {
        let level = catalog.skill_level(skill, experience) as usize;
        if level == 0 {
            continue;
        }
        let l = &rules.skills[skill.index()].system.levels[level - 1];
        add(&mut s, &l.stats, 1, 1);
        upkeep += i64::from(l.stats.upkeep) * n;
        for (c, add) in capacity.iter_mut().zip(&tables.skill_level[skill.index()][level - 1]) {
            *c += add * n;
        }
    }
    for &(effect, _) in &effects.0 {
        let x = &rules.enchantments.enchantments[effect.index()];
        add(&mut s, &x.stats, 1, 1);
        upkeep += i64::from(x.stats.upkeep) * n;
        for (c, add) in capacity.iter_mut().zip(&tables.effect[effect.index()]) {
            *c += add * n;
        }
    }
    let mut weight_milli: i64 = i64::from(r.weight) * 1000 * n;
    for h in &inventory.0 {
        let item = &rules.items[h.item.index()];
        let (count, equipped) = (i64::from(h.count), i64::from(h.equipped.min(h.count)));
        weight_milli += if item.weight > 0 { i64::from(item.weight) * 1000 * count } else { count };
        let loose = &tables.item[h.item.index()];
        match &tables.item_equipped[h.item.index()] {
            Some(on) => {
                for ((c, a), b) in capacity.iter_mut().zip(on).zip(loose) {
                    *c += a * equipped + b * (count - equipped);
                }
            }
            None => {
                for (c, b) in capacity.iter_mut().zip(loose) {
                    *c += b * count;
                }
            }
        }
        if equipped > 0 && figures > 0 {
            add(&mut s, &item.system.stats, equipped, n);
            upkeep += i64::from(item.system.stats.upkeep) * equipped;
        }
    }
    s.upkeep = clamp(upkeep);
    s.control = clamp(params.control_points(r.system.stats.control, figures, s.mana));
    UnitStats {
        weight_milli: weight_milli.max(0) as u64,
        capacity: capacity.into_iter().map(|c| c.max(0) as u64).collect(),
        stats: s,
        computed: true,
        placed: false,
    }
}

fn clamp(v: i64) -> i32 {
    v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// Adds `from × num ÷ den` (rounded toward zero) to the per-figure statistics.
pub fn add(to: &mut Stats, from: &Stats, num: i64, den: i64) {
    let part = |v: i32| clamp(i64::from(v) * num / den.max(1));
    to.melee += part(from.melee);
    to.missile += part(from.missile);
    to.defense += part(from.defense);
    to.initiative += part(from.initiative);
    to.damage += part(from.damage);
    to.ranged_damage += part(from.ranged_damage);
    to.hits += part(from.hits);
    to.life += part(from.life);
    to.mana += part(from.mana);
    to.stealth += part(from.stealth);
    to.observation += part(from.observation);
}

/// The total weight (in thousandths) and capacities of the units of `group`
/// (STK-AGG), computed afresh. A mode that needs a skill (climbing) counts only if
/// every unit of the group has it.
pub fn load_of(world: &World, group: &[Entity]) -> (u64, Vec<u64>) {
    let catalog = world.resource::<Catalog>();
    let tables = world.resource::<CapacityTables>();
    let modes = &catalog.rules.movement.modes;
    let mut weight = 0u64;
    let mut capacity = vec![0u64; modes.len()];
    for &u in group {
        let r = world.entity(u);
        let (Some(race), Some(figures), Some(inv), Some(skills)) =
            (r.get::<Race>(), r.get::<Figures>(), r.get::<Inventory>(), r.get::<Skills>())
        else {
            continue;
        };
        let effects = crate::systems::overlord::world::under(world, u);
        let s = compute(catalog, tables, race.0, figures.0, inv, skills, &effects);
        weight = weight.saturating_add(s.weight_milli);
        for (c, x) in capacity.iter_mut().zip(&s.capacity) {
            *c = c.saturating_add(*x);
        }
    }
    for (m, mode) in modes.iter().enumerate() {
        if let Some(req) = &mode.system.skill
            && !group.iter().all(|&u| crate::systems::overlord::world::meets(world, u, req))
        {
            capacity[m] = 0;
        }
    }
    (weight, capacity)
}
