//! Benchmark of a whole turn of the generals game: a generated world of 10,000
//! regions and 100 players (30,000 troop units), every player's generals
//! attacking, moving or recruiting; building the world, running the turn and
//! making every file of the turn folder (state and reports) in memory. Disk
//! writes are left out; `overlord run` adds them.
//!
//! Run with `cargo bench --bench generals`. Figures on the 2-core reference
//! machine are in README.md ("Performance").

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use overlord::core::engine::{Engine, Threads};
use overlord::core::orders::mail::parse_mail;
use overlord::systems::generals::Generals;
use overlord::systems::generals::data::{RuleSet, Scenario, load::load_ruleset};
use overlord::systems::generals::generate::{Options, generate};
use overlord::systems::generals::orders::{OrderFile, Words};
use std::collections::{BTreeMap, BTreeSet};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

// The allocator of the `overlord` binary, so that the figures are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Orders for every player: a general where the player has two troop units or
/// more attacks the first neighbouring region not the player's with all but one;
/// another moves a unit to a neighbouring region of the player's, or recruits.
fn orders(rules: &RuleSet, s: &Scenario) -> Vec<OrderFile> {
    let words = Words::new(rules);
    let adjacent: BTreeMap<&str, &Vec<String>> = s.regions.iter().map(|r| (r.id.as_str(), &r.adjacent)).collect();
    let holder: BTreeMap<&str, &str> = s.troops.iter().map(|t| (t.region.as_str(), t.player.as_str())).collect();
    let mut files = Vec::new();
    for p in &s.players {
        let mut text = format!("GAME {} {}\n", p.id, p.password);
        let mut used = BTreeSet::new();
        for g in s.generals.iter().filter(|g| g.player == p.id) {
            let here: Vec<&str> =
                s.troops.iter().filter(|t| t.region == g.region && t.player == p.id).map(|t| t.id.as_str()).collect();
            let near = adjacent[g.region.as_str()];
            let enemy = near.iter().find(|r| holder.get(r.as_str()) != Some(&p.id.as_str()));
            let own = near.iter().find(|r| holder.get(r.as_str()) == Some(&p.id.as_str()));
            if let Some(t) = enemy.filter(|_| here.len() > 1 && used.insert("attack")) {
                text.push_str(&format!("GENERAL \"{}\": ATTACK {t} WITH {} AS FIELD\n", g.name, here[1..].join(" ")));
            } else if let (Some(o), Some(t)) = (own, here.first()) {
                text.push_str(&format!("GENERAL \"{}\": MOVE {t} TO {o}\n", g.name));
            } else {
                text.push_str(&format!("GENERAL \"{}\": RECRUIT 10 militia\n", g.name));
            }
        }
        text.push_str("END\n");
        files.push(parse_mail(&text, &words).unwrap().orders.remove(0));
    }
    files
}

fn one_turn(rules: &Arc<RuleSet>, scenario: &Scenario, orders: &[OrderFile]) -> usize {
    let mut e = Engine::<Generals>::new(rules.clone(), scenario.clone(), Threads::All).unwrap();
    e.defer_reports();
    e.submit(orders.to_vec());
    e.run_turn(|_, _| {});
    let (files, _) = overlord::core::game::turn_files(&e, &[]).unwrap();
    files.iter().map(|(_, b)| b.len()).sum()
}

fn turns(c: &mut Criterion) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/rules/generals");
    let rules = Arc::new(load_ruleset(&dir).unwrap());
    let mut g = c.benchmark_group("generals");
    g.sample_size(10);
    for (name, o) in [
        ("demo", Options { regions: 48, players: 4, troops: 24, seed: 7 }),
        ("10k-regions-100-players", Options { regions: 10_000, players: 100, troops: 30_000, seed: 7 }),
    ] {
        let mut s = generate(&rules, &o).unwrap();
        // Passwords hashed, as a game's state keeps them: a turn hashes only new ones.
        let (game, turn) = (s.game.name.clone(), s.game.turn);
        overlord::core::secret::seal(
            <Generals as overlord::core::system::GameSystem>::passwords_mut(&mut s),
            &game,
            turn,
        );
        let files = orders(&rules, &s);
        g.throughput(Throughput::Elements(s.troops.len() as u64));
        g.bench_function(BenchmarkId::from_parameter(name), |b| b.iter(|| black_box(one_turn(&rules, &s, &files))));
    }
    g.finish();
}

criterion_group!(benches, turns);

fn main() {
    benches();
    criterion::Criterion::default().configure_from_args().final_summary();
}
