//! A game's outbox: `outbox/new/` holds the messages waiting to be sent, each a
//! complete RFC 5322 message (`<name>.eml`); `outbox/sent/` those a `sendmail`
//! command took. A message is written once: a name already waiting or sent is not
//! written again.

use crate::core::data::write_atomic;
use crate::core::game::GameError;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The outbox of a game.
#[derive(Debug, Clone)]
pub struct Outbox {
    root: PathBuf,
}

/// What became of one message given to `sendmail`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The message's file name.
    pub name: String,
    /// `Ok` when the command took it (moved to `sent/`); else why not (it stays).
    pub result: Result<(), String>,
}

impl Outbox {
    /// The outbox of the game in `game_root`.
    pub fn of(game_root: &Path) -> Outbox {
        Outbox { root: game_root.join("outbox") }
    }

    fn err(path: &Path, e: impl std::fmt::Display) -> GameError {
        GameError { path: path.to_path_buf(), message: e.to_string() }
    }

    /// Writes message `name` (`name.eml`) unless it is already waiting or sent.
    /// Returns its path and whether it was written now.
    pub fn put(&self, name: &str, bytes: &[u8]) -> Result<(PathBuf, bool), GameError> {
        let file = format!("{name}.eml");
        let waiting = self.root.join("new").join(&file);
        if waiting.exists() {
            return Ok((waiting, false));
        }
        let sent = self.root.join("sent").join(&file);
        if sent.exists() {
            return Ok((sent, false));
        }
        write_atomic(&waiting, bytes).map_err(|e| Self::err(&waiting, e))?;
        Ok((waiting, true))
    }

    /// The messages waiting, by name.
    pub fn waiting(&self) -> Result<Vec<PathBuf>, GameError> {
        let dir = self.root.join("new");
        let mut out = Vec::new();
        match std::fs::read_dir(&dir) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
            Err(e) => return Err(Self::err(&dir, e)),
            Ok(entries) => {
                for e in entries {
                    let p = e.map_err(|e| Self::err(&dir, e))?.path();
                    if p.extension().is_some_and(|x| x == "eml") {
                        out.push(p);
                    }
                }
            }
        }
        out.sort();
        Ok(out)
    }

    /// Whether the report mails of `turn` were written.
    pub fn has_turn(&self, turn: u32) -> bool {
        self.turn_mark(turn).exists()
    }

    /// Marks the report mails of `turn` written.
    pub fn mark_turn(&self, turn: u32) -> Result<(), GameError> {
        let p = self.turn_mark(turn);
        write_atomic(&p, b"").map_err(|e| Self::err(&p, e))
    }

    fn turn_mark(&self, turn: u32) -> PathBuf {
        self.root.join("turns").join(format!("{turn:04}"))
    }

    /// Gives each waiting message to `command` (run by `sh -c`, the message on its
    /// standard input with lines ending LF, as local `sendmail` programs read them;
    /// it must take the recipients from the message, as `sendmail -t` does). A
    /// message the command took (exit status 0) moves to `sent/`; the others stay.
    pub fn send(&self, command: &str) -> Result<Vec<Sent>, GameError> {
        let mut out = Vec::new();
        for path in self.waiting()? {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let result = std::fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|bytes| pipe(command, &lf(&bytes)))
                .and_then(|()| {
                    let to = self.root.join("sent").join(&name);
                    std::fs::create_dir_all(self.root.join("sent"))
                        .and_then(|()| std::fs::rename(&path, &to))
                        .map_err(|e| format!("sent, but not moved to {}: {e}", to.display()))
                });
            out.push(Sent { name, result });
        }
        Ok(out)
    }
}

/// The bytes with CRLF line ends made LF.
fn lf(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        if !(b == b'\r' && bytes.get(i + 1) == Some(&b'\n')) {
            out.push(b);
        }
    }
    out
}

/// Runs `command` with `input` on its standard input.
fn pipe(command: &str, input: &[u8]) -> Result<(), String> {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run sh -c '{command}': {e}"))?;
    let wrote = child.stdin.take().map(|mut s| s.write_all(input));
    let done = child.wait_with_output().map_err(|e| format!("'{command}': {e}"))?;
    if !done.status.success() {
        let why = String::from_utf8_lossy(&done.stderr).trim().to_string();
        return Err(format!(
            "'{command}' failed ({}){}",
            done.status,
            if why.is_empty() { String::new() } else { format!(": {why}") }
        ));
    }
    match wrote {
        Some(Err(e)) => Err(format!("'{command}' did not read the whole message: {e}")),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_written_once_and_sent_once_and_what_failed_stays() {
        let d = tempfile::tempdir().unwrap();
        let o = Outbox::of(d.path());
        assert!(o.waiting().unwrap().is_empty());
        assert!(o.put("a", b"To: a@x\r\n\r\nhello\r\n").unwrap().1);
        assert!(!o.put("a", b"other").unwrap().1, "written once");
        assert!(o.put("b", b"To: b@x\r\n\r\nbye\r\n").unwrap().1);
        let log = d.path().join("log");
        // A command that logs every message and refuses the one that ends in "bye".
        let cmd = format!("cat >> {0}; ! tail -1 {0} | grep -q bye", log.display());
        let sent = o.send(&cmd).unwrap();
        assert_eq!(sent[0], Sent { name: "a.eml".into(), result: Ok(()) });
        assert!(sent[1].result.as_ref().unwrap_err().contains("failed"), "{:?}", sent[1]);
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "To: a@x\n\nhello\nTo: b@x\n\nbye\n", "LF line ends");
        assert!(d.path().join("outbox/sent/a.eml").is_file());
        assert_eq!(o.waiting().unwrap(), vec![d.path().join("outbox/new/b.eml")], "what failed stays");
        assert!(!o.put("a", b"again").unwrap().1, "a message sent is not written again");
        let sent = o.send("cat > /dev/null").unwrap();
        assert_eq!(sent.len(), 1);
        assert!(o.waiting().unwrap().is_empty());
        assert!(!o.has_turn(3));
        o.mark_turn(3).unwrap();
        assert!(o.has_turn(3));
    }
}
