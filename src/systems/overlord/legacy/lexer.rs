//! The original engine's text format: keyword lines grouped into records.
//!
//! A file is a list of lines `KEYWORD arg arg…`. `#` starts a comment (outside
//! double quotes); carriage returns are ignored. A line `KEYWORD <RECORD> [n]`
//! names the keyword that opens each record (`SKILL`, `UNIT`…); every following
//! line up to the next record opener belongs to that record. Keywords are matched
//! without regard to case.

use crate::core::diag::Diagnostic;
use std::path::{Path, PathBuf};

/// One keyword line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Line number, from 1.
    pub no: usize,
    /// The keyword, upper-cased.
    pub key: String,
    /// The arguments, split at white space; a double-quoted argument is one token.
    pub args: Vec<String>,
    /// Everything after the keyword, trimmed, with surrounding quotes removed.
    pub rest: String,
}

impl Line {
    /// Argument `i`, or "".
    pub fn arg(&self, i: usize) -> &str {
        self.args.get(i).map(String::as_str).unwrap_or("")
    }
}

/// A record: its opening line and the lines that follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The opening line (`SKILL obse`); `head.arg(0)` is the record's tag.
    pub head: Line,
    /// The lines of the record.
    pub body: Vec<Line>,
}

impl Record {
    /// The record's tag or id.
    pub fn tag(&self) -> &str {
        self.head.arg(0)
    }
}

/// A parsed legacy file.
#[derive(Debug, Clone)]
pub struct LegacyFile {
    /// Where it was read from.
    pub path: PathBuf,
    /// The records, in file order.
    pub records: Vec<Record>,
    /// Non-comment lines that belong to no record (before the first one).
    pub loose: Vec<Line>,
}

/// Splits a line into its content and drops the comment.
fn strip_comment(s: &str) -> &str {
    let mut in_quotes = false;
    for (i, ch) in s.char_indices() {
        match ch {
            '"' => in_quotes = !in_quotes,
            '#' if !in_quotes => return &s[..i],
            _ => {}
        }
    }
    s
}

fn tokenize(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_quotes = false;
    let mut had = false;
    for ch in s.chars() {
        match ch {
            '"' => {
                in_quotes = !in_quotes;
                had = true;
            }
            c if c.is_whitespace() && !in_quotes => {
                if had || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                had = false;
            }
            c => cur.push(c),
        }
    }
    if had || !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn unquote(s: &str) -> String {
    let t = s.trim();
    let t = t.strip_prefix('"').and_then(|x| x.strip_suffix('"')).unwrap_or(t);
    t.trim().to_string()
}

/// Parses one line; `None` for blank and comment-only lines.
pub fn parse_line(no: usize, raw: &str) -> Option<Line> {
    let content = strip_comment(raw.trim_end_matches('\r'));
    let trimmed = content.trim();
    if trimmed.is_empty() {
        return None;
    }
    let (key, rest) = match trimmed.find(char::is_whitespace) {
        Some(i) => (&trimmed[..i], trimmed[i..].trim()),
        None => (trimmed, ""),
    };
    Some(Line { no, key: key.to_ascii_uppercase(), args: tokenize(rest), rest: unquote(rest) })
}

/// Parses `text` into records opened by `opener` (upper case). When `opener` is
/// `None`, the file's own `KEYWORD` line decides.
pub fn parse(path: &Path, text: &str, opener: Option<&str>) -> LegacyFile {
    let mut records: Vec<Record> = Vec::new();
    let mut loose = Vec::new();
    let mut open: Option<String> = opener.map(str::to_string);
    for (i, raw) in text.split('\n').enumerate() {
        let Some(line) = parse_line(i + 1, raw) else { continue };
        if line.key == "KEYWORD" && records.is_empty() {
            if open.is_none() {
                open = Some(line.arg(0).to_ascii_uppercase());
            }
            continue;
        }
        if open.as_deref() == Some(line.key.as_str()) {
            records.push(Record { head: line, body: Vec::new() });
        } else if let Some(r) = records.last_mut() {
            r.body.push(line);
        } else {
            loose.push(line);
        }
    }
    LegacyFile { path: path.to_path_buf(), records, loose }
}

/// Reads and parses a legacy file.
pub fn read(path: &Path, opener: Option<&str>) -> Result<LegacyFile, Diagnostic> {
    let bytes = std::fs::read(path).map_err(|e| Diagnostic::error(path, 0, 0, format!("cannot read file: {e}")))?;
    Ok(parse(path, &String::from_utf8_lossy(&bytes), opener))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_comments_quotes_and_case() {
        let l = parse_line(3, "  race man 30  # note\r").unwrap();
        assert_eq!((l.no, l.key.as_str(), l.args.clone()), (3, "RACE", vec!["man".to_string(), "30".into()]));
        let l = parse_line(1, "NAME \"day of #riding\" # c").unwrap();
        assert_eq!(l.rest, "day of #riding");
        assert_eq!(l.args, vec!["day of #riding".to_string()]);
        assert!(parse_line(1, "   # only a comment").is_none());
        assert!(parse_line(1, "\r").is_none());
    }

    #[test]
    fn records_follow_the_keyword_line() {
        let text = "# head\nstray text\nKEYWORD SKILL 999\nSKILL a\nNAME x\nLEVEL 1\nSKILL b\nNAME y\n";
        let f = parse(Path::new("s.rules"), text, None);
        assert_eq!(f.records.len(), 2);
        assert_eq!(f.records[0].tag(), "a");
        assert_eq!(f.records[0].body.len(), 2);
        assert_eq!(f.records[1].body[0].no, 8);
        assert_eq!(f.loose.len(), 1);
        assert_eq!(f.loose[0].key, "STRAY");
    }

    #[test]
    fn explicit_opener_wins() {
        let f = parse(Path::new("e.rules"), "KEYWORD EVENTS\nEVENT evGive\n", Some("EVENT"));
        assert_eq!(f.records.len(), 1);
        assert_eq!(f.records[0].tag(), "evGive");
    }
}
