//! The rule systems the engine runs, by the name their rule sets give
//! (`system: "overlord"` in `ruleset.ron`), and what the command line asks of
//! each: the core's game folder commands, run for that system.

pub mod generals;
pub mod overlord;

use crate::core::data::{find_ruleset_dir, rule_set_head, scenario_head};
use crate::core::diag::Diagnostic;
use crate::core::engine::{Engine, Threads};
use crate::core::game::index::FactionRecord;
use crate::core::game::{Answer, GameDir, GameError, ReportKind, TurnSummary, load_scenario};
use crate::core::map::Atlas;
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
    /// Renders the game's stored reports as HTML pages, its rule set loaded once.
    fn pages(&self, game: &GameDir) -> Result<Box<dyn Pages>, GameError>;
    /// What is needed to draw the map of a turn's state, whole or as any faction
    /// knows it (`overlord map`, the HTML report); `None` when the rule system
    /// draws no map.
    fn atlas(&self, game: &GameDir, turn: u32) -> Result<Option<Box<dyn Atlas>>, GameError>;
    /// The SVG map of a turn's state, whole or as a faction knows it (`overlord map`).
    fn map(&self, game: &GameDir, turn: u32, faction: Option<&str>) -> Result<String, GameError> {
        let err = |message: String| GameError { path: game.turn_dir(turn), message };
        let atlas =
            self.atlas(game, turn)?.ok_or_else(|| err(format!("the {} rule system draws no map", self.name())))?;
        atlas.svg(faction).map_err(err)
    }
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
    fn pages(&self, game: &GameDir) -> Result<Box<dyn Pages>, GameError> {
        let rules = std::sync::Arc::new(game.rules::<S>()?);
        Ok(Box::new(SystemPages::<S> { words: S::words(&rules) }))
    }
    fn atlas(&self, game: &GameDir, turn: u32) -> Result<Option<Box<dyn Atlas>>, GameError> {
        let rules = game.rules::<S>()?;
        let state = game.state::<S>(turn)?;
        Ok(S::atlas(&rules, &state))
    }
    fn join(&self, game: &GameDir, request: JoinRequest, threads: Threads) -> Result<(Joined, String), GameError> {
        game.join::<S>(request, threads)
    }
}

/// Renders a game's stored reports as HTML pages.
pub trait Pages: Send + Sync {
    /// The page of a report: its stored JSON and text forms, and the map (SVG) to
    /// show in it; an error says why the report cannot be read.
    fn page(&self, json: &str, text: &str, map: Option<&str>) -> Result<String, String>;
}

struct SystemPages<S: GameSystem> {
    words: S::Words,
}

impl<S: GameSystem> Pages for SystemPages<S> {
    fn page(&self, json: &str, text: &str, map: Option<&str>) -> Result<String, String> {
        S::html(&self.words, json, text, map)
    }
}

/// Faction `faction`'s report of turn `turn` as an HTML page, with its map when the
/// rule system draws one (`atlas`, the turn's).
pub fn report_page(
    game: &GameDir,
    pages: &dyn Pages,
    atlas: Option<&dyn Atlas>,
    turn: u32,
    faction: &str,
) -> Result<String, GameError> {
    let read = |kind| {
        let path = game.report_path(turn, faction, kind);
        std::fs::read_to_string(&path).map_err(|e| GameError { path, message: e.to_string() })
    };
    let (json, text) = (read(ReportKind::Json)?, read(ReportKind::Text)?);
    let map = match atlas {
        Some(a) => Some(a.svg(Some(faction)).map_err(|message| GameError { path: game.turn_dir(turn), message })?),
        None => None,
    };
    pages
        .page(&json, &text, map.as_deref())
        .map_err(|message| GameError { path: game.report_path(turn, faction, ReportKind::Json), message })
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
