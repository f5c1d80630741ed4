//! The generals order language and its checker (docs/generals.md ruling 2; seed
//! 35-60, 142): what each line reads as, and every problem named by line.

use super::check::check;
use super::{Action, Entry, OrderFile, Overtax, Words};
use crate::core::orders::check::Severity;
use crate::core::orders::mail::parse_mail;
use crate::systems::generals::data::Scenario;
use crate::systems::generals::fixture::{a_row, rules};

fn read(text: &str) -> OrderFile {
    let words = Words::new(&rules());
    let mail = parse_mail(&format!("GAME p1 pw\n{text}END\n"), &words).unwrap();
    mail.orders.into_iter().next().unwrap()
}

fn entry(line: &str) -> Result<Entry, String> {
    Words::new(&rules()).read(line)
}

/// The problems of `text` as p1's orders on `state`: (line, error?, message).
fn problems_in(state: &Scenario, text: &str) -> Vec<(usize, bool, String)> {
    check(&rules(), state, "p1", &read(text))
        .problems
        .into_iter()
        .map(|p| (p.line, p.severity == Severity::Error, p.message))
        .collect()
}

fn problems(text: &str) -> Vec<(usize, bool, String)> {
    problems_in(&a_row(), text)
}

#[test]
fn each_order_reads_as_the_spec_writes_it() {
    let g = |action: Option<Action>, raise: &[&str]| {
        Ok(Entry::General { general: "Ann".into(), action, raise: raise.iter().map(|s| s.to_string()).collect() })
    };
    let ids = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        entry("GENERAL \"Ann\": TRAVEL R3 VIA R2"),
        g(Some(Action::Travel { to: "R3".into(), via: ids(&["R2"]) }), &[])
    );
    assert_eq!(
        entry("general “Ann”: move T1 to R3"),
        g(Some(Action::Move { troops: ids(&["T1"]), to: "R3".into(), via: vec![] }), &[])
    );
    assert_eq!(
        entry("GENERAL \"Ann\": ATTACK R4 WITH T1 T2 AS flank"),
        g(Some(Action::Attack { region: "R4".into(), troops: ids(&["T1", "T2"]), order: "flan".into() }), &[])
    );
    assert_eq!(
        entry("GENERAL \"Ann\": RECRUIT 40 archers"),
        g(Some(Action::Recruit { men: 40, troop: "arch".into() }), &[])
    );
    assert_eq!(
        entry("GENERAL \"Ann\": RECRUIT 5 heavy infantry"),
        g(Some(Action::Recruit { men: 5, troop: "heav".into() }), &[])
    );
    assert_eq!(entry("GENERAL \"Ann\": PREPARE"), g(Some(Action::Prepare), &[]));
    assert_eq!(
        entry("GENERAL \"Ann\": REST LEARN master-tactician"),
        g(Some(Action::Rest { learn: Some("tact".into()) }), &[])
    );
    assert_eq!(
        entry("GENERAL \"Ann\": TRAIN \"Cid the Bold\""),
        g(Some(Action::Train { name: "Cid the Bold".into() }), &[])
    );
    // RAISE with an action, or alone (seed 142: "at any time").
    assert_eq!(entry("GENERAL \"Ann\": PREPARE RAISE healer insp"), g(Some(Action::Prepare), &["heal", "insp"]));
    assert_eq!(entry("GENERAL \"Ann\": RAISE heal"), g(None, &["heal"]));
    assert_eq!(
        entry("GENERAL \"Ann\": CHAMPION T1"),
        Ok(Entry::Champion { general: "Ann".into(), troop: "T1".into() })
    );
    assert_eq!(
        entry("REGION R2: withdraw REARGUARD T2"),
        Ok(Entry::Defense { region: "R2".into(), order: "with".into(), rearguard: ids(&["T2"]) })
    );
    assert_eq!(
        entry("OVERTAX R1 INCOME 2"),
        Ok(Entry::Overtax { region: "R1".into(), kind: Overtax::Income, steps: 2 })
    );
    assert_eq!(entry("overtax R1 hire 1"), Ok(Entry::Overtax { region: "R1".into(), kind: Overtax::Hire, steps: 1 }));
}

#[test]
fn lines_that_cannot_be_read_say_why() {
    for (line, why) in [
        ("GENERAL Ann TRAVEL R3", "the general's name, then ':'"),
        ("GENERAL Ann TRAVEL: R3", "'R3' is not an action"),
        ("GENERAL \"Ann: TRAVEL R3", "no closing quote"),
        ("GENERAL \"Ann\": DANCE", "'DANCE' is not an action"),
        ("GENERAL \"Ann\": MOVE TO R3", "MOVE needs the troop units"),
        ("GENERAL \"Ann\": ATTACK R4 T1 AS FIELD", "ATTACK needs WITH"),
        ("GENERAL \"Ann\": ATTACK R4 WITH T1 AS CHARGE", "no battle order 'CHARGE'"),
        ("GENERAL \"Ann\": RECRUIT many archers", "a whole number"),
        ("GENERAL \"Ann\": RECRUIT 5 dragons", "no troop type 'dragons'"),
        ("GENERAL \"Ann\": REST LEARN flying", "no skill 'flying'"),
        ("GENERAL \"Ann\": TRAVEL R3 BY R2", "does not expect 'BY'"),
        ("REGION R2 FORTIFY", "REGION needs the region, then ':'"),
        ("OVERTAX R1 GOLD 2", "INCOME or HIRE, not 'GOLD'"),
        ("OVERTAX R1 INCOME 0", "at least one step"),
        ("MARCH R3", "'MARCH' is not an order"),
    ] {
        let e = entry(line).unwrap_err();
        assert!(e.contains(why), "{line}: {e}");
    }
}

#[test]
fn a_sound_file_has_no_problems_and_counts_what_it_holds() {
    let text = "GENERAL \"Ann\": MOVE T1 TO R3\nREGION R2: FORTIFY\nOVERTAX R3 INCOME 1\n";
    let c = check(&rules(), &a_row(), "p1", &read(text));
    assert!(c.problems.is_empty(), "{:?}", c.problems);
    assert_eq!(c.summary(), "1 general's action, 1 defensive order, 1 overtax order: 0 errors, 0 warnings");
}

#[test]
fn movement_goes_through_the_players_own_regions_within_its_reach() {
    // TRAVEL anywhere through own regions (seed 37-38); MOVE at most 2 (seed 40-41).
    assert!(problems("GENERAL \"Ann\": TRAVEL R3\n").is_empty());
    let p = problems("GENERAL \"Ann\": TRAVEL R4\n");
    assert_eq!(p[0], (2, true, "no way from R1 to R4 through your own regions".into()));
    let p = problems("GENERAL \"Ann\": TRAVEL R3 VIA R6\n");
    assert!(p[0].2.contains("R6 is not yours") || p[0].2.contains("not next to"), "{p:?}");
    // Three regions away is too far for an army, though all are p1's.
    let mut s = a_row();
    s.troops.push(crate::systems::generals::fixture::troop("T4", "p1", "R4"));
    let p = problems_in(&s, "GENERAL \"Ann\": MOVE T1 TO R4\n");
    assert!(p[0].2.contains("at most 2 regions"), "{p:?}");
    let p = problems_in(&s, "GENERAL \"Ann\": MOVE T1 TO R4 VIA R2 R3\n");
    assert!(p[0].2.contains("at most 2 regions, and this route is 3"), "{p:?}");
    // Only troops of the general's region.
    let p = problems("GENERAL \"Ann\": MOVE T2 TO R3\n");
    assert_eq!(p[0].2, "T2 is in R2, not R1");
    let p = problems("GENERAL \"Ann\": MOVE T5 TO R2\n");
    assert_eq!(p[0].2, "T5 is not yours");
}

#[test]
fn an_attack_goes_next_door_with_an_offensive_order() {
    let mut s = a_row();
    s.generals[0].region = "R3".into();
    assert!(
        problems_in(&s, "GENERAL \"Ann\": ATTACK R4 WITH T3 AS FIELD\n").is_empty(),
        "an empty region may be taken"
    );
    let p = problems_in(&s, "GENERAL \"Ann\": ATTACK R5 WITH T3 AS FIELD\n");
    assert_eq!(p[0].2, "R5 is not next to R3");
    let p = problems_in(&s, "GENERAL \"Ann\": ATTACK R2 WITH T3 AS FIELD\n");
    assert_eq!(p[0].2, "R2 is yours: MOVE there");
    let p = problems_in(&s, "GENERAL \"Ann\": ATTACK R4 WITH T3 AS FORTIFY\n");
    assert_eq!(p[0].2, "FORT is not an offensive order");
}

#[test]
fn one_action_per_general_and_one_defensive_order_per_region_naming_both_lines() {
    let p = problems("GENERAL \"Ann\": PREPARE\nGENERAL \"Ann\": REST\nREGION R1: FIELD\nREGION r1: SKIRMISH\n");
    assert_eq!(p[0], (3, true, "Ann has an action already (line 2): one action per general".into()));
    assert_eq!(p[1], (5, true, "R1 has a defensive order already (line 4)".into()));
    // RAISE is not an action.
    let mut s = a_row();
    s.generals[0].renown = 10;
    assert!(problems_in(&s, "GENERAL \"Ann\": PREPARE\nGENERAL \"Ann\": RAISE heal\n").is_empty());
    // A general with no action rests, and is told so.
    let p = problems("REGION R1: FIELD\n");
    assert_eq!(p, [(0, false, "Ann has no action this turn: R and R".into())]);
}

#[test]
fn recruiting_stays_within_the_hire_limit_as_overtax_leaves_it() {
    // Seed 46-47, 60; ruling 12: 30 archers are 60 points, over the limit of 50;
    // converting 1 income raises it to 60 for the turn, written before or after.
    let p = problems("GENERAL \"Ann\": RECRUIT 30 archers\n");
    assert!(p[0].1 && p[0].2.contains("60 points, over what R1's hire limit leaves (50 of 50)"), "{p:?}");
    assert!(problems("OVERTAX R1 INCOME 1\nGENERAL \"Ann\": RECRUIT 30 archers\n").is_empty());
    assert!(problems("GENERAL \"Ann\": RECRUIT 30 archers\nOVERTAX R1 INCOME 1\n").is_empty());
    // Generals recruiting in one region share its limit.
    let mut s = a_row();
    s.generals.push(crate::systems::generals::fixture::general("Cid", "p1", "R1"));
    let p = problems_in(&s, "GENERAL \"Ann\": RECRUIT 20 archers\nGENERAL \"Cid\": RECRUIT 11 militia\n");
    assert_eq!(p[0].0, 3);
    assert!(p[0].2.contains("11 points, over what R1's hire limit leaves (10 of 50)"), "{p:?}");
    // The limit counts the turn's recovery: 38 now, 43 after it.
    let mut s = a_row();
    s.regions[0].hire_limit = (38, 50);
    assert!(problems_in(&s, "GENERAL \"Ann\": RECRUIT 43 militia\n").is_empty());
    assert!(!problems_in(&s, "GENERAL \"Ann\": RECRUIT 44 militia\n").is_empty());
    let p = problems("GENERAL \"Ann\": RECRUIT 5 cavalry\n");
    assert_eq!(p[0].2, "R1 offers no cava for hire");
    // Income and hire limit never go below 0.
    let p = problems("OVERTAX R1 INCOME 11\n");
    assert_eq!(p[0].2, "R1's income is 10: it cannot go below 0");
    let p = problems("OVERTAX R1 HIRE 3\nOVERTAX R1 HIRE 3\n");
    assert_eq!(p[0], (3, true, "R1's hire limit is 20: it cannot go below 0".into()));
    // More than the treasury holds is a warning: this turn's income comes first.
    let mut s = a_row();
    s.players[0].treasury = 10;
    let p = problems_in(&s, "GENERAL \"Ann\": RECRUIT 20 archers\n");
    assert!(!p[0].1, "a warning: {p:?}");
}

#[test]
fn skills_are_bought_with_renown_refused_whole_when_it_does_not_reach() {
    // Seed 142, ruling 9: a new skill 5 (during REST), raising to level n costs 5 × n.
    let mut s = a_row();
    s.generals[0].renown = 15;
    assert!(problems_in(&s, "GENERAL \"Ann\": REST LEARN tact RAISE heal\n").is_empty(), "5 + 10 = 15");
    let p = problems_in(&s, "GENERAL \"Ann\": REST LEARN tact RAISE heal insp\n");
    assert_eq!(p[0].2, "Ann has 15 renown and this costs 25: nothing would be bought");
    let p = problems_in(&s, "GENERAL \"Ann\": REST LEARN heal\n");
    assert_eq!(p[0].2, "Ann knows heal already: RAISE it");
    let p = problems_in(&s, "GENERAL \"Ann\": RAISE tact\n");
    assert_eq!(p[0].2, "Ann does not know tact: learn it with REST LEARN");
}

#[test]
fn a_new_general_only_moves_and_names_are_unique() {
    let mut s = a_row();
    s.generals[0].new = true;
    let p = problems_in(&s, "GENERAL \"Ann\": PREPARE\n");
    assert_eq!(p[0].2, "Ann was trained this turn: he may only move");
    let p = problems("GENERAL \"Ann\": TRAIN \"Bob\"\n");
    assert_eq!(p[0].2, "a general is named 'Bob' already");
    let p = problems("GENERAL \"Bob\": PREPARE\n");
    assert_eq!(p[0].2, "you have no general 'Bob'");
}

#[test]
fn defensive_orders_only_in_own_regions_and_rearguards_only_to_withdraw() {
    let p = problems("REGION R5: FORTIFY\n");
    assert_eq!(p[0].2, "R5 is not yours");
    let p = problems("REGION R1: FLANK\n");
    assert_eq!(p[0].2, "FLAN is not a defensive order");
    let p = problems("REGION R1: FIELD REARGUARD T1\n");
    assert_eq!(p[0].2, "a REARGUARD stays behind only when the region withdraws");
    assert!(problems("REGION R1: WITHDRAW REARGUARD T1\n").iter().all(|p| !p.1), "no error");
    let p = problems("REGION R2: WITHDRAW REARGUARD T1\n");
    assert_eq!(p[0].2, "T1 is in R1, not R2");
}

#[test]
fn mutated_order_files_never_panic_the_reader_the_checker_or_a_turn() {
    // Bad input gets line-numbered errors, never a panic: the demo's sample orders,
    // mutated byte by byte (dropped, doubled, swapped, replaced with a character
    // orders use), read, checked and played.
    use crate::core::engine::rng::stream;
    use crate::core::orders::mail::parse_mail;
    use rand::RngExt;
    let rules = crate::systems::generals::fixture::rules();
    let words = Words::new(&rules);
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/generals-demo");
    let state = crate::systems::generals::data::load::load_scenario(&dir).unwrap();
    let samples: Vec<String> =
        (1..=4).map(|p| std::fs::read_to_string(dir.join(format!("orders/p{p}.txt"))).unwrap()).collect();
    let alphabet = b" \n\"':RTGMAXEVCLIN0123456789-";
    let mut rng = stream(1, 0, "mutations", 0);
    let (mut read, mut lines) = (0, 0);
    for round in 0..2000 {
        let mut files = Vec::new();
        for text in &samples {
            let mut b = text.clone().into_bytes();
            for _ in 0..rng.random_range(1..6) {
                let i = rng.random_range(0..b.len());
                match rng.random_range(0..4) {
                    0 => {
                        b.remove(i);
                    }
                    1 => {
                        let c = b[i];
                        b.insert(i, c);
                    }
                    2 => {
                        let j = rng.random_range(0..b.len());
                        b.swap(i, j);
                    }
                    _ => b[i] = alphabet[rng.random_range(0..alphabet.len())],
                }
            }
            let text = String::from_utf8_lossy(&b).into_owned();
            let Ok(mail) = parse_mail(&text, &words) else { continue };
            for f in mail.orders {
                let player = state.players.iter().find(|p| p.id.eq_ignore_ascii_case(&f.header.faction));
                if let Some(p) = player {
                    let c = check(&rules, &state, &p.id, &f);
                    lines += c.problems.len();
                    read += 1;
                    files.push(f);
                }
            }
        }
        if round % 10 == 0 {
            let mut g = crate::systems::generals::fixture::play(state.clone());
            g.engine.submit(files);
            g.engine.run_turn(|_, _| {});
        }
    }
    assert!(read > 4000 && lines > 2000, "{read} files read, {lines} problems named");
}
