//! Victory points and the end of the game (generals-rules.txt 7, 148; ruling 14).

use crate::systems::generals::fixture::{a_row, play};

#[test]
fn players_score_the_regions_they_hold_each_turn() {
    let mut s = a_row();
    s.game.victory.regions.insert("R1".into(), 3);
    s.game.victory.regions.insert("R5".into(), 2);
    s.game.victory.regions.insert("R6".into(), 9);
    let mut g = play(s);
    g.run().run();
    assert_eq!((g.player("p1").points, g.player("p2").points), (6, 4));
    let standings = &g.report("p2").standings;
    assert_eq!((standings[0].id.as_str(), standings[0].victory_points), ("p1", 6));
}

#[test]
fn the_game_ends_after_its_last_turn_with_points_for_gold() {
    let mut s = a_row();
    s.game.victory.last_turn = 2;
    s.game.victory.per_100_gold = 1;
    let mut g = play(s);
    g.run();
    assert!(!g.state().game.ended && !g.report("p1").ended);
    g.run();
    let state = g.state();
    assert!(state.game.ended && g.report("p1").ended);
    // 500 + 2 × 30 = 560 gold: 5 points; p2: 520: 5 points.
    assert_eq!((g.player("p1").points, g.player("p2").points), (5, 5));
    g.run();
    assert_eq!(g.player("p1").points, 5, "nothing more once over");
}

#[test]
fn the_game_ends_when_a_player_reaches_the_points() {
    let mut s = a_row();
    s.game.victory.regions.insert("R1".into(), 10);
    s.game.victory.points = 25;
    let mut g = play(s);
    g.run().run();
    assert!(!g.state().game.ended);
    g.run();
    assert!(g.state().game.ended);
    assert_eq!(g.player("p1").points, 30);
}
