//! Pattern files: reading and writing the formats people bring from WinLife,
//! Xlife, Golly and LifeWiki, without losing what a format can hold.
//!
//! | format | cells | origin | rule | name, author, comments |
//! |---|---|---|---|---|
//! | Life 1.05 (`lif`) | yes | yes (`#P`) | yes (`#N`, `#R`) | `#D` lines (22 of 78 chars) |
//! | Life 1.06 (`lif106`) | yes | yes | no | no |
//! | plaintext (`cells`) | yes | no | no | `!Name:`, `!Author:`, `!` lines |
//! | RLE (`rle`) | yes | yes (`#CXRLE Pos=`) | yes | `#N`, `#O`, `#C` |
//! | Knuth's rows (`txt`) | yes | no | no | no |
//! | Golly's macrocell (`mc`) | yes | yes (root centred on 0 0) | yes (`#R`) | `#C` lines read, not written |
//!
//! Readers never print: what a reader wants to tell the user (a description
//! line that is too long, a newer version number) comes back as a warning in
//! [`Loaded::warnings`], and the command line prints it on stderr.
//!
//! Book: Part III, "The Life 1.05 format" and its section "Other formats" (`book/src/winlife/life105.md`).

pub mod canvas;
pub mod knuth_rows;
pub mod lif105;
pub mod lif106;
pub mod macrocell;
pub mod plaintext;
pub mod rle;
pub mod target;

use crate::error::{Error, Location, Result};
use crate::life::grid::Grid;
use crate::life::rule::Rule;
use std::collections::BTreeSet;
use std::path::Path;

// ANCHOR: pattern
/// A pattern as read from a file: its cells (a dense rectangle placed at
/// `origin`, the coordinates of its top-left cell, y downwards), its rule if the
/// file named one, and the free text the file carried.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Pattern {
    pub grid: Grid,
    pub origin: (i64, i64),
    pub rule: Option<Rule>,
    pub name: Option<String>,
    pub author: Option<String>,
    pub comments: Vec<String>,
}
// ANCHOR_END: pattern

impl Default for Grid {
    fn default() -> Self {
        Grid::new(0, 0)
    }
}

impl Pattern {
    /// The live cells in the pattern's own coordinates (origin plus offset).
    pub fn live_set(&self) -> BTreeSet<(i64, i64)> {
        self.grid.live_cells().map(|(x, y)| (self.origin.0 + x as i64, self.origin.1 + y as i64)).collect()
    }

    /// The same pattern cropped to its live cells (an empty pattern becomes 0x0 at 0 0).
    pub fn trimmed(&self) -> Pattern {
        match self.grid.bounding_box() {
            None => Pattern { grid: Grid::new(0, 0), origin: (0, 0), ..self.clone() },
            Some((x, y, w, h)) => Pattern {
                grid: self.grid.crop(x, y, w, h),
                origin: (self.origin.0 + x as i64, self.origin.1 + y as i64),
                ..self.clone()
            },
        }
    }
}

/// The formats we read and write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// Life 1.05 (WinLife `.LIF`, Xlife `.life`): `#P` blocks of `.` and `*`.
    #[cfg_attr(feature = "cli", value(name = "lif"))]
    Lif,
    /// Life 1.06: one `x y` line per live cell.
    #[cfg_attr(feature = "cli", value(name = "lif106"))]
    Lif106,
    /// LifeWiki plaintext `.cells`: `!` comments, rows of `.` and `O`.
    #[cfg_attr(feature = "cli", value(name = "cells"))]
    Cells,
    /// Run-length encoded, as Golly writes it.
    #[cfg_attr(feature = "cli", value(name = "rle"))]
    Rle,
    /// Knuth's rows of `.` and `*` (and `?` in search targets).
    #[cfg_attr(feature = "cli", value(name = "txt"))]
    Txt,
    /// Golly's macrocell `.mc`: a HashLife quadtree, node by node.
    #[cfg_attr(feature = "cli", value(name = "mc"))]
    Mc,
}

impl Format {
    pub const ALL: [Format; 6] =
        [Format::Lif, Format::Lif106, Format::Cells, Format::Rle, Format::Txt, Format::Mc];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Lif => "lif",
            Format::Lif106 => "lif106",
            Format::Cells => "cells",
            Format::Rle => "rle",
            Format::Txt => "txt",
            Format::Mc => "mc",
        }
    }

    /// Whether the format records where the pattern lies (else it starts at 0 0).
    pub fn holds_origin(self) -> bool {
        matches!(self, Format::Lif | Format::Lif106 | Format::Rle | Format::Mc)
    }
    /// Whether the format can name a rule.
    pub fn holds_rule(self) -> bool {
        matches!(self, Format::Lif | Format::Rle | Format::Mc)
    }
    /// Whether the format keeps the dead margin of the rectangle (else the
    /// reader sees only the live cells' bounding box).
    pub fn holds_margin(self) -> bool {
        matches!(self, Format::Cells | Format::Txt | Format::Rle)
    }
    /// Whether the format keeps name, author and comments.
    pub fn holds_text(self) -> bool {
        matches!(self, Format::Lif | Format::Cells | Format::Rle)
    }
}

/// A pattern together with what the reader learned on the way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    pub pattern: Pattern,
    /// The format the text was read as.
    pub format: Format,
    /// Things the user should hear about; each names file and line.
    pub warnings: Vec<String>,
}

/// A written pattern and what could not be written as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub text: String,
    pub warnings: Vec<String>,
}

/// The warnings a reader collects, each prefixed with the place it concerns.
#[derive(Debug, Default)]
pub struct Warnings(pub Vec<String>);

impl Warnings {
    pub fn push(&mut self, loc: &Location, msg: impl AsRef<str>) {
        self.0.push(format!("{loc}: warning: {}", msg.as_ref()));
    }
}

/// The lines of a text with 1-based numbers, a CR before each LF removed, so
/// that MS-DOS (CR LF) and Unix (LF) files read alike.
pub(crate) fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n').enumerate().map(|(i, l)| (i + 1, l.strip_suffix('\r').unwrap_or(l)))
}

// ANCHOR: detect
/// Decide a text's format: from its content first (a `#Life` header, an RLE
/// `x =` line after the `#` lines, a `!` comment), from the file's extension
/// second, and from what its lines look like last.
pub fn detect(text: &str, extension: Option<&str>) -> Format {
    let lines: Vec<&str> = numbered_lines(text).map(|(_, l)| l.trim()).filter(|l| !l.is_empty()).collect();
    let first = lines.first().copied().unwrap_or("");
    if macrocell::is_macrocell(first) {
        return Format::Mc;
    }
    if let Some(version) = first.strip_prefix("#Life") {
        let version = version.trim();
        return if version == "1.06" { Format::Lif106 } else { Format::Lif };
    }
    if let Some(l) = lines.iter().find(|l| !l.starts_with('#'))
        && rle::is_header(l)
    {
        return Format::Rle;
    }
    if first.starts_with('!') {
        return Format::Cells;
    }
    match extension.map(|e| e.to_ascii_lowercase()).as_deref() {
        Some("lif") | Some("life") => return Format::Lif,
        Some("rle") => return Format::Rle,
        Some("cells") => return Format::Cells,
        Some("txt") => return Format::Txt,
        Some("mc") => return Format::Mc,
        _ => {}
    }
    if first.starts_with('#') {
        Format::Lif
    } else if first.split_whitespace().count() == 2
        && first.split_whitespace().all(|w| w.parse::<i64>().is_ok())
    {
        Format::Lif106
    } else if text.contains('O') {
        Format::Cells
    } else {
        Format::Txt
    }
}
// ANCHOR_END: detect

/// Read a pattern file in any supported format, with the reader's warnings.
pub fn load(path: &Path) -> Result<Loaded> {
    let text = crate::fsutil::read_text(path)?;
    let ext = path.extension().and_then(|e| e.to_str());
    parse(&Location::file(path), &text, ext)
}

/// Parse pattern text, detecting its format from the content and extension.
pub fn parse(loc: &Location, text: &str, extension: Option<&str>) -> Result<Loaded> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text); // a byte-order mark from Windows editors
    let format = detect(text, extension);
    parse_as(loc, text, format, extension)
}

/// Parse pattern text as the given format.
pub fn parse_as(loc: &Location, text: &str, format: Format, extension: Option<&str>) -> Result<Loaded> {
    let mut w = Warnings::default();
    let pattern = match format {
        Format::Lif => {
            let xlife = extension.is_some_and(|e| e.eq_ignore_ascii_case("life"));
            lif105::read(loc, text, xlife, &mut w)?
        }
        Format::Lif106 => lif106::read(loc, text, &mut w)?,
        Format::Cells => plaintext::read(loc, text, &mut w)?,
        Format::Rle => rle::read(loc, text, &mut w)?,
        Format::Txt => Pattern { grid: knuth_rows::parse(loc, text)?, ..Pattern::default() },
        Format::Mc => macrocell::read(loc, text, &mut w)?,
    };
    Ok(Loaded { pattern, format, warnings: w.0 })
}

/// Read a pattern file in any supported format (warnings are dropped; use
/// [`load`] to see them).
pub fn read_pattern(path: &Path) -> Result<Pattern> {
    Ok(load(path)?.pattern)
}

/// Parse pattern text, detecting its format from the content.
pub fn parse_pattern(loc: &Location, text: &str) -> Result<Pattern> {
    Ok(parse(loc, text, None)?.pattern)
}

/// Write a pattern in the given format, with warnings about what did not fit.
pub fn write(p: &Pattern, format: Format) -> Result<Written> {
    let mut warnings = Vec::new();
    let text = match format {
        Format::Lif => lif105::write(p, &mut warnings),
        Format::Lif106 => lif106::write(p),
        Format::Cells => plaintext::write(p),
        Format::Rle => rle::write(p),
        Format::Txt => {
            if p.grid.width() == 0 || p.grid.height() == 0 {
                return Err(Error::invalid("Knuth's rows cannot hold an empty pattern"));
            }
            knuth_rows::write(&p.grid)
        }
        Format::Mc => macrocell::write(p),
    };
    Ok(Written { text, warnings })
}

/// Write a pattern in the given format.
pub fn write_pattern(p: &Pattern, format: Format) -> Result<String> {
    Ok(write(p, format)?.text)
}

/// Refuse an empty input with a message that names it.
pub(crate) fn nonempty(loc: &Location, text: &str) -> Result<()> {
    if text.trim().is_empty() {
        return Err(Error::parse(loc, "empty pattern file"));
    }
    Ok(())
}

/// One line of free text, fit for a comment line: line breaks and other
/// control characters become spaces, and the ends are trimmed.
pub(crate) fn one_line(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect::<String>().trim().to_string()
}
