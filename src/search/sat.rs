//! Each SAT backend as an [`OrphanEngine`] and a [`CycleEngine`]: encode the
//! question with one of the two step encodings, solve once (or count), read
//! the answer back (checked by [`crate::search::Encoded::check`]).
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

use crate::base::{OrphanEngine, OrphanQuery, Verdict};
use crate::cnf::{Outcome, SolverKind, new_solver};
use crate::error::{Error, Result};
use crate::life::Rule;
use crate::search::engine::{CycleEngine, CycleQuery, CycleVerdict, no_space_time_knobs};
use crate::search::{Boundary, Encoding, Problem, count, encode, encode_with, solve, with_stop};
use std::time::Instant;

/// A SAT solver of one kind with one step encoding.
#[derive(Debug, Clone, Copy)]
pub struct Engine {
    pub kind: SolverKind,
    pub encoding: Encoding,
}

impl Engine {
    pub fn new(kind: SolverKind) -> Engine {
        Engine { kind, encoding: Encoding::default() }
    }
}

impl OrphanEngine for Engine {
    fn name(&self) -> &'static str {
        self.kind.name()
    }
    fn supports(&self, _: &OrphanQuery) -> Result<()> {
        self.kind.compiled_in()
    }
    fn decide(&self, q: &OrphanQuery) -> Result<Verdict> {
        let start = Instant::now();
        let enc = encode(&Problem::orphan(q.target.clone(), q.boundary), self.encoding, q.rule)?;
        let encode_time = start.elapsed();
        let stop = q.stop.clone().unwrap_or_default();
        let a = with_stop(self.kind, &stop, |s| {
            s.set_time_limit(q.time_limit);
            solve(&enc, s)
        })?;
        let parent = match a.outcome {
            Outcome::Sat => a.generations.into_iter().next(),
            Outcome::Unsat => None,
            Outcome::Unknown if stop.is_set() => return Err(Error::Interrupted),
            Outcome::Unknown => {
                return Err(Error::invalid(format!("{} gave up without an answer", self.kind)));
            }
        };
        let mut v = Verdict::new(parent, self.kind.name(), start.elapsed(), a.stats.counters());
        v.encode_time = Some(encode_time);
        Ok(v)
    }
}

// ANCHOR: sat_encoding
/// The encoding a SAT engine uses for a cycle unless told otherwise: Knuth's
/// counting network wherever it applies. Measured on the search problems
/// (issue 24), it beats the window encoding by up to 28x (c/3 in 16x5:
/// 1.58 s against 0.056 s), because the window encoding's 512 clauses a
/// cell swamp the solver's propagation.
pub fn sat_encoding(problem: &Problem, rule: Rule) -> Encoding {
    if problem.validate(Encoding::Knuth, rule).is_ok() { Encoding::Knuth } else { Encoding::Window }
}
// ANCHOR_END: sat_encoding

/// A cycle search: the query's encoding (else [`sat_encoding`]'s), the
/// placements its options admit, one solve or a count until `--limit`.
impl CycleEngine for Engine {
    fn name(&self) -> &'static str {
        self.kind.name()
    }
    fn supports(&self, q: &CycleQuery) -> Result<()> {
        no_space_time_knobs(self.kind.name(), q)?;
        self.kind.compiled_in()
    }
    fn search(&self, q: &CycleQuery) -> Result<CycleVerdict> {
        // The solver itself is built by `with_stop`, which says if it is missing.
        no_space_time_knobs(self.kind.name(), q)?;
        let start = Instant::now();
        let problem = q.problem();
        let encoding = q.encoding.unwrap_or_else(|| sat_encoding(&problem, q.rule));
        let enc = encode_with(&problem, encoding, q.rule, q.placement())?;
        let stop = q.stop.clone().unwrap_or_default();
        let verdict = |solutions, generations, complete, stats: crate::cnf::SolverStats| CycleVerdict {
            solutions,
            generations,
            complete,
            engine: self.kind.name(),
            elapsed: start.elapsed(),
            counters: stats.counters(),
        };
        if q.options.count {
            let r = with_stop(self.kind, &stop, |s| count(&enc, s, q.options.limit))?;
            if stop.is_set() && !r.complete && q.options.limit.is_none_or(|l| r.count < l) {
                return Err(Error::Interrupted);
            }
            return Ok(verdict(r.solutions, Vec::new(), r.complete, r.stats));
        }
        let a = with_stop(self.kind, &stop, |s| solve(&enc, s))?;
        match a.outcome {
            Outcome::Sat => Ok(verdict(a.generations[..1].to_vec(), a.generations, false, a.stats)),
            Outcome::Unsat => Ok(verdict(Vec::new(), Vec::new(), true, a.stats)),
            Outcome::Unknown if stop.is_set() => Err(Error::Interrupted),
            Outcome::Unknown => Err(Error::invalid(format!("{} gave up without an answer", self.kind))),
        }
    }
}

// ANCHOR: verify_orphan
/// Check an orphan found by the width search twice, by engines that search
/// does not use: the column automaton reading this one pattern, and CaDiCaL
/// on its encoding (free cells around it).
pub fn verify_orphan(rows: &[String], rule: Rule) -> Result<()> {
    let target = crate::automaton::width::target_of_rows(rows);
    if crate::automaton::decide(&target, rule)?.predecessor.is_some() {
        return Err(Error::invalid(
            "internal error: the column automaton finds a parent for the orphan found",
        ));
    }
    let enc = encode(&Problem::orphan(target, Boundary::Free), Encoding::default(), rule)?;
    let mut solver = new_solver(SolverKind::Cadical)?;
    match solve(&enc, solver.as_mut())?.outcome {
        Outcome::Unsat => Ok(()),
        Outcome::Sat => Err(Error::invalid("internal error: CaDiCaL finds a parent for the orphan found")),
        Outcome::Unknown => Err(Error::invalid("CaDiCaL gave up on the orphan found")),
    }
}
// ANCHOR_END: verify_orphan
