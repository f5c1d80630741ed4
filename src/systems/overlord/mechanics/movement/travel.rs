//! Travel times (MOV-RATE, MOV-MIN, MOV-RIDE, MOV-FLY, MOV-MODE, MOV-OVER, MOV-WX,
//! LOC-INNER): how long one leg takes for a stack of a given weight and capacities.
//!
//! Every number comes from the rule set: the terrain's days per movement mode, the
//! `derived_travel` rule for modes a terrain gives no days for (riding: walking
//! time minus a third, rounded down), the weather's fixed days and percentages, and
//! the overload parameters. The leg's time is that of its **destination**: its
//! terrain and its weather this month. An exit that names its days (inner locations,
//! special passages) takes those days, whatever the weather; an exit that names a
//! mode allows only that mode.
//!
//! The stack travels by the fastest mode whose capacity covers its whole weight
//! (ties: the mode listed first). When none does, it walks overloaded:
//! `days × (1 + factor × overload)`, rounded up, where overload is the weight over
//! the walking capacity as a fraction of it; it cannot move at all at
//! `overload_limit_percent` of its walking capacity or when the journey would take
//! more than `max_travel_days` (rulings 2). Every leg takes at least one day.
//!
//! Sailing modes (`sails`, MOV-SAIL) cross water by the water terrain's days. They
//! also land: from water into a land on its shore takes the days of the water left.
//! Between two lands on the shore of the same body of water they sail along the
//! coast, taking `coastal_sailing` (200% of walking) of the destination's days.
//! Elsewhere on land they cannot go.
//!
//! The season's `bonuses.movement` is a change in % to the speed of a mode: +25
//! makes a 10-day leg take 8 days (10 × 100 / 125, rounded up); −50 doubles it. (A
//! weather's own `bonuses.movement`, the legacy MOVE_BONUS, is not read: a weather's
//! effect on travel is its `travel_days` and `travel_percent`, rulings 4.)

use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::ids::TerrainId;

/// The travel numbers of the rule set, resolved to indices once.
#[derive(Debug, Clone)]
pub struct TravelTables {
    /// Number of movement modes.
    pub modes: usize,
    /// `[terrain][mode]`: days to enter a location of the terrain.
    terrain_days: Vec<Vec<Option<u32>>>,
    /// `[weather][mode]`: fixed days replacing the terrain's.
    weather_days: Vec<Vec<Option<u32>>>,
    /// `[weather][mode]`: change in % to the terrain's days.
    weather_percent: Vec<Vec<i64>>,
    /// `[mode]`: whether the mode sails (MOV-SAIL).
    sails: Vec<bool>,
    /// Coastal sailing: the mode whose days it takes, and the percentage.
    coastal: Option<(usize, u32)>,
    /// `[season][mode]`: change in % to the speed.
    season_speed: Vec<Vec<i64>>,
}

/// How a leg touches water, for the sailing modes (MOV-SAIL).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Coast {
    /// Neither a landing nor a coast: sailing goes only where the terrain has days
    /// for it (water).
    #[default]
    Open,
    /// From water onto a land on its shore; the water left has this terrain.
    Landing(TerrainId),
    /// Between two lands on the shore of the same body of water.
    Along,
}

/// One leg of a journey, as the map describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leg {
    /// The destination's terrain.
    pub terrain: TerrainId,
    /// The destination's weather this month (index in the rule set's weathers).
    pub weather: Option<usize>,
    /// The only mode the exit allows, if it names one.
    pub mode: Option<usize>,
    /// The exit's own travel days, if it names them.
    pub days: Option<u32>,
    /// Whether the leg goes into or out of an inner location.
    pub inner: bool,
    /// How the leg touches water.
    pub coast: Coast,
    /// The season of the month travelled (index in the rule set's seasons).
    pub season: Option<usize>,
}

/// What the stack carries and can carry.
#[derive(Debug, Clone, Copy)]
pub struct Load<'a> {
    /// The stack's total weight, in thousandths.
    pub weight_milli: u64,
    /// The stack's capacity per mode.
    pub capacity: &'a [u64],
}

/// The outcome of planning a leg.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trip {
    /// The stack goes by `mode` in `days` days; `overloaded` when it walks slowed.
    Go { mode: usize, days: u32, overloaded: bool },
    /// No mode can enter the destination this way.
    Impassable,
    /// The stack is too heavy to move at all.
    Overloaded,
    /// The journey would take this many days, more than the limit.
    TooLong(u32),
}

impl TravelTables {
    /// Resolves the travel numbers of the rule set.
    pub fn new(catalog: &Catalog) -> Self {
        let r = &catalog.rules;
        let modes: Vec<&str> = r.movement.modes.iter().map(|m| m.tag.as_str()).collect();
        let mode = |t: &str| modes.iter().position(|m| *m == t);
        let derived: Vec<Option<(usize, u32)>> = modes
            .iter()
            .map(|m| {
                r.info
                    .parameters
                    .derived_travel
                    .iter()
                    .find(|d| d.0 == *m)
                    .and_then(|d| Some((mode(&d.1)?, d.2.max(1))))
            })
            .collect();
        let terrain_days = r
            .terrains
            .iter()
            .map(|t| {
                let own: Vec<Option<u32>> =
                    modes.iter().map(|m| t.travel_days.get(*m).and_then(|&d| u32::try_from(d).ok())).collect();
                own.iter()
                    .enumerate()
                    .map(|(i, d)| d.or_else(|| derived[i].and_then(|(from, n)| own[from].map(|x| x - x / n))))
                    .collect()
            })
            .collect();
        let weather_days = r
            .climate
            .weathers
            .iter()
            .map(|w| modes.iter().map(|m| w.travel_days.get(*m).and_then(|&d| u32::try_from(d).ok())).collect())
            .collect();
        let weather_percent = r
            .climate
            .weathers
            .iter()
            .map(|w| modes.iter().map(|m| w.travel_percent.get(*m).map_or(0, |&p| i64::from(p))).collect())
            .collect();
        let sails = r.movement.modes.iter().map(|m| m.system.sails).collect();
        let coastal = r.info.parameters.coastal_sailing.as_ref().and_then(|(m, pct)| Some((mode(m)?, *pct)));
        let season_speed = r
            .climate
            .seasons
            .iter()
            .map(|x| modes.iter().map(|m| x.system.bonuses.movement.get(*m).map_or(0, |&p| i64::from(p))).collect())
            .collect();
        TravelTables { modes: modes.len(), terrain_days, weather_days, weather_percent, sails, coastal, season_speed }
    }

    /// Days per mode for `leg` (`None`: the mode cannot go that way), as the report
    /// lists them for the coming month.
    pub fn days(&self, catalog: &Catalog, leg: &Leg) -> Vec<Option<u32>> {
        (0..self.modes).map(|m| self.mode_days(catalog, leg, m)).collect()
    }

    /// The fewest days any mode takes for `leg`, if one can go that way.
    pub fn least_days(&self, catalog: &Catalog, leg: &Leg) -> Option<u32> {
        (0..self.modes).filter_map(|m| self.mode_days(catalog, leg, m)).min()
    }

    /// Days for `leg` by mode `m` (`None`: the mode cannot go that way).
    fn mode_days(&self, catalog: &Catalog, leg: &Leg, m: usize) -> Option<u32> {
        let p = &catalog.rules.info.parameters;
        {
            {
                if leg.mode.is_some_and(|only| only != m) {
                    return None;
                }
                let terrain = self.terrain_days[leg.terrain.index()][m];
                let terrain = match (self.sails[m], leg.coast) {
                    (true, Coast::Landing(water)) => self.terrain_days[water.index()][m],
                    (true, Coast::Along) => self.coastal.and_then(|(from, pct)| {
                        self.terrain_days[leg.terrain.index()][from].map(|d| (d * pct).div_ceil(100))
                    }),
                    _ => terrain,
                };
                let days = if let Some(d) = leg.days {
                    d
                } else if leg.inner {
                    p.inner_travel_days
                } else {
                    let d = terrain?;
                    let d = match leg.weather {
                        Some(w) => match self.weather_days[w][m] {
                            Some(fixed) => fixed,
                            None => {
                                let pct = (100 + self.weather_percent[w][m]).max(0);
                                ((i64::from(d) * pct + 99) / 100).clamp(0, i64::from(u32::MAX)) as u32
                            }
                        },
                        None => d,
                    };
                    match leg.season.map_or(0, |x| self.season_speed[x][m]) {
                        0 => d,
                        bonus => {
                            let speed = (100 + bonus).max(1);
                            ((i64::from(d) * 100 + speed - 1) / speed).clamp(0, i64::from(u32::MAX)) as u32
                        }
                    }
                };
                Some(days.max(1))
            }
        }
    }

    /// Plans `leg` for a stack carrying `load` (MOV-MODE, MOV-OVER).
    pub fn trip(&self, catalog: &Catalog, leg: &Leg, load: Load) -> Trip {
        let p = &catalog.rules.info.parameters;
        let days = self.days(catalog, leg);
        let cap = |m: usize| load.capacity.get(m).copied().unwrap_or(0).saturating_mul(1000);
        let best = (0..self.modes)
            .filter_map(|m| days[m].map(|d| (d, m)))
            .filter(|&(_, m)| cap(m) >= load.weight_milli && cap(m) > 0)
            .min();
        // No journey longer than the limit (rulings 2).
        let go = |mode: usize, days: u32, overloaded: bool| {
            if days > p.max_travel_days { Trip::TooLong(days) } else { Trip::Go { mode, days, overloaded } }
        };
        if let Some((d, mode)) = best {
            return go(mode, d, false);
        }
        if days.iter().all(Option::is_none) {
            return Trip::Impassable;
        }
        // Walking overloaded (the first mode is walking). Where one cannot walk, the
        // stack is too heavy for the modes that go there, or has none of them.
        let (Some(walk), walk_cap) = (days.first().copied().flatten(), cap(0)) else {
            let some_capacity = (0..self.modes).any(|m| days[m].is_some() && cap(m) > 0);
            return if some_capacity { Trip::Overloaded } else { Trip::Impassable };
        };
        let w = u128::from(load.weight_milli);
        let c = u128::from(walk_cap);
        if c == 0 || w * 100 >= c * u128::from(p.overload_limit_percent) {
            return Trip::Overloaded;
        }
        let slowed = (u128::from(walk) * (c + u128::from(p.overload_time_factor) * (w - c))).div_ceil(c);
        let slowed = slowed.min(u128::from(u32::MAX)) as u32;
        go(0, slowed, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::overlord::testkit::overlord_rules;

    fn setup() -> (Catalog, TravelTables) {
        let c = Catalog::new(overlord_rules());
        let t = TravelTables::new(&c);
        (c, t)
    }

    fn mode(c: &Catalog, tag: &str) -> usize {
        c.rules.movement.modes.iter().position(|m| m.tag == tag).unwrap()
    }

    fn weather(c: &Catalog, tag: &str) -> Option<usize> {
        c.rules.climate.weathers.iter().position(|w| w.tag == tag)
    }

    fn leg(c: &Catalog, terrain: &str, wx: Option<&str>) -> Leg {
        Leg {
            terrain: c.terrain(terrain).unwrap(),
            weather: wx.and_then(|w| weather(c, w)),
            mode: None,
            days: None,
            inner: false,
            coast: Coast::Open,
            season: None,
        }
    }

    /// Capacities by mode tag, the rest 0.
    fn caps(c: &Catalog, list: &[(&str, u64)]) -> Vec<u64> {
        let mut v = vec![0; c.rules.movement.modes.len()];
        for (m, n) in list {
            v[mode(c, m)] = *n;
        }
        v
    }

    #[test]
    fn riding_is_walking_time_less_a_third_where_the_data_gives_none_mov_ride_tv_move() {
        let (c, t) = setup();
        let (walk, ride) = (mode(&c, "walk"), mode(&c, "ride"));
        let plains = t.days(&c, &leg(&c, "plai", None));
        assert_eq!((plains[walk], plains[ride]), (Some(9), Some(6)), "TV-MOVE: plains walk 9, ride 6");
        // Forest gives walking days only: riding is derived.
        let forest = t.days(&c, &leg(&c, "fore", None));
        assert_eq!((forest[walk], forest[ride]), (Some(15), Some(10)));
        let mountains = t.days(&c, &leg(&c, "moun", None));
        assert_eq!((mountains[walk], mountains[ride]), (None, None), "no walking days, nothing to derive");
    }

    #[test]
    fn the_fastest_mode_whose_capacity_covers_the_weight_is_used_mov_mode() {
        let (c, t) = setup();
        let (walk, ride, fly) = (mode(&c, "walk"), mode(&c, "ride"), mode(&c, "fly"));
        let l = leg(&c, "plai", None);
        let both = caps(&c, &[("walk", 600), ("ride", 500), ("fly", 400)]);
        let go = |kg: u64, cap: &[u64]| t.trip(&c, &l, Load { weight_milli: kg * 1000, capacity: cap });
        assert_eq!(go(300, &both), Trip::Go { mode: fly, days: 4, overloaded: false }, "flying 4 beats riding 6");
        assert_eq!(go(450, &both), Trip::Go { mode: ride, days: 6, overloaded: false }, "too heavy to fly");
        assert_eq!(go(550, &both), Trip::Go { mode: walk, days: 9, overloaded: false }, "too heavy to ride");
    }

    #[test]
    fn an_overloaded_stack_walks_slower_and_stops_at_twice_its_capacity_mov_over_tv_move() {
        let (c, t) = setup();
        let l = leg(&c, "plai", None);
        let cap = caps(&c, &[("walk", 100)]);
        let go = |milli: u64| t.trip(&c, &l, Load { weight_milli: milli, capacity: &cap });
        // TV-MOVE: 10% over → time +30%: 9 × 1.3 = 11.7 → 12 days.
        assert_eq!(go(110_000), Trip::Go { mode: 0, days: 12, overloaded: true });
        // 50% over: 9 × 2.5 = 22.5 → 23.
        assert_eq!(go(150_000), Trip::Go { mode: 0, days: 23, overloaded: true });
        assert_eq!(go(200_000), Trip::Overloaded, "rulings 2: no move at twice the capacity");
        // Swamp: 25 days; 80% over → 25 × 3.4 = 85 days, past the 60-day limit.
        let swamp = leg(&c, "swmp", None);
        assert_eq!(t.trip(&c, &swamp, Load { weight_milli: 180_000, capacity: &cap }), Trip::TooLong(85));
    }

    #[test]
    fn a_season_s_movement_bonus_changes_speed_from_data() {
        // A season with walking +25% and riding -50%: plains 9 → 8 days (7.2 up),
        // riding 6 → 12. Other seasons change nothing.
        let mut rules = (*overlord_rules()).clone();
        rules.climate.seasons[0].system.bonuses.movement.insert("walk".into(), 25);
        rules.climate.seasons[0].system.bonuses.movement.insert("ride".into(), -50);
        let c = Catalog::new(std::sync::Arc::new(rules));
        let t = TravelTables::new(&c);
        let (walk, ride) = (mode(&c, "walk"), mode(&c, "ride"));
        let mut l = leg(&c, "plai", None);
        l.season = Some(0);
        let d = t.days(&c, &l);
        assert_eq!((d[walk], d[ride]), (Some(8), Some(12)));
        l.season = Some(1);
        let d = t.days(&c, &l);
        assert_eq!((d[walk], d[ride]), (Some(9), Some(6)));
    }

    #[test]
    fn weather_changes_times_from_data_mov_wx() {
        let (c, t) = setup();
        let (walk, ride, fly) = (mode(&c, "walk"), mode(&c, "ride"), mode(&c, "fly"));
        let rain = t.days(&c, &leg(&c, "plai", Some("rain")));
        // Rain: walking and riding +20% (9 → 10.8 → 11; 6 → 7.2 → 8), flying 6 days.
        assert_eq!((rain[walk], rain[ride], rain[fly]), (Some(11), Some(8), Some(6)));
        let storm = t.days(&c, &leg(&c, "plai", Some("storm")));
        assert_eq!((storm[walk], storm[fly]), (Some(14), Some(15)), "storm: +50% (13.5 → 14), flying 15 days");
        let fair = t.days(&c, &leg(&c, "plai", Some("fair")));
        assert_eq!(fair[walk], Some(9));
    }

    #[test]
    fn exits_that_name_days_or_a_mode_and_inner_locations_loc_inner_mov_min() {
        let (c, t) = setup();
        let (walk, fly) = (mode(&c, "walk"), mode(&c, "fly"));
        let mut l = leg(&c, "city", Some("storm"));
        l.mode = Some(walk);
        l.days = Some(1);
        let d = t.days(&c, &l);
        assert_eq!((d[walk], d[fly]), (Some(1), None), "the exit's own mode and days, whatever the weather");
        let mut inner = leg(&c, "plai", None);
        inner.inner = true;
        assert_eq!(t.days(&c, &inner)[walk], Some(c.rules.info.parameters.inner_travel_days));
        let mut zero = leg(&c, "plai", None);
        zero.days = Some(0);
        assert_eq!(t.days(&c, &zero)[walk], Some(1), "at least one day");
        let ocean = leg(&c, "ocea", None);
        let cap = caps(&c, &[("walk", 1000)]);
        assert_eq!(
            t.trip(&c, &ocean, Load { weight_milli: 1000, capacity: &cap }),
            Trip::Impassable,
            "walkers cannot enter the ocean"
        );
        let none = leg(&c, "moun", None);
        let cap = caps(&c, &[("walk", 1000), ("fly", 1000)]);
        assert!(
            matches!(t.trip(&c, &none, Load { weight_milli: 1000, capacity: &cap }), Trip::Go { mode, days: 10, .. } if mode == fly)
        );
    }
}
