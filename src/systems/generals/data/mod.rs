//! The generals game's data: its rule set ([`rules`]), its scenarios
//! ([`scenario`]), reading them with every syntax error at once ([`load`]) and
//! checking every reference with file, line and column ([`validate`]).

pub mod load;
pub mod rules;
pub mod scenario;
pub mod validate;

#[cfg(test)]
mod tests;

pub use rules::*;
pub use scenario::*;
