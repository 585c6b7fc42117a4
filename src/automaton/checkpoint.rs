//! A census' progress on disk, so that a killed run resumes where it was: the
//! parameters it belongs to, the work units done and what they found. It is
//! rewritten whole (temporary file, then rename) every few seconds.
//!
//! Book: Part IV, "An exhaustive orphan census" (`book/src/beyond/census.md`).

use super::meet::Tally;
use crate::error::{Error, Result};
use std::path::Path;

const FORMAT: &str = "lifesearch-census-checkpoint/1";

/// Everything needed to continue a shard of a census.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Checkpoint {
    pub format: String,
    pub width: usize,
    pub height: usize,
    pub rule: String,
    pub shard_k: usize,
    pub shard_n: usize,
    /// Work units of the whole census (all shards).
    pub units: usize,
    /// Units of this shard already done, in increasing order.
    pub done: Vec<usize>,
    pub tally: Tally,
    /// Orphan class pairs kept for the spot checks.
    pub samples: Vec<(usize, usize)>,
    /// Seconds spent before this checkpoint was written.
    pub seconds: f64,
}

impl Checkpoint {
    pub fn new(
        width: usize,
        height: usize,
        rule: &str,
        shard: super::shard::Shard,
        units: usize,
    ) -> Checkpoint {
        Checkpoint {
            format: FORMAT.into(),
            width,
            height,
            rule: rule.into(),
            shard_k: shard.k,
            shard_n: shard.n,
            units,
            done: Vec::new(),
            tally: Tally::default(),
            samples: Vec::new(),
            seconds: 0.0,
        }
    }

    /// The checkpoint at `path`, if there is one; an error if it is unreadable
    /// or belongs to other parameters than `fresh` (it is never overwritten then).
    pub fn load_matching(path: &Path, fresh: &Checkpoint) -> Result<Option<Checkpoint>> {
        if !path.exists() {
            return Ok(None);
        }
        let text = crate::fsutil::read_text(path)?;
        let c: Checkpoint = serde_json::from_str(&text).map_err(|e| {
            Error::parse(
                &crate::error::Location::new(path.display().to_string(), Some(e.line())),
                e.to_string(),
            )
        })?;
        let key = |c: &Checkpoint| {
            (c.format.clone(), c.width, c.height, c.rule.clone(), c.shard_k, c.shard_n, c.units)
        };
        if key(&c) != key(fresh) {
            return Err(Error::invalid(format!(
                "{}: checkpoint of a {}x{} {} census, shard {}/{} ({} units), not of this {}x{} {} shard {}/{} \
                 ({} units); remove it or name another file",
                path.display(),
                c.width,
                c.height,
                c.rule,
                c.shard_k,
                c.shard_n,
                c.units,
                fresh.width,
                fresh.height,
                fresh.rule,
                fresh.shard_k,
                fresh.shard_n,
                fresh.units
            )));
        }
        if c.done.iter().any(|&u| u >= c.units) {
            return Err(Error::invalid(format!(
                "{}: checkpoint names a unit beyond {}",
                path.display(),
                c.units
            )));
        }
        Ok(Some(c))
    }

    pub fn save(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string(self).map_err(|e| Error::invalid(format!("checkpoint: {e}")))?;
        crate::fsutil::atomic_write(path, text.as_bytes())
    }
}
