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
        return push_short(out, b, plain_word, plain_byte);
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

/// [`push_plain`] for fewer than eight bytes (room for eight more reserved):
/// from four on, the first four and the last four (overlapping) are tested as
/// one word and written as two copies of four; below four, the first, middle and
/// last bytes (which are all of them) as one word and one copy of three. No
/// copy of a length known only when running, no test of each byte.
#[inline]
fn push_short(out: &mut Vec<u8>, b: &[u8], plain_word: impl Fn(u64) -> bool, plain_byte: impl Fn(u8) -> bool) -> bool {
    let n = b.len();
    let start = out.len();
    match n {
        0 => true,
        1..4 => {
            let (first, mid, last) = (b[0], b[n / 2], b[n - 1]);
            let w = u64::from_le_bytes([first, mid, last, first, first, first, first, first]);
            if !plain_word(w) {
                debug_assert!(!b.iter().all(|&c| plain_byte(c)));
                return false;
            }
            out.extend_from_slice(&[first, mid, last]);
            out.truncate(start + n);
            true
        }
        _ => {
            let head: [u8; 4] = [b[0], b[1], b[2], b[3]];
            let tail: [u8; 4] = [b[n - 4], b[n - 3], b[n - 2], b[n - 1]];
            let w = u64::from(u32::from_le_bytes(head)) | (u64::from(u32::from_le_bytes(tail)) << 32);
            if !plain_word(w) {
                debug_assert!(!b.iter().all(|&c| plain_byte(c)));
                return false;
            }
            out.extend_from_slice(&head);
            out.truncate(start + n - 4);
            out.extend_from_slice(&tail);
            true
        }
    }
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

/// Slots a [`Names`] cache starts with; it doubles when half are taken.
const NAME_SLOTS: usize = 1024;
/// Bytes copied for a name from its slot, whatever its length: a copy of a
/// fixed length needs no call. Longer forms are made each time.
const NAME_COPY: usize = 32;

/// The forms in which a fast writer writes names (struct fields, variants), by
/// where the name lies in the program: the derives pass the same `&'static str`
/// for a field each time, so no name is hashed or compared byte by byte. One
/// name at two places is kept twice.
///
/// A table by address, open (a name that finds its slot taken tries the next),
/// which keeps every name it was given: the names are the program's, a few
/// hundred, so each form is made once per thread. (A table of one name per slot,
/// the last one met, made again the forms of names whose addresses fell in one
/// slot, as often as they alternated: which did depended on where the program
/// was loaded, so the writers' cost changed from run to run.)
pub(crate) struct Names {
    slots: Vec<Named>,
    taken: usize,
}

#[derive(Clone)]
struct Named {
    /// The name's address; 0 for a free slot (no `&'static str` lies at 0).
    at: usize,
    name_len: usize,
    len: usize,
    form: [u8; NAME_COPY + 1],
}

const FREE: Named = Named { at: 0, name_len: 0, len: 0, form: [0; NAME_COPY + 1] };

/// A thread's [`Names`] cache for one writer, kept from one value to the next:
/// made afresh for each, its slots would cost more than the names of a small
/// value (a faction's report, a record). What a cache holds never changes what
/// is written, so the writers' output does not depend on what they wrote before.
pub(crate) type NamesCache = std::thread::LocalKey<std::cell::Cell<Option<Box<Names>>>>;

impl Names {
    pub(crate) fn new() -> Self {
        Names { slots: vec![FREE; NAME_SLOTS], taken: 0 }
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

    /// Where the name at `at` is first looked for.
    #[inline]
    fn home(&self, at: usize) -> usize {
        // The product's top bits, as many as the table's size needs.
        at.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (usize::BITS - self.slots.len().trailing_zeros())
    }

    /// The slot of the name at `at` of `len` bytes: its own, or the free one
    /// where it would go.
    fn slot(&self, at: usize, len: usize) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = self.home(at);
        loop {
            let s = &self.slots[i];
            if (s.at == at && s.name_len == len) || s.at == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
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
        // Most names are in the slot they are first looked for.
        let home = self.home(at);
        let s = &self.slots[home];
        let i = if s.at == at && s.name_len == name.len() {
            home
        } else {
            match self.find_or_keep(name, make) {
                Found::Slot(i) => i,
                Found::Long(form) => {
                    out.extend_from_slice(&form[skip..form.len() - cut]);
                    return true;
                }
                Found::Refused => return false,
            }
        };
        let s = &self.slots[i];
        push_fixed::<NAME_COPY>(out, &s.form, skip, s.len - cut);
        true
    }

    /// The slot of a name not in the one it is first looked for: a later one,
    /// or the one its form, made now, is kept in.
    #[cold]
    #[inline(never)]
    fn find_or_keep(&mut self, name: &'static str, make: impl FnOnce(&str, &mut Vec<u8>) -> bool) -> Found {
        let at = name.as_ptr() as usize;
        let i = self.slot(at, name.len());
        if self.slots[i].at != 0 {
            return Found::Slot(i);
        }
        let mut form = Vec::with_capacity(name.len() + 8);
        if !make(name, &mut form) {
            return Found::Refused;
        }
        if form.len() > NAME_COPY {
            return Found::Long(form);
        }
        let s = &mut self.slots[i];
        s.form[..form.len()].copy_from_slice(&form);
        (s.at, s.name_len, s.len) = (at, name.len(), form.len());
        self.taken += 1;
        if self.taken * 2 <= self.slots.len() {
            return Found::Slot(i);
        }
        // Half the slots taken: the table doubles.
        let size = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![FREE; size]);
        for s in old.into_iter().filter(|s| s.at != 0) {
            let j = self.slot(s.at, s.name_len);
            self.slots[j] = s;
        }
        Found::Slot(self.slot(at, name.len()))
    }
}

/// Where [`Names::find_or_keep`] found a name's form.
enum Found {
    /// In this slot.
    Slot(usize),
    /// Made, too long to keep: written from here.
    Long(Vec<u8>),
    /// Not a name the writer handles.
    Refused,
}

#[cfg(test)]
mod tests {
    use super::{Names, has_below, has_byte, has_from_127, push_plain};

    /// Each name's form is made once, however many names there are (the table
    /// grows past its first size here) and however their addresses fall: names
    /// at neighbouring addresses, and names at one address of other lengths, each
    /// keep their own form; a long form is written whole, made each time.
    #[test]
    fn every_name_is_made_once_and_written_as_made() {
        let text: &'static str = Box::leak("abcdefghijklmnopqrstuvwxyz0123456789".repeat(200).into_boxed_str());
        let mut names: Vec<&'static str> = (0..3000).map(|i| &text[i..i + 1 + i % 7]).collect();
        names.extend((2..30).map(|n| &text[..n]));
        let long = &text[..40];
        let mut cache = Names::new();
        let mut made = 0;
        for round in 0..3 {
            for &name in names.iter().chain([&long]) {
                let mut out = b"x".to_vec();
                let make = |n: &str, form: &mut Vec<u8>| {
                    made += 1;
                    form.extend_from_slice(format!("<{n}>").as_bytes());
                    true
                };
                assert!(cache.push(&mut out, name, (1, 1), make));
                assert_eq!(out, format!("x{name}").into_bytes(), "round {round}");
            }
        }
        assert_eq!(made, names.len() + 3, "each short name once, the long one every time");
        // A name the writer does not handle is not written, nor kept.
        let mut out = Vec::new();
        assert!(!cache.push(&mut out, &text[5..9], (0, 0), |_, _| false));
        assert!(out.is_empty());
    }

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

    /// Strings shorter than a word, tested as one word made of their bytes: every
    /// byte value at every place of every such length is told as a test of each
    /// byte tells it, with the writers' kind of test (control characters, quotes,
    /// backslashes, bytes from 127), and a plain string is written as it is.
    #[test]
    fn short_strings_are_told_and_written_as_byte_by_byte() {
        let plain_word = |w: u64| !(has_below(w, 0x20) || has_byte(w, b'"') || has_byte(w, b'\\') || has_from_127(w));
        let plain_byte = |c: u8| (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\';
        for n in 1..8 {
            for place in 0..n {
                for c in 0..=255u8 {
                    let mut b: Vec<u8> = (0..n).map(|i| b'a' + i as u8).collect();
                    b[place] = c;
                    let mut out = b"before".to_vec();
                    let pushed = push_plain(&mut out, &b, plain_word, plain_byte);
                    assert_eq!(pushed, b.iter().all(|&x| plain_byte(x)), "{b:?}");
                    let mut want = b"before".to_vec();
                    if pushed {
                        want.extend_from_slice(&b);
                    }
                    assert_eq!(out, want, "{b:?}");
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
