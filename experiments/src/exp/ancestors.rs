//! Section 6.4 the smart way: for every 5x5 pattern, the exact number of 7x7
//! patterns evolving into it, by a matrix product over parent row pairs
//! (`lifesearch::search::ancestors`) instead of 2^49 simulations. The 256 MB table
//! is cached under `target/` for the code that computed it (a change to the
//! measuring code computes it again, so a rerun measures the code it names);
//! only the ranking of the rarest patterns and the table's checksum are committed.

use crate::harness::{Col, Ctx, Experiment, Fmt, Mode, Report, col};
use anyhow::Result;
use lifesearch::life::Rule;
use lifesearch::life::batch::pattern_grid;
use lifesearch::search::ancestors::{ancestor_counts, check_total, checksum, load_table, rarest, save_table};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

pub struct Ancestors;

/// Whether a cached table may stand in for computing it, before it is read:
/// it was computed by the code measuring now (an unknown code, outside a
/// git checkout, never matches). Its checksum is checked once it is read.
fn reusable(sc: &Sidecar, code: Option<&str>) -> bool {
    code.is_some_and(|c| sc.fingerprint == c)
}

/// The cached table for side `n`, with its compute time and checksum, if
/// the code that computed it is today's (decided from its sidecar, before
/// 256 MB are read) and its size, total and checksum check out.
fn cached_table(path: &Path, side: &Path, n: usize, code: Option<&str>) -> Option<(Vec<u64>, f64, String)> {
    let sc: Sidecar = serde_json::from_str(&std::fs::read_to_string(side).ok()?).ok()?;
    if !reusable(&sc, code) {
        return None;
    }
    let t = load_table(path, n).ok()?;
    let ck = hex(&t);
    (ck == sc.checksum).then_some((t, sc.compute_seconds, ck))
}

/// A table's checksum as the CSV and the sidecar write it.
fn hex(t: &[u64]) -> String {
    format!("{:016x}", checksum(t))
}

/// One of the rarest patterns. `tied` is how many patterns in the whole table
/// have the same count (ties decide which patterns a top-m cut keeps).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub rank: usize,
    pub side: usize,
    pub pattern: u64,
    pub ancestors: u64,
    pub tied: u64,
    /// The pattern as rows of `.` and `*` joined by `/`.
    pub cells: String,
    /// FNV-1a of the whole table (little-endian u64s), the same on every row.
    pub table_checksum: String,
    /// How long the table took to compute (when it was computed, not loaded).
    pub compute_seconds: f64,
}

#[derive(Serialize, Deserialize)]
struct Sidecar {
    compute_seconds: f64,
    checksum: String,
    /// The measuring code's fingerprint when the table was computed (absent
    /// in older caches, which are then computed again).
    #[serde(default)]
    fingerprint: String,
}

impl Experiment for Ancestors {
    type Row = Row;
    const ID: &'static str = "section-6-4-ancestors";
    const TITLE: &'static str = "Section 6.4: 5x5 patterns ranked by their number of 7x7 ancestors";
    const TABLE: &'static [Col<'static>] = &[
        col("Rank", "rank", Fmt::Int),
        col("Pattern", "pattern", Fmt::Text),
        col("Cells", "cells", Fmt::Code),
        col("Ancestors", "ancestors", Fmt::Int),
        col("Tied", "tied", Fmt::Int),
    ];

    fn rows(&self, m: Mode) -> Option<usize> {
        Some(m.pick(20, 100, 100))
    }

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        let n = ctx.mode.pick(4, 5, 5);
        let top = ctx.mode.pick(20, 100, 100);
        let path = ctx.cache.join(format!("ancestors-{n}x{n}-b3s23.u64le"));
        let side = path.with_extension("json");
        let code = ctx.code.as_deref();
        let parent_cells = (n + 2) * (n + 2);
        let cached = cached_table(&path, &side, n, code);
        // The checksum of 256 MB is taken once, whichever way the table came.
        let (table, secs, from_cache, ck) = match cached {
            Some((t, s, ck)) => (t, s, true, ck),
            None => {
                let bar = ctx.bar(0, Self::ID);
                let t0 = Instant::now();
                let t = ancestor_counts(n, Rule::CONWAY, &|done, total| {
                    bar.set_length(total);
                    bar.set_position(done);
                })?;
                let secs = t0.elapsed().as_secs_f64();
                bar.finish_and_clear();
                // `load_table` runs the same check on a cached table.
                check_total(&t, n)?;
                save_table(&path, &t)?;
                let ck = hex(&t);
                let sc = Sidecar {
                    compute_seconds: secs,
                    checksum: ck.clone(),
                    fingerprint: code.unwrap_or_default().into(),
                };
                lifesearch::atomic_write(&side, serde_json::to_string(&sc)?.as_bytes())?;
                (t, secs, false, ck)
            }
        };
        let best = rarest(&table, top);
        let mut tied: HashMap<u64, u64> = best.iter().map(|&(_, c)| (c, 0)).collect();
        for c in &table {
            if let Some(t) = tied.get_mut(c) {
                *t += 1;
            }
        }
        let rows: Vec<Row> = best
            .iter()
            .enumerate()
            .map(|(i, &(p, c))| Row {
                rank: i + 1,
                side: n,
                pattern: p as u64,
                ancestors: c,
                tied: tied[&c],
                cells: pattern_grid(n, p as u64).to_rows().join("/"),
                table_checksum: ck.clone(),
                compute_seconds: secs,
            })
            .collect();
        Ok((
            rows,
            Report {
                solvers: vec!["lifesearch::search::ancestors (row-pair transfer matrices, f64 GEMM)".into()],
                notes: vec![
                    format!("sum of counts = 2^{parent_cells} checked"),
                    format!("table checksum (FNV-1a of LE u64) {ck}"),
                    format!(
                        "computed in {secs:.1} s{}",
                        if from_cache { " (loaded from cache)" } else { "" }
                    ),
                    format!("table cached at {}", path.display()),
                ],
                ..Default::default()
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cached_table_serves_only_the_code_that_computed_it() {
        let sc = |fingerprint: &str| Sidecar {
            compute_seconds: 1.0,
            checksum: "00ff".into(),
            fingerprint: fingerprint.into(),
        };
        assert!(reusable(&sc("code-1"), Some("code-1")));
        assert!(!reusable(&sc("code-1"), Some("code-2")), "the code changed since");
        assert!(!reusable(&sc(""), None), "outside git nothing is known");
        // A cache written before the fingerprint was kept.
        let old: Sidecar = serde_json::from_str(r#"{"compute_seconds":27.3,"checksum":"00ff"}"#).unwrap();
        assert!(!reusable(&old, Some("code-1")));
    }

    #[test]
    fn a_cached_table_is_read_only_when_its_code_and_checksum_match() {
        let dir = tempfile::tempdir().unwrap();
        let (path, side) = (dir.path().join("t.u64le"), dir.path().join("t.json"));
        // Side 1, Conway's rule: of the 2^9 3x3 parents, 140 leave the centre alive.
        let t = vec![372u64, 140];
        save_table(&path, &t).unwrap();
        let write = |ck: &str, fp: &str| {
            let sc = Sidecar { compute_seconds: 2.5, checksum: ck.into(), fingerprint: fp.into() };
            std::fs::write(&side, serde_json::to_string(&sc).unwrap()).unwrap();
        };
        write(&hex(&t), "code-1");
        assert_eq!(cached_table(&path, &side, 1, Some("code-1")), Some((t.clone(), 2.5, hex(&t))));
        assert_eq!(cached_table(&path, &side, 1, Some("code-2")), None, "other code");
        assert_eq!(cached_table(&path, &side, 1, None), None, "unknown code");
        write("0000000000000000", "code-1");
        assert_eq!(cached_table(&path, &side, 1, Some("code-1")), None, "the table changed since");
        write(&hex(&t), "code-2");
        std::fs::write(&path, b"not a table").unwrap();
        assert_eq!(cached_table(&path, &side, 1, Some("code-2")), None, "a broken table is not used");
    }
}
