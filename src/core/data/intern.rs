//! Interning: a two-way table between the tags of one kind of record and their
//! indices, so that the engine compares small integers, never strings; and the
//! tags' text kept once for the life of the process ([`forever`]), so that what
//! is made from a rule set (a report's maps by tag) borrows it, never copies it.

use super::FastMap;

/// The text of `s`, kept for the life of the process: the same text gives the same
/// `&'static str` whatever rule set or thread asks, so what is kept grows only
/// with the distinct tags ever loaded (the rule sets' tags, a few hundred), not
/// with the number of times a rule set is loaded.
pub fn forever(s: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock, PoisonError};
    static KEPT: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut kept = KEPT.get_or_init(Default::default).lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&k) = kept.get(s) {
        return k;
    }
    let k: &'static str = Box::leak(s.to_owned().into_boxed_str());
    kept.insert(k);
    k
}

/// A two-way table between the tags of one kind of record and their indices.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    by_tag: FastMap<String, u16>,
    by_folded: FastMap<String, u16>,
    tags: Vec<&'static str>,
}

impl Interner {
    /// Builds the table from the tags in list order; the first of duplicate tags wins.
    pub fn new<'a>(tags: impl IntoIterator<Item = &'a str>) -> Self {
        let mut t = Interner::default();
        for tag in tags {
            let index = u16::try_from(t.tags.len()).expect("more than 65535 records of one kind");
            t.by_tag.entry(tag.to_string()).or_insert(index);
            t.by_folded.entry(tag.to_ascii_lowercase()).or_insert(index);
            t.tags.push(forever(tag));
        }
        t
    }
    /// The index of `tag`, if it exists.
    pub fn get(&self, tag: &str) -> Option<u16> {
        self.by_tag.get(tag).copied()
    }
    /// The index of `word` compared without case, as players may write tags (FILE-CASE).
    /// A word without capitals is looked up as it is (most are: the engine
    /// writes tags as the rule set spells them), one with capitals lowered first.
    pub fn get_folded(&self, word: &str) -> Option<u16> {
        self.by_tag
            .get(word)
            .or_else(|| {
                if word.bytes().any(|b| b.is_ascii_uppercase()) {
                    self.by_folded.get(&word.to_ascii_lowercase())
                } else {
                    self.by_folded.get(word)
                }
            })
            .copied()
    }
    /// The tag at `index`.
    pub fn tag(&self, index: u16) -> &'static str {
        self.tags[index as usize]
    }
    /// Number of records.
    pub fn len(&self) -> usize {
        self.tags.len()
    }
    /// Whether there are no records.
    pub fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interner_round_trips_and_keeps_the_first_duplicate() {
        let t = Interner::new(["a", "b", "a"]);
        assert_eq!(t.get("a"), Some(0));
        assert_eq!(t.get("b"), Some(1));
        assert_eq!(t.get("c"), None);
        assert_eq!(t.tag(1), "b");
        assert_eq!(t.len(), 3);
        assert_eq!(t.get_folded("B"), Some(1), "players may write tags in any case (FILE-CASE)");
        // A tag spelt with capitals by the rule set is found in any case.
        let t = Interner::new(["Aa", "bb"]);
        assert_eq!(t.get_folded("Aa"), Some(0));
        assert_eq!(t.get_folded("aa"), Some(0));
        assert_eq!(t.get_folded("AA"), Some(0));
        assert_eq!(t.get_folded("BB"), Some(1));
        assert_eq!(t.get_folded("bB"), Some(1));
        assert_eq!(t.get_folded("cc"), None);
    }

    /// The same text is kept once, whoever asks: two tables of the same tags
    /// lend the same bytes.
    #[test]
    fn a_tag_is_kept_once_for_every_table_of_it() {
        let (a, b) = (Interner::new(["kept-once", "x"]), Interner::new(["y", "kept-once"]));
        assert_eq!(a.tag(0), "kept-once");
        assert!(std::ptr::eq(a.tag(0), b.tag(1)));
        assert!(std::ptr::eq(forever(&String::from("kept-once")), a.tag(0)));
    }
}
