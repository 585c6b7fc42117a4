//! Decide one pattern with the column automaton (Hardouin-Duparc, 1972). Read
//! the target one column at a time; a state is a pair of consecutive parent
//! columns, and reading target column `t` moves `(a, b)` to `(b, c)` when the
//! rule applied to columns `a`, `b`, `c` gives `t` on the interior cells. Every
//! pair may start (the cells around the target are free), and the pattern has a
//! parent exactly when some state survives the last column.
//!
//! Book: Part IV, "An exhaustive orphan census" (`book/src/beyond/census.md`).

use super::mask::Mask;
use super::table::{Line, MAX_SIDE, Table};
use crate::base::verify::checked_parent;
use crate::base::{Counters, OrphanEngine, OrphanQuery, Verdict};
use crate::error::{Error, Result};
use crate::life::{Cell, Grid, Rule, SpecGrid};

/// The automaton's answer for one pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AutomatonAnswer {
    /// A parent: the (W+2) x (H+2) window around the target, in the target's
    /// own orientation, checked by the naive engine before it is returned.
    pub predecessor: Option<Grid>,
    /// For an orphan: the 0-based column (row, if `transposed`) after which no
    /// state was left.
    pub emptied_at: Option<usize>,
    /// Whether the automaton read rows instead of columns (a wide, short pattern).
    pub transposed: bool,
    /// The most states alive after any column.
    pub peak_states: u64,
    /// Live states summed over all columns read (the transitions tried).
    pub states_expanded: u64,
}

/// A set of states: `set[a]` holds every `b` with `(a, b)` alive.
type StateSet = Vec<Mask>;

fn count(set: &StateSet) -> u64 {
    set.iter().map(|m| m.count() as u64).sum()
}

// ANCHOR: step
/// Read one target line: every live `(a, b)` sends the lines `c` that the
/// masks allow to `(b, c)`; a few word operations per live state.
fn step(set: &StateSet, masks: &super::table::StepMasks) -> StateSet {
    let mut next = vec![Mask::EMPTY; set.len()];
    for (a, row) in set.iter().enumerate() {
        for b in row.iter() {
            next[b] |= masks.allowed(a, b);
        }
    }
    next
}
// ANCHOR_END: step

/// The target as lines across the axis the automaton walks along, and whether
/// that meant reading rows (the pattern is wider than it is tall).
fn lines_of(target: &SpecGrid) -> Result<(Vec<Line>, usize, bool)> {
    let (w, h) = (target.width(), target.height());
    if w == 0 || h == 0 {
        return Err(Error::invalid(format!("the automaton needs a non-empty pattern, not {w}x{h}")));
    }
    if w.min(h) > MAX_SIDE {
        return Err(Error::invalid(format!(
            "the automaton reads patterns at most {MAX_SIDE} cells on their shorter side; this one is {w}x{h}"
        )));
    }
    let transposed = h > w;
    let (side, len) = if transposed { (w, h) } else { (h, w) };
    let cell = |i: usize, y: usize| if transposed { target.get(y, i) } else { target.get(i, y) };
    let lines = (0..len)
        .map(|i| {
            let mut l = Line { known: 0, alive: 0 };
            for y in 0..side {
                match cell(i, y) {
                    Cell::Unknown => {}
                    c => {
                        l.known |= 1 << y;
                        l.alive |= ((c == Cell::Alive) as u32) << y;
                    }
                }
            }
            l
        })
        .collect();
    Ok((lines, side, transposed))
}

// ANCHOR: decide
/// Does `target` have a parent under `rule`? Runs along the longer side; the
/// shorter one must be at most [`MAX_SIDE`]. A predecessor is rebuilt from the
/// stored state sets and evolved by the naive engine before it is returned.
pub fn decide(target: &SpecGrid, rule: Rule) -> Result<AutomatonAnswer> {
    if target.cells().len() != target.width() * target.height() {
        return Err(Error::invalid("malformed target: cell count differs from width x height"));
    }
    let (lines, side, transposed) = lines_of(target)?;
    let table = Table::new(rule, side);
    let all = Mask::below(table.lines());
    let mut layers: Vec<StateSet> = vec![vec![all; table.lines()]];
    let mut answer = AutomatonAnswer {
        predecessor: None,
        emptied_at: None,
        transposed,
        peak_states: count(&layers[0]),
        states_expanded: 0,
    };
    for (i, &line) in lines.iter().enumerate() {
        let cur = layers.last().expect("the first layer is there");
        answer.states_expanded += count(cur);
        let next = step(cur, &table.step_masks(line));
        let live = count(&next);
        answer.peak_states = answer.peak_states.max(live);
        if live == 0 {
            answer.emptied_at = Some(i);
            return Ok(answer);
        }
        layers.push(next);
    }
    let parent = walk_back(&table, &lines, &layers, transposed);
    let parent = checked_parent(parent, target, 1, rule, "automaton")?;
    answer.predecessor = Some(parent);
    Ok(answer)
}
// ANCHOR_END: decide

// ANCHOR: walk_back
/// Rebuild one parent from the layers: take any surviving pair, then walk
/// back, each time choosing a pair of the previous layer that leads to it.
fn walk_back(table: &Table, lines: &[Line], layers: &[StateSet], transposed: bool) -> Grid {
    let last = layers.last().expect("at least one layer");
    let (mut a, mut b) = last
        .iter()
        .enumerate()
        .find_map(|(a, m)| m.first().map(|b| (a, b)))
        .expect("the last layer is non-empty");
    // Parent lines, last first.
    let mut parent = vec![b, a];
    for i in (0..lines.len()).rev() {
        let prev = &layers[i];
        let z = (0..table.lines())
            .find(|&z| prev[z].contains(a) && table.allowed_slow(z, a, lines[i]).contains(b))
            .expect("every live state has a predecessor state");
        parent.push(z);
        (a, b) = (z, a);
    }
    parent.reverse();
    let side = table.side();
    let (w, h) = if transposed { (side + 2, parent.len()) } else { (parent.len(), side + 2) };
    let mut g = Grid::new(w, h);
    for (i, &col) in parent.iter().enumerate() {
        for y in 0..side + 2 {
            let alive = col >> y & 1 == 1;
            if transposed { g.set(y, i, alive) } else { g.set(i, y, alive) }
        }
    }
    g
}
// ANCHOR_END: walk_back

/// The column automaton as an [`OrphanEngine`]: any Life-like rule, targets at
/// most [`MAX_SIDE`] cells on their shorter side. It cannot be stopped, but
/// ends within milliseconds.
#[derive(Debug, Clone, Copy, Default)]
pub struct Engine;

impl OrphanEngine for Engine {
    fn name(&self) -> &'static str {
        "automaton"
    }
    fn supports(&self, q: &OrphanQuery) -> Result<()> {
        lines_of(&q.searched()).map(|_| ())
    }
    fn decide(&self, q: &OrphanQuery) -> Result<Verdict> {
        let start = std::time::Instant::now();
        let a = decide(&q.searched(), q.rule)?;
        let counters = Counters {
            peak_states: Some(a.peak_states),
            states_expanded: Some(a.states_expanded),
            ..Counters::default()
        };
        let mut v = Verdict::new(a.predecessor, self.name(), start.elapsed(), counters);
        v.transposed = Some(a.transposed);
        v.emptied_at = a.emptied_at;
        Ok(v)
    }
}
