//! The mechanics of the Overlord rules, one plugin per folder. Each plugin adds its
//! systems to the steps of the turn plan (`assets/rules/overlord/plan.ron`;
//! [`crate::systems::overlord::STEPS`] lists them).
//!
//! * [`intake`] — submitted order files replace units' pending orders; faction orders
//!   (month start);
//! * [`orders`] — the daily scheduler and the conditions (every day);
//! * [`press`] — newspaper rewards and notices to factions (month start);
//! * [`stats`] — unit statistics: weight, capacity, combat values, upkeep, control
//!   points, recomputed when their inputs change;
//! * [`identity`] — NAME, DESCRIBE, SETTING, STANCE, TACTIC, COMBAT;
//! * [`transfer`] — GIVE, GET, DROP, SWAP, EQUIP, WITHDRAW;
//! * [`stacks`] — STACK, UNSTACK, EJECT, PROMOTE, ENTER, LEAVE, EXIT, DISBAND;
//! * [`effects`] — effects on units wear off day by day;
//! * [`money`] — WORK and its wages, upkeep in food and money, dissent and
//!   desertion (month end);
//! * [`study`] — STUDY: speed, costs, limits, requirements, experience;
//! * [`recruit`] — RECRUIT: hiring from the location's offer; new units join at day
//!   end and their new ids resolve;
//! * [`merge`] — SPLIT and MERGE: figures, skills, effects and equipment move
//!   between units;
//! * [`production`] — USE of harvesting and crafting skills, work in progress,
//!   shared resources;
//! * [`movement`] — the location graph and travel times;
//! * [`control`] — control points after day 1, creatures following their leaders,
//!   factions with no units left;

pub mod climate;
pub mod control;
pub mod effects;
pub mod identity;
pub mod intake;
pub mod merge;
pub mod money;
pub mod movement;
pub mod press;
pub mod production;
pub mod recruit;
pub mod scheduler;
pub mod stacks;
pub mod stats;
pub mod structures;
pub mod study;
pub mod transfer;
