//! `lifesearch clusters`: count the 8-connected clusters of a pattern's live
//! cells and give each one's size and bounding box.

use crate::life::clusters::find_clusters;
use std::path::PathBuf;

/// Arguments of `lifesearch clusters`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pattern file (any supported format).
    pub file: PathBuf,
    /// Print one JSON object `{"count": N, "clusters": [{"size", "x", "y", "width", "height"}, ...]}`.
    #[arg(long)]
    pub json: bool,
}

/// One cluster as printed, in the pattern's own coordinates.
#[derive(Debug)]
struct Row {
    size: usize,
    x: i64,
    y: i64,
    width: usize,
    height: usize,
}

#[derive(Debug)]
struct Report {
    count: usize,
    clusters: Vec<Row>,
}

/// The report as one line of JSON, spaced as `{"count": N, "clusters": [...]}`.
fn to_json(r: &Report) -> String {
    let clusters: Vec<String> = r
        .clusters
        .iter()
        .map(|c| {
            format!(
                r#"{{"size": {}, "x": {}, "y": {}, "width": {}, "height": {}}}"#,
                c.size, c.x, c.y, c.width, c.height
            )
        })
        .collect();
    format!(r#"{{"count": {}, "clusters": [{}]}}"#, r.count, clusters.join(", "))
}

pub fn run(a: Args) -> anyhow::Result<()> {
    let p = super::convert::read_with_warnings(&a.file)?;
    let found = find_clusters(&p.grid);
    let rows: Vec<Row> = found
        .clusters
        .iter()
        .map(|c| Row {
            size: c.size,
            x: p.origin.0 + c.x as i64,
            y: p.origin.1 + c.y as i64,
            width: c.width,
            height: c.height,
        })
        .collect();
    let report = Report { count: rows.len(), clusters: rows };
    if a.json {
        println!("{}", to_json(&report));
    } else {
        println!("{} clusters", report.count);
        for (i, r) in report.clusters.iter().enumerate() {
            println!(
                "cluster {}: {} cells, bounding box {}x{} at ({}, {})",
                i + 1,
                r.size,
                r.width,
                r.height,
                r.x,
                r.y
            );
        }
    }
    Ok(())
}
