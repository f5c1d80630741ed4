//! Whole turns of the alpha world with living places (§13, §15, §16, §17): markets
//! clear, offers renew, reports show what a place offers.

use overlord::core::engine::Threads;
use overlord::core::game::{GameDir, ReportKind};
use overlord::systems::overlord::Overlord;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn alpha(dir: &Path) -> GameDir {
    GameDir::create::<Overlord>(&root().join("scenarios/alpha"), None, dir).unwrap();
    GameDir::open(dir).unwrap()
}

fn anarnium(g: &GameDir, turn: u32) -> overlord::systems::overlord::data::Location {
    let s = g.state::<Overlord>(turn).unwrap();
    s.locations.into_iter().find(|l| l.id == "L18").unwrap()
}

#[test]
fn factions_buy_arms_and_sell_horses_in_anarnium_and_its_recruits_come_back() {
    // Anarnium [L18] sells 20 swords at 200 and buys 10 horses at 100 (alpha data).
    // f02's leader, with coins from its men, hires the city's 30 men on day 1 and buys
    // 5 swords at the listed price;
    // f05's hero sells its horse. Day 15 clears the market (MKT-DAYS). The place's
    // offers renew at month end: the sword price rises only when bought out, so it
    // drifts down (slow trade: 200 → 180); the recruit pool comes back from the
    // population (REC-OFFER), and comes back again after a second month.
    let t = tempfile::tempdir().unwrap();
    let g = alpha(&t.path().join("game"));
    g.submit::<Overlord>(
        "GAME f02 pswd2\nUNIT U218\nRECRUIT f02nU01 30 man 0\nBUY 5 swrd\nUNIT U234\nGIVE U218 coin 2000\n",
    )
    .unwrap();
    g.submit::<Overlord>("GAME f05 pswd5\nUNIT U500\nSELL 1 hrse\n").unwrap();
    g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    let f02 = fs::read_to_string(g.report_path(1, "f02", ReportKind::Text)).unwrap();
    assert!(f02.contains("Day 15 - Bought 5 swords [swrd] for 1000 coins [coin] (market price 200)."), "{f02}");
    assert!(f02.contains("Recruited 30 followers [man]"), "{f02}");
    let f05 = fs::read_to_string(g.report_path(1, "f05", ReportKind::Text)).unwrap();
    assert!(f05.contains("Day 15 - Sold 1 horse [hrse] for 100 coins [coin] (market price 100)."), "{f05}");
    // The report lists the coming month's offers (a place's own line).
    assert!(f02.contains("  For sale: 20 swords [swrd] at 180,"), "{f02}");
    assert!(f02.contains("  Market days: 15th, 30th."), "{f02}");
    let l = anarnium(&g, 1);
    let pool =
        |l: &overlord::systems::overlord::data::Location| l.recruits.iter().find(|o| o.race == "man").unwrap().count;
    // 30 hired out of the population; the pool is back: the population / 150.
    assert_eq!(pool(&l), l.population / 150);
    assert!(pool(&l) > 0);
    // Bought out (REC-DRIFT): the price rose a step, 50 → 55.
    assert_eq!(l.recruits.iter().find(|o| o.race == "man").unwrap().price, 55);
    assert_eq!(
        l.market.sells.iter().find(|o| o.item == "swrd").map(|o| (o.quantity, o.price, o.traded)),
        Some((20, 180, 0))
    );
    g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    let l2 = anarnium(&g, 2);
    assert_eq!(pool(&l2), l2.population / 150);
}

#[test]
fn a_month_of_markets_is_the_same_on_one_thread_and_many() {
    let run = |threads: Threads| {
        let t = tempfile::tempdir().unwrap();
        let g = alpha(&t.path().join("game"));
        g.submit::<Overlord>("GAME f02 pswd2\nUNIT U218\n@BUY 0 swrd 210\nUNIT U268\n@SELL 0 swrd 150\n").unwrap();
        g.submit::<Overlord>("GAME f05 pswd5\nUNIT U502\n@BUY 0 swrd 230\n").unwrap();
        g.run::<Overlord>(threads, |_, _| {}).unwrap();
        (
            fs::read_to_string(g.turn_dir(1).join("state/locations.ron")).unwrap(),
            fs::read_to_string(g.turn_dir(1).join("state/units.ron")).unwrap(),
            fs::read_to_string(g.report_path(1, "f02", ReportKind::Json)).unwrap(),
        )
    };
    assert_eq!(run(Threads::One), run(Threads::Count(4)));
}

#[test]
fn farmers_harvest_three_months_running_and_the_bread_is_sold_in_anarnium() {
    // RES-NOCARRY, RES-LIST, MKT-DAYS, LOC-INNER. f05's Artisan [U507] leads its
    // Farmers [U509] (30 men, 1st farming: a batch of 30 figure-days gives 1 grain)
    // and Bakers [U510] out of Anarnium into Ethorad Plains [L62], whose land gives 43
    // grain a month. The weather there is rain, rain, then sun: +10% to agriculture,
    // which farming derives from (CLI-WX). Month 1 (day 1 on the road): 29 days of
    // 33 figure-days, 31 grain. Month 2: the bakers get 29 and bake (2nd level: 10
    // food a grain), the farmers keep 2 and harvest 33 more. Month 3: the artisan
    // goes back into the city with the bakers' food and sells it on day 15 at the
    // city's price, which rose a step a month while nobody sold food (8 → 9 → 10);
    // the farmers, unstacked, stay and harvest another 33. Each month the land is
    // back at 43: three months gave 97 grain from a stock of 43.
    let t = tempfile::tempdir().unwrap();
    let g = alpha(&t.path().join("game"));
    let grain = |turn: u32| {
        let s = g.state::<Overlord>(turn).unwrap();
        let l62 = s.locations.iter().find(|l| l.id == "L62").unwrap();
        l62.resources.iter().find(|r| r.item == "grai").map(|r| (r.current, r.max)).unwrap()
    };
    let held = |turn: u32, unit: &str, item: &str| {
        let s = g.state::<Overlord>(turn).unwrap();
        let u = s.units.iter().find(|u| u.id == unit).unwrap();
        u.items.iter().find(|i| i.0 == item).map_or(0, |i| i.1)
    };
    let turns = [
        "GAME f05 pswd5\nUNIT U507\nMOVE OUT\nUNIT U509\nSTACK U507\n@USE farm\nUNIT U510\nSTACK U507\n",
        "GAME f05 pswd5\nUNIT U509\nGIVE U510 grai 29\n@USE farm\nUNIT U510\n@USE bake\n",
        "GAME f05 pswd5\nUNIT U507\nMOVE IN\nSELL 0 food\nUNIT U509\nUNSTACK\n@USE farm\nUNIT U510\nGIVE U507 food\n",
    ];
    for (i, orders) in turns.iter().enumerate() {
        g.submit::<Overlord>(orders).unwrap();
        g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
        assert_eq!(grain(i as u32 + 1), (43, 43), "the land's grain is back after month {}", i + 1);
    }
    assert_eq!(held(1, "U509", "grai"), 31);
    assert_eq!((held(2, "U509", "grai"), held(2, "U510", "food")), (35, 290));
    assert_eq!((held(3, "U509", "grai"), held(3, "U507", "food")), (68, 0));
    let f05 = fs::read_to_string(g.report_path(3, "f05", ReportKind::Text)).unwrap();
    assert!(f05.contains("Day 1 - Set out from Ethorad Plains [L62] to Anarnium [L18], walking: 1 day."), "{f05}");
    assert!(f05.contains("Day 15 - Sold 290 food [food] for 2900 coins [coin] (market price 10)."), "{f05}");
    // The coming month's offer of the place: its land, and what it buys.
    assert!(f05.contains("Resources: 43 grain [grai]"), "{f05}");
}
