//! One error type for the whole crate, so that every bad input ends in a
//! one-line message that names the file and line, and exit status 2.

use std::fmt;
use std::path::{Path, PathBuf};

/// Where in an input a problem was found: a file (or `<stdin>`) and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: Option<usize>,
}

impl Location {
    pub fn new(file: impl Into<String>, line: Option<usize>) -> Self {
        Location { file: file.into(), line }
    }
    pub fn file(path: &Path) -> Self {
        Location::new(path.display().to_string(), None)
    }
    pub fn at(&self, line: usize) -> Self {
        Location::new(self.file.clone(), Some(line))
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{}", self.file, l),
            None => write!(f, "{}", self.file),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Malformed input: the location says where.
    #[error("{loc}: {msg}")]
    Parse { loc: Location, msg: String },
    /// A request that cannot be carried out as asked (bad rule, 0x0 torus, ...).
    #[error("{0}")]
    Invalid(String),
    /// A search stopped before it finished (another solver answered first,
    /// or a time limit passed): no verdict.
    #[error("interrupted before an answer was found")]
    Interrupted,
    /// Display names only the path: the cause follows in the error chain.
    #[error("{}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn parse(loc: &Location, msg: impl Into<String>) -> Self {
        Error::Parse { loc: loc.clone(), msg: msg.into() }
    }
    pub fn invalid(msg: impl Into<String>) -> Self {
        Error::Invalid(msg.into())
    }
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }
}
