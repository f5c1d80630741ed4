//! What a faction knows of the rule set (RPT-KNOW, FAC-RESHOW).
//!
//! At the end of every month (and when a game starts), before the reports, each
//! faction learns what its units met:
//!
//! * **items** its units hold (and held when they left it this month), its funds, the goods bought and sold at the places
//!   where it has units, the resources they see there (RES-HIDDEN), and the items of
//!   weight carried by the units they see (VIS-ITEMS);
//! * **skills**: the levels its units reached, and the next level of each (the
//!   rules: "once you reach a skill level, the description of the next level is
//!   included"); the skills the places teach (LOC-TEACH) up to the level taught;
//! * **races** of its units, of the units they see and of the recruits offered;
//! * **constructions** standing where it has units, and those it owns;
//! * **enchantments** its units are under (those not hidden).
//!
//! Whatever a new piece of knowledge names is learnt with it, so that a report never
//! names a record it does not describe: an item its equipment skill and the skill
//! whose knowledge it brings; a skill level its prerequisites, what it makes, takes,
//! needs as tools, harvests, grants and summons; a construction its materials, its
//! building skill and what it produces. What a skill opens up (the skills requiring
//! it) is never learnt that way.
//!
//! What is learnt for the first time is put in [`Learnt`], which the report
//! describes in full; RESHOW asks for known records again ([`reshow`]).

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::mechanics::visibility::survey::{self, Survey};
use crate::systems::overlord::orders::Vocabulary;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::*;
use crate::systems::overlord::world::ids::SkillId;
use crate::systems::overlord::world::resources::{Departed, Departures, Directory};
use bevy_app::{App, Plugin};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use std::collections::BTreeMap;

#[cfg(test)]
mod tests;

/// Adds the month's learning to the plan's `knowledge` step.
pub struct KnowledgePlugin;

impl Plugin for KnowledgePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(crate::systems::overlord::mechanics::intake::ReshowRule(reshow));
        app.add_step_system("knowledge", learn);
    }
}

/// What one faction met this month: records, and skills with the level described.
#[derive(Debug, Default)]
struct Met {
    topics: TopicSet,
    /// The level described of each skill, by skill index (0: none).
    skills: Vec<u32>,
}

impl Met {
    fn skill(&mut self, s: SkillId, level: u32) {
        if s.index() >= self.skills.len() {
            self.skills.resize(s.index() + 1, 0);
        }
        let l = &mut self.skills[s.index()];
        *l = (*l).max(level);
    }
}

/// RPT-KNOW: every faction learns what its units met this month; what is new goes
/// into its [`Learnt`] with what RESHOW asked for. Leaves the [`Survey`] it took in
/// the world for the reports.
pub fn learn(world: &mut World) {
    let survey = Survey::new(world);
    let dir = world.resource::<Directory>();
    let factions = dir.factions.clone();
    let index: EntityHashMap<usize> = factions.iter().enumerate().map(|(i, &f)| (f, i)).collect();
    let units = dir.units_by_faction(world);
    let mut owned = vec![Vec::new(); factions.len()];
    for &s in &dir.structures {
        if let Some(&i) = world.get::<StructureOwner>(s).and_then(|o| o.0).and_then(|f| index.get(&f)) {
            owned[i].push(s);
        }
    }
    let mut departed = vec![Vec::new(); factions.len()];
    for d in world.get_resource::<Departures>().map_or(&[][..], |d| &d.0) {
        if let Some(&i) = index.get(&d.faction) {
            departed[i].push(d);
        }
    }
    let threads = world.get_resource::<crate::core::engine::ThreadCount>().map_or(1, |t| t.0).max(1);
    let positions: Vec<usize> = (0..factions.len()).collect();
    let lessons = crate::core::engine::parallel::map_ordered(&positions, threads, |&i| {
        let met = met(world, &survey, factions[i], &units[i], &owned[i], &departed[i]);
        lessons(world, factions[i], met)
    });
    for (&f, (topics, skills)) in factions.iter().zip(lessons) {
        let again = world.get_mut::<Reshow>(f).map(|mut r| std::mem::take(&mut r.0)).unwrap_or_default();
        let mut new = Vec::with_capacity(topics.len() + skills.len());
        if let Some(mut k) = world.get_mut::<Known>(f) {
            for &t in &topics {
                k.learn(t);
            }
        }
        new.extend(topics.into_iter().map(Lesson::Topic));
        if let Some(mut k) = world.get_mut::<KnownSkills>(f) {
            for &(s, from, to) in &skills {
                match k.0.iter_mut().find(|x| x.0 == s) {
                    Some(x) => x.1 = to,
                    None => k.0.push((s, to)),
                }
                new.push(Lesson::Skill(s, from, to));
            }
        }
        let again = again.into_iter().filter(|l| !new.contains(l)).collect();
        if let Some(mut l) = world.get_mut::<Learnt>(f) {
            *l = Learnt { new, again };
        }
    }
    world.insert_resource(survey);
}

/// What faction `fe`, with units `units` and structures `owned`, met this month.
fn met(world: &World, survey: &Survey, fe: Entity, units: &[Entity], owned: &[Entity], gone: &[&Departed]) -> Met {
    let catalog = world.resource::<Catalog>();
    let dir = world.resource::<Directory>();
    let mut m = Met::default();
    let levels = |s: SkillId| catalog.rules.skills[s.index()].system.levels.len() as u32;
    for &u in units {
        let r = world.entity(u);
        if let Some(race) = r.get::<Race>() {
            m.topics.insert(Topic::Race(race.0));
        }
        for h in r.get::<Inventory>().map_or(&[][..], |i| &i.0) {
            m.topics.insert(Topic::Item(h.item));
        }
        for &(s, x) in r.get::<Skills>().map_or(&[][..], |k| &k.0) {
            m.skill(s, (catalog.skill_level(s, x) + 1).min(levels(s)));
        }
        enchantments(catalog, r.get::<Effects>(), &mut m);
    }
    // Units that left this month are reported as they were (RPT-XFER).
    for d in gone {
        m.topics.insert(Topic::Race(d.race));
        m.topics.extend(d.items.iter().map(|h| Topic::Item(h.item)));
        for &(s, x) in &d.skills {
            m.skill(s, (catalog.skill_level(s, x) + 1).min(levels(s)));
        }
    }
    if let Some(f) = world.get::<Funds>(fe) {
        m.topics.extend(f.0.iter().map(|&(i, _)| Topic::Item(i)));
    }
    let view = survey.view(world, units);
    for &l in view.best.keys() {
        let le = dir.locations[l];
        let r = world.entity(le);
        if let Some(market) = r.get::<Market>() {
            let goods = market.sells.iter().chain(&market.buys).filter(|g| g.left() > 0);
            m.topics.extend(goods.map(|g| Topic::Item(g.item)));
        }
        for o in r.get::<Recruits>().map_or(&[][..], |x| &x.0) {
            if o.count > 0 {
                m.topics.insert(Topic::Race(o.race));
            }
        }
        for (item, _) in survey::resources_seen(world, le, view.own_at(l)) {
            m.topics.insert(Topic::Item(item));
        }
        for &(s, level) in r.get::<Teaches>().map_or(&[][..], |t| &t.0) {
            m.skill(s, level.min(levels(s)));
        }
        enchantments(catalog, r.get::<Effects>(), &mut m);
        for &s in &survey.structures_at[l] {
            if let Some(k) = world.get::<StructureKind>(s) {
                m.topics.insert(Topic::Construction(k.0 as u32));
            }
        }
        for (u, _) in survey.sighted(world, fe, l, &view) {
            let r = world.entity(u);
            if r.get::<Owner>().is_some_and(|o| o.0 == fe) {
                continue;
            }
            if let Some(race) = r.get::<Race>() {
                m.topics.insert(Topic::Race(race.0));
            }
            for h in r.get::<Inventory>().map_or(&[][..], |i| &i.0) {
                if h.count > 0 && catalog.rules.items[h.item.index()].weight > 0 {
                    m.topics.insert(Topic::Item(h.item));
                }
            }
        }
    }
    for &s in owned {
        if let Some(k) = world.get::<StructureKind>(s) {
            m.topics.insert(Topic::Construction(k.0 as u32));
        }
    }
    m
}

fn enchantments(catalog: &Catalog, fx: Option<&Effects>, m: &mut Met) {
    for &(e, _) in fx.map_or(&[][..], |f| &f.0) {
        if catalog.effect_shown(e) {
            m.topics.insert(Topic::Enchantment(e));
        }
    }
}

/// What faction `f` learns of what it met: the records it did not know, sorted, and
/// the skills with the levels newly described (first, last), in skill order; with
/// everything they name.
fn lessons(world: &World, f: Entity, mut met: Met) -> (Vec<Topic>, Vec<(SkillId, u32, u32)>) {
    let catalog = world.resource::<Catalog>();
    let known = world.get::<Known>(f);
    let known_skills = world.get::<KnownSkills>(f);
    let knows = |t: Topic| known.is_some_and(|k| k.knows(t));
    let level = |s: SkillId| known_skills.map_or(0, |k| k.level(s));
    let mut topics = TopicSet::default();
    let mut skills: BTreeMap<SkillId, (u32, u32)> = BTreeMap::new();
    let mut todo: Vec<Reference> = met.topics.iter().map(Reference::Topic).collect();
    let described = std::mem::take(&mut met.skills).into_iter().enumerate().filter(|&(_, l)| l > 0);
    todo.extend(described.map(|(s, l)| Reference::Skill(SkillId(s as u16), l)));
    while let Some(next) = todo.pop() {
        match next {
            Reference::Topic(t) => {
                if !knows(t) && topics.insert(t) {
                    references(catalog, t, &mut todo);
                }
            }
            Reference::Skill(s, l) => {
                // A level the skill does not have names nothing more than its last.
                let l = l.min(catalog.rules.skills[s.index()].system.levels.len() as u32);
                let was = skills.get(&s).map_or(level(s), |x| x.1);
                if l > was {
                    let from = skills.get(&s).map_or(level(s) + 1, |x| x.0);
                    skills.insert(s, (from, l));
                    for at in was + 1..=l {
                        skill_references(catalog, s, at, &mut todo);
                    }
                }
            }
        }
    }
    (topics.iter().collect(), skills.into_iter().map(|(s, (a, b))| (s, a, b)).collect())
}

/// A record or a skill level some knowledge names.
#[derive(Debug, Clone, Copy)]
enum Reference {
    Topic(Topic),
    Skill(SkillId, u32),
}

/// What record `t`'s description names (see the module's text).
fn references(catalog: &Catalog, t: Topic, out: &mut Vec<Reference>) {
    let skill = |tag: &str, level: u32, out: &mut Vec<Reference>| {
        if let Some(s) = catalog.skill(tag) {
            out.push(Reference::Skill(s, level.max(1)));
        }
    };
    match t {
        Topic::Item(i) => {
            let def = &catalog.rules.items[i.index()].system;
            if let Some(req) = &def.equip_skill {
                skill(&req.skill, req.level, out);
            }
            if let Some(k) = &def.knowledge {
                skill(k, 1, out);
            }
        }
        Topic::Construction(c) => {
            let def = &catalog.rules.constructions.constructions[c as usize];
            item_refs(catalog, def.materials.iter().map(|m| m.0.as_str()), out);
            item_refs(catalog, def.produces.iter().map(|m| m.0.as_str()), out);
            if let Some(b) = &def.building_skill
                && let Some(s) = catalog.skill(&b.0)
            {
                out.push(Reference::Skill(s, catalog.skill_level(s, b.1).max(1)));
            }
        }
        Topic::Race(_) | Topic::Enchantment(_) => {}
    }
}

fn item_refs<'a>(catalog: &Catalog, tags: impl Iterator<Item = &'a str>, out: &mut Vec<Reference>) {
    out.extend(tags.filter_map(|t| catalog.item(t)).map(|i| Reference::Topic(Topic::Item(i))));
}

/// What level `level` of skill `s` names: its prerequisites, and what it takes,
/// makes, needs, harvests, grants and summons.
fn skill_references(catalog: &Catalog, s: SkillId, level: u32, out: &mut Vec<Reference>) {
    let def = &catalog.rules.skills[s.index()].system;
    if level == 1 {
        for req in &def.requires {
            if let Some(r) = catalog.skill(&req.skill) {
                out.push(Reference::Skill(r, req.level.max(1)));
            }
        }
    }
    let Some(l) = def.levels.get(level as usize - 1) else { return };
    if let Some(p) = &l.production {
        item_refs(catalog, p.inputs.iter().map(|m| m.0.as_str()), out);
        item_refs(catalog, p.tools.iter().map(String::as_str), out);
        item_refs(catalog, p.harvest.iter().map(|m| m.0.as_str()), out);
        if let Some(o) = &p.output
            && let Some(t) = catalog.topic(o)
        {
            out.push(Reference::Topic(t));
        }
    }
    for g in &l.grants {
        if let Some(e) = catalog.effect(&g.0) {
            out.push(Reference::Topic(Topic::Enchantment(e)));
        }
    }
    if let Some(race) = l.summon.as_ref().and_then(|x| catalog.race(&x.race)) {
        out.push(Reference::Topic(Topic::Race(race)));
    }
}

/// Levels `from..=to` of skill `s` as a lesson.
fn skill_lesson(s: SkillId, from: u32, to: u32) -> Lesson {
    Lesson::Skill(s, from.max(1), to)
}

/// FAC-RESHOW: faction `f` asks for known records again, by `what`: `ALL`, a kind
/// (`ITEMS`, `SKILLS`, `RACES`, `STRUCTURES`, `ENCHANTMENTS`), or a tag (a skill's
/// from `level`, else from its first, up to the highest the faction knows). The
/// report of the month describes them. Returns what the faction is told.
pub fn reshow(world: &mut World, f: Entity, what: &str, level: Option<u32>) -> String {
    let catalog = world.resource::<Catalog>().clone();
    let known = world.get::<Known>(f).cloned().unwrap_or_default();
    let skills = world.get::<KnownSkills>(f).cloned().unwrap_or_default();
    let all_skills = || skills.0.iter().map(|&(s, l)| skill_lesson(s, 1, l)).collect::<Vec<_>>();
    let kind = |pick: fn(&Topic) -> bool| known.topics().filter(pick).map(Lesson::Topic).collect::<Vec<_>>();
    let lessons: Result<Vec<Lesson>, String> = match what.to_ascii_uppercase().as_str() {
        "ALL" => Ok(known.topics().map(Lesson::Topic).chain(all_skills()).collect()),
        "ITEMS" => Ok(kind(|t| matches!(t, Topic::Item(_)))),
        "SKILLS" => Ok(all_skills()),
        "RACES" => Ok(kind(|t| matches!(t, Topic::Race(_)))),
        "STRUCTURES" => Ok(kind(|t| matches!(t, Topic::Construction(_)))),
        "ENCHANTMENTS" => Ok(kind(|t| matches!(t, Topic::Enchantment(_)))),
        _ => match (<Catalog as Vocabulary>::skill(&catalog, what), catalog.topic(what)) {
            (Some(s), _) => match skills.level(s) {
                0 => Err(format!("your faction does not know the skill {what}")),
                top => match level.unwrap_or(1) {
                    l if l > top => Err(format!("your faction knows {what} only to level {top}")),
                    l => Ok(vec![skill_lesson(s, l, top)]),
                },
            },
            (None, Some(t)) if known.knows(t) => Ok(vec![Lesson::Topic(t)]),
            (None, Some(_)) => Err(format!("your faction does not know {what}")),
            (None, None) => Err(format!(
                "{what} is neither a record of the rules nor one of ALL, ITEMS, SKILLS, RACES, STRUCTURES, ENCHANTMENTS"
            )),
        },
    };
    let written = match level {
        Some(l) => format!("RESHOW {what} {l}"),
        None => format!("RESHOW {what}"),
    };
    match lessons {
        Err(why) => format!("{written} refused: {why}."),
        Ok(list) if list.is_empty() => format!("{written}: your faction knows nothing of that kind yet."),
        Ok(list) => {
            let n = list.len();
            if let Some(mut r) = world.get_mut::<Reshow>(f) {
                for l in list {
                    if !r.0.contains(&l) {
                        r.0.push(l);
                    }
                }
            }
            format!("{written}: {n} description{} in this report's knowledge.", if n == 1 { "" } else { "s" })
        }
    }
}
