//! The orders of an imported legacy game, read with the engine's order language.
//!
//! The importer (`legacy`) sits beside the order language, not above it, so it
//! keeps each unit's `ORDER` lines as text and notes where it read them. Here every
//! such order is read as the engine will read it: one that cannot be read is left
//! out of the scenario with a warning naming its legacy file and line, so that the
//! first turn's order templates check clean.

use crate::core::diag::Diagnostic;
use crate::systems::overlord::legacy::Imported;
use crate::systems::overlord::orders::line::parse_entry;
use crate::systems::overlord::world::Catalog;
use std::collections::HashMap;
use std::sync::Arc;

/// Leaves out of `imported`'s units every order the order language cannot read;
/// one warning per order left out.
pub fn drop_unreadable(imported: &mut Imported) -> Vec<Diagnostic> {
    let catalog = Catalog::new(Arc::new(imported.rules.clone()));
    let units: HashMap<&str, usize> =
        imported.scenario.units.iter().enumerate().map(|(i, u)| (u.id.as_str(), i)).collect();
    let mut gone: Vec<(usize, usize)> = Vec::new();
    let mut diags = Vec::new();
    for src in &imported.orders {
        let Some(&i) = units.get(src.unit.as_str()) else { continue };
        let Some(text) = imported.scenario.units[i].orders.get(src.index) else { continue };
        if let Err(reason) = parse_entry(text, &catalog) {
            let msg = format!("ORDER {text}: cannot be read ({reason}); the order is left out");
            diags.push(Diagnostic::warning(&src.file, src.line, 0, msg));
            gone.push((i, src.index));
        }
    }
    // Last first, so that the positions still to remove stay right.
    gone.sort_unstable();
    for &(i, k) in gone.iter().rev() {
        imported.scenario.units[i].orders.remove(k);
    }
    diags
}
