//! The location graph: every exit of every location, as a petgraph directed graph
//! built once a month from the locations' exits. It answers which exit leads where
//! (MOV-DEST), each leg's travel description for [`super::travel`], and distances
//! in walking days along the cheapest path (rulings 5, for title ranges).

use super::travel::{Coast, Leg, TravelTables};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{Exits, Terrain, Weather, Within};
use crate::systems::overlord::world::resources::Directory;
use bevy_ecs::entity::EntityHashMap;
use bevy_ecs::prelude::*;
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

/// A location as the graph knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Place {
    /// The location's entity.
    pub entity: Entity,
    /// Its terrain.
    pub terrain: crate::systems::overlord::world::ids::TerrainId,
    /// Whether it is an inner location.
    pub inner: bool,
    /// Its weather this month (index in the rule set's weathers).
    pub weather: Option<usize>,
    /// Whether its terrain is water.
    pub water: bool,
}

/// An exit, as the graph knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Way {
    /// Direction: index in the rule set's directions.
    pub dir: usize,
    /// The only mode the exit allows, if it names one.
    pub mode: Option<usize>,
    /// The exit's own travel days, if it names them.
    pub days: Option<u32>,
    /// How the exit touches water, for sailing (MOV-SAIL).
    pub coast: Coast,
}

/// The location graph of the month.
#[derive(Resource, Debug, Default)]
pub struct Routes {
    graph: DiGraph<Place, Way>,
    node: EntityHashMap<NodeIndex>,
    /// The season of the month the graph is built for.
    season: Option<usize>,
    /// Per node: the bodies of water (connected water locations, numbered by their
    /// first location) it is part of or on the shore of, ascending.
    shores: Vec<Vec<u32>>,
}

impl Routes {
    /// Builds the graph from the locations' exits ([`Exits`]), locations in report
    /// order and exits in data order, with each location's weather this month.
    pub fn build(world: &World) -> Self {
        let catalog = world.resource::<Catalog>();
        let dir = world.resource::<Directory>();
        let season = world
            .get_resource::<crate::systems::overlord::world::resources::Month>()
            .and_then(|m| catalog.season_index(m.0));
        // Sized at once: a big world's graph has hundreds of thousands of edges.
        let ways: usize = dir.locations.iter().filter_map(|&e| world.get::<Exits>(e)).map(|x| x.0.len()).sum();
        let mut r = Routes {
            season,
            graph: DiGraph::with_capacity(dir.locations.len(), ways),
            node: EntityHashMap::with_capacity(dir.locations.len()),
            ..Default::default()
        };
        let mut nodes = Vec::with_capacity(dir.locations.len());
        for &e in &dir.locations {
            let Some(t) = world.get::<Terrain>(e) else { continue };
            let weather = world.get::<Weather>(e).and_then(|w| w.0);
            let water = catalog.rules.terrains[t.0.index()].water;
            let inner = world.get::<Within>(e).is_some_and(|w| w.inner);
            let n = r.graph.add_node(Place { entity: e, terrain: t.0, inner, weather, water });
            r.node.insert(e, n);
            nodes.push((e, n));
        }
        let mut edges = Vec::with_capacity(ways);
        for &(e, from) in &nodes {
            let Some(exits) = world.get::<Exits>(e) else { continue };
            for x in &exits.0 {
                let Some(&to) = r.node.get(&x.to) else { continue };
                edges.push((from, to, Way { dir: x.dir, mode: x.mode, days: x.days, coast: Coast::Open }));
            }
        }
        // Bodies of water: water locations joined by exits.
        let mut bodies = petgraph::unionfind::UnionFind::<usize>::new(r.graph.node_count());
        for (a, b, _) in &edges {
            if r.graph[*a].water && r.graph[*b].water {
                bodies.union(a.index(), b.index());
            }
        }
        r.shores = vec![Vec::new(); r.graph.node_count()];
        for (a, b, _) in &edges {
            for (x, y) in [(a, b), (b, a)] {
                if r.graph[*y].water {
                    let body = bodies.find(y.index()) as u32;
                    let list = &mut r.shores[x.index()];
                    if let Err(i) = list.binary_search(&body) {
                        list.insert(i, body);
                    }
                }
            }
        }
        for (a, b, mut way) in edges {
            way.coast = r.coast_of(a, b);
            r.graph.add_edge(a, b, way);
        }
        r
    }

    /// How a leg from node `a` to node `b` touches water (MOV-SAIL).
    fn coast_of(&self, a: NodeIndex, b: NodeIndex) -> Coast {
        let (from, to) = (&self.graph[a], &self.graph[b]);
        match (from.water, to.water) {
            (true, false) => Coast::Landing(from.terrain),
            (false, false) => {
                let (x, y) = (&self.shores[a.index()], &self.shores[b.index()]);
                if x.iter().any(|body| y.binary_search(body).is_ok()) { Coast::Along } else { Coast::Open }
            }
            _ => Coast::Open,
        }
    }

    /// How a leg from location `from` to location `to` touches water.
    pub fn coast(&self, from: Entity, to: Entity) -> Coast {
        match (self.node.get(&from), self.node.get(&to)) {
            (Some(&a), Some(&b)) => self.coast_of(a, b),
            _ => Coast::Open,
        }
    }

    /// The exits of `from`, in data order: direction, destination and way.
    pub fn exits(&self, from: Entity) -> Vec<(&Way, &Place)> {
        let Some(&n) = self.node.get(&from) else { return Vec::new() };
        // petgraph lists a node's edges newest first.
        let mut v: Vec<_> = self.graph.edges(n).map(|e| (e.id(), e.weight(), &self.graph[e.target()])).collect();
        v.sort_by_key(|x| x.0);
        v.into_iter().map(|(_, w, p)| (w, p)).collect()
    }

    /// The place `e`, if it is a location.
    pub fn place(&self, e: Entity) -> Option<&Place> {
        self.node.get(&e).map(|&n| &self.graph[n])
    }

    /// The legs from `from` to `to` (several when different modes have their own
    /// exits), or those in direction `dir` (matched without case): each with its
    /// destination and direction index.
    pub fn legs(&self, catalog: &Catalog, from: Entity, toward: Toward) -> Vec<(Leg, Entity, usize)> {
        let directions = &catalog.rules.movement.directions;
        let inner_here = self.place(from).is_some_and(|p| p.inner);
        self.exits(from)
            .into_iter()
            .filter(|(w, p)| match toward {
                Toward::Direction(d) => directions[w.dir].tag.eq_ignore_ascii_case(d),
                Toward::Location(e) => p.entity == e,
            })
            .map(|(w, p)| {
                let leg = Leg {
                    terrain: p.terrain,
                    weather: p.weather,
                    mode: w.mode,
                    days: w.days,
                    inner: inner_here || p.inner,
                    coast: w.coast,
                    season: self.season,
                };
                (leg, p.entity, w.dir)
            })
            .collect()
    }

    /// Walking days from `from` to `to` along the cheapest path, with no weather
    /// (rulings 5); `None` when walking cannot get there.
    pub fn walking_days(&self, catalog: &Catalog, tables: &TravelTables, from: Entity, to: Entity) -> Option<u32> {
        let (&a, &b) = (self.node.get(&from)?, self.node.get(&to)?);
        let d = petgraph::algo::dijkstra(&self.graph, a, Some(b), |e| self.walk_cost(catalog, tables, e));
        d.get(&b).copied().filter(|&x| x < u64::from(u32::MAX)).map(|x| x as u32)
    }

    /// Every location within `max` walking days of `from` (rulings 5), with its
    /// days, `from` first, then by days and report order. A search bounded by `max`:
    /// it never looks past the range.
    pub fn within(&self, catalog: &Catalog, tables: &TravelTables, from: Entity, max: u32) -> Vec<(Entity, u32)> {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let Some(&a) = self.node.get(&from) else { return Vec::new() };
        let mut best: std::collections::HashMap<NodeIndex, u64> = std::collections::HashMap::new();
        let mut heap = BinaryHeap::new();
        best.insert(a, 0);
        heap.push(Reverse((0u64, a.index())));
        let mut out = Vec::new();
        while let Some(Reverse((d, n))) = heap.pop() {
            let n = NodeIndex::new(n);
            if best.get(&n).is_some_and(|&b| b < d) {
                continue;
            }
            out.push((self.graph[n].entity, d as u32, n.index()));
            for e in self.graph.edges(n) {
                let nd = d + self.walk_cost(catalog, tables, e);
                if nd > u64::from(max) {
                    continue;
                }
                if best.get(&e.target()).is_none_or(|&b| nd < b) {
                    best.insert(e.target(), nd);
                    heap.push(Reverse((nd, e.target().index())));
                }
            }
        }
        out.sort_unstable_by_key(|&(_, d, n)| (d, n));
        out.dedup_by_key(|x| x.2);
        out.into_iter().map(|(e, d, _)| (e, d)).collect()
    }

    /// Days of walking an exit, with no weather; legs walkers cannot take cost more
    /// than any path can.
    fn walk_cost(&self, catalog: &Catalog, tables: &TravelTables, e: petgraph::graph::EdgeReference<Way>) -> u64 {
        let (s, t) = (&self.graph[e.source()], &self.graph[e.target()]);
        let w = e.weight();
        let leg = Leg {
            terrain: t.terrain,
            weather: None,
            mode: w.mode,
            days: w.days,
            inner: s.inner || t.inner,
            coast: w.coast,
            season: None,
        };
        tables.days(catalog, &leg).first().copied().flatten().map_or(u64::from(u32::MAX), u64::from)
    }
}

/// Where a move goes: an exit direction or a neighbouring location.
#[derive(Debug, Clone, Copy)]
pub enum Toward<'a> {
    /// A direction tag.
    Direction(&'a str),
    /// A location.
    Location(Entity),
}

/// The exits of location `l`, each with its direction tag, destination and days
/// per mode under the destination's current weather: what a report lists for the
/// coming month (MOV-RATE, CLI-REPORT).
pub fn exits_now(world: &World, l: Entity) -> Vec<(String, Entity, Vec<Option<u32>>)> {
    let catalog = world.resource::<Catalog>();
    let directions = &catalog.rules.movement.directions;
    let mut out = Vec::new();
    legs_now(world, l, |dir, to, tables, leg| out.push((directions[dir].tag.clone(), to, tables.days(catalog, leg))));
    out
}

/// The exits of location `l` with the fewest days any mode takes each way under
/// the destination's current weather ([`exits_now`] without the list by mode).
pub fn least_days_now(world: &World, l: Entity) -> Vec<(Entity, Option<u32>)> {
    let catalog = world.resource::<Catalog>();
    let mut out = Vec::new();
    legs_now(world, l, |_, to, tables, leg| out.push((to, tables.least_days(catalog, leg))));
    out
}

/// Calls `each(direction, destination, tables, leg)` for each exit of `l`, in data
/// order, with the leg as it is travelled in the coming month.
fn legs_now(world: &World, l: Entity, mut each: impl FnMut(usize, Entity, &super::travel::TravelTables, &Leg)) {
    let catalog = world.resource::<Catalog>();
    let Some(tables) = world.get_resource::<super::Travel>() else { return };
    let Some(exits) = world.get::<Exits>(l) else { return };
    let routes = world.get_resource::<Routes>();
    // The coming month's season: the report lists travel for the month ahead.
    let months = catalog.rules.climate.months.len().max(1) as u32;
    let season = world
        .get_resource::<crate::systems::overlord::world::resources::Month>()
        .and_then(|m| catalog.season_index((m.0 + 1) % months));
    let inner = |e: Entity| world.get::<Within>(e).is_some_and(|w| w.inner);
    let here_inner = inner(l);
    for x in &exits.0 {
        let Some(terrain) = world.get::<Terrain>(x.to) else { continue };
        let leg = Leg {
            terrain: terrain.0,
            weather: world.get::<Weather>(x.to).and_then(|w| w.0),
            mode: x.mode,
            days: x.days,
            inner: here_inner || inner(x.to),
            coast: routes.map_or(Coast::Open, |r| r.coast(l, x.to)),
            season,
        };
        each(x.dir, x.to, &tables.0, &leg);
    }
}

/// Month start: the month's graph (weather may have changed).
pub fn build_routes(world: &mut World) {
    let routes = Routes::build(world);
    world.insert_resource(routes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::engine::{Engine, Threads};
    use crate::systems::overlord::Overlord;
    use crate::systems::overlord::testkit::{alpha, overlord_rules};
    use crate::systems::overlord::world::resources::Kind;

    #[test]
    fn the_graph_holds_every_exit_in_data_order_and_finds_walking_distances() {
        let e = Engine::<Overlord>::new(overlord_rules(), alpha(), Threads::One).unwrap();
        let w = e.world();
        let r = Routes::build(w);
        let dir = w.resource::<Directory>();
        let l = |id: &str| dir.get(Kind::Location, id).unwrap();
        let catalog = w.resource::<Catalog>();
        let tag = |d: usize| catalog.rules.movement.directions[d].tag.as_str();
        let dirs: Vec<&str> = r.exits(l("L2")).iter().map(|(w, _)| tag(w.dir)).collect();
        assert_eq!(dirs, ["N", "S", "NE", "SE", "NW", "SW", "IN"], "L2's exits as the data lists them");
        let tables = TravelTables::new(catalog);
        // L1 (Itora, a city inside L2) → L2: one day out; L2 → L3 (plains): 9 days.
        assert_eq!(r.walking_days(catalog, &tables, l("L1"), l("L2")), Some(1));
        assert_eq!(r.walking_days(catalog, &tables, l("L2"), l("L3")), Some(9));
        assert_eq!(r.walking_days(catalog, &tables, l("L1"), l("L3")), Some(10), "out of the city, then north");
        assert_eq!(r.walking_days(catalog, &tables, l("L1"), l("L1")), Some(0));
        let legs = r.legs(catalog, l("L1"), Toward::Direction("out"));
        assert_eq!(legs.len(), 2, "Itora has a walking and a flying exit out");
        assert!(legs.iter().all(|(leg, to, _)| *to == l("L2") && leg.days == Some(1) && leg.inner));
    }
}

#[cfg(test)]
mod sailing_tests {
    use super::*;
    use crate::core::engine::{Engine, Threads};
    use crate::systems::overlord::Overlord;
    use crate::systems::overlord::testkit::{overlord_rules, scenario};
    use crate::systems::overlord::world::resources::Kind;

    /// TV-MOVE's coast: L216 (mountains) and L214 (9 days' walk: plains here) both on
    /// the shore of the lake L774, and L212 (hills) inland behind L214. (In the alpha
    /// map L214 is hills, 13 days' walk, with no water next to it, so the rules'
    /// example cannot be replayed there.)
    const COAST: &str = r#"(
      game: (name: "coast", ruleset: "overlord", seed: 1, days_per_month: 30, start_month: 0),
      factions: [(id: "fa", name: "A", password: "p", default_stance: "neutral")],
      locations: [
        (id: "L216", terrain: "moun", exits: [(dir: "NW", to: "L214"), (dir: "NE", to: "L774")]),
        (id: "L214", terrain: "plai", exits: [(dir: "SE", to: "L216"), (dir: "E", to: "L774"), (dir: "S", to: "L212")]),
        (id: "L774", terrain: "lake", exits: [(dir: "SW", to: "L216"), (dir: "W", to: "L214")]),
        (id: "L212", terrain: "hill", exits: [(dir: "N", to: "L214")]),
      ],
      structures: [],
      units: [],
    )"#;

    #[test]
    fn ships_sail_along_the_coast_at_twice_walking_time_land_from_water_and_not_inland_tv_move_mov_sail() {
        let e = Engine::<Overlord>::new(overlord_rules(), scenario(COAST), Threads::One).unwrap();
        let w = e.world();
        let r = Routes::build(w);
        let dir = w.resource::<Directory>();
        let l = |id: &str| dir.get(Kind::Location, id).unwrap();
        let catalog = w.resource::<Catalog>();
        let tables = TravelTables::new(catalog);
        let swim = catalog.rules.movement.modes.iter().position(|m| m.system.sails).unwrap();
        let walk = 0;
        let days = |from: &str, to: &str| {
            let legs = r.legs(catalog, l(from), Toward::Location(l(to)));
            tables.days(catalog, &legs[0].0)
        };
        let d = days("L216", "L214");
        assert_eq!((d[walk], d[swim]), (Some(9), Some(18)), "TV-MOVE: 9 days' walk, 18 along the coast");
        // Out onto the lake by the lake's days; back onto the shore by the same.
        let lake = catalog.rules.terrains.iter().find(|t| t.tag == "lake").unwrap().travel_days["swim"] as u32;
        assert_eq!(days("L214", "L774")[swim], Some(lake));
        assert_eq!(days("L774", "L216")[swim], Some(lake), "landing takes the days of the water left");
        assert_eq!(days("L774", "L216")[walk], None);
        // L212 is on no shore: ships cannot go there.
        assert_eq!(days("L214", "L212")[swim], None);
        assert_eq!(r.coast(l("L214"), l("L212")), Coast::Open);
    }
}
