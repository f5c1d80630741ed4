//! The `overlord` command line: one subcommand per engine command.

use crate::data::{self, Counts};
use crate::diag::Diagnostic;
use crate::{generate, legacy};
use clap::{Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};

/// overlord: an engine for play-by-email strategy games.
#[derive(Debug, Parser)]
#[command(name = "overlord", version, about)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Engine commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check a scenario and its rule set; print every error with file, line and column.
    Validate {
        /// Scenario folder (holding game.ron).
        scenario: PathBuf,
        /// Rule set folder (default: assets/rules/<ruleset named in game.ron>, searched upward).
        #[arg(long)]
        rules: Option<PathBuf>,
        /// Also print warnings.
        #[arg(long)]
        warnings: bool,
    },
    /// Convert a game in the original engine's text format into a rule set and a scenario.
    ImportLegacy {
        /// Legacy game folder (holding overlord.config).
        legacy_dir: PathBuf,
        /// Output folder: receives assets/rules/<ruleset>/ and scenarios/<game>/.
        out_dir: PathBuf,
        /// Name of the rule set written.
        #[arg(long)]
        ruleset_name: Option<String>,
        /// Seed of the scenario written.
        #[arg(long)]
        seed: Option<u64>,
        /// Print only the count of warnings, not each one.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Generate a random world of any size.
    Generate {
        /// Number of territories.
        #[arg(long)]
        locations: usize,
        /// Number of player factions (NPC factions are added).
        #[arg(long)]
        factions: usize,
        /// Number of units.
        #[arg(long)]
        units: usize,
        /// Seed: the same seed gives the same bytes.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Rule set folder to draw terrains, races, skills and items from.
        #[arg(long, default_value = "assets/rules/overlord")]
        rules: PathBuf,
        /// Output scenario folder.
        out_dir: PathBuf,
    },
}

fn print_diags(diags: &[Diagnostic], warnings: bool) {
    let stderr = std::io::stderr();
    let mut e = stderr.lock();
    for d in diags {
        if warnings || d.is_error() {
            let _ = writeln!(e, "{d}");
        }
    }
}

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Validate { scenario, rules, warnings } => validate(&scenario, rules.as_deref(), warnings),
        Command::ImportLegacy { legacy_dir, out_dir, ruleset_name, seed, quiet } => {
            import(&legacy_dir, &out_dir, legacy::ImportOptions { ruleset_name, seed }, quiet)
        }
        Command::Generate { locations, factions, units, seed, rules, out_dir } => {
            let opts = generate::Options { locations, factions, units, seed };
            match generate::generate_to_dir(&rules, &opts, &out_dir) {
                Ok(summary) => {
                    println!("{}: {summary}", out_dir.display());
                    0
                }
                Err(diags) => {
                    print_diags(&diags, true);
                    1
                }
            }
        }
    }
}

/// Loads and validates a scenario; prints the errors or a one-line summary.
fn validate(scenario: &Path, rules: Option<&Path>, warnings: bool) -> i32 {
    let game = match data::load_game(scenario, rules) {
        Ok(g) => g,
        Err(diags) => {
            print_diags(&diags, true);
            eprintln!("{} error(s)", diags.iter().filter(|d| d.is_error()).count());
            return 1;
        }
    };
    let issues = data::validate(&game.rules, &game.scenario);
    let diags = data::validate::resolve(&issues, &game.rules_dir, &game.scenario_dir);
    print_diags(&diags, warnings);
    let errors = diags.iter().filter(|d| d.is_error()).count();
    if errors > 0 {
        eprintln!("{errors} error(s)");
        return 1;
    }
    println!("{}: valid: {}", scenario.display(), Counts::of(&game.rules, &game.scenario));
    0
}

fn import(dir: &Path, out: &Path, opts: legacy::ImportOptions, quiet: bool) -> i32 {
    if !dir.join("overlord.config").is_file() {
        eprintln!("{}: error: not a legacy game folder (no overlord.config)", dir.display());
        return 2;
    }
    let imported = legacy::import(dir, &opts);
    print_diags(&imported.diagnostics, !quiet);
    let errors = imported.diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = imported.diagnostics.len() - errors;
    if errors > 0 {
        eprintln!("{errors} error(s), {warnings} warning(s); nothing written");
        return 1;
    }
    let rules_dir = out.join("assets").join("rules").join(&imported.rules.info.name);
    let name = if imported.scenario.game.name.is_empty() { "imported" } else { &imported.scenario.game.name };
    let scen_dir = out.join("scenarios").join(name);
    if let Err(e) = data::save_ruleset(&rules_dir, &imported.rules) {
        eprintln!("{}: error: cannot write: {e}", rules_dir.display());
        return 1;
    }
    if let Err(e) = data::save_scenario(&scen_dir, &imported.scenario) {
        eprintln!("{}: error: cannot write: {e}", scen_dir.display());
        return 1;
    }
    println!(
        "wrote {} and {} ({warnings} warning(s)): {}",
        rules_dir.display(),
        scen_dir.display(),
        Counts::of(&imported.rules, &imported.scenario)
    );
    0
}
