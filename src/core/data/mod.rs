//! Data files: RON reading and writing, positions in RON texts.

pub mod ronpos;
pub(crate) mod ronwrite;
pub mod stances;
