//! The checker of a lookahead proof set ([`super::lookahead`]), written to
//! be read and to share no code with the fixpoint that wrote it. It uses
//! only the column function of the family checker ([`super::certificate`]),
//! which is itself checked against the naive Life engine.
//!
//! States and letters are those of the family checker: a state is a pair
//! `(a, b)` of parent columns of H+2 cells, and reading target column `t`
//! moves `(a, b)` to `(b, c)` when the rule gives `t` on the middle H cells
//! of `b`. A *window* is a word of K letters; a proof set P says, for every
//! window u, which states are members with u ahead of them. The checker
//! verifies that
//!
//! 1. every window has a member;
//! 2. every member (q, u) *returns within D*: for every word x of D
//!    letters, some path from q reading the first d letters of `u x`
//!    (1 <= d <= D) ends in a state q' such that (q', the K letters of `u x`
//!    after those d) is a member.
//!
//! Why that proves "no orphan of height H at any width": take any target
//! word w, and extend it by K + D arbitrary letters to w'. A path from any
//! state (all may start) reading a prefix of w' of length i, ending in a
//! state q with (q, w'[i..i+K]) a member, can be continued by 2 to a longer
//! such path, with the D letters after the window taken from w' (or, near
//! the end, arbitrary). Starting from i = 0 with a member of window
//! w'[0..K] (1), the path grows until it has read all of w: w has a parent.
//!
//! Format (text): a first line `lifesearch-orphan-width-lookahead/1`, then
//! `rule R`, `height H`, `lookahead K`, `depth D`, then one line for each
//! window u = 0, 1, ..., 2^(HK) - 1 (the window's first letter is its most
//! significant digit in base 2^H): the members as hex digits, digit i
//! holding states 4i..4i+3, lowest bit first, state `(a, b)` being number
//! `a * 2^(H+2) + b`.
//!
//! Book: Part IV, "Orphans of every width" (`book/src/beyond/width.md`).

use super::certificate::{Checked, target_column};
use crate::error::{Error, Result};
use crate::life::Rule;
use rayon::prelude::*;
use std::path::Path;

/// The first line of a proof-set file.
pub const MAGIC: &str = "lifesearch-orphan-width-lookahead/1";

/// A parsed proof set.
pub struct LookaheadProof {
    pub rule: Rule,
    pub height: usize,
    pub lookahead: usize,
    pub depth: usize,
    /// `windows[u][s]`: is state s a member with window u ahead?
    pub windows: Vec<Vec<bool>>,
}

// ANCHOR: lookahead_check
/// Check a proof set (see the module documentation for what and why).
pub fn check(p: &LookaheadProof) -> Result<Checked> {
    let columns = 1usize << (p.height + 2);
    let letters = 1usize << p.height;
    // moves[s][t]: the states that state s moves to under letter t.
    let moves: Vec<Vec<Vec<usize>>> = (0..columns * columns)
        .map(|s| {
            let (a, b) = (s / columns, s % columns);
            let mut m = vec![Vec::new(); letters];
            for c in 0..columns {
                m[target_column(p.rule, p.height, a, b, c)].push(b * columns + c);
            }
            m
        })
        .collect();
    if let Some(u) = p.windows.iter().position(|w| !w.contains(&true)) {
        return Err(Error::invalid(format!("window {u} has no member")));
    }
    let failure = (0..p.windows.len()).into_par_iter().find_map_any(|u| {
        let states = (0..columns * columns).filter(|&s| p.windows[u][s]);
        states
            .into_iter()
            .find(|&q| !returns(p, &moves, &[q], u, 1))
            .map(|q| format!("the member (state {q}, window {u}) does not return within {} columns", p.depth))
    });
    let members = p.windows.iter().map(|w| w.iter().filter(|&&m| m).count()).sum();
    match failure {
        Some(why) => Err(Error::invalid(why)),
        None => Ok(Checked { rule: p.rule.to_string(), height: p.height, members }),
    }
}

/// From the states `from`, with window u ahead, about to read column number
/// `step` since the member: does every continuation meet a member within
/// the depth?
fn returns(p: &LookaheadProof, moves: &[Vec<Vec<usize>>], from: &[usize], u: usize, step: usize) -> bool {
    let letters = 1usize << p.height;
    let first = u / letters.pow(p.lookahead as u32 - 1);
    let mut reached: Vec<usize> = from.iter().flat_map(|&s| moves[s][first].iter().copied()).collect();
    reached.sort_unstable();
    reached.dedup();
    if reached.is_empty() {
        return false;
    }
    (0..letters).all(|x| {
        let v = (u % letters.pow(p.lookahead as u32 - 1)) * letters + x;
        reached.iter().any(|&s| p.windows[v][s])
            || (step < p.depth && returns(p, moves, &reached, v, step + 1))
    })
}
// ANCHOR_END: lookahead_check

/// Parse a proof set; errors name the line.
pub fn parse_lines(lines: impl Iterator<Item = std::io::Result<String>>) -> Result<LookaheadProof> {
    let mut lines = lines.enumerate();
    let mut next = |what: &str| -> Result<(usize, String)> {
        match lines.next() {
            None => Err(Error::invalid(format!("the proof set ends before its {what}"))),
            Some((i, Err(e))) => Err(Error::invalid(format!("line {}: {e}", i + 1))),
            Some((i, Ok(l))) => Ok((i, l)),
        }
    };
    let at = |i: usize, why: String| Error::invalid(format!("line {}: {why}", i + 1));
    let (i, first) = next("first line")?;
    if first.trim() != MAGIC {
        return Err(at(i, format!("expected {MAGIC}, found '{first}'")));
    }
    let (i, rule_line) = next("rule")?;
    let rule = rule_line
        .trim()
        .strip_prefix("rule ")
        .ok_or_else(|| at(i, format!("expected 'rule ...', found '{rule_line}'")))?;
    let rule: Rule = rule.trim().parse().map_err(|e| at(i, format!("{e}")))?;
    let mut number = |name: &str, range: std::ops::RangeInclusive<usize>| -> Result<usize> {
        let (i, l) = next(name)?;
        let v = l.trim().strip_prefix(name).and_then(|v| v.strip_prefix(' ')).map(str::trim);
        let v = v.ok_or_else(|| at(i, format!("expected '{name} ...', found '{l}'")))?;
        let n: usize = v.parse().map_err(|_| at(i, format!("{name} '{v}' is not a number")))?;
        if !range.contains(&n) {
            return Err(at(i, format!("{name} {n} is not in {range:?}")));
        }
        Ok(n)
    };
    let height = number("height", 1..=4)?;
    let lookahead = number("lookahead", 1..=24 / height)?;
    let depth = number("depth", 1..=64)?;
    let states = 1usize << (2 * height + 4);
    let count = 1usize << (height * lookahead);
    let mut windows = Vec::with_capacity(count);
    for u in 0..count {
        let (i, l) = next(&format!("window {u}"))?;
        let digits = l.trim();
        if digits.len() != states / 4 {
            return Err(at(i, format!("a window needs {} hex digits, found {}", states / 4, digits.len())));
        }
        let mut w = vec![false; states];
        for (d, ch) in digits.chars().enumerate() {
            let v = ch.to_digit(16).ok_or_else(|| at(i, format!("'{ch}' is not a hex digit")))?;
            for bit in 0..4 {
                w[4 * d + bit] = (v >> bit) & 1 == 1;
            }
        }
        windows.push(w);
    }
    if let Some((i, Ok(l))) = lines.next() {
        return Err(at(i, format!("unexpected line after the last window: '{l}'")));
    }
    Ok(LookaheadProof { rule, height, lookahead, depth, windows })
}

/// Is this text file a lookahead proof set (rather than a family certificate)?
pub fn is_proof_file(path: &Path) -> Result<bool> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut first = String::new();
    std::io::BufReader::new(file).read_line(&mut first).map_err(|e| Error::io(path, e))?;
    Ok(first.trim() == MAGIC)
}

/// Read and check a proof-set file.
pub fn check_file(path: &Path) -> Result<Checked> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let lines = std::io::BufReader::with_capacity(1 << 20, file).lines();
    let p = parse_lines(lines).map_err(|e| Error::invalid(format!("{}: {e}", path.display())))?;
    check(&p).map_err(|e| Error::invalid(format!("{}: proof set rejected: {e}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::lookahead::{LookaheadOptions, LookaheadVerdict, prove, write_proof};

    fn proof_text(rule: Rule, height: usize, lookahead: usize, depth: usize) -> String {
        let o = LookaheadOptions { rule, height, lookahead, depth, time_limit_s: None, progress: false };
        let (r, p) = prove(&o).unwrap();
        assert_eq!(r.verdict, LookaheadVerdict::NoneAtAnyWidth, "{r:?}");
        let mut out = Vec::new();
        write_proof(&p, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn parse(text: &str) -> Result<LookaheadProof> {
        parse_lines(text.lines().map(|l| Ok(l.to_string())))
    }

    #[test]
    fn written_proofs_check() {
        for (h, k, d) in [(1, 1, 1), (2, 1, 4), (2, 2, 1)] {
            let c = check(&parse(&proof_text(Rule::CONWAY, h, k, d)).unwrap()).unwrap();
            assert_eq!(c.height, h);
        }
    }

    /// The slow twin of `check`: is every member closed, by the definition
    /// (for every continuation x of D letters, some d)? Paths are followed
    /// one state at a time, continuation by continuation.
    fn closed_by_definition(p: &LookaheadProof) -> bool {
        let (columns, letters, k) = (1usize << (p.height + 2), 1usize << p.height, p.lookahead);
        let digits = |u: usize| (0..k).map(move |i| (u / letters.pow((k - 1 - i) as u32)) % letters);
        let window = |w: &[usize]| w.iter().fold(0, |u, &t| u * letters + t);
        (0..p.windows.len()).all(|u| {
            (0..columns * columns).filter(|&q| p.windows[u][q]).all(|q| {
                (0..letters.pow(p.depth as u32)).all(|x| {
                    let word: Vec<usize> = digits(u)
                        .chain((0..p.depth).map(|i| (x / letters.pow(i as u32)) % letters))
                        .collect();
                    let mut at = vec![q];
                    (1..=p.depth).any(|d| {
                        let mut next = Vec::new();
                        for &s in &at {
                            let (a, b) = (s / columns, s % columns);
                            next.extend(
                                (0..columns)
                                    .filter(|&c| target_column(p.rule, p.height, a, b, c) == word[d - 1])
                                    .map(|c| b * columns + c),
                            );
                        }
                        next.sort_unstable();
                        next.dedup();
                        at = next;
                        at.iter().any(|&s| p.windows[window(&word[d..d + k])][s])
                    })
                })
            })
        })
    }

    /// Proof sets with members taken away at random (and random sets): the
    /// checker accepts exactly those the definition accepts, and rejects
    /// some (a check that cannot fail would pass this only by accepting all).
    #[test]
    fn the_checker_agrees_with_the_definition() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_pcg::Pcg64::seed_from_u64(26);
        let (mut accepted, mut rejected) = (0, 0);
        for (rule, h, k, d) in
            [(Rule::CONWAY, 1, 1, 3), (Rule::CONWAY, 1, 2, 2), ("B36/S23".parse().unwrap(), 1, 1, 3)]
        {
            let text = proof_text(rule, h, k, d);
            for round in 0..40 {
                let mut p = parse(&text).unwrap();
                let keep = [1.0, 0.99, 0.95, 0.8][round % 4];
                for w in p.windows.iter_mut() {
                    for m in w.iter_mut().filter(|m| **m) {
                        *m = rng.random_bool(keep);
                    }
                }
                let by_definition = closed_by_definition(&p) && p.windows.iter().all(|w| w.contains(&true));
                assert_eq!(check(&p).is_ok(), by_definition, "{rule} H={h} K={k} D={d}, round {round}");
                if by_definition { accepted += 1 } else { rejected += 1 }
            }
        }
        assert!(accepted > 0 && rejected > 0, "accepted {accepted}, rejected {rejected}");
    }

    #[test]
    fn broken_proofs_fail() {
        let text = proof_text(Rule::CONWAY, 2, 1, 4);
        // A window with no member.
        let mut empty = parse(&text).unwrap();
        empty.windows[1].iter_mut().for_each(|m| *m = false);
        let e = check(&empty).unwrap_err().to_string();
        assert!(e.contains("window 1 has no member"), "{e}");
        // A depth too small: the greatest set closed within one column has
        // an empty window, so no set with every window filled is closed so.
        let mut shallow = parse(&text).unwrap();
        shallow.depth = 1;
        assert!(check(&shallow).unwrap_err().to_string().contains("does not return"));
        // B2/S has an orphan two rows high, so no proof set can pass for it.
        let mut other = parse(&text).unwrap();
        other.rule = "B2/S".parse().unwrap();
        assert!(check(&other).is_err());
    }

    #[test]
    fn malformed_files_name_the_line() {
        let text = proof_text(Rule::CONWAY, 1, 1, 1);
        let e = parse(&text.replacen("height 1", "height x", 1)).err().unwrap().to_string();
        assert!(e.contains("line 3"), "{e}");
        let e = parse(&text.replacen(MAGIC, "nope", 1)).err().unwrap().to_string();
        assert!(e.contains("line 1"), "{e}");
        let short: Vec<&str> = text.lines().take(6).collect();
        let e = parse(&short.join("\n")).err().unwrap().to_string();
        assert!(e.contains("ends before"), "{e}");
    }
}
