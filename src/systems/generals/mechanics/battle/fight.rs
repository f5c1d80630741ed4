//! One battle, fought (generals-rules.txt 62-86; rulings 4-7): a pure function
//! of the armies mustered and the battle's random stream. Every coefficient is
//! in `combat.ron` and `troops.ron`.
//!
//! * **Orders first.** Flanking needs an average movement at least
//!   `flanking_edge` above the defender's, or it is fought as
//!   `flanking_fallback`. An ambush is discovered with its `discovered_percent`
//!   (defending, attacking), less the ambusher's Sneaky; then both sides fight
//!   as `discovered_into`.
//! * **Ratings.** A man's offense and defense are his type's, times 100% plus
//!   the type's modifiers for the terrain and his side's order (and for
//!   `prepared_as` on a prepared battlefield), plus `veteran_bonus_percent` per
//!   veteran level and the Invincible Warrior's bonus for his champion; defense
//!   also gains Master Tactician's bonus and `speed_defense_percent` per point of
//!   average movement above the enemy's (the faster army defends better).
//! * **Rounds.** Before each round, morale is checked, defenders first, unit by
//!   unit, under orders that may flee: a unit flees with (`morale_loss_percent`
//!   per 10% of its side's men lost + `morale_size_percent` per 100% the enemy
//!   outnumbers it) × (100 − its morale)%, less Inspirational's bonus. Then ranged
//!   units (range ≥ the round) shoot, and every other unit fights: a side deals
//!   Σ men × offense × its order's `damage_percent` (more men, more damage), the
//!   other takes it × its order's `taken_percent`, shared over its main body in
//!   proportion to men, what is left over falling on the reserves; a man dies
//!   per defense × health of damage (health absorbs). Healer saves a share of the
//!   dead, Arcane Mage kills some more. Fractions of a man die by the stream.
//! * **End.** When a side's last unit flees its order becomes `flee`, the enemy
//!   strikes the fleeing once, and the battle ends; it ends too when a side is
//!   destroyed, or after `max_rounds` with the defender holding.
//! * **Withdraw.** Only the rearguard fights; if it holds `rearguard_rounds`
//!   rounds, the rest of the army escapes; if it breaks sooner, the rest are
//!   overtaken and fight.

use crate::systems::generals::data::RuleSet;
use bevy_ecs::entity::Entity;
use rand::RngExt;
use rand::rngs::ChaCha8Rng;

/// A troop unit in a battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fighter {
    /// Its entity.
    pub troop: Entity,
    /// Its id, for the log.
    pub id: String,
    /// Troop type index.
    pub kind: usize,
    /// Men at the start.
    pub men: u32,
    /// Veteran levels.
    pub veteran: u32,
    /// In the reserve: casualties fall on it after the main body.
    pub reserve: bool,
    /// Named to the rearguard of a withdrawal.
    pub rearguard: bool,
    /// Offense and defense bonus in % of an Invincible Warrior fighting with it.
    pub champion: u32,
}

/// One side: its troops, order and the skills of its generals (the best level
/// among them for each).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Army {
    /// The player.
    pub player: Entity,
    /// Its generals on the field.
    pub generals: Vec<Entity>,
    /// Its units.
    pub fighters: Vec<Fighter>,
    /// The battle order given (index).
    pub order: usize,
    /// Arcane Mage: enemy men killed each round.
    pub casualties: u32,
    /// Healer: % of its dead saved each round.
    pub healing: u32,
    /// Inspirational: % off each unit's chance to flee.
    pub morale: u32,
    /// Sneaky: % off the chance its ambush is discovered.
    pub sneaky: u32,
    /// Master Tactician: defense +%.
    pub defense: u32,
    /// Guerilla Tactics, Fortification Expert, Battlefield Planner: (order, +%)
    /// to its damage when it fights under that order.
    pub order_bonus: Vec<(usize, u32)>,
    /// Fights on a battlefield its generals prepared.
    pub prepared: bool,
}

/// What the battle left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The orders fought under at the start (after flanking and discovery).
    pub orders: [usize; 2],
    /// Rounds fought.
    pub rounds: u32,
    /// Men left in each unit.
    pub men: [Vec<u32>; 2],
    /// Units that fled.
    pub fled: [Vec<bool>; 2],
    /// The defender's units that got away while the rearguard held.
    pub escaped: Vec<bool>,
    /// The winning side: 0 the attacker, 1 the defender.
    pub winner: usize,
    /// What happened, line by line.
    pub log: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Fighting,
    Fled,
    Waiting,
    Escaped,
}

const SIDE: [&str; 2] = ["the attackers", "the defenders"];

/// Average movement per man.
fn speed(rules: &RuleSet, a: &Army) -> f64 {
    let men: u64 = a.fighters.iter().map(|f| u64::from(f.men)).sum();
    let moves: u64 = a.fighters.iter().map(|f| u64::from(f.men) * u64::from(rules.troops[f.kind].movement)).sum();
    if men == 0 { 0.0 } else { moves as f64 / men as f64 }
}

/// Rounds `x` men: the whole part, and one more with the fraction's chance.
fn whole(x: f64, rng: &mut ChaCha8Rng) -> u32 {
    let x = x.max(0.0);
    let base = x.floor();
    let extra = u32::from(rng.random::<f64>() < x - base);
    (base as u32).saturating_add(extra)
}

struct Battle<'a> {
    rules: &'a RuleSet,
    terrain: &'a str,
    armies: &'a [Army; 2],
    orders: [usize; 2],
    men: [Vec<u32>; 2],
    state: [Vec<State>; 2],
    speed: [f64; 2],
}

impl Battle<'_> {
    fn tag(&self, order: usize) -> &str {
        &self.rules.combat.orders[order].tag
    }

    /// Modifier in % of unit `i` of side `s` (terrain, orders, veterans,
    /// champion) before what applies to offense or defense only.
    fn modifier(&self, s: usize, i: usize) -> i64 {
        let f = &self.armies[s].fighters[i];
        let t = &self.rules.troops[f.kind];
        let mut m = 100 + i64::from(*t.terrain.get(self.terrain).unwrap_or(&0));
        m += i64::from(*t.orders.get(self.tag(self.orders[s])).unwrap_or(&0));
        if self.armies[s].prepared {
            m += i64::from(*t.orders.get(&self.rules.combat.prepared_as).unwrap_or(&0));
        }
        m += i64::from(f.veteran) * i64::from(self.rules.combat.veteran_bonus_percent);
        m + i64::from(f.champion)
    }

    fn offense(&self, s: usize, i: usize) -> f64 {
        let t = &self.rules.troops[self.armies[s].fighters[i].kind];
        f64::from(t.offense) * self.modifier(s, i).max(0) as f64 / 100.0
    }

    fn defense(&self, s: usize, i: usize) -> f64 {
        let t = &self.rules.troops[self.armies[s].fighters[i].kind];
        let mut m = self.modifier(s, i) + i64::from(self.armies[s].defense);
        let edge = self.speed[s] - self.speed[1 - s];
        if edge > 0.0 {
            m += (edge * f64::from(self.rules.combat.speed_defense_percent)) as i64;
        }
        f64::from(t.defense) * (m.max(10) as f64 / 100.0)
    }

    /// The order factors of side `s`: (damage dealt, damage taken), in parts of 1.
    fn factors(&self, s: usize) -> (f64, f64) {
        let c = &self.rules.combat;
        let o = &c.orders[self.orders[s]];
        let (mut dealt, mut taken) = (f64::from(o.damage_percent) / 100.0, f64::from(o.taken_percent) / 100.0);
        if self.armies[s].prepared
            && let Some(p) = c.orders.iter().find(|x| x.tag == c.prepared_as)
        {
            dealt *= f64::from(p.damage_percent) / 100.0;
            taken *= f64::from(p.taken_percent) / 100.0;
        }
        let bonus = self.armies[s].order_bonus.iter().filter(|b| b.0 == self.orders[s]).map(|b| b.1).max();
        dealt *= 1.0 + f64::from(bonus.unwrap_or(0)) / 100.0;
        (dealt, taken)
    }

    /// A withdrawal whose rearguard no longer fights: the rest are overtaken and
    /// fight.
    fn overtaken(&mut self, withdraw: bool, log: &mut Vec<String>) {
        if withdraw && self.men_in(1, State::Fighting) == 0 && self.state[1].contains(&State::Waiting) {
            self.state[1].iter_mut().filter(|x| **x == State::Waiting).for_each(|x| *x = State::Fighting);
            log.push("The rearguard broke: the rest of the defenders were overtaken and fought.".into());
        }
    }

    fn men_in(&self, s: usize, state: State) -> u32 {
        self.men[s].iter().zip(&self.state[s]).filter(|x| *x.1 == state).map(|x| *x.0).sum()
    }

    /// The damage side `s` deals with the fighting units `shoots` picks.
    fn damage(&self, s: usize, shoots: impl Fn(usize) -> bool) -> f64 {
        let (dealt, _) = self.factors(s);
        let raw: f64 = (0..self.men[s].len())
            .filter(|&i| self.state[s][i] == State::Fighting && shoots(i))
            .map(|i| f64::from(self.men[s][i]) * self.offense(s, i))
            .sum();
        raw * dealt
    }

    /// Damage `dmg` falls on side `s`'s units in state `state`: the main body
    /// first, the reserves with what is left. Returns the men killed.
    fn strike(&mut self, s: usize, dmg: f64, state: State, rng: &mut ChaCha8Rng) -> u32 {
        let (_, taken) = self.factors(s);
        let heal = f64::from(self.armies[s].healing.min(100)) / 100.0;
        let mut left = dmg * taken;
        let mut killed = 0;
        for reserve in [false, true] {
            let group: Vec<usize> = (0..self.men[s].len())
                .filter(|&i| {
                    self.state[s][i] == state && self.armies[s].fighters[i].reserve == reserve && self.men[s][i] > 0
                })
                .collect();
            let total: u32 = group.iter().map(|&i| self.men[s][i]).sum();
            if total == 0 || left <= 0.0 {
                continue;
            }
            let mut over = 0.0;
            for &i in &group {
                let share = left * f64::from(self.men[s][i]) / f64::from(total);
                let per_man = (self.defense(s, i)
                    * f64::from(self.rules.troops[self.armies[s].fighters[i].kind].health))
                .max(0.01);
                let dead = share / per_man;
                let cap = f64::from(self.men[s][i]);
                if dead > cap {
                    over += (dead - cap) * per_man;
                }
                let n = whole(dead.min(cap) * (1.0 - heal), rng).min(self.men[s][i]);
                self.men[s][i] -= n;
                killed += n;
            }
            left = over;
        }
        killed
    }

    /// Arcane Mage: `n` more of side `s`'s fighting men killed, main body first.
    fn blast(&mut self, s: usize, mut n: u32) -> u32 {
        let mut killed = 0;
        for reserve in [false, true] {
            for i in 0..self.men[s].len() {
                if self.state[s][i] == State::Fighting && self.armies[s].fighters[i].reserve == reserve {
                    let k = n.min(self.men[s][i]);
                    self.men[s][i] -= k;
                    n -= k;
                    killed += k;
                }
            }
        }
        killed
    }

    /// Morale checks of side `s` before a round.
    fn morale(&mut self, s: usize, start: u32, rng: &mut ChaCha8Rng, log: &mut Vec<String>) {
        let c = &self.rules.combat;
        if !c.orders[self.orders[s]].may_flee {
            return;
        }
        let own = self.men_in(s, State::Fighting);
        let enemy = self.men_in(1 - s, State::Fighting);
        if own == 0 {
            return;
        }
        let now: u32 = self.men[s].iter().sum();
        let lost_pct = f64::from(start.saturating_sub(now)) * 100.0 / f64::from(start.max(1));
        let outnumbered = (f64::from(enemy) * 100.0 / f64::from(own) - 100.0).max(0.0);
        let pressure =
            f64::from(c.morale_loss_percent) * lost_pct / 10.0 + f64::from(c.morale_size_percent) * outnumbered / 100.0;
        for i in 0..self.men[s].len() {
            if self.state[s][i] != State::Fighting || self.men[s][i] == 0 {
                continue;
            }
            let steady = f64::from(self.rules.troops[self.armies[s].fighters[i].kind].morale.min(100));
            let flee = pressure * (100.0 - steady) / 100.0 - f64::from(self.armies[s].morale);
            if flee > 0.0 && rng.random::<f64>() * 100.0 < flee {
                self.state[s][i] = State::Fled;
                log.push(format!("{} of {} fled.", self.armies[s].fighters[i].id, SIDE[s]));
            }
        }
    }
}

/// Fights the battle between `armies` (0 attacks, 1 defends) in terrain
/// `terrain` (a tag).
pub fn fight(rules: &RuleSet, terrain: &str, armies: &[Army; 2], rng: &mut ChaCha8Rng) -> Outcome {
    let c = &rules.combat;
    let find = |tag: &str| c.orders.iter().position(|o| o.tag == tag);
    let mut log = Vec::new();
    let mut orders = [armies[0].order, armies[1].order];
    let speeds = [speed(rules, &armies[0]), speed(rules, &armies[1])];
    // Flanking needs speed (ruling 7).
    if Some(orders[0]) == find(&c.flanking)
        && speeds[0] < speeds[1] + f64::from(c.flanking_edge)
        && let Some(f) = find(&c.flanking_fallback)
    {
        log.push(format!(
            "The attackers were too slow to outflank the defenders and fought a {} battle.",
            c.orders[f].name.to_lowercase()
        ));
        orders[0] = f;
    }
    // Ambushes may be discovered (ruling 5).
    for s in [1, 0] {
        let Some((defending, attacking)) = c.orders[orders[s]].discovered_percent else { continue };
        let chance = (if s == 1 { defending } else { attacking }).saturating_sub(armies[s].sneaky);
        if rng.random_range(0..100) < chance
            && let Some(d) = find(&c.discovered_into)
        {
            log.push(format!(
                "The ambush of {} was discovered: both sides fought as {}.",
                SIDE[s],
                c.orders[d].name.to_lowercase()
            ));
            orders = [d, d];
            break;
        }
    }
    let fought = orders;
    let mut b = Battle {
        rules,
        terrain,
        armies,
        orders,
        men: [0, 1].map(|s| armies[s].fighters.iter().map(|f| f.men).collect()),
        state: [0, 1].map(|s| vec![State::Fighting; armies[s].fighters.len()]),
        speed: speeds,
    };
    // Withdraw: only the rearguard fights (ruling 6).
    let withdraw = Some(orders[1]) == find(&c.withdraw) && armies[1].fighters.iter().any(|f| f.rearguard);
    if withdraw {
        for (i, f) in armies[1].fighters.iter().enumerate() {
            if !f.rearguard {
                b.state[1][i] = State::Waiting;
            }
        }
    }
    let start: [u32; 2] = [0, 1].map(|s| b.men[s].iter().sum());
    let flee = find(&c.flee);
    let mut rounds = 0;
    let mut winner = 1;
    for round in 1..=c.max_rounds {
        for s in [1, 0] {
            b.morale(s, start[s], rng, &mut log);
            if s == 1 {
                b.overtaken(withdraw, &mut log);
            }
        }
        // A side with no one fighting has fled or is destroyed.
        let beaten = [0, 1].into_iter().find(|&s| b.men_in(s, State::Fighting) == 0);
        if let Some(s) = beaten {
            winner = 1 - s;
            if b.men_in(s, State::Fled) > 0 {
                if let Some(f) = flee {
                    b.orders[s] = f;
                }
                let dmg = b.damage(1 - s, |_| true);
                let killed = b.strike(s, dmg, State::Fled, rng);
                log.push(format!("{} fled the field, losing {killed} men as they ran.", capital(SIDE[s])));
            } else {
                log.push(format!("{} were destroyed.", capital(SIDE[s])));
            }
            break;
        }
        rounds = round;
        let mut lost = [0u32; 2];
        // Ranged units shoot first in the first rounds of their range.
        let ranged = |s: usize, i: usize| rules.troops[armies[s].fighters[i].kind].range >= round;
        let volley = [b.damage(0, |i| ranged(0, i)), b.damage(1, |i| ranged(1, i))];
        for s in 0..2 {
            lost[1 - s] += b.strike(1 - s, volley[s], State::Fighting, rng);
        }
        let melee = [b.damage(0, |i| !ranged(0, i)), b.damage(1, |i| !ranged(1, i))];
        for s in 0..2 {
            lost[1 - s] += b.strike(1 - s, melee[s], State::Fighting, rng);
            lost[1 - s] += b.blast(1 - s, armies[s].casualties);
        }
        log.push(format!("Round {round}: the attackers lost {} men, the defenders {}.", lost[0], lost[1]));
        b.overtaken(withdraw, &mut log);
        if withdraw && round >= c.rearguard_rounds && b.state[1].contains(&State::Waiting) {
            b.state[1].iter_mut().filter(|x| **x == State::Waiting).for_each(|x| *x = State::Escaped);
            log.push(format!("The rearguard held {round} rounds: the rest of the defenders got away."));
        }
        if round == c.max_rounds {
            log.push(format!("After {round} rounds the defenders held the field."));
        }
    }
    let escaped = b.state[1].iter().map(|&x| x == State::Escaped).collect();
    let fled = [0, 1].map(|s| b.state[s].iter().map(|&x| x == State::Fled).collect());
    Outcome { orders: fought, rounds, men: b.men, fled, escaped, winner, log }
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}
