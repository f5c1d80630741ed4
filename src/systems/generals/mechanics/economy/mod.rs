//! Income and hire limits (plan step `recovery`; generals-rules.txt 13, 46-47,
//! 58-60): at the start of the turn every region recovers income and hire limit
//! up to their original values, the turn's overtax conversions are made (the
//! decrease lasts, the increase only this turn), and each player collects the
//! income of the regions it holds. What a region may still hire this turn is its
//! [`Levy`], which recruiting spends.

#[cfg(test)]
mod tests;

use super::turn::{Journal, TurnOrders};
use crate::core::engine::plan::PlanApp;
use crate::systems::generals::orders::Overtax;
use crate::systems::generals::world::{Directory, Economy, Rules, Treasury, holders, label};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Income and hire limits.
pub struct EconomyPlugin;

impl Plugin for EconomyPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("recovery", collect);
    }
}

/// A region's income and hire limit for this turn, overtax increases included,
/// and the points of troops hired there so far this turn.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Levy {
    /// Income paid this turn.
    pub income: u32,
    /// Hire limit this turn.
    pub hire: u32,
    /// Points hired so far this turn.
    pub hired: u32,
}

impl Levy {
    /// Points that may still be hired this turn.
    pub fn left(&self) -> u32 {
        self.hire.saturating_sub(self.hired)
    }
}

/// Recovery, overtax, income.
pub fn collect(world: &mut World) {
    let rules = world.resource::<Rules>().0.clone();
    let p = &rules.info.parameters;
    let regions = world.resource::<Directory>().regions.clone();
    for &r in &regions {
        let Some(mut e) = world.get_mut::<Economy>(r) else { continue };
        e.income.0 = e.income.0.saturating_add(p.income_recovery).min(e.income.1.max(e.income.0));
        e.hire_limit.0 = e.hire_limit.0.saturating_add(p.hire_recovery).min(e.hire_limit.1.max(e.hire_limit.0));
        let levy = Levy { income: e.income.0, hire: e.hire_limit.0, hired: 0 };
        world.entity_mut(r).insert(levy);
    }
    let held = holders(world);
    let overtaxes = std::mem::take(&mut world.resource_mut::<TurnOrders>().overtaxes);
    let mut notes = Vec::new();
    for o in &overtaxes {
        let (r, kind, steps) = o.order;
        let name = label(world, r);
        if held.get(&r) != Some(&o.player) {
            notes.push((o.player, o.line, Err(format!("{name} is not yours"))));
            continue;
        }
        let income_step = steps.saturating_mul(p.overtax_income_step);
        let hire_step = steps.saturating_mul(p.overtax_hire_step);
        let mut levy = *world.get::<Levy>(r).expect("every region has a levy");
        let mut econ = world.get_mut::<Economy>(r).expect("a region");
        let result = match kind {
            Overtax::Income if levy.income < income_step => {
                Err(format!("{name}'s income is {}: it cannot go below 0", levy.income))
            }
            Overtax::Hire if levy.hire < hire_step => {
                Err(format!("{name}'s hire limit is {}: it cannot go below 0", levy.hire))
            }
            Overtax::Income => {
                // The decrease lasts; the increase is this turn's only.
                econ.income.0 = econ.income.0.saturating_sub(income_step);
                levy.income -= income_step;
                levy.hire = levy.hire.saturating_add(hire_step);
                Ok(format!(
                    "{name} overtaxed: income {} (−{income_step}), hire limit {} this turn",
                    levy.income, levy.hire
                ))
            }
            Overtax::Hire => {
                econ.hire_limit.0 = econ.hire_limit.0.saturating_sub(hire_step);
                levy.hire -= hire_step;
                levy.income = levy.income.saturating_add(income_step);
                Ok(format!(
                    "{name} overtaxed: hire limit {} (−{hire_step}), income {} this turn",
                    levy.hire, levy.income
                ))
            }
        };
        if result.is_ok() {
            world.entity_mut(r).insert(levy);
        }
        notes.push((o.player, o.line, result));
    }
    // Income of every region held (generals-rules.txt 13).
    let mut paid: Vec<(Entity, u64)> = Vec::new();
    for &r in &regions {
        if let (Some(&player), Some(levy)) = (held.get(&r), world.get::<Levy>(r)) {
            paid.push((player, u64::from(levy.income)));
        }
    }
    for &(player, gold) in &paid {
        if let Some(mut t) = world.get_mut::<Treasury>(player) {
            t.0 = t.0.saturating_add(gold);
        }
    }
    let mut journal = world.resource_mut::<Journal>();
    for (player, line, result) in notes {
        match result {
            Ok(text) => journal.note(player, Some(line), format!("{text}.")),
            Err(why) => journal.refuse(player, line, why),
        }
    }
    for (player, gold) in paid {
        journal.gain(player, gold);
    }
}
