//! A second proof that no orphan of height H exists at any width, after
//! Steven Eker's proof set for height 4: positions of a game instead of
//! reachable state sets.
//!
//! A *position* is a state `q` (two parent columns) together with the next
//! K target columns, the *window* `u`. The proof set P is a set of
//! positions; it is closed when from every member, whatever target columns
//! come after the window, some path of at most D more parent columns reads
//! the target on to a state that, with the window then ahead of it, is
//! again a member. A closed P with a member for every window proves that
//! every target of height H, of any width, has a parent (the checker,
//! [`super::lookahead_check`], states and checks the argument). The parent
//! column chosen next may depend on the target K + D columns ahead, which
//! is what the subset construction of [`super::width`] cannot use, and why
//! a small set of positions can close where the reachable sets keep growing.
//!
//! P is found as a greatest fixpoint: start from every position and remove,
//! pass after pass, the members whose check fails, until a pass removes
//! nothing. The check of a member is a depth-first walk of the subset
//! construction from `{q}` along every continuation of the window, cut off
//! wherever the reached set meets P at its window. Removing members only
//! makes checks fail, so whatever the order, the passes end at the same P.
//!
//! Book: Part IV, "Orphans of every width" (`book/src/beyond/width.md`).

use super::table::{Line, Table};
use crate::error::{Error, Result};
use crate::life::Rule;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// Heights this method takes: a state's successor columns under one letter
/// are one 64-bit word (2^(H+2) columns).
pub const MAX_HEIGHT: usize = 4;
/// The longest return a check may look for (its stack of sets is this deep).
pub const MAX_DEPTH: usize = 32;

/// How large a proof set to try.
#[derive(Debug, Clone)]
pub struct LookaheadOptions {
    pub rule: Rule,
    pub height: usize,
    /// K: target columns a position sees ahead.
    pub lookahead: usize,
    /// D: parent columns a member may take to return to the proof set.
    pub depth: usize,
    /// Give up (not proved) after this many seconds.
    pub time_limit_s: Option<f64>,
    /// One line per pass on stderr.
    pub progress: bool,
}

/// How the fixpoint ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "verdict", rename_all = "kebab-case")]
pub enum LookaheadVerdict {
    /// A closed proof set covers every window: no orphan at any width.
    NoneAtAnyWidth,
    /// The fixpoint emptied a window: these K and D prove nothing (it is
    /// not a proof that an orphan exists).
    NotProved { window: usize },
    /// The time limit came first.
    Stopped { after_passes: usize },
}

/// The fixpoint's outcome and costs.
#[derive(Debug, Clone, serde::Serialize)]
pub struct LookaheadResult {
    pub rule: String,
    pub height: usize,
    pub lookahead: usize,
    pub depth: usize,
    #[serde(flatten)]
    pub verdict: LookaheadVerdict,
    /// Positions (state, window) in all.
    pub positions: u64,
    /// Members of the proof set at the end.
    pub members: u64,
    pub passes: usize,
    /// Sets visited by the checks, all passes together.
    pub nodes: u64,
    pub seconds: f64,
}

/// The automaton in the form the checks want, and the proof set.
pub struct ProofSet {
    pub rule: Rule,
    pub height: usize,
    pub lookahead: usize,
    pub depth: usize,
    /// Parent columns, 2^(H+2).
    pub columns: usize,
    pub letters: usize,
    /// The weight of a window's first (oldest) letter, letters^(K-1): a
    /// window `u` reads its first letter as `u / high`, the rest as `u % high`.
    high: usize,
    /// `follow[(a * columns + b) * letters + t]`: the columns c with `(a, b)`
    /// moving to `(b, c)` under letter t.
    follow: Vec<u64>,
    /// Window u's members: word `u * columns + a` holds the states `(a, b)`
    /// as bits b. Atomic, so that the passes can run in parallel.
    members: Vec<AtomicU64>,
}

/// A set of states, word a holding the states `(a, b)` as bits b.
type Set = [u64; 64];

impl ProofSet {
    /// Every position a member (the start of the fixpoint).
    pub fn full(rule: Rule, height: usize, lookahead: usize, depth: usize) -> Result<ProofSet> {
        if !(1..=MAX_HEIGHT).contains(&height) {
            return Err(Error::invalid(format!(
                "the lookahead proof takes heights 1..={MAX_HEIGHT}, not {height}"
            )));
        }
        if !(1..=MAX_DEPTH).contains(&depth) || lookahead == 0 || lookahead * height > 24 {
            return Err(Error::invalid(format!(
                "lookahead {lookahead} and depth {depth}: need lookahead >= 1 with at most 2^24 windows, depth 1..={MAX_DEPTH}"
            )));
        }
        let table = Table::new(rule, height);
        let columns = table.lines();
        let letters = 1usize << height;
        let mut follow = vec![0u64; columns * columns * letters];
        for t in 0..letters {
            let m = table.step_masks(Line::full(height, t as u32));
            for a in 0..columns {
                for b in 0..columns {
                    for c in m.allowed(a, b).iter() {
                        follow[(a * columns + b) * letters + t] |= 1 << c;
                    }
                }
            }
        }
        let windows = letters.pow(lookahead as u32);
        let all = if columns == 64 { u64::MAX } else { (1u64 << columns) - 1 };
        let members = (0..windows * columns).map(|_| AtomicU64::new(all)).collect();
        let high = windows / letters;
        Ok(ProofSet { rule, height, lookahead, depth, columns, letters, high, follow, members })
    }

    pub fn windows(&self) -> usize {
        self.high * self.letters
    }

    /// Window u's members, word a holding states `(a, b)` as bits b.
    pub fn window(&self, u: usize) -> Vec<u64> {
        let c = self.columns;
        self.members[u * c..(u + 1) * c].iter().map(|w| w.load(Ordering::Relaxed)).collect()
    }

    pub fn count(&self) -> u64 {
        self.members.iter().map(|w| w.load(Ordering::Relaxed).count_ones() as u64).sum()
    }

    // ANCHOR: lookahead_step
    /// The states that `s` moves to under letter t.
    fn post(&self, s: &Set, t: usize, out: &mut Set) {
        let c = self.columns;
        out[..c].fill(0);
        for (a, &w) in s[..c].iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                out[b] |= self.follow[(a * c + b) * self.letters + t];
            }
        }
    }

    /// Does `s` hold a member of window v?
    fn meets(&self, s: &Set, v: usize) -> bool {
        let c = self.columns;
        s[..c].iter().zip(&self.members[v * c..(v + 1) * c]).any(|(x, m)| x & m.load(Ordering::Relaxed) != 0)
    }

    /// The check of one member: from the states `s` reached with window u
    /// ahead, after `steps` columns, does every continuation return to the
    /// proof set within D columns? `nodes` counts the sets visited.
    fn returns(&self, s: &Set, u: usize, steps: usize, nodes: &mut u64) -> bool {
        *nodes += 1;
        let high = self.high;
        let mut next = [0u64; 64];
        self.post(s, u / high, &mut next);
        if next[..self.columns].iter().all(|&w| w == 0) {
            return false;
        }
        (0..self.letters).all(|x| {
            let v = (u % high) * self.letters + x;
            self.meets(&next, v) || (steps + 1 < self.depth && self.returns(&next, v, steps + 1, nodes))
        })
    }
    // ANCHOR_END: lookahead_step
}

// ANCHOR: lookahead_fixpoint
/// Find the greatest closed proof set for these K and D.
pub fn prove(o: &LookaheadOptions) -> Result<(LookaheadResult, ProofSet)> {
    let start = Instant::now();
    let p = ProofSet::full(o.rule, o.height, o.lookahead, o.depth)?;
    let c = p.columns;
    let mut result = LookaheadResult {
        rule: o.rule.to_string(),
        height: o.height,
        lookahead: o.lookahead,
        depth: o.depth,
        verdict: LookaheadVerdict::Stopped { after_passes: 0 },
        positions: (p.windows() * c * c) as u64,
        members: 0,
        passes: 0,
        nodes: 0,
        seconds: 0.0,
    };
    let over_time = || o.time_limit_s.is_some_and(|l| start.elapsed().as_secs_f64() > l);
    loop {
        result.passes += 1;
        let emptied = AtomicUsize::new(usize::MAX);
        let (removed, nodes) = (0..p.windows())
            .into_par_iter()
            .map(|u| {
                let (mut removed, mut nodes) = (0u64, 0u64);
                if emptied.load(Ordering::Relaxed) != usize::MAX || over_time() {
                    return (0, 0);
                }
                let mut single = [0u64; 64];
                for a in 0..c {
                    let mut w = p.members[u * c + a].load(Ordering::Relaxed);
                    while w != 0 {
                        let b = w.trailing_zeros() as usize;
                        w &= w - 1;
                        single[a] = 1 << b;
                        if !p.returns(&single, u, 0, &mut nodes) {
                            p.members[u * c + a].fetch_and(!(1 << b), Ordering::Relaxed);
                            removed += 1;
                        }
                    }
                    single[a] = 0;
                }
                if p.members[u * c..(u + 1) * c].iter().all(|w| w.load(Ordering::Relaxed) == 0) {
                    emptied.fetch_min(u, Ordering::Relaxed);
                }
                (removed, nodes)
            })
            .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1));
        result.nodes += nodes;
        result.members = p.count();
        result.seconds = start.elapsed().as_secs_f64();
        if o.progress {
            eprintln!(
                "pass {}: removed {removed}, members {} of {}, {:.1} s",
                result.passes, result.members, result.positions, result.seconds
            );
        }
        let e = emptied.into_inner();
        if e != usize::MAX {
            result.verdict = LookaheadVerdict::NotProved { window: e };
            return Ok((result, p));
        }
        if over_time() {
            result.verdict = LookaheadVerdict::Stopped { after_passes: result.passes };
            return Ok((result, p));
        }
        if removed == 0 {
            result.verdict = LookaheadVerdict::NoneAtAnyWidth;
            return Ok((result, p));
        }
    }
}
// ANCHOR_END: lookahead_fixpoint

/// Write a closed proof set in the checker's format (see
/// [`super::lookahead_check`]); the number of members written.
pub fn write_proof(p: &ProofSet, out: &mut impl std::io::Write) -> Result<u64> {
    let io = |e: std::io::Error| Error::invalid(format!("writing the proof set: {e}"));
    writeln!(out, "{}", super::lookahead_check::MAGIC).map_err(io)?;
    writeln!(out, "rule {}", p.rule).map_err(io)?;
    writeln!(out, "height {}", p.height).map_err(io)?;
    writeln!(out, "lookahead {}", p.lookahead).map_err(io)?;
    writeln!(out, "depth {}", p.depth).map_err(io)?;
    let c = p.columns;
    let mut line = String::with_capacity(c * c / 4 + 1);
    for u in 0..p.windows() {
        line.clear();
        // State (a, b) is bit a * columns + b; hex digit i holds states 4i..4i+3.
        for w in p.window(u) {
            for d in 0..c.div_ceil(4) {
                let nibble = (w >> (4 * d)) & 0xf;
                line.push(char::from_digit(nibble as u32, 16).expect("a nibble"));
            }
        }
        line.push('\n');
        out.write_all(line.as_bytes()).map_err(io)?;
    }
    Ok(p.count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::width::{Verdict, WidthOptions, search};

    fn opts(rule: Rule, height: usize, lookahead: usize, depth: usize) -> LookaheadOptions {
        LookaheadOptions { rule, height, lookahead, depth, time_limit_s: None, progress: false }
    }

    #[test]
    fn life_heights_one_to_three_close() {
        for (h, k, d) in [(1, 1, 1), (2, 1, 4), (3, 3, 12)] {
            let (r, _) = prove(&opts(Rule::CONWAY, h, k, d)).unwrap();
            assert_eq!(r.verdict, LookaheadVerdict::NoneAtAnyWidth, "height {h}");
        }
        let (r, _) = prove(&opts(Rule::CONWAY, 3, 2, 8)).unwrap();
        assert!(
            matches!(r.verdict, LookaheadVerdict::NotProved { .. }),
            "K = 2 is too short a window at height 3"
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        /// Never a proof where the subset construction finds an orphan (a
        /// proof where it stops without closing is allowed: the proof set
        /// may close where the reachable sets keep growing).
        #[test]
        fn never_proves_what_has_an_orphan(birth in 0u16..512, survival in 0u16..512, h in 1usize..=2) {
            let rule = Rule { birth: birth & !1, survival };
            let wide = WidthOptions {
                rule, height: h, max_width: Some(24), memory_cap_bytes: 1 << 30, time_limit_s: None,
                checkpoint: None, progress: false, budget: 0,
            };
            let (bfs, _, _) = search(&wide).unwrap();
            let (r, _) = prove(&opts(rule, h, 2, 6)).unwrap();
            if r.verdict == LookaheadVerdict::NoneAtAnyWidth {
                proptest::prop_assert!(!matches!(bfs.verdict, Verdict::Narrowest { .. }), "{rule}: {:?}", bfs.verdict);
            }
            if matches!(bfs.verdict, Verdict::Narrowest { .. }) {
                proptest::prop_assert!(matches!(r.verdict, LookaheadVerdict::NotProved { .. }), "{rule}: {:?}", r.verdict);
            }
        }
    }
}
