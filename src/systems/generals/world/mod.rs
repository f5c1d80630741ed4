//! The generals world in the ECS: players, regions, generals and troop units as
//! entities, their fields as components, references as entities and rule set
//! records as indexes. [`build`] spawns a scenario; [`extract`] gives it back, so
//! a state saved after a turn reads as it was written.

use crate::systems::generals::data::{self, Relation, RuleSet, Scenario};
use bevy_ecs::prelude::*;
use std::collections::HashMap;

#[cfg(test)]
mod tests;

/// Report order: the position in its scenario file.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Seq(pub u32);

/// A player, region or troop unit's id; a general's name.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct Id(pub String);

/// A display name (players and regions).
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct Name(pub String);

/// A player: password and email.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// Password for orders.
    pub password: String,
    /// Where reports go.
    pub email: String,
}

/// A player's gold.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Treasury(pub u64);

/// A player's victory points.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Points(pub u64);

/// A player's relations other than neutral, by player entity, in player order.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Relations(pub Vec<(Entity, Relation)>);

/// A region: its terrain (index), the troop types hired there (indexes), its
/// defensive order (index) and map coordinates.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct Region {
    /// Terrain, index in the rule set.
    pub terrain: usize,
    /// Troop types for hire, indexes.
    pub hires: Vec<usize>,
    /// The standing defensive order, index in the battle orders.
    pub defense: usize,
    /// Axial coordinates.
    pub hex: Option<(i32, i32)>,
}

/// The regions next to a region.
#[derive(Component, Debug, Clone, Default, PartialEq, Eq)]
pub struct Adjacent(pub Vec<Entity>);

/// A region's income and hire limit: now, and their original values.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Economy {
    /// Income now, original.
    pub income: (u32, u32),
    /// Hire limit now, original.
    pub hire_limit: (u32, u32),
}

/// The general who prepared the region's battlefield, while he stays.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PreparedBy(pub Entity);

/// Whose a general or troop unit is.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner(pub Entity);

/// The region a general or troop unit is in.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct At(pub Entity);

/// A general: renown, skills (index, level) in rule set order, the champion unit,
/// whether he was trained this turn.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct General {
    /// Renown.
    pub renown: u32,
    /// Skills and levels, by skill index, ascending.
    pub skills: Vec<(usize, u32)>,
    /// Invincible Warrior's unit.
    pub champion: Option<Entity>,
    /// Trained this turn: he may only move.
    pub new: bool,
}

/// A troop unit: type (index), men, veteran levels, whether in the reserve.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Troop {
    /// Troop type, index in the rule set.
    pub kind: usize,
    /// Men.
    pub men: u32,
    /// Veteran levels.
    pub veteran: u32,
    /// In the reserve.
    pub reserve: bool,
}

/// Every entity by kind, in report order, and by id.
#[derive(Resource, Debug, Default)]
pub struct Directory {
    /// Players.
    pub players: Vec<Entity>,
    /// Regions.
    pub regions: Vec<Entity>,
    /// Generals.
    pub generals: Vec<Entity>,
    /// Troop units.
    pub troops: Vec<Entity>,
    by_id: HashMap<(u8, String), Entity>,
}

const PLAYER: u8 = 0;
const REGION: u8 = 1;
const GENERAL: u8 = 2;
const TROOP: u8 = 3;

impl Directory {
    fn insert(&mut self, kind: u8, id: &str, e: Entity) {
        self.by_id.insert((kind, id.to_ascii_uppercase()), e);
    }
    fn get(&self, kind: u8, id: &str) -> Option<Entity> {
        self.by_id.get(&(kind, id.to_ascii_uppercase())).copied()
    }
    /// A player by id (any case).
    pub fn player(&self, id: &str) -> Option<Entity> {
        self.get(PLAYER, id)
    }
    /// A region by id.
    pub fn region(&self, id: &str) -> Option<Entity> {
        self.get(REGION, id)
    }
    /// A general by name.
    pub fn general(&self, name: &str) -> Option<Entity> {
        self.get(GENERAL, name)
    }
    /// A troop unit by id.
    pub fn troop(&self, id: &str) -> Option<Entity> {
        self.get(TROOP, id)
    }
    /// A general made during a turn, listed last.
    pub fn add_general(&mut self, name: &str, e: Entity) {
        self.insert(GENERAL, name, e);
        self.generals.push(e);
    }
    /// A troop unit made during a turn, listed last.
    pub fn add_troop(&mut self, id: &str, e: Entity) {
        self.insert(TROOP, id, e);
        self.troops.push(e);
    }
    /// Forgets a general who died: his name may be given again.
    pub fn forget_general(&mut self, name: &str) {
        self.by_id.remove(&(GENERAL, name.to_ascii_uppercase()));
    }
    /// Drops from the lists the generals and troop units despawned during the turn.
    pub fn compact(&mut self, alive: impl Fn(Entity) -> bool) {
        self.generals.retain(|&e| alive(e));
        self.troops.retain(|&e| alive(e));
    }
}

/// Troops marching into a region they attack, not yet its holders: they do not
/// defend it, and they hold it only when their battle is won (or not fought).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attacking;

/// Who holds each region (generals-rules.txt 13: "to control a region, a player
/// must have troops stationed in the region"): region → player, from the troop
/// units stationed (attackers on the march do not count).
pub fn holders(world: &World) -> bevy_ecs::entity::EntityHashMap<Entity> {
    let dir = world.resource::<Directory>();
    let mut out = bevy_ecs::entity::EntityHashMap::default();
    for &t in &dir.troops {
        let Ok(e) = world.get_entity(t) else { continue };
        if let (Some(owner), Some(at), false) = (e.get::<Owner>(), e.get::<At>(), e.contains::<Attacking>()) {
            out.insert(at.0, owner.0);
        }
    }
    out
}

/// The troop units stationed in each region, in troop order (attackers on the
/// march not counted).
pub fn garrisons(world: &World) -> bevy_ecs::entity::EntityHashMap<Vec<Entity>> {
    let dir = world.resource::<Directory>();
    let mut out: bevy_ecs::entity::EntityHashMap<Vec<Entity>> = bevy_ecs::entity::EntityHashMap::default();
    for &t in &dir.troops {
        let Ok(e) = world.get_entity(t) else { continue };
        if let (Some(at), false) = (e.get::<At>(), e.contains::<Attacking>()) {
            out.entry(at.0).or_default().push(t);
        }
    }
    out
}

/// The name of a region, player, general or troop unit, as reports write it: a
/// region or player as `Name [ID]`, a general by name, a troop unit by id.
pub fn label(world: &World, e: Entity) -> String {
    let id = world.get::<Id>(e).map_or("?", |x| x.0.as_str());
    match world.get::<Name>(e) {
        Some(n) => format!("{} [{id}]", n.0),
        None => id.to_string(),
    }
}

/// The rule set, shared by the mechanics.
#[derive(Resource, Debug, Clone)]
pub struct Rules(pub std::sync::Arc<RuleSet>);

/// The game's settings (`game.ron`), kept whole.
#[derive(Resource, Debug, Clone)]
pub struct GameInfo(pub data::Game);

/// Spawns `s` into `world`. Fails with one message per reference that does not
/// resolve (a validated scenario has none).
pub fn build(world: &mut World, rules: &RuleSet, s: Scenario) -> Result<(), Vec<String>> {
    let Scenario { game, players, regions, generals, troops } = s;
    let mut dir = Directory::default();
    let mut errors = Vec::new();
    let index = |list: &[String], tag: &str| list.iter().position(|t| t == tag);
    let terrains: Vec<String> = rules.terrains.iter().map(|t| t.tag.clone()).collect();
    let kinds: Vec<String> = rules.troops.iter().map(|t| t.tag.clone()).collect();
    let skills: Vec<String> = rules.skills.iter().map(|t| t.tag.clone()).collect();
    let orders: Vec<String> = rules.combat.orders.iter().map(|t| t.tag.clone()).collect();
    // Every entity first: players, regions, generals and troops name each other.
    for p in &players {
        let e = world.spawn_empty().id();
        dir.insert(PLAYER, &p.id, e);
        dir.players.push(e);
    }
    for r in &regions {
        let e = world.spawn_empty().id();
        dir.insert(REGION, &r.id, e);
        dir.regions.push(e);
    }
    for g in &generals {
        let e = world.spawn_empty().id();
        dir.insert(GENERAL, &g.name, e);
        dir.generals.push(e);
    }
    for t in &troops {
        let e = world.spawn_empty().id();
        dir.insert(TROOP, &t.id, e);
        dir.troops.push(e);
    }
    for (i, p) in players.into_iter().enumerate() {
        let mut relations = Vec::new();
        for (other, rel) in &p.relations {
            match dir.player(other) {
                Some(o) => relations.push((o, *rel)),
                None => errors.push(format!("player {}: relation with unknown player '{other}'", p.id)),
            }
        }
        world.entity_mut(dir.players[i]).insert((
            Seq(i as u32),
            Id(p.id),
            Name(p.name),
            Player { password: p.password, email: p.email },
            Treasury(p.treasury),
            Points(p.points),
            Relations(relations),
        ));
    }
    // Relations in player order, whatever the map's order.
    let seq: HashMap<Entity, usize> = dir.players.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    for &p in &dir.players {
        if let Some(mut r) = world.get_mut::<Relations>(p) {
            r.0.sort_by_key(|x| seq.get(&x.0).copied());
        }
    }
    for (i, r) in regions.into_iter().enumerate() {
        let adjacent: Vec<Entity> = r
            .adjacent
            .iter()
            .filter_map(|a| {
                dir.region(a).or_else(|| {
                    errors.push(format!("region {}: unknown adjacent region '{a}'", r.id));
                    None
                })
            })
            .collect();
        let terrain = index(&terrains, &r.terrain).unwrap_or_else(|| {
            errors.push(format!("region {}: unknown terrain '{}'", r.id, r.terrain));
            0
        });
        let hires = r
            .hires
            .iter()
            .filter_map(|h| {
                index(&kinds, h).or_else(|| {
                    errors.push(format!("region {}: unknown troop type '{h}'", r.id));
                    None
                })
            })
            .collect();
        let defense = index(&orders, &r.defense).unwrap_or_else(|| {
            errors.push(format!("region {}: unknown battle order '{}'", r.id, r.defense));
            0
        });
        let mut e = world.entity_mut(dir.regions[i]);
        e.insert((
            Seq(i as u32),
            Id(r.id.clone()),
            Name(r.name),
            Region { terrain, hires, defense, hex: r.hex },
            Adjacent(adjacent),
            Economy { income: r.income, hire_limit: r.hire_limit },
        ));
        if let Some(g) = &r.prepared_by {
            match dir.general(g) {
                Some(g) => {
                    e.insert(PreparedBy(g));
                }
                None => errors.push(format!("region {}: prepared by unknown general '{g}'", r.id)),
            }
        }
    }
    for (i, t) in troops.into_iter().enumerate() {
        let (Some(owner), Some(at), Some(kind)) =
            (dir.player(&t.player), dir.region(&t.region), index(&kinds, &t.kind))
        else {
            errors.push(format!(
                "troop unit {}: unknown player '{}', region '{}' or type '{}'",
                t.id, t.player, t.region, t.kind
            ));
            continue;
        };
        world.entity_mut(dir.troops[i]).insert((
            Seq(i as u32),
            Id(t.id),
            Owner(owner),
            At(at),
            Troop { kind, men: t.men, veteran: t.veteran, reserve: t.reserve },
        ));
    }
    for (i, g) in generals.into_iter().enumerate() {
        let (Some(owner), Some(at)) = (dir.player(&g.player), dir.region(&g.region)) else {
            errors.push(format!("general {}: unknown player '{}' or region '{}'", g.name, g.player, g.region));
            continue;
        };
        let mut list = Vec::new();
        for (tag, &level) in &g.skills {
            match index(&skills, tag) {
                Some(k) => list.push((k, level)),
                None => errors.push(format!("general {}: unknown skill '{tag}'", g.name)),
            }
        }
        list.sort_unstable();
        let champion = g.champion.as_deref().and_then(|c| {
            dir.troop(c).or_else(|| {
                errors.push(format!("general {}: unknown champion unit '{c}'", g.name));
                None
            })
        });
        world.entity_mut(dir.generals[i]).insert((
            Seq(i as u32),
            Id(g.name),
            Owner(owner),
            At(at),
            General { renown: g.renown, skills: list, champion, new: g.new },
        ));
    }
    if let Some(mut clock) = world.get_resource_mut::<crate::core::engine::plan::Clock>() {
        clock.turn = game.turn;
    }
    world.insert_resource(dir);
    world.insert_resource(GameInfo(game));
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// The scenario `world` holds, in report order.
pub fn extract(world: &World, rules: &RuleSet) -> Scenario {
    let dir = world.resource::<Directory>();
    let id = |e: Entity| world.get::<Id>(e).map(|x| x.0.clone()).unwrap_or_default();
    let alive = |e: Entity| world.get::<Id>(e).is_some();
    let name = |e: Entity| world.get::<Name>(e).map(|x| x.0.clone()).unwrap_or_default();
    let players = dir
        .players
        .iter()
        .map(|&e| {
            let p = world.get::<Player>(e);
            data::Player {
                id: id(e),
                name: name(e),
                password: p.map(|p| p.password.clone()).unwrap_or_default(),
                email: p.map(|p| p.email.clone()).unwrap_or_default(),
                treasury: world.get::<Treasury>(e).map_or(0, |t| t.0),
                points: world.get::<Points>(e).map_or(0, |t| t.0),
                relations: world
                    .get::<Relations>(e)
                    .map_or_else(Default::default, |r| r.0.iter().map(|&(o, rel)| (id(o), rel)).collect()),
            }
        })
        .collect();
    let regions = dir
        .regions
        .iter()
        .map(|&e| {
            let r = world.get::<Region>(e).expect("region");
            let econ = world.get::<Economy>(e).copied().expect("region");
            data::Region {
                id: id(e),
                name: name(e),
                terrain: rules.terrains[r.terrain].tag.clone(),
                adjacent: world.get::<Adjacent>(e).map_or_else(Vec::new, |a| a.0.iter().map(|&x| id(x)).collect()),
                income: econ.income,
                hire_limit: econ.hire_limit,
                hires: r.hires.iter().map(|&k| rules.troops[k].tag.clone()).collect(),
                defense: rules.combat.orders[r.defense].tag.clone(),
                prepared_by: world.get::<PreparedBy>(e).map(|g| g.0).filter(|&g| alive(g)).map(id),
                hex: r.hex,
            }
        })
        .collect();
    let generals = dir
        .generals
        .iter()
        .filter_map(|&e| {
            let g = world.get::<General>(e)?;
            Some(data::General {
                name: id(e),
                player: id(world.get::<Owner>(e)?.0),
                region: id(world.get::<At>(e)?.0),
                renown: g.renown,
                skills: g.skills.iter().map(|&(k, l)| (rules.skills[k].tag.clone(), l)).collect(),
                champion: g.champion.filter(|&c| alive(c)).map(id),
                new: g.new,
            })
        })
        .collect();
    let troops = dir
        .troops
        .iter()
        .filter_map(|&e| {
            let t = world.get::<Troop>(e)?;
            Some(data::Troop {
                id: id(e),
                player: id(world.get::<Owner>(e)?.0),
                kind: rules.troops[t.kind].tag.clone(),
                men: t.men,
                veteran: t.veteran,
                region: id(world.get::<At>(e)?.0),
                reserve: t.reserve,
            })
        })
        .collect();
    let mut game = world.resource::<GameInfo>().0.clone();
    if let Some(clock) = world.get_resource::<crate::core::engine::plan::Clock>() {
        game.turn = clock.turn;
    }
    Scenario { game, players, regions, generals, troops }
}
