//! Whole games of the generals rule system through the same game folder
//! commands as Overlord's (`new`, `check`, `submit`, `run`, `report`): the demo
//! scenario played for several turns, the same bytes in two folders and on one
//! thread or many, every JSON report against its published schema, and bad
//! orders answered line by line.

mod common;

use common::{assert_same_tree, bin, check, root, tree};
use overlord::core::game::ABORT_ENV;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn overlord(args: &[&str]) -> Output {
    let out = bin().args(args).output().unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("panicked"),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn ok(args: &[&str]) -> String {
    let out = overlord(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Orders for `player` from its JSON report: a general where the player has two
/// troop units or more attacks the first neighbouring region not the player's
/// with all but the first; the others rest.
fn orders_from(report: &serde_json::Value, password: &str) -> String {
    let id = report["player"]["id"].as_str().unwrap();
    let regions = report["regions"].as_array().unwrap();
    let mine = |r: &str| regions.iter().any(|x| x["id"] == r && x.get("income").is_some());
    let mut o = format!("GAME {id} {password}\n");
    let mut used = std::collections::BTreeSet::new();
    for g in report["generals"].as_array().unwrap() {
        let (name, at) = (g["name"].as_str().unwrap(), g["region"].as_str().unwrap());
        let here = regions.iter().find(|x| x["id"] == at).unwrap();
        let troops: Vec<&str> = here["troops"].as_array().unwrap().iter().filter_map(|t| t["id"].as_str()).collect();
        let target = here["adjacent"].as_array().unwrap().iter().filter_map(|r| r.as_str()).find(|r| !mine(r));
        if g["new"] == true {
            continue;
        }
        match target {
            Some(t) if troops.len() > 1 && mine(at) && used.insert(at.to_string()) => {
                o.push_str(&format!("GENERAL \"{name}\": ATTACK {t} WITH {} AS FIELD\n", troops[1..].join(" ")));
            }
            _ => o.push_str(&format!("GENERAL \"{name}\": REST\n")),
        }
    }
    o.push_str("END\n");
    o
}

/// A generals game of the demo, played `turns` turns: the sample orders, then
/// the orders above.
fn play(dir: &Path, turns: u32, threads: &str) {
    ok(&["new", s(&root().join("scenarios/generals-demo")), s(dir)]);
    let orders = root().join("scenarios/generals-demo/orders");
    for p in 1..=4 {
        ok(&["submit", s(dir), s(&orders.join(format!("p{p}.txt")))]);
    }
    ok(&["run", s(dir), "--threads", threads]);
    play_on(dir, 4, turns - 1, threads);
}

/// `turns` more turns of the game in `dir` with `players` players, with the
/// orders above.
fn play_on(dir: &Path, players: u32, turns: u32, threads: &str) {
    for _ in 0..turns {
        for p in 1..=players {
            let report: serde_json::Value =
                serde_json::from_str(&ok(&["report", s(dir), &format!("p{p}"), "--json"])).unwrap();
            let file = dir.join(format!("orders-p{p}.txt"));
            fs::write(&file, orders_from(&report, &format!("pw{p}"))).unwrap();
            ok(&["submit", s(dir), s(&file)]);
            fs::remove_file(&file).unwrap();
        }
        ok(&["run", s(dir), "--threads", threads]);
    }
}

#[test]
fn the_demo_plays_several_turns_like_an_overlord_game() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    play(&dir, 5, "0");
    // Every state a turn left validates: a run reads a state its turn's mail
    // index vouches for without validating it again (docs/reliability.md).
    for turn in 1..=5 {
        let out = ok(&["validate", s(&dir.join(format!("turns/{turn:04}/state")))]);
        assert!(out.contains("valid"), "turn {turn}: {out}");
    }
    let text = ok(&["report", s(&dir), "p1"]);
    assert!(text.starts_with("generals: turn 5 report for "), "{text}");
    for section in ["Standings", "Diplomacy", "Generals", "Your regions", "What your scouts found"] {
        assert!(text.contains(section), "{section}: {text}");
    }
    let template = ok(&["report", s(&dir), "p1", "--template"]);
    assert!(template.starts_with("GAME p1 <password>\n") && template.ends_with("END\n"), "{template}");
    // RPT-TEMPLATE: the template ends the text report, as in an Overlord game.
    assert!(text.ends_with(&format!("\nOrders template:\n\n{template}")), "{text}");
    // A turn written when the template had a file of its own gives that file.
    let reports = dir.join("turns/0005/reports");
    let older = "GAME p1 <password>\nEND\n";
    fs::write(reports.join("p1.txt"), text[..text.len() - template.len()].replace("Orders template:", "")).unwrap();
    fs::write(reports.join("p1.orders.txt"), older).unwrap();
    assert_eq!(ok(&["report", s(&dir), "p1", "--template"]), older);
    // The template, with the player's password written in, checks without an
    // error against the current turn.
    let file = t.path().join("template.txt");
    fs::write(&file, template.replacen("<password>", "pw1", 1)).unwrap();
    let out = ok(&["check", s(&dir), s(&file)]);
    assert!(out.contains("0 errors"), "{out}");
    // The players spread: more regions are held than at the start.
    let held = |turn: &str| {
        let regions = fs::read_to_string(dir.join(format!("turns/{turn}/state/troops.ron"))).unwrap();
        regions
            .lines()
            .filter(|l| l.contains("region:"))
            .map(|l| l.to_string())
            .collect::<std::collections::BTreeSet<_>>()
            .len()
    };
    assert!(held("0005") > held("0000"), "{} regions held at turn 5, {} at the start", held("0005"), held("0000"));
}

#[test]
fn the_same_game_gives_the_same_bytes_in_two_folders_and_on_one_thread_or_many() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    play(&a, 4, "1");
    play(&b, 4, "0");
    assert_same_tree(&a, &b);
    // And where players meet and fight.
    let world = crowded(t.path());
    let (a, b) = (t.path().join("crowded-a"), t.path().join("crowded-b"));
    for (dir, threads) in [(&a, "1"), (&b, "0")] {
        ok(&["new", s(&world), s(dir)]);
        play_on(dir, 4, 4, threads);
    }
    let battles = tree(&a.join("turns")).into_iter().filter(|(p, b)| {
        p.extension().is_some_and(|x| x == "txt") && String::from_utf8_lossy(b).contains("\nBattles\n")
    });
    assert!(battles.count() > 0, "battles were fought");
    assert_same_tree(&a, &b);
}

/// A generated world of 16 regions and 4 players, where they meet.
fn crowded(t: &Path) -> PathBuf {
    let world = t.join("crowded");
    if !world.exists() {
        let rules = root().join("assets/rules/generals");
        let args = ["generate", "--rules", s(&rules), "--locations", "16", "--factions", "4", "--units", "32"];
        ok(&args.into_iter().chain(["--seed", "5", s(&world)]).collect::<Vec<_>>());
    }
    world
}

#[test]
fn every_json_report_follows_the_published_schema() {
    let schema: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(root().join("docs/generals-report-schema.json")).unwrap()).unwrap();
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    play(&dir, 3, "0");
    // A crowded world, where players meet and fight.
    let world = crowded(t.path());
    let crowded = t.path().join("crowded-game");
    ok(&["new", s(&world), s(&crowded)]);
    play_on(&crowded, 4, 4, "0");
    let mut n = 0;
    let mut battles = 0;
    let turns = tree(&dir.join("turns")).into_iter().chain(tree(&crowded.join("turns")));
    for (path, bytes) in turns {
        if path.extension().is_some_and(|x| x == "json") {
            let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
            let mut errs = Vec::new();
            check(&schema, &schema, &v, "$", &mut errs);
            assert!(errs.is_empty(), "{}: {errs:#?}", path.display());
            battles += v["battles"].as_array().unwrap().len();
            n += 1;
        }
    }
    assert_eq!(n, 4 * 4 + 4 * 5, "four players, turns 0 to 3 and 0 to 4");
    assert!(battles > 0, "battles were reported");
}

#[test]
fn bad_orders_are_answered_line_by_line_and_a_killed_run_reruns_to_the_same_bytes() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("game");
    ok(&["new", s(&root().join("scenarios/generals-demo")), s(&dir)]);
    let file = t.path().join("bad.txt");
    fs::write(
        &file,
        "GAME p1 pw1\nGENERAL \"Artirtir\": FLY R9\nGENERAL \"Nobody\": REST\nREGION R1: FLANK\nOVERTAX R1 INCOME 999\nGENERAL \"Artirtir\": MOVE T1 TO R40\nEND\n",
    )
    .unwrap();
    let out = overlord(&["check", s(&dir), s(&file)]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    for line in ["line 2: error:", "line 3: error:", "line 4: error:", "line 5: error:", "line 6: error:"] {
        assert!(text.contains(line), "{line}: {text}");
    }
    // A run killed after its second file leaves turn 0 and reruns to the same turn.
    let reference = t.path().join("reference");
    ok(&["new", s(&root().join("scenarios/generals-demo")), s(&reference)]);
    for d in [&dir, &reference] {
        for p in 1..=4 {
            ok(&["submit", s(d), s(&root().join(format!("scenarios/generals-demo/orders/p{p}.txt")))]);
        }
    }
    ok(&["run", s(&reference)]);
    let out = Command::new(env!("CARGO_BIN_EXE_overlord")).args(["run", s(&dir)]).env(ABORT_ENV, "2").output().unwrap();
    assert!(!out.status.success());
    ok(&["run", s(&dir)]);
    assert_same_tree(&dir.join("turns"), &reference.join("turns"));
}
