//! Beyond the thesis: orphans of every width. For Life and the census' rules
//! and every height 1..=6, the subset-construction search over the column automaton
//! (`lifesearch::automaton::width`) either proves that no orphan of that
//! height exists at any width (its certificate is then checked by the
//! separate checker), finds the narrowest one (verified by the automaton and
//! CaDiCaL), or stops at its time or memory limit with a proved lower bound.
//! Every verdict is held against the census table where its boxes fit.

use crate::harness::{Col, Ctx, Experiment, Fmt, Mode, Report, col, read_csv};
use anyhow::{Result, bail};
use lifesearch::automaton::census::{peak_memory, reset_peak_memory};
use lifesearch::automaton::lookahead::{LookaheadOptions, LookaheadVerdict, prove, write_proof};
use lifesearch::automaton::width::{Verdict, WidthOptions, search, write_certificate};
use lifesearch::automaton::{certificate, lookahead_check};
use lifesearch::life::Rule;
use lifesearch::search::sat::verify_orphan;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::Path;

pub struct NarrowOrphans;

/// Life, the census' other rules, HighLife's neighbour Day & Night (B36/S23
/// of the census *is* HighLife, so a sixth rule takes its place).
pub const RULES: [&str; 6] = ["B3/S23", "B/S", "B2/S", "B36/S23", "B1/S1", "B3678/S34678"];

fn heights(m: Mode) -> usize {
    m.pick(3, 6, 6)
}

/// Subset tests per new set (see `lifesearch orphan-width --budget`).
const BUDGET: usize = 64;

/// Seconds one search may take before it stops with a lower bound (heights
/// up to 3 close in seconds; the limit there only guards a loaded machine).
fn time_limit(m: Mode, h: usize) -> f64 {
    if h <= 3 { m.pick(1.0, 1.5, 300.0) } else { m.pick(1.0, 1.5, 20.0) }
}

/// Seconds a lookahead proof may take.
fn lookahead_limit(m: Mode) -> f64 {
    m.pick(1.0, 3.0, 600.0)
}

/// One search: `verdict` is none-at-any-width (`width`: where the search
/// closed), narrowest (`width`: the narrowest orphan, in `orphan`) or
/// lower-bound (`width`: no orphan is at most this wide).
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub rule: String,
    pub height: usize,
    /// `subsets` (the subset construction, `width`) or `lookahead` (the
    /// proof set of `lookahead`, with its K and D).
    pub method: String,
    pub lookahead: Option<usize>,
    pub depth: Option<usize>,
    /// For `lookahead` rows: none-at-any-width, not-proved or stopped.
    pub verdict: String,
    pub width: usize,
    pub frontier_peak: usize,
    pub members: usize,
    /// `subsets` rows: the new sets of each width proved, from width 0,
    /// joined by `/` (one of each mirror pair).
    pub layers: String,
    /// `subsets` rows that stopped: the widest layer over the one before,
    /// the growth per width measured last.
    pub growth: Option<f64>,
    /// `subsets` rows that stopped: GiB the next width's new sets would take
    /// at that growth and at this search's bytes per kept set, the memory a
    /// cluster would have to hold (sharded) to prove one width more.
    pub next_layer_gib: Option<f64>,
    pub certificate_members: Option<usize>,
    pub certificate_bytes: Option<u64>,
    pub certificate_checked: Option<bool>,
    pub seconds: f64,
    pub check_seconds: Option<f64>,
    pub peak_memory_bytes: u64,
    pub stopped_by: String,
    /// How the verdict compares with the census boxes of this height.
    pub census: String,
    /// Every census box of this height up to this width is orphan-free
    /// (0: none is, or the census has no box of width 1).
    pub census_free_to: usize,
    /// The narrowest orphan's rows, joined by `/`.
    pub orphan: String,
}

impl Row {
    /// A search of `rule` at height `h`, its outcome still to be filled in.
    fn new(rule: &str, h: usize, boxes: &[(usize, u64)]) -> Row {
        Row { rule: rule.into(), height: h, census_free_to: census_free_to(boxes), ..Row::default() }
    }

    /// Write a certificate to `path` and check it with its own checker (timed):
    /// the search proved that no orphan of this height exists.
    fn certify(
        &mut self,
        path: &Path,
        bytes: &[u8],
        check: impl FnOnce(&Path) -> Result<usize>,
    ) -> Result<()> {
        lifesearch::atomic_write(path, bytes)?;
        let t = std::time::Instant::now();
        let members = check(path)?;
        self.check_seconds = Some(t.elapsed().as_secs_f64());
        self.verdict = "none-at-any-width".into();
        self.certificate_members = Some(members);
        self.certificate_bytes = Some(bytes.len() as u64);
        self.certificate_checked = Some(true);
        Ok(())
    }
}

/// One row of `data/census.csv`, as far as this experiment reads it.
#[derive(Deserialize)]
struct CensusBox {
    rule: String,
    w: usize,
    h: usize,
    orphans: u64,
}

/// The census' orphan counts of the boxes with a side `h` under `rule`, as
/// (other side, orphans).
fn census_boxes(table: &[CensusBox], rule: &str, h: usize) -> Vec<(usize, u64)> {
    let mut out: Vec<(usize, u64)> = table
        .iter()
        .filter(|c| c.rule == rule && (c.h == h || c.w == h))
        .map(|c| (if c.h == h { c.w } else { c.h }, c.orphans))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The widest W such that the census found every box of this height and
/// width 1..=W orphan-free: a lower bound on the narrowest orphan's width of
/// its own, past the width search's where the census boxes reach further.
fn census_free_to(boxes: &[(usize, u64)]) -> usize {
    boxes.iter().enumerate().take_while(|&(i, &(w, orphans))| w == i + 1 && orphans == 0).count()
}

/// Hold a verdict against the census: below the narrowest width (or up to
/// a proved bound, or at every width) no box may have an orphan; from the
/// narrowest width on every box must.
fn against_census(verdict: &Verdict, boxes: &[(usize, u64)]) -> Result<String> {
    if boxes.is_empty() {
        return Ok("no census box".into());
    }
    for &(w, orphans) in boxes {
        let expect_orphans = match verdict {
            Verdict::NoneAtAnyWidth { .. } => Some(false),
            Verdict::Narrowest { width, .. } => Some(w >= *width),
            Verdict::LowerBound { width, .. } => (w <= *width).then_some(false),
        };
        if let Some(e) = expect_orphans
            && e != (orphans > 0)
        {
            bail!("the census has {orphans} orphans at width {w}, against the verdict {verdict:?}");
        }
    }
    Ok(format!("agrees ({} boxes)", boxes.len()))
}

impl Experiment for NarrowOrphans {
    type Row = Row;
    const ID: &'static str = "narrow-orphans";
    const TITLE: &'static str = "Beyond the thesis: orphans of every width";

    fn measure(&self, ctx: &Ctx) -> Result<(Vec<Row>, Report)> {
        let mut rows = Vec::new();
        let bar = ctx.bar((RULES.len() * heights(ctx.mode)) as u64, Self::ID);
        let dir = tempfile::tempdir()?;
        // The census table, read once (empty when the census has not run).
        let census = ctx.root.join("data").join("census.csv");
        let table: Vec<CensusBox> = if census.exists() { read_csv(&census)? } else { Vec::new() };
        for rule in RULES {
            let r: Rule = rule.parse()?;
            for h in 1..=heights(ctx.mode) {
                let boxes = census_boxes(&table, rule, h);
                reset_peak_memory();
                let o = WidthOptions {
                    rule: r,
                    height: h,
                    max_width: None,
                    memory_cap_bytes: 4 << 30,
                    time_limit_s: Some(time_limit(ctx.mode, h)),
                    checkpoint: None,
                    progress: false,
                    budget: BUDGET,
                };
                let (res, a, f) = search(&o)?;
                let mut row = Row {
                    method: "subsets".into(),
                    frontier_peak: res.frontier_peak,
                    members: res.members,
                    seconds: res.seconds,
                    peak_memory_bytes: peak_memory(),
                    census: against_census(&res.verdict, &boxes)?,
                    ..Row::new(rule, h, &boxes)
                };
                row.width = match &res.verdict {
                    Verdict::NoneAtAnyWidth { closed_at } => {
                        let mut bytes = Vec::new();
                        write_certificate(&a, &f, r, &mut bytes)?;
                        row.certify(&dir.path().join(format!("h{h}.cert")), &bytes, |p| {
                            Ok(certificate::check_file(p)?.members)
                        })?;
                        *closed_at
                    }
                    Verdict::Narrowest { width, rows: pattern } => {
                        verify_orphan(pattern, r)?;
                        row.verdict = "narrowest".into();
                        row.orphan = pattern.join("/");
                        *width
                    }
                    Verdict::LowerBound { width, stopped_by } => {
                        row.verdict = "lower-bound".into();
                        row.stopped_by = stopped_by.clone();
                        (row.growth, row.next_layer_gib) = (res.next.growth, res.next.next_layer_gib);
                        *width
                    }
                };
                row.layers = res.layers.iter().map(|n| n.to_string()).collect::<Vec<_>>().join("/");
                bar.inc(1);
                rows.push(row);
                // A lookahead proof too for every height 1..=3 that the subset construction
                // did not answer with an orphan, and for Life's height 4 (Eker's theorem) in a full run.
                let eker = h == 4 && rule == "B3/S23" && ctx.mode == Mode::Full;
                if !matches!(res.verdict, Verdict::Narrowest { .. }) && (h <= 3 || eker) {
                    rows.push(lookahead_row(ctx, rule, h, &boxes, dir.path())?);
                }
            }
        }
        bar.finish_and_clear();
        let report = Report {
            solvers: vec![
                "lifesearch::automaton::width (subset construction), certificate checker, CaDiCaL".into(),
                "lifesearch::automaton::lookahead (proof set), lookahead_check (its checker)".into(),
            ],
            notes: vec![format!(
                "heights 1..={}; each search stops after {} s (heights 1-3) or {} s (4-6), or 4 GiB of kept sets; \
                 each lookahead proof after {} s; {} threads",
                heights(ctx.mode),
                time_limit(ctx.mode, 3),
                time_limit(ctx.mode, 4),
                lookahead_limit(ctx.mode),
                rayon::current_num_threads()
            )],
            ..Default::default()
        };
        Ok((rows, report))
    }

    /// Every search, its verdict and certificate in words; then the narrowest
    /// orphans found; then how the searches that stopped were growing.
    fn markdown(&self, rows: &[Row]) -> Result<String> {
        let shown = rows.iter().map(shown).collect::<Result<Vec<_>>>()?;
        let mut md = crate::table::markdown(SHOWN, &shown)?;
        let narrow: Vec<&Row> = rows.iter().filter(|r| r.verdict == "narrowest").collect();
        if !narrow.is_empty() {
            let cols = [
                col("Rule", "rule", Fmt::Text),
                col("Height", "height", Fmt::Int),
                col("Orphan", "orphan", Fmt::Code),
            ];
            md += &format!("\n{}", crate::table::markdown(&cols, &narrow)?);
        }
        let stopped: Vec<&Row> = rows.iter().filter(|r| r.growth.is_some()).collect();
        if !stopped.is_empty() {
            let cols = [
                col("Rule", "rule", Fmt::Text),
                col("Height", "height", Fmt::Int),
                col("Proved to width", "width", Fmt::Int),
                col("New sets per width, from width 0", "layers", Fmt::Text),
                col("Last growth", "growth", Fmt::Fixed(1)),
                col("Next width (GiB)", "next_layer_gib", Fmt::Fixed(1)),
            ];
            md += &format!("\n{}", crate::table::markdown(&cols, &stopped)?);
        }
        Ok(md)
    }
}

/// The lookahead proof of one rule and height: proved (the proof set
/// written and checked by its own checker), not proved, or stopped.
fn lookahead_row(ctx: &Ctx, rule: &str, h: usize, boxes: &[(usize, u64)], dir: &Path) -> Result<Row> {
    let r: Rule = rule.parse()?;
    // The window K and depth D: K = h up to 3 (the smallest windows that
    // close Life's heights 1-3), D = 4K.
    let k = h.min(3);
    let d = 4 * k;
    reset_peak_memory();
    let o = LookaheadOptions {
        rule: r,
        height: h,
        lookahead: k,
        depth: d,
        time_limit_s: Some(lookahead_limit(ctx.mode)),
        progress: false,
    };
    let (res, p) = prove(&o)?;
    let mut row = Row {
        method: "lookahead".into(),
        lookahead: Some(k),
        depth: Some(d),
        members: res.members as usize,
        seconds: res.seconds,
        peak_memory_bytes: peak_memory(),
        census: "-".into(),
        ..Row::new(rule, h, boxes)
    };
    match res.verdict {
        LookaheadVerdict::NoneAtAnyWidth => {
            let mut bytes = Vec::new();
            write_proof(&p, &mut bytes)?;
            row.certify(&dir.join(format!("h{h}.proof")), &bytes, |p| {
                Ok(lookahead_check::check_file(p)?.members)
            })?;
            row.census = against_census(&Verdict::NoneAtAnyWidth { closed_at: 0 }, boxes)?;
        }
        LookaheadVerdict::NotProved { window } => {
            row.verdict = "not-proved".into();
            row.stopped_by = format!("window {window} lost its last member");
        }
        LookaheadVerdict::Stopped { after_passes } => {
            row.verdict = "stopped".into();
            row.stopped_by = format!("time limit after {after_passes} passes");
        }
    }
    Ok(row)
}

const SHOWN: &[Col<'static>] = &[
    col("Rule", "rule", Fmt::Text),
    col("Height", "height", Fmt::Int),
    col("Method", "method", Fmt::Text),
    col("Verdict", "verdict", Fmt::Text),
    col("Sets kept", "members", Fmt::Int),
    col("Widest layer", "frontier_peak", Fmt::Int),
    col("Certificate", "certificate", Fmt::Text),
    col("Seconds", "seconds", Fmt::Fixed(2)),
    col("Peak MB", "peak_memory_bytes", Fmt::Scaled(1e-6, 0)),
    col("Census", "census", Fmt::Text),
];

/// A row of the generated table: the method, the verdict, the certificate
/// and the census in words.
fn shown(r: &Row) -> Result<Value> {
    let mut v = serde_json::to_value(r)?;
    v["method"] = json!(match (r.lookahead, r.depth) {
        (Some(k), Some(d)) => format!("lookahead K={k}, D={d}"),
        _ => "subsets".into(),
    });
    v["verdict"] = json!(match r.verdict.as_str() {
        "none-at-any-width" if r.method == "lookahead" => "none at any width (proof set closed)".into(),
        "not-proved" | "stopped" => format!("not proved ({})", r.stopped_by),
        "none-at-any-width" => format!("none at any width (closed at width {})", r.width),
        "narrowest" => format!("narrowest is {} wide", r.width),
        _ => format!("none up to width {} (stopped: {})", r.width, r.stopped_by),
    });
    v["certificate"] = json!(match (r.certificate_members, r.certificate_bytes, r.check_seconds) {
        (Some(m), Some(b), Some(s)) => format!(
            "{} members, {:.1} kB, checked in {:.2} s",
            crate::table::thousands(m as u64),
            b as f64 / 1e3,
            s
        ),
        _ => "-".into(),
    });
    v["census"] = json!(census_words(&r.census, r.census_free_to));
    Ok(v)
}

/// The census column in words: how the verdict compares with the census
/// (`-` where it was not held against it) and how far the census reaches.
fn census_words(census: &str, free_to: usize) -> String {
    match (census, free_to) {
        (c, 0) => c.into(),
        ("-", w) => format!("none to width {w}"),
        (c, w) => format!("{c}; none to width {w}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{census_free_to, census_words};

    #[test]
    fn the_census_bound_stops_at_the_first_gap_or_orphan() {
        assert_eq!(census_free_to(&[(1, 0), (2, 0), (3, 0), (4, 0)]), 4);
        assert_eq!(census_free_to(&[(1, 0), (2, 0), (4, 0)]), 2, "width 3 missing");
        assert_eq!(census_free_to(&[(1, 0), (2, 5), (3, 0)]), 1, "orphans at width 2");
        assert_eq!(census_free_to(&[(2, 0), (3, 0)]), 0, "no box of width 1");
        assert_eq!(census_free_to(&[]), 0);
    }

    #[test]
    fn the_census_column_reads_as_words() {
        assert_eq!(census_words("agrees (3 boxes)", 0), "agrees (3 boxes)");
        assert_eq!(census_words("agrees (3 boxes)", 6), "agrees (3 boxes); none to width 6");
        assert_eq!(census_words("-", 10), "none to width 10", "a lookahead row not held against it");
        assert_eq!(census_words("-", 0), "-");
    }
}
