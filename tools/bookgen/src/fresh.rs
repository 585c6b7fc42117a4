//! Is an output current? Each experiment's entry in `data/manifest.json`
//! records the fingerprint of the code that measured it; an output is
//! current when that fingerprint is the fingerprint of the code now. The
//! experiments harness writes the entries, the book shows them.

use std::path::Path;

// ANCHOR: fingerprint
/// What the outputs depend on: a hash of every file git would track
/// (committed or not) under the code that measures (the list `MEASURED` in this module), so
/// that writing or committing outputs, or editing the book, does not make
/// them stale but any change to that code does. Runs of whitespace count
/// as one space: reformatting (`cargo fmt` breaking a line) measures
/// nothing differently, while `{}` against `{ }` still counts.
pub fn fingerprint(src: &Path) -> String {
    stamp("code", hash_measured(src, true))
}

/// The first definition, byte for byte (prefix `src-`), which older
/// manifest entries record; [`restamp`] reads it to verify them.
pub fn byte_fingerprint(src: &Path) -> String {
    stamp("src", hash_measured(src, false))
}

/// The fingerprint outside a git checkout, where the code is not known.
pub const UNKNOWN: &str = "unknown";

/// A fingerprint as the manifest writes it: `prefix-` and 16 hex digits,
/// or [`UNKNOWN`] outside a git checkout.
fn stamp(prefix: &str, hash: Option<u64>) -> String {
    hash.map_or_else(|| UNKNOWN.into(), |h| format!("{prefix}-{h:016x}"))
}

fn hash_measured(src: &Path, collapse: bool) -> Option<u64> {
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(src)
        .args(["ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .output();
    let out = out.ok().filter(|o| o.status.success())?;
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
        let bytes = std::fs::read(src.join(&*name)).unwrap_or_default();
        h = fnv(h, &if collapse { collapse_whitespace(&bytes) } else { bytes });
    }
    Some(h)
}

/// Every run of ASCII whitespace as one space.
fn collapse_whitespace(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for &b in bytes {
        if b.is_ascii_whitespace() {
            if out.last() != Some(&b' ') {
                out.push(b' ');
            }
        } else {
            out.push(b);
        }
    }
    out
}
// ANCHOR_END: fingerprint

// ANCHOR: restamp
/// Move manifest entries recorded under [`byte_fingerprint`] to
/// [`fingerprint`], each only after checking it: the code at the entry's
/// recorded commit (checked out into a temporary git worktree) must have
/// exactly the recorded byte fingerprint, so the new stamp describes the
/// code that measured it. Returns the ids restamped; entries that fail the
/// check keep their old stamp (and so read as stale).
pub fn restamp(root: &Path) -> anyhow::Result<Vec<String>> {
    use anyhow::Context;
    let mut manifest = crate::manifest::Manifest::load(root)?;
    let mut stamps: std::collections::BTreeMap<String, Option<(String, String)>> = Default::default();
    let mut done = Vec::new();
    for (id, e) in manifest.experiments.iter_mut() {
        if !e.fingerprint.starts_with("src-") {
            continue;
        }
        if !stamps.contains_key(&e.commit) {
            let tree =
                std::env::temp_dir().join(format!("bookgen-restamp-{}-{}", std::process::id(), &e.commit));
            let git = |args: &[&std::ffi::OsStr]| {
                std::process::Command::new("git").arg("-C").arg(root).args(args).output()
            };
            let added = git(&[
                "worktree".as_ref(),
                "add".as_ref(),
                "-q".as_ref(),
                "--detach".as_ref(),
                tree.as_os_str(),
                e.commit.as_ref(),
            ])
            .context("git worktree add")?;
            let stamp = added.status.success().then(|| (byte_fingerprint(&tree), fingerprint(&tree)));
            git(&["worktree".as_ref(), "remove".as_ref(), "--force".as_ref(), tree.as_os_str()])
                .context("git worktree remove")?;
            stamps.insert(e.commit.clone(), stamp);
        }
        if let Some(Some((old, new))) = stamps.get(&e.commit)
            && *old == e.fingerprint
        {
            e.fingerprint = new.clone();
            done.push(id.clone());
        }
    }
    crate::write_whole(&crate::manifest::Manifest::path(root), &manifest.to_json()?)?;
    Ok(done)
}
// ANCHOR_END: restamp

// ANCHOR: measured
/// What a measurement depends on: the library, the harness and the locked
/// dependencies. The book's prose, the outputs themselves (data/, figures,
/// generated tables) and the tests are left out, so editing a chapter does
/// not make every table look out of date.
const MEASURED: [&str; 4] = ["src/", "experiments/", "Cargo.toml", "Cargo.lock"];
// ANCHOR_END: measured

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
        assert!(f0.starts_with("code-"), "{f0}");
        std::fs::create_dir_all(d.join("data")).unwrap();
        std::fs::write(d.join("data/x.csv"), "a\n1\n").unwrap();
        assert_eq!(fingerprint(d), f0, "outputs do not count");
        std::fs::create_dir_all(d.join("book/src")).unwrap();
        std::fs::write(d.join("book/src/ch1.md"), "# prose").unwrap();
        assert_eq!(fingerprint(d), f0, "the book's prose does not count");
        std::fs::write(d.join("src/a.rs"), "fn main() {\n}").unwrap();
        let b0 = byte_fingerprint(d);
        std::fs::write(d.join("src/a.rs"), "fn main() {\n    }").unwrap();
        assert_eq!(fingerprint(d), fingerprint(d), "stable");
        let r = fingerprint(d);
        std::fs::write(d.join("src/a.rs"), "fn main() { }").unwrap();
        assert_eq!(fingerprint(d), r, "re-indenting or breaking a line does not count");
        assert_ne!(byte_fingerprint(d), b0, "byte for byte it does");
        let f1 = fingerprint(d);
        assert_ne!(f1, f0, "code does");
        std::fs::write(d.join("Cargo.lock"), "# locked").unwrap();
        assert_ne!(fingerprint(d), f1, "so do the locked dependencies");
    }
}
