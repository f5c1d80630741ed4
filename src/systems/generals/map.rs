//! The map as a picture (`overlord map`): the regions on their hex
//! coordinates, for the game master (every region, with its holder and men) or
//! as one player's report shows them (its regions, ringed, and what its scouts
//! found; nothing else). Regions without coordinates are not drawn.

use super::data::{RuleSet, Scenario};
use super::report::{self, PlayerReport, Survey};
use crate::core::engine::plan::Clock;
use crate::core::map::{Hex, svg as draw};
use bevy_ecs::world::World;
use std::collections::BTreeMap;

/// The map of `state`, whole (`player: None`) or as player `player` (any case)
/// knows it. An unknown player is an error naming it.
pub fn svg(rules: &RuleSet, state: &Scenario, player: Option<&str>) -> Result<String, String> {
    let colour =
        |terrain: &str| rules.terrains.iter().find(|t| t.tag == terrain || t.name == terrain).and_then(|t| t.color);
    let hex_of: BTreeMap<&str, (i32, i32)> =
        state.regions.iter().filter_map(|r| Some((r.id.as_str(), r.hex?))).collect();
    let Some(p) = player else {
        let mut men: BTreeMap<&str, (&str, u32)> = BTreeMap::new();
        for t in &state.troops {
            men.entry(t.region.as_str()).or_insert((t.player.as_str(), 0)).1 += t.men;
        }
        let hexes = state
            .regions
            .iter()
            .filter_map(|r| {
                let mut title = format!("{} [{}]", r.name, r.id);
                if let Some((holder, n)) = men.get(r.id.as_str()) {
                    title.push_str(&format!("; held by {holder}, {n} men"));
                }
                Some(Hex { at: r.hex?, id: r.id.clone(), title, color: colour(&r.terrain), ringed: false, dot: false })
            })
            .collect::<Vec<_>>();
        return Ok(draw(&hexes));
    };
    let index = state
        .players
        .iter()
        .position(|x| x.id.eq_ignore_ascii_case(p))
        .ok_or_else(|| format!("no player '{p}' in this game"))?;
    let r = seen(rules, state, index)?;
    let hexes = r
        .regions
        .iter()
        .filter_map(|x| {
            let own = x.income.is_some();
            let men: u32 = x.troops.iter().map(|t| t.men).sum();
            let mut title = format!("{} [{}]", x.name, x.id);
            match &x.owner {
                Some(_) if own => title.push_str(&format!("; yours, {men} men")),
                Some(o) => title.push_str(&format!("; held by {o}, about {men} men")),
                None => {}
            }
            let at = *hex_of.get(x.id.as_str())?;
            Some(Hex { at, id: x.id.clone(), title, color: colour(&x.terrain), ringed: own, dot: false })
        })
        .collect::<Vec<_>>();
    Ok(draw(&hexes))
}

/// A turn's map: the rule set and the state, each player's map made from its
/// report when asked (the generals game's worlds are small).
pub struct Atlas {
    /// The rule set.
    pub rules: RuleSet,
    /// The turn's state.
    pub state: Scenario,
}

impl crate::core::map::Atlas for Atlas {
    fn svg(&self, player: Option<&str>) -> Result<String, String> {
        svg(&self.rules, &self.state, player)
    }
}

/// Player `index`'s report on `state`, as the turn wrote it.
fn seen(rules: &RuleSet, state: &Scenario, index: usize) -> Result<PlayerReport, String> {
    let mut world = World::new();
    world.insert_resource(Clock { turn: state.game.turn, tick: 0, ticks: 1 });
    world.insert_resource(super::world::Rules(std::sync::Arc::new(rules.clone())));
    super::world::build(&mut world, rules, state.clone()).map_err(|e| e.join("; "))?;
    Ok(report::build(&world, &Survey::of(&world), index))
}

#[cfg(test)]
mod tests {
    use super::svg;
    use crate::systems::generals::fixture::rules;
    use crate::systems::generals::generate::{Options, generate};

    fn ids(svg: &str) -> Vec<String> {
        svg.split("<text ")
            .skip(1)
            .map(|t| t.split('>').nth(1).unwrap().split('<').next().unwrap().to_string())
            .collect()
    }

    #[test]
    fn the_game_master_sees_every_region_and_a_player_what_its_report_shows() {
        let r = rules();
        let s = generate(&r, &Options { regions: 48, players: 4, troops: 24, seed: 7 }).unwrap();
        let all = svg(&r, &s, None).unwrap();
        assert_eq!(ids(&all).len(), 48);
        assert!(all.contains("; held by p1, "), "{all}");
        let p1 = svg(&r, &s, Some("P1")).unwrap();
        let seen = ids(&p1);
        // p1's three regions, ringed, and their neighbours.
        assert_eq!(p1.matches("stroke=\"#ffffff\"").count(), 3);
        assert!(seen.len() > 3 && seen.len() < 48, "{seen:?}");
        assert!(!p1.contains("held by p3"), "p3 is far away");
        assert_eq!(svg(&r, &s, Some("p9")).unwrap_err(), "no player 'p9' in this game");
    }
}
