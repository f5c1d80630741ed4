//! The weather draw on a 7 × 7 hex map.

use crate::systems::overlord::Overlord;

use crate::core::engine::{Engine, Threads};
use crate::systems::overlord::testkit::{overlord_rules, run_month, scenario};
use std::sync::Arc;

const DIRS: [(&str, i32, i32); 6] =
    [("N", 0, -1), ("NE", 1, -1), ("SE", 1, 0), ("S", 0, 1), ("SW", -1, 1), ("NW", -1, 0)];

/// A 7 × 7 map of plains `L<q><r>`, an inner city `C` in the middle and a
/// grotto `K` (covered terrain) off the map.
fn map() -> String {
    let mut locs = String::new();
    for q in 0..7 {
        for r in 0..7 {
            let exits: Vec<String> = DIRS
                .iter()
                .filter(|(_, dq, dr)| (0..7).contains(&(q + dq)) && (0..7).contains(&(r + dr)))
                .map(|(d, dq, dr)| format!(r#"(dir: "{d}", to: "L{}{}")"#, q + dq, r + dr))
                .collect();
            locs.push_str(&format!(
                r#"(id: "L{q}{r}", name: "", terrain: "plai", hex: Some(({q}, {r})), weather: Some("fair"), exits: [{}]),"#,
                exits.join(", ")
            ));
        }
    }
    locs.push_str(
        r#"(id: "C", name: "Town", terrain: "city", kind: Inner, container: Some("L33"), weather: Some("fair")),"#,
    );
    locs.push_str(r#"(id: "K", name: "Grotto", terrain: "grot", weather: Some("fair")),"#);
    format!(
        r#"(
  game: (name: "wx", ruleset: "overlord", seed: 11, days_per_month: 30, start_month: 0),
  factions: [(id: "fa", name: "A", password: "pa", default_stance: "neutral")],
  locations: [{locs}],
  structures: [],
  units: [],
)"#
    )
}

/// The Overlord rules with every season's odds set to `weights`.
fn engine(weights: &[(&str, i32)]) -> Engine<Overlord> {
    let mut rules = (*overlord_rules()).clone();
    for s in &mut rules.climate.seasons {
        s.weather_weights = weights.iter().map(|(t, w)| (t.to_string(), *w)).collect();
    }
    Engine::<Overlord>::new(Arc::new(rules), scenario(&map()), Threads::One).expect("test world builds")
}

fn weather(e: &Engine<Overlord>, id: &str) -> Option<String> {
    e.state().locations.into_iter().find(|l| l.id == id).unwrap().weather
}

#[test]
fn a_storms_six_neighbours_have_at_least_wind_or_rain_cli_neighbor() {
    let mut e = engine(&[("fair", 1), ("storm", 1)]);
    run_month(&mut e, &[]);
    let (mut storms, mut fair) = (0, 0);
    for q in 0..7 {
        for r in 0..7 {
            let w = weather(&e, &format!("L{q}{r}")).expect("territories have weather");
            match w.as_str() {
                "storm" => storms += 1,
                "fair" => fair += 1,
                _ => {}
            }
            if w != "storm" {
                continue;
            }
            for (_, dq, dr) in DIRS {
                let (nq, nr) = (q + dq, r + dr);
                if (0..7).contains(&nq) && (0..7).contains(&nr) {
                    let n = weather(&e, &format!("L{nq}{nr}")).unwrap();
                    assert!(["wind", "rain", "storm"].contains(&n.as_str()), "L{nq}{nr} next to a storm: {n}");
                }
            }
        }
    }
    assert!(storms > 0 && fair > 0, "the draw is not one-sided: {storms} storms, {fair} fair");
    // CLI-CAL: an inner location has its container's weather; a covered one none.
    assert_eq!(weather(&e, "C"), weather(&e, "L33"));
    assert_eq!(weather(&e, "K"), None);
}

#[test]
fn the_draw_follows_the_seasons_odds_and_the_seed() {
    // Only sun possible: everything is sunny.
    let mut e = engine(&[("sun", 5)]);
    run_month(&mut e, &[]);
    assert_eq!(weather(&e, "L00").as_deref(), Some("sun"));
    // Same seed and turn: same weather everywhere.
    let draw = || {
        let mut e = engine(&[("fair", 3), ("rain", 2), ("wind", 2), ("storm", 1)]);
        run_month(&mut e, &[]);
        (0..7).flat_map(|q| (0..7).map(move |r| format!("L{q}{r}"))).map(|id| weather(&e, &id)).collect::<Vec<_>>()
    };
    assert_eq!(draw(), draw());
}
