//! Fuzzing: whatever arrives, no panic and no hang (docs/reliability.md, "Fuzzing").
//!
//! Each target runs a short, fixed budget of seeded cases in the ordinary test run;
//! `OVERLORD_FUZZ_CASES` and `OVERLORD_FUZZ_SEED` make a longer or another run, and a
//! failing case is saved under `target/fuzz-failures/` for `OVERLORD_FUZZ_REPLAY`.
//! Run with `--profile fuzz` (overflow checks on), numbers that wrap fail too.

mod common;

use common::fuzz::{HANG, fuzz, mutate, within};
use common::root;
use overlord::core::data::{ronpos, ronread};
use overlord::core::engine::{Engine, Threads};
use overlord::core::game::GameDir;
use overlord::systems::overlord::Overlord;
use overlord::systems::overlord::data::{self, RuleSet, Scenario};
use overlord::systems::overlord::generate::{Options, generate};
use overlord::systems::overlord::orders::syntax::Keyword;
use overlord::systems::overlord::world::Catalog;
use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use std::sync::{Arc, OnceLock};

fn rules() -> Arc<RuleSet> {
    static R: OnceLock<Arc<RuleSet>> = OnceLock::new();
    R.get_or_init(|| Arc::new(data::load_ruleset(&root().join("assets/rules/overlord")).unwrap())).clone()
}

/// A small generated world: every kind of terrain, market, race and skill the
/// generator draws from the bundled rule set, 3 player factions and 40 units.
fn small_world() -> Scenario {
    let o = Options { locations: 12, factions: 3, units: 40, seed: 5 };
    generate(&rules(), "overlord", &o).unwrap()
}

/// Words of the Overlord order language and of `state`: keywords, ids, tags.
fn vocabulary(state: &Scenario, rules: &RuleSet) -> Vec<String> {
    let mut d: Vec<String> = Keyword::ALL.iter().map(|k| k.text().to_string()).collect();
    d.extend(state.units.iter().take(200).map(|u| u.id.clone()));
    d.extend(state.locations.iter().take(50).map(|l| l.id.clone()));
    d.extend(state.structures.iter().take(20).map(|s| s.id.clone()));
    d.extend(state.factions.iter().map(|f| format!("{}nU01", f.id)));
    d.extend(state.factions.iter().map(|f| f.id.clone()));
    d.extend(rules.items.iter().take(40).map(|i| i.tag.clone()));
    d.extend(rules.skills.iter().take(60).map(|s| s.tag.clone()));
    d.extend(rules.races.iter().take(20).map(|r| r.tag.clone()));
    d.extend(rules.movement.directions.iter().map(|x| x.tag.clone()));
    d.extend(
        ["ally", "friendly", "neutral", "hostile", "enemy", "\"A name\"", "D12", "@", "-", "+", "10"].map(String::from),
    );
    d
}

/// A random order file for `faction` of `state`: unit blocks of orders built from
/// the vocabulary, with prefixes and argument words, often unreadable on purpose.
fn order_file(rng: &mut ChaCha8Rng, state: &Scenario, faction: usize, words: &[String]) -> String {
    let f = &state.factions[faction];
    let mut text = format!("GAME {} {} {}\n", f.id, f.password, state.game.name);
    let mine: Vec<&str> = state.units.iter().filter(|u| u.faction == f.id).map(|u| u.id.as_str()).collect();
    for _ in 0..rng.random_range(0..4) {
        let k = ["NAME \"x\"", "EMAIL a@b", "SETTING TERSE", "PASSWORD \"new\"", "RESHOW", "ADVERTISE"];
        text.push_str(k[rng.random_range(0..k.len())]);
        text.push('\n');
    }
    for _ in 0..rng.random_range(1..8) {
        let unit = if !mine.is_empty() && rng.random_range(0..6) > 0 {
            mine[rng.random_range(0..mine.len())].to_string()
        } else {
            words[rng.random_range(0..words.len())].clone()
        };
        text.push_str(&format!("UNIT {unit}\n"));
        for _ in 0..rng.random_range(0..7) {
            let prefix = ["", "", "", "@", "-", "--", "+", "D5 ", "3 ", "@D2 "][rng.random_range(0..10)];
            let k = Keyword::ALL[rng.random_range(0..Keyword::ALL.len())].text();
            text.push_str(prefix);
            text.push_str(k);
            for _ in 0..rng.random_range(0..5) {
                text.push(' ');
                text.push_str(&words[rng.random_range(0..words.len())]);
            }
            text.push('\n');
        }
    }
    // Orders that fit where a unit stands: recruits of a race offered there,
    // goods its market trades, a way out of it, so that what a check says of the
    // place (offers, market, exits) is said of real entries, not only of strangers.
    let units: Vec<&overlord::systems::overlord::data::Unit> =
        state.units.iter().filter(|u| u.faction == f.id).collect();
    for _ in 0..rng.random_range(0..3) {
        if units.is_empty() {
            break;
        }
        let u = units[rng.random_range(0..units.len())];
        let Some(here) = state.locations.iter().find(|l| l.id == u.location) else { continue };
        text.push_str(&format!("UNIT {}\n", u.id));
        let pick = |rng: &mut ChaCha8Rng, n: usize| (n > 0).then(|| rng.random_range(0..n));
        if let Some(i) = pick(rng, here.recruits.len()) {
            let n = rng.random_range(0..3);
            text.push_str(&format!(
                "RECRUIT {}nU{:02} {n} {} 0\n",
                f.id,
                rng.random_range(1..4),
                here.recruits[i].race
            ));
        }
        if let Some(i) = pick(rng, here.market.sells.len()) {
            text.push_str(&format!("BUY 1 {}\n", here.market.sells[i].item));
        }
        if let Some(i) = pick(rng, here.market.buys.len()) {
            text.push_str(&format!("SELL 1 {}\n", here.market.buys[i].item));
        }
        if let Some(i) = pick(rng, here.exits.len()) {
            text.push_str(&format!("MOVE {}\n", here.exits[i].dir));
        }
    }
    text
}

#[test]
fn order_files_are_read_and_checked_without_panic() {
    // The alpha sample orders, mutated (bytes, words, lines), read as mail and
    // checked against the alpha world.
    let state = data::load_scenario(&root().join("scenarios/alpha")).unwrap();
    let catalog = Catalog::new(rules());
    let samples = common::alpha_orders();
    let words = vocabulary(&state, &rules());
    fuzz(
        "orders",
        3000,
        |rng| {
            let base = &samples[rng.random_range(0..samples.len())];
            let rounds = rng.random_range(1..12);
            mutate(rng, base, &words, rounds)
        },
        |text| {
            let Ok(mail) = overlord::systems::overlord::orders::parse_mail(text, &catalog) else { return };
            for file in &mail.orders {
                let _ = file.problems();
                let faction = state.factions.iter().find(|f| f.id.eq_ignore_ascii_case(&file.header.faction));
                if let Some(f) = faction {
                    let c = overlord::systems::overlord::check::check(file, &f.id, &state, &catalog);
                    let _ = c.summary();
                }
            }
        },
    );
}

#[test]
fn mail_is_taken_in_and_answered_without_panic() {
    // Whole mails (orders, articles, report requests, in any order and mutated)
    // through the game folder's mail reader, which checks passwords and files
    // articles; nothing is stored (`check`).
    let t = tempfile::tempdir().unwrap();
    let scenario = t.path().join("scenario");
    overlord::systems::overlord::generate::write_scenario(&scenario, &small_world()).unwrap();
    let game = t.path().join("game");
    GameDir::create::<Overlord>(&scenario, Some(&root().join("assets/rules/overlord")), &game).unwrap();
    let g = GameDir::open(&game).unwrap();
    let state = small_world();
    let words = vocabulary(&state, &rules());
    let generals =
        overlord::systems::generals::data::load::load_ruleset(&root().join("assets/rules/generals")).unwrap();
    let generals_words = overlord::systems::generals::orders::Words::new(&generals);
    fuzz(
        "mail",
        40,
        |rng| {
            let mut text = String::new();
            for _ in 0..rng.random_range(1..4) {
                let f = rng.random_range(0..state.factions.len());
                let (id, pw) = (&state.factions[f].id, &state.factions[f].password);
                match rng.random_range(0..4) {
                    0 => text.push_str(&format!("PRESS {id} {pw}\nA fine day.\n")),
                    1 => text.push_str(&format!("RUMOR {id} {pw}\nThey say.\n")),
                    2 => text.push_str(&format!("REPORT {id} {pw} {}\n", rng.random_range(0..3))),
                    _ => text.push_str(&order_file(rng, &state, f, &words)),
                }
            }
            let rounds = rng.random_range(0..6);
            mutate(rng, &text, &words, rounds)
        },
        |text| {
            let _ = g.check_mail::<Overlord>(text);
            let _ = overlord::core::orders::mail::parse_mail(text, &generals_words);
        },
    );
}

/// Files of the rule set and of a scenario, by the field each fills.
macro_rules! swap_rule_file {
    ($rules:expr, $file:expr, $text:expr, $then:expr, $($name:literal => $field:ident),* $(,)?) => {
        match $file {
            "plan.ron" => match overlord::core::engine::plan::TurnPlan::from_ron($text, "plan.ron") {
                Ok(mut v) => {
                    std::mem::swap(&mut $rules.plan, &mut v);
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| $then(&mut *$rules)));
                    std::mem::swap(&mut $rules.plan, &mut v);
                    if let Err(p) = r {
                        std::panic::resume_unwind(p);
                    }
                }
                Err(_) => {}
            },
            $($name => {
                if let Some(mut v) = read_both($text) {
                    std::mem::swap(&mut $rules.$field, &mut v);
                    // The rule set is put back even when the case fails.
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| $then(&mut *$rules)));
                    std::mem::swap(&mut $rules.$field, &mut v);
                    if let Err(p) = r {
                        std::panic::resume_unwind(p);
                    }
                }
            })*
            other => panic!("no rule file {other}"),
        }
    };
}

/// Reads `text` as rule file `file` into `rules`, calls `then`, and puts the file
/// back; a text that does not parse calls nothing.
fn with_rule_file(rules: &mut RuleSet, file: &str, text: &str, then: impl FnOnce(&mut RuleSet)) {
    swap_rule_file!(rules, file, text, then,
        "ruleset.ron" => info, "movement.ron" => movement, "equipment.ron" => equipment_slots,
        "climate.ron" => climate, "terrains.ron" => terrains, "races.ron" => races, "items.ron" => items,
        "skills.ron" => skills, "constructions.ron" => constructions, "titles.ron" => titles,
        "enchantments.ron" => enchantments, "diplomacy.ron" => stances, "combat.ron" => combat,
        "events.ron" => events, "economy.ron" => economy, "starts.ron" => starts,
    );
}

/// Reads `text` with `ron`, and with the engine's fast reader of the saved layout,
/// which must read the same value whenever it reads one (else it must give up and
/// leave the text to `ron`).
fn read_both<T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(text: &str) -> Option<T> {
    let slow = ron::Options::default().from_str::<T>(text).ok();
    if let Some(fast) = ronread::from_str::<T>(text) {
        assert_eq!(Some(&fast), slow.as_ref(), "the fast RON reader reads what ron does not");
    }
    slow
}

/// Reads `text` as state file `file` into a copy of `base`.
fn with_state_file(base: &Scenario, file: &str, text: &str) -> Option<Scenario> {
    let mut s = base.clone();
    match file {
        "game.ron" => s.game = read_both(text)?,
        "factions.ron" => s.factions = read_both(text)?,
        "locations.ron" => s.locations = read_both(text)?,
        "structures.ron" => s.structures = read_both(text)?,
        "units.ron" => s.units = read_both(text)?,
        other => panic!("no state file {other}"),
    }
    Some(s)
}

/// Files by name, with their text.
type Files = Vec<(String, String)>;

/// The rule set's files as text, and the small world's state files.
fn data_files() -> (Files, Files) {
    let dir = root().join("assets/rules/overlord");
    let mut rules: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read_to_string(e.path()).unwrap()))
        .collect();
    rules.sort();
    let state = data::scenario_files(&small_world())
        .unwrap()
        .into_iter()
        .map(|(n, b)| (n.to_string(), String::from_utf8(b).unwrap()))
        .collect();
    (rules, state)
}

/// Validates `rules` and `state`, finds the line of every issue in the file that
/// was changed, and when both are valid plays a month on them against the hang
/// limit. Returns whether the month was played.
fn validate_and_play(rules: &RuleSet, state: &Scenario, changed: Option<(&str, &str)>, play: bool) -> bool {
    let issues = data::validate::validate(rules, state);
    if let Some((file, text)) = changed {
        for i in issues.iter().filter(|i| i.file == file) {
            let _ = ronpos::locate(text, &i.path);
        }
    }
    if !play || issues.iter().any(|i| i.severity == overlord::core::diag::Severity::Error) {
        return false;
    }
    let (rules, state) = (Arc::new(rules.clone()), state.clone());
    within(HANG, move || {
        // The plan is checked when the engine is built: a refusal is an answer.
        let Ok(mut e) = Engine::<Overlord>::new(rules, state, Threads::One) else { return false };
        e.run_turn(|_, _| {});
        let _ = e.reports();
        true
    })
}

#[test]
fn ron_files_are_read_and_validated_without_panic() {
    // One file of the rule set or of a small world's state, mutated, read, validated
    // (every issue located in the text), and when still valid, a month played on it.
    let (rule_files, state_files) = data_files();
    let base = small_world();
    let bundled = rules();
    let mut rules = (*bundled).clone();
    let words: Vec<String> = vocabulary(&base, &rules).into_iter().map(|w| format!("\"{w}\"")).collect();
    fuzz(
        "ron",
        400,
        |rng| {
            let (name, text) = if rng.random_range(0..2) == 0 {
                &state_files[rng.random_range(0..state_files.len())]
            } else {
                &rule_files[rng.random_range(0..rule_files.len())]
            };
            let rounds = rng.random_range(1..4);
            format!("{name}\n{}", mutate(rng, text, &words, rounds))
        },
        |input| {
            let (name, text) = input.split_once('\n').unwrap_or((input, ""));
            if state_files.iter().any(|f| f.0 == name) {
                if let Some(s) = with_state_file(&base, name, text) {
                    validate_and_play(&bundled, &s, Some((name, text)), true);
                }
            } else {
                // A month is played on one valid mutated rule set in ten: copying
                // the rule set costs more than reading it.
                let play = text.len() % 10 == 0;
                with_rule_file(&mut rules, name, text, |r| {
                    validate_and_play(r, &base, Some((name, text)), play);
                });
            }
        },
    );
}

#[test]
fn extreme_rule_values_neither_hang_nor_overflow() {
    // Every numeric field of the rule set and of the state, one field name of one
    // file at a time, set to 0, 2^32-1 and 2^64-1 everywhere in that file: what
    // still reads and validates must play a month in time. The short run takes a
    // seeded sample of the fields; OVERLORD_FUZZ_CASES=100000 takes them all.
    let (rule_files, state_files) = data_files();
    let mut cases: Vec<(String, String, &'static str)> = Vec::new();
    for (file, text) in rule_files.iter().chain(&state_files) {
        let mut fields: Vec<&str> = text
            .lines()
            .filter_map(|l| {
                let (k, v) = l.trim().split_once(": ")?;
                let v = v.trim_end_matches(',');
                (v.parse::<i64>().is_ok() && k.chars().all(|c| c.is_ascii_lowercase() || c == '_')).then_some(k)
            })
            .collect();
        fields.sort();
        fields.dedup();
        for f in fields {
            for v in ["0", "4294967295", "18446744073709551615"] {
                cases.push((file.clone(), f.to_string(), v));
            }
        }
    }
    // A seeded order of the cases: the short run takes the first ones, a run of
    // `total` cases or more takes every one.
    let total = cases.len();
    let mut rng = overlord::core::engine::rng::stream(common::fuzz::Budget::of(0).seed, 0, "extremes order", 0);
    for i in (1..total).rev() {
        cases.swap(i, rng.random_range(0..=i));
    }
    let mut next = 0;
    let base = small_world();
    let bundled = rules();
    let mut rules = (*bundled).clone();
    let played = std::cell::Cell::new(0usize);
    fuzz(
        "extremes",
        24,
        |_| {
            let (file, field, value) = &cases[next % total];
            next += 1;
            let text =
                if let Some((_, t)) = rule_files.iter().chain(&state_files).find(|f| &f.0 == file) { t } else { "" };
            let changed: Vec<String> = text
                .lines()
                .map(|l| match l.trim().split_once(": ") {
                    Some((k, v)) if k == field && v.trim_end_matches(',').parse::<i64>().is_ok() => {
                        let indent = &l[..l.len() - l.trim_start().len()];
                        format!("{indent}{k}: {value},")
                    }
                    _ => l.to_string(),
                })
                .collect();
            format!("{file}\n{}", changed.join("\n"))
        },
        |input| {
            let (name, text) = input.split_once('\n').unwrap_or((input, ""));
            if state_files.iter().any(|f| f.0 == name) {
                if let Some(s) = with_state_file(&base, name, text)
                    && validate_and_play(&bundled, &s, Some((name, text)), true)
                {
                    played.set(played.get() + 1);
                }
            } else {
                with_rule_file(&mut rules, name, text, |r| {
                    if validate_and_play(r, &base, Some((name, text)), true) {
                        played.set(played.get() + 1);
                    }
                });
            }
        },
    );
    eprintln!("fuzz extremes: {total} (file, field, value) cases in all; {} months played", played.get());
}

#[test]
fn a_check_through_the_mail_index_says_what_the_whole_state_says() {
    // FILE-CHECK at mail speed: random order files (orders of every keyword with
    // ids, tags and words, mutated) checked against the state the mail index gives
    // and against the whole state, on a generated world and on the alpha world.
    use overlord::core::game::index::{self, FactionRecord, GameRecord, SystemLookup};
    use overlord::systems::overlord::check::{check, records};
    let worlds: Vec<Scenario> = vec![small_world(), data::load_scenario(&root().join("scenarios/alpha")).unwrap()];
    let indexes: Vec<index::Records> = worlds
        .iter()
        .map(|w| {
            let g = GameRecord { name: w.game.name.clone(), title: w.game.title.clone(), turn: w.game.turn };
            let factions = w.factions.iter().map(|f| FactionRecord {
                id: f.id.clone(),
                name: f.name.clone(),
                password: f.password.clone(),
                email: f.email.clone(),
            });
            index::records(g, &records::mail_rules(&rules()), factions, |out| records::records(w, out)).unwrap()
        })
        .collect();
    let vocabularies: Vec<Vec<String>> = worlds.iter().map(|w| vocabulary(w, &rules())).collect();
    let catalog = Catalog::new(rules());
    // The mail path reads and checks with the rule set the index keeps.
    let kept = Catalog::new(Arc::new(records::mail_rules(&rules())));
    let problems = std::cell::Cell::new(0usize);
    fuzz(
        "mail_index",
        3000,
        |rng| {
            let w = rng.random_range(0..worlds.len());
            let f = rng.random_range(0..worlds[w].factions.len());
            let file = order_file(rng, &worlds[w], f, &vocabularies[w]);
            let rounds = rng.random_range(0..3);
            format!("{w}\n{}", mutate(rng, &file, &vocabularies[w], rounds))
        },
        |input| {
            let Some((w, text)) = input.split_once('\n') else { return };
            let Some(w) = w.parse::<usize>().ok().filter(|&w| w < worlds.len()) else { return };
            let read = overlord::systems::overlord::orders::parse_mail(text, &catalog);
            let read_kept = overlord::systems::overlord::orders::parse_mail(text, &kept);
            assert_eq!(read.is_ok(), read_kept.is_ok());
            let (Ok(mail), Ok(mail_kept)) = (read, read_kept) else { return };
            for (file, file_kept) in mail.orders.iter().zip(&mail_kept.orders) {
                let Some(f) = worlds[w].factions.iter().find(|f| f.id.eq_ignore_ascii_case(&file.header.faction))
                else {
                    continue;
                };
                let whole = check(file, &f.id, &worlds[w], &catalog);
                let part = records::state(&SystemLookup::new(&indexes[w]), &f.id, file_kept).unwrap();
                assert_eq!(check(file_kept, &f.id, &part, &kept), whole, "faction {}", f.id);
                problems.set(problems.get() + whole.problems.len());
            }
        },
    );
    // The harness is not vacuous: the checks found things to say.
    eprintln!("fuzz mail_index: {} problems said alike", problems.get());
    assert!(problems.get() > 0 || std::env::var_os("OVERLORD_FUZZ_REPLAY").is_some());
}

#[test]
fn whole_turns_from_random_orders_leave_a_valid_state() {
    // Random order files for every player faction of a small world (keywords of
    // every order, ids, tags and hostile words), mutated, then a whole month: no
    // panic, no hang, and the state it leaves validates.
    let base = small_world();
    let words = vocabulary(&base, &rules());
    let players: Vec<usize> = (0..base.factions.len()).filter(|&i| !base.factions[i].password.is_empty()).collect();
    let given = std::cell::Cell::new(0usize);
    fuzz(
        "turns",
        60,
        |rng| {
            let mut mail = String::new();
            for &f in &players {
                let file = order_file(rng, &base, f, &words);
                let rounds = rng.random_range(0..3);
                mail.push_str(&mutate(rng, &file, &words, rounds));
                mail.push_str("\n\u{1e}\n");
            }
            mail
        },
        |input| {
            let (rules, state, input) = (rules(), base.clone(), input.to_string());
            let (issues, orders) = within(HANG, move || {
                let mut e = Engine::<Overlord>::new(rules.clone(), state, Threads::One).unwrap();
                let files: Vec<_> = input.split("\n\u{1e}\n").filter_map(|t| e.parse(t).ok()).collect();
                let orders: usize = files.iter().flat_map(|f| &f.units).map(|b| b.orders.len()).sum();
                e.submit(files);
                e.run_turn(|_, _| {});
                let _ = e.reports();
                (data::validate::validate(&rules, &e.state()), orders)
            });
            given.set(given.get() + orders);
            assert!(issues.is_empty(), "the state after the month does not validate: {issues:?}");
        },
    );
    // The harness is not vacuous: the files reached the units.
    eprintln!("fuzz turns: {} order lines given", given.get());
    assert!(given.get() > 0 || std::env::var_os("OVERLORD_FUZZ_REPLAY").is_some());
}

#[test]
fn generals_extreme_values_neither_hang_nor_overflow() {
    // The same scan for the generals game: every numeric field of its rule set and
    // of the demo world, one field of one file at a time, at 0, 2^32-1 and 2^64-1;
    // what loads and validates plays a turn of the demo's sample orders in time.
    use overlord::systems::generals::Generals;
    use overlord::systems::generals::data::load::{load_ruleset, load_scenario};
    use overlord::systems::generals::data::validate::validate;
    use overlord::systems::generals::orders::Words;
    let dirs = [("rules", root().join("assets/rules/generals")), ("scenario", root().join("scenarios/generals-demo"))];
    let mut cases: Vec<(usize, String, String, &'static str)> = Vec::new();
    for (d, (_, dir)) in dirs.iter().enumerate() {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".ron"))
            .collect();
        names.sort();
        for name in names {
            let text = std::fs::read_to_string(dir.join(&name)).unwrap();
            let mut fields: Vec<String> = text
                .lines()
                .filter_map(|l| {
                    let (k, v) = l.trim().trim_start_matches('(').split_once(": ")?;
                    v.trim_end_matches([',', ')']).parse::<i64>().is_ok().then(|| k.to_string())
                })
                .collect();
            fields.sort();
            fields.dedup();
            for f in fields {
                for v in ["0", "4294967295", "18446744073709551615"] {
                    cases.push((d, name.clone(), f.clone(), v));
                }
            }
        }
    }
    let total = cases.len();
    let orders: Vec<String> =
        (1..=4).map(|p| std::fs::read_to_string(dirs[1].1.join(format!("orders/p{p}.txt"))).unwrap()).collect();
    let t = tempfile::tempdir().unwrap();
    let mut next = 0;
    let played = std::cell::Cell::new(0usize);
    fuzz(
        "generals-extremes",
        24,
        |_| {
            let (d, file, field, value) = &cases[next % total];
            next += 1;
            let text = std::fs::read_to_string(dirs[*d].1.join(file)).unwrap();
            // Every `field: number` of the file, inline records included.
            let pattern = format!("{field}: ");
            let mut out = String::new();
            let mut rest = text.as_str();
            while let Some(at) = rest.find(&pattern) {
                let before_ok =
                    at == 0 || !rest.as_bytes()[at - 1].is_ascii_alphanumeric() && rest.as_bytes()[at - 1] != b'_';
                out.push_str(&rest[..at + pattern.len()]);
                rest = &rest[at + pattern.len()..];
                let digits = rest.bytes().take_while(|c| c.is_ascii_digit() || *c == b'-').count();
                if before_ok && digits > 0 && rest[..digits].parse::<i64>().is_ok() {
                    out.push_str(value);
                    rest = &rest[digits..];
                }
            }
            out.push_str(rest);
            format!("{}/{file}\n{out}", dirs[*d].0)
        },
        |input| {
            let (name, text) = input.split_once('\n').unwrap_or((input, ""));
            let case = t.path().join("case");
            let (rules_dir, scenario_dir) = (case.join("rules"), case.join("scenario"));
            overlord::systems::overlord::testkit::copy_dir(&dirs[0].1, &rules_dir);
            overlord::systems::overlord::testkit::copy_dir(&dirs[1].1, &scenario_dir);
            std::fs::write(case.join(name), text).unwrap();
            let loaded = (load_ruleset(&rules_dir), load_scenario(&scenario_dir));
            let issues = match &loaded {
                (Ok(rules), Ok(state)) => validate(rules, state, &rules_dir, &scenario_dir),
                _ => Vec::new(),
            };
            std::fs::remove_dir_all(&case).unwrap();
            let (Ok(rules), Ok(state)) = loaded else { return };
            if issues.iter().any(|d| d.is_error()) {
                return;
            }
            let orders = orders.clone();
            let ok = within(HANG, move || {
                let words = Words::new(&rules);
                let files: Vec<_> = orders
                    .iter()
                    .filter_map(|t| overlord::core::orders::mail::parse_mail(t, &words).ok())
                    .flat_map(|m| m.orders)
                    .collect();
                let Ok(mut e) = Engine::<Generals>::new(Arc::new(rules), state, Threads::One) else { return false };
                e.submit(files);
                e.run_turn(|_, _| {});
                let _ = e.reports();
                true
            });
            if ok {
                played.set(played.get() + 1);
            }
        },
    );
    eprintln!("fuzz generals-extremes: {total} (file, field, value) cases in all; {} turns played", played.get());
}

#[test]
fn mail_messages_are_read_without_panic() {
    // Messages as mail programs write them (tests/fixtures/mail/), mutated with
    // MIME's own words: headers, boundaries, encodings, charsets, flowed text.
    let dir = root().join("tests/fixtures/mail");
    let mut messages: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned())
        .collect();
    messages.sort();
    let words: Vec<String> = [
        "Content-Type: multipart/mixed; boundary=\"b\"\r\n",
        "Content-Type: multipart/alternative; boundary=b\r\n",
        "Content-Type: text/plain; charset=iso-2022-jp; format=flowed; delsp=yes\r\n",
        "Content-Type: text/html; charset=utf-7\r\n",
        "Content-Type: message/rfc822\r\n",
        "Content-Transfer-Encoding: base64\r\n",
        "Content-Transfer-Encoding: quoted-printable\r\n",
        "Content-Disposition: attachment; filename*=utf-8''%E2%82%AC.txt\r\n",
        "Auto-Submitted: no\r\n",
        "Reply-To: <>\r\n",
        "From: \"=?utf-8?B?w4k=?=\" <a@b>\r\n",
        "Subject: =?iso-8859-1?Q?=E9?=\r\n",
        "\r\n--b\r\n",
        "\r\n--b--\r\n",
        "=\r\n",
        "=E9=",
        "> ",
        "-- \r\n",
        " \r\n",
        "<br>",
        "<blockquote>",
        "GAME f05 pswd5\r\n",
        "END\r\n",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    fuzz(
        "mail_messages",
        300,
        |rng| {
            let m = &messages[rng.random_range(0..messages.len())];
            let rounds = rng.random_range(0..12);
            mutate(rng, m, &words, rounds)
        },
        |text| {
            if let Some(read) = overlord::mailroom::text::read(text.as_bytes()) {
                for t in &read.texts {
                    assert_eq!(
                        t.text.split('\n').count(),
                        overlord::mailroom::text::clean(&t.text, false, false).split('\n').count(),
                        "cleaning keeps the lines"
                    );
                }
            }
        },
    );
}
