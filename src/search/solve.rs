//! Run a solver on an encoded problem and read the answer back as grids.
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

use crate::cnf::{Outcome, Solver, SolverKind, SolverStats, Stop, new_solver};
use crate::error::{Error, Result};
use crate::life::Grid;
use crate::search::encode::Encoded;
use crate::search::placement::Placement;
use std::time::Instant;

// ANCHOR: answer
/// One solve of a search.
#[derive(Debug, Clone)]
pub struct Answer {
    pub outcome: Outcome,
    /// With [`Outcome::Sat`]: every generation that has variables, generation
    /// 0 first (for a predecessor search, the parent window and the
    /// generations between it and the target).
    pub generations: Vec<Grid>,
    /// Time in the solver only (adding clauses and solving).
    pub millis: f64,
    pub stats: SolverStats,
}

/// The result of enumerating solutions projected on generation 0.
#[derive(Debug, Clone)]
pub struct CountResult {
    pub count: u64,
    /// False when the limit stopped the count early or the solver gave up.
    pub complete: bool,
    /// Generation 0 of every solution found, in the order found.
    pub solutions: Vec<Grid>,
    pub millis: f64,
    pub stats: SolverStats,
}
// ANCHOR_END: answer

fn load(enc: &Encoded, solver: &mut dyn Solver) {
    for c in enc.formula.clauses() {
        solver.add_clause(c);
    }
}

fn read_generations(enc: &Encoded, solver: &dyn Solver) -> Vec<Grid> {
    enc.layers
        .iter()
        .filter(|l| !l.cells.is_empty())
        .map(|l| l.grid(|v| solver.value(v).unwrap_or(false)))
        .collect()
}

// ANCHOR: solve
/// Load the formula into a fresh solver and solve once. A found answer has
/// been checked by simulation ([`Encoded::check`]); a wrong one is an error.
pub fn solve(enc: &Encoded, solver: &mut dyn Solver) -> Result<Answer> {
    let start = Instant::now();
    load(enc, solver);
    let outcome = solver.solve()?;
    let millis = start.elapsed().as_secs_f64() * 1e3;
    let mut generations = if outcome == Outcome::Sat { read_generations(enc, solver) } else { Vec::new() };
    if let Some(g0) = generations.first_mut() {
        *g0 = enc.check(std::mem::replace(g0, Grid::new(0, 0)), solver.name())?;
    }
    Ok(Answer { outcome, generations, millis, stats: solver.stats() })
}
// ANCHOR_END: solve

// ANCHOR: solve_until
/// Run `f` on a fresh solver of `kind` that raising `stop` interrupts; a flag
/// already up is [`Error::Interrupted`] before any work.
pub fn with_stop<T>(
    kind: SolverKind,
    stop: &Stop,
    f: impl FnOnce(&mut dyn Solver) -> Result<T>,
) -> Result<T> {
    let mut solver = new_solver(kind)?;
    let own = solver.stopper();
    let _hook = stop.add_hook(Box::new(move || own.interrupt()));
    if stop.is_set() { Err(Error::Interrupted) } else { f(solver.as_mut()) }
}

/// [`solve`] on a fresh solver of `kind` until it answers or `stop` is
/// raised: an interrupted solve is [`Error::Interrupted`], never
/// [`Outcome::Unknown`].
pub fn solve_until(enc: &Encoded, kind: SolverKind, stop: &Stop) -> Result<Answer> {
    let a = with_stop(kind, stop, |s| solve(enc, s))?;
    if a.outcome == Outcome::Unknown { Err(Error::Interrupted) } else { Ok(a) }
}
// ANCHOR_END: solve_until

// ANCHOR: count
/// Enumerate the distinct generation-0 patterns, blocking each one found,
/// until the formula becomes unsatisfiable or `limit` solutions are found.
/// Each one is checked by simulation before it is counted.
pub fn count(enc: &Encoded, solver: &mut dyn Solver, limit: Option<u64>) -> Result<CountResult> {
    if enc.placement == Placement::OneAnswer {
        return Err(Error::invalid(
            "a formula built to find one answer cannot count them (use Placement::Every)",
        ));
    }
    let start = Instant::now();
    load(enc, solver);
    let mut solutions = Vec::new();
    let complete = loop {
        if limit.is_some_and(|l| solutions.len() as u64 >= l) {
            break false;
        }
        match solver.solve()? {
            Outcome::Unsat => break true,
            Outcome::Unknown => break false,
            Outcome::Sat => {}
        }
        let vars = enc.projection();
        let block: Vec<_> = vars.iter().map(|&v| v.lit(!solver.value(v).unwrap_or(false))).collect();
        let start = enc.layers[0].grid(|v| solver.value(v).unwrap_or(false));
        solutions.push(enc.check(start, solver.name())?);
        solver.add_clause(&block);
    };
    Ok(CountResult {
        count: solutions.len() as u64,
        complete,
        solutions,
        millis: start.elapsed().as_secs_f64() * 1e3,
        stats: solver.stats(),
    })
}
// ANCHOR_END: count
