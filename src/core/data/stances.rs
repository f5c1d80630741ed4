//! Diplomatic stances: a table every rule system with factions has.
//!
//! A rule set lists its stances (`diplomacy.ron`), each with a rank (higher is
//! friendlier) and the capabilities it grants: what a faction that holds another
//! at this stance lets it do, or does to it. The capabilities are the rule
//! system's own vocabulary (`G`); mechanics ask for a capability, never for a
//! stance by name, so a modder changes what a stance means in the data.

use serde::{Deserialize, Serialize};

/// A capability a stance may grant: one bit of a set.
pub trait Grant: Copy + Eq + std::fmt::Debug {
    /// The capability's bit, distinct for each capability (at most 64).
    fn bit(self) -> u64;
}

/// A diplomatic stance.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stance<G> {
    /// Tag, e.g. `"ally"`.
    pub tag: String,
    /// Name for reports.
    pub name: String,
    /// Rank: higher is friendlier.
    pub rank: u32,
    /// The stance every faction holds toward itself (one stance of the table).
    #[serde(default, skip_serializing_if = "is_false")]
    pub toward_self: bool,
    /// What a faction holding another at this stance grants it, or does to it.
    #[serde(default = "Vec::new", skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<G>,
}

fn is_false(v: &bool) -> bool {
    !*v
}

/// A stance of a table: its index in the rule set's list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StanceId(pub u8);

/// The stances of a rule set, resolved once: lookups by tag or name, ranks and
/// capabilities by id, without comparing strings while a turn runs.
#[derive(Debug, Clone, Default)]
pub struct StanceTable {
    tags: Vec<String>,
    names: Vec<String>,
    ranks: Vec<u32>,
    grants: Vec<u64>,
    own: Option<StanceId>,
}

impl StanceTable {
    /// Resolves a rule set's stances (at most 256; the validator checks the rest).
    pub fn new<G: Grant>(stances: &[Stance<G>]) -> Self {
        let stances = &stances[..stances.len().min(256)];
        StanceTable {
            tags: stances.iter().map(|s| s.tag.clone()).collect(),
            names: stances.iter().map(|s| s.name.clone()).collect(),
            ranks: stances.iter().map(|s| s.rank).collect(),
            grants: stances.iter().map(|s| s.grants.iter().fold(0, |acc, g| acc | g.bit())).collect(),
            own: stances.iter().position(|s| s.toward_self).map(|i| StanceId(i as u8)),
        }
    }

    /// The stance with tag `tag`, exactly as the data writes it.
    pub fn by_tag(&self, tag: &str) -> Option<StanceId> {
        self.tags.iter().position(|t| t == tag).map(|i| StanceId(i as u8))
    }

    /// The stance a player names by tag or name, in any case (`ALLY`, `Allied`).
    pub fn by_word(&self, word: &str) -> Option<StanceId> {
        let found = |list: &[String]| list.iter().position(|t| t.eq_ignore_ascii_case(word));
        found(&self.tags).or_else(|| found(&self.names)).map(|i| StanceId(i as u8))
    }

    /// The stance a faction holds toward itself.
    pub fn toward_self(&self) -> Option<StanceId> {
        self.own
    }

    /// The tag of a stance.
    pub fn tag(&self, s: StanceId) -> &str {
        &self.tags[s.0 as usize]
    }

    /// The name of a stance.
    pub fn name(&self, s: StanceId) -> &str {
        &self.names[s.0 as usize]
    }

    /// The rank of a stance.
    pub fn rank(&self, s: StanceId) -> u32 {
        self.ranks[s.0 as usize]
    }

    /// Whether stance `s` grants `g`.
    pub fn grants<G: Grant>(&self, s: StanceId, g: G) -> bool {
        self.grants[s.0 as usize] & g.bit() != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
    enum Cap {
        Pass,
        Trade,
    }
    impl Grant for Cap {
        fn bit(self) -> u64 {
            1 << self as u8
        }
    }

    #[test]
    fn stances_resolve_by_tag_and_name_and_grant_what_the_data_says() {
        let list: Vec<Stance<Cap>> = ron::from_str(
            r#"[(tag: "ally", name: "Allied", rank: 2, toward_self: true, grants: [Pass, Trade]),
                (tag: "war", name: "At war", rank: 0)]"#,
        )
        .unwrap();
        let t = StanceTable::new(&list);
        let ally = t.by_word("ALLIED").unwrap();
        assert_eq!(t.by_tag("ally"), Some(ally));
        assert_eq!(t.by_tag("Ally"), None, "tags are exact");
        assert_eq!(t.toward_self(), Some(ally));
        assert!(t.grants(ally, Cap::Trade));
        let war = t.by_word("war").unwrap();
        assert_eq!((t.rank(war), t.tag(war), t.name(war)), (0, "war", "At war"));
        assert!(!t.grants(war, Cap::Pass));
    }
}
