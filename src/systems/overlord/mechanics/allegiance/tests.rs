//! OATH and GIVE of whole units on a tiny world: Ford [L1] with Heath [L2] north of
//! it; fa's leader U1 (holding Ford's sheriff title) and its men, fb's leader U2.

use crate::systems::overlord::data::TitleHolding;
use crate::systems::overlord::testkit::{Game, Tiny};
use crate::systems::overlord::world::components::{LandOwner, Owner};

/// fb holds fa `fb_stance` (`None`: its default, neutral). U1 (fa, a leader) holds
/// Ford's title; U3 (fa, 10 men) stands in Ford, U4 (fa, 5 men) is stacked under
/// U1; U2 (fb, a leader) is in `bob_at`. Money is on: upkeep is due.
fn ford(fb_stance: Option<&str>, bob_at: &str) -> Tiny {
    Tiny::new()
        .faction("fa")
        .with_faction(|f| {
            f.funds.insert("coin".into(), 10_000);
        })
        .faction("fb")
        .with_faction(|f| {
            f.funds.insert("coin".into(), 10_000);
            if let Some(s) = fb_stance {
                f.stances.insert("fa".into(), s.into());
            }
        })
        .location("L1", "city")
        .with_location(|l| l.titles = vec![TitleHolding { title: "shrf".into(), holder: Some("U1".into()) }])
        .location("L2", "plai")
        .exit("L1", "N", "L2")
        .exit("L2", "S", "L1")
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(&[("cmbt", 3000)])
        .unit("U2", "fb", "ldr", 1, bob_at)
        .unit("U3", "fa", "man", 10, "L1")
        .unit("U4", "fa", "man", 5, "L1")
        .under("U1")
}

fn faction_of(g: &Game, unit: &str) -> String {
    let f = g.get::<Owner>(unit).0;
    g.engine.world().get::<crate::systems::overlord::world::components::Id>(f).unwrap().0.clone()
}

fn funds(g: &Game, f: &str) -> u64 {
    crate::systems::overlord::testkit::funds(&g.engine, f, "coin")
}

#[test]
fn an_oath_takes_effect_at_the_month_end_after_the_old_faction_paid_the_upkeep_ord_oath_mon_alleg() {
    // ORD-OATH, MON-ALLEG, CASH-FULL: Men swear to Bob's faction on day 1 and go on
    // with their orders for the month under fa, which pays their upkeep; at the
    // month's end they serve fb, their orders gone (they WORK: UNIT-XFER). fa reads
    // their month and where they went; fb is told they joined.
    let mut g = ford(Some("friend"), "L1").build();
    g.orders("fa", "UNIT U3\nOATH U2\n@WORK\n");
    g.days(1);
    assert_eq!(faction_of(&g, "U3"), "fa", "the unit stays until the month's end");
    assert!(g.said("U3", "U3 [U3] swore allegiance to fb [fb] before U2 [U2]"), "{:?}", g.events("U3"));
    assert!(g.said("U2", "U3 [U3] swore allegiance to your faction"), "{:?}", g.events("U2"));
    g.run();
    assert_eq!(faction_of(&g, "U3"), "fb");
    assert!(crate::systems::overlord::testkit::orders(&g.engine, "U3").is_empty());
    assert!(g.events("U3").is_empty(), "the new faction gets the unit, not its month");
    assert!(g.said("fa", "U3 [U3] now serves fb [fb]."), "{:?}", g.events("fa"));
    // RPT-XFER: fa's report still shows the unit in full, its month to the last.
    let fa = g.engine.reports().iter().find(|r| r.faction.id == "fa").unwrap().clone();
    let gone = fa.departed.iter().find(|d| d.id == "U3").expect("U3 among the units that left fa");
    let said = |t: &str| gone.events.iter().any(|e| e.text.contains(t));
    assert!(said("U3 [U3] swore allegiance") && said("Paid 100 coins [coin] of upkeep"), "{:?}", gone.events);
    assert_eq!(gone.events.last().unwrap().text, "Now serves fb [fb].");
    let text = g.report_text("fa");
    assert!(text.contains("\nUnits that left the faction this month:\nU3 [U3], last at "), "{text}");
    let fb = g.engine.reports().iter().find(|r| r.faction.id == "fb").unwrap();
    assert!(fb.departed.is_empty() && fb.units.iter().any(|u| u.id == "U3" && u.events.is_empty()));
    assert!(g.said("fb", "U3 [U3] joined the faction from fa [fa]."), "{:?}", g.events("fb"));

    // The same month without the oath: fa pays the same upkeep, fb the same.
    let mut plain = ford(Some("friend"), "L1").build();
    plain.orders("fa", "UNIT U3\n@WORK\n");
    plain.run();
    assert_eq!(funds(&g, "fa"), funds(&plain, "fa"), "fa paid the sworn unit's upkeep");
    assert_eq!(funds(&g, "fb"), funds(&plain, "fb"), "fb paid nothing for it");
    assert_eq!(faction_of(&plain, "U3"), "fa");
}

#[test]
fn an_oath_waits_to_meet_its_unit_and_needs_a_faction_that_takes_gifts_unit_xfer_dip_friendly() {
    // Bob starts in Heath and walks south; the oath waits until he is in Ford.
    let mut g = ford(Some("friend"), "L2").build();
    g.orders("fa", "UNIT U3\nOATH U2\n");
    g.orders("fb", "UNIT U2\nMOVE S\n");
    g.days(1);
    assert!(!g.said("U3", "swore allegiance"), "Bob is not here yet");
    g.run();
    assert_eq!(faction_of(&g, "U2"), "fb");
    assert_eq!(faction_of(&g, "U3"), "fb", "sworn once Bob arrived: {:?}", g.events("fa"));
    // Neutral fb (its default) takes no gifts from fa, and so no units.
    let mut g = ford(None, "L1").build();
    g.orders("fa", "UNIT U3\nOATH U2\n");
    g.run();
    assert_eq!(faction_of(&g, "U3"), "fa");
    assert!(g.said("U3", "OATH U2: removed from the orders: U2 [U2]'s faction accepts no units from this one's."));
    // A unit of one's own faction: nothing to swear.
    let mut g = ford(Some("friend"), "L1").build();
    g.orders("fa", "UNIT U3\nOATH U1\n");
    g.days(1);
    assert!(g.said("U3", "OATH U1: removed from the orders: U1 [U1] is of the same faction."), "{:?}", g.events("U3"));
}

#[test]
fn a_leader_gives_itself_or_a_unit_of_its_stack_unit_xfer_ord_give() {
    // GIVE receiver unit: Ann hands over Guards, stacked under her; Men are not in
    // her stack and cannot be given by her.
    let mut g = ford(Some("friend"), "L1").build();
    g.orders("fa", "UNIT U1\nGIVE U2 U4\nGIVE U2 U3\n");
    g.run();
    assert_eq!(faction_of(&g, "U4"), "fb");
    assert_eq!(faction_of(&g, "U3"), "fa");
    assert!(
        g.said(
            "U1",
            "GIVE U2 U3: removed from the orders: U3 is neither this unit nor a unit of its faction stacked under it."
        ),
        "{:?}",
        g.events("U1")
    );
    // Giving itself, with its title: Ford is fb's at the month's end (the land is
    // reckoned after allegiance).
    let mut g = ford(Some("friend"), "L1").build();
    g.orders("fa", "UNIT U1\nGIVE U2 U1\n");
    g.run();
    assert_eq!(faction_of(&g, "U1"), "fb");
    assert_eq!(faction_of(&g, "U4"), "fa", "its stack stays as it was: Guards are still fa's");
    let owner = g.get::<LandOwner>("L1").0.as_ref().map(|(f, _)| *f);
    assert_eq!(owner, Some(g.entity("fb")), "the title went with its holder");
}

#[test]
fn give_reads_a_unit_id_as_a_whole_unit_and_an_item_tag_as_items() {
    let g = ford(Some("friend"), "L1").build();
    let parsed = g.engine.parse("GAME fa fa\nUNIT U1\nGIVE U2 U4\nGIVE U2 coin 5\nGIVE U2 4\n");
    let Ok(file) = parsed else { panic!("GIVE U2 U4 and GIVE U2 coin 5 parse") };
    let text = format!("{file:?}");
    assert!(text.contains("GiveUnit"), "{text}");
    assert!(text.contains("Give {"), "{text}");
    assert!(text.contains("'4' is not an item"), "a bare number is neither a unit nor an item: {text}");
}
