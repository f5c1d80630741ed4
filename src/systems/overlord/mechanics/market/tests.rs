//! BUY and SELL on tiny worlds: Ford [L1], a city whose market sells swords and buys
//! food, clearing on days 15 and 30 (the bundled rules' market days).

use crate::systems::overlord::data::{Market, MarketOffer};
use crate::systems::overlord::testkit::{Game, Tiny};
use crate::systems::overlord::world::components::{Livelihood, Market as Goods};

/// Ford sells 10 swords at 200 and buys 100 food at 8; fa's Ann holds `coins` coins,
/// Bob 50 food; fb's Cid 500 coins. Money (wages, upkeep) left out.
fn ford(coins: u32) -> Tiny {
    Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "city")
        .with_location(|l| {
            l.market = Market {
                sells: vec![MarketOffer::new("swrd", 10, 200)],
                buys: vec![MarketOffer::new("food", 100, 8)],
                days: vec![],
            }
        })
        .location("L2", "plai")
        .exit("L1", "N", "L2")
        .exit("L2", "S", "L1")
        .unit("U1", "fa", "ldr", 1, "L1")
        .items(&[("coin", coins)])
        .unit("U2", "fa", "ldr", 1, "L1")
        .items(&[("food", 50)])
        .unit("U3", "fb", "ldr", 1, "L1")
        .items(&[("coin", 500)])
        .without_money()
        // Only the market's spread in the pool: no taxes come in.
        .with_rules(|r| r.economy.land.tax_per_hundred = 0)
}

fn goods(g: &Game) -> Goods {
    g.get::<Goods>("L1").clone()
}

fn pool(g: &Game) -> u64 {
    g.get::<Livelihood>("L1").tax_pool
}

#[test]
fn trades_wait_for_the_market_day_and_each_side_keeps_its_own_price_mkt_days_mkt_pay() {
    // MKT-DAYS: nothing before day 15. MKT-CLEAR with the place's own offers
    // (RULINGS 7): Ann bids 210 for 3 swords the place asks 200 for; she pays her own
    // 210, the spread of 3 × 10 goes to the tax pool. Bob sells 50 food at the place's
    // price (no price given: the listed 8).
    let mut g = ford(1000).build();
    g.orders("fa", "UNIT U1\nBUY 3 swrd 210\nUNIT U2\nSELL 50 food\n");
    g.days(14);
    assert_eq!((g.count("U1", "swrd"), g.count("U2", "food")), (0, 50));
    g.days(1);
    assert_eq!((g.count("U1", "swrd"), g.count("U1", "coin")), (3, 1000 - 630));
    assert_eq!((g.count("U2", "food"), g.count("U2", "coin")), (0, 400));
    assert_eq!(pool(&g), 30);
    assert_eq!((goods(&g).sells[0].traded, goods(&g).buys[0].traded), (3, 50));
    assert!(g.said("U1", "Bought 3 swords [swrd] for 630 coins [coin] (market price 200)."), "{:?}", g.events("U1"));
    assert!(g.said("U2", "Sold 50 food [food] for 400 coins [coin] (market price 8)."), "{:?}", g.events("U2"));
    // Both orders are done.
    assert!(crate::systems::overlord::testkit::orders(&g.engine, "U1").is_empty());
    assert!(crate::systems::overlord::testkit::orders(&g.engine, "U2").is_empty());
}

#[test]
fn units_trade_with_each_other_at_the_lowest_price_that_trades_most_mkt_clear() {
    // No iron offer of the place: Bob (fa) asks 30 for 10 iron, Cid (fb) bids 40 for
    // 12. Every price from 30 to 40 trades 10; the lowest is 30. Cid pays 40 each,
    // Bob gets 30 each, 100 to the pool; Cid's order keeps 2 to buy.
    let mut g = Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "city")
        .unit("U2", "fa", "ldr", 1, "L1")
        .items(&[("iron", 10)])
        .unit("U3", "fb", "ldr", 1, "L1")
        .items(&[("coin", 500)])
        .without_money()
        .with_rules(|r| r.economy.land.tax_per_hundred = 0)
        .build();
    let g = &mut g;
    g.orders("fb", "UNIT U3\n@BUY 12 iron 40\n");
    g.orders("fa", "UNIT U2\nSELL 10 iron 30\n");
    g.days(15);
    assert_eq!((g.count("U3", "iron"), g.count("U3", "coin")), (10, 100));
    assert_eq!(g.count("U2", "coin"), 300);
    assert_eq!(pool(g), 100);
    assert_eq!(crate::systems::overlord::testkit::orders(&g.engine, "U3"), ["@BUY 2 iron 40"]);
}

#[test]
fn a_partial_fill_reduces_the_order_and_a_bought_out_offer_grows_dearer_ord_buy_mkt_drift() {
    // The place sells 10 swords; Ann wants 14 at 200: 10 on day 15, the order left
    // for 4, which day 30 cannot serve (the month's 10 are gone). At month end the
    // bought-out offer costs 10% more (220) and renews; next month her bid of 200
    // is below it and buys nothing.
    let mut g = ford(5000).build();
    g.orders("fa", "UNIT U1\nBUY 14 swrd 200\n");
    g.days(15);
    assert_eq!(g.count("U1", "swrd"), 10);
    assert_eq!(crate::systems::overlord::testkit::orders(&g.engine, "U1"), ["BUY 4 swrd 200"]);
    g.days(15);
    assert_eq!(g.count("U1", "swrd"), 10);
    let s = goods(&g).sells[0];
    assert_eq!((s.price, s.traded), (220, 0));
    // The place's food offer saw no trade: slow demand, it pays 10% more (8 → 9).
    assert_eq!(goods(&g).buys[0].price, 9);
    g.run();
    assert_eq!(g.count("U1", "swrd"), 10);
    assert!(g.said("U1", "Traded nothing at the market (buying 4 swords [swrd] at 200): no one sold at that price."));
}

#[test]
fn zero_buys_as_many_as_the_coins_allow_and_a_seller_must_stay_all_day() {
    // ORD-BUY `0`: 650 coins buy 3 swords at 200; the order then leaves. Bob offers
    // his food and walks away the same day: he sells nothing and keeps his order.
    let mut g = ford(650).build();
    g.orders("fa", "UNIT U1\nBUY 0 swrd\nUNIT U2\nD15 SELL 50 food\nD15 MOVE N\n");
    g.days(15);
    assert_eq!((g.count("U1", "swrd"), g.count("U1", "coin")), (3, 50));
    assert!(crate::systems::overlord::testkit::orders(&g.engine, "U1").is_empty());
    assert_eq!(g.count("U2", "food"), 50);
    assert!(g.said("U2", "Left before the market closed: selling 50 food [food] at 8."), "{:?}", g.events("U2"));
}

#[test]
fn the_owner_bars_a_faction_it_holds_hostile_mkt_stance() {
    // MKT-STANCE, rulings 11: fb owns Ford's land and holds fa Hostile: Ann cannot buy;
    // Cid (fb) can. A Neutral owner would not bar her (the next world).
    let mut g = ford(1000)
        .with_faction(|f| {
            f.stances.insert("fa".into(), "hostile".into());
        })
        .advertising()
        .build();
    {
        let l1 = g.entity("L1");
        let fb = g.entity("fb");
        g.engine.world_mut().get_mut::<crate::systems::overlord::world::components::LandOwner>(l1).unwrap().0 =
            Some((fb, None));
    }
    g.orders("fa", "UNIT U1\nBUY 2 swrd\n");
    g.orders("fb", "UNIT U3\nBUY 2 swrd\n");
    g.days(15);
    assert_eq!((g.count("U1", "swrd"), g.count("U3", "swrd")), (0, 2));
    assert!(
        g.said("U1", "Could not trade at the market: fb [fb], who owns the land, bars this unit's faction."),
        "{:?}",
        g.events("U1")
    );
    // The order stays for a later market day.
    assert_eq!(crate::systems::overlord::testkit::orders(&g.engine, "U1"), ["BUY 2 swrd"]);

    let mut g = ford(1000).build();
    g.orders("fa", "UNIT U1\nBUY 2 swrd\n");
    g.days(15);
    assert_eq!(g.count("U1", "swrd"), 2);
}

#[test]
fn orders_that_cannot_trade_say_why_ord_buy_ord_sell() {
    // Coins are not goods; a BUY without a price where the place sells none of the
    // item; a SELL of food Ann does not hold waits (and says nothing).
    let mut g = ford(1000).build();
    g.orders("fa", "UNIT U1\nBUY 2 coin 1\nBUY 2 iron\nSELL 5 food 9\n");
    g.days(15);
    let ev = g.events("U1");
    assert!(ev.iter().any(|e| e.contains("coins [coin] cannot be bought or sold on markets")), "{ev:?}");
    assert!(ev.iter().any(|e| e.contains("give a price: this market sells no iron [iron]")), "{ev:?}");
    assert_eq!(crate::systems::overlord::testkit::orders(&g.engine, "U1"), ["SELL 5 food 9"]);
}

#[test]
fn many_markets_give_the_same_result_on_every_run() {
    // Determinism: two runs of the same month give the same state.
    let run = || {
        let mut g = ford(1000).build();
        g.orders("fa", "UNIT U1\n@BUY 0 swrd 230\nUNIT U2\n@SELL 0 food 7\n");
        g.orders("fb", "UNIT U3\n@BUY 0 swrd 240\n");
        g.run();
        crate::core::data::to_ron(&g.state(), 4).unwrap()
    };
    assert_eq!(run(), run());
}

#[test]
fn the_places_quantities_follow_its_people_mkt_drift() {
    // MKT-DRIFT "with population" (economy.ron market_population_percent 100): a plain
    // of 2000 people, four times its optimum of 500, loses 20% of its 1000 past the
    // famine line (200%) at month end (POP-FAMINE; random drift and plague off):
    // 1800 people, 10% fewer, so it sells 36 swords a month instead of 40 and buys
    // 90 food instead of 100.
    let mut g = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .with_location(|l| {
            l.population = 2000;
            l.market = Market {
                sells: vec![MarketOffer::new("swrd", 40, 200)],
                buys: vec![MarketOffer::new("food", 100, 8)],
                days: vec![],
            }
        })
        .with_rules(|r| {
            r.economy.population.drift_percent = 0;
            r.economy.population.plague_outbreak_permille = 0;
        })
        .without_money()
        .build();
    g.run();
    assert_eq!(g.get::<crate::systems::overlord::world::components::Population>("L1").0, 1800);
    assert_eq!((goods(&g).sells[0].quantity, goods(&g).buys[0].quantity), (36, 90));
    // With the share at 0 the data's quantities stay.
    let mut g = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .with_location(|l| {
            l.population = 2000;
            l.market.sells = vec![MarketOffer::new("swrd", 40, 200)];
        })
        .with_rules(|r| r.economy.market_population_percent = 0)
        .without_money()
        .build();
    g.run();
    assert_eq!(goods(&g).sells[0].quantity, 40);
}

#[test]
fn a_standing_bid_trades_on_every_market_day_month_after_month_ord_buy() {
    // Ann's @BUY 0 swrd 300 takes the place's 10 swords on day 15 and Cid's one
    // (@D30 SELL 1 swrd 100) on day 30. Cid's order, filled, leaves; Ann's stays,
    // sleeping between market days, and the next month takes the place's renewed
    // stock on day 15 (11: Ford's new people, MKT-DRIFT) and tries again on day 30.
    let mut g = ford(10000).items(&[("swrd", 2)]).build();
    g.orders("fa", "UNIT U1\n@BUY 0 swrd 300\n");
    g.orders("fb", "UNIT U3\n@D30 SELL 1 swrd 100\n");
    g.run();
    assert_eq!((g.count("U1", "swrd"), g.count("U3", "swrd")), (11, 1), "{:?}", g.events("U1"));
    assert!(crate::systems::overlord::testkit::orders(&g.engine, "U3").is_empty());
    g.run();
    assert_eq!(g.count("U1", "swrd"), 22, "{:?}", g.events("U1"));
    assert_eq!(
        g.events("U1"),
        [
            "15: Bought 11 swords [swrd] for 3300 coins [coin] (market price 220).",
            "30: Traded nothing at the market (buying as many as possible swords [swrd] at 300): no one sold at that price."
        ]
    );
}
