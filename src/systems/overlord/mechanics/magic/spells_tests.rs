//! Spells cast in the world, on a tiny world of Overlord's data: Ann (U1), a water
//! mage of faction fa, with Bob (U2) beside her in L1 and Cid (U3) in L2.

use crate::systems::overlord::testkit::{Game, Tiny};

fn world(skills: &[(&str, u32)], items: &[(&str, u32)]) -> Game {
    Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .location("L2", "plai")
        .exit("L1", "N", "L2")
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(skills)
        .items(items)
        .unit("U2", "fa", "ldr", 1, "L1")
        .unit("U3", "fa", "ldr", 1, "L2")
        .build()
}

#[test]
fn meditation_turns_herbs_into_mana_above_the_maximum_mag_meditate() {
    // 2nd meditation (9000) makes 2 mana a day from 1 herb; maximum 1 (magecraft) +
    // 2 (meditation) = 3. Day 1: 2; day 2: 4, then 33% over the maximum ebbs 1 at the
    // day's end (MAG-OVER): 3.
    let mut g = world(&[("mage", 3000), ("medi", 9000)], &[("hrbs", 3)]);
    g.orders("fa", "UNIT U1\nUSE medi 2\n");
    g.days(1);
    assert_eq!((g.count("U1", "mana"), g.count("U1", "hrbs")), (2, 2));
    assert!(g.said("U1", "Used meditation [medi]: gained 2 mana"), "{:?}", g.events("U1"));
    g.days(1);
    assert_eq!((g.count("U1", "mana"), g.count("U1", "hrbs")), (3, 1));
    g.days(1);
    assert_eq!(g.count("U1", "hrbs"), 1, "two uses asked, two made");
}

#[test]
fn an_enchantment_on_the_caster_costs_mana_and_lasts_its_days_mag_cost_itm_ench() {
    // Water walking [wwal], 1st level: one day of casting, 1 mana, 4 days of
    // swimming on the caster (no target in the data).
    let mut g = world(&[("mage", 3000), ("wate", 3000), ("wwal", 3000)], &[("mana", 2)]);
    g.orders("fa", "UNIT U1\nUSE wwal\n");
    g.days(1);
    assert_eq!(g.count("U1", "mana"), 1, "one point paid");
    assert_eq!(g.effect("U1", "effswim"), 3, "4 days, one worn off at the day's end");
    assert!(g.said("U1", "Cast water walking [wwal] on itself: 4 days of swimming [effswim]."), "{:?}", g.events("U1"));
    g.days(3);
    assert_eq!(g.effect("U1", "effswim"), 0);
}

#[test]
fn a_second_casting_adds_its_days_and_n_casts_n_times() {
    // USE wwal 2: two castings on two days; the days add up: 4 − 1 + 4 − 1 = 6.
    let mut g = world(&[("mage", 3000), ("wate", 3000), ("wwal", 3000)], &[("mana", 2)]);
    g.orders("fa", "UNIT U1\nUSE wwal 2\nUSE wwal\n");
    g.days(2);
    assert_eq!((g.count("U1", "mana"), g.effect("U1", "effswim")), (1, 6), "mana 2 − 2 + 1 regained on day 2");
    g.days(1);
    assert_eq!((g.count("U1", "mana"), g.effect("U1", "effswim")), (0, 9), "the third USE casts once more");
}

#[test]
fn a_spell_on_a_unit_needs_a_target_within_reach_mag_target() {
    // Raise morale [rmor]: a unit in the caster's place gets 4 days of +2
    // initiative. Without TARGET, or with a target elsewhere, it cannot be cast.
    let mut g = world(&[("mage", 3000), ("rmor", 3000)], &[("mana", 2)]);
    g.orders("fa", "UNIT U1\nUSE rmor\nDAY 2\n-TARGET U3\n-USE rmor\nDAY 3\n-TARGET U2\n-USE rmor\n");
    g.days(3);
    assert!(
        g.said("U1", "USE rmor: removed from the orders: raise morale [rmor] needs a target"),
        "{:?}",
        g.events("U1")
    );
    assert!(g.said("U1", "its target U3 is not here"), "{:?}", g.events("U1"));
    assert_eq!(g.effect("U2", "effini2"), 3, "cast on day 3");
    assert_eq!(g.effect("U1", "effini2"), 0);
    assert_eq!(g.count("U1", "mana"), 1, "at its maximum, 2, until the cast paid 1");
    assert!(g.said("U2", "cast raise morale [rmor] on it: 4 days of morale [effini2]"), "{:?}", g.events("U2"));
    let s = g.get::<crate::systems::overlord::mechanics::stats::UnitStats>("U2").stats.initiative;
    let t = g.get::<crate::systems::overlord::mechanics::stats::UnitStats>("U3").stats.initiative;
    assert_eq!(s, t + 2, "the enchantment changes the target's statistics");
}

#[test]
fn a_caster_with_too_little_mana_waits_and_says_why() {
    let mut g = world(&[("mage", 3000), ("wate", 3000), ("wwal", 3000)], &[]);
    g.orders("fa", "UNIT U1\nUSE wwal\n");
    g.days(1);
    assert_eq!(g.effect("U1", "effswim"), 0);
    assert!(g.said("U1", "USE wwal: waits: too little mana: it needs 1 mana [mana] (has 0)"), "{:?}", g.events("U1"));
    g.days(1);
    assert_eq!(g.count("U1", "mana"), 1, "regained on day 2");
    g.days(1);
    assert_eq!((g.count("U1", "mana"), g.effect("U1", "effswim")), (0, 3), "cast on day 3 with the point regained");
}

#[test]
fn a_summons_forms_a_new_unit_or_joins_one_of_its_race() {
    // Call grey wolf [cgwf], 1st level: 15 days of casting and 8 mana a wolf. The
    // first forms the new unit fanU01 under the caster; the second joins it.
    let mut g = world(&[("mage", 3000), ("clon", 3000), ("chou", 3000), ("cgwf", 9000)], &[("mana", 8)]);
    g.orders("fa", "UNIT U1\nTARGET fanU01\nUSE cgwf 1\n");
    g.days(14);
    assert!(g.units_of_race("gwol").is_empty(), "not before 15 days");
    let max = g.get::<crate::systems::overlord::mechanics::stats::UnitStats>("U1").stats.mana as u32;
    assert_eq!(g.count("U1", "mana"), max, "8 paid when the casting began, then regained up to the maximum");
    g.days(1);
    let wolves = g.units_of_race("gwol");
    assert_eq!(wolves.len(), 1);
    let w = wolves[0].clone();
    assert_eq!(crate::systems::overlord::testkit::figures(&g.engine, &w), 1);
    assert!(g.said("U1", "1 grey wolf [gwol] answered Call Grey Wolf [cgwf] as"), "{:?}", g.events("U1"));
    let leader = g.get::<crate::systems::overlord::world::components::StackLeader>(&w).0;
    assert_eq!(leader, Some(g.entity("U1")), "stacked under its caster");
}

#[test]
fn summoned_figures_join_a_unit_of_their_race_and_dilute_its_enchantments_itm_ench() {
    // U4, one grey wolf of fa, permanently happy (100,000 days): the second wolf
    // halves what is left, as MERGE would.
    let mut g = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(&[("mage", 3000), ("cgwf", 9000)])
        .items(&[("mana", 8)])
        .unit("U4", "fa", "gwol", 1, "L1")
        .with_unit(|u| u.effects.push(crate::systems::overlord::data::EffectDays("effhapy".into(), 100_000)))
        .build();
    g.orders("fa", "UNIT U1\nTARGET U4\nUSE cgwf 1\n");
    g.days(15);
    assert_eq!(crate::systems::overlord::testkit::figures(&g.engine, "U4"), 2);
    assert_eq!(g.effect("U4", "effhapy"), 50_000);
    assert_eq!(g.units_of_race("gwol"), ["U4"], "no new unit");
    assert!(g.said("U1", "1 grey wolf [gwol] answered Call Grey Wolf [cgwf] and joined"), "{:?}", g.events("U1"));
}

#[test]
fn a_summons_into_a_unit_of_another_race_is_refused() {
    let mut g = world(&[("mage", 3000), ("cgwf", 9000)], &[("mana", 8)]);
    g.orders("fa", "UNIT U1\nTARGET U2\nUSE cgwf 1\n");
    g.days(1);
    assert!(g.said("U1", "join a unit of its faction of their race, or a new unit: not U2"), "{:?}", g.events("U1"));
    assert_eq!(g.count("U1", "mana"), 8, "nothing paid");
}

#[test]
fn retargeting_a_casting_loses_half_of_it_and_pays_again_mag_retarget() {
    // Invoke ancestors [ianc], 1st level: 10 days and 1 grain for 10 days of +3
    // initiative on a unit here. After 4 days on U2 it turns to U1 itself: 2 days of
    // work are left (rulings 10: 50% lost) and a second grain goes; 8 more days
    // finish it, on day 12.
    let mut g = world(&[("ianc", 6000)], &[("grai", 2)]);
    g.orders("fa", "UNIT U1\nTARGET U2\n@USE ianc\nDAY 5\n-TARGET U1\n");
    g.days(4);
    assert_eq!(g.count("U1", "grai"), 1);
    g.days(1);
    assert_eq!(g.count("U1", "grai"), 0, "paid again");
    assert!(g.said("U1", "Changing its target cost 50% of the casting done"), "{:?}", g.events("U1"));
    g.days(6);
    assert_eq!(g.effect("U1", "effini3"), 0, "day 11: not yet");
    g.days(1);
    assert_eq!(g.effect("U1", "effini3"), 9, "cast on day 12");
    assert_eq!(g.effect("U2", "effini3"), 0);
}

#[test]
fn retargeting_a_casting_that_cannot_be_paid_again_spoils_it() {
    let mut g = world(&[("ianc", 6000)], &[("grai", 1)]);
    g.orders("fa", "UNIT U1\nTARGET U2\n@USE ianc\nDAY 5\n-TARGET U1\n");
    g.days(5);
    assert!(g.said("U1", "Changing its target spoiled the casting"), "{:?}", g.events("U1"));
    assert!(g.said("U1", "waits: it lacks 1 grain"), "{:?}", g.events("U1"));
}

#[test]
fn the_report_shows_a_mages_mana_and_the_enchantments_on_its_units_rpt_unit() {
    // Cast on day 28: 4 days of swimming, 1 left after day 30. Mana: 2 at the start,
    // 3 (the maximum) from day 2, 1 paid on day 28 and regained that evening.
    let mut g = world(&[("mage", 3000), ("wate", 3000), ("wwal", 3000)], &[("mana", 2)]);
    g.orders("fa", "UNIT U1\nDAY 28\n-USE wwal\n");
    g.run();
    let t = g.report_text("fa");
    // Unpaid upkeep has disaffected them all as well (60 days).
    assert!(
        t.contains(
            "\n  Mana: 3 of 3.\n  Enchantments: 60 days of disaffection [effdisc], 1 day of swimming [effswim].\n"
        ),
        "{t}"
    );
    let r = g.engine.reports().iter().find(|r| r.faction.id == "fa").unwrap().clone();
    let u1 = r.units.iter().find(|u| u.id == "U1").unwrap();
    assert_eq!(u1.enchantments.get("effswim"), Some(&1));
    let u2 = r.units.iter().find(|u| u.id == "U2").unwrap();
    assert_eq!(u2.enchantments.keys().collect::<Vec<_>>(), ["effdisc"]);
    assert_eq!(t.matches("  Mana: ").count(), 1, "no mana line for units without magic");
}

#[test]
fn a_crafting_spell_pays_its_mana_with_its_components_mag_cost() {
    // Mix potions of healing [hpot], 1st level: 2 days, 1 herb and 2 mana a potion.
    let mut g = world(&[("mage", 3000), ("wate", 3000), ("hpot", 3000)], &[("mana", 3), ("hrbs", 5)]);
    g.orders("fa", "UNIT U1\nUSE hpot 2\n");
    g.days(1);
    assert_eq!((g.count("U1", "mana"), g.count("U1", "hrbs"), g.count("U1", "poth")), (1, 4, 0));
    g.days(1);
    assert_eq!(g.count("U1", "poth"), 1);
    assert_eq!(g.count("U1", "mana"), 2, "the second potion waits for its mana: 1 + 1 regained on day 2");
    g.days(1);
    assert_eq!((g.count("U1", "mana"), g.count("U1", "hrbs")), (0, 3), "paid on day 3");
}

#[test]
fn a_use_the_engine_does_not_carry_out_does_nothing_and_says_what_once_skl_use_other() {
    // Pick pockets [ppoc] makes the event evtppoc: nothing is taken from Bob, the
    // report says why once, and the order stays (so the next waits behind it).
    let mut g = world(&[("ppoc", 12000)], &[("hrbs", 2)]);
    g.orders("fa", "UNIT U1\nTARGET U2\nUSE ppoc\n");
    g.days(2);
    let said = |g: &Game, what: &str| g.events("U1").iter().filter(|e| e.contains(what)).count();
    let why = "USE ppoc: does nothing: the event evtppoc is not part of this engine yet. The order stays";
    assert_eq!(said(&g, why), 1, "{:?}", g.events("U1"));
    // Dream walking [drew] is a spell on a place: said before its missing TARGET, and
    // its herb is not paid.
    let mut g = world(&[("drew", 6000)], &[("hrbs", 2)]);
    g.orders("fa", "UNIT U1\nUSE drew\n");
    g.days(1);
    assert_eq!(said(&g, "USE drew: does nothing: a spell on a place is not part of this engine yet"), 1);
    assert_eq!(g.count("U1", "hrbs"), 2, "nothing paid");
}

#[test]
fn enhance_work_speeds_every_skill_derived_from_weaponsmith_itm_ench() {
    // effenhw gives +50% `use` to weaponsmith [weap]; bladesmith [blsm] requires it.
    // A sword is 30 days of work: the enchanted smith makes one in 20 days, the
    // other is 10 days short.
    use crate::systems::overlord::data::EffectDays;
    let mut g = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .unit("U1", "fa", "man", 1, "L1")
        .skills(&[("weap", 3000), ("blsm", 3000)])
        .items(&[("iron", 10)])
        .unit("U2", "fa", "man", 1, "L1")
        .skills(&[("weap", 3000), ("blsm", 3000)])
        .items(&[("iron", 10)])
        .with_unit(|u| u.effects.push(EffectDays("effenhw".into(), 100)))
        .build();
    g.orders("fa", "UNIT U1\nUSE blsm 1\nUNIT U2\nUSE blsm 1\n");
    g.days(20);
    assert_eq!((g.count("U1", "swrd"), g.count("U2", "swrd")), (0, 1), "{:?} {:?}", g.events("U1"), g.events("U2"));
}

/// Water walking [wwal]'s first level made a spell on `kind` (within `scope`) that
/// puts 40 days of happiness (+1 initiative, +1 life) on it.
fn on_places(
    kind: crate::systems::overlord::data::TargetKind,
    scope: crate::systems::overlord::data::TargetScope,
) -> impl FnOnce(&mut crate::systems::overlord::data::RuleSet) {
    move |r| {
        let s = r.skills.iter_mut().find(|s| s.tag == "wwal").unwrap();
        let lv = &mut s.system.levels[0];
        lv.target = Some(crate::systems::overlord::data::UseTarget { kind, scope });
        lv.grants = vec![crate::systems::overlord::data::Grant("effhapy".into(), 40)];
    }
}

fn life(g: &Game, unit: &str) -> i32 {
    g.get::<crate::systems::overlord::mechanics::stats::UnitStats>(unit).stats.life
}

#[test]
fn a_spell_on_a_place_enchants_it_and_every_unit_there_itm_ench_mag_target() {
    // Cast on day 1 on the neighbouring L2: 40 days, 10 left at the month's end. Cid
    // (U3) there is under it; Ann and Bob in L1 are not.
    use crate::systems::overlord::data::{TargetKind, TargetScope};
    let build = || {
        Tiny::new()
            .faction("fa")
            .location("L1", "plai")
            .location("L2", "plai")
            .location("L3", "plai")
            .exit("L1", "N", "L2")
            .unit("U1", "fa", "ldr", 1, "L1")
            .skills(&[("mage", 3000), ("wate", 3000), ("wwal", 3000)])
            .items(&[("mana", 3)])
            .unit("U2", "fa", "ldr", 1, "L1")
            .unit("U3", "fa", "ldr", 1, "L2")
            .with_rules(on_places(TargetKind::Location, TargetScope::Near))
            .build()
    };
    let mut g = build();
    g.orders("fa", "UNIT U1\nTARGET L2\nUSE wwal 1\n");
    g.run();
    assert!(
        g.said("U1", "Cast water walking [wwal] on L2 [L2]: 40 days of happiness [effhapy]."),
        "{:?}",
        g.events("U1")
    );
    assert_eq!((g.effect("L2", "effhapy"), g.effect("U3", "effhapy")), (10, 0), "on the place, not the unit");
    assert_eq!(life(&g, "U3"), life(&g, "U2") + 1, "Cid is under the place's enchantment");
    assert_eq!(life(&g, "U1"), life(&g, "U2"));
    let t = g.report_text("fa");
    assert!(t.contains("\n  Enchantments: 10 days of happiness [effhapy].\n"), "{t}");
    let r = g.engine.reports().iter().find(|r| r.faction.id == "fa").unwrap().clone();
    let l2 = r.locations.iter().find(|l| l.id == "L2").unwrap();
    assert_eq!(l2.enchantments.get("effhapy"), Some(&10));
    let state = g.state();
    let saved = &state.locations.iter().find(|l| l.id == "L2").unwrap().effects;
    assert_eq!(saved, &[crate::systems::overlord::data::EffectDays("effhapy".into(), 10)], "saved with the place");
    // Out of reach, and with no target: refused with the reason.
    let mut g = build();
    g.orders("fa", "UNIT U1\nTARGET L3\nUSE wwal 1\nUNIT U2\nUSE wwal 1\n");
    g.days(1);
    assert!(g.events("U1").iter().any(|e| e.contains("its target L3 is out of its reach")), "{:?}", g.events("U1"));
    assert_eq!(g.effect("L3", "effhapy"), 0);
}

#[test]
fn a_spell_on_a_structure_enchants_the_units_inside_it_itm_ench() {
    // Bob (U2) is inside the guild B1 that Ann enchants from outside; Ann and Cid are
    // not under it. A structure in another place is out of reach.
    use crate::systems::overlord::data::{TargetKind, TargetScope};
    let build = || {
        Tiny::new()
            .faction("fa")
            .location("L1", "plai")
            .location("L2", "plai")
            .exit("L1", "N", "L2")
            .structure("B1", "mgld", "L1")
            .structure("B2", "mgld", "L2")
            .unit("U1", "fa", "ldr", 1, "L1")
            .skills(&[("mage", 3000), ("wate", 3000), ("wwal", 3000)])
            .items(&[("mana", 3)])
            .unit("U2", "fa", "ldr", 1, "L1")
            .inside("B1")
            .unit("U3", "fa", "ldr", 1, "L1")
            .with_rules(on_places(TargetKind::Construction, TargetScope::Local))
            .build()
    };
    let mut g = build();
    g.orders("fa", "UNIT U1\nTARGET B1\nUSE wwal 1\n");
    g.run();
    assert_eq!(g.effect("B1", "effhapy"), 10);
    assert_eq!((life(&g, "U2"), life(&g, "U1")), (life(&g, "U3") + 1, life(&g, "U3")));
    let t = g.report_text("fa");
    assert!(t.contains("; enchantments: 10 days of happiness [effhapy].\n"), "{t}");
    let state = g.state();
    let saved = &state.structures.iter().find(|s| s.id == "B1").unwrap().effects;
    assert_eq!(saved.len(), 1);
    let mut g = build();
    g.orders("fa", "UNIT U1\nTARGET B2\nUSE wwal 1\n");
    g.days(1);
    assert!(g.events("U1").iter().any(|e| e.contains("its target B2 is out of its reach")), "{:?}", g.events("U1"));
}

#[test]
fn a_units_statistics_follow_the_place_it_is_in_itm_ench() {
    // L2 is happy for good. Cid walks out of it; Bob walks into it.
    let mut g = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .location("L2", "plai")
        .with_location(|l| l.effects.push(crate::systems::overlord::data::EffectDays("effhapy".into(), 100000)))
        .exit("L1", "N", "L2")
        .exit("L2", "S", "L1")
        .unit("U1", "fa", "ldr", 1, "L1")
        .unit("U2", "fa", "ldr", 1, "L1")
        .unit("U3", "fa", "ldr", 1, "L2")
        .without_money()
        .build();
    g.run();
    assert_eq!((life(&g, "U1"), life(&g, "U2"), life(&g, "U3")), (3, 3, 4));
    g.orders("fa", "UNIT U2\nMOVE N\nUNIT U3\nMOVE S\n");
    g.run();
    assert_eq!((life(&g, "U1"), life(&g, "U2"), life(&g, "U3")), (3, 4, 3), "{:?}", g.events("U2"));
}

#[test]
fn a_structures_enchantment_speeds_the_work_inside_it_itm_ench() {
    // effenhw (+50% weaponsmith's `use`) on the smithy B1: the smith inside makes a
    // sword (30 days) in 20 days, the one outside does not.
    use crate::systems::overlord::data::EffectDays;
    let mut g = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .structure("B1", "mgld", "L1")
        .with_scenario(|s| s.structures[0].effects.push(EffectDays("effenhw".into(), 100)))
        .unit("U1", "fa", "man", 1, "L1")
        .skills(&[("weap", 3000), ("blsm", 3000)])
        .items(&[("iron", 10)])
        .inside("B1")
        .unit("U2", "fa", "man", 1, "L1")
        .skills(&[("weap", 3000), ("blsm", 3000)])
        .items(&[("iron", 10)])
        .build();
    g.orders("fa", "UNIT U1\nUSE blsm 1\nUNIT U2\nUSE blsm 1\n");
    g.days(20);
    assert_eq!((g.count("U1", "swrd"), g.count("U2", "swrd")), (1, 0), "{:?} {:?}", g.events("U1"), g.events("U2"));
}
