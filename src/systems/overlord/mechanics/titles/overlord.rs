//! TTL-OVERLORD: the factions that serve the Overlord (scenario: `serves_overlord`;
//! the Imperials and the Citizens) hold the faction of the Overlord's title holder
//! as `claims.overlord_holder_stance` (an ally) and the faction that lost it as
//! `claims.overlord_loser_stance` (an enemy).
//!
//! The holder's faction is looked at when a title changed hands ([`super::changes`])
//! at the end of each day, and at the month's end after the changes of allegiance,
//! so a claim, a bestowal, a battle or an oath all count. A serving faction never
//! takes a stance toward itself. The factions concerned are told.

use super::HeldTitles;
use crate::core::engine::plan::Clock;
use crate::systems::overlord::data::TitleKind;
use crate::systems::overlord::mechanics::scheduler::label;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Destroyed, Diplomacy, Events, FactionRole, Owner, Titles};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_ecs::prelude::*;

/// The Overlord's seat as last seen: where its titles are, whose faction holds one.
#[derive(Resource, Debug, Default)]
pub struct OverlordSeat {
    /// Overlord titles: (location, slot), in location order.
    slots: Vec<(Entity, usize)>,
    /// The faction of the first holder, at the last look.
    faction: Option<Entity>,
    /// [`HeldTitles`] changes at the last look.
    seen: u64,
}

/// The faction of the first held Overlord title.
fn seated(world: &World, slots: &[(Entity, usize)]) -> Option<Entity> {
    let dir = world.resource::<Directory>();
    slots.iter().find_map(|&(l, slot)| {
        let holder = world.get::<Titles>(l)?.0.get(slot)?.1.as_deref()?;
        world.get::<Owner>(dir.get(Kind::Unit, holder)?).map(|o| o.0)
    })
}

/// Month start: finds the Overlord's titles and their holder's faction.
pub fn find_the_seat(world: &mut World) {
    let catalog = world.resource::<Catalog>();
    let mut slots = Vec::new();
    for &l in &world.resource::<Directory>().locations {
        if let Some(t) = world.get::<Titles>(l) {
            for (slot, (ti, _)) in t.0.iter().enumerate() {
                if catalog.rules.titles[*ti].kind == TitleKind::Overlord {
                    slots.push((l, slot));
                }
            }
        }
    }
    let faction = seated(world, &slots);
    let seen = super::changes(world);
    world.insert_resource(OverlordSeat { slots, faction, seen });
}

/// After a day, and at the month's end: the servants' stances follow the title.
pub fn serve_the_overlord(world: &mut World) {
    let changes = world.get_resource::<HeldTitles>().map_or(0, |h| h.changes);
    let Some(seat) = world.get_resource::<OverlordSeat>() else { return };
    if seat.seen == changes {
        return;
    }
    let (before, now) = (seat.faction, seated(world, &seat.slots));
    {
        let mut seat = world.resource_mut::<OverlordSeat>();
        seat.seen = changes;
        seat.faction = now;
    }
    if before == now {
        return;
    }
    let catalog = world.resource::<Catalog>().clone();
    let claims = &catalog.rules.info.parameters.claims;
    let table = &catalog.stances;
    let (ally, enemy) = (table.by_word(&claims.overlord_holder_stance), table.by_word(&claims.overlord_loser_stance));
    let servants: Vec<Entity> = world
        .resource::<Directory>()
        .factions
        .iter()
        .copied()
        .filter(|&f| world.get::<FactionRole>(f).is_some_and(|r| r.serves_overlord))
        .filter(|&f| !world.entity(f).contains::<Destroyed>())
        .collect();
    let day = world.resource::<Clock>().tick;
    for (who, stance) in [(now, ally), (before, enemy)] {
        let (Some(who), Some(stance)) = (who, stance) else { continue };
        let mut told = Vec::new();
        for &s in servants.iter().filter(|&&s| s != who) {
            world.get_mut::<Diplomacy>(s).expect("faction").set(who, stance);
            told.push(label(world, s));
        }
        if !told.is_empty() {
            let text = format!(
                "{} now declare{} the faction {}: {}.",
                told.join(" and "),
                if told.len() == 1 { "s" } else { "" },
                table.name(stance),
                if Some(who) == now { "it holds the Overlord's title" } else { "it lost the Overlord's title" }
            );
            world.get_mut::<Events>(who).expect("faction").push(day, text);
        }
    }
}
