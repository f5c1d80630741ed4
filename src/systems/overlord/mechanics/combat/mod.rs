//! Battle (§26 of the rules; CMB-*, GRD-CLASH, GRD-AMBUSH, CP-BATTLE, STK-BATTLE,
//! SKL-EXP-BATTLE, RACE-HERO-PROMOTE, TTL-DEATH, NPC-CRE; ORD-ATTACK, SET-TERSE).
//!
//! Battles are asked for during the day and fought in the day's `battle` step, by
//! the core's battle framework ([`crate::core::battle`]) with Overlord's resolver:
//!
//! * **triggers** ([`Cause`]): ATTACK ([`attack`]), a faction holding another Enemy
//!   on sight ([`enemies_on_sight`]), guards stopping a stack and a MARCH into a
//!   guarded place, two guarding factions where one holds the other Hostile (the
//!   guards mechanic asks for these), PILLAGE (with the land's mechanic);
//! * [`muster`]: the sides (CMB-SIDES, CMB-PULL, CMB-STACKPULL, CP-BATTLE) and each
//!   unit's place, settings, statistics and actions;
//! * [`field`]: the battle itself, a pure function of the muster and the battle's
//!   random stream (ambush, tactics, rounds, moves, actions, blows, morale, rout);
//! * [`after`]: healing, deaths, fanatics, loot, experience, heroes, titles and
//!   retreats, and the record every witness's report reads ([`record`]).
//!
//! Every number is the rule set's (`combat.ron`, `battle`); the choices where the
//! rules are vague are in `docs/combat.md`.

pub mod after;
pub mod field;
pub mod muster;
pub mod record;

#[cfg(test)]
mod field_tests;
#[cfg(test)]
mod tests;

use crate::core::battle::{self, Request, Requests, Resolver};
use crate::core::engine::plan::{Clock, PlanApp};
use crate::systems::overlord::data::{JourneyKind, StanceGrant};
use crate::systems::overlord::mechanics::diplomacy::{faction_shown, grants, unseen_stance};
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, label};
use crate::systems::overlord::mechanics::stacks::set_leader;
use crate::systems::overlord::mechanics::visibility;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::{Entry, Keyword, Order, Target};
use crate::systems::overlord::world::components::{At, Diplomacy, Journey, Owner, Seq, StructureOwner, stack_top};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_app::{App, Plugin};
use bevy_ecs::entity::{EntityHashMap, EntityHashSet};
use bevy_ecs::prelude::*;
use rand::rngs::ChaCha8Rng;

/// Why a battle is fought (CMB-TRIGGER).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// An ATTACK order.
    Attack,
    /// A faction attacks another it holds Enemy, on sight.
    Enemy,
    /// A guard attacks an arriving stack (MOV-GUARD); `journey` is the stack's,
    /// kept if it was a MARCH (CMB-MARCH).
    Guard {
        /// The arriving stack's journey.
        journey: Journey,
    },
    /// A stack MARCHes in and attacks a guard (MOV-GUARD, CMB-MARCH).
    March {
        /// The marching stack's journey.
        journey: Journey,
    },
    /// Two guarding factions, one holding the other Hostile (GRD-CLASH).
    Clash,
    /// Guards attack pillagers (GRD-PILLAGE).
    Pillage,
}

impl Cause {
    /// The word the record uses.
    pub fn word(self) -> &'static str {
        match self {
            Cause::Attack => "attack",
            Cause::Enemy => "enemy",
            Cause::Guard { .. } => "guard",
            Cause::March { .. } => "march",
            Cause::Clash => "clash",
            Cause::Pillage => "pillage",
        }
    }
    /// The journey of the marching stack, if a MARCH is part of the battle.
    pub fn march(self) -> Option<Journey> {
        match self {
            Cause::March { journey } => Some(journey),
            Cause::Guard { journey } if journey.kind == JourneyKind::March => Some(journey),
            _ => None,
        }
    }
}

/// Asks for a battle at `place`: `attacker` attacks `target`, for `cause`. It is
/// fought in the day's battle step.
pub fn ask(world: &mut World, place: Entity, attacker: Entity, target: Entity, cause: Cause) {
    world.resource_mut::<Requests<Cause>>().ask(Request { place, attacker, target, cause });
}

/// The battles of the month, in the order they were fought: the reports read them.
#[derive(Resource, Debug, Default)]
pub struct Battles(pub Vec<record::BattleRecord>);

/// Overlord's battles, for the core's framework.
pub struct OverlordBattles;

impl Resolver for OverlordBattles {
    type Cause = Cause;
    type Muster = muster::Muster;
    type Outcome = field::Fought;

    fn place_order(world: &World, place: Entity) -> u64 {
        world.get::<Seq>(place).map_or(u64::MAX, |s| u64::from(s.0))
    }
    fn muster(world: &mut World, request: &Request<Cause>) -> Option<(muster::Muster, [u8; 32])> {
        muster::muster(world, request)
    }
    fn fight(m: &muster::Muster, rng: &mut ChaCha8Rng) -> field::Fought {
        field::fight(&m.armies, rng)
    }
    fn apply(world: &mut World, m: muster::Muster, o: field::Fought, rng: &mut ChaCha8Rng) {
        after::apply(world, m, o, rng);
    }
}

/// Registers ATTACK, the battle step and the month's record of battles.
pub struct CombatPlugin;

impl Plugin for CombatPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Requests<Cause>>();
        app.init_resource::<Battles>();
        app.init_resource::<muster::Fought>();
        app.world_mut().resource_mut::<OrderHandlers>().set(module_path!(), Keyword::Attack, attack);
        app.add_step_system("month_start", start_month);
        app.add_step_system("battle", enemies_on_sight);
        app.add_step_system("battle", fight_battles);
    }
}

/// Month start: last month's battles are forgotten.
pub fn start_month(mut battles: ResMut<Battles>, mut fought: ResMut<muster::Fought>) {
    battles.0.clear();
    fought.clear();
}

/// Battle step: every battle asked for today.
pub fn fight_battles(world: &mut World) {
    if world.resource::<Requests<Cause>>().pending().is_empty() {
        return;
    }
    battle::run::<OverlordBattles>(world);
}

/// ORD-ATTACK: attacks a unit, a unit of a faction, or the owner of a structure, once
/// the target is here. Inside a stack only the leader attacks: another member
/// leaves the stack first (STK-BATTLE).
fn attack(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Attack(target) = &entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let Some(at) = act.at(me) else { return Outcome::NotNow };
    let Some(mine) = act.faction_of(me) else { return Outcome::NotNow };
    let dir = act.world.resource::<Directory>();
    let victim = match target {
        Target::Unit(id) => {
            let Some(u) = dir.get(Kind::Unit, id) else {
                return Outcome::Invalid(format!("there is no unit {id}"));
            };
            if act.faction_of(u) == Some(mine) {
                return Outcome::Invalid(format!("{id} is a unit of your own faction"));
            }
            if !act.sees(u) {
                return Outcome::NotNow;
            }
            u
        }
        Target::Faction(id) => {
            let Some(f) = act.faction_named(id) else {
                return Outcome::Invalid(format!("there is no faction {id}"));
            };
            if f == mine {
                return Outcome::Invalid("a faction cannot attack itself".into());
            }
            match first_unit_of(act.world, f, at.location) {
                Some(u) => u,
                None => return Outcome::NotNow,
            }
        }
        Target::Structure(id) => {
            let Some(s) = dir.get(Kind::Structure, id) else {
                return Outcome::Invalid(format!("there is no structure {id}"));
            };
            if act.world.get::<StructureOwner>(s).and_then(|o| o.0) == Some(mine) {
                return Outcome::Invalid(format!("{id} is your own faction's structure"));
            }
            let here = act.world.get::<crate::systems::overlord::world::components::StructureAt>(s).map(|a| a.0);
            if here != Some(at.location) {
                return Outcome::NotNow;
            }
            match crate::systems::overlord::mechanics::structures::owner_unit(act.world, s) {
                Some(u) if act.faction_of(u) != Some(mine) => u,
                _ => return Outcome::NotNow,
            }
        }
        Target::Location(id) | Target::Construction(id) => {
            return Outcome::Invalid(format!("{id} is not a unit, faction or structure"));
        }
    };
    if act.leader_of(me).is_some() {
        set_leader(act.world, me, None);
        act.log("Leaves the stack to attack.");
    }
    let name = act.name(victim);
    act.log(format!("Attacks {name}."));
    ask(act.world, at.location, me, victim, Cause::Attack);
    Outcome::Ran(Progress::Done)
}

/// The first unit of faction `f` at `place` (report order), not travelling. Reads
/// the units there, not every unit.
fn first_unit_of(world: &World, f: Entity, place: Entity) -> Option<Entity> {
    let mine = |r: &bevy_ecs::world::EntityRef| r.get::<Owner>().is_some_and(|o| o.0 == f) && !r.contains::<Journey>();
    crate::systems::overlord::world::components::occupants(world, place)
        .iter()
        .filter_map(|&u| world.get_entity(u).ok().filter(mine).and_then(|r| Some((r.get::<Seq>()?.0, u))))
        .min()
        .map(|x| x.1)
}

/// CMB-TRIGGER, DIP-ENEMY: where a faction that holds another Enemy has units, and
/// units of that faction are there too, it attacks them (its first unit there
/// attacks theirs, in report order), once a day per place and pair. Where both hold
/// each other Enemy, the faction whose units came last attacks (here: whose first
/// unit comes later in report order; docs/combat.md).
pub fn enemies_on_sight(world: &mut World) {
    let dir = world.resource::<Directory>();
    let factions = dir.factions.clone();
    let mut aggressive: EntityHashSet = EntityHashSet::default();
    {
        let catalog = world.resource::<crate::systems::overlord::world::Catalog>();
        for &f in &factions {
            let Some(d) = world.get::<Diplomacy>(f) else { continue };
            let enemy = |s: Option<crate::core::data::stances::StanceId>| {
                s.is_some_and(|s| catalog.stances.grants(s, StanceGrant::AttackOnSight))
            };
            if enemy(d.default) || d.toward.iter().any(|x| enemy(Some(x.1))) {
                aggressive.insert(f);
            }
        }
    }
    if aggressive.is_empty() {
        return;
    }
    // The places where an aggressive faction stands (marked by their entity's
    // index): one pass over the units' owners; then who stands there, read from
    // those places' occupants, not gathered for every unit of the world.
    let mut fierce: Vec<bool> = Vec::new();
    for f in &aggressive {
        let i = f.index_u32() as usize;
        if i >= fierce.len() {
            fierce.resize(i + 1, false);
        }
        fierce[i] = true;
    }
    let mut q = world.query_filtered::<(&Owner, &At), Without<Journey>>();
    let mut hot: Vec<bool> = Vec::new();
    let mut places: Vec<(u32, Entity)> = Vec::new();
    for (o, at) in q.iter(world) {
        // By entity index: a lookup per unit costs no hashing.
        if !fierce.get(o.0.index_u32() as usize).copied().unwrap_or(false) {
            continue;
        }
        let i = at.location.index_u32() as usize;
        if i >= hot.len() {
            hot.resize(i + 1, false);
        }
        if !hot[i] {
            hot[i] = true;
            places.push((world.get::<Seq>(at.location).map_or(u32::MAX, |s| s.0), at.location));
        }
    }
    places.sort_unstable();
    for (_, place) in places {
        let mut units: Vec<(u32, Entity, Entity)> =
            crate::systems::overlord::world::components::occupants(world, place)
                .iter()
                .filter_map(|&u| {
                    let r = world.get_entity(u).ok().filter(|r| !r.contains::<Journey>())?;
                    Some((r.get::<Seq>()?.0, u, r.get::<Owner>()?.0))
                })
                .collect();
        // Where one faction stands alone there is no one to attack.
        if units.iter().all(|x| x.2 == units[0].2) {
            continue;
        }
        units.sort_unstable();
        // Each faction's first unit here, in report order, its best observation, and
        // its units that show their faction and that do not (DIP-UNSEEN: those are
        // judged by the default stance), by how well hidden they are (VIS-SEE).
        let day = world.resource::<Clock>().tick;
        let mut firsts: Vec<First> = Vec::new();
        let mut first_of: EntityHashMap<usize> = EntityHashMap::default();
        for &(_, u, f) in &units {
            let shown = faction_shown(world, u);
            let facts = visibility::facts(world, u, day, false);
            let stealth = if facts.shows_itself { i32::MIN } else { facts.stealth };
            let obs = visibility::observation(world, u);
            let k = match first_of.get(&f) {
                Some(&k) => k,
                None => {
                    first_of.insert(f, firsts.len());
                    firsts.push(First {
                        faction: f,
                        unit: u,
                        observation: obs,
                        shown: Hiding::default(),
                        hidden: Hiding::default(),
                    });
                    firsts.len() - 1
                }
            };
            let x = &mut firsts[k];
            x.observation = x.observation.max(obs);
            if shown { &mut x.shown } else { &mut x.hidden }.push(u, stealth);
        }
        // NPC-CRE: the stacks each sparing faction leaves alone here.
        let spared: Vec<(Entity, EntityHashSet)> = firsts
            .iter()
            .filter(|x| aggressive.contains(&x.faction))
            .filter_map(|x| Some((x.faction, spared_stacks(world, x.faction, &units)?)))
            .collect();
        let spares = |f: Entity| spared.iter().find(|x| x.0 == f).map(|x| &x.1);
        for i in 0..firsts.len() {
            for k in i + 1..firsts.len() {
                let (a, b) = (&firsts[i], &firsts[k]);
                let a_on_b = target_on_sight(world, &aggressive, a.faction, a.observation, b, spares(a.faction));
                let b_on_a = target_on_sight(world, &aggressive, b.faction, b.observation, a, spares(b.faction));
                // The later comer (the later in report order) attacks when both would.
                let (attacker, target) = match (a_on_b, b_on_a) {
                    (_, Some(t)) => (b.unit, t),
                    (Some(t), None) => (a.unit, t),
                    _ => continue,
                };
                let text = format!("Attacks {} on sight: its faction is an enemy.", label(world, target));
                if let Some(mut e) = world.get_mut::<crate::systems::overlord::world::components::Events>(attacker) {
                    e.push(day, text);
                }
                ask(world, place, attacker, target, Cause::Enemy);
            }
        }
    }
}

/// The stacks (their tops) among `units` that faction `f` does not attack on sight:
/// those with a unit that knows one of the skills of its `spared_by` (NPC-CRE).
/// `None` when it spares no one.
fn spared_stacks(world: &World, f: Entity, units: &[(u32, Entity, Entity)]) -> Option<EntityHashSet> {
    let catalog = world.resource::<crate::systems::overlord::world::Catalog>();
    let faction = world.get::<crate::systems::overlord::world::components::Faction>(f)?;
    let skills: Vec<_> = faction.spared_by().iter().filter_map(|t| catalog.skill(t)).collect();
    if skills.is_empty() {
        return None;
    }
    let tops = units
        .iter()
        .filter(|x| {
            world
                .get::<crate::systems::overlord::world::components::Skills>(x.1)
                .is_some_and(|k| skills.iter().any(|&s| k.level(catalog, s) > 0))
        })
        .map(|x| stack_top(world, x.1))
        .collect();
    Some(tops)
}

/// The unit of `b`'s faction that faction `a`, looking with `observation`, attacks
/// on sight: the first it sees (VIS-SEE) and holds Enemy, by its stance when the
/// unit shows its faction, by [`unseen_stance`] when not (DIP-UNSEEN), and whose
/// stack `a` does not spare (`spared`, NPC-CRE).
fn target_on_sight(
    world: &World,
    aggressive: &EntityHashSet,
    a: Entity,
    observation: i32,
    b: &First,
    spared: Option<&EntityHashSet>,
) -> Option<Entity> {
    if !aggressive.contains(&a) {
        return None;
    }
    let table = &world.resource::<crate::systems::overlord::world::Catalog>().stances;
    let find = |h: &Hiding| match spared {
        None => h.first_seen(observation),
        Some(s) => h.first_seen_where(observation, |u| !s.contains(&stack_top(world, u))),
    };
    let seen = find(&b.shown).filter(|_| grants(world, a, b.faction, StanceGrant::AttackOnSight));
    let unseen = find(&b.hidden)
        .filter(|_| unseen_stance(world, a, b.faction).is_some_and(|s| table.grants(s, StanceGrant::AttackOnSight)));
    let seq = |u: Entity| world.get::<Seq>(u).map_or(u32::MAX, |s| s.0);
    [seen, unseen].into_iter().flatten().min_by_key(|&u| seq(u))
}

/// A faction's units at a place (enemies on sight): its first, its best
/// observation, its units by whether they show their faction.
struct First {
    faction: Entity,
    unit: Entity,
    observation: i32,
    shown: Hiding,
    hidden: Hiding,
}

/// Units in report order with the lowest stealth so far ([`i32::MIN`] for a unit
/// that shows itself), so that the first one an observation sees is found by a
/// search, whatever the number of units.
#[derive(Default)]
struct Hiding {
    units: Vec<Entity>,
    stealth: Vec<i32>,
    lowest: Vec<i32>,
}

impl Hiding {
    fn push(&mut self, u: Entity, stealth: i32) {
        let low = self.lowest.last().map_or(stealth, |&l| l.min(stealth));
        self.units.push(u);
        self.stealth.push(stealth);
        self.lowest.push(low);
    }

    /// The first unit whose stealth `observation` reaches, or that shows itself.
    fn first_seen(&self, observation: i32) -> Option<Entity> {
        self.units.get(self.lowest.partition_point(|&l| l > observation)).copied()
    }

    /// The first unit `observation` sees among those `keep` accepts (a search from
    /// the first seen; only a faction that spares some stacks asks).
    fn first_seen_where(&self, observation: i32, keep: impl Fn(Entity) -> bool) -> Option<Entity> {
        let from = self.lowest.partition_point(|&l| l > observation);
        (from..self.units.len()).find(|&i| self.stealth[i] <= observation && keep(self.units[i])).map(|i| self.units[i])
    }
}

/// The month's battles as the newspaper tells them: where, which day, and how it
/// ended, never who fought (docs/combat.md).
pub fn headlines(world: &World) -> Vec<String> {
    let Some(b) = world.get_resource::<Battles>() else { return Vec::new() };
    b.0.iter()
        .map(|b| {
            let result = match b.winner {
                Some(0) => "the attackers won",
                Some(_) => "the defenders won",
                None => "neither side won",
            };
            format!("Day {}: a battle at {}; {result}.", b.day, b.location_name)
        })
        .collect()
}
