//! Import of games in the original Overlord engine's text format.
//!
//! [`import`] reads a legacy game folder (`overlord.config`, `*.rules`, `*.var`,
//! `*.dat`, `players/<faction>/orders.<turn>`) and produces a rule set and a
//! scenario. Every keyword is either converted or reported as a warning naming
//! file and line. Numbers the legacy files do not hold (the calendar, the engine
//! parameters, weather travel effects) come from `overlord_defaults.ron`, which
//! records what the rules text says.

pub mod conv;
pub mod lexer;
pub mod rules;
pub mod skills;
pub mod world;

use crate::core::diag::Diagnostic;
use crate::systems::overlord::data::{Month, Parameters, RuleSet, Scenario, Tag, TagMap};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Values of the rules text that the legacy files lack (see `overlord_defaults.ron`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defaults {
    /// Name of the rule set written.
    pub ruleset_name: String,
    /// Its description.
    pub description: String,
    /// Where its numbers come from.
    pub source: String,
    /// Seed of the scenario written.
    pub seed: u64,
    /// Days per month when the config does not say.
    pub days_per_month: u32,
    /// Calendar month of turn 1.
    pub start_month: u32,
    /// Engine parameters.
    pub parameters: Parameters,
    /// The calendar.
    pub months: Vec<Month>,
    /// Season effects the legacy files lack.
    pub seasons: BTreeMap<Tag, SeasonExtra>,
    /// Weather travel effects the legacy files lack.
    pub weathers: BTreeMap<Tag, WeatherExtra>,
    /// Hex steps of the territory directions.
    pub hex_directions: BTreeMap<Tag, (i32, i32)>,
    /// Movement modes that only guards able to travel them can stop.
    #[serde(default)]
    pub guard_evading_modes: Vec<Tag>,
    /// Modes that travel on water: a terrain only these (and guard-evading modes)
    /// cross is water.
    #[serde(default)]
    pub water_modes: Vec<Tag>,
    /// The stance a faction holds toward itself.
    pub own_stance: Tag,
    /// What each stance grants (§7), by stance tag.
    pub stance_grants: BTreeMap<Tag, Vec<crate::systems::overlord::data::StanceGrant>>,
    /// The numbers of battle (§26), which the legacy files lack.
    pub battle: crate::systems::overlord::data::BattleRules,
    /// The numbers of living places (§13, §15, §16), which the legacy files lack.
    pub economy: crate::systems::overlord::data::Economy,
    /// Land titles kept beyond their range, in % of it, by title tag (RULINGS 5).
    #[serde(default)]
    pub title_keep_percent: BTreeMap<Tag, u32>,
    /// Guild titles lost when their holders leave the titles' places (MAG-GUILD).
    #[serde(default)]
    pub title_held_in_place: Vec<Tag>,
    /// The titles each title may cancel (ORD-CANCEL), by title tag.
    #[serde(default)]
    pub title_cancels: BTreeMap<Tag, crate::systems::overlord::data::rules::CancelRight>,
    /// Names of the non-player factions that serve the Overlord (TTL-OVERLORD).
    #[serde(default)]
    pub overlord_servants: Vec<String>,
    /// The stance each non-player faction takes toward a faction that attacks it
    /// (NPC-IMP), by faction name.
    #[serde(default)]
    pub npc_provoked: BTreeMap<String, Tag>,
    /// The skills that keep each non-player faction from attacking on sight
    /// (NPC-CRE), by faction name.
    #[serde(default)]
    pub npc_spared_by: BTreeMap<String, Vec<Tag>>,
    /// What a new faction starts with (§29), which the legacy files lack.
    #[serde(default)]
    pub starts: crate::systems::overlord::data::Starts,
    /// The start places the importer finds in the world (START-PLACE).
    #[serde(default)]
    pub start_places: StartPlaces,
}

/// How the importer finds the start places of a legacy world (START-PLACE): the
/// capital is the place of a title (the Overlord's), the border cities are the
/// other cities its owner holds, the colonial cities the rest.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartPlaces {
    /// The terrain of cities.
    pub city_terrain: Tag,
    /// The title whose place is the capital.
    pub capital_title: Tag,
    /// A new faction's default stance.
    pub default_stance: Tag,
    /// The kinds of start place, in the order they are offered.
    pub places: Vec<StartPlaceRule>,
}

/// One kind of start place, and which cities it takes.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartPlaceRule {
    /// The start place's tag.
    pub tag: Tag,
    /// Its name.
    pub name: String,
    /// Its bonus to the faction's funds.
    #[serde(default)]
    pub bonus: BTreeMap<Tag, u64>,
    /// Its fair number ([`StartPlace::fair`](crate::systems::overlord::data::StartPlace::fair)).
    #[serde(default)]
    pub fair: Option<u32>,
    /// Which cities.
    pub select: PlaceSelect,
}

/// Which cities a kind of start place takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum PlaceSelect {
    /// The capital.
    Capital,
    /// The other cities of the capital's owner.
    CapitalOwner,
    /// Every other city.
    Others,
}

/// Season effects from the rules text.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeasonExtra {
    /// Upkeep in %.
    pub upkeep_percent: u32,
    /// Taxes in %.
    pub tax_percent: u32,
    /// Entertainment in %.
    pub entertainment_percent: u32,
}

impl Default for SeasonExtra {
    fn default() -> Self {
        // A season the rules text does not describe changes nothing: 100% of normal.
        let normal = 100;
        SeasonExtra { upkeep_percent: normal, tax_percent: normal, entertainment_percent: normal }
    }
}

/// Weather travel effects from the rules text.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeatherExtra {
    /// Travel time change in % per mode.
    #[serde(default)]
    pub travel_percent: TagMap,
    /// Fixed travel days per mode.
    #[serde(default)]
    pub travel_days: TagMap,
    /// Weathers the neighbours of a territory with this weather have at least.
    #[serde(default)]
    pub neighbour_weathers: Vec<Tag>,
}

/// The text of the built-in defaults.
pub const DEFAULTS_RON: &str = include_str!("overlord_defaults.ron");

/// The turn plan every imported Overlord rule set gets (`plan.ron`).
pub const PLAN_RON: &str = include_str!("overlord_plan.ron");

/// Where [`PLAN_RON`] is kept, for messages.
pub const PLAN_PATH: &str = "src/systems/overlord/legacy/overlord_plan.ron";

impl Defaults {
    /// The built-in Overlord defaults.
    pub fn builtin() -> Result<Defaults, Diagnostic> {
        ron::Options::default().from_str(DEFAULTS_RON).map_err(|e| {
            Diagnostic::error(
                "src/systems/overlord/legacy/overlord_defaults.ron",
                e.span.start.line,
                e.span.start.col,
                e.code.to_string(),
            )
        })
    }
}

/// Options of an import.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// Name of the rule set written (default: the built-in defaults' name).
    pub ruleset_name: Option<String>,
    /// Seed of the scenario (default: the built-in defaults' seed).
    pub seed: Option<u64>,
}

/// The result of an import: the converted data and every warning.
#[derive(Debug, Clone)]
pub struct Imported {
    /// The rule set.
    pub rules: RuleSet,
    /// The scenario.
    pub scenario: Scenario,
    /// Warnings (and errors, if any) naming legacy file and line.
    pub diagnostics: Vec<Diagnostic>,
    /// Where each unit order of the scenario was read.
    pub orders: Vec<conv::OrderSource>,
}

/// Files of a legacy game folder that the importer reads, besides the world files
/// named by `overlord.config` and the players folder.
fn known_file(name: &str) -> bool {
    name == "overlord.config" || rules::RULE_FILES.iter().any(|(f, _)| *f == name)
}

/// Converts the legacy game in `dir`.
pub fn import(dir: &Path, opts: &ImportOptions) -> Imported {
    let mut c = conv::Conv::new();
    let mut d = match Defaults::builtin() {
        Ok(d) => d,
        Err(e) => {
            c.diags.push(e);
            return Imported {
                rules: empty_rules(),
                scenario: empty_scenario(),
                diagnostics: c.diags,
                orders: Vec::new(),
            };
        }
    };
    if let Some(n) = &opts.ruleset_name {
        d.ruleset_name = n.clone();
    }
    if let Some(why) = crate::core::data::validate::id_problem(&d.ruleset_name) {
        let msg = format!("the rule set's name is its folder's name: {why}");
        c.diags.push(Diagnostic::error("--ruleset-name", 0, 0, msg));
        return Imported { rules: empty_rules(), scenario: empty_scenario(), diagnostics: c.diags, orders: Vec::new() };
    }
    if let Some(s) = opts.seed {
        d.seed = s;
    }
    let (rules, ctx) = rules::convert(&mut c, dir, &d);
    let scenario = world::convert(&mut c, dir, &rules, &ctx.modes, &d);
    // Report files that nothing read.
    let mut read: Vec<String> = ["units.dat", "factions.dat", "locations.dat", "buildings.dat", "effects.dat"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    read.push(format!("{}.dat", scenario.game.name));
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| e.path().is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        for n in names {
            if !known_file(&n) && !read.contains(&n) {
                c.diags.push(Diagnostic::warning(dir.join(&n), 0, 0, "file not read by the importer"));
            }
        }
    }
    Imported { rules, scenario, diagnostics: c.diags, orders: c.orders }
}

fn empty_rules() -> RuleSet {
    crate::systems::overlord::data::load::empty_ruleset()
}

fn empty_scenario() -> Scenario {
    Scenario {
        game: crate::systems::overlord::data::GameSettings {
            name: String::new(),
            title: String::new(),
            ruleset: String::new(),
            seed: 0,
            days_per_month: 0,
            start_month: 0,
            turn: 0,
            email: String::new(),
            deadline: String::new(),
            joining: Default::default(),
        },
        factions: Vec::new(),
        locations: Vec::new(),
        structures: Vec::new(),
        units: Vec::new(),
        orders: Vec::new(),
    }
}
