//! The mechanics of the Overlord rules, one plugin per folder. Each plugin adds its
//! systems to the phases of [`crate::engine::schedule`].
//!
//! * [`intake`] — submitted order files replace units' pending orders (month start);
//! * [`crate::report`] — the factions' reports (report schedule).

pub mod intake;

use bevy_app::{PluginGroup, PluginGroupBuilder};

/// Every mechanic of the Overlord rules, in the order they are added.
pub struct OverlordRules;

impl PluginGroup for OverlordRules {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>().add(intake::IntakePlugin).add(crate::report::ReportPlugin)
    }
}
