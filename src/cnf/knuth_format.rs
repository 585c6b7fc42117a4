//! Knuth's clause format, as SAT-LIFE prints it: one clause per line, literals
//! are variable names separated by spaces, `~` negates, and a line that begins
//! with `~ ` (tilde, space) is a comment.
//!
//! Book: Part II, chapter 4, section 4.3.1 (`book/src/thesis/ch4.md`).

use crate::cnf::formula::Formula;
use crate::error::{Error, Location, Result};

// ANCHOR: read_knuth
/// Read Knuth-format clauses, naming variables in order of first appearance.
pub fn read(loc: &Location, text: &str) -> Result<Formula> {
    let mut f = Formula::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.starts_with("~ ") || line == "~" {
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        let mut clause = Vec::new();
        for tok in line.split_whitespace() {
            let (neg, name) = match tok.strip_prefix('~') {
                Some(n) => (true, n),
                None => (false, tok),
            };
            Formula::check_name(name)
                .map_err(|_| Error::parse(&loc.at(i + 1), format!("'{tok}' is not a literal")))?;
            clause.push(f.named(name).lit(!neg));
        }
        f.add(clause);
    }
    Ok(f)
}
// ANCHOR_END: read_knuth

/// Write the clauses Knuth's way (a space before every literal).
pub fn write(f: &Formula) -> String {
    let mut s = String::new();
    for c in f.clauses() {
        for &l in c {
            s.push(' ');
            s.push_str(&f.lit_text(l));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_knuth_lines() {
        let text = "~ sat-life-grid-cycle 3 3 2\n 1a1 ~2b3\n~1a1 10a11x\n";
        let f = read(&Location::new("k", None), text).unwrap();
        assert_eq!(f.num_clauses(), 2);
        assert_eq!(f.num_vars(), 3);
        assert_eq!(write(&f), " 1a1 ~2b3\n ~1a1 10a11x\n");
        let e = read(&Location::new("k", None), " 1a1 ~~x\n").unwrap_err().to_string();
        assert!(e.starts_with("k:1:"), "{e}");
    }
}
