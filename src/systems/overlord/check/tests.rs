//! The checker on a tiny world (FILE-CHECK).

use super::*;
use crate::systems::overlord::orders::parse;
use crate::systems::overlord::testkit::{overlord_rules, scenario};
use std::sync::Arc;

/// fa owns a leader (U1), ten men (U2), skeletons (U6) and a mage with 1 mana (U7)
/// in L1, a leader in L2 (U5);
/// fb owns U3. L1 has exits N to L2 and IN to L3, and offers men.
const WORLD: &str = r#"(
  game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 0),
  factions: [
    (id: "fa", name: "Alphans", password: "pa", default_stance: "neutral"),
    (id: "fb", name: "Betans", password: "pb", default_stance: "neutral"),
  ],
  locations: [
    (id: "L1", name: "Ford", terrain: "city", population: 1000,
     exits: [(dir: "N", to: "L2"), (dir: "IN", to: "L3")],
     recruits: [(race: "man", count: 20, price: 50)],
     market: (sells: [(item: "swrd", quantity: 10, price: 200)], buys: [(item: "food", quantity: 100, price: 8)])),
    (id: "L2", name: "Heath", terrain: "plai", population: 200, exits: [(dir: "S", to: "L1")],
     titles: [(title: "shrf")]),
    (id: "L3", name: "Cellar", terrain: "city", kind: Inner, container: Some("L1"), exits: [(dir: "OUT", to: "L1")]),
  ],
  structures: [],
  units: [
    (id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1", skills: [("cmbt", 3000)]),
    (id: "U2", name: "Men", faction: "fa", race: "man", figures: 10, location: "L1", skills: [("digg", 100)],
     orders: ["RECRUIT fanU02 5 man 50"]),
    (id: "U3", name: "Bob", faction: "fb", race: "ldr", figures: 1, location: "L1"),
    (id: "U5", name: "Dee", faction: "fa", race: "ldr", figures: 1, location: "L2"),
    (id: "U6", name: "Bones", faction: "fa", race: "skel", figures: 5, location: "L1"),
    (id: "U7", name: "Eve", faction: "fa", race: "ldr", figures: 1, location: "L1",
     skills: [("mage", 3000), ("wate", 3000), ("wwal", 3000), ("rmor", 3000), ("fwal", 12000)],
     items: [("mana", 1, 0)]),
  ],
)"#;

fn run(text: &str) -> Check {
    let state = scenario(WORLD);
    let catalog = Catalog::new(Arc::new((*overlord_rules()).clone()));
    check_both(text, "fa", &state, &catalog)
}

/// The check of order file `text` against `state`, and the same file read and
/// checked as the turn's mail index gives them (its rule set, and the state of
/// `records.rs`), which must say the same.
fn check_both(text: &str, faction: &str, state: &Scenario, catalog: &Catalog) -> Check {
    use crate::core::game::index::{self, FactionRecord, GameRecord, SystemLookup};
    let file = &parse(text, catalog).expect("header");
    let whole = check(file, faction, state, catalog);
    let game = GameRecord { name: state.game.name.clone(), title: String::new(), turn: state.game.turn };
    let factions = state.factions.iter().map(|f| FactionRecord {
        id: f.id.clone(),
        name: f.name.clone(),
        password: String::new(),
        email: String::new(),
    });
    let r = index::records(game, &(), factions, |out| records::records(state, out)).unwrap();
    let part = records::state(&SystemLookup::new(&r), faction, file).unwrap();
    // Read and checked with the rule set the index keeps.
    let kept = Catalog::new(Arc::new(records::mail_rules(&catalog.rules)));
    let again = parse(text, &kept).expect("header");
    assert_eq!(check(&again, faction, &part, &kept), whole, "the check through the mail index says the same");
    whole
}

fn lines(c: &Check) -> Vec<String> {
    c.problems.iter().map(|p| p.to_string()).collect()
}

#[test]
fn a_clean_file_has_no_problems() {
    // FILE-CHECK: a file of valid orders gets an empty list and a summary.
    let c = run("GAME fa pa\nNAME The Alphans\nUNIT U1\nMOVE N\nSTUDY tact\nUNIT 2\nUSE digg\nSTUDY blde\nEND\n");
    assert_eq!(lines(&c), Vec::<String>::new());
    assert_eq!(c.summary(), "2 unit blocks, 4 orders, 1 faction order: 0 errors, 0 warnings");
}

#[test]
fn syntax_problems_are_errors_with_their_line() {
    // FILE-CHECK, PFX-REMOVE: unreadable lines are errors; the 51st order is a warning.
    let mut text = String::from("GAME fa pa\nFROB\nUNIT U1\nGIVE U3 glod 5\n");
    for _ in 0..50 {
        text.push_str("WORK\n");
    }
    let c = run(&text);
    let l = lines(&c);
    assert_eq!(l[0], "line 2: error: 'FROB' is not a faction order");
    assert_eq!(l[1], "line 4: error: 'glod' is not an item of this game");
    assert_eq!(l[2], "line 54: warning: unit U1 already has 50 orders; this one is ignored");
    assert_eq!((c.errors(), c.warnings()), (2, 1));
}

#[test]
fn foreign_and_unknown_units_get_the_same_message() {
    // FILE-CHECK: not yours; never say whether another faction's unit exists.
    let c = run("GAME fa pa\nUNIT U3\nWORK\nUNIT U99\nWORK\n");
    assert_eq!(
        lines(&c),
        [
            "line 2: error: U3 is not one of your units; the block is ignored",
            "line 4: error: U99 is not one of your units; the block is ignored"
        ]
    );
}

#[test]
fn order_kinds_locations_factions_and_directions() {
    // PFX-KIND (TEACH is for leaders), unknown location and faction, no exit that way.
    let c = run(
        "GAME fa pa\nUNIT U2\nTEACH U1 cmbt\nMOVE L77\nSTANCE f99 ally\nUNIT U1\nMOVE NE\nMOVE N\nUNIT U5\nMOVE N\n",
    );
    assert_eq!(
        lines(&c),
        [
            "line 3: error: only leaders may give TEACH",
            "line 4: error: there is no location L77 in this game",
            "line 5: error: there is no faction f99 in this game",
            "line 7: warning: Ford (L1) has no exit NE",
            "line 10: warning: Heath (L2) has no exit N",
        ]
    );
    // Only the first move is checked: after it the unit is elsewhere.
    assert!(!lines(&c).iter().any(|l| l.starts_with("line 8:")));
}

#[test]
fn moves_to_locations_that_are_not_next_caravans_with_a_broken_route_and_vessel_targets_file_check_ord_caravan() {
    // The location graph: L2 is next to L1, L3 is inside L1, and L2 and L3 do not
    // touch. U5 stands in L2, on no leg of U1's first caravan.
    let c = run("GAME fa pa\nUNIT U1\nMOVE L3\nUNIT U5\nMOVE L3\nCARAVAN L1 L3\nUNIT U2\nCARAVAN L2 L1 L3 L2\n");
    assert_eq!(
        lines(&c),
        [
            "line 5: warning: L3 is not next to L2: a move goes to a neighbouring location",
            "line 8: warning: the caravan's route has no exit from L3 to L2: it stops there",
        ]
    );
    let c = run("GAME fa pa\nUNIT U5\nCARAVAN L1 L3\nUNIT U1\nTARGET fshi\nTARGET mine\n");
    assert_eq!(
        lines(&c),
        [
            "line 3: warning: the caravan's route does not pass L2, where the unit is",
            "line 5: warning: a fishing boat is not built from works: a skill makes it whole (USE of that skill)",
        ]
    );
}

#[test]
fn skills_a_unit_can_never_study() {
    // ORD-STUDY: creatures cannot study; leader-only, creature-only and unlearnable
    // skills; a level the skill does not have.
    let c = run(
        "GAME fa pa\nUNIT U6\nSTUDY cmbt\nUNIT U2\nSTUDY tact\nSTUDY pgaz\nSTUDY egra\nUNIT U1\nSTUDY cmbt 99\nSTUDY tact\n",
    );
    assert_eq!(
        lines(&c),
        [
            "line 3: error: only leaders and followers may give STUDY",
            "line 3: error: creatures cannot study",
            "line 5: error: only leaders and heroes can study tactics (tact)",
            "line 6: error: petrifying gaze (pgaz) is a creature skill: no leader or follower can study it",
            "line 7: error: even grace (egra) cannot be learned by study",
            "line 9: error: combat (cmbt) has only 7 level(s), not 99",
        ]
    );
}

#[test]
fn use_without_the_skill_and_recruits_not_offered() {
    let c = run("GAME fa pa\nUNIT U1\nUSE mini\nSTUDY lumb\nUSE lumb\nRECRUIT fanU01 2 elve 50\n");
    assert_eq!(
        lines(&c),
        [
            "line 3: warning: this unit does not know iron mining (mini) and does not study it first: the order fails unless it learns the skill",
            "line 6: warning: Ford (L1) offers no elve recruits this month",
        ]
    );
}

#[test]
fn new_ids_are_checked_against_the_orders_that_create_them() {
    // FILE-NEWID, FILE-NEWID-LIFE: fanU01 is recruited in this file, fanU02 by U2's
    // pending list (U2 has no block); fanU03 by nobody; fbnU01 is not fa's.
    let c = run(
        "GAME fa pa\nUNIT U1\nRECRUIT fanU01 5 man 50\nGIVE fanU03 coin 1\nUNIT fanU01\nSTUDY tact\nUNIT fanU02\nWORK\nUNIT fbnU01\nWORK\n",
    );
    assert_eq!(
        lines(&c),
        [
            "line 4: warning: no RECRUIT or SPLIT of yours creates fanU03: unless one does this month, this order vanishes at the end of the month",
            // The recruit's race is known: men may not study tactics.
            "line 6: error: only leaders and heroes can study tactics (tact)",
            "line 9: error: fbnU01 is not a new id of your faction: new units are named fanU00 to fanU99; the block is ignored",
        ]
    );
}

#[test]
fn a_block_replacing_a_list_drops_what_that_list_created() {
    // U2's block replaces its pending RECRUIT: fanU02 is no longer created.
    let c = run("GAME fa pa\nUNIT U2\nWORK\nUNIT fanU02\nWORK\n");
    assert_eq!(
        lines(&c),
        [
            "line 4: warning: no RECRUIT or SPLIT of yours creates fanU02: unless one does this month, its orders vanish at the end of the month"
        ]
    );
}

#[test]
fn attack_combat_and_tactic_mistakes_are_named_by_line_ord_attack_ord_combat_ord_tactic() {
    let c = run(
        "GAME fa pa\nUNIT U1\nATTACK U2\nATTACK fa\nATTACK U3\nUNIT U5\nATTACK U3\nCOMBAT tgld MELEE\nTACTIC FIGHT FRONT SIDEWAYS CHARGE\nATTACK U77\n",
    );
    let l = lines(&c);
    assert!(l.iter().any(|x| x.starts_with("line 3: error: U2 is a unit of your own faction")), "{l:#?}");
    assert!(l.iter().any(|x| x.starts_with("line 4: error: a faction cannot attack itself")), "{l:#?}");
    assert!(!l.iter().any(|x| x.starts_with("line 5:")), "U3 is here: {l:#?}");
    assert!(l.iter().any(|x| x.starts_with("line 7: warning: U3 is not at L2 now")), "{l:#?}");
    assert!(l.iter().any(|x| x.starts_with("line 8: warning: this unit does not know target the leader")), "{l:#?}");
    assert!(l.iter().any(|x| x.starts_with("line 9: error:")), "{l:#?}");
    // An unknown unit reads like one elsewhere: the checker leaks nothing.
    assert!(l.iter().any(|x| x.starts_with("line 10: warning: U77 is not at L2 now")), "{l:#?}");
}

#[test]
fn market_orders_name_goods_prices_and_items_held_ord_buy_ord_sell() {
    // Ford sells swords and buys food. An unknown item and a negative price are
    // syntax errors; coins are no goods; without a price, the place must list the
    // item; a price past the market ceiling (200% of the item's price: 400 for a
    // sword) is suspect; Ann holds no food to sell.
    let c = run(
        "GAME fa pa\nUNIT U1\nBUY 2 zzzz 10\nBUY 2 swrd -5\nBUY 2 coin 1\nSELL 2 iron\nBUY 2 swrd 99999\nSELL 3 food\nBUY 2 swrd\n",
    );
    let got = lines(&c);
    let has = |n: usize, text: &str| got.iter().any(|l| l.starts_with(&format!("line {n}: ")) && l.contains(text));
    assert!(has(3, "error"), "{got:#?}");
    assert!(has(4, "error"), "{got:#?}");
    assert!(has(5, "coins (coin) cannot be bought or sold on markets"), "{got:#?}");
    assert!(has(6, "Ford (L1) buys no iron: give a price"), "{got:#?}");
    assert!(has(7, "99999 for one sword (swrd) is more than any place asks (400)"), "{got:#?}");
    assert!(has(8, "this unit holds no food now: the SELL waits until it does"), "{got:#?}");
    assert!(!got.iter().any(|l| l.starts_with("line 9: ")), "a plain BUY at the listed price is fine: {got:#?}");
}

#[test]
fn after_a_move_the_market_and_recruits_here_say_nothing() {
    // Ann goes north to Heath before she sells iron and hires: Ford's market (which
    // buys no iron) and its recruits are not hers to check against. Before the move
    // the same SELL is an error and the RECRUIT of zombies, which Ford does not
    // offer, a warning.
    let c = run(
        "GAME fa pa\nUNIT U1\nSELL 2 iron\nRECRUIT fanU01 2 zomb 0\nMOVE N\nSELL 2 iron\nRECRUIT fanU02 2 zomb 0\n",
    );
    let got = lines(&c);
    assert!(got.iter().any(|l| l.starts_with("line 3: error: Ford (L1) buys no iron")), "{got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 4: warning: Ford (L1) offers no zomb")), "{got:#?}");
    assert!(!got.iter().any(|l| l.starts_with("line 6: ") && l.contains("buys no")), "{got:#?}");
    assert!(!got.iter().any(|l| l.starts_with("line 7: ")), "{got:#?}");
}

#[test]
fn a_claim_names_a_title_of_its_place_and_a_title_goes_to_leaders_ord_claim_ord_bestow() {
    // Heath bears the Sheriff's title, Ford none: a CLAIM of it in Ford (named, or
    // where Ann stands) is an error; named in Heath it is fine, and so is a CLAIM
    // after a move north. BESTOW on Ann's own men is an error: they are followers.
    let c = run("GAME fa pa\nUNIT U1\nCLAIM shrf L1\nCLAIM shrf\nCLAIM shrf L2\nBESTOW U2\nMOVE N\nCLAIM shrf\n");
    let got = lines(&c);
    assert!(got.iter().any(|l| l.starts_with("line 3: error: Ford (L1) bears no title shrf")), "{got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 4: error: Ford (L1) bears no title shrf")), "{got:#?}");
    assert!(!got.iter().any(|l| l.starts_with("line 5: ")), "{got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 6: error: U2 is no leader")), "{got:#?}");
    assert!(!got.iter().any(|l| l.starts_with("line 8: ")), "{got:#?}");
}

#[test]
fn pillage_with_too_few_figures_or_without_combat_is_an_error_ord_pillage_own_pillage_min() {
    // OWN-PILLAGE-MIN (20 in alpha): Ann's 10 men pillage nothing, and have no
    // combat; Ann herself has 1st combat but is one figure. OWN-FORCE is a warning
    // where the people need more.
    let c = run("GAME fa pa\nUNIT U2\nPILLAGE\nUNIT U1\nPILLAGE\n");
    let got = lines(&c);
    assert!(got.iter().any(|l| l.starts_with("line 3: error: pillaging needs level 1 in cmbt")), "{got:#?}");
    assert!(
        got.iter().any(|l| l.starts_with("line 3: error: 10 figures pillage nothing: PILLAGE needs at least 20")),
        "{got:#?}"
    );
    assert!(got.iter().any(|l| l.starts_with("line 5: error: 1 figures pillage nothing")), "{got:#?}");
    assert!(!got.iter().any(|l| l.starts_with("line 5: error: pillaging needs")), "{got:#?}");
}

#[test]
fn oaths_and_given_units_name_another_faction_and_a_unit_of_the_stack_ord_oath_unit_xfer() {
    // An OATH to Ann's own faction and a GIVE to it are errors; GIVE of Bob's unit
    // (not fa's) is an error; Men are not stacked under Ann: a warning. Giving
    // herself to Bob, or an OATH to him, is fine.
    let c = run("GAME fa pa\nUNIT U1\nOATH U2\nGIVE U2 U1\nGIVE U3 U3\nGIVE U3 U2\nGIVE U3 U1\nOATH U3\n");
    let got = lines(&c);
    assert!(got.iter().any(|l| l.starts_with("line 3: error: U2 is of your own faction")), "{got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 4: error: U2 is of your own faction")), "{got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 5: error: U3 is not one of your units")), "{got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 6: warning: U2 is not stacked under U1 now")), "{got:#?}");
    assert!(!got.iter().any(|l| l.starts_with("line 7: ") || l.starts_with("line 8: ")), "{got:#?}");
}

#[test]
fn a_cancel_names_a_title_of_its_place_and_comes_from_a_title_holder_ord_cancel() {
    // Heath bears the Sheriff's title, Ford none. Ann holds no title now: a warning
    // (she may win one first).
    let c = run("GAME fa pa\nUNIT U1\nCANCEL shrf L1\nCANCEL shrf L2\n");
    let got = lines(&c);
    assert!(got.iter().any(|l| l.starts_with("line 3: error: Ford (L1) bears no title shrf")), "{got:#?}");
    assert!(!got.iter().any(|l| l.starts_with("line 4: error")), "{got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 4: warning: this unit holds no title now")), "{got:#?}");
}

#[test]
fn a_title_held_away_from_where_its_holder_stands_counts_for_a_cancel_ord_cancel() {
    // Ann, in Ford, holds the Sheriff's title of Heath, where no unit of hers
    // stands: she is a title holder, whether the file is checked against the whole
    // state or through the mail index.
    let mut state = scenario(WORLD);
    state.locations[1].titles[0].holder = Some("U1".into());
    state.units.iter_mut().find(|u| u.id == "U5").unwrap().location = "L1".into();
    let catalog = Catalog::new(Arc::new((*overlord_rules()).clone()));
    let text = "GAME fa pa\nUNIT U1\nCANCEL shrf L1\nUNIT U2\nCANCEL shrf L1\n";
    let got = lines(&check_both(text, "fa", &state, &catalog));
    assert!(!got.iter().any(|l| l.starts_with("line 3: warning")), "{got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 5: warning: this unit holds no title now")), "{got:#?}");
}

#[test]
fn mana_never_changes_hands_itm_give() {
    let c = run("GAME fa pa\nUNIT U1\nGIVE U2 mana 1\nDROP mana\nGIVE U2 coin 1\n");
    let got = lines(&c);
    assert!(got.iter().any(|l| l.starts_with("line 3: error: mana cannot change hands")), "{got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 4: error: mana cannot change hands")), "{got:#?}");
    assert!(!got.iter().any(|l| l.starts_with("line 5: ")), "{got:#?}");
}

#[test]
fn spells_without_a_target_without_mana_or_only_for_battle_mag_target_mag_cost_mag_kinds() {
    // U7 knows water walking (1 mana, no target), raise morale (1 mana, a unit
    // here) and fire wall (a combat spell, 10 mana); it has 1 mana.
    let c = run("GAME fa pa\nUNIT U7\nUSE wwal\nUSE rmor\nUSE fwal\nTARGET U1\nUSE rmor\nUSE frai\n");
    let got = lines(&c);
    assert!(!got.iter().any(|l| l.starts_with("line 3:")), "wwal needs no target and the mana is there: {got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 4: error: raise morale (rmor) needs a target")), "{got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 5: error: fire wall (fwal) is used only in battle")), "{got:#?}");
    assert!(!got.iter().any(|l| l.starts_with("line 7:")), "after TARGET: {got:#?}");
    assert!(got.iter().any(|l| l.starts_with("line 8: warning: this unit does not know")), "{got:#?}");
    let c = run("GAME fa pa\nUNIT U7\nUSE medi\nTARGET U1\nUSE ides\n");
    let got = lines(&c);
    assert!(got.iter().any(|l| l.starts_with("line 3: warning: this unit does not know meditation")), "{got:#?}");
}

#[test]
fn a_spell_costing_more_mana_than_the_unit_has_is_flagged_mag_cost() {
    let c = run("GAME fa pa\nUNIT U7\n2 USE wwal\nUNIT U1\nUSE cmbt\n");
    assert!(lines(&c).iter().all(|l| !l.contains("mana")), "{:#?}", lines(&c));
    let state = {
        let mut s = scenario(WORLD);
        s.units.iter_mut().find(|u| u.id == "U7").unwrap().items.clear();
        s
    };
    let catalog = Catalog::new(Arc::new((*overlord_rules()).clone()));
    let got = lines(&check_both("GAME fa pa\nUNIT U7\nUSE wwal\n", "fa", &state, &catalog));
    assert!(
        got.iter().any(|l| l.starts_with("line 3: warning: water walking (wwal) costs 1 mana and the unit has 0")),
        "{got:#?}"
    );
}

#[test]
fn a_summons_into_a_new_unit_creates_it() {
    // TARGET fanU05 before a summons: orders for fanU05 are not told it is never made.
    let c = run("GAME fa pa\nUNIT U7\nTARGET fanU05\nUSE wwal\nUNIT fanU05\nNAME \"Wolves\"\n");
    let got = lines(&c);
    assert!(!got.iter().any(|l| l.contains("vanishes")), "{got:#?}");
}

#[test]
fn a_block_of_someone_else_s_unit_is_still_read_for_mistakes_file_check() {
    // FILE-CHECK: a mistyped unit id does not hide the mistakes of its block: every
    // problem of the file is told in one pass. Its RECRUIT creates nothing.
    let c = run(
        "GAME fa pa\nUNIT U3\nMOVE Q\nSTUDY nosuchskill\nRECRUIT fanU05 5 man 50\nUNIT fbnU01\nGIVE L9 coin 1\nUNIT fanU05\nNAME \"x\"\n",
    );
    let l = lines(&c);
    assert!(l.iter().any(|x| x.starts_with("line 2: error: U3 is not one of your units")), "{l:#?}");
    assert!(l.iter().any(|x| x.starts_with("line 3: error:")), "{l:#?}");
    assert!(l.iter().any(|x| x.starts_with("line 4: error:")), "{l:#?}");
    assert!(l.iter().any(|x| x.starts_with("line 6: error: fbnU01 is not a new id of your faction")), "{l:#?}");
    assert!(l.iter().any(|x| x.starts_with("line 7: error:")), "{l:#?}");
    assert!(l.iter().any(|x| x.starts_with("line 8: warning: no RECRUIT or SPLIT of yours creates fanU05")), "{l:#?}");
}

#[test]
fn a_new_id_of_a_faction_whose_id_begins_with_yours_is_not_yours_file_newid() {
    // FILE-NEWID: "fanU01" belongs to fa; a faction "f" could not use it.
    let state = scenario(WORLD);
    let catalog = Catalog::new(Arc::new((*overlord_rules()).clone()));
    let file = parse("GAME f pa\nUNIT fanU01\nNAME \"x\"\n", &catalog).expect("header");
    let c = check(&file, "f", &state, &catalog);
    assert!(
        lines(&c).iter().any(|x| x.starts_with("line 2: error: fanU01 is not a new id of your faction")),
        "{:#?}",
        lines(&c)
    );
}

/// FILE-CHECK: the mail index keeps of a faction what the checker reads, not its
/// password, email, knowledge or funds; checked through the index, a file that
/// names factions gets what the whole state gives it.
#[test]
fn the_mail_index_keeps_no_faction_secret_or_knowledge() {
    let mut state = scenario(WORLD);
    state.factions[0].email = "alpha@example.org".into();
    state.factions[0].known = vec!["swrd".into()];
    state.factions[0].funds.insert("coin".into(), 77);
    let kept = records::mail_faction(&state.factions[0]);
    assert_eq!((kept.id.as_str(), kept.name.as_str(), kept.default_stance.as_str()), ("fa", "Alphans", "neutral"));
    assert!(kept.password.is_empty() && kept.email.is_empty());
    assert!(kept.known.is_empty() && kept.funds.is_empty());
    let catalog = Catalog::new(Arc::new((*overlord_rules()).clone()));
    let c = check_both("GAME fa pa\nUNIT U1\nATTACK fb\nATTACK fz\nEND\n", "fa", &state, &catalog);
    assert!(lines(&c).iter().any(|l| l.contains("fz")), "{:?}", lines(&c));
    assert!(!lines(&c).iter().any(|l| l.contains("fb")), "{:?}", lines(&c));
}

/// FILE-CHECK: the mail index keeps of a unit what the checker reads (id,
/// faction, race, figures, place, stack leader, items, skills, target, pending
/// orders), not its name, description or combat settings; read back, the rest
/// are their defaults, and a check through the index says what the whole state
/// says of that unit's orders.
#[test]
fn the_mail_index_keeps_of_a_unit_what_the_checker_reads() {
    use crate::core::data::bin;
    use crate::systems::overlord::data::{CombatTactics, Unit};
    let mut state = scenario(WORLD);
    let eve = state.units.iter_mut().find(|u| u.id == "U7").expect("U7");
    eve.description = "plots against fb".into();
    eve.combat_orders = vec!["Ranged".into()];
    eve.tactics = Some(Arc::new(CombatTactics::default()));
    eve.target = Some("U3".into());
    eve.stack_leader = Some("U1".into());
    eve.orders = vec!["SPLIT fanU05 1".into()];
    let back: Unit = bin::from_bytes(&bin::to_bytes(&records::mail_unit(eve)).unwrap()).unwrap();
    let kept = Unit {
        id: eve.id.clone(),
        faction: eve.faction.clone(),
        race: eve.race.clone(),
        figures: eve.figures,
        location: eve.location.clone(),
        stack_leader: eve.stack_leader.clone(),
        items: eve.items.clone(),
        skills: eve.skills.clone(),
        target: eve.target.clone(),
        orders: eve.orders.clone(),
        ..Unit::default()
    };
    assert_eq!(back, kept);
    assert!(!eve.name.is_empty() && back.name.is_empty() && back.description.is_empty() && back.tactics.is_none());
    let catalog = Catalog::new(Arc::new((*overlord_rules()).clone()));
    // Its pending SPLIT makes the new unit another unit's order names; its
    // target is the one raise morale needs (MAG-TARGET).
    let given = lines(&check_both("GAME fa pa\nUNIT U1\nGIVE fanU05 coin 1\nEND\n", "fa", &state, &catalog));
    assert!(!given.iter().any(|l| l.contains("fanU05")), "{given:?}");
    let cast = lines(&check_both("GAME fa pa\nUNIT U7\nUSE rmor\nEND\n", "fa", &state, &catalog));
    assert!(cast.is_empty(), "{cast:?}");
    state.units.iter_mut().find(|u| u.id == "U7").expect("U7").target = None;
    let cast = lines(&check_both("GAME fa pa\nUNIT U7\nUSE rmor\nEND\n", "fa", &state, &catalog));
    assert!(cast.iter().any(|l| l.contains("needs a target")), "{cast:?}");
}
