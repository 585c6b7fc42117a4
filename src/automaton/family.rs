//! The half targets of the census and what each leaves behind. For every
//! pattern of `depth` target rows we want the set of parent row pairs that can
//! sit just below it: the two parent rows it shares with the other half. The
//! sets come from the row automaton run on every prefix at once, a tree of
//! prefixes where each node's set spawns one child per possible next row;
//! equal sets are merged level by level, so each distinct set is expanded once.
//!
//! Book: Part IV, "An exhaustive orphan census" (`book/src/beyond/census.md`).

use super::mask::Mask;
use super::table::{RowMasks, Table};
use rayon::prelude::*;
use std::collections::HashMap;

/// The distinct state sets of every half target of one depth.
pub struct Family {
    /// Target rows in each half target.
    pub depth: usize,
    /// Parent rows (`2^(side+2)`): the length of one set.
    pub lines: usize,
    /// Set `k` is `sets[k * lines..(k + 1) * lines]`; entry `a` holds every
    /// `b` such that the parent rows `(a, b)` may end a parent of the half.
    pub sets: Vec<Mask>,
    /// The class (index of its set) of each half target; a half target is its
    /// rows packed `side` bits apiece, row 0 lowest.
    pub class_of: Vec<u32>,
}

impl Family {
    pub fn classes(&self) -> usize {
        self.sets.len() / self.lines
    }
    pub fn set(&self, k: usize) -> &[Mask] {
        &self.sets[k * self.lines..(k + 1) * self.lines]
    }
    /// How many half targets share each class.
    pub fn multiplicities(&self) -> Vec<u64> {
        let mut m = vec![0u64; self.classes()];
        for &c in &self.class_of {
            m[c as usize] += 1;
        }
        m
    }
}

// ANCHOR: expand
/// The children of one state set, one per possible next target row: every live
/// pair `(a, b)` looks up its allowed rows `c` for all rows at once (eight low
/// groups times eight high groups) and sends them to `(b, c)`.
/// `children` (rows x lines masks, overwritten) receives child `t` at `t * lines`.
pub fn expand(set: &[Mask], rm: &RowMasks, children: &mut [Mask]) {
    let lines = set.len();
    children.fill(Mask::EMPTY);
    for (a, row) in set.iter().enumerate() {
        for b in row.iter() {
            let lo = &rm.lo[(((a & 31) << 5) | (b & 31)) * 8..][..rm.lo_values];
            let hi = &rm.hi[(((a >> 3) << 5) | (b >> 3)) * 8..][..rm.hi_values];
            for (tl, l) in lo.iter().enumerate() {
                if l.is_empty() {
                    continue;
                }
                for (th, h) in hi.iter().enumerate() {
                    let t = tl + th * rm.lo_values;
                    children[t * lines + b] |= *l & *h;
                }
            }
        }
    }
}
// ANCHOR_END: expand

fn hash(set: &[Mask]) -> u64 {
    set.iter()
        .flat_map(|m| m.0)
        .fold(0x243f_6a88_85a3_08d3u64, |h, w| (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(23))
}

/// Merge equal sets: the class of each new set, appending unseen ones to `sets`.
struct Dedup {
    lines: usize,
    sets: Vec<Mask>,
    seen: HashMap<u64, Vec<u32>>,
}

impl Dedup {
    fn class(&mut self, set: &[Mask]) -> u32 {
        let bucket = self.seen.entry(hash(set)).or_default();
        for &k in bucket.iter() {
            if &self.sets[k as usize * self.lines..(k as usize + 1) * self.lines] == set {
                return k;
            }
        }
        let k = (self.sets.len() / self.lines) as u32;
        self.sets.extend_from_slice(set);
        bucket.push(k);
        k
    }
}

// ANCHOR: families
/// The families of depth 0..=`max_depth` for target rows of `table.side()`
/// cells. Depth 0 is the single set of all pairs (nothing read yet).
pub fn families(table: &Table, max_depth: usize) -> Vec<Family> {
    let (side, lines) = (table.side(), table.lines());
    let rows = 1usize << side;
    let rm = table.row_masks();
    let mut out = vec![Family { depth: 0, lines, sets: vec![Mask::below(lines); lines], class_of: vec![0] }];
    for depth in 1..=max_depth {
        let prev = out.last().expect("depth 0 is there");
        // Room for every child up front: growing by doubling would copy the
        // sets and, for 6x6, briefly hold 3 GB instead of 2 (pages never
        // written to, where equal sets merge, cost no memory).
        let sets = Vec::with_capacity(prev.classes() * rows * lines);
        let mut dedup = Dedup { lines, sets, seen: HashMap::new() };
        // child[k * rows + t]: the class of class k's child under row t.
        let mut child = vec![0u32; prev.classes() * rows];
        // In batches, into one buffer used again and again, so that at most a
        // few hundred expanded sets wait for merging (allocating them afresh
        // each time left the allocator holding as much again as the sets).
        let (batch, per) = ((rayon::current_num_threads() * 16).max(1), rows * lines);
        let mut buffer = vec![Mask::EMPTY; batch * per];
        for start in (0..prev.classes()).step_by(batch) {
            let end = (start + batch).min(prev.classes());
            buffer[..(end - start) * per]
                .par_chunks_mut(per)
                .enumerate()
                .for_each(|(i, out)| expand(prev.set(start + i), &rm, out));
            for (k, children) in (start..end).zip(buffer.chunks(per)) {
                for t in 0..rows {
                    child[k * rows + t] = dedup.class(&children[t * lines..(t + 1) * lines]);
                }
            }
        }
        // A half target of `depth` rows is a prefix plus its last row on top.
        let shift = side * (depth - 1);
        let class_of = (0..prev.class_of.len() * rows)
            .map(|p| child[prev.class_of[p & ((1 << shift) - 1)] as usize * rows + (p >> shift)])
            .collect();
        out.push(Family { depth, lines, sets: dedup.sets, class_of });
    }
    out
}
// ANCHOR_END: families
