//! Faction reports: one model per faction and turn ([`model`]), built from the world
//! in the plan's `reports` step ([`build`]), rendered as text ([`text`]) and JSON ([`json`]).
//!
//! A report shows only what the faction's units could observe: the faction's own
//! units in full, and the locations where it has units, with the units present there
//! as anyone in the location sees them (RPT-UNIT, RPT-LOC). The JSON form is
//! published as `docs/report-schema.json` and only grows: fields are added, never
//! renamed or removed.

pub mod build;
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

/// When present, the month's end builds no reports: a caller that writes them
/// builds them a batch at a time ([`build::Builder`]), so that a big world's reports
/// never sit in memory all at once.
#[derive(Resource, Debug, Default)]
pub struct DeferReports;

/// Adds report building to the plan's `reports` step.
pub struct ReportPlugin;

impl Plugin for ReportPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("reports", build::build_reports);
    }
}

#[cfg(test)]
mod tests;
