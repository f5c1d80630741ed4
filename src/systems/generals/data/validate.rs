//! Checks a generals rule set and scenario: every reference, every number's
//! bounds, the map's adjacency both ways, one player's troops per region. All
//! problems in one pass, each with its file, line and column.

use super::rules::*;
use super::scenario::*;
use crate::core::data::ronpos::Seg;
use crate::core::data::validate::{Ids, Issues, Table, resolve, with};
use crate::core::diag::Diagnostic;
use std::collections::HashMap;

const RULESET: Table = Table::rules("ruleset.ron");
const TERRAINS: Table = Table::rules("terrains.ron");
const TROOPS: Table = Table::rules("troops.ron");
const SKILLS: Table = Table::rules("skills.ron");
const ORDERS: Table = Table::rules_in("combat.ron", "orders");
const COMBAT: Table = Table::rules("combat.ron");
const GAME: Table = Table::scenario("game.ron");
const PLAYERS: Table = Table::scenario("players.ron");
const REGIONS: Table = Table::scenario("regions.ron");
const GENERALS: Table = Table::scenario("generals.ron");
const UNITS: Table = Table::scenario("troops.ron");

fn field(t: Table, i: usize, name: &'static str) -> Vec<Seg> {
    with(t.at(i), &[Seg::Field(name)])
}

/// The rule set's problems.
fn check_rules<'a>(c: &mut Issues, r: &'a RuleSet) -> (Ids<'a>, Ids<'a>, Ids<'a>, Ids<'a>) {
    let terrains = c.index(TERRAINS, "terrain", &r.terrains, |t| &t.tag);
    let troops = c.index(TROOPS, "troop type", &r.troops, |t| &t.tag);
    let skills = c.index(SKILLS, "skill", &r.skills, |s| &s.tag);
    let orders = c.index(ORDERS, "battle order", &r.combat.orders, |o| &o.tag);
    let mut names: HashMap<String, usize> = HashMap::new();
    for (i, o) in r.combat.orders.iter().enumerate() {
        if let Some(first) = names.insert(o.name.to_ascii_uppercase(), i) {
            c.error(
                ORDERS,
                field(ORDERS, i, "name"),
                format!("battle order name '{}' also names record {first}", o.name),
            );
        }
        if o.damage_percent == 0 && o.tag != r.combat.flee {
            c.error(ORDERS, field(ORDERS, i, "damage_percent"), "a battle order must deal some damage".into());
        }
    }
    let p = &r.info.parameters;
    let param = |name: &'static str| vec![Seg::Field("parameters"), Seg::Field(name)];
    if p.starting_skill_level == 0 || p.starting_skill_level > p.max_skill_level {
        c.error(
            RULESET,
            param("starting_skill_level"),
            format!("must be 1 to max_skill_level ({})", p.max_skill_level),
        );
    }
    if p.starting_skills as usize > r.skills.len() {
        let m = format!("a general cannot start with {} of the {} skills", p.starting_skills, r.skills.len());
        c.error(RULESET, param("starting_skills"), m);
    }
    for (name, v) in [
        ("overtax_income_step", p.overtax_income_step),
        ("overtax_hire_step", p.overtax_hire_step),
        ("move_army_reach", p.move_army_reach),
        ("renown_men", p.renown_men),
        ("scout_rounding", p.scout_rounding),
    ] {
        if v == 0 {
            c.error(RULESET, param(name), format!("{name} must be at least 1"));
        }
    }
    for (i, t) in r.troops.iter().enumerate() {
        c.keys(&terrains, "terrain", &t.terrain, TROOPS, &field(TROOPS, i, "terrain"));
        c.keys(&orders, "battle order", &t.orders, TROOPS, &field(TROOPS, i, "orders"));
        if t.health == 0 {
            c.error(TROOPS, field(TROOPS, i, "health"), "a troop type needs health".into());
        }
        if t.morale > 100 {
            c.error(TROOPS, field(TROOPS, i, "morale"), "morale is a percentage: 0 to 100".into());
        }
        if t.points == 0 && !t.undead {
            c.error(TROOPS, field(TROOPS, i, "points"), "a troop type for hire is worth at least 1 point".into());
        }
    }
    for (i, s) in r.skills.iter().enumerate() {
        if let SkillEffect::Order(o, _) = &s.effect {
            c.reference(&orders, "battle order", o, SKILLS, with(field(SKILLS, i, "effect"), &[Seg::Index(0)]));
        }
        if let SkillEffect::Undead(_) = s.effect
            && !r.troops.iter().any(|t| t.undead)
        {
            c.error(SKILLS, field(SKILLS, i, "effect"), "a necromancer needs an undead troop type".into());
        }
    }
    let cb = &r.combat;
    let side = |tag: &str| cb.orders.iter().find(|o| o.tag == tag).map(|o| o.side);
    for (name, tag, forbidden) in [
        ("discovered_into", &cb.discovered_into, None),
        ("prepared_as", &cb.prepared_as, Some(OrderSide::Offensive)),
        ("withdraw", &cb.withdraw, Some(OrderSide::Offensive)),
        ("flanking", &cb.flanking, Some(OrderSide::Defensive)),
        ("flanking_fallback", &cb.flanking_fallback, Some(OrderSide::Defensive)),
        ("flee", &cb.flee, None),
    ] {
        let path = vec![Seg::Field(name)];
        c.reference(&orders, "battle order", tag, COMBAT, path.clone());
        if let (Some(s), Some(wrong)) = (side(tag), forbidden)
            && s == wrong
        {
            c.error(COMBAT, path, format!("{name} '{tag}' cannot be given by that side ({s:?})"));
        }
    }
    if cb.max_rounds == 0 {
        c.error(COMBAT, vec![Seg::Field("max_rounds")], "a battle lasts at least one round".into());
    }
    for (name, v) in [
        ("veteran_winner_percent", cb.veteran_winner_percent),
        ("veteran_loser_percent", cb.veteran_loser_percent),
        ("general_death_percent", cb.general_death_percent),
    ] {
        if v > 100 {
            c.error(COMBAT, vec![Seg::Field(name)], format!("{name} is a percentage: 0 to 100"));
        }
    }
    (terrains, troops, skills, orders)
}

/// Checks `rules` and `s`; `rules_dir` and `scenario_dir` are read again only to
/// place the problems found.
pub fn validate(
    rules: &RuleSet,
    s: &Scenario,
    rules_dir: &std::path::Path,
    scenario_dir: &std::path::Path,
) -> Vec<Diagnostic> {
    let mut c = Issues::default();
    let (terrains, troop_types, skills, orders) = check_rules(&mut c, rules);
    let players = c.index_ids(PLAYERS, "player", &s.players, |p| &p.id);
    let regions = c.index_ids(REGIONS, "region", &s.regions, |r| &r.id);
    let generals = c.index(GENERALS, "general", &s.generals, |g| &g.name);
    let units = c.index_ids(UNITS, "troop unit", &s.troops, |t| &t.id);
    for (i, p) in s.players.iter().enumerate() {
        for (other, rel) in &p.relations {
            let path = with(field(PLAYERS, i, "relations"), &[Seg::Key(other.clone())]);
            match players.get(other.as_str()) {
                None => c.error(PLAYERS, path, format!("unknown player '{other}'")),
                Some(_) if other == &p.id => c.error(PLAYERS, path, "a player has no relation with itself".into()),
                Some(&k) => {
                    let back = s.players[k].relations.get(&p.id).copied().unwrap_or_default();
                    if back != *rel {
                        c.error(
                            PLAYERS,
                            path,
                            format!("{other} holds {} {back:?}, not {rel:?}: relations go both ways", p.id),
                        );
                    }
                }
            }
        }
    }
    let mut holder: HashMap<&str, &str> = HashMap::new();
    for (i, t) in s.troops.iter().enumerate() {
        c.reference(&players, "player", &t.player, UNITS, field(UNITS, i, "player"));
        c.reference(&troop_types, "troop type", &t.kind, UNITS, field(UNITS, i, "type"));
        c.reference(&regions, "region", &t.region, UNITS, field(UNITS, i, "region"));
        if t.men == 0 {
            c.error(UNITS, field(UNITS, i, "men"), "a troop unit has at least one man".into());
        }
        match holder.insert(&t.region, &t.player) {
            Some(other) if other != t.player => {
                let m = format!(
                    "region {} holds troops of {other} and {}: one player's troops per region",
                    t.region, t.player
                );
                c.error(UNITS, field(UNITS, i, "region"), m);
            }
            _ => {}
        }
    }
    for (i, r) in s.regions.iter().enumerate() {
        c.reference(&terrains, "terrain", &r.terrain, REGIONS, field(REGIONS, i, "terrain"));
        for (j, a) in r.adjacent.iter().enumerate() {
            let path = with(field(REGIONS, i, "adjacent"), &[Seg::Index(j)]);
            match regions.get(a.as_str()) {
                None => c.error(REGIONS, path, format!("unknown region '{a}'")),
                Some(_) if a == &r.id => c.error(REGIONS, path, "a region is not adjacent to itself".into()),
                Some(&k) if !s.regions[k].adjacent.contains(&r.id) => {
                    c.error(REGIONS, path, format!("{a} does not list {} as adjacent: adjacency goes both ways", r.id));
                }
                Some(_) => {}
            }
        }
        for (j, t) in r.hires.iter().enumerate() {
            c.reference(&troop_types, "troop type", t, REGIONS, with(field(REGIONS, i, "hires"), &[Seg::Index(j)]));
        }
        if r.income.0 > r.income.1 {
            c.error(
                REGIONS,
                field(REGIONS, i, "income"),
                "income above its original value (overtax lasts a turn)".into(),
            );
        }
        if r.hire_limit.0 > r.hire_limit.1 {
            let m = "hire limit above its original value (overtax lasts a turn)".into();
            c.error(REGIONS, field(REGIONS, i, "hire_limit"), m);
        }
        c.reference(&orders, "battle order", &r.defense, REGIONS, field(REGIONS, i, "defense"));
        let side = rules.combat.orders.iter().find(|o| o.tag == r.defense).map(|o| o.side);
        if side == Some(OrderSide::Offensive) {
            c.error(REGIONS, field(REGIONS, i, "defense"), format!("'{}' is not a defensive order", r.defense));
        }
        if let Some(g) = &r.prepared_by {
            match generals.get(g.as_str()) {
                None => c.error(REGIONS, field(REGIONS, i, "prepared_by"), format!("unknown general '{g}'")),
                Some(&k) if s.generals[k].region != r.id => {
                    c.error(REGIONS, field(REGIONS, i, "prepared_by"), format!("{g} is not in {}", r.id));
                }
                Some(_) => {}
            }
        }
    }
    let max = rules.info.parameters.max_skill_level;
    for (i, g) in s.generals.iter().enumerate() {
        c.reference(&players, "player", &g.player, GENERALS, field(GENERALS, i, "player"));
        c.reference(&regions, "region", &g.region, GENERALS, field(GENERALS, i, "region"));
        for (tag, &level) in &g.skills {
            let path = with(field(GENERALS, i, "skills"), &[Seg::Key(tag.clone())]);
            if !skills.contains_key(tag.as_str()) {
                c.error(GENERALS, path, format!("unknown skill '{tag}'"));
            } else if level == 0 || level > max {
                c.error(GENERALS, path, format!("skill level {level} is outside 1 to {max}"));
            }
        }
        if let Some(t) = &g.champion {
            match units.get(t.as_str()) {
                None => c.error(GENERALS, field(GENERALS, i, "champion"), format!("unknown troop unit '{t}'")),
                Some(&k) if s.troops[k].player != g.player => {
                    c.error(GENERALS, field(GENERALS, i, "champion"), format!("{t} is not {}'s", g.player));
                }
                Some(_) => {}
            }
        }
    }
    for region in s.game.victory.regions.keys() {
        c.reference(
            &regions,
            "region",
            region,
            GAME,
            vec![Seg::Field("victory"), Seg::Field("regions"), Seg::Key(region.clone())],
        );
    }
    if s.game.ruleset.is_empty() {
        c.error(GAME, vec![Seg::Field("ruleset")], "the scenario names no rule set".into());
    } else if let Some(why) = crate::core::data::validate::id_problem(&s.game.ruleset) {
        c.error(GAME, vec![Seg::Field("ruleset")], format!("the rule set's name: {why}"));
    }
    if let Some(why) = crate::core::data::validate::turn_problem(s.game.turn) {
        c.error(GAME, vec![Seg::Field("turn")], why);
    }
    resolve(&c.0, rules_dir, scenario_dir)
}
