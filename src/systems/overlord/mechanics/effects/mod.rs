//! Effects on units, places and structures wear off (ITM-ENCH): at the end of each day every effect loses a
//! day and vanishes at 0; an effect with `permanent_effect_days` or more never wears
//! off. What effects do to a unit is in its statistics ([`crate::systems::overlord::mechanics::stats`]).

use crate::core::engine::plan::PlanApp;
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::Effects;
use bevy_app::{App, Plugin};
use bevy_ecs::prelude::*;

/// Adds [`wear_off`] to the end of each day.
pub struct EffectsPlugin;

impl Plugin for EffectsPlugin {
    fn build(&self, app: &mut App) {
        app.add_step_system("day_end", wear_off);
    }
}

/// Every effect that is not permanent loses a day; those at 0 are removed.
pub fn wear_off(catalog: Res<Catalog>, mut units: Query<&mut Effects>) {
    let permanent = catalog.rules.info.parameters.permanent_effect_days;
    for mut effects in &mut units {
        // Read first: only units whose effects change are marked changed.
        if effects.0.iter().all(|e| permanent > 0 && e.1 >= permanent) {
            continue;
        }
        let list = &mut effects.0;
        for e in list.iter_mut() {
            if permanent == 0 || e.1 < permanent {
                e.1 = e.1.saturating_sub(1);
            }
        }
        list.retain(|e| e.1 > 0);
    }
}

#[cfg(test)]
mod tests {
    use crate::systems::overlord::mechanics::stats::UnitStats;
    use crate::systems::overlord::testkit::{engine, scenario};
    use crate::systems::overlord::world::components::Effects;
    use crate::systems::overlord::world::resources::{Directory, Kind};

    #[test]
    fn effects_lose_a_day_each_day_and_change_statistics_itm_ench() {
        // U1 is disaffected (−1 initiative) for 10 days and happy (+1 initiative,
        // +1 life) for good.
        let world = r#"(
          game: (name: "tiny", ruleset: "overlord", seed: 7, days_per_month: 30, start_month: 0),
          factions: [(id: "fa", name: "Alphans", password: "pa", default_stance: "neutral")],
          locations: [(id: "L1", name: "Ford", terrain: "plai", population: 1000)],
          structures: [],
          units: [(id: "U1", name: "Ann", faction: "fa", race: "ldr", figures: 1, location: "L1",
                   items: [("coin", 100, 0)], effects: [("effdisc", 10), ("effhapy", 100000)])],
        )"#;
        let mut e = engine(scenario(world));
        e.report_only();
        let u = e.world().resource::<Directory>().get(Kind::Unit, "U1").unwrap();
        let s = e.world().get::<UnitStats>(u).unwrap().stats.clone();
        assert_eq!((s.initiative, s.life), (0, 4), "−1 + 1 initiative, 3 + 1 life");
        e.run_turn(|_, _| {});
        let left: Vec<(String, u32)> = {
            let c = e.world().resource::<crate::systems::overlord::world::Catalog>();
            e.world().get::<Effects>(u).unwrap().0.iter().map(|&(x, d)| (c.effect_tag(x).to_string(), d)).collect()
        };
        assert_eq!(left, [("effhapy".to_string(), 100000)], "the 10 days ran out; the permanent one stays");
        let s = e.world().get::<UnitStats>(u).unwrap().stats.clone();
        assert_eq!((s.initiative, s.life), (1, 4));
        let saved = e.state();
        assert_eq!(saved.units[0].effects, [crate::systems::overlord::data::EffectDays("effhapy".into(), 100000)]);
    }
}
