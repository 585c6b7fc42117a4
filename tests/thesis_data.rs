//! The thesis' data vendored in `data/thesis/` is exactly what was vendored:
//! every file listed in `SHA256SUMS` exists and has its checksum, and every
//! file there is listed (an unlisted file would be read unchecked).

use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/thesis")
}

#[test]
fn every_vendored_file_matches_its_checksum() {
    let sums = std::fs::read_to_string(dir().join("SHA256SUMS")).unwrap();
    let mut listed = BTreeSet::new();
    for line in sums.lines().filter(|l| !l.trim().is_empty()) {
        let (want, name) = line.split_once("  ").expect("`<sha256>  <file>`");
        let bytes = std::fs::read(dir().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let got: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(got, want, "{name}");
        listed.insert(name.to_string());
    }
    for e in std::fs::read_dir(dir()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name != "SHA256SUMS" && name != "README.md" {
            assert!(listed.contains(&name), "data/thesis/{name} is not in SHA256SUMS");
        }
    }
    assert!(listed.contains("life64-stats-125000.txt.gz"));
}

#[test]
fn no_tracked_file_reaches_outside_the_repository() {
    // The repository is the whole artifact: no path into a sibling folder,
    // no variable naming one. (The patterns are spelt in pieces so that this
    // file does not match them itself.)
    let sibling = concat!("\\.\\./", "shared");
    let variable = concat!("LIFESEARCH", "_SHARED");
    let out = std::process::Command::new("git")
        .arg("-C")
        .arg(env!("CARGO_MANIFEST_DIR"))
        .args(["grep", "-l", "-e", sibling, "-e", variable])
        .output();
    let Ok(out) = out else { return };
    // git grep exits 1 when nothing matches; 128 outside a git checkout (a tarball).
    if out.status.code() == Some(128) {
        return;
    }
    assert!(
        out.stdout.is_empty(),
        "files that mention a path outside: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}
