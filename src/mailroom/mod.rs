//! The game's mail room: orders in from a mailbox, answers and reports out.
//!
//! * [`mail_in`] (`overlord mail-in <game> <maildir>`) takes in each new message of
//!   a Maildir as `submit` takes in a file: the orders, articles and report
//!   requests of its body and of its text attachments. It writes one answer per
//!   message into the game's outbox, moves the message to the Maildir's `cur/`, and
//!   sets aside (never loses) what holds no section or must not be answered.
//! * [`mail_out`] (`overlord mail-out <game>`) writes each faction's report mail of
//!   the latest turn into the outbox, once per turn, and with a `sendmail` command
//!   sends what waits there.
//!
//! The game's `mail.ron` says who the mail comes from ([`Settings`]). The outbox is
//! `outbox/new/` (complete RFC 5322 messages waiting to be sent) and `outbox/sent/`.
//! Messages set aside go to `mail/set-aside/`, each with a note saying why.
//! Running either command twice does nothing twice: an answer's and a report's file
//! names come from the message and the turn. The choices are in `docs/mail.md`.

mod compose;
pub mod inbound;
mod maildir;
mod outbound;
pub mod outbox;
pub mod text;

pub use inbound::{Inbound, mail_in};
pub use outbound::{Outbound, mail_out};

use crate::core::data::read_ron;
use crate::core::game::GameError;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The settings file of a game's mail, in the game's folder.
pub const SETTINGS: &str = "mail.ron";

/// `mail.ron`: who the game's mail comes from.
///
/// ```ron
/// (name: "Overlord alpha", address: "gm@example.org")
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The sender's name, and how subjects begin (`Overlord alpha: turn 3 report`).
    pub name: String,
    /// The game's address: answers and reports come from it; players write to it.
    pub address: String,
}

impl Settings {
    /// The settings of the game in `root`, checked: errors name the file and line.
    pub fn of(root: &Path) -> Result<Settings, GameError> {
        let path = root.join(SETTINGS);
        let mut diags = Vec::new();
        let Some(s) = read_ron::<Settings>(&path, true, &mut diags) else {
            let why = diags.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
            return Err(GameError {
                path,
                message: format!(
                    "{why}\nthe game's mail needs {SETTINGS}: (name: \"Game name\", address: \"gm@example.org\")"
                ),
            });
        };
        let bad = |m: String| Err(GameError { path: path.clone(), message: m });
        if s.name.trim().is_empty() || s.name.chars().any(char::is_control) {
            return bad(format!("name: '{}' is not a name for a sender (empty, or control characters)", s.name));
        }
        let ok = s.address.split('@').count() == 2
            && s.address.split('@').all(|p| !p.is_empty())
            && !s.address.chars().any(|c| c.is_whitespace() || c.is_control() || "<>()[],;:\"\\".contains(c));
        if !ok {
            return bad(format!("address: '{}' is not an email address", s.address));
        }
        Ok(s)
    }

    /// The domain of the game's address, for the ids of the messages it writes.
    fn domain(&self) -> &str {
        self.address.rsplit('@').next().unwrap_or("localhost")
    }
}

/// Where messages that were not taken in are kept, in a game's folder.
fn set_aside_dir(root: &Path) -> PathBuf {
    root.join("mail").join("set-aside")
}

/// The game's folder name, file-safe: it tells apart the ids of the messages of
/// two games that share an address.
fn game_tag(game: &crate::core::game::GameDir) -> String {
    file_safe(&game.root().file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
}

/// `name` with only letters, digits, `.`, `-` and `_`: a file name of its own.
fn file_safe(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_are_checked_with_their_file() {
        let dir = tempfile::tempdir().unwrap();
        let e = Settings::of(dir.path()).unwrap_err();
        assert!(e.to_string().contains("mail.ron") && e.message.contains("address:"), "{e}");
        std::fs::write(dir.path().join(SETTINGS), "(name: \"G\", address: \"not an address\")").unwrap();
        let e = Settings::of(dir.path()).unwrap_err();
        assert!(e.message.contains("is not an email address"), "{e}");
        std::fs::write(dir.path().join(SETTINGS), "(name: \"G\",\n adress: \"gm@x.org\")").unwrap();
        let e = Settings::of(dir.path()).unwrap_err();
        assert!(e.message.contains(":2:"), "the line of the unknown field: {e}");
        std::fs::write(dir.path().join(SETTINGS), "(name: \"Game\", address: \"gm@example.org\")").unwrap();
        let s = Settings::of(dir.path()).unwrap();
        assert_eq!(s.domain(), "example.org");
    }

    #[test]
    fn file_names_keep_only_safe_characters() {
        assert_eq!(file_safe("1700.M1P2.host/x:2,S"), "1700.M1P2.host_x_2_S");
    }
}
