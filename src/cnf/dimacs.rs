//! DIMACS CNF, the lingua franca of SAT solvers: `p cnf VARS CLAUSES`, then
//! clauses as signed integers ended by `0`. Variable names travel in comment
//! lines `c name ID NAME`, which other tools ignore.
//!
//! Book: Part II, chapter 4, section 4.3.1 (`book/src/thesis/ch4.md`).

use crate::cnf::formula::Formula;
use crate::cnf::lit::{Lit, MAX_VAR, Var};
use crate::error::{Error, Location, Result};
use std::fmt::Write;

// ANCHOR: write_dimacs
/// The formula as DIMACS text, with a `c name` line for every named variable.
pub fn write(f: &Formula) -> String {
    let mut s = String::new();
    for (v, name) in f.named_vars() {
        let _ = writeln!(s, "c name {} {}", v.dimacs(), name);
    }
    let _ = writeln!(s, "p cnf {} {}", f.num_vars(), f.num_clauses());
    for c in f.clauses() {
        for l in c {
            let _ = write!(s, "{} ", l.dimacs());
        }
        s.push_str("0\n");
    }
    s
}
// ANCHOR_END: write_dimacs

/// Parse one whitespace-separated DIMACS literal; `0` gives `None`.
pub(crate) fn parse_lit(loc: &Location, tok: &str, max_var: Option<u32>) -> Result<Option<Lit>> {
    let d: i64 = tok.parse().map_err(|_| Error::parse(loc, format!("'{tok}' is not an integer literal")))?;
    if d == 0 {
        return Ok(None);
    }
    let v = d.unsigned_abs();
    if v > MAX_VAR as u64 {
        return Err(Error::parse(loc, format!("literal {d} is out of range")));
    }
    if let Some(m) = max_var
        && v > m as u64
    {
        return Err(Error::parse(loc, format!("literal {d} exceeds the {m} variables of the header")));
    }
    Ok(Some(Lit::from_dimacs(d as i32)))
}

/// Read DIMACS text. Clauses may span lines; the header's counts are checked.
pub fn read(loc: &Location, text: &str) -> Result<Formula> {
    let mut f = Formula::new();
    let mut header: Option<(u32, usize)> = None;
    let mut current = Vec::new();
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let at = loc.at(i + 1);
        last_line = i + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('c') {
            let mut it = rest.split_whitespace();
            if it.next() == Some("name")
                && let (Some(id), Some(name), None) = (it.next(), it.next(), it.next())
            {
                let id: u32 = id.parse().map_err(|_| Error::parse(&at, format!("bad variable id '{id}'")))?;
                if id == 0 || id > MAX_VAR {
                    return Err(Error::parse(&at, format!("variable id {id} is out of range")));
                }
                Formula::check_name(name).map_err(|e| Error::parse(&at, e.to_string()))?;
                f.set_name(Var(id - 1), name);
            }
            continue;
        }
        if line.starts_with('%') {
            break; // the end marker of the old SATLIB files
        }
        if let Some(rest) = line.strip_prefix('p') {
            if header.is_some() {
                return Err(Error::parse(&at, "a second 'p cnf' header"));
            }
            let parts: Vec<&str> = rest.split_whitespace().collect();
            let parsed = match parts.as_slice() {
                ["cnf", v, c] => v.parse::<u32>().ok().zip(c.parse::<usize>().ok()),
                _ => None,
            };
            let (v, c) = parsed.ok_or_else(|| Error::parse(&at, "expected 'p cnf VARIABLES CLAUSES'"))?;
            if v > MAX_VAR {
                return Err(Error::parse(&at, format!("{v} variables are too many")));
            }
            header = Some((v, c));
            continue;
        }
        let Some((max_var, _)) = header else {
            return Err(Error::parse(&at, "clause before the 'p cnf' header"));
        };
        for tok in line.split_whitespace() {
            match parse_lit(&at, tok, Some(max_var))? {
                Some(l) => current.push(l),
                None => f.add(std::mem::take(&mut current)),
            }
        }
    }
    let end = loc.at(last_line.max(1));
    let Some((vars, clauses)) = header else {
        return Err(Error::parse(&end, "no 'p cnf' header"));
    };
    if !current.is_empty() {
        return Err(Error::parse(&end, "the last clause is not ended by 0"));
    }
    if f.num_clauses() != clauses {
        return Err(Error::parse(
            &end,
            format!("the header promises {clauses} clauses but there are {}", f.num_clauses()),
        ));
    }
    if vars > 0 {
        f.ensure_var(Var(vars - 1));
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_with_names() {
        let mut f = Formula::new();
        let a = f.named("1a1");
        let b = f.fresh();
        f.add(vec![a.pos(), b.neg()]);
        f.add(vec![]);
        let text = write(&f);
        let g = read(&Location::new("t.cnf", None), &text).unwrap();
        assert_eq!(f, g);
    }

    #[test]
    fn errors_name_the_line() {
        let loc = Location::new("t.cnf", None);
        for (bad, line) in [
            ("1 2 0\n", ":1:"),
            ("p cnf 2 1\n1 3 0\n", ":2:"),
            ("p cnf 2 2\n1 2 0\n", ":2:"),
            ("p cnf 2 1\n1 x 0\n", ":2:"),
            ("p cnf 2 1\n1 2\n", ":2:"),
            ("p dnf 2 1\n", ":1:"),
        ] {
            let e = read(&loc, bad).unwrap_err().to_string();
            assert!(e.contains(line), "{bad:?}: {e}");
        }
    }
}
