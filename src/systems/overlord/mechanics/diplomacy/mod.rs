//! Diplomacy: the stances factions hold toward each other (§7; ORD-STANCE,
//! DIP-LEVELS, DIP-DEFAULT).
//!
//! `STANCE faction stance` sets the stance of the unit's faction toward another
//! faction; naming the unit's own faction sets its default stance, which covers
//! every faction without an explicit one (explicit stances keep their value). The
//! stances are the rule set's (`diplomacy.ron`): their ranks, the stance a faction
//! holds toward itself (`toward_self`), and what each grants ([`StanceGrant`]).
//! Other mechanics ask whether a faction [`grants`] another a capability, or a
//! unit ([`grants_unit`]: DIP-UNSEEN, a unit that does not show its faction is
//! judged by the default stance); none names a stance.

use crate::core::data::stances::StanceId;
use crate::systems::overlord::data::StanceGrant;
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers};
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::{Entry, Keyword, Order};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Diplomacy, Id, LandOwner, Owner};
use crate::systems::overlord::world::resources::Occupation;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

#[cfg(test)]
mod tests;

/// Registers STANCE.
pub struct DiplomacyPlugin;

impl Plugin for DiplomacyPlugin {
    fn build(&self, app: &mut App) {
        app.world_mut().resource_mut::<OrderHandlers>().set(module_path!(), Keyword::Stance, stance);
    }
}

/// ORD-STANCE, DIP-DEFAULT.
fn stance(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Stance { faction, stance } = &entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let Some(mine) = act.faction_of(me) else { return Outcome::NotNow };
    let Some(target) = act.faction_named(faction) else {
        return Outcome::Invalid(format!("there is no faction {faction}"));
    };
    let table = &act.catalog().stances;
    let Some(s) = table.by_word(stance) else {
        return Outcome::Invalid(format!("there is no stance {stance}"));
    };
    let name = table.name(s).to_string();
    let target_id = act.world.get::<Id>(target).map(|i| i.0.clone()).unwrap_or_default();
    let mut d = act.world.get_mut::<Diplomacy>(mine).expect("faction");
    let note = if target == mine {
        // DIP-DEFAULT: explicit stances keep their value.
        d.default = Some(s);
        format!("Default stance is now {name}.")
    } else {
        d.set(target, s);
        format!("Stance toward {target_id} is now {name}.")
    };
    act.log(note);
    Outcome::Ran(Progress::Step)
}

/// The stance faction `of` holds toward faction `toward` (DIP-DEFAULT): the explicit
/// one, else its default; toward itself, the rule set's own stance.
pub fn stance_of(world: &World, of: Entity, toward: Entity) -> Option<StanceId> {
    if of == toward {
        return world.resource::<Catalog>().stances.toward_self();
    }
    world.get::<Diplomacy>(of)?.toward(toward)
}

/// Whether faction `of` grants faction `toward` `what` by the stance it holds
/// toward it (§7). DIP-MUTUAL: a favour is void toward a faction whose own stance
/// toward `of` spurns it ([`StanceGrant::Spurn`]: Hostile, Enemy).
pub fn grants(world: &World, of: Entity, toward: Entity, what: StanceGrant) -> bool {
    let table = &world.resource::<Catalog>().stances;
    let held = |a: Entity, b: Entity, g: StanceGrant| stance_of(world, a, b).is_some_and(|s| table.grants(s, g));
    held(of, toward, what) && !(what.is_favour() && of != toward && held(toward, of, StanceGrant::Spurn))
}

/// Whether the faction of unit `of` grants unit `toward` `what` ([`grants_unit`]).
pub fn unit_grants(world: &World, of: Entity, toward: Entity, what: StanceGrant) -> bool {
    world.get::<Owner>(of).is_some_and(|a| grants_unit(world, a.0, toward, what))
}

/// Whether unit `u` shows its faction to the other factions (DIP-UNSEEN): it
/// advertises (its own setting or its faction's, SET-ADVERTISE) or stands on guard
/// today (GRD-SHOW). Units of a faction always know each other.
pub fn faction_shown(world: &World, u: Entity) -> bool {
    let day = world.get_resource::<crate::core::engine::plan::Clock>().map_or(0, |c| c.tick);
    crate::systems::overlord::mechanics::visibility::shows_faction(world, u, day)
}

/// The stance faction `of` holds toward the units of faction `f` that do not show
/// their faction (DIP-UNSEEN): its default stance, or its declared stance toward
/// `f` when that is better (a higher rank) and `f` holds `of` at least at the
/// `Gifts` grant (Friendly).
pub fn unseen_stance(world: &World, of: Entity, f: Entity) -> Option<StanceId> {
    let table = &world.resource::<Catalog>().stances;
    let default = world.get::<Diplomacy>(of)?.default;
    let declared = stance_of(world, of, f);
    match (declared, default) {
        (Some(d), Some(def))
            if table.rank(d) > table.rank(def)
                && stance_of(world, f, of).is_some_and(|s| table.grants(s, StanceGrant::Gifts)) =>
        {
            Some(d)
        }
        (_, Some(def)) => Some(def),
        (d, None) => d,
    }
}

/// Whether faction `of` grants unit `u` `what` (§7 with DIP-UNSEEN): by its stance
/// toward `u`'s faction when it knows that faction (the unit shows it, or `of`'s
/// units there see through its stealth by the faction margin,
/// [`visibility::knows_faction`]), else by [`unseen_stance`]. Gifts are taken as
/// the unit's real faction's would be, and an unseen unit may always harvest.
/// DIP-MUTUAL as in [`grants`].
///
/// [`visibility::knows_faction`]: crate::systems::overlord::mechanics::visibility::knows_faction
pub fn grants_unit(world: &World, of: Entity, u: Entity, what: StanceGrant) -> bool {
    let Some(f) = world.get::<Owner>(u).map(|o| o.0) else { return false };
    let known = grants(world, of, f, what);
    if f == of || what == StanceGrant::Gifts {
        return known;
    }
    let unseen = match what {
        StanceGrant::Harvest => true,
        // "You will not join a battle if you don't see the unit's faction."
        StanceGrant::Aid | StanceGrant::Defend => false,
        _ => {
            let table = &world.resource::<Catalog>().stances;
            let held = unseen_stance(world, of, f).is_some_and(|s| table.grants(s, what));
            held && !(what.is_favour() && stance_of(world, f, of).is_some_and(|s| table.grants(s, StanceGrant::Spurn)))
        }
    };
    // Whether `of` knows the unit's faction is asked only when the answer turns
    // on it: it is the dearer question (the best observation of `of`'s units there).
    if known == unseen {
        return known;
    }
    let day = world.get_resource::<crate::core::engine::plan::Clock>().map_or(0, |c| c.tick);
    if crate::systems::overlord::mechanics::visibility::knows_faction(world, of, u, day) { known } else { unseen }
}

/// The factions whose policy rules `place` (OWN-POLICY): its legal owner, and the
/// faction occupying it as of the last day's end ([`Occupation`]).
pub fn authorities(world: &World, place: Entity) -> [Option<Entity>; 2] {
    let owner = world.get::<LandOwner>(place).and_then(|o| o.0.as_ref().map(|x| x.0));
    let occupier = world.get_resource::<Occupation>().and_then(|b| b.0.get(&place).copied());
    [owner, occupier.filter(|&o| Some(o) != owner)]
}

/// The first of the factions ruling `place` ([`authorities`]) other than unit
/// `u`'s whose stance toward `u` ([`grants_unit`]) grants `what` (a hostile grant:
/// `Embargo`, `Bar`) or, for a favour (`Harvest`, `Ground`, …), does not grant it;
/// with its role, for the report ("owns the land", "occupies the land").
/// OWN-POLICY: Neutral factions may enter, trade and recruit, Friendly ones harvest
/// too, allies pillage (rulings 11).
pub fn barring(world: &World, place: Entity, u: Entity, what: StanceGrant) -> Option<(Entity, &'static str)> {
    let [owner, occupier] = authorities(world, place);
    // Most places have neither: the unit's faction is looked up only where one is.
    if owner.is_none() && occupier.is_none() {
        return None;
    }
    let f = world.get::<Owner>(u)?.0;
    [(owner, "owns the land"), (occupier, "occupies the land")].into_iter().find_map(|(a, role)| {
        let a = a.filter(|&a| a != f)?;
        (grants_unit(world, a, u, what) != what.is_favour()).then_some((a, role))
    })
}
