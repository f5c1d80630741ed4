//! Positions of values inside a RON text.
//!
//! serde forgets where a value came from, so after a file has been deserialised
//! the validator names a faulty value by its *path* (`[12].skills[3]`), and this
//! module finds the line and column of that path in the text. It understands the
//! whole RON syntax that matters for this (structs, tuples, lists, maps, strings,
//! raw strings, chars, comments) and is only run when there is an error to report.

use std::fmt;

/// One step of a path into a RON value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    /// The n-th element of a list or tuple (0-based).
    Index(usize),
    /// A named field of a struct.
    Field(&'static str),
    /// The value stored under a string key in a map.
    Key(String),
}

/// A path into a RON value.
pub type Path = Vec<Seg>;

/// Writes a path the way a modder reads it: `[3].skills[0]`, `.stances["f02"]`.
pub fn path_to_string(path: &[Seg]) -> String {
    let mut s = String::new();
    for seg in path {
        match seg {
            Seg::Index(i) => s.push_str(&format!("[{i}]")),
            Seg::Field(f) => {
                s.push('.');
                s.push_str(f);
            }
            Seg::Key(k) => s.push_str(&format!("[{k:?}]")),
        }
    }
    s
}

/// A 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub col: usize,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Finds the position of the value at `path` in `text`. When the path goes deeper
/// than the text (a defaulted field, say), the position of the deepest value that
/// exists is returned, so that an error still points into the right record.
pub fn locate(text: &str, path: &[Seg]) -> Pos {
    let mut c = Cursor::new(text);
    c.skip_preamble();
    let mut best = c.pos();
    c.descend(path, &mut best);
    best
}

/// A RON text prepared for many lookups: when the file is a list, the start of
/// every element is found in one pass, so that each lookup only walks its own
/// record (a file of a million units is read once, not once per error).
pub struct Index {
    text: String,
    /// `(byte offset, line, offset of line start)` of each top-level list element.
    starts: Option<Vec<(usize, usize, usize)>>,
}

impl Index {
    /// Prepares `text`; the element index is built on the first lookup that needs it.
    pub fn new(text: String) -> Index {
        Index { text, starts: None }
    }

    fn build(&mut self) -> &[(usize, usize, usize)] {
        if self.starts.is_none() {
            let mut v = Vec::new();
            let mut c = Cursor::new(&self.text);
            c.skip_preamble();
            if c.peek() == Some(b'[') {
                c.bump();
                loop {
                    c.skip_ws();
                    match c.peek() {
                        None | Some(b']') => break,
                        Some(b',') => c.bump(),
                        Some(_) => {
                            v.push((c.i, c.line, c.line_start));
                            let before = c.i;
                            c.skip_value();
                            if c.i == before {
                                c.bump();
                            }
                        }
                    }
                }
            }
            self.starts = Some(v);
        }
        self.starts.as_deref().unwrap_or(&[])
    }

    /// Like [`locate`], using the element index for list files.
    pub fn locate(&mut self, path: &[Seg]) -> Pos {
        if let Some(Seg::Index(n)) = path.first() {
            let n = *n;
            if let Some(&(i, line, line_start)) = self.build().get(n) {
                let mut c = Cursor { s: self.text.as_bytes(), i, line, line_start };
                let mut best = c.pos();
                c.descend(&path[1..], &mut best);
                return best;
            }
        }
        locate(&self.text, path)
    }
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
    line_start: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor { s: text.as_bytes(), i: 0, line: 1, line_start: 0 }
    }

    fn pos(&self) -> Pos {
        // Columns count characters, not bytes.
        let col = std::str::from_utf8(&self.s[self.line_start..self.i])
            .map(|t| t.chars().count())
            .unwrap_or(self.i - self.line_start);
        Pos { line: self.line, col: col + 1 }
    }

    fn skip_preamble(&mut self) {
        self.skip_ws();
        // Skip extension attributes such as `#![enable(implicit_some)]`.
        while self.peek() == Some(b'#') {
            while let Some(b) = self.peek() {
                self.bump();
                if b == b']' {
                    break;
                }
            }
            self.skip_ws();
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    fn bump(&mut self) {
        if let Some(b) = self.peek() {
            self.i += 1;
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.i;
            }
        }
    }

    fn skip_ws(&mut self) {
        loop {
            match self.peek() {
                Some(b) if b.is_ascii_whitespace() => self.bump(),
                Some(b'/') if self.peek_at(1) == Some(b'/') => {
                    while let Some(b) = self.peek() {
                        if b == b'\n' {
                            break;
                        }
                        self.bump();
                    }
                }
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    self.bump();
                    self.bump();
                    let mut depth = 1;
                    while depth > 0 && self.peek().is_some() {
                        if self.peek() == Some(b'/') && self.peek_at(1) == Some(b'*') {
                            depth += 1;
                            self.bump();
                        } else if self.peek() == Some(b'*') && self.peek_at(1) == Some(b'/') {
                            depth -= 1;
                            self.bump();
                        }
                        self.bump();
                    }
                }
                _ => return,
            }
        }
    }

    fn is_ident_byte(b: u8) -> bool {
        b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
    }

    fn ident(&mut self) -> &'a [u8] {
        let start = self.i;
        if self.peek() == Some(b'r') && self.peek_at(1) == Some(b'#') {
            self.bump();
            self.bump();
        }
        while matches!(self.peek(), Some(b) if Self::is_ident_byte(b)) {
            self.bump();
        }
        &self.s[start..self.i]
    }

    /// Reads a string literal and returns its (unescaped for simple cases) content.
    fn string(&mut self) -> String {
        let mut out = Vec::new();
        if self.peek() == Some(b'r') {
            self.bump();
            let mut hashes = 0;
            while self.peek() == Some(b'#') {
                hashes += 1;
                self.bump();
            }
            self.bump(); // opening quote
            'outer: while let Some(b) = self.peek() {
                if b == b'"' {
                    let mut k = 0;
                    while k < hashes && self.peek_at(1 + k) == Some(b'#') {
                        k += 1;
                    }
                    if k == hashes {
                        for _ in 0..=hashes {
                            self.bump();
                        }
                        break 'outer;
                    }
                }
                out.push(b);
                self.bump();
            }
        } else {
            self.bump(); // opening quote
            while let Some(b) = self.peek() {
                self.bump();
                match b {
                    b'"' => break,
                    b'\\' => {
                        if let Some(e) = self.peek() {
                            out.push(match e {
                                b'n' => b'\n',
                                b't' => b'\t',
                                other => other,
                            });
                            self.bump();
                        }
                    }
                    _ => out.push(b),
                }
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    fn char_lit(&mut self) {
        self.bump();
        while let Some(b) = self.peek() {
            self.bump();
            match b {
                b'\\' => self.bump(),
                b'\'' => break,
                _ => {}
            }
        }
    }

    /// Skips one value; returns its string content if it was a string literal.
    fn skip_value(&mut self) -> Option<String> {
        self.skip_ws();
        match self.peek() {
            None => None,
            Some(b'"') => Some(self.string()),
            Some(b'r')
                if matches!(self.peek_at(1), Some(b'"') | Some(b'#')) && {
                    // r"..." or r#"..."# versus the identifier r#name
                    let mut k = 1;
                    while self.peek_at(k) == Some(b'#') {
                        k += 1;
                    }
                    self.peek_at(k) == Some(b'"')
                } =>
            {
                Some(self.string())
            }
            Some(b'\'') => {
                self.char_lit();
                None
            }
            Some(b'(') | Some(b'[') | Some(b'{') => {
                self.skip_group();
                None
            }
            Some(b) if Self::is_ident_byte(b) || b == b'-' || b == b'+' || b == b'.' => {
                self.bump();
                while matches!(self.peek(), Some(b) if Self::is_ident_byte(b) || b == b'.' || b == b'#') {
                    self.bump();
                }
                self.skip_ws();
                if self.peek() == Some(b'(') {
                    self.skip_group();
                }
                None
            }
            Some(_) => {
                self.bump();
                None
            }
        }
    }

    fn skip_group(&mut self) {
        let open = self.peek().unwrap_or(b'(');
        self.bump();
        let close = match open {
            b'(' => b')',
            b'[' => b']',
            _ => b'}',
        };
        loop {
            self.skip_ws();
            match self.peek() {
                None => return,
                Some(b) if b == close => {
                    self.bump();
                    return;
                }
                Some(b',') | Some(b':') => self.bump(),
                Some(_) => {
                    let before = self.i;
                    self.skip_value();
                    if self.i == before {
                        self.bump();
                    }
                }
            }
        }
    }

    /// Walks down `path` from the value at the cursor, updating `best` with the
    /// position of each value reached.
    fn descend(&mut self, path: &[Seg], best: &mut Pos) {
        let Some((seg, rest)) = path.split_first() else { return };
        self.skip_ws();
        // Optional struct or enum name before '('.
        if matches!(self.peek(), Some(b) if Self::is_ident_byte(b)) {
            let save = (self.i, self.line, self.line_start);
            self.ident();
            self.skip_ws();
            if self.peek() != Some(b'(') {
                (self.i, self.line, self.line_start) = save;
                return;
            }
        }
        match (self.peek(), seg) {
            (Some(b'['), Seg::Index(n)) | (Some(b'('), Seg::Index(n)) => {
                let close = if self.peek() == Some(b'[') { b']' } else { b')' };
                self.bump();
                let mut k = 0;
                loop {
                    self.skip_ws();
                    match self.peek() {
                        None => return,
                        Some(b) if b == close => return,
                        Some(b',') => self.bump(),
                        Some(_) => {
                            if k == *n {
                                *best = self.pos();
                                return self.descend(rest, best);
                            }
                            self.skip_value();
                            k += 1;
                        }
                    }
                }
            }
            (Some(b'('), Seg::Field(name)) => {
                self.bump();
                loop {
                    self.skip_ws();
                    match self.peek() {
                        None | Some(b')') => return,
                        Some(b',') => self.bump(),
                        Some(b) if Self::is_ident_byte(b) => {
                            let field_pos = self.pos();
                            let id = self.ident();
                            let id = id.strip_prefix(b"r#").unwrap_or(id);
                            self.skip_ws();
                            if self.peek() == Some(b':') {
                                self.bump();
                            }
                            if id == name.as_bytes() {
                                *best = field_pos;
                                self.skip_ws();
                                if !rest.is_empty() {
                                    return self.descend(rest, best);
                                }
                                return;
                            }
                            self.skip_value();
                        }
                        Some(_) => {
                            self.skip_value();
                        }
                    }
                }
            }
            (Some(b'{'), Seg::Key(key)) => {
                self.bump();
                loop {
                    self.skip_ws();
                    match self.peek() {
                        None | Some(b'}') => return,
                        Some(b',') => self.bump(),
                        Some(_) => {
                            let key_pos = self.pos();
                            let k = self.skip_value();
                            self.skip_ws();
                            if self.peek() == Some(b':') {
                                self.bump();
                            }
                            if k.as_deref() == Some(key.as_str()) {
                                *best = key_pos;
                                self.skip_ws();
                                return self.descend(rest, best);
                            }
                            self.skip_value();
                        }
                    }
                }
            }
            // Option written as Some(x): step inside transparently.
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r##"// units
[
    (
        id: "U1",
        items: [("coin", 10, 0), ("swrd", 1, 2)],
    ),
    /* second */ (id: "U2", name: "a \"quoted\" ) name", stances: {"f01": "ally", "f02": "neutral"}),
    Unit(id: r#"U3"#, race: "man"),
]
"##;

    #[test]
    fn finds_records_fields_and_elements() {
        assert_eq!(locate(TEXT, &[Seg::Index(0)]), Pos { line: 3, col: 5 });
        assert_eq!(locate(TEXT, &[Seg::Index(0), Seg::Field("id")]), Pos { line: 4, col: 9 });
        assert_eq!(locate(TEXT, &[Seg::Index(0), Seg::Field("items"), Seg::Index(1)]), Pos { line: 5, col: 34 });
        assert_eq!(
            locate(TEXT, &[Seg::Index(0), Seg::Field("items"), Seg::Index(1), Seg::Index(2)]),
            Pos { line: 5, col: 46 }
        );
    }

    #[test]
    fn skips_strings_comments_and_named_structs() {
        assert_eq!(locate(TEXT, &[Seg::Index(1)]), Pos { line: 7, col: 18 });
        assert_eq!(
            locate(TEXT, &[Seg::Index(1), Seg::Field("stances"), Seg::Key("f02".into())]),
            Pos { line: 7, col: 83 }
        );
        assert_eq!(locate(TEXT, &[Seg::Index(2), Seg::Field("race")]), Pos { line: 8, col: 23 });
    }

    #[test]
    fn missing_parts_fall_back_to_the_deepest_existing_value() {
        assert_eq!(locate(TEXT, &[Seg::Index(2), Seg::Field("skills")]), Pos { line: 8, col: 5 });
        // Past the end of the list: the list itself.
        assert_eq!(locate(TEXT, &[Seg::Index(7)]), Pos { line: 2, col: 1 });
    }

    #[test]
    fn index_agrees_with_locate() {
        let mut idx = Index::new(TEXT.to_string());
        for path in [
            vec![Seg::Index(0), Seg::Field("items"), Seg::Index(1)],
            vec![Seg::Index(1), Seg::Field("stances"), Seg::Key("f02".into())],
            vec![Seg::Index(2), Seg::Field("race")],
            vec![Seg::Index(9)],
        ] {
            assert_eq!(idx.locate(&path), locate(TEXT, &path), "{path:?}");
        }
    }

    #[test]
    fn path_strings() {
        let p = vec![Seg::Index(3), Seg::Field("skills"), Seg::Index(0), Seg::Key("x".into())];
        assert_eq!(path_to_string(&p), "[3].skills[0][\"x\"]");
    }
}
