//! A fast reader of the saved RON layout, the counterpart of [`super::ronwrite`].
//!
//! Loading a large world is mostly reading RON, and the `ron` crate reads it at
//! about 165 instructions a byte (it checks identifiers against the Unicode tables,
//! tracks positions for its errors, and tries every number form it knows). This
//! deserializer reads the subset of RON that the saved layout uses (structs without
//! names, tuples, lists, maps, `Some`/`None`, enum variants, plain decimal
//! integers, booleans, `()` and strings with the escapes `ron` writes) several times
//! faster. Whatever lies outside that subset (comments, floats, chars, named
//! structs, raw strings or identifiers, other number forms, non-ASCII outside
//! strings, unknown fields, any error at all) makes it give up, and the caller
//! reads the text with `ron` itself, which then either gives the same value or the
//! error with its line and column. So a text this reader accepts gives the value
//! `ron` gives, and a text it does not accept costs one failed attempt; the tests
//! compare both on the bundled data and on mutated texts.

use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};

/// Reads `text` as a `T` when it lies within the subset this reader knows; `None`
/// when it does not, or when it is not a valid `T` (the caller asks `ron`).
pub fn from_str<T: DeserializeOwned>(text: &str) -> Option<T> {
    let mut r = Reader { b: text.as_bytes(), text, pos: 0, depth: 0 };
    r.ws();
    let v = T::deserialize(&mut r).ok()?;
    r.ws();
    (r.pos == r.b.len()).then_some(v)
}

/// Where a list in the saved layout may be cut into parts read at once: the
/// start of the first element at or after byte `near` that begins a line of the
/// list's own (a `(` after `\n  ),\n  `). `None` when there is none; a cut that
/// is not an element's start is found out by [`list_part`].
pub fn list_cut(text: &str, near: usize) -> Option<usize> {
    const BETWEEN: &str = "\n  ),\n  (";
    let from = text.get(near..).map(|_| near)?;
    text[from..].find(BETWEEN).map(|at| from + at + BETWEEN.len() - 1)
}

/// The elements of the list `text` holds from byte `from` (0: the list's start)
/// to byte `to` (`None`: its end), when the reader knows all of them and `to`
/// is where an element starts: reading the whole list, the elements read from
/// `from` would end at `to`, and those from `to` on follow. `from` other than 0
/// is taken to be an element's start; that a part starts where the part before
/// it lands is what makes the parts together the list, so the caller reads every
/// part, `from` 0 first in the list, and keeps them only if all are read. The
/// reading is [`from_str`]'s, element by element.
pub fn list_part<T: DeserializeOwned>(text: &str, from: usize, to: Option<usize>) -> Option<Vec<T>> {
    let mut r = Reader { b: text.as_bytes(), text, pos: from, depth: 1 };
    if from == 0 {
        r.ws();
        r.expect(b'[').ok()?;
    }
    let mut out = Vec::new();
    // Room for the elements to the text's end, guessed from the first ones, so
    // that a list of a million records is not copied into fresh memory at each
    // doubling (and a first part has room for the parts after it, appended to
    // it). Room never used is never touched, so it costs no memory.
    let start = r.pos;
    let mut guessed = false;
    // After `[` or a comma, as `Separated` starts.
    let mut had_comma = true;
    loop {
        if !guessed && out.len() == GUESS_AFTER {
            guessed = true;
            let per = (r.pos - start).div_ceil(GUESS_AFTER).max(1);
            let rest = (r.b.len() - r.pos) / per;
            out.reserve(rest.saturating_add(rest / 4));
        }
        r.ws();
        if let Some(to) = to {
            if r.pos == to && had_comma && r.peek() != Some(b']') {
                return Some(out);
            }
            if r.pos > to {
                return None;
            }
        }
        if r.peek() == Some(b']') {
            if to.is_some() {
                return None;
            }
            r.pos += 1;
            r.ws();
            return (r.pos == r.b.len()).then_some(out);
        }
        if !had_comma {
            return None;
        }
        out.push(r.nested(|r| T::deserialize(r)).ok()?);
        had_comma = r.comma();
    }
}

/// How many elements [`list_part`] reads before it guesses how many follow.
const GUESS_AFTER: usize = 32;

/// Nesting deeper than this is left to `ron` (whose own limit is 128).
const MAX_DEPTH: usize = 100;

/// The reader gave up; the caller uses `ron`.
#[derive(Debug)]
pub struct GiveUp;

impl std::fmt::Display for GiveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("not handled by the fast RON reader")
    }
}

impl std::error::Error for GiveUp {}

impl de::Error for GiveUp {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        GiveUp
    }
}

type Result<T> = std::result::Result<T, GiveUp>;

struct Reader<'a> {
    b: &'a [u8],
    text: &'a str,
    pos: usize,
    depth: usize,
}

/// Whether `c` may continue an identifier as far as this reader knows; a
/// non-ASCII byte or one of `ron`'s raw-identifier characters after an identifier
/// makes the reader give up rather than guess.
fn ident_byte(c: u8) -> bool {
    IDENT_BYTES[usize::from(c)]
}

/// [`ident_byte`] of every byte: a look-up where three tests of ranges cost
/// more, for every byte of every field name of a state.
static IDENT_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_';
        c += 1;
    }
    t
};

fn unsure_after_ident(c: u8) -> bool {
    c >= 0x80 || matches!(c, b'.' | b'+' | b'-' | b'#' | b'"' | b'\'')
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Skips spaces, tabs and line ends. A comment or any other kind of white
    /// space is left in place, so the next token fails and the reader gives up.
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Result<()> {
        if self.eat(c) { Ok(()) } else { Err(GiveUp) }
    }

    /// An identifier: an ASCII letter or `_`, then letters, digits and `_`.
    fn ident(&mut self) -> Result<&'a str> {
        let start = self.pos;
        match self.peek() {
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {}
            _ => return Err(GiveUp),
        }
        let rest = self.b.get(self.pos..).unwrap_or_default();
        self.pos += rest.iter().position(|&c| !ident_byte(c)).unwrap_or(rest.len());
        if self.peek().is_some_and(unsure_after_ident) {
            return Err(GiveUp);
        }
        Ok(&self.text[start..self.pos])
    }

    /// Consumes `word` when it stands as a whole identifier.
    fn word(&mut self, word: &str) -> Result<bool> {
        let end = self.pos + word.len();
        if !self.b[self.pos..].starts_with(word.as_bytes()) {
            return Ok(false);
        }
        match self.b.get(end) {
            Some(&c) if ident_byte(c) => Ok(false),
            Some(&c) if unsure_after_ident(c) => Err(GiveUp),
            _ => {
                self.pos = end;
                Ok(true)
            }
        }
    }

    /// Plain decimal digits; the magnitude, when it fits a `u64`. A following
    /// letter, digit, `_` or `.` (a suffix, another base, a float) gives up.
    fn digits(&mut self) -> Result<u64> {
        let start = self.pos;
        let mut v: u64 = 0;
        while let Some(c @ b'0'..=b'9') = self.peek() {
            v = v.checked_mul(10).and_then(|v| v.checked_add(u64::from(c - b'0'))).ok_or(GiveUp)?;
            self.pos += 1;
        }
        if self.pos == start || self.peek().is_some_and(|c| ident_byte(c) || c == b'.' || c >= 0x80) {
            return Err(GiveUp);
        }
        Ok(v)
    }

    fn unsigned(&mut self) -> Result<u64> {
        self.digits()
    }

    fn signed(&mut self) -> Result<i64> {
        if self.eat(b'-') {
            let v = self.digits()?;
            if v == 1u64 << 63 { Ok(i64::MIN) } else { i64::try_from(v).map(|v| -v).map_err(|_| GiveUp) }
        } else {
            i64::try_from(self.digits()?).map_err(|_| GiveUp)
        }
    }

    /// A string in double quotes with the escapes `\\ \" \' \n \r \t \0 \u{…}`;
    /// borrowed from the text when it has none.
    fn string(&mut self) -> Result<Str<'a>> {
        self.expect(b'"')?;
        let start = self.pos;
        let rest = &self.b[start..];
        let Some(n) = rest.iter().position(|&c| c == b'"' || c == b'\\') else { return Err(GiveUp) };
        if rest[n] == b'"' {
            self.pos = start + n + 1;
            return Ok(Str::Borrowed(&self.text[start..start + n]));
        }
        let mut s = String::with_capacity(n + 16);
        s.push_str(&self.text[start..start + n]);
        self.pos = start + n;
        loop {
            match self.peek().ok_or(GiveUp)? {
                b'"' => {
                    self.pos += 1;
                    return Ok(Str::Owned(s));
                }
                b'\\' => {
                    self.pos += 1;
                    let c = self.peek().ok_or(GiveUp)?;
                    self.pos += 1;
                    s.push(match c {
                        b'\\' => '\\',
                        b'"' => '"',
                        b'\'' => '\'',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'0' => '\0',
                        b'u' => self.unicode_escape()?,
                        _ => return Err(GiveUp),
                    });
                }
                _ => {
                    let from = self.pos;
                    let n = self.b[from..].iter().position(|&c| c == b'"' || c == b'\\').ok_or(GiveUp)?;
                    s.push_str(&self.text[from..from + n]);
                    self.pos = from + n;
                }
            }
        }
    }

    /// The `{…}` of a `\u{…}` escape: one to six hex digits naming a character.
    fn unicode_escape(&mut self) -> Result<char> {
        self.expect(b'{')?;
        let mut v: u32 = 0;
        let mut n = 0;
        while let Some(c) = self.peek().filter(u8::is_ascii_hexdigit) {
            if n == 6 {
                return Err(GiveUp);
            }
            v = v * 16 + (c as char).to_digit(16).ok_or(GiveUp)?;
            n += 1;
            self.pos += 1;
        }
        if n == 0 {
            return Err(GiveUp);
        }
        self.expect(b'}')?;
        char::from_u32(v).ok_or(GiveUp)
    }

    /// After an element: white space, an optional comma and white space (`ron`'s
    /// `comma`); whether there was a comma.
    fn comma(&mut self) -> bool {
        self.ws();
        let had = self.eat(b',');
        if had {
            self.ws();
        }
        had
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(GiveUp);
        }
        self.depth += 1;
        let v = f(self);
        self.depth -= 1;
        v
    }

    /// A struct or tuple may not be preceded by a name in the saved layout.
    fn no_name(&self) -> Result<()> {
        match self.peek() {
            Some(c) if ident_byte(c) || c >= 0x80 => Err(GiveUp),
            _ => Ok(()),
        }
    }

    /// `(` fields or elements `)`, read by `visit` through a [`Separated`].
    fn parenthesised<T>(
        &mut self,
        close: u8,
        struct_keys: bool,
        visit: impl FnOnce(Separated<'_, 'a>) -> Result<T>,
    ) -> Result<T> {
        let v = self.nested(|r| visit(Separated { r, close, had_comma: true, struct_keys }))?;
        self.ws();
        self.expect(close)?;
        Ok(v)
    }
}

enum Str<'a> {
    Borrowed(&'a str),
    Owned(String),
}

/// The elements of a list, tuple, map or struct, separated by commas (a trailing
/// comma allowed), as `ron` reads them.
struct Separated<'r, 'a> {
    r: &'r mut Reader<'a>,
    close: u8,
    had_comma: bool,
    struct_keys: bool,
}

impl Separated<'_, '_> {
    fn has_element(&mut self) -> Result<bool> {
        self.r.ws();
        let at_end = self.r.peek() == Some(self.close);
        match (self.had_comma, at_end) {
            (true, at_end) => Ok(!at_end),
            (false, true) => Ok(false),
            (false, false) => Err(GiveUp),
        }
    }
}

impl<'a> de::SeqAccess<'a> for Separated<'_, 'a> {
    type Error = GiveUp;
    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.has_element()? {
            return Ok(None);
        }
        let v = self.r.nested(|r| seed.deserialize(r))?;
        self.had_comma = self.r.comma();
        Ok(Some(v))
    }
}

impl<'a> de::MapAccess<'a> for Separated<'_, 'a> {
    type Error = GiveUp;
    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.has_element()? {
            return Ok(None);
        }
        if self.struct_keys {
            let name = self.r.ident()?;
            seed.deserialize(de::value::BorrowedStrDeserializer::<GiveUp>::new(name)).map(Some)
        } else {
            self.r.nested(|r| seed.deserialize(r)).map(Some)
        }
    }

    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value> {
        self.r.ws();
        self.r.expect(b':')?;
        self.r.ws();
        let v = self.r.nested(|r| seed.deserialize(r))?;
        self.had_comma = self.r.comma();
        Ok(v)
    }
}

/// An enum's variant: its name, then nothing, `(value)`, `(a, b)` or `(field: …)`.
struct Variant<'r, 'a> {
    r: &'r mut Reader<'a>,
}

impl<'a> de::EnumAccess<'a> for Variant<'_, 'a> {
    type Error = GiveUp;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'a>>(self, seed: V) -> Result<(V::Value, Self)> {
        self.r.ws();
        let name = self.r.ident()?;
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<GiveUp>::new(name))?;
        Ok((v, self))
    }
}

impl<'a> de::VariantAccess<'a> for Variant<'_, 'a> {
    type Error = GiveUp;
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'a>>(self, seed: T) -> Result<T::Value> {
        let r = self.r;
        r.ws();
        r.expect(b'(')?;
        r.ws();
        let v = r.nested(|r| seed.deserialize(r))?;
        r.comma();
        r.expect(b')')?;
        Ok(v)
    }
    fn tuple_variant<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        let r = self.r;
        r.ws();
        r.expect(b'(')?;
        r.parenthesised(b')', false, |s| visitor.visit_seq(s))
    }
    fn struct_variant<V: Visitor<'a>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        let r = self.r;
        r.ws();
        r.expect(b'(')?;
        r.parenthesised(b')', true, |s| visitor.visit_map(s))
    }
}

macro_rules! unsigned {
    ($($name:ident $visit:ident $t:ty),*) => {$(
        fn $name<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
            let v = <$t>::try_from(self.unsigned()?).map_err(|_| GiveUp)?;
            visitor.$visit(v)
        }
    )*};
}

macro_rules! signed {
    ($($name:ident $visit:ident $t:ty),*) => {$(
        fn $name<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
            let v = <$t>::try_from(self.signed()?).map_err(|_| GiveUp)?;
            visitor.$visit(v)
        }
    )*};
}

macro_rules! give_up {
    ($($name:ident),*) => {$(
        fn $name<V: Visitor<'a>>(self, _visitor: V) -> Result<V::Value> {
            Err(GiveUp)
        }
    )*};
}

impl<'a> de::Deserializer<'a> for &mut Reader<'a> {
    type Error = GiveUp;

    // What the saved layout never holds is left to `ron`: values of unknown shape
    // (and so unknown fields), floats, chars, bytes.
    give_up!(
        deserialize_any,
        deserialize_ignored_any,
        deserialize_f32,
        deserialize_f64,
        deserialize_char,
        deserialize_bytes,
        deserialize_byte_buf
    );
    unsigned!(deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16, deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64);
    signed!(deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16, deserialize_i32 visit_i32 i32, deserialize_i64 visit_i64 i64);

    fn deserialize_bool<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        if self.word("true")? {
            visitor.visit_bool(true)
        } else if self.word("false")? {
            visitor.visit_bool(false)
        } else {
            Err(GiveUp)
        }
    }

    fn deserialize_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.string()? {
            Str::Borrowed(s) => visitor.visit_borrowed_str(s),
            Str::Owned(s) => visitor.visit_string(s),
        }
    }

    fn deserialize_string<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        if self.word("None")? {
            return visitor.visit_none();
        }
        if !self.word("Some")? {
            return Err(GiveUp);
        }
        self.ws();
        self.expect(b'(')?;
        self.ws();
        let v = self.nested(|r| visitor.visit_some(r))?;
        self.comma();
        self.expect(b')')?;
        Ok(v)
    }

    fn deserialize_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        if self.b[self.pos..].starts_with(b"()") {
            self.pos += 2;
            visitor.visit_unit()
        } else {
            Err(GiveUp)
        }
    }

    fn deserialize_unit_struct<V: Visitor<'a>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.no_name()?;
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'a>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        // `ron`'s raw values use a private newtype name.
        if name.starts_with('$') {
            return Err(GiveUp);
        }
        self.no_name()?;
        self.expect(b'(')?;
        self.ws();
        let v = self.nested(|r| visitor.visit_newtype_struct(r))?;
        self.comma();
        self.expect(b')')?;
        Ok(v)
    }

    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'[')?;
        self.parenthesised(b']', false, |s| visitor.visit_seq(s))
    }

    fn deserialize_tuple<V: Visitor<'a>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.expect(b'(')?;
        self.parenthesised(b')', false, |s| visitor.visit_seq(s))
    }

    fn deserialize_tuple_struct<V: Visitor<'a>>(self, _name: &'static str, len: usize, visitor: V) -> Result<V::Value> {
        self.no_name()?;
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'{')?;
        self.parenthesised(b'}', false, |s| visitor.visit_map(s))
    }

    fn deserialize_struct<V: Visitor<'a>>(
        self,
        name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        // `ron` reads the standard ranges in forms of their own.
        if name.starts_with("Range") {
            return Err(GiveUp);
        }
        self.no_name()?;
        self.expect(b'(')?;
        self.parenthesised(b')', true, |s| visitor.visit_map(s))
    }

    fn deserialize_enum<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.nested(|r| visitor.visit_enum(Variant { r }))
    }

    fn deserialize_identifier<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let name = self.ident()?;
        visitor.visit_borrowed_str(name)
    }
}

#[cfg(test)]
mod tests {
    use super::{from_str, list_cut, list_part};
    use crate::core::data::ronwrite::to_string_pretty;
    use crate::core::data::shapes::Shape;
    use serde::Deserialize;
    use serde::de::DeserializeOwned;
    use std::collections::BTreeMap;
    use std::fmt::Debug;

    /// What `ron` reads of `text`, checked against what this reader reads: the
    /// same value whenever this reader reads one.
    fn agree<T: DeserializeOwned + PartialEq + Debug>(text: &str) -> (Option<T>, Option<T>) {
        let fast = from_str::<T>(text);
        let slow = ron::Options::default().from_str::<T>(text).ok();
        if fast.is_some() {
            assert_eq!(fast, slow, "the fast reader and ron disagree on {text:?}");
        }
        (fast, slow)
    }

    /// Numbers of every width this reader reads.
    type Extra = (u8, u16, i16, i32);

    #[test]
    fn reads_what_the_saved_layout_writes_as_ron_does() {
        let value = crate::core::data::shapes::sample::<Extra>(3, (255, 65535, -32768, -1));
        for depth in [0, 1, 2, 4, 8] {
            let text = to_string_pretty(&value, depth).unwrap();
            let (fast, slow) = agree::<crate::core::data::shapes::Deep<Extra>>(&text);
            assert_eq!(fast.as_ref(), Some(&value), "depth {depth}");
            assert_eq!(slow.as_ref(), Some(&value));
        }
    }

    #[test]
    fn reads_the_bundled_world_as_ron_does() {
        let s = &crate::systems::overlord::testkit::alpha();
        let files = crate::systems::overlord::data::scenario_files(s).unwrap();
        let text = |name: &str| String::from_utf8(files.iter().find(|f| f.0 == name).unwrap().1.clone()).unwrap();
        use crate::systems::overlord::data::*;
        assert_eq!(agree::<Vec<Unit>>(&text("units.ron")).0.as_ref(), Some(&s.units));
        assert_eq!(agree::<Vec<Location>>(&text("locations.ron")).0.as_ref(), Some(&s.locations));
        assert_eq!(agree::<Vec<Structure>>(&text("structures.ron")).0.as_ref(), Some(&s.structures));
        assert_eq!(agree::<Vec<Faction>>(&text("factions.ron")).0.as_ref(), Some(&s.factions));
        assert_eq!(agree::<GameSettings>(&text("game.ron")).0.as_ref(), Some(&s.game));
    }

    #[test]
    fn white_space_commas_and_numbers_as_ron_reads_them() {
        // Read, and the same as ron.
        for text in ["[1,2,3]", " [ 1 , 2 , 3 , ] ", "[\n1,\r\n\t2,3\n]\n", "[007, 0]", "[]", "[ ]"] {
            assert!(agree::<Vec<u32>>(text).0.is_some(), "{text}");
        }
        for text in ["(a: 1, b: [2])", "( a : 1 , b : [ 2 , ] , )", "(b: [], a: 0)"] {
            assert!(agree::<Rec>(text).0.is_some(), "{text}");
        }
        assert!(agree::<Option<Option<u8>>>("Some( Some(1,) )").0.is_some());
        assert!(agree::<(i64, i8)>("(-9223372036854775808, -128)").0.is_some());
        assert!(agree::<BTreeMap<String, bool>>("{\"x\": true, \"y\" : false,}").0.is_some());
        assert!(agree::<Shape>("Record(a: None, b: [])").0.is_some());
        assert!(agree::<Shape>("Tuple (-1, \"\")").0.is_some());
        // Left to ron, which reads some of these and refuses others.
        for text in [
            "[1 2]",
            "[,]",
            "[1,,2]",
            "[+1]",
            "[-0]",
            "[0x10]",
            "[1_000]",
            "[1u32]",
            "[1.0]",
            "[4294967296]",
            "[1] // a comment",
            "/* c */ [1]",
            "[1] x",
            "#![enable(implicit_some)] [1]",
        ] {
            assert_eq!(agree::<Vec<u32>>(text).0, None, "{text}");
        }
        for text in [
            "Rec(a: 1, b: [])",
            "(a: 1, b: [], c: 2)",
            "(a: 1, a: 2, b: [])",
            "(a: 1)",
            "(r#a: 1, b: [])",
            "(a: 1 b: [])",
            "(a: 1, b: [],,)",
        ] {
            assert_eq!(agree::<Rec>(text).0, None, "{text}");
        }
        for text in
            ["\"a\\x41\"", "r\"raw\"", "\"a\\\nb\"", "\"\\u{110000}\"", "\"\\u{}\"", "\"\\u{0000041}\"", "\"open"]
        {
            assert_eq!(agree::<String>(text).0, None, "{text}");
        }
        assert_eq!(agree::<String>("\"\\u{41}\\u{10FFFF}\"").0.as_deref(), Some("A\u{10ffff}"));
        for text in ["Somex(1)", "Some 1", "none", "Some((1))"] {
            assert_eq!(agree::<Option<u8>>(text).0, None, "{text}");
        }
        for text in ["Unit(1)", "Unité", "New(1, 2)", "Record(a: None)"] {
            assert_eq!(agree::<Shape>(text).0, None, "{text}");
        }
        assert_eq!(agree::<(u8, u8)>("(1, 2, 3)").0, None);
        assert_eq!(agree::<(u8, u8)>("(1)").0, None);
    }

    /// Field names of letters, digits and `_` are read as `ron` reads them, to the
    /// first byte that cannot continue one; the table of such bytes is the rule.
    #[test]
    fn identifiers_are_read_to_their_last_byte() {
        for c in 0..=255u8 {
            assert_eq!(super::ident_byte(c), c.is_ascii_alphanumeric() || c == b'_', "{c}");
        }
        #[derive(Deserialize, Debug, PartialEq)]
        struct Names {
            a_1: u8,
            _b: u8,
            c9d: u8,
        }
        for text in ["(a_1: 1, _b: 2, c9d: 3)", "(a_1:1,_b:2,c9d:3)", "(c9d: 3, a_1: 1, _b: 2,)"] {
            assert_eq!(agree::<Names>(text).0, Some(Names { a_1: 1, _b: 2, c9d: 3 }), "{text}");
        }
        for text in ["(a_1.: 1, _b: 2, c9d: 3)", "(a_1: 1, _b: 2, c9dé: 3)", "(a_1: 1, _b: 2, 9c: 3)"] {
            assert_eq!(agree::<Names>(text).0, None, "{text}");
        }
    }

    /// A list read in parts at cuts found by `list_cut` is the list read whole;
    /// a part that does not end where the next starts, or a list that ends
    /// before a cut, is refused.
    #[test]
    fn a_list_read_in_parts_is_the_list_read_whole() {
        let s = &crate::systems::overlord::testkit::alpha();
        let files = crate::systems::overlord::data::scenario_files(s).unwrap();
        let text = String::from_utf8(files.iter().find(|f| f.0 == "units.ron").unwrap().1.clone()).unwrap();
        let whole: Vec<crate::systems::overlord::data::Unit> = from_str(&text).unwrap();
        assert!(whole.len() > 10);
        for parts in 1..6 {
            let mut cuts: Vec<usize> = (1..parts).filter_map(|k| list_cut(&text, text.len() * k / parts)).collect();
            cuts.dedup();
            let mut bounds = vec![0];
            bounds.extend(&cuts);
            let mut got = Vec::new();
            for (k, &from) in bounds.iter().enumerate() {
                got.extend(
                    list_part::<crate::systems::overlord::data::Unit>(&text, from, bounds.get(k + 1).copied()).unwrap(),
                );
            }
            assert_eq!(got, whole, "{parts} parts");
        }
        // Not an element's start: one byte off, on either side.
        let cut = list_cut(&text, text.len() / 2).unwrap();
        assert_eq!(&text[cut - 1..=cut], " (");
        for wrong in [cut - 1, cut + 1] {
            assert!(list_part::<crate::systems::overlord::data::Unit>(&text, 0, Some(wrong)).is_none(), "{wrong}");
        }
        // Small lists: the cut must be met exactly, the end must close the list.
        let t = "[\n  (\n    a: 1,\n    b: [],\n  ),\n  (\n    a: 2,\n    b: [3],\n  ),\n]\n";
        let cut = list_cut(t, 0).unwrap();
        assert_eq!(list_part::<Rec>(t, 0, Some(cut)), Some(vec![Rec { a: 1, b: vec![] }]));
        assert_eq!(list_part::<Rec>(t, cut, None), Some(vec![Rec { a: 2, b: vec![3] }]));
        assert_eq!(list_part::<Rec>(t, 0, None).map(|v| v.len()), Some(2));
        assert_eq!(list_cut(t, cut), None);
        assert_eq!(list_part::<Rec>(t, cut, Some(t.len() - 2)), None, "the list ends before the cut");
        assert_eq!(list_part::<Rec>(&t.replace("]\n", "] x"), cut, None), None, "text after the list");
        assert_eq!(list_part::<Rec>(&t.replace("),\n  (\n    a: 2", ")\n  (\n    a: 2"), 0, None), None);
    }

    /// A list's first part has room for every element to the text's end, guessed
    /// from its first elements, so the parts after it are appended without a copy
    /// of all of it; the room is not far beyond what the text holds. (Lists
    /// shorter than the guess needs are read above.)
    #[test]
    fn a_first_part_has_room_for_the_whole_list() {
        let rec = |a: usize| format!("  (\n    a: {a},\n    b: [1, 2],\n  ),\n");
        let text = format!("[\n{}]\n", (0..1000).map(rec).collect::<String>());
        let cut = list_cut(&text, text.len() / 2).unwrap();
        let head = list_part::<Rec>(&text, 0, Some(cut)).unwrap();
        assert!(head.len() < 600 && head.capacity() >= 1000, "{} in {}", head.len(), head.capacity());
        // Room only for what the text could hold: not far beyond the whole.
        assert!(head.capacity() <= 1300, "{}", head.capacity());
        let tail = list_part::<Rec>(&text, cut, None).unwrap();
        assert_eq!(head.len() + tail.len(), 1000);
        assert_eq!(tail[0].a as usize, head.len());
    }

    /// `read_lists_beside`: two lists read on two threads, whichever of them is
    /// cut and wherever, are the lists read alone, the other work done once
    /// between; a list the parts cannot read is read whole, with `ron`'s error
    /// and line; a missing list is empty, without an error, and an empty file is
    /// an error as read alone.
    #[test]
    fn lists_read_beside_other_work_are_the_lists_read_alone() {
        use crate::core::data::{read_lists_beside, read_ron};
        use crate::systems::overlord::data::{Location, Unit};
        let s = &crate::systems::overlord::testkit::alpha();
        let files = crate::systems::overlord::data::scenario_files(s).unwrap();
        let text = |name: &str| String::from_utf8(files.iter().find(|f| f.0 == name).unwrap().1.clone()).unwrap();
        let (units_text, places_text) = (text("units.ron"), text("locations.ron"));
        let dir = tempfile::tempdir().unwrap();
        let (units, places) = (dir.path().join("units.ron"), dir.path().join("locations.ron"));
        std::fs::write(&units, &units_text).unwrap();
        std::fs::write(&places, &places_text).unwrap();
        let (nu, np) = (units_text.len() as u64, places_text.len() as u64);
        // The units cut (other work small), the places cut (other work as big as
        // the units and more), neither (other work far bigger than both).
        for other in [0, nu / 3, nu + np / 2, nu + np, u64::MAX] {
            let mut ran = 0;
            let ((u, du), (p, dp), ()) = read_lists_beside::<Unit, Location, _>(&units, &places, other, || ran += 1);
            assert_eq!((u.as_slice(), du.len(), ran), (s.units.as_slice(), 0, 1), "{other}");
            assert_eq!((p.as_slice(), dp.len()), (s.locations.as_slice(), 0), "{other}");
        }
        // Broken past the cut, in either list: no part of it is kept; the error
        // is ron's, as read whole; the other list is read.
        for (broken, whole, other) in [(&units, &units_text, 0), (&places, &places_text, nu)] {
            let len = whole.len() as u64;
            let cut = list_cut(whole, whole.len() * 3 / 4).unwrap();
            std::fs::write(broken, format!("{}oops{}", &whole[..cut], &whole[cut..])).unwrap();
            let ((u, du), (p, dp), ()) =
                read_lists_beside::<Unit, Location, _>(&units, &places, other + len / 4, || ());
            let (empty, diags, read) = if broken == &units {
                (u.is_empty(), du, p.len() == s.locations.len() && dp.is_empty())
            } else {
                (p.is_empty(), dp, u.len() == s.units.len() && du.is_empty())
            };
            assert!(empty && read);
            let mut alone = Vec::new();
            let none = if broken == &units {
                read_ron::<Vec<Unit>>(broken, true, &mut alone).is_none()
            } else {
                read_ron::<Vec<Location>>(broken, true, &mut alone).is_none()
            };
            assert!(none);
            assert_eq!(format!("{diags:?}"), format!("{alone:?}"));
            assert!(diags.len() == 1 && diags[0].line > 1, "{diags:?}");
            std::fs::write(broken, whole).unwrap();
        }
        // Missing, and empty.
        let none = dir.path().join("none.ron");
        let ((u, du), (p, dp), n) = read_lists_beside::<Unit, Location, _>(&none, &none, 0, || 7);
        assert!(u.is_empty() && du.is_empty() && p.is_empty() && dp.is_empty() && n == 7);
        std::fs::write(&none, "").unwrap();
        let ((u, du), (_, dp), ()) = read_lists_beside::<Unit, Location, _>(&none, &places, 0, || ());
        assert!(u.is_empty() && du.len() == 1 && dp.is_empty(), "{du:?}");
    }

    #[test]
    fn nesting_deeper_than_ron_allows_is_left_to_ron() {
        #[derive(Deserialize)]
        struct Nest(#[allow(dead_code)] Vec<Nest>);
        let text = format!("{}{}", "([".repeat(10_000), "])".repeat(10_000));
        assert!(from_str::<Nest>(&text).is_none());
        let text = format!("{}{}", "([".repeat(20), "])".repeat(20));
        assert!(from_str::<Nest>(&text).is_some());
        let v: Vec<Vec<Vec<u8>>> = from_str("[[[1]]]").unwrap();
        assert_eq!(v, vec![vec![vec![1]]]);
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Rec {
        a: u32,
        b: Vec<u8>,
    }
}
