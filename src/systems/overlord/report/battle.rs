//! Battle reports in text (CMB-REPORT, SET-TERSE, RPT-BATTLE): the record a faction
//! may see ([`BattleRecord::seen_by`]) written out. The full form gives every move,
//! action, target and result; the TERSE form only what is not melee or parry, and
//! each round's casualties; bystanders read who fought, the losses and the result.

use crate::core::data::FastMap;
use crate::systems::overlord::mechanics::combat::record::{BattleRecord, Line};
use crate::systems::overlord::world::Catalog;
use std::fmt::Write;

/// Writes the battles of a report.
pub fn render(o: &mut String, battles: &[BattleRecord], c: &Catalog) {
    if battles.is_empty() {
        return;
    }
    o.push_str("\nBattles:\n");
    for b in battles {
        render_one(o, b, c);
    }
}

fn side_name(s: u8) -> &'static str {
    if s == 0 { "attackers" } else { "defenders" }
}

pub(super) fn render_one(o: &mut String, b: &BattleRecord, c: &Catalog) {
    let _ = writeln!(o, "\nBattle at {}, day {} ({}; you were {}):", b.location_name, b.day, b.cause, b.role);
    let names: FastMap<&str, &str> =
        b.sides.iter().flat_map(|s| &s.units).map(|u| (u.id.as_str(), u.name.as_str())).collect();
    let name = |id: &str| -> String { names.get(id).map_or_else(|| format!("[{id}]"), |n| n.to_string()) };
    for (s, side) in b.sides.iter().enumerate() {
        let _ = writeln!(o, "  The {} ({}):", side_name(s as u8), side.factions.join(", "));
        for u in &side.units {
            let race = c.race(&u.race).map_or(u.race.as_str(), |r| c.race_name_for(r, u64::from(u.figures)));
            let _ = write!(o, "    {} of {}: {} {race}, {}", u.name, u.faction, u.figures, u.position);
            if let Some(st) = &u.stats {
                let _ = write!(
                    o,
                    "; melee {}, missile {}, defense {}, initiative {}, life {}, hits {}, damage {}",
                    st.melee, st.missile, st.defense, st.initiative, st.life, st.hits, st.damage
                );
            }
            o.push_str(".\n");
        }
    }
    if b.detail != "partial" {
        let a = &b.ambush;
        let _ = write!(o, "  Ambush levels {} against {}", a.levels[0], a.levels[1]);
        if a.reversed {
            o.push_str(" (the defenders turned the tables)");
        }
        if let Some((s, lead)) = a.ambusher {
            let _ = write!(o, "; the {} ambush the others by {lead}", side_name(s));
        }
        let _ = writeln!(o, ". Tactics {} against {}.", b.tactics[0], b.tactics[1]);
    }
    for r in &b.rounds {
        if r.rout {
            let _ = writeln!(o, "  Rout (round {}):", r.round);
        } else {
            let _ = writeln!(o, "  Round {}:", r.round);
        }
        for l in &r.lines {
            o.push_str("    ");
            line(o, l, &name, c);
            o.push('\n');
        }
        if r.casualties != [0, 0] {
            let _ = writeln!(
                o,
                "    Killed: {}, {}.",
                counted(r.casualties[0], "attacker", "attackers"),
                counted(r.casualties[1], "defender", "defenders")
            );
        }
    }
    let result = match b.winner {
        Some(s) => format!("The {} won", side_name(s)),
        None => "A draw".to_string(),
    };
    let why = match b.ended.as_str() {
        "wiped out" => "a side was wiped out",
        "morale" => "morale failed",
        "no wounds" => "rounds passed without a wound",
        _ => "the rounds ran out",
    };
    let _ = writeln!(o, "  {result}: {why}.");
    for (s, side) in b.sides.iter().enumerate() {
        let start: u32 = side.units.iter().map(|u| u.figures).sum();
        let left: u32 = side.units.iter().map(|u| u.survivors).sum();
        let _ = writeln!(o, "  The {}: {left} of {start} figures left.", side_name(s as u8));
    }
    for a in &b.aftermath {
        let _ = writeln!(o, "  {a}");
    }
    let used: Vec<(&str, &str, &str)> = b
        .used
        .races
        .iter()
        .filter_map(|t| {
            c.race(t).map(|r| &c.rules.races[r.index()]).map(|r| (r.name.as_str(), t.as_str(), r.description.as_str()))
        })
        .chain(b.used.skills.iter().filter_map(|t| {
            c.skill(t)
                .map(|s| &c.rules.skills[s.index()])
                .map(|s| (s.name.as_str(), t.as_str(), s.description.as_str()))
        }))
        .chain(b.used.items.iter().filter_map(|t| {
            c.item(t).map(|i| &c.rules.items[i.index()]).map(|i| (i.name.as_str(), t.as_str(), i.description.as_str()))
        }))
        .collect();
    if !used.is_empty() {
        o.push_str("  Seen in this battle:\n");
        for (n, t, d) in used {
            let _ = writeln!(o, "    {n} [{t}]: {d}");
        }
    }
}

fn counted(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn line(o: &mut String, l: &Line, name: &dyn Fn(&str) -> String, c: &Catalog) {
    let _ = match l {
        Line::Move { unit, to } => write!(o, "{} moves to {to}.", name(unit)),
        Line::Parry { unit } => write!(o, "{} parries.", name(unit)),
        Line::Cast { unit, spell, mana } => write!(o, "{} casts {spell} ({mana} mana).", name(unit)),
        Line::Summon { unit, summoned, figures } => {
            write!(o, "{} calls {} ({}).", name(unit), name(summoned), counted(*figures, "figure", "figures"))
        }
        Line::Charm { unit, effect, rounds, units } => {
            let on: Vec<String> = units.iter().map(|u| name(u)).collect();
            let what = c
                .rules
                .enchantments
                .enchantments
                .iter()
                .find(|e| &e.tag == effect)
                .map_or(effect.clone(), |e| format!("{} [{effect}]", e.name));
            write!(o, "{}: {what} on {} for {}.", name(unit), on.join(", "), counted(*rounds, "round", "rounds"))
        }
        Line::Flee { unit } => write!(o, "{} flees the battlefield.", name(unit)),
        Line::Morale { side } => write!(o, "The {}' morale fails.", side_name(*side)),
        Line::Skip { unit, action, why } => write!(o, "{} cannot use {action}: {why}.", name(unit)),
        Line::Attack { unit, action, figures, targets, damage } => {
            let _ = write!(o, "{} ({figures}) {action}", name(unit));
            if let Some(d) = damage {
                let kind = c.rules.combat.damage_types.iter().find(|x| &x.tag == d).map_or(d.as_str(), |x| &x.name);
                let _ = write!(o, " ({} damage)", kind.to_lowercase());
            }
            if targets.is_empty() {
                o.push_str(": no target in reach");
            }
            for (i, t) in targets.iter().enumerate() {
                let sep = if i == 0 { ": " } else { "; " };
                let _ = write!(
                    o,
                    "{sep}{}: {}, {}, {} killed",
                    name(&t.unit),
                    counted(t.strikes, "blow", "blows"),
                    counted(t.hits, "hit", "hits"),
                    t.kills
                );
            }
            write!(o, ".")
        }
    };
}
