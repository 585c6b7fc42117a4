//! From a [`Problem`] to a [`Formula`]: lay out the generations as layers of
//! cell variables, then constrain every step with the chosen encoding.
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

use crate::cnf::{Formula, Lit, Var};
use crate::error::Result;
use crate::life::{Cell, Grid, Rule};
pub use crate::search::layer::{Layer, TIME_CODES, cell_name};
pub(crate) use crate::search::layer::{cycle_extras, new_layer, window};
use crate::search::placement::{Placement, live_groups};
use crate::search::problem::{Cycle, Encoding, Problem};
use crate::search::spacetime::SearchOrder;
use crate::search::window::{Term, window_clauses};

// ANCHOR: encoded
/// A problem as CNF, with the map from cells to variables.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub formula: Formula,
    /// Generation 0 first. For a predecessor search the last generation is
    /// the target and has no variables; for a cycle there are `period` layers.
    pub layers: Vec<Layer>,
    pub encoding: Encoding,
    /// The question and rule, so that every answer can be checked against
    /// them before it is returned ([`Encoded::check`]).
    pub problem: Problem,
    pub rule: Rule,
    /// Which placements of a cycle the formula admits (see [`encode_with`]).
    pub placement: Placement,
}
// ANCHOR_END: encoded

impl Encoded {
    /// Generation-0 variables: solutions are counted projected on these.
    pub fn projection(&self) -> &[Var] {
        &self.layers[0].cells
    }

    /// Generation 0 of an answer from `solver`, checked by simulation against
    /// the problem (see [`crate::search::verify::checked_parent`]).
    pub fn check(&self, start: Grid, solver: &str) -> Result<Grid> {
        use crate::search::verify::{checked_cycle, checked_parent};
        match &self.problem {
            Problem::Predecessor { target, generations, boundary } => {
                checked_parent(start, &effective_target(target, *boundary), *generations, self.rule, solver)
            }
            Problem::Cycle(Cycle { period, dx, dy, symmetry, .. }) => {
                checked_cycle(start, *period, (*dx, *dy), *symmetry, self.rule, solver)
            }
        }
    }
}

/// Add `clauses` to the formula, checking for the empty clause of an impossible constant.
fn add_all(f: &mut Formula, clauses: Vec<Vec<Lit>>) {
    for c in clauses {
        f.add(c);
    }
}

pub use crate::base::orphan::effective_target;

// ANCHOR: encode
/// Encode a problem (after [`Problem::validate`]), admitting every placement
/// of a cycle in its box: [`crate::search::count`] counts each of them.
pub fn encode(problem: &Problem, encoding: Encoding, rule: Rule) -> Result<Encoded> {
    encode_with(problem, encoding, rule, Placement::Every)
}

/// Encode a problem admitting only the placements `placement` names: one
/// clause per group of [`live_groups`] over the cycle's layers, the same
/// groups the space-time engine propagates. [`Placement::OneAnswer`] is for
/// finding one answer (or proving there is none), never for counting.
pub fn encode_with(
    problem: &Problem,
    encoding: Encoding,
    rule: Rule,
    placement: Placement,
) -> Result<Encoded> {
    problem.validate(encoding, rule)?;
    let (mut formula, layers) = match encoding {
        Encoding::Window => match problem {
            Problem::Predecessor { target, generations, boundary } => {
                encode_predecessor(&effective_target(target, *boundary), *generations, rule)
            }
            Problem::Cycle(c) => encode_cycle(*c, rule),
        },
        Encoding::Knuth => match problem {
            Problem::Predecessor { target, generations, boundary } => {
                crate::search::knuth_network::predecessor(&effective_target(target, *boundary), *generations)?
            }
            Problem::Cycle(c) => crate::search::knuth_network::cycle(c)?,
        },
    };
    for group in live_groups(problem, placement, SearchOrder::Auto) {
        formula
            .add(group.into_iter().map(|(x, y, t)| layers[t].cells[y * layers[t].width + x].pos()).collect());
    }
    Ok(Encoded { formula, layers, encoding, problem: problem.clone(), rule, placement })
}
// ANCHOR_END: encode

/// Layers 0..t over shrinking rectangles, then the target's known cells.
fn encode_predecessor(target: &crate::life::SpecGrid, t: usize, rule: Rule) -> (Formula, Vec<Layer>) {
    let mut f = Formula::new();
    let (w, h) = (target.width(), target.height());
    let offset = t as isize + 1;
    let mut layers: Vec<Layer> = Vec::new();
    for k in 0..t {
        let m = (t - k) as isize;
        layers.push(new_layer(&mut f, k, -m, -m, w + 2 * m as usize, h + 2 * m as usize, offset));
        if k > 0 {
            let (prev, cur) = (&layers[k - 1], &layers[k]);
            let mut out = Vec::new();
            for (i, &v) in cur.cells.iter().enumerate() {
                let (x, y) = (cur.x0 + (i % cur.width) as isize, cur.y0 + (i / cur.width) as isize);
                window_clauses(rule, &window(prev, x, y), Term::Lit(v.pos()), &mut out);
            }
            add_all(&mut f, out);
        }
    }
    let last = &layers[t - 1];
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let want = match target.get(x, y) {
                Cell::Alive => true,
                Cell::Dead => false,
                Cell::Unknown => continue,
            };
            window_clauses(rule, &window(last, x as isize, y as isize), Term::Const(want), &mut out);
        }
    }
    add_all(&mut f, out);
    layers.push(Layer { x0: 0, y0: 0, width: w, height: h, cells: Vec::new() });
    (f, layers)
}

/// Caged cycles: `period` layers over the box; the step after the last
/// layer lands on layer 0 moved by (dx, dy).
fn encode_cycle(cycle: Cycle, rule: Rule) -> (Formula, Vec<Layer>) {
    let Cycle { width: w, height: h, period: p, dx, dy, symmetry } = cycle;
    let mut f = Formula::new();
    let layers: Vec<Layer> = (0..p).map(|t| new_layer(&mut f, t, 0, 0, w, h, 1)).collect();
    let (dx, dy) = (dx as isize, dy as isize);
    // Every step, including the ring just outside the box (no births there).
    let mut out = Vec::new();
    for t in 0..p {
        let prev = &layers[t];
        for y in -1..=h as isize {
            for x in -1..=w as isize {
                let target =
                    if t + 1 < p { layers[t + 1].term(x, y) } else { layers[0].term(x - dx, y - dy) };
                window_clauses(rule, &window(prev, x, y), target, &mut out);
            }
        }
    }
    add_all(&mut f, out);
    // A live cell of generation 0 must reappear at its moved place, which
    // must lie in the box or its ring; beyond the ring it cannot.
    for y in 0..h as isize {
        for x in 0..w as isize {
            let (u, v) = (x + dx, y + dy);
            if u < -1 || v < -1 || u > w as isize || v > h as isize {
                f.add(vec![layers[0].cells[y as usize * w + x as usize].neg()]);
            }
        }
    }
    cycle_extras(&mut f, &layers, w, h, p, dx, dy, symmetry);
    (f, layers)
}
