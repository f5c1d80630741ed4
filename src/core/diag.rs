//! Diagnostics: errors and warnings that name a file, a line and a column.
//!
//! Every command that reads input (RON data, legacy files, order files, command
//! line arguments) reports problems as [`Diagnostic`]s, collected and printed
//! together, in the form `file:line:col: error: message`.

use std::fmt;
use std::path::{Path, PathBuf};

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Something was converted or read in a way the author may not expect.
    Warning,
    /// The input cannot be used.
    Error,
}

/// A problem found in an input file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The file concerned.
    pub file: PathBuf,
    /// Line, from 1 (0 when the problem concerns the whole file).
    pub line: usize,
    /// Column, from 1 (0 when unknown).
    pub col: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl Diagnostic {
    /// An error at a position.
    pub fn error(file: impl AsRef<Path>, line: usize, col: usize, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, file: file.as_ref().to_path_buf(), line, col, message: message.into() }
    }

    /// A warning at a position.
    pub fn warning(file: impl AsRef<Path>, line: usize, col: usize, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(file, line, col, message) }
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{}", self.file.display())?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
            if self.col > 0 {
                write!(f, ":{}", self.col)?;
            }
        }
        write!(f, ": {kind}: {}", self.message)
    }
}

/// Sorts diagnostics by file, line and column, keeping the order of equal ones.
pub fn sort(diags: &mut [Diagnostic]) {
    diags.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
}
