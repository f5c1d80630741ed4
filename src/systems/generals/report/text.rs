//! The text report and the order template of a player.

use super::{BattleReport, PlayerReport, RegionRecord, TroopRecord};
use std::fmt::Write;

fn troops(o: &mut String, list: &[TroopRecord], indent: &str) {
    for t in list {
        match &t.id {
            Some(id) => {
                let _ = write!(o, "{indent}{id}: {} {}", t.men, t.kind);
                if let Some(v) = t.veteran.filter(|&v| v > 0) {
                    let _ = write!(o, ", veteran {v}");
                }
                if t.reserve == Some(true) {
                    o.push_str(", reserve");
                }
                o.push('\n');
            }
            None => {
                let _ = writeln!(o, "{indent}about {} {}", t.men, t.kind);
            }
        }
    }
}

fn region(o: &mut String, r: &RegionRecord) {
    let _ = write!(o, "  {} [{}], {}", r.name, r.id, r.terrain);
    if let (Some(i), Some(io), Some(h), Some(ho)) = (r.income, r.income_original, r.hire_limit, r.hire_limit_original) {
        let _ = write!(o, ": income {i} (of {io}), hire limit {h} (of {ho})");
        if let Some(hires) = r.hires.as_ref().filter(|h| !h.is_empty()) {
            let _ = write!(o, "; hires {}", hires.join(", "));
        }
        if let Some(d) = &r.defense {
            let _ = write!(o, "; defends: {d}");
        }
        if let Some(g) = &r.prepared_by {
            let _ = write!(o, "; battlefield prepared by {g}");
        }
    } else {
        match &r.owner {
            Some(p) => {
                let _ = write!(o, ": held by {p}");
            }
            None => o.push_str(": no army seen"),
        }
    }
    let _ = writeln!(o, ". Next to {}.", r.adjacent.join(", "));
    troops(o, &r.troops, "    ");
}

fn battle(o: &mut String, b: &BattleReport) {
    let _ = writeln!(o, "  Battle of {} [{}]: {} rounds, won by the {}.", b.region_name, b.region, b.rounds, b.winner);
    for (side, what) in b.sides.iter().zip(["Attacker", "Defender"]) {
        let led =
            if side.generals.is_empty() { String::new() } else { format!(", led by {}", side.generals.join(", ")) };
        let _ = write!(o, "    {what}: {}{led}, ordered {}", side.player, side.order);
        if side.fought_as != side.order {
            let _ = write!(o, " (fought as {})", side.fought_as);
        }
        o.push_str(".\n");
        for u in &side.units {
            let _ = write!(o, "      {}: {} {}, lost {}", u.id, u.men, u.kind, u.lost);
            if u.fled {
                o.push_str(", fled");
            }
            if u.veteran {
                o.push_str(", became veterans");
            }
            o.push('\n');
        }
        for g in &side.generals_killed {
            let _ = writeln!(o, "      {g} died.");
        }
        if side.destroyed {
            o.push_str("      Destroyed: nowhere to retreat.\n");
        } else if let Some(r) = &side.retreat {
            let _ = writeln!(o, "      Retreated to {r}.");
        }
    }
    for l in &b.log {
        let _ = writeln!(o, "    {l}");
    }
}

/// The text report, ending with the order template ([`crate::core::template`]).
pub fn render(r: &PlayerReport) -> String {
    let mut o = String::new();
    let p = &r.player;
    let _ = writeln!(o, "{}: turn {} report for {} [{}]", r.game, r.turn, p.name, p.id);
    if r.ended {
        o.push_str("The game is over. This is the final report.\n");
    }
    if !r.deadline.is_empty() {
        let _ = writeln!(o, "Orders are due by {}.", r.deadline);
    }
    let _ = writeln!(
        o,
        "Treasury: {} gold ({} gained this turn). Victory points: {}.",
        p.treasury, p.income, p.victory_points
    );
    o.push_str("\nStandings\n");
    for (i, s) in r.standings.iter().enumerate() {
        let _ = writeln!(o, "  {}. {} [{}]: {} points", i + 1, s.name, s.id, s.victory_points);
    }
    if !r.alliances.is_empty() {
        o.push_str("\nAlliances\n");
        for [a, b] in &r.alliances {
            let _ = writeln!(o, "  {a} and {b}");
        }
    }
    if !p.diplomacy.is_empty() {
        o.push_str("\nDiplomacy\n");
        for (id, rel) in &p.diplomacy {
            let _ = writeln!(o, "  {id}: {}", rel.replace('_', " "));
        }
    }
    if !r.events.is_empty() {
        o.push_str("\nEvents\n");
        for e in &r.events {
            match e.line {
                Some(l) => {
                    let _ = writeln!(o, "  line {l}: {}", e.text);
                }
                None => {
                    let _ = writeln!(o, "  {}", e.text);
                }
            }
        }
    }
    if !r.battles.is_empty() {
        o.push_str("\nBattles\n");
        for b in &r.battles {
            battle(&mut o, b);
        }
    }
    o.push_str("\nGenerals\n");
    for g in &r.generals {
        let skills: Vec<String> = g.skills.iter().map(|(s, l)| format!("{s} {l}")).collect();
        let _ = write!(o, "  {} in {}: renown {}; {}", g.name, g.region, g.renown, skills.join(", "));
        if let Some(c) = &g.champion {
            let _ = write!(o, "; fights with {c}");
        }
        let _ = write!(o, "; this turn: {}", g.action);
        if g.new {
            o.push_str(" (new: he may only move next turn)");
        }
        o.push('\n');
    }
    let (own, seen): (Vec<&RegionRecord>, Vec<&RegionRecord>) = r.regions.iter().partition(|x| x.income.is_some());
    o.push_str("\nYour regions\n");
    for x in own {
        region(&mut o, x);
    }
    if !seen.is_empty() {
        o.push_str("\nWhat your scouts found\n");
        for x in seen {
            region(&mut o, x);
        }
    }
    crate::core::template::append(&mut o, &template(r));
    o
}

/// The order template: one line per general and per region, to edit.
pub fn template(r: &PlayerReport) -> String {
    let mut o = String::new();
    let p = &r.player;
    // The password is never written: the player writes it in place of the placeholder.
    let _ = writeln!(o, "GAME {} {}", p.id, crate::core::secret::PLACEHOLDER);
    for g in &r.generals {
        let _ = writeln!(o, "# {} in {}: TRAVEL, MOVE, ATTACK, RECRUIT, PREPARE, REST or TRAIN", g.name, g.region);
        if g.new {
            // Trained last turn: he may only move (or rests, given nothing).
            let _ = writeln!(o, "# GENERAL \"{}\": TRAVEL <region>", g.name);
        } else {
            let _ = writeln!(o, "GENERAL \"{}\": REST", g.name);
        }
    }
    for x in r.regions.iter().filter(|x| x.income.is_some()) {
        let _ = writeln!(o, "REGION {}: {}", x.id, x.defense.as_deref().unwrap_or("FIELD"));
    }
    o.push_str("END\n");
    o
}
