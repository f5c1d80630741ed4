//! Benchmarks of a whole turn: loading the state into the ECS world, applying the
//! orders, running the month, and producing every file of the turn folder (state
//! and all reports) in memory. Disk writes are left out; `overlord run` adds them.
//! Throughput is in unit-days (units × days in the month).
//!
//! Run with `cargo bench --bench turn`. Figures on the 2-core reference machine
//! (2026-11, the core and the Overlord rule system split): alpha 8.5 ms;
//! alpha-sized ×100 (27,500 units) 0.40–0.52 s, mean 0.45 s; the same at war (a
//! battle in every tenth place where factions meet) 0.44–0.46 s; generated-100k
//! 2.04–2.17 s. With markets (2026-11): ×100 0.46–0.48 s, the same with every
//! leader in a market place trading all month 0.48–0.54 s. Whole-process figures
//! are in README.md ("Performance"), instruction counts by change in
//! docs/performance.md. One place of 5,000
//! units of 500 factions (`crowd-5000`, each faction seeing about half of them)
//! measures that a faction's view of a place costs what it sees.

use overlord::systems::overlord::Overlord;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use overlord::core::engine::{Engine, Threads};
use overlord::systems::overlord::data::{self, RuleSet, Scenario};
use overlord::systems::overlord::orders::OrderFile;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

// The allocator of the `overlord` binary, so that the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn one_turn(rules: &Arc<RuleSet>, scenario: &Scenario, orders: &[OrderFile]) -> usize {
    let mut e = Engine::<Overlord>::new(rules.clone(), scenario.clone(), Threads::All).unwrap();
    e.defer_reports();
    e.submit(orders.to_vec());
    e.run_turn(|_, _| {});
    let (files, _) = overlord::core::game::turn_files(&e, &[]).unwrap();
    files.iter().map(|(_, b)| b.len()).sum()
}

fn bench(c: &mut Criterion, name: &str, rules: &Arc<RuleSet>, scenario: &Scenario, orders: &[OrderFile]) {
    // Passwords hashed, as a game's state keeps them: a turn hashes only new ones.
    let mut scenario = scenario.clone();
    let (game, turn) = (scenario.game.name.clone(), scenario.game.turn);
    overlord::core::secret::seal(
        <Overlord as overlord::core::system::GameSystem>::passwords_mut(&mut scenario),
        &game,
        turn,
    );
    let scenario = &scenario;
    let mut g = c.benchmark_group("turn");
    g.sample_size(10);
    g.throughput(Throughput::Elements(scenario.units.len() as u64 * u64::from(scenario.game.days_per_month)));
    g.bench_function(BenchmarkId::from_parameter(name), |b| b.iter(|| black_box(one_turn(rules, scenario, orders))));
    g.finish();
}

fn turns(c: &mut Criterion) {
    let dir = root().join("scenarios/alpha");
    let game = data::load_game(&dir, None).unwrap();
    let rules = Arc::new(game.rules);
    let orders: Vec<OrderFile> = {
        let catalog = overlord::systems::overlord::world::Catalog::new(rules.clone());
        game.scenario
            .orders
            .iter()
            .map(|(_, text)| overlord::systems::overlord::orders::parse(text, &catalog).unwrap())
            .collect()
    };
    bench(c, "alpha", &rules, &game.scenario, &orders);
    // The alpha world's proportions, a hundred times over: 27,500 units.
    let opts =
        overlord::systems::overlord::generate::Options { locations: 20_900, factions: 1_500, units: 27_500, seed: 1 };
    let big = overlord::systems::overlord::generate::generate(&rules, "overlord", &opts).unwrap();
    bench(c, "alpha-sized-x100", &rules, &big, &[]);
    let war = war_orders(&rules, &big);
    bench(c, "alpha-sized-x100-at-war", &rules, &big, &war);
    let trade = market_orders(&rules, &big);
    bench(c, "alpha-sized-x100-trading", &rules, &big, &trade);
    let opts =
        overlord::systems::overlord::generate::Options { locations: 76_000, factions: 5_000, units: 100_000, seed: 1 };
    let big = overlord::systems::overlord::generate::generate(&rules, "overlord", &opts).unwrap();
    bench(c, "generated-100k", &rules, &big, &[]);
    bench(c, "crowd-5000", &rules, &crowd(&rules), &[]);
}

/// One place where 5,000 units of 500 factions stand (VIS-SEE at scale): one unit in
/// three has 1st or 2nd stealth, one in five 1st observation; everyone works.
fn crowd(rules: &Arc<RuleSet>) -> Scenario {
    let opts = overlord::systems::overlord::generate::Options { locations: 1, factions: 500, units: 5_000, seed: 1 };
    let mut s = overlord::systems::overlord::generate::generate(rules, "overlord", &opts).unwrap();
    let place = s.locations[0].id.clone();
    for (i, u) in s.units.iter_mut().enumerate() {
        u.location = place.clone();
        u.orders = vec!["WORK".into()];
        if i % 3 == 0 {
            u.skills.push(data::SkillExperience("stea".into(), if i % 2 == 0 { 18_000 } else { 6_000 }));
        } else if i % 5 == 0 {
            u.skills.push(data::SkillExperience("obse".into(), 6_000));
        }
    }
    s
}

/// A battle in every tenth place where two factions meet: the first unit of the
/// first faction there that leads no one's stack (or leads it) attacks the first
/// unit of another faction, on day 1.
fn war_orders(rules: &Arc<RuleSet>, s: &Scenario) -> Vec<OrderFile> {
    use std::collections::BTreeMap;
    let mut at: BTreeMap<&str, Vec<&data::Unit>> = BTreeMap::new();
    for u in &s.units {
        at.entry(u.location.as_str()).or_default().push(u);
    }
    let mut texts: BTreeMap<&str, String> = BTreeMap::new();
    let mut met = 0usize;
    for units in at.values() {
        let Some(a) = units.iter().find(|u| u.stack_leader.is_none()) else { continue };
        let Some(t) = units.iter().find(|u| u.faction != a.faction) else { continue };
        met += 1;
        if met % 10 != 1 {
            continue;
        }
        let f = s.factions.iter().find(|f| f.id == a.faction).expect("faction");
        let text = texts.entry(f.id.as_str()).or_insert_with(|| format!("GAME {} {}\n", f.id, f.password));
        text.push_str(&format!("UNIT {}\nATTACK {}\n", a.id, t.id));
    }
    let catalog = overlord::systems::overlord::world::Catalog::new(rules.clone());
    texts.values().map(|t| overlord::systems::overlord::orders::parse(t, &catalog).unwrap()).collect()
}

/// Markets busy all month: in every place whose market sells something, every
/// leader bids for one of the first good at the listed price, standing (`@BUY 1`),
/// and offers one of its first item at half that item's price (`@SELL 1`).
fn market_orders(rules: &Arc<RuleSet>, s: &Scenario) -> Vec<OrderFile> {
    use std::collections::{BTreeMap, HashMap};
    let first_good: HashMap<&str, &str> =
        s.locations.iter().filter_map(|l| l.market.sells.first().map(|o| (l.id.as_str(), o.item.as_str()))).collect();
    let price: HashMap<&str, u32> = rules.items.iter().map(|i| (i.tag.as_str(), i.price)).collect();
    let mut texts: BTreeMap<&str, String> = BTreeMap::new();
    for u in s.units.iter().filter(|u| u.race == "ldr" || u.race == "hero") {
        let Some(good) = first_good.get(u.location.as_str()) else { continue };
        let f = s.factions.iter().find(|f| f.id == u.faction).expect("faction");
        let text = texts.entry(f.id.as_str()).or_insert_with(|| format!("GAME {} {}\n", f.id, f.password));
        text.push_str(&format!("UNIT {}\n@BUY 1 {good}\n", u.id));
        if let Some(held) = u.items.iter().find(|h| price.get(h.0.as_str()).is_some_and(|&p| p > 1)) {
            text.push_str(&format!("@SELL 1 {} {}\n", held.0, price[held.0.as_str()] / 2));
        }
    }
    let catalog = overlord::systems::overlord::world::Catalog::new(rules.clone());
    texts.values().map(|t| overlord::systems::overlord::orders::parse(t, &catalog).unwrap()).collect()
}

criterion_group!(benches, turns);

fn main() {
    // The binary's allocator settings, set before the first allocation as there.
    overlord::core::alloc::configure();
    benches();
    Criterion::default().configure_from_args().final_summary();
}
