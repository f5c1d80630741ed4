//! The JSON report. Its schema is `docs/report-schema.json`.
//!
//! The JSON report is for programs (order editors, mappers), so it is written
//! compactly, on one line: pretty-printing made it 70% larger and took a fifth of
//! the time of a turn on large worlds. `jq .` or any JSON viewer indents it.

use super::model::FactionReport;

/// Renders a report as compact JSON (UTF-8), ending with a newline. Maps are
/// sorted by key, lists are in report order, so equal reports give equal bytes.
pub fn render(r: &FactionReport) -> Vec<u8> {
    // About 800 bytes per unit record, 700 per location and 200 per unit seen
    // there (fitted on generated and imported worlds): one allocation in most cases.
    let guess = 2048 + 800 * r.units.len() + 700 * r.locations.len() + 200 * r.units_seen();
    let mut out = Vec::with_capacity(guess);
    crate::core::data::jsonwrite::to_vec_in(&mut out, r).expect("report models always serialise");
    out.push(b'\n');
    out
}
