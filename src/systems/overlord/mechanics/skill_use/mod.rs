//! Using a skill to make things (ORD-USE, SKL-USE-CRAFT, SKL-TOOL, SKL-EXP-USE,
//! STR-PROD): what a level of a skill produces ([`Specs`]), a day's work
//! ([`daily_work`]), batches with their inputs ([`first_inputs`], [`batches`]) and
//! the experience a day of use gives ([`gain_experience`]). Crafting and harvesting
//! (`production`) and building (`structures`) share these rules.
//!
//! A batch takes its level's `days` figure-days and yields `multiple` of the output.
//! A day of work adds figures × speed; speed is 100%, plus `tool_bonus_percent` in
//! proportion to the figures with one of the production's tools equipped, plus the
//! race's, the season's and the complete structure's `use` (and the structure's
//! `production`) bonuses for the skill. The inputs of a batch go when it starts. A
//! day of use gives the skill `use_experience_percent` of a day of study, and each
//! more basic skill `use_basic_percent`, unless the skill is `NoExperience`.

use crate::systems::overlord::data::{SkillFlag, UseKind};
use crate::systems::overlord::mechanics::scheduler::Act;
use crate::systems::overlord::mechanics::study::SkillTree;
use crate::systems::overlord::world::components::{Inventory, Production, Race, Skills};
use crate::systems::overlord::world::{Catalog, ItemId, SkillId};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Resolves the productions of the rule set once ([`Specs`]).
pub struct SkillUsePlugin;

impl Plugin for SkillUsePlugin {
    fn build(&self, app: &mut App) {
        let specs = Specs::new(app.world().resource::<Catalog>());
        app.insert_resource(specs);
    }
}

/// A level's production, with its tags resolved once.
#[derive(Debug, Clone)]
pub struct Spec {
    /// The use kind of the skill.
    pub kind: Option<UseKind>,
    /// Work a batch takes, in hundredths of a figure-day.
    pub batch: u32,
    /// Items a batch yields.
    pub multiple: u32,
    /// The crafted item.
    pub output: Option<ItemId>,
    /// Inputs of a batch.
    pub inputs: Vec<(ItemId, u32)>,
    /// Tools that speed the work.
    pub tools: Vec<ItemId>,
    /// The harvested resource and how many a batch yields.
    pub harvest: Option<(ItemId, u32)>,
}

/// Every skill level's production, resolved (`[skill][level - 1]`).
#[derive(Resource, Debug)]
pub struct Specs(pub Vec<Vec<Option<std::sync::Arc<Spec>>>>);

impl Specs {
    /// Resolves the productions of the rule set.
    pub fn new(catalog: &Catalog) -> Self {
        let item = |t: &str| catalog.item(t);
        Specs(
            catalog
                .rules
                .skills
                .iter()
                .map(|s| {
                    s.system
                        .levels
                        .iter()
                        .map(|l| {
                            l.production.as_ref().map(|p| {
                                std::sync::Arc::new(Spec {
                                    kind: s.system.use_kind,
                                    batch: p.days.max(1) * 100,
                                    multiple: p.multiple.max(1),
                                    output: p.output.as_deref().and_then(item),
                                    inputs: p.inputs.iter().filter_map(|i| item(&i.0).map(|x| (x, i.1))).collect(),
                                    tools: p.tools.iter().filter_map(|t| item(t)).collect(),
                                    harvest: p.harvest.as_ref().and_then(|h| item(&h.0).map(|x| (x, h.1.max(1)))),
                                })
                            })
                        })
                        .collect()
                })
                .collect(),
        )
    }
}

/// The work in progress on `skill`, or, when none, the inputs of a first batch
/// consumed and no work yet; `None` when they are lacking (SKL-USE-CRAFT).
pub fn first_inputs(act: &mut Act, skill: SkillId, spec: &Spec) -> Option<u32> {
    if let Some((k, x)) = act.world.get::<Production>(act.unit).and_then(|p| p.0)
        && k == skill
    {
        return Some(x);
    }
    let mut inv = act.world.get_mut::<Inventory>(act.unit).expect("unit");
    if !spec.inputs.iter().all(|&(i, n)| inv.count(i) >= n) {
        return None;
    }
    consume(&mut inv, &spec.inputs);
    Some(0)
}

/// Today's batches: `wip` plus the day's work `gain`; each finished batch calls `done`,
/// which says whether to go on, and the next batch's inputs go when it starts. The
/// work left on an unfinished batch stays in progress; the skill gains experience.
pub fn batches(
    act: &mut Act,
    skill: SkillId,
    spec: &Spec,
    wip: u32,
    gain: u32,
    mut done: impl FnMut(&mut Act) -> bool,
) {
    let catalog = act.catalog().clone();
    let mut progress = wip + gain;
    let mut busy = true;
    while busy && progress >= spec.batch {
        progress -= spec.batch;
        if !done(act) {
            busy = false;
            break;
        }
        let mut inv = act.world.get_mut::<Inventory>(act.unit).expect("unit");
        if spec.inputs.iter().all(|&(i, n)| inv.count(i) >= n) {
            consume(&mut inv, &spec.inputs);
        } else {
            busy = false;
        }
    }
    act.world.get_mut::<Production>(act.unit).expect("unit").0 = busy.then_some((skill, progress));
    gain_experience(act, &catalog, skill);
}

/// Today's work: figures × speed, in hundredths of a figure-day. Speed is 100%
/// plus the tool, race and season bonuses, and the `use` and `production` bonuses
/// of the complete structure the unit is in (STR-PROD).
pub fn daily_work(act: &Act, catalog: &Catalog, skill: SkillId, tools: &[ItemId], figures: u32) -> u32 {
    let p = &catalog.rules.info.parameters;
    let s = &catalog.rules.skills[skill.index()];
    let mut speed: i64 = 100;
    if !tools.is_empty() && figures > 0 {
        let equipped: u32 = act
            .world
            .get::<Inventory>(act.unit)
            .map_or(0, |inv| inv.0.iter().filter(|h| tools.contains(&h.item)).map(|h| h.equipped).sum());
        speed += i64::from(p.tool_bonus_percent) * i64::from(equipped.min(figures)) / i64::from(figures);
    }
    if let Some(r) = act.world.get::<Race>(act.unit) {
        let b = &catalog.rules.races[r.0.index()].system.bonuses.use_;
        if !b.is_empty() {
            speed += i64::from(b.get(&s.tag).copied().unwrap_or(0));
        }
    }
    if let Some(season) = catalog.season(act.world.resource::<crate::systems::overlord::world::resources::Month>().0)
        && !season.system.bonuses.use_.is_empty()
    {
        speed += i64::from(season.system.bonuses.use_.get(&s.tag).copied().unwrap_or(0));
    }
    if let Some(b) = crate::systems::overlord::world::structure_bonuses(act.world, act.unit) {
        speed += i64::from(b.use_.get(&s.tag).copied().unwrap_or(0));
        speed += i64::from(b.production.get(&s.tag).copied().unwrap_or(0));
    }
    (i64::from(figures) * speed.max(0)).min(i64::from(u32::MAX)) as u32
}

pub fn consume(inv: &mut Inventory, inputs: &[(ItemId, u32)]) {
    for &(item, n) in inputs {
        if let Some(h) = inv.0.iter_mut().find(|h| h.item == item) {
            h.count -= n;
            h.equipped = h.equipped.min(h.count);
        }
    }
    inv.0.retain(|h| h.count > 0);
}

/// SKL-EXP-USE.
pub fn gain_experience(act: &mut Act, catalog: &Catalog, skill: SkillId) {
    let s = &catalog.rules.skills[skill.index()];
    if s.system.flags.contains(&SkillFlag::NoExperience) {
        return;
    }
    let p = &catalog.rules.info.parameters;
    let own = p.experience_per_day * p.use_experience_percent / 100;
    let basic = p.experience_per_day * p.use_basic_percent / 100;
    let basics = act.world.resource::<SkillTree>().basics[skill.index()].clone();
    let mut sk = act.world.get_mut::<Skills>(act.unit).expect("unit");
    for (id, n) in std::iter::once((skill, own)).chain(basics.iter().map(|&b| (b, basic))) {
        if n == 0 {
            continue;
        }
        match sk.0.iter_mut().find(|x| x.0 == id) {
            Some(x) => x.1 = x.1.saturating_add(n),
            None => sk.0.push((id, n)),
        }
    }
}
