//! Orders that change how a unit presents itself and fights, but nothing else:
//! NAME, DESCRIBE, SETTING, TACTIC, COMBAT (ORD-NAME, ORD-DESCRIBE, ORD-SETTING,
//! ORD-TACTIC, ORD-COMBAT). All run at once, every time.

use crate::systems::overlord::data::CombatTactics;
use crate::systems::overlord::mechanics::scheduler::{Act, OrderHandlers};
use crate::systems::overlord::orders::queue::{Outcome, Progress};
use crate::systems::overlord::orders::syntax::{CombatAction, Entry, Keyword, Order, Setting};
use crate::systems::overlord::world::components::{
    CombatOrders, Description, DisplayName, FactionSettings, Tactics, UnitSettings,
};
use bevy_app::{App, Plugin};

/// Registers the identity orders.
pub struct IdentityPlugin;

impl Plugin for IdentityPlugin {
    fn build(&self, app: &mut App) {
        let mut h = app.world_mut().resource_mut::<OrderHandlers>();
        use Keyword::*;
        for k in [Name, Describe, Setting, Tactic, Combat] {
            h.set(module_path!(), k, identity);
        }
    }
}

fn identity(act: &mut Act, entry: &mut Entry) -> Outcome {
    let me = act.unit;
    let note = match &entry.order {
        Order::Name(n) => {
            act.world.get_mut::<DisplayName>(me).expect("unit").0 = n.clone();
            format!("Is now called {n}.")
        }
        Order::Describe(d) => {
            act.world.get_mut::<Description>(me).expect("unit").0 = d.clone();
            if d.is_empty() { "Description erased.".to_string() } else { "Description changed.".to_string() }
        }
        Order::Setting { setting, on } => {
            let word = if *on { "ON" } else { "OFF" };
            if *setting == Setting::Terse {
                // TERSE is a faction setting only (SET-TERSE).
                let Some(f) = act.faction_of(me) else { return Outcome::NotNow };
                act.world.get_mut::<FactionSettings>(f).expect("faction").0.terse = *on;
                format!("Faction setting TERSE is {word}.")
            } else {
                let mut u = act.world.get_mut::<UnitSettings>(me).expect("unit");
                let s = &mut u.0;
                *match setting {
                    Setting::Advertise => &mut s.advertise,
                    Setting::Announce => &mut s.announce,
                    Setting::Consume => &mut s.consume,
                    Setting::Silent => &mut s.silent,
                    Setting::Share => &mut s.share,
                    Setting::Support | Setting::Terse => &mut s.support,
                } = *on;
                format!("Setting {} is {word}.", setting.keyword())
            }
        }
        Order::Tactic(t) => {
            act.world.get_mut::<Tactics>(me).expect("unit").0 = Some(std::sync::Arc::new(CombatTactics {
                stance: t.stance.clone(),
                rank: t.rank.clone(),
                file: t.file.clone(),
                movement: t.movement.clone(),
            }));
            format!("Battle tactic: {} {} {} {}.", t.stance, t.rank, t.file, t.movement)
        }
        Order::Combat(list) => {
            let c = act.catalog();
            let words: Vec<String> = list
                .iter()
                .map(|a| match a {
                    CombatAction::Melee => "melee".to_string(),
                    CombatAction::Parry => "parry".to_string(),
                    CombatAction::Ranged => "ranged".to_string(),
                    CombatAction::Skill(s) => c.skill_tag(*s).to_string(),
                    CombatAction::Item(i) => c.item_tag(*i).to_string(),
                })
                .collect();
            let text = words.join(" ");
            act.world.get_mut::<CombatOrders>(me).expect("unit").0 = words;
            format!("Combat actions: {text}, then melee and parry.")
        }
        _ => return Outcome::NotNow,
    };
    act.log(note);
    Outcome::Ran(Progress::Step)
}
