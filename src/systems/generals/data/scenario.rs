//! A generals scenario (`scenarios/<name>/`): the game, its players, regions,
//! generals and troops. A turn's state is a scenario too.

use super::rules::Tag;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A whole scenario.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scenario {
    /// `game.ron`.
    pub game: Game,
    /// `players.ron`.
    pub players: Vec<Player>,
    /// `regions.ron`.
    pub regions: Vec<Region>,
    /// `generals.ron`.
    pub generals: Vec<General>,
    /// `troops.ron`.
    pub troops: Vec<Troop>,
}

/// `game.ron`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Game {
    /// Game name (orders may name it).
    pub name: String,
    /// The rule set's folder name.
    pub ruleset: String,
    /// Seed of every random stream.
    pub seed: u64,
    /// The turn this state is the end of (0: the start).
    #[serde(default)]
    pub turn: u32,
    /// Next deadline, as the GM writes it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub deadline: String,
    /// Victory points (ruling 14).
    #[serde(default)]
    pub victory: Victory,
    /// The game is over: its last turn was played, or a player reached the
    /// points that end it. A game over takes no more orders.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ended: bool,
}

/// Where victory points come from, and when the game ends (ruling 14).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// Points per turn for holding a region, by region id.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub regions: BTreeMap<Tag, u32>,
    /// Points for winning a battle.
    #[serde(default)]
    pub battle_won: u32,
    /// Points for killing an enemy general.
    #[serde(default)]
    pub general_killed: u32,
    /// Points per 100 gold in the treasury at the end of the game.
    #[serde(default)]
    pub per_100_gold: u32,
    /// The game ends after this turn (0: no limit) …
    #[serde(default)]
    pub last_turn: u32,
    /// … or when a player reaches this many points (0: no limit).
    #[serde(default)]
    pub points: u32,
}

/// A relation between two players (generals-rules.txt 150-159).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// A public alliance.
    Ally,
    /// An alliance known only to its members.
    SecretAlly,
    /// Where every player starts.
    #[default]
    Neutral,
    /// At war.
    War,
}

/// A player.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// Id, e.g. `"p1"`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Password for orders.
    pub password: String,
    /// Where reports go.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub email: String,
    /// Gold.
    pub treasury: u64,
    /// Victory points so far.
    #[serde(default)]
    pub points: u64,
    /// Relations other than neutral, by player id (the GM enters them; both sides
    /// hold the same).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub relations: BTreeMap<String, Relation>,
}

/// A region.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    /// Id, e.g. `"R12"`.
    pub id: String,
    /// Name.
    pub name: String,
    /// Terrain tag.
    pub terrain: Tag,
    /// Adjacent regions, by id (adjacency goes both ways; validation checks it).
    pub adjacent: Vec<String>,
    /// Income now, and its original value.
    pub income: (u32, u32),
    /// Hire limit now, and its original value.
    pub hire_limit: (u32, u32),
    /// Troop types for hire here, by tag.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hires: Vec<Tag>,
    /// The standing defensive order (a battle order tag).
    pub defense: Tag,
    /// The general who prepared the battlefield, while he stays (by name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prepared_by: Option<String>,
    /// Axial map coordinates, for the map picture.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<(i32, i32)>,
}

/// A general.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct General {
    /// Name (unique in the game: orders name generals).
    pub name: String,
    /// The player's id.
    pub player: String,
    /// The region he is in.
    pub region: String,
    /// Renown.
    #[serde(default)]
    pub renown: u32,
    /// Skills by tag, with their levels.
    pub skills: BTreeMap<Tag, u32>,
    /// Invincible Warrior's chosen unit, by troop id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub champion: Option<String>,
    /// Trained this turn: he may only move until the next.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub new: bool,
}

/// A unit of troops.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Troop {
    /// Id, e.g. `"T7"`.
    pub id: String,
    /// The player's id.
    pub player: String,
    /// The troop type's tag.
    #[serde(rename = "type")]
    pub kind: Tag,
    /// Men.
    pub men: u32,
    /// Veteran levels.
    #[serde(default)]
    pub veteran: u32,
    /// The region it is in.
    pub region: String,
    /// In the reserve: it takes casualties after the main body.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reserve: bool,
}
