//! Life-like rules: which neighbour counts give birth, which let a cell survive.
//! Both notations are read: Golly's `B3/S23` and WinLife's survival/birth `23/3`.
//!
//! Book: Part II, chapter 2, section 2.1 (`book/src/thesis/ch2.md`), and Part III, "Rules and HiLife"
//! (`book/src/winlife/rules.md`).

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

// ANCHOR: rule
/// A Life-like (outer-totalistic, Moore neighbourhood) rule. Bit `n` of `birth`
/// is set when a dead cell with `n` live neighbours is born; bit `n` of
/// `survival` when a live cell with `n` live neighbours stays alive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rule {
    pub birth: u16,
    pub survival: u16,
}

impl Rule {
    /// Conway's Life, B3/S23.
    pub const CONWAY: Rule = Rule { birth: 1 << 3, survival: (1 << 2) | (1 << 3) };
    /// HiLife, B36/S23: Conway plus birth on six, home of the replicator.
    pub const HILIFE: Rule = Rule { birth: (1 << 3) | (1 << 6), survival: (1 << 2) | (1 << 3) };

    /// The next state of a cell that is `alive` and has `neighbours` live neighbours.
    #[inline]
    pub fn next(self, alive: bool, neighbours: u32) -> bool {
        let mask = if alive { self.survival } else { self.birth };
        (mask >> neighbours) & 1 == 1
    }
}
// ANCHOR_END: rule

impl Default for Rule {
    fn default() -> Self {
        Rule::CONWAY
    }
}

fn digits(s: &str, what: &str, full: &str) -> Result<u16> {
    let mut mask = 0u16;
    for c in s.chars() {
        match c.to_digit(10) {
            Some(d) if d <= 8 => mask |= 1 << d,
            Some(_) => {
                return Err(Error::invalid(format!(
                    "rule '{full}': {what} digit {c} is impossible (a cell has at most 8 neighbours)"
                )));
            }
            None => {
                return Err(Error::invalid(format!("rule '{full}': unexpected character '{c}' in {what}")));
            }
        }
    }
    Ok(mask)
}

impl FromStr for Rule {
    type Err = Error;
    /// Accepts `B3/S23`, `b3s23`, `S23/B3` and WinLife's `23/3` (survival first).
    fn from_str(text: &str) -> Result<Rule> {
        let s = text.trim();
        if s.is_empty() {
            return Err(Error::invalid("empty rule"));
        }
        let lower = s.to_ascii_lowercase();
        if lower.starts_with('b') || lower.starts_with('s') {
            let (mut b, mut s_) = (None, None);
            let parts: Vec<&str> = if lower.contains('/') {
                lower.split('/').collect()
            } else if let Some(i) = lower[1..].find(['b', 's']) {
                vec![&lower[..=i], &lower[i + 1..]]
            } else {
                vec![&lower[..]]
            };
            for p in parts {
                if let Some(d) = p.strip_prefix('b') {
                    if b.replace(digits(d, "birth", s)?).is_some() {
                        return Err(Error::invalid(format!("rule '{s}': birth given twice")));
                    }
                } else if let Some(d) = p.strip_prefix('s') {
                    if s_.replace(digits(d, "survival", s)?).is_some() {
                        return Err(Error::invalid(format!("rule '{s}': survival given twice")));
                    }
                } else {
                    return Err(Error::invalid(format!("rule '{s}': expected B.../S...")));
                }
            }
            return Ok(Rule { birth: b.unwrap_or(0), survival: s_.unwrap_or(0) });
        }
        let mut parts = s.split('/');
        let (sv, bi) = (parts.next(), parts.next());
        match (sv, bi, parts.next()) {
            (Some(sv), Some(bi), None) => {
                Ok(Rule { survival: digits(sv, "survival", s)?, birth: digits(bi, "birth", s)? })
            }
            _ => Err(Error::invalid(format!("rule '{s}': expected B3/S23 or survival/birth like 23/3"))),
        }
    }
}

fn digit_string(mask: u16) -> String {
    (0..=8).filter(|d| mask >> d & 1 == 1).map(|d| char::from(b'0' + d as u8)).collect()
}

impl Rule {
    /// WinLife's survival/birth notation, e.g. `23/3`.
    pub fn to_sb(self) -> String {
        format!("{}/{}", digit_string(self.survival), digit_string(self.birth))
    }
}

impl fmt::Display for Rule {
    /// Golly's notation, e.g. `B3/S23`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "B{}/S{}", digit_string(self.birth), digit_string(self.survival))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_notations() {
        assert_eq!("B3/S23".parse::<Rule>().unwrap(), Rule::CONWAY);
        assert_eq!("23/3".parse::<Rule>().unwrap(), Rule::CONWAY);
        assert_eq!("b36s23".parse::<Rule>().unwrap(), Rule::HILIFE);
        assert_eq!("23/36".parse::<Rule>().unwrap(), Rule::HILIFE);
        assert_eq!("S23/B36".parse::<Rule>().unwrap(), Rule::HILIFE);
        assert_eq!(Rule::HILIFE.to_string(), "B36/S23");
        assert_eq!(Rule::HILIFE.to_sb(), "23/36");
        assert_eq!("125/36".parse::<Rule>().unwrap().to_string(), "B36/S125");
    }

    #[test]
    fn rejects_nine_and_garbage() {
        for bad in ["B9/S23", "239/3", "B3/S2x", "", "3", "1/2/3", "B3/B3", "hello"] {
            assert!(bad.parse::<Rule>().is_err(), "{bad}");
        }
    }
}
