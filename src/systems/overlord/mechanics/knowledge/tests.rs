//! What a faction learns, on a tiny world of Overlord's data: Ann (U1) of faction fa
//! and Bob (U2) of faction fb in the plain L1; fa starts knowing nothing.

use crate::systems::overlord::data::{MarketOffer, RecruitOffer, Unit};
use crate::systems::overlord::testkit::{Game, Tiny};
use crate::systems::overlord::world::components::{Known, KnownSkills};
use serde_json::Value;

/// Ann (fa) holds `ann_items` and has `ann_skills`; Bob (fb) holds 2 swords and 50
/// coins, changed by `bob`.
fn world(ann_items: &[(&str, u32)], ann_skills: &[(&str, u32)], bob: impl FnOnce(&mut Unit)) -> Game {
    Tiny::new()
        .faction("fa")
        .faction("fb")
        .location("L1", "plai")
        .location("L2", "plai")
        .exit("L1", "N", "L2")
        .unit("U1", "fa", "ldr", 1, "L1")
        .items(ann_items)
        .skills(ann_skills)
        .unit("U2", "fb", "ldr", 1, "L1")
        .items(&[("swrd", 2), ("coin", 50)])
        .with_unit(bob)
        .without_money()
        .build()
}

/// Faction `f`'s knowledge records in its JSON report: (kind, tag, level, again).
fn knowledge(g: &Game, f: &str) -> Vec<(String, String, Option<u64>, bool)> {
    let r = g.engine.reports().iter().find(|r| r.faction.id == f).unwrap();
    let json = serde_json::to_value(r).unwrap();
    json["knowledge"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|k| {
            (
                k["kind"].as_str().unwrap().to_string(),
                k["tag"].as_str().unwrap().to_string(),
                k["level"].as_u64(),
                k["again"] == Value::Bool(true),
            )
        })
        .collect()
}

fn has(list: &[(String, String, Option<u64>, bool)], kind: &str, tag: &str, level: Option<u64>) -> bool {
    list.iter().any(|(k, t, l, _)| k == kind && t == tag && *l == level)
}

#[test]
fn a_faction_learns_what_its_units_hold_and_the_skills_they_reach_rpt_know() {
    // Ann holds a sword and has reached 1st combat: the sword, the leader race, 1st
    // and 2nd combat (the next level is shown), and what the sword names (1st
    // blades, which requires 1st combat) are described once.
    let mut g = world(&[("swrd", 1)], &[("cmbt", 3000)], |_| {});
    g.run();
    let k = knowledge(&g, "fa");
    assert!(has(&k, "item", "swrd", None), "{k:?}");
    assert!(has(&k, "race", "ldr", None), "{k:?}");
    assert!(has(&k, "skill", "cmbt", Some(1)) && has(&k, "skill", "cmbt", Some(2)), "{k:?}");
    assert!(!has(&k, "skill", "cmbt", Some(3)), "only the level after the one reached: {k:?}");
    assert!(has(&k, "skill", "blde", Some(1)), "the sword's equipment skill: {k:?}");
    assert!(!has(&k, "skill", "blde", Some(2)), "{k:?}");
    // Never what a skill opens up: nothing requiring combat is learnt from it.
    assert!(!has(&k, "skill", "mele", Some(1)), "{k:?}");
    let text = g.report_text("fa");
    assert!(text.contains("\nNew knowledge:\n  Items:\n"), "{text}");
    assert!(text.contains("    sword [swrd]: Weight 4. The basic edged weapon for infantry. Equipped using 1st blades [blde]. Equipment category: weapon, 1 per figure. Equipment gives +3 to melee, +2 to defense, +2 to damage.\n"), "{text}");
    assert!(text.contains("    1st combat [cmbt]: "), "{text}");
    assert!(
        text.contains("    1st blades [blde]: ") && text.contains("Requires 1st combat [cmbt] to learn."),
        "{text}"
    );
    // Known from now on: the next month describes none of it again.
    let known = g.get::<Known>("fa").clone();
    let catalog = g.engine.world().resource::<crate::systems::overlord::world::Catalog>().clone();
    assert!(known.knows(catalog.topic("swrd").unwrap()));
    let combat = catalog.skill("cmbt").unwrap();
    assert_eq!(g.get::<KnownSkills>("fa").level(combat), 2);
    g.run();
    let k = knowledge(&g, "fa");
    assert!(!has(&k, "item", "swrd", None) && !has(&k, "skill", "cmbt", Some(1)), "{k:?}");
    assert!(!g.report_text("fa").contains("sword [swrd]: Weight"));
}

#[test]
fn reaching_a_level_describes_the_next_one_rpt_know() {
    // Ann studies combat from 2,900 experience: she reaches 1st level during the
    // month; fa knew combat to 1st level, and learns the 2nd only.
    let mut g = Tiny::new()
        .faction("fa")
        .with_faction(|f| {
            f.known_skills = vec![crate::systems::overlord::data::SkillLevelReq { skill: "cmbt".into(), level: 1 }]
        })
        .location("L1", "plai")
        .unit("U1", "fa", "ldr", 1, "L1")
        .skills(&[("cmbt", 2900)])
        .items(&[("coin", 500)])
        .build();
    g.orders("fa", "UNIT U1\nSTUDY cmbt\n");
    g.run();
    let k = knowledge(&g, "fa");
    assert!(has(&k, "skill", "cmbt", Some(2)), "{k:?}");
    assert!(!has(&k, "skill", "cmbt", Some(1)), "1st was known: {k:?}");
}

#[test]
fn items_of_weight_seen_on_others_are_learnt_coins_and_hidden_units_are_not_rpt_know_vis_items() {
    // Bob is seen: his swords are learnt, his coins are not (0 weight).
    let mut g = world(&[], &[], |_| {});
    g.run();
    let k = knowledge(&g, "fa");
    assert!(has(&k, "item", "swrd", None), "{k:?}");
    assert!(!has(&k, "item", "coin", None), "{k:?}");
    // Bob hides (1st stealth against no observation): nothing of his is learnt.
    let mut g =
        world(&[], &[], |u| u.skills.push(crate::systems::overlord::data::SkillExperience("stea".into(), 6000)));
    g.run();
    let k = knowledge(&g, "fa");
    assert!(!has(&k, "item", "swrd", None), "{k:?}");
    let json = serde_json::to_string(&g.engine.reports().iter().find(|r| r.faction.id == "fa").unwrap()).unwrap();
    assert!(!json.contains("swrd") && !json.contains("U2"), "no trace of Bob: {json}");
}

#[test]
fn goods_recruits_and_resources_where_the_faction_is_are_learnt_elsewhere_not_rpt_know() {
    // L1 (2,000 people) sells swords and hires men; L2 sells wagons: Ann in L1
    // learns the first two.
    let offer = |item: &str| MarketOffer::new(item, 5, 10);
    let mut g = Tiny::new()
        .faction("fa")
        .location("L1", "plai")
        .with_location(|l| {
            l.market.sells.push(offer("swrd"));
            l.population = 2000;
            l.recruits.push(RecruitOffer { race: "man".into(), count: 20, price: 30, hired: 0 });
        })
        .location("L2", "plai")
        .with_location(|l| l.market.sells.push(offer("wago")))
        .unit("U1", "fa", "ldr", 1, "L1")
        .without_money()
        .build();
    g.run();
    let k = knowledge(&g, "fa");
    assert!(has(&k, "item", "swrd", None) && has(&k, "race", "man", None), "{k:?}");
    assert!(!has(&k, "item", "wago", None), "{k:?}");
}

#[test]
fn reshow_puts_known_records_back_in_the_report_and_refuses_the_unknown_fac_reshow() {
    let mut g = world(&[("swrd", 1)], &[("cmbt", 9000)], |_| {});
    g.run();
    g.orders("fa", "RESHOW swrd\nRESHOW cmbt 2\nRESHOW wago\nRESHOW xyzzy\nRESHOW mele\n");
    g.run();
    let k = knowledge(&g, "fa");
    let again: Vec<_> = k.iter().filter(|x| x.3).map(|x| (x.1.as_str(), x.2)).collect();
    assert_eq!(again, [("swrd", None), ("cmbt", Some(2)), ("cmbt", Some(3))], "{k:?}");
    assert!(g.said("fa", "RESHOW swrd: 1 description in this report's knowledge."));
    assert!(g.said("fa", "RESHOW wago refused: your faction does not know wago."));
    assert!(g.said("fa", "RESHOW xyzzy refused: xyzzy is neither a record of the rules"));
    assert!(g.said("fa", "RESHOW mele refused: your faction does not know the skill mele."));
    let text = g.report_text("fa");
    assert!(text.contains("\nKnowledge shown again:\n  Items:\n    sword [swrd]: "), "{text}");
    // RESHOW ALL: everything known, once.
    g.orders("fa", "RESHOW ALL\n");
    g.run();
    let k = knowledge(&g, "fa");
    let known = g.get::<Known>("fa").topics().count() + g.get::<KnownSkills>("fa").0.len();
    assert!(k.iter().filter(|x| x.3).count() >= known, "{k:?}");
    assert!(has(&k, "race", "ldr", None) && has(&k, "skill", "cmbt", Some(1)), "{k:?}");
}

#[test]
fn knowledge_is_saved_with_the_faction_rpt_know() {
    let mut g = world(&[("swrd", 1)], &[], |_| {});
    g.run();
    let state = g.state();
    let fa = state.factions.iter().find(|f| f.id == "fa").unwrap();
    assert!(fa.known.iter().any(|t| t == "swrd") && fa.known.iter().any(|t| t == "ldr"), "{:?}", fa.known);
    assert!(fa.known_skills.iter().any(|k| k.skill == "blde" && k.level == 1), "{:?}", fa.known_skills);
}

/// RPT-KNOW: the set a faction's month of sightings is gathered in reads back what
/// went in, once each, in the order of the topics (the order the report lists new
/// knowledge in), whatever order it came in: against a `BTreeSet`, over seeded
/// draws of every kind of topic, across word boundaries; it holds what went in,
/// and equals a set of the same topics added in another order (a faction's
/// [`Known`] is one).
#[test]
fn the_set_of_topics_met_reads_back_as_a_sorted_set_does() {
    use super::TopicSet;
    use crate::systems::overlord::world::components::Topic;
    use crate::systems::overlord::world::ids::{EffectId, ItemId, RaceId};
    use rand::{RngExt, SeedableRng};
    for seed in 0..50u64 {
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(seed);
        let (mut set, mut plain) = (TopicSet::default(), std::collections::BTreeSet::new());
        for _ in 0..rng.random_range(0..300) {
            let i = rng.random_range(0..200u16);
            let t = match rng.random_range(0..4) {
                0 => Topic::Item(ItemId(i)),
                1 => Topic::Race(RaceId(i)),
                2 => Topic::Construction(u32::from(i)),
                _ => Topic::Enchantment(EffectId(i)),
            };
            assert_eq!(set.contains(t), plain.contains(&t), "seed {seed}: {t:?} held before");
            assert_eq!(set.insert(t), plain.insert(t), "seed {seed}: {t:?} new");
            assert!(set.contains(t), "seed {seed}: {t:?} held after");
        }
        // The same topics added in another order make an equal set.
        let mut again = TopicSet::default();
        again.extend(plain.iter().rev().copied());
        assert_eq!(again, set, "seed {seed}");
        assert_eq!(set.iter().collect::<Vec<_>>(), plain.into_iter().collect::<Vec<_>>(), "seed {seed}");
    }
}
