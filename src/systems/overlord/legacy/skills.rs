//! Converts `skills.rules`.
//!
//! In the legacy format a skill's level-specific keywords (stats, production,
//! summons, combat…) written after `LEVEL n` apply from that level on until a
//! later level overrides them; keywords written before the first `LEVEL` apply
//! from the first level. The converter resolves this inheritance, so that every
//! level of the RON skill lists its complete effects. Skill-wide keywords
//! (`REQUIRES`, flags, paradigms, `STUDY_COST`) belong to the skill wherever
//! they stand.

use super::conv::{Conv, Modes, bonus, capacity, is_stat, stat};
use super::lexer::{LegacyFile, Line};
use super::rules::{action_kind, combat_line, shift};
use crate::systems::overlord::data::*;
use std::collections::BTreeMap;

fn set_flag(flags: &mut Vec<SkillFlag>, f: SkillFlag) {
    if !flags.contains(&f) {
        flags.push(f);
    }
}

fn upsert(list: &mut Vec<ItemCount>, item: Tag, n: u32) {
    match list.iter_mut().find(|x| x.0 == item) {
        Some(x) => x.1 = n,
        None => list.push(ItemCount(item, n)),
    }
}

/// Converts every SKILL record.
pub fn skills(c: &mut Conv, f: &LegacyFile, modes: &Modes, damage: &BTreeMap<u32, Tag>) -> Vec<Skill> {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for r in &f.records {
        let tag = r.tag().to_string();
        if tag.is_empty() {
            c.warn(r.head.no, "SKILL record without a tag ignored");
            continue;
        }
        if let Some(first) = seen.get(&tag) {
            c.warn(r.head.no, format!("SKILL '{tag}' defined again (first at line {first}); this record is ignored"));
            continue;
        }
        seen.insert(tag.clone(), r.head.no);
        c.extra(&r.head, 1);

        let mut sk = Skill { tag, name: String::new(), description: String::new(), system: SkillRules::default() };
        // The running state: what the next level inherits.
        let mut cur = SkillLevel::default();
        let mut in_level = false;
        for l in &r.body {
            if level_key(c, l, &mut sk, &mut cur, &mut in_level) {
                continue;
            }
            if !level_data(c, l, &mut cur, modes, damage) {
                c.unknown(l, "SKILL");
            }
        }
        if in_level {
            sk.system.levels.push(cur);
        } else if cur != SkillLevel::default() {
            c.warn(
                r.head.no,
                format!("skill '{}' has effects but no LEVEL; they form level 1 at 0 experience", sk.tag),
            );
            sk.system.levels.push(cur);
        }
        sk.system.flags.sort();
        if let Some(item) = equipment_named(&sk.description) {
            for lv in &mut sk.system.levels {
                if let Some(a) = &mut lv.combat {
                    a.equipment = Some(item.clone());
                }
            }
        }
        out.push(sk);
    }
    out
}

/// The legacy data writes a world spell's casting time in the number after what it
/// makes: `SUMMONS gwol 15` is one grey wolf per 15 days of casting, `GRANTS effswim
/// 1` with `MULTIPLE 4` is one day of casting for four days of swimming, `PRODUCES
/// effenhw 1` one day for one day of the enchantment. The RON says it plainly: the
/// days go to `production.days`; a summon's `count` is the figures one casting
/// calls; a grant's number is the days of enchantment one casting gives (the
/// legacy `MULTIPLE`). A battlefield enchantment takes no time: its `MULTIPLE` is
/// the rounds its enchantments last (`GRANTS effssca 1`, `MULTIPLE 5`: five rounds),
/// written as the grants' number.
pub fn casting_time(sk: &mut Skill, is_enchantment: impl Fn(&str) -> bool) {
    let enchant = sk.system.use_kind == Some(UseKind::Enchant);
    let summon = sk.system.use_kind == Some(UseKind::Summon);
    for lv in &mut sk.system.levels {
        // A battlefield enchantment: `MULTIPLE` is the rounds it lasts.
        if !enchant && lv.combat.as_ref().is_some_and(|c| c.kind == CombatActionKind::Enchant) {
            if let Some(p) = &mut lv.production {
                for g in &mut lv.grants {
                    g.1 = p.multiple.max(1);
                }
                p.multiple = 1;
                if *p == Production::default() {
                    lv.production = None;
                }
            }
            continue;
        }
        if !enchant && !summon {
            continue;
        }
        let mut p = lv.production.take().unwrap_or_default();
        if summon && let Some(s) = &mut lv.summon {
            if p.days == 0 {
                p.days = s.count.max(1);
            }
            s.count = p.multiple.max(1);
            p.multiple = 1;
        }
        if enchant {
            // An enchantment named as the output is granted like `GRANTS`.
            if let Some(out) = p.output.take() {
                if is_enchantment(&out) {
                    if !lv.grants.iter().any(|g| g.0 == out) {
                        lv.grants.push(Grant(out, 1));
                    }
                } else {
                    p.output = Some(out);
                }
            }
            if p.output.is_none() && !lv.grants.is_empty() {
                if p.days == 0 {
                    p.days = lv.grants.iter().map(|g| g.1).max().unwrap_or(1).max(1);
                }
                for g in &mut lv.grants {
                    g.1 = p.multiple.max(1);
                }
                p.multiple = 1;
            }
        }
        if p != Production::default() {
            lv.production = Some(p);
        }
    }
}

/// The item a combat skill needs equipped (CMB-SKILLEQUIP): the legacy data says it
/// only in the description, "Use of this skill requires the equipment of: longbow
/// [lbow]".
fn equipment_named(description: &str) -> Option<Tag> {
    let rest = description.split("requires the equipment of:").nth(1)?;
    let open = rest.find('[')?;
    let close = rest[open..].find(']')? + open;
    let tag = rest[open + 1..close].trim();
    (!tag.is_empty()).then(|| tag.to_string())
}

/// Skill-wide keywords and LEVEL; true if the line was one of them.
fn level_key(c: &mut Conv, l: &Line, sk: &mut Skill, cur: &mut SkillLevel, in_level: &mut bool) -> bool {
    match l.key.as_str() {
        "LEVEL" => {
            if *in_level {
                sk.system.levels.push(cur.clone());
            }
            *in_level = true;
            cur.experience = c.u32(l, 0);
            cur.description.clear();
            cur.leader_only = false;
        }
        "NAME" => {
            if sk.name.is_empty() {
                c.set_text(&mut sk.name, l);
            } else if let Some(s) = cur.summon.as_mut() {
                s.name = l.rest.clone();
            } else {
                c.warn(l.no, format!("NAME given again ('{}') outside a summon; ignored", l.rest));
            }
        }
        "DESCRIPTION" => {
            if *in_level {
                c.set_text(&mut cur.description, l);
            } else {
                c.set_text(&mut sk.description, l);
            }
        }
        // One study cost per skill: the first level's. The legacy files give a later
        // level's (always 0, at the unreachable level that caps a skill: "It is not
        // possible to grow beyond 6th level in magecraft"), which is not kept.
        "STUDY_COST" if *in_level && !sk.system.levels.is_empty() => {
            let v = c.u32(l, 0);
            if v != sk.system.study_cost {
                c.warn(
                    l.no,
                    format!(
                        "STUDY_COST {v} at level {}: a skill has one study cost, its first level's ({}) is kept",
                        sk.system.levels.len() + 1,
                        sk.system.study_cost
                    ),
                );
            }
        }
        "STUDY_COST" => sk.system.study_cost = c.u32(l, 0),
        "REQUIRES" => {
            let req = c.skill_req(l, 0);
            if !sk.system.requires.iter().any(|x| x.skill == req.skill) {
                sk.system.requires.push(req);
            }
        }
        "COMBAT_SKILL" => set_flag(&mut sk.system.flags, SkillFlag::Combat),
        "MAGIC_SKILL" => set_flag(&mut sk.system.flags, SkillFlag::Magic),
        "BASIC_SKILL" => set_flag(&mut sk.system.flags, SkillFlag::Basic),
        "ELEMENTAL_MAGIC_SKILL" => set_flag(&mut sk.system.flags, SkillFlag::ElementalMagic),
        "SPECIALIST" => set_flag(&mut sk.system.flags, SkillFlag::Specialist),
        "NO_LEARN" => set_flag(&mut sk.system.flags, SkillFlag::NoLearn),
        "NO_EXP" => set_flag(&mut sk.system.flags, SkillFlag::NoExperience),
        "USE_ANYONE" => set_flag(&mut sk.system.flags, SkillFlag::UseAnyone),
        "STUDENT" => {
            if !l.arg(0).eq_ignore_ascii_case("LEADER") {
                c.warn(l.no, format!("STUDENT {}: only STUDENT LEADER is known; ignored", l.arg(0)));
            } else if sk.system.levels.is_empty() {
                // Before the second LEVEL: the whole skill is for leaders.
                set_flag(&mut sk.system.flags, SkillFlag::LeaderOnly);
            } else {
                cur.leader_only = true;
            }
        }
        "LEARNING_PARADIGM" => match l.arg(0).to_ascii_uppercase().as_str() {
            "LEARNING_NORMAL" => {}
            "LEARNING_CREATURE" => set_flag(&mut sk.system.flags, SkillFlag::CreatureOnly),
            "LEARNING_MAGIC" => set_flag(&mut sk.system.flags, SkillFlag::LeaderOnly),
            "LEARNING_ELEMENTAL_MAGIC" => set_flag(&mut sk.system.flags, SkillFlag::ElementalMagic),
            other => c.warn(l.no, format!("LEARNING_PARADIGM {other} unknown; ignored")),
        },
        "USING_PARADIGM" => {
            sk.system.use_kind = match l.arg(0).to_ascii_uppercase().as_str() {
                "USING_CRAFT" => Some(UseKind::Craft),
                "USING_HARVEST" => Some(UseKind::Harvest),
                "USING_CONSTRUCTION" => Some(UseKind::Construction),
                "USING_BUILD" => Some(UseKind::Build),
                "USING_ENCHANT" => Some(UseKind::Enchant),
                "USING_SUMMON" => Some(UseKind::Summon),
                "USING_COMBAT" => Some(UseKind::Combat),
                "USING_ACTION" => Some(UseKind::Action),
                other => {
                    c.warn(l.no, format!("USING_PARADIGM {other} unknown; ignored"));
                    sk.system.use_kind
                }
            }
        }
        "WISDOM" => sk.system.wisdom_item = Some(c.tag(l, 0)),
        _ => return false,
    }
    true
}

/// Level-specific keywords; true if the line was one of them.
fn level_data(c: &mut Conv, l: &Line, cur: &mut SkillLevel, modes: &Modes, damage: &BTreeMap<u32, Tag>) -> bool {
    match l.key.as_str() {
        k if is_stat(k) => {
            let v = c.i32(l, 0);
            stat(&mut cur.stats, k, v);
        }
        "CAPACITY" => capacity(c, modes, &mut cur.capacity, l),
        "TARGET" => {
            let kind = match l.arg(0).to_ascii_uppercase().as_str() {
                "UNIT" => TargetKind::Unit,
                "CONSTRUCTION" => TargetKind::Construction,
                "LOCATION" => TargetKind::Location,
                "SELF" => TargetKind::Own,
                other => {
                    c.warn(l.no, format!("TARGET {other} unknown; UNIT used"));
                    TargetKind::Unit
                }
            };
            let scope = match l.arg(1).to_ascii_uppercase().as_str() {
                "" => TargetScope::Any,
                "LOCAL" => TargetScope::Local,
                "NEAR" => TargetScope::Near,
                other => {
                    c.warn(l.no, format!("TARGET scope {other} unknown; any location used"));
                    TargetScope::Any
                }
            };
            cur.target = Some(UseTarget { kind, scope });
        }
        "USE_MANA" => cur.use_mana = c.u32(l, 0),
        "PRODUCES" => {
            let p = cur.production.get_or_insert_with(Production::default);
            p.output = Some(c.tag(l, 0));
            p.days = c.u32_or(l, 1, 1);
            c.extra(l, 2);
        }
        "CONSUME" => {
            let item = c.tag(l, 0);
            let n = c.u32_or(l, 1, 1);
            let p = cur.production.get_or_insert_with(Production::default);
            upsert(&mut p.inputs, item, n);
        }
        "RECONSUME" => cur.production.get_or_insert_with(Production::default).reconsume = true,
        "TOOL" => {
            let t = c.tag(l, 0);
            let p = cur.production.get_or_insert_with(Production::default);
            if !p.tools.contains(&t) {
                p.tools.push(t);
            }
        }
        "MULTIPLE" => {
            let n = c.u32(l, 0);
            cur.production.get_or_insert_with(Production::default).multiple = n;
        }
        "HARVEST" => {
            let item = c.tag(l, 0);
            let n = c.u32_or(l, 1, 1);
            cur.production.get_or_insert_with(Production::default).harvest = Some(ItemCount(item, n));
        }
        "UPGRADE" => {
            let k = c.tag(l, 0);
            let n = c.u32_or(l, 1, 1);
            cur.production.get_or_insert_with(Production::default).upgrade = Some(ItemCount(k, n));
        }
        "GRANTS" => {
            let e = c.tag(l, 0);
            let days = c.u32_or(l, 1, 1);
            match cur.grants.iter_mut().find(|g| g.0 == e) {
                Some(g) => g.1 = days,
                None => cur.grants.push(Grant(e, days)),
            }
        }
        "SUMMONS" => {
            let s = cur.summon.get_or_insert_with(Summon::default);
            s.race = c.tag(l, 0);
            s.count = c.u32_or(l, 1, 1);
        }
        "SUMMONED" => {
            let sub = shift(l);
            let s = cur.summon.get_or_insert_with(Summon::default);
            match sub.key.as_str() {
                "NAME" => s.name = sub.rest.clone(),
                "SKILL" => {
                    let t = c.tag(&sub, 0);
                    let e = c.u32(&sub, 1);
                    match s.skills.iter_mut().find(|x| x.0 == t) {
                        Some(x) => x.1 = e,
                        None => s.skills.push(SkillExperience(t, e)),
                    }
                }
                other => c.warn(l.no, format!("SUMMONED {other}: unknown; line ignored")),
            }
        }
        "ITEM" => {
            let t = c.tag(l, 0);
            let n = c.u32(l, 1);
            let e = c.u32_or(l, 2, 0);
            match cur.summon.as_mut() {
                Some(s) => s.items.push(ItemHolding(t, n, e)),
                None => c.warn(l.no, "ITEM outside a summon; ignored"),
            }
        }
        "COMBAT_TACTICS" => {
            let t = super::world::tactics(c, l);
            match cur.summon.as_mut() {
                Some(s) => s.tactics = Some(t),
                None => c.warn(l.no, "COMBAT_TACTICS outside a summon; ignored"),
            }
        }
        "COMBAT_ORDER" => match cur.summon.as_mut() {
            Some(s) => s.combat_orders.push(l.rest.clone()),
            None => c.warn(l.no, "COMBAT_ORDER outside a summon; ignored"),
        },
        "COMBAT_ACTION" => {
            let k = action_kind(c, l);
            cur.combat.get_or_insert_with(CombatAction::default).kind = k;
        }
        "COMBAT" => combat_line(c, l, cur.combat.get_or_insert_with(CombatAction::default), damage),
        "SECONDARY_ACTION" => cur.combat.get_or_insert_with(CombatAction::default).secondary = Some(c.tag(l, 0)),
        "FX" => cur.fx = c.u32(l, 0),
        _ => {
            let mut b = std::mem::take(&mut cur.bonuses);
            let ok = bonus(c, modes, &mut b, l);
            cur.bonuses = b;
            return ok;
        }
    }
    true
}
