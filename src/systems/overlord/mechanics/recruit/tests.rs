//! RECRUIT over a month on a tiny world: Ford [L1] offers 20 men at 50 coins.

use crate::systems::overlord::Overlord;

use crate::core::engine::Engine;
use crate::systems::overlord::testkit::{count, engine_without_money, events, run_month, scenario, unit};
use crate::systems::overlord::world::components::{Figures, Orders, Population, StackLeader};
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

fn offer(e: &Engine<Overlord>) -> u32 {
    e.state().locations.into_iter().find(|l| l.id == "L1").unwrap().recruits[0].count
}

const TWO: &str = r#"
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("coin", 1000, 0)]),
    (id: "U2", name: "Bob", faction: "fa", race: "ldr", figures: 1, location: "L1", items: [("coin", 120, 0)]),"#;

#[test]
fn recruits_join_at_day_end_under_their_leader_and_take_their_orders_ord_recruit() {
    // ORD-RECRUIT, REC-PRICE, FILE-NEWID-LIFE: 5 men at 50 join at the end of day 1 as
    // U3, right after Ann, stacked under her. Their block's NAME runs on day 2, and
    // Ann's GIVE to fanU01 names U3 from then on.
    let mut e = engine_without_money(scenario(&world(TWO)));
    run_month(
        &mut e,
        &["GAME fa pa\nUNIT U1\nRECRUIT fanU01 5 man 50\nGIVE fanU01 coin 10\nUNIT fanU01\nNAME \"Pikes\"\n"],
    );
    let u3 = unit(&e, "U3");
    assert_eq!(e.world().get::<Figures>(u3).unwrap().0, 5);
    assert_eq!(e.world().get::<StackLeader>(u3).unwrap().0, Some(unit(&e, "U1")));
    let order: Vec<Entity> = e.world().resource::<Directory>().units.clone();
    assert_eq!(order, [unit(&e, "U1"), u3, unit(&e, "U2")], "right after its leader");
    assert_eq!(count(&e, "U1", "coin"), 1000 - 250 - 10);
    assert_eq!(count(&e, "U3", "coin"), 10);
    assert_eq!(offer(&e), 15);
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

#[test]
fn number_zero_takes_what_the_supply_and_cash_allow_and_the_supply_runs_out_rec_price() {
    // Bob's 120 coins buy 2 men (number 0). Ann then asks for 20 but only 18 are
    // left this month. A third order finds no supply; its new id is never created,
    // so the order goes with it at the end of the month (FILE-NEWID-LIFE).
    let mut e = engine_without_money(scenario(&world(TWO)));
    run_month(
        &mut e,
        &["GAME fa pa\nUNIT U2\nRECRUIT fanU01 0 man 0\nUNIT U1\nRECRUIT fanU02 20 man 50\nRECRUIT fanU03 1 man 60\n"],
    );
    // Report order puts Ann first: she is served first.
    assert_eq!(e.world().get::<Figures>(unit(&e, "U3")).unwrap().0, 20);
    assert_eq!(offer(&e), 0);
    assert_eq!(count(&e, "U2", "coin"), 120, "nothing was left for Bob");
    assert!(e.world().get::<Orders>(unit(&e, "U1")).unwrap().0.is_empty());
    assert!(events(&e, "U1").iter().any(|x| x.contains("1 order naming fanU03 removed")), "{:?}", events(&e, "U1"));
}

#[test]
fn a_price_below_the_offer_or_a_race_not_offered_waits_rec_price() {
    let mut e = engine_without_money(scenario(&world(TWO)));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nRECRUIT fanU01 5 man 40\nRECRUIT fanU02 5 elve 100\n"]);
    assert_eq!(offer(&e), 20);
    assert_eq!(count(&e, "U1", "coin"), 1000);
    assert!(e.world().resource::<Directory>().get(Kind::Unit, "U3").is_none());
}

#[test]
fn a_new_id_must_be_the_factions_own_file_newid() {
    let mut e = engine_without_money(scenario(&world(TWO)));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\nRECRUIT fbnU01 5 man 50\n"]);
    assert!(
        events(&e, "U1").iter().any(|x| x.contains("recruits form a new unit, named fanU00 to fanU99, not fbnU01"))
    );
}
