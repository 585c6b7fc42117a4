//! The tile engine (`--algorithm tiles`): the board cut into tiles of 64
//! cells by [`ROWS`] rows, each one word per row stepped by LIFECUBE's adder
//! network, with work only where something changes.
//!
//! Three ideas make settled soups cheap:
//!
//! - **Links, not lookups.** Each tile keeps the indices of its eight
//!   neighbours. On the plane a tile is created (and linked) the first time
//!   a change reaches its edge; a hash map is consulted only then, never per
//!   generation.
//! - **Two generations in every tile.** A tile holds generation `t` and
//!   `t - 1` in two buffers; a step writes `t + 1` over `t - 1`. If a tile's
//!   cells and the ring of cells around it are the same at `t` as at `t - 2`,
//!   then `t + 1` equals `t - 1`, which the buffer already holds: the tile is
//!   skipped. Still lifes (period 1) and blinkers, beacons and other period-2
//!   debris (period 2) are all asleep by this one test, at no cost, until a
//!   change reaches them.
//! - **Edges tell neighbours.** A step records, per tile, whether its cells
//!   differ from two generations back anywhere, on each edge row and column
//!   and in each corner. Only a changed edge wakes the neighbour behind it.
//!
//! A step visits just the tiles that changed and their woken neighbours (a
//! list carried from one step to the next), so a sleeping tile costs nothing;
//! within an awake tile, only the band of rows next to a change is
//! recomputed, so a glider costs a few rows, not 64.
//!
//! Book: Part II, chapter 3, "The tile engine" (`book/src/thesis/ch3.md`).

use crate::life::grid::{Grid, Topology};
use crate::life::lifecube::{self, combine, three_sum};
use crate::life::rule::Rule;
use crate::simd::simd_copies;
use rustc_hash::FxHashMap;

/// Rows per tile: a tile is 64 cells wide (one word) and `ROWS` tall.
pub const ROWS: usize = 64;
/// Cells of the rows above and below included: the rows a step reads.
const EXT: usize = ROWS + 2;

// ANCHOR: flags
/// Where a tile differs from two generations back: anywhere, on an edge row
/// or column, in a corner cell. Bit `1 + d` matches neighbour direction `d`.
const ANY: u16 = 1;
const ALL: u16 = 0x1ff;
/// Neighbour directions (dx, dy): N, S, W, E, NW, SE, NE, SW; `d ^ 1` is
/// the opposite of `d`.
const DIRS: [(i64, i64); 8] = [(0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, 1), (1, -1), (-1, 1)];
const N: usize = 0;
const S: usize = 1;
const W: usize = 2;
const E: usize = 3;
const NW: usize = 4;
const SE: usize = 5;
const NE: usize = 6;
const SW: usize = 7;
// ANCHOR_END: flags

/// The always-dead tile every missing neighbour links to.
const DEAD: u32 = 0;

// ANCHOR: tile
/// A tile's cells: buffer `g % 2` holds generation `g` (the current one
/// and the one before).
type Cells = [[u64; ROWS]; 2];

/// A tile's place, links and flags, kept apart from the cells so that the
/// walk over the work list touches few cache lines.
#[derive(Debug, Clone)]
struct Meta {
    /// How the current generation differs from two generations back (see `ANY`).
    diff: u16,
    /// The same, row by row: bit `r` of `dirty` is set when row `r` differs
    /// anywhere, of `west` and `east` when its first or last cell does.
    /// A step recomputes only the rows next to a change (see `need`).
    dirty: u64,
    west: u64,
    east: u64,
    /// Neighbour indices in the order of `DIRS`.
    nbr: [u32; 8],
    /// Tile coordinates: cells `64 x ..` and `ROWS y ..`.
    pos: (i64, i64),
    /// Cells used across (64 except in a torus' last column) and rows used.
    width: u32,
    rows: u32,
    /// The generation in which the tile was last put on the work list.
    stamp: u64,
    /// Whole (64 x ROWS) and so are the neighbours it reads: the fast path.
    plain: bool,
}
// ANCHOR_END: tile

impl Meta {
    fn new(pos: (i64, i64), width: u32, rows: u32) -> Meta {
        Meta { diff: 0, dirty: 0, west: 0, east: 0, nbr: [DEAD; 8], pos, width, rows, stamp: 0, plain: true }
    }

    /// Bit `r` set for each of the tile's rows.
    fn row_mask(&self) -> u64 {
        if self.rows == 64 { !0 } else { (1u64 << self.rows) - 1 }
    }

    /// Counts as changed everywhere (before the first step).
    fn all_changed(&mut self) {
        let m = self.row_mask();
        (self.diff, self.dirty, self.west, self.east) = (ALL, m, m, m);
    }
}

/// A pattern on the unbounded plane or on a torus, in tiles.
#[derive(Debug, Clone)]
pub struct Tiles {
    rule: Rule,
    meta: Vec<Meta>,
    bufs: Vec<Cells>,
    /// Plane only: tile coordinates to index, consulted when a tile is created.
    index: FxHashMap<(i64, i64), u32>,
    torus: Option<(usize, usize)>,
    generation: u64,
    /// Tiles whose `diff` is not zero.
    changed: Vec<u32>,
    /// Scratch: the tiles to compute in this step.
    work: Vec<u32>,
    /// Scratch: for each tile of `work`, the rows to compute.
    need: Vec<u64>,
    /// Tile computations so far (for the statistics).
    pub tile_steps: u64,
    /// Rows computed so far: how much of the board is busy, row by row.
    pub rows_computed: u64,
}

impl Tiles {
    /// A pattern on the unbounded plane with its top-left cell at `origin`.
    /// Rules with B0 (the dead plane would flash) are the caller's to refuse.
    pub fn plane(g: &Grid, origin: (i64, i64), rule: Rule) -> Tiles {
        let mut t = Tiles::empty(rule, None);
        for (x, y) in g.live_cells() {
            let (x, y) = (origin.0 + x as i64, origin.1 + y as i64);
            let i = t.tile_at((x.div_euclid(64), y.div_euclid(ROWS as i64)));
            t.bufs[i as usize][0][y.rem_euclid(ROWS as i64) as usize] |= 1 << x.rem_euclid(64);
        }
        t.start();
        t
    }

    /// A `g.width()` x `g.height()` torus.
    pub fn torus(g: &Grid, rule: Rule) -> Tiles {
        let (w, h) = (g.width(), g.height());
        let mut t = Tiles::empty(rule, Some((w, h)));
        let (tx, ty) = (w.div_ceil(64), h.div_ceil(ROWS));
        for j in 0..ty {
            for i in 0..tx {
                let width = (w - 64 * i).min(64) as u32;
                let rows = (h - ROWS * j).min(ROWS) as u32;
                t.meta.push(Meta::new((i as i64, j as i64), width, rows));
                t.bufs.push([[0; ROWS]; 2]);
            }
        }
        for k in 1..t.meta.len() {
            let (i, j) = t.meta[k].pos;
            for (d, (dx, dy)) in DIRS.iter().enumerate() {
                let (a, b) = ((i + dx).rem_euclid(tx as i64), (j + dy).rem_euclid(ty as i64));
                t.meta[k].nbr[d] = 1 + (b as usize * tx + a as usize) as u32;
            }
        }
        for k in 1..t.meta.len() {
            let whole = |m: &Meta| m.width == 64 && m.rows == ROWS as u32;
            let m = &t.meta[k];
            let plain = whole(m) && m.nbr.iter().all(|&n| whole(&t.meta[n as usize]));
            t.meta[k].plain = plain;
        }
        for (x, y) in g.live_cells() {
            let k = 1 + (y / ROWS) * tx + x / 64;
            t.bufs[k][0][y % ROWS] |= 1 << (x % 64);
        }
        t.start();
        t
    }

    fn empty(rule: Rule, torus: Option<(usize, usize)>) -> Tiles {
        Tiles {
            rule,
            meta: vec![Meta::new((i64::MIN, i64::MIN), 64, ROWS as u32)],
            bufs: vec![[[0; ROWS]; 2]],
            index: FxHashMap::default(),
            torus,
            generation: 0,
            changed: Vec::new(),
            work: Vec::new(),
            need: Vec::new(),
            tile_steps: 0,
            rows_computed: 0,
        }
    }

    /// Every tile counts as changed everywhere before the first step: there
    /// is no generation two back to compare with.
    fn start(&mut self) {
        self.changed = (1..self.meta.len() as u32).collect();
        for t in &mut self.meta[1..] {
            t.all_changed();
        }
    }

    /// The plane tile at tile coordinates `p`, created and linked if missing.
    fn tile_at(&mut self, p: (i64, i64)) -> u32 {
        if let Some(&k) = self.index.get(&p) {
            return k;
        }
        let k = self.meta.len() as u32;
        self.meta.push(Meta::new(p, 64, ROWS as u32));
        self.bufs.push([[0; ROWS]; 2]);
        self.index.insert(p, k);
        for (d, (dx, dy)) in DIRS.iter().enumerate() {
            if let Some(&m) = self.index.get(&(p.0 + dx, p.1 + dy)) {
                self.meta[k as usize].nbr[d] = m;
                // The opposite direction is the neighbour's way back to us.
                self.meta[m as usize].nbr[d ^ 1] = k;
            }
        }
        k
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Tiles allocated (the dead sentinel not counted).
    pub fn tile_count(&self) -> usize {
        self.meta.len() - 1
    }

    pub fn population(&self) -> u64 {
        let cur = (self.generation % 2) as usize;
        self.bufs[1..].iter().flat_map(|t| t[cur].iter()).map(|w| w.count_ones() as u64).sum()
    }

    pub fn advance(&mut self, generations: u64) {
        for _ in 0..generations {
            self.step();
        }
    }

    // ANCHOR: step
    /// One generation: wake the tiles next to changed edges, compute them.
    pub fn step(&mut self) {
        let next = self.generation + 1;
        let mut work = std::mem::take(&mut self.work);
        work.clear();
        for ci in 0..self.changed.len() {
            let c = self.changed[ci] as usize;
            let diff = self.meta[c].diff;
            if self.meta[c].stamp != next {
                self.meta[c].stamp = next;
                work.push(c as u32);
            }
            for (d, (dx, dy)) in DIRS.iter().enumerate() {
                if diff >> (d + 1) & 1 == 0 {
                    continue;
                }
                let mut n = self.meta[c].nbr[d];
                if n == DEAD {
                    let (x, y) = self.meta[c].pos;
                    n = self.tile_at((x + dx, y + dy));
                }
                let t = &mut self.meta[n as usize];
                if t.stamp != next {
                    t.stamp = next;
                    work.push(n);
                }
            }
        }
        self.changed.clear();
        // Every tile's rows are chosen before any tile's flags are overwritten.
        let mut need = std::mem::take(&mut self.need);
        need.clear();
        need.extend(work.iter().map(|&k| self.need(k as usize)));
        self.compute(&work, &need);
        self.rows_computed += need.iter().map(|n| n.count_ones() as u64).sum::<u64>();
        self.need = need;
        // The first step compared with nothing: its tiles count as changed everywhere.
        if self.generation == 0 {
            for &k in &work {
                self.meta[k as usize].all_changed();
            }
        }
        self.changed.extend(work.iter().copied().filter(|&k| self.meta[k as usize].diff != 0));
        self.tile_steps += work.len() as u64;
        self.work = work;
        self.generation = next;
    }
    // ANCHOR_END: step

    // ANCHOR: need
    /// The rows of tile `k` to compute in this step. Row `r` of generation
    /// `t + 1` depends on rows `r - 1 ..= r + 1` of generation `t`, with a cell
    /// more on each side; if none of those cells differs from generation
    /// `t - 2`, the row equals row `r` of `t - 1`, which the buffer about to be
    /// overwritten already holds. So a row is needed when the tile or a
    /// neighbour changed on it or on a row next to it: a glider crossing a
    /// tile costs a handful of rows, not all of them.
    fn need(&self, k: usize) -> u64 {
        let m = &self.meta[k];
        let nb = |d: usize| &self.meta[m.nbr[d] as usize];
        let last = |d: usize, bits: u64| bits >> (nb(d).rows - 1) & 1;
        let own = m.dirty | nb(W).east | nb(E).west;
        let top = last(N, nb(N).dirty) | last(NW, nb(NW).east) | last(NE, nb(NE).west);
        let bottom = (nb(S).dirty | nb(SW).east | nb(SE).west) & 1;
        (own | own << 1 | own >> 1 | top | bottom << (m.rows - 1)) & m.row_mask()
    }
    // ANCHOR_END: need

    simd_copies! {
        /// Compute the tiles of `work`, through the widest vector unit the CPU has.
        fn compute(&mut self, work: &[u32], need: &[u64]) -> () => compute_with;
        compute_avx512: "avx512f" if has!("avx512f");
        compute_avx2: "avx2" if has!("avx2");
    }

    // ANCHOR: compute
    #[inline(always)]
    fn compute_with(&mut self, work: &[u32], need: &[u64]) {
        let cur = (self.generation % 2) as usize;
        let rule = self.rule;
        // Declared once: a step reads only the entries it wrote for its band.
        let (mut s0, mut s1) = ([0u64; EXT], [0u64; EXT]);
        let (mut out, mut scratch) = ([0u64; ROWS], [0u64; ROWS]);
        for (&k, &need) in work.iter().zip(need) {
            let t = &self.meta[k as usize];
            let (width, rows) = (t.width as usize, t.rows as usize);
            let buf = |d: usize| &self.bufs[t.nbr[d] as usize][cur];
            let centre = &self.bufs[k as usize][cur];
            // The band of rows lo..hi to compute (row r's sums sit at r + 1).
            let (lo, hi) = if t.plain {
                if need == 0 {
                    (0, 0)
                } else {
                    // A whole tile among whole tiles: the row sums straight from the buffers.
                    let (lo, hi) = (need.trailing_zeros() as usize, 64 - need.leading_zeros() as usize);
                    let (w, e) = (buf(W), buf(E));
                    // The rows above and below the tile are read only when the band touches them.
                    if lo == 0 {
                        (s0[0], s1[0]) = three_sum(buf(NW)[ROWS - 1], buf(N)[ROWS - 1], buf(NE)[ROWS - 1]);
                    }
                    for r in lo.saturating_sub(1)..(hi + 1).min(ROWS) {
                        (s0[r + 1], s1[r + 1]) = three_sum(w[r], centre[r], e[r]);
                    }
                    if hi == ROWS {
                        (s0[ROWS + 1], s1[ROWS + 1]) = three_sum(buf(SW)[0], buf(S)[0], buf(SE)[0]);
                    }
                    (lo, hi)
                }
            } else {
                self.edge_sums(k as usize, cur, &mut s0, &mut s1);
                (0, ROWS)
            };
            combine(
                rule,
                [
                    &s0[lo..hi],
                    &s1[lo..hi],
                    &s0[lo + 1..hi + 1],
                    &s1[lo + 1..hi + 1],
                    &s0[lo + 2..],
                    &s1[lo + 2..],
                ],
                &centre[lo..hi],
                &mut out[lo..hi],
                &mut scratch[lo..hi],
            );
            let mask = if width == 64 { !0 } else { (1u64 << width) - 1 };
            let old = &mut self.bufs[k as usize][cur ^ 1];
            let (mut dirty, mut west, mut east) = (0u64, 0u64, 0u64);
            for r in lo..hi {
                let o = if r < rows { out[r] & mask } else { 0 };
                let x = o ^ old[r];
                dirty |= ((x != 0) as u64) << r;
                west |= (x & 1) << r;
                east |= (x >> (width - 1) & 1) << r;
                old[r] = o;
            }
            let m = &mut self.meta[k as usize];
            (m.dirty, m.west, m.east) = (dirty, west, east);
            m.diff = edge_flags(dirty, west, east, rows);
        }
    }

    /// The row sums of a tile at a torus' ragged edge: narrower than a word,
    /// fewer rows than a tile, or next to such a tile.
    #[inline(always)]
    fn edge_sums(&self, k: usize, cur: usize, s0: &mut [u64; EXT], s1: &mut [u64; EXT]) {
        let t = &self.meta[k];
        let (width, rows) = (t.width as usize, t.rows as usize);
        let nb = t.nbr.map(|i| (&self.meta[i as usize], &self.bufs[i as usize][cur]));
        // The west, centre and east words of rows -1 ..= rows.
        let (mut wv, mut cv, mut ev) = ([0u64; EXT], [0u64; EXT], [0u64; EXT]);
        // A west neighbour narrower than a word (a torus' last column)
        // has its east cell at bit `width - 1`: move it to bit 63.
        let west = |(m, b): (&Meta, &[u64; ROWS]), r: usize| b[r] << (64 - m.width);
        let last = |d: usize| nb[d].0.rows as usize - 1;
        (wv[0], cv[0], ev[0]) = (west(nb[NW], last(NW)), nb[N].1[last(N)], nb[NE].1[last(NE)]);
        for r in 0..ROWS {
            wv[r + 1] = west(nb[W], r);
            cv[r + 1] = self.bufs[k][cur][r];
            ev[r + 1] = nb[E].1[r];
        }
        (wv[rows + 1], cv[rows + 1], ev[rows + 1]) = (west(nb[SW], 0), nb[S].1[0], nb[SE].1[0]);
        for r in rows + 2..EXT {
            (wv[r], cv[r], ev[r]) = (0, 0, 0);
        }
        if width < 64 {
            // A narrow tile: its east neighbour's west cell sits just past its own.
            for r in 0..EXT {
                cv[r] |= (ev[r] & 1) << width;
                ev[r] = 0;
            }
        }
        for r in 0..EXT {
            (s0[r], s1[r]) = three_sum(wv[r], cv[r], ev[r]);
        }
    }
    // ANCHOR_END: compute

    /// The current generation tile by tile: each tile's coordinates (cells
    /// `64 x ..` and `ROWS y ..`) and its rows, bit `x` of row `y` the cell
    /// at (64 tx + x, ROWS ty + y). Empty tiles are left out.
    pub fn tile_rows(&self) -> impl Iterator<Item = ((i64, i64), &[u64; ROWS])> {
        let cur = (self.generation % 2) as usize;
        self.meta[1..]
            .iter()
            .zip(&self.bufs[1..])
            .map(move |(m, b)| (m.pos, &b[cur]))
            .filter(|(_, r)| r.iter().any(|&w| w != 0))
    }

    /// The live cells, as a grid cropped to their bounding box and the
    /// coordinates of its top-left cell (plane); on a torus, the whole board
    /// at (0, 0).
    pub fn to_grid(&self) -> (Grid, (i64, i64)) {
        let cur = (self.generation % 2) as usize;
        let cells = || {
            self.meta[1..].iter().zip(&self.bufs[1..]).flat_map(move |(t, b)| {
                b[cur].iter().enumerate().flat_map(move |(r, &w)| {
                    ones(w).map(move |k| (t.pos.0 * 64 + k as i64, t.pos.1 * ROWS as i64 + r as i64))
                })
            })
        };
        if let Some((w, h)) = self.torus {
            let mut g = Grid::new(w, h);
            for (x, y) in cells() {
                g.set(x as usize, y as usize, true);
            }
            return (g, (0, 0));
        }
        let Some((x0, y0, x1, y1)) = cells().fold(None, |b: Option<(i64, i64, i64, i64)>, (x, y)| {
            Some(match b {
                None => (x, y, x, y),
                Some((a, b, c, d)) => (a.min(x), b.min(y), c.max(x), d.max(y)),
            })
        }) else {
            return (Grid::new(0, 0), (0, 0));
        };
        let mut g = Grid::new((x1 - x0 + 1) as usize, (y1 - y0 + 1) as usize);
        for (x, y) in cells() {
            g.set((x - x0) as usize, (y - y0) as usize, true);
        }
        (g, (x0, y0))
    }
}

/// The flags of a tile from its row masks: the rows that changed, and
/// the rows whose first (`west`) or last (`east`) cell changed.
#[inline(always)]
fn edge_flags(dirty: u64, west: u64, east: u64, rows: usize) -> u16 {
    let flag = |b: u64, d: usize| ((b != 0) as u16) << (d + 1);
    if dirty == 0 {
        return 0;
    }
    let (first, last) = (1u64, 1u64 << (rows - 1));
    ANY | flag(dirty & first, N)
        | flag(dirty & last, S)
        | flag(west, W)
        | flag(east, E)
        | flag(west & first, NW)
        | flag(east & first, NE)
        | flag(west & last, SW)
        | flag(east & last, SE)
}

/// The set bits of a word, lowest first.
fn ones(mut w: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (w != 0).then(|| {
            let k = w.trailing_zeros();
            w &= w - 1;
            k
        })
    })
}

// ANCHOR: torus_driver
/// Generations the tiles run on a torus before they judge how busy it is.
const PROBE: u64 = 16;
/// Above this share of tiles computed per step, the board counts as dense.
const BUSY: f64 = 0.3;
/// Generations LIFECUBE's full sweep runs on a dense board between probes.
const DENSE_RUN: u64 = 512;

/// `generations` steps on a torus the size of `g`. While most tiles are busy
/// (a fresh soup) the bookkeeping of tiles costs more than it saves, and
/// LIFECUBE's full-board sweep runs instead, `DENSE_RUN` generations at a
/// time; once the board settles below `BUSY` the tiles run to the end.
pub fn evolve_torus(g: &Grid, rule: Rule, generations: u64) -> Grid {
    let mut grid = g.clone();
    let mut left = generations;
    loop {
        let mut t = Tiles::torus(&grid, rule);
        let probe = left.min(PROBE);
        t.advance(probe / 2);
        let before = t.tile_steps;
        t.advance(probe - probe / 2);
        left -= probe;
        let per_step = (t.tile_steps - before) as f64 / (probe - probe / 2).max(1) as f64;
        if left == 0 || per_step <= BUSY * t.tile_count() as f64 {
            t.advance(left);
            return t.to_grid().0;
        }
        let run = left.min(DENSE_RUN);
        grid = lifecube::evolve(&t.to_grid().0, rule, Topology::Torus, run, false);
        left -= run;
    }
}

/// `generations` steps on a torus with the tiles alone (no dense sweep).
pub fn evolve_torus_tiles_only(g: &Grid, rule: Rule, generations: u64) -> Grid {
    let mut t = Tiles::torus(g, rule);
    t.advance(generations);
    t.to_grid().0
}
// ANCHOR_END: torus_driver

/// `generations` steps on the plane; the final live rectangle and the offset
/// of its top-left cell from the input's. B0 rules are refused (`None`): the
/// dead plane itself would change.
pub fn evolve_plane(g: &Grid, rule: Rule, generations: u64) -> Option<(Grid, (i64, i64))> {
    if rule.birth & 1 == 1 {
        return None;
    }
    let mut t = Tiles::plane(g, (0, 0), rule);
    t.advance(generations);
    Some(t.to_grid())
}
