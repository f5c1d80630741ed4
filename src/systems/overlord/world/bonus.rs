//! Skill bonuses by source, read the way CLI-MAGIC reads them: a bonus for a skill
//! counts for every skill derived from it, the skills that require it directly or
//! through others (an element's season bonus speeds its spells; a mage's guild's
//! bonus for magecraft speeds the study of every magic skill). Built once from the
//! rule set, so that a lookup on a unit's day is an index, never a tag.

use super::ids::SkillId;
use crate::core::data::FastMap;
use crate::systems::overlord::data::{Bonuses, RuleSet, TagMap};

/// One kind of bonus (`use` or `study`) by source, then by skill: the sum of the
/// source's bonuses for the skill and every skill it derives from.
#[derive(Debug, Default)]
pub struct Table(Vec<Vec<i32>>);

impl Table {
    fn new<'a>(
        sources: impl Iterator<Item = &'a TagMap>,
        lineage: &[Vec<usize>],
        index: &FastMap<&str, usize>,
    ) -> Table {
        Table(
            sources
                .map(|m| {
                    if m.is_empty() {
                        return Vec::new();
                    }
                    // The source's bonus by skill index, then summed along each lineage.
                    let mut own = vec![0; lineage.len()];
                    for (tag, v) in m {
                        if let Some(&k) = index.get(tag.as_str()) {
                            own[k] = *v;
                        }
                    }
                    lineage.iter().map(|l| l.iter().map(|&k| own[k]).sum()).collect()
                })
                .collect(),
        )
    }

    /// Source `source`'s bonus for `skill`.
    pub fn get(&self, source: usize, skill: SkillId) -> i32 {
        self.0.get(source).and_then(|v| v.get(skill.index())).copied().unwrap_or(0)
    }
}

/// The bonuses of every source of one kind.
#[derive(Debug, Default)]
pub struct Sources {
    /// By race.
    pub race: Table,
    /// By season.
    pub season: Table,
    /// By weather.
    pub weather: Table,
    /// By construction kind.
    pub construction: Table,
    /// By enchantment.
    pub effect: Table,
}

/// `use` and `study` bonuses.
#[derive(Debug, Default)]
pub struct SkillBonuses {
    /// `use`: the speed of work.
    pub use_: Sources,
    /// `study`: the speed of study.
    pub study: Sources,
}

impl SkillBonuses {
    /// The tables of `rules`.
    pub fn new(rules: &RuleSet) -> SkillBonuses {
        // The first skill of each tag, as a lookup by tag finds it.
        let mut tags: FastMap<&str, usize> = FastMap::default();
        for (i, s) in rules.skills.iter().enumerate() {
            tags.entry(s.tag.as_str()).or_insert(i);
        }
        let index = |t: &str| tags.get(t).copied();
        // Each skill with the skills it derives from, itself first.
        let mut lineage: Vec<Vec<usize>> = Vec::with_capacity(rules.skills.len());
        for s in 0..rules.skills.len() {
            let mut seen = vec![s];
            let mut i = 0;
            while i < seen.len() {
                for r in &rules.skills[seen[i]].system.requires {
                    if let Some(k) = index(&r.skill).filter(|k| !seen.contains(k)) {
                        seen.push(k);
                    }
                }
                i += 1;
            }
            lineage.push(seen);
        }
        let sources = |pick: fn(&Bonuses) -> &TagMap| Sources {
            race: Table::new(rules.races.iter().map(|r| pick(&r.system.bonuses)), &lineage, &tags),
            season: Table::new(rules.climate.seasons.iter().map(|s| pick(&s.system.bonuses)), &lineage, &tags),
            weather: Table::new(rules.climate.weathers.iter().map(|w| pick(&w.system.bonuses)), &lineage, &tags),
            construction: Table::new(
                rules.constructions.constructions.iter().map(|c| pick(&c.bonuses)),
                &lineage,
                &tags,
            ),
            effect: Table::new(rules.enchantments.enchantments.iter().map(|e| pick(&e.bonuses)), &lineage, &tags),
        };
        SkillBonuses { use_: sources(|b| &b.use_), study: sources(|b| &b.study) }
    }
}
