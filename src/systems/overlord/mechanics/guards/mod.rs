//! Guards (§27; GRD-REQ, GRD-SELF, MOV-AUTORETREAT,
//! MOV-GUARD, MOV-FLYPAST, MOV-GUARDDIR): GUARD and PATROL, and what a stack
//! arriving at a guarded place meets.
//!
//! A unit is on guard on each day its GUARD (or PATROL) runs: `@GUARD` all month,
//! `5 GUARD` for five days. It needs the rule set's `guard_skill` and its faction
//! needs a land title or the Overlord's whose range, in walking days, covers the
//! place (an Overlord's title with no range covers every place); units of non-player factions need neither (rulings 12). A stack
//! leader's GUARD puts only the leader on guard (GRD-SELF).
//!
//! A stack arriving where units are on guard meets each guard in turn (in report
//! order). A guard stops only what its faction sees arrive (VIS-GUARD: the units of
//! the stack that show themselves or whose stealth the best observation of its
//! faction's units there reaches; the target is the earliest-added of those), and
//! only stacks travelling a way it covers: ways marked
//! `evades_guards` (flying, sailing) only by guards that could travel that way
//! themselves. The guard's faction's stance toward the factions of the stack's
//! units decides: toward an Enemy the guard attacks (a battle request, MOV-GUARD;
//! the earliest-added unit of the stack is the target); toward a Hostile unit a
//! MOVE turns back (MOV-AUTORETREAT) and a MARCH attacks the guard. The stack
//! enters in both battle cases, and the battle is fought at the end of the day
//! ([`crate::systems::overlord::mechanics::combat`]). A journey already turned back
//! is never turned back again.
//!
//! GRD-CLASH: in each day's Battle phase, where guards of two factions stand and one
//! faction holds the other Hostile or Enemy, its first guard attacks the other's
//! first guard (places in report order; once a day per place and pair).

use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::{JourneyKind, StanceGrant, TitleKind};
use crate::systems::overlord::mechanics::combat::{Cause, ask};
use crate::systems::overlord::mechanics::diplomacy::{self, grants};
use crate::systems::overlord::mechanics::movement::routes::Routes;
use crate::systems::overlord::mechanics::movement::{Arrival, ArrivalGate, Travel};
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, label};
use crate::systems::overlord::mechanics::stats::load_of;
use crate::systems::overlord::mechanics::titles;
use crate::systems::overlord::mechanics::visibility;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::Entry;
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::world::components::{
    At, Events, FactionRole, Journey, OnGuard, Owner, Seq, Skills, Titles,
};
use crate::systems::overlord::world::resources::{Directory, FactionChanges, Kind};
use crate::systems::overlord::world::{Catalog, SkillId};
use bevy_app::{App, Plugin};
use bevy_ecs::entity::{EntityHashMap, EntityHashSet};
use bevy_ecs::prelude::*;

/// The land titles each faction holds this month, `(location, title index)`, and
/// the places found covered or not so far this month, by faction and place.
#[derive(Resource, Debug, Default)]
pub struct TitleIndex {
    titles: EntityHashMap<Vec<(Entity, usize)>>,
    known: crate::core::data::FastMap<(Entity, Entity), bool>,
    /// The titles' changes counted when the index was built ([`titles::changes`]).
    changes: u64,
}

/// The rule set's `guard_skill` (GRD-REQ) as the catalogue's ids, looked up by
/// its tag the first time a unit guards (the resource is absent until then): a
/// guard's skill is checked on every day it stands guard.
#[derive(Resource, Debug, Clone, Copy)]
enum GuardSkill {
    /// Guarding needs no skill.
    Free,
    /// Guarding needs this skill at this level or better.
    Needs(SkillId, u32),
    /// The rule set names a skill it does not have: no unit has it.
    Unknown,
}

impl GuardSkill {
    /// The requirement of `catalog`, looked up once for the world.
    fn of(world: &mut World, catalog: &Catalog) -> GuardSkill {
        if let Some(&known) = world.get_resource::<GuardSkill>() {
            return known;
        }
        let read = match &catalog.rules.info.parameters.guard_skill {
            None => GuardSkill::Free,
            Some(req) => catalog.skill(&req.skill).map_or(GuardSkill::Unknown, |s| GuardSkill::Needs(s, req.level)),
        };
        world.insert_resource(read);
        read
    }
}

/// The units on guard on `day`, by place, in report order; built when first read
/// on a day, and again if a unit has changed faction since.
#[derive(Resource, Default)]
struct GuardPosts {
    /// The query that finds them, kept from day to day.
    query: Option<QueryState<Posted, Without<Journey>>>,
    /// Turn and day.
    day: (u32, u32),
    /// The units' changes of faction counted when the posts were built.
    changes: FactionChanges,
    /// Every unit on guard, place after place, each place's in report order.
    guards: Vec<Entity>,
    /// Each place's guards: where they start in `guards`, and how many.
    by_place: EntityHashMap<(u32, u32)>,
    /// The places where guards of more than one faction stand, in report order:
    /// the only places where guards may clash (GRD-CLASH).
    contested: Vec<Entity>,
}

/// A unit that may be on guard, as the day's posts read it.
type Posted = (Entity, &'static OnGuard, &'static At, &'static Seq, Option<&'static Owner>);

impl GuardPosts {
    /// The units on guard at `place`, in report order.
    fn at(&self, place: Entity) -> &[Entity] {
        self.by_place.get(&place).map_or(&[], |&(start, n)| &self.guards[start as usize..(start + n) as usize])
    }
}

/// Registers GUARD and PATROL, guards what arrives ([`ArrivalGate`]), indexes
/// titles each month and has hostile guards clash in the battle step.
pub struct GuardsPlugin;

impl Plugin for GuardsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<TitleIndex>();
        app.insert_resource(ArrivalGate(Some(at_arrival)));
        let mut h = app.world_mut().resource_mut::<OrderHandlers>();
        h.set(module_path!(), Keyword::Guard, guard);
        h.set(module_path!(), Keyword::Patrol, guard);
        app.add_step_system("month_start", index_titles);
        app.add_step_system("battle", guard_clashes);
    }
}

/// Month start: which faction holds which land title.
pub fn index_titles(world: &mut World) {
    let dir = world.resource::<Directory>();
    let mut index: EntityHashMap<Vec<(Entity, usize)>> = EntityHashMap::default();
    for &l in &dir.locations {
        let Some(titles) = world.get::<Titles>(l) else { continue };
        for (ti, holder) in &titles.0 {
            let Some(holder) = holder.as_deref() else { continue };
            if let Some(f) = dir.get(Kind::Unit, holder).and_then(|u| world.get::<Owner>(u)) {
                index.entry(f.0).or_default().push((l, *ti));
            }
        }
    }
    let changes = titles::changes(world);
    world.insert_resource(TitleIndex { titles: index, known: Default::default(), changes });
}

/// Whether faction `f` holds a title covering `place` (GRD-REQ, rulings 5); the
/// answer is kept for the month.
fn covered(world: &mut World, f: Entity, place: Entity) -> bool {
    // A title that changed hands this month covers, or stops covering, at once.
    if world.resource::<TitleIndex>().changes != titles::changes(world) {
        index_titles(world);
    }
    if let Some(&k) = world.resource::<TitleIndex>().known.get(&(f, place)) {
        return k;
    }
    let k = find_cover(world, f, place);
    world.resource_mut::<TitleIndex>().known.insert((f, place), k);
    k
}

fn find_cover(world: &World, f: Entity, place: Entity) -> bool {
    let catalog = world.resource::<Catalog>();
    let Some(titles) = world.resource::<TitleIndex>().titles.get(&f) else { return false };
    let routes = world.resource::<Routes>();
    let tables = &world.resource::<Travel>().0;
    titles.iter().any(|&(at, ti)| {
        let t = &catalog.rules.titles[ti];
        // As the land's ownership reckons cover (docs/land.md): the Overlord's title
        // by its range too; with none, everywhere.
        match t.kind {
            TitleKind::Overlord if t.range == 0 => true,
            TitleKind::Guild => false,
            _ => routes.walking_days(catalog, tables, at, place).is_some_and(|d| d <= t.range),
        }
    })
}

/// ORD-GUARD, ORD-PATROL (GRD-REQ, GRD-SELF).
fn guard(act: &mut Act, _: &mut Entry) -> Outcome {
    let me = act.unit;
    let Some(at) = act.at(me) else { return Outcome::NotNow };
    let Some(f) = act.faction_of(me) else { return Outcome::NotNow };
    let npc = act.world.get::<FactionRole>(f).is_some_and(|x| x.npc);
    if !npc {
        let skilled = match GuardSkill::of(act.world, act.catalog) {
            GuardSkill::Free => true,
            GuardSkill::Needs(skill, level) => {
                act.world.get::<Skills>(me).is_some_and(|s| s.level(act.catalog, skill) >= level)
            }
            GuardSkill::Unknown => false,
        };
        if !skilled && let Some(req) = &act.catalog.rules.info.parameters.guard_skill {
            return Outcome::Invalid(format!("guarding needs level {} in {}", req.level, req.skill));
        }
        if !covered(act.world, f, at.location) {
            let here = act.name(at.location);
            return Outcome::Invalid(format!("guarding {here} needs a title of the faction whose range covers it"));
        }
    }
    let day = act.day;
    let mut unit = act.world.entity_mut(me);
    let before = match unit.get_mut::<OnGuard>() {
        Some(mut g) => Some(std::mem::replace(&mut g.0, day)),
        None => {
            unit.insert(OnGuard(day));
            None
        }
    };
    // Said once per stretch on guard, not every day.
    if before != Some(day.saturating_sub(1)) {
        let here = act.name(at.location);
        act.routine(format!("On guard at {here}."));
    }
    Outcome::Ran(Progress::Step)
}

/// Builds the day's guard posts: once a day, and again when a unit has changed
/// faction since ([`FactionChanges`]).
fn ensure_posts(world: &mut World, day: u32) {
    // A unit that changes faction may change which places are contested.
    let changes = world.get_resource::<FactionChanges>().copied().unwrap_or_default();
    let when = (world.resource::<Clock>().turn, day);
    if world.get_resource::<GuardPosts>().is_none_or(|p| p.day != when || p.changes != changes) {
        build_posts(world, when, changes);
    }
}

/// What `f` says of today's guard posts, built first if they are not yet
/// ([`ensure_posts`]): a harvest or a pillage asks every day, most often where
/// nobody guards, so posts already built are read in the look-up that finds
/// them up to date.
fn with_posts<R>(world: &mut World, f: impl FnOnce(&World, &GuardPosts) -> R) -> R {
    let changes = world.get_resource::<FactionChanges>().copied().unwrap_or_default();
    let when = {
        let c = world.resource::<Clock>();
        (c.turn, c.tick)
    };
    let fresh = |p: &&GuardPosts| p.day == when && p.changes == changes;
    {
        let world = &*world;
        if let Some(posts) = world.get_resource::<GuardPosts>().filter(fresh) {
            return f(world, posts);
        }
    }
    build_posts(world, when, changes);
    let world = &*world;
    f(world, world.resource::<GuardPosts>())
}

/// Builds the posts of day `when` (turn, day), as of `changes`.
fn build_posts(world: &mut World, when: (u32, u32), changes: FactionChanges) {
    let day = when.1;
    let old = world.remove_resource::<GuardPosts>().unwrap_or_default();
    let mut q = old.query.unwrap_or_else(|| world.query_filtered());
    // By place, then report order: the place's entity and the unit's position
    // in one key.
    let mut v: Vec<(u64, Entity, Entity, Option<Entity>)> = q
        .iter(world)
        .filter(|(_, g, _, _, _)| g.0 == day)
        .map(|(e, _, at, s, o)| {
            ((u64::from(at.location.index_u32()) << 32) | u64::from(s.0), at.location, e, o.map(|o| o.0))
        })
        .collect();
    v.sort_unstable_by_key(|x| x.0);
    let mut by_place: EntityHashMap<(u32, u32)> = EntityHashMap::default();
    by_place.reserve(v.len());
    let mut contested = Vec::new();
    let mut start = 0;
    for run in v.chunk_by(|a, b| a.1 == b.1) {
        by_place.insert(run[0].1, (start as u32, run.len() as u32));
        start += run.len();
        let mut owners = run.iter().filter_map(|x| x.3);
        if let Some(first) = owners.next()
            && owners.any(|f| f != first)
        {
            contested.push(run[0].1);
        }
    }
    contested.sort_by_cached_key(|&l| world.get::<Seq>(l).map_or(u32::MAX, |s| s.0));
    let guards = v.into_iter().map(|(_, _, e, _)| e).collect();
    world.insert_resource(GuardPosts { query: Some(q), day: when, changes, guards, by_place, contested });
}

/// The units on guard today at `place`, in report order.
fn guards_at(world: &mut World, place: Entity, day: u32) -> Vec<Entity> {
    ensure_posts(world, day);
    world.resource::<GuardPosts>().at(place).to_vec()
}

/// The first unit on guard today at `place` whose faction does not grant unit `u`
/// `what` (GRD-EFFECT: [`StanceGrant::Harvest`] for the land's resources; by
/// [`diplomacy::grants_unit`], DIP-UNSEEN). For full-day and later phases: guards
/// take their post in the immediate passes.
pub fn guard_against(world: &mut World, place: Entity, u: Entity, what: StanceGrant) -> Option<Entity> {
    with_posts(world, |world, posts| {
        let posts = posts.at(place);
        // Most places have no guard: the unit's faction is looked up only where one is.
        if posts.is_empty() {
            return None;
        }
        let f = world.get::<Owner>(u)?.0;
        // Most guards are the unit's own faction's: stances are looked up only for others.
        posts
            .iter()
            .copied()
            .find(|&g| world.get::<Owner>(g).is_some_and(|o| o.0 != f && !diplomacy::grants_unit(world, o.0, u, what)))
    })
}

/// Who bars unit `u` from the market and from recruiting at `place` today
/// (DIP-HOSTILE, MKT-STANCE, REC-STANCE, GRD-EFFECT, OWN-POLICY): the land's legal
/// owner or its occupier ([`diplomacy::authorities`]), or a unit on guard there, whose
/// faction's stance toward `u` ([`diplomacy::grants_unit`]) grants
/// [`StanceGrant::Embargo`]. The reason, for the report.
pub fn embargo(world: &mut World, place: Entity, u: Entity) -> Option<String> {
    if let Some((o, role)) = diplomacy::barring(world, place, u, StanceGrant::Embargo) {
        return Some(format!("{}, who {role}, bars this unit's faction", label(world, o)));
    }
    let day = world.resource::<Clock>().tick;
    ensure_posts(world, day);
    let f = world.get::<Owner>(u)?.0;
    let posts = world.resource::<GuardPosts>().at(place);
    let g = posts.iter().copied().find(|&g| {
        world.get::<Owner>(g).is_some_and(|o| o.0 != f && diplomacy::grants_unit(world, o.0, u, StanceGrant::Embargo))
    })?;
    Some(format!("{}, on guard here, bars this unit's faction", label(world, g)))
}

/// Whether guard `g` stops a stack travelling by `mode` (MOV-FLYPAST, MOV-GUARDDIR).
fn covers_way(world: &World, g: Entity, mode: usize) -> bool {
    let catalog = world.resource::<Catalog>();
    if !catalog.rules.movement.modes[mode].system.evades_guards {
        return true;
    }
    let (weight, capacity) = load_of(world, &[g]);
    let c = capacity.get(mode).copied().unwrap_or(0).saturating_mul(1000);
    c > 0 && c >= weight
}

/// What the stack `group` (its top unit first) meets on arriving by journey `j`.
pub fn at_arrival(world: &mut World, group: &[Entity], j: Journey) -> Arrival {
    let day = world.resource::<Clock>().tick;
    // DIP-HOSTILE, OWN-POLICY: the land's owner (or occupier) turns back a MOVE of
    // a stack it holds hostile, guarded or not; a MARCH enters.
    if j.kind == JourneyKind::Move {
        for &u in group {
            if let Some((o, role)) = diplomacy::barring(world, j.to, u, StanceGrant::Bar) {
                return Arrival::TurnBack(format!("{}, who {role}, holds this stack hostile", label(world, o)));
            }
        }
    }
    let guards = guards_at(world, j.to, day);
    if guards.is_empty() {
        return Arrival::Enter;
    }
    for g in guards {
        let Some(gf) = world.get::<Owner>(g).map(|o| o.0) else { continue };
        if group.iter().any(|&u| world.get::<Owner>(u).map(|o| o.0) == Some(gf)) {
            continue;
        }
        if !covers_way(world, g, j.mode) {
            continue;
        }
        // VIS-GUARD: the guard stops only what its faction sees arrive: the units of
        // the stack that show themselves or whose stealth the best observation of
        // its units here reaches. A stack it sees none of passes.
        let watch = visibility::best_observation(world, gf, j.to);
        let seen: Vec<Entity> = group
            .iter()
            .copied()
            .filter(|&u| {
                let x = visibility::facts(world, u, day, false);
                x.shows_itself || watch.is_some_and(|o| o >= x.stealth)
            })
            .collect();
        let Some(&target) = seen.first() else { continue };
        let holds = |what| seen.iter().any(|&u| diplomacy::grants_unit(world, gf, u, what));
        // The Enemy case first; the earliest-added unit seen is the target.
        if holds(StanceGrant::AttackOnSight) {
            tell(world, day, g, target, "on guard, attacks an enemy stack arriving");
            ask(world, j.to, g, target, Cause::Guard { journey: j });
            return Arrival::Enter;
        }
        if holds(StanceGrant::Bar) {
            match j.kind {
                JourneyKind::March => {
                    tell(world, day, group[0], g, "marches in and attacks the guard");
                    ask(world, j.to, group[0], g, Cause::March { journey: j });
                    return Arrival::Enter;
                }
                JourneyKind::Move => {
                    let name = label(world, g);
                    return Arrival::TurnBack(format!("{name}, on guard, holds this stack hostile"));
                }
                JourneyKind::Retreat => {}
            }
        }
    }
    Arrival::Enter
}

/// Battle phase (GRD-CLASH): guards of factions that hold each other Hostile fight.
pub fn guard_clashes(world: &mut World) {
    let day = world.resource::<Clock>().tick;
    // The day's posts (also used by arrivals), with the places they contest.
    ensure_posts(world, day);
    let places = world.resource::<GuardPosts>().contested.clone();
    for place in places {
        // Each faction's first guard here, in report order (a set of the
        // factions met, so that a crowded post is not quadratic in them).
        let mut firsts: Vec<(Entity, Entity)> = Vec::new();
        let mut met = EntityHashSet::default();
        for &g in world.resource::<GuardPosts>().at(place) {
            if let Some(f) = world.get::<Owner>(g).map(|o| o.0)
                && met.insert(f)
            {
                firsts.push((f, g));
            }
        }
        for i in 0..firsts.len() {
            for k in i + 1..firsts.len() {
                let ((fa, ga), (fb, gb)) = (firsts[i], firsts[k]);
                let holds = |a: Entity, b: Entity| grants(world, a, b, StanceGrant::Clash);
                let (attacker, defender) = if holds(fa, fb) {
                    (ga, gb)
                } else if holds(fb, fa) {
                    (gb, ga)
                } else {
                    continue;
                };
                tell(world, day, attacker, defender, "on guard, attacks a hostile guard");
                ask(world, place, attacker, defender, Cause::Clash);
            }
        }
    }
}

/// Tells both units why a battle starts.
fn tell(world: &mut World, day: u32, attacker: Entity, defender: Entity, why: &str) {
    let (a, d, at) = (label(world, attacker), label(world, defender), world.get::<At>(attacker).map(|x| x.location));
    let place = at.map(|l| label(world, l)).unwrap_or_default();
    let text = format!("Battle at {place}: {a} {why}, against {d}.");
    for u in [attacker, defender] {
        if let Some(mut e) = world.get_mut::<Events>(u) {
            e.push(day, text.clone());
        }
    }
}
