//! Building the report models from the world.

use super::Reports;
use super::model::*;
use crate::core::engine::ThreadCount;
use crate::core::engine::plan::Clock;
use crate::systems::overlord::mechanics::stats::UnitStats;
use crate::systems::overlord::mechanics::visibility::Sight;
use crate::systems::overlord::mechanics::visibility::survey::{self, Survey};
use crate::systems::overlord::mechanics::visibility::visits;
use crate::systems::overlord::orders::syntax::{Entry, Order};
use crate::systems::overlord::world::components::*;
use crate::systems::overlord::world::ids::{Catalog, ItemId};
use crate::systems::overlord::world::resources::{Departures, Directory, Game};
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

/// Builds every faction's report into [`Reports`]. Factions are built in parallel
/// on [`ThreadCount`] threads; the result is in faction order whatever the count.
///
/// With [`ReportsDeferred`](crate::core::engine::ReportsDeferred) in the world nothing is built: the caller builds the
/// reports a faction at a time with a [`Builder`] when it writes them.
pub fn build_reports(world: &mut World) {
    if world.contains_resource::<crate::core::engine::ReportsDeferred>() {
        world.resource_mut::<Reports>().0.clear();
        return;
    }
    let reports = build_all(world);
    world.resource_mut::<Reports>().0 = reports;
}

/// Builds faction reports from the world as it stands, any range of factions at a
/// time; what is common to all (who is where) is indexed once, or taken from the
/// knowledge step's [`Survey`] when it was taken at this moment.
pub struct Builder<'w> {
    world: &'w World,
    idx: Index,
    survey: Surveyed<'w>,
    sheets: Sheets<'w>,
}

/// The survey a builder reads: the world's, or its own.
enum Surveyed<'w> {
    Kept(&'w Survey),
    Own(Box<Survey>),
}

impl std::ops::Deref for Surveyed<'_> {
    type Target = Survey;
    fn deref(&self) -> &Survey {
        match self {
            Surveyed::Kept(s) => s,
            Surveyed::Own(s) => s,
        }
    }
}

impl<'w> Builder<'w> {
    /// Indexes the world.
    pub fn new(world: &'w World) -> Self {
        let survey = match Survey::current(world) {
            Some(s) => Surveyed::Kept(s),
            None => Surveyed::Own(Box::new(Survey::new(world))),
        };
        let dir = world.resource::<Directory>();
        Builder { world, idx: index(world, dir), survey, sheets: Sheets::new(dir.locations.len()) }
    }

    /// Number of factions, hence of reports.
    pub fn factions(&self) -> usize {
        self.world.resource::<Directory>().factions.len()
    }

    /// How many unit lines faction `i`'s report may hold: its units, and every unit
    /// at its places (an upper bound of those it sees).
    pub fn size(&self, i: usize) -> usize {
        let units = &self.idx.by_faction[i];
        let mut places: Vec<usize> = units
            .iter()
            .filter_map(|&u| self.world.get::<At>(u).and_then(|a| self.survey.place_of(a.location)))
            .collect();
        places.sort_unstable();
        places.dedup();
        units.len() + places.iter().map(|&l| self.survey.by_location[l].len()).sum::<usize>()
    }

    /// The report of faction `i` (in report order).
    pub fn one(&self, i: usize) -> FactionReport {
        faction_report(self.world, &self.idx, &self.survey, &self.sheets, i)
    }

    /// The reports of factions `range` (in report order), built on the world's
    /// threads; the result is in faction order whatever their count.
    pub fn build(&self, range: std::ops::Range<usize>) -> Vec<FactionReport> {
        let threads = self.world.get_resource::<ThreadCount>().map_or(1, |t| t.0).max(1);
        let factions: Vec<usize> = range.collect();
        crate::core::engine::parallel::map_ordered(&factions, threads, |&i| {
            faction_report(self.world, &self.idx, &self.survey, &self.sheets, i)
        })
    }
}

/// What every faction that sees a unit reads of it (VIS-SEE, VIS-ITEMS), but
/// for what depends on the faction (whether it knows the unit's faction, its
/// guard's stance toward it). A place's are read from the world once, by the
/// first report that describes the place, and shared by every other that does:
/// in a big world each unit is seen by several factions, and each reading of it
/// is a dozen lookups scattered through memory.
struct Sheet<'w> {
    id: &'w str,
    name: &'w str,
    owner: Option<Entity>,
    race: &'static str,
    figures: u32,
    structure: Option<&'w str>,
    stack_leader: Option<&'w str>,
    /// On its way (MOV-HALF).
    moving: bool,
    /// On guard on the month's last day (GRD-SHOW).
    guarding: bool,
    /// Its holdings, all of them: another faction sees those of weight.
    items: &'w [Holding],
}

/// The units' sheets of each place (by directory position), in the order of the
/// survey's list of the place ([`Survey::by_location`]), each made when first
/// needed, by whichever report thread needs it.
struct Sheets<'w> {
    places: Vec<std::sync::OnceLock<Vec<Sheet<'w>>>>,
}

impl<'w> Sheets<'w> {
    fn new(places: usize) -> Self {
        Sheets { places: (0..places).map(|_| std::sync::OnceLock::new()).collect() }
    }

    /// The sheets of place `l`'s units, as `survey` lists them.
    fn at(&self, world: &'w World, survey: &Survey, l: usize) -> &[Sheet<'w>] {
        self.places[l].get_or_init(|| {
            let catalog = world.resource::<Catalog>();
            let last_day = world.resource::<Clock>().tick;
            let id = |e: Entity| world.get::<Id>(e).map_or("", |i| i.0.as_str());
            survey.by_location[l]
                .iter()
                .map(|&u| {
                    let r = world.entity(u);
                    Sheet {
                        id: id(u),
                        name: r.get::<DisplayName>().map_or("", |n| n.0.as_str()),
                        owner: r.get::<Owner>().map(|o| o.0),
                        race: r.get::<Race>().map_or("", |x| catalog.race_tag(x.0)),
                        figures: r.get::<Figures>().map_or(0, |x| x.0),
                        structure: r.get::<At>().and_then(|a| a.structure).map(id),
                        stack_leader: r.get::<StackLeader>().and_then(|s| s.0).map(id),
                        moving: r.contains::<Journey>(),
                        guarding: last_day > 0 && r.get::<OnGuard>().is_some_and(|g| g.0 == last_day),
                        items: r.get::<Inventory>().map_or(&[], |inv| inv.0.as_slice()),
                    }
                })
                .collect()
        })
    }
}

/// The factions' units, structures, titles, battles and taxes, in report order.
struct Index {
    by_faction: Vec<Vec<Entity>>,
    /// Control points added by titles, by faction.
    titles: EntityHashMap<u64>,
    /// Structures by owning faction, in report order.
    structures_of: Vec<Vec<Entity>>,
    /// The month's battles each faction saw, in the order fought.
    battles: EntityHashMap<Vec<usize>>,
    /// Titles held by each faction's units: (location, slot), in location order.
    titles_of: Vec<Vec<(Entity, usize)>>,
    /// Taxes each faction collected this month.
    taxes_of: Vec<u64>,
    /// The units each faction lost this month (positions in [`Departures`]).
    departed_of: Vec<Vec<usize>>,
    /// Each faction's ended stays at places this month
    /// ([`visits::stays_by_faction`]; none when no month was played): its report
    /// reckons the days its units were at each place from them.
    stays_of: Vec<Vec<u32>>,
    /// The units inside each structure owned by a faction, in report order.
    inside: EntityHashMap<Vec<Entity>>,
    /// The lessons' texts, each written once for every report that teaches it.
    lessons: super::describe::Texts,
}

use crate::systems::overlord::mechanics::combat::Battles;
use crate::systems::overlord::mechanics::combat::record::BattleRecord;

fn index(world: &World, dir: &Directory) -> Index {
    let faction_index: EntityHashMap<usize> = dir.factions.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let by_faction = dir.units_by_faction(world);
    let titles = crate::systems::overlord::mechanics::control::title_control(world);
    let mut structures_of = vec![Vec::new(); dir.factions.len()];
    let mut inside: EntityHashMap<Vec<Entity>> = EntityHashMap::default();
    for &s in &dir.structures {
        let owner = world.get::<StructureOwner>(s).and_then(|x| x.0);
        if let Some(&f) = owner.and_then(|f| faction_index.get(&f)) {
            structures_of[f].push(s);
            inside.insert(s, Vec::new());
        }
    }
    for &u in dir.units() {
        if let Some(list) = world.get::<At>(u).and_then(|a| a.structure).and_then(|s| inside.get_mut(&s)) {
            list.push(u);
        }
    }
    let mut battles: EntityHashMap<Vec<usize>> = EntityHashMap::default();
    if let Some(b) = world.get_resource::<Battles>() {
        for (k, r) in b.0.iter().enumerate() {
            for w in &r.witnesses {
                battles.entry(w.0).or_default().push(k);
            }
        }
    }
    let mut titles_of = vec![Vec::new(); dir.factions.len()];
    for &l in &dir.locations {
        let Some(t) = world.get::<Titles>(l) else { continue };
        for (slot, (_, holder)) in t.0.iter().enumerate() {
            let unit =
                holder.as_deref().and_then(|h| dir.get(crate::systems::overlord::world::resources::Kind::Unit, h));
            let f = unit.and_then(|u| world.get::<Owner>(u)).and_then(|o| faction_index.get(&o.0));
            if let Some(&f) = f {
                titles_of[f].push((l, slot));
            }
        }
    }
    let mut taxes_of = vec![0u64; dir.factions.len()];
    if let Some(book) = world.get_resource::<crate::systems::overlord::mechanics::land::LandBook>() {
        for &(f, n) in book.collected.values() {
            if let Some(&i) = faction_index.get(&f) {
                taxes_of[i] += n;
            }
        }
    }
    let mut departed_of = vec![Vec::new(); dir.factions.len()];
    if let Some(d) = world.get_resource::<Departures>() {
        for (k, x) in d.0.iter().enumerate() {
            if let Some(&i) = faction_index.get(&x.faction) {
                departed_of[i].push(k);
            }
        }
    }
    let clock = world.resource::<Clock>();
    let stays_of = if clock.tick == 0 { vec![Vec::new(); dir.factions.len()] } else { visits::stays_by_faction(world) };
    let lessons = super::describe::Texts::new(world.resource::<Catalog>());
    Index { departed_of, by_faction, titles, structures_of, battles, titles_of, taxes_of, stays_of, inside, lessons }
}

fn build_all(world: &World) -> Vec<FactionReport> {
    let b = Builder::new(world);
    b.build(0..b.factions())
}

/// `Name [id]` of an entity.
fn labelled(world: &World, e: Entity) -> String {
    crate::systems::overlord::mechanics::scheduler::label(world, e)
}

/// The titles location `l` bears, with their holders and factions (TTL-CLAIM).
fn title_records(world: &World, catalog: &Catalog, l: Entity) -> Vec<TitleRecord> {
    let dir = world.resource::<Directory>();
    let Some(t) = world.get::<Titles>(l) else { return Vec::new() };
    t.0.iter()
        .map(|(ti, holder)| {
            let title = &catalog.rules.titles[*ti];
            let unit =
                holder.as_deref().and_then(|h| dir.get(crate::systems::overlord::world::resources::Kind::Unit, h));
            TitleRecord {
                tag: title.tag.clone(),
                name: title.name.clone(),
                holder: unit.map(|u| labelled(world, u)),
                faction: unit.and_then(|u| world.get::<Owner>(u)).map(|f| id_of(world, f.0)),
            }
        })
        .collect()
}

fn id_of(world: &World, e: Entity) -> String {
    world.get::<Id>(e).map(|i| i.0.clone()).unwrap_or_default()
}

fn events(e: Option<&Events>) -> Vec<EventRecord> {
    e.map(|e| e.0.iter().map(|x| EventRecord { day: x.day, text: x.text.to_string() }).collect()).unwrap_or_default()
}

fn faction_report<'w>(world: &'w World, idx: &Index, survey: &Survey, sheets: &Sheets<'w>, i: usize) -> FactionReport {
    let dir = world.resource::<Directory>();
    let catalog = world.resource::<Catalog>();
    let clock = world.resource::<Clock>();
    let game = &world.resource::<Game>().0;
    let fe = dir.factions[i];
    let f = world.entity(fe);
    // The days its units were at each place (none before the first month).
    let days_of = if clock.tick == 0 {
        BTreeMap::new()
    } else {
        visits::days_present(world, &idx.stays_of[i], &idx.by_faction[i], clock.ticks)
    };
    let contact = f.get::<Contact>().cloned().unwrap_or_default();
    let faction_id = id_of(world, fe);
    let faction = FactionInfo {
        id: faction_id.clone(),
        name: f.get::<DisplayName>().map(|n| n.0.clone()).unwrap_or_default(),
        email: contact.email,
        funds: f
            .get::<Funds>()
            .map(|fu| fu.0.iter().map(|&(it, n)| (catalog.item_tag(it), n)).collect())
            .unwrap_or_default(),
        control: ControlRecord {
            used: idx.by_faction[i]
                .iter()
                .map(|&u| world.get::<UnitStats>(u).map_or(0, |s| u64::from(s.control())))
                .sum(),
            max: u64::from(catalog.rules.info.parameters.starting_control_points)
                + idx.titles.get(&fe).copied().unwrap_or(0),
        },
        titles: idx.titles_of[i]
            .iter()
            .filter_map(|&(l, slot)| {
                let (ti, holder) = world.get::<Titles>(l)?.0.get(slot)?.clone();
                let holder = holder?.to_string();
                let t = &catalog.rules.titles[ti];
                let u = dir.get(crate::systems::overlord::world::resources::Kind::Unit, &holder);
                Some(HeldTitleRecord {
                    tag: t.tag.clone(),
                    name: t.name.clone(),
                    location: id_of(world, l),
                    location_name: world.get::<DisplayName>(l).map(|n| n.0.clone()).unwrap_or_default(),
                    holder_name: u.and_then(|u| world.get::<DisplayName>(u)).map(|n| n.0.clone()).unwrap_or_default(),
                    holder,
                })
            })
            .collect(),
        taxes: idx.taxes_of[i],
        diplomacy: {
            let d = f.get::<Diplomacy>();
            DiplomacyRecord {
                default: d.and_then(|d| d.default).map(|s| catalog.stances.tag(s).to_string()).unwrap_or_default(),
                stances: d
                    .map(|d| {
                        d.toward
                            .iter()
                            .map(|&(other, s)| (id_of(world, other), catalog.stances.tag(s).to_string()))
                            .chain(d.unknown.iter().map(|(t, s)| (t.clone(), catalog.stances.tag(*s).to_string())))
                            .collect()
                    })
                    .unwrap_or_default(),
                toward_us: TagMap::new(),
            }
        },
    };
    let played = world.get_resource::<crate::systems::overlord::mechanics::climate::PlayedWeather>();
    let next_month = {
        let months = catalog.rules.climate.months.len().max(1) as u32;
        (world.resource::<crate::systems::overlord::world::resources::Month>().0 + 1) % months
    };
    let view = survey.view(world, &idx.by_faction[i]);
    let mut locations: Vec<usize> = view.best.keys().copied().collect();
    let units = idx.by_faction[i]
        .iter()
        .map(|&u| {
            let r = world.entity(u);
            let at = r.get::<At>().copied();
            UnitRecord {
                id: id_of(world, u),
                name: r.get::<DisplayName>().map(|n| n.0.clone()).unwrap_or_default(),
                faction: faction_id.clone(),
                location: at.map(|a| id_of(world, a.location)).unwrap_or_default(),
                structure: at.and_then(|a| a.structure).map(|s| id_of(world, s)),
                race: r.get::<Race>().map(|x| catalog.race_tag(x.0).into()).unwrap_or_default(),
                figures: r.get::<Figures>().map_or(0, |x| x.0),
                stack_leader: r.get::<StackLeader>().and_then(|s| s.0).map(|s| id_of(world, s)),
                items: r
                    .get::<Inventory>()
                    .map(|inv| {
                        inv.0
                            .iter()
                            .map(|h| (catalog.item_tag(h.item), ItemRecord { count: h.count, equipped: h.equipped }))
                            .collect()
                    })
                    .unwrap_or_default(),
                skills: r
                    .get::<Skills>()
                    .map(|s| {
                        s.0.iter()
                            .map(|&(id, exp)| {
                                let rec = SkillRecord {
                                    days: catalog.experience_days(exp),
                                    level: catalog.skill_level(id, exp),
                                };
                                (catalog.skill_tag(id), rec)
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
                weight: r.get::<UnitStats>().map_or(0, |s| s.weight()),
                capacity: r
                    .get::<UnitStats>()
                    .map(|s| {
                        (0..catalog.rules.movement.modes.len())
                            .zip(&s.capacity)
                            .map(|(m, &c)| (catalog.mode_tag(m), c))
                            .collect()
                    })
                    .unwrap_or_default(),
                stats: r.get::<UnitStats>().map(|s| stats_record(&s.stats)).unwrap_or_default(),
                enchantments: enchantments(catalog, r.get::<Effects>()),
                journey: r.get::<Journey>().map(|j| JourneyRecord {
                    from: id_of(world, j.from),
                    to: id_of(world, j.to),
                    mode: catalog.rules.movement.modes[j.mode].tag.clone(),
                    days: j.days,
                    elapsed: j.elapsed,
                    kind: match j.kind {
                        crate::systems::overlord::data::JourneyKind::Move => "move",
                        crate::systems::overlord::data::JourneyKind::March => "march",
                        crate::systems::overlord::data::JourneyKind::Retreat => "retreat",
                    }
                    .to_string(),
                }),
                orders: r
                    .get::<Orders>()
                    .map(|o| o.0.iter().map(|q| pending(catalog, &q.entry)).collect())
                    .unwrap_or_default(),
                events: events(r.get::<Events>()),
            }
        })
        .collect();
    locations.sort_unstable();
    locations.dedup();
    let locations: Vec<LocationRecord> = locations
        .into_iter()
        .map(|l| {
            let le = dir.locations[l];
            let r = world.entity(le);
            let weathers = &catalog.rules.climate.weathers;
            let sheets = sheets.at(world, survey, l);
            let rules = crate::systems::overlord::mechanics::visibility::rules(world);
            let units: Vec<SeenUnit> = survey
                .sighted_at(rules, l, &view, |p| sheets[p as usize].owner == Some(fe))
                .into_iter()
                .map(|(p, sight)| seen_unit(world, catalog, fe, &sheets[p as usize], sight))
                .collect();
            // VIS-FACTION: another faction's building shows its owner only when a
            // unit inside shows that faction; units that hide theirs hide it too.
            let shown: BTreeSet<(&str, &str)> =
                units.iter().filter_map(|u| Some((u.structure.as_deref()?, u.faction.as_deref()?))).collect();
            let structures = survey.structures_at[l]
                .iter()
                .map(|&s| {
                    let mut rec = structure_record(world, catalog, s);
                    rec.owner = rec.owner.take().filter(|o| *o == faction_id || shown.contains(&(&rec.id[..], &o[..])));
                    rec
                })
                .collect();
            LocationRecord {
                id: id_of(world, le),
                days: days_of
                    .get(&le)
                    .filter(|d| d[..] != [(1, clock.ticks)])
                    .map_or(Vec::new(), |d| d.iter().map(|&(a, b)| [a, b]).collect()),
                name: r.get::<DisplayName>().map(|n| n.0.clone()).unwrap_or_default(),
                terrain: r.get::<Terrain>().map(|t| catalog.terrain_tag(t.0).to_string()).unwrap_or_default(),
                population: r.get::<Population>().map_or(0, |p| p.0),
                container: r.get::<Within>().and_then(|w| w.container).map(|c| id_of(world, c)),
                weather: played.and_then(|p| p.0.get(&le)).map(|&w| weathers[w].tag.clone()),
                forecast: r.get::<Weather>().and_then(|w| w.0).map(|w| weathers[w].tag.clone()),
                exits: crate::systems::overlord::mechanics::movement::routes::exits_now(world, le)
                    .into_iter()
                    .map(|(dir, to, days)| ExitRecord {
                        dir,
                        to: id_of(world, to),
                        to_name: world.get::<DisplayName>(to).map(|n| n.0.clone()).unwrap_or_default(),
                        days: (0..catalog.rules.movement.modes.len())
                            .zip(days)
                            .filter_map(|(m, d)| Some((catalog.mode_tag(m), d?)))
                            .collect(),
                    })
                    .collect(),
                units,
                structures,
                wages: r.get::<Wages>().map_or(0, |w| w.0),
                taxes: crate::systems::overlord::mechanics::land::taxes::monthly_taxes(
                    catalog,
                    next_month,
                    r.get::<Population>().map_or(0, |p| p.0),
                ),
                titles: title_records(world, catalog, le),
                owner: r.get::<LandOwner>().and_then(|o| o.0.as_ref()).map(|o| id_of(world, o.0)),
                policy: r.get::<LandOwner>().and_then(|o| o.0.as_ref()).map(|_| {
                    let p = r.get::<Location>().map(|l| l.policy()).unwrap_or_default();
                    if p.is_empty() { "neutral".to_string() } else { p.to_string() }
                }),
                occupier: world
                    .get_resource::<crate::systems::overlord::world::resources::Occupation>()
                    .and_then(|x| x.0.get(&le))
                    .map(|&f| id_of(world, f)),
                recruits: r.get::<Recruits>().map_or(Vec::new(), |x| {
                    x.0.iter()
                        .filter(|o| o.count > 0)
                        .map(|o| OfferRecord {
                            tag: catalog.race_tag(o.race).into(),
                            name: catalog.race_name_for(o.race, u64::from(o.count)).into(),
                            count: o.count,
                            price: Some(o.price),
                        })
                        .collect()
                }),
                for_sale: r.get::<Market>().map_or(Vec::new(), |m| goods(catalog, &m.sells)),
                buying: r.get::<Market>().map_or(Vec::new(), |m| goods(catalog, &m.buys)),
                // Where the place trades itself; units trade with each other on the
                // same days anywhere.
                market_days: match r.get::<Market>() {
                    Some(m) if m.sells.is_empty() && m.buys.is_empty() => Vec::new(),
                    Some(m) if !m.days.is_empty() => m.days.clone(),
                    Some(_) => catalog.rules.info.parameters.market_days.clone(),
                    None => Vec::new(),
                },
                teaches: r
                    .get::<Teaches>()
                    .map_or(TagMap::new(), |t| t.0.iter().map(|&(s, level)| (catalog.skill_tag(s), level)).collect()),
                resources: survey::resources_seen(world, le, view.own_at(l))
                    .into_iter()
                    .map(|(item, n)| item_record(catalog, item, n, None))
                    .collect(),
                enchantments: enchantments(catalog, r.get::<Effects>()),
            }
        })
        .collect();
    let passed = passed_records(world, &days_of, &locations);
    let structures = idx.structures_of[i]
        .iter()
        .map(|&s| {
            let inside = idx.inside.get(&s).map_or(&[][..], |v| &v[..]);
            own_structure_record(world, catalog, s, inside, &locations)
        })
        .collect();
    // DIP-PRIVATE (rulings 11): the stances toward the faction its units saw shown
    // by other factions' guards.
    let mut faction = faction;
    for l in &locations {
        for u in &l.units {
            if let (Some(other), Some(stance)) = (&u.faction, &u.guard_stance)
                && !stance.is_empty()
            {
                faction.diplomacy.toward_us.insert(other.clone(), stance.clone());
            }
        }
    }
    let months = &catalog.rules.climate.months;
    let this = world.resource::<crate::systems::overlord::world::resources::Month>().0;
    let month = months.get(this as usize).map(|m| m.name.clone()).unwrap_or_default();
    let next = (this + 1) % (months.len().max(1) as u32);
    let season_of = |m: u32| catalog.season(m).map(|s| s.name.clone()).unwrap_or_default();
    FactionReport {
        game: game.name.clone(),
        turn: clock.turn,
        month,
        season: season_of(this),
        next_month: months.get(next as usize).map(|m| m.name.clone()).unwrap_or_default(),
        next_season: season_of(next),
        deadline: game.deadline.clone(),
        faction,
        events: events(f.get::<Events>()),
        units,
        departed: idx.departed_of[i]
            .iter()
            .map(|&k| departed_record(world, catalog, &world.resource::<Departures>().0[k]))
            .collect(),
        locations,
        passed,
        structures,
        battles: battles_seen(world, idx, fe, &faction_id),
        knowledge: knowledge(catalog, &idx.lessons, f.get::<Learnt>()),
    }
}

/// The places of `days` (where the faction's units were this month) that are not
/// among `present` (where they are now), in report order (RPT-LOC).
fn passed_records(
    world: &World,
    days: &BTreeMap<Entity, Vec<(u32, u32)>>,
    present: &[LocationRecord],
) -> Vec<PassedRecord> {
    let here: std::collections::HashSet<&str> = present.iter().map(|l| l.id.as_str()).collect();
    let catalog = world.resource::<Catalog>();
    let mut out: Vec<(u32, PassedRecord)> = days
        .iter()
        .filter_map(|(&le, d)| {
            let id = id_of(world, le);
            if here.contains(id.as_str()) {
                return None;
            }
            let r = world.entity(le);
            let name_of = |e: Entity| world.get::<DisplayName>(e).map(|n| n.0.clone()).unwrap_or_default();
            let mut exits: Vec<PassedExit> = Vec::new();
            for x in r.get::<Exits>().map_or(&[][..], |x| &x.0[..]) {
                let dir = catalog.rules.movement.directions[x.dir].tag.clone();
                let to = id_of(world, x.to);
                if !exits.iter().any(|e| e.dir == dir && e.to == to) {
                    exits.push(PassedExit { dir, to, to_name: name_of(x.to) });
                }
            }
            let rec = PassedRecord {
                name: name_of(le),
                terrain: r.get::<Terrain>().map(|t| catalog.terrain_tag(t.0).to_string()).unwrap_or_default(),
                container: r.get::<Within>().and_then(|w| w.container).map(|c| id_of(world, c)),
                days: d.iter().map(|&(a, b)| [a, b]).collect(),
                exits,
                id,
            };
            Some((r.get::<Seq>().map_or(u32::MAX, |s| s.0), rec))
        })
        .collect();
    out.sort_by_key(|x| x.0);
    out.into_iter().map(|x| x.1).collect()
}

/// RPT-KNOW, FAC-RESHOW: what the faction learnt this month, then what it asked to
/// see again; items, skills, races, structures, enchantments.
fn knowledge(catalog: &Catalog, texts: &super::describe::Texts, learnt: Option<&Learnt>) -> Vec<KnowledgeRecord> {
    let Some(l) = learnt else { return Vec::new() };
    let rank = |x: &Lesson| match x {
        Lesson::Topic(Topic::Item(i)) => (0, i.index(), 0),
        Lesson::Skill(s, from, _) => (1, s.index(), *from as usize),
        Lesson::Topic(Topic::Race(r)) => (2, r.index(), 0),
        Lesson::Topic(Topic::Construction(k)) => (3, *k as usize, 0),
        Lesson::Topic(Topic::Enchantment(e)) => (4, e.index(), 0),
    };
    let mut out = Vec::new();
    for (list, again) in [(&l.new, false), (&l.again, true)] {
        let mut list = list.clone();
        list.sort_by_key(rank);
        for x in list {
            out.extend(super::describe::lesson(catalog, texts, x, again));
        }
    }
    out
}

/// The battles faction `f` saw, each cut to what it may read (CMB-REPORT, SET-TERSE).
fn battles_seen(world: &World, idx: &Index, f: Entity, id: &str) -> Vec<BattleRecord> {
    let Some(list) = idx.battles.get(&f) else { return Vec::new() };
    let all = &world.resource::<Battles>().0;
    let terse = world.get::<FactionSettings>(f).is_some_and(|s| s.0.terse);
    list.iter()
        .filter_map(|&k| {
            let r = &all[k];
            let alive = r.sides.iter().flat_map(|s| &s.units).any(|u| u.faction == id && u.survivors > 0);
            r.seen_by(f, id, terse, alive)
        })
        .collect()
}

fn structure_record(world: &World, catalog: &Catalog, s: Entity) -> StructureRecord {
    let r = world.entity(s);
    let name = r.get::<DisplayName>().map(|n| n.0.clone()).filter(|n| !n.is_empty());
    let kind = r.get::<StructureKind>().map(|k| &catalog.rules.constructions.constructions[k.0]);
    let works = &catalog.rules.constructions.works;
    StructureRecord {
        id: id_of(world, s),
        name: name.or_else(|| kind.map(|k| k.name.clone())).unwrap_or_default(),
        kind: kind.map(|k| k.tag.clone()).unwrap_or_default(),
        location: r.get::<StructureAt>().map(|a| id_of(world, a.0)).unwrap_or_default(),
        owner: r.get::<StructureOwner>().and_then(|o| o.0).map(|f| id_of(world, f)),
        vessel: kind.is_some_and(|k| !k.capacity.is_empty()),
        missing: r
            .get::<Missing>()
            .map_or(Default::default(), |m| m.0.iter().map(|&(w, n)| (works[w].tag.clone(), n)).collect()),
        enchantments: enchantments(catalog, r.get::<Effects>()),
        contents: Vec::new(),
        load: None,
        capacity: TagMap::new(),
    }
}

/// A pending order as the report and the template write it. One that cannot be
/// read (a game master's edit of the state) is written as a comment with its
/// reason: the list drops it on the month's first day (PFX-REMOVE), and a
/// template sent back as it is checks clean.
fn pending(catalog: &Catalog, entry: &Entry) -> String {
    match &entry.order {
        Order::Unreadable { reason, .. } => {
            format!("# {}  -- cannot be read: {reason}", entry.written(catalog)).replace('\n', " ")
        }
        _ => entry.written(catalog).to_string(),
    }
}

/// One of the faction's own structures (RPT-STRUCT): as any, with the units
/// inside it sees (at `locations`, its report's places), and for a vessel the
/// load aboard (`inside`: every unit in it) and its capacity.
fn own_structure_record(
    world: &World,
    catalog: &Catalog,
    s: Entity,
    inside: &[Entity],
    locations: &[LocationRecord],
) -> StructureRecord {
    let mut rec = structure_record(world, catalog, s);
    rec.contents = locations
        .iter()
        .filter(|l| l.id == rec.location)
        .flat_map(|l| &l.units)
        .filter(|u| u.structure.as_deref() == Some(rec.id.as_str()))
        .map(|u| u.id.clone())
        .collect();
    let kind = world.get::<StructureKind>(s).map(|k| &catalog.rules.constructions.constructions[k.0]);
    if let Some(k) = kind.filter(|k| !k.capacity.is_empty()) {
        rec.load = Some(inside.iter().map(|&u| world.get::<UnitStats>(u).map_or(0, |x| x.weight())).sum());
        rec.capacity = k.capacity.iter().map(|(m, &c)| (m.clone(), u64::try_from(c).unwrap_or(0))).collect();
    }
    rec
}

/// The enchantments of a unit, place or structure a report shows, by tag: the days
/// left; those the rule set marks `hidden` are left out (ITM-ENCH).
fn enchantments(catalog: &Catalog, fx: Option<&Effects>) -> TagMap<u32> {
    fx.map(|fx| {
        fx.0.iter().filter(|&&(e, _)| catalog.effect_shown(e)).map(|&(e, d)| (catalog.effect_tag(e), d)).collect()
    })
    .unwrap_or_default()
}

/// The unit of sheet `u` as `observer`'s units see it, at the month's end.
fn seen_unit(world: &World, catalog: &Catalog, observer: Entity, u: &Sheet<'_>, sight: Sight) -> SeenUnit {
    let own = u.owner == Some(observer);
    // GRD-SHOW: a unit on guard on the month's last day shows its faction and its
    // faction's stance toward the observer.
    let guard_stance = u.owner.filter(|_| u.guarding && !own).map(|f| {
        let stance = crate::systems::overlord::mechanics::diplomacy::stance_of(world, f, observer);
        stance.map_or(String::new(), |s| catalog.stances.tag(s).to_string())
    });
    SeenUnit {
        id: u.id.to_string(),
        name: u.name.to_string(),
        faction: u.owner.filter(|_| own || sight == Sight::Known).map(|f| id_of(world, f)),
        race: u.race.into(),
        figures: u.figures,
        structure: u.structure.map(str::to_string),
        stack_leader: u.stack_leader.map(str::to_string),
        own,
        moving: u.moving,
        guard_stance,
        items: if own {
            TagMap::new()
        } else {
            u.items
                .iter()
                .filter(|h| h.count > 0 && catalog.rules.items[h.item.index()].weight > 0)
                .map(|h| (catalog.item_tag(h.item), h.count))
                .collect()
        },
    }
}

fn departed_record(
    world: &World,
    catalog: &Catalog,
    d: &crate::systems::overlord::world::resources::Departed,
) -> DepartedRecord {
    DepartedRecord {
        id: d.id.clone(),
        name: d.name.clone(),
        race: catalog.race_tag(d.race).to_string(),
        figures: d.figures,
        location: d.location.filter(|&l| world.get_entity(l).is_ok()).map(|l| id_of(world, l)),
        day: d.day,
        items: d
            .items
            .iter()
            .map(|h| (catalog.item_tag(h.item), ItemRecord { count: h.count, equipped: h.equipped }))
            .collect(),
        skills: d
            .skills
            .iter()
            .map(|&(s, x)| {
                let rec = SkillRecord { days: catalog.experience_days(x), level: catalog.skill_level(s, x) };
                (catalog.skill_tag(s), rec)
            })
            .collect(),
        events: d.events.iter().map(|x| EventRecord { day: x.day, text: x.text.to_string() }).collect(),
    }
}

fn stats_record(s: &crate::systems::overlord::data::Stats) -> StatsRecord {
    StatsRecord {
        initiative: s.initiative,
        melee: s.melee,
        defense: s.defense,
        missile: s.missile,
        damage: s.damage,
        ranged_damage: s.ranged_damage,
        life: s.life,
        hits: s.hits,
        stealth: s.stealth,
        observation: s.observation,
        mana: s.mana,
        control: s.control,
        upkeep: s.upkeep,
    }
}

/// A market's goods still on offer this month, as a report lists them.
fn goods(catalog: &Catalog, goods: &[Good]) -> Vec<OfferRecord> {
    goods.iter().filter(|g| g.left() > 0).map(|g| item_record(catalog, g.item, g.left(), Some(g.price))).collect()
}

fn item_record(catalog: &Catalog, item: ItemId, n: u32, price: Option<u32>) -> OfferRecord {
    OfferRecord {
        tag: catalog.item_tag(item).into(),
        name: catalog.item_name_for(item, u64::from(n)).into(),
        count: n,
        price,
    }
}
