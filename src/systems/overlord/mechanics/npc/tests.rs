//! The non-player factions' reaction to attacks (NPC-IMP, NPC-MAGES, NPC-CIT,
//! NPC-ALLY), and their guards and allies as the stances make them act.

use crate::systems::overlord::testkit::{Game, Tiny};

/// fi: the Imperials (NPC, Friendly by default, `provoked` Enemy), guarding L1
/// with U4; fc: the Citizens (NPC, Friendly, never provoked), allied to fi, with
/// U5; fa and fb: players, with U1 and U3 (and fb's U2 at L1 too).
fn imperial_city() -> Tiny {
    let ldr = |t: Tiny, id: &str, f: &str| t.unit(id, f, "ldr", 1, "L1").skills(&[("cmbt", 3000)]);
    let t = Tiny::new()
        .faction("fa")
        .faction("fb")
        .faction("fi")
        .with_faction(|f| {
            f.npc = true;
            f.default_stance = "friend".into();
            f.stances.insert("fc".into(), "ally".into());
            f.provoked = Some("enemy".into());
        })
        .faction("fc")
        .with_faction(|f| {
            f.npc = true;
            f.default_stance = "friend".into();
            f.stances.insert("fi".into(), "ally".into());
        })
        .location("L1", "plai");
    let t = ldr(t, "U1", "fa");
    let t = ldr(t, "U3", "fb");
    let t = ldr(t, "U4", "fi").with_unit(|u| u.orders = vec!["@GUARD".into()]);
    ldr(t, "U5", "fc")
}

fn battle_sides(g: &Game) -> Vec<[Vec<String>; 2]> {
    let b = g.engine.world().resource::<crate::systems::overlord::mechanics::combat::Battles>();
    b.0.iter().map(|b| [b.sides[0].factions.clone(), b.sides[1].factions.clone()]).collect()
}

#[test]
fn the_imperials_are_friendly_until_attacked_then_enemy_npc_imp_npc_mages() {
    // fa attacks an imperial guard: the Imperials hold fa Enemy from then on, and say
    // so in their report; fb, who attacked no one, stays a friend.
    let mut g = imperial_city().advertising().without_money().build();
    assert_eq!(g.stance("fi", "fa"), "friend");
    g.orders("fa", "UNIT U1\nATTACK U4\n").days(1);
    assert_eq!(battle_sides(&g)[0][0], ["fa"]);
    assert_eq!(g.stance("fi", "fa"), "enemy");
    assert_eq!(g.stance("fi", "fb"), "friend");
    assert!(g.said("fi", "Attacked by"), "{:?}", g.events("fi"));
    // The Citizens were not attacked (their ally fi did not call them in: fc has no
    // guard there), and are never provoked anyway.
    assert_eq!(g.stance("fc", "fa"), "friend");
}

#[test]
fn imperial_guards_defend_an_attacked_player_and_take_the_attacker_as_enemy_npc_imp() {
    // "Their guards defend any attacked unit": fa attacks fb's U3 under the eyes of
    // the imperial guard U4; fi holds fb Friendly, so it defends, and being attacked
    // in its turn it holds fa Enemy, and keeps it (saved with the game).
    let mut g = imperial_city().advertising().without_money().build();
    g.orders("fa", "UNIT U1\nATTACK U3\n").days(1);
    let sides = battle_sides(&g);
    assert_eq!(sides[0][0], ["fa"]);
    // NPC-ALLY: the Citizens, allies of the Imperials, come to their aid; being
    // Citizens, they are not provoked (NPC-CIT).
    assert_eq!(sides[0][1], ["fb", "fi", "fc"]);
    assert_eq!(g.stance("fi", "fa"), "enemy");
    assert_eq!(g.stance("fc", "fa"), "friend");
    // fb is a player: attacks change nothing for it unless it says so.
    assert_eq!(g.stance("fb", "fa"), "neutral");
    let state = g.state();
    let fi = state.factions.iter().find(|f| f.id == "fi").unwrap();
    assert_eq!(fi.stances.get("fa").map(String::as_str), Some("enemy"), "saved with the game");
}

#[test]
fn a_provoked_faction_never_grows_friendlier_and_citizens_are_never_provoked_npc_cit() {
    // fi already holds fa Enemy: nothing changes and nothing is said. fc (no
    // `provoked`) attacked by fb stays Friendly.
    let mut g = imperial_city()
        .with_scenario(|s| {
            let fi = s.factions.iter_mut().find(|f| f.id == "fi").unwrap();
            fi.stances.insert("fa".into(), "enemy".into());
            fi.provoked = Some("hostile".into());
        })
        .advertising()
        .without_money()
        .build();
    g.orders("fb", "UNIT U3\nATTACK U5\n").days(1);
    assert!(!battle_sides(&g).is_empty());
    assert_eq!(g.stance("fc", "fb"), "friend", "NPC-CIT: always Friendly");
    assert_eq!(g.stance("fi", "fa"), "enemy", "Enemy is less friendly than Hostile: kept");
}
