//! Converts the legacy rule files (`*.rules`, `*.var`) into a [`RuleSet`].

use super::Defaults;
use super::conv::{Conv, Modes, bonus, capacity, is_stat, stat};
use super::lexer::{self, LegacyFile, Line, Record};
use crate::systems::overlord::data::*;
use std::collections::BTreeMap;
use std::path::Path;

/// Legacy rule files, the keyword opening their records, and whether the game needs them.
pub const RULE_FILES: &[(&str, &str)] = &[
    ("movements.var", "MOVEMENT"),
    ("directions.var", "DIR"),
    ("equipments.var", "EQUIPMENT_SLOT"),
    ("stances.var", "STANCE"),
    ("damage_type.var", "DAMAGE_TYPE"),
    ("combat_files.var", "COMBAT_FILE"),
    ("combat_ranks.var", "COMBAT_RANK"),
    ("combat_moves.var", "COMBAT_MOVE"),
    ("combat_stances.var", "COMBAT_STANCE"),
    ("combat_target.var", "COMBAT_TARGET"),
    ("construction_works.var", "CONSTRUCTION_WORK"),
    ("event_types.rules", "EVENT"),
    ("weathers.rules", "WEATHER"),
    ("seasons.rules", "SEASON"),
    ("terrains.rules", "TERRAIN"),
    ("races.rules", "RACE"),
    ("items.rules", "ITEM"),
    ("skills.rules", "SKILL"),
    ("constructions.rules", "CONSTRUCTION"),
    ("titles.rules", "TITLE"),
    ("enchantments.rules", "FX_EFFECT"),
    ("effects.rules", "EFFECT_RULES"),
    ("fx_actions.rules", "FX_ACTION"),
];

fn load(c: &mut Conv, dir: &Path, name: &str, opener: &str) -> LegacyFile {
    let path = dir.join(name);
    c.file(&path);
    match lexer::read(&path, Some(opener)) {
        Ok(f) => {
            for l in &f.loose {
                c.warn(l.no, format!("text outside any {opener} record ignored: '{} {}'", l.key, l.rest));
            }
            f
        }
        Err(d) => {
            if path.exists() {
                c.diags.push(d);
            } else {
                c.warn(0, format!("file {name} not found; its table is left empty"));
            }
            LegacyFile { path, records: Vec::new(), loose: Vec::new() }
        }
    }
}

/// Warns about a record whose tag was already used in the same file and tells
/// whether to keep it (the first definition wins).
fn first_wins(c: &mut Conv, seen: &mut BTreeMap<String, usize>, r: &Record) -> bool {
    let t = r.tag().to_string();
    if t.is_empty() {
        c.warn(r.head.no, format!("{} record without a tag ignored", r.head.key));
        return false;
    }
    if let Some(first) = seen.get(&t) {
        c.warn(
            r.head.no,
            format!("{} '{t}' defined again (first at line {first}); this record is ignored", r.head.key),
        );
        return false;
    }
    seen.insert(t, r.head.no);
    true
}

fn named_values(c: &mut Conv, f: &LegacyFile) -> Vec<NamedValue> {
    generic(c, f).into_iter().map(|(v, _)| v).collect()
}

/// Reads records of NAME, PLURAL, DESCRIPTION and VALUE/CODE; the plural comes second.
fn generic(c: &mut Conv, f: &LegacyFile) -> Vec<(NamedValue, String)> {
    let mut seen = BTreeMap::new();
    let mut out = Vec::new();
    for r in &f.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        c.extra(&r.head, 1);
        let mut v = NamedValue { tag: r.tag().into(), name: String::new(), description: String::new(), value: 0 };
        let mut plural = String::new();
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut v.name, l),
                "PLURAL" => c.set_text(&mut plural, l),
                "DESCRIPTION" => c.set_text(&mut v.description, l),
                "VALUE" | "CODE" => v.value = c.u32(l, 0),
                _ => c.unknown(l, &r.head.key),
            }
        }
        if v.name.is_empty() {
            v.name = v.tag.clone();
        }
        out.push((v, plural));
    }
    out
}

/// What the rule files define, needed to read the world files.
pub struct RuleContext {
    /// Movement mode tags by position.
    pub modes: Modes,
}

/// Converts every legacy rule file of `dir`.
pub fn convert(c: &mut Conv, dir: &Path, d: &Defaults) -> (RuleSet, RuleContext) {
    let mut files = BTreeMap::new();
    for (name, opener) in RULE_FILES {
        files.insert(*name, load(c, dir, name, opener));
    }
    let f = |n: &str| &files[n];

    // movement modes and directions
    c.file(&f("movements.var").path);
    let mut modes = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f("movements.var").records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        let evades_guards = d.guard_evading_modes.iter().any(|t| t == r.tag());
        let sails = d.water_modes.iter().any(|t| t == r.tag());
        let system = ModeRules { skill: None, evades_guards, sails };
        let mut m = MovementMode { tag: r.tag().into(), name: String::new(), system };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut m.name, l),
                "SKILL" => m.system.skill = Some(c.skill_req(l, 0)),
                _ => c.unknown(l, "MOVEMENT"),
            }
        }
        modes.push(m);
    }
    let mode_tags = Modes(modes.iter().map(|m| m.tag.clone()).collect());
    c.file(&f("directions.var").path);
    let mut directions = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f("directions.var").records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        let mut dir =
            Direction { tag: r.tag().into(), name: String::new(), hex: d.hex_directions.get(r.tag()).copied() };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut dir.name, l),
                _ => c.unknown(l, "DIR"),
            }
        }
        directions.push(dir);
    }

    // equipment slots
    c.file(&f("equipments.var").path);
    let mut slots = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f("equipments.var").records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        let mut s = EquipmentSlot { tag: r.tag().into(), name: String::new(), plural: String::new() };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut s.name, l),
                "PLURAL" => c.set_text(&mut s.plural, l),
                _ => c.unknown(l, "EQUIPMENT_SLOT"),
            }
        }
        slots.push(s);
    }
    let slot_tags: Vec<Tag> = slots.iter().map(|s| s.tag.clone()).collect();

    // stances
    c.file(&f("stances.var").path);
    let stances = named_values(c, f("stances.var"))
        .into_iter()
        .map(|v| Stance {
            toward_self: v.tag == d.own_stance,
            grants: d.stance_grants.get(&v.tag).cloned().unwrap_or_default(),
            tag: v.tag,
            name: v.name,
            rank: v.value,
        })
        .collect();

    let mut combat = CombatRules { battle: d.battle.clone(), ..CombatRules::default() };
    for (name, slot) in [
        ("damage_type.var", &mut combat.damage_types),
        ("combat_files.var", &mut combat.files),
        ("combat_ranks.var", &mut combat.ranks),
        ("combat_moves.var", &mut combat.moves),
        ("combat_stances.var", &mut combat.stances),
        ("combat_target.var", &mut combat.targets),
    ] {
        c.file(&f(name).path);
        *slot = named_values(c, f(name));
    }
    let damage_by_value: BTreeMap<u32, Tag> = combat.damage_types.iter().map(|v| (v.value, v.tag.clone())).collect();

    c.file(&f("construction_works.var").path);
    let works = generic(c, f("construction_works.var"))
        .into_iter()
        .map(|(v, plural)| ConstructionWork { tag: v.tag, name: v.name, plural, description: v.description })
        .collect::<Vec<_>>();

    c.file(&f("event_types.rules").path);
    let events: Vec<EventType> = named_values(c, f("event_types.rules"))
        .into_iter()
        .map(|v| EventType { name: if v.name == v.tag { String::new() } else { v.name }, tag: v.tag })
        .collect();

    let ctx = Ctx { modes: &mode_tags, slots: &slot_tags, damage: &damage_by_value };
    let weathers = weathers(c, f("weathers.rules"), &ctx, d);
    let seasons = seasons(c, f("seasons.rules"), &ctx, d);
    let terrains = terrains(c, f("terrains.rules"), &ctx, d);
    let races = races(c, f("races.rules"), &ctx);
    let items = items(c, f("items.rules"), &ctx);
    let mut skills = super::skills::skills(c, f("skills.rules"), &mode_tags, &damage_by_value);
    let constructions = constructions(c, f("constructions.rules"), &ctx, works);
    let mut titles = titles(c, f("titles.rules"), &ctx);
    for t in &mut titles {
        if let Some(&k) = d.title_keep_percent.get(&t.tag) {
            t.keep_percent = k;
        }
        t.cancels = d.title_cancels.get(&t.tag).cloned();
        t.held_in_place = d.title_held_in_place.contains(&t.tag);
    }
    let enchantments = enchantments(c, f("enchantments.rules"), f("effects.rules"), f("fx_actions.rules"), &ctx);
    for s in &mut skills {
        super::skills::casting_time(s, |t| enchantments.enchantments.iter().any(|e| e.tag == t));
    }

    let mut events: Vec<EventType> = events;
    add_produced_events(c, &f("skills.rules").path, &skills, &mut events);
    let rules = RuleSet {
        info: RuleSetInfo {
            name: d.ruleset_name.clone(),
            system: SYSTEM.to_string(),
            description: d.description.clone(),
            source: d.source.clone(),
            parameters: d.parameters.clone(),
        },
        plan: crate::core::engine::plan::TurnPlan::from_ron(super::PLAN_RON, super::PLAN_PATH)
            .expect("the built-in turn plan reads"),
        movement: MovementRules { modes, directions },
        equipment_slots: slots,
        climate: Climate { months: d.months.clone(), seasons, weathers },
        terrains,
        races,
        items,
        skills,
        constructions,
        titles,
        enchantments,
        stances,
        combat,
        events,
        economy: d.economy.clone(),
        starts: d.starts.clone(),
    };
    (rules, RuleContext { modes: mode_tags })
}

/// Skills may produce events (`PRODUCES evtsigh 10`) that `event_types.rules`
/// does not list. By the legacy naming convention such tags start with `evt`;
/// they are added as event types, with a warning.
fn add_produced_events(c: &mut Conv, path: &Path, skills: &[Skill], events: &mut Vec<EventType>) {
    c.file(path);
    for s in skills {
        for lv in &s.system.levels {
            let Some(out) = lv.production.as_ref().and_then(|p| p.output.as_ref()) else { continue };
            if out.starts_with("evt") && !events.iter().any(|e| &e.tag == out) {
                c.warn(0, format!("skill '{}' produces event '{out}', which event_types.rules does not define; added as an event type", s.tag));
                events.push(EventType { tag: out.clone(), name: String::new() });
            }
        }
    }
}

/// Lookup tables the converters share.
pub(crate) struct Ctx<'a> {
    pub modes: &'a Modes,
    pub slots: &'a [Tag],
    pub damage: &'a BTreeMap<u32, Tag>,
}

fn weathers(c: &mut Conv, f: &LegacyFile, x: &Ctx, d: &Defaults) -> Vec<Weather> {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        let extra = d.weathers.get(r.tag()).cloned().unwrap_or_default();
        let mut w = Weather {
            tag: r.tag().into(),
            name: String::new(),
            travel_percent: extra.travel_percent,
            travel_days: extra.travel_days,
            system: WeatherRules { bonuses: Bonuses::default(), neighbour_weathers: extra.neighbour_weathers },
        };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut w.name, l),
                _ if bonus(c, x.modes, &mut w.system.bonuses, l) => {}
                _ => c.unknown(l, "WEATHER"),
            }
        }
        out.push(w);
    }
    out
}

fn seasons(c: &mut Conv, f: &LegacyFile, x: &Ctx, d: &Defaults) -> Vec<Season> {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        let extra = d.seasons.get(r.tag()).cloned().unwrap_or_default();
        let mut s = Season {
            tag: r.tag().into(),
            name: String::new(),
            weather_weights: TagMap::new(),
            system: SeasonRules {
                bonuses: Bonuses::default(),
                upkeep_percent: extra.upkeep_percent,
                tax_percent: extra.tax_percent,
                entertainment_percent: extra.entertainment_percent,
            },
        };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut s.name, l),
                "WEATHER" => {
                    let t = c.tag(l, 0);
                    let v = c.i32(l, 1);
                    s.weather_weights.insert(t, v);
                }
                _ if bonus(c, x.modes, &mut s.system.bonuses, l) => {}
                _ => c.unknown(l, "SEASON"),
            }
        }
        out.push(s);
    }
    out
}

fn terrains(c: &mut Conv, f: &LegacyFile, x: &Ctx, d: &Defaults) -> Vec<Terrain> {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        let mut t = Terrain {
            tag: r.tag().into(),
            name: String::new(),
            travel_days: TagMap::new(),
            water: false,
            covered: false,
            color: None,
            system: TerrainRules::default(),
        };
        let mut rgb = [None::<u8>; 3];
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut t.name, l),
                "OPTIMA" => t.system.optimum_population = c.u32(l, 0),
                "LANDWALK" => t.system.land_skill = Some(c.tag(l, 0)),
                "DAYS" => capacity(c, x.modes, &mut t.travel_days, l),
                "RESOURCE" => {
                    let item = c.tag(l, 0);
                    let amount = c.u32(l, 1);
                    let chance = c.u32_or(l, 2, 100);
                    t.system.resources.push(TerrainResource { item, amount, chance });
                }
                "COVERED" => t.covered = true,
                "NOBUILD" => t.system.no_build = true,
                "COLOR_R" | "COLOR_G" | "COLOR_B" => {
                    let i = ["COLOR_R", "COLOR_G", "COLOR_B"].iter().position(|k| *k == l.key).unwrap_or(0);
                    rgb[i] = Some(c.u32(l, 0).min(255) as u8);
                }
                _ => c.unknown(l, "TERRAIN"),
            }
        }
        // The legacy files have no water flag: water is where only the sailing
        // modes travel.
        t.water = !t.travel_days.is_empty()
            && d.water_modes.iter().any(|m| t.travel_days.contains_key(m))
            && t.travel_days.keys().all(|m| d.water_modes.contains(m) || d.guard_evading_modes.contains(m));
        if rgb.iter().any(Option::is_some) {
            t.color = Some((rgb[0].unwrap_or(0), rgb[1].unwrap_or(0), rgb[2].unwrap_or(0)));
        }
        out.push(t);
    }
    out
}

fn races(c: &mut Conv, f: &LegacyFile, x: &Ctx) -> Vec<Race> {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        let kind = match r.head.arg(1).to_ascii_uppercase().as_str() {
            "LEADER" => RaceKind::Leader,
            "FOLLOWER" => RaceKind::Follower,
            "CREATURE" => RaceKind::Creature,
            other => {
                c.warn(r.head.no, format!("race kind '{other}' unknown (LEADER, FOLLOWER or CREATURE); CREATURE used"));
                RaceKind::Creature
            }
        };
        c.extra(&r.head, 2);
        let mut race = Race {
            tag: r.tag().into(),
            name: String::new(),
            plural: String::new(),
            description: String::new(),
            weight: 0,
            capacity: TagMap::new(),
            system: RaceRules { kind, ..RaceRules::default() },
        };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut race.name, l),
                "PLURAL" => c.set_text(&mut race.plural, l),
                "DESCRIPTION" => c.set_text(&mut race.description, l),
                "STUDENT_TYPE" => {
                    let st = l.arg(0).to_ascii_uppercase();
                    let expect = match kind {
                        RaceKind::Leader => ["STUDENT_LEADER", "STUDENT"].as_slice(),
                        RaceKind::Follower => ["STUDENT_FOLLOWER"].as_slice(),
                        RaceKind::Creature => ["STUDENT", "STUDENT_CREATURE"].as_slice(),
                    };
                    if !expect.contains(&st.as_str()) {
                        c.warn(l.no, format!("STUDENT_TYPE {st} does not match race kind {kind:?}; the kind is kept"));
                    }
                }
                "WEIGHT" => race.weight = c.u32(l, 0),
                "CAPACITY" => capacity(c, x.modes, &mut race.capacity, l),
                "COST" => race.system.recruit_cost = c.u32(l, 0),
                "FRACTION" => race.system.recruit_fraction = c.u32(l, 0),
                "MAXIMUM" => race.system.recruit_max = c.u32(l, 0),
                "SKILL" => {
                    let s = c.tag(l, 0);
                    let e = c.u32(l, 1);
                    race.system.innate_skills.push(SkillExperience(s, e));
                }
                k if is_stat(k) => {
                    let v = c.i32(l, 0);
                    stat(&mut race.system.stats, k, v);
                }
                _ if bonus(c, x.modes, &mut race.system.bonuses, l) => {}
                _ => c.unknown(l, "RACE"),
            }
        }
        // The legacy format has no hero flag. The rules: heroes are leaders that
        // use one more control point than a leader.
        race.system.hero = kind == RaceKind::Leader && race.system.stats.control >= 2;
        out.push(race);
    }
    out
}

/// Reads a `COMBAT <sub> …` line (or a shifted equivalent) into an action.
pub(crate) fn combat_line(c: &mut Conv, l: &Line, a: &mut CombatAction, damage: &BTreeMap<u32, Tag>) {
    let sub = shift(l);
    match sub.key.as_str() {
        "TARGET" => a.target = Some(c.tag(&sub, 0)),
        "RANGE" => a.range = c.u32(&sub, 0),
        "DAMAGE_TYPE" => {
            let v = sub.arg(0);
            a.damage_type = Some(match v.parse::<u32>() {
                Ok(n) => damage.get(&n).cloned().unwrap_or_else(|| {
                    c.warn(l.no, format!("damage type number {n} is not defined"));
                    v.to_string()
                }),
                Err(_) => v.to_string(),
            });
        }
        "BONUS" => {
            let inner = shift(&sub);
            let v = c.i32(&inner, 0);
            if !stat(&mut a.bonus, &inner.key, v) {
                c.warn(l.no, format!("COMBAT BONUS {}: not a statistic; line ignored", inner.key));
            }
        }
        "GRANTS" => {
            let e = c.tag(&sub, 0);
            let days = c.u32_or(&sub, 1, 1);
            a.effect = Some(Grant(e, days));
        }
        "SECONDARY_ACTION" => a.secondary = Some(c.tag(&sub, 0)),
        k if is_stat(k) => {
            let v = c.i32(&sub, 0);
            stat(&mut a.bonus, k, v);
        }
        _ => c.warn(l.no, format!("COMBAT {}: not a known combat setting; line ignored", sub.key)),
    }
}

/// A line with its first argument promoted to keyword.
pub(crate) fn shift(l: &Line) -> Line {
    let key = l.arg(0).to_ascii_uppercase();
    let args: Vec<String> = l.args.iter().skip(1).cloned().collect();
    let rest = args.join(" ");
    Line { no: l.no, key, args, rest }
}

/// Parses a combat action kind (`MELEE`, `RANGED`, `COMBAT_SUMMON`, `COMBAT_ENCHANT`).
pub(crate) fn action_kind(c: &mut Conv, l: &Line) -> CombatActionKind {
    match l.arg(0).to_ascii_uppercase().as_str() {
        "MELEE" => CombatActionKind::Melee,
        "RANGED" => CombatActionKind::Ranged,
        "COMBAT_SUMMON" | "SUMMON" => CombatActionKind::Summon,
        "COMBAT_ENCHANT" | "ENCHANT" => CombatActionKind::Enchant,
        other => {
            c.warn(l.no, format!("combat action '{other}' unknown; MELEE used"));
            CombatActionKind::Melee
        }
    }
}

fn items(c: &mut Conv, f: &LegacyFile, x: &Ctx) -> Vec<Item> {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        c.extra(&r.head, 1);
        let mut it = Item {
            tag: r.tag().into(),
            name: String::new(),
            plural: String::new(),
            description: String::new(),
            weight: 0,
            price: 0,
            capacity: TagMap::new(),
            system: ItemRules::default(),
        };
        for l in &r.body {
            let flag = |f| Some(f);
            let fl = match l.key.as_str() {
                "SPECIAL" => flag(ItemFlag::Special),
                "UNIQUE" => flag(ItemFlag::Unique),
                "LIVE" => flag(ItemFlag::Live),
                "MAGIC" => flag(ItemFlag::Magic),
                "HIDDEN" => flag(ItemFlag::Hidden),
                "NONREGENERATING" => flag(ItemFlag::NonRegenerating),
                _ => None,
            };
            if let Some(fl) = fl {
                // `SPECIAL 0` turns the flag off, as the legacy docs allow.
                if l.arg(0) != "0" && !it.system.flags.contains(&fl) {
                    it.system.flags.push(fl);
                }
                continue;
            }
            match l.key.as_str() {
                "NAME" => c.set_text(&mut it.name, l),
                "PLURAL" => c.set_text(&mut it.plural, l),
                "DESCRIPTION" => c.set_text(&mut it.description, l),
                "WEIGHT" => it.weight = c.u32(l, 0),
                "PRICE" => it.price = c.u32(l, 0),
                "TOKEN" => it.system.token = c.u32(l, 0),
                "TYPE" => it.system.class = c.u32(l, 0),
                "FX" => it.system.fx = c.u32(l, 0),
                "CAPACITY" => capacity(c, x.modes, &mut it.capacity, l),
                "EQUIP_CAPACITY" => capacity(c, x.modes, &mut it.system.equipped_capacity, l),
                "EQUIP_CATEGORY" => {
                    let a = l.arg(0);
                    it.system.slot = match a.parse::<usize>() {
                        // Legacy slot numbers count from 1.
                        Ok(n) if n >= 1 && n <= x.slots.len() => Some(x.slots[n - 1].clone()),
                        Ok(n) => {
                            c.warn(l.no, format!("EQUIP_CATEGORY {n}: no such equipment slot (1..={})", x.slots.len()));
                            None
                        }
                        Err(_) => Some(a.to_string()),
                    };
                }
                "EQUIP_MAX" => it.system.max_per_figure = c.u32(l, 0),
                "EQUIP_CONDITION" => it.system.equip_skill = Some(c.skill_req(l, 0)),
                "PROSPECT_SKILL" => it.system.prospect_skill = Some(c.skill_req(l, 0)),
                "KNOWLEDGE" => it.system.knowledge = Some(c.tag(l, 0)),
                "COMBAT_USE" | "COMBAT_ACTION" => {
                    let k = action_kind(c, l);
                    it.system.combat.get_or_insert_with(CombatAction::default).kind = k;
                }
                "COMBAT" => combat_line(c, l, it.system.combat.get_or_insert_with(CombatAction::default), x.damage),
                k if is_stat(k) => {
                    let v = c.i32(l, 0);
                    stat(&mut it.system.stats, k, v);
                }
                _ if bonus(c, x.modes, &mut it.system.bonuses, l) => {}
                _ => c.unknown(l, "ITEM"),
            }
        }
        out.push(it);
    }
    out
}

fn constructions(c: &mut Conv, f: &LegacyFile, x: &Ctx, works: Vec<ConstructionWork>) -> Constructions {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        c.extra(&r.head, 1);
        let mut k = Construction {
            tag: r.tag().into(),
            name: String::new(),
            description: String::new(),
            materials: Vec::new(),
            building_skill: None,
            price: 0,
            weight: 0,
            stats: Stats::default(),
            economy: 0,
            bonuses: Bonuses::default(),
            title: None,
            capacity: TagMap::new(),
            crew_skill: None,
            crew: 0,
            built_by: None,
            produces: Vec::new(),
            build_conditions: Vec::new(),
        };
        let mut stat_lines: BTreeMap<String, usize> = BTreeMap::new();
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut k.name, l),
                "DESCRIPTION" => c.set_text(&mut k.description, l),
                "RESOURCE" => {
                    let w = c.tag(l, 0);
                    let n = c.u32(l, 1);
                    k.materials.push(ItemCount(w, n));
                }
                "BUILDING_SKILL" => {
                    let s = c.tag(l, 0);
                    let e = c.u32(l, 1);
                    k.building_skill = Some(SkillExperience(s, e));
                }
                "PRICE" => k.price = c.u32(l, 0),
                "WEIGHT" => k.weight = c.u32(l, 0),
                "ECONOMY" => k.economy = c.i32(l, 0),
                "TITLE" => k.title = Some(c.tag(l, 0)),
                "STAFF_CAPACITY" => capacity(c, x.modes, &mut k.capacity, l),
                "STAFF_CONDITION" => k.crew_skill = Some(c.skill_req(l, 0)),
                "STAFF_MEN" => k.crew = c.u32(l, 0),
                "BUILD_CONDITION" => k.build_conditions.push(l.rest.clone()),
                "BUILDING_PARADIGM" => {
                    k.built_by = match l.arg(0).to_ascii_uppercase().as_str() {
                        "USING_CONSTRUCTION" => Some(UseKind::Construction),
                        "USING_BUILD" => Some(UseKind::Build),
                        other => {
                            c.warn(l.no, format!("BUILDING_PARADIGM {other} unknown; ignored"));
                            None
                        }
                    }
                }
                "PRODUCES" => {
                    let t = c.tag(l, 0);
                    let n = c.u32_or(l, 1, 1);
                    k.produces.push(ItemCount(t, n));
                }
                key if is_stat(key) => {
                    if let Some(first) = stat_lines.get(key) {
                        c.warn(l.no, format!("{key} given again (first at line {first}); this value replaces it"));
                    }
                    stat_lines.insert(key.to_string(), l.no);
                    let v = c.i32(l, 0);
                    stat(&mut k.stats, key, v);
                }
                _ if bonus(c, x.modes, &mut k.bonuses, l) => {}
                _ => c.unknown(l, "CONSTRUCTION"),
            }
        }
        out.push(k);
    }
    Constructions { works, constructions: out }
}

fn titles(c: &mut Conv, f: &LegacyFile, x: &Ctx) -> Vec<Title> {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        let overlord = r.head.arg(1).eq_ignore_ascii_case("OVERLORD");
        if !overlord {
            c.extra(&r.head, 1);
        }
        let mut t = Title {
            tag: r.tag().into(),
            name: String::new(),
            kind: TitleKind::Guild,
            skill: SkillLevelReq { skill: String::new(), level: 0 },
            cost: 0,
            control: 0,
            range: 0,
            keep_percent: 0,
            held_in_place: false,
            bonuses: Bonuses::default(),
            cancels: None,
        };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut t.name, l),
                "SKILL" => t.skill = c.skill_req(l, 0),
                "COST" => t.cost = c.u32(l, 0),
                "CONTROL" => t.control = c.u32(l, 0),
                "RANGE" => t.range = c.u32(l, 0),
                _ if bonus(c, x.modes, &mut t.bonuses, l) => {}
                _ => c.unknown(l, "TITLE"),
            }
        }
        if t.skill.skill.is_empty() {
            c.warn(r.head.no, format!("title '{}' has no SKILL", t.tag));
        }
        t.kind = if overlord {
            TitleKind::Overlord
        } else if t.range > 0 {
            TitleKind::Land
        } else {
            TitleKind::Guild
        };
        out.push(t);
    }
    out
}

fn enchantments(c: &mut Conv, f: &LegacyFile, fe: &LegacyFile, fa: &LegacyFile, x: &Ctx) -> Enchantments {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        c.extra(&r.head, 1);
        let mut e = Enchantment {
            tag: r.tag().into(),
            name: String::new(),
            plural: String::new(),
            description: String::new(),
            stats: Stats::default(),
            capacity: TagMap::new(),
            bonuses: Bonuses::default(),
            combat: None,
            action: None,
            class: 0,
            fx: 0,
            report_prefix: String::new(),
            hidden: false,
        };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut e.name, l),
                "PLURAL" => c.set_text(&mut e.plural, l),
                "DESCRIPTION" | "TEXT" => c.set_text(&mut e.description, l),
                "CAPACITY" => capacity(c, x.modes, &mut e.capacity, l),
                "COMBAT" => combat_line(c, l, e.combat.get_or_insert_with(CombatAction::default), x.damage),
                "FX_ACTION" => e.action = Some(c.tag(l, 0)),
                "FX" => e.fx = c.u32(l, 0),
                "TYPE" => e.class = c.u32(l, 0),
                "HIDDEN" => e.hidden = true,
                "REPORT_PREFIX" => c.set_text(&mut e.report_prefix, l),
                k if is_stat(k) => {
                    let v = c.i32(l, 0);
                    stat(&mut e.stats, k, v);
                }
                _ if bonus(c, x.modes, &mut e.bonuses, l) => {}
                _ => c.unknown(l, "FX_EFFECT"),
            }
        }
        if e.name.is_empty() {
            e.name = e.tag.clone();
        }
        out.push(e);
    }

    c.file(&fe.path);
    let mut effects = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &fe.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        let mut e = EffectRule {
            tag: r.tag().into(),
            kind: r.head.arg(1).to_string(),
            name: String::new(),
            length: 0,
            virality: 0,
            lethality: 0,
            incubation: 0,
            infection: None,
            immunity: None,
        };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut e.name, l),
                "LENGTH" => e.length = c.u32(l, 0),
                "VIRALITY" => e.virality = c.u32(l, 0),
                "LETHALITY" => e.lethality = c.u32(l, 0),
                "INCUBATION_PERIOD" => e.incubation = c.u32(l, 0),
                "INFECTION_ENCHANT" => e.infection = Some(c.tag(l, 0)),
                "IMMUNITY_ENCHANT" => e.immunity = Some(c.tag(l, 0)),
                _ => c.unknown(l, "EFFECT_RULES"),
            }
        }
        effects.push(e);
    }

    c.file(&fa.path);
    let mut actions = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &fa.records {
        if !first_wins(c, &mut seen, r) {
            continue;
        }
        let mut a = FxAction {
            tag: r.tag().into(),
            kind: r.head.arg(1).to_string(),
            name: String::new(),
            description: String::new(),
            effect: None,
        };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut a.name, l),
                "DESCRIPTION" => c.set_text(&mut a.description, l),
                "EFFECT" => a.effect = Some(c.tag(l, 0)),
                _ => c.unknown(l, "FX_ACTION"),
            }
        }
        actions.push(a);
    }
    Enchantments { enchantments: out, effects, actions }
}
