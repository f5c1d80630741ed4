//! The order checker (FILE-CHECK): an order file read against a game's current state,
//! without running the turn.
//!
//! [`check`] lists, one per line, what the parser found (lines that cannot be read,
//! orders past the limit) and what the state shows cannot work:
//!
//! * errors — the order will be ignored or removed when its turn comes: a line that
//!   cannot be read, a `UNIT` block for a unit that is not the faction's, an order the
//!   unit's kind may not give (PFX-KIND), a location or faction that does not exist, a
//!   skill the unit can never study (ORD-STUDY), a level the skill does not have, a new
//!   unit id that is not the faction's;
//! * warnings — the order may well fail: a direction with no exit from where the unit
//!   stands, a move to a location that is not next to it, a CARAVAN whose route has
//!   a leg with no exit or that does not pass where the unit stands, a TARGET or BUILD
//!   aimed at a construction that is not built from works (a vessel), a USE of a skill the unit does not know and does not study first, a
//!   RECRUIT of a race the location does not offer, a new id that no order of the
//!   faction creates (its orders would vanish at the end of the month,
//!   FILE-NEWID-LIFE), and the parser's own warnings.
//!
//! The checker never tells a player more than they know: a unit that is not theirs
//! gets the same message whether it exists or not, and it reads no other faction's
//! units. It does not simulate the month, so a check is about the state when the file
//! is checked (a unit's position for its first move, the skills it has now).

use crate::core::orders::check::{Check, Problem, Severity};
use crate::systems::overlord::data::{Location, RaceKind, Scenario, SkillFlag, TargetKind, Unit, UseKind};
use crate::systems::overlord::orders::line::{is_new_id, is_new_id_of, parse_entry_lenient};
use crate::systems::overlord::orders::syntax::CombatAction;
use crate::systems::overlord::orders::{Destination, Entry, Order, OrderFile, Place, Target};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::ids::{ItemId, RaceId, SkillId};
use petgraph::graphmap::DiGraphMap;
use std::collections::{BTreeMap, HashMap, HashSet};

pub mod records;
#[cfg(test)]
mod tests;

/// What the checker knows of a unit: its race and where it is.
#[derive(Clone, Copy)]
struct Known<'a> {
    race: Option<RaceId>,
    location: Option<&'a str>,
    unit: Option<&'a Unit>,
}

/// The state a faction's file is checked against.
struct Ctx<'a> {
    catalog: &'a Catalog,
    faction: &'a str,
    locations: HashMap<&'a str, &'a Location>,
    /// The location graph: an edge for every exit.
    routes: DiGraphMap<&'a str, ()>,
    factions: HashSet<&'a str>,
    own: HashMap<&'a str, &'a Unit>,
    /// Every unit and structure of the world, by id.
    units: HashMap<&'a str, &'a Unit>,
    structures: HashMap<&'a str, &'a crate::systems::overlord::data::Structure>,
    /// New unit ids created by an order of the faction, with the new unit's race
    /// when known (RECRUIT names it; SPLIT copies the parent's).
    created: BTreeMap<String, Option<RaceId>>,
    problems: Vec<Problem>,
}

impl Ctx<'_> {
    fn error(&mut self, line: usize, message: String) {
        self.problems.push(Problem { line, severity: Severity::Error, message });
    }
    fn warn(&mut self, line: usize, message: String) {
        self.problems.push(Problem { line, severity: Severity::Warning, message });
    }
    fn kind(&self, race: RaceId) -> RaceKind {
        self.catalog.rules.races[race.index()].system.kind
    }
}

/// Checks `file`, submitted by `faction` (whose header is already verified), against
/// `state`.
pub fn check(file: &OrderFile, faction: &str, state: &Scenario, catalog: &Catalog) -> Check {
    let own: HashMap<&str, &Unit> =
        state.units.iter().filter(|u| u.faction.eq_ignore_ascii_case(faction)).map(|u| (u.id.as_str(), u)).collect();
    let mut cx = Ctx {
        catalog,
        faction,
        locations: state.locations.iter().map(|l| (l.id.as_str(), l)).collect(),
        routes: state
            .locations
            .iter()
            .flat_map(|l| l.exits.iter().map(move |x| (l.id.as_str(), x.to.as_str(), ())))
            .collect(),
        factions: state.factions.iter().map(|f| f.id.as_str()).collect(),
        own,
        units: state.units.iter().map(|u| (u.id.as_str(), u)).collect(),
        structures: state.structures.iter().map(|x| (x.id.as_str(), x)).collect(),
        created: BTreeMap::new(),
        problems: Vec::new(),
    };
    for w in &file.warnings {
        cx.warn(w.line, w.message.clone());
    }
    for l in &file.faction_orders {
        if let Err(m) = &l.read {
            cx.error(l.line, m.clone());
        }
    }
    collect_created(&mut cx, file, state);
    let mut orders = 0;
    for block in &file.units {
        orders += block.orders.len();
        let known = if is_new_id(&block.unit, 'U') {
            if !is_new_id_of(&block.unit, 'U', faction) {
                cx.error(
                    block.line,
                    format!(
                        "{} is not a new id of your faction: new units are named {faction}nU00 to {faction}nU99; the block is ignored",
                        block.unit
                    ),
                );
                // Its orders are still read, so that every mistake is told at once.
                Known { race: None, location: None, unit: None }
            } else {
                match cx.created.get(&block.unit) {
                    Some(race) => Known { race: *race, location: None, unit: None },
                    None => {
                        cx.warn(
                            block.line,
                            format!(
                                "no RECRUIT or SPLIT of yours creates {}: unless one does this month, its orders vanish at the end of the month",
                                block.unit
                            ),
                        );
                        Known { race: None, location: None, unit: None }
                    }
                }
            }
        } else {
            match cx.own.get(block.unit.as_str()) {
                Some(u) => Known { race: catalog.race(&u.race), location: Some(u.location.as_str()), unit: Some(u) },
                None => {
                    cx.error(block.line, format!("{} is not one of your units; the block is ignored", block.unit));
                    // Its orders are still read, so that every mistake is told at once.
                    Known { race: None, location: None, unit: None }
                }
            }
        };
        check_list(&mut cx, known, block.orders.iter().map(|l| (l.line, &l.entry)));
    }
    let mut problems = cx.problems;
    problems.sort_by_key(|p| (p.line, p.severity));
    let mut counts = vec![(file.units.len(), "unit block"), (orders, "order")];
    if !file.faction_orders.is_empty() {
        counts.push((file.faction_orders.len(), "faction order"));
    }
    Check { problems, counts }
}

/// The new unit ids the faction's orders create this month: in the file, and in the
/// pending lists of its units that the file leaves alone.
fn collect_created(cx: &mut Ctx, file: &OrderFile, state: &Scenario) {
    let note = |cx: &mut Ctx, entry: &Entry, parent: Option<RaceId>| match &entry.order {
        Order::Recruit { unit, race, .. } => {
            cx.created.insert(unit.clone(), Some(*race));
        }
        Order::Split { new, .. } => {
            cx.created.entry(new.clone()).or_insert(parent);
        }
        // A summons forms the new unit its caster targets.
        Order::Target(Target::Unit(new)) if is_new_id(new, 'U') => {
            cx.created.entry(new.clone()).or_insert(None);
        }
        _ => {}
    };
    let replaced: HashSet<&str> = file.units.iter().map(|b| b.unit.as_str()).collect();
    // Blocks the turn ignores (another faction's units) create nothing.
    let played = |b: &&crate::systems::overlord::orders::UnitBlock| {
        cx.own.contains_key(b.unit.as_str()) || is_new_id_of(&b.unit, 'U', cx.faction)
    };
    let blocks: Vec<_> = file.units.iter().filter(played).collect();
    for block in blocks {
        let parent = cx.own.get(block.unit.as_str()).and_then(|u| cx.catalog.race(&u.race));
        for l in &block.orders {
            note(cx, &l.entry, parent);
        }
    }
    for u in state.units.iter().filter(|u| u.faction.eq_ignore_ascii_case(cx.faction)) {
        if replaced.contains(u.id.as_str()) {
            continue;
        }
        let parent = cx.catalog.race(&u.race);
        for text in &u.orders {
            let (entry, _) = parse_entry_lenient(text, cx.catalog);
            note(cx, &entry, parent);
        }
    }
}

/// USE of a skill in the world: a combat-only skill is refused; a level that needs
/// a target needs a TARGET first (MAG-TARGET); a spell needs its mana (MAG-COST).
fn spell(cx: &mut Ctx, line: usize, unit: Known, skill: SkillId, targeted: bool) {
    let s = &cx.catalog.rules.skills[skill.index()];
    if s.system.use_kind == Some(UseKind::Combat) {
        cx.error(line, format!("{} ({}) is used only in battle: put it in the COMBAT list", s.name, s.tag));
        return;
    }
    let Some(u) = unit.unit else { return };
    let points = u.skills.iter().find(|k| k.0 == s.tag).map_or(0, |k| k.1);
    let level = cx.catalog.skill_level(skill, points);
    let Some(lv) = level.checked_sub(1).and_then(|i| s.system.levels.get(i as usize)) else { return };
    let needs = lv.target.as_ref().is_some_and(|t| matches!(t.kind, TargetKind::Unit | TargetKind::Location));
    if needs && !targeted {
        cx.error(line, format!("{} ({}) needs a target: give TARGET first (MAG-TARGET)", s.name, s.tag));
    }
    if lv.use_mana > 0
        && let Some(m) = cx.catalog.mana()
    {
        let tag = &cx.catalog.rules.items[m.index()].tag;
        let have: u32 = u.items.iter().filter(|h| h.0 == *tag).map(|h| h.1).sum();
        if have < lv.use_mana {
            cx.warn(
                line,
                format!(
                    "{} ({}) costs {} mana and the unit has {have}: it waits until it has them (MAG-COST)",
                    s.name, s.tag, lv.use_mana
                ),
            );
        }
    }
}

fn check_list<'e>(cx: &mut Ctx, unit: Known, entries: impl Iterator<Item = (usize, &'e Entry)>) {
    let mut moved = false;
    let mut studied: Vec<SkillId> = Vec::new();
    let mut targeted = unit.unit.is_some_and(|u| u.target.is_some());
    for (line, entry) in entries {
        let order = &entry.order;
        if let Order::Unreadable { reason, .. } = order {
            cx.error(line, reason.clone());
            continue;
        }
        let who = order.who();
        if let Some(race) = unit.race
            && !who.allows(cx.kind(race))
        {
            cx.error(line, format!("only {} may give {}", who.text(), order.keyword()));
        }
        for loc in locations_named(order) {
            if !cx.locations.contains_key(loc) {
                cx.error(line, format!("there is no location {loc} in this game"));
            }
        }
        for f in factions_named(order) {
            if !cx.factions.iter().any(|k| k.eq_ignore_ascii_case(f)) {
                cx.error(line, format!("there is no faction {f} in this game"));
            }
        }
        for r in order.references() {
            if is_new_id(r, 'U') && !cx.created.contains_key(r) {
                cx.warn(
                    line,
                    format!(
                        "no RECRUIT or SPLIT of yours creates {r}: unless one does this month, this order vanishes at the end of the month"
                    ),
                );
            }
        }
        match order {
            Order::Move(Destination::Direction(dir)) | Order::March(Destination::Direction(dir)) if !moved => {
                if let Some(here) = unit.location.and_then(|l| cx.locations.get(l))
                    && !here.exits.iter().any(|e| e.dir.eq_ignore_ascii_case(dir))
                {
                    cx.warn(line, format!("{} ({}) has no exit {dir}", here.name, here.id));
                }
            }
            Order::Move(Destination::Location(to)) | Order::March(Destination::Location(to)) if !moved => {
                if let Some(here) = unit.location
                    && cx.locations.contains_key(to.as_str())
                    && !cx.routes.contains_edge(here, to.as_str())
                {
                    cx.warn(line, format!("{to} is not next to {here}: a move goes to a neighbouring location"));
                }
            }
            Order::Caravan(list) => {
                for pair in list.windows(2) {
                    let (a, b) = (pair[0].as_str(), pair[1].as_str());
                    if cx.locations.contains_key(a) && cx.locations.contains_key(b) && !cx.routes.contains_edge(a, b) {
                        cx.warn(line, format!("the caravan's route has no exit from {a} to {b}: it stops there"));
                    }
                }
                if !moved
                    && let Some(here) = unit.location
                    && !list.iter().any(|l| l == here)
                {
                    cx.warn(line, format!("the caravan's route does not pass {here}, where the unit is"));
                }
            }
            Order::Target(Target::Construction(tag)) | Order::Build { what: Some(Target::Construction(tag)), .. } => {
                let c = cx.catalog.rules.constructions.constructions.iter().find(|c| c.tag == *tag);
                if let Some(c) = c.filter(|c| c.materials.is_empty()) {
                    cx.warn(
                        line,
                        format!("a {} is not built from works: a skill makes it whole (USE of that skill)", c.name),
                    );
                }
            }
            Order::Study { skill, level } => {
                study(cx, line, unit, *skill, *level);
                studied.push(*skill);
            }
            Order::Use { skill, .. } | Order::Build { skill, .. } => {
                let s = &cx.catalog.rules.skills[skill.index()];
                let knows = unit.unit.is_none_or(|u| u.skills.iter().any(|k| k.0 == s.tag && k.1 > 0));
                if !knows && !s.system.flags.contains(&SkillFlag::UseAnyone) && !studied.contains(skill) {
                    cx.warn(
                        line,
                        format!(
                            "this unit does not know {} ({}) and does not study it first: the order fails unless it learns the skill",
                            s.name, s.tag
                        ),
                    );
                }
                if matches!(order, Order::Use { .. }) {
                    spell(cx, line, unit, *skill, targeted || matches!(order, Order::Build { what: Some(_), .. }));
                }
            }
            Order::Target(_) => targeted = true,
            Order::Attack(t) => attack(cx, line, unit, t),
            Order::Combat(list) => {
                for a in list {
                    if let CombatAction::Skill(sk) = a {
                        let s = &cx.catalog.rules.skills[sk.index()];
                        let knows = unit.unit.is_none_or(|u| u.skills.iter().any(|k| k.0 == s.tag && k.1 > 0));
                        if !knows {
                            cx.warn(
                                line,
                                format!(
                                    "this unit does not know {} ({}): in battle the action is skipped unless it learns it",
                                    s.name, s.tag
                                ),
                            );
                        }
                    }
                }
            }
            Order::Buy { item, price, .. } | Order::Sell { item, price, .. } => {
                // After a move the unit trades elsewhere: the market here says nothing.
                let at = if moved { Known { location: None, ..unit } } else { unit };
                trade(cx, line, at, matches!(order, Order::Sell { .. }), *item, *price);
            }
            Order::Claim { title, location, .. } => {
                // The title must be where the claim is made: the place named, or
                // (before any move) where the unit stands.
                let at = location.as_deref().or(if moved { None } else { unit.location });
                if let Some(l) = at.and_then(|l| cx.locations.get(l))
                    && !l.titles.iter().any(|t| t.title.eq_ignore_ascii_case(title))
                {
                    cx.error(line, format!("{} ({}) bears no title {title}", l.name, l.id));
                }
            }
            Order::Cancel { title, location } => {
                if let Some(l) = cx.locations.get(location.as_str())
                    && !l.titles.iter().any(|t| t.title.eq_ignore_ascii_case(title))
                {
                    cx.error(line, format!("{} ({}) bears no title {title}", l.name, l.id));
                }
                let holds = unit.unit.is_some_and(|u| {
                    cx.locations.values().any(|l| l.titles.iter().any(|t| t.holder.as_deref() == Some(u.id.as_str())))
                });
                if unit.unit.is_some() && !holds {
                    cx.warn(line, "this unit holds no title now: only a title holder may cancel a title".into());
                }
            }
            Order::Give { item, .. } | Order::Get { item, .. } | Order::Drop { item, .. }
                if cx.catalog.mana() == Some(*item) =>
            {
                cx.error(line, "mana cannot change hands (ITM-GIVE)".into());
            }
            Order::Swap { give, take, .. } if cx.catalog.mana().is_some_and(|m| m == give.1 || m == take.1) => {
                cx.error(line, "mana cannot change hands (ITM-GIVE)".into());
            }
            Order::Pillage => pillage(cx, line, unit, moved),
            Order::Oath(to) if cx.own.contains_key(to.as_str()) => {
                cx.error(line, format!("{to} is of your own faction: an oath to it changes nothing"));
            }
            Order::GiveUnit { to, unit: given } => give_unit(cx, line, unit, to, given),
            Order::Bestow(to) => {
                // Only of a unit the faction can see: its own, or one where the giver is.
                let race = cx
                    .units
                    .get(to.as_str())
                    .filter(|u| cx.own.contains_key(to.as_str()) || Some(u.location.as_str()) == unit.location)
                    .and_then(|u| cx.catalog.race(&u.race));
                if let Some(r) = race
                    && cx.catalog.rules.races[r.index()].system.kind != crate::systems::overlord::data::RaceKind::Leader
                {
                    cx.error(line, format!("{to} is no leader: only leaders and heroes hold titles"));
                }
            }
            Order::Recruit { race, .. } if !moved => {
                if let Some(here) = unit.location.and_then(|l| cx.locations.get(l)) {
                    let tag = &cx.catalog.rules.races[race.index()].tag;
                    if !here.recruits.iter().any(|o| o.race.eq_ignore_ascii_case(tag)) {
                        cx.warn(line, format!("{} ({}) offers no {tag} recruits this month", here.name, here.id));
                    }
                }
            }
            _ => {}
        }
        if matches!(order, Order::Move(_) | Order::March(_) | Order::Caravan(_)) {
            moved = true;
        }
    }
}

/// GIVE of a whole unit (UNIT-XFER): the giver itself or a unit of the faction
/// stacked under it, to a unit of another faction.
fn give_unit(cx: &mut Ctx, line: usize, giver: Known, to: &str, given: &str) {
    if cx.own.contains_key(to) {
        cx.error(line, format!("{to} is of your own faction: giving it a unit changes nothing"));
    }
    if is_new_id(given, 'U') {
        return;
    }
    let Some(&g) = cx.own.get(given) else {
        cx.error(line, format!("{given} is not one of your units: a unit gives only itself or units of its stack"));
        return;
    };
    let Some(me) = giver.unit else { return };
    if g.id == me.id {
        return;
    }
    // Up the given unit's stack, as it stands now.
    let mut cur = g.stack_leader.as_deref();
    let mut steps = 0;
    while let Some(l) = cur {
        if l == me.id || steps > cx.own.len() {
            break;
        }
        steps += 1;
        cur = cx.own.get(l).and_then(|u| u.stack_leader.as_deref());
    }
    if cur != Some(me.id.as_str()) {
        cx.warn(
            line,
            format!("{given} is not stacked under {} now: it can be given only from within its stack", me.id),
        );
    }
}

/// BUY and SELL (ORD-BUY, ORD-SELL): goods markets take, a price to bid or ask, a
/// price within reason, items to sell.
fn trade(cx: &mut Ctx, line: usize, unit: Known, selling: bool, item: ItemId, price: Option<u32>) {
    let def = &cx.catalog.rules.items[item.index()];
    let (tag, plural) = (def.tag.as_str(), def.plural.as_str());
    if Some(item) == cx.catalog.money() || def.system.flags.contains(&crate::systems::overlord::data::ItemFlag::Special)
    {
        cx.error(line, format!("{plural} ({tag}) cannot be bought or sold on markets"));
        return;
    }
    let here = unit.location.and_then(|l| cx.locations.get(l));
    let listed = here.and_then(|l| {
        let offers = if selling { &l.market.buys } else { &l.market.sells };
        offers.iter().find(|o| o.item.eq_ignore_ascii_case(tag)).map(|o| o.price)
    });
    if price.is_none_or(|p| p == 0)
        && listed.is_none()
        && let Some(l) = here
    {
        let what = if selling { "buys" } else { "sells" };
        cx.error(line, format!("{} ({}) {what} no {tag}: give a price", l.name, l.id));
    }
    // A price past the market's ceiling (economy.ron) is no place's price.
    let ceiling = u64::from(def.price) * u64::from(cx.catalog.rules.economy.market.ceiling_percent) / 100;
    if let Some(p) = price
        && ceiling > 0
        && u64::from(p) > ceiling
    {
        let who = if selling { "any place pays" } else { "any place asks" };
        cx.warn(line, format!("{p} for one {} ({tag}) is more than {who} ({ceiling}): check the price", def.name));
    }
    if selling
        && let Some(u) = unit.unit
        && !u.items.iter().any(|h| h.0.eq_ignore_ascii_case(tag) && h.1 > 0)
    {
        cx.warn(line, format!("this unit holds no {tag} now: the SELL waits until it does"));
    }
}

/// ATTACK (ORD-ATTACK): never on the faction itself, its units or its structures; a
/// target elsewhere now is waited for.
fn attack(cx: &mut Ctx, line: usize, unit: Known, t: &Target) {
    match t {
        Target::Unit(id) => {
            if cx.own.contains_key(id.as_str()) || cx.created.contains_key(id.as_str()) {
                cx.error(line, format!("{id} is a unit of your own faction: ATTACK is for others' units"));
            } else if let Some(here) = unit.location
                && cx.units.get(id.as_str()).is_none_or(|t| t.location != here)
            {
                // The same words whether the unit is elsewhere or does not exist:
                // the checker tells nothing a faction's units could not see.
                cx.warn(line, format!("{id} is not at {here} now: the attack waits until it is"));
            }
        }
        Target::Faction(f) if f.eq_ignore_ascii_case(cx.faction) => {
            cx.error(line, "a faction cannot attack itself".into());
        }
        Target::Structure(id) => match cx.structures.get(id.as_str()) {
            None => cx.error(line, format!("there is no structure {id} in this game")),
            Some(s) if s.owner.as_deref().is_some_and(|o| o.eq_ignore_ascii_case(cx.faction)) => {
                cx.error(line, format!("{id} belongs to your own faction: ATTACK on a structure attacks its owner"));
            }
            _ => {}
        },
        _ => {}
    }
}

/// STUDY of a skill the unit can never study (ORD-STUDY, §10 races), or to a level the
/// skill does not have.
fn study(cx: &mut Ctx, line: usize, unit: Known, skill: SkillId, level: Option<u32>) {
    let s = &cx.catalog.rules.skills[skill.index()];
    let name = format!("{} ({})", s.name, s.tag);
    if s.system.flags.contains(&SkillFlag::NoLearn) {
        cx.error(line, format!("{name} cannot be learned by study"));
        return;
    }
    if let Some(lv) = level
        && lv as usize > s.system.levels.len()
    {
        cx.error(line, format!("{name} has only {} level(s), not {lv}", s.system.levels.len()));
    }
    let Some(race) = unit.race else { return };
    match cx.kind(race) {
        RaceKind::Creature => cx.error(line, "creatures cannot study".into()),
        RaceKind::Follower if s.system.flags.contains(&SkillFlag::LeaderOnly) => {
            cx.error(line, format!("only leaders and heroes can study {name}"))
        }
        RaceKind::Leader | RaceKind::Follower if s.system.flags.contains(&SkillFlag::CreatureOnly) => {
            cx.error(line, format!("{name} is a creature skill: no leader or follower can study it"))
        }
        _ => {}
    }
}

/// The location ids an order names.
fn locations_named(order: &Order) -> Vec<&str> {
    match order {
        Order::At(Place::Location(l))
        | Order::Attack(Target::Location(l))
        | Order::Target(Target::Location(l))
        | Order::Get { from: Target::Location(l), .. }
        | Order::Move(Destination::Location(l))
        | Order::March(Destination::Location(l))
        | Order::Cancel { location: l, .. }
        | Order::Claim { location: Some(l), .. } => vec![l.as_str()],
        Order::Caravan(list) => list.iter().map(String::as_str).collect(),
        _ => Vec::new(),
    }
}

/// ORD-PILLAGE, OWN-PILLAGE-MIN, OWN-FORCE: a unit too small, or without the
/// skill, pillages nothing; where it stands (before any move) its people may need a
/// bigger force.
fn pillage(cx: &mut Ctx, line: usize, unit: Known, moved: bool) {
    let Some(u) = unit.unit else { return };
    let land = &cx.catalog.rules.economy.land;
    if let Some(req) = &land.pillage.skill
        && !u.skills.iter().any(|k| k.0.eq_ignore_ascii_case(&req.skill) && k.1 > 0)
    {
        cx.error(line, format!("pillaging needs level {} in {}, which this unit has not", req.level, req.skill));
    }
    if u.figures < land.pillage.min_figures {
        cx.error(
            line,
            format!("{} figures pillage nothing: PILLAGE needs at least {}", u.figures, land.pillage.min_figures),
        );
        return;
    }
    let here = if moved { None } else { unit.location.and_then(|l| cx.locations.get(l)) };
    if let Some(l) = here
        && l.population > 0
    {
        let need = land.force.figures_for(l.population);
        if u.figures < need {
            cx.warn(
                line,
                format!(
                    "{} figures are too few to pillage {} ({}): its people need a force of {need}",
                    u.figures, l.name, l.id
                ),
            );
        }
    }
}

/// The faction ids an order names.
fn factions_named(order: &Order) -> Vec<&str> {
    match order {
        Order::Stance { faction, .. }
        | Order::Attack(Target::Faction(faction))
        | Order::Target(Target::Faction(faction))
        | Order::Get { from: Target::Faction(faction), .. } => vec![faction.as_str()],
        _ => Vec::new(),
    }
}
