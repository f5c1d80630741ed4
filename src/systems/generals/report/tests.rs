//! The reports (generals-rules.txt 162; ruling 15; the spec's JSON report).

use super::text;
use crate::core::orders::mail::parse_mail;
use crate::systems::generals::fixture::{a_row, play, rules, troop};
use crate::systems::generals::orders::{Words, check::check};

#[test]
fn a_player_sees_its_regions_whole_and_its_scouts_count_the_neighbours_roughly() {
    // Ruling 15: "a player sees its own regions and every region adjacent to them:
    // owner, troop types and a rounded count (to the nearest 10 men)".
    let mut s = a_row();
    let mut t4 = troop("T4", "p2", "R4");
    t4.men = 44;
    s.troops.push(t4);
    let mut g = play(s);
    g.run();
    let r = g.report("p1");
    let ids: Vec<&str> = r.regions.iter().map(|x| x.id.as_str()).collect();
    assert_eq!(ids, ["R1", "R2", "R3", "R4", "R6"], "own regions, then the neighbours; not R5");
    let r1 = &r.regions[0];
    assert_eq!((r1.owner.as_deref(), r1.income, r1.hire_limit_original), (Some("p1"), Some(10), Some(50)));
    assert_eq!(r1.troops[0].id.as_deref(), Some("T1"));
    let r4 = &r.regions[3];
    assert_eq!((r4.owner.as_deref(), r4.income, r4.troops.len()), (Some("p2"), None, 1));
    assert_eq!((r4.troops[0].id.as_ref(), r4.troops[0].men, r4.troops[0].kind.as_str()), (None, 40, "militia"));
    let text = text::render(r);
    assert!(text.contains("  Region R4 [R4], plains: held by p2. Next to R3, R5.\n    about 40 militia\n"), "{text}");
}

#[test]
fn a_sneaky_general_hides_his_army_from_less_sneaky_scouts() {
    // Ruling 15: "a general with Sneaky n hides armies from scouting unless the
    // observer's best Sneaky is ≥ n".
    let mut s = a_row();
    s.troops.push(troop("T4", "p2", "R4"));
    s.generals[1].region = "R4".into();
    s.generals[1].skills.insert("snea".into(), 2);
    let seen = |mine: u32| {
        let mut s = s.clone();
        if mine > 0 {
            s.generals[0].skills.insert("snea".into(), mine);
        }
        let mut g = play(s);
        g.run();
        let r4 = g.report("p1").regions.iter().find(|x| x.id == "R4").unwrap().clone();
        (r4.owner.is_some(), r4.troops.len())
    };
    assert_eq!(seen(0), (false, 0));
    assert_eq!(seen(1), (false, 0));
    assert_eq!(seen(2), (true, 1));
}

#[test]
fn the_json_report_has_the_fields_client_tools_read() {
    let mut s = a_row();
    s.players[0].relations.insert("p2".into(), crate::systems::generals::data::Relation::War);
    s.players[1].relations.insert("p1".into(), crate::systems::generals::data::Relation::War);
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": PREPARE").run();
    let json: serde_json::Value = serde_json::to_value(g.report("p1")).unwrap();
    let p = &json["player"];
    assert_eq!(
        (p["id"].as_str(), p["treasury"].as_u64(), p["victory_points"].as_u64()),
        (Some("p1"), Some(530), Some(0))
    );
    assert_eq!(p["diplomacy"]["p2"], "war");
    assert!(p.get("password").is_none(), "no password in the JSON report");
    let ann = &json["generals"][0];
    assert_eq!(
        (ann["name"].as_str(), ann["region"].as_str(), ann["renown"].as_u64()),
        (Some("Ann"), Some("R1"), Some(0))
    );
    assert_eq!(ann["skills"]["Healer"], 1);
    assert_eq!(ann["action"], "prepared the battlefield");
    let r1 = &json["regions"][0];
    for field in [
        "id",
        "name",
        "terrain",
        "owner",
        "income",
        "income_original",
        "hire_limit",
        "hire_limit_original",
        "defense",
        "prepared_by",
        "troops",
    ] {
        assert!(r1.get(field).is_some(), "regions[0].{field}");
    }
    let t = &r1["troops"][0];
    assert_eq!(
        (t["id"].as_str(), t["type"].as_str(), t["men"].as_u64(), t["veteran"].as_u64(), t["reserve"].as_bool()),
        (Some("T1"), Some("militia"), Some(100), Some(0), Some(false))
    );
    assert!(json["battles"].is_array());
    assert_eq!(json["events"][0]["line"], 2);
}

#[test]
fn the_order_template_checks_clean() {
    let mut g = play(a_row());
    g.orders("p1", "GENERAL \"Ann\": TRAIN \"Cid\"").run();
    let r = g.report("p1");
    let t = text::template(r);
    assert!(
        t.starts_with("GAME p1 <password>\n") && t.contains("GENERAL \"Ann\": REST") && t.contains("REGION R3: FIELD"),
        "{t}"
    );
    assert!(t.contains("# GENERAL \"Cid\": TRAVEL"), "a new general may only move: {t}");
    let rules = rules();
    let mail = parse_mail(&t.replacen("<password>", "pw", 1), &Words::new(&rules)).unwrap();
    let c = check(&rules, &g.state(), "p1", &mail.orders[0]);
    assert!(c.problems.iter().all(|p| p.severity != crate::core::orders::check::Severity::Error), "{:?}", c.problems);
}

#[test]
fn formal_alliances_are_known_to_all_and_secret_ones_to_their_members() {
    // generals-rules.txt 154: "A formal alliance is public, and known to all
    // players … A secret alliance is only known by those in the alliance."
    use crate::systems::generals::data::Relation;
    let mut s = a_row();
    for p in ["p3", "p4"] {
        s.players.push(crate::systems::generals::fixture::player(p));
    }
    s.players[0].relations.insert("p2".into(), Relation::Ally);
    s.players[1].relations.insert("p1".into(), Relation::Ally);
    s.players[2].relations.insert("p4".into(), Relation::SecretAlly);
    s.players[3].relations.insert("p3".into(), Relation::SecretAlly);
    let mut g = play(s);
    g.run();
    for p in ["p1", "p2", "p3", "p4"] {
        assert_eq!(g.report(p).alliances, [["p1".to_string(), "p2".to_string()]], "{p}");
    }
    assert_eq!(g.report("p3").player.diplomacy["p4"], "secret_ally");
    assert_eq!(g.report("p1").player.diplomacy["p3"], "neutral");
    assert!(text::render(g.report("p4")).contains("\nAlliances\n  p1 and p2\n"));
}

#[test]
fn scouts_round_any_number_of_men_without_overflow() {
    // Ruling 15: to the nearest 10, at least 10; 4294967295 men once overflowed.
    assert_eq!([super::rounded(3, 10), super::rounded(15, 10), super::rounded(24, 10)], [10, 20, 20]);
    assert_eq!(super::rounded(u32::MAX, 10), u32::MAX);
    assert_eq!(super::rounded(7, 1), 7);
}
