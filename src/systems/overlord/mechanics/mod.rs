//! The mechanics of the Overlord rules, one plugin per folder. Each plugin adds its
//! systems to the steps of the turn plan (`assets/rules/overlord/plan.ron`;
//! [`crate::systems::overlord::STEPS`] lists them).
//!
//! * [`intake`] — submitted order files replace units' pending orders; faction orders
//!   (month start);
//! * [`scheduler`] — the daily scheduler: immediate passes, one full-day order per
//!   unit, WAIT, the conditions; the table of order handlers the mechanics fill;
//! * [`press`] — newspaper rewards and notices to factions (month start);
//! * [`stats`] — unit statistics: weight, capacity, combat values, upkeep, control
//!   points, recomputed when their inputs change;
//! * [`identity`] — NAME, DESCRIBE, SETTING, TACTIC, COMBAT;
//! * [`diplomacy`] — STANCE, and what a stance grants ([`diplomacy::grants`]);
//! * [`transfer`] — GIVE, GET, DROP, SWAP, EQUIP, WITHDRAW;
//! * [`stacks`] — STACK, UNSTACK, EJECT, PROMOTE, ENTER, LEAVE, EXIT, DISBAND;
//! * [`effects`] — effects on units, places and structures wear off day by day;
//! * [`visibility`] — who sees whom: stealth against observation, units that show
//!   themselves or their faction; the month's survey of who is where;
//! * [`knowledge`] — what each faction knows of the rule set and learnt this month;
//!   RESHOW;
//! * [`money`] — WORK and its wages, upkeep in food and money, dissent and
//!   desertion (month end);
//! * [`study`] — STUDY, TEACH, FORGET: speed, costs, limits, requirements, experience;
//! * [`skill_use`] — USE and TARGET; the table of who carries out each kind of use;
//!   what a use needs and yields, shared by production, structures and magic: the
//!   day's work, batches, first inputs and mana, experience;
//! * [`population`] — the month's end of places: optimum, drift, migration,
//!   famine, plague, wages;
//! * [`recruit`] — RECRUIT: hiring from the location's offer; new units join at day
//!   end and their new ids resolve;
//! * [`merge`] — SPLIT and MERGE: figures, skills, effects and equipment move
//!   between units;
//! * [`market`] — BUY and SELL, the clearing of market days, the drift of the
//!   places' own offers;
//! * [`production`] — USE of harvesting and crafting skills, work in progress,
//!   shared resources;
//! * [`movement`] — the location graph, travel times, journeys (MOVE, MARCH,
//!   CARAVAN, STAY, RETREAT) and arrivals;
//! * [`guards`] — GUARD and PATROL: what an arriving stack meets, clashes;
//! * [`titles`] — CLAIM, YIELD, BESTOW: titles changing hands, challenges, the
//!   index of who holds what;
//! * [`land`] — legal owners, taxes, occupation, uprisings, land titles lost out
//!   of their holders' reach (§14, TTL-LAND);
//! * [`pillage`] — PILLAGE: what it takes and harms, guards attacking pillagers;
//! * [`combat`] — ATTACK, enemies attacked on sight, and every battle of the day:
//!   sides, the battlefield, the aftermath, the battle record;
//! * [`npc`] — what the non-player factions do beyond their stances and standing
//!   orders: take a stance toward those who attack them (§30);
//! * [`structures`] — BUILD, CHRISTEN, USE of building skills, construction,
//!   owners, bonuses;
//! * [`magic`] — mana and its tides, spells cast in the world (USE of enchanting,
//!   summoning and ritual skills);
//! * [`climate`] — next month's weather;
//! * [`control`] — control points after day 1, creatures following their leaders,
//!   factions with no units left.
//!
//! [`ORDERS`] says which mechanic carries out each unit order, [`USES`] which one
//! carries out USE of each kind of skill; tests check them against the handlers the
//! plugins register.

pub mod allegiance;
pub mod climate;
pub mod combat;
pub mod control;
pub mod diplomacy;
pub mod effects;
pub mod guards;
pub mod identity;
pub mod intake;
pub mod knowledge;
pub mod land;
pub mod magic;
pub mod market;
pub mod merge;
pub mod money;
pub mod movement;
pub mod npc;
pub mod pillage;
pub mod population;
pub mod press;
pub mod production;
pub mod recruit;
pub mod scheduler;
pub mod skill_use;
pub mod stacks;
pub mod stats;
pub mod structures;
pub mod study;
pub mod titles;
pub mod transfer;
pub mod visibility;

use crate::systems::overlord::data::UseKind;
use crate::systems::overlord::orders::syntax::Keyword;

/// Who carries out a unit order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// The mechanic of this folder (`mechanics/<name>/`) registers its handler.
    Mechanic(&'static str),
    /// No mechanic carries it out yet: the order waits in the list, and the unit's
    /// report says once a month that it waits for this.
    Pending(&'static str),
}

/// Which mechanic carries out each unit order (checklist §6), in the order of the
/// order reference. Every keyword has one row; a test checks that the plugins
/// register exactly these handlers.
pub const ORDERS: &[(Keyword, Owner)] = {
    use Keyword::*;
    use Owner::*;
    &[
        (Accept, Mechanic("stacks")),
        (At, Mechanic("scheduler")),
        (Attack, Mechanic("combat")),
        (Bestow, Mechanic("titles")),
        (Build, Mechanic("structures")),
        (Buy, Mechanic("market")),
        (Cancel, Mechanic("land")),
        (Caravan, Mechanic("movement")),
        (Christen, Mechanic("structures")),
        (Claim, Mechanic("titles")),
        (Combat, Mechanic("identity")),
        (Day, Mechanic("scheduler")),
        (Describe, Mechanic("identity")),
        (Disband, Mechanic("stacks")),
        (Drop, Mechanic("transfer")),
        (Eject, Mechanic("stacks")),
        (Enter, Mechanic("stacks")),
        (Equip, Mechanic("transfer")),
        (Exit, Mechanic("stacks")),
        (Forget, Mechanic("study")),
        (Get, Mechanic("transfer")),
        (Give, Mechanic("transfer")),
        (Guard, Mechanic("guards")),
        (Have, Mechanic("scheduler")),
        (Leader, Mechanic("scheduler")),
        (Leading, Mechanic("scheduler")),
        (Leave, Mechanic("stacks")),
        (March, Mechanic("movement")),
        (Merge, Mechanic("merge")),
        (Move, Mechanic("movement")),
        (Name, Mechanic("identity")),
        (Oath, Mechanic("allegiance")),
        (Patrol, Mechanic("guards")),
        (Pillage, Mechanic("pillage")),
        (Promote, Mechanic("stacks")),
        (Recruit, Mechanic("recruit")),
        (Retreat, Mechanic("movement")),
        (See, Mechanic("scheduler")),
        (Sell, Mechanic("market")),
        (Setting, Mechanic("identity")),
        (Size, Mechanic("scheduler")),
        (Skill, Mechanic("scheduler")),
        (Split, Mechanic("merge")),
        (Stack, Mechanic("stacks")),
        (Stance, Mechanic("diplomacy")),
        (Stay, Mechanic("movement")),
        (Study, Mechanic("study")),
        (Swap, Mechanic("transfer")),
        (Synchro, Mechanic("scheduler")),
        (Tactic, Mechanic("identity")),
        (Target, Mechanic("skill_use")),
        (Teach, Mechanic("study")),
        (Unstack, Mechanic("stacks")),
        (Use, Mechanic("skill_use")),
        (Wait, Mechanic("scheduler")),
        (Withdraw, Mechanic("transfer")),
        (Work, Mechanic("money")),
        (Yield, Mechanic("titles")),
    ]
};

/// Which mechanic carries out USE of each kind of skill (`use_kind` in
/// `skills.ron`; SKL-USE-*). A skill without a kind of use, or of a kind no mechanic
/// carries out, waits and says so; a combat skill is refused (it is used in battle).
pub const USES: &[(UseKind, Owner)] = {
    use Owner::*;
    use UseKind::*;
    &[
        (Craft, Mechanic("production")),
        (Harvest, Mechanic("production")),
        (Construction, Mechanic("structures")),
        (Build, Mechanic("structures")),
        (Enchant, Mechanic("magic")),
        (Summon, Mechanic("magic")),
        (Combat, Pending("battle only")),
        (Action, Mechanic("magic")),
    ]
};

/// Who carries out the order `keyword` ([`ORDERS`]).
pub fn owner(keyword: Keyword) -> Owner {
    ORDERS[keyword as usize].1
}

/// The mechanic a module path belongs to: the folder under `mechanics/`
/// (`…::mechanics::movement::journey` → `movement`).
pub fn mechanic_of(module: &str) -> &str {
    module.split("::mechanics::").nth(1).and_then(|rest| rest.split("::").next()).unwrap_or(module)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::overlord::mechanics::scheduler::OrderHandlers;
    use crate::systems::overlord::testkit;

    #[test]
    fn every_order_has_exactly_one_owner() {
        let keywords: Vec<Keyword> = ORDERS.iter().map(|r| r.0).collect();
        assert_eq!(keywords, Keyword::ALL, "one row per keyword, in the order of the order reference");
    }

    #[test]
    fn the_plugins_register_exactly_the_handlers_the_table_names() {
        // Each order a mechanic owns is registered once, by that mechanic; pending
        // orders are registered by none.
        let e = testkit::engine(testkit::alpha());
        let registered = e.world().resource::<OrderHandlers>().registered().to_vec();
        for &(k, owner) in ORDERS {
            let by: Vec<&str> = registered.iter().filter(|r| r.0 == k).map(|r| mechanic_of(r.1)).collect();
            match owner {
                Owner::Mechanic(m) => assert_eq!(by, [m], "{}", k.text()),
                Owner::Pending(_) => assert!(by.is_empty(), "{} is registered by {by:?}", k.text()),
            }
        }
    }

    #[test]
    fn the_plugins_register_exactly_the_uses_the_table_names() {
        let e = testkit::engine(testkit::alpha());
        let registered =
            e.world().resource::<crate::systems::overlord::mechanics::skill_use::UseHandlers>().registered().to_vec();
        let kinds: Vec<UseKind> = USES.iter().map(|r| r.0).collect();
        assert_eq!(kinds.len(), 8, "one row per kind of use");
        for &(k, owner) in USES {
            let by: Vec<&str> = registered.iter().filter(|r| r.0 == k).map(|r| mechanic_of(r.1)).collect();
            match owner {
                Owner::Mechanic(m) => assert_eq!(by, [m], "{k:?}"),
                Owner::Pending(_) => assert!(by.is_empty(), "{k:?} is registered by {by:?}"),
            }
        }
    }
}
