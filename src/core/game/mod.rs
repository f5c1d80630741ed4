//! Game directories: a game's state, its archive of turns, and the orders waiting
//! for the next turn. The layout (also in README.md):
//!
//! ```text
//! <game>/
//!   .lock                       one command changing the game at a time (lock)
//!   rules/                      the rule set, copied when the game was created
//!   orders/<turn>/<faction>.txt submitted orders waiting for that turn
//!   turns/<turn>/               one folder per complete turn:
//!     state/*.ron               the world after the turn (a scenario folder)
//!     orders/<faction>.txt      the order files the turn was run with
//!     reports/<faction>.txt     each faction's text report, ending with its
//!                               order template (crate::core::template),
//!     reports/<faction>.json    and JSON report (docs/report-schema.json)
//!     joins/<faction>.txt       factions that joined after the turn (`join`)
//!     mail.index                what taking in and checking mail reads ([`index`])
//! ```
//!
//! Turn folders are named with four or more digits (`0000`, `0001`, …). The current
//! turn is the highest complete one. A turn is written into `turns/.<turn>.partial/`,
//! every file and folder is flushed to disk, then the folder is renamed into place:
//! a run killed at any moment leaves the game at its last complete turn, and the next
//! run removes the leftovers and starts again, giving the same bytes.
//!
//! A turn folder is never changed again, but for the current turn's mail index (a
//! cache of the state, written again by the next mail when it cannot be used) and
//! for one thing more: a new player joining
//! between two turns ([`GameDir::join`]). The turn is then written again beside
//! itself, with the new faction in its state, the faction's first report and the
//! record of the join, every other file linked from the old folder, and the two
//! folders exchanged in one step.

mod fsutil;
pub mod index;
pub mod lock;
pub mod mail;

use crate::core::data::bin;
use crate::core::diag::Diagnostic;
use crate::core::engine::{Engine, ThreadCount, Threads, parallel};
use crate::core::system::{FolderFile, GameSystem, JoinRequest, Joined, ReportWriter};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use fsutil::{ABORT_ENV, write_tree};
pub use mail::{Answer, Described, Receipt, describe};

/// An error from a game command, with the file it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// The file or folder concerned.
    pub path: PathBuf,
    /// What went wrong.
    pub message: String,
}

impl GameError {
    fn new(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        GameError { path: path.into(), message: message.into() }
    }
    fn io(path: &Path, e: std::io::Error) -> Self {
        GameError::new(path, e.to_string())
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: error: {}", self.path.display(), self.message)
    }
}

/// What a turn produced.
#[derive(Debug, Clone)]
pub struct TurnSummary {
    /// The turn written.
    pub turn: u32,
    /// Number of factions (and so of reports).
    pub factions: usize,
    /// Number of units at the end of the turn.
    pub units: usize,
    /// Number of order files the turn was run with.
    pub order_files: usize,
    /// Time spent running the month (excluding loading and writing).
    pub run_time: Duration,
    /// Time spent in all.
    pub total_time: Duration,
    /// The folder of the turn's reports.
    pub reports: PathBuf,
}

/// A game directory.
#[derive(Debug, Clone)]
pub struct GameDir {
    root: PathBuf,
}

fn turn_name(turn: u32) -> String {
    format!("{turn:04}")
}

impl GameDir {
    /// Opens an existing game directory.
    pub fn open(root: impl Into<PathBuf>) -> Result<Self, GameError> {
        let g = GameDir { root: root.into() };
        if !g.root.join("rules").join("ruleset.ron").is_file() || !g.root.join("turns").is_dir() {
            return Err(GameError::new(&g.root, "not a game directory (create one with `overlord new`)"));
        }
        // Only when no other command is at work: a join in progress is not to be
        // mistaken for one interrupted.
        if let Some(_alone) = lock::try_alone(&g.root) {
            g.recover_join()?;
        }
        Ok(g)
    }

    /// Puts back a turn folder a join interrupted between its two renames left
    /// aside (only where folders cannot be exchanged in one step; see
    /// [`fsutil::exchange`]).
    fn recover_join(&self) -> Result<(), GameError> {
        let turns = self.root.join("turns");
        let Ok(entries) = std::fs::read_dir(&turns) else { return Ok(()) };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(turn) = name.strip_prefix('.').and_then(|n| n.strip_suffix(".old")) else { continue };
            let target = turns.join(turn);
            if turn.bytes().all(|b| b.is_ascii_digit()) && !target.exists() {
                std::fs::rename(e.path(), &target).map_err(|err| GameError::io(&target, err))?;
                tracing::warn!(turn, "turn folder put back after an interrupted join");
            }
        }
        Ok(())
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The folder of a complete turn.
    pub fn turn_dir(&self, turn: u32) -> PathBuf {
        self.root.join("turns").join(turn_name(turn))
    }

    /// The folder of orders waiting for `turn`.
    pub fn pending_dir(&self, turn: u32) -> PathBuf {
        self.root.join("orders").join(turn_name(turn))
    }

    /// The file that holds a faction's report of `kind`: the order template is at
    /// the end of the text report ([`GameDir::read_report`] takes it out).
    pub fn report_path(&self, turn: u32, faction: &str, kind: ReportKind) -> PathBuf {
        let ext = match kind {
            ReportKind::Text | ReportKind::Template => "txt",
            ReportKind::Json => "json",
        };
        self.turn_dir(turn).join("reports").join(format!("{faction}.{ext}"))
    }

    /// A faction's report of `kind` in `turn`: its text report, its JSON report,
    /// or the order template at the end of its text report
    /// ([`crate::core::template`]). A turn written when the template had a file of
    /// its own, `<faction>.orders.txt`, and a text report without it (the generals
    /// game's) gives that file.
    pub fn read_report(&self, turn: u32, faction: &str, kind: ReportKind) -> Result<Vec<u8>, GameError> {
        let path = self.report_path(turn, faction, kind);
        let bytes = std::fs::read(&path).map_err(|e| GameError::io(&path, e))?;
        if kind != ReportKind::Template {
            return Ok(bytes);
        }
        if let Some(template) = crate::core::template::of(&bytes) {
            return Ok(template.to_vec());
        }
        let own = self.turn_dir(turn).join("reports").join(format!("{faction}.orders.txt"));
        std::fs::read(&own).map_err(|_| GameError::new(&path, "the report has no order template"))
    }

    /// The highest complete turn.
    pub fn current_turn(&self) -> Result<u32, GameError> {
        let dir = self.root.join("turns");
        let entries = std::fs::read_dir(&dir).map_err(|e| GameError::io(&dir, e))?;
        let mut best = None;
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.len() >= 4
                && name.bytes().all(|b| b.is_ascii_digit())
                && let Ok(n) = name.parse::<u32>()
            {
                best = best.max(Some(n));
            }
        }
        best.ok_or_else(|| GameError::new(&dir, "no complete turn"))
    }

    /// Creates a game of rule system `S` from a scenario: copies the rule set, writes
    /// turn 0's state and reports. The scenario must validate.
    pub fn create<S: GameSystem>(
        scenario_dir: &Path,
        rules_dir: Option<&Path>,
        root: &Path,
    ) -> Result<TurnSummary, GameError> {
        let started = Instant::now();
        if root.exists() && std::fs::read_dir(root).map(|mut d| d.next().is_some()).unwrap_or(true) {
            return Err(GameError::new(root, "already exists and is not empty"));
        }
        let (rules, state, rules_dir) = load_scenario::<S>(scenario_dir, rules_dir)?;
        let diags = S::validate(&rules, &state, &rules_dir, scenario_dir);
        if diags.iter().any(|d| d.is_error()) {
            return Err(diag_error(scenario_dir, &diags));
        }
        let rules = Arc::new(rules);
        let turn = S::game(&state).turn;
        tracing::info!(scenario = %scenario_dir.display(), system = S::NAME, "creating game");
        let mut engine = Engine::<S>::new(rules.clone(), state, Threads::All)
            .map_err(|e| GameError::new(scenario_dir, e.join("; ")))?;
        let t = Instant::now();
        engine.defer_reports();
        engine.report_only();
        let run_time = t.elapsed();
        std::fs::create_dir_all(root).map_err(|e| GameError::io(root, e))?;
        // A game holds every faction's reports and orders: its folder is its
        // owner's alone.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| GameError::io(root, e))?;
        }
        let _hold = lock::take(root, lock::Hold::Change)?;
        let tmp_rules = root.join(".rules.partial");
        fsutil::remove_if_exists(&tmp_rules).map_err(|e| GameError::io(&tmp_rules, e))?;
        write_tree(&tmp_rules, &S::rules_files(&rules).map_err(|e| GameError::io(&tmp_rules, e))?)
            .map_err(|e| GameError::io(&tmp_rules, e))?;
        fsutil::commit(&tmp_rules, &root.join("rules")).map_err(|e| GameError::io(root, e))?;
        let g = GameDir { root: root.to_path_buf() };
        let mut summary = g.write_turn(&engine, &rules, turn, false, |made| {
            let newspaper = mail::newspaper(turn, &[], &mail::articles(made.game(), &[], &[]));
            vec![(PathBuf::from("newspaper.txt"), newspaper.into_bytes())]
        })?;
        summary.run_time = run_time;
        summary.total_time = started.elapsed();
        Ok(summary)
    }

    /// The name of the rule system the game is played with (its rule set's
    /// `system`).
    pub fn system(&self) -> Result<String, GameError> {
        let dir = self.root.join("rules");
        crate::core::data::rule_set_head(&dir).map(|h| h.system).map_err(|d| diag_error(&dir, &d))
    }

    /// Loads the rule set of the game.
    pub fn rules<S: GameSystem>(&self) -> Result<S::Rules, GameError> {
        let dir = self.root.join("rules");
        S::load_rules(&dir).map_err(|d| diag_error(&dir, &d))
    }

    /// Loads the state of a complete turn. Every file a turn's state is written
    /// as must be there: a file gone is never read as an empty one.
    pub fn state<S: GameSystem>(&self, turn: u32) -> Result<S::State, GameError> {
        let dir = self.turn_dir(turn).join("state");
        let missing: Vec<&str> = S::STATE_FILES.iter().copied().filter(|f| !dir.join(f).is_file()).collect();
        if !missing.is_empty() {
            return Err(GameError::new(
                &dir,
                format!("the state of turn {turn} is incomplete: {} missing; nothing was done", missing.join(", ")),
            ));
        }
        S::load_state(&dir).map_err(|d| diag_error(&dir, &d))
    }

    /// Whether the state of turn `turn` is as the engine wrote it from its world
    /// (a turn run, the game begun, a faction joined), by the turn's mail index
    /// ([`index::Index::vouches_for_state`]): the index was written with that
    /// state, by this engine, and no file of the state or of the rule set changed
    /// since, by length and modification time. An index missing, damaged, stale or
    /// made again from the state on disk (by a mail, after an edit) vouches for
    /// nothing.
    pub fn state_vouched<S: GameSystem>(&self, turn: u32) -> bool {
        let dir = self.turn_dir(turn);
        index::Meta::now(S::NAME, turn, &self.root.join("rules"), &dir)
            .ok()
            .and_then(|meta| index::Index::open(&dir.join(index::FILE), &meta).ok())
            .is_some_and(|ix| ix.vouches_for_state())
    }

    /// Loads the state of a complete turn and validates it against the game's rule
    /// set, for a command that plays on from it: a state edited into
    /// inconsistency (a unit id twice, a place that is not there) is refused with
    /// every error's file and line, and the game is left as it was. A state the
    /// turn's mail index vouches for ([`state_vouched`](Self::state_vouched)) is
    /// not validated again: the engine wrote it, and nothing changed it since.
    pub fn checked_state<S: GameSystem>(&self, turn: u32, rules: &S::Rules) -> Result<S::State, GameError> {
        let state = self.state::<S>(turn)?;
        if self.state_vouched::<S>(turn) {
            tracing::debug!("state as the engine wrote it, by the turn's mail index: not validated again");
            return Ok(state);
        }
        let t = Instant::now();
        let dir = self.turn_dir(turn).join("state");
        let diags = S::validate(rules, &state, &self.root.join("rules"), &dir);
        tracing::debug!(
            seconds = t.elapsed().as_secs_f64(),
            peak_mb = crate::core::alloc::peak_mb(),
            "state validated"
        );
        if diags.iter().any(|d| d.is_error()) {
            return Err(diag_error(&dir, &diags));
        }
        Ok(state)
    }

    /// Takes in a mail: stores its order files, articles and notices, and answers
    /// its report requests (see [`mail`]). Fails only when the mail has no section
    /// that can be read, or on I/O errors; a refused section is an
    /// [`Answer::Refused`].
    pub fn submit_mail<S: GameSystem>(&self, text: &str) -> Result<Vec<Answer>, GameError> {
        self.take_mail::<S>(text, mail::Mode::Store)
    }

    /// Checks a mail as [`submit_mail`](Self::submit_mail) would take it, storing
    /// nothing.
    pub fn check_mail<S: GameSystem>(&self, text: &str) -> Result<Vec<Answer>, GameError> {
        self.take_mail::<S>(text, mail::Mode::CheckOnly)
    }

    /// Stores one order file for its turn: the first section of `text` must be a
    /// `GAME` section. A wrong faction, password, game or turn is an error and
    /// stores nothing.
    pub fn submit<S: GameSystem>(&self, text: &str) -> Result<Receipt, GameError> {
        match self.submit_mail::<S>(text)?.into_iter().next() {
            Some(Answer::Orders(r)) => Ok(r),
            Some(Answer::Refused { line, message }) => Err(GameError::new("orders", format!("line {line}: {message}"))),
            _ => Err(GameError::new("orders", "no header line: the orders must start with `GAME faction password`")),
        }
    }

    /// The order files waiting for `turn`, read, in faction-id order.
    fn pending<S: GameSystem>(
        &self,
        turn: u32,
        words: &S::Words,
    ) -> Result<Vec<(String, String, S::Orders)>, GameError> {
        let dir = self.pending_dir(turn);
        let mut out = Vec::new();
        for (name, text) in mail::read_txt_files(&dir)? {
            let read = S::read_mail(words, &text).map_err(|e| GameError::new(dir.join(&name), e.to_string()))?;
            let Some(file) = read.orders.into_iter().next() else {
                return Err(GameError::new(
                    dir.join(&name),
                    "no header line: the orders must start with `GAME faction password`",
                ));
            };
            out.push((name, text, file));
        }
        Ok(out)
    }

    /// Runs the next turn and writes it. `on_tick(tick, ticks)` is called after
    /// each tick.
    ///
    /// The turn runs with the order files, articles and notices waiting for it; its
    /// folder archives them, holds the newspaper, and the check of the orders already
    /// waiting for the turn after it (FILE-TURN).
    pub fn run<S: GameSystem>(
        &self,
        threads: Threads,
        on_tick: impl FnMut(u32, u32),
    ) -> Result<TurnSummary, GameError> {
        let started = Instant::now();
        let _hold = lock::take(&self.root, lock::Hold::Change)?;
        let current = self.current_turn()?;
        let next = current + 1;
        // Mail a run took in, left behind when it was stopped right after writing
        // its turn.
        let taken = self.pending_dir(current);
        fsutil::remove_if_exists(&taken).map_err(|e| GameError::io(&taken, e))?;
        let t = Instant::now();
        let rules = Arc::new(self.rules::<S>()?);
        let words = S::words(&rules);
        tracing::debug!(seconds = t.elapsed().as_secs_f64(), "rules loaded");
        let t = Instant::now();
        let state = self.checked_state::<S>(current, &rules)?;
        tracing::debug!(seconds = t.elapsed().as_secs_f64(), peak_mb = crate::core::alloc::peak_mb(), "state loaded");
        let pending = self.pending::<S>(next, &words)?;
        let mail = self.pending_mail(next)?;
        let articles = mail::articles(S::game(&state), &S::factions(&state), &mail.articles);
        // Mail takes a faction id in any case; the turn gets it as the state writes it.
        let ids: std::collections::HashMap<String, String> =
            S::factions(&state).iter().map(|f| (f.id.to_ascii_lowercase(), f.id.to_string())).collect();
        let files: Vec<S::Orders> = pending
            .iter()
            .map(|(_, _, f)| {
                let mut f = f.clone();
                let h = S::header_mut(&mut f);
                if let Some(id) = ids.get(&h.faction.to_ascii_lowercase()) {
                    h.faction.clone_from(id);
                }
                f
            })
            .collect();
        tracing::info!(turn = next, order_files = pending.len(), "running turn");
        let mut engine = Engine::<S>::new(rules.clone(), state, threads)
            .map_err(|e| GameError::new(self.turn_dir(current), e.join("; ")))?;
        tracing::debug!(
            seconds = t.elapsed().as_secs_f64(),
            peak_mb = crate::core::alloc::peak_mb(),
            live_mb = crate::core::alloc::live_mb(),
            "world built"
        );
        engine.defer_reports();
        engine.submit(files);
        engine.deliver(mail.inbox);
        let t = Instant::now();
        engine.run_turn(on_tick);
        let run_time = t.elapsed();
        tracing::info!(
            seconds = run_time.as_secs_f64(),
            peak_mb = crate::core::alloc::peak_mb(),
            live_mb = crate::core::alloc::live_mb(),
            "month run"
        );
        let newspaper = mail::newspaper(next, &S::headlines(engine.world()), &articles);
        let order_files = pending.len();
        let mut inputs: Vec<FolderFile> = pending
            .into_iter()
            .map(|(n, text, file)| {
                // Archived without a password: the header's, and any new one.
                let mut secret = S::secret_lines(&file);
                secret.push(S::header(&file).line);
                (Path::new("orders").join(n), mail::redact_lines(&text, &secret).into_bytes())
            })
            .collect();
        inputs.extend(mail.files);
        inputs.push((PathBuf::from("newspaper.txt"), newspaper.into_bytes()));
        let later = self.pending::<S>(next + 1, &words)?;
        // Orders already waiting for the turn after are checked against the whole
        // new state.
        let mut summary = self.write_turn(&engine, &rules, next, !later.is_empty(), |made| {
            let checks = later.iter().filter_map(|(_, _, file)| {
                let h = S::header(file);
                let state = made.state()?;
                let f = made.factions.iter().find(|f| f.id.eq_ignore_ascii_case(&h.faction))?;
                let check = S::check(&words, state, &f.id, file);
                let text = mail::check_text(&f.id, next + 1, &check);
                Some((Path::new("checks").join(format!("{}.txt", f.id)), text.into_bytes()))
            });
            inputs.into_iter().chain(checks).collect()
        })?;
        engine.let_go();
        // What the turn took in is archived in its folder (passwords hidden): the
        // mail that waited for it, new passwords in clear among it, goes.
        let taken = self.pending_dir(next);
        fsutil::remove_if_exists(&taken).map_err(|e| GameError::io(&taken, e))?;
        summary.order_files = order_files;
        summary.run_time = run_time;
        summary.total_time = started.elapsed();
        Ok(summary)
    }

    /// Writes turn `turn` atomically: state, reports, and the files `more` makes
    /// from what the state holds (the inputs the turn ran with, paths relative to
    /// the turn's folder). `more` is given the whole state only when `whole`
    /// asks for it; otherwise a system that can writes the state a part at a time
    /// ([`GameSystem::write_state`]).
    fn write_turn<S: GameSystem>(
        &self,
        engine: &Engine<S>,
        rules: &S::Rules,
        turn: u32,
        whole: bool,
        more: impl FnOnce(&Made<S>) -> Vec<FolderFile>,
    ) -> Result<TurnSummary, GameError> {
        let turns = self.root.join("turns");
        let partial = turns.join(format!(".{}.partial", turn_name(turn)));
        let target = self.turn_dir(turn);
        if target.exists() {
            return Err(GameError::new(&target, "this turn has already been written"));
        }
        fsutil::remove_if_exists(&partial).map_err(|e| GameError::io(&partial, e))?;
        // Written as it is made, so that a big world's turn never holds its state or
        // every report in memory: the state a part at a time, the reports a
        // faction at a time within a window.
        let started = Instant::now();
        let io = |e| GameError::io(&partial, e);
        let w = fsutil::TreeWriter::new(&partial).map_err(io)?;
        let world = engine.world();
        let threads = world.get_resource::<ThreadCount>().map_or(1, |t| t.0).max(1);
        let reports = S::reports(world);
        let factions = reports.factions();
        // A faction above the size budget (thousands of units) is reported once the
        // state is written, so that the two never meet; the others meanwhile.
        let (small, big): (Vec<usize>, Vec<usize>) = (0..factions).partition(|&i| reports.size(i) <= REPORT_SIZE);
        let root = self.root.as_path();
        let units = std::thread::scope(|s| -> std::io::Result<usize> {
            // With threads to spare, files are written on a thread of their own
            // while the next ones are made, and the state is made and written out
            // (with the mail index) while reports are made: all of them only read
            // the world. Reports go to the writer a faction at a time, in faction
            // order, as they are made: memory holds a window of them.
            let mut sink = fsutil::Sink::new(w, threads > 1, s);
            let state = |sink: &mut fsutil::Sink<'_>| -> std::io::Result<Made<S>> {
                let (made, records) = make_state::<S>(world, rules, whole, sink)?;
                write_index::<S>(sink, root, turn, &partial, records)?;
                tracing::debug!(
                    seconds = started.elapsed().as_secs_f64(),
                    peak_mb = crate::core::alloc::peak_mb(),
                    "state made"
                );
                Ok(made)
            };
            let made = match sink.share() {
                None => {
                    let made = state(&mut sink)?;
                    stream_reports(&reports, &small, 1, &mut sink)?;
                    stream_reports(&reports, &big, 1, &mut sink)?;
                    made
                }
                Some(mut shared) => {
                    // The big reports follow the state on its thread, beside the
                    // last of the others.
                    let reports = &reports;
                    let job = s.spawn(move || {
                        let made = state(&mut shared)?;
                        big.iter().try_for_each(|&i| shared.write(reports.one(i)))?;
                        Ok::<_, std::io::Error>(made)
                    });
                    stream_reports(reports, &small, threads, &mut sink)?;
                    job.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?
                }
            };
            sink.write(more(&made))?;
            let units = made.units;
            drop(made);
            tracing::debug!(
                seconds = started.elapsed().as_secs_f64(),
                peak_mb = crate::core::alloc::peak_mb(),
                "reports made"
            );
            let w = sink.close()?;
            tracing::debug!(
                seconds = started.elapsed().as_secs_f64(),
                peak_mb = crate::core::alloc::peak_mb(),
                "turn written"
            );
            w.finish()?;
            Ok(units)
        })
        .map_err(io)?;
        tracing::debug!(
            seconds = started.elapsed().as_secs_f64(),
            peak_mb = crate::core::alloc::peak_mb(),
            "turn flushed"
        );
        fsutil::commit(&partial, &target).map_err(|e| GameError::io(&target, e))?;
        tracing::info!(turn, "turn written");
        Ok(TurnSummary {
            turn,
            factions,
            units,
            order_files: 0,
            run_time: Duration::ZERO,
            total_time: Duration::ZERO,
            reports: target.join("reports"),
        })
    }

    /// Adds a faction for a new player to the game, between two turns: the rule
    /// system makes it in the current turn's state (see [`GameSystem::join`]); the
    /// turn is written again with it, its first report and order template, and
    /// `joins/<faction>.txt` (what was asked for and what the faction got, without
    /// the password). An empty password in `request` is drawn from the operating
    /// system's randomness. Returns what the faction got and its password.
    pub fn join<S: GameSystem>(
        &self,
        mut request: JoinRequest,
        threads: Threads,
    ) -> Result<(Joined, String), GameError> {
        let _hold = lock::take(&self.root, lock::Hold::Change)?;
        let turn = self.current_turn()?;
        let dir = self.turn_dir(turn);
        let rules = Arc::new(self.rules::<S>()?);
        let mut state = self.checked_state::<S>(turn, &rules)?;
        if request.password.is_empty() {
            request.password = new_password().map_err(|e| GameError::io(Path::new("/dev/urandom"), e))?;
        }
        let joined = S::join(&rules, &mut state, &request).map_err(|m| GameError::new(dir.join("state"), m))?;
        let index = S::factions(&state).iter().position(|f| f.id == joined.faction);
        let index = index.ok_or_else(|| GameError::new(&dir, "the new faction is not in the state"))?;
        let mut engine =
            Engine::<S>::new(rules.clone(), state, threads).map_err(|e| GameError::new(&dir, e.join("; ")))?;
        engine.defer_reports();
        engine.report_only();

        let turns = self.root.join("turns");
        let partial = turns.join(format!(".{}.join", turn_name(turn)));
        fsutil::remove_if_exists(&partial).map_err(|e| GameError::io(&partial, e))?;
        let io = |e| GameError::io(&partial, e);
        let mut w = fsutil::TreeWriter::new(&partial).map_err(io)?;
        let (state, files) = state_files::<S>(engine.world()).map_err(io)?;
        w.write(&files).map_err(io)?;
        let mail_index = index_records::<S>(&rules, &state)
            .and_then(|r| {
                let meta = index_meta::<S>(&self.root, turn, &partial, true)?;
                if let Err(e) = meta.wait_to_vouch(&partial) {
                    tracing::debug!("the mail index of turn {turn} may not vouch for its state: {e}");
                }
                index::encode(&meta, r)
            })
            .map_err(|e| tracing::warn!("the mail index of turn {turn} was not written: {e}"));
        drop(state);
        if let Ok(bytes) = mail_index {
            w.write(&[(PathBuf::from(index::FILE), bytes)]).map_err(io)?;
        }
        w.write(&S::reports(engine.world()).one(index)).map_err(io)?;
        let mut record = format!(
            "faction {}\nname {}\nemail {}\nstart {}\nplace {}\n",
            joined.faction, request.name, request.email, request.start, request.place
        );
        for c in &request.choices {
            record.push_str(&format!("choice {c}\n"));
        }
        for l in &joined.lines {
            record.push_str(&format!("# {l}\n"));
        }
        let record_path = Path::new("joins").join(format!("{}.txt", joined.faction));
        w.write(&[(record_path, record.into_bytes())]).map_err(io)?;
        w.finish().map_err(io)?;
        // Everything else of the turn, as it was.
        let fresh: std::collections::BTreeSet<PathBuf> =
            fsutil::files_under(&partial).map_err(io)?.into_iter().collect();
        for rel in fsutil::files_under(&dir).map_err(|e| GameError::io(&dir, e))? {
            if !rel.starts_with("state") && !fresh.contains(&rel) {
                fsutil::link_or_copy(&dir.join(&rel), &partial.join(&rel)).map_err(io)?;
            }
        }
        fsutil::TreeWriter::new(&partial).and_then(|w| w.finish()).map_err(io)?;
        fsutil::exchange(&partial, &dir).map_err(|e| GameError::io(&dir, e))?;
        fsutil::remove_if_exists(&partial).map_err(io)?;
        tracing::info!(turn, faction = %joined.faction, "faction joined");
        Ok((joined, request.password))
    }

    /// Writes the mail index of complete turn `turn` again, from `state` and `rules`
    /// as they are on disk.
    pub(super) fn write_index<S: GameSystem>(
        &self,
        turn: u32,
        rules: &S::Rules,
        state: &S::State,
    ) -> Result<(), bin::Error> {
        let dir = self.turn_dir(turn);
        // Made from a state read from disk: the index does not vouch for it.
        let meta = index_meta::<S>(&self.root, turn, &dir, false)?;
        let bytes = index::encode(&meta, index_records::<S>(rules, state)?)?;
        index::write(&dir.join(index::FILE), &bytes).map_err(|e| bin::Error(e.to_string()))
    }

    /// Faction `id` (any case) in the state of turn `turn` (its id as the game
    /// writes it, its name, password hash and address), read from the turn's mail
    /// index when it can be used.
    pub fn faction<S: GameSystem>(&self, turn: u32, id: &str) -> Result<Option<index::FactionRecord>, GameError> {
        Ok(self.factions::<S>(turn, &[id])?.pop().flatten())
    }

    /// [`GameDir::faction`] of each of `ids`, in order, the index opened once.
    pub fn factions<S: GameSystem>(
        &self,
        turn: u32,
        ids: &[&str],
    ) -> Result<Vec<Option<index::FactionRecord>>, GameError> {
        let _hold = lock::take(&self.root, lock::Hold::Read)?;
        let mut src = mail::Source::<S>::open(self, turn, false)?;
        ids.iter().map(|id| src.faction(id)).collect()
    }

    /// The newspaper published with `turn`.
    pub fn newspaper_path(&self, turn: u32) -> PathBuf {
        self.turn_dir(turn).join("newspaper.txt")
    }
}

/// A password of 10 letters and digits from the operating system's randomness.
fn new_password() -> std::io::Result<String> {
    use std::io::Read;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut bytes = [0u8; 10];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes.iter().map(|b| ALPHABET[(*b as usize) % ALPHABET.len()] as char).collect())
}

/// How far the reports' threads may run ahead of the writer: at most this many
/// factions, and no more once their reports' sizes ([`ReportWriter::size`]) reach
/// [`REPORT_SIZE`] (a faction bigger than that is made alone).
const REPORT_AHEAD: usize = 1024;
const REPORT_SIZE: usize = 15_000;
/// Report bytes handed to the writer at a time.
const REPORT_BYTES: usize = 4 << 20;

/// The reports of `factions`, made on `threads` threads and given to `sink` a
/// faction at a time, in order.
fn stream_reports<R: ReportWriter + Sync>(
    reports: &R,
    factions: &[usize],
    threads: usize,
    sink: &mut fsutil::Sink<'_>,
) -> std::io::Result<()> {
    let window = parallel::Window { items: REPORT_AHEAD, budget: REPORT_SIZE, weight: |&i: &usize| reports.size(i) };
    // The writer is handed a few megabytes at a time, not a message per faction.
    let (mut files, mut bytes) = (Vec::new(), 0);
    parallel::stream_ordered(
        factions,
        threads,
        window,
        |&i| reports.one(i),
        |made| -> std::io::Result<()> {
            bytes += made.iter().map(|(_, b)| b.len()).sum::<usize>();
            files.extend(made);
            if bytes >= REPORT_BYTES {
                bytes = 0;
                sink.write(std::mem::take(&mut files))?;
            }
            Ok(())
        },
    )?;
    if files.is_empty() { Ok(()) } else { sink.write(files) }
}

/// Writes the mail index of the state just made: once the state's files are in
/// the folder (the index names them as they lie), its records not yet given, then
/// its meta and tables. Records that could not be made leave the turn without an
/// index (a warning); only a failure to write fails.
fn write_index<S: GameSystem>(
    sink: &mut fsutil::Sink<'_>,
    root: &Path,
    turn: u32,
    partial: &Path,
    records: Result<index::Records<'static>, bin::Error>,
) -> std::io::Result<()> {
    sink.settle()?;
    let meta = records.and_then(|r| Ok((index_meta::<S>(root, turn, partial, true)?, r)));
    // Not waiting only leaves an index that vouches for nothing.
    if let Ok((meta, _)) = &meta
        && let Err(e) = meta.wait_to_vouch(partial)
    {
        tracing::debug!("the mail index of turn {turn} may not vouch for its state: {e}");
    }
    let mut failed = None;
    let written = meta.and_then(|(meta, r)| {
        r.finish(&meta, |part| {
            sink.append(PathBuf::from(index::FILE), part).map_err(|e| {
                let said = bin::Error(e.to_string());
                failed = Some(e);
                said
            })
        })
    });
    if let Some(e) = failed {
        return Err(e);
    }
    // Only writing fails once a part is given: the index is whole, or absent.
    if let Err(e) = written {
        tracing::warn!("the mail index of turn {turn} was not written: {e}");
    }
    Ok(())
}

/// A file of a turn folder: its path relative to the folder, and its bytes.
pub type TurnFile = FolderFile;

/// Which report file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportKind {
    /// The text report.
    Text,
    /// The JSON report.
    Json,
    /// The order template, at the end of the text report.
    Template,
}

fn diag_error(path: &Path, diags: &[Diagnostic]) -> GameError {
    let errors: Vec<String> = diags.iter().filter(|d| d.is_error()).map(|d| d.to_string()).collect();
    GameError::new(path, format!("{} error(s):\n{}", errors.len(), errors.join("\n")))
}

/// Loads the scenario in `scenario_dir` and the rule set it names (`rules_dir` if
/// given): the rule set, the state and the rule set's folder. Syntax errors of both
/// are reported together.
pub fn load_scenario<S: GameSystem>(
    scenario_dir: &Path,
    rules_dir: Option<&Path>,
) -> Result<(S::Rules, S::State, PathBuf), GameError> {
    let state = S::load_state(scenario_dir);
    let name = crate::core::data::scenario_head(scenario_dir).map(|h| h.ruleset).unwrap_or_default();
    // Even when the scenario is broken, a rule set found without its name (given,
    // or the scenario's own) is loaded, so that its errors are reported too.
    let dir = crate::core::data::find_ruleset_dir(scenario_dir, &name, rules_dir);
    let rules = match &dir {
        Some(d) => S::load_rules(d),
        None if state.is_ok() => Err(vec![Diagnostic::error(
            scenario_dir.join("game.ron"),
            0,
            0,
            format!("rule set '{name}' not found (looked for assets/rules/{name}; give its folder with --rules)"),
        )]),
        None => Err(Vec::new()),
    };
    match (state, rules) {
        (Ok(state), Ok(rules)) => Ok((rules, state, dir.unwrap_or_default())),
        (s, r) => {
            let mut d = r.err().unwrap_or_default();
            d.extend(s.err().unwrap_or_default());
            Err(diag_error(scenario_dir, &d))
        }
    }
}

/// The files of a turn folder, relative to it, built in memory: the state, the
/// `inputs` and every faction's reports (text, JSON, order template), in faction
/// order. Also returns the state. For benchmarks and tests; a game folder writes
/// the same files as it makes them.
pub fn turn_files<S: GameSystem>(
    engine: &Engine<S>,
    inputs: &[TurnFile],
) -> std::io::Result<(Vec<TurnFile>, S::State)> {
    let t = Instant::now();
    let world = engine.world();
    let threads = world.get_resource::<ThreadCount>().map_or(1, |t| t.0).max(1);
    // The state is extracted and written while the reports are made: both only read
    // the world, and each output keeps its own order whatever the threads.
    let reports = || {
        let w = S::reports(world);
        w.files(0..w.factions(), threads)
    };
    let ((state, mut files), rendered) = if threads <= 1 {
        (state_files::<S>(world)?, reports())
    } else {
        std::thread::scope(|s| {
            let job = s.spawn(|| state_files::<S>(world));
            let rendered = reports();
            job.join().unwrap_or_else(|p| std::panic::resume_unwind(p)).map(|state| (state, rendered))
        })?
    };
    files.extend(inputs.iter().cloned());
    files.extend(rendered);
    tracing::debug!(seconds = t.elapsed().as_secs_f64(), "state and reports made");
    Ok((files, state))
}

/// What the index of turn `turn`, whose folder is (or is being written as)
/// `turn_dir`, is made from: the game's rule set and the turn's state as they
/// stand, and whether the engine wrote that state from its world
/// ([`index::Meta::from_world`]).
fn index_meta<S: GameSystem>(
    root: &Path,
    turn: u32,
    turn_dir: &Path,
    from_world: bool,
) -> Result<index::Meta, bin::Error> {
    index::Meta::now(S::NAME, turn, &root.join("rules"), turn_dir)
        .map(|m| if from_world { m.from_world() } else { m })
        .map_err(|e| bin::Error(format!("the files of turn {turn} cannot be listed: {e}")))
}

/// What the files made after the state of a turn see of it: its game, its
/// factions, its units' count, and the state itself when it was made whole.
pub struct Made<S: GameSystem> {
    /// The game, as the mail index holds it.
    pub game: index::GameRecord,
    /// The factions, in report order, as the mail index holds them.
    pub factions: Vec<index::FactionRecord>,
    /// How many units the state has.
    pub units: usize,
    whole: Option<S::State>,
}

impl<S: GameSystem> Made<S> {
    /// The whole state, when it was made whole.
    pub fn state(&self) -> Option<&S::State> {
        self.whole.as_ref()
    }
    /// The game as the newspaper names it.
    fn game(&self) -> crate::core::system::GameEntry<'_> {
        crate::core::system::GameEntry { name: &self.game.name, title: &self.game.title, turn: self.game.turn }
    }
}

/// What a system that writes its state a part at a time
/// ([`GameSystem::write_state`]) says it wrote.
#[derive(Debug, Clone)]
pub struct StateSummary {
    /// The game.
    pub game: index::GameRecord,
    /// The factions, in report order, passwords hashed.
    pub factions: Vec<index::FactionRecord>,
    /// How many units the state has.
    pub units: usize,
}

/// Where a system writes a turn's state a part at a time
/// ([`GameSystem::write_state`]): its files, whole or in parts, and the mail
/// index's records.
pub struct StateOut<'s, 'scope, R> {
    sink: &'s mut fsutil::Sink<'scope>,
    /// The rule set as the index keeps it.
    rules: &'s R,
    records: Option<Result<index::Records<'static>, bin::Error>>,
    /// The time spent making the records, for the log.
    records_time: Duration,
}

/// Writes parts of state files beside a [`StateOut`] ([`StateOut::parts_beside`]).
pub struct StateParts<'scope> {
    sink: fsutil::Sink<'scope>,
}

impl StateParts<'_> {
    /// Writes the next part of the state file `name`, as [`StateOut::part`].
    pub fn part(&mut self, name: &str, bytes: Vec<u8>) -> std::io::Result<()> {
        self.sink.append(Path::new("state").join(name), bytes)
    }
}

impl<'scope, R: serde::Serialize> StateOut<'_, 'scope, R> {
    /// Writes the state file `name` whole.
    pub fn file(&mut self, name: &str, bytes: Vec<u8>) -> std::io::Result<()> {
        self.sink.write(vec![(Path::new("state").join(name), bytes)])
    }
    /// Writes the next part of the state file `name`, after its earlier parts
    /// (other files, the mail index's records, may be written between them).
    pub fn part(&mut self, name: &str, bytes: Vec<u8>) -> std::io::Result<()> {
        self.sink.append(Path::new("state").join(name), bytes)
    }
    /// A second writer of state files' parts, for another thread, when the turn
    /// is written on a thread of its own (else `None`: write the parts here). A
    /// file is written by one writer only, so its parts keep their order.
    pub fn parts_beside(&self) -> Option<StateParts<'scope>> {
        self.sink.share().map(|sink| StateParts { sink })
    }

    /// Starts the mail index's records: the game, the rule set and the factions;
    /// the system's own follow ([`StateOut::with_records`]). Records are written
    /// into the index file as they are made; what finds them is written with the
    /// turn. Fails only where writing fails: records that cannot be made leave the
    /// turn without an index (a partial one is found damaged and made again).
    pub fn begin_records(
        &mut self,
        game: index::GameRecord,
        factions: impl IntoIterator<Item = index::FactionRecord>,
    ) -> std::io::Result<()> {
        self.records = Some(Ok(index::Records::default()));
        let rules = self.rules;
        self.put_records(|r| index::put_records(r, game, rules, factions, |_| Ok(()))).map(drop)
    }

    /// Adds the system's records with `put` (as [`GameSystem::mail_records`]
    /// makes them), between the state's parts if it likes: what the records are
    /// made from can then be what a part of the state was written from. Gives
    /// what `put` gave; `None` when the records failed, by `put` or before (the
    /// turn then has no index, and `put` is not called). Fails only where
    /// writing fails.
    pub fn with_records<T>(
        &mut self,
        put: impl FnOnce(&mut index::SystemRecords) -> Result<T, bin::Error>,
    ) -> std::io::Result<Option<T>> {
        self.put_records(|r| put(&mut index::SystemRecords::new(r)))
    }

    fn put_records<T>(
        &mut self,
        put: impl FnOnce(&mut index::Records<'_>) -> Result<T, bin::Error>,
    ) -> std::io::Result<Option<T>> {
        let t = Instant::now();
        // Records that failed keep their first error (the turn's log names it).
        let r = match self.records.take() {
            Some(Ok(r)) => r,
            failed => {
                self.records = Some(failed.unwrap_or_else(|| Err(bin::Error("no index records were begun".into()))));
                return Ok(None);
            }
        };
        let mut failed = None;
        let sink = &mut *self.sink;
        let mut drain = |part: Vec<u8>| {
            sink.append(PathBuf::from(index::FILE), part).map_err(|e| {
                let said = bin::Error(e.to_string());
                failed = Some(e);
                said
            })
        };
        let mut r = r.drained(&mut drain);
        let made = put(&mut r);
        let r = r.undrained();
        if let Some(e) = failed {
            return Err(e);
        }
        self.records_time += t.elapsed();
        Ok(match made {
            Ok(x) => {
                self.records = Some(Ok(r));
                Some(x)
            }
            Err(e) => {
                self.records = Some(Err(e));
                None
            }
        })
    }
}

/// Runs `write` with a [`StateOut`] that writes into the folder `dir`, at once
/// or, `piped`, on a writing thread as a turn does with threads to spare
/// (where [`StateOut::parts_beside`] gives a second writer), keeping `rules` in
/// the records it makes: how a system's way of writing its state a part at a
/// time is compared with the state written whole. Gives what `write` gave, and
/// the records.
pub fn with_state_out<R: serde::Serialize, T>(
    dir: &Path,
    rules: &R,
    piped: bool,
    write: impl FnOnce(&mut StateOut<'_, '_, R>) -> std::io::Result<T>,
) -> std::io::Result<(T, Option<Result<index::Records<'static>, bin::Error>>)> {
    std::thread::scope(|s| {
        let mut sink = fsutil::Sink::new(fsutil::TreeWriter::new(dir)?, piped, s);
        let mut out = StateOut { sink: &mut sink, rules, records: None, records_time: Duration::ZERO };
        let made = write(&mut out)?;
        let records = out.records.take();
        sink.close()?.finish()?;
        Ok((made, records))
    })
}

/// The state of `world` written into `sink` (every state file, `rules.path`
/// last), and the mail index's records made: a part at a time when the system
/// can and the state is not wanted `whole`, else extracted whole.
fn make_state<S: GameSystem>(
    world: &bevy_ecs::world::World,
    rules: &S::Rules,
    whole: bool,
    sink: &mut fsutil::Sink<'_>,
) -> std::io::Result<(Made<S>, Result<index::Records<'static>, bin::Error>)> {
    let t = Instant::now();
    let kept = S::mail_rules(rules);
    let kept = kept.as_ref().unwrap_or(rules);
    if !whole {
        let mut out = StateOut { sink: &mut *sink, rules: kept, records: None, records_time: Duration::ZERO };
        if let Some(summary) = S::write_state(world, &mut out) {
            let summary = summary?;
            tracing::debug!(seconds = out.records_time.as_secs_f64(), "mail index made");
            let records = out.records.unwrap_or_else(|| Err(bin::Error("the system made no index records".into())));
            sink.write(vec![rules_path()])?;
            tracing::debug!(
                seconds = t.elapsed().as_secs_f64(),
                peak_mb = crate::core::alloc::peak_mb(),
                "state made in parts"
            );
            let StateSummary { game, factions, units } = summary;
            return Ok((Made { game, factions, units, whole: None }, records));
        }
    }
    let (state, files) = state_files::<S>(world)?;
    sink.write(files)?;
    let records = index_records::<S>(rules, &state);
    let g = S::game(&state);
    let game = index::GameRecord { name: g.name.into(), title: g.title.into(), turn: g.turn };
    let factions = S::factions(&state).into_iter().map(index::FactionRecord::from).collect();
    Ok((Made { game, factions, units: S::units(&state), whole: Some(state) }, records))
}

/// The mail index's records of a state (see [`index`]).
fn index_records<S: GameSystem>(rules: &S::Rules, state: &S::State) -> Result<index::Records<'static>, bin::Error> {
    let g = S::game(state);
    let game = index::GameRecord { name: g.name.into(), title: g.title.into(), turn: g.turn };
    let factions = S::factions(state).into_iter().map(index::FactionRecord::from);
    let kept = S::mail_rules(rules);
    let t = Instant::now();
    let records = index::records(game, kept.as_ref().unwrap_or(rules), factions, |out| S::mail_records(state, out));
    tracing::debug!(seconds = t.elapsed().as_secs_f64(), peak_mb = crate::core::alloc::peak_mb(), "mail index made");
    records
}

/// The state folder's files of the world as it stands, and the state itself.
fn state_files<S: GameSystem>(world: &bevy_ecs::world::World) -> std::io::Result<(S::State, Vec<TurnFile>)> {
    let t = Instant::now();
    let mut state = S::extract(world);
    tracing::debug!(seconds = t.elapsed().as_secs_f64(), peak_mb = crate::core::alloc::peak_mb(), "state extracted");
    // Passwords are written hashed, whatever the world held (a scenario's in clear,
    // one a player changed this turn).
    let (game, turn) = (S::game(&state).name.to_string(), S::game(&state).turn);
    crate::core::secret::seal(S::passwords_mut(&mut state), &game, turn);
    let mut files: Vec<TurnFile> =
        S::state_files(&state)?.into_iter().map(|(name, bytes)| (Path::new("state").join(name), bytes)).collect();
    files.push(rules_path());
    tracing::debug!(seconds = t.elapsed().as_secs_f64(), peak_mb = crate::core::alloc::peak_mb(), "state files made");
    Ok((state, files))
}

/// The state folder's `rules.path`: where the game's rule set lies.
fn rules_path() -> TurnFile {
    (Path::new("state").join("rules.path"), b"../../../rules\n".to_vec())
}

#[cfg(test)]
mod tests {
    /// Records made between a state's parts: what the system puts is written;
    /// once a record fails, the records keep that first error (the turn then has
    /// no index, and its log says why), later puts are not called, and the state's
    /// parts are still written whole.
    #[test]
    fn records_that_fail_keep_their_first_error_and_the_state_is_still_written() {
        use super::{bin, index, with_state_out};
        let t = tempfile::tempdir().unwrap();
        let game = index::GameRecord { name: "g".into(), title: "G".into(), turn: 1 };
        let ((), records) = with_state_out(t.path(), &(), false, |out| {
            assert_eq!(out.with_records(|_| Ok(1)).unwrap(), None, "nothing before the records begin");
            out.begin_records(game, Vec::new())?;
            assert_eq!(out.with_records(|sys| sys.put("a", &1u8).map(|()| 2)).unwrap(), Some(2));
            out.part("units.ron", b"[\n".to_vec())?;
            let fail = out.with_records(|_| Err::<(), _>(bin::Error("the first failure".into())));
            assert_eq!(fail.unwrap(), None);
            let called = out.with_records(|_| -> Result<(), bin::Error> { panic!("called after a failure") });
            assert_eq!(called.unwrap(), None);
            out.part("units.ron", b"]\n".to_vec())
        })
        .unwrap();
        assert_eq!(records.unwrap().unwrap_err().0, "the first failure");
        assert_eq!(std::fs::read_to_string(t.path().join("state/units.ron")).unwrap(), "[\n]\n");
    }

    #[test]
    fn opening_a_game_puts_back_a_turn_a_join_left_aside() {
        // Where folders cannot be exchanged in one step, a join moves the turn aside
        // to `.NNNN.old` first; killed there, the next open puts it back.
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        std::fs::create_dir_all(root.join("rules")).unwrap();
        std::fs::write(root.join("rules/ruleset.ron"), "()").unwrap();
        std::fs::create_dir_all(root.join("turns/.0003.old/state")).unwrap();
        std::fs::write(root.join("turns/.0003.old/state/game.ron"), "x").unwrap();
        std::fs::create_dir_all(root.join("turns/0002")).unwrap();
        let g = super::GameDir::open(root).unwrap();
        assert_eq!(std::fs::read_to_string(g.turn_dir(3).join("state/game.ron")).unwrap(), "x");
        assert!(!root.join("turns/.0003.old").exists());
        assert_eq!(g.current_turn().unwrap(), 3);
    }
}
