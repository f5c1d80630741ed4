//! Mana over days on a tiny world: Ann, a mage with 1st magecraft and 2nd air magic
//! (maximum mana 1 + 2 = 3 in Overlord's data).

use super::tide;
use crate::systems::overlord::testkit::{Game, Tiny};

fn mage(mana: u32) -> Game {
    let mut t = Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "plai")
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(&[("mage", 3000), ("airs", 9000)]);
    if mana > 0 {
        t = t.items(&[("mana", mana)]);
    }
    t.unit("U2", "fa", "ldr", 1, "L1").without_money().build()
}

#[test]
fn mana_returns_one_point_every_second_day_up_to_the_sum_of_magic_levels_mag_maxmana_mag_regen() {
    // MAG-MAXMANA: 1st magecraft + 2nd air = 3. MAG-REGEN (rulings 10): one point at
    // the end of days 2, 4, 6, then no more.
    let mut g = mage(0);
    let stats = |g: &Game| g.get::<crate::systems::overlord::mechanics::stats::UnitStats>("U1").stats.mana;
    g.days(1);
    assert_eq!((stats(&g), g.count("U1", "mana")), (3, 0));
    g.days(1);
    assert_eq!(g.count("U1", "mana"), 1);
    g.days(4);
    assert_eq!(g.count("U1", "mana"), 3);
    g.days(10);
    assert_eq!(g.count("U1", "mana"), 3, "never above the maximum by regaining");
    // A unit without magic has no mana.
    assert_eq!(g.count("U2", "mana"), 0);
}

#[test]
fn mana_above_the_maximum_ebbs_faster_the_further_over_it_is_mag_over() {
    // Maximum 3. 9 points (200% over): 1 + 4 = 5 lost on day 2, then 4 (33% over):
    // 1 lost on day 4, and it stays at 3.
    let mut g = mage(9);
    g.days(1);
    assert_eq!(g.count("U1", "mana"), 9, "nothing on odd days");
    g.days(1);
    assert_eq!(g.count("U1", "mana"), 4);
    g.days(2);
    assert_eq!(g.count("U1", "mana"), 3);
    g.days(2);
    assert_eq!(g.count("U1", "mana"), 3);
}

#[test]
fn the_series_of_losses_goes_by_half_the_maximum() {
    // MAG-OVER with the rules' steps: maximum 10; under 50% over, 1; under 100%, 2;
    // under 150%, 3; then 4 … never below the maximum.
    for (have, change) in [(9, 1), (10, 0), (14, -1), (15, -2), (19, -2), (20, -3), (24, -3), (25, -4), (11, -1)] {
        assert_eq!(tide(have, 10, 50), change, "{have}");
    }
    assert_eq!(tide(1, 0, 50), -1, "no maximum: everything is over");
    assert_eq!(tide(12, 10, 0), 0, "no loss when the rule set sets none");
}

#[test]
fn mana_cannot_be_given_taken_or_dropped_itm_give() {
    let mut g = mage(3);
    g.orders("fa", "UNIT U1\nGIVE U2 mana 1\nDROP mana 1\nUNIT U2\nGET U1 mana 1\n");
    g.days(1);
    assert_eq!((g.count("U1", "mana"), g.count("U2", "mana")), (3, 0));
    assert!(g.said("U1", "GIVE U2 mana 1: removed from the orders: mana cannot change hands"), "{:?}", g.events("U1"));
    assert!(g.said("U1", "DROP mana 1: removed from the orders: mana cannot change hands"), "{:?}", g.events("U1"));
    assert!(g.said("U2", "GET U1 mana 1: removed from the orders: mana cannot change hands"), "{:?}", g.events("U2"));
}

/// Experience U1, a leader with 2nd magecraft and 2nd void magic, gains in a day of
/// STUDY `skill`, in weather `weather`, inside a mage's guild [mgld] or not.
fn a_day_of_study(skill: &str, weather: &str, in_guild: bool) -> u32 {
    let mut t = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .with_location(|l| l.weather = Some(weather.into()))
        .structure("B1", "mgld", "L1")
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(&[("mage", 9000), ("void", 9000)])
        .items(&[("coin", 1000)]);
    if in_guild {
        t = t.inside("B1");
    }
    let mut g = t.build();
    g.orders("fa", &format!("UNIT U1\nSTUDY {skill}\n"));
    g.days(1);
    g.points("U1", skill)
}

#[test]
fn a_storm_speeds_the_study_of_void_magic_and_of_every_spell_derived_from_it_cli_magic_mag_season() {
    // climate.ron: storm gives study +20 to void magic [void]; summon lesser void
    // elemental [slve] requires void: it gains the same 20%. Magecraft does not
    // derive from void.
    let fair = a_day_of_study("slve", "fair", false);
    assert!(fair > 0);
    assert_eq!(a_day_of_study("slve", "storm", false), fair * 120 / 100);
    assert_eq!(a_day_of_study("mage", "storm", false), a_day_of_study("mage", "fair", false));
}

#[test]
fn a_mages_guild_speeds_the_study_of_every_magic_skill_mag_guild_mag_limit() {
    // constructions.ron: the mage's guild gives study +50 to magecraft [mage]; every
    // magic skill derives from it.
    let outside = a_day_of_study("slve", "fair", false);
    assert!(outside > 0);
    assert_eq!(a_day_of_study("slve", "fair", true), outside * 150 / 100);
}

#[test]
fn a_mage_takes_one_element_per_level_of_magecraft_mag_elem() {
    // 2nd magecraft (9000) with void and some water: fire is refused; with 3rd
    // (18000) it is studied. An element begun goes on being studied.
    let study = |mage: u32, skill: &str| {
        let mut g = Tiny::new()
            .faction("fa")
            .location("L1", "plai")
            .unit("U1", "fa", "ldr", 1, "L1")
            .skills(&[("mage", mage), ("void", 3000), ("wate", 1000)])
            .items(&[("coin", 1000)])
            .build();
        g.orders("fa", &format!("UNIT U1\nSTUDY {skill}\n"));
        g.days(1);
        (g.points("U1", skill), g.events("U1"))
    };
    let (points, said) = study(9000, "fire");
    assert_eq!(points, 0);
    assert!(
        said.iter().any(|e| e.contains("one element may be taken per level of magecraft [mage]: at level 2 the unit knows 2 already, so not fire magics [fire]")),
        "{said:?}"
    );
    assert!(study(18000, "fire").0 > 0);
    assert!(study(9000, "wate").0 > 1000);
}
