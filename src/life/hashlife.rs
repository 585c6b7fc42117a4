//! HashLife (Gosper 1984): the plane as a quadtree whose identical subtrees
//! are stored once, in a hash table, each node remembering its own future.
//! A node of level `k` is a `2^k` x `2^k` square; its *result* is its centre
//! square (level `k - 1`) advanced `2^j` generations, `j <= k - 2`, computed
//! from nine overlapping sub-squares and memoised on the node. Regular
//! patterns repeat the same nodes over and over, so a jump of `2^40`
//! generations of a Gosper gun costs a few thousand node look-ups.
//!
//! Here the leaves are 8x8 squares held in one `u64`; the recursion stops at
//! 32x32 nodes (sixteen leaves), stepped by the LIFECUBE adder network
//! (`three_sum`, `combine`) up to eight generations at once, two rows to a word. Arbitrary generation
//! counts (up to 2^63 and beyond) are the binary digits of the count, one
//! power-of-two jump each. Memory is capped: when the arena outgrows the cap
//! between jumps, the nodes reachable from the root are kept, renumbered and
//! rehashed, and the rest dropped (with the memoised results that pointed at them).
//!
//! A rule with birth on 0 (B0) is refused: the empty plane would turn alive
//! everywhere at once, which no finite quadtree holds.
//!
//! Book: Part II, chapter 3, "HashLife" (`book/src/thesis/ch3.md`).

use crate::error::{Error, Result};
use crate::life::grid::Grid;
use crate::life::lifecube::{combine, three_sum};
use crate::life::rule::Rule;
use hashbrown::HashTable;
use rustc_hash::{FxBuildHasher, FxHashMap};
use std::hash::BuildHasher;

/// Leaves are 8x8 squares: level 3.
pub const LEAF_LEVEL: u32 = 3;
/// No memoised result.
const NO_RESULT: u8 = u8::MAX;
/// Bytes one node costs: the arena entry plus its share of the hash table
/// (a 4-byte slot and a control byte, up to two slots a node after growth).
pub const NODE_BYTES: usize = std::mem::size_of::<Node>() + 10;

// ANCHOR: node
/// One canonical square in 32 bytes, two to a cache line. Larger nodes keep
/// their four quadrants NW, NE, SW, SE in `kids`; a leaf keeps its 64 cells
/// (bit `8y + x`) in the first two words of `kids` and `u32::MAX` in the
/// other two, where no node can point, so that the four words are the key
/// of every node alike.
#[derive(Debug, Clone, Copy)]
struct Node {
    kids: [u32; 4],
    pop: u64,
    res: u32,
    level: u8,
    /// The `j` of the memoised result `res` (`NO_RESULT` when none).
    res_j: u8,
}
// ANCHOR_END: node

impl Node {
    /// A leaf's cells.
    fn bits(&self) -> u64 {
        self.kids[0] as u64 | (self.kids[1] as u64) << 32
    }
}

/// The four words of a leaf with these cells.
fn leaf_words(bits: u64) -> [u32; 4] {
    [bits as u32, (bits >> 32) as u32, u32::MAX, u32::MAX]
}

/// The key of a node in the hash table: its four words.
fn key_of(n: &Node) -> (u64, u64) {
    kids_key(n.kids)
}

fn kids_key(k: [u32; 4]) -> (u64, u64) {
    (k[0] as u64 | (k[1] as u64) << 32, k[2] as u64 | (k[3] as u64) << 32)
}

fn hash_of(key: (u64, u64)) -> u64 {
    FxBuildHasher.hash_one(key)
}

/// A pattern in the unbounded plane, as a hashed quadtree.
#[derive(Debug, Clone)]
pub struct HashLife {
    rule: Rule,
    nodes: Vec<Node>,
    /// Node ids, found by their key: the keys themselves stay in `nodes`, so
    /// a slot is 4 bytes and the table small enough to stay in cache.
    table: HashTable<u32>,
    /// The empty node of each level (index = level), built on demand.
    empties: Vec<u32>,
    /// The root, always centred on the point between cells (-1, 0), (0, 0),
    /// (-1, 1) and (0, 1), as in Golly's macrocell files: growing the root
    /// and taking its result both keep the centre, so it never moves.
    root: u32,
    generation: u128,
    /// Node count at which a collection runs.
    cap_nodes: usize,
    gc_runs: u64,
}

/// Counters for the `--stats` output and the tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct HashStats {
    pub nodes: usize,
    pub gc_runs: u64,
    pub root_level: u32,
}

impl HashLife {
    /// An empty plane under `rule`, with a memory cap in bytes (collections
    /// start once the nodes would take more). Refuses B0 rules.
    pub fn new(rule: Rule, memory_cap_bytes: usize) -> Result<HashLife> {
        check_rule(rule)?;
        let mut h = HashLife {
            rule,
            // Room for the first 16,384 nodes from the start: growing the
            // table rehashes every node so far, which measured 15-25% of a
            // Gosper gun's run to 2^16-2^40 generations.
            nodes: Vec::with_capacity(1 << 14),
            table: HashTable::with_capacity(1 << 14),
            empties: Vec::new(),
            root: 0,
            generation: 0,
            cap_nodes: (memory_cap_bytes / NODE_BYTES).max(1 << 12),
            gc_runs: 0,
        };
        h.root = h.empty(LEAF_LEVEL + 1);
        Ok(h)
    }

    /// A grid with its top-left cell at `origin`: its live runs, row by row,
    /// become the tree through [`HashLife::from_runs`].
    pub fn from_grid(g: &Grid, origin: (i64, i64), rule: Rule, memory_cap_bytes: usize) -> Result<HashLife> {
        let mut runs = Vec::new();
        for (y, row) in g.cells().chunks(g.width().max(1)).enumerate() {
            let mut x = 0;
            loop {
                // Most of a fleet's or a gun's box is empty: skip it eight cells a compare.
                while row.len() - x >= 8 && row[x..x + 8] == [false; 8] {
                    x += 8;
                }
                let Some(dead) = row[x..].iter().position(|&c| c) else { break };
                x += dead;
                let len = row[x..].iter().take_while(|&&c| c).count();
                runs.push((origin.0 + x as i64, origin.1 + y as i64, len as u64));
                x += len;
            }
        }
        HashLife::from_runs(&runs, rule, memory_cap_bytes)
    }

    // ANCHOR: from_tiles
    /// A pattern handed over by the tile engine: 64x64 tiles, tile (tx, ty)
    /// holding cells (64 tx + x, 64 ty + y) in bit `x` of row `y`. Each tile
    /// becomes a level-6 square at once (no cell-by-cell walk over the
    /// pattern's box, which after thousands of generations of escaping gliders
    /// is mostly empty), and the squares are joined level by level up to a
    /// root centred as always. The quadtree's level-6 squares start one row
    /// lower than the tiles (its centre lies between rows 0 and 1), so each
    /// square takes 63 rows of one tile and the first row of the tile below.
    pub fn from_tiles<'a>(
        tiles: impl IntoIterator<Item = ((i64, i64), &'a [u64; 64])>,
        rule: Rule,
        memory_cap_bytes: usize,
    ) -> Result<HashLife> {
        let mut h = HashLife::new(rule, memory_cap_bytes)?;
        let mut squares: FxHashMap<(i64, i64), [u64; 64]> = FxHashMap::default();
        for ((tx, ty), rows) in tiles {
            // Rows 1..64 open square (tx, ty); row 0 closes square (tx, ty - 1).
            squares.entry((tx, ty)).or_insert([0; 64])[..63].copy_from_slice(&rows[1..]);
            squares.entry((tx, ty - 1)).or_insert([0; 64])[63] = rows[0];
        }
        let mut level = 6;
        let mut nodes: FxHashMap<(i64, i64), u32> = FxHashMap::default();
        for (p, rows) in &squares {
            if rows.iter().any(|&r| r != 0) {
                nodes.insert(*p, h.node_of_rows(rows, 0, 6));
            }
        }
        // Join four squares into their parent until only the root's four
        // quadrants, at (-1 | 0, -1 | 0), remain.
        while nodes.keys().any(|&(x, y)| !(-1..=0).contains(&x) || !(-1..=0).contains(&y)) {
            let mut up: FxHashMap<(i64, i64), [Option<u32>; 4]> = FxHashMap::default();
            for (&(x, y), &n) in &nodes {
                let q = (x.rem_euclid(2) + 2 * y.rem_euclid(2)) as usize;
                up.entry((x.div_euclid(2), y.div_euclid(2))).or_insert([None; 4])[q] = Some(n);
            }
            let e = h.empty(level);
            nodes = up.into_iter().map(|(p, q)| (p, h.join(q.map(|n| n.unwrap_or(e))))).collect();
            level += 1;
        }
        let e = h.empty(level);
        let at = |p| nodes.get(&p).copied().unwrap_or(e);
        h.root = h.join([at((-1, -1)), at((0, -1)), at((-1, 0)), at((0, 0))]);
        Ok(h)
    }
    // ANCHOR_END: from_tiles

    /// A pattern given as horizontal runs of live cells (x, y, length), as a
    /// reader finds them in a file too wide for a dense grid: the runs are
    /// cut into 64x64 tiles, which become the tree as the tile engine's do.
    pub fn from_runs(runs: &[(i64, i64, u64)], rule: Rule, memory_cap_bytes: usize) -> Result<HashLife> {
        let mut tiles: FxHashMap<(i64, i64), [u64; 64]> = FxHashMap::default();
        for &(x, y, len) in runs {
            let (end, ty, row) = (x + len as i64, y.div_euclid(64), y.rem_euclid(64) as usize);
            let mut at = x;
            while at < end {
                let (tx, bit) = (at.div_euclid(64), at.rem_euclid(64));
                let n = (end - at).min(64 - bit);
                let mask = if n == 64 { u64::MAX } else { ((1u64 << n) - 1) << bit };
                tiles.entry((tx, ty)).or_insert([0; 64])[row] |= mask;
                at += n;
            }
        }
        let mut h = HashLife::from_tiles(tiles.iter().map(|(&p, rows)| (p, rows)), rule, memory_cap_bytes)?;
        h.shrink();
        Ok(h)
    }

    /// Make `root` (built with [`HashLife::leaf`] and [`HashLife::join`], as a
    /// macrocell reader does) the pattern; a leaf is widened to level 4.
    pub fn set_root(&mut self, root: u32) {
        self.root = root;
        if self.level(root) == LEAF_LEVEL {
            let e = self.empty(LEAF_LEVEL);
            // The 16x16 square with the same centre holds the leaf's cells
            // shifted by (4, 4): split them among its four quadrants.
            let b = self.leaf_bits(root);
            let split = |s: u32| -> u64 {
                // The part of the leaf's cells that falls in quadrant s of
                // the 16x16 square centred like the leaf.
                let (qx, qy) = (s & 1, s >> 1);
                let mut out = 0u64;
                for i in (0..64).filter(|i| b >> i & 1 == 1) {
                    let (x, y) = (i % 8 + 4, i / 8 + 4);
                    if x / 8 == qx as u64 && y / 8 == qy as u64 {
                        out |= 1 << ((y % 8) * 8 + x % 8);
                    }
                }
                out
            };
            let q = [0, 1, 2, 3].map(split);
            let q = q.map(|bits| if bits == 0 { e } else { self.leaf(bits) });
            self.root = self.join(q);
        }
    }

    /// Change the rule (refusing B0); memoised results are forgotten.
    pub fn set_rule(&mut self, rule: Rule) -> Result<()> {
        check_rule(rule)?;
        if rule != self.rule {
            self.rule = rule;
            for n in self.nodes.iter_mut() {
                n.res_j = NO_RESULT;
            }
        }
        Ok(())
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }
    pub fn generation(&self) -> u128 {
        self.generation
    }
    pub fn set_generation(&mut self, g: u128) {
        self.generation = g;
    }
    pub fn population(&self) -> u64 {
        self.nodes[self.root as usize].pop
    }
    pub fn stats(&self) -> HashStats {
        HashStats { nodes: self.nodes.len(), gc_runs: self.gc_runs, root_level: self.level(self.root) }
    }
    pub fn root(&self) -> u32 {
        self.root
    }
    /// Coordinates of the root's top-left cell (y downwards).
    pub fn origin(&self) -> (i128, i128) {
        origin_of(self.level(self.root))
    }
    pub fn level(&self, n: u32) -> u32 {
        self.nodes[n as usize].level as u32
    }
    /// The quadrants of a node above leaf level.
    pub fn kids(&self, n: u32) -> [u32; 4] {
        self.nodes[n as usize].kids
    }
    /// The cells of a leaf, bit `8y + x`.
    pub fn leaf_bits(&self, n: u32) -> u64 {
        self.nodes[n as usize].bits()
    }
    pub fn node_population(&self, n: u32) -> u64 {
        self.nodes[n as usize].pop
    }

    // ANCHOR: intern
    /// The node with this key, made by `make` only when it is new: most
    /// joins find their node, and then skip reading the four kids' levels
    /// and populations (cache misses, a third of a gun's run).
    fn intern_with(&mut self, key: (u64, u64), make: impl FnOnce(&[Node]) -> Node) -> u32 {
        let hash = hash_of(key);
        let nodes = &self.nodes;
        if let Some(&id) = self.table.find(hash, |&id| key_of(&nodes[id as usize]) == key) {
            return id;
        }
        let n = make(&self.nodes);
        debug_assert_eq!(key_of(&n), key);
        if self.table.len() == self.table.capacity() {
            self.grow_table();
        }
        // u32::MAX is never a node, which keeps the key of a leaf apart from the others'.
        let id = u32::try_from(self.nodes.len()).ok().filter(|&id| id < u32::MAX);
        let id = id.expect("HashLife: more than 2^32 - 1 nodes");
        self.nodes.push(n);
        let nodes = &self.nodes;
        self.table.insert_unique(hash, id, |&id| hash_of(key_of(&nodes[id as usize])));
        id
    }
    // ANCHOR_END: intern

    /// Double the table by inserting the nodes afresh in arena order: the
    /// table's own rehash would visit them in slot order, a random read of
    /// a node per slot, which measured 4-12% of a run on Golly's guns and ships.
    fn grow_table(&mut self) {
        let mut table = HashTable::with_capacity(2 * self.table.capacity().max(1 << 14));
        for (id, n) in self.nodes.iter().enumerate() {
            table.insert_unique(hash_of(key_of(n)), id as u32, |_| unreachable!("room was made"));
        }
        self.table = table;
    }

    /// The canonical leaf with these cells.
    pub fn leaf(&mut self, bits: u64) -> u32 {
        let kids = leaf_words(bits);
        self.intern_with(kids_key(kids), |_| Node {
            kids,
            pop: bits.count_ones() as u64,
            level: LEAF_LEVEL as u8,
            res_j: NO_RESULT,
            res: 0,
        })
    }

    /// The canonical node with these quadrants (NW, NE, SW, SE, all one level).
    pub fn join(&mut self, kids: [u32; 4]) -> u32 {
        self.intern_with(kids_key(kids), |nodes| {
            let level = nodes[kids[0] as usize].level + 1;
            let pop = kids.iter().fold(0u64, |p, &k| p.saturating_add(nodes[k as usize].pop));
            Node { kids, pop, level, res_j: NO_RESULT, res: 0 }
        })
    }

    /// The empty node of a level.
    pub fn empty(&mut self, level: u32) -> u32 {
        while self.empties.len() <= level as usize {
            let l = self.empties.len() as u32;
            let id = if l < LEAF_LEVEL {
                u32::MAX // no nodes below leaf level
            } else if l == LEAF_LEVEL {
                self.leaf(0)
            } else {
                let e = self.empties[l as usize - 1];
                self.join([e; 4])
            };
            self.empties.push(id);
        }
        self.empties[level as usize]
    }

    // ANCHOR: base_step
    /// The centre 16x16 of a 32x32 node after `gens` (at most 8) generations,
    /// as four leaves. Stepping the 32 rows at once costs less than the
    /// thirteen 16x16 results the recursion would otherwise build, look up
    /// and join for it, and chaotic regions, which find few of those
    /// results memoised, spend most of their time here.
    fn base_step(&mut self, kids: [u32; 4], gens: u32) -> u32 {
        // Two 32-cell rows to a word: row y in the low half, row y + 16 in the high.
        let mut words = [0u64; 16];
        for (q, &k) in kids.iter().enumerate() {
            let (dx, half) = (16 * (q & 1), 32 * (q >> 1));
            for (y, r) in self.rows16(self.nodes[k as usize].kids).into_iter().enumerate() {
                words[y] |= r << (dx + half);
            }
        }
        step_paired_rows(self.rule, &mut words, gens);
        let leaf_at = |x0: usize, y0: usize| {
            (0..8).fold(0u64, |b, y| {
                let row = if y0 + y < 16 { words[y0 + y] } else { words[y0 + y - 16] >> 32 };
                b | (row >> x0 & 0xff) << (8 * y)
            })
        };
        let quads = [leaf_at(8, 8), leaf_at(16, 8), leaf_at(8, 16), leaf_at(16, 16)];
        let leaves = quads.map(|b| self.leaf(b));
        self.join(leaves)
    }
    // ANCHOR_END: base_step

    /// The sixteen rows (bits 0..16) of a node made of four leaves.
    fn rows16(&self, kids: [u32; 4]) -> [u64; 16] {
        let b = kids.map(|k| self.nodes[k as usize].bits());
        let mut rows = [0u64; 16];
        for y in 0..8 {
            rows[y] = (b[0] >> (8 * y) & 0xff) | (b[1] >> (8 * y) & 0xff) << 8;
            rows[y + 8] = (b[2] >> (8 * y) & 0xff) | (b[3] >> (8 * y) & 0xff) << 8;
        }
        rows
    }

    /// The centre square (one level down) of a node of level 5 or more, not
    /// advanced (a 16x16 root is never shrunk, and results start at 32x32).
    fn centre(&mut self, n: u32) -> u32 {
        let node = self.nodes[n as usize];
        debug_assert!(node.level as u32 > LEAF_LEVEL + 1);
        let k = node.kids.map(|c| self.nodes[c as usize].kids);
        self.join([k[0][3], k[1][2], k[2][1], k[3][0]])
    }

    // ANCHOR: result
    /// The centre of node `n` (level `k`) advanced `2^j` generations, `j <= k - 2`.
    fn result(&mut self, n: u32, j: u32) -> u32 {
        let node = self.nodes[n as usize];
        let k = node.level as u32;
        // A jump grows the root to 32x32 at least, so no 16x16 node is asked.
        debug_assert!(k > LEAF_LEVEL + 1 && j + 2 <= k);
        if node.res_j as u32 == j {
            return node.res;
        }
        let r = if node.pop == 0 {
            self.empty(k - 1)
        } else if k == LEAF_LEVEL + 2 {
            self.base_step(node.kids, 1 << j)
        } else {
            let [nw, ne, sw, se] = node.kids;
            let [a, b, c, d] = [nw, ne, sw, se].map(|q| self.nodes[q as usize].kids);
            // The nine overlapping squares of level k - 1, row by row.
            let n01 = self.join([a[1], b[0], a[3], b[2]]);
            let n10 = self.join([a[2], a[3], c[0], c[1]]);
            let n11 = self.join([a[3], b[2], c[1], d[0]]);
            let n12 = self.join([b[2], b[3], d[0], d[1]]);
            let n21 = self.join([c[1], d[0], c[3], d[2]]);
            let nine = [nw, n01, ne, n10, n11, n12, sw, n21, se];
            // Full speed (j = k - 2) advances twice by 2^(k-3); slower jumps
            // advance once by 2^j and then take centres.
            let first = j.min(k - 3);
            let mut r = [0u32; 9];
            for (i, &q) in nine.iter().enumerate() {
                r[i] = self.result(q, first);
            }
            let quads = [
                self.join([r[0], r[1], r[3], r[4]]),
                self.join([r[1], r[2], r[4], r[5]]),
                self.join([r[3], r[4], r[6], r[7]]),
                self.join([r[4], r[5], r[7], r[8]]),
            ];
            let out =
                if j == k - 2 { quads.map(|q| self.result(q, k - 3)) } else { quads.map(|q| self.centre(q)) };
            self.join(out)
        };
        let m = &mut self.nodes[n as usize];
        m.res = r;
        m.res_j = j as u8;
        r
    }
    // ANCHOR_END: result

    /// The canonical node of `level` whose rows are `rows` from column `x0` on.
    fn node_of_rows(&mut self, rows: &[u64], x0: u32, level: u32) -> u32 {
        let side = 1u32 << level;
        let mask = if side == 64 { u64::MAX } else { ((1u64 << side) - 1) << x0 };
        if rows.iter().all(|r| r & mask == 0) {
            return self.empty(level);
        }
        if level == LEAF_LEVEL {
            let bits = rows.iter().enumerate().fold(0u64, |b, (y, r)| b | (r >> x0 & 0xff) << (8 * y));
            return self.leaf(bits);
        }
        let h = rows.len() / 2;
        let hx = h as u32;
        let (top, bottom) = rows.split_at(h);
        let q = [
            self.node_of_rows(top, x0, level - 1),
            self.node_of_rows(top, x0 + hx, level - 1),
            self.node_of_rows(bottom, x0, level - 1),
            self.node_of_rows(bottom, x0 + hx, level - 1),
        ];
        self.join(q)
    }

    /// Wrap the root in a border of empty cells: one level up, same centre.
    fn expand(&mut self) {
        let k = self.level(self.root);
        let e = self.empty(k - 1);
        let [nw, ne, sw, se] = self.kids(self.root);
        let q = [
            self.join([e, e, e, nw]),
            self.join([e, e, ne, e]),
            self.join([e, sw, e, e]),
            self.join([se, e, e, e]),
        ];
        self.root = self.join(q);
    }

    /// Drop empty border: while the live cells lie in the root's centre
    /// half, the centre becomes the root (the centre point stays).
    pub fn shrink(&mut self) {
        while self.level(self.root) > LEAF_LEVEL + 1 && self.centred() {
            self.root = self.centre(self.root);
        }
    }

    /// Whether every live cell lies in the centre half of the root (its
    /// border ring of grandchildren is empty).
    fn centred(&self) -> bool {
        let [nw, ne, sw, se] = self.kids(self.root);
        if self.level(self.root) == LEAF_LEVEL + 1 {
            // The kids are leaves, which have no kids of their own: each may
            // hold cells only in its 4x4 quarter next to the root's centre.
            const INNER: [u64; 4] = [0xf0f0_f0f0 << 32, 0x0f0f_0f0f << 32, 0xf0f0_f0f0, 0x0f0f_0f0f];
            return [nw, ne, sw, se].iter().zip(INNER).all(|(&q, m)| self.leaf_bits(q) & !m == 0);
        }
        let p = |n: u32| self.nodes[n as usize].pop;
        let [a, b, c, d] = [nw, ne, sw, se].map(|q| self.kids(q));
        [a[0], a[1], a[2], b[0], b[1], b[3], c[0], c[2], c[3], d[1], d[2], d[3]].iter().all(|&g| p(g) == 0)
    }

    // ANCHOR: jump
    /// Advance `2^j` generations: grow the root until the pattern sits in its
    /// centre half and the level allows the jump, once more so that nothing
    /// can reach the edge of the result, then take the root's result.
    pub fn jump(&mut self, j: u32) {
        while self.level(self.root) < j + 2 || !self.centred() {
            self.expand();
        }
        self.expand();
        self.root = self.result(self.root, j);
        self.generation += 1u128 << j;
        if self.nodes.len() > self.cap_nodes {
            self.collect();
        }
    }

    /// Advance any number of generations: one power-of-two jump per binary
    /// digit of the count.
    pub fn advance(&mut self, generations: u64) {
        for j in 0..64 {
            if generations >> j & 1 == 1 {
                self.jump(j);
            }
        }
    }
    // ANCHOR_END: jump

    // ANCHOR: collect
    /// Garbage collection: keep the nodes reachable from the root (and the
    /// empty nodes), renumbered in their old order so that kids still come
    /// before parents, and rebuild the hash table. Memoised results survive
    /// when their target survives. When most of the arena is still live the
    /// cap is doubled, so that collections do not follow one another.
    pub fn collect(&mut self) {
        let mut live = vec![false; self.nodes.len()];
        let mut stack: Vec<u32> = vec![self.root];
        stack.extend(self.empties.iter().copied().filter(|&e| e != u32::MAX));
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut live[n as usize], true) {
                continue;
            }
            let node = &self.nodes[n as usize];
            if node.level as u32 > LEAF_LEVEL {
                stack.extend(node.kids.iter().copied().filter(|&c| !live[c as usize]));
            }
        }
        let mut new_id = vec![u32::MAX; self.nodes.len()];
        let mut count = 0u32;
        for (old, &l) in live.iter().enumerate() {
            if l {
                new_id[old] = count;
                count += 1;
            }
        }
        let mut nodes = Vec::with_capacity(count as usize);
        for (old, node) in self.nodes.iter().enumerate() {
            if !live[old] {
                continue;
            }
            let mut n = *node;
            if n.level as u32 > LEAF_LEVEL {
                n.kids = n.kids.map(|c| new_id[c as usize]);
            }
            if n.res_j != NO_RESULT {
                match new_id[n.res as usize] {
                    u32::MAX => n.res_j = NO_RESULT,
                    r => n.res = r,
                }
            }
            nodes.push(n);
        }
        self.table = HashTable::with_capacity(nodes.len() * 2);
        for (i, n) in nodes.iter().enumerate() {
            self.table
                .insert_unique(hash_of(key_of(n)), i as u32, |&id| hash_of(key_of(&nodes[id as usize])));
        }
        self.root = new_id[self.root as usize];
        self.empties =
            self.empties.iter().map(|&e| if e == u32::MAX { e } else { new_id[e as usize] }).collect();
        self.nodes = nodes;
        self.gc_runs += 1;
        if self.nodes.len() * 2 > self.cap_nodes {
            self.cap_nodes *= 2;
        }
    }
    // ANCHOR_END: collect

    /// The bounding box of the live cells as (x, y, width, height), or None.
    pub fn bounding_box(&self) -> Option<(i128, i128, u128, u128)> {
        if self.population() == 0 {
            return None;
        }
        let mut memo = FxHashMap::default();
        let (x0, y0, x1, y1) = self.bbox(self.root, &mut memo)?;
        let (ox, oy) = self.origin();
        Some((ox + x0 as i128, oy + y0 as i128, x1 - x0 + 1, y1 - y0 + 1))
    }

    /// The box of a node's live cells relative to its top-left corner, inclusive.
    fn bbox(
        &self,
        n: u32,
        memo: &mut FxHashMap<u32, Option<(u128, u128, u128, u128)>>,
    ) -> Option<(u128, u128, u128, u128)> {
        let node = self.nodes[n as usize];
        if node.pop == 0 {
            return None;
        }
        if let Some(&b) = memo.get(&n) {
            return b;
        }
        let b = if node.level as u32 == LEAF_LEVEL {
            let cells = (0..64).filter(|i| node.bits() >> i & 1 == 1);
            let (mut x0, mut y0, mut x1, mut y1) = (7, 7, 0, 0);
            for i in cells {
                let (x, y) = (i % 8, i / 8);
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
            }
            Some((x0, y0, x1, y1))
        } else {
            let h = 1u128 << (node.level - 1);
            let mut acc: Option<(u128, u128, u128, u128)> = None;
            for (q, &c) in node.kids.iter().enumerate() {
                if let Some((a, b, cc, d)) = self.bbox(c, memo) {
                    let (dx, dy) = ((q as u128 & 1) * h, (q as u128 >> 1) * h);
                    let (a, b, cc, d) = (a + dx, b + dy, cc + dx, d + dy);
                    acc = Some(match acc {
                        None => (a, b, cc, d),
                        Some((e, f, g, hh)) => (e.min(a), f.min(b), g.max(cc), hh.max(d)),
                    });
                }
            }
            acc
        };
        memo.insert(n, b);
        b
    }

    /// The live cells as a dense grid cropped to their bounding box, and the
    /// coordinates of its top-left cell; an error when the box is too large
    /// for a dense grid.
    pub fn to_grid(&self) -> Result<(Grid, (i64, i64))> {
        let Some((x, y, w, h)) = self.bounding_box() else {
            return Ok((Grid::new(0, 0), (0, 0)));
        };
        let too_big = || {
            Error::invalid(format!(
                "the pattern is {w}x{h} cells with {} alive: too large for a dense grid \
                 (write it as a macrocell with --to mc, or use --to none)",
                self.population()
            ))
        };
        let (wu, hu) =
            (usize::try_from(w).map_err(|_| too_big())?, usize::try_from(h).map_err(|_| too_big())?);
        let mut g = Grid::try_new(wu, hu).map_err(|_| too_big())?;
        let (ox, oy) = (i64::try_from(x).map_err(|_| too_big())?, i64::try_from(y).map_err(|_| too_big())?);
        self.for_each_cell(|cx, cy| g.set((cx - x) as usize, (cy - y) as usize, true));
        Ok((g, (ox, oy)))
    }

    /// Call `f` with every live cell's coordinates.
    pub fn for_each_cell(&self, mut f: impl FnMut(i128, i128)) {
        let (ox, oy) = self.origin();
        let mut stack = vec![(self.root, ox, oy)];
        while let Some((n, x, y)) = stack.pop() {
            let node = self.nodes[n as usize];
            if node.pop == 0 {
                continue;
            }
            if node.level as u32 == LEAF_LEVEL {
                for i in (0..64).filter(|i| node.bits() >> i & 1 == 1) {
                    f(x + (i % 8) as i128, y + (i / 8) as i128);
                }
            } else {
                let h = 1i128 << (node.level - 1);
                for (q, &c) in node.kids.iter().enumerate() {
                    stack.push((c, x + (q as i128 & 1) * h, y + (q as i128 >> 1) * h));
                }
            }
        }
    }
}

/// Refuse rules with birth on 0 neighbours.
pub fn check_rule(rule: Rule) -> Result<()> {
    if rule.birth & 1 == 1 {
        return Err(Error::invalid(format!(
            "rule {rule}: HashLife cannot run a rule with birth on 0 neighbours (B0): \
             the empty plane would fill at once; use a torus (--torus WxH) instead"
        )));
    }
    Ok(())
}

/// The top-left cell of a root of this level, centred as Golly centres it.
pub fn origin_of(level: u32) -> (i128, i128) {
    let half = 1i128 << (level - 1);
    (-half, 1 - half)
}

// ANCHOR: step_paired_rows
/// Advance a 32x32 square held as sixteen words, row `y` in the low half of
/// word `y` and row `y + 16` in its high half, `gens` generations; cells
/// beyond the square count as dead. After `g` generations only cells at least
/// `g` from the edge are right.
/// Half as many words to step as rows. A shift across the middle of a word
/// mixes the square's east and west edge columns, which are wrong after one
/// generation anyway, so the error stays as near the edge as the dead border's.
fn step_paired_rows(rule: Rule, words: &mut [u64; 16], gens: u32) {
    const LOW: u64 = 0xffff_ffff;
    let (mut s0, mut s1) = ([0u64; 18], [0u64; 18]);
    let (mut out, mut diff) = ([0u64; 16], [0u64; 16]);
    for _ in 0..gens {
        // Above word 0: row -1 (dead) and row 15; below word 15: row 16 and row 32 (dead).
        (s0[0], s1[0]) = three_sum(0, (words[15] & LOW) << 32, 0);
        for w in 0..16 {
            (s0[w + 1], s1[w + 1]) = three_sum(0, words[w], 0);
        }
        (s0[17], s1[17]) = three_sum(0, words[0] >> 32, 0);
        combine(
            rule,
            [&s0[..16], &s1[..16], &s0[1..17], &s1[1..17], &s0[2..], &s1[2..]],
            words,
            &mut out,
            &mut diff,
        );
        *words = out;
    }
}
// ANCHOR_END: step_paired_rows

/// Evolve a grid in the plane with HashLife; returns the final live
/// rectangle and the offset of its top-left cell from the input's, like
/// [`crate::life::evolve_unbounded`].
pub fn evolve_grid(g: &Grid, rule: Rule, generations: u64) -> Result<(Grid, (i64, i64))> {
    let mut h = HashLife::from_grid(g, (0, 0), rule, 1 << 30)?;
    h.advance(generations);
    h.to_grid()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::life::{Topology, naive};

    fn naive_plane(g: &Grid, rule: Rule, gens: u64) -> (Grid, (i64, i64)) {
        let pad = gens as usize + 1;
        let mut b = g.padded(pad);
        for _ in 0..gens {
            b = naive::step(&b, rule, Topology::Bounded);
        }
        match b.bounding_box() {
            None => (Grid::new(0, 0), (0, 0)),
            Some((x, y, w, h)) => (b.crop(x, y, w, h), (x as i64 - pad as i64, y as i64 - pad as i64)),
        }
    }

    #[test]
    fn glider_moves() {
        let g = Grid::from_rows(&[".*.", "..*", "***"]).unwrap();
        for gens in [0, 1, 2, 3, 4, 5, 8, 13, 64, 100] {
            assert_eq!(
                evolve_grid(&g, Rule::CONWAY, gens).unwrap(),
                naive_plane(&g, Rule::CONWAY, gens),
                "{gens}"
            );
        }
    }

    #[test]
    fn b0_refused() {
        let e = HashLife::new("B0/S23".parse().unwrap(), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("B0"), "{e}");
    }

    #[test]
    fn collection_keeps_the_pattern() {
        let g = Grid::from_rows(&[
            "........*.",
            "......*.**",
            "......*.*.",
            "......*...",
            "....*.....",
            "..*.*.....",
        ])
        .unwrap();
        let mut h = HashLife::from_grid(&g, (0, 0), Rule::CONWAY, 0).unwrap();
        for _ in 0..40 {
            h.advance(3);
            h.collect();
        }
        assert!(h.stats().gc_runs >= 40);
        assert_eq!(h.to_grid().unwrap(), naive_plane(&g, Rule::CONWAY, 120));
    }
}
