//! The map as a picture (`overlord map`): an SVG of the hex map, for the game master
//! (every place) or as one faction knows it.
//!
//! Places with a `hex` are drawn as flat-topped hexes at their axial coordinates
//! (`(q, r)`: north is `(0, -1)`, north-east `(1, -1)`, south-east `(1, 0)`, as the
//! alpha world's exits run), in their terrain's `color` (`terrains.ron`; a terrain
//! without one is grey). A place inside another (a city, a guild) marks its
//! container's hex with a dot. Each hex carries its id; hovering shows its name.
//!
//! A faction's map shows what its reports have shown it: the places where it has
//! units (terrain, name, the places inside, its number of units there, ringed),
//! the places it has been to before (its `explored` places, kept with the game:
//! terrain and name, not ringed), and the places the exits of both lead to, by id
//! only, in grey: their terrain is not told. Nothing else is drawn, not even as an
//! outline, so the map's shape beyond what the faction has seen stays unknown.

use crate::core::map::Hex;
use crate::systems::overlord::data::{RuleSet, Scenario};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// What is drawn of one hex.
struct Cell<'a> {
    id: &'a str,
    name: &'a str,
    /// Fill colour; `None`: known by name only.
    color: Option<(u8, u8, u8)>,
    /// Places inside it.
    inner: Vec<&'a str>,
    /// The faction's units in it (the place and the places inside).
    units: usize,
}

/// The map of `state`, whole (`faction: None`) or as faction `faction` (its id,
/// any case) knows it. An unknown faction is an error naming it.
pub fn svg(rules: &RuleSet, state: &Scenario, faction: Option<&str>) -> Result<String, String> {
    let faction = match faction {
        None => None,
        Some(f) => Some(
            state
                .factions
                .iter()
                .find(|x| x.id.eq_ignore_ascii_case(f))
                .map(|x| x.id.as_str())
                .ok_or_else(|| format!("no faction '{f}' in this game"))?,
        ),
    };
    let by_id: BTreeMap<&str, usize> = state.locations.iter().enumerate().map(|(i, l)| (l.id.as_str(), i)).collect();
    // The hex a place is drawn in: its own, or its container's.
    let hex_place = |mut i: usize| -> Option<usize> {
        for _ in 0..state.locations.len() {
            let l = &state.locations[i];
            if l.hex.is_some() {
                return Some(i);
            }
            i = *by_id.get(l.container.as_deref()?)?;
        }
        None
    };
    let colour = |terrain: &str| {
        rules.terrains.iter().find(|t| t.tag == terrain).and_then(|t| t.color).unwrap_or((160, 160, 160))
    };
    // Which places are drawn, and how.
    let mut present: BTreeMap<usize, usize> = BTreeMap::new();
    if let Some(f) = faction {
        for u in state.units.iter().filter(|u| u.faction == f) {
            if let Some(h) = by_id.get(u.location.as_str()).and_then(|&i| hex_place(i)) {
                *present.entry(h).or_default() += 1;
            }
        }
    }
    // The places it has been to (map memory), and their hexes.
    let explored: BTreeSet<usize> = faction
        .and_then(|f| state.factions.iter().find(|x| x.id == f))
        .map(|f| f.explored.iter().filter_map(|id| by_id.get(id.as_str()).copied()).collect())
        .unwrap_or_default();
    let explored_hexes: BTreeSet<usize> = explored.iter().filter_map(|&i| hex_place(i)).collect();
    let known = |h: usize| faction.is_none() || present.contains_key(&h) || explored_hexes.contains(&h);
    let mut named: BTreeSet<usize> = BTreeSet::new();
    if faction.is_some() {
        for (i, l) in state.locations.iter().enumerate() {
            let here = hex_place(i).is_some_and(|h| present.contains_key(&h)) || explored.contains(&i);
            if here {
                named.extend(l.exits.iter().filter_map(|x| by_id.get(x.to.as_str())).filter_map(|&t| hex_place(t)));
            }
        }
    }
    let mut cells: BTreeMap<usize, Cell> = BTreeMap::new();
    for (i, l) in state.locations.iter().enumerate() {
        let Some(h) = hex_place(i) else { continue };
        let whole = known(h);
        if !whole && !named.contains(&h) {
            continue;
        }
        let home = &state.locations[h];
        let cell = cells.entry(h).or_insert_with(|| Cell {
            id: &home.id,
            name: if whole { &home.name } else { "" },
            color: whole.then(|| colour(&home.terrain)),
            inner: Vec::new(),
            units: present.get(&h).copied().unwrap_or(0),
        });
        // Inside a hex it has only been to: the places it has been to.
        if i != h && whole && (faction.is_none() || present.contains_key(&h) || explored.contains(&i)) {
            cell.inner.push(&l.name);
        }
    }
    Ok(draw(state, &cells))
}

fn draw(state: &Scenario, cells: &BTreeMap<usize, Cell>) -> String {
    let hexes: Vec<Hex> = cells
        .iter()
        .map(|(&i, c)| {
            let mut title = if c.name.is_empty() { format!("[{}]", c.id) } else { format!("{} [{}]", c.name, c.id) };
            if !c.inner.is_empty() {
                let _ = write!(title, "; inside: {}", c.inner.join(", "));
            }
            if c.units > 0 {
                let _ = write!(title, "; your units: {}", c.units);
            }
            Hex {
                at: state.locations[i].hex.unwrap_or((0, 0)),
                id: c.id.to_string(),
                title,
                color: c.color,
                ringed: c.units > 0,
                dot: !c.inner.is_empty(),
            }
        })
        .collect();
    crate::core::map::svg(&hexes)
}

#[cfg(test)]
mod tests {
    use super::svg;
    use crate::systems::overlord::testkit::{alpha, overlord_rules};

    /// The hexes an SVG draws: (id, fill).
    fn hexes(svg: &str) -> Vec<(String, String)> {
        svg.lines()
            .filter(|l| l.contains("<polygon"))
            .zip(svg.lines().filter(|l| l.starts_with("<text")))
            .map(|(p, t)| {
                let fill = p.split("fill=\"").nth(1).unwrap().split('"').next().unwrap().to_string();
                let id = t.split('>').nth(1).unwrap().split('<').next().unwrap().to_string();
                (id, fill)
            })
            .collect()
    }

    #[test]
    fn the_whole_map_draws_every_hex_in_its_terrains_colour() {
        let (rules, s) = (overlord_rules(), alpha());
        let out = svg(&rules, &s, None).unwrap();
        assert!(out.starts_with("<svg ") && out.ends_with("</svg>\n"));
        let drawn = hexes(&out);
        let with_hex = s.locations.iter().filter(|l| l.hex.is_some()).count();
        assert_eq!(drawn.len(), with_hex);
        // A plain is drawn in the plains' colour of terrains.ron.
        let plain = s.locations.iter().find(|l| l.hex.is_some() && l.terrain == "plai").unwrap();
        let (r, g, b) = rules.terrains.iter().find(|t| t.tag == "plai").unwrap().color.unwrap();
        assert!(drawn.contains(&(plain.id.clone(), format!("#{r:02x}{g:02x}{b:02x}"))), "{drawn:?}");
    }

    #[test]
    fn a_factions_map_shows_only_what_its_report_does() {
        let (rules, s) = (overlord_rules(), alpha());
        let s = &s;
        let f = "f05";
        let out = svg(&rules, s, Some("F05")).unwrap();
        let drawn = hexes(&out);
        let places: std::collections::BTreeSet<&str> =
            s.units.iter().filter(|u| u.faction == f).map(|u| u.location.as_str()).collect();
        // Every hex drawn is one of its places (or holds one), or a neighbour in grey.
        let hex_of = |id: &str| {
            let l = s.locations.iter().find(|l| l.id == id).unwrap();
            if l.hex.is_some() { l.id.clone() } else { l.container.clone().unwrap() }
        };
        let mine: std::collections::BTreeSet<String> = places.iter().map(|p| hex_of(p)).collect();
        assert!(!mine.is_empty());
        for (id, fill) in &drawn {
            if !mine.contains(id) {
                assert_eq!(fill, "#555b66", "{id} is known by name only");
            }
        }
        for m in &mine {
            assert!(drawn.iter().any(|(id, fill)| id == m && fill != "#555b66"), "{m}");
        }
        assert!(drawn.len() < s.locations.iter().filter(|l| l.hex.is_some()).count(), "not the whole map");
        // No name of a place it has not seen is written.
        let unseen = s.locations.iter().find(|l| l.hex.is_some() && !drawn.iter().any(|d| d.0 == l.id)).unwrap();
        assert!(!out.contains(&format!("[{}]", unseen.id)));
        // A faction the game does not have is an error naming it.
        assert_eq!(svg(&rules, s, Some("f99")).unwrap_err(), "no faction 'f99' in this game");
    }

    #[test]
    fn a_factions_map_remembers_the_places_it_has_been_to() {
        let (rules, mut s) = (overlord_rules(), alpha());
        let f = "f05";
        let before = hexes(&svg(&rules, &s, Some(f)).unwrap());
        // A hex it has never seen nor named.
        let far = s
            .locations
            .iter()
            .find(|l| l.hex.is_some() && l.terrain != "ocea" && !before.iter().any(|d| d.0 == l.id))
            .unwrap()
            .clone();
        s.factions.iter_mut().find(|x| x.id == f).unwrap().explored = vec![far.id.clone()];
        let out = svg(&rules, &s, Some(f)).unwrap();
        let after = hexes(&out);
        let (r, g, b) = rules.terrains.iter().find(|t| t.tag == far.terrain).unwrap().color.unwrap();
        assert!(after.contains(&(far.id.clone(), format!("#{r:02x}{g:02x}{b:02x}"))), "drawn in its terrain's colour");
        assert!(out.contains(&format!("{} [{}]", far.name, far.id)), "named");
        // Not ringed as a place where it has units now.
        let line = out.lines().find(|l| l.contains(&format!("{} [{}]", far.name, far.id))).unwrap();
        assert!(line.contains("stroke=\"#202020\""), "{line}");
        // Where its exits lead is known by id.
        for x in &far.exits {
            let to = s.locations.iter().find(|l| l.id == x.to).unwrap();
            if to.hex.is_some() {
                assert!(after.iter().any(|d| d.0 == to.id), "{} named", to.id);
            }
        }
        assert!(after.len() > before.len());
    }
}
