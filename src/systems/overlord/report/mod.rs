//! Faction reports: one model per faction and turn ([`model`]), built from the world
//! in the plan's `reports` step ([`build`]), rendered as text ([`text`]) and JSON
//! ([`json`]), and as an HTML page from the stored JSON when asked ([`html`]).
//!
//! A report shows only what the faction's units could observe: the faction's own
//! units in full, and the locations where it has units, with the units present there
//! as anyone in the location sees them (RPT-UNIT, RPT-LOC). The JSON form is
//! published as `docs/report-schema.json` and only grows: fields are added, never
//! renamed or removed.

pub mod battle;
pub mod build;
pub mod describe;
pub mod html;
pub mod json;
pub mod model;
pub mod text;

pub use model::*;

use crate::core::engine::plan::PlanApp;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// The reports of the last month (or of the starting state), in faction order.
#[derive(Resource, Debug, Default, Clone)]
pub struct Reports(pub Vec<FactionReport>);

/// Builds and renders the reports of a world a faction at a time: the
/// text report (ending with the order template) and the JSON report of each
/// faction.
pub struct Writer<'w> {
    world: &'w World,
    builder: build::Builder<'w>,
}

impl<'w> Writer<'w> {
    /// Indexes `world` for its reports.
    pub fn new(world: &'w World) -> Self {
        Writer { world, builder: build::Builder::new(world) }
    }
}

impl crate::core::system::ReportWriter for Writer<'_> {
    fn factions(&self) -> usize {
        self.builder.factions()
    }

    fn size(&self, faction: usize) -> usize {
        self.builder.size(faction)
    }

    fn one(&self, faction: usize) -> Vec<crate::core::system::FolderFile> {
        // Each faction's model is built, rendered and dropped on one thread: what is
        // kept is its files, never all the models at once.
        let catalog = self.world.resource::<crate::systems::overlord::world::Catalog>();
        render(&self.builder.one(faction), catalog).into()
    }
}

/// The report files of `reports` (text and JSON), in faction order,
/// rendered on `threads` threads.
pub fn files(world: &World, reports: &[FactionReport], threads: usize) -> Vec<crate::core::system::FolderFile> {
    let catalog = world.resource::<crate::systems::overlord::world::Catalog>();
    crate::core::engine::parallel::map_ordered(reports, threads, |r| render(r, catalog)).into_iter().flatten().collect()
}

/// The report files of one faction: its text report (which ends with its order
/// template) and its JSON report.
fn render(
    r: &FactionReport,
    catalog: &crate::systems::overlord::world::Catalog,
) -> [crate::core::system::FolderFile; 2] {
    // `reports/<faction id><ending>`, put together without the formatting machinery.
    let path = |ending: &str| {
        let id = &r.faction.id;
        let mut p = String::with_capacity("reports/".len() + id.len() + ending.len());
        crate::put!(&mut p, "reports/", id, ending);
        std::path::PathBuf::from(p)
    };
    [(path(".txt"), text::render(r, catalog).into_bytes()), (path(".json"), json::render(r))]
}

/// Adds report building to the plan's `reports` step.
pub struct ReportPlugin;

impl Plugin for ReportPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("reports", build::build_reports);
    }
}

#[cfg(test)]
mod tests;
