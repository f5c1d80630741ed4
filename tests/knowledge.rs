//! What the factions of the alpha world know after a turn (RPT-KNOW): every item,
//! race and structure a faction's report names is known to it, hence described in
//! this report or an earlier one; and each description is given once.

use overlord::core::engine::Threads;
use overlord::core::game::{GameDir, ReportKind};
use overlord::systems::overlord::Overlord;
use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The item, race and structure tags a JSON report names in its fields.
fn named(r: &serde_json::Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut keys = |v: &serde_json::Value| {
        if let Some(m) = v.as_object() {
            out.extend(m.keys().cloned());
        }
    };
    keys(&r["faction"]["funds"]);
    for u in r["units"].as_array().unwrap() {
        keys(&u["items"]);
    }
    for l in r["locations"].as_array().unwrap() {
        for u in l["units"].as_array().unwrap() {
            keys(&u["items"]);
        }
    }
    let mut tags = |v: &serde_json::Value, field: &str| {
        for x in v.as_array().into_iter().flatten() {
            out.insert(x[field].as_str().unwrap().to_string());
        }
    };
    tags(&r["units"], "race");
    for l in r["locations"].as_array().unwrap() {
        tags(&l["units"], "race");
        tags(&l["structures"], "kind");
        for list in ["recruits", "for_sale", "buying", "resources"] {
            tags(&l[list], "tag");
        }
    }
    tags(&r["structures"], "kind");
    out
}

#[test]
fn every_record_a_report_names_is_known_to_its_faction_rpt_know() {
    let t = tempfile::tempdir().unwrap();
    let game = t.path().join("game");
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), Some(&root().join("assets/rules/overlord")), &game)
        .unwrap();
    let g = GameDir::open(&game).unwrap();
    g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    let state = g.state::<Overlord>(1).unwrap();
    let mut checked = 0;
    for f in &state.factions {
        let path = g.report_path(1, &f.id, ReportKind::Json);
        let r: serde_json::Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
        let known: BTreeSet<&str> = f.known.iter().map(String::as_str).collect();
        for tag in named(&r) {
            assert!(known.contains(tag.as_str()), "{} names {tag} without knowing it", f.id);
            checked += 1;
        }
        // What turn 1 describes, turn 0 did not: nothing is described twice.
        let before = g.report_path(0, &f.id, ReportKind::Json);
        let r0: serde_json::Value = serde_json::from_str(&fs::read_to_string(before).unwrap()).unwrap();
        let described = |r: &serde_json::Value| -> BTreeSet<(String, String, Option<u64>)> {
            r["knowledge"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|k| (k["kind"].to_string(), k["tag"].to_string(), k["level"].as_u64()))
                .collect()
        };
        let twice: Vec<_> = described(&r0).intersection(&described(&r)).cloned().collect();
        assert!(twice.is_empty(), "{} was told twice of {twice:?}", f.id);
    }
    assert!(checked > 100, "the reports name records: {checked}");
}
