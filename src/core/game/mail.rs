//! Mail: what a game directory does with each section of a mail (RULINGS §1).
//!
//! * `GAME` — an order file. Checked against the current state (FILE-CHECK) and
//!   stored for its turn, replacing an earlier file (FILE-LAST). Orders for a later
//!   turn are stored unchecked; they are checked when the turn before them has run,
//!   and the check is written into that turn's folder (FILE-TURN).
//! * `PRESS` / `RUMOR` — an article for the newspaper of the next turn (PRS-PRESS,
//!   PRS-RUMOR, PRS-MULTI), stored as `orders/<turn>/press/<faction>-<nn>-<kind>.txt`.
//!   The turn publishes them in `turns/<turn>/newspaper.txt` and pays the rewards
//!   (PRS-REWARD). A game master cancels an article, and its reward, by deleting its
//!   file before the turn runs.
//! * `REPORT` — a stored text report, sent back (RPC-REPORT). The faction is told
//!   in its next report.
//!
//! Each section is authenticated on its own: a wrong faction or password refuses that
//! section and stores nothing of it. A faction without a password takes no mail.

use super::index::{self, Damage, FactionRecord, GameRecord, Index, Meta};
use super::{GameDir, GameError, ReportKind};
use crate::core::data::write_atomic;
use crate::core::orders::check::Check;
use crate::core::orders::mail::{Article, ArticleKind, HeaderTarget, ReportRequest, section_keyword};
use crate::core::system::{FactionEntry, GameEntry, GameSystem};
use std::path::{Path, PathBuf};

/// An order file taken in.
#[derive(Debug, Clone)]
pub struct Receipt {
    /// Line of the `GAME` line.
    pub line: usize,
    /// The faction id.
    pub faction: String,
    /// The turn the orders are for.
    pub turn: u32,
    /// Where they were (or would be) stored.
    pub path: PathBuf,
    /// Number of blocks of orders (`UNIT` blocks, order lines: the rule
    /// system's [`BLOCK`](crate::core::system::GameSystem::BLOCK)).
    pub blocks: usize,
    /// What a block is, for messages.
    pub block: &'static str,
    /// The check against the current state; `None` for orders for a later turn,
    /// which are checked when the turn before them has run.
    pub check: Option<Check>,
    /// Whether an earlier submission for that turn was (or would be) replaced.
    pub replaced: bool,
}

/// What became of one section of a mail.
#[derive(Debug, Clone)]
pub enum Answer {
    /// Orders, stored (or only checked).
    Orders(Receipt),
    /// An article, stored for the newspaper of `turn`.
    Article {
        /// Line of the `PRESS`/`RUMOR` line.
        line: usize,
        /// The author.
        faction: String,
        /// Signed or rumour.
        kind: ArticleKind,
        /// The turn whose newspaper will carry it.
        turn: u32,
        /// Where it was (or would be) stored.
        path: PathBuf,
    },
    /// A stored report, sent back.
    Report {
        /// Line of the `REPORT` line.
        line: usize,
        /// The faction.
        faction: String,
        /// The turn of the report.
        turn: u32,
        /// The text report.
        text: String,
    },
    /// A section refused: nothing of it was stored.
    Refused {
        /// Line of the section's first line.
        line: usize,
        /// Why, for the player.
        message: String,
    },
}

/// Whether to store what a mail holds or only check it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Store,
    CheckOnly,
}

/// What a mail's answers say: the lines `submit` and `check` print, and a reply
/// by mail carries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Described {
    /// The lines, in the mail's order: whether the line is an error, and its text.
    pub lines: Vec<(bool, String)>,
    /// The stored reports asked for, in order (sent only when the mail is stored).
    pub reports: Vec<String>,
    /// Whether a section was refused or, for a check, an order has an error.
    pub failed: bool,
}

/// The lines saying what became of each section of a mail; `store` when it was
/// stored, not only checked.
pub fn describe(answers: &[Answer], store: bool) -> Described {
    let mut d = Described::default();
    let mut say = |error: bool, line: String| d.lines.push((error, line));
    for a in answers {
        match a {
            Answer::Orders(r) => {
                let what = format!("line {}: orders of {} for turn {}", r.line, r.faction, r.turn);
                if store {
                    say(
                        false,
                        format!(
                            "{what} stored ({} {}(s)){}",
                            r.blocks,
                            r.block,
                            if r.replaced { "; they replace the earlier submission" } else { "" }
                        ),
                    );
                } else {
                    say(false, what);
                }
                match &r.check {
                    Some(c) => {
                        for p in &c.problems {
                            say(false, p.to_string());
                        }
                        say(false, format!("{}, turn {}: {}", r.faction, r.turn, c.summary()));
                        d.failed |= !store && c.errors() > 0;
                    }
                    None => say(
                        false,
                        format!(
                            "orders for turn {} are checked when turn {} has run",
                            r.turn,
                            r.turn.saturating_sub(1)
                        ),
                    ),
                }
            }
            Answer::Article { line, faction, kind, turn, .. } => {
                let kind = match kind {
                    ArticleKind::Press => "signed article",
                    ArticleKind::Rumor => "rumour",
                };
                let done = if store { "stored" } else { "accepted" };
                say(false, format!("line {line}: {kind} of {faction} {done} for the newspaper of turn {turn}"));
            }
            Answer::Report { line, faction, turn, text } => {
                if store {
                    say(false, format!("line {line}: the report of {faction} for turn {turn} follows"));
                    d.reports.push(text.clone());
                } else {
                    say(false, format!("line {line}: the report of {faction} for turn {turn} would be sent"));
                }
            }
            Answer::Refused { line, message } => {
                say(true, format!("error: line {line}: {message}"));
                d.failed = true;
            }
        }
    }
    d
}

/// The faction `id` (any case), as the game found it, if `password` is its password.
fn authenticate(found: Option<FactionRecord>, id: &str, password: &str) -> Result<FactionRecord, String> {
    let f = found.ok_or_else(|| format!("there is no faction '{id}' in this game"))?;
    if f.password.is_empty() {
        return Err(format!("faction {} takes no mail", f.id));
    }
    if password == crate::core::secret::PLACEHOLDER {
        return Err(format!(
            "write faction {}'s password in place of {} on this line",
            f.id,
            crate::core::secret::PLACEHOLDER
        ));
    }
    if !crate::core::secret::verify(&f.password, password) {
        return Err(format!("wrong password for faction {}", f.id));
    }
    Ok(f)
}

/// What a mail is taken in against: the turn's mail index, or, when the index
/// cannot be used, the whole state (and the index is written again, so that this
/// is said once).
pub(super) struct Source<'g, S: GameSystem> {
    game: &'g GameDir,
    turn: u32,
    /// Whether an index that cannot be used is written again (for the current
    /// turn's mail; a look at an archived turn only reads).
    mend: bool,
    index: Option<Index>,
    rules: Option<S::Rules>,
    state: Option<S::State>,
}

impl<'g, S: GameSystem> Source<'g, S> {
    /// The source of turn `turn`'s state; with `mend`, an index that cannot be
    /// used is written again.
    pub(super) fn open(game: &'g GameDir, turn: u32, mend: bool) -> Result<Self, GameError> {
        let mut src = Source { game, turn, mend, index: None, rules: None, state: None };
        let dir = game.turn_dir(turn);
        let opened = Meta::now(S::NAME, turn, &game.root().join("rules"), &dir)
            .map_err(|e| Damage(format!("the files it was made from cannot be listed: {e}")))
            .and_then(|meta| Index::open(&dir.join(index::FILE), &meta));
        match opened {
            Ok(ix) => src.index = Some(ix),
            Err(d) => src.give_up(d)?,
        }
        Ok(src)
    }

    /// The index cannot be used: the game master is told, the whole state is read
    /// and the index written again.
    fn give_up(&mut self, d: Damage) -> Result<(), GameError> {
        self.index = None;
        if !self.mend {
            tracing::debug!("the mail index of turn {} is not used ({d}): the whole state is read", self.turn);
            return Ok(());
        }
        tracing::warn!(
            "the mail index of turn {} cannot be used ({d}): the whole state is read, and the index written again",
            self.turn
        );
        let state = self.game.state::<S>(self.turn)?;
        let rules = self.game.rules::<S>()?;
        if let Err(e) = self.game.write_index::<S>(self.turn, &rules, &state) {
            tracing::warn!("the mail index of turn {} could not be written: {e}", self.turn);
        }
        self.rules = Some(rules);
        self.state = Some(state);
        Ok(())
    }

    /// `f` of the index, if it can be used; `None` when the state must be read.
    fn indexed<T>(&mut self, f: impl FnOnce(&Index) -> Result<T, Damage>) -> Result<Option<T>, GameError> {
        let Some(ix) = &self.index else { return Ok(None) };
        match f(ix) {
            Ok(v) => Ok(Some(v)),
            Err(d) => self.give_up(d).map(|_| None),
        }
    }

    fn state(&mut self) -> Result<&S::State, GameError> {
        if self.state.is_none() {
            self.state = Some(self.game.state::<S>(self.turn)?);
        }
        Ok(self.state.as_ref().expect("just read"))
    }

    /// The game's rule set.
    pub(super) fn rules(&mut self) -> Result<S::Rules, GameError> {
        if let Some(r) = self.rules.take() {
            return Ok(r);
        }
        let found = self.indexed(|ix| index::get::<S::Rules>(ix, "rules"))?.flatten();
        match found {
            Some(r) => Ok(r),
            None => self.game.rules::<S>(),
        }
    }

    /// The game's name, title and turn.
    pub(super) fn game(&mut self) -> Result<GameRecord, GameError> {
        if let Some(Some(g)) = self.indexed(|ix| index::get::<GameRecord>(ix, "game"))? {
            return Ok(g);
        }
        let g = S::game(self.state()?);
        Ok(GameRecord { name: g.name.into(), title: g.title.into(), turn: g.turn })
    }

    /// Faction `id` (any case), if the game has it.
    pub(super) fn faction(&mut self, id: &str) -> Result<Option<FactionRecord>, GameError> {
        if let Some(f) = self.indexed(|ix| index::get::<FactionRecord>(ix, &index::faction_key(id)))? {
            return Ok(f);
        }
        let found = S::factions(self.state()?).into_iter().find(|f| f.id.eq_ignore_ascii_case(id));
        Ok(found.map(FactionRecord::from))
    }

    /// The check of `file` of faction `faction`.
    fn check(&mut self, words: &S::Words, faction: &str, file: &S::Orders) -> Result<Check, GameError> {
        if let Some(Some(st)) = self.indexed(|ix| S::mail_state(&index::SystemLookup::new(ix), faction, file))? {
            return Ok(S::check(words, &st, faction, file));
        }
        Ok(S::check(words, self.state()?, faction, file))
    }
}

impl GameDir {
    /// Reads a mail and stores (or, with [`Mode::CheckOnly`], only checks) each of
    /// its sections. Fails when the mail cannot be read at all, or on I/O errors.
    pub(super) fn take_mail<S: GameSystem>(&self, text: &str, mode: Mode) -> Result<Vec<Answer>, GameError> {
        let started = std::time::Instant::now();
        let _hold = super::lock::take(self.root(), super::lock::Hold::Read)?;
        let current = self.current_turn()?;
        let mut src = Source::<S>::open(self, current, true)?;
        tracing::debug!(seconds = started.elapsed().as_secs_f64(), index = src.index.is_some(), "source open");
        let rules = src.rules()?;
        tracing::debug!(seconds = started.elapsed().as_secs_f64(), "rules read");
        let words = S::words(&std::sync::Arc::new(rules));
        tracing::debug!(seconds = started.elapsed().as_secs_f64(), "words made");
        let mail = S::read_mail(&words, text).map_err(|e| GameError::new("orders", e.to_string()))?;
        tracing::debug!(seconds = started.elapsed().as_secs_f64(), "mail read");
        let game = src.game()?;
        let mut answers = Vec::new();
        for file in &mail.orders {
            let h = S::header(file);
            let refuse = |m: String| Answer::Refused { line: h.line, message: format!("{m}; nothing was stored") };
            let found = src.faction(&h.faction)?;
            let turn = match &h.target {
                HeaderTarget::Next => Ok(current + 1),
                HeaderTarget::Turn(n) if *n <= current => {
                    Err(format!("turn {n} has already been run (the next turn is {})", current + 1))
                }
                HeaderTarget::Turn(n) => Ok(*n),
                HeaderTarget::Game(name) if !name.eq_ignore_ascii_case(&game.name) => {
                    Err(format!("these orders are for game '{name}', but this game is '{}'", game.name))
                }
                HeaderTarget::Game(_) => Ok(current + 1),
            };
            // The password is verified (a deliberately slow hash) while the orders
            // are checked; the check is used only if the password is right.
            let checked = found.as_ref().filter(|_| turn == Ok(current + 1)).map(|f| f.id.clone());
            let (auth, check) = std::thread::scope(|scope| {
                let auth = scope.spawn(|| authenticate(found, &h.faction, &h.password));
                let check = checked.map(|id| src.check(&words, &id, file)).transpose();
                (auth.join().unwrap_or_else(|p| std::panic::resume_unwind(p)), check)
            });
            tracing::debug!(seconds = started.elapsed().as_secs_f64(), "password verified and orders checked");
            let (faction, turn) = match (auth, turn) {
                (Ok(f), Ok(t)) => (f, t),
                (Err(m), _) | (_, Err(m)) => {
                    answers.push(refuse(m));
                    continue;
                }
            };
            let check = check?;
            answers.push(self.store_orders(
                text,
                h.line,
                &faction.id,
                turn,
                (S::blocks(file), S::BLOCK),
                check,
                mode,
            )?);
        }
        let mut numbered = 0;
        for a in &mail.articles {
            let found = src.faction(&a.faction)?;
            answers.push(self.take_article(a, found, &game, current, mode, &mut numbered)?);
        }
        for r in &mail.reports {
            let found = src.faction(&r.faction)?;
            answers.push(self.take_report_request(r, found, current, mode)?);
        }
        answers.sort_by_key(|a| match a {
            Answer::Orders(r) => r.line,
            Answer::Article { line, .. } | Answer::Report { line, .. } | Answer::Refused { line, .. } => *line,
        });
        tracing::debug!(seconds = started.elapsed().as_secs_f64(), "mail taken in");
        Ok(answers)
    }

    /// Stores (or only checks) the order file of `faction` for `turn`, the section of
    /// `text` that starts at line `line`.
    #[allow(clippy::too_many_arguments)]
    fn store_orders(
        &self,
        text: &str,
        line: usize,
        faction: &str,
        turn: u32,
        (blocks, block): (usize, &'static str),
        check: Option<Check>,
        mode: Mode,
    ) -> Result<Answer, GameError> {
        let path = self.pending_dir(turn).join(format!("{faction}.txt"));
        let replaced = path.is_file();
        if mode == Mode::Store {
            // The section is stored with the mail's line numbers, which the turn's
            // notes will quote.
            let section = redact_lines(&section_text(text, line), &[line]);
            write_atomic(&path, section.as_bytes()).map_err(|e| GameError::io(&path, e))?;
        }
        Ok(Answer::Orders(Receipt { line, faction: faction.to_string(), turn, path, blocks, block, check, replaced }))
    }

    fn take_article(
        &self,
        a: &Article,
        found: Option<FactionRecord>,
        game: &GameRecord,
        current: u32,
        mode: Mode,
        numbered: &mut u32,
    ) -> Result<Answer, GameError> {
        let refuse = |m: String| Ok(Answer::Refused { line: a.line, message: format!("{m}; nothing was stored") });
        let faction = match authenticate(found, &a.faction, &a.password) {
            Ok(f) => f,
            Err(m) => return refuse(m),
        };
        if let Some(g) = &a.game
            && !g.eq_ignore_ascii_case(&game.name)
        {
            return refuse(format!("this article is for game '{g}', but this game is '{}'", game.name));
        }
        if a.text.trim().is_empty() {
            return refuse("the article is empty".into());
        }
        let turn = current + 1;
        let dir = self.pending_dir(turn).join("press");
        let kind_word = match a.kind {
            ArticleKind::Press => "press",
            ArticleKind::Rumor => "rumor",
        };
        let mut body = a.text.clone();
        body.push('\n');
        // This faction's articles of the turn (ids have no '-'). The same article
        // sent again (the same mail submitted twice) is the one already stored.
        let mut mine: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| {
                d.flatten()
                    .map(|e| e.path())
                    .filter(|p| {
                        p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(&format!("{}-", faction.id)))
                    })
                    .collect()
            })
            .unwrap_or_default();
        mine.sort();
        let suffix = format!("-{kind_word}.txt");
        if let Some(same) = mine
            .iter()
            .find(|p| p.to_string_lossy().ends_with(&suffix) && std::fs::read(p).is_ok_and(|b| b == body.as_bytes()))
        {
            return Ok(Answer::Article {
                line: a.line,
                faction: faction.id.to_string(),
                kind: a.kind,
                turn,
                path: same.clone(),
            });
        }
        // The next free number for this faction's articles of the turn.
        let n = mine.len() as u32 + 1 + *numbered;
        if mode == Mode::CheckOnly {
            *numbered += 1;
        }
        let path = dir.join(format!("{}-{n:02}-{kind_word}.txt", faction.id));
        if mode == Mode::Store {
            write_atomic(&path, body.as_bytes()).map_err(|e| GameError::io(&path, e))?;
        }
        Ok(Answer::Article { line: a.line, faction: faction.id.to_string(), kind: a.kind, turn, path })
    }

    fn take_report_request(
        &self,
        r: &ReportRequest,
        found: Option<FactionRecord>,
        current: u32,
        mode: Mode,
    ) -> Result<Answer, GameError> {
        let refuse = |m: String| Ok(Answer::Refused { line: r.line, message: m });
        let faction = match authenticate(found, &r.faction, &r.password) {
            Ok(f) => f,
            Err(m) => return refuse(m),
        };
        let turn = r.turn.unwrap_or(current);
        if turn > current {
            return refuse(format!("turn {turn} has not been run yet (the last turn is {current})"));
        }
        let path = self.report_path(turn, &faction.id, ReportKind::Text);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(_) => return refuse(format!("there is no report of faction {} for turn {turn}", faction.id)),
        };
        if mode == Mode::Store {
            let notice = self.pending_dir(current + 1).join("notices").join(format!("{}.txt", faction.id));
            let mut lines = std::fs::read_to_string(&notice).unwrap_or_default();
            lines.push_str(&format!("Your report for turn {turn} was sent again on request.\n"));
            write_atomic(&notice, lines.as_bytes()).map_err(|e| GameError::io(&notice, e))?;
        }
        Ok(Answer::Report { line: r.line, faction: faction.id.to_string(), turn, text })
    }

    /// The articles and notices waiting for `turn`: the engine's inbox, the files to
    /// archive with the turn (relative to its folder) and the newspaper's articles.
    pub(super) fn pending_mail(&self, turn: u32) -> Result<PendingMail, GameError> {
        let mut out = PendingMail::default();
        let dir = self.pending_dir(turn);
        for (name, text) in read_txt_files(&dir.join("press"))? {
            let Some((faction, kind)) = article_name(&name) else { continue };
            out.inbox.articles.push((faction.to_string(), kind));
            out.articles.push((faction.to_string(), kind, text.clone()));
            out.files.push((Path::new("press").join(&name), text.into_bytes()));
        }
        for (name, text) in read_txt_files(&dir.join("notices"))? {
            let faction = name.trim_end_matches(".txt").to_string();
            for l in text.lines().filter(|l| !l.trim().is_empty()) {
                out.inbox.notices.push((faction.clone(), l.to_string()));
            }
            out.files.push((Path::new("notices").join(&name), text.into_bytes()));
        }
        Ok(out)
    }
}

/// Mail other than orders waiting for a turn.
#[derive(Debug, Default)]
pub(super) struct PendingMail {
    /// For the engine.
    pub inbox: crate::core::engine::Inbox,
    /// Articles: author, kind, text; in file-name order.
    pub articles: Vec<(String, ArticleKind, String)>,
    /// Files to archive with the turn.
    pub files: Vec<super::TurnFile>,
}

/// The check of a faction's orders as sent back to the player: a title, one line per
/// problem, a summary.
pub fn check_text(faction: &str, turn: u32, check: &Check) -> String {
    let mut s = format!("Check of the orders of {faction} for turn {turn}\n");
    for p in &check.problems {
        s.push_str(&format!("{p}\n"));
    }
    s.push_str(&check.summary());
    s.push('\n');
    s
}

/// `f01-03-rumor.txt` → (`f01`, rumour).
fn article_name(name: &str) -> Option<(&str, ArticleKind)> {
    let stem = name.strip_suffix(".txt")?;
    let (rest, kind) = stem.rsplit_once('-')?;
    let (faction, _n) = rest.rsplit_once('-')?;
    let kind = match kind {
        "press" => ArticleKind::Press,
        "rumor" => ArticleKind::Rumor,
        _ => return None,
    };
    Some((faction, kind))
}

/// The `.txt` files directly in `dir`, by name, in name order (hidden files skipped).
pub(super) fn read_txt_files(dir: &Path) -> Result<Vec<(String, String)>, GameError> {
    // No folder is no files; a folder that cannot be read (or a file in its place)
    // is an error: taking it for "nothing waiting" would lose what it holds.
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(GameError::io(dir, e)),
    };
    let mut paths = Vec::new();
    for e in entries {
        let p = e.map_err(|e| GameError::io(dir, e))?.path();
        if p.extension().is_some_and(|x| x == "txt")
            && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            if !p.is_file() {
                return Err(GameError::new(&p, "not a file: only files are taken as mail waiting for a turn"));
            }
            paths.push(p);
        }
    }
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(&p).map_err(|e| GameError::io(&p, e))?;
        out.push((p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(), text));
    }
    Ok(out)
}

/// What a stored or archived file shows in place of a password.
pub const HIDDEN: &str = "********";

/// `text` with the second word of each of `lines` (1-based: a header's password, a
/// password order's new password) replaced by [`HIDDEN`]; a header's optional turn
/// or game word is kept.
pub fn redact_lines(text: &str, lines: &[usize]) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if !lines.contains(&(i + 1)) {
            out.push_str(l);
            continue;
        }
        let body = l.trim_end_matches(['\n', '\r']);
        let words: Vec<&str> = body.split_whitespace().collect();
        // `GAME faction password [turn|game]` (or `#GAME`, `# GAME`); `PASSWORD new`.
        let at = match words.iter().position(|w| w.trim_start_matches('#').eq_ignore_ascii_case("GAME")) {
            Some(g) => g + 2,
            None => 1,
        };
        let redacted: Vec<&str> = words.iter().enumerate().map(|(k, w)| if k == at { HIDDEN } else { *w }).collect();
        out.push_str(&redacted.join(" "));
        out.push_str(&l[body.len()..]);
    }
    out
}

/// The section of `text` that starts at line `from` (1-based), up to its `END` or the
/// next section. The lines before it are left blank, so that line numbers stay those
/// of the mail.
fn section_text(text: &str, from: usize) -> String {
    let mut out = "\n".repeat(from - 1);
    for (i, raw) in text.lines().enumerate().skip(from - 1) {
        if i + 1 > from && section_keyword(raw).is_some_and(|k| k != "END") {
            break;
        }
        out.push_str(raw);
        out.push('\n');
        if section_keyword(raw) == Some("END") {
            break;
        }
    }
    out
}

/// The articles of a newspaper, read before the turn runs (the state it runs on is
/// the engine's then): its title, and its signed articles and rumours in text.
pub(super) struct Articles {
    title: String,
    text: String,
}

/// The articles for a newspaper: signed articles by author, then rumours in an order
/// that says nothing of who wrote them (by their text).
pub(super) fn articles(
    game: GameEntry,
    factions: &[FactionEntry],
    articles: &[(String, ArticleKind, String)],
) -> Articles {
    let title = if game.title.is_empty() { game.name } else { game.title }.to_string();
    let signed: Vec<&(String, ArticleKind, String)> = articles.iter().filter(|a| a.1 == ArticleKind::Press).collect();
    let mut rumours: Vec<&str> =
        articles.iter().filter(|a| a.1 == ArticleKind::Rumor).map(|a| a.2.trim_end()).collect();
    rumours.sort_unstable();
    let mut s = String::new();
    if !signed.is_empty() {
        s.push_str("Signed articles\n---------------\n\n");
        for (faction, _, text) in signed {
            let name = factions.iter().find(|f| f.id == *faction).map_or("", |f| f.name);
            s.push_str(text.trim_end());
            s.push_str(&format!("\n\n    -- {name} ({faction})\n\n"));
        }
    }
    if !rumours.is_empty() {
        s.push_str("Rumours\n-------\n\n");
        for text in rumours {
            s.push_str(text);
            s.push_str("\n\n");
        }
    }
    Articles { title, text: s }
}

/// The newspaper of `turn`: the month's news as the rule system tells it (battles…),
/// then the articles.
pub(super) fn newspaper(turn: u32, news: &[String], articles: &Articles) -> String {
    let mut s = format!("{}: the newspaper of turn {turn}\n", articles.title);
    s.push_str(&"=".repeat(s.trim_end().chars().count()));
    s.push_str("\n\n");
    if !news.is_empty() {
        s.push_str("News of the month\n-----------------\n\n");
        for n in news {
            s.push_str(n.trim_end());
            s.push('\n');
        }
        s.push('\n');
    }
    if articles.text.is_empty() {
        s.push_str("No articles this turn.\n");
        return s;
    }
    s.push_str(&articles.text);
    s.truncate(s.trim_end().len());
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn article_file_names() {
        assert_eq!(article_name("f01-03-rumor.txt"), Some(("f01", ArticleKind::Rumor)));
        assert_eq!(article_name("my-faction-12-press.txt"), Some(("my-faction", ArticleKind::Press)));
        assert_eq!(article_name("f01.txt"), None);
        assert_eq!(article_name("f01-01-memo.txt"), None);
    }

    #[test]
    fn a_section_runs_to_its_end_or_the_next_section() {
        let mail = "hi\nGAME f01 pw\nUNIT 1\nWORK\nEND\nafter\n#PRESS f01 pw\ntext\n";
        assert_eq!(section_text(mail, 2), "\nGAME f01 pw\nUNIT 1\nWORK\nEND\n");
        let mail = "GAME f01 pw\nUNIT 1\n#RUMOR f01 pw\nx\n";
        assert_eq!(section_text(mail, 1), "GAME f01 pw\nUNIT 1\n");
    }
}
