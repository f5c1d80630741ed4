//! The result of checking an order file: problems by line, errors and warnings,
//! and a summary. A rule system's checker fills it; the game folder and the command
//! line report it.

use std::fmt;

/// How serious a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// The order (or block) will be ignored or removed when reached.
    Error,
    /// The order may fail, depending on what happens first.
    Warning,
}

/// One problem, at a line of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Line number (1-based; 0 for the file as a whole).
    pub line: usize,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, for the player.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        if self.line > 0 {
            write!(f, "line {}: {kind}: {}", self.line, self.message)
        } else {
            write!(f, "{kind}: {}", self.message)
        }
    }
}

/// The result of checking one order file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Check {
    /// The problems, in line order (errors before warnings on the same line).
    pub problems: Vec<Problem>,
    /// What the file holds, for the summary: how many of what (`(3, "unit block")`),
    /// in the order the summary lists them.
    pub counts: Vec<(usize, &'static str)>,
}

impl Check {
    /// Number of errors.
    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.severity == Severity::Error).count()
    }
    /// Number of warnings.
    pub fn warnings(&self) -> usize {
        self.problems.len() - self.errors()
    }
    /// One line: "3 unit blocks, 12 orders: 1 error, 2 warnings".
    pub fn summary(&self) -> String {
        fn n(count: usize, one: &str) -> String {
            format!("{count} {one}{}", if count == 1 { "" } else { "s" })
        }
        let counts: Vec<String> = self.counts.iter().map(|&(count, one)| n(count, one)).collect();
        format!("{}: {}, {}", counts.join(", "), n(self.errors(), "error"), n(self.warnings(), "warning"))
    }
}
