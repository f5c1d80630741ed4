//! overlord: an engine for computer-moderated play-by-email strategy games.
//!
//! See `ARCHITECTURE.md` for the map of the code.

pub mod alloc;
pub mod check;
pub mod cli;
pub mod data;
pub mod diag;
pub mod engine;
pub mod game;
pub mod generate;
pub mod legacy;
pub mod orders;
pub mod progress;
pub mod report;
pub mod rules;
#[doc(hidden)]
pub mod testkit;
