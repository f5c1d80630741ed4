//! Data files, whatever the rule system: reading RON with file, line and column in
//! every error; writing it in a stable layout, atomically; finding positions in a
//! RON text; the tables every rule system shares (stances); and where a scenario's
//! rule set is and which rule system it names.
//!
//! Two conventions every rule system follows, so that the core can find its way:
//! a rule set folder has a `ruleset.ron` whose record has `name` and `system`
//! fields ([`RuleSetHead`]); a scenario folder has a `game.ron` whose record has a
//! `ruleset` field naming the rule set's folder ([`ScenarioHead`]).

pub mod bin;
pub mod intern;
pub(crate) mod jsonwrite;
pub mod ronpos;
pub mod ronread;
pub(crate) mod ronwrite;
#[cfg(test)]
mod shapes;
pub mod stances;
pub mod tables;
pub mod validate;
mod words;

use crate::core::diag::Diagnostic;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A hash map with a fast hasher of fixed seed (the one Bevy uses), for lookups by
/// tag and id where the keys come from the game's own data. Iterating it gives an
/// order of no meaning: where order matters, use a `BTreeMap` or a `Vec`.
pub type FastMap<K, V> = std::collections::HashMap<K, V, bevy_platform::hash::FixedHasher>;

/// A fast writer ([`ronwrite`], [`jsonwrite`]) met what it leaves to the crate
/// whose output it copies; the caller lets that crate write the value.
#[derive(Debug)]
pub(crate) struct GiveUp;

impl std::fmt::Display for GiveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("left to the writer this one copies")
    }
}

impl std::error::Error for GiveUp {}

impl serde::ser::Error for GiveUp {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        GiveUp
    }
}

/// An identifier of a record in a rule set or a scenario (`"swrd"`, `"L12"`).
pub type Tag = String;

/// Reads and parses one RON file. A missing file gives `None`, with an error only
/// when it is `required`; every other problem is an error naming the file, line and
/// column.
pub fn read_ron<T: DeserializeOwned>(path: &Path, required: bool, diags: &mut Vec<Diagnostic>) -> Option<T> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => return None,
        Err(e) => {
            diags.push(Diagnostic::error(path, 0, 0, format!("cannot read file: {e}")));
            return None;
        }
    };
    parse_ron(path, &text, diags)
}

/// Parses `text`, the contents of the RON file `path`, as [`read_ron`] does.
pub fn parse_ron<T: DeserializeOwned>(path: &Path, text: &str, diags: &mut Vec<Diagnostic>) -> Option<T> {
    // The saved layout is read by the fast reader; anything else, and every
    // error, by `ron`.
    if let Some(v) = ronread::from_str(text) {
        return Some(v);
    }
    match ron::Options::default().from_str::<T>(text) {
        Ok(v) => Some(v),
        Err(e) => {
            diags.push(Diagnostic::error(path, e.span.start.line, e.span.start.col, e.code.to_string()));
            None
        }
    }
}

/// A list file read for [`read_lists_beside`]: its text (absent: empty), and
/// where it is cut between the two threads (`None`: not cut).
struct ListText {
    path: PathBuf,
    text: String,
    missing: bool,
    cut: Option<usize>,
}

impl ListText {
    fn read(path: &Path, diags: &mut Vec<Diagnostic>) -> ListText {
        let (text, missing) = match fs::read_to_string(path) {
            Ok(text) => (text, false),
            Err(e) => {
                if e.kind() != std::io::ErrorKind::NotFound {
                    diags.push(Diagnostic::error(path, 0, 0, format!("cannot read file: {e}")));
                }
                (String::new(), true)
            }
        };
        ListText { path: path.to_path_buf(), text, missing, cut: None }
    }
    /// Reads the list file `path`, cut at the first element at or after byte
    /// `near` if any, and hands it to the other thread by `to` when it is cut
    /// (`to` is let go either way).
    fn shared(
        path: &Path,
        near: Option<usize>,
        diags: &mut Vec<Diagnostic>,
        to: std::sync::mpsc::Sender<std::sync::Arc<ListText>>,
    ) -> std::sync::Arc<ListText> {
        let mut list = ListText::read(path, diags);
        list.cut = near.and_then(|near| ronread::list_cut(&list.text, near));
        let list = std::sync::Arc::new(list);
        if list.cut.is_some() {
            let _ = to.send(list.clone());
        }
        list
    }
    /// The part before the cut (the whole list when not cut).
    fn head<T: DeserializeOwned>(&self) -> Option<Vec<T>> {
        match self.cut {
            _ if self.missing => Some(Vec::new()),
            Some(cut) => ronread::list_part(&self.text, 0, Some(cut)),
            None => ronread::from_str(&self.text),
        }
    }
    /// The part from the cut on (nothing when not cut).
    fn tail<T: DeserializeOwned>(&self) -> Option<Option<Vec<T>>> {
        self.cut.map(|cut| ronread::list_part(&self.text, cut, None))
    }
    /// The list, from its parts when both were read, else read whole (with
    /// `ron`'s error and line when it cannot be).
    fn join<T: DeserializeOwned>(
        &self,
        head: Option<Vec<T>>,
        tail: Option<Option<Vec<T>>>,
        diags: &mut Vec<Diagnostic>,
    ) -> Vec<T> {
        match (head, tail) {
            // The shorter part is moved into the longer one's room when it has
            // room: fewer records copied, into fewer fresh pages.
            (Some(head), Some(Some(mut tail)))
                if head.len() < tail.len() && tail.capacity() - tail.len() >= head.len() =>
            {
                tail.splice(0..0, head);
                tail
            }
            (Some(mut head), Some(Some(mut tail))) => {
                head.append(&mut tail);
                head
            }
            (Some(whole), None) => whole,
            _ => parse_ron(&self.path, &self.text, diags).unwrap_or_default(),
        }
    }
}

/// A list read from its file, with the problems found reading it.
pub type ListRead<T> = (Vec<T>, Vec<Diagnostic>);

/// Reads the list files `first` and `second` (absent: an empty list) while
/// `other` runs on the calling thread, and gives each list with its problems (as
/// [`read_ron`] gives them), and what `other` gave. The work is shared between a
/// thread of its own and the calling thread by bytes, `other` counting for
/// `other_bytes`: the thread reads about half of all of it from the start of
/// `first` on — the head of `first` when `first` is more than half (a big
/// world's units are several times its other files), else `first` and the head
/// of `second` — and the calling thread `second`'s file, `other` and what is
/// left ([`ronread::list_part`]). A list whose parts do not read (another
/// layout, an error) is read whole after them.
pub fn read_lists_beside<T: DeserializeOwned + Send, U: DeserializeOwned + Send, R>(
    first: &Path,
    second: &Path,
    other_bytes: u64,
    other: impl FnOnce() -> R,
) -> (ListRead<T>, ListRead<U>, R) {
    use std::sync::mpsc;
    let len = |p: &Path| fs::metadata(p).map_or(0, |m| usize::try_from(m.len()).unwrap_or(usize::MAX));
    let (la, lb) = (len(first), len(second));
    let other_bytes = usize::try_from(other_bytes).unwrap_or(usize::MAX);
    let half = la.saturating_add(lb).saturating_add(other_bytes) / 2;
    let cut_a = (la > half).then_some(half);
    let cut_b = (cut_a.is_none() && la.saturating_add(lb) > half).then(|| half - la);
    // Each file is read by the thread that reads it first, and handed to the
    // other when they share it.
    let (a_to_here, a_here) = mpsc::channel();
    let (b_to_beside, b_beside) = mpsc::channel::<std::sync::Arc<ListText>>();
    let ((a, mut da, ha, hb_beside), (b, mut db, hb_here, tb), ta, r) = std::thread::scope(|s| {
        let beside = s.spawn(move || {
            let mut da = Vec::new();
            let a = ListText::shared(first, cut_a, &mut da, a_to_here);
            let ha = a.head::<T>();
            let hb = cut_b.and_then(|_| b_beside.recv().ok()).map(|b| b.head::<U>());
            (a, da, ha, hb)
        });
        let mut db = Vec::new();
        let b = ListText::shared(second, cut_b, &mut db, b_to_beside);
        let r = other();
        let hb_here = b.cut.is_none().then(|| b.head::<U>());
        let tb = b.tail::<U>();
        // `first`'s tail, when it was cut (the thread hands the file over once read).
        let ta = cut_a.and_then(|_| a_here.recv().ok()).and_then(|a| a.tail::<T>());
        let beside = beside.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
        (beside, (b, db, hb_here, tb), ta, r)
    });
    let listed_a = a.join(ha, ta, &mut da);
    let listed_b = b.join(hb_beside.or(hb_here).flatten(), tb, &mut db);
    ((listed_a, da), (listed_b, db), r)
}

/// The RON layout used for saved files: one record per block, fields one per line,
/// nested lists inline below `depth` levels.
fn pretty(depth: usize) -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new().depth_limit(depth).indentor("  ").struct_names(false)
}

/// Serialises `value` as RON text in the saved layout, lines down to `depth` levels.
pub fn to_ron(value: &(impl Serialize + ?Sized), depth: usize) -> Result<String, String> {
    if let Some(text) = ronwrite::to_string_pretty(value, depth) {
        return Ok(text);
    }
    ron::Options::default().to_string_pretty(value, pretty(depth)).map_err(|e| e.to_string())
}

/// A list's file in the saved layout, as [`ron_file`] writes it, in one buffer made
/// about the right size at once: a big world's units are hundreds of MB of text,
/// and a buffer grown by doubling holds up to twice that, and both buffers at each
/// growth. The size is guessed from a sample of the list's records.
pub fn ron_list_file<T: Serialize>(items: &[T], depth: usize) -> std::io::Result<Vec<u8>> {
    const SAMPLE: usize = 64;
    let step = (items.len() / SAMPLE).max(1);
    let (mut bytes, mut lines, mut taken) = (0usize, 0usize, 0usize);
    for item in items.iter().step_by(step).take(SAMPLE) {
        let text = ronwrite::to_string_pretty(item, depth.saturating_sub(1)).unwrap_or_default();
        bytes += text.len();
        lines += text.lines().count();
        taken += 1;
    }
    // Each line of a record is indented one level more inside the list, and each
    // record ends with ",\n".
    let per_item = (bytes + 2 * lines + 2 * taken) / taken.max(1);
    let total = per_item.saturating_mul(items.len());
    let guess = total.saturating_add(total / 8).saturating_add(64);
    let mut text = match ronwrite::to_vec_pretty_in(Vec::with_capacity(guess), items, depth) {
        Some(t) => t,
        None => to_ron(items, depth).map_err(std::io::Error::other)?.into_bytes(),
    };
    text.push(b'\n');
    Ok(text)
}

/// A part of a list's file, as [`ron_list_file`] writes the whole: `items` are the
/// list's records from some point on; the `first` part opens the list, the `last`
/// closes it. The parts of a list, one after another, are the bytes of its file.
pub fn ron_list_part<T: Serialize>(items: &[T], depth: usize, first: bool, last: bool) -> std::io::Result<Vec<u8>> {
    let whole = ron_list_file(items, depth)?;
    if items.is_empty() {
        // An empty list is written `[]`: whole, or nothing of a longer one.
        return Ok(if first && last { whole } else { Vec::new() });
    }
    let (open, close) = (b"[\n", b"]\n");
    let body = whole
        .strip_prefix(&open[..])
        .and_then(|b| b.strip_suffix(&close[..]))
        .ok_or_else(|| std::io::Error::other("a list written in another layout"))?;
    let mut out = Vec::with_capacity(body.len() + 4);
    if first {
        out.extend_from_slice(open);
    }
    out.extend_from_slice(body);
    if last {
        out.extend_from_slice(close);
    }
    Ok(out)
}

/// A file's bytes in the saved layout: the RON text and a final newline.
pub fn ron_file(value: &(impl Serialize + ?Sized), depth: usize) -> std::io::Result<Vec<u8>> {
    let mut text = to_ron(value, depth).map_err(std::io::Error::other)?;
    text.push('\n');
    Ok(text.into_bytes())
}

/// Serialises one record as a single line of RON (for streamed list files).
pub fn to_ron_record<T: Serialize + ?Sized>(value: &T) -> Result<String, String> {
    ron::Options::default().to_string(value).map_err(|e| e.to_string())
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder,
/// flushed to disk, then renamed over the target.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp"));
    {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    fs::rename(&tmp, path)
}

/// What the core reads of any rule set's `ruleset.ron`: its name and the rule
/// system it is written for. Other fields are the rule system's.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RuleSetHead {
    /// Short name; scenarios name their rule set by it (the folder name).
    pub name: String,
    /// The rule system (`"overlord"`).
    pub system: String,
}

/// What the core reads of any scenario's `game.ron`: the rule set it is played with.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ScenarioHead {
    /// The rule set's folder name (`assets/rules/<ruleset>/`).
    pub ruleset: String,
}

/// The head of the rule set in `dir`. A rule set that names no rule system (one
/// written before rule sets named theirs) is refused with what to add.
pub fn rule_set_head(dir: &Path) -> Result<RuleSetHead, Vec<Diagnostic>> {
    #[derive(Deserialize)]
    struct Head {
        name: String,
        #[serde(default)]
        system: String,
    }
    let path = dir.join("ruleset.ron");
    let mut diags = Vec::new();
    let head: Head = read_ron(&path, true, &mut diags).ok_or(diags)?;
    match head.system {
        system if !system.is_empty() => Ok(RuleSetHead { name: head.name, system }),
        _ => Err(vec![Diagnostic::error(
            &path,
            1,
            1,
            "this rule set names no rule system: add a `system` field naming the rule system that plays it \
             (such as `system: \"overlord\"`)",
        )]),
    }
}

/// The head of the scenario in `dir`.
pub fn scenario_head(dir: &Path) -> Result<ScenarioHead, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    read_ron(&dir.join("game.ron"), true, &mut diags).ok_or(diags)
}

/// Finds the folder of the rule set `name` used by the scenario in `scenario_dir`:
/// `explicit` if given, else `<scenario>/rules`, else the folder a file
/// `rules.path` names (as the world generator writes), else `assets/rules/<name>`
/// in the scenario's folder or any folder above it, else in the current folder.
pub fn find_ruleset_dir(scenario_dir: &Path, name: &str, explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    let own = scenario_dir.join("rules");
    if own.join("ruleset.ron").is_file() {
        return Some(own);
    }
    // A generated scenario records the folder of the rule set it was drawn from.
    if let Ok(text) = fs::read_to_string(scenario_dir.join("rules.path")) {
        // A relative path is tried against the scenario folder, then the current folder.
        let p = PathBuf::from(text.trim());
        for cand in [scenario_dir.join(&p), p] {
            if cand.join("ruleset.ron").is_file() {
                return Some(cand);
            }
        }
    }
    // A name is looked for only as one folder's name, never as a path.
    if validate::id_problem(name).is_some() {
        return None;
    }
    let abs = fs::canonicalize(scenario_dir).unwrap_or_else(|_| scenario_dir.to_path_buf());
    for anc in abs.ancestors() {
        let cand = anc.join("assets").join("rules").join(name);
        if cand.join("ruleset.ron").is_file() {
            return Some(cand);
        }
    }
    let cand = Path::new("assets").join("rules").join(name);
    cand.join("ruleset.ron").is_file().then_some(cand)
}
