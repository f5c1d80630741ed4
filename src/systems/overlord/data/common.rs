//! Small value types shared by rule sets and scenarios.
//!
//! Every table in the data files refers to other records by their *tag*: a short
//! string such as `"swrd"` (an item), `"cmbt"` (a skill) or `"L12"` (a location).
//! Tags are case-sensitive and unique within their kind.

use serde::{Deserialize, Serialize};

pub use crate::core::data::tables::{Tag, TagMap};

pub(crate) fn is_zero(v: &i32) -> bool {
    *v == 0
}
pub(crate) fn is_zero_u32(v: &u32) -> bool {
    *v == 0
}
pub(crate) fn is_false(v: &bool) -> bool {
    !*v
}
pub(crate) fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// Combat and character statistics, or modifiers to them.
///
/// Used by races (base values per figure), items (modifiers when equipped), skill
/// levels, constructions (bonuses to units inside), enchantments and titles.
/// Omitted fields are 0.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Stats {
    /// Melee attack rating.
    #[serde(skip_serializing_if = "is_zero")]
    pub melee: i32,
    /// Ranged attack rating.
    #[serde(skip_serializing_if = "is_zero")]
    pub missile: i32,
    /// Defence rating.
    #[serde(skip_serializing_if = "is_zero")]
    pub defense: i32,
    /// Initiative: higher acts earlier in a combat round.
    #[serde(skip_serializing_if = "is_zero")]
    pub initiative: i32,
    /// Damage dealt by a melee hit.
    #[serde(skip_serializing_if = "is_zero")]
    pub damage: i32,
    /// Damage dealt by a ranged hit.
    #[serde(skip_serializing_if = "is_zero")]
    pub ranged_damage: i32,
    /// Extra strikes per round.
    #[serde(skip_serializing_if = "is_zero")]
    pub hits: i32,
    /// Hit points per figure.
    #[serde(skip_serializing_if = "is_zero")]
    pub life: i32,
    /// Maximum mana.
    #[serde(skip_serializing_if = "is_zero")]
    pub mana: i32,
    /// Upkeep in coins per figure per month.
    #[serde(skip_serializing_if = "is_zero")]
    pub upkeep: i32,
    /// Control points used.
    #[serde(skip_serializing_if = "is_zero")]
    pub control: i32,
    /// Stealth level.
    #[serde(skip_serializing_if = "is_zero")]
    pub stealth: i32,
    /// Observation level.
    #[serde(skip_serializing_if = "is_zero")]
    pub observation: i32,
}

impl Stats {
    /// Whether every field is zero.
    pub fn is_empty(&self) -> bool {
        *self == Stats::default()
    }

    /// A race's statistics (`self`) with `defaults` where it says 0 (the rule
    /// set's `default_stats`): what a unit of it has before skills, items and
    /// enchantments. Upkeep and control are the race's own, per figure, and not
    /// defaulted (they are reckoned from the figures).
    pub fn with_defaults(&self, defaults: &Stats) -> Stats {
        let pick = |a: i32, b: i32| if a == 0 { b } else { a };
        Stats {
            melee: pick(self.melee, defaults.melee),
            missile: pick(self.missile, defaults.missile),
            defense: pick(self.defense, defaults.defense),
            initiative: pick(self.initiative, defaults.initiative),
            damage: pick(self.damage, defaults.damage),
            ranged_damage: pick(self.ranged_damage, defaults.ranged_damage),
            hits: pick(self.hits, defaults.hits),
            life: pick(self.life, defaults.life),
            mana: pick(self.mana, defaults.mana),
            upkeep: 0,
            control: 0,
            stealth: pick(self.stealth, defaults.stealth),
            observation: pick(self.observation, defaults.observation),
        }
    }
}

/// Percentage bonuses keyed by skill or movement mode.
///
/// `study: {"mage": 20}` makes `mage` studied 20% faster; a negative value slows it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bonuses {
    /// Study speed bonus in % per skill tag.
    #[serde(skip_serializing_if = "TagMap::is_empty")]
    pub study: TagMap,
    /// Extra levels a unit may reach in a skill beyond the normal limit.
    #[serde(skip_serializing_if = "TagMap::is_empty")]
    pub learning_level: TagMap,
    /// Bonus in % to the effect of using a skill (output, strength).
    #[serde(rename = "use", skip_serializing_if = "TagMap::is_empty")]
    pub use_: TagMap,
    /// Bonus in % to production made with a skill (constructions).
    #[serde(skip_serializing_if = "TagMap::is_empty")]
    pub production: TagMap,
    /// Bonus in % to movement speed per movement mode tag.
    #[serde(skip_serializing_if = "TagMap::is_empty")]
    pub movement: TagMap,
}

impl Bonuses {
    /// Whether no bonus is set.
    pub fn is_empty(&self) -> bool {
        *self == Bonuses::default()
    }
}

/// A skill and a level, as in a prerequisite or an equipment condition.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkillLevelReq {
    /// Skill tag.
    pub skill: Tag,
    /// Level (1 = first level).
    pub level: u32,
}

/// A quantity of an item, written `("iron", 2)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ItemCount(pub Tag, pub u32);

/// Whether `word` is a new-entity id of kind `kind` (`U` units, `B` structures):
/// `<faction>n<kind><two digits>`, case-sensitive (FILE-NEWID).
pub fn is_new_id(word: &str, kind: char) -> bool {
    let b = word.as_bytes();
    b.len() >= 5
        && b[b.len() - 4] == b'n'
        && b[b.len() - 3] == kind as u8
        && b[b.len() - 2].is_ascii_digit()
        && b[b.len() - 1].is_ascii_digit()
        && b[..b.len() - 4].iter().all(|c| c.is_ascii_alphanumeric())
}

/// The faction a new-entity id belongs to: `f1` of `f1nU05`. The whole part
/// before the suffix is the faction's id, so `f10nU05` is `f10`'s and never `f1`'s.
pub fn new_id_faction(word: &str, kind: char) -> Option<&str> {
    is_new_id(word, kind).then(|| &word[..word.len() - 4])
}

/// Whether `word` is a new-entity id of kind `kind` of the faction `faction`.
pub fn is_new_id_of(word: &str, kind: char, faction: &str) -> bool {
    new_id_faction(word, kind) == Some(faction)
}

/// "1st", "2nd", "3rd", "4th", … "11th", "12th", "13th", "21st".
pub fn ordinal(n: u32) -> String {
    format!("{n}{}", ordinal_suffix(n))
}

/// The letters after `n` in its ordinal: "st" for 1 and 21, "th" for 11.
pub fn ordinal_suffix(n: u32) -> &'static str {
    match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    }
}
