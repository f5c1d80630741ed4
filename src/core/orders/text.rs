//! Reading the words of an order line, whatever the rule system: comments, quoted
//! strings, keywords, numbers, ids, and the arguments after a keyword.
//!
//! Nothing here panics, whatever the bytes; messages say in words a player
//! understands what is wrong.

/// The quote characters accepted around strings (FILE-STRING).
pub const QUOTES: [char; 6] = ['"', '“', '”', '„', '«', '»'];

/// Removes a `#` comment, unless the `#` is inside a quoted string, and trims.
pub fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        if QUOTES.contains(&c) {
            quoted = !quoted;
        } else if c == '#' && !quoted {
            return line[..i].trim();
        }
    }
    line.trim()
}

/// A string argument: the rest of the line, without enclosing quotes (FILE-STRING).
pub fn string_arg(rest: &str) -> String {
    let s = rest.trim();
    let mut chars = s.chars();
    match (chars.next(), chars.next_back()) {
        (Some(a), Some(b)) if QUOTES.contains(&a) && QUOTES.contains(&b) => chars.as_str().to_string(),
        (Some(a), None) if QUOTES.contains(&a) => String::new(),
        _ => s.to_string(),
    }
}

/// Quotes a string for writing back; typographic quotes stand in when it holds a `"`.
pub fn quoted(s: &str) -> String {
    if s.contains('"') { format!("“{s}”") } else { format!("\"{s}\"") }
}

/// The first word of `body`, upper-case, and the rest of it.
pub fn keyword_of(body: &str) -> (String, &str) {
    let body = body.trim();
    let end = body.find(char::is_whitespace).unwrap_or(body.len());
    (body[..end].to_ascii_uppercase(), &body[end..])
}

/// A whole number written in digits only, if it fits.
pub fn number(w: &str) -> Option<u32> {
    if w.is_empty() || !w.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    w.parse().ok()
}

/// `L12`, `l12` → `L12` when `word` is the letter `prefix` (any case) and digits.
pub fn prefixed(word: &str, prefix: char) -> Option<String> {
    let mut chars = word.chars();
    let first = chars.next()?;
    let digits = chars.as_str();
    (first.eq_ignore_ascii_case(&prefix) && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{prefix}{digits}"))
}

/// The words of an order after its keyword, read left to right; every error names
/// the keyword.
#[derive(Debug, Clone)]
pub struct Args<'a> {
    /// The order's keyword, for messages.
    pub keyword: &'static str,
    words: Vec<&'a str>,
    pos: usize,
}

/// A result whose error is a message for the player.
pub type Res<T> = Result<T, String>;

impl<'a> Args<'a> {
    /// The words of `rest`, after `keyword`.
    pub fn new(keyword: &'static str, rest: &'a str) -> Self {
        Args { keyword, words: rest.split_whitespace().collect(), pos: 0 }
    }
    /// The next word, without taking it.
    pub fn peek(&self) -> Option<&'a str> {
        self.words.get(self.pos).copied()
    }
    /// Takes the next word, which the order needs (`what` names it in the error).
    pub fn next(&mut self, what: &str) -> Res<&'a str> {
        let w = self.peek().ok_or_else(|| format!("{} needs {what}", self.keyword))?;
        self.pos += 1;
        Ok(w)
    }
    /// Takes the next word, whatever it is.
    pub fn skip(&mut self) {
        self.pos += 1;
    }
    /// Whether words are left.
    pub fn more(&self) -> bool {
        self.pos < self.words.len()
    }
    /// Fails if words are left.
    pub fn end(&self) -> Res<()> {
        match self.peek() {
            None => Ok(()),
            Some(w) => Err(format!("{} does not expect '{w}' here", self.keyword)),
        }
    }
    /// Takes a whole number the order needs.
    pub fn number(&mut self, what: &str) -> Res<u32> {
        let w = self.next(what)?;
        number(w).ok_or_else(|| format!("{} needs {what}, a whole number, not '{w}'", self.keyword))
    }
    /// Takes the next word if it is a number.
    pub fn opt_number(&mut self) -> Res<Option<u32>> {
        match self.peek() {
            Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => {
                self.pos += 1;
                number(w).map(Some).ok_or_else(|| format!("{} has a number too large: '{w}'", self.keyword))
            }
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_strings_and_words_file_comment_file_string() {
        assert_eq!(strip_comment("NAME \"Team #1\" # the best"), "NAME \"Team #1\"");
        assert_eq!(strip_comment("#@ claim shrf"), "");
        for t in ["The Empire", "\"The Empire\"", "“The Empire”", " «The Empire» "] {
            assert_eq!(string_arg(t), "The Empire", "{t}");
        }
        assert_eq!(quoted("a \"b\""), "“a \"b\"”");
        assert_eq!(keyword_of("  give U1 coin"), ("GIVE".to_string(), " U1 coin"));
        assert_eq!(prefixed("l12", 'L'), Some("L12".into()));
        assert_eq!(prefixed("L", 'L'), None);
        assert_eq!(number("99999999999"), None);
        let mut a = Args::new("GIVE", "U1 x 5");
        assert_eq!(a.next("a unit"), Ok("U1"));
        assert_eq!(a.number("a count"), Err("GIVE needs a count, a whole number, not 'x'".into()));
        assert_eq!(a.opt_number(), Ok(Some(5)));
        assert_eq!(a.end(), Ok(()));
        assert_eq!(a.next("an item"), Err("GIVE needs an item".into()));
    }
}
