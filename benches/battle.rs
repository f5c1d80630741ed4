//! Battles per second: Overlord's battlefield on armies of 10, 100 and 1,000 figures a
//! side (ten units a side of swordsmen and archers with 1st combat), and on 300 units
//! a side (many units in few squares), fought to the end.
//! Run with `cargo bench --bench battle`. Figures are in README.md's performance
//! section; this finds costs, it does not claim budgets.

use criterion::{Criterion, criterion_group, criterion_main};
use overlord::systems::overlord::data::Stats;
use overlord::systems::overlord::mechanics::combat::field::{Action, Armies, Fighter, Move, fight};
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;
use std::hint::black_box;
use std::path::PathBuf;

/// `units` units a side of `per` figures each: a third archers at the rear, the rest
/// swordsmen at the front, spread over the files.
fn army(side: u8, units: u32, per: u32) -> Vec<Fighter> {
    (0..units)
        .map(|i| {
            let archer = i % 3 == 0;
            let s = Stats {
                melee: if archer { 1 } else { 4 },
                missile: if archer { 3 } else { 0 },
                defense: if archer { 1 } else { 3 },
                damage: 2,
                ranged_damage: 4,
                hits: 1,
                life: 3,
                ..Stats::default()
            };
            Fighter {
                base_melee: 1,
                rank: if archer { 2 } else { 0 },
                file: i % 3,
                movement: if archer { Move::Fire } else { Move::Advance },
                actions: if archer { vec![Action::Ranged] } else { vec![] },
                ..Fighter::new(&format!("U{side}{i}"), side, per, s)
            }
        })
        .collect()
}

fn battles(c: &mut Criterion) {
    let rules = overlord::systems::overlord::data::load_ruleset(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/rules/overlord"),
    )
    .unwrap();
    let cases = [
        ("10 vs 10 figures", 10u32, 1u32),
        ("100 vs 100 figures", 10, 10),
        ("1000 vs 1000 figures", 10, 100),
        ("300 vs 300 units of 3 figures", 300, 3),
    ];
    for (name, units, per) in cases {
        let mut fighters = army(0, units, per);
        fighters.extend(army(1, units, per));
        let a = Armies {
            rules: rules.combat.battle.clone(),
            ranks: 3,
            files: 3,
            rank_names: vec!["front".into(), "middle".into(), "rear".into()],
            file_names: vec!["left".into(), "center".into(), "right".into()],
            ambush_levels: vec![],
            from_attack: true,
            fighters,
        };
        let mut seed = 0u64;
        c.bench_function(&format!("battle {name}"), |b| {
            b.iter(|| {
                seed += 1;
                black_box(fight(&a, &mut ChaCha8Rng::seed_from_u64(seed)))
            })
        });
    }
}

criterion_group!(benches, battles);
criterion_main!(benches);
