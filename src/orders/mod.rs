//! The order language: order files as players write them.
//!
//! This module knows nothing of the game world. It turns the text of an order file
//! into an [`OrderFile`]: the header (`GAME faction password [turn|game]`, RULINGS §1),
//! the faction orders before the first `UNIT`, and one block of order lines per unit.
//! The engine applies those blocks at the start of a turn (FILE-REPLACE): a unit with a
//! block gets exactly those orders as its pending list; a unit without keeps its own.
//!
//! Checklist: FILE-HEAD, FILE-TURN (the header's optional turn), FILE-END,
//! FILE-SPACE, FILE-CASE (keywords), FILE-COMMENT, FILE-UNIT, FILE-REPLACE, FILE-LIMIT.

mod file;

pub use file::{Header, HeaderTarget, Line, OrderError, OrderFile, UnitBlock, parse, parse_header};

/// The most orders a unit keeps (FILE-LIMIT); later lines of a block are dropped
/// with a warning.
pub const MAX_ORDERS_PER_UNIT: usize = 50;

/// The prefix of unit ids, for blocks that give a bare number (`UNIT 206` names `U206`).
pub const UNIT_PREFIX: &str = "U";
