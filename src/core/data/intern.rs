//! Interning: a two-way table between the tags of one kind of record and their
//! indices, so that the engine compares small integers, never strings.

use super::FastMap;

/// A two-way table between the tags of one kind of record and their indices.
#[derive(Debug, Default, Clone)]
pub struct Interner {
    by_tag: FastMap<String, u16>,
    by_folded: FastMap<String, u16>,
    tags: Vec<String>,
}

impl Interner {
    /// Builds the table from the tags in list order; the first of duplicate tags wins.
    pub fn new<'a>(tags: impl IntoIterator<Item = &'a str>) -> Self {
        let mut t = Interner::default();
        for tag in tags {
            let index = u16::try_from(t.tags.len()).expect("more than 65535 records of one kind");
            t.by_tag.entry(tag.to_string()).or_insert(index);
            t.by_folded.entry(tag.to_ascii_lowercase()).or_insert(index);
            t.tags.push(tag.to_string());
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
    pub fn tag(&self, index: u16) -> &str {
        &self.tags[index as usize]
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
}
