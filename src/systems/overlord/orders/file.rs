//! Mails and order files: header, faction block, unit blocks, articles, report
//! requests.
//!
//! A mail holds one or more *sections*, each opened by a keyword line written with or
//! without a leading `#` (RULINGS §1):
//!
//! * `GAME faction password [turn|game]` — orders, up to `END`;
//! * `PRESS faction password [game]` / `RUMOR faction password [game]` — an article
//!   for the newspaper, up to `END` (PRS-PRESS, PRS-RUMOR);
//! * `REPORT faction password turn` — asks for a stored report again (RPC-REPORT).
//!
//! Lines before the first section are ignored (FILE-HEAD). After an `END`, lines are
//! ignored until the next section keyword (FILE-END; several articles may share a
//! mail, PRS-MULTI).

use super::line::{FactionOrder, parse_entry_lenient, parse_faction_order, strip_comment, unit_id};
use super::syntax::{Entry, Order, Vocabulary};

/// What the third word of the header names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderTarget {
    /// Nothing: the orders are for the next turn.
    Next,
    /// A number: the turn the orders are for.
    Turn(u32),
    /// Any other word: the game's name, which must match.
    Game(String),
}

/// The header line: `GAME faction password [turn|game]`, with or without a leading `#`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The faction id, as written.
    pub faction: String,
    /// The password, as written (case-sensitive).
    pub password: String,
    /// The optional third word.
    pub target: HeaderTarget,
    /// Line number of the header (1-based).
    pub line: usize,
}

/// One line of an order file, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<T> {
    /// Line number in the file (1-based).
    pub line: usize,
    /// The text, without comment and surrounding spaces.
    pub text: String,
    /// What it says, or why it cannot be read.
    pub read: Result<T, String>,
}

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

/// A problem found in an order file, at a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderError {
    /// Line number (1-based; 0 for the file as a whole).
    pub line: usize,
    /// What is wrong, for the player.
    pub message: String,
}

impl std::fmt::Display for OrderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 { write!(f, "line {}: {}", self.line, self.message) } else { f.write_str(&self.message) }
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

/// Kinds of newspaper article.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArticleKind {
    /// Signed with the faction's name and id (PRS-PRESS).
    Press,
    /// Unsigned (PRS-RUMOR).
    Rumor,
}

/// A newspaper article.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Article {
    /// Press or rumour.
    pub kind: ArticleKind,
    /// The author's faction id.
    pub faction: String,
    /// The password given.
    pub password: String,
    /// The game name, if given.
    pub game: Option<String>,
    /// Line of the `PRESS`/`RUMOR` line.
    pub line: usize,
    /// The text, lines joined with newlines, without comments removed.
    pub text: String,
}

/// `REPORT faction password turn`: a stored report asked for again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRequest {
    /// The faction id.
    pub faction: String,
    /// The password given.
    pub password: String,
    /// The turn asked for; none: the last one.
    pub turn: Option<u32>,
    /// Line of the request.
    pub line: usize,
}

/// Everything a mail holds.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Mail {
    /// Order files (`GAME` sections), usually one.
    pub orders: Vec<OrderFile>,
    /// Articles.
    pub articles: Vec<Article>,
    /// Report requests.
    pub reports: Vec<ReportRequest>,
}

/// The section keywords, which may carry a `#` (RULINGS §1).
const SECTION_WORDS: [&str; 5] = ["GAME", "END", "PRESS", "RUMOR", "REPORT"];

/// Splits off a leading section keyword: returns it (upper-case) and the rest of the line.
fn keyword(line: &str) -> Option<(&'static str, &str)> {
    let t = line.trim_start();
    let body = t.strip_prefix('#').unwrap_or(t);
    let end = body.find(char::is_whitespace).unwrap_or(body.len());
    let word = &body[..end];
    SECTION_WORDS.iter().find(|k| k.eq_ignore_ascii_case(word)).map(|k| (*k, &body[end..]))
}

/// The section keyword a line starts with (`GAME`, `END`, `PRESS`, `RUMOR`,
/// `REPORT`; with or without `#`), upper-case.
pub fn section_keyword(line: &str) -> Option<&'static str> {
    keyword(line).map(|(k, _)| k)
}

/// The words of a section line, with `what` named in errors.
fn section_words<'a>(line: usize, rest: &'a str, what: &str) -> Result<Vec<&'a str>, OrderError> {
    let words: Vec<&str> = strip_comment(rest).split_whitespace().collect();
    let err = |m: String| Err(OrderError { line, message: m });
    match words.len() {
        0 => err(format!("the {what} line needs a faction id and a password: `{what} faction password`")),
        1 => err(format!("the {what} line needs a password after the faction id: `{what} faction password`")),
        2 | 3 => Ok(words),
        _ => err(format!("too many words after {what}: expected a faction id, a password and at most one more word")),
    }
}

fn header_from(line: usize, rest: &str) -> Result<Header, OrderError> {
    let words = section_words(line, rest, "GAME")?;
    let target = match words.get(2) {
        None => HeaderTarget::Next,
        Some(w) => match w.parse::<u32>() {
            Ok(n) => HeaderTarget::Turn(n),
            Err(_) => HeaderTarget::Game(w.to_string()),
        },
    };
    Ok(Header { faction: words[0].to_string(), password: words[1].to_string(), target, line })
}

/// Finds and reads the first `GAME` line. Lines before it are ignored (FILE-HEAD).
pub fn parse_header(text: &str) -> Result<Header, OrderError> {
    for (i, raw) in text.lines().enumerate() {
        if let Some(("GAME", rest)) = keyword(raw) {
            return header_from(i + 1, rest);
        }
    }
    Err(OrderError { line: 0, message: "no header line: the orders must start with `GAME faction password`".into() })
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

enum Section {
    None,
    Orders(OrderFile),
    Article(Article),
}

/// Reads a whole mail. Fails when a section line cannot be read or when the mail has
/// no section at all.
pub fn parse_mail<V: Vocabulary + ?Sized>(text: &str, vocabulary: &V) -> Result<Mail, OrderError> {
    let mut mail = Mail::default();
    let mut section = Section::None;
    let limit = vocabulary.max_orders();
    let close = |section: Section, mail: &mut Mail| match section {
        Section::None => {}
        Section::Orders(mut f) => {
            f.units.retain(|b| !b.unit.is_empty());
            mail.orders.push(f)
        }
        Section::Article(mut a) => {
            a.text = a.text.trim_end().to_string();
            mail.articles.push(a)
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if let Some((word, rest)) = keyword(raw) {
            let previous = std::mem::replace(&mut section, Section::None);
            close(previous, &mut mail);
            match word {
                "END" => {}
                "GAME" => {
                    let header = header_from(line, rest)?;
                    section = Section::Orders(OrderFile {
                        header,
                        faction_orders: Vec::new(),
                        units: Vec::new(),
                        warnings: Vec::new(),
                    });
                }
                "PRESS" | "RUMOR" => {
                    let w = section_words(line, rest, word)?;
                    section = Section::Article(Article {
                        kind: if word == "PRESS" { ArticleKind::Press } else { ArticleKind::Rumor },
                        faction: w[0].to_string(),
                        password: w[1].to_string(),
                        game: w.get(2).map(|g| g.to_string()),
                        line,
                        text: String::new(),
                    });
                }
                _ => {
                    let w = section_words(line, rest, "REPORT")?;
                    let turn = match w.get(2) {
                        None => None,
                        Some(t) => Some(t.parse().map_err(|_| OrderError {
                            line,
                            message: format!("REPORT asks for a turn number, not '{t}'"),
                        })?),
                    };
                    mail.reports.push(ReportRequest {
                        faction: w[0].to_string(),
                        password: w[1].to_string(),
                        turn,
                        line,
                    });
                }
            }
            continue;
        }
        match &mut section {
            Section::None => {}
            Section::Article(a) => {
                a.text.push_str(raw.trim_end());
                a.text.push('\n');
            }
            Section::Orders(file) => order_line(file, line, raw, vocabulary, limit),
        }
    }
    close(section, &mut mail);
    if mail.orders.is_empty() && mail.articles.is_empty() && mail.reports.is_empty() {
        return Err(OrderError {
            line: 0,
            message: "no header line: the orders must start with `GAME faction password`".into(),
        });
    }
    Ok(mail)
}

fn order_line<V: Vocabulary + ?Sized>(file: &mut OrderFile, line: usize, raw: &str, vocabulary: &V, limit: usize) {
    let text = strip_comment(raw);
    if text.is_empty() {
        return;
    }
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
