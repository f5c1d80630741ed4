//! One command changing a game at a time.
//!
//! A game folder holds a lock file, `<game>/.lock`, that every command touching
//! the game takes through the operating system's advisory file locks (they go
//! when the process ends, however it ends, so a killed run never leaves the game
//! locked):
//!
//! * a turn run and a join ([`Hold::Change`]) hold it alone. Each fails at once,
//!   naming the folder, if another run or join holds it: running two turns at the
//!   same time, or a join while the turn it rewrites is being replaced, would lose
//!   one of them. A mail being taken in is waited for;
//! * taking in or checking a mail ([`Hold::Read`]) holds it together with other
//!   mails, and waits for a run or a join to end: orders that arrive during a run
//!   are stored for the turn after the one being run, never into a folder the run
//!   has already read.

use super::GameError;
use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// The lock file of a game folder.
pub const LOCK_FILE: &str = ".lock";

/// How a command holds the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// Alone: a turn run, a join.
    Change,
    /// With other readers: a mail taken in or checked.
    Read,
}

/// A hold on a game folder, released when dropped.
#[derive(Debug)]
pub struct GameLock {
    _file: File,
}

fn open(root: &Path) -> Result<(File, PathBuf), GameError> {
    let path = root.join(LOCK_FILE);
    // Read-only where the game cannot be written (a checker with read rights
    // only): advisory locks work on any open file.
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .or_else(|_| File::open(&path))
        .map_err(|e| GameError::io(&path, e))?;
    Ok((file, path))
}

/// Takes the game folder `root` as `hold` says (see the module).
pub fn take(root: &Path, hold: Hold) -> Result<GameLock, GameError> {
    let (file, path) = open(root)?;
    match hold {
        Hold::Read => match file.try_lock_shared() {
            Ok(()) => {}
            Err(TryLockError::Error(e)) => return Err(GameError::io(&path, e)),
            Err(TryLockError::WouldBlock) => {
                eprintln!("{}: a turn run or a join is changing this game; waiting for it to finish", root.display());
                file.lock_shared().map_err(|e| GameError::io(&path, e))?;
            }
        },
        Hold::Change => loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(TryLockError::Error(e)) => return Err(GameError::io(&path, e)),
                Err(TryLockError::WouldBlock) => {}
            }
            // Held: by readers only (a mail) if a shared hold is still granted;
            // then wait for them. Otherwise a run or a join is under way.
            match file.try_lock_shared() {
                Ok(()) => {
                    file.unlock().map_err(|e| GameError::io(&path, e))?;
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Err(TryLockError::Error(e)) => return Err(GameError::io(&path, e)),
                Err(TryLockError::WouldBlock) => {
                    return Err(GameError::new(
                        root,
                        "another command is changing this game (a turn run or a join); \
                         nothing was done: try again when it has finished",
                    ));
                }
            }
        },
    }
    Ok(GameLock { _file: file })
}

/// Takes the game folder alone if no one holds it, without waiting.
pub fn try_alone(root: &Path) -> Option<GameLock> {
    let (file, _) = open(root).ok()?;
    file.try_lock().ok()?;
    Some(GameLock { _file: file })
}
