//! The order template at the end of a text report (RPT-TEMPLATE: "an order
//! template … at the end"; the rules' players "use orders template at the end of
//! the report").
//!
//! Every rule system's text report ends with a line [`HEADING`], a blank line and
//! the template, which begins with its `GAME` line ([`append`]). The template is
//! not written again in a file of its own: a game of many factions would create a
//! file more per faction and turn (creating a file costs more than writing a
//! report's bytes), for bytes the report already holds. What hands a player the
//! template (the report mail's attachment, the web order editor, `overlord report
//! --template`) takes it from the report ([`of`]).

/// The line before the template.
pub const HEADING: &str = "Orders template:";

/// Where the template starts: the heading on a line of its own, a blank line and
/// the template's `GAME` line.
const MARK: &str = "\nOrders template:\n\nGAME ";

/// Ends `report` with the heading and `template` (which begins with its `GAME`
/// line).
pub fn append(report: &mut String, template: &str) {
    debug_assert!(template.starts_with("GAME "), "a template begins with its GAME line");
    report.push('\n');
    report.push_str(HEADING);
    report.push_str("\n\n");
    report.push_str(template);
}

/// The template at the end of text report `report`: from the `GAME` line after
/// the first line [`HEADING`] that is followed by a blank line and a `GAME` line,
/// to the end. A report body never has such lines (its lines that begin with a
/// name go on after it, and no line of it begins with `GAME `), so the first is
/// the template's, whatever orders the template holds. `None` for a report without
/// one.
pub fn of(report: &[u8]) -> Option<&[u8]> {
    let mark = MARK.as_bytes();
    let at = report.windows(mark.len()).position(|w| w == mark)?;
    Some(&report[at + mark.len() - "GAME ".len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_is_found_after_its_heading_whatever_the_body_or_the_orders_say() {
        // RPT-TEMPLATE
        let template = "GAME f1 <password> g\n\nUNIT U1  # Orders template:\nOrders template:\n\nGAME x\n\nEND\n";
        let mut report =
            String::from("g Report for Turn 1\nOrders template: [U1] at Ford [L1],\n  Orders template:\n\nUnits:\n");
        append(&mut report, template);
        assert!(report.ends_with(&format!("\n\n{HEADING}\n\n{template}")), "{report}");
        assert_eq!(of(report.as_bytes()), Some(template.as_bytes()));
        assert_eq!(of(b"g Report for Turn 1\n\nUnits:\n"), None);
        assert_eq!(of(b""), None);
    }
}
