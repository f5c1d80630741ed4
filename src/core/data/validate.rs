//! The validation framework every rule system's validator is written with.
//!
//! A validator walks the loaded records and reports *all* problems in one pass.
//! Each problem names its folder (rule set or scenario), its file and the path of
//! the offending value inside the file (`[12].skills[3]`); [`resolve`] turns the
//! paths into line and column by reading the files again, only when there is
//! something to report. Tables are indexed by tag once ([`Issues::index`], which
//! reports empty and duplicate tags); references are checked against those
//! indexes ([`Issues::reference`]).

use crate::core::data::ronpos::{self, Path, Seg};
use crate::core::diag::{Diagnostic, Severity};
use std::collections::HashMap;

/// Which folder a problem lies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The rule set folder.
    Rules,
    /// The scenario folder.
    Scenario,
}

/// A problem found by a validator, before its position is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Error or warning.
    pub severity: Severity,
    /// Rule set or scenario.
    pub origin: Origin,
    /// File name inside the folder.
    pub file: &'static str,
    /// Path of the offending value inside the file.
    pub path: Path,
    /// What is wrong.
    pub message: String,
}

/// Where a table lives: its folder, its file, and the field of the file's record
/// that holds it (`None` when the file is the list itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Table {
    /// Rule set or scenario.
    pub origin: Origin,
    /// File name inside the folder.
    pub file: &'static str,
    /// Field of the file's record holding the list.
    pub field: Option<&'static str>,
}

impl Table {
    /// A rule set file that is a list.
    pub const fn rules(file: &'static str) -> Table {
        Table { origin: Origin::Rules, file, field: None }
    }
    /// A list in field `field` of a rule set file.
    pub const fn rules_in(file: &'static str, field: &'static str) -> Table {
        Table { origin: Origin::Rules, file, field: Some(field) }
    }
    /// A scenario file that is a list.
    pub const fn scenario(file: &'static str) -> Table {
        Table { origin: Origin::Scenario, file, field: None }
    }
    /// The path of record `i` of the table.
    pub fn at(&self, i: usize) -> Path {
        let mut p = Vec::with_capacity(4);
        if let Some(f) = self.field {
            p.push(Seg::Field(f));
        }
        p.push(Seg::Index(i));
        p
    }
}

/// A table's records by tag: the index of each in the list.
pub type Ids<'a> = HashMap<&'a str, usize>;

/// `path` followed by `segs`.
pub fn with(mut path: Path, segs: &[Seg]) -> Path {
    path.extend_from_slice(segs);
    path
}

/// The problems found so far.
#[derive(Debug, Default)]
pub struct Issues(pub Vec<Issue>);

impl Issues {
    /// An error at `path` of table `t`'s file.
    pub fn error(&mut self, t: Table, path: Path, message: String) {
        self.0.push(Issue { severity: Severity::Error, origin: t.origin, file: t.file, path, message });
    }

    /// A warning at `path` of table `t`'s file.
    pub fn warn(&mut self, t: Table, path: Path, message: String) {
        self.0.push(Issue { severity: Severity::Warning, origin: t.origin, file: t.file, path, message });
    }

    /// Indexes a table by tag, reporting empty and duplicate tags (`kind` names a
    /// record in messages: "terrain").
    pub fn index<'a, T>(&mut self, t: Table, kind: &str, list: &'a [T], key: impl Fn(&'a T) -> &'a str) -> Ids<'a> {
        let mut ids: Ids<'a> = HashMap::with_capacity(list.len());
        for (i, rec) in list.iter().enumerate() {
            let k = key(rec);
            if k.is_empty() {
                self.error(t, t.at(i), format!("{kind} with an empty tag"));
                continue;
            }
            if let Some(first) = ids.get(k) {
                let msg = format!("duplicate {kind} '{k}' (first defined as record {first})");
                self.error(t, t.at(i), msg);
            } else {
                ids.insert(k, i);
            }
        }
        ids
    }

    /// Checks one reference: `tag` must be in `ids`, else "unknown `kind` 'tag'" at
    /// `path` of table `t`'s file.
    pub fn reference(&mut self, ids: &Ids, kind: &str, tag: &str, t: Table, path: Path) {
        if !ids.contains_key(tag) {
            self.error(t, path, format!("unknown {kind} '{tag}'"));
        }
    }

    /// Checks the keys of a map (`{"walk": 2}`) at `path` against `ids`.
    pub fn keys<'k, V: 'k>(
        &mut self,
        ids: &Ids,
        kind: &str,
        map: impl IntoIterator<Item = (&'k String, V)>,
        t: Table,
        path: &Path,
    ) {
        for (k, _) in map {
            if !ids.contains_key(k.as_str()) {
                self.error(t, with(path.clone(), &[Seg::Key(k.clone())]), format!("unknown {kind} '{k}'"));
            }
        }
    }
}

/// Turns issues into diagnostics with file, line and column, reading each file
/// concerned once. Sorted by file and position.
pub fn resolve(issues: &[Issue], rules_dir: &std::path::Path, scenario_dir: &std::path::Path) -> Vec<Diagnostic> {
    let mut texts: HashMap<std::path::PathBuf, Option<ronpos::Index>> = HashMap::new();
    let mut out = Vec::with_capacity(issues.len());
    for is in issues {
        let dir = match is.origin {
            Origin::Rules => rules_dir,
            Origin::Scenario => scenario_dir,
        };
        let file = dir.join(is.file);
        let text =
            texts.entry(file.clone()).or_insert_with(|| std::fs::read_to_string(&file).ok().map(ronpos::Index::new));
        let (line, col) = match text {
            Some(t) => {
                let p = t.locate(&is.path);
                (p.line, p.col)
            }
            None => (0, 0),
        };
        let message = format!("{} (at {})", is.message, ronpos::path_to_string(&is.path));
        out.push(Diagnostic { severity: is.severity, file, line, col, message });
    }
    crate::core::diag::sort(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_indexed_once_and_references_checked_against_them() {
        const T: Table = Table::rules_in("movement.ron", "modes");
        let tags = ["walk", "", "ride", "walk"];
        let mut issues = Issues::default();
        let ids = issues.index(T, "movement mode", &tags, |t| t);
        assert_eq!(ids.len(), 2);
        issues.reference(&ids, "movement mode", "fly", T, T.at(0));
        let map: std::collections::BTreeMap<String, i32> = [("ride".into(), 1), ("swim".into(), 2)].into();
        issues.keys(&ids, "movement mode", &map, T, &T.at(2));
        let messages: Vec<(String, String)> =
            issues.0.iter().map(|i| (ronpos::path_to_string(&i.path), i.message.clone())).collect();
        assert_eq!(
            messages,
            [
                (".modes[1]".to_string(), "movement mode with an empty tag".to_string()),
                (".modes[3]".to_string(), "duplicate movement mode 'walk' (first defined as record 0)".to_string()),
                (".modes[0]".to_string(), "unknown movement mode 'fly'".to_string()),
                (".modes[2][\"swim\"]".to_string(), "unknown movement mode 'swim'".to_string()),
            ]
        );
    }
}
