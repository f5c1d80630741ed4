//! The text report, in the layout of the rules' sample report, and the order template.

use super::model::*;
use crate::core::data::FastMap;
use crate::put;
use crate::systems::overlord::world::ids::Catalog;
use std::fmt::Write;

pub use crate::systems::overlord::data::ordinal;
use crate::systems::overlord::data::ordinal_suffix;

fn item_name<'a>(c: &Catalog, tag: &'a str, count: u64) -> &'a str {
    c.item(tag).map_or(tag, |i| c.item_name_for(i, count))
}

fn race_name<'a>(c: &Catalog, tag: &'a str, count: u32) -> &'a str {
    c.race(tag).map_or(tag, |r| c.race_name_for(r, u64::from(count)))
}

fn skill_name<'a>(c: &'a Catalog, tag: &'a str) -> &'a str {
    c.skill(tag).map_or(tag, |s| c.rules.skills[s.index()].name.as_str())
}

fn terrain_name<'a>(c: &'a Catalog, tag: &'a str) -> &'a str {
    c.terrain(tag).map_or(tag, |t| c.rules.terrains[t.index()].name.as_str())
}

/// "3 swords [swrd] (2 equipped), 10 coins [coin]", or "nothing".
fn goods(o: &mut String, c: &Catalog, items: &TagMap<ItemRecord>) {
    if items.is_empty() {
        o.push_str("nothing");
    }
    for (i, (tag, r)) in items.iter().enumerate() {
        if i > 0 {
            o.push_str(", ");
        }
        put!(o, r.count, ' ', item_name(c, tag, u64::from(r.count)), " [", tag, ']');
        if r.equipped > 0 {
            put!(o, " (", r.equipped, " equipped)");
        }
    }
}

/// "Diplomacy: default Neutral [neutral]." and the stances, explicit and learnt
/// (RPT-DIPLO, DIP-PRIVATE).
fn diplomacy_lines(o: &mut String, c: &Catalog, d: &DiplomacyRecord) {
    let name = |tag: &str| c.rules.stances.iter().find(|x| x.tag == tag).map_or(tag.to_string(), |x| x.name.clone());
    if d.default.is_empty() && d.stances.is_empty() && d.toward_us.is_empty() {
        return;
    }
    o.push_str("Diplomacy:");
    if !d.default.is_empty() {
        let _ = write!(o, " default {} [{}].", name(&d.default), d.default);
    }
    o.push('\n');
    let list = |o: &mut String, head: &str, m: &TagMap<String>| {
        if m.is_empty() {
            return;
        }
        let _ = write!(o, "  {head}");
        for (i, (f, s)) in m.iter().enumerate() {
            let _ = write!(o, "{}[{f}] {} [{s}]", if i > 0 { ", " } else { " " }, name(s));
        }
        o.push_str(".\n");
    };
    list(o, "Toward:", &d.stances);
    list(o, "Toward you, as guards showed:", &d.toward_us);
}

/// The names of the places a report lists, to write `Name [id]` for an id.
pub(super) struct Places<'a>(FastMap<&'a str, &'a str>);

impl<'a> Places<'a> {
    /// The places of `r`.
    pub(super) fn of(r: &'a FactionReport) -> Self {
        Places(r.locations.iter().map(|l| (l.id.as_str(), l.name.as_str())).collect())
    }

    /// `Name [id]`, or `[id]` for a place the report does not name.
    pub(super) fn write(&self, o: &mut String, id: &str) {
        match self.0.get(id) {
            Some(n) if !n.is_empty() => put!(o, n, " [", id, ']'),
            _ => put!(o, '[', id, ']'),
        }
    }
}

/// Renders a report as text, ending with its order template
/// ([`crate::core::template`]). Names come from the rule set; the model gives the
/// rest.
pub fn render(r: &FactionReport, c: &Catalog) -> String {
    let orders_template = template(r);
    // About 650 bytes per unit, 420 per location and 100 per unit seen there,
    // besides the template (fitted on generated and imported worlds).
    let guess = 2048 + 650 * r.units.len() + 420 * r.locations.len() + 100 * r.units_seen();
    let mut o = String::with_capacity(guess + orders_template.len());
    let places = Places::of(r);
    head(&mut o, r, c);
    if !r.events.is_empty() {
        o.push_str("\nEvents:\n");
        for e in &r.events {
            day_line(&mut o, e.day, &e.text);
        }
    }
    o.push_str("\nUnits:\n");
    if r.units.is_empty() {
        o.push_str("  none.\n");
    }
    for u in &r.units {
        unit(&mut o, u, c, &places);
    }
    if !r.departed.is_empty() {
        o.push_str("\nUnits that left the faction this month:\n");
    }
    for u in &r.departed {
        departed(&mut o, u, c, &places);
    }
    o.push_str("\nLocations:\n");
    for l in &r.locations {
        location(&mut o, l, c, &places);
    }
    if !r.passed.is_empty() {
        o.push_str("\nPlaces passed through this month:\n");
        for l in &r.passed {
            passed(&mut o, l, c, &places);
        }
    }
    if !r.structures.is_empty() {
        o.push_str("\nStructures and vessels:\n");
        for s in &r.structures {
            structure_line(&mut o, c, s, true);
        }
    }
    super::battle::render(&mut o, &r.battles, c);
    knowledge_lines(&mut o, &r.knowledge);
    crate::core::template::append(&mut o, &orders_template);
    o
}

/// The report's head: the game, the faction, its control points, taxes, titles,
/// diplomacy and funds.
pub(super) fn head(o: &mut String, r: &FactionReport, c: &Catalog) {
    let f = &r.faction;
    put!(o, r.game, " Report for Turn ", r.turn, " for ", f.name, " [", f.id, ']');
    if !f.email.is_empty() {
        put!(o, ", ", f.email);
    }
    o.push('\n');
    if !r.month.is_empty() {
        put!(o, "Month: ", r.month);
        if !r.season.is_empty() {
            put!(o, " (", r.season, ')');
        }
        if !r.next_month.is_empty() {
            put!(o, "; next: ", r.next_month);
            if !r.next_season.is_empty() {
                put!(o, " (", r.next_season, ')');
            }
        }
        o.push('\n');
    }
    if !r.deadline.is_empty() {
        put!(o, "Next turn: ", r.deadline, '\n');
    }
    put!(o, "Control points: ", f.control.used, " of ", f.control.max, ".\n");
    if f.taxes > 0
        && let Some(m) = c.money()
    {
        let tag = c.item_tag(m);
        put!(o, "Taxes this month: ", f.taxes, ' ', item_name(c, tag, f.taxes), " [", tag, "].\n");
    }
    if !f.titles.is_empty() {
        o.push_str("Titles:\n");
        for t in &f.titles {
            put!(o, "  ", t.name, " [", t.tag, "] of ", t.location_name, " [", t.location, "], held by ");
            put!(o, t.holder_name, " [", t.holder, "].\n");
        }
    }
    diplomacy_lines(o, c, &f.diplomacy);
    o.push_str("\nFaction funds:\n");
    if f.funds.is_empty() {
        o.push_str("  none.\n");
    }
    for (tag, n) in &f.funds {
        put!(o, "  ", n, ' ', item_name(c, tag, *n), " [", tag, "].\n");
    }
}

/// One of the faction's units: where it is, what it has and knows, its journey and
/// its actions.
pub(super) fn unit(o: &mut String, u: &UnitRecord, c: &Catalog, places: &Places) {
    put!(o, u.name, " [", u.id, "] at ");
    places.write(o, &u.location);
    if let Some(s) = &u.structure {
        put!(o, ", in [", s, ']');
    }
    if let Some(l) = &u.stack_leader {
        put!(o, ", stacked under [", l, ']');
    }
    o.push_str(",\n");
    put!(o, "  ", u.figures, ' ', race_name(c, &u.race, u.figures), " [", u.race, "] has: ");
    goods(o, c, &u.items);
    o.push_str(".\n  ");
    weight_line(o, c, u);
    o.push('\n');
    skills_line(o, c, &u.skills);
    o.push_str("  ");
    stats_line(o, c, &u.stats);
    o.push('\n');
    magic_lines(o, c, u);
    if let Some(j) = &u.journey {
        let _ = write!(o, "  On the way from ");
        places.write(o, &j.from);
        o.push_str(" to ");
        places.write(o, &j.to);
        let mode = c.rules.movement.modes.iter().find(|m| m.tag == j.mode).map_or(j.mode.as_str(), |m| &m.name);
        let what = match j.kind.as_str() {
            "march" => "marching, ",
            "retreat" => "retreating, ",
            _ => "",
        };
        let _ = writeln!(o, ", {what}{mode}: day {} of {}.", j.elapsed, j.days);
    }
    if !u.events.is_empty() {
        put!(o, u.name, " [", u.id, "]'s actions:\n");
        for e in &u.events {
            day_line(o, e.day, &e.text);
        }
    }
}

/// A unit that left the faction this month, as it was when it left.
pub(super) fn departed(o: &mut String, u: &DepartedRecord, c: &Catalog, places: &Places) {
    let _ = write!(o, "{} [{}]", u.name, u.id);
    if let Some(l) = &u.location {
        o.push_str(", last at ");
        places.write(o, l);
    }
    let _ = writeln!(o, ", on day {}:", u.day);
    let _ = write!(o, "  {} {} [{}] had: ", u.figures, race_name(c, &u.race, u.figures), u.race);
    goods(o, c, &u.items);
    o.push_str(".\n");
    skills_line(o, c, &u.skills);
    if !u.events.is_empty() {
        let _ = writeln!(o, "{} [{}]'s actions:", u.name, u.id);
        for e in &u.events {
            day_line(o, e.day, &e.text);
        }
    }
}

/// A place's first lines: name, terrain, where it lies, the days there.
#[allow(clippy::too_many_arguments)]
fn place_head(
    o: &mut String,
    c: &Catalog,
    places: &Places,
    name: &str,
    id: &str,
    terrain: &str,
    container: Option<&str>,
    days: &[[u32; 2]],
) {
    put!(o, '\n', name, " [", id, "], ", terrain_name(c, terrain), " [", terrain, ']');
    if let Some(cont) = container {
        o.push_str(", located in ");
        places.write(o, cont);
    }
    o.push_str(".\n");
    days_here(o, days);
}

/// A location where the faction has units: what it holds, its market, its
/// weather, its exits, the units and structures seen there.
pub(super) fn location<'a>(o: &mut String, l: &'a LocationRecord, c: &'a Catalog, places: &Places) {
    place_head(o, c, places, &l.name, &l.id, &l.terrain, l.container.as_deref(), &l.days);
    put!(o, "  Population: ", l.population, '.');
    if l.wages > 0 {
        put!(o, " Wages: ", l.wages, '.');
    }
    if l.taxes > 0 {
        put!(o, " Taxes: ", l.taxes, '.');
    }
    o.push('\n');
    for t in &l.titles {
        match (&t.holder, &t.faction) {
            (Some(h), Some(f)) => {
                let _ = writeln!(o, "  Title: {} [{}], held by {h} of [{f}].", t.name, t.tag);
            }
            (Some(h), None) => {
                let _ = writeln!(o, "  Title: {} [{}], held by {h}.", t.name, t.tag);
            }
            _ => {
                let _ = writeln!(o, "  Title: {} [{}], unclaimed.", t.name, t.tag);
            }
        }
    }
    if let Some(f) = &l.owner {
        let _ = writeln!(o, "  Owned by [{f}].");
    }
    if let Some(p) = &l.policy {
        let _ = writeln!(o, "  Policy: {p}.");
    }
    if let Some(f) = &l.occupier {
        let _ = writeln!(o, "  Occupied by [{f}].");
    }
    for (title, list) in [("For hire", &l.recruits), ("For sale", &l.for_sale), ("Buying", &l.buying)] {
        listed(o, title, list, |o, x| put!(o, x.count, ' ', x.name, " [", x.tag, "] at ", x.price.unwrap_or(0)));
    }
    listed(o, "Market days", &l.market_days, |o, &d| put!(o, d, ordinal_suffix(d)));
    listed(o, "Teaches", l.teaches.iter(), |o, (tag, &level)| {
        put!(o, level, ordinal_suffix(level), ' ', skill_name(c, tag), " [", tag, ']');
    });
    listed(o, "Resources", &l.resources, |o, x| put!(o, x.count, ' ', x.name, " [", x.tag, ']'));
    if !l.enchantments.is_empty() {
        let _ = writeln!(o, "  Enchantments: {}.", enchantments_text(c, &l.enchantments));
    }
    let wx = |t: &'a str| c.rules.climate.weathers.iter().find(|w| w.tag == t).map_or(t, |w| w.name.as_str());
    match (&l.weather, &l.forecast) {
        (Some(w), Some(f)) => put!(o, "  Weather: ", wx(w), " last month; forecast: ", wx(f), ".\n"),
        (None, Some(f)) => put!(o, "  Weather: ", wx(f), ".\n"),
        (Some(w), None) => put!(o, "  Weather: ", wx(w), " last month.\n"),
        (None, None) => {}
    }
    if !l.exits.is_empty() {
        o.push_str(
            "  Exits:
",
        );
        for x in &l.exits {
            put!(o, "    ", x.dir, " to ", x.to_name, " [", x.to, "]: ");
            if x.days.is_empty() {
                o.push_str("impassable.\n");
                continue;
            }
            // Modes in the rule set's order.
            let mut first = true;
            for (i, m) in c.rules.movement.modes.iter().enumerate() {
                if let Some(d) = x.days.get(c.mode_tag(i)) {
                    put!(o, if first { "" } else { ", " }, m.name, ' ', d);
                    first = false;
                }
            }
            o.push_str(" days.\n");
        }
    }
    let depth = stack_depths(&l.units);
    for (s, d) in l.units.iter().zip(depth) {
        let mark = if s.own {
            '*'
        } else if s.faction.is_some() {
            '+'
        } else {
            '-'
        };
        o.push_str("  ");
        for _ in 0..d {
            o.push_str("  ");
        }
        put!(
            o,
            mark,
            ' ',
            s.name,
            " [",
            s.id,
            "], ",
            s.figures,
            ' ',
            race_name(c, &s.race, s.figures),
            " [",
            s.race,
            ']'
        );
        if let Some(fid) = &s.faction {
            put!(o, ", of [", fid, ']');
        }
        if let Some(st) = &s.structure {
            put!(o, ", in [", st, ']');
        }
        if s.moving {
            o.push_str(", travelling");
        }
        for (k, (tag, &n)) in s.items.iter().enumerate() {
            let name = item_name(c, tag, u64::from(n));
            put!(o, if k == 0 { ", with " } else { ", " }, n, ' ', name, " [", tag, ']');
        }
        if let Some(st) = &s.guard_stance {
            let name = c.rules.stances.iter().find(|x| x.tag == *st).map_or(st.as_str(), |x| &x.name);
            put!(o, ", on guard, ", name, " to you");
        }
        o.push_str(".\n");
    }
    for s in &l.structures {
        o.push_str("  ");
        structure_line(o, c, s, false);
    }
}

/// A place passed through: its head and its exits.
pub(super) fn passed(o: &mut String, l: &PassedRecord, c: &Catalog, places: &Places) {
    place_head(o, c, places, &l.name, &l.id, &l.terrain, l.container.as_deref(), &l.days);
    listed(o, "Exits", &l.exits, |o, x| put!(o, x.dir, " to ", x.to_name, " [", x.to, ']'));
}

/// `  Label: a, b, c.` and a new line, each part written by `each`; nothing for no
/// parts.
fn listed<I: IntoIterator>(o: &mut String, label: &str, parts: I, mut each: impl FnMut(&mut String, I::Item)) {
    let mut parts = parts.into_iter().peekable();
    if parts.peek().is_none() {
        return;
    }
    put!(o, "  ", label, ": ");
    for (k, x) in parts.enumerate() {
        if k > 0 {
            o.push_str(", ");
        }
        each(o, x);
    }
    o.push_str(".\n");
}

/// RPT-KNOW: "New knowledge:" then "Knowledge shown again:", each by kind, one
/// record a line: `1st combat [cmbt]: The basic combat skill. …`.
pub(super) fn knowledge_lines(o: &mut String, list: &[KnowledgeRecord]) {
    for (again, head) in [(false, "New knowledge"), (true, "Knowledge shown again")] {
        let mut kind = "";
        for k in list.iter().filter(|k| k.again == again) {
            if kind.is_empty() {
                put!(o, '\n', head, ":\n");
            }
            if k.kind != kind {
                kind = &k.kind;
                let title = match kind {
                    "item" => "Items",
                    "skill" => "Skills",
                    "race" => "Races",
                    "structure" => "Structures",
                    _ => "Enchantments",
                };
                put!(o, "  ", title, ":\n");
            }
            o.push_str("    ");
            if let Some(l) = k.level {
                put!(o, l, ordinal_suffix(l), ' ');
            }
            put!(o, k.name, " [", k.tag, ']');
            if k.text.is_empty() {
                o.push_str(".\n");
            } else {
                put!(o, ": ", k.text, '\n');
            }
        }
    }
}

/// `»» Fishing Eagle [B2], fishing boat [fshi], vessel, of [f01], at [L4]; missing:
/// 50 wood structure works.`
pub(super) fn structure_line(o: &mut String, c: &Catalog, s: &StructureRecord, with_place: bool) {
    let kind = c.construction(&s.kind).map_or(s.kind.as_str(), |k| &c.rules.constructions.constructions[k].name);
    let _ = write!(o, "»» {} [{}], {kind} [{}]", s.name, s.id, s.kind);
    if s.vessel {
        o.push_str(", vessel");
    }
    if let Some(f) = &s.owner {
        let _ = write!(o, ", of [{f}]");
    }
    if with_place {
        let _ = write!(o, ", at [{}]", s.location);
    }
    if !s.missing.is_empty() {
        o.push_str("; missing: ");
        for (i, (w, n)) in s.missing.iter().enumerate() {
            let work = c.rules.constructions.works.iter().find(|x| x.tag == *w);
            let name = work.map_or(w, |x| if *n == 1 || x.plural.is_empty() { &x.name } else { &x.plural });
            let _ = write!(o, "{}{n} {name}", if i == 0 { "" } else { ", " });
        }
    }
    if !s.enchantments.is_empty() {
        let _ = write!(o, "; enchantments: {}", enchantments_text(c, &s.enchantments));
    }
    for (k, u) in s.contents.iter().enumerate() {
        put!(o, if k == 0 { "; inside: [" } else { ", [" }, u, ']');
    }
    if let Some(load) = s.load {
        let _ = write!(o, "; load {load}");
        let mut first = true;
        for (i, m) in c.rules.movement.modes.iter().enumerate() {
            if let Some(n) = s.capacity.get(c.mode_tag(i)) {
                let _ = write!(o, "{}{} {n}", if first { ", capacity: " } else { ", " }, m.name);
                first = false;
            }
        }
    }
    o.push_str(".\n");
}

/// How deep each unit is in its stack, among the units listed (a leader is 0, the
/// units it leads 1, …).
fn stack_depths(units: &[SeenUnit]) -> Vec<usize> {
    let leader: FastMap<&str, &str> =
        units.iter().filter_map(|u| u.stack_leader.as_deref().map(|l| (u.id.as_str(), l))).collect();
    units
        .iter()
        .map(|u| {
            let mut d = 0;
            let mut cur = u.id.as_str();
            while let Some(&l) = leader.get(cur) {
                d += 1;
                cur = l;
                if d > units.len() {
                    break;
                }
            }
            d
        })
        .collect()
}

/// The order template: the faction's units with their pending orders, in the order
/// file syntax, ready to edit and send back (RPT-TEMPLATE).
pub fn template(r: &FactionReport) -> String {
    let mut o =
        String::with_capacity(64 + r.units.iter().map(|u| 32 + u.name.len() + 24 * u.orders.len()).sum::<usize>());
    let f = &r.faction;
    // The password is never written: the player writes it in place of the placeholder.
    put!(&mut o, "GAME ", f.id, ' ', crate::core::secret::PLACEHOLDER, ' ', r.game, '\n');
    for u in &r.units {
        put!(&mut o, "\nUNIT ", u.id, "  # ");
        if u.name.contains('#') {
            o.push_str(&u.name.replace('#', ""));
        } else {
            o.push_str(&u.name);
        }
        o.push('\n');
        for order in &u.orders {
            put!(&mut o, order, '\n');
        }
    }
    o.push_str("\nEND\n");
    o
}

/// "  Day 12 - text", or "  Before day 1 - text" for events of the month's start.
/// "  Skills: 1st combat [cmbt] (30), …." when there are any.
fn skills_line(o: &mut String, c: &Catalog, skills: &TagMap<SkillRecord>) {
    if skills.is_empty() {
        return;
    }
    o.push_str("  Skills: ");
    for (i, (tag, s)) in skills.iter().enumerate() {
        if i > 0 {
            o.push_str(", ");
        }
        let name = skill_name(c, tag);
        if s.level > 0 {
            put!(o, s.level, crate::systems::overlord::data::ordinal_suffix(s.level), ' ');
        }
        put!(o, name, " [", tag, "] (", s.days, ')');
    }
    o.push_str(".\n");
}

/// `  Here on days 1-3, 12, 20-30.`: when the faction's units were at a place.
fn days_here(o: &mut String, days: &[[u32; 2]]) {
    if days.is_empty() {
        return;
    }
    let word = if days.len() == 1 && days[0][0] == days[0][1] { "day" } else { "days" };
    put!(o, "  Here on ", word, ' ');
    for (k, &[a, b]) in days.iter().enumerate() {
        put!(o, if k == 0 { "" } else { ", " }, a);
        if a != b {
            put!(o, '-', b);
        }
    }
    o.push_str(".\n");
}

pub(super) fn day_line(o: &mut String, day: u32, text: &str) {
    if day == 0 {
        put!(o, "  Before day 1 - ", text, '\n');
    } else {
        put!(o, "  Day ", day, " - ", text, '\n');
    }
}

/// "Weight 480. Capacity 591, riding 515." as in the rules' sample report: the first
/// movement mode is the plain capacity, the others are named when not zero.
fn weight_line(s: &mut String, c: &Catalog, u: &UnitRecord) {
    put!(s, "Weight ", u.weight, '.');
    let modes = &c.rules.movement.modes;
    if !modes.is_empty() {
        put!(s, " Capacity ", u.capacity.get(c.mode_tag(0)).copied().unwrap_or(0));
        for (i, m) in modes.iter().enumerate().skip(1) {
            if let Some(&n) = u.capacity.get(c.mode_tag(i)).filter(|&&n| n > 0) {
                put!(s, ", ", m.name, ' ', n);
            }
        }
        s.push('.');
    }
}

/// "  Mana: 2 of 3." for a unit with mana or a maximum of it (MAG-MAXMANA), and
/// "  Enchantments: 3 days of swimming [effswim], happiness [effhapy] (permanent)."
/// (ITM-ENCH).
fn magic_lines(o: &mut String, c: &Catalog, u: &UnitRecord) {
    let have = c.mana().map_or(0, |m| u.items.get(&c.rules.items[m.index()].tag).map_or(0, |i| i.count));
    if have > 0 || u.stats.mana > 0 {
        put!(o, "  Mana: ", have, " of ", u.stats.mana.max(0), ".\n");
    }
    if !u.enchantments.is_empty() {
        let _ = writeln!(o, "  Enchantments: {}.", enchantments_text(c, &u.enchantments));
    }
}

/// "3 days of swimming [effswim], happiness [effhapy] (permanent)" (ITM-ENCH).
fn enchantments_text(c: &Catalog, list: &TagMap<u32>) -> String {
    let permanent = c.rules.info.parameters.permanent_effect_days;
    let mut o = String::new();
    for (i, (tag, &days)) in list.iter().enumerate() {
        let e = c.rules.enchantments.enchantments.iter().find(|e| e.tag == *tag);
        let (one, many) = e.map_or((tag, tag), |e| {
            (e.name.as_str(), if e.plural.is_empty() { e.name.as_str() } else { e.plural.as_str() })
        });
        let sep = if i > 0 { ", " } else { "" };
        let _ = if permanent > 0 && days >= permanent {
            write!(o, "{sep}{one} [{tag}] (permanent)")
        } else {
            write!(o, "{sep}{days} {} [{tag}]", if days == 1 { one } else { many })
        };
    }
    o
}

/// "Stats: init: 2, att: 1, def: 1, dmg: 1, life: 4, CP: 2, obs: 4.  Upkeep: 22
/// coins." (UNIT-STATS): values that differ from the default, control points always.
fn stats_line(o: &mut String, c: &Catalog, s: &StatsRecord) {
    let d = &c.rules.info.parameters.default_stats;
    // Control points are always shown (i32::MIN never equals a value).
    let all = [
        ("init", s.initiative, d.initiative),
        ("att", s.melee, d.melee),
        ("mis", s.missile, d.missile),
        ("def", s.defense, d.defense),
        ("dmg", s.damage, d.damage),
        ("rng", s.ranged_damage, d.ranged_damage),
        ("life", s.life, d.life),
        ("hit", s.hits, d.hits),
        ("CP", s.control, i32::MIN),
        ("ste", s.stealth, d.stealth),
        ("obs", s.observation, d.observation),
        ("mana", s.mana, d.mana),
    ];
    o.push_str("Stats: ");
    for (i, (l, v, _)) in all.iter().filter(|(_, v, d)| v != d).enumerate() {
        put!(o, if i > 0 { ", " } else { "" }, l, ": ", v);
    }
    let money = match c.money() {
        Some(m) => c.item_name_for(m, s.upkeep.max(0) as u64),
        None => "",
    };
    put!(o, ".  Upkeep: ", s.upkeep, ' ', money, '.');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].into_iter().map(ordinal).collect();
        assert_eq!(got, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]);
    }
}
