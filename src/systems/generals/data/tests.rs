//! The bundled generals rule set loads and validates; a scenario's problems are
//! named by file, line and column.

use super::load::{load_ruleset, load_scenario, scenario_files};
use super::scenario::*;
use super::validate::validate;
use crate::systems::generals::fixture::{a_row, region, rules_dir, troop};
use std::path::Path;

/// Two players on three regions in a row: p1 holds R1, p2 holds R3, R2 is empty.
fn three_regions() -> Scenario {
    let mut s = Scenario {
        regions: vec![region("R1", &["R2"]), region("R2", &["R1", "R3"]), region("R3", &["R2"])],
        troops: vec![troop("T1", "p1", "R1"), troop("T2", "p2", "R3")],
        ..a_row()
    };
    s.generals[1].region = "R3".into();
    s
}

fn write(dir: &Path, s: &Scenario) {
    for (name, bytes) in scenario_files(s).unwrap() {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
}

/// The errors of scenario `s` as `file:line: message`.
fn errors(s: &Scenario) -> Vec<String> {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), s);
    let rules = load_ruleset(&rules_dir()).unwrap();
    let back = load_scenario(t.path()).unwrap();
    assert_eq!(&back, s, "a scenario reads back as written");
    validate(&rules, &back, &rules_dir(), t.path())
        .iter()
        .filter(|d| d.is_error())
        .map(|d| format!("{}:{}: {}", d.file.file_name().unwrap().to_string_lossy(), d.line, d.message))
        .collect()
}

#[test]
fn the_bundled_rule_set_loads_and_a_sound_scenario_validates() {
    let rules = load_ruleset(&rules_dir()).unwrap();
    assert_eq!((rules.info.system.as_str(), rules.plan.ticks), ("generals", 1));
    assert_eq!(rules.info.parameters.train_general_cost, 100);
    assert_eq!(rules.skills.len(), 12, "the twelve skills of generals-rules.txt 104-140");
    assert_eq!(errors(&three_regions()), Vec::<String>::new());
}

#[test]
fn every_broken_reference_and_bound_is_named_by_file_and_line() {
    let mut s = three_regions();
    s.regions[2].adjacent.clear(); // R2 lists R3, R3 not R2
    s.regions[0].defense = "flan".into(); // an offensive order
    s.regions[1].income = (12, 10);
    s.generals[0].skills.insert("heal".into(), 11);
    s.generals[1].skills.insert("fly".into(), 1);
    s.troops.push(Troop {
        id: "T3".into(),
        player: "p2".into(),
        kind: "mili".into(),
        men: 5,
        region: "R1".into(),
        ..Default::default()
    });
    s.players[0].relations.insert("p2".into(), Relation::Ally);
    let e = errors(&s);
    let has = |needle: &str| e.iter().any(|x| x.contains(needle));
    assert!(has("regions.ron:") && has("R3 does not list R2 as adjacent"), "{e:#?}");
    assert!(has("'flan' is not a defensive order"), "{e:#?}");
    assert!(has("income above its original value"), "{e:#?}");
    assert!(has("generals.ron:") && has("skill level 11 is outside 1 to 10"), "{e:#?}");
    assert!(has("unknown skill 'fly'"), "{e:#?}");
    assert!(has("troops.ron:") && has("region R1 holds troops of p1 and p2"), "{e:#?}");
    assert!(has("players.ron:") && has("p2 holds p1 Neutral, not Ally"), "{e:#?}");
    assert_eq!(e.len(), 7, "{e:#?}");
    // Lines point at the offending record.
    let line = |needle: &str| {
        e.iter().find(|x| x.contains(needle)).unwrap().split(':').nth(1).unwrap().parse::<usize>().unwrap()
    };
    assert!(line("skill level 11") < line("unknown skill 'fly'"), "Ann comes before Bob: {e:#?}");
}

#[test]
fn a_syntax_error_in_any_file_is_reported_with_the_others() {
    let t = tempfile::tempdir().unwrap();
    write(t.path(), &three_regions());
    std::fs::write(t.path().join("troops.ron"), "[ (id: \"T1\", men: lots) ]\n").unwrap();
    std::fs::write(t.path().join("players.ron"), "[ (id: \"p1\"\n").unwrap();
    let d = load_scenario(t.path()).unwrap_err();
    let files: Vec<String> = d.iter().map(|x| x.file.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(files, ["players.ron", "troops.ron"], "{d:?}");
    assert!(d.iter().all(|x| x.line >= 1), "{d:?}");
}

#[test]
fn the_orders_combat_names_must_be_given_by_the_right_side() {
    // combat.ron: a prepared battlefield defends as `prepared_as`, so it cannot be an
    // offensive-only order; flanking is an attack, so it cannot be defensive-only.
    let t = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(rules_dir()).unwrap().flatten() {
        std::fs::copy(e.path(), t.path().join(e.file_name())).unwrap();
    }
    let path = t.path().join("combat.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text
        .replace("prepared_as: \"fort\"", "prepared_as: \"flan\"")
        .replace("flanking: \"flan\"", "flanking: \"fort\"");
    std::fs::write(&path, text).unwrap();
    let rules = load_ruleset(t.path()).unwrap();
    let s = three_regions();
    let sd = tempfile::tempdir().unwrap();
    write(sd.path(), &s);
    let e: Vec<String> = validate(&rules, &s, t.path(), sd.path()).iter().map(|d| d.to_string()).collect();
    assert_eq!(e.len(), 2, "{e:#?}");
    assert!(
        e[0].contains("combat.ron:") && e[0].contains("prepared_as 'flan' cannot be given by that side (Offensive)"),
        "{e:#?}"
    );
    assert!(e[1].contains("flanking 'fort' cannot be given by that side (Defensive)"), "{e:#?}");
}
