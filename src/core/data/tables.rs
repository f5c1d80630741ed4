//! The core tables: the records every rule system with a map, units and goods
//! has — movement modes and directions, the calendar and its weathers, terrains,
//! races, items, skills, and (in [`super::stances`]) diplomatic stances.
//!
//! Each record holds the fields any rule system reads at its top level (tag, name,
//! weight, capacities, travel days…) and, under `system:`, the fields of the rule
//! system that plays the rule set, of the type `X` that system chooses (`()` when
//! it adds nothing). So a terrain may read
//!
//! ```ron
//! (
//!   tag: "plai",
//!   name: "Plains",
//!   travel_days: {"walk": 1, "ride": 1},
//!   system: (optimum_population: 1000, land_skill: Some("plwk")),
//! )
//! ```
//!
//! Each table has its file in the rule set folder ([`MODES`], [`TERRAINS`]…), and
//! [`check`] validates what the core fields say: unique tags, and references among
//! the core tables (capacities and travel days name movement modes, months name
//! seasons, seasons' odds name weathers). A rule system checks its own fields.

use super::stances::Stance;
use super::validate::{Ids, Issues, Table, with};
use crate::core::data::ronpos::Seg;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The identifier of a record: a short string such as `"swrd"` or `"L12"`,
/// case-sensitive, unique within its table.
pub type Tag = String;

/// A map from a tag to a number, written in RON as `{"walk": 100, "ride": 20}`.
/// Keys are kept sorted so that saved files are stable.
pub type TagMap = BTreeMap<Tag, i32>;

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// The movement modes, `movement.ron` field `modes`.
pub const MODES: Table = Table::rules_in("movement.ron", "modes");
/// The exit directions, `movement.ron` field `directions`.
pub const DIRECTIONS: Table = Table::rules_in("movement.ron", "directions");
/// The months of the calendar, `climate.ron` field `months`.
pub const MONTHS: Table = Table::rules_in("climate.ron", "months");
/// The seasons, `climate.ron` field `seasons`.
pub const SEASONS: Table = Table::rules_in("climate.ron", "seasons");
/// The weathers, `climate.ron` field `weathers`.
pub const WEATHERS: Table = Table::rules_in("climate.ron", "weathers");
/// The terrains, `terrains.ron`.
pub const TERRAINS: Table = Table::rules("terrains.ron");
/// The races, `races.ron`.
pub const RACES: Table = Table::rules("races.ron");
/// The items, `items.ron`.
pub const ITEMS: Table = Table::rules("items.ron");
/// The skills, `skills.ron`.
pub const SKILLS: Table = Table::rules("skills.ron");
/// The diplomatic stances, `diplomacy.ron`.
pub const STANCES: Table = Table::rules("diplomacy.ron");

// ---------------------------------------------------------------- movement.ron

/// `movement.ron`: the ways of travelling and the exit directions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    default,
    deny_unknown_fields,
    bound(serialize = "M: Serialize + Default + PartialEq", deserialize = "M: Deserialize<'de> + Default")
)]
pub struct Movement<M> {
    /// Movement modes (walk, ride, fly, swim…), in order. Capacities and travel
    /// times are keyed by these tags.
    pub modes: Vec<MovementMode<M>>,
    /// Exit directions.
    pub directions: Vec<Direction>,
}

impl<M> Default for Movement<M> {
    fn default() -> Self {
        Movement { modes: Vec::new(), directions: Vec::new() }
    }
}

/// A way of travelling.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(serialize = "X: Serialize + Default + PartialEq"))]
pub struct MovementMode<X> {
    /// Tag, e.g. `"walk"`.
    pub tag: Tag,
    /// Name for reports, e.g. "walking".
    pub name: String,
    /// The rule system's fields.
    #[serde(default, skip_serializing_if = "is_default")]
    pub system: X,
}

/// An exit direction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Direction {
    /// Tag as written in orders, e.g. `"NE"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// For the six hex directions: the step `(dq, dr)` in axial hex coordinates.
    /// `None` for IN, OUT, UP, DOWN and other special exits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<(i32, i32)>,
}

// ---------------------------------------------------------------- climate.ron

/// `climate.ron`: the calendar, seasons and weathers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    default,
    deny_unknown_fields,
    bound(
        serialize = "S: Serialize + Default + PartialEq, W: Serialize + Default + PartialEq",
        deserialize = "S: Deserialize<'de> + Default, W: Deserialize<'de> + Default"
    )
)]
pub struct Climate<S, W> {
    /// The months of the year, in order; each belongs to a season.
    pub months: Vec<Month>,
    /// Seasons.
    pub seasons: Vec<Season<S>>,
    /// Weathers.
    pub weathers: Vec<Weather<W>>,
}

impl<S, W> Default for Climate<S, W> {
    fn default() -> Self {
        Climate { months: Vec::new(), seasons: Vec::new(), weathers: Vec::new() }
    }
}

/// A month of the calendar.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Month {
    /// Name for reports.
    pub name: String,
    /// Season tag.
    pub season: Tag,
}

/// A season and its weather odds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(serialize = "X: Serialize + Default + PartialEq"))]
pub struct Season<X> {
    /// Tag, e.g. `"winter"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Relative odds of each weather (weather tag → weight).
    #[serde(default)]
    pub weather_weights: TagMap,
    /// The rule system's fields.
    #[serde(default, skip_serializing_if = "is_default")]
    pub system: X,
}

/// A weather and its effect on travel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(serialize = "X: Serialize + Default + PartialEq"))]
pub struct Weather<X> {
    /// Tag, e.g. `"rain"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Change to travel time in % per movement mode (rain: walk +20).
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub travel_percent: TagMap,
    /// Fixed travel time in days per movement mode, replacing the terrain's (rain: fly 6).
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub travel_days: TagMap,
    /// The rule system's fields.
    #[serde(default, skip_serializing_if = "is_default")]
    pub system: X,
}

// ---------------------------------------------------------------- terrains.ron

/// A terrain type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(serialize = "X: Serialize + Default + PartialEq"))]
pub struct Terrain<X> {
    /// Tag, e.g. `"plai"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Days to cross the terrain per movement mode. A mode absent here cannot enter.
    #[serde(default)]
    pub travel_days: TagMap,
    /// Water (ocean, lake): vessels sail on it.
    #[serde(default, skip_serializing_if = "is_default")]
    pub water: bool,
    /// Covered terrain (underground, planes): no climate.
    #[serde(default, skip_serializing_if = "is_default")]
    pub covered: bool,
    /// Colour for maps, `(r, g, b)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<(u8, u8, u8)>,
    /// The rule system's fields.
    #[serde(default, skip_serializing_if = "is_default")]
    pub system: X,
}

// ---------------------------------------------------------------- races.ron

/// A race, or a kind of troops: what a unit's figures are.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(serialize = "X: Serialize + Default + PartialEq"))]
pub struct Race<X> {
    /// Tag, e.g. `"man"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Plural name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub plural: String,
    /// Description for reports.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Weight of one figure.
    #[serde(default)]
    pub weight: u32,
    /// Carrying capacity of one figure per movement mode.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub capacity: TagMap,
    /// The rule system's fields.
    #[serde(default, skip_serializing_if = "is_default")]
    pub system: X,
}

// ---------------------------------------------------------------- items.ron

/// An item: goods, equipment, mounts, tools, artefacts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(serialize = "X: Serialize + Default + PartialEq"))]
pub struct Item<X> {
    /// Tag, e.g. `"swrd"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Plural name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub plural: String,
    /// Description for reports.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Weight of one item.
    #[serde(default, skip_serializing_if = "is_default")]
    pub weight: u32,
    /// Reference price.
    #[serde(default, skip_serializing_if = "is_default")]
    pub price: u32,
    /// Capacity added per item carried, per movement mode.
    #[serde(default, skip_serializing_if = "TagMap::is_empty")]
    pub capacity: TagMap,
    /// The rule system's fields.
    #[serde(default, skip_serializing_if = "is_default")]
    pub system: X,
}

// ---------------------------------------------------------------- skills.ron

/// A skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(serialize = "X: Serialize + Default + PartialEq"))]
pub struct Skill<X> {
    /// Tag, e.g. `"cmbt"`.
    pub tag: Tag,
    /// Name for reports.
    pub name: String,
    /// Description for reports.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// The rule system's fields.
    #[serde(default, skip_serializing_if = "is_default")]
    pub system: X,
}

// ---------------------------------------------------------------- checks

/// A rule set's core tables, borrowed for [`check`].
pub struct CoreTables<'a, M, S, W, T, R, I, K, G> {
    /// `movement.ron`.
    pub movement: &'a Movement<M>,
    /// `climate.ron`.
    pub climate: &'a Climate<S, W>,
    /// `terrains.ron`.
    pub terrains: &'a [Terrain<T>],
    /// `races.ron`.
    pub races: &'a [Race<R>],
    /// `items.ron`.
    pub items: &'a [Item<I>],
    /// `skills.ron`.
    pub skills: &'a [Skill<K>],
    /// `diplomacy.ron`.
    pub stances: &'a [Stance<G>],
}

/// The core tables indexed by tag, for a rule system's checks of its own fields.
#[derive(Debug, Default)]
pub struct CoreIds<'a> {
    /// Movement modes.
    pub modes: Ids<'a>,
    /// Directions.
    pub directions: Ids<'a>,
    /// Seasons.
    pub seasons: Ids<'a>,
    /// Weathers.
    pub weathers: Ids<'a>,
    /// Terrains.
    pub terrains: Ids<'a>,
    /// Races.
    pub races: Ids<'a>,
    /// Items.
    pub items: Ids<'a>,
    /// Skills.
    pub skills: Ids<'a>,
    /// Stances.
    pub stances: Ids<'a>,
}

/// The most stances a rule set may have.
pub const MAX_STANCES: usize = 256;

/// Checks what the core fields of a rule set's tables say, and indexes the tables.
pub fn check<'a, M, S, W, T, R, I, K, G>(
    t: CoreTables<'a, M, S, W, T, R, I, K, G>,
    issues: &mut Issues,
) -> CoreIds<'a> {
    let ids = CoreIds {
        modes: issues.index(MODES, "movement mode", &t.movement.modes, |m| &m.tag),
        directions: issues.index(DIRECTIONS, "direction", &t.movement.directions, |m| &m.tag),
        seasons: issues.index(SEASONS, "season", &t.climate.seasons, |m| &m.tag),
        weathers: issues.index(WEATHERS, "weather", &t.climate.weathers, |m| &m.tag),
        terrains: issues.index(TERRAINS, "terrain", t.terrains, |m| &m.tag),
        races: issues.index(RACES, "race", t.races, |m| &m.tag),
        items: issues.index(ITEMS, "item", t.items, |m| &m.tag),
        skills: issues.index(SKILLS, "skill", t.skills, |m| &m.tag),
        stances: issues.index(STANCES, "stance", t.stances, |m| &m.tag),
    };
    let modes = |issues: &mut Issues, map: &TagMap, table: Table, i: usize, field: &'static str| {
        issues.keys(&ids.modes, "movement mode", map, table, &with(table.at(i), &[Seg::Field(field)]));
    };
    for (i, m) in t.climate.months.iter().enumerate() {
        let path = with(MONTHS.at(i), &[Seg::Field("season")]);
        issues.reference(&ids.seasons, "season", &m.season, MONTHS, path);
    }
    for (i, s) in t.climate.seasons.iter().enumerate() {
        let path = with(SEASONS.at(i), &[Seg::Field("weather_weights")]);
        issues.keys(&ids.weathers, "weather", &s.weather_weights, SEASONS, &path);
    }
    for (i, w) in t.climate.weathers.iter().enumerate() {
        modes(issues, &w.travel_percent, WEATHERS, i, "travel_percent");
        modes(issues, &w.travel_days, WEATHERS, i, "travel_days");
    }
    for (i, x) in t.terrains.iter().enumerate() {
        modes(issues, &x.travel_days, TERRAINS, i, "travel_days");
    }
    for (i, x) in t.races.iter().enumerate() {
        modes(issues, &x.capacity, RACES, i, "capacity");
    }
    for (i, x) in t.items.iter().enumerate() {
        modes(issues, &x.capacity, ITEMS, i, "capacity");
    }
    if !t.stances.is_empty() {
        let own = t.stances.iter().filter(|s| s.toward_self).count();
        if own != 1 {
            let m =
                format!("exactly one stance must be the one a faction holds toward itself (toward_self), not {own}");
            issues.error(STANCES, Vec::new(), m);
        }
    }
    if t.stances.len() > MAX_STANCES {
        issues.error(STANCES, STANCES.at(MAX_STANCES), format!("more than {MAX_STANCES} stances"));
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::ronpos::path_to_string;

    #[test]
    fn core_fields_are_checked_and_a_system_part_is_its_own() {
        // A rule set of a system that adds a field to terrains and nothing elsewhere.
        #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        struct Land {
            fertile: bool,
        }
        let movement: Movement<()> =
            ron::from_str(r#"(modes: [(tag: "walk", name: "walking")], directions: [(tag: "N", name: "north")])"#)
                .unwrap();
        let climate: Climate<(), ()> = ron::from_str(
            r#"(months: [(name: "Thaw", season: "spring"), (name: "Frost", season: "winter")],
                seasons: [(tag: "spring", name: "Spring", weather_weights: {"fair": 1, "snow": 2})],
                weathers: [(tag: "fair", name: "Fair", travel_percent: {"sail": 10})])"#,
        )
        .unwrap();
        let terrains: Vec<Terrain<Land>> = ron::from_str(
            r#"[(tag: "plai", name: "Plains", travel_days: {"walk": 1}, system: (fertile: true)),
                (tag: "mtn", name: "Mountains", travel_days: {"ride": 4})]"#,
        )
        .unwrap();
        assert!(terrains[0].system.fertile && !terrains[1].system.fertile);
        let bad: Result<Vec<Terrain<Land>>, _> = ron::from_str(r#"[(tag: "x", name: "X", fertile: true)]"#);
        assert!(bad.is_err(), "a system's field at the top level is an unknown field");
        let stances: Vec<Stance<()>> = ron::from_str(r#"[(tag: "ally", name: "Allied", rank: 1)]"#).unwrap();
        let mut issues = Issues::default();
        let ids = check(
            CoreTables {
                movement: &movement,
                climate: &climate,
                terrains: &terrains,
                races: &[] as &[Race<()>],
                items: &[] as &[Item<()>],
                skills: &[] as &[Skill<()>],
                stances: &stances,
            },
            &mut issues,
        );
        assert_eq!(ids.terrains.get("mtn"), Some(&1));
        let found: Vec<(&str, String, String)> =
            issues.0.iter().map(|i| (i.file, path_to_string(&i.path), i.message.clone())).collect();
        assert_eq!(
            found,
            [
                ("climate.ron", ".months[1].season".into(), "unknown season 'winter'".into()),
                ("climate.ron", ".seasons[0].weather_weights[\"snow\"]".into(), "unknown weather 'snow'".into()),
                ("climate.ron", ".weathers[0].travel_percent[\"sail\"]".into(), "unknown movement mode 'sail'".into()),
                ("terrains.ron", "[1].travel_days[\"ride\"]".into(), "unknown movement mode 'ride'".into()),
                (
                    "diplomacy.ron",
                    "".into(),
                    "exactly one stance must be the one a faction holds toward itself (toward_self), not 0".into()
                ),
            ]
        );
        // More stances than a stance id holds are refused at the first one too many.
        let many: Vec<Stance<()>> = (0..=MAX_STANCES)
            .map(|i| Stance { tag: format!("s{i}"), name: String::new(), rank: 0, toward_self: i == 0, grants: vec![] })
            .collect();
        let mut issues = Issues::default();
        check(
            CoreTables {
                movement: &movement,
                climate: &Climate::<(), ()>::default(),
                terrains: &[] as &[Terrain<()>],
                races: &[] as &[Race<()>],
                items: &[] as &[Item<()>],
                skills: &[] as &[Skill<()>],
                stances: &many,
            },
            &mut issues,
        );
        let found: Vec<(String, String)> =
            issues.0.iter().map(|i| (path_to_string(&i.path), i.message.clone())).collect();
        assert_eq!(found, [("[256]".to_string(), "more than 256 stances".to_string())]);
        // Written back, a record without system fields has no `system:`.
        let text = ron::to_string(&terrains[1]).unwrap();
        assert!(!text.contains("system"), "{text}");
    }
}
