//! The battlefield alone: [`field::fight`] is a pure function of the armies and the
//! battle's stream, so each rule of the field is tested here on armies built in a few
//! lines, exactly where the rule is exact and over many seeded draws where it is
//! random (with tolerances a wrong formula falls outside of). Checklist ids in each
//! name. The rule set's numbers come from the bundled `combat.ron`.

use super::field::{
    self, Action, Aim, Armies, Charm, Charming, Fighter, Fought, Move, Reach, Reserve, Special, hit_odds, hits,
};
use super::record::{Blow, Line};
use crate::systems::overlord::data::Stats;
use crate::systems::overlord::testkit::overlord_rules;
use rand::SeedableRng;
use rand::rngs::ChaCha8Rng;

fn stats(melee: i32, defense: i32, life: i32) -> Stats {
    Stats { melee, defense, life, hits: 1, damage: 1, ..Stats::default() }
}

/// `figures` figures with `s`, standing at the front centre.
fn fighter(id: &str, side: u8, figures: u32, s: Stats) -> Fighter {
    Fighter { file: 1, ..Fighter::new(id, side, figures, s) }
}

/// The same fighter at `rank` (0: front) and `file` (0: left) with `movement`.
fn at(mut f: Fighter, rank: u32, file: u32, movement: Move) -> Fighter {
    f.rank = rank;
    f.file = file;
    f.movement = movement;
    f
}

/// The armies on the bundled rule set's field (3 × 3), from an ATTACK.
fn armies(fighters: Vec<Fighter>) -> Armies {
    let rules = overlord_rules();
    let c = &rules.combat;
    Armies {
        rules: c.battle.clone(),
        ranks: c.ranks.len() as u32,
        files: c.files.len() as u32,
        rank_names: vec!["front".into(), "middle".into(), "rear".into()],
        file_names: vec!["left".into(), "center".into(), "right".into()],
        ambush_levels: vec![6000, 18000],
        from_attack: true,
        fighters,
    }
}

fn fight(a: &Armies, seed: u64) -> Fought {
    field::fight(a, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// Every attack of `unit` over the battle: its action and blows.
fn attacks<'a>(f: &'a Fought, unit: &str) -> Vec<(&'a str, &'a [Blow])> {
    f.rounds
        .iter()
        .flat_map(|r| &r.lines)
        .filter_map(|l| match l {
            Line::Attack { unit: u, action, targets, .. } if u == unit => Some((action.as_str(), targets.as_slice())),
            _ => None,
        })
        .collect()
}

/// Strikes and hits of `unit`'s attacks, summed.
fn strikes_and_hits(f: &Fought, unit: &str) -> (u32, u32, u32) {
    attacks(f, unit)
        .iter()
        .flat_map(|a| a.1.iter())
        .fold((0, 0, 0), |s, b| (s.0 + b.strikes, s.1 + b.hits, s.2 + b.kills))
}

/// The units that acted (attacked or parried) in round `r`, in order.
fn actors(f: &Fought, r: usize) -> Vec<&str> {
    f.rounds[r]
        .lines
        .iter()
        .filter_map(|l| match l {
            Line::Attack { unit, .. } | Line::Parry { unit } => Some(unit.as_str()),
            _ => None,
        })
        .collect()
}

/// Where `unit` moved, in order.
fn moves<'a>(f: &'a Fought, unit: &str) -> Vec<&'a str> {
    f.rounds
        .iter()
        .flat_map(|r| &r.lines)
        .filter_map(|l| match l {
            Line::Move { unit: u, to } if u == unit => Some(to.as_str()),
            _ => None,
        })
        .collect()
}

/// One round of a wide battle: the share of `attacker`'s figures that struck at a
/// target and hit it (the strike chance × the hit odds).
fn hit_rate(a: Armies, attacker: &str) -> f64 {
    let mut a = a;
    a.rules.max_rounds = 1;
    let (strikes, hits, _) = strikes_and_hits(&fight(&a, 5), attacker);
    assert!(strikes > 1000, "{strikes} strikes");
    f64::from(hits) / f64::from(strikes)
}

/// The share of `n` seeds for which `happens` holds of the battle.
/// CMB-STRIKE × rulings 9, as the bundled rules have it: what [`hit_rate`] should be
/// for attack `a` meeting defense `d`.
fn expected(a: i32, d: i32) -> f64 {
    (0.40 + 0.04 * f64::from(a)).min(1.0) * hit_odds(a, d)
}

fn share(a: &Armies, n: u64, happens: impl Fn(&Fought) -> bool) -> f64 {
    (0..n).filter(|&s| happens(&fight(a, s))).count() as f64 / n as f64
}

#[test]
fn hit_odds_follow_the_rulings_tv_hit_cmb_strike() {
    // TV-HIT, rulings 9: 6 vs 4 → 3:1; 2 vs 7 → 1:6 (1/7, not the text's 16%);
    // 2 vs 0 always; attack 0 never.
    assert_eq!(hit_odds(6, 4), 0.75);
    assert!((hit_odds(2, 7) - 1.0 / 7.0).abs() < 1e-12);
    assert_eq!(hit_odds(2, 0), 1.0);
    assert_eq!(hit_odds(0, 5), 0.0);
    assert_eq!(hit_odds(-3, 5), 0.0, "negative attack counts as 0");
    // The drawn hits follow the odds: 20,000 seeded draws each, within 1.5 points
    // (a wrong formula, such as 2/9 for 2 vs 7, is far outside).
    let mut rng = ChaCha8Rng::seed_from_u64(26);
    for (a, d, want) in [(6, 4, 0.75), (2, 7, 1.0 / 7.0), (3, 3, 0.5), (1, 9, 0.1)] {
        let n = 20_000;
        let got = (0..n).filter(|_| hits(&mut rng, a, d)).count() as f64 / n as f64;
        assert!((got - want).abs() < 0.015, "{a} vs {d}: {got} against {want}");
    }
}

#[test]
fn the_strike_chance_is_forty_percent_plus_four_per_attack_point_cmb_strike() {
    // 10,000 figures of melee 5 against 10,000 of defense 0 that cannot hit back:
    // every strike hits, so the blows that landed measure the strike chance,
    // 40% + 4% × 5 = 60%.
    let mut a = armies(vec![fighter("A", 0, 10_000, stats(5, 0, 100)), fighter("D", 1, 10_000, stats(0, 0, 100))]);
    a.rules.max_rounds = 1;
    let f = fight(&a, 3);
    let (strikes, hits, _) = strikes_and_hits(&f, "A");
    assert_eq!(strikes, 10_000, "each figure strikes at a figure");
    let rate = f64::from(hits) / f64::from(strikes);
    assert!((rate - 0.60).abs() < 0.02, "{hits} of {strikes}");
}

#[test]
fn each_side_has_three_ranks_by_three_files_and_only_adjacent_squares_melee_cmb_grid_cmb_act() {
    // Placed where TACTIC puts them (rank from the front, file from the left).
    let a = armies(vec![
        at(fighter("A", 0, 1, stats(3, 1, 9)), 2, 0, Move::Stand),
        at(fighter("B", 1, 1, stats(3, 1, 9)), 1, 2, Move::Stand),
    ]);
    assert_eq!(fight(&a, 1).placed, [(2, 0), (1, 2)]);
    // Front centre against the enemy front centre: adjacent, they melee.
    let front = |file: u32| {
        armies(vec![
            at(fighter("A", 0, 1, stats(3, 1, 9)), 0, 1, Move::Stand),
            at(fighter("B", 1, 1, stats(3, 1, 9)), 0, file, Move::Stand),
        ])
    };
    assert!(attacks(&fight(&front(1), 1), "A").iter().all(|a| a.0 == "MELEE"));
    assert!(!attacks(&fight(&front(1), 1), "A").is_empty());
    // A diagonal is two squares away: no melee, the implicit PARRY runs instead.
    let f = fight(&front(0), 1);
    assert!(attacks(&f, "A").is_empty());
    assert_eq!(actors(&f, 0).len(), 2, "both parry: {:?}", f.rounds[0].lines);
    assert!(f.rounds[0].lines.iter().all(|l| matches!(l, Line::Parry { .. })));
}

#[test]
fn ambush_levels_average_stealth_by_figures_and_add_skill_guards_and_observation_cmb_ambush_grd_ambush() {
    // Attackers: 10 figures of stealth 3 and 1 of stealth 0 → ⌊30/11⌋ = 2, plus
    // ambush level 1 (6,000 experience each: the army as one unit) → 3.
    let mut a1 = fighter("A1", 0, 10, Stats { stealth: 3, ..stats(0, 1, 5) });
    a1.ambush_experience = 6000;
    let mut a2 = fighter("A2", 0, 1, stats(0, 1, 5));
    a2.ambush_experience = 6000;
    // Defenders: stealth ⌊5/10⌋ = 0, observation ⌊(5×2 + 5×0)/10⌋ = 1, and two
    // units on guard at +1 each (GRD-AMBUSH) → 3.
    let mut d1 = fighter("D1", 1, 5, Stats { stealth: 1, observation: 2, ..stats(0, 1, 5) });
    let mut d2 = fighter("D2", 1, 5, stats(0, 1, 5));
    d1.guarding = true;
    d2.guarding = true;
    let f = fight(&armies(vec![a1.clone(), a2.clone(), d1.clone(), d2.clone()]), 1);
    assert_eq!((f.ambush.levels, f.ambush.ambusher, f.ambush.reversed), ([3, 3], None, false));
    assert_eq!(f.tactics, [0, 0]);
    // Without the guards the attackers lead by 2, which adds to their tactics.
    d1.guarding = false;
    d2.guarding = false;
    let f = fight(&armies(vec![a1.clone(), a2.clone(), d1.clone(), d2.clone()]), 1);
    assert_eq!((f.ambush.levels, f.ambush.ambusher), ([3, 1], Some((0, 2))));
    assert_eq!(f.tactics, [2, 0]);
    // One figure less experienced: the army's average falls under the first level.
    let mut a = armies(vec![a1, fighter("A2", 0, 1, stats(0, 1, 5)), d1, d2]);
    assert_eq!(fight(&a, 1).ambush.levels, [2, 1]);
    // Stealthier defenders turn the roles when the battle is not from ATTACK: the
    // levels are halved, the guards' bonus dropped, the new defenders' (the
    // attackers') observation counted: ⌊(2 + 0)/2⌋ = 1 against ⌊(6 + 0)/2⌋ = 3.
    for f in a.fighters.iter_mut().filter(|f| f.side == 1) {
        f.stats.stealth = 6;
        f.guarding = true;
    }
    assert_eq!(fight(&a, 1).ambush.ambusher, None, "an ATTACK never turns the roles");
    a.from_attack = false;
    let f = fight(&a, 1);
    assert_eq!((f.ambush.levels, f.ambush.reversed, f.ambush.ambusher), ([1, 3], true, Some((1, 2))));
    assert_eq!(f.tactics, [0, 2]);
}

#[test]
fn each_level_of_ambush_lead_shuffles_the_ambushed_side_further_cmb_ambush() {
    // The attacker's stealth is its lead (defenders at 0); the defender stands at the
    // middle rank, centre file. Over 200 seeds, where does it end up?
    let spread = |lead: i32| {
        let a = armies(vec![
            fighter("A", 0, 1, Stats { stealth: lead, ..stats(0, 1, 5) }),
            at(fighter("D", 1, 1, stats(0, 1, 5)), 1, 1, Move::Stand),
        ]);
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let f = fight(&a, seed);
            assert_eq!(f.ambush.ambusher, (lead > 0).then_some((0, lead)));
            assert_eq!(f.placed[0], (0, 1), "the ambusher stays where it stood");
            seen.insert(f.placed[1]);
        }
        seen.into_iter().collect::<Vec<_>>()
    };
    assert_eq!(spread(0), [(1, 1)]);
    // 1: one file either way, never staying.
    assert_eq!(spread(1), [(1, 0), (1, 2)]);
    // 2: one file and one rank.
    assert_eq!(spread(2), [(0, 0), (0, 2), (2, 0), (2, 2)]);
    // 3: any file, one rank.
    assert_eq!(spread(3), [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]);
    // 4: anywhere.
    assert_eq!(spread(4).len(), 9);
}

/// Two units face to face that never wound each other; `A` has the better tactician.
fn tactics_duel(tactics: u32, strategy: bool) -> Armies {
    let mut a = fighter("A", 0, 1, stats(0, 1, 5));
    a.tactics = tactics;
    a.strategy = strategy;
    let mut b = fighter("B", 1, 1, stats(0, 1, 5));
    b.tactics = 0;
    armies(vec![a, b])
}

#[test]
fn the_tactics_advantage_adds_to_initiative_and_fades_a_point_a_round_cmb_tactics() {
    // Tactics 2 against 0: A's units act first in rounds 1 and 2 (+2, +1), then the
    // order is drawn. Rounds end after 5 without a wound.
    let a = tactics_duel(2, false);
    let first = |f: &Fought, r: usize| actors(f, r)[0] == "A";
    assert_eq!(fight(&a, 1).tactics, [2, 0]);
    assert_eq!(share(&a, 300, |f| first(f, 0) && first(f, 1)), 1.0);
    let third = share(&a, 300, |f| first(f, 2));
    assert!((0.4..0.6).contains(&third), "A first in round 3 for {third} of the battles");
    // Strategy keeps the advantage all battle (the skill's text).
    let a = tactics_duel(1, true);
    assert_eq!(share(&a, 300, |f| (0..5).all(|r| first(f, r))), 1.0);
}

#[test]
fn units_act_from_the_highest_initiative_down_each_action_capped_by_the_one_before_cmb_round() {
    // A (initiative 5) lists first an action at −3 that finds no target (only leaders
    // may be its targets): its MELEE waits at 2, after B's at 3.
    let special = Special {
        tag: "kill".into(),
        reach: Reach::Melee,
        leaders_only: true,
        bonus: Stats { initiative: -3, ..Stats::default() },
        holders: None,
        trains: None,
        mana: None,
        ..Special::default()
    };
    let mut a = fighter("A", 0, 1, Stats { initiative: 5, ..stats(1, 1, 50) });
    let b = fighter("B", 1, 1, Stats { initiative: 3, ..stats(1, 1, 50) });
    assert_eq!(actors(&fight(&armies(vec![a.clone(), b.clone()]), 1), 0), ["A", "B"]);
    a.actions = vec![Action::Special(special)];
    let f = fight(&armies(vec![a, b]), 1);
    assert_eq!(actors(&f, 0), ["B", "A"]);
    assert_eq!(attacks(&f, "A")[0].0, "MELEE");
}

#[test]
fn a_unit_whose_figures_are_all_mounted_draws_its_place_twice_among_equals_cmb_moves() {
    // Equal initiative: the order is drawn; a mounted unit keeps the better of two
    // draws, so it acts first two times in three.
    let duel = |mounted: bool| {
        let mut a = fighter("A", 0, 1, stats(0, 1, 5));
        a.mounted = mounted;
        armies(vec![a, fighter("B", 1, 1, stats(0, 1, 5))])
    };
    let plain = share(&duel(false), 600, |f| actors(f, 0)[0] == "A");
    let mounted = share(&duel(true), 600, |f| actors(f, 0)[0] == "A");
    assert!((plain - 0.5).abs() < 0.06, "{plain}");
    assert!((mounted - 2.0 / 3.0).abs() < 0.06, "{mounted}");
}

/// `mover` (side 0) against a passive enemy, in a battle where nobody is wounded
/// and that lasts `rounds` rounds; where the mover went.
fn walk(mover: Fighter, enemy: Fighter, rounds: u32) -> Vec<String> {
    let mut a = armies(vec![mover, enemy]);
    a.rules.quiet_rounds = rounds;
    a.rules.max_rounds = rounds;
    moves(&fight(&a, 1), "A").into_iter().map(String::from).collect()
}

fn mover(rank: u32, file: u32, m: Move) -> Fighter {
    at(fighter("A", 0, 1, Stats { missile: 1, ..stats(0, 1, 5) }), rank, file, m)
}

fn enemy(rank: u32, file: u32) -> Fighter {
    at(fighter("E", 1, 1, stats(0, 1, 5)), rank, file, Move::Stand)
}

#[test]
fn stand_advance_and_charge_cmb_moves() {
    assert!(walk(mover(2, 1, Move::Stand), enemy(2, 1), 8).is_empty());
    // ADVANCE: forward while the square ahead holds no enemy.
    assert_eq!(
        walk(mover(2, 1, Move::Advance), enemy(2, 1), 8),
        ["middle center", "front center", "enemy front center", "enemy middle center"]
    );
    // CHARGE: toward the nearest enemy, ranks first, until adjacent.
    assert_eq!(
        walk(mover(2, 0, Move::Charge), enemy(2, 2), 8),
        ["middle left", "front left", "enemy front left", "enemy middle left", "enemy rear left", "enemy rear center"]
    );
    // A flyer goes as far as its setting takes it in one move (CMB-FLY).
    let mut bird = mover(2, 1, Move::Charge);
    bird.flyer = true;
    assert_eq!(walk(bird, enemy(2, 1), 3), ["enemy middle center"]);
}

#[test]
fn sweep_holds_beside_an_enemy_and_flank_turns_to_the_centre_cmb_moves() {
    // ADVANCE from the front left runs to the enemy's rear.
    assert_eq!(
        walk(mover(0, 0, Move::Advance), enemy(0, 1), 6),
        ["enemy front left", "enemy middle left", "enemy rear left"]
    );
    // SWEEP stops in the enemy's front rank, beside the enemy on the next file.
    assert_eq!(walk(mover(0, 0, Move::Sweep), enemy(0, 1), 6), ["enemy front left"]);
    // FLANK: into the enemy's front rank, then to the centre file while an enemy
    // is in that rank, and holds there beside it.
    assert_eq!(walk(mover(0, 0, Move::Flank), enemy(0, 2), 6), ["enemy front left", "enemy front center"]);
}

#[test]
fn fire_keeps_a_square_between_and_support_backs_off_cmb_moves() {
    // FIRE: forward only while the nearest enemy stays two squares away.
    assert_eq!(walk(mover(2, 1, Move::Fire), enemy(2, 1), 6), ["middle center", "front center", "enemy front center"]);
    // SUPPORT: like FIRE, and steps back from an adjacent enemy.
    assert_eq!(walk(mover(0, 1, Move::Support), enemy(0, 1), 6), ["middle center"]);
}

#[test]
fn flee_leaves_after_three_rounds_at_the_rear_and_retreat_never_does_cmb_moves() {
    // FLEE: to the rear, then to the file with the fewest enemies, then three quiet
    // rounds at the rear and it is gone: its side has no unit left and loses.
    let mut a = armies(vec![mover(0, 1, Move::Flee), enemy(2, 1)]);
    a.rules.quiet_rounds = 20;
    let f = fight(&a, 1);
    assert_eq!(moves(&f, "A"), ["middle center", "rear center", "rear left"]);
    assert_eq!(f.rounds.len(), 6);
    assert!(f.rounds[5].lines.contains(&Line::Flee { unit: "A".into() }));
    assert!(f.deeds[0].fled);
    assert_eq!((f.winner, f.ended), (Some(1), "wiped out"));
    // RETREAT: the same moves, and it stays.
    let mut a = armies(vec![mover(0, 1, Move::Retreat), enemy(2, 1)]);
    a.rules.quiet_rounds = 12;
    let f = fight(&a, 1);
    assert_eq!(moves(&f, "A"), ["middle center", "rear center", "rear left"]);
    assert_eq!((f.rounds.len(), f.winner, f.ended, f.deeds[0].fled), (12, None, "no wounds", false));
}

/// 10,000 figures of melee 4 against 10,000 that only PARRY, at initiative `init`.
fn parry_duel(init: i32) -> Armies {
    let mut d = fighter("D", 1, 10_000, Stats { initiative: init, ..stats(4, 0, 100) });
    d.actions = vec![Action::Parry];
    armies(vec![fighter("A", 0, 10_000, stats(4, 0, 100)), d])
}

#[test]
fn parry_adds_the_attack_to_the_defense_once_the_parrier_has_acted_cmb_act_cmb_parrytime() {
    // PARRY (+2 initiative) acts before A's MELEE: defense 0 + 4 → 4 vs 4 → 50%
    // of the strikes (56%) hit.
    let rate = hit_rate(parry_duel(0), "A");
    assert!((rate - expected(4, 4)).abs() < 0.015, "{rate}");
    // A parrier that has not acted yet when struck has no bonus: every strike hits.
    let rate = hit_rate(parry_duel(-5), "A");
    assert!((rate - expected(4, 0)).abs() < 0.015, "{rate}");
    assert!(expected(4, 0) - expected(4, 4) > 0.2);
    // PARRY is the unit's action: it never attacks.
    let f = fight(&parry_duel(0), 1);
    assert!(attacks(&f, "D").is_empty());
}

#[test]
fn extra_strikes_come_one_initiative_lower_each_cmb_hits() {
    // A (initiative 0, 3 hits) strikes at 0, −1 and −2; F acts at −1, in a drawn
    // order with A's second strike, so always after A's first and before its third
    // (rulings 9: −1 each, not −2).
    let a = fighter("A", 0, 1, Stats { hits: 3, ..stats(5, 0, 50) });
    let f = fighter("F", 1, 1_000, Stats { initiative: -1, ..stats(0, 0, 1_000) });
    let a = armies(vec![a, f]);
    let mut where_f = std::collections::BTreeSet::new();
    for seed in 0..100 {
        let f = fight(&a, seed);
        let order = actors(&f, 0);
        assert_eq!(order.iter().filter(|&&u| u == "A").count(), 3, "{order:?}");
        assert_eq!(order.len(), 4);
        where_f.insert(order.iter().position(|&u| u == "F").unwrap());
    }
    assert_eq!(where_f.into_iter().collect::<Vec<_>>(), [1, 2]);
}

#[test]
fn targets_are_the_least_stealthy_first_each_figure_a_different_figure_cmb_target() {
    // X (stealth 2) and Y (stealth 0) share the enemy front centre; A sees 2.
    let a = |n: u32| {
        armies(vec![
            fighter("A", 0, n, Stats { observation: 2, ..stats(0, 1, 5) }),
            fighter("X", 1, 5, Stats { stealth: 2, ..stats(0, 1, 5) }),
            fighter("Y", 1, 5, stats(0, 1, 5)),
        ])
    };
    let first = |n: u32| {
        let f = fight(&a(n), 1);
        attacks(&f, "A")[0].1.iter().map(|b| (b.unit.clone(), b.strikes)).collect::<Vec<_>>()
    };
    assert_eq!(first(3), [("Y".to_string(), 3)]);
    assert_eq!(first(8), [("Y".to_string(), 5), ("X".to_string(), 3)]);
    // Missiles take the nearest first: from the rear, the enemy front before the rear.
    let mut archer = at(fighter("A", 0, 3, Stats { missile: 2, ..stats(0, 1, 5) }), 2, 1, Move::Stand);
    archer.actions = vec![Action::Ranged];
    let f = fight(
        &armies(vec![
            archer,
            at(fighter("R", 1, 5, stats(0, 1, 5)), 2, 1, Move::Stand),
            fighter("N", 1, 5, stats(0, 1, 5)),
        ]),
        1,
    );
    let (action, blows) = attacks(&f, "A")[0];
    assert_eq!((action, blows.len(), blows[0].unit.as_str(), blows[0].strikes), ("RANGED", 1, "N", 3));
}

#[test]
fn a_stealthier_target_escapes_ten_percent_per_point_over_the_observation_cmb_target() {
    // Stealth 3 against observation 0: 30% of A's attacks find nobody.
    let mut a =
        armies(vec![fighter("A", 0, 1, stats(0, 1, 5)), fighter("S", 1, 1, Stats { stealth: 3, ..stats(0, 1, 5) })]);
    a.rules.quiet_rounds = 100;
    let (mut missed, mut all) = (0, 0);
    for seed in 0..20 {
        for (_, blows) in attacks(&fight(&a, seed), "A") {
            all += 1;
            missed += usize::from(blows.is_empty());
        }
    }
    let rate = missed as f64 / all as f64;
    assert_eq!(all, 2000);
    assert!((rate - 0.30).abs() < 0.03, "{rate}");
}

/// One round: `n` figures of melee `melee` (unequipped `base`) against a crowd of
/// defense `defense` and one life, each struck at most once; kills per hit.
fn deadly_rate(melee: i32, base: i32, defense: i32) -> f64 {
    let mut a = fighter("A", 0, 40_000, stats(melee, 0, 5));
    a.base_melee = base;
    let mut a = armies(vec![a, fighter("D", 1, 100_000, stats(0, defense, 1))]);
    a.rules.max_rounds = 1;
    let (_, hits, kills) = strikes_and_hits(&fight(&a, 9), "A");
    assert!(hits > 500, "{hits}");
    f64::from(kills) / f64::from(hits)
}

#[test]
fn a_hit_is_deadly_when_the_attack_beats_the_defense_else_by_the_combat_chance_cmb_wound() {
    assert_eq!(deadly_rate(6, 0, 5), 1.0);
    // Otherwise 50% + 5% × the attacker's melee without equipment; equal values
    // do not beat the defense (docs/combat.md).
    for (melee, base, want) in [(2, 0, 0.5), (5, 0, 0.5), (4, 4, 0.7), (4, 2, 0.6)] {
        let got = deadly_rate(melee, base, 5);
        assert!((got - want).abs() < 0.04, "{melee} ({base}) vs 5: {got} against {want}");
    }
}

#[test]
fn damage_lands_as_that_many_blows_and_life_counts_the_deadly_ones_cmb_wound() {
    // Deadly hits (6 vs 5) of damage 2 kill figures of 2 life: kills = hits; of
    // damage 1 they kill none in a round where each is struck once.
    let once = |damage: i32| {
        let a = fighter("A", 0, 1_000, Stats { damage, ..stats(6, 0, 5) });
        let mut a = armies(vec![a, fighter("D", 1, 100_000, stats(0, 5, 2))]);
        a.rules.max_rounds = 1;
        let (_, hits, kills) = strikes_and_hits(&fight(&a, 4), "A");
        (hits, kills)
    };
    let (hits, kills) = once(2);
    assert!(hits > 100);
    assert_eq!(kills, hits);
    let (hits, kills) = once(1);
    assert!(hits > 100);
    assert_eq!(kills, 0);
}

#[test]
fn missiles_meet_a_third_of_the_defense_and_never_an_adjacent_square_cmb_missile() {
    // Missile 3 from the rear against defense 9 at the enemy front: 3 vs ⌊9/3⌋ →
    // 50% (against the whole defense it would be 1:7).
    let archers = |rank: u32| {
        let mut a = at(fighter("A", 0, 10_000, Stats { missile: 3, ..stats(3, 0, 5) }), rank, 1, Move::Stand);
        a.actions = vec![Action::Ranged];
        armies(vec![a, fighter("D", 1, 10_000, stats(0, 9, 100))])
    };
    let rate = hit_rate(archers(2), "A");
    assert!((rate - expected(3, 3)).abs() < 0.015, "{rate}");
    assert!(expected(3, 3) - expected(3, 9) > 0.15);
    assert!(attacks(&fight(&archers(2), 1), "A").iter().all(|a| a.0 == "RANGED"));
    // At the front, next to the enemy, RANGED is skipped and MELEE strikes.
    assert!(attacks(&fight(&archers(0), 1), "A").iter().all(|a| a.0 == "MELEE"));
}

#[test]
fn only_the_figures_holding_a_combat_item_use_it_cmb_item() {
    // Three of ten figures hold the item: three attack with it, and the other seven
    // do nothing, not even MELEE.
    let mut a = fighter("A", 0, 10, stats(2, 1, 5));
    a.actions = vec![Action::Special(Special {
        tag: "wand".into(),
        reach: Reach::Melee,
        leaders_only: false,
        bonus: Stats::default(),
        holders: Some(3),
        trains: None,
        mana: None,
        ..Special::default()
    })];
    let mut a = armies(vec![a, fighter("D", 1, 100, stats(0, 1, 100))]);
    a.rules.max_rounds = 1;
    let f = fight(&a, 1);
    let used: Vec<_> = attacks(&f, "A").iter().map(|x| (x.0, x.1.iter().map(|b| b.strikes).sum::<u32>())).collect();
    assert_eq!(used, [("wand", 3)]);
}

/// Six figures that always kill (melee 20 vs defense 0) against ten of side 1 with
/// `tactics`: six fall in round 1, over half.
fn rout(tactics: u32, fanatic: bool) -> Armies {
    let mut d = fighter("D", 1, 10, stats(0, 0, 1));
    d.tactics = tactics;
    d.fanatic = fanatic;
    armies(vec![fighter("A", 0, 6, stats(20, 0, 5)), d])
}

#[test]
fn half_the_figures_lost_checks_morale_and_a_broken_side_routs_cmb_end_cmb_morale_cmb_result_cmb_rout() {
    // Morale = 5% × defense (0) + 5% × tactics (0) = 0: the check fails at once.
    let f = fight(&rout(0, false), 1);
    assert_eq!(f.rounds[0].casualties, [0, 6]);
    assert!(f.rounds[0].lines.contains(&Line::Morale { side: 1 }));
    assert_eq!((f.winner, f.ended), (Some(0), "morale"));
    // The loser's last round: on FLEE (a step back), no attack, only PARRY.
    assert_eq!(f.rounds.len(), 2);
    let last = &f.rounds[1];
    assert!(last.rout);
    assert!(last.lines.iter().all(|l| !matches!(l, Line::Attack { unit, .. } if unit == "D")), "{:?}", last.lines);
    assert!(last.lines.contains(&Line::Move { unit: "D".into(), to: "middle center".into() }), "{:?}", last.lines);
    assert!(last.lines.iter().any(|l| matches!(l, Line::Parry { unit } if unit == "D")), "{:?}", last.lines);
    // Tactics 20: morale 100, it never breaks and is wiped out in round 2.
    let f = fight(&rout(20, false), 1);
    assert_eq!((f.winner, f.ended, f.rounds.len()), (Some(0), "wiped out", 2));
    // Tactics 10: morale 50, half the battles.
    let broke = share(&rout(10, false), 400, |f| f.ended == "morale");
    assert!((broke - 0.5).abs() < 0.08, "{broke}");
}

#[test]
fn fanatics_losses_do_not_count_toward_the_rout_cmb_fanatic() {
    let f = fight(&rout(0, true), 1);
    assert!(!f.rounds[0].lines.contains(&Line::Morale { side: 1 }));
    assert_eq!((f.winner, f.ended), (Some(0), "wiped out"));
}

#[test]
fn a_side_with_no_units_left_loses_and_the_battle_stops_cmb_end_cmb_result() {
    let a = armies(vec![fighter("A", 0, 10, stats(9, 9, 3)), fighter("D", 1, 1, stats(0, 0, 1))]);
    let f = fight(&a, 1);
    assert_eq!(f.winner, Some(0));
    assert_eq!(f.ended, "wiped out");
    assert_eq!(f.deeds[1].alive, 0);
    assert!(f.rounds.iter().all(|r| !r.rout), "no rout round once the loser is gone");
}

#[test]
fn rounds_without_a_wound_or_a_hundred_rounds_end_in_a_draw_cmb_end_cmb_result() {
    // Attack 0 never hits: after 5 rounds without a wound, a draw.
    let a = armies(vec![fighter("A", 0, 3, stats(0, 1, 1)), fighter("D", 1, 3, stats(0, 1, 1))]);
    let f = fight(&a, 1);
    assert_eq!((f.winner, f.ended, f.rounds.len()), (None, "no wounds", 5));
    // A wound every round and a figure too tough to die: 100 rounds, a draw.
    let a = armies(vec![fighter("A", 0, 10, stats(20, 1, 1)), fighter("D", 1, 1, stats(0, 0, 10_000))]);
    let f = fight(&a, 1);
    assert_eq!((f.winner, f.ended, f.rounds.len()), (None, "rounds", 100));
}

#[test]
fn flyers_strike_first_and_harder_and_are_hard_to_reach_from_the_ground_cmb_fly() {
    // Ground melee 5 against a flyer of defense 0: it meets 5 more, 5 vs 5 → 50%.
    let mut bird = fighter("D", 1, 10_000, stats(0, 0, 100));
    bird.flyer = true;
    let rate = hit_rate(armies(vec![fighter("A", 0, 10_000, stats(5, 0, 100)), bird.clone()]), "A");
    assert!((rate - expected(5, 5)).abs() < 0.015, "{rate}");
    // A flyer's melee 1 against ground defense 1: +1, 2 vs 1 → 2/3.
    let mut bird = fighter("A", 0, 10_000, stats(1, 0, 100));
    bird.flyer = true;
    let rate = hit_rate(armies(vec![bird.clone(), fighter("D", 1, 10_000, stats(0, 1, 100))]), "A");
    assert!((rate - expected(2, 1)).abs() < 0.015, "{rate}");
    assert!(expected(2, 1) - expected(1, 1) > 0.09);
    // +2 initiative: a flyer at 0 acts before a walker at 1.
    let walker = fighter("D", 1, 1, Stats { initiative: 1, ..stats(1, 1, 100) });
    let mut bird = fighter("A", 0, 1, stats(1, 1, 100));
    bird.flyer = true;
    assert_eq!(actors(&fight(&armies(vec![bird, walker]), 1), 0), ["A", "D"]);
}

#[test]
fn a_spell_in_the_combat_list_is_skipped_with_a_line_cmb_spell() {
    // An action the unit cannot use (an enchanting spell, a skill without its
    // equipment) is said once and skipped; MELEE PARRY follow.
    let mut x = fighter("A", 0, 1, stats(3, 1, 1));
    x.actions = vec![Action::Unusable { tag: "sboa".into(), why: "spells".into() }];
    let f = fight(&armies(vec![x, fighter("D", 1, 1, stats(0, 1, 5))]), 1);
    let skips = f.rounds.iter().flat_map(|r| &r.lines).filter(|l| matches!(l, Line::Skip { .. })).count();
    assert_eq!(skips, 1);
    assert!(f.rounds[0].lines.iter().any(|l| matches!(l, Line::Attack { unit, .. } if unit == "A")));
}

/// A ranged spell costing `mana`.
fn spell(tag: &str, mana: u32) -> Action {
    Action::Special(Special {
        tag: tag.into(),
        reach: Reach::Ranged(0),
        leaders_only: false,
        bonus: Stats { missile: 3, ..Stats::default() },
        holders: None,
        trains: None,
        mana: Some(mana),
        ..Special::default()
    })
}

#[test]
fn spells_cost_mana_regained_a_point_a_round_and_leave_the_list_until_all_were_cast_cmb_spell_cmb_spelllist() {
    // A mage of maximum 3 starting with no mana, at the rear, with `bolt` (2) and
    // `zap` (1), against a target too tough to die. Round 1: 1 point, bolt cannot,
    // zap is cast (0). Round 2: 1 point; zap is out of the list, bolt cannot. Round
    // 3: 2 points, bolt (0). Round 4: both were cast: the whole list again; 1 point,
    // zap. Round 5: 1 point, nothing castable but bolt, which needs 2. Round 6: bolt.
    let mut mage = at(fighter("M", 0, 1, Stats { mana: 3, ..stats(0, 1, 1) }), 2, 1, Move::Stand);
    mage.actions = vec![spell("bolt", 2), spell("zap", 1)];
    let wall = at(fighter("W", 1, 1, stats(0, 0, 100_000)), 0, 1, Move::Stand);
    let f = fight(&armies(vec![mage, wall]), 3);
    let casts: Vec<(u32, &str, u32)> = f
        .rounds
        .iter()
        .flat_map(|r| {
            r.lines.iter().filter_map(move |l| match l {
                Line::Cast { unit, spell, mana } if unit == "M" => Some((r.round, spell.as_str(), *mana)),
                _ => None,
            })
        })
        .take(5)
        .collect();
    assert_eq!(casts, [(1, "zap", 1), (3, "bolt", 2), (4, "zap", 1), (6, "bolt", 2), (7, "zap", 1)]);
    // Each cast is followed by the spell's attack.
    assert_eq!(
        attacks(&f, "M").iter().filter(|a| a.0 == "zap").count(),
        f.rounds
            .iter()
            .flat_map(|r| &r.lines)
            .filter(|l| matches!(l, Line::Cast { spell, .. } if spell == "zap"))
            .count()
    );
    assert!(f.deeds[0].mana <= 3);
}

#[test]
fn a_mage_with_mana_casts_at_once_and_never_regains_above_its_maximum_cmb_spell() {
    let mut mage = at(fighter("M", 0, 1, Stats { mana: 2, ..stats(0, 1, 1) }), 2, 1, Move::Stand);
    mage.mana = 5;
    mage.actions = vec![spell("bolt", 2)];
    let wall = at(fighter("W", 1, 1, stats(0, 0, 100_000)), 0, 1, Move::Stand);
    let f = fight(&armies(vec![mage, wall]), 3);
    let first: Vec<u32> = f
        .rounds
        .iter()
        .filter(|r| r.lines.iter().any(|l| matches!(l, Line::Cast { .. })))
        .map(|r| r.round)
        .take(3)
        .collect();
    // 5 (above the maximum: no regain) → 3 → 1, then +1 a round: 2 on round 3.
    assert_eq!(first, [1, 2, 3]);
}

#[test]
fn a_spells_further_strikes_come_with_one_casting_cmb_spell_cmb_hits() {
    // bolt with +2 hits (3 strikes): one payment of 2, three attacks in round 1.
    let mut mage = at(fighter("M", 0, 1, Stats { mana: 2, ..stats(0, 1, 1) }), 2, 1, Move::Stand);
    mage.mana = 2;
    let Action::Special(mut bolt) = spell("bolt", 2) else { unreachable!() };
    bolt.bonus.hits = 2;
    mage.actions = vec![Action::Special(bolt)];
    let wall = at(fighter("W", 1, 1, stats(0, 0, 100_000)), 0, 1, Move::Stand);
    let f = fight(&armies(vec![mage, wall]), 3);
    let r1 = &f.rounds[0].lines;
    assert_eq!(r1.iter().filter(|l| matches!(l, Line::Cast { .. })).count(), 1);
    assert_eq!(r1.iter().filter(|l| matches!(l, Line::Attack { action, .. } if action == "bolt")).count(), 3);
}

/// A spell costing `mana` that enchants `aim` within `range` with `charm`.
fn enchanting(tag: &str, mana: u32, aim: Aim, range: u32, charm: Charm) -> Action {
    Action::Special(Special {
        tag: tag.into(),
        mana: Some(mana),
        charming: Some(Charming { aim, range, charms: vec![charm], then_melee: false, then_next: false }),
        ..Special::default()
    })
}

/// The units each Charm line of the battle fell on, by round.
fn charmed(f: &Fought) -> Vec<(u32, Vec<&str>)> {
    f.rounds
        .iter()
        .flat_map(|r| {
            r.lines.iter().filter_map(move |l| match l {
                Line::Charm { units, .. } => Some((r.round, units.iter().map(String::as_str).collect())),
                _ => None,
            })
        })
        .collect()
}

#[test]
fn a_battlefield_enchantment_falls_on_every_unit_of_its_aim_within_its_range_cmb_spell() {
    // The mage at the rear left casts an enchantment on everyone within 2 squares:
    // itself, the friend at its rear centre (1) and the one at the front left (2),
    // not the friend at the front right (4) nor the enemy ahead (3).
    let mut mage = at(fighter("M", 0, 1, Stats { mana: 1, ..stats(0, 1, 1) }), 2, 0, Move::Stand);
    mage.mana = 1;
    let hail = Charm { tag: "hail".into(), stats: Stats { missile: -3, ..Stats::default() }, ..Charm::default() };
    mage.actions = vec![enchanting("hail", 1, Aim::Everyone, 2, hail.clone())];
    let a = at(fighter("A", 0, 1, stats(0, 1, 9)), 2, 1, Move::Stand);
    let b = at(fighter("B", 0, 1, stats(0, 1, 9)), 0, 0, Move::Stand);
    let c = at(fighter("C", 0, 1, stats(0, 1, 9)), 0, 2, Move::Stand);
    let e = at(fighter("E", 1, 1, stats(0, 1, 9)), 0, 0, Move::Stand);
    let mut arm = armies(vec![mage.clone(), a.clone(), b.clone(), c.clone(), e.clone()]);
    arm.rules.max_rounds = 1;
    assert_eq!(charmed(&fight(&arm, 1)), [(1, vec!["M", "A", "B"])]);
    // The enemy side, anywhere: E alone.
    mage.actions = vec![enchanting("wind", 1, Aim::Enemies, 0, hail.clone())];
    let mut arm = armies(vec![mage.clone(), a.clone(), b, c, e]);
    arm.rules.max_rounds = 1;
    assert_eq!(charmed(&fight(&arm, 1)), [(1, vec!["E"])]);
    // The enemies within one square: none, so it is not cast and no mana is spent.
    mage.actions = vec![enchanting("bless", 1, Aim::Enemies, 1, hail)];
    let mut arm = armies(vec![mage, a, fighter("F", 1, 1, stats(0, 1, 9))]);
    arm.rules.max_rounds = 1;
    let f = fight(&arm, 1);
    assert!(charmed(&f).is_empty());
    assert_eq!(f.deeds[0].mana, 1);
}

#[test]
fn an_enchantment_lasts_its_rounds_and_changes_what_its_units_can_do_cmb_spell() {
    // The archer has no missile of its own: it shoots only while the mage's
    // enchantment (+5 missile, 2 rounds) is upon it. The mage (maximum 3, starting
    // with 3) casts it in round 1, then again in round 4 once it has 3 again.
    let mut mage = at(fighter("M", 0, 1, Stats { mana: 3, initiative: 10, ..stats(0, 1, 1) }), 2, 0, Move::Stand);
    mage.mana = 3;
    let aim =
        Charm { tag: "aim".into(), stats: Stats { missile: 5, ..Stats::default() }, rounds: 2, ..Charm::default() };
    mage.actions = vec![enchanting("aim", 3, Aim::Friends, 0, aim)];
    let mut archer = at(fighter("A", 0, 1, stats(0, 1, 9)), 2, 1, Move::Stand);
    archer.actions = vec![Action::Ranged];
    let wall = at(fighter("W", 1, 1, stats(0, 0, 100_000)), 0, 1, Move::Stand);
    let mut arm = armies(vec![mage, archer, wall]);
    arm.rules.max_rounds = 6;
    let f = fight(&arm, 2);
    assert_eq!(charmed(&f).iter().map(|c| c.0).collect::<Vec<_>>(), [1, 4]);
    let shot: Vec<u32> = f
        .rounds
        .iter()
        .filter(|r| {
            r.lines.iter().any(|l| matches!(l, Line::Attack { unit, action, .. } if unit == "A" && action == "RANGED"))
        })
        .map(|r| r.round)
        .collect();
    assert_eq!(shot, [1, 2, 4, 5]);
}

#[test]
fn an_enchantments_extra_life_takes_one_hit_but_not_the_next_after_it_ends_cmb_spell() {
    // The boar (life 1) enchants itself with +1 life for the round, then strikes the
    // enemy beside it (the aim is its strike's). The enemy's sure blow in round 1
    // only takes the extra point; in round 2, with no mana left, the same blow kills.
    let mut boar = fighter("B", 0, 1, Stats { initiative: 10, ..stats(1, 0, 1) });
    boar.mana = 2;
    let strength = Charm { tag: "boar".into(), stats: Stats { life: 1, ..Stats::default() }, ..Charm::default() };
    boar.actions = vec![Action::Special(Special {
        tag: "sboa".into(),
        mana: Some(2),
        charming: Some(Charming {
            aim: Aim::Enemies,
            range: 1,
            charms: vec![strength],
            then_melee: true,
            then_next: false,
        }),
        ..Special::default()
    })];
    let brute =
        fighter("X", 1, 1, Stats { melee: 20, hits: 1, damage: 1, defense: 100, life: 1000, ..Stats::default() });
    let mut arm = armies(vec![boar.clone(), brute.clone()]);
    arm.rules.max_rounds = 2;
    let f = fight(&arm, 4);
    assert_eq!(charmed(&f), [(1, vec!["B"])]);
    assert!(attacks(&f, "B").first().is_some_and(|a| a.0 == "sboa"), "{:?}", attacks(&f, "B"));
    assert_eq!(f.rounds[0].casualties, [0, 0], "round 1: the extra life point took the blow");
    assert_eq!(f.rounds[1].casualties[0], 1, "round 2: the next blow kills");
    // With no enemy beside it, the boar does not cast.
    let far = at(brute, 2, 1, Move::Stand);
    let mut arm = armies(vec![boar, far]);
    arm.rules.max_rounds = 1;
    assert!(charmed(&fight(&arm, 4)).is_empty());
}

#[test]
fn a_battle_spell_consumes_its_components_and_is_not_cast_without_them_mag_cost() {
    // Two herbs, one a casting: two castings, then none though mana is left.
    let mut mage = at(fighter("M", 0, 1, Stats { mana: 9, ..stats(0, 1, 1) }), 2, 0, Move::Stand);
    mage.mana = 9;
    mage.supplies = vec![("hrbs".into(), 2)];
    let Action::Special(mut hail) =
        enchanting("hail", 1, Aim::Everyone, 0, Charm { tag: "hail".into(), ..Charm::default() })
    else {
        unreachable!()
    };
    hail.consumes = vec![("hrbs".into(), 1)];
    mage.actions = vec![Action::Special(hail)];
    let wall = at(fighter("W", 1, 1, stats(0, 0, 100_000)), 0, 1, Move::Stand);
    let mut arm = armies(vec![mage, wall]);
    arm.rules.max_rounds = 4;
    let f = fight(&arm, 1);
    assert_eq!(charmed(&f).iter().map(|c| c.0).collect::<Vec<_>>(), [1, 2]);
    assert_eq!(f.deeds[0].spent, [("hrbs".to_string(), 2)]);
    assert_eq!(f.deeds[1].spent, []);
}

#[test]
fn an_enchantment_then_next_lets_the_unit_take_its_next_action_a_step_later_cmb_item() {
    // A ring that phases its wearer, then the wearer's MELEE, in the same round.
    let mut a = fighter("A", 0, 1, stats(2, 1, 5));
    a.actions = vec![Action::Special(Special {
        tag: "ring".into(),
        charming: Some(Charming {
            aim: Aim::Caster,
            range: 0,
            charms: vec![Charm {
                tag: "phase".into(),
                stats: Stats { defense: 40, ..Stats::default() },
                ..Charm::default()
            }],
            then_melee: false,
            then_next: true,
        }),
        ..Special::default()
    })];
    let mut arm = armies(vec![a, fighter("D", 1, 1, stats(0, 1, 100))]);
    arm.rules.max_rounds = 2;
    let f = fight(&arm, 1);
    assert_eq!(charmed(&f), [(1, vec!["A"]), (2, vec!["A"])], "not a spell: every round");
    assert_eq!(attacks(&f, "A").iter().filter(|x| x.0 == "MELEE").count(), 2);
}

/// A mage at the front centre with a summoning spell costing `mana` that calls
/// `creatures` (the fighter at index 2, on the mage's square).
fn summoner(mana: u32, creatures: Fighter) -> (Fighter, Fighter) {
    let mut mage = fighter("M", 0, 1, Stats { initiative: 20, ..stats(0, 0, 1) });
    mage.mana = mana;
    mage.actions =
        vec![Action::Special(Special { tag: "call".into(), mana: Some(mana), summons: Some(2), ..Special::default() })];
    let mut c = creatures;
    c.reserve = Some(Reserve { caster: 0, at_caster: true, name: "Beasts".into(), race: "beast".into() });
    (mage, c)
}

#[test]
fn a_summoning_spell_calls_its_creatures_onto_the_field_from_the_next_round_cmb_spell() {
    // The mage casts once (mana 3, no maximum to regain to): two beasts come in
    // round 1 and strike from round 2, beside the mage, at the tough wall ahead.
    let mut beasts = fighter("M/call", 0, 2, stats(5, 1, 3));
    beasts.actions = vec![Action::Melee];
    let (mut mage, beasts) = summoner(3, beasts);
    mage.stats.life = 50;
    let wall = fighter("W", 1, 1, stats(0, 0, 100_000));
    let mut arm = armies(vec![mage, wall, beasts]);
    arm.rules.max_rounds = 3;
    let f = fight(&arm, 1);
    let calls: Vec<(u32, u32)> = f
        .rounds
        .iter()
        .flat_map(|r| {
            r.lines.iter().filter_map(move |l| match l {
                Line::Summon { unit, summoned, figures } if unit == "M" && summoned == "M/call" => {
                    Some((r.round, *figures))
                }
                _ => None,
            })
        })
        .collect();
    assert_eq!(calls, [(1, 2)]);
    let struck: Vec<u32> = f
        .rounds
        .iter()
        .filter(|r| r.lines.iter().any(|l| matches!(l, Line::Attack { unit, .. } if unit == "M/call")))
        .map(|r| r.round)
        .collect();
    assert_eq!(struck, [2, 3]);
    assert_eq!((f.deeds[2].called, f.deeds[2].alive), (2, 2));
}

#[test]
fn creatures_a_spell_called_do_not_keep_their_side_on_the_field_cmb_end() {
    // The mage calls a beast, then falls to the brute's sure blow in the same round:
    // its side is gone though the beast stands.
    let (mage, beast) = summoner(3, fighter("M/call", 0, 1, stats(1, 1, 1000)));
    let brute = fighter("X", 1, 1, Stats { melee: 20, initiative: 10, ..stats(20, 100, 1000) });
    let f = fight(&armies(vec![mage, brute, beast]), 1);
    assert!(f.rounds[0].lines.iter().any(|l| matches!(l, Line::Summon { .. })));
    assert_eq!((f.winner, f.ended), (Some(1), "wiped out"));
    assert_eq!(f.deeds[0].alive, 0);
}
