//! The exhaustive census: how many W x H targets (the shorter side at most 6,
//! the longer at most [`max_long`] of it) are orphans under a rule, with an order-free checksum
//! of the orphan set. Each target is cut between two rows; the
//! [`family`](super::family) of each half gives the sets of parent row pairs
//! the halves allow, and [`meet`](super::meet) pairs every top class with
//! every bottom class. The rows run along the shorter side, so that a parent
//! row has at most eight cells. Seven rows are cut in three bands: three rows,
//! one middle row, three rows (see [`Plan::run_unit`]), because a family of
//! four rows of six cells would hold some 2^24 sets of 8 KB each.
//!
//! Book: Part IV, "An exhaustive orphan census" (`book/src/beyond/census.md`).

use super::checkpoint::Checkpoint;
use super::checksum::{factor, hex};
use super::family::{Family, expand, families};
use super::mask::Mask;
use super::meet::{Side, Tally, classes_meet, filters, meet_bottom, popular_pairs, projections, transpose};
use super::shard::Shard;
use super::table::{RowMasks, Table};
use crate::error::{Error, Result};
use crate::life::{Grid, Rule, SpecGrid, Topology};
use rand::{Rng, SeedableRng};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The largest shorter side the census takes (a parent row of eight cells).
pub const MAX_SIDE: usize = 6;
// ANCHOR: max_long
/// Seven rows are read as three bands (see [`Plan::run_unit`]).
const BANDS_ROWS: usize = 7;
/// A half of `d` rows of `side` cells has 2^(side * d) half targets, each
/// with a class id, and up to as many distinct sets of `2^(side+2)` masks:
/// at most 2^20 of them keeps a half under a few GB (2^20 sets of 4 KB at
/// side 5) and its build under a minute.
const HALF_BITS: usize = 20;

/// The most rows one half of a census has, for rows of `side` cells.
fn max_depth(side: usize) -> usize {
    HALF_BITS / side
}

/// The longest box the census takes for a shorter side of `side` cells:
/// two halves of at most 2^20 half targets each, or for six cells seven
/// rows in three bands. Narrow boxes go far (4 x 10, 5 x 8: 2^40 targets),
/// which is what bounds the width of the narrowest orphan of a small height.
/// No box has a side of 0 or more than [`MAX_SIDE`] cells: 0 for those.
pub fn max_long(side: usize) -> usize {
    match side {
        0 => 0,
        MAX_SIDE => BANDS_ROWS,
        s if s > MAX_SIDE => 0,
        s => (2 * max_depth(s)).max(BANDS_ROWS),
    }
}
// ANCHOR_END: max_long

/// Work units (blocks of bottom classes) a census is cut into, at most: the
/// grain of shards, checkpoints and the progress bar.
const UNITS: usize = 2048;
/// The same for a three-band census, whose units are much dearer (for 7x6,
/// about 16 top classes each).
const UNITS_BANDS: usize = 16384;

// ANCHOR: plan
/// Everything the meet needs, built once per census (and once per shard).
pub struct Plan {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    /// Cells per target row as the census reads it (the shorter side).
    side: usize,
    /// Target rows as the census reads them (the longer side).
    rows: usize,
    /// Whether the census reads the target's columns as its rows.
    transposed: bool,
    /// Families of depth 0..=top rows; the bottom half has `rows - top` rows.
    families: Vec<Family>,
    depth_top: usize,
    depth_bottom: usize,
    /// Target rows between the halves: 0, or 1 for a three-band census,
    /// whose top classes are extended by every middle row on the fly.
    mid: usize,
    /// For a three-band census: the checksum factor product of each middle
    /// row, the row masks that extend a top class, and the popular pairs.
    mid_sums: Vec<u64>,
    row_masks: Option<RowMasks>,
    pairs: Vec<(usize, usize)>,
    top: Side,
    bottom: Side,
    /// Bottom classes per work unit.
    block: usize,
    /// `prefix[i]`: half targets in top classes before `i` (for the count of
    /// targets each unit settles).
    prefix: Vec<u64>,
}
// ANCHOR_END: plan

/// The spot checks run beside the census, each against another code path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Checks {
    /// Children of random parents, each found a non-orphan (and the parent's
    /// middle rows found in both halves' sets).
    pub random_parents: u64,
    /// Random targets whose census verdict [`super::decide`] confirmed.
    pub random_targets: u64,
    /// Orphans of this run re-decided by [`super::decide`] and confirmed.
    pub orphans_redecided: u64,
}

/// The result of a census (or of one shard of it).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Census {
    pub width: usize,
    pub height: usize,
    pub rule: String,
    pub shard_k: usize,
    pub shard_n: usize,
    /// All W x H targets: 2^(W*H).
    pub targets: u64,
    /// The targets this shard settled (all of them for a whole census).
    pub targets_settled: u64,
    pub orphans: u64,
    /// Sum of the orphans' hashes mod 2^64, as 16 hex digits.
    pub checksum: String,
    pub seconds: f64,
    pub peak_memory_bytes: u64,
    pub classes_top: usize,
    pub classes_bottom: usize,
    /// Class pairs tested, those the popular-pair filter did not settle, and those found disjoint.
    pub tests: u64,
    pub full_tests: u64,
    pub orphan_pairs: u64,
    /// Work units of this shard, and how many came from a checkpoint.
    pub units: usize,
    pub units_resumed: usize,
    pub checks: Checks,
}

/// How to run a census.
pub struct CensusOptions<'a> {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub shard: Shard,
    /// Resume from and save progress to this file.
    pub checkpoint: Option<PathBuf>,
    pub checkpoint_every: Duration,
    /// Collect the orphans themselves (as W*H-bit numbers, cell (x, y) at bit y*W + x).
    pub list_orphans: bool,
    /// How many of each spot check to run.
    pub checks: u64,
    /// Called with (tests done, tests in this shard) as the work goes on.
    pub progress: Option<&'a (dyn Fn(u64, u64) + Sync)>,
}

impl<'a> CensusOptions<'a> {
    /// A whole census with default checks and no files.
    pub fn new(width: usize, height: usize, rule: Rule) -> CensusOptions<'a> {
        CensusOptions {
            width,
            height,
            rule,
            shard: Shard::WHOLE,
            checkpoint: None,
            checkpoint_every: Duration::from_secs(5),
            list_orphans: false,
            checks: 200,
            progress: None,
        }
    }
}

/// Walk the set bits of a half target, in the census' reading, to cells of the
/// box: `f(x, y, alive)` with (x, y) in the target's own orientation.
fn cells_of(plan: &Plan, half: u64, depth: usize, bottom: bool, mut f: impl FnMut(usize, usize, bool)) {
    for k in 0..depth {
        let y = if bottom { plan.rows - 1 - k } else { k };
        for x in 0..plan.side {
            let alive = half >> (k * plan.side + x) & 1 == 1;
            if plan.transposed { f(y, x, alive) } else { f(x, y, alive) }
        }
    }
}

/// Whether the census takes a `width` x `height` box (without building anything).
pub fn check_size(width: usize, height: usize) -> Result<()> {
    let (short, long) = (width.min(height), width.max(height));
    if !(1..=MAX_SIDE).contains(&short) {
        return Err(Error::invalid(format!(
            "census boxes are 1 to {MAX_SIDE} cells on the shorter side (a parent row of more than {} \
         cells does not fit the automaton's 256-bit sets); {width}x{height} is not",
            MAX_SIDE + 2,
        )));
    }
    if long > max_long(short) {
        return Err(Error::invalid(format!(
            "census boxes with a shorter side of {short} are at most {} cells on the longer side \
         (each half's sets must fit in memory); {width}x{height} is not",
            max_long(short),
        )));
    }
    Ok(())
}

impl Plan {
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Plan> {
        check_size(width, height)?;
        let transposed = width > height;
        let (side, rows) = if transposed { (height, width) } else { (width, height) };
        let mid = usize::from(rows == BANDS_ROWS);
        let (depth_top, depth_bottom) = ((rows - mid).div_ceil(2), (rows - mid) / 2);
        let table = Table::new(rule, side);
        let families = families(&table, depth_top);
        let (tf, bf) = (&families[depth_top], &families[depth_bottom]);
        let row_masks = (mid == 1).then(|| table.row_masks());
        let pairs = match &row_masks {
            None => popular_pairs(tf, bf),
            Some(rm) => popular_pairs(&child_sample(tf, rm), bf),
        };
        let mut plan = Plan {
            width,
            height,
            rule,
            side,
            rows,
            transposed,
            depth_top,
            depth_bottom,
            top: Side {
                mult: tf.multiplicities(),
                sums: vec![],
                filter: filters(tf, &pairs, false),
                rows: vec![],
                cols: vec![],
            },
            bottom: Side {
                mult: bf.multiplicities(),
                sums: vec![],
                filter: filters(bf, &pairs, true),
                rows: vec![],
                cols: vec![],
            },
            block: bf.classes().div_ceil(if mid == 1 { UNITS_BANDS } else { UNITS }).max(1),
            prefix: vec![],
            families: vec![],
            mid,
            mid_sums: vec![],
            row_masks,
            pairs,
        };
        (plan.top.rows, plan.top.cols) = projections(tf, false);
        (plan.bottom.rows, plan.bottom.cols) = projections(bf, true);
        plan.top.sums = plan.sums(tf, false);
        plan.bottom.sums = plan.sums(bf, true);
        plan.prefix = plan.top.mult.iter().scan(0u64, |s, &m| Some(std::mem::replace(s, *s + m))).collect();
        if mid == 1 {
            plan.mid_sums = (0..1u64 << side)
                .map(|m| {
                    (0..side).fold(1u64, |h, c| {
                        let (x, y) = if transposed { (depth_top, c) } else { (c, depth_top) };
                        h.wrapping_mul(factor(width, height, x, y, m >> c & 1 == 1))
                    })
                })
                .collect();
        }
        plan.families = families;
        Ok(plan)
    }

    fn sums(&self, f: &Family, bottom: bool) -> Vec<u64> {
        let mut sums = vec![0u64; f.classes()];
        for (half, &k) in f.class_of.iter().enumerate() {
            let mut h = 1u64;
            cells_of(self, half as u64, f.depth, bottom, |x, y, a| {
                h = h.wrapping_mul(factor(self.width, self.height, x, y, a))
            });
            sums[k as usize] = sums[k as usize].wrapping_add(h);
        }
        sums
    }

    fn top_family(&self) -> &Family {
        &self.families[self.depth_top]
    }
    fn bottom_family(&self) -> &Family {
        &self.families[self.depth_bottom]
    }
    fn symmetric(&self) -> bool {
        self.depth_top == self.depth_bottom
    }
    pub fn classes_top(&self) -> usize {
        self.top_family().classes()
    }
    pub fn classes_bottom(&self) -> usize {
        self.bottom_family().classes()
    }
    /// Work units of the whole census.
    pub fn units(&self) -> usize {
        self.classes_bottom().div_ceil(self.block)
    }
    fn bottoms(&self, unit: usize) -> std::ops::Range<usize> {
        unit * self.block..((unit + 1) * self.block).min(self.classes_bottom())
    }
    fn tops(&self, j: usize) -> std::ops::Range<usize> {
        if self.symmetric() { 0..j + 1 } else { 0..self.classes_top() }
    }
    /// Values of the middle row of a three-band census (1 for two bands).
    fn mid_values(&self) -> usize {
        1 << (self.side * self.mid)
    }
    /// Class pairs a unit tests (its share of the progress bar). A three-band
    /// unit is a block of top classes `i`, each against bottom classes `j >= i`
    /// under every middle row.
    pub fn unit_tests(&self, unit: usize) -> u64 {
        if self.mid == 1 {
            let n = self.classes_bottom() as u64;
            return self.bottoms(unit).map(|i| (n - i as u64) * self.mid_values() as u64).sum();
        }
        self.bottoms(unit).map(|j| self.tops(j).len() as u64).sum()
    }
    /// All W x H targets.
    pub fn targets(&self) -> u64 {
        1u64 << (self.width * self.height)
    }

    /// A target of the box from a top half and a bottom half (census reading).
    fn combine(&self, top: u64, bottom: u64) -> u64 {
        let mut t = 0u64;
        let mut put = |x: usize, y: usize, a: bool| t |= (a as u64) << (y * self.width + x);
        cells_of(self, top, self.depth_top, false, &mut put);
        cells_of(self, bottom, self.depth_bottom, true, &mut put);
        t
    }

    /// A target of a three-band box from its halves and its middle row.
    fn combine3(&self, top: u64, middle: u64, bottom: u64) -> u64 {
        let y = self.depth_top;
        let cells = (0..self.side).map(|x| {
            (middle >> x & 1) << if self.transposed { x * self.width + y } else { y * self.width + x }
        });
        self.combine(top, bottom) | cells.sum::<u64>()
    }

    /// The middle row (census reading) of a three-band target.
    fn middle(&self, target: u64) -> u64 {
        let y = self.depth_top;
        (0..self.side)
            .map(|x| {
                (target >> if self.transposed { x * self.width + y } else { y * self.width + x } & 1) << x
            })
            .sum()
    }

    /// The halves (census reading) of a target of the box.
    fn split(&self, target: u64) -> (u64, u64) {
        let bit = |x: usize, y: usize| {
            let (x, y) = if self.transposed { (y, x) } else { (x, y) };
            target >> (y * self.width + x) & 1
        };
        let half = |depth: usize, bottom: bool| {
            let mut h = 0u64;
            for k in 0..depth {
                let y = if bottom { self.rows - 1 - k } else { k };
                for x in 0..self.side {
                    h |= bit(x, y) << (k * self.side + x);
                }
            }
            h
        };
        (half(self.depth_top, false), half(self.depth_bottom, true))
    }

    /// The census' verdict on one target, by the plain test on its two classes.
    pub fn is_orphan(&self, target: u64) -> bool {
        let (t, b) = self.split(target);
        let (tf, bf) = (self.top_family(), self.bottom_family());
        let (i, j) = (tf.class_of[t as usize] as usize, bf.class_of[b as usize] as usize);
        match &self.row_masks {
            None => !classes_meet(tf, i, bf, j),
            Some(rm) => {
                let lines = tf.lines;
                let mut children = vec![Mask::EMPTY; self.mid_values() * lines];
                expand(tf.set(i), rm, &mut children);
                let m = self.middle(target) as usize;
                let x = &children[m * lines..(m + 1) * lines];
                let y = bf.set(j);
                !x.iter().enumerate().any(|(u, r)| r.iter().any(|v| y[v].contains(u)))
            }
        }
    }

    // ANCHOR: run_unit
    /// One work unit: every bottom class of the block against its top classes.
    /// Returns the tally, the orphan class pairs found (all of them if
    /// `keep_all`, else the first) and the orphans themselves if `list`.
    pub fn run_unit(
        &self,
        unit: usize,
        keep_all: bool,
        list: bool,
    ) -> (Tally, Vec<(usize, usize)>, Vec<u64>) {
        if self.mid == 1 {
            return self.run_unit_bands(unit, keep_all, list);
        }
        let (tf, bf) = (self.top_family(), self.bottom_family());
        let mut tally = Tally::default();
        let mut pairs = Vec::new();
        for j in self.bottoms(unit) {
            let yt = transpose(bf.set(j));
            let t = meet_bottom(tf, &self.top, &self.bottom, j, &yt, self.tops(j), self.symmetric(), |i| {
                if keep_all || pairs.is_empty() {
                    pairs.push((i, j));
                }
            });
            tally.add(&t);
            let m = self.bottom.mult[j];
            tally.targets += if self.symmetric() {
                m * (2 * self.prefix[j] + self.top.mult[j])
            } else {
                m * self.top.mult.iter().sum::<u64>()
            };
        }
        let orphans = if list { self.orphans_of(&pairs) } else { Vec::new() };
        (tally, pairs, orphans)
    }
    // ANCHOR_END: run_unit

    // ANCHOR: run_unit_bands
    /// One work unit of a three-band census: a block of top classes `i`. Each
    /// set is extended by every middle row at once (the 64 children of one
    /// [`expand`]), and every child meets every bottom class `j >= i`: the
    /// upside-down twin of a target swaps its halves and keeps its middle
    /// row, so `j < i` is counted by the twin. Orphan pairs come back as
    /// `(i * middle rows + m, j)`.
    fn run_unit_bands(
        &self,
        unit: usize,
        keep_all: bool,
        list: bool,
    ) -> (Tally, Vec<(usize, usize)>, Vec<u64>) {
        let (f, rm) = (self.top_family(), self.row_masks.as_ref().expect("three bands"));
        let (lines, rows, n) = (f.lines, self.mid_values(), f.classes());
        let total: u64 = self.top.mult.iter().sum();
        let mut children = vec![Mask::EMPTY; rows * lines];
        let mut flipped = vec![Mask::EMPTY; rows * lines];
        let (mut filter, mut us, mut vs) =
            (vec![0u64; rows], vec![Mask::EMPTY; rows], vec![Mask::EMPTY; rows]);
        let mut tally = Tally::default();
        let mut pairs = Vec::new();
        for i in self.bottoms(unit) {
            expand(f.set(i), rm, &mut children);
            flipped.fill(Mask::EMPTY);
            for m in 0..rows {
                let x = &children[m * lines..(m + 1) * lines];
                let (mut u_set, mut v_set) = (Mask::EMPTY, Mask::EMPTY);
                for (u, r) in x.iter().enumerate().filter(|(_, r)| !r.is_empty()) {
                    u_set.insert(u);
                    v_set |= *r;
                    for v in r.iter() {
                        flipped[m * lines + v].insert(u);
                    }
                }
                (us[m], vs[m]) = (u_set, v_set);
                filter[m] = self
                    .pairs
                    .iter()
                    .enumerate()
                    .fold(0u64, |b, (k, &(u, v))| b | (x[u].contains(v) as u64) << k);
            }
            for j in i..n {
                let (q, y) = (self.bottom.filter[j], f.set(j));
                tally.tests += rows as u64;
                for m in 0..rows {
                    if filter[m] & q != 0 {
                        continue;
                    }
                    tally.full_tests += 1;
                    if !(us[m] & self.bottom.rows[j]).is_empty() {
                        let xt = &flipped[m * lines..(m + 1) * lines];
                        if (vs[m] & self.bottom.cols[j]).iter().any(|v| xt[v].meets(&y[v])) {
                            continue;
                        }
                    }
                    tally.orphan_pairs += 1;
                    let ms = self.mid_sums[m];
                    tally.orphans += self.top.mult[i] * self.bottom.mult[j];
                    tally.checksum = tally
                        .checksum
                        .wrapping_add(self.top.sums[i].wrapping_mul(ms).wrapping_mul(self.bottom.sums[j]));
                    if i != j {
                        tally.orphans += self.top.mult[j] * self.bottom.mult[i];
                        tally.checksum = tally.checksum.wrapping_add(
                            self.top.sums[j].wrapping_mul(ms).wrapping_mul(self.bottom.sums[i]),
                        );
                    }
                    if keep_all || pairs.is_empty() {
                        pairs.push((i * rows + m, j));
                    }
                }
            }
            let (mi, later) = (self.top.mult[i], total - self.prefix[i] - self.top.mult[i]);
            tally.targets += rows as u64 * mi * (mi + 2 * later);
        }
        let orphans = if list { self.orphans_of(&pairs) } else { Vec::new() };
        (tally, pairs, orphans)
    }
    // ANCHOR_END: run_unit_bands

    /// The targets behind disjoint class pairs (both readings when one family serves both halves).
    fn orphans_of(&self, pairs: &[(usize, usize)]) -> Vec<u64> {
        let (tf, bf) = (self.top_family(), self.bottom_family());
        // Every half target of each class, listed once (a pair's scan of all
        // half targets made listing a three-band box's many pairs slow).
        let by_class = |f: &Family| -> Vec<Vec<u64>> {
            let mut m = vec![Vec::new(); f.classes()];
            if !pairs.is_empty() {
                for (h, &c) in f.class_of.iter().enumerate() {
                    m[c as usize].push(h as u64);
                }
            }
            m
        };
        let (top_members, bottom_members) = (by_class(tf), by_class(bf));
        let mut out = Vec::new();
        let rows = self.mid_values() as u64;
        for &(im, j) in pairs {
            let (i, m) = (im / rows as usize, im as u64 % rows);
            let mut both = vec![(i, j)];
            if self.symmetric() && i != j {
                both.push((j, i));
            }
            for (i, j) in both {
                let (tops, bottoms) = (&top_members[i], &bottom_members[j]);
                for &t in tops {
                    out.extend(bottoms.iter().map(|&b| self.combine3(t, m, b)));
                }
            }
        }
        out
    }

    /// A target as a search target for the automaton.
    pub fn spec(&self, target: u64) -> SpecGrid {
        let mut g = Grid::new(self.width, self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                g.set(x, y, target >> (y * self.width + x) & 1 == 1);
            }
        }
        SpecGrid::from(&g)
    }

    // ANCHOR: checks
    /// Spot checks by other code paths: random parents' children must not be
    /// orphans (and their parent's middle rows must be in both halves' sets);
    /// random targets and a sample of this run's orphans are re-decided by the
    /// column automaton.
    pub fn check(&self, n: u64, seed: u64, orphan_pairs: &[(usize, usize)]) -> Result<Checks> {
        let bug = |what: String| Err(Error::invalid(format!("census spot check failed: {what} (a bug)")));
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let mut checks = Checks::default();
        let (tf, bf) = (self.top_family(), self.bottom_family());
        for _ in 0..n {
            let parent = Grid::random(self.width + 2, self.height + 2, rng.random_range(0.1..0.6), &mut rng);
            let child = crate::life::naive::step(&parent, self.rule, Topology::Bounded);
            let target = (0..self.width * self.height)
                .map(|c| (child.get(c % self.width + 1, c / self.width + 1) as u64) << c)
                .sum::<u64>();
            // The parent's rows in the census reading.
            let prow = |r: usize| -> usize {
                (0..self.side + 2)
                    .map(|x| {
                        let cell = if self.transposed { parent.get(r, x) } else { parent.get(x, r) };
                        (cell as usize) << x
                    })
                    .sum()
            };
            let (u, v) = (prow(self.depth_top), prow(self.depth_top + 1));
            let (u2, v2) = (prow(self.depth_top + self.mid), prow(self.depth_top + self.mid + 1));
            let (t, b) = self.split(target);
            let (i, j) = (tf.class_of[t as usize] as usize, bf.class_of[b as usize] as usize);
            if !tf.set(i)[u].contains(v) || !bf.set(j)[v2].contains(u2) {
                return bug(format!(
                    "a parent's middle rows are missing from its halves' sets ({target:#x})"
                ));
            }
            if self.is_orphan(target) {
                return bug(format!("target {target:#x} has a parent but was counted an orphan"));
            }
            checks.random_parents += 1;
        }
        for _ in 0..n {
            let target = rng.random::<u64>() & (self.targets() - 1);
            let orphan = super::decide(&self.spec(target), self.rule)?.predecessor.is_none();
            if orphan != self.is_orphan(target) {
                return bug(format!("the automaton and the census disagree on target {target:#x}"));
            }
            checks.random_targets += 1;
        }
        let step = orphan_pairs.len().div_ceil(n.max(1) as usize).max(1);
        let rows = self.mid_values();
        for &(im, j) in orphan_pairs.iter().step_by(step).take(n as usize) {
            let pick =
                |f: &Family, k: usize| f.class_of.iter().position(|&c| c as usize == k).unwrap_or(0) as u64;
            let target = self.combine3(pick(tf, im / rows), (im % rows) as u64, pick(bf, j));
            if super::decide(&self.spec(target), self.rule)?.predecessor.is_some() {
                return bug(format!("target {target:#x} was counted an orphan but has a parent"));
            }
            checks.orphans_redecided += 1;
        }
        Ok(checks)
    }
    // ANCHOR_END: checks
}

/// A sample of the children (top classes extended by one middle row) of a
/// three-band census, as a family, for choosing its popular pairs.
fn child_sample(f: &Family, rm: &RowMasks) -> Family {
    let (lines, rows, n) = (f.lines, rm.lo_values * rm.hi_values, f.classes() as u64);
    let mut children = vec![Mask::EMPTY; rows * lines];
    let mut sets = Vec::new();
    // Sixteen classes by four rows: the greedy choice is quadratic in the sample.
    for s in 0..16u64 {
        let i = (s.wrapping_mul(0x9e37_79b9_7f4a_7c15) % n) as usize;
        expand(f.set(i), rm, &mut children);
        for m in (0..rows).step_by(rows.div_ceil(4)) {
            sets.extend_from_slice(&children[m * lines..(m + 1) * lines]);
        }
    }
    Family { depth: f.depth + 1, lines, sets, class_of: vec![] }
}

/// Peak resident memory of this process (`VmHWM`), in bytes.
pub fn peak_memory() -> u64 {
    crate::cnf::child::own_peak_rss()
}

/// Start the peak over (Linux resets `VmHWM` on writing 5 to `clear_refs`), so
/// that a process running several censuses reports each one's own peak.
/// Elsewhere, or where that is refused, the peak stays the process' own.
pub fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

// ANCHOR: census
/// Run a census (or one shard of it): build the plan, resume from the
/// checkpoint if there is one, run the remaining units in parallel batches,
/// saving progress every few seconds, then spot-check and report. The orphans
/// themselves come back beside the result when asked for.
pub fn census(o: &CensusOptions) -> Result<(Census, Vec<u64>)> {
    let start = Instant::now();
    if o.list_orphans && o.checkpoint.is_some() {
        return Err(Error::invalid(
            "listing the orphans cannot be combined with a checkpoint (a resumed run would miss the earlier ones)",
        ));
    }
    let plan = Plan::new(o.width, o.height, o.rule)?;
    let rule = o.rule.to_string();
    let mut state = Checkpoint::new(o.width, o.height, &rule, o.shard, plan.units());
    if let Some(path) = &o.checkpoint
        && let Some(saved) = Checkpoint::load_matching(path, &state)?
    {
        state = saved;
    }
    let resumed = state.done.len();
    let before = state.seconds;
    let mine: Vec<usize> = (0..plan.units()).filter(|&u| o.shard.owns(u)).collect();
    let total: u64 = mine.iter().map(|&u| plan.unit_tests(u)).sum();
    let mut done_tests: u64 = state.done.iter().map(|&u| plan.unit_tests(u)).sum();
    let todo: Vec<usize> = mine.iter().copied().filter(|u| state.done.binary_search(u).is_err()).collect();
    let mut orphans = Vec::new();
    let mut saved_at = Instant::now();
    let batch = (rayon::current_num_threads() * 4).max(1);
    if let Some(p) = o.progress {
        p(done_tests, total);
    }
    for chunk in todo.chunks(batch) {
        let results: Vec<_> =
            chunk.par_iter().map(|&u| plan.run_unit(u, o.list_orphans, o.list_orphans)).collect();
        for (&u, (tally, pairs, list)) in chunk.iter().zip(results) {
            state.tally.add(&tally);
            if state.samples.len() < 4096 {
                state.samples.extend(pairs);
            }
            orphans.extend(list);
            state.done.push(u);
            done_tests += plan.unit_tests(u);
        }
        state.done.sort_unstable();
        if let Some(p) = o.progress {
            p(done_tests, total);
        }
        if let Some(path) = &o.checkpoint
            && saved_at.elapsed() >= o.checkpoint_every
        {
            state.seconds = before + start.elapsed().as_secs_f64();
            state.save(path)?;
            saved_at = Instant::now();
        }
    }
    if let Some(path) = &o.checkpoint {
        state.seconds = before + start.elapsed().as_secs_f64();
        state.save(path)?;
    }
    let seed = (o.width * 8 + o.height) as u64 ^ (o.shard.k as u64) << 16;
    let checks = plan.check(o.checks, seed, &state.samples)?;
    orphans.sort_unstable();
    let t = state.tally;
    let result = Census {
        width: o.width,
        height: o.height,
        rule,
        shard_k: o.shard.k,
        shard_n: o.shard.n,
        targets: plan.targets(),
        targets_settled: t.targets,
        orphans: t.orphans,
        checksum: hex(t.checksum),
        seconds: before + start.elapsed().as_secs_f64(),
        peak_memory_bytes: peak_memory(),
        classes_top: plan.classes_top(),
        classes_bottom: plan.classes_bottom(),
        tests: t.tests,
        full_tests: t.full_tests,
        orphan_pairs: t.orphan_pairs,
        units: mine.len(),
        units_resumed: resumed,
        checks,
    };
    Ok((result, orphans))
}
// ANCHOR_END: census

/// Rows of `.` and `*` joined by `/`: how `-o` writes one orphan per line.
pub fn orphan_line(width: usize, height: usize, target: u64) -> String {
    (0..height)
        .map(|y| {
            (0..width).map(|x| if target >> (y * width + x) & 1 == 1 { '*' } else { '.' }).collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Sum shard results into the whole census; refuses mismatched or incomplete sets.
pub fn merge(parts: &[Census]) -> Result<Census> {
    let first = parts.first().ok_or_else(|| Error::invalid("merge: no shard results given"))?;
    let n = first.shard_n;
    let mut seen = vec![false; n + 1];
    for p in parts {
        if (p.width, p.height, &p.rule, p.shard_n) != (first.width, first.height, &first.rule, n) {
            return Err(Error::invalid(format!(
                "merge: shard {}/{} is a {}x{} {} census, shard {}/{} a {}x{} {} one",
                p.shard_k,
                p.shard_n,
                p.width,
                p.height,
                p.rule,
                first.shard_k,
                n,
                first.width,
                first.height,
                first.rule
            )));
        }
        if p.shard_k == 0 || p.shard_k > n {
            return Err(Error::invalid(format!("merge: shard {}/{} is out of range", p.shard_k, n)));
        }
        if std::mem::replace(&mut seen[p.shard_k], true) {
            return Err(Error::invalid(format!("merge: shard {}/{n} is given twice", p.shard_k)));
        }
    }
    let missing: Vec<String> = (1..=n).filter(|&k| !seen[k]).map(|k| format!("{k}/{n}")).collect();
    if !missing.is_empty() {
        return Err(Error::invalid(format!("merge: missing shard(s) {}", missing.join(", "))));
    }
    let mut sum = 0u64;
    for p in parts {
        sum = sum.wrapping_add(super::checksum::parse_hex(&p.checksum).ok_or_else(|| {
            Error::invalid(format!(
                "merge: shard {}/{n} has a malformed checksum '{}'",
                p.shard_k, p.checksum
            ))
        })?);
    }
    let settled: u64 = parts.iter().map(|p| p.targets_settled).sum();
    if settled != first.targets {
        return Err(Error::invalid(format!(
            "merge: the shards settled {settled} targets, not the {} of a {}x{} box",
            first.targets, first.width, first.height
        )));
    }
    let add = |f: fn(&Census) -> u64| parts.iter().map(f).sum::<u64>();
    Ok(Census {
        shard_k: 1,
        shard_n: 1,
        targets_settled: settled,
        orphans: add(|p| p.orphans),
        checksum: hex(sum),
        seconds: parts.iter().map(|p| p.seconds).sum(),
        peak_memory_bytes: parts.iter().map(|p| p.peak_memory_bytes).max().unwrap_or(0),
        tests: add(|p| p.tests),
        full_tests: add(|p| p.full_tests),
        orphan_pairs: add(|p| p.orphan_pairs),
        units: parts.iter().map(|p| p.units).sum(),
        units_resumed: parts.iter().map(|p| p.units_resumed).sum(),
        checks: Checks {
            random_parents: add(|p| p.checks.random_parents),
            random_targets: add(|p| p.checks.random_targets),
            orphans_redecided: add(|p| p.checks.orphans_redecided),
        },
        ..first.clone()
    })
}
