//! The table of what orders do, and the context a handler works in.

use crate::systems::overlord::data::RaceKind;
use crate::systems::overlord::orders::queue::Outcome;
use crate::systems::overlord::orders::syntax::{Entry, Keyword, Order};
use crate::systems::overlord::world::Catalog;
use crate::systems::overlord::world::SkillId;
use crate::systems::overlord::world::components::{
    At, DisplayName, Events, Figures, Id, Inventory, Journey, OnGuard, Owner, Production, Race, StackLeader,
};
use crate::systems::overlord::world::resources::{Directory, Kind};
use bevy_ecs::prelude::*;

/// What an order does: tries it for `act.unit` and says what happened. It may update
/// the order's arguments (a WAIT counting down, a partial BUY).
pub type Handler = fn(&mut Act, &mut Entry) -> Outcome;

/// The handlers of the orders, by [`Order::index`]. Each mechanic's plugin registers
/// the orders it carries out when it is built; [`ORDERS`](super::super::ORDERS) says
/// which mechanic that is, and a test checks the two agree.
#[derive(Resource, Clone)]
pub struct OrderHandlers {
    by_order: Vec<Option<Handler>>,
    default: Option<DefaultHandler>,
    /// Every registration: the order and the registering module.
    registered: Vec<(Keyword, &'static str)>,
}

/// What the invisible default order (PFX-WORK) does for all the units whose
/// full-day slot stayed free today, at once, after the full-day pass. It must not
/// change what other units' orders see that day.
pub type DefaultHandler = fn(&mut World, &[Entity], u32);

impl Default for OrderHandlers {
    fn default() -> Self {
        OrderHandlers { by_order: vec![None; Keyword::ALL.len() + 1], default: None, registered: Vec::new() }
    }
}

impl OrderHandlers {
    /// Registers what the order `keyword` does. `mechanic` is the registering
    /// module's path (`module_path!()`).
    pub fn set(&mut self, mechanic: &'static str, keyword: Keyword, handler: Handler) {
        self.by_order[keyword as usize] = Some(handler);
        self.registered.push((keyword, mechanic));
    }
    /// The handler of the order at `index` ([`Order::index`]).
    pub fn get(&self, index: usize) -> Option<Handler> {
        self.by_order.get(index).copied().flatten()
    }
    /// Every registration, in the order made: the order and the module that made it.
    pub fn registered(&self) -> &[(Keyword, &'static str)] {
        &self.registered
    }
    /// Registers what the invisible WORK does for the units left idle by the
    /// full-day pass, all at once.
    pub fn set_default(&mut self, handler: DefaultHandler) {
        self.default = Some(handler);
    }
    /// The bulk handler of the invisible WORK, if any.
    pub fn default_handler(&self) -> Option<DefaultHandler> {
        self.default
    }
}

/// What an order nobody carries out waits for, for the report: the mechanic the
/// table of orders names (its folder, when its plugin is left out).
pub fn pending_mechanic(order: &Order) -> &'static str {
    match order.kind().map(super::super::owner) {
        Some(super::super::Owner::Pending(what)) => what,
        Some(super::super::Owner::Mechanic(m)) => m,
        None => "this order",
    }
}

/// Whether a unit sees another unit present, on a day of the month: the rule of
/// sight a mechanic installs (the scheduler knows none).
#[derive(Resource, Clone, Copy)]
pub struct Sees(pub fn(&World, Entity, Entity, u32) -> bool);

/// A handler's view of the world: the unit acting and the day.
pub struct Act<'w> {
    /// The world.
    pub world: &'w mut World,
    /// The unit carrying out the order.
    pub unit: Entity,
    /// The day of the month.
    pub day: u32,
    /// The world's catalogue, at hand without a look-up.
    pub catalog: &'w Catalog,
    /// The pass's query of what [`Act::me`] reads, kept by the pass.
    pub look: &'w QueryState<Look>,
    /// Set by [`Act::waits_on_itself`]: the order waits for the unit alone.
    pub(super) self_bound: bool,
}

/// What [`Act::me`] reads of the acting unit: one query, whose every part is
/// optional, so that it matches every entity.
pub type Look = (
    Option<&'static At>,
    Has<Journey>,
    Option<&'static Figures>,
    Option<&'static OnGuard>,
    Option<&'static Production>,
    Option<&'static Inventory>,
);

/// The acting unit as the handlers of everyday work read it ([`Act::me`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Me<'a> {
    /// Where it is; `None` on a journey (as [`Act::at`]).
    pub at: Option<At>,
    /// Its figures (as [`Act::figures`]).
    pub figures: u32,
    /// Whether it is on guard today (as [`Act::on_guard`]).
    pub on_guard: bool,
    /// Its work in progress: the skill and the work done.
    pub production: Option<(SkillId, u32)>,
    /// Its items.
    pub inventory: Option<&'a Inventory>,
}

impl Me<'_> {
    /// The figures it works with today (as [`Act::working_figures`], GRD-HALF).
    pub fn working_figures(&self, catalog: &Catalog) -> u32 {
        if self.on_guard { on_guard_share(catalog, self.figures) } else { self.figures }
    }
}

impl<'w> Act<'w> {
    /// The view of unit `unit` on `day`, for a handler.
    pub fn new(world: &'w mut World, unit: Entity, day: u32, catalog: &'w Catalog, look: &'w QueryState<Look>) -> Self {
        Act { world, unit, day, catalog, look, self_bound: false }
    }

    /// Says, before the handler answers [`Outcome::NotNow`], that the order waits
    /// for a reason only a change of the unit's own orders, race, skills, work in
    /// progress or items can end, whatever the day and whatever else happens in
    /// the world, and that trying it again meanwhile would change nothing (a
    /// craft lacking the inputs of its first batch, SKL-USE-CRAFT). The full-day
    /// pass then leaves the unit's list untried, as the same wait, until one of
    /// them changes (SCH-FULL; the marks are [`Visiting`](super::Visiting)'s).
    pub fn waits_on_itself(&mut self) {
        self.self_bound = true;
    }

    /// The game's catalogue (borrowed apart from the world: it stays at hand while
    /// the world changes).
    pub fn catalog(&self) -> &'w Catalog {
        self.catalog
    }

    /// Whether unit `u` has `req`: the skill at that level or better.
    pub fn meets(&self, u: Entity, req: &crate::systems::overlord::data::SkillLevelReq) -> bool {
        crate::systems::overlord::world::meets_in(self.catalog, self.world, u, req)
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

    /// The acting unit's place, figures, guard, work in progress and items, read
    /// in one look-up of the pass's query ([`Look`]) where separate look-ups
    /// would find the unit and each component's column again. A unit of a kind
    /// of entity made during this step, which the query has not met yet, is read
    /// component by component: the same values.
    pub fn me(&self) -> Me<'_> {
        let day = self.day;
        let read = |at: Option<&At>, moving: bool, figures: Option<&Figures>, guard: Option<&OnGuard>| Me {
            at: at.copied().filter(|_| !moving),
            figures: figures.map_or(0, |f| f.0),
            on_guard: guard.is_some_and(|g| g.0 == day),
            production: None,
            inventory: None,
        };
        if let Ok((at, moving, figures, guard, production, inventory)) = self.look.get_manual(self.world, self.unit) {
            return Me { production: production.and_then(|p| p.0), inventory, ..read(at, moving, figures, guard) };
        }
        let Ok(r) = self.world.get_entity(self.unit) else { return Me::default() };
        Me {
            production: r.get::<Production>().and_then(|p| p.0),
            inventory: r.get::<Inventory>(),
            ..read(r.get::<At>(), r.contains::<Journey>(), r.get::<Figures>(), r.get::<OnGuard>())
        }
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
        self.world.get::<OnGuard>(u).is_some_and(|g| g.0 == self.day)
    }

    /// The figures unit `u` works with today: all of them, or when it is on guard
    /// the rule set's `guard_work_percent` of them, rounded down (GRD-HALF).
    pub fn working_figures(&self, u: Entity) -> u32 {
        let n = self.figures(u);
        if self.on_guard(u) { on_guard_share(self.catalog(), n) } else { n }
    }

    /// Whether unit `other` is in the acting unit's location (structures aside).
    pub fn present(&self, other: Entity) -> bool {
        other != self.unit
            && matches!((self.at(self.unit), self.at(other)), (Some(a), Some(b)) if a.location == b.location)
    }

    /// Whether the acting unit sees `other` in its location: by the [`Sees`] rule
    /// the game installs (stealth against observation), or every unit present.
    pub fn sees(&self, other: Entity) -> bool {
        self.present(other)
            && self.world.get_resource::<Sees>().is_none_or(|s| (s.0)(self.world, self.unit, other, self.day))
    }

    /// The faction of unit `u`.
    pub fn faction_of(&self, u: Entity) -> Option<Entity> {
        self.world.get::<Owner>(u).map(|o| o.0)
    }

    /// The kind of unit `u`'s race.
    pub fn race_kind(&self, u: Entity) -> RaceKind {
        let c = self.catalog();
        self.world.get::<Race>(u).map_or(RaceKind::Follower, |r| c.rules.races[r.0.index()].system.kind)
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
        crate::systems::overlord::world::silent(self.world, self.unit)
    }

    /// Records an event of unit `u` today.
    pub fn event(&mut self, u: Entity, text: impl Into<std::borrow::Cow<'static, str>>) {
        let day = self.day;
        if let Some(mut e) = self.world.get_mut::<Events>(u) {
            e.push(day, text);
        }
    }

    /// Records what the acting unit did today (PFX-LOG).
    pub fn log(&mut self, text: impl Into<std::borrow::Cow<'static, str>>) {
        let u = self.unit;
        self.event(u, text);
    }

    /// Records routine activity, unless the unit is silent (SET-SILENT).
    pub fn routine(&mut self, text: impl Into<std::borrow::Cow<'static, str>>) {
        if !self.silent() {
            self.log(text);
        }
    }

    /// The order as the template writes it.
    pub fn text(&self, entry: &Entry) -> String {
        entry.written(self.catalog()).to_string()
    }
}

/// `Name [U12]` of entity `e` (a unit, location, faction…), as reports write it; an
/// unnamed structure or place goes by its construction's or terrain's name.
pub fn label(world: &World, e: Entity) -> String {
    let mut n = world.get::<DisplayName>(e).map(|n| n.0.as_str()).unwrap_or("");
    if n.is_empty()
        && let Some(k) = world.get::<crate::systems::overlord::world::components::StructureKind>(e)
    {
        // An unnamed structure goes by its construction's name.
        n = &world.resource::<Catalog>().rules.constructions.constructions[k.0].name;
    }
    if n.is_empty()
        && let Some(t) = world.get::<crate::systems::overlord::world::components::Terrain>(e)
    {
        // An unnamed place goes by its terrain's.
        n = &world.resource::<Catalog>().rules.terrains[t.0.index()].name;
    }
    let id = world.get::<Id>(e).map(|i| i.0.as_str()).unwrap_or("");
    // Asked for every unit paid or fed at a month's end: without the formatting
    // machinery.
    let mut out = String::with_capacity(n.len() + id.len() + 3);
    out.push_str(n);
    out.push_str(" [");
    out.push_str(id);
    out.push(']');
    out
}

/// What is left of `n` (figures, a day's gain) for a unit on guard: the rule set's
/// `guard_work_percent`, rounded down (GRD-HALF).
pub fn on_guard_share(catalog: &Catalog, n: u32) -> u32 {
    (u64::from(n) * u64::from(catalog.rules.info.parameters.guard_work_percent) / 100) as u32
}
