//! OWN-LEGAL: who owns each place's land, reckoned at month end from the titles
//! that cover it.

use crate::systems::overlord::data::TitleKind;
use crate::systems::overlord::mechanics::movement::Travel;
use crate::systems::overlord::mechanics::movement::routes::Routes;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Id, LandOwner, Owner, Titles};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;

/// How local a covering title is, smallest first: its range, the walking days to
/// the place, its location in report order, its slot there.
type Locality = (u32, u32, usize, usize);

/// The places a title at `l` (its index `ti` in the rule set) covers, with their
/// walking days from `l`: a land title or the Overlord's, within its `range`
/// (rulings 5); an Overlord's title with no range covers every place. Guild titles
/// cover nothing.
pub fn reach(world: &World, l: Entity, ti: usize) -> Reach {
    let catalog = world.resource::<Catalog>();
    let t = &catalog.rules.titles[ti];
    match t.kind {
        TitleKind::Guild => Reach::Places(Vec::new()),
        TitleKind::Overlord if t.range == 0 => Reach::Everywhere,
        _ => match (world.get_resource::<Routes>(), world.get_resource::<Travel>()) {
            (Some(r), Some(tb)) => Reach::Places(r.within(catalog, &tb.0, l, t.range)),
            _ => Reach::Places(vec![(l, 0)]),
        },
    }
}

/// What a title covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// Every place.
    Everywhere,
    /// These places, with their walking days from the title's.
    Places(Vec<(Entity, u32)>),
}

impl Reach {
    /// Whether `place` is covered.
    pub fn covers(&self, place: Entity) -> bool {
        match self {
            Reach::Everywhere => true,
            Reach::Places(v) => v.iter().any(|x| x.0 == place),
        }
    }
}

/// Month end (OWN-LEGAL): each place is owned by the faction of the holder of the
/// most local title covering it: the smallest range, then the nearest title, then
/// the title's place in report order. A place no title covers has no owner.
pub fn reckon_owners(world: &mut World) {
    let catalog = world.resource::<Catalog>();
    let dir = world.resource::<Directory>();
    // (range, days, place order, slot) → faction and title place.
    let mut best: EntityHashMap<(Locality, Entity, String)> = EntityHashMap::default();
    for (order, &l) in dir.locations.iter().enumerate() {
        let Some(titles) = world.get::<Titles>(l) else { continue };
        for (slot, (ti, holder)) in titles.0.iter().enumerate() {
            let Some(f) =
                holder.as_deref().and_then(|h| dir.get(Kind::Unit, h)).and_then(|u| world.get::<Owner>(u)).map(|o| o.0)
            else {
                continue;
            };
            let range = catalog.rules.titles[*ti].range;
            let id = world.get::<Id>(l).map(|i| i.0.clone()).unwrap_or_default();
            let places = match reach(world, l, *ti) {
                Reach::Everywhere => dir.locations.iter().map(|&p| (p, u32::MAX)).collect(),
                Reach::Places(v) => v,
            };
            for (p, days) in places {
                let key = (range, days, order, slot);
                if best.get(&p).is_none_or(|b| key < b.0) {
                    best.insert(p, (key, f, id.clone()));
                }
            }
        }
    }
    for l in dir.locations.clone() {
        let now = best.remove(&l).map(|(_, f, id)| (f, Some(id)));
        if let Some(mut o) = world.get_mut::<LandOwner>(l)
            && o.0 != now
        {
            o.0 = now;
        }
    }
}

/// The most local title held by a unit of faction `f` that covers `place`, as
/// [`reckon_owners`] orders them: its place, its slot and its holder.
pub fn local_title(world: &World, place: Entity, f: Entity) -> Option<(Entity, usize, Entity)> {
    let catalog = world.resource::<Catalog>();
    let dir = world.resource::<Directory>();
    let mut best: Option<(Locality, Entity, usize, Entity)> = None;
    for (order, &l) in dir.locations.iter().enumerate() {
        let Some(titles) = world.get::<Titles>(l) else { continue };
        for (slot, (ti, holder)) in titles.0.iter().enumerate() {
            let Some(u) = holder.as_deref().and_then(|h| dir.get(Kind::Unit, h)) else { continue };
            if world.get::<Owner>(u).map(|o| o.0) != Some(f) {
                continue;
            }
            let days = match reach(world, l, *ti) {
                Reach::Everywhere => u32::MAX,
                Reach::Places(v) => match v.iter().find(|x| x.0 == place) {
                    Some(x) => x.1,
                    None => continue,
                },
            };
            let key = (catalog.rules.titles[*ti].range, days, order, slot);
            if best.as_ref().is_none_or(|b| key < b.0) {
                best = Some((key, l, slot, u));
            }
        }
    }
    best.map(|b| (b.1, b.2, b.3))
}
