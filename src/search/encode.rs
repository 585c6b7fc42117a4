//! From a [`Problem`] to a [`Formula`]: lay out the generations as layers of
//! cell variables, then constrain every step with the chosen encoding.
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

use crate::cnf::{Formula, Lit, Var};
use crate::error::Result;
use crate::life::{Cell, Grid, Rule};
use crate::search::problem::{Boundary, Encoding, Problem};
use crate::search::window::{Term, window_clauses};

/// Knuth's 84 time codes: generation `t` is named by the `t`-th character.
pub const TIME_CODES: &str =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

// ANCHOR: layer
/// One generation's cells: a rectangle at (x0, y0) in the problem's
/// coordinates (the box's top-left cell is (0, 0)); outside it every cell is dead.
#[derive(Debug, Clone)]
pub struct Layer {
    pub x0: isize,
    pub y0: isize,
    pub width: usize,
    pub height: usize,
    pub cells: Vec<Var>,
}
// ANCHOR_END: layer

impl Layer {
    /// The term of cell (x, y): its variable inside, dead outside.
    pub fn term(&self, x: isize, y: isize) -> Term {
        let (u, v) = (x - self.x0, y - self.y0);
        if u < 0 || v < 0 || u as usize >= self.width || v as usize >= self.height {
            Term::Const(false)
        } else {
            Term::Lit(self.cells[v as usize * self.width + u as usize].pos())
        }
    }
    /// The layer's cells under a model.
    pub fn grid(&self, value: impl Fn(Var) -> bool) -> Grid {
        let mut g = Grid::new(self.width, self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                g.set(x, y, value(self.cells[y * self.width + x]));
            }
        }
        g
    }
}

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
            Problem::Cycle { period, dx, dy, symmetry, .. } => {
                checked_cycle(start, *period, (*dx, *dy), *symmetry, self.rule, solver)
            }
        }
    }
}

/// The name of cell (x, y) of generation `t` in Knuth's style: row, time
/// code, column, both counted from 1 (`offset` shifts negative coordinates).
pub fn cell_name(x: isize, y: isize, t: usize, offset: isize) -> String {
    match TIME_CODES.chars().nth(t) {
        Some(c) => format!("{}{}{}", y + offset, c, x + offset),
        None => format!("{}@{}@{}", y + offset, t, x + offset),
    }
}

/// A fresh layer of named variables.
pub(crate) fn new_layer(
    f: &mut Formula,
    t: usize,
    x0: isize,
    y0: isize,
    w: usize,
    h: usize,
    offset: isize,
) -> Layer {
    let mut cells = Vec::with_capacity(w * h);
    for v in 0..h as isize {
        for u in 0..w as isize {
            cells.push(f.named(&cell_name(x0 + u, y0 + v, t, offset)));
        }
    }
    Layer { x0, y0, width: w, height: h, cells }
}

/// The 3x3 window of `layer` around (x, y), row-major.
pub(crate) fn window(layer: &Layer, x: isize, y: isize) -> [Term; 9] {
    std::array::from_fn(|i| layer.term(x + (i % 3) as isize - 1, y + (i / 3) as isize - 1))
}

/// Add `clauses` to the formula, checking for the empty clause of an impossible constant.
fn add_all(f: &mut Formula, clauses: Vec<Vec<Lit>>) {
    for c in clauses {
        f.add(c);
    }
}

/// The target after padding with a dead ring when asked.
pub fn effective_target(target: &crate::life::SpecGrid, boundary: Boundary) -> crate::life::SpecGrid {
    match boundary {
        Boundary::Free => target.clone(),
        Boundary::Dead => {
            let mut t = crate::life::SpecGrid::new(target.width + 2, target.height + 2, Cell::Dead);
            for y in 0..target.height {
                for x in 0..target.width {
                    t.set(x + 1, y + 1, target.get(x, y));
                }
            }
            t
        }
    }
}

// ANCHOR: encode
/// Encode a problem (after [`Problem::validate`]).
pub fn encode(problem: &Problem, encoding: Encoding, rule: Rule) -> Result<Encoded> {
    problem.validate(encoding, rule)?;
    let (formula, layers) = match encoding {
        Encoding::Window => match problem {
            Problem::Predecessor { target, generations, boundary } => {
                encode_predecessor(&effective_target(target, *boundary), *generations, rule)
            }
            Problem::Cycle { .. } => encode_cycle(problem, rule),
        },
        Encoding::Knuth => match problem {
            Problem::Predecessor { target, generations, boundary } => {
                crate::search::knuth_network::predecessor(&effective_target(target, *boundary), *generations)?
            }
            Problem::Cycle { .. } => crate::search::knuth_network::cycle(problem)?,
        },
    };
    Ok(Encoded { formula, layers, encoding, problem: problem.clone(), rule })
}
// ANCHOR_END: encode

/// Layers 0..t over shrinking rectangles, then the target's known cells.
fn encode_predecessor(target: &crate::life::SpecGrid, t: usize, rule: Rule) -> (Formula, Vec<Layer>) {
    let mut f = Formula::new();
    let (w, h) = (target.width, target.height);
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

/// The smallest prime factors of `p`, each once.
pub(crate) fn prime_factors(mut p: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut q = 2;
    while q * q <= p {
        if p.is_multiple_of(q) {
            out.push(q);
            while p.is_multiple_of(q) {
                p /= q;
            }
        }
        q += 1;
    }
    if p > 1 {
        out.push(p);
    }
    out
}

/// Caged cycles: `period` layers over the box; the step after the last
/// layer lands on layer 0 moved by (dx, dy).
fn encode_cycle(problem: &Problem, rule: Rule) -> (Formula, Vec<Layer>) {
    let Problem::Cycle { width: w, height: h, period: p, dx, dy, symmetry } = *problem else {
        unreachable!("encode_cycle takes cycles")
    };
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

/// What every cycle needs whatever the step encoding: not all dead, the
/// symmetry, and the exact period.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cycle_extras(
    f: &mut Formula,
    layers: &[Layer],
    w: usize,
    h: usize,
    p: usize,
    dx: isize,
    dy: isize,
    symmetry: crate::search::Symmetry,
) {
    // Not all dead.
    f.add(layers[0].cells.iter().map(|v| v.pos()).collect());
    // Symmetry: on every layer of an oscillator, on generation 0 of a spaceship.
    let sym_layers = if dx == 0 && dy == 0 { p } else { 1 };
    for layer in &layers[..sym_layers] {
        for y in 0..h {
            for x in 0..w {
                let a = layer.cells[y * w + x];
                for (u, v) in symmetry.images(w, h, x, y) {
                    let b = layer.cells[v * w + u];
                    if a != b {
                        f.add(vec![a.neg(), b.pos()]);
                        f.add(vec![a.pos(), b.neg()]);
                    }
                }
            }
        }
    }
    // Exact period: for each prime q dividing p, generation p/q is not
    // generation 0 moved by (dx/q, dy/q) (when that move is whole).
    for q in prime_factors(p) {
        let q = q as isize;
        if dx % q != 0 || dy % q != 0 {
            continue;
        }
        let (sx, sy) = (dx / q, dy / q);
        let d = p / q as usize;
        let mut differ = Vec::new();
        for y in sy.min(0)..h as isize + sy.max(0) {
            for x in sx.min(0)..w as isize + sx.max(0) {
                match (layers[d].term(x, y), layers[0].term(x - sx, y - sy)) {
                    (Term::Lit(a), Term::Lit(b)) => {
                        let dv = f.fresh();
                        f.add(vec![dv.neg(), a, b]);
                        f.add(vec![dv.neg(), !a, !b]);
                        differ.push(dv.pos());
                    }
                    (Term::Lit(a), Term::Const(false)) | (Term::Const(false), Term::Lit(a)) => differ.push(a),
                    _ => {}
                }
            }
        }
        f.add(differ);
    }
}
