//! Defensive orders, attacks and battles (plan step `battle`;
//! generals-rules.txt 18-33, 43-44, 49-50, 62-96; rulings 4-8, 10, 11, 13).
//!
//! 1. [`set_defenses`]: each region's defensive order (REGION lines) is kept
//!    for this turn and after; a withdrawal's rearguard for this turn.
//! 2. [`declare_attacks`]: in this turn's player order, each ATTACK's troops
//!    march out of their region toward the adjacent region attacked (they no
//!    longer defend the one they left); an attack on an ally breaks the alliance
//!    (generals-rules.txt 157, ruling 11: both become neutral).
//! 3. [`fight_battles`]: the core's battle framework fights them, one region at a
//!    time in region order, the attacks on one region one after the other: an
//!    attack on a region nobody holds any more takes it without a fight. The
//!    fight itself is [`fight::fight`]. After it, each general of both sides dies
//!    with `general_death_percent` of the % of his side's men killed, less
//!    Undying (ruling 13), each surviving unit may become a veteran (ruling 8),
//!    and the loser retreats (ruling 10): to an adjacent region it holds (an
//!    attacker to the one it came from first), else to an adjacent region nobody
//!    holds; else the army is destroyed and its generals with it. Draws come from
//!    the battle's own stream. Renown and victory points follow in
//!    [`aftermath`](super::aftermath).

pub mod fight;
#[cfg(test)]
mod tests;

use super::skills::{best, level};
use super::turn::{Act, Journal, TurnOrders};
use crate::core::battle::{self as framework, Request, Requests, Resolver};
use crate::core::engine::plan::{Clock, PlanApp};
use crate::core::engine::rng::{key_of, stream_seed};
use crate::systems::generals::data::{Relation, RuleSet, SkillEffect};
use crate::systems::generals::world::{
    Adjacent, At, Attacking, Directory, GameInfo, General, Id, Owner, PreparedBy, Region, Relations, Rules, Seq, Troop,
    garrisons, holders, label,
};
use bevy_app::{App, Plugin};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use fight::{Army, Fighter, Outcome};
use rand::RngExt;
use rand::rngs::ChaCha8Rng;
use std::sync::Arc;

/// Defensive orders, attacks and battles.
pub struct BattlePlugin;

impl Plugin for BattlePlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Requests<Attack>>()
            .init_resource::<Battles>()
            .init_resource::<Rearguards>()
            .add_step_system("battle", set_defenses)
            .add_step_system("battle", declare_attacks)
            .add_step_system("battle", fight_battles);
    }
}

/// An attack, as the framework carries it to its battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attack {
    /// The attacking player.
    pub player: Entity,
    /// Its order line.
    pub line: usize,
    /// The troop units marching.
    pub troops: Vec<Entity>,
    /// The offensive order given (index).
    pub order: usize,
    /// The region they came from.
    pub origin: Entity,
}

/// The rearguards named this turn, by region.
#[derive(Resource, Debug, Default)]
pub struct Rearguards(pub EntityHashMap<Vec<Entity>>);

/// A unit's part in a battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitRecord {
    /// Its id.
    pub id: String,
    /// Troop type index.
    pub kind: usize,
    /// Men at the start.
    pub men: u32,
    /// Men lost.
    pub lost: u32,
    /// It fled.
    pub fled: bool,
    /// It became a veteran (one level more).
    pub veteran: bool,
}

/// One side of a battle, as it went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SideRecord {
    /// The player.
    pub player: Entity,
    /// Its generals on the field, by name, and those still alive after it.
    pub generals: Vec<String>,
    /// Its generals alive after it.
    pub survivors: Vec<Entity>,
    /// The order given and the order fought under (indexes).
    pub orders: (usize, usize),
    /// Its units.
    pub units: Vec<UnitRecord>,
    /// Its generals who died.
    pub generals_killed: Vec<String>,
    /// Where it retreated (the loser), or `None`.
    pub retreat: Option<Entity>,
    /// It had nowhere to retreat and was destroyed.
    pub destroyed: bool,
}

impl SideRecord {
    /// Men at the start and men lost.
    pub fn men(&self) -> (u32, u32) {
        self.units.iter().fold((0, 0), |(m, l), u| (m + u.men, l + u.lost))
    }
}

/// A battle fought this turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleRecord {
    /// Where.
    pub region: Entity,
    /// The attack's order line.
    pub line: usize,
    /// Rounds fought.
    pub rounds: u32,
    /// The winner: 0 the attacker, 1 the defender.
    pub winner: usize,
    /// Attacker, defender.
    pub sides: [SideRecord; 2],
    /// What happened.
    pub log: Vec<String>,
}

/// The troop units stationed in each region while the battles are fought (the
/// attackers join a region's list when they hold it), so that a battle reads its
/// region's garrison and its retreat the holders next to it without a scan of
/// every unit. Units killed stay listed and are skipped.
#[derive(Resource, Debug, Default)]
pub struct Stations(EntityHashMap<Vec<Entity>>);

impl Stations {
    /// The living troop units stationed in `r`.
    fn at(&self, world: &World, r: Entity) -> Vec<Entity> {
        self.0
            .get(&r)
            .map_or_else(Vec::new, |v| v.iter().copied().filter(|&t| world.get::<Troop>(t).is_some()).collect())
    }
    /// Who holds `r`.
    fn holder(&self, world: &World, r: Entity) -> Option<Entity> {
        self.0.get(&r)?.iter().find_map(|&t| world.get::<Troop>(t).and(world.get::<Owner>(t))).map(|o| o.0)
    }
    /// Troop unit `t` stationed in `to`, no longer in `from`.
    fn moved(&mut self, t: Entity, from: Option<Entity>, to: Entity) {
        if let Some(list) = from.and_then(|f| self.0.get_mut(&f)) {
            list.retain(|&x| x != t);
        }
        self.0.entry(to).or_default().push(t);
    }
}

/// The battles of this turn, in the order fought.
#[derive(Resource, Debug, Default)]
pub struct Battles(pub Vec<BattleRecord>);

/// REGION lines: the order stays; a rearguard is this turn's.
pub fn set_defenses(world: &mut World) {
    world.resource_mut::<Battles>().0.clear();
    world.resource_mut::<Rearguards>().0.clear();
    let defenses = world.resource::<TurnOrders>().defenses.clone();
    if defenses.is_empty() {
        return;
    }
    let rules = world.resource::<Rules>().0.clone();
    let held = holders(world);
    for d in defenses {
        let o = &d.order;
        let name = label(world, o.region);
        let result = (|| {
            if held.get(&o.region) != Some(&d.player) {
                return Err(format!("{name} is not yours"));
            }
            let order = &rules.combat.orders[o.order];
            if order.side == crate::systems::generals::data::OrderSide::Offensive || order.tag == rules.combat.flee {
                return Err(format!("{} is not a defensive order", order.name));
            }
            if !o.rearguard.is_empty() && order.tag != rules.combat.withdraw {
                return Err("a REARGUARD stays behind only when the region withdraws".to_string());
            }
            super::movement::troops_here(world, d.player, &o.rearguard, o.region)?;
            Ok(order.name.clone())
        })();
        match result {
            Ok(order) => {
                world.get_mut::<Region>(o.region).expect("a region").defense = o.order;
                if !o.rearguard.is_empty() {
                    world.resource_mut::<Rearguards>().0.insert(o.region, o.rearguard.clone());
                }
                world.resource_mut::<Journal>().note(d.player, Some(d.line), format!("{name} will {order}."));
            }
            Err(why) => world.resource_mut::<Journal>().refuse(d.player, d.line, why),
        }
    }
}

/// Ends the alliance of `a` and `b`, if any (ruling 11): both become neutral.
fn break_alliance(world: &mut World, a: Entity, b: Entity) -> bool {
    let allied = world
        .get::<Relations>(a)
        .is_some_and(|r| r.0.iter().any(|&(o, rel)| o == b && matches!(rel, Relation::Ally | Relation::SecretAlly)));
    if !allied {
        return false;
    }
    for (x, y) in [(a, b), (b, a)] {
        if let Some(mut r) = world.get_mut::<Relations>(x) {
            r.0.retain(|&(o, _)| o != y);
        }
    }
    true
}

/// Every ATTACK of the turn: the troops march, the battles are asked for.
pub fn declare_attacks(world: &mut World) {
    let rules = world.resource::<Rules>().0.clone();
    let attacks: Vec<_> = world
        .resource::<TurnOrders>()
        .actions
        .iter()
        .filter(|a| matches!(a.order.1, Act::Attack { .. }))
        .cloned()
        .collect();
    if attacks.is_empty() {
        return;
    }
    let held = holders(world);
    for a in attacks {
        let (g, Act::Attack { region, troops, order }) = &a.order else { continue };
        let who = label(world, *g);
        let result = (|| {
            let from = world.get::<At>(*g).ok_or(format!("{who} is dead"))?.0;
            let target = label(world, *region);
            if !world.get::<Adjacent>(from).is_some_and(|x| x.0.contains(region)) {
                return Err(format!("{target} is not next to {}", label(world, from)));
            }
            if held.get(region) == Some(&a.player) {
                return Err(format!("{target} is yours: MOVE there"));
            }
            if rules.combat.orders[*order].side == crate::systems::generals::data::OrderSide::Defensive {
                return Err(format!("{} is not an offensive order", rules.combat.orders[*order].name));
            }
            super::movement::troops_here(world, a.player, troops, from)?;
            Ok(from)
        })();
        let from = match result {
            Ok(f) => f,
            Err(why) => {
                world.resource_mut::<Journal>().refuse(a.player, a.line, why);
                continue;
            }
        };
        for &t in troops {
            world.entity_mut(t).insert((At(*region), Attacking));
        }
        world.entity_mut(*g).insert(At(*region));
        let defender = held.get(region).copied();
        if let Some(d) = defender
            && break_alliance(world, a.player, d)
        {
            let (pa, pd) = (label(world, a.player), label(world, d));
            let mut j = world.resource_mut::<Journal>();
            j.note(a.player, Some(a.line), format!("Your attack broke your alliance with {pd}: you are neutral now."));
            j.note(d, None, format!("{pa} attacked you and broke your alliance: you are neutral now."));
        }
        let deed = format!("attacked {}", label(world, *region));
        world.resource_mut::<Journal>().deed(*g, deed);
        let cause = Attack { player: a.player, line: a.line, troops: troops.clone(), order: *order, origin: from };
        let request = Request { place: *region, attacker: *g, target: defender.unwrap_or(*region), cause };
        world.resource_mut::<Requests<Attack>>().ask(request);
    }
}

/// Fights the battles asked for.
pub fn fight_battles(world: &mut World) {
    if world.resource::<Requests<Attack>>().pending().is_empty() {
        return;
    }
    let stations = Stations(garrisons(world));
    world.insert_resource(stations);
    framework::run::<GeneralsBattles>(world);
    world.remove_resource::<Stations>();
    // Troops whose battle was not fought hold where they are.
    let marching: Vec<Entity> = world.query_filtered::<Entity, With<Attacking>>().iter(world).collect();
    for t in marching {
        world.entity_mut(t).remove::<Attacking>();
    }
}

/// A battle mustered.
pub struct Mustered {
    place: Entity,
    terrain: String,
    general: Entity,
    attack: Attack,
    armies: [Army; 2],
    rules: Arc<RuleSet>,
}

/// The generals' battles, for the core's framework.
pub struct GeneralsBattles;

/// The army of `player` with `units`, led by `generals`.
fn army(
    world: &World,
    rules: &RuleSet,
    (player, generals, units): (Entity, Vec<Entity>, &[Entity]),
    order: usize,
    rearguard: &[Entity],
    prepared: bool,
) -> Army {
    let gs: Vec<&General> = generals.iter().filter_map(|&g| world.get::<General>(g)).collect();
    let pick = |f: fn(&SkillEffect) -> Option<u32>| best(rules, gs.iter().copied(), f);
    let mut order_bonus: Vec<(usize, u32)> = Vec::new();
    for g in &gs {
        for &(k, l) in &g.skills {
            if let SkillEffect::Order(tag, v) = &rules.skills[k].effect
                && let Some(o) = rules.combat.orders.iter().position(|x| &x.tag == tag)
            {
                order_bonus.push((o, l.saturating_mul(*v)));
            }
        }
    }
    let mut fighters: Vec<Fighter> = units
        .iter()
        .filter_map(|&t| {
            let x = world.get::<Troop>(t)?;
            Some(Fighter {
                troop: t,
                id: world.get::<Id>(t).map(|i| i.0.clone()).unwrap_or_default(),
                kind: x.kind,
                men: x.men,
                veteran: x.veteran,
                reserve: x.reserve,
                rearguard: rearguard.contains(&t),
                champion: 0,
            })
        })
        .collect();
    for g in &gs {
        let (l, v) = level(rules, g, |e| match e {
            SkillEffect::Champion(v) => Some(*v),
            _ => None,
        });
        if let Some(f) = fighters.iter_mut().find(|f| Some(f.troop) == g.champion) {
            f.champion = f.champion.max(l.saturating_mul(v));
        }
    }
    Army {
        player,
        generals,
        fighters,
        order,
        casualties: pick(|e| if let SkillEffect::Casualties(v) = e { Some(*v) } else { None }),
        healing: pick(|e| if let SkillEffect::Healing(v) = e { Some(*v) } else { None }),
        morale: pick(|e| if let SkillEffect::Morale(v) = e { Some(*v) } else { None }),
        sneaky: pick(|e| if let SkillEffect::Sneaky(v) = e { Some(*v) } else { None }),
        defense: pick(|e| if let SkillEffect::Defense(v) = e { Some(*v) } else { None }),
        order_bonus,
        prepared,
    }
}

/// The generals of `player` in `region`, in general order.
fn generals_at(world: &World, player: Entity, region: Entity) -> Vec<Entity> {
    world
        .resource::<Directory>()
        .generals
        .iter()
        .copied()
        .filter(|&g| {
            world.get::<At>(g).is_some_and(|a| a.0 == region) && world.get::<Owner>(g).is_some_and(|o| o.0 == player)
        })
        .collect()
}

/// Where `player`'s army beaten at `place` goes (ruling 10): an adjacent region it
/// holds, else one nobody holds, `prefer` first in each; `None`: nowhere.
fn retreat_to(world: &World, player: Entity, place: Entity, prefer: Option<Entity>) -> Option<Entity> {
    let stations = world.resource::<Stations>();
    let mut near: Vec<Entity> = world.get::<Adjacent>(place).map_or_else(Vec::new, |a| a.0.clone());
    if let Some(p) = prefer
        && let Some(i) = near.iter().position(|&r| r == p)
    {
        near[..=i].rotate_right(1);
    }
    let held: Vec<Option<Entity>> = near.iter().map(|&r| stations.holder(world, r)).collect();
    let own = near.iter().zip(&held).find(|x| *x.1 == Some(player));
    own.or_else(|| near.iter().zip(&held).find(|x| x.1.is_none())).map(|x| *x.0)
}

/// Moves troop units to `to`: where they are, and in the stations.
fn relocate(world: &mut World, troops: &[Entity], to: Entity) {
    let mut stations = world.remove_resource::<Stations>().expect("battles have their stations");
    for &t in troops {
        let from = world.get::<At>(t).map(|a| a.0);
        let marching = world.get::<Attacking>(t).is_some();
        stations.moved(t, if marching { None } else { from }, to);
        world.entity_mut(t).insert(At(to)).remove::<Attacking>();
    }
    world.insert_resource(stations);
}

/// Marches the attackers in without a fight.
fn march_in(world: &mut World, request: &Request<Attack>, why: &str) {
    let marching: Vec<Entity> =
        request.cause.troops.iter().copied().filter(|&t| world.get::<Attacking>(t).is_some()).collect();
    relocate(world, &marching, request.place);
    let text = format!("{} marched into {}{why}.", label(world, request.attacker), label(world, request.place));
    world.resource_mut::<Journal>().note(request.cause.player, Some(request.cause.line), text);
}

impl Resolver for GeneralsBattles {
    type Cause = Attack;
    type Muster = Mustered;
    type Outcome = Outcome;

    fn place_order(world: &World, place: Entity) -> u64 {
        world.get::<Seq>(place).map_or(u64::MAX, |s| u64::from(s.0))
    }

    fn muster(world: &mut World, request: &Request<Attack>) -> Option<(Mustered, [u8; 32])> {
        let a = &request.cause;
        let place = request.place;
        let troops: Vec<Entity> = a
            .troops
            .iter()
            .copied()
            .filter(|&t| world.get::<Attacking>(t).is_some() && world.get::<At>(t).is_some_and(|x| x.0 == place))
            .collect();
        if troops.is_empty() || world.get::<General>(request.attacker).is_none() {
            return None;
        }
        let garrison: Vec<Entity> = world.resource::<Stations>().at(world, place);
        let Some(defender) = garrison.first().and_then(|&t| world.get::<Owner>(t)).map(|o| o.0) else {
            march_in(world, request, ", which nobody held");
            return None;
        };
        if defender == a.player {
            march_in(world, request, " to join your troops there");
            return None;
        }
        let rules = world.resource::<Rules>().0.clone();
        let defenders_generals = generals_at(world, defender, place);
        let prepared = world.get::<PreparedBy>(place).is_some_and(|p| defenders_generals.contains(&p.0));
        let region = world.get::<Region>(place).expect("a region");
        let (defense, terrain) = (region.defense, rules.terrains[region.terrain].tag.clone());
        let rearguard = world.resource::<Rearguards>().0.get(&place).cloned().unwrap_or_default();
        let armies = [
            army(world, &rules, (a.player, vec![request.attacker], &troops), a.order, &[], false),
            army(world, &rules, (defender, defenders_generals, &garrison), defense, &rearguard, prepared),
        ];
        let seed = world.resource::<GameInfo>().0.seed;
        let turn = world.resource::<Clock>().turn;
        let key = format!("{}>{}", label(world, place), label(world, request.attacker));
        let stream = stream_seed(seed, turn, "battle", key_of(&key));
        let m = Mustered { place, terrain, general: request.attacker, attack: a.clone(), armies, rules };
        Some((m, stream))
    }

    fn fight(m: &Mustered, rng: &mut ChaCha8Rng) -> Outcome {
        fight::fight(&m.rules, &m.terrain, &m.armies, rng)
    }

    fn apply(world: &mut World, m: Mustered, o: Outcome, rng: &mut ChaCha8Rng) {
        let rules = m.rules.clone();
        let c = &rules.combat;
        let mut sides: Vec<SideRecord> = Vec::new();
        let mut killed_pct = [0.0f64; 2];
        for (s, army) in m.armies.iter().enumerate() {
            let mut units = Vec::new();
            for (i, f) in army.fighters.iter().enumerate() {
                let left = o.men[s][i];
                units.push(UnitRecord {
                    id: f.id.clone(),
                    kind: f.kind,
                    men: f.men,
                    lost: f.men - left,
                    fled: o.fled[s][i],
                    veteran: false,
                });
                if left == 0 {
                    world.despawn(f.troop);
                } else {
                    world.get_mut::<Troop>(f.troop).expect("a troop unit").men = left;
                }
            }
            let start: u32 = army.fighters.iter().map(|f| f.men).sum();
            let lost: u32 = units.iter().map(|u| u.lost).sum();
            killed_pct[s] = f64::from(lost) * 100.0 / f64::from(start.max(1));
            sides.push(SideRecord {
                player: army.player,
                generals: army.generals.iter().map(|&g| label(world, g)).collect(),
                survivors: Vec::new(),
                orders: (army.order, o.orders[s]),
                units,
                generals_killed: Vec::new(),
                retreat: None,
                destroyed: false,
            });
        }
        // Generals' deaths (ruling 13), then veterans (ruling 8).
        for (s, side) in sides.iter_mut().enumerate() {
            for &g in &m.armies[s].generals {
                let Some(general) = world.get::<General>(g) else { continue };
                let (l, v) = level(&rules, general, |e| match e {
                    SkillEffect::Undying(v) => Some(*v),
                    _ => None,
                });
                let chance = f64::from(c.general_death_percent) * killed_pct[s] / 100.0
                    * (100.0 - f64::from(l.saturating_mul(v).min(100)))
                    / 100.0;
                if rng.random::<f64>() * 100.0 < chance {
                    side.generals_killed.push(label(world, g));
                    kill_general(world, g);
                } else {
                    side.survivors.push(g);
                }
            }
            let chance = if s == o.winner { c.veteran_winner_percent } else { c.veteran_loser_percent };
            for (i, f) in m.armies[s].fighters.iter().enumerate() {
                if o.men[s][i] > 0 && rng.random_range(0..100) < chance {
                    world.get_mut::<Troop>(f.troop).expect("a survivor").veteran += 1;
                    side.units[i].veteran = true;
                }
            }
        }
        // The winner holds the field; the loser retreats (ruling 10).
        let loser = 1 - o.winner;
        if o.winner == 0 {
            let held: Vec<Entity> =
                m.attack.troops.iter().copied().filter(|&t| world.get::<Attacking>(t).is_some()).collect();
            relocate(world, &held, m.place);
        }
        let alive = |world: &World, s: usize, only: &dyn Fn(usize) -> bool| -> Vec<Entity> {
            (0..m.armies[s].fighters.len())
                .filter(|&i| only(i) && o.men[s][i] > 0)
                .map(|i| m.armies[s].fighters[i].troop)
                .filter(|&t| world.get::<Troop>(t).is_some())
                .collect()
        };
        let prefer = (loser == 0).then_some(m.attack.origin);
        let going = alive(world, loser, &|_| true);
        // Nobody left to go: no retreat (and nothing destroyed).
        let nobody = going.is_empty() && sides[loser].survivors.is_empty();
        let dest = if nobody { None } else { retreat_to(world, m.armies[loser].player, m.place, prefer) };
        match dest {
            None if nobody => {}
            Some(d) => {
                relocate(world, &going, d);
                for &g in &sides[loser].survivors {
                    world.entity_mut(g).insert(At(d));
                }
            }
            None => {
                for &t in &going {
                    world.despawn(t);
                }
                for u in sides[loser].units.iter_mut() {
                    u.lost = u.men;
                }
                for g in std::mem::take(&mut sides[loser].survivors) {
                    sides[loser].generals_killed.push(label(world, g));
                    kill_general(world, g);
                }
                sides[loser].destroyed = true;
            }
        }
        sides[loser].retreat = dest;
        // A rearguard that held lets the rest of a winning defender get away too.
        if o.winner == 1 && o.escaped.contains(&true) {
            let rest = alive(world, 1, &|i| o.escaped[i]);
            if let Some(d) = retreat_to(world, m.armies[1].player, m.place, None) {
                relocate(world, &rest, d);
            }
        }
        if world.get::<General>(m.general).is_some() && o.winner == 0 {
            world.entity_mut(m.general).insert(At(m.place));
        }
        let [attacker, defender]: [SideRecord; 2] = sides.try_into().expect("two sides");
        let record = BattleRecord {
            region: m.place,
            line: m.attack.line,
            rounds: o.rounds,
            winner: o.winner,
            sides: [attacker, defender],
            log: o.log,
        };
        world.resource_mut::<Battles>().0.push(record);
    }
}

/// A general dies: he leaves the world, his name may be given again.
fn kill_general(world: &mut World, g: Entity) {
    let name = world.get::<Id>(g).map(|i| i.0.clone()).unwrap_or_default();
    world.resource_mut::<Directory>().forget_general(&name);
    world.despawn(g);
}
