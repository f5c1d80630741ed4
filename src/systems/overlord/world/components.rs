//! The components of game entities.
//!
//! Every faction, location, structure and unit of a scenario is an entity. What the
//! day-phase systems read and write often is held in small typed components with
//! interned ids (the *hot* data); what they rarely touch stays in the scenario record
//! the entity was loaded from (the *cold* data: descriptions, market offers, tactics, …).
//!
//! Invariant: a value lives in one place only. Every field a mechanic reads or writes
//! is taken out of the record into a typed component when the world is built, and
//! put back when it is saved ([`super::extract`]). The cold records hold only what
//! no mechanic touches while a turn runs; their contents are private to the world
//! module, so no mechanic can read them.

use super::ids::{EffectId, ItemId, RaceId, SkillId, TerrainId};
use crate::core::data::stances::StanceId;
use crate::systems::overlord::data::{self, Tag};
use bevy_ecs::lifecycle::HookContext;
use bevy_ecs::prelude::*;
use bevy_ecs::world::DeferredWorld;

/// A stable position in the report order of entities of one kind: the order of the
/// scenario files. Systems that must visit entities in a fixed order sort by it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seq(pub u32);

/// The scenario id of an entity (`"U12"`, `"L3"`, `"f01"`, `"B2"`).
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct Id(pub Tag);

/// A display name.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct DisplayName(pub String);

// ------------------------------------------------------------------ factions

/// Marks a faction entity; holds the part of its record no mechanic touches.
#[derive(Component, Debug, Clone)]
#[require(FactionRole, Contact, FactionSettings, KnownSkills, Known, Reshow, Learnt, Explored)]
pub struct Faction(pub(in crate::systems::overlord::world) data::Faction);

impl Faction {
    /// The stance the faction takes toward a faction that attacks it (NPC-IMP), as
    /// the data names it; read after battles only.
    pub fn provoked(&self) -> Option<&str> {
        self.0.provoked.as_deref()
    }

    /// The skills that keep the faction from attacking a stack on sight (NPC-CRE).
    pub fn spared_by(&self) -> &[String] {
        &self.0.spared_by
    }
}

/// The places a faction's units have been to, by location index (the location's
/// [`Seq`]): the map's memory (`overlord map`). Grows at each month's end.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Explored(pub std::collections::BTreeSet<u32>);

/// What a faction is (FAC-*; no order changes it): a non-player faction, the
/// faction of wild creatures (FAC-RESIGN), one that takes resignations.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FactionRole {
    /// Run by the engine or the game master.
    pub npc: bool,
    /// Creature units of resigning factions, and lone creatures, go to it.
    pub creatures: bool,
    /// Other factions may RESIGN in its favour.
    pub takes_resignations: bool,
    /// It holds the faction of the Overlord as an ally (TTL-OVERLORD).
    pub serves_overlord: bool,
}

/// A faction that needs more control points than it has, by this many; set by the
/// control-point check for the rest of the month (CP-IDLE, CP-BATTLE).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[component(storage = "SparseSet")]
pub struct OverControl(pub u64);

/// A faction that lost its last unit (UNIT-FACTION-DEATH).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[component(storage = "SparseSet")]
pub struct Destroyed;

/// How a faction's player is reached: the password of its order files and the
/// address of its reports (PASSWORD, EMAIL).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Contact {
    /// Password for order files.
    pub password: String,
    /// Where reports are mailed.
    pub email: String,
}

/// Faction-wide settings (FAC-SETTING): the default of every unit of the faction.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct FactionSettings(pub data::FactionSettings);

/// Skills the faction knows, with the highest level it has seen described, in the
/// order learnt (SKL-AUTOPRE, RPT-KNOW).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct KnownSkills(pub Vec<(SkillId, u32)>);

impl KnownSkills {
    /// The highest level of skill `s` the faction has seen described (0: unknown).
    pub fn level(&self, s: SkillId) -> u32 {
        self.0.iter().find(|k| k.0 == s).map_or(0, |k| k.1)
    }
}

/// A record of the rule set, other than a skill's level, a faction may know
/// (RPT-KNOW): it is described in the faction's report the first time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Topic {
    /// An item of `items.ron`.
    Item(ItemId),
    /// A race of `races.ron`.
    Race(RaceId),
    /// A construction of `constructions.ron`, by index.
    Construction(u32),
    /// An enchantment of `enchantments.ron`.
    Enchantment(EffectId),
}

/// What a faction knows of the rule set besides its skills (RPT-KNOW): items,
/// races, constructions and enchantments, and the tags of other records its saved
/// knowledge lists (terrains, titles…), kept as written; in the order learnt.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Known {
    list: Vec<Result<Topic, Tag>>,
    topics: TopicSet,
}

/// A set of topics as bits: one row of words for each kind of [`Topic`], in its
/// order, so that a faction's month of sightings costs a bit each, and the set is
/// read in [`Topic`]'s order. Topics are only ever added: two sets holding the
/// same topics have rows of the same lengths, and compare equal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TopicSet([Vec<u64>; 4]);

impl TopicSet {
    fn slot(t: Topic) -> (usize, usize) {
        match t {
            Topic::Item(i) => (0, i.index()),
            Topic::Race(r) => (1, r.index()),
            Topic::Construction(c) => (2, c as usize),
            Topic::Enchantment(e) => (3, e.index()),
        }
    }
    fn topic(kind: usize, i: usize) -> Topic {
        match kind {
            0 => Topic::Item(ItemId(i as u16)),
            1 => Topic::Race(RaceId(i as u16)),
            2 => Topic::Construction(i as u32),
            _ => Topic::Enchantment(EffectId(i as u16)),
        }
    }
    /// Whether `t` is in the set.
    pub fn contains(&self, t: Topic) -> bool {
        let (kind, i) = Self::slot(t);
        self.0[kind].get(i / 64).is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }
    /// Adds `t`; false if it was there.
    pub fn insert(&mut self, t: Topic) -> bool {
        let (kind, i) = Self::slot(t);
        let row = &mut self.0[kind];
        if i / 64 >= row.len() {
            row.resize(i / 64 + 1, 0);
        }
        let (word, bit) = (&mut row[i / 64], 1u64 << (i % 64));
        let new = *word & bit == 0;
        *word |= bit;
        new
    }
    /// Adds every topic of `ts`.
    pub fn extend(&mut self, ts: impl IntoIterator<Item = Topic>) {
        for t in ts {
            self.insert(t);
        }
    }
    /// The topics, in [`Topic`]'s order.
    pub fn iter(&self) -> impl Iterator<Item = Topic> + '_ {
        self.0.iter().enumerate().flat_map(|(kind, row)| {
            // The set bits of each word, lowest first, one step each.
            row.iter().enumerate().flat_map(move |(w, &word)| {
                std::iter::successors(Some(word).filter(|&x| x != 0), |&x| Some(x & (x - 1)).filter(|&x| x != 0))
                    .map(move |x| Self::topic(kind, w * 64 + x.trailing_zeros() as usize))
            })
        })
    }
}

impl Known {
    /// Whether the faction knows `t`.
    pub fn knows(&self, t: Topic) -> bool {
        self.topics.contains(t)
    }
    /// Learns `t`; false if it was known.
    pub fn learn(&mut self, t: Topic) -> bool {
        let new = self.topics.insert(t);
        if new {
            self.list.push(Ok(t));
        }
        new
    }
    /// Keeps the tag of a record no topic stands for.
    pub fn keep(&mut self, tag: Tag) {
        self.list.push(Err(tag));
    }
    /// What the faction knows, in the order learnt: records, and tags kept.
    pub fn list(&self) -> &[Result<Topic, Tag>] {
        &self.list
    }
    /// The records it knows, sorted.
    pub fn topics(&self) -> impl Iterator<Item = Topic> + '_ {
        self.topics.iter()
    }
}

/// One piece of knowledge a report describes: a record, or levels of a skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Lesson {
    /// A record.
    Topic(Topic),
    /// Levels `from..=to` of a skill.
    Skill(SkillId, u32, u32),
}

/// What a faction learnt this month, and what it asked to be shown again (RESHOW),
/// for its report (RPT-KNOW, FAC-RESHOW). Not saved: the knowledge step sets it.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Learnt {
    /// Learnt for the first time, in report order.
    pub new: Vec<Lesson>,
    /// Shown again on request, in report order.
    pub again: Vec<Lesson>,
}

/// What a faction asked to see again this month (FAC-RESHOW), until the knowledge
/// step answers.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Reshow(pub Vec<Lesson>);

/// A faction's stances (§7): its default stance and its explicit stances toward
/// other factions, sorted by faction. Changed by STANCE; read through the
/// diplomacy mechanic.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Diplomacy {
    /// The stance toward factions without an explicit one (DIP-DEFAULT).
    pub default: Option<StanceId>,
    /// Explicit stances, sorted by faction entity.
    pub toward: Vec<(Entity, StanceId)>,
    /// Explicit stances toward faction ids no faction of the world has, kept as the
    /// data gives them so that saving loses nothing.
    pub unknown: Vec<(Tag, StanceId)>,
}

impl Diplomacy {
    /// The stance held toward faction `f`: the explicit one, else the default.
    pub fn toward(&self, f: Entity) -> Option<StanceId> {
        match self.toward.binary_search_by_key(&f, |x| x.0) {
            Ok(i) => Some(self.toward[i].1),
            Err(_) => self.default,
        }
    }
    /// Sets the explicit stance toward faction `f`.
    pub fn set(&mut self, f: Entity, s: StanceId) {
        match self.toward.binary_search_by_key(&f, |x| x.0) {
            Ok(i) => self.toward[i].1 = s,
            Err(i) => self.toward.insert(i, (f, s)),
        }
    }
}

/// A faction's funds: coins and items, by item id, sorted by id.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Funds(pub Vec<(ItemId, u64)>);

// ------------------------------------------------------------------ locations

/// Marks a location entity; holds the part of its record no mechanic touches:
/// only those fields, not the whole record with its taken fields left empty (a
/// place's row would be 488 bytes longer: at 200,000 places, about 100 MB).
#[derive(Component, Debug, Clone)]
#[require(Occupants)]
pub struct Location(pub(in crate::systems::overlord::world) ColdLocation);

/// The fields of a location's record that no mechanic touches (see
/// [`super::build`], which names every field of the record).
#[derive(Debug, Clone, Default)]
pub struct ColdLocation {
    pub(in crate::systems::overlord::world) hex: Option<(i32, i32)>,
    pub(in crate::systems::overlord::world) policy: String,
    pub(in crate::systems::overlord::world) economy: u32,
    pub(in crate::systems::overlord::world) land: u32,
}

impl Location {
    /// The land's ownership policy (OWN-POLICY; only the default, `"neutral"`, is
    /// played: the owner's stances decide).
    pub fn policy(&self) -> &str {
        &self.0.policy
    }
}

/// Where a location lies: a territory, or an inner location inside `container`
/// (LOC-INNER).
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Within {
    /// Whether it is an inner location.
    pub inner: bool,
    /// The location it lies in.
    pub container: Option<Entity>,
}

/// A location's exits, in the order reports list them (MOV-DEST).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Exits(pub Vec<Exit>);

/// One exit of a location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    /// Its direction: index in the rule set's directions.
    pub dir: usize,
    /// Where it leads.
    pub to: Entity,
    /// The only movement mode it allows, if it names one (index in the modes).
    pub mode: Option<usize>,
    /// Its own travel days, if it names them.
    pub days: Option<u32>,
}

/// A location's weather (index in the rule set's weathers): during a turn the
/// weather of the month played; after the month's end, the next month's.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Weather(pub Option<usize>);

/// Wages paid for a day of work, per figure (CASH-WORK).
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wages(pub u32);

/// The titles attached to a location (title index in the rule set) and their
/// holders' unit ids.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Titles(pub Vec<(usize, Option<Tag>)>);

/// The legal owner of a location's land: the faction, and the location of the
/// title that grants it.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct LandOwner(pub Option<(Entity, Option<Tag>)>);

/// Items lying on the ground of a location, in the order the data lists them.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Ground(pub Vec<(ItemId, u32)>);

/// A location's natural resources: what is left this month and its monthly amount.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Resources(pub Vec<Stock>);

/// One natural resource of a location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stock {
    /// The item.
    pub item: ItemId,
    /// Amount left this month.
    pub current: u32,
    /// Amount available in a normal month.
    pub max: u32,
}

/// Figures offered for recruiting this month (REC-OFFER).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Recruits(pub Vec<Offer>);

/// One offer of recruits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offer {
    /// The race.
    pub race: RaceId,
    /// Figures left this month.
    pub count: u32,
    /// Price per figure.
    pub price: u32,
    /// Figures hired this month (REC-DRIFT).
    pub hired: u32,
}

/// The day a leader last asked for recruits: it cannot move that day, as its
/// recruits join at the day's end (ORD-RECRUIT). Not saved: it matters for one day.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[component(storage = "SparseSet")]
pub struct Hiring(pub u32);

/// A location's market (MKT-EXIST): what the place itself sells and buys this
/// month, and the days it clears (empty: the rule set's market days).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Market {
    /// Goods the place sells to units.
    pub sells: Vec<Good>,
    /// Goods the place buys from units.
    pub buys: Vec<Good>,
    /// Days of the month the market clears.
    pub days: Vec<u32>,
}

/// One standing offer of a market.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Good {
    /// The item.
    pub item: ItemId,
    /// Quantity per month.
    pub quantity: u32,
    /// Price per item.
    pub price: u32,
    /// How many of the month's quantity have been traded.
    pub traded: u32,
}

impl Good {
    /// What is left of the month's quantity.
    pub fn left(&self) -> u32 {
        self.quantity.saturating_sub(self.traded)
    }
}

/// What moves a place's population month by month (POP-OPTIMA, POP-FAMINE): the
/// hidden shift of its optimum (points of %), the plague's days, and the tax money
/// stored there.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Livelihood {
    /// Points of % the optimum stands above or below its terrain's and structures'.
    pub optimum_shift: i32,
    /// Days since the plague broke out, while it lasts.
    pub plague: Option<u32>,
    /// Tax money stored here (MKT-PAY's spread).
    pub tax_pool: u64,
}

/// Skills taught in a location, up to a level (LOC-TEACH).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Teaches(pub Vec<(SkillId, u32)>);

/// A location's terrain.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terrain(pub TerrainId);

/// A location's population.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Population(pub u32);

// ------------------------------------------------------------------ structures

/// Marks a structure (building or vessel); holds the part of its record no mechanic
/// touches.
#[derive(Component, Debug, Clone)]
#[require(Missing, StructureOwner, Occupants)]
pub struct Structure(pub(in crate::systems::overlord::world) data::Structure);

/// Works still missing before a structure is complete: work index in the rule
/// set's construction works, and how many; empty when complete (STR-WORK).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Missing(pub Vec<(usize, u32)>);

impl Missing {
    /// Whether the structure is complete.
    pub fn complete(&self) -> bool {
        self.0.is_empty()
    }
}

/// The faction that owns a structure (STR-OWNER).
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StructureOwner(pub Option<Entity>);

/// Where a structure stands.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct StructureAt(pub Entity);

/// A structure's construction: its index in `constructions.ron`.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct StructureKind(pub usize);

// ------------------------------------------------------------------ units

/// Marks a unit. Its record lives in the components beside it, every field of
/// it: no copy of the scenario's record is kept while the month runs
/// ([`super::extract`] puts the record together again).
#[derive(Component, Debug, Clone, Copy, Default)]
#[require(UnitSettings, SkillTarget, Description, Tactics, CombatOrders)]
pub struct Unit;

/// A unit's switches (SET-*).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct UnitSettings(pub data::UnitSettings);

/// What the unit's skills aim at, as set by TARGET or BUILD (ORD-TARGET): a
/// construction tag to start, a structure, unit, location or faction id.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct SkillTarget(pub Option<Tag>);

/// A unit's description (DESCRIBE).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Description(pub String);

/// A unit's battle settings (TACTIC). Shared: units with the same settings hold
/// one copy (most units of a world have one of a few), where each unit's own would
/// be four strings (about 160 bytes a unit).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Tactics(pub Option<std::sync::Arc<data::CombatTactics>>);

/// A unit's combat actions (COMBAT).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct CombatOrders(pub Vec<String>);

/// The faction a unit belongs to.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner(pub Entity);

/// A unit's race.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Race(pub RaceId);

/// Number of figures in a unit.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figures(pub u32);

/// Where a unit is: its location, and the structure it is inside, if any.
///
/// Immutable: a unit moves by inserting a new value, so that the [`Occupants`] of
/// its places follow (the hooks below keep them in step).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[component(immutable, on_insert = At::arrived, on_discard = At::left)]
pub struct At {
    /// The location entity.
    pub location: Entity,
    /// The structure entity, if the unit is inside one.
    pub structure: Option<Entity>,
}

impl At {
    /// The location and the structure, if any.
    fn places(self) -> impl Iterator<Item = Entity> {
        std::iter::once(self.location).chain(self.structure)
    }
    fn arrived(mut world: DeferredWorld, ctx: HookContext) {
        let Some(&at) = world.get::<At>(ctx.entity) else { return };
        for p in at.places() {
            if let Some(mut o) = world.get_mut::<Occupants>(p) {
                o.units.push(ctx.entity);
                o.note_change();
            }
        }
    }
    fn left(mut world: DeferredWorld, ctx: HookContext) {
        let Some(&at) = world.get::<At>(ctx.entity) else { return };
        for p in at.places() {
            if let Some(mut o) = world.get_mut::<Occupants>(p) {
                o.units.retain(|&x| x != ctx.entity);
                o.note_change();
            }
        }
    }
}

/// The units whose [`At`] names this location or structure, in the order they
/// came (units on a journey are still where they set out from until they arrive).
/// Kept by [`At`]'s hooks; read-only elsewhere. For what a mechanic asks of one
/// place (the owner of a structure, a faction's first unit here), so that it reads
/// the units there and not every unit of the world.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Occupants {
    units: Vec<Entity>,
    /// See [`Occupants::changes`].
    changes: u32,
}

impl Occupants {
    /// The units, in the order they came.
    pub fn get(&self) -> &[Entity] {
        &self.units
    }
    /// How many times what the units here are has changed, as far as who sees
    /// what here goes (a count that only grows, wrapping): a unit came or left,
    /// set out on a journey or ended one, changed faction or observation. What is
    /// reckoned from a place's units (the factions' watch there) is reckoned again
    /// when this changes.
    pub fn changes(&self) -> u32 {
        self.changes
    }
    /// Notes a change here (see [`Occupants::changes`]).
    pub fn note_change(&mut self) {
        self.changes = self.changes.wrapping_add(1);
    }
}

/// Notes a change of unit `u` at its location (see [`Occupants::changes`]): it
/// set out or ended a journey, changed faction or observation.
pub fn changed_here(world: &mut DeferredWorld, u: Entity) {
    let Some(&at) = world.get::<At>(u) else { return };
    if let Some(mut o) = world.get_mut::<Occupants>(at.location) {
        o.note_change();
    }
}

/// The units at location or structure `place` (none for an entity that is neither).
pub fn occupants(world: &World, place: Entity) -> &[Entity] {
    world.get::<Occupants>(place).map_or(&[], Occupants::get)
}

/// The unit this unit is stacked under, if any.
///
/// Immutable: change it by inserting a new value, so that the leader's
/// [`StackMembers`] follow (the hooks below keep them in step).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[component(immutable, on_insert = StackLeader::joined, on_discard = StackLeader::left)]
#[require(StackMembers)]
pub struct StackLeader(pub Option<Entity>);

impl StackLeader {
    fn joined(mut world: DeferredWorld, ctx: HookContext) {
        let Some(l) = world.get::<StackLeader>(ctx.entity).and_then(|s| s.0) else { return };
        if let Some(mut m) = world.get_mut::<StackMembers>(l) {
            m.0.push(ctx.entity);
        }
    }
    fn left(mut world: DeferredWorld, ctx: HookContext) {
        let Some(l) = world.get::<StackLeader>(ctx.entity).and_then(|s| s.0) else { return };
        if let Some(mut m) = world.get_mut::<StackMembers>(l) {
            m.0.retain(|&x| x != ctx.entity);
        }
    }
}

/// The units stacked directly under this one, in the order they joined (the
/// earliest first). Kept by [`StackLeader`]'s hooks; read-only elsewhere.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct StackMembers(Vec<Entity>);

impl StackMembers {
    /// The members, earliest first.
    pub fn get(&self) -> &[Entity] {
        &self.0
    }
}

/// The top of the stack `u` is in: its leader's leader, and so on (STK-*: a stack
/// within a stack is one stack).
pub fn stack_top(world: &World, mut u: Entity) -> Entity {
    while let Some(l) = world.get::<StackLeader>(u).and_then(|x| x.0) {
        u = l;
    }
    u
}

/// Unit `u` and every unit stacked under it at any depth: `u` first, then each
/// member followed by its own substack, members in the order they joined.
pub fn substack(world: &World, u: Entity) -> Vec<Entity> {
    let mut out = Vec::new();
    let mut todo = vec![u];
    while let Some(x) = todo.pop() {
        out.push(x);
        if let Some(m) = world.get::<StackMembers>(x) {
            todo.extend(m.0.iter().rev());
        }
    }
    out
}

/// One kind of item a unit holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holding {
    /// The item.
    pub item: ItemId,
    /// How many are held.
    pub count: u32,
    /// How many of those are equipped.
    pub equipped: u32,
}

/// What a unit holds, in the order the items were acquired.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Inventory(pub Vec<Holding>);

impl Inventory {
    /// How many of `item` the unit holds.
    pub fn count(&self, item: ItemId) -> u32 {
        self.0.iter().find(|h| h.item == item).map_or(0, |h| h.count)
    }
}

/// A unit's experience per skill, in experience points, in the order learnt.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Skills(pub Vec<(SkillId, u32)>);

impl Skills {
    /// The unit's level in `skill` (0: not known).
    pub fn level(&self, catalog: &super::ids::Catalog, skill: SkillId) -> u32 {
        self.0.iter().find(|x| x.0 == skill).map_or(0, |x| catalog.skill_level(skill, x.1))
    }
}

/// A unit's work in progress: the skill used and the work done towards the next
/// batch, in hundredths of a figure-day.
#[derive(Component, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Production(pub Option<(SkillId, u32)>);

/// Enchantments on a unit, a location or a structure and the days each has left, in
/// the order received (ITM-ENCH). A unit is under its own and those of its place and
/// of the structure it is inside ([`super::under`]).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects(pub Vec<(EffectId, u32)>);

impl Effects {
    /// Whether the unit is under effect `e`.
    pub fn has(&self, e: EffectId) -> bool {
        self.0.iter().any(|x| x.0 == e)
    }
    /// Puts effect `e` on for `days`, or extends it to `days` if it is shorter.
    pub fn set(&mut self, e: EffectId, days: u32) {
        match self.0.iter_mut().find(|x| x.0 == e) {
            Some(x) => x.1 = x.1.max(days),
            None => self.0.push((e, days)),
        }
    }
}

/// A unit's pending orders, typed, in list order (see [`crate::systems::overlord::orders::queue`]).
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Orders(pub Vec<crate::systems::overlord::orders::queue::Queued>);

/// A unit that refuses to act for the rest of the month (CP-IDLE): it runs no
/// orders. Added by the control-point check, removed when the month starts.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[component(storage = "SparseSet")]
pub struct Refusing;

/// A unit on a journey (MOV-BUSY, SCH-MOVING): it runs no orders and cannot be
/// dealt with until it arrives. Every unit of a moving stack has its own copy; its
/// [`At`] is where it is seen: `from` for the first half of the journey (rounded
/// down), then `to` (MOV-HALF). Added and removed by the movement mechanic.
///
/// Setting out and arriving change how the unit watches where it is seen
/// (VIS-MOVE-OBS): the hooks note it there ([`changed_here`]).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[component(storage = "SparseSet", on_insert = Journey::noted, on_discard = Journey::noted)]
pub struct Journey {
    /// Where the journey started.
    pub from: Entity,
    /// Where it ends.
    pub to: Entity,
    /// The movement mode: index in the rule set's modes.
    pub mode: usize,
    /// Days the journey takes.
    pub days: u32,
    /// Days already travelled.
    pub elapsed: u32,
    /// A plain move, a march or a retreat.
    pub kind: data::JourneyKind,
}

impl Journey {
    fn noted(mut world: DeferredWorld, ctx: HookContext) {
        changed_here(&mut world, ctx.entity);
    }
    /// The day of the journey from which the unit is seen at its destination:
    /// after `percent` % of its days, rounded down (MOV-HALF: the rule set's
    /// `journey_seen_percent`).
    pub fn seen_from(&self, percent: u32) -> u32 {
        (u64::from(self.days) * u64::from(percent) / 100) as u32
    }
}

/// A unit on guard (GUARD, PATROL): the last day its guard order ran. On that day
/// its full-day order works at half efficiency (GRD-HALF).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[component(storage = "SparseSet")]
pub struct OnGuard(pub u32);

/// Something that happened to an entity, dated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Day of the month (0: before day 1).
    pub day: u32,
    /// What happened, as the report prints it: a fixed text is not copied for
    /// every unit it happens to (at a million units, half a million units may
    /// refuse to act in one month).
    pub text: std::borrow::Cow<'static, str>,
}

/// The dated events of a unit or faction this month, in the order they happened.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Events(pub Vec<Event>);

impl Events {
    /// Records an event.
    pub fn push(&mut self, day: u32, text: impl Into<std::borrow::Cow<'static, str>>) {
        self.0.push(Event { day, text: text.into() });
    }
}
