//! Knuth's variable names ("xty codes") as a Rust type. The C programs never
//! store a variable: they print its name. We keep the parts of the name apart
//! so that a SAT layer can use the variables directly, and print the name
//! only when Knuth's text is wanted.
//!
//! Book: Part I, SAT-LIFE, sections 1-2 (`book/src/knuth/sat-life.md`).

use std::fmt;

// ANCHOR: timecode
/// The 84 letters that name a time: `a`-`z`, `A`-`Z`, then the 32 ASCII
/// punctuation marks in code order. Time `t` is written as `TIMECODE[t]`.
pub const TIMECODE: &[u8; 84] =
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
// ANCHOR_END: timecode

/// The letter of time `t` (callers keep `t < 84`).
pub fn time_letter(t: usize) -> char {
    TIMECODE[t] as char
}

// ANCHOR: var
/// One Boolean variable of Knuth's encodings.
///
/// `x` is Knuth's row number and `y` his column number, both counted from 1
/// for the cells of a pattern or grid (0 and one past the end occur for the
/// border cells that can be born).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Var {
    pub x: u32,
    pub y: u32,
    /// The time (an index into [`TIMECODE`]); for [`VarKind::Diff`] it is the
    /// generation `k` that is compared with generation 0.
    pub t: u8,
    pub kind: VarKind,
}

/// What a variable stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarKind {
    /// Cell (x, y) is alive at time t: `10a11`.
    Cell,
    /// A counter bit of cell (x, y) at time t: letter `A`..`G` and index k,
    /// as in `10a11B2` ("at least 2 of the first four neighbours").
    Aux { letter: char, k: u8 },
    /// The extra variable that splits zprime's 4-literal clause: `10a11x`.
    Extra,
    /// "Generation t differs from generation 0 at (x, y)": `3ab2`.
    Diff,
}
// ANCHOR_END: var

// ANCHOR: lit
/// A literal: a variable, complemented when `neg`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Lit {
    pub var: Var,
    pub neg: bool,
}

/// A clause is a disjunction of literals.
pub type Clause = Vec<Lit>;
// ANCHOR_END: lit

impl Var {
    /// The cell variable of (x, y) at time t (below 84), written `xty`.
    pub fn cell(x: u32, t: usize, y: u32) -> Var {
        Var { x, y, t: t as u8, kind: VarKind::Cell }
    }
    /// The auxiliary counter variable `x t y L k`.
    pub fn aux(x: u32, t: usize, y: u32, letter: char, k: u8) -> Var {
        Var { x, y, t: t as u8, kind: VarKind::Aux { letter, k } }
    }
    /// zprime's extra variable `x t y x`.
    pub fn extra(x: u32, t: usize, y: u32) -> Var {
        Var { x, y, t: t as u8, kind: VarKind::Extra }
    }
    /// The difference variable `x a k y` of the period rule.
    pub fn diff(x: u32, k: usize, y: u32) -> Var {
        Var { x, y, t: k as u8, kind: VarKind::Diff }
    }
    pub fn positive(self) -> Lit {
        Lit { var: self, neg: false }
    }
    pub fn negative(self) -> Lit {
        Lit { var: self, neg: true }
    }
    pub fn is_cell(&self) -> bool {
        self.kind == VarKind::Cell
    }
}

impl fmt::Display for Var {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (x, y, tc) = (self.x, self.y, time_letter(self.t as usize));
        match self.kind {
            VarKind::Cell => write!(f, "{x}{tc}{y}"),
            VarKind::Aux { letter, k } => write!(f, "{x}{tc}{y}{letter}{k}"),
            VarKind::Extra => write!(f, "{x}{tc}{y}x"),
            VarKind::Diff => write!(f, "{x}a{tc}{y}"),
        }
    }
}

impl fmt::Display for Lit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.neg { write!(f, "~{}", self.var) } else { write!(f, "{}", self.var) }
    }
}

/// Read a Knuth name back (`10a11`, `10a11B2`, `10a11x`, `3ab2`), for
/// example from the `c N name` lines of our DIMACS output.
impl std::str::FromStr for Var {
    type Err = String;
    fn from_str(s: &str) -> Result<Var, String> {
        let bad = || format!("'{s}' is not a Knuth variable name");
        let digits = |t: &str| t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let time = |c: u8| TIMECODE.iter().position(|&t| t == c);
        let xlen = digits(s);
        let x: u32 = s[..xlen].parse().map_err(|_| bad())?;
        let rest = &s.as_bytes()[xlen..];
        if rest.len() < 2 {
            return Err(bad());
        }
        // A difference variable has two letters before y: `a` and generation k's.
        let (t, kind_at, diff) =
            if rest[1].is_ascii_digit() { (time(rest[0]), 1, false) } else { (time(rest[1]), 2, true) };
        let t = t.ok_or_else(bad)?;
        if diff && rest[0] != b'a' {
            return Err(bad());
        }
        let rest = &s[xlen + kind_at..];
        let ylen = digits(rest);
        let y: u32 = rest[..ylen].parse().map_err(|_| bad())?;
        let var = match (&rest[ylen..], diff) {
            ("", true) => Var::diff(x, t, y),
            ("", false) => Var::cell(x, t, y),
            ("x", false) => Var::extra(x, t, y),
            (suffix, false) if suffix.len() == 2 => {
                let (letter, k) = (suffix.as_bytes()[0] as char, suffix.as_bytes()[1]);
                if !('A'..='G').contains(&letter) || !k.is_ascii_digit() {
                    return Err(bad());
                }
                Var::aux(x, t, y, letter, k - b'0')
            }
            _ => return Err(bad()),
        };
        Ok(var)
    }
}

impl std::str::FromStr for Lit {
    type Err = String;
    fn from_str(s: &str) -> Result<Lit, String> {
        match s.strip_prefix('~') {
            Some(name) => Ok(name.parse::<Var>()?.negative()),
            None => Ok(s.parse::<Var>()?.positive()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_knuths_examples() {
        assert_eq!(Var::cell(10, 0, 11).to_string(), "10a11");
        assert_eq!(Var::cell(10, 1, 11).to_string(), "10b11");
        assert_eq!(Var::aux(10, 0, 11, 'C', 2).to_string(), "10a11C2");
        assert_eq!(Var::extra(10, 0, 11).to_string(), "10a11x");
        assert_eq!(Var::diff(3, 1, 2).to_string(), "3ab2");
        assert_eq!(Var::cell(1, 83, 2).negative().to_string(), "~1~2");
    }

    #[test]
    fn names_read_back() {
        for t in 0..84 {
            for v in [
                Var::cell(10, t, 11),
                Var::aux(3, t, 0, 'G', 2),
                Var::extra(0, t, 7),
                Var::diff(12, t.max(1), 345),
            ] {
                assert_eq!(v.to_string().parse::<Var>(), Ok(v), "{v}");
                assert_eq!(v.negative().to_string().parse::<Lit>(), Ok(v.negative()));
            }
        }
        for bad in ["", "10", "a11", "10a", "10a11y", "10a11H2", "10ba11", "3bb2", "10a11B"] {
            assert!(bad.parse::<Var>().is_err(), "{bad}");
        }
    }

    #[test]
    fn timecode_is_84_distinct_printable_letters() {
        let mut seen = std::collections::HashSet::new();
        for &c in TIMECODE {
            assert!(c.is_ascii_graphic());
            assert!(seen.insert(c));
        }
        assert_eq!(TIMECODE[52], b'!');
        assert_eq!(TIMECODE[79], b'`');
    }
}
