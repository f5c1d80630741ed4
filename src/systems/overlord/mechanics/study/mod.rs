//! Learning: STUDY (ORD-STUDY, SKL-KINDS, SKL-LIMIT, SKL-AUTOPRE, SKL-FAST,
//! SKL-EXP-ADV, CASH-STUDY, LOC-TEACH).
//!
//! One day of STUDY adds `experience_per_day` × speed ÷ 100 experience points to the
//! skill. It costs the skill's `study_cost` per figure, paid from the unit's cash and
//! then from faction funds (CASH-STUDY, CASH-FUND). Speed is 100% plus:
//!
//! * `study_bonus_leader_percent` when a leader up the unit's stack knows the skill
//!   at a higher level than the unit;
//! * `study_bonus_place_percent` in a location that teaches the skill above the
//!   unit's level;
//! * the race's and the season's `study` bonuses for the skill;
//! * the `study` bonus of the complete structure the unit is in (STR-BENEFIT:
//!   barracks for combat, guild halls for crafts);
//! * the `study` bonus of the unit's title (TTL-HOG, TTL-MASTER), for the skill
//!   named or any skill above it in its tree.
//!
//! Every more basic skill of the tree (the skills it requires, and theirs) gains
//! `study_basic_percent` of what the study gained (SKL-EXP-ADV).
//!
//! Who may study what:
//!
//! * `NoLearn` skills cannot be studied. `CreatureOnly` skills cannot be studied by
//!   leaders or followers, and creatures study nothing (STUDY is refused to them by
//!   its unit kind). `LeaderOnly` skills are for leaders and heroes.
//! * A skill whose requirements the unit lacks waits, and stays in the list. If the
//!   faction knows the skill, the unit studies the first missing requirement instead
//!   (SKL-AUTOPRE).
//! * Study stops at the unit's limit for the skill (SKL-LIMIT). Followers reach
//!   `max_study_level`, or `max_combat_study_level.follower` in combat skills.
//!   Leaders reach `max_study_level_leader`, `max_combat_study_level.leader` in
//!   combat skills, and `max_study_level` in magic skills. Heroes reach
//!   `max_combat_study_level.hero` in combat skills. A race's `learning_level` bonus
//!   adds to the limit of its kind, and so does a title's `learning_level` bonus for
//!   the skill's tree (TTL-MASTER: a Master studies its element's spells to 2nd level
//!   without a teacher, specialist spells included). A place that teaches the skill
//!   lifts the limit to the level it teaches (LOC-TEACH).
//!
//! `STUDY skill level` goes on until the level is reached. Without a level it
//! studies one day, or for its duration, or forever with `@`. It ends, in every
//! case, when the unit can study the skill no further.

use crate::core::engine::plan::Clock;
use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::ordinal;
use crate::systems::overlord::data::{RaceKind, SkillFlag};
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, waits};
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::Keyword;
use crate::systems::overlord::orders::syntax::{Duration, Entry, Order};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, Funds, Inventory, KnownSkills, Orders, Race, Skills, StackLeader, Teaches,
};
use crate::systems::overlord::world::ids::SkillId;
use crate::systems::overlord::world::resources::Directory;
use bevy_app::{App, Plugin};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

#[cfg(test)]
mod tests;

/// The skill trees, resolved once: each skill's requirements and all its more basic
/// skills.
#[derive(Resource, Debug)]
pub struct SkillTree {
    /// Per skill: the skills and levels it requires.
    pub requires: Vec<Vec<(SkillId, u32)>>,
    /// Per skill: every skill below it in its tree (requirements, theirs…), without
    /// repeats, nearest first.
    pub basics: Vec<std::sync::Arc<[SkillId]>>,
}

impl SkillTree {
    /// Resolves the `requires` lists of the rule set (the validator has checked that
    /// they form no cycle).
    pub fn new(catalog: &Catalog) -> Self {
        let skills = &catalog.rules.skills;
        let requires: Vec<Vec<(SkillId, u32)>> = skills
            .iter()
            .map(|s| s.system.requires.iter().filter_map(|r| catalog.skill(&r.skill).map(|id| (id, r.level))).collect())
            .collect();
        let basics = (0..skills.len())
            .map(|i| {
                let mut out: Vec<SkillId> = Vec::new();
                let mut queue: std::collections::VecDeque<SkillId> = requires[i].iter().map(|r| r.0).collect();
                while let Some(s) = queue.pop_front() {
                    if out.contains(&s) || s.index() == i {
                        continue;
                    }
                    out.push(s);
                    queue.extend(requires[s.index()].iter().map(|r| r.0));
                }
                std::sync::Arc::from(out)
            })
            .collect();
        SkillTree { requires, basics }
    }
}

/// Units that have studied a skill this month, so that "Studies …" is said once.
#[derive(Resource, Debug, Default)]
struct Studied(EntityHashMap<Vec<SkillId>>);

/// A TEACH a teacher may carry out today.
#[derive(Debug, Clone, Copy)]
struct Lesson {
    teacher: Entity,
    /// `None`: anyone studying the skill there (`@TEACH skill`).
    student: Option<Entity>,
    skill: SkillId,
    /// The teacher's level in the skill.
    level: u32,
}

/// Today's lessons by location, the units whose lists hold a TEACH, and who taught
/// whom today (ORD-TEACH).
#[derive(Resource, Debug, Default)]
pub struct Lessons {
    teachers: Vec<Entity>,
    offers: EntityHashMap<Vec<Lesson>>,
    given: EntityHashMap<Vec<(Entity, SkillId)>>,
    /// (teacher, student, skill) already reported this month.
    said: Vec<(Entity, Entity, SkillId)>,
}

/// Registers STUDY.
pub struct StudyPlugin;

impl Plugin for StudyPlugin {
    fn build(&self, app: &mut App) {
        let tree = SkillTree::new(app.world().resource::<Catalog>());
        app.insert_resource(tree);
        app.init_resource::<Studied>();
        app.init_resource::<Lessons>();
        let mut h = app.world_mut().resource_mut::<OrderHandlers>();
        h.set(module_path!(), Keyword::Study, study);
        h.set(module_path!(), Keyword::Teach, teach);
        h.set(module_path!(), Keyword::Forget, forget);
        app.add_step_system("month_start", start_month);
        app.add_step_system("month_start", find_teachers);
        app.add_step_system("lessons", plan_lessons);
    }
}

/// The month's notes start afresh.
fn start_month(mut studied: ResMut<Studied>) {
    studied.0.clear();
}

/// The units whose lists hold a TEACH this month (lists change only when orders
/// arrive, before day 1).
fn find_teachers(mut lessons: ResMut<Lessons>, units: Query<(Entity, &Orders)>, dir: Res<Directory>) {
    lessons.said.clear();
    lessons.teachers = dir
        .units()
        .iter()
        .copied()
        .filter(|&u| units.get(u).is_ok_and(|(_, o)| o.0.iter().any(|q| matches!(q.entry.order, Order::Teach(_)))))
        .collect();
}

/// The lessons teachers may give today: a teacher whose first full-day order that
/// may run today is a TEACH offers it where it stands.
fn plan_lessons(
    mut lessons: ResMut<Lessons>,
    clock: Res<Clock>,
    dir: Res<Directory>,
    catalog: Res<Catalog>,
    units: Query<(&Orders, &At, &Skills, Has<crate::systems::overlord::world::components::Journey>)>,
    races: Query<&Race>,
) {
    let lessons = &mut *lessons;
    lessons.offers.clear();
    lessons.given.clear();
    for &t in &lessons.teachers {
        let Ok((orders, at, skills, moving)) = units.get(t) else { continue };
        if moving {
            continue;
        }
        // The teacher's full-day order today, if its list gets that far: TEACH only
        // if it is the first full-day order that may run.
        let full_day = |o: &Order| matches!(o.duration(), Duration::FullDay | Duration::Movement);
        let Some(i) = crate::systems::overlord::orders::queue::find_considered(&orders.0, clock.tick, full_day) else {
            continue;
        };
        let Order::Teach(list) = &orders.0[i].entry.order else { continue };
        if list.len() > 1 && !several_students_allowed(list, &dir, &catalog, &races) {
            continue;
        }
        for (student, skill) in list {
            let student = match student {
                Some(id) => match dir.get(crate::systems::overlord::world::resources::Kind::Unit, id) {
                    Some(s) => Some(s),
                    None => continue,
                },
                None => None,
            };
            let level = level_of(&catalog, skills, *skill);
            lessons.offers.entry(at.location).or_default().push(Lesson { teacher: t, student, skill: *skill, level });
        }
    }
}

/// ORD-TEACH: a leader teaches several students only if all are leaders.
fn several_students_allowed(
    list: &[(Option<String>, SkillId)],
    dir: &Directory,
    catalog: &Catalog,
    races: &Query<&Race>,
) -> bool {
    list.iter().all(|(s, _)| {
        s.as_deref()
            .and_then(|id| dir.get(crate::systems::overlord::world::resources::Kind::Unit, id))
            .and_then(|u| races.get(u).ok())
            .is_some_and(|r| catalog.rules.races[r.0.index()].system.kind == RaceKind::Leader)
    })
}

/// ORD-TEACH: the teacher spends its day when one of its students studies the skill
/// with it today (before or after the teacher's turn).
fn teach(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Teach(list) = &entry.order else { return Outcome::NotNow };
    let me = act.unit;
    // GRD-HALF: a unit on guard cannot teach.
    if act.on_guard(me) {
        waits(act.world, me, act.day, entry, "a unit on guard cannot teach");
        return Outcome::NotNow;
    }
    // ORD-TEACH: several students only if all are leaders.
    if list.len() > 1 {
        let all_leaders = list.iter().all(|(s, _)| {
            s.as_deref().and_then(|id| act.unit_named(id)).is_some_and(|s| act.race_kind(s) == RaceKind::Leader)
        });
        if !all_leaders {
            return Outcome::Invalid("a leader teaches several students only if all are leaders".into());
        }
    }
    let day = act.day;
    let catalog = act.catalog().clone();
    let mut taught: Vec<(Entity, SkillId)> =
        act.world.resource::<Lessons>().given.get(&me).cloned().unwrap_or_default();
    // Students who will study later today, in this place.
    for (student, skill) in list {
        let Some(s) = student.as_deref().and_then(|id| act.unit_named(id)) else { continue };
        if taught.iter().any(|t| t.0 == s) || !act.present(s) {
            continue;
        }
        let waiting = act.world.get::<Orders>(s).is_some_and(|o| {
            o.0.iter()
                .any(|q| q.considered(day) && matches!(q.entry.order, Order::Study { skill: k, .. } if k == *skill))
        });
        if waiting {
            taught.push((s, *skill));
        }
    }
    if taught.is_empty() {
        return Outcome::NotNow;
    }
    for (s, skill) in taught {
        let new = {
            let mut l = act.world.resource_mut::<Lessons>();
            let fresh = !l.said.contains(&(me, s, skill));
            if fresh {
                l.said.push((me, s, skill));
            }
            fresh
        };
        if new {
            let k = &catalog.rules.skills[skill.index()];
            let name = act.name(s);
            act.routine(format!("Teaches {} [{}] to {name}.", k.name, k.tag));
        }
    }
    Outcome::Ran(Progress::Step)
}

/// ORD-FORGET: the unit forgets the skill and every skill that depends on it. It
/// runs only if the unit has some experience in the skill.
fn forget(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Forget(skill) = entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let has = act.world.get::<Skills>(me).is_some_and(|s| s.0.iter().any(|x| x.0 == skill && x.1 > 0));
    if !has {
        let k = &act.catalog().rules.skills[skill.index()];
        let why = format!("the unit has no experience of {} [{}] to forget", k.name, k.tag);
        waits(act.world, me, act.day, entry, &why);
        return Outcome::NotNow;
    }
    let catalog = act.catalog().clone();
    let tree = act.world.resource::<SkillTree>();
    let gone: Vec<SkillId> = {
        let sk = act.world.get::<Skills>(me).expect("unit");
        sk.0.iter().map(|x| x.0).filter(|&s| s == skill || tree.basics[s.index()].contains(&skill)).collect()
    };
    act.world.get_mut::<Skills>(me).expect("unit").0.retain(|x| !gone.contains(&x.0));
    let names: Vec<String> = gone
        .iter()
        .map(|s| {
            let k = &catalog.rules.skills[s.index()];
            format!("{} [{}]", k.name, k.tag)
        })
        .collect();
    act.log(format!("Forgot {}.", names.join(", ")));
    Outcome::Ran(Progress::Done)
}

/// The level a unit of this race can reach in `skill` by study (SKL-LIMIT), before a
/// place that teaches lifts it.
pub fn study_limit(catalog: &Catalog, race: crate::systems::overlord::world::RaceId, skill: SkillId) -> u32 {
    let p = &catalog.rules.info.parameters;
    let r = &catalog.rules.races[race.index()];
    let s = &catalog.rules.skills[skill.index()];
    let combat = s.system.flags.contains(&SkillFlag::Combat);
    let magic = s.system.flags.contains(&SkillFlag::Magic) || s.system.flags.contains(&SkillFlag::ElementalMagic);
    let base = match r.system.kind {
        RaceKind::Creature => return 0,
        RaceKind::Follower if combat => p.max_combat_study_level.follower,
        RaceKind::Follower => p.max_study_level,
        RaceKind::Leader if combat => p.max_combat_study_level.leader,
        RaceKind::Leader if magic => p.max_study_level,
        RaceKind::Leader => p.max_study_level_leader,
    };
    let bonus = r.system.bonuses.learning_level.get(&s.tag).copied().unwrap_or(0);
    let with_bonus = base.saturating_add_signed(bonus);
    if r.system.hero && combat { with_bonus.max(p.max_combat_study_level.hero) } else { with_bonus }
}

fn level_of(catalog: &Catalog, skills: &Skills, skill: SkillId) -> u32 {
    skills.0.iter().find(|x| x.0 == skill).map_or(0, |x| catalog.skill_level(skill, x.1))
}

/// ORD-STUDY.
fn study(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Study { skill, level: target } = entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let catalog = act.catalog().clone();
    let Some(race) = act.world.get::<Race>(me).map(|r| r.0) else { return Outcome::NotNow };
    let Some(at) = act.at(me) else { return Outcome::NotNow };
    // GRD-HALF: a guard studies as if it had half its figures: at half speed, and
    // not at all with one figure.
    let guarding = act.on_guard(me);
    if guarding && act.working_figures(me) == 0 {
        waits(act.world, me, act.day, entry, "a unit on guard studies with half its figures, and this one has too few");
        return Outcome::NotNow;
    }
    let Some(skills) = act.world.get::<Skills>(me) else { return Outcome::NotNow };
    let _s = &catalog.rules.skills[skill.index()];
    if let Some(why) = refusal(&catalog, race, skill) {
        return Outcome::Invalid(why);
    }
    let now = level_of(&catalog, skills, skill);
    if target.is_some_and(|t| now >= t) {
        return Outcome::Ran(Progress::Done);
    }
    // SKL-AUTOPRE: a missing requirement is studied first, if the faction knows the
    // skill; otherwise the order waits.
    let tree = act.world.resource::<SkillTree>();
    let studying = match first_missing(&catalog, tree, skills, skill) {
        None => skill,
        Some(req) => {
            let knows = act
                .faction_of(me)
                .and_then(|f| act.world.get::<KnownSkills>(f))
                .is_some_and(|k| k.0.iter().any(|k| k.0 == skill));
            if !knows {
                let (r, k) = (&catalog.rules.skills[req.index()], &catalog.rules.skills[skill.index()]);
                let why = format_args!(
                    "{} [{}] needs {} [{}] first, studied first only when the faction knows {} [{}]",
                    k.name, k.tag, r.name, r.tag, k.name, k.tag
                );
                waits(act.world, me, act.day, entry, why);
                return Outcome::NotNow;
            }
            if let Some(why) = refusal(&catalog, race, req) {
                return Outcome::Invalid(why);
            }
            req
        }
    };
    let current = level_of(&catalog, skills, studying);
    if let Some(why) = element_refused(&catalog, skills, studying) {
        return Outcome::Invalid(why);
    }
    // Followers know one basic skill besides combat; with two, nothing goes past
    // 1st level, even taught (§10 races, SKL-MERGE-BASIC).
    let kind = catalog.rules.races[race.index()].system.kind;
    let plain_basic = |k: SkillId| {
        let f = &catalog.rules.skills[k.index()].system.flags;
        f.contains(&SkillFlag::Basic) && !f.contains(&SkillFlag::Combat)
    };
    let basics_known = skills.0.iter().filter(|x| x.1 > 0 && plain_basic(x.0)).count();
    let allowed = catalog.rules.info.parameters.follower_basic_skills as usize;
    if kind == RaceKind::Follower
        && plain_basic(studying)
        && basics_known >= allowed
        && !skills.0.iter().any(|x| x.0 == studying && x.1 > 0)
    {
        let k = &catalog.rules.skills[studying.index()];
        return Outcome::Invalid(format!(
            "a follower unit knows one basic skill besides combat, and this one already has one: {} [{}] cannot be added",
            k.name, k.tag
        ));
    }
    let over_basic = kind == RaceKind::Follower && basics_known > allowed;
    let taught = act.world.get::<Teaches>(at.location).and_then(|l| l.0.iter().find(|t| t.0 == studying).map(|t| t.1));
    let title = if kind == RaceKind::Leader { title_bonus(act, &catalog, studying) } else { TitleBonus::default() };
    let mut limit = study_limit(&catalog, race, studying).saturating_add_signed(title.levels).max(taught.unwrap_or(0));
    let st = &catalog.rules.skills[studying.index()];
    let p = &catalog.rules.info.parameters;
    let figures = u64::from(act.figures(me));
    // ORD-TEACH: the best teacher here for this skill (requirements are not taught).
    let lesson = if studying == skill && !guarding {
        act.world.resource::<Lessons>().offers.get(&at.location).and_then(|l| {
            l.iter()
                .filter(|x| {
                    x.skill == skill && x.teacher != me && x.student.is_none_or(|s| s == me) && x.level > current
                })
                .max_by_key(|x| x.level)
                .copied()
        })
    } else {
        None
    };
    let mut beyond = false;
    if over_basic {
        limit = limit.min(p.follower_overbasic_max_level);
    }
    if current >= limit && !over_basic {
        match lesson {
            // Taught past its own limit: a small unit, at normal speed.
            Some(l) if figures <= u64::from(p.teach_beyond_max_figures) => {
                limit = l.level;
                beyond = true;
            }
            _ => {
                act.log(format!("Cannot study {} [{}] beyond level {limit} here.", st.name, st.tag));
                return Outcome::Ran(Progress::Done);
            }
        }
    } else if current >= limit {
        act.log(format!(
            "Cannot study {} [{}] beyond level {limit}: the unit knows two basic skills.",
            st.name, st.tag
        ));
        return Outcome::Ran(Progress::Done);
    }
    // Magic skills: leaders go no further than `max_magic_study_level_taught` by
    // study, even taught; experience takes them on (§10 races).
    let magic = st.system.flags.contains(&SkillFlag::Magic) || st.system.flags.contains(&SkillFlag::ElementalMagic);
    if magic && kind == RaceKind::Leader && current >= p.max_magic_study_level_taught {
        act.log(format!(
            "Cannot study {} [{}] beyond level {}, even taught: only experience goes further.",
            st.name, st.tag, p.max_magic_study_level_taught
        ));
        return Outcome::Ran(Progress::Done);
    }
    // SKL-KINDS: a specialist skill needs a teacher or a place that teaches it; the
    // order waits for one.
    // TTL-MASTER: a title that lifts the limit in this tree stands for the teacher.
    if st.system.flags.contains(&SkillFlag::Specialist)
        && lesson.is_none()
        && taught.is_none_or(|t| t <= current)
        && title.levels <= 0
    {
        let why = format_args!(
            "{} [{}] is a specialist skill: it needs a teacher or a place that teaches it",
            st.name, st.tag
        );
        waits(act.world, me, act.day, entry, why);
        return Outcome::NotNow;
    }
    // CASH-STUDY: the day's cost, from cash then faction funds.
    let cost = u64::from(st.system.study_cost) * u64::from(act.working_figures(me));
    if cost > 0 && !pay(act, cost) {
        let what = catalog.money().map(|m| catalog.items_text(m, cost)).unwrap_or_default();
        return Outcome::Invalid(format!("a day of study costs {what}, and the unit and its faction have less"));
    }
    // SKL-FAST.
    let mut speed: i64 = 100;
    if leader_knows_better(act, me, studying, current, &catalog) {
        speed += i64::from(p.study_bonus_leader_percent);
    }
    if taught.is_some_and(|t| t > current) {
        speed += i64::from(p.study_bonus_place_percent);
    }
    // The race's, season's, weather's, structure's and enchantments' `study`
    // bonuses, each for the skill or one it derives from (CLI-MAGIC: an element's
    // bonus speeds the study of its spells; a mage's guild's, every magic skill's).
    speed += crate::systems::overlord::world::skill_bonus(act.world, me, studying, true);
    speed += i64::from(title.speed);
    if let Some(l) = lesson {
        if !beyond {
            // ×2 for up to `teach_max_figures` figures (a leader counts as
            // `teach_leader_figures`); a bigger unit gets the bonus in proportion.
            let kind = catalog.rules.races[race.index()].system.kind;
            let weight = if kind == RaceKind::Leader { u64::from(p.teach_leader_figures) } else { figures }.max(1);
            let cap = u64::from(p.teach_max_figures);
            let extra = i64::from(p.teach_percent) - 100;
            let extra = if weight <= cap { extra } else { extra * cap as i64 / weight as i64 };
            speed = speed * (100 + extra) / 100;
        }
        act.world.resource_mut::<Lessons>().given.entry(l.teacher).or_default().push((me, skill));
    }
    let mut gain = (i64::from(p.experience_per_day) * speed.max(0) / 100) as u32;
    if guarding {
        gain = crate::systems::overlord::mechanics::scheduler::on_guard_share(&catalog, gain);
    }
    let basic_gain = (u64::from(gain) * u64::from(p.study_basic_percent) / 100) as u32;
    let basics = act.world.resource::<SkillTree>().basics[studying.index()].clone();
    let first_day = {
        let mut done = act.world.resource_mut::<Studied>();
        let list = done.0.entry(me).or_default();
        let first = !list.contains(&studying);
        if first {
            list.push(studying);
        }
        first
    };
    if first_day {
        act.routine(format!("Studies {} [{}].", st.name, st.tag));
    }
    let mut reached = Vec::new();
    {
        let mut sk = act.world.get_mut::<Skills>(me).expect("unit");
        for (id, amount) in std::iter::once((studying, gain)).chain(basics.iter().map(|&b| (b, basic_gain))) {
            if amount == 0 {
                continue;
            }
            let before = sk.0.iter().find(|x| x.0 == id).map_or(0, |x| catalog.skill_level(id, x.1));
            match sk.0.iter_mut().find(|x| x.0 == id) {
                Some(x) => x.1 = x.1.saturating_add(amount),
                None => sk.0.push((id, amount)),
            }
            let after = sk.0.iter().find(|x| x.0 == id).map_or(0, |x| catalog.skill_level(id, x.1));
            if after > before {
                reached.push((id, after));
            }
        }
    }
    for (id, lv) in reached {
        let x = &catalog.rules.skills[id.index()];
        act.log(format!("Achieves {} {} [{}].", ordinal(lv), x.name, x.tag));
    }
    let level_now = act.world.get::<Skills>(me).map_or(0, |sk| level_of(&catalog, sk, skill));
    if target.is_some_and(|t| level_now >= t) {
        return Outcome::Ran(Progress::Done);
    }
    let studied_now = act.world.get::<Skills>(me).map_or(0, |sk| level_of(&catalog, sk, studying));
    if studying == skill && studied_now >= limit {
        return Outcome::Ran(Progress::Done);
    }
    Outcome::Ran(if target.is_some() { Progress::Continue } else { Progress::Step })
}

/// What the acting unit's title adds to the study of `skill` (TTL-HOG,
/// TTL-MASTER): the title's `study` and `learning_level` bonuses for the skill
/// itself or for a skill below it in its tree (a bonus for magecraft counts for
/// every magic skill, one for air magics for every air spell).
#[derive(Default)]
struct TitleBonus {
    /// Percent of speed.
    speed: i32,
    /// Levels added to the limit, without a teacher.
    levels: i32,
}

fn title_bonus(act: &mut Act, catalog: &Catalog, skill: SkillId) -> TitleBonus {
    let Some((l, slot)) = crate::systems::overlord::mechanics::titles::title_of(act.world, act.unit) else {
        return TitleBonus::default();
    };
    let Some(ti) = act.world.get::<crate::systems::overlord::world::components::Titles>(l).map(|t| t.0[slot].0) else {
        return TitleBonus::default();
    };
    let b = &catalog.rules.titles[ti].bonuses;
    let basics = act.world.resource::<SkillTree>().basics[skill.index()].clone();
    let counts = |tag: &String| catalog.skill(tag).is_some_and(|k| k == skill || basics.contains(&k));
    TitleBonus {
        speed: b.study.iter().filter(|(t, _)| counts(t)).map(|(_, &v)| v).sum(),
        levels: b.learning_level.iter().filter(|(t, _)| counts(t)).map(|(_, &v)| v).sum(),
    }
}

/// Why a unit of `race` can never study `skill`, if it cannot.
fn refusal(catalog: &Catalog, race: crate::systems::overlord::world::RaceId, skill: SkillId) -> Option<String> {
    let s = &catalog.rules.skills[skill.index()];
    if s.system.flags.is_empty() {
        return None;
    }
    let kind = catalog.rules.races[race.index()].system.kind;
    let name = format!("{} [{}]", s.name, s.tag);
    if s.system.flags.contains(&SkillFlag::NoLearn) {
        Some(format!("{name} cannot be learned by study"))
    } else if s.system.flags.contains(&SkillFlag::CreatureOnly) && kind != RaceKind::Creature {
        Some(format!("{name} is a creature skill"))
    } else if s.system.flags.contains(&SkillFlag::LeaderOnly) && kind != RaceKind::Leader {
        Some(format!("only leaders and heroes can study {name}"))
    } else {
        None
    }
}

/// MAG-ELEM: a new element (an `ElementalMagic` skill the unit has no experience
/// of) is refused when the unit already knows as many elements as its level in the
/// skill the element requires first (magecraft: one element per level).
fn element_refused(catalog: &Catalog, skills: &Skills, skill: SkillId) -> Option<String> {
    let s = &catalog.rules.skills[skill.index()];
    if !s.system.flags.contains(&SkillFlag::ElementalMagic) || skills.0.iter().any(|x| x.0 == skill && x.1 > 0) {
        return None;
    }
    let root = catalog.skill(&s.system.requires.first()?.skill)?;
    let allowed = level_of(catalog, skills, root) as usize;
    let known = skills
        .0
        .iter()
        .filter(|x| x.1 > 0 && catalog.rules.skills[x.0.index()].system.flags.contains(&SkillFlag::ElementalMagic))
        .count();
    (known >= allowed).then(|| {
        let r = &catalog.rules.skills[root.index()];
        format!(
            "one element may be taken per level of {} [{}]: at level {allowed} the unit knows {known} already, so not {} [{}]",
            r.name, r.tag, s.name, s.tag
        )
    })
}

/// The first requirement of `skill` the unit lacks, looking down the tree: the
/// deepest missing skill on the first missing branch, which can be studied now.
fn first_missing(catalog: &Catalog, tree: &SkillTree, skills: &Skills, skill: SkillId) -> Option<SkillId> {
    let mut cur = skill;
    let mut missing = None;
    for _ in 0..tree.requires.len() {
        let next = tree.requires[cur.index()].iter().find(|&&(r, lv)| level_of(catalog, skills, r) < lv);
        match next {
            Some(&(r, _)) => {
                missing = Some(r);
                cur = r;
            }
            None => break,
        }
    }
    missing
}

/// Whether a leader up `u`'s stack knows `skill` above `level` (SKL-FAST).
fn leader_knows_better(act: &Act, u: Entity, skill: SkillId, level: u32, catalog: &Catalog) -> bool {
    let mut cur = act.world.get::<StackLeader>(u).and_then(|s| s.0);
    let mut guard = 0;
    while let Some(l) = cur {
        if act.world.get::<Skills>(l).is_some_and(|sk| level_of(catalog, sk, skill) > level) {
            return true;
        }
        cur = act.world.get::<StackLeader>(l).and_then(|s| s.0);
        guard += 1;
        if guard > 64 {
            break;
        }
    }
    false
}

/// Pays `cost` in money from the acting unit's cash, then its faction's funds. Pays
/// nothing unless the whole cost can be met.
fn pay(act: &mut Act, cost: u64) -> bool {
    let Some(money) = act.catalog().money() else { return false };
    let me = act.unit;
    let cash = u64::from(act.world.get::<Inventory>(me).map_or(0, |i| i.count(money)));
    let faction = act.faction_of(me);
    let funds = faction
        .and_then(|f| act.world.get::<Funds>(f))
        .and_then(|f| f.0.iter().find(|x| x.0 == money).map(|x| x.1))
        .unwrap_or(0);
    if cash + funds < cost {
        return false;
    }
    let from_cash = cash.min(cost);
    if from_cash > 0 {
        let mut inv = act.world.get_mut::<Inventory>(me).expect("unit");
        if let Some(i) = inv.0.iter().position(|h| h.item == money) {
            let h = &mut inv.0[i];
            h.count -= from_cash as u32;
            h.equipped = h.equipped.min(h.count);
            if h.count == 0 {
                inv.0.remove(i);
            }
        }
    }
    let rest = cost - from_cash;
    if rest > 0
        && let Some(f) = faction
        && let Some(mut fu) = act.world.get_mut::<Funds>(f)
        && let Some(x) = fu.0.iter_mut().find(|x| x.0 == money)
    {
        x.1 -= rest;
    }
    true
}
