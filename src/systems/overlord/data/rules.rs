//! The rule set: every number the engine plays by.
//!
//! A rule set is a folder `assets/rules/<name>/` of RON files, one per table
//! (see [`RULESET_FILES`]). The engine holds no game numbers of its own: costs,
//! days, capacities, ranges, bonuses and the calendar all come from here, so a
//! modder can change the game by editing these files.
//!
//! Movement modes, the calendar, terrains, races, items, skills and stances are the
//! core's tables ([`crate::core::data::tables`]): their records have the fields
//! every rule system reads, and Overlord's own fields in their `system:` part
//! ([`ModeRules`], [`SeasonRules`], [`WeatherRules`], [`TerrainRules`],
//! [`RaceRules`], [`ItemRules`], [`SkillRules`]). The other tables are Overlord's.
//!
//! Conventions used throughout:
//! * records are identified by a `tag` (see [`Tag`]); tags are unique per table;
//! * omitted optional fields take their empty value (0, `[]`, `{}`, `None`, `false`);
//! * unknown field names are errors, so a misspelt field is reported, not ignored;
//! * "experience" is counted in experience points: one day of study gives
//!   [`Parameters::experience_per_day`] points.

use super::common::*;
use crate::core::data::tables;
pub use crate::core::data::tables::{Direction, Month};
use crate::core::engine::plan::TurnPlan;
use serde::{Deserialize, Serialize};

/// The name of the Overlord rule system, as rule sets give it (`system`).
pub const SYSTEM: &str = "overlord";

/// The files of a rule set folder, in load order, with the table each holds.
pub const RULESET_FILES: &[(&str, &str)] = &[
    ("ruleset.ron", "name, description and engine parameters"),
    ("plan.ron", "the turn plan: the steps of a month, in order"),
    ("movement.ron", "movement modes and directions"),
    ("equipment.ron", "equipment slots"),
    ("climate.ron", "calendar, seasons and weathers"),
    ("terrains.ron", "terrains"),
    ("races.ron", "races"),
    ("items.ron", "items"),
    ("skills.ron", "skills"),
    ("constructions.ron", "construction works and constructions"),
    ("titles.ron", "titles"),
    ("enchantments.ron", "enchantments, effects and special actions"),
    ("diplomacy.ron", "stances"),
    ("combat.ron", "combat tables"),
    ("events.ron", "event types"),
    ("economy.ron", "markets, recruits and population: how places live month by month"),
    ("starts.ron", "what a new faction starts with: funds, units, start types (§29)"),
];

/// A complete rule set, as loaded from its folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleSet {
    /// `ruleset.ron`.
    pub info: RuleSetInfo,
    /// `plan.ron`: the steps of a turn, in order.
    pub plan: TurnPlan,
    /// `movement.ron`.
    pub movement: MovementRules,
    /// `equipment.ron`: the equipment slots, in order.
    pub equipment_slots: Vec<EquipmentSlot>,
    /// `climate.ron`.
    pub climate: Climate,
    /// `terrains.ron`.
    pub terrains: Vec<Terrain>,
    /// `races.ron`.
    pub races: Vec<Race>,
    /// `items.ron`.
    pub items: Vec<Item>,
    /// `skills.ron`.
    pub skills: Vec<Skill>,
    /// `constructions.ron`.
    pub constructions: Constructions,
    /// `titles.ron`.
    pub titles: Vec<Title>,
    /// `enchantments.ron`.
    pub enchantments: Enchantments,
    /// `diplomacy.ron`: the stances, from the most to the least friendly.
    pub stances: Vec<Stance>,
    /// `combat.ron`.
    pub combat: CombatRules,
    /// `events.ron`.
    pub events: Vec<EventType>,
    /// `economy.ron`.
    pub economy: Economy,
    /// `starts.ron`.
    pub starts: Starts,
}

// ---------------------------------------------------------------- ruleset.ron

/// `ruleset.ron`: identification and the engine parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSetInfo {
    /// Short name; scenarios name their rule set by it (the folder name).
    pub name: String,
    /// The rule system the rule set is written for: `"overlord"`.
    pub system: String,
    /// Free text shown to the GM.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Where the numbers come from (a data set, a rules text).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// The engine's general parameters.
    pub parameters: Parameters,
}

/// General numbers of the rules that belong to no single record.
/// All are required: a rule set states them explicitly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parameters {
    /// Experience points gained by one full day of study (skill levels are in points).
    pub experience_per_day: u32,
    /// Control points a new faction has.
    pub starting_control_points: u32,
    /// A unit uses one control point per this many figures, or fraction of it.
    pub figures_per_control_point: u32,
    /// Units with mana use one more control point per this much maximum mana, or fraction.
    pub mana_per_control_point: u32,
    /// Highest level any unit may reach by study alone in a non-combat skill.
    pub max_study_level: u32,
    /// Highest level leaders and heroes may reach by study in a non-magic, non-combat skill.
    pub max_study_level_leader: u32,
    /// Highest level reachable by study in a combat skill, for followers, leaders and heroes.
    pub max_combat_study_level: CombatStudyLimits,
    /// Overload: travel time is multiplied by `1 + factor × overload fraction`.
    pub overload_time_factor: u32,
    /// A stack cannot move when its weight is at least this % of its walking capacity.
    pub overload_limit_percent: u32,
    /// A stack cannot start a move that would take more than this many days.
    pub max_travel_days: u32,
    /// Days of the month on which markets clear, unless a location says otherwise.
    pub market_days: Vec<u32>,
    /// Mana regenerates by one point every this many days, below the maximum.
    pub mana_regen_days: u32,
    /// The item a unit's mana is counted in (MAG-*; ITM-GIVE: it is never given,
    /// taken or dropped). Empty: the game has no mana.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mana_item: Tag,
    /// MAG-OVER: above its maximum a unit loses, every `mana_regen_days` days, one
    /// point plus one per this % of the maximum it is over (50: under 50% over, 1;
    /// under 100%, 2; under 150%, 3 …). 0: no loss.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub mana_over_step_percent: u32,
    /// The event type whose production gives the target mana (MAG-MEDITATE: Meditate
    /// and Ritual make `evtritu`): each one made is one point. Empty: none does.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mana_event: Tag,
    /// Share (%) of the time spent on a spell that is lost when it is retargeted.
    pub retarget_loss_percent: u32,
    /// Orders a unit's list holds at most; later lines of an order file are ignored
    /// (FILE-LIMIT).
    pub max_orders_per_unit: u32,
    /// Reward, in the game's money, for a signed newspaper article (PRS-REWARD).
    pub press_reward_signed: u32,
    /// Reward for an unsigned article, a rumour (PRS-REWARD). Rewards do not add up:
    /// a faction earns the largest reward among its articles of the turn.
    pub press_reward_rumor: u32,
    /// Statistics a race leaves at 0 take these values (UNIT-STATS: life 1, hits 1).
    #[serde(default, skip_serializing_if = "Stats::is_empty")]
    pub default_stats: Stats,
    /// An effect with this many days or more never wears off (ITM-ENCH).
    pub permanent_effect_days: u32,
    /// Days a unit stays disaffected after an unpaid upkeep (CASH-DISSENT); a second
    /// unpaid upkeep while disaffected makes it desert.
    pub dissent_days: u32,
    /// The enchantment given to a unit whose upkeep is not paid (CASH-DISSENT).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dissent_effect: Option<Tag>,
    /// Items eaten as upkeep when equipped (CASH-FOOD).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rations: Vec<Tag>,
    /// Share (%) of a figure's upkeep that one ration pays (CASH-FOOD: 80).
    pub ration_percent: u32,
    /// Whether units of non-player factions (`npc: true`) pay upkeep. When they do
    /// not, they never grow disaffected nor desert: wild creatures live off the land
    /// and the game master keeps the other NPC factions.
    #[serde(default, skip_serializing_if = "crate::systems::overlord::data::common::is_false")]
    pub npc_upkeep: bool,
    /// Study speed bonus (%) when a leader up the unit's stack knows the skill better
    /// (SKL-FAST: 10).
    pub study_bonus_leader_percent: u32,
    /// Study speed bonus (%) in a place that teaches the skill (SKL-FAST, LOC-TEACH: 20).
    pub study_bonus_place_percent: u32,
    /// Share (%) of the experience gained by study that each more basic skill of the
    /// tree also gains (SKL-EXP-ADV: 10).
    pub study_basic_percent: u32,
    /// Leaders study magic skills up to this level even when taught; past it only
    /// experience counts (§10 races: 2).
    pub max_magic_study_level_taught: u32,
    /// Study speed (%) under TEACH, applied to the whole speed (SKL-FAST: 200, ×2).
    pub teach_percent: u32,
    /// Figures a teacher teaches at full effect; a larger unit gets the bonus in
    /// proportion (SKL-FAST, ORD-TEACH: 50).
    pub teach_max_figures: u32,
    /// How many figures a leader counts as for `teach_max_figures` (10).
    pub teach_leader_figures: u32,
    /// A unit taught beyond its own limit may have at most this many figures, and
    /// learns at normal speed (ORD-TEACH: 10).
    pub teach_beyond_max_figures: u32,
    /// Speed bonus (%) of a unit whose figures all have a tool the production names
    /// equipped (SKL-TOOL: a third less time, +50% speed); in proportion otherwise.
    pub tool_bonus_percent: u32,
    /// Share (%) of a day of study that a day of USE gives to the skill used
    /// (SKL-EXP-USE: 10).
    pub use_experience_percent: u32,
    /// Share (%) of a day of study that a day of USE gives to each more basic skill
    /// (SKL-EXP-USE: 5).
    pub use_basic_percent: u32,
    /// Travel times derived from another mode where a terrain gives none:
    /// `(mode, from, n)` takes `from`'s days minus an n-th of them, rounded down
    /// (MOV-RIDE: `("ride", "walk", 3)`, 9 days → 6).
    pub derived_travel: Vec<(Tag, Tag, u32)>,
    /// Days to move between an inner location and its container when the exit does
    /// not say (LOC-INNER: 1).
    pub inner_travel_days: u32,
    /// The skill a follower unit needs to move on its own, outside a stack
    /// (MOV-FOLLOWER: 1st scouting). Without it, followers move only in stacks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub follower_move_skill: Option<SkillLevelReq>,
    /// The skill a unit needs to GUARD or PATROL (GRD-REQ: 1st combat). Units of
    /// non-player factions need neither it nor a title (rulings 12).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub guard_skill: Option<SkillLevelReq>,
    /// Sailing along a coast, between two lands next to the same body of water:
    /// `(mode, percent)` takes `percent` % of that mode's days (MOV-SAIL:
    /// `("walk", 200)`, 9 days' walk → 18 days). `None`: no coastal sailing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coastal_sailing: Option<(Tag, u32)>,
    /// A unit on guard works, studies and produces as if it had this share (%) of
    /// its figures, rounded down (GRD-HALF: 50).
    pub guard_work_percent: u32,
    /// A travelling unit is seen at its destination once this share (%) of the
    /// journey's days is behind it, rounded down (MOV-HALF: 50).
    pub journey_seen_percent: u32,
    /// For each control point a faction needs beyond what it may use, each of its
    /// units refuses to act for the month with this chance in % (CP-IDLE: 1).
    pub refusal_percent_per_control_point: u32,
    /// Basic skills (not combat skills) a follower unit may know (RACE-FOLLOWER-BASIC:
    /// one).
    pub follower_basic_skills: u32,
    /// A follower unit that knows more basic skills than that reaches no higher than
    /// this level in any skill, even taught (RACE-FOLLOWER-BASIC: 1st).
    pub follower_overbasic_max_level: u32,
    /// Terrains where units may WITHDRAW from faction funds (ORD-WITHDRAW: cities).
    pub withdraw_terrains: Vec<Tag>,
    /// Challenges for a held title (TTL-CHALLENGE, TV-TITLE).
    pub claims: ClaimRules,
    /// Stealth against observation (VIS-*).
    pub sight: SightRules,
}

impl Parameters {
    /// The control points a unit of `figures` figures uses: its race's `control`
    /// for every started `figures_per_control_point` figures (CP-UNIT), and one
    /// more for every started `mana_per_control_point` of its maximum `mana`
    /// (CP-MAGE).
    pub fn control_points(&self, control: i32, figures: u32, mana: i32) -> i64 {
        let fpcp = i64::from(self.figures_per_control_point.max(1));
        let mpcp = i64::from(self.mana_per_control_point.max(1));
        let (n, mana) = (i64::from(figures), i64::from(mana.max(0)));
        i64::from(control) * ((n + fpcp - 1) / fpcp) + (mana + mpcp - 1) / mpcp
    }
}

/// Stealth against observation (VIS-FACTION, VIS-MOVE-OBS).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SightRules {
    /// A unit's faction is known to an observer whose observation reaches its
    /// stealth plus this (3).
    pub faction_margin: i32,
    /// A travelling unit looks with this much less observation (1).
    pub moving_penalty: i32,
    /// A unit gets into a structure whose owner would keep it out when its stealth
    /// beats the best observation of the owner's units present by this (4,
    /// VIS-STRUCT).
    pub structure_margin: i32,
}

/// How a CLAIM on a held title is decided (TTL-CHALLENGE, TV-TITLE): the
/// challenger's experience in the title's skill, as a % of the holder's, must reach
/// the threshold. The challenger pays the title's cost either way.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRules {
    /// Against a holder present at the title's location (110).
    pub present_percent: u32,
    /// Against an absent holder (90).
    pub absent_percent: u32,
    /// Against an absent holder of a `Guild` title: masters and heads of guild (80).
    pub guild_absent_percent: u32,
    /// Share of the cost (%) the challenged holder receives, won or lost (50).
    pub holder_share_percent: u32,
    /// TTL-OVERLORD: the stance the factions that serve the Overlord (scenario:
    /// `serves_overlord`) take toward the faction that comes to hold the Overlord's
    /// title (`"ally"`); empty: none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub overlord_holder_stance: Tag,
    /// … and toward the faction that loses it (`"enemy"`); empty: none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub overlord_loser_stance: Tag,
}

/// Study limits for combat skills, by kind of unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatStudyLimits {
    /// Follower and creature units.
    pub follower: u32,
    /// Leader units.
    pub leader: u32,
    /// Heroes (see [`RaceRules::hero`]).
    pub hero: u32,
}

// ---------------------------------------------------------------- movement.ron

/// `movement.ron`: the core table, with Overlord's fields of each mode.
pub type MovementRules = tables::Movement<ModeRules>;

/// A way of travelling.
pub type MovementMode = tables::MovementMode<ModeRules>;

/// Overlord's fields of a movement mode (`system:` in `movement.ron`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ModeRules {
    /// Skill and level a unit needs to use this mode at all (e.g. climbing needs mountainwalk 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<SkillLevelReq>,
    /// A stack travelling this way is stopped only by guards that could travel this
    /// way themselves (MOV-FLYPAST, MOV-GUARDDIR: flyers pass walking guards, only
    /// sailing guards stop ships). Other ways are stopped by any guard.
    #[serde(skip_serializing_if = "is_false")]
    pub evades_guards: bool,
    /// Sailing (MOV-SAIL): this mode goes from water to water, between water and a
    /// land on its shore (landing takes the days of the water left), and from land
    /// to land along a shared coast (see `coastal_sailing`).
    #[serde(skip_serializing_if = "is_false")]
    pub sails: bool,
}

// ---------------------------------------------------------------- equipment.ron

/// An equipment slot. Each item that can be equipped names one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EquipmentSlot {
    /// Tag, e.g. `"equip_weapon"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Plural name for reports.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub plural: String,
}

// ---------------------------------------------------------------- climate.ron

/// `climate.ron`: the core table, with Overlord's fields of seasons and weathers.
pub type Climate = tables::Climate<SeasonRules, WeatherRules>;

/// A season: its weather odds and its effects.
pub type Season = tables::Season<SeasonRules>;

/// A weather: its effects on work and travel.
pub type Weather = tables::Weather<WeatherRules>;

/// Overlord's fields of a season (`system:` in `climate.ron`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SeasonRules {
    /// Study and use bonuses during the season.
    #[serde(skip_serializing_if = "Bonuses::is_empty")]
    pub bonuses: Bonuses,
    /// Upkeep paid, in % of normal (winter: 200).
    pub upkeep_percent: u32,
    /// Taxes collected, in % of normal.
    pub tax_percent: u32,
    /// Entertainment available, in % of normal.
    pub entertainment_percent: u32,
}

/// Overlord's fields of a weather (`system:` in `climate.ron`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WeatherRules {
    /// Study, use and movement bonuses under this weather.
    #[serde(skip_serializing_if = "Bonuses::is_empty")]
    pub bonuses: Bonuses,
    /// The territories next to one with this weather have at least one of these
    /// weathers (CLI-NEIGHBOR: a storm's neighbours have wind or rain). A neighbour
    /// drawn otherwise gets one of them instead, by the season's odds.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub neighbour_weathers: Vec<Tag>,
}

// ---------------------------------------------------------------- terrains.ron

/// A terrain type.
pub type Terrain = tables::Terrain<TerrainRules>;

/// Overlord's fields of a terrain (`system:` in `terrains.ron`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TerrainRules {
    /// Population the terrain tends toward.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub optimum_population: u32,
    /// The skill that helps to live off and travel this terrain (e.g. `"plwk"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub land_skill: Option<Tag>,
    /// Natural resources: item, typical amount and its maximum.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<TerrainResource>,
    /// Nothing may be built here (STR-RULES; nothing is built on water either).
    #[serde(skip_serializing_if = "is_false")]
    pub no_build: bool,
}

/// A natural resource of a terrain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainResource {
    /// Item tag.
    pub item: Tag,
    /// Amount available per month in a typical location.
    pub amount: u32,
    /// Chance in % that a new location of this terrain has the resource.
    pub chance: u32,
}

// ---------------------------------------------------------------- races.ron

/// The broad kind of a race: which orders, skills and equipment its units may use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum RaceKind {
    /// One figure per unit; may lead stacks.
    Leader,
    /// Many figures per unit (men, elves…). A race that names no kind is one.
    #[default]
    Follower,
    /// Many figures per unit; creature rules.
    Creature,
}

/// A race.
pub type Race = tables::Race<RaceRules>;

/// Overlord's fields of a race (`system:` in `races.ron`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RaceRules {
    /// Leader, follower or creature.
    pub kind: RaceKind,
    /// Heroes are leaders with higher study limits and their own control cost.
    #[serde(skip_serializing_if = "is_false")]
    pub hero: bool,
    /// Base statistics of one figure (life, upkeep, control, combat values…).
    pub stats: Stats,
    /// Cost to recruit one figure.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub recruit_cost: u32,
    /// Recruit offers: one figure per this many inhabitants (0: not recruitable).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub recruit_fraction: u32,
    /// Recruit offers: at most this many figures per location and month.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub recruit_max: u32,
    /// Study and level bonuses of the race.
    #[serde(skip_serializing_if = "Bonuses::is_empty")]
    pub bonuses: Bonuses,
    /// Skills (with experience points) every figure of this race is born with.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub innate_skills: Vec<SkillExperience>,
}

/// A skill with experience points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillExperience(pub Tag, pub u32);

/// An effect (an enchantment of `enchantments.ron`) and the days it has left
/// (ITM-ENCH; `permanent_effect_days` or more: permanent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EffectDays(pub Tag, pub u32);

// ---------------------------------------------------------------- items.ron

/// An item: goods, equipment, mounts, tools, artefacts.
pub type Item = tables::Item<ItemRules>;

/// Overlord's fields of an item (`system:` in `items.ron`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ItemRules {
    /// Capacity added per item equipped, per movement mode (replaces `capacity`).
    #[serde(skip_serializing_if = "TagMap::is_empty")]
    pub equipped_capacity: TagMap,
    /// Equipment slot tag; `None` if the item cannot be equipped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slot: Option<Tag>,
    /// How many of this item one figure may equip (1 unless given).
    #[serde(skip_serializing_if = "is_one")]
    pub max_per_figure: u32,
    /// Skill and level needed to equip the item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equip_skill: Option<SkillLevelReq>,
    /// Stat modifiers per equipped item.
    #[serde(skip_serializing_if = "Stats::is_empty")]
    pub stats: Stats,
    /// Bonuses while held or equipped.
    #[serde(skip_serializing_if = "Bonuses::is_empty")]
    pub bonuses: Bonuses,
    /// What the item does in combat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combat: Option<CombatAction>,
    /// Skill and level needed to see this item as a hidden resource.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prospect_skill: Option<SkillLevelReq>,
    /// Skill whose knowledge the item brings to a faction that holds it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knowledge: Option<Tag>,
    /// Special effect number carried over from legacy data (`FX`).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub fx: u32,
    /// Numeric item class carried over from legacy data (`TYPE`).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub class: u32,
    /// Amount of the item shown to players as one token of trade (`TOKEN`).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub token: u32,
    /// Flags.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<ItemFlag>,
}

impl Default for ItemRules {
    fn default() -> Self {
        ItemRules {
            equipped_capacity: TagMap::new(),
            slot: None,
            max_per_figure: 1,
            equip_skill: None,
            stats: Stats::default(),
            bonuses: Bonuses::default(),
            combat: None,
            prospect_skill: None,
            knowledge: None,
            fx: 0,
            class: 0,
            token: 0,
            flags: Vec::new(),
        }
    }
}

fn is_one(v: &u32) -> bool {
    *v == 1
}

/// Item flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ItemFlag {
    /// Special item: cannot be bought or sold on markets.
    Special,
    /// Only one may exist in the world.
    Unique,
    /// A living thing (mounts, hounds): eats and may die.
    Live,
    /// Magical item.
    Magic,
    /// Not shown unless the observer has the prospect skill.
    Hidden,
    /// Does not regenerate (mana-like items).
    NonRegenerating,
}

// ---------------------------------------------------------------- skills.ron

/// A skill, with its levels.
pub type Skill = tables::Skill<SkillRules>;

/// Overlord's fields of a skill (`system:` in `skills.ron`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkillRules {
    /// Cost in coins of one day of study.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub study_cost: u32,
    /// Skills (and levels) needed before this one can be studied.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requires: Vec<SkillLevelReq>,
    /// Flags.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<SkillFlag>,
    /// What using the skill does (USE order); `None` for skills that are not used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub use_kind: Option<UseKind>,
    /// Item that reveals the skill's knowledge to its holder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wisdom_item: Option<Tag>,
    /// The levels, in increasing order of experience (at least one). Each level
    /// lists its complete effects: nothing is inherited from the level before.
    pub levels: Vec<SkillLevel>,
}

/// Skill flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SkillFlag {
    /// Basic skill, open to every unit.
    Basic,
    /// Combat skill: its study limits are those of combat skills.
    Combat,
    /// Magic skill.
    Magic,
    /// Elemental magic: needs a level of magecraft to study.
    ElementalMagic,
    /// Specialist skill: a unit may have only a limited number.
    Specialist,
    /// Only leaders and heroes may study it.
    LeaderOnly,
    /// Only creatures may learn it.
    CreatureOnly,
    /// Cannot be studied.
    NoLearn,
    /// Using it grants no experience.
    NoExperience,
    /// Anyone can use it without study.
    UseAnyone,
}

/// What using a skill does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum UseKind {
    /// Makes items from inputs.
    Craft,
    /// Takes resources from the land.
    Harvest,
    /// Adds work to a construction (or upgrades one).
    Construction,
    /// Builds a structure.
    Build,
    /// Casts an enchantment.
    Enchant,
    /// Summons creatures.
    Summon,
    /// Acts only in combat.
    Combat,
    /// Performs a special action.
    Action,
}

/// One level of a skill.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SkillLevel {
    /// Cumulative experience points needed to reach this level.
    pub experience: u32,
    /// What this level brings, for the knowledge report.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Only leaders and heroes may reach this level.
    #[serde(skip_serializing_if = "is_false")]
    pub leader_only: bool,
    /// Stat modifiers for a unit at this level.
    #[serde(skip_serializing_if = "Stats::is_empty")]
    pub stats: Stats,
    /// Capacity added per figure, per movement mode.
    #[serde(skip_serializing_if = "TagMap::is_empty")]
    pub capacity: TagMap,
    /// Bonuses at this level.
    #[serde(skip_serializing_if = "Bonuses::is_empty")]
    pub bonuses: Bonuses,
    /// What the skill may be used on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<UseTarget>,
    /// Mana spent per use.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub use_mana: u32,
    /// What a day of use produces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub production: Option<Production>,
    /// Enchantments granted to the target, with their duration in days.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<Grant>,
    /// Creatures summoned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summon: Option<Summon>,
    /// What the skill does in combat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combat: Option<CombatAction>,
    /// Special effect number carried over from legacy data (`FX`).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub fx: u32,
}

/// The target of a skill's use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UseTarget {
    /// Unit, construction, location or the user itself.
    pub kind: TargetKind,
    /// Where the target may be.
    #[serde(default)]
    pub scope: TargetScope,
}

/// Kinds of targets for a skill's use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TargetKind {
    /// A unit.
    Unit,
    /// A construction.
    Construction,
    /// A location.
    Location,
    /// The user.
    Own,
}

/// How far a skill's target may be.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum TargetScope {
    /// Anywhere.
    #[default]
    Any,
    /// In the same location.
    Local,
    /// In the same or an adjacent location.
    Near,
}

/// What using a production skill makes in a day of work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Production {
    /// Tag of the item, construction work, construction, race, enchantment, special
    /// action or event produced; `None` when a use only consumes (summons, enchantments
    /// granted by the level).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Tag>,
    /// Figure-days of work needed for one batch.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub days: u32,
    /// How many of `output` one batch yields.
    #[serde(skip_serializing_if = "is_one")]
    pub multiple: u32,
    /// Items consumed per batch.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<ItemCount>,
    /// Inputs are consumed again for each batch (not once per use).
    #[serde(skip_serializing_if = "is_false")]
    pub reconsume: bool,
    /// Items that must be held (equipped as tools) to work.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tag>,
    /// Resource harvested from the location, and how many per figure-day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harvest: Option<ItemCount>,
    /// Construction upgraded into `output` (vessels), and how many are needed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upgrade: Option<ItemCount>,
}

impl Default for Production {
    /// Nothing produced; a batch yields one.
    fn default() -> Self {
        Production {
            output: None,
            days: 0,
            multiple: 1,
            inputs: Vec::new(),
            reconsume: false,
            tools: Vec::new(),
            harvest: None,
            upgrade: None,
        }
    }
}

/// An enchantment granted by a skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Grant(pub Tag, pub u32);

/// Creatures summoned by a skill.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Summon {
    /// Race tag of the summoned figures.
    pub race: Tag,
    /// Number of figures.
    pub count: u32,
    /// Name of the summoned unit.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Skills of the summoned unit (experience points).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<SkillExperience>,
    /// Items of the summoned unit: `(item, count, equipped)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemHolding>,
    /// Combat tactics of the summoned unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tactics: Option<CombatTactics>,
    /// Combat orders of the summoned unit.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub combat_orders: Vec<String>,
}

/// Items held: `(item, count, equipped)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemHolding(pub Tag, pub u32, pub u32);

/// Combat settings of a unit: stance, rank, file and movement.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CombatTactics {
    /// Combat stance tag (attack, defend, avoid…).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub stance: Tag,
    /// Rank tag (front, middle, rear).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub rank: Tag,
    /// File tag (left, center, right).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub file: Tag,
    /// Combat move tag (charge, fire, flee…).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub movement: Tag,
}

/// What an item or skill does in combat.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CombatAction {
    /// Kind of action.
    pub kind: CombatActionKind,
    /// Target class tag (see `combat.ron` targets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Tag>,
    /// Range in ranks.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub range: u32,
    /// Damage type tag.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<Tag>,
    /// Stat bonuses applied by the action.
    #[serde(skip_serializing_if = "Stats::is_empty")]
    pub bonus: Stats,
    /// Enchantment applied by the action, with its duration in days.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<Grant>,
    /// A second action taken in the same round (`"MELEE"`, `"NEXT"`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secondary: Option<String>,
    /// CMB-SKILLEQUIP: the item every figure must have equipped to use it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equipment: Option<Tag>,
}

/// Kinds of combat action.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CombatActionKind {
    /// Melee strike.
    #[default]
    Melee,
    /// Ranged strike.
    Ranged,
    /// Summons creatures onto the battlefield.
    Summon,
    /// Casts an enchantment.
    Enchant,
}

// ---------------------------------------------------------------- constructions.ron

/// `constructions.ron`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Constructions {
    /// Kinds of construction work (stonework, woodwork…), the materials of constructions.
    pub works: Vec<ConstructionWork>,
    /// Buildings and vessels.
    pub constructions: Vec<Construction>,
}

/// A kind of construction work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstructionWork {
    /// Tag, e.g. `"stonwk"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Plural name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub plural: String,
    /// Description.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// A building or vessel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Construction {
    /// Tag, e.g. `"mtow"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Description.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Works needed to complete it: `("stonwk", 300)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub materials: Vec<ItemCount>,
    /// Skill and level needed to build it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub building_skill: Option<SkillExperience>,
    /// Reference price.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub price: u32,
    /// Weight (vessels).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub weight: u32,
    /// Stat bonuses for units inside (defence, initiative, life of the structure…).
    #[serde(default, skip_serializing_if = "Stats::is_empty")]
    pub stats: Stats,
    /// Bonus to the location's economy, in %.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub economy: i32,
    /// Teaching (study speed, %), use and production bonuses for units inside.
    #[serde(default, skip_serializing_if = "Bonuses::is_empty")]
    pub bonuses: Bonuses,
    /// Title attached to the construction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<Tag>,
    /// Vessels: capacity per movement mode when crewed.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub capacity: TagMap,
    /// Vessels: skill and level the crew needs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crew_skill: Option<SkillLevelReq>,
    /// Vessels: figures needed as crew.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub crew: u32,
    /// How the construction is made (`Build` or `Construction`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub built_by: Option<UseKind>,
    /// What the construction produces, per batch: `(tag, count)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub produces: Vec<ItemCount>,
    /// Conditions on where it may be built, as text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub build_conditions: Vec<String>,
}

// ---------------------------------------------------------------- titles.ron

/// A title that a leader may claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Title {
    /// Tag, e.g. `"shrf"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Kind of title.
    pub kind: TitleKind,
    /// Skill and level needed to claim it.
    pub skill: SkillLevelReq,
    /// Cost of a claim in coins.
    pub cost: u32,
    /// Control points the title adds to its faction.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub control: u32,
    /// Land titles: range in walking days within which territories are owned.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub range: u32,
    /// Land titles: the holder keeps the title while within this % of the range
    /// of the title's location, by walking days (TTL-LAND; RULINGS 5: a Baron 150).
    /// 0: 100.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub keep_percent: u32,
    /// Guild titles: the holder keeps the title only while it stands at the
    /// title's location (or in a place it contains, or containing it); away at a
    /// month's end, it is lost (MAG-GUILD: a Head of Guild who leaves the guild).
    #[serde(default, skip_serializing_if = "is_false")]
    pub held_in_place: bool,
    /// Study bonuses given to the holder.
    #[serde(default, skip_serializing_if = "Bonuses::is_empty")]
    pub bonuses: Bonuses,
    /// The lower titles the holder may CANCEL (ORD-CANCEL, TTL-LAND: a Baron a
    /// Sheriff's, a Marquis a Lord's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancels: Option<CancelRight>,
}

/// A title's right to revoke lower titles (ORD-CANCEL): titles of these tags, at
/// places within the canceller's range, whose holder has less experience than the
/// canceller in `skill`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CancelRight {
    /// Tags of the titles it may cancel.
    pub titles: Vec<Tag>,
    /// The skill whose experience the canceller must have more of than the holder.
    pub skill: Tag,
}

/// Kinds of title.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TitleKind {
    /// Gives land ownership within its range.
    Land,
    /// Guild masters and other non-land titles.
    Guild,
    /// The Overlord title.
    Overlord,
}

// ---------------------------------------------------------------- enchantments.ron

/// `enchantments.ron`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Enchantments {
    /// Enchantments on units (timed effects).
    pub enchantments: Vec<Enchantment>,
    /// Location effects such as plague.
    pub effects: Vec<EffectRule>,
    /// Special actions (pickpocketing, rituals…).
    pub actions: Vec<FxAction>,
}

/// An enchantment: timed modifiers on a unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Enchantment {
    /// Tag, e.g. `"effride"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Plural name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub plural: String,
    /// Description.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Stat modifiers while active.
    #[serde(default, skip_serializing_if = "Stats::is_empty")]
    pub stats: Stats,
    /// Capacity added per movement mode.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub capacity: TagMap,
    /// Bonuses while active.
    #[serde(default, skip_serializing_if = "Bonuses::is_empty")]
    pub bonuses: Bonuses,
    /// Combat behaviour while active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<CombatAction>,
    /// Special action performed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Tag>,
    /// Numeric class carried over from legacy data (`TYPE`).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub class: u32,
    /// Special effect number carried over from legacy data (`FX`).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub fx: u32,
    /// Prefix used in reports.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub report_prefix: String,
    /// Not shown in reports.
    #[serde(default, skip_serializing_if = "is_false")]
    pub hidden: bool,
}

/// A location effect such as plague.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectRule {
    /// Tag.
    pub tag: Tag,
    /// Kind keyword (`PLAGUE`).
    pub kind: String,
    /// Name for reports.
    pub name: String,
    /// Duration in days.
    pub length: u32,
    /// Chance of spreading, in %.
    pub virality: u32,
    /// Chance of killing, in %.
    pub lethality: u32,
    /// Days before symptoms.
    pub incubation: u32,
    /// Enchantment marking an infected unit.
    pub infection: Option<Tag>,
    /// Enchantment marking an immune unit.
    pub immunity: Option<Tag>,
}

/// A special action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FxAction {
    /// Tag.
    pub tag: Tag,
    /// Kind keyword (`PICKPOCKET_ACTION`…).
    pub kind: String,
    /// Name for reports.
    pub name: String,
    /// Description.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Location effect started by the action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Tag>,
}

// ---------------------------------------------------------------- diplomacy.ron

/// A diplomatic stance (DIP-LEVELS): the core's stance record with Overlord's
/// capabilities.
pub type Stance = crate::core::data::stances::Stance<StanceGrant>;

/// What a faction holding another at a stance lets it do, or does to it (§7). The
/// mechanics ask for these, never for a stance by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum StanceGrant {
    /// Its units may stack under ours (ORD-STACK, DIP-ALLY).
    Stack,
    /// Its units may enter our structures (ORD-ENTER, STR-OWNER).
    Enter,
    /// We accept its gifts (ORD-GIVE, DIP-FRIENDLY).
    Gifts,
    /// It may harvest where we guard (GRD-EFFECT, DIP-FRIENDLY).
    Harvest,
    /// It may take items from the ground of land we own (ORD-GET).
    Ground,
    /// Our guards bar its way: a move turns back, a march in fights them
    /// (DIP-HOSTILE, MOV-AUTORETREAT).
    Bar,
    /// Our guards and its guards fight where both guard (GRD-CLASH).
    Clash,
    /// Our guards attack its units on sight (DIP-ENEMY, MOV-GUARD).
    AttackOnSight,
    /// Our guards defend its units when they are attacked where we guard (CMB-SIDES 3).
    Defend,
    /// We join its side in its battles where we are present (CMB-SIDES 4).
    Aid,
    /// Our guards, and the land we own, bar it from the market and from recruiting
    /// (DIP-HOSTILE, MKT-STANCE, REC-STANCE).
    Embargo,
    /// It may pillage where we guard, and our guards let it (DIP-ALLY, OWN-POLICY,
    /// GRD-PILLAGE).
    Pillage,
    /// A faction we hold at this stance gets nothing from the favours it declares
    /// toward us (DIP-MUTUAL): whatever its stance toward us grants, we get none of
    /// [`StanceGrant::is_favour`].
    Spurn,
}

impl StanceGrant {
    /// Whether the grant is a favour to the other faction (DIP-MUTUAL voids these
    /// toward a faction that spurns the giver); the rest are hostile acts.
    pub fn is_favour(self) -> bool {
        !matches!(self, Self::Bar | Self::Clash | Self::AttackOnSight | Self::Embargo | Self::Spurn)
    }
}

impl crate::core::data::stances::Grant for StanceGrant {
    fn bit(self) -> u64 {
        1 << self as u8
    }
}

// ---------------------------------------------------------------- combat.ron

/// `combat.ron`: the named values of combat settings and the numbers of battle.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatRules {
    /// Damage types.
    #[serde(default)]
    pub damage_types: Vec<NamedValue>,
    /// Battlefield files (left, center, right), in order from one edge.
    #[serde(default)]
    pub files: Vec<NamedValue>,
    /// Battlefield ranks, in order from the rear (rear, middle, front).
    #[serde(default)]
    pub ranks: Vec<NamedValue>,
    /// Combat moves (charge, fire, flee…).
    #[serde(default)]
    pub moves: Vec<NamedValue>,
    /// Combat stances (attack, defend, avoid).
    #[serde(default)]
    pub stances: Vec<NamedValue>,
    /// Target classes of combat actions.
    #[serde(default)]
    pub targets: Vec<NamedValue>,
    /// The numbers of battle (§26): every chance, limit and share.
    pub battle: BattleRules,
}

/// The numbers of battle (§26 of the rules, CMB-*). Percentages are whole percent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleRules {
    /// The skills a battle reads.
    pub skills: BattleSkills,
    /// CMB-STRIKE: a figure strikes with this chance…
    pub strike_percent: u32,
    /// …plus this much per point of its attack (melee, or missile for ranged attacks).
    pub strike_percent_per_attack: u32,
    /// CMB-WOUND: a hit that does not beat the defense is deadly with this chance…
    pub deadly_percent: u32,
    /// …plus this much per point of the attacker's combat value without equipment.
    pub deadly_percent_per_combat: u32,
    /// CMB-MISSILE: missiles meet the defense divided by this, rounded down.
    pub missile_defense_divisor: u32,
    /// CMB-TARGET: a target whose stealth beats the attacker's observation avoids
    /// the attack with this chance per point of difference.
    pub avoid_percent_per_stealth: u32,
    /// CMB-ACT: PARRY's initiative modifier.
    pub parry_initiative: i32,
    /// CMB-HITS: initiative modifier of each further strike.
    pub extra_strike_initiative: i32,
    /// CMB-END: a side with this % of its figures killed checks its morale.
    pub morale_casualty_percent: u32,
    /// CMB-MORALE: a unit's morale per point of defense…
    pub morale_percent_per_defense: u32,
    /// …and per level of the side's best living tactician.
    pub morale_percent_per_tactics: u32,
    /// CMB-MORALE: morale lost per round after the first check.
    pub morale_drop_per_round: u32,
    /// CMB-END: the battle ends after this many rounds in a row without a wound…
    pub quiet_rounds: u32,
    /// …or after this many rounds.
    pub max_rounds: u32,
    /// CMB-MOVES: rounds a fleeing unit must stay at the rear, unmoved and not
    /// attacked in melee, to leave the battle.
    pub flee_rounds: u32,
    /// CMB-ROUT: in the rout round a loser's PARRY is ignored with this chance.
    pub rout_parry_fail_percent: u32,
    /// CMB-HEAL: a wounded figure heals with this chance; otherwise it loses one
    /// more life point.
    pub heal_percent: u32,
    /// CMB-LOOT: share of a dead unit's possessions left as loot.
    pub loot_percent: u32,
    /// CP-BATTLE: a unit of a faction over its control points by M refuses to
    /// fight with M times this chance.
    pub refusal_percent_per_control_point: u32,
    /// TTL-DEATH: a title holder killed in battle loses the title with this chance.
    pub title_loss_percent: u32,
    /// RACE-HERO-PROMOTE: the race a leader promoted after a battle becomes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hero_race: Option<Tag>,
    /// CMB-FLY: the movement mode that makes a unit a flyer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flying_mode: Option<Tag>,
    /// CMB-FLY: a flyer's initiative bonus…
    pub flyer_initiative: i32,
    /// …its attack bonus against ground units…
    pub flyer_attack: i32,
    /// …and its defense bonus against ground melee…
    pub flyer_melee_defense: i32,
    /// …and against ground missiles.
    pub flyer_missile_defense: i32,
    /// CMB-MOVES: the equipment slot of mounts; a unit whose every figure has one
    /// equipped has a double chance to move first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mount_slot: Option<Tag>,
    /// CMB-AMBUSH, GRD-AMBUSH: ambush bonus of each guarding defender.
    pub guard_ambush: u32,
    /// The battle settings of a unit that never gave TACTIC.
    pub default_tactics: CombatTactics,
    /// SKL-EXP-BATTLE: the days of experience a battle gives.
    pub experience: BattleExperience,
}

/// The skills a battle reads (`combat.ron`, `battle.skills`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleSkills {
    /// CMB-TACTICS: tactics.
    pub tactics: Tag,
    /// CMB-TACTICS: strategy, which keeps the tactical advantage all battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Tag>,
    /// CMB-AMBUSH: ambush.
    pub ambush: Tag,
    /// CMB-FANATIC: fanaticism.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fanatic: Option<Tag>,
    /// SKL-EXP-BATTLE: combat.
    pub combat: Tag,
    /// SKL-EXP-BATTLE: melee.
    pub melee: Tag,
    /// SKL-EXP-BATTLE: parry.
    pub parry: Tag,
}

/// Days of experience a battle gives, per round fought (SKL-EXP-BATTLE).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleExperience {
    /// Combat skill, per round.
    pub combat_days: u32,
    /// Combat skill per round for a unit below its first level.
    pub untrained_combat_days: u32,
    /// Melee skill per round the unit struck with MELEE (needs the first level of combat).
    pub melee_days: u32,
    /// Parry skill per round the unit parried (needs some parry already).
    pub parry_days: u32,
    /// The skill that allows a combat skill or item, per round it was used.
    pub action_days: u32,
}

/// A named value of a combat table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NamedValue {
    /// Tag.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Description for players.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Numeric code.
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub value: u32,
}

// ---------------------------------------------------------------- events.ron

/// A kind of report event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventType {
    /// Tag.
    pub tag: Tag,
    /// Name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
}

// ---------------------------------------------------------------- economy.ron

/// `economy.ron`: the numbers of living places: markets (§16), recruits (§15) and
/// population (§13). A rule set without the file has still places: no drift, no
/// migration, prices that never move.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Economy {
    /// Markets (MKT-DRIFT).
    pub market: PriceDrift,
    /// How much of a month's change in a place's population its market's monthly
    /// quantities follow, in % (100: in proportion; 0: the data's quantities stay).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub market_population_percent: u32,
    /// Recruit offers (REC-DRIFT).
    pub recruits: PriceDrift,
    /// Constructions inside which nobody can recruit (REC-CASTLE).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub no_recruit_in: Vec<Tag>,
    /// Races every populated place offers for hire (REC-OFFER), from its month end
    /// on, as many as its population gives (`races.ron` `recruit_fraction`, capped
    /// by `recruit_max`) at the race's `recruit_cost`. A place whose people are too
    /// few for one figure offers none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub offered_everywhere: Vec<Tag>,
    /// Population (POP-*).
    pub population: PopulationRules,
    /// Land: taxes, occupation and pillage (§14).
    pub land: LandRules,
}

/// The numbers of land ownership (§14: OWN-TAX, OWN-FORCE, OWN-PILLAGE-MIN,
/// OWN-PILLAGE-HARM, OWN-SELF-PILLAGE). A rule set without them levies no taxes and
/// lets any unit pillage.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LandRules {
    /// OWN-TAX: a month's taxes per 100 people, before the season's `tax_percent`.
    pub tax_per_hundred: u32,
    /// POP-OPTIMA ("Taxing decreases the optima"): a place whose owner collected
    /// taxes in the month has its optimum shifted down by these points of %.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub tax_optimum_percent: u32,
    /// OWN-FORCE: a significant force has one figure per `people_per_figure`
    /// people, at least `min_figures` and at most `max_figures`.
    pub force: ForceRule,
    /// ORD-PILLAGE and its harm.
    pub pillage: PillageRules,
}

/// OWN-FORCE: how many figures able to do combat damage make a significant force.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ForceRule {
    /// People per figure.
    pub people_per_figure: u32,
    /// At least this many figures.
    pub min_figures: u32,
    /// At most this many figures (0: no bound).
    pub max_figures: u32,
}

impl ForceRule {
    /// The figures a significant force needs where `people` live.
    pub fn figures_for(&self, people: u32) -> u32 {
        let n = people.checked_div(self.people_per_figure).unwrap_or(0).max(self.min_figures);
        if self.max_figures > 0 { n.min(self.max_figures) } else { n }
    }
}

/// ORD-PILLAGE, OWN-PILLAGE-MIN, OWN-PILLAGE-HARM, OWN-SELF-PILLAGE.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PillageRules {
    /// Skill and level a pillaging unit needs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skill: Option<SkillLevelReq>,
    /// A pillaging unit needs at least this many figures (besides a significant
    /// force where people live).
    pub min_figures: u32,
    /// Each day a place is pillaged its optimum drops by these points of %.
    pub optimum_percent: u32,
    /// Each day a place is pillaged this % of what is left of its market's and its
    /// recruits' monthly quantities is gone.
    pub market_percent: u32,
    /// An owner pillaging its own land: the optimum drops this % as much.
    pub self_optimum_percent: u32,
    /// An owner pillaging its own land: chance (%), at month end, of an uprising
    /// that takes the owner's most local title covering the place.
    pub uprising_percent: u32,
}

/// How a place's standing offers (market goods, recruits) move at month end
/// (MKT-DRIFT, REC-DRIFT). An offer whose whole quantity was taken grows dearer (a
/// thing the place sells) or cheaper (a thing it buys); one of which less than
/// `slow_percent` was taken moves the other way.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PriceDrift {
    /// The price moves by this % of itself (rounded, at least 1), each month.
    pub price_step_percent: u32,
    /// Less than this % of the month's quantity taken is slow trade.
    pub slow_percent: u32,
    /// Prices stay at or above this % of the base price (an item's `price`, a
    /// race's `recruit_cost`), and at least 1.
    pub floor_percent: u32,
    /// Prices stay at or below this % of the base price (0: no ceiling).
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub ceiling_percent: u32,
}

/// The numbers of population (§13).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PopulationRules {
    /// POP-DRIFT: largest random change per month, in %.
    pub drift_percent: u32,
    /// POP-MIGRATE: share (%) of the people that would even two neighbours'
    /// population-to-optimum ratios who move in a month, over one day of travel
    /// (over n days: an n-th of it).
    pub migration_percent: u32,
    /// POP-OPTIMA: a place's optimum moves by these points of % (of its terrain's
    /// optimum, with its structures' `economy`): up each month its market traded,
    /// down for each battle fought there in the month.
    pub market_optimum_percent: u32,
    /// See `market_optimum_percent`.
    pub battle_optimum_percent: u32,
    /// The shift of an optimum goes back toward 0 by this many points a month.
    pub optimum_recovery_percent: u32,
    /// The shift stays within ± this many points.
    pub optimum_shift_limit: u32,
    /// POP-FAMINE: a place with more people than this % of its optimum (food sold
    /// on its market that month counted, see `food_feeds`) starves.
    pub famine_percent: u32,
    /// Share (%) of the people beyond that limit who die in a famine.
    pub famine_deaths_percent: u32,
    /// Food items: each one sold on a place's market in the month feeds
    /// `food_feeds` people beyond the famine limit.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub food: Vec<Tag>,
    /// See `food`.
    pub food_feeds: u32,
    /// POP-FAMINE: the plague (an effect of `enchantments.ron`, its `length`,
    /// `virality`, `lethality` and `incubation`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plague: Option<Tag>,
    /// Chance (per mille) that a famine brings the plague.
    pub plague_outbreak_permille: u32,
    /// POP-ECON: wages move by this % of themselves (at least 1) each month the
    /// people present (population and figures of units) are more than
    /// `crowded_percent` of the optimum (down) or fewer than `sparse_percent` (up).
    pub wage_step_percent: u32,
    /// See `wage_step_percent`.
    pub crowded_percent: u32,
    /// See `wage_step_percent`.
    pub sparse_percent: u32,
    /// Wages stay within these bounds (a place with no wages has none).
    pub wage_min: u32,
    /// See `wage_min`.
    pub wage_max: u32,
}

// ---------------------------------------------------------------- starts.ron

/// `starts.ron`: what a faction joining the game gets (§29, START-*). Where it
/// starts is the scenario's (`game.ron`, [`StartPlace`](super::StartPlace)).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Starts {
    /// Faction funds of every new faction, before the start place's bonus
    /// (START-FUNDS): `{"coin": 5000}`.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub funds: std::collections::BTreeMap<Tag, u64>,
    /// The faction's leading unit (START-UNITS: one hero on an equipped horse).
    pub leader: StartUnit,
    /// The units stacked under the leader (START-UNITS: 50 unskilled followers).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub followers: Vec<StartUnit>,
    /// The leader types a new player chooses from (START-TYPE), in the order they
    /// are offered.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<StartType>,
    /// The land lore of each terrain, by terrain tag: a start type with `lore`
    /// gives its leader the lore of the terrain around its start place.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub lore: std::collections::BTreeMap<Tag, Tag>,
}

/// A unit every new faction gets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StartUnit {
    /// Its name.
    pub name: String,
    /// Race tag.
    pub race: Tag,
    /// Figures (1 when left out).
    #[serde(skip_serializing_if = "is_one")]
    pub figures: u32,
    /// Items: `(item, count, equipped)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemHolding>,
}

impl Default for StartUnit {
    fn default() -> Self {
        StartUnit { name: String::new(), race: String::new(), figures: 1, items: Vec::new() }
    }
}

/// A leader type a new player may choose (START-TYPE).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StartType {
    /// The word the player chooses it by (`"general"`).
    pub tag: Tag,
    /// Its name (`"General"`).
    pub name: String,
    /// What it means, for the game master and the player.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Skills the leader has, at their level.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<SkillLevelReq>,
    /// Items the leader gets: `(item, count, equipped)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemHolding>,
    /// Choices the player makes (an element, two crafts…).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<StartChoice>,
    /// Items drawn at random: `count` different ones of `from`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random_items: Option<RandomItems>,
    /// The leader has the land lore of its start place's terrain, at this level
    /// (`starts.ron`'s `lore`); 0: none.
    #[serde(skip_serializing_if = "is_zero_u32")]
    pub lore: u32,
}

/// A choice of a start type: `count` different options of `options`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StartChoice {
    /// What is chosen (`"element"`), as the player is told.
    pub name: String,
    /// How many different options the player names.
    pub count: u32,
    /// The options.
    pub options: Vec<StartOption>,
}

/// One option of a [`StartChoice`]: a skill at a level and the items that go with
/// it. The player names it by the skill's tag.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartOption {
    /// The skill and its level.
    pub skill: SkillLevelReq,
    /// Items that come with it: `(item, count, equipped)`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<ItemHolding>,
}

/// Items drawn at random for a start type.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RandomItems {
    /// How many different items.
    pub count: u32,
    /// The items drawn from.
    pub from: Vec<Tag>,
}
