//! Incremental streams (thesis Section 6.3): many orphan questions about
//! patterns of one size against ONE formula. The formula says "the parent
//! window evolves into the target variables"; each question only changes
//! the assumptions that fix the target variables, so the solver keeps what
//! it learnt from earlier patterns. With a Gray-coded sequence successive
//! patterns differ in one cell, which is where this pays most.
//!
//! ```
//! use lifesearch::cnf::SolverKind;
//! use lifesearch::life::{Grid, SpecGrid};
//! use lifesearch::search::incremental::{PredecessorStream, gray_sequence};
//!
//! let mut stream = PredecessorStream::new(4, 4, SolverKind::Cadical).unwrap();
//! for g in gray_sequence(&Grid::new(4, 4), 8) {
//!     let a = stream.solve(&SpecGrid::from(&g)).unwrap();
//!     // a.orphan, a.predecessor (a 6x6 parent window), a.micros, a.stats
//!     assert!(!a.orphan); // every 4x4 pattern with few cells has a parent
//! }
//! ```
//!
//! Book: Part II, chapter 4, section 4.5 (`book/src/thesis/ch4.md`), used in chapter 6, section 6.3.

use crate::cnf::{
    Formula, IcnfItem, IcnfScript, Lit, Outcome, Solver, SolverKind, SolverStats, Var, new_solver,
};
use crate::error::{Error, Result};
use crate::life::{Cell, Grid, Rule, SpecGrid};
use crate::search::layer::{Layer, cell_name, new_layer, window};
use crate::search::problem::Encoding;
use crate::search::window::{Term, window_clauses};
use std::time::Instant;

// ANCHOR: stream
/// One formula for every `width` x `height` target, solved under assumptions.
pub struct PredecessorStream {
    width: usize,
    height: usize,
    formula: Formula,
    parent: Layer,
    targets: Vec<Var>,
    solver: Box<dyn Solver>,
    rule: Rule,
}

/// The answer to one question of a stream.
#[derive(Debug, Clone)]
pub struct StreamAnswer {
    /// No parent exists (the solver proved it).
    pub orphan: bool,
    pub outcome: Outcome,
    /// The (H+2) x (W+2) parent window when one exists.
    pub predecessor: Option<Grid>,
    /// Time of this solve call alone.
    pub micros: f64,
    /// The solver's counters so far (cumulative over the stream).
    pub stats: SolverStats,
}
// ANCHOR_END: stream

impl PredecessorStream {
    /// A stream for Conway's Life with a solver of the given kind.
    pub fn new(width: usize, height: usize, kind: SolverKind) -> Result<PredecessorStream> {
        PredecessorStream::with_solver(width, height, Rule::CONWAY, new_solver(kind)?)
    }

    /// A stream for any Life-like rule with a solver you made (and may have configured).
    pub fn with_solver(
        width: usize,
        height: usize,
        rule: Rule,
        solver: Box<dyn Solver>,
    ) -> Result<PredecessorStream> {
        PredecessorStream::with_encoding(width, height, rule, Encoding::Window, solver)
    }

    /// A stream with the chosen encoding of the step (`knuth`: Conway's rule only).
    pub fn with_encoding(
        width: usize,
        height: usize,
        rule: Rule,
        encoding: Encoding,
        mut solver: Box<dyn Solver>,
    ) -> Result<PredecessorStream> {
        if width == 0 || height == 0 {
            return Err(Error::invalid(format!("the box {width}x{height} is empty")));
        }
        let (formula, parent, targets) = match encoding {
            Encoding::Window => stream_formula(width, height, rule),
            Encoding::Knuth => {
                if rule != Rule::CONWAY {
                    return Err(Error::invalid("the knuth encoding only knows Conway's rule B3/S23"));
                }
                knuth_stream_formula(width, height)?
            }
        };
        for c in formula.clauses() {
            solver.add_clause(c);
        }
        Ok(PredecessorStream { width, height, formula, parent, targets, solver, rule })
    }

    /// The formula every question shares (parent cells `xay`, target cells `xby`).
    pub fn formula(&self) -> &Formula {
        &self.formula
    }

    /// The assumptions that put `target` into the formula: one literal per known cell.
    pub fn assumptions(&self, target: &SpecGrid) -> Result<Vec<Lit>> {
        if target.width() != self.width || target.height() != self.height {
            return Err(Error::invalid(format!(
                "a {}x{} pattern in a stream of {}x{} patterns",
                target.width(),
                target.height(),
                self.width,
                self.height
            )));
        }
        Ok(target
            .cells()
            .iter()
            .zip(&self.targets)
            .filter_map(|(c, v)| match c {
                Cell::Alive => Some(v.pos()),
                Cell::Dead => Some(v.neg()),
                Cell::Unknown => None,
            })
            .collect())
    }

    // ANCHOR: stream_solve
    /// Is `target` an orphan? Solves under assumptions only; the formula is
    /// untouched. A parent found is checked by simulation before it is returned.
    pub fn solve(&mut self, target: &SpecGrid) -> Result<StreamAnswer> {
        let assumptions = self.assumptions(target)?;
        let start = Instant::now();
        let outcome = self.solver.solve_with(&assumptions)?;
        let micros = start.elapsed().as_secs_f64() * 1e6;
        let predecessor = match outcome {
            Outcome::Sat => {
                let g = self.parent.grid(|v| self.solver.value(v).unwrap_or(false));
                Some(crate::search::verify::checked_parent(g, target, 1, self.rule, self.solver.name())?)
            }
            _ => None,
        };
        Ok(StreamAnswer {
            orphan: outcome == Outcome::Unsat,
            outcome,
            predecessor,
            micros,
            stats: self.solver.stats(),
        })
    }
    // ANCHOR_END: stream_solve

    /// The whole stream as an iCNF script: the shared clauses, then one `a` line per target.
    pub fn icnf(&self, targets: &[SpecGrid]) -> Result<IcnfScript> {
        let mut items: Vec<IcnfItem> = self.formula.clauses().iter().cloned().map(IcnfItem::Clause).collect();
        for t in targets {
            items.push(IcnfItem::Assume(self.assumptions(t)?));
        }
        Ok(IcnfScript { items })
    }

    /// The iCNF script of a stream without making a solver.
    pub fn icnf_for(
        width: usize,
        height: usize,
        rule: Rule,
        encoding: Encoding,
        targets: &[SpecGrid],
    ) -> Result<IcnfScript> {
        struct Null;
        impl Solver for Null {
            fn name(&self) -> &'static str {
                "none"
            }
            fn add_clause(&mut self, _: &[Lit]) {}
            fn solve_with(&mut self, _: &[Lit]) -> Result<Outcome> {
                Ok(Outcome::Unknown)
            }
            fn value(&self, _: Var) -> Option<bool> {
                None
            }
            fn failed_assumptions(&self) -> Option<Vec<Lit>> {
                None
            }
            fn stats(&self) -> SolverStats {
                SolverStats::default()
            }
            fn set_time_limit(&mut self, _: Option<std::time::Duration>) {}
            fn stopper(&self) -> crate::cnf::solver::Stop {
                crate::cnf::solver::Stop::default()
            }
        }
        PredecessorStream::with_encoding(width, height, rule, encoding, Box::new(Null))?.icnf(targets)
    }

    pub fn solver(&self) -> &dyn Solver {
        self.solver.as_ref()
    }
}

/// Parent window (W+2) x (H+2) at generation 0, target variables at generation 1,
/// and every target cell tied to its window (512 clauses each).
fn stream_formula(w: usize, h: usize, rule: Rule) -> (Formula, Layer, Vec<Var>) {
    let mut f = Formula::new();
    let parent = new_layer(&mut f, 0, -1, -1, w + 2, h + 2, 2);
    let mut targets = Vec::with_capacity(w * h);
    let mut out = Vec::new();
    for y in 0..h as isize {
        for x in 0..w as isize {
            let t = f.named(&cell_name(x, y, 1, 2));
            targets.push(t);
            window_clauses(rule, &window(&parent, x, y), Term::Lit(t.pos()), &mut out);
        }
    }
    for c in out {
        f.add(c);
    }
    (f, parent, targets)
}

/// The same with Knuth's SAT-LIFE network for the step (auxiliary variables included).
fn knuth_stream_formula(w: usize, h: usize) -> Result<(Formula, Layer, Vec<Var>)> {
    let mut f = Formula::new();
    let mut full = Grid::new(w + 2, h + 2);
    for y in 0..h + 2 {
        for x in 0..w + 2 {
            full.set(x, y, true);
        }
    }
    for c in crate::knuth::sat_life(&full, 0)? {
        let clause = c.iter().map(|l| f.named(&l.var.to_string()).lit(!l.neg)).collect();
        f.add(clause);
    }
    let parent = new_layer(&mut f, 0, -1, -1, w + 2, h + 2, 2);
    let mut targets = Vec::with_capacity(w * h);
    for y in 0..h as isize {
        for x in 0..w as isize {
            let name = cell_name(x, y, 1, 2);
            targets.push(
                f.var(&name).ok_or_else(|| Error::invalid(format!("knuth stream: no variable {name}")))?,
            );
        }
    }
    Ok((f, parent, targets))
}

// ANCHOR: gray
/// `count` patterns starting at `start`, each differing from the one before
/// in exactly one cell: pattern k flips cell number (trailing zeros of k)
/// (cells row-major, wrapping around), the binary reflected Gray code order.
pub fn gray_sequence(start: &Grid, count: usize) -> Vec<Grid> {
    let n = start.width() * start.height();
    let mut out = Vec::with_capacity(count);
    let mut g = start.clone();
    for k in 0..count {
        if k > 0 && n > 0 {
            let i = (k.trailing_zeros() as usize) % n;
            let (x, y) = (i % start.width(), i / start.width());
            g.set(x, y, !g.get(x, y));
        }
        out.push(g.clone());
    }
    out
}
// ANCHOR_END: gray
