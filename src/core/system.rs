//! The contract between the core and a rule system.
//!
//! A rule system (a set of rules and its mechanics) is a type implementing
//! [`RuleSystem`]. The core's [`Engine`](crate::core::engine::Engine) runs it: it
//! adds the system's mechanics to a Bevy app, checks the turn plan of its rule set
//! against the steps those mechanics use, spawns the state, and runs turns step by
//! step as the plan says. Everything else about the system — its data tables, its
//! order language, its reports — stays behind this trait.

use crate::core::engine::plan::TurnPlan;
use bevy_app::App;
use bevy_ecs::world::World;
use std::sync::Arc;

/// A rule system, as the core's engine runs it.
pub trait RuleSystem: Sized + Send + Sync + 'static {
    /// The name rule sets give in `ruleset.ron` (`system: "overlord"`).
    const NAME: &'static str;
    /// The rule set, as loaded from its folder.
    type Rules: Send + Sync + 'static;
    /// A world at a moment of play: a scenario, or the state saved after a turn.
    type State: Send + 'static;
    /// One order file of the system's order language.
    type Orders: Clone + Send + Sync + 'static;

    /// The turn plan of a rule set.
    fn plan(rules: &Self::Rules) -> &TurnPlan;

    /// Adds the system's mechanics to `app`: resources they share, and plugins that
    /// attach systems to the plan's steps
    /// ([`PlanApp::add_step_system`](crate::core::engine::plan::PlanApp::add_step_system)).
    fn plugins(app: &mut App, rules: &Arc<Self::Rules>);

    /// Spawns `state` into `world`, after the plugins were added. The world holds a
    /// [`Clock`](crate::core::engine::plan::Clock) with the plan's ticks; the
    /// system sets its turn (and may set the ticks a game plays). Fails with one
    /// message per reference that does not resolve.
    fn build(world: &mut World, rules: &Arc<Self::Rules>, state: Self::State) -> Result<(), Vec<String>>;

    /// Called when a turn begins, after the clock moved to it and before its first
    /// step.
    fn begin_turn(_world: &mut World) {}

    /// Called when a turn has run its last step.
    fn end_turn(_world: &mut World) {}

    /// The state of `world`, as saved after a turn.
    fn extract(world: &World) -> Self::State;
}

/// A file of a turn folder or a rule set folder: its path relative to the folder,
/// and its bytes.
pub type FolderFile = (std::path::PathBuf, Vec<u8>);

/// A game as the core's game folder sees it.
#[derive(Debug, Clone, Copy)]
pub struct GameEntry<'a> {
    /// The game's short name, as order files name it.
    pub name: &'a str,
    /// Its title for the newspaper (may be empty).
    pub title: &'a str,
    /// The last turn played.
    pub turn: u32,
}

/// A faction (a player's side) as the core's mail handling sees it.
#[derive(Debug, Clone, Copy)]
pub struct FactionEntry<'a> {
    /// Its id, as order files name it.
    pub id: &'a str,
    /// Its name.
    pub name: &'a str,
    /// Its password; an empty password takes no mail.
    pub password: &'a str,
    /// Where its reports go; empty when it has no address.
    pub email: &'a str,
}

/// A new player asking to join a game (`overlord join`): what the rule system needs
/// to make its faction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct JoinRequest {
    /// The faction's name.
    pub name: String,
    /// Where its reports go.
    pub email: String,
    /// Its password for order files.
    pub password: String,
    /// The kind of start chosen (a leader type, say).
    pub start: String,
    /// Where it starts (a kind of start place, or one place of a kind).
    pub place: String,
    /// Further choices the start asks for, in order.
    pub choices: Vec<String>,
}

/// A faction made for a new player.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Joined {
    /// Its id, as order files name it.
    pub faction: String,
    /// What it got, a line each, for the game master.
    pub lines: Vec<String>,
}

/// Builds and renders the reports of a world, a faction at a time.
pub trait ReportWriter {
    /// How many factions get a report.
    fn factions(&self) -> usize;
    /// A measure of how big faction `i`'s report is (say, the units it may list),
    /// so that no more than a bounded stretch of reports is made ahead of the
    /// writer and memory stays bounded. 1 unless a rule system says better.
    fn size(&self, _faction: usize) -> usize {
        1
    }
    /// The report files of faction `i` (in report order): its text report, which
    /// ends with its order template ([`crate::core::template`]), and its JSON
    /// report, named `reports/<faction>.txt` and `.json`.
    fn one(&self, faction: usize) -> Vec<FolderFile>;
    /// The report files of factions `range`, in faction order, rendered on
    /// `threads` threads.
    fn files(&self, range: std::ops::Range<usize>, threads: usize) -> Vec<FolderFile>
    where
        Self: Sync,
    {
        let factions: Vec<usize> = range.collect();
        crate::core::engine::parallel::map_ordered(&factions, threads, |&i| self.one(i)).into_iter().flatten().collect()
    }
}

/// What the core's game folders and mail handling need of a rule system, besides
/// running its turns: its data folders, its order files and its reports. The rule
/// set is kept in each turn's mail index, in the binary form of
/// [`crate::core::data::bin`].
pub trait GameSystem: RuleSystem<Rules: serde::Serialize + serde::de::DeserializeOwned> {
    /// The words of a rule set that its order language reads (built once, used for
    /// every order file of a turn).
    type Words: Send + Sync;
    /// Builds a world's reports a faction at a time.
    type Reports<'w>: ReportWriter + Sync
    where
        Self: 'w;

    /// Loads the rule set in `dir`; every problem names its file, line and column.
    fn load_rules(dir: &std::path::Path) -> Result<Self::Rules, Vec<crate::core::diag::Diagnostic>>;
    /// The files of a rule set folder, to copy into a game.
    fn rules_files(rules: &Self::Rules) -> std::io::Result<Vec<FolderFile>>;
    /// Loads a state (a scenario folder, or a turn's `state/`).
    fn load_state(dir: &std::path::Path) -> Result<Self::State, Vec<crate::core::diag::Diagnostic>>;
    /// Checks a rule set and a state against each other; problems are resolved to the
    /// lines of the files in `rules_dir` and `state_dir`.
    fn validate(
        rules: &Self::Rules,
        state: &Self::State,
        rules_dir: &std::path::Path,
        state_dir: &std::path::Path,
    ) -> Vec<crate::core::diag::Diagnostic>;
    /// The files [`state_files`](Self::state_files) writes: a turn's state folder
    /// holds every one (a scenario may leave some out).
    const STATE_FILES: &'static [&'static str];
    /// The files of a state folder.
    fn state_files(state: &Self::State) -> std::io::Result<Vec<FolderFile>>;
    /// Writes the state of `world` as a turn's state files, and its mail index's
    /// records, through `out`, without ever holding the whole state beside the
    /// world (a big world's units a part at a time): what
    /// [`extract`](RuleSystem::extract), [`state_files`](Self::state_files) and
    /// [`mail_records`](Self::mail_records) make, byte for byte, with every
    /// password written hashed ([`crate::core::secret::seal`]). `None`: the system
    /// has no such way, and the core extracts the state whole.
    fn write_state(
        _world: &World,
        _out: &mut crate::core::game::StateOut<'_, '_, Self::Rules>,
    ) -> Option<std::io::Result<crate::core::game::StateSummary>> {
        None
    }
    /// The game a state is of.
    fn game(state: &Self::State) -> GameEntry<'_>;
    /// The factions of a state, in report order.
    fn factions(state: &Self::State) -> Vec<FactionEntry<'_>>;
    /// How many units (the pieces players give orders to) a state has, for summaries.
    fn units(state: &Self::State) -> usize;
    /// A one-line count of what a rule set and a state hold, for `validate`.
    fn counts(rules: &Self::Rules, state: &Self::State) -> String;

    /// The words of a rule set, for reading order files.
    fn words(rules: &Arc<Self::Rules>) -> Self::Words;
    /// Reads a mail: the core's envelope, `GAME` sections in the system's grammar.
    fn read_mail(
        words: &Self::Words,
        text: &str,
    ) -> Result<crate::core::orders::mail::Mail<Self::Orders>, crate::core::orders::mail::OrderError>;
    /// The header of an order file.
    fn header(file: &Self::Orders) -> &crate::core::orders::mail::Header;
    /// The header of an order file, to change (the core writes the faction id as
    /// the state does, whatever case the player wrote).
    fn header_mut(file: &mut Self::Orders) -> &mut crate::core::orders::mail::Header;
    /// The lines of an order file that hold a password besides its header (an
    /// order changing the faction's password, `PASSWORD new`): the turn's archive
    /// shows them without it.
    fn secret_lines(_file: &Self::Orders) -> Vec<usize> {
        Vec::new()
    }
    /// Every faction's id and password, in report order, for the core to keep
    /// passwords hashed (see [`crate::core::secret`]).
    fn passwords_mut(state: &mut Self::State) -> Vec<(&str, &mut String)>;
    /// What a block of an order file is, for receipts ("unit block").
    const BLOCK: &'static str = "unit block";
    /// How many blocks an order file has (units, generals…), for receipts.
    fn blocks(file: &Self::Orders) -> usize;
    /// Checks faction `faction`'s order file against a state, without running the
    /// turn (FILE-CHECK): every problem named by line.
    fn check(
        words: &Self::Words,
        state: &Self::State,
        faction: &str,
        file: &Self::Orders,
    ) -> crate::core::orders::check::Check;
    /// The rule set as a turn's mail index keeps it: what reading and checking
    /// orders reads of it, without the texts only reports show (descriptions).
    /// `None` keeps the whole rule set.
    fn mail_rules(_rules: &Self::Rules) -> Option<Self::Rules> {
        None
    }
    /// Adds to a turn's mail index ([`crate::core::game::index`]) the records
    /// [`mail_state`](Self::mail_state) reads back. Nothing unless the system says:
    /// the check of a mail then reads the whole state.
    fn mail_records(
        _state: &Self::State,
        _out: &mut crate::core::game::index::SystemRecords,
    ) -> Result<(), crate::core::data::bin::Error> {
        Ok(())
    }
    /// A state that holds what [`check`](Self::check) needs to check `file` of
    /// faction `faction` (its header verified), made from the records of
    /// [`mail_records`](Self::mail_records): the check against it says exactly what
    /// the check against the whole state says. `Ok(None)` when the system writes no
    /// such records.
    fn mail_state(
        _records: &crate::core::game::index::SystemLookup,
        _faction: &str,
        _file: &Self::Orders,
    ) -> Result<Option<Self::State>, crate::core::game::index::Damage> {
        Ok(None)
    }

    /// The reports of `world` as it stands.
    fn reports(world: &World) -> Self::Reports<'_>;

    /// What the turn's newspaper tells everyone of the month just run in `world`
    /// (battles, for instance), a line each; nothing unless the system says.
    fn headlines(_world: &World) -> Vec<String> {
        Vec::new()
    }

    /// Adds a faction for a new player to `state` (the state after the last turn
    /// played), or says why it cannot; nothing is changed on an error.
    fn join(_rules: &Self::Rules, _state: &mut Self::State, _request: &JoinRequest) -> Result<Joined, String> {
        Err(format!("the {} rule system takes no new players", Self::NAME))
    }

    /// A faction's report as one self-contained HTML page ([`crate::core::html`]),
    /// from its stored JSON (`json`) and text (`text`) reports, with the map `map`
    /// (SVG) inline when given; an error says why the JSON cannot be read. Unless the
    /// rule system renders its own: the text report under the map.
    fn html(_words: &Self::Words, _json: &str, text: &str, map: Option<&str>) -> Result<String, String> {
        Ok(crate::core::html::text_page(text, map))
    }

    /// What is needed to draw the state's map as SVG, whole or as any faction knows
    /// it; `None` when the rule system draws no map.
    fn atlas(_rules: &Self::Rules, _state: &Self::State) -> Option<Box<dyn crate::core::map::Atlas>> {
        None
    }
}
