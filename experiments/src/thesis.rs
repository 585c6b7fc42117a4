//! The thesis' own numbers, vendored in `data/thesis/` (its README says where
//! each file comes from and what every column means). Every file is listed
//! with its SHA-256 in `data/thesis/SHA256SUMS`; nothing is read without being
//! checked against that list, so a missing or altered file is one clear error
//! naming it, never a quietly different result.

use anyhow::{Context, Result, bail, ensure};
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The list of vendored files and their checksums.
pub const SUMS: &str = "SHA256SUMS";

/// The vendored data beside this program's sources: `<repository>/data/thesis`.
pub fn default_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../data/thesis")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The checksum list: (file name, expected SHA-256 in hex).
fn sums(dir: &Path) -> Result<Vec<(String, String)>> {
    let path = dir.join(SUMS);
    let text = std::fs::read_to_string(&path).with_context(|| format!("{}: cannot read", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let Some((sum, name)) = line.split_once("  ") else {
            bail!("{}:{}: not `<sha256>  <file>`", path.display(), i + 1);
        };
        let is_sha256 = sum.len() == 64 && sum.bytes().all(|b| b.is_ascii_hexdigit());
        ensure!(is_sha256, "{}:{}: not a SHA-256 checksum", path.display(), i + 1);
        out.push((name.trim().to_string(), sum.to_ascii_lowercase()));
    }
    Ok(out)
}

// ANCHOR: checked_read
/// The bytes of vendored file `name`, after checking them against
/// `SHA256SUMS`. Errors name the file: missing, unlisted, or altered.
pub fn read(dir: &Path, name: &str) -> Result<Vec<u8>> {
    let path = dir.join(name);
    let Some((_, want)) = sums(dir)?.into_iter().find(|(n, _)| n == name) else {
        bail!("{}: not listed in {}", path.display(), dir.join(SUMS).display());
    };
    let bytes = std::fs::read(&path).with_context(|| format!("{}: missing or unreadable", path.display()))?;
    let got = hex(&Sha256::digest(&bytes));
    ensure!(got == want, "{}: altered or corrupt (SHA-256 {got}, {SUMS} says {want})", path.display());
    Ok(bytes)
}

/// Check every file listed in `SHA256SUMS`: run before anything is measured.
pub fn verify_all(dir: &Path) -> Result<()> {
    for (name, _) in sums(dir)? {
        read(dir, &name)?;
    }
    Ok(())
}
// ANCHOR_END: checked_read

/// A vendored CSV as typed rows; errors name the file and line.
pub fn table<T: DeserializeOwned>(dir: &Path, name: &str) -> Result<Vec<T>> {
    let bytes = read(dir, name)?;
    crate::harness::rows_of(csv::Reader::from_reader(bytes.as_slice()), &dir.join(name))
}

/// Figure 5.9's panel B (slice sizes after GridSolve), row by row, from
/// `figure-5-9.txt`: each of the ten lines under the `A: single pixels`
/// header ends with panel B's ten numbers (panel A's, before them, carry an
/// extraction artefact; `tests/gridwalker_thesis.rs` reads those).
pub fn figure_5_9_b(dir: &Path) -> Result<Vec<u32>> {
    const NAME: &str = "figure-5-9.txt";
    let path = dir.join(NAME);
    let text = lifesearch::text_from_bytes(&path.display().to_string(), read(dir, NAME)?)?;
    let mut lines = text.lines().enumerate();
    let header = lines.any(|(_, l)| l.starts_with("A: single pixels"));
    ensure!(header, "{}: no `A: single pixels` header", path.display());
    let mut b = Vec::new();
    for (i, line) in lines.take(10) {
        let v: Vec<u32> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .with_context(|| format!("{}:{}: not numbers", path.display(), i + 1))?;
        ensure!(v.len() >= 10, "{}:{}: fewer than ten numbers", path.display(), i + 1);
        b.extend_from_slice(&v[v.len() - 10..]);
    }
    ensure!(b.len() == 100, "{}: panel B needs ten rows under the header", path.display());
    Ok(b)
}

/// The raw statistics of the 125,000-candidate study.
pub const STATS: &str = "life64-stats-125000.txt.gz";

/// The thesis' per-candidate statistics: 12 integers per line (slices added,
/// slice queries, N-S added, N-S lookups, E-W added, E-W lookups, then running totals).
pub fn stats(dir: &Path) -> Result<Vec<[u64; 12]>> {
    use std::io::BufRead;
    let path = dir.join(STATS);
    let bytes = read(dir, STATS)?;
    let r = std::io::BufReader::new(flate2::read::GzDecoder::new(bytes.as_slice()));
    let mut out = Vec::new();
    for (i, line) in r.lines().enumerate() {
        let line = line.with_context(|| format!("{}:{}: cannot read", path.display(), i + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let bad = || format!("{}:{}: not 12 integers", path.display(), i + 1);
        let v: Vec<u64> =
            line.split(',').map(|s| s.trim().parse::<u64>()).collect::<Result<_, _>>().with_context(bad)?;
        out.push(v.try_into().map_err(|_| anyhow::anyhow!(bad()))?);
    }
    ensure!(out.len() == 125_000, "{}: {} lines, the study had 125,000", path.display(), out.len());
    Ok(out)
}

/// One row of the thesis' Table 6.2 (`table-6-2.csv`).
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Table62 {
    pub row: usize,
    pub goe: String,
    pub glucose_20: u64,
    pub glucose_syrup_20: u64,
    pub cominisat_20: u64,
    pub gridwalker_20: u64,
    pub glucose_40: u64,
    pub glucose_syrup_40: u64,
    pub cominisat_40: u64,
    pub gridwalker_40: u64,
}

impl Table62 {
    pub fn orphan(&self) -> bool {
        self.goe == "yes"
    }
    /// GRIDWALKER's time on the batch of this side (20 or 40).
    pub fn gridwalker(&self, side: usize) -> u64 {
        if side == 20 { self.gridwalker_20 } else { self.gridwalker_40 }
    }
    /// The fastest of the three SAT solvers on the batch of this side.
    pub fn best_sat(&self, side: usize) -> u64 {
        if side == 20 {
            self.glucose_20.min(self.glucose_syrup_20).min(self.cominisat_20)
        } else {
            self.glucose_40.min(self.glucose_syrup_40).min(self.cominisat_40)
        }
    }
}

/// Table 6.2, its twenty rows in order.
pub fn table_6_2(dir: &Path) -> Result<Vec<Table62>> {
    let rows: Vec<Table62> = table(dir, "table-6-2.csv")?;
    let in_order = rows.len() == 20 && rows.iter().enumerate().all(|(i, r)| r.row == i + 1);
    ensure!(in_order, "{}: expected rows 1-20 in order", dir.join("table-6-2.csv").display());
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_vendored_data_checks_out() {
        verify_all(&default_dir()).unwrap();
        assert_eq!(stats(&default_dir()).unwrap().len(), 125_000);
        let t = table_6_2(&default_dir()).unwrap();
        assert_eq!(t.iter().filter(|r| r.orphan()).count(), 16);
        assert_eq!(t[19].gridwalker_40, 52_327);
    }

    #[test]
    fn a_changed_byte_or_a_missing_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        for e in std::fs::read_dir(default_dir()).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
        }
        verify_all(dir.path()).unwrap();
        let csv = dir.path().join("table-6-2.csv");
        let mut bytes = std::fs::read(&csv).unwrap();
        bytes[40] ^= 1;
        std::fs::write(&csv, &bytes).unwrap();
        let e = format!("{:#}", verify_all(dir.path()).unwrap_err());
        assert!(e.contains("table-6-2.csv: altered or corrupt"), "{e}");
        std::fs::remove_file(dir.path().join(STATS)).unwrap();
        let e = format!("{:#}", stats(dir.path()).unwrap_err());
        assert!(e.contains("life64-stats-125000.txt.gz: missing"), "{e}");
    }
}
