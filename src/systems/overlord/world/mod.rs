//! Loading a scenario into a game world, and saving the world back as a scenario.
//!
//! [`build`] spawns one entity per faction, location, structure and unit, in the order
//! of the scenario files, interning every tag. [`extract`] writes the world back in the
//! same order; a loaded world extracted without running anything gives the scenario
//! it was loaded from.

pub mod bonus;
pub mod components;
pub mod ids;
pub mod resources;

pub use ids::{Catalog, EffectId, ItemId, RaceId, SkillId, TerrainId};

use crate::core::engine::plan::Clock;
use crate::systems::overlord::data::{self, ItemHolding, Scenario, SkillExperience, Tag};
use bevy_ecs::prelude::*;
use components::*;
use resources::{Directory, Game, Kind, Month, Randomness, Submissions};

/// Whether unit `u` has `req`: the skill at that level or better.
pub fn meets(world: &World, u: Entity, req: &data::SkillLevelReq) -> bool {
    meets_in(world.resource::<Catalog>(), world, u, req)
}

/// [`meets`], with the world's catalogue at hand.
pub fn meets_in(catalog: &Catalog, world: &World, u: Entity, req: &data::SkillLevelReq) -> bool {
    let Some(skill) = catalog.skill(&req.skill) else { return false };
    world.get::<Skills>(u).is_some_and(|s| s.level(catalog, skill) >= req.level)
}

/// The bonuses of the complete structure unit `u` is inside, if any (STR-BENEFIT).
pub fn structure_bonuses(world: &World, u: Entity) -> Option<&data::Bonuses> {
    let c = &world.resource::<Catalog>().rules.constructions.constructions[complete_structure_kind(world, u)?];
    (!c.bonuses.is_empty()).then_some(&c.bonuses)
}

/// The kind (index in `constructions.ron`) of the complete structure unit `u` is
/// in, if any.
pub fn complete_structure_kind(world: &World, u: Entity) -> Option<usize> {
    let s = world.get::<At>(u)?.structure?;
    let r = world.get_entity(s).ok()?;
    if !r.get::<Missing>()?.complete() {
        return None;
    }
    Some(r.get::<StructureKind>()?.0)
}

/// The bonuses, by source, that speed unit `u`'s work (`use`) or study in `skill`
/// today (CLI-MAGIC: a bonus for a skill counts for the skills derived from it):
/// its race's, the season's, the weather's where it stands, its complete
/// structure's and its enchantments'.
pub fn skill_bonus(world: &World, u: Entity, skill: SkillId, study: bool) -> i64 {
    let catalog = world.resource::<Catalog>();
    let b = if study { &catalog.bonuses().study } else { &catalog.bonuses().use_ };
    let mut sum = 0i64;
    if let Some(r) = world.get::<Race>(u) {
        sum += i64::from(b.race.get(r.0.index(), skill));
    }
    if let Some(s) = catalog.season_index(world.resource::<resources::Month>().0) {
        sum += i64::from(b.season.get(s, skill));
    }
    if let Some(w) = world.get::<At>(u).and_then(|a| world.get::<Weather>(a.location)).and_then(|w| w.0) {
        sum += i64::from(b.weather.get(w, skill));
    }
    if let Some(k) = complete_structure_kind(world, u) {
        sum += i64::from(b.construction.get(k, skill));
    }
    for fx in enchanted_by(world, u).into_iter().flatten().filter_map(|e| world.get::<Effects>(e)) {
        for &(e, _) in &fx.0 {
            sum += i64::from(b.effect.get(e.index(), skill));
        }
    }
    sum
}

/// `units` in the order they are stored: their entities' order, which in a big
/// world is the day's visiting order (see [`build`]) and not report order. A
/// loop over units whose work for each is its own reads memory in that order,
/// not all over it.
pub fn in_stored_order(units: &[Entity]) -> Vec<Entity> {
    let mut stored = units.to_vec();
    stored.sort_unstable_by_key(|u| u.index_u32());
    stored
}

/// `f` of each of `units`, called in the order the units are stored
/// ([`in_stored_order`]) and given back in the order of `units`.
fn map_in_stored_order<T>(units: &[Entity], mut f: impl FnMut(Entity) -> T) -> Vec<T> {
    let mut stored: Vec<(u32, u32)> = units.iter().enumerate().map(|(i, e)| (e.index_u32(), i as u32)).collect();
    stored.sort_unstable();
    let mut slots: Vec<Option<T>> = std::iter::repeat_with(|| None).take(units.len()).collect();
    for (_, i) in stored {
        slots[i as usize] = Some(f(units[i as usize]));
    }
    slots.into_iter().map(|t| t.expect("each unit once")).collect()
}

/// Whose enchantments unit `u` is under (ITM-ENCH): its own, its place's and, inside
/// a structure, the structure's.
pub fn enchanted_by(world: &World, u: Entity) -> [Option<Entity>; 3] {
    let at = world.get::<At>(u);
    [Some(u), at.map(|a| a.location), at.and_then(|a| a.structure)]
}

/// Every enchantment unit `u` is under, its own first, then its place's and its
/// structure's ([`enchanted_by`]).
pub fn under(world: &World, u: Entity) -> Effects {
    let mut all = Effects::default();
    for fx in enchanted_by(world, u).into_iter().flatten().filter_map(|e| world.get::<Effects>(e)) {
        all.0.extend_from_slice(&fx.0);
    }
    all
}

/// Whether unit `u` has setting `which` on, itself or through its faction's
/// settings (SET-*: a unit setting ON adds to the faction's).
pub fn setting_on(
    world: &World,
    u: Entity,
    which: fn(&data::UnitSettings) -> bool,
    faction: fn(&data::FactionSettings) -> bool,
) -> bool {
    world.get::<UnitSettings>(u).is_some_and(|s| which(&s.0))
        || world.get::<Owner>(u).and_then(|o| world.get::<FactionSettings>(o.0)).is_some_and(|s| faction(&s.0))
}

/// Whether unit `u`'s routine activity is left out of its report (SET-SILENT, for
/// the unit or its faction).
pub fn silent(world: &World, u: Entity) -> bool {
    setting_on(world, u, |s| s.silent, |s| s.silent)
}

/// The month index (into the rule set's calendar) in which `turn` is played. Turn 0
/// (the starting state) and turn 1 both fall in the scenario's starting month.
pub fn month_of_turn(settings: &data::GameSettings, months: usize, turn: u32) -> u32 {
    let months = months.max(1) as u64;
    ((u64::from(settings.start_month) + u64::from(turn.saturating_sub(1))) % months) as u32
}

/// Spawns the scenario into `world`, which must hold a [`Catalog`]. Fails with one
/// message per reference that does not resolve (a validated scenario has none).
pub fn build(world: &mut World, scenario: Scenario) -> Result<(), Vec<String>> {
    let catalog = world.resource::<Catalog>().clone();
    let months = catalog.rules.climate.months.len();
    let Scenario { game, factions, locations, structures, units, orders: _ } = scenario;
    let mut dir = Directory::default();
    let mut errors = Vec::new();

    let mut explicit = Vec::new();
    let mut explored = Vec::new();
    dir.reserve(Kind::Faction, factions.len());
    // The factions are spawned in batches (their table sized once, no lookup of
    // the bundle per faction): one per run of factions alike, gone or not, so
    // that each is spawned in file order into the table it stays in.
    let runs: Vec<(usize, bool)> =
        factions.chunk_by(|a, b| a.destroyed == b.destroyed).map(|r| (r.len(), r[0].destroyed)).collect();
    let mut make = |(seq, mut f): (usize, data::Faction)| {
        explored.push(std::mem::take(&mut f.explored));
        let stances = &catalog.stances;
        let default = std::mem::take(&mut f.default_stance);
        let default = match stances.by_tag(&default) {
            Some(s) => Some(s),
            None if default.is_empty() => None,
            None => {
                errors.push(format!("faction {}: unknown default stance '{default}'", f.id));
                None
            }
        };
        for (other, tag) in std::mem::take(&mut f.stances) {
            match stances.by_tag(&tag) {
                Some(s) => explicit.push((seq, other, s)),
                None => errors.push(format!("faction {}: unknown stance '{tag}' toward {other}", f.id)),
            }
        }
        let mut funds = Vec::new();
        for (tag, count) in std::mem::take(&mut f.funds) {
            match catalog.item(&tag) {
                Some(id) => funds.push((id, count)),
                None => errors.push(format!("faction {}: funds of unknown item '{tag}'", f.id)),
            }
        }
        funds.sort();
        let mut known = Vec::with_capacity(f.known_skills.len());
        for k in std::mem::take(&mut f.known_skills) {
            match catalog.skill(&k.skill) {
                Some(s) => known.push((s, k.level)),
                None => errors.push(format!("faction {}: unknown known skill '{}'", f.id, k.skill)),
            }
        }
        let mut knows = Known::default();
        for tag in std::mem::take(&mut f.known) {
            match catalog.topic(&tag) {
                Some(t) => {
                    knows.learn(t);
                }
                None => knows.keep(tag),
            }
        }
        let id = std::mem::take(&mut f.id);
        let role = FactionRole {
            npc: f.npc,
            creatures: f.creatures,
            takes_resignations: f.takes_resignations,
            serves_overlord: f.serves_overlord,
        };
        let contact = Contact { password: std::mem::take(&mut f.password), email: std::mem::take(&mut f.email) };
        let settings = FactionSettings(std::mem::take(&mut f.settings));
        // A marker on the entity, not a field of its record.
        f.destroyed = false;
        (
            Seq(seq as u32),
            Id(id),
            DisplayName(std::mem::take(&mut f.name)),
            Funds(funds),
            Diplomacy { default, ..Default::default() },
            role,
            contact,
            settings,
            KnownSkills(known),
            knows,
            Events::default(),
            Faction(f),
        )
    };
    let mut records = factions.into_iter().enumerate();
    let mut spawned: Vec<Entity> = Vec::with_capacity(records.len());
    // The live factions' table is made first, as when every faction was spawned
    // live and the gone moved after: the order of the tables, which queries
    // follow, does not depend on whether the first faction is gone.
    if runs.first().is_some_and(|r| r.1) {
        world.spawn_batch(records.by_ref().take(0).map(&mut make)).for_each(drop);
    }
    for (len, destroyed) in runs {
        let run = records.by_ref().take(len).map(&mut make);
        if destroyed {
            spawned.extend(world.spawn_batch(run.map(|b| (b, Destroyed))));
        } else {
            spawned.extend(world.spawn_batch(run));
        }
    }
    for &e in &spawned {
        dir.insert(Kind::Faction, world.get::<Id>(e).map_or("", |i| i.0.as_str()), e);
    }
    for (seq, other, s) in explicit {
        let e = dir.factions[seq];
        let target = dir.get(Kind::Faction, &other);
        let mut d = world.get_mut::<Diplomacy>(e).expect("faction");
        match target {
            Some(t) => d.set(t, s),
            None => d.unknown.push((other, s)),
        }
    }
    // Exits and containers name other locations: the locations are spawned first,
    // as one batch (their table sized once, each record moved once into its
    // components), their exits and containers put in once every location has
    // its entity.
    let terrains: Vec<Option<TerrainId>> = locations
        .iter()
        .map(|l| {
            let found = catalog.terrain(&l.terrain);
            if found.is_none() {
                errors.push(format!("location {}: unknown terrain '{}'", l.id, l.terrain));
            }
            found
        })
        .collect();
    let mut links: Vec<(Vec<data::Exit>, Option<String>)> = Vec::with_capacity(locations.len());
    let bundles = locations.into_iter().zip(terrains).enumerate().filter_map(|(seq, (mut l, terrain))| {
        let terrain = terrain?;
        links.push((std::mem::take(&mut l.exits), l.container.take()));
        let inner = std::mem::take(&mut l.kind) == data::LocationKind::Inner;
        let hot = hot_location(&catalog, &dir, &mut l, &mut errors);
        // Every field is named: one added to the record must be taken into a
        // component here, or kept in the cold part, and put back by
        // `extract_locations`.
        let data::Location {
            id,
            name,
            terrain: _,
            kind: _,
            container: _,
            hex,
            exits: _,
            weather: _,
            owner: _,
            policy,
            population,
            wages: _,
            economy,
            land,
            market: _,
            recruits: _,
            resources: _,
            titles: _,
            teaches: _,
            inventory: _,
            optimum_shift: _,
            plague: _,
            tax_pool: _,
            effects: _,
        } = l;
        Some((
            (Seq(seq as u32), Id(id), DisplayName(name)),
            (Terrain(terrain), Population(population)),
            (Within { inner, container: None }, Exits(Vec::new())),
            hot,
            Location(ColdLocation { hex, policy, economy, land }),
        ))
    });
    let spawned: Vec<Entity> = world.spawn_batch(bundles).collect();
    dir.reserve(Kind::Location, spawned.len());
    for &e in &spawned {
        dir.insert(Kind::Location, world.get::<Id>(e).map_or("", |i| i.0.as_str()), e);
    }
    let (modes, directions) = (&catalog.rules.movement.modes, &catalog.rules.movement.directions);
    let direction: crate::core::data::FastMap<&str, usize> =
        directions.iter().enumerate().map(|(i, d)| (d.tag.as_str(), i)).collect();
    for (&e, (exits, container)) in spawned.iter().zip(links) {
        let id = || world.get::<Id>(e).map_or("", |i| i.0.as_str());
        let container = container.and_then(|c| {
            let found = dir.get(Kind::Location, &c);
            if found.is_none() {
                errors.push(format!("location {}: unknown container '{c}'", id()));
            }
            found
        });
        let mut resolved = Vec::with_capacity(exits.len());
        for x in exits {
            let to = dir.get(Kind::Location, &x.to);
            let d = direction
                .get(x.dir.as_str())
                .copied()
                .or_else(|| directions.iter().position(|d| d.tag.eq_ignore_ascii_case(&x.dir)));
            let mode = x.mode.as_deref().map(|m| modes.iter().position(|y| y.tag == m));
            match (to, d, mode) {
                (Some(to), Some(dir), None | Some(Some(_))) => {
                    resolved.push(Exit { dir, to, mode: mode.flatten(), days: x.days })
                }
                _ => errors.push(format!(
                    "location {}: exit {} to '{}' names an unknown direction, location or mode",
                    id(),
                    x.dir,
                    x.to
                )),
            }
        }
        let mut place = world.entity_mut(e);
        if let Some(mut w) = place.get_mut::<Within>() {
            w.container = container;
        }
        if let Some(mut x) = place.get_mut::<Exits>() {
            x.0 = resolved;
        }
    }
    for (i, places) in explored.into_iter().enumerate() {
        let mut set = std::collections::BTreeSet::new();
        for id in places {
            match dir.get(Kind::Location, &id).and_then(|l| world.get::<Seq>(l)) {
                Some(s) => {
                    set.insert(s.0);
                }
                None => errors
                    .push(format!("faction {}: explored an unknown location '{id}'", id_of_faction(world, &dir, i))),
            }
        }
        if let Some(&f) = dir.factions.get(i) {
            world.entity_mut(f).insert(Explored(set));
        }
    }
    dir.reserve(Kind::Structure, structures.len());
    for (seq, s) in structures.into_iter().enumerate() {
        let Some(at) = dir.get(Kind::Location, &s.location) else {
            errors.push(format!("structure {}: unknown location '{}'", s.id, s.location));
            continue;
        };
        let Some(kind) = catalog.construction(&s.kind) else {
            errors.push(format!("structure {}: unknown construction '{}'", s.id, s.kind));
            continue;
        };
        let id = s.id.clone();
        let Some(bundle) = structure_bundle(&catalog, &dir, seq as u32, s, kind, at, &mut errors) else { continue };
        let e = world.spawn(bundle).id();
        dir.insert(Kind::Structure, &id, e);
    }
    dir.reserve(Kind::Unit, units.len());
    let threads = world.get_resource::<crate::core::engine::ThreadCount>().map_or(1, |t| t.0).max(1);
    let mut units = units;
    // The units are stored in the order the day's passes visit them (place by
    // place), not in report order: a pass then reads their rows, and the lists
    // and holdings made for them, one after the other, not all over memory.
    // `ordered` are the records in that order, `positions` their report positions.
    let (positions, ordered) = visiting_order(world, &dir, &mut units, threads);
    // The units are spawned as one batch: their table is sized once for all of
    // them, and each spawn writes its row without finding its bundle again. Their
    // records are made into bundles a stretch at a time, on the engine's threads;
    // the batch yields an entity per bundle, in order, and `records.spawned` says
    // which record (its index in `ordered`) each one is.
    let cx = UnitsIn { catalog: &catalog, dir: &dir, positions: &positions };
    let mut records = UnitRecords::new(cx, ordered, threads);
    let entities: Vec<Entity> = world.spawn_batch(&mut records).collect();
    let UnitRecords { spawned, journeys, mut leaders, errors: mut found, .. } = records;
    // What the records hold wrong is told in report order.
    found.sort_by_key(|&(seq, _)| seq);
    errors.extend(found.into_iter().map(|(_, e)| e));
    leaders.sort_by_key(|&(seq, ..)| seq);
    for (k, j) in journeys {
        world.entity_mut(entities[k]).insert(j);
    }
    let mut listed: Vec<(u32, usize, Entity)> =
        spawned.iter().zip(&entities).map(|(&k, &e)| (positions[k], k, e)).collect();
    listed.sort_unstable_by_key(|&(seq, ..)| seq);
    dir.insert_units(listed.iter().map(|&(seq, _, e)| (units[seq as usize].id.as_str(), e)));
    // What is left of the records (ids, names, tags: millions of small strings in
    // a big world) is freed beside the turn, not before it.
    crate::core::alloc::drop_aside("unit records", units);
    for (_, id, leader) in leaders {
        let (Some(unit), Some(l)) = (dir.get(Kind::Unit, &id), dir.get(Kind::Unit, &leader)) else {
            errors.push(format!("unit {id}: unknown stack leader '{leader}'"));
            continue;
        };
        world.entity_mut(unit).insert(StackLeader(Some(l)));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    {
        // A game may play months of its own length; 0 keeps the plan's.
        let mut clock = world.resource_mut::<Clock>();
        clock.turn = game.turn;
        if game.days_per_month > 0 {
            clock.ticks = game.days_per_month;
        }
    }
    world.insert_resource(Month(month_of_turn(&game, months, game.turn)));
    world.insert_resource(Randomness { seed: game.seed, turn: game.turn });
    world.insert_resource(Game(game));
    world.insert_resource(dir);
    world.init_resource::<Submissions>();
    Ok(())
}

/// A unit's components as [`build`] spawns them.
type UnitBundle = (
    (Seq, Id, DisplayName, Owner, Race, Figures, At, StackLeader),
    (Inventory, Skills, Effects, Production, Orders, Events),
    (UnitSettings, SkillTarget, Description, Tactics, CombatOrders),
    Unit,
);

/// What making units' records into bundles reads: the catalogue, the factions,
/// places and structures already spawned, and each record's report position.
#[derive(Clone, Copy)]
struct UnitsIn<'a> {
    catalog: &'a Catalog,
    dir: &'a Directory,
    positions: &'a [u32],
}

/// Where a unit stands in the day's visiting order (SCH-LOC, SCH-UNIT), before
/// its report position: its place's `Seq` (`None`, unknown: last), then 0
/// outside structures or its structure's `Seq` + 1. The scheduler's passes and
/// the units' storage order both follow it.
pub fn visiting_place(place: Option<u32>, structure: Option<u32>) -> (u32, u32) {
    (place.unwrap_or(u32::MAX), structure.map_or(0, |s| s.saturating_add(1)))
}

/// The fewest units for which they are stored in visiting order. Below, a day's
/// pass finds most units' rows and lists in the cache whatever their order
/// (alpha ×100, 27,500 units, 32 MiB of cache here: the month no faster, the
/// writing, which reads them in report order, 9 ms slower), above it saves
/// more than the reading out of order costs (100,000 units: the turn 8% faster;
/// a million: 12%). Measured in docs/performance.md, "tenth part".
pub const VISITING_ORDER_FROM: usize = 50_000;

/// Puts the unit records in the order the day's passes visit units (SCH-LOC,
/// SCH-UNIT: place by place in report order, outside structures first, then
/// structure by structure, each in report order): the report position of each
/// and the records, in that order. A record naming an unknown place goes last,
/// one naming an unknown structure with its place's units outside structures
/// ([`UnitPart::unit`] reports both). A world of fewer than
/// [`VISITING_ORDER_FROM`] units keeps report order.
fn visiting_order<'u>(
    world: &World,
    dir: &Directory,
    units: &'u mut [data::Unit],
    threads: usize,
) -> (Vec<u32>, Vec<&'u mut data::Unit>) {
    if units.len() < VISITING_ORDER_FROM {
        return ((0..units.len() as u32).collect(), units.iter_mut().collect());
    }
    let key = |(pos, u): (usize, &data::Unit)| {
        let seq = |kind, id: &str| dir.get(kind, id).and_then(|e| world.get::<Seq>(e)).map(|s| s.0);
        let inside = u.structure.as_deref().and_then(|s| seq(Kind::Structure, s));
        let (place, inside) = visiting_place(seq(Kind::Location, &u.location), inside);
        (place, inside, pos as u32)
    };
    let per = units.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(usize, &[data::Unit])> = units.chunks(per).enumerate().map(|(k, c)| (k * per, c)).collect();
    let mut keys: Vec<(u32, u32, u32)> = crate::core::engine::parallel::map_ordered(&parts, threads, |&(first, c)| {
        c.iter().enumerate().map(|(i, u)| key((first + i, u))).collect::<Vec<_>>()
    })
    .concat();
    if keys.is_sorted() {
        return (keys.into_iter().map(|(.., pos)| pos).collect(), units.iter_mut().collect());
    }
    keys.sort_unstable();
    let mut each: Vec<Option<&mut data::Unit>> = units.iter_mut().map(Some).collect();
    let ordered = keys.iter().map(|&(.., pos)| each[pos as usize].take().expect("each position once")).collect();
    (keys.into_iter().map(|(.., pos)| pos).collect(), ordered)
}

/// Units' records made into bundles a stretch at a time, the stretch shared
/// among `threads` threads (each its own contiguous part), and handed out in
/// order: an iterator for one `spawn_batch`. What each part finds (errors, stack
/// leaders, journeys) is gathered in unit order, so nothing depends on the thread
/// count.
struct UnitRecords<'a, 'u> {
    cx: UnitsIn<'a>,
    /// The records, and the index of the first not yet made into a bundle.
    records: Vec<&'u mut data::Unit>,
    next: usize,
    /// The records left to hand out, for the batch's size.
    left: usize,
    threads: usize,
    parts: Vec<UnitPart>,
    /// The part being handed out.
    at: usize,
    /// The index in `records` of each bundle handed out, in order.
    spawned: Vec<usize>,
    /// The journeys of the bundles (by their place in `spawned`).
    journeys: Vec<(usize, Journey)>,
    /// Stack leaders named: (unit report position, unit id, leader id).
    leaders: Vec<(usize, String, String)>,
    /// Errors, each with the report position of the unit it is about.
    errors: Vec<(usize, String)>,
}

/// What one thread makes of its part of a stretch, and keeps from one stretch to
/// the next: the orders it has read, by their text (most units of a big world
/// give the same few, `WORK`, `@GUARD`), and the battle settings it has seen
/// (units with the same settings share one copy).
#[derive(Default)]
struct UnitPart {
    made: std::collections::VecDeque<UnitBundle>,
    found: Vec<(usize, Option<Journey>)>,
    leaders: Vec<(usize, String, String)>,
    errors: Vec<(usize, String)>,
    /// The errors of the record being made.
    scratch: Vec<String>,
    read_orders: crate::core::data::FastMap<String, crate::systems::overlord::orders::syntax::Entry>,
    tactics: crate::core::data::FastMap<data::CombatTactics, std::sync::Arc<data::CombatTactics>>,
}

/// Units made into bundles at a time: a few megabytes of bundles, whose memory
/// the next stretch reuses.
const UNITS_PER_STRETCH: usize = 4_096;

impl<'a, 'u> UnitRecords<'a, 'u> {
    fn new(cx: UnitsIn<'a>, records: Vec<&'u mut data::Unit>, threads: usize) -> Self {
        UnitRecords {
            cx,
            left: records.len(),
            records,
            next: 0,
            threads,
            parts: (0..threads).map(|_| UnitPart::default()).collect(),
            at: 0,
            spawned: Vec::new(),
            journeys: Vec::new(),
            leaders: Vec::new(),
            errors: Vec::new(),
        }
    }

    /// Makes the next stretch of records into bundles. False when none is left.
    fn stretch(&mut self) -> bool {
        let n = (self.records.len() - self.next).min(UNITS_PER_STRETCH);
        if n == 0 {
            return false;
        }
        let stretch = &mut self.records[self.next..self.next + n];
        let per = n.div_ceil(self.threads);
        let (cx, first) = (self.cx, self.next);
        let jobs = stretch.chunks_mut(per).zip(self.parts.iter_mut()).enumerate();
        if self.threads <= 1 || n < 1024 {
            for (k, (records, part)) in jobs {
                part.make(cx, first + k * per, records);
            }
        } else {
            // The calling thread makes the first part, beside threads for the others.
            std::thread::scope(|s| {
                let mut jobs = jobs;
                let mine = jobs.next();
                for (k, (records, part)) in jobs {
                    s.spawn(move || part.make(cx, first + k * per, records));
                }
                if let Some((k, (records, part))) = mine {
                    part.make(cx, first + k * per, records);
                }
            });
        }
        self.next += n;
        for part in &mut self.parts {
            for (seq, journey) in part.found.drain(..) {
                if let Some(j) = journey {
                    self.journeys.push((self.spawned.len(), j));
                }
                self.spawned.push(seq);
            }
            self.leaders.append(&mut part.leaders);
            self.errors.append(&mut part.errors);
        }
        self.at = 0;
        true
    }
}

impl Iterator for UnitRecords<'_, '_> {
    type Item = UnitBundle;

    fn next(&mut self) -> Option<UnitBundle> {
        loop {
            while let Some(part) = self.parts.get_mut(self.at) {
                if let Some(b) = part.made.pop_front() {
                    self.left -= 1;
                    return Some(b);
                }
                self.at += 1;
            }
            if !self.stretch() {
                return None;
            }
        }
    }

    /// At most one bundle per record left (a record with an error makes none).
    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left + self.parts.iter().map(|p| p.made.len()).sum::<usize>()))
    }
}

impl UnitPart {
    /// Makes `records` (the first at index `first` in the units) into bundles.
    fn make(&mut self, cx: UnitsIn<'_>, first: usize, records: &mut [&mut data::Unit]) {
        for (k, u) in records.iter_mut().enumerate() {
            let seq = cx.positions[first + k] as usize;
            if let Some((bundle, journey)) = self.unit(cx, seq, u) {
                self.made.push_back(bundle);
                self.found.push((first + k, journey));
            }
            self.errors.extend(self.scratch.drain(..).map(|e| (seq, e)));
        }
    }

    /// The bundle and journey of unit `seq`; `None` (and an error) when its
    /// faction, race, place or structure is unknown. Strings the components keep
    /// are taken from the record; tags are read where they lie (the records are
    /// freed beside the turn, not one string at a time here).
    fn unit(&mut self, cx: UnitsIn<'_>, seq: usize, u: &mut data::Unit) -> Option<(UnitBundle, Option<Journey>)> {
        let UnitsIn { catalog, dir, .. } = cx;
        let errors = &mut self.scratch;
        let owner = dir.get(Kind::Faction, &u.faction);
        let race = catalog.race(&u.race);
        let location = dir.get(Kind::Location, &u.location);
        let structure = u.structure.as_deref().map(|s| dir.get(Kind::Structure, s));
        let (Some(owner), Some(race), Some(location), None | Some(Some(_))) = (owner, race, location, structure) else {
            errors.push(format!(
                "unit {}: unknown faction '{}', race '{}', location '{}' or structure '{}'",
                u.id,
                u.faction,
                u.race,
                u.location,
                u.structure.as_deref().unwrap_or("")
            ));
            return None;
        };
        let mut inventory = Vec::with_capacity(u.items.len());
        for &ItemHolding(ref tag, count, equipped) in &u.items {
            match catalog.item(tag) {
                Some(item) => inventory.push(Holding { item, count, equipped }),
                None => errors.push(format!("unit {}: unknown item '{tag}'", u.id)),
            }
        }
        let mut skills = Vec::with_capacity(u.skills.len());
        for &SkillExperience(ref tag, exp) in &u.skills {
            match catalog.skill(tag) {
                Some(s) => skills.push((s, exp)),
                None => errors.push(format!("unit {}: unknown skill '{tag}'", u.id)),
            }
        }
        let Effects(effects) =
            effects_of(catalog, &u.effects, |tag| errors.push(format!("unit {}: unknown enchantment '{tag}'", u.id)));
        let production = Production(match &u.production {
            Some((tag, progress)) => match catalog.skill(tag) {
                Some(s) => Some((s, *progress)),
                None => {
                    errors.push(format!("unit {}: unknown skill '{tag}' in production", u.id));
                    None
                }
            },
            None => None,
        });
        let journey = match &u.journey {
            Some(j) => {
                let from = dir.get(Kind::Location, &j.from);
                let to = dir.get(Kind::Location, &j.to);
                let mode = catalog.rules.movement.modes.iter().position(|m| m.tag == j.mode);
                match (from, to, mode) {
                    (Some(from), Some(to), Some(mode)) => {
                        Some(Journey { from, to, mode, days: j.days, elapsed: j.elapsed, kind: j.kind })
                    }
                    _ => {
                        errors.push(format!(
                            "unit {}: journey from '{}' to '{}' by '{}' names an unknown location or mode",
                            u.id, j.from, j.to, j.mode
                        ));
                        None
                    }
                }
            }
            None => None,
        };
        let read_orders = &mut self.read_orders;
        let orders = Orders(
            u.orders
                .iter()
                .map(|text| {
                    let entry = match read_orders.get(text.as_str()) {
                        Some(e) => e.clone(),
                        None => {
                            let e = crate::systems::overlord::orders::parse_entry_lenient(text, catalog).0;
                            read_orders.insert(text.clone(), e.clone());
                            e
                        }
                    };
                    crate::systems::overlord::orders::queue::Queued::new(entry)
                })
                .collect(),
        );
        let id = u.id.as_str();
        let tactics = &mut self.tactics;
        let presentation = (
            UnitSettings(std::mem::take(&mut u.settings)),
            SkillTarget(u.target.take()),
            Description(std::mem::take(&mut u.description)),
            Tactics(u.tactics.as_deref().map(|t| match tactics.get(t) {
                Some(shared) => shared.clone(),
                None => tactics.entry(t.clone()).or_insert_with_key(|t| t.clone().into()).clone(),
            })),
            CombatOrders(std::mem::take(&mut u.combat_orders)),
        );
        if let Some(leader) = u.stack_leader.take() {
            self.leaders.push((seq, id.to_string(), leader));
        }
        let at = At { location, structure: structure.flatten() };
        let bundle = (
            (
                Seq(seq as u32),
                Id(id.to_string()),
                DisplayName(std::mem::take(&mut u.name)),
                Owner(owner),
                Race(race),
                Figures(u.figures),
                at,
                StackLeader(None),
            ),
            (Inventory(inventory), Skills(skills), Effects(effects), production, orders, Events::default()),
            presentation,
            Unit,
        );
        Some((bundle, journey))
    }
}

/// Writes the world back as a scenario, entities in report order.
pub fn extract(world: &World) -> Scenario {
    let mut s = extract_head(world);
    s.units = extract_units(world, world.resource::<Directory>().units());
    s
}

/// [`extract`] but the units: the game, factions, locations and structures.
pub fn extract_head(world: &World) -> Scenario {
    let mut s = extract_top(world);
    s.locations = extract_locations(world, &world.resource::<Directory>().locations);
    s
}

/// [`extract_head`] but the locations: the game, factions and structures.
pub fn extract_top(world: &World) -> Scenario {
    let catalog = world.resource::<Catalog>();
    let dir = world.resource::<Directory>();
    let clock = world.resource::<Clock>();
    let mut game = world.resource::<Game>().0.clone();
    game.turn = clock.turn;
    let id_of = |e: Entity| world.get::<Id>(e).map(|i| i.0.clone()).unwrap_or_default();

    let factions = dir
        .factions
        .iter()
        .map(|&e| {
            let r = world.entity(e);
            let mut f = r.get::<Faction>().expect("faction entity").0.clone();
            f.id = id_of(e);
            f.name = r.get::<DisplayName>().map(|n| n.0.clone()).unwrap_or_default();
            if let Some(role) = r.get::<FactionRole>() {
                (f.npc, f.creatures, f.takes_resignations, f.serves_overlord) =
                    (role.npc, role.creatures, role.takes_resignations, role.serves_overlord);
            }
            f.destroyed = r.contains::<Destroyed>();
            f.explored = r
                .get::<Explored>()
                .map(|x| x.0.iter().filter_map(|&i| dir.locations.get(i as usize)).map(|&l| id_of(l)).collect())
                .unwrap_or_default();
            if let Some(c) = r.get::<Contact>() {
                (f.password, f.email) = (c.password.clone(), c.email.clone());
            }
            f.settings = r.get::<FactionSettings>().map(|s| s.0.clone()).unwrap_or_default();
            f.known_skills = r
                .get::<KnownSkills>()
                .map(|k| {
                    let req = |&(s, level)| data::SkillLevelReq { skill: catalog.skill_tag(s).to_string(), level };
                    k.0.iter().map(req).collect()
                })
                .unwrap_or_default();
            f.known = r
                .get::<Known>()
                .map(|k| {
                    let tag =
                        |r: &Result<Topic, Tag>| r.as_ref().map_or_else(Tag::clone, |&t| catalog.topic_tag(t).into());
                    k.list().iter().map(tag).collect()
                })
                .unwrap_or_default();
            f.funds = world
                .get::<Funds>(e)
                .map(|fu| fu.0.iter().map(|&(item, n)| (catalog.item_tag(item).to_string(), n)).collect())
                .unwrap_or_default();
            if let Some(d) = world.get::<Diplomacy>(e) {
                let tag = |s| catalog.stances.tag(s).to_string();
                f.default_stance = d.default.map(tag).unwrap_or_default();
                f.stances = d.toward.iter().map(|&(o, s)| (id_of(o), tag(s))).collect();
                f.stances.extend(d.unknown.iter().map(|(o, s)| (o.clone(), tag(*s))));
            }
            f
        })
        .collect();
    let structures = dir
        .structures
        .iter()
        .map(|&e| {
            let r = world.entity(e);
            let mut s = r.get::<Structure>().expect("structure entity").0.clone();
            s.id = id_of(e);
            s.name = r.get::<DisplayName>().map(|n| n.0.clone()).unwrap_or_default();
            s.location = r.get::<StructureAt>().map(|a| id_of(a.0)).unwrap_or_default();
            let works = &catalog.rules.constructions.works;
            s.missing = r
                .get::<Missing>()
                .map_or(Vec::new(), |m| m.0.iter().map(|&(w, n)| data::ItemCount(works[w].tag.clone(), n)).collect());
            s.owner = r.get::<StructureOwner>().and_then(|o| o.0).map(id_of);
            s.effects = effects_data(catalog, r.get::<Effects>());
            s
        })
        .collect();
    Scenario { game, factions, locations: Vec::new(), structures, units: Vec::new(), orders: Vec::new() }
}

/// The records of `locations`, as [`extract`] writes them.
pub fn extract_locations(world: &World, locations: &[Entity]) -> Vec<data::Location> {
    let catalog = world.resource::<Catalog>();
    let id_of = |e: Entity| world.get::<Id>(e).map(|i| i.0.clone()).unwrap_or_default();
    locations
        .iter()
        .map(|&e| {
            let r = world.entity(e);
            let cold = &r.get::<Location>().expect("location entity").0;
            let mut l = data::Location {
                id: id_of(e),
                name: r.get::<DisplayName>().map(|n| n.0.clone()).unwrap_or_default(),
                terrain: catalog.terrain_tag(r.get::<Terrain>().expect("terrain").0).to_string(),
                hex: cold.hex,
                policy: cold.policy.clone(),
                population: r.get::<Population>().map_or(0, |p| p.0),
                economy: cold.economy,
                land: cold.land,
                ..Default::default()
            };
            if let Some(w) = r.get::<Within>() {
                l.kind = if w.inner { data::LocationKind::Inner } else { data::LocationKind::Territory };
                l.container = w.container.map(id_of);
            }
            let rules = &catalog.rules;
            let (modes, directions) = (&rules.movement.modes, &rules.movement.directions);
            l.exits = r.get::<Exits>().map_or(Vec::new(), |x| {
                x.0.iter()
                    .map(|x| data::Exit {
                        dir: directions[x.dir].tag.clone(),
                        to: id_of(x.to),
                        mode: x.mode.map(|m| modes[m].tag.clone()),
                        days: x.days,
                    })
                    .collect()
            });
            l.weather = r.get::<Weather>().and_then(|w| w.0).map(|w| rules.climate.weathers[w].tag.clone());
            l.wages = r.get::<Wages>().map_or(0, |w| w.0);
            l.titles = r.get::<Titles>().map_or(Vec::new(), |t| {
                t.0.iter()
                    .map(|(i, holder)| data::TitleHolding {
                        title: rules.titles[*i].tag.clone(),
                        holder: holder.clone(),
                    })
                    .collect()
            });
            l.owner = r
                .get::<LandOwner>()
                .and_then(|o| o.0.clone())
                .map(|(f, title_location)| data::Ownership { faction: id_of(f), title_location });
            let tag = |i| catalog.item_tag(i).to_string();
            l.inventory = r
                .get::<Ground>()
                .map_or(Vec::new(), |g| g.0.iter().map(|&(i, n)| data::ItemCount(tag(i), n)).collect());
            l.resources = r.get::<Resources>().map_or(Vec::new(), |x| {
                x.0.iter().map(|s| data::ResourceStock { item: tag(s.item), current: s.current, max: s.max }).collect()
            });
            l.recruits = r.get::<Recruits>().map_or(Vec::new(), |x| {
                x.0.iter()
                    .map(|o| data::RecruitOffer {
                        race: catalog.race_tag(o.race).to_string(),
                        count: o.count,
                        price: o.price,
                        hired: o.hired,
                    })
                    .collect()
            });
            if let Some(m) = r.get::<Market>() {
                let offers = |g: &[Good]| {
                    g.iter()
                        .map(|g| data::MarketOffer {
                            item: tag(g.item),
                            quantity: g.quantity,
                            price: g.price,
                            traded: g.traded,
                        })
                        .collect()
                };
                l.market = data::Market { sells: offers(&m.sells), buys: offers(&m.buys), days: m.days.clone() };
            }
            if let Some(v) = r.get::<Livelihood>() {
                l.optimum_shift = v.optimum_shift;
                l.plague = v.plague;
                l.tax_pool = v.tax_pool;
            }
            l.teaches = r.get::<Teaches>().map_or(Vec::new(), |x| {
                x.0.iter()
                    .map(|&(s, level)| data::SkillLevelReq { skill: catalog.skill_tag(s).to_string(), level })
                    .collect()
            });
            l.effects = effects_data(catalog, r.get::<Effects>());
            l
        })
        .collect()
}

/// The records of `units`, as [`extract`] writes them.
pub fn extract_units(world: &World, units: &[Entity]) -> Vec<data::Unit> {
    // The units are read in the order they are stored, not in report order, and
    // their records put back in the order asked: a part at a time, so that a
    // part's records only are held twice.
    let catalog = world.resource::<Catalog>();
    let mut records = Vec::with_capacity(units.len());
    for part in units.chunks(2_048) {
        records.extend(map_in_stored_order(part, |u| unit_record(world, catalog, u)));
    }
    records
}

/// Unit `e`'s record.
fn unit_record(world: &World, catalog: &Catalog, e: Entity) -> data::Unit {
    let id_of = |e: Entity| world.get::<Id>(e).map(|i| i.0.clone()).unwrap_or_default();
    let r = world.entity(e);
    // Every field named: a field added to the record and not put back
    // here does not compile.
    let (location, structure) =
        r.get::<At>().map_or((Tag::new(), None), |at| (id_of(at.location), at.structure.map(id_of)));
    data::Unit {
        id: r.get::<Id>().map(|i| i.0.clone()).unwrap_or_default(),
        name: r.get::<DisplayName>().map(|n| n.0.clone()).unwrap_or_default(),
        faction: r.get::<Owner>().map(|o| id_of(o.0)).unwrap_or_default(),
        race: r.get::<Race>().map(|x| catalog.race_tag(x.0).to_string()).unwrap_or_default(),
        figures: r.get::<Figures>().map_or(0, |f| f.0),
        location,
        structure,
        stack_leader: r.get::<StackLeader>().and_then(|s| s.0).map(id_of),
        journey: r.get::<Journey>().map(|j| {
            Box::new(data::Journey {
                from: id_of(j.from),
                to: id_of(j.to),
                mode: catalog.rules.movement.modes[j.mode].tag.clone(),
                days: j.days,
                elapsed: j.elapsed,
                kind: j.kind,
            })
        }),
        items: r
            .get::<Inventory>()
            .map(|inv| {
                inv.0.iter().map(|h| ItemHolding(catalog.item_tag(h.item).to_string(), h.count, h.equipped)).collect()
            })
            .unwrap_or_default(),
        skills: r
            .get::<Skills>()
            .map(|s| s.0.iter().map(|&(id, exp)| SkillExperience(catalog.skill_tag(id).to_string(), exp)).collect())
            .unwrap_or_default(),
        production: r.get::<Production>().and_then(|p| p.0).map(|(s, x)| (catalog.skill_tag(s).to_string(), x)),
        effects: effects_data(catalog, r.get::<Effects>()),
        orders: r
            .get::<Orders>()
            .map(|o| o.0.iter().map(|q| q.entry.written(catalog).to_string()).collect())
            .unwrap_or_default(),
        settings: r.get::<UnitSettings>().map(|s| s.0.clone()).unwrap_or_default(),
        target: r.get::<SkillTarget>().and_then(|t| t.0.clone()),
        description: r.get::<Description>().map(|d| d.0.clone()).unwrap_or_default(),
        tactics: r.get::<Tactics>().and_then(|t| t.0.clone()),
        combat_orders: r.get::<CombatOrders>().map(|c| c.0.clone()).unwrap_or_default(),
    }
}

/// A unit made during a turn (RECRUIT, SPLIT).
#[derive(Debug, Clone)]
pub struct NewUnit {
    /// Its permanent id.
    pub id: Tag,
    /// Name.
    pub name: String,
    /// Owning faction.
    pub owner: Entity,
    /// Race.
    pub race: RaceId,
    /// Figures.
    pub figures: u32,
    /// Where it stands.
    pub at: At,
    /// The unit it is stacked under.
    pub leader: Option<Entity>,
    /// Items.
    pub items: Vec<Holding>,
    /// Skills, with experience.
    pub skills: Vec<(SkillId, u32)>,
    /// Its order list.
    pub orders: Vec<crate::systems::overlord::orders::queue::Queued>,
    /// The unit it comes after in report order.
    pub after: Option<Entity>,
}

/// Spawns a unit made during a turn, with the same components as a loaded one, and
/// lists it in the directory right after `after`.
pub fn spawn_unit(world: &mut World, n: NewUnit) -> Entity {
    let seq = world.resource::<Directory>().next_seq(Kind::Unit);
    let e = world
        .spawn((
            Seq(seq),
            Id(n.id.clone()),
            DisplayName(n.name),
            Owner(n.owner),
            Race(n.race),
            Figures(n.figures),
            n.at,
            StackLeader(n.leader),
            Inventory(n.items),
            Skills(n.skills),
            Effects::default(),
            Production::default(),
            Orders(n.orders),
            Events::default(),
            Unit,
        ))
        .id();
    world.resource_mut::<Directory>().insert_unit_after(&n.id, e, n.after);
    e
}

/// A structure made during a turn (a building started, a vessel launched).
#[derive(Debug, Clone)]
pub struct NewStructure {
    /// Its permanent id.
    pub id: Tag,
    /// Its name.
    pub name: String,
    /// Its construction: index in the rule set's constructions.
    pub kind: usize,
    /// Where it stands.
    pub at: Entity,
    /// The faction that owns it.
    pub owner: Option<Entity>,
    /// Works still missing (work index, count); empty when complete.
    pub missing: Vec<(usize, u32)>,
}

/// Spawns a structure made during a turn, with the same components as a loaded
/// one, last in report order.
pub fn spawn_structure(world: &mut World, s: NewStructure) -> Entity {
    let seq = world.resource::<Directory>().next_seq(Kind::Structure);
    let cold = data::Structure {
        kind: world.resource::<Catalog>().rules.constructions.constructions[s.kind].tag.clone(),
        ..Default::default()
    };
    let e = world
        .spawn((
            (Seq(seq), Id(s.id.clone()), DisplayName(s.name), StructureAt(s.at), StructureKind(s.kind)),
            (Missing(s.missing), StructureOwner(s.owner), Structure(cold), Effects::default()),
        ))
        .id();
    world.resource_mut::<Directory>().insert(Kind::Structure, &s.id, e);
    e
}

/// The components of a structure of the data, its references resolved; `None`
/// (with errors) when one does not resolve.
fn structure_bundle(
    catalog: &Catalog,
    dir: &Directory,
    seq: u32,
    mut s: data::Structure,
    kind: usize,
    at: Entity,
    errors: &mut Vec<String>,
) -> Option<impl Bundle + use<>> {
    let works = &catalog.rules.constructions.works;
    let mut missing = Vec::with_capacity(s.missing.len());
    for data::ItemCount(tag, n) in std::mem::take(&mut s.missing) {
        match works.iter().position(|w| w.tag == tag) {
            Some(w) => missing.push((w, n)),
            None => errors.push(format!("structure {}: unknown construction work '{tag}'", s.id)),
        }
    }
    let owner = match s.owner.take() {
        Some(f) => match dir.get(Kind::Faction, &f) {
            Some(e) => Some(e),
            None => {
                errors.push(format!("structure {}: unknown owner '{f}'", s.id));
                return None;
            }
        },
        None => None,
    };
    let effects =
        effects_of(catalog, &s.effects, |tag| errors.push(format!("structure {}: unknown enchantment '{tag}'", s.id)));
    let (id, name) = (std::mem::take(&mut s.id), std::mem::take(&mut s.name));
    Some((
        (Seq(seq), Id(id), DisplayName(name), StructureAt(at), StructureKind(kind)),
        (Missing(missing), StructureOwner(owner), Structure(s), effects),
    ))
}

/// Takes the fields mechanics use out of a location's record, into components.
fn hot_location(
    catalog: &Catalog,
    dir: &Directory,
    l: &mut data::Location,
    errors: &mut Vec<String>,
) -> impl Bundle<Effect: bevy_ecs::bundle::NoBundleEffect> + use<> {
    let id = l.id.clone();
    let mut unknown = |what: &str, tag: &str| errors.push(format!("location {id}: unknown {what} '{tag}'"));
    let weathers = &catalog.rules.climate.weathers;
    let weather = l.weather.take().and_then(|w| {
        let found = weathers.iter().position(|x| x.tag == w);
        if found.is_none() {
            unknown("weather", &w);
        }
        found
    });
    let titles = std::mem::take(&mut l.titles)
        .into_iter()
        .filter_map(|t| match catalog.rules.titles.iter().position(|x| x.tag == t.title) {
            Some(i) => Some((i, t.holder)),
            None => {
                unknown("title", &t.title);
                None
            }
        })
        .collect();
    let owner = l.owner.take().and_then(|o| match dir.get(Kind::Faction, &o.faction) {
        Some(f) => Some((f, o.title_location)),
        None => {
            unknown("owner", &o.faction);
            None
        }
    });
    let mut item = |tag: &str| {
        let found = catalog.item(tag);
        if found.is_none() {
            unknown("item", tag);
        }
        found
    };
    let ground = std::mem::take(&mut l.inventory).into_iter().filter_map(|c| Some((item(&c.0)?, c.1))).collect();
    let resources = std::mem::take(&mut l.resources)
        .into_iter()
        .filter_map(|r| Some(Stock { item: item(&r.item)?, current: r.current, max: r.max }))
        .collect();
    let market = std::mem::take(&mut l.market);
    let mut goods = |offers: Vec<data::MarketOffer>| -> Vec<Good> {
        offers
            .into_iter()
            .filter_map(|o| Some(Good { item: item(&o.item)?, quantity: o.quantity, price: o.price, traded: o.traded }))
            .collect()
    };
    let market = Market { sells: goods(market.sells), buys: goods(market.buys), days: market.days };
    let mut recruits = Vec::with_capacity(l.recruits.len());
    for o in std::mem::take(&mut l.recruits) {
        match catalog.race(&o.race) {
            Some(race) => recruits.push(Offer { race, count: o.count, price: o.price, hired: o.hired }),
            None => unknown("race", &o.race),
        }
    }
    let mut teaches = Vec::with_capacity(l.teaches.len());
    for t in std::mem::take(&mut l.teaches) {
        match catalog.skill(&t.skill) {
            Some(s) => teaches.push((s, t.level)),
            None => unknown("skill", &t.skill),
        }
    }
    let effects = effects_of(catalog, &l.effects, |tag| unknown("enchantment", tag));
    let livelihood = Livelihood {
        optimum_shift: std::mem::take(&mut l.optimum_shift),
        plague: l.plague.take(),
        tax_pool: std::mem::take(&mut l.tax_pool),
    };
    (
        Wages(std::mem::take(&mut l.wages)),
        market,
        livelihood,
        Weather(weather),
        Titles(titles),
        LandOwner(owner),
        Ground(ground),
        Resources(resources),
        Recruits(recruits),
        Teaches(teaches),
        effects,
    )
}

/// Enchantments of the data resolved; `unknown` is told of each tag that is not one.
fn effects_of(catalog: &Catalog, list: &[data::EffectDays], mut unknown: impl FnMut(&str)) -> Effects {
    let mut effects = Vec::with_capacity(list.len());
    for &data::EffectDays(ref tag, days) in list {
        match catalog.effect(tag) {
            Some(e) => effects.push((e, days)),
            None => unknown(tag),
        }
    }
    Effects(effects)
}

/// Enchantments as data.
fn effects_data(catalog: &Catalog, fx: Option<&Effects>) -> Vec<data::EffectDays> {
    fx.map(|x| x.0.iter().map(|&(id, d)| data::EffectDays(catalog.effect_tag(id).to_string(), d)).collect())
        .unwrap_or_default()
}

/// Keeps unit `u` as it is now, with its month's events (which it loses), for the
/// report of the faction it is leaving (RPT-UNIT, RPT-XFER).
pub fn record_departure(world: &mut World, u: Entity) {
    use components::{At, DisplayName, Events, Figures, Id, Inventory, Owner, Race, Skills};
    use resources::{Departed, Departures};
    let Some(faction) = world.get::<Owner>(u).map(|o| o.0) else { return };
    let Some(race) = world.get::<Race>(u).map(|r| r.0) else { return };
    let day = world.get_resource::<crate::core::engine::plan::Clock>().map_or(0, |c| c.tick);
    let events = world.get_mut::<Events>(u).map(|mut e| std::mem::take(&mut e.0)).unwrap_or_default();
    let r = world.entity(u);
    let d = Departed {
        faction,
        day,
        id: r.get::<Id>().map(|i| i.0.clone()).unwrap_or_default(),
        name: r.get::<DisplayName>().map(|n| n.0.clone()).unwrap_or_default(),
        race,
        figures: r.get::<Figures>().map_or(0, |f| f.0),
        location: r.get::<At>().map(|a| a.location),
        items: r.get::<Inventory>().map(|i| i.0.clone()).unwrap_or_default(),
        skills: r.get::<Skills>().map(|s| s.0.clone()).unwrap_or_default(),
        events,
    };
    if let Some(mut all) = world.get_resource_mut::<Departures>() {
        all.0.push(d);
    }
}

/// Unit `u` goes over to faction `to`: its old faction keeps it as it was, with
/// its month's events (RPT-XFER, [`record_departure`]), and the change is counted
/// in [`resources::FactionChanges`].
pub fn change_faction(world: &mut World, u: Entity, to: Entity) {
    record_departure(world, u);
    if let Some(mut o) = world.get_mut::<components::Owner>(u) {
        o.0 = to;
    }
    world.get_resource_or_insert_with(resources::FactionChanges::default).0 += 1;
    components::changed_here(&mut bevy_ecs::world::DeferredWorld::from(&mut *world), u);
}

/// The id of the `i`th faction of `dir`, for messages.
fn id_of_faction(world: &World, dir: &Directory, i: usize) -> String {
    dir.factions.get(i).and_then(|&f| world.get::<Id>(f)).map(|x| x.0.clone()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{Clock, Month};
    use crate::systems::overlord::testkit::{alpha, engine};

    #[test]
    fn a_loaded_world_saves_back_to_the_same_scenario() {
        // Orders are written back in canonical form (`@ guard` → `@GUARD`); everything
        // else comes back as loaded, and a second round trip changes nothing.
        let mut s = alpha();
        s.orders.clear();
        let e = engine(s.clone());
        let back = e.state();
        let strip = |mut s: crate::systems::overlord::data::Scenario| {
            s.units.iter_mut().for_each(|u| u.orders.clear());
            s
        };
        assert_eq!(strip(back.clone()), strip(s.clone()));
        for (a, b) in s.units.iter().zip(&back.units) {
            assert_eq!(a.orders.len(), b.orders.len(), "unit {}", a.id);
        }
        assert_eq!(engine(back.clone()).state(), back);
        let guard = back.units.iter().find(|u| u.id == "U2").unwrap();
        assert_eq!(guard.orders, ["@GUARD"]);
    }

    /// Factions are spawned in batches of factions alike: gone ones between live
    /// ones keep their place (the directory's order, their `Seq`), the marker of
    /// the gone, and save back as loaded; the errors are the same list.
    #[test]
    fn factions_gone_and_not_are_built_in_file_order() {
        use super::components::{Destroyed, Seq};
        use super::resources::Directory;
        let mut s = alpha();
        s.orders.clear();
        let n = s.factions.len();
        assert!(n >= 4);
        // The first gone too: the live factions' table still comes first.
        for (i, f) in s.factions.iter_mut().enumerate() {
            f.destroyed = matches!(i % 4, 0 | 1);
        }
        let mut e = engine(s.clone());
        let world = e.world_mut();
        let dir = world.resource::<Directory>().factions.clone();
        assert_eq!(dir.len(), n);
        for (i, (&f, rec)) in dir.iter().zip(&s.factions).enumerate() {
            assert_eq!(world.get::<super::components::Id>(f).map(|x| x.0.as_str()), Some(rec.id.as_str()));
            assert_eq!(world.get::<Seq>(f).map(|x| x.0), Some(i as u32));
            assert_eq!(world.get::<Destroyed>(f).is_some(), rec.destroyed, "faction {}", rec.id);
        }
        // A query meets the live factions first, then the gone, each in file order.
        let mut q = world.query::<(&Seq, bevy_ecs::query::Has<Destroyed>, &super::components::Faction)>();
        let met: Vec<(bool, u32)> = q.iter(world).map(|(seq, gone, _)| (gone, seq.0)).collect();
        let mut sorted = met.clone();
        sorted.sort();
        assert_eq!(met, sorted);
        let back = e.state();
        assert_eq!(back.factions, s.factions);
        // A bad record among them is said as before, in file order.
        s.factions[1].default_stance = "nothing".into();
        s.factions[3].funds.insert("nothing".into(), 1);
        let built = crate::core::engine::Engine::<crate::systems::overlord::Overlord>::new(
            crate::systems::overlord::testkit::overlord_rules(),
            s.clone(),
            crate::core::engine::Threads::One,
        );
        let errors = built.err().expect("a bad state");
        assert!(errors[0].starts_with(&format!("faction {}: unknown default stance", s.factions[1].id)), "{errors:?}");
        assert!(errors[1].starts_with(&format!("faction {}: funds of unknown item", s.factions[3].id)), "{errors:?}");
    }

    /// Units' records are made into bundles a stretch at a time, shared among the
    /// engine's threads: the world, and the errors of a bad state, in their order,
    /// are the same on one thread or several.
    #[test]
    fn units_are_built_alike_on_one_thread_or_several() {
        use crate::core::engine::{Engine, Threads};
        use crate::systems::overlord::{Overlord, testkit::overlord_rules};
        // Alpha's units 64 times over (ids and leaders renamed in each copy but
        // the first): more than one stretch, each shared among threads.
        let mut s = alpha();
        let mut base = s.units.clone();
        // Some on their way (from where they stand to the first unit's place).
        let to = base[0].location.clone();
        for u in base.iter_mut().step_by(7) {
            let from = u.location.clone();
            u.journey = Some(Box::new(crate::systems::overlord::data::Journey {
                from,
                to: to.clone(),
                mode: "walk".into(),
                days: 3,
                elapsed: 1,
                kind: Default::default(),
            }));
        }
        s.units = base;
        let mut s = alpha_copies(s, 64);
        assert!(s.units.len() > super::UNITS_PER_STRETCH);
        let built = |s: &crate::systems::overlord::data::Scenario, threads| {
            Engine::<Overlord>::new(overlord_rules(), s.clone(), threads).map(|e| e.state())
        };
        let one = built(&s, Threads::One).expect("the world builds");
        assert_eq!(one.units.len(), s.units.len());
        assert!(one.units.iter().any(|u| u.journey.is_some()) && one.units.iter().any(|u| u.stack_leader.is_some()));
        // (Compared whole, not printed whole.)
        assert!(built(&s, Threads::Count(2)).expect("the world builds") == one, "the worlds differ");
        // Errors here and there: the same list, in unit order.
        s.units[5].faction = "nobody".into();
        s.units[1500].items.push(crate::systems::overlord::data::ItemHolding("nothing".into(), 1, 0));
        s.units[2000].race = "nothing".into();
        s.units[17_000].location = "nowhere".into();
        s.units[2700].stack_leader = Some("U999999".into());
        let errors = built(&s, Threads::One).expect_err("a bad state");
        let ids: Vec<&str> = [5, 1500, 2000, 17_000, 2700].iter().map(|&i| s.units[i].id.as_str()).collect();
        for (e, id) in errors.iter().zip(&ids) {
            assert!(e.starts_with(&format!("unit {id}:")), "{e}");
        }
        assert_eq!(errors.len(), 5, "{errors:?}");
        assert_eq!(built(&s, Threads::Count(2)).expect_err("a bad state"), errors);
    }

    /// Alpha's units `copies` times over, ids and stack leaders renamed in each
    /// copy but the first.
    fn alpha_copies(
        mut s: crate::systems::overlord::data::Scenario,
        copies: usize,
    ) -> crate::systems::overlord::data::Scenario {
        let base = s.units.clone();
        for k in 1..copies {
            s.units.extend(base.iter().cloned().map(|mut u| {
                u.id = format!("{}x{k}", u.id);
                u.stack_leader = u.stack_leader.map(|l| format!("{l}x{k}"));
                u
            }));
        }
        s
    }

    /// Units are stored in the order the day's passes visit them (SCH-LOC,
    /// SCH-UNIT) in a world of [`super::VISITING_ORDER_FROM`] units or more,
    /// whatever the order of their file, and in report order in a smaller one;
    /// either way they keep their report order: their `Seq`, the directory's
    /// list, the state saved back, the order in which errors are told.
    #[test]
    fn big_worlds_store_units_in_visiting_order_and_keep_report_order() {
        use super::components::{At, Id, Seq, Unit};
        use super::resources::Directory;
        use crate::core::engine::{Engine, Threads};
        use crate::systems::overlord::data::Scenario;
        use crate::systems::overlord::{Overlord, testkit::overlord_rules};
        // (place, inside, report position) of each unit, as a query meets them.
        let stored = |s: &Scenario| {
            let mut e = engine(s.clone());
            let world = e.world_mut();
            let dir: Vec<bevy_ecs::entity::Entity> = world.resource::<Directory>().units().to_vec();
            assert_eq!(dir.len(), s.units.len());
            for (i, (&u, rec)) in dir.iter().zip(&s.units).enumerate() {
                assert_eq!(world.get::<Id>(u).map(|x| x.0.as_str()), Some(rec.id.as_str()));
                assert_eq!(world.get::<Seq>(u).map(|x| x.0), Some(i as u32), "unit {}", rec.id);
            }
            let mut q = world.query_filtered::<(&At, &Seq), bevy_ecs::query::With<Unit>>();
            let met: Vec<(u32, u32, u32)> = q
                .iter(world)
                .map(|(at, seq)| {
                    let place = world.get::<Seq>(at.location).unwrap().0;
                    let inside = at.structure.map_or(0, |st| world.get::<Seq>(st).unwrap().0 + 1);
                    (place, inside, seq.0)
                })
                .collect();
            let ids =
                |units: &[crate::systems::overlord::data::Unit]| units.iter().map(|u| u.id.clone()).collect::<Vec<_>>();
            assert_eq!(ids(&e.state().units), ids(&s.units));
            met
        };
        let mut small = alpha();
        small.orders.clear();
        // Report order other than place order: the file reversed.
        small.units.reverse();
        let met = stored(&small);
        assert!(met.iter().any(|m| m.1 > 0), "the test needs units inside structures");
        assert!(!met.is_sorted(), "the test needs units out of place order");
        assert!(met.is_sorted_by_key(|m| m.2), "a small world's units not stored in report order");

        let copies = super::VISITING_ORDER_FROM.div_ceil(small.units.len());
        let mut big = alpha_copies(small, copies);
        assert!(big.units.len() >= super::VISITING_ORDER_FROM);
        let met = stored(&big);
        assert!(met.is_sorted(), "a big world's units not stored in visiting order");
        // The same world on one thread or two (the place keys are made on the
        // engine's threads).
        let state = |threads| Engine::<Overlord>::new(overlord_rules(), big.clone(), threads).map(|e| e.state());
        let one = state(Threads::One).expect("the world builds");
        assert!(state(Threads::Count(2)).expect("the world builds") == one, "the worlds differ");
        // Errors here and there: told in file order, on one thread or two.
        let n = big.units.len();
        big.units[n - 5].faction = "nobody".into();
        big.units[1500].items.push(crate::systems::overlord::data::ItemHolding("nothing".into(), 1, 0));
        big.units[n / 2].race = "nothing".into();
        big.units[7].location = "nowhere".into();
        big.units[2700].stack_leader = Some("U999999".into());
        let built = |threads| Engine::<Overlord>::new(overlord_rules(), big.clone(), threads).map(|_| ());
        let errors = built(Threads::One).expect_err("a bad state");
        let ids: Vec<&str> = [7, 1500, n / 2, n - 5, 2700].iter().map(|&i| big.units[i].id.as_str()).collect();
        assert_eq!(errors.len(), 5, "{errors:?}");
        for (e, id) in errors.iter().zip(&ids) {
            assert!(e.starts_with(&format!("unit {id}:")), "{e}");
        }
        assert_eq!(built(Threads::Count(2)).expect_err("a bad state"), errors);
    }

    /// A fixed event text is kept as the program's own, not copied per unit; a
    /// made one is kept as made.
    #[test]
    fn a_fixed_event_text_is_not_copied() {
        use std::borrow::Cow;
        let mut e = super::components::Events::default();
        e.push(1, "Refuses to act this month: the faction has too many units to control.");
        e.push(2, format!("Paid {} coins [coin] of upkeep.", 20));
        assert!(matches!(e.0[0].text, Cow::Borrowed(_)));
        assert!(matches!(&e.0[1].text, Cow::Owned(t) if t == "Paid 20 coins [coin] of upkeep."));
    }

    /// Units with the same battle settings share one copy; each gets its own back
    /// when the world is saved, and a unit that changes its settings changes only
    /// its own.
    #[test]
    fn units_share_equal_tactics_and_save_their_own() {
        use super::components::Tactics;
        use crate::systems::overlord::data::CombatTactics;
        let mut s = alpha();
        let t = CombatTactics { stance: "defend".into(), rank: "rear".into(), ..Default::default() };
        for u in &mut s.units[..3] {
            u.tactics = Some(std::sync::Arc::new(t.clone()));
        }
        let mut e = engine(s.clone());
        let dir = e.world().resource::<super::Directory>();
        let (a, b) = (dir.units()[0], dir.units()[2]);
        let of = |w: &bevy_ecs::world::World, u| w.get::<Tactics>(u).unwrap().0.clone().unwrap();
        assert!(std::sync::Arc::ptr_eq(&of(e.world(), a), &of(e.world(), b)));
        let other = CombatTactics { stance: "avoid".into(), ..t.clone() };
        e.world_mut().get_mut::<Tactics>(a).unwrap().0 = Some(other.clone().into());
        let back = e.state();
        assert_eq!(back.units[0].tactics.as_deref(), Some(&other));
        assert_eq!(back.units[1].tactics.as_deref(), Some(&t));
        assert_eq!(back.units[2].tactics.as_deref(), Some(&t));
    }

    /// Every place's [`Occupants`](super::components::Occupants) are the units
    /// whose `At` names it, through moves between places and structures, units
    /// leaving a structure, losing their place and being despawned, at random.
    #[test]
    fn occupants_follow_every_move() {
        use super::components::{At, Occupants, occupants};
        use bevy_ecs::prelude::*;
        use rand::{RngExt, SeedableRng};
        for seed in 0..30u64 {
            let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
            let mut w = World::new();
            let places: Vec<Entity> = (0..rng.random_range(1..6)).map(|_| w.spawn(Occupants::default()).id()).collect();
            let structures: Vec<Entity> =
                (0..rng.random_range(0..4)).map(|_| w.spawn(Occupants::default()).id()).collect();
            let mut units: Vec<Entity> = Vec::new();
            let somewhere = |rng: &mut rand::rngs::ChaCha8Rng| At {
                location: places[rng.random_range(0..places.len())],
                structure: (!structures.is_empty() && rng.random_bool(0.4))
                    .then(|| structures[rng.random_range(0..structures.len())]),
            };
            for _ in 0..400 {
                match rng.random_range(0..6) {
                    0 | 1 => units.push(w.spawn(somewhere(&mut rng)).id()),
                    2 | 3 if !units.is_empty() => {
                        let u = units[rng.random_range(0..units.len())];
                        let at = somewhere(&mut rng);
                        w.entity_mut(u).insert(at);
                    }
                    4 if !units.is_empty() => {
                        let u = units.swap_remove(rng.random_range(0..units.len()));
                        if rng.random_bool(0.5) {
                            w.despawn(u);
                        } else {
                            w.entity_mut(u).remove::<At>();
                        }
                    }
                    _ => {}
                }
                for &p in places.iter().chain(&structures) {
                    let mut want: Vec<Entity> = units
                        .iter()
                        .copied()
                        .filter(|&u| w.get::<At>(u).is_some_and(|a| a.location == p || a.structure == Some(p)))
                        .collect();
                    let mut got = occupants(&w, p).to_vec();
                    want.sort();
                    got.sort();
                    assert_eq!(got, want, "seed {seed}");
                }
            }
        }
    }

    #[test]
    fn a_turn_advances_the_turn_and_the_month() {
        let mut e = engine(alpha());
        e.run_turn(|_, _| {});
        let s = e.state();
        assert_eq!(s.game.turn, 1);
        let (clock, month) = (*e.world().resource::<Clock>(), e.world().resource::<Month>().0);
        assert_eq!((clock.turn, month, clock.tick), (1, 0, 30));
        e.run_turn(|_, _| {});
        let (clock, month) = (*e.world().resource::<Clock>(), e.world().resource::<Month>().0);
        assert_eq!((clock.turn, month), (2, 1));
    }

    #[test]
    fn months_wrap_around_the_calendar() {
        let mut g = alpha().game;
        g.start_month = 10;
        assert_eq!(super::month_of_turn(&g, 12, 0), 10);
        assert_eq!(super::month_of_turn(&g, 12, 1), 10);
        assert_eq!(super::month_of_turn(&g, 12, 3), 0);
    }
}
