//! The report model: everything a faction's report says, as plain data. The text and
//! JSON renderers read only this. Field names are those of the JSON report.

use serde::{Deserialize, Serialize};

/// One faction's report for one turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactionReport {
    /// Game name.
    pub game: String,
    /// Turn number (0: the starting position).
    pub turn: u32,
    /// Name of the month the turn was played in.
    pub month: String,
    /// Its season's name (CLI-REPORT).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub season: String,
    /// Name of the coming month.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub next_month: String,
    /// Its season's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub next_season: String,
    /// Deadline for the next orders, as the GM wrote it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub deadline: String,
    /// The faction.
    pub faction: FactionInfo,
    /// Faction-wide events, by day.
    pub events: Vec<EventRecord>,
    /// The faction's units, in report order.
    pub units: Vec<UnitRecord>,
    /// Its units that left it this month (died, disbanded, deserted, merged into
    /// another unit, went to another faction), as they were when they left, in the
    /// order they left (RPT-UNIT, RPT-XFER).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub departed: Vec<DepartedRecord>,
    /// Locations where the faction has units, in report order.
    pub locations: Vec<LocationRecord>,
    /// Places its units were at during the month but left (RPT-LOC "each location
    /// where the faction was"), in report order: what is seen passing through.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passed: Vec<PassedRecord>,
    /// Structures and vessels the faction owns, wherever they are, in report order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub structures: Vec<StructureRecord>,
    /// The battles its units fought or watched this month, in the order fought
    /// (CMB-REPORT): each cut to what the faction may see.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battles: Vec<crate::systems::overlord::mechanics::combat::record::BattleRecord>,
    /// What the faction learnt of the rules this month, described in full, then what
    /// it asked to see again (RPT-KNOW, FAC-RESHOW): items, skills (one record per
    /// level), races, structures, enchantments, each kind in the rule set's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub knowledge: Vec<KnowledgeRecord>,
}

impl FactionReport {
    /// How many units the report lists at its locations (the faction's own among
    /// them): with its units and locations, what the size of a rendered report
    /// follows, so that the renderers allocate their output once.
    pub fn units_seen(&self) -> usize {
        self.locations.iter().map(|l| l.units.len()).sum()
    }
}

/// A record of the rule set, described (RPT-KNOW).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnowledgeRecord {
    /// `item`, `skill`, `race`, `structure` or `enchantment`.
    pub kind: String,
    /// Its tag.
    pub tag: String,
    /// Its name.
    pub name: String,
    /// For a skill, the level described.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// The description: the record's text and what its numbers mean.
    pub text: String,
    /// Shown again at the faction's request (RESHOW), not learnt this month.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub again: bool,
}

/// A structure or vessel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureRecord {
    /// Structure id.
    pub id: String,
    /// Its name (the construction's name until christened).
    pub name: String,
    /// Construction tag.
    pub kind: String,
    /// Location it stands in.
    pub location: String,
    /// Owning faction's id.
    pub owner: Option<String>,
    /// Whether it is a vessel (it moves with its captain).
    pub vessel: bool,
    /// Works still missing, by work tag; empty when complete.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub missing: TagMap<u32>,
    /// Enchantments on the structure, by tag: the days left (ITM-ENCH); the units
    /// inside are under them.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub enchantments: TagMap<u32>,
    /// Its own structures only (RPT-STRUCT): the ids of the units inside that the
    /// faction sees, in report order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contents: Vec<String>,
    /// Its own vessels only (RPT-STRUCT): the weight of all units aboard and what
    /// they carry, rounded down (a stowaway is felt in it, VIS-SEE).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<u64>,
    /// Its own vessels only: what the vessel carries per movement mode tag.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub capacity: TagMap<u64>,
}

/// The faction itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactionInfo {
    /// Faction id.
    pub id: String,
    /// Faction name.
    pub name: String,
    /// Where reports are sent.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub email: String,
    /// Faction funds: coins and items, by item tag.
    pub funds: TagMap<u64>,
    /// Control points used by the faction's units, and the most it may use.
    pub control: ControlRecord,
    /// Titles its units hold, in location order (TTL-CLAIM, TTL-CP).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub titles: Vec<HeldTitleRecord>,
    /// Taxes its lands paid it this month, in the money item (OWN-TAX).
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub taxes: u64,
    /// Its stances, and the stances toward it it could learn (RPT-DIPLO).
    pub diplomacy: DiplomacyRecord,
}

/// A title one of the faction's units holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldTitleRecord {
    /// Title tag.
    pub tag: String,
    /// Title name.
    pub name: String,
    /// The location the title belongs to (id).
    pub location: String,
    /// That location's name.
    pub location_name: String,
    /// The holder's unit id.
    pub holder: String,
    /// The holder's name.
    pub holder_name: String,
}

/// A faction's stances (RPT-DIPLO, DIP-PRIVATE).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct DiplomacyRecord {
    /// Its default stance (tag).
    pub default: String,
    /// Its explicit stances, by faction id.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub stances: TagMap<String>,
    /// Other factions' stances toward it, by faction id, as their units on guard
    /// showed them at the end of the month (rulings 11: the only way to learn them).
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub toward_us: TagMap<String>,
}

/// Control points (§11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ControlRecord {
    /// Used by the faction's units.
    pub used: u64,
    /// The most the faction may use: the starting allowance and its titles'.
    pub max: u64,
}

/// A dated event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRecord {
    /// Day of the month (0: before day 1).
    pub day: u32,
    /// What happened.
    pub text: String,
}

/// Count and equipped count of one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemRecord {
    /// How many are held.
    pub count: u32,
    /// How many are equipped.
    pub equipped: u32,
}

/// Experience in one skill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillRecord {
    /// Days of experience.
    pub days: u32,
    /// Level reached (0: not yet the first).
    pub level: u32,
}

/// A unit's statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct StatsRecord {
    /// Initiative.
    pub initiative: i32,
    /// Melee attack.
    pub melee: i32,
    /// Defense.
    pub defense: i32,
    /// Missile attack.
    pub missile: i32,
    /// Damage of a melee hit.
    pub damage: i32,
    /// Damage of a ranged hit.
    pub ranged_damage: i32,
    /// Life of each figure.
    pub life: i32,
    /// Strikes per round.
    pub hits: i32,
    /// Stealth.
    pub stealth: i32,
    /// Observation.
    pub observation: i32,
    /// Maximum mana.
    pub mana: i32,
    /// Control points the unit uses.
    pub control: i32,
    /// Upkeep per month, in coins.
    pub upkeep: i32,
}

/// One of the faction's own units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitRecord {
    /// Unit id.
    pub id: String,
    /// Unit name.
    pub name: String,
    /// Owning faction id.
    pub faction: String,
    /// Location id.
    pub location: String,
    /// Structure id, if inside one.
    pub structure: Option<String>,
    /// Race tag.
    pub race: Tag,
    /// Number of figures.
    pub figures: u32,
    /// Id of the unit this one is stacked under.
    pub stack_leader: Option<String>,
    /// Items by tag.
    pub items: TagMap<ItemRecord>,
    /// Skills by tag.
    pub skills: TagMap<SkillRecord>,
    /// Weight, rounded down (UNIT-WEIGHT).
    pub weight: u64,
    /// Capacity per movement mode tag (UNIT-CAP).
    pub capacity: TagMap<u64>,
    /// Statistics (UNIT-STATS): per figure, and the unit's control points and upkeep.
    pub stats: StatsRecord,
    /// Enchantments on the unit (ITM-ENCH), by tag: the days left; hidden ones are
    /// not listed.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub enchantments: TagMap<u32>,
    /// The journey the unit is on, if it is travelling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub journey: Option<JourneyRecord>,
    /// Pending orders, as written.
    pub orders: Vec<String>,
    /// What the unit did this month, by day.
    pub events: Vec<EventRecord>,
}

/// A unit that left the faction this month, as it was when it left.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepartedRecord {
    /// Unit id.
    pub id: String,
    /// Unit name.
    pub name: String,
    /// Race tag.
    pub race: String,
    /// Figures when it left.
    pub figures: u32,
    /// The location it was in, if any.
    pub location: Option<String>,
    /// The day it left.
    pub day: u32,
    /// What it held, by item tag.
    pub items: TagMap<ItemRecord>,
    /// Its skills, by tag.
    pub skills: TagMap<SkillRecord>,
    /// What it did this month, by day, to the last (which says why it left).
    pub events: Vec<EventRecord>,
}

/// A journey under way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JourneyRecord {
    /// Location id it set out from.
    pub from: String,
    /// Location id it is going to.
    pub to: String,
    /// Movement mode tag.
    pub mode: String,
    /// Days the journey takes.
    pub days: u32,
    /// Days travelled so far.
    pub elapsed: u32,
    /// `move`, `march` or `retreat`.
    pub kind: String,
}

/// An exit of a location, with its travel days for the coming month.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitRecord {
    /// Direction tag.
    pub dir: String,
    /// Location id it leads to.
    pub to: String,
    /// That location's name.
    pub to_name: String,
    /// Days per movement mode tag, under the coming month's weather; modes that
    /// cannot go that way are left out.
    pub days: TagMap<u32>,
}

/// A unit seen in a location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeenUnit {
    /// Unit id.
    pub id: String,
    /// Unit name.
    pub name: String,
    /// Faction id, when the observer knows it (VIS-FACTION): its own units, units
    /// that advertise their faction (SET-ADVERTISE), units on guard (GRD-SHOW),
    /// title holders, and units whose stealth its observation beats by the rule
    /// set's `sight.faction_margin`.
    pub faction: Option<String>,
    /// Race tag.
    pub race: Tag,
    /// Number of figures.
    pub figures: u32,
    /// Structure id, if inside one.
    pub structure: Option<String>,
    /// Id of the unit it is stacked under.
    pub stack_leader: Option<String>,
    /// Whether it is one of the observer's units.
    pub own: bool,
    /// Whether it is travelling (seen on its way, MOV-HALF).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub moving: bool,
    /// For another faction's unit on guard at month end: the stance tag its faction
    /// holds toward the observer (GRD-SHOW).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard_stance: Option<String>,
    /// Of another faction's unit: the items that weigh something, by tag, with their
    /// counts (VIS-ITEMS: weightless ones, coins, are never shown). Empty for the
    /// observer's own units, listed in full with them.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub items: TagMap<u32>,
}

/// A count of an item or race, with a price where there is one: an offer of
/// recruits, a market good, a resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfferRecord {
    /// Item or race tag.
    pub tag: Tag,
    /// Its name for this count (singular or plural).
    pub name: Tag,
    /// How many.
    pub count: u32,
    /// Price of one; absent for resources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<u32>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A title a location bears (TTL-CLAIM).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TitleRecord {
    /// Title tag.
    pub tag: String,
    /// Title name.
    pub name: String,
    /// Its holder, `Name [id]`; absent when unclaimed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<String>,
    /// The holder's faction's id (as units show theirs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faction: Option<String>,
}

/// A location where the faction has units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocationRecord {
    /// Location id.
    pub id: String,
    /// The days of the month the faction's units were here: the first and last day
    /// of each stay, stays that touch merged. Absent when they were here the whole
    /// month, or no month was played (turn 0, a join).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub days: Vec<[u32; 2]>,
    /// Location name.
    pub name: String,
    /// Terrain tag.
    pub terrain: String,
    /// Population.
    pub population: u32,
    /// The location it lies inside, for inner locations.
    pub container: Option<String>,
    /// Weather tag during the month just played (CLI-REPORT).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weather: Option<String>,
    /// Weather tag of the coming month.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forecast: Option<String>,
    /// Exits, in data order, with travel days for the coming month (MOV-RATE).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exits: Vec<ExitRecord>,
    /// Wages of a day of work, per figure (CASH-WORK, POP-ECON); 0 where none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub wages: u32,
    /// A month's taxes of the place in the coming month (OWN-TAX); 0 where none.
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub taxes: u64,
    /// The titles the place bears, each with its holder and the holder's faction
    /// (TTL-CLAIM: always shown).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub titles: Vec<TitleRecord>,
    /// The id of the faction owning the land (OWN-LEGAL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// The owner's policy, for an owned place (OWN-POLICY: `"neutral"`, the default
    /// policy, where the owner's stances decide who may trade, recruit, harvest,
    /// enter and pillage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<String>,
    /// The id of the faction occupying it at month end (OWN-OCCUPY).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occupier: Option<String>,
    /// Recruits on offer for the coming month (REC-OFFER).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recruits: Vec<OfferRecord>,
    /// What the place's market sells to units, this coming month (MKT-EXIST).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub for_sale: Vec<OfferRecord>,
    /// What the place's market buys from units.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buying: Vec<OfferRecord>,
    /// The days of the month the market clears (MKT-DAYS).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub market_days: Vec<u32>,
    /// Skills the place teaches, up to a level (LOC-TEACH, RPT-LOC): by tag, the
    /// highest level a unit may study to here.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub teaches: TagMap<u32>,
    /// Resources to harvest in the coming month (RES-LIST); hidden ones only where
    /// one of the faction's units present can find them (RES-HIDDEN).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<OfferRecord>,
    /// Enchantments on the place, by tag: the days left (ITM-ENCH); every unit here
    /// is under them.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub enchantments: TagMap<u32>,
    /// Units present at month end that the faction's units see (VIS-SEE), in
    /// report order.
    pub units: Vec<SeenUnit>,
    /// Structures and vessels standing here, in report order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub structures: Vec<StructureRecord>,
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

/// A place the faction's units were at during the month and left: where it lies
/// and leads, and when they were there; nothing of its state at the month's end.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassedRecord {
    /// Location id.
    pub id: String,
    /// Location name.
    pub name: String,
    /// Terrain tag.
    pub terrain: String,
    /// The location it lies inside, for inner locations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container: Option<String>,
    /// The days the faction's units were there, as in [`LocationRecord::days`].
    pub days: Vec<[u32; 2]>,
    /// Its exits: direction, location id and name, in data order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exits: Vec<PassedExit>,
}

/// An exit of a place passed through.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PassedExit {
    /// Direction name.
    pub dir: String,
    /// Location id it leads to.
    pub to: String,
    /// That location's name.
    pub to_name: String,
}

/// A map from tags (or ids) to values, in the order of its keys, as a
/// `BTreeMap<String, V>` keeps it and serialises it, held in one sorted list: a
/// report has a few of these per unit, mostly of two to five entries, and a
/// B-tree's node per map cost more than the rest of the record. A key that is a
/// rule set's tag is borrowed from the tags kept for the process
/// ([`crate::core::data::intern::forever`], as the catalogue lends them), not
/// copied: a report's units hold millions of them in a big world.
#[derive(Clone, PartialEq, Eq)]
pub struct TagMap<V>(Vec<(Key, V)>);

/// A [`TagMap`]'s key.
type Key = Tag;

/// [`TagMap::get`] looks for a key by its address in maps of at most this many
/// entries (a unit's capacity by movement mode, a way's days by mode): in a
/// bigger one a look-up stays a binary search.
const ADDRESS_SCAN: usize = 8;

/// A rule set's tag or name in a report: borrowed from the text kept for the
/// process ([`crate::core::data::intern::forever`], as the catalogue lends it),
/// or text of its own (read back from a stored report).
pub type Tag = std::borrow::Cow<'static, str>;

impl<V> Default for TagMap<V> {
    fn default() -> Self {
        TagMap(Vec::new())
    }
}

impl<V> TagMap<V> {
    /// An empty map.
    pub fn new() -> Self {
        TagMap(Vec::new())
    }
    /// Whether the map has no entry.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// The entries, in the order of their keys.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &V)> + DoubleEndedIterator {
        self.0.iter().map(|(k, v)| (&**k, v))
    }
    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| &**k)
    }
    /// The values, in the order of their keys.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.0.iter().map(|(_, v)| v)
    }
    /// The value of `key`.
    ///
    /// A key of the process's tags ([`crate::core::data::intern::forever`], as
    /// the catalogue lends them: `Catalog::mode_tag`) is first looked for by
    /// its address in a map of a few entries ([`ADDRESS_SCAN`]), whose keys are
    /// such tags when the report was built; else (or when it is not found so)
    /// by its text, a binary search.
    pub fn get(&self, key: &str) -> Option<&V> {
        let same = |k: &Key| std::ptr::eq(k.as_ptr(), key.as_ptr()) && k.len() == key.len();
        if self.0.len() <= ADDRESS_SCAN
            && let Some((_, v)) = self.0.iter().find(|(k, _)| same(k))
        {
            return Some(v);
        }
        self.0.binary_search_by(|(k, _)| (**k).cmp(key)).ok().map(|i| &self.0[i].1)
    }
    /// Whether `key` has a value.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    /// Sets the value of `key`; returns the one it replaced.
    pub fn insert(&mut self, key: impl Into<Key>, value: V) -> Option<V> {
        let key = key.into();
        match self.0.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }
}

impl<K: Into<Key>, V> FromIterator<(K, V)> for TagMap<V> {
    /// As a `BTreeMap` is collected: a key given twice keeps its last value. Keys
    /// are owned text (`String`) or tags kept for the process (`&'static str`).
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut v: Vec<(Key, V)> = iter.into_iter().map(|(k, v)| (k.into(), v)).collect();
        if v.windows(2).all(|w| w[0].0 < w[1].0) {
            return TagMap(v);
        }
        // Stable: of equal keys, the last given stays last, and is kept.
        v.sort_by(|a, b| a.0.cmp(&b.0));
        let mut kept = 0;
        for i in 0..v.len() {
            if kept > 0 && v[kept - 1].0 == v[i].0 {
                v.swap(kept - 1, i);
            } else {
                v.swap(kept, i);
                kept += 1;
            }
        }
        v.truncate(kept);
        TagMap(v)
    }
}

impl<'a, V> IntoIterator for &'a TagMap<V> {
    type Item = (&'a str, &'a V);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (Key, V)>, fn(&'a (Key, V)) -> (&'a str, &'a V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (&**k, v))
    }
}

impl<V> std::ops::Index<&str> for TagMap<V> {
    type Output = V;
    /// The value of `key`; panics when it has none, as a `BTreeMap` does.
    fn index(&self, key: &str) -> &V {
        self.get(key).expect("no entry found for key")
    }
}

impl<V: std::fmt::Debug> std::fmt::Debug for TagMap<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V: Serialize> Serialize for TagMap<V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for TagMap<V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Entries<V>(std::marker::PhantomData<V>);
        impl<'de, V: Deserialize<'de>> serde::de::Visitor<'de> for Entries<V> {
            type Value = TagMap<V>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<TagMap<V>, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(1024));
                while let Some(e) = map.next_entry::<String, V>()? {
                    entries.push(e);
                }
                Ok(entries.into_iter().collect())
            }
        }
        d.deserialize_map(Entries(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::TagMap;
    use std::collections::BTreeMap;

    /// Whatever the order and repetition of the entries collected, a `TagMap`
    /// holds, finds and writes what a `BTreeMap` of them does.
    #[test]
    fn a_tag_map_is_a_btree_map_of_its_entries() {
        let lists: [&[(&str, u32)]; 7] = [
            &[],
            &[("coin", 1)],
            &[("swrd", 2), ("coin", 1), ("bow", 3)],
            &[("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5), ("a", 6)],
            &[("z", 1), ("z", 2), ("z", 3)],
            &[("é", 1), ("e", 2), ("E", 3), ("", 4)],
            // More than a look-up by address is tried for.
            &[("j", 1), ("i", 2), ("h", 3), ("g", 4), ("f", 5), ("e", 6), ("d", 7), ("c", 8), ("b", 9), ("a", 10)],
        ];
        for list in lists {
            let entries = || list.iter().map(|&(k, v)| (k.to_string(), v));
            let tags: TagMap<u32> = entries().collect();
            let tree: BTreeMap<String, u32> = entries().collect();
            let of_tree = |t: &BTreeMap<String, u32>| t.iter().map(|(k, v)| (k.clone(), *v)).collect::<Vec<_>>();
            let of_tags = |t: &TagMap<u32>| t.iter().map(|(k, v)| (k.to_string(), *v)).collect::<Vec<_>>();
            assert_eq!(of_tags(&tags), of_tree(&tree), "{list:?}");
            // Keys lent for the process make the same map as keys of their own.
            let lent: TagMap<u32> = list.iter().map(|&(k, v)| (crate::core::data::intern::forever(k), v)).collect();
            assert_eq!(lent, tags, "{list:?}");
            // Found alike by the lent key (its address) and by a copy of its text.
            for (k, _) in list {
                let (kept, copy) = (crate::core::data::intern::forever(k), k.to_string());
                assert_eq!(lent.get(kept), tree.get(*k), "{k}");
                assert_eq!(lent.get(&copy), tree.get(*k), "{k}");
                // A shorter key at the same address is another key.
                if let Some(short) = kept.get(..kept.len().saturating_sub(1)).filter(|s| !s.is_empty()) {
                    assert_eq!(lent.get(short), tree.get(short), "{short}");
                }
            }
            assert_eq!(tags.len(), tree.len());
            for (k, _) in list {
                assert_eq!(tags.get(k), tree.get(*k), "{k}");
            }
            assert_eq!(tags.get("nothing"), None);
            let json = serde_json::to_string(&tags).unwrap();
            assert_eq!(json, serde_json::to_string(&tree).unwrap());
            assert_eq!(serde_json::from_str::<TagMap<u32>>(&json).unwrap(), tags);
            let mut both = (tags.clone(), tree.clone());
            for (k, v) in [("m", 7), ("coin", 8), ("a", 9)] {
                assert_eq!(both.0.insert(k.to_string(), v), both.1.insert(k.to_string(), v));
            }
            assert_eq!(of_tags(&both.0), of_tree(&both.1));
        }
    }
}
