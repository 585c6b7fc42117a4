//! Figures 6.1 and 6.2: GRIDWALKER variants basic, track, db and db on a warm
//! second run over the thesis' candidates (first 10,000 by default, all
//! 125,000 with `--full`): a density plot of solve times and a scatter plot of
//! the first 10,000. For every row we also compare the N-S and E-W lookup
//! counts with the thesis' raw statistics.

use super::Experiment;
use super::gw::{DbSession, Timed, decide, spec_of};
use crate::candidates::{candidates, load_ranking, read_thesis_stats, thesis_stats_path};
use crate::harness::{Ctx, Report, missing, read_csv, thousands, write_csv, write_text};
use crate::plot::{Density, Scatter, render};
use anyhow::Result;
use lifesearch::gridwalker::Variant;
use serde::{Deserialize, Serialize};

pub const FIGURE_6_1: Experiment = Experiment {
    id: "figure-6-1",
    title: "Figure 6.1: density of solve times over the candidates",
    columns: &[
        "candidate",
        "variant",
        "micros",
        "orphan",
        "ns_lookups",
        "ew_lookups",
        "probes",
        "thesis_ns_lookups",
        "thesis_ew_lookups",
    ],
    figure: true,
    run: run_61,
    render: draw_61,
};

pub const FIGURE_6_2: Experiment = Experiment {
    id: "figure-6-2",
    title: "Figure 6.2: scatter of solve times, first 10,000 candidates",
    columns: &["candidate", "variant", "micros"],
    figure: true,
    run: run_62,
    render: draw_62,
};

#[derive(Debug, Serialize, Deserialize)]
pub struct Row {
    pub candidate: usize,
    pub variant: String,
    pub micros: f64,
    pub orphan: bool,
    pub ns_lookups: Option<u64>,
    pub ew_lookups: Option<u64>,
    pub probes: Option<u64>,
    pub thesis_ns_lookups: Option<u64>,
    pub thesis_ew_lookups: Option<u64>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Row62 {
    pub candidate: usize,
    pub variant: String,
    pub micros: f64,
}

fn run_61(ctx: &Ctx) -> Result<Report> {
    let (q, rank, _) = load_ranking(ctx)?;
    let m = ctx.mode.pick(20, 50, 50);
    let count = ctx.mode.pick(30, 10_000, 125_000);
    let all = candidates(&rank, q, m);
    let stats = match thesis_stats_path(ctx) {
        Some(p) if q == 5 => Some(read_thesis_stats(&p)?),
        _ => None,
    };
    let specs: Vec<_> = all.iter().take(count).map(|(_, g)| spec_of(g)).collect();
    let row = |i: usize, label: &str, t: &Timed| Row {
        candidate: i + 1,
        variant: label.into(),
        micros: t.micros,
        orphan: t.orphan(),
        // The db counts its interaction lookups; the plain variants their confrontations (the same events).
        ns_lookups: t.stat("ns_queried").or_else(|| t.stat("ns_confrontations")),
        ew_lookups: t.stat("ew_queried").or_else(|| t.stat("ew_confrontations")),
        probes: t.stat("probes"),
        thesis_ns_lookups: stats.as_ref().and_then(|s| s.get(i)).map(|s| s[3]),
        thesis_ew_lookups: stats.as_ref().and_then(|s| s.get(i)).map(|s| s[5]),
    };
    let bar = ctx.bar(4 * specs.len() as u64, "figure-6-1");
    let mut rows = Vec::new();
    // As the thesis ran it: one database for the whole sequence ("db"), then a
    // second pass over the same sequence with everything cached ("db-warm").
    let mut session = DbSession::default();
    for (i, spec) in specs.iter().enumerate() {
        rows.push(row(i, "basic", &decide(spec, Variant::Basic, 1)?));
        rows.push(row(i, "track", &decide(spec, Variant::Track, 1)?));
        rows.push(row(i, "db", &session.decide(spec)?));
        bar.inc(3);
    }
    for (i, spec) in specs.iter().enumerate() {
        rows.push(row(i, "db-warm", &session.decide(spec)?));
        bar.inc(1);
    }
    let order = |v: &str| ["basic", "track", "db", "db-warm"].iter().position(|x| *x == v);
    rows.sort_by_key(|r| (r.candidate, order(&r.variant)));
    bar.finish_and_clear();
    if rows.is_empty() {
        return Err(missing("candidates (the ranking gave none)"));
    }
    write_csv(&ctx.csv("figure-6-1"), &rows)?;
    Ok(Report {
        rows: rows.len(),
        seeds: vec![],
        solvers: vec![
            "gridwalker basic".into(),
            "gridwalker track".into(),
            "gridwalker db, one store for the sequence (db) and a second pass (db-warm)".into(),
        ],
        notes: vec![format!("first {count} candidates; one timed call per row")],
    })
}

fn draw_61(ctx: &Ctx) -> Result<()> {
    let rows: Vec<Row> = read_csv(&ctx.csv("figure-6-1"))?;
    let variants = ["basic", "track", "db", "db-warm"];
    let series: Vec<(String, Vec<f64>)> = variants
        .iter()
        .map(|v| (v.to_string(), rows.iter().filter(|r| r.variant == *v).map(|r| r.micros).collect()))
        .filter(|s: &(String, Vec<f64>)| !s.1.is_empty())
        .collect();
    let cut = rows.iter().filter(|r| r.micros > 2000.0).count();
    render(
        &ctx.figure("figure-6-1"),
        &Density {
            title: format!("Figure 6.1: solve times ({cut} rows beyond 2 ms not shown)"),
            x_label: "microseconds".into(),
            series,
            x_max: 2000.0,
        },
    )?;
    let candidates = rows.iter().map(|r| r.candidate).max().unwrap_or(0);
    let orphans = rows.iter().filter(|r| r.variant == "basic" && r.orphan).count();
    let mut md = format!(
        "{} candidates, {} orphans (the thesis: none of the 125,000).\n\n\
         | Variant | Median us | Mean us | Rows with lookups | Equal to thesis (N-S and E-W) |\n|---|---:|---:|---:|---:|\n",
        thousands(candidates as u64),
        orphans
    );
    for v in variants {
        let mut t: Vec<f64> = rows.iter().filter(|r| r.variant == v).map(|r| r.micros).collect();
        if t.is_empty() {
            continue;
        }
        t.sort_by(|a, b| a.total_cmp(b));
        let with: Vec<&Row> = rows
            .iter()
            .filter(|r| r.variant == v && r.ns_lookups.is_some() && r.thesis_ns_lookups.is_some())
            .collect();
        let equal = with
            .iter()
            .filter(|r| r.ns_lookups == r.thesis_ns_lookups && r.ew_lookups == r.thesis_ew_lookups)
            .count();
        md += &format!(
            "| {v} | {:.1} | {:.1} | {} | {} |\n",
            t[t.len() / 2],
            t.iter().sum::<f64>() / t.len() as f64,
            thousands(with.len() as u64),
            thousands(equal as u64)
        );
    }
    md += "\nOne timed call per candidate and variant. `db` keeps one slice database for the whole \
           sequence, as the thesis did; `db-warm` is a second pass over the same sequence with that store. \
           Lookup counts are compared with columns 4 and 6 of the thesis' `life64-stats-125000.txt.gz`.\n";
    write_text(&ctx.generated("figure-6-1"), &md)
}

fn run_62(ctx: &Ctx) -> Result<Report> {
    let src = ctx.csv("figure-6-1");
    if !src.exists() {
        return Err(missing("data/figure-6-1.csv (figure-6-1 has not run)"));
    }
    let rows: Vec<Row> = read_csv(&src)?;
    let out: Vec<Row62> = rows
        .into_iter()
        .filter(|r| r.candidate <= 10_000)
        .map(|r| Row62 { candidate: r.candidate, variant: r.variant, micros: r.micros })
        .collect();
    write_csv(&ctx.csv("figure-6-2"), &out)?;
    Ok(Report {
        rows: out.len(),
        notes: vec!["the first 10,000 rows of figure-6-1".into()],
        ..Default::default()
    })
}

fn draw_62(ctx: &Ctx) -> Result<()> {
    let rows: Vec<Row62> = read_csv(&ctx.csv("figure-6-2"))?;
    let series = ["db", "db-warm", "basic", "track"]
        .iter()
        .map(|v| {
            let p: Vec<(f64, f64)> =
                rows.iter().filter(|r| r.variant == *v).map(|r| (r.candidate as f64, r.micros)).collect();
            (v.to_string(), p)
        })
        .filter(|s| !s.1.is_empty())
        .collect();
    render(
        &ctx.figure("figure-6-2"),
        &Scatter {
            title: "Figure 6.2: solve time per candidate".into(),
            x_label: "candidate".into(),
            y_label: "microseconds".into(),
            series,
            log_y: true,
        },
    )?;
    let md = format!(
        "Scatter of {} solve times (first 10,000 candidates, four variants), drawn from `data/figure-6-2.csv`.\n",
        thousands(rows.len() as u64)
    );
    write_text(&ctx.generated("figure-6-2"), &md)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::{Mode, write_csv};

    #[test]
    fn figures_render_from_a_small_csv_and_count_matches() {
        let dir = tempfile::tempdir().unwrap();
        let c =
            Ctx { root: dir.path().into(), mode: Mode::Tiny, cache: dir.path().join("c"), progress: false };
        let rows: Vec<Row> = (1..=20)
            .flat_map(|i| {
                ["basic", "track"].map(|v| Row {
                    candidate: i,
                    variant: v.into(),
                    micros: 100.0 + (i * 37 % 11) as f64 * 50.0,
                    orphan: false,
                    ns_lookups: Some(i as u64),
                    ew_lookups: Some(7),
                    probes: Some(1),
                    thesis_ns_lookups: Some(if i == 3 { 0 } else { i as u64 }),
                    thesis_ew_lookups: Some(7),
                })
            })
            .collect();
        write_csv(&c.csv("figure-6-1"), &rows).unwrap();
        draw_61(&c).unwrap();
        let md = std::fs::read_to_string(c.generated("figure-6-1")).unwrap();
        assert!(md.contains("| 20 | 19 |"), "{md}");
        run_62(&c).unwrap();
        draw_62(&c).unwrap();
        for id in ["figure-6-1", "figure-6-2"] {
            assert!(crate::plot::is_svg(&c.figure(id).with_extension("svg")));
            assert!(crate::plot::is_png(&c.figure(id).with_extension("png")));
        }
    }
}
