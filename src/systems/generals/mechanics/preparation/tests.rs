//! Prepared battlefields (generals-rules.txt 49-50).

use crate::systems::generals::fixture::{a_row, play};

#[test]
fn a_battlefield_stays_prepared_while_its_general_stays() {
    let mut g = play(a_row());
    g.orders("p1", "GENERAL \"Ann\": PREPARE").run();
    assert_eq!(g.region("R1").prepared_by.as_deref(), Some("Ann"));
    assert!(g.said("p1", "line 2: Ann prepared the battlefield of Region R1 [R1]."));
    assert_eq!(g.report("p1").regions[0].prepared_by.as_deref(), Some("Ann"));
    g.run();
    assert_eq!(g.region("R1").prepared_by.as_deref(), Some("Ann"), "he rests there");
    // "If the general leaves the region, the prepared battlefield bonus is lost."
    g.orders("p1", "GENERAL \"Ann\": TRAVEL R2").run();
    assert_eq!(g.region("R1").prepared_by, None);
}
