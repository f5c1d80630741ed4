//! Using a skill (ORD-USE, ORD-TARGET, SKL-USE-CRAFT, SKL-USE-OTHER, SKL-TOOL,
//! SKL-EXP-USE, STR-PROD, MAG-COST, MAG-TARGET, MAG-RETARGET): the USE and TARGET
//! orders, the table of which mechanic carries out each kind of use
//! ([`UseHandlers`], [`USES`](super::USES)), what a level of a skill costs and
//! produces ([`Specs`]), a day's work ([`daily_work`]), batches with their inputs
//! ([`first_inputs`], [`lacks_first_inputs`], [`batches`]) and the experience a day of use gives
//! ([`gain_experience`]). Crafting and harvesting (`production`), building
//! (`structures`) and spells (`magic`) share these rules.
//!
//! A batch takes its level's `days` figure-days and yields `multiple` of the output.
//! A day of work adds figures × speed; speed is 100%, plus `tool_bonus_percent` in
//! proportion to the figures with one of the production's tools equipped, plus the
//! race's, the season's and the complete structure's `use` (and the structure's
//! `production`) bonuses for the skill. The inputs of a batch go when it starts; a
//! level's `use_mana` is one of them, paid in the rule set's mana item (MAG-COST). A
//! day of use gives the skill `use_experience_percent` of a day of study, and each
//! more basic skill `use_basic_percent`, unless the skill is `NoExperience`.
//!
//! TARGET names what a skill is used on. Changing it while a batch is under way
//! costs what the kind of use says ([`Retarget`]): a building loses the work done
//! (ORD-TARGET); a spell loses `retarget_loss_percent` (50) of it and pays its mana
//! and components again, or is spoiled when it cannot (MAG-RETARGET, rulings 10).

use crate::systems::overlord::data::{SkillFlag, UseKind};
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, not_yet};
use crate::systems::overlord::mechanics::study::SkillTree;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::{Entry, Keyword, Order, Target};
use crate::systems::overlord::world::components::{Inventory, Production, SkillTarget, Skills};
use crate::systems::overlord::world::{Catalog, ItemId, SkillId};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

#[cfg(test)]
mod tests;

/// Resolves the productions of the rule set once ([`Specs`]), registers USE and
/// TARGET, and holds the table of uses the mechanics fill ([`UseHandlers`]).
pub struct SkillUsePlugin;

impl Plugin for SkillUsePlugin {
    fn build(&self, app: &mut App) {
        let specs = Specs::new(app.world().resource::<Catalog>());
        app.insert_resource(specs);
        app.init_resource::<UseHandlers>();
        let mut h = app.world_mut().resource_mut::<OrderHandlers>();
        h.set(module_path!(), Keyword::Use, use_skill);
        h.set(module_path!(), Keyword::Target, target);
    }
}

/// What USE of a skill of one kind does: tries it for `act.unit`, whose level in
/// `skill` is `level` (1 or more), and says what happened.
pub type UseHandler = fn(&mut Act, &mut Entry, SkillId, u32) -> Outcome;

/// What changing the target costs a batch under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retarget {
    /// The target does not matter to this kind of use: nothing is lost.
    Keep,
    /// The work done is lost (ORD-TARGET).
    LoseAll,
    /// `retarget_loss_percent` of the work done is lost, and the batch's inputs (mana
    /// included) are paid again; a caster who cannot pay loses the batch
    /// (MAG-RETARGET, rulings 10).
    LosePartAndRepay,
}

/// The handlers of USE, by kind of use ([`UseKind`]). Each mechanic's plugin
/// registers the kinds it carries out; [`USES`](super::USES) says which mechanic
/// that is, and a test checks the two agree.
#[derive(Resource, Clone, Default)]
pub struct UseHandlers {
    by_kind: Vec<Option<(UseHandler, Retarget)>>,
    registered: Vec<(UseKind, &'static str)>,
}

impl UseHandlers {
    /// Registers what USE of a skill of kind `kind` does, and what a change of target
    /// costs it. `mechanic` is the registering module's path (`module_path!()`).
    pub fn set(&mut self, mechanic: &'static str, kind: UseKind, handler: UseHandler, retarget: Retarget) {
        let i = kind as usize;
        if self.by_kind.len() <= i {
            self.by_kind.resize(i + 1, None);
        }
        self.by_kind[i] = Some((handler, retarget));
        self.registered.push((kind, mechanic));
    }
    /// The handler of kind `kind`.
    pub fn get(&self, kind: UseKind) -> Option<(UseHandler, Retarget)> {
        self.by_kind.get(kind as usize).copied().flatten()
    }
    /// Every registration, in the order made: the kind and the module that made it.
    pub fn registered(&self) -> &[(UseKind, &'static str)] {
        &self.registered
    }
}

/// The unit's level in `skill`; a skill anyone may use counts as 1st level.
pub fn use_level(act: &Act, skill: SkillId) -> u32 {
    let catalog = act.catalog();
    let level = act.world.get::<Skills>(act.unit).map_or(0, |k| k.level(catalog, skill));
    if level == 0 && catalog.rules.skills[skill.index()].system.flags.contains(&SkillFlag::UseAnyone) {
        1
    } else {
        level
    }
}

/// ORD-USE: the unit must know the skill; its kind of use says who carries it out.
fn use_skill(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Use { skill, .. } = entry.order else { return Outcome::NotNow };
    let level = use_level(act, skill);
    let s = &act.catalog().rules.skills[skill.index()];
    if level == 0 {
        return Outcome::Invalid(format!("the unit does not know {} [{}] at 1st level", s.name, s.tag));
    }
    let kind = s.system.use_kind;
    if kind == Some(UseKind::Combat) {
        return Outcome::Invalid(format!("{} [{}] is used only in battle (COMBAT)", s.name, s.tag));
    }
    match kind.and_then(|k| act.world.resource::<UseHandlers>().get(k)) {
        Some((handler, _)) => handler(act, entry, skill, level),
        None => {
            let what = if kind.is_none() { "using this skill" } else { "this use of a skill" };
            not_yet(act.world, act.unit, act.day, entry, what);
            Outcome::NotNow
        }
    }
}

/// The word a target is written with.
pub fn target_word(t: &Target) -> &str {
    match t {
        Target::Unit(x) | Target::Location(x) | Target::Structure(x) | Target::Faction(x) | Target::Construction(x) => {
            x
        }
    }
}

/// ORD-TARGET. A new structure id not created yet is kept as the target: skills
/// wait for it, and it becomes the permanent id once the structure is started
/// (FILE-NEWID-LIFE), or is dropped at the end of the month.
fn target(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Target(t) = &entry.order else { return Outcome::NotNow };
    let word = target_word(t).to_string();
    set_target(act, &word);
    act.log(format!("Now aims its skills at {word}."));
    Outcome::Ran(Progress::Step)
}

/// Sets the unit's target to `word`. A batch under way pays what its kind of use
/// says ([`Retarget`]).
pub fn set_target(act: &mut Act, word: &str) {
    let me = act.unit;
    let same = act.world.get::<SkillTarget>(me).is_some_and(|t| t.0.as_deref() == Some(word));
    if same {
        return;
    }
    let had = act.world.get::<SkillTarget>(me).is_some_and(|t| t.0.is_some());
    act.world.get_mut::<SkillTarget>(me).expect("unit").0 = Some(word.to_string());
    let Some((skill, work)) = act.world.get::<Production>(me).and_then(|p| p.0) else { return };
    let kind = act.catalog().rules.skills[skill.index()].system.use_kind;
    let Some((_, retarget)) = kind.and_then(|k| act.world.resource::<UseHandlers>().get(k)) else { return };
    match retarget {
        Retarget::LoseAll if work > 0 => {
            act.world.get_mut::<Production>(me).expect("unit").0 = None;
            act.event(me, "Its unfinished work was lost when it changed its target (TARGET).");
        }
        Retarget::LoseAll | Retarget::Keep => {}
        // A first target set while a spell is under way (one needing none before) is
        // not a change.
        Retarget::LosePartAndRepay if !had => {}
        Retarget::LosePartAndRepay => {
            let level = use_level(act, skill);
            let spec = (level > 0).then(|| act.world.resource::<Specs>().0[skill.index()][level as usize - 1].clone());
            let inputs = spec.flatten().map(|s| s.inputs.clone()).unwrap_or_default();
            let mut inv = act.world.get_mut::<Inventory>(me).expect("unit");
            if inputs.iter().all(|&(i, n)| inv.count(i) >= n) {
                consume(&mut inv, &inputs);
                let lost = act.catalog().rules.info.parameters.retarget_loss_percent.min(100);
                let kept = (u64::from(work) * u64::from(100 - lost) / 100) as u32;
                act.world.get_mut::<Production>(me).expect("unit").0 = Some((skill, kept));
                act.event(
                    me,
                    format!("Changing its target cost {lost}% of the casting done, and its mana and components again."),
                );
            } else {
                act.world.get_mut::<Production>(me).expect("unit").0 = None;
                act.event(
                    me,
                    "Changing its target spoiled the casting: it could not pay its mana and components again.",
                );
            }
        }
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
    /// The output when it is not an item: an event type (a ritual's mana…), a
    /// construction.
    pub event: Option<crate::systems::overlord::data::Tag>,
    /// Inputs of a batch, the mana of `use_mana` among them (MAG-COST).
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
        let mana = catalog.mana();
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
                            let none = crate::systems::overlord::data::Production::default();
                            let p = match &l.production {
                                Some(p) => p,
                                None if l.use_mana > 0 || l.summon.is_some() || !l.grants.is_empty() => &none,
                                None => return None,
                            };
                            let mut inputs: Vec<(ItemId, u32)> =
                                p.inputs.iter().filter_map(|i| item(&i.0).map(|x| (x, i.1))).collect();
                            if let Some(m) = mana.filter(|_| l.use_mana > 0) {
                                inputs.push((m, l.use_mana));
                            }
                            Some(std::sync::Arc::new(Spec {
                                kind: s.system.use_kind,
                                batch: p.days.max(1).saturating_mul(100),
                                multiple: p.multiple.max(1),
                                output: p.output.as_deref().and_then(item),
                                event: p.output.clone().filter(|o| item(o).is_none()),
                                inputs,
                                tools: p.tools.iter().filter_map(|t| item(t)).collect(),
                                harvest: p.harvest.as_ref().and_then(|h| item(&h.0).map(|x| (x, h.1.max(1)))),
                            }))
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
    if lacks_first_inputs(act, skill, spec) {
        return None;
    }
    consume(&mut act.world.get_mut::<Inventory>(act.unit).expect("unit"), &spec.inputs);
    Some(0)
}

/// Whether [`first_inputs`] would find nothing to work on: no work in progress
/// on `skill`, and the inputs of a first batch lacking. Only reads.
pub fn lacks_first_inputs(act: &Act, skill: SkillId, spec: &Spec) -> bool {
    let me = act.me();
    lacks_inputs(me.production, me.inventory, skill, spec)
}

/// [`lacks_first_inputs`] of a unit whose work in progress is `production` and
/// whose items are `inventory` (as [`Act::me`](super::scheduler::Act::me) reads them).
pub fn lacks_inputs(
    production: Option<(SkillId, u32)>,
    inventory: Option<&Inventory>,
    skill: SkillId,
    spec: &Spec,
) -> bool {
    let under_way = production.is_some_and(|(k, _)| k == skill);
    !under_way && !inventory.is_some_and(|inv| spec.inputs.iter().all(|&(i, n)| inv.count(i) >= n))
}

/// Today's batches: `wip` plus the day's work `gain`; each finished batch calls `done`,
/// which says whether to go on, and the next batch's inputs go when it starts (when
/// work is left today for it). The
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
        // No work left today for a next batch: it does not start yet, and its inputs
        // stay with the unit until it does.
        if progress == 0 {
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
    // The race's, season's, weather's, structure's and enchantments' `use` bonuses,
    // each for the skill or one it derives from (CLI-MAGIC, MAG-SEASON; enhance
    // work: "a skill derived from weaponsmith").
    speed += crate::systems::overlord::world::skill_bonus(act.world, act.unit, skill, false);
    if let Some(b) = crate::systems::overlord::world::structure_bonuses(act.world, act.unit) {
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
