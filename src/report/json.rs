//! The JSON report. Its schema is `docs/report-schema.json`.

use super::model::FactionReport;

/// Renders a report as pretty-printed JSON, ending with a newline. Maps are sorted by
/// key, lists are in report order, so equal reports give equal bytes.
pub fn render(r: &FactionReport) -> String {
    let mut s = serde_json::to_string_pretty(r).expect("report models always serialise");
    s.push('\n');
    s
}
