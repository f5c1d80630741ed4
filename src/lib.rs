//! overlord: an engine for computer-moderated play-by-email strategy games.
//!
//! See `ARCHITECTURE.md` for the map of the code.

pub mod cli;
pub mod core;
pub mod mailroom;
pub mod systems;
pub mod web;
