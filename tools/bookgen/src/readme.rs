//! The README's measured figures (how long a full run takes, how much memory
//! it needs) are not typed: they stand between two markers and are written
//! from `data/manifest.json`'s `last_full_run`, which `experiments all --full`
//! records. `experiments all --full` rewrites the block; `bookgen check` and a
//! test fail when the README and the manifest disagree.

use crate::manifest::Manifest;
use anyhow::{Context, Result, anyhow, bail};
use std::path::Path;

const OPEN: &str = "<!-- manifest:last-full-run -->";
const CLOSE: &str = "<!-- /manifest -->";

/// The block's text for a manifest.
pub fn render(manifest: &Manifest) -> String {
    match &manifest.last_full_run {
        Some(run) => {
            let s = run.seconds.round() as u64;
            let commit: String = run.commit.chars().take(7).collect();
            format!(
                "{} min {:02} s of wall time and {:.2} GB of peak memory in the last one, at commit {commit}",
                s / 60,
                s % 60,
                run.peak_rss_bytes as f64 / 1e9
            )
        }
        None => "wall time and peak memory not recorded yet: the next complete run records them".to_string(),
    }
}

/// The README's block as it stands, and where it is.
fn block(readme: &str) -> Result<(usize, usize)> {
    let start = readme.find(OPEN).ok_or_else(|| anyhow!("README.md has no {OPEN} marker"))? + OPEN.len();
    let end =
        readme[start..].find(CLOSE).ok_or_else(|| anyhow!("README.md: {OPEN} without {CLOSE}"))? + start;
    Ok((start, end))
}

fn load(root: &Path) -> Result<(String, Manifest)> {
    let readme = std::fs::read_to_string(root.join("README.md")).context("README.md")?;
    Ok((readme, Manifest::load(root)?))
}

/// Fail if the README's figures are not the manifest's.
pub fn check(root: &Path) -> Result<()> {
    let (readme, manifest) = load(root)?;
    let (a, b) = block(&readme)?;
    let want = render(&manifest);
    if readme[a..b] != want {
        bail!(
            "README.md says \"{}\" where data/manifest.json says \"{want}\" (`experiments all --full` rewrites it)",
            &readme[a..b]
        );
    }
    Ok(())
}

/// The README with its block written from the manifest (`None`: already so).
pub fn updated(root: &Path) -> Result<Option<String>> {
    let (readme, manifest) = load(root)?;
    let (a, b) = block(&readme)?;
    let want = render(&manifest);
    Ok((readme[a..b] != want).then(|| format!("{}{want}{}", &readme[..a], &readme[b..])))
}
