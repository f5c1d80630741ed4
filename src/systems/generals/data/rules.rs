//! The generals rule set (`assets/rules/generals/`): every number of the game is
//! here, none in the mechanics. The defaults are the rulings of
//! `docs/generals.md`.

use crate::core::engine::plan::TurnPlan;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A tag naming a record of the rule set or the scenario.
pub type Tag = String;

/// The whole rule set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleSet {
    /// `ruleset.ron`.
    pub info: RuleSetInfo,
    /// `plan.ron`: the turn plan.
    pub plan: TurnPlan,
    /// `terrains.ron`.
    pub terrains: Vec<Terrain>,
    /// `troops.ron`: the troop types.
    pub troops: Vec<TroopType>,
    /// `skills.ron`: the generals' skills.
    pub skills: Vec<Skill>,
    /// `combat.ron`: battle orders and the coefficients of a battle.
    pub combat: Combat,
}

/// `ruleset.ron`: name, rule system and the game's parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSetInfo {
    /// Short name (the folder's).
    pub name: String,
    /// The rule system: `"generals"`.
    pub system: String,
    /// What the rule set is.
    #[serde(default)]
    pub description: String,
    /// The game's parameters.
    pub parameters: Parameters,
}

/// The numbers of the turn outside battles.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Parameters {
    /// Income a region recovers at the start of each turn, up to its original
    /// value (generals-rules.txt 60: 2).
    pub income_recovery: u32,
    /// Hire limit a region recovers at the start of each turn (5).
    pub hire_recovery: u32,
    /// Overtax: one step converts this much income … (1)
    pub overtax_income_step: u32,
    /// … into this much hire limit, or back (10).
    pub overtax_hire_step: u32,
    /// Gold paid per point of troops recruited (1).
    pub gold_per_point: u32,
    /// Gold a new general costs (Train General: 100).
    pub train_general_cost: u32,
    /// How many regions away Move Army may go (2).
    pub move_army_reach: u32,
    /// Skills a general starts with (2), at level …
    pub starting_skills: u32,
    /// … (1).
    pub starting_skill_level: u32,
    /// The highest skill level (10).
    pub max_skill_level: u32,
    /// Renown a new skill costs, during R and R (5).
    pub new_skill_renown: u32,
    /// Renown per level of the new level when a skill is raised (5: level n costs
    /// 5 × n).
    pub raise_renown_per_level: u32,
    /// Renown won per this many enemy men killed (100) …
    pub renown_men: u32,
    /// … and for killing an enemy general (10) …
    pub renown_general: u32,
    /// … and lost for losing a battle (5; renown never goes below 0).
    pub renown_defeat: u32,
    /// Scouting: counts of men seen in other players' regions are rounded to the
    /// nearest multiple of this (10).
    pub scout_rounding: u32,
}

/// A terrain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    /// Tag, e.g. `"fore"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Colour on the map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<(u8, u8, u8)>,
}

/// A troop type: its statistics per man (generals-rules.txt 11) and its modifiers
/// in percent by terrain and by battle order (generals-rules.txt 80).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TroopType {
    /// Tag, e.g. `"arch"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Speed: the army with the higher average movement defends better.
    pub movement: u32,
    /// Damage dealt per man and round.
    pub offense: u32,
    /// Resistance to damage.
    pub defense: u32,
    /// Damage a man takes before dying (heavy troops, monsters and giants more).
    pub health: u32,
    /// Reach: ranged troops strike in the first round before melee (0: melee).
    #[serde(default)]
    pub range: u32,
    /// Morale in %: a unit's steadiness. Before each round its chance to flee is
    /// the pressure on its side (losses, numbers) × (100 − morale)%: 100 never
    /// flees.
    pub morale: u32,
    /// Point value per man: recruiting costs points × gold per point, within the
    /// hire limit.
    pub points: u32,
    /// Offense and defense modifier in percent by terrain tag (`{"fore": -30}`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub terrain: BTreeMap<Tag, i32>,
    /// Offense and defense modifier in percent by battle order tag.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub orders: BTreeMap<Tag, i32>,
    /// Raised by necromancers: recruited free, never hired.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub undead: bool,
}

/// What a general's skill does, per level (generals-rules.txt 104-140).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum SkillEffect {
    /// Arcane Mage: enemy men killed each round, per level.
    Casualties(u32),
    /// Necromancer: free undead men, per level, when recruiting.
    Undead(u32),
    /// Healer: the army's losses each round reduced by this % per level.
    Healing(u32),
    /// Invincible Warrior: the champion unit's offense and defense +% per level.
    Champion(u32),
    /// Undying: the chance of the general's death reduced by this % per level.
    Undying(u32),
    /// Inspirational: each unit's chance to stand +% per level.
    Morale(u32),
    /// Rabble Rouser: extra men in % of those recruited, per level.
    Rabble(u32),
    /// Sneaky: the chance an ambush is discovered −% per level; armies hidden
    /// from scouts whose best Sneaky is lower.
    Sneaky(u32),
    /// Master Tactician: the army's defense +% per level.
    Defense(u32),
    /// An order's effect +% per level for the general's army (Guerilla Tactics on
    /// skirmishes, Fortification Expert on fortifying, Battlefield Planner on field
    /// battles).
    Order(Tag, u32),
}

/// A general's skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skill {
    /// Tag, e.g. `"heal"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// What it does, for reports.
    #[serde(default)]
    pub description: String,
    /// Its effect per level.
    pub effect: SkillEffect,
}

/// Who may give a battle order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OrderSide {
    /// The attacker only (Flanking).
    Offensive,
    /// The defender only (Fortify, Withdraw).
    Defensive,
    /// Either (Ambush, Skirmish, Field).
    Both,
}

/// A battle order (generals-rules.txt 18-33, 64-78).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BattleOrder {
    /// Tag, e.g. `"ambu"`; the order language writes its name.
    pub tag: Tag,
    /// Name, as written in orders (`AMBUSH`).
    pub name: String,
    /// Who may give it.
    pub side: OrderSide,
    /// Damage dealt, in % of the standard (field battle: 100; skirmish: less).
    pub damage_percent: u32,
    /// Damage taken, in % (skirmish: less; fortify: less).
    pub taken_percent: u32,
    /// Chance in % that the other side discovers it (ambush: 25 defending, 40
    /// attacking); both then skirmish.
    #[serde(default)]
    pub discovered_percent: Option<(u32, u32)>,
    /// A side under this order may flee (fortify: hardly).
    #[serde(default = "yes")]
    pub may_flee: bool,
}

fn yes() -> bool {
    true
}

/// `combat.ron`: the orders and the coefficients of the battle model
/// (docs/generals.md).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Combat {
    /// The battle orders.
    pub orders: Vec<BattleOrder>,
    /// The order a discovered ambush turns into, for both sides.
    pub discovered_into: Tag,
    /// The order that gives a prepared battlefield's bonus (fortify).
    pub prepared_as: Tag,
    /// The defensive order of a rearguard covering the rest (withdraw).
    pub withdraw: Tag,
    /// Rounds the rearguard must hold for the rest to get away (3).
    pub rearguard_rounds: u32,
    /// The offensive order that needs speed (flanking) …
    pub flanking: Tag,
    /// … the edge in average movement it needs (1) …
    pub flanking_edge: u32,
    /// … and the order it is fought as without it (field).
    pub flanking_fallback: Tag,
    /// The order a side takes once its last unit fled.
    pub flee: Tag,
    /// At most this many rounds; then the defender holds.
    pub max_rounds: u32,
    /// Defense bonus in % per point of average movement above the enemy's.
    pub speed_defense_percent: u32,
    /// Morale: before each round a unit flees with (this % per 10% of its
    /// side's men lost so far + `morale_size_percent` per 100% the enemy
    /// outnumbers it) × (100 − its morale)%, less Inspirational's bonus.
    pub morale_loss_percent: u32,
    /// See `morale_loss_percent`.
    pub morale_size_percent: u32,
    /// Veterans: chance in % that a surviving unit of the winner rises a level …
    pub veteran_winner_percent: u32,
    /// … of the loser …
    pub veteran_loser_percent: u32,
    /// … and the offense and defense each level adds, in %.
    pub veteran_bonus_percent: u32,
    /// A general dies with this % of the % of his side's men killed (50).
    pub general_death_percent: u32,
}
