//! CANCEL title location (ORD-CANCEL, TTL-LAND, TTL-XFER): a land title revokes a
//! lower one within its range.
//!
//! Immediate, for title holders. The order waits until the unit stands at the
//! location named. It is removed, with the reason, when the unit's title gives no
//! right to cancel that title (`cancels` in `titles.ron`: a Baron a Sheriff's, a
//! Marquis a Lord's), when the place bears no such title or nobody holds it, when
//! the place is out of the range of the canceller's title (what the title would own,
//! [`super::reach`]), or when the holder has as much experience as the canceller in
//! the right's skill (combat) or more: "more combat experience" is strictly more.
//! A cancelled title is unclaimed ("cancelled titles become free again"); it costs
//! nothing, and its holder is told who cancelled it.

use super::owners::reach;
use crate::systems::overlord::mechanics::scheduler::{Act, label};
use crate::systems::overlord::mechanics::titles;
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::{Entry, Order};
use crate::systems::overlord::world::components::{Skills, Titles};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_ecs::prelude::*;

/// ORD-CANCEL.
pub fn cancel(act: &mut Act, entry: &mut Entry) -> Outcome {
    let Order::Cancel { title, location } = &entry.order else { return Outcome::NotNow };
    let me = act.unit;
    let catalog = act.catalog().clone();
    let Some((mine_at, mine_slot)) = titles::title_of(act.world, me) else {
        return Outcome::Invalid("only a title holder may cancel a title, and the unit holds none".into());
    };
    let mine = act.world.get::<Titles>(mine_at).map_or(0, |t| t.0[mine_slot].0);
    let own = &catalog.rules.titles[mine];
    let Some(right) = own.cancels.as_ref().filter(|r| r.titles.iter().any(|t| t.eq_ignore_ascii_case(title))) else {
        return Outcome::Invalid(format!("the title of {} gives no right to cancel a title {title}", own.name));
    };
    let Some(place) = act.world.resource::<Directory>().get(Kind::Location, location) else {
        return Outcome::Invalid(format!("there is no location {location}"));
    };
    if act.at(me).is_none_or(|a| a.location != place) {
        return Outcome::NotNow;
    }
    let found = act.world.get::<Titles>(place).and_then(|t| {
        t.0.iter()
            .enumerate()
            .find(|(_, (ti, _))| catalog.rules.titles[*ti].tag.eq_ignore_ascii_case(title))
            .map(|(slot, (ti, h))| (slot, *ti, h.clone()))
    });
    let here = label(act.world, place);
    let Some((slot, ti, holder)) = found else {
        return Outcome::Invalid(format!("{here} bears no title {title}"));
    };
    let name = &catalog.rules.titles[ti].name;
    let Some(holder) = holder.as_deref().and_then(|h| act.unit_named(h)) else {
        return Outcome::Invalid(format!("nobody holds the title of {name} of {here}"));
    };
    if !reach(act.world, mine_at, mine).covers(place) {
        return Outcome::Invalid(format!("{here} is out of the range of the title of {}", own.name));
    }
    let skill = catalog.skill(&right.skill);
    let points = |u: Entity| {
        act.world.get::<Skills>(u).and_then(|s| s.0.iter().find(|x| Some(x.0) == skill).map(|x| x.1)).unwrap_or(0)
    };
    if points(me) <= points(holder) {
        let s = skill.map(|s| catalog.rules.skills[s.index()].name.clone()).unwrap_or_default();
        return Outcome::Invalid(format!(
            "{} has as much {s} experience as this unit or more: the title of {name} stands",
            act.name(holder)
        ));
    }
    titles::set_holder(act.world, place, slot, None);
    let (them, me_name) = (act.name(holder), act.name(me));
    act.log(format!("Cancelled the title of {name} of {here}, held by {them}: it is unclaimed."));
    act.event(holder, format!("{me_name}, {} by title, cancelled this unit's title of {name} of {here}.", own.name));
    Outcome::Ran(Progress::Done)
}
