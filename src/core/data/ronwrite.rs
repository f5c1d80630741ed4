//! A fast writer of the saved RON layout.
//!
//! Saving a large world is mostly writing RON, and the `ron` crate checks every
//! identifier against the Unicode tables and formats every number through
//! `fmt::Write`, which made saving a 27,500-unit state a quarter of a turn's time.
//! This serializer writes the same bytes as `ron`'s pretty printer with the saved
//! layout's options (`depth_limit(d)`, two-space indentor, no struct names, every
//! other option at its default), several times faster, for the subset of data the
//! rule set and scenario types use. Anything outside that subset (byte strings,
//! identifiers that need `r#`, …) makes it give up, and the caller falls back to
//! `ron` itself, so the output is `ron`'s in every case. The tests compare both on
//! the bundled data and on a value that exercises every serde shape.

use super::words::{Names, has_below, has_byte, has_from_127, push_fixed, push_plain};
use serde::Serialize;
use serde::ser;
use std::fmt::Write as _;

/// Serialises `value` as `ron`'s pretty printer would with the saved layout and
/// `depth` levels of indentation; `None` when the value needs a feature this
/// writer leaves to `ron`.
pub fn to_string_pretty<T: Serialize + ?Sized>(value: &T, depth: usize) -> Option<String> {
    to_string_pretty_in(String::new(), value, depth)
}

/// As [`to_string_pretty`], written after what `out` holds (an empty string with
/// room for the text saves growing it).
pub fn to_string_pretty_in<T: Serialize + ?Sized>(out: String, value: &T, depth: usize) -> Option<String> {
    String::from_utf8(to_vec_pretty_in(out.into_bytes(), value, depth)?).ok()
}

/// As [`to_string_pretty_in`], the text as its UTF-8 bytes.
pub fn to_vec_pretty_in<T: Serialize + ?Sized>(out: Vec<u8>, value: &T, depth: usize) -> Option<Vec<u8>> {
    let names = Names::take(&NAMES);
    let mut w = Writer { out: Out(out), depth_limit: depth, indent: 0, is_empty: None, names };
    let done = value.serialize(&mut w).is_ok();
    Names::give_back(&NAMES, w.names);
    done.then_some(w.out.0)
}

thread_local! {
    /// Names as this writer writes them, kept for the thread's next value.
    static NAMES: std::cell::Cell<Option<Box<Names>>> = const { std::cell::Cell::new(None) };
}

const INDENTOR: &str = "  ";

/// A comma, a new line and indentation, of which a separator copies what it
/// needs with one copy of a fixed length.
const SEPARATOR: &[u8; 2 + INDENT_COPY] = &{
    let mut b = [b' '; 2 + INDENT_COPY];
    b[0] = b',';
    b[1] = b'\n';
    b
};
/// Indentation deeper than this is written a level at a time.
const INDENT_COPY: usize = 64;

/// The text written so far: every piece pushed is text, kept as UTF-8 bytes so
/// that pieces can be copied a word at a time.
struct Out(Vec<u8>);

impl Out {
    #[inline]
    fn push(&mut self, c: char) {
        if c.is_ascii() {
            self.0.push(c as u8);
        } else {
            self.push_str(c.encode_utf8(&mut [0; 4]));
        }
    }
    #[inline]
    fn push_str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
    }
}

impl std::fmt::Write for Out {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

struct Writer {
    out: Out,
    /// Field and variant names found plain, as a field is written: `name: `.
    names: Box<Names>,
    depth_limit: usize,
    indent: usize,
    /// Whether the collection being opened is empty, as `ron` tracks it.
    is_empty: Option<bool>,
}

use super::GiveUp;

type Result<T = ()> = std::result::Result<T, GiveUp>;

impl Writer {
    fn within(&self) -> bool {
        self.indent <= self.depth_limit
    }

    fn start_indent(&mut self) {
        self.indent += 1;
        if self.within() && !self.is_empty.unwrap_or(false) {
            self.out.push('\n');
        }
    }

    fn write_indent(&mut self) {
        if self.within() {
            self.indentation(2);
        }
    }

    /// `SEPARATOR` from `skip` (2: none of its comma and new line) and the
    /// indentation of this level.
    #[inline]
    fn indentation(&mut self, skip: usize) {
        let spaces = INDENTOR.len() * self.indent;
        if 2 + spaces <= INDENT_COPY {
            push_fixed::<INDENT_COPY>(&mut self.out.0, SEPARATOR, skip, 2 + spaces);
        } else {
            self.out.0.extend_from_slice(&SEPARATOR[skip..2]);
            for _ in 0..self.indent {
                self.out.push_str(INDENTOR);
            }
        }
    }

    fn end_indent(&mut self) {
        if self.within() && !self.is_empty.unwrap_or(false) {
            for _ in 1..self.indent {
                self.out.push_str(INDENTOR);
            }
        }
        self.indent -= 1;
        self.is_empty = None;
    }

    /// Before an element of a sequence, map or struct.
    fn separate(&mut self, first: &mut bool) {
        if *first {
            *first = false;
            self.write_indent();
        } else if self.within() {
            self.indentation(0);
        } else {
            self.out.push_str(", ");
        }
    }

    /// After the last element of a sequence, map or struct.
    fn close(&mut self, first: bool, closing: char) {
        if !first && self.within() {
            self.out.push_str(",\n");
        }
        self.end_indent();
        self.out.push(closing);
    }

    /// A field or variant name; names that `ron` would write as `r#name` are left
    /// to `ron`.
    fn identifier(&mut self, name: &'static str) -> Result {
        self.name(name, false)
    }

    /// A name, followed by `: ` when it is a `field`'s.
    #[inline]
    fn name(&mut self, name: &'static str, field: bool) -> Result {
        let made = self.names.push(&mut self.out.0, name, (0, if field { 0 } else { 2 }), |name, form| {
            form.extend_from_slice(name.as_bytes());
            form.extend_from_slice(b": ");
            plain_name(name)
        });
        if made { Ok(()) } else { Err(GiveUp) }
    }

    fn uint(&mut self, v: u64) {
        self.out.0.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
    }

    fn sint(&mut self, v: i64) {
        if v < 0 {
            self.out.push('-');
        }
        self.uint(v.unsigned_abs());
    }

    fn string(&mut self, v: &str) {
        self.out.push('"');
        if push_plain(&mut self.out.0, v.as_bytes(), plain_word, plain_byte) {
            self.out.push('"');
            return;
        }
        let mut plain_from = 0;
        for (i, c) in v.char_indices() {
            let plain = matches!(c, ' '..='~') && c != '"' && c != '\'' && c != '\\';
            if plain {
                continue;
            }
            self.out.push_str(&v[plain_from..i]);
            for e in c.escape_debug() {
                self.out.push(e);
            }
            plain_from = i + c.len_utf8();
        }
        self.out.push_str(&v[plain_from..]);
        self.out.push('"');
    }
}

/// Whether `ron` writes `name` as it is, not as `r#name`.
fn plain_name(name: &str) -> bool {
    let b = name.as_bytes();
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
        && !["true", "false", "Some", "None", "inf", "inff32", "inff64", "NaN", "NaNf32", "NaNf64"].contains(&name)
}

/// Whether `ron` writes each byte of the word `w` in a string as it is: printable
/// ASCII but quotes and backslashes.
#[inline]
fn plain_word(w: u64) -> bool {
    !(has_below(w, b' ') || has_from_127(w) || has_byte(w, b'"') || has_byte(w, b'\'') || has_byte(w, b'\\'))
}

#[inline]
fn plain_byte(c: u8) -> bool {
    matches!(c, b' '..=b'~') && c != b'"' && c != b'\'' && c != b'\\'
}

/// A sequence, map, struct or tuple being written.
struct Compound<'a> {
    w: &'a mut Writer,
    first: bool,
}

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = GiveUp;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> Result {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result {
        self.sint(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result {
        self.sint(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result {
        self.sint(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result {
        self.sint(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result {
        self.uint(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result {
        self.uint(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result {
        self.uint(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result {
        self.uint(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result {
        if v.is_nan() && v.is_sign_negative() {
            self.out.push('-');
        }
        write!(self.out, "{v:?}").map_err(|_| GiveUp)
    }
    fn serialize_f64(self, v: f64) -> Result {
        if v.is_nan() && v.is_sign_negative() {
            self.out.push('-');
        }
        write!(self.out, "{v:?}").map_err(|_| GiveUp)
    }
    fn serialize_char(self, v: char) -> Result {
        self.out.push('\'');
        if v == '\\' || v == '\'' {
            self.out.push('\\');
        }
        self.out.push(v);
        self.out.push('\'');
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result {
        Err(GiveUp)
    }
    fn serialize_none(self) -> Result {
        self.out.push_str("None");
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        self.out.push_str("Some(");
        value.serialize(&mut *self)?;
        self.out.push(')');
        Ok(())
    }
    fn serialize_unit(self) -> Result {
        self.out.push_str("()");
        Ok(())
    }
    fn serialize_unit_struct(self, name: &'static str) -> Result {
        if name.is_empty() {
            return Err(GiveUp);
        }
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        self.identifier(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result {
        // `ron`'s raw values use a private newtype name.
        if name.is_empty() || name.starts_with('$') {
            return Err(GiveUp);
        }
        self.out.push('(');
        value.serialize(&mut *self)?;
        self.out.push(')');
        Ok(())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.identifier(variant)?;
        self.out.push('(');
        value.serialize(&mut *self)?;
        self.out.push(')');
        Ok(())
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Compound<'a>> {
        self.out.push('[');
        if let Some(len) = len {
            self.is_empty = Some(len == 0);
        }
        self.start_indent();
        Ok(Compound { w: self, first: true })
    }
    fn serialize_tuple(self, _: usize) -> Result<Compound<'a>> {
        self.out.push('(');
        Ok(Compound { w: self, first: true })
    }
    fn serialize_tuple_struct(self, name: &'static str, len: usize) -> Result<Compound<'a>> {
        if name.is_empty() {
            return Err(GiveUp);
        }
        self.serialize_tuple(len)
    }
    fn serialize_tuple_variant(self, _: &'static str, _: u32, variant: &'static str, _: usize) -> Result<Compound<'a>> {
        self.identifier(variant)?;
        self.out.push('(');
        Ok(Compound { w: self, first: true })
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Compound<'a>> {
        self.out.push('{');
        if let Some(len) = len {
            self.is_empty = Some(len == 0);
        }
        self.start_indent();
        Ok(Compound { w: self, first: true })
    }
    fn serialize_struct(self, name: &'static str, len: usize) -> Result<Compound<'a>> {
        // `ron` writes the standard ranges in a compact form only when asked to;
        // their names are not ours, so leave them to it anyway.
        if name.is_empty() || name.starts_with("Range") {
            return Err(GiveUp);
        }
        self.out.push('(');
        self.is_empty = Some(len == 0);
        self.start_indent();
        Ok(Compound { w: self, first: true })
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>> {
        self.identifier(variant)?;
        self.out.push('(');
        self.is_empty = Some(len == 0);
        self.start_indent();
        Ok(Compound { w: self, first: true })
    }
    fn serialize_i128(self, _: i128) -> Result {
        Err(GiveUp)
    }
    fn serialize_u128(self, _: u128) -> Result {
        Err(GiveUp)
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = GiveUp;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.w.separate(&mut self.first);
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result {
        self.w.close(self.first, ']');
        Ok(())
    }
}

impl Compound<'_> {
    fn tuple_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        if self.first {
            self.first = false;
        } else {
            self.w.out.push_str(", ");
        }
        value.serialize(&mut *self.w)
    }

    fn struct_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        self.w.separate(&mut self.first);
        self.w.name(key, true)?;
        value.serialize(&mut *self.w)
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = GiveUp;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.tuple_element(value)
    }
    fn end(self) -> Result {
        self.w.out.push(')');
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = GiveUp;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.tuple_element(value)
    }
    fn end(self) -> Result {
        self.w.out.push(')');
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = GiveUp;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.tuple_element(value)
    }
    fn end(self) -> Result {
        self.w.out.push(')');
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = GiveUp;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result {
        self.w.separate(&mut self.first);
        key.serialize(&mut *self.w)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.w.out.push_str(": ");
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result {
        self.w.close(self.first, '}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = GiveUp;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        self.struct_field(key, value)
    }
    fn end(self) -> Result {
        self.w.close(self.first, ')');
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = GiveUp;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        self.struct_field(key, value)
    }
    fn end(self) -> Result {
        self.w.close(self.first, ')');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::to_string_pretty;
    use serde::Serialize;

    fn by_ron<T: Serialize + ?Sized>(v: &T, depth: usize) -> String {
        let cfg = ron::ser::PrettyConfig::new().depth_limit(depth).indentor("  ").struct_names(false);
        ron::Options::default().to_string_pretty(v, cfg).unwrap()
    }

    /// Floats and chars, which this writer writes as `ron` does.
    type Extra = ((f32, f64, f64), (char, char, char));
    const EXTRA: Extra = ((1.5, -0.0, 1e300), ('a', '\'', '\\'));

    fn sample(levels: u32) -> crate::core::data::shapes::Deep<Extra> {
        crate::core::data::shapes::sample(levels, EXTRA)
    }

    #[test]
    fn writes_what_ron_writes_for_every_shape_at_every_depth() {
        let v = sample(4);
        for depth in 0..8 {
            assert_eq!(to_string_pretty(&v, depth).as_deref(), Some(by_ron(&v, depth).as_str()), "depth {depth}");
        }
        let list = vec![sample(1), sample(0)];
        assert_eq!(to_string_pretty(&list, 2).unwrap(), by_ron(&list, 2));
        let empty: Vec<u8> = Vec::new();
        assert_eq!(to_string_pretty(&empty, 2).unwrap(), by_ron(&empty, 2));
        // Deeper than a separator's one copy of indentation reaches.
        let deep = sample(40);
        assert_eq!(to_string_pretty(&deep, 100).unwrap(), by_ron(&deep, 100));
    }

    #[test]
    fn gives_up_on_what_it_does_not_handle() {
        #[derive(Serialize)]
        #[allow(non_camel_case_types)]
        enum Odd {
            r#true,
        }
        assert_eq!(to_string_pretty(&Odd::r#true, 2), None);
        assert_eq!(to_string_pretty(&1u128, 2), None);
        assert_eq!(to_string_pretty(&(1..2), 2), None);
    }
}
