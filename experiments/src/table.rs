//! The one renderer of the book's generated tables: Markdown from rows of any
//! serde type and a declared list of columns (a header, the field, a format).
//! The prose around a table lives on its book page, not here.

use anyhow::{Result, anyhow};
use serde::Serialize;
use serde_json::Value;

/// How a cell is shown.
#[derive(Debug, Clone, Copy)]
pub enum Fmt {
    /// As the CSV holds it.
    Text,
    /// In backticks.
    Code,
    /// An integer with thousands separators.
    Int,
    /// A number with this many decimals.
    Fixed(usize),
    /// Two significant digits in scientific notation (`3.1e9`).
    Sci,
    /// Times this factor, with this many decimals (seconds as milliseconds: `Scaled(1e3, 2)`).
    Scaled(f64, usize),
    /// A ratio, `1.5x`.
    Times(usize),
    /// A boolean verdict: the first word for true, the second for false.
    Yes(&'static str, &'static str),
}

/// One column of a table: its header, the row field it shows, how.
#[derive(Debug, Clone, Copy)]
pub struct Col<'a> {
    pub head: &'a str,
    pub field: &'a str,
    pub fmt: Fmt,
}

pub const fn col<'a>(head: &'a str, field: &'a str, fmt: Fmt) -> Col<'a> {
    Col { head, field, fmt }
}

/// Tables longer than this are folded behind a summary line.
const FOLD: usize = 40;

/// A Markdown table of `rows` with these columns (a missing value is `-`);
/// a long one folded into `<details>`.
pub fn markdown<R: Serialize>(cols: &[Col<'_>], rows: &[R]) -> Result<String> {
    if cols.is_empty() {
        return Ok(String::new());
    }
    let mut md = format!("| {} |\n|", cols.iter().map(|c| c.head).collect::<Vec<_>>().join(" | "));
    for c in cols {
        md += if matches!(c.fmt, Fmt::Text | Fmt::Code | Fmt::Yes(..)) { "---|" } else { "---:|" };
    }
    md.push('\n');
    for r in rows {
        let v = serde_json::to_value(r)?;
        let cells = cols
            .iter()
            .map(|c| {
                let x = v.get(c.field).ok_or_else(|| anyhow!("no field '{}' in a row", c.field))?;
                Ok(cell(x, c.fmt))
            })
            .collect::<Result<Vec<_>>>()?;
        md += &format!("| {} |\n", cells.join(" | "));
    }
    if rows.len() > FOLD {
        md = format!("<details><summary>The table: {} rows</summary>\n\n{md}\n</details>\n", rows.len());
    }
    Ok(md)
}

/// One cell.
fn cell(x: &Value, fmt: Fmt) -> String {
    let text = || x.as_str().map_or_else(|| x.to_string(), str::to_string);
    match (fmt, x.as_f64()) {
        _ if x.is_null() => "-".into(),
        (Fmt::Code, _) => format!("`{}`", text()),
        (Fmt::Yes(yes, no), n) => {
            let truthy = x.as_bool().unwrap_or(false) || n.is_some_and(|n| n != 0.0);
            String::from(if truthy { yes } else { no })
        }
        (Fmt::Int, Some(n)) => {
            let n = n.round();
            format!("{}{}", if n < 0.0 { "-" } else { "" }, thousands(n.abs() as u64))
        }
        (Fmt::Fixed(d), Some(n)) => fixed(n, d),
        (Fmt::Scaled(k, d), Some(n)) => fixed(n * k, d),
        (Fmt::Times(d), Some(n)) => format!("{}x", fixed(n, d)),
        (Fmt::Sci, Some(n)) => sci(n),
        _ => text(),
    }
}

/// `x` with `d` decimals, never `-0.0`.
fn fixed(x: f64, d: usize) -> String {
    let s = format!("{x:.d$}");
    if s.starts_with('-') && s[1..].chars().all(|c| c == '0' || c == '.') { s[1..].to_string() } else { s }
}

/// A yes/no cell.
pub fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

/// An integer with thousands separators, as the thesis prints them.
pub fn thousands(n: u64) -> String {
    indicatif::HumanCount(n).to_string()
}

/// A number in scientific notation with two significant digits (e.g. `3.1e9`).
pub fn sci(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let e = x.abs().log10().floor() as i32;
    format!("{:.1}e{e}", x / 10f64.powi(e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct R {
        name: String,
        n: u64,
        ms: f64,
        x: Option<f64>,
    }

    #[test]
    fn formats_and_folds() {
        let cols = [
            col("Name", "name", Fmt::Code),
            col("N", "n", Fmt::Int),
            col("ms", "ms", Fmt::Scaled(1e3, 1)),
            col("x", "x", Fmt::Times(1)),
        ];
        let r = |x| R { name: "a".into(), n: 1234567, ms: -0.00001, x };
        let md = markdown(&cols, &[r(Some(2.0)), r(None)]).unwrap();
        assert_eq!(
            md,
            "| Name | N | ms | x |\n|---|---:|---:|---:|\n| `a` | 1,234,567 | 0.0 | 2.0x |\n| `a` | 1,234,567 | 0.0 | - |\n"
        );
        let long: Vec<R> = (0..=FOLD).map(|_| r(None)).collect();
        assert!(markdown(&cols, &long).unwrap().starts_with("<details><summary>"));
        assert!(markdown(&[col("Y", "nope", Fmt::Text)], &[r(None)]).is_err());
        assert_eq!(thousands(12), "12");
        assert_eq!(sci(31_000.0), "3.1e4");
    }
}
