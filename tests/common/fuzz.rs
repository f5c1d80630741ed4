//! A fuzzing harness on stable Rust, for `tests/fuzz.rs`: seeded inputs, a budget
//! of cases, each case run under `catch_unwind` (and, where it could hang, against a
//! deadline), and the input of a failing case saved for replay.
//!
//! Environment (docs/reliability.md, "Fuzzing"):
//! * `OVERLORD_FUZZ_CASES`: cases per target (default: each target's short run);
//! * `OVERLORD_FUZZ_SEED`: the seed of the inputs (default 1);
//! * `OVERLORD_FUZZ_REPLAY`: a saved input to run alone, by the target that saved it;
//! * `OVERLORD_FUZZ_KEEP_GOING`: on a failure, save the input and go on; the test
//!   fails at the end, listing every input saved.

use overlord::core::engine::rng::stream;
use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How many cases a target runs, and from which seed.
pub struct Budget {
    /// Cases to run.
    pub cases: u64,
    /// Seed of the inputs.
    pub seed: u64,
}

impl Budget {
    /// The budget of a target whose short run is `default` cases.
    pub fn of(default: u64) -> Budget {
        let num = |k: &str| std::env::var(k).ok().and_then(|v| v.trim().replace('_', "").parse::<u64>().ok());
        Budget { cases: num("OVERLORD_FUZZ_CASES").unwrap_or(default), seed: num("OVERLORD_FUZZ_SEED").unwrap_or(1) }
    }
}

/// Runs `cases` of `target`: each input made by `make` from the case's own random
/// stream, then given to `exec`. A panic saves the input under
/// `target/fuzz-failures/` and fails the test, naming the file. Prints the rate.
pub fn fuzz(target: &str, default: u64, mut make: impl FnMut(&mut ChaCha8Rng) -> String, mut exec: impl FnMut(&str)) {
    if let Some(path) = std::env::var_os("OVERLORD_FUZZ_REPLAY") {
        let path = PathBuf::from(path);
        if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with(&format!("{target}-"))) {
            let input = std::fs::read_to_string(&path).expect("the input to replay");
            exec(&input);
        }
        return;
    }
    let budget = Budget::of(default);
    let keep_going = std::env::var_os("OVERLORD_FUZZ_KEEP_GOING").is_some();
    let mut failed = Vec::new();
    let started = Instant::now();
    for case in 0..budget.cases {
        let mut rng = stream(budget.seed, 0, target, case);
        let input = make(&mut rng);
        if catch_unwind(AssertUnwindSafe(|| exec(&input))).is_err() {
            let saved = save(target, budget.seed, case, &input);
            failed.push(saved.display().to_string());
            assert!(
                keep_going,
                "fuzz {target}: case {case} (seed {}) panicked; input saved at {}",
                budget.seed, failed[0]
            );
        }
    }
    assert!(
        failed.is_empty(),
        "fuzz {target}: {} case(s) panicked; inputs saved at:\n{}",
        failed.len(),
        failed.join("\n")
    );
    let s = started.elapsed().as_secs_f64();
    eprintln!(
        "fuzz {target}: {} cases in {s:.2} s ({:.0} cases/s), seed {}",
        budget.cases,
        budget.cases as f64 / s.max(1e-9),
        budget.seed
    );
}

/// Saves a failing input where the harness can replay it.
pub fn save(target: &str, seed: u64, case: u64, input: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/fuzz-failures");
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("{target}-{seed}-{case}.txt"));
    let _ = std::fs::write(&path, input);
    path
}

/// Runs `f` on a thread of its own and panics if it has not finished within
/// `limit`: a hang becomes a failure with its input saved, not a stuck test run.
pub fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    let handle = std::thread::spawn(move || {
        let _ = tx.send(catch_unwind(AssertUnwindSafe(f)));
    });
    match rx.recv_timeout(limit) {
        Ok(Ok(v)) => {
            let _ = handle.join();
            v
        }
        Ok(Err(p)) => std::panic::resume_unwind(p),
        Err(_) => panic!("did not finish within {} s", limit.as_secs()),
    }
}

/// Words that break parsers: extreme and malformed numbers, prefixes, section
/// keywords, quotes, long and odd strings.
pub const HOSTILE: &[&str] = &[
    "0",
    "1",
    "-1",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "99999999999999999999999999",
    "1e309",
    "0x10",
    "D0",
    "D31",
    "D4294967296",
    "@",
    "+",
    "-",
    "---",
    "#",
    "\"",
    "\"\"",
    "\"unterminated",
    "GAME",
    "UNIT",
    "PRESS",
    "RUMOR",
    "REPORT",
    "END",
    "\t",
    "\r",
    "\u{0}",
    "é",
    "\u{202e}",
    "\u{FEFF}",
    "ŉ",
    "../..",
    "/etc/passwd",
    "()",
    "[",
    "]",
    "{",
    "}",
    ":",
    ",",
    "Some(",
    "None",
];

/// Text mutations: bytes, words and lines changed, `rounds` times, with words from
/// `dict` (the target's vocabulary) and [`HOSTILE`].
pub fn mutate(rng: &mut ChaCha8Rng, text: &str, dict: &[String], rounds: usize) -> String {
    let mut b = text.as_bytes().to_vec();
    for _ in 0..rounds {
        if b.is_empty() {
            b.extend_from_slice(b"GAME ");
        }
        let i = rng.random_range(0..b.len());
        let word = |rng: &mut ChaCha8Rng| -> Vec<u8> {
            if !dict.is_empty() && rng.random_range(0..3) > 0 {
                dict[rng.random_range(0..dict.len())].as_bytes().to_vec()
            } else if rng.random_range(0..8) == 0 {
                "x".repeat(rng.random_range(1..5000)).into_bytes()
            } else {
                HOSTILE[rng.random_range(0..HOSTILE.len())].as_bytes().to_vec()
            }
        };
        match rng.random_range(0..10) {
            0 => {
                b.remove(i);
            }
            1 => {
                let c = b[i];
                b.insert(i, c);
            }
            2 => {
                let j = rng.random_range(0..b.len());
                b.swap(i, j);
            }
            3 => b[i] = b" \n\"'():,[]-+@#0123456789azAZ"[rng.random_range(0..27)],
            4 => {
                let w = word(rng);
                b.splice(i..i, w.iter().copied().chain([b' ']));
            }
            5 => {
                // A whole word replaced.
                let start = b[..i].iter().rposition(|c| c.is_ascii_whitespace()).map_or(0, |p| p + 1);
                let end = b[i..].iter().position(|c| c.is_ascii_whitespace()).map_or(b.len(), |p| i + p);
                let w = word(rng);
                b.splice(start..end, w);
            }
            6 | 7 => {
                // A line deleted, doubled or moved.
                let lines: Vec<&[u8]> = b.split(|&c| c == b'\n').collect();
                let mut lines: Vec<Vec<u8>> = lines.into_iter().map(<[u8]>::to_vec).collect();
                let k = rng.random_range(0..lines.len());
                match rng.random_range(0..3) {
                    0 => {
                        lines.remove(k);
                    }
                    1 => {
                        let l = lines[k].clone();
                        lines.insert(k, l);
                    }
                    _ => {
                        let l = lines.remove(k);
                        let to = rng.random_range(0..=lines.len());
                        lines.insert(to, l);
                    }
                }
                b = lines.join(&b'\n');
            }
            8 => b.truncate(i),
            _ => {
                // A number replaced by another.
                if let Some(s) = b[i..].iter().position(u8::is_ascii_digit).map(|p| i + p) {
                    let e = b[s..].iter().position(|c| !c.is_ascii_digit()).map_or(b.len(), |p| s + p);
                    let n = ["0", "4294967295", "18446744073709551615", "65536", "2147483648"][rng.random_range(0..5)];
                    b.splice(s..e, n.bytes());
                }
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// The limit a turn or a load may take in a fuzz case before it counts as a hang.
pub const HANG: Duration = Duration::from_secs(60);
