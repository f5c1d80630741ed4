//! The checker of a generals order file (FILE-CHECK's counterpart): every problem
//! named by line, against the state the orders will meet. It does not play the
//! turn: what other players do first (a battle, a lost region) may still change
//! the outcome, and those risks are warnings.

use super::{Action, Entry, OrderFile, Overtax};
use crate::core::orders::check::{Check, Problem, Severity};
use crate::systems::generals::data::{General, OrderSide, RuleSet, Scenario, SkillEffect};
use crate::systems::generals::routes;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The state seen by one player's checker: regions by id (any case), who holds
/// each, generals by name.
struct View<'a> {
    state: &'a Scenario,
    player: &'a str,
    region: HashMap<String, usize>,
    holder: Vec<Option<&'a str>>,
}

impl<'a> View<'a> {
    fn new(state: &'a Scenario, player: &'a str) -> Self {
        let region: HashMap<String, usize> =
            state.regions.iter().enumerate().map(|(i, r)| (r.id.to_ascii_uppercase(), i)).collect();
        let mut holder = vec![None; state.regions.len()];
        for t in &state.troops {
            if let Some(&i) = region.get(&t.region.to_ascii_uppercase()) {
                holder[i] = Some(t.player.as_str());
            }
        }
        View { state, player, region, holder }
    }

    fn region(&self, id: &str) -> Result<usize, String> {
        self.region.get(&id.to_ascii_uppercase()).copied().ok_or_else(|| format!("no region '{id}'"))
    }

    /// The player's general named `name` (any case).
    fn general(&self, name: &str) -> Result<&'a General, String> {
        self.state
            .generals
            .iter()
            .find(|g| g.name.eq_ignore_ascii_case(name))
            .filter(|g| g.player == self.player)
            .ok_or_else(|| format!("you have no general '{name}'"))
    }

    fn mine(&self, r: usize) -> bool {
        self.holder[r] == Some(self.player)
    }

    fn adjacent(&self, a: usize, b: usize) -> bool {
        self.state.regions[a].adjacent.iter().any(|x| x.eq_ignore_ascii_case(&self.state.regions[b].id))
    }

    /// The route of a TRAVEL (`reach`: `u32::MAX`) or a MOVE through the player's
    /// regions: the shortest, or the one given with VIA.
    fn route(&self, from: usize, via: &[String], to: usize, reach: u32, what: &str) -> Result<(), String> {
        let via = via.iter().map(|id| self.region(id)).collect::<Result<Vec<_>, _>>()?;
        let next = |r: usize| {
            self.state.regions[r]
                .adjacent
                .iter()
                .filter_map(|n| self.region.get(&n.to_ascii_uppercase()).copied())
                .collect()
        };
        let id = |r: usize| self.state.regions[r].id.clone();
        routes::route(from, &via, to, reach, next, |r| self.mine(r))
            .map(|_| ())
            .map_err(|e| routes::explain(&e, what, reach, (&id(from), &id(to)), id))
    }

    /// The player's troop unit `id` in region `r`.
    fn troop_here(&self, id: &str, r: usize) -> Result<(), String> {
        let t =
            self.state.troops.iter().find(|t| t.id.eq_ignore_ascii_case(id)).ok_or(format!("no troop unit '{id}'"))?;
        if t.player != self.player {
            return Err(format!("{} is not yours", t.id));
        }
        if !t.region.eq_ignore_ascii_case(&self.state.regions[r].id) {
            return Err(format!("{} is in {}, not {}", t.id, t.region, self.state.regions[r].id));
        }
        Ok(())
    }
}

/// Checks `file`, the orders of player `player`, against `state`.
pub fn check(rules: &RuleSet, state: &Scenario, player: &str, file: &OrderFile) -> Check {
    let v = View::new(state, player);
    let p = &rules.info.parameters;
    let mut problems = Vec::new();
    let mut push =
        |line: usize, severity: Severity, message: String| problems.push(Problem { line, severity, message });
    let mut acted: HashMap<String, usize> = HashMap::new();
    let mut defended: HashMap<usize, usize> = HashMap::new();
    // Income and hire limit of each region as this file's overtax leaves them.
    let mut taxed: BTreeMap<usize, (i64, i64)> = BTreeMap::new();
    // Income and hire limit after the turn's recovery (generals-rules.txt 60).
    let recovered = |r: &crate::systems::generals::data::Region| {
        let up = |(now, orig): (u32, u32), by: u32| i64::from(now.saturating_add(by).min(orig.max(now)));
        (up(r.income, p.income_recovery), up(r.hire_limit, p.hire_recovery))
    };
    // RECRUIT lines: (line, region, points, men, type name).
    let mut recruits: Vec<(usize, usize, u64, u32, String)> = Vec::new();
    let mut taxed_hired: BTreeMap<usize, i64> = BTreeMap::new();
    let mut trained: HashSet<String> = HashSet::new();
    let (mut actions, mut defenses, mut overtaxes) = (0, 0, 0);
    for l in &file.lines {
        let e = match &l.read {
            Ok(e) => e,
            Err(m) => {
                push(l.line, Severity::Error, m.clone());
                continue;
            }
        };
        // An error, or perhaps a warning.
        let result: Result<Option<String>, String> = (|| {
            match e {
                Entry::General { general, action, raise } => {
                    let g = v.general(general)?;
                    let here = v.region(&g.region)?;
                    let mut renown_spent = 0u32;
                    let mut levels = g.skills.clone();
                    if let Some(a) = action {
                        actions += 1;
                        if let Some(first) = acted.insert(g.name.clone(), l.line) {
                            return Err(format!(
                                "{} has an action already (line {first}): one action per general",
                                g.name
                            ));
                        }
                        if g.new && !matches!(a, Action::Travel { .. } | Action::Move { .. }) {
                            return Err(format!("{} was trained this turn: he may only move", g.name));
                        }
                        match a {
                            Action::Travel { to, via } => {
                                let to = v.region(to)?;
                                v.route(here, via, to, u32::MAX, "TRAVEL")?;
                            }
                            Action::Move { troops, to, via } => {
                                for t in troops {
                                    v.troop_here(t, here)?;
                                }
                                let to = v.region(to)?;
                                v.route(here, via, to, p.move_army_reach, "MOVE")?;
                            }
                            Action::Attack { region, troops, order } => {
                                let target = v.region(region)?;
                                if !v.adjacent(here, target) {
                                    return Err(format!("{} is not next to {}", state.regions[target].id, g.region));
                                }
                                if v.mine(target) {
                                    return Err(format!("{} is yours: MOVE there", state.regions[target].id));
                                }
                                for t in troops {
                                    v.troop_here(t, here)?;
                                }
                                let side = rules.combat.orders.iter().find(|o| &o.tag == order).map(|o| o.side);
                                if side == Some(OrderSide::Defensive) {
                                    return Err(format!("{} is not an offensive order", order.to_ascii_uppercase()));
                                }
                            }
                            Action::Recruit { men, troop } => {
                                if !v.mine(here) {
                                    return Err(format!("{} is not yours: no one there hires for you", g.region));
                                }
                                let r = &state.regions[here];
                                if !r.hires.iter().any(|h| h == troop) {
                                    return Err(format!("{} offers no {troop} for hire", r.id));
                                }
                                let kind = rules
                                    .troops
                                    .iter()
                                    .find(|t| &t.tag == troop)
                                    .ok_or_else(|| format!("no troop type '{troop}'"))?;
                                // Weighed against the hire limit once every overtax of
                                // the file is known (the turn makes them first).
                                let points = u64::from(*men) * u64::from(kind.points);
                                recruits.push((l.line, here, points, *men, kind.name.clone()));
                            }
                            Action::Prepare => {}
                            Action::Rest { learn } => {
                                if let Some(s) = learn {
                                    if levels.contains_key(s) {
                                        return Err(format!("{} knows {s} already: RAISE it", g.name));
                                    }
                                    renown_spent = renown_spent.saturating_add(p.new_skill_renown);
                                    levels.insert(s.clone(), 1);
                                }
                            }
                            Action::Train { name } => {
                                let taken = state.generals.iter().any(|x| x.name.eq_ignore_ascii_case(name));
                                if taken || !trained.insert(name.to_ascii_uppercase()) {
                                    return Err(format!("a general is named '{name}' already"));
                                }
                                let treasury = state.players.iter().find(|x| x.id == player).map_or(0, |x| x.treasury);
                                if treasury < u64::from(p.train_general_cost) {
                                    return Ok(Some(format!(
                                        "a new general costs {} gold, more than the treasury holds before this turn's income",
                                        p.train_general_cost
                                    )));
                                }
                            }
                        }
                    }
                    for s in raise {
                        let Some(level) = levels.get_mut(s) else {
                            return Err(format!("{} does not know {s}: learn it with REST LEARN", g.name));
                        };
                        *level += 1;
                        if *level > p.max_skill_level {
                            return Err(format!("{s} is at its highest level, {}", p.max_skill_level));
                        }
                        renown_spent = renown_spent.saturating_add(p.raise_renown_per_level.saturating_mul(*level));
                    }
                    if renown_spent > g.renown {
                        return Err(format!(
                            "{} has {} renown and this costs {renown_spent}: nothing would be bought",
                            g.name, g.renown
                        ));
                    }
                }
                Entry::Champion { general, troop } => {
                    let g = v.general(general)?;
                    let t =
                        state.troops.iter().find(|t| t.id.eq_ignore_ascii_case(troop)).filter(|t| t.player == player);
                    if t.is_none() {
                        return Err(format!("you have no troop unit '{troop}'"));
                    }
                    let warrior = rules
                        .skills
                        .iter()
                        .any(|s| matches!(s.effect, SkillEffect::Champion(_)) && g.skills.contains_key(&s.tag));
                    if !warrior {
                        return Ok(Some(format!("{} is no Invincible Warrior: the champion changes nothing", g.name)));
                    }
                }
                Entry::Defense { region, order, rearguard } => {
                    defenses += 1;
                    let r = v.region(region)?;
                    if !v.mine(r) {
                        return Err(format!("{} is not yours", state.regions[r].id));
                    }
                    if let Some(first) = defended.insert(r, l.line) {
                        return Err(format!("{} has a defensive order already (line {first})", state.regions[r].id));
                    }
                    let side = rules.combat.orders.iter().find(|o| &o.tag == order).map(|o| o.side);
                    if side == Some(OrderSide::Offensive) || order == &rules.combat.flee {
                        return Err(format!("{} is not a defensive order", order.to_ascii_uppercase()));
                    }
                    if !rearguard.is_empty() && order != &rules.combat.withdraw {
                        return Err("a REARGUARD stays behind only when the region withdraws".into());
                    }
                    for t in rearguard {
                        v.troop_here(t, r)?;
                    }
                }
                Entry::Overtax { region, kind, steps } => {
                    overtaxes += 1;
                    let r = v.region(region)?;
                    if !v.mine(r) {
                        return Err(format!("{} is not yours", state.regions[r].id));
                    }
                    let reg = &state.regions[r];
                    let now = taxed.entry(r).or_insert_with(|| recovered(reg));
                    let (inc, hire) = (i64::from(p.overtax_income_step), i64::from(p.overtax_hire_step));
                    let n = i64::from(*steps);
                    match kind {
                        Overtax::Income if now.0 < n * inc => {
                            return Err(format!("{}'s income is {}: it cannot go below 0", reg.id, now.0));
                        }
                        Overtax::Hire if now.1 < n * hire => {
                            return Err(format!("{}'s hire limit is {}: it cannot go below 0", reg.id, now.1));
                        }
                        Overtax::Income => *now = (now.0 - n * inc, now.1 + n * hire),
                        Overtax::Hire => *now = (now.0 + n * inc, now.1 - n * hire),
                    }
                }
            }
            Ok(None)
        })();
        match result {
            Ok(None) => {}
            Ok(Some(m)) => push(l.line, Severity::Warning, m),
            Err(m) => push(l.line, Severity::Error, m),
        }
    }
    // Recruits share their region's hire limit, as this file's overtax leaves it.
    let treasury = state.players.iter().find(|x| x.id == player).map_or(0, |x| x.treasury);
    let mut spent = 0u64;
    for (line, here, points, men, name) in recruits {
        let r = &state.regions[here];
        let limit = taxed.get(&here).map_or_else(|| recovered(r).1, |x| x.1);
        let hired = taxed_hired.entry(here).or_insert(0);
        let left = (limit - *hired).max(0);
        if points as i64 > left {
            let m = format!(
                "{men} {name} are worth {points} points, over what {}'s hire limit leaves ({left} of {limit}): nothing would be hired",
                r.id
            );
            push(line, Severity::Error, m);
            continue;
        }
        *hired += points as i64;
        let cost = points * u64::from(p.gold_per_point);
        spent += cost;
        if spent > treasury {
            push(
                line,
                Severity::Warning,
                format!("{men} {name} cost {cost} gold: more than the treasury holds before this turn's income"),
            );
        }
    }
    for g in state.generals.iter().filter(|g| g.player == player && !acted.contains_key(&g.name)) {
        push(0, Severity::Warning, format!("{} has no action this turn: R and R", g.name));
    }
    problems.sort_by_key(|x| (x.line == 0, x.line, x.severity));
    Check {
        problems,
        counts: vec![(actions, "general's action"), (defenses, "defensive order"), (overtaxes, "overtax order")],
    }
}
