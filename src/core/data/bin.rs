//! A compact binary form of serde values, for what the engine writes only for
//! itself and reads back at once: the mail index of a turn ([`crate::core::game::index`]).
//! What a game master reads or edits stays RON.
//!
//! The form is not self-describing: a value is read as the type it was written as.
//! Integers are LEB128 varints (signed ones zigzagged), strings and sequences a
//! length and their elements, `Option` a byte. Structs and enum variants carry their
//! names, so that fields left out (`skip_serializing_if`), fields with defaults and
//! a field that a newer type lost or gained behave as they do in RON; each name is
//! written in full once per value and then as a small number. A value this form
//! cannot hold (a sequence of unknown length, 128-bit integers) or bytes that are
//! not a value of the type (cut short, damaged, an unknown field, a type that asks
//! for `deserialize_any`) give an [`Error`], never a panic.

use super::FastMap;
use serde::de::{self, DeserializeOwned, DeserializeSeed, Visitor};
use serde::ser::{self, Serialize};

/// Why a value could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

impl de::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, Error>;

fn fail<T>(what: &str) -> Result<T> {
    Err(Error(what.to_string()))
}

/// `value` in the binary form.
pub fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>> {
    let mut w = Writer { out: Vec::new(), names: FastMap::default() };
    value.serialize(&mut w)?;
    Ok(w.out)
}

/// `value` in the binary form, written at the end of `out` (as [`to_bytes`]
/// writes it: the value read back needs only its own bytes).
pub fn to_end_of<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> Result<()> {
    let mut names = NAMES.take().unwrap_or_default();
    names.clear();
    let mut w = Writer { out: std::mem::take(out), names };
    let start = w.out.len();
    let done = value.serialize(&mut w);
    *out = w.out;
    NAMES.set(Some(w.names));
    if done.is_err() {
        out.truncate(start);
    }
    done
}

/// A value written a piece at a time, in the bytes [`to_bytes`] makes of it
/// whole: its struct's field count, then each field's name and value, a
/// sequence's length, then its elements, each given when it comes. The mail
/// index writes each faction's units so, one unit at a time, as the units file's
/// parts bring them in state order among other factions' units. A value given
/// that cannot be written leaves the pieces unfinished: give them up.
pub struct Pieces(Writer);

impl Default for Pieces {
    fn default() -> Self {
        Pieces(Writer { out: Vec::new(), names: FastMap::default() })
    }
}

impl Pieces {
    /// A struct of `fields` fields (those its `Serialize` writes) begins.
    pub fn begin_struct(&mut self, fields: usize) {
        self.0.varint(fields as u64);
    }
    /// Its next field, `key`, begins: the field's value is given next. `key`
    /// is the field's name as the struct's `Serialize` gives it.
    pub fn field(&mut self, key: &'static str) {
        self.0.name(key);
    }
    /// A sequence of `len` elements begins: they are given next.
    pub fn begin_seq(&mut self, len: usize) {
        self.0.varint(len as u64);
    }
    /// The next value: a field's, or an element of a sequence.
    pub fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut self.0)
    }
    /// The bytes written.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0.out
    }
}

/// The value of type `T` that `bytes` hold, all of them.
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T> {
    let mut r = Reader { b: bytes, pos: 0, names: Vec::new(), depth: 0 };
    let v = T::deserialize(&mut r)?;
    if r.pos != bytes.len() {
        return fail("bytes left after the value");
    }
    Ok(v)
}

/// Nesting deeper than this is refused, so that damaged bytes cannot overflow the
/// stack.
const MAX_DEPTH: usize = 200;

thread_local! {
    /// The table of a value's names, emptied for each value and kept for the
    /// thread's next (its room, not its names: each value numbers its own).
    static NAMES: std::cell::Cell<Option<FastMap<(usize, usize), u32>>> = const { std::cell::Cell::new(None) };
}

struct Writer {
    out: Vec<u8>,
    /// Names written so far (struct fields, variants), with their numbers, by
    /// where the name lies in the program: the derives pass the same `&'static str`
    /// for a field each time, so no name is hashed or compared byte by byte. One
    /// name at two addresses is written in full twice and read back right.
    names: FastMap<(usize, usize), u32>,
}

impl Writer {
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }
    fn signed(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }
    fn bytes(&mut self, b: &[u8]) {
        self.varint(b.len() as u64);
        self.out.extend_from_slice(b);
    }
    /// A name: 0 and the name the first time, its number + 1 after.
    fn name(&mut self, name: &'static str) {
        let key = (name.as_ptr() as usize, name.len());
        match self.names.get(&key) {
            Some(&n) => self.varint(u64::from(n) + 1),
            None => {
                let n = self.names.len() as u32;
                self.names.insert(key, n);
                self.varint(0);
                self.bytes(name.as_bytes());
            }
        }
    }
}

/// A struct's fields: the number announced is checked against those written.
struct Fields<'w> {
    w: &'w mut Writer,
    left: usize,
}

impl Fields<'_> {
    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        if self.left == 0 {
            return fail("a struct wrote more fields than it announced");
        }
        self.left -= 1;
        self.w.name(key);
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<()> {
        if self.left != 0 {
            return fail("a struct wrote fewer fields than it announced");
        }
        Ok(())
    }
}

impl<'w> ser::Serializer for &'w mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Fields<'w>;
    type SerializeStructVariant = Fields<'w>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out.push(u8::from(v));
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.signed(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.varint(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.varint(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.varint(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.varint(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.varint(u64::from(u32::from(v)));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.bytes(v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.bytes(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<()> {
        self.out.push(0);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        self.out.push(1);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Ok(())
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.name(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.name(variant);
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self> {
        let Some(len) = len else { return fail("a sequence of unknown length") };
        self.varint(len as u64);
        Ok(self)
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self> {
        self.name(variant);
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self> {
        let Some(len) = len else { return fail("a map of unknown length") };
        self.varint(len as u64);
        Ok(self)
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Fields<'w>> {
        self.varint(len as u64);
        Ok(Fields { w: self, left: len })
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Fields<'w>> {
        self.name(variant);
        self.varint(len as u64);
        Ok(Fields { w: self, left: len })
    }
    fn serialize_i128(self, _v: i128) -> Result<()> {
        fail("128-bit integers")
    }
    fn serialize_u128(self, _v: u128) -> Result<()> {
        fail("128-bit integers")
    }
}

macro_rules! elements {
    ($($trait:ident $method:ident),*) => {$(
        impl ser::$trait for &mut Writer {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                value.serialize(&mut **self)
            }
            fn end(self) -> Result<()> {
                Ok(())
            }
        }
    )*};
}

elements!(
    SerializeSeq serialize_element,
    SerializeTuple serialize_element,
    SerializeTupleStruct serialize_field,
    SerializeTupleVariant serialize_field
);

impl ser::SerializeMap for &mut Writer {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<()> {
        Ok(())
    }
}

impl ser::SerializeStruct for Fields<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.field(key, value)
    }
    fn skip_field(&mut self, _key: &'static str) -> Result<()> {
        Ok(())
    }
    fn end(self) -> Result<()> {
        Fields::end(self)
    }
}

impl ser::SerializeStructVariant for Fields<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.field(key, value)
    }
    fn skip_field(&mut self, _key: &'static str) -> Result<()> {
        Ok(())
    }
    fn end(self) -> Result<()> {
        Fields::end(self)
    }
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
    /// Names read so far, by number.
    names: Vec<&'a str>,
    depth: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8> {
        let Some(&c) = self.b.get(self.pos) else { return fail("the bytes end within a value") };
        self.pos += 1;
        Ok(c)
    }
    fn varint(&mut self) -> Result<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let c = self.byte()?;
            let bits = u64::from(c & 0x7f);
            if shift == 63 && bits > 1 {
                return fail("a number too large");
            }
            v |= bits << shift;
            if c & 0x80 == 0 {
                return Ok(v);
            }
        }
        fail("a number too large")
    }
    fn signed(&mut self) -> Result<i64> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }
    fn len(&mut self) -> Result<usize> {
        let n = self.varint()?;
        // Every element takes at least one byte, except units, which no list of
        // this engine holds in numbers: a length past the bytes left is damage.
        if n > (self.b.len() - self.pos) as u64 {
            return fail("a length past the end of the bytes");
        }
        Ok(n as usize)
    }
    fn slice(&mut self) -> Result<&'a [u8]> {
        let n = self.len()?;
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn str(&mut self) -> Result<&'a str> {
        std::str::from_utf8(self.slice()?).map_err(|_| Error("a string that is not UTF-8".into()))
    }
    fn name(&mut self) -> Result<&'a str> {
        match self.varint()? {
            0 => {
                let s = self.str()?;
                self.names.push(s);
                Ok(s)
            }
            n => match self.names.get((n - 1) as usize) {
                Some(s) => Ok(s),
                None => fail("a name never written"),
            },
        }
    }
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return fail("values nested too deep");
        }
        let v = f(self);
        self.depth -= 1;
        v
    }
}

/// `n` values one after another: a sequence, a tuple, a map's pairs.
struct Counted<'r, 'a> {
    r: &'r mut Reader<'a>,
    left: usize,
}

impl<'a> de::SeqAccess<'a> for Counted<'_, 'a> {
    type Error = Error;
    fn next_element_seed<T: DeserializeSeed<'a>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.r).map(Some)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'a> de::MapAccess<'a> for Counted<'_, 'a> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.r).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.r)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// A struct's fields: a name, then its value.
struct Named<'r, 'a> {
    r: &'r mut Reader<'a>,
    left: usize,
}

impl<'a> de::MapAccess<'a> for Named<'_, 'a> {
    type Error = Error;
    fn next_key_seed<K: DeserializeSeed<'a>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let name = self.r.name()?;
        seed.deserialize(de::value::BorrowedStrDeserializer::new(name)).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'a>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.r)
    }
}

struct Variant<'r, 'a> {
    r: &'r mut Reader<'a>,
}

impl<'r, 'a> de::EnumAccess<'a> for Variant<'r, 'a> {
    type Error = Error;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'a>>(self, seed: V) -> Result<(V::Value, Self)> {
        let name = self.r.name()?;
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(name))?;
        Ok((v, self))
    }
}

impl<'a> de::VariantAccess<'a> for Variant<'_, 'a> {
    type Error = Error;
    fn unit_variant(self) -> Result<()> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'a>>(self, seed: T) -> Result<T::Value> {
        seed.deserialize(&mut *self.r)
    }
    fn tuple_variant<V: Visitor<'a>>(self, len: usize, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(Counted { r: self.r, left: len })
    }
    fn struct_variant<V: Visitor<'a>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value> {
        let left = self.r.len()?;
        visitor.visit_map(Named { r: self.r, left })
    }
}

macro_rules! unsigned {
    ($($name:ident $visit:ident $t:ty),*) => {$(
        fn $name<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
            let v = <$t>::try_from(self.varint()?).map_err(|_| Error("a number out of range".into()))?;
            visitor.$visit(v)
        }
    )*};
}

macro_rules! signed {
    ($($name:ident $visit:ident $t:ty),*) => {$(
        fn $name<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
            let v = <$t>::try_from(self.signed()?).map_err(|_| Error("a number out of range".into()))?;
            visitor.$visit(v)
        }
    )*};
}

impl<'a> de::Deserializer<'a> for &mut Reader<'a> {
    type Error = Error;

    unsigned!(deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16, deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64);
    signed!(deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16, deserialize_i32 visit_i32 i32, deserialize_i64 visit_i64 i64);

    fn deserialize_any<V: Visitor<'a>>(self, _visitor: V) -> Result<V::Value> {
        fail("a value of unknown type (the binary form names no types)")
    }
    fn deserialize_ignored_any<V: Visitor<'a>>(self, _visitor: V) -> Result<V::Value> {
        fail("a field the type does not have")
    }
    fn deserialize_bool<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.byte()? {
            0 => visitor.visit_bool(false),
            1 => visitor.visit_bool(true),
            _ => fail("a boolean that is neither 0 nor 1"),
        }
    }
    fn deserialize_f32<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let mut b = [0; 4];
        for x in &mut b {
            *x = self.byte()?;
        }
        visitor.visit_f32(f32::from_le_bytes(b))
    }
    fn deserialize_f64<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let mut b = [0; 8];
        for x in &mut b {
            *x = self.byte()?;
        }
        visitor.visit_f64(f64::from_le_bytes(b))
    }
    fn deserialize_char<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let c = u32::try_from(self.varint()?).ok().and_then(char::from_u32);
        match c {
            Some(c) => visitor.visit_char(c),
            None => fail("a character out of range"),
        }
    }
    fn deserialize_str<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.str()?)
    }
    fn deserialize_string<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.str()?)
    }
    fn deserialize_bytes<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_bytes(self.slice()?)
    }
    fn deserialize_byte_buf<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_bytes(self.slice()?)
    }
    fn deserialize_option<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        match self.byte()? {
            0 => visitor.visit_none(),
            1 => self.nested(|r| visitor.visit_some(r)),
            _ => fail("an option that is neither 0 nor 1"),
        }
    }
    fn deserialize_unit<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'a>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'a>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.nested(|r| visitor.visit_newtype_struct(r))
    }
    fn deserialize_seq<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let left = self.len()?;
        self.nested(|r| visitor.visit_seq(Counted { r, left }))
    }
    fn deserialize_tuple<V: Visitor<'a>>(self, len: usize, visitor: V) -> Result<V::Value> {
        self.nested(|r| visitor.visit_seq(Counted { r, left: len }))
    }
    fn deserialize_tuple_struct<V: Visitor<'a>>(self, _name: &'static str, len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_tuple(len, visitor)
    }
    fn deserialize_map<V: Visitor<'a>>(self, visitor: V) -> Result<V::Value> {
        let left = self.len()?;
        self.nested(|r| visitor.visit_map(Counted { r, left }))
    }
    fn deserialize_struct<V: Visitor<'a>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let left = self.len()?;
        self.nested(|r| visitor.visit_map(Named { r, left }))
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
        visitor.visit_borrowed_str(self.name()?)
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::data::shapes::{Deep, sample};
    use serde::{Deserialize, Serialize};

    #[test]
    fn every_shape_comes_back_as_it_went() {
        let v = sample(3, (1.5f32, -2.25f64, 'é'));
        let b = to_bytes(&v).unwrap();
        assert_eq!(from_bytes::<Deep<(f32, f64, char)>>(&b).unwrap(), v);
        // Names are written once: the second of two equal values is shorter.
        let two = to_bytes(&(sample(0, ()), sample(0, ()))).unwrap();
        let one = to_bytes(&sample(0, ())).unwrap();
        assert!(two.len() < 2 * one.len(), "{} vs {}", two.len(), one.len());
    }

    #[test]
    fn a_value_written_in_pieces_is_the_value_written_whole() {
        #[derive(Serialize)]
        struct Inner {
            a: u32,
            #[serde(skip_serializing_if = "Option::is_none")]
            b: Option<String>,
        }
        #[derive(Serialize)]
        struct Outer {
            items: Vec<Inner>,
            tail: Vec<u8>,
        }
        let items = vec![
            Inner { a: 1, b: None },
            Inner { a: 300, b: Some("x".into()) },
            Inner { a: 2, b: Some(String::new()) },
        ];
        let whole = to_bytes(&Outer { items, tail: vec![7, 8] }).unwrap();
        let mut p = Pieces::default();
        p.begin_struct(2);
        p.field("items");
        p.begin_seq(3);
        // The elements' names are numbered across elements as in the whole
        // value: `b` first comes in the second element.
        p.value(&Inner { a: 1, b: None }).unwrap();
        p.value(&Inner { a: 300, b: Some("x".into()) }).unwrap();
        p.value(&Inner { a: 2, b: Some(String::new()) }).unwrap();
        p.field("tail");
        p.value(&vec![7u8, 8]).unwrap();
        assert_eq!(p.into_bytes(), whole);
        // A sequence alone, outside any struct.
        let mut q = Pieces::default();
        q.begin_seq(1);
        q.value(&Inner { a: 2, b: Some("y".into()) }).unwrap();
        assert_eq!(q.into_bytes(), to_bytes(&vec![Inner { a: 2, b: Some("y".into()) }]).unwrap());
        assert!(Pieces::default().value(&u128::MAX).is_err(), "what the form cannot hold fails");
    }

    #[test]
    fn integers_at_their_limits_and_out_of_range() {
        let v = (u64::MAX, i64::MIN, i64::MAX, 0u8, -1i8, u32::MAX);
        assert_eq!(from_bytes::<(u64, i64, i64, u8, i8, u32)>(&to_bytes(&v).unwrap()).unwrap(), v);
        // 300 read as a u8 is out of range; a varint of eleven bytes is too large.
        assert!(from_bytes::<u8>(&to_bytes(&300u32).unwrap()).is_err());
        assert!(from_bytes::<u64>(&[0xff; 11]).is_err());
        assert!(from_bytes::<u64>(&[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02]).is_err());
    }

    #[test]
    fn a_field_left_out_takes_its_default_and_an_unknown_one_is_refused() {
        #[derive(Serialize)]
        struct Old {
            a: u32,
            gone: String,
        }
        #[derive(Deserialize, Debug, PartialEq)]
        struct New {
            a: u32,
            #[serde(default)]
            added: Vec<u8>,
        }
        #[derive(Deserialize, Debug, PartialEq)]
        struct Kept {
            a: u32,
            #[serde(default)]
            gone: String,
            #[serde(default)]
            added: Vec<u8>,
        }
        let b = to_bytes(&Old { a: 3, gone: "x".into() }).unwrap();
        assert!(from_bytes::<New>(&b).is_err());
        assert_eq!(from_bytes::<Kept>(&b).unwrap(), Kept { a: 3, gone: "x".into(), added: vec![] });
    }

    #[test]
    fn damaged_bytes_give_an_error_never_a_panic() {
        let v = sample(2, ());
        let b = to_bytes(&v).unwrap();
        // Cut short anywhere, every byte changed to a few values, bytes added.
        for n in 0..b.len() {
            assert!(from_bytes::<Deep<()>>(&b[..n]).is_err());
        }
        for i in 0..b.len() {
            for x in [0u8, 1, 0x7f, 0x80, 0xff, b[i] ^ 0x20] {
                let mut d = b.clone();
                d[i] = x;
                let _ = from_bytes::<Deep<()>>(&d);
            }
        }
        let mut longer = b.clone();
        longer.push(0);
        assert!(from_bytes::<Deep<()>>(&longer).is_err());
        // Nesting past the limit is refused, not a stack overflow.
        let mut deep = vec![1u8; 100_000];
        deep.push(0);
        assert!(from_bytes::<Nest>(&deep).is_err());
    }

    #[derive(Deserialize)]
    #[allow(dead_code)]
    struct Nest(Option<Box<Nest>>);

    #[test]
    fn what_the_form_cannot_hold_is_an_error() {
        struct Unsized;
        impl Serialize for Unsized {
            fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                use ser::SerializeSeq;
                let mut q = s.serialize_seq(None)?;
                q.serialize_element(&1u8)?;
                q.end()
            }
        }
        assert!(to_bytes(&Unsized).is_err());
        assert!(to_bytes(&1u128).is_err());
        assert!(from_bytes::<serde_json::Value>(&[0]).is_err());
    }
}
