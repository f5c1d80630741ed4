//! Bytes tested and copied eight at a time, for the fast writers
//! ([`super::jsonwrite`], [`super::ronwrite`]): most of what they write is short
//! strings that need no escaping, and a word-wide test and copies of a fixed
//! length cost a few instructions where a test per byte and a copy of a length
//! known only when running cost tens.

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The eight bytes of `b` from `at`, as a word.
#[inline]
pub(crate) fn word_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// Whether a byte of `w` is `c` (exact as a yes or no: the borrows that make
/// the trick wrong for single bytes only ever follow a byte that is `c`).
#[inline]
pub(crate) fn has_byte(w: u64, c: u8) -> bool {
    let x = w ^ (ONES * u64::from(c));
    x.wrapping_sub(ONES) & !x & HIGHS != 0
}

/// Whether a byte of `w` is below `n` (`n` at most 128; exact as a yes or no).
#[inline]
pub(crate) fn has_below(w: u64, n: u8) -> bool {
    w.wrapping_sub(ONES * u64::from(n)) & !w & HIGHS != 0
}

/// Whether a byte of `w` is 127 or above (exact as a yes or no: a carry out of
/// a byte comes only from 255, which is counted itself).
#[inline]
pub(crate) fn has_from_127(w: u64) -> bool {
    (w.wrapping_add(ONES) | w) & HIGHS != 0
}

/// Writes `b` at the end of `out` if `plain_word` holds of each of its words and
/// `plain_byte` of each byte of one shorter than a word (the two must agree);
/// else leaves `out` as it was and says no. Copies are of whole words: the last
/// overlaps the one before.
#[inline]
pub(crate) fn push_plain(
    out: &mut Vec<u8>,
    b: &[u8],
    plain_word: impl Fn(u64) -> bool,
    plain_byte: impl Fn(u8) -> bool,
) -> bool {
    let n = b.len();
    let start = out.len();
    out.reserve(n + 8);
    if n < 8 {
        for &c in b {
            if !plain_byte(c) {
                out.truncate(start);
                return false;
            }
            out.push(c);
        }
        return true;
    }
    let mut at = 0;
    while at + 8 <= n {
        let w = word_at(b, at);
        if !plain_word(w) {
            out.truncate(start);
            return false;
        }
        out.extend_from_slice(&w.to_le_bytes());
        at += 8;
    }
    if at < n {
        let w = word_at(b, n - 8);
        if !plain_word(w) {
            out.truncate(start);
            return false;
        }
        out.truncate(start + n - 8);
        out.extend_from_slice(&w.to_le_bytes());
    }
    true
}

/// Writes `bytes[skip..len]` at the end of `out` with one copy of `COPY` bytes
/// (`bytes` holds at least `skip + COPY`): a copy of a fixed length needs no
/// call.
#[inline]
pub(crate) fn push_fixed<const COPY: usize>(out: &mut Vec<u8>, bytes: &[u8], skip: usize, len: usize) {
    debug_assert!(skip <= len && len - skip <= COPY);
    let end = out.len() + len - skip;
    out.extend_from_slice(&bytes[skip..skip + COPY]);
    out.truncate(end);
}

/// Slots of a [`Names`] cache (a slot holds the last name that fell in it).
const NAME_SLOTS: usize = 1024;
/// Bytes copied for a name from its slot, whatever its length: a copy of a
/// fixed length needs no call. Longer forms are made each time.
const NAME_COPY: usize = 32;

/// The forms in which a fast writer writes names (struct fields, variants), by
/// where the name lies in the program: the derives pass the same `&'static str`
/// for a field each time, so no name is hashed or compared byte by byte. One
/// name at two places is kept twice.
pub(crate) struct Names(Vec<Named>);

#[derive(Clone)]
struct Named {
    at: usize,
    name_len: usize,
    len: usize,
    form: [u8; NAME_COPY + 1],
}

/// A thread's [`Names`] cache for one writer, kept from one value to the next:
/// made afresh for each, its slots would cost more than the names of a small
/// value (a faction's report, a record). What a cache holds never changes what
/// is written, so the writers' output does not depend on what they wrote before.
pub(crate) type NamesCache = std::thread::LocalKey<std::cell::Cell<Option<Box<Names>>>>;

impl Names {
    pub(crate) fn new() -> Self {
        Names(vec![Named { at: 0, name_len: 0, len: 0, form: [0; NAME_COPY + 1] }; NAME_SLOTS])
    }

    /// This thread's names of `cache`, taken out while a value is written (a
    /// value written while another is, by the same writer, gets a new cache).
    pub(crate) fn take(cache: &'static NamesCache) -> Box<Names> {
        cache.take().unwrap_or_else(|| Box::new(Names::new()))
    }

    /// Gives back what [`Names::take`] took, for the thread's next value.
    pub(crate) fn give_back(cache: &'static NamesCache, names: Box<Names>) {
        cache.set(Some(names));
    }

    /// Writes at the end of `out` the form of `name` that `make` makes (it says
    /// no to a name the writer does not handle; so does this then), but its
    /// first `skip` bytes (0 or 1) and its last `cut`.
    #[inline]
    pub(crate) fn push(
        &mut self,
        out: &mut Vec<u8>,
        name: &'static str,
        (skip, cut): (usize, usize),
        make: impl FnOnce(&str, &mut Vec<u8>) -> bool,
    ) -> bool {
        let at = name.as_ptr() as usize;
        let slot = &mut self.0[(at.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54) % NAME_SLOTS];
        if slot.at != at || slot.name_len != name.len() {
            let mut form = Vec::with_capacity(name.len() + 8);
            if !make(name, &mut form) {
                return false;
            }
            if form.len() > NAME_COPY {
                out.extend_from_slice(&form[skip..form.len() - cut]);
                return true;
            }
            slot.form[..form.len()].copy_from_slice(&form);
            (slot.at, slot.name_len, slot.len) = (at, name.len(), form.len());
        }
        push_fixed::<NAME_COPY>(out, &slot.form, skip, slot.len - cut);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::{has_below, has_byte, has_from_127, push_plain};

    /// Every byte value at every place of a word, among neighbours that make
    /// borrows and carries: the word tests say what a test of each byte says.
    #[test]
    fn word_tests_say_what_byte_tests_say() {
        for c in 0..=255u8 {
            for place in 0..8 {
                for fill in [0u8, 1, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xff] {
                    let mut b = [fill; 8];
                    b[place] = c;
                    let w = u64::from_le_bytes(b);
                    assert_eq!(has_byte(w, b'"'), b.contains(&b'"'), "{b:?}");
                    assert_eq!(has_below(w, 0x20), b.iter().any(|&x| x < 0x20), "{b:?}");
                    assert_eq!(has_from_127(w), b.iter().any(|&x| x >= 0x7f), "{b:?}");
                }
            }
        }
    }

    #[test]
    fn plain_bytes_are_pushed_whole_and_others_not_at_all() {
        let plain_word = |w: u64| !has_byte(w, b'x');
        for n in 0..40 {
            for bad in (0..n).map(Some).chain([None]) {
                let mut b = vec![b'a'; n];
                for (i, c) in b.iter_mut().enumerate() {
                    *c = b'a' + (i % 20) as u8;
                }
                if let Some(i) = bad {
                    b[i] = b'x';
                }
                let mut out = b"before".to_vec();
                let pushed = push_plain(&mut out, &b, plain_word, |c| c != b'x');
                assert_eq!(pushed, bad.is_none());
                let mut want = b"before".to_vec();
                if pushed {
                    want.extend_from_slice(&b);
                }
                assert_eq!(out, want, "{n} {bad:?}");
            }
        }
    }
}
