//! Crash-safe file writing: whole folders are written beside their target, flushed,
//! then renamed into place.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Fault injection for crash tests: when this variable is set to `N`, a process
/// writing a turn aborts (as if killed) after writing its `N`th file, or just before
/// the final rename when `N` is `rename`.
pub const ABORT_ENV: &str = "OVERLORD_ABORT_AFTER";

fn abort_point() -> Option<String> {
    std::env::var(ABORT_ENV).ok()
}

fn sync_dir(dir: &Path) -> std::io::Result<()> {
    // Flushes the folder entry itself, so that a created or renamed file survives a
    // power cut. Opening a folder for reading is enough on Unix.
    #[cfg(unix)]
    fs::File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Removes a folder left by an interrupted write.
pub fn remove_if_exists(dir: &Path) -> std::io::Result<()> {
    match fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Writes `files` (paths relative to `root`) under `root`, then flushes every file
/// and folder to disk.
pub fn write_tree(root: &Path, files: &[(PathBuf, Vec<u8>)]) -> std::io::Result<()> {
    let mut w = TreeWriter::new(root)?;
    w.write(files)?;
    w.finish()
}

/// Writes a folder's files a batch at a time (so that a big turn need not hold every
/// file in memory), then flushes them all.
pub struct TreeWriter {
    root: PathBuf,
    abort: Option<String>,
    /// Files created by this writer and its siblings ([`TreeWriter::sibling`]):
    /// the crash tests' abort point counts them all.
    created: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    dirs: Vec<PathBuf>,
    written: Vec<PathBuf>,
    /// Bytes written so far.
    bytes: u64,
    /// The files [`TreeWriter::append`] wrote to, kept open for their next parts.
    open: Vec<(PathBuf, fs::File)>,
}

impl TreeWriter {
    /// Starts writing under `root`, which is created.
    pub fn new(root: &Path) -> std::io::Result<Self> {
        fs::create_dir_all(root)?;
        Ok(TreeWriter {
            root: root.to_path_buf(),
            abort: abort_point(),
            created: Default::default(),
            dirs: vec![root.to_path_buf()],
            written: Vec::new(),
            bytes: 0,
            open: Vec::new(),
        })
    }

    /// Writes `files` (paths relative to the root).
    pub fn write(&mut self, files: &[(PathBuf, Vec<u8>)]) -> std::io::Result<()> {
        for (rel, bytes) in files {
            self.create(rel)?.write_all(bytes)?;
            self.wrote(bytes.len());
        }
        Ok(())
    }

    /// Writes `bytes` at the end of file `rel`, created by its first part: a file
    /// made a part at a time (a big world's units, the mail index), never held
    /// whole. Other files may be written between its parts; a file is made either
    /// by [`TreeWriter::write`] or by parts, never both.
    pub fn append(&mut self, rel: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let at = match self.open.iter().position(|(p, _)| p == rel) {
            Some(i) => Some(i),
            None => {
                let f = self.create(rel)?;
                self.open.push((rel.to_path_buf(), f));
                None
            }
        };
        let fresh = at.is_none();
        let i = at.unwrap_or(self.open.len() - 1);
        self.open[i].1.write_all(bytes)?;
        if fresh {
            self.wrote(bytes.len());
        } else {
            self.bytes += bytes.len() as u64;
        }
        Ok(())
    }

    /// Creates file `rel` (and its folder), listed to be flushed.
    fn create(&mut self, rel: &Path) -> std::io::Result<fs::File> {
        // Paths are made from ids of the data: never outside the folder.
        if rel.as_os_str().is_empty() || !rel.components().all(|c| matches!(c, std::path::Component::Normal(_))) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{}: not a plain path inside the turn folder", rel.display()),
            ));
        }
        let path = self.root.join(rel);
        // The folders are compared as bytes, the last made first: a turn's files
        // lie in a few folders, their paths all made the same way from the root.
        if let Some(parent) = path.parent()
            && !self.dirs.iter().rev().any(|d| d.as_os_str() == parent.as_os_str())
        {
            fs::create_dir_all(parent)?;
            self.dirs.push(parent.to_path_buf());
        }
        let f = fs::File::create(&path)?;
        self.written.push(rel.to_path_buf());
        Ok(f)
    }

    /// Counts a file written with its first `bytes`; the crash tests' abort point.
    fn wrote(&mut self, bytes: usize) {
        self.bytes += bytes as u64;
        let n = self.created.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
        if self.abort.as_ref().is_some_and(|at| *at == n.to_string()) {
            std::process::abort();
        }
    }

    /// A second writer into the same folder, for another thread: it writes files
    /// of its own (never one this writer writes), and is taken back with
    /// [`TreeWriter::absorb`] before the folder is flushed.
    fn sibling(&self) -> TreeWriter {
        TreeWriter {
            root: self.root.clone(),
            abort: self.abort.clone(),
            created: self.created.clone(),
            dirs: vec![self.root.clone()],
            written: Vec::new(),
            bytes: 0,
            open: Vec::new(),
        }
    }

    /// Takes over what sibling `other` wrote, to be flushed with the rest.
    fn absorb(&mut self, other: TreeWriter) {
        self.written.extend(other.written);
        self.bytes += other.bytes;
        for d in other.dirs {
            if !self.dirs.contains(&d) {
                self.dirs.push(d);
            }
        }
    }

    /// Flushes every file and folder written to disk.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.open.clear();
        flush(&self.root, &self.written, &self.dirs, self.bytes)
    }
}

/// Where a turn's files go as they are made: straight to a [`TreeWriter`], or, with
/// threads to spare, to two threads that write them while the next ones are made
/// (creating and filling files is most of a turn's system time). Whole files go to
/// the two by turns, a batch to one; the parts of a file ([`Sink::append`]) all
/// to the first, in the order given. At most one batch waits for each thread, so
/// memory holds at most the batch being made and two waiting and two being
/// written. Each file has one writer, so its bytes are what was given.
pub enum Sink<'scope> {
    /// Written by the caller.
    Direct(TreeWriter),
    /// Written by threads of the scope.
    Piped {
        /// Work on its way to each thread (`None` once closed).
        to: [Option<std::sync::mpsc::SyncSender<Piped>>; 2],
        /// The next thread to get a batch of whole files.
        turn: usize,
        /// The writing threads, which give their writers back when the work ends
        /// (`None` in a shared sink, and once joined).
        writers: Option<[std::thread::ScopedJoinHandle<'scope, std::io::Result<TreeWriter>>; 2]>,
    },
}

/// What the writing threads of a [`Sink`] are given.
pub enum Piped {
    /// Files to write.
    Files(Vec<(PathBuf, Vec<u8>)>),
    /// A part of a file, to append ([`TreeWriter::append`]).
    Part(PathBuf, Vec<u8>),
    /// Said back once everything given before is written.
    Settled(std::sync::mpsc::SyncSender<()>),
}

impl<'scope> Sink<'scope> {
    /// Writes through `w`, on threads of `scope` when `piped`.
    pub fn new<'env>(w: TreeWriter, piped: bool, scope: &'scope std::thread::Scope<'scope, 'env>) -> Self {
        if !piped {
            return Sink::Direct(w);
        }
        let second = w.sibling();
        let spawn = |mut w: TreeWriter| {
            let (to, from) = std::sync::mpsc::sync_channel::<Piped>(1);
            let writer = scope.spawn(move || {
                for work in from {
                    match work {
                        Piped::Files(batch) => w.write(&batch)?,
                        Piped::Part(rel, bytes) => w.append(&rel, &bytes)?,
                        Piped::Settled(back) => {
                            let _ = back.send(());
                        }
                    }
                }
                Ok(w)
            });
            (to, writer)
        };
        let (a, first) = spawn(w);
        let (b, other) = spawn(second);
        Sink::Piped { to: [Some(a), Some(b)], turn: 0, writers: Some([first, other]) }
    }

    /// Another way into the same writing threads, for work made on another
    /// thread: the parts of a file it gives are written in the order given, its
    /// whole files by either thread (each file by one). It is let go,
    /// never closed: the sink it came from is closed. `None` when the sink writes
    /// on the caller's thread.
    pub fn share(&self) -> Option<Sink<'scope>> {
        match self {
            Sink::Direct(_) => None,
            Sink::Piped { to, .. } => Some(Sink::Piped { to: to.clone(), turn: 0, writers: None }),
        }
    }

    /// Writes `files`, or hands them to a writing thread.
    pub fn write(&mut self, files: Vec<(PathBuf, Vec<u8>)>) -> std::io::Result<()> {
        match self {
            Sink::Direct(w) => w.write(&files),
            Sink::Piped { turn, .. } => {
                let k = *turn;
                *turn = 1 - k;
                self.send(k, Piped::Files(files))
            }
        }
    }

    /// Appends `bytes` to file `rel` ([`TreeWriter::append`]), or hands them to the
    /// first writing thread.
    pub fn append(&mut self, rel: PathBuf, bytes: Vec<u8>) -> std::io::Result<()> {
        match self {
            Sink::Direct(w) => w.append(&rel, &bytes),
            Sink::Piped { .. } => self.send(0, Piped::Part(rel, bytes)),
        }
    }

    /// Returns once every file given so far is written (what reads them back from
    /// the folder, as the mail index's stamps do, needs them there).
    pub fn settle(&mut self) -> std::io::Result<()> {
        if let Sink::Piped { .. } = self {
            let (back, settled) = std::sync::mpsc::sync_channel(2);
            self.send(0, Piped::Settled(back.clone()))?;
            self.send(1, Piped::Settled(back))?;
            if settled.recv().and_then(|()| settled.recv()).is_err() {
                return self.stopped();
            }
        }
        Ok(())
    }

    fn send(&mut self, k: usize, work: Piped) -> std::io::Result<()> {
        let Sink::Piped { to, .. } = self else { return Ok(()) };
        match to[k].as_ref().map(|t| t.send(work)) {
            Some(Ok(())) => Ok(()),
            _ => self.stopped(),
        }
    }

    /// A writing thread stopped: its error.
    fn stopped(&mut self) -> std::io::Result<()> {
        let Sink::Piped { to, writers, .. } = self else { return Ok(()) };
        *to = [None, None];
        let failed = writers.take().and_then(|ws| ws.into_iter().map(join).find_map(Result::err));
        Err(failed.unwrap_or_else(|| std::io::Error::other("the turn's files are no longer being written")))
    }

    /// Waits until every file given is written, and gives the writer back; the
    /// first error of the writing threads, if one stopped on one.
    pub fn close(self) -> std::io::Result<TreeWriter> {
        match self {
            Sink::Direct(w) => Ok(w),
            Sink::Piped { to, writers, .. } => {
                drop(to);
                let Some([first, other]) = writers else {
                    return Err(std::io::Error::other("the turn's files were not all written"));
                };
                let (first, other) = (join(first), join(other));
                let mut w = first?;
                w.absorb(other?);
                Ok(w)
            }
        }
    }
}

fn join(h: std::thread::ScopedJoinHandle<'_, std::io::Result<TreeWriter>>) -> std::io::Result<TreeWriter> {
    h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
}

/// Beyond the turn's own bytes, how much of other writers' unwritten data a flush
/// of the whole file system may wait for.
const STRANGERS_DIRTY: u64 = 32 << 20;

/// Makes the written files durable, waiting only for them, or for little more.
///
/// On Linux one `syncfs` flushes the whole file system at once, which is much
/// faster than one `fsync` per file for the thousands of reports of a big game
/// (0.1 s against 1.4 s for 4,500 files of 20 kB on the reference machine), but it
/// also waits for every other process's unwritten data on that file system. So it
/// is used only when the system holds little unwritten data besides the turn's own
/// (`Dirty` and `Writeback` of `/proc/meminfo`, at most [`STRANGERS_DIRTY`] more
/// than the turn wrote); otherwise, or when it fails, each file is flushed, from
/// several threads, then each folder.
fn flush(root: &Path, files: &[PathBuf], dirs: &[PathBuf], bytes: u64) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    if unwritten_bytes().is_some_and(|dirty| whole_file_system_is_cheap(dirty, bytes)) {
        use std::os::fd::AsRawFd;
        let f = fs::File::open(root)?;
        // SAFETY: syncfs only reads the descriptor, which `f` keeps open.
        if unsafe { libc::syncfs(f.as_raw_fd()) } == 0 {
            return Ok(());
        }
    }
    flush_each(root, files, dirs)
}

/// Whether flushing the whole file system waits for little more than the turn:
/// `dirty` bytes unwritten in the system, of which the turn wrote at most `ours`.
fn whole_file_system_is_cheap(dirty: u64, ours: u64) -> bool {
    dirty <= ours.saturating_add(STRANGERS_DIRTY)
}

/// The system's data not yet on disk, in bytes: `Dirty` and `Writeback` of
/// `/proc/meminfo`; `None` where it cannot be read.
#[cfg(target_os = "linux")]
fn unwritten_bytes() -> Option<u64> {
    let text = fs::read_to_string("/proc/meminfo").ok()?;
    let mut total = 0u64;
    let mut found = 0;
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else { continue };
        if key == "Dirty" || key == "Writeback" {
            let kb: u64 = value.trim().trim_end_matches("kB").trim().parse().ok()?;
            total = total.saturating_add(kb.saturating_mul(1024));
            found += 1;
        }
    }
    (found == 2).then_some(total)
}

/// Flushes each file (four threads share them), then each folder, deepest first.
fn flush_each(root: &Path, files: &[PathBuf], dirs: &[PathBuf]) -> std::io::Result<()> {
    const THREADS: usize = 4;
    let chunk = files.len().div_ceil(THREADS).max(1);
    std::thread::scope(|s| {
        let jobs: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || -> std::io::Result<()> {
                    for rel in part {
                        fs::File::open(root.join(rel))?.sync_all()?;
                    }
                    Ok(())
                })
            })
            .collect();
        jobs.into_iter().try_for_each(|j| j.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })?;
    for d in dirs.iter().rev() {
        sync_dir(d)?;
    }
    Ok(())
}

/// Renames the finished folder `from` to `to` and flushes the parent folder.
pub fn commit(from: &Path, to: &Path) -> std::io::Result<()> {
    if abort_point().as_deref() == Some("rename") {
        std::process::abort();
    }
    fs::rename(from, to)?;
    sync_dir(to.parent().unwrap_or(Path::new(".")))
}

/// Puts the finished folder `new` in the place of folder `old` in one step: on
/// Linux the two are exchanged atomically (`renameat2`), so that a reader sees the
/// one or the other, never neither; `new` then holds the old folder, for the caller
/// to remove. Elsewhere (or on a file system without the exchange) `old` is moved
/// aside to `new`'s name with `.old` added, `new` renamed into place, and the old
/// folder moved to `new`'s name.
pub fn exchange(new: &Path, old: &Path) -> std::io::Result<()> {
    if abort_point().as_deref() == Some("rename") {
        std::process::abort();
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other);
        let (a, b) = (c(new)?, c(old)?);
        // SAFETY: both paths are NUL-terminated strings that outlive the call.
        let r =
            unsafe { libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE) };
        if r == 0 {
            return sync_dir(old.parent().unwrap_or(Path::new(".")));
        }
        let e = std::io::Error::last_os_error();
        if !matches!(e.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSYS) | Some(libc::ENOTSUP)) {
            return Err(e);
        }
    }
    let aside = new.with_extension("old");
    remove_if_exists(&aside)?;
    fs::rename(old, &aside)?;
    fs::rename(new, old)?;
    fs::rename(&aside, new)?;
    sync_dir(old.parent().unwrap_or(Path::new(".")))
}

/// Every file under `dir`, as paths relative to it, sorted.
pub fn files_under(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for e in fs::read_dir(dir.join(&rel))? {
            let e = e?;
            let r = rel.join(e.file_name());
            if e.file_type()?.is_dir() {
                stack.push(r);
            } else {
                out.push(r);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// Links file `from` at `to` (a copy where links are not possible). Files of a
/// game folder are never changed in place, so a link is as good as a copy.
pub fn link_or_copy(from: &Path, to: &Path) -> std::io::Result<()> {
    if let Some(parent) = to.parent() {
        fs::create_dir_all(parent)?;
    }
    if fs::hard_link(from, to).is_err() {
        fs::copy(from, to)?;
    }
    Ok(())
}

/// Waits until a file written in `dir` is stamped later than `after`, for at
/// most `patience`; returns whether it was. A file system may stamp files by a
/// clock that moves a tick (some milliseconds) at a time: a file written within
/// the tick of `after` would carry the same time. The probe file is removed.
pub fn wait_stamped_after(dir: &Path, after: std::time::SystemTime, patience: Duration) -> std::io::Result<bool> {
    let probe = dir.join(".clock");
    let start = Instant::now();
    let later = loop {
        fs::write(&probe, [])?;
        if fs::metadata(&probe)?.modified()? > after {
            break true;
        }
        if start.elapsed() >= patience {
            break false;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    fs::remove_file(&probe)?;
    Ok(later)
}

#[cfg(test)]
mod tests {
    use super::{Sink, TreeWriter, wait_stamped_after};
    use std::path::PathBuf;

    fn files(names: &[&str]) -> Vec<(PathBuf, Vec<u8>)> {
        names.iter().map(|n| (PathBuf::from(n), n.as_bytes().to_vec())).collect()
    }

    #[test]
    fn after_the_wait_a_file_written_is_stamped_later() {
        let dir = tempfile::tempdir().unwrap();
        for _ in 0..3 {
            std::fs::write(dir.path().join("a"), "a").unwrap();
            let a = std::fs::metadata(dir.path().join("a")).unwrap().modified().unwrap();
            assert!(wait_stamped_after(dir.path(), a, std::time::Duration::from_secs(1)).unwrap());
            std::fs::write(dir.path().join("b"), "b").unwrap();
            let b = std::fs::metadata(dir.path().join("b")).unwrap().modified().unwrap();
            assert!(b > a, "{a:?} {b:?}");
            assert!(!dir.path().join(".clock").exists(), "the probe is removed");
        }
        // A time no file can be stamped after within the patience given.
        let far = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
        assert!(!wait_stamped_after(dir.path(), far, std::time::Duration::from_millis(5)).unwrap());
        assert!(!dir.path().join(".clock").exists());
    }

    /// Piped or not, every file given is there once the sink is closed, and what
    /// was given before a settle is there when it returns.
    #[test]
    fn a_sink_writes_every_file_given_and_settles_on_demand() {
        for piped in [false, true] {
            let t = tempfile::tempdir().unwrap();
            let root = t.path().join("turn");
            std::thread::scope(|s| {
                let mut sink = Sink::new(TreeWriter::new(&root).unwrap(), piped, s);
                sink.write(files(&["state/a", "state/b"])).unwrap();
                sink.settle().unwrap();
                assert_eq!(std::fs::read(root.join("state/b")).unwrap(), b"state/b", "piped {piped}");
                for i in 0..20 {
                    sink.write(files(&[&format!("reports/{i}")])).unwrap();
                }
                let w = sink.close().unwrap();
                // Every file given is listed once, to be flushed (two threads
                // write them, so not in the order given).
                let mut listed = w.written.clone();
                listed.sort();
                let mut given: Vec<PathBuf> = ["state/a", "state/b"].iter().map(PathBuf::from).collect();
                given.extend((0..20).map(|i| PathBuf::from(format!("reports/{i}"))));
                given.sort();
                assert_eq!(listed, given, "piped {piped}");
                assert!(w.dirs.contains(&root.join("reports")), "its folder is flushed too");
                w.finish().unwrap();
            });
            assert_eq!(std::fs::read_dir(root.join("reports")).unwrap().count(), 20);
        }
    }

    /// A file given in parts holds them in order, also with other files written
    /// between two of its parts, and is one file written (the crash tests' abort
    /// points count files).
    #[test]
    fn a_file_given_in_parts_holds_them_in_order() {
        for piped in [false, true] {
            let t = tempfile::tempdir().unwrap();
            let root = t.path().join("turn");
            std::thread::scope(|s| {
                let mut sink = Sink::new(TreeWriter::new(&root).unwrap(), piped, s);
                for part in ["[\n", "  a,\n", "  b,\n", "]\n"] {
                    sink.append(PathBuf::from("state/units.ron"), part.as_bytes().to_vec()).unwrap();
                }
                sink.append(PathBuf::from("state/d"), b"1".to_vec()).unwrap();
                sink.write(files(&["state/c"])).unwrap();
                sink.append(PathBuf::from("state/d"), b"2".to_vec()).unwrap();
                sink.append(PathBuf::from("state/units.ron"), b"#".to_vec()).unwrap();
                let w = sink.close().unwrap();
                let names: Vec<_> = w.written.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                assert_eq!(names, ["state/units.ron", "state/d", "state/c"], "piped {piped}");
                assert_eq!(w.bytes, 15 + 7 + 2, "every byte counted once");
                w.finish().unwrap();
            });
            assert_eq!(std::fs::read_to_string(root.join("state/units.ron")).unwrap(), "[\n  a,\n  b,\n]\n#");
            assert_eq!(std::fs::read_to_string(root.join("state/d")).unwrap(), "12");
        }
    }

    /// A file the writing thread cannot write stops it, and its error comes back,
    /// at the latest when the sink is closed.
    #[test]
    fn a_sink_gives_back_the_writing_error() {
        for piped in [false, true] {
            let t = tempfile::tempdir().unwrap();
            std::thread::scope(|s| {
                let mut sink = Sink::new(TreeWriter::new(t.path()).unwrap(), piped, s);
                let mut failed = sink.write(files(&["../outside"])).err();
                for i in 0..5 {
                    failed = failed.or(sink.write(files(&[&format!("r{i}")])).err());
                }
                let err = failed.or(sink.close().err()).expect("an error");
                assert!(err.to_string().contains("not a plain path"), "piped {piped}: {err}");
            });
            assert!(!t.path().join("r4").exists() || !piped);
        }
    }

    #[test]
    fn the_whole_file_system_is_flushed_only_when_others_have_little_unwritten() {
        let mb = 1 << 20;
        assert!(super::whole_file_system_is_cheap(100 * mb, 100 * mb));
        assert!(super::whole_file_system_is_cheap(130 * mb, 100 * mb));
        assert!(!super::whole_file_system_is_cheap(140 * mb, 100 * mb));
        assert!(!super::whole_file_system_is_cheap(2048 * mb, 0));
        assert!(super::whole_file_system_is_cheap(u64::MAX, u64::MAX));
    }

    #[test]
    fn each_file_and_folder_can_be_flushed_on_its_own() {
        let t = tempfile::tempdir().unwrap();
        let mut w = super::TreeWriter::new(t.path()).unwrap();
        let files: Vec<_> =
            (0..9).map(|i| (std::path::PathBuf::from(format!("d{}/f{i}.txt", i % 2)), vec![b'x'; i])).collect();
        w.write(&files).unwrap();
        assert_eq!(w.bytes, 36);
        super::flush_each(&w.root, &w.written, &w.dirs).unwrap();
        assert_eq!(w.dirs.len(), 3);
        assert!(super::flush_each(&w.root, &[std::path::PathBuf::from("gone.txt")], &[]).is_err());
        #[cfg(target_os = "linux")]
        assert!(super::unwritten_bytes().is_some());
    }

    #[test]
    fn exchange_swaps_two_folders_whole() {
        let t = tempfile::tempdir().unwrap();
        let (a, b) = (t.path().join(".0001.join"), t.path().join("0001"));
        for (d, text) in [(&a, "new"), (&b, "old")] {
            std::fs::create_dir_all(d.join("state")).unwrap();
            std::fs::write(d.join("state/x.ron"), text).unwrap();
        }
        std::fs::write(b.join("only-old.txt"), "o").unwrap();
        super::exchange(&a, &b).unwrap();
        assert_eq!(std::fs::read_to_string(b.join("state/x.ron")).unwrap(), "new");
        assert!(!b.join("only-old.txt").exists());
        assert_eq!(std::fs::read_to_string(a.join("state/x.ron")).unwrap(), "old");
        assert!(a.join("only-old.txt").exists());
    }
}
