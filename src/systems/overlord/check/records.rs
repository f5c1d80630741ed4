//! What the checker reads of a state, kept in each turn's mail index
//! ([`crate::core::game::index`]) so that a mail is checked (FILE-CHECK) without
//! reading the whole state.
//!
//! Records: `game` (the game's settings, but the places new factions may start);
//! `f/<faction id in lower case>` (the
//! faction as [`mail_faction`] keeps it); `u/<faction id in lower case>` (its units in state order, as
//! [`mail_unit`] keeps them, and the places where they hold titles);
//! `l/<location id>` (what the checker reads of the location, and the id,
//! faction and race of every unit there); `s/<structure id>` (the structure). [`state`] reads those an order file
//! can reach: its faction's, the places where its units stand or hold titles, the
//! places, factions and structures its orders name; that is a state on which
//! [`super::check`] says exactly what it says on the whole state (tested on random
//! order files in `tests/fuzz.rs`).

use super::{factions_named, locations_named};
use crate::core::data::{FastMap, bin};
use crate::core::game::index::{Damage, SystemLookup, SystemRecords};
use crate::systems::overlord::data::{
    Exit, Faction, GameSettings, ItemHolding, Location, Market, RecruitOffer, RuleSet, Scenario, SkillExperience,
    SkillLevel, Structure, TitleHolding, Unit,
};
use crate::systems::overlord::orders::{Order, OrderFile, Target};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// A faction's units and the places where they hold titles, as serde writes
/// them whole: the bytes [`UnitRecords`] writes a unit at a time (tested).
#[cfg(test)]
#[derive(Serialize)]
struct UnitsOut<'a> {
    units: Vec<UnitSeen<'a>>,
    titled: BTreeSet<&'a str>,
}

/// What the checker reads of a unit, under [`Unit`]'s own field names, so that
/// it is read back as a `Unit` whose other fields are their defaults: its id,
/// faction, race, figures and place, its stack leader, items (MAG-COST's mana,
/// what a SELL offers), skills (USE, STUDY, TEACH, PILLAGE), target
/// (MAG-TARGET) and pending orders (the new units they make). Its name,
/// description, structure, effects, work in progress, journey, combat settings
/// and orders and its settings, which no check reads, stay out of the index: a
/// third of a unit's bytes there.
#[derive(Serialize)]
pub struct UnitSeen<'a> {
    id: &'a str,
    faction: &'a str,
    race: &'a str,
    figures: u32,
    location: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    stack_leader: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    items: &'a [ItemHolding],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    skills: &'a [SkillExperience],
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'a str>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    orders: &'a [String],
}

/// Unit `u` as the mail index keeps it ([`UnitSeen`]).
pub fn mail_unit(u: &Unit) -> UnitSeen<'_> {
    // Every field is named: one added to the record is kept or left out here.
    let Unit {
        id,
        name: _,
        faction,
        race,
        figures,
        location,
        structure: _,
        stack_leader,
        items,
        skills,
        effects: _,
        production: _,
        target,
        journey: _,
        orders,
        tactics: _,
        combat_orders: _,
        settings: _,
        description: _,
    } = u;
    UnitSeen {
        id,
        faction,
        race,
        figures: *figures,
        location,
        stack_leader: stack_leader.as_deref(),
        items,
        skills,
        target: target.as_deref(),
        orders,
    }
}

/// A faction's units and the places where they hold titles, as read.
#[derive(Deserialize)]
struct UnitsIn {
    units: Vec<Unit>,
    titled: Vec<String>,
}

/// A location's record, as written.
#[derive(Serialize)]
struct PlaceOut<'a> {
    location: PlaceSeen<'a>,
    present: Vec<(&'a str, &'a str, &'a str)>,
}

/// What the checker reads of a location, under [`Location`]'s own field names, so
/// that it is read back as a `Location` whose other fields are their defaults:
/// its id and name, its exits, its population (OWN-FORCE), its market, the
/// recruits it offers and its titles. Its resources, enchantments, weather and the
/// numbers of its economy, which no check reads, stay out of the index.
#[derive(Serialize)]
struct PlaceSeen<'a> {
    id: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    name: &'a str,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    exits: &'a [Exit],
    #[serde(skip_serializing_if = "is_zero")]
    population: u32,
    #[serde(skip_serializing_if = "Market::is_empty")]
    market: &'a Market,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    recruits: &'a [RecruitOffer],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    titles: &'a [TitleHolding],
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl<'a> PlaceSeen<'a> {
    fn of(l: &'a Location) -> Self {
        PlaceSeen {
            id: &l.id,
            name: &l.name,
            exits: &l.exits,
            population: l.population,
            market: &l.market,
            recruits: &l.recruits,
            titles: &l.titles,
        }
    }
}

/// A location's record, as read.
#[derive(Deserialize)]
struct PlaceIn {
    location: Location,
    present: Vec<(String, String, String)>,
}

fn faction_key(id: &str) -> String {
    format!("f/{}", id.to_ascii_lowercase())
}

fn units_key(id: &str) -> String {
    format!("u/{}", id.to_ascii_lowercase())
}

/// A faction as the mail index keeps it: what the checker reads of a faction
/// (its id: the factions an order may name) and what says what it is (name,
/// stance, whether it is a power of the game or gone). Left out are its
/// knowledge, explored places, funds, stances, settings and secrets, which only
/// the month and the reports read: most of a faction's bytes, in a game of many
/// small factions most of the index. `check_both` in the checker's tests and the
/// `mail_index` fuzz target prove the check the same on the whole faction.
pub fn mail_faction(f: &Faction) -> Faction {
    // Every field is named: one added to the record is kept or left out here.
    let Faction {
        id,
        name,
        password: _,
        email: _,
        npc,
        default_stance,
        stances: _,
        funds: _,
        known_skills: _,
        known: _,
        destroyed,
        settings: _,
        takes_resignations,
        creatures,
        serves_overlord,
        start: _,
        provoked: _,
        spared_by: _,
        explored: _,
    } = f;
    Faction {
        id: id.clone(),
        name: name.clone(),
        password: String::new(),
        email: String::new(),
        npc: *npc,
        default_stance: default_stance.clone(),
        stances: Default::default(),
        funds: Default::default(),
        known_skills: Vec::new(),
        known: Vec::new(),
        destroyed: *destroyed,
        settings: Default::default(),
        takes_resignations: *takes_resignations,
        creatures: *creatures,
        serves_overlord: *serves_overlord,
        start: None,
        provoked: None,
        spared_by: Vec::new(),
        explored: Vec::new(),
    }
}

/// The rule set as the mail index keeps it: what reading orders and the checker
/// use. Left out are the descriptions of skills, their levels, items and races,
/// which only reports show, and what levels, items and enchantments do to a unit's
/// numbers (stats, capacity, bonuses, production, grants, summons, combat
/// actions), which only the month reads: a fifth of the bytes, so the rule set is
/// read in a fifth of the time. `check_both` in the checker's tests and the
/// `mail_index` fuzz target prove the check the same with either rule set.
pub fn mail_rules(rules: &RuleSet) -> RuleSet {
    let mut r = rules.clone();
    for s in &mut r.skills {
        s.description.clear();
        for l in &mut s.system.levels {
            *l = SkillLevel {
                experience: l.experience,
                leader_only: l.leader_only,
                target: l.target.take(),
                use_mana: l.use_mana,
                ..SkillLevel::default()
            };
        }
    }
    for i in &mut r.items {
        i.description.clear();
        i.capacity.clear();
        let x = &mut i.system;
        x.equipped_capacity.clear();
        x.stats = Default::default();
        x.bonuses = Default::default();
        x.combat = None;
    }
    for x in &mut r.races {
        x.description.clear();
        x.system.stats = Default::default();
        x.system.bonuses = Default::default();
    }
    let e = &mut r.enchantments;
    for x in &mut e.enchantments {
        x.description.clear();
        x.stats = Default::default();
        x.capacity.clear();
        x.bonuses = Default::default();
        x.combat = None;
    }
    e.effects.clear();
    e.actions.clear();
    r
}

/// Adds the checker's records of `state` to a mail index.
pub fn records(state: &Scenario, out: &mut SystemRecords) -> Result<(), bin::Error> {
    let brief = |i: usize| {
        let u = &state.units[i];
        Brief { id: &u.id, faction: &u.faction, race: &u.race, location: &u.location }
    };
    let holders: std::collections::HashSet<&str> =
        state.locations.iter().flat_map(|l| &l.titles).filter_map(|t| t.holder.as_deref()).collect();
    let mut put = PutRecords::new(state, |id| holders.contains(id), state.units.len(), brief, out)?;
    put.locations(&state.locations, out)?;
    let mut units = put.unit_records();
    units.add(&state.units)?;
    put.finish(units, out)
}

/// A unit as the records of places name it: id, faction, race, and where it
/// stands.
pub struct Brief<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its faction's id.
    pub faction: &'a str,
    /// Its race's tag.
    pub race: &'a str,
    /// Its location's id.
    pub location: &'a str,
}

/// Puts the checker's records into a mail index, in four moves: [`PutRecords::new`]
/// (`head`'s game, and what the units' brief says of where they stand), then
/// [`PutRecords::locations`] for every location, in state order, all at once
/// or a part at a time (`head`'s own are not read), then every unit, in state
/// order, all at once or a part at a time, into [`PutRecords::unit_records`],
/// then [`PutRecords::finish`] (the factions with their units, and the
/// structures). Whether the locations
/// and units come from a whole state or, a part at a time, from the world, the
/// records are the same; so the world's are made from the parts its state file
/// is written from.
pub struct PutRecords<'a, B> {
    head: &'a Scenario,
    brief: B,
    /// Units' positions by faction (its id in lower case).
    units: FastMap<String, Vec<usize>>,
    /// The faction of each unit that holds a title somewhere (by unit id).
    faction_of: FastMap<&'a str, &'a str>,
    /// Places numbered as first met; `at_place[starts[p]..starts[p + 1]]`, the
    /// positions of place `p`'s units, in state order.
    place: FastMap<&'a str, u32>,
    starts: Vec<u32>,
    at_place: Vec<u32>,
    /// Where each faction (its id in lower case) holds titles.
    titled: FastMap<String, BTreeSet<String>>,
}

impl<'a, B: Fn(usize) -> Brief<'a>> PutRecords<'a, B> {
    /// Starts with `head`'s game and the `count` units (in state order), unit `i`
    /// given briefly by `brief(i)`. `holds_title(unit id)` says which units hold
    /// a title somewhere (it may say so of others too).
    pub fn new(
        head: &'a Scenario,
        holds_title: impl Fn(&str) -> bool,
        count: usize,
        brief: B,
        out: &mut SystemRecords,
    ) -> Result<Self, bin::Error> {
        // The game's settings but where new factions may start, which grows with
        // the world and which no check reads.
        let game = GameSettings { joining: Default::default(), ..head.game.clone() };
        out.put("game", &game)?;
        let mut units: FastMap<String, Vec<usize>> = FastMap::default();
        let mut faction_of: FastMap<&str, &str> = FastMap::default();
        // The units of each place, in state order, as positions: each place
        // numbered as first met, the positions sorted by place number (a counting
        // sort).
        let mut place: FastMap<&str, u32> = FastMap::default();
        let mut place_of: Vec<u32> = Vec::with_capacity(count);
        let mut key = (String::new(), String::new());
        for i in 0..count {
            let u = brief(i);
            if u.faction != key.0 {
                key = (u.faction.to_string(), u.faction.to_ascii_lowercase());
            }
            match units.get_mut(&key.1) {
                Some(v) => v.push(i),
                None => {
                    units.insert(key.1.clone(), vec![i]);
                }
            }
            let next = place.len() as u32;
            place_of.push(*place.entry(u.location).or_insert(next));
            if holds_title(u.id) {
                faction_of.insert(u.id, u.faction);
            }
        }
        let mut starts = vec![0u32; place.len() + 1];
        for &p in &place_of {
            starts[p as usize + 1] += 1;
        }
        for p in 1..starts.len() {
            starts[p] += starts[p - 1];
        }
        let mut at_place = vec![0u32; count];
        let mut fill = starts.clone();
        for (i, &p) in place_of.iter().enumerate() {
            at_place[fill[p as usize] as usize] = i as u32;
            fill[p as usize] += 1;
        }
        Ok(PutRecords { head, brief, units, faction_of, place, starts, at_place, titled: FastMap::default() })
    }

    /// Puts the records of the next locations in state order.
    pub fn locations(&mut self, part: &[Location], out: &mut SystemRecords) -> Result<(), bin::Error> {
        for l in part {
            for t in &l.titles {
                if let Some(f) = t.holder.as_deref().and_then(|h| self.faction_of.get(h)) {
                    self.titled.entry(f.to_ascii_lowercase()).or_default().insert(l.id.to_string());
                }
            }
            let here = self.place.get(l.id.as_str()).map_or(Vec::new(), |&p| {
                self.at_place[self.starts[p as usize] as usize..self.starts[p as usize + 1] as usize]
                    .iter()
                    .map(|&i| {
                        let u = (self.brief)(i as usize);
                        (u.id, u.faction, u.race)
                    })
                    .collect()
            });
            out.put(&format!("l/{}", l.id), &PlaceOut { location: PlaceSeen::of(l), present: here })?;
        }
        Ok(())
    }

    /// The factions' units records, to be given the units in state order
    /// ([`UnitRecords::add`]) and then to [`PutRecords::finish`].
    pub fn unit_records(&self) -> UnitRecords {
        let mut faction_at = vec![u32::MAX; self.unit_count()];
        let mut numbers = FastMap::default();
        let mut pieces = Vec::with_capacity(self.units.len());
        for (key, at) in &self.units {
            let n = pieces.len() as u32;
            for &i in at {
                faction_at[i] = n;
            }
            numbers.insert(key.clone(), n);
            pieces.push(UnitRecords::begin(at.len()));
        }
        UnitRecords { faction_at, given: 0, numbers, pieces }
    }

    /// How many units there are (`at_place` holds each once).
    fn unit_count(&self) -> usize {
        self.at_place.len()
    }

    /// `head`'s factions in the order [`PutRecords::finish`] puts them: those
    /// with units in the order of their first units in state order, then the
    /// others in `head`'s order.
    fn faction_order(&self) -> Vec<usize> {
        let mut order: Vec<(usize, usize)> = (self.head.factions.iter().enumerate())
            .map(|(i, f)| match self.units.get(&f.id.to_ascii_lowercase()).and_then(|at| at.first()) {
                Some(&first) => (first, i),
                None => (usize::MAX, i),
            })
            .collect();
        order.sort_unstable();
        order.into_iter().map(|(_, i)| i).collect()
    }

    /// Puts the records of the factions, each with its units (`units`, given
    /// every unit), and of the structures.
    pub fn finish(mut self, mut units: UnitRecords, out: &mut SystemRecords) -> Result<(), bin::Error> {
        if units.given != units.faction_at.len() {
            return Err(bin::Error(format!(
                "the index was given {} units of {}: the units file stopped before its last part",
                units.given,
                units.faction_at.len()
            )));
        }
        for i in self.faction_order() {
            let f = &self.head.factions[i];
            let key = f.id.to_ascii_lowercase();
            out.put(&faction_key(&f.id), &mail_faction(f))?;
            let titled = self.titled.remove(&key).unwrap_or_default();
            let titled: BTreeSet<&str> = titled.iter().map(String::as_str).collect();
            let mut theirs = match units.numbers.remove(&key) {
                Some(n) => std::mem::take(&mut units.pieces[n as usize]),
                None => UnitRecords::begin(0),
            };
            theirs.field(UnitRecords::TITLED);
            theirs.value(&titled)?;
            out.put_bytes(&units_key(&f.id), &theirs.into_bytes())?;
        }
        for s in &self.head.structures {
            out.put(&format!("s/{}", s.id), s)?;
        }
        Ok(())
    }
}

/// Each faction's record of its units (`UnitsOut`: the units as [`mail_unit`]
/// keeps them, then the places where the faction holds titles), written a unit
/// at a time as the units come in state order, among other factions' units
/// (from the parts of the units file as it is written), in the bytes of the
/// whole record ([`bin::Pieces`]; tested). So the index needs no second copy of
/// the units, nor every unit held until its faction's last one comes.
pub struct UnitRecords {
    /// Each unit's faction (in state order), by its number in `pieces`.
    faction_at: Vec<u32>,
    /// Units given so far.
    given: usize,
    /// The factions' numbers, by id in lower case.
    numbers: FastMap<String, u32>,
    /// Each faction's record so far.
    pieces: Vec<bin::Pieces>,
}

impl UnitRecords {
    /// `UnitsOut`'s fields, as its `Serialize` names them.
    const UNITS: &'static str = "units";
    const TITLED: &'static str = "titled";

    /// A faction's record of `count` units, up to its first unit.
    fn begin(count: usize) -> bin::Pieces {
        let mut p = bin::Pieces::default();
        p.begin_struct(2);
        p.field(Self::UNITS);
        p.begin_seq(count);
        p
    }

    /// The next units in state order (after those given before).
    pub fn add(&mut self, units: &[Unit]) -> Result<(), bin::Error> {
        let Some(factions) = self.faction_at.get(self.given..self.given + units.len()) else {
            return Err(bin::Error("the index was given more units than the state has".into()));
        };
        for (u, &n) in units.iter().zip(factions) {
            self.pieces[n as usize].value(&mail_unit(u))?;
        }
        self.given += units.len();
        Ok(())
    }
}

/// The state [`super::check`] needs to check `file` of faction `faction`, read
/// from the records [`records`] wrote.
pub fn state(records: &SystemLookup, faction: &str, file: &OrderFile) -> Result<Scenario, Damage> {
    let missing = |what: &str| Damage(format!("it has no record of {what}"));
    let game: GameSettings = records.get("game")?.ok_or_else(|| missing("the game"))?;
    let own: Faction = records.get(&faction_key(faction))?.ok_or_else(|| missing(faction))?;
    let own_units: UnitsIn = records.get(&units_key(faction))?.ok_or_else(|| missing(faction))?;
    let mut places: BTreeSet<&str> = own_units.units.iter().map(|u| u.location.as_str()).collect();
    places.extend(own_units.titled.iter().map(String::as_str));
    let mut factions = BTreeSet::new();
    let mut structures = BTreeSet::new();
    for order in file.units.iter().flat_map(|b| &b.orders).map(|l| &l.entry.order) {
        places.extend(locations_named(order));
        factions.extend(factions_named(order).into_iter().map(str::to_ascii_lowercase));
        if let Order::Attack(Target::Structure(id)) = order {
            structures.insert(id.as_str());
        }
    }
    factions.remove(&faction.to_ascii_lowercase());
    let mut state = Scenario {
        game,
        factions: vec![own],
        locations: Vec::new(),
        structures: Vec::new(),
        units: Vec::new(),
        orders: Vec::new(),
    };
    let mut others = Vec::new();
    for id in places {
        let Some(p) = records.get::<PlaceIn>(&format!("l/{id}"))? else { continue };
        for (unit, f, race) in p.present {
            if !f.eq_ignore_ascii_case(faction) {
                others.push(Unit { id: unit, faction: f, race, location: p.location.id.clone(), ..Unit::default() });
            }
        }
        state.locations.push(p.location);
    }
    for f in factions {
        if let Some(r) = records.get::<Faction>(&faction_key(&f))? {
            state.factions.push(r);
        }
    }
    for id in structures {
        if let Some(s) = records.get::<Structure>(&format!("s/{id}"))? {
            state.structures.push(s);
        }
    }
    state.units = own_units.units;
    state.units.extend(others);
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::index::{self, GameRecord};

    fn game() -> GameRecord {
        GameRecord { name: "g".into(), title: "G".into(), turn: 1 }
    }

    /// Each faction's record of its units, made a unit at a time among the
    /// other factions' units (in parts of any size), is the record serde makes
    /// of the faction's units whole; a faction without units has the record of
    /// none. The index given fewer units than the state has, or more, fails.
    #[test]
    fn a_factions_units_record_made_a_unit_at_a_time_is_the_record_made_whole() {
        let mut state = crate::systems::overlord::testkit::alpha();
        let runs = state.units.chunk_by(|a, b| a.faction == b.faction).count();
        let with_units = state.factions.iter().filter(|f| state.units.iter().any(|u| u.faction == f.id)).count();
        assert!(runs > with_units, "alpha lists some faction's units apart");
        let idle = Faction { id: "f9".into(), name: "Idle".into(), ..state.factions[0].clone() };
        state.factions.push(idle);
        let brief = |i: usize| {
            let u = &state.units[i];
            Brief { id: &u.id, faction: &u.faction, race: &u.race, location: &u.location }
        };
        let titled: BTreeSet<&str> = ["L2", "L1"].into();
        for per_part in [1, 5, state.units.len()] {
            index::records(game(), &(), Vec::new(), |out| {
                let put = PutRecords::new(&state, |_| false, state.units.len(), brief, out)?;
                let mut units = put.unit_records();
                for part in state.units.chunks(per_part) {
                    units.add(part)?;
                }
                assert!(units.add(&state.units[..1]).is_err(), "one unit more than the state has");
                for f in &state.factions {
                    let theirs = state.units.iter().filter(|u| u.faction.eq_ignore_ascii_case(&f.id));
                    let whole = UnitsOut { units: theirs.map(mail_unit).collect(), titled: titled.clone() };
                    let mut made = match units.numbers.get(&f.id.to_ascii_lowercase()) {
                        Some(&n) => std::mem::take(&mut units.pieces[n as usize]),
                        None => UnitRecords::begin(0),
                    };
                    made.field(UnitRecords::TITLED);
                    made.value(&titled)?;
                    assert_eq!(made.into_bytes(), bin::to_bytes(&whole)?, "{}, parts of {per_part}", f.id);
                }
                Ok(())
            })
            .unwrap();
        }
        let short = index::records(game(), &(), Vec::new(), |out| {
            let put = PutRecords::new(&state, |_| false, state.units.len(), brief, out)?;
            let mut units = put.unit_records();
            units.add(&state.units[1..])?;
            put.finish(units, out)
        });
        assert!(short.is_err(), "a unit short");
    }
}
