//! Reading and writing rule set and scenario folders.
//!
//! Loading collects the syntax and type errors of *every* file before giving up,
//! so a modder sees all of them at once, each with its file, line and column.

use super::rules::*;
use super::scenario::*;
use crate::core::data::{find_ruleset_dir, read_ron, ron_list_file, to_ron, write_atomic};
use crate::core::diag::Diagnostic;
use crate::core::engine::plan::TurnPlan;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fs;
use std::path::{Path, PathBuf};

/// A rule set and a scenario loaded together, with the folders they came from.
#[derive(Debug, Clone)]
pub struct GameData {
    /// The rule set.
    pub rules: RuleSet,
    /// The scenario.
    pub scenario: Scenario,
    /// Folder of the rule set.
    pub rules_dir: PathBuf,
    /// Folder of the scenario.
    pub scenario_dir: PathBuf,
}

fn part<T: DeserializeOwned + Default>(dir: &Path, name: &str, diags: &mut Vec<Diagnostic>) -> T {
    read_ron(&dir.join(name), false, diags).unwrap_or_default()
}

/// Loads the rule set in `dir`. Every file but `ruleset.ron` may be absent (an empty table).
pub fn load_ruleset(dir: &Path) -> Result<RuleSet, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    if !dir.is_dir() {
        return Err(vec![Diagnostic::error(dir, 0, 0, "rule set folder not found")]);
    }
    let info: Option<RuleSetInfo> = read_ron(&dir.join("ruleset.ron"), true, &mut diags);
    let plan = match std::fs::read_to_string(dir.join("plan.ron")) {
        Ok(text) => TurnPlan::from_ron(&text, dir.join("plan.ron")).map_err(|d| diags.push(d)).ok(),
        Err(e) => {
            let help = "every rule set has a turn plan: copy assets/rules/overlord/plan.ron";
            diags.push(Diagnostic::error(dir.join("plan.ron"), 0, 0, format!("cannot read file: {e} ({help})")));
            None
        }
    };
    let rules = RuleSet {
        info: info.unwrap_or_else(|| empty_ruleset().info),
        plan: plan.unwrap_or_else(|| empty_ruleset().plan),
        movement: part(dir, "movement.ron", &mut diags),
        equipment_slots: part(dir, "equipment.ron", &mut diags),
        climate: part(dir, "climate.ron", &mut diags),
        terrains: part(dir, "terrains.ron", &mut diags),
        races: part(dir, "races.ron", &mut diags),
        items: part(dir, "items.ron", &mut diags),
        skills: part(dir, "skills.ron", &mut diags),
        constructions: part(dir, "constructions.ron", &mut diags),
        titles: part(dir, "titles.ron", &mut diags),
        enchantments: part(dir, "enchantments.ron", &mut diags),
        stances: part(dir, "diplomacy.ron", &mut diags),
        combat: part(dir, "combat.ron", &mut diags),
        events: part(dir, "events.ron", &mut diags),
        economy: part(dir, "economy.ron", &mut diags),
        starts: part(dir, "starts.ron", &mut diags),
    };
    if diags.is_empty() { Ok(rules) } else { Err(diags) }
}

/// An empty rule set, used to finish building one whose `ruleset.ron` failed to
/// load (so that the other files can still be checked); never played.
pub fn empty_ruleset() -> RuleSet {
    RuleSet {
        info: RuleSetInfo {
            name: String::new(),
            system: String::new(),
            description: String::new(),
            source: String::new(),
            parameters: zero_parameters(),
        },
        plan: TurnPlan {
            tick: String::new(),
            ticks: 0,
            start: Vec::new(),
            each_tick: Vec::new(),
            after_tick: Vec::new(),
            end: Vec::new(),
            report: Vec::new(),
            origin: Default::default(),
        },
        movement: Default::default(),
        equipment_slots: Vec::new(),
        climate: Default::default(),
        terrains: Vec::new(),
        races: Vec::new(),
        items: Vec::new(),
        skills: Vec::new(),
        constructions: Default::default(),
        titles: Vec::new(),
        enchantments: Default::default(),
        stances: Vec::new(),
        combat: Default::default(),
        events: Vec::new(),
        economy: Default::default(),
        starts: Default::default(),
    }
}

fn zero_parameters() -> Parameters {
    Parameters {
        experience_per_day: 0,
        starting_control_points: 0,
        figures_per_control_point: 0,
        mana_per_control_point: 0,
        max_study_level: 0,
        max_study_level_leader: 0,
        max_combat_study_level: CombatStudyLimits { follower: 0, leader: 0, hero: 0 },
        overload_time_factor: 0,
        overload_limit_percent: 0,
        max_travel_days: 0,
        market_days: Vec::new(),
        mana_regen_days: 0,
        mana_item: String::new(),
        mana_over_step_percent: 0,
        mana_event: String::new(),
        retarget_loss_percent: 0,
        max_orders_per_unit: 0,
        press_reward_signed: 0,
        press_reward_rumor: 0,
        default_stats: Default::default(),
        permanent_effect_days: 0,
        dissent_days: 0,
        dissent_effect: None,
        rations: Vec::new(),
        ration_percent: 0,
        npc_upkeep: false,
        study_bonus_leader_percent: 0,
        study_bonus_place_percent: 0,
        study_basic_percent: 0,
        max_magic_study_level_taught: 0,
        teach_percent: 0,
        teach_max_figures: 0,
        teach_leader_figures: 0,
        teach_beyond_max_figures: 0,
        tool_bonus_percent: 0,
        use_experience_percent: 0,
        use_basic_percent: 0,
        derived_travel: Vec::new(),
        inner_travel_days: 0,
        follower_move_skill: None,
        guard_skill: None,
        coastal_sailing: None,
        guard_work_percent: 0,
        journey_seen_percent: 0,
        refusal_percent_per_control_point: 0,
        follower_basic_skills: 0,
        follower_overbasic_max_level: 0,
        withdraw_terrains: Vec::new(),
        claims: Default::default(),
        sight: Default::default(),
    }
}

/// Loads the scenario in `dir` (without its rule set).
pub fn load_scenario(dir: &Path) -> Result<Scenario, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    if !dir.is_dir() {
        return Err(vec![Diagnostic::error(dir, 0, 0, "scenario folder not found")]);
    }
    let [game, factions, locations, structures, units] = STATE_FILES;
    // The units and the locations, the largest files, are read on two threads
    // beside the others, shared by bytes; the problems are listed in the files'
    // order all the same.
    let others: u64 =
        [game, factions, structures].iter().filter_map(|f| fs::metadata(dir.join(f)).ok()).map(|m| m.len()).sum();
    let mut later = Vec::new();
    let ((units, unit_diags), (locations, location_diags), (game, factions, structures)) =
        crate::core::data::read_lists_beside::<Unit, Location, _>(
            &dir.join(units),
            &dir.join(locations),
            others,
            || {
                let game: Option<GameSettings> = read_ron(&dir.join(game), true, &mut diags);
                let factions: Vec<Faction> = part(dir, factions, &mut diags);
                let structures: Vec<Structure> = part(dir, structures, &mut later);
                (game, factions, structures)
            },
        );
    diags.extend(location_diags);
    diags.extend(later);
    diags.extend(unit_diags);
    let orders = read_orders(dir, &mut diags);
    match game {
        Some(game) if diags.is_empty() => Ok(Scenario { game, factions, locations, structures, units, orders }),
        _ => Err(diags),
    }
}

fn read_orders(dir: &Path, diags: &mut Vec<Diagnostic>) -> Vec<(String, String)> {
    let odir = dir.join("orders");
    let Ok(entries) = fs::read_dir(&odir) else { return Vec::new() };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let path = e.path();
        if path.extension().and_then(|x| x.to_str()) != Some("txt") {
            continue;
        }
        match fs::read(&path) {
            Ok(bytes) => {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                out.push((name, String::from_utf8_lossy(&bytes).into_owned()));
            }
            Err(err) => diags.push(Diagnostic::error(&path, 0, 0, format!("cannot read file: {err}"))),
        }
    }
    out.sort();
    out
}

/// Loads a scenario and the rule set it names. Syntax errors of both are reported together.
pub fn load_game(scenario_dir: &Path, rules_dir: Option<&Path>) -> Result<GameData, Vec<Diagnostic>> {
    let scenario = load_scenario(scenario_dir);
    let name = match &scenario {
        Ok(s) => s.game.ruleset.clone(),
        Err(_) => String::new(),
    };
    // Even when game.ron is broken, a rule set found without its name (given,
    // or the scenario's own) is loaded, so that its errors are reported too.
    let dir = find_ruleset_dir(scenario_dir, &name, rules_dir);
    let rules = match &dir {
        Some(d) => load_ruleset(d),
        None if scenario.is_ok() => Err(vec![Diagnostic::error(
            scenario_dir.join("game.ron"),
            0,
            0,
            format!("rule set '{name}' not found (looked for assets/rules/{name}; give its folder with --rules)"),
        )]),
        None => Err(Vec::new()),
    };
    match (scenario, rules) {
        (Ok(scenario), Ok(rules)) => Ok(GameData {
            rules,
            scenario,
            rules_dir: dir.unwrap_or_default(),
            scenario_dir: scenario_dir.to_path_buf(),
        }),
        (s, r) => {
            let mut d = r.err().unwrap_or_default();
            d.extend(s.err().unwrap_or_default());
            Err(d)
        }
    }
}

// ------------------------------------------------------------------ saving

/// The files of a rule set folder, as bytes, in the saved layout.
pub fn ruleset_files(r: &RuleSet) -> std::io::Result<Vec<(std::path::PathBuf, Vec<u8>)>> {
    // Lines down to four levels; the core tables' records hold Overlord's fields
    // one level deeper (`system:`), so their files go one level further.
    fn one<T: Serialize + ?Sized>(
        name: &str,
        value: &T,
        depth: usize,
    ) -> std::io::Result<(std::path::PathBuf, Vec<u8>)> {
        let mut text = to_ron(value, depth).map_err(std::io::Error::other)?;
        text.push('\n');
        Ok((name.into(), text.into_bytes()))
    }
    Ok(vec![
        one("ruleset.ron", &r.info, 4)?,
        ("plan.ron".into(), plan_text(&r.plan)?),
        one("movement.ron", &r.movement, 5)?,
        one("equipment.ron", &r.equipment_slots, 4)?,
        one("climate.ron", &r.climate, 5)?,
        one("terrains.ron", &r.terrains, 5)?,
        one("races.ron", &r.races, 5)?,
        one("items.ron", &r.items, 5)?,
        one("skills.ron", &r.skills, 5)?,
        one("constructions.ron", &r.constructions, 4)?,
        one("titles.ron", &r.titles, 4)?,
        one("enchantments.ron", &r.enchantments, 4)?,
        one("diplomacy.ron", &r.stances, 4)?,
        one("combat.ron", &r.combat, 4)?,
        one("events.ron", &r.events, 4)?,
        one("economy.ron", &r.economy, 4)?,
        one("starts.ron", &r.starts, 4)?,
    ])
}

/// The text of a turn plan: as it was read (with its comments) when it still
/// reads back to the same plan, else in the saved layout.
fn plan_text(plan: &TurnPlan) -> std::io::Result<Vec<u8>> {
    if let Some((path, text)) = &plan.origin.0
        && TurnPlan::from_ron(text, path).is_ok_and(|p| p == *plan)
    {
        return Ok(text.as_bytes().to_vec());
    }
    let mut text = to_ron(plan, 2).map_err(std::io::Error::other)?;
    text.push('\n');
    Ok(text.into_bytes())
}

/// Writes a rule set as the files of a rule set folder.
pub fn save_ruleset(dir: &Path, r: &RuleSet) -> std::io::Result<()> {
    for (name, bytes) in ruleset_files(r)? {
        write_atomic(&dir.join(name), &bytes)?;
    }
    Ok(())
}

/// The files [`scenario_files`] writes, in its order.
pub const STATE_FILES: [&str; 5] = ["game.ron", "factions.ron", "locations.ron", "structures.ron", "units.ron"];

/// The files of a scenario folder (without its order files), as bytes, in the saved
/// layout: `(file name, contents)`.
pub fn scenario_files(s: &Scenario) -> std::io::Result<Vec<(&'static str, Vec<u8>)>> {
    let mut files = head_files(s)?;
    files.push((STATE_FILES[4], ron_list_file(&s.units, UNITS_DEPTH)?));
    Ok(files)
}

/// How deep `units.ron` writes its records a field to a line.
pub const UNITS_DEPTH: usize = 2;

/// How deep `locations.ron` writes its records a field to a line.
pub const LOCATIONS_DEPTH: usize = 2;

/// The files of a scenario folder but `units.ron`: the game, factions, locations
/// and structures.
pub fn head_files(s: &Scenario) -> std::io::Result<Vec<(&'static str, Vec<u8>)>> {
    fn one<T: Serialize + ?Sized>(value: &T, depth: usize) -> std::io::Result<Vec<u8>> {
        let mut text = to_ron(value, depth).map_err(std::io::Error::other)?;
        text.push('\n');
        Ok(text.into_bytes())
    }
    Ok(vec![
        // The start places one to a line.
        (STATE_FILES[0], one(&s.game, 4)?),
        (STATE_FILES[1], ron_list_file(&s.factions, 2)?),
        (STATE_FILES[2], ron_list_file(&s.locations, LOCATIONS_DEPTH)?),
        (STATE_FILES[3], ron_list_file(&s.structures, 2)?),
    ])
}

/// Writes a scenario as the files of a scenario folder, with its order files.
pub fn save_scenario(dir: &Path, s: &Scenario) -> std::io::Result<()> {
    for (name, bytes) in scenario_files(s)? {
        write_atomic(&dir.join(name), &bytes)?;
    }
    for (name, text) in &s.orders {
        write_atomic(&dir.join("orders").join(name), text.as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::core::data::ronwrite::to_string_pretty;
    use serde::Serialize;

    fn by_ron<T: Serialize + ?Sized>(v: &T, depth: usize) -> String {
        let cfg = ron::ser::PrettyConfig::new().depth_limit(depth).indentor("  ").struct_names(false);
        ron::Options::default().to_string_pretty(v, cfg).unwrap()
    }

    /// A list file is made in one buffer of about its size: the same bytes, and no
    /// buffer grown by doubling (which holds up to twice the text).
    #[test]
    fn list_files_are_written_in_a_buffer_of_their_size() {
        use crate::core::data::{ron_file, ron_list_file};
        let s = &crate::systems::overlord::testkit::alpha();
        let sizes = |b: &Vec<u8>| (b.len(), b.capacity());
        for (name, list, ron) in [
            ("units", ron_list_file(&s.units, 2).unwrap(), ron_file(&s.units, 2).unwrap()),
            ("locations", ron_list_file(&s.locations, 2).unwrap(), ron_file(&s.locations, 2).unwrap()),
            ("factions", ron_list_file(&s.factions, 2).unwrap(), ron_file(&s.factions, 2).unwrap()),
        ] {
            assert_eq!(list, ron, "{name}");
            let (len, cap) = sizes(&list);
            assert!(cap >= len && cap <= len + len / 3, "{name}: {len} bytes in a buffer of {cap}");
        }
    }

    /// A list's file written in parts of any size is the file written whole.
    #[test]
    fn a_list_file_in_parts_is_the_whole_file() {
        use crate::core::data::{ron_list_file, ron_list_part};
        let s = &crate::systems::overlord::testkit::alpha();
        let whole = ron_list_file(&s.units, 2).unwrap();
        for size in [1, 2, 7, 100, s.units.len(), s.units.len() + 1] {
            let n = s.units.len().div_ceil(size);
            let parts: Vec<u8> = s
                .units
                .chunks(size)
                .enumerate()
                .flat_map(|(k, c)| ron_list_part(c, 2, k == 0, k + 1 == n).unwrap())
                .collect();
            assert_eq!(String::from_utf8(parts).unwrap(), String::from_utf8(whole.clone()).unwrap(), "parts of {size}");
        }
        let none: [crate::systems::overlord::data::Unit; 0] = [];
        assert_eq!(ron_list_part(&none, 2, true, true).unwrap(), ron_list_file(&none, 2).unwrap());
        assert_eq!(ron_list_part(&none, 2, true, true).unwrap(), b"[]\n");
    }

    #[test]
    fn the_fast_writer_writes_what_ron_writes_for_the_bundled_world_and_rules() {
        let s = &crate::systems::overlord::testkit::alpha();
        assert_eq!(to_string_pretty(&s.units, 2).unwrap(), by_ron(&s.units, 2));
        assert_eq!(to_string_pretty(&s.locations, 2).unwrap(), by_ron(&s.locations, 2));
        assert_eq!(to_string_pretty(&s.structures, 2).unwrap(), by_ron(&s.structures, 2));
        assert_eq!(to_string_pretty(&s.factions, 2).unwrap(), by_ron(&s.factions, 2));
        assert_eq!(to_string_pretty(&s.game, 2).unwrap(), by_ron(&s.game, 2));
        let r = &*crate::systems::overlord::testkit::overlord_rules();
        assert_eq!(to_string_pretty(&r.skills, 4).unwrap(), by_ron(&r.skills, 4));
        assert_eq!(to_string_pretty(&r.items, 4).unwrap(), by_ron(&r.items, 4));
        assert_eq!(to_string_pretty(&r.info, 4).unwrap(), by_ron(&r.info, 4));
        assert_eq!(to_string_pretty(&r.stances, 4).unwrap(), by_ron(&r.stances, 4));
        let opts = crate::systems::overlord::generate::Options { locations: 300, factions: 20, units: 400, seed: 3 };
        let big = crate::systems::overlord::generate::generate(r, "overlord", &opts).unwrap();
        assert_eq!(to_string_pretty(&big.units, 2).unwrap(), by_ron(&big.units, 2));
        assert_eq!(to_string_pretty(&big.locations, 2).unwrap(), by_ron(&big.locations, 2));
    }
}
