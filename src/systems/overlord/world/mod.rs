//! Loading a scenario into a game world, and saving the world back as a scenario.
//!
//! [`build`] spawns one entity per faction, location, structure and unit, in the order
//! of the scenario files, interning every tag. [`extract`] writes the world back in the
//! same order; a loaded world extracted without running anything gives the scenario
//! it was loaded from.

pub mod components;
pub mod ids;
pub mod resources;

pub use ids::{Catalog, EffectId, ItemId, RaceId, SkillId, TerrainId};

use crate::core::engine::plan::Clock;
use crate::systems::overlord::data::{self, ItemHolding, Scenario, SkillExperience, Tag};
use bevy_ecs::prelude::*;
use components::*;
use resources::{Directory, Game, Kind, Month, Randomness, Submissions};

/// Whether unit `u` has `req`: the skill at that level or better.
pub fn meets(world: &World, u: Entity, req: &data::SkillLevelReq) -> bool {
    let catalog = world.resource::<Catalog>();
    let Some(skill) = catalog.skill(&req.skill) else { return false };
    world.get::<Skills>(u).is_some_and(|s| s.level(catalog, skill) >= req.level)
}

/// The bonuses of the complete structure unit `u` is inside, if any (STR-BENEFIT).
pub fn structure_bonuses(world: &World, u: Entity) -> Option<&data::Bonuses> {
    let s = world.get::<At>(u)?.structure?;
    let r = world.get_entity(s).ok()?;
    if !r.get::<Structure>()?.0.missing.is_empty() {
        return None;
    }
    let c = &world.resource::<Catalog>().rules.constructions.constructions[r.get::<StructureKind>()?.0];
    (!c.bonuses.is_empty()).then_some(&c.bonuses)
}

/// The month index (into the rule set's calendar) in which `turn` is played. Turn 0
/// (the starting state) and turn 1 both fall in the scenario's starting month.
pub fn month_of_turn(settings: &data::GameSettings, months: usize, turn: u32) -> u32 {
    let months = months.max(1) as u64;
    ((u64::from(settings.start_month) + u64::from(turn.saturating_sub(1))) % months) as u32
}

/// Spawns the scenario into `world`, which must hold a [`Catalog`]. Fails with one
/// message per reference that does not resolve (a validated scenario has none).
pub fn build(world: &mut World, scenario: Scenario) -> Result<(), Vec<String>> {
    let catalog = world.resource::<Catalog>().clone();
    let months = catalog.rules.climate.months.len();
    let Scenario { game, factions, locations, structures, units, orders: _ } = scenario;
    let mut dir = Directory::default();
    let mut errors = Vec::new();

    let mut explicit = Vec::new();
    for (seq, mut f) in factions.into_iter().enumerate() {
        let stances = &catalog.stances;
        let default = std::mem::take(&mut f.default_stance);
        let default = match stances.by_tag(&default) {
            Some(s) => Some(s),
            None if default.is_empty() => None,
            None => {
                errors.push(format!("faction {}: unknown default stance '{default}'", f.id));
                None
            }
        };
        for (other, tag) in std::mem::take(&mut f.stances) {
            match stances.by_tag(&tag) {
                Some(s) => explicit.push((seq, other, s)),
                None => errors.push(format!("faction {}: unknown stance '{tag}' toward {other}", f.id)),
            }
        }
        let mut funds = Vec::new();
        for (tag, count) in std::mem::take(&mut f.funds) {
            match catalog.item(&tag) {
                Some(id) => funds.push((id, count)),
                None => errors.push(format!("faction {}: funds of unknown item '{tag}'", f.id)),
            }
        }
        funds.sort();
        let id = f.id.clone();
        let e = world
            .spawn((
                Seq(seq as u32),
                Id(id.clone()),
                DisplayName(f.name.clone()),
                Funds(funds),
                Diplomacy { default, ..Default::default() },
                Events::default(),
                Faction(f),
            ))
            .id();
        dir.insert(Kind::Faction, &id, e);
    }
    for (seq, other, s) in explicit {
        let e = dir.factions[seq];
        let target = dir.get(Kind::Faction, &other);
        let mut d = world.get_mut::<Diplomacy>(e).expect("faction");
        match target {
            Some(t) => d.set(t, s),
            None => d.unknown.push((other, s)),
        }
    }
    for (seq, l) in locations.into_iter().enumerate() {
        let Some(terrain) = catalog.terrain(&l.terrain) else {
            errors.push(format!("location {}: unknown terrain '{}'", l.id, l.terrain));
            continue;
        };
        let id = l.id.clone();
        let e = world
            .spawn((
                Seq(seq as u32),
                Id(id.clone()),
                DisplayName(l.name.clone()),
                Terrain(terrain),
                Population(l.population),
                Location(l),
            ))
            .id();
        dir.insert(Kind::Location, &id, e);
    }
    for (seq, s) in structures.into_iter().enumerate() {
        let Some(at) = dir.get(Kind::Location, &s.location) else {
            errors.push(format!("structure {}: unknown location '{}'", s.id, s.location));
            continue;
        };
        let Some(kind) = catalog.rules.constructions.constructions.iter().position(|c| c.tag == s.kind) else {
            errors.push(format!("structure {}: unknown construction '{}'", s.id, s.kind));
            continue;
        };
        let id = s.id.clone();
        let e = world.spawn(structure_bundle(seq as u32, s, kind, at)).id();
        dir.insert(Kind::Structure, &id, e);
    }
    let mut leaders = Vec::new();
    for (seq, mut u) in units.into_iter().enumerate() {
        let owner = dir.get(Kind::Faction, &u.faction);
        let race = catalog.race(&u.race);
        let location = dir.get(Kind::Location, &u.location);
        let structure = u.structure.as_deref().map(|s| dir.get(Kind::Structure, s));
        let (Some(owner), Some(race), Some(location), None | Some(Some(_))) = (owner, race, location, structure) else {
            errors.push(format!(
                "unit {}: unknown faction '{}', race '{}', location '{}' or structure '{}'",
                u.id,
                u.faction,
                u.race,
                u.location,
                u.structure.as_deref().unwrap_or("")
            ));
            continue;
        };
        let mut inventory = Vec::with_capacity(u.items.len());
        for ItemHolding(tag, count, equipped) in std::mem::take(&mut u.items) {
            match catalog.item(&tag) {
                Some(item) => inventory.push(Holding { item, count, equipped }),
                None => errors.push(format!("unit {}: unknown item '{tag}'", u.id)),
            }
        }
        let mut skills = Vec::with_capacity(u.skills.len());
        for SkillExperience(tag, exp) in std::mem::take(&mut u.skills) {
            match catalog.skill(&tag) {
                Some(s) => skills.push((s, exp)),
                None => errors.push(format!("unit {}: unknown skill '{tag}'", u.id)),
            }
        }
        let mut effects = Vec::with_capacity(u.effects.len());
        for data::EffectDays(tag, days) in std::mem::take(&mut u.effects) {
            match catalog.effect(&tag) {
                Some(e) => effects.push((e, days)),
                None => errors.push(format!("unit {}: unknown enchantment '{tag}'", u.id)),
            }
        }
        let production = Production(match u.production.take() {
            Some((tag, progress)) => match catalog.skill(&tag) {
                Some(s) => Some((s, progress)),
                None => {
                    errors.push(format!("unit {}: unknown skill '{tag}' in production", u.id));
                    None
                }
            },
            None => None,
        });
        let journey = match u.journey.take() {
            Some(j) => {
                let from = dir.get(Kind::Location, &j.from);
                let to = dir.get(Kind::Location, &j.to);
                let mode = catalog.rules.movement.modes.iter().position(|m| m.tag == j.mode);
                match (from, to, mode) {
                    (Some(from), Some(to), Some(mode)) => {
                        Some(Journey { from, to, mode, days: j.days, elapsed: j.elapsed, kind: j.kind })
                    }
                    _ => {
                        errors.push(format!(
                            "unit {}: journey from '{}' to '{}' by '{}' names an unknown location or mode",
                            u.id, j.from, j.to, j.mode
                        ));
                        None
                    }
                }
            }
            None => None,
        };
        let orders = Orders(
            std::mem::take(&mut u.orders)
                .iter()
                .map(|text| {
                    crate::systems::overlord::orders::queue::Queued::new(
                        crate::systems::overlord::orders::parse_entry_lenient(text, &catalog).0,
                    )
                })
                .collect(),
        );
        let id = std::mem::take(&mut u.id);
        let name = DisplayName(std::mem::take(&mut u.name));
        let figures = Figures(u.figures);
        if let Some(leader) = u.stack_leader.take() {
            leaders.push((seq, id.clone(), leader));
        }
        let at = At { location, structure: structure.flatten() };
        let e = world
            .spawn((
                Seq(seq as u32),
                Id(id.clone()),
                name,
                Owner(owner),
                Race(race),
                figures,
                at,
                StackLeader(None),
                Inventory(inventory),
                Skills(skills),
                Effects(effects),
                production,
                orders,
                Events::default(),
                Unit(u),
            ))
            .id();
        if let Some(j) = journey {
            world.entity_mut(e).insert(j);
        }
        dir.insert(Kind::Unit, &id, e);
    }
    for (_, id, leader) in leaders {
        let (Some(unit), Some(l)) = (dir.get(Kind::Unit, &id), dir.get(Kind::Unit, &leader)) else {
            errors.push(format!("unit {id}: unknown stack leader '{leader}'"));
            continue;
        };
        world.entity_mut(unit).insert(StackLeader(Some(l)));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    {
        // A game may play months of its own length; 0 keeps the plan's.
        let mut clock = world.resource_mut::<Clock>();
        clock.turn = game.turn;
        if game.days_per_month > 0 {
            clock.ticks = game.days_per_month;
        }
    }
    world.insert_resource(Month(month_of_turn(&game, months, game.turn)));
    world.insert_resource(Randomness { seed: game.seed, turn: game.turn });
    world.insert_resource(Game(game));
    world.insert_resource(dir);
    world.init_resource::<Submissions>();
    Ok(())
}

/// Writes the world back as a scenario, entities in report order.
pub fn extract(world: &World) -> Scenario {
    let catalog = world.resource::<Catalog>();
    let dir = world.resource::<Directory>();
    let clock = world.resource::<Clock>();
    let mut game = world.resource::<Game>().0.clone();
    game.turn = clock.turn;
    let id_of = |e: Entity| world.get::<Id>(e).map(|i| i.0.clone()).unwrap_or_default();

    let factions = dir
        .factions
        .iter()
        .map(|&e| {
            let mut f = world.get::<Faction>(e).expect("faction entity").0.clone();
            f.name = world.get::<DisplayName>(e).map(|n| n.0.clone()).unwrap_or_default();
            f.funds = world
                .get::<Funds>(e)
                .map(|fu| fu.0.iter().map(|&(item, n)| (catalog.item_tag(item).to_string(), n)).collect())
                .unwrap_or_default();
            if let Some(d) = world.get::<Diplomacy>(e) {
                let tag = |s| catalog.stances.tag(s).to_string();
                f.default_stance = d.default.map(tag).unwrap_or_default();
                f.stances = d.toward.iter().map(|&(o, s)| (id_of(o), tag(s))).collect();
                f.stances.extend(d.unknown.iter().map(|(o, s)| (o.clone(), tag(*s))));
            }
            f
        })
        .collect();
    let locations = dir
        .locations
        .iter()
        .map(|&e| {
            let mut l = world.get::<Location>(e).expect("location entity").0.clone();
            l.name = world.get::<DisplayName>(e).map(|n| n.0.clone()).unwrap_or_default();
            l.terrain = catalog.terrain_tag(world.get::<Terrain>(e).expect("terrain").0).to_string();
            l.population = world.get::<Population>(e).map_or(0, |p| p.0);
            l
        })
        .collect();
    let structures = dir
        .structures
        .iter()
        .map(|&e| {
            let mut s = world.get::<Structure>(e).expect("structure entity").0.clone();
            s.name = world.get::<DisplayName>(e).map(|n| n.0.clone()).unwrap_or_default();
            s.location = world.get::<StructureAt>(e).map(|a| id_of(a.0)).unwrap_or_default();
            s
        })
        .collect();
    let units = dir
        .units
        .iter()
        .map(|&e| {
            let r = world.entity(e);
            let mut u = r.get::<Unit>().expect("unit entity").0.clone();
            u.id = r.get::<Id>().map(|i| i.0.clone()).unwrap_or_default();
            u.name = r.get::<DisplayName>().map(|n| n.0.clone()).unwrap_or_default();
            u.faction = r.get::<Owner>().map(|o| id_of(o.0)).unwrap_or_default();
            u.race = r.get::<Race>().map(|x| catalog.race_tag(x.0).to_string()).unwrap_or_default();
            u.figures = r.get::<Figures>().map_or(0, |f| f.0);
            if let Some(at) = r.get::<At>() {
                u.location = id_of(at.location);
                u.structure = at.structure.map(id_of);
            }
            u.stack_leader = r.get::<StackLeader>().and_then(|s| s.0).map(id_of);
            u.journey = r.get::<Journey>().map(|j| data::Journey {
                from: id_of(j.from),
                to: id_of(j.to),
                mode: catalog.rules.movement.modes[j.mode].tag.clone(),
                days: j.days,
                elapsed: j.elapsed,
                kind: j.kind,
            });
            u.items = r
                .get::<Inventory>()
                .map(|inv| {
                    inv.0
                        .iter()
                        .map(|h| ItemHolding(catalog.item_tag(h.item).to_string(), h.count, h.equipped))
                        .collect()
                })
                .unwrap_or_default();
            u.skills = r
                .get::<Skills>()
                .map(|s| s.0.iter().map(|&(id, exp)| SkillExperience(catalog.skill_tag(id).to_string(), exp)).collect())
                .unwrap_or_default();
            u.production = r.get::<Production>().and_then(|p| p.0).map(|(s, x)| (catalog.skill_tag(s).to_string(), x));
            u.effects = r
                .get::<Effects>()
                .map(|x| x.0.iter().map(|&(id, d)| data::EffectDays(catalog.effect_tag(id).to_string(), d)).collect())
                .unwrap_or_default();
            u.orders = r
                .get::<Orders>()
                .map(|o| o.0.iter().map(|q| q.entry.written(catalog).to_string()).collect())
                .unwrap_or_default();
            u
        })
        .collect();
    Scenario { game, factions, locations, structures, units, orders: Vec::new() }
}

/// A unit made during a turn (RECRUIT, SPLIT).
#[derive(Debug, Clone)]
pub struct NewUnit {
    /// Its permanent id.
    pub id: Tag,
    /// Name.
    pub name: String,
    /// Owning faction.
    pub owner: Entity,
    /// Race.
    pub race: RaceId,
    /// Figures.
    pub figures: u32,
    /// Where it stands.
    pub at: At,
    /// The unit it is stacked under.
    pub leader: Option<Entity>,
    /// Items.
    pub items: Vec<Holding>,
    /// Skills, with experience.
    pub skills: Vec<(SkillId, u32)>,
    /// Its order list.
    pub orders: Vec<crate::systems::overlord::orders::queue::Queued>,
    /// The unit it comes after in report order.
    pub after: Option<Entity>,
}

/// Spawns a unit made during a turn, with the same components as a loaded one, and
/// lists it in the directory right after `after`.
pub fn spawn_unit(world: &mut World, n: NewUnit) -> Entity {
    let seq = world.resource::<Directory>().next_seq(Kind::Unit);
    let cold = data::Unit { id: n.id.clone(), name: n.name.clone(), ..Default::default() };
    let e = world
        .spawn((
            Seq(seq),
            Id(n.id.clone()),
            DisplayName(n.name),
            Owner(n.owner),
            Race(n.race),
            Figures(n.figures),
            n.at,
            StackLeader(n.leader),
            Inventory(n.items),
            Skills(n.skills),
            Effects::default(),
            Production::default(),
            Orders(n.orders),
            Events::default(),
            Unit(cold),
        ))
        .id();
    world.resource_mut::<Directory>().insert_unit_after(&n.id, e, n.after);
    e
}

/// Spawns a structure made during a turn (a building started, a vessel launched),
/// with the same components as a loaded one, last in report order. `s.location`
/// must name `at`.
pub fn spawn_structure(world: &mut World, s: data::Structure, kind: usize, at: Entity) -> Entity {
    let seq = world.resource::<Directory>().next_seq(Kind::Structure);
    let id = s.id.clone();
    let e = world.spawn(structure_bundle(seq, s, kind, at)).id();
    world.resource_mut::<Directory>().insert(Kind::Structure, &id, e);
    e
}

/// The components of a structure.
fn structure_bundle(seq: u32, s: data::Structure, kind: usize, at: Entity) -> impl Bundle {
    (Seq(seq), Id(s.id.clone()), DisplayName(s.name.clone()), StructureAt(at), StructureKind(kind), Structure(s))
}

#[cfg(test)]
mod tests {
    use super::{Clock, Month};
    use crate::systems::overlord::testkit::{alpha, engine};

    #[test]
    fn a_loaded_world_saves_back_to_the_same_scenario() {
        // Orders are written back in canonical form (`@ guard` → `@GUARD`); everything
        // else comes back as loaded, and a second round trip changes nothing.
        let mut s = alpha();
        s.orders.clear();
        let e = engine(s.clone());
        let back = e.state();
        let strip = |mut s: crate::systems::overlord::data::Scenario| {
            s.units.iter_mut().for_each(|u| u.orders.clear());
            s
        };
        assert_eq!(strip(back.clone()), strip(s.clone()));
        for (a, b) in s.units.iter().zip(&back.units) {
            assert_eq!(a.orders.len(), b.orders.len(), "unit {}", a.id);
        }
        assert_eq!(engine(back.clone()).state(), back);
        let guard = back.units.iter().find(|u| u.id == "U2").unwrap();
        assert_eq!(guard.orders, ["@GUARD"]);
    }

    #[test]
    fn a_turn_advances_the_turn_and_the_month() {
        let mut e = engine(alpha());
        e.run_turn(|_, _| {});
        let s = e.state();
        assert_eq!(s.game.turn, 1);
        let (clock, month) = (*e.world().resource::<Clock>(), e.world().resource::<Month>().0);
        assert_eq!((clock.turn, month, clock.tick), (1, 0, 30));
        e.run_turn(|_, _| {});
        let (clock, month) = (*e.world().resource::<Clock>(), e.world().resource::<Month>().0);
        assert_eq!((clock.turn, month), (2, 1));
    }

    #[test]
    fn months_wrap_around_the_calendar() {
        let mut g = alpha().game;
        g.start_month = 10;
        assert_eq!(super::month_of_turn(&g, 12, 0), 10);
        assert_eq!(super::month_of_turn(&g, 12, 1), 10);
        assert_eq!(super::month_of_turn(&g, 12, 3), 0);
    }
}
