//! Spells cast in the world: USE of enchanting, summoning and ritual skills
//! (SKL-USE-OTHER, MAG-COST, MAG-TARGET, MAG-RETARGET, MAG-SEASON, MAG-MEDITATE,
//! ITM-ENCH).
//!
//! A casting is a batch of work, as crafting is (`skill_use`): it takes the
//! level's `production.days` figure-days (one when none is given), sped by the
//! season's and the structure's `use` bonuses for the skill (CLI-MAGIC, MAG-SEASON),
//! and pays its mana (`use_mana`) and components (`production.inputs`) when it
//! starts (MAG-COST). A caster lacking them waits, and its report says what it
//! lacks. `USE skill N` casts N times; `USE skill` is one day of casting. Moving or
//! using another skill spoils a casting under way; changing its target loses part
//! of it and pays again ([`Retarget`], MAG-RETARGET).
//!
//! The target (MAG-TARGET) is the level's `target`: none or `Own`, the caster
//! itself; `Unit`, the unit TARGET names, in the caster's place (`Local`), or
//! anywhere (`Any`); `Location`, the place TARGET names, the caster's own (`Local`)
//! or one an exit leads to (`Near`); `Construction`, the structure TARGET names,
//! standing in the caster's place (`Local`) or in one an exit leads to (`Near`). A spell whose target is missing or out of reach
//! cannot be cast: the order is removed with the reason.
//!
//! What a finished casting does:
//! * **Enchant**: each of the level's `grants` is put on the target unit, place or
//!   structure for its number of days, added to what is left of it (ITM-ENCH; the
//!   effects wear off in `effects`; the units of an enchanted place, or inside an
//!   enchanted structure, are under its enchantments).
//! * **Summon**: `summon.count` figures of `summon.race` join, at the end of the day,
//!   the target unit, which must be the caster's faction's and of that race, or a
//!   new unit of the caster's faction named by TARGET (`f05nU01`), or with no target
//!   a new unit, stacked under the caster; its new id resolves as a recruit's does.
//!   Figures joining a unit dilute its effects, as MERGE does.
//! * **Action**: the output is an event; `parameters.mana_event` (Meditate,
//!   Ritual) gives the target one point of mana per event made, above its maximum if
//!   so (MAG-MEDITATE). Other events (visions of a place…) are not carried out yet.

use super::support;
use crate::core::engine::plan::Clock;
use crate::systems::overlord::data::{TargetKind, TargetScope, UseKind, is_new_id_of, ordinal};
use crate::systems::overlord::mechanics::intake::NewIds;
use crate::systems::overlord::mechanics::scheduler::{Act, Visiting, label, not_yet, waits};
use crate::systems::overlord::mechanics::skill_use::{
    Retarget, Spec, Specs, UseHandlers, batches, daily_work, first_inputs,
};
use crate::systems::overlord::mechanics::transfer;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::{Entry, Order};
use crate::systems::overlord::world::components::{
    At, Effects, Events, Exits, Figures, Id, Inventory, Owner, Race, SkillTarget, StructureAt,
};
use crate::systems::overlord::world::ids::{RaceId, SkillId};
use crate::systems::overlord::world::resources::{Directory, Kind};
use crate::systems::overlord::world::{Catalog, NewUnit, spawn_unit};
use bevy_ecs::prelude::*;

/// Registers the spells' kinds of use.
pub fn register(h: &mut UseHandlers) {
    h.set(module_path!(), UseKind::Enchant, cast, Retarget::LosePartAndRepay);
    h.set(module_path!(), UseKind::Summon, cast, Retarget::LosePartAndRepay);
    h.set(module_path!(), UseKind::Action, cast, Retarget::LosePartAndRepay);
}

/// Figures summoned today, joining at the day's end.
#[derive(Resource, Debug, Default)]
pub struct Summoned(Vec<Summoning>);

#[derive(Debug, Clone)]
struct Summoning {
    caster: Entity,
    race: RaceId,
    figures: u32,
    /// Where they go.
    into: Joining,
    skill: SkillId,
    /// The new unit's name, when the level gives one.
    name: String,
}

/// Where summoned figures go.
#[derive(Debug, Clone)]
enum Joining {
    /// Into this unit, if it is still of their race.
    Unit(Entity),
    /// Into a new unit with this new id (empty: an id of the engine's).
    New(String),
}

/// What a spell is cast on.
#[derive(Debug, Clone)]
enum Aim {
    Unit(Entity),
    NewUnit(String),
    /// A location or a structure.
    Place(Entity),
}

/// USE of a spell: enchanting, summoning or a ritual.
fn cast(act: &mut Act, entry: &mut Entry, skill: SkillId, level: u32) -> Outcome {
    let Order::Use { count, .. } = entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let catalog = act.catalog().clone();
    let s = &catalog.rules.skills[skill.index()];
    let Some(spec) = act.world.resource::<Specs>().0[skill.index()][level as usize - 1].clone() else {
        return Outcome::Invalid(format!("{} [{}] does nothing at the {} level", s.name, s.tag, ordinal(level)));
    };
    let gap = act.world.resource::<support::Gaps>().of(skill.index(), level as usize).map(str::to_string);
    if let Some(what) = gap {
        not_yet(act.world, me, act.day, entry, &what);
        return Outcome::NotNow;
    }
    let Some(at) = act.at(me) else { return Outcome::NotNow };
    let aim = match aim(act, &catalog, skill, level, at) {
        Ok(a) => a,
        Err(why) => return Outcome::Invalid(why),
    };
    let figures = act.working_figures(me);
    if figures == 0 {
        return Outcome::NotNow;
    }
    let Some(wip) = first_inputs(act, skill, &spec) else {
        let why = lacking(act, &catalog, &spec);
        waits(act.world, me, act.day, entry, &why);
        return Outcome::NotNow;
    };
    let gain = daily_work(act, &catalog, skill, &spec.tools, figures);
    let mut remaining = count;
    batches(act, skill, &spec, wip, gain, |act| {
        done(act, &catalog, skill, level, &aim);
        if let Some(n) = remaining.as_mut() {
            *n = n.saturating_sub(1);
        }
        remaining != Some(0)
    });
    if let (Some(n), Order::Use { count: c, .. }) = (remaining, &mut entry.order) {
        *c = Some(n);
        if n == 0 {
            return Outcome::Ran(Progress::Done);
        }
    }
    Outcome::Ran(if count.is_some() { Progress::Continue } else { Progress::Step })
}

/// What the caster lacks to start a casting, for its report.
fn lacking(act: &Act, catalog: &Catalog, spec: &Spec) -> String {
    let inv = act.world.get::<Inventory>(act.unit);
    let have = |i| inv.map_or(0, |v| v.count(i));
    let short: Vec<String> = spec
        .inputs
        .iter()
        .filter(|&&(i, n)| have(i) < n)
        .map(|&(i, n)| format!("{} (has {})", catalog.items_text(i, u64::from(n)), have(i)))
        .collect();
    if catalog.mana().is_some_and(|m| spec.inputs.iter().any(|&(i, n)| i == m && have(i) < n)) {
        format!("too little mana: it needs {}", short.join(", "))
    } else {
        format!("it lacks {}", short.join(", "))
    }
}

/// The target of the level, or why the spell cannot be cast (MAG-TARGET).
fn aim(act: &Act, catalog: &Catalog, skill: SkillId, level: u32, at: At) -> Result<Aim, String> {
    let s = &catalog.rules.skills[skill.index()];
    let lv = &s.system.levels[level as usize - 1];
    let Some(t) = lv.target.as_ref().filter(|t| t.kind != TargetKind::Own) else {
        // No target: the caster itself, or, for a summons, a new unit.
        return Ok(if s.system.use_kind == Some(UseKind::Summon) {
            Aim::NewUnit(String::new())
        } else {
            Aim::Unit(act.unit)
        });
    };
    let word = act.world.get::<SkillTarget>(act.unit).and_then(|t| t.0.clone());
    let Some(word) = word else {
        let what = match t.kind {
            TargetKind::Location => "a place",
            TargetKind::Construction => "a structure",
            _ => "a unit",
        };
        return Err(format!("{} [{}] needs a target: give TARGET and {what} first", s.name, s.tag));
    };
    match t.kind {
        TargetKind::Unit | TargetKind::Own => {
            if let Some(u) = act.unit_named(&word) {
                let here = act.at(u).is_some_and(|a| a.location == at.location);
                if t.scope != TargetScope::Any && !here && u != act.unit {
                    return Err(format!("its target {word} is not here"));
                }
                if let Some(sm) = lv.summon.as_ref().filter(|_| s.system.use_kind == Some(UseKind::Summon)) {
                    let ours = act.faction_of(u) == act.faction_of(act.unit);
                    let same = act.world.get::<Race>(u).is_some_and(|r| Some(r.0) == catalog.race(&sm.race));
                    if !ours || !same {
                        return Err(format!(
                            "the {} it summons join a unit of its faction of their race, or a new unit: not {word}",
                            sm.race
                        ));
                    }
                }
                return Ok(Aim::Unit(u));
            }
            let faction = act.faction_of(act.unit).and_then(|f| act.world.get::<Id>(f)).map(|i| i.0.clone());
            let ours = faction.is_some_and(|f| is_new_id_of(&word, 'U', &f));
            if s.system.use_kind == Some(UseKind::Summon) && ours {
                return Ok(Aim::NewUnit(word));
            }
            Err(format!("its target {word} is not a unit it can reach"))
        }
        TargetKind::Location | TargetKind::Construction => {
            let (kind, what) = if t.kind == TargetKind::Location {
                (Kind::Location, "a place")
            } else {
                (Kind::Structure, "a structure")
            };
            let target = act.world.resource::<Directory>().get(kind, &word);
            // A structure is reached where it stands.
            let place = target.and_then(|e| match kind {
                Kind::Structure => act.world.get::<StructureAt>(e).map(|a| a.0),
                _ => Some(e),
            });
            let (Some(target), Some(place)) = (target, place) else {
                return Err(format!("its target {word} is not {what}"));
            };
            let near = || act.world.get::<Exits>(at.location).is_some_and(|x| x.0.iter().any(|e| e.to == place));
            let ok = match t.scope {
                TargetScope::Any => true,
                TargetScope::Local => place == at.location,
                TargetScope::Near => place == at.location || near(),
            };
            if ok { Ok(Aim::Place(target)) } else { Err(format!("its target {word} is out of its reach")) }
        }
    }
}

/// A casting is finished: its effect.
fn done(act: &mut Act, catalog: &Catalog, skill: SkillId, level: u32, aim: &Aim) {
    let s = &catalog.rules.skills[skill.index()];
    let lv = &s.system.levels[level as usize - 1];
    let me = act.unit;
    match (s.system.use_kind, aim) {
        (Some(UseKind::Enchant), Aim::Unit(u) | Aim::Place(u)) => {
            let u = *u;
            let mut given = Vec::new();
            for g in &lv.grants {
                let Some(e) = catalog.effect(&g.0) else { continue };
                let Some(mut fx) = act.world.get_mut::<Effects>(u) else { continue };
                match fx.0.iter_mut().find(|x| x.0 == e) {
                    Some(x) => x.1 = x.1.saturating_add(g.1),
                    None => fx.0.push((e, g.1)),
                }
                given.push(effect_text(catalog, &g.0, g.1));
            }
            let what = given.join(", ");
            let spell = format!("{} [{}]", s.name, s.tag);
            if matches!(aim, Aim::Place(_)) {
                let place = label(act.world, u);
                act.event(me, format!("Cast {spell} on {place}: {what}."));
                return;
            }
            tell(
                act,
                u,
                format!("Cast {spell} on itself: {what}."),
                |target| format!("Cast {spell} on {target}: {what}."),
                |caster| format!("{caster} cast {spell} on it: {what}."),
            );
        }
        (Some(UseKind::Summon), aim) => {
            let Some(sm) = &lv.summon else { return };
            let Some(race) = catalog.race(&sm.race) else { return };
            let into = match aim {
                Aim::Unit(u) => Joining::Unit(*u),
                Aim::NewUnit(w) => Joining::New(w.clone()),
                Aim::Place(_) => Joining::New(String::new()),
            };
            act.world.resource_mut::<Summoned>().0.push(Summoning {
                caster: me,
                race,
                figures: sm.count.max(1),
                into,
                skill,
                name: sm.name.clone(),
            });
        }
        (Some(UseKind::Action), Aim::Unit(u)) => {
            let Some(mana) = catalog.mana() else { return };
            let n =
                act.world.resource::<Specs>().0[skill.index()][level as usize - 1].as_ref().map_or(1, |p| p.multiple);
            let u = *u;
            transfer::add(&mut act.world.get_mut::<Inventory>(u).expect("unit"), mana, n);
            let points = catalog.items_text(mana, u64::from(n));
            let spell = format!("{} [{}]", s.name, s.tag);
            tell(
                act,
                u,
                format!("Used {spell}: gained {points}."),
                |target| format!("Used {spell}: lent {points} to {target}."),
                |caster| format!("{caster} lent it {points} by {spell}."),
            );
        }
        _ => {}
    }
}

/// Tells the caster what its spell did to `u`, itself (`on_self`) or another unit
/// (`to_caster` with the target's name), which is told too (`to_target` with the
/// caster's name).
fn tell(
    act: &mut Act,
    u: Entity,
    on_self: String,
    to_caster: impl FnOnce(&str) -> String,
    to_target: impl FnOnce(&str) -> String,
) {
    let me = act.unit;
    if u == me {
        act.event(me, on_self);
        return;
    }
    let (target, caster) = (act.name(u), act.name(me));
    act.event(me, to_caster(&target));
    act.event(u, to_target(&caster));
}

/// "4 days of swimming".
fn effect_text(catalog: &Catalog, tag: &str, days: u32) -> String {
    match catalog.rules.enchantments.enchantments.iter().find(|e| e.tag == tag) {
        Some(e) => {
            let name = if days == 1 || e.plural.is_empty() { &e.name } else { &e.plural };
            format!("{days} {name} [{tag}]")
        }
        None => format!("{days} {tag}"),
    }
}

/// The day's end: summoned figures join their units, or form new ones stacked
/// under their casters.
pub fn summoned_arrive(world: &mut World) {
    let list = std::mem::take(&mut world.resource_mut::<Summoned>().0);
    if list.is_empty() {
        return;
    }
    let catalog = world.resource::<Catalog>().clone();
    let day = world.resource::<Clock>().tick;
    world.resource_mut::<Visiting>().invalidate();
    for s in list {
        let r = &catalog.rules.races[s.race.index()];
        let plural = catalog.race_name_for(s.race, u64::from(s.figures));
        let what = format!("{} {plural} [{}]", s.figures, r.tag);
        let spell = &catalog.rules.skills[s.skill.index()];
        let text = match &s.into {
            Joining::Unit(u) if join(world, *u, s.race, s.figures) => {
                format!("{what} answered {} [{}] and joined {}.", spell.name, spell.tag, label(world, *u))
            }
            // A unit no longer of their race: they form a new one.
            into => {
                let new_id = if let Joining::New(w) = into { w.as_str() } else { "" };
                let Some(e) = new_unit(world, &catalog, &s, new_id) else { continue };
                format!("{what} answered {} [{}] as {}.", spell.name, spell.tag, label(world, e))
            }
        };
        if let Some(mut ev) = world.get_mut::<Events>(s.caster) {
            ev.push(day, text);
        }
    }
}

/// `figures` of `race` join unit `u`, if it is still of that race; its effects are
/// diluted as by MERGE (ITM-ENCH).
fn join(world: &mut World, u: Entity, race: RaceId, figures: u32) -> bool {
    if world.get::<Race>(u).is_none_or(|r| r.0 != race) {
        return false;
    }
    let have = world.get::<Figures>(u).map_or(0, |f| f.0);
    let total = u64::from(have) + u64::from(figures);
    if let Some(mut fx) = world.get_mut::<Effects>(u) {
        for x in fx.0.iter_mut() {
            x.1 = (u64::from(x.1) * u64::from(have) / total.max(1)) as u32;
        }
        fx.0.retain(|x| x.1 > 0);
    }
    world.get_mut::<Figures>(u).expect("unit").0 = have + figures;
    true
}

/// A new unit of summoned figures, stacked under its caster.
fn new_unit(world: &mut World, catalog: &Catalog, s: &Summoning, new_id: &str) -> Option<Entity> {
    let at = world.get::<At>(s.caster).copied()?;
    let owner = world.get::<Owner>(s.caster)?.0;
    let id = world.resource::<Directory>().next_unit_id();
    let orders = if new_id.is_empty() { Vec::new() } else { NewIds::adopt(world, new_id, &id) };
    let race = &catalog.rules.races[s.race.index()];
    let skills = race.system.innate_skills.iter().filter_map(|k| catalog.skill(&k.0).map(|x| (x, k.1))).collect();
    let plural = catalog.race_name_for(s.race, u64::from(s.figures));
    let name = if s.name.is_empty() { format!("{} {plural}", s.figures) } else { s.name.clone() };
    let e = spawn_unit(
        world,
        NewUnit {
            id,
            name,
            owner,
            race: s.race,
            figures: s.figures,
            at,
            leader: Some(s.caster),
            items: Vec::new(),
            skills,
            orders,
            after: Some(s.caster),
        },
    );
    NewIds::watch(world, e);
    Some(e)
}
