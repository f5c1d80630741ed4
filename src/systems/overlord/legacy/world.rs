//! Converts the legacy world files (`overlord.config`, `*.dat`, order files) into a [`Scenario`].

use super::Defaults;
use super::conv::{Conv, Modes};
use super::lexer::{self, LegacyFile, Line, Record};
use crate::core::data::validate::id_problem;
use crate::systems::overlord::data::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Reads `COMBAT_TACTICS stance rank file move`.
pub fn tactics(c: &mut Conv, l: &Line) -> CombatTactics {
    if l.args.len() != 4 {
        c.warn(l.no, format!("COMBAT_TACTICS takes stance, rank, file and move; found '{}'", l.rest));
    }
    let a = |i: usize| l.arg(i).to_ascii_lowercase();
    CombatTactics { stance: a(0), rank: a(1), file: a(2), movement: a(3) }
}

/// `overlord.config` and the game file, read.
struct Config {
    game: String,
    title: String,
    email: String,
    days: u32,
    npcs: BTreeSet<String>,
    players_dir: String,
    files: BTreeMap<&'static str, String>,
}

fn read_config(c: &mut Conv, dir: &Path) -> Config {
    let path = dir.join("overlord.config");
    c.file(&path);
    let mut cfg = Config {
        game: String::new(),
        title: String::new(),
        email: String::new(),
        days: 0,
        npcs: BTreeSet::new(),
        players_dir: "players".into(),
        files: BTreeMap::new(),
    };
    for (k, v) in [
        ("UNITSFILE", "units.dat"),
        ("FACTIONSFILE", "factions.dat"),
        ("LOCATIONSFILE", "locations.dat"),
        ("BUILDINGSFILE", "buildings.dat"),
        ("EFFECTSFILE", "effects.dat"),
        ("GAMEFILE", "game.dat"),
    ] {
        cfg.files.insert(k, v.to_string());
    }
    let text = match std::fs::read(&path) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) => {
            c.error(0, format!("cannot read overlord.config: {e}"));
            return cfg;
        }
    };
    for (i, raw) in text.split('\n').enumerate() {
        let Some(l) = lexer::parse_line(i + 1, raw) else { continue };
        match l.key.as_str() {
            "GAME" => {
                cfg.game = l.arg(0).to_string();
                if let Some(why) = id_problem(&cfg.game) {
                    c.error(l.no, format!("GAME: the game's name is its scenario's folder name: {why}"));
                }
            }
            "NAME" => cfg.title = l.rest.clone(),
            "EMAIL" => cfg.email = l.rest.clone(),
            "DAYS_IN_TURN" => cfg.days = c.u32(&l, 0),
            "NPC" => {
                cfg.npcs.insert(l.arg(0).to_string());
            }
            "PLAYERSDIR" => cfg.players_dir = l.arg(0).to_string(),
            "UNITSFILE" | "FACTIONSFILE" | "LOCATIONSFILE" | "BUILDINGSFILE" | "EFFECTSFILE" | "GAMEFILE" => {
                let key = cfg.files.keys().copied().find(|k| *k == l.key).unwrap_or("GAMEFILE");
                cfg.files.insert(key, l.arg(0).to_string());
            }
            "GAMEDIR" => {
                if l.arg(0) != "." {
                    c.warn(l.no, format!("GAMEDIR {}: files are read from the folder given to the importer", l.arg(0)));
                }
            }
            "RUN_MODE" => {
                if l.arg(0) != "0" {
                    c.warn(l.no, format!("RUN_MODE {} is a setting of the old engine's runs; not converted", l.arg(0)));
                }
            }
            "PREFIX" | "NEW_ENTITY_PREFIX" | "NEW_CONSTRUCTION_PREFIX" => c.warn(
                l.no,
                format!(
                    "{} {}: ids are kept exactly as written in the data files; the prefix is not converted",
                    l.key, l.rest
                ),
            ),
            _ => c.unknown(&l, "overlord.config"),
        }
    }
    cfg
}

/// Converts the world files of `dir` into a scenario using `rules` for lookups.
pub fn convert(c: &mut Conv, dir: &Path, rules: &RuleSet, modes: &Modes, d: &Defaults) -> Scenario {
    let _ = modes;
    let cfg = read_config(c, dir);
    let mut game = GameSettings {
        name: cfg.game.clone(),
        title: cfg.title.clone(),
        ruleset: rules.info.name.clone(),
        seed: d.seed,
        days_per_month: if cfg.days > 0 { cfg.days } else { d.days_per_month },
        start_month: d.start_month,
        turn: 0,
        email: cfg.email.clone(),
        deadline: String::new(),
        joining: Default::default(),
    };
    let gpath = dir.join(&cfg.files["GAMEFILE"]);
    c.file(&gpath);
    match std::fs::read(&gpath) {
        Ok(b) => {
            for (i, raw) in String::from_utf8_lossy(&b).split('\n').enumerate() {
                let Some(l) = lexer::parse_line(i + 1, raw) else { continue };
                match l.key.as_str() {
                    "GAME" => {
                        if !game.name.is_empty() && game.name != l.arg(0) {
                            c.warn(
                                l.no,
                                format!(
                                    "GAME {} differs from overlord.config's {}; the config wins",
                                    l.arg(0),
                                    game.name
                                ),
                            );
                        } else {
                            game.name = l.arg(0).to_string();
                            if let Some(why) = id_problem(&game.name) {
                                c.error(l.no, format!("GAME: the game's name is its scenario's folder name: {why}"));
                            }
                        }
                    }
                    "NAME" => {
                        if game.title.is_empty() {
                            game.title = l.rest.clone();
                        }
                    }
                    "TURN" => game.turn = c.u32(&l, 0),
                    "DEADLINE" => game.deadline = l.rest.clone(),
                    _ => c.unknown(&l, "game"),
                }
            }
        }
        Err(e) => c.warn(0, format!("cannot read game file: {e}; turn 0 assumed")),
    }

    let read = |c: &mut Conv, key: &str, opener: &str| -> LegacyFile {
        let path = dir.join(&cfg.files[key]);
        c.file(&path);
        match lexer::read(&path, Some(opener)) {
            Ok(f) => {
                for l in &f.loose {
                    c.warn(l.no, format!("text outside any {opener} record ignored: '{} {}'", l.key, l.rest));
                }
                f
            }
            Err(e) => {
                c.diags.push(e);
                LegacyFile { path, records: Vec::new(), loose: Vec::new() }
            }
        }
    };
    let ff = read(c, "FACTIONSFILE", "FACTION");
    let lf = read(c, "LOCATIONSFILE", "LOCATION");
    let bf = read(c, "BUILDINGSFILE", "BUILDING");
    let uf = read(c, "UNITSFILE", "UNIT");
    let ef = read(c, "EFFECTSFILE", "EFFECT");
    c.file(&ef.path);
    for r in &ef.records {
        c.warn(
            r.head.no,
            format!("location effect '{}' not converted: running effects are not yet part of scenarios", r.tag()),
        );
    }

    let mut factions = factions(c, &ff, &cfg.npcs);
    for f in &mut factions {
        f.serves_overlord = f.npc && d.overlord_servants.iter().any(|n| n.eq_ignore_ascii_case(&f.name));
        if f.npc {
            f.provoked = d.npc_provoked.iter().find(|(n, _)| n.eq_ignore_ascii_case(&f.name)).map(|(_, s)| s.clone());
            f.spared_by = d
                .npc_spared_by
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(&f.name))
                .map(|(_, s)| s.clone())
                .unwrap_or_default();
        }
    }
    for npc in &cfg.npcs {
        if !factions.iter().any(|f| &f.id == npc) {
            c.file(&dir.join("overlord.config"));
            c.warn(0, format!("NPC {npc} names no faction of {}", cfg.files["FACTIONSFILE"]));
        }
    }
    let (mut locations, unit_places, structure_places) = locations(c, &lf);
    let structures = structures(c, &bf, &structure_places);
    let units = units(c, &uf, &unit_places, &structures);
    // Titles listed twice in a location are kept once.
    for l in &mut locations {
        let mut seen = BTreeSet::new();
        l.titles.retain(|t| seen.insert((t.title.clone(), t.holder.clone())));
    }
    let orders = orders(c, &dir.join(&cfg.players_dir), &factions, &game);
    game.joining.places = start_places(&d.start_places, &locations);
    game.joining.default_stance = d.start_places.default_stance.clone();
    Scenario { game, factions, locations, structures, units, orders }
}

/// The start places of the world (START-PLACE), found as `rules` says: the place of
/// the capital's title, the other cities of its owner, the remaining cities. A
/// kind that finds no city is left out.
fn start_places(rules: &super::StartPlaces, locations: &[Location]) -> Vec<crate::systems::overlord::data::StartPlace> {
    let capital = locations.iter().find(|l| l.titles.iter().any(|t| t.title == rules.capital_title));
    let ruler = capital.and_then(|l| l.owner.as_ref()).map(|o| o.faction.as_str());
    let cities = || locations.iter().filter(|l| l.terrain == rules.city_terrain);
    rules
        .places
        .iter()
        .filter_map(|r| {
            let is_capital = |l: &Location| capital.is_some_and(|c| c.id == l.id);
            let ruled = |l: &Location| ruler.is_some() && l.owner.as_ref().map(|o| o.faction.as_str()) == ruler;
            let ids: Vec<Tag> = match r.select {
                super::PlaceSelect::Capital => capital.map(|l| l.id.clone()).into_iter().collect(),
                super::PlaceSelect::CapitalOwner => {
                    cities().filter(|l| !is_capital(l) && ruled(l)).map(|l| l.id.clone()).collect()
                }
                super::PlaceSelect::Others => {
                    cities().filter(|l| !is_capital(l) && !ruled(l)).map(|l| l.id.clone()).collect()
                }
            };
            (!ids.is_empty()).then(|| crate::systems::overlord::data::StartPlace {
                tag: r.tag.clone(),
                name: r.name.clone(),
                bonus: r.bonus.clone(),
                locations: ids,
                fair: r.fair,
            })
        })
        .collect()
}

fn dedupe(c: &mut Conv, seen: &mut BTreeMap<String, usize>, r: &Record) -> bool {
    let t = r.tag().to_string();
    if t.is_empty() {
        c.warn(r.head.no, format!("{} record without an id ignored", r.head.key));
        return false;
    }
    if let Some(first) = seen.get(&t) {
        c.warn(r.head.no, format!("{} {t} defined again (first at line {first}); this record is ignored", r.head.key));
        return false;
    }
    seen.insert(t, r.head.no);
    c.extra(&r.head, 1);
    true
}

fn factions(c: &mut Conv, f: &LegacyFile, npcs: &BTreeSet<String>) -> Vec<Faction> {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f.records {
        if !dedupe(c, &mut seen, r) {
            continue;
        }
        let mut fa = Faction {
            id: r.tag().into(),
            name: String::new(),
            password: String::new(),
            email: String::new(),
            npc: npcs.contains(r.tag()),
            default_stance: String::new(),
            stances: BTreeMap::new(),
            funds: BTreeMap::new(),
            known_skills: Vec::new(),
            known: Vec::new(),
            settings: Default::default(),
            takes_resignations: false,
            destroyed: false,
            creatures: false,
            serves_overlord: false,
            start: None,
            provoked: None,
            spared_by: Vec::new(),
            explored: Vec::new(),
        };
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut fa.name, l),
                "PASSWORD" => fa.password = l.arg(0).to_string(),
                "EMAIL" => fa.email = l.arg(0).to_string(),
                "FUNDS" => {
                    let item = c.tag(l, 0);
                    let n = c.int(l, 1).max(0) as u64;
                    *fa.funds.entry(item).or_default() += n;
                }
                "DEFAULT_STANCE" | "DEFAULIT_STANCE" => fa.default_stance = c.tag(l, 0),
                "STANCE" => {
                    let other = c.tag(l, 0);
                    let st = c.tag(l, 1);
                    fa.stances.insert(other, st);
                }
                "SKILL_KNOWLEDGE" => {
                    let req = c.skill_req(l, 0);
                    match fa.known_skills.iter_mut().find(|k| k.skill == req.skill) {
                        Some(k) => k.level = k.level.max(req.level),
                        None => fa.known_skills.push(req),
                    }
                }
                "KNOWLEDGE" => {
                    let t = c.tag(l, 0);
                    if !fa.known.contains(&t) {
                        fa.known.push(t);
                    }
                }
                _ => c.unknown(l, "FACTION"),
            }
        }
        if fa.name.is_empty() {
            fa.name = format!("Faction {}", fa.id);
        }
        if fa.default_stance.is_empty() {
            c.warn(r.head.no, format!("faction {} has no DEFAULT_STANCE; neutral used", fa.id));
            fa.default_stance = "neutral".into();
        }
        // The alpha data names no resignation targets: every non-player faction but the
        // monsters takes resigning factions' units, and the monsters take creatures.
        if fa.npc {
            fa.creatures = fa.name.eq_ignore_ascii_case("monsters");
            fa.takes_resignations = !fa.creatures;
        }
        out.push(fa);
    }
    out
}

/// Where a unit or structure was listed: location id and line.
type Places = BTreeMap<String, (String, PathBuf, usize)>;

/// Converts the locations; also returns where each unit and structure is listed.
fn locations(c: &mut Conv, f: &LegacyFile) -> (Vec<Location>, Places, Places) {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut lines = Vec::new();
    let mut units: Places = BTreeMap::new();
    let mut structures: Places = BTreeMap::new();
    let mut seen = BTreeMap::new();
    let ids: BTreeSet<&str> = f.records.iter().map(|r| r.tag()).collect();
    // The parity of x + y of the first territory: the legacy grid keeps it for every hex.
    let mut parity: Option<i64> = None;
    for r in &f.records {
        if !dedupe(c, &mut seen, r) {
            continue;
        }
        let id = r.tag().to_string();
        let mut loc = Location { id: id.clone(), ..Default::default() };
        let mut xy: Option<(i64, i64, usize)> = None;
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut loc.name, l),
                "TERRAIN" => loc.terrain = c.tag(l, 0),
                "WEATHER" => loc.weather = Some(c.tag(l, 0)),
                "OWNER" => {
                    let faction = c.tag(l, 0);
                    let title_location = (!l.arg(1).is_empty()).then(|| l.arg(1).to_string());
                    loc.owner = Some(Ownership { faction, title_location });
                }
                "POPULATION" => loc.population = c.u32(l, 0),
                "WAGES" => loc.wages = c.u32(l, 0),
                "LAND" => loc.land = c.u32(l, 0),
                "ECONOMY" => loc.economy = c.u32(l, 0),
                "MARKET_TYPE" => {
                    if !l.arg(0).eq_ignore_ascii_case("MARKET") {
                        c.warn(
                            l.no,
                            format!("MARKET_TYPE {}: only MARKET is known; an ordinary market is used", l.arg(0)),
                        );
                    }
                }
                "OWNERSHIP_POLICY" => loc.policy = l.arg(0).to_string(),
                "SELL" | "BUY" => {
                    let quantity = c.u32(l, 0);
                    let item = c.tag(l, 1);
                    let price = c.u32(l, 2);
                    let o = MarketOffer::new(item, quantity, price);
                    if l.key == "SELL" { loc.market.sells.push(o) } else { loc.market.buys.push(o) }
                }
                "RECRUIT" => {
                    let count = c.u32(l, 0);
                    let race = c.tag(l, 1);
                    let price = c.u32(l, 2);
                    loc.recruits.push(RecruitOffer { race, count, price, hired: 0 });
                }
                "RESOURCES" | "RESOURCE" => {
                    let item = c.tag(l, 0);
                    let current = c.u32(l, 1);
                    let max = c.u32_or(l, 2, current);
                    loc.resources.push(ResourceStock { item, current, max });
                }
                "TITLE" => {
                    // `TITLE title location [holder]`, also written `TITLE title holder location`.
                    let title = c.tag(l, 0);
                    let (at, holder) = if !l.arg(2).is_empty() && !ids.contains(l.arg(1)) && ids.contains(l.arg(2)) {
                        (l.arg(2), l.arg(1))
                    } else {
                        (l.arg(1), l.arg(2))
                    };
                    if !at.is_empty() && at != id {
                        c.warn(l.no, format!("TITLE {title} names location {at} but is listed in {id}; kept in {id}"));
                    }
                    let holder = (!holder.is_empty()).then(|| holder.to_string());
                    loc.titles.push(TitleHolding { title, holder });
                }
                "UNIT" | "CONSTRUCTION" => {
                    let what = c.tag(l, 0);
                    let places = if l.key == "UNIT" { &mut units } else { &mut structures };
                    if let Some((other, _, line)) = places.get(&what) {
                        c.warn(
                            l.no,
                            format!(
                                "{} {what} already listed in {other} (line {line}); this listing is ignored",
                                l.key
                            ),
                        );
                    } else {
                        places.insert(what, (id.clone(), f.path.clone(), l.no));
                    }
                }
                "XY" => {
                    let x = c.int(l, 0);
                    let y = c.int(l, 1);
                    xy = Some((x, y, l.no));
                }
                "EXIT" => {
                    let dir = c.tag(l, 0);
                    let to = c.tag(l, 1);
                    c.extra(l, 2);
                    loc.exits.push(Exit { dir, to, mode: None, days: None });
                }
                "EXIT_EXPLICIT" => {
                    let dir = c.tag(l, 0);
                    let to = c.tag(l, 1);
                    let mode = Some(c.tag(l, 2));
                    let days = Some(c.u32_or(l, 3, 1));
                    loc.exits.push(Exit { dir, to, mode, days });
                }
                "ITEM" => {
                    let item = c.tag(l, 0);
                    let n = c.u32(l, 1);
                    loc.inventory.push(ItemCount(item, n));
                }
                _ => c.unknown(l, "LOCATION"),
            }
        }
        // An exit OUT makes an inner location of the place it leads to.
        let outs: BTreeSet<&str> =
            loc.exits.iter().filter(|e| e.dir.eq_ignore_ascii_case("OUT")).map(|e| e.to.as_str()).collect();
        if let Some(first) = outs.iter().next() {
            loc.kind = LocationKind::Inner;
            loc.container = Some(first.to_string());
            if outs.len() > 1 {
                c.warn(
                    r.head.no,
                    format!("location {id} has exits OUT to several places; {first} taken as its container"),
                );
            }
        }
        if let Some((x, y, no)) = xy {
            if loc.kind == LocationKind::Inner {
                if (x, y) != (0, 0) {
                    c.warn(no, format!("XY {x} {y} of inner location {id} ignored: inner locations have no hex"));
                }
            } else if *parity.get_or_insert((x + y).rem_euclid(2)) != (x + y).rem_euclid(2) {
                c.warn(
                    no,
                    format!("XY {x} {y} is off the hex grid of the other territories (x + y parity); hex left unset"),
                );
            } else {
                // Legacy XY: x grows east, y grows north, and a step north is +2 in y
                // (NE is +1 +1). Axial (q, r) with r growing south: q = x, r = -⌊(x + y) / 2⌋.
                loc.hex = Some((x as i32, -((x + y).div_euclid(2)) as i32));
            }
        }
        out.push(loc);
        lines.push(r.head.no);
    }
    enter_inner_locations(c, &mut out, &lines);
    (out, units, structures)
}

/// LOC-INNER: "Movement is always possible between the inner location and the
/// container". Where a container lists no exit into one of its inner locations (most
/// alpha cities), it gets an exit IN for each of the inner location's ways OUT, with
/// the same mode and days. `lines`: each location's record line.
fn enter_inner_locations(c: &mut Conv, out: &mut [Location], lines: &[usize]) {
    let index: BTreeMap<String, usize> = out.iter().enumerate().map(|(i, l)| (l.id.to_string(), i)).collect();
    for i in 0..out.len() {
        let Some(container) = out[i].container.clone() else { continue };
        let Some(&ci) = index.get(container.as_str()) else { continue };
        let id = out[i].id.clone();
        if out[ci].exits.iter().any(|e| e.to == id) {
            continue;
        }
        let ways: Vec<Exit> = out[i]
            .exits
            .iter()
            .filter(|e| e.to == container)
            .map(|e| Exit { dir: "IN".into(), to: id.clone(), mode: e.mode.clone(), days: e.days })
            .collect();
        out[ci].exits.extend(ways);
        c.warn(
            lines[ci],
            format!("location {container} lists no exit into its inner location {id}: exits IN added, as its ways OUT"),
        );
    }
}

fn structures(c: &mut Conv, f: &LegacyFile, places: &Places) -> Vec<Structure> {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    for r in &f.records {
        if !dedupe(c, &mut seen, r) {
            continue;
        }
        let id = r.tag().to_string();
        let mut s = Structure { id: id.clone(), ..Default::default() };
        let mut faction: Option<(String, usize)> = None;
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut s.name, l),
                "DESCRIPTION" => c.set_text(&mut s.description, l),
                "CONSTRUCTION" => s.kind = c.tag(l, 0),
                "OWNER" => s.owner = Some(c.tag(l, 0)),
                "FACTION" => faction = Some((c.tag(l, 0), l.no)),
                "PUBLIC" => s.public = true,
                "ADVERTISE" => s.advertise = true,
                "ORDER" => s.orders.push(l.rest.clone()),
                "COMBAT_TACTICS" => s.tactics = Some(Box::new(tactics(c, l))),
                _ => c.unknown(l, "BUILDING"),
            }
        }
        if let Some((fac, no)) = faction {
            match &s.owner {
                None => s.owner = Some(fac),
                Some(o) if *o != fac => c.warn(no, format!("FACTION {fac} differs from OWNER {o}; the owner is kept")),
                _ => {}
            }
        }
        match places.get(&id) {
            Some((loc, _, _)) => s.location = loc.clone(),
            None => c.error(r.head.no, format!("building {id} is not listed in any location (CONSTRUCTION {id})")),
        }
        out.push(s);
    }
    for (id, (_, path, line)) in places {
        if !seen.contains_key(id) {
            c.file(path);
            c.warn(*line, format!("CONSTRUCTION {id} names no building of {}", f.path.display()));
            c.file(&f.path);
        }
    }
    out
}

fn units(c: &mut Conv, f: &LegacyFile, places: &Places, structures: &[Structure]) -> Vec<Unit> {
    c.file(&f.path);
    let mut out = Vec::new();
    let mut seen = BTreeMap::new();
    let structure_loc: BTreeMap<&str, &str> = structures.iter().map(|s| (s.id.as_str(), s.location.as_str())).collect();
    for r in &f.records {
        if !dedupe(c, &mut seen, r) {
            continue;
        }
        let id = r.tag().to_string();
        let mut u = Unit { id: id.clone(), ..Default::default() };
        let mut skill_lines: BTreeMap<String, usize> = BTreeMap::new();
        for l in &r.body {
            match l.key.as_str() {
                "NAME" => c.set_text(&mut u.name, l),
                "DESCRIPTION" => c.set_text(&mut u.description, l),
                "FACTION" => u.faction = c.tag(l, 0),
                "RACE" => {
                    u.race = c.tag(l, 0);
                    u.figures = c.u32_or(l, 1, 1);
                }
                "ITEM" => {
                    let item = c.tag(l, 0);
                    let n = c.u32(l, 1);
                    let e = c.u32_or(l, 2, 0);
                    match u.items.iter_mut().find(|h| h.0 == item) {
                        Some(h) => {
                            c.warn(l.no, format!("ITEM {item} listed again; the counts are added"));
                            h.1 += n;
                            h.2 += e;
                        }
                        None => u.items.push(ItemHolding(item, n, e)),
                    }
                }
                "SKILL" => {
                    let s = c.tag(l, 0);
                    let e = c.u32(l, 1);
                    if let Some(first) = skill_lines.get(&s) {
                        c.warn(
                            l.no,
                            format!("SKILL {s} listed again (first at line {first}); the higher experience is kept"),
                        );
                        if let Some(x) = u.skills.iter_mut().find(|x| x.0 == s) {
                            x.1 = x.1.max(e);
                        }
                    } else {
                        skill_lines.insert(s.clone(), l.no);
                        u.skills.push(SkillExperience(s, e));
                    }
                }
                "COMBAT_TACTICS" => u.tactics = Some(std::sync::Arc::new(tactics(c, l))),
                "COMBAT_ORDER" => u.combat_orders.push(l.rest.clone()),
                "ORDER" => {
                    c.order_at(&id, u.orders.len(), l.no);
                    u.orders.push(l.rest.clone());
                }
                "SILENT" => u.settings.silent = true,
                "ADVERTISE" => u.settings.advertise = true,
                "LOYALITY" | "LOYALTY" => u.settings.loyalty = Some(c.u32(l, 0)),
                "STACK" => u.stack_leader = Some(c.tag(l, 0)),
                "CONTAINER" => u.structure = Some(c.tag(l, 0)),
                _ => c.unknown(l, "UNIT"),
            }
        }
        if u.race.is_empty() {
            c.error(r.head.no, format!("unit {id} has no RACE"));
        }
        let listed = places.get(&id).map(|(l, _, _)| l.clone());
        let in_structure = u.structure.as_deref().and_then(|s| structure_loc.get(s)).map(|s| s.to_string());
        u.location = match (listed, in_structure) {
            (Some(l), Some(s)) if l != s => {
                c.warn(r.head.no, format!("unit {id} is listed in {l} but its container stands in {s}; {s} used"));
                s
            }
            (Some(l), _) => l,
            (None, Some(s)) => s,
            (None, None) => {
                c.error(r.head.no, format!("unit {id} is not listed in any location and is in no building"));
                String::new()
            }
        };
        out.push(u);
    }
    for (id, (_, path, line)) in places {
        if !seen.contains_key(id) {
            c.file(path);
            c.warn(*line, format!("UNIT {id} names no unit of {}", f.path.display()));
            c.file(&f.path);
        }
    }
    out
}

/// Copies the order files of the current turn (`<players>/<faction>/orders.<turn>`)
/// into the scenario, checking their headers.
fn orders(c: &mut Conv, players: &Path, factions: &[Faction], game: &GameSettings) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(players) else { return out };
    let mut dirs: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    for d in dirs {
        let fid = d.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let Ok(files) = std::fs::read_dir(&d) else { continue };
        let mut files: Vec<PathBuf> = files.flatten().map(|e| e.path()).collect();
        files.sort();
        for p in files {
            c.file(&p);
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if name != format!("orders.{}", game.turn) {
                c.warn(0, format!("{name} is not an order file for turn {}; not converted", game.turn));
                continue;
            }
            let text = match std::fs::read(&p) {
                Ok(b) => String::from_utf8_lossy(&b).replace('\r', ""),
                Err(e) => {
                    c.warn(0, format!("cannot read: {e}"));
                    continue;
                }
            };
            let head = text.lines().enumerate().find_map(|(i, raw)| lexer::parse_line(i + 1, raw));
            match head {
                Some(h) if h.key == "GAME" || h.key == "#GAME" => {
                    let (f, pw) = (h.arg(0), h.arg(1));
                    match factions.iter().find(|x| x.id == f) {
                        None => c.warn(h.no, format!("order file for unknown faction {f}")),
                        Some(x) if x.password != pw => {
                            c.warn(h.no, format!("order file for {f} has the wrong password"))
                        }
                        _ => {}
                    }
                    if f != fid {
                        c.warn(h.no, format!("order file of faction {f} stored in the folder of {fid}"));
                    }
                    out.push((format!("{f}.txt"), text));
                }
                _ => c.warn(1, "order file without a GAME header line; not converted"),
            }
        }
    }
    out
}
