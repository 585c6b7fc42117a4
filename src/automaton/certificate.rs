//! The checker of an orphan-width certificate, written to be read and to
//! share no code with the search that wrote it ([`super::width`]).
//!
//! For a rule and a height H, a *state* is a pair `(a, b)` of consecutive
//! parent columns of H+2 cells, and reading a target column `t` (H cells)
//! moves `(a, b)` to `(b, c)` when the rule, applied to the three columns
//! `a, b, c`, gives `t` on the H middle cells of `b`. A target of width W has
//! a parent exactly when some path of W moves reads its columns; every state
//! may start, since the cells around the target are free.
//!
//! A certificate is a family F of state sets with, for every member M and
//! every letter t, the index of a member that the successor `succ_t(M)`
//! contains. This checker verifies that
//!
//! 1. F has a member, and no member is empty (the full set of states, where
//!    every word starts, then contains a member);
//! 2. for every member M and letter t, the named member is a subset of
//!    `succ_t(M)`.
//!
//! Why that proves "no orphan of height H at any width": by induction on the
//! width, the set of states reachable after reading any target contains a
//! member. For the empty word it is the full set, which contains every
//! member. If the set S after some word contains member M, then the set after
//! one more letter t is `succ_t(S)`, which contains `succ_t(M)` (successors
//! grow with their argument), which contains a member by 2. Members are
//! non-empty, so no target empties the set: every target has a parent.
//!
//! Format (text): a first line `lifesearch-orphan-width-certificate/1`, then
//! `rule R`, `height H`, `members N`, then N lines each holding one member as
//! hex digits (digit i from the left holds states 4i..4i+3, lowest bit first;
//! state `(a, b)` is number `a * 2^(H+2) + b`, bit y of a column being its
//! cell y) followed by 2^H member indices, one per letter.
//!
//! Book: Part IV, "Orphans of every width" (`book/src/beyond/width.md`).

use crate::error::{Error, Result};
use crate::life::Rule;
use rayon::prelude::*;
use std::path::Path;

/// What a successful check established.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Checked {
    pub rule: String,
    pub height: usize,
    pub members: usize,
}

/// A parsed certificate.
pub struct Certificate {
    pub rule: Rule,
    pub height: usize,
    /// Each member's states as a bitset: state s is bit `s % 64` of word `s / 64`.
    pub members: Vec<Vec<u64>>,
    /// `hints[m][t]`: a member inside the successor of member m under letter t.
    pub hints: Vec<Vec<u32>>,
}

/// The states of a member, in increasing order.
pub fn states(member: &[u64]) -> impl Iterator<Item = usize> + '_ {
    (0..member.len() * 64).filter(move |&s| (member[s / 64] >> (s % 64)) & 1 == 1)
}

// ANCHOR: column
/// The target column that parent columns `a`, `b`, `c` give: cell y of the
/// target sits on cell y+1 of `b`, and its neighbours are cells y..=y+2 of
/// the three columns.
pub(crate) fn target_column(rule: Rule, height: usize, a: usize, b: usize, c: usize) -> usize {
    let bit = |col: usize, y: usize| (col >> y) & 1;
    let mut t = 0;
    for y in 0..height {
        let mut neighbours = 0;
        for dy in 0..3 {
            neighbours += bit(a, y + dy) + bit(c, y + dy);
        }
        neighbours += bit(b, y) + bit(b, y + 2);
        let alive = bit(b, y + 1) == 1;
        if rule.next(alive, neighbours as u32) {
            t |= 1 << y;
        }
    }
    t
}
// ANCHOR_END: column

// ANCHOR: check
/// Check a certificate (see the module documentation for what and why).
pub fn check(cert: &Certificate) -> Result<Checked> {
    let h = cert.height;
    let columns = 1usize << (h + 2);
    let letters = 1usize << h;
    let n = cert.members.len();
    if n == 0 {
        return Err(Error::invalid("the certificate has no member"));
    }
    if let Some(i) = cert.members.iter().position(|m| m.iter().all(|&w| w == 0)) {
        return Err(Error::invalid(format!("member {i} is empty")));
    }
    // The column every triple of parent columns gives, computed once, and
    // from it, for every state (a, b) and letter t, the set of columns c
    // with `(a, b, c)` giving t, as a bitset: the successors of a member are
    // then the union of its states' sets, shifted into row b.
    let row_words = columns.div_ceil(64);
    let mut follow = vec![0u64; columns * columns * letters * row_words];
    for a in 0..columns {
        for b in 0..columns {
            for c in 0..columns {
                let t = target_column(cert.rule, h, a, b, c);
                follow[((a * columns + b) * letters + t) * row_words + c / 64] |= 1 << (c % 64);
            }
        }
    }
    let words = (columns * columns).div_ceil(64);
    let failure = (0..n).into_par_iter().find_map_any(|m| {
        // succ[t]: the states reached from member m under letter t, a bitset.
        let mut succ = vec![vec![0u64; words]; letters];
        for s in states(&cert.members[m]) {
            let b = s % columns;
            for (t, reached) in succ.iter_mut().enumerate() {
                let at = (s * letters + t) * row_words;
                for (k, &cs) in follow[at..at + row_words].iter().enumerate() {
                    // Columns 64k.. after b: states b * columns + 64k + j.
                    let first = b * columns + 64 * k;
                    reached[first / 64] |= cs << (first % 64);
                }
            }
        }
        for (t, reached) in succ.iter().enumerate() {
            let named = cert.hints[m][t] as usize;
            if named >= n {
                return Some(format!("member {m}, letter {t}: names member {named}, but there are {n}"));
            }
            let missing = cert.members[named].iter().zip(reached).position(|(&x, &r)| x & !r != 0);
            if let Some(w) = missing {
                let s = w * 64 + (cert.members[named][w] & !reached[w]).trailing_zeros() as usize;
                return Some(format!(
                    "member {m}, letter {t}: the successor does not contain member {named} (state {s} is missing)"
                ));
            }
        }
        None
    });
    match failure {
        Some(why) => Err(Error::invalid(why)),
        None => Ok(Checked { rule: cert.rule.to_string(), height: h, members: n }),
    }
}
// ANCHOR_END: check

/// Parse a certificate; errors name the line.
pub fn parse(text: &str) -> Result<Certificate> {
    parse_lines(text.lines().map(|l| Ok(l.to_string())))
}

/// Parse a certificate line by line (a file need not fit in memory as text).
pub fn parse_lines(lines: impl Iterator<Item = std::io::Result<String>>) -> Result<Certificate> {
    let mut lines = lines.enumerate();
    let mut next = |what: &str| -> Result<(usize, String)> {
        match lines.next() {
            None => Err(Error::invalid(format!("the certificate ends before its {what}"))),
            Some((i, Err(e))) => Err(Error::invalid(format!("line {}: {e}", i + 1))),
            Some((i, Ok(l))) => Ok((i, l)),
        }
    };
    let at = |i: usize, why: String| Error::invalid(format!("line {}: {why}", i + 1));
    let (i, first) = next("first line")?;
    if first.trim() != "lifesearch-orphan-width-certificate/1" {
        return Err(at(i, format!("expected lifesearch-orphan-width-certificate/1, found '{first}'")));
    }
    let mut field = |name: &str| -> Result<(usize, String)> {
        let (i, l) = next(name)?;
        let v = l.trim().strip_prefix(name).and_then(|v| v.strip_prefix(' '));
        v.map(|v| (i, v.trim().to_string()))
            .ok_or_else(|| at(i, format!("expected '{name} ...', found '{l}'")))
    };
    let (i, rule) = field("rule")?;
    let rule: Rule = rule.parse().map_err(|e| at(i, format!("{e}")))?;
    let (i, height) = field("height")?;
    let height: usize = height.parse().map_err(|_| at(i, format!("height '{height}' is not a number")))?;
    if !(1..=6).contains(&height) {
        return Err(at(i, format!("height {height} is not 1..=6")));
    }
    let (i, count) = field("members")?;
    let count: usize = count.parse().map_err(|_| at(i, format!("member count '{count}' is not a number")))?;
    let states = 1usize << (2 * height + 4);
    let letters = 1usize << height;
    let (mut members, mut hints) = (Vec::with_capacity(count), Vec::with_capacity(count));
    for k in 0..count {
        let (i, l) = next(&format!("member {k}"))?;
        let mut parts = l.split_whitespace();
        let digits = parts.next().unwrap_or("");
        if digits.len() != states / 4 {
            return Err(at(i, format!("a member needs {} hex digits, found {}", states / 4, digits.len())));
        }
        let mut set = vec![0u64; states / 64];
        for (d, ch) in digits.chars().enumerate() {
            let v = ch.to_digit(16).ok_or_else(|| at(i, format!("'{ch}' is not a hex digit")))? as u64;
            set[d * 4 / 64] |= v << (d * 4 % 64);
        }
        let named: Vec<u32> = parts
            .map(|p| p.parse().map_err(|_| at(i, format!("member index '{p}' is not a number"))))
            .collect::<Result<_>>()?;
        if named.len() != letters {
            return Err(at(
                i,
                format!("a member needs {letters} indices (one per letter), found {}", named.len()),
            ));
        }
        members.push(set);
        hints.push(named);
    }
    for (i, l) in lines {
        let l = l.map_err(|e| at(i, e.to_string()))?;
        if !l.trim().is_empty() {
            return Err(at(i, format!("unexpected text after the last member: '{l}'")));
        }
    }
    Ok(Certificate { rule, height, members, hints })
}

/// Read, parse and check a certificate file.
pub fn check_file(path: &Path) -> Result<Checked> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let lines = std::io::BufReader::with_capacity(1 << 20, file).lines();
    let cert = parse_lines(lines).map_err(|e| Error::invalid(format!("{}: {e}", path.display())))?;
    check(&cert).map_err(|e| Error::invalid(format!("{}: certificate rejected: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::width::{WidthOptions, search, write_certificate};

    fn closed(rule: &str, height: usize) -> String {
        let rule: Rule = rule.parse().unwrap();
        let o = WidthOptions {
            rule,
            height,
            max_width: None,
            memory_cap_bytes: 1 << 30,
            time_limit_s: None,
            checkpoint: None,
            progress: false,
            budget: usize::MAX,
        };
        let (r, a, f) = search(&o).unwrap();
        assert!(matches!(r.verdict, crate::automaton::width::Verdict::NoneAtAnyWidth { .. }), "{r:?}");
        let mut out = Vec::new();
        write_certificate(&a, &f, rule, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn life_heights_one_and_two_check() {
        for h in [1, 2] {
            let c = check(&parse(&closed("B3/S23", h)).unwrap()).unwrap();
            assert_eq!(c.height, h);
        }
    }

    #[test]
    fn the_column_matches_the_naive_engine() {
        use crate::life::naive::step;
        use crate::life::{Grid, Topology};
        let h = 3;
        for (a, b, c) in [(0, 0, 0), (7, 5, 31), (21, 10, 13), (31, 31, 31), (1, 2, 4)] {
            let mut g = Grid::new(3, h + 2);
            for (x, col) in [a, b, c].into_iter().enumerate() {
                for y in 0..h + 2 {
                    g.set(x, y, (col >> y) & 1 == 1);
                }
            }
            let next = step(&g, Rule::CONWAY, Topology::Bounded);
            let t: usize = (0..h).map(|y| (next.get(1, y + 1) as usize) << y).sum();
            assert_eq!(target_column(Rule::CONWAY, h, a, b, c), t);
        }
    }

    /// Rewrite the member lines of a certificate.
    fn edit(text: &str, f: impl FnOnce(&mut Vec<String>)) -> String {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut members = lines.split_off(4);
        f(&mut members);
        lines[3] = format!("members {}", members.len());
        lines.extend(members);
        lines.join("\n")
    }

    /// Every member's successors under every letter, by the checker's own
    /// column function.
    fn successors(c: &Certificate, m: usize) -> Vec<Vec<bool>> {
        let columns = 1usize << (c.height + 2);
        let mut succ = vec![vec![false; columns * columns]; 1 << c.height];
        for s in states(&c.members[m]) {
            let (a, b) = (s / columns, s % columns);
            for x in 0..columns {
                succ[target_column(c.rule, c.height, a, b, x)][b * columns + x] = true;
            }
        }
        succ
    }

    #[test]
    fn a_removed_member_is_caught() {
        let good = parse(&closed("B3/S23", 2)).unwrap();
        let n = good.members.len();
        // Remove a member that some successor needs (no other member fits
        // inside it), renumber, and give every hint the best member left:
        // the checker must reject it whichever hint it tries.
        let needed = (1..n)
            .find(|&k| {
                (0..n).filter(|&m| m != k).any(|m| {
                    successors(&good, m).iter().any(|succ| {
                        (0..n).filter(|&j| j != k).all(|j| states(&good.members[j]).any(|s| !succ[s]))
                    })
                })
            })
            .expect("a closed antichain has a member some successor needs");
        let members: Vec<Vec<u64>> =
            (0..n).filter(|&j| j != needed).map(|j| good.members[j].clone()).collect();
        let mut bad = Certificate { rule: good.rule, height: good.height, members, hints: Vec::new() };
        for m in 0..bad.members.len() {
            let succ = successors(&bad, m);
            let hints = succ
                .iter()
                .map(|sc| {
                    (0..bad.members.len()).find(|&j| states(&bad.members[j]).all(|s| sc[s])).unwrap_or(0)
                        as u32
                })
                .collect();
            bad.hints.push(hints);
        }
        let err = check(&bad).unwrap_err().to_string();
        assert!(err.contains("does not contain"), "{err}");
        // Unchanged, it passes.
        check(&good).unwrap();
    }

    #[test]
    fn a_broken_successor_is_caught() {
        let good = closed("B3/S23", 2);
        let cert = parse(&good).unwrap();
        let n = cert.members.len();
        // Name, for some member and letter, a member its successor does not
        // contain (there is one: the full set, member 0, is in no successor
        // of a smaller set), and change the text of that line.
        let (m, t) = (1..n)
            .flat_map(|m| (0..1usize << cert.height).map(move |t| (m, t)))
            .find(|&(m, t)| states(&cert.members[0]).any(|s| !successors(&cert, m)[t][s]))
            .expect("some successor is not the full set");
        let bad = edit(&good, |lines| {
            let mut parts: Vec<String> = lines[m].split_whitespace().map(String::from).collect();
            parts[1 + t] = "0".to_string();
            lines[m] = parts.join(" ");
        });
        let err = check(&parse(&bad).unwrap()).unwrap_err().to_string();
        assert!(err.contains(&format!("member {m}, letter {t}")), "{err}");
    }

    #[test]
    fn an_empty_member_is_caught() {
        let good = closed("B3/S23", 1);
        let bad = edit(&good, |lines| {
            let mut parts: Vec<String> = lines[1].split_whitespace().map(String::from).collect();
            parts[0] = "0".repeat(parts[0].len());
            lines[1] = parts.join(" ");
        });
        let err = check(&parse(&bad).unwrap()).unwrap_err().to_string();
        assert!(err.contains("empty"), "{err}");
    }

    #[test]
    fn a_bad_file_names_its_line() {
        let good = closed("B3/S23", 1);
        let bad = edit(&good, |lines| lines[0].push_str(" x"));
        let err = parse(&bad).err().unwrap().to_string();
        assert!(err.contains("line 5"), "{err}");
    }
}
