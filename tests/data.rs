//! Whole-folder tests of the data layer: the alpha world, broken scenarios (one
//! per kind of validation error, each asserting file and line), lossless save
//! and load, and the world generator's determinism.

use overlord::core::diag::Diagnostic;
use overlord::systems::overlord::data::{self, Counts, load_game, validate};
use overlord::systems::overlord::testkit::copy_dir;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Loads and validates a scenario folder; returns every diagnostic.
fn check(scenario: &Path) -> Vec<Diagnostic> {
    match load_game(scenario, None) {
        Err(d) => d,
        Ok(g) => data::validate::resolve(&validate(&g.rules, &g.scenario), &g.rules_dir, &g.scenario_dir),
    }
}

/// A copy of the alpha scenario with its own copy of the rule set (`<dir>/rules`).
fn alpha_copy() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    copy_dir(&root().join("scenarios/alpha"), t.path());
    copy_dir(&root().join("assets/rules/overlord"), &t.path().join("rules"));
    t
}

/// Replaces the first occurrence of `from` in `file` (under `dir`) by `to` and
/// returns the 1-based line where the replacement starts.
fn edit(dir: &Path, file: &str, from: &str, to: &str) -> usize {
    let path = dir.join(file);
    let text = fs::read_to_string(&path).unwrap();
    let at = text.find(from).unwrap_or_else(|| panic!("{from:?} not in {file}"));
    let line = text[..at].matches('\n').count() + 1;
    fs::write(&path, format!("{}{}{}", &text[..at], to, &text[at + from.len()..])).unwrap();
    line
}

fn errors(d: &[Diagnostic]) -> Vec<&Diagnostic> {
    d.iter().filter(|x| x.is_error()).collect()
}

/// Asserts exactly one error, in `file` at `line`, whose message contains `needle`.
fn assert_one(d: &[Diagnostic], file: &str, line: usize, needle: &str) {
    let e = errors(d);
    assert_eq!(e.len(), 1, "expected one error, got: {e:#?}");
    assert!(e[0].file.ends_with(file), "{}", e[0]);
    assert_eq!(e[0].line, line, "{}", e[0]);
    assert!(e[0].col > 0, "{}", e[0]);
    assert!(e[0].message.contains(needle), "{}", e[0]);
}

#[test]
fn alpha_loads_and_validates_with_the_expected_counts() {
    // DATA-LOAD, LOC-DATA: the alpha world as committed.
    let g = load_game(&root().join("scenarios/alpha"), None).expect("alpha loads");
    let issues = validate(&g.rules, &g.scenario);
    let errs: Vec<_> = issues.iter().filter(|i| i.severity == overlord::core::diag::Severity::Error).collect();
    assert!(errs.is_empty(), "{errs:#?}");
    let c = Counts::of(&g.rules, &g.scenario);
    assert_eq!(
        (c.locations, c.units, c.factions, c.skills, c.items, c.races, c.terrains),
        (209, 275, 15, 299, 122, 59, 18)
    );
    assert_eq!((c.constructions, c.titles, c.enchantments, c.seasons, c.weathers), (30, 20, 48, 4, 5));
    assert_eq!(g.scenario.orders.len(), 4, "the sample order files come along");
}

#[test]
fn alpha_copy_is_clean() {
    let t = alpha_copy();
    let d = check(t.path());
    assert!(errors(&d).is_empty(), "{d:#?}");
}

#[test]
fn syntax_error_names_file_line_and_column() {
    let t = alpha_copy();
    let line = edit(t.path(), "units.ron", "    figures: 60,", "    figures: 60 60,");
    let d = check(t.path());
    assert_one(&d, "units.ron", line, "");
}

#[test]
fn misspelt_field_is_an_error_not_ignored() {
    let t = alpha_copy();
    let line = edit(t.path(), "locations.ron", "    population: 500,", "    populaton: 500,");
    let d = check(t.path());
    assert_one(&d, "locations.ron", line, "populaton");
}

#[test]
fn unknown_reference() {
    let t = alpha_copy();
    let line = edit(t.path(), "units.ron", "race: \"man\"", "race: \"mann\"");
    let d = check(t.path());
    assert_one(&d, "units.ron", line, "unknown race 'mann'");
}

#[test]
fn unknown_skill_target() {
    // ORD-TARGET: a unit's saved target names something that exists (or a new
    // structure id); a construction tag is fine.
    let t = alpha_copy();
    let line = edit(t.path(), "units.ron", "race: \"man\"", "race: \"man\",\n    target: Some(\"tower\")");
    let d = check(t.path());
    assert_one(&d, "units.ron", line + 1, "unknown target 'tower'");
    let t = alpha_copy();
    edit(t.path(), "units.ron", "race: \"man\"", "race: \"man\",\n    target: Some(\"mine\")");
    assert!(errors(&check(t.path())).is_empty());
}

#[test]
fn duplicate_id() {
    let t = alpha_copy();
    let line = edit(t.path(), "locations.ron", "id: \"L3\"", "id: \"L2\"");
    let d = check(t.path());
    // L3 disappears too, so the exits into it are reported as well; the duplicate is the first error.
    let e = errors(&d);
    let dup: Vec<_> = e.iter().filter(|x| x.message.contains("duplicate location 'L2'")).collect();
    assert_eq!(dup.len(), 1, "{e:#?}");
    assert!(dup[0].file.ends_with("locations.ron"));
    assert_eq!(dup[0].line, line - 1, "points at the record's opening line: {}", dup[0]);
}

#[test]
fn exit_to_missing_location() {
    let t = alpha_copy();
    let line = edit(t.path(), "locations.ron", "(dir: \"N\", to: \"L3\")", "(dir: \"N\", to: \"L99999\")");
    let d = check(t.path());
    assert_one(&d, "locations.ron", line, "leads to missing location 'L99999'");
}

#[test]
fn skill_prerequisite_cycle() {
    let t = alpha_copy();
    // scouting requires observation, which requires scouting.
    let line = edit(
        t.path(),
        "rules/skills.ron",
        "move on its own\",\n    system: (\n",
        "move on its own\",\n    system: (\n      requires: [(skill: \"obse\", level: 1)],\n",
    );
    let d = check(t.path());
    let e = errors(&d);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(e[0].file.ends_with("rules/skills.ron"));
    assert!(
        e[0].message.contains("cycle") && e[0].message.contains("obse") && e[0].message.contains("scou"),
        "{}",
        e[0]
    );
    // The cycle is reported at the requires of the first skill of the cycle (obse, before scou).
    assert!(e[0].line < line, "{}", e[0]);
}

#[test]
fn stacked_under_a_non_leader() {
    let t = alpha_copy();
    // U3 (archers) is stacked under U1 (a hero); put it under U2 (men).
    let text = fs::read_to_string(t.path().join("units.ron")).unwrap();
    let u3 = text.find("id: \"U3\"").unwrap();
    let rel = text[u3..].find("stack_leader: Some(\"U1\")").unwrap();
    let line = text[..u3 + rel].matches('\n').count() + 1;
    let fixed = format!(
        "{}{}",
        &text[..u3],
        text[u3..].replacen("stack_leader: Some(\"U1\")", "stack_leader: Some(\"U2\")", 1)
    );
    fs::write(t.path().join("units.ron"), fixed).unwrap();
    let d = check(t.path());
    assert_one(&d, "units.ron", line, "not a leader");
}

#[test]
fn equipped_more_than_owned() {
    let t = alpha_copy();
    let line = edit(t.path(), "units.ron", "(\"gshd\", 60, 60)", "(\"gshd\", 60, 61)");
    let d = check(t.path());
    let e = errors(&d);
    assert!(!e.is_empty());
    assert!(e.iter().all(|x| x.line == line && x.file.ends_with("units.ron")), "{e:#?}");
    assert!(e.iter().any(|x| x.message.contains("61 'gshd' equipped but only 60 owned")), "{e:#?}");
}

#[test]
fn structure_inside_a_structure() {
    let t = alpha_copy();
    let text = fs::read_to_string(t.path().join("structures.ron")).unwrap();
    let b = text.find("id: \"B202\"").unwrap();
    let rel = text[b..].find("location: ").unwrap();
    let line = text[..b + rel].matches('\n').count() + 1;
    let end = b + rel + text[b + rel..].find(',').unwrap();
    let fixed = format!("{}location: \"B201\"{}", &text[..b + rel], &text[end..]);
    fs::write(t.path().join("structures.ron"), fixed).unwrap();
    let d = check(t.path());
    let e = errors(&d);
    let inside: Vec<_> = e.iter().filter(|x| x.message.contains("structures cannot contain structures")).collect();
    assert_eq!(inside.len(), 1, "{e:#?}");
    assert_eq!(inside[0].line, line);
    assert!(inside[0].file.ends_with("structures.ron"));
}

#[test]
fn all_errors_are_reported_at_once() {
    let t = alpha_copy();
    let a = edit(t.path(), "units.ron", "race: \"man\"", "race: \"mann\"");
    let b = edit(t.path(), "locations.ron", "terrain: \"plai\"", "terrain: \"plian\"");
    let c = edit(t.path(), "rules/items.ron", "slot: Some(\"equip_weapon\")", "slot: Some(\"equip_wepon\")");
    let d = check(t.path());
    let e = errors(&d);
    assert_eq!(e.len(), 3, "{e:#?}");
    let found: Vec<(String, usize)> =
        e.iter().map(|x| (x.file.file_name().unwrap().to_string_lossy().into_owned(), x.line)).collect();
    assert!(found.contains(&("units.ron".into(), a)));
    assert!(found.contains(&("locations.ron".into(), b)));
    assert!(found.contains(&("items.ron".into(), c)));
}

#[test]
fn syntax_errors_of_several_files_are_reported_together() {
    let t = alpha_copy();
    let a = edit(t.path(), "units.ron", "    figures: 60,", "    figures: [60,");
    let b = edit(t.path(), "rules/terrains.ron", "    name: \"plains\",", "    name: plains\",");
    let d = check(t.path());
    let e = errors(&d);
    assert_eq!(e.len(), 2, "{e:#?}");
    assert!(e.iter().any(|x| x.file.ends_with("units.ron") && x.line >= a));
    assert!(e.iter().any(|x| x.file.ends_with("terrains.ron") && x.line == b));
}

#[test]
fn load_save_load_is_lossless() {
    let g = load_game(&root().join("scenarios/alpha"), None).unwrap();
    let t = tempfile::tempdir().unwrap();
    data::save_ruleset(&t.path().join("rules"), &g.rules).unwrap();
    data::save_scenario(&t.path().join("scen"), &g.scenario).unwrap();
    let r2 = data::load_ruleset(&t.path().join("rules")).unwrap();
    let s2 = data::load_scenario(&t.path().join("scen")).unwrap();
    assert_eq!(r2, g.rules);
    assert_eq!(s2, g.scenario);
    // And saving is byte-stable: the committed files are what saving writes.
    for f in ["skills.ron", "items.ron", "races.ron", "climate.ron"] {
        let a = fs::read(root().join("assets/rules/overlord").join(f)).unwrap();
        let b = fs::read(t.path().join("rules").join(f)).unwrap();
        assert!(a == b, "{f} differs after a save");
    }
    for f in ["units.ron", "locations.ron", "factions.ron", "structures.ron", "game.ron"] {
        let a = fs::read(root().join("scenarios/alpha").join(f)).unwrap();
        let b = fs::read(t.path().join("scen").join(f)).unwrap();
        assert!(a == b, "{f} differs after a save");
    }
}

fn generate(seed: u64, dir: &Path) {
    let opts = overlord::systems::overlord::generate::Options { locations: 300, factions: 6, units: 1500, seed };
    overlord::systems::overlord::generate::generate_to_dir(&root().join("assets/rules/overlord"), &opts, dir).unwrap();
}

fn read_all(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), fs::read(e.path()).unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn generator_is_deterministic_and_valid() {
    let t = tempfile::tempdir().unwrap();
    let (a, b, c) = (t.path().join("a"), t.path().join("b"), t.path().join("c"));
    generate(42, &a);
    generate(42, &b);
    generate(43, &c);
    assert_eq!(read_all(&a), read_all(&b), "same seed, same bytes");
    assert_ne!(read_all(&a), read_all(&c), "another seed, another world");
    let d = check(&a);
    assert!(errors(&d).is_empty(), "{d:#?}");
    let s = data::load_scenario(&a).unwrap();
    assert_eq!(s.units.len(), 1500);
    assert_eq!(s.factions.iter().filter(|f| !f.npc).count(), 6);
    assert!(s.factions.iter().any(|f| f.npc));
    assert!(s.locations.len() > 300, "cities are added inside territories");
    assert!(s.locations.iter().any(|l| !l.market.sells.is_empty() && !l.recruits.is_empty()));
    assert!(s.units.iter().any(|u| u.stack_leader.is_some()));
    let orders: Vec<&str> =
        s.units.iter().flat_map(|u| u.orders.iter()).map(|o| o.split(' ').next().unwrap()).collect();
    for kind in ["STUDY", "WORK", "USE", "MOVE", "BUY", "SELL", "@GUARD"] {
        assert!(orders.contains(&kind), "no {kind} order generated");
    }
}

#[test]
fn the_number_of_factions_changes_only_who_owns_the_generated_units() {
    // The flat-in-factions benchmark (docs/performance.md) compares worlds of the
    // same units owned by 1,000 and 50,000 factions.
    let rules = data::load_ruleset(&root().join("assets/rules/overlord")).unwrap();
    let world = |factions| {
        let o = overlord::systems::overlord::generate::Options { locations: 300, factions, units: 1200, seed: 9 };
        overlord::systems::overlord::generate::generate(&rules, "overlord", &o).unwrap()
    };
    let (few, many) = (world(4), world(300));
    assert_eq!(few.locations, many.locations);
    assert_eq!(few.units.len(), many.units.len());
    let mut stacked = [0, 0];
    for (k, s) in [&few, &many].into_iter().enumerate() {
        let owner: std::collections::HashMap<&str, &str> =
            s.units.iter().map(|u| (u.id.as_str(), u.faction.as_str())).collect();
        for u in &s.units {
            if let Some(l) = &u.stack_leader {
                assert_eq!(owner[l.as_str()], u.faction, "{} stacks under a unit of its own faction", u.id);
                stacked[k] += 1;
            }
        }
        // The factions share the player units evenly.
        let mut per: std::collections::BTreeMap<&str, usize> = Default::default();
        let npc: Vec<&str> = s.factions.iter().filter(|f| f.npc).map(|f| f.id.as_str()).collect();
        for u in s.units.iter().filter(|u| !npc.contains(&u.faction.as_str())) {
            *per.entry(&u.faction).or_default() += 1;
        }
        let (lo, hi) = (per.values().min().unwrap(), per.values().max().unwrap());
        assert!(hi - lo <= 1 && per.len() == [4, 300][k], "{per:?}");
    }
    assert!(stacked[1] > 0 && stacked[1] < stacked[0], "stacks split between factions are left out: {stacked:?}");
    for (a, b) in few.units.iter().zip(&many.units) {
        let bare = |u: &data::Unit| data::Unit { faction: String::new(), stack_leader: None, ..u.clone() };
        assert_eq!(bare(a), bare(b), "{} is the same unit", a.id);
    }
}

#[test]
fn a_rule_set_of_another_system_or_without_a_stance_toward_self_is_refused() {
    let t = alpha_copy();
    let line = edit(t.path(), "rules/ruleset.ron", "system: \"overlord\"", "system: \"generals\"");
    assert_one(&check(t.path()), "ruleset.ron", line, "its system is \"overlord\", not \"generals\"");
    let t = alpha_copy();
    edit(t.path(), "rules/diplomacy.ron", "toward_self: true,", "");
    assert_one(&check(t.path()), "diplomacy.ron", 1, "toward itself");
    let t = alpha_copy();
    let line = edit(t.path(), "rules/ruleset.ron", "withdraw_terrains: [", "withdraw_terrains: [\"town\", ");
    assert_one(&check(t.path()), "ruleset.ron", line, "town");
}

#[test]
fn a_turn_plan_with_a_syntax_error_names_its_line() {
    let t = alpha_copy();
    let line = edit(t.path(), "rules/plan.ron", "ticks: 30,", "ticks: thirty,");
    assert_one(&check(t.path()), "plan.ron", line, "");
}

#[test]
fn validate_checks_the_turn_plan_against_the_mechanics() {
    // What the engine refuses when a game loads, `overlord validate` reports first:
    // a misspelt step names plan.ron's line.
    let t = alpha_copy();
    let system = overlord::systems::find("overlord").unwrap();
    let (clean, _) = system.validate(t.path(), None).unwrap();
    assert!(errors(&clean).is_empty(), "{clean:?}");
    let line = edit(t.path(), "rules/plan.ron", "\"lessons\",", "\"lesons\",");
    let (problems, _) = system.validate(t.path(), None).unwrap();
    let found: Vec<(usize, &str)> = errors(&problems)
        .iter()
        .filter(|d| d.file.ends_with("plan.ron"))
        .map(|d| (d.line, d.message.as_str()))
        .collect();
    assert_eq!(found.len(), 2, "{problems:?}");
    assert_eq!(found[0].0, line);
    assert!(found[0].1.starts_with("step \"lesons\" has no system"), "{found:?}");
    assert!(found[1].1.contains("a step \"lessons\" that the plan does not list"), "{found:?}");
}

#[test]
fn a_rule_set_naming_no_rule_system_says_what_to_add() {
    // Rule sets written before they named their system are refused with the fix.
    let t = alpha_copy();
    edit(t.path(), "rules/ruleset.ron", "system: \"overlord\",", "");
    let Err(e) = overlord::systems::of_scenario(t.path(), None) else { panic!("accepted a rule set with no system") };
    assert!(e.message.contains("ruleset.ron:1:1: error: this rule set names no rule system"), "{}", e.message);
    assert!(e.message.contains("system: \"overlord\""), "{}", e.message);
}

#[test]
fn a_factions_provoked_stance_sparing_skills_and_explored_places_must_exist() {
    // NPC-IMP, NPC-CRE: `provoked` names a stance, `spared_by` skills.
    let t = alpha_copy();
    let line = edit(t.path(), "factions.ron", "spared_by: [\"beas\"]", "spared_by: [\"beax\"]");
    assert_one(&check(t.path()), "factions.ron", line, "unknown skill 'beax' (at [2].spared_by[0])");
    let t = alpha_copy();
    let line = edit(t.path(), "factions.ron", "provoked: Some(\"enemy\")", "provoked: Some(\"enmy\")");
    assert_one(&check(t.path()), "factions.ron", line, "unknown stance 'enmy' (at [0].provoked)");
    // The places a faction has been to (map memory) must exist.
    let t = alpha_copy();
    let line = edit(
        t.path(),
        "factions.ron",
        "spared_by: [\"beas\"],",
        "spared_by: [\"beas\"], explored: [\"L1\", \"L999\"],",
    );
    assert_one(&check(t.path()), "factions.ron", line, "unknown location 'L999' (at [2].explored[1])");
}

#[test]
fn core_fields_and_overlord_fields_are_each_checked_where_they_stand() {
    // A core field (travel days by movement mode) and an Overlord field (the land
    // skill, under `system:`) of the first terrain, each wrong.
    let t = alpha_copy();
    let line = edit(t.path(), "rules/terrains.ron", "\"walk\": 9,", "\"wlak\": 9,");
    assert_one(&check(t.path()), "terrains.ron", line, "unknown movement mode 'wlak' (at [0].travel_days[\"wlak\"])");
    let t = alpha_copy();
    let line = edit(t.path(), "rules/terrains.ron", "land_skill: Some(\"plwk\")", "land_skill: Some(\"plwx\")");
    assert_one(&check(t.path()), "terrains.ron", line, "unknown skill 'plwx' (at [0].system.land_skill)");
    // An Overlord field at the top of the record is an unknown field there.
    let t = alpha_copy();
    let line = edit(t.path(), "rules/terrains.ron", "    color: Some((192, 192, 0)),", "    optimum_population: 5,");
    assert_one(&check(t.path()), "terrains.ron", line, "optimum_population");
}

#[test]
fn economy_names_what_exists() {
    // economy.ron: an unknown food item, plague effect or race offered everywhere
    // is an error with its line.
    let t = alpha_copy();
    let line = edit(t.path(), "rules/economy.ron", "\"food\"", "\"fodo\"");
    assert_one(&check(t.path()), "economy.ron", line, "unknown item 'fodo'");
    let t = alpha_copy();
    let line = edit(t.path(), "rules/economy.ron", "Some(\"plag\")", "Some(\"pest\")");
    assert_one(&check(t.path()), "economy.ron", line, "unknown effect 'pest'");
    let t = alpha_copy();
    let line = edit(t.path(), "rules/economy.ron", "\"ldr\"", "\"lord\"");
    assert_one(&check(t.path()), "economy.ron", line, "unknown race 'lord'");
}

// ------------------------------------------------------------------ magic and items

fn bundled() -> overlord::systems::overlord::data::RuleSet {
    data::load_ruleset(&root().join("assets/rules/overlord")).unwrap()
}

#[test]
fn magecraft_is_the_root_of_every_magic_skill_and_only_leaders_study_it_mag_tree() {
    use overlord::systems::overlord::data::SkillFlag;
    let r = bundled();
    let skill = |t: &str| r.skills.iter().find(|s| s.tag == t).unwrap();
    // Each magic skill's requirements lead down to magecraft.
    for s in r.skills.iter().filter(|s| s.system.flags.contains(&SkillFlag::Magic) && s.tag != "mage") {
        let mut seen = vec![s.tag.as_str()];
        let mut i = 0;
        while i < seen.len() {
            for q in &skill(seen[i]).system.requires {
                if !seen.contains(&q.skill.as_str()) {
                    seen.push(&q.skill);
                }
            }
            i += 1;
        }
        assert!(seen.contains(&"mage"), "{} does not derive from magecraft", s.tag);
    }
    let mage = skill("mage");
    assert!(mage.system.flags.contains(&SkillFlag::LeaderOnly));
    // 1st level in 30 days at 100 experience a day; $3 a day.
    assert_eq!((mage.system.levels[0].experience, mage.system.study_cost), (3000, 3));
    assert_eq!(r.info.parameters.experience_per_day, 100);
}

#[test]
fn the_key_items_are_as_the_rules_list_them_itm_key_itm_attr_itm_coin_itm_unique() {
    let r = bundled();
    let item = |t: &str| r.items.iter().find(|i| i.tag == t).unwrap();
    let sword = item("swrd");
    assert_eq!(
        (sword.weight, sword.system.stats.melee, sword.system.stats.defense, sword.system.stats.damage),
        (4, 3, 2, 2)
    );
    assert_eq!(sword.system.equip_skill.as_ref().map(|q| (q.skill.as_str(), q.level)), Some(("blde", 1)));
    let bow = item("lbow");
    assert_eq!((bow.system.stats.missile, bow.system.stats.ranged_damage), (3, 4));
    assert_eq!(bow.system.equip_skill.as_ref().map(|q| (q.skill.as_str(), q.level)), Some(("arch", 2)));
    let horse = item("hrse");
    assert_eq!((horse.weight, horse.system.stats.initiative, horse.system.stats.melee), (100, 3, -1));
    // ITM-ATTR: capacities loose and equipped (the horse carries 95 riding, 200
    // equipped), a slot and its per-figure limit (two rings), a combat use (the wand
    // of fire), weightless items (coins).
    assert_eq!((horse.capacity.get("walk"), horse.capacity.get("ride")), (Some(&120), Some(&95)));
    assert_eq!(horse.system.equipped_capacity.get("ride"), Some(&200));
    assert_eq!(item("rpow").system.max_per_figure, 2);
    assert!(item("wfir").system.combat.is_some());
    assert_eq!(item("coin").weight, 0);
    // Unique items exist (the data has magery [mgry] make one, the mage's symbol
    // [msym], though the rules say no skill makes them: the data is followed).
    use overlord::systems::overlord::data::ItemFlag;
    assert!(r.items.iter().any(|i| i.system.flags.contains(&ItemFlag::Unique)));
    // Coins are the money.
    let c = overlord::systems::overlord::world::Catalog::new(std::sync::Arc::new(r.clone()));
    assert_eq!(c.money().map(|m| r.items[m.index()].tag.as_str()), Some("coin"));
}

#[test]
fn unknown_enchantment_on_a_place() {
    // ITM-ENCH: enchantments on locations and structures name enchantments of the
    // rule set.
    let t = alpha_copy();
    let line = edit(
        t.path(),
        "locations.ron",
        "    population: 500,",
        "    population: 500,\n    effects: [(\"effnope\", 3)],",
    );
    let d = check(t.path());
    assert_one(&d, "locations.ron", line + 1, "unknown enchantment 'effnope'");
}

#[test]
fn ids_that_are_not_safe_as_paths_or_words_are_errors() {
    // A faction id like `../../x` once made `new` write its reports, password and
    // all, outside the game folder.
    let t = alpha_copy();
    let line = edit(t.path(), "factions.ron", "id: \"f03\"", "id: \"../../x\"");
    let d = check(t.path());
    let e: Vec<_> =
        errors(&d).into_iter().filter(|x| x.message.contains("faction id: '../../x' is not an id")).collect();
    assert_eq!(e.len(), 1, "{d:#?}");
    assert_eq!((e[0].line, e[0].file.ends_with("factions.ron")), (line, true), "{}", e[0]);
}

#[test]
fn ids_differing_only_in_case_and_unit_ids_in_the_form_of_new_ids_are_errors() {
    // FILE-NEWID: orders name ids in any case, and `f01nU01` names a unit to be made.
    let t = alpha_copy();
    let line = edit(t.path(), "units.ron", "id: \"U201\"", "id: \"f01nU01\"");
    let d = check(t.path());
    assert!(
        errors(&d).iter().any(|x| x.line == line && x.message.contains("unit id 'f01nU01' has the form of a new id")),
        "{d:#?}"
    );
    let t = alpha_copy();
    edit(t.path(), "locations.ron", "id: \"L3\"", "id: \"l2\"");
    let d = check(t.path());
    assert!(errors(&d).iter().any(|x| x.message.contains("location 'l2' differs from location 'L2'")), "{d:#?}");
}

#[test]
fn numbers_that_would_hang_or_overflow_a_turn_are_errors() {
    // A month of 100,000,000 days once ran for ever; a turn of 4294967295 overflowed.
    let t = alpha_copy();
    let line = edit(t.path(), "game.ron", "days_per_month: 30", "days_per_month: 100000000");
    assert_one(&check(t.path()), "game.ron", line, "days_per_month must be 1 to 1000");
    let t = alpha_copy();
    let text = fs::read_to_string(t.path().join("game.ron")).unwrap();
    let turn = text.lines().find(|l| l.trim_start().starts_with("turn:")).unwrap().trim().to_string();
    let line = edit(t.path(), "game.ron", &turn, "turn: 4294967295,");
    assert_one(&check(t.path()), "game.ron", line, "turn 4294967295 is past the last turn a game may reach");
    // A skill requiring a level its prerequisite does not have (4294967295 once
    // made the reports' knowledge walk every level up to it).
    let t = alpha_copy();
    let line = edit(
        t.path(),
        "rules/skills.ron",
        "          skill: \"scou\",\n          level: 1,",
        "          skill: \"scou\",\n          level: 4294967295,",
    ) + 1;
    assert_one(
        &check(t.path()),
        "rules/skills.ron",
        line,
        "skill 'scou' has 4 level(s): level 4294967295 cannot be required",
    );
}

#[test]
fn rule_sets_come_back_from_the_mail_index_as_they_went() {
    // Each turn's mail index keeps the rule set in the binary form: read back, it
    // is the rule set (for Overlord, the one without descriptions the index keeps).
    use overlord::core::data::bin;
    use overlord::core::system::GameSystem;
    use overlord::systems::overlord::Overlord;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = data::load_ruleset(&root.join("assets/rules/overlord")).unwrap();
    let kept = Overlord::mail_rules(&o).unwrap();
    assert!(kept.skills.iter().all(|s| s.description.is_empty()) && kept.skills.len() == o.skills.len());
    for r in [&o, &kept] {
        assert!(&bin::from_bytes::<data::RuleSet>(&bin::to_bytes(r).unwrap()).unwrap() == r);
    }
    let g = overlord::systems::generals::data::load::load_ruleset(&root.join("assets/rules/generals")).unwrap();
    let back: overlord::systems::generals::data::RuleSet = bin::from_bytes(&bin::to_bytes(&g).unwrap()).unwrap();
    assert_eq!(back, g);
}

#[test]
fn a_units_and_a_places_faults_are_each_found_at_their_own_line() {
    // DATA-LOAD: the paths of a unit's and a place's faults are made only for what
    // is wrong; each still names its file and line.
    let t = alpha_copy();
    let skills = edit(
        t.path(),
        "units.ron",
        "    skills: [(\"void\", 18000)],",
        "    skills: [(\"void\", 18000), (\"void\", 5)],\n    tactics: Some((stance: \"nostance\")),\n    items: [(\"nope\", 1, 0)],\n    effects: [(\"effnope\", 2)],",
    );
    let exits = edit(t.path(), "locations.ron", "mode: Some(\"fly\")", "mode: Some(\"nomode\")");
    let d = check(t.path());
    let mut got: Vec<(String, usize, String)> = errors(&d)
        .into_iter()
        .map(|e| (e.file.file_name().unwrap().to_string_lossy().into_owned(), e.line, e.message.clone()))
        .collect();
    got.sort();
    let want = [
        ("locations.ron", exits, "unknown movement mode 'nomode'"),
        ("units.ron", skills, "skill 'void' listed twice (first at skills[0])"),
        ("units.ron", skills + 1, "unknown combat stance 'nostance'"),
        ("units.ron", skills + 2, "unknown item 'nope'"),
        ("units.ron", skills + 3, "unknown enchantment 'effnope'"),
    ];
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for (file, line, needle) in want {
        assert!(
            got.iter().any(|g| g.0 == file && g.1 == line && g.2.contains(needle)),
            "{file}:{line} {needle}: {got:#?}"
        );
    }
}

/// A generated faction holds as many units as the control points it starts with
/// afford, and every one of them acts all month (CP-BASE, CP-UNIT, CP-MAGE,
/// CP-CHECK, CP-IDLE): a generated unit uses its race's control points once
/// (followers of at most `figures_per_control_point` figures, nothing held or
/// known that gives mana). Past that, the generator says so, and the engine
/// agrees: units refuse.
#[test]
fn generated_factions_fit_their_control_points_cp_unit_cp_check_cp_idle() {
    use bevy_ecs::entity::Entity;
    use bevy_ecs::prelude::With;
    use overlord::core::engine::{Engine, Threads};
    use overlord::systems::overlord::Overlord;
    use overlord::systems::overlord::generate::{Options, generate, over_control};
    use overlord::systems::overlord::mechanics::stats::UnitStats;
    use overlord::systems::overlord::world::components::{FactionRole, Id, Owner, Race, Refusing, Unit};
    let rules = std::sync::Arc::new(data::load_ruleset(&root().join("assets/rules/overlord")).unwrap());
    let p = &rules.info.parameters;
    let per_faction = p.starting_control_points as usize;
    let refusing = |factions: usize, units: usize| {
        let s = generate(&rules, "overlord", &Options { locations: 400, factions, units, seed: 5 }).unwrap();
        let over = over_control(&rules, &s);
        let npc: Vec<&str> = s.factions.iter().filter(|f| f.npc).map(|f| f.id.as_str()).collect();
        let players = s.units.iter().filter(|u| !npc.contains(&u.faction.as_str())).count();
        for u in s.units.iter().filter(|u| !npc.contains(&u.faction.as_str())) {
            assert!(u.figures <= p.figures_per_control_point, "{} has {} figures", u.id, u.figures);
        }
        let mut e = Engine::<Overlord>::new(rules.clone(), s, Threads::One).unwrap();
        e.run_turn(|_, _| {});
        let w = e.world_mut();
        // As the engine reckons them, each player unit uses its race's control
        // points once: no figures past one block, no mana.
        let npc: Vec<Entity> = w.query::<(Entity, &FactionRole)>().iter(w).filter(|x| x.1.npc).map(|x| x.0).collect();
        let mut stats = w.query::<(&Id, &Race, &Owner, &UnitStats)>();
        for (id, race, _, st) in stats.iter(w).filter(|x| !npc.contains(&x.2.0)) {
            let control = rules.races[race.0.index()].system.stats.control;
            assert_eq!(st.control() as i32, control, "{} uses {} control points", id.0, st.control());
        }
        let mut q = w.query_filtered::<&Id, (With<Unit>, With<Refusing>)>();
        (over, players, q.iter(w).count())
    };
    // Three factions of as many player units as their control points: none over,
    // no unit refuses.
    let (over, players, refused) = refusing(3, 3 * per_faction);
    assert!(players <= 3 * per_faction && players > 2 * per_faction, "{players}");
    assert!(over.is_empty(), "{over:?}");
    assert_eq!(refused, 0);
    // Twice as many units: every faction is over by more than it takes for every
    // unit to refuse (the chance is `refusal_percent_per_control_point` a point
    // over, at most 100%), and every player unit does.
    let (over, players, refused) = refusing(3, 3 * per_faction * 2);
    let certain = u64::from(p.starting_control_points) + u64::from(100 / p.refusal_percent_per_control_point.max(1));
    assert_eq!(over.len(), 3, "{over:?}");
    assert!(over.iter().all(|(_, need)| *need >= certain), "{over:?}");
    assert_eq!(refused, players);
    // `overlord generate` says so; not when the factions are within.
    let t = tempfile::tempdir().unwrap();
    let dir = root().join("assets/rules/overlord");
    let made = |factions, units, out: &str| {
        let o = Options { locations: 300, factions, units, seed: 5 };
        overlord::systems::overlord::generate::generate_to_dir(&dir, &o, &t.path().join(out)).unwrap()
    };
    let warned = made(2, 4 * per_faction, "over");
    let says =
        format!("\nwarning: 2 of the 2 factions need more than the {} control points", p.starting_control_points);
    assert!(warned.contains(&says), "{warned}");
    let quiet = made(2, 2 * per_faction, "within");
    assert!(!quiet.contains("warning"), "{quiet}");
}
