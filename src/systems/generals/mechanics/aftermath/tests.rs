//! Renown and victory points of battles (generals-rules.txt 96; rulings 9, 14).

use crate::systems::generals::fixture::{a_row, play, troop};

/// Ann (renown 3) attacks Bob's 40 militia in R4 from R3 with 1000 heavy
/// infantry; Bob's side can retreat to R5.
fn scene() -> crate::systems::generals::data::Scenario {
    let mut s = a_row();
    s.generals[0].region = "R3".into();
    s.generals[0].renown = 3;
    s.generals[1].region = "R4".into();
    s.generals[1].renown = 2;
    s.generals[1].skills.insert("undy".into(), 10);
    let mut t4 = troop("T4", "p2", "R4");
    t4.men = 240;
    let mut t7 = troop("T7", "p1", "R3");
    t7.kind = "heav".into();
    t7.men = 1000;
    s.troops.extend([t4, t7]);
    s.game.victory.battle_won = 4;
    s.game.victory.general_killed = 7;
    s
}

#[test]
fn renown_comes_from_enemies_killed_and_goes_with_defeat() {
    // Ruling 9: +1 per 100 enemy men killed, −5 for losing (never below 0).
    let mut g = play(scene());
    g.orders("p1", "GENERAL \"Ann\": ATTACK R4 WITH T7 AS FIELD").run();
    let b = g.report("p1").battles[0].clone();
    assert_eq!(b.winner, "attacker");
    let killed: u32 = b.sides[1].units.iter().map(|u| u.lost).sum();
    let lost: u32 = b.sides[0].units.iter().map(|u| u.lost).sum();
    assert!(killed >= 100, "{b:?}");
    // Bob is Undying 10: he does not die (80% off a 50% × killed% chance leaves 10% at most).
    let bob_alive = g.general("Bob").is_some();
    assert_eq!(g.general("Ann").unwrap().renown, 3 + killed / 100 + if bob_alive { 0 } else { 10 });
    if let Some(bob) = g.general("Bob") {
        assert_eq!(bob.renown, (2 + lost / 100).saturating_sub(5));
    }
    assert_eq!(g.player("p1").points, 4 + if bob_alive { 0 } else { 7 }, "a battle won");
    assert_eq!(g.player("p2").points, 0);
    assert!(g.said("p1", "line 2: Battle of Region R4 [R4]: you attacked and won after"), "{:?}", g.events("p1"));
    assert!(g.said("p2", "Battle of Region R4 [R4]: you defended and lost"), "{:?}", g.events("p2"));
}

#[test]
fn killing_the_enemy_general_brings_renown_and_points() {
    // Ruling 9: +10 renown for killing an enemy general; ruling 14: points per general killed.
    let mut killed = 0;
    for seed in 0..40 {
        let mut s = scene();
        s.game.seed = seed;
        s.generals[1].skills.remove("undy");
        s.troops[4].men = 1;
        s.generals[1].skills.remove("heal");
        let mut g = play(s);
        g.orders("p1", "GENERAL \"Ann\": ATTACK R4 WITH T7 AS FIELD").run();
        if g.general("Bob").is_none() {
            killed += 1;
            assert_eq!(g.general("Ann").unwrap().renown, 3 + 10);
            assert_eq!(g.player("p1").points, 4 + 7);
            assert!(g.said("p1", "The enemy general Bob died."));
        } else {
            assert_eq!(g.general("Ann").unwrap().renown, 3);
            assert_eq!(g.player("p1").points, 4);
        }
    }
    assert!((10..=30).contains(&killed), "{killed} of 40");
}
