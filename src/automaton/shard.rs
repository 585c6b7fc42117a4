//! Shards: `K/N` names the K-th of N independent shares of a census, so that
//! shards can run as separate processes (GNU parallel, a Slurm job array) and
//! their results be summed afterwards by `lifesearch census merge`.
//!
//! Book: Part IV, "An exhaustive orphan census" (`book/src/beyond/census.md`).

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// The K-th (1-based) of N shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    /// All of the work.
    pub const WHOLE: Shard = Shard { k: 1, n: 1 };

    /// Does work unit `u` belong to this shard? Units are dealt round-robin,
    /// so every shard gets early (cheap) and late (dear) units alike.
    pub fn owns(self, unit: usize) -> bool {
        unit % self.n == self.k - 1
    }
}

impl FromStr for Shard {
    type Err = Error;
    fn from_str(s: &str) -> Result<Shard> {
        let bad = || Error::invalid(format!("shard '{s}': expected K/N with 1 <= K <= N, e.g. 3/8"));
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) =
            (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_deals_every_unit_once() {
        assert_eq!("3/8".parse::<Shard>().unwrap(), Shard { k: 3, n: 8 });
        for bad in ["0/8", "9/8", "3", "a/b", "1/0", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        for u in 0..50 {
            assert_eq!((1..=7).filter(|&k| Shard { k, n: 7 }.owns(u)).count(), 1);
        }
    }
}
