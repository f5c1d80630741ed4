//! Test worlds of the generals game.

use super::data::load::load_ruleset;
use super::data::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The bundled rule set's folder.
pub fn rules_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("assets/rules/generals")
}

/// The bundled rule set.
pub fn rules() -> RuleSet {
    load_ruleset(&rules_dir()).expect("the bundled generals rule set loads")
}

/// A region of plains with income 10, hire limit 50, militia and archers for
/// hire, defending in a field battle.
pub fn region(id: &str, adjacent: &[&str]) -> Region {
    Region {
        id: id.into(),
        name: format!("Region {id}"),
        terrain: "plai".into(),
        adjacent: adjacent.iter().map(|s| s.to_string()).collect(),
        income: (10, 10),
        hire_limit: (50, 50),
        hires: vec!["mili".into(), "arch".into()],
        defense: "fiel".into(),
        ..Default::default()
    }
}

/// Player `id` with 500 gold, password "pw".
pub fn player(id: &str) -> Player {
    Player { id: id.into(), name: format!("Player {id}"), password: "pw".into(), treasury: 500, ..Default::default() }
}

/// 100 militia of `player` in `region`.
pub fn troop(id: &str, player: &str, region: &str) -> Troop {
    Troop {
        id: id.into(),
        player: player.into(),
        kind: "mili".into(),
        men: 100,
        region: region.into(),
        ..Default::default()
    }
}

/// A general with Healer 1 and Inspirational 1.
pub fn general(name: &str, player: &str, region: &str) -> General {
    General {
        name: name.into(),
        player: player.into(),
        region: region.into(),
        skills: BTreeMap::from([("heal".to_string(), 1), ("insp".to_string(), 1)]),
        ..Default::default()
    }
}

/// Regions R1–R2–R3–R4–R5 in a row, and R6 off R1. p1 holds R1, R2 and R3 (T1,
/// T2, T3), p2 holds R5 (T5); R4 and R6 are empty. Ann (p1) is in R1, Bob (p2) in
/// R5.
pub fn a_row() -> Scenario {
    Scenario {
        game: Game { name: "test".into(), ruleset: "generals".into(), seed: 1, ..Default::default() },
        players: vec![player("p1"), player("p2")],
        regions: vec![
            region("R1", &["R2", "R6"]),
            region("R2", &["R1", "R3"]),
            region("R3", &["R2", "R4"]),
            region("R4", &["R3", "R5"]),
            region("R5", &["R4"]),
            region("R6", &["R1"]),
        ],
        generals: vec![general("Ann", "p1", "R1"), general("Bob", "p2", "R5")],
        troops: vec![
            troop("T1", "p1", "R1"),
            troop("T2", "p1", "R2"),
            troop("T3", "p1", "R3"),
            troop("T5", "p2", "R5"),
        ],
    }
}

/// A game played in memory: a scenario, orders as text, turns run.
pub struct Play {
    /// The engine.
    pub engine: crate::core::engine::Engine<super::Generals>,
    words: super::orders::Words,
    files: Vec<super::orders::OrderFile>,
}

/// Plays `s` with the bundled rule set, on one thread.
pub fn play(s: Scenario) -> Play {
    let rules = std::sync::Arc::new(rules());
    let words = super::orders::Words::new(&rules);
    let engine =
        crate::core::engine::Engine::new(rules, s, crate::core::engine::Threads::One).expect("the world builds");
    Play { engine, words, files: Vec::new() }
}

impl Play {
    /// Orders of `player` for the next turn: `text` is the body, so its first
    /// line is line 2 (line 1 is `GAME player pw`).
    pub fn orders(&mut self, player: &str, text: &str) -> &mut Self {
        let mail = format!("GAME {player} pw\n{text}\nEND\n");
        let mut m = crate::core::orders::mail::parse_mail(&mail, &self.words).expect("the orders read");
        self.files.push(m.orders.remove(0));
        self
    }
    /// Runs a turn with the orders given.
    pub fn run(&mut self) -> &mut Self {
        self.engine.submit(std::mem::take(&mut self.files));
        self.engine.run_turn(|_, _| {});
        self
    }
    /// The state now.
    pub fn state(&self) -> Scenario {
        self.engine.state()
    }
    /// The report of `player`.
    pub fn report(&self, player: &str) -> &super::report::PlayerReport {
        self.engine.reports().iter().find(|r| r.player.id == player).expect("a report")
    }
    /// The events of `player`'s report, as `line N: text` or `text`.
    pub fn events(&self, player: &str) -> Vec<String> {
        self.report(player)
            .events
            .iter()
            .map(|e| match e.line {
                Some(l) => format!("line {l}: {}", e.text),
                None => e.text.clone(),
            })
            .collect()
    }
    /// Whether an event of `player` contains `text`.
    pub fn said(&self, player: &str, text: &str) -> bool {
        self.events(player).iter().any(|e| e.contains(text))
    }
    /// Troop unit `id` now.
    pub fn troop(&self, id: &str) -> Option<Troop> {
        self.state().troops.into_iter().find(|t| t.id == id)
    }
    /// General `name` now.
    pub fn general(&self, name: &str) -> Option<General> {
        self.state().generals.into_iter().find(|g| g.name == name)
    }
    /// Player `id` now.
    pub fn player(&self, id: &str) -> Player {
        self.state().players.into_iter().find(|p| p.id == id).expect("a player")
    }
    /// Region `id` now.
    pub fn region(&self, id: &str) -> Region {
        self.state().regions.into_iter().find(|r| r.id == id).expect("a region")
    }
}
