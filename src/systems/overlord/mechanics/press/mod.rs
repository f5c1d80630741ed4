//! The newspaper's side in the month: rewards for articles (PRS-REWARD) and notices
//! to factions (RPC-REPORT), before day 1.
//!
//! Articles themselves are stored and published by the game directory
//! ([`crate::core::game`]): the engine only learns who wrote what kind of article, from the
//! [`Inbox`]. A faction earns the largest reward among its articles of the turn
//! (`press_reward_signed` for a signed article, `press_reward_rumor` for a rumour):
//! "these rewards are not cumulative; you cannot earn more than $50 per turn". The
//! reward is paid in the game's money into the faction's funds.

use crate::core::engine::Inbox;
use crate::core::engine::plan::PlanApp;
use crate::core::orders::mail::ArticleKind;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Events, Funds};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;
use std::collections::BTreeMap;

/// Adds [`pay_rewards`] and [`deliver_notices`].
pub struct PressPlugin;

impl Plugin for PressPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("press", pay_rewards);
        app.add_step_system("press", deliver_notices);
    }
}

/// PRS-REWARD: each faction with articles this turn gets the largest of their rewards.
pub fn pay_rewards(
    inbox: Res<Inbox>,
    catalog: Res<Catalog>,
    directory: Res<Directory>,
    mut factions: Query<(&mut Funds, &mut Events)>,
) {
    let p = &catalog.rules.info.parameters;
    let mut best: BTreeMap<&str, (u32, ArticleKind)> = BTreeMap::new();
    for (faction, kind) in &inbox.articles {
        let reward = match kind {
            ArticleKind::Press => p.press_reward_signed,
            ArticleKind::Rumor => p.press_reward_rumor,
        };
        let e = best.entry(faction.as_str()).or_insert((0, *kind));
        if reward > e.0 {
            *e = (reward, *kind);
        }
    }
    let Some(money) = catalog.money() else { return };
    for (faction, (reward, kind)) in best {
        let Some(f) = directory.get(Kind::Faction, faction) else { continue };
        let Ok((mut funds, mut events)) = factions.get_mut(f) else { continue };
        if reward > 0 {
            match funds.0.iter_mut().find(|x| x.0 == money) {
                Some(x) => x.1 += u64::from(reward),
                None => {
                    funds.0.push((money, u64::from(reward)));
                    funds.0.sort_by_key(|x| x.0);
                }
            }
        }
        let what = match kind {
            ArticleKind::Press => "signed article",
            ArticleKind::Rumor => "rumour",
        };
        let amount = catalog.items_text(money, u64::from(reward));
        events.push(0, format!("Newspaper: your {what} earned {amount} for the faction funds."));
    }
}

/// RPC-REPORT and other notices from the game master's side: shown in the faction's
/// report.
pub fn deliver_notices(inbox: Res<Inbox>, directory: Res<Directory>, mut events: Query<&mut Events>) {
    for (faction, text) in &inbox.notices {
        if let Some(f) = directory.get(Kind::Faction, faction)
            && let Ok(mut e) = events.get_mut(f)
        {
            e.push(0, text.clone());
        }
    }
}

#[cfg(test)]
mod tests;
