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
pub type Ids<'a> = super::FastMap<&'a str, usize>;

/// The last turn a game may reach: turn numbers count up by one and name the
/// turn folders, so a state is refused long before they could overflow.
pub const MAX_TURN: u32 = 999_999;

/// Why `turn` cannot be the turn of a state, if it cannot.
pub fn turn_problem(turn: u32) -> Option<String> {
    (turn > MAX_TURN).then(|| format!("turn {turn} is past the last turn a game may reach ({MAX_TURN})"))
}

/// The longest id of a faction, a place or a piece.
pub const ID_MAX: usize = 40;

/// Why `id` cannot be the id of a faction, a place or a piece, if it cannot. Ids
/// name the files of a game folder (a faction's reports) and are words of orders,
/// so they are 1 to [`ID_MAX`] ASCII letters, digits and underscores: nothing
/// that could lead out of a folder or split into two words.
pub fn id_problem(id: &str) -> Option<String> {
    if id.is_empty() {
        Some("an id cannot be empty".into())
    } else if id.len() > ID_MAX {
        Some(format!("an id has at most {ID_MAX} characters"))
    } else if !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        Some(format!("'{}' is not an id: ids are letters, digits and underscores", id.escape_debug()))
    } else {
        None
    }
}

/// A string compared and hashed without regard to ASCII case.
#[derive(Debug, Clone, Copy)]
struct NoCase<'a>(&'a str);

impl PartialEq for NoCase<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.0.eq_ignore_ascii_case(other.0)
    }
}

impl Eq for NoCase<'_> {}

impl std::hash::Hash for NoCase<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for b in self.0.bytes() {
            state.write_u8(b.to_ascii_lowercase());
        }
        state.write_u8(0xff);
    }
}

/// `path` followed by `segs`.
pub fn with(mut path: Path, segs: &[Seg]) -> Path {
    path.extend_from_slice(segs);
    path
}

fn list_key<'a, T>(list: &'a [T], i: usize, key: &impl Fn(&'a T) -> &'a str) -> &'a str {
    key(&list[i])
}

/// The problems found so far.
#[derive(Debug, Default, Clone)]
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
        let mut ids: Ids<'a> = Ids::with_capacity_and_hasher(list.len(), Default::default());
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

    /// Indexes a table of ids (factions, places, pieces) as [`index`](Self::index)
    /// does, and reports ids that are not [safe](id_problem) and ids that differ
    /// from an earlier one only in case (orders and mail read ids in any case).
    pub fn index_ids<'a, T>(&mut self, t: Table, kind: &str, list: &'a [T], key: impl Fn(&'a T) -> &'a str) -> Ids<'a> {
        let ids = self.index(t, kind, list, &key);
        let mut seen: super::FastMap<NoCase<'a>, usize> =
            super::FastMap::with_capacity_and_hasher(list.len(), Default::default());
        for (i, rec) in list.iter().enumerate() {
            let k = key(rec);
            if k.is_empty() {
                continue;
            }
            if let Some(why) = id_problem(k) {
                self.error(t, with(t.at(i), &[Seg::Field("id")]), format!("{kind} id: {why}"));
            }
            match seen.entry(NoCase(k)) {
                std::collections::hash_map::Entry::Occupied(first) if list_key(list, *first.get(), &key) != k => {
                    let first = *first.get();
                    let msg = format!(
                        "{kind} '{k}' differs from {kind} '{}' (record {first}) only in case",
                        list_key(list, first, &key)
                    );
                    self.error(t, t.at(i), msg);
                }
                std::collections::hash_map::Entry::Occupied(_) => {}
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(i);
                }
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

    #[test]
    fn ids_are_safe_as_paths_and_as_words_and_unambiguous_in_any_case() {
        for good in ["f01", "U12", "L_3", &"x".repeat(ID_MAX)] {
            assert_eq!(id_problem(good), None, "{good}");
        }
        for bad in ["", "../../x", "a/b", "a b", "f-1", "é", ".", &"x".repeat(ID_MAX + 1)] {
            assert!(id_problem(bad).is_some(), "{bad:?}");
        }
        const T: Table = Table::scenario("factions.ron");
        let ids = ["f01", "../x", "F01", "f01", "f1"];
        let mut issues = Issues::default();
        let index = issues.index_ids(T, "faction", &ids, |t| t);
        assert_eq!(index.len(), 4);
        let messages: Vec<(String, String)> =
            issues.0.iter().map(|i| (ronpos::path_to_string(&i.path), i.message.clone())).collect();
        assert_eq!(
            messages,
            [
                ("[3]".to_string(), "duplicate faction 'f01' (first defined as record 0)".to_string()),
                (
                    "[1].id".to_string(),
                    "faction id: '../x' is not an id: ids are letters, digits and underscores".to_string()
                ),
                ("[2]".to_string(), "faction 'F01' differs from faction 'f01' (record 0) only in case".to_string()),
            ]
        );
    }
}
