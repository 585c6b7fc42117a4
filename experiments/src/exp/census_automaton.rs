//! Beyond the thesis: the column automaton (`lifesearch::automaton::decide`)
//! on long narrow patterns, seeded.

use crate::harness::{Col, Ctx, Experiment, Fmt, Mode, Report, best_of, col};
use anyhow::Result;
use lifesearch::automaton::decide;
use lifesearch::life::{Grid, Rule, SpecGrid, Topology, naive};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

pub struct CensusAutomaton;

/// One timing: `seconds` the lowest of the runs.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub rule: String,
    pub w: usize,
    pub h: usize,
    pub pattern: String,
    pub orphan: bool,
    pub emptied_at: Option<usize>,
    pub peak_states: u64,
    pub states_expanded: u64,
    pub seconds: f64,
}

const SEED: u64 = 18;

/// Seeded narrow targets for the automaton, with their rule: under Life the
/// child of a random parent (it has one) and a uniformly random target; under
/// Gnarl (B1/S1) a uniformly random target, where orphans are the rule.
fn narrow(h: usize, w: usize, seed: u64) -> [(String, Rule, SpecGrid); 3] {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let p = Grid::random(w + 2, h + 2, 0.4, &mut rng);
    let child = naive::step(&p, Rule::CONWAY, Topology::Bounded).crop(1, 1, w, h);
    let gnarl = Rule { birth: 1 << 1, survival: 1 << 1 };
    [
        (format!("child of a random parent (seed {seed})"), Rule::CONWAY, SpecGrid::from(&child)),
        (format!("uniform random (seed {seed})"), Rule::CONWAY, SpecGrid::random(w, h, 0.5, 0.0, &mut rng)),
        (format!("uniform random (seed {seed})"), gnarl, SpecGrid::random(w, h, 0.5, 0.0, &mut rng)),
    ]
}

impl Experiment for CensusAutomaton {
    type Row = Row;
    const ID: &'static str = "census-automaton";
    const TITLE: &'static str = "Beyond the thesis: the column automaton on long narrow patterns";
    const TABLE: &'static [Col<'static>] = &[
        col("Rule", "rule", Fmt::Text),
        col("Pattern", "pattern", Fmt::Text),
        col("W", "w", Fmt::Int),
        col("H", "h", Fmt::Int),
        col("Verdict", "orphan", Fmt::Yes("orphan", "has a parent")),
        col("Emptied at column", "emptied_at", Fmt::Int),
        col("Peak live states", "peak_states", Fmt::Int),
        col("States expanded", "states_expanded", Fmt::Int),
        col("Milliseconds", "seconds", Fmt::Scaled(1e3, 3)),
    ];

    fn rows(&self, _: Mode) -> Option<usize> {
        Some(6)
    }

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        let runs = ctx.mode.pick(1, 10, 20);
        let mut rows = Vec::new();
        for (h, w) in [(5, 45), (6, 45)] {
            for (pattern, rule, t) in narrow(h, w, SEED) {
                let (best, a) = best_of(runs, || decide(&t, rule));
                let a = a?;
                rows.push(Row {
                    rule: rule.to_string(),
                    w,
                    h,
                    pattern,
                    orphan: a.predecessor.is_none(),
                    emptied_at: a.emptied_at,
                    peak_states: a.peak_states,
                    states_expanded: a.states_expanded,
                    seconds: best.as_secs_f64(),
                });
            }
        }
        let report = Report {
            seeds: vec![SEED],
            solvers: vec!["lifesearch::automaton::decide (column automaton)".into()],
            notes: vec![format!("the lowest of {runs} runs")],
            ..Default::default()
        };
        Ok((rows, report))
    }
}
