//! The mail index of a turn (`turns/<turn>/mail.index`): what taking in and
//! checking a mail needs, written with the turn, so that a mail costs the same on
//! a world of a thousand units or a million.
//!
//! It is a store of records by key, each a value in the binary form of
//! [`crate::core::data::bin`]. The core's own records are the game (`game`), the
//! rule set (`rules`) and each faction's id, name and password hash (`f/<id in
//! lower case>`); a rule system adds what its checker needs under keys of its own
//! ([`SystemRecords`], read back through [`SystemLookup`]), and builds from them a
//! state that holds just enough to check one order file
//! ([`GameSystem::mail_state`](crate::core::system::GameSystem::mail_state)).
//!
//! Layout (integers little-endian):
//!
//! ```text
//! prologue 16 bytes: "OVLINDEX" and the format
//! records  key and value of each record, one after another, in the order made
//! meta     what the index was made from (engine version, rule system, turn, and
//!          the length and modification time of every file of the turn's state and
//!          of the rule set, and whether the engine wrote that state from its
//!          world), and its checksum
//! entries  32 bytes each, sorted by key hash: hash, offset, key and value lengths,
//!          and a checksum of key and value
//! pages    for each page of 64 entries its first hash and the checksum of its
//!          entries; then the checksum of the page directory
//! trailer  64 bytes: entry count, where the entries, the page directory and the
//!          meta record are, the meta's length, format and turn, "OVLINDEX", and a
//!          checksum of the trailer
//! ```
//!
//! The records come first so that the index is written as they are made, never
//! held whole (a million units' index is over 200 MB); what finds them comes
//! last. Opening an index reads its prologue, trailer, meta and page directory; a lookup reads one
//! page of entries and one record. Every part read is checked against its
//! checksum, and the meta against the files on disk: an index that is missing,
//! damaged, of another engine version, or older than an edit of the state or the
//! rule set is not used ([`Damage`]). The game then reads the whole state and
//! writes the index again.
//!
//! An index written with the state the engine made from its world vouches for
//! that state while it opens ([`Index::vouches_for_state`]): the next turn's run
//! reads it without validating it again. An index made again from a state read
//! from disk does not: that state may have been edited.

use crate::core::data::bin;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// The index's file name in a turn folder.
pub const FILE: &str = "mail.index";

const MAGIC: &[u8; 8] = b"OVLINDEX";
/// The layout's version; an index of another is written again.
const FORMAT: u32 = 4;
const PROLOGUE: usize = 16;
const TRAILER: usize = 64;
const ENTRY: usize = 32;
/// Entries per page.
const PAGE: usize = 64;

/// Why an index cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Damage(pub String);

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn damage<T>(what: impl Into<String>) -> Result<T, Damage> {
    Err(Damage(what.into()))
}

/// A checksum of `bytes` (for damage, not for malice), eight bytes at a time.
pub fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0x2545_F491_4F6C_DD1D ^ (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().unwrap_or_default());
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h ^ u64::from_le_bytes(tail)).wrapping_mul(K).rotate_left(29);
    h ^ (h >> 32)
}

/// The records of an index as they are made: each record laid out where the
/// index file will hold it, with its entry; what [`Records::drained`] is given is
/// handed on in parts of about a megabyte and let go, so a big world's records
/// are never held whole ([`Records::finish`] gives the rest). Undrained, the
/// records are also looked up where they lie (in tests and checks of the
/// records against each other).
pub struct Records<'d> {
    /// The bytes not yet given, from offset `given` of the file.
    body: Vec<u8>,
    /// Bytes given so far.
    given: u64,
    /// Per record: hash of its key, offset, key and value lengths, checksum of
    /// key and value.
    entries: Vec<[u64; 4]>,
    /// The keys, one after another (`ends` says where each ends), to find a key
    /// given twice.
    keys: String,
    ends: Vec<usize>,
    drain: Option<&'d mut (dyn FnMut(Vec<u8>) -> Result<(), bin::Error> + Send)>,
}

/// Bytes of records gathered before [`Records::drained`] is given them (in unit
/// tests a few kilobytes, so that small worlds' records are drained too).
#[cfg(not(test))]
const PART: usize = 1 << 20;
#[cfg(test)]
const PART: usize = 1 << 12;

impl Default for Records<'_> {
    fn default() -> Self {
        Records {
            body: prologue().to_vec(),
            given: 0,
            entries: Vec::new(),
            keys: String::new(),
            ends: Vec::new(),
            drain: None,
        }
    }
}

impl std::fmt::Debug for Records<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Records").field("records", &self.entries.len()).field("given", &self.given).finish()
    }
}

impl<'d> Records<'d> {
    /// The same records, whose bytes from now on go to `drain` a part at a time
    /// as they are made.
    pub fn drained<'e>(self, drain: &'e mut (dyn FnMut(Vec<u8>) -> Result<(), bin::Error> + Send)) -> Records<'e> {
        let Records { body, given, entries, keys, ends, drain: _ } = self;
        Records { body, given, entries, keys, ends, drain: Some(drain) }
    }
    /// Adds the record `key`; a key given twice fails [`Records::finish`].
    pub fn put<T: Serialize + ?Sized>(&mut self, key: String, value: &T) -> Result<(), bin::Error> {
        self.put_with(key, |body| bin::to_end_of(value, body))
    }
    /// Adds the record `key` whose value is `value`, already in the binary form
    /// ([`bin::Pieces`]).
    pub fn put_bytes(&mut self, key: String, value: &[u8]) -> Result<(), bin::Error> {
        self.put_with(key, |body| {
            body.extend_from_slice(value);
            Ok(())
        })
    }
    /// Adds the record `key` whose value `write` puts at the end of the body.
    fn put_with(
        &mut self,
        key: String,
        write: impl FnOnce(&mut Vec<u8>) -> Result<(), bin::Error>,
    ) -> Result<(), bin::Error> {
        let start = self.body.len();
        let off = self.given + start as u64;
        self.body.extend_from_slice(key.as_bytes());
        if let Err(e) = write(&mut self.body) {
            self.body.truncate(start);
            return Err(e);
        }
        let vlen = self.body.len() - start - key.len();
        if key.len() > u32::MAX as usize || vlen > u32::MAX as usize {
            self.body.truncate(start);
            return Err(bin::Error(format!("record {key} is too large for the index")));
        }
        let lens = (key.len() as u64) | ((vlen as u64) << 32);
        self.entries.push([checksum(key.as_bytes()), off, lens, checksum(&self.body[start..])]);
        self.keys.push_str(&key);
        self.ends.push(self.keys.len());
        if self.body.len() >= PART
            && let Some(drain) = self.drain.as_mut()
        {
            let part = std::mem::take(&mut self.body);
            self.given += part.len() as u64;
            drain(part)?;
        }
        Ok(())
    }
    /// How many records there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    /// The same records, no longer drained: the rest is given by
    /// [`Records::finish`].
    pub fn undrained(self) -> Records<'static> {
        let Records { body, given, entries, keys, ends, drain: _ } = self;
        Records { body, given, entries, keys, ends, drain: None }
    }
    fn key(&self, i: usize) -> &str {
        &self.keys[if i == 0 { 0 } else { self.ends[i - 1] }..self.ends[i]]
    }
    /// Gives `emit` the rest of the index of these records, made from the files
    /// `meta` names: the records not yet given, then the meta, the entries, the
    /// page directory and the trailer. Gives the index's whole length.
    pub fn finish(
        mut self,
        meta: &Meta,
        mut emit: impl FnMut(Vec<u8>) -> Result<(), bin::Error>,
    ) -> Result<u64, bin::Error> {
        let tail = self.tail(meta)?;
        let body = std::mem::take(&mut self.body);
        let len = self.given + (body.len() + tail.len()) as u64;
        if !body.is_empty() {
            emit(body)?;
        }
        emit(tail)?;
        Ok(len)
    }
    /// The meta, entries, page directory and trailer that follow the records.
    fn tail(&self, meta: &Meta) -> Result<Vec<u8>, bin::Error> {
        let m = bin::to_bytes(meta)?;
        let meta_off = self.given + self.body.len() as u64;
        let entries_off = meta_off + m.len() as u64 + 8;
        let mut order: Vec<usize> = (0..self.entries.len()).collect();
        order.sort_unstable_by_key(|&i| (self.entries[i][0], i));
        for w in order.windows(2) {
            if self.entries[w[0]][0] == self.entries[w[1]][0] && self.key(w[0]) == self.key(w[1]) {
                return Err(bin::Error(format!("record {} is given twice", self.key(w[0]))));
            }
        }
        let mut out =
            Vec::with_capacity(m.len() + 8 + order.len() * ENTRY + order.len().div_ceil(PAGE) * 16 + 8 + TRAILER);
        out.extend_from_slice(&m);
        out.extend_from_slice(&checksum(&m).to_le_bytes());
        let table_at = out.len();
        for &i in &order {
            for x in self.entries[i] {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        let dir_off = entries_off + (out.len() - table_at) as u64;
        let mut dir = Vec::with_capacity(order.len().div_ceil(PAGE) * 16);
        for (p, page) in out[table_at..].chunks(PAGE * ENTRY).enumerate() {
            dir.extend_from_slice(&self.entries[order[p * PAGE]][0].to_le_bytes());
            dir.extend_from_slice(&checksum(page).to_le_bytes());
        }
        out.extend_from_slice(&dir);
        out.extend_from_slice(&checksum(&dir).to_le_bytes());
        let trailer = [
            order.len() as u64,
            entries_off,
            dir_off,
            meta_off,
            m.len() as u64,
            u64::from(FORMAT) | (u64::from(meta.turn) << 32),
            u64::from_le_bytes(*MAGIC),
        ];
        let start = out.len();
        out.extend(trailer.iter().flat_map(|x| x.to_le_bytes()));
        let sum = checksum(&out[start..]);
        out.extend_from_slice(&sum.to_le_bytes());
        Ok(out)
    }
}

/// The first bytes of an index: its magic and layout.
fn prologue() -> [u8; PROLOGUE] {
    let mut p = [0; PROLOGUE];
    p[..8].copy_from_slice(MAGIC);
    p[8..].copy_from_slice(&u64::from(FORMAT).to_le_bytes());
    p
}

/// Where records are looked up: an index file, or [`Records`] in memory.
pub trait Lookup {
    /// The value of record `key`, if there is one.
    fn bytes(&self, key: &str) -> Result<Option<Vec<u8>>, Damage>;
}

impl Lookup for Records<'_> {
    fn bytes(&self, key: &str) -> Result<Option<Vec<u8>>, Damage> {
        if self.given > 0 {
            return damage("its records were given as they were made");
        }
        let hash = checksum(key.as_bytes());
        for (i, e) in self.entries.iter().enumerate() {
            if e[0] == hash && self.key(i) == key {
                let (at, vlen) = (e[1] as usize + key.len(), (e[2] >> 32) as usize);
                return Ok(Some(self.body[at..at + vlen].to_vec()));
            }
        }
        Ok(None)
    }
}

/// Record `key` read as a `T`.
pub fn get<T: DeserializeOwned>(lookup: &(impl Lookup + ?Sized), key: &str) -> Result<Option<T>, Damage> {
    match lookup.bytes(key)? {
        Some(b) => bin::from_bytes(&b).map(Some).map_err(|e| Damage(format!("its record {key} cannot be read: {e}"))),
        None => Ok(None),
    }
}

/// A rule system's records: its keys never meet the core's.
pub struct SystemRecords<'a, 'd>(&'a mut Records<'d>);

impl<'a, 'd> SystemRecords<'a, 'd> {
    /// The rule system's part of `r`.
    pub(super) fn new(r: &'a mut Records<'d>) -> Self {
        SystemRecords(r)
    }
    /// Adds the rule system's record `key`.
    pub fn put<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), bin::Error> {
        self.0.put(format!("x/{key}"), value)
    }
    /// Adds the rule system's record `key`, its value already in the binary
    /// form ([`bin::Pieces`]).
    pub fn put_bytes(&mut self, key: &str, value: &[u8]) -> Result<(), bin::Error> {
        self.0.put_bytes(format!("x/{key}"), value)
    }
}

/// The rule system's records, as [`SystemRecords`] wrote them.
pub struct SystemLookup<'a>(&'a dyn Lookup);

impl<'a> SystemLookup<'a> {
    /// The rule system's records in `lookup`.
    pub fn new(lookup: &'a dyn Lookup) -> Self {
        SystemLookup(lookup)
    }
    /// Record `key` read as a `T`.
    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, Damage> {
        get(self.0, &format!("x/{key}"))
    }
}

/// The game, as the index holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's name.
    pub name: String,
    /// Its title.
    pub title: String,
    /// The turn of the state.
    pub turn: u32,
}

/// A faction, as the index holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FactionRecord {
    /// Its id, as the state writes it.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its password (a hash, see [`crate::core::secret`]).
    pub password: String,
    /// Where its reports go; empty when it has no address.
    pub email: String,
}

impl From<crate::core::system::FactionEntry<'_>> for FactionRecord {
    fn from(f: crate::core::system::FactionEntry<'_>) -> Self {
        FactionRecord { id: f.id.into(), name: f.name.into(), password: f.password.into(), email: f.email.into() }
    }
}

/// The key of faction `id` (any case).
pub fn faction_key(id: &str) -> String {
    format!("f/{}", id.to_ascii_lowercase())
}

/// The core's records of a state, and room for the rule system's.
pub fn records<R: Serialize>(
    game: GameRecord,
    rules: &R,
    factions: impl IntoIterator<Item = FactionRecord>,
    system: impl FnOnce(&mut SystemRecords) -> Result<(), bin::Error>,
) -> Result<Records<'static>, bin::Error> {
    let mut r = Records::default();
    put_records(&mut r, game, rules, factions, system)?;
    Ok(r)
}

/// [`records`], put into `r`.
pub fn put_records<R: Serialize>(
    r: &mut Records<'_>,
    game: GameRecord,
    rules: &R,
    factions: impl IntoIterator<Item = FactionRecord>,
    system: impl FnOnce(&mut SystemRecords) -> Result<(), bin::Error>,
) -> Result<(), bin::Error> {
    r.put("game".into(), &game)?;
    r.put("rules".into(), rules)?;
    for f in factions {
        r.put(faction_key(&f.id), &f)?;
    }
    system(&mut SystemRecords(r))
}

/// One file an index was made from: its path (below the game folder for the rule
/// set, `rules/…`, below the turn folder for the state, `state/…`), length and
/// modification time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    path: String,
    len: u64,
    secs: i64,
    nanos: u32,
}

/// What an index was made from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    format: u32,
    version: String,
    system: String,
    turn: u32,
    stamps: Vec<Stamp>,
    /// Whether the engine wrote the turn's state from its world, with this index
    /// (a turn run, a game begun, a faction joined), rather than the index being
    /// made again from a state read from disk, which anyone may have edited. Not
    /// compared when the index is opened: it says whether the index vouches for
    /// the state ([`Index::vouches_for_state`]).
    from_world: bool,
}

impl Meta {
    /// The meta of an index of turn `turn` of a game of rule system `system` whose
    /// rule set is in `rules_dir` and whose turn folder is `turn_dir`, as the files
    /// stand now.
    pub fn now(system: &str, turn: u32, rules_dir: &Path, turn_dir: &Path) -> std::io::Result<Meta> {
        let mut stamps = stamps_of(rules_dir, "rules")?;
        stamps.extend(stamps_of(&turn_dir.join("state"), "state")?);
        Ok(Meta {
            format: FORMAT,
            version: env!("CARGO_PKG_VERSION").into(),
            system: system.into(),
            turn,
            stamps,
            from_world: false,
        })
    }

    /// The same meta, saying that the engine wrote the state it names from its
    /// world, with the index.
    pub fn from_world(self) -> Meta {
        Meta { from_world: true, ..self }
    }

    /// For a state the engine wrote from its world of at least
    /// [`VOUCH_WAIT_BYTES`], waits (a tenth of a second at most) until a file
    /// written in `dir` is stamped later than every file the meta names: the
    /// index, finished afterwards, is then newer than all of them and vouches for
    /// the state ([`Index::vouches_for_state`]). A file system that stamps files
    /// by a coarse clock would otherwise often stamp the index within the tick of
    /// the state's last file.
    pub fn wait_to_vouch(&self, dir: &Path) -> std::io::Result<()> {
        let state: u64 = self.stamps.iter().filter(|s| s.path.starts_with("state/")).map(|s| s.len).sum();
        if !self.from_world || state < VOUCH_WAIT_BYTES {
            return Ok(());
        }
        let time = |s: &Stamp| std::time::UNIX_EPOCH + std::time::Duration::new(s.secs as u64, s.nanos);
        let Some(newest) = self.stamps.iter().filter(|s| s.secs >= 0).map(time).max() else { return Ok(()) };
        super::fsutil::wait_stamped_after(dir, newest, std::time::Duration::from_millis(100)).map(drop)
    }
}

/// Bytes of state from which a turn's writing waits for the file system's clock
/// to pass the state's files ([`Meta::wait_to_vouch`]): validating a smaller
/// state again (a few milliseconds for ten megabytes) costs about what the wait
/// would.
pub const VOUCH_WAIT_BYTES: u64 = 8 << 20;

fn stamps_of(dir: &Path, prefix: &str) -> std::io::Result<Vec<Stamp>> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir)? {
        let e = e?;
        let m = e.metadata()?;
        if !m.is_file() {
            continue;
        }
        let (secs, nanos) = match m.modified()?.duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
            Err(e) => (-(e.duration().as_secs() as i64), e.duration().subsec_nanos()),
        };
        let path = format!("{prefix}/{}", e.file_name().to_string_lossy());
        out.push(Stamp { path, len: m.len(), secs, nanos });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

/// The bytes of an index of `records` (none of them given yet), made from the
/// files `meta` names.
pub fn encode(meta: &Meta, mut records: Records) -> Result<Vec<u8>, bin::Error> {
    if records.given > 0 {
        return Err(bin::Error("the records were given as they were made".into()));
    }
    let tail = records.tail(meta)?;
    let mut out = std::mem::take(&mut records.body);
    out.extend_from_slice(&tail);
    Ok(out)
}

/// An index file, open for lookups.
#[derive(Debug)]
pub struct Index {
    file: std::cell::RefCell<std::fs::File>,
    len: u64,
    entries: u64,
    entries_off: u64,
    /// First hash of each page.
    pages: Vec<u64>,
    /// Checksum of each page.
    sums: Vec<u64>,
    /// The meta's [`Meta::from_world`], when every file it names is older than
    /// the index.
    from_world: bool,
}

fn word(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i * 8..i * 8 + 8].try_into().unwrap_or_default())
}

impl Index {
    /// Opens the index at `path` if it was made from the files `expect` names as
    /// they stand: the same engine, rule system, turn, and the same length and
    /// modification time of every file of the rule set and the turn's state.
    pub fn open(path: &Path, expect: &Meta) -> Result<Index, Damage> {
        let file = std::fs::File::open(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Damage("it is missing".into()),
            _ => Damage(format!("it cannot be read: {e}")),
        })?;
        let about = file.metadata().map_err(|e| Damage(format!("it cannot be read: {e}")))?;
        let len = about.len();
        let mut ix = Index {
            file: std::cell::RefCell::new(file),
            len,
            entries: 0,
            entries_off: 0,
            pages: Vec::new(),
            sums: Vec::new(),
            from_world: false,
        };
        if len < (PROLOGUE + TRAILER) as u64 {
            return damage("it is not a mail index");
        }
        let p = ix.read(0, PROLOGUE as u64)?;
        if p[..8] != MAGIC[..] {
            return damage("it is not a mail index");
        }
        if p[..] != prologue()[..] {
            return damage("it is written in another layout");
        }
        let t = ix.read(len - TRAILER as u64, TRAILER as u64)?;
        if checksum(&t[..56]) != word(&t, 7) {
            return damage("its trailer is damaged");
        }
        if word(&t, 5) as u32 != FORMAT || &t[48..56] != MAGIC {
            return damage("it is written in another layout");
        }
        let [entries, entries_off, dir_off, meta_off, meta_len] = [0, 1, 2, 3, 4].map(|i| word(&t, i));
        let n_pages = entries.div_ceil(PAGE as u64);
        let sizes_fit = entries.checked_mul(ENTRY as u64).and_then(|e| e.checked_add(entries_off)) == Some(dir_off)
            && meta_off.checked_add(meta_len).and_then(|m| m.checked_add(8)) == Some(entries_off)
            && meta_off >= PROLOGUE as u64
            && dir_off.checked_add(n_pages * 16 + 8 + TRAILER as u64) == Some(len);
        if !sizes_fit {
            return damage("its parts do not fit its length");
        }
        let m = ix.read(meta_off, meta_len + 8)?;
        let (m, sum) = m.split_at(meta_len as usize);
        if checksum(m) != u64::from_le_bytes(sum.try_into().unwrap_or_default()) {
            return damage("its record of what it was made from is damaged");
        }
        let meta: Meta = bin::from_bytes(m)
            .map_err(|e| Damage(format!("its record of what it was made from cannot be read: {e}")))?;
        if meta.format != expect.format || meta.version != expect.version || meta.system != expect.system {
            return damage(format!("it was written by engine {} for {}", meta.version, meta.system));
        }
        if meta.turn != expect.turn {
            return damage(format!("it was made for turn {}", meta.turn));
        }
        if let Some(s) = expect.stamps.iter().find(|s| !meta.stamps.contains(s)) {
            return damage(format!("{} changed after it was made", s.path));
        }
        if let Some(s) = meta.stamps.iter().find(|s| !expect.stamps.iter().any(|e| e.path == s.path)) {
            return damage(format!("{} is gone", s.path));
        }
        let d = ix.read(dir_off, n_pages * 16 + 8)?;
        let (d, sum) = d.split_at(n_pages as usize * 16);
        if checksum(d) != u64::from_le_bytes(sum.try_into().unwrap_or_default()) {
            return damage("its page directory is damaged");
        }
        ix.pages = (0..n_pages as usize).map(|i| word(d, 2 * i)).collect();
        ix.sums = (0..n_pages as usize).map(|i| word(d, 2 * i + 1)).collect();
        ix.entries = entries;
        ix.entries_off = entries_off;
        // A file whose modification time is not older than the index's own may
        // have been changed after the index was made, within one tick of a clock
        // that marks files coarsely, its stamp unchanged: the index does not vouch
        // for it (as a version control system treats a file as racily clean).
        let written = about.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok());
        let older = |s: &Stamp| {
            written.is_some_and(|w| s.secs >= 0 && (s.secs as u64, s.nanos) < (w.as_secs(), w.subsec_nanos()))
        };
        ix.from_world = meta.from_world && meta.stamps.iter().all(older);
        Ok(ix)
    }

    /// Whether the turn's state is as the engine wrote it from its world: the
    /// index was written with it ([`Meta::from_world`]), and, the index being
    /// open, neither the state's files nor the rule set's changed since (by
    /// length and modification time, each older than the index itself), and the
    /// engine is the same. Such a state need not be validated again when it is
    /// read.
    pub fn vouches_for_state(&self) -> bool {
        self.from_world
    }

    fn read(&self, at: u64, n: u64) -> Result<Vec<u8>, Damage> {
        if at.checked_add(n).is_none_or(|end| end > self.len) {
            return damage("a part of it lies past its end");
        }
        let mut buf = vec![0; n as usize];
        let mut f = self.file.borrow_mut();
        f.seek(SeekFrom::Start(at)).and_then(|_| f.read_exact(&mut buf)).map_err(|e| Damage(e.to_string()))?;
        Ok(buf)
    }
}

impl Lookup for Index {
    fn bytes(&self, key: &str) -> Result<Option<Vec<u8>>, Damage> {
        let hash = checksum(key.as_bytes());
        // Entries of this hash may begin on the page before the first page that
        // starts at or after it.
        let mut p = self.pages.partition_point(|&first| first < hash).saturating_sub(1);
        while p < self.pages.len() {
            let first = p as u64 * PAGE as u64;
            let n = (self.entries - first).min(PAGE as u64);
            let page = self.read(self.entries_off + first * ENTRY as u64, n * ENTRY as u64)?;
            if checksum(&page) != self.sums[p] {
                return damage(format!("page {p} of its entries is damaged"));
            }
            for e in page.chunks_exact(ENTRY) {
                let [h, off, lens, sum] = [0, 1, 2, 3].map(|i| word(e, i));
                if h > hash {
                    return Ok(None);
                }
                if h < hash {
                    continue;
                }
                let (klen, vlen) = (lens & 0xffff_ffff, lens >> 32);
                let rec = self.read(off, klen + vlen)?;
                if checksum(&rec) != sum {
                    return damage(format!("the record of {key} is damaged"));
                }
                if &rec[..klen as usize] == key.as_bytes() {
                    return Ok(Some(rec[klen as usize..].to_vec()));
                }
            }
            p += 1;
        }
        Ok(None)
    }
}

/// Writes `bytes` as the index at `path`, atomically, under a name of this
/// process's own (two mails taken in at once may both write it again).
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let tmp = dir.join(format!(".{FILE}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(n: usize) -> Records<'static> {
        let mut r = Records::default();
        for i in 0..n {
            r.put(format!("k{i}"), &(i as u64, format!("value {i}"))).unwrap();
        }
        r
    }

    fn meta(dir: &Path) -> Meta {
        std::fs::create_dir_all(dir.join("rules")).unwrap();
        std::fs::create_dir_all(dir.join("t/state")).unwrap();
        std::fs::write(dir.join("rules/ruleset.ron"), "()").unwrap();
        std::fs::write(dir.join("t/state/units.ron"), "[]").unwrap();
        Meta::now("test", 3, &dir.join("rules"), &dir.join("t")).unwrap()
    }

    #[test]
    fn every_record_is_found_and_no_other() {
        let dir = tempfile::tempdir().unwrap();
        let m = meta(dir.path());
        // Pages: none, one part-filled, several with a last part-filled one.
        for n in [0, 1, 63, 64, 65, 1000] {
            let r = sample(n);
            let path = dir.path().join(format!("{n}.index"));
            write(&path, &encode(&m, r).unwrap()).unwrap();
            let ix = Index::open(&path, &m).unwrap();
            for i in 0..n {
                let v: (u64, String) = get(&ix, &format!("k{i}")).unwrap().unwrap();
                assert_eq!(v, (i as u64, format!("value {i}")));
            }
            for k in ["k", "missing", &format!("k{n}"), "K1"] {
                assert_eq!(ix.bytes(k).unwrap(), None, "{k}");
            }
        }
    }

    /// A big index is given in parts of about [`PART`] bytes as its records are
    /// made, the rest when finished; the parts, one after another, are the index:
    /// every record found, the length said.
    #[test]
    fn a_big_index_is_given_in_parts_as_it_is_made() {
        let dir = tempfile::tempdir().unwrap();
        let m = meta(dir.path());
        let n = 60_000;
        let mut sizes = Vec::new();
        let mut bytes = Vec::new();
        let mut drain = |part: Vec<u8>| {
            sizes.push(part.len());
            bytes.extend_from_slice(&part);
            Ok(())
        };
        let mut r = Records::default().drained(&mut drain);
        for i in 0..n {
            r.put(format!("k{i}"), &(i as u64, format!("value {i}"))).unwrap();
        }
        let r = r.undrained();
        assert_eq!(r.bytes("k1"), Err(Damage("its records were given as they were made".into())));
        let given = sizes.len();
        let len = r
            .finish(&m, |part| {
                sizes.push(part.len());
                bytes.extend_from_slice(&part);
                Ok(())
            })
            .unwrap();
        assert!(given > 1 && sizes[..given].iter().all(|&s| (PART..PART + 64).contains(&s)), "{sizes:?}");
        assert_eq!(len, bytes.len() as u64);
        assert_eq!(bytes, encode(&m, sample(n)).unwrap());
        let path = dir.path().join("big.index");
        write(&path, &bytes).unwrap();
        let ix = Index::open(&path, &m).unwrap();
        for i in (0..n).step_by(997) {
            let v: (u64, String) = get(&ix, &format!("k{i}")).unwrap().unwrap();
            assert_eq!(v, (i as u64, format!("value {i}")));
        }
    }

    #[test]
    fn a_key_given_twice_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let m = meta(dir.path());
        let mut r = sample(100);
        r.put("k40".into(), &(1u64, "again")).unwrap();
        assert_eq!(encode(&m, r).unwrap_err().0, "record k40 is given twice");
    }

    #[test]
    fn an_index_of_another_layout_is_not_used() {
        let dir = tempfile::tempdir().unwrap();
        let m = meta(dir.path());
        let path = dir.path().join("old.index");
        let mut bytes = encode(&m, sample(10)).unwrap();
        bytes[8] = 2;
        write(&path, &bytes).unwrap();
        assert_eq!(Index::open(&path, &m).unwrap_err().0, "it is written in another layout");
    }

    #[test]
    fn a_change_to_the_files_it_was_made_from_makes_it_stale() {
        let dir = tempfile::tempdir().unwrap();
        let m = meta(dir.path());
        let path = dir.path().join("t").join(FILE);
        write(&path, &encode(&m, sample(10)).unwrap()).unwrap();
        let now = || Meta::now("test", 3, &dir.path().join("rules"), &dir.path().join("t")).unwrap();
        assert!(Index::open(&path, &now()).is_ok());
        let other = Meta { turn: 4, ..now() };
        assert!(Index::open(&path, &other).unwrap_err().0.contains("turn 3"));
        let other = Meta { system: "x".into(), ..now() };
        assert!(Index::open(&path, &other).is_err());
        // An edit of the same length, later; a file added; a file removed.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(dir.path().join("t/state/units.ron"), "()").unwrap();
        assert_eq!(Index::open(&path, &now()).unwrap_err().0, "state/units.ron changed after it was made");
        write(&path, &encode(&now(), sample(10)).unwrap()).unwrap();
        std::fs::write(dir.path().join("rules/items.ron"), "[]").unwrap();
        assert!(Index::open(&path, &now()).unwrap_err().0.contains("rules/items.ron"));
        std::fs::remove_file(dir.path().join("rules/items.ron")).unwrap();
        assert!(Index::open(&path, &now()).is_ok());
        std::fs::remove_file(dir.path().join("rules/ruleset.ron")).unwrap();
        assert_eq!(Index::open(&path, &now()).unwrap_err().0, "rules/ruleset.ron is gone");
    }

    #[test]
    fn an_index_vouches_for_the_state_only_when_written_with_it_from_the_world() {
        let dir = tempfile::tempdir().unwrap();
        let m = meta(dir.path());
        let path = dir.path().join("t").join(FILE);
        let now = || Meta::now("test", 3, &dir.path().join("rules"), &dir.path().join("t")).unwrap();
        // The index written some time after the state, as a turn's is.
        std::thread::sleep(std::time::Duration::from_millis(20));
        // Made again from a state read from disk: opens, vouches for nothing.
        write(&path, &encode(&m, sample(10)).unwrap()).unwrap();
        assert!(!Index::open(&path, &now()).unwrap().vouches_for_state());
        // Written with the state made from the world: the flag is not compared
        // when opening, and is read back.
        write(&path, &encode(&m.clone().from_world(), sample(10)).unwrap()).unwrap();
        assert!(Index::open(&path, &now()).unwrap().vouches_for_state());
        assert!(Index::open(&path, &now().from_world()).unwrap().vouches_for_state());
        // A file as old as the index (an edit within one tick of a coarse clock
        // leaves the stamp as it was): the index opens, and vouches for nothing.
        let set = |p: &Path, t| std::fs::File::options().write(true).open(p).unwrap().set_modified(t).unwrap();
        let written = std::fs::metadata(&path).unwrap().modified().unwrap();
        set(&dir.path().join("t/state/units.ron"), written);
        write(&path, &encode(&now().from_world(), sample(10)).unwrap()).unwrap();
        set(&path, written);
        let ix = Index::open(&path, &now()).unwrap();
        assert!(!ix.vouches_for_state(), "a file not older than the index");
        set(&path, written + std::time::Duration::from_millis(1));
        assert!(Index::open(&path, &now()).unwrap().vouches_for_state());
        // A state edited since: the index does not open, so vouches for nothing.
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(dir.path().join("t/state/units.ron"), "[]").unwrap();
        assert_eq!(Index::open(&path, &now()).unwrap_err().0, "state/units.ron changed after it was made");
    }

    #[test]
    fn damage_anywhere_is_found_where_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let m = meta(dir.path());
        let r = sample(40);
        let bytes = encode(&m, r).unwrap();
        let path = dir.path().join("d.index");
        // Every byte changed in turn: opening fails, or every lookup gives the
        // right value or an error, never a wrong value.
        for i in 0..bytes.len() {
            let mut d = bytes.clone();
            d[i] ^= 0x41;
            std::fs::write(&path, &d).unwrap();
            let Ok(ix) = Index::open(&path, &m) else { continue };
            for k in 0..40 {
                match get::<(u64, String)>(&ix, &format!("k{k}")) {
                    Ok(Some(v)) => assert_eq!(v, (k as u64, format!("value {k}")), "byte {i}"),
                    Ok(None) => panic!("byte {i}: k{k} not found"),
                    Err(_) => {}
                }
            }
        }
        // Cut short anywhere.
        for n in [0, 8, 63, 64, bytes.len() / 2, bytes.len() - 1] {
            std::fs::write(&path, &bytes[..n]).unwrap();
            assert!(Index::open(&path, &m).is_err());
        }
    }

    #[test]
    fn the_rule_system_s_keys_never_meet_the_core_s() {
        let r = records(
            GameRecord { name: "g".into(), title: "G".into(), turn: 1 },
            &(),
            [FactionRecord {
                id: "F1".into(),
                name: "One".into(),
                password: "h".into(),
                email: "one@example.org".into(),
            }],
            |s| s.put("game", &7u32),
        )
        .unwrap();
        let g: GameRecord = get(&r, "game").unwrap().unwrap();
        assert_eq!(g.turn, 1);
        assert_eq!(SystemLookup::new(&r).get::<u32>("game").unwrap(), Some(7));
        assert_eq!(get::<FactionRecord>(&r, &faction_key("f1")).unwrap().unwrap().id, "F1");
    }
}
