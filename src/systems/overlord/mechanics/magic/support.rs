//! What of the rule set's spells and other uses the engine does not carry out yet,
//! and why: one answer for the casting (such a USE does nothing and its report says
//! so, once a month) and for the game master (`overlord validate --warnings` and
//! `overlord import-legacy` warn of each; docs/magic.md lists those of the bundled
//! rule set).
//!
//! A world use is carried out when its kind is one the engine knows (`USES` in
//! `mechanics/mod.rs`) and what it does is: an enchantment on a unit whose effects
//! change something the engine reads (statistics, capacity, a `use` bonus, a
//! combat bonus); a
//! summons of a race; a ritual making the rule set's `mana_event`.

use crate::systems::overlord::data::{Enchantment, RuleSet, TargetKind, UseKind};
use bevy_ecs::prelude::Resource;

/// [`world_gap`] of every skill level, worked out once: a casting reads it by
/// index.
#[derive(Resource, Debug, Default)]
pub struct Gaps(Vec<Vec<Option<String>>>);

impl Gaps {
    /// The gaps of `rules`.
    pub fn new(rules: &RuleSet) -> Gaps {
        Gaps(
            rules
                .skills
                .iter()
                .enumerate()
                .map(|(i, s)| (1..=s.system.levels.len()).map(|l| world_gap(rules, i, l)).collect())
                .collect(),
        )
    }

    /// What of level `level` (1 for the first) of skill `skill` is not part of the
    /// engine yet, if anything.
    pub fn of(&self, skill: usize, level: usize) -> Option<&str> {
        self.0.get(skill)?.get(level.checked_sub(1)?)?.as_deref()
    }
}

/// A level of a skill the engine does not carry out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    /// Index of the skill in `skills.ron`.
    pub skill: usize,
    /// Level, 1 for the first.
    pub level: usize,
    /// What is not part of the engine yet ("a spell on a place").
    pub what: String,
}

/// What of level `level` (1 for the first) of skill `skill`, used in the world, is
/// not part of the engine yet, if anything.
pub fn world_gap(rules: &RuleSet, skill: usize, level: usize) -> Option<String> {
    let s = &rules.skills[skill];
    let lv = s.system.levels.get(level.checked_sub(1)?)?;
    let output = lv.production.as_ref().and_then(|p| p.output.clone());
    let Some(kind) = s.system.use_kind else {
        // A level that makes something in the world, of a skill with no kind of use.
        return output
            .filter(|_| lv.combat.is_none())
            .map(|o| format!("a use making {o}, of a skill with no kind of use"));
    };
    if !matches!(kind, UseKind::Enchant | UseKind::Action | UseKind::Summon) {
        return None;
    }
    // Places and structures are enchanted; nothing else is done to them.
    let enchants = kind == UseKind::Enchant && !lv.grants.is_empty();
    match lv.target.as_ref().map(|t| t.kind) {
        Some(TargetKind::Construction) if !enchants => return Some("a spell on a structure".into()),
        Some(TargetKind::Location) if kind != UseKind::Summon && !enchants => {
            return Some("a spell on a place".into());
        }
        _ => {}
    }
    match kind {
        UseKind::Enchant if lv.grants.is_empty() => Some(format!(
            "enchanting with no enchantment{}",
            output.map(|o| format!(" (it makes {o})")).unwrap_or_default()
        )),
        UseKind::Enchant => lv.grants.iter().find_map(|g| {
            let e = rules.enchantments.enchantments.iter().find(|e| e.tag == g.0)?;
            idle(e).map(|why| format!("the effect of {} [{}] ({why})", e.name, e.tag))
        }),
        UseKind::Action => {
            let mana = &rules.info.parameters.mana_event;
            match output {
                Some(o) if !mana.is_empty() && o == *mana => None,
                Some(o) => Some(format!("the event {o}")),
                None => Some("an action that makes nothing".into()),
            }
        }
        UseKind::Summon if lv.summon.is_none() => Some("a summons of nothing".into()),
        _ => None,
    }
}

/// Why an enchantment changes nothing the engine reads, if so: it works only by
/// its legacy special effect, its action or bonuses other than `use`.
pub fn idle(e: &Enchantment) -> Option<String> {
    let works = !e.stats.is_empty()
        || !e.capacity.is_empty()
        || !e.bonuses.use_.is_empty()
        || e.combat.as_ref().is_some_and(|c| !c.bonus.is_empty());
    if works {
        return None;
    }
    let mut by = Vec::new();
    if e.fx != 0 {
        by.push(format!("legacy FX {}", e.fx));
    }
    if let Some(a) = &e.action {
        by.push(format!("action {a}"));
    }
    if !e.bonuses.is_empty() {
        by.push("bonuses".to_string());
    }
    if by.is_empty() {
        by.push("no statistics".to_string());
    }
    Some(format!("it works by {}", by.join(", ")))
}

/// Every level of every skill whose use in the world is not carried out yet.
pub fn world_gaps(rules: &RuleSet) -> Vec<Gap> {
    let mut v = Vec::new();
    for (i, s) in rules.skills.iter().enumerate() {
        for level in 1..=s.system.levels.len() {
            if let Some(what) = world_gap(rules, i, level) {
                v.push(Gap { skill: i, level, what });
            }
        }
    }
    v
}
