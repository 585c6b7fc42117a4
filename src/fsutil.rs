//! Files are written whole or not at all: a temporary file beside the target,
//! then a rename, so an interrupted run never leaves half a CSV or pattern.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Write `bytes` to `path` atomically (temporary file in the same folder, then rename).
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// Read a whole file as UTF-8, naming the file (and the first bad line) when it is not.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    text_from_bytes(&path.display().to_string(), bytes)
}

/// Decode bytes as UTF-8; on failure report the line that holds the first bad byte.
pub fn text_from_bytes(name: &str, bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let upto = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..upto].iter().filter(|&&b| b == b'\n').count() + 1;
        Error::Parse { loc: crate::error::Location::new(name, Some(line)), msg: "not valid UTF-8".into() }
    })
}
