//! The 125,000 candidates of Figures 6.1/6.2 rebuilt from the ranking of
//! rarest 5x5 patterns, and how many are distinct. Without GRIDWALKER we can
//! already test the construction against the thesis' raw statistics: identical
//! candidates must have identical N-S and E-W lookup counts there (the lookups
//! depend only on the pattern), so a wrong construction or tie order shows up
//! as duplicates whose recorded statistics differ.

use crate::candidates::{TieOrder, candidates, load_ranking};
use crate::harness::{Col, Ctx, Experiment, Fmt, Mode, Report, col};
use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

pub struct Candidates;

/// One candidate (1-based, in generation order); quadrant choices are 1-based
/// ranks. The three `total_*`/`inconsistent_*` columns repeat the whole set's summary.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub candidate: usize,
    pub nw: usize,
    pub sw: usize,
    pub ne: usize,
    pub population: usize,
    /// The first candidate with the same cells (itself if new).
    pub first_same: usize,
    pub distinct_so_far: usize,
    pub thesis_ns_lookups: Option<u64>,
    pub thesis_ew_lookups: Option<u64>,
    pub total_candidates: usize,
    pub total_distinct: usize,
    /// Duplicates whose thesis statistics differ from their first occurrence's
    /// (empty when the thesis' file is not available).
    pub inconsistent_duplicates: Option<usize>,
    /// How ties in the ranking were ordered: `thesis` (recovered) or `pattern-number`.
    pub tie_order: String,
}

impl Experiment for Candidates {
    type Row = Row;
    const ID: &'static str = "candidates-6-1";
    const TITLE: &'static str = "Figures 6.1/6.2: the candidate set, distinct patterns, duplicate check";
    const TABLE: &'static [Col<'static>] = &[
        col("Candidates", "total_candidates", Fmt::Int),
        col("Distinct", "total_distinct", Fmt::Int),
        col("Ties ordered by", "tie_order", Fmt::Text),
        col("Duplicates with differing thesis lookups", "inconsistent_duplicates", Fmt::Int),
    ];

    fn rows(&self, m: Mode) -> Option<usize> {
        Some(m.pick(1_000, 10_000, 125_000).min(m.pick(20usize, 50, 50).pow(3)))
    }

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        let (q, rank, order) = load_ranking(ctx)?;
        let tie_order = match order {
            TieOrder::Thesis => "thesis",
            TieOrder::PatternNumber => "pattern-number",
        };
        let m = ctx.mode.pick(20, 50, 50);
        if rank.len() < m {
            bail!("the ranking has {} patterns, {m} needed", rank.len());
        }
        let all = candidates(&rank, q, m);
        // The 5x5 candidates are the thesis' own: compare them with its statistics.
        let stats = if q == 5 { Some(crate::thesis::stats(&ctx.thesis)?) } else { None };
        // Each candidate's first occurrence (itself if new).
        let mut seen: HashMap<&[bool], usize> = HashMap::new();
        let firsts: Vec<usize> =
            all.iter().enumerate().map(|(i, (_, g))| *seen.entry(g.cells()).or_insert(i)).collect();
        let distinct = seen.len();
        let lookups = |i: usize| stats.as_ref().and_then(|s| s.get(i)).map(|s| (s[3], s[5]));
        let inconsistent = (0..all.len())
            .filter(|&i| matches!((lookups(i), lookups(firsts[i])), (Some(a), Some(b)) if a != b))
            .count();
        if inconsistent > 0 {
            bail!(
                "{inconsistent} repeated candidates have different lookup counts in the thesis' raw statistics: \
                 our candidates (or their tie order) are not the thesis'"
            );
        }
        let mut distinct_so_far = 0;
        // The committed CSV keeps the candidates the quick figures use (the summary covers all).
        let kept = all.iter().zip(&firsts).enumerate().take(ctx.mode.pick(1_000, 10_000, 125_000));
        let rows: Vec<Row> = kept
            .map(|(i, (((nw, sw, ne), g), &f))| {
                distinct_so_far += (f == i) as usize;
                Row {
                    candidate: i + 1,
                    nw: nw + 1,
                    sw: sw + 1,
                    ne: ne + 1,
                    population: g.population(),
                    first_same: f + 1,
                    distinct_so_far,
                    thesis_ns_lookups: lookups(i).map(|l| l.0),
                    thesis_ew_lookups: lookups(i).map(|l| l.1),
                    total_candidates: all.len(),
                    total_distinct: distinct,
                    inconsistent_duplicates: stats.as_ref().map(|_| inconsistent),
                    tie_order: tie_order.into(),
                }
            })
            .collect();
        let report = Report {
            notes: vec![
                format!("{} candidates over the {m} rarest {q}x{q} patterns, {distinct} distinct", all.len()),
                format!("ties ordered by {tie_order}"),
                match stats {
                    Some(_) => format!("{inconsistent} duplicates with differing thesis lookup counts"),
                    None => "thesis statistics not compared".into(),
                },
            ],
            ..Default::default()
        };
        Ok((rows, report))
    }

    /// The summary the columns `total_*` repeat on every row, once.
    fn markdown(&self, rows: &[Row]) -> Result<String> {
        crate::table::markdown(Self::TABLE, &rows[..rows.len().min(1)])
    }
}
