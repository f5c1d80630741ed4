//! Who sees whom, on a tiny world of Overlord's data: Ann (U1) of faction fa looks
//! at Bob (U2) of faction fb in the plain L1.

use super::{Facts, Sight, judge};
use crate::systems::overlord::data::{SightRules, Unit};
use crate::systems::overlord::mechanics::stats::UnitStats;
use crate::systems::overlord::testkit::{Game, Tiny};

fn rules() -> SightRules {
    SightRules { faction_margin: 3, moving_penalty: 1, structure_margin: 4 }
}

#[test]
fn observation_against_stealth_vis_see_vis_faction() {
    // (observation, stealth, shows itself, shows its faction) → sight.
    let table = [
        (None, 0, false, false, Sight::Hidden),
        (None, -5, true, false, Sight::Seen),
        (None, 0, true, true, Sight::Known),
        (Some(0), 1, false, false, Sight::Hidden),
        (Some(1), 1, false, false, Sight::Seen),
        (Some(3), 1, false, false, Sight::Seen),
        (Some(4), 1, false, false, Sight::Known),
        (Some(0), 2, true, false, Sight::Seen),
        (Some(0), 2, false, true, Sight::Hidden),
        (Some(0), 2, true, true, Sight::Known),
        (Some(-1), -4, false, false, Sight::Known),
    ];
    for (obs, stealth, shows_itself, shows_faction, want) in table {
        let got = judge(&rules(), obs, Facts { stealth, shows_itself, shows_faction });
        assert_eq!(got, want, "observation {obs:?}, stealth {stealth}, {shows_itself}, {shows_faction}");
    }
}

/// Ann (fa) with `ann` skills, Bob (fb) with `bob` skills, 2 swords and 50 coins,
/// changed by `f`.
fn world(ann: &[(&str, u32)], bob: &[(&str, u32)], f: impl FnOnce(&mut Unit)) -> Game {
    Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "plai")
        .location("L2", "plai")
        .exit("L1", "N", "L2")
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(ann)
        .unit("U2", "fb", "ldr", 1, "L1")
        .skills(bob)
        .items(&[("swrd", 2), ("coin", 50)])
        .with_unit(f)
        .without_money()
        .build()
}

fn stats(g: &Game, u: &str) -> crate::systems::overlord::data::Stats {
    g.get::<UnitStats>(u).stats.clone()
}

/// What faction `f`'s report says of unit `u`: its text, and its JSON entry in the
/// location's units (`None`: not listed).
fn seen(g: &Game, f: &str, u: &str) -> (String, Option<serde_json::Value>) {
    let r = g.engine.reports().iter().find(|r| r.faction.id == f).unwrap().clone();
    let json = serde_json::to_value(&r).unwrap();
    let entry = json["locations"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|l| l["units"].as_array().cloned().unwrap_or_default())
        .find(|x| x["id"] == u);
    (g.report_text(f), entry)
}

#[test]
fn a_unit_whose_stealth_beats_every_observer_is_in_no_report_of_theirs_vis_see() {
    // Bob's 1st stealth (1) beats Ann's observation (0): fa's report never names him,
    // in text or JSON; fb's lists him.
    let mut g = world(&[], &[("stea", 6000)], |_| {});
    g.run();
    assert_eq!((stats(&g, "U1").observation, stats(&g, "U2").stealth), (0, 1));
    let (text, entry) = seen(&g, "fa", "U2");
    assert!(entry.is_none());
    assert!(!text.contains("U2"), "{text}");
    let r = g.engine.reports().iter().find(|r| r.faction.id == "fa").unwrap().clone();
    assert!(!serde_json::to_string(&r).unwrap().contains("U2"), "no trace of Bob in fa's JSON");
    assert!(seen(&g, "fb", "U2").1.is_some());
}

#[test]
fn an_observer_as_good_as_the_stealth_sees_the_unit_and_three_better_its_faction_vis_see_vis_faction() {
    // 1st observation (1) against 1st stealth (1): seen, faction unknown.
    let mut g = world(&[("obse", 6000)], &[("stea", 6000)], |_| {});
    g.run();
    let (text, entry) = seen(&g, "fa", "U2");
    let entry = entry.expect("seen");
    assert_eq!(entry["faction"], serde_json::Value::Null);
    assert!(text.contains("- U2 [U2], 1 leader [ldr], with 2 swords [swrd].\n"), "{text}");
    // Observation 3 against stealth 0: the faction is deduced (3 = 0 + 3).
    let mut g = world(&[("obse", 36000)], &[], |_| {});
    g.run();
    assert_eq!((stats(&g, "U1").observation, stats(&g, "U2").stealth), (3, 0));
    let (_, entry) = seen(&g, "fa", "U2");
    assert_eq!(entry.unwrap()["faction"], "fb");
}

#[test]
fn only_items_of_weight_are_seen_on_another_factions_unit_vis_items() {
    let mut g = world(&[], &[], |_| {});
    g.run();
    let (text, entry) = seen(&g, "fa", "U2");
    let entry = entry.unwrap();
    assert_eq!(entry["items"], serde_json::json!({"swrd": 2}), "the coins are not seen");
    let line = text.lines().find(|l| l.contains("[U2]")).unwrap();
    assert!(!line.contains("coin"), "{line}");
    // Its own report lists everything.
    let (own, _) = seen(&g, "fb", "U2");
    assert!(own.contains("50 coins [coin]"), "{own}");
}

#[test]
fn each_faction_is_shown_a_unit_seen_by_several_as_it_may_see_it_vis_items_vis_faction() {
    // Both reports, built together, describe L1 and its two units; what a unit
    // shows (read once for the place) is given to each as it may see it: its own
    // unit as its own, with its faction and no items list; the other's with the
    // items of weight only, its faction unknown to an observer no better than
    // its stealth. Again with the reports built the other way round.
    for first in ["fa", "fb"] {
        let mut g = world(&[], &[], |_| {});
        if first == "fb" {
            let fa = g.entity("fa");
            let fb = g.entity("fb");
            let mut dir = g.engine.world_mut().resource_mut::<crate::systems::overlord::world::resources::Directory>();
            dir.factions.swap(0, 1);
            assert_eq!(dir.factions, [fb, fa]);
        }
        g.run();
        let (_, of_bob) = seen(&g, "fb", "U2");
        let of_bob = of_bob.expect("fb sees its own unit");
        assert_eq!((of_bob["own"].clone(), of_bob["faction"].clone()), (true.into(), "fb".into()), "{first}");
        assert!(of_bob.get("items").is_none(), "{first}: {of_bob}");
        let (_, by_ann) = seen(&g, "fa", "U2");
        let by_ann = by_ann.expect("fa sees Bob");
        assert_eq!((by_ann["own"].clone(), by_ann["faction"].clone()), (false.into(), serde_json::Value::Null));
        assert_eq!(by_ann["items"], serde_json::json!({"swrd": 2}), "{first}");
        let (_, ann) = seen(&g, "fa", "U1");
        assert_eq!(ann.unwrap()["own"], true, "{first}");
        let (_, ann_by_bob) = seen(&g, "fb", "U1");
        assert_eq!(ann_by_bob.unwrap()["own"], false, "{first}");
    }
}

#[test]
fn a_unit_that_announces_or_stands_on_guard_is_seen_whatever_its_stealth_vis_see() {
    let mut g = world(&[], &[("stea", 18000)], |u| u.settings.announce = true);
    g.run();
    let entry = seen(&g, "fa", "U2").1.expect("announced");
    assert_eq!(entry["faction"], serde_json::Value::Null, "announcing shows the unit, not its faction");
    // On guard (GRD-SHOW): seen with its faction, on the day it guards only.
    let mut g = world(&[], &[("stea", 18000)], |_| {});
    let u = g.entity("U2");
    g.engine.world_mut().entity_mut(u).insert(crate::systems::overlord::world::components::OnGuard(30));
    let on = super::facts(g.engine.world(), u, 30, false);
    assert!(on.shows_itself && on.shows_faction);
    let off = super::facts(g.engine.world(), u, 29, false);
    assert!(!off.shows_itself && !off.shows_faction);
    // A title holder shows its faction, not itself.
    let holder = super::facts(g.engine.world(), u, 29, true);
    assert!(!holder.shows_itself && holder.shows_faction);
    // Advertising shows the faction of a unit that is seen, and hides nothing more.
    let mut g = world(&[], &[("stea", 18000)], |u| u.settings.advertise = true);
    g.run();
    assert!(seen(&g, "fa", "U2").1.is_none(), "advertising does not show the unit");
}

#[test]
fn a_unit_stacked_directly_with_ones_own_is_seen_vis_see() {
    // Bob is stacked under Ann: she sees him whatever his stealth.
    let mut g = world(&[], &[("stea", 18000)], |u| u.stack_leader = Some("U1".into()));
    g.run();
    assert!(seen(&g, "fa", "U2").1.is_some());
}

#[test]
fn stack_mates_are_seen_at_each_place_of_the_faction_and_only_there_vis_see() {
    // fa stands in L1 and L2; a stealthy unit of fb is stacked with fa's unit in
    // each, a third stands unstacked in L2: fa's report lists each stack-mate at
    // its own place and never the third.
    let stealthy = [("stea", 18000)];
    let mut g = Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "plai")
        .location("L2", "plai")
        .location("L3", "plai")
        .exit("L1", "N", "L2")
        .exit("L2", "N", "L3")
        .unit("U1", "fa", "ldr", 1, "L1")
        .unit("U3", "fa", "ldr", 1, "L2")
        .unit("U6", "fa", "ldr", 1, "L3")
        .unit("U2", "fb", "ldr", 1, "L1")
        .skills(&stealthy)
        .with_unit(|u| u.stack_leader = Some("U1".into()))
        .unit("U4", "fb", "ldr", 1, "L2")
        .skills(&stealthy)
        .with_unit(|u| u.stack_leader = Some("U3".into()))
        .unit("U5", "fb", "ldr", 1, "L2")
        .skills(&stealthy)
        .without_money()
        .build();
    g.run();
    let r = g.engine.reports().iter().find(|r| r.faction.id == "fa").unwrap().clone();
    let json = serde_json::to_value(&r).unwrap();
    let listed = |place: &str| -> Vec<String> {
        let l = json["locations"].as_array().unwrap().iter().find(|l| l["id"] == place).unwrap();
        l["units"].as_array().unwrap().iter().map(|u| u["id"].as_str().unwrap().to_string()).collect()
    };
    assert_eq!(listed("L1"), ["U1", "U2"]);
    assert_eq!(listed("L2"), ["U3", "U4"]);
    assert_eq!(listed("L3"), ["U6"]);
}

#[test]
fn a_unit_making_money_or_harvesting_something_of_weight_shows_itself_vis_see() {
    // Bob, stealthy, cuts wood (weight 5) in the forest: seen; the same Bob idle
    // is not.
    let build = || {
        Tiny::new()
            .faction("fa")
            .faction("fb")
            .location("L1", "fore")
            .with_location(|l| {
                l.resources.push(crate::systems::overlord::data::ResourceStock {
                    item: "wood".into(),
                    current: 100,
                    max: 100,
                })
            })
            .unit("U1", "fa", "ldr", 1, "L1")
            .unit("U2", "fb", "man", 1, "L1")
            .skills(&[("stea", 18000), ("fore", 3000), ("lumb", 3000)])
            .without_money()
            .build()
    };
    let mut g = build();
    g.run();
    assert!(seen(&g, "fa", "U2").1.is_none());
    let mut g = build();
    g.orders("fb", "UNIT U2\n@USE lumb\n");
    g.run();
    assert!(g.count("U2", "wood") > 0, "{:?}", g.events("U2"));
    assert!(seen(&g, "fa", "U2").1.is_some());
}

#[test]
fn a_travelling_observer_looks_with_one_less_vis_move_obs() {
    // Ann's observation 1 matches Bob's stealth 1, but she set out on day 30 and is
    // still on her way at the month's end: 0 against 1.
    let mut g = world(&[("obse", 6000)], &[("stea", 6000)], |_| {});
    g.orders("fa", "UNIT U1\nDAY 30\n-MOVE N\n");
    g.run();
    assert!(
        g.engine.world().get::<crate::systems::overlord::world::components::Journey>(g.entity("U1")).is_some(),
        "{:?}",
        g.events("U1")
    );
    assert!(seen(&g, "fa", "U2").1.is_none(), "{}", g.report_text("fa"));
}

#[test]
fn units_of_an_inner_place_and_units_outside_do_not_see_each_other_vis_inner() {
    // Bob is in a cave inside L1; Cid is in a structure of L1: Ann sees Cid only.
    let mut g = Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "plai")
        .location("L9", "plai")
        .with_location(|l| {
            l.kind = crate::systems::overlord::data::LocationKind::Inner;
            l.container = Some("L1".into());
        })
        .structure("B1", "mgld", "L1")
        .unit("U1", "fa", "ldr", 1, "L1")
        .unit("U2", "fb", "ldr", 1, "L9")
        .unit("U3", "fb", "ldr", 1, "L1")
        .inside("B1")
        .without_money()
        .build();
    g.run();
    assert!(seen(&g, "fa", "U2").1.is_none());
    assert!(seen(&g, "fa", "U3").1.is_some());
}

#[test]
fn an_order_naming_a_unit_it_cannot_see_waits_vis_see_ord_see_ord_give() {
    // GIVE to hidden Bob waits (the sword stays); SEE U2 is false, so the order
    // under it does not run. With 1st observation Ann sees him: both run.
    let build = |obse: u32| {
        Tiny::new()
            .faction("fa")
            .faction("fb")
            .with_faction(|f| f.default_stance = "friend".into())
            .location("L1", "plai")
            .unit("U1", "fa", "ldr", 1, "L1")
            .skills(&[("obse", obse)])
            .items(&[("swrd", 1)])
            .unit("U2", "fb", "ldr", 1, "L1")
            .skills(&[("stea", 6000)])
            .without_money()
            .build()
    };
    let name = |g: &Game| g.get::<crate::systems::overlord::world::components::DisplayName>("U1").0.clone();
    let orders = "UNIT U1\nSEE U2\n-NAME \"Watcher\"\nGIVE U2 swrd 1\n";
    let mut g = build(0);
    g.orders("fa", orders);
    g.days(1);
    assert_eq!((g.count("U1", "swrd"), name(&g).as_str()), (1, "U1"), "{:?}", g.events("U1"));
    let mut g = build(6000);
    g.orders("fa", orders);
    g.days(1);
    assert_eq!((g.count("U2", "swrd"), name(&g).as_str()), (1, "Watcher"), "{:?}", g.events("U1"));
}

/// fb's mine B5 in L1 with fb's U2 inside (observation 0); fb holds fa Neutral, so
/// the owner keeps fa's units out (STR-OWNER); fa's U1 has stealth experience
/// `stealth`; the rule set's structure margin is `margin`.
fn mine(stealth: u32, margin: i32) -> Game {
    Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "plai")
        .structure("B5", "mine", "L1")
        .with_scenario(|s| s.structures[0].owner = Some("fb".into()))
        .unit("U2", "fb", "ldr", 1, "L1")
        .inside("B5")
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(&[("stea", stealth)])
        .with_rules(|r| r.info.parameters.sight.structure_margin = margin)
        .without_money()
        .build()
}

#[test]
fn a_unit_slips_into_a_structure_when_its_stealth_beats_the_owners_watch_by_the_margin_vis_struct() {
    // Margin 2 (rules): stealth 2 against observation 0 gets in, stealth 1 does not.
    let mut g = mine(18000, 2);
    g.orders("fa", "UNIT U1\nENTER B5\n").days(1);
    assert!(g.said("U1", "Entered B5"), "{:?}", g.events("U1"));
    let mut g = mine(6000, 2);
    g.orders("fa", "UNIT U1\nENTER B5\n").days(1);
    assert!(g.said("U1", "the owner of B5 does not let this unit in"), "{:?}", g.events("U1"));
    // The bundled rule set's margin is 4: stealth 2 is kept out.
    let bundled = crate::systems::overlord::testkit::overlord_rules().info.parameters.sight.structure_margin;
    assert_eq!(bundled, 4);
    let mut g = mine(18000, bundled);
    g.orders("fa", "UNIT U1\nENTER B5\n").days(1);
    assert!(g.said("U1", "the owner of B5 does not let this unit in"), "{:?}", g.events("U1"));
    // Announcing itself, the stealthy unit is kept out whatever the margin.
    let mut g = mine(18000, 2);
    g.orders("fa", "UNIT U1\nSETTING ANNOUNCE ON\nENTER B5\n").days(1);
    assert!(g.said("U1", "the owner of B5 does not let this unit in"), "{:?}", g.events("U1"));
}

#[test]
fn a_report_lists_the_places_passed_through_and_the_days_there_rpt_loc() {
    // RPT-LOC "each location where the faction was": U1 walks from L1 to L2 (nine
    // days; seen at L2 from day 4). fb's U3 stays at L1 all month, U2 at L3.
    let mut g = Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "plai")
        .location("L2", "plai")
        .location("L3", "fore")
        .exit("L1", "N", "L2")
        .exit("L2", "S", "L1")
        .exit("L2", "N", "L3")
        .unit("U1", "fa", "ldr", 1, "L1")
        .unit("U2", "fa", "ldr", 1, "L3")
        .unit("U3", "fb", "man", 5, "L1")
        .with_rules(|r| r.info.parameters.journey_seen_percent = 50)
        .advertising()
        .without_money()
        .build();
    g.orders("fa", "UNIT U1\nMOVE N\n").run();
    let text = g.report_text("fa");
    let passed = text.split("Places passed through this month:\n").nth(1).expect(&text);
    assert!(passed.starts_with("\nL1 [L1], plains [plai].\n  Here on days 1-4.\n  Exits: N to L2 [L2].\n"), "{passed}");
    // What is passed through is told as it was seen: no one there at the month's end.
    assert!(!text.contains("[U3]"), "{text}");
    let at_l2 = text.split("\nL2 [L2], plains [plai].\n").nth(1).expect(&text);
    assert!(at_l2.starts_with("  Here on days 4-30.\n"), "{at_l2}");
    let at_l3 = text.split("\nL3 [L3], forest [fore].\n").nth(1).expect(&text);
    assert!(!at_l3.starts_with("  Here on"), "there the whole month: {at_l3}");
    let r = g.engine.reports().iter().find(|r| r.faction.id == "fa").unwrap();
    let json = serde_json::to_value(r).unwrap();
    assert_eq!(json["passed"][0]["days"], serde_json::json!([[1, 4]]));
    assert!(json["passed"][0].get("units").is_none() && json["passed"][0].get("population").is_none());
    // The map's memory: every place fa's units were at, kept with the game.
    let state = g.state();
    let fa = state.factions.iter().find(|f| f.id == "fa").unwrap();
    assert_eq!(fa.explored, ["L1", "L2", "L3"]);
    let fb = state.factions.iter().find(|f| f.id == "fb").unwrap();
    assert_eq!(fb.explored, ["L1"]);
}

#[test]
fn stays_of_several_units_merge_and_the_next_month_starts_afresh_rpt_loc() {
    // U1 leaves L1 on day 4 (seen at L2); U4 waits six days and sets out on the sixth: seen
    // at L2 from day 10. fa was at L1 from day 1 until U4 was gone (day 10),
    // one stay; the next month, with no one moving, at L2 the whole month.
    let mut g = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .location("L2", "plai")
        .exit("L1", "N", "L2")
        .exit("L2", "S", "L1")
        .unit("U1", "fa", "ldr", 1, "L1")
        .unit("U4", "fa", "ldr", 1, "L1")
        .with_rules(|r| r.info.parameters.journey_seen_percent = 50)
        .without_money()
        .build();
    g.orders("fa", "UNIT U1\nMOVE N\nUNIT U4\nWAIT 6\n-MOVE N\n").run();
    let text = g.report_text("fa");
    assert!(text.contains("\nL1 [L1], plains [plai].\n  Here on days 1-"), "{text}");
    let r = g.engine.reports().iter().find(|r| r.faction.id == "fa").unwrap();
    let l1 = &r.passed.iter().find(|p| p.id == "L1").expect("passed through L1").days;
    let l2 = &r.locations.iter().find(|p| p.id == "L2").unwrap().days;
    assert_eq!(l1, &[[1, 10]], "U4 kept fa at L1 after U1 left: {text}");
    assert_eq!(l2[0][0], 4);
    g.run();
    let r = g.engine.reports().iter().find(|r| r.faction.id == "fa").unwrap();
    assert!(r.passed.is_empty());
    assert!(r.locations.iter().all(|l| l.days.is_empty()), "at L2 the whole month");
}

/// The watch kept for a place is the watch as the place stands (VIS-SEE,
/// VIS-MOVE-OBS, RPT-EVENTS): over random changes between questions (units
/// arriving, setting out and ending journeys, going over to another faction,
/// learning to look better, moved in report order, disbanded), every faction's
/// best observation at every place and each place's witnesses are what a scan of
/// every unit of the world finds at that moment.
#[test]
fn the_watch_kept_for_a_place_follows_every_change_there_vis_see_vis_move_obs() {
    use super::{Watch, best_observation, observation, witnesses};
    use crate::systems::overlord::data::JourneyKind;
    use crate::systems::overlord::world::components::{At, Id, Journey, Owner, Skills};
    use crate::systems::overlord::world::resources::{Directory, Kind};
    use crate::systems::overlord::world::{Catalog, change_faction};
    use bevy_ecs::entity::Entity;
    use bevy_ecs::system::RunSystemOnce;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    let (factions, places) = (["fa", "fb", "fc"], ["L1", "L2", "L3"]);
    for seed in 0..12u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut t = Tiny::new();
        for f in factions {
            t = t.faction(f);
        }
        for l in places {
            t = t.location(l, "plai");
        }
        for i in 1..=12 {
            let (f, l) = (factions[rng.random_range(0..3)], places[rng.random_range(0..3)]);
            t = t.unit(&format!("U{i}"), f, "ldr", 1, l).skills(&[("obse", rng.random_range(0..40_000))]);
        }
        let mut g = t.without_money().build();
        let fs: Vec<Entity> = factions.iter().map(|f| g.entity(f)).collect();
        let ls: Vec<Entity> = places.iter().map(|l| g.entity(l)).collect();
        let obse = g.engine.world().resource::<Catalog>().skill("obse").unwrap();
        let world = g.engine.world_mut();
        world.run_system_once(crate::systems::overlord::mechanics::stats::refresh).unwrap();
        // What a scan of every unit finds, in report order.
        let scan = |world: &bevy_ecs::world::World, l: Entity| {
            let mut best: Vec<(Entity, i32)> = Vec::new();
            for &u in world.resource::<Directory>().units() {
                if world.get::<At>(u).is_none_or(|a| a.location != l) {
                    continue;
                }
                let f = world.get::<Owner>(u).unwrap().0;
                let o = observation(world, u);
                match best.iter_mut().find(|x| x.0 == f) {
                    Some(x) => x.1 = x.1.max(o),
                    None => best.push((f, o)),
                }
            }
            best
        };
        for step in 0..80 {
            let units: Vec<Entity> = world.resource::<Directory>().units().to_vec();
            let u = units[rng.random_range(0..units.len())];
            match rng.random_range(0..7) {
                0 => {
                    let to = ls[rng.random_range(0..3)];
                    world.entity_mut(u).insert(At { location: to, structure: None });
                }
                1 => {
                    let from = world.get::<At>(u).unwrap().location;
                    let j = Journey { from, to: ls[0], mode: 0, days: 3, elapsed: 0, kind: JourneyKind::Move };
                    world.entity_mut(u).insert(j);
                }
                2 => {
                    world.entity_mut(u).remove::<Journey>();
                }
                3 => change_faction(world, u, fs[rng.random_range(0..3)]),
                4 => {
                    world.get_mut::<Skills>(u).unwrap().0 = vec![(obse, rng.random_range(0..40_000))];
                    world.run_system_once(crate::systems::overlord::mechanics::stats::refresh).unwrap();
                }
                5 => {
                    let before = units[rng.random_range(0..units.len())];
                    world.resource_mut::<Directory>().move_unit_before(u, before);
                }
                _ if units.len() > 4 => {
                    let id = world.get::<Id>(u).unwrap().0.clone();
                    world.resource_mut::<Directory>().remove(Kind::Unit, &id, u);
                    world.despawn(u);
                }
                _ => {}
            }
            for &l in &ls {
                let want = scan(world, l);
                let present: Vec<Entity> = want.iter().map(|x| x.0).collect();
                assert_eq!(witnesses(world, l), present, "seed {seed}, step {step}");
                for &f in &fs {
                    let best = want.iter().find(|x| x.0 == f).map(|x| x.1);
                    assert_eq!(best_observation(world, f, l), best, "seed {seed}, step {step}");
                }
            }
            // The answers came from the watches kept.
            assert!(!world.resource::<Watch>().0.lock().unwrap().is_empty());
        }
    }
}

#[test]
fn the_survey_finds_places_and_units_by_entity_and_nothing_else_vis_see() {
    // Ann and Bob in L1, none in L2: each place is found at its directory
    // position, each unit at its position in its place's list; a unit is no
    // place, a unit is not in a place it does not stand in, and an entity of a
    // place's index but another generation is not that place.
    let g = world(&[], &[], |_| {});
    let w = g.engine.world();
    let survey = super::survey::Survey::new(w);
    let dir = w.resource::<crate::systems::overlord::world::resources::Directory>();
    let (l1, l2, u1, u2) = (g.entity("L1"), g.entity("L2"), g.entity("U1"), g.entity("U2"));
    let p1 = dir.locations.iter().position(|&l| l == l1).unwrap();
    let p2 = dir.locations.iter().position(|&l| l == l2).unwrap();
    assert_eq!((survey.place_of(l1), survey.place_of(l2)), (Some(p1), Some(p2)));
    assert_eq!(survey.place_of(u1), None, "a unit is no place");
    let stale = bevy_ecs::entity::Entity::from_index_and_generation(l1.index(), l1.generation().after_versions(1));
    assert_eq!(survey.place_of(stale), None, "another generation of L1's index");
    assert_eq!(survey.by_location[p1], [u1, u2]);
    assert_eq!((survey.slot_of(p1, u1), survey.slot_of(p1, u2)), (Some(0), Some(1)));
    assert_eq!(survey.slot_of(p2, u2), None, "Bob is not in L2");
    assert_eq!(survey.slot_of(p1, l1), None, "a place is in no place's list");
}
