//! The scenario: a world at a moment of play.
//!
//! A scenario is a folder `scenarios/<name>/` holding [`SCENARIO_FILES`]. It names
//! its rule set (`game.ron`), which is looked up as `assets/rules/<ruleset>/`
//! relative to the scenario's parent's parent, or in the folder given by the GM.
//! A scenario can also carry order files already submitted for the next turn in
//! `orders/*.txt`.

use super::common::*;
use super::rules::{CombatTactics, EffectDays, ItemHolding, SkillExperience};
use serde::{Deserialize, Serialize};

/// The files of a scenario folder, in load order, with what each holds.
pub const SCENARIO_FILES: &[(&str, &str)] = &[
    ("game.ron", "game settings"),
    ("factions.ron", "factions"),
    ("locations.ron", "locations"),
    ("structures.ron", "structures"),
    ("units.ron", "units"),
];

/// A complete scenario, as loaded from its folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// `game.ron`.
    pub game: GameSettings,
    /// `factions.ron`.
    pub factions: Vec<Faction>,
    /// `locations.ron`.
    pub locations: Vec<Location>,
    /// `structures.ron`.
    pub structures: Vec<Structure>,
    /// `units.ron`.
    pub units: Vec<Unit>,
    /// `orders/*.txt`: order files waiting for the next turn, by file name.
    #[serde(skip)]
    pub orders: Vec<(String, String)>,
}

/// `game.ron`: settings of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSettings {
    /// Short name of the game, as written in order file headers (`GAME f05 pass alpha`).
    pub name: String,
    /// Long title for reports.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    /// Rule set folder name (`assets/rules/<ruleset>/`).
    pub ruleset: String,
    /// Seed of every random draw of the game.
    pub seed: u64,
    /// Days in a turn (a month).
    pub days_per_month: u32,
    /// Month of the calendar (0-based index into the rule set's months) of turn 1.
    pub start_month: u32,
    /// The last turn played (0 for a new game).
    #[serde(default)]
    pub turn: u32,
    /// Address the game's mail comes from.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub email: String,
    /// Deadline text for the next turn, shown in reports.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub deadline: String,
    /// Where new factions may start, and how they stand toward the others (§29).
    #[serde(default, skip_serializing_if = "Joining::is_empty")]
    pub joining: Joining,
}

/// How new factions enter the game (`overlord join`; START-PLACE).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Joining {
    /// The start places a new player chooses from, in the order they are offered.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<StartPlace>,
    /// A new faction's default stance (`"neutral"` when left out).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub default_stance: Tag,
    /// A new faction's stances toward particular factions.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub stances: std::collections::BTreeMap<Tag, Tag>,
}

impl Joining {
    fn is_empty(&self) -> bool {
        *self == Joining::default()
    }
}

/// A kind of start place (START-PLACE): the imperial city, a border city, a
/// colonial city.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StartPlace {
    /// The word the player chooses it by (`"imperial"`).
    pub tag: Tag,
    /// Its name (`"Imperial City"`).
    pub name: String,
    /// Added to the faction's funds: `{"coin": 1000}`.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub bonus: std::collections::BTreeMap<Tag, u64>,
    /// The locations of this kind, in the order they fill.
    pub locations: Vec<Tag>,
    /// With a number: new factions go to the first location that has had fewer
    /// starts than this, so that those joining together meet (colonial cities).
    /// Without: to the location with the fewest starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fair: Option<u32>,
}

/// A faction: a player or a non-player power.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Faction {
    /// Id, e.g. `"f05"`.
    pub id: Tag,
    /// Name.
    pub name: String,
    /// Password for order files.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub password: String,
    /// Where reports are mailed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub email: String,
    /// Non-player faction (run by the engine or the GM).
    #[serde(default, skip_serializing_if = "is_false")]
    pub npc: bool,
    /// Stance toward factions not listed in `stances`.
    pub default_stance: Tag,
    /// Stances toward particular factions: `{"f02": "neutral"}`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub stances: std::collections::BTreeMap<Tag, Tag>,
    /// Faction funds: `{"coin": 31910}`.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub funds: std::collections::BTreeMap<Tag, u64>,
    /// Skills known to the faction, with the highest level it has seen described.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known_skills: Vec<SkillLevelReq>,
    /// Other records (items, races, enchantments…) whose description the faction has seen.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known: Vec<Tag>,
    /// The faction lost its last unit (UNIT-FACTION-DEATH).
    #[serde(default, skip_serializing_if = "is_false")]
    pub destroyed: bool,
    /// Faction-wide settings (FAC-SETTING): the default of every unit of the faction.
    #[serde(default, skip_serializing_if = "FactionSettings::is_default")]
    pub settings: FactionSettings,
    /// Other factions may RESIGN in favour of this one (FAC-RESIGN; RULINGS §12).
    #[serde(default, skip_serializing_if = "is_false")]
    pub takes_resignations: bool,
    /// Creature units of resigning factions go to this faction (FAC-RESIGN).
    #[serde(default, skip_serializing_if = "is_false")]
    pub creatures: bool,
    /// The faction serves the Overlord: it takes the rule set's stances toward the
    /// faction that gains the Overlord's title and the one that loses it
    /// (TTL-OVERLORD: the Imperials and the Citizens).
    #[serde(default, skip_serializing_if = "is_false")]
    pub serves_overlord: bool,
    /// How the faction joined the game, when it joined a running game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<FactionStart>,
    /// The stance the faction takes toward a faction that attacks it, if less
    /// friendly than the one it holds (NPC-IMP, NPC-MAGES: "Friendly unless
    /// attacked, then Enemy"). `None`: attacks change nothing (NPC-CIT).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provoked: Option<Tag>,
    /// Skills (tags) that keep the faction from attacking on sight: it does not
    /// attack a stack with a unit that knows one of them (NPC-CRE: "certain skills
    /// will prevent that"; docs/npc.md).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spared_by: Vec<Tag>,
    /// The places (location ids) the faction's units have been to, in location
    /// order: what its map shows of the world beyond where it stands now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub explored: Vec<Tag>,
}

/// How and when a faction joined (`overlord join`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactionStart {
    /// The start type chosen (`starts.ron`).
    pub kind: Tag,
    /// The start place chosen (`game.ron`'s `joining`).
    pub place: Tag,
    /// The location it entered play in.
    pub location: Tag,
    /// The turn after which it joined.
    pub turn: u32,
}

/// Faction-wide settings (SET-*). A unit setting ON adds to the faction's.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FactionSettings {
    /// SET-ADVERTISE for every unit.
    #[serde(skip_serializing_if = "is_false")]
    pub advertise: bool,
    /// SET-ANNOUNCE for every unit.
    #[serde(skip_serializing_if = "is_false")]
    pub announce: bool,
    /// SET-CONSUME for every unit.
    #[serde(skip_serializing_if = "is_false")]
    pub consume: bool,
    /// SET-SILENT for every unit.
    #[serde(skip_serializing_if = "is_false")]
    pub silent: bool,
    /// SET-SHARE for every unit.
    #[serde(skip_serializing_if = "is_false")]
    pub share: bool,
    /// SET-SUPPORT for every unit.
    #[serde(skip_serializing_if = "is_false")]
    pub support: bool,
    /// Battle reports are summaries (SET-TERSE).
    #[serde(skip_serializing_if = "is_false")]
    pub terse: bool,
}

impl FactionSettings {
    fn is_default(&self) -> bool {
        *self == FactionSettings::default()
    }
}

/// Whether a location is a territory or lies inside another.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LocationKind {
    /// A hex of the map, or an irregular land location.
    #[default]
    Territory,
    /// A location inside `container` (cities, caves, guild halls…).
    Inner,
}

/// A location.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Location {
    /// Id, e.g. `"L12"`.
    pub id: Tag,
    /// Name (may be empty for unnamed wilderness).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Terrain tag.
    pub terrain: Tag,
    /// Territory or inner location.
    #[serde(skip_serializing_if = "is_default")]
    pub kind: LocationKind,
    /// For inner locations: the location that contains it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub container: Option<Tag>,
    /// Axial hex coordinates `(q, r)` of a territory on the map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<(i32, i32)>,
    /// Exits, in the order they are listed in reports.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub exits: Vec<Exit>,
    /// Current weather tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weather: Option<Tag>,
    /// Legal owner of the land, and the location of the title that grants it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<Ownership>,
    /// Who may do what here (`"neutral"`: the default policy).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub policy: String,
    /// Native population.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub population: u32,
    /// Wages paid for a day of work, per figure.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub wages: u32,
    /// Economy level in % (100 = normal).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub economy: u32,
    /// Share of the land that is usable, in %.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub land: u32,
    /// The local market.
    #[serde(skip_serializing_if = "Market::is_empty")]
    pub market: Market,
    /// Figures offered for recruiting this month.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub recruits: Vec<RecruitOffer>,
    /// Natural resources.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<ResourceStock>,
    /// Titles attached to this location, and their holders.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub titles: Vec<TitleHolding>,
    /// Skills taught here, up to a level.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub teaches: Vec<SkillLevelReq>,
    /// Items lying on the ground.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inventory: Vec<ItemCount>,
    /// Hidden from players: how far (points of %) the place's optimum population
    /// stands above or below what its terrain and structures give (POP-OPTIMA).
    #[serde(skip_serializing_if = "is_zero_i32")]
    pub optimum_shift: i32,
    /// Days since the plague broke out here, while it lasts (POP-FAMINE).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plague: Option<u32>,
    /// Tax money stored in the place: the market's spread (MKT-PAY) goes here.
    #[serde(skip_serializing_if = "is_zero_u64")]
    pub tax_pool: u64,
    /// Enchantments on the place: `(enchantment, days left)` (ITM-ENCH); every unit
    /// here is under them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<EffectDays>,
}

fn is_zero_i32(n: &i32) -> bool {
    *n == 0
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

/// An exit from a location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exit {
    /// Direction tag (`"N"`, `"IN"`, `"OUT"`…).
    pub dir: Tag,
    /// Destination location id.
    pub to: Tag,
    /// Explicit exits: the only movement mode allowed (otherwise every mode the terrain allows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Tag>,
    /// Explicit exits: travel days (otherwise from the destination's terrain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
}

/// Legal ownership of a location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ownership {
    /// Owning faction.
    pub faction: Tag,
    /// Location of the title that grants the ownership.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_location: Option<Tag>,
}

/// A location's market.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Market {
    /// Offers to sell to units.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sells: Vec<MarketOffer>,
    /// Offers to buy from units.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub buys: Vec<MarketOffer>,
    /// Days of the month the market clears; empty: the rule set's default.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub days: Vec<u32>,
}

impl Market {
    /// Whether the market has no offers and default days.
    pub fn is_empty(&self) -> bool {
        self.sells.is_empty() && self.buys.is_empty() && self.days.is_empty()
    }
}

/// A standing market offer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MarketOffer {
    /// Item tag.
    pub item: Tag,
    /// Quantity available per month.
    pub quantity: u32,
    /// Price per item.
    pub price: u32,
    /// How many of the month's quantity have been traded.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub traded: u32,
}

impl MarketOffer {
    /// A standing offer of `quantity` a month at `price`, nothing traded yet.
    pub fn new(item: impl Into<Tag>, quantity: u32, price: u32) -> Self {
        MarketOffer { item: item.into(), quantity, price, traded: 0 }
    }
}

/// Figures offered for recruiting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecruitOffer {
    /// Race tag.
    pub race: Tag,
    /// Figures available.
    pub count: u32,
    /// Price per figure.
    pub price: u32,
    /// Figures hired this month.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub hired: u32,
}

/// A natural resource in a location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResourceStock {
    /// Item tag.
    pub item: Tag,
    /// Amount available this month.
    pub current: u32,
    /// Amount available in a normal month.
    pub max: u32,
}

/// A title attached to a location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TitleHolding {
    /// Title tag.
    pub title: Tag,
    /// Holding unit, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<Tag>,
}

/// A structure: a building or vessel standing in a location.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Structure {
    /// Id, e.g. `"B201"`.
    pub id: Tag,
    /// Construction tag (its kind).
    pub kind: Tag,
    /// Name.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Description set by the owner.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Location it stands in. Structures never stand inside structures.
    pub location: Tag,
    /// Owning faction.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<Tag>,
    /// Work still missing, per construction work; empty when complete.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<ItemCount>,
    /// Anyone may enter.
    #[serde(skip_serializing_if = "is_false")]
    pub public: bool,
    /// Listed in reports of other factions.
    #[serde(skip_serializing_if = "is_false")]
    pub advertise: bool,
    /// Combat settings (vessels).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tactics: Option<Box<CombatTactics>>,
    /// Enchantments on the structure: `(enchantment, days left)` (ITM-ENCH); every
    /// unit inside is under them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<EffectDays>,
    /// Pending orders, as order text.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub orders: Vec<String>,
}

/// A unit: one or more figures of one race, acting together.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Unit {
    /// Id, e.g. `"U12"`.
    pub id: Tag,
    /// Name.
    pub name: String,
    /// Owning faction.
    pub faction: Tag,
    /// Race tag.
    pub race: Tag,
    /// Number of figures.
    pub figures: u32,
    /// Location.
    pub location: Tag,
    /// Structure it is inside, if any (standing in `location`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structure: Option<Tag>,
    /// Unit leading the stack this unit belongs to (must be a leader in the same place).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stack_leader: Option<Tag>,
    /// Items: `(item, count, equipped)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemHolding>,
    /// Skills: `(skill, experience points)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<SkillExperience>,
    /// Effects on the unit: `(enchantment, days left)` (ITM-ENCH).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<EffectDays>,
    /// Work in progress: the skill used and the work done towards the next batch,
    /// in hundredths of a figure-day (SKL-USE-CRAFT, SKL-USE-HARVEST).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub production: Option<(Tag, u32)>,
    /// What the unit's skills aim at, as set by TARGET or BUILD (ORD-TARGET): a
    /// construction tag to start (`"mine"`), a structure id (`"B3"`), a unit,
    /// location or faction id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Tag>,
    /// The journey the unit is on, if it is travelling (MOV-BUSY, MOV-HALF). Every
    /// unit of a moving stack has its own copy.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub journey: Option<Box<Journey>>,
    /// Pending orders, one order text per entry.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub orders: Vec<String>,
    /// Combat settings. Shared: most units have one of a few, and the state
    /// written at a turn's end takes the world's without copying it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tactics: Option<std::sync::Arc<CombatTactics>>,
    /// Combat orders, one per entry.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub combat_orders: Vec<String>,
    /// Unit settings.
    #[serde(skip_serializing_if = "UnitSettings::is_default")]
    pub settings: UnitSettings,
    /// Description set by the owner.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// A journey under way between two neighbouring locations. While `elapsed` is
/// below half of `days` (rounded down) the unit is seen at `from`, afterwards at
/// `to` (MOV-HALF); the unit's `location` says which.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Journey {
    /// Where the journey started.
    pub from: Tag,
    /// Where it ends.
    pub to: Tag,
    /// The movement mode (tag of `movement.ron`).
    pub mode: Tag,
    /// Days the journey takes.
    pub days: u32,
    /// Days already travelled.
    pub elapsed: u32,
    /// A plain move, a march or a retreat.
    #[serde(default, skip_serializing_if = "JourneyKind::is_move")]
    pub kind: JourneyKind,
}

/// What kind of journey a unit is on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum JourneyKind {
    /// MOVE or CARAVAN: a guard that holds a unit of the stack Hostile turns it back.
    #[default]
    Move,
    /// MARCH: a guard in the way means a battle.
    March,
    /// A journey turned back (RETREAT, or turned back by a guard); it cannot be
    /// turned back again.
    Retreat,
}

impl JourneyKind {
    /// Whether this is a plain move (the default, left out of saved files).
    pub fn is_move(&self) -> bool {
        *self == JourneyKind::Move
    }
}

/// Switches of a unit.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UnitSettings {
    /// Events of this unit are left out of its faction's report.
    #[serde(skip_serializing_if = "is_false")]
    pub silent: bool,
    /// The unit advertises (shows its faction and what it teaches) (SET-ADVERTISE).
    #[serde(skip_serializing_if = "is_false")]
    pub advertise: bool,
    /// The unit shows itself to anyone observing the location (SET-ANNOUNCE).
    #[serde(skip_serializing_if = "is_false")]
    pub announce: bool,
    /// The unit eats available food for its upkeep (SET-CONSUME).
    #[serde(skip_serializing_if = "is_false")]
    pub consume: bool,
    /// The unit shares its food with units in the same location (SET-SHARE).
    #[serde(skip_serializing_if = "is_false")]
    pub share: bool,
    /// The unit pays upkeep from faction funds first (SET-SUPPORT).
    #[serde(skip_serializing_if = "is_false")]
    pub support: bool,
    /// Loyalty in % (NPC units); `None`: ordinary loyalty.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<u32>,
}

impl UnitSettings {
    fn is_default(&self) -> bool {
        *self == UnitSettings::default()
    }
}
