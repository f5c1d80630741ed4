//! What of the rule set the engine does not carry out yet: uses of skills in the
//! world (`mechanics::magic::support`) and combat actions of skills and items
//! (`mechanics::combat::muster::battle_gap`), gathered for the game master:
//! `overlord validate --warnings` warns of each on its record of `skills.ron` or
//! `items.ron`, `overlord import-legacy` on its record of the legacy files.
//! docs/magic.md lists those of the bundled rule set.

use crate::core::data::ronpos::{Path, Seg};
use crate::core::data::validate::{Issue, Origin};
use crate::core::diag::{Diagnostic, Severity};
use crate::systems::overlord::data::{RuleSet, ordinal};
use crate::systems::overlord::mechanics::combat::muster::battle_gap;
use crate::systems::overlord::mechanics::magic::support::world_gaps;

/// One thing the rule set gives that the engine does not carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unworkable {
    /// `skills.ron` or `items.ron`.
    pub file: &'static str,
    /// Index of the record in its file.
    pub index: usize,
    /// The skill's or item's tag.
    pub tag: String,
    /// For a skill, the level (1 for the first).
    pub level: Option<usize>,
    /// What, as a sentence.
    pub what: String,
}

impl Unworkable {
    /// "hailstones [hail], 1st level: …".
    pub fn message(&self, rules: &RuleSet) -> String {
        let name = match self.file {
            "skills.ron" => &rules.skills[self.index].name,
            _ => &rules.items[self.index].name,
        };
        let level = self.level.map(|l| format!(", {} level", ordinal(l as u32))).unwrap_or_default();
        format!("{name} [{}]{level}: {}", self.tag, self.what)
    }

    /// The warning on the record, for the validator.
    pub fn issue(&self, rules: &RuleSet) -> Issue {
        let mut path: Path = vec![Seg::Index(self.index), Seg::Field("system")];
        match self.level {
            Some(l) => path.extend([Seg::Field("levels"), Seg::Index(l - 1)]),
            None => path.push(Seg::Field("combat")),
        }
        Issue {
            severity: Severity::Warning,
            origin: Origin::Rules,
            file: self.file,
            path,
            message: self.message(rules),
        }
    }
}

/// Everything of `rules` the engine does not carry out, skills first, by level.
pub fn unworkable(rules: &RuleSet) -> Vec<Unworkable> {
    let mut v: Vec<Unworkable> = Vec::new();
    for g in world_gaps(rules) {
        v.push(Unworkable {
            file: "skills.ron",
            index: g.skill,
            tag: rules.skills[g.skill].tag.clone(),
            level: Some(g.level),
            what: format!("USE: {} is not part of this engine yet", g.what),
        });
    }
    for (i, s) in rules.skills.iter().enumerate() {
        for (j, lv) in s.system.levels.iter().enumerate() {
            if let Some(what) = lv.combat.as_ref().and_then(|a| battle_gap(rules, a, &lv.grants, lv.summon.as_ref())) {
                v.push(Unworkable {
                    file: "skills.ron",
                    index: i,
                    tag: s.tag.clone(),
                    level: Some(j + 1),
                    what: format!("in battle: {what}"),
                });
            }
        }
    }
    v.sort_by_key(|u| (u.index, u.level));
    for (i, it) in rules.items.iter().enumerate() {
        if let Some(what) = it.system.combat.as_ref().and_then(|a| battle_gap(rules, a, &[], None)) {
            v.push(Unworkable {
                file: "items.ron",
                index: i,
                tag: it.tag.clone(),
                level: None,
                what: format!("in battle: {what}"),
            });
        }
    }
    v
}

/// The same as warnings on the legacy files an import read them from (`SKILL tag`
/// in `skills.rules`, `ITEM tag` in `items.rules`).
pub fn legacy_warnings(rules: &RuleSet, dir: &std::path::Path) -> Vec<Diagnostic> {
    let files = [("skills.ron", "skills.rules", "SKILL"), ("items.ron", "items.rules", "ITEM")];
    let texts: Vec<String> = files.iter().map(|f| std::fs::read_to_string(dir.join(f.1)).unwrap_or_default()).collect();
    unworkable(rules)
        .iter()
        .map(|u| {
            let k = files.iter().position(|f| f.0 == u.file).unwrap_or(0);
            let head = format!("{} {}", files[k].2, u.tag);
            let line = texts[k].lines().position(|l| l.trim_end() == head).map_or(0, |n| n + 1);
            Diagnostic::warning(dir.join(files[k].1), line, 0, u.message(rules))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::validate::resolve;

    #[test]
    fn the_gaps_of_a_rule_set_are_warned_of_on_their_records() {
        let rules = crate::systems::overlord::testkit::overlord_rules();
        let gaps = unworkable(&rules);
        let ppoc = gaps.iter().find(|u| u.tag == "ppoc" && u.level == Some(2)).expect("pick pockets, 2nd level");
        assert_eq!(
            ppoc.message(&rules),
            "pick pockets [ppoc], 2nd level: USE: the event evtppoc is not part of this engine yet"
        );
        // A battle action that cannot be: fire wall calling a race the rules lack.
        let mut broken = (*rules).clone();
        let i = broken.skills.iter().position(|s| s.tag == "fwal").unwrap();
        broken.skills[i].system.levels[0].summon.as_mut().unwrap().race = "nobody".into();
        let fwal = unworkable(&broken).into_iter().find(|u| u.tag == "fwal").expect("fire wall");
        assert_eq!(fwal.what, "in battle: the race it summons, nobody, is not in races.ron");
        assert_eq!(fwal.level, Some(1));
        // Resolved to a line of skills.ron, as a warning.
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/rules/overlord");
        let d = resolve(&[ppoc.issue(&rules)], &dir, &dir);
        assert_eq!(d[0].severity, Severity::Warning);
        assert!(d[0].line > 0 && d[0].file.ends_with("skills.ron"), "{:?}", d[0]);
        // What works is not listed: water walking, hailstones, strength of the boar,
        // meditation, wolves, fire wall.
        assert!(!gaps.iter().any(|u| ["wwal", "hail", "sboa", "medi", "cgwf", "fwal"].contains(&u.tag.as_str())));
    }
}
