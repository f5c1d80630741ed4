//! Descriptions of the rule set's records, as a faction's knowledge shows them
//! (RPT-KNOW): the text of the record and what its numbers mean, in the words of
//! the rules' sample report. Only what the faction may know is said: a skill's
//! level never names the skills it opens up.

use super::model::KnowledgeRecord;
use crate::systems::overlord::data::{self, RaceKind, SkillFlag, Stats, ordinal};
use crate::systems::overlord::world::components::{Lesson, Topic};
use crate::systems::overlord::world::ids::{Catalog, SkillId};
use std::fmt::Write;
use std::sync::OnceLock;

/// The texts of the lessons, each written once a turn and shared by every report
/// that teaches it: a lesson's text depends on the rule set alone, and at 50,000
/// factions writing it again for each one cost more than the rest of their
/// knowledge sections. A text is written when first asked for, on whichever
/// thread asks, and is the same whoever asks first.
pub struct Texts {
    items: Vec<OnceLock<String>>,
    races: Vec<OnceLock<String>>,
    constructions: Vec<OnceLock<String>>,
    enchantments: Vec<OnceLock<String>>,
    /// By skill, then by level (level 1 first).
    skills: Vec<Vec<OnceLock<String>>>,
}

impl Texts {
    /// Room for every lesson of `c`'s rule set, none written yet.
    pub fn new(c: &Catalog) -> Self {
        let slots = |n: usize| std::iter::repeat_with(OnceLock::new).take(n).collect::<Vec<_>>();
        Texts {
            items: slots(c.rules.items.len()),
            races: slots(c.rules.races.len()),
            constructions: slots(c.rules.constructions.constructions.len()),
            enchantments: slots(c.rules.enchantments.enchantments.len()),
            skills: c.rules.skills.iter().map(|d| slots(d.system.levels.len())).collect(),
        }
    }
}

/// The text in `slot`, written by `write` if it is not yet.
fn kept(slot: Option<&OnceLock<String>>, write: impl FnOnce() -> String) -> String {
    match slot {
        Some(s) => s.get_or_init(write).clone(),
        None => write(),
    }
}

/// The records a lesson describes: one, or one per level of a skill; their texts
/// from `texts`, written there if not yet.
pub fn lesson(c: &Catalog, texts: &Texts, l: Lesson, again: bool) -> Vec<KnowledgeRecord> {
    let rec = |kind: &str, tag: &str, name: &str, level: Option<u32>, text: String| KnowledgeRecord {
        kind: kind.into(),
        tag: tag.into(),
        name: name.into(),
        level,
        text,
        again,
    };
    match l {
        Lesson::Topic(Topic::Item(i)) => {
            let d = &c.rules.items[i.index()];
            vec![rec("item", &d.tag, &d.name, None, kept(texts.items.get(i.index()), || item(c, d)))]
        }
        Lesson::Topic(Topic::Race(r)) => {
            let d = &c.rules.races[r.index()];
            vec![rec("race", &d.tag, &d.name, None, kept(texts.races.get(r.index()), || race(c, d)))]
        }
        Lesson::Topic(Topic::Construction(k)) => {
            let d = &c.rules.constructions.constructions[k as usize];
            let text = kept(texts.constructions.get(k as usize), || construction(c, d));
            vec![rec("structure", &d.tag, &d.name, None, text)]
        }
        Lesson::Topic(Topic::Enchantment(e)) => {
            let d = &c.rules.enchantments.enchantments[e.index()];
            let text = kept(texts.enchantments.get(e.index()), || enchantment(c, d));
            vec![rec("enchantment", &d.tag, &d.name, None, text)]
        }
        Lesson::Skill(s, from, to) => {
            let d = &c.rules.skills[s.index()];
            let levels = texts.skills.get(s.index());
            (from.max(1)..=to.min(d.system.levels.len() as u32))
                .map(|level| {
                    let slot = levels.and_then(|l| l.get(level as usize - 1));
                    rec("skill", &d.tag, &d.name, Some(level), kept(slot, || skill_level(c, s, level)))
                })
                .collect()
        }
    }
}

fn enchantment(c: &Catalog, d: &data::Enchantment) -> String {
    let mut o = sentence(&d.description);
    gives(&mut o, &d.stats, "Gives");
    capacities(&mut o, c, &d.capacity, "Added capacities");
    o.trim_end().to_string()
}

/// `text.` with its full stop and a space after, or nothing.
fn sentence(text: &str) -> String {
    let t = text.trim();
    match t.chars().last() {
        None => String::new(),
        Some('.' | '!' | '?') => format!("{t} "),
        Some(_) => format!("{t}. "),
    }
}

/// `Label +3 to melee, -1 to initiative. ` for the stats that are not 0.
fn gives(o: &mut String, s: &Stats, label: &str) {
    let parts: Vec<String> = [
        (s.initiative, "initiative"),
        (s.melee, "melee"),
        (s.missile, "missile"),
        (s.defense, "defense"),
        (s.damage, "damage"),
        (s.ranged_damage, "ranged damage"),
        (s.hits, "strikes"),
        (s.life, "life"),
        (s.stealth, "stealth"),
        (s.observation, "observation"),
        (s.mana, "mana"),
        (s.control, "control points"),
        (s.upkeep, "upkeep"),
    ]
    .into_iter()
    .filter(|&(n, _)| n != 0)
    .map(|(n, what)| format!("{n:+} to {what}"))
    .collect();
    if !parts.is_empty() {
        let _ = write!(o, "{label} {}. ", parts.join(", "));
    }
}

/// `Label: 150/walking, 95/riding. ` in the rule set's order of modes.
fn capacities(o: &mut String, c: &Catalog, caps: &data::TagMap, label: &str) {
    let parts: Vec<String> = c
        .rules
        .movement
        .modes
        .iter()
        .filter_map(|m| caps.get(&m.tag).filter(|&&n| n != 0).map(|n| format!("{n}/{}", m.name)))
        .collect();
    if !parts.is_empty() {
        let _ = write!(o, "{label}: {}. ", parts.join(", "));
    }
}

/// `1st blades [blde]`.
fn skill_req(c: &Catalog, tag: &str, level: u32) -> String {
    let name = c.skill(tag).map_or(tag, |s| c.rules.skills[s.index()].name.as_str());
    format!("{} {name} [{tag}]", ordinal(level.max(1)))
}

/// `3 wood [wood]`, named in the singular or plural.
fn items(c: &Catalog, list: impl Iterator<Item = (String, u32)>) -> String {
    let parts: Vec<String> = list
        .map(|(tag, n)| match c.item(&tag) {
            Some(i) => c.items_text(i, u64::from(n)),
            None => format!("{n} [{tag}]"),
        })
        .collect();
    parts.join(", ")
}

fn item(c: &Catalog, d: &data::Item) -> String {
    let s = &d.system;
    let mut o = String::new();
    if d.weight > 0 {
        let _ = write!(o, "Weight {}. ", d.weight);
    }
    o.push_str(&sentence(&d.description));
    capacities(&mut o, c, &d.capacity, "Capacity");
    capacities(&mut o, c, &s.equipped_capacity, "Capacity while equipped");
    if let Some(req) = &s.equip_skill {
        let _ = write!(o, "Equipped using {}. ", skill_req(c, &req.skill, req.level));
    }
    if let Some(slot) = &s.slot {
        let name = c.rules.equipment_slots.iter().find(|x| x.tag == *slot).map_or(slot.as_str(), |x| &x.name);
        let _ = write!(o, "Equipment category: {name}, {} per figure. ", s.max_per_figure);
    }
    gives(&mut o, &s.stats, "Equipment gives");
    if s.combat.is_some() {
        o.push_str("This item is used in combat. ");
    }
    if let Some(k) = &s.knowledge {
        let _ = write!(o, "It teaches its holder's faction of {}. ", skill_req(c, k, 1));
    }
    for (flag, text) in [
        (data::ItemFlag::Magic, "This is a magic item. "),
        (data::ItemFlag::Unique, "There is only one in the world. "),
        (data::ItemFlag::Special, "It is never traded on markets. "),
    ] {
        if s.flags.contains(&flag) {
            o.push_str(text);
        }
    }
    o.trim_end().to_string()
}

fn race(c: &Catalog, d: &data::Race) -> String {
    let s = &d.system;
    let mut o = sentence(&d.description);
    o.push_str(match (s.kind, s.hero) {
        (_, true) => "Heroes: leaders of one figure, with higher study limits. ",
        (RaceKind::Leader, _) => "Leaders: one figure per unit, may lead stacks. ",
        (RaceKind::Follower, _) => "Followers: many figures per unit. ",
        (RaceKind::Creature, _) => "Creatures: many figures per unit, who follow a leader. ",
    });
    gives(&mut o, &s.stats, "Each figure has");
    if s.recruit_cost > 0 {
        let cost = c.money().map_or(s.recruit_cost.to_string(), |m| c.items_text(m, u64::from(s.recruit_cost)));
        let _ = write!(o, "Recruited for {cost} a figure. ");
    }
    o.trim_end().to_string()
}

fn construction(c: &Catalog, d: &data::Construction) -> String {
    let mut o = sentence(&d.description);
    if !d.materials.is_empty() {
        let _ = write!(o, "Built of {}. ", items(c, d.materials.iter().map(|m| (m.0.clone(), m.1))));
    }
    if let Some(b) = &d.building_skill {
        let level = c.skill(&b.0).map_or(1, |s| c.skill_level(s, b.1));
        let _ = write!(o, "Built using {}. ", skill_req(c, &b.0, level));
    }
    capacities(&mut o, c, &d.capacity, "Capacity");
    if let Some(req) = &d.crew_skill {
        let _ = write!(o, "Needs a crew of {} with {}. ", d.crew, skill_req(c, &req.skill, req.level));
    }
    gives(&mut o, &d.stats, "Gives the units inside");
    if !d.produces.is_empty() {
        let _ = write!(o, "Produces {}. ", items(c, d.produces.iter().map(|m| (m.0.clone(), m.1))));
    }
    o.trim_end().to_string()
}

/// `1st combat [cmbt]: …` without the head: what level `level` of skill `s` is.
fn skill_level(c: &Catalog, s: SkillId, level: u32) -> String {
    let d = &c.rules.skills[s.index()];
    let sys = &d.system;
    let Some(l) = sys.levels.get(level as usize - 1) else { return String::new() };
    let mut o = String::new();
    let text = if l.description.is_empty() { &d.description } else { &l.description };
    o.push_str(&sentence(text));
    let before = if level > 1 { sys.levels[level as usize - 2].experience } else { 0 };
    let days = c.experience_days(l.experience.saturating_sub(before));
    if !sys.flags.contains(&SkillFlag::NoLearn) {
        let _ = write!(o, "Requires {days} days");
        if sys.study_cost > 0 {
            let cost = c.money().map_or(sys.study_cost.to_string(), |m| c.items_text(m, u64::from(sys.study_cost)));
            let _ = write!(o, " and {cost} a day");
        }
        o.push_str(" to reach the level. ");
    }
    if level == 1 && !sys.requires.is_empty() {
        let reqs: Vec<String> = sys.requires.iter().map(|r| skill_req(c, &r.skill, r.level)).collect();
        let _ = write!(o, "Requires {} to learn. ", reqs.join(" and "));
    }
    if l.leader_only || sys.flags.contains(&SkillFlag::LeaderOnly) {
        o.push_str("Only leaders may study this skill. ");
    }
    for (flag, text) in [
        (SkillFlag::Basic, "This is a basic skill. "),
        (SkillFlag::Combat, "This is a combat skill. "),
        (SkillFlag::Magic, "This is a magic skill. "),
        (SkillFlag::Specialist, "This is a specialist skill. "),
        (SkillFlag::CreatureOnly, "Only creatures may learn it. "),
        (SkillFlag::NoLearn, "It cannot be studied. "),
    ] {
        if sys.flags.contains(&flag) {
            o.push_str(text);
        }
    }
    gives(&mut o, &l.stats, "Gives");
    capacities(&mut o, c, &l.capacity, "Added capacities");
    if let Some(p) = &l.production {
        production(&mut o, c, p);
    }
    if l.use_mana > 0 {
        let _ = write!(o, "Costs {} mana. ", l.use_mana);
    }
    for g in &l.grants {
        let name = c.effect(&g.0).map_or(g.0.as_str(), |e| &c.rules.enchantments.enchantments[e.index()].name);
        let _ = write!(o, "Grants {name} [{}] ({}). ", g.0, g.1);
    }
    if let Some(x) = &l.summon {
        let name = c.race(&x.race).map_or(x.race.as_str(), |r| c.race_name_for(r, u64::from(x.count)));
        let _ = write!(o, "Summons {} {name} [{}]. ", x.count, x.race);
    }
    if l.combat.is_some() {
        o.push_str("It is used in combat. ");
    }
    o.trim_end().to_string()
}

/// What a use of the level makes, from what, with what.
fn production(o: &mut String, c: &Catalog, p: &data::Production) {
    let output = |tag: &str, n: u32| {
        let name = match c.topic(tag) {
            Some(Topic::Item(i)) => return c.items_text(i, u64::from(n)),
            Some(Topic::Race(r)) => c.rules.races[r.index()].name.as_str(),
            Some(Topic::Construction(k)) => c.rules.constructions.constructions[k as usize].name.as_str(),
            Some(Topic::Enchantment(e)) => c.rules.enchantments.enchantments[e.index()].name.as_str(),
            None => "",
        };
        if name.is_empty() { format!("{n} [{tag}]") } else { format!("{n} {name} [{tag}]") }
    };
    match (&p.harvest, &p.output) {
        (Some(h), _) => {
            let _ = write!(o, "Harvests {} in {} days", output(&h.0, h.1), p.days);
        }
        (None, Some(out)) => {
            let _ = write!(o, "Makes {} in {} days", output(out, p.multiple), p.days);
        }
        (None, None) if p.days > 0 => {
            let _ = write!(o, "Takes {} days", p.days);
        }
        (None, None) => return,
    }
    if !p.inputs.is_empty() {
        let _ = write!(o, " from {}", items(c, p.inputs.iter().map(|m| (m.0.clone(), m.1))));
    }
    if !p.tools.is_empty() {
        let _ = write!(o, ", with {}", items(c, p.tools.iter().map(|t| (t.clone(), 1))));
    }
    o.push_str(". ");
}

#[cfg(test)]
mod tests {
    use super::{Texts, lesson};
    use crate::systems::overlord::testkit::overlord_rules;
    use crate::systems::overlord::world::Catalog;
    use crate::systems::overlord::world::components::{Lesson, Topic};

    /// Every lesson of the rule set: each item, race, structure, enchantment, and
    /// every level of each skill.
    fn every_lesson(c: &Catalog) -> Vec<Lesson> {
        let r = &c.rules;
        let mut all: Vec<Lesson> = Vec::new();
        all.extend(r.items.iter().filter_map(|d| c.item(&d.tag)).map(|i| Lesson::Topic(Topic::Item(i))));
        all.extend(r.races.iter().filter_map(|d| c.race(&d.tag)).map(|x| Lesson::Topic(Topic::Race(x))));
        all.extend((0..r.constructions.constructions.len() as u32).map(|k| Lesson::Topic(Topic::Construction(k))));
        all.extend(
            r.enchantments
                .enchantments
                .iter()
                .filter_map(|d| c.effect(&d.tag))
                .map(|e| Lesson::Topic(Topic::Enchantment(e))),
        );
        all.extend(r.skills.iter().filter_map(|d| c.skill(&d.tag)).map(|s| Lesson::Skill(s, 1, u32::MAX)));
        all
    }

    /// RPT-KNOW: a lesson's text kept for later reports is the text written for the
    /// first, whichever lessons were asked before it and on whichever thread.
    #[test]
    fn kept_texts_are_the_texts_written_afresh() {
        let c = Catalog::new(overlord_rules());
        let all = every_lesson(&c);
        assert!(all.len() > 100, "the rule set has its lessons: {}", all.len());
        // Each written into a store of its own: nothing kept.
        let fresh: Vec<_> = all.iter().map(|&l| lesson(&c, &Texts::new(&c), l, false)).collect();
        assert!(fresh.iter().filter(|r| r.iter().any(|k| !k.text.is_empty())).count() > 100, "texts are written");
        // One store, asked in the reverse order, then again in order: a text kept
        // under the wrong lesson would show here.
        let texts = Texts::new(&c);
        for &l in all.iter().rev() {
            lesson(&c, &texts, l, false);
        }
        for (l, want) in all.iter().zip(&fresh) {
            assert_eq!(&lesson(&c, &texts, *l, false), want);
        }
        // Skills asked from a middle level keep the same levels' texts.
        for (l, want) in all.iter().zip(&fresh) {
            if let Lesson::Skill(s, ..) = *l {
                assert_eq!(lesson(&c, &texts, Lesson::Skill(s, 2, u32::MAX), true).len(), want.len().saturating_sub(1));
                for (got, w) in lesson(&c, &texts, Lesson::Skill(s, 2, u32::MAX), true).iter().zip(want.iter().skip(1))
                {
                    assert_eq!((&got.text, got.level, got.again), (&w.text, w.level, true));
                }
            }
        }
        // Two threads sharing a store, each in its own order.
        let shared = Texts::new(&c);
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(|| all.iter().map(|&l| lesson(&c, &shared, l, false)).collect::<Vec<_>>());
            let b = s.spawn(|| all.iter().rev().map(|&l| lesson(&c, &shared, l, false)).collect::<Vec<_>>());
            (a.join().unwrap(), b.join().unwrap())
        });
        assert_eq!(a, fresh);
        assert_eq!(b.into_iter().rev().collect::<Vec<_>>(), fresh);
    }
}
