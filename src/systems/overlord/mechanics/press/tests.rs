//! Rewards for articles and notices, over a whole month.

use crate::core::engine::Inbox;
use crate::core::orders::mail::ArticleKind;
use crate::systems::overlord::testkit::{engine_without_money, scenario};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Events, Funds};
use crate::systems::overlord::world::resources::{Directory, Kind};

const WORLD: &str = r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 0),
  factions: [
    (id: "fa", name: "Alphans", password: "pa", default_stance: "neutral", funds: {"coin": 500}),
    (id: "fb", name: "Betans", password: "pb", default_stance: "neutral"),
    (id: "fc", name: "Gammans", password: "pc", default_stance: "neutral", funds: {"coin": 7}),
  ],
  locations: [(id: "L1", name: "Ford", terrain: "city", population: 1000)],
  structures: [],
  units: [
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1"),
    (id: "U2", name: "Bob", faction: "fb", race: "ldr", figures: 1, location: "L1"),
    (id: "U3", name: "Cid", faction: "fc", race: "ldr", figures: 1, location: "L1"),
  ],
)"#;

fn funds(e: &crate::core::engine::Engine<crate::systems::overlord::Overlord>, faction: &str) -> u64 {
    let f = e.world().resource::<Directory>().get(Kind::Faction, faction).unwrap();
    let coin = e.world().resource::<Catalog>().item("coin").unwrap();
    e.world().get::<Funds>(f).unwrap().0.iter().find(|x| x.0 == coin).map_or(0, |x| x.1)
}

fn events(e: &crate::core::engine::Engine<crate::systems::overlord::Overlord>, faction: &str) -> Vec<String> {
    let f = e.world().resource::<Directory>().get(Kind::Faction, faction).unwrap();
    e.world().get::<Events>(f).unwrap().0.iter().map(|v| v.text.clone()).collect()
}

#[test]
fn rewards_do_not_add_up_prs_reward() {
    // PRS-REWARD: signed $50, rumour $30, never more than $50 a turn. fa wrote two
    // signed articles and a rumour: 50. fb two rumours: 30. fc nothing.
    let mut e = engine_without_money(scenario(WORLD));
    let a = |f: &str, k| (f.to_string(), k);
    e.deliver(Inbox {
        articles: vec![
            a("fa", ArticleKind::Rumor),
            a("fa", ArticleKind::Press),
            a("fb", ArticleKind::Rumor),
            a("fa", ArticleKind::Press),
            a("fb", ArticleKind::Rumor),
        ],
        notices: vec![("fc".into(), "Your report for turn 0 was sent again on request.".into())],
    });
    e.run_turn(|_, _| {});
    assert_eq!((funds(&e, "fa"), funds(&e, "fb"), funds(&e, "fc")), (550, 30, 7));
    assert!(
        events(&e, "fa")
            .contains(&"Newspaper: your signed article earned 50 coins [coin] for the faction funds.".into())
    );
    assert!(events(&e, "fb").contains(&"Newspaper: your rumour earned 30 coins [coin] for the faction funds.".into()));
    assert_eq!(events(&e, "fc"), ["Your report for turn 0 was sent again on request."]);
    // The inbox is for one turn only.
    e.run_turn(|_, _| {});
    assert_eq!((funds(&e, "fa"), funds(&e, "fb")), (550, 30));
}
