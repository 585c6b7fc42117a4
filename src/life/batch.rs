//! Many tiny universes at once (thesis section 6.4): every k x k pattern evolved
//! one generation in a bounded universe.
//!
//! The thesis ran LIFECUBE on a GPU over all 2^49 7x7 patterns. On a CPU the same
//! idea is *bit slicing*: a `u64` word holds one cell of 64 different patterns
//! (lane j = pattern j), so one pass of a carry-save adder network over the k*k
//! cell words evolves 64 universes with a few dozen word operations per cell.
//!
//! Pattern numbering: pattern `i` has cell (x, y) alive iff bit `y * k + x` of `i`
//! is set. The same numbering is used by [`crate::search::ancestors`].
//!
//! Book: Part II, chapter 3, section 3.2 (`book/src/thesis/ch3.md`), measured in chapter 6, section 6.4
//! (`book/src/thesis/ch6.md`).

use crate::life::{Grid, Rule, Topology};

/// The largest side we enumerate: a k x k pattern must fit in a `u64` index.
pub const MAX_SIDE: usize = 8;

/// Lane masks for the six lowest index bits: within a block of 64 consecutive
/// patterns, bit `b < 6` of the pattern index equals bit `b` of the lane number.
const LANE_BITS: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

// ANCHOR: sliced_rule
/// A rule as bit-sliced logic: which neighbour counts give birth or survival.
#[derive(Debug, Clone, Copy)]
pub struct SlicedRule {
    birth: u16,
    survival: u16,
}

impl SlicedRule {
    pub fn new(rule: Rule) -> SlicedRule {
        SlicedRule { birth: rule.birth & 0x1ff, survival: rule.survival & 0x1ff }
    }

    /// Next state of 64 cells given their state and the four bit planes
    /// `s[0..4]` of their neighbour counts (0..=8).
    #[inline(always)]
    fn next(self, alive: u64, s: [u64; 4]) -> u64 {
        // Conway's B3/S23 is the common case: born or kept on 3, kept on 2.
        if self.birth == 1 << 3 && self.survival == (1 << 2) | (1 << 3) {
            return s[1] & !s[2] & !s[3] & (s[0] | alive);
        }
        let mut out = 0;
        for n in 0..=8u32 {
            let (b, sv) = ((self.birth >> n) & 1 == 1, (self.survival >> n) & 1 == 1);
            if !b && !sv {
                continue;
            }
            let mut eq = !0u64;
            for (bit, plane) in s.iter().enumerate() {
                eq &= if (n >> bit) & 1 == 1 { *plane } else { !*plane };
            }
            let who = match (b, sv) {
                (true, true) => !0,
                (true, false) => !alive,
                _ => alive,
            };
            out |= eq & who;
        }
        out
    }
}
// ANCHOR_END: sliced_rule

// ANCHOR: sliced_step
/// Sum three one-bit lanes: (sum bit, carry bit).
#[inline(always)]
fn full_add(a: u64, b: u64, c: u64) -> (u64, u64) {
    let t = a ^ b;
    (t ^ c, (a & b) | (c & t))
}

/// The neighbour count of 64 cells as four bit planes, by a carry-save adder tree.
#[inline(always)]
fn count8(n: [u64; 8]) -> [u64; 4] {
    let (s1, c1) = full_add(n[0], n[1], n[2]);
    let (s2, c2) = full_add(n[3], n[4], n[5]);
    let (s3, c3) = (n[6] ^ n[7], n[6] & n[7]);
    let (b0, d1) = full_add(s1, s2, s3);
    let (u, e1) = full_add(c1, c2, c3);
    let (b1, e2) = (u ^ d1, u & d1);
    [b0, b1, e1 ^ e2, e1 & e2]
}

/// One generation of 64 bounded `k` x `k` universes at once: `cur[y * k + x]`
/// holds cell (x, y) of every universe, one per bit. Cells beyond the edge are dead.
pub fn step_sliced(k: usize, rule: SlicedRule, cur: &[u64], next: &mut [u64]) {
    assert!(cur.len() == k * k && next.len() == k * k, "step_sliced: {k}x{k} needs {} words", k * k);
    let at = |x: isize, y: isize| -> u64 {
        if x < 0 || y < 0 || x >= k as isize || y >= k as isize {
            0
        } else {
            cur[y as usize * k + x as usize]
        }
    };
    for y in 0..k as isize {
        for x in 0..k as isize {
            let n = [
                at(x - 1, y - 1),
                at(x, y - 1),
                at(x + 1, y - 1),
                at(x - 1, y),
                at(x + 1, y),
                at(x - 1, y + 1),
                at(x, y + 1),
                at(x + 1, y + 1),
            ];
            next[y as usize * k + x as usize] = rule.next(at(x, y), count8(n));
        }
    }
}
// ANCHOR_END: sliced_step

/// The cell words of the 64 patterns `base .. base + 64` (`base` a multiple of 64).
pub fn block_cells(k: usize, base: u64, cells: &mut [u64]) {
    debug_assert!(base.is_multiple_of(64));
    for (i, c) in cells.iter_mut().enumerate().take(k * k) {
        *c = if i < 6 {
            LANE_BITS[i]
        } else if (base >> i) & 1 == 1 {
            !0
        } else {
            0
        };
    }
}

/// Transpose a bit-sliced block back into one `u64` per lane: bit `i` of
/// `out[j]` is bit `j` of `cells[i]` (the pattern numbering above).
pub fn unslice(cells: &[u64], out: &mut [u64; 64]) {
    *out = [0; 64];
    for (i, &w) in cells.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            let j = w.trailing_zeros() as usize;
            out[j] |= 1 << i;
            w &= w - 1;
        }
    }
}

// ANCHOR: census
/// What one generation did to a range of patterns: enough to check the batch
/// evolver against the naive one, and to make sure no step is optimised away.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Census {
    /// Patterns evolved.
    pub patterns: u64,
    /// Patterns whose successor is empty.
    pub dies: u64,
    /// Patterns that are their own successor (still lifes, the empty one included).
    pub still: u64,
    /// Live cells summed over all successors.
    pub population: u64,
}

impl Census {
    pub fn merge(self, o: Census) -> Census {
        Census {
            patterns: self.patterns + o.patterns,
            dies: self.dies + o.dies,
            still: self.still + o.still,
            population: self.population + o.population,
        }
    }
}

/// Evolve every `k` x `k` pattern with index in `start .. end` one generation in
/// a bounded universe, 64 at a time, and count what happened.
pub fn census_range(k: usize, rule: Rule, start: u64, end: u64) -> Census {
    assert!((1..=MAX_SIDE).contains(&k), "batch: side {k} out of range");
    let total = if k * k >= 64 { u64::MAX } else { 1u64 << (k * k) };
    let end = end.min(total);
    let rule = SlicedRule::new(rule);
    let mut cur = vec![0u64; k * k];
    let mut next = vec![0u64; k * k];
    let mut census = Census::default();
    let mut base = start & !63;
    while base < end {
        // Lanes outside start..end (the ends of the range, or k < 3) are masked off.
        let lo = start.saturating_sub(base).min(64);
        let hi = (end - base).min(64);
        let valid = lane_mask(hi) & !lane_mask(lo);
        block_cells(k, base, &mut cur);
        step_sliced(k, rule, &cur, &mut next);
        let (mut any, mut diff, mut pop) = (0u64, 0u64, 0u64);
        for (c, n) in cur.iter().zip(&next) {
            any |= n;
            diff |= c ^ n;
            pop += (n & valid).count_ones() as u64;
        }
        census.patterns += valid.count_ones() as u64;
        census.dies += (!any & valid).count_ones() as u64;
        census.still += (!diff & valid).count_ones() as u64;
        census.population += pop;
        base += 64;
    }
    census
}
// ANCHOR_END: census

fn lane_mask(n: u64) -> u64 {
    if n >= 64 { !0 } else { (1u64 << n) - 1 }
}

/// The same census in parallel over `threads`-sized chunks (rayon), reporting
/// progress in patterns through `progress`.
pub fn census_range_parallel(
    k: usize,
    rule: Rule,
    start: u64,
    end: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Census {
    use rayon::prelude::*;
    const CHUNK: u64 = 1 << 22;
    let chunks: Vec<u64> = (start..end).step_by(CHUNK as usize).collect();
    chunks
        .par_iter()
        .map(|&s| {
            let e = (s + CHUNK).min(end);
            let c = census_range(k, rule, s, e);
            progress(e - s);
            c
        })
        .reduce(Census::default, Census::merge)
}

/// The slow obvious twin: the same census by building each pattern as a
/// [`Grid`] and stepping it with the naive engine.
pub fn census_range_naive(k: usize, rule: Rule, start: u64, end: u64) -> Census {
    let mut census = Census::default();
    for i in start..end {
        let g = pattern_grid(k, i);
        let n = crate::life::naive::step(&g, rule, Topology::Bounded);
        census.patterns += 1;
        census.dies += (n.population() == 0) as u64;
        census.still += (n == g) as u64;
        census.population += n.population() as u64;
    }
    census
}

/// Pattern number `i` of side `k` as a grid.
pub fn pattern_grid(k: usize, i: u64) -> Grid {
    let mut g = Grid::new(k, k);
    for y in 0..k {
        for x in 0..k {
            g.set(x, y, (i >> (y * k + x)) & 1 == 1);
        }
    }
    g
}

/// The pattern number of a `k` x `k` grid (inverse of [`pattern_grid`]).
pub fn grid_index(g: &Grid) -> u64 {
    g.live_cells().fold(0, |acc, (x, y)| acc | 1 << (y * g.width() + x))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn census_matches_naive_on_all_small_patterns() {
        for k in 1..=4 {
            let total = 1u64 << (k * k);
            assert_eq!(
                census_range(k, Rule::CONWAY, 0, total),
                census_range_naive(k, Rule::CONWAY, 0, total),
                "k={k}"
            );
        }
    }

    #[test]
    fn parallel_census_equals_serial() {
        let p = census_range_parallel(5, Rule::CONWAY, 0, 1 << 23, &|_| {});
        assert_eq!(p, census_range(5, Rule::CONWAY, 0, 1 << 23));
        assert_eq!(p.patterns, 1 << 23);
    }

    #[test]
    fn unslice_inverts_block_cells() {
        let mut cells = vec![0u64; 25];
        block_cells(5, 64 * 12345, &mut cells);
        let mut out = [0u64; 64];
        unslice(&cells, &mut out);
        for (j, &p) in out.iter().enumerate() {
            assert_eq!(p, 64 * 12345 + j as u64);
        }
    }

    proptest! {
        #[test]
        fn sliced_step_matches_naive(k in 1usize..=7, words in proptest::collection::vec(any::<u64>(), 49),
                                     hilife in any::<bool>()) {
            let rule = if hilife { Rule::HILIFE } else { Rule::CONWAY };
            let cur = &words[..k * k];
            let mut next = vec![0u64; k * k];
            step_sliced(k, SlicedRule::new(rule), cur, &mut next);
            let (mut a, mut b) = ([0u64; 64], [0u64; 64]);
            unslice(cur, &mut a);
            unslice(&next, &mut b);
            for j in 0..64 {
                let n = crate::life::naive::step(&pattern_grid(k, a[j]), rule, Topology::Bounded);
                prop_assert_eq!(grid_index(&n), b[j]);
            }
        }

        #[test]
        fn census_of_any_range_matches_naive(start in 0u64..(1 << 25) - 300, len in 0u64..300) {
            prop_assert_eq!(census_range(5, Rule::CONWAY, start, start + len),
                            census_range_naive(5, Rule::CONWAY, start, start + len));
        }
    }
}
