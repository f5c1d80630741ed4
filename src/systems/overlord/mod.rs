//! Overlord, the first rule system.

pub mod check;
pub mod data;
pub mod generate;
pub mod legacy;
pub mod mechanics;
pub mod orders;
pub mod report;
#[doc(hidden)]
pub mod testkit;
pub mod world;
