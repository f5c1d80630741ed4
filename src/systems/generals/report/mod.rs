//! The players' reports (generals-rules.txt 162; ruling 15): where their armies
//! are, the gold gained, what their scouts found, diplomacy, battles and what
//! their orders did, as text ([`text`]), JSON (this module's records, schema in
//! `docs/generals-report-schema.json`), the text ending with the order template
//! ([`crate::core::template`]).
//!
//! **Scouting** (ruling 15): a player sees its own regions whole, and every
//! region next to them: its holder, and its troops by type with their men
//! rounded to the nearest `scout_rounding` (at least that many), unless a
//! general there with Sneaky hides them: an army is hidden from a player whose
//! best Sneaky level is lower than the best of the generals with it.

#[cfg(test)]
mod tests;
pub mod text;

use super::data::{Relation, RuleSet, SkillEffect};
use super::mechanics::battle::{BattleRecord, Battles};
use super::mechanics::skills::level;
use super::mechanics::turn::{Event, Journal};
use super::world::{
    Adjacent, At, Directory, Economy, GameInfo, General, Id, Name, Owner, Points, PreparedBy, Region, Relations, Rules,
    Treasury, Troop, holders,
};
use crate::core::engine::ReportsDeferred;
use crate::core::engine::plan::{Clock, PlanApp};
use crate::core::system::FolderFile;
use bevy_app::{App, Plugin};
use bevy_ecs::entity::{EntityHashMap, EntityHashSet};
use bevy_ecs::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// A player's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerReport {
    /// The game's name.
    pub game: String,
    /// The turn just played (0: the start).
    pub turn: u32,
    /// The next deadline.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub deadline: String,
    /// The game is over: this is the final report.
    pub ended: bool,
    /// The player.
    pub player: PlayerRecord,
    /// Every player's victory points, most first.
    pub standings: Vec<Standing>,
    /// The formal alliances between players, known to all (generals-rules.txt
    /// 154): pairs of player ids, in player order.
    pub alliances: Vec<[String; 2]>,
    /// The player's generals.
    pub generals: Vec<GeneralRecord>,
    /// The regions it sees: its own, then those its scouts found.
    pub regions: Vec<RegionRecord>,
    /// The battles it fought this turn.
    pub battles: Vec<BattleReport>,
    /// What happened, with the order lines.
    pub events: Vec<Event>,
}

/// The player's own record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlayerRecord {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Gold.
    pub treasury: u64,
    /// Gold gained this turn.
    pub income: u64,
    /// Victory points.
    pub victory_points: u64,
    /// Relation with every other player: "ally", "secret_ally", "neutral" or "war".
    pub diplomacy: BTreeMap<String, &'static str>,
}

/// A player's points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standing {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Victory points.
    pub victory_points: u64,
}

/// A general of the player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GeneralRecord {
    /// Name.
    pub name: String,
    /// Region id.
    pub region: String,
    /// Renown.
    pub renown: u32,
    /// Skills by name, with levels.
    pub skills: BTreeMap<String, u32>,
    /// Invincible Warrior's unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub champion: Option<String>,
    /// The action he carried out this turn.
    pub action: String,
    /// Trained this turn: he may only move next turn.
    pub new: bool,
}

/// A troop unit seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TroopRecord {
    /// Id (own units only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Troop type name.
    #[serde(rename = "type")]
    pub kind: String,
    /// Men (rounded for other players' units).
    pub men: u32,
    /// Veteran levels (own units only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub veteran: Option<u32>,
    /// In the reserve (own units only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reserve: Option<bool>,
}

/// A region seen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RegionRecord {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Terrain name.
    pub terrain: String,
    /// Holder's id, if any is seen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Adjacent region ids.
    pub adjacent: Vec<String>,
    /// Own regions: income now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub income: Option<u32>,
    /// Own regions: original income.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub income_original: Option<u32>,
    /// Own regions: hire limit now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hire_limit: Option<u32>,
    /// Own regions: original hire limit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hire_limit_original: Option<u32>,
    /// Own regions: troop types for hire.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hires: Option<Vec<String>>,
    /// Own regions: the defensive order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defense: Option<String>,
    /// Own regions: the general who prepared the battlefield.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prepared_by: Option<String>,
    /// Troops seen.
    pub troops: Vec<TroopRecord>,
}

/// A unit in a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BattleUnit {
    /// Id.
    pub id: String,
    /// Troop type name.
    #[serde(rename = "type")]
    pub kind: String,
    /// Men at the start.
    pub men: u32,
    /// Men lost.
    pub lost: u32,
    /// It fled.
    pub fled: bool,
    /// It became a veteran.
    pub veteran: bool,
}

/// A side in a battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BattleSide {
    /// Player id.
    pub player: String,
    /// Its generals.
    pub generals: Vec<String>,
    /// The order given.
    pub order: String,
    /// The order fought under.
    pub fought_as: String,
    /// Its units.
    pub units: Vec<BattleUnit>,
    /// Its generals killed.
    pub generals_killed: Vec<String>,
    /// Where it retreated.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retreat: Option<String>,
    /// Destroyed with nowhere to retreat.
    pub destroyed: bool,
}

/// A battle the player fought.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BattleReport {
    /// Region id.
    pub region: String,
    /// Region name.
    pub region_name: String,
    /// Rounds.
    pub rounds: u32,
    /// "attacker" or "defender".
    pub winner: &'static str,
    /// Attacker, defender.
    pub sides: [BattleSide; 2],
    /// Round by round.
    pub log: Vec<String>,
}

/// Built reports, kept when a turn runs in memory (tests); a game folder builds
/// them as it writes them.
#[derive(Resource, Debug, Default)]
pub struct Reports(pub Vec<PlayerReport>);

/// Builds the reports in the plan's `reports` step.
pub struct ReportPlugin;

impl Plugin for ReportPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Reports>().add_step_system("reports", build_reports);
    }
}

/// Builds every report into [`Reports`], unless the caller builds them.
pub fn build_reports(world: &mut World) {
    if world.contains_resource::<ReportsDeferred>() {
        return;
    }
    let n = world.resource::<Directory>().players.len();
    let survey = Survey::of(world);
    let reports = (0..n).map(|i| build(world, &survey, i)).collect();
    world.insert_resource(Reports(reports));
}

fn id(world: &World, e: Entity) -> String {
    world.get::<Id>(e).map(|x| x.0.clone()).unwrap_or_default()
}

fn name(world: &World, e: Entity) -> String {
    world.get::<Name>(e).map(|x| x.0.clone()).unwrap_or_default()
}

fn relation_word(r: Relation) -> &'static str {
    match r {
        Relation::Ally => "ally",
        Relation::SecretAlly => "secret_ally",
        Relation::Neutral => "neutral",
        Relation::War => "war",
    }
}

/// The best Sneaky level of `generals`.
fn sneaky<'a>(rules: &RuleSet, generals: impl Iterator<Item = &'a General>) -> u32 {
    generals
        .map(|g| {
            level(rules, g, |e| match e {
                SkillEffect::Sneaky(v) => Some(*v),
                _ => None,
            })
            .0
        })
        .max()
        .unwrap_or(0)
}

/// Men as a scout counts them: to the nearest `r`, at least `r`.
fn rounded(men: u32, r: u32) -> u32 {
    if r <= 1 {
        return men;
    }
    let (men, r) = (u64::from(men), u64::from(r));
    u32::try_from(((men + r / 2) / r * r).max(r)).unwrap_or(u32::MAX)
}

/// Who holds what and who is where, taken once for every report.
pub struct Survey {
    alliances: Vec<[String; 2]>,
    held: EntityHashMap<Entity>,
    troops_at: EntityHashMap<Vec<Entity>>,
    generals_at: EntityHashMap<Vec<Entity>>,
}

impl Survey {
    /// The survey of `world`.
    pub fn of(world: &World) -> Self {
        let dir = world.resource::<Directory>();
        let mut troops_at: EntityHashMap<Vec<Entity>> = EntityHashMap::default();
        for &t in &dir.troops {
            if let Some(at) = world.get::<At>(t).filter(|_| world.get::<Troop>(t).is_some()) {
                troops_at.entry(at.0).or_default().push(t);
            }
        }
        let mut generals_at: EntityHashMap<Vec<Entity>> = EntityHashMap::default();
        for &g in &dir.generals {
            if let (Some(at), Some(_)) = (world.get::<At>(g), world.get::<General>(g)) {
                generals_at.entry(at.0).or_default().push(g);
            }
        }
        // Formal alliances are public; secret ones only their members know.
        let mut alliances = Vec::new();
        for (i, &a) in dir.players.iter().enumerate() {
            for &(b, rel) in world.get::<Relations>(a).map_or(&[][..], |r| r.0.as_slice()) {
                if rel == Relation::Ally && dir.players[i + 1..].contains(&b) {
                    alliances.push([id(world, a), id(world, b)]);
                }
            }
        }
        Survey { alliances, held: holders(world), troops_at, generals_at }
    }
}

/// The report of player `index` (in player order).
pub fn build(world: &World, survey: &Survey, index: usize) -> PlayerReport {
    let rules = &world.resource::<Rules>().0;
    let dir = world.resource::<Directory>();
    let info = &world.resource::<GameInfo>().0;
    let me = dir.players[index];
    let journal = world.get_resource::<Journal>();
    let Survey { alliances, held, troops_at, generals_at } = survey;
    let mine: Vec<Entity> = dir
        .generals
        .iter()
        .copied()
        .filter(|&g| world.get::<Owner>(g).is_some_and(|o| o.0 == me) && world.get::<General>(g).is_some())
        .collect();
    let my_sneaky = sneaky(rules, mine.iter().filter_map(|&g| world.get::<General>(g)));
    let relations = world.get::<Relations>(me).map(|r| r.0.clone()).unwrap_or_default();
    let diplomacy = dir
        .players
        .iter()
        .filter(|&&p| p != me)
        .map(|&p| {
            let rel = relations.iter().find(|x| x.0 == p).map_or(Relation::Neutral, |x| x.1);
            (id(world, p), relation_word(rel))
        })
        .collect();
    let points = |p: Entity| world.get::<Points>(p).map_or(0, |x| x.0);
    let mut standings: Vec<Standing> = dir
        .players
        .iter()
        .map(|&p| Standing { id: id(world, p), name: name(world, p), victory_points: points(p) })
        .collect();
    standings.sort_by_key(|s| std::cmp::Reverse(s.victory_points));
    let player = PlayerRecord {
        id: id(world, me),
        name: name(world, me),
        treasury: world.get::<Treasury>(me).map_or(0, |t| t.0),
        income: journal.map_or(0, |j| j.gained(me)),
        victory_points: points(me),
        diplomacy,
    };
    let generals = mine
        .iter()
        .filter_map(|&g| {
            let x = world.get::<General>(g)?;
            Some(GeneralRecord {
                name: id(world, g),
                region: id(world, world.get::<At>(g)?.0),
                renown: x.renown,
                skills: x.skills.iter().map(|&(k, l)| (rules.skills[k].name.clone(), l)).collect(),
                champion: x.champion.filter(|&c| world.get::<Id>(c).is_some()).map(|c| id(world, c)),
                action: journal.and_then(|j| j.deed_of(g)).unwrap_or("R and R").to_string(),
                new: x.new,
            })
        })
        .collect();
    // Own regions, in region order, then the regions next to them.
    let own: Vec<Entity> = dir.regions.iter().copied().filter(|r| held.get(r) == Some(&me)).collect();
    let own_set: EntityHashSet = own.iter().copied().collect();
    let mut near = EntityHashSet::default();
    for &r in &own {
        for &n in world.get::<Adjacent>(r).map_or(&[][..], |a| a.0.as_slice()) {
            if !own_set.contains(&n) {
                near.insert(n);
            }
        }
    }
    // Regions where the player has only generals are seen too.
    for &g in &mine {
        if let Some(at) = world.get::<At>(g)
            && !own_set.contains(&at.0)
        {
            near.insert(at.0);
        }
    }
    let scouted: Vec<Entity> = dir.regions.iter().copied().filter(|r| near.contains(r)).collect();
    let p = &rules.info.parameters;
    let region_record = |r: Entity, whole: bool| -> Option<RegionRecord> {
        let reg = world.get::<Region>(r)?;
        let holder = held.get(&r).copied();
        let hider = generals_at
            .get(&r)
            .map(|gs| {
                sneaky(
                    rules,
                    gs.iter()
                        .filter(|&&g| world.get::<Owner>(g).map(|o| o.0) == holder)
                        .filter_map(|&g| world.get::<General>(g)),
                )
            })
            .unwrap_or(0);
        let hidden = !whole && holder.is_some() && hider > my_sneaky;
        let troops = if hidden {
            Vec::new()
        } else {
            troops_at
                .get(&r)
                .map_or(&[][..], Vec::as_slice)
                .iter()
                .filter_map(|&t| {
                    let x = world.get::<Troop>(t)?;
                    let kind = rules.troops[x.kind].name.clone();
                    Some(if whole {
                        TroopRecord {
                            id: Some(id(world, t)),
                            kind,
                            men: x.men,
                            veteran: Some(x.veteran),
                            reserve: Some(x.reserve),
                        }
                    } else {
                        TroopRecord {
                            id: None,
                            kind,
                            men: rounded(x.men, p.scout_rounding),
                            veteran: None,
                            reserve: None,
                        }
                    })
                })
                .collect()
        };
        let econ = world.get::<Economy>(r);
        let own = |v: Option<u32>| if whole { v } else { None };
        Some(RegionRecord {
            id: id(world, r),
            name: name(world, r),
            terrain: rules.terrains[reg.terrain].name.clone(),
            owner: if hidden { None } else { holder.map(|h| id(world, h)) },
            adjacent: world.get::<Adjacent>(r).map_or_else(Vec::new, |a| a.0.iter().map(|&x| id(world, x)).collect()),
            income: own(econ.map(|e| e.income.0)),
            income_original: own(econ.map(|e| e.income.1)),
            hire_limit: own(econ.map(|e| e.hire_limit.0)),
            hire_limit_original: own(econ.map(|e| e.hire_limit.1)),
            hires: whole.then(|| reg.hires.iter().map(|&k| rules.troops[k].name.clone()).collect()),
            defense: whole.then(|| rules.combat.orders[reg.defense].name.clone()),
            prepared_by: if whole {
                world.get::<PreparedBy>(r).filter(|g| world.get::<Id>(g.0).is_some()).map(|g| id(world, g.0))
            } else {
                None
            },
            troops,
        })
    };
    let regions = own
        .iter()
        .filter_map(|&r| region_record(r, true))
        .chain(scouted.iter().filter_map(|&r| region_record(r, false)))
        .collect();
    let battles = world
        .get_resource::<Battles>()
        .map(|b| {
            b.0.iter().filter(|b| b.sides.iter().any(|s| s.player == me)).map(|b| battle(world, rules, b)).collect()
        })
        .unwrap_or_default();
    PlayerReport {
        game: info.name.clone(),
        turn: world.resource::<Clock>().turn,
        deadline: info.deadline.clone(),
        ended: info.ended,
        player,
        standings,
        alliances: alliances.clone(),
        generals,
        regions,
        battles,
        events: journal.map(|j| j.events(me).to_vec()).unwrap_or_default(),
    }
}

fn battle(world: &World, rules: &RuleSet, b: &BattleRecord) -> BattleReport {
    let side = |s: usize| {
        let x = &b.sides[s];
        BattleSide {
            player: id(world, x.player),
            generals: x.generals.clone(),
            order: rules.combat.orders[x.orders.0].name.clone(),
            fought_as: rules.combat.orders[x.orders.1].name.clone(),
            units: x
                .units
                .iter()
                .map(|u| BattleUnit {
                    id: u.id.clone(),
                    kind: rules.troops[u.kind].name.clone(),
                    men: u.men,
                    lost: u.lost,
                    fled: u.fled,
                    veteran: u.veteran,
                })
                .collect(),
            generals_killed: x.generals_killed.clone(),
            retreat: x.retreat.map(|r| id(world, r)),
            destroyed: x.destroyed,
        }
    };
    BattleReport {
        region: id(world, b.region),
        region_name: name(world, b.region),
        rounds: b.rounds,
        winner: if b.winner == 0 { "attacker" } else { "defender" },
        sides: [side(0), side(1)],
        log: b.log.clone(),
    }
}

/// The reports of a world, built and rendered a player at a time.
pub struct Writer<'w> {
    world: &'w World,
    survey: Survey,
}

impl<'w> Writer<'w> {
    /// The reports of `world`.
    pub fn new(world: &'w World) -> Self {
        Writer { world, survey: Survey::of(world) }
    }
}

impl crate::core::system::ReportWriter for Writer<'_> {
    fn factions(&self) -> usize {
        self.world.resource::<Directory>().players.len()
    }

    fn one(&self, faction: usize) -> Vec<FolderFile> {
        let r = build(self.world, &self.survey, faction);
        let dir = std::path::Path::new("reports");
        let mut json = Vec::new();
        crate::core::data::jsonwrite::to_vec_in(&mut json, &r).expect("reports always serialise");
        json.push(b'\n');
        vec![
            (dir.join(format!("{}.txt", r.player.id)), text::render(&r).into_bytes()),
            (dir.join(format!("{}.json", r.player.id)), json),
        ]
    }
}
