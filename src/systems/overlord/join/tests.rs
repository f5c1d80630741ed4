//! New factions made from the bundled `starts.ron` (START-UNITS, START-TYPE,
//! START-PLACE, START-FUNDS).

use super::join;
use crate::core::system::JoinRequest;
use crate::systems::overlord::data::{ItemHolding, LocationKind, RuleSet, Scenario, SkillExperience, StartPlace};
use crate::systems::overlord::testkit::Tiny;
use std::collections::BTreeMap;

/// A city `C1` inside plains `P1`, a colonial pair `C2`/`C3` and a border city
/// `C4`; one faction `f05` with unit `U9`.
fn world() -> (RuleSet, Scenario) {
    let city = |id: &'static str| {
        move |l: &mut crate::systems::overlord::data::Location| {
            l.kind = LocationKind::Inner;
            l.container = Some("P1".into());
            l.name = format!("City {id}");
        }
    };
    let (rules, mut s) = Tiny::new()
        .faction("f05")
        .location("P1", "plai")
        .location("C1", "city")
        .with_location(city("C1"))
        .location("C2", "city")
        .with_location(city("C2"))
        .location("C3", "city")
        .with_location(city("C3"))
        .location("C4", "city")
        .with_location(city("C4"))
        .exit("C1", "OUT", "P1")
        .unit("U9", "f05", "ldr", 1, "P1")
        .parts();
    let place = |tag: &str, bonus: u64, locations: &[&str], fair: Option<u32>| StartPlace {
        tag: tag.into(),
        name: tag.into(),
        bonus: if bonus > 0 { BTreeMap::from([("coin".to_string(), bonus)]) } else { BTreeMap::new() },
        locations: locations.iter().map(|l| l.to_string()).collect(),
        fair,
    };
    s.game.joining.default_stance = "neutral".into();
    s.game.joining.stances.insert("f05".into(), "friend".into());
    s.game.joining.places = vec![
        place("imperial", 1000, &["C1"], None),
        place("border", 500, &["C4", "C1"], None),
        place("colonial", 0, &["C2", "C3"], Some(2)),
    ];
    (rules, s)
}

fn ask(name: &str, start: &str, place: &str, choices: &[&str]) -> JoinRequest {
    JoinRequest {
        name: name.into(),
        email: format!("{}@example.org", name.to_lowercase().replace(' ', "")),
        password: "secret".into(),
        start: start.into(),
        place: place.into(),
        choices: choices.iter().map(|c| c.to_string()).collect(),
    }
}

fn xp(rules: &RuleSet, skill: &str, level: usize) -> u32 {
    rules.skills.iter().find(|s| s.tag == skill).unwrap().system.levels[level - 1].experience
}

fn unit<'s>(s: &'s Scenario, id: &str) -> &'s crate::systems::overlord::data::Unit {
    s.units.iter().find(|u| u.id == id).unwrap()
}

#[test]
fn a_general_starts_in_the_imperial_city_with_a_hero_on_a_horse_and_fifty_followers() {
    // START-UNITS, START-TYPE (General), START-FUNDS, START-PLACE (imperial bonus).
    let (rules, mut s) = world();
    let joined = join(&rules, &mut s, &ask("The Empire", "general", "imperial", &[])).unwrap();
    assert_eq!(joined.faction, "f06", "one more than the highest faction id, same width");
    let f = s.factions.last().unwrap();
    assert_eq!(
        (f.name.as_str(), f.password.as_str(), f.email.as_str()),
        ("The Empire", "secret", "theempire@example.org")
    );
    assert!(!f.npc);
    // "$5000 in unclaimed funds" plus the imperial city's $1000.
    assert_eq!(f.funds.get("coin"), Some(&6000));
    assert_eq!(f.default_stance, "neutral");
    assert_eq!(f.stances.get("f05").map(String::as_str), Some("friend"));
    let start = f.start.as_ref().unwrap();
    assert_eq!((start.kind.as_str(), start.place.as_str(), start.location.as_str()), ("general", "imperial", "C1"));

    // "one hero, followed by a unit of 50 unskilled men"; ids after U9.
    let hero = unit(&s, "U10");
    assert_eq!((hero.race.as_str(), hero.figures, hero.location.as_str()), ("hero", 1, "C1"));
    assert_eq!(hero.faction, "f06");
    assert_eq!(
        hero.skills,
        vec![
            SkillExperience("cmbt".into(), xp(&rules, "cmbt", 1)),
            SkillExperience("blde".into(), xp(&rules, "blde", 1))
        ]
    );
    // The horse is equipped; the sword needs 1st blades (he has it); plate mail
    // needs 2nd parry, so it is carried (ITM-EQSKILL).
    assert!(hero.items.contains(&ItemHolding("hrse".into(), 1, 1)));
    assert!(hero.items.contains(&ItemHolding("swrd".into(), 1, 1)));
    assert!(hero.items.contains(&ItemHolding("plat".into(), 1, 0)));
    assert!(joined.lines.iter().any(|l| l.contains("plat carried, not equipped")), "{:?}", joined.lines);
    let men = unit(&s, "U11");
    assert_eq!((men.race.as_str(), men.figures, men.stack_leader.as_deref()), ("man", 50, Some("U10")));
    assert!(men.skills.is_empty() && men.items.is_empty());

    // The faction plays: its first report lists its units and what it knows now.
    let mut g = Tiny::from_parts(rules, s).build();
    g.engine.report_only();
    let text = g.report_text("f06");
    assert!(text.contains("Hero [U10] at City C1 [C1]"), "{text}");
    assert!(text.contains("Followers [U11] at City C1 [C1], stacked under [U10]"), "{text}");
    assert!(text.contains("New knowledge:") && text.contains("1st blades [blde]"), "{text}");
    assert!(text.contains("UNIT U10"), "the order template lists the units: {text}");
}

#[test]
fn a_mage_chooses_an_element_and_draws_two_different_low_level_magic_items() {
    // START-TYPE (Mage): magecraft and the element at the 1st level; two random
    // items of the list, different, each of them as likely (over many draws, each
    // item is drawn in 2 joins of 9).
    let (rules, base) = world();
    let pool = rules.starts.types.iter().find(|t| t.tag == "mage").unwrap().random_items.clone().unwrap();
    assert_eq!(pool.count, 2);
    let mut drawn: BTreeMap<String, u32> = BTreeMap::new();
    let runs = 900u64;
    for seed in 0..runs {
        let mut s = base.clone();
        s.game.seed = seed;
        join(&rules, &mut s, &ask("Magi", "mage", "imperial", &["FIRE"])).unwrap();
        let hero = unit(&s, "U10");
        assert!(hero.skills.contains(&SkillExperience("mage".into(), xp(&rules, "mage", 1))));
        assert!(hero.skills.contains(&SkillExperience("fire".into(), xp(&rules, "fire", 1))));
        let magic: Vec<&ItemHolding> = hero.items.iter().filter(|i| pool.from.contains(&i.0)).collect();
        assert_eq!(magic.len(), 2, "two different items: {:?}", hero.items);
        for i in magic {
            assert_eq!(i.1, 1);
            *drawn.entry(i.0.clone()).or_default() += 1;
        }
    }
    let expected = runs as f64 * 2.0 / pool.from.len() as f64; // 200
    for item in &pool.from {
        let n = f64::from(drawn.get(item).copied().unwrap_or(0));
        // σ ≈ 12.5; a draw that favoured the first items would be far off.
        assert!((n - expected).abs() < 50.0, "{item} drawn {n} times, expected about {expected}: {drawn:?}");
    }
    // The same game, turn and faction draw the same items.
    let (mut a, mut b) = (base.clone(), base);
    join(&rules, &mut a, &ask("Magi", "mage", "imperial", &["void"])).unwrap();
    join(&rules, &mut b, &ask("Magi", "mage", "imperial", &["void magics"])).unwrap();
    assert_eq!(a, b, "an option is named by its tag or its skill's name");
}

#[test]
fn craftsmen_pick_two_different_crafts_and_get_their_tools() {
    // START-TYPE (Craftsman): two basic skills at the 1st level, each with its tool.
    let (rules, mut s) = world();
    join(&rules, &mut s, &ask("Smiths", "craftsman", "imperial", &["weap", "digg"])).unwrap();
    let hero = unit(&s, "U10");
    assert_eq!(
        hero.skills,
        vec![
            SkillExperience("weap".into(), xp(&rules, "weap", 1)),
            SkillExperience("digg".into(), xp(&rules, "digg", 1))
        ]
    );
    assert!(hero.items.contains(&ItemHolding("hamm".into(), 1, 1)), "{:?}", hero.items);
    assert!(hero.items.contains(&ItemHolding("pick".into(), 1, 1)), "{:?}", hero.items);
}

#[test]
fn an_adventurer_knows_the_land_around_its_city() {
    // START-TYPE (Adventurer): scouting, the land lore of the start place's
    // terrain (the plains around the city; the rule set says which skill), 30 food.
    let (mut rules, mut s) = world();
    rules.starts.lore.insert("plai".into(), "agri".into());
    join(&rules, &mut s, &ask("Scouts", "adventurer", "imperial", &[])).unwrap();
    let hero = unit(&s, "U10");
    assert!(hero.skills.contains(&SkillExperience("scou".into(), xp(&rules, "scou", 1))));
    assert!(hero.skills.contains(&SkillExperience("agri".into(), xp(&rules, "agri", 1))), "{:?}", hero.skills);
    assert!(hero.items.contains(&ItemHolding("food".into(), 30, 0)));
    // Without a lore for the terrain (the alpha data has none), the GM is told.
    let (rules, mut s) = world();
    let joined = join(&rules, &mut s, &ask("Scouts", "adventurer", "imperial", &[])).unwrap();
    assert_eq!(unit(&s, "U10").skills.len(), 1);
    assert!(joined.lines.iter().any(|l| l.contains("no land lore for the terrain 'plai'")), "{:?}", joined.lines);
}

#[test]
fn colonial_starts_fill_one_city_to_the_fair_number_and_others_go_where_fewest_started() {
    // START-PLACE: "All of the factions that select colonial city during the same
    // turn will enter the same city, until a fair number of factions are started
    // there" (here 2); border cities take the one with the fewest starts.
    let (rules, mut s) = world();
    let mut places = Vec::new();
    for k in 0..5 {
        let j = join(&rules, &mut s, &ask(&format!("Colonist {k}"), "general", "colonial", &[])).unwrap();
        places.push(s.factions.iter().find(|f| f.id == j.faction).unwrap().start.clone().unwrap().location);
    }
    // Two in C2, two in C3, then all full: the one with the fewest (C2 first).
    assert_eq!(places, ["C2", "C2", "C3", "C3", "C2"]);
    let mut border = Vec::new();
    for k in 0..3 {
        let j = join(&rules, &mut s, &ask(&format!("Border {k}"), "general", "border", &[])).unwrap();
        border.push(s.factions.iter().find(|f| f.id == j.faction).unwrap().start.clone().unwrap().location);
        let f = s.factions.iter().find(|f| f.id == j.faction).unwrap();
        assert_eq!(f.funds.get("coin"), Some(&5500), "the border bonus");
    }
    // C4 has none, C1 none: C4 (listed first), then C1, then C4 again.
    assert_eq!(border, ["C4", "C1", "C4"]);
    // A player may name the city.
    let j = join(&rules, &mut s, &ask("Picky", "general", "c3", &[])).unwrap();
    let f = s.factions.iter().find(|f| f.id == j.faction).unwrap();
    assert_eq!(f.start.as_ref().map(|st| (st.place.as_str(), st.location.as_str())), Some(("colonial", "C3")));
}

#[test]
fn a_request_that_cannot_be_met_says_why_and_changes_nothing() {
    let (rules, s) = world();
    let cases: [(JoinRequest, &str); 9] = [
        (ask("X", "pope", "imperial", &[]), "no start type 'pope': choose one of general, mage, adventurer, craftsman"),
        (ask("X", "general", "moon", &[]), "no start place 'moon': choose one of imperial, border, colonial"),
        (ask("X", "mage", "imperial", &[]), "the mage start needs an element: airs (air magics)"),
        (ask("X", "mage", "imperial", &["ice"]), "'ice' is not a element of the mage start"),
        (ask("X", "craftsman", "imperial", &["digg", "DIGG"]), "'DIGG' chosen twice"),
        (ask("X", "general", "imperial", &["fire"]), "'fire': the general start asks for no more choices"),
        (ask("f05", "general", "imperial", &[]), "a faction is already named 'f05'"),
        (
            JoinRequest { email: "nobody".into(), ..ask("X", "general", "imperial", &[]) },
            "'nobody' is not a mail address",
        ),
        (ask("A [B]", "general", "imperial", &[]), "without brackets"),
    ];
    for (req, want) in cases {
        let mut t = s.clone();
        let err = join(&rules, &mut t, &req).unwrap_err();
        assert!(err.contains(want), "{req:?}: {err}");
        assert_eq!(t, s, "nothing changed");
    }
    let mut t = s.clone();
    t.game.joining.places.clear();
    assert!(join(&rules, &mut t, &ask("X", "general", "imperial", &[])).unwrap_err().contains("no start places"));
}

#[test]
fn new_ids_follow_the_highest_in_the_style_of_the_game() {
    let ids = |v: &'static [&'static str]| v.iter().copied();
    assert_eq!(super::next_id(ids(&["f01", "f05", "m1"]), "f", 2), "f06");
    assert_eq!(super::next_id(ids(&["f1", "f9"]), "f", 2), "f10");
    assert_eq!(super::next_id(ids(&["f99"]), "f", 2), "f100");
    assert_eq!(super::next_id(ids(&["t1", "m1"]), "f", 2), "f01");
    assert_eq!(super::next_id(ids(&["U1", "U275", "U12"]), "U", 1), "U276");
}
