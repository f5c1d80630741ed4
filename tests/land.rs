//! Whole turns of the alpha world with titles and land (§14, §25): a player claims a
//! free title, guards the land it owns, collects its taxes, and fights off another
//! faction's pillagers.

use overlord::core::engine::Threads;
use overlord::core::game::{GameDir, ReportKind};
use overlord::systems::overlord::Overlord;
use overlord::systems::overlord::data::{ItemHolding, SkillExperience, load_scenario, save_scenario};
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The alpha game, with one change: f05's Combat Expert [U502] has learnt tactics
/// (1st level) and carries 1,500 coins, enough to claim the Lord's title of
/// Anarnium [L18] (1st tactics, 1,000 coins).
fn alpha_with_a_tactician(dir: &Path) -> GameDir {
    let mut s = load_scenario(&root().join("scenarios/alpha")).expect("the alpha scenario loads");
    let u = s.units.iter_mut().find(|u| u.id == "U502").expect("U502 is in alpha");
    u.skills.push(SkillExperience("tact".into(), 6000));
    u.items.push(ItemHolding("coin".into(), 1500, 0));
    let scenario = dir.join("scenario");
    fs::create_dir_all(&scenario).unwrap();
    save_scenario(&scenario, &s).unwrap();
    let game = dir.join("game");
    GameDir::create::<Overlord>(&scenario, Some(&root().join("assets/rules/overlord")), &game).unwrap();
    GameDir::open(&game).unwrap()
}

fn text(g: &GameDir, turn: u32, faction: &str) -> String {
    fs::read_to_string(g.report_path(turn, faction, ReportKind::Text)).unwrap()
}

#[test]
fn a_player_claims_a_free_title_guards_and_taxes_its_land_and_fights_pillagers_ttl_claim_own_tax_grd_pillage() {
    let t = tempfile::tempdir().unwrap();
    let g = alpha_with_a_tactician(t.path());
    // Month 1. The People's Lord of Anarnium yields his title (the game master
    // moves the non-player faction). Combat Expert claims it, free, on day 1, and
    // guards from day 2 with f05's armoured men (GRD-REQ: the title covers them).
    g.submit::<Overlord>("GAME f02 pswd2\nUNIT U218\nYIELD lord\n").unwrap();
    // It declares the People allies: their militia (100 armed men in Anarnium) would
    // otherwise occupy the land and stop the taxes (OWN-OCCUPY).
    g.submit::<Overlord>(
        "GAME f05 pswd5\nUNIT U502\nSTANCE f02 ALLY\nCLAIM lord L18\nDAY 2\n-@GUARD\nUNIT U504\nDAY 2\n-@GUARD\n",
    )
    .unwrap();
    g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    let f05 = text(&g, 1, "f05");
    assert!(f05.contains("Claimed the title of lord of Anarnium [L18] for 1000 coins [coin]."), "{f05}");
    assert!(f05.contains("Titles:\n  lord [lord] of Anarnium [L18], held by Combat Expert [U502].\n"), "{f05}");
    let state = g.state::<Overlord>(1).unwrap();
    let l18 = state.locations.iter().find(|l| l.id == "L18").unwrap();
    assert_eq!(l18.titles[0].holder.as_deref(), Some("U502"));
    // OWN-LEGAL: at month end Anarnium and the plains around it are f05's.
    assert_eq!(l18.owner.as_ref().map(|o| o.faction.as_str()), Some("f05"));
    let l62 = state.locations.iter().find(|l| l.id == "L62").unwrap();
    assert_eq!(l62.owner.as_ref().map(|o| o.faction.as_str()), Some("f05"));
    assert!(f05.contains("  Owned by [f05].\n"), "{f05}");

    // Month 2. f05 collects Anarnium's taxes. f07's axemen [U705], led by its
    // Combat Expert [U702], ride out to the Ethorad Plains [L62] (f05's land, 500
    // people: 20 armed figures pillage there) and pillage; the People's militia on
    // guard there attacks them (GRD-PILLAGE) through the battle framework.
    g.submit::<Overlord>("GAME f07 pswd7\nUNIT U702\nMOVE OUT\nUNIT U705\nSTACK U702\nPILLAGE\n").unwrap();
    g.run::<Overlord>(Threads::One, |_, _| {}).unwrap();
    let f05 = text(&g, 2, "f05");
    let f07 = text(&g, 2, "f07");
    assert!(f05.contains("taxes from Anarnium [L18] collected."), "{f05}");
    assert!(f05.contains("Taxes this month: "), "{f05}");
    assert!(
        f07.contains(
            "Battle at Ethorad Plains [L62]: Anarnium Rangers [U239], on guard, attacks the pillagers, Axemen [U705]."
        ),
        "the pillagers are fought: {f07}"
    );
    assert!(f07.contains("Battle at Ethorad Plains [L62], day 3 (pillage; you were defender):"), "{f07}");
    // The pillagers lost: the plains' taxes still went to their owner.
    assert!(f05.contains("coins [coin] taxes from Ethorad Plains [L62] collected."), "{f05}");
    let state = g.state::<Overlord>(2).unwrap();
    let axemen = state.units.iter().find(|u| u.id == "U705").unwrap();
    assert!(axemen.figures < 20, "{} figures left", axemen.figures);
    let json = fs::read_to_string(g.report_path(2, "f07", ReportKind::Json)).unwrap();
    assert!(json.contains("\"battles\""), "f07's JSON report has its battle");
}
