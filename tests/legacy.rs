//! The legacy importer on a small game written for these tests
//! (`tests/fixtures/legacy-mini`), and on the original engine's alpha game and a
//! world made of two renumbered copies of it where that game is at hand (see
//! `common::legacy_alpha`).

use overlord::systems::overlord::data::{self, Counts};
use overlord::systems::overlord::legacy::{ImportOptions, Imported, import};
use overlord::systems::overlord::testkit::copy_dir;
use std::fs;
use std::path::{Path, PathBuf};

mod common;

use common::legacy_alpha;

/// Renumbers ids in a line of legacy text: `L12` → `L10012`, `U5` → `U10005`,
/// `B201` → `B10201`, `f03` → `f1003`.
fn renumber(line: &str, by: u32) -> String {
    line.split(' ')
        .map(|tok| {
            let (head, digits) = tok.split_at(tok.find(|c: char| c.is_ascii_digit()).unwrap_or(tok.len()));
            let n: Option<u32> = if digits.is_empty() { None } else { digits.trim_end_matches('\r').parse().ok() };
            match (head, n) {
                ("L" | "U" | "B", Some(n)) => format!("{head}{}", n + by),
                ("f", Some(n)) => format!("f{}", n + by / 10),
                _ => tok.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Moves a territory `dx` hexes east on the legacy grid (`XY x y`); an even
/// shift keeps the grid's parity.
fn shift_xy(line: &str, dx: i64) -> String {
    let t: Vec<&str> = line.split_whitespace().collect();
    match t.as_slice() {
        ["XY", x, y] if *x != "0" || *y != "0" => format!("XY {} {y}", x.parse::<i64>().unwrap() + dx),
        _ => line.to_string(),
    }
}

/// Builds a legacy game folder holding the alpha world twice: the second copy
/// with every location, unit, building and faction renumbered.
fn two_copies(src: &Path, out: &Path) {
    fs::create_dir_all(out).unwrap();
    for e in fs::read_dir(src).unwrap().flatten() {
        let p = e.path();
        if p.is_file() {
            let name = e.file_name().to_string_lossy().into_owned();
            let text = String::from_utf8_lossy(&fs::read(&p).unwrap()).into_owned();
            let merged = if ["units.dat", "locations.dat", "buildings.dat", "factions.dat"].contains(&name.as_str()) {
                let copy: Vec<String> = text
                    .lines()
                    .filter(|l| !l.trim_start().starts_with("KEYWORD"))
                    .map(|l| shift_xy(&renumber(l, 10000), 100))
                    .collect();
                format!("{text}\n{}\n", copy.join("\n"))
            } else {
                text
            };
            fs::write(out.join(&name), merged).unwrap();
        }
    }
    for f in ["f01", "f02", "f03", "f04"] {
        let text = fs::read_to_string(src.join("players").join(f).join("orders.0")).unwrap();
        for (fid, body) in [
            (f.to_string(), text.clone()),
            (renumber(f, 10000), text.lines().map(|l| renumber(l, 10000)).collect::<Vec<_>>().join("\n")),
        ] {
            fs::create_dir_all(out.join("players").join(&fid)).unwrap();
            fs::write(out.join("players").join(&fid).join("orders.0"), body).unwrap();
        }
    }
}

#[test]
fn alpha_imports_with_the_published_counts_and_reports_odd_lines() {
    let Some(alpha) = legacy_alpha() else { return };
    let im = import(&alpha, &ImportOptions::default());
    let errors: Vec<_> = im.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let c = Counts::of(&im.rules, &im.scenario);
    assert_eq!((c.locations, c.units, c.factions, c.structures), (209, 275, 15, 17));
    // Every warning names a file, and the keyword-level ones a line.
    assert!(im.diagnostics.iter().all(|d| d.file.exists()));
    let typo = im.diagnostics.iter().find(|d| d.message.contains("DESCRIPTIO ")).expect("typo reported");
    assert!(typo.file.ends_with("combat_moves.var") && typo.line > 0, "{typo}");
    let dup = im
        .diagnostics
        .iter()
        .find(|d| d.message.contains("SKILL parr listed again"))
        .expect("duplicate skill reported");
    assert!(dup.file.ends_with("units.dat") && dup.line == 24, "{dup}");
    // The data's own choices survive: hero race, legacy slot numbers, CAPACITY by mode number.
    let hero = im.rules.races.iter().find(|r| r.tag == "hero").unwrap();
    assert!(hero.system.hero && hero.capacity.get("walk") == Some(&100) && hero.capacity.get("ride") == Some(&20));
    let swrd = im.rules.items.iter().find(|i| i.tag == "swrd").unwrap();
    assert_eq!(swrd.system.slot.as_deref(), Some("equip_weapon"));
    // Inner locations and hexes: the city of Itora lies in the Valley of Itora, which is N-adjacent to L3.
    let l1 = im.scenario.locations.iter().find(|l| l.id == "L1").unwrap();
    assert_eq!((l1.kind, l1.container.as_deref(), l1.hex), (data::LocationKind::Inner, Some("L2"), None));
    let hex = |id: &str| im.scenario.locations.iter().find(|l| l.id == id).unwrap().hex.unwrap();
    let n = im.rules.movement.directions.iter().find(|d| d.tag == "N").unwrap().hex.unwrap();
    assert_eq!((hex("L2").0 + n.0, hex("L2").1 + n.1), hex("L3"));
    // LOC-INNER: Anarnium [L18] lies in Ethorad Plains [L62], whose record lists no
    // way in; it gets one IN per way OUT of the city (walk and fly, 1 day), with a
    // warning at its record.
    let l62 = im.scenario.locations.iter().find(|l| l.id == "L62").unwrap();
    let ins: Vec<_> =
        l62.exits.iter().filter(|e| e.dir == "IN").map(|e| (e.to.as_str(), e.mode.as_deref(), e.days)).collect();
    assert_eq!(ins, [("L18", Some("walk"), Some(1)), ("L18", Some("fly"), Some(1))]);
    let w = im.diagnostics.iter().find(|d| d.message.contains("no exit into its inner location L18")).unwrap();
    assert!(w.file.ends_with("locations.dat") && w.line == 1023, "{w}");
    // A container that lists its way in keeps it alone: Valley of Itora [L2] → L1, walking.
    let l2 = im.scenario.locations.iter().find(|l| l.id == "L2").unwrap();
    assert_eq!(l2.exits.iter().filter(|e| e.to == "L1").count(), 1);
}

/// MOV-DIR: the converted hex positions and the legacy EXIT directions agree.
/// Returns how many exits were compared.
fn hex_exits_agree(im: &Imported) -> usize {
    let s = &im.scenario;
    let hex: std::collections::HashMap<&str, (i32, i32)> =
        s.locations.iter().filter_map(|l| l.hex.map(|h| (l.id.as_str(), h))).collect();
    let mut checked = 0;
    for l in &s.locations {
        for e in &l.exits {
            let step = im.rules.movement.directions.iter().find(|d| d.tag == e.dir).and_then(|d| d.hex);
            if let (Some((dq, dr)), Some(a), Some(b)) = (step, hex.get(l.id.as_str()), hex.get(e.to.as_str())) {
                // Edge-of-map exits may wrap to the other side; all others are adjacent.
                if (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1 {
                    assert_eq!((a.0 + dq, a.1 + dr), *b, "{} {} {}", l.id, e.dir, e.to);
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn every_hex_exit_agrees_with_the_coordinates() {
    let Some(alpha) = legacy_alpha() else { return };
    let checked = hex_exits_agree(&import(&alpha, &ImportOptions::default()));
    assert!(checked > 800, "only {checked} exits checked");
}

fn mini() -> PathBuf {
    common::root().join("tests/fixtures/legacy-mini")
}

#[test]
fn a_small_legacy_game_imports_with_every_odd_line_named() {
    // The importer on data of this project's own: every record kind it reads, an
    // unknown keyword reported with its file and line, the hex grid from XY.
    let mut im = import(&mini(), &ImportOptions::default());
    let errors: Vec<_> = im.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let c = Counts::of(&im.rules, &im.scenario);
    assert_eq!((c.locations, c.units, c.factions, c.structures), (3, 3, 2, 0));
    // An order the engine cannot read (a zero for the o of a skill tag) is left out,
    // named by its line; the orders around it stay.
    let units = fs::read_to_string(mini().join("units.dat")).unwrap();
    let line = units.lines().position(|l| l == "ORDER @TEACH 0bse").unwrap() + 1;
    let dropped = overlord::systems::overlord::legacy_orders::drop_unreadable(&mut im);
    assert_eq!(dropped.len(), 1, "{dropped:?}");
    assert!(dropped[0].file.ends_with("units.dat") && dropped[0].line == line && !dropped[0].is_error(), "{dropped:?}");
    assert!(dropped[0].message.contains("'0bse' is not a skill of this game"), "{}", dropped[0]);
    assert_eq!(im.scenario.units.iter().find(|u| u.id == "U1").unwrap().orders, ["@TEACH cmbt"]);
    assert_eq!((c.skills, c.items, c.races, c.terrains, c.seasons, c.weathers), (1, 2, 2, 2, 2, 2));
    let typo = im.diagnostics.iter().find(|d| d.message.contains("keyword SKIL is not known")).expect("typo reported");
    let line = units.lines().position(|l| l.starts_with("SKIL ")).unwrap() + 1;
    assert!(typo.file.ends_with("units.dat") && typo.line == line, "{typo}");
    // Every table the game leaves out is named once, as a warning.
    for d in im.diagnostics.iter().filter(|d| d.message.contains("its table is left empty")) {
        assert!(!d.is_error() && !d.file.exists(), "{d}");
    }
    let s = &im.scenario;
    assert_eq!((s.game.name.as_str(), s.game.days_per_month, s.game.deadline.as_str()), ("mini", 30, "1 jan 2030"));
    let u2 = s.units.iter().find(|u| u.id == "U2").unwrap();
    assert_eq!((u2.figures, u2.stack_leader.as_deref(), u2.location.as_str()), (10, Some("U1"), "L1"));
    assert_eq!(u2.orders, ["@ GUARD"]);
    let f02 = s.factions.iter().find(|f| f.id == "f02").unwrap();
    assert_eq!(f02.stances.get("f01").map(String::as_str), Some("hostile"));
    assert_eq!(s.orders.len(), 1, "players/f02/orders.0");
    assert_eq!(hex_exits_agree(&im), 2, "L2 N to L3 and back");
}

#[test]
fn a_legacy_game_named_as_a_path_is_not_imported() {
    // `GAME ../../escape` once made import-legacy write outside its output folder.
    let t = tempfile::tempdir().unwrap();
    let legacy = t.path().join("legacy");
    copy_dir(&mini(), &legacy);
    let cfg = legacy.join("overlord.config");
    let text = fs::read_to_string(&cfg).unwrap();
    let line = text.lines().position(|l| l.starts_with("GAME ")).unwrap() + 1;
    fs::write(&cfg, text.replace("GAME mini", "GAME ../../escape")).unwrap();
    let out_dir = t.path().join("a/b/out");
    let out = common::bin().arg("import-legacy").arg(&legacy).arg(&out_dir).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!("overlord.config:{line}: error: GAME: the game's name is its scenario's folder name")),
        "{err}"
    );
    assert!(!t.path().join("a/escape").exists() && !out_dir.exists());
    // A rule set named as a path is refused the same way.
    let out =
        common::bin().arg("import-legacy").arg(mini()).arg(&out_dir).args(["--ruleset-name", "../r"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("the rule set's name is its folder's name"), "{err}");
    assert!(!out_dir.exists() && !t.path().join("a/b/r").exists());
}

#[test]
fn two_renumbered_copies_import_and_validate() {
    let t = tempfile::tempdir().unwrap();
    let legacy = t.path().join("legacy");
    let Some(alpha) = legacy_alpha() else { return };
    two_copies(&alpha, &legacy);
    let im = import(&legacy, &ImportOptions::default());
    let errors: Vec<_> = im.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let c = Counts::of(&im.rules, &im.scenario);
    assert_eq!((c.locations, c.units, c.factions, c.structures), (418, 550, 30, 34));
    assert_eq!(im.scenario.orders.len(), 8);
    // Written out and read back, the world validates.
    let out = t.path().join("out");
    data::save_ruleset(&out.join("rules"), &im.rules).unwrap();
    data::save_scenario(&out.join("scen"), &im.scenario).unwrap();
    let g = data::load_game(&out.join("scen"), Some(&out.join("rules"))).unwrap();
    let issues = data::validate(&g.rules, &g.scenario);
    let errs: Vec<_> = issues.iter().filter(|i| i.severity == overlord::core::diag::Severity::Error).collect();
    assert!(errs.is_empty(), "{errs:#?}");
    let u = g.scenario.units.iter().find(|u| u.id == "U10002").unwrap();
    assert_eq!(
        (u.location.as_str(), u.stack_leader.as_deref(), u.faction.as_str()),
        ("L10001", Some("U10001"), "f1001")
    );
}
