//! Beyond the thesis: the exhaustive orphan census of every box up to 6x6
//! (`lifesearch::automaton::census`) for Life and four other rules, and
//! narrow boxes up to 4x10 and 5x8 for Life and HighLife.

use crate::harness::{Col, Ctx, Experiment, Fmt, Mode, Report, col};
use crate::plot::{Bars, Empty, MarkedBars, Ticks, render};
use anyhow::Result;
use lifesearch::automaton::census::{CensusOptions, census, reset_peak_memory};
use lifesearch::life::Rule;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

pub struct Census;

/// Life and four rules with small orphans.
pub const RULES: [&str; 5] = ["B3/S23", "B/S", "B2/S", "B36/S23", "B1/S1"];

/// One census: a box under a rule.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
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
    /// The spot checks that passed, each by another code path
    /// (`lifesearch::automaton::census::Checks`): children of random parents
    /// found non-orphans, random targets and orphans of the run re-decided by
    /// the column automaton.
    pub random_parents_checked: u64,
    pub random_targets_checked: u64,
    pub orphans_redecided: u64,
}

/// The largest box side of a census run in this mode.
fn side(m: Mode) -> usize {
    m.pick(3, 5, 6)
}

/// Rules whose 6x6 census is left out of the full run: each counts about
/// 3 x 10^10 orphans, 16 and 23 minutes on two cores, most of the run's time
/// (`lifesearch census 6 6 --rule B2/S` runs one on its own).
const DENSE: [&str; 2] = ["B2/S", "B1/S1"];

/// Narrow boxes past 6x6 for Life and HighLife: a census of 4 x L or 5 x L
/// proves that no orphan of height 4 or 5 is L or fewer cells wide, a bound
/// the width search (`narrow-orphans`) reads from this table. The longest of
/// each mode: 4x10 and 5x8 hold 2^40 targets each (minutes each).
fn long_boxes(mode: Mode, rule: &str) -> Vec<(usize, usize)> {
    let (four, five) = match (mode, rule) {
        (Mode::Full, "B3/S23") => (10, 8),
        (Mode::Full, "B36/S23") => (9, 7),
        (Mode::Quick, "B3/S23") => (8, 6),
        _ => (6, 6),
    };
    (7..=four).map(|l| (4, l)).chain((7..=five).map(|l| (5, l))).collect()
}

/// The boxes of a run under `rule`, W <= H (H x W has the same orphans, turned).
fn boxes(mode: Mode, rule: &str) -> Vec<(usize, usize)> {
    let max = side(mode);
    let skip = |w: usize, h: usize| w == 6 && h == 6 && DENSE.contains(&rule);
    let square = (1..=max).flat_map(|h| (1..=h).map(move |w| (w, h))).filter(|&(w, h)| !skip(w, h));
    square.chain(long_boxes(mode, rule)).collect()
}

impl Experiment for Census {
    type Row = Row;
    const ID: &'static str = "census";
    const TITLE: &'static str =
        "Beyond the thesis: every orphan in boxes up to 6x6, and in long narrow boxes";
    const FIGURE: bool = true;
    const TABLE: &'static [Col<'static>] = &[
        col("Rule", "rule", Fmt::Text),
        col("W", "w", Fmt::Int),
        col("H", "h", Fmt::Int),
        col("Targets", "targets", Fmt::Int),
        col("Orphans", "orphans", Fmt::Int),
        col("Checksum", "checksum", Fmt::Code),
        col("Seconds", "seconds", Fmt::Fixed(2)),
        col("Peak MB", "peak_memory_bytes", Fmt::Scaled(1e-6, 0)),
        // How the census checked itself: the classes each half folds into, the
        // class pairs it had to look at, and those the popular-pair filter
        // could not settle (tested in full).
        col("Classes top", "classes_top", Fmt::Int),
        col("Classes bottom", "classes_bottom", Fmt::Int),
        col("Past the filter", "full_tests", Fmt::Int),
        col("Class pairs", "tests", Fmt::Int),
        // The spot checks by other code paths that passed.
        col("Parents checked", "random_parents_checked", Fmt::Int),
        col("Targets checked", "random_targets_checked", Fmt::Int),
        col("Orphans re-decided", "orphans_redecided", Fmt::Int),
    ];

    /// Five rules times the boxes W <= H up to the mode's side.
    fn rows(&self, m: Mode) -> Option<usize> {
        Some(RULES.iter().map(|r| boxes(m, r).len()).sum())
    }

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        let mut rows = Vec::new();
        let bar = ctx.bar(self.rows(ctx.mode).unwrap_or(0) as u64, Self::ID);
        for rule in RULES {
            let r: Rule = rule.parse()?;
            for (w, h) in boxes(ctx.mode, rule) {
                reset_peak_memory();
                let (c, _) = census(&CensusOptions::new(w, h, r))?;
                bar.inc(1);
                rows.push(Row {
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
                    random_parents_checked: c.checks.random_parents,
                    random_targets_checked: c.checks.random_targets,
                    orphans_redecided: c.checks.orphans_redecided,
                });
            }
        }
        bar.finish_and_clear();
        let narrow: Vec<String> = RULES
            .iter()
            .map(|r| {
                let b: Vec<String> =
                    long_boxes(ctx.mode, r).iter().map(|(w, h)| format!("{w}x{h}")).collect();
                format!("{r}: {}", if b.is_empty() { "none".into() } else { b.join(", ") })
            })
            .collect();
        let note = format!(
            "boxes W x H with W <= H up to {0}x{0} (not 6x6 for {1}), and the narrow boxes {2}; {3} threads",
            side(ctx.mode),
            DENSE.join(", "),
            narrow.join("; "),
            rayon::current_num_threads(),
        );
        let solvers = vec!["lifesearch::automaton::census (meet in the middle)".into()];
        Ok((rows, Report { solvers, notes: vec![note], ..Default::default() }))
    }

    fn draw(&self, ctx: &Ctx, rows: &[Row]) -> Result<()> {
        // Square boxes only, one group per side and a bar per rule that has
        // orphans at all: the table has every box.
        // Every square box a full run covers, so that a box not run (quick
        // mode, or above the size cap) shows as such rather than as missing.
        let sides: BTreeSet<usize> =
            rows.iter().filter(|r| r.w == r.h).map(|r| r.w).chain(1..=side(Mode::Full)).collect();
        let (with, without): (Vec<&str>, Vec<&str>) =
            RULES.iter().partition(|rule| rows.iter().any(|r| r.rule == **rule && r.orphans > 0));
        let (mut series, mut marks) = (Vec::new(), Vec::new());
        for (j, rule) in with.iter().enumerate() {
            let mut bars = Vec::new();
            for (i, &k) in sides.iter().enumerate() {
                let orphans =
                    rows.iter().find(|r| r.rule == *rule && r.w == k && r.h == k).map(|r| r.orphans);
                match orphans {
                    None => marks.push((i, j, Empty::NotRun)),
                    Some(0) => marks.push((i, j, Empty::Zero)),
                    Some(_) => {}
                }
                bars.push(orphans.filter(|&n| n > 0).map(|n| n as f64));
            }
            series.push((rule.to_string(), bars));
        }
        render(
            &ctx.figure(Self::ID),
            &MarkedBars {
                bars: Bars {
                    title: "Orphans in k x k boxes, per rule (0: none; hatched: not run)".into(),
                    x_label: if without.is_empty() {
                        "box size k x k".into()
                    } else {
                        format!("box size k x k ({} : no orphans in any box run)", without.join(", "))
                    },
                    y_label: "orphans (log scale)".into(),
                    categories: sides.iter().map(|k| format!("{k}x{k}")).collect(),
                    series,
                    log_y: true,
                    ticks: Ticks::Number,
                    legend: true,
                },
                marks,
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(rule: &str, k: usize, orphans: u64) -> Row {
        Row { rule: rule.into(), w: k, h: k, orphans, ..Row::default() }
    }

    /// The spot-check counts are columns of the CSV and of the table.
    #[test]
    fn spot_checks_are_columns() {
        use crate::harness::{read_rows, write_csv};
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("census.csv");
        let rows = vec![Row {
            random_parents_checked: 200,
            random_targets_checked: 1200,
            orphans_redecided: 15,
            ..row("B/S", 2, 15)
        }];
        write_csv(&p, &rows).unwrap();
        let head = std::fs::read_to_string(&p).unwrap();
        assert!(
            head.lines()
                .next()
                .unwrap()
                .ends_with("random_parents_checked,random_targets_checked,orphans_redecided"),
            "{head}"
        );
        let back: Vec<Row> = read_rows(&p).unwrap();
        assert_eq!(back[0].random_targets_checked, 1200);
        let md = Census.markdown(&back).unwrap();
        assert!(
            md.contains("| Orphans re-decided |") && md.trim_end().ends_with("| 200 | 1,200 | 15 |"),
            "{md}"
        );
    }

    /// A box that was not run is drawn as such, never as a box without orphans.
    #[test]
    fn not_run_and_zero_are_drawn_apart() {
        let dir = tempfile::tempdir().unwrap();
        let c = Ctx::new(dir.path().into(), Mode::Tiny, dir.path().join("c"), false);
        let count = |rows: &[Row], text: &str| {
            Census.draw(&c, rows).unwrap();
            let svg = std::fs::read_to_string(c.figure(Census::ID).with_extension("svg")).unwrap();
            svg.matches(text).count()
        };
        // B/S has orphans in 1x1..3x3; B2/S none at 1x1, some at 2x2; nothing above 3x3 ran.
        let mut rows = vec![row("B/S", 1, 1), row("B/S", 2, 15), row("B/S", 3, 511), row("B2/S", 1, 0)];
        rows.push(row("B2/S", 2, 3));
        let not_run = count(&rows, "not run");
        // 4x4..6x6 for B/S, 3x3..6x6 for B2/S, plus the title and the legend entry.
        assert_eq!(not_run, 3 + 4 + 2, "not-run cells");
        assert_eq!(count(&rows, ">\n0\n</text>"), 1, "the zero box is marked 0");
        // Running 4x4 for B/S turns one not-run cell into a bar.
        rows.push(row("B/S", 4, 65535));
        assert_eq!(count(&rows, "not run"), not_run - 1);
    }
}
