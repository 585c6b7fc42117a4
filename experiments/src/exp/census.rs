//! Beyond the thesis: the exhaustive orphan census of every box up to 6x6
//! (`lifesearch::automaton::census`) for Life and four other rules, and the
//! column automaton's times on long narrow patterns (`lifesearch::automaton::decide`).

use super::Experiment;
use crate::harness::{Ctx, Report, best_of, read_csv, sci, thousands, write_csv, write_text};
use crate::plot::{Bars, Ticks, render};
use anyhow::Result;
use lifesearch::automaton::census::{CensusOptions, census, reset_peak_memory};
use lifesearch::automaton::decide;
use lifesearch::life::{Grid, Rule, SpecGrid, Topology, naive};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

pub const ID: &str = "census";

pub const EXPERIMENT: Experiment = Experiment {
    id: ID,
    title: "Beyond the thesis: every orphan in boxes up to 6x6",
    columns: &[
        "kind",
        "rule",
        "w",
        "h",
        "targets",
        "orphans",
        "checksum",
        "seconds",
        "peak_memory_bytes",
        "classes_top",
        "classes_bottom",
        "full_tests",
        "tests",
        "emptied_at",
        "pattern",
    ],
    figure: true,
    // Five rules times the boxes W <= H up to the mode's side, and six automaton timings.
    rows: |m| Some(RULES.iter().map(|r| boxes(m, r).len()).sum::<usize>() + 6),
    run,
    render: draw,
};

/// Life and four rules with small orphans.
pub const RULES: [&str; 5] = ["B3/S23", "B/S", "B2/S", "B36/S23", "B1/S1"];

/// One census (`kind` = census) or one automaton timing (`kind` = automaton,
/// where `targets` is 1, `orphans` 1 or 0, `seconds` the lowest of the runs,
/// `tests` the states expanded and `full_tests` the peak live states).
#[derive(Debug, Serialize, Deserialize)]
pub struct Row {
    pub kind: String,
    pub rule: String,
    pub w: usize,
    pub h: usize,
    pub targets: u64,
    pub orphans: u64,
    pub checksum: String,
    pub seconds: f64,
    pub peak_memory_bytes: u64,
    pub classes_top: usize,
    pub classes_bottom: usize,
    pub full_tests: u64,
    pub tests: u64,
    pub emptied_at: Option<usize>,
    pub pattern: String,
}

/// The largest box side of a census run in this mode.
fn side(m: crate::harness::Mode) -> usize {
    m.pick(3, 5, 6)
}

/// Rules whose 6x6 census is left out of the full run: each counts about
/// 3 x 10^10 orphans, 16 and 23 minutes on two cores, most of the run's time
/// (`lifesearch census 6 6 --rule B2/S` runs one on its own).
const DENSE: [&str; 2] = ["B2/S", "B1/S1"];

/// The boxes of a run under `rule`, W <= H (H x W has the same orphans, turned).
fn boxes(mode: crate::harness::Mode, rule: &str) -> Vec<(usize, usize)> {
    let max = side(mode);
    let skip = |w: usize, h: usize| w == 6 && h == 6 && DENSE.contains(&rule);
    (1..=max).flat_map(|h| (1..=h).map(move |w| (w, h))).filter(|&(w, h)| !skip(w, h)).collect()
}

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

fn run(ctx: &Ctx) -> Result<Report> {
    let mut rows = Vec::new();
    let total = RULES.iter().map(|r| boxes(ctx.mode, r).len()).sum::<usize>();
    let bar = ctx.bar(total as u64, ID);
    for rule in RULES {
        let r: Rule = rule.parse()?;
        for (w, h) in boxes(ctx.mode, rule) {
            reset_peak_memory();
            let (c, _) = census(&CensusOptions::new(w, h, r))?;
            bar.inc(1);
            rows.push(Row {
                kind: "census".into(),
                rule: rule.into(),
                w,
                h,
                targets: c.targets,
                orphans: c.orphans,
                checksum: c.checksum,
                seconds: c.seconds,
                peak_memory_bytes: c.peak_memory_bytes,
                classes_top: c.classes_top,
                classes_bottom: c.classes_bottom,
                full_tests: c.full_tests,
                tests: c.tests,
                emptied_at: None,
                pattern: String::new(),
            });
        }
    }
    bar.finish_and_clear();
    let runs = ctx.mode.pick(1, 10, 20);
    for (h, w) in [(5, 45), (6, 45)] {
        for (name, rule, t) in narrow(h, w, 18) {
            let (best, a) = best_of(runs, || decide(&t, rule));
            let a = a?;
            rows.push(Row {
                kind: "automaton".into(),
                rule: rule.to_string(),
                w,
                h,
                targets: 1,
                orphans: a.predecessor.is_none() as u64,
                checksum: String::new(),
                seconds: best.as_secs_f64(),
                peak_memory_bytes: 0,
                classes_top: 0,
                classes_bottom: 0,
                full_tests: a.peak_states,
                tests: a.states_expanded,
                emptied_at: a.emptied_at,
                pattern: name,
            });
        }
    }
    write_csv(&ctx.csv(ID), &rows)?;
    Ok(Report {
        rows: rows.len(),
        seeds: vec![18],
        solvers: vec!["lifesearch::automaton (census: meet in the middle; decide: column automaton)".into()],
        notes: vec![format!(
            "boxes W x H with W <= H up to {0}x{0} (not 6x6 for {2}); {1} threads; automaton times the lowest of {runs} runs",
            side(ctx.mode),
            rayon::current_num_threads(),
            DENSE.join(", ")
        )],
    })
}

fn draw(ctx: &Ctx) -> Result<()> {
    let rows: Vec<Row> = read_csv(&ctx.csv(ID))?;
    let census: Vec<&Row> = rows.iter().filter(|r| r.kind == "census").collect();
    // Square boxes only, one group per side and a bar per rule that has
    // orphans at all: the table below has every box.
    let mut sides: Vec<usize> = census.iter().filter(|r| r.w == r.h).map(|r| r.w).collect();
    sides.sort_unstable();
    sides.dedup();
    let with: Vec<&str> = RULES
        .iter()
        .copied()
        .filter(|rule| census.iter().any(|r| r.rule == *rule && r.orphans > 0))
        .collect();
    let without: Vec<&str> = RULES.iter().copied().filter(|rule| !with.contains(rule)).collect();
    let series = with
        .iter()
        .map(|rule| {
            let v = sides
                .iter()
                .map(|k| {
                    census
                        .iter()
                        .find(|r| r.rule == *rule && r.w == *k && r.h == *k)
                        .and_then(|r| (r.orphans > 0).then_some(r.orphans as f64))
                })
                .collect();
            (rule.to_string(), v)
        })
        .collect();
    render(
        &ctx.figure(ID),
        &Bars {
            title: "Orphans in k x k boxes, per rule".into(),
            x_label: if without.is_empty() {
                "box size k x k".into()
            } else {
                format!("box size k x k ({} : no orphans in any box)", without.join(", "))
            },
            y_label: "orphans (log scale)".into(),
            categories: sides.iter().map(|k| format!("{k}x{k}")).collect(),
            series,
            log_y: true,
            ticks: Ticks::Number,
            legend: true,
        },
    )?;
    let mut md = String::from(
        "| Rule | Box | Targets | Orphans | Checksum | Seconds | Peak memory | Top / bottom classes | Past the filter |\n\
         |---|---|---:|---:|---|---:|---:|---:|---:|\n",
    );
    for r in &census {
        md += &format!(
            "| {} | {}x{} | {} | {} | `{}` | {:.2} | {:.0} MB | {} / {} | {} of {} |\n",
            r.rule,
            r.w,
            r.h,
            thousands(r.targets),
            thousands(r.orphans),
            r.checksum,
            r.seconds,
            r.peak_memory_bytes as f64 / 1e6,
            thousands(r.classes_top as u64),
            thousands(r.classes_bottom as u64),
            sci(r.full_tests as f64),
            sci(r.tests as f64),
        );
    }
    md += "\nOne census per box with W <= H (the H x W box has as many orphans, turned a quarter). \
           Seconds and peak memory (VmHWM, reset before each box to what the process already \
           held) are for the whole census: building \
           the half-target sets, the meet and 200 of each spot check. \"Past the filter\" counts the \
           class pairs the 64 popular pairs did not settle.\n\n";
    md += "| Rule | Pattern | Size | Verdict | Emptied at column | Peak live states | States expanded | Milliseconds |\n\
           |---|---|---|---|---:|---:|---:|---:|\n";
    for r in rows.iter().filter(|r| r.kind == "automaton") {
        md += &format!(
            "| {} | {} | {}x{} | {} | {} | {} | {} | {:.3} |\n",
            r.rule,
            r.pattern,
            r.w,
            r.h,
            if r.orphans == 1 { "orphan" } else { "has a parent" },
            r.emptied_at.map_or("-".into(), |e| e.to_string()),
            thousands(r.full_tests),
            thousands(r.tests),
            r.seconds * 1e3,
        );
    }
    md += "\nThe column automaton on seeded random patterns 45 columns long (Eker's 5-row Life \
           orphans are in `data/zoo` and timed with every engine in the orphan zoo of \
           [A GRIDWALKER that never loses badly](../beyond/robust.md)): under Life a child of a random parent and a uniformly random \
           target, both read to the end, walked back and checked; under Gnarl (B1/S1) a uniformly \
           random target, an orphan whose states run out early. Times are the lowest of the runs and \
           include rebuilding the predecessor and checking it with the naive engine.\n";
    write_text(&ctx.generated(ID), &md)
}
