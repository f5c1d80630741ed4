//! Travel and Move Army (generals-rules.txt 37-41; ruling 1).

use crate::systems::generals::fixture::{a_row, general, play};

#[test]
fn a_general_travels_alone_through_his_players_regions() {
    // generals-rules.txt 37-38: "any region in the player's kingdom as long as there
    // is a direct path through adjacent regions controlled by that player".
    let mut g = play(a_row());
    g.orders("p1", "GENERAL \"Ann\": TRAVEL R3").run();
    assert_eq!(g.general("Ann").unwrap().region, "R3");
    assert_eq!(g.troop("T1").unwrap().region, "R1", "alone");
    assert!(g.said("p1", "line 2: Ann travelled to Region R2 [R2], then Region R3 [R3]."), "{:?}", g.events("p1"));
    g.orders("p1", "GENERAL \"Ann\": TRAVEL R5").run();
    assert!(
        g.said("p1", "line 2: Not done: no way from Region R3 [R3] to Region R5 [R5] through your own regions."),
        "{:?}",
        g.events("p1")
    );
}

#[test]
fn an_army_moves_up_to_two_regions_through_its_players_regions() {
    // generals-rules.txt 40-41: "up to two spaces away … controlled by that player".
    let mut g = play(a_row());
    g.orders("p1", "GENERAL \"Ann\": MOVE T1 TO R3 VIA R2").run();
    assert_eq!((g.troop("T1").unwrap().region.as_str(), g.general("Ann").unwrap().region.as_str()), ("R3", "R3"));
    let mut s = a_row();
    s.troops.push(crate::systems::generals::fixture::troop("T4", "p1", "R4"));
    s.regions[4].adjacent.push("R6".into());
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": MOVE T1 TO R4").run();
    assert!(
        g.said(
            "p1",
            "line 2: Not done: MOVE goes at most 2 regions through your own: Region R4 [R4] cannot be reached."
        ),
        "{:?}",
        g.events("p1")
    );
    g.orders("p1", "GENERAL \"Ann\": MOVE T1 TO R6 VIA R2").run();
    assert!(g.said("p1", "Not done: Region R6 [R6] is not next to Region R2 [R2]."), "{:?}", g.events("p1"));
    g.orders("p1", "GENERAL \"Ann\": MOVE T2 TO R2").run();
    assert!(g.said("p1", "Not done: T2 is in Region R2 [R2], not Region R1 [R1]."), "{:?}", g.events("p1"));
}

#[test]
fn who_holds_a_path_is_read_before_anyone_moves() {
    // Ruling 1: "a path's ownership is read before anyone moves": Cid leaves R2
    // empty, and Ann still passes through it this turn.
    let mut s = a_row();
    s.generals.push(general("Cid", "p1", "R2"));
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Cid\": MOVE T2 TO R1\nGENERAL \"Ann\": TRAVEL R3").run();
    assert_eq!(g.general("Ann").unwrap().region, "R3");
    assert_eq!(g.troop("T2").unwrap().region, "R1");
    // R2 is empty now: the next turn it is no way.
    g.orders("p1", "GENERAL \"Ann\": TRAVEL R1").run();
    assert!(g.said("p1", "Not done: no way from Region R3 [R3] to Region R1 [R1]"), "{:?}", g.events("p1"));
}
