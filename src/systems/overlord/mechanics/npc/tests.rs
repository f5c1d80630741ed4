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

/// fm: wild creatures (NPC, Enemy by default) at L1 with U9; fa's U1 leads U2, fb's
/// U3 stands alone. `tamer` is the unit of fa's stack that knows beast mastery;
/// `spared_by` the creatures' skills that spare a stack.
fn creatures(tamer: Option<&str>, spared_by: &[&str]) -> Game {
    let spared_by: Vec<String> = spared_by.iter().map(|s| s.to_string()).collect();
    let t = Tiny::new()
        .faction("fa")
        .faction("fb")
        .faction("fm")
        .with_faction(|f| {
            f.npc = true;
            f.default_stance = "enemy".into();
            f.spared_by = spared_by;
        })
        .location("L1", "plai")
        .unit("U1", "fa", "ldr", 1, "L1")
        .unit("U2", "fa", "ldr", 1, "L1")
        .under("U1")
        .unit("U3", "fb", "ldr", 1, "L1")
        .unit("U9", "fm", "ldr", 1, "L1")
        .skills(&[("cmbt", 3000)]);
    let t = match tamer {
        Some(id) => t.with_scenario(|s| {
            let u = s.units.iter_mut().find(|u| u.id == id).unwrap();
            u.skills.push(crate::systems::overlord::data::SkillExperience("beas".into(), 3000));
        }),
        None => t,
    };
    t.advertising().without_money().build()
}

fn fought(g: &Game) -> Vec<String> {
    let mut out: Vec<String> = battle_sides(g).into_iter().flat_map(|[a, b]| a.into_iter().chain(b)).collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn creatures_spare_a_stack_with_a_beast_master_npc_cre() {
    // Without a sparing skill the creatures attack both players on sight.
    let mut g = creatures(None, &["beas"]);
    g.days(1);
    assert_eq!(fought(&g), ["fa", "fb", "fm"]);
    // fa's leader knows beast mastery: its whole stack is spared, fb is attacked.
    let mut g = creatures(Some("U1"), &["beas"]);
    g.days(1);
    assert_eq!(fought(&g), ["fb", "fm"]);
    // So is a stack whose member, not its leader, knows it.
    let mut g = creatures(Some("U2"), &["beas"]);
    g.days(1);
    assert_eq!(fought(&g), ["fb", "fm"]);
    // The skill spares only where the creatures' faction says so.
    let mut g = creatures(Some("U1"), &[]);
    g.days(1);
    assert_eq!(fought(&g), ["fa", "fb", "fm"]);
}

#[test]
fn outlaws_attack_on_sight_when_enemy_and_only_bar_the_way_when_hostile_npc_out() {
    // NPC-OUT "default Enemy, attack on sight"; the alpha data holds them Hostile
    // (docs/npc.md), which starts no battle by itself.
    for (stance, fights) in [("enemy", true), ("hostile", false)] {
        let mut g = Tiny::new()
            .faction("fa")
            .faction("fo")
            .with_faction(|f| {
                f.npc = true;
                f.default_stance = stance.into();
            })
            .location("L1", "plai")
            .unit("U1", "fa", "ldr", 1, "L1")
            .unit("U9", "fo", "ldr", 1, "L1")
            .skills(&[("cmbt", 3000)])
            .advertising()
            .without_money()
            .build();
        g.days(1);
        assert_eq!(fought(&g), if fights { vec!["fa", "fo"] } else { vec![] }, "outlaws {stance}");
    }
}

#[test]
fn the_alpha_npc_units_keep_their_standing_orders_npc_units() {
    // NPC-UNITS on the imported alpha world: the Emperor (Ykima, U1) holds the
    // Overlord's title and high combat; the guards of Itora (U2) stand on guard and
    // keep `@GUARD`; a master (Acholdang, U201) keeps teaching with `@TEACH void`.
    use crate::core::engine::{Engine, Threads};
    use crate::systems::overlord::Overlord;
    use crate::systems::overlord::testkit::{alpha, overlord_rules};
    use crate::systems::overlord::world::resources::{Directory, Kind};
    let mut e = Engine::<Overlord>::new(overlord_rules(), alpha(), Threads::One).unwrap();
    e.run_turn(|_, _| {});
    let state = e.state();
    let unit = |id: &str| state.units.iter().find(|u| u.id == id).unwrap().clone();
    let itora = state.locations.iter().find(|l| l.id == "L1").unwrap();
    assert!(itora.titles.iter().any(|t| t.title == "over" && t.holder.as_deref() == Some("U1")));
    assert!(unit("U1").skills.iter().any(|s| s.0 == "cmbt" && s.1 >= 45_000), "5th combat or more");
    let u2 = unit("U2");
    assert_eq!(u2.orders, ["@GUARD"]);
    let w = e.world();
    let dir = w.resource::<Directory>();
    let guard = dir.get(Kind::Unit, "U2").unwrap();
    assert!(w.get::<crate::systems::overlord::world::components::OnGuard>(guard).is_some(), "on guard");
    assert_eq!(unit("U201").orders, ["@TEACH void"]);
}
