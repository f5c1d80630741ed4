//! Moving figures between units: SPLIT and MERGE (ORD-SPLIT, ORD-MERGE, UNIT-HOMOG,
//! SKL-MERGE, SKL-MERGE-BASIC, ITM-ENCH, CASH-DISSENT).
//!
//! * `SPLIT new-id number` makes a new unit of `number` figures, right after the
//!   splitting unit, in the same place and stack, which keeps at least one figure.
//!   Figures without equipment go first; the rest take their equipment along, still
//!   equipped. Unequipped items stay behind. Skills and effects are copied whole (no
//!   experience is lost). The new id resolves in every list, as for RECRUIT.
//! * `MERGE unit-id number` moves `number` figures into a unit of the same faction
//!   and race in the same place, or into one of the faction's stockpiles (a unit
//!   with no figures left). Experience becomes the figure-weighted average. If the
//!   target would end up with two basic skills that are not combat skills, the
//!   incoming figures forget theirs, with their trees, first. Effects are diluted
//!   the same way, except disaffection, which the receiving unit catches whole.
//!   Items stay behind. `number` 0 moves every figure and every item, and the empty
//!   unit is gone. Moving every figure with a number leaves the unit as a stockpile
//!   of its items, with no orders.
//!
//! The rules let any stockpile receive figures. This engine keeps figures within a
//! faction (UNIT-XFER: only whole units change faction), so the target must be the
//! faction's own.

use crate::systems::overlord::data::SkillFlag;
use crate::systems::overlord::mechanics::intake::NewIds;
use crate::systems::overlord::mechanics::scheduler::{Act, DropOrders, OrderHandlers, Visiting};
use crate::systems::overlord::mechanics::study::SkillTree;
use crate::systems::overlord::orders::line::is_new_id_of;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::orders::syntax::{Entry, Order};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Effects, Figures, Holding, Id, Inventory, Race, Skills};
use crate::systems::overlord::world::ids::SkillId;
use crate::systems::overlord::world::resources::{Directory, Kind};
use crate::systems::overlord::world::{NewUnit, spawn_unit};
use bevy_app::{App, Plugin};

#[cfg(test)]
mod tests;

/// Registers SPLIT and MERGE.
pub struct MergePlugin;

impl Plugin for MergePlugin {
    fn build(&self, app: &mut App) {
        let mut h = app.world_mut().resource_mut::<OrderHandlers>();
        h.set(module_path!(), Keyword::Split, split);
        h.set(module_path!(), Keyword::Merge, merge);
    }
}

/// How many figures of a unit carry equipment: the most any one item needs.
fn equipped_figures(catalog: &Catalog, inv: &Inventory) -> u32 {
    inv.0
        .iter()
        .filter(|h| h.equipped > 0)
        .map(|h| h.equipped.div_ceil(catalog.rules.items[h.item.index()].system.max_per_figure.max(1)))
        .max()
        .unwrap_or(0)
}

/// Takes from `inv` the equipment of `n` equipped figures; returns it, equipped.
fn take_equipment(catalog: &Catalog, inv: &mut Inventory, n: u32) -> Vec<Holding> {
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    for h in inv.0.iter_mut().filter(|h| h.equipped > 0) {
        let per = catalog.rules.items[h.item.index()].system.max_per_figure.max(1);
        let k = h.equipped.min(n.saturating_mul(per));
        h.equipped -= k;
        h.count -= k;
        out.push(Holding { item: h.item, count: k, equipped: k });
    }
    inv.0.retain(|h| h.count > 0);
    out
}

/// ORD-SPLIT.
fn split(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Split { new: new_id, count } = &entry.order else { return Outcome::NotNow };
    let (new_id, count) = (new_id.clone(), *count);
    let me = act.unit;
    let Some(faction) = act.faction_of(me) else { return Outcome::NotNow };
    let faction_id = act.world.get::<Id>(faction).map(|i| i.0.clone()).unwrap_or_default();
    if !is_new_id_of(&new_id, 'U', &faction_id) {
        return Outcome::Invalid(format!(
            "a split makes a new unit, named {faction_id}nU00 to {faction_id}nU99, not {new_id}"
        ));
    }
    if act.world.resource::<Directory>().get(Kind::Unit, &new_id).is_some() {
        return Outcome::Invalid(format!("{new_id} has already been created"));
    }
    let figures = act.figures(me);
    if count == 0 {
        return Outcome::Invalid("SPLIT needs a number of figures".into());
    }
    if figures <= count {
        return Outcome::NotNow;
    }
    let Some(at) = act.at(me) else { return Outcome::NotNow };
    let catalog = act.catalog().clone();
    let race = act.world.get::<Race>(me).expect("unit").0;
    let skills = act.world.get::<Skills>(me).expect("unit").0.clone();
    let effects = act.world.get::<Effects>(me).expect("unit").0.clone();
    let leader = act.leader_of(me);
    // Figures without equipment go first.
    let items = {
        let mut inv = act.world.get_mut::<Inventory>(me).expect("unit");
        let bare = figures - equipped_figures(&catalog, &inv).min(figures);
        take_equipment(&catalog, &mut inv, count.saturating_sub(bare))
    };
    act.world.get_mut::<Figures>(me).expect("unit").0 = figures - count;
    let id = act.world.resource::<Directory>().next_unit_id();
    let orders = NewIds::adopt(act.world, &new_id, &id);
    let plural = catalog.race_name_for(race, u64::from(count));
    let name = format!("{count} {plural}");
    let e = spawn_unit(
        act.world,
        NewUnit {
            id: id.clone(),
            name: name.clone(),
            owner: faction,
            race,
            figures: count,
            at,
            leader,
            items,
            skills,
            orders,
            after: Some(me),
        },
    );
    act.world.get_mut::<Effects>(e).expect("unit").0 = effects;
    NewIds::watch(act.world, e);
    act.world.resource_mut::<Visiting>().invalidate();
    act.log(format!("Split {count} {plural} off as {name} [{id}] ({new_id})."));
    act.event(e, format!("Split off from {}.", act.name(me)));
    Outcome::Ran(Progress::Done)
}

/// ORD-MERGE.
fn merge(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Merge { into, count } = &entry.order else { return Outcome::NotNow };
    let count = *count;
    let me = act.unit;
    let Some(target) = act.unit_named(into) else { return Outcome::NotNow };
    if target == me {
        return Outcome::Invalid("a unit cannot merge into itself".into());
    }
    if !act.present(target) {
        return Outcome::NotNow;
    }
    if act.faction_of(target) != act.faction_of(me) {
        return Outcome::Invalid(format!("{} is not one of your units", act.name(target)));
    }
    let race = act.world.get::<Race>(me).expect("unit").0;
    let t_figures = act.figures(target);
    if t_figures > 0 && act.world.get::<Race>(target).map(|r| r.0) != Some(race) {
        return Outcome::Invalid(format!("{} is of another race", act.name(target)));
    }
    let figures = act.figures(me);
    let moving = if count == 0 { figures } else { count };
    if figures < moving || moving == 0 {
        return Outcome::NotNow;
    }
    let catalog = act.catalog().clone();
    // SKL-MERGE-BASIC: the incoming figures forget a second basic skill.
    let mut incoming = act.world.get::<Skills>(me).expect("unit").0.clone();
    let target_skills = act.world.get::<Skills>(target).expect("unit").0.clone();
    let forgotten = second_basics(&catalog, act.world.resource::<SkillTree>(), &target_skills, &incoming);
    incoming.retain(|x| !forgotten.contains(&x.0));
    // Figure-weighted averages (SKL-MERGE, ITM-ENCH).
    let (wt, wm) = (u64::from(t_figures), u64::from(moving));
    let avg = |a: u32, b: u32| ((u64::from(a) * wt + u64::from(b) * wm) / (wt + wm)) as u32;
    let mut merged: Vec<(SkillId, u32)> = target_skills.iter().map(|&(s, x)| (s, x)).collect();
    for x in merged.iter_mut() {
        let mine = incoming.iter().find(|y| y.0 == x.0).map_or(0, |y| y.1);
        x.1 = avg(x.1, mine);
    }
    for &(s, x) in &incoming {
        if !merged.iter().any(|y| y.0 == s) {
            merged.push((s, avg(0, x)));
        }
    }
    let dissent = catalog.rules.info.parameters.dissent_effect.as_deref().and_then(|t| catalog.effect(t));
    let mine_fx = act.world.get::<Effects>(me).expect("unit").0.clone();
    let mut fx = act.world.get::<Effects>(target).expect("unit").0.clone();
    for x in fx.iter_mut() {
        let m = mine_fx.iter().find(|y| y.0 == x.0).map_or(0, |y| y.1);
        x.1 = if Some(x.0) == dissent { x.1.max(m) } else { avg(x.1, m) };
    }
    for &(e, d) in &mine_fx {
        if !fx.iter().any(|y| y.0 == e) {
            fx.push((e, if Some(e) == dissent { d } else { avg(0, d) }));
        }
    }
    fx.retain(|x| x.1 > 0);
    act.world.get_mut::<Skills>(target).expect("unit").0 = merged;
    act.world.get_mut::<Effects>(target).expect("unit").0 = fx;
    act.world.get_mut::<Figures>(target).expect("unit").0 = t_figures + moving;
    if t_figures == 0 {
        act.world.get_mut::<Race>(target).expect("unit").0 = race;
    }
    let target_name = act.name(target);
    if !forgotten.is_empty() {
        let names: Vec<String> = forgotten
            .iter()
            .map(|s| format!("{} [{}]", catalog.rules.skills[s.index()].name, catalog.rules.skills[s.index()].tag))
            .collect();
        act.log(format!("The merging figures forgot {} (a second basic skill).", names.join(", ")));
    }
    if count == 0 {
        // Everything moves; the empty unit is gone.
        let items = std::mem::take(&mut act.world.get_mut::<Inventory>(me).expect("unit").0);
        let mut inv = act.world.get_mut::<Inventory>(target).expect("unit");
        for h in items {
            match inv.0.iter_mut().find(|x| x.item == h.item) {
                Some(x) => {
                    x.count += h.count;
                    x.equipped += h.equipped;
                }
                None => inv.0.push(h),
            }
        }
        let me_name = act.name(me);
        act.event(target, format!("{me_name} merged into this unit with all it had."));
        if let Some(f) = act.faction_of(me) {
            act.event(f, format!("{me_name} merged into {target_name} and is gone."));
        }
        act.log(format!("Merged into {target_name}."));
        crate::systems::overlord::mechanics::stacks::remove_unit(act.world, me, false);
        return Outcome::Ran(Progress::Done);
    }
    act.world.get_mut::<Figures>(me).expect("unit").0 = figures - moving;
    act.log(format!("Merged {moving} figures into {target_name}."));
    let me_name = act.name(me);
    act.event(target, format!("{moving} figures joined from {me_name}."));
    if moving == figures {
        // A stockpile keeps the items, and no orders.
        act.world.entity_mut(me).insert(DropOrders);
        act.log("The unit is now a stockpile.");
    }
    Outcome::Ran(Progress::Done)
}

/// SKL-MERGE-BASIC: the incoming basic skills (with their trees) that would give the
/// target a second basic skill that is not a combat skill.
fn second_basics(
    catalog: &Catalog,
    tree: &SkillTree,
    target: &[(SkillId, u32)],
    incoming: &[(SkillId, u32)],
) -> Vec<SkillId> {
    let basic = |s: SkillId| {
        let f = &catalog.rules.skills[s.index()].system.flags;
        f.contains(&SkillFlag::Basic) && !f.contains(&SkillFlag::Combat)
    };
    let theirs: Vec<SkillId> = target.iter().filter(|x| x.1 > 0 && basic(x.0)).map(|x| x.0).collect();
    if theirs.is_empty() {
        return Vec::new();
    }
    let drop: Vec<SkillId> = incoming.iter().filter(|x| basic(x.0) && !theirs.contains(&x.0)).map(|x| x.0).collect();
    incoming
        .iter()
        .map(|x| x.0)
        .filter(|&s| drop.contains(&s) || tree.basics[s.index()].iter().any(|b| drop.contains(b)))
        .collect()
}
