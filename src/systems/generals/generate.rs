//! Generals worlds of any size (`overlord generate --rules assets/rules/generals`):
//! regions on a hex grid, players spread over it, each with a home of a few
//! regions, troops and generals. The same options give the same bytes.
//!
//! The shape of a world (income and hire limit ranges, troop sizes, how many
//! regions a player starts with) is [`SHAPE`]; the game's numbers come from the
//! rule set.

use super::data::*;
use crate::core::engine::rng::{key_of, stream};
use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use std::collections::BTreeMap;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Regions.
    pub regions: usize,
    /// Players.
    pub players: usize,
    /// Troop units in all.
    pub troops: usize,
    /// Seed of the world and of the game.
    pub seed: u64,
}

/// The shape of a generated world.
pub struct Shape {
    /// A region's income, from … to ….
    pub income: (u32, u32),
    /// A region's hire limit.
    pub hire_limit: (u32, u32),
    /// Troop types offered per region, from … to ….
    pub hires: (usize, usize),
    /// Men per troop unit.
    pub men: (u32, u32),
    /// Regions a player starts with: its home and this many around it.
    pub home_neighbours: usize,
    /// Generals per player.
    pub generals: usize,
    /// A player's gold.
    pub treasury: u64,
    /// Victory points per turn for holding a player's home region …
    pub home_points: u32,
    /// … for a battle won, a general killed, per 100 gold at the end …
    pub battle_points: u32,
    /// … (see `battle_points`).
    pub general_points: u32,
    /// … (see `battle_points`).
    pub gold_points: u32,
    /// The game ends after this many turns.
    pub last_turn: u32,
}

/// The bundled shape.
pub const SHAPE: Shape = Shape {
    income: (5, 15),
    hire_limit: (30, 80),
    hires: (2, 3),
    men: (20, 100),
    home_neighbours: 2,
    generals: 2,
    treasury: 500,
    home_points: 3,
    battle_points: 5,
    general_points: 10,
    gold_points: 1,
    last_turn: 20,
};

const SYLLABLES: [&str; 16] =
    ["ar", "bel", "cor", "dun", "el", "fen", "gal", "hol", "ith", "kar", "lor", "mor", "nor", "os", "ran", "tir"];

fn name(rng: &mut ChaCha8Rng) -> String {
    let n = rng.random_range(2..=3);
    let mut s: String = (0..n).map(|_| SYLLABLES[rng.random_range(0..SYLLABLES.len())]).collect();
    if let Some(first) = s.get_mut(0..1) {
        first.make_ascii_uppercase();
    }
    s
}

fn between(rng: &mut ChaCha8Rng, (a, b): (u32, u32)) -> u32 {
    rng.random_range(a..=b.max(a))
}

/// The axial coordinates of region `i` of a grid `width` wide (offset rows
/// turned axial, so that the six neighbours are the hex directions).
fn hex(i: usize, width: usize) -> (i32, i32) {
    let (col, row) = ((i % width) as i32, (i / width) as i32);
    (col, row - col.div_euclid(2))
}

/// A world for `rules` as `o` asks. Fails when the rule set cannot make one (no
/// terrain, no troop type for hire, fewer skills than a general starts with) or
/// the options are impossible.
pub fn generate(rules: &RuleSet, o: &Options) -> Result<Scenario, String> {
    if o.regions == 0 || o.players == 0 {
        return Err("a world needs at least one region and one player".into());
    }
    if o.players > o.regions {
        return Err(format!("{} players need at least as many regions, not {}", o.players, o.regions));
    }
    let hireable: Vec<&TroopType> = rules.troops.iter().filter(|t| !t.undead).collect();
    let p = &rules.info.parameters;
    if rules.terrains.is_empty() || hireable.is_empty() || rules.skills.len() < p.starting_skills as usize {
        return Err("the rule set needs terrains, troop types for hire, and the skills a general starts with".into());
    }
    let defense = rules.combat.flanking_fallback.clone();
    let width = (o.regions as f64).sqrt().ceil() as usize;
    let mut rng = stream(o.seed, 0, "generate-map", 0);
    let at: BTreeMap<(i32, i32), usize> = (0..o.regions).map(|i| (hex(i, width), i)).collect();
    const DIRS: [(i32, i32); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)];
    let regions: Vec<Region> = (0..o.regions)
        .map(|i| {
            let (q, r) = hex(i, width);
            let adjacent =
                DIRS.iter().filter_map(|(dq, dr)| at.get(&(q + dq, r + dr))).map(|&k| format!("R{}", k + 1)).collect();
            let income = between(&mut rng, SHAPE.income);
            let hire = between(&mut rng, SHAPE.hire_limit);
            let n = rng.random_range(SHAPE.hires.0..=SHAPE.hires.1.max(SHAPE.hires.0)).min(hireable.len());
            let mut hires: Vec<String> = Vec::with_capacity(n);
            while hires.len() < n {
                let t = &hireable[rng.random_range(0..hireable.len())].tag;
                if !hires.contains(t) {
                    hires.push(t.clone());
                }
            }
            Region {
                id: format!("R{}", i + 1),
                name: name(&mut rng),
                terrain: rules.terrains[rng.random_range(0..rules.terrains.len())].tag.clone(),
                adjacent,
                income: (income, income),
                hire_limit: (hire, hire),
                hires,
                defense: defense.clone(),
                prepared_by: None,
                hex: Some((q, r)),
            }
        })
        .collect();
    // Homes spread evenly; each player takes its home and free regions around it.
    let mut owner: Vec<Option<usize>> = vec![None; o.regions];
    let mut lands: Vec<Vec<usize>> = vec![Vec::new(); o.players];
    for (k, land) in lands.iter_mut().enumerate() {
        let home = k * o.regions / o.players;
        owner[home] = Some(k);
        land.push(home);
    }
    for (k, land) in lands.iter_mut().enumerate() {
        let home = land[0];
        let around: Vec<usize> =
            regions[home].adjacent.iter().filter_map(|id| id[1..].parse::<usize>().ok()).map(|n| n - 1).collect();
        for r in around {
            if land.len() > SHAPE.home_neighbours {
                break;
            }
            if owner[r].is_none() {
                owner[r] = Some(k);
                land.push(r);
            }
        }
    }
    let players: Vec<Player> = (0..o.players)
        .map(|k| Player {
            id: format!("p{}", k + 1),
            name: format!("House {}", name(&mut rng)),
            password: format!("pw{}", k + 1),
            email: String::new(),
            treasury: SHAPE.treasury,
            points: 0,
            relations: BTreeMap::new(),
        })
        .collect();
    let mut troops = Vec::with_capacity(o.troops);
    for i in 0..o.troops {
        let k = i % o.players;
        let land = &lands[k];
        let r = land[(i / o.players) % land.len()];
        let mut trng = stream(o.seed, 0, "generate-troop", i as u64);
        let kind = regions[r].hires.get(trng.random_range(0..regions[r].hires.len().max(1))).cloned();
        troops.push(Troop {
            id: format!("T{}", i + 1),
            player: players[k].id.clone(),
            kind: kind.unwrap_or_else(|| hireable[0].tag.clone()),
            men: between(&mut trng, SHAPE.men),
            veteran: 0,
            region: regions[r].id.clone(),
            reserve: false,
        });
    }
    let mut generals = Vec::new();
    for (k, player) in players.iter().enumerate() {
        for g in 0..SHAPE.generals {
            let mut grng = stream(o.seed, 0, "generate-general", key_of(&format!("{}-{g}", player.id)));
            let mut skills = BTreeMap::new();
            while skills.len() < p.starting_skills as usize {
                let s = &rules.skills[grng.random_range(0..rules.skills.len())];
                skills.insert(s.tag.clone(), p.starting_skill_level);
            }
            let mut gname = name(&mut grng);
            while generals.iter().any(|x: &General| x.name == gname) {
                gname.push_str(&name(&mut grng).to_ascii_lowercase());
            }
            generals.push(General {
                name: gname,
                player: player.id.clone(),
                region: regions[lands[k][0]].id.clone(),
                renown: 0,
                skills,
                champion: None,
                new: false,
            });
        }
    }
    let victory = Victory {
        regions: lands.iter().map(|l| (regions[l[0]].id.clone(), SHAPE.home_points)).collect(),
        battle_won: SHAPE.battle_points,
        general_killed: SHAPE.general_points,
        per_100_gold: SHAPE.gold_points,
        last_turn: SHAPE.last_turn,
        points: 0,
    };
    Ok(Scenario {
        game: Game {
            name: "generals".into(),
            ruleset: rules.info.name.clone(),
            seed: o.seed,
            turn: 0,
            deadline: String::new(),
            victory,
            ended: false,
        },
        players,
        regions,
        generals,
        troops,
    })
}

/// Generates into folder `out` with the rule set of `rules_dir`, which the
/// scenario then names (`rules.path`). Returns a one-line count.
pub fn generate_to_dir(
    rules_dir: &std::path::Path,
    o: &Options,
    out: &std::path::Path,
) -> Result<String, Vec<crate::core::diag::Diagnostic>> {
    use crate::core::diag::Diagnostic;
    let rules = super::data::load::load_ruleset(rules_dir)?;
    let s = generate(&rules, o).map_err(|e| vec![Diagnostic::error(rules_dir, 0, 0, e)])?;
    let io = |e: std::io::Error| vec![Diagnostic::error(out, 0, 0, format!("cannot write: {e}"))];
    std::fs::create_dir_all(out).map_err(io)?;
    for (name, bytes) in super::data::load::scenario_files(&s).map_err(io)? {
        crate::core::data::write_atomic(&out.join(name), &bytes).map_err(io)?;
    }
    let abs = std::fs::canonicalize(rules_dir).unwrap_or_else(|_| rules_dir.to_path_buf());
    crate::core::data::write_atomic(&out.join("rules.path"), format!("{}\n", abs.display()).as_bytes()).map_err(io)?;
    Ok(format!(
        "{} regions, {} players, {} generals, {} troop units",
        s.regions.len(),
        s.players.len(),
        s.generals.len(),
        s.troops.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::{Options, generate};
    use crate::systems::generals::data::load::{load_scenario, scenario_files};
    use crate::systems::generals::data::validate::validate;
    use crate::systems::generals::fixture::{rules, rules_dir};
    use crate::systems::generals::orders::{Words, check::check};

    fn errors_of(s: &crate::systems::generals::data::Scenario) -> Vec<String> {
        let t = tempfile::tempdir().unwrap();
        for (name, bytes) in scenario_files(s).unwrap() {
            std::fs::write(t.path().join(name), bytes).unwrap();
        }
        validate(&rules(), s, &rules_dir(), t.path()).iter().filter(|d| d.is_error()).map(|d| d.to_string()).collect()
    }

    #[test]
    fn generated_worlds_validate_and_the_same_seed_gives_the_same_world() {
        let r = rules();
        for (regions, players, troops, seed) in [(1, 1, 0, 1), (7, 3, 10, 2), (48, 4, 24, 7), (500, 20, 300, 9)] {
            let o = Options { regions, players, troops, seed };
            let s = generate(&r, &o).unwrap();
            assert_eq!(s.regions.len(), regions);
            assert_eq!((s.players.len(), s.troops.len(), s.generals.len()), (players, troops, players * 2));
            assert_eq!(errors_of(&s), Vec::<String>::new(), "{o:?}");
            assert_eq!(s, generate(&r, &o).unwrap(), "deterministic");
            // Every general starts with the rule set's skills at their level.
            let p = &r.info.parameters;
            assert!(s.generals.iter().all(|g| g.skills.len() == p.starting_skills as usize
                && g.skills.values().all(|&l| l == p.starting_skill_level)));
        }
        let o = |seed| Options { regions: 48, players: 4, troops: 24, seed };
        assert_ne!(generate(&r, &o(1)).unwrap(), generate(&r, &o(2)).unwrap());
        assert!(generate(&r, &Options { regions: 3, players: 4, troops: 0, seed: 1 }).is_err());
    }

    #[test]
    fn a_world_of_ten_thousand_regions_and_a_hundred_players_validates() {
        let s = generate(&rules(), &Options { regions: 10_000, players: 100, troops: 5_000, seed: 3 }).unwrap();
        assert_eq!(errors_of(&s), Vec::<String>::new());
    }

    #[test]
    fn the_demo_scenario_validates_and_its_sample_orders_check_clean() {
        // scenarios/generals-demo: `overlord generate --locations 48 --factions 4
        // --units 24 --seed 7 --rules assets/rules/generals`, with sample orders.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/generals-demo");
        let s = load_scenario(&dir).unwrap();
        let r = rules();
        assert_eq!(s, generate(&r, &Options { regions: 48, players: 4, troops: 24, seed: 7 }).unwrap());
        assert!(s.regions.len() >= 40 && s.players.len() == 4);
        let errors: Vec<String> = validate(&r, &s, &rules_dir(), &dir).iter().map(|d| d.to_string()).collect();
        assert_eq!(errors, Vec::<String>::new());
        let words = Words::new(&r);
        for p in &s.players {
            let text = std::fs::read_to_string(dir.join("orders").join(format!("{}.txt", p.id))).unwrap();
            let mail = crate::core::orders::mail::parse_mail(&text, &words).unwrap();
            let file = &mail.orders[0];
            assert_eq!(
                (file.header.faction.as_str(), file.header.password.as_str()),
                (p.id.as_str(), p.password.as_str())
            );
            let c = check(&r, &s, &p.id, file);
            assert!(c.problems.is_empty(), "{}: {:?}", p.id, c.problems);
        }
    }
}
