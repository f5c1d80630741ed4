//! Recruit Troops (generals-rules.txt 46-47, 108, 120; rulings 12, 13).

use crate::systems::generals::fixture::{a_row, general, play};

#[test]
fn recruits_cost_a_gold_a_point_within_the_hire_limit() {
    // generals-rules.txt 47: "a total point value equal to or less than the limit …
    // one gold … for every point"; ruling 12: points per man (archers: 2).
    let mut g = play(a_row());
    g.orders("p1", "GENERAL \"Ann\": RECRUIT 25 archers").run();
    let new = g.troop("T6").expect("a new unit, numbered after the highest");
    assert_eq!((new.kind.as_str(), new.men, new.region.as_str(), new.player.as_str()), ("arch", 25, "R1", "p1"));
    assert_eq!(g.player("p1").treasury, 500 + 30 - 50);
    assert!(
        g.said("p1", "line 2: Ann recruited 25 archers as T6 in Region R1 [R1] for 50 gold."),
        "{:?}",
        g.events("p1")
    );
}

#[test]
fn recruiting_beyond_the_hire_limit_or_the_gold_hires_nothing() {
    // Ruling 13: "Recruiting beyond the hire limit fails whole".
    let mut s = a_row();
    s.generals.push(general("Cid", "p1", "R1"));
    s.players[0].treasury = 0;
    let mut g = play(s);
    // 26 archers are 52 points, over 50.
    g.orders("p1", "GENERAL \"Ann\": RECRUIT 26 archers\nGENERAL \"Cid\": RECRUIT 31 militia").run();
    let e = g.events("p1");
    assert!(
        e.iter().any(|x| x.starts_with(
            "line 2: Not done: 26 archers are worth 52 points, over what Region R1 [R1] may still hire this turn (50)"
        )),
        "{e:?}"
    );
    assert!(e.contains(&"line 3: Not done: 31 militia cost 31 gold and the treasury holds 30.".into()), "{e:?}");
    assert_eq!(g.state().troops.len(), 4);
}

#[test]
fn generals_recruiting_in_one_region_share_its_hire_limit() {
    let mut s = a_row();
    s.generals.push(general("Cid", "p1", "R1"));
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": RECRUIT 30 militia\nGENERAL \"Cid\": RECRUIT 30 militia").run();
    assert!(
        g.said(
            "p1",
            "line 3: Not done: 30 militia are worth 30 points, over what Region R1 [R1] may still hire this turn (20)."
        ),
        "{:?}",
        g.events("p1")
    );
    assert_eq!(g.state().troops.len(), 5);
}

#[test]
fn only_types_offered_in_a_region_the_player_holds_are_hired() {
    let mut s = a_row();
    s.generals[0].region = "R6".into();
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": RECRUIT 5 militia\nGENERAL \"Bob\": RECRUIT 5 cavalry").run();
    assert!(g.said("p1", "line 2: Not done: Region R6 [R6] is not yours: no one there hires for you."));
    g.orders("p2", "GENERAL \"Bob\": RECRUIT 5 cavalry").run();
    assert!(g.said("p2", "line 2: Not done: Region R5 [R5] offers no cavalry for hire."), "{:?}", g.events("p2"));
}

#[test]
fn a_rabble_rouser_brings_extra_men_and_a_necromancer_free_undead() {
    // generals-rules.txt 108: "the general gains some undead units for free";
    // 120: "some extra men flock to his banner".
    let r = crate::systems::generals::fixture::rules();
    let per = |tag: &str| match r.skills.iter().find(|s| s.tag == tag).unwrap().effect {
        crate::systems::generals::data::SkillEffect::Rabble(v)
        | crate::systems::generals::data::SkillEffect::Undead(v) => v,
        _ => unreachable!(),
    };
    let mut s = a_row();
    s.generals[0].skills = [("rabb".to_string(), 4), ("necr".to_string(), 3)].into();
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": RECRUIT 40 militia").run();
    let hired = g.troop("T6").unwrap();
    assert_eq!(hired.men, 40 + 40 * 4 * per("rabb") / 100);
    let undead = g.troop("T7").unwrap();
    assert_eq!((undead.kind.as_str(), undead.men), ("skel", 3 * per("necr")));
    assert_eq!(g.player("p1").treasury, 500 + 30 - 40, "extra men and undead are free");
}
