//! The table of what orders do, and the context a handler works in.

use crate::systems::overlord::data::RaceKind;
use crate::systems::overlord::orders::queue::Outcome;
use crate::systems::overlord::orders::syntax::{Entry, Order};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::components::{
    At, DisplayName, Events, Faction, Figures, Id, Journey, Owner, Race, StackLeader, Unit,
};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_ecs::prelude::*;

/// What an order does: tries it for `act.unit` and says what happened. It may update
/// the order's arguments (a WAIT counting down, a partial BUY).
pub type Handler = fn(&mut Act, &mut Entry) -> Outcome;

/// The handlers of the orders, by [`Order::index`]. Each mechanic's plugin registers
/// the orders it carries out when it is built.
#[derive(Resource, Clone)]
pub struct OrderHandlers(Vec<Option<Handler>>, Option<DefaultHandler>);

/// What the invisible default order (PFX-WORK) does for all the units whose
/// full-day slot stayed free today, at once, after the full-day pass. It must not
/// change what other units' orders see that day.
pub type DefaultHandler = fn(&mut World, &[Entity], u32);

impl Default for OrderHandlers {
    fn default() -> Self {
        OrderHandlers(vec![None; crate::systems::overlord::orders::line::UNIT_KEYWORDS.len() + 1], None)
    }
}

impl OrderHandlers {
    /// Registers what the order with `keyword` does.
    pub fn set(&mut self, keyword: &str, handler: Handler) {
        let i = crate::systems::overlord::orders::line::UNIT_KEYWORDS
            .iter()
            .position(|k| *k == keyword)
            .unwrap_or_else(|| panic!("no order {keyword}"));
        self.0[i] = Some(handler);
    }
    /// The handler of the order at `index`.
    pub fn get(&self, index: usize) -> Option<Handler> {
        self.0.get(index).copied().flatten()
    }
    /// Registers what the invisible WORK does for the units left idle by the
    /// full-day pass, all at once.
    pub fn set_default(&mut self, handler: DefaultHandler) {
        self.1 = Some(handler);
    }
    /// The bulk handler of the invisible WORK, if any.
    pub fn default_handler(&self) -> Option<DefaultHandler> {
        self.1
    }
}

/// The mechanic that will carry out an order nobody handles yet, for the report.
pub fn pending_mechanic(order: &Order) -> &'static str {
    match order {
        Order::Build { .. } | Order::Target(_) => "building",
        Order::Work => "working for wages",
        Order::Move(_) | Order::March(_) | Order::Caravan(_) | Order::Retreat | Order::Stay => "movement",
        Order::Guard | Order::Patrol => "guarding",
        Order::Attack(_) | Order::Pillage => "combat",
        Order::Buy { .. } | Order::Sell { .. } => "trading at markets",
        Order::Recruit { .. } => "recruiting",
        Order::Merge { .. } | Order::Split { .. } => "merging and splitting units",
        Order::Claim { .. } | Order::Cancel { .. } | Order::Bestow(_) | Order::Yield(_) => "titles",
        Order::Oath(_) => "changing allegiance",
        Order::Christen(_) => "naming structures",
        _ => "this order",
    }
}

/// A handler's view of the world: the unit acting and the day.
pub struct Act<'w> {
    /// The world.
    pub world: &'w mut World,
    /// The unit carrying out the order.
    pub unit: Entity,
    /// The day of the month.
    pub day: u32,
}

impl Act<'_> {
    /// The game's catalogue.
    pub fn catalog(&self) -> &Catalog {
        self.world.resource::<Catalog>()
    }

    /// The unit with id `id`, if it exists.
    pub fn unit_named(&self, id: &str) -> Option<Entity> {
        self.world.resource::<Directory>().get(Kind::Unit, id)
    }

    /// The faction with id `id` (ids compare without case).
    pub fn faction_named(&self, id: &str) -> Option<Entity> {
        let dir = self.world.resource::<Directory>();
        dir.get(Kind::Faction, id).or_else(|| {
            dir.factions
                .iter()
                .copied()
                .find(|&f| self.world.get::<Id>(f).is_some_and(|i| i.0.eq_ignore_ascii_case(id)))
        })
    }

    /// Where unit `u` is, unless it is on a journey.
    pub fn at(&self, u: Entity) -> Option<At> {
        // Only units have `At`.
        let r = self.world.get_entity(u).ok()?;
        let at = r.get::<At>().copied()?;
        (!r.contains::<Journey>()).then_some(at)
    }

    /// Whether unit `u` is on guard today: its full-day order then works as if it
    /// had half its figures, and it cannot work, teach or be taught (GRD-HALF).
    pub fn on_guard(&self, u: Entity) -> bool {
        self.world.get::<crate::systems::overlord::world::components::OnGuard>(u).is_some_and(|g| g.0 == self.day)
    }

    /// The figures unit `u` works with today: all of them, or half (rounded down)
    /// when it is on guard (GRD-HALF).
    pub fn working_figures(&self, u: Entity) -> u32 {
        let n = self.figures(u);
        if self.on_guard(u) { n / 2 } else { n }
    }

    /// Whether unit `other` is in the acting unit's location (structures aside).
    pub fn present(&self, other: Entity) -> bool {
        other != self.unit
            && matches!((self.at(self.unit), self.at(other)), (Some(a), Some(b)) if a.location == b.location)
    }

    /// Whether the acting unit sees `other` in its location. Until stealth and
    /// observation exist, every unit present is seen.
    pub fn sees(&self, other: Entity) -> bool {
        self.present(other)
    }

    /// The faction of unit `u`.
    pub fn faction_of(&self, u: Entity) -> Option<Entity> {
        self.world.get::<Owner>(u).map(|o| o.0)
    }

    /// The rank of the stance faction `of` holds toward faction `toward` (DIP-LEVELS,
    /// DIP-DEFAULT); a faction is its own ally.
    pub fn stance_rank(&self, of: Entity, toward: Entity) -> u32 {
        stance_rank(self.world, of, toward)
    }

    /// The rank of a stance of the rule set by tag or name (`ally`, `friendly`).
    pub fn named_rank(&self, word: &str) -> u32 {
        named_rank(self.world, word)
    }

    /// Whether the faction of unit `of` holds the faction of unit `toward` at least at
    /// stance `level` (`"friendly"`, `"ally"`).
    pub fn holds_at_least(&self, of: Entity, toward: Entity, level: &str) -> bool {
        match (self.faction_of(of), self.faction_of(toward)) {
            (Some(a), Some(b)) => self.stance_rank(a, b) >= self.named_rank(level),
            _ => false,
        }
    }

    /// The kind of unit `u`'s race.
    pub fn race_kind(&self, u: Entity) -> RaceKind {
        let c = self.catalog();
        self.world.get::<Race>(u).map_or(RaceKind::Follower, |r| c.rules.races[r.0.index()].kind)
    }

    /// The figures of unit `u`.
    pub fn figures(&self, u: Entity) -> u32 {
        self.world.get::<Figures>(u).map_or(0, |f| f.0)
    }

    /// The unit `u` is stacked under, if any.
    pub fn leader_of(&self, u: Entity) -> Option<Entity> {
        self.world.get::<StackLeader>(u).and_then(|s| s.0)
    }

    /// Whether `upper` leads `u`, directly or higher up its stack.
    pub fn is_above(&self, upper: Entity, u: Entity) -> bool {
        let mut cur = self.leader_of(u);
        let mut guard = 0;
        while let Some(l) = cur {
            if l == upper {
                return true;
            }
            guard += 1;
            if guard > 10_000 {
                return false;
            }
            cur = self.leader_of(l);
        }
        false
    }

    /// `Name [U12]` of unit `u`, as reports write it.
    pub fn name(&self, u: Entity) -> String {
        label(self.world, u)
    }

    /// Whether the acting unit's routine activity is left out of its report
    /// (SET-SILENT, for the unit or its faction).
    pub fn silent(&self) -> bool {
        let unit = self.world.get::<Unit>(self.unit).is_some_and(|u| u.0.settings.silent);
        let faction =
            self.faction_of(self.unit).and_then(|f| self.world.get::<Faction>(f)).is_some_and(|f| f.0.settings.silent);
        unit || faction
    }

    /// Records an event of unit `u` today.
    pub fn event(&mut self, u: Entity, text: impl Into<String>) {
        let day = self.day;
        if let Some(mut e) = self.world.get_mut::<Events>(u) {
            e.push(day, text);
        }
    }

    /// Records what the acting unit did today (PFX-LOG).
    pub fn log(&mut self, text: impl Into<String>) {
        let u = self.unit;
        self.event(u, text);
    }

    /// Records routine activity, unless the unit is silent (SET-SILENT).
    pub fn routine(&mut self, text: impl Into<String>) {
        if !self.silent() {
            self.log(text);
        }
    }

    /// The order as the template writes it.
    pub fn text(&self, entry: &Entry) -> String {
        entry.written(self.catalog()).to_string()
    }
}

/// The rank of the stance faction `of` holds toward faction `toward` (DIP-LEVELS,
/// DIP-DEFAULT); a faction is its own ally.
pub fn stance_rank(world: &World, of: Entity, toward: Entity) -> u32 {
    let stances = &world.resource::<Catalog>().rules.stances;
    let rank = |word: &str| {
        stances
            .iter()
            .find(|s| s.tag.eq_ignore_ascii_case(word) || s.name.eq_ignore_ascii_case(word))
            .map_or(0, |s| s.rank)
    };
    if of == toward {
        return rank("ally");
    }
    let Some(f) = world.get::<Faction>(of) else { return 0 };
    let id = world.get::<Id>(toward).map(|i| i.0.as_str()).unwrap_or("");
    match f.0.stances.get(id) {
        Some(s) => rank(s),
        None => rank(&f.0.default_stance),
    }
}

/// The rank of a stance of the rule set by tag or name (`ally`, `friendly`); a
/// stance the rule set lacks ranks above all.
pub fn named_rank(world: &World, word: &str) -> u32 {
    let stances = &world.resource::<Catalog>().rules.stances;
    stances
        .iter()
        .find(|s| s.tag.eq_ignore_ascii_case(word) || s.name.eq_ignore_ascii_case(word))
        .map_or(u32::MAX, |s| s.rank)
}

/// `Name [U12]` of entity `e` (a unit, location, faction…), as reports write it.
pub fn label(world: &World, e: Entity) -> String {
    let mut n = world.get::<DisplayName>(e).map(|n| n.0.as_str()).unwrap_or("");
    if n.is_empty()
        && let Some(k) = world.get::<crate::systems::overlord::world::components::StructureKind>(e)
    {
        // An unnamed structure goes by its construction's name.
        n = &world.resource::<Catalog>().rules.constructions.constructions[k.0].name;
    }
    let id = world.get::<Id>(e).map(|i| i.0.as_str()).unwrap_or("");
    format!("{n} [{id}]")
}
