//! Skills bought with renown (generals-rules.txt 52-53, 98-142; ruling 9).

use crate::systems::generals::fixture::{a_row, play};

fn with_renown(n: u32) -> crate::systems::generals::data::Scenario {
    let mut s = a_row();
    s.generals[0].renown = n;
    s
}

#[test]
fn a_new_skill_costs_five_renown_during_r_and_r() {
    // generals-rules.txt 142: "decrease his renown rating by 5 during R+R, to gain a new skill".
    let mut g = play(with_renown(7));
    g.orders("p1", "GENERAL \"Ann\": REST LEARN master-tactician").run();
    let ann = g.general("Ann").unwrap();
    assert_eq!((ann.renown, ann.skills.get("tact")), (2, Some(&1)));
    assert!(g.said("p1", "line 2: Ann learns Master Tactician for 5 renown (2 left)."), "{:?}", g.events("p1"));
    assert_eq!(g.report("p1").generals[0].action, "R and R");
}

#[test]
fn raising_a_skill_costs_five_times_its_new_level_at_any_time() {
    // generals-rules.txt 142: "increase a skill level one level at a time by lowering
    // his renown rating by 5 times the new level"; with any action (ruling 9).
    let mut g = play(with_renown(30));
    g.orders("p1", "GENERAL \"Ann\": PREPARE RAISE healer healer").run();
    let ann = g.general("Ann").unwrap();
    // Healer 1 → 2 costs 10, 2 → 3 costs 15.
    assert_eq!((ann.renown, ann.skills["heal"]), (5, 3));
    assert_eq!(g.region("R1").prepared_by.as_deref(), Some("Ann"));
}

#[test]
fn a_purchase_renown_cannot_pay_is_refused_whole() {
    // Ruling 9: "A purchase that renown cannot pay is refused whole."
    let mut g = play(with_renown(14));
    g.orders("p1", "GENERAL \"Ann\": REST LEARN tact RAISE healer").run();
    let ann = g.general("Ann").unwrap();
    assert_eq!((ann.renown, ann.skills.get("tact"), ann.skills["heal"]), (14, None, 1));
    assert!(g.said("p1", "line 2: Not done: Ann has 14 renown and this costs 15."), "{:?}", g.events("p1"));
}

#[test]
fn skills_stop_at_the_highest_level_and_unknown_ones_cannot_be_raised() {
    // generals-rules.txt 100: "a skill level of one to ten".
    let mut s = with_renown(500);
    s.generals[0].skills.insert("heal".into(), 10);
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": RAISE healer\nGENERAL \"Ann\": RAISE tact\nGENERAL \"Ann\": REST LEARN healer")
        .run();
    let e = g.events("p1");
    assert!(e.contains(&"line 2: Not done: Healer is at its highest level, 10.".into()), "{e:?}");
    assert!(e.contains(&"line 3: Not done: Ann does not know Master Tactician.".into()), "{e:?}");
    assert!(e.contains(&"line 4: Not done: Ann knows Healer already.".into()), "{e:?}");
    assert_eq!(g.general("Ann").unwrap().renown, 500);
}

#[test]
fn an_invincible_warrior_names_his_champion_unit() {
    // generals-rules.txt 114: "The player controlling the general specifies a unit".
    let mut g = play(a_row());
    g.orders("p1", "GENERAL \"Ann\": CHAMPION T2\nGENERAL \"Ann\": CHAMPION T5").run();
    assert_eq!(g.general("Ann").unwrap().champion.as_deref(), Some("T2"));
    assert!(g.said("p1", "line 3: Not done: T5 is not yours."), "{:?}", g.events("p1"));
}
