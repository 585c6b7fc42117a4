//! `data/manifest.json`, typed: the experiments harness writes it, the book
//! and the README read it. One definition for both, and a broken manifest is
//! an error naming the file, never a silent default.

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// How big a run is: `Tiny` for the smoke test (seconds), `Quick` for the
/// default `all` (minutes), `Full` for the thesis' sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    Tiny,
    Quick,
    Full,
}

impl Mode {
    /// The value for this mode.
    pub fn pick<T>(self, tiny: T, quick: T, full: T) -> T {
        match self {
            Mode::Tiny => tiny,
            Mode::Quick => quick,
            Mode::Full => full,
        }
    }
    pub fn name(self) -> &'static str {
        self.pick("tiny", "quick", "full")
    }
}

/// What a finished run reports for the manifest.
#[derive(Debug, Default, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Report {
    pub rows: usize,
    pub seeds: Vec<u64>,
    /// Solvers and engines used, with versions where known.
    pub solvers: Vec<String>,
    pub notes: Vec<String>,
}

/// One experiment's entry.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Entry {
    pub fingerprint: String,
    /// The git commit the run started from (the fingerprint also covers uncommitted changes).
    pub commit: String,
    pub mode: Mode,
    pub date: String,
    pub seconds: f64,
    #[serde(flatten)]
    pub report: Report,
}

/// The machine and, per CSV, how it was made.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub machine: Machine,
    pub experiments: BTreeMap<String, Entry>,
    /// The last complete `experiments all --full` (the README quotes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_full_run: Option<FullRun>,
}

/// How long a complete full run took and how much memory it needed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FullRun {
    pub commit: String,
    pub date: String,
    /// Wall time of `experiments all --full`, the book's build not included.
    pub seconds: f64,
    /// Peak resident memory of the harness process (`VmRSS` sampled every
    /// 50 ms, and `VmHWM` at the end); solver child processes not included.
    pub peak_rss_bytes: u64,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    pub cpu: String,
    pub cores: usize,
    pub os: String,
}

impl Manifest {
    pub fn path(root: &Path) -> PathBuf {
        root.join("data/manifest.json")
    }

    /// The manifest under `root`; an error if it is missing or malformed.
    pub fn load(root: &Path) -> Result<Manifest> {
        let p = Manifest::path(root);
        let text = std::fs::read_to_string(&p).with_context(|| format!("{}: cannot read", p.display()))?;
        Manifest::parse(&text).with_context(|| format!("{}: not a manifest", p.display()))
    }

    /// The manifest under `root`, or an empty one where there is none yet (a
    /// fresh output folder); a malformed one is still an error.
    pub fn load_or_new(root: &Path) -> Result<Manifest> {
        if Manifest::path(root).exists() { Manifest::load(root) } else { Ok(Manifest::default()) }
    }

    pub fn parse(text: &str) -> Result<Manifest> {
        Ok(serde_json::from_str(text)?)
    }

    /// The JSON text as committed (pretty, with a final newline).
    pub fn to_json(&self) -> Result<String> {
        let mut text = serde_json::to_string_pretty(self)?;
        text.push('\n');
        Ok(text)
    }

    /// The entry of experiment `id`, or of the experiment a second figure
    /// (`orphan-zoo-patterns`) is named after: the longest id that prefixes it.
    pub fn entry(&self, id: &str) -> Option<(&str, &Entry)> {
        if let Some((k, e)) = self.experiments.get_key_value(id) {
            return Some((k, e));
        }
        self.experiments
            .iter()
            .filter(|(k, _)| id.starts_with(&format!("{k}-")))
            .max_by_key(|(k, _)| k.len())
            .map(|(k, e)| (k.as_str(), e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_manifest_is_an_error() {
        assert!(Manifest::parse("{").is_err());
        assert!(
            Manifest::parse(r#"{"machine":{"cpu":"x","cores":1,"os":"y"},"experiments":{},"extra":1}"#)
                .is_err()
        );
        let m = Manifest::parse(r#"{"machine":{"cpu":"x","cores":1,"os":"y"},"experiments":{}}"#).unwrap();
        assert_eq!(Manifest::parse(&m.to_json().unwrap()).unwrap(), m);
    }

    #[test]
    fn second_figures_find_their_experiment() {
        let e = Entry {
            fingerprint: "f".into(),
            commit: "c".into(),
            mode: Mode::Quick,
            date: "d".into(),
            seconds: 1.0,
            report: Report::default(),
        };
        let mut m = Manifest::default();
        m.experiments.insert("orphan-zoo".into(), e.clone());
        m.experiments.insert("orphan".into(), e);
        assert_eq!(m.entry("orphan-zoo-patterns").unwrap().0, "orphan-zoo");
        assert!(m.entry("census").is_none());
    }
}
