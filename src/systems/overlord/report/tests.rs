use crate::systems::overlord::report::{json, text};
use crate::systems::overlord::testkit::{TINY, engine_without_money, overlord_rules, scenario};

fn reports() -> Vec<crate::systems::overlord::report::FactionReport> {
    let mut e = engine_without_money(scenario(TINY));
    e.submit(vec![e.parse("GAME fa pa\nUNIT U2\nD10 DAY 15\n").unwrap()]);
    e.run_turn(|_, _| {});
    e.reports().to_vec()
}

#[test]
fn a_faction_sees_its_units_and_only_the_locations_they_are_in() {
    // RPT-UNIT, RPT-LOC, SET-ADVERTISE.
    let r = reports();
    assert_eq!(r.len(), 2);
    let fa = &r[0];
    assert_eq!((fa.game.as_str(), fa.turn, fa.month.as_str()), ("tiny", 1, "January"));
    assert_eq!(fa.faction.funds.get("coin"), Some(&500));
    // CP-UNIT, CP-BASE: a leader and ten men use one point each, of 200 and 5 more
    // for the sheriff's title Ann holds.
    assert_eq!(fa.faction.control, crate::systems::overlord::report::model::ControlRecord { used: 2, max: 205 });
    assert_eq!(fa.units.iter().map(|u| u.id.as_str()).collect::<Vec<_>>(), ["U1", "U2"]);
    let u1 = &fa.units[0];
    assert_eq!(u1.items["coin"].count, 100);
    // 3000 experience points = 30 days = the first level of combat.
    assert_eq!((u1.skills["cmbt"].days, u1.skills["cmbt"].level), (30, 1));
    assert_eq!(fa.units[1].stack_leader.as_deref(), Some("U1"));
    assert_eq!(fa.units[1].orders, ["D10 DAY 15"]);
    assert_eq!(fa.locations.iter().map(|l| l.id.as_str()).collect::<Vec<_>>(), ["L1"]);
    let seen = &fa.locations[0].units;
    assert_eq!(seen.iter().map(|u| u.id.as_str()).collect::<Vec<_>>(), ["U1", "U2", "U3"]);
    assert_eq!(seen[2].faction.as_deref(), Some("fb"), "U3 advertises its faction");
    assert!(!seen[2].own);
    // fb sees fa's units in L1, but not whose they are, except Ann, on guard, who
    // shows her faction and its stance (GRD-SHOW); and it sees L2, where fa is not.
    let fb = &r[1];
    let l1 = fb.locations.iter().find(|l| l.id == "L1").unwrap();
    assert_eq!((l1.units[0].faction.as_deref(), l1.units[0].guard_stance.as_deref()), (Some("fa"), Some("neutral")));
    assert_eq!(l1.units[1].faction, None);
    assert_eq!(fb.locations.len(), 2);
}

#[test]
fn no_report_names_another_factions_private_data() {
    let r = reports();
    let fb_json = json::render(&r[1]);
    let fb_text = text::render(&r[1], &crate::systems::overlord::world::Catalog::new(overlord_rules()));
    for secret in ["D10 DAY 15", "\"pa\"", "Alphans", "cmbt"] {
        assert!(!fb_json.contains(secret), "{secret} leaked into fb's JSON");
        assert!(!fb_text.contains(secret), "{secret} leaked into fb's text");
    }
    assert!(!json::render(&r[0]).contains("\"password\""), "passwords are never in JSON");
}

#[test]
fn text_report_follows_the_sample_layout() {
    let r = reports();
    let t = text::render(&r[0], &crate::systems::overlord::world::Catalog::new(overlord_rules()));
    assert!(t.starts_with("tiny Report for Turn 1 for Alphans [fa]\n"), "{t}");
    assert!(t.contains("Control points: 2 of 205.\n\nFaction funds:\n  500 coins [coin].\n"), "{t}");
    assert!(
        t.contains(
            "Ann [U1] at Ford [L1],\n  1 leader [ldr] has: 100 coins [coin].\n  Weight 70. Capacity 100.\n  \
             Skills: 1st combat [cmbt] (30).\n  Stats: att: 1, def: 1, life: 3, CP: 1.  Upkeep: 20 coins.\n"
        ),
        "{t}"
    );
    assert!(t.contains("Ann's men [U2]'s actions:\n  Before day 1 - Received 1 order.\n"), "{t}");
    assert!(
        t.contains("  * Ann [U1], 1 leader [ldr], of [fa].\n    * Ann's men [U2], 10 "),
        "stacked units are indented: {t}"
    );
    assert!(t.contains("  + Bob [U3], 1 leader [ldr], of [fb].\n"), "{t}");
    assert!(
        t.ends_with("GAME fa pa tiny\n\nUNIT U1  # Ann\n@GUARD\n\nUNIT U2  # Ann's men\nD10 DAY 15\n\nEND\n"),
        "{t}"
    );
}
