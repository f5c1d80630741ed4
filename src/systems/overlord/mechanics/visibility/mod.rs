//! Who sees whom: stealth against observation (VIS-SEE, VIS-FACTION, VIS-MOVE-OBS,
//! VIS-INNER, VIS-ITEMS). One service: the reports, SEE and LEADING, GIVE and the
//! other orders naming a unit of another faction, and ATTACK ask it.
//!
//! A faction looks at a place with the best observation of its units there, a
//! travelling unit's less `sight.moving_penalty` (VIS-MOVE-OBS). It sees another
//! faction's unit there when that observation is at least the unit's stealth, or
//! whatever its observation (or with no observer able to look) when the unit shows
//! itself (VIS-SEE): it announces (SET-ANNOUNCE, its own setting or its
//! faction's), stands on guard, made money by a skill or harvested an item of some
//! weight this month ([`Exposed`]), leads one of the faction's units directly, or
//! is stacked directly under one of the faction's leaders. A stowaway deeper in a
//! stack is not seen. The faction of a unit it sees is known when the unit
//! advertises (SET-ADVERTISE), is on guard, holds a title, or when the observation
//! reaches its stealth plus `sight.faction_margin` (VIS-FACTION).
//!
//! Places are apart: units look only at the units of their own location, so those
//! of an inner location and those outside never see each other, while units in a
//! structure are seen as if outside (VIS-INNER). Of a unit it sees, a faction
//! learns the items that weigh something, never the weightless ones (coins), nor
//! the skills (VIS-ITEMS; the reports).
//!
//! Statistics are the units' [`UnitStats`], as last brought up to date (each day's
//! `taxes` step and the reports').

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::data::SightRules;
use crate::systems::overlord::mechanics::stats::UnitStats;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, FactionSettings, Journey, Occupants, OnGuard, Owner, StackLeader, StackMembers, UnitSettings,
};
use crate::systems::overlord::world::resources::Directory;
use bevy_app::{App, Plugin};
use bevy_ecs::entity::EntityHashSet;
use bevy_ecs::prelude::*;

pub mod survey;
#[cfg(test)]
mod tests;
pub mod visits;
pub mod watch;

/// Adds the month's [`Exposed`] units and clears them when a month starts.
pub struct VisibilityPlugin;

impl Plugin for VisibilityPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Exposed>();
        app.init_resource::<Watch>();
        app.init_resource::<visits::Visits>();
        app.insert_resource(crate::systems::overlord::mechanics::scheduler::Sees(sees));
        app.add_step_system("month_start", start_month);
        app.add_step_system("month_start", visits::start_month);
        app.add_step_system("knowledge", visits::record_explored);
    }
}

/// A month starts with no unit exposed, and without the last month's survey.
pub fn start_month(mut e: ResMut<Exposed>, mut commands: Commands) {
    e.0.clear();
    commands.remove_resource::<survey::Survey>();
}

/// Units that showed themselves this month: they made money by a skill or
/// harvested an item of some weight (VIS-SEE). Not saved: a month starts with none.
#[derive(Resource, Debug, Default)]
pub struct Exposed(EntityHashSet);

/// Unit `u` showed itself this month.
pub fn expose(world: &mut World, u: Entity) {
    if let Some(mut e) = world.get_resource_mut::<Exposed>() {
        e.0.insert(u);
    }
}

/// What an observer makes of a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sight {
    /// Not seen.
    Hidden,
    /// Seen, its faction unknown.
    Seen,
    /// Seen with its faction.
    Known,
}

impl Sight {
    /// Whether the unit is seen.
    pub fn seen(self) -> bool {
        self != Sight::Hidden
    }
}

/// What decides whether a unit is seen, as one observer faction finds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Facts {
    /// Its stealth.
    pub stealth: i32,
    /// It shows itself, whatever the observation (VIS-SEE).
    pub shows_itself: bool,
    /// It shows its faction to whoever sees it (VIS-FACTION).
    pub shows_faction: bool,
}

/// VIS-SEE, VIS-FACTION: what a faction whose best observation at the unit's place
/// is `observation` (`None`: no unit of its there can look) makes of a unit.
pub fn judge(rules: &SightRules, observation: Option<i32>, f: Facts) -> Sight {
    let seen = f.shows_itself || observation.is_some_and(|o| o >= f.stealth);
    let known = f.shows_faction || observation.is_some_and(|o| o >= f.stealth.saturating_add(rules.faction_margin));
    match (seen, known) {
        (false, _) => Sight::Hidden,
        (true, false) => Sight::Seen,
        (true, true) => Sight::Known,
    }
}

/// The observation unit `u` looks with: its own, less the rule set's penalty while
/// it travels (VIS-MOVE-OBS).
pub fn observation(world: &World, u: Entity) -> i32 {
    let r = world.entity(u);
    let own = r.get::<UnitStats>().map_or(0, |s| s.stats.observation);
    looks(own, r.contains::<Journey>(), rules(world).moving_penalty)
}

/// The observation a unit of observation `own` looks with, travelling or not.
fn looks(own: i32, moving: bool, penalty: i32) -> i32 {
    if moving { own.saturating_sub(penalty) } else { own }
}

/// What any faction finds of unit `u` that does not depend on how well it looks,
/// stacks aside ([`stacked_with`]); `day` is the day of the month (0 before the
/// first), and `holds_title` whether `u` holds a title.
pub fn facts(world: &World, u: Entity, day: u32, holds_title: bool) -> Facts {
    let r = world.entity(u);
    let owner = r.get::<Owner>().map(|o| o.0);
    let faction_setting = |pick: fn(&crate::systems::overlord::data::FactionSettings) -> bool| {
        owner.and_then(|f| world.get::<FactionSettings>(f)).is_some_and(|s| pick(&s.0))
    };
    let settings = r.get::<UnitSettings>().map(|s| &s.0);
    let guarding = day > 0 && r.get::<OnGuard>().is_some_and(|g| g.0 == day);
    let exposed = world.get_resource::<Exposed>().is_some_and(|e| e.0.contains(&u));
    Facts {
        stealth: r.get::<UnitStats>().map_or(0, |s| s.stats.stealth),
        shows_itself: settings.is_some_and(|s| s.announce) || faction_setting(|s| s.announce) || guarding || exposed,
        shows_faction: holds_title || shows_faction(world, u, day),
    }
}

/// Whether unit `u` shows its faction to whoever sees it on day `day`, titles aside
/// (VIS-FACTION, DIP-UNSEEN): it advertises (its own setting or its faction's,
/// SET-ADVERTISE) or stands on guard that day (GRD-SHOW).
pub fn shows_faction(world: &World, u: Entity, day: u32) -> bool {
    let Ok(r) = world.get_entity(u) else { return false };
    r.get::<UnitSettings>().is_some_and(|s| s.0.advertise)
        || (day > 0 && r.get::<OnGuard>().is_some_and(|g| g.0 == day))
        || r.get::<Owner>().and_then(|o| world.get::<FactionSettings>(o.0)).is_some_and(|s| s.0.advertise)
}

/// Whether faction `observer` knows unit `u`'s faction on day `day` (VIS-FACTION,
/// DIP-UNSEEN): its own units; a unit that shows its faction ([`shows_faction`]);
/// or one whose stealth the best observation of `observer`'s units at its place
/// beats by `sight.faction_margin`.
pub fn knows_faction(world: &World, observer: Entity, u: Entity, day: u32) -> bool {
    if world.get::<Owner>(u).is_some_and(|o| o.0 == observer) || shows_faction(world, u, day) {
        return true;
    }
    let stealth = world.get::<UnitStats>(u).map_or(0, |s| s.stats.stealth);
    let margin = rules(world).faction_margin;
    place(world, u)
        .and_then(|p| best_observation(world, observer, p))
        .is_some_and(|o| o >= stealth.saturating_add(margin))
}

/// Whether unit `u` leads one of faction `observer`'s units directly, or is stacked
/// directly under one (VIS-SEE): then that faction sees it.
pub fn stacked_with(world: &World, observer: Entity, u: Entity) -> bool {
    let ours = |x: Entity| world.get::<Owner>(x).is_some_and(|o| o.0 == observer);
    world.get::<StackLeader>(u).and_then(|s| s.0).is_some_and(ours)
        || world.get::<StackMembers>(u).is_some_and(|m| m.get().iter().any(|&x| ours(x)))
}

/// Whether unit `viewer` sees unit `other` in its place today (VIS-SEE): a unit of
/// its own faction always; another when `other` shows itself, or when the best
/// observation of the viewer's faction there reaches `other`'s stealth. The caller
/// knows both are in the same place.
pub fn sees(world: &World, viewer: Entity, other: Entity, day: u32) -> bool {
    let Some(f) = world.get::<Owner>(viewer).map(|o| o.0) else { return false };
    if world.get::<Owner>(other).is_some_and(|o| o.0 == f) {
        return true;
    }
    let x = facts(world, other, day, false);
    if x.shows_itself || observation(world, viewer) >= x.stealth || stacked_with(world, f, other) {
        return true;
    }
    // Another unit of the faction there may see further.
    place(world, other).and_then(|p| best_observation(world, f, p)).is_some_and(|o| o >= x.stealth)
}

/// The best observation of faction `f`'s units at `place` (VIS-SEE), as they stand.
pub fn best_observation(world: &World, f: Entity, place: Entity) -> Option<i32> {
    watching(world, place, |w| w.best(f)).flatten()
}

/// The factions with units at `place`, in the order of their first unit there
/// (report order): those who witness what happens there (RPT-EVENTS).
pub fn witnesses(world: &World, place: Entity) -> Vec<Entity> {
    watching(world, place, |w| w.present().to_vec()).unwrap_or_default()
}

/// Reads the watch of `place` ([`watch`]): the one kept while nothing changed
/// there, or one reckoned from its units. `None` for an entity that is no place.
fn watching<R>(world: &World, place: Entity, read: impl FnOnce(&watch::PlaceWatch) -> R) -> Option<R> {
    let book = world.get_resource::<Watch>()?;
    let occupants = world.get::<Occupants>(place)?;
    let dir = world.resource::<Directory>();
    let key = watch::WatchKey { place: occupants.changes(), order: dir.unit_changes() };
    let mut book = book.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let w = book.get(place, key, |units| {
        let penalty = rules(world).moving_penalty;
        for &u in occupants.get() {
            let Ok(r) = world.get_entity(u) else { continue };
            // The location's units, not the structure's (a structure is seen into).
            let (Some(at), Some(o), Some(k)) = (r.get::<At>(), r.get::<Owner>(), dir.unit_key(u)) else { continue };
            if at.location != place {
                continue;
            }
            let own = r.get::<UnitStats>().map_or(0, |s| s.stats.observation);
            units.push((k, o.0, looks(own, r.contains::<Journey>(), penalty)));
        }
    });
    Some(read(w))
}

/// Tells every faction with units at `place` today what happened there, as a dated
/// event of the faction (RPT-EVENTS: "all global events your units can see"),
/// except `told`, already told.
pub fn witnessed(world: &mut World, place: Entity, text: &str, told: Option<Entity>) {
    let day = world.get_resource::<crate::core::engine::plan::Clock>().map_or(0, |c| c.tick);
    for f in witnesses(world, place) {
        if Some(f) == told {
            continue;
        }
        if let Some(mut e) = world.get_mut::<crate::systems::overlord::world::components::Events>(f) {
            e.push(day, text.to_string());
        }
    }
}

/// The watch of each place asked about, kept while nothing there changes
/// ([`watch`]). Behind a lock, so that questions asked through a shared world
/// (SEE in a condition, the reports) may keep what they reckon.
#[derive(Resource, Debug, Default)]
pub struct Watch(std::sync::Mutex<watch::WatchBook>);

/// Where unit `u` can be seen from: its location (a structure is seen into).
pub fn place(world: &World, u: Entity) -> Option<Entity> {
    world.get::<At>(u).map(|a| a.location)
}

/// The rules of sight of the rule set.
pub fn rules(world: &World) -> &SightRules {
    &world.resource::<Catalog>().rules.info.parameters.sight
}
