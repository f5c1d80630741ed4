//! Overlord's order language: order files as players write them, and the orders in
//! them. It sits behind the core's order-language seam
//! ([`crate::core::orders`]): the core reads the mail's sections, comments, strings
//! and words; this module is Overlord's grammar.
//!
//! This module knows nothing of the game world. It reads
//!
//! * an order file ([`file`](mod@file)): the faction orders before the first `UNIT`, then one
//!   block per unit (the `GAME` section of a mail; [`file::OverlordGrammar`]);
//! * an order line ([`line`](mod@line)): prefixes `-+@Dnn` and one of the 58 unit orders with
//!   its arguments, into a typed [`Entry`] ([`syntax`]);
//! * an order list ([`queue`]): the rules by which a unit's list is worked through
//!   day after day — dashes, `+`, `@`, durations, day restrictions.
//!
//! Items, skills and races are resolved through a [`Vocabulary`] (the game's
//! catalogue), so an unknown tag is reported when the file is read.
//!
//! Checklist: FILE-*, PFX-*, FAC-* (syntax), ORD-* (syntax), PRS-PRESS, PRS-RUMOR,
//! RPC-REPORT (syntax).

pub mod file;
#[cfg(test)]
mod fixture;
pub mod line;
pub mod queue;
pub mod syntax;

pub use file::{
    Article, ArticleKind, Header, HeaderTarget, Line, Mail, OrderError, OrderFile, OrderLine, ReportRequest, UnitBlock,
    normalise_unit_id, parse, parse_header, parse_mail,
};
pub use line::{FactionOrder, parse_entry, parse_entry_lenient, parse_faction_order};
pub use syntax::{
    Destination, Duration, Entry, Nature, Order, Place, Prefix, Repeat, Target, Vocabulary, Who, WordList,
};
