//! A fast writer of compact JSON, byte for byte what `serde_json::to_writer`
//! writes.
//!
//! Reports for programs are JSON, and a big world's are most of the bytes a turn
//! writes. `serde_json` writes every string in three calls to its writer (the
//! quotes and the text) and looks every byte up in a table; this writer tells in
//! one pass, eight bytes at a time, whether a string needs escaping at all, and
//! writes the few that do as `serde_json` does. What it does not handle (a map
//! key that is not a string or an integer, a value whose `Serialize` fails, floats)
//! makes it give up, and [`to_vec_in`] then lets `serde_json` write the value, so
//! the output is `serde_json`'s in every case. The tests compare both on a value of
//! every serde shape and on strings of every kind of byte.

use serde::Serialize;
use serde::ser;

/// Writes `value` as compact JSON at the end of `out`, as
/// `serde_json::to_writer(out, value)` would.
pub fn to_vec_in<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> serde_json::Result<()> {
    if fast(out, value) {
        return Ok(());
    }
    serde_json::to_writer(&mut *out, value)
}

/// Writes `value` at the end of `out` if this writer handles all of it; else
/// leaves `out` as it was and says no.
fn fast<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> bool {
    let start = out.len();
    let mut names = Names::take(&NAMES);
    let done = value.serialize(&mut Writer { out: &mut *out, names: &mut names }).is_ok();
    Names::give_back(&NAMES, names);
    if !done {
        out.truncate(start);
    }
    done
}

thread_local! {
    /// Field names as this writer writes them, kept for the thread's next value.
    static NAMES: std::cell::Cell<Option<Box<Names>>> = const { std::cell::Cell::new(None) };
}

struct Writer<'o> {
    out: &'o mut Vec<u8>,
    /// Struct field names as written: `,"name":`.
    names: &'o mut Names,
}

use super::GiveUp;
use super::words::{Names, has_below, has_byte, push_plain};

type Result<T = ()> = std::result::Result<T, GiveUp>;

/// Whether a byte of the word `w` is one JSON escapes: a control character, a
/// quote or a backslash.
#[inline]
fn word_to_escape(w: u64) -> bool {
    has_below(w, 0x20) || has_byte(w, b'"') || has_byte(w, b'\\')
}

#[inline]
fn byte_to_escape(c: u8) -> bool {
    c < 0x20 || c == b'"' || c == b'\\'
}

const HEX: &[u8; 16] = b"0123456789abcdef";

impl<'o> Writer<'o> {
    #[inline]
    fn string(&mut self, s: &str) {
        string(self.out, s);
    }

    #[inline]
    fn int<I: itoa::Integer>(&mut self, v: I) {
        self.out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
    }

    /// A struct's field name and its colon, after a comma unless it is the `first`.
    #[inline]
    fn key(&mut self, name: &'static str, first: bool) {
        self.names.push(self.out, name, (usize::from(first), 0), |name, form| {
            form.push(b',');
            string(form, name);
            form.push(b':');
            true
        });
    }

    /// `{"variant":`, which a variant with data opens with.
    fn open_variant(&mut self, variant: &str) {
        self.out.push(b'{');
        self.string(variant);
        self.out.push(b':');
    }

    /// A compound opened with `open` (in `{"variant":` when of a variant), to be
    /// closed with `close`.
    fn open<'a>(&'a mut self, variant: Option<&str>, open: u8, close: &'static [u8]) -> Compound<'a, 'o> {
        if let Some(v) = variant {
            self.open_variant(v);
        }
        self.out.push(open);
        Compound { w: self, first: true, close }
    }
}

/// A string in quotes, escaped as `serde_json` escapes it. The bytes are
/// tested and copied eight at a time (the last eight overlapping the word
/// before), so that no copy of a length known only when running is made.
#[inline]
fn string(out: &mut Vec<u8>, s: &str) {
    let b = s.as_bytes();
    out.push(b'"');
    if !push_plain(out, b, |w| !word_to_escape(w), |c| !byte_to_escape(c)) {
        escaped(out, b);
    }
    out.push(b'"');
}

/// The bytes of a string that holds a byte to escape.
#[cold]
fn escaped(out: &mut Vec<u8>, b: &[u8]) {
    for &c in b {
        let short = match c {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x0c => b'f',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0..0x20 => {
                out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[usize::from(c >> 4)], HEX[usize::from(c & 15)]]);
                continue;
            }
            _ => {
                out.push(c);
                continue;
            }
        };
        out.extend_from_slice(&[b'\\', short]);
    }
}

/// A sequence, map, struct or tuple being written; `close` is what ends it
/// (`]`, `}`, or `]}` / `}}` for a variant's).
struct Compound<'a, 'o> {
    w: &'a mut Writer<'o>,
    first: bool,
    close: &'static [u8],
}

impl Compound<'_, '_> {
    #[inline]
    fn comma(&mut self) {
        if self.first {
            self.first = false;
        } else {
            self.w.out.push(b',');
        }
    }
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.comma();
        value.serialize(&mut *self.w)
    }
    #[inline]
    fn field<T: ?Sized + Serialize>(&mut self, key: &'static str, value: &T) -> Result {
        self.w.key(key, self.first);
        self.first = false;
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result {
        self.w.out.extend_from_slice(self.close);
        Ok(())
    }
}

/// A serializer's methods for every integer type, each `$how(self, value)`.
macro_rules! integers {
    (|$s:ident, $v:ident| $how:expr) => {
        integers!(@ |$s, $v| $how; serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
            serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
            serialize_u32: u32, serialize_u64: u64, serialize_u128: u128);
    };
    (@ |$s:ident, $v:ident| $how:expr; $($method:ident: $t:ty),*) => {$(
        fn $method(self, $v: $t) -> Result {
            let $s = self;
            $how
        }
    )*};
}

impl<'a, 'o> ser::Serializer for &'a mut Writer<'o> {
    type Ok = ();
    type Error = GiveUp;
    type SerializeSeq = Compound<'a, 'o>;
    type SerializeTuple = Compound<'a, 'o>;
    type SerializeTupleStruct = Compound<'a, 'o>;
    type SerializeTupleVariant = Compound<'a, 'o>;
    type SerializeMap = Compound<'a, 'o>;
    type SerializeStruct = Compound<'a, 'o>;
    type SerializeStructVariant = Compound<'a, 'o>;

    fn serialize_bool(self, v: bool) -> Result {
        self.out.extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    integers!(|w, v| {
        w.int(v);
        Ok(())
    });
    /// Floats are left to `serde_json` (no report holds one).
    fn serialize_f32(self, _: f32) -> Result {
        Err(GiveUp)
    }
    fn serialize_f64(self, _: f64) -> Result {
        Err(GiveUp)
    }
    fn serialize_char(self, v: char) -> Result {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result {
        self.out.push(b'[');
        for (i, &b) in v.iter().enumerate() {
            if i > 0 {
                self.out.push(b',');
            }
            self.int(b);
        }
        self.out.push(b']');
        Ok(())
    }
    fn serialize_none(self) -> Result {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        self.string(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result {
        // `serde_json`'s raw values and arbitrary-precision numbers use private names.
        if name.starts_with('$') {
            return Err(GiveUp);
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a, 'o>> {
        Ok(self.open(None, b'[', b"]"))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'o>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, 'o>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 'o>> {
        Ok(self.open(Some(variant), b'[', b"]}"))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a, 'o>> {
        Ok(self.open(None, b'{', b"}"))
    }
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'a, 'o>> {
        if name.starts_with('$') {
            return Err(GiveUp);
        }
        Ok(self.open(None, b'{', b"}"))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, 'o>> {
        Ok(self.open(Some(variant), b'{', b"}}"))
    }
}

/// The parts of a compound but a map's: each element, tuple field or struct
/// field after a comma, and the close.
macro_rules! parts {
    ($($trait:ident :: $method:ident ($($key:ident: $k:ty)?) => $how:ident;)*) => {$(
        impl ser::$trait for Compound<'_, '_> {
            type Ok = ();
            type Error = GiveUp;
            fn $method<T: ?Sized + Serialize>(&mut self, $($key: $k,)? value: &T) -> Result {
                self.$how($($key,)? value)
            }
            fn end(self) -> Result {
                Compound::end(self)
            }
        }
    )*};
}

parts! {
    SerializeSeq::serialize_element() => element;
    SerializeTuple::serialize_element() => element;
    SerializeTupleStruct::serialize_field() => element;
    SerializeTupleVariant::serialize_field() => element;
    SerializeStruct::serialize_field(key: &'static str) => field;
    SerializeStructVariant::serialize_field(key: &'static str) => field;
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = GiveUp;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result {
        self.comma();
        key.serialize(Key { w: &mut *self.w })
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result {
        self.w.out.push(b':');
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result {
        Compound::end(self)
    }
}

/// A map's key: a string, a character, an integer (in quotes), a unit variant's
/// name, or a newtype of one of those, as `serde_json` writes keys; any other
/// gives up.
struct Key<'a, 'o> {
    w: &'a mut Writer<'o>,
}

impl Key<'_, '_> {
    fn quoted_int<I: itoa::Integer>(self, v: I) -> Result {
        self.w.out.push(b'"');
        self.w.int(v);
        self.w.out.push(b'"');
        Ok(())
    }
}

impl ser::Serializer for Key<'_, '_> {
    type Ok = ();
    type Error = GiveUp;
    type SerializeSeq = ser::Impossible<(), GiveUp>;
    type SerializeTuple = ser::Impossible<(), GiveUp>;
    type SerializeTupleStruct = ser::Impossible<(), GiveUp>;
    type SerializeTupleVariant = ser::Impossible<(), GiveUp>;
    type SerializeMap = ser::Impossible<(), GiveUp>;
    type SerializeStruct = ser::Impossible<(), GiveUp>;
    type SerializeStructVariant = ser::Impossible<(), GiveUp>;

    fn serialize_str(self, v: &str) -> Result {
        self.w.string(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result {
        self.w.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result {
        self.w.string(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, name: &'static str, value: &T) -> Result {
        if name.starts_with('$') {
            return Err(GiveUp);
        }
        value.serialize(self)
    }
    integers!(|k, v| k.quoted_int(v));
    fn serialize_bool(self, _: bool) -> Result {
        Err(GiveUp)
    }
    fn serialize_f32(self, _: f32) -> Result {
        Err(GiveUp)
    }
    fn serialize_f64(self, _: f64) -> Result {
        Err(GiveUp)
    }
    fn serialize_bytes(self, _: &[u8]) -> Result {
        Err(GiveUp)
    }
    fn serialize_none(self) -> Result {
        Err(GiveUp)
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result {
        Err(GiveUp)
    }
    fn serialize_unit(self) -> Result {
        Err(GiveUp)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result {
        Err(GiveUp)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result {
        Err(GiveUp)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(GiveUp)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple> {
        Err(GiveUp)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeTupleStruct> {
        Err(GiveUp)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(GiveUp)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap> {
        Err(GiveUp)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct> {
        Err(GiveUp)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(GiveUp)
    }
}

#[cfg(test)]
mod tests {
    use super::{fast, to_vec_in};
    use serde::Serialize;
    use std::collections::BTreeMap;

    /// Written by this writer itself, the same bytes as `serde_json`'s.
    fn both<T: Serialize + ?Sized>(v: &T) {
        let mut mine = b"before ".to_vec();
        assert!(fast(&mut mine, v), "the fast writer gave up");
        let mut slow = b"before ".to_vec();
        serde_json::to_writer(&mut slow, v).unwrap();
        assert_eq!(String::from_utf8_lossy(&mine), String::from_utf8_lossy(&slow));
    }

    #[test]
    fn writes_what_serde_json_writes_for_every_shape() {
        both(&crate::core::data::shapes::sample(4, ('a', '"', '\u{1}')));
        both(&crate::core::data::shapes::sample(0, (i128::MIN, u128::MAX, Some(()), None::<u8>)));
        both(&Vec::<u8>::new());
        both(&serde_bytes_like(&[0, 7, 255]));
        let mut keys = BTreeMap::new();
        keys.insert(-5i64, "minus five");
        keys.insert(u8::MAX.into(), "max");
        both(&keys);
        let mut chars = BTreeMap::new();
        chars.insert('"', 1u8);
        both(&chars);
    }

    /// A value that serialises as bytes.
    fn serde_bytes_like(b: &[u8]) -> impl Serialize + '_ {
        struct Bytes<'a>(&'a [u8]);
        impl Serialize for Bytes<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
        Bytes(b)
    }

    /// A struct whose field names are given when running (and so lie at new
    /// places): more names than the cache has slots, some longer than a slot
    /// holds, some to escape.
    struct Named(Vec<&'static str>);

    impl Serialize for Named {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("Named", self.0.len())?;
            for (i, name) in self.0.iter().enumerate() {
                st.serialize_field(name, &i)?;
            }
            st.end()
        }
    }

    #[test]
    fn writes_field_names_of_every_length_however_they_share_the_cache() {
        let mut names: Vec<&'static str> = (0..600)
            .map(|i| &*Box::leak(format!("{}{i}{}", "n".repeat(i % 40), ["", "\"", "\n"][i % 3]).into_boxed_str()))
            .collect();
        // The same names at other places too (equal names, other pointers), and a
        // name that is the start of another (the same pointer, another length).
        let again: Vec<&'static str> = names.iter().map(|n| &*Box::leak(n.to_string().into_boxed_str())).collect();
        names.extend(again);
        let long: &'static str = Box::leak("abcdefgh".to_string().into_boxed_str());
        names.extend([&long[..3], long, &long[..3]]);
        both(&Named(names.clone()));
        names.reverse();
        both(&vec![Named(names.clone()), Named(Vec::new()), Named(names)]);
    }

    #[test]
    fn escapes_every_byte_as_serde_json_does_wherever_it_lies_in_a_word() {
        // Every ASCII byte, and some of many bytes, at every offset of a word and
        // in strings longer than one.
        for c in (0u8..0x80).map(char::from).chain(['é', '⚔', '\u{10ffff}', '\u{7f}']) {
            for before in 0..17 {
                for after in [0, 1, 9] {
                    let s = format!("{}{c}{}", "a".repeat(before), "b".repeat(after));
                    both(&s);
                }
            }
        }
    }

    /// Left to `serde_json`, with its result.
    fn given_up<T: Serialize + ?Sized>(v: &T) {
        let mut mine = b"before ".to_vec();
        assert!(!fast(&mut mine, v), "the fast writer wrote it");
        assert_eq!(mine, b"before ");
        let mut slow = mine.clone();
        assert_eq!(to_vec_in(&mut mine, v).is_ok(), serde_json::to_writer(&mut slow, v).is_ok());
        assert_eq!(mine, slow);
    }

    #[test]
    fn gives_what_it_cannot_write_to_serde_json() {
        // Keys serde_json writes or refuses: the writer gives up, and the result
        // is serde_json's, error or not.
        let mut bools = BTreeMap::new();
        bools.insert(true, 1u8);
        given_up(&bools);
        given_up(&(1.5f32, [f64::NAN, 0.1, -1e-7, -0.0, 1e300]));
        let mut tuples = BTreeMap::new();
        tuples.insert((1, 2), 3);
        assert!(to_vec_in(&mut Vec::new(), &tuples).is_err());
    }
}
