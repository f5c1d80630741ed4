//! DIP-UNSEEN on a tiny world: fb's B5 (empty) stands in Ford [L1]; fb holds fa
//! Friendly, its default is Neutral; fa's U3 stands there, fb's U2 too.

use crate::systems::overlord::testkit::{Game, Tiny};

/// `fa_to_fb`: fa's stance toward fb (`None`: its default, neutral); `shown`: fa's
/// units advertise their faction.
fn ford(fa_to_fb: Option<&str>, shown: bool) -> Game {
    watched(fa_to_fb, shown, 0)
}

/// [`ford`], fb's U2 with `eyes` experience points of observation.
fn watched(fa_to_fb: Option<&str>, shown: bool, eyes: u32) -> Game {
    let eyes: Vec<(&str, u32)> = if eyes > 0 { vec![("obse", eyes)] } else { Vec::new() };
    let t = Tiny::new()
        .faction("fa")
        .with_faction(|f| {
            if let Some(s) = fa_to_fb {
                f.stances.insert("fb".into(), s.into());
            }
            f.settings.advertise = shown;
        })
        .faction("fb")
        .with_faction(|f| {
            f.stances.insert("fa".into(), "friend".into());
        })
        .location("L1", "plai")
        .structure("B5", "mine", "L1")
        .with_scenario(|s| s.structures[0].owner = Some("fb".into()))
        .unit("U2", "fb", "ldr", 1, "L1")
        .skills(&eyes)
        .unit("U3", "fa", "ldr", 1, "L1")
        .items(&[("coin", 100)])
        .without_money();
    t.build()
}

#[test]
fn a_unit_that_hides_its_faction_gets_the_default_stance_unless_its_faction_is_friendly_dip_unseen() {
    // fb holds fa Friendly (ENTER needs Friendly), but U3 does not show whose it is:
    // fb's default, Neutral, judges it, and it may not enter fb's mine.
    let mut g = ford(None, false);
    g.orders("fa", "UNIT U3\nENTER B5\n").days(1);
    assert!(g.said("U3", "the owner of B5 does not let this unit in"), "{:?}", g.events("U3"));
    // fa holds fb Friendly: fb grants its better declared stance to the hidden unit.
    let mut g = ford(Some("friend"), false);
    g.orders("fa", "UNIT U3\nENTER B5\n").days(1);
    assert!(g.said("U3", "Entered B5"), "{:?}", g.events("U3"));
    // Shown, U3 is judged by fb's stance toward fa whatever fa thinks of fb.
    let mut g = ford(None, true);
    g.orders("fa", "UNIT U3\nENTER B5\n").days(1);
    assert!(g.said("U3", "Entered B5"), "{:?}", g.events("U3"));
}

#[test]
fn gifts_from_a_hidden_unit_are_taken_as_from_its_real_faction_dip_unseen() {
    // fb takes gifts from fa (Friendly): a hidden unit of fa may give, though fb's
    // default (Neutral) would refuse.
    let mut g = ford(None, false);
    g.orders("fa", "UNIT U3\nGIVE U2 coin 40\n").days(1);
    assert_eq!(g.count("U2", "coin"), 40);
}

#[test]
fn a_faction_that_sees_through_a_units_stealth_judges_it_by_its_faction_dip_unseen_vis_faction() {
    // fb's U2 has 3rd observation: U3's stealth 0 plus the margin of 3 is reached,
    // so fb knows U3 is fa's and lets it into its mine by its Friendly stance,
    // though U3 does not advertise.
    let mut g = watched(None, false, 36000);
    g.orders("fa", "UNIT U3\nENTER B5\n").days(1);
    assert!(g.said("U3", "Entered B5"), "{:?}", g.events("U3"));
    // With 2nd observation (2 < 0 + 3) fb does not know whose U3 is: its default,
    // Neutral, keeps U3 out.
    let mut g = watched(None, false, 18000);
    g.orders("fa", "UNIT U3\nENTER B5\n").days(1);
    assert!(g.said("U3", "the owner of B5 does not let this unit in"), "{:?}", g.events("U3"));
}
