//! The thesis' orphan candidates (REPRODUCTION-NOTES, "The patterns"): 10x10
//! patterns assembled from four 5x5 quadrants drawn from the 5x5 patterns with
//! the fewest 7x7 ancestors. Figures 6.1/6.2 use the 50 rarest (125,000
//! candidates), Table 6.2 the 4 rarest (its first 20, tiled 2x2 and 4x4).

use crate::exp::ancestors::Ancestors;
use crate::harness::{Ctx, Experiment};
use anyhow::{Context, Result, bail};
use lifesearch::gridwalker::Variant;
use lifesearch::life::{Grid, SpecGrid};
use lifesearch::search::ancestors::transpose;

/// Keep the cells of a q x q pattern on or above the diagonal (x >= y) and
/// mirror them across it, giving a transpose-symmetric pattern.
pub fn symmetrise(p: u64, q: usize) -> u64 {
    let on_or_above = (0..q).flat_map(|y| (y..q).map(move |x| 1u64 << (y * q + x))).fold(0, |m, b| m | b);
    let kept = p & on_or_above;
    kept | transpose(kept, q)
}

// ANCHOR: candidate
/// The candidate for quadrant choices (nw, sw, ne) from `rank` (rarest first):
/// NW = the pattern itself, SE = its transpose, SW and NE made
/// transpose-symmetric; quadrants at (0,0), (q,0) NE, (0,q) SW, (q,q) SE.
pub fn candidate(rank: &[u64], q: usize, nw: usize, sw: usize, ne: usize) -> Grid {
    let quads = [
        (0, 0, rank[nw]),
        (q, 0, symmetrise(rank[ne], q)),
        (0, q, symmetrise(rank[sw], q)),
        (q, q, transpose(rank[nw], q)),
    ];
    let mut g = Grid::new(2 * q, 2 * q);
    for (ox, oy, p) in quads {
        for i in 0..q * q {
            g.set(ox + i % q, oy + i / q, (p >> i) & 1 == 1);
        }
    }
    g
}

/// All candidates over the `m` rarest patterns in generation order (loops NW,
/// SW, NE with NE innermost), with their (nw, sw, ne) choices (0-based ranks).
pub fn candidates(rank: &[u64], q: usize, m: usize) -> Vec<((usize, usize, usize), Grid)> {
    let choices = (0..m).flat_map(|nw| (0..m).flat_map(move |sw| (0..m).map(move |ne| (nw, sw, ne))));
    choices.map(|(nw, sw, ne)| ((nw, sw, ne), candidate(rank, q, nw, sw, ne))).collect()
}
// ANCHOR_END: candidate

/// A grid tiled `t` x `t` times.
pub fn tile(g: &Grid, t: usize) -> Grid {
    let (w, h) = (g.width(), g.height());
    let cells = (0..h * t).flat_map(|y| (0..w * t).map(move |x| g.get(x % w, y % h)));
    Grid::from_cells(w * t, h * t, cells.collect())
}

/// The 10x10 patterns behind Table 6.2: the first 20 candidates over the 4
/// rarest patterns, in generation order.
pub fn table_6_2_bases(rank: &[u64], q: usize) -> Vec<Grid> {
    candidates(rank, q, 4).into_iter().take(20).map(|c| c.1).collect()
}

/// Table 6.2's batches: the bases tiled 2x2 and 4x4.
pub fn table_6_2_batches(rank: &[u64], q: usize) -> (Vec<Grid>, Vec<Grid>) {
    let first = table_6_2_bases(rank, q);
    (first.iter().map(|g| tile(g, 2)).collect(), first.iter().map(|g| tile(g, 4)).collect())
}

/// How the order within ties was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TieOrder {
    /// Ascending pattern number (no thesis data to go by).
    PatternNumber,
    /// The thesis' own order, recovered from its raw statistics.
    Thesis,
}

/// The ranking to build candidates from, as the `section-6-4-ancestors`
/// experiment committed it (rarest first, ties by pattern number): for the
/// 5x5 ranking, ties in the thesis' own order, recovered from its raw
/// statistics; for another side (the smoke test's 4x4) by pattern number, as
/// there is nothing to recover.
pub fn load_ranking(ctx: &Ctx) -> Result<(usize, Vec<u64>, TieOrder)> {
    let path = ctx.csv(Ancestors::ID);
    if !path.exists() {
        bail!("{}: missing; run `experiments run {}` first", path.display(), Ancestors::ID);
    }
    let rows: Vec<super::exp::ancestors::Row> = crate::harness::read_rows(&path)?;
    let q = rows.first().context("empty ranking")?.side;
    let ranking: Vec<(u64, u64)> = rows.iter().map(|r| (r.pattern, r.ancestors)).collect();
    if q == 5 {
        let stats = crate::thesis::stats(&ctx.thesis)?;
        return Ok((q, thesis_order(&ranking, &stats, 50)?, TieOrder::Thesis));
    }
    Ok((q, ranking.iter().map(|r| r.0).collect(), TieOrder::PatternNumber))
}

// ANCHOR: thesis_order
/// The thesis sorted its 2^25 counts with an unstable sort, so which of several
/// equally rare patterns comes first is not a rule we can state, but its raw
/// statistics show it: candidate `k * m * m + 1` has the k-th pattern as its NW
/// quadrant and the rarest (which has no tie) elsewhere, and GRIDWALKER's N-S and
/// E-W confrontation counts single out which pattern of the tie group that is.
/// Every position must match exactly one pattern, or this is an error.
pub fn thesis_order(ranking: &[(u64, u64)], stats: &[[u64; 12]], m: usize) -> Result<Vec<u64>> {
    let first = ranking.first().context("empty ranking")?;
    if ranking.get(1).is_some_and(|r| r.1 == first.1) {
        bail!("the rarest pattern is tied; the thesis' order cannot be recovered this way");
    }
    let lookups = |nw: u64| -> Result<(u64, u64)> {
        let g = candidate(&[nw, first.0], 5, 0, 1, 1);
        let a = crate::exp::gw::decide(&SpecGrid::from(&g), Variant::Basic, 1)?;
        let s = |n| a.stat(n).unwrap_or(0);
        Ok((s("ns_confrontations"), s("ew_confrontations")))
    };
    let mut order: Vec<u64> = Vec::with_capacity(m);
    for k in 0..m {
        let count = ranking.get(k).context("ranking too short")?.1;
        if ranking.last().is_some_and(|l| l.1 == count) {
            bail!("the tie group at rank {} may continue past the committed ranking", k + 1);
        }
        let want = stats.get(k * m * m).map(|s| (s[3], s[5])).context("thesis statistics too short")?;
        let mut hits = Vec::new();
        for &(p, c) in ranking {
            if c == count && !order.contains(&p) && lookups(p)? == want {
                hits.push(p);
            }
        }
        match hits[..] {
            [p] => order.push(p),
            [] => {
                bail!("rank {}: no pattern with {count} ancestors gives the thesis' lookups {want:?}", k + 1)
            }
            _ => bail!("rank {}: {} patterns give the thesis' lookups {want:?}", k + 1, hits.len()),
        }
    }
    Ok(order)
}
// ANCHOR_END: thesis_order

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetrise_is_symmetric_and_idempotent() {
        for p in [0u64, 1, 0b10, 0x1ff_ffff, 0x0a5_a5a5, 12345678] {
            let s = symmetrise(p, 5);
            assert_eq!(transpose(s, 5), s);
            assert_eq!(symmetrise(s, 5), s);
        }
        // Cell (1,0) (above the diagonal) is kept and mirrored to (0,1); (0,1) alone is dropped.
        assert_eq!(symmetrise(1 << 1, 5), (1 << 1) | (1 << 5));
        assert_eq!(symmetrise(1 << 5, 5), 0);
    }

    #[test]
    fn candidates_follow_the_loop_order_and_placement() {
        let rank: Vec<u64> = (0..5).map(|i| 1u64 << (i * 6)).collect(); // diagonal cells, already symmetric
        let c = candidates(&rank, 5, 3);
        assert_eq!(c.len(), 27);
        assert_eq!(c[1].0, (0, 0, 1)); // NE innermost
        assert_eq!(c[3].0, (0, 1, 0));
        let g = &c[0].1;
        // NW = rank[0] = cell (0,0); SE = its transpose at (5,5).
        assert!(g.get(0, 0) && g.get(5, 5));
        assert_eq!(g.population(), 4);
        let g = &candidate(&rank, 5, 1, 2, 3);
        assert!(g.get(1, 1) && g.get(6, 6), "NW and SE");
        assert!(g.get(5 + 3, 3), "NE at x offset 5");
        assert!(g.get(2, 5 + 2), "SW at y offset 5");
    }

    #[test]
    fn tiling_repeats_the_pattern() {
        let g = Grid::from_rows(&["*.", ".."]).unwrap();
        let t = tile(&g, 2);
        assert_eq!((t.width(), t.height(), t.population()), (4, 4, 4));
        assert!(t.get(2, 2));
    }
}
