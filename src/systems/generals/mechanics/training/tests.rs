//! Train General (generals-rules.txt 55-56, 142).

use crate::systems::generals::fixture::{a_row, play, rules};

#[test]
fn a_new_general_costs_a_hundred_gold_and_starts_with_two_skills_at_level_one() {
    let mut g = play(a_row());
    g.orders("p1", "GENERAL \"Ann\": TRAIN \"Cid\"").run();
    let cid = g.general("Cid").expect("trained");
    let p = rules().info.parameters;
    assert_eq!((cid.player.as_str(), cid.region.as_str(), cid.renown, cid.new), ("p1", "R1", 0, true));
    assert_eq!(cid.skills.len(), p.starting_skills as usize);
    assert!(cid.skills.values().all(|&l| l == p.starting_skill_level));
    assert_eq!(g.player("p1").treasury, 500 + 30 - 100);
    assert!(g.said("p1", "line 2: Ann trained a new general, Cid, in Region R1 [R1] for 100 gold."));
    assert_eq!(g.report("p1").generals[0].action, "trained Cid");
    // He may only move the next turn, then he may act.
    g.orders("p1", "GENERAL \"Cid\": PREPARE").run();
    assert!(g.said("p1", "Cid was trained last turn: he may only move"), "{:?}", g.events("p1"));
    assert!(!g.general("Cid").unwrap().new);
    g.orders("p1", "GENERAL \"Cid\": PREPARE").run();
    assert_eq!(g.region("R1").prepared_by.as_deref(), Some("Cid"));
}

#[test]
fn the_skills_of_new_generals_are_drawn_from_the_seed() {
    let skills = |seed: u64, name: &str| {
        let mut s = a_row();
        s.game.seed = seed;
        let mut g = play(s);
        g.orders("p1", &format!("GENERAL \"Ann\": TRAIN \"{name}\"")).run();
        g.general(name).unwrap().skills
    };
    assert_eq!(skills(1, "Cid"), skills(1, "Cid"));
    let drawn: std::collections::BTreeSet<_> =
        (0..20).map(|i| skills(i, "Cid").keys().cloned().collect::<Vec<_>>()).collect();
    assert!(drawn.len() > 5, "different seeds give different skills: {drawn:?}");
}

#[test]
fn training_without_the_gold_or_under_a_name_taken_is_refused() {
    let mut s = a_row();
    s.players[0].treasury = 20;
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": TRAIN \"Bob\"").run();
    assert!(g.said("p1", "line 2: Not done: a general is named 'Bob' already."), "{:?}", g.events("p1"));
    g.orders("p1", "GENERAL \"Ann\": TRAIN \"Cid\"").run();
    // 20 and two turns of income (30 each, collected before training): 80.
    assert!(
        g.said("p1", "line 2: Not done: a new general costs 100 gold and the treasury holds 80."),
        "{:?}",
        g.events("p1")
    );
    assert!(g.general("Cid").is_none());
}
