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
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write;

/// A place, as the map needs it.
struct Place {
    id: String,
    name: String,
    /// The place whose hex it is drawn in: itself, or its container's (`None`:
    /// it is not drawn).
    hex_place: Option<u32>,
    /// Its own coordinates, when it has a hex.
    at: (i32, i32),
    /// Its terrain's colour.
    color: (u8, u8, u8),
    /// The hexes its exits lead to.
    exits: Vec<u32>,
}

/// What a faction knows of the map.
struct Known {
    /// Hex places where it has units, and how many.
    present: BTreeMap<u32, usize>,
    /// The places it has been to (map memory).
    explored: BTreeSet<u32>,
}

/// Everything needed to draw a turn's map for the game master or any faction,
/// taken from the state once (`overlord serve` keeps one per turn): the places,
/// where each faction's units are and where it has been.
pub struct Atlas {
    places: Vec<Place>,
    /// For each hex place, the places drawn in it (in state order); empty for others.
    inside: Vec<Vec<u32>>,
    /// Factions by lower-case id.
    factions: BTreeMap<String, Known>,
}

impl Atlas {
    /// The atlas of `state`.
    pub fn new(rules: &RuleSet, state: &Scenario) -> Atlas {
        let by_id: HashMap<&str, u32> =
            state.locations.iter().enumerate().map(|(i, l)| (l.id.as_str(), i as u32)).collect();
        // The hex a place is drawn in: its own, or its container's.
        let hex_place = |mut i: u32| -> Option<u32> {
            for _ in 0..state.locations.len() {
                let l = &state.locations[i as usize];
                if l.hex.is_some() {
                    return Some(i);
                }
                i = *by_id.get(l.container.as_deref()?)?;
            }
            None
        };
        let colours: HashMap<&str, (u8, u8, u8)> =
            rules.terrains.iter().filter_map(|t| Some((t.tag.as_str(), t.color?))).collect();
        let places = state
            .locations
            .iter()
            .enumerate()
            .map(|(i, l)| Place {
                id: l.id.clone(),
                name: l.name.clone(),
                hex_place: hex_place(i as u32),
                at: l.hex.unwrap_or((0, 0)),
                color: colours.get(l.terrain.as_str()).copied().unwrap_or((160, 160, 160)),
                exits: l.exits.iter().filter_map(|x| by_id.get(x.to.as_str())).filter_map(|&t| hex_place(t)).collect(),
            })
            .collect::<Vec<_>>();
        let mut inside: Vec<Vec<u32>> = vec![Vec::new(); places.len()];
        for (i, p) in places.iter().enumerate() {
            if let Some(h) = p.hex_place.filter(|&h| h as usize != i) {
                inside[h as usize].push(i as u32);
            }
        }
        let mut factions: BTreeMap<String, Known> = state
            .factions
            .iter()
            .map(|f| {
                let explored = f.explored.iter().filter_map(|id| by_id.get(id.as_str()).copied()).collect();
                (f.id.to_ascii_lowercase(), Known { present: BTreeMap::new(), explored })
            })
            .collect();
        let index: HashMap<&str, String> =
            state.factions.iter().map(|f| (f.id.as_str(), f.id.to_ascii_lowercase())).collect();
        for u in &state.units {
            let (Some(key), Some(&at)) = (index.get(u.faction.as_str()), by_id.get(u.location.as_str())) else {
                continue;
            };
            if let (Some(h), Some(k)) = (places[at as usize].hex_place, factions.get_mut(key)) {
                *k.present.entry(h).or_default() += 1;
            }
        }
        Atlas { places, inside, factions }
    }

    /// The map, whole (`faction: None`) or as faction `faction` (its id, any case)
    /// knows it. An unknown faction is an error naming it.
    pub fn svg(&self, faction: Option<&str>) -> Result<String, String> {
        let Some(f) = faction else {
            // The game master's map: every hex, whole, with every place inside.
            let cells = (0..self.places.len() as u32)
                .filter(|&h| self.places[h as usize].hex_place == Some(h))
                .map(|h| (h, self.cell(h, true, 0, |_| true)))
                .collect();
            return Ok(self.draw(&cells));
        };
        let k = self.factions.get(&f.to_ascii_lowercase()).ok_or_else(|| format!("no faction '{f}' in this game"))?;
        // Hexes seen whole: where it has units, and where it has been.
        let mut seen: BTreeSet<u32> = k.present.keys().copied().collect();
        seen.extend(k.explored.iter().filter_map(|&i| self.places[i as usize].hex_place));
        // Hexes named: where the exits of the places it is in or has been to lead.
        let mut named: BTreeSet<u32> = BTreeSet::new();
        for &h in k.present.keys() {
            named.extend(&self.places[h as usize].exits);
            for &i in &self.inside[h as usize] {
                named.extend(&self.places[i as usize].exits);
            }
        }
        for &i in &k.explored {
            named.extend(&self.places[i as usize].exits);
        }
        let mut cells = BTreeMap::new();
        for &h in seen.union(&named) {
            let whole = seen.contains(&h);
            let here = k.present.contains_key(&h);
            // Inside a hex it has only been to: the places it has been to.
            let cell =
                self.cell(h, whole, k.present.get(&h).copied().unwrap_or(0), |i| here || k.explored.contains(&i));
            cells.insert(h, cell);
        }
        Ok(self.draw(&cells))
    }

    /// The cell of hex place `h`: named and coloured when seen `whole`, with the
    /// places inside it that `show` lets through, and `units` of the viewer's.
    fn cell(&self, h: u32, whole: bool, units: usize, show: impl Fn(u32) -> bool) -> Cell<'_> {
        let home = &self.places[h as usize];
        let inner = if whole {
            self.inside[h as usize]
                .iter()
                .filter(|&&i| show(i))
                .map(|&i| self.places[i as usize].name.as_str())
                .collect()
        } else {
            Vec::new()
        };
        Cell {
            id: &home.id,
            name: if whole { &home.name } else { "" },
            color: whole.then_some(home.color),
            inner,
            units,
        }
    }

    fn draw(&self, cells: &BTreeMap<u32, Cell>) -> String {
        let hexes: Vec<Hex> = cells
            .iter()
            .map(|(&i, c)| {
                let mut title =
                    if c.name.is_empty() { format!("[{}]", c.id) } else { format!("{} [{}]", c.name, c.id) };
                if !c.inner.is_empty() {
                    let _ = write!(title, "; inside: {}", c.inner.join(", "));
                }
                if c.units > 0 {
                    let _ = write!(title, "; your units: {}", c.units);
                }
                Hex {
                    at: self.places[i as usize].at,
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
}

impl crate::core::map::Atlas for Atlas {
    fn svg(&self, faction: Option<&str>) -> Result<String, String> {
        Atlas::svg(self, faction)
    }
}

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
    Atlas::new(rules, state).svg(faction)
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
