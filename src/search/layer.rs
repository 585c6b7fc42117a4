//! The variables of a search: one [`Layer`] of named cells per generation,
//! Knuth's cell names, and the clauses every cycle needs whatever encodes
//! the step. Shared by both step encodings ([`crate::search::encode`](mod@crate::search::encode) and
//! [`crate::search::knuth_network`]), which thus do not import each other.
//!
//! Book: Part II, chapter 6, section 6.1 (`book/src/thesis/ch6.md`).

use crate::cnf::{Formula, Var};
use crate::life::Grid;
use crate::search::window::Term;

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
