//! Orphans of every width: for a fixed height H, is there an orphan H cells
//! high at *any* width, and if so how narrow is the narrowest?
//!
//! Read the column automaton of [`super::solve`] as a nondeterministic finite
//! automaton: the states are the pairs `(a, b)` of consecutive parent columns
//! (H+2 cells each), every state is initial and final, and the letters are the
//! 2^H target columns. A target of width W has a parent exactly when the word
//! of its W columns is accepted, so an orphan of height H exists exactly when
//! the automaton is not universal, and the narrowest orphan is the shortest
//! rejected word.
//!
//! The search is the subset construction run breadth-first from the full set,
//! with every distinct state set kept once in a hash store. Two things make it
//! fast enough to close Life's height 3 in seconds: the successor step is
//! word-parallel (each state ORs its precomputed successor rows under every
//! letter into the result at once), and the automaton's vertical-flip symmetry
//! (turning every column upside down maps the automaton onto itself) is folded
//! by keeping one canonical set of each mirror pair, the flip itself being a
//! few bit-index swaps on whole words.
//!
//! When the search closes, the sets it kept are a proof: every member is
//! non-empty and every member's successor under every letter is a member (or
//! its mirror). Before it is written, that family is shrunk to subset-minimal
//! members (antichains, De Wulf, Doyen, Henzinger, Raskin 2006: a successor
//! only has to *contain* a member), each hint moved to a member inside the
//! old one; the certificate is checked by [`super::certificate`] without this
//! code.
//!
//! Book: Part IV, "Orphans of every width" (`book/src/beyond/width.md`).

use super::mask::ones;
use super::table::{Line, MAX_SIDE, Table};
use crate::error::{Error, Result};
use crate::life::{Cell, Rule, SpecGrid};
use rayon::prelude::*;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::Instant;

/// A reference to a kept set, possibly mirrored: `id * 2 + flipped`.
type Ref = u32;

// ANCHOR: automaton
/// The column automaton of one rule and height, with sets of states as
/// bitsets: state `(a, b)` is bit `a * L + b`, L = 2^(H+2) parent columns.
pub struct WidthAutomaton {
    pub height: usize,
    /// Parent columns, 2^(H+2).
    pub columns: usize,
    /// 64-bit words per state set.
    pub words: usize,
    /// 64-bit words per block: one state's successor rows under every letter.
    block: usize,
    /// The block of state `s = (a, b)` is `next[s * block..]`: bits `t * L..
    /// (t + 1) * L` are the columns `c` that may follow `(a, b)` under letter
    /// `t`. Letters side by side (two to a word for height 3) so that one
    /// state ORs one short contiguous block into the result.
    next: Vec<u64>,
    /// The vertical flip as swaps of state-index bits `(i, j)`, each with its
    /// mask of positions (see [`Self::flip_in_place`]).
    swaps: Vec<(usize, usize, u64)>,
    /// The vertical flip of every state (the slow twin of `swaps`).
    flip: Vec<u32>,
}

impl WidthAutomaton {
    pub fn new(rule: Rule, height: usize) -> Result<WidthAutomaton> {
        if !(1..=MAX_SIDE).contains(&height) {
            return Err(Error::invalid(format!("height must be 1..={MAX_SIDE}, not {height}")));
        }
        let table = Table::new(rule, height);
        let columns = table.lines();
        let states = columns * columns;
        let letters = 1usize << height;
        let block = (letters * columns).div_ceil(64);
        let masks: Vec<_> = (0..letters as u32).map(|t| table.step_masks(Line::full(height, t))).collect();
        let mut next = vec![0u64; states * block];
        for s in 0..states {
            for (t, m) in masks.iter().enumerate() {
                for c in m.allowed(s / columns, s % columns).iter() {
                    let bit = t * columns + c;
                    next[s * block + bit / 64] |= 1 << (bit % 64);
                }
            }
        }
        let n = height + 2;
        let rev = |c: usize| (0..n).map(|y| ((c >> y) & 1) << (n - 1 - y)).sum::<usize>();
        let flip = (0..states).map(|s| (rev(s / columns) * columns + rev(s % columns)) as u32).collect();
        // Bit y of a column goes to bit n-1-y, in `b` (index bits 0..n) and
        // in `a` (index bits n..2n).
        let swaps = (0..n / 2)
            .flat_map(|y| [(y, n - 1 - y), (n + y, 2 * n - 1 - y)])
            .map(|(i, j)| {
                let m = match (i < 6, j < 6) {
                    (true, true) => bit_positions(i) & !bit_positions(j),
                    (true, false) => !bit_positions(i),
                    _ => 0,
                };
                (i, j, m)
            })
            .collect();
        Ok(WidthAutomaton { height, columns, words: states.div_ceil(64), block, next, swaps, flip })
    }

    pub fn letters(&self) -> usize {
        1 << self.height
    }

    /// The set of every state (where every word starts).
    pub fn full(&self) -> Vec<u64> {
        let states = self.columns * self.columns;
        let mut v = vec![u64::MAX; self.words];
        if states < 64 {
            v[0] = (1 << states) - 1;
        }
        v
    }

    /// Scratch space for [`Self::successors`].
    pub fn scratch(&self) -> Vec<u64> {
        vec![0; self.columns * self.block]
    }
}
// ANCHOR_END: automaton

impl WidthAutomaton {
    // ANCHOR: successors
    /// The successors of `set` under every letter at once, into `out`
    /// (`letters` sets of `words` words). Every state `(a, b)` ORs its block
    /// of successor rows (all letters) into row `b` of `scratch`; the rows are
    /// then laid out as sets, `(b, c)` being bit `b * L + c`.
    pub fn successors(&self, set: &[u64], out: &mut [u64], scratch: &mut [u64]) {
        let (l, letters, block) = (self.columns, self.letters(), self.block);
        scratch.fill(0);
        for s in ones(set) {
            let b = s & (l - 1);
            let src = &self.next[s * block..(s + 1) * block];
            let dst = &mut scratch[b * block..(b + 1) * block];
            for (d, x) in dst.iter_mut().zip(src) {
                *d |= *x;
            }
        }
        out.fill(0);
        for b in 0..l {
            let rows = &scratch[b * block..(b + 1) * block];
            for t in 0..letters {
                let dst = &mut out[t * self.words..(t + 1) * self.words];
                if l >= 64 {
                    let rw = l / 64;
                    dst[b * rw..(b + 1) * rw].copy_from_slice(&rows[t * rw..(t + 1) * rw]);
                } else {
                    let row = (rows[(t * l) >> 6] >> ((t * l) & 63)) & ((1 << l) - 1);
                    dst[(b * l) >> 6] |= row << ((b * l) & 63);
                }
            }
        }
    }
    // ANCHOR_END: successors

    /// The successors one state at a time, by the automaton's table: the
    /// obvious version, kept as the twin of [`Self::successors`].
    pub fn successors_slow(&self, set: &[u64]) -> Vec<Vec<u64>> {
        let (l, letters, block) = (self.columns, self.letters(), self.block);
        let mut out = vec![vec![0u64; self.words]; letters];
        for s in ones(set) {
            let b = s % l;
            for bit in ones(&self.next[s * block..(s + 1) * block]) {
                let (t, c) = (bit / l, bit % l);
                let st = b * l + c;
                out[t][st / 64] |= 1 << (st % 64);
            }
        }
        out
    }

    // ANCHOR: flip
    /// Turn the set upside down in place. The flip maps state `(a, b)` to
    /// `(rev a, rev b)`, a permutation of the bits of the state's index; it is
    /// a product of swaps of two index bits, and each swap moves whole words:
    /// two bits inside a word (a shift-and-mask "delta swap" on every word),
    /// two bits of the word number (a swap of words), or one of each (a delta
    /// swap between two words).
    pub fn flip_in_place(&self, set: &mut [u64]) {
        for &(i, j, m) in &self.swaps {
            if j < 6 {
                // m: the positions with bit i set and bit j clear, the
                // lower end of each pair the swap exchanges.
                let d = (1 << j) - (1 << i);
                for w in set.iter_mut() {
                    let t = (*w ^ (*w >> d)) & m;
                    *w ^= t ^ (t << d);
                }
            } else if i >= 6 {
                let (bi, bj) = (1usize << (i - 6), 1usize << (j - 6));
                for w in 0..set.len() {
                    if w & bi != 0 && w & bj == 0 {
                        set.swap(w, w - bi + bj);
                    }
                }
            } else {
                // m: the positions with bit i clear.
                let (d, bj) = (1u32 << i, 1usize << (j - 6));
                for w in 0..set.len() {
                    if w & bj == 0 {
                        let t = ((set[w] >> d) ^ set[w + bj]) & m;
                        set[w + bj] ^= t;
                        set[w] ^= t << d;
                    }
                }
            }
        }
    }
    // ANCHOR_END: flip

    /// The set turned upside down.
    pub fn flipped(&self, set: &[u64]) -> Vec<u64> {
        let mut v = set.to_vec();
        self.flip_in_place(&mut v);
        v
    }

    /// The set turned upside down state by state (the twin of [`Self::flipped`]).
    pub fn flipped_slow(&self, set: &[u64]) -> Vec<u64> {
        let mut v = vec![0u64; self.words];
        for s in ones(set) {
            let f = self.flip[s] as usize;
            v[f >> 6] |= 1 << (f & 63);
        }
        v
    }

    /// A letter turned upside down.
    pub fn flip_letter(&self, t: usize) -> usize {
        (0..self.height).map(|y| ((t >> y) & 1) << (self.height - 1 - y)).sum()
    }
}

/// The positions 0..64 whose index has bit `i` set.
fn bit_positions(i: usize) -> u64 {
    (0..64).filter(|p| (p >> i) & 1 == 1).fold(0, |m, p| m | 1 << p)
}

fn hash(s: &[u64]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    s.hash(&mut h);
    h.finish()
}

fn subset(x: &[u64], s: &[u64]) -> bool {
    x.iter().zip(s).all(|(a, b)| a & !b == 0)
}

fn popcount(s: &[u64]) -> u32 {
    s.iter().map(|w| w.count_ones()).sum()
}

/// What the search may spend, and where it reports.
#[derive(Debug, Clone)]
pub struct WidthOptions {
    pub rule: Rule,
    pub height: usize,
    /// Stop after proving every width up to this one (no answer beyond it).
    pub max_width: Option<usize>,
    /// Stop (with the bound reached so far) when the kept sets would exceed this.
    pub memory_cap_bytes: u64,
    /// Stop (with the bound reached so far) after this many seconds.
    pub time_limit_s: Option<f64>,
    /// Save the search after every width, and resume from it when it exists.
    pub checkpoint: Option<PathBuf>,
    /// Print one line per width on stderr.
    pub progress: bool,
    /// Subset tests per member when the closed family is shrunk to a
    /// certificate (`usize::MAX`: exactly the subset-minimal members; 0: no
    /// shrinking, every distinct set).
    pub budget: usize,
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum Verdict {
    /// The search closed: no orphan of this height at any width.
    NoneAtAnyWidth { closed_at: usize },
    /// The narrowest orphan is this wide; `rows` is one of them.
    Narrowest { width: usize, rows: Vec<String> },
    /// No orphan of this height is at most `width` wide (the search stopped).
    LowerBound { width: usize, stopped_by: String },
}

/// The result of a search, with its costs.
#[derive(Debug, Clone, serde::Serialize)]
pub struct WidthResult {
    pub rule: String,
    pub height: usize,
    #[serde(flatten)]
    pub verdict: Verdict,
    /// The most sets kept for one width (the widest BFS layer).
    pub frontier_peak: usize,
    /// Sets kept in all (one of each mirror pair).
    pub members: usize,
    /// Successor sets computed.
    pub successors: u64,
    pub seconds: f64,
    /// Bytes of the kept sets and their bookkeeping.
    pub store_bytes: u64,
    /// New sets per width: `layers[k]` sets are first reached by words of
    /// length k (one of each mirror pair).
    pub layers: Vec<usize>,
    #[serde(flatten)]
    pub next: NextWidth,
}

/// What one more width would cost (on this machine or sharded over a
/// cluster), from how the search was growing when it stopped; both `None`
/// with fewer than two layers or an empty one before the last.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct NextWidth {
    /// The last layer over the one before.
    pub growth: Option<f64>,
    /// GiB the next width's new sets would take at that growth and at the
    /// search's bytes per kept set.
    pub next_layer_gib: Option<f64>,
}

impl WidthResult {
    fn next_width(&self) -> NextWidth {
        let [.., before, last] = self.layers[..] else { return NextWidth::default() };
        if before == 0 {
            return NextWidth::default();
        }
        let growth = last as f64 / before as f64;
        let per_set = self.store_bytes as f64 / self.members.max(1) as f64;
        NextWidth { growth: Some(growth), next_layer_gib: Some(last as f64 * growth * per_set / GIB) }
    }
}

// ANCHOR: family
/// The kept sets (one canonical set of each mirror pair, in an arena), how
/// each was first reached, and for each expanded one the member (or mirror)
/// that its successor under every letter *is*.
pub struct Family {
    pub words: usize,
    pub letters: usize,
    /// `words` words per member.
    pub sets: Vec<u64>,
    /// Member `i` is `succ_letter(parent)`, turned upside down when `flipped`.
    pub parent: Vec<(u32, u8, bool)>,
    /// `letters` refs per expanded member.
    pub hints: Vec<Ref>,
    /// Where each width's members start (`level_start[k]`: the first of width k).
    pub level_start: Vec<usize>,
    /// Open addressing by hash: the hash's high 32 bits above member id + 1,
    /// 0 for a free slot (the tag spares most reads of the arena).
    table: Vec<u64>,
    /// Subset tests per member when shrinking to a certificate.
    pub budget: usize,
}
// ANCHOR_END: family

impl Family {
    fn new(a: &WidthAutomaton) -> Family {
        let mut f = Family {
            words: a.words,
            letters: a.letters(),
            sets: Vec::new(),
            parent: Vec::new(),
            hints: Vec::new(),
            level_start: vec![0],
            table: vec![0; 1024],
            budget: usize::MAX,
        };
        let full = a.full();
        f.find_or_insert(&full, hash(&full), (0, 0, false));
        f.level_start.push(1);
        f
    }

    pub fn len(&self) -> usize {
        self.parent.len()
    }
    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }
    pub fn set(&self, i: usize) -> &[u64] {
        &self.sets[i * self.words..(i + 1) * self.words]
    }

    /// The member equal to `set`, or a new one reached from `parent`.
    fn find_or_insert(&mut self, set: &[u64], h: u64, parent: (u32, u8, bool)) -> u32 {
        let mask = self.table.len() - 1;
        let tag = h & !0xffff_ffff;
        let mut i = h as usize & mask;
        loop {
            match self.table[i] {
                0 => break,
                e => {
                    let id = (e as u32 - 1) as usize;
                    if e & !0xffff_ffff == tag && self.set(id) == set {
                        return id as u32;
                    }
                }
            }
            i = (i + 1) & mask;
        }
        let id = self.parent.len() as u32;
        self.sets.extend_from_slice(set);
        self.parent.push(parent);
        self.table[i] = tag | (id as u64 + 1);
        if self.len() * 2 > self.table.len() {
            self.grow();
        }
        id
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        let mut table = vec![0u64; size];
        for id in 0..self.len() {
            let h = hash(self.set(id));
            let mut i = h as usize & (size - 1);
            while table[i] != 0 {
                i = (i + 1) & (size - 1);
            }
            table[i] = (h & !0xffff_ffff) | (id as u64 + 1);
        }
        self.table = table;
    }

    fn bytes(&self) -> u64 {
        (self.sets.len() * 8 + self.parent.len() * 12 + self.hints.len() * 4 + self.table.len() * 8) as u64
    }
}

/// One member expanded: its successors under every letter in canonical form
/// (`letters` sets), their hashes, which were flipped to get there, and a
/// letter that empties the member, if one does.
struct Expanded {
    sets: Vec<u64>,
    hashes: Vec<u64>,
    flipped: Vec<bool>,
    empty: Option<u8>,
}

/// The word whose successor from the full set is exactly member `id`.
pub fn word_of(a: &WidthAutomaton, f: &Family, id: usize) -> Vec<usize> {
    let mut chain = Vec::new();
    let mut id = id;
    while id != 0 {
        chain.push(f.parent[id]);
        id = f.parent[id].0 as usize;
    }
    let mut w = Vec::new();
    for &(_, t, flipped) in chain.iter().rev() {
        w.push(t as usize);
        if flipped {
            w.iter_mut().for_each(|t| *t = a.flip_letter(*t));
        }
    }
    w
}

/// The target written as rows of `.` and `*` (as [`SpecGrid::to_rows`] gives).
pub fn target_of_rows(rows: &[String]) -> SpecGrid {
    let w = rows.first().map_or(0, |r| r.len());
    let mut g = SpecGrid::new(w, rows.len(), Cell::Dead);
    for (y, r) in rows.iter().enumerate() {
        for (x, c) in r.chars().enumerate() {
            if c == '*' {
                g.set(x, y, Cell::Alive);
            }
        }
    }
    g
}

/// The target whose columns are `word`, bit y of a letter being row y.
pub fn target_of(word: &[usize], height: usize) -> SpecGrid {
    let mut g = SpecGrid::new(word.len(), height, Cell::Dead);
    for (x, &t) in word.iter().enumerate() {
        for y in 0..height {
            if (t >> y) & 1 == 1 {
                g.set(x, y, Cell::Alive);
            }
        }
    }
    g
}

/// Expand one member under every letter (in canonical form, hashed).
fn expand(a: &WidthAutomaton, f: &Family, id: usize, scratch: &mut [u64]) -> Expanded {
    let (letters, words) = (a.letters(), a.words);
    let mut sets = vec![0u64; letters * words];
    a.successors(f.set(id), &mut sets, scratch);
    let mut e = Expanded { sets, hashes: vec![0; letters], flipped: vec![false; letters], empty: None };
    let mut m = vec![0u64; words];
    for t in 0..letters {
        let s = &mut e.sets[t * words..(t + 1) * words];
        if s.iter().all(|&w| w == 0) {
            e.empty = Some(t as u8);
            return e;
        }
        m.copy_from_slice(s);
        a.flip_in_place(&mut m);
        // Keep the smaller of the set and its mirror image.
        if m.as_slice() < &*s {
            s.copy_from_slice(&m);
            e.flipped[t] = true;
        }
        e.hashes[t] = hash(s);
    }
    e
}

// ANCHOR: search
/// Search by width: expand every set of the last layer under every letter; a
/// successor that is empty is an orphan of the next width (the first in
/// member order is returned); one equal to a kept set (or its mirror image)
/// only records which; the rest become the next layer. No next layer: the
/// family is closed under every letter, and no word empties the full set.
pub fn search(o: &WidthOptions) -> Result<(WidthResult, WidthAutomaton, Family)> {
    let start = Instant::now();
    let a = WidthAutomaton::new(o.rule, o.height)?;
    let mut f = match &o.checkpoint {
        Some(p) if p.exists() => load(p, &a, o.rule)?,
        _ => Family::new(&a),
    };
    f.budget = o.budget;
    let letters = a.letters();
    let mut result = WidthResult {
        rule: o.rule.to_string(),
        height: o.height,
        verdict: Verdict::LowerBound { width: 0, stopped_by: String::new() },
        frontier_peak: 1,
        members: 0,
        successors: 0,
        seconds: 0.0,
        store_bytes: 0,
        layers: Vec::new(),
        next: NextWidth::default(),
    };
    loop {
        // Layer k holds the sets of words of length k - 1; all words that
        // short are proved to have parents.
        let k = f.level_start.len() - 1;
        let (lo, hi) = (f.level_start[k - 1], f.level_start[k]);
        let width_done = k - 1;
        result.frontier_peak = result.frontier_peak.max(hi - lo);
        let stop = if o.max_width.is_some_and(|m| width_done >= m) {
            Some(format!("--max-width {width_done}"))
        } else if o.time_limit_s.is_some_and(|t| start.elapsed().as_secs_f64() > t) {
            Some("time limit".to_string())
        } else {
            None
        };
        if let Some(why) = stop {
            result.verdict = Verdict::LowerBound { width: width_done, stopped_by: why };
            break;
        }
        // Expand the layer in chunks (bounding the memory of the successors),
        // each in parallel, then store them in member order.
        let mut orphan = None;
        let mut stopped = None;
        let per_chunk = (CHUNK_BYTES / (letters * a.words * 8)).max(64);
        for chunk in (lo..hi).step_by(per_chunk) {
            let chunk_end = (chunk + per_chunk).min(hi);
            let expanded: Vec<Expanded> = (chunk..chunk_end)
                .into_par_iter()
                .map_init(|| a.scratch(), |scratch, id| expand(&a, &f, id, scratch))
                .collect();
            result.successors += ((chunk_end - chunk) * letters) as u64;
            if let Some((i, e)) = expanded.iter().enumerate().find(|(_, e)| e.empty.is_some()) {
                orphan = Some((chunk + i, e.empty.expect("found") as usize));
                break;
            }
            for (i, e) in expanded.into_iter().enumerate() {
                for t in 0..letters {
                    let set = &e.sets[t * a.words..(t + 1) * a.words];
                    let id = f.find_or_insert(set, e.hashes[t], ((chunk + i) as u32, t as u8, e.flipped[t]));
                    f.hints.push(id * 2 + e.flipped[t] as u32);
                }
            }
            if f.bytes() > o.memory_cap_bytes {
                stopped = Some(format!(
                    "memory cap: {} kept sets ({:.2} GiB) passed {:.2} GiB while expanding width {k}",
                    f.len(),
                    f.bytes() as f64 / GIB,
                    o.memory_cap_bytes as f64 / GIB
                ));
            } else if o.time_limit_s.is_some_and(|t| start.elapsed().as_secs_f64() > t) {
                stopped = Some(format!("time limit while expanding width {k}"));
            }
            if stopped.is_some() {
                break;
            }
        }
        if let Some((id, t)) = orphan {
            let mut w = word_of(&a, &f, id);
            w.push(t);
            let target = target_of(&w, o.height);
            result.verdict = Verdict::Narrowest { width: w.len(), rows: target.to_rows() };
            break;
        }
        if let Some(why) = stopped {
            result.verdict = Verdict::LowerBound { width: width_done, stopped_by: why };
            break;
        }
        f.level_start.push(f.len());
        if let Some(p) = &o.checkpoint {
            save(p, &f, o.rule, o.height)?;
        }
        if o.progress {
            eprintln!(
                "orphan-width H={} {}: width {} has parents; next layer {} sets, {} kept, {:.1} MiB kept, RSS peak {:.1} MiB, {:.1} s",
                o.height,
                o.rule,
                k,
                f.len() - hi,
                f.len(),
                f.bytes() as f64 / (1 << 20) as f64,
                super::census::peak_memory() as f64 / (1 << 20) as f64,
                start.elapsed().as_secs_f64()
            );
        }
        if f.len() == hi {
            result.verdict = Verdict::NoneAtAnyWidth { closed_at: k };
            break;
        }
    }
    result.layers = f.level_start.windows(2).map(|w| w[1] - w[0]).collect();
    result.members = f.len();
    result.seconds = start.elapsed().as_secs_f64();
    result.store_bytes = f.bytes();
    result.next = result.next_width();
    Ok((result, a, f))
}
// ANCHOR_END: search

/// Bytes in a GiB, the unit of the memory cap and of [`NextWidth::next_layer_gib`].
pub const GIB: f64 = (1u64 << 30) as f64;

/// Successor sets (at most) held at once: the successors of one chunk of a
/// layer are collected before they are stored, so this bounds their memory.
const CHUNK_BYTES: usize = 64 << 20;

// ANCHOR: shrink
/// A closed family shrunk for its certificate: `sets` (canonical, `words`
/// words each) and, per member and letter, the ref of a member (or mirror)
/// inside that successor.
pub struct Proof {
    pub words: usize,
    pub sets: Vec<u64>,
    pub hints: Vec<Ref>,
}

/// Shrink a closed family: visit its members smallest first; one that
/// contains a member already chosen (or that member's mirror, found through
/// an index of chosen members by one of their states, at most `budget` subset
/// tests) is represented by it, the others are chosen. A chosen member's
/// successor under t *is* some member X, which contains X's representative:
/// that is its new hint. Keep only the chosen members that the full set's
/// representative reaches through the hints.
pub fn shrink(a: &WidthAutomaton, f: &Family) -> Proof {
    let (n, words, letters) = (f.len(), f.words, f.letters);
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_by_key(|&i| (popcount(f.set(i as usize)), i));
    let mut rep = vec![0u32; n];
    let mut chosen: Vec<u32> = Vec::new();
    // Chosen members filed under their rarest state (fewest chosen hold it).
    let mut index: Vec<Vec<u32>> = vec![Vec::new(); words * 64];
    let mut freq = vec![0u32; words * 64];
    let inside = |s: &[u64], chosen: &[u32], index: &[Vec<u32>]| -> Option<u32> {
        let mut tests = 0;
        for e in ones(s) {
            for &c in &index[e] {
                if tests >= f.budget {
                    return None;
                }
                tests += 1;
                if subset(f.set(chosen[c as usize] as usize), s) {
                    return Some(c);
                }
            }
        }
        None
    };
    for &i in &order {
        let s = f.set(i as usize);
        let found = if f.budget == 0 {
            None
        } else {
            inside(s, &chosen, &index)
                .map(|c| c * 2)
                .or_else(|| inside(&a.flipped(s), &chosen, &index).map(|c| c * 2 + 1))
        };
        rep[i as usize] = match found {
            Some(r) => r,
            None => {
                let c = chosen.len() as u32;
                chosen.push(i);
                let rarest = ones(s).min_by_key(|&e| freq[e]).expect("members are non-empty");
                index[rarest].push(c);
                ones(s).for_each(|e| freq[e] += 1);
                c * 2
            }
        };
    }
    // Follow the hints from the full set's representative.
    let mut keep = vec![u32::MAX; chosen.len()];
    let mut kept: Vec<u32> = vec![rep[0] / 2];
    keep[(rep[0] / 2) as usize] = 0;
    let mut q = 0;
    while q < kept.len() {
        let m = chosen[kept[q] as usize] as usize;
        for t in 0..letters {
            let h = f.hints[m * letters + t];
            let c = (rep[(h / 2) as usize] / 2) as usize;
            if keep[c] == u32::MAX {
                keep[c] = kept.len() as u32;
                kept.push(c as u32);
            }
        }
        q += 1;
    }
    let mut p = Proof { words, sets: Vec::with_capacity(kept.len() * words), hints: Vec::new() };
    for &c in &kept {
        let m = chosen[c as usize] as usize;
        p.sets.extend_from_slice(f.set(m));
        for t in 0..letters {
            // succ_t(m) is member X (mirrored when the hint's low bit is set),
            // and X contains its representative (mirrored when rep's bit is).
            let h = f.hints[m * letters + t];
            let r = rep[(h / 2) as usize] ^ (h & 1);
            p.hints.push(keep[(r / 2) as usize] * 2 + (r & 1));
        }
    }
    p
}
// ANCHOR_END: shrink

// ANCHOR: write_certificate
/// The closed family as a certificate, shrunk by [`shrink`]: both mirror
/// images of every member (entry `2i` is member `i`, `2i + 1` its mirror),
/// each with the entry that its successor under every letter contains. The
/// successor of a mirror image under letter t is the mirror of the member's
/// successor under the mirrored letter, so its hints come from the member's
/// with the flip bit toggled. Returns the number of entries written.
pub fn write_certificate(a: &WidthAutomaton, f: &Family, rule: Rule, out: &mut impl Write) -> Result<usize> {
    let letters = a.letters();
    if f.hints.len() != f.len() * letters {
        return Err(Error::invalid("the family is not closed: some member was never expanded"));
    }
    let p = shrink(a, f);
    let n = p.sets.len() / p.words;
    let io = |e: std::io::Error| Error::invalid(format!("writing the certificate: {e}"));
    writeln!(out, "{CERT_FORMAT}").map_err(io)?;
    writeln!(out, "rule {rule}").map_err(io)?;
    writeln!(out, "height {}", a.height).map_err(io)?;
    writeln!(out, "members {}", 2 * n).map_err(io)?;
    let states = a.columns * a.columns;
    let mut line = String::new();
    for i in 0..n {
        let set = &p.sets[i * p.words..(i + 1) * p.words];
        for mirror in [false, true] {
            let set = if mirror { a.flipped(set) } else { set.to_vec() };
            line.clear();
            hex(&set, states, &mut line);
            for t in 0..letters {
                let r = if mirror {
                    p.hints[i * letters + a.flip_letter(t)] ^ 1
                } else {
                    p.hints[i * letters + t]
                };
                line.push(' ');
                line.push_str(&r.to_string());
            }
            line.push('\n');
            out.write_all(line.as_bytes()).map_err(io)?;
        }
    }
    Ok(2 * n)
}
// ANCHOR_END: write_certificate

/// The first line of a certificate.
pub const CERT_FORMAT: &str = "lifesearch-orphan-width-certificate/1";

/// States as hex digits, the i-th digit from the left holding states 4i..4i+3
/// (lowest bit first).
fn hex(set: &[u64], states: usize, out: &mut String) {
    out.extend((0..states.div_ceil(4)).map(|i| {
        let d = (set[i * 4 / 64] >> (i * 4 % 64)) & 15;
        char::from_digit(d as u32, 16).expect("a nibble")
    }));
}

const CHECKPOINT_FORMAT: &[u8; 8] = b"LSOW0002";

/// Save the family (gzip, temporary file then rename).
fn save(path: &std::path::Path, f: &Family, rule: Rule, height: usize) -> Result<()> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut put = |v: u64| e.write_all(&v.to_le_bytes());
    let rule_code = (rule.birth as u64) << 16 | rule.survival as u64;
    let io = |x: std::io::Error| Error::invalid(format!("{}: {x}", path.display()));
    (|| -> std::io::Result<()> {
        put(u64::from_le_bytes(*CHECKPOINT_FORMAT))?;
        put(rule_code)?;
        put(height as u64)?;
        put(f.len() as u64)?;
        put(f.level_start.len() as u64)?;
        for &l in &f.level_start {
            put(l as u64)?;
        }
        for &(p, t, fl) in &f.parent {
            put((p as u64) << 16 | (t as u64) << 8 | fl as u64)?;
        }
        put(f.hints.len() as u64)?;
        for &h in &f.hints {
            put(h as u64)?;
        }
        for &w in &f.sets {
            put(w)?;
        }
        Ok(())
    })()
    .map_err(io)?;
    let bytes = e.finish().map_err(io)?;
    crate::fsutil::atomic_write(path, &bytes)
}

/// Resume from a checkpoint written by [`save`] for the same rule and height.
fn load(path: &std::path::Path, a: &WidthAutomaton, rule: Rule) -> Result<Family> {
    let bad = |why: &str| {
        Error::invalid(format!("{}: not a usable orphan-width checkpoint ({why})", path.display()))
    };
    let raw = std::fs::read(path).map_err(|e| Error::invalid(format!("{}: {e}", path.display())))?;
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut bytes).map_err(|_| bad("not gzip"))?;
    let mut pos = 0usize;
    let mut get = || -> Result<u64> {
        let v = bytes.get(pos..pos + 8).ok_or_else(|| bad("truncated"))?;
        pos += 8;
        Ok(u64::from_le_bytes(v.try_into().expect("8 bytes")))
    };
    if get()? != u64::from_le_bytes(*CHECKPOINT_FORMAT) {
        return Err(bad("wrong format"));
    }
    if get()? != (rule.birth as u64) << 16 | rule.survival as u64 || get()? != a.height as u64 {
        return Err(bad("written for another rule or height"));
    }
    let mut f = Family::new(a);
    f.sets.clear();
    f.parent.clear();
    f.table.iter_mut().for_each(|x| *x = 0);
    let n = get()? as usize;
    let levels = get()? as usize;
    f.level_start = (0..levels).map(|_| get().map(|v| v as usize)).collect::<Result<_>>()?;
    let parents: Vec<u64> = (0..n).map(|_| get()).collect::<Result<_>>()?;
    let nh = get()? as usize;
    f.hints = (0..nh).map(|_| get().map(|v| v as u32)).collect::<Result<_>>()?;
    for p in parents {
        let set: Vec<u64> = (0..a.words).map(|_| get()).collect::<Result<_>>()?;
        if set.iter().all(|&w| w == 0) {
            return Err(bad("an empty member"));
        }
        let before = f.len();
        f.find_or_insert(&set, hash(&set), ((p >> 16) as u32, (p >> 8) as u8, p & 1 == 1));
        if f.len() == before {
            return Err(bad("a repeated member"));
        }
    }
    if f.level_start.last() != Some(&n) || nh > n * a.letters() || f.hints.iter().any(|&h| h / 2 >= n as u32)
    {
        return Err(bad("inconsistent counts"));
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_next_width_costs_the_last_growth_at_the_bytes_per_set() {
        let mut r = WidthResult {
            rule: "B3/S23".into(),
            height: 4,
            verdict: Verdict::LowerBound { width: 2, stopped_by: "time limit".into() },
            frontier_peak: 40,
            members: 51,
            successors: 0,
            seconds: 0.0,
            store_bytes: 51 * 1024,
            layers: vec![1, 10, 40],
            next: NextWidth::default(),
        };
        // Growth 4 from 10 to 40 sets, so 160 more sets of 1 KiB each.
        let next = NextWidth { growth: Some(4.0), next_layer_gib: Some(160.0 / (1024.0 * 1024.0)) };
        assert_eq!(r.next_width(), next);
        r.layers = vec![1];
        assert_eq!(r.next_width(), NextWidth::default(), "one layer has no growth");
        r.layers = vec![0, 3];
        assert_eq!(r.next_width(), NextWidth::default(), "no growth from an empty layer");
    }

    fn opts(rule: Rule, height: usize, max_width: Option<usize>) -> WidthOptions {
        WidthOptions {
            rule,
            height,
            max_width,
            memory_cap_bytes: 1 << 30,
            time_limit_s: None,
            checkpoint: None,
            progress: false,
            budget: usize::MAX,
        }
    }

    /// The narrowest orphan of height `h` and width at most `max_w`, by
    /// asking the column automaton about every target.
    fn brute_narrowest(rule: Rule, h: usize, max_w: usize) -> Option<usize> {
        (1..=max_w).find(|&w| {
            (0..1usize << (w * h)).any(|bits| {
                let word: Vec<usize> = (0..w).map(|x| (bits >> (x * h)) & ((1 << h) - 1)).collect();
                crate::automaton::decide(&target_of(&word, h), rule).unwrap().predecessor.is_none()
            })
        })
    }

    /// What the search says about widths up to `max_w`: the narrowest orphan
    /// if it is that narrow, else None (and it must have proved that).
    fn searched_narrowest(rule: Rule, h: usize, max_w: usize) -> Option<usize> {
        let (r, _, _) = search(&opts(rule, h, Some(max_w))).unwrap();
        match r.verdict {
            Verdict::Narrowest { width, rows } => {
                assert!(
                    crate::automaton::decide(&target_of_rows(&rows), rule).unwrap().predecessor.is_none()
                );
                assert_eq!(rows[0].len(), width);
                Some(width)
            }
            Verdict::NoneAtAnyWidth { .. } => None,
            Verdict::LowerBound { width, .. } => {
                assert_eq!(width, max_w);
                None
            }
        }
    }

    /// A random state set of height `h` with about `density` of its states.
    fn random_set(a: &WidthAutomaton, seed: u64, density: u64) -> Vec<u64> {
        let mut x = seed | 1;
        let mut set: Vec<u64> = (0..a.words)
            .map(|_| {
                (0..64).fold(0u64, |w, b| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    w | (((x % 100) < density) as u64) << b
                })
            })
            .collect();
        let full = a.full();
        set.iter_mut().zip(&full).for_each(|(s, f)| *s &= f);
        set
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn narrowest_agrees_with_brute_force(birth in 0u16..512, survival in 0u16..512, h in 1usize..=3) {
            let rule = Rule { birth, survival };
            let max_w = [0, 6, 4, 3][h];
            prop_assert_eq!(searched_narrowest(rule, h, max_w), brute_narrowest(rule, h, max_w));
        }

        #[test]
        fn word_parallel_steps_agree_with_state_by_state(
            birth in 0u16..512, survival in 0u16..512, h in 1usize..=5, seed in 1u64.., density in 0u64..=100,
        ) {
            let a = WidthAutomaton::new(Rule { birth, survival }, h).unwrap();
            let set = random_set(&a, seed, density);
            let mut out = vec![0u64; a.letters() * a.words];
            a.successors(&set, &mut out, &mut a.scratch());
            let slow = a.successors_slow(&set);
            for t in 0..a.letters() {
                prop_assert_eq!(&out[t * a.words..(t + 1) * a.words], slow[t].as_slice());
            }
            // The flip by index-bit swaps is the flip state by state, an
            // involution, and a symmetry of the automaton when the rule is.
            let m = a.flipped(&set);
            prop_assert_eq!(&m, &a.flipped_slow(&set));
            prop_assert_eq!(&a.flipped(&m), &set);
            let mut out_m = vec![0u64; a.letters() * a.words];
            a.successors(&m, &mut out_m, &mut a.scratch());
            for t in 0..a.letters() {
                let ft = a.flip_letter(t);
                prop_assert_eq!(a.flipped(&out[t * a.words..(t + 1) * a.words]), &out_m[ft * a.words..(ft + 1) * a.words]);
            }
        }
    }

    #[test]
    fn census_rules_agree_with_brute_force() {
        for rule in ["B3/S23", "B/S", "B2/S", "B36/S23", "B1/S1"] {
            let rule: Rule = rule.parse().unwrap();
            for (h, max_w) in [(1, 6), (2, 4), (3, 3)] {
                assert_eq!(
                    searched_narrowest(rule, h, max_w),
                    brute_narrowest(rule, h, max_w),
                    "{rule} H={h}"
                );
            }
        }
    }

    #[test]
    fn life_has_no_orphan_one_or_two_rows_high() {
        for h in [1, 2] {
            let (r, a, f) = search(&opts(Rule::CONWAY, h, None)).unwrap();
            assert!(matches!(r.verdict, Verdict::NoneAtAnyWidth { .. }), "{r:?}");
            // Every member is the successor of the full set under its word.
            for id in 0..f.len() {
                let mut s = a.full();
                for t in word_of(&a, &f, id) {
                    s = a.successors_slow(&s).swap_remove(t);
                }
                assert_eq!(s.as_slice(), f.set(id), "member {id}");
            }
            // The shrunk proof keeps only members some successor needs.
            let p = shrink(&a, &f);
            assert!(p.sets.len() / p.words <= f.len());
        }
    }

    #[test]
    fn a_resumed_search_ends_as_a_fresh_one() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ck");
        let rule: Rule = "B1/S1".parse().unwrap();
        let fresh = search(&opts(rule, 3, None)).unwrap().0;
        let mut o = opts(rule, 3, Some(2));
        o.checkpoint = Some(path.clone());
        let first = search(&o).unwrap().0;
        assert_eq!(first.verdict, Verdict::LowerBound { width: 2, stopped_by: "--max-width 2".into() });
        o.max_width = None;
        let resumed = search(&o).unwrap().0;
        assert_eq!(resumed.verdict, fresh.verdict);
        assert_eq!(resumed.members, fresh.members);
        // A checkpoint of another rule is refused with the file's name.
        o.rule = Rule::CONWAY;
        let err = search(&o).err().unwrap().to_string();
        assert!(err.contains("ck") && err.contains("another rule"), "{err}");
    }

    #[test]
    fn successors_match_the_deciding_automaton() {
        // The empty successor must be a real orphan: checked through B2/S.
        let rule: Rule = "B2/S".parse().unwrap();
        let (r, _, _) = search(&opts(rule, 3, None)).unwrap();
        let Verdict::Narrowest { width, rows } = r.verdict else { panic!("B2/S has 3x3 orphans") };
        assert!(width <= 3);
        let spec = target_of_rows(&rows);
        assert!(crate::automaton::decide(&spec, rule).unwrap().predecessor.is_none());
    }
}
