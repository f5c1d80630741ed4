//! Cross-reference checks of a rule set and a scenario.
//!
//! The validator reports *all* problems in one pass. Each problem names the file
//! and the path of the offending value; [`resolve`] turns paths into line and
//! column by reading the file again (only when there is something to report).

use super::common::*;
use super::rules::*;
use super::scenario::*;
use crate::core::data::ronpos::{Path, Seg};
use crate::core::data::tables::{self, CoreTables, ITEMS, MODES, RACES, SEASONS, SKILLS, TERRAINS, WEATHERS};
use crate::core::data::validate::{Ids, Issues, Table, with};
pub use crate::core::data::validate::{Issue, Origin, resolve};
use petgraph::algo::tarjan_scc;
use petgraph::graphmap::DiGraphMap;
use std::collections::HashMap;

/// Counts of the records of a game, for the validation summary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Locations.
    pub locations: usize,
    /// Units.
    pub units: usize,
    /// Factions.
    pub factions: usize,
    /// Structures.
    pub structures: usize,
    /// Skills.
    pub skills: usize,
    /// Items.
    pub items: usize,
    /// Races.
    pub races: usize,
    /// Terrains.
    pub terrains: usize,
    /// Constructions.
    pub constructions: usize,
    /// Titles.
    pub titles: usize,
    /// Enchantments.
    pub enchantments: usize,
    /// Seasons.
    pub seasons: usize,
    /// Weathers.
    pub weathers: usize,
}

impl Counts {
    /// Counts the records of a rule set and scenario.
    pub fn of(r: &RuleSet, s: &Scenario) -> Counts {
        Counts {
            locations: s.locations.len(),
            units: s.units.len(),
            factions: s.factions.len(),
            structures: s.structures.len(),
            skills: r.skills.len(),
            items: r.items.len(),
            races: r.races.len(),
            terrains: r.terrains.len(),
            constructions: r.constructions.constructions.len(),
            titles: r.titles.len(),
            enchantments: r.enchantments.enchantments.len(),
            seasons: r.climate.seasons.len(),
            weathers: r.climate.weathers.len(),
        }
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} locations, {} units, {} factions, {} structures; rules: {} skills, {} items, {} races, \
             {} terrains, {} constructions, {} titles, {} enchantments, {} seasons, {} weathers",
            self.locations,
            self.units,
            self.factions,
            self.structures,
            self.skills,
            self.items,
            self.races,
            self.terrains,
            self.constructions,
            self.titles,
            self.enchantments,
            self.seasons,
            self.weathers
        )
    }
}

const SLOTS: Table = Table::rules("equipment.ron");
const WORKS: Table = Table::rules_in("constructions.ron", "works");
const CONSTRUCTIONS: Table = Table::rules_in("constructions.ron", "constructions");
const TITLES: Table = Table::rules("titles.ron");
const ENCHANTMENTS: Table = Table::rules_in("enchantments.ron", "enchantments");
const EFFECTS: Table = Table::rules_in("enchantments.ron", "effects");
const ACTIONS: Table = Table::rules_in("enchantments.ron", "actions");
const DAMAGE: Table = Table::rules_in("combat.ron", "damage_types");
const CFILES: Table = Table::rules_in("combat.ron", "files");
const CRANKS: Table = Table::rules_in("combat.ron", "ranks");
const CMOVES: Table = Table::rules_in("combat.ron", "moves");
const CSTANCES: Table = Table::rules_in("combat.ron", "stances");
const CTARGETS: Table = Table::rules_in("combat.ron", "targets");
const EVENTS: Table = Table::rules("events.ron");
const FACTIONS: Table = Table::scenario("factions.ron");
const LOCATIONS: Table = Table::scenario("locations.ron");
const STRUCTURES: Table = Table::scenario("structures.ron");
const UNITS: Table = Table::scenario("units.ron");

#[derive(Clone)]
struct Checker<'a> {
    issues: Issues,
    modes: Ids<'a>,
    dirs: Ids<'a>,
    slots: Ids<'a>,
    seasons: Ids<'a>,
    weathers: Ids<'a>,
    terrains: Ids<'a>,
    races: Ids<'a>,
    items: Ids<'a>,
    skills: Ids<'a>,
    works: Ids<'a>,
    constructions: Ids<'a>,
    titles: Ids<'a>,
    enchantments: Ids<'a>,
    effects: Ids<'a>,
    actions: Ids<'a>,
    stances: Ids<'a>,
    damage: Ids<'a>,
    cfiles: Ids<'a>,
    cranks: Ids<'a>,
    cmoves: Ids<'a>,
    cstances: Ids<'a>,
    ctargets: Ids<'a>,
    events: Ids<'a>,
}

impl<'a> Checker<'a> {
    /// The same tables, no problems yet: for checks made beside these (the
    /// problems found so far are not copied).
    fn fork(&mut self) -> Self {
        let issues = std::mem::take(&mut self.issues);
        let fork = self.clone();
        self.issues = issues;
        fork
    }

    fn push(&mut self, t: Table, path: Path, message: String) {
        self.issues.error(t, path, message);
    }

    fn warn(&mut self, t: Table, path: Path, message: String) {
        self.issues.warn(t, path, message);
    }

    fn index<T>(&mut self, t: Table, kind: &str, list: &'a [T], key: impl Fn(&'a T) -> &'a str) -> Ids<'a> {
        self.issues.index(t, kind, list, key)
    }
}

/// The path of the rule system's fields (`system:`) of record `i` of a core table.
fn sys(t: Table, i: usize) -> Path {
    with(t.at(i), &[Seg::Field("system")])
}

/// Checks one reference: `tag` must be in `ids`. The path is made only for an
/// issue: a big state checks hundreds of thousands of references.
macro_rules! refcheck {
    ($c:expr, $ids:ident, $kind:expr, $tag:expr, $t:expr, $path:expr) => {{
        let tag: &str = $tag;
        if !$c.$ids.contains_key(tag) {
            $c.issues.reference(&$c.$ids, $kind, tag, $t, $path)
        }
    }};
}

/// `economy.ron`: its references exist, its bounds are in order.
fn check_economy(c: &mut Checker, e: &super::rules::Economy) {
    let t = Table::rules("economy.ron");
    let f = |names: &[&'static str]| names.iter().map(|n| Seg::Field(n)).collect::<Vec<_>>();
    for (i, tag) in e.no_recruit_in.iter().enumerate() {
        refcheck!(c, constructions, "construction", tag, t, with(f(&["no_recruit_in"]), &[Seg::Index(i)]));
    }
    for (i, tag) in e.offered_everywhere.iter().enumerate() {
        refcheck!(c, races, "race", tag, t, with(f(&["offered_everywhere"]), &[Seg::Index(i)]));
    }
    for (i, tag) in e.population.food.iter().enumerate() {
        refcheck!(c, items, "item", tag, t, with(f(&["population", "food"]), &[Seg::Index(i)]));
    }
    if let Some(p) = &e.population.plague {
        refcheck!(c, effects, "effect", p, t, f(&["population", "plague"]));
    }
    if let Some(req) = &e.land.pillage.skill {
        refcheck!(c, skills, "skill", &req.skill, t, f(&["land", "pillage", "skill"]));
    }
    let force = &e.land.force;
    if force.max_figures > 0 && force.max_figures < force.min_figures {
        c.push(t, f(&["land", "force", "max_figures"]), "max_figures is below min_figures".to_string());
    }
    if e.land.pillage.market_percent > 100 {
        c.push(t, f(&["land", "pillage", "market_percent"]), "market_percent is a share: at most 100".to_string());
    }
    for (name, d) in [("market", &e.market), ("recruits", &e.recruits)] {
        if d.ceiling_percent > 0 && d.ceiling_percent < d.floor_percent {
            c.push(t, f(&[name, "ceiling_percent"]), "the ceiling is below the floor".into());
        }
    }
    let p = &e.population;
    if p.wage_max < p.wage_min {
        c.push(t, f(&["population", "wage_max"]), "wage_max is below wage_min".into());
    }
}

/// `starts.ron`: what a new faction gets refers to races, items, skills and
/// terrains that exist, and every choice can be made.
fn check_starts(c: &mut Checker, s: &super::rules::Starts) {
    let t = Table::rules("starts.ron");
    let f = |names: &[&'static str]| names.iter().map(|n| Seg::Field(n)).collect::<Vec<_>>();
    for k in s.funds.keys() {
        refcheck!(c, items, "item", k, t, with(f(&["funds"]), &[Seg::Key(k.clone())]));
    }
    let units = std::iter::once((f(&["leader"]), &s.leader))
        .chain(s.followers.iter().enumerate().map(|(i, u)| (with(f(&["followers"]), &[Seg::Index(i)]), u)));
    for (base, u) in units {
        refcheck!(c, races, "race", &u.race, t, with(base.clone(), &[Seg::Field("race")]));
        if u.figures == 0 {
            c.push(t, with(base.clone(), &[Seg::Field("figures")]), "a unit has at least one figure".into());
        }
        check_item_holdings(c, &u.items, t, || with(base.clone(), &[Seg::Field("items")]));
    }
    if !s.types.is_empty() && s.leader.race.is_empty() {
        c.push(t, f(&["leader"]), "start types need a leader".into());
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, ty) in s.types.iter().enumerate() {
        let base = with(f(&["types"]), &[Seg::Index(i)]);
        if !seen.insert(ty.tag.to_ascii_lowercase()) {
            c.push(t, with(base.clone(), &[Seg::Field("tag")]), format!("start type '{}' given twice", ty.tag));
        }
        for (j, req) in ty.skills.iter().enumerate() {
            check_skill_req(c, req, t, with(base.clone(), &[Seg::Field("skills"), Seg::Index(j)]));
        }
        check_item_holdings(c, &ty.items, t, || with(base.clone(), &[Seg::Field("items")]));
        for (j, ch) in ty.choices.iter().enumerate() {
            let cb = with(base.clone(), &[Seg::Field("choices"), Seg::Index(j)]);
            if ch.count == 0 || ch.count as usize > ch.options.len() {
                let msg = format!(
                    "choose {} of {} options: count must be 1 to the number of options",
                    ch.count,
                    ch.options.len()
                );
                c.push(t, with(cb.clone(), &[Seg::Field("count")]), msg);
            }
            for (k, o) in ch.options.iter().enumerate() {
                let ob = with(cb.clone(), &[Seg::Field("options"), Seg::Index(k)]);
                check_skill_req(c, &o.skill, t, with(ob.clone(), &[Seg::Field("skill")]));
                check_item_holdings(c, &o.items, t, || with(ob.clone(), &[Seg::Field("items")]));
            }
        }
        if let Some(r) = &ty.random_items {
            let rb = with(base.clone(), &[Seg::Field("random_items")]);
            if r.count as usize > r.from.len() {
                let msg = format!("{} different items drawn from a list of {}", r.count, r.from.len());
                c.push(t, with(rb.clone(), &[Seg::Field("count")]), msg);
            }
            for (k, item) in r.from.iter().enumerate() {
                refcheck!(c, items, "item", item, t, with(rb.clone(), &[Seg::Field("from"), Seg::Index(k)]));
            }
        }
    }
    for (terrain, skill) in &s.lore {
        let p = with(f(&["lore"]), &[Seg::Key(terrain.clone())]);
        refcheck!(c, terrains, "terrain", terrain, t, p.clone());
        refcheck!(c, skills, "skill", skill, t, p);
    }
}

/// Checks the rule set and the scenario together and returns every problem found.
pub fn validate(r: &RuleSet, s: &Scenario) -> Vec<Issue> {
    let mut c = checker(r);
    check_rules(&mut c, r);
    check_scenario(&mut c, r, s);
    c.issues.0
}

/// The rule set's tables indexed, with the problems found indexing them.
fn checker(r: &RuleSet) -> Checker<'_> {
    let mut issues = Issues::default();
    // The core tables' own fields first; then Overlord's fields and tables.
    let core = tables::check(
        CoreTables {
            movement: &r.movement,
            climate: &r.climate,
            terrains: &r.terrains,
            races: &r.races,
            items: &r.items,
            skills: &r.skills,
            stances: &r.stances,
        },
        &mut issues,
    );
    let mut c = Checker {
        issues,
        modes: core.modes,
        dirs: core.directions,
        slots: Default::default(),
        seasons: core.seasons,
        weathers: core.weathers,
        terrains: core.terrains,
        races: core.races,
        items: core.items,
        skills: core.skills,
        works: Default::default(),
        constructions: Default::default(),
        titles: Default::default(),
        enchantments: Default::default(),
        effects: Default::default(),
        actions: Default::default(),
        stances: core.stances,
        damage: Default::default(),
        cfiles: Default::default(),
        cranks: Default::default(),
        cmoves: Default::default(),
        cstances: Default::default(),
        ctargets: Default::default(),
        events: Default::default(),
    };
    c.slots = c.index(SLOTS, "equipment slot", &r.equipment_slots, |m| &m.tag);
    c.works = c.index(WORKS, "construction work", &r.constructions.works, |m| &m.tag);
    c.constructions = c.index(CONSTRUCTIONS, "construction", &r.constructions.constructions, |m| &m.tag);
    c.titles = c.index(TITLES, "title", &r.titles, |m| &m.tag);
    c.enchantments = c.index(ENCHANTMENTS, "enchantment", &r.enchantments.enchantments, |m| &m.tag);
    c.effects = c.index(EFFECTS, "effect", &r.enchantments.effects, |m| &m.tag);
    c.actions = c.index(ACTIONS, "special action", &r.enchantments.actions, |m| &m.tag);
    c.damage = c.index(DAMAGE, "damage type", &r.combat.damage_types, |m| &m.tag);
    c.cfiles = c.index(CFILES, "combat file", &r.combat.files, |m| &m.tag);
    c.cranks = c.index(CRANKS, "combat rank", &r.combat.ranks, |m| &m.tag);
    c.cmoves = c.index(CMOVES, "combat move", &r.combat.moves, |m| &m.tag);
    c.cstances = c.index(CSTANCES, "combat stance", &r.combat.stances, |m| &m.tag);
    c.ctargets = c.index(CTARGETS, "combat target", &r.combat.targets, |m| &m.tag);
    c.events = c.index(EVENTS, "event type", &r.events, |m| &m.tag);
    c
}

fn check_modes(c: &mut Checker, map: &TagMap, t: Table, path: Path) {
    c.issues.keys(&c.modes, "movement mode", map, t, &path);
}

fn check_skill_keys(c: &mut Checker, map: &TagMap, t: Table, path: Path) {
    c.issues.keys(&c.skills, "skill", map, t, &path);
}

fn check_bonuses(c: &mut Checker, b: &Bonuses, t: Table, path: Path) {
    check_skill_keys(c, &b.study, t, with(path.clone(), &[Seg::Field("study")]));
    check_skill_keys(c, &b.learning_level, t, with(path.clone(), &[Seg::Field("learning_level")]));
    check_skill_keys(c, &b.use_, t, with(path.clone(), &[Seg::Field("use")]));
    check_skill_keys(c, &b.production, t, with(path.clone(), &[Seg::Field("production")]));
    check_modes(c, &b.movement, t, with(path, &[Seg::Field("movement")]));
}

fn check_skill_req(c: &mut Checker, req: &SkillLevelReq, t: Table, path: Path) {
    let p = with(path, &[Seg::Field("skill")]);
    refcheck!(c, skills, "skill", &req.skill, t, p);
}

/// Checks a unit's battle settings; `path` makes the path of the settings, asked
/// only for a setting that is wrong (a world of a million units makes none).
fn check_tactics(c: &mut Checker, tac: &CombatTactics, t: Table, path: impl Fn() -> Path) {
    let checks: [(&str, &Tag, &'static str); 4] = [
        ("combat stance", &tac.stance, "stance"),
        ("combat rank", &tac.rank, "rank"),
        ("combat file", &tac.file, "file"),
        ("combat move", &tac.movement, "movement"),
    ];
    for (kind, tag, field) in checks {
        if tag.is_empty() {
            continue;
        }
        let ok = match field {
            "stance" => c.cstances.contains_key(tag.as_str()),
            "rank" => c.cranks.contains_key(tag.as_str()),
            "file" => c.cfiles.contains_key(tag.as_str()),
            _ => c.cmoves.contains_key(tag.as_str()),
        };
        if !ok {
            c.push(t, with(path(), &[Seg::Field(field)]), format!("unknown {kind} '{tag}'"));
        }
    }
}

fn check_combat(c: &mut Checker, a: &CombatAction, t: Table, path: Path) {
    if let Some(tg) = &a.target {
        refcheck!(c, ctargets, "combat target", tg, t, with(path.clone(), &[Seg::Field("target")]));
    }
    if let Some(d) = &a.damage_type {
        refcheck!(c, damage, "damage type", d, t, with(path.clone(), &[Seg::Field("damage_type")]));
    }
    if let Some(Grant(e, _)) = &a.effect {
        refcheck!(c, enchantments, "enchantment", e, t, with(path.clone(), &[Seg::Field("effect")]));
    }
    if let Some(item) = &a.equipment {
        refcheck!(c, items, "item", item, t, with(path, &[Seg::Field("equipment")]));
    }
}

/// `combat.ron`'s `battle`: its skills, race, mode and slot exist; its shares are
/// shares; a battle can end.
fn check_battle(c: &mut Checker, b: &BattleRules) {
    let t = Table::rules("combat.ron");
    let at = |f: &'static str| vec![Seg::Field("battle"), Seg::Field(f)];
    let sk = &b.skills;
    let skills: [(&'static str, Option<&Tag>); 7] = [
        ("tactics", Some(&sk.tactics)),
        ("strategy", sk.strategy.as_ref()),
        ("ambush", Some(&sk.ambush)),
        ("fanatic", sk.fanatic.as_ref()),
        ("combat", Some(&sk.combat)),
        ("melee", Some(&sk.melee)),
        ("parry", Some(&sk.parry)),
    ];
    for (f, tag) in skills {
        if let Some(tag) = tag {
            refcheck!(c, skills, "skill", tag, t, with(at("skills"), &[Seg::Field(f)]));
        }
    }
    if let Some(r) = &b.hero_race {
        refcheck!(c, races, "race", r, t, at("hero_race"));
    }
    if let Some(m) = &b.flying_mode {
        refcheck!(c, modes, "movement mode", m, t, at("flying_mode"));
    }
    if let Some(s) = &b.mount_slot {
        refcheck!(c, slots, "equipment slot", s, t, at("mount_slot"));
    }
    for (f, v) in [
        ("strike_percent", b.strike_percent),
        ("deadly_percent", b.deadly_percent),
        ("avoid_percent_per_stealth", b.avoid_percent_per_stealth),
        ("morale_casualty_percent", b.morale_casualty_percent),
        ("rout_parry_fail_percent", b.rout_parry_fail_percent),
        ("heal_percent", b.heal_percent),
        ("loot_percent", b.loot_percent),
        ("title_loss_percent", b.title_loss_percent),
    ] {
        if v > 100 {
            c.push(t, at(f), format!("{f} is a chance or a share: at most 100"));
        }
    }
    for (f, v, most) in [
        ("max_rounds", b.max_rounds, 10_000),
        ("missile_defense_divisor", b.missile_defense_divisor, u32::MAX),
        ("quiet_rounds", b.quiet_rounds, u32::MAX),
        ("flee_rounds", b.flee_rounds, u32::MAX),
    ] {
        if v == 0 || v > most {
            c.push(t, at(f), format!("{f} must be between 1 and {most}"));
        }
    }
    check_tactics(c, &b.default_tactics, t, || at("default_tactics"));
    if c.cranks.is_empty() || c.cfiles.is_empty() {
        c.push(t, vec![Seg::Field("ranks")], "a battlefield needs at least one rank and one file".into());
    }
}

/// Checks what a unit holds; `path` makes the path of the list, asked only for a
/// holding that is wrong.
fn check_item_holdings(c: &mut Checker, items: &[ItemHolding], t: Table, path: impl Fn() -> Path) {
    for (j, ItemHolding(item, count, equipped)) in items.iter().enumerate() {
        refcheck!(c, items, "item", item, t, with(path(), &[Seg::Index(j), Seg::Index(0)]));
        if equipped > count {
            let msg = format!("{equipped} '{item}' equipped but only {count} owned");
            c.push(t, with(path(), &[Seg::Index(j), Seg::Index(2)]), msg);
        }
    }
}

fn check_rules(c: &mut Checker, r: &RuleSet) {
    let p = &r.info.parameters;
    let pp = |f: &'static str| vec![Seg::Field("parameters"), Seg::Field(f)];
    let info = Table::rules("ruleset.ron");
    for (name, v) in [
        ("experience_per_day", p.experience_per_day),
        ("figures_per_control_point", p.figures_per_control_point),
        ("mana_per_control_point", p.mana_per_control_point),
        ("mana_regen_days", p.mana_regen_days),
    ] {
        if v == 0 {
            c.push(info, pp(name), format!("{name} must be at least 1"));
        }
    }
    if p.ration_percent > 100 {
        c.push(info, pp("ration_percent"), "ration_percent is a share of upkeep: at most 100".into());
    }
    check_battle(c, &r.combat.battle);
    for (name, tag) in [
        ("overlord_holder_stance", &p.claims.overlord_holder_stance),
        ("overlord_loser_stance", &p.claims.overlord_loser_stance),
    ] {
        if !tag.is_empty() {
            let path = vec![Seg::Field("parameters"), Seg::Field("claims"), Seg::Field(name)];
            refcheck!(c, stances, "stance", tag, info, path);
        }
    }
    if r.info.system != super::rules::SYSTEM {
        let m = format!(
            "this is an Overlord rule set: its system is \"{}\", not \"{}\"",
            super::rules::SYSTEM,
            r.info.system
        );
        c.push(info, vec![Seg::Field("system")], m);
    }
    for (name, v) in [("guard_work_percent", p.guard_work_percent), ("journey_seen_percent", p.journey_seen_percent)] {
        if v > 100 {
            c.push(info, pp(name), format!("{name} is a share: at most 100"));
        }
    }
    for (i, t) in p.withdraw_terrains.iter().enumerate() {
        refcheck!(c, terrains, "terrain", t, info, with(pp("withdraw_terrains"), &[Seg::Index(i)]));
    }
    if let Some(req) = &p.follower_move_skill {
        refcheck!(c, skills, "skill", &req.skill, info, pp("follower_move_skill"));
    }
    if let Some(req) = &p.guard_skill {
        refcheck!(c, skills, "skill", &req.skill, info, pp("guard_skill"));
    }
    if let Some(e) = &p.dissent_effect {
        refcheck!(c, enchantments, "enchantment", e, info, pp("dissent_effect"));
    }
    for (i, item) in p.rations.iter().enumerate() {
        refcheck!(c, items, "item", item, info, with(pp("rations"), &[Seg::Index(i)]));
    }
    if !p.mana_item.is_empty() {
        refcheck!(c, items, "item", &p.mana_item, info, pp("mana_item"));
    }
    if !p.mana_event.is_empty() {
        refcheck!(c, events, "event type", &p.mana_event, info, pp("mana_event"));
    }
    check_economy(c, &r.economy);
    check_starts(c, &r.starts);
    for (i, m) in r.movement.modes.iter().enumerate() {
        if let Some(req) = &m.system.skill {
            check_skill_req(c, req, MODES, with(sys(MODES, i), &[Seg::Field("skill")]));
        }
    }
    for (i, s) in r.climate.seasons.iter().enumerate() {
        check_bonuses(c, &s.system.bonuses, SEASONS, with(sys(SEASONS, i), &[Seg::Field("bonuses")]));
    }
    for (i, w) in r.climate.weathers.iter().enumerate() {
        let base = sys(WEATHERS, i);
        check_bonuses(c, &w.system.bonuses, WEATHERS, with(base.clone(), &[Seg::Field("bonuses")]));
        for (j, n) in w.system.neighbour_weathers.iter().enumerate() {
            let p = with(base.clone(), &[Seg::Field("neighbour_weathers"), Seg::Index(j)]);
            refcheck!(c, weathers, "weather", n, WEATHERS, p);
        }
    }
    for (i, t) in r.terrains.iter().enumerate() {
        let base = sys(TERRAINS, i);
        if let Some(s) = &t.system.land_skill {
            refcheck!(c, skills, "skill", s, TERRAINS, with(base.clone(), &[Seg::Field("land_skill")]));
        }
        for (j, res) in t.system.resources.iter().enumerate() {
            let p = with(base.clone(), &[Seg::Field("resources"), Seg::Index(j), Seg::Field("item")]);
            refcheck!(c, items, "item", &res.item, TERRAINS, p);
        }
    }
    for (i, race) in r.races.iter().enumerate() {
        let base = sys(RACES, i);
        check_bonuses(c, &race.system.bonuses, RACES, with(base.clone(), &[Seg::Field("bonuses")]));
        for (j, SkillExperience(s, _)) in race.system.innate_skills.iter().enumerate() {
            let p = with(base.clone(), &[Seg::Field("innate_skills"), Seg::Index(j), Seg::Index(0)]);
            refcheck!(c, skills, "skill", s, RACES, p);
        }
        if race.system.hero && race.system.kind != RaceKind::Leader {
            c.push(RACES, with(base, &[Seg::Field("hero")]), format!("race '{}' is a hero but not a leader", race.tag));
        }
    }
    for (i, it) in r.items.iter().enumerate() {
        let base = sys(ITEMS, i);
        check_modes(c, &it.system.equipped_capacity, ITEMS, with(base.clone(), &[Seg::Field("equipped_capacity")]));
        if let Some(s) = &it.system.slot {
            refcheck!(c, slots, "equipment slot", s, ITEMS, with(base.clone(), &[Seg::Field("slot")]));
        }
        for (f, req) in [("equip_skill", &it.system.equip_skill), ("prospect_skill", &it.system.prospect_skill)] {
            if let Some(req) = req {
                check_skill_req(c, req, ITEMS, with(base.clone(), &[Seg::Field(f)]));
            }
        }
        check_bonuses(c, &it.system.bonuses, ITEMS, with(base.clone(), &[Seg::Field("bonuses")]));
        if let Some(a) = &it.system.combat {
            check_combat(c, a, ITEMS, with(base.clone(), &[Seg::Field("combat")]));
        }
        if let Some(k) = &it.system.knowledge {
            refcheck!(c, skills, "skill", k, ITEMS, with(base.clone(), &[Seg::Field("knowledge")]));
        }
    }
    check_skills(c, r);
    for (i, w) in r.constructions.constructions.iter().enumerate() {
        let base = CONSTRUCTIONS.at(i);
        for (j, ItemCount(m, _)) in w.materials.iter().enumerate() {
            let p = with(base.clone(), &[Seg::Field("materials"), Seg::Index(j), Seg::Index(0)]);
            refcheck!(c, works, "construction work", m, CONSTRUCTIONS, p);
        }
        if let Some(SkillExperience(s, _)) = &w.building_skill {
            let p = with(base.clone(), &[Seg::Field("building_skill"), Seg::Index(0)]);
            refcheck!(c, skills, "skill", s, CONSTRUCTIONS, p);
        }
        check_bonuses(c, &w.bonuses, CONSTRUCTIONS, with(base.clone(), &[Seg::Field("bonuses")]));
        check_modes(c, &w.capacity, CONSTRUCTIONS, with(base.clone(), &[Seg::Field("capacity")]));
        if let Some(t) = &w.title {
            refcheck!(c, titles, "title", t, CONSTRUCTIONS, with(base.clone(), &[Seg::Field("title")]));
        }
        if let Some(req) = &w.crew_skill {
            check_skill_req(c, req, CONSTRUCTIONS, with(base.clone(), &[Seg::Field("crew_skill")]));
        }
        for (j, ItemCount(p, _)) in w.produces.iter().enumerate() {
            if !is_product(c, p) {
                let path = with(base.clone(), &[Seg::Field("produces"), Seg::Index(j), Seg::Index(0)]);
                c.push(CONSTRUCTIONS, path, format!("unknown product '{p}'"));
            }
        }
    }
    for (i, t) in r.titles.iter().enumerate() {
        check_skill_req(c, &t.skill, TITLES, with(TITLES.at(i), &[Seg::Field("skill")]));
        check_bonuses(c, &t.bonuses, TITLES, with(TITLES.at(i), &[Seg::Field("bonuses")]));
        if let Some(right) = &t.cancels {
            let p = with(TITLES.at(i), &[Seg::Field("cancels")]);
            for (j, tag) in right.titles.iter().enumerate() {
                refcheck!(c, titles, "title", tag, TITLES, with(p.clone(), &[Seg::Field("titles"), Seg::Index(j)]));
            }
            refcheck!(c, skills, "skill", &right.skill, TITLES, with(p, &[Seg::Field("skill")]));
        }
    }
    for (i, e) in r.enchantments.enchantments.iter().enumerate() {
        let base = ENCHANTMENTS.at(i);
        check_modes(c, &e.capacity, ENCHANTMENTS, with(base.clone(), &[Seg::Field("capacity")]));
        check_bonuses(c, &e.bonuses, ENCHANTMENTS, with(base.clone(), &[Seg::Field("bonuses")]));
        if let Some(a) = &e.combat {
            check_combat(c, a, ENCHANTMENTS, with(base.clone(), &[Seg::Field("combat")]));
        }
        if let Some(a) = &e.action {
            refcheck!(c, actions, "special action", a, ENCHANTMENTS, with(base, &[Seg::Field("action")]));
        }
    }
    for (i, e) in r.enchantments.effects.iter().enumerate() {
        for (f, t) in [("infection", &e.infection), ("immunity", &e.immunity)] {
            if let Some(t) = t {
                refcheck!(c, enchantments, "enchantment", t, EFFECTS, with(EFFECTS.at(i), &[Seg::Field(f)]));
            }
        }
    }
    for (i, a) in r.enchantments.actions.iter().enumerate() {
        if let Some(e) = &a.effect {
            refcheck!(c, effects, "effect", e, ACTIONS, with(ACTIONS.at(i), &[Seg::Field("effect")]));
        }
    }
}

/// Anything a production may yield: items, works, constructions, races (summons),
/// enchantments, special actions and events.
fn is_product(c: &Checker, tag: &str) -> bool {
    c.events.contains_key(tag)
        || c.items.contains_key(tag)
        || c.works.contains_key(tag)
        || c.constructions.contains_key(tag)
        || c.enchantments.contains_key(tag)
        || c.actions.contains_key(tag)
        || c.races.contains_key(tag)
}

fn check_skills(c: &mut Checker, r: &RuleSet) {
    let mut graph: DiGraphMap<usize, ()> = DiGraphMap::new();
    for (i, sk) in r.skills.iter().enumerate() {
        let base = sys(SKILLS, i);
        graph.add_node(i);
        for (j, req) in sk.system.requires.iter().enumerate() {
            let p = with(base.clone(), &[Seg::Field("requires"), Seg::Index(j)]);
            match c.skills.get(req.skill.as_str()) {
                Some(&k) => {
                    graph.add_edge(i, k, ());
                    let levels = r.skills[k].system.levels.len();
                    if req.level as usize > levels {
                        let msg = format!(
                            "skill '{}' has {levels} level(s): level {} cannot be required",
                            req.skill, req.level
                        );
                        c.push(SKILLS, with(p, &[Seg::Field("level")]), msg);
                    }
                }
                None => c.push(SKILLS, with(p, &[Seg::Field("skill")]), format!("unknown skill '{}'", req.skill)),
            }
        }
        if let Some(w) = &sk.system.wisdom_item {
            refcheck!(c, items, "item", w, SKILLS, with(base.clone(), &[Seg::Field("wisdom_item")]));
        }
        if sk.system.levels.is_empty() && !sk.system.flags.contains(&SkillFlag::NoLearn) {
            c.warn(SKILLS, base.clone(), format!("skill '{}' has no levels", sk.tag));
        }
        let mut prev = 0;
        for (l, lv) in sk.system.levels.iter().enumerate() {
            let lp = with(base.clone(), &[Seg::Field("levels"), Seg::Index(l)]);
            if l > 0 && lv.experience <= prev {
                let msg = format!(
                    "skill '{}' level {} needs {} experience, not more than level {} ({prev})",
                    sk.tag,
                    l + 1,
                    lv.experience,
                    l
                );
                c.push(SKILLS, with(lp.clone(), &[Seg::Field("experience")]), msg);
            }
            prev = lv.experience;
            check_modes(c, &lv.capacity, SKILLS, with(lp.clone(), &[Seg::Field("capacity")]));
            check_bonuses(c, &lv.bonuses, SKILLS, with(lp.clone(), &[Seg::Field("bonuses")]));
            if let Some(pr) = &lv.production {
                let pp = with(lp.clone(), &[Seg::Field("production")]);
                if let Some(out) = pr.output.as_deref().filter(|o| !is_product(c, o)) {
                    c.push(SKILLS, with(pp.clone(), &[Seg::Field("output")]), format!("unknown product '{out}'"));
                }
                for (j, ItemCount(it, _)) in pr.inputs.iter().enumerate() {
                    let p = with(pp.clone(), &[Seg::Field("inputs"), Seg::Index(j), Seg::Index(0)]);
                    refcheck!(c, items, "item", it, SKILLS, p);
                }
                for (j, it) in pr.tools.iter().enumerate() {
                    refcheck!(c, items, "item", it, SKILLS, with(pp.clone(), &[Seg::Field("tools"), Seg::Index(j)]));
                }
                if let Some(ItemCount(h, _)) = &pr.harvest {
                    let p = with(pp.clone(), &[Seg::Field("harvest"), Seg::Index(0)]);
                    refcheck!(c, items, "item", h, SKILLS, p);
                }
                if let Some(ItemCount(u, _)) = &pr.upgrade {
                    let p = with(pp, &[Seg::Field("upgrade"), Seg::Index(0)]);
                    refcheck!(c, constructions, "construction", u, SKILLS, p);
                }
            }
            for (j, Grant(e, _)) in lv.grants.iter().enumerate() {
                let p = with(lp.clone(), &[Seg::Field("grants"), Seg::Index(j), Seg::Index(0)]);
                refcheck!(c, enchantments, "enchantment", e, SKILLS, p);
            }
            if let Some(sm) = &lv.summon {
                let sp = with(lp.clone(), &[Seg::Field("summon")]);
                refcheck!(c, races, "race", &sm.race, SKILLS, with(sp.clone(), &[Seg::Field("race")]));
                for (j, SkillExperience(s, _)) in sm.skills.iter().enumerate() {
                    let p = with(sp.clone(), &[Seg::Field("skills"), Seg::Index(j), Seg::Index(0)]);
                    refcheck!(c, skills, "skill", s, SKILLS, p);
                }
                check_item_holdings(c, &sm.items, SKILLS, || with(sp.clone(), &[Seg::Field("items")]));
                if let Some(t) = &sm.tactics {
                    check_tactics(c, t, SKILLS, || with(sp.clone(), &[Seg::Field("tactics")]));
                }
            }
            if let Some(a) = &lv.combat {
                check_combat(c, a, SKILLS, with(lp, &[Seg::Field("combat")]));
            }
        }
    }
    // Prerequisite cycles: every strongly connected component larger than one
    // skill, or a skill that requires itself.
    for scc in tarjan_scc(&graph) {
        let selfloop = scc.len() == 1 && graph.contains_edge(scc[0], scc[0]);
        if scc.len() > 1 || selfloop {
            let mut members: Vec<usize> = scc.clone();
            members.sort_unstable();
            let names: Vec<&str> = members.iter().map(|&i| r.skills[i].tag.as_str()).collect();
            let first = members[0];
            let msg = format!("skill prerequisites form a cycle: {}", names.join(" -> "));
            c.push(SKILLS, with(sys(SKILLS, first), &[Seg::Field("requires")]), msg);
        }
    }
}

/// The most days a month may have: every unit acts each day, so a month of
/// millions of days would never end.
pub const MAX_DAYS_PER_MONTH: u32 = 1000;

/// FILE-NEWID: a new id names a unit or structure still to be made this month; one
/// already in the world would make orders ambiguous.
fn not_new_ids<'a>(c: &mut Checker, t: Table, kind: &str, letter: char, ids: impl Iterator<Item = &'a str>) {
    for (i, id) in ids.enumerate() {
        if is_new_id(id, letter) {
            let msg = format!(
                "{kind} id '{id}' has the form of a new id (faction, n{letter}, two digits), which orders use for {kind}s not yet made"
            );
            c.push(t, with(t.at(i), &[Seg::Field("id")]), msg);
        }
    }
}

/// Locations and units checked in two halves at once from this many (of both) on.
const IN_TWO: usize = 20_000;

/// The ids of a state's records, by table.
struct StateIds<'i, 'a> {
    factions: &'i Ids<'a>,
    locations: &'i Ids<'a>,
    structures: &'i Ids<'a>,
    units: &'i Ids<'a>,
}

/// The checks of each unit of `range`, one by one.
fn check_units<'a>(
    c: &mut Checker<'a>,
    r: &'a RuleSet,
    s: &'a Scenario,
    range: std::ops::Range<usize>,
    ids: &StateIds<'_, 'a>,
) {
    for (i, u) in s.units.iter().enumerate().skip(range.start).take(range.len()) {
        // Paths are made only for what is wrong (a world of a million units is
        // checked without making one).
        let base = || UNITS.at(i);
        if !ids.factions.contains_key(u.faction.as_str()) {
            c.push(UNITS, with(base(), &[Seg::Field("faction")]), format!("unknown faction '{}'", u.faction));
        }
        let race = c.races.get(u.race.as_str()).map(|&k| &r.races[k]);
        match race {
            None => c.push(UNITS, with(base(), &[Seg::Field("race")]), format!("unknown race '{}'", u.race)),
            Some(rc) if rc.system.kind == RaceKind::Leader && u.figures > 1 => {
                let msg = format!(
                    "unit '{}' of leader race '{}' has {} figures (leaders are single)",
                    u.id, u.race, u.figures
                );
                c.push(UNITS, with(base(), &[Seg::Field("figures")]), msg);
            }
            _ => {}
        }
        // A unit with no figures is a stockpile of its items (ORD-MERGE).
        let loc_ok = ids.locations.contains_key(u.location.as_str());
        if !loc_ok {
            c.push(UNITS, with(base(), &[Seg::Field("location")]), format!("unknown location '{}'", u.location));
        }
        if let Some(j) = &u.journey {
            let jp = || with(base(), &[Seg::Field("journey")]);
            for (field, tag) in [("from", &j.from), ("to", &j.to)] {
                if !ids.locations.contains_key(tag.as_str()) {
                    c.push(UNITS, with(jp(), &[Seg::Field(field)]), format!("unknown location '{tag}'"));
                }
            }
            refcheck!(c, modes, "movement mode", &j.mode, UNITS, with(jp(), &[Seg::Field("mode")]));
            if u.location != j.from && u.location != j.to {
                let msg =
                    format!("unit '{}' is travelling from '{}' to '{}' but is in '{}'", u.id, j.from, j.to, u.location);
                c.push(UNITS, with(base(), &[Seg::Field("location")]), msg);
            }
            // Only a vessel travels with units inside (STR-SHIP).
            let vessel = u.structure.as_deref().and_then(|st| ids.structures.get(st)).is_some_and(|&k| {
                c.constructions
                    .get(s.structures[k].kind.as_str())
                    .is_some_and(|&x| !r.constructions.constructions[x].capacity.is_empty())
            });
            if u.structure.is_some() && !vessel {
                let msg = format!("unit '{}' is travelling and cannot be inside a structure other than a vessel", u.id);
                c.push(UNITS, with(base(), &[Seg::Field("structure")]), msg);
            }
        }
        if let Some(stid) = &u.structure {
            let p = || with(base(), &[Seg::Field("structure")]);
            match ids.structures.get(stid.as_str()) {
                None => c.push(UNITS, p(), format!("unknown structure '{stid}'")),
                Some(&k) if loc_ok && s.structures[k].location != u.location => {
                    let msg = format!(
                        "unit '{}' is in structure '{stid}', which stands in '{}', not '{}'",
                        u.id, s.structures[k].location, u.location
                    );
                    c.push(UNITS, p(), msg);
                }
                _ => {}
            }
        }
        if let Some(lid) = &u.stack_leader {
            let p = || with(base(), &[Seg::Field("stack_leader")]);
            match ids.units.get(lid.as_str()) {
                None => c.push(UNITS, p(), format!("unknown unit '{lid}'")),
                Some(&k) => {
                    let leader = &s.units[k];
                    let is_leader =
                        c.races.get(leader.race.as_str()).map(|&x| r.races[x].system.kind) == Some(RaceKind::Leader);
                    if k == i {
                        c.push(UNITS, p(), format!("unit '{}' is stacked under itself", u.id));
                    } else if !is_leader {
                        let msg = format!(
                            "unit '{}' is stacked under '{lid}', which is not a leader (race '{}')",
                            u.id, leader.race
                        );
                        c.push(UNITS, p(), msg);
                    } else if leader.location != u.location || leader.structure != u.structure {
                        let msg = format!("unit '{}' is stacked under '{lid}', which is elsewhere", u.id);
                        c.push(UNITS, p(), msg);
                    }
                    // A stack may hold other factions' units (ORD-STACK, ORD-ACCEPT).
                }
            }
        }
        check_item_holdings(c, &u.items, UNITS, || with(base(), &[Seg::Field("items")]));
        for (j, it) in u.items.iter().enumerate() {
            let ItemHolding(tag, _, equipped) = it;
            if *equipped > 0
                && let Some(&k) = c.items.get(tag.as_str())
            {
                let item = &r.items[k];
                let limit = item.system.max_per_figure.saturating_mul(u.figures);
                if item.system.slot.is_none() {
                    let msg = format!("'{tag}' cannot be equipped (it has no equipment slot)");
                    c.push(UNITS, with(base(), &[Seg::Field("items"), Seg::Index(j), Seg::Index(2)]), msg);
                } else if *equipped > limit {
                    let msg = format!("{equipped} '{tag}' equipped, at most {limit} for {} figures", u.figures);
                    c.push(UNITS, with(base(), &[Seg::Field("items"), Seg::Index(j), Seg::Index(2)]), msg);
                }
            }
        }
        if let Some(t) = &u.target {
            let known = ids.units.contains_key(t.as_str())
                || ids.locations.contains_key(t.as_str())
                || ids.structures.contains_key(t.as_str())
                || ids.factions.contains_key(t.as_str())
                || c.constructions.contains_key(t.as_str())
                || crate::systems::overlord::data::is_new_id(t, 'B')
                // ORD-TARGET: a target is kept as given; one naming a unit gone or
                // a place that is not there leaves the skill without a target.
                || t.len() > 1
                    && matches!(t.as_bytes()[0], b'U' | b'L' | b'B')
                    && t.bytes().skip(1).all(|b| b.is_ascii_digit());
            if !known {
                let msg = format!(
                    "unknown target '{t}': not a unit, location, structure, faction or construction, nor an id of one"
                );
                c.push(UNITS, with(base(), &[Seg::Field("target")]), msg);
            }
        }
        if let Some((tag, _)) = &u.production {
            refcheck!(c, skills, "skill", tag, UNITS, with(base(), &[Seg::Field("production"), Seg::Index(0)]));
        }
        for (j, super::rules::EffectDays(tag, _)) in u.effects.iter().enumerate() {
            let p = || with(base(), &[Seg::Field("effects"), Seg::Index(j), Seg::Index(0)]);
            refcheck!(c, enchantments, "enchantment", tag, UNITS, p());
        }
        for (j, SkillExperience(sk, _)) in u.skills.iter().enumerate() {
            let p = || with(base(), &[Seg::Field("skills"), Seg::Index(j), Seg::Index(0)]);
            refcheck!(c, skills, "skill", sk, UNITS, p());
            // A skill listed twice: the lists are short, so no map is made.
            if let Some(first) = u.skills[..j].iter().position(|x| x.0 == *sk) {
                c.push(UNITS, p(), format!("skill '{sk}' listed twice (first at skills[{first}])"));
            }
        }
        if let Some(t) = &u.tactics {
            check_tactics(c, t, UNITS, || with(base(), &[Seg::Field("tactics")]));
        }
    }
}

fn check_scenario<'a>(c: &mut Checker<'a>, r: &'a RuleSet, s: &'a Scenario) {
    let factions = c.issues.index_ids(FACTIONS, "faction", &s.factions, |f| &f.id);
    let locations = c.issues.index_ids(LOCATIONS, "location", &s.locations, |l| &l.id);
    let structures = c.issues.index_ids(STRUCTURES, "structure", &s.structures, |x| &x.id);
    let units = c.issues.index_ids(UNITS, "unit", &s.units, |u| &u.id);
    not_new_ids(c, UNITS, "unit", 'U', s.units.iter().map(|u| u.id.as_str()));
    not_new_ids(c, STRUCTURES, "structure", 'B', s.structures.iter().map(|x| x.id.as_str()));
    let game = Table::scenario("game.ron");
    if let Some(why) = crate::core::data::validate::turn_problem(s.game.turn) {
        c.push(game, vec![Seg::Field("turn")], why);
    }
    if let Some(why) = crate::core::data::validate::id_problem(&s.game.ruleset) {
        c.push(game, vec![Seg::Field("ruleset")], format!("the rule set's name: {why}"));
    }

    if !r.info.name.is_empty() && s.game.ruleset != r.info.name {
        let msg = format!("game names rule set '{}' but the rule set loaded is '{}'", s.game.ruleset, r.info.name);
        c.warn(game, vec![Seg::Field("ruleset")], msg);
    }
    if !(1..=MAX_DAYS_PER_MONTH).contains(&s.game.days_per_month) {
        let msg = format!("days_per_month must be 1 to {MAX_DAYS_PER_MONTH}");
        c.push(game, vec![Seg::Field("days_per_month")], msg);
    }
    if !r.climate.months.is_empty() && s.game.start_month as usize >= r.climate.months.len() {
        let msg = format!("start_month {} is past the last month ({})", s.game.start_month, r.climate.months.len() - 1);
        c.push(game, vec![Seg::Field("start_month")], msg);
    }

    let joining = &s.game.joining;
    if !joining.default_stance.is_empty() {
        let p = vec![Seg::Field("joining"), Seg::Field("default_stance")];
        refcheck!(c, stances, "stance", &joining.default_stance, game, p);
    }
    for (other, st) in &joining.stances {
        let p = vec![Seg::Field("joining"), Seg::Field("stances"), Seg::Key(other.clone())];
        if !factions.contains_key(other.as_str()) {
            c.push(game, p.clone(), format!("unknown faction '{other}'"));
        }
        refcheck!(c, stances, "stance", st, game, p);
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, place) in joining.places.iter().enumerate() {
        let base = vec![Seg::Field("joining"), Seg::Field("places"), Seg::Index(i)];
        if !seen.insert(place.tag.to_ascii_lowercase()) {
            c.push(game, with(base.clone(), &[Seg::Field("tag")]), format!("start place '{}' given twice", place.tag));
        }
        if place.locations.is_empty() {
            c.push(game, with(base.clone(), &[Seg::Field("locations")]), "a start place needs a location".into());
        }
        for (j, l) in place.locations.iter().enumerate() {
            if !locations.contains_key(l.as_str()) {
                let p = with(base.clone(), &[Seg::Field("locations"), Seg::Index(j)]);
                c.push(game, p, format!("unknown location '{l}'"));
            }
        }
        for k in place.bonus.keys() {
            refcheck!(c, items, "item", k, game, with(base.clone(), &[Seg::Field("bonus"), Seg::Key(k.clone())]));
        }
        if place.fair == Some(0) {
            c.push(game, with(base.clone(), &[Seg::Field("fair")]), "fair must be at least 1".into());
        }
    }

    for (i, f) in s.factions.iter().enumerate() {
        let base = FACTIONS.at(i);
        refcheck!(
            c,
            stances,
            "stance",
            &f.default_stance,
            FACTIONS,
            with(base.clone(), &[Seg::Field("default_stance")])
        );
        for (other, st) in &f.stances {
            let p = with(base.clone(), &[Seg::Field("stances"), Seg::Key(other.clone())]);
            if !factions.contains_key(other.as_str()) {
                c.push(FACTIONS, p.clone(), format!("unknown faction '{other}'"));
            }
            refcheck!(c, stances, "stance", st, FACTIONS, p);
        }
        for k in f.funds.keys() {
            refcheck!(c, items, "item", k, FACTIONS, with(base.clone(), &[Seg::Field("funds"), Seg::Key(k.clone())]));
        }
        if let Some(st) = &f.provoked {
            refcheck!(c, stances, "stance", st, FACTIONS, with(base.clone(), &[Seg::Field("provoked")]));
        }
        for (j, l) in f.explored.iter().enumerate() {
            if !locations.contains_key(l.as_str()) {
                let p = with(base.clone(), &[Seg::Field("explored"), Seg::Index(j)]);
                c.push(FACTIONS, p, format!("unknown location '{l}'"));
            }
        }
        for (j, s) in f.spared_by.iter().enumerate() {
            refcheck!(c, skills, "skill", s, FACTIONS, with(base.clone(), &[Seg::Field("spared_by"), Seg::Index(j)]));
        }
        for (j, req) in f.known_skills.iter().enumerate() {
            check_skill_req(c, req, FACTIONS, with(base.clone(), &[Seg::Field("known_skills"), Seg::Index(j)]));
        }
        for (j, k) in f.known.iter().enumerate() {
            let k = k.as_str();
            let known = [
                &c.items,
                &c.enchantments,
                &c.races,
                &c.skills,
                &c.constructions,
                &c.works,
                &c.titles,
                &c.terrains,
                &c.weathers,
                &c.seasons,
                &c.effects,
                &c.actions,
            ]
            .iter()
            .any(|ids| ids.contains_key(k));
            if !known {
                c.push(
                    FACTIONS,
                    with(base.clone(), &[Seg::Field("known"), Seg::Index(j)]),
                    format!("unknown record '{k}'"),
                );
            }
        }
    }

    // Containers must not form cycles.
    for (i, l) in s.locations.iter().enumerate() {
        let mut cur = l.container.as_deref();
        let mut steps = 0;
        while let Some(ct) = cur {
            if ct == l.id || steps > s.locations.len() {
                if ct == l.id && steps > 0 {
                    let msg = format!("location '{}' is inside itself through its containers", l.id);
                    c.push(LOCATIONS, with(LOCATIONS.at(i), &[Seg::Field("container")]), msg);
                }
                break;
            }
            steps += 1;
            cur = locations.get(ct).and_then(|&k| s.locations[k].container.as_deref());
        }
    }

    for (i, st) in s.structures.iter().enumerate() {
        let base = || STRUCTURES.at(i);
        refcheck!(c, constructions, "construction", &st.kind, STRUCTURES, with(base(), &[Seg::Field("kind")]));
        let p = || with(base(), &[Seg::Field("location")]);
        if structures.contains_key(st.location.as_str()) {
            let msg = format!(
                "structure '{}' stands inside structure '{}': structures cannot contain structures",
                st.id, st.location
            );
            c.push(STRUCTURES, p(), msg);
        } else if !locations.contains_key(st.location.as_str()) {
            c.push(STRUCTURES, p(), format!("unknown location '{}'", st.location));
        }
        if let Some(o) = &st.owner
            && !factions.contains_key(o.as_str())
        {
            c.push(STRUCTURES, with(base(), &[Seg::Field("owner")]), format!("unknown faction '{o}'"));
        }
        for (j, ItemCount(w, _)) in st.missing.iter().enumerate() {
            let p = || with(base(), &[Seg::Field("missing"), Seg::Index(j), Seg::Index(0)]);
            refcheck!(c, works, "construction work", w, STRUCTURES, p());
        }
        for (j, super::rules::EffectDays(tag, _)) in st.effects.iter().enumerate() {
            let p = || with(base(), &[Seg::Field("effects"), Seg::Index(j), Seg::Index(0)]);
            refcheck!(c, enchantments, "enchantment", tag, STRUCTURES, p());
        }
        if let Some(t) = &st.tactics {
            check_tactics(c, t, STRUCTURES, || with(base(), &[Seg::Field("tactics")]));
        }
    }

    let ids = StateIds { factions: &factions, locations: &locations, structures: &structures, units: &units };
    // The first territory at each hex: a later one there overlaps it.
    let mut hexes: HashMap<(i32, i32), usize> = HashMap::new();
    for (i, l) in s.locations.iter().enumerate() {
        if let (LocationKind::Territory, Some(h)) = (l.kind, l.hex) {
            hexes.entry(h).or_insert(i);
        }
    }
    let (m, n) = (s.locations.len(), s.units.len());
    if m + n < IN_TWO {
        check_locations(c, s, 0..m, &ids, &hexes);
        check_units(c, r, s, 0..n, &ids);
    } else {
        // Each location's and each unit's checks read the tables and the state
        // only: the first halves of both are checked beside the second halves,
        // their problems listed in each file's order.
        let (mut first, mut second) = (c.fork(), c.fork());
        std::thread::scope(|scope| {
            let head = scope.spawn(|| {
                check_locations(&mut first, s, 0..m / 2, &ids, &hexes);
                check_units(&mut first, r, s, 0..n / 2, &ids);
            });
            check_locations(&mut second, s, m / 2..m, &ids, &hexes);
            check_units(&mut second, r, s, n / 2..n, &ids);
            head.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        });
        c.issues.0.append(&mut first.issues.0);
        c.issues.0.append(&mut second.issues.0);
    }
    // Stacks must not form cycles (A under B under A).
    for (i, u) in s.units.iter().enumerate() {
        let mut cur = u.stack_leader.as_deref();
        let mut steps = 0;
        while let Some(l) = cur {
            if l == u.id {
                if steps > 0 {
                    let msg = format!("unit '{}' leads a stack that contains its own leader", u.id);
                    c.push(UNITS, with(UNITS.at(i), &[Seg::Field("stack_leader")]), msg);
                }
                break;
            }
            steps += 1;
            if steps > s.units.len() {
                break;
            }
            cur = units.get(l).and_then(|&k| s.units[k].stack_leader.as_deref());
        }
    }
}

/// The checks of each location of `range`, one by one; `hexes` gives the first
/// territory at each hex.
fn check_locations<'a>(
    c: &mut Checker<'a>,
    s: &'a Scenario,
    range: std::ops::Range<usize>,
    ids: &StateIds<'_, 'a>,
    hexes: &HashMap<(i32, i32), usize>,
) {
    for (i, l) in s.locations.iter().enumerate().take(range.end).skip(range.start) {
        let base = || LOCATIONS.at(i);
        refcheck!(c, terrains, "terrain", &l.terrain, LOCATIONS, with(base(), &[Seg::Field("terrain")]));
        for (j, super::rules::EffectDays(tag, _)) in l.effects.iter().enumerate() {
            let p = || with(base(), &[Seg::Field("effects"), Seg::Index(j), Seg::Index(0)]);
            refcheck!(c, enchantments, "enchantment", tag, LOCATIONS, p());
        }
        match (&l.kind, &l.container) {
            (LocationKind::Inner, None) => {
                c.push(LOCATIONS, base(), format!("inner location '{}' has no container", l.id));
            }
            (_, Some(ct)) => {
                let p = || with(base(), &[Seg::Field("container")]);
                if !ids.locations.contains_key(ct.as_str()) {
                    c.push(LOCATIONS, p(), format!("unknown location '{ct}'"));
                } else if ct == &l.id {
                    c.push(LOCATIONS, p(), format!("location '{}' contains itself", l.id));
                }
            }
            _ => {}
        }
        if let (LocationKind::Territory, Some(h)) = (l.kind, l.hex)
            && let Some(&first) = hexes.get(&h)
            && first != i
        {
            let msg = format!("territory '{}' at hex {h:?} overlaps '{}'", l.id, s.locations[first].id);
            c.push(LOCATIONS, with(base(), &[Seg::Field("hex")]), msg);
        }
        for (j, e) in l.exits.iter().enumerate() {
            let p = || with(base(), &[Seg::Field("exits"), Seg::Index(j)]);
            refcheck!(c, dirs, "direction", &e.dir, LOCATIONS, with(p(), &[Seg::Field("dir")]));
            if !ids.locations.contains_key(e.to.as_str()) {
                let msg = format!("exit {} of '{}' leads to missing location '{}'", e.dir, l.id, e.to);
                c.push(LOCATIONS, with(p(), &[Seg::Field("to")]), msg);
            }
            if let Some(m) = &e.mode {
                refcheck!(c, modes, "movement mode", m, LOCATIONS, with(p(), &[Seg::Field("mode")]));
            }
        }
        if let Some(w) = &l.weather {
            refcheck!(c, weathers, "weather", w, LOCATIONS, with(base(), &[Seg::Field("weather")]));
        }
        if let Some(o) = &l.owner {
            let p = || with(base(), &[Seg::Field("owner")]);
            if !ids.factions.contains_key(o.faction.as_str()) {
                c.push(LOCATIONS, with(p(), &[Seg::Field("faction")]), format!("unknown faction '{}'", o.faction));
            }
            if let Some(tl) = &o.title_location
                && !ids.locations.contains_key(tl.as_str())
            {
                c.push(LOCATIONS, with(p(), &[Seg::Field("title_location")]), format!("unknown location '{tl}'"));
            }
        }
        for (f, offers) in [("sells", &l.market.sells), ("buys", &l.market.buys)] {
            for (j, o) in offers.iter().enumerate() {
                let p = || with(base(), &[Seg::Field("market"), Seg::Field(f), Seg::Index(j), Seg::Field("item")]);
                refcheck!(c, items, "item", &o.item, LOCATIONS, p());
            }
        }
        for (j, d) in l.market.days.iter().enumerate() {
            if *d == 0 || *d > s.game.days_per_month {
                let p = || with(base(), &[Seg::Field("market"), Seg::Field("days"), Seg::Index(j)]);
                c.push(LOCATIONS, p(), format!("market day {d} is outside the month (1..={})", s.game.days_per_month));
            }
        }
        for (j, o) in l.recruits.iter().enumerate() {
            let p = || with(base(), &[Seg::Field("recruits"), Seg::Index(j), Seg::Field("race")]);
            refcheck!(c, races, "race", &o.race, LOCATIONS, p());
        }
        for (j, o) in l.resources.iter().enumerate() {
            let p = || with(base(), &[Seg::Field("resources"), Seg::Index(j), Seg::Field("item")]);
            refcheck!(c, items, "item", &o.item, LOCATIONS, p());
        }
        for (j, t) in l.titles.iter().enumerate() {
            let p = || with(base(), &[Seg::Field("titles"), Seg::Index(j)]);
            refcheck!(c, titles, "title", &t.title, LOCATIONS, with(p(), &[Seg::Field("title")]));
            if let Some(h) = &t.holder
                && !ids.units.contains_key(h.as_str())
            {
                c.push(LOCATIONS, with(p(), &[Seg::Field("holder")]), format!("unknown unit '{h}'"));
            }
        }
        for (j, req) in l.teaches.iter().enumerate() {
            check_skill_req(c, req, LOCATIONS, with(base(), &[Seg::Field("teaches"), Seg::Index(j)]));
        }
        for (j, ItemCount(it, _)) in l.inventory.iter().enumerate() {
            let p = || with(base(), &[Seg::Field("inventory"), Seg::Index(j), Seg::Index(0)]);
            refcheck!(c, items, "item", it, LOCATIONS, p());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::overlord::testkit::{alpha, overlord_rules};

    /// A state with enough units to be checked in two halves at once says what it
    /// says checked in one go, problems in each file's order: the alpha world's
    /// units copied under new ids past the threshold, some of them wrong in each
    /// half and at the cut; some locations wrong likewise, one of the second half
    /// on the hex of one of the first.
    #[test]
    fn units_and_locations_checked_in_two_halves_are_checked_as_in_one() {
        let (r, mut s) = (overlord_rules(), alpha());
        let base = s.units.clone();
        let mut k = 0;
        while s.units.len() < IN_TWO + 7 {
            let mut u = base[k % base.len()].clone();
            u.id = format!("U{}", 900_000 + k);
            u.stack_leader = None;
            s.units.push(u);
            k += 1;
        }
        let n = s.units.len();
        for i in [3, n / 2 - 1, n / 2, n - 2] {
            s.units[i].race = format!("nope{i}");
        }
        s.units[n - 1].location = "L999999".into();
        let m = s.locations.len();
        for i in [3, m / 2 - 1, m / 2, m - 2] {
            s.locations[i].terrain = format!("nope{i}");
        }
        let territory = |l: &Location| l.kind == LocationKind::Territory && l.hex.is_some();
        let early = (0..m / 2).find(|&i| territory(&s.locations[i])).unwrap();
        let late = (m / 2..m).rev().find(|&i| territory(&s.locations[i])).unwrap();
        s.locations[late].hex = s.locations[early].hex;
        let both = validate(&r, &s);
        let places: Vec<String> =
            both.iter().filter(|x| x.file == "locations.ron").map(|x| x.message.clone()).collect();
        let (a, b) = (&s.locations[late].id, &s.locations[early].id);
        let overlap = format!("territory '{a}' at hex {:?} overlaps '{b}'", s.locations[early].hex.unwrap());
        let mut want: Vec<String> = [3, m / 2 - 1, m / 2, m - 2].map(|i| format!("unknown terrain 'nope{i}'")).into();
        want.insert(if late >= m - 2 { 4 } else { 3 }, overlap);
        assert_eq!(places, want);
        let wrong: Vec<String> = both.iter().filter(|x| x.file == "units.ron").map(|x| x.message.clone()).collect();
        assert_eq!(
            wrong,
            [3, n / 2 - 1, n / 2, n - 2]
                .map(|i| format!("unknown race 'nope{i}'"))
                .into_iter()
                .chain(["unknown location 'L999999'".to_string()])
                .collect::<Vec<_>>()
        );
        // The same units checked in one go on one checker.
        let mut one = checker(&r);
        let (f, l, st, un) = (
            one.issues.index_ids(FACTIONS, "faction", &s.factions, |f| &f.id),
            one.issues.index_ids(LOCATIONS, "location", &s.locations, |l| &l.id),
            one.issues.index_ids(STRUCTURES, "structure", &s.structures, |x| &x.id),
            one.issues.index_ids(UNITS, "unit", &s.units, |u| &u.id),
        );
        one.issues.0.clear();
        let all = StateIds { factions: &f, locations: &l, structures: &st, units: &un };
        let mut hexes = HashMap::new();
        for (i, l) in s.locations.iter().enumerate() {
            if let (LocationKind::Territory, Some(h)) = (l.kind, l.hex) {
                hexes.entry(h).or_insert(i);
            }
        }
        check_locations(&mut one, &s, 0..m, &all, &hexes);
        check_units(&mut one, &r, &s, 0..n, &all);
        let alone: Vec<&Issue> = one.issues.0.iter().collect();
        let split: Vec<&Issue> = both
            .iter()
            .filter(|x| x.file == "locations.ron")
            .chain(both.iter().filter(|x| x.file == "units.ron"))
            .collect();
        assert_eq!(alone, split);
    }
}
