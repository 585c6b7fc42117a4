//! Files are written whole or not at all: a temporary file beside the target,
//! then a rename, so an interrupted run never leaves half a CSV or pattern.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::Path;

/// Write `bytes` to `path` atomically (temporary file in the same folder, then rename).
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = folder_of(path);
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut tmp = temp_beside(path, "").map_err(|e| Error::io(dir, e))?;
    tmp.write_all(bytes).map_err(|e| Error::io(path, e))?;
    tmp.persist(path).map_err(|e| Error::io(path, e.error))?;
    Ok(())
}

/// The folder a file `path` lives in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// A temporary file in `path`'s folder, to be renamed onto `path` when whole.
/// It is made with the mode an ordinary new file gets (0666 less the umask),
/// not the temporary file's private 0600, which the rename would keep: a CSV,
/// figure or pattern written here must be as readable as one `cp` made.
pub fn temp_beside(path: &Path, suffix: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    b.suffix(suffix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(folder_of(path))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_written_file_has_an_ordinary_files_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("out.csv");
        atomic_write(&p, b"a\n1\n").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"a\n1\n");
        // What `File::create` gives under the same umask.
        let plain = dir.path().join("plain");
        std::fs::File::create(&plain).unwrap();
        let mode = |q: &Path| std::fs::metadata(q).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&p), mode(&plain));
        assert_ne!(mode(&p) & 0o044, 0, "readable by others under the usual umask");
    }
}
