//! Titles changing hands by order: CLAIM, YIELD, BESTOW (ORD-CLAIM, ORD-YIELD,
//! ORD-BESTOW, TTL-BASE, TTL-CLAIM, TTL-CHALLENGE, TTL-OVERLORD, TTL-XFER; TV-TITLE).
//!
//! A title belongs to a location (`Titles` of the location: the title and its
//! holder's id); a unit holds at most one; only leaders and heroes hold titles.
//!
//! * **CLAIM title [location] [FREE]** (full day) waits until the unit stands at the
//!   title's location (the one named, else where it is). It needs the title's skill
//!   at its level and the title's cost in the unit's own coins, which it always
//!   pays. A free title is taken at once. A held one is challenged: the
//!   challenger's experience in the title's skill, as a % of the holder's, must be
//!   more than `parameters.claims` gives (`present_percent` 110 against a holder at
//!   the title's location, `absent_percent` 90 against an absent one,
//!   `guild_absent_percent` 80 for guild titles); the holder receives
//!   `holder_share_percent` (50) of the cost either way, and is told the challenger's
//!   %. The challenger learns only whether it won. `FREE` waits while the title is
//!   held. The Overlord title is claimed only when vacant (TTL-OVERLORD).
//! * **YIELD [title]**: the unit's title becomes unclaimed.
//! * **BESTOW unit**: the unit's title passes to a leader or hero present who holds
//!   none and could claim it (its skill and level); a unit of another faction only
//!   if that faction accepts gifts from the giver's (`Gifts`, as GIVE).
//!
//! Who holds what is indexed by holder ([`HeldTitles`]) for the day's orders and
//! battles (TTL-DEATH); every change goes through [`set_holder`], which keeps the
//! index true and counts the change, so that the guards' cover (GRD-REQ) follows
//! at once.

pub mod overlord;
#[cfg(test)]
mod tests;

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::TitleKind;
use crate::systems::overlord::data::{RaceKind, StanceGrant};
use crate::systems::overlord::mechanics::diplomacy;
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers, label, waits};
use crate::systems::overlord::mechanics::transfer;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::{Entry, Keyword, Order};
use crate::systems::overlord::world::components::{Id, Inventory, Journey, Skills, Titles};
use crate::systems::overlord::world::meets;
use crate::systems::overlord::world::resources::Directory;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use std::collections::HashMap;

/// Registers CLAIM, YIELD and BESTOW.
pub struct TitlesPlugin;

impl Plugin for TitlesPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HeldTitles>();
        app.add_step_system("month_start", overlord::find_the_seat);
        app.add_step_system("day_end", overlord::serve_the_overlord);
        app.add_step_system("land", overlord::serve_the_overlord);
        let mut h = app.world_mut().resource_mut::<OrderHandlers>();
        h.set(module_path!(), Keyword::Claim, claim);
        h.set(module_path!(), Keyword::Yield, yield_title);
        h.set(module_path!(), Keyword::Bestow, bestow);
    }
}

/// Who holds which title, by holder id: `(location, slot)` in location order. Built
/// when first asked for on a day, then kept true by [`set_holder`], so that no order
/// or battle looks through every location.
#[derive(Resource, Debug, Default)]
pub struct HeldTitles {
    stamp: Option<(u32, u32)>,
    by_holder: HashMap<String, Vec<(Entity, usize)>>,
    /// How many times a title changed hands in this run: who reckons from the
    /// titles (the guards' cover) rebuilds when it moved.
    changes: u64,
}

/// How many times a title changed hands in this run ([`set_holder`]).
pub fn changes(world: &World) -> u64 {
    world.get_resource::<HeldTitles>().map_or(0, |h| h.changes)
}

/// The index of held titles, taken out of the world (put it back with
/// [`put_back`]).
pub fn held_titles(world: &mut World) -> HashMap<String, Vec<(Entity, usize)>> {
    let stamp = {
        let c = world.resource::<crate::core::engine::plan::Clock>();
        (c.turn, c.tick)
    };
    if world.resource::<HeldTitles>().stamp != Some(stamp) {
        let mut by: HashMap<String, Vec<(Entity, usize)>> = HashMap::new();
        let locations = world.resource::<Directory>().locations.clone();
        for l in locations {
            let Some(t) = world.get::<Titles>(l) else { continue };
            for (slot, (_, h)) in t.0.iter().enumerate() {
                if let Some(h) = h {
                    by.entry(h.to_string()).or_default().push((l, slot));
                }
            }
        }
        let mut r = world.resource_mut::<HeldTitles>();
        r.by_holder = by;
        r.stamp = Some(stamp);
    }
    std::mem::take(&mut world.resource_mut::<HeldTitles>().by_holder)
}

/// Puts back the index taken by [`held_titles`].
pub fn put_back(world: &mut World, by_holder: HashMap<String, Vec<(Entity, usize)>>) {
    world.resource_mut::<HeldTitles>().by_holder = by_holder;
}

/// The title unit `u` holds: `(location, slot)`.
pub fn title_of(world: &mut World, u: Entity) -> Option<(Entity, usize)> {
    let id = world.get::<Id>(u)?.0.clone();
    let held = held_titles(world);
    let t = held.get(id.as_str()).and_then(|v| v.first().copied());
    put_back(world, held);
    t
}

/// Gives the title in `slot` of location `l` to `holder` (None: unclaimed), and
/// keeps the index of holders and the guards' cover true.
pub fn set_holder(world: &mut World, l: Entity, slot: usize, holder: Option<Entity>) {
    let new = holder.and_then(|u| world.get::<Id>(u)).map(|i| i.0.clone());
    let mut held = held_titles(world);
    let Some(mut t) = world.get_mut::<Titles>(l) else {
        put_back(world, held);
        return;
    };
    let title = t.0[slot].0;
    let old = std::mem::replace(&mut t.0[slot].1, new.clone());
    let changed = old != new;
    if let Some(o) = old
        && let Some(v) = held.get_mut(o.as_str())
    {
        v.retain(|&x| x != (l, slot));
        if v.is_empty() {
            held.remove(o.as_str());
        }
    }
    if let Some(n) = new {
        held.entry(n.to_string()).or_default().push((l, slot));
    }
    put_back(world, held);
    // GRD-REQ: the factions' cover follows the titles now, not at the next month.
    world.resource_mut::<HeldTitles>().changes += 1;
    // RPT-EVENTS: the factions there see the title change hands (its holder's
    // faction has its own event).
    if changed {
        let name = world.resource::<crate::systems::overlord::world::Catalog>().rules.titles[title].name.clone();
        let place = label(world, l);
        let (text, told) = match holder {
            Some(u) => (
                format!("{} became {name} of {place}.", label(world, u)),
                world.get::<crate::systems::overlord::world::components::Owner>(u).map(|o| o.0),
            ),
            None => (format!("The title of {name} of {place} is vacant."), None),
        };
        crate::systems::overlord::mechanics::visibility::witnessed(world, l, &text, told);
    }
}

/// ORD-CLAIM, TTL-CLAIM, TTL-CHALLENGE, TTL-OVERLORD.
fn claim(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Claim { title, location, free } = &entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let Some(at) = act.at(me) else { return Outcome::NotNow };
    if act.world.get::<Journey>(me).is_some() {
        return Outcome::NotNow;
    }
    let catalog = act.catalog().clone();
    let place_id = act.world.get::<Id>(at.location).map(|i| i.0.clone()).unwrap_or_default();
    // Executes "as soon as … the unit is at the required location".
    if location.as_ref().is_some_and(|l| !l.eq_ignore_ascii_case(&place_id)) {
        return Outcome::NotNow;
    }
    let Some(ti) = catalog.rules.titles.iter().position(|t| t.tag == *title) else {
        return Outcome::Invalid(format!("there is no title {title}"));
    };
    let t = &catalog.rules.titles[ti];
    let Some(slot) = act.world.get::<Titles>(at.location).and_then(|x| x.0.iter().position(|(i, _)| *i == ti)) else {
        return Outcome::Invalid(format!("there is no title of {} at {}", t.name, label(act.world, at.location)));
    };
    if !meets(act.world, me, &t.skill) {
        let s = catalog.skill(&t.skill.skill).map(|s| catalog.rules.skills[s.index()].name.clone()).unwrap_or_default();
        return Outcome::Invalid(format!("the title of {} needs {s} at level {}", t.name, t.skill.level));
    }
    let holder_id = act.world.get::<Titles>(at.location).and_then(|x| x.0[slot].1.clone());
    let holder = holder_id.as_deref().and_then(|h| act.unit_named(h));
    if holder == Some(me) {
        return Outcome::Invalid(format!("the unit holds the title of {} already", t.name));
    }
    if let Some((l, s)) = title_of(act.world, me) {
        let other = act.world.get::<Titles>(l).map(|x| catalog.rules.titles[x.0[s].0].name.clone()).unwrap_or_default();
        return Outcome::Invalid(format!(
            "the unit holds the title of {other}: a unit holds one title; YIELD it first"
        ));
    }
    if holder.is_some() && t.kind == TitleKind::Overlord {
        return Outcome::Invalid(format!("the title of {} can be claimed only when vacant", t.name));
    }
    if holder.is_some() && *free {
        let why = format_args!("the title of {} is held, and the claim is for a free title", t.name);
        waits(act.world, me, act.day, entry, why);
        return Outcome::NotNow;
    }
    // The cost, from the unit's own coins, always paid.
    let Some(money) = catalog.money() else { return Outcome::Invalid("this game has no money".into()) };
    let coins = act.world.get::<Inventory>(me).map_or(0, |i| i.count(money));
    if coins < t.cost {
        let why = format!("the title costs {}, and the unit has {coins}", catalog.items_text(money, u64::from(t.cost)));
        waits(act.world, me, act.day, entry, &why);
        return Outcome::NotNow;
    }
    transfer::take(&mut act.world.get_mut::<Inventory>(me).expect("unit"), money, t.cost);
    let place = label(act.world, at.location);
    let paid = catalog.items_text(money, u64::from(t.cost));
    let Some(h) = holder else {
        set_holder(act.world, at.location, slot, Some(me));
        act.log(format!("Claimed the title of {} of {place} for {paid}.", t.name));
        return Outcome::Ran(Progress::Done);
    };
    // TTL-CHALLENGE.
    let rules = &catalog.rules.info.parameters.claims;
    let present = act.present(h) && act.world.get::<Journey>(h).is_none();
    let needed = match (present, t.kind) {
        (true, _) => rules.present_percent,
        (false, TitleKind::Guild) => rules.guild_absent_percent,
        (false, _) => rules.absent_percent,
    };
    let skill = catalog.skill(&t.skill.skill);
    let points = |u: Entity| {
        act.world.get::<Skills>(u).and_then(|s| s.0.iter().find(|x| Some(x.0) == skill).map(|x| x.1)).unwrap_or(0)
    };
    let (mine, theirs) = (u64::from(points(me)), u64::from(points(h)));
    let won = mine * 100 > theirs * u64::from(needed);
    let share = t.cost * rules.holder_share_percent.min(100) / 100;
    if share > 0 {
        transfer::add(&mut act.world.get_mut::<Inventory>(h).expect("unit"), money, share);
    }
    let percent = (mine * 100).checked_div(theirs).unwrap_or(u64::MAX);
    let (me_name, h_name) = (act.name(me), act.name(h));
    let share_text = catalog.items_text(money, u64::from(share));
    if won {
        set_holder(act.world, at.location, slot, Some(me));
    }
    let (outcome, told) = if won { ("won it", "and took it") } else { ("lost", "and failed") };
    act.log(format!("Challenged {h_name} for the title of {} of {place}, paying {paid}, and {outcome}.", t.name));
    act.event(
        h,
        format!(
            "{me_name} challenged this unit for the title of {} of {place} with {percent}% of its experience, {told}; this unit received {share_text}.",
            t.name
        ),
    );
    Outcome::Ran(Progress::Done)
}

/// The acting unit's title: `(location, slot, title index)`; an order of a unit
/// holding none is invalid.
fn own_title(act: &mut Act) -> Result<(Entity, usize, usize), Outcome> {
    let Some((l, slot)) = title_of(act.world, act.unit) else {
        return Err(Outcome::Invalid("the unit holds no title".into()));
    };
    let ti = act.world.get::<Titles>(l).map_or(0, |x| x.0[slot].0);
    Ok((l, slot, ti))
}

/// ORD-YIELD.
fn yield_title(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Yield(tag) = &entry.order else { return Outcome::NotNow };
    let catalog = act.catalog().clone();
    let (l, slot, ti) = match own_title(act) {
        Ok(x) => x,
        Err(out) => return out,
    };
    let t = &catalog.rules.titles[ti];
    if tag.as_ref().is_some_and(|x| *x != t.tag) {
        return Outcome::Invalid(format!(
            "the unit holds the title of {}, not {}",
            t.name,
            tag.as_deref().unwrap_or("")
        ));
    }
    set_holder(act.world, l, slot, None);
    let place = label(act.world, l);
    act.log(format!("Yielded the title of {} of {place}: it is unclaimed.", t.name));
    Outcome::Ran(Progress::Done)
}

/// ORD-BESTOW, TTL-XFER.
fn bestow(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Bestow(target) = &entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let catalog = act.catalog().clone();
    let (l, slot, ti) = match own_title(act) {
        Ok(x) => x,
        Err(out) => return out,
    };
    let Some(to) = act.unit_named(target).filter(|&u| act.sees(u)) else {
        return Outcome::NotNow;
    };
    let t = &catalog.rules.titles[ti];
    if act.race_kind(to) != RaceKind::Leader {
        return Outcome::Invalid(format!("{} is no leader: only leaders and heroes hold titles", act.name(to)));
    }
    if title_of(act.world, to).is_some() {
        return Outcome::Invalid(format!("{} holds a title already", act.name(to)));
    }
    if !meets(act.world, to, &t.skill) {
        return Outcome::Invalid(format!(
            "{} could not claim the title of {}: it lacks the skill",
            act.name(to),
            t.name
        ));
    }
    if act.faction_of(to) != act.faction_of(me) && !diplomacy::unit_grants(act.world, to, me, StanceGrant::Gifts) {
        return Outcome::Invalid(format!("{}'s faction accepts no gifts from this unit's", act.name(to)));
    }
    set_holder(act.world, l, slot, Some(to));
    let (place, to_name, me_name) = (label(act.world, l), act.name(to), act.name(me));
    act.log(format!("Bestowed the title of {} of {place} on {to_name}.", t.name));
    act.event(to, format!("Received the title of {} of {place} from {me_name}.", t.name));
    Outcome::Ran(Progress::Done)
}
