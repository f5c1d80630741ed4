//! A progress bar for long turns, on standard error. It appears only once a turn has
//! taken more than a second, and only when both standard output and standard error
//! are terminals.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// Delay before the bar appears.
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// Width of the bar in characters.
const WIDTH: usize = 30;

/// A day counter drawn as a bar.
pub struct Progress {
    label: &'static str,
    enabled: bool,
    started: Instant,
    drawn: bool,
}

impl Progress {
    /// A bar for `label`; `wanted` false disables it.
    pub fn new(label: &'static str, wanted: bool) -> Self {
        let enabled = wanted && std::io::stdout().is_terminal() && std::io::stderr().is_terminal();
        Progress { label, enabled, started: Instant::now(), drawn: false }
    }

    /// Shows that `done` of `total` days are done.
    pub fn update(&mut self, done: u32, total: u32) {
        if !self.enabled || self.started.elapsed() < SHOW_AFTER || total == 0 {
            return;
        }
        let filled = (done as usize * WIDTH) / total as usize;
        let mut e = std::io::stderr().lock();
        let _ = write!(e, "\r{} [{}{}] day {done}/{total}", self.label, "#".repeat(filled), " ".repeat(WIDTH - filled));
        let _ = e.flush();
        self.drawn = true;
    }

    /// Clears the bar.
    pub fn finish(&mut self) {
        if self.drawn {
            let mut e = std::io::stderr().lock();
            let _ = write!(e, "\r{}\r", " ".repeat(self.label.len() + WIDTH + 20));
            let _ = e.flush();
            self.drawn = false;
        }
    }
}
