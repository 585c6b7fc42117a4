//! Which placements of a cycle in its box a search admits. A still life,
//! oscillator or spaceship that fits a box usually fits it in several
//! places, and an oscillator or ship has one generation 0 per phase. Every
//! engine of `search` (the SAT encodings and the space-time engine) takes
//! the same [`Placement`] and the same groups of cells from [`live_groups`],
//! each of which must hold a live cell, so they answer the same question:
//! the SAT encodings as one clause per group, the space-time engine as one
//! propagating group.
//!
//! Book: Part I, "A space-time propagation engine" (`book/src/knuth/spacetime.md`).

use crate::search::problem::{Cycle, Problem, Symmetry};
use crate::search::spacetime::order::{self, SearchOrder};

// ANCHOR: placement
/// Which placements of an answer a search admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// Every placement in the box and every phase: counting counts each.
    #[default]
    Every,
    /// One placement per translation: some generation touches the first row
    /// and some the first column (where no symmetry pins the pattern).
    /// Counting counts patterns up to translation (still every phase).
    UpToTranslation,
    /// For finding one answer (never for counting): up to translation, and
    /// besides a phase and a mirror image chosen so that the first line the
    /// search sweeps is non-empty at generation 0 ([`live_groups`]).
    OneAnswer,
}
// ANCHOR_END: placement

// ANCHOR: translation
/// Which translations of an answer the symmetry leaves free: a pattern that
/// no generation puts on row 0 can move up a row and stay an answer, unless a
/// symmetry pins it vertically (and likewise for columns).
pub fn translation_free(s: Symmetry) -> (bool, bool) {
    match s {
        Symmetry::None => (true, true),
        Symmetry::MirrorLr => (true, false),
        Symmetry::MirrorUd => (false, true),
        _ => (false, false),
    }
}
// ANCHOR_END: translation

/// A cell (x, y) of generation t.
pub type Cell = (usize, usize, usize);

// ANCHOR: front
/// The groups of cells of `problem` (a cycle) of which each must hold a live
/// cell under `placement`; `sweep` is the search order (resolved) whose first
/// line [`Placement::OneAnswer`] makes non-empty at generation 0.
///
/// Up to translation, some generation touches row 0 and some touches column
/// 0. To find one answer, an oscillator may also start at any phase and be
/// mirrored left-right (or top-bottom), so the front, the first line of the
/// sweep, is non-empty at generation 0 in its first half: a search learns at
/// once when a front fails. A spaceship's front is [`ship_front`].
pub fn live_groups(problem: &Problem, placement: Placement, sweep: SearchOrder) -> Vec<Vec<Cell>> {
    let Problem::Cycle(Cycle { width: w, height: h, period: p, dx, dy, symmetry }) = *problem else {
        return Vec::new();
    };
    if placement == Placement::Every {
        return Vec::new();
    }
    if placement == Placement::OneAnswer && (dx != 0 || dy != 0) {
        return ship_front((w, h, p), (dx, dy), symmetry);
    }
    let (rows, cols) = translation_free(symmetry);
    let sweep = order::resolve(sweep, (w, h), (dx, dy), symmetry);
    let one = placement == Placement::OneAnswer;
    let mut groups = Vec::new();
    if rows {
        groups.push(if one && sweep == SearchOrder::Row {
            (0..=w / 2).map(|x| (x, 0, 0)).collect()
        } else {
            top_row(w, p)
        });
    }
    if cols {
        groups.push(if one && sweep == SearchOrder::Column {
            (0..=h / 2).map(|y| (0, y, 0)).collect()
        } else {
            left_column(h, p)
        });
    }
    groups
}
// ANCHOR_END: front

/// Row 0 of every generation.
fn top_row(w: usize, p: usize) -> Vec<Cell> {
    (0..p).flat_map(|t| (0..w).map(move |x| (x, 0, t))).collect()
}

/// Column 0 of every generation.
fn left_column(h: usize, p: usize) -> Vec<Cell> {
    (0..p).flat_map(|t| (0..h).map(move |y| (0, y, t))).collect()
}

// ANCHOR: ship_front
/// The front of a spaceship search. Cells nearer the leading edge than
/// |d| - 1 lines are dead at generation 0 (their predecessors would lie
/// beyond the ring); if line |d| - 1 (and, moving diagonally, the column
/// |dx| - 1 as well) is empty too, generation 0 moved by (dx, dy) still
/// fits the box, so generations 1..=P are an answer as well: advancing the
/// phase until the front is non-empty always ends, since the pattern cannot
/// move forever in a box. So some answer has a live front at generation 0,
/// and the search decides the front first. Across an orthogonal motion the
/// translation stays free (some generation touches the first line) and,
/// with no symmetry, the mirror image across the motion is an answer too,
/// so half the front suffices (mirror, then move back to the first line:
/// the front cell only moves nearer to it).
pub fn ship_front(
    (w, h, p): (usize, usize, usize),
    (dx, dy): (i64, i64),
    symmetry: Symmetry,
) -> Vec<Vec<Cell>> {
    let (ax, ay) = (dx.unsigned_abs() as usize, dy.unsigned_abs() as usize);
    let free = symmetry == Symmetry::None;
    let mut front = Vec::new();
    if ay > 0 && ay <= h {
        let yf = if dy > 0 { h - ay } else { ay - 1 };
        let xs = if dx == 0 && free { w / 2 + 1 } else { w };
        front.extend((0..xs).map(|x| (x, yf, 0)));
    }
    if ax > 0 && ax <= w {
        let xf = if dx > 0 { w - ax } else { ax - 1 };
        let ys = if dy == 0 && free { h / 2 + 1 } else { h };
        front.extend((0..ys).map(|y| (xf, y, 0)));
    }
    let mut groups = vec![front];
    let (rows, cols) = translation_free(symmetry);
    if dx == 0 && cols {
        groups.push(left_column(h, p));
    }
    if dy == 0 && rows {
        groups.push(top_row(w, p));
    }
    groups
}
// ANCHOR_END: ship_front
