//! Order intake: at the start of the month, each submitted order file replaces the
//! pending orders of the units it has a `UNIT` block for (FILE-REPLACE). Units
//! without a block keep their list (FILE-PERSIST).
//!
//! A block for a unit that does not exist or belongs to another faction is ignored,
//! with the same message in both cases, so that a player cannot probe for other
//! factions' unit ids. Faction orders (NAME, PASSWORD, …) are carried out by the
//! faction-orders mechanic; until it exists they are reported as not carried out.

use crate::engine::components::{Events, Faction, Orders, Owner, Unit};
use crate::engine::resources::{Directory, Kind, Submissions};
use crate::engine::schedule::{MonthStart, MonthStep};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Adds [`apply_submissions`] to [`MonthStep::Orders`].
pub struct IntakePlugin;

impl Plugin for IntakePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(MonthStart, apply_submissions.in_set(MonthStep::Orders));
    }
}

/// Applies the month's order files, in faction order.
pub fn apply_submissions(
    submissions: Res<Submissions>,
    dir: Res<Directory>,
    mut units: Query<(&Owner, &mut Orders, &mut Events), With<Unit>>,
    mut factions: Query<&mut Events, (With<Faction>, Without<Unit>)>,
) {
    for file in &submissions.0 {
        let Some(faction) = dir.get(Kind::Faction, &file.header.faction) else { continue };
        let mut notes = Vec::new();
        for line in &file.faction_orders {
            notes.push(format!(
                "Line {}: `{}` was not carried out: faction orders are not supported yet.",
                line.line, line.text
            ));
        }
        for w in &file.warnings {
            notes.push(format!("Orders, {w}."));
        }
        for block in &file.units {
            let found =
                dir.get(Kind::Unit, &block.unit).filter(|&u| units.get(u).is_ok_and(|(o, _, _)| o.0 == faction));
            let Some(unit) = found else {
                notes.push(format!("Line {}: orders for {} ignored: not one of your units.", block.line, block.unit));
                continue;
            };
            let (_, mut orders, mut events) = units.get_mut(unit).expect("checked above");
            orders.0 = block.orders.iter().map(|l| l.text.clone()).collect();
            let n = orders.0.len();
            events.push(0, format!("Received {n} order{}.", if n == 1 { "" } else { "s" }));
        }
        if let Ok(mut events) = factions.get_mut(faction) {
            for n in notes {
                events.push(0, n);
            }
        }
    }
}

#[cfg(test)]
mod tests;
