//! The generals game (`../shared/seeds/generals-rules.txt`, settled by
//! `docs/generals.md`): the second rule system over the core. Players command
//! generals, one action each per turn, who move armies of troop types over
//! regions held by having troops in them.
//!
//! So far: its data ([`data`]): the rule set in `assets/rules/generals/` and the
//! scenarios, read and validated with file, line and column; its order language
//! and checker ([`orders`]); worlds of any size ([`generate`]); the ECS world a
//! scenario spawns and is extracted from ([`world`]). The mechanics and the
//! reports follow.

pub mod data;
#[cfg(test)]
pub mod fixture;
pub mod generate;
pub mod orders;
pub mod world;
