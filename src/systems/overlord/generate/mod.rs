//! Random worlds of any size, for play-testing and benchmarks.
//!
//! `overlord generate --locations N --factions F --units U --seed S <out>` draws
//! everything from a rule set: territories on a hex map with terrains and their
//! resources, cities inside some territories with markets and recruits, NPC
//! factions, and player units with plausible races, skills, equipment and a mix
//! of pending orders. The same options and rule set give the same bytes.
//! Every player unit uses its race's control points once, so that a faction of
//! as many units as its starting control points acts all month; past that, the
//! generator warns ([`over_control`]).
//!
//! Randomness comes from separate ChaCha streams per purpose (map, cities,
//! factions, units per group), so changing one part of the generator does not
//! reshuffle the others, and the number of factions changes only who owns the
//! units.

use crate::core::diag::Diagnostic;
use crate::systems::overlord::data::*;
use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// Territories on the map.
    pub locations: usize,
    /// Player factions.
    pub factions: usize,
    /// Units, all factions together.
    pub units: usize,
    /// Seed of every draw.
    pub seed: u64,
}

/// Knobs of the generator's world shape. They shape test worlds only; no rule
/// of the game reads them.
struct Shape {
    /// One territory in this many holds a city.
    territories_per_city: usize,
    /// New factions that start in a city before the next one is used.
    starts_per_city: u32,
    /// Chance in % that a territory repeats its neighbour's terrain (larger regions).
    terrain_cluster_percent: u32,
    /// Chance in % that a territory is water, when the rule set has water terrains.
    water_percent: u32,
    /// Units per stack group (one leader and its followers).
    group_size: usize,
    /// Groups around one home territory, whoever owns them: 200 units, what
    /// each of the 5,000 factions of the million-unit benchmark world holds.
    groups_per_home: usize,
    /// Largest follower unit, and never more than the rule set's
    /// `figures_per_control_point`: a generated unit uses its race's control
    /// points once (CP-UNIT), so that a faction of as many units as its starting
    /// control points can afford acts all month (the million-unit benchmark's 200
    /// units a faction; with units of up to 40 figures 94% of them refused to act,
    /// docs/performance.md).
    max_figures: u32,
    /// Starting coins of a faction, a range.
    faction_funds: (u64, u64),
    /// Share of units (‰) that belong to the NPC monster faction.
    monster_permille: usize,
}

const SHAPE: Shape = Shape {
    territories_per_city: 25,
    starts_per_city: 5,
    terrain_cluster_percent: 55,
    water_percent: 12,
    group_size: 5,
    groups_per_home: 40,
    max_figures: 40,
    faction_funds: (2_000, 20_000),
    monster_permille: 30,
};

/// A seeded stream for one purpose (and optionally one entity).
fn stream(seed: u64, purpose: u64, entity: u64) -> ChaCha8Rng {
    // SplitMix64 finaliser over the three inputs: unrelated seeds per stream.
    let mut z = seed ^ purpose.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ entity.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ChaCha8Rng::seed_from_u64(z ^ (z >> 31))
}

const MAP: u64 = 1;
const CITIES: u64 = 2;
const FACTIONS: u64 = 3;
const UNITS: u64 = 4;

fn pick<'a, T>(rng: &mut ChaCha8Rng, v: &'a [T]) -> Option<&'a T> {
    if v.is_empty() { None } else { Some(&v[rng.random_range(0..v.len())]) }
}

/// The skill a piece of equipment needs and the level of it a generated unit
/// is given with the equipment: the level required, within the skill's levels.
fn equip_level<'r>(r: &'r RuleSet, req: &SkillLevelReq) -> Option<(&'r Skill, &'r SkillLevel)> {
    let sk = r.skills.iter().find(|s| s.tag == req.skill)?;
    let level = (req.level as usize).clamp(1, sk.system.levels.len().max(1));
    Some((sk, sk.system.levels.get(level - 1)?))
}

/// What the generator draws from the rule set, found once.
struct Palette<'a> {
    land: Vec<&'a Terrain>,
    water: Vec<&'a Terrain>,
    settlement: Option<&'a Terrain>,
    hex_dirs: Vec<(&'a str, (i32, i32))>,
    dir_in: Option<&'a str>,
    dir_out: Option<&'a str>,
    leader: Option<&'a Race>,
    followers: Vec<&'a Race>,
    creatures: Vec<&'a Race>,
    recruitable: Vec<&'a Race>,
    money: Option<&'a str>,
    equipment: Vec<&'a Item>,
    goods: Vec<&'a Item>,
    study: Vec<&'a Skill>,
    usable: Vec<&'a Skill>,
    weathers: Vec<&'a str>,
    stances: Vec<&'a Stance>,
    /// Every unit's combat settings, shared.
    tactics: Option<std::sync::Arc<CombatTactics>>,
}

impl<'a> Palette<'a> {
    fn new(r: &'a RuleSet) -> Result<Palette<'a>, String> {
        let walk = r.movement.modes.first().map(|m| m.tag.as_str()).ok_or("the rule set has no movement modes")?;
        let water_mode =
            r.movement.modes.iter().map(|m| m.tag.as_str()).find(|t| {
                r.terrains.iter().any(|x| x.travel_days.contains_key(*t) && !x.travel_days.contains_key(walk))
            });
        let land: Vec<&Terrain> =
            r.terrains.iter().filter(|t| !t.covered && t.travel_days.get(walk).is_some_and(|d| *d > 1)).collect();
        if land.is_empty() {
            return Err("the rule set has no walkable open terrain".into());
        }
        let water = match water_mode {
            Some(m) => r
                .terrains
                .iter()
                .filter(|t| !t.covered && t.travel_days.contains_key(m) && !t.travel_days.contains_key(walk))
                .collect(),
            None => Vec::new(),
        };
        // Settlements: terrains crossed in a single day, the most populous first.
        let settlement = r
            .terrains
            .iter()
            .filter(|t| t.travel_days.get(walk) == Some(&1))
            .max_by_key(|t| (t.system.optimum_population, std::cmp::Reverse(t.tag.clone())));
        let hex_dirs = r.movement.directions.iter().filter_map(|d| d.hex.map(|h| (d.tag.as_str(), h))).collect();
        let dir_named =
            |n: &str| r.movement.directions.iter().find(|d| d.tag.eq_ignore_ascii_case(n)).map(|d| d.tag.as_str());
        let recruitable: Vec<&Race> = r
            .races
            .iter()
            .filter(|x| x.system.recruit_cost > 0 && x.system.recruit_fraction > 0 && !x.system.hero)
            .collect();
        let leader = recruitable
            .iter()
            .copied()
            .filter(|x| x.system.kind == RaceKind::Leader)
            .min_by_key(|x| x.system.recruit_cost);
        let followers: Vec<&Race> =
            recruitable.iter().copied().filter(|x| x.system.kind == RaceKind::Follower).collect();
        let creatures: Vec<&Race> =
            r.races.iter().filter(|x| x.system.kind == RaceKind::Creature && x.system.stats.melee > 0).collect();
        // Money: the item the factions' funds are kept in, i.e. the first item with
        // neither weight nor price (coins count themselves).
        let money =
            r.items.iter().find(|i| i.weight == 0 && i.price == 0 && i.system.flags.is_empty()).map(|i| i.tag.as_str());
        let skill_known = |s: &SkillLevelReq| r.skills.iter().any(|k| k.tag == s.skill);
        let equipment: Vec<&Item> = r
            .items
            .iter()
            .filter(|i| {
                i.system.slot.is_some()
                    && i.price > 0
                    && i.system.flags.is_empty()
                    && i.system.equip_skill.as_ref().is_none_or(skill_known)
                    // Nothing a generated unit holds or knows gives it mana, which
                    // would cost control points (CP-MAGE).
                    && i.system.stats.mana <= 0
                    && i.system.equip_skill.as_ref().and_then(|req| equip_level(r, req)).is_none_or(|(_, l)| l.stats.mana <= 0)
            })
            .collect();
        let goods: Vec<&Item> =
            r.items.iter().filter(|i| i.system.slot.is_none() && i.price > 0 && i.weight > 0).collect();
        let study: Vec<&Skill> = r
            .skills
            .iter()
            .filter(|s| {
                !s.system.levels.is_empty()
                    && s.system.levels[0].stats.mana <= 0
                    && s.system.requires.is_empty()
                    && !s.system.flags.iter().any(|f| {
                        matches!(
                            f,
                            SkillFlag::NoLearn | SkillFlag::CreatureOnly | SkillFlag::LeaderOnly | SkillFlag::Magic
                        )
                    })
            })
            .collect();
        let usable = study.iter().copied().filter(|s| s.system.levels[0].production.is_some()).collect();
        let weathers = r.climate.weathers.iter().map(|w| w.tag.as_str()).collect();
        let mut stances: Vec<&Stance> = r.stances.iter().collect();
        stances.sort_by_key(|s| s.rank);
        let first = |v: &[NamedValue]| v.first().map(|x| x.tag.clone()).unwrap_or_default();
        let tactics = (!r.combat.stances.is_empty()).then(|| {
            std::sync::Arc::new(CombatTactics {
                stance: first(&r.combat.stances),
                rank: r.combat.ranks.last().map(|x| x.tag.clone()).unwrap_or_default(),
                file: r.combat.files.get(r.combat.files.len() / 2).map(|x| x.tag.clone()).unwrap_or_default(),
                movement: first(&r.combat.moves),
            })
        });
        Ok(Palette {
            land,
            water,
            settlement,
            hex_dirs,
            dir_in: dir_named("IN"),
            dir_out: dir_named("OUT"),
            leader,
            followers,
            creatures,
            recruitable,
            money,
            equipment,
            goods,
            study,
            usable,
            weathers,
            stances,
            tactics,
        })
    }
}

/// Width of zero-padded ids for `n` records.
fn width(n: usize) -> usize {
    n.max(1).to_string().len()
}

/// Generates a scenario on rule set `r` (whose folder name is `ruleset`).
pub fn generate(r: &RuleSet, ruleset: &str, o: &Options) -> Result<Scenario, String> {
    // Wages within the rule set's bounds (POP-ECON).
    let e = &r.economy.population;
    let wage_range = e.wage_min.max(1)..=e.wage_max.max(e.wage_min).max(1);
    if o.locations == 0 {
        return Err("--locations must be at least 1".into());
    }
    if o.factions == 0 && o.units > 0 {
        return Err("--factions must be at least 1 when there are units".into());
    }
    let p = Palette::new(r)?;
    let months = r.climate.months.len().max(1) as u32;
    let mut game = GameSettings {
        name: format!("gen{}", o.seed),
        title: format!(
            "Generated world ({} territories, {} factions, {} units, seed {})",
            o.locations, o.factions, o.units, o.seed
        ),
        ruleset: ruleset.to_string(),
        seed: o.seed,
        days_per_month: r.info.parameters.market_days.iter().copied().max().unwrap_or(30).max(1),
        start_month: (o.seed % months as u64) as u32,
        turn: 0,
        email: String::new(),
        deadline: String::new(),
        joining: Default::default(),
    };

    // ---- map: territories on a rectangle of hexes (odd-q offset layout)
    let mut rng = stream(o.seed, MAP, 0);
    let w = (o.locations as f64).sqrt().ceil() as usize;
    let lw = width(o.locations);
    let mut locations: Vec<Location> = Vec::with_capacity(o.locations + o.locations / SHAPE.territories_per_city + 1);
    let mut at: HashMap<(i32, i32), usize> = HashMap::with_capacity(o.locations);
    for i in 0..o.locations {
        let (col, row) = ((i % w) as i32, (i / w) as i32);
        let hex = (col, row - (col - (col & 1)) / 2);
        // Continue the terrain of the western or northern neighbour, or draw a new one.
        let neighbour = if i % w > 0 {
            Some(i - 1)
        } else if i >= w {
            Some(i - w)
        } else {
            None
        };
        let terrain = match neighbour {
            Some(n) if rng.random_range(0..100) < SHAPE.terrain_cluster_percent => locations[n].terrain.clone(),
            _ if !p.water.is_empty() && rng.random_range(0..100) < SHAPE.water_percent => {
                pick(&mut rng, &p.water).map(|t| t.tag.clone()).unwrap_or_default()
            }
            _ => pick(&mut rng, &p.land).map(|t| t.tag.clone()).unwrap_or_default(),
        };
        let t = r.terrains.iter().find(|x| x.tag == terrain).ok_or("terrain vanished")?;
        let pop = if t.system.optimum_population > 0 {
            let base = t.system.optimum_population;
            rng.random_range(base * 8 / 10..=base * 12 / 10)
        } else {
            0
        };
        let mut resources = Vec::new();
        for res in &t.system.resources {
            if rng.random_range(0..100) < res.chance {
                let n = rng.random_range(res.amount / 2..=res.amount.max(1));
                resources.push(ResourceStock { item: res.item.clone(), current: n, max: n });
            }
        }
        at.insert(hex, i);
        locations.push(Location {
            id: format!("L{:0lw$}", i + 1),
            terrain,
            hex: Some(hex),
            weather: pick(&mut rng, &p.weathers).map(|s| s.to_string()),
            population: pop,
            wages: if pop > 0 { rng.random_range(wage_range.clone()) } else { 0 },
            economy: 100,
            land: 100,
            policy: "neutral".into(),
            resources,
            ..Default::default()
        });
    }
    for i in 0..o.locations {
        let (q, rr) = locations[i].hex.unwrap_or_default();
        for (dir, (dq, dr)) in &p.hex_dirs {
            if let Some(&j) = at.get(&(q + dq, rr + dr)) {
                let to = locations[j].id.clone();
                locations[i].exits.push(Exit { dir: dir.to_string(), to, mode: None, days: None });
            }
        }
    }

    // ---- cities inside some territories
    let mut rng = stream(o.seed, CITIES, 0);
    let mut cities = Vec::new();
    if let (Some(st), Some(din), Some(dout)) = (p.settlement, p.dir_in, p.dir_out) {
        let land_idx: Vec<usize> =
            (0..o.locations).filter(|&i| p.land.iter().any(|t| t.tag == locations[i].terrain)).collect();
        let n = (o.locations / SHAPE.territories_per_city).max(usize::from(!land_idx.is_empty()));
        let cw = width(n);
        let step = (land_idx.len() / n.max(1)).max(1);
        for k in 0..n.min(land_idx.len()) {
            let host = land_idx[k * step + rng.random_range(0..step).min(land_idx.len() - 1 - k * step)];
            let id = format!("C{:0cw$}", k + 1);
            let host_id = locations[host].id.clone();
            let pop = st.system.optimum_population * rng.random_range(6..=14) / 10;
            let mut sells: Vec<MarketOffer> = Vec::new();
            for _ in 0..6 {
                if let Some(it) = pick(&mut rng, &p.equipment)
                    && !sells.iter().any(|s| s.item == it.tag)
                {
                    sells.push(MarketOffer::new(it.tag.clone(), rng.random_range(5..=40), it.price));
                }
            }
            let mut buys: Vec<MarketOffer> = Vec::new();
            for _ in 0..4 {
                if let Some(it) = pick(&mut rng, &p.goods)
                    && !buys.iter().any(|s| s.item == it.tag)
                {
                    buys.push(MarketOffer::new(it.tag.clone(), rng.random_range(20..=200), it.price));
                }
            }
            let recruits = p
                .recruitable
                .iter()
                .map(|race| RecruitOffer {
                    race: race.tag.clone(),
                    count: (pop / race.system.recruit_fraction.max(1)).min(race.system.recruit_max.max(1)).max(1),
                    price: race.system.recruit_cost,
                    hired: 0,
                })
                .collect();
            locations[host].exits.push(Exit { dir: din.into(), to: id.clone(), mode: None, days: Some(1) });
            cities.push(locations.len());
            locations.push(Location {
                id: id.clone(),
                name: format!("City {}", k + 1),
                terrain: st.tag.clone(),
                kind: LocationKind::Inner,
                container: Some(host_id.clone()),
                exits: vec![Exit { dir: dout.into(), to: host_id, mode: None, days: Some(1) }],
                weather: locations[host].weather.clone(),
                population: pop,
                wages: rng.random_range(wage_range.clone()),
                economy: 100,
                land: 100,
                policy: "neutral".into(),
                market: Market { sells, buys, days: Vec::new() },
                recruits,
                ..Default::default()
            });
        }
    }

    // ---- factions: players, plus the NPC monsters and townsfolk
    let mut rng = stream(o.seed, FACTIONS, 0);
    let fw = width(o.factions);
    let neutral = p.stances.get(p.stances.len() / 2).map(|s| s.tag.clone()).unwrap_or_default();
    // The monsters bar the way and clash with guards, but do not attack on sight
    // (which would make every monster a daily battle).
    let hostile = p
        .stances
        .iter()
        .find(|s| !s.grants.contains(&StanceGrant::AttackOnSight) && s.grants.contains(&StanceGrant::Clash))
        .map_or_else(|| neutral.clone(), |s| s.tag.clone());
    let mut factions = Vec::with_capacity(o.factions + 2);
    let monsters = "m1".to_string();
    factions.push(Faction {
        id: monsters.clone(),
        name: "Monsters".into(),
        password: String::new(),
        email: String::new(),
        npc: true,
        default_stance: hostile,
        stances: Default::default(),
        funds: Default::default(),
        known_skills: Vec::new(),
        known: Vec::new(),
        settings: Default::default(),
        takes_resignations: false,
        destroyed: false,
        creatures: true,
        serves_overlord: false,
        start: None,
        provoked: None,
        spared_by: Vec::new(),
        explored: Vec::new(),
    });
    factions.push(Faction {
        id: "t1".into(),
        name: "Townsfolk".into(),
        default_stance: neutral.clone(),
        takes_resignations: true,
        destroyed: false,
        creatures: false,
        // The citizens (TTL-OVERLORD).
        serves_overlord: true,
        ..factions[0].clone()
    });
    for k in 0..o.factions {
        let mut funds = std::collections::BTreeMap::new();
        if let Some(m) = p.money {
            funds.insert(m.to_string(), rng.random_range(SHAPE.faction_funds.0..=SHAPE.faction_funds.1));
        }
        factions.push(Faction {
            id: format!("f{:0fw$}", k + 1),
            name: format!("Faction {}", k + 1),
            password: format!("pw{:08x}", rng.random::<u32>()),
            email: format!("player{}@example.org", k + 1),
            npc: false,
            default_stance: neutral.clone(),
            stances: Default::default(),
            funds,
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
        });
    }

    // ---- units
    let uw = width(o.units);
    let monster_units = if p.creatures.is_empty() { 0 } else { o.units * SHAPE.monster_permille / 1000 };
    let player_units = o.units - monster_units;
    let mut units: Vec<Unit> = Vec::with_capacity(o.units);
    let land_locs: Vec<usize> =
        (0..o.locations).filter(|&i| p.land.iter().any(|t| t.tag == locations[i].terrain)).collect();
    let homes: Vec<usize> = if land_locs.is_empty() { (0..o.locations).collect() } else { land_locs.clone() };
    // The player units are the same whatever the number of factions, which only
    // share them out: groups (a leader, then followers that may stack under it),
    // each drawn from a stream of its own and placed around a home territory (a
    // home for every few groups, the homes spread over the land), go to the factions a run of consecutive units each (the first
    // `units % factions` one more). So 1,000 and 50,000 factions own the same
    // units, in the same places with the same orders (what the benchmarks of
    // docs/performance.md compare); a follower stacks under its group's leader
    // only when both are of one faction.
    let home_count = player_units.div_ceil(SHAPE.group_size * SHAPE.groups_per_home).max(1);
    let owners: Vec<usize> = (0..o.factions)
        .flat_map(|k| std::iter::repeat_n(k, player_units / o.factions + usize::from(k < player_units % o.factions)))
        .collect();
    let most_figures = SHAPE.max_figures.min(r.info.parameters.figures_per_control_point.max(1));
    let mut rng = stream(o.seed, UNITS, 0);
    let mut leader_id: Option<(String, usize)> = None;
    let mut group_loc = 0;
    for (n, &k) in owners.iter().enumerate() {
        let id = format!("U{:0uw$}", units.len() + 1);
        let lead = n % SHAPE.group_size == 0;
        if lead {
            let g = n / SHAPE.group_size;
            rng = stream(o.seed, UNITS, g as u64);
            leader_id = None;
            let home = homes[(g / SHAPE.groups_per_home * homes.len()) / home_count % homes.len()];
            group_loc = if !cities.is_empty() && rng.random_range(0..4) == 0 {
                // A group in one of the cities, where the markets are.
                cities[rng.random_range(0..cities.len())]
            } else {
                // Groups spread around their home territory.
                let (q, rr) = locations[home].hex.unwrap_or_default();
                let dq = rng.random_range(-3..=3);
                let dr = rng.random_range(-3..=3);
                at.get(&(q + dq, rr + dr)).copied().unwrap_or(home)
            };
        }
        let (race, figures) = match (lead, p.leader, pick(&mut rng, &p.followers)) {
            (true, Some(l), _) | (false, Some(l), None) => (l, 1),
            (_, _, Some(f)) => (*f, rng.random_range(1..=most_figures)),
            _ => return Err("the rule set has no recruitable races".into()),
        };
        let fid = &factions[k + 2].id;
        let mut u = make_unit(&mut rng, &p, r, id.clone(), fid, race, figures, &locations[group_loc]);
        if !lead
            && race.system.kind != RaceKind::Leader
            && let Some((lid, lk)) = &leader_id
            && rng.random_range(0..2) == 0
            && *lk == k
        {
            u.stack_leader = Some(lid.clone());
        }
        if race.system.kind == RaceKind::Leader {
            leader_id = Some((id, k));
        }
        units.push(u);
    }
    let mut rng = stream(o.seed, UNITS, u64::MAX);
    for _ in 0..monster_units {
        let id = format!("U{:0uw$}", units.len() + 1);
        let race = *pick(&mut rng, &p.creatures).ok_or("no creatures")?;
        let loc = *pick(&mut rng, &homes).unwrap_or(&0);
        let mut u = Unit {
            id,
            name: race.plural.clone(),
            faction: monsters.clone(),
            race: race.tag.clone(),
            figures: rng.random_range(1..=12),
            location: locations[loc].id.clone(),
            tactics: p.tactics.clone(),
            ..Default::default()
        };
        if u.name.is_empty() {
            u.name = race.name.clone();
        }
        u.orders.push("@GUARD".into());
        units.push(u);
    }
    // New players start in the cities, a few together (START-PLACE; docs/joining.md).
    if !cities.is_empty() {
        game.joining.default_stance = neutral.clone();
        game.joining.places.push(crate::systems::overlord::data::StartPlace {
            tag: "city".into(),
            name: "City".into(),
            bonus: Default::default(),
            locations: cities.iter().map(|&i| locations[i].id.clone()).collect(),
            fair: Some(SHAPE.starts_per_city),
        });
    }
    Ok(Scenario { game, factions, locations, structures: Vec::new(), units, orders: Vec::new() })
}

#[allow(clippy::too_many_arguments)]
fn make_unit(
    rng: &mut ChaCha8Rng,
    p: &Palette,
    r: &RuleSet,
    id: String,
    faction: &str,
    race: &Race,
    figures: u32,
    loc: &Location,
) -> Unit {
    let mut u = Unit {
        name: format!("{} {}", if figures > 1 { &race.plural } else { &race.name }, &id[1..]),
        id,
        faction: faction.to_string(),
        race: race.tag.clone(),
        figures,
        location: loc.id.clone(),
        tactics: p.tactics.clone(),
        ..Default::default()
    };
    if let Some(m) = p.money {
        u.items.push(ItemHolding(m.to_string(), rng.random_range(0..=500), 0));
    }
    // A piece of equipment for every figure, with the skill to use it.
    if let Some(item) = pick(rng, &p.equipment) {
        let n = figures * item.system.max_per_figure.max(1);
        u.items.push(ItemHolding(item.tag.clone(), n, n));
        if let Some(req) = &item.system.equip_skill
            && let Some((sk, level)) = equip_level(r, req)
        {
            u.skills.push(SkillExperience(sk.tag.clone(), level.experience));
        }
    }
    // One or two more skills at their first level.
    for _ in 0..rng.random_range(1..=2) {
        if let Some(sk) = pick(rng, &p.study)
            && !u.skills.iter().any(|s| s.0 == sk.tag)
        {
            u.skills.push(SkillExperience(sk.tag.clone(), sk.system.levels[0].experience));
        }
    }
    // A plausible order, one the unit's kind may give (BUY and SELL are leaders').
    let leader = race.system.kind == RaceKind::Leader;
    let order = match rng.random_range(0..7) {
        0 => pick(rng, &p.study).map(|s| format!("STUDY {}", s.tag)),
        1 => Some("WORK".to_string()),
        2 => pick(rng, &p.usable).map(|s| {
            if !u.skills.iter().any(|x| x.0 == s.tag) {
                u.skills.push(SkillExperience(s.tag.clone(), s.system.levels[0].experience));
            }
            format!("USE {}", s.tag)
        }),
        3 => pick(rng, &loc.exits).map(|e| format!("MOVE {}", e.dir)),
        4 | 5 if !leader => Some("WORK".to_string()),
        4 => loc.market.sells.first().map(|o| format!("BUY {} {}", rng.random_range(1..=o.quantity.max(1)), o.item)),
        5 => loc.market.buys.first().map(|o| {
            let n = rng.random_range(1..=10);
            u.items.push(ItemHolding(o.item.clone(), n, 0));
            format!("SELL {n} {}", o.item)
        }),
        _ => Some("@GUARD".to_string()),
    };
    u.orders.push(order.unwrap_or_else(|| "WORK".to_string()));
    u
}

/// The player factions of `s` that need more control points than they start
/// with (CP-BASE, CP-CHECK), with the points they need, in faction order: each
/// month their units may refuse to act (CP-IDLE). A generated unit holds and
/// knows nothing that gives mana, so it needs what its race, its figures
/// (CP-UNIT) and its race's own mana (CP-MAGE) say, as the engine reckons them
/// ([`Parameters::control_points`]).
pub fn over_control(r: &RuleSet, s: &Scenario) -> Vec<(String, u64)> {
    let params = &r.info.parameters;
    // Each race's control points and own mana, by tag.
    let races: HashMap<&str, (i32, i32)> = r
        .races
        .iter()
        .map(|x| (x.tag.as_str(), (x.system.stats.control, x.system.stats.with_defaults(&params.default_stats).mana)))
        .collect();
    let mut need: HashMap<&str, u64> = HashMap::new();
    for u in &s.units {
        let Some(&(control, mana)) = races.get(u.race.as_str()) else { continue };
        *need.entry(u.faction.as_str()).or_default() += params.control_points(control, u.figures, mana).max(0) as u64;
    }
    let max = u64::from(params.starting_control_points);
    s.factions
        .iter()
        .filter(|f| !f.npc)
        .filter_map(|f| need.get(f.id.as_str()).filter(|&&n| n > max).map(|&n| (f.id.clone(), n)))
        .collect()
}

/// Generates a scenario from the rule set in `rules_dir` and writes it to `out`.
/// Returns the one-line summary of what was written, and a warning line when
/// factions hold more units than their control points afford ([`over_control`]).
pub fn generate_to_dir(rules_dir: &Path, o: &Options, out: &Path) -> Result<String, Vec<Diagnostic>> {
    let rules = load_ruleset(rules_dir)?;
    let name = rules_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let s = generate(&rules, &name, o).map_err(|e| vec![Diagnostic::error(rules_dir, 0, 0, e)])?;
    let over = over_control(&rules, &s);
    write_scenario(out, &s).map_err(|e| vec![Diagnostic::error(out, 0, 0, format!("cannot write: {e}"))])?;
    // Point the generated scenario at the rule set it was drawn from.
    let abs = std::fs::canonicalize(rules_dir).unwrap_or_else(|_| rules_dir.to_path_buf());
    let link = format!("{}\n", abs.display());
    crate::core::data::write_atomic(&out.join("rules.path"), link.as_bytes())
        .map_err(|e| vec![Diagnostic::error(out, 0, 0, format!("cannot write: {e}"))])?;
    let mut summary = format!("{}", Counts::of(&rules, &s));
    if let Some(most) = over.iter().map(|x| x.1).max() {
        let p = &rules.info.parameters;
        summary.push_str(&format!(
            "\nwarning: {} of the {} factions need more than the {} control points a faction starts with (up to \
             {most}): each month each of their units refuses to act with a chance of {}% a point over (CP-IDLE); \
             fewer units a faction would keep them within",
            over.len(),
            o.factions,
            p.starting_control_points,
            p.refusal_percent_per_control_point
        ));
    }
    Ok(summary)
}

/// Writes a scenario; the units file is streamed record by record so that a
/// world of millions of units never sits in memory as one text.
pub fn write_scenario(dir: &Path, s: &Scenario) -> std::io::Result<()> {
    let one = Scenario { units: Vec::new(), ..s.clone() };
    crate::systems::overlord::data::save_scenario(dir, &one)?;
    let path = dir.join("units.ron");
    let tmp = dir.join(".units.ron.tmp");
    {
        let f = std::fs::File::create(&tmp)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
        w.write_all(b"[\n")?;
        for u in &s.units {
            let text = crate::core::data::to_ron_record(u).map_err(std::io::Error::other)?;
            w.write_all(b"  ")?;
            w.write_all(text.as_bytes())?;
            w.write_all(b",\n")?;
        }
        w.write_all(b"]\n")?;
        let f = w.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
    }
    std::fs::rename(tmp, path)
}
