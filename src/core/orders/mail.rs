//! The mail envelope: the sections of a mail, whatever the rule system.
//!
//! A mail holds one or more *sections*, each opened by a keyword line written with or
//! without a leading `#` (RULINGS §1):
//!
//! * `GAME faction password [turn|game]` — orders, up to `END`; the lines between
//!   are read by the rule system's [`Grammar`];
//! * `PRESS faction password [game]` / `RUMOR faction password [game]` — an article
//!   for the newspaper, up to `END` (PRS-PRESS, PRS-RUMOR);
//! * `REPORT faction password turn` — asks for a stored report again (RPC-REPORT).
//!
//! Lines before the first section are ignored (FILE-HEAD). After an `END`, lines are
//! ignored until the next section keyword (FILE-END; several articles may share a
//! mail, PRS-MULTI). Comments (`#` outside quotes) are removed before a grammar sees
//! a line, and blank lines are skipped.

use super::text::strip_comment;

/// A rule system's order language: what it makes of the lines of a `GAME` section.
pub trait Grammar {
    /// An order file: what a `GAME` section becomes.
    type File;
    /// A new file for the section opened by `header`.
    fn start(&self, header: Header) -> Self::File;
    /// One line of the section, `line` its number (from 1), without its comment and
    /// surrounding spaces, never empty.
    fn line(&self, file: &mut Self::File, line: usize, text: &str);
    /// The section ended (at `END`, another section, or the end of the mail).
    fn finish(&self, _file: &mut Self::File) {}
}

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

/// Everything a mail holds; `F` is what the rule system's grammar makes of a
/// `GAME` section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail<F> {
    /// Order files (`GAME` sections), usually one.
    pub orders: Vec<F>,
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

enum Section<F> {
    None,
    Orders(F),
    Article(Article),
}

/// Reads a whole mail, each `GAME` section with `grammar`. Fails when a section line
/// cannot be read or when the mail has no section at all.
pub fn parse_mail<G: Grammar + ?Sized>(text: &str, grammar: &G) -> Result<Mail<G::File>, OrderError> {
    let mut mail = Mail { orders: Vec::new(), articles: Vec::new(), reports: Vec::new() };
    let mut section = Section::None;
    let close = |section: Section<G::File>, mail: &mut Mail<G::File>| match section {
        Section::None => {}
        Section::Orders(mut f) => {
            grammar.finish(&mut f);
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
                    section = Section::Orders(grammar.start(header));
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
            Section::Orders(file) => {
                let text = strip_comment(raw);
                if !text.is_empty() {
                    grammar.line(file, line, text);
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A grammar that keeps the lines it is given.
    struct Lines;
    impl Grammar for Lines {
        type File = (Header, Vec<(usize, String)>);
        fn start(&self, header: Header) -> Self::File {
            (header, Vec::new())
        }
        fn line(&self, file: &mut Self::File, line: usize, text: &str) {
            file.1.push((line, text.to_string()));
        }
    }

    #[test]
    fn a_mail_is_split_into_sections_and_only_game_lines_reach_the_grammar() {
        let text = "Hello GM\n#GAME f1 secret 3\nUNIT U1 # the first\n\n  STUDY x\nEND\nignored\n\
                    press f1 secret\nNews!\n# not a comment in an article\nEND\nREPORT f1 secret 2\n";
        let mail = parse_mail(text, &Lines).unwrap();
        assert_eq!(mail.orders.len(), 1);
        let (header, lines) = &mail.orders[0];
        assert_eq!((header.faction.as_str(), header.password.as_str(), header.line), ("f1", "secret", 2));
        assert_eq!(header.target, HeaderTarget::Turn(3));
        assert_eq!(lines, &[(3, "UNIT U1".to_string()), (5, "STUDY x".to_string())]);
        assert_eq!(mail.articles.len(), 1);
        assert_eq!(mail.articles[0].kind, ArticleKind::Press);
        assert_eq!(mail.articles[0].text, "News!\n# not a comment in an article");
        assert_eq!(
            mail.reports,
            [ReportRequest { faction: "f1".into(), password: "secret".into(), turn: Some(2), line: 12 }]
        );
    }

    #[test]
    fn a_mail_without_sections_or_with_a_bad_section_line_is_refused_with_its_line() {
        let err = parse_mail("just words\n", &Lines).unwrap_err();
        assert_eq!(err.line, 0);
        let err = parse_mail("x\nGAME f1\n", &Lines).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: the GAME line needs a password after the faction id: `GAME faction password`"
        );
        let err = parse_mail("REPORT f1 pw soon\n", &Lines).unwrap_err();
        assert_eq!(err.to_string(), "line 1: REPORT asks for a turn number, not 'soon'");
    }
}
