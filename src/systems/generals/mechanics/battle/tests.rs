//! Battles (generals-rules.txt 18-33, 43-44, 49-50, 62-96; rulings 4-8, 10, 11,
//! 13). The model's directions are tested on the fight itself over many seeded
//! draws; the rest through whole turns.

use super::fight::{Army, Fighter, Outcome, fight};
use crate::core::engine::rng::stream;
use crate::systems::generals::data::{RuleSet, Scenario};
use crate::systems::generals::fixture::{a_row, general, play, rules, troop};
use bevy_ecs::world::World;

fn order(r: &RuleSet, tag: &str) -> usize {
    r.combat.orders.iter().position(|o| o.tag == tag).unwrap()
}

/// An army of units (type tag, men, reserve) under `order`.
fn army(r: &RuleSet, units: &[(&str, u32, bool)], o: &str) -> Army {
    let mut w = World::new();
    Army {
        player: w.spawn_empty().id(),
        generals: Vec::new(),
        fighters: units
            .iter()
            .enumerate()
            .map(|(i, &(kind, men, reserve))| Fighter {
                troop: w.spawn_empty().id(),
                id: format!("U{i}"),
                kind: r.troops.iter().position(|t| t.tag == kind).unwrap(),
                men,
                veteran: 0,
                reserve,
                rearguard: false,
                champion: 0,
            })
            .collect(),
        order: order(r, o),
        casualties: 0,
        healing: 0,
        morale: 0,
        sneaky: 0,
        defense: 0,
        order_bonus: Vec::new(),
        prepared: false,
    }
}

/// `n` battles of `armies` on plains, seeds 0..n.
fn many(r: &RuleSet, armies: &[Army; 2], n: u64) -> Vec<Outcome> {
    (0..n).map(|k| fight(r, "plai", armies, &mut stream(k, 1, "test", 0))).collect()
}

fn lost(a: &Army, o: &Outcome, s: usize) -> u32 {
    a.fighters.iter().zip(&o.men[s]).map(|(f, m)| f.men - m).sum()
}

/// Men side `s` lost in round 1, if it was fought.
fn round_one(o: &Outcome, s: usize) -> Option<u32> {
    let l = o.log.iter().find(|l| l.starts_with("Round 1:"))?;
    let n = l.trim_end_matches('.').rsplit(", the defenders ").collect::<Vec<_>>();
    let defenders = n[0].parse().ok()?;
    let attackers = n[1].rsplit(' ').nth(1)?.parse().ok()?;
    Some(if s == 0 { attackers } else { defenders })
}

fn mean(xs: impl Iterator<Item = u32>) -> f64 {
    let v: Vec<u32> = xs.collect();
    v.iter().map(|&x| f64::from(x)).sum::<f64>() / v.len() as f64
}

#[test]
fn the_army_with_more_men_does_more_damage_and_wins() {
    // generals-rules.txt 80: "the army with more men can cause more damage".
    let r = rules();
    let armies = [army(&r, &[("mili", 200, false)], "fiel"), army(&r, &[("mili", 100, false)], "fiel")];
    let out = many(&r, &armies, 200);
    let wins = out.iter().filter(|o| o.winner == 0).count();
    // Single units can flee: the bigger army still nearly always wins.
    assert!(wins >= 170, "the bigger army wins {wins} of 200");
    // Round 1 alone: 200 militia deal twice the damage of 100.
    let dealt = mean(out.iter().filter_map(|o| round_one(o, 1)));
    let taken = mean(out.iter().filter_map(|o| round_one(o, 0)));
    assert!((dealt / taken - 2.0).abs() < 0.25, "damage in proportion to men: {dealt} vs {taken}");
}

#[test]
fn the_faster_army_defends_better_and_health_absorbs_damage() {
    // generals-rules.txt 80: "the army with the higher average movement can defend
    // itself better … Heavier types of troops can take more damage before dying".
    let mut r = rules();
    let mut fast = r.troops[0].clone();
    fast.tag = "fast".into();
    fast.movement += 3;
    let mut tough = r.troops[0].clone();
    tough.tag = "tough".into();
    tough.health *= 2;
    r.troops.extend([fast, tough]);
    let losses = |kind: &str| {
        let armies = [army(&r, &[("mili", 100, false)], "fiel"), army(&r, &[(kind, 100, false)], "fiel")];
        let out = many(&r, &armies, 300);
        // Men lost in the first round, before morale or the other side's losses count.
        mean(out.iter().filter_map(|o| round_one(o, 1)))
    };
    let (base, fast, tough) = (losses("mili"), losses("fast"), losses("tough"));
    let speed = f64::from(r.combat.speed_defense_percent) * 3.0;
    assert!((base / fast - (1.0 + speed / 100.0)).abs() < 0.1, "faster: {base} vs {fast}");
    assert!((base / tough - 2.0).abs() < 0.2, "twice the health, half the dead: {base} vs {tough}");
}

#[test]
fn casualties_fall_on_the_main_body_before_the_reserves() {
    // generals-rules.txt 80: "Casualties are taken from the main fighting part of the
    // army on each side before the reserves are killed".
    let r = rules();
    let armies =
        [army(&r, &[("spea", 250, false)], "fiel"), army(&r, &[("heav", 300, false), ("mili", 100, true)], "fort")];
    let out = many(&r, &armies, 50);
    assert!(out.iter().map(|o| lost(&armies[1], o, 1)).sum::<u32>() > 500, "the defenders lose men");
    for o in out {
        assert!(o.men[1][0] > 0);
        assert_eq!(o.men[1][1], 100, "the reserve is untouched while the main body stands: {:?}", o.log);
    }
    // Once the main body is gone, the reserve takes the rest.
    let armies =
        [army(&r, &[("gian", 100, false)], "fiel"), army(&r, &[("mili", 5, false), ("mili", 100, true)], "fort")];
    assert!(many(&r, &armies, 20).iter().all(|o| o.men[1][1] < 100));
}

#[test]
fn an_ambush_is_discovered_one_time_in_four_defending_and_more_often_attacking() {
    // generals-rules.txt 21: "an average of a one in four chance"; 68: "higher than a
    // defensive ambush"; ruling 5: 25% and 40%; both sides then skirmish.
    let r = rules();
    let skir = order(&r, "skir");
    let rate = |a: &Army, d: &Army| {
        let out = many(&r, &[a.clone(), d.clone()], 2000);
        assert!(out.iter().all(|o| (o.orders[0] == skir) == (o.orders[1] == skir)), "both skirmish");
        out.iter().filter(|o| o.orders[0] == skir).count() as f64 / 2000.0
    };
    let field = army(&r, &[("mili", 100, false)], "fiel");
    let ambush = army(&r, &[("mili", 100, false)], "ambu");
    let defending = rate(&field, &ambush);
    assert!((defending - 0.25).abs() < 0.03, "defensive ambush discovered {defending}");
    let attacking = rate(&ambush, &field);
    assert!((attacking - 0.40).abs() < 0.035, "offensive ambush discovered {attacking}");
    // Sneaky lowers the chance (3% a level: level 5 makes it 10%).
    let mut sneaky = ambush.clone();
    sneaky.sneaky = 15;
    let less = rate(&field, &sneaky);
    assert!((less - 0.10).abs() < 0.025, "a sneaky ambush is discovered {less}");
}

#[test]
fn flanking_needs_the_faster_army_or_it_is_a_field_battle() {
    // Ruling 7.
    let r = rules();
    let cavalry = army(&r, &[("cava", 100, false)], "flan");
    let militia = army(&r, &[("mili", 100, false)], "flan");
    let target = army(&r, &[("mili", 100, false)], "fiel");
    let o = fight(&r, "plai", &[cavalry, target.clone()], &mut stream(1, 1, "t", 0));
    assert_eq!(o.orders[0], order(&r, "flan"));
    let o = fight(&r, "plai", &[militia, target], &mut stream(1, 1, "t", 0));
    assert_eq!(o.orders[0], order(&r, "fiel"));
    assert!(o.log[0].contains("too slow to outflank"), "{:?}", o.log);
}

#[test]
fn units_check_morale_and_flee_but_fortified_defenders_and_the_undead_stand() {
    // generals-rules.txt 82-84: morale "depends on … the number of men killed so far,
    // the size of the opposing force"; fortify "gets rid of most chances of retreat".
    let r = rules();
    let big = army(&r, &[("mili", 300, false)], "fiel");
    let fled = |d: &Army| many(&r, &[big.clone(), d.clone()], 200).iter().filter(|o| o.fled[1][0]).count();
    let field = fled(&army(&r, &[("mili", 100, false)], "fiel"));
    assert!(field > 100, "outnumbered militia flee ({field} of 200)");
    assert_eq!(fled(&army(&r, &[("mili", 100, false)], "fort")), 0);
    assert_eq!(fled(&army(&r, &[("skel", 100, false)], "fiel")), 0, "morale 100");
    let mut inspired = army(&r, &[("mili", 100, false)], "fiel");
    inspired.morale = 40;
    assert!(fled(&inspired) < field / 2, "Inspirational: {} vs {field}", fled(&inspired));
    // The last unit to flee turns the side's order to flee: it loses (when both
    // sides break at once, the defender keeps the field).
    let o = many(&r, &[big.clone(), army(&r, &[("mili", 100, false)], "fiel")], 200);
    assert!(
        o.iter()
            .filter(|o| o.fled[1][0] && !o.fled[0][0])
            .all(|o| o.winner == 0 && o.log.iter().any(|l| l.contains("fled the field")))
    );
}

#[test]
fn a_rearguard_that_holds_three_rounds_lets_the_rest_escape() {
    // generals-rules.txt 31-33; ruling 6.
    let r = rules();
    let mut d = army(&r, &[("heav", 300, false), ("mili", 100, false)], "with");
    d.fighters[0].rearguard = true;
    let a = army(&r, &[("spea", 400, false)], "fiel");
    let out = many(&r, &[a, d], 100);
    let held: Vec<&Outcome> = out.iter().filter(|o| o.escaped[1]).collect();
    assert!(held.len() > 60, "the rearguard mostly holds: {}", held.len());
    for o in &held {
        assert!(o.rounds >= r.combat.rearguard_rounds, "{:?}", o.log);
        assert_eq!(o.men[1][1], 100, "the rest did not fight");
    }
    // Nobody escapes from battles that ended sooner, or once the rearguard broke.
    let overtaken = |o: &Outcome| o.log.iter().any(|l| l.contains("overtaken"));
    assert!(out.iter().filter(|o| !o.escaped[1]).all(|o| o.rounds < r.combat.rearguard_rounds || overtaken(o)));
    // A rearguard that breaks sooner leaves the rest to be overtaken.
    let mut d = army(&r, &[("mili", 3, false), ("mili", 100, false)], "with");
    d.fighters[0].rearguard = true;
    let a = army(&r, &[("gian", 100, false)], "fiel");
    let o = fight(&r, "plai", &[a, d], &mut stream(3, 1, "t", 0));
    assert_eq!(o.escaped, [false, false]);
    assert!(o.log.iter().any(|l| l.contains("overtaken")), "{:?}", o.log);
}

/// p2 holds R4 with `men` militia and Bob; Ann attacks from R3 with T3 (and T7,
/// 1000 heavy infantry).
fn battle_at_r4(men: u32) -> Scenario {
    let mut s = a_row();
    s.generals[1].region = "R4".into();
    let mut t4 = troop("T4", "p2", "R4");
    t4.men = men;
    let mut t7 = troop("T7", "p1", "R3");
    t7.kind = "heav".into();
    t7.men = 1000;
    s.troops.extend([t4, t7]);
    s.generals[0].region = "R3".into();
    s
}

#[test]
fn the_attackers_march_in_and_the_beaten_defenders_retreat_to_a_region_they_hold() {
    // generals-rules.txt 43-44, 90; ruling 10.
    let mut g = play(battle_at_r4(30));
    g.orders("p1", "GENERAL \"Ann\": ATTACK R4 WITH T3 T7 AS FIELD").run();
    let s = g.state();
    assert!(s.troops.iter().filter(|t| t.player == "p1" && t.region == "R4").count() == 2, "{:?}", s.troops);
    assert_eq!(g.general("Ann").unwrap().region, "R4");
    if let Some(t4) = g.troop("T4") {
        assert_eq!(t4.region, "R5", "the survivors retreat to the region p2 holds");
    }
    if let Some(bob) = g.general("Bob") {
        assert_eq!(bob.region, "R5");
    }
    let b = &g.report("p1").battles[0];
    assert_eq!((b.region.as_str(), b.winner), ("R4", "attacker"));
    assert_eq!(g.report("p2").battles.len(), 1, "both sides see it");
    assert!(g.said("p1", "line 2: Battle of Region R4 [R4]: you attacked and won"), "{:?}", g.events("p1"));
}

#[test]
fn a_beaten_army_with_nowhere_to_go_is_destroyed_with_its_generals() {
    // Ruling 10: "otherwise the army is destroyed".
    let mut s = battle_at_r4(30);
    s.troops.retain(|t| t.id != "T5");
    s.regions[4].adjacent.clear();
    s.regions[3].adjacent.retain(|r| r != "R5");
    // R4 is next to R3 only, which T3 still holds.
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": ATTACK R4 WITH T7 AS FIELD").run();
    assert!(g.troop("T4").is_none() && g.general("Bob").is_none());
    assert!(g.report("p1").battles[0].sides[1].destroyed);
}

#[test]
fn an_attack_on_a_region_nobody_holds_takes_it_without_a_fight() {
    let mut g = play(a_row());
    g.orders("p1", "GENERAL \"Ann\": ATTACK R6 WITH T1 AS FIELD").run();
    assert_eq!(g.troop("T1").unwrap().region, "R6");
    assert!(g.said("p1", "line 2: Ann marched into Region R6 [R6], which nobody held."), "{:?}", g.events("p1"));
    assert!(g.report("p1").battles.is_empty());
}

#[test]
fn attacking_an_ally_breaks_the_alliance_both_ways() {
    // generals-rules.txt 157; ruling 11: they become neutral.
    let mut s = battle_at_r4(30);
    s.players[0].relations.insert("p2".into(), crate::systems::generals::data::Relation::Ally);
    s.players[1].relations.insert("p1".into(), crate::systems::generals::data::Relation::Ally);
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": ATTACK R4 WITH T3 AS FIELD").run();
    assert!(g.player("p1").relations.is_empty() && g.player("p2").relations.is_empty());
    assert_eq!(g.report("p2").player.diplomacy["p1"], "neutral");
    assert!(g.said("p2", "attacked you and broke your alliance"), "{:?}", g.events("p2"));
}

#[test]
fn generals_die_with_half_the_percentage_of_their_sides_men_killed() {
    // generals-rules.txt 92: "if every man on one side was obliterated, the general
    // would only have a 50% chance of death"; ruling 13: drawn once per general per
    // battle; Undying lowers it (8% a level).
    let deaths = |undying: u32| {
        (0..400)
            .filter(|&seed| {
                let mut s = battle_at_r4(1);
                s.game.seed = seed;
                // No Healer to save the one defender.
                s.generals[1].skills.remove("heal");
                if undying > 0 {
                    s.generals[1].skills.insert("undy".into(), undying);
                }
                let mut g = play(s);
                g.orders("p1", "GENERAL \"Ann\": ATTACK R4 WITH T7 AS FIELD").run();
                assert!(g.troop("T4").is_none(), "the defenders are wiped out");
                assert!(g.general("Ann").is_some(), "no attacker died: no chance");
                g.general("Bob").is_none()
            })
            .count()
    };
    let plain = deaths(0);
    assert!((170..=230).contains(&plain), "{plain} of 400 died; 200 expected");
    let undying = deaths(5);
    assert!((92..=148).contains(&undying), "{undying} of 400 died with Undying 5; 120 expected");
}

#[test]
fn surviving_units_become_veterans_thirty_percent_winning_ten_losing() {
    // generals-rules.txt 94; ruling 8.
    let (mut won, mut lost, mut n_won, mut n_lost) = (0, 0, 0, 0);
    for seed in 0..400 {
        let mut s = battle_at_r4(200);
        s.game.seed = seed;
        // Five winning units of 300 heavy infantry against 200 militia; the
        // militia's survivors are the losers.
        s.troops.retain(|t| t.player != "p1" || t.region != "R3");
        for i in 0..5 {
            let mut t = troop(&format!("T{}", 10 + i), "p1", "R3");
            t.kind = "heav".into();
            t.men = 300;
            s.troops.push(t);
        }
        let mut g = play(s);
        g.orders("p1", "GENERAL \"Ann\": ATTACK R4 WITH T10 T11 T12 T13 T14 AS FIELD").run();
        let b = &g.report("p1").battles[0];
        for (s, side) in b.sides.iter().enumerate() {
            let winner = (s == 0) == (b.winner == "attacker");
            for u in side.units.iter().filter(|u| u.lost < u.men) {
                let (n, v) = if winner { (&mut n_won, &mut won) } else { (&mut n_lost, &mut lost) };
                *n += 1;
                *v += u32::from(u.veteran);
            }
        }
    }
    let (w, l) = (f64::from(won) / f64::from(n_won), f64::from(lost) / f64::from(n_lost.max(1)));
    // Three standard deviations: about 2000 winning units, 190 losing ones.
    assert!((w - 0.30).abs() < 0.03, "winners: {w} of {n_won}");
    assert!(n_lost >= 120 && (l - 0.10).abs() < 0.065, "losers: {l} of {n_lost}");
}

#[test]
fn a_prepared_battlefield_gives_the_defenders_the_fortify_bonus_too() {
    // generals-rules.txt 49-50: "a bonus … as if they were using the fortify defense
    // order, as well as … their normal defense order".
    let lost = |prepared: bool| {
        let mut total = 0;
        for seed in 0..60 {
            let mut s = battle_at_r4(300);
            s.game.seed = seed;
            if prepared {
                s.regions[3].prepared_by = Some("Bob".into());
            }
            let mut g = play(s);
            g.orders("p1", "GENERAL \"Ann\": ATTACK R4 WITH T3 AS FIELD").run();
            let b = &g.report("p2").battles[0];
            total += b.sides[1].units.iter().map(|u| u.lost).sum::<u32>();
        }
        total
    };
    let (open, prepared) = (lost(false), lost(true));
    assert!(f64::from(prepared) < f64::from(open) * 0.75, "prepared: {prepared} lost against {open}");
}

#[test]
fn attacks_on_one_region_are_fought_one_after_the_other() {
    // p1 and p3 both attack p2's R4: the second meets whoever holds it after the first.
    let mut s = battle_at_r4(30);
    s.players.push(crate::systems::generals::fixture::player("p3"));
    s.regions.push(crate::systems::generals::fixture::region("R7", &["R4"]));
    s.regions[3].adjacent.push("R7".into());
    s.troops.push(troop("T8", "p3", "R7"));
    s.generals.push(general("Cid", "p3", "R7"));
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": ATTACK R4 WITH T7 AS FIELD")
        .orders("p3", "GENERAL \"Cid\": ATTACK R4 WITH T8 AS FIELD")
        .run();
    let battles = &g.engine.world().resource::<super::Battles>().0;
    assert_eq!(battles.len(), 2, "two battles at R4");
    let p2 = g.engine.world().resource::<crate::systems::generals::world::Directory>().player("p2").unwrap();
    assert!(
        battles.iter().filter(|b| b.sides[1].player == p2).count() == 1,
        "p2 defends once; the other fights its winner"
    );
}

/// Mean men side 1 loses in round 1 (0 attacks with `a`).
fn first_round_losses(r: &RuleSet, terrain: &str, a: &Army, d: &Army) -> f64 {
    let out: Vec<Outcome> =
        (0..300).map(|k| fight(r, terrain, &[a.clone(), d.clone()], &mut stream(k, 1, "test", 0))).collect();
    mean(out.iter().filter_map(|o| round_one(o, 1)))
}

#[test]
fn troop_types_fight_better_or_worse_by_terrain_and_order_and_veterans_more() {
    // generals-rules.txt 80: "an archer has a higher offense rating while
    // fortifying, but lower when in a forest. In an ambush, explosive units are
    // more effective"; 94: veterans "add to their offensive and defensive values".
    let r = rules();
    let target = army(&r, &[("heav", 1000, false)], "fort");
    let archers = |o: &str| army(&r, &[("arch", 100, false)], o);
    let (plains, forest) = (
        first_round_losses(&r, "plai", &archers("fiel"), &target),
        first_round_losses(&r, "fore", &archers("fiel"), &target),
    );
    assert!(forest < plains * 0.8, "archers in a forest: {forest} vs {plains}");
    // Fortifying archers shoot better: as defenders under FORTIFY against a field attack.
    let attackers = army(&r, &[("heav", 1000, false)], "fiel");
    let losses_to = |d: &Army| {
        let out: Vec<Outcome> =
            (0..300).map(|k| fight(&r, "plai", &[attackers.clone(), d.clone()], &mut stream(k, 1, "t", 0))).collect();
        mean(out.iter().filter_map(|o| round_one(o, 0)))
    };
    let field = losses_to(&archers("fiel"));
    let fort = losses_to(&archers("fort"));
    assert!(fort > field * 1.15, "fortifying archers: {fort} vs {field}");
    let sappers = |o: &str| army(&r, &[("sapp", 100, false)], o);
    let militia_target = army(&r, &[("mili", 2000, false)], "fiel");
    let in_ambush = first_round_losses(&r, "plai", &sappers("ambu"), &militia_target);
    let spearmen_ambush = first_round_losses(&r, "plai", &army(&r, &[("spea", 200, false)], "ambu"), &militia_target);
    assert!(in_ambush > spearmen_ambush * 1.2, "explosive units in an ambush: {in_ambush} vs {spearmen_ambush}");
    let mut veterans = army(&r, &[("mili", 100, false)], "fiel");
    veterans.fighters[0].veteran = 3;
    let green = first_round_losses(&r, "plai", &army(&r, &[("mili", 100, false)], "fiel"), &target);
    let seasoned = first_round_losses(&r, "plai", &veterans, &target);
    assert!((seasoned / green - 1.3).abs() < 0.1, "3 veteran levels: {seasoned} vs {green}");
}

#[test]
fn skirmishes_are_slow_and_a_successful_flank_is_a_slaughter() {
    // generals-rules.txt 24-25: skirmish "whittle the enemies down without suffering
    // many losses. It is a slow … process"; 76-77: flanking "leads to a large
    // slaughter on the defender's part".
    let r = rules();
    let def = |o: &str| army(&r, &[("mili", 1000, false)], o);
    let field = first_round_losses(&r, "plai", &army(&r, &[("cava", 100, false)], "fiel"), &def("fiel"));
    let skirmish = first_round_losses(&r, "plai", &army(&r, &[("cava", 100, false)], "skir"), &def("skir"));
    let flank = first_round_losses(&r, "plai", &army(&r, &[("cava", 100, false)], "flan"), &def("fiel"));
    assert!(skirmish < field * 0.6, "skirmish {skirmish} vs field {field}");
    assert!(flank > field * 1.4, "flank {flank} vs field {field}");
}

#[test]
fn generals_skills_change_the_battle() {
    // generals-rules.txt 104-140: Arcane Mage adds casualties, Healer reduces them,
    // the Invincible Warrior's unit fights better, Master Tactician defends better,
    // Guerilla Tactics, Fortification Expert and Battlefield Planner favour their order.
    let r = rules();
    let base_a = army(&r, &[("mili", 100, false)], "fiel");
    let base_d = army(&r, &[("mili", 300, false)], "fiel");
    let base = first_round_losses(&r, "plai", &base_a, &base_d);
    let with = |f: &dyn Fn(&mut Army, &mut Army)| {
        let (mut a, mut d) = (base_a.clone(), base_d.clone());
        f(&mut a, &mut d);
        first_round_losses(&r, "plai", &a, &d)
    };
    let mage = with(&|a, _| a.casualties = 9);
    assert!((mage - base - 9.0).abs() < 1.0, "Arcane Mage: {mage} vs {base}");
    let healed = with(&|_, d| d.healing = 20);
    assert!((healed / base - 0.8).abs() < 0.05, "Healer: {healed} vs {base}");
    let champion = with(&|a, _| a.fighters[0].champion = 50);
    assert!((champion / base - 1.5).abs() < 0.1, "champion: {champion} vs {base}");
    let tactician = with(&|_, d| d.defense = 25);
    assert!((base / tactician - 1.25).abs() < 0.1, "Master Tactician: {tactician} vs {base}");
    let planner = with(&|a, _| a.order_bonus = vec![(order(&r, "fiel"), 30)]);
    assert!((planner / base - 1.3).abs() < 0.1, "Battlefield Planner: {planner} vs {base}");
    let wrong_order = with(&|a, _| a.order_bonus = vec![(order(&r, "skir"), 30)]);
    assert!((wrong_order / base - 1.0).abs() < 0.06, "Guerilla Tactics in a field battle: {wrong_order} vs {base}");
}

#[test]
fn a_beaten_army_without_a_region_of_its_own_next_door_retreats_to_one_nobody_holds() {
    // Ruling 10: "otherwise to an adjacent neutral … region".
    let mut s = battle_at_r4(200);
    s.troops.retain(|t| t.id != "T5");
    s.generals[1].skills.insert("undy".into(), 10);
    let mut g = play(s);
    g.orders("p1", "GENERAL \"Ann\": ATTACK R4 WITH T7 AS FIELD").run();
    let b = &g.report("p2").battles[0];
    assert_eq!((b.winner, b.sides[1].retreat.as_deref(), b.sides[1].destroyed), ("attacker", Some("R5"), false));
    if let Some(t4) = g.troop("T4") {
        assert_eq!(t4.region, "R5");
    }
}
