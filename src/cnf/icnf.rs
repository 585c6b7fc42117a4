//! Wieringa's incremental CNF (iCNF): a `p inccnf` header, then clauses and
//! assumption lines `a LITS 0` in any order. Each `a` line is one solver call
//! under those assumptions against every clause read so far. The thesis'
//! Listing 4.3 prints the header as `p incnf`; we write `p inccnf` and read both.
//!
//! Book: Part II, chapter 4, section 4.5 (`book/src/thesis/ch4.md`).

use crate::cnf::dimacs::parse_lit;
use crate::cnf::lit::{Clause, Lit};
use crate::cnf::solver::{Outcome, Solver};
use crate::error::{Error, Location, Result};
use std::fmt::Write;

// ANCHOR: icnf
/// One step of an incremental script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IcnfItem {
    /// Add a clause permanently.
    Clause(Clause),
    /// Solve under these assumptions.
    Assume(Vec<Lit>),
}

/// An incremental script: clauses and solve calls in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IcnfScript {
    pub items: Vec<IcnfItem>,
}
// ANCHOR_END: icnf

impl IcnfScript {
    pub fn write(&self) -> String {
        let mut s = String::from("p inccnf\n");
        for item in &self.items {
            let lits = match item {
                IcnfItem::Clause(c) => c,
                IcnfItem::Assume(a) => {
                    s.push_str("a ");
                    a
                }
            };
            for l in lits {
                let _ = write!(s, "{} ", l.dimacs());
            }
            s.push_str("0\n");
        }
        s
    }

    pub fn read(loc: &Location, text: &str) -> Result<IcnfScript> {
        let mut script = IcnfScript::default();
        let mut seen_header = false;
        for (i, raw) in text.lines().enumerate() {
            let at = loc.at(i + 1);
            let line = raw.trim();
            if line.is_empty() || line.starts_with('c') {
                continue;
            }
            if line.starts_with('p') {
                let parts: Vec<&str> = line.split_whitespace().collect();
                if seen_header || !matches!(parts.as_slice(), ["p", "inccnf" | "incnf"]) {
                    return Err(Error::parse(&at, "expected one 'p inccnf' header"));
                }
                seen_header = true;
                continue;
            }
            if !seen_header {
                return Err(Error::parse(&at, "missing 'p inccnf' header"));
            }
            let (assume, body) = match line.strip_prefix('a') {
                Some(rest) => (true, rest),
                None => (false, line),
            };
            let mut lits = Vec::new();
            let mut ended = false;
            for tok in body.split_whitespace() {
                if ended {
                    return Err(Error::parse(&at, "text after the closing 0"));
                }
                match parse_lit(&at, tok, None)? {
                    Some(l) => lits.push(l),
                    None => ended = true,
                }
            }
            if !ended {
                return Err(Error::parse(&at, "a line of an iCNF file must end with 0"));
            }
            script.items.push(if assume { IcnfItem::Assume(lits) } else { IcnfItem::Clause(lits) });
        }
        if !seen_header {
            return Err(Error::parse(&loc.at(1), "missing 'p inccnf' header"));
        }
        Ok(script)
    }

    /// Play the script on one solver; the outcome of every `a` line in order.
    pub fn run(&self, solver: &mut dyn Solver) -> Result<Vec<Outcome>> {
        let mut out = Vec::new();
        for item in &self.items {
            match item {
                IcnfItem::Clause(c) => solver.add_clause(c),
                IcnfItem::Assume(a) => out.push(solver.solve_with(a)?),
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_thesis_header() {
        let text = "p inccnf\n1 2 0\na -1 0\n-2 0\na 0\n";
        let s = IcnfScript::read(&Location::new("i", None), text).unwrap();
        assert_eq!(s.items.len(), 4);
        assert_eq!(s.write(), "p inccnf\n1 2 0\na -1 0\n-2 0\na 0\n");
        assert!(IcnfScript::read(&Location::new("i", None), "p incnf\n1 0\n").is_ok());
        let e = IcnfScript::read(&Location::new("i", None), "p inccnf\na 1 2\n").unwrap_err();
        assert!(e.to_string().starts_with("i:2:"));
    }
}
