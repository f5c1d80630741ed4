//! Structures and vessels: BUILD, USE of building skills, CHRISTEN, owners
//! (ORD-TARGET, ORD-BUILD, ORD-CHRISTEN; STR-START, STR-WORK, STR-RULES, STR-COST,
//! STR-OWNER, STR-BENEFIT, STR-PROD, STR-SHIP).
//!
//! **Buildings** are made of *works* (`constructions.ron`: a mine needs 75 wood
//! structure works). A building skill (`use_kind: Build`, e.g. carpentry) turns
//! its inputs into works: each batch of the level's production takes `days`
//! figure-days, consumes the inputs when it starts (1 wood) and puts `multiple`
//! works into the targeted structure, as crafting does (SKL-USE-CRAFT). The unit
//! aims with `TARGET`:
//!
//! * `TARGET mine` (a construction tag): the unit's first batch starts a new mine in
//!   its location, unless its faction already has an unfinished mine there, which it
//!   then works on (units that target the same tag work on the same building). The
//!   target becomes the new structure's id.
//! * `TARGET B3` (a structure id): work on B3, which must stand in the unit's
//!   location and be unfinished. The builder need not be inside.
//! * `BUILD skill [what] [count]` is TARGET `what` followed by USE (RULINGS §14).
//!
//! A unit that changes its target (TARGET, `skill_use`) loses the work of its
//! unfinished batch (ORD-TARGET).
//! A construction can be started only where the terrain is neither water nor
//! `no_build`, and only by units with its `building_skill` experience; every
//! contributor needs that experience too. Nobody may enter before it is complete.
//! Structures always stand in a location, never in another structure; builders may
//! work from inside a structure (docks).
//!
//! **Vessels** and other constructions made whole (`use_kind: Construction`, e.g.
//! shipcraft making a fishing boat) are crafted like items: the batch's inputs go
//! when it starts, and each finished batch launches a complete structure of the
//! output's kind in the unit's location. A vessel with a capacity in a water mode
//! needs water next to its yard: the location must be on a coast. It then moves
//! with its captain (see `movement`).
//!
//! **New ids**: a structure started by a faction takes the lowest-numbered new
//! structure id (`f06nB01`) that the faction's orders name and no structure has
//! taken yet; orders naming it then name the permanent id (FILE-NEWID-LIFE).
//!
//! **Owners** (STR-OWNER): the structure's owner unit is the first unit inside it in
//! report order. Its faction, recorded as the structure's `owner`, keeps it when
//! nobody is inside; the owner is updated at the end of each month. The structure
//! counts as guarded: ENTER needs the owner (or, when empty, the owning faction) to
//! hold the unit's faction at least Friendly.
//!
//! **Benefits** (STR-BENEFIT, STR-PROD) come from the construction's data, for units
//! inside a complete structure: `bonuses.study` speeds study, `bonuses.use` and
//! `bonuses.production` speed the work of a skill.

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::{self, UseKind};
use crate::systems::overlord::mechanics::intake::NewIds;
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, label};
use crate::systems::overlord::mechanics::skill_use::{
    Retarget, Spec, Specs, UseHandlers, batches, daily_work, first_inputs, set_target, target_word,
};
use crate::systems::overlord::orders::line::{is_new_id, is_new_id_of};
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::orders::syntax::{Entry, Order};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::NewStructure;
use crate::systems::overlord::world::components::{
    At, DisplayName, Events, Exits, Id, Missing, Owner, SkillTarget, Skills, StructureAt, StructureKind,
    StructureOwner, Terrain,
};
use crate::systems::overlord::world::ids::SkillId;
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

#[cfg(test)]
mod tests;

/// Registers BUILD and CHRISTEN, USE of building skills, and the month-end update of owners.
pub struct StructuresPlugin;

impl Plugin for StructuresPlugin {
    fn build(&self, app: &mut App) {
        let mut h = app.world_mut().resource_mut::<OrderHandlers>();
        h.set(module_path!(), Keyword::Build, build);
        h.set(module_path!(), Keyword::Christen, christen);
        let mut u = app.world_mut().resource_mut::<UseHandlers>();
        u.set(module_path!(), UseKind::Build, use_building_skill, Retarget::LoseAll);
        u.set(module_path!(), UseKind::Construction, use_building_skill, Retarget::LoseAll);
        app.add_step_system("owners", update_owners);
    }
}

/// USE of a building skill (ORD-USE).
fn use_building_skill(act: &mut Act, entry: &mut Entry, skill: SkillId, _level: u32) -> Outcome {
    let Order::Use { mut count, .. } = entry.order else { return Outcome::NotNow };
    let out = building_use(act, skill, &mut count);
    if let Order::Use { count: c, .. } = &mut entry.order {
        *c = count;
    }
    out
}

/// ORD-BUILD: `BUILD skill [what] [count]` is TARGET `what` then USE (RULINGS §14).
fn build(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Build { skill, what, count } = &entry.order else { return Outcome::NotNow };
    let (skill, mut count) = (*skill, *count);
    let kind = act.catalog().rules.skills[skill.index()].system.use_kind;
    if !matches!(kind, Some(UseKind::Build | UseKind::Construction)) {
        let s = &act.catalog().rules.skills[skill.index()];
        return Outcome::Invalid(format!("{} [{}] is not a building skill", s.name, s.tag));
    }
    if let Some(w) = what {
        let word = target_word(w).to_string();
        set_target(act, &word);
    }
    let out = building_use(act, skill, &mut count);
    if let Order::Build { count: c, .. } = &mut entry.order {
        *c = count;
    }
    out
}

/// The unit's level in `skill` (0 if unknown).
fn level_of(act: &Act, skill: SkillId) -> u32 {
    act.world.get::<Skills>(act.unit).map_or(0, |k| k.level(act.catalog(), skill))
}

/// Whether the unit has `req`'s experience in its skill.
fn has_experience(act: &Act, req: &data::SkillExperience) -> bool {
    let Some(skill) = act.catalog().skill(&req.0) else { return false };
    act.world.get::<Skills>(act.unit).is_some_and(|k| k.0.iter().any(|x| x.0 == skill && x.1 >= req.1))
}

/// The construction `index`'s name.
fn construction_name(catalog: &Catalog, index: usize) -> &str {
    &catalog.rules.constructions.constructions[index].name
}

/// USE of a building skill (`use_kind: Build`) or of a skill making whole
/// constructions (`use_kind: Construction`), for `USE` and `BUILD`. `count` is the
/// stop condition: works put in, or constructions made.
pub fn building_use(act: &mut Act, skill: SkillId, count: &mut Option<u32>) -> Outcome {
    let catalog = act.catalog().clone();
    let s = &catalog.rules.skills[skill.index()];
    let level = level_of(act, skill);
    if level == 0 {
        return Outcome::Invalid(format!("the unit does not know {} [{}] at 1st level", s.name, s.tag));
    }
    let Some(spec) = act.world.resource::<Specs>().0[skill.index()][level as usize - 1].clone() else {
        return Outcome::Invalid(format!("{} [{}] makes nothing at this level", s.name, s.tag));
    };
    let Some(output) = s.system.levels[level as usize - 1].production.as_ref().and_then(|p| p.output.as_deref()) else {
        return Outcome::Invalid(format!("{} [{}] makes nothing at this level", s.name, s.tag));
    };
    let Some(at) = act.at(act.unit) else { return Outcome::NotNow };
    match s.system.use_kind {
        Some(UseKind::Build) => put_in_works(act, skill, &spec, output, at, count),
        _ => make_constructions(act, skill, &spec, output, at, count),
    }
}

/// Where a new structure may stand (STR-RULES): not on water, not on `no_build`
/// terrain. `Err` gives the reason.
fn may_build_at(world: &World, location: Entity) -> Result<(), String> {
    let catalog = world.resource::<Catalog>();
    let Some(t) = world.get::<Terrain>(location) else { return Err("nothing can be built here".into()) };
    let terrain = &catalog.rules.terrains[t.0.index()];
    if terrain.water {
        return Err(format!("nothing can be built on water ({})", terrain.name));
    }
    if terrain.system.no_build {
        return Err(format!("nothing can be built on {}", terrain.name));
    }
    Ok(())
}

/// Whether `location` is water or borders water (a coast).
pub fn on_coast(world: &World, location: Entity) -> bool {
    let catalog = world.resource::<Catalog>();
    let water = |l: Entity| world.get::<Terrain>(l).is_some_and(|t| catalog.rules.terrains[t.0.index()].water);
    if water(location) {
        return true;
    }
    world.get::<Exits>(location).is_some_and(|x| x.0.iter().any(|x| water(x.to)))
}

/// What a building skill works on today.
enum Site {
    /// An unfinished structure.
    Existing(Entity),
    /// A new structure of this construction, started by the first batch.
    New(usize),
}

/// Finds the site the unit's target names, or why there is none.
fn site(act: &Act, at: At) -> Result<Site, Outcome> {
    let catalog = act.catalog();
    let Some(word) = act.world.get::<SkillTarget>(act.unit).and_then(|t| t.0.clone()) else {
        return Err(Outcome::Invalid(
            "a building skill needs a TARGET: a construction to start (TARGET mine) or a structure to work on".into(),
        ));
    };
    let dir = act.world.resource::<Directory>();
    if let Some(s) = dir.get(Kind::Structure, &word) {
        if act.world.get::<StructureAt>(s).map(|a| a.0) != Some(at.location) {
            return Err(Outcome::Invalid(format!("{word} is not here")));
        }
        if act.world.get::<Missing>(s).is_some_and(Missing::complete) {
            return Err(Outcome::Invalid(format!("{word} is complete")));
        }
        return Ok(Site::Existing(s));
    }
    if is_new_id(&word, 'B') {
        return Err(Outcome::NotNow);
    }
    let Some(c) = catalog.construction(&word) else {
        return Err(Outcome::Invalid(format!("the target {word} is not a structure or a construction")));
    };
    // STR-START: the faction's unfinished structure of that kind here, if any.
    let faction = act.faction_of(act.unit);
    let found = dir.structures.iter().copied().find(|&s| {
        act.world.get::<StructureKind>(s).is_some_and(|k| k.0 == c)
            && act.world.get::<StructureAt>(s).is_some_and(|a| a.0 == at.location)
            && act.world.get::<Missing>(s).is_some_and(|m| !m.complete())
            && act.world.get::<StructureOwner>(s).is_some_and(|o| o.0 == faction)
    });
    Ok(found.map_or(Site::New(c), Site::Existing))
}

/// The day's batches of a building skill: inputs go when a batch starts, each
/// finished batch puts `multiple` works of `work` into the site.
fn put_in_works(act: &mut Act, skill: SkillId, spec: &Spec, work: &str, at: At, count: &mut Option<u32>) -> Outcome {
    let catalog = act.catalog().clone();
    let site = match site(act, at) {
        Ok(s) => s,
        Err(o) => return o,
    };
    let c = match site {
        Site::Existing(s) => act.world.get::<StructureKind>(s).map_or(0, |k| k.0),
        Site::New(c) => c,
    };
    let construction = &catalog.rules.constructions.constructions[c];
    let works = &catalog.rules.constructions.works;
    let w = works.iter().position(|w| w.tag == work);
    let work_name = w.map_or(work, |w| &works[w].name);
    let needed = match site {
        Site::Existing(s) => {
            act.world.get::<Missing>(s).and_then(|x| x.0.iter().find(|m| Some(m.0) == w).map(|m| m.1)).unwrap_or(0)
        }
        Site::New(_) => construction.materials.iter().find(|m| m.0 == work).map_or(0, |m| m.1),
    };
    if construction.materials.is_empty() {
        return Outcome::Invalid(format!(
            "a {} is not built from works: a skill makes it whole (USE of that skill)",
            construction.name
        ));
    }
    if needed == 0 {
        return Outcome::Invalid(format!("the {} needs no more {work_name}", construction.name));
    }
    if let Some(req) = &construction.building_skill
        && !has_experience(act, req)
    {
        let need = catalog.skill(&req.0).map_or(1, |k| catalog.skill_level(k, req.1));
        return Outcome::Invalid(format!("building a {} needs {} at level {need}", construction.name, req.0));
    }
    if let Site::New(_) = site
        && let Err(why) = may_build_at(act.world, at.location)
    {
        return Outcome::Invalid(why);
    }
    let figures = act.working_figures(act.unit);
    if figures == 0 {
        return Outcome::NotNow;
    }
    let Some(wip) = first_inputs(act, skill, spec) else { return Outcome::NotNow };
    let structure = match site {
        Site::Existing(s) => s,
        Site::New(c) => start(act, c, at.location),
    };
    let id = act.world.get::<Id>(structure).map(|i| i.0.clone()).unwrap_or_default();
    if act.world.get::<SkillTarget>(act.unit).and_then(|t| t.0.as_deref()) != Some(id.as_str()) {
        act.world.get_mut::<SkillTarget>(act.unit).expect("unit").0 = Some(id.clone());
    }
    let (mut left, mut made) = (needed, 0u32);
    batches(act, skill, spec, wip, daily_work(act, &catalog, skill, &spec.tools, figures), |_| {
        let n = spec.multiple.min(left);
        made += n;
        left -= n;
        if let Some(c) = count.as_mut() {
            *c = c.saturating_sub(n);
        }
        left > 0 && *count != Some(0)
    });
    if made > 0 {
        let complete = {
            let mut st = act.world.get_mut::<Missing>(structure).expect("structure");
            if let Some(m) = st.0.iter_mut().find(|m| Some(m.0) == w) {
                m.1 -= made.min(m.1);
            }
            st.0.retain(|m| m.1 > 0);
            st.complete()
        };
        let name = label(act.world, structure);
        act.routine(format!("Put {made} {work_name} into {name}."));
        if complete {
            completed(act, structure);
            return Outcome::Ran(Progress::Done);
        }
    }
    if left == 0 {
        return Outcome::Ran(Progress::Done);
    }
    outcome(*count)
}

/// How a day of a building or construction skill ends, by its stop condition.
fn outcome(count: Option<u32>) -> Outcome {
    match count {
        Some(0) => Outcome::Ran(Progress::Done),
        Some(_) => Outcome::Ran(Progress::Continue),
        None => Outcome::Ran(Progress::Step),
    }
}

/// The acting unit starts a structure of construction `c` at `location`, owned by
/// its faction, with every work still missing.
fn start(act: &mut Act, c: usize, location: Entity) -> Entity {
    let catalog = act.catalog().clone();
    let construction = &catalog.rules.constructions.constructions[c];
    let works = &catalog.rules.constructions.works;
    let missing =
        construction.materials.iter().filter_map(|m| Some((works.iter().position(|w| w.tag == m.0)?, m.1))).collect();
    let s = new_structure(act, c, location, missing);
    let name = label(act.world, s);
    act.log(format!("Started {name}, a {}.", construction.name));
    s
}

/// Spawns a structure of construction `c` for the acting unit's faction, which takes
/// the faction's lowest unused new structure id named in its orders.
fn new_structure(act: &mut Act, c: usize, location: Entity, missing: Vec<(usize, u32)>) -> Entity {
    let catalog = act.catalog().clone();
    let construction = &catalog.rules.constructions.constructions[c];
    let owner = act.faction_of(act.unit);
    let faction = owner.and_then(|f| act.world.get::<Id>(f)).map(|i| i.0.clone());
    let id = act.world.resource::<Directory>().next_structure_id();
    let new = NewStructure { id: id.clone(), name: construction.name.clone(), kind: c, at: location, owner, missing };
    let s = crate::systems::overlord::world::spawn_structure(act.world, new);
    if let Some(f) = faction {
        let new = act.world.resource::<NewIds>();
        let taken = new.blocks.keys().chain(new.named_by.keys()).filter(|k| is_new_id_of(k, 'B', &f)).min().cloned();
        if let Some(new_id) = taken {
            // Skill targets naming the new id now name the structure.
            let naming = act.world.resource::<NewIds>().named_by.get(&new_id).cloned().unwrap_or_default();
            for u in naming {
                if let Some(mut c) = act.world.get_mut::<SkillTarget>(u)
                    && c.0.as_deref() == Some(new_id.as_str())
                {
                    c.0 = Some(id.clone());
                }
            }
            // Structures run no orders: what was given to the new id is dropped.
            NewIds::adopt(act.world, &new_id, &id);
            act.log(format!("The new structure {new_id} is {id}."));
        }
    }
    s
}

/// Says that `structure` is complete, to the unit and its faction.
fn completed(act: &mut Act, structure: Entity) {
    let name = label(act.world, structure);
    act.log(format!("{name} is complete."));
    if let Some(f) = act.faction_of(act.unit) {
        act.event(f, format!("{name} is complete."));
    }
}

/// The day's batches of a skill that makes whole constructions (vessels): crafted
/// like items, each finished batch launches complete structures of kind `output`.
fn make_constructions(
    act: &mut Act,
    skill: SkillId,
    spec: &Spec,
    output: &str,
    at: At,
    count: &mut Option<u32>,
) -> Outcome {
    let catalog = act.catalog().clone();
    let Some(c) = catalog.construction(output) else {
        return Outcome::Invalid(format!("{output} is not a construction of this rule set"));
    };
    let construction = &catalog.rules.constructions.constructions[c];
    if let Err(why) = may_build_at(act.world, at.location) {
        return Outcome::Invalid(why);
    }
    let sails =
        catalog.rules.movement.modes.iter().any(|m| m.system.sails && construction.capacity.contains_key(&m.tag));
    if sails && !on_coast(act.world, at.location) {
        return Outcome::Invalid(format!("a {} is built on a coast, and {} is not on one", construction.name, {
            label(act.world, at.location)
        }));
    }
    let figures = act.working_figures(act.unit);
    if figures == 0 {
        return Outcome::NotNow;
    }
    let Some(wip) = first_inputs(act, skill, spec) else { return Outcome::NotNow };
    let mut made = Vec::new();
    batches(act, skill, spec, wip, daily_work(act, &catalog, skill, &spec.tools, figures), |act| {
        for _ in 0..spec.multiple {
            made.push(new_structure(act, c, at.location, Vec::new()));
        }
        if let Some(n) = count.as_mut() {
            *n = n.saturating_sub(spec.multiple);
        }
        *count != Some(0)
    });
    for s in made {
        let name = label(act.world, s);
        act.log(format!("Built {name}, a {}.", construction_name(&catalog, c)));
        if let Some(f) = act.faction_of(act.unit) {
            act.event(f, format!("{name} was built."));
        }
    }
    outcome(*count)
}

/// The first unit inside structure `s`, in report order: its owner (STR-OWNER).
/// Units on a journey aboard a vessel under way do not count. Reads the units
/// inside, not every unit.
pub fn owner_unit(world: &World, s: Entity) -> Option<Entity> {
    use crate::systems::overlord::world::components::{Journey, occupants};
    let dir = world.resource::<Directory>();
    occupants(world, s)
        .iter()
        .filter(|&&u| world.get_entity(u).is_ok_and(|r| !r.contains::<Journey>()))
        .filter_map(|&u| Some((dir.unit_key(u)?, u)))
        .min()
        .map(|x| x.1)
}

/// Whether the units inside structure `s` are on a journey (a vessel under way).
pub fn under_way(world: &World, s: Entity) -> bool {
    use crate::systems::overlord::world::components::{Journey, occupants};
    occupants(world, s).iter().any(|&u| world.get_entity(u).is_ok_and(|r| r.contains::<Journey>()))
}

/// Whether unit `u` may enter structure `s` (STR-OWNER): the owner unit, or when
/// nobody is inside the owning faction, holds `u`'s faction at least Friendly.
/// Otherwise it slips in unseen when it does not show itself and its stealth beats
/// the best observation of the keeper's units at the place (0 with none there) by
/// the rule set's `sight.structure_margin` (VIS-STRUCT).
pub fn may_enter(world: &World, s: Entity, u: Entity) -> bool {
    use crate::systems::overlord::mechanics::visibility;
    let Some(mine) = world.get::<Owner>(u).map(|o| o.0) else { return false };
    let keeper = match owner_unit(world, s) {
        Some(o) => world.get::<Owner>(o).map(|o| o.0),
        None => world.get::<StructureOwner>(s).and_then(|o| o.0),
    };
    let Some(keeper) = keeper else { return true };
    if mine == keeper
        || crate::systems::overlord::mechanics::diplomacy::grants_unit(world, keeper, u, data::StanceGrant::Enter)
    {
        return true;
    }
    let Some(place) = world.get::<StructureAt>(s).map(|a| a.0) else { return false };
    let day = world.resource::<crate::core::engine::plan::Clock>().tick;
    let me = visibility::facts(world, u, day, false);
    let watch = visibility::best_observation(world, keeper, place).unwrap_or(0);
    !me.shows_itself && me.stealth >= watch.saturating_add(visibility::rules(world).structure_margin)
}

/// ORD-CHRISTEN: the owner of a structure renames it; a unit outside any structure
/// renames its location when the location still bears its terrain's name.
fn christen(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Christen(name) = &entry.order else { return Outcome::NotNow };
    let name = name.clone();
    let Some(at) = act.at(act.unit) else { return Outcome::NotNow };
    if let Some(s) = at.structure {
        if owner_unit(act.world, s) != Some(act.unit) {
            return Outcome::Invalid("only the owner of a structure (the first unit inside) may christen it".into());
        }
        let old = label(act.world, s);
        act.world.get_mut::<DisplayName>(s).expect("structure").0 = name.clone();
        act.log(format!("Christened {old} \"{name}\"."));
        return Outcome::Ran(Progress::Done);
    }
    let catalog = act.catalog().clone();
    let terrain = act.world.get::<Terrain>(at.location).map(|t| catalog.rules.terrains[t.0.index()].name.clone());
    let current = act.world.get::<DisplayName>(at.location).map(|n| n.0.clone()).unwrap_or_default();
    if current.is_empty() || terrain.is_some_and(|t| t.eq_ignore_ascii_case(&current)) {
        let old = label(act.world, at.location);
        act.world.get_mut::<DisplayName>(at.location).expect("location").0 = name.clone();
        act.log(format!("Christened {old} \"{name}\"."));
        return Outcome::Ran(Progress::Done);
    }
    Outcome::Invalid("only a structure's owner, or a location still named after its terrain, can be christened".into())
}

/// Month end (STR-OWNER): each occupied structure belongs to the faction of its first
/// unit inside; an empty one keeps its owner.
fn update_owners(world: &mut World) {
    use crate::systems::overlord::world::components::occupants;
    let dir = world.resource::<Directory>();
    // The first unit inside, in report order (a vessel's passengers under way too).
    let first = |s: Entity| occupants(world, s).iter().filter_map(|&u| Some((dir.unit_key(u)?, u))).min().map(|x| x.1);
    let mut changes = Vec::new();
    for &s in &dir.structures {
        let Some(u) = first(s) else { continue };
        let Some(f) = world.get::<Owner>(u).map(|o| o.0) else { continue };
        if world.get::<StructureOwner>(s).is_some_and(|o| o.0 != Some(f)) {
            changes.push((s, f, u));
        }
    }
    for (s, f, u) in changes {
        world.get_mut::<StructureOwner>(s).expect("structure").0 = Some(f);
        let name = label(world, s);
        let day = world.resource::<crate::core::engine::plan::Clock>().tick;
        if let Some(mut e) = world.get_mut::<Events>(u) {
            e.push(day, format!("Its faction now owns {name}, as this unit is the first inside."));
        }
    }
}
