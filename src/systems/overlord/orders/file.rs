//! Overlord's order files: the `GAME` section of a mail read with Overlord's
//! grammar — the faction orders before the first `UNIT` (§5), then one block per
//! unit, each order line read by [`super::line`] (FILE-*). The envelope around it
//! (sections, header, articles, report requests) is the core's
//! ([`crate::core::orders::mail`]).

use super::line::{FactionOrder, parse_entry_lenient, parse_faction_order, unit_id};
use super::syntax::{Entry, Order, Vocabulary};
use crate::core::orders::mail::{self, Grammar};

pub use crate::core::orders::mail::{
    Article, ArticleKind, Header, HeaderTarget, Line, OrderError, ReportRequest, parse_header, section_keyword,
};

/// Everything a mail holds, its `GAME` sections read as Overlord order files.
pub type Mail = mail::Mail<OrderFile>;

/// The orders given to one unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitBlock {
    /// The unit id, normalised (`206` and `u206` become `U206`).
    pub unit: String,
    /// Line of the `UNIT` line.
    pub line: usize,
    /// The order lines, at most the rule set's limit.
    pub orders: Vec<OrderLine>,
}

/// One order line of a unit block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderLine {
    /// Line number in the file (1-based).
    pub line: usize,
    /// The text, without comment and surrounding spaces.
    pub text: String,
    /// The entry. A line that cannot be read is kept as an [`Order::Unreadable`]
    /// entry, so that the list keeps its shape; it is removed as invalid when the
    /// list reaches it (PFX-REMOVE).
    pub entry: Entry,
}

impl OrderLine {
    /// Why the line cannot be read, if it cannot.
    pub fn error(&self) -> Option<&str> {
        match &self.entry.order {
            Order::Unreadable { reason, .. } => Some(reason),
            _ => None,
        }
    }
}

/// An order file: the `GAME` section of a mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderFile {
    /// The header.
    pub header: Header,
    /// Orders between the header and the first `UNIT`.
    pub faction_orders: Vec<Line<FactionOrder>>,
    /// One block per unit, in file order.
    pub units: Vec<UnitBlock>,
    /// Things the player should know that did not stop the file being read (lines
    /// that cannot be read are in the blocks, with their reason).
    pub warnings: Vec<OrderError>,
}

impl OrderFile {
    /// Every problem of the file, in line order: warnings and unreadable lines.
    pub fn problems(&self) -> Vec<OrderError> {
        let mut out = self.warnings.clone();
        for l in &self.faction_orders {
            if let Err(m) = &l.read {
                out.push(OrderError { line: l.line, message: m.clone() });
            }
        }
        for b in &self.units {
            for l in &b.orders {
                if let Some(m) = l.error() {
                    out.push(OrderError { line: l.line, message: m.to_string() });
                }
            }
        }
        out.sort_by_key(|e| e.line);
        out
    }
}

/// Normalises a unit id as a player may write it: `206`, `u206` and `U206` all name `U206`.
/// Ids of new units (`f06nU01`) are case-sensitive and kept as written (FILE-CASE).
pub fn normalise_unit_id(word: &str) -> String {
    unit_id(word).unwrap_or_else(|| word.to_string())
}

/// Reads an order file: the first `GAME` section of `text`. Fails only when there is
/// no usable header.
pub fn parse<V: Vocabulary + ?Sized>(text: &str, vocabulary: &V) -> Result<OrderFile, OrderError> {
    let mail = parse_mail(text, vocabulary)?;
    mail.orders.into_iter().next().ok_or_else(|| OrderError {
        line: 0,
        message: "no header line: the orders must start with `GAME faction password`".into(),
    })
}

/// Reads a whole mail with Overlord's grammar. Fails when a section line cannot be
/// read or when the mail has no section at all.
pub fn parse_mail<V: Vocabulary + ?Sized>(text: &str, vocabulary: &V) -> Result<Mail, OrderError> {
    mail::parse_mail(text, &OverlordGrammar { vocabulary })
}

/// Overlord's grammar of a `GAME` section, with a game's vocabulary.
pub struct OverlordGrammar<'v, V: Vocabulary + ?Sized> {
    /// The words of the game's rule set.
    pub vocabulary: &'v V,
}

impl<V: Vocabulary + ?Sized> Grammar for OverlordGrammar<'_, V> {
    type File = OrderFile;

    fn start(&self, header: Header) -> OrderFile {
        OrderFile { header, faction_orders: Vec::new(), units: Vec::new(), warnings: Vec::new() }
    }

    fn line(&self, file: &mut OrderFile, line: usize, text: &str) {
        order_line(file, line, text, self.vocabulary, self.vocabulary.max_orders());
    }

    fn finish(&self, file: &mut OrderFile) {
        file.units.retain(|b| !b.unit.is_empty());
    }
}

fn order_line<V: Vocabulary + ?Sized>(file: &mut OrderFile, line: usize, text: &str, vocabulary: &V, limit: usize) {
    let mut words = text.split_whitespace();
    let first = words.next().unwrap_or("");
    if first.eq_ignore_ascii_case("UNIT") {
        let unit = match (words.next(), words.next()) {
            (Some(id), None) => match unit_id(id) {
                Some(unit) => Some(unit),
                None => {
                    file.warn(line, format!("'{id}' is not a unit id; the orders up to the next UNIT are ignored"));
                    None
                }
            },
            (None, _) => {
                file.warn(line, "UNIT needs a unit id; the orders up to the next UNIT are ignored".into());
                None
            }
            (Some(_), Some(_)) => {
                file.warn(line, "UNIT takes one unit id; the orders up to the next UNIT are ignored".into());
                None
            }
        };
        match unit {
            Some(unit) if file.units.iter().any(|b| b.unit == unit) => {
                file.warn(line, format!("a second block for {unit}: its orders are added to the first"));
                let at = file.units.iter().position(|b| b.unit == unit).expect("found above");
                let block = file.units.remove(at);
                file.units.push(block);
            }
            // A bad UNIT line opens a block with no unit, so that the orders after it
            // do not land in the previous unit's list; it is dropped at the end.
            unit => file.units.push(UnitBlock { unit: unit.unwrap_or_default(), line, orders: Vec::new() }),
        }
        return;
    }
    let Some(block) = file.units.last_mut() else {
        let read = parse_faction_order(text);
        file.faction_orders.push(Line { line, text: text.to_string(), read });
        return;
    };
    if block.unit.is_empty() {
        return;
    }
    if block.orders.len() >= limit {
        let unit = block.unit.clone();
        file.warn(line, format!("unit {unit} already has {limit} orders; this one is ignored"));
        return;
    }
    let (mut entry, _) = parse_entry_lenient(text, vocabulary);
    if matches!(entry.order, Order::Retreat) && !block.orders.is_empty() {
        // PFX-RETREAT1, ORD-RETREAT.
        let reason = "RETREAT must be the first order of the unit's list".to_string();
        entry.order = Order::Unreadable { text: "RETREAT".into(), reason };
    }
    block.orders.push(OrderLine { line, text: text.to_string(), entry });
}

impl OrderFile {
    fn warn(&mut self, line: usize, message: String) {
        self.warnings.push(OrderError { line, message });
    }
}
