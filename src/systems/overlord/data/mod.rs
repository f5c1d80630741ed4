//! Rule sets and scenarios: the data a game is made of.
//!
//! * [`rules`] — the rule set types (`assets/rules/<name>/*.ron`);
//! * [`scenario`] — the scenario types (`scenarios/<name>/*.ron`);
//! * [`load`] — reading and writing those folders;
//! * [`validate`](mod@validate) — cross-reference checks, reported with file, line and column;
//!
//! The field-by-field reference for modders is `docs/data-format.md`, and the
//! rustdoc of these types.

pub mod common;
pub mod ids;
pub mod load;
pub mod rules;
pub mod scenario;
pub mod validate;

pub use common::*;
pub use load::{GameData, load_game, load_ruleset, load_scenario, save_ruleset, save_scenario, scenario_files};
pub use rules::*;
pub use scenario::*;
pub use validate::{Counts, Issue, validate};
