//! The order in which the search decides cells: line by line across the
//! box, every generation of a cell together, starting at the leading edge
//! of the motion.
//!
//! Book: Part II, chapter 6, "A space-time propagation engine" (`book/src/knuth/spacetime.md`).

use super::table::{ALIVE, DEAD};
use crate::base::symmetry::Symmetry;

/// How the box is swept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum SearchOrder {
    /// Chosen from the box, its mirrors and the motion: lines along the
    /// side with fewer free cells (across a ship's motion unless they are
    /// 1.5 times as long), from the leading edge.
    #[default]
    Auto,
    /// Row by row (lines along x).
    Row,
    /// Column by column (lines along y).
    Column,
    /// Anti-diagonal lines x + y = const, from a corner (y - x = const
    /// for a stationary pattern under the anti-diagonal mirror).
    Diagonal,
    /// Rows or columns as `auto` would pick between them, each line from
    /// its fold outwards where a mirror folds it (rlifesrc's sweep).
    Fold,
}

// ANCHOR: resolve
/// The order `Auto` stands for: lines along the side with fewer free cells,
/// so that a line is short and the constraints close soon behind the sweep;
/// a mirror halves the side it folds (a c/3 ship moving along x in 6x9
/// takes 22,128 decisions row by row and 45,406 column by column, but
/// mirrored top-bottom 35,924 and 466).
/// A ship moving along one axis is swept in lines across its motion, from
/// the leading edge (its front is where most cells must stay dead, so
/// conflicts come early there), unless those lines are at least half as
/// long again as the lines along it: on 80 boxes whose lines across were
/// the longer (seed 2202), the sweep across made 0.12 of the other's
/// decisions where they were less than 1.5 times as long and 4.6 times
/// where they were longer; a fresh draw of 60 boxes below 1.5 (seed 3303)
/// gave 0.19, fewer decisions on 33 of the 35 boxes both settled, and 9
/// boxes settled only by the sweep across. A pattern
/// that stays put under a symmetry with the half turn, short of all eight
/// of the square, is swept along anti-diagonals instead: on 150 oscillator
/// boxes drawn at random it made a sixth of the row sweep's decisions with a
/// half turn and about half with both mirrors (geometric means; the book's
/// "The search order" gives the rest). So is one that stays put under a
/// single diagonal mirror, along the lines its mirror maps to themselves
/// (see `cells`): on a fresh draw of 40 square boxes, 0.64 and 0.38 of the
/// row sweep's decisions under the two mirrors.
pub fn resolve(
    order: SearchOrder,
    (w, h): (usize, usize),
    (dx, dy): (i64, i64),
    symmetry: Symmetry,
) -> SearchOrder {
    let diagonal_mirror = matches!(symmetry, Symmetry::Diagonal | Symmetry::AntiDiagonal);
    match order {
        SearchOrder::Auto
            if (dx, dy) == (0, 0)
                && symmetry != Symmetry::D8
                && (symmetry.has_half_turn() || diagonal_mirror) =>
        {
            SearchOrder::Diagonal
        }
        SearchOrder::Auto if dx != 0 && dy != 0 && w == h => SearchOrder::Diagonal,
        SearchOrder::Auto => lines((w, h), (dx, dy), symmetry),
        o => o,
    }
}

/// Rows or columns: the lines along the side with fewer free cells (a
/// mirror halves the side it folds), but across the motion of a ship moving
/// along one axis unless they are at least 1.5 times as long.
fn lines((w, h): (usize, usize), (dx, dy): (i64, i64), symmetry: Symmetry) -> SearchOrder {
    let free_w = if folds(symmetry, Symmetry::MirrorLr) { w.div_ceil(2) } else { w };
    let free_h = if folds(symmetry, Symmetry::MirrorUd) { h.div_ceil(2) } else { h };
    // The lines across the motion win unless they are half as long again.
    let across_wins = |across: usize, along: usize| 2 * across < 3 * along;
    let column = match (dx != 0, dy != 0) {
        (true, false) => across_wins(free_h, free_w),
        (false, true) => !across_wins(free_w, free_h),
        _ => free_w > free_h,
    };
    if column { SearchOrder::Column } else { SearchOrder::Row }
}

/// Does `symmetry` include `mirror` (left-right or top-bottom), folding each
/// line across it in two?
fn folds(symmetry: Symmetry, mirror: Symmetry) -> bool {
    matches!(symmetry, Symmetry::Quad | Symmetry::D8) || symmetry == mirror
}
// ANCHOR_END: resolve

/// Which value a decision tries first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum FirstValue {
    /// Alive first; for still lifes and oscillators, with a probe trying
    /// dead first when no answer comes soon.
    #[default]
    Auto,
    Dead,
    Alive,
}

// ANCHOR: first_value
/// The value `Auto` stands for, from measurement (`search-vs-peers` and
/// held-out sets): alive. A spaceship's front must hold a live cell and a
/// ship is dense near its front, so the first branch is usually right (a
/// c/3 ship in 16x5: 4,076 decisions dead first, 1,040 alive first). For a
/// stationary pattern neither value wins: a p3 in 7x7 takes 645 decisions
/// dead first and 3 million alive first, a p3 in 9x9 with a half turn
/// 4,428 alive first and 5.5 million dead first (the experiment `first-value` counts both on every problem of
/// `search-vs-peers`). Alive first is the value rlifesrc tries, so a box
/// that is quick for it is quick here too, and the probe (below) tries dead
/// first for the boxes where alive first is the unlucky one. A search that
/// proves "none" visits the same tree either way.
pub fn first_value(first: FirstValue) -> u8 {
    match first {
        FirstValue::Auto | FirstValue::Alive => ALIVE,
        FirstValue::Dead => DEAD,
    }
}
// ANCHOR_END: first_value

/// The box's cells (x, y) in the order of `order` (already resolved).
pub fn cells(
    order: SearchOrder,
    (w, h): (usize, usize),
    (dx, dy): (i64, i64),
    symmetry: Symmetry,
) -> Vec<(usize, usize)> {
    // A coordinate along the motion is swept from its far end when the motion is positive.
    let fx = |x: usize| if dx > 0 { w - 1 - x } else { x };
    let fy = |y: usize| if dy > 0 { h - 1 - y } else { y };
    let mut out = Vec::with_capacity(w * h);
    match resolve(order, (w, h), (dx, dy), symmetry) {
        SearchOrder::Fold => {
            if lines((w, h), (dx, dy), symmetry) == SearchOrder::Row {
                let along = from_fold(w, folds(symmetry, Symmetry::MirrorLr));
                for y in 0..h {
                    out.extend(along.iter().map(|&x| (x, fy(y))));
                }
            } else {
                let along = from_fold(h, folds(symmetry, Symmetry::MirrorUd));
                for x in 0..w {
                    out.extend(along.iter().map(|&y| (fx(x), y)));
                }
            }
        }
        SearchOrder::Row | SearchOrder::Auto => {
            for y in 0..h {
                for x in 0..w {
                    out.push((x, fy(y)));
                }
            }
        }
        SearchOrder::Column => {
            for x in 0..w {
                for y in 0..h {
                    out.push((fx(x), y));
                }
            }
        }
        SearchOrder::Diagonal => {
            // The lines x + y = const are the ones the mirror (x, y) -> (y, x)
            // keeps; the other diagonal mirror keeps y - x = const, which a
            // stationary pattern gets by sweeping from the other corner.
            let other = (dx, dy) == (0, 0) && symmetry == Symmetry::AntiDiagonal;
            let gx = |x: usize| if other { w - 1 - x } else { fx(x) };
            for s in 0..w + h - 1 {
                for x in 0..w {
                    if s >= x && s - x < h {
                        out.push((gx(x), fy(s - x)));
                    }
                }
            }
        }
    }
    out
}

/// The positions of a line of `n` cells: from the middle outwards when a
/// mirror folds it (the far half first, its twins after), else in order.
fn from_fold(n: usize, folded: bool) -> Vec<usize> {
    if folded { (n / 2..n).chain((0..n / 2).rev()).collect() } else { (0..n).collect() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mirror_halves_the_side_it_folds() {
        // A ship moving sideways in 6x9: lines across it are 1.5 times as
        // long, so rows, unless a mirror folds them to 5 cells.
        let (w, h) = (6, 9);
        assert_eq!(resolve(SearchOrder::Auto, (w, h), (1, 0), Symmetry::None), SearchOrder::Row);
        assert_eq!(resolve(SearchOrder::Auto, (w, h), (1, 0), Symmetry::MirrorUd), SearchOrder::Column);
        assert_eq!(resolve(SearchOrder::Auto, (h, w), (0, 1), Symmetry::None), SearchOrder::Column);
        assert_eq!(resolve(SearchOrder::Auto, (h, w), (0, 1), Symmetry::MirrorLr), SearchOrder::Row);
        assert_eq!(resolve(SearchOrder::Auto, (8, 9), (0, 0), Symmetry::MirrorLr), SearchOrder::Row);
        assert_eq!(resolve(SearchOrder::Auto, (9, 8), (0, 0), Symmetry::MirrorUd), SearchOrder::Column);
        assert_eq!(resolve(SearchOrder::Column, (w, h), (1, 0), Symmetry::None), SearchOrder::Column);
    }

    #[test]
    fn a_ship_is_swept_across_its_motion_unless_those_lines_are_half_as_long_again() {
        // Across the motion from the leading edge while the lines across
        // are shorter than 1.5 times the lines along it: 7 and 8 across 9.
        for (along, across) in [(7, 9), (8, 9), (6, 8), (9, 9), (9, 4)] {
            let sideways = resolve(SearchOrder::Auto, (along, across), (1, 0), Symmetry::None);
            let down = resolve(SearchOrder::Auto, (across, along), (0, -1), Symmetry::None);
            assert_eq!((sideways, down), (SearchOrder::Column, SearchOrder::Row), "{along}x{across}");
        }
        for (along, across) in [(6, 9), (4, 8), (5, 16)] {
            let sideways = resolve(SearchOrder::Auto, (along, across), (-1, 0), Symmetry::None);
            let down = resolve(SearchOrder::Auto, (across, along), (0, 1), Symmetry::None);
            assert_eq!((sideways, down), (SearchOrder::Row, SearchOrder::Column), "{along}x{across}");
        }
        // The sweep across starts at the leading edge: the front column of a ship moving right.
        let order = cells(SearchOrder::Auto, (7, 9), (1, 0), Symmetry::None);
        assert!(order[..9].iter().all(|&(x, _)| x == 6), "{:?}", &order[..9]);
    }

    #[test]
    fn a_stationary_pattern_with_the_half_turn_is_swept_diagonally() {
        for s in [Symmetry::Rot180, Symmetry::Quad, Symmetry::Rot90, Symmetry::BothDiagonals] {
            assert_eq!(resolve(SearchOrder::Auto, (8, 8), (0, 0), s), SearchOrder::Diagonal, "{s:?}");
        }
        // Every symmetry of the square keeps the row sweep: there the diagonal one was as often slower.
        assert_eq!(resolve(SearchOrder::Auto, (8, 8), (0, 0), Symmetry::D8), SearchOrder::Row);
        assert_eq!(resolve(SearchOrder::Auto, (6, 9), (0, 0), Symmetry::Rot180), SearchOrder::Diagonal);
        assert_eq!(resolve(SearchOrder::Auto, (8, 8), (0, 0), Symmetry::None), SearchOrder::Row);
        // So is a single diagonal mirror, each along the lines its mirror keeps.
        for s in [Symmetry::Diagonal, Symmetry::AntiDiagonal] {
            assert_eq!(resolve(SearchOrder::Auto, (8, 8), (0, 0), s), SearchOrder::Diagonal, "{s:?}");
        }
        // A spaceship keeps the sweep from its leading edge; an explicit order wins.
        assert_eq!(resolve(SearchOrder::Auto, (9, 6), (1, 0), Symmetry::Quad), SearchOrder::Column);
        assert_eq!(resolve(SearchOrder::Row, (8, 8), (0, 0), Symmetry::Rot90), SearchOrder::Row);
    }

    #[test]
    fn a_diagonal_sweep_visits_each_line_its_mirror_keeps_together() {
        let n = 7;
        for s in [Symmetry::Diagonal, Symmetry::AntiDiagonal] {
            let order = cells(SearchOrder::Auto, (n, n), (0, 0), s);
            let rank = |c: (usize, usize)| order.iter().position(|&d| d == c).unwrap();
            // Every cell's mirror image is decided on the same line (no line
            // is longer than n), so the sweep's lines close both halves at once.
            for &(x, y) in &order {
                let m = s.images(n, n, x, y)[0];
                let (a, b) = (rank((x, y)), rank(m));
                assert!(a.abs_diff(b) < n, "{s:?} {x},{y}: {a} {b}");
            }
        }
    }

    #[test]
    fn a_fold_sweep_starts_each_folded_line_at_its_fold() {
        // Both mirrors on a square: rows, each from its middle to its end.
        let order = cells(SearchOrder::Fold, (7, 7), (0, 0), Symmetry::Quad);
        let first_row: Vec<usize> = order[..7].iter().map(|&(x, y)| if y == 0 { x } else { 99 }).collect();
        assert_eq!(first_row, [3, 4, 5, 6, 2, 1, 0]);
        // A left-right mirror on a box that is wider once folded: columns, not folded.
        let order = cells(SearchOrder::Fold, (9, 4), (0, 0), Symmetry::MirrorLr);
        assert_eq!(&order[..4], &[(0, 0), (0, 1), (0, 2), (0, 3)]);
        // A ship moving down, mirrored left-right: rows from its leading edge, each from the fold.
        let order = cells(SearchOrder::Fold, (6, 8), (0, 1), Symmetry::MirrorLr);
        assert_eq!(&order[..3], &[(3, 7), (4, 7), (5, 7)]);
        // No mirror: the plain row sweep.
        let plain = cells(SearchOrder::Fold, (5, 5), (0, 0), Symmetry::Rot90);
        assert_eq!(plain, cells(SearchOrder::Row, (5, 5), (0, 0), Symmetry::Rot90));
    }

    #[test]
    fn every_order_is_a_permutation() {
        for order in [
            SearchOrder::Auto,
            SearchOrder::Row,
            SearchOrder::Column,
            SearchOrder::Diagonal,
            SearchOrder::Fold,
        ] {
            for (w, h, dx, dy) in [(5, 3, 0, 1), (3, 5, 1, 0), (4, 4, 1, 1), (1, 1, 0, 0), (6, 2, -1, 0)] {
                for s in [Symmetry::None, Symmetry::Quad] {
                    let mut c = cells(order, (w, h), (dx, dy), s);
                    c.sort();
                    let all: Vec<_> = (0..w).flat_map(|x| (0..h).map(move |y| (x, y))).collect();
                    assert_eq!(c, all, "{order:?} {w}x{h} {s:?}");
                }
            }
        }
    }
}
