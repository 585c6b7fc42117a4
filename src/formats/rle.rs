//! Run-length encoded patterns, as Golly writes them:
//!
//! ```text
//! #N Glider
//! #O Richard K. Guy
//! #C The smallest spaceship.
//! #CXRLE Pos=-1,-1
//! x = 3, y = 3, rule = B3/S23
//! bo$2bo$3o!
//! ```
//!
//! `#N` names the pattern, `#O` its author, `#C` lines are comments, and
//! Golly's extended `#CXRLE Pos=x,y` places the top-left corner. The header
//! gives the width, height and rule; then runs `<count><tag>` with `b` dead,
//! `o` alive and `$` ending a row, a missing count meaning 1, trailing dead
//! cells of a row left out, and `!` ending the pattern. Lines are at most 70
//! characters long.
//!
//! Book: Part III, "The Life 1.05 format", section "RLE" (`book/src/winlife/life105.md`).

use super::canvas::Canvas;
use super::{Pattern, Warnings, numbered_lines, one_line};
use crate::error::{Error, Location, Result};
use crate::life::grid::MAX_SIDE;
use crate::life::rule::Rule;

/// Golly's longest RLE line.
pub const LINE_WIDTH: usize = 70;

/// Whether a line is an RLE header `x = ..., y = ...`.
pub fn is_header(line: &str) -> bool {
    let l = line.trim_start();
    l.strip_prefix('x').is_some_and(|r| r.trim_start().starts_with('='))
}

/// What the reader found, before the cells become a grid or a tree.
struct Parsed {
    canvas: Canvas,
    width: u64,
    height: u64,
    rule: Option<Rule>,
    pos: (i64, i64),
    name: Option<String>,
    author: Option<String>,
    comments: Vec<String>,
}

/// An RLE pattern too wide for a dense grid, as live runs for HashLife.
#[derive(Debug)]
pub struct WideRle {
    /// Live runs (x, y, length), `#CXRLE Pos` applied.
    pub runs: Vec<(i64, i64, u64)>,
    pub rule: Option<Rule>,
    pub comments: Vec<String>,
}

/// Whether the header of an RLE text states a box too large for a dense
/// grid (`x = 210515, y = 183739` in Golly's switch-engine ping-pong).
pub fn too_wide_for_a_grid(text: &str) -> bool {
    let Some(line) = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#')) else {
        return false;
    };
    let mut w = Warnings::default();
    let wide = parse_header(&Location::new("", None), line, &mut w, super::canvas::WIDE_SIDE);
    match wide {
        Ok((w, h, _)) => {
            w > MAX_SIDE as u64 || h > MAX_SIDE as u64 || w.saturating_mul(h) > super::canvas::MAX_AREA
        }
        Err(_) => false,
    }
}

/// Read an RLE file whose box may be far larger than a dense grid (its
/// live cells may not be: at most [`super::canvas::WIDE_LIVE`]).
pub fn read_wide(loc: &Location, text: &str, warn: &mut Warnings) -> Result<WideRle> {
    let p = parse(loc, text, warn, Canvas::wide())?;
    let pos = p.pos;
    let runs = p.canvas.into_runs();
    // Far from i64's ends, so that growth and HashLife's i128 arithmetic have room.
    let shift = |v: i64, by: i64| v.checked_add(by).filter(|w| w.unsigned_abs() < 1 << 60);
    let moved = runs
        .into_iter()
        .map(|(x, y, len)| match (shift(x, pos.0), shift(y, pos.1)) {
            (Some(x), Some(y)) => Ok((x, y, len)),
            _ => Err(Error::parse(loc, "the position in '#CXRLE Pos=' puts the pattern beyond the plane")),
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(WideRle { runs: moved, rule: p.rule, comments: p.comments })
}

// ANCHOR: rle_read
/// Read an RLE file.
pub fn read(loc: &Location, text: &str, warn: &mut Warnings) -> Result<Pattern> {
    let Parsed { canvas, width: w, height: h, rule, pos, name, author, comments } =
        parse(loc, text, warn, Canvas::default())?;
    let mut p = canvas.into_pattern()?;
    if p.grid.width() as u64 > w || p.grid.height() as u64 > h {
        warn.push(loc, format!("the cells do not fit the header's x = {w}, y = {h}"));
    }
    // The corner moves by Pos; the far corner must stay in the plane too.
    let shift =
        |o: i64, size: usize, by: i64| o.checked_add(by).filter(|v| v.checked_add(size as i64).is_some());
    match (shift(p.origin.0, p.grid.width(), pos.0), shift(p.origin.1, p.grid.height(), pos.1)) {
        (Some(x), Some(y)) => p.origin = (x, y),
        _ => {
            return Err(Error::parse(loc, "the position in '#CXRLE Pos=' puts the pattern beyond the plane"));
        }
    }
    (p.rule, p.name, p.author, p.comments) = (rule, name, author, comments);
    Ok(p)
}

/// The reading proper: header, comments and runs onto `canvas`, whose limits apply.
fn parse(loc: &Location, text: &str, warn: &mut Warnings, mut canvas: Canvas) -> Result<Parsed> {
    let side = canvas.max_side();
    let (mut name, mut author, mut comments, mut pos) = (None, None, Vec::new(), (0i64, 0i64));
    let mut header: Option<(u64, u64, Option<Rule>)> = None;
    // The reading position in the body, and whether `!` was seen.
    let (mut x, mut y, mut done) = (0u64, 0u64, false);
    // A run count waiting for its tag (writers may break a line between them).
    let mut count: Option<u64> = None;
    let mut last_line = 1;
    for (n, raw) in numbered_lines(text) {
        let here = loc.at(n);
        let line = raw.trim();
        last_line = n;
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('#') {
            if let Some(v) = rest.strip_prefix("CXRLE") {
                pos = parse_cxrle(&here, v, pos)?;
            } else if let Some(v) = rest.strip_prefix(['C', 'c']) {
                comments.push(v.trim().to_string());
            } else if let Some(v) = rest.strip_prefix('N') {
                name = Some(v.trim().to_string());
            } else if let Some(v) = rest.strip_prefix('O') {
                author = Some(v.trim().to_string());
            } else {
                warn.push(&here, format!("unknown line '{line}' ignored"));
            }
            continue;
        }
        if header.is_none() {
            let (w, h, r) = parse_header(&here, line, warn, side)?;
            if w > 0 && h > 0 {
                canvas.include(&here, 0, 0)?;
                canvas.include(&here, w as i64 - 1, h as i64 - 1)?;
            }
            header = Some((w, h, r));
            continue;
        }
        for c in line.chars() {
            match c {
                '0'..='9' => {
                    let d = c as u64 - '0' as u64;
                    let v = count.unwrap_or(0).checked_mul(10).and_then(|v| v.checked_add(d));
                    count = Some(v.filter(|&v| v <= side).ok_or_else(|| {
                        Error::parse(&here, format!("run count larger than {side}, the widest pattern"))
                    })?);
                }
                _ if c.is_whitespace() => {}
                'b' | '.' | 'o' | 'A' | '$' => {
                    let k = match count.take() {
                        Some(0) => return Err(Error::parse(&here, "run count 0")),
                        Some(k) => k,
                        None => 1,
                    };
                    if c == '$' {
                        (x, y) = (0, y + k);
                    } else {
                        if c == 'o' || c == 'A' {
                            canvas.run(&here, x as i64, y as i64, k)?;
                        }
                        x += k;
                    }
                    if x > side || y > side {
                        return Err(Error::parse(
                            &here,
                            format!("pattern wider or taller than {side} cells"),
                        ));
                    }
                }
                '!' => {
                    done = true;
                    break;
                }
                _ => {
                    return Err(Error::parse(
                        &here,
                        format!("unexpected character '{}' in RLE", c.escape_debug()),
                    ));
                }
            }
        }
        if done {
            break;
        }
    }
    let Some((w, h, rule)) = header else {
        return Err(Error::parse(&loc.at(last_line), "no RLE header 'x = ..., y = ...' found"));
    };
    if !done {
        warn.push(&loc.at(last_line), "the pattern does not end with '!'");
    }
    Ok(Parsed { canvas, width: w, height: h, rule, pos, name, author, comments })
}
// ANCHOR_END: rle_read

/// `x = 3, y = 3, rule = B3/S23`: width, height and (optionally) the rule.
fn parse_header(
    loc: &Location,
    line: &str,
    warn: &mut Warnings,
    side: u64,
) -> Result<(u64, u64, Option<Rule>)> {
    if !is_header(line) {
        return Err(Error::parse(loc, format!("expected the RLE header 'x = ..., y = ...', found '{line}'")));
    }
    let (mut w, mut h, mut rule) = (None, None, None);
    // The rule comes last and may itself hold a comma (`B3/S23:T200,200`).
    let (sizes, rule_part) = match line.find("rule") {
        Some(i) => (&line[..i], Some(&line[i..])),
        None => (line, None),
    };
    for part in sizes.split(',').filter(|p| !p.trim().is_empty()).chain(rule_part) {
        let Some((key, value)) = part.split_once('=') else {
            return Err(Error::parse(
                loc,
                format!("expected 'key = value' in the header, found '{}'", part.trim()),
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        let size = || {
            value.parse::<u64>().ok().filter(|&v| v <= side).ok_or_else(|| {
                Error::parse(loc, format!("{key} = {value}: expected a size of at most {side}"))
            })
        };
        match key {
            "x" => w = Some(size()?),
            "y" => h = Some(size()?),
            "rule" => rule = Some(parse_rule(loc, value, warn)?),
            _ => warn.push(loc, format!("unknown header item '{key}' ignored")),
        }
    }
    match (w, h) {
        (Some(w), Some(h)) => Ok((w, h, rule)),
        _ => Err(Error::parse(loc, "the RLE header needs both x and y")),
    }
}

/// Golly's rule strings: `B3/S23`, `23/3`, or the names `Life` and `HighLife`;
/// a bounded-grid suffix like `:T200,200` is dropped with a warning.
fn parse_rule(loc: &Location, value: &str, warn: &mut Warnings) -> Result<Rule> {
    let (rule, suffix) = value.split_once(':').unwrap_or((value, ""));
    if !suffix.is_empty() {
        warn.push(loc, format!("grid suffix ':{suffix}' of the rule ignored"));
    }
    match rule.trim().to_ascii_lowercase().as_str() {
        "life" | "conway" => Ok(Rule::CONWAY),
        "highlife" => Ok(Rule::HILIFE),
        r => r.parse::<Rule>().map_err(|e| Error::parse(loc, e.to_string())),
    }
}

/// `#CXRLE Pos=x,y Gen=g`: only the position matters here.
fn parse_cxrle(loc: &Location, rest: &str, pos: (i64, i64)) -> Result<(i64, i64)> {
    for word in rest.split_whitespace() {
        if let Some(v) = word.strip_prefix("Pos=") {
            let xy = v.split_once(',').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)));
            return xy.ok_or_else(|| Error::parse(loc, format!("bad position '{v}' (expected Pos=x,y)")));
        }
    }
    Ok(pos)
}

// ANCHOR: rle_write
/// Write RLE as Golly does: comments, position, header, then runs in lines of
/// at most 70 characters, trailing dead cells and empty trailing rows left out.
pub fn write(p: &Pattern) -> String {
    let mut s = String::new();
    if let Some(n) = &p.name {
        s.push_str(&format!("#N {}\n", one_line(n)));
    }
    if let Some(a) = &p.author {
        s.push_str(&format!("#O {}\n", one_line(a)));
    }
    for c in &p.comments {
        let c = one_line(c);
        s.push_str(if c.is_empty() { "#C\n".into() } else { format!("#C {c}\n") }.as_str());
    }
    if p.origin != (0, 0) {
        s.push_str(&format!("#CXRLE Pos={},{}\n", p.origin.0, p.origin.1));
    }
    let (w, h) = (p.grid.width(), p.grid.height());
    match p.rule {
        Some(r) => s.push_str(&format!("x = {w}, y = {h}, rule = {r}\n")),
        None => s.push_str(&format!("x = {w}, y = {h}\n")),
    }
    let mut tokens = Vec::new();
    let token = |n: usize, tag: char| if n == 1 { tag.to_string() } else { format!("{n}{tag}") };
    let mut newlines = 0;
    for y in 0..h {
        if y > 0 {
            newlines += 1;
        }
        let mut x = 0;
        while x < w {
            let alive = p.grid.get(x, y);
            let run = (x..w).take_while(|&i| p.grid.get(i, y) == alive).count();
            if !alive && x + run == w {
                break; // trailing dead cells are left out
            }
            if newlines > 0 {
                tokens.push(token(newlines, '$'));
                newlines = 0;
            }
            tokens.push(token(run, if alive { 'o' } else { 'b' }));
            x += run;
        }
    }
    tokens.push("!".into());
    let mut line = String::new();
    for t in tokens {
        if line.len() + t.len() > LINE_WIDTH {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        line.push_str(&t);
    }
    s.push_str(&line);
    s.push('\n');
    s
}
// ANCHOR_END: rle_write
