//! The rule systems the engine runs, by the name their rule sets give
//! (`system: "overlord"` in `ruleset.ron`), and what the command line asks of
//! each: the core's game folder commands, run for that system.

pub mod generals;
pub mod overlord;

use crate::core::data::{find_ruleset_dir, rule_set_head, scenario_head};
use crate::core::diag::Diagnostic;
use crate::core::engine::{Engine, Threads};
use crate::core::game::index::FactionRecord;
use crate::core::game::{Answer, GameDir, GameError, TurnSummary, load_scenario};
use crate::core::system::{GameSystem, JoinRequest, Joined};
use std::marker::PhantomData;
use std::path::Path;

/// The game folder commands of one rule system, callable without naming its type.
pub trait Commands: Sync {
    /// The system's name.
    fn name(&self) -> &'static str;
    /// Creates a game from a scenario (`overlord new`).
    fn create(&self, scenario: &Path, rules: Option<&Path>, root: &Path) -> Result<TurnSummary, GameError>;
    /// Runs the next turn of a game (`overlord run`).
    fn run(
        &self,
        game: &GameDir,
        threads: Threads,
        on_tick: &mut dyn FnMut(u32, u32),
    ) -> Result<TurnSummary, GameError>;
    /// Takes in a mail, or only checks it (`overlord submit`, `overlord check`).
    fn take_mail(&self, game: &GameDir, text: &str, store: bool) -> Result<Vec<Answer>, GameError>;
    /// Faction `id` (any case) in a turn's state: its id as the game writes it,
    /// its name, password hash and address.
    fn faction(&self, game: &GameDir, turn: u32, id: &str) -> Result<Option<FactionRecord>, GameError>;
    /// [`Commands::faction`] of each of `ids`, in order.
    fn factions(&self, game: &GameDir, turn: u32, ids: &[&str]) -> Result<Vec<Option<FactionRecord>>, GameError>;
    /// Loads and checks a scenario and its rule set: the problems (warnings
    /// included) and, when it loads, a one-line count of what it holds.
    fn validate(&self, scenario: &Path, rules: Option<&Path>) -> Result<(Vec<Diagnostic>, String), GameError>;
    /// The SVG map of a turn's state, whole or as a faction knows it (`overlord map`).
    fn map(&self, game: &GameDir, turn: u32, faction: Option<&str>) -> Result<String, GameError>;
    /// Adds a faction for a new player between turns (`overlord join`): what it
    /// got and its password.
    fn join(&self, game: &GameDir, request: JoinRequest, threads: Threads) -> Result<(Joined, String), GameError>;
}

/// A rule system's [`Commands`].
struct Driver<S>(PhantomData<S>);

impl<S: GameSystem> Commands for Driver<S> {
    fn name(&self) -> &'static str {
        S::NAME
    }
    fn create(&self, scenario: &Path, rules: Option<&Path>, root: &Path) -> Result<TurnSummary, GameError> {
        GameDir::create::<S>(scenario, rules, root)
    }
    fn run(
        &self,
        game: &GameDir,
        threads: Threads,
        on_tick: &mut dyn FnMut(u32, u32),
    ) -> Result<TurnSummary, GameError> {
        game.run::<S>(threads, on_tick)
    }
    fn take_mail(&self, game: &GameDir, text: &str, store: bool) -> Result<Vec<Answer>, GameError> {
        if store { game.submit_mail::<S>(text) } else { game.check_mail::<S>(text) }
    }
    fn faction(&self, game: &GameDir, turn: u32, id: &str) -> Result<Option<FactionRecord>, GameError> {
        game.faction::<S>(turn, id)
    }
    fn factions(&self, game: &GameDir, turn: u32, ids: &[&str]) -> Result<Vec<Option<FactionRecord>>, GameError> {
        game.factions::<S>(turn, ids)
    }
    fn validate(&self, scenario: &Path, rules: Option<&Path>) -> Result<(Vec<Diagnostic>, String), GameError> {
        let (r, s, rules_dir) = load_scenario::<S>(scenario, rules)?;
        let mut problems = S::validate(&r, &s, &rules_dir, scenario);
        let counts = S::counts(&r, &s);
        // The turn plan against the mechanics, as the engine checks it when a game loads.
        problems.extend(Engine::<S>::check_plan(&std::sync::Arc::new(r)));
        Ok((problems, counts))
    }
    fn map(&self, game: &GameDir, turn: u32, faction: Option<&str>) -> Result<String, GameError> {
        let rules = game.rules::<S>()?;
        let state = game.state::<S>(turn)?;
        let err = |message: String| GameError { path: game.turn_dir(turn), message };
        S::map(&rules, &state, faction)
            .map_err(err)?
            .ok_or_else(|| err(format!("the {} rule system draws no map", S::NAME)))
    }
    fn join(&self, game: &GameDir, request: JoinRequest, threads: Threads) -> Result<(Joined, String), GameError> {
        game.join::<S>(request, threads)
    }
}

/// Every rule system of the engine.
static SYSTEMS: &[&dyn Commands] =
    &[&Driver::<overlord::Overlord>(PhantomData), &Driver::<generals::Generals>(PhantomData)];

/// The rule system named `name`.
pub fn find(name: &str) -> Option<&'static dyn Commands> {
    SYSTEMS.iter().copied().find(|s| s.name() == name)
}

/// The names of the engine's rule systems.
pub fn names() -> Vec<&'static str> {
    SYSTEMS.iter().map(|s| s.name()).collect()
}

/// The rule system of a game folder.
pub fn of_game(game: &GameDir) -> Result<&'static dyn Commands, GameError> {
    let name = game.system()?;
    find(&name).ok_or_else(|| unknown(&game.root().join("rules").join("ruleset.ron"), &name))
}

/// The rule system of a scenario: the one its rule set names.
pub fn of_scenario(scenario: &Path, rules: Option<&Path>) -> Result<&'static dyn Commands, GameError> {
    let name = scenario_head(scenario).map(|h| h.ruleset).unwrap_or_default();
    let Some(dir) = find_ruleset_dir(scenario, &name, rules) else {
        let message =
            format!("rule set '{name}' not found (looked for assets/rules/{name}; give its folder with --rules)");
        return Err(GameError { path: scenario.join("game.ron"), message });
    };
    let head = rule_set_head(&dir).map_err(|d| GameError {
        path: dir.join("ruleset.ron"),
        message: d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"),
    })?;
    find(&head.system).ok_or_else(|| unknown(&dir.join("ruleset.ron"), &head.system))
}

fn unknown(path: &Path, name: &str) -> GameError {
    GameError {
        path: path.to_path_buf(),
        message: format!("rule system '{name}' is not part of this engine (it runs: {})", names().join(", ")),
    }
}
