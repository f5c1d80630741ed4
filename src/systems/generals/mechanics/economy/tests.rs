//! Income, hire limits, overtax and recovery (generals-rules.txt 13, 58-60).

use crate::systems::generals::fixture::{a_row, play};

#[test]
fn income_and_hire_limit_recover_two_and_five_a_turn_up_to_their_originals() {
    // generals-rules.txt 60: "the income is increase by 2 until it is at its
    // original value, and the hire limit is increased by 5".
    let mut s = a_row();
    s.regions[0].income = (5, 10);
    s.regions[0].hire_limit = (38, 50);
    s.regions[1].income = (9, 10);
    let mut g = play(s);
    g.run();
    assert_eq!((g.region("R1").income, g.region("R1").hire_limit), ((7, 10), (43, 50)));
    assert_eq!(g.region("R2").income, (10, 10), "never above the original");
    g.run().run();
    assert_eq!((g.region("R1").income, g.region("R1").hire_limit), ((10, 10), (50, 50)));
}

#[test]
fn players_collect_the_income_of_the_regions_they_hold() {
    // generals-rules.txt 13: troops in a region give "the player money from that region".
    let mut s = a_row();
    s.regions[2].income = (4, 4);
    let mut g = play(s);
    g.run();
    // p1 holds R1, R2 (10 each) and R3 (4); p2 holds R5 (10); R4 and R6 pay nobody.
    assert_eq!(g.player("p1").treasury, 500 + 24);
    assert_eq!(g.player("p2").treasury, 510);
    assert_eq!(g.report("p1").player.income, 24);
}

#[test]
fn overtaxing_income_lowers_it_for_good_and_raises_the_hire_limit_this_turn_only() {
    // generals-rules.txt 58-60: "lower the income of a region by 1 to increase the
    // hire limit by 10 … The increase only lasts for the duration of the turn, but
    // the decrease lasts".
    let mut g = play(a_row());
    // 50 + 20 = 70 points this turn: 70 militia.
    g.orders("p1", "OVERTAX R1 INCOME 2\nGENERAL \"Ann\": RECRUIT 70 militia").run();
    assert!(
        g.said("p1", "line 2: Region R1 [R1] overtaxed: income 8 (−2), hire limit 70 this turn."),
        "{:?}",
        g.events("p1")
    );
    assert_eq!(g.state().troops.iter().filter(|t| t.region == "R1").map(|t| t.men).sum::<u32>(), 170);
    // Income paid this turn was 8; the hire limit at rest is unchanged.
    assert_eq!(g.player("p1").treasury, 500 + 8 + 10 + 10 - 70);
    assert_eq!((g.region("R1").income, g.region("R1").hire_limit), ((8, 10), (50, 50)));
    g.run();
    assert_eq!(g.region("R1").income, (10, 10), "recovered by 2");
}

#[test]
fn overtaxing_the_hire_limit_raises_income_this_turn_and_lowers_the_limit_for_good() {
    let mut g = play(a_row());
    g.orders("p1", "OVERTAX R1 HIRE 3").run();
    assert_eq!(g.player("p1").treasury, 500 + 13 + 10 + 10);
    assert_eq!((g.region("R1").income, g.region("R1").hire_limit), ((10, 10), (20, 50)));
    g.run();
    assert_eq!(g.player("p1").treasury, 533 + 30, "no increase kept");
    assert_eq!(g.region("R1").hire_limit, (25, 50), "recovers by 5");
}

#[test]
fn overtax_below_zero_or_in_a_region_not_held_is_refused() {
    // generals-rules.txt 60: "you can't lower the hire limit or income below 0".
    let mut g = play(a_row());
    g.orders(
        "p1",
        "OVERTAX R1 INCOME 11\nOVERTAX R1 HIRE 6\nOVERTAX R5 INCOME 1\nOVERTAX R1 INCOME 10\nOVERTAX R1 HIRE 15",
    )
    .run();
    let e = g.events("p1");
    assert!(e.contains(&"line 2: Not done: Region R1 [R1]'s income is 10: it cannot go below 0.".into()), "{e:?}");
    assert!(e.contains(&"line 3: Not done: Region R1 [R1]'s hire limit is 50: it cannot go below 0.".into()), "{e:?}");
    assert!(e.contains(&"line 4: Not done: Region R5 [R5] is not yours.".into()), "{e:?}");
    // Any number of times: income 10 → 0 gives +100 hire; then 150 hire → 0 gives +15 income.
    assert_eq!((g.region("R1").income, g.region("R1").hire_limit), ((0, 10), (0, 50)));
    assert_eq!(g.player("p1").treasury, 500 + 15 + 20);
}

#[test]
fn a_region_left_without_troops_pays_nothing() {
    // generals-rules.txt 13: "Taking troops out of a region makes the player lose
    // these benefits."
    let mut g = play(a_row());
    g.orders("p1", "GENERAL \"Ann\": MOVE T1 TO R2").run();
    assert_eq!(g.player("p1").treasury, 530, "R1 still held when the income was paid");
    g.run();
    assert_eq!(g.player("p1").treasury, 530 + 20, "R1 pays nothing now");
    assert!(g.report("p1").regions.iter().all(|r| r.id != "R1" || r.income.is_none()));
}
