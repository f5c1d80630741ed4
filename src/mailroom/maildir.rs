//! A Maildir (what fetchmail, getmail or a local mail server deliver): new
//! messages in `new/`, read ones in `cur/`, each a file of its own.

use crate::core::game::GameError;
use std::path::{Path, PathBuf};

/// A message waiting in `new/`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// Its file.
    pub path: PathBuf,
    /// Its unique name: the file name without the `:2,…` flags.
    pub name: String,
}

/// The messages waiting in `maildir`'s `new/`, oldest first: by the time their
/// names begin with (seconds, as every Maildir writer names them), then by name.
pub fn waiting(maildir: &Path) -> Result<Vec<Waiting>, GameError> {
    let err = |p: &Path, m: String| GameError { path: p.to_path_buf(), message: m };
    for sub in ["new", "cur"] {
        if !maildir.join(sub).is_dir() {
            return Err(err(maildir, format!("not a Maildir: it has no {sub}/ folder")));
        }
    }
    let new = maildir.join("new");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&new).map_err(|e| err(&new, e.to_string()))? {
        let e = e.map_err(|e| err(&new, e.to_string()))?;
        let file = e.file_name().to_string_lossy().into_owned();
        if file.starts_with('.') || !e.file_type().map_err(|e| err(&new, e.to_string()))?.is_file() {
            continue;
        }
        let name = file.split(':').next().unwrap_or(&file).to_string();
        out.push(Waiting { path: e.path(), name });
    }
    let time = |n: &str| n.split(|c: char| !c.is_ascii_digit()).next().and_then(|t| t.parse::<u64>().ok());
    out.sort_by(|a, b| (time(&a.name), &a.name).cmp(&(time(&b.name), &b.name)));
    Ok(out)
}

/// Moves a message to `cur/`, marked seen (`:2,S`). A message already moved (by
/// another run at the same time) is left as it is.
pub fn mark_read(maildir: &Path, m: &Waiting) -> Result<(), GameError> {
    let file = m.path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
    let flags = file.split_once(":2,").map(|(_, f)| f).unwrap_or("");
    let mut flags: Vec<char> = flags.chars().filter(|c| c.is_ascii_alphabetic()).collect();
    if !flags.contains(&'S') {
        flags.push('S');
    }
    flags.sort_unstable();
    let to = maildir.join("cur").join(format!("{}:2,{}", m.name, flags.into_iter().collect::<String>()));
    match std::fs::rename(&m.path, &to) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(GameError { path: m.path.clone(), message: format!("cannot move it to {}: {e}", to.display()) })
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_messages_come_oldest_first_and_go_to_cur_marked_seen() {
        let d = tempfile::tempdir().unwrap();
        assert!(waiting(d.path()).unwrap_err().message.contains("not a Maildir"));
        for s in ["new", "cur", "tmp"] {
            std::fs::create_dir(d.path().join(s)).unwrap();
        }
        for n in ["1700000010.M2P1.h", "999999999.M1P1.h", "1700000010.M1P1.h:2,F", ".hidden"] {
            std::fs::write(d.path().join("new").join(n), "x").unwrap();
        }
        let w = waiting(d.path()).unwrap();
        let names: Vec<&str> = w.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["999999999.M1P1.h", "1700000010.M1P1.h", "1700000010.M2P1.h"]);
        mark_read(d.path(), &w[1]).unwrap();
        assert!(d.path().join("cur/1700000010.M1P1.h:2,FS").is_file(), "its flags kept, S added");
        mark_read(d.path(), &w[1]).unwrap();
        assert_eq!(waiting(d.path()).unwrap().len(), 2);
    }
}
