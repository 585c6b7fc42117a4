//! Meet in the middle. Cut the target between two rows: its top half leaves a
//! set `X` of possible parent row pairs just below it, its bottom half (read
//! upwards, as a flipped top half) a set `Y` of pairs just above it, and the
//! target has a parent exactly when the two sets share a pair. Half targets
//! with equal sets are one class, so a test settles a whole block of targets;
//! most tests end at a 64-bit filter of popular pairs.
//!
//! Book: Part IV, "An exhaustive orphan census" (`book/src/beyond/census.md`).

use super::family::Family;
use super::mask::Mask;

/// How many popular pairs the filter tracks: one bit each in a `u64`.
const POPULAR: usize = 64;

/// One side of the meet: a family's multiplicities, checksum sums and filters.
pub struct Side {
    /// Half targets in each class.
    pub mult: Vec<u64>,
    /// Sum of the checksum factors of each class's half targets.
    pub sums: Vec<u64>,
    /// Bit k: the class's set holds popular pair k (in this side's reading).
    pub filter: Vec<u64>,
    /// The rows `u` where the class's set (in this side's reading) has a pair,
    /// and the `v` found in any of them: two sets whose projections are
    /// disjoint are disjoint.
    pub rows: Vec<Mask>,
    pub cols: Vec<Mask>,
}

/// What a stretch of the meet found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Orphan targets (with multiplicity).
    pub orphans: u64,
    /// Sum of their hashes, modulo 2^64.
    pub checksum: u64,
    /// Class pairs tested.
    pub tests: u64,
    /// Tests the popular-pair filter did not settle.
    pub full_tests: u64,
    /// Class pairs found disjoint.
    pub orphan_pairs: u64,
    /// Targets whose verdict this stretch settled, orphan or not: the shards
    /// of a census must add up to all 2^(W*H).
    pub targets: u64,
}

impl Tally {
    pub fn add(&mut self, o: &Tally) {
        self.orphans += o.orphans;
        self.checksum = self.checksum.wrapping_add(o.checksum);
        self.tests += o.tests;
        self.full_tests += o.full_tests;
        self.orphan_pairs += o.orphan_pairs;
        self.targets += o.targets;
    }
}

/// The set read the other way round: `out[u]` holds every `v` with `(v, u)` in `set`.
pub fn transpose(set: &[Mask]) -> Vec<Mask> {
    let mut out = vec![Mask::EMPTY; set.len()];
    for (v, row) in set.iter().enumerate() {
        for u in row.iter() {
            out[u].insert(v);
        }
    }
    out
}

/// Which sampled top classes and which sampled bottom classes hold a pair.
type Holds = (Vec<bool>, Vec<bool>);

// ANCHOR: popular
/// Choose the filter's pairs: greedily, the pair `(u, v)` that settles the most
/// still unsettled pairs of a sample of top and bottom classes, where a top
/// class holds `(u, v)` and a bottom class, read upwards, holds `(v, u)`.
pub fn popular_pairs(top: &Family, bottom: &Family) -> Vec<(usize, usize)> {
    let lines = top.lines;
    // A spread-out sample: classes are numbered in the order the tree of
    // prefixes found them, so a plain stride would pick one last row only.
    let sample = |f: &Family| -> Vec<usize> {
        let n = f.classes() as u64;
        let mut s: Vec<usize> =
            (0..256u64.min(n)).map(|i| (i.wrapping_mul(0x9e37_79b9_7f4a_7c15) % n) as usize).collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    let (ts, bs) = (sample(top), sample(bottom));
    // Candidates: the pairs most often found on both sides.
    let mut score: Vec<(u64, usize)> = (0..lines * lines)
        .map(|p| {
            let (u, v) = (p / lines, p % lines);
            let t = ts.iter().filter(|&&k| top.set(k)[u].contains(v)).count() as u64;
            let b = bs.iter().filter(|&&k| bottom.set(k)[v].contains(u)).count() as u64;
            (t * b, p)
        })
        .filter(|&(s, _)| s > 0)
        .collect();
    score.sort_unstable_by(|x, y| y.cmp(x));
    score.truncate(1024);
    let holds = |p: usize| -> Holds {
        let (u, v) = (p / lines, p % lines);
        (
            ts.iter().map(|&k| top.set(k)[u].contains(v)).collect(),
            bs.iter().map(|&k| bottom.set(k)[v].contains(u)).collect(),
        )
    };
    let cands: Vec<(usize, Holds)> = score.iter().map(|&(_, p)| (p, holds(p))).collect();
    let mut settled = vec![vec![false; bs.len()]; ts.len()];
    let mut chosen = Vec::new();
    while chosen.len() < POPULAR {
        let gain = |(t, b): &Holds| -> usize {
            (0..ts.len())
                .filter(|&i| t[i])
                .map(|i| (0..bs.len()).filter(|&j| b[j] && !settled[i][j]).count())
                .sum()
        };
        let Some((best, g)) = cands
            .iter()
            .filter(|(p, _)| !chosen.contains(&(p / lines, p % lines)))
            .map(|(p, h)| (*p, gain(h)))
            .max_by_key(|&(p, g)| (g, std::cmp::Reverse(p)))
        else {
            break;
        };
        if g == 0 {
            break;
        }
        let (t, b) = &cands.iter().find(|(p, _)| *p == best).expect("a candidate").1;
        for i in (0..ts.len()).filter(|&i| t[i]) {
            for j in (0..bs.len()).filter(|&j| b[j]) {
                settled[i][j] = true;
            }
        }
        chosen.push((best / lines, best % lines));
    }
    chosen
}
// ANCHOR_END: popular

/// The filter bits of every class of `f`: read downwards (a top half) or upwards.
pub fn filters(f: &Family, pairs: &[(usize, usize)], upwards: bool) -> Vec<u64> {
    (0..f.classes())
        .map(|k| {
            let set = f.set(k);
            pairs.iter().enumerate().fold(0u64, |bits, (n, &(u, v))| {
                let holds = if upwards { set[v].contains(u) } else { set[u].contains(v) };
                bits | (holds as u64) << n
            })
        })
        .collect()
}

/// The projections of every class of `f`, read downwards (a top half) or upwards.
pub fn projections(f: &Family, upwards: bool) -> (Vec<Mask>, Vec<Mask>) {
    (0..f.classes())
        .map(|k| {
            let set = f.set(k);
            let (mut rows, mut cols) = (Mask::EMPTY, Mask::EMPTY);
            for (a, m) in set.iter().enumerate().filter(|(_, m)| !m.is_empty()) {
                rows.insert(a);
                cols |= *m;
            }
            if upwards { (cols, rows) } else { (rows, cols) }
        })
        .unzip()
}

// ANCHOR: meet
/// Test bottom class `j` (its set already transposed into `yt`) against the
/// top classes `tops` of family `xs`; `orphan(i)` hears of every disjoint pair. With one
/// family on both sides (`symmetric`) only `i <= j` is tested and an off-diagonal
/// disjoint pair counts twice, for the target and its upside-down twin.
#[allow(clippy::too_many_arguments)]
pub fn meet_bottom(
    xs: &Family,
    top: &Side,
    bottom: &Side,
    j: usize,
    yt: &[Mask],
    tops: std::ops::Range<usize>,
    symmetric: bool,
    mut orphan: impl FnMut(usize),
) -> Tally {
    let mut tally = Tally::default();
    let q = bottom.filter[j];
    for i in tops {
        tally.tests += 1;
        if top.filter[i] & q != 0 {
            continue;
        }
        tally.full_tests += 1;
        let (rows, cols) = (top.rows[i] & bottom.rows[j], top.cols[i] & bottom.cols[j]);
        if !cols.is_empty() {
            let x = xs.set(i);
            if rows.iter().any(|u| x[u].meets(&yt[u])) {
                continue;
            }
        }
        tally.orphan_pairs += 1;
        tally.orphans += top.mult[i] * bottom.mult[j];
        tally.checksum = tally.checksum.wrapping_add(top.sums[i].wrapping_mul(bottom.sums[j]));
        if symmetric && i != j {
            tally.orphans += top.mult[j] * bottom.mult[i];
            tally.checksum = tally.checksum.wrapping_add(top.sums[j].wrapping_mul(bottom.sums[i]));
        }
        orphan(i);
    }
    tally
}
// ANCHOR_END: meet

/// Do top class `i` and bottom class `j` share a pair? The plain test, without
/// filters, for the census' spot checks.
pub fn classes_meet(xs: &Family, i: usize, ys: &Family, j: usize) -> bool {
    let (x, y) = (xs.set(i), ys.set(j));
    x.iter().enumerate().any(|(u, m)| m.iter().any(|v| y[v].contains(u)))
}
