//! How many parents does a pattern have? (thesis section 6.4, done the smart way)
//!
//! The thesis evolved all 2^49 7x7 patterns on a GPU (22 hours) to learn, for
//! every 5x5 pattern, how many 7x7 patterns evolve into it in one generation;
//! the rarest ones seeded its orphan candidates (Figures 6.1 and 6.2). But row
//! `r` of the 5x5 child depends only on parent rows `r`, `r+1`, `r+2`, so the
//! count factors over *pairs of parent rows*: a transfer matrix per child row,
//! and the whole table is a product of such matrices. We split the rows in two:
//! the left factor runs the first n-2 child rows forward from all-ones, the
//! right factor the last two rows, and a dense matrix product joins them over
//! the 2^14 possible (parent row, parent row) pairs in the middle. For n = 5 that
//! is 2^15 x 2^14 x 2^10 multiply-adds, halved by left-right mirror symmetry:
//! minutes on a CPU instead of 2^49 simulations.
//!
//! Numbering: child pattern `i` (n x n) has cell (x, y) alive iff bit `y*n + x` is
//! set, as in [`crate::life::batch`]; a row is an n-bit number with bit x = column x.
//! Counts are accumulated in `f64`: every partial sum is a count of parents, at
//! most 2^49 < 2^53, so the floating-point arithmetic is exact.
//!
//! Book: Part II, chapter 6, section 6.4 (`book/src/thesis/ch6.md`).

use crate::error::{Error, Result};
use crate::life::Rule;
use crate::simd::simd_copies;
use rayon::prelude::*;
use std::path::Path;

/// The largest child side we accept (n = 5 needs a 256 MB table).
pub const MAX_SIDE: usize = 5;

// ANCHOR: row_table
/// `child[(a << 2w) | (b << w) | c]` = the middle n cells of parent row `b`
/// after one generation, given parent rows `a` (above), `b`, `c` (below), each
/// of width w = n + 2.
struct RowTable {
    n: usize,
    w: usize,
    child: Vec<u8>,
}

impl RowTable {
    fn new(n: usize, rule: Rule) -> RowTable {
        let w = n + 2;
        let mask = (1usize << w) - 1;
        let child = (0..1usize << (3 * w))
            .map(|i| {
                let (a, b, c) = (i >> (2 * w), (i >> w) & mask, i & mask);
                let mut row = 0u8;
                for x in 0..n {
                    // Parent columns x, x+1, x+2 surround child column x.
                    let three = |r: usize| ((r >> x) & 7).count_ones();
                    let alive = (b >> (x + 1)) & 1 == 1;
                    let neighbours = three(a) + three(b) + three(c) - alive as u32;
                    row |= (rule.next(alive, neighbours) as u8) << x;
                }
                row
            })
            .collect();
        RowTable { n, w, child }
    }

    #[inline]
    fn at(&self, a: usize, b: usize, c: usize) -> usize {
        self.child[(a << (2 * self.w)) | (b << self.w) | c] as usize
    }
}
// ANCHOR_END: row_table

// ANCHOR: extend
/// One forward step of the transfer matrices: from `l[(a << w) | b]` (parents of a
/// child prefix, ending in parent rows a, b) to the parents of the prefix
/// extended by every child row value r: `out[r][(b << w) | c]`.
fn extend(t: &RowTable, l: &[f64]) -> Vec<Vec<f64>> {
    let (w, pairs) = (t.w, 1usize << (2 * t.w));
    let mut out = vec![vec![0.0; pairs]; 1 << t.n];
    for (ab, &v) in l.iter().enumerate() {
        if v == 0.0 {
            continue;
        }
        let (a, b) = (ab >> w, ab & ((1 << w) - 1));
        for c in 0..1usize << w {
            out[t.at(a, b, c)][(b << w) | c] += v;
        }
    }
    out
}
// ANCHOR_END: extend

/// The right factor: `b[(p << w | q) * N + (r1 | r2 << n)]` = the number of last
/// two parent rows completing parent rows p, q so that the last two child rows
/// are r1, r2 (N = 2^2n).
fn right_factor(t: &RowTable) -> Vec<f64> {
    let (n, w) = (t.n, t.w);
    let cols = 1usize << (2 * n);
    // s[r2][(q << w) | u]: choices of the last parent row below rows q, u giving r2.
    let mut s = vec![vec![0.0f64; 1 << (2 * w)]; 1 << n];
    for q in 0..1usize << w {
        for u in 0..1usize << w {
            for v in 0..1usize << w {
                s[t.at(q, u, v)][(q << w) | u] += 1.0;
            }
        }
    }
    let mut b = vec![0.0f64; (1 << (2 * w)) * cols];
    for p in 0..1usize << w {
        for q in 0..1usize << w {
            let row = &mut b[((p << w) | q) * cols..][..cols];
            for u in 0..1usize << w {
                let r1 = t.at(p, q, u);
                for (r2, s_r2) in s.iter().enumerate() {
                    row[r1 | (r2 << n)] += s_r2[(q << w) | u];
                }
            }
        }
    }
    b
}

// ANCHOR: gemm
/// `c += a * b` for row-major `a` (m x k), `b` (k x n), `c` (m x n): blocked so a
/// panel of `b` stays in cache and a 4 x 8 tile of `c` stays in registers.
#[inline(always)]
fn gemm_body(m: usize, k: usize, n: usize, a: &[f64], b: &[f64], c: &mut [f64]) {
    const MR: usize = 4;
    const NR: usize = 8;
    const KC: usize = 256;
    const NC: usize = 256;
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n && n.is_multiple_of(NR));
    for jb in (0..n).step_by(NC) {
        let je = (jb + NC).min(n);
        for kb in (0..k).step_by(KC) {
            let ke = (kb + KC).min(k);
            let mut i = 0;
            while i < m {
                let rows = MR.min(m - i);
                for j in (jb..je).step_by(NR) {
                    let mut acc = [[0.0f64; NR]; MR];
                    for kk in kb..ke {
                        let brow: &[f64; NR] = b[kk * n + j..kk * n + j + NR].try_into().unwrap();
                        for (r, acc_r) in acc.iter_mut().enumerate().take(rows) {
                            let av = a[(i + r) * k + kk];
                            for q in 0..NR {
                                acc_r[q] += av * brow[q];
                            }
                        }
                    }
                    for (r, acc_r) in acc.iter().enumerate().take(rows) {
                        for q in 0..NR {
                            c[(i + r) * n + j + q] += acc_r[q];
                        }
                    }
                }
                i += rows;
            }
        }
    }
}

simd_copies! {
    /// The product, compiled again for AVX2 with fused multiply-add.
    fn gemm(m: usize, k: usize, n: usize, a: &[f64], b: &[f64], c: &mut [f64])
        -> () => gemm_body;
    gemm_avx2: "avx2,fma" if has!("avx2") && has!("fma");
}
// ANCHOR_END: gemm

/// Reverse the low `n` bits of every `n`-bit row of an index of `rows` rows.
fn mirror_rows(i: usize, n: usize, rows: usize) -> usize {
    let mut out = 0;
    for r in 0..rows {
        let row = (i >> (r * n)) & ((1 << n) - 1);
        let mut m = 0;
        for x in 0..n {
            m |= ((row >> x) & 1) << (n - 1 - x);
        }
        out |= m << (r * n);
    }
    out
}

// ANCHOR: ancestor_counts
/// For every n x n pattern, the number of (n+2) x (n+2) patterns that evolve
/// into it in one generation (the child is the parent's inner n x n).
/// `progress(done, total)` is called after each of the parallel tasks.
pub fn ancestor_counts(n: usize, rule: Rule, progress: &(dyn Fn(u64, u64) + Sync)) -> Result<Vec<u64>> {
    if !(2..=MAX_SIDE).contains(&n) {
        return Err(Error::invalid(format!("ancestor counts: side {n} is not in 2..={MAX_SIDE}")));
    }
    let t = RowTable::new(n, rule);
    let w = t.w;
    let (pairs, cols) = (1usize << (2 * w), 1usize << (2 * n));
    let b = right_factor(&t);
    // Tasks: one per value of the first n-3 child rows (just one task for n < 3).
    let prefix_rows = n.saturating_sub(3);
    let tasks = 1usize << (n * prefix_rows);
    let a_rows = if n >= 3 { 1usize << n } else { 1 };
    let block = a_rows * cols;
    let canonical = |t_: usize| t_ <= mirror_rows(t_, n, prefix_rows);
    let mut internal = vec![0.0f64; tasks * block];
    let done = std::sync::atomic::AtomicU64::new(0);
    let todo = (0..tasks).filter(|&x| canonical(x)).count() as u64;
    internal.par_chunks_mut(block).enumerate().filter(|(task, _)| canonical(*task)).for_each(
        |(task, out)| {
            // The left factor: run the prefix rows forward from "any two parent rows".
            let mut l = vec![1.0f64; pairs];
            for r in 0..prefix_rows {
                let row = (task >> (r * n)) & ((1 << n) - 1);
                l = extend(&t, &l).swap_remove(row);
            }
            let a: Vec<f64> = if n >= 3 { extend(&t, &l).concat() } else { l };
            gemm(a_rows, pairs, cols, &a, &b, out);
            progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1, todo);
        },
    );
    // Scatter into pattern order; mirror images fill the non-canonical tasks.
    let left_bits = n * (n - 2);
    let mut counts = vec![0u64; 1 << (n * n)];
    for (i, slot) in counts.iter_mut().enumerate() {
        let (left, j) = (i & ((1 << left_bits) - 1), i >> left_bits);
        let (task, r) = (left & (tasks - 1), left >> (n * prefix_rows));
        let (task, r, j) = if canonical(task) {
            (task, r, j)
        } else {
            (mirror_rows(task, n, prefix_rows), mirror_rows(r, n, 1), mirror_rows(j, n, 2))
        };
        *slot = internal[task * block + r * cols + j] as u64;
    }
    Ok(counts)
}
// ANCHOR_END: ancestor_counts

/// The slow obvious twin: evolve every (n+2) x (n+2) parent with the batch
/// evolver and count the inner n x n of each successor. Feasible for n <= 3.
pub fn ancestor_counts_brute(n: usize, rule: Rule) -> Vec<u64> {
    use crate::life::batch::{SlicedRule, block_cells, step_sliced, unslice};
    let w = n + 2;
    let mut counts = vec![0u64; 1 << (n * n)];
    let (mut cur, mut next, mut lanes) = (vec![0u64; w * w], vec![0u64; w * w], [0u64; 64]);
    let total = 1u64 << (w * w);
    for base in (0..total).step_by(64) {
        block_cells(w, base, &mut cur);
        step_sliced(w, SlicedRule::new(rule), &cur, &mut next);
        unslice(&next, &mut lanes);
        for &p in lanes.iter().take((total - base).min(64) as usize) {
            let mut child = 0usize;
            for y in 0..n {
                child |= (((p >> ((y + 1) * w + 1)) & ((1 << n) - 1)) as usize) << (y * n);
            }
            counts[child] += 1;
        }
    }
    counts
}

// ANCHOR: rarest
/// The `m` patterns with the fewest parents, fewest first; ties in ascending
/// pattern number.
pub fn rarest(counts: &[u64], m: usize) -> Vec<(u32, u64)> {
    let mut heap = std::collections::BinaryHeap::with_capacity(m + 1);
    for (i, &c) in counts.iter().enumerate() {
        if heap.len() < m {
            heap.push((c, i as u32));
        } else if let Some(&top) = heap.peek()
            && (c, i as u32) < top
        {
            heap.pop();
            heap.push((c, i as u32));
        }
    }
    let mut v: Vec<(u64, u32)> = heap.into_vec();
    v.sort_unstable();
    v.into_iter().map(|(c, i)| (i, c)).collect()
}
// ANCHOR_END: rarest

/// FNV-1a (64-bit) over the little-endian bytes of the table: a checksum to
/// record beside the committed ranking.
pub fn checksum(counts: &[u64]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for c in counts {
        for byte in c.to_le_bytes() {
            h ^= byte as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// Save a table as raw little-endian `u64`s (atomically).
pub fn save_table(path: &Path, counts: &[u64]) -> Result<()> {
    let bytes: Vec<u8> = counts.iter().flat_map(|c| c.to_le_bytes()).collect();
    crate::fsutil::atomic_write(path, &bytes)
}

/// Load a table saved by [`save_table`] for side `n`, checking its size and that
/// its counts add up to every parent exactly once.
pub fn load_table(path: &Path, n: usize) -> Result<Vec<u64>> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    if bytes.len() != 8 << (n * n) {
        return Err(Error::invalid(format!(
            "{}: {} bytes, expected {} for a {n}x{n} ancestor table",
            path.display(),
            bytes.len(),
            8u64 << (n * n)
        )));
    }
    let counts: Vec<u64> = bytes.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().unwrap())).collect();
    check_total(&counts, n).map_err(|e| Error::invalid(format!("{}: {e}", path.display())))?;
    Ok(counts)
}

/// Check that a side-`n` table counts every parent exactly once: each of the
/// 2^((n+2)^2) parents has one child, so the counts add up to that. Both a
/// fresh table and one read from disk are checked by this one test.
pub fn check_total(counts: &[u64], n: usize) -> Result<()> {
    let parent_cells = (n + 2) * (n + 2);
    let sum: u128 = counts.iter().map(|&c| c as u128).sum();
    if sum != 1u128 << parent_cells {
        return Err(Error::invalid(format!("counts add up to {sum}, not 2^{parent_cells}")));
    }
    Ok(())
}

/// Transpose an n x n pattern number (cell (x, y) <-> (y, x)).
pub fn transpose(p: u64, n: usize) -> u64 {
    let mut out = 0;
    for y in 0..n {
        for x in 0..n {
            out |= ((p >> (y * n + x)) & 1) << (x * n + y);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrix_product_matches_brute_force() {
        for n in 2..=3 {
            let fast = ancestor_counts(n, Rule::CONWAY, &|_, _| {}).unwrap();
            let slow = ancestor_counts_brute(n, Rule::CONWAY);
            assert_eq!(fast, slow, "n={n}");
            assert_eq!(fast.iter().sum::<u64>(), 1 << ((n + 2) * (n + 2)));
        }
    }

    #[test]
    fn check_total_takes_a_true_table_and_refuses_a_miscounted_one() {
        let mut t = ancestor_counts(2, Rule::CONWAY, &|_, _| {}).unwrap();
        check_total(&t, 2).unwrap();
        t[3] += 1;
        let e = check_total(&t, 2).unwrap_err().to_string();
        assert!(e.contains("not 2^16"), "{e}");
    }

    #[test]
    fn hilife_matches_brute_force_too() {
        assert_eq!(
            ancestor_counts(3, Rule::HILIFE, &|_, _| {}).unwrap(),
            ancestor_counts_brute(3, Rule::HILIFE)
        );
    }

    #[test]
    fn side_four_sums_to_all_parents_and_is_symmetric() {
        let c = ancestor_counts(4, Rule::CONWAY, &|_, _| {}).unwrap();
        assert_eq!(c.iter().sum::<u64>(), 1 << 36);
        for i in (0..c.len()).step_by(97) {
            assert_eq!(c[i], c[transpose(i as u64, 4) as usize], "transpose of {i}");
            assert_eq!(c[i], c[mirror_rows(i, 4, 4)], "mirror of {i}");
        }
    }

    #[test]
    fn rarest_is_sorted_and_minimal() {
        let counts = vec![5, 1, 3, 1, 0, 9, 3];
        assert_eq!(rarest(&counts, 4), vec![(4, 0), (1, 1), (3, 1), (2, 3)]);
    }

    #[test]
    fn table_round_trips_and_bad_tables_are_refused() {
        let c = ancestor_counts(2, Rule::CONWAY, &|_, _| {}).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.bin");
        save_table(&p, &c).unwrap();
        assert_eq!(load_table(&p, 2).unwrap(), c);
        assert!(load_table(&p, 3).is_err());
        let mut bad = c.clone();
        bad[0] += 1;
        save_table(&p, &bad).unwrap();
        assert!(load_table(&p, 2).is_err());
    }

    #[test]
    fn bad_side_is_an_error() {
        assert!(ancestor_counts(6, Rule::CONWAY, &|_, _| {}).is_err());
        assert!(ancestor_counts(1, Rule::CONWAY, &|_, _| {}).is_err());
    }
}
