//! Reading and writing generals rule sets and scenarios. Every file's syntax and
//! type errors are collected before giving up, each with its file, line and
//! column.

use super::rules::*;
use super::scenario::*;
use crate::core::data::{read_ron, ron_file};
use crate::core::diag::Diagnostic;
use crate::core::engine::plan::TurnPlan;
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};

fn part<T: DeserializeOwned + Default>(dir: &Path, name: &str, required: bool, diags: &mut Vec<Diagnostic>) -> T {
    read_ron(&dir.join(name), required, diags).unwrap_or_default()
}

/// Loads the rule set in `dir`: `ruleset.ron`, `plan.ron`, `terrains.ron`,
/// `troops.ron`, `skills.ron` and `combat.ron`, all required.
pub fn load_ruleset(dir: &Path) -> Result<RuleSet, Vec<Diagnostic>> {
    if !dir.is_dir() {
        return Err(vec![Diagnostic::error(dir, 0, 0, "rule set folder not found")]);
    }
    let mut diags = Vec::new();
    let info: Option<RuleSetInfo> = read_ron(&dir.join("ruleset.ron"), true, &mut diags);
    let plan = match std::fs::read_to_string(dir.join("plan.ron")) {
        Ok(text) => TurnPlan::from_ron(&text, dir.join("plan.ron")).map_err(|d| diags.push(d)).ok(),
        Err(e) => {
            diags.push(Diagnostic::error(dir.join("plan.ron"), 0, 0, format!("cannot read file: {e}")));
            None
        }
    };
    let terrains = part(dir, "terrains.ron", true, &mut diags);
    let troops = part(dir, "troops.ron", true, &mut diags);
    let skills = part(dir, "skills.ron", true, &mut diags);
    let combat = part(dir, "combat.ron", true, &mut diags);
    match (info, plan) {
        (Some(info), Some(plan)) if diags.is_empty() => Ok(RuleSet { info, plan, terrains, troops, skills, combat }),
        _ => Err(diags),
    }
}

/// The files of a rule set, as [`load_ruleset`] reads them.
pub fn ruleset_files(r: &RuleSet) -> std::io::Result<Vec<(PathBuf, Vec<u8>)>> {
    Ok(vec![
        ("ruleset.ron".into(), ron_file(&r.info, 3)?),
        ("plan.ron".into(), ron_file(&r.plan, 2)?),
        ("terrains.ron".into(), ron_file(&r.terrains, 2)?),
        ("troops.ron".into(), ron_file(&r.troops, 2)?),
        ("skills.ron".into(), ron_file(&r.skills, 2)?),
        ("combat.ron".into(), ron_file(&r.combat, 3)?),
    ])
}

/// Loads the scenario in `dir`: `game.ron`, `players.ron`, `regions.ron`,
/// `generals.ron` and `troops.ron`, all required.
pub fn load_scenario(dir: &Path) -> Result<Scenario, Vec<Diagnostic>> {
    if !dir.is_dir() {
        return Err(vec![Diagnostic::error(dir, 0, 0, "scenario folder not found")]);
    }
    let mut diags = Vec::new();
    let [game, players, regions, generals, troops] = STATE_FILES;
    let game: Option<Game> = read_ron(&dir.join(game), true, &mut diags);
    let s = Scenario {
        game: game.unwrap_or_default(),
        players: part(dir, players, true, &mut diags),
        regions: part(dir, regions, true, &mut diags),
        generals: part(dir, generals, true, &mut diags),
        troops: part(dir, troops, true, &mut diags),
    };
    if diags.is_empty() { Ok(s) } else { Err(diags) }
}

/// The files [`scenario_files`] writes, in its order.
pub const STATE_FILES: [&str; 5] = ["game.ron", "players.ron", "regions.ron", "generals.ron", "troops.ron"];

/// The files of a scenario (a turn's state), as [`load_scenario`] reads them.
pub fn scenario_files(s: &Scenario) -> std::io::Result<Vec<(PathBuf, Vec<u8>)>> {
    Ok(vec![
        (STATE_FILES[0].into(), ron_file(&s.game, 3)?),
        (STATE_FILES[1].into(), ron_file(&s.players, 2)?),
        (STATE_FILES[2].into(), ron_file(&s.regions, 2)?),
        (STATE_FILES[3].into(), ron_file(&s.generals, 2)?),
        (STATE_FILES[4].into(), ron_file(&s.troops, 2)?),
    ])
}
