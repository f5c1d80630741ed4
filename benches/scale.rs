//! Whole-process benchmarks of `overlord run` at scale: the `overlord` binary run on
//! a game folder, from reading the state to the flushed turn, every mechanic on.
//! Each sample copies the game folder first (not timed), so every sample plays the
//! same turn; the time is the child process's wall time.
//!
//! * `scale/alpha-x100`: the original alpha game cloned 100 times and imported
//!   (27,500 units, 1,500 factions), made with `../shared/tools/clone_legacy_world.py`
//!   from `../shared/reference/overlord-alpha`. Without them it is skipped, said on
//!   stderr, and `scale/generated-x100` (a generated world of the same size) runs.
//! * `scale/generated-1m`: `overlord generate --locations 200000 --factions 5000
//!   --units 1000000`, only with `BENCH_1M=1` (each sample takes about a minute
//!   and several GB; the whole bench about ten minutes).
//!
//! Worlds are made once in `OVERLORD_BENCH_DIR` (default `/dev/shm/overlord-bench`,
//! memory-backed so that the disk's other traffic does not count), the folder
//! `benches/whole-process.sh` also uses, and kept. After each world the bench
//! prints the peak memory of the runs. Run with `cargo bench --bench scale`.
//! Budgets (issue "Scale", README "Performance"): ×100 ≤ 0.5 s, 1M ≤ 15 s and ≤ 3 GB.
//! Figures: README.md ("Performance") has the latest with the machine and the
//! date; docs/performance.md the record of every change and what it measured.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_overlord")
}

fn work_dir() -> PathBuf {
    std::env::var_os("OVERLORD_BENCH_DIR").map_or_else(|| PathBuf::from("/dev/shm/overlord-bench"), PathBuf::from)
}

fn overlord(args: &[&str]) -> Result<(), String> {
    let out = Command::new(bin()).args(args).stdout(Stdio::null()).output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("overlord {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr)))
    }
}

fn s(p: &Path) -> &str {
    p.to_str().expect("the bench folder's path is UTF-8")
}

/// A generated game `name`, made once.
fn generated(name: &str, locations: u32, factions: u32, units: u32) -> Result<PathBuf, String> {
    let work = work_dir();
    let game = work.join(name);
    if !game.is_dir() {
        let scenario = work.join(format!("{name}-scenario"));
        let _ = std::fs::remove_dir_all(&scenario);
        let (l, f, u) = (locations.to_string(), factions.to_string(), units.to_string());
        overlord(&["generate", "--locations", &l, "--factions", &f, "--units", &u, s(&scenario)])?;
        overlord(&["new", s(&scenario), s(&game)])?;
    }
    Ok(game)
}

/// The alpha game cloned `copies` times and imported, made once; `None` (and why,
/// on stderr) when the legacy files or the cloning tool are not there.
fn alpha(copies: u32) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let reference = root.join("../shared/reference/overlord-alpha");
    let tool = root.join("../shared/tools/clone_legacy_world.py");
    let work = work_dir();
    let name = format!("alpha-x{copies}");
    let game = work.join(&name);
    if game.is_dir() {
        return Some(game);
    }
    if !reference.is_dir() || !tool.is_file() {
        eprintln!("scale/{name}: skipped: {} or {} is not there", reference.display(), tool.display());
        return None;
    }
    let (legacy, import) = (work.join(format!("{name}-legacy")), work.join(format!("{name}-import")));
    let made = Command::new("python3")
        .arg(&tool)
        .args([s(&reference), s(&legacy), &copies.to_string(), "0"])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|st| st.success())
        && overlord(&["import-legacy", s(&legacy), s(&import)]).is_ok()
        && overlord(&["new", s(&import.join("scenarios/alpha")), s(&game)]).is_ok();
    if !made {
        eprintln!("scale/{name}: skipped: the world could not be made");
        return None;
    }
    Some(game)
}

fn copy_tree(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    let ok = Command::new("cp").args(["-a", s(from), s(to)]).status().is_ok_and(|st| st.success());
    assert!(ok, "cannot copy {} to {}", from.display(), to.display());
}

/// The largest peak memory of the children waited for so far, in MB.
fn children_peak_mb() -> u64 {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getrusage fills the struct it is given and touches nothing else.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } == 0 {
            return u64::try_from(usage.ru_maxrss).unwrap_or(0) / 1024;
        }
    }
    0
}

fn bench_game(c: &mut Criterion, name: &str, game: &Path, units: u64) {
    let run = work_dir().join(format!("{name}-run"));
    let mut g = c.benchmark_group("scale");
    g.sample_size(10);
    if units >= 1_000_000 {
        g.measurement_time(Duration::from_secs(600));
        g.warm_up_time(Duration::from_millis(1));
    } else {
        g.measurement_time(Duration::from_secs(25));
    }
    g.throughput(Throughput::Elements(units));
    g.bench_function(BenchmarkId::from_parameter(name), |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                copy_tree(game, &run);
                let t = Instant::now();
                let status = Command::new(bin()).args(["run", s(&run), "--no-progress"]).stdout(Stdio::null()).status();
                total += t.elapsed();
                assert!(status.is_ok_and(|st| st.success()), "overlord run {} failed", run.display());
            }
            total
        })
    });
    g.finish();
    let _ = std::fs::remove_dir_all(&run);
    eprintln!("scale/{name}: peak memory of the runs so far {} MB", children_peak_mb());
}

fn scale(c: &mut Criterion) {
    match alpha(100) {
        Some(game) => bench_game(c, "alpha-x100", &game, 27_500),
        None => match generated("gen-x100", 20_900, 1_500, 27_500) {
            Ok(game) => bench_game(c, "generated-x100", &game, 27_500),
            Err(e) => eprintln!("scale/generated-x100: skipped: {e}"),
        },
    }
    if std::env::var("BENCH_1M").is_ok_and(|v| v == "1") {
        match generated("gen-1m", 200_000, 5_000, 1_000_000) {
            Ok(game) => bench_game(c, "generated-1m", &game, 1_000_000),
            Err(e) => eprintln!("scale/generated-1m: skipped: {e}"),
        }
    } else {
        eprintln!("scale/generated-1m: skipped (BENCH_1M=1 runs it)");
    }
}

criterion_group!(benches, scale);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
