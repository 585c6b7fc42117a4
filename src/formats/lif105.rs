//! Life 1.05, WinLife's `.LIF` format (and Xlife's `.life`), exactly as the
//! WinLife manual describes it:
//!
//! * the first line is `#Life 1.05`; a lower version is fine, a higher one
//!   "means that something may be outside these specifications" (a warning);
//! * up to 22 description lines `#D text`, each at most 78 characters, leading
//!   and trailing spaces ignored (Xlife writes `#C` for the same thing);
//! * an optional rule: `#N` for Conway's rules, or `#R S/B` in survival/birth
//!   digits (`#R 125/36`), the digit 9 prohibited;
//! * cell blocks: `#P x y`, the upper-left corner relative to the centre 0 0,
//!   then rows of `.` and `*`, each 1 to 80 characters, dots after the last
//!   `*` left out, a blank row written as a single `.`;
//! * empty lines are ignored; lines end in CR LF (MS-DOS) or LF.
//!
//! LifeWiki's files carry the pattern's name and author as `#D Name: ...` and
//! `#D Author: ...`; we read and write those two the same way.
//!
//! Book: Part III, "The Life 1.05 format" (`book/src/winlife/life105.md`).

use super::canvas::Canvas;
use super::{Pattern, Warnings, numbered_lines, one_line};
use crate::error::{Error, Location, Result};
use crate::life::rule::Rule;

/// At most this many `#D` lines ...
pub const MAX_DESCRIPTIONS: usize = 22;
/// ... of at most this many characters.
pub const MAX_DESCRIPTION_CHARS: usize = 78;
/// A cell row holds 1 to 80 characters.
pub const MAX_ROW: usize = 80;

// ANCHOR: lif105_read
/// Read a Life 1.05 file. `xlife` (a `.life` file) makes the `#Life` header optional.
pub fn read(loc: &Location, text: &str, xlife: bool, warn: &mut Warnings) -> Result<Pattern> {
    let mut canvas = Canvas::default();
    let (mut name, mut author, mut rule) = (None, None, None);
    let mut comments = Vec::new();
    let mut descriptions = 0;
    let mut first = true;
    // The current block: its upper-left corner and the next row's index.
    let mut block: Option<(i64, i64, i64)> = None;
    for (n, raw) in numbered_lines(text) {
        let here = loc.at(n);
        let line = raw.trim_end();
        if line.is_empty() {
            continue; // "Any line of zero length ... is completely ignored."
        }
        if std::mem::take(&mut first) {
            if let Some(version) = line.strip_prefix("#Life") {
                check_version(&here, version.trim(), warn)?;
                continue;
            }
            let known = ["#D", "#C", "#N", "#R", "#P"].iter().any(|d| line.starts_with(d));
            if line.starts_with('#') && !known {
                return Err(Error::parse(&here, format!("expected the header '#Life 1.05', found '{line}'")));
            }
            if !xlife {
                warn.push(&here, "no '#Life 1.05' header; reading the file as Life 1.05");
            }
        }
        if let Some(rest) = line.strip_prefix("#D").or_else(|| line.strip_prefix("#C")) {
            let text = rest.trim();
            descriptions += 1;
            if descriptions == MAX_DESCRIPTIONS + 1 {
                warn.push(&here, format!("more than {MAX_DESCRIPTIONS} description lines"));
            }
            let len = text.chars().count();
            if len > MAX_DESCRIPTION_CHARS {
                warn.push(
                    &here,
                    format!("description of {len} characters (at most {MAX_DESCRIPTION_CHARS})"),
                );
            }
            if let (None, Some(v)) = (&name, text.strip_prefix("Name:")) {
                name = Some(v.trim().to_string());
            } else if let (None, Some(v)) = (&author, text.strip_prefix("Author:")) {
                author = Some(v.trim().to_string());
            } else {
                comments.push(text.to_string());
            }
        } else if let Some(rest) = line.strip_prefix("#N") {
            // "#N is exactly the same as #R 23/3". Xlife and Golly put a name here.
            set_rule(&here, &mut rule, Rule::CONWAY, warn);
            if !rest.trim().is_empty() && name.is_none() {
                name = Some(rest.trim().to_string());
            }
        } else if let Some(rest) = line.strip_prefix("#R") {
            let r = parse_rule(&here, rest.trim())?;
            set_rule(&here, &mut rule, r, warn);
        } else if let Some(rest) = line.strip_prefix("#P") {
            // A bare '#P' stands in some of Golly's own sample files
            // (Methuselahs/acorn.lif), which Golly reads: the block goes at 0 0.
            let (x, y) = if rest.trim().is_empty() {
                warn.push(&here, "'#P' without coordinates; placing the block at 0 0");
                (0, 0)
            } else {
                parse_corner(&here, rest)?
            };
            block = Some((x, y, 0));
        } else if line.starts_with('#') {
            warn.push(&here, format!("unknown line '{line}' ignored"));
        } else {
            let (x, y, row) = block.get_or_insert_with(|| {
                if !xlife {
                    warn.push(&here, "cell rows before any '#P' line; placing them at 0 0");
                }
                (0, 0, 0)
            });
            let yy = y.checked_add(*row).ok_or_else(|| Error::parse(&here, "row lies beyond the plane"))?;
            read_row(&here, line, *x, yy, &mut canvas)?;
            *row += 1;
        }
    }
    if first && !xlife {
        return Err(Error::parse(&loc.at(1), "empty file: expected the header '#Life 1.05'"));
    }
    let mut p = canvas.into_pattern()?;
    (p.rule, p.name, p.author, p.comments) = (rule, name, author, comments);
    Ok(p)
}
// ANCHOR_END: lif105_read

/// `1.05` or lower is ours; higher may hold things we do not know.
fn check_version(loc: &Location, version: &str, warn: &mut Warnings) -> Result<()> {
    let parsed = version.split_once('.').and_then(|(a, b)| {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        (digits(a) && digits(b)).then(|| (a.parse::<u64>().ok(), format!("0.{b}").parse::<f64>().ok()))
    });
    match parsed {
        Some((Some(major), Some(minor))) => {
            if (major, minor) > (1, 0.05) {
                warn.push(loc, format!("version {version} is newer than 1.05; something may be unsupported"));
            }
            Ok(())
        }
        _ => Err(Error::parse(loc, format!("bad version '{version}' in the header, expected '#Life 1.05'"))),
    }
}

fn set_rule(loc: &Location, slot: &mut Option<Rule>, r: Rule, warn: &mut Warnings) {
    if slot.replace(r).is_some_and(|old| old != r) {
        warn.push(loc, "a second, different rule line; the last one counts");
    }
}

/// `S/B` digit lists, e.g. `125/36`; 9 is prohibited in both.
fn parse_rule(loc: &Location, s: &str) -> Result<Rule> {
    if s.is_empty() {
        return Err(Error::parse(loc, "'#R' without a rule (expected survival/birth, e.g. #R 23/3)"));
    }
    if s.contains('9') {
        return Err(Error::parse(loc, format!("rule '{s}': the digit 9 is prohibited")));
    }
    s.parse::<Rule>().map_err(|e| Error::parse(loc, e.to_string()))
}

fn parse_corner(loc: &Location, rest: &str) -> Result<(i64, i64)> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let bad = || {
        Error::parse(loc, format!("'#P' needs the coordinates x y of the block's corner, found '#P{rest}'"))
    };
    if words.len() != 2 || !rest.starts_with(char::is_whitespace) {
        return Err(bad());
    }
    Ok((words[0].parse().map_err(|_| bad())?, words[1].parse().map_err(|_| bad())?))
}

fn read_row(loc: &Location, line: &str, x0: i64, y: i64, canvas: &mut Canvas) -> Result<()> {
    let len = line.chars().count();
    if len > MAX_ROW {
        return Err(Error::parse(loc, format!("row of {len} characters; Life 1.05 allows 1 to {MAX_ROW}")));
    }
    let mut start = None;
    for (i, c) in line.chars().chain(std::iter::once('.')).enumerate() {
        match (c, start) {
            ('*', None) => start = Some(i),
            ('*', Some(_)) => {}
            ('.', Some(s)) => {
                let x =
                    x0.checked_add(s as i64).ok_or_else(|| Error::parse(loc, "row lies beyond the plane"))?;
                canvas.run(loc, x, y, (i - s) as u64)?;
                start = None;
            }
            ('.', None) => {}
            _ => {
                return Err(Error::parse(
                    loc,
                    format!("unexpected character '{}' in a cell row", c.escape_debug()),
                ));
            }
        }
    }
    Ok(())
}

// ANCHOR: lif105_write
/// Write Life 1.05 that WinLife reads: CR LF line ends, at most 22 description
/// lines of at most 78 characters (longer ones are wrapped, extra ones dropped,
/// with a warning), and the cells in `#P` blocks no wider than 80 columns.
pub fn write(p: &Pattern, warnings: &mut Vec<String>) -> String {
    let mut out = vec!["#Life 1.05".to_string()];
    let mut lines = Vec::new();
    lines.extend(p.name.iter().map(|n| format!("Name: {}", one_line(n))));
    lines.extend(p.author.iter().map(|a| format!("Author: {}", one_line(a))));
    lines.extend(p.comments.iter().map(|c| one_line(c)));
    let mut descriptions: Vec<String> = lines.iter().flat_map(|l| wrap(l, MAX_DESCRIPTION_CHARS)).collect();
    if descriptions.len() > lines.len() {
        warnings.push(format!("Life 1.05: description lines wrapped at {MAX_DESCRIPTION_CHARS} characters"));
    }
    if descriptions.len() > MAX_DESCRIPTIONS {
        let dropped = descriptions.len() - MAX_DESCRIPTIONS;
        warnings.push(format!("Life 1.05: {dropped} description lines dropped (at most {MAX_DESCRIPTIONS})"));
        descriptions.truncate(MAX_DESCRIPTIONS);
    }
    out.extend(descriptions.iter().map(|d| if d.is_empty() { "#D".into() } else { format!("#D {d}") }));
    match p.rule {
        None => {}
        Some(Rule::CONWAY) => out.push("#N".into()),
        Some(r) => out.push(format!("#R {}", r.to_sb())),
    }
    for (x, y, rows) in blocks(p) {
        out.push(format!("#P {} {}", p.origin.0 + x as i64, p.origin.1 + y as i64));
        out.extend(rows);
    }
    let mut s = out.join("\r\n");
    s.push_str("\r\n");
    s
}
// ANCHOR_END: lif105_write

/// Break a description into pieces of at most `max` characters, at spaces where possible.
fn wrap(line: &str, max: usize) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut rest: Vec<char> = line.chars().collect();
    while rest.len() > max {
        let cut = rest[..=max].iter().rposition(|&c| c == ' ').filter(|&i| i > 0).unwrap_or(max);
        pieces.push(rest[..cut].iter().collect::<String>().trim().to_string());
        rest = rest[cut..].iter().collect::<String>().trim_start().chars().collect();
    }
    pieces.push(rest.into_iter().collect());
    pieces
}

/// A run of this many blank rows inside a strip starts a new block instead.
const BLOCK_GAP: usize = 3;

/// The cells as blocks (corner x, corner y relative to the grid, rows): the
/// grid is cut into strips 80 columns wide, and each strip into blocks that
/// skip long runs of blank rows; each block starts at its first live column.
fn blocks(p: &Pattern) -> Vec<(usize, usize, Vec<String>)> {
    let g = &p.grid;
    let mut out = Vec::new();
    for x0 in (0..g.width()).step_by(MAX_ROW) {
        let x1 = (x0 + MAX_ROW).min(g.width());
        let live_in = |y: usize| (x0..x1).filter(move |&x| g.get(x, y));
        let mut y = 0;
        while y < g.height() {
            if live_in(y).next().is_none() {
                y += 1;
                continue;
            }
            // A block from row y to the last live row before a gap of BLOCK_GAP blank rows.
            let (mut end, mut blank) = (y, 0);
            let mut yy = y;
            while yy < g.height() && blank < BLOCK_GAP {
                if live_in(yy).next().is_some() {
                    end = yy;
                    blank = 0;
                } else {
                    blank += 1;
                }
                yy += 1;
            }
            let left = (y..=end).filter_map(|r| live_in(r).next()).min().unwrap_or(x0);
            let rows = (y..=end)
                .map(|r| match live_in(r).next_back() {
                    None => ".".to_string(),
                    Some(last) => (left..=last).map(|x| if g.get(x, r) { '*' } else { '.' }).collect(),
                })
                .collect();
            out.push((left, y, rows));
            y = end + 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_and_keeps_every_word() {
        let line = "alpha beta gamma ".repeat(10);
        let pieces = wrap(line.trim(), 20);
        assert!(pieces.iter().all(|p| p.chars().count() <= 20 && !p.is_empty()));
        assert_eq!(pieces.join(" "), line.trim());
        assert_eq!(wrap(&"x".repeat(45), 20), ["x".repeat(20), "x".repeat(20), "x".repeat(5)]);
        assert_eq!(wrap("", 78), [""]);
    }

    #[test]
    fn long_gaps_start_new_blocks_and_short_ones_do_not() {
        let mut grid = crate::life::Grid::new(3, 12);
        for y in [0, 2, 7] {
            grid.set(1, y, true);
        }
        let p = Pattern { grid, origin: (10, 20), ..Pattern::default() };
        let b = blocks(&p);
        assert_eq!(b, [(1, 0, vec!["*".to_string(), ".".into(), "*".into()]), (1, 7, vec!["*".to_string()])]);
        let text = write(&p, &mut Vec::new());
        assert!(text.contains("#P 11 20\r\n*\r\n.\r\n*\r\n#P 11 27\r\n*\r\n"), "{text}");
    }
}
