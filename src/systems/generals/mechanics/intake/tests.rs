//! The turn's orders read (ruling 1, 2; generals-rules.txt 15-16, 56).

use super::player_order;
use crate::systems::generals::fixture::{a_row, play, player};

#[test]
fn players_act_in_an_order_drawn_from_the_seed_each_turn() {
    // Ruling 1: "players act in an order drawn from the game's seed each turn".
    let mut s = a_row();
    for i in 3..=8 {
        s.players.push(player(&format!("p{i}")));
    }
    let mut g = play(s.clone());
    let mut orders = Vec::new();
    for _ in 0..4 {
        g.run();
        let w = g.engine.world();
        let o = w.resource::<crate::systems::generals::mechanics::turn::TurnOrders>().players.clone();
        let mut sorted = o.clone();
        sorted.sort();
        let mut all = w.resource::<crate::systems::generals::world::Directory>().players.clone();
        all.sort();
        assert_eq!(sorted, all, "a permutation of the players");
        orders.push(o);
    }
    assert!(orders.windows(2).any(|w| w[0] != w[1]), "the order changes from turn to turn");
    // The same game gives the same orders.
    let mut again = play(s);
    again.run();
    assert_eq!(player_order(again.engine.world()), orders[0], "drawn again from the seed and the turn");
    let first =
        again.engine.world().resource::<crate::systems::generals::mechanics::turn::TurnOrders>().players.clone();
    assert_eq!(first, orders[0]);
}

#[test]
fn one_action_per_general_and_names_that_do_not_resolve_are_refused_by_line() {
    let mut g = play(a_row());
    g.orders(
        "p1",
        "GENERAL \"Ann\": PREPARE\nGENERAL \"Ann\": REST\nGENERAL \"Bob\": REST\nMOVE\nGENERAL \"Ann\": MOVE T9 TO R2",
    )
    .run();
    let e = g.events("p1");
    assert!(
        e.contains(&"line 3: Not done: Ann has an action already (line 2): one action per general.".into()),
        "{e:?}"
    );
    assert!(e.contains(&"line 4: Not done: you have no general 'Bob'.".into()), "{e:?}");
    assert!(e.iter().any(|x| x.starts_with("line 5: Not done: 'MOVE' is not an order")), "{e:?}");
    assert!(
        e.contains(&"line 6: Not done: Ann has an action already (line 2): one action per general.".into()),
        "{e:?}"
    );
    assert_eq!(g.region("R1").prepared_by.as_deref(), Some("Ann"), "the first action stands");
}

#[test]
fn a_general_trained_last_turn_may_only_move() {
    // generals-rules.txt 56: "he cannot take any actions except to move until the next turn".
    let mut s = a_row();
    s.generals[0].new = true;
    let mut g = play(s.clone());
    g.orders("p1", "GENERAL \"Ann\": PREPARE").run();
    assert!(g.said("p1", "line 2: Not done: Ann was trained last turn: he may only move."), "{:?}", g.events("p1"));
    assert!(!g.general("Ann").unwrap().new, "the turn after, he may act");
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": MOVE T1 TO R2").run();
    assert_eq!(g.troop("T1").unwrap().region, "R2");
}

#[test]
fn a_game_that_is_over_takes_no_orders() {
    let mut s = a_row();
    s.game.ended = true;
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": MOVE T1 TO R2").run();
    assert_eq!(g.troop("T1").unwrap().region, "R1");
    assert!(g.said("p1", "The game is over"));
}
