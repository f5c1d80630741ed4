//! Population at month end on tiny worlds (§13). Each test turns off what it does
//! not look at, so that its numbers are exact.

use crate::systems::overlord::data::{Exit, MarketOffer, PopulationRules};
use crate::systems::overlord::testkit::{Game, Tiny};
use crate::systems::overlord::world::components::{Livelihood, Population, Wages};

/// Population rules with nothing moving but what `f` turns on.
fn still(f: impl FnOnce(&mut PopulationRules)) -> impl FnOnce(&mut crate::systems::overlord::data::RuleSet) {
    move |r| {
        let p = &mut r.economy.population;
        *p = PopulationRules { plague: p.plague.clone(), food: p.food.clone(), ..Default::default() };
        f(p);
    }
}

fn people(g: &Game, id: &str) -> u32 {
    g.get::<Population>(id).0
}

/// A walking exit of `days` days.
fn road(dir: &str, to: &str, days: u32) -> Exit {
    Exit { dir: dir.into(), to: to.into(), mode: Some("walk".into()), days: Some(days) }
}

#[test]
fn population_drifts_by_up_to_two_percent_either_way_pop_drift() {
    // POP-DRIFT over 300 places of 10,000: every change within ±200, the changes
    // spread over the whole range (a ±1% formula would fail) and average near 0 (a
    // one-sided formula would fail).
    let mut t = Tiny::new().with_rules(still(|p| p.drift_percent = 2));
    for i in 0..300 {
        t = t.location(&format!("L{i}"), "plai").with_location(|l| l.population = 10_000);
    }
    let mut g = t.build();
    g.run();
    let d: Vec<i64> = (0..300).map(|i| i64::from(people(&g, &format!("L{i}"))) - 10_000).collect();
    assert!(d.iter().all(|x| x.abs() <= 200), "{d:?}");
    assert!(d.iter().any(|&x| x > 150) && d.iter().any(|&x| x < -150), "{d:?}");
    let mean = d.iter().sum::<i64>() as f64 / d.len() as f64;
    assert!(mean.abs() < 25.0, "mean {mean}");
}

#[test]
fn people_move_toward_the_lower_ratio_in_inverse_proportion_to_travel_time_pop_migrate_pop_newtown() {
    // POP-MIGRATE: plains (optimum 500). L1 holds 1000; L2 (1 day away) and L3 (2
    // days) are empty. Evening L1 and L2 would move 500 people: 10% of it, over 1
    // day, is 50; to L3, over 2 days, 25. POP-NEWTOWN: L4, a city at 0 people
    // (optimum 5000), draws from L1 too: 1000 × 5000 / 5500 = 909, 10% = 90.
    let mut g = Tiny::new()
        .with_rules(still(|p| p.migration_percent = 10))
        .location("L1", "plai")
        .with_location(|l| {
            l.population = 1000;
            l.exits = vec![road("N", "L2", 1), road("S", "L3", 2), road("IN", "L4", 1)];
        })
        .location("L2", "plai")
        .with_location(|l| l.population = 0)
        .location("L3", "plai")
        .with_location(|l| l.population = 0)
        .location("L4", "city")
        .with_location(|l| l.population = 0)
        .build();
    g.run();
    assert_eq!((people(&g, "L2"), people(&g, "L3"), people(&g, "L4")), (50, 25, 90));
    assert_eq!(people(&g, "L1"), 1000 - 50 - 25 - 90);
}

#[test]
fn battles_lower_the_optimum_and_a_market_raises_it_pop_optima() {
    // POP-OPTIMA: a battle at L1 takes 10 points off its optimum; a month with market
    // trade adds 2 to L2's; each month the shift goes 2 points back toward 0.
    let mut g = Tiny::new()
        .with_rules(still(|p| {
            p.battle_optimum_percent = 10;
            p.market_optimum_percent = 2;
            p.optimum_recovery_percent = 2;
            p.optimum_shift_limit = 50;
        }))
        .faction("fa")
        .faction("fb")
        .location("L1", "plai")
        .location("L2", "city")
        .with_location(|l| l.market.sells = vec![MarketOffer::new("swrd", 5, 100)])
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(&[("cmbt", 3000)])
        .unit("U2", "fb", "ldr", 1, "L1")
        .unit("U3", "fa", "ldr", 1, "L2")
        .items(&[("coin", 500)])
        .without_money()
        .build();
    g.orders("fa", "UNIT U1\nATTACK U2\nUNIT U3\nBUY 1 swrd\n");
    g.run();
    assert_eq!(g.get::<Livelihood>("L1").optimum_shift, -10);
    assert_eq!(g.get::<Livelihood>("L2").optimum_shift, 2);
    g.run();
    assert_eq!(g.get::<Livelihood>("L1").optimum_shift, -8);
    assert_eq!(g.get::<Livelihood>("L2").optimum_shift, 0);
}

#[test]
fn overpopulation_starves_unless_food_is_sold_and_may_bring_the_plague_pop_famine() {
    // POP-FAMINE: a city (optimum 5000) of 12,000, famine above 200%: 20% of the
    // 2,000 beyond die (11,600). Where units sold 1,000 food on the market that month
    // the limit is 11,000: 200 die (11,800). The plague breaks out (chance 1000‰
    // here), waits out its 30 days of incubation, then kills 10% a month and spreads
    // to the neighbour (virality 50% of the data is a coin toss: the test's seed
    // decides, so only the place's own course is asserted).
    let rules = still(|p| {
        p.famine_percent = 200;
        p.famine_deaths_percent = 20;
        p.food_feeds = 1;
        p.plague_outbreak_permille = 1000;
    });
    let city = |t: Tiny, id: &str| t.location(id, "city").with_location(|l| l.population = 12_000);
    let mut g = city(city(Tiny::new().with_rules(rules).faction("fa"), "L1"), "L2")
        .with_location(|l| l.market.buys = vec![MarketOffer::new("food", 5000, 8)])
        .unit("U1", "fa", "ldr", 1, "L2")
        .items(&[("food", 1000)])
        .without_money()
        .build();
    g.orders("fa", "UNIT U1\nSELL 1000 food\n");
    g.run();
    assert_eq!((people(&g, "L1"), people(&g, "L2")), (11_600, 11_800));
    assert_eq!(g.get::<Livelihood>("L1").plague, Some(0));
    // The newspaper tells it, places in report order.
    let news = || super::headlines(g.engine.world());
    assert_eq!(
        news(),
        [
            "Famine in L1 [L1]: 400 people starved.",
            "The plague broke out in L1 [L1].",
            "Famine in L2 [L2]: 200 people starved.",
            "The plague broke out in L2 [L2]."
        ]
    );
    // Month 2: 30 days, not past the incubation; famine again: 11,600 → 11,280.
    g.run();
    assert_eq!(g.get::<Livelihood>("L1").plague, Some(30));
    assert_eq!(people(&g, "L1"), 11_280);
    // Month 3: famine (11,280 → 11,024), then the plague takes 10% (→ 9,922).
    g.run();
    assert_eq!(people(&g, "L1"), 9_922);
    let news = super::headlines(g.engine.world());
    assert!(news.contains(&"The plague killed 1102 people in L1 [L1].".to_string()), "{news:?}");
}

#[test]
fn wages_fall_where_people_crowd_and_rise_where_they_are_few_pop_econ() {
    // POP-ECON: a city (optimum 5000) paying 12. With 7,000 people (140% > 120%) the
    // wages fall 5% (at least 1): 11. With 100 people and a unit of 50 men (3% <
    // 80%): 13. Within 5..20.
    let w = |pop: u32| {
        let mut g = Tiny::new()
            .with_rules(still(|p| {
                p.wage_step_percent = 5;
                p.crowded_percent = 120;
                p.sparse_percent = 80;
                p.wage_min = 5;
                p.wage_max = 20;
            }))
            .faction("fa")
            .location("L1", "city")
            .with_location(|l| {
                l.population = pop;
                l.wages = 12;
            })
            .unit("U1", "fa", "man", 50, "L1")
            .without_money()
            .build();
        g.run();
        g.get::<Wages>("L1").0
    };
    assert_eq!(w(7000), 11);
    assert_eq!(w(100), 13);
    assert_eq!(w(5000), 12);
}

#[test]
fn wages_at_the_top_of_their_range_stay_there_pop_econ() {
    // POP-ECON: a rise from the largest wage keeps it, whatever a GM's data says.
    let rules = PopulationRules {
        wage_step_percent: 5,
        wage_min: 1,
        wage_max: u32::MAX,
        sparse_percent: 50,
        crowded_percent: 150,
        ..Default::default()
    };
    assert_eq!(super::wages(u32::MAX, 1, 1000, &rules), u32::MAX);
    assert_eq!(super::wages(u32::MAX - 1, 1, 1000, &rules), u32::MAX);
}
