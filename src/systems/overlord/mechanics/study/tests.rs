//! STUDY over whole months on a tiny world. Combat [cmbt] costs 1 coin a day per
//! figure and its 1st level needs 30 days (3000 points, 100 a day); blades [blde]
//! requires 1st combat.

use crate::systems::overlord::testkit::*;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Funds, Inventory};
use crate::systems::overlord::world::resources::{Directory, Kind};

/// June (no season bonus). `units` are fa's; L2 teaches combat up to level 3.
fn world(units: &str, known: &str) -> String {
    format!(
        r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 5),
  factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral", funds: {{"coin": 1000}},
              known_skills: [{known}])],
  locations: [
    (id: "L1", name: "Ford", terrain: "city", population: 1000),
    (id: "L2", name: "Academy", terrain: "city", population: 1000, teaches: [(skill: "cmbt", level: 3)]),
  ],
  structures: [],
  units: [{units}],
)"#
    )
}

const MEN: &str =
    r#"(id: "U2", name: "Men", faction: "fa", race: "man", figures: 10, location: "L1", items: [("coin", 100, 0)]),"#;

#[test]
fn study_to_a_level_costs_per_figure_and_day_ord_study_cash_study() {
    // 30 days at 100 points reach 1st combat; 10 figures × 1 coin × 30 days = 300
    // coins: 100 from the unit's cash, then 200 from the faction funds (CASH-FUND).
    let mut e = engine_without_money(scenario(&world(MEN, "")));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nSTUDY cmbt 1\n"]);
    assert_eq!(points(&e, "U2", "cmbt"), 3000);
    assert_eq!(
        events(&e, "U2"),
        ["0: Received 1 order.", "1: Studies combat [cmbt].", "30: Achieves 1st combat [cmbt]."]
    );
    assert!(orders(&e, "U2").is_empty(), "the level is reached: the order is done");
    let coin = e.world().resource::<Catalog>().item("coin").unwrap();
    assert_eq!(e.world().get::<Inventory>(unit(&e, "U2")).unwrap().count(coin), 0);
    let fa = e.world().resource::<Directory>().get(Kind::Faction, "fa").unwrap();
    assert_eq!(e.world().get::<Funds>(fa).unwrap().0[0].1, 800);
}

#[test]
fn a_plain_study_is_one_day_and_a_duration_counts_days_pfx_dur() {
    let mut e = engine_without_money(scenario(&world(MEN, "")));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nSTUDY cmbt\n10 STUDY digg\n"]);
    assert_eq!((points(&e, "U2", "cmbt"), points(&e, "U2", "digg")), (100, 1000));
}

#[test]
fn leaders_up_the_stack_and_teaching_places_speed_study_skl_fast() {
    // TV-STUDY: a better-skilled stack leader gives +10%; a place teaching the skill
    // +20%; both +30%. A month of study gives 3300, 3600 and 3900 points.
    let units = r#"
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1", skills: [("cmbt", 9000)]),
    (id: "U2", name: "Led", faction: "fa", race: "man", figures: 1, location: "L1", stack_leader: Some("U1")),
    (id: "U3", name: "Schooled", faction: "fa", race: "man", figures: 1, location: "L2"),
    (id: "U4", name: "Both", faction: "fa", race: "man", figures: 1, location: "L2", stack_leader: Some("U5")),
    (id: "U5", name: "Teacher", faction: "fa", race: "ldr", figures: 1, location: "L2", skills: [("cmbt", 9000)]),"#;
    let mut e = engine_without_money(scenario(&world(units, "")));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n30 STUDY cmbt\nUNIT U3\n30 STUDY cmbt\nUNIT U4\n30 STUDY cmbt\n"]);
    assert_eq!([points(&e, "U2", "cmbt"), points(&e, "U3", "cmbt"), points(&e, "U4", "cmbt")], [3300, 3600, 3900]);
}

#[test]
fn study_stops_at_the_limit_of_the_unit_kind_unless_a_place_teaches_skl_limit() {
    // Followers study combat to 2nd level (9000) and other skills, such as digging,
    // to 1st; the
    // academy teaches combat to 3rd.
    let units = r#"
    (id: "U2", name: "Veterans", faction: "fa", race: "man", figures: 1, location: "L1", skills: [("cmbt", 8950), ("digg", 2950)]),
    (id: "U4", name: "Capped", faction: "fa", race: "man", figures: 1, location: "L1", skills: [("cmbt", 9000)]),
    (id: "U3", name: "Cadets", faction: "fa", race: "man", figures: 1, location: "L2", skills: [("cmbt", 9000)]),"#;
    let mut e = engine_without_money(scenario(&world(units, "")));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n@STUDY cmbt\n@STUDY digg\nUNIT U3\n@STUDY cmbt\nUNIT U4\n@STUDY cmbt\n"]);
    assert_eq!(points(&e, "U2", "cmbt"), 9050, "one day reached 2nd level, then the order ended");
    assert!(events(&e, "U2").contains(&"1: Achieves 2nd combat [cmbt].".to_string()));
    assert!(events(&e, "U4").contains(&"1: Cannot study combat [cmbt] beyond level 2 here.".to_string()));
    assert!(orders(&e, "U4").is_empty());
    assert_eq!(points(&e, "U2", "digg"), 3050, "digging stops once 1st is reached");
    assert!(orders(&e, "U2").is_empty());
    assert!(points(&e, "U3", "cmbt") > 9000, "the academy lifts the limit to 3rd");
}

#[test]
fn requirements_are_studied_first_when_the_faction_knows_the_skill_skl_autopre() {
    // Blades needs 1st combat. fa knows blades: U2 studies combat first, then blades,
    // and combat gains 10% of the blades study (SKL-EXP-ADV). fb's unit without that
    // knowledge waits, its order kept.
    let units = r#"(id: "U2", name: "Men", faction: "fa", race: "man", figures: 1, location: "L1"),"#;
    let mut e = engine_without_money(scenario(&world(units, r#"(skill: "blde", level: 1)"#)));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n@STUDY blde\n"]);
    // Days 1–30: combat to 3000 (30 days), then none left for blades this month.
    assert_eq!((points(&e, "U2", "cmbt"), points(&e, "U2", "blde")), (3000, 0));
    run_month(&mut e, &["GAME fa pa\n"]);
    // Month 2: 30 days of blades (3000), combat +10% of it.
    assert_eq!((points(&e, "U2", "cmbt"), points(&e, "U2", "blde")), (3300, 3000));
    let mut e = engine_without_money(scenario(&world(units, "")));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\n@STUDY blde\n"]);
    assert_eq!((points(&e, "U2", "cmbt"), points(&e, "U2", "blde")), (0, 0));
    assert_eq!(orders(&e, "U2"), ["@STUDY blde"]);
    // The report says why, once.
    let why = "1: @STUDY blde: waits: blades [blde] needs combat [cmbt] first, studied first only when the faction knows blades [blde]. The order stays in the list.";
    let ev = events(&e, "U2");
    assert_eq!(ev.iter().filter(|x| x.contains("waits") || x.contains("waited")).collect::<Vec<_>>(), [why], "{ev:?}");
}

#[test]
fn skills_a_unit_may_not_study_are_removed_skl_kinds() {
    let units = r#"(id: "U2", name: "Men", faction: "fa", race: "man", figures: 1, location: "L1"),"#;
    let mut e = engine_without_money(scenario(&world(units, "")));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nSTUDY tact\nSTUDY egra\n"]);
    let ev = events(&e, "U2");
    assert!(
        ev.contains(
            &"1: STUDY tact: removed from the orders: only leaders and heroes can study tactics [tact].".to_string()
        ),
        "{ev:?}"
    );
    assert!(ev.contains(
        &"1: STUDY egra: removed from the orders: even grace [egra] cannot be learned by study.".to_string()
    ));
}

#[test]
fn study_that_cannot_be_paid_is_removed_cash_study() {
    let units = r#"(id: "U2", name: "Men", faction: "fa", race: "man", figures: 10, location: "L1"),"#;
    let mut s = scenario(&world(units, ""));
    s.factions[0].funds.clear();
    let mut e = engine_without_money(s);
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nSTUDY cmbt\n"]);
    assert_eq!(points(&e, "U2", "cmbt"), 0);
    assert!(
        events(&e, "U2")[1].contains("a day of study costs 10 coins [coin], and the unit and its faction have less")
    );
}

#[test]
fn stack_leader_teaching_place_and_teach_give_260_percent_tv_study() {
    // TV-STUDY: (100 + 10 + 20)% × 2 = 260%: 30 days give 7800 points. The teacher
    // leads the student's stack in the academy. Whether the teacher or the student
    // is visited first makes no difference.
    for (first, second) in [("U4", "U5"), ("U5", "U4")] {
        let unit = |id: &str| match id {
            "U4" => {
                r#"(id: "U4", name: "Student", faction: "fa", race: "man", figures: 1, location: "L2", stack_leader: Some("U5")),"#
            }
            _ => {
                r#"(id: "U5", name: "Teacher", faction: "fa", race: "ldr", figures: 1, location: "L2", skills: [("cmbt", 9000)]),"#
            }
        };
        let units = format!("{}\n{}", unit(first), unit(second));
        let mut e = engine_without_money(scenario(&world(&units, "")));
        run_month(&mut e, &["GAME fa pa\nUNIT U4\n30 STUDY cmbt\nUNIT U5\n@TEACH U4 cmbt\n"]);
        assert_eq!(points(&e, "U4", "cmbt"), 7800, "{first} first");
        assert!(events(&e, "U5").contains(&"1: Teaches combat [cmbt] to Student [U4].".to_string()));
    }
}

#[test]
fn a_teacher_lifts_the_limit_for_small_units_at_normal_speed_ord_teach() {
    // ORD-TEACH, SKL-LIMIT: a 3rd-level teacher takes 10 followers past their combat
    // limit (2nd), at 100 points a day; 20 followers are too many.
    let units = r#"
    (id: "U1", name: "Teacher", faction: "fa", race: "ldr", figures: 1, location: "L1", skills: [("cmbt", 18000)]),
    (id: "U2", name: "Ten", faction: "fa", race: "man", figures: 10, location: "L1", skills: [("cmbt", 9000)]),
    (id: "U3", name: "Twenty", faction: "fa", race: "man", figures: 20, location: "L1", skills: [("cmbt", 9000)]),
    (id: "U5", name: "Second teacher", faction: "fa", race: "ldr", figures: 1, location: "L1", skills: [("cmbt", 18000)]),"#;
    let mut e = engine_without_money(scenario(&world(units, "")));
    run_month(
        &mut e,
        &["GAME fa pa\nUNIT U1\n@TEACH U2 cmbt\nUNIT U5\n@TEACH U3 cmbt\nUNIT U2\n@STUDY cmbt\nUNIT U3\n@STUDY cmbt\n"],
    );
    assert_eq!(points(&e, "U2", "cmbt"), 12000);
    assert_eq!(points(&e, "U3", "cmbt"), 9000);
    assert!(events(&e, "U3").contains(&"1: Cannot study combat [cmbt] beyond level 2 here.".to_string()));
}

#[test]
fn a_teacher_with_no_student_studying_does_nothing_that_day_ord_teach() {
    // The TEACH waits; the invisible WORK is done instead.
    let units = r#"
    (id: "U1", name: "Teacher", faction: "fa", race: "ldr", figures: 1, location: "L1", skills: [("cmbt", 18000)]),
    (id: "U2", name: "Idle", faction: "fa", race: "man", figures: 10, location: "L1"),"#;
    let mut e = engine_without_money(scenario(&world(units, "")));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\n@TEACH U2 cmbt\n"]);
    assert!(!events(&e, "U1").iter().any(|x| x.contains("Teaches")));
    assert_eq!(orders(&e, "U1"), ["@TEACH U2 cmbt"]);
}

#[test]
fn forget_takes_the_skill_and_its_dependants_ord_forget() {
    // Blades depends on combat: forgetting combat forgets both; observation stays.
    // A FORGET of a skill the unit does not have waits.
    let units = r#"(id: "U2", name: "Men", faction: "fa", race: "man", figures: 1, location: "L1",
                    skills: [("cmbt", 3000), ("blde", 500), ("digg", 100)]),"#;
    let mut e = engine_without_money(scenario(&world(units, "")));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nFORGET cmbt\nFORGET arch\n"]);
    assert_eq!((points(&e, "U2", "cmbt"), points(&e, "U2", "blde"), points(&e, "U2", "digg")), (0, 0, 100));
    assert!(events(&e, "U2").contains(&"1: Forgot combat [cmbt], blades [blde].".to_string()));
    assert_eq!(orders(&e, "U2"), ["FORGET arch"]);
    let why =
        "1: FORGET arch: waits: the unit has no experience of archery [arch] to forget. The order stays in the list.";
    assert!(events(&e, "U2").iter().any(|x| x == why), "{:?}", events(&e, "U2"));
}

#[test]
fn followers_know_one_basic_skill_besides_combat_and_teach_takes_one_follower() {
    // §10 races: a follower with digging cannot take up cooking (both basic); combat
    // is allowed beside it. ORD-TEACH: several students only if all are leaders.
    let units = r#"
    (id: "U1", name: "Teacher", faction: "fa", race: "ldr", figures: 1, location: "L1", skills: [("cmbt", 18000)]),
    (id: "U2", name: "Diggers", faction: "fa", race: "man", figures: 1, location: "L1", skills: [("digg", 3000)]),
    (id: "U3", name: "Others", faction: "fa", race: "man", figures: 1, location: "L1"),"#;
    let mut e = engine_without_money(scenario(&world(units, "")));
    run_month(&mut e, &["GAME fa pa\nUNIT U2\nSTUDY cook\nSTUDY cmbt\nUNIT U1\n@TEACH U2 cmbt U3 cmbt\n"]);
    assert_eq!((points(&e, "U2", "cook"), points(&e, "U2", "cmbt")), (0, 100));
    let ev = events(&e, "U2");
    assert!(ev.iter().any(|x| x.contains("a follower unit knows one basic skill besides combat")), "{ev:?}");
    assert!(events(&e, "U1").iter().any(|x| x.contains("a leader teaches several students only if all are leaders")));
}

#[test]
fn specialist_skills_need_a_teacher_and_magic_stops_at_2nd_even_taught_skl_kinds_mag_limit() {
    // Invoke ancestors [ianc] is a specialist skill: Ann waits for a teacher; Bea,
    // taught by Cid, studies it. Dee, at 2nd magecraft, cannot go further by study
    // even with a 4th-level teacher (§10 races).
    let units = r#"
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1"),
    (id: "U2", name: "Bea", faction: "fa", race: "ldr", figures: 1, location: "L2"),
    (id: "U3", name: "Cid", faction: "fa", race: "ldr", figures: 1, location: "L2", skills: [("ianc", 9000)]),
    (id: "U4", name: "Dee", faction: "fa", race: "ldr", figures: 1, location: "L2", skills: [("mage", 9000)]),
    (id: "U5", name: "Eve", faction: "fa", race: "ldr", figures: 1, location: "L2", skills: [("mage", 30000)]),"#;
    let mut e = engine_without_money(scenario(&world(units, "")));
    run_month(
        &mut e,
        &[
            "GAME fa pa\nUNIT U1\n@STUDY ianc\nUNIT U2\n5 STUDY ianc\nUNIT U3\n5 TEACH U2 ianc\nUNIT U5\n@TEACH U4 mage\nUNIT U4\n@STUDY mage\n",
        ],
    );
    assert_eq!(points(&e, "U1", "ianc"), 0);
    assert_eq!(orders(&e, "U1"), ["@STUDY ianc"], "waits for a teacher");
    assert!(events(&e, "U1").iter().any(|x| x.contains(
        "@STUDY ianc: waits: invoke ancestors [ianc] is a specialist skill: it needs a teacher or a place that teaches it."
    )));
    assert_eq!(points(&e, "U2", "ianc"), 5 * 200, "taught: double speed");
    assert_eq!(points(&e, "U4", "mage"), 9000);
    assert!(events(&e, "U4").iter().any(|x| x.contains("Cannot study magecraft [mage] beyond level 2, even taught")));
}

#[test]
fn guild_and_master_titles_speed_their_tree_and_masters_need_no_teacher_ttl_hog_ttl_master() {
    // titles.ron: the Earth Master [emag] studies earth magic 20% faster and one
    // level further, a specialist spell such as permanent post [ppst] (it needs 1st
    // earth magic) without a teacher: Ann, holding it, gains 120 points a day; Bea,
    // holding nothing, waits for a teacher. Dee, Head of Guild [hgld] (magecraft
    // +20%), studies air magic (it needs magecraft) at 120 points a day; Eve,
    // without a title, at 100.
    let mage = |id: &str, name: &str, at: &str, skills: &str| {
        format!(
            r#"(id: "{id}", name: "{name}", faction: "fa", race: "ldr", figures: 1, location: "{at}", skills: [{skills}], items: [("coin", 500, 0)]),"#
        )
    };
    let earth = r#"("mage", 3000), ("eart", 18000)"#;
    let units = [
        mage("U1", "Ann", "L1", earth),
        mage("U2", "Bea", "L1", earth),
        mage("U4", "Dee", "L2", r#"("mage", 9000)"#),
        mage("U5", "Eve", "L2", r#"("mage", 9000)"#),
    ]
    .concat();
    let titled = |units: &str| {
        world(units, "")
            .replace(r#"population: 1000),"#, r#"population: 1000, titles: [(title: "emag", holder: Some("U1"))]),"#)
            .replace(
                r#"teaches: [(skill: "cmbt", level: 3)]),"#,
                r#"teaches: [(skill: "cmbt", level: 3)], titles: [(title: "hgld", holder: Some("U4"))]),"#,
            )
    };
    let mut e = engine_without_money(scenario(&titled(&units)));
    run_month(
        &mut e,
        &["GAME fa pa\nUNIT U1\n5 STUDY ppst\nUNIT U2\n5 STUDY ppst\nUNIT U4\n5 STUDY airs\nUNIT U5\n5 STUDY airs\n"],
    );
    assert_eq!(points(&e, "U1", "ppst"), 5 * 120, "{:?}", events(&e, "U1"));
    assert_eq!(points(&e, "U2", "ppst"), 0);
    assert_eq!(orders(&e, "U2"), ["5 STUDY ppst"], "waits for a teacher");
    assert_eq!(points(&e, "U4", "airs"), 5 * 120);
    assert_eq!(points(&e, "U5", "airs"), 5 * 100);
    // Ann at 8900 points of ppst (1st level; 2nd at 9000): a leader's limit in magic
    // is 1st level, the title's one more; she reaches 2nd and stops there.
    let ann = mage("U1", "Ann", "L1", r#"("mage", 3000), ("eart", 18000), ("ppst", 8900)"#);
    let alone = world(&ann, "")
        .replace(r#"population: 1000),"#, r#"population: 1000, titles: [(title: "emag", holder: Some("U1"))]),"#);
    let mut e = engine_without_money(scenario(&alone));
    run_month(&mut e, &["GAME fa pa\nUNIT U1\n@STUDY ppst\n"]);
    assert_eq!(points(&e, "U1", "ppst"), 8900 + 120, "one day, then the limit: {:?}", events(&e, "U1"));
    assert!(orders(&e, "U1").is_empty(), "the @STUDY ends at the limit");
    assert!(events(&e, "U1").iter().any(|x| x == "1: Achieves 2nd permanent post [ppst]."));
}
