//! Each SAT backend as an [`OrphanEngine`]: encode the question with one of
//! the two step encodings, solve once, read the parent back (checked by
//! [`crate::search::Encoded::check`]).
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

use crate::base::{Counters, OrphanEngine, OrphanQuery, Verdict};
use crate::cnf::{Outcome, SolverKind, new_solver};
use crate::error::{Error, Result};
use crate::life::Rule;
use crate::search::{Boundary, Encoding, Problem, encode, solve, with_stop};
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
        new_solver(self.kind).map(|_| ())
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
        let mut v =
            Verdict::new(parent, self.name(), start.elapsed(), Counters::from_pairs(&a.stats.pairs()));
        v.encode_time = Some(encode_time);
        Ok(v)
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
