//! Who fights, on which side, with what (CMB-SIDES, CMB-PULL, CMB-STACKPULL,
//! CMB-REFUSE, CP-BATTLE, STK-BATTLE; rulings 8).
//!
//! 1. The attacker's faction attacks, the target's defends.
//! 2. Factions with a unit on guard here that day join the defenders if they grant
//!    the target's faction [`StanceGrant::Defend`] (at least Friendly).
//! 3. Factions present that grant [`StanceGrant::Aid`] (allies) to a faction of a side
//!    join that side, not recursively.
//! 4. A faction found on both sides withdraws, unless it is the attacker's or the
//!    target's.
//! 5. Every unit of a faction on a side joins, except units on AVOID, and units on
//!    DEFEND on the attacking side; the attacker and the target always fight. Each
//!    unit that joins brings its whole stack under the same exceptions, whatever the
//!    members' factions; a faction with units on both sides withdraws them all.
//! 6. A unit of a faction over its control points by M refuses with M × the rule
//!    set's chance, unless it is the unit attacked or the attacker (CP-BATTLE).
//!
//! Units travelling through the place, and factions present that do not fight,
//! watch: they get a partial report.

use super::Cause;
use super::field::{Action, Aim, Armies, Charm, Charming, Fighter, Move, Reach, Reserve, Special};
use crate::core::battle::{Request, Role};
use crate::core::engine::plan::Clock;
use crate::core::engine::rng;
use crate::systems::overlord::data::{
    CombatAction, CombatActionKind, CombatTactics, Grant, RaceKind, RuleSet, SkillFlag, StanceGrant, Stats, Summon,
};
use crate::systems::overlord::mechanics::diplomacy::{grants, grants_unit};
use crate::systems::overlord::mechanics::stats::{CapacityTables, compute};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, CombatOrders, Effects, Figures, Holding, Id, Inventory, Journey, OnGuard, OverControl, Owner, Race, Seq,
    Skills, Tactics, stack_top, substack,
};
use crate::systems::overlord::world::ids::{RaceId, SkillId};
use crate::systems::overlord::world::resources::Randomness;
use bevy_ecs::entity::{EntityHashMap, EntityHashSet};
use bevy_ecs::prelude::*;
use rand::RngExt;

/// The battles fought so far today at each place (each has its own random stream).
#[derive(Resource, Debug, Default)]
pub struct Fought {
    counts: EntityHashMap<((u32, u32), u32)>,
}

impl Fought {
    /// Forgets the counts.
    pub fn clear(&mut self) {
        self.counts.clear();
    }
}

/// Who is at `place` (report order): `(seq, unit, faction, travelling)`, read from
/// the units there, not from every unit. Units neither move nor change faction
/// while the day's battles are fought; an earlier battle's dead and retreating
/// are filtered out by the caller.
fn present_at(world: &World, place: Entity) -> Vec<(u32, Entity, Entity, bool)> {
    use crate::systems::overlord::world::components::occupants;
    let mut here: Vec<(u32, Entity, Entity, bool)> = occupants(world, place)
        .iter()
        .filter_map(|&u| {
            let r = world.get_entity(u).ok()?;
            Some((r.get::<Seq>()?.0, u, r.get::<Owner>()?.0, r.contains::<Journey>()))
        })
        .collect();
    here.sort_unstable();
    here
}

/// One battle, ready to be fought.
#[derive(Debug, Clone)]
pub struct Muster {
    /// Where.
    pub place: Entity,
    /// Day of the month.
    pub day: u32,
    /// Why.
    pub cause: Cause,
    /// The attacker and the target.
    pub attacker: Entity,
    /// The target.
    pub target: Entity,
    /// The armies, as the field reads them.
    pub armies: Armies,
    /// Per fighter (same order): the unit and its faction.
    pub units: Vec<(Entity, Entity)>,
    /// Per fighter: the skills its special actions train (`Special::trains`).
    pub trains: Vec<Vec<SkillId>>,
    /// Each side's factions, in the order they joined.
    pub sides: [Vec<Entity>; 2],
    /// Everyone who saw the battle.
    pub witnesses: Vec<(Entity, Role)>,
    /// Units that refused to fight (CP-BATTLE).
    pub refused: Vec<Entity>,
}

fn faction(world: &World, u: Entity) -> Option<Entity> {
    world.get::<Owner>(u).map(|o| o.0)
}

/// A unit that can fight at `place`: alive and there, not travelling.
fn here(world: &World, u: Entity, place: Entity) -> bool {
    world.get_entity(u).is_ok_and(|r| {
        r.get::<At>().is_some_and(|a| a.location == place)
            && !r.contains::<Journey>()
            && r.get::<Figures>().is_some_and(|f| f.0 > 0)
    })
}

/// The stance of TACTIC (CMB-PULL) as the value of `combat.ron`'s stances: 1 avoid,
/// 2 defend, 3 fight.
fn battle_stance(world: &World, u: Entity) -> u32 {
    let c = world.resource::<Catalog>();
    let rules = &c.rules.combat;
    let tag = world
        .get::<Tactics>(u)
        .and_then(|t| t.0.as_ref())
        .map(|t| t.stance.as_str())
        .filter(|s| !s.is_empty())
        .unwrap_or(rules.battle.default_tactics.stance.as_str());
    rules.stances.iter().find(|s| s.tag == tag).map_or(3, |s| s.value)
}

const AVOID: u32 = 1;
const DEFEND: u32 = 2;

/// The battle `req` asks for, if both its units can still fight.
pub fn muster(world: &mut World, req: &Request<Cause>) -> Option<(Muster, [u8; 32])> {
    let place = req.place;
    let (a, t) = (req.attacker, req.target);
    if !here(world, a, place) || !here(world, t, place) {
        return None;
    }
    let (fa, fd) = (faction(world, a)?, faction(world, t)?);
    if fa == fd {
        return None;
    }
    let day = world.resource::<Clock>().tick;
    // Who is here, in report order; who passes through.
    let mut present = present_at(world, place);
    present.retain(|x| {
        world.get_entity(x.1).is_ok_and(|r| r.get::<At>().is_some_and(|a| a.location == place))
            && world.get::<Owner>(x.1).is_some_and(|o| o.0 == x.2)
    });
    let standing: Vec<(Entity, Entity)> =
        present.iter().filter(|x| here(world, x.1, place)).map(|x| (x.1, x.2)).collect();
    // The factions here, in the order of their first unit (a set, not a scan of
    // the list so far: a crowded place may hold thousands of factions).
    let mut factions_here: Vec<Entity> = Vec::new();
    let mut listed = EntityHashSet::default();
    for x in &present {
        if listed.insert(x.2) {
            factions_here.push(x.2);
        }
    }
    // CMB-SIDES.
    let mut sides: [Vec<Entity>; 2] = [vec![fa], vec![fd]];
    let guarding: Vec<Entity> = {
        let (mut v, mut seen) = (Vec::new(), EntityHashSet::default());
        for &(u, f) in &standing {
            if world.get::<OnGuard>(u).is_some_and(|g| g.0 == day) && seen.insert(f) {
                v.push(f);
            }
        }
        v
    };
    // DIP-UNSEEN: a faction joins the battle of the attacker or the target only if
    // that unit shows its faction ([`grants_unit`]); guards show theirs.
    for &g in &guarding {
        if g != fa && g != fd && grants_unit(world, g, t, StanceGrant::Defend) && !sides[1].contains(&g) {
            sides[1].push(g);
        }
    }
    let involved: [Vec<Entity>; 2] = sides.clone();
    let mut withdrawn: Vec<Entity> = Vec::new();
    let aid = |x: Entity, f: Entity| match f {
        _ if f == fa => grants_unit(world, x, a, StanceGrant::Aid),
        _ if f == fd => grants_unit(world, x, t, StanceGrant::Aid),
        _ => grants(world, x, f, StanceGrant::Aid),
    };
    for &x in &factions_here {
        if x == fa || x == fd {
            continue;
        }
        let aids = |s: usize| involved[s].iter().any(|&f| f != x && aid(x, f));
        let on = [aids(0), sides[1].contains(&x) || aids(1)];
        match on {
            [true, true] => {
                sides[1].retain(|&f| f != x);
                withdrawn.push(x);
            }
            [true, false] => sides[0].push(x),
            [false, true] if !sides[1].contains(&x) => sides[1].push(x),
            _ => {}
        }
    }
    // CMB-PULL, CMB-STACKPULL.
    let faction_sides: EntityHashMap<usize> =
        sides.iter().enumerate().rev().flat_map(|(s, fs)| fs.iter().map(move |&f| (f, s))).collect();
    let side_of_faction = |f: Entity| faction_sides.get(&f).copied();
    let mut side_of: EntityHashMap<u8> = EntityHashMap::default();
    let mut order: Vec<Entity> = Vec::new();
    let mut both: EntityHashSet = EntityHashSet::default();
    let joins = |world: &World, u: Entity, s: u8| -> bool {
        if u == a || u == t {
            return true;
        }
        let st = battle_stance(world, u);
        st != AVOID && !(st == DEFEND && s == 0)
    };
    let mut pulled: Vec<(Entity, u8)> = Vec::new();
    for &(u, f) in &standing {
        if let Some(s) = side_of_faction(f) {
            let s = s as u8;
            if joins(world, u, s) {
                pulled.push((u, s));
            }
        }
    }
    let standing_set: EntityHashSet = standing.iter().map(|x| x.0).collect();
    for (u, s) in pulled {
        // The unit and its whole stack, from the top.
        for m in substack(world, stack_top(world, u)) {
            if !standing_set.contains(&m) || (m != u && !joins(world, m, s)) {
                continue;
            }
            match side_of.get(&m) {
                None => {
                    side_of.insert(m, s);
                    order.push(m);
                }
                Some(&old) if old != s => {
                    if let Some(f) = faction(world, m) {
                        both.insert(f);
                    }
                }
                _ => {}
            }
        }
    }
    side_of.insert(a, 0);
    side_of.insert(t, 1);
    // A faction with units on both sides withdraws them all; the attacker's and the
    // target's keep only their own side's.
    let mut units: Vec<(Entity, u8)> = Vec::new();
    for &u in &order {
        let s = side_of[&u];
        let Some(f) = faction(world, u) else { continue };
        let keep = if f == fa {
            s == 0
        } else if f == fd {
            s == 1
        } else {
            !both.contains(&f)
        };
        if keep || u == a || u == t {
            units.push((u, s));
        }
    }
    for f in both.iter().copied() {
        if f != fa && f != fd && !withdrawn.contains(&f) {
            withdrawn.push(f);
        }
    }
    // CMB-REFUSE, CP-BATTLE.
    let randomness = *world.resource::<Randomness>();
    let n = {
        let turn = world.resource::<Clock>().turn;
        let mut fought = world.resource_mut::<Fought>();
        let e = fought.counts.entry(place).or_insert(((turn, day), 0));
        if e.0 != (turn, day) {
            *e = ((turn, day), 0);
        }
        e.1 += 1;
        e.1
    };
    let place_id = world.get::<Id>(place).map(|i| i.0.clone()).unwrap_or_default();
    let key = format!("{place_id}/{day}/{n}");
    let per_cp = u64::from(world.resource::<Catalog>().rules.combat.battle.refusal_percent_per_control_point);
    let mut refusals = randomness.stream("battle refusal", &key);
    let mut refused = Vec::new();
    units.retain(|&(u, _)| {
        if u == a || u == t {
            return true;
        }
        let over = faction(world, u).and_then(|f| world.get::<OverControl>(f)).map_or(0, |o| o.0);
        let chance = over.saturating_mul(per_cp).min(100);
        if chance > 0 && u64::from(refusals.random_range(0..100u32)) < chance {
            refused.push(u);
            return false;
        }
        true
    });
    if !units.iter().any(|x| x.1 == 0) || !units.iter().any(|x| x.1 == 1) {
        return None;
    }
    units.sort_by_key(|x| x.1);
    // Witnesses: the sides' factions, and everyone else here.
    let mut witnesses: Vec<(Entity, Role)> = Vec::new();
    let mut witnessed = EntityHashSet::default();
    witnessed.extend(witnesses.iter().map(|w| w.0));
    for &(u, s) in &units {
        if let Some(f) = faction(world, u)
            && witnessed.insert(f)
        {
            witnesses.push((f, Role::Side(s)));
        }
    }
    for &f in &factions_here {
        if witnessed.insert(f) {
            witnesses.push((f, Role::Bystander));
        }
    }
    let final_sides = [0u8, 1].map(|s| {
        let (mut v, mut seen): (Vec<Entity>, EntityHashSet) = Default::default();
        for &(u, us) in &units {
            if us == s
                && let Some(f) = faction(world, u)
                && seen.insert(f)
            {
                v.push(f);
            }
        }
        v
    });
    let mut fighters = Vec::with_capacity(units.len());
    let mut trains = Vec::with_capacity(units.len());
    for &(u, s) in &units {
        let (f, tr) = fighter(world, u, s, day);
        fighters.push(f);
        trains.push(tr);
    }
    let catalog = world.resource::<Catalog>();
    // The creatures each summoning spell of a COMBAT list may call, after the units.
    for i in 0..units.len() {
        for j in 0..fighters[i].actions.len() {
            let Action::Special(s) = &fighters[i].actions[j] else { continue };
            let Some(skill) = catalog.skill(&s.tag) else { continue };
            let level = world.get::<Skills>(units[i].0).map_or(0, |k| k.level(catalog, skill)) as usize;
            let Some(lv) = catalog.rules.skills[skill.index()].system.levels.get(level.wrapping_sub(1)) else {
                continue;
            };
            let (Some(a), Some(sm)) = (&lv.combat, &lv.summon) else { continue };
            if a.kind != CombatActionKind::Summon {
                continue;
            }
            let Some(reserve) = called(catalog, world.resource::<CapacityTables>(), &fighters[i], i, &s.tag, sm) else {
                continue;
            };
            fighters.push(reserve);
            trains.push(Vec::new());
            let r = fighters.len() - 1;
            if let Action::Special(s) = &mut fighters[i].actions[j] {
                s.summons = Some(r);
            }
        }
    }
    let c = &catalog.rules.combat;
    let ranks: Vec<(u32, String)> = c.ranks.iter().rev().map(|r| (r.value, r.name.clone())).collect();
    let files: Vec<(u32, String)> = c.files.iter().map(|r| (r.value, r.name.clone())).collect();
    let ambush_levels = catalog
        .skill(&c.battle.skills.ambush)
        .map(|s| catalog.rules.skills[s.index()].system.levels.iter().map(|l| l.experience).collect())
        .unwrap_or_default();
    let armies = Armies {
        rules: c.battle.clone(),
        ranks: ranks.len().max(1) as u32,
        files: files.len().max(1) as u32,
        rank_names: ranks.into_iter().map(|x| x.1).collect(),
        file_names: files.into_iter().map(|x| x.1).collect(),
        ambush_levels,
        from_attack: req.cause == Cause::Attack,
        fighters,
    };
    let seed = rng::stream_seed(randomness.seed, randomness.turn, "battle", rng::key_of(&key));
    let m = Muster {
        place,
        day,
        cause: req.cause,
        attacker: a,
        target: t,
        armies,
        units: units.iter().map(|&(u, _)| (u, faction(world, u).expect("unit"))).collect(),
        trains,
        sides: final_sides,
        witnesses,
        refused,
    };
    Some((m, seed))
}

/// The battle view of unit `u` on side `side`: statistics by equipment, settings and
/// actions (CMB-GRID, CMB-ACT, CMB-SKILLEQUIP, CMB-ITEM, CMB-FLY).
fn fighter(world: &World, u: Entity, side: u8, day: u32) -> (Fighter, Vec<SkillId>) {
    let r = world.entity(u);
    let parts = Parts {
        id: r.get::<Id>().map(|i| i.0.clone()).unwrap_or_default(),
        race: r.get::<Race>().expect("unit").0,
        figures: r.get::<Figures>().map_or(0, |f| f.0),
        inventory: r.get::<Inventory>().cloned().unwrap_or_default(),
        skills: r.get::<Skills>().cloned().unwrap_or_default(),
        effects: crate::systems::overlord::world::under(world, u),
        tactics: r.get::<Tactics>().and_then(|t| t.0.as_deref().cloned()).unwrap_or_default(),
        orders: r.get::<CombatOrders>().map(|c| c.0.clone()).unwrap_or_default(),
        guarding: r.get::<OnGuard>().is_some_and(|g| g.0 == day),
    };
    build(world.resource::<Catalog>(), world.resource::<CapacityTables>(), side, parts)
}

/// What a fighter is made of: a unit of the world, or creatures a spell calls.
struct Parts {
    id: String,
    race: RaceId,
    figures: u32,
    inventory: Inventory,
    skills: Skills,
    effects: Effects,
    tactics: CombatTactics,
    /// Its COMBAT list.
    orders: Vec<String>,
    guarding: bool,
}

/// The battle view of a unit made of `p`.
fn build(catalog: &Catalog, tables: &CapacityTables, side: u8, p: Parts) -> (Fighter, Vec<SkillId>) {
    let rules = &catalog.rules;
    let b = &rules.combat.battle;
    let Parts { id, race, figures, inventory, skills, effects, tactics: tac, orders, guarding } = p;
    let mut full = compute(catalog, tables, race, figures, &inventory, &skills, &effects);
    let mut bare = compute(catalog, tables, race, figures, &Inventory::default(), &skills, &effects).stats;
    // An enchantment's combat bonus counts in battle only.
    for &(e, _) in &effects.0 {
        if let Some(c) = &rules.enchantments.enchantments[e.index()].combat {
            crate::systems::overlord::mechanics::stats::add(&mut full.stats, &c.bonus, 1, 1);
            crate::systems::overlord::mechanics::stats::add(&mut bare, &c.bonus, 1, 1);
        }
    }
    // Equipment by figure: the first `equipped` figures hold each item.
    let held: Vec<(u32, &Stats)> = inventory
        .0
        .iter()
        .filter(|h| h.equipped > 0)
        .map(|h| (h.equipped.min(figures), &rules.items[h.item.index()].system.stats))
        .collect();
    let mut cuts: Vec<u32> = held.iter().map(|x| x.0).filter(|&e| e > 0 && e < figures).collect();
    cuts.push(figures);
    cuts.sort_unstable();
    cuts.dedup();
    let mut bands = Vec::with_capacity(cuts.len());
    let mut prev = 0;
    for &cut in &cuts {
        let mut s = bare.clone();
        for (e, st) in &held {
            if *e >= cut {
                crate::systems::overlord::mechanics::stats::add(&mut s, st, 1, 1);
            }
        }
        bands.push((cut - prev, s));
        prev = cut;
    }
    // TACTIC, or the rule set's defaults.
    let pick = |v: &str, d: &str| -> String { if v.is_empty() { d.to_string() } else { v.to_string() } };
    let dt = &b.default_tactics;
    let (rank_tag, file_tag, move_tag) =
        (pick(&tac.rank, &dt.rank), pick(&tac.file, &dt.file), pick(&tac.movement, &dt.movement));
    // `combat.ron` lists the ranks from the rear and the files from one edge.
    let nranks = rules.combat.ranks.len().max(1) as u32;
    let rank = rules.combat.ranks.iter().position(|x| x.tag == rank_tag).map_or(0, |i| nranks - 1 - i as u32);
    let file = rules.combat.files.iter().position(|x| x.tag == file_tag).map_or(0, |i| i as u32);
    let movement = Move::of_tag(&move_tag).unwrap_or(Move::Stand);
    let level = |tag: &str| catalog.skill(tag).map_or(0, |s| skills.level(catalog, s));
    let experience =
        |tag: &str| catalog.skill(tag).and_then(|s| skills.0.iter().find(|x| x.0 == s)).map_or(0, |x| u64::from(x.1));
    // CMB-FLY: a unit that can fly itself.
    let flyer =
        b.flying_mode.as_ref().and_then(|m| rules.movement.modes.iter().position(|x| &x.tag == m)).is_some_and(|m| {
            let cap = full.capacity.get(m).copied().unwrap_or(0).saturating_mul(1000);
            cap > 0 && cap >= full.weight_milli
        });
    let mounted = figures > 0
        && b.mount_slot.as_ref().is_some_and(|slot| {
            let n: u32 = inventory
                .0
                .iter()
                .filter(|h| rules.items[h.item.index()].system.slot.as_ref() == Some(slot))
                .map(|h| h.equipped)
                .sum();
            n >= figures
        });
    let kind = rules.races[race.index()].system.kind;
    let mut trains: Vec<SkillId> = Vec::new();
    let actions: Vec<Action> =
        orders.iter().map(|w| action(catalog, &skills, &inventory, figures, w, &mut trains)).collect();
    // What it holds of the components its spells consume.
    let mut supplies: Vec<(String, u32)> = Vec::new();
    for a in &actions {
        if let Action::Special(s) = a {
            for (t, _) in &s.consumes {
                if !supplies.iter().any(|x| &x.0 == t) {
                    supplies.push((t.clone(), catalog.item(t).map_or(0, |i| inventory.count(i))));
                }
            }
        }
    }
    let f = Fighter {
        id,
        side,
        figures,
        bands,
        base_melee: bare.melee,
        stats: full.stats,
        rank,
        file,
        movement,
        actions,
        flyer,
        mounted,
        fanatic: b.skills.fanatic.as_deref().is_some_and(|t| level(t) > 0),
        leader: kind == RaceKind::Leader,
        guarding,
        tactics: level(&b.skills.tactics),
        strategy: b.skills.strategy.as_deref().is_some_and(|t| level(t) > 0),
        ambush_experience: experience(&b.skills.ambush),
        mana: catalog.mana().map_or(0, |m| inventory.count(m)),
        supplies,
        reserve: None,
    };
    (f, trains)
}

/// One word of a COMBAT list as a battle action.
fn action(
    catalog: &Catalog,
    skills: &Skills,
    inventory: &Inventory,
    figures: u32,
    word: &str,
    trains: &mut Vec<SkillId>,
) -> Action {
    let rules = &catalog.rules;
    match word.to_ascii_lowercase().as_str() {
        "melee" => return Action::Melee,
        "parry" => return Action::Parry,
        "ranged" => return Action::Ranged,
        _ => {}
    }
    let unusable = |why: &str| Action::Unusable { tag: word.to_string(), why: why.to_string() };
    let mut train = |s: SkillId| -> usize {
        match trains.iter().position(|&x| x == s) {
            Some(i) => i,
            None => {
                trains.push(s);
                trains.len() - 1
            }
        }
    };
    let reach = |kind: CombatActionKind, range: u32| match kind {
        // A summons strikes nothing itself: its creatures do.
        CombatActionKind::Melee | CombatActionKind::Summon => Some(Reach::Melee),
        CombatActionKind::Ranged => Some(Reach::Ranged(range)),
        CombatActionKind::Enchant => None,
    };
    let leaders = |t: &Option<String>| t.as_deref() == Some("BATTLEFIELD_TARGET_OPPOSING_LEADER");
    if let Some(s) = catalog.skill(word) {
        let lv = skills.level(catalog, s);
        if lv == 0 {
            return unusable("the unit does not know this skill");
        }
        let skill = &rules.skills[s.index()];
        let Some(a) = skill.system.levels[lv as usize - 1].combat.as_ref() else {
            return unusable("this skill is not a combat action");
        };
        let spell = skill.system.flags.contains(&SkillFlag::Magic);
        let lvl = &skill.system.levels[lv as usize - 1];
        if let Some(what) = battle_gap(rules, a, &lvl.grants, lvl.summon.as_ref()) {
            return unusable(&what);
        }
        let charming = charming(rules, a, &lvl.grants).ok().flatten();
        let Some(reach) = reach(a.kind, a.range).or(charming.as_ref().map(|_| Reach::Melee)) else {
            return unusable("this kind of combat action is not part of this engine yet");
        };
        if let Some(item) = &a.equipment {
            let n =
                catalog.item(item).map_or(0, |i| inventory.0.iter().find(|h| h.item == i).map_or(0, |h| h.equipped));
            if n < figures {
                return unusable(&format!("every figure needs {item} equipped"));
            }
        }
        return Action::Special(Special {
            tag: skill.tag.clone(),
            reach,
            leaders_only: leaders(&a.target),
            bonus: a.bonus.clone(),
            holders: None,
            trains: Some(train(s)),
            mana: spell.then_some(lvl.use_mana),
            summons: None,
            damage: a.damage_type.clone(),
            consumes: if spell {
                lvl.production.iter().flat_map(|p| &p.inputs).map(|i| (i.0.clone(), i.1)).collect()
            } else {
                Vec::new()
            },
            charming,
        });
    }
    if let Some(i) = catalog.item(word) {
        let it = &rules.items[i.index()];
        let Some(a) = it.system.combat.as_ref() else {
            return unusable("this item is not a combat item");
        };
        if let Some(what) = battle_gap(rules, a, &[], None) {
            return unusable(&what);
        }
        let charming = charming(rules, a, &[]).ok().flatten();
        let Some(reach) = reach(a.kind, a.range).or(charming.as_ref().map(|_| Reach::Melee)) else {
            return unusable("this kind of combat action is not part of this engine yet");
        };
        let holders = inventory.0.iter().find(|h| h.item == i).map_or(0, |h| h.equipped);
        if holders == 0 {
            return unusable("no figure has it equipped");
        }
        let trains_skill = it.system.equip_skill.as_ref().and_then(|r| catalog.skill(&r.skill)).map(&mut train);
        return Action::Special(Special {
            tag: it.tag.clone(),
            reach,
            leaders_only: leaders(&a.target),
            bonus: a.bonus.clone(),
            holders: Some(holders),
            trains: trains_skill,
            mana: None,
            consumes: Vec::new(),
            charming,
            summons: None,
            damage: a.damage_type.clone(),
        });
    }
    unusable("no such skill or item")
}

/// What of combat action `a` (of a skill level granting `grants` and summoning
/// `summon`) is not part of
/// the engine yet, or why it cannot be used, if so: the battle says it once of a
/// unit listing it, and the game master is warned of it (`support` in `magic`).
pub fn battle_gap(rules: &RuleSet, a: &CombatAction, grants: &[Grant], summon: Option<&Summon>) -> Option<String> {
    match a.kind {
        CombatActionKind::Summon => match summon {
            None => Some("it summons nothing".into()),
            Some(sm) if !rules.races.iter().any(|r| r.tag == sm.race) => {
                Some(format!("the race it summons, {}, is not in races.ron", sm.race))
            }
            Some(_) => None,
        },
        CombatActionKind::Enchant => charming(rules, a, grants).err(),
        CombatActionKind::Melee | CombatActionKind::Ranged => None,
    }
}

/// A combat action that enchants (`kind: Enchant`): whom, and the enchantments of
/// `grants` and the action's `effect`, each for its number of rounds, as they add to
/// a figure in battle (their `stats` and their `combat.bonus`; flying when they give
/// the flying mode's capacity). `None` for an action that does not enchant; an
/// error for one that cannot be used.
fn charming(rules: &RuleSet, a: &CombatAction, grants: &[Grant]) -> Result<Option<Charming>, String> {
    if a.kind != CombatActionKind::Enchant {
        return Ok(None);
    }
    let target = a.target.as_deref().unwrap_or("BATTLEFIELD_TARGET_SELF");
    let aim = Aim::of_tag(target).ok_or_else(|| format!("its target {target} is not a class of combat.ron's"))?;
    let fly = rules.combat.battle.flying_mode.as_deref();
    let mut charms = Vec::new();
    for g in grants.iter().chain(a.effect.as_ref()) {
        let Some(e) = rules.enchantments.enchantments.iter().find(|e| e.tag == g.0) else {
            return Err(format!("its enchantment {} is not in enchantments.ron", g.0));
        };
        let mut stats = e.stats.clone();
        if let Some(c) = &e.combat {
            crate::systems::overlord::mechanics::stats::add(&mut stats, &c.bonus, 1, 1);
        }
        let flies = fly.is_some_and(|m| e.capacity.get(m).is_some_and(|&c| c > 0));
        charms.push(Charm { tag: e.tag.clone(), stats, flies, rounds: g.1.max(1) });
    }
    if charms.is_empty() {
        return Err("it enchants with nothing".into());
    }
    let secondary = a.secondary.as_deref().map(str::to_ascii_uppercase);
    Ok(Some(Charming {
        aim,
        range: a.range,
        charms,
        then_melee: secondary.as_deref() == Some("MELEE"),
        then_next: secondary.as_deref() == Some("NEXT"),
    }))
}

/// The creatures fighter `caster` (at index `ci`) calls with spell `spell`, as a
/// reserve of its side: `summon`'s race, skills (with the race's innate ones),
/// items and tactics; its `combat_orders` (`@ CHARGE`, `@ Apply fhit`, `@ MELEE`)
/// give its movement and its COMBAT list. Without tactics they appear on the
/// caster's square.
fn called(
    catalog: &Catalog,
    tables: &CapacityTables,
    caster: &Fighter,
    ci: usize,
    spell: &str,
    sm: &Summon,
) -> Option<Fighter> {
    let race = catalog.race(&sm.race)?;
    let r = &catalog.rules.races[race.index()];
    let mut skills = Skills::default();
    for (tag, xp) in r.system.innate_skills.iter().map(|k| (&k.0, k.1)).chain(sm.skills.iter().map(|k| (&k.0, k.1))) {
        if let Some(s) = catalog.skill(tag) {
            match skills.0.iter_mut().find(|x| x.0 == s) {
                Some(x) => x.1 = x.1.max(xp),
                None => skills.0.push((s, xp)),
            }
        }
    }
    let inventory = Inventory(
        sm.items
            .iter()
            .filter_map(|h| catalog.item(&h.0).map(|item| Holding { item, count: h.1, equipped: h.2.min(h.1) }))
            .collect(),
    );
    let mut movement = None;
    let mut orders = Vec::new();
    for o in &sm.combat_orders {
        let word = o.trim().trim_start_matches('@').trim();
        let lower = word.to_ascii_lowercase();
        match (Move::of_tag(&lower), lower.strip_prefix("apply ")) {
            (Some(m), _) => movement = Some(m),
            (None, Some(_)) => orders.push(word[6..].trim().to_string()),
            (None, None) => orders.push(word.to_string()),
        }
    }
    let parts = Parts {
        id: format!("{}/{spell}", caster.id),
        race,
        figures: sm.count.max(1),
        inventory,
        skills,
        effects: Effects::default(),
        tactics: sm.tactics.clone().unwrap_or_default(),
        orders,
        guarding: false,
    };
    let (mut f, _) = build(catalog, tables, caster.side, parts);
    if let Some(m) = movement {
        f.movement = m;
    }
    let plural = catalog.race_name_for(race, u64::from(sm.count));
    let name = if sm.name.is_empty() { format!("{} {plural}", sm.count.max(1)) } else { sm.name.clone() };
    f.reserve = Some(Reserve { caster: ci, at_caster: sm.tactics.is_none(), name, race: r.tag.clone() });
    Some(f)
}
