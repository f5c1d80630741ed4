//! overlord: an engine for computer-moderated play-by-email strategy games.
//!
//! See `ARCHITECTURE.md` for the map of the code.

pub mod cli;
pub mod data;
pub mod diag;
pub mod generate;
pub mod legacy;
