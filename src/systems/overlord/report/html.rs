//! The HTML report: a faction's report as one self-contained page
//! ([`crate::core::html`]), made from the stored JSON report when asked
//! (`overlord report --html`, the mail, `overlord serve`).
//!
//! It says what the text report says, in the same words (the text renderer writes
//! each part), cut into sections a reader can jump between: the faction, the map,
//! events, units, places, structures, battles, knowledge and the order template.
//! Each unit, place and structure is an anchor, and every `[id]` naming one on the
//! page links to it.

use super::model::FactionReport;
use super::text::{self, Places};
use crate::core::html::{Page, Section, anchor, article, map_block, text_block};
use crate::systems::overlord::world::Catalog;
use std::collections::BTreeSet;

/// The page of report `r`, with the faction's map `map` (SVG) when given.
pub fn render(r: &FactionReport, c: &Catalog, map: Option<&str>) -> String {
    let places = Places::of(r);
    // Everything the page has an anchor for.
    let mut anchors: BTreeSet<String> = BTreeSet::new();
    anchors.extend(r.units.iter().map(|u| u.id.clone()));
    anchors.extend(r.departed.iter().map(|u| u.id.clone()));
    anchors.extend(r.locations.iter().map(|l| l.id.clone()));
    anchors.extend(r.passed.iter().map(|l| l.id.clone()));
    anchors.extend(r.structures.iter().map(|s| s.id.clone()));
    let block = |write: &dyn Fn(&mut String)| {
        let mut o = String::new();
        write(&mut o);
        text_block(o.trim_start_matches('\n'), &anchors)
    };
    let mut sections = Vec::new();
    let mut add = |id: &str, heading: &str, body: String| {
        sections.push(Section { id: id.into(), heading: heading.into(), body });
    };
    add("faction", "Faction", block(&|o| text::head(o, r, c)));
    if let Some(svg) = map {
        add("map", "Map", map_block(svg));
    }
    if !r.events.is_empty() {
        add(
            "events",
            "Events",
            block(&|o| {
                for e in &r.events {
                    text::day_line(o, e.day, &e.text);
                }
            }),
        );
    }
    let named = |id: &str, name: &str| (anchor(id), format!("{name} [{id}]"));
    let mut units = articles(&r.units, |u| (named(&u.id, &u.name), block(&|o| text::unit(o, u, c, &places))));
    if r.units.is_empty() {
        units.push_str("<p>None.</p>\n");
    }
    add("units", "Units", units);
    if !r.departed.is_empty() {
        let list = articles(&r.departed, |u| (named(&u.id, &u.name), block(&|o| text::departed(o, u, c, &places))));
        add("departed", "Units that left", list);
    }
    let list = articles(&r.locations, |l| (named(&l.id, &l.name), block(&|o| text::location(o, l, c, &places))));
    add("locations", "Locations", list);
    if !r.passed.is_empty() {
        let list = articles(&r.passed, |l| (named(&l.id, &l.name), block(&|o| text::passed(o, l, c, &places))));
        add("passed", "Passed through", list);
    }
    if !r.structures.is_empty() {
        let list =
            articles(&r.structures, |s| (named(&s.id, &s.name), block(&|o| text::structure_line(o, c, s, true))));
        add("structures", "Structures", list);
    }
    if !r.battles.is_empty() {
        let mut k = 0;
        let list = articles(&r.battles, |b| {
            k += 1;
            let head = (format!("battle-{k}"), format!("{}, day {}", b.location_name, b.day));
            (head, block(&|o| super::battle::render_one(o, b, c)))
        });
        add("battles", "Battles", list);
    }
    if !r.knowledge.is_empty() {
        add("knowledge", "Knowledge", block(&|o| text::knowledge_lines(o, &r.knowledge)));
    }
    add("orders", "Orders template", text_block(&text::template(r), &BTreeSet::new()));
    let f = &r.faction;
    Page { title: format!("{} Report for Turn {} for {} [{}]", r.game, r.turn, f.name, f.id), sections }.render()
}

/// An `<article>` for each of `list`: its anchor and heading, and its body.
fn articles<T>(list: &[T], mut entry: impl FnMut(&T) -> ((String, String), String)) -> String {
    let mut o = String::new();
    for x in list {
        let ((id, heading), body) = entry(x);
        o.push_str(&article(&id, &heading, &body));
    }
    o
}

/// The page of the stored JSON report `json`; an error says why it cannot be read.
pub fn from_json(json: &str, c: &Catalog, map: Option<&str>) -> Result<String, String> {
    let r: FactionReport = serde_json::from_str(json).map_err(|e| format!("the JSON report cannot be read: {e}"))?;
    Ok(render(&r, c, map))
}
