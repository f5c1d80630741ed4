//! Whole-turn tests of game directories: new → submit → run → report, rejected
//! submissions, determinism across directories and thread counts, crash safety,
//! and the JSON report schema.

mod common;

use common::{alpha_game, alpha_orders, assert_same_tree, bin, check, root, tree};

use overlord::core::engine::Threads;
use overlord::core::game::{ABORT_ENV, GameDir, ReportKind};
use overlord::systems::overlord::Overlord;
use overlord::systems::overlord::testkit::copy_dir;
use std::fs;
use std::path::{Path, PathBuf};

/// Orders of two player factions of the alpha world that go to war: f05's units at
/// L18 attack the People (f02) there, f06's at L94 the Itorians (f01).
fn war_orders() -> [&'static str; 2] {
    [
        "GAME f05 pswd5\nUNIT U500\nATTACK U218\nUNIT U501\nTACTIC FIGHT MIDDLE LEFT ADVANCE\n",
        "GAME f06 pswd6\nUNIT U600\nATTACK f01\n",
    ]
}

#[test]
fn factions_go_to_war_on_the_alpha_world() {
    // A whole turn of the alpha world with the sample orders and two attacks: the
    // battles are fought on day 1, their sides and bystanders read them in their
    // reports, and the run is the same on one thread and many.
    let run = |threads: Threads| {
        let t = tempfile::tempdir().unwrap();
        let g = alpha_game(&t.path().join("game"));
        for o in war_orders() {
            g.submit::<Overlord>(o).unwrap();
        }
        g.run::<Overlord>(threads, |_, _| {}).unwrap();
        let read = |f: &str, k| fs::read_to_string(g.report_path(1, f, k)).unwrap();
        (
            read("f05", ReportKind::Text),
            read("f06", ReportKind::Text),
            read("f01", ReportKind::Json),
            read("f02", ReportKind::Text),
            fs::read_to_string(g.newspaper_path(1)).unwrap(),
        )
    };
    let (f05, f06, f01_json, f02, paper) = run(Threads::One);
    // The newspaper tells everyone where and when, not who.
    assert!(paper.contains("\nNews of the month\n-----------------\n\nDay 1: a battle at "), "{paper}");
    assert_eq!(paper.matches("Day 1: a battle at ").count(), 2, "{paper}");
    assert!(!paper.contains("f05") && !paper.contains("f06"), "{paper}");
    assert!(f05.contains("Battle at") && f05.contains("day 1 (attack; you were attacker)"), "{f05}");
    assert!(f02.contains("you were defender"), "{f02}");
    assert!(f06.contains("Battle at") && f06.contains("you were attacker"), "{f06}");
    assert!(f01_json.contains("\"battles\""), "{f01_json}");
    assert_eq!(run(Threads::Count(4)), (f05, f06, f01_json, f02, paper));
}

#[test]
fn new_submit_run_report() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    let s = GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, &dir).unwrap();
    assert_eq!((s.turn, s.factions, s.units), (0, 15, 275));
    let g = GameDir::open(&dir).unwrap();
    assert_eq!(g.current_turn().unwrap(), 0);
    // Turn 0 has reports and order templates for every faction (RPT-TEMPLATE): the
    // template at the end of the text report, in no file of its own.
    let t0 = String::from_utf8(g.read_report(0, "f01", ReportKind::Template).unwrap()).unwrap();
    // The password is never written: not in the template, not in the state.
    assert!(t0.starts_with("GAME f01 <password> alpha\n\nUNIT U1  # Ykima\n"), "{t0}");
    let text = fs::read_to_string(g.report_path(0, "f01", ReportKind::Text)).unwrap();
    assert!(text.ends_with(&format!("\n\nOrders template:\n\n{t0}")), "{text}");
    let mut files: Vec<_> =
        fs::read_dir(g.turn_dir(0).join("reports")).unwrap().map(|e| e.unwrap().file_name()).collect();
    files.sort();
    assert_eq!(files.len(), 2 * 15, "a text and a JSON report per faction: {files:?}");
    assert!(files.iter().all(|f| f.to_string_lossy().ends_with(".json") != f.to_string_lossy().ends_with(".txt")));
    let factions = fs::read_to_string(g.turn_dir(0).join("state/factions.ron")).unwrap();
    assert!(!factions.contains("pswd1") && factions.contains("password: \"$argon2id$"), "{factions}");
    let r = g.submit::<Overlord>(&alpha_orders()[0]).unwrap();
    assert_eq!((r.faction.as_str(), r.turn, r.blocks, r.replaced), ("f01", 1, 87, false));
    assert!(g.submit::<Overlord>(&alpha_orders()[0]).unwrap().replaced, "FILE-LAST: a later file replaces the earlier");
    let s = g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    assert_eq!((s.turn, s.order_files), (1, 1));
    assert_eq!(g.current_turn().unwrap(), 1);
    // The turn archive holds the state, the orders it ran with and the reports.
    let turn1 = g.turn_dir(1);
    assert!(turn1.join("state/units.ron").is_file());
    // The orders are archived as sent, without the password.
    assert_eq!(
        fs::read_to_string(turn1.join("orders/f01.txt")).unwrap(),
        alpha_orders()[0].replacen("GAME f01 pswd1 alpha", "GAME f01 ******** alpha", 1)
    );
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(g.report_path(1, "f01", ReportKind::Json)).unwrap()).unwrap();
    let u1 = &json["units"][0];
    assert_eq!(u1["id"], "U1");
    // Ykima holds the Overlord's title already: the sample's CLAIM of it goes.
    assert_eq!(u1["orders"].as_array().map(Vec::len), Some(0));
    assert_eq!(u1["events"][0]["text"], "Received 1 order.");
    assert_eq!(
        u1["events"][1]["text"],
        "CLAIM over: removed from the orders: the unit holds the title of Overlord already."
    );
    // The state of a turn is a scenario folder that validates.
    let out = bin().arg("validate").arg(turn1.join("state")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The report command prints the stored files.
    let out = bin().args(["report"]).arg(&dir).args(["F01", "--turn", "1"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, fs::read(g.report_path(1, "f01", ReportKind::Text)).unwrap());
    let out = bin().args(["report"]).arg(&dir).args(["f01", "--json"]).output().unwrap();
    assert_eq!(out.stdout, fs::read(g.report_path(1, "f01", ReportKind::Json)).unwrap());
}

#[test]
fn bad_submissions_are_rejected_whole_and_store_nothing() {
    // FILE-HEAD, FILE-TURN, RULINGS §1.
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, &dir).unwrap();
    let g = GameDir::open(&dir).unwrap();
    let cases = [
        ("GAME f01 wrong\nUNIT U1\n@ guard\n", "line 1: wrong password for faction f01; nothing was stored"),
        ("GAME f99 pswd1\n", "line 1: there is no faction 'f99' in this game; nothing was stored"),
        (
            "hello\n#GAME f01 pswd1 beta\n",
            "line 2: these orders are for game 'beta', but this game is 'alpha'; nothing was stored",
        ),
        ("GAME f01 pswd1 0\n", "line 1: turn 0 has already been run (the next turn is 1); nothing was stored"),
        ("no header here\n", "no header line: the orders must start with `GAME faction password`"),
        ("GAME f01\n", "line 1: the GAME line needs a password after the faction id: `GAME faction password`"),
    ];
    for (text, want) in cases {
        let e = g.submit::<Overlord>(text).unwrap_err();
        assert_eq!(e.message, want);
    }
    assert!(!dir.join("orders").exists(), "nothing stored");
    // A password is case-sensitive, a faction id is not (FILE-CASE).
    assert!(g.submit::<Overlord>("GAME f01 PSWD1\n").is_err());
    assert_eq!(g.submit::<Overlord>("GAME F01 pswd1\nEND\n").unwrap().faction, "f01");
    // Orders for a later turn wait for it (FILE-TURN).
    let r = g.submit::<Overlord>("GAME f02 pswd2 2\nUNIT U212\nWAIT 1\n").unwrap();
    assert_eq!(r.turn, 2);
    assert!(g.pending_dir(2).join("f02.txt").is_file());
    // Through the command line: exit 1 and the reason, naming the file.
    let bad = t.path().join("bad.txt");
    fs::write(&bad, "GAME f01 nope\n").unwrap();
    let out = bin().arg("submit").arg(&dir).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.txt: error: line 1: wrong password for faction f01"), "{err}");
}

#[test]
fn the_same_turns_in_two_directories_give_the_same_bytes() {
    // RULINGS §16.
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    for d in [&a, &b] {
        let g = alpha_game(d);
        g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
        g.run::<Overlord>(Threads::All, |_, _| {}).unwrap();
    }
    assert_same_tree(&a, &b);
}

fn generated_game(t: &Path, units: usize) -> PathBuf {
    generated_world(t, 200, 20, units)
}

fn generated_world(t: &Path, locations: usize, factions: usize, units: usize) -> PathBuf {
    let scen = t.join("scen");
    let (locations, factions, units) = (locations.to_string(), factions.to_string(), units.to_string());
    let out = bin()
        .args(["generate", "--locations", &locations, "--factions", &factions, "--units", &units, "--seed", "3"])
        .arg("--rules")
        .arg(root().join("assets/rules/overlord"))
        .arg(&scen)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let game = t.join("game");
    let out = bin().arg("new").arg(&scen).arg(&game).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    game
}

#[test]
fn one_thread_and_many_give_the_same_bytes() {
    // RULINGS §16: each run is its own process, so each gets its own thread pool.
    let t = tempfile::tempdir().unwrap();
    let game = generated_game(t.path(), 3000);
    let one = t.path().join("one");
    let many = t.path().join("many");
    copy_dir(&game, &one);
    copy_dir(&game, &many);
    for (dir, threads) in [(&one, "1"), (&many, "0"), (&many, "3")] {
        let out = bin().arg("run").arg(dir).args(["--threads", threads]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = bin().arg("run").arg(&one).args(["--threads", "1"]).output().unwrap();
    assert!(out.status.success());
    assert_same_tree(&one, &many);
}

#[test]
fn a_big_world_gives_the_same_bytes_on_one_thread_and_two() {
    // RULINGS §16, in a world big enough that its units are stored in visiting
    // order (built on the engine's threads) and that the immediate passes, were
    // many of its units to hold immediate orders, would read their bits a stretch
    // at a time on them: every unit acting, 200 a faction, as the benchmarks'
    // generated worlds.
    use overlord::systems::overlord::mechanics::scheduler::UNITS_PER_STRETCH;
    use overlord::systems::overlord::world::VISITING_ORDER_FROM;
    let units = UNITS_PER_STRETCH.max(VISITING_ORDER_FROM) + 4_000;
    let t = tempfile::tempdir().unwrap();
    let game = generated_world(t.path(), units / 5, units / 200, units);
    // Two SPLITs whose outcome depends on the order they run in (the new units
    // take permanent ids one after the other): one by a unit of the first place,
    // one by a unit of the last, in the first stretch and the last.
    let scenario = overlord::systems::overlord::data::load::load_scenario(&t.path().join("scen")).unwrap();
    let splitter = |location: &str| {
        let u = scenario
            .units
            .iter()
            .find(|u| u.location == location && u.race != "ldr" && u.figures >= 2 && u.structure.is_none())
            .expect("a unit that can split");
        let f = scenario.factions.iter().find(|f| f.id == u.faction).unwrap();
        format!("GAME {} {}\nUNIT {}\nSPLIT {}nU01 1\n", f.id, f.password, u.id, f.id)
    };
    let g = GameDir::open(&game).unwrap();
    for place in [scenario.locations.first().unwrap(), scenario.locations.last().unwrap()] {
        g.submit::<Overlord>(&splitter(&place.id)).unwrap();
    }
    let (one, two) = (t.path().join("one"), t.path().join("two"));
    copy_dir(&game, &one);
    copy_dir(&game, &two);
    for (dir, threads) in [(&one, "1"), (&two, "2")] {
        let out = bin().arg("run").arg(dir).args(["--threads", threads, "--no-progress"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let state = fs::read_to_string(one.join("turns/0001/state/units.ron")).unwrap();
    assert_eq!(state.matches("  name: \"1 ").count(), 2, "both splits ran");
    assert_same_tree(&one, &two);
}

/// The `-v` log is for scripts as much as for eyes: piped, it has no colour codes,
/// and its stage lines read `key=value`.
#[test]
fn a_log_not_on_a_terminal_is_plain_text() {
    let t = tempfile::tempdir().unwrap();
    let game = generated_game(t.path(), 200);
    let out = bin().arg("run").arg(&game).args(["-vv", "--no-progress"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let log = String::from_utf8(out.stderr).unwrap();
    assert!(!log.contains('\u{1b}'), "colour codes in a piped log:\n{log}");
    let month = log.lines().find(|l| l.contains("month run")).expect("the month's line");
    assert!(month.contains(" seconds=") && month.contains(" peak_mb="), "{month}");
}

#[test]
fn a_run_killed_at_any_point_leaves_the_last_turn_and_reruns_to_the_same_bytes() {
    let t = tempfile::tempdir().unwrap();
    let reference = t.path().join("reference");
    let g = alpha_game(&reference);
    g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    let files_in_turn = tree(&g.turn_dir(1)).len();
    // Abort after each file of the turn, and just before the final rename.
    let mut points: Vec<String> = (1..=files_in_turn).step_by(7).map(|n| n.to_string()).collect();
    points.push(files_in_turn.to_string());
    points.dedup();
    points.push("rename".into());
    for point in points {
        let dir = t.path().join(format!("crash-{point}"));
        alpha_game(&dir);
        let out = bin().arg("run").arg(&dir).env(ABORT_ENV, &point).output().unwrap();
        assert!(!out.status.success(), "the run was aborted at {point}");
        let g = GameDir::open(&dir).unwrap();
        assert_eq!(g.current_turn().unwrap(), 0, "aborted at {point}: still at turn 0");
        assert!(dir.join("turns/.0001.partial").exists(), "aborted at {point}: a partial turn was left");
        let out = bin().arg("run").arg(&dir).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(!dir.join("turns/.0001.partial").exists());
        assert_same_tree(&dir, &reference);
    }
}

#[test]
fn a_run_killed_by_a_signal_is_recovered() {
    // A real kill at a few moments of a longer run; whatever the moment, the
    // directory holds either turn 0 or a complete turn 1, and a rerun finishes it.
    let t = tempfile::tempdir().unwrap();
    let game = generated_game(t.path(), 20000);
    let reference = t.path().join("reference");
    copy_dir(&game, &reference);
    let started = std::time::Instant::now();
    assert!(bin().arg("run").arg(&reference).arg("--threads=1").status().unwrap().success());
    let full = started.elapsed();
    for k in 1..=4u32 {
        let dir = t.path().join(format!("kill-{k}"));
        copy_dir(&game, &dir);
        let mut child = bin().arg("run").arg(&dir).arg("--threads=1").spawn().unwrap();
        std::thread::sleep(full * k / 5);
        let _ = child.kill();
        let _ = child.wait();
        let g = GameDir::open(&dir).unwrap();
        let turn = g.current_turn().unwrap();
        assert!(turn <= 1);
        if turn == 0 {
            assert!(bin().arg("run").arg(&dir).status().unwrap().success());
        }
        assert_same_tree(&dir, &reference);
    }
}

// ------------------------------------------------------------ report schema

#[test]
fn every_json_report_follows_the_published_schema() {
    let schema: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(root().join("docs/report-schema.json")).unwrap()).unwrap();
    let t = tempfile::tempdir().unwrap();
    let g = alpha_game(&t.path().join("game"));
    for o in war_orders() {
        g.submit::<Overlord>(o).unwrap();
    }
    g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    let reports = g.turn_dir(1).join("reports");
    let mut n = 0;
    let mut fields = std::collections::BTreeSet::new();
    for e in fs::read_dir(&reports).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "json") {
            let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
            let mut errs = Vec::new();
            check(&schema, &schema, &v, "$", &mut errs);
            assert!(errs.is_empty(), "{}: {errs:#?}", p.display());
            fields.extend(v.as_object().unwrap().keys().cloned());
            n += 1;
        }
    }
    assert_eq!(n, 15);
    // The optional sections were there to be checked: units lost in the battles,
    // and knowledge.
    for f in ["battles", "departed", "knowledge"] {
        assert!(fields.contains(f), "no report had {f}");
    }
}

#[test]
fn every_command_has_help_and_bad_arguments_do_not_panic() {
    for cmd in ["new", "submit", "run", "report", "map", "join", "demo", "validate", "generate", "import-legacy"] {
        let out = bin().args([cmd, "--help"]).output().unwrap();
        assert!(out.status.success(), "{cmd} --help");
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"), "{cmd} --help");
    }
    let t = tempfile::tempdir().unwrap();
    let out = bin().args(["run"]).arg(t.path().join("nowhere")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a game directory"));
    let out = bin().args(["run", "x", "--threads", "many"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["new"]).arg(root().join("scenarios/alpha")).arg(root().join("scenarios")).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "refuses a non-empty directory");
    // A world is not generated into a folder that has files.
    let full = t.path().join("full");
    fs::create_dir_all(&full).unwrap();
    fs::write(full.join("notes.txt"), "mine").unwrap();
    let out =
        bin().args(["generate", "--locations", "10", "--factions", "2", "--units", "10"]).arg(&full).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already exists and is not empty"));
    assert_eq!(fs::read_dir(&full).unwrap().count(), 1, "nothing written");
    // More threads than a machine can start is refused, not a panic.
    let out = bin().args(["run", "x", "--threads", "100000"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("100000 is not in 0..=1024"));
}

#[test]
fn orders_headed_with_the_faction_id_in_another_case_are_played() {
    // Mail takes `GAME F01 …` for f01; the turn must play those orders too.
    let t = tempfile::tempdir().unwrap();
    let (lower, upper) = (t.path().join("lower"), t.path().join("upper"));
    let a = alpha_game(&lower);
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, &upper).unwrap();
    let b = GameDir::open(&upper).unwrap();
    for text in alpha_orders() {
        let shouted: String = text
            .lines()
            .map(|l| match l.strip_prefix("GAME ") {
                Some(rest) => {
                    let (id, more) = rest.split_once(' ').unwrap();
                    format!("GAME {} {more}\n", id.to_ascii_uppercase())
                }
                None => format!("{l}\n"),
            })
            .collect();
        assert_ne!(shouted, text);
        b.submit::<Overlord>(&shouted).unwrap();
    }
    a.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    b.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    for part in ["state", "reports"] {
        assert_same_tree(&a.turn_dir(1).join(part), &b.turn_dir(1).join(part));
    }
}

#[test]
fn output_read_only_in_part_ends_the_command_quietly() {
    // `overlord report g f01 | head`: the reader stops, the command ends without a panic.
    use std::io::Read;
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, &dir).unwrap();
    let mut child = bin()
        .arg("report")
        .arg(&dir)
        .arg("f01")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "the report (75 kB) does not fit in the pipe");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_new_player_joins_between_turns_and_plays_the_next() {
    // START-*: `overlord join` adds a faction to the current turn, with its first
    // report and template; every other file of the turn stays as it was.
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, &dir).unwrap();
    let before = tree(&dir);
    let out = bin()
        .arg("join")
        .arg(&dir)
        .args(["The Empire", "archer@frmug.org", "mage", "imperial", "fire", "--password", "pw16"])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.starts_with("faction f16 joined after turn 0; password pw16\n"), "{said}");
    assert!(said.contains("The Empire [f16] starts as Mage in Itora [L1]"), "{said}");
    let after = tree(&dir);
    let g = GameDir::open(&dir).unwrap();
    let t0 = Path::new("turns/0000");
    let added: Vec<_> = after.keys().filter(|k| !before.contains_key(*k)).cloned().collect();
    let new_files = ["joins/f16.txt", "reports/f16.json", "reports/f16.txt"];
    assert_eq!(added, new_files.map(|f| t0.join(f)));
    for (k, v) in &before {
        let is_state = k.starts_with(t0.join("state"));
        let grows = is_state && ["factions.ron", "units.ron"].iter().any(|f| k.ends_with(f));
        if k == &t0.join(overlord::core::game::index::FILE) {
            // Made again, for the state with the new faction.
            assert!(after[k].len() > v.len(), "the mail index holds the new faction");
        } else if grows {
            // The faction and its units are added at the end of their files.
            let (old, new) = (String::from_utf8_lossy(v), String::from_utf8_lossy(&after[k]));
            assert!(new.starts_with(old.trim_end().trim_end_matches(']')), "{} only grows", k.display());
            assert!(new.len() > old.len());
        } else {
            assert!(&after[k] == v, "{} unchanged", k.display());
        }
    }
    let report = fs::read_to_string(g.report_path(0, "f16", ReportKind::Text)).unwrap();
    assert!(report.starts_with("alpha Report for Turn 0 for The Empire [f16], archer@frmug.org"), "{report}");
    assert!(report.contains("Hero [U1511] at Itora [L1]") && report.contains("1st fire magics [fire]"), "{report}");
    let template = String::from_utf8(g.read_report(0, "f16", ReportKind::Template).unwrap()).unwrap();
    assert!(template.starts_with("GAME f16 <password> alpha\n\nUNIT U1511  # Hero\n"), "{template}");
    // The state still validates, and a second player's name must differ.
    let out = bin().arg("validate").arg(g.turn_dir(0).join("state")).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = bin().arg("join").arg(&dir).args(["the empire", "b@c.org", "general", "border"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("a faction is already named 'the empire'"));
    // A join killed before it swaps the turn in leaves the turn as it was; the
    // next one starts again.
    let out = bin()
        .arg("join")
        .arg(&dir)
        .args(["Crafters", "c@d.org", "craftsman", "colonial", "digg", "cook"])
        .env(ABORT_ENV, "rename")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(tree(&g.turn_dir(0)), tree(&dir.join("turns/0000")));
    assert!(!fs::read_to_string(g.turn_dir(0).join("state/factions.ron")).unwrap().contains("Crafters"));
    let out = bin()
        .arg("join")
        .arg(&dir)
        .args(["Crafters", "c@d.org", "craftsman", "colonial", "digg", "cook"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    let password = said.lines().next().and_then(|l| l.rsplit(' ').next()).unwrap().to_string();
    assert_eq!(password.len(), 10, "a new password: {said}");
    assert!(!dir.join("turns/.0000.join").exists());

    // The new players send orders and play turn 1.
    g.submit::<Overlord>("GAME f16 pw16 alpha\nUNIT U1511\nSTUDY cmbt\nEND\n").unwrap();
    g.submit::<Overlord>(&format!("GAME f17 {password} alpha\nUNIT U1513\nUSE digg\nEND\n")).unwrap();
    let s = g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    assert_eq!((s.turn, s.factions, s.order_files), (1, 17, 2));
    let report = fs::read_to_string(g.report_path(1, "f16", ReportKind::Text)).unwrap();
    assert!(report.contains("Day 1 - Studies combat [cmbt]."), "{report}");
    let report = fs::read_to_string(g.report_path(1, "f17", ReportKind::Text)).unwrap();
    assert!(report.contains("at Tetgate [L12]"), "the first colonial city: {report}");
}

#[test]
fn mail_check_press_and_report_requests() {
    // FILE-CHECK, FILE-TURN, PRS-PRESS, PRS-RUMOR, PRS-MULTI, PRS-REWARD, RPC-REPORT.
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, &dir).unwrap();
    let g = GameDir::open(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = t.path().join(name);
        fs::write(&p, text).unwrap();
        p
    };

    // `check` stores nothing; errors give exit code 1, one line each, and a summary.
    let bad = write("bad.txt", "GAME f01 pswd1\nUNIT U1\nSTUDY egra\nUNIT U212\nWORK\nEND\n");
    let out = bin().arg("check").arg(&dir).arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout.lines().map(|l| l.split_once("bad.txt: ").unwrap().1).collect();
    assert_eq!(
        lines,
        [
            "line 1: orders of f01 for turn 1",
            "line 3: error: even grace (egra) cannot be learned by study",
            "line 4: error: U212 is not one of your units; the block is ignored",
            "f01, turn 1: 2 unit blocks, 2 orders: 2 errors, 0 warnings",
        ],
        "{stdout}"
    );
    assert!(!dir.join("orders").exists(), "check stores nothing");
    let good = write("good.txt", "GAME f01 pswd1\nUNIT U2\n@GUARD\n");
    assert_eq!(bin().arg("check").arg(&dir).arg(&good).output().unwrap().status.code(), Some(0));

    // A mail with orders, three articles and a report request.
    let mail = write(
        "mail.txt",
        "Dear GM,\n#GAME f01 pswd1\nUNIT U2\n@GUARD\n#END\n\
         #PRESS f01 pswd1\nThe Itorians welcome all traders.\n#END\n\
         #RUMOR f01 pswd1\nThe Emperor is ill.\n#END\n\
         #RUMOR f02 pswd2\nA dragon sleeps in the hills.\n#END\n\
         #REPORT f02 pswd2 0\n\
         #RUMOR f02 nope\nWrong password.\n#END\n",
    );
    let out = bin().arg("submit").arg(&dir).arg(&mail).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "one section was refused");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for want in [
        "mail.txt: line 2: orders of f01 for turn 1 stored (1 unit block(s))",
        "mail.txt: f01, turn 1: 1 unit block, 1 order: 0 errors, 0 warnings",
        "mail.txt: line 6: signed article of f01 stored for the newspaper of turn 1",
        "mail.txt: line 9: rumour of f01 stored for the newspaper of turn 1",
        "mail.txt: line 12: rumour of f02 stored for the newspaper of turn 1",
        "mail.txt: line 15: the report of f02 for turn 0 follows",
    ] {
        assert!(stdout.contains(want), "{want}\n{stdout}");
    }
    let report0 = fs::read_to_string(g.report_path(0, "f02", ReportKind::Text)).unwrap();
    assert!(stdout.ends_with(&report0), "the stored report follows the answers");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("mail.txt: error: line 16: wrong password for faction f02; nothing was stored"),
        "{stderr}"
    );
    assert_eq!(fs::read_dir(g.pending_dir(1).join("press")).unwrap().count(), 3);
    // The same mail submitted again stores its articles once (it once doubled them).
    let out = bin().arg("submit").arg(&dir).arg(&mail).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(fs::read_dir(g.pending_dir(1).join("press")).unwrap().count(), 3, "no article twice");
    // The stored orders keep the mail's line numbers.
    assert_eq!(
        fs::read_to_string(g.pending_dir(1).join("f01.txt")).unwrap(),
        "\n#GAME f01 ********\nUNIT U2\n@GUARD\n#END\n",
        "stored without the password"
    );

    // Orders for turn 2 wait unchecked; they are checked once turn 1 has run.
    let later = write("later.txt", "GAME f03 pswd3 2\nUNIT U1\nWORK\n");
    let out = bin().arg("submit").arg(&dir).arg(&later).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("orders for turn 2 are checked when turn 1 has run"));

    let funds = |turn: u32, f: &str| -> u64 {
        let state = g.state::<Overlord>(turn).unwrap();
        state.factions.iter().find(|x| x.id == f).unwrap().funds.get("coin").copied().unwrap_or(0)
    };
    let before = (funds(0, "f01"), funds(0, "f02"));
    g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    // The taxes each faction collected, as its report tells them (OWN-TAX).
    let taxes = |f: &str| -> u64 {
        let r = fs::read_to_string(g.report_path(1, f, ReportKind::Text)).unwrap();
        r.lines()
            .filter(|l| l.contains(" taxes from "))
            .map(|l| l.split(" - ").nth(1).and_then(|x| x.split(' ').next()).unwrap().parse::<u64>().unwrap())
            .sum()
    };
    let (t1, t2) = (taxes("f01"), taxes("f02"));
    assert!(t1 > 0 && t2 > 0, "the owners of alpha's land collect taxes");
    // Rewards: f01 wrote a signed article and a rumour (50, not 80); f02 a rumour.
    assert_eq!((funds(1, "f01"), funds(1, "f02")), (before.0 + 50 + t1, before.1 + 30 + t2));
    let r1 = fs::read_to_string(g.report_path(1, "f01", ReportKind::Text)).unwrap();
    assert!(r1.contains("Newspaper: your signed article earned 50 coins [coin] for the faction funds."), "{r1}");
    let r2 = fs::read_to_string(g.report_path(1, "f02", ReportKind::Text)).unwrap();
    assert!(r2.contains("Your report for turn 0 was sent again on request."));
    // The newspaper: signed articles with their author, rumours unsigned.
    let paper = fs::read_to_string(g.newspaper_path(1)).unwrap();
    assert_eq!(
        paper,
        "Alpha test game: the newspaper of turn 1\n========================================\n\n\
         Signed articles\n---------------\n\nThe Itorians welcome all traders.\n\n    -- Itorians (f01)\n\n\
         Rumours\n-------\n\nA dragon sleeps in the hills.\n\nThe Emperor is ill.\n"
    );
    let out = bin().arg("newspaper").arg(&dir).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), paper);
    // The turn archives the mail it ran with, and the check of the orders for turn 2.
    let turn1 = g.turn_dir(1);
    assert_eq!(fs::read_dir(turn1.join("press")).unwrap().count(), 3);
    assert!(turn1.join("notices/f02.txt").is_file());
    let check = fs::read_to_string(turn1.join("checks/f03.txt")).unwrap();
    assert_eq!(
        check,
        "Check of the orders of f03 for turn 2\nline 2: error: U1 is not one of your units; the block is ignored\n\
         1 unit block, 1 order: 1 error, 0 warnings\n"
    );
    // Turn 0's newspaper is empty.
    assert_eq!(
        fs::read_to_string(g.newspaper_path(0)).unwrap(),
        "Alpha test game: the newspaper of turn 0\n========================================\n\nNo articles this turn.\n"
    );
}

#[test]
fn a_month_of_unit_life_on_the_alpha_world() {
    // Issue "Unit life": on the alpha world, units study (taught), make, work and
    // recruit, and the reports show it. The bladesmith U707 is given 10 iron first.
    let t = tempfile::tempdir().unwrap();
    let mut scen = overlord::systems::overlord::testkit::alpha();
    scen.units.iter_mut().find(|u| u.id == "U707").unwrap().items.push(overlord::systems::overlord::data::ItemHolding(
        "iron".into(),
        10,
        0,
    ));
    let scen_dir = t.path().join("scen");
    overlord::systems::overlord::data::save_scenario(&scen_dir, &scen).unwrap();
    let dir = t.path().join("game");
    GameDir::create::<Overlord>(&scen_dir, Some(&root().join("assets/rules/overlord")), &dir).unwrap();
    let g = GameDir::open(&dir).unwrap();
    g.submit::<Overlord>(
        "GAME f05 pswd5\nUNIT U500\nWITHDRAW 300\nRECRUIT f05nU01 5 man 50\nUNIT f05nU01\nNAME \"Fresh pikes\"\n@STUDY cmbt\n\
         UNIT U503\n30 STUDY cmbt\nUNIT U502\n@TEACH U503 cmbt\n",
    )
    .unwrap();
    g.submit::<Overlord>("GAME f07 pswd7\nUNIT U707\n@USE blsm\n").unwrap();
    g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    let f05 = fs::read_to_string(g.report_path(1, "f05", ReportKind::Text)).unwrap();
    for want in [
        "Withdrew 300 coins [coin] from the faction funds.",
        "Recruited 5 followers [man] as 5 followers [U",
        "Fresh pikes [U",
        "Teaches combat [cmbt] to Pool [U503].",
        "Achieves 1st combat [cmbt].",
        "for 30 days of work in Anarnium [L18].",
        "of upkeep",
    ] {
        assert!(f05.contains(want), "f05's report lacks {want:?}:\n{f05}");
    }
    let state = g.state::<Overlord>(1).unwrap();
    let fresh = state.units.iter().find(|u| u.name == "Fresh pikes").unwrap();
    assert_eq!((fresh.figures, fresh.stack_leader.as_deref()), (5, Some("U500")));
    assert!(fresh.skills.iter().any(|s| s.0 == "cmbt" && s.1 > 0), "the recruits studied from day 2");
    // Taught at double speed for 30 days: 6000 points or more.
    let pool = state.units.iter().find(|u| u.id == "U503").unwrap();
    assert!(pool.skills.iter().any(|s| s.0 == "cmbt" && s.1 >= 6000), "{:?}", pool.skills);
    // 2nd-level bladesmith: a sword per 15 days from 5 iron.
    let f07 = fs::read_to_string(g.report_path(1, "f07", ReportKind::Text)).unwrap();
    assert!(f07.contains("Produced 1 sword [swrd]."), "{f07}");
    let smith = state.units.iter().find(|u| u.id == "U707").unwrap();
    assert!(smith.items.iter().any(|i| i.0 == "swrd" && i.1 == 2), "{:?}", smith.items);
    assert!(!smith.items.iter().any(|i| i.0 == "iron"));
}

#[test]
fn one_command_changes_a_game_at_a_time() {
    use overlord::core::game::lock::{self, Hold};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    let g = alpha_game(&dir);
    // A run or a join while another holds the game fails at once, naming the
    // game, and changes nothing.
    let held = lock::take(&dir, Hold::Change).unwrap();
    let e = g.run::<Overlord>(Threads::One, |_, _| {}).unwrap_err();
    assert_eq!(e.path, dir);
    assert!(e.message.contains("another command is changing this game"), "{e}");
    let out = bin().arg("join").arg(&dir).args(["Late", "l@x.org", "general", "border"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("another command is changing this game"));
    let out = bin().arg("run").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(g.current_turn().unwrap(), 0);
    // A mail waits for the run or join that holds the game, then is stored.
    let stored = Arc::new(AtomicBool::new(false));
    let mail = {
        let (dir, stored) = (dir.clone(), stored.clone());
        std::thread::spawn(move || {
            let g = GameDir::open(&dir).unwrap();
            let r = g.submit::<Overlord>("GAME f05 pswd5\nUNIT U500\nSTUDY cmbt\n").unwrap();
            stored.store(true, Ordering::SeqCst);
            r.turn
        })
    };
    // The same through the command line: it says that it waits.
    let file = t.path().join("f06.txt");
    fs::write(&file, "GAME f06 pswd6\nUNIT U600\nSTUDY cmbt\n").unwrap();
    let child = bin().arg("submit").arg(&dir).arg(&file).stderr(std::process::Stdio::piped()).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(!stored.load(Ordering::SeqCst), "the mail waits while the game is held");
    drop(held);
    assert_eq!(mail.join().unwrap(), 1);
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("a turn run or a join is changing this game; waiting for it to finish"), "{said}");
    // A run waits for mails being taken in, then runs.
    let reading = lock::take(&dir, Hold::Read).unwrap();
    let released = Arc::new(AtomicBool::new(false));
    let reader = {
        let released = released.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            released.store(true, Ordering::SeqCst);
            drop(reading);
        })
    };
    let s = g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    assert!(released.load(Ordering::SeqCst), "the run waited for the mail");
    assert_eq!(s.turn, 1);
    reader.join().unwrap();
    assert!(fs::read_to_string(g.turn_dir(1).join("orders/f05.txt")).unwrap().contains("STUDY cmbt"));
}

#[test]
fn every_order_template_checks_clean_as_sent_rpt_template() {
    // RPT-TEMPLATE: a player who sends the template back with only the password
    // written in gets no error, on the alpha world (whose legacy data had an order
    // no engine could read) and on a generated world (whose followers were once
    // given leaders' BUY and SELL).
    let t = tempfile::tempdir().unwrap();
    let generated = t.path().join("generated");
    let out = bin()
        .args(["generate", "--locations", "300", "--factions", "12", "--units", "1500", "--seed", "3"])
        .arg(&generated)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rules = root().join("assets/rules/overlord");
    for (name, scenario) in [("alpha", root().join("scenarios/alpha")), ("generated", generated)] {
        let dir = t.path().join(format!("{name}-game"));
        GameDir::create::<Overlord>(&scenario, Some(&rules), &dir).unwrap();
        let g = GameDir::open(&dir).unwrap();
        let state = overlord::systems::overlord::data::load_scenario(&scenario).unwrap();
        let mut checked = 0;
        for f in state.factions.iter().filter(|f| !f.password.is_empty()) {
            let template = String::from_utf8(g.read_report(0, &f.id, ReportKind::Template).unwrap()).unwrap();
            let mail = template.replacen("<password>", &f.password, 1);
            let answers = g.check_mail::<Overlord>(&mail).unwrap();
            let Some(overlord::core::game::Answer::Orders(r)) = answers.first() else {
                panic!("{name} {}: {answers:?}", f.id)
            };
            let c = r.check.as_ref().expect("orders for the next turn are checked");
            let errors: Vec<String> = c
                .problems
                .iter()
                .filter(|p| p.severity == overlord::core::orders::check::Severity::Error)
                .map(|p| p.to_string())
                .collect();
            assert!(errors.is_empty(), "{name} {}: {errors:?}", f.id);
            checked += 1;
        }
        assert!(checked >= 12, "{name}: {checked} templates");
    }
}
