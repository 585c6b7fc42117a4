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
use crate::simd::simd_copies;
use rayon::prelude::*;

/// The widest vector kernel a [`LifeCube`] may use; it takes the best one the
/// CPU has at or below it. Lowered only by tests and benchmarks, to check and
/// time every kernel on one machine: every kernel computes the same bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Simd {
    Portable = 0,
    Avx2 = 1,
    Avx512 = 2,
}

/// Rows per tile band. Tiles are `TILE_WORDS` words (256 cells) wide.
const TILE_ROWS: usize = 16;
const TILE_WORDS: usize = 4;

// ANCHOR: board
/// A bounded board or torus packed 64 cells to a word: bit `k` of word `i` in
/// row `y` is cell `(64 i + k, y)`. Two buffers alternate between generations.
///
/// Each buffer holds the rows with a halo: one word before and after every
/// row and one row above and below the board, holding what lies beyond the
/// edge (the far side of a torus whose width is whole words; nothing on a
/// bounded board). The sweep then reads its neighbours without a test.
#[derive(Debug, Clone)]
pub struct LifeCube {
    width: usize,
    height: usize,
    words: usize,
    /// Words from one row to the next in a buffer: `words + 2`.
    stride: usize,
    rule: Rule,
    topology: Topology,
    simd: Simd,
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
        LifeCube::from_grid(g, rule, topology, false)
    }

    /// [`LifeCube::new`], packing the rows on every core when `parallel`:
    /// on a 4096x4096 board the packing (and [`LifeCube::to_grid`]'s
    /// unpacking) reads and writes 16 MiB of cells, as long as some twenty
    /// generations take, and on one core it held back the team's speed-up.
    fn from_grid(g: &Grid, rule: Rule, topology: Topology, parallel: bool) -> LifeCube {
        let (width, height) = (g.width(), g.height());
        let words = width.div_ceil(64);
        let stride = words + 2;
        let mut cur = vec![0u64; stride * (height + 2)];
        let fill = |(row, out): (&[bool], &mut [u64])| pack_row(row, &mut out[1..=words]);
        // A board of no columns has no rows to pack (and chunks must not be empty).
        let (rows, outs, run) = (g.cells(), &mut cur[stride..], width.max(1));
        if parallel {
            rows.par_chunks(run).zip(outs.par_chunks_mut(stride)).for_each(fill);
        } else {
            rows.chunks(run).zip(outs.chunks_mut(stride)).for_each(fill);
        }
        let tiles_x = words.div_ceil(TILE_WORDS);
        let tiles_y = height.div_ceil(TILE_ROWS);
        if wraps(topology == Topology::Torus, width) && height > 0 {
            for row in cur[stride..(height + 1) * stride].chunks_mut(stride) {
                wrap_row(row);
            }
            wrap_rows(&mut cur, stride, height);
        }
        LifeCube {
            width,
            height,
            words,
            stride,
            rule,
            topology,
            simd: Simd::Avx512,
            next: cur.clone(),
            cur,
            changed: vec![true; tiles_x * tiles_y],
            tiles_x,
            tiles_y,
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// The same board, held to vector kernels no wider than `simd`.
    pub fn with_simd(mut self, simd: Simd) -> LifeCube {
        self.simd = simd;
        self
    }

    pub fn to_grid(&self) -> Grid {
        self.to_grid_on(false)
    }

    /// [`LifeCube::to_grid`], unpacking the rows on every core when `parallel`.
    fn to_grid_on(&self, parallel: bool) -> Grid {
        let width = self.width;
        let mut cells = vec![false; width * self.height];
        let fill = |(y, out): (usize, &mut [bool])| unpack_row(self.row(y), out);
        match (width, parallel) {
            (0, _) => {}
            (_, true) => cells.par_chunks_mut(width).enumerate().for_each(fill),
            (_, false) => cells.chunks_mut(width).enumerate().for_each(fill),
        }
        Grid::from_cells(width, self.height, cells)
    }

    pub fn population(&self) -> u64 {
        (0..self.height).flat_map(|y| self.row(y)).map(|w| w.count_ones() as u64).sum()
    }

    /// Row `y` of the current generation, without its halo words.
    fn row(&self, y: usize) -> &[u64] {
        let start = (y + 1) * self.stride + 1;
        &self.cur[start..start + self.words]
    }

    /// `generations` steps, then the board as a grid.
    fn advance(mut self, generations: u64, parallel: bool) -> Grid {
        self.steps(generations, parallel);
        self.to_grid_on(parallel)
    }

    /// Advance `generations` generations; in parallel, by a team of threads
    /// that lives for the whole run (see `advance_team`). On one thread too,
    /// a dense Conway board goes through the team's code, which takes two
    /// generations a pass (see `pairs`).
    pub fn steps(&mut self, generations: u64, parallel: bool) {
        let team = if parallel { team_size(self.tiles_y) } else { 1 };
        if self.words > 0 && self.height > 0 && (team > 1 || self.pairs()) {
            self.advance_team(generations, team);
        } else {
            for _ in 0..generations {
                self.step();
            }
        }
    }

    /// Can this board take generations two at a time? Only where a band whose
    /// tiles are all awake goes through the flat sweep (Conway's rule, halos
    /// filled), and only while every tile is awake.
    fn pairs(&self) -> bool {
        self.rule == Rule::CONWAY && (self.topology != Topology::Torus || wraps(true, self.width))
    }

    // ANCHOR: step
    /// Advance one generation on this thread.
    pub fn step(&mut self) {
        if self.words == 0 || self.height == 0 {
            return;
        }
        let active = self.active_tiles();
        let ctx = self.ctx(&self.cur);
        let band_len = TILE_ROWS * self.stride;
        let tiles_x = self.tiles_x;
        // Each band writes its tiles' change flags into its own stretch of `changed`.
        let mut changed = std::mem::take(&mut self.changed);
        let board = &mut self.next[self.stride..(self.height + 1) * self.stride];
        for (j, ((out, act), ch)) in board
            .chunks_mut(band_len)
            .zip(active.chunks(tiles_x))
            .zip(changed.chunks_mut(tiles_x))
            .enumerate()
        {
            ctx.band(j, out, act, ch);
        }
        self.changed = changed;
        if ctx.wraps() {
            // The bands wrapped their own rows; the halo rows are left.
            wrap_rows(&mut self.next, self.stride, self.height);
        }
        std::mem::swap(&mut self.cur, &mut self.next);
    }
    // ANCHOR_END: step

    /// A tile must be recomputed when it or a neighbour tile changed last time.
    fn active_tiles(&self) -> Vec<bool> {
        active_of(&self.changed, self.tiles_x, self.tiles_y, self.topology == Topology::Torus)
    }

    /// What every band reads, over the current buffer `cur`.
    fn ctx<'a>(&self, cur: &'a [u64]) -> Ctx<'a> {
        Ctx {
            width: self.width,
            height: self.height,
            words: self.words,
            stride: self.stride,
            rule: self.rule,
            simd: self.simd,
            torus: self.topology == Topology::Torus,
            cur,
            tiles_x: self.tiles_x,
        }
    }

    // ANCHOR: team
    /// `generations` steps by `team` threads that live for the whole run,
    /// each owning an equal run of bands, and meet at a spinning barrier
    /// twice a generation. A thread pool handed each generation anew (rayon's,
    /// as this engine had it before) lets its workers fall asleep between
    /// generations, and waking them took a quarter of a 4096x4096 torus
    /// generation here: two cores ran 1.3x one core's speed (on 1024x1024,
    /// 0.8x).
    ///
    /// While every tile is awake, generations go two at a time: band `j`
    /// steps to `g + 1`, then band `j - 1`, whose neighbours now hold
    /// `g + 1`, steps on to `g + 2` over its own rows of generation `g`
    /// (band `j` has read them already). A band's rows then come through the
    /// cache once for two generations instead of twice; on a board larger
    /// than a core's cache that is what limited the sweep. A thread's first
    /// and last band wait for the second step until its neighbours' bands
    /// (and, on a torus, the halo rows) hold `g + 1`.
    fn advance_team(&mut self, generations: u64, team: usize) {
        use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
        const STOP: u8 = 0;
        const ONE: u8 = 1;
        const TWO: u8 = 2;
        let band_len = TILE_ROWS * self.stride;
        let (len, tiles, tiles_x) = (self.cur.len(), self.changed.len(), self.tiles_x);
        let mut active = vec![true; tiles];
        // The buffers never move: generation g reads bufs[g % 2] and writes the other.
        let shared = Shared {
            bufs: [self.cur.as_mut_ptr(), self.next.as_mut_ptr()],
            changed: self.changed.as_mut_ptr(),
            active: active.as_mut_ptr(),
        };
        let sync = SpinBarrier::new(team);
        let plan = AtomicU8::new(STOP);
        let this = &*self;
        let (stride, height, tiles_y) = (this.stride, this.height, this.tiles_y);
        let torus = this.topology == Topology::Torus;
        let (wraps_rows, pairs) = (wraps(torus, this.width), this.pairs());
        // Band `j` from generation `g` to `g + 1`. While a pair is planned
        // every tile is awake, so `active` holds for both of its steps.
        let band = |g: u64, j: usize| {
            let (cur, next) = (shared.buf(g), shared.buf(g + 1));
            let rows = ((j + 1) * TILE_ROWS).min(height) - j * TILE_ROWS;
            // SAFETY: between two barriers every thread reads buffer `g`
            // (except rows a later step of its own overwrites, after every
            // read of them) and `active`, and writes only rows of its own
            // bands and their change flags (the threads' runs of bands do not
            // overlap); both buffers are `len` long and outlive the scope.
            let (cur, out, act, ch) = unsafe {
                (
                    std::slice::from_raw_parts(cur, len),
                    std::slice::from_raw_parts_mut(next.add(stride + j * band_len), rows * stride),
                    std::slice::from_raw_parts(shared.active().add(j * tiles_x), tiles_x),
                    std::slice::from_raw_parts_mut(shared.changed().add(j * tiles_x), tiles_x),
                )
            };
            this.ctx(cur).band(j, out, act, ch);
        };
        // Thread k always takes the same share of the bands, so its half of
        // both buffers stays in its own core's cache from one generation to
        // the next (handing bands out from a shared counter measured slower).
        let share = |k: usize| tiles_y * k / team..tiles_y * (k + 1) / team;
        // Generations g and g + 1 for thread k's bands, but the second step
        // of its first and last band; then those two.
        let two_inner = |g: u64, k: usize| {
            let r = share(k);
            for j in r.clone() {
                band(g, j);
                if j >= r.start + 2 {
                    band(g + 1, j - 1);
                }
            }
        };
        let two_edges = |g: u64, k: usize| {
            let r = share(k);
            if !r.is_empty() {
                band(g + 1, r.start);
                if r.end - 1 > r.start {
                    band(g + 1, r.end - 1);
                }
            }
        };
        // The halo rows of buffer `g`, by thread 0 alone.
        let wrap = |g: u64| {
            if wraps_rows {
                // SAFETY: the other threads wait at a barrier meanwhile.
                let buf = unsafe { std::slice::from_raw_parts_mut(shared.buf(g), len) };
                wrap_rows(buf, stride, height);
            }
        };
        // One generation (`ONE`) or the first part of two, for thread k.
        let run = |k: usize, g: u64, what: u8| match what {
            ONE => {
                for j in share(k) {
                    band(g, j);
                }
            }
            _ => two_inner(g, k),
        };
        std::thread::scope(|s| {
            let (sync, plan) = (&sync, &plan);
            for k in 1..team {
                let (run, two_edges) = (&run, &two_edges);
                s.spawn(move || {
                    let mut g = 0;
                    loop {
                        sync.wait();
                        let what = plan.load(Relaxed);
                        if what == STOP {
                            return;
                        }
                        run(k, g, what);
                        sync.wait();
                        if what == TWO {
                            sync.wait();
                            two_edges(g, k);
                            sync.wait();
                        }
                        g += what as u64;
                    }
                });
            }
            let mut g = 0;
            while g < generations {
                // SAFETY: the other threads wait at the barrier while this
                // one alone reads the change flags and writes `active`.
                let all = unsafe {
                    let changed = std::slice::from_raw_parts(shared.changed(), tiles);
                    let now = active_of(changed, tiles_x, tiles_y, torus);
                    std::slice::from_raw_parts_mut(shared.active(), tiles).copy_from_slice(&now);
                    now.iter().all(|&a| a)
                };
                let what = if pairs && all && g + 2 <= generations { TWO } else { ONE };
                plan.store(what, Relaxed);
                sync.wait();
                run(0, g, what);
                sync.wait();
                wrap(g + 1);
                if what == TWO {
                    sync.wait();
                    two_edges(g, 0);
                    sync.wait();
                    wrap(g + 2);
                }
                g += what as u64;
            }
            plan.store(STOP, Relaxed);
            sync.wait();
        });
        if generations % 2 == 1 {
            std::mem::swap(&mut self.cur, &mut self.next);
        }
    }
    // ANCHOR_END: team
}

/// Raw views of a board shared by [`LifeCube::advance_team`]'s threads.
#[derive(Clone, Copy)]
struct Shared {
    bufs: [*mut u64; 2],
    changed: *mut bool,
    active: *mut bool,
}

impl Shared {
    /// The buffer generation `g` reads (and generation `g - 1` wrote).
    fn buf(&self, g: u64) -> *mut u64 {
        self.bufs[(g % 2) as usize]
    }
    fn changed(&self) -> *mut bool {
        self.changed
    }
    fn active(&self) -> *mut bool {
        self.active
    }
}

// SAFETY: the team's barriers order every access (see `advance_team`).
unsafe impl Send for Shared {}
// SAFETY: as for `Send`: the pointers are only followed between barriers.
unsafe impl Sync for Shared {}

/// How many threads advance a board of `bands` bands: rayon's count (one per
/// core, or `RAYON_NUM_THREADS`), at most one per band.
fn team_size(bands: usize) -> usize {
    rayon::current_num_threads().min(bands)
}

/// A barrier whose waiters spin (yielding after a while, in case the cores
/// are oversubscribed) instead of sleeping: a generation is a fraction of a
/// millisecond, about what a sleeping thread takes to wake.
struct SpinBarrier {
    team: usize,
    arrived: std::sync::atomic::AtomicUsize,
    round: std::sync::atomic::AtomicUsize,
}

impl SpinBarrier {
    fn new(team: usize) -> SpinBarrier {
        SpinBarrier { team, arrived: 0.into(), round: 0.into() }
    }

    fn wait(&self) {
        use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
        let round = self.round.load(Acquire);
        if self.arrived.fetch_add(1, AcqRel) + 1 == self.team {
            self.arrived.store(0, Relaxed);
            self.round.store(round + 1, Release);
            return;
        }
        let mut spins = 0u32;
        while self.round.load(Acquire) == round {
            if spins < 1 << 16 {
                spins += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// A tile must be recomputed when it or a neighbour tile changed last time.
fn active_of(changed: &[bool], tiles_x: usize, tiles_y: usize, torus: bool) -> Vec<bool> {
    // A dense soup changes everywhere: then everything is active.
    if changed.iter().all(|&c| c) {
        return changed.to_vec();
    }
    let (tx, ty) = (tiles_x as isize, tiles_y as isize);
    let wrap = |v: isize, n: isize| {
        if v < 0 {
            v + n
        } else if v >= n {
            v - n
        } else {
            v
        }
    };
    let mut active = vec![false; changed.len()];
    for j in 0..ty {
        for i in 0..tx {
            if !changed[(j * tx + i) as usize] {
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

/// What every band needs to read while the next generation is written.
struct Ctx<'a> {
    width: usize,
    height: usize,
    words: usize,
    stride: usize,
    rule: Rule,
    simd: Simd,
    torus: bool,
    cur: &'a [u64],
    tiles_x: usize,
}

impl Ctx<'_> {
    fn wraps(&self) -> bool {
        wraps(self.torus, self.width)
    }

    /// Compute band `j` into `out` (its rows of the next buffer) and which of
    /// its tiles changed into `changed`.
    fn band(&self, j: usize, out: &mut [u64], active: &[bool], changed: &mut [bool]) {
        let y0 = j * TILE_ROWS;
        let rows = out.len() / self.stride;
        // The flat stagger-step pass is written for Conway's rule and reads its
        // neighbours from the halos; other rules, and a torus whose halos are
        // not filled, go through the general adder below.
        let halos = !self.torus || self.wraps();
        if self.rule == Rule::CONWAY && halos && active.iter().all(|&a| a) {
            self.full_band(y0, rows, out, changed);
        } else {
            self.active_runs(y0, rows, out, active, changed);
        }
        // A row's ends lie in the band's first and last tiles. If neither was
        // computed, they kept their values and the halo words still match.
        if self.wraps() && (active[0] || active[self.tiles_x - 1]) {
            for row in out.chunks_mut(self.stride) {
                wrap_row(row);
            }
        }
    }

    /// The runs of active tiles of a band, each through the general adder.
    fn active_runs(&self, y0: usize, rows: usize, out: &mut [u64], active: &[bool], changed: &mut [bool]) {
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
    /// A band whose tiles are all active: sweep it in strips of `STRIP` words
    /// (four on AVX2) straight from the haloed buffer.
    /// Its copies are written by hand, not by `simd_copies!`, because the
    /// AVX-512 one also picks the kernel.
    fn full_band(&self, y0: usize, rows: usize, out: &mut [u64], changed: &mut [bool]) {
        #[cfg(target_arch = "x86_64")]
        {
            if self.simd >= Simd::Avx512 && std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU has AVX-512F, checked just above.
                return unsafe { self.full_band_avx512(y0, rows, out, changed) };
            }
            if self.simd >= Simd::Avx2 && std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2, checked just above.
                return unsafe { self.full_band_avx2(y0, rows, out, changed) };
            }
        }
        self.full_band_portable(y0, rows, out, changed)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f")]
    unsafe fn full_band_avx512(&self, y0: usize, rows: usize, out: &mut [u64], changed: &mut [bool]) {
        // The hand-written strip also needs VBMI2's double shifts; without
        // them the compiler's own eight-word strip is the best we have.
        let kernel =
            if std::arch::is_x86_feature_detected!("avx512vbmi2") { Kernel::Avx512 } else { Kernel::Words };
        self.full_band_with(y0, rows, out, changed, kernel)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn full_band_avx2(&self, y0: usize, rows: usize, out: &mut [u64], changed: &mut [bool]) {
        self.full_band_with(y0, rows, out, changed, Kernel::Avx2)
    }

    #[inline(always)]
    fn full_band_portable(&self, y0: usize, rows: usize, out: &mut [u64], changed: &mut [bool]) {
        self.full_band_with(y0, rows, out, changed, Kernel::Words)
    }

    #[inline(always)]
    fn full_band_with(&self, y0: usize, rows: usize, out: &mut [u64], changed: &mut [bool], kernel: Kernel) {
        // The band's rows y0-1 ..= y0+rows with their halos.
        let buf = &self.cur[y0 * self.stride..(y0 + rows + 2) * self.stride];
        self.sweep_band(buf, rows, out, changed, kernel);
    }

    /// Sweep the band's rows `buf` (from the row above it to the row below)
    /// strip by strip into `out`.
    #[inline(always)]
    fn sweep_band(&self, buf: &[u64], rows: usize, out: &mut [u64], changed: &mut [bool], kernel: Kernel) {
        let (words, stride) = (self.words, self.stride);
        changed.fill(false);
        // A strip's changes, word by word, into the flags of the tiles they fall in.
        let mut mark = |col: usize, diff: &[u64]| {
            for (k, &d) in diff.iter().enumerate() {
                changed[(col + k) / TILE_WORDS] |= d != 0;
            }
        };
        let mut col = 0;
        #[cfg(target_arch = "x86_64")]
        if kernel == Kernel::Avx512 {
            while col + 8 <= words {
                // SAFETY: `Kernel::Avx512` is chosen only on a CPU with AVX-512F and VBMI2.
                mark(col, &unsafe { avx512::strip(buf, stride, col, rows, out) });
                col += 8;
            }
        }
        #[cfg(target_arch = "x86_64")]
        if kernel == Kernel::Avx2 {
            while col + 4 <= words {
                // SAFETY: `Kernel::Avx2` is chosen only on a CPU with AVX2.
                mark(col, &[unsafe { avx2::strip(buf, stride, col, rows, out) }]);
                col += 4;
            }
        }
        let _ = kernel;
        while col + STRIP <= words {
            mark(col, &strip::<STRIP>(buf, stride, col, rows, out));
            col += STRIP;
        }
        while col < words {
            mark(col, &strip::<1>(buf, stride, col, rows, out));
            col += 1;
        }
        if !self.width.is_multiple_of(64) {
            // Bounded board: cells past the right edge stay dead.
            let mask = (1u64 << (self.width % 64)) - 1;
            for r in 0..rows {
                out[r * stride + words] &= mask;
            }
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
        let start = (y as usize + 1) * self.stride + 1;
        Some(&self.cur[start..start + self.words])
    }

    simd_copies! {
        /// Rows `y0 .. y0+rows`, words `w0 .. w1`: the adder network proper,
        /// compiled again so that AVX2 and AVX-512 machines get wider words
        /// (each capped by `self.simd`).
        fn run(&self, y0: usize, rows: usize, w0: usize, w1: usize, out: &mut [u64], diff: &mut [u64])
            -> () => run_portable;
        run_avx512: "avx512f" if self.simd >= Simd::Avx512 && has!("avx512f");
        run_avx2: "avx2" if self.simd >= Simd::Avx2 && has!("avx2");
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
            let row = (y + 1) * self.stride + 1;
            let alive = &self.cur[row + w0..row + w1];
            let dst = &mut out[dy * self.stride + 1 + w0..dy * self.stride + 1 + w1];
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

/// A row of cells into its words (`out`: one word per 64 cells, the last
/// one partly filled). With AVX-512BW a compare of 64 bytes gives the word
/// in one instruction, which halves the conversion of a large board.
fn pack_row(cells: &[bool], out: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512bw") {
        // SAFETY: the CPU has AVX-512BW (and so AVX-512F), checked just above.
        return unsafe { pack_row_avx512(cells, out) };
    }
    pack_row_portable(cells, out);
}

fn pack_row_portable(cells: &[bool], out: &mut [u64]) {
    for (cells, w) in cells.chunks(64).zip(out) {
        *w = pack(cells);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn pack_row_avx512(cells: &[bool], out: &mut [u64]) {
    use std::arch::x86_64::{_mm512_loadu_si512, _mm512_test_epi8_mask};
    let whole = cells.len() / 64;
    let mut sixty_fours = cells.chunks_exact(64);
    for (c, w) in (&mut sixty_fours).zip(out.iter_mut()) {
        // SAFETY: `c` is 64 readable bytes; the load needs no alignment.
        let v = unsafe { _mm512_loadu_si512(c.as_ptr().cast()) };
        *w = _mm512_test_epi8_mask(v, v);
    }
    let rest = sixty_fours.remainder();
    if !rest.is_empty() {
        out[whole] = pack(rest);
    }
}

/// A row's words into its cells (`cells.len()` of them), the inverse of
/// [`pack_row`]; with AVX-512BW a masked move writes 64 cells at once.
fn unpack_row(words: &[u64], cells: &mut [bool]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512bw") {
        // SAFETY: the CPU has AVX-512BW (and so AVX-512F), checked just above.
        return unsafe { unpack_row_avx512(words, cells) };
    }
    unpack_row_portable(words, cells);
}

fn unpack_row_portable(words: &[u64], cells: &mut [bool]) {
    for (&w, cells) in words.iter().zip(cells.chunks_mut(64)) {
        unpack(w, cells);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn unpack_row_avx512(words: &[u64], cells: &mut [bool]) {
    use std::arch::x86_64::{_mm512_maskz_mov_epi8, _mm512_set1_epi8, _mm512_storeu_si512};
    let ones = _mm512_set1_epi8(1);
    let whole = cells.len() / 64;
    let mut sixty_fours = cells.chunks_exact_mut(64);
    for (c, &w) in (&mut sixty_fours).zip(words) {
        // SAFETY: `c` is 64 writable bytes, each written 0 or 1 (a valid
        // bool); the store needs no alignment.
        unsafe { _mm512_storeu_si512(c.as_mut_ptr().cast(), _mm512_maskz_mov_epi8(w, ones)) };
    }
    let rest = sixty_fours.into_remainder();
    if !rest.is_empty() {
        unpack(words[whole], rest);
    }
}

/// Up to 64 cells into one word, cell `k` at bit `k`. Eight cells at a time:
/// their bytes (each 0 or 1) read as one little-endian word, and a multiply
/// that gathers the low bit of each byte into the top byte. Table 3.1 times
/// LIFECUBE with this conversion included, so it must not cost more than a
/// few generations.
fn pack(cells: &[bool]) -> u64 {
    let mut word = 0;
    let mut eights = cells.chunks_exact(8);
    for (i, c) in (&mut eights).enumerate() {
        let bytes = u64::from_le_bytes(std::array::from_fn(|j| c[j] as u8));
        word |= (bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * i);
    }
    let done = cells.len() - eights.remainder().len();
    for (j, &c) in eights.remainder().iter().enumerate() {
        word |= (c as u64) << (done + j);
    }
    word
}

/// A word's first `cells.len()` (at most 64) cells, written into `cells`, a
/// byte of cells at a time through a table of the 256 bytes' cells.
fn unpack(word: u64, cells: &mut [bool]) {
    const SPREAD: [[bool; 8]; 256] = {
        let mut t = [[false; 8]; 256];
        let mut b = 0;
        while b < 256 {
            let mut k = 0;
            while k < 8 {
                t[b][k] = b >> k & 1 == 1;
                k += 1;
            }
            b += 1;
        }
        t
    };
    let whole = cells.len() / 8;
    let mut eights = cells.chunks_exact_mut(8);
    for (byte, out) in (&mut eights).enumerate() {
        out.copy_from_slice(&SPREAD[(word >> (8 * byte) & 0xff) as usize]);
    }
    for (k, c) in eights.into_remainder().iter_mut().enumerate() {
        *c = word >> (8 * whole + k) & 1 == 1;
    }
}

// ANCHOR: halo
/// Do the halos hold the far side of the board? Only on a torus whose width
/// is whole words: otherwise the wrap does not fall on a word boundary, and
/// only the general path, which finds its neighbours itself, runs there.
fn wraps(torus: bool, width: usize) -> bool {
    torus && width.is_multiple_of(64)
}

/// Fill a row's halo words from its far ends (a torus whose width is whole words).
#[inline(always)]
fn wrap_row(row: &mut [u64]) {
    let words = row.len() - 2;
    (row[0], row[words + 1]) = (row[words], row[1]);
}

/// Fill the halo rows above and below a torus from its last and first rows.
fn wrap_rows(buf: &mut [u64], stride: usize, height: usize) {
    buf.copy_within(height * stride..(height + 1) * stride, 0);
    buf.copy_within(stride..2 * stride, (height + 1) * stride);
}
// ANCHOR_END: halo

/// Words per strip: one AVX-512 register of 64-bit lanes.
const STRIP: usize = 8;

/// How a full band is swept: strips of plain words (which the compiler
/// vectorises as well as it can), or the hand-written AVX2 and AVX-512 strips below.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kernel {
    Words,
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx2,
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    Avx512,
}

// ANCHOR: strip
/// The stagger step: walk down a strip of `S` words, keeping the horizontal
/// sums of the rows above and at the current row in registers, so each row's
/// sums are computed once and each input word is loaded once. `buf` holds the
/// band's rows with a halo word on each side; `col` is the strip's first word.
/// Returns, per word of the strip, the cells that changed in any of its rows.
#[inline(always)]
fn strip<const S: usize>(buf: &[u64], stride: usize, col: usize, rows: usize, out: &mut [u64]) -> [u64; S] {
    // Not a closure: closures are not compiled with the caller's vector instructions.
    let at = |row: usize| row * stride + col..row * stride + col + S + 2;
    let (mut a, mut b) = (strip_sums::<S>(&buf[at(0)]), strip_sums::<S>(&buf[at(1)]));
    let mut d = [0u64; S];
    for r in 0..rows {
        let c = strip_sums::<S>(&buf[at(r + 2)]);
        let now = &buf[(r + 1) * stride + col + 1..(r + 1) * stride + col + 1 + S];
        let dst = &mut out[r * stride + col + 1..r * stride + col + 1 + S];
        for k in 0..S {
            let (x0, n0, n1, _) = total(a.0[k], a.1[k], b.0[k], b.1[k], c.0[k], c.1[k]);
            let v = (x0 & n0 & !n1) | (now[k] & !x0 & !n0 & n1);
            d[k] |= v ^ now[k];
            dst[k] = v;
        }
        (a, b) = (b, c);
    }
    d
}
// ANCHOR_END: strip

// ANCHOR: avx2
/// The stagger step written out for AVX2, a strip of four words in one
/// 256-bit register. Written by hand because the compiler, given the same
/// sums on arrays of words, builds each row's west and east neighbours with
/// shuffles across lanes; two unaligned loads, one word to either side, do it
/// for free and let the strip run at twice the speed.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// The strip of words `col .. col+4` of a band: as [`super::strip`], but
    /// returning the OR of the strip's changes folded into one word.
    #[target_feature(enable = "avx2")]
    pub(super) fn strip(buf: &[u64], stride: usize, col: usize, rows: usize, out: &mut [u64]) -> u64 {
        // Every pointer below stays inside these bounds.
        assert!(col + 4 + 2 <= stride && buf.len() >= (rows + 2) * stride && out.len() >= rows * stride);
        let base = buf[col + 1..].as_ptr();
        let dst = out[col + 1..].as_mut_ptr();
        // SAFETY: row r's loads read buf[r*stride + col ..= r*stride + col + 5],
        // within row r (col + 5 < stride) for r < rows + 2; the stores write
        // out[r*stride + col + 1 ..= r*stride + col + 4] for r < rows.
        unsafe {
            let (mut a0, mut a1) = sums(base);
            let (mut b0, mut b1) = sums(base.add(stride));
            let mut changed = _mm256_setzero_si256();
            for r in 0..rows {
                let (c0, c1) = sums(base.add((r + 2) * stride));
                let now = _mm256_loadu_si256(base.add((r + 1) * stride).cast());
                // The 3x3 total x0 + 2 n, n = n0 + 2 n1 (+ 4 n2, not needed).
                let ab = _mm256_xor_si256(a0, b0);
                let x0 = _mm256_xor_si256(ab, c0);
                let k1 = _mm256_or_si256(_mm256_and_si256(a0, b0), _mm256_and_si256(c0, ab));
                let (p, q) = (_mm256_xor_si256(a1, b1), _mm256_and_si256(a1, b1));
                let (s, t) = (_mm256_xor_si256(c1, k1), _mm256_and_si256(c1, k1));
                let n0 = _mm256_xor_si256(p, s);
                let n1 = _mm256_xor_si256(_mm256_xor_si256(q, t), _mm256_and_si256(p, s));
                // Total 3: born or survives; total 4: a live cell survives.
                let three = _mm256_andnot_si256(n1, _mm256_and_si256(x0, n0));
                let four = _mm256_andnot_si256(_mm256_or_si256(x0, n0), _mm256_and_si256(now, n1));
                let v = _mm256_or_si256(three, four);
                changed = _mm256_or_si256(changed, _mm256_xor_si256(v, now));
                _mm256_storeu_si256(dst.add(r * stride).cast(), v);
                (a0, a1, b0, b1) = (b0, b1, c0, c1);
            }
            let mut lanes = [0u64; 4];
            _mm256_storeu_si256(lanes.as_mut_ptr().cast(), changed);
            lanes[0] | lanes[1] | lanes[2] | lanes[3]
        }
    }

    /// Row sums of the four words at `p`, whose west and east neighbours are
    /// read from one word either side.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn sums(p: *const u64) -> (__m256i, __m256i) {
        // SAFETY: the caller keeps p-1 ..= p+4 inside one buffer row.
        unsafe {
            let c = _mm256_loadu_si256(p.cast());
            let l = _mm256_loadu_si256(p.sub(1).cast());
            let r = _mm256_loadu_si256(p.add(1).cast());
            let west = _mm256_or_si256(_mm256_slli_epi64(c, 1), _mm256_srli_epi64(l, 63));
            let east = _mm256_or_si256(_mm256_srli_epi64(c, 1), _mm256_slli_epi64(r, 63));
            let x = _mm256_xor_si256(west, east);
            (_mm256_xor_si256(x, c), _mm256_or_si256(_mm256_and_si256(west, east), _mm256_and_si256(x, c)))
        }
    }
}
// ANCHOR_END: avx2

// ANCHOR: avx512
/// The stagger step for AVX-512: eight words in one register, and every
/// Boolean function of three inputs in one instruction (`vpternlogq`, its
/// truth table as the immediate), so the adder network that takes the AVX2
/// strip 28 operations per row takes ten here. VBMI2's double shift builds a
/// row's west and east neighbours in one instruction each.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    /// Truth tables for `_mm512_ternarylogic_epi64(a, b, c, T)`: `A`, `B`
    /// and `C` are the tables of the inputs themselves.
    const A: i32 = 0xf0;
    const B: i32 = 0xcc;
    const C: i32 = 0xaa;
    const XOR3: i32 = A ^ B ^ C;
    const MAJ: i32 = (A & B) | (A & C) | (B & C);

    /// The strip of words `col .. col+8` of a band, as [`super::strip`].
    #[target_feature(enable = "avx512f,avx512vbmi2")]
    pub(super) fn strip(buf: &[u64], stride: usize, col: usize, rows: usize, out: &mut [u64]) -> [u64; 8] {
        // Every pointer below stays inside these bounds.
        assert!(col + 8 + 2 <= stride && buf.len() >= (rows + 2) * stride && out.len() >= rows * stride);
        let base = buf[col + 1..].as_ptr();
        let dst = out[col + 1..].as_mut_ptr();
        // SAFETY: row r's loads read buf[r*stride + col ..= r*stride + col + 9],
        // within row r (col + 9 < stride) for r < rows + 2; the stores write
        // out[r*stride + col + 1 ..= r*stride + col + 8] for r < rows.
        unsafe {
            let (_, mut a0, mut a1) = sums(base);
            let (mut now, mut b0, mut b1) = sums(base.add(stride));
            let mut changed = _mm512_setzero_si512();
            for r in 0..rows {
                let (below, c0, c1) = sums(base.add((r + 2) * stride));
                // The 3x3 total is x0 + 2 (a1 + b1 + c1 + k1), where k1 carries x0's sum.
                let x0 = _mm512_ternarylogic_epi64(a0, b0, c0, XOR3);
                let k1 = _mm512_ternarylogic_epi64(a0, b0, c0, MAJ);
                let p = _mm512_ternarylogic_epi64(a1, b1, c1, XOR3);
                let m = _mm512_ternarylogic_epi64(a1, b1, c1, MAJ);
                // (a1 + b1 + c1 + k1) = p + 2 m + k1: its bits n0 and n1 (4 needs no bit:
                // a total of 8 or 9 is dead either way).
                let n0 = _mm512_xor_si512(p, k1);
                let n1 = _mm512_ternarylogic_epi64(m, p, k1, A ^ (B & C));
                // Total 3: born or survives; total 4: a live cell survives.
                let three = _mm512_ternarylogic_epi64(x0, n0, n1, A & B & !C);
                let four = _mm512_ternarylogic_epi64(x0, n0, n1, !A & !B & C);
                let v = _mm512_ternarylogic_epi64(three, now, four, A | (B & C));
                changed = _mm512_ternarylogic_epi64(changed, v, now, A | (B ^ C));
                _mm512_storeu_si512(dst.add(r * stride).cast(), v);
                (a0, a1, b0, b1, now) = (b0, b1, c0, c1, below);
            }
            let mut lanes = [0u64; 8];
            _mm512_storeu_si512(lanes.as_mut_ptr().cast(), changed);
            lanes
        }
    }

    /// The eight words at `p` and their row sums (bit 0 and bit 1 of west +
    /// centre + east), whose west and east neighbours come from one word either side.
    #[inline]
    #[target_feature(enable = "avx512f,avx512vbmi2")]
    unsafe fn sums(p: *const u64) -> (__m512i, __m512i, __m512i) {
        // SAFETY: the caller keeps p-1 ..= p+8 inside one buffer row.
        unsafe {
            let c = _mm512_loadu_si512(p.cast());
            let l = _mm512_loadu_si512(p.sub(1).cast());
            let r = _mm512_loadu_si512(p.add(1).cast());
            // west: (c << 1) | (l >> 63); east: (c >> 1) | (r << 63).
            let west = _mm512_shldi_epi64::<1>(c, l);
            let east = _mm512_shrdi_epi64::<1>(c, r);
            let s0 = _mm512_ternarylogic_epi64(west, c, east, XOR3);
            let s1 = _mm512_ternarylogic_epi64(west, c, east, MAJ);
            (c, s0, s1)
        }
    }
}
// ANCHOR_END: avx512

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
    LifeCube::from_grid(g, rule, topology, parallel).advance(generations, parallel)
}

/// `generations` steps on one core with vector kernels no wider than `simd`.
pub fn evolve_with(g: &Grid, rule: Rule, topology: Topology, generations: u64, simd: Simd) -> Grid {
    LifeCube::new(g, rule, topology).with_simd(simd).advance(generations, false)
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The row conversions (AVX-512BW where the CPU has it) agree with
        /// the obvious cell-by-cell packing, and unpacking inverts them, on
        /// rows of every length mod 64, ragged last words included.
        #[test]
        fn rows_pack_and_unpack_as_cell_by_cell(cells in proptest::collection::vec(any::<bool>(), 0..300)) {
            let words = cells.len().div_ceil(64);
            let mut packed = vec![0u64; words];
            pack_row(&cells, &mut packed);
            let mut obvious = vec![0u64; words];
            for (k, &c) in cells.iter().enumerate() {
                obvious[k / 64] |= u64::from(c) << (k % 64);
            }
            prop_assert_eq!(&packed, &obvious);
            let mut portable = vec![0u64; words];
            pack_row_portable(&cells, &mut portable);
            prop_assert_eq!(&portable, &obvious);
            let mut back = vec![true; cells.len()];
            unpack_row(&packed, &mut back);
            prop_assert_eq!(&back, &cells);
            let mut back = vec![true; cells.len()];
            unpack_row_portable(&packed, &mut back);
            prop_assert_eq!(&back, &cells);
        }
    }
}
