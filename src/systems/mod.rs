//! The rule systems the engine runs.

pub mod overlord;
