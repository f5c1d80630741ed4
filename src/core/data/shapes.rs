//! Values of every serde shape the saved RON layout holds, for the tests of the
//! fast writer and reader against `ron`.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    Unit,
    New(u32),
    Tuple(i8, String),
    Record { a: Option<u8>, b: Vec<u8> },
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Pair(String, i64, u64);

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Wrap(Vec<u32>);

#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Empty {}

/// A record of every shape, nested; `extra` holds what one side alone handles
/// (floats and chars are written fast but left to `ron` to read).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deep<X> {
    name: String,
    shapes: Vec<Shape>,
    pairs: Vec<Pair>,
    map: BTreeMap<String, Vec<i32>>,
    empty_map: BTreeMap<String, u8>,
    empty_list: Vec<Deep<X>>,
    inner: Option<Box<Deep<X>>>,
    wrap: Wrap,
    empty: Empty,
    unit: (),
    flags: (bool, bool),
    /// A name longer than the fast writers keep in a slot.
    a_field_whose_name_is_longer_than_the_writers_keep: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    skipped: Option<u8>,
    extra: X,
}

/// A [`Deep`] nested `levels` deep below this one.
pub fn sample<X: Clone>(levels: u32, extra: X) -> Deep<X> {
    let mut map = BTreeMap::new();
    map.insert("k\"ey\n".to_string(), vec![-3, 0, i32::MAX, i32::MIN]);
    map.insert("plain".to_string(), Vec::new());
    Deep {
        name: "It's a \"test\" \\ with\ttabs\r, é, ⚔, \0 and \u{7f}\u{301}\u{10ffff}".into(),
        shapes: vec![
            Shape::Unit,
            Shape::New(7),
            Shape::Tuple(-1, "x".into()),
            Shape::Record { a: Some(1), b: vec![1, 2] },
            Shape::Record { a: None, b: vec![] },
        ],
        pairs: vec![Pair("a".into(), i64::MIN, u64::MAX), Pair(String::new(), i64::MAX, 0)],
        map,
        empty_map: BTreeMap::new(),
        empty_list: Vec::new(),
        inner: (levels > 0).then(|| Box::new(sample(levels - 1, extra.clone()))),
        wrap: Wrap(vec![1, 2, 3]),
        empty: Empty {},
        unit: (),
        flags: (true, false),
        a_field_whose_name_is_longer_than_the_writers_keep: 1,
        skipped: None,
        extra,
    }
}
