//! RECRUIT over a month on a tiny world: Ford [L1] offers 20 men at 50 coins.

use crate::systems::overlord::data::RecruitOffer;
use crate::systems::overlord::testkit::{
    Game, Tiny, count, engine_without_money, events, figures, orders, run_month, scenario, unit,
};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{At, Figures, LandOwner, Offer, Population, Recruits, StackLeader};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_ecs::prelude::*;

fn world(units: &str) -> String {
    format!(
        r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 5),
  factions: [
    (id: "fa", name: "Alphans", password: "pa", default_stance: "neutral", funds: {{"coin": 5000}}),
    (id: "fb", name: "Betans", password: "pb", default_stance: "neutral"),
  ],
  locations: [(id: "L1", name: "Ford", terrain: "city", population: 1000,
               recruits: [(race: "man", count: 20, price: 50)])],
  structures: [],
  units: [{units}],
)"#
    )
}

const TWO: &str = r#"
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("coin", 1000, 0)]),
    (id: "U2", name: "Bob", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("coin", 120, 0)]),"#;

#[test]
fn recruits_join_at_day_end_under_their_leader_and_take_their_orders_ord_recruit() {
    // ORD-RECRUIT, REC-PRICE, FILE-NEWID-LIFE: 5 men at 50 join at the end of day 1 as
    // U3, right after Ann, stacked under her. Their block's NAME runs on day 2, and
    // Ann's GIVE to fanU01 names U3 from then on.
    // Days 1 to 29: the month's end renews the offer and moves the population.
    let mut e = engine_without_money(scenario(&world(TWO)));
    let file =
        e.parse("GAME fa pa\nUNIT U1\nRECRUIT fanU01 5 man 50\nGIVE fanU01 coin 10\nUNIT fanU01\nNAME \"Pikes\"\n");
    e.submit(vec![file.unwrap()]);
    e.run_ticks(29);
    let u3 = unit(&e, "U3");
    assert_eq!(e.world().get::<Figures>(u3).unwrap().0, 5);
    assert_eq!(e.world().get::<StackLeader>(u3).unwrap().0, Some(unit(&e, "U1")));
    let order: Vec<Entity> = e.world().resource::<Directory>().units().to_vec();
    assert_eq!(order, [unit(&e, "U1"), u3, unit(&e, "U2")], "right after its leader");
    assert_eq!(count(&e, "U1", "coin"), 1000 - 250 - 10);
    assert_eq!(count(&e, "U3", "coin"), 10);
    let saved = e.state().locations.into_iter().find(|l| l.id == "L1").unwrap().recruits[0].clone();
    assert_eq!((saved.count, saved.hired), (15, 5));
    let l1 = e.world().resource::<Directory>().get(Kind::Location, "L1").unwrap();
    assert_eq!(e.world().get::<Population>(l1).unwrap().0, 995);
    assert!(
        events(&e, "U1")
            .contains(&"1: Recruited 5 followers [man] as 5 followers [U3] (fanU01) for 250 coins [coin].".to_string()),
        "{:?}",
        events(&e, "U1")
    );
    // Ann acts before U3 on day 2: the GIVE precedes the NAME.
    assert!(
        events(&e, "U1").contains(&"2: Gave 10 coins [coin] to 5 followers [U3].".to_string()),
        "{:?}",
        events(&e, "U1")
    );
    assert_eq!(
        events(&e, "U3"),
        [
            "1: Joined the faction, stacked under Ann [U1].",
            "2: Received 10 coins [coin] from Ann [U1].",
            "2: Is now called Pikes."
        ]
    );
    // The new unit and its name are saved with the state.
    let saved = e.state();
    let s3 = saved.units.iter().find(|u| u.id == "U3").unwrap();
    assert_eq!((s3.name.as_str(), s3.stack_leader.as_deref(), s3.figures), ("Pikes", Some("U1"), 5));
}

/// Ford [L1], a city of 1000 offering 20 men at 50, with fa's Ann (1000 coins) and
/// Bob (120 coins) and fb's Cid (1000 coins); money left out.
fn ford() -> Tiny {
    Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "city")
        .with_location(|l| {
            l.population = 1000;
            l.recruits = vec![RecruitOffer { race: "man".into(), count: 20, price: 50, hired: 0 }];
        })
        .unit("U1", "fa", "ldr", 1, "L1")
        .items(&[("coin", 1000)])
        .unit("U2", "fa", "ldr", 1, "L1")
        .items(&[("coin", 120)])
        .unit("U3", "fb", "ldr", 1, "L1")
        .items(&[("coin", 1000)])
        .without_money()
}

fn on_offer(g: &Game) -> Offer {
    g.get::<Recruits>("L1").0[0]
}

#[test]
fn more_asked_than_offered_follows_the_market_rule_and_the_price_rises_rec_over() {
    // REC-OVER: 23 men asked for on day 1, 20 offered. Cid's 60 is served first (3),
    // then the 50s in the order asked: Ann (U1, first in report order) gets the 17
    // left of her 20, Bob (number 0: his coins buy 2) nothing. Each pays his own
    // price. The offer's price then rises a step (10%: 55) and at least to the lowest
    // price served (50).
    let mut g = ford().build();
    g.orders("fa", "UNIT U1\nRECRUIT fanU01 20 man 50\nUNIT U2\nRECRUIT fanU02 0 man 0\n");
    g.orders("fb", "UNIT U3\nRECRUIT fbnU01 3 man 60\n");
    g.days(1);
    assert_eq!(figures(&g.engine, "U4"), 17, "Ann's recruits");
    assert_eq!(figures(&g.engine, "U5"), 3, "Cid's recruits");
    assert_eq!((g.count("U1", "coin"), g.count("U2", "coin"), g.count("U3", "coin")), (1000 - 850, 120, 1000 - 180));
    assert_eq!((on_offer(&g).count, on_offer(&g).hired, on_offer(&g).price), (0, 20, 55));
    assert!(g.said("U2", "Could not recruit (fanU02): the day's recruits went to higher offers."));
    // Bob's order stays, for a later month.
    assert_eq!(orders(&g.engine, "U2"), ["RECRUIT fanU02 0 man 0"]);
    assert!(orders(&g.engine, "U1").is_empty());
}

#[test]
fn offers_renew_from_the_population_and_prices_drift_rec_offer_rec_drift() {
    // REC-OFFER: 1000 people offer 1000 / 150 (man's recruit_fraction) = 6 men next
    // month. REC-DRIFT: nobody hired this month: the price drops 10% (50 → 45), and
    // month after month down to its floor, 80% of man's cost of 55 = 44.
    let mut g = ford().build();
    g.run();
    assert_eq!((on_offer(&g).count, on_offer(&g).price), (6, 45));
    g.run();
    assert_eq!(on_offer(&g).price, 44);
    g.run();
    assert_eq!(on_offer(&g).price, 44);
    // Bought out: the price rises a step.
    let mut g = ford().build();
    g.orders("fa", "UNIT U1\nRECRUIT fanU01 20 man 50\n");
    g.run();
    assert_eq!((on_offer(&g).count, on_offer(&g).price), (6, 55));
    // POP-RECRUIT: the recruits left the population (before its month-end drift, the
    // offer counted 980 people: still 6 men).
    assert!(g.get::<Population>("L1").0 < 1000);
}

#[test]
fn every_populated_place_comes_to_offer_men_and_big_ones_leaders_rec_offer() {
    // REC-OFFER: economy.ron offered_everywhere (men, leaders). From the first month
    // end, Dale [L2] (3075 people, ±2%: 3013..3136) offers 3075 / 150 = 20 men at
    // man's recruit_cost 55 and 3075 / 2000 = 1 leader at 400; Moor [L3] (140 people)
    // is too thin for one man; Ford keeps its own offer and gains none (1000 people
    // give no leader).
    let mut g = ford()
        .location("L2", "city")
        .with_location(|l| l.population = 3075)
        .location("L3", "plai")
        .with_location(|l| l.population = 140)
        .unit("U9", "fa", "ldr", 1, "L2")
        .items(&[("coin", 1000)])
        .build();
    assert!(g.get::<Recruits>("L2").0.is_empty());
    g.run();
    let dale: Vec<(String, u32, u32)> = g
        .get::<Recruits>("L2")
        .0
        .iter()
        .map(|o| (g.engine.world().resource::<Catalog>().rules.races[o.race.index()].tag.to_string(), o.count, o.price))
        .collect();
    assert_eq!(dale, [("man".to_string(), 20, 55), ("ldr".to_string(), 1, 400)]);
    assert!(g.get::<Recruits>("L3").0.is_empty());
    assert_eq!(g.get::<Recruits>("L1").0.len(), 1);
    // They are hired like any other offer.
    g.orders("fa", "UNIT U9\nRECRUIT fanU01 1 ldr 400\n");
    g.days(1);
    assert_eq!(g.count("U9", "coin"), 600);
    assert_eq!(g.get::<Recruits>("L2").0[1].count, 0);
}

#[test]
fn a_price_below_the_offer_or_a_race_not_offered_waits_rec_price() {
    let mut g = ford().build();
    g.orders("fa", "UNIT U1\nRECRUIT fanU01 5 man 40\nRECRUIT fanU02 5 elve 100\n");
    g.days(29);
    assert_eq!(on_offer(&g).count, 20);
    assert_eq!(g.count("U1", "coin"), 1000);
    assert!(g.engine.world().resource::<Directory>().get(Kind::Unit, "U4").is_none());
}

#[test]
fn nobody_recruits_in_a_castle_or_where_the_land_is_barred_rec_castle_rec_stance() {
    // REC-CASTLE: Ann stands in a castle. REC-STANCE: fb owns the land and holds fa
    // Hostile, so Bob is refused; fb's own Cid recruits.
    let mut g = ford()
        .with_faction(|f| {
            f.stances.insert("fa".into(), "hostile".into());
        })
        .structure("B1", "cast", "L1")
        .with_unit(|u| u.name = "Cid".into())
        .advertising()
        .build();
    {
        let (l1, fb) = (g.entity("L1"), g.entity("fb"));
        g.engine.world_mut().get_mut::<LandOwner>(l1).unwrap().0 = Some((fb, None));
        let (u1, b1) = (g.entity("U1"), g.entity("B1"));
        {
            let w = g.engine.world_mut();
            let a = *w.get::<At>(u1).unwrap();
            w.entity_mut(u1).insert(At { structure: Some(b1), ..a });
        }
    }
    g.orders("fa", "UNIT U1\nRECRUIT fanU01 2 man 0\nUNIT U2\nRECRUIT fanU02 2 man 0\n");
    g.orders("fb", "UNIT U3\nRECRUIT fbnU01 2 man 0\n");
    g.days(1);
    assert!(g.said("U1", "nobody can be recruited in a castle [cast]"), "{:?}", g.events("U1"));
    assert!(
        g.said("U2", "Could not recruit (fanU02): fb [fb], who owns the land, bars this unit's faction."),
        "{:?}",
        g.events("U2")
    );
    assert_eq!(on_offer(&g).count, 18, "only Cid's 2");
}

#[test]
fn a_new_id_must_be_the_factions_own_file_newid() {
    let mut e = engine_without_money(scenario(&world(TWO)));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nRECRUIT fbnU01 5 man 50\n"]);
    assert!(
        events(&e, "U1").iter().any(|x| x.contains("recruits form a new unit, named fanU00 to fanU99, not fbnU01"))
    );
}

#[test]
fn a_faction_whose_id_begins_another_s_cannot_reach_its_new_units_file_newid() {
    // FILE-NEWID: f1 and f10. `f10nU01` is f10's new id, not f1's: f1 can neither
    // recruit under it nor give it orders, though "f10nU01" begins with "f1".
    let mut g = Tiny::new()
        .faction("f1")
        .faction("f10")
        .location("L1", "city")
        .with_location(|l| {
            l.population = 1000;
            l.recruits = vec![RecruitOffer { race: "man".into(), count: 20, price: 50, hired: 0 }];
        })
        .unit("U1", "f1", "ldr", 1, "L1")
        .items(&[("coin", 1000)])
        .unit("U2", "f10", "ldr", 1, "L1")
        .items(&[("coin", 1000)])
        .without_money()
        .build();
    g.orders("f1", "UNIT U1\nRECRUIT f10nU02 5 man 50\nUNIT f10nU01\nNAME \"Turncoats\"\nGIVE U1 coin 100\n");
    g.orders("f10", "UNIT U2\nRECRUIT f10nU01 3 man 50\nGIVE f10nU01 coin 100\n");
    g.run();
    assert!(g.said("f1", "orders for f10nU01 ignored"), "{:?}", events(&g.engine, "f1"));
    assert!(g.said("U1", "recruits form a new unit, named f1nU00 to f1nU99, not f10nU02"));
    assert_eq!(figures(&g.engine, "U3"), 3, "f10's recruits");
    assert_eq!(g.get::<crate::systems::overlord::world::components::DisplayName>("U3").0, "3 followers");
    assert_eq!((g.count("U1", "coin"), g.count("U3", "coin")), (1000, 100), "nothing handed to f1");
}
