//! The mechanics of the generals game, one plugin each, in the order they are
//! added (within a plan step, systems run in this order). Which system runs in
//! which step is [`STEPS`](super::STEPS).
//!
//! | mechanic | plan step | rules |
//! |---|---|---|
//! | [`intake`] | `orders` | ruling 1, 2 |
//! | [`economy`] | `recovery` | generals-rules.txt 13, 58-60 |
//! | [`skills`] | `renown` | generals-rules.txt 52-53, 98-142; ruling 9 |
//! | [`training`] | `training` | generals-rules.txt 55-56 |
//! | [`recruiting`] | `recruiting` | generals-rules.txt 46-47, 108, 120; rulings 12-13 |
//! | [`movement`] | `movement` | generals-rules.txt 37-41 |
//! | [`battle`] | `battle` | generals-rules.txt 18-33, 43-44, 62-94; rulings 4-8, 10-11, 13 |
//! | [`aftermath`] | `aftermath` | generals-rules.txt 96; rulings 9, 14 |
//! | [`preparation`] | `preparation` | generals-rules.txt 49-50 |
//! | [`control`] | `control` | generals-rules.txt 7, 13; ruling 14 |

pub mod aftermath;
pub mod battle;
pub mod control;
pub mod economy;
pub mod intake;
pub mod movement;
pub mod preparation;
pub mod recruiting;
pub mod skills;
pub mod training;
pub mod turn;

use bevy_app::{PluginGroup, PluginGroupBuilder};

/// Every mechanic of the generals game.
pub struct GeneralsRules;

impl PluginGroup for GeneralsRules {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(intake::IntakePlugin)
            .add(economy::EconomyPlugin)
            .add(skills::SkillsPlugin)
            .add(training::TrainingPlugin)
            .add(recruiting::RecruitingPlugin)
            .add(movement::MovementPlugin)
            .add(battle::BattlePlugin)
            .add(aftermath::AftermathPlugin)
            .add(preparation::PreparationPlugin)
            .add(control::ControlPlugin)
    }
}
