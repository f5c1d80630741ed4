//! Benchmarks of the data layer: loading and validating the alpha world, and
//! generating worlds. Run with `cargo bench --bench data`.
//!
//! Figures on the 2-core reference machine (release build, whole command):
//! `overlord generate --locations 40000 --factions 1000 --units 1000000` 9.7 s,
//! 2.4 GB peak; `overlord validate` of that world 5.7 s, 1.6 GB peak (276 MB units.ron).

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn alpha(c: &mut Criterion) {
    let dir = root().join("scenarios/alpha");
    c.bench_function("load alpha", |b| {
        b.iter(|| black_box(overlord::systems::overlord::data::load_game(&dir, None).unwrap()))
    });
    let g = overlord::systems::overlord::data::load_game(&dir, None).unwrap();
    c.bench_function("validate alpha", |b| {
        b.iter(|| black_box(overlord::systems::overlord::data::validate(&g.rules, &g.scenario)))
    });
}

fn generator(c: &mut Criterion) {
    let rules = overlord::systems::overlord::data::load_ruleset(&root().join("assets/rules/overlord")).unwrap();
    let opts = overlord::systems::overlord::generate::Options { locations: 1000, factions: 20, units: 10_000, seed: 1 };
    c.bench_function("generate 10k units", |b| {
        b.iter(|| black_box(overlord::systems::overlord::generate::generate(&rules, "overlord", &opts).unwrap()))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = alpha, generator
}
criterion_main!(benches);
