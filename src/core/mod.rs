//! The core: what every rule system runs on, knowing none of them.

pub mod alloc;
pub mod battle;
pub mod data;
pub mod diag;
pub mod engine;
pub mod game;
pub mod html;
pub mod map;
pub mod orders;
pub mod progress;
pub mod secret;
pub mod system;
pub mod template;
pub mod text;
