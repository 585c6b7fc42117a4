//! Is an output current? Each experiment's entry in `data/manifest.json`
//! records the fingerprint of the code that measured it; an output is
//! current when that fingerprint is the fingerprint of the code now. The
//! experiments harness writes the entries, the book shows them.

use std::path::Path;

// ANCHOR: fingerprint
/// What the outputs depend on: a hash of every file git would track
/// (committed or not) under the code that measures (see [`MEASURED`]), so
/// that writing or committing outputs, or editing the book, does not make
/// them stale but any change to that code does.
pub fn fingerprint(src: &Path) -> String {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(src)
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .output();
    let Some(out) = out.ok().filter(|o| o.status.success()) else { return "unknown".into() };
    let mut files: Vec<&[u8]> = out.stdout.split(|&b| b == 0).filter(|f| !f.is_empty()).collect();
    files.sort();
    let mut h = FNV_START;
    for f in files {
        let name = String::from_utf8_lossy(f);
        if !MEASURED.iter().any(|m| name.starts_with(m)) {
            continue;
        }
        h = fnv(h, f);
        // A deleted but still listed file hashes as empty.
        h = fnv(h, &std::fs::read(src.join(&*name)).unwrap_or_default());
    }
    format!("src-{h:016x}")
}

/// What a measurement depends on: the library, the harness and the locked
/// dependencies. The book's prose, the outputs themselves (data/, figures,
/// generated tables) and the tests are left out, so editing a chapter does
/// not make every table look out of date.
const MEASURED: [&str; 4] = ["src/", "experiments/", "Cargo.toml", "Cargo.lock"];

/// The current commit (recorded beside the fingerprint).
pub fn commit(src: &Path) -> String {
    std::process::Command::new("git")
        .arg("-C")
        .arg(src)
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}
// ANCHOR_END: fingerprint

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv(h: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(h, |h, &b| (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprint_ignores_outputs_and_sees_code() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let git = |args: &[&str]| {
            std::process::Command::new("git").arg("-C").arg(d).args(args).output().unwrap();
        };
        git(&["init", "-q"]);
        std::fs::create_dir_all(d.join("src")).unwrap();
        std::fs::write(d.join("src/a.rs"), "fn main() {}").unwrap();
        let f0 = fingerprint(d);
        assert!(f0.starts_with("src-"), "{f0}");
        std::fs::create_dir_all(d.join("data")).unwrap();
        std::fs::write(d.join("data/x.csv"), "a\n1\n").unwrap();
        assert_eq!(fingerprint(d), f0, "outputs do not count");
        std::fs::create_dir_all(d.join("book/src")).unwrap();
        std::fs::write(d.join("book/src/ch1.md"), "# prose").unwrap();
        assert_eq!(fingerprint(d), f0, "the book's prose does not count");
        std::fs::write(d.join("src/a.rs"), "fn main() { }").unwrap();
        let f1 = fingerprint(d);
        assert_ne!(f1, f0, "code does");
        std::fs::write(d.join("Cargo.lock"), "# locked").unwrap();
        assert_ne!(fingerprint(d), f1, "so do the locked dependencies");
    }
}
