//! LIFECUBE (thesis chapter 3): the board as 64-cell words, neighbour counts
//! by a bit-parallel adder network, so one word operation advances 64 cells.
//!
//! Two ideas carry the speed. First, every row's horizontal three-cell sums
//! are computed once and shared by the three output rows that need them (the
//! thesis gets the same saving from its stagger step: fewer loads per cell).
//! Second, the board is cut into tiles, and a tile is recomputed only when it
//! or one of its eight neighbours changed in the last generation, so still
//! regions cost nothing.
//!
//! Book: Part II, chapter 3, section 3.1, "This crate's LIFECUBE" (`book/src/thesis/ch3.md`).

use crate::life::grid::{Grid, Topology};
use crate::life::rule::Rule;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering};

/// The widest vector kernel allowed: 2 = AVX-512, 1 = AVX2, 0 = portable.
/// Lowered only by tests and benchmarks, to check and time every kernel on
/// one machine; every kernel computes the same bits.
static SIMD_LIMIT: AtomicU8 = AtomicU8::new(2);

/// Which compiled kernel LIFECUBE may use (the best available below the limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Simd {
    Portable = 0,
    Avx2 = 1,
    Avx512 = 2,
}

/// Cap the kernel LIFECUBE uses from now on, in every thread.
pub fn limit_simd(limit: Simd) {
    SIMD_LIMIT.store(limit as u8, Ordering::Relaxed);
}

/// Rows per tile band. Tiles are `TILE_WORDS` words (256 cells) wide.
const TILE_ROWS: usize = 16;
const TILE_WORDS: usize = 4;

// ANCHOR: board
/// A bounded board or torus packed 64 cells to a word: bit `k` of word `i` in
/// row `y` is cell `(64 i + k, y)`. Two buffers alternate between generations.
#[derive(Debug, Clone)]
pub struct LifeCube {
    width: usize,
    height: usize,
    words: usize,
    rule: Rule,
    topology: Topology,
    cur: Vec<u64>,
    next: Vec<u64>,
    /// Per tile: did it change in the last generation?
    changed: Vec<bool>,
    tiles_x: usize,
    tiles_y: usize,
}
// ANCHOR_END: board

impl LifeCube {
    pub fn new(g: &Grid, rule: Rule, topology: Topology) -> LifeCube {
        let (width, height) = (g.width(), g.height());
        let words = width.div_ceil(64);
        let mut cur = vec![0u64; words * height];
        for (row, out) in g.cells().chunks(width.max(1)).zip(cur.chunks_mut(words.max(1))) {
            for (cells, w) in row.chunks(64).zip(out.iter_mut()) {
                *w = cells.iter().rev().fold(0, |acc, &c| acc << 1 | c as u64);
            }
        }
        let tiles_x = words.div_ceil(TILE_WORDS);
        let tiles_y = height.div_ceil(TILE_ROWS);
        LifeCube {
            width,
            height,
            words,
            rule,
            topology,
            next: cur.clone(),
            cur,
            changed: vec![true; tiles_x * tiles_y],
            tiles_x,
            tiles_y,
        }
    }

    pub fn to_grid(&self) -> Grid {
        let mut cells = Vec::with_capacity(self.width * self.height);
        for row in self.cur.chunks(self.words.max(1)).take(self.height) {
            cells.extend((0..self.width).map(|x| row[x / 64] >> (x % 64) & 1 == 1));
        }
        Grid::from_cells(self.width, self.height, cells)
    }

    pub fn population(&self) -> u64 {
        self.cur.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// Advance one generation on this thread.
    pub fn step(&mut self) {
        self.step_with(false)
    }

    /// Advance one generation, tile bands spread over all cores.
    pub fn step_parallel(&mut self) {
        self.step_with(true)
    }

    // ANCHOR: step
    fn step_with(&mut self, parallel: bool) {
        if self.words == 0 || self.height == 0 {
            return;
        }
        let active = self.active_tiles();
        let ctx = Ctx {
            width: self.width,
            height: self.height,
            words: self.words,
            rule: self.rule,
            torus: self.topology == Topology::Torus,
            cur: &self.cur,
            tiles_x: self.tiles_x,
        };
        let band_len = TILE_ROWS * self.words;
        let tiles_x = self.tiles_x;
        // Each band writes its tiles' change flags into its own stretch of `changed`.
        let mut changed = std::mem::take(&mut self.changed);
        if parallel {
            self.next
                .par_chunks_mut(band_len)
                .zip(active.par_chunks(tiles_x))
                .zip(changed.par_chunks_mut(tiles_x))
                .enumerate()
                // A band is a few microseconds of work: hand out runs of bands.
                .with_min_len((self.tiles_y / (4 * rayon::current_num_threads())).max(1))
                .for_each(|(j, ((out, act), ch))| ctx.band(j, out, act, ch));
        } else {
            for (j, ((out, act), ch)) in self
                .next
                .chunks_mut(band_len)
                .zip(active.chunks(tiles_x))
                .zip(changed.chunks_mut(tiles_x))
                .enumerate()
            {
                ctx.band(j, out, act, ch);
            }
        }
        self.changed = changed;
        std::mem::swap(&mut self.cur, &mut self.next);
    }
    // ANCHOR_END: step

    /// A tile must be recomputed when it or a neighbour tile changed last time.
    fn active_tiles(&self) -> Vec<bool> {
        // A dense soup changes everywhere: then everything is active.
        if self.changed.iter().all(|&c| c) {
            return self.changed.clone();
        }
        let (tx, ty) = (self.tiles_x as isize, self.tiles_y as isize);
        let torus = self.topology == Topology::Torus;
        let wrap = |v: isize, n: isize| {
            if v < 0 {
                v + n
            } else if v >= n {
                v - n
            } else {
                v
            }
        };
        let mut active = vec![false; self.changed.len()];
        for j in 0..ty {
            for i in 0..tx {
                if !self.changed[(j * tx + i) as usize] {
                    continue;
                }
                for dj in -1..=1 {
                    for di in -1..=1 {
                        let (mut a, mut b) = (i + di, j + dj);
                        if torus {
                            a = wrap(a, tx);
                            b = wrap(b, ty);
                        } else if a < 0 || b < 0 || a >= tx || b >= ty {
                            continue;
                        }
                        active[(b * tx + a) as usize] = true;
                    }
                }
            }
        }
        active
    }
}

/// What every band needs to read while the next generation is written.
struct Ctx<'a> {
    width: usize,
    height: usize,
    words: usize,
    rule: Rule,
    torus: bool,
    cur: &'a [u64],
    tiles_x: usize,
}

impl Ctx<'_> {
    /// Compute band `j` into `out` (its rows of the next buffer) and which of
    /// its tiles changed into `changed`.
    fn band(&self, j: usize, out: &mut [u64], active: &[bool], changed: &mut [bool]) {
        let y0 = j * TILE_ROWS;
        let rows = out.len() / self.words;
        // The flat stagger-step pass is written for Conway's rule; other rules
        // go through the general adder below.
        if self.rule == Rule::CONWAY && active.iter().all(|&a| a) {
            return self.full_band(y0, rows, out, changed);
        }
        changed.fill(false);
        let mut i = 0;
        while i < self.tiles_x {
            if !active[i] {
                i += 1;
                continue;
            }
            // A run of consecutive active tiles is computed in one pass.
            let start = i;
            while i < self.tiles_x && active[i] {
                i += 1;
            }
            let (w0, w1) = (start * TILE_WORDS, (i * TILE_WORDS).min(self.words));
            let mut diff = vec![0u64; w1 - w0];
            self.run(y0, rows, w0, w1, out, &mut diff);
            for (k, d) in diff.chunks(TILE_WORDS).enumerate() {
                changed[start + k] = d.iter().any(|&x| x != 0);
            }
        }
    }

    // ANCHOR: full_band
    /// A band whose tiles are all active: copy its rows once into a buffer with
    /// a halo word at each end, then sweep it in strips of `STRIP` words.
    fn full_band(&self, y0: usize, rows: usize, out: &mut [u64], changed: &mut [bool]) {
        #[cfg(target_arch = "x86_64")]
        {
            let level = SIMD_LIMIT.load(Ordering::Relaxed);
            if level >= 2 && std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F, checked just above.
                return unsafe { self.full_band_avx512(y0, rows, out, changed) };
            }
            if level >= 1 && std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, checked just above.
                return unsafe { self.full_band_avx2(y0, rows, out, changed) };
            }
        }
        self.full_band_portable(y0, rows, out, changed)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn full_band_avx512(&self, y0: usize, rows: usize, out: &mut [u64], changed: &mut [bool]) {
        self.full_band_portable(y0, rows, out, changed)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn full_band_avx2(&self, y0: usize, rows: usize, out: &mut [u64], changed: &mut [bool]) {
        self.full_band_portable(y0, rows, out, changed)
    }

    #[inline(always)]
    fn full_band_portable(&self, y0: usize, rows: usize, out: &mut [u64], changed: &mut [bool]) {
        let words = self.words;
        if self.torus && !self.width.is_multiple_of(64) {
            // The wrap-around does not fall on a word boundary: take the general path.
            let mut diff = vec![0u64; words];
            self.run_portable(y0, rows, 0, words, out, &mut diff);
            for (t, d) in diff.chunks(TILE_WORDS).enumerate() {
                changed[t] = d.iter().any(|&x| x != 0);
            }
            return;
        }
        // The band's rows y0-1 ..= y0+rows, each with one halo word on either
        // side holding what lies beyond the edge (the far end of the row on a
        // torus, nothing on a bounded board).
        let stride = words + 2;
        // Borrowed from the thread rather than used inside a closure: a closure
        // would not be compiled with this function's vector instructions.
        let mut buf = SCRATCH.take();
        buf.clear();
        buf.resize((rows + 2) * stride, 0);
        for (k, y) in (y0 as isize - 1..=(y0 + rows) as isize).enumerate() {
            if let Some(r) = self.row(y) {
                let dst = &mut buf[k * stride..(k + 1) * stride];
                copy_words(&mut dst[1..=words], r);
                if self.torus {
                    dst[0] = r[words - 1];
                    dst[words + 1] = r[0];
                }
            }
        }
        self.sweep_band(&buf, stride, y0, rows, out, changed);
        SCRATCH.set(buf);
    }

    /// Sweep the band's copy `buf` strip by strip into `out`.
    #[inline(always)]
    fn sweep_band(
        &self,
        buf: &[u64],
        stride: usize,
        y0: usize,
        rows: usize,
        out: &mut [u64],
        changed: &mut [bool],
    ) {
        let words = self.words;
        let alive = &self.cur[y0 * words..(y0 + rows) * words];
        let mut diff = vec![0u64; words];
        let mut col = 0;
        while col + STRIP <= words {
            strip::<STRIP>(buf, stride, col, rows, alive, out, &mut diff[col..col + STRIP]);
            col += STRIP;
        }
        while col < words {
            strip::<1>(buf, stride, col, rows, alive, out, &mut diff[col..col + 1]);
            col += 1;
        }
        if !self.width.is_multiple_of(64) {
            // Bounded board: cells past the right edge stay dead.
            let mask = (1u64 << (self.width % 64)) - 1;
            for r in 0..rows {
                out[r * words + words - 1] &= mask;
            }
        }
        for (c, d) in changed.iter_mut().zip(diff.chunks(TILE_WORDS)) {
            *c = d.iter().any(|&x| x != 0);
        }
    }
    // ANCHOR_END: full_band

    fn row(&self, y: isize) -> Option<&[u64]> {
        let h = self.height as isize;
        let y = if self.torus {
            y.rem_euclid(h)
        } else if y < 0 || y >= h {
            return None;
        } else {
            y
        };
        let y = y as usize;
        Some(&self.cur[y * self.words..(y + 1) * self.words])
    }

    /// Rows `y0 .. y0+rows`, words `w0 .. w1`: the adder network proper,
    /// compiled twice so that AVX2 machines get 256-bit words.
    fn run(&self, y0: usize, rows: usize, w0: usize, w1: usize, out: &mut [u64], diff: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        {
            let level = SIMD_LIMIT.load(Ordering::Relaxed);
            if level >= 2 && std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F, checked just above.
                return unsafe { self.run_avx512(y0, rows, w0, w1, out, diff) };
            }
            if level >= 1 && std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, checked just above.
                return unsafe { self.run_avx2(y0, rows, w0, w1, out, diff) };
            }
        }
        self.run_portable(y0, rows, w0, w1, out, diff)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn run_avx512(
        &self,
        y0: usize,
        rows: usize,
        w0: usize,
        w1: usize,
        out: &mut [u64],
        diff: &mut [u64],
    ) {
        self.run_portable(y0, rows, w0, w1, out, diff)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn run_avx2(
        &self,
        y0: usize,
        rows: usize,
        w0: usize,
        w1: usize,
        out: &mut [u64],
        diff: &mut [u64],
    ) {
        self.run_portable(y0, rows, w0, w1, out, diff)
    }

    #[inline(always)]
    fn run_portable(&self, y0: usize, rows: usize, w0: usize, w1: usize, out: &mut [u64], diff: &mut [u64]) {
        let n = w1 - w0;
        // Ring of the horizontal sums (bit 0 and bit 1) of the rows y-1, y, y+1.
        let mut ring =
            [[vec![0u64; n], vec![0u64; n]], [vec![0u64; n], vec![0u64; n]], [vec![0u64; n], vec![0u64; n]]];
        let mut ext = Vec::with_capacity(n + 2);
        self.fill(&mut ring[0], y0 as isize - 1, w0, w1, &mut ext);
        self.fill(&mut ring[1], y0 as isize, w0, w1, &mut ext);
        for dy in 0..rows {
            let y = y0 + dy;
            self.fill(&mut ring[(dy + 2) % 3], y as isize + 1, w0, w1, &mut ext);
            let [a, b, c] = [&ring[dy % 3], &ring[(dy + 1) % 3], &ring[(dy + 2) % 3]];
            let alive = &self.cur[y * self.words + w0..y * self.words + w1];
            let dst = &mut out[dy * self.words + w0..dy * self.words + w1];
            combine(self.rule, [&a[0], &a[1], &b[0], &b[1], &c[0], &c[1]], alive, dst, diff);
            if w1 == self.words && !self.width.is_multiple_of(64) {
                // Cells past the right edge stay dead.
                let last = dst.len() - 1;
                dst[last] &= (1u64 << (self.width % 64)) - 1;
                diff[last] |= dst[last] ^ alive[last];
            }
        }
    }

    /// One slot of the ring: row `y`'s sums, or nothing beyond a bounded edge.
    /// (A method, not a closure, so that it gets the caller's vector instructions.)
    #[inline(always)]
    fn fill(&self, slot: &mut [Vec<u64>; 2], y: isize, w0: usize, w1: usize, ext: &mut Vec<u64>) {
        match self.row(y) {
            Some(r) => self.row_sums(r, w0, w1, slot, ext),
            None => {
                slot[0].fill(0);
                slot[1].fill(0);
            }
        }
    }

    // ANCHOR: row_sums
    /// For words `w0..w1` of one row: the two-bit sum of each cell's west
    /// neighbour, itself and its east neighbour (a full adder per bit).
    #[inline(always)]
    fn row_sums(&self, r: &[u64], w0: usize, w1: usize, out: &mut [Vec<u64>; 2], ext: &mut Vec<u64>) {
        let words = self.words;
        let rem = self.width % 64;
        // The words just outside the range, as the topology sees them.
        let word_at = |i: isize| -> u64 {
            if i >= 0 && (i as usize) < words {
                r[i as usize]
            } else if !self.torus {
                0
            } else if i < 0 {
                // West of cell 0 is cell W-1: place it at bit 63.
                if rem == 0 { r[words - 1] } else { r[words - 1] << (64 - rem) }
            } else {
                r[0]
            }
        };
        let n = w1 - w0;
        ext.clear();
        ext.push(word_at(w0 as isize - 1));
        ext.extend_from_slice(&r[w0..w1]);
        ext.push(word_at(w1 as isize));
        let [o0, o1] = out;
        let (s0, s1) = (&mut o0[..n], &mut o1[..n]);
        for (k, w) in ext.windows(3).enumerate() {
            (s0[k], s1[k]) = three_sum(w[0], w[1], w[2]);
        }
        if self.torus && rem != 0 && w1 == words {
            // East of cell W-1 is cell 0, which sits at bit `rem` of nothing: patch it in.
            let k = n - 1;
            let (l, c) = (ext[k], ext[k + 1]);
            let west = (c << 1) | (l >> 63);
            let east = (c >> 1) | ((r[0] & 1) << (rem - 1));
            (s0[k], s1[k]) = full_adder(west, c, east);
        }
    }
    // ANCHOR_END: row_sums
}

// ANCHOR: three_sum
/// The two-bit sums west + centre + east of a word `c` whose neighbours in
/// the row are the words `l` (to the west) and `r` (to the east).
#[inline(always)]
pub(crate) fn three_sum(l: u64, c: u64, r: u64) -> (u64, u64) {
    full_adder((c << 1) | (l >> 63), c, (c >> 1) | (r << 63))
}

/// Sum and carry of three bit planes.
#[inline(always)]
fn full_adder(a: u64, b: u64, c: u64) -> (u64, u64) {
    (a ^ b ^ c, (a & b) | (c & (a ^ b)))
}
// ANCHOR_END: three_sum

// ANCHOR: combine
/// Add the three rows' two-bit sums into the 3x3 total `x0 + 2 n` (n = 0..4)
/// and apply the rule. A dead cell is born when the total is in B; a live one
/// survives when the total minus itself is in S.
#[inline(always)]
pub(crate) fn combine(rule: Rule, s: [&[u64]; 6], alive: &[u64], dst: &mut [u64], diff: &mut [u64]) {
    if rule == Rule::CONWAY {
        return combine_conway(s, alive, dst, diff);
    }
    for k in 0..dst.len() {
        let (x0, n0, n1, n2) = total(s[0][k], s[1][k], s[2][k], s[3][k], s[4][k], s[5][k]);
        let mut birth = 0;
        let mut survive = 0;
        for t in 0..=9u32 {
            let eq =
                bit_eq(x0, t & 1) & bit_eq(n0, t >> 1 & 1) & bit_eq(n1, t >> 2 & 1) & bit_eq(n2, t >> 3 & 1);
            if t <= 8 && rule.birth >> t & 1 == 1 {
                birth |= eq;
            }
            if t >= 1 && rule.survival >> (t - 1) & 1 == 1 {
                survive |= eq;
            }
        }
        let a = alive[k];
        let v = (birth & !a) | (survive & a);
        diff[k] |= v ^ a;
        dst[k] = v;
    }
}

#[inline(always)]
fn bit_eq(x: u64, b: u32) -> u64 {
    if b == 1 { x } else { !x }
}

/// The total of three two-bit numbers as bits (x0, n0, n1, n2) of x0 + 2(n0 + 2 n1 + 4 n2).
#[inline(always)]
fn total(a0: u64, a1: u64, b0: u64, b1: u64, c0: u64, c1: u64) -> (u64, u64, u64, u64) {
    let x0 = a0 ^ b0 ^ c0;
    let k1 = (a0 & b0) | (c0 & (a0 ^ b0));
    // n = a1 + b1 + c1 + k1, four bits of weight two.
    let (p, q) = (a1 ^ b1, a1 & b1);
    let (r, t) = (c1 ^ k1, c1 & k1);
    let n0 = p ^ r;
    let carry = p & r;
    let n1 = q ^ t ^ carry;
    let n2 = q & t;
    (x0, n0, n1, n2)
}

#[inline(always)]
fn combine_conway(s: [&[u64]; 6], alive: &[u64], dst: &mut [u64], diff: &mut [u64]) {
    let n = dst.len();
    let [a0, a1, b0, b1, c0, c1] = s.map(|x| &x[..n]);
    for (k, (d, f)) in dst.iter_mut().zip(diff[..n].iter_mut()).enumerate() {
        let (x0, n0, n1, _) = total(a0[k], a1[k], b0[k], b1[k], c0[k], c1[k]);
        let a = alive[k];
        // Total 3: born or survives with two; total 4: a live cell with three.
        let v = (x0 & n0 & !n1) | (a & !x0 & !n0 & n1);
        *f |= v ^ a;
        *d = v;
    }
}

// ANCHOR_END: combine

thread_local! {
    /// Each thread's copy of the band being computed, kept between bands.
    static SCRATCH: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Copy a row, eight words at a time as fixed-size moves: a board row is a
/// short copy, and calling `memcpy` for each costs more than the copy.
#[inline(always)]
fn copy_words(dst: &mut [u64], src: &[u64]) {
    let mut d = dst.chunks_exact_mut(8);
    let mut s = src.chunks_exact(8);
    for (d, s) in (&mut d).zip(&mut s) {
        let block: [u64; 8] = s.try_into().expect("chunks of eight");
        *<&mut [u64; 8]>::try_from(d).expect("chunks of eight") = block;
    }
    for (d, s) in d.into_remainder().iter_mut().zip(s.remainder()) {
        *d = *s;
    }
}

/// Words per strip: one AVX-512 register of 64-bit lanes.
const STRIP: usize = 8;

// ANCHOR: strip
/// The stagger step: walk down a strip of `S` words, keeping the horizontal
/// sums of the rows above and at the current row in registers, so each row's
/// sums are computed once and each input word is loaded once. `buf` holds the
/// band's rows with a halo word on each side; `col` is the strip's first word.
#[inline(always)]
fn strip<const S: usize>(
    buf: &[u64],
    stride: usize,
    col: usize,
    rows: usize,
    alive: &[u64],
    out: &mut [u64],
    diff: &mut [u64],
) {
    let words = stride - 2;
    // Not a closure: closures are not compiled with the caller's vector instructions.
    let at = |row: usize| row * stride + col..row * stride + col + S + 2;
    let (mut a, mut b) = (strip_sums::<S>(&buf[at(0)]), strip_sums::<S>(&buf[at(1)]));
    let mut d = [0u64; S];
    for r in 0..rows {
        let c = strip_sums::<S>(&buf[at(r + 2)]);
        let now = &alive[r * words + col..r * words + col + S];
        let dst = &mut out[r * words + col..r * words + col + S];
        for k in 0..S {
            let (x0, n0, n1, _) = total(a.0[k], a.1[k], b.0[k], b.1[k], c.0[k], c.1[k]);
            let v = (x0 & n0 & !n1) | (now[k] & !x0 & !n0 & n1);
            d[k] |= v ^ now[k];
            dst[k] = v;
        }
        (a, b) = (b, c);
    }
    for k in 0..S {
        diff[k] |= d[k];
    }
}
// ANCHOR_END: strip

/// The two-bit horizontal sums of words 1..=S of `w` (words 0 and S+1 are
/// their outer neighbours). A function of its own, always inlined: a closure
/// is compiled without the vector instructions of the function it sits in.
#[inline(always)]
fn strip_sums<const S: usize>(w: &[u64]) -> ([u64; S], [u64; S]) {
    let (mut s0, mut s1) = ([0u64; S], [0u64; S]);
    for k in 0..S {
        (s0[k], s1[k]) = three_sum(w[k], w[k + 1], w[k + 2]);
    }
    (s0, s1)
}

/// `generations` steps with LIFECUBE, on one core or all.
pub fn evolve(g: &Grid, rule: Rule, topology: Topology, generations: u64, parallel: bool) -> Grid {
    let mut cube = LifeCube::new(g, rule, topology);
    for _ in 0..generations {
        cube.step_with(parallel);
    }
    cube.to_grid()
}

// ANCHOR: narrow
/// One generation of a bounded pattern at most 64 cells wide, held as one word
/// per row (bit x = cell x): the adder network above with a single word per
/// row and nothing beyond the edges. GRIDWALKER confirms each candidate
/// predecessor with it, thousands of times per second in a candidate stream,
/// where building a whole [`LifeCube`] for a 12x12 window would cost more than the step.
pub fn step_narrow(rows: &[u64], width: usize, rule: Rule) -> Vec<u64> {
    assert!(width <= 64, "step_narrow: {width} cells do not fit in one word");
    let mask = if width == 64 { !0 } else { (1u64 << width) - 1 };
    // Shifting west pushes the last cell past the edge: cut it off.
    let sums: Vec<(u64, u64)> = rows
        .iter()
        .map(|&r| {
            let (s0, s1) = three_sum(0, r & mask, 0);
            (s0 & mask, s1 & mask)
        })
        .collect();
    let sum = |y: Option<usize>| y.and_then(|y| sums.get(y)).copied().unwrap_or((0, 0));
    (0..rows.len())
        .map(|y| {
            let (a, b, c) = (sum(y.checked_sub(1)), sums[y], sum(Some(y + 1)));
            let (mut next, mut diff) = ([0u64], [0u64]);
            combine(
                rule,
                [&[a.0], &[a.1], &[b.0], &[b.1], &[c.0], &[c.1]],
                &[rows[y] & mask],
                &mut next,
                &mut diff,
            );
            next[0] & mask
        })
        .collect()
}
// ANCHOR_END: narrow
