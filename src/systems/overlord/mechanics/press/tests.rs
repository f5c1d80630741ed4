//! Rewards for articles and notices, over a whole month.

use crate::core::engine::Inbox;
use crate::core::orders::mail::ArticleKind;
use crate::systems::overlord::testkit::{engine_without_money, funds, scenario, texts};

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
    assert_eq!((funds(&e, "fa", "coin"), funds(&e, "fb", "coin"), funds(&e, "fc", "coin")), (550, 30, 7));
    assert!(
        texts(&e, "fa")
            .contains(&"Newspaper: your signed article earned 50 coins [coin] for the faction funds.".into())
    );
    assert!(texts(&e, "fb").contains(&"Newspaper: your rumour earned 30 coins [coin] for the faction funds.".into()));
    assert_eq!(texts(&e, "fc"), ["Your report for turn 0 was sent again on request."]);
    // The inbox is for one turn only.
    e.run_turn(|_, _| {});
    assert_eq!((funds(&e, "fa", "coin"), funds(&e, "fb", "coin")), (550, 30));
}
