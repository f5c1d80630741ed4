//! PILLAGE on L1, plains of 1,000 people (a significant force: 20 figures) owned by
//! fa, whose U1 holds its Sheriff's title; the pillagers are fb's.

use crate::systems::overlord::data::{ItemHolding, Market, MarketOffer, Ownership, TitleHolding};
use crate::systems::overlord::mechanics::combat::Battles;
use crate::systems::overlord::testkit::{Game, Tiny, funds};
use crate::systems::overlord::world::components::{Livelihood, Titles};

/// 1st combat: 30 days of study.
const CMBT: (&str, u32) = ("cmbt", 3000);

/// L1 owned by fa; fb's U2: `men` men, `swords` of them armed, with 1st combat.
fn world(people: u32, men: u32, swords: u32) -> Tiny {
    Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "plai")
        .with_location(|l| {
            l.population = people;
            l.titles = vec![TitleHolding { title: "shrf".into(), holder: Some("U1".into()) }];
            l.owner = Some(Ownership { faction: "fa".into(), title_location: Some("L1".into()) });
            l.market = Market { sells: vec![MarketOffer::new("swrd", 100, 200)], buys: vec![], days: vec![] };
            l.recruits = vec![crate::systems::overlord::data::RecruitOffer {
                race: "man".into(),
                count: 40,
                price: 50,
                hired: 0,
            }];
        })
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(&[CMBT])
        .unit("U2", "fb", "man", men, "L1")
        .skills(&[CMBT])
        .with_unit(|u| u.items.push(ItemHolding("swrd".into(), swords, swords)))
        .without_money()
}

fn pool(g: &Game) -> u64 {
    g.get::<Livelihood>("L1").tax_pool
}

#[test]
fn a_pillager_takes_the_stored_taxes_each_day_and_harms_the_place_ord_pillage_own_pillage_harm() {
    // ORD-PILLAGE: 1,000 people pay 2,000 a month, 66 or 67 a day; the pillagers
    // take the day's taxes every day: the month's 2,000, and the owner collects
    // nothing. The owner is told. OWN-PILLAGE-HARM: a quarter of the market's
    // quantity left goes each day (100 → 75 on day 1), and of the recruits (40 →
    // 30); the optimum drops 10 points
    // a day down to -50, then recovers 2 at month end.
    let mut g = world(1000, 30, 30).build();
    g.orders("fb", "UNIT U2\n@PILLAGE\n");
    g.days(1);
    assert_eq!(g.count("U2", "coin"), 66);
    assert_eq!(g.get::<crate::systems::overlord::world::components::Market>("L1").sells[0].left(), 75);
    assert_eq!(g.get::<crate::systems::overlord::world::components::Recruits>("L1").0[0].count, 30);
    assert_eq!(g.get::<Livelihood>("L1").optimum_shift, -10);
    let before = funds(&g.engine, "fa", "coin");
    g.days(29);
    assert_eq!(g.count("U2", "coin"), 2000);
    assert_eq!(funds(&g.engine, "fa", "coin"), before);
    assert_eq!(pool(&g), 0);
    assert_eq!(g.get::<Livelihood>("L1").optimum_shift, -48);
    assert!(g.events("fa").iter().any(|t| t.ends_with("L1 [L1] was pillaged.")), "{:?}", g.events("fa"));
    assert!(
        g.events("U2").iter().any(|t| t.contains("Pillaged L1 [L1]: took 66 coins [coin].")),
        "{:?}",
        g.events("U2")
    );
}

#[test]
fn too_few_or_unarmed_figures_pillage_nothing_and_wait_own_pillage_min_own_force() {
    // OWN-PILLAGE-MIN (20 figures in alpha), OWN-FORCE (2,000 people: 40), armed:
    // otherwise the order waits and says why once; the taxes stay.
    for (people, men, swords, why) in [
        (1000, 19, 19, "19 figures are too few to pillage here: 20 are needed"),
        (2000, 30, 30, "30 figures are too few to pillage here: 40 are needed"),
        (1000, 30, 0, "pillaging needs figures able to do combat damage"),
    ] {
        let mut g = world(people, men, swords).with_location(|l| l.owner = None).build();
        g.orders("fb", "UNIT U2\n@PILLAGE\n");
        g.days(3);
        assert_eq!(g.count("U2", "coin"), 0, "{men} men");
        assert!(pool(&g) > 0);
        let said: Vec<String> = g.events("U2").into_iter().filter(|t| t.contains(why)).collect();
        assert_eq!(said.len(), 1, "{:?}", g.events("U2"));
    }
}

#[test]
fn pillaging_needs_first_combat_ord_pillage() {
    let mut g = world(1000, 30, 30).with_unit(|u| u.skills.clear()).build();
    g.orders("fb", "UNIT U2\n@PILLAGE\n");
    g.days(1);
    assert_eq!(g.count("U2", "coin"), 0);
    assert!(g.events("U2").iter().any(|t| t.contains("pillaging needs level 1 in cmbt")), "{:?}", g.events("U2"));
    assert!(crate::systems::overlord::testkit::orders(&g.engine, "U2").is_empty());
}

#[test]
fn guards_attack_pillagers_they_do_not_hold_allied_grd_pillage() {
    // GRD-PILLAGE: fa's U1 on guard attacks fb's pillagers: a battle, and nothing
    // taken that day. An ally's pillage is let be.
    let mut g = world(1000, 30, 30).advertising().build();
    g.orders("fa", "UNIT U1\n@GUARD\n");
    g.orders("fb", "UNIT U2\n@PILLAGE\n");
    g.days(1);
    assert_eq!(g.count("U2", "coin"), 0);
    let battles = &g.engine.world().resource::<Battles>().0;
    assert_eq!(battles.len(), 1);
    assert_eq!(battles[0].cause, "pillage");
    assert!(battles[0].sides[0].units.iter().any(|u| u.id == "U1"), "the guard attacks");

    let mut g = world(1000, 30, 30).advertising().build();
    g.orders("fa", "UNIT U1\n@GUARD\nSTANCE fb ally\n");
    g.orders("fb", "UNIT U2\n@PILLAGE\n");
    g.days(1);
    assert_eq!(g.count("U2", "coin"), 66);
    assert!(g.engine.world().resource::<Battles>().0.is_empty());
}

#[test]
fn an_owner_pillaging_its_own_land_harms_it_twice_and_may_rise_against_it_own_self_pillage() {
    // OWN-SELF-PILLAGE: the optimum drops 20 points a day; at month end an uprising
    // (uprising_percent) takes fa's covering title. At 100% it always does, at 0%
    // never.
    for (chance, kept) in [(100, false), (0, true)] {
        let mut g = world(1000, 30, 30)
            .with_unit(|u| u.faction = "fa".into())
            .with_rules(|r| r.economy.land.pillage.uprising_percent = chance)
            .build();
        g.orders("fa", "UNIT U2\n@PILLAGE\n");
        g.days(1);
        assert_eq!(g.get::<Livelihood>("L1").optimum_shift, -20);
        g.days(29);
        assert_eq!(g.get::<Titles>("L1").0[0].1.is_some(), kept, "uprising at {chance}%");
        if !kept {
            assert!(g.events("U1").iter().any(|t| t.contains("rise against their pillaging lord")));
        }
    }
}

#[test]
fn factions_there_see_the_place_pillaged_others_do_not_rpt_events() {
    // RPT-EVENTS: fc's scout stands in L1 and sees it pillaged each day; fd, away
    // in L2, is told nothing; the owner fa is told once a day, not twice.
    let mut g = world(1000, 30, 30)
        .faction("fc")
        .faction("fd")
        .location("L2", "plai")
        .unit("U3", "fc", "ldr", 1, "L1")
        .unit("U4", "fd", "ldr", 1, "L2")
        .build();
    g.orders("fb", "UNIT U2\n@PILLAGE\n");
    g.days(2);
    let seen = |f: &str| g.events(f).iter().filter(|t| t.ends_with("L1 [L1] was pillaged.")).count();
    assert_eq!(seen("fc"), 2, "{:?}", g.events("fc"));
    assert_eq!(seen("fa"), 2, "{:?}", g.events("fa"));
    assert_eq!(seen("fb"), 2, "the pillagers' faction sees it too");
    assert_eq!(seen("fd"), 0, "{:?}", g.events("fd"));
}
