//! Clusters: the 8-connected groups of live cells (WinLife's cluster finder).
//!
//! Think of the live cells as the vertices of a graph, with an edge between
//! two live cells that touch, side or corner. A cluster is a connected
//! component of that graph. WinLife finds them with the depth-first traversal
//! from Shimon Even's *Graph Algorithms*, and so do we: iteratively, with the
//! way back stored in the cells themselves (each cell remembers its *father*),
//! so that a board full of live cells needs no deep call stack.
//!
//! # The traversal
//!
//! Every edge has two ends, and we keep one mark per end: the mark at `u` for
//! the edge `u`-`v` says "this edge has been dealt with, as seen from `u`".
//! Marking an edge sets both of its marks at once. Standing at cell `u`:
//!
//! 1. if `u` has an edge without a mark, mark it and look at the cell `v`
//!    at its other end. If `v` has no label yet, it is entered for the first
//!    time: label it, make `u` its father, and step to `v`. If `v` was already
//!    labelled, stay at `u`: the edge counts as walked there and back.
//! 2. if all of `u`'s edges are marked, step back to `u`'s father; if `u` is
//!    the start cell, which has no father, the traversal is over.
//!
//! # Why it stops
//!
//! The walk moves in two ways: forwards, along an edge that was unmarked
//! (the move marks it), or backwards, from a cell to its father. A forward
//! move uses up an unmarked edge, so there are at most as many forward moves
//! as edges. A backward move out of `u` happens only when all of `u`'s edges
//! are marked, and after it the walk never stands at `u` again: a forward move
//! into `u` would need `u` unlabelled, and a backward move into `u` would need
//! a cell whose father is `u` still to be left, but such cells are entered
//! from `u` while the walk stands at `u`, and are left for good before the
//! walk is back there. So each cell is left backwards at most once, along the
//! edge to its father, which was walked forwards exactly once, when the cell
//! was entered. No edge is walked twice in the same direction, the walk has
//! at most two moves per edge ("each edge traversed once in each direction"),
//! and standing still cannot go on forever, because case 1 marks an edge
//! every time. Hence the traversal stops.
//!
//! # Where it stops, and why it has seen everything
//!
//! The walk can only end in case 2 at a cell without a father, and the start
//! cell is the only such cell (every other labelled cell got its father when it
//! was first entered). So the walk ends at the start, with all of the start's
//! edges marked.
//!
//! Suppose some cell `w` of the start's cluster were never labelled. Follow a
//! path of touching live cells from the start to `w`: somewhere along it a
//! labelled cell `u` touches an unlabelled cell `v`. The walk left `u` for good
//! at some moment (or, if `u` is the start, ended there), and at that moment
//! all of `u`'s edges were marked, including `u`-`v`. But the edge `u`-`v` is
//! only marked by a step taken from `u` towards `v` or from `v` towards `u`;
//! the first labels `v` (it was unlabelled), and the second needs the walk to
//! stand at `v`, which is only possible once `v` is labelled. Either way `v` is
//! labelled: a contradiction. So one traversal labels exactly the cluster of
//! its start cell: every cell it labels touches, through fathers, the start.
//!
//! The outer loop scans the board in row order and starts a traversal at each
//! live cell that has no label yet; each traversal opens a new cluster.
//!
//! Book: Part III, "Finding clusters" (`book/src/winlife/clusters.md`).

use crate::life::grid::Grid;

/// A cluster: how many live cells, and the smallest rectangle holding them
/// (in the grid's coordinates).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cluster {
    pub size: usize,
    pub x: usize,
    pub y: usize,
    pub width: usize,
    pub height: usize,
}

/// The clusters of a grid, in the order their first cell (in row order) is met,
/// and each cell's cluster: `labels[y * width + x]` is 0 for a dead cell and
/// `k + 1` for a cell of `clusters[k]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clusters {
    pub width: usize,
    pub height: usize,
    pub labels: Vec<u32>,
    pub clusters: Vec<Cluster>,
}

/// The eight directions, numbered so that the opposite of `d` is `7 - d`.
const DIRECTIONS: [(isize, isize); 8] =
    [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// No father: the start cell of a traversal.
const NONE: u32 = u32::MAX;

// ANCHOR: cluster_dfs
/// Label the 8-connected clusters of live cells by Even's depth-first traversal.
pub fn find_clusters(g: &Grid) -> Clusters {
    let (w, h) = (g.width(), g.height());
    assert!(w * h < NONE as usize, "grid too large to label");
    let mut labels = vec![0u32; w * h];
    let mut father = vec![NONE; w * h];
    // Bit d of marks[i]: the edge from cell i in direction d is marked (seen from i).
    let mut marks = vec![0u8; w * h];
    let mut clusters = Vec::new();
    // The neighbour of cell i in direction d, if it lies on the grid and is live.
    let neighbour = |i: usize, d: usize| -> Option<usize> {
        let (dx, dy) = DIRECTIONS[d];
        let (x, y) = ((i % w) as isize + dx, (i / w) as isize + dy);
        g.get_or_dead(x, y).then(|| y as usize * w + x as usize)
    };
    for start in 0..w * h {
        if !g.cells()[start] || labels[start] != 0 {
            continue;
        }
        let label = clusters.len() as u32 + 1;
        let mut c = Cluster { size: 1, x: start % w, y: start / w, width: 1, height: 1 };
        let (mut x1, mut y1) = (c.x, c.y);
        labels[start] = label;
        let mut cell = start;
        loop {
            // Find the next unmarked edge of `cell` (edges lead to live neighbours only).
            let edge = (0..8).find(|&d| marks[cell] >> d & 1 == 0 && neighbour(cell, d).is_some());
            match edge {
                Some(d) => {
                    let next = neighbour(cell, d).expect("edges lead to live cells");
                    marks[cell] |= 1 << d;
                    marks[next] |= 1 << (7 - d);
                    if labels[next] == 0 {
                        // Entered for the first time: record the way back and step.
                        labels[next] = label;
                        father[next] = cell as u32;
                        let (x, y) = (next % w, next / w);
                        c.size += 1;
                        (c.x, c.y, x1, y1) = (c.x.min(x), c.y.min(y), x1.max(x), y1.max(y));
                        cell = next;
                    }
                    // Else: already labelled; the edge counts as walked both ways.
                }
                None if father[cell] == NONE => break, // back at the start
                None => cell = father[cell] as usize,  // backtrack along the father edge
            }
        }
        (c.width, c.height) = (x1 - c.x + 1, y1 - c.y + 1);
        clusters.push(c);
    }
    Clusters { width: w, height: h, labels, clusters }
}
// ANCHOR_END: cluster_dfs
