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
//! pruned with antichains (De Wulf, Doyen, Henzinger, Raskin 2006): a state set
//! that contains an earlier one is dropped, because every word that empties
//! the larger set empties the smaller one too, no later. It also folds the
//! automaton's vertical-flip symmetry (turning every column upside down maps
//! the automaton onto itself), keeping one set of each mirror pair.
//!
//! When the search closes, the sets it kept are a proof: every member is
//! non-empty and every member's successor under every letter contains a
//! member. That family, with the member each successor contains, is written as
//! a certificate that [`super::certificate`] checks without this code.
//!
//! Book: Part IV, "Orphans of every width" (`book/src/beyond/width.md`).

use super::mask::{Mask, ones};
use super::table::{Line, MAX_SIDE, StepMasks, Table};
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
    /// One [`StepMasks`] per letter (target column).
    masks: Vec<StepMasks>,
    /// The vertical flip of every state.
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
        let masks = (0..1u32 << height).map(|t| table.step_masks(Line::full(height, t))).collect();
        let rev = |c: usize| (0..height + 2).map(|y| ((c >> y) & 1) << (height + 1 - y)).sum::<usize>();
        let flip = (0..states).map(|s| (rev(s / columns) * columns + rev(s % columns)) as u32).collect();
        Ok(WidthAutomaton { height, columns, words: states.div_ceil(64), masks, flip })
    }

    pub fn letters(&self) -> usize {
        1 << self.height
    }

    /// The set of every state (where every word starts).
    pub fn full(&self) -> Vec<u64> {
        let m = Mask::below(self.columns * self.columns);
        let mut v = vec![0u64; self.words];
        for (i, w) in v.iter_mut().enumerate() {
            // Sets of more than 256 states are whole words of ones.
            *w = if i < 4 { m.0[i] } else { u64::MAX };
        }
        v
    }

    /// Add every state `(b, c)` with `c` in `m` to `set`.
    #[inline]
    fn or_row(&self, set: &mut [u64], b: usize, m: &Mask) {
        let l = self.columns;
        if l >= 64 {
            let base = b * l / 64;
            for k in 0..l / 64 {
                set[base + k] |= m.0[k];
            }
        } else {
            let bit = b * l;
            set[bit >> 6] |= m.0[0] << (bit & 63);
        }
    }

    /// The successors of `set` under every letter at once, into `out`
    /// (`letters` sets of `words` words, cleared first).
    pub fn successors(&self, set: &[u64], out: &mut [u64]) {
        out.fill(0);
        let l = self.columns;
        for s in ones(set) {
            let (a, b) = (s / l, s % l);
            for (t, masks) in self.masks.iter().enumerate() {
                let m = masks.allowed(a, b);
                self.or_row(&mut out[t * self.words..(t + 1) * self.words], b, &m);
            }
        }
    }

    /// The set turned upside down.
    pub fn flipped(&self, set: &[u64]) -> Vec<u64> {
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
// ANCHOR_END: automaton

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
    /// Subset tests per successor before it is kept anyway (`usize::MAX`:
    /// a true antichain of the sets kept so far).
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
}

/// The kept sets (one of each mirror pair), how each was reached, and for
/// each expanded one the kept set its successor under every letter contains.
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
    /// Members by their rarest state (fewest members held it when the member
    /// was kept), for the subset test.
    index: Vec<Vec<u32>>,
    /// How many members hold each state.
    freq: Vec<u32>,
    /// Members by a hash of their states, for the exact test.
    exact: rustc_hash::FxHashMap<u64, u32>,
    /// Subset tests one query may make before it gives up (sound: a set
    /// kept although it contains a member only makes the family larger).
    pub budget: usize,
}

impl Family {
    fn new(a: &WidthAutomaton) -> Family {
        let mut f = Family {
            words: a.words,
            letters: a.letters(),
            sets: Vec::new(),
            parent: Vec::new(),
            hints: Vec::new(),
            level_start: vec![0],
            index: vec![Vec::new(); a.words * 64],
            freq: vec![0; a.words * 64],
            exact: Default::default(),
            budget: usize::MAX,
        };
        f.push(&a.full(), (0, 0, false));
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

    fn push(&mut self, set: &[u64], parent: (u32, u8, bool)) -> u32 {
        let id = self.parent.len() as u32;
        self.sets.extend_from_slice(set);
        self.parent.push(parent);
        let rarest = ones(set).min_by_key(|&e| self.freq[e]).expect("kept sets are non-empty");
        self.index[rarest].push(id);
        for e in ones(set) {
            self.freq[e] += 1;
        }
        self.exact.entry(hash(set)).or_insert(id);
        id
    }

    fn bytes(&self) -> u64 {
        (self.sets.len() * 8 + self.parent.len() * 12 + self.hints.len() * 4) as u64
    }

    // ANCHOR: dominated
    /// A kept set among members `from..` that `s` contains, if any: first the
    /// same set by its hash, then the buckets of the states of `s` (a member
    /// is filed under one of its states), at most `budget` subset tests.
    fn contained_in(&self, s: &[u64], from: u32) -> Option<u32> {
        if let Some(&id) = self.exact.get(&hash(s))
            && id >= from
            && self.set(id as usize) == s
        {
            return Some(id);
        }
        let mut tests = 0;
        for e in ones(s) {
            for &id in self.index[e].iter().rev() {
                if id < from || tests >= self.budget {
                    break;
                }
                tests += 1;
                if subset(self.set(id as usize), s) {
                    return Some(id);
                }
            }
            if tests >= self.budget {
                break;
            }
        }
        None
    }

    /// A kept set that `s` or its mirror image contains, as a ref to the
    /// (possibly mirrored) member inside `s` itself.
    fn dominated(&self, s: &[u64], flipped: &[u64], from: u32) -> Option<Ref> {
        self.contained_in(s, from)
            .map(|id| id * 2)
            .or_else(|| self.contained_in(flipped, from).map(|id| id * 2 + 1))
    }
    // ANCHOR_END: dominated
}

/// One member expanded: the ref each letter's successor contains (or
/// `u32::MAX` while it is fresh), the fresh successors, and a letter that
/// empties the member, if one does.
type Expanded = (Vec<Ref>, Vec<Fresh>, Option<u8>);

/// A successor that no kept set was found inside yet.
struct Fresh {
    parent: u32,
    letter: u8,
    flipped: bool,
    set: Vec<u64>,
}

/// The word whose successor from the full set is exactly member `id`.
pub fn word_of(a: &WidthAutomaton, f: &Family, id: usize) -> Vec<usize> {
    if id == 0 {
        return Vec::new();
    }
    let (p, t, flipped) = f.parent[id];
    let mut w = word_of(a, f, p as usize);
    w.push(t as usize);
    if flipped {
        w.iter_mut().for_each(|t| *t = a.flip_letter(*t));
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

// ANCHOR: search
/// Search by width: expand every set of the last layer under every letter; a
/// successor that is empty is an orphan of the next width (the first in
/// member order is returned); one that contains a kept set (or its mirror
/// image) is dropped; the rest, smallest first, become the next layer unless
/// one of them contains another. No next layer: the family is closed.
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
        // Expand the layer in chunks (bounding the memory of the fresh sets),
        // each in parallel against the members kept so far.
        let mut orphan = None;
        let per_chunk = (CHUNK_BYTES / (letters * a.words * 8)).max(64);
        for chunk in (lo..hi).step_by(per_chunk) {
            let chunk_end = (chunk + per_chunk).min(hi);
            let expanded: Vec<Expanded> =
                (chunk..chunk_end).into_par_iter().map(|id| expand(&a, &f, id)).collect();
            result.successors += ((chunk_end - chunk) * letters) as u64;
            if let Some((i, (_, _, Some(t)))) = expanded.iter().enumerate().find(|(_, e)| e.2.is_some()) {
                orphan = Some((chunk + i, *t as usize));
                break;
            }
            insert_fresh(&a, &mut f, chunk, expanded);
            let why = if f.bytes() > o.memory_cap_bytes {
                Some(format!(
                    "memory cap: {} kept sets ({:.2} GiB) passed {:.2} GiB while expanding width {k}",
                    f.len(),
                    f.bytes() as f64 / GIB,
                    o.memory_cap_bytes as f64 / GIB
                ))
            } else if o.time_limit_s.is_some_and(|t| start.elapsed().as_secs_f64() > t) {
                Some(format!("time limit while expanding width {k}"))
            } else {
                None
            };
            if let Some(why) = why {
                result.verdict = Verdict::LowerBound { width: width_done, stopped_by: why };
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
        if matches!(result.verdict, Verdict::LowerBound { ref stopped_by, .. } if !stopped_by.is_empty()) {
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
    result.members = f.len();
    result.seconds = start.elapsed().as_secs_f64();
    result.store_bytes = f.bytes();
    Ok((result, a, f))
}
// ANCHOR_END: search

const GIB: f64 = (1u64 << 30) as f64;

/// Successor sets (at most) held at once: the fresh sets of one chunk of a
/// layer are collected before they are kept, so this bounds their memory.
const CHUNK_BYTES: usize = 128 << 20;

/// Expand one member under every letter: the kept set each successor
/// contains, or the successor itself when none was found, or the letter that
/// empties it.
fn expand(a: &WidthAutomaton, f: &Family, id: usize) -> Expanded {
    let (letters, words) = (a.letters(), a.words);
    let mut out = vec![0u64; letters * words];
    a.successors(f.set(id), &mut out);
    let mut hints = vec![u32::MAX; letters];
    let mut fresh = Vec::new();
    for t in 0..letters {
        let s = &out[t * words..(t + 1) * words];
        if s.iter().all(|&w| w == 0) {
            return (hints, fresh, Some(t as u8));
        }
        let m = a.flipped(s);
        if let Some(r) = f.dominated(s, &m, 0) {
            hints[t] = r;
            continue;
        }
        // Keep the smaller of the set and its mirror image.
        let flipped = m.as_slice() < s;
        let set = if flipped { m } else { s.to_vec() };
        fresh.push(Fresh { parent: id as u32, letter: t as u8, flipped, set });
    }
    (hints, fresh, None)
}

/// Record the hints of an expanded chunk and keep its fresh sets, smallest
/// first, each unless it contains one kept before it in this layer.
fn insert_fresh(a: &WidthAutomaton, f: &mut Family, chunk: usize, expanded: Vec<Expanded>) {
    let letters = a.letters();
    let layer_from = *f.level_start.last().expect("a layer") as u32;
    let mut fresh: Vec<(usize, Fresh)> = Vec::new();
    for (i, (hints, fr, _)) in expanded.into_iter().enumerate() {
        f.hints.extend_from_slice(&hints);
        fresh.extend(fr.into_iter().map(|x| (chunk + i, x)));
    }
    fresh.sort_by_cached_key(|x| (popcount(&x.1.set), x.1.set.clone()));
    for (owner, x) in fresh {
        let m = a.flipped(&x.set);
        // The fresh set (kept in canonical form) stands for the successor
        // turned upside down when `flipped`.
        let r = match f.dominated(&x.set, &m, layer_from) {
            Some(r) => r,
            None => f.push(&x.set, (x.parent, x.letter, x.flipped)) * 2,
        };
        f.hints[owner * letters + x.letter as usize] = r ^ x.flipped as u32;
    }
}

// ANCHOR: write_certificate
/// The closed family as a certificate: both mirror images of every kept set
/// (entry `2i` is member `i`, `2i + 1` its mirror), each with the entry that
/// its successor under every letter contains. The successor of a mirror image
/// under letter t is the mirror of the member's successor under the mirrored
/// letter, so its hints come from the member's with the flip bit toggled.
pub fn write_certificate(a: &WidthAutomaton, f: &Family, rule: Rule, out: &mut impl Write) -> Result<()> {
    let letters = a.letters();
    if f.hints.len() != f.len() * letters {
        return Err(Error::invalid("the family is not closed: some member was never expanded"));
    }
    let io = |e: std::io::Error| Error::invalid(format!("writing the certificate: {e}"));
    writeln!(out, "{CERT_FORMAT}").map_err(io)?;
    writeln!(out, "rule {rule}").map_err(io)?;
    writeln!(out, "height {}", a.height).map_err(io)?;
    writeln!(out, "members {}", 2 * f.len()).map_err(io)?;
    let states = a.columns * a.columns;
    for i in 0..f.len() {
        for mirror in [false, true] {
            let set = if mirror { a.flipped(f.set(i)) } else { f.set(i).to_vec() };
            let mut line = hex(&set, states);
            for t in 0..letters {
                let r = if mirror {
                    f.hints[i * letters + a.flip_letter(t)] ^ 1
                } else {
                    f.hints[i * letters + t]
                };
                line.push(' ');
                line.push_str(&r.to_string());
            }
            writeln!(out, "{line}").map_err(io)?;
        }
    }
    Ok(())
}
// ANCHOR_END: write_certificate

/// The first line of a certificate.
pub const CERT_FORMAT: &str = "lifesearch-orphan-width-certificate/1";

/// States as hex digits, the i-th digit from the left holding states 4i..4i+3
/// (lowest bit first).
fn hex(set: &[u64], states: usize) -> String {
    (0..states.div_ceil(4))
        .map(|i| {
            let d = (set[i * 4 / 64] >> (i * 4 % 64)) & 15;
            char::from_digit(d as u32, 16).expect("a nibble")
        })
        .collect()
}

const CHECKPOINT_FORMAT: &[u8; 8] = b"LSOW0001";

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
    f.index.iter_mut().for_each(Vec::clear);
    f.freq.iter_mut().for_each(|x| *x = 0);
    f.exact.clear();
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
        f.push(&set, ((p >> 16) as u32, (p >> 8) as u8, p & 1 == 1));
    }
    if f.level_start.last() != Some(&n) || nh > n * a.letters() {
        return Err(bad("inconsistent counts"));
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        #[test]
        fn narrowest_agrees_with_brute_force(birth in 0u16..512, survival in 0u16..512, h in 1usize..=3) {
            let rule = Rule { birth, survival };
            let max_w = [0, 6, 4, 3][h];
            proptest::prop_assert_eq!(searched_narrowest(rule, h, max_w), brute_narrowest(rule, h, max_w));
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
            let (r, _, _) = search(&opts(Rule::CONWAY, h, None)).unwrap();
            assert!(matches!(r.verdict, Verdict::NoneAtAnyWidth { .. }), "{r:?}");
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
        // The word of a member, read by `decide`, must have a parent, and
        // the empty successor must be a real orphan: checked through B2/S.
        let rule: Rule = "B2/S".parse().unwrap();
        let (r, _, _) = search(&opts(rule, 3, None)).unwrap();
        let Verdict::Narrowest { width, rows } = r.verdict else { panic!("B2/S has 3x3 orphans") };
        assert!(width <= 3);
        let spec = target_of_rows(&rows);
        assert!(crate::automaton::decide(&spec, rule).unwrap().predecessor.is_none());
    }
}
