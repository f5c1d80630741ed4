//! New players (§29 of the rules; START-UNITS, START-TYPE, START-PLACE,
//! START-FUNDS): a faction made between two turns from the rule set's
//! `starts.ron` and the scenario's start places (`game.ron`, `joining`).
//!
//! A new faction gets the rule set's funds plus its start place's bonus, a leader
//! and the units stacked under it, and what its start type gives: skills at their
//! level, items, the options the player chose, items drawn at random (from the
//! game's seed, the turn and the faction's id) and the land lore of the start
//! place's terrain. Where it starts: the location the player named, or of the kind
//! named, the first with fewer than `fair` starts (so that factions joining together
//! meet), else the one with the fewest starts. The choices where the rules are vague
//! are in `docs/joining.md`.
//!
//! [`join`] works on the saved state (a [`Scenario`]); the core writes the turn
//! again with the new faction and its first report.

#[cfg(test)]
mod tests;

use crate::core::engine::rng::{key_of, stream};
use crate::core::system::{JoinRequest, Joined};
use crate::systems::overlord::data::{
    Faction, FactionStart, ItemHolding, LocationKind, RuleSet, Scenario, SkillExperience, StartPlace, StartType,
    StartUnit, Tag, Unit, ordinal,
};
use rand::RngExt;
use std::collections::BTreeMap;

/// Adds the faction `req` asks for to `s`; on an error `s` is left as it was.
pub fn join(rules: &RuleSet, s: &mut Scenario, req: &JoinRequest) -> Result<Joined, String> {
    let starts = &rules.starts;
    let joining = &s.game.joining;
    let name = req.name.trim();
    if name.is_empty() || name.contains(['\n', '\r', '[', ']']) {
        return Err("a faction name is one line of text without brackets".into());
    }
    if s.factions.iter().any(|f| f.name.eq_ignore_ascii_case(name)) {
        return Err(format!("a faction is already named '{name}'"));
    }
    let email = req.email.trim();
    if email.is_empty() || email.contains(char::is_whitespace) || !email.contains('@') {
        return Err(format!("'{email}' is not a mail address"));
    }
    if req.password.is_empty() || req.password.contains(char::is_whitespace) {
        return Err("a password is one word".into());
    }
    if starts.types.is_empty() || starts.leader.race.is_empty() {
        return Err("the rule set gives new factions nothing (starts.ron has no leader or no start types)".into());
    }
    if joining.places.is_empty() {
        return Err("the game has no start places (game.ron: joining, places)".into());
    }
    if joining.default_stance.is_empty() {
        return Err("the game gives new factions no default stance (game.ron: joining, default_stance)".into());
    }
    let kind = start_type(starts.types.as_slice(), &req.start)?;
    let (place, location) = start_place(s, &req.place)?;
    let mut picked = choices(rules, kind, &req.choices)?;

    let faction = next_id(s.factions.iter().map(|f| f.id.as_str()), "f", 2);
    let mut lines = vec![format!("{name} [{faction}] starts as {} in {}", kind.name, place_name(s, &location))];

    // The leader's skills and items.
    let mut skills: Vec<(Tag, u32)> = kind.skills.iter().map(|r| (r.skill.clone(), r.level)).collect();
    let mut items: Vec<ItemHolding> = starts.leader.items.iter().chain(&kind.items).cloned().collect();
    for o in picked.drain(..) {
        skills.push((o.skill.skill.clone(), o.skill.level));
        items.extend(o.items.iter().cloned());
    }
    if kind.lore > 0 {
        let terrain = outer_terrain(s, &location);
        match starts.lore.get(terrain) {
            Some(skill) => skills.push((skill.clone(), kind.lore)),
            None => lines.push(format!("no land lore for the terrain '{terrain}' of the start place")),
        }
    }
    if let Some(r) = &kind.random_items {
        let mut rng = stream(s.game.seed, s.game.turn, "join", key_of(&faction));
        let mut pool = r.from.clone();
        for i in 0..(r.count as usize).min(pool.len()) {
            let j = rng.random_range(i..pool.len());
            pool.swap(i, j);
            items.push(ItemHolding(pool[i].clone(), 1, 0));
        }
    }
    let mut leader_skills = Vec::with_capacity(skills.len());
    for (skill, level) in &skills {
        let xp = experience(rules, skill, *level)?;
        match leader_skills.iter_mut().find(|SkillExperience(t, _)| t == skill) {
            Some(SkillExperience(_, have)) => *have = (*have).max(xp),
            None => leader_skills.push(SkillExperience(skill.clone(), xp)),
        }
        lines.push(format!("{} {}", ordinal(*level), skill_name(rules, skill)));
    }

    // What the leader cannot use yet it carries (ITM-EQSKILL).
    let mut items = merge(items);
    for ItemHolding(tag, _, equipped) in items.iter_mut() {
        let need = rules.items.iter().find(|i| &i.tag == tag).and_then(|i| i.system.equip_skill.as_ref());
        if let Some(req) = need.filter(|_| *equipped > 0) {
            let has = leader_skills.iter().find(|SkillExperience(s, _)| *s == req.skill).map_or(0, |x| x.1);
            if experience(rules, &req.skill, req.level).is_ok_and(|xp| has < xp) {
                *equipped = 0;
                let what = format!("{} {}", ordinal(req.level), skill_name(rules, &req.skill));
                lines.push(format!("{tag} carried, not equipped: it needs {what}"));
            }
        }
    }

    // The units: the leader, then those stacked under it.
    let leader_id = next_id(s.units.iter().map(|u| u.id.as_str()), "U", 1);
    let mut units = vec![unit(&starts.leader, &leader_id, &faction, &location, None, items, leader_skills)];
    for f in &starts.followers {
        let id = next_id(units.iter().map(|u| u.id.as_str()), "U", 1);
        units.push(unit(f, &id, &faction, &location, Some(&leader_id), merge(f.items.clone()), Vec::new()));
    }
    for u in &units {
        let held = u.items.iter().map(|ItemHolding(t, n, _)| format!("{n} {t}")).collect::<Vec<_>>();
        let held = if held.is_empty() { String::new() } else { format!(", with {}", held.join(", ")) };
        lines.push(format!("unit {} [{}]: {} {}{held}", u.name, u.id, u.figures, u.race));
    }

    let mut funds = starts.funds.clone();
    for (item, n) in &place.bonus {
        *funds.entry(item.clone()).or_default() += n;
    }
    let held = funds.iter().map(|(t, n)| format!("{n} {t}")).collect::<Vec<_>>();
    lines.push(format!("faction funds: {}", held.join(", ")));
    let start = FactionStart { kind: kind.tag.clone(), place: place.tag.clone(), location, turn: s.game.turn };
    s.factions.push(Faction {
        id: faction.clone(),
        name: name.to_string(),
        password: req.password.clone(),
        email: email.to_string(),
        npc: false,
        default_stance: joining.default_stance.clone(),
        stances: joining.stances.clone(),
        funds,
        known_skills: Vec::new(),
        known: Vec::new(),
        destroyed: false,
        settings: Default::default(),
        takes_resignations: false,
        creatures: false,
        serves_overlord: false,
        start: Some(start),
        provoked: None,
        spared_by: Vec::new(),
        explored: Vec::new(),
    });
    s.units.extend(units);
    Ok(Joined { faction, lines })
}

/// The start type named `word`.
fn start_type<'r>(types: &'r [StartType], word: &str) -> Result<&'r StartType, String> {
    types.iter().find(|t| t.tag.eq_ignore_ascii_case(word) || t.name.eq_ignore_ascii_case(word)).ok_or_else(|| {
        let all = types.iter().map(|t| t.tag.as_str()).collect::<Vec<_>>().join(", ");
        format!("no start type '{word}': choose one of {all}")
    })
}

/// The start place named `word` (a kind of place, or one location of a kind), and
/// the location the faction enters.
fn start_place(s: &Scenario, word: &str) -> Result<(StartPlace, Tag), String> {
    let places = &s.game.joining.places;
    if let Some(p) = places.iter().find(|p| p.tag.eq_ignore_ascii_case(word) || p.name.eq_ignore_ascii_case(word)) {
        let starts =
            |l: &Tag| s.factions.iter().filter(|f| f.start.as_ref().is_some_and(|st| &st.location == l)).count();
        let open = p.fair.and_then(|fair| p.locations.iter().find(|l| starts(l) < fair as usize));
        let fewest = || p.locations.iter().min_by_key(|l| starts(l));
        let Some(l) = open.or_else(fewest) else { return Err(format!("the start place '{}' has no location", p.tag)) };
        return Ok((p.clone(), l.clone()));
    }
    for p in places {
        if let Some(l) = p.locations.iter().find(|l| l.eq_ignore_ascii_case(word)) {
            return Ok((p.clone(), l.clone()));
        }
    }
    let all = places.iter().map(|p| p.tag.as_str()).collect::<Vec<_>>().join(", ");
    Err(format!("no start place '{word}': choose one of {all}, or one of their locations"))
}

/// The options the player chose for each choice of the start type, in order.
fn choices<'r>(
    rules: &'r RuleSet,
    kind: &'r StartType,
    words: &[String],
) -> Result<Vec<&'r crate::systems::overlord::data::StartOption>, String> {
    let mut words = words.iter().map(|w| w.trim()).filter(|w| !w.is_empty());
    let mut out = Vec::new();
    for ch in &kind.choices {
        let offered = || {
            ch.options
                .iter()
                .map(|o| format!("{} ({})", o.skill.skill, skill_name(rules, &o.skill.skill)))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut mine = Vec::new();
        for _ in 0..ch.count {
            let Some(w) = words.next() else {
                let what = if ch.count == 1 { format!("an {}", ch.name) } else { format!("{} {}s", ch.count, ch.name) };
                return Err(format!("the {} start needs {what}: {}", kind.tag, offered()));
            };
            let o = ch
                .options
                .iter()
                .find(|o| {
                    o.skill.skill.eq_ignore_ascii_case(w) || skill_name(rules, &o.skill.skill).eq_ignore_ascii_case(w)
                })
                .ok_or_else(|| format!("'{w}' is not a {} of the {} start: {}", ch.name, kind.tag, offered()))?;
            if mine.iter().any(|m: &&crate::systems::overlord::data::StartOption| m.skill.skill == o.skill.skill) {
                return Err(format!("'{w}' chosen twice: the {} start takes {} different", kind.tag, ch.count));
            }
            mine.push(o);
        }
        out.extend(mine);
    }
    if let Some(w) = words.next() {
        return Err(format!("'{w}': the {} start asks for no more choices", kind.tag));
    }
    Ok(out)
}

/// One more than the highest number among the ids `prefix` + digits, with as
/// many digits as the longest of them (`f05` → `f06`, `f9` → `f10`, `U275` →
/// `U276`), or `width` when there is none.
fn next_id<'a>(ids: impl Iterator<Item = &'a str>, prefix: &str, width: usize) -> Tag {
    let (mut top, mut w) = (0u64, None);
    for id in ids {
        if let Some(n) = id.strip_prefix(prefix).filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) {
            w = Some(w.unwrap_or(0).max(n.len()));
            top = top.max(n.parse().unwrap_or(0));
        }
    }
    format!("{prefix}{:0w$}", top + 1, w = w.unwrap_or(width))
}

/// The experience of `level` in `skill`.
fn experience(rules: &RuleSet, skill: &str, level: u32) -> Result<u32, String> {
    let s = rules.skills.iter().find(|s| s.tag == skill).ok_or_else(|| format!("unknown skill '{skill}'"))?;
    let at = level.checked_sub(1).and_then(|i| s.system.levels.get(i as usize));
    at.map(|l| l.experience).ok_or_else(|| format!("skill '{skill}' has no {} level", ordinal(level)))
}

fn skill_name<'r>(rules: &'r RuleSet, skill: &'r str) -> &'r str {
    rules.skills.iter().find(|s| s.tag == skill).map_or(skill, |s| s.name.as_str())
}

/// The terrain around a location: its container's for an inner location.
fn outer_terrain<'s>(s: &'s Scenario, id: &str) -> &'s str {
    let mut l = s.locations.iter().find(|l| l.id == id);
    for _ in 0..s.locations.len() {
        match l {
            Some(x) if x.kind == LocationKind::Inner => {
                let Some(c) = &x.container else { break };
                l = s.locations.iter().find(|o| &o.id == c);
            }
            _ => break,
        }
    }
    l.map_or("", |l| l.terrain.as_str())
}

fn place_name(s: &Scenario, id: &str) -> String {
    s.locations.iter().find(|l| l.id == id).map_or_else(|| id.to_string(), |l| format!("{} [{}]", l.name, l.id))
}

/// Items with the same tag added together, in first-seen order.
fn merge(items: Vec<ItemHolding>) -> Vec<ItemHolding> {
    let mut out: Vec<ItemHolding> = Vec::with_capacity(items.len());
    let mut at: BTreeMap<Tag, usize> = BTreeMap::new();
    for ItemHolding(t, n, e) in items {
        match at.get(&t) {
            Some(&i) => {
                out[i].1 += n;
                out[i].2 += e;
            }
            None => {
                at.insert(t.clone(), out.len());
                out.push(ItemHolding(t, n, e));
            }
        }
    }
    out
}

fn unit(
    u: &StartUnit,
    id: &str,
    faction: &str,
    location: &str,
    leader: Option<&str>,
    items: Vec<ItemHolding>,
    skills: Vec<SkillExperience>,
) -> Unit {
    Unit {
        id: id.to_string(),
        name: u.name.clone(),
        faction: faction.to_string(),
        race: u.race.clone(),
        figures: u.figures,
        location: location.to_string(),
        stack_leader: leader.map(str::to_string),
        items,
        skills,
        ..Default::default()
    }
}
