//! Order files: header, faction block, unit blocks.

use super::{MAX_ORDERS_PER_UNIT, UNIT_PREFIX};

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

/// One order line, without comment and surrounding spaces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Line number in the file (1-based).
    pub line: usize,
    /// The order text.
    pub text: String,
}

/// The orders given to one unit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitBlock {
    /// The unit id, normalised (`206` and `u206` become `U206`).
    pub unit: String,
    /// Line of the `UNIT` line.
    pub line: usize,
    /// The orders, at most [`MAX_ORDERS_PER_UNIT`].
    pub orders: Vec<Line>,
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

/// A parsed order file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderFile {
    /// The header.
    pub header: Header,
    /// Orders between the header and the first `UNIT`.
    pub faction_orders: Vec<Line>,
    /// One block per `UNIT` line, in file order.
    pub units: Vec<UnitBlock>,
    /// Things the player should know that did not stop the file being read.
    pub warnings: Vec<OrderError>,
}

/// Splits off a leading `#`-keyword or plain keyword: returns the keyword (upper-case)
/// and the rest of the line, for the keywords that may carry a `#` (RULINGS §1).
fn keyword(line: &str) -> Option<(String, &str)> {
    let t = line.trim_start();
    let body = t.strip_prefix('#').unwrap_or(t);
    let end = body.find(char::is_whitespace).unwrap_or(body.len());
    let word = body[..end].to_ascii_uppercase();
    matches!(word.as_str(), "GAME" | "END" | "PRESS" | "RUMOR" | "REPORT").then(|| (word, &body[end..]))
}

/// Removes a `#` comment and surrounding spaces.
fn strip_comment(line: &str) -> &str {
    line.split('#').next().unwrap_or("").trim()
}

/// Finds and reads the header. Lines before it are ignored (FILE-HEAD).
pub fn parse_header(text: &str) -> Result<Header, OrderError> {
    for (i, raw) in text.lines().enumerate() {
        if let Some((word, rest)) = keyword(raw)
            && word == "GAME"
        {
            return header_from(i + 1, rest);
        }
    }
    Err(OrderError { line: 0, message: "no header line: the orders must start with `GAME faction password`".into() })
}

fn header_from(line: usize, rest: &str) -> Result<Header, OrderError> {
    let words: Vec<&str> = strip_comment(rest).split_whitespace().collect();
    let err = |m: &str| Err(OrderError { line, message: m.to_string() });
    match words.len() {
        0 => err("the header needs a faction id and a password: `GAME faction password`"),
        1 => err("the header needs a password after the faction id: `GAME faction password`"),
        2..=3 => {
            let target = match words.get(2) {
                None => HeaderTarget::Next,
                Some(w) => match w.parse::<u32>() {
                    Ok(n) => HeaderTarget::Turn(n),
                    Err(_) => HeaderTarget::Game(w.to_string()),
                },
            };
            Ok(Header { faction: words[0].to_string(), password: words[1].to_string(), target, line })
        }
        _ => err("too many words in the header: expected `GAME faction password [turn or game]`"),
    }
}

/// Normalises a unit id as a player may write it: `206`, `u206` and `U206` all name `U206`.
/// Ids of new units (`f06nU01`) are case-sensitive and kept as written (FILE-CASE).
pub fn normalise_unit_id(word: &str) -> String {
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
        return format!("{UNIT_PREFIX}{word}");
    }
    let mut chars = word.chars();
    match chars.next() {
        Some(c)
            if c.eq_ignore_ascii_case(&UNIT_PREFIX.chars().next().unwrap_or('U'))
                && !chars.as_str().is_empty()
                && chars.as_str().bytes().all(|b| b.is_ascii_digit()) =>
        {
            format!("{UNIT_PREFIX}{}", chars.as_str())
        }
        _ => word.to_string(),
    }
}

/// Reads an order file: the header, then faction orders, then `UNIT` blocks, up to
/// `END`. Fails only when there is no usable header; other problems are warnings.
pub fn parse(text: &str) -> Result<OrderFile, OrderError> {
    let header = parse_header(text)?;
    let mut file = OrderFile { header, faction_orders: Vec::new(), units: Vec::new(), warnings: Vec::new() };
    for (i, raw) in text.lines().enumerate().skip(file.header.line) {
        let line = i + 1;
        if let Some((word, _)) = keyword(raw) {
            match word.as_str() {
                "END" => break,
                "GAME" => {
                    file.warnings.push(OrderError { line, message: "a second GAME line is ignored".into() });
                    continue;
                }
                // Press articles and report requests are read by the newspaper and
                // the report service, not as orders.
                _ => {
                    file.warnings.push(OrderError {
                        line,
                        message: format!("{word} is not read as an order; send it on its own"),
                    });
                    continue;
                }
            }
        }
        let text = strip_comment(raw);
        if text.is_empty() {
            continue;
        }
        let mut words = text.split_whitespace();
        let first = words.next().unwrap_or("");
        if first.eq_ignore_ascii_case("UNIT") {
            match (words.next(), words.next()) {
                (Some(id), None) => {
                    file.units.push(UnitBlock { unit: normalise_unit_id(id), line, orders: Vec::new() })
                }
                (None, _) => file.warnings.push(OrderError { line, message: "UNIT needs a unit id".into() }),
                (Some(_), Some(_)) => {
                    file.warnings.push(OrderError { line, message: "UNIT takes one unit id; block ignored".into() })
                }
            }
            continue;
        }
        let order = Line { line, text: text.to_string() };
        match file.units.last_mut() {
            Some(block) if block.orders.len() >= MAX_ORDERS_PER_UNIT => file.warnings.push(OrderError {
                line,
                message: format!("unit {} already has {MAX_ORDERS_PER_UNIT} orders; this one is ignored", block.unit),
            }),
            Some(block) => block.orders.push(order),
            None => file.faction_orders.push(order),
        }
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_forms_of_rulings_1() {
        // FILE-HEAD, FILE-SPACE, FILE-COMMENT: '#GAME' and leading spaces.
        let h = parse_header("junk\n  #game f01 pswd1 alpha\n").unwrap();
        assert_eq!((h.faction.as_str(), h.password.as_str(), h.line), ("f01", "pswd1", 2));
        assert_eq!(h.target, HeaderTarget::Game("alpha".into()));
        assert_eq!(parse_header("GAME f01 pw 7").unwrap().target, HeaderTarget::Turn(7));
        assert_eq!(parse_header("GAME f01 pw").unwrap().target, HeaderTarget::Next);
        assert!(parse_header("GAME f01").unwrap_err().message.contains("password"));
        assert_eq!(parse_header("hello\n").unwrap_err().line, 0);
    }

    #[test]
    fn blocks_comments_limit_and_end() {
        // FILE-UNIT, FILE-COMMENT, FILE-LIMIT, FILE-END.
        let mut text = String::from("GAME f01 pw\nNAME \"Us\"\nunit 7\n@ guard  # stay\n#@ claim shrf\nUNIT u8\n");
        for i in 0..51 {
            text.push_str(&format!("WAIT {i}\n"));
        }
        text.push_str("#END\nUNIT U9\nMOVE N\n");
        let f = parse(&text).unwrap();
        assert_eq!(f.faction_orders, vec![Line { line: 2, text: "NAME \"Us\"".into() }]);
        assert_eq!(f.units.len(), 2);
        assert_eq!(f.units[0].unit, "U7");
        assert_eq!(f.units[0].orders, vec![Line { line: 4, text: "@ guard".into() }]);
        assert_eq!(f.units[1].unit, "U8");
        assert_eq!(f.units[1].orders.len(), MAX_ORDERS_PER_UNIT);
        assert_eq!(f.warnings.len(), 1);
        assert_eq!(f.warnings[0].line, 7 + 50);
    }

    #[test]
    fn new_unit_ids_keep_their_case() {
        assert_eq!(normalise_unit_id("f06nU01"), "f06nU01");
        assert_eq!(normalise_unit_id("u12"), "U12");
        assert_eq!(normalise_unit_id("12"), "U12");
        assert_eq!(normalise_unit_id("ux"), "ux");
    }
}
