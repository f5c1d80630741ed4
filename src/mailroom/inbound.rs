//! `overlord mail-in`: the new messages of a Maildir, taken in.

use super::compose::{self, Letter};
use super::outbox::Outbox;
use super::text::{self, Read};
use super::{Settings, file_safe, game_tag, maildir, set_aside_dir};
use crate::core::data::write_atomic;
use crate::core::game::{GameDir, GameError, describe};
use crate::core::orders::mail::section_keyword;
use crate::systems::Commands;
use std::path::{Path, PathBuf};

/// What `mail-in` did.
#[derive(Debug, Clone, Default)]
pub struct Inbound {
    /// Each message, oldest first.
    pub messages: Vec<Handled>,
}

/// One message, handled.
#[derive(Debug, Clone)]
pub struct Handled {
    /// Its unique name in the Maildir.
    pub name: String,
    /// Its sender's address (`From`).
    pub from: String,
    /// What became of it.
    pub outcome: Outcome,
}

/// What became of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Taken in: its sections, how many were refused (or had errors), and the
    /// answer in the outbox (`None` when the message gives no address to answer).
    Taken { sections: usize, refused: usize, answer: Option<PathBuf> },
    /// Not taken in: kept in `mail/set-aside/` with a note saying why.
    SetAside { why: String, kept: PathBuf },
}

/// Takes in the new messages of `maildir` for the game `game` of rule system
/// `system`: each answered in the outbox and moved to `cur/`, or set aside. A
/// problem of the game (not of a message) stops at that message, which stays new.
pub fn mail_in(system: &dyn Commands, game: &GameDir, maildir: &Path) -> Result<Inbound, GameError> {
    let settings = Settings::of(game.root())?;
    let outbox = Outbox::of(game.root());
    let mut done = Inbound::default();
    for m in maildir::waiting(maildir)? {
        let raw = match std::fs::read(&m.path) {
            Ok(raw) => raw,
            // Taken meanwhile by another run.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(GameError { path: m.path.clone(), message: e.to_string() }),
        };
        let read = text::read(&raw);
        let outcome = match &read {
            None => set_aside(game, &m.name, &raw, None, "it is not a mail message")?,
            Some(read) => match &read.automatic {
                Some(why) => {
                    let why = format!("{why}: automatic mail is never answered");
                    set_aside(game, &m.name, &raw, Some(read), &why)?
                }
                None => take(system, game, &settings, &outbox, &m.name, &raw, read)?,
            },
        };
        maildir::mark_read(maildir, &m)?;
        let from = read.map(|r| r.from).unwrap_or_default();
        done.messages.push(Handled { name: m.name, from, outcome });
    }
    Ok(done)
}

/// Takes in the sections of each text of a message, and writes the answer.
fn take(
    system: &dyn Commands,
    game: &GameDir,
    settings: &Settings,
    outbox: &Outbox,
    name: &str,
    raw: &[u8],
    read: &Read,
) -> Result<Outcome, GameError> {
    let mut lines = Vec::new();
    let mut reports = Vec::new();
    let (mut sections, mut refused) = (0, 0);
    for t in read.texts.iter().filter(|t| has_section(&t.text)) {
        let answers = match system.take_mail(game, &t.text, true) {
            Ok(a) => a,
            // The mail itself cannot be read (the grammar's error): said in the answer.
            Err(e) if e.path == Path::new("orders") => {
                lines.push(format!("{}: error: {}", t.label, e.message));
                sections += 1;
                refused += 1;
                continue;
            }
            Err(e) => return Err(e),
        };
        let said = describe(&answers, true);
        sections += answers.len();
        refused += said.lines.iter().filter(|(error, _)| *error).count();
        lines.extend(said.lines.into_iter().map(|(_, l)| format!("{}: {l}", t.label)));
        reports.extend(said.reports);
    }
    if sections == 0 {
        let why = "it holds no GAME, PRESS, RUMOR or REPORT section (nor a text attachment with one)";
        return set_aside(game, name, raw, Some(read), why);
    }
    let Some((to_name, to_address)) = &read.reply_to else {
        return Ok(Outcome::Taken { sections, refused, answer: None });
    };
    let mut body = format!("{}: what became of your mail", settings.name);
    if !read.subject.is_empty() {
        body.push_str(&format!(" \"{}\"", read.subject));
    }
    body.push_str("\n\n");
    for l in &lines {
        body.push_str(l);
        body.push('\n');
    }
    for r in &reports {
        body.push('\n');
        body.push_str(r);
    }
    let safe = file_safe(name);
    let game_name = game_tag(game);
    let letter = Letter {
        to: (to_name, to_address),
        subject: compose::re(&read.subject, &format!("{}: your mail", settings.name)),
        id: format!("answer.{safe}.{game_name}"),
        answers: read.message_id.as_deref(),
        auto: "auto-replied",
        body,
        attachments: Vec::new(),
    };
    let (path, _) = outbox.put(&format!("answer-{safe}"), &compose::write(settings, letter))?;
    Ok(Outcome::Taken { sections, refused, answer: Some(path) })
}

/// Whether `text` opens a section (`GAME`, `PRESS`, `RUMOR`, `REPORT`): a text
/// without one ("Orders attached.") is not mail for the game.
fn has_section(text: &str) -> bool {
    text.lines().any(|l| section_keyword(l).is_some_and(|k| k != "END"))
}

/// Keeps a message in `mail/set-aside/` with a note saying why.
fn set_aside(game: &GameDir, name: &str, raw: &[u8], read: Option<&Read>, why: &str) -> Result<Outcome, GameError> {
    let dir = set_aside_dir(game.root());
    let safe = file_safe(name);
    let kept = dir.join(format!("{safe}.eml"));
    let err = |p: &Path, e: std::io::Error| GameError { path: p.to_path_buf(), message: e.to_string() };
    write_atomic(&kept, raw).map_err(|e| err(&kept, e))?;
    let mut note = format!("set aside: {why}\n");
    if let Some(r) = read {
        note.push_str(&format!("from: {}\nsubject: {}\n", r.from, r.subject));
    }
    let note_path = dir.join(format!("{safe}.txt"));
    write_atomic(&note_path, note.as_bytes()).map_err(|e| err(&note_path, e))?;
    Ok(Outcome::SetAside { why: why.to_string(), kept })
}
