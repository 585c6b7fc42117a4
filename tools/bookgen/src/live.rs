//! The book as a live report: a preprocessor that runs before mdBook's own
//! `links`, so that it still sees every `{{#include}}` as written.
//!
//! - `{{#value ID [COL=VALUE ...] col=C [row=N] [agg=A] [fmt=F]}}` is one
//!   number from `data/ID.csv` (or `data/thesis/NAME.csv` for `thesis/NAME`):
//!   the rows whose columns equal the given values, then the `N`th of them or
//!   an aggregate (`min`, `max`, `median`, `mean`, `sum`, `count`), formatted.
//!   `col` may be a quotient of two columns, `col=a/b`; `eq=A:B` (`ne=A:B`)
//!   keeps the rows whose columns A and B are equal (differ); `has=C` keeps
//!   the rows where column C is not empty (an aggregate over a column that
//!   some rows leave empty must say so); a count may be 0;
//!   `missing=TEXT` shows TEXT where no row matches (rows that only a full
//!   run makes), while an unknown data set or column still fails.
//! - `{{#table ID cols=a,b,c [COL=VALUE ...] [fmt=F]}}` renders rows as a table.
//! - `{{#thesis TEXT}}` marks a number quoted from the thesis, `{{#given TEXT}}`
//!   one that is not measured (a target, a parameter); both are shown as
//!   written, and the test for hand-typed numbers lets them pass.
//! - `{{#quote ID}}` quotes the thesis: entry `ID` of `data/thesis/quotes.csv`
//!   (id, section, page, the thesis' exact words), rendered as the words and
//!   where they stand; `{{#cite ID}}` gives only where (the words as its
//!   tooltip), for a sentence that says in our words what the thesis says. An
//!   unknown id fails the build.
//! - `{{#took ID [ID ...]}}` is how long the last run of those experiments
//!   took together, from the manifest ("5 min 28 s"), marked when any of them
//!   was not a full run; an unknown id fails the build.
//! - `{{#claim "TEXT" SIDE OP SIDE}}` is a sentence about the data that is
//!   checked: each SIDE is a number, `(BODY)` with BODY as in `{{#value}}`, or
//!   `K * (BODY)`; OP is one of `<` `<=` `>` `>=`. TEXT is shown; if the
//!   comparison is false the build fails, unless a data set it reads was not
//!   made by a full run (then the text carries a visible warning).
//! - Under every included regenerated table (`../generated/ID.md`) and every
//!   figure (`../figures/ID.svg`), a line says which run made it (mode, commit,
//!   date) and whether the code that measured it has changed since.
//! - Every `{{#include}}` is checked (file, anchor, non-empty region), and a
//!   listing of source code gets a caption naming its file and anchor.
//! - TeX between `\\(`..`\\)` and `\\[`..`\\]` becomes MathML, at build time.
//!
//! Any error names the page and the line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use mdbook_driver::book::Book;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

use crate::anchors::region;
use crate::fresh;
use crate::manifest::Manifest;

/// The preprocessor's name in `book.toml` (`[preprocessor.lifesearch]`).
pub const NAME: &str = "lifesearch";

/// The live-report preprocessor for the repository at `root`.
pub struct Live {
    root: PathBuf,
}

impl Live {
    pub fn new(root: &Path) -> Live {
        Live { root: root.to_path_buf() }
    }
}

impl Preprocessor for Live {
    fn name(&self) -> &str {
        NAME
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        let src = ctx.root.join(&ctx.config.book.src);
        let mut pages = Pages::new(&self.root);
        let mut errors = Vec::new();
        book.for_each_chapter_mut(|ch| {
            let Some(path) = ch.path.clone() else { return };
            match pages.expand(&ch.content, &src, &path) {
                Ok(text) => ch.content = text,
                Err(e) => errors.push(format!("{e:#}")),
            }
        });
        if !errors.is_empty() {
            bail!("{}", errors.join("\n"));
        }
        Ok(book)
    }
}

/// A CSV held in memory: its header and rows.
struct Csv {
    path: PathBuf,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Csv {
    fn load(path: &Path) -> Result<Csv> {
        let mut r = csv::Reader::from_path(path).with_context(|| format!("{}", path.display()))?;
        let header = r.headers()?.iter().map(str::to_string).collect();
        let mut rows = Vec::new();
        for rec in r.records() {
            rows.push(
                rec.with_context(|| format!("{}", path.display()))?.iter().map(str::to_string).collect(),
            );
        }
        Ok(Csv { path: path.to_path_buf(), header, rows })
    }

    fn column(&self, name: &str) -> Result<usize> {
        self.header.iter().position(|h| h == name).ok_or_else(|| {
            anyhow!("{} has no column '{name}' (it has: {})", self.path.display(), self.header.join(", "))
        })
    }
}

/// What the expansion of the book's pages needs: the repository, its CSVs
/// (read once each) and the manifest.
pub struct Pages {
    root: PathBuf,
    csvs: BTreeMap<String, Csv>,
    quotes: Option<BTreeMap<String, Quote>>,
    manifest: Option<Manifest>,
    fingerprint: Option<String>,
    /// Where listing captions link: `repository-url` of `[preprocessor.lifesearch]`
    /// in book.toml, or `None` for a link relative to the built page.
    repo_url: Option<String>,
}

impl Pages {
    pub fn new(root: &Path) -> Pages {
        Pages {
            root: root.to_path_buf(),
            csvs: BTreeMap::new(),
            quotes: None,
            manifest: None,
            fingerprint: None,
            repo_url: repository_url(root),
        }
    }

    fn csv(&mut self, id: &str) -> Result<&Csv> {
        if !id.chars().all(|c| c.is_ascii_alphanumeric() || "-_/.".contains(c)) || id.contains("..") {
            bail!("'{id}' is not a data set name");
        }
        if !self.csvs.contains_key(id) {
            let path = self.root.join("data").join(format!("{id}.csv"));
            if !path.is_file() {
                bail!("no data set '{id}' ({} does not exist)", path.display());
            }
            self.csvs.insert(id.to_string(), Csv::load(&path)?);
        }
        Ok(&self.csvs[id])
    }

    /// Expand one page (`page` is its path under the book's `src`).
    pub fn expand(&mut self, text: &str, src: &Path, page: &Path) -> Result<String> {
        let dir = src.join(page).parent().map(Path::to_path_buf).unwrap_or_default();
        let mut out = String::with_capacity(text.len() + 256);
        let mut prose = String::new();
        let mut fence: Option<String> = None;
        // A page's bad values are reported together, not one per build.
        let mut bad = Vec::new();
        let on_page = |e: anyhow::Error| anyhow!("{}: {e:#}", page.display());
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let at = |e: anyhow::Error| anyhow!("{}:{}: {e:#}", page.display(), i + 1);
            let trimmed = line.trim_start();
            let marker = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m));
            if let Some(open) = &fence {
                if trimmed.starts_with(open.as_str())
                    && trimmed.trim_end().trim_start_matches(open.as_str()).is_empty()
                {
                    fence = None;
                }
                if trimmed.contains("{{#include") {
                    Self::check_include(line, &dir).map_err(at)?;
                }
                out.push_str(line);
                out.push('\n');
                continue;
            }
            if let Some(m) = marker {
                // Prose so far is expanded as a whole (math may span lines).
                out.push_str(&math(&prose).map_err(on_page)?);
                prose.clear();
                let ticks: String = trimmed.chars().take_while(|&c| c == m.chars().next().unwrap()).collect();
                fence = Some(ticks);
                // The include itself is checked on its own line, inside the fence.
                if let Some(next) = lines.get(i + 1)
                    && next.contains("{{#include")
                {
                    let (file, anchor) = Self::parse_include(next, &dir).map_err(at)?;
                    if file.extension().is_some_and(|x| x == "rs") {
                        out.push_str(&caption(
                            &self.root,
                            &file,
                            anchor.as_deref(),
                            &dir,
                            self.repo_url.as_deref(),
                        ));
                    }
                }
                out.push_str(line);
                out.push('\n');
                continue;
            }
            let mut expanded = match self.directives(line) {
                Ok(text) => text,
                Err(e) => {
                    bad.push(format!("{:#}", at(e)));
                    String::new()
                }
            };
            if trimmed.starts_with("{{#include") {
                let (file, _) = Self::check_include(line, &dir).map_err(at)?;
                if let Some(id) = generated_id(&file) {
                    expanded.push_str(&self.provenance(&id).map_err(at)?);
                }
            } else if let Some(id) = figure_id(trimmed) {
                expanded.push_str(&self.provenance(&id).map_err(at)?);
            }
            prose.push_str(&expanded);
            prose.push('\n');
        }
        if !bad.is_empty() {
            bail!("{}", bad.join("\n"));
        }
        if fence.is_some() {
            bail!("{}: a code fence is never closed", page.display());
        }
        out.push_str(&math(&prose).map_err(on_page)?);
        Ok(out)
    }

    /// The file and anchor of `{{#include PATH[:ANCHOR]}}` on this line.
    fn parse_include(line: &str, dir: &Path) -> Result<(PathBuf, Option<String>)> {
        let start = line.find("{{#include").expect("caller saw it") + "{{#include".len();
        let end = line[start..].find("}}").ok_or_else(|| anyhow!("unterminated {{{{#include"))? + start;
        let spec = line[start..end].trim();
        Ok(match spec.split_once(':') {
            Some((p, a)) => (dir.join(p), Some(a.to_string())),
            None => (dir.join(spec), None),
        })
    }

    /// Check the include on this line: the file exists, and a named anchor
    /// exists and encloses at least one non-blank line.
    fn check_include(line: &str, dir: &Path) -> Result<(PathBuf, Option<String>)> {
        let (file, anchor) = Self::parse_include(line, dir)?;
        let shown = file.strip_prefix(dir).unwrap_or(&file).display().to_string();
        let spec = anchor.as_ref().map_or(shown.clone(), |a| format!("{shown}:{a}"));
        if !file.is_file() {
            bail!("include '{spec}': no such file");
        }
        if let Some(a) = &anchor
            && !a.chars().all(|c| c.is_ascii_digit() || c == ':')
        {
            let text = std::fs::read_to_string(&file).with_context(|| format!("include '{spec}'"))?;
            if region(&text, a).is_none_or(|r| r.trim().is_empty()) {
                bail!("include '{spec}': no anchor '{a}' in {shown}, or its region is empty");
            }
        }
        Ok((file, anchor))
    }

    /// Expand `{{#value}}`, `{{#table}}` and `{{#thesis}}` in one line.
    fn directives(&mut self, line: &str) -> Result<String> {
        let mut out = String::new();
        let mut rest = line;
        while let Some(i) = rest.find("{{#") {
            let (before, tail) = rest.split_at(i);
            let name_end = tail[3..].find(|c: char| !c.is_ascii_alphanumeric()).map_or(tail.len(), |n| n + 3);
            let name = &tail[3..name_end];
            if !["value", "table", "thesis", "given", "quote", "cite", "claim", "took"].contains(&name) {
                out.push_str(before);
                out.push_str(&tail[..name_end]);
                rest = &tail[name_end..];
                continue;
            }
            let close = tail.find("}}").ok_or_else(|| anyhow!("unterminated {{{{#{name}"))?;
            let body = tail[name_end..close].trim();
            out.push_str(before);
            match name {
                "value" => out.push_str(&self.value(body).with_context(|| format!("{{{{#value {body}}}}}"))?),
                "table" => out.push_str(&self.table(body).with_context(|| format!("{{{{#table {body}}}}}"))?),
                "thesis" => out
                    .push_str(&format!("<span class=\"thesis\" title=\"the thesis' figure\">{body}</span>")),
                "quote" | "cite" => {
                    let q = self.quote(body).with_context(|| format!("{{{{#{name} {body}}}}}"))?;
                    out.push_str(&q.render(name == "quote"));
                }
                "claim" => out.push_str(&self.claim(body).with_context(|| format!("{{{{#claim {body}}}}}"))?),
                "took" => out.push_str(&self.took(body).with_context(|| format!("{{{{#took {body}}}}}"))?),
                _ => out.push_str(body),
            }
            rest = &tail[close + 2..];
        }
        out.push_str(rest);
        Ok(out)
    }

    /// Entry `id` of the thesis' quotes (`data/thesis/quotes.csv`, read once).
    fn quote(&mut self, id: &str) -> Result<&Quote> {
        if self.quotes.is_none() {
            self.quotes = Some(load_quotes(&self.root.join(QUOTES))?);
        }
        let all = self.quotes.as_ref().expect("loaded");
        all.get(id).ok_or_else(|| anyhow!("no quote '{id}' in {QUOTES}"))
    }

    /// A checked claim: its text, if the comparison holds.
    fn claim(&mut self, body: &str) -> Result<String> {
        let c = parse_claim(body)?;
        // Data sets the manifest says a quick (or smaller) run made: a claim about them only warns.
        let mut quick = Vec::new();
        let mut side = |s: &Side, pages: &mut Pages| -> Result<f64> {
            Ok(match s {
                Side::Number(x) => *x,
                Side::Value(k, b) => {
                    let partial = pages.partial(b)?;
                    if partial {
                        quick.push(b.split_whitespace().next().unwrap_or_default().to_string());
                    }
                    match pages.number(b) {
                        Ok(x) => k * x,
                        // Rows only a full run makes.
                        Err(e) if partial && unmeasured(&e) => f64::NAN,
                        Err(e) => return Err(e.context(format!("({b})"))),
                    }
                }
            })
        };
        let (l, r) = (side(&c.lhs, self)?, side(&c.rhs, self)?);
        let holds = match c.op.as_str() {
            "<" => l < r,
            "<=" => l <= r,
            ">" => l > r,
            ">=" => l >= r,
            _ => unreachable!("parse_claim checks the operator"),
        };
        let show = |x: f64| if x.is_nan() { Ok("(no row)".to_string()) } else { format_number(x, ".4") };
        let (lhs, rhs) = (show(l)?, show(r)?);
        if holds {
            return Ok(format!(
                "<span class=\"claim\" title=\"checked against the data: {lhs} {} {rhs}\">{}</span>",
                c.op.replace('<', "&lt;").replace('>', "&gt;"),
                c.text
            ));
        }
        if quick.is_empty() {
            bail!("the claim \"{}\" is false: {lhs} {} {rhs} does not hold", c.text, c.op);
        }
        // A quick run measures less; its book is built, and says so.
        eprintln!(
            "warning: the claim \"{}\" is not shown true by the partial run of {}",
            c.text,
            quick.join(", ")
        );
        Ok(format!(
            "<span class=\"claim false\" title=\"{lhs} {} {rhs} is false\">{} (⚠ not shown true by this quick \
             run's data; a full run checks it)</span>",
            c.op.replace('<', "&lt;").replace('>', "&gt;"),
            c.text
        ))
    }

    // ANCHOR: took
    /// `{{#took ID ...}}`: the seconds the manifest records for the last run of
    /// each experiment, summed and written as minutes and seconds. A time from
    /// a run that was not full says so, since the page quotes full-run times.
    fn took(&mut self, body: &str) -> Result<String> {
        let ids: Vec<&str> = body.split_whitespace().collect();
        if ids.is_empty() {
            bail!("name at least one experiment");
        }
        let m = self.manifest()?;
        let mut seconds = 0.0;
        let mut partial = Vec::new();
        for id in ids {
            let e =
                m.experiments.get(id).ok_or_else(|| anyhow!("no experiment '{id}' in data/manifest.json"))?;
            seconds += e.seconds;
            if e.mode.name() != "full" {
                partial.push(format!("{id}: {}", e.mode.name()));
            }
        }
        let text = duration_text(seconds);
        Ok(if partial.is_empty() {
            text
        } else {
            format!("{text} <span class=\"warning\">(not a full run: {})</span>", partial.join(", "))
        })
    }
    // ANCHOR_END: took

    /// The mode (`quick`, `full`) a data set was made in, from the manifest.
    fn mode(&mut self, id: &str) -> Result<Option<String>> {
        Ok(self.manifest()?.experiments.get(id).map(|e| e.mode.name().to_string()))
    }

    /// The manifest, read once; a broken one is an error (a missing one is empty).
    fn manifest(&mut self) -> Result<&Manifest> {
        if self.manifest.is_none() {
            self.manifest = Some(Manifest::load_or_new(&self.root)?);
            self.fingerprint = Some(fresh::fingerprint(&self.root));
        }
        Ok(self.manifest.as_ref().expect("loaded"))
    }

    fn select(&mut self, body: &str) -> Result<(Query, Vec<Vec<String>>, Vec<String>)> {
        let mut words = body.split_whitespace();
        let id = words.next().ok_or_else(|| anyhow!("no data set named"))?.to_string();
        let mut q = Query::default();
        let mut filters = Vec::new();
        // eq=A:B / ne=A:B keep the rows whose columns A and B are equal / differ.
        let mut pairs = Vec::new();
        let mut filled = Vec::new();
        for w in words {
            let (k, v) = w.split_once('=').ok_or_else(|| anyhow!("'{w}' is not KEY=VALUE"))?;
            match k {
                "col" => q.col = Some(v.to_string()),
                "cols" => q.cols = v.split(',').map(str::to_string).collect(),
                "row" => q.row = Some(v.parse().map_err(|_| anyhow!("row={v}: not a row number"))?),
                "agg" => q.agg = Some(v.to_string()),
                "fmt" => q.fmt = Some(v.to_string()),
                "missing" => {}
                "num" | "den" => {}
                "has" => filled.push(v.to_string()),
                "eq" | "ne" => {
                    let (a, b) = v.split_once(':').ok_or_else(|| anyhow!("{k}={v}: expected COL:COL"))?;
                    pairs.push((a.to_string(), b.to_string(), k == "eq"));
                }
                _ => filters.push((k.to_string(), v.replace("%20", " "))),
            }
        }
        let csv = self.csv(&id)?;
        let idx: Vec<(usize, &str)> =
            filters.iter().map(|(k, v)| Ok((csv.column(k)?, v.as_str()))).collect::<Result<_>>()?;
        // Every column named must exist, whether or not a row matches.
        for name in q.col.iter().flat_map(|c| c.split('/')).chain(q.cols.iter().map(String::as_str)) {
            csv.column(name)?;
        }
        let cmp: Vec<(usize, usize, bool)> = pairs
            .iter()
            .map(|(a, b, eq)| Ok((csv.column(a)?, csv.column(b)?, *eq)))
            .collect::<Result<_>>()?;
        let has: Vec<usize> = filled.iter().map(|c| csv.column(c)).collect::<Result<_>>()?;
        let rows: Vec<Vec<String>> = csv
            .rows
            .iter()
            .filter(|r| idx.iter().all(|&(c, v)| r.get(c).is_some_and(|x| x == v)))
            .filter(|r| cmp.iter().all(|&(a, b, eq)| (r[a] == r[b]) == eq))
            .filter(|r| has.iter().all(|&c| r.get(c).is_some_and(|x| !x.is_empty())))
            .cloned()
            .collect();
        // A count may be zero; anything else needs a row to read.
        if rows.is_empty() && q.agg.as_deref() != Some("count") {
            return Err(anyhow::Error::new(NoRow(format!(
                "no row of {} matches {}",
                csv.path.display(),
                body
            ))));
        }
        Ok((q, rows, csv.header.clone()))
    }

    fn value(&mut self, body: &str) -> Result<String> {
        match self.value_of(body) {
            // A quick run on a machine without a peer: its book is built, and says so.
            Err(e) if e.downcast_ref::<Empty>().is_some() && self.partial(body)? => {
                eprintln!("warning: {{{{#value {body}}}}}: {e} (not measured by this quick run)");
                Ok("(not measured in this run)".into())
            }
            other => other,
        }
    }

    /// Whether the data set a selection names (its first word) comes from a run that was not full.
    fn partial(&mut self, body: &str) -> Result<bool> {
        let id = body.split_whitespace().next().unwrap_or_default();
        Ok(self.mode(id)?.is_some_and(|m| m != "full"))
    }

    fn value_of(&mut self, body: &str) -> Result<String> {
        // missing=TEXT: rows that a quick run does not make are shown as TEXT;
        // an unknown data set or column still fails.
        if let Some(text) = body.split_whitespace().find_map(|w| w.strip_prefix("missing=")) {
            let rest: Vec<&str> = body.split_whitespace().filter(|w| !w.starts_with("missing=")).collect();
            return match self.value(&rest.join(" ")) {
                Err(e) if e.downcast_ref::<NoRow>().is_some() => Ok(text.replace("%20", " ")),
                other => other,
            };
        }
        let fmt = body.split_whitespace().find_map(|w| w.strip_prefix("fmt="));
        // num=K:V,.. and den=K:V,..: the quotient of two selections.
        let part = |key: &str| {
            body.split_whitespace()
                .find_map(|w| w.strip_prefix(key))
                .map(|f| f.replace(':', "=").replace(',', " "))
        };
        if let (Some(num), Some(den)) = (part("num="), part("den=")) {
            let common: Vec<&str> = body
                .split_whitespace()
                .filter(|w| !w.starts_with("num=") && !w.starts_with("den=") && !w.starts_with("fmt="))
                .collect();
            let common = common.join(" ");
            let (a, b) = (self.number(&format!("{common} {num}"))?, self.number(&format!("{common} {den}"))?);
            return format_number(a / b, fmt.unwrap_or(".2"));
        }
        if body.contains("num=") || body.contains("den=") {
            bail!("num= and den= go together");
        }
        let (q, rows, header) = self.select(body)?;
        let picked = pick(&q, &rows)?;
        let col = q.col.as_deref().ok_or_else(|| anyhow!("no col= given"))?;
        // Without a format, a single cell is shown as the CSV holds it.
        if fmt.is_none() && q.agg.is_none() && !col.contains('/') && picked.len() == 1 {
            let c = header.iter().position(|h| h == col).ok_or_else(|| no_column(col, &header))?;
            return Ok(picked[0][c].clone());
        }
        format_number(reduce(&q, &picked, &header)?, fmt.unwrap_or(".3"))
    }

    /// The number a `{{#value}}` body selects (before formatting).
    fn number(&mut self, body: &str) -> Result<f64> {
        let (q, rows, header) = self.select(body)?;
        reduce(&q, &pick(&q, &rows)?, &header)
    }

    fn table(&mut self, body: &str) -> Result<String> {
        let (q, rows, header) = self.select(body)?;
        let cols = if q.cols.is_empty() { header.clone() } else { q.cols.clone() };
        let idx = cols
            .iter()
            .map(|c| header.iter().position(|h| h == c).ok_or_else(|| no_column(c, &header)))
            .collect::<Result<Vec<_>>>()?;
        let mut md = format!("\n| {} |\n|{}\n", cols.join(" | "), "---|".repeat(cols.len()));
        for r in rows {
            let cells: Vec<String> = idx
                .iter()
                .map(|&i| match (&q.fmt, r[i].parse::<f64>()) {
                    (Some(f), Ok(x)) => format_number(x, f).unwrap_or_else(|_| r[i].clone()),
                    _ => r[i].clone(),
                })
                .collect();
            md += &format!("| {} |\n", cells.join(" | "));
        }
        Ok(md)
    }

    /// The line under a regenerated table or figure: which run made it.
    fn provenance(&mut self, id: &str) -> Result<String> {
        // The figure or table itself, which `experiments plot` redraws alone.
        let shown = id.to_string();
        let fingerprint = {
            self.manifest()?;
            self.fingerprint.clone()
        };
        let Some((id, entry)) = self.manifest()?.entry(id) else {
            return Ok(format!(
                "\n<p class=\"provenance stale\">⚠ <code>{id}</code> has never been run: \
                 <code>experiments run {id}</code></p>\n"
            ));
        };
        let commit: String = entry.commit.chars().take(7).collect();
        let date = entry.date.replace('T', " ").replace('Z', " UTC");
        let current = fingerprint.as_deref() == Some(entry.fingerprint.as_str());
        let (class, state) = if current {
            ("provenance", "current".to_string())
        } else {
            (
                "provenance stale",
                format!(
                    "⚠ STALE: the code that measures it has changed since; rerun with <code>experiments run {id}</code>"
                ),
            )
        };
        Ok(format!(
            "\n<p class=\"{class}\">From <code>data/{id}.csv</code>: {} run at commit <code>{commit}</code>, {date}: {state}. \
             <span class=\"regenerate\">Measure again: <code>experiments run {id}</code>; redraw from the CSV: \
             <code>experiments plot {shown}</code>.</span></p>\n",
            entry.mode.name()
        ))
    }
}

/// The thesis' words that the book quotes or cites, relative to the repository.
pub const QUOTES: &str = "data/thesis/quotes.csv";

/// One entry of the quotes file.
#[derive(Debug, Clone)]
pub struct Quote {
    pub id: String,
    pub section: String,
    pub page: u32,
    pub words: String,
}

impl Quote {
    /// `“words” (Section S, p. N)` for a quotation, `(thesis, Section S, p. N)` for a citation.
    fn render(&self, quoted: bool) -> String {
        let esc = |s: &str| s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;");
        let at = format!("{}, p. {}", self.section, self.page);
        if quoted {
            format!(
                "<q class=\"thesis-quote\">{}</q> <span class=\"thesis-cite\">(thesis, {at})</span>",
                esc(&self.words)
            )
        } else {
            format!("<span class=\"thesis-cite\" title=\"“{}”\">(thesis, {at})</span>", esc(&self.words))
        }
    }
}

/// Read the quotes file: every id unique and well formed, every field filled.
pub fn load_quotes(path: &Path) -> Result<BTreeMap<String, Quote>> {
    let mut r = csv::Reader::from_path(path).with_context(|| format!("{}", path.display()))?;
    let header: Vec<String> = r.headers()?.iter().map(str::to_string).collect();
    if header != ["id", "section", "page", "words"] {
        bail!("{}: the header must be id,section,page,words (it is {})", path.display(), header.join(","));
    }
    let mut out = BTreeMap::new();
    for (i, rec) in r.records().enumerate() {
        let line = i + 2;
        let rec = rec.with_context(|| format!("{}:{line}", path.display()))?;
        let f = |k: usize| rec.get(k).unwrap_or_default().trim().to_string();
        let (id, section, page, words) = (f(0), f(1), f(2), f(3));
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            bail!("{}:{line}: '{id}' is not an id (letters, digits, '-')", path.display());
        }
        if section.is_empty() || words.is_empty() {
            bail!("{}:{line}: '{id}' needs a section and the thesis' words", path.display());
        }
        let page =
            page.parse().map_err(|_| anyhow!("{}:{line}: page '{page}' is not a number", path.display()))?;
        let q = Quote { id: id.clone(), section, page, words };
        if out.insert(id.clone(), q).is_some() {
            bail!("{}:{line}: the id '{id}' is used twice", path.display());
        }
    }
    Ok(out)
}

/// A claim's two sides and operator.
struct Claim {
    text: String,
    lhs: Side,
    op: String,
    rhs: Side,
}

/// A number, or a factor times the number a `{{#value}}` body selects.
enum Side {
    Number(f64),
    Value(f64, String),
}

/// `"TEXT" SIDE OP SIDE`.
fn parse_claim(body: &str) -> Result<Claim> {
    let body = body.trim();
    let rest = body.strip_prefix('"').ok_or_else(|| anyhow!("a claim starts with its text in quotes"))?;
    let end = rest.find('"').ok_or_else(|| anyhow!("the claim's text has no closing quote"))?;
    let text = rest[..end].trim().to_string();
    if text.is_empty() {
        bail!("the claim's text is empty");
    }
    let mut rest = rest[end + 1..].trim_start();
    let side = |rest: &mut &str| -> Result<Side> {
        let mut k = 1.0;
        if let Some(star) = rest.find('*')
            && !rest[..star].contains('(')
        {
            let f = rest[..star].trim();
            k = f.parse().map_err(|_| anyhow!("'{f}' is not a factor"))?;
            *rest = rest[star + 1..].trim_start();
        }
        if let Some(inner) = rest.strip_prefix('(') {
            let close = inner.find(')').ok_or_else(|| anyhow!("'(' without ')'"))?;
            let b = inner[..close].trim().to_string();
            *rest = inner[close + 1..].trim_start();
            return Ok(Side::Value(k, b));
        }
        let n = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let x: f64 =
            rest[..n].parse().map_err(|_| anyhow!("'{}' is neither a number nor (a value)", &rest[..n]))?;
        *rest = rest[n..].trim_start();
        Ok(Side::Number(k * x))
    };
    let lhs = side(&mut rest)?;
    let op: String = rest.chars().take_while(|c| "<>=!".contains(*c)).collect();
    if !["<", "<=", ">", ">="].contains(&op.as_str()) {
        bail!("'{op}' is not one of < <= > >=");
    }
    rest = rest[op.len()..].trim_start();
    let rhs = side(&mut rest)?;
    if !rest.is_empty() {
        bail!("'{rest}' after the claim's right side");
    }
    Ok(Claim { text, lhs, op, rhs })
}

/// No row matches a selection (the one error `missing=` turns into text).
#[derive(Debug)]
struct NoRow(String);

/// An empty cell where a number belongs: the run did not measure it (a
/// peer that is not installed). A quick run's book shows it as such; a full
/// run's fails.
#[derive(Debug)]
struct Empty(String);

impl std::fmt::Display for Empty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Empty {}

/// A selection a partial run may leave unanswered: no row, or an empty cell.
fn unmeasured(e: &anyhow::Error) -> bool {
    e.downcast_ref::<NoRow>().is_some() || e.downcast_ref::<Empty>().is_some()
}

impl std::fmt::Display for NoRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NoRow {}

/// The rows a query reads: the `row=`th of those that match, or all of them.
fn pick<'a>(q: &Query, rows: &'a [Vec<String>]) -> Result<Vec<&'a Vec<String>>> {
    Ok(match q.row {
        Some(n) => {
            vec![
                rows.get(n.wrapping_sub(1))
                    .ok_or_else(|| anyhow!("row={n}: only {} rows match", rows.len()))?,
            ]
        }
        None => rows.iter().collect(),
    })
}

/// The number of `col` (or `a/b`) in the one picked row, or the aggregate over them.
fn reduce(q: &Query, picked: &[&Vec<String>], header: &[String]) -> Result<f64> {
    let col = q.col.as_deref().ok_or_else(|| anyhow!("no col= given"))?;
    let pos = |name: &str| header.iter().position(|h| h == name).ok_or_else(|| no_column(name, header));
    let number = |r: &[String]| -> Result<f64> {
        let get = |name: &str| -> Result<f64> {
            let s = &r[pos(name)?];
            if s.trim().is_empty() {
                return Err(anyhow::Error::new(Empty(format!(
                    "column '{name}' is empty in the selected row"
                ))));
            }
            s.trim().parse::<f64>().map_err(|_| anyhow!("column '{name}' holds '{s}', not a number"))
        };
        match col.split_once('/') {
            Some((a, b)) => Ok(get(a)? / get(b)?),
            None => get(col),
        }
    };
    Ok(match q.agg.as_deref() {
        None => {
            if picked.len() != 1 {
                bail!("{} rows match; narrow it with a filter, row= or agg=", picked.len());
            }
            number(picked[0])?
        }
        Some("count") => picked.len() as f64,
        Some(a) => {
            let mut xs = picked.iter().map(|r| number(r)).collect::<Result<Vec<f64>>>()?;
            xs.sort_by(f64::total_cmp);
            match a {
                "min" => xs[0],
                "max" => xs[xs.len() - 1],
                "sum" => xs.iter().sum(),
                "mean" => xs.iter().sum::<f64>() / xs.len() as f64,
                "median" => {
                    let n = xs.len();
                    if n % 2 == 1 { xs[n / 2] } else { (xs[n / 2 - 1] + xs[n / 2]) / 2.0 }
                }
                _ => bail!("agg={a}: not one of min, max, median, mean, sum, count"),
            }
        }
    })
}

fn no_column(name: &str, header: &[String]) -> anyhow::Error {
    anyhow!("no column '{name}' (it has: {})", header.join(", "))
}

#[derive(Default)]
struct Query {
    col: Option<String>,
    cols: Vec<String>,
    row: Option<usize>,
    agg: Option<String>,
    fmt: Option<String>,
}

/// `.N` fixed decimals, `,.N` with thousands separators, `e.N` as a × 10^b,
/// `%.N` as a percentage, `x.N` with a trailing ×.
pub fn format_number(v: f64, fmt: &str) -> Result<String> {
    let digits = |s: &str| -> Result<usize> {
        s.strip_prefix('.')
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| anyhow!("fmt={fmt}: expected .N, ,.N, e.N, %.N or x.N"))
    };
    if !v.is_finite() {
        bail!("the value is {v}");
    }
    Ok(match fmt.chars().next() {
        Some(',') => thousands(&format!("{:.*}", digits(&fmt[1..])?, v)),
        Some('e') => {
            let n = digits(&fmt[1..])?;
            let exp = if v == 0.0 { 0 } else { v.abs().log10().floor() as i32 };
            let mant = v / 10f64.powi(exp);
            format!("{mant:.n$} × 10<sup>{exp}</sup>")
        }
        Some('%') => format!("{:.*}%", digits(&fmt[1..])?, v * 100.0),
        Some('x') => format!("{:.*}×", digits(&fmt[1..])?, v),
        _ => format!("{:.*}", digits(fmt)?, v),
    })
}

fn thousands(s: &str) -> String {
    let (sign, s) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = s.split_once('.').map_or((s, None), |(a, b)| (a, Some(b)));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
}

/// `ID` for an include of `.../generated/ID.md`.
fn generated_id(file: &Path) -> Option<String> {
    let parent = file.parent()?.file_name()?;
    if parent != "generated" || file.extension()? != "md" {
        return None;
    }
    Some(file.file_stem()?.to_string_lossy().into_owned())
}

/// `ID` for an image line `![...](../figures/ID.svg)`.
fn figure_id(line: &str) -> Option<String> {
    let rest = line.strip_prefix("![")?;
    let target = &rest[rest.find("](")? + 2..];
    let target = &target[..target.find(')')?];
    let name = target.strip_prefix("../figures/")?.strip_suffix(".svg")?;
    Some(name.to_string())
}

/// `repository-url` from `[preprocessor.lifesearch]` in `book/book.toml`: the
/// base (such as `https://github.com/OWNER/lifesearch/blob/main`) that listing
/// captions link to. Absent or empty, they link to the file relative to the
/// built page, which works for a book read from a checkout.
fn repository_url(root: &Path) -> Option<String> {
    let text = std::fs::read_to_string(root.join("book/book.toml")).ok()?;
    let doc: toml::Table = toml::from_str(&text).ok()?;
    let url = doc.get("preprocessor")?.get(NAME)?.get("repository-url")?.as_str()?.trim();
    (!url.is_empty()).then(|| url.trim_end_matches('/').to_string())
}

/// A listing's caption: its file and lines, linked to the repository (or,
/// without a base URL, to the file relative to the built page), and anchor.
fn caption(root: &Path, file: &Path, anchor: Option<&str>, dir: &Path, base: Option<&str>) -> String {
    let file = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let rel = file.strip_prefix(&root).unwrap_or(&file).to_string_lossy().replace('\\', "/");
    let lines = anchor.and_then(|a| crate::anchors::lines(&std::fs::read_to_string(&file).ok()?, a));
    let (fragment, shown) = match lines {
        Some((a, b)) => (format!("#L{a}-L{b}"), format!("{rel}:{a}-{b}")),
        None => (String::new(), rel.clone()),
    };
    let href = match base {
        Some(base) => format!("{base}/{rel}{fragment}"),
        None => {
            // The built page sits as deep under book/build as its source under book/src.
            let depth = dir
                .canonicalize()
                .ok()
                .and_then(|d| d.strip_prefix(root.join("book/src")).ok().map(|p| p.components().count()))
                .unwrap_or(0);
            format!("{}{rel}{fragment}", "../".repeat(depth + 2))
        }
    };
    let what = anchor.map(|a| format!(", anchor <code>{a}</code>")).unwrap_or_default();
    format!(
        "<p class=\"listing-caption\">Listing from <a href=\"{href}\"><code>{shown}</code></a>{what}</p>\n\n"
    )
}

/// Replace `\\( … \\)` and `\\[ … \\]` by MathML.
pub fn math(text: &str) -> Result<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    loop {
        let next = ["\\\\(", "\\\\["].iter().filter_map(|o| rest.find(o).map(|i| (i, *o))).min();
        let Some((i, open)) = next else { break };
        // Skip what sits inside inline code.
        if rest[..i].matches('`').count() % 2 == 1 {
            let close = rest[i..].find('`').map_or(rest.len(), |c| i + c + 1);
            out.push_str(&rest[..close]);
            rest = &rest[close..];
            continue;
        }
        let close_tok = if open == "\\\\(" { "\\\\)" } else { "\\\\]" };
        let body_start = i + open.len();
        let end = rest[body_start..].find(close_tok).ok_or_else(|| {
            anyhow!("'{open}' without its '{close_tok}' near: {}", &rest[i..(i + 40).min(rest.len())])
        })? + body_start;
        out.push_str(&rest[..i]);
        let tex = unescape_markdown(&rest[body_start..end]);
        out.push_str(&mathml(&tex, open == "\\\\[")?);
        rest = &rest[end + close_tok.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The chapters write TeX for Markdown (`\_` for `_`, `\\` for `\`): undo that.
fn unescape_markdown(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&n) = chars.peek()
            && "\\_*{}[]()#+-.!|`<>".contains(n)
        {
            out.push(n);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out.replace('\n', " ")
}

fn mathml(tex: &str, display: bool) -> Result<String> {
    use pulldown_latex::{Parser, RenderConfig, Storage, config::DisplayMode, push_mathml};
    let storage = Storage::new();
    let parser = Parser::new(tex, &storage);
    let mut events = Vec::new();
    for e in parser {
        events.push(e.map_err(|e| anyhow!("TeX '{tex}': {e}"))?);
    }
    let config = RenderConfig {
        display_mode: if display { DisplayMode::Block } else { DisplayMode::Inline },
        annotation: Some(tex),
        ..RenderConfig::default()
    };
    let mut html = String::new();
    push_mathml(&mut html, events.into_iter().map(Ok::<_, std::io::Error>), config)?;
    // `\ ` comes out as an escaped entity, which would show as text.
    let html = html.replace("&amp;nbsp;", "&#160;").replace("&nbsp;", "&#160;");
    // Markdown would read * _ ` [ ] \ in the MathML's text as markup.
    let mut safe = String::with_capacity(html.len());
    for c in html.chars() {
        match c {
            '*' | '_' | '`' | '[' | ']' | '\\' | '|' | '~' => safe.push_str(&format!("&#{};", c as u32)),
            '\n' => safe.push(' '),
            _ => safe.push(c),
        }
    }
    Ok(if display { format!("\n\n{safe}\n\n") } else { safe })
}

/// Seconds as a reader says them: "under a second", "42 s", "5 min 28 s",
/// "1 h 04 min".
fn duration_text(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        _ if seconds < 1.0 => "under a second".to_string(),
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo(csv: &str) -> tempfile::TempDir {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("data")).unwrap();
        std::fs::create_dir_all(d.path().join("book/src/ch")).unwrap();
        std::fs::create_dir_all(d.path().join("src")).unwrap();
        std::fs::write(d.path().join("data/t.csv"), csv).unwrap();
        std::fs::write(
            d.path().join("src/a.rs"),
            ["good", "fn f() {}", "/good", "empty", "", "/empty"]
                .map(|l| match (l.strip_prefix('/'), l) {
                    (Some(end), _) => format!("// {}: {end}\n", ["ANCHOR", "END"].join("_")),
                    (None, "good" | "empty") => format!("// {}: {l}\n", "ANCHOR"),
                    _ => format!("{l}\n"),
                })
                .concat(),
        )
        .unwrap();
        d
    }

    fn expand(d: &tempfile::TempDir, text: &str) -> Result<String> {
        Pages::new(d.path()).expand(text, &d.path().join("book/src"), Path::new("ch/page.md"))
    }

    const CSV: &str = "name,kind,ms,base\na,x,1.5,3\nb,x,2.5,5\nc,y,10,20\n";

    #[test]
    fn has_keeps_only_the_rows_that_fill_a_column() {
        let d = repo("name,kind,ms\na,x,1.5\nb,x,\nc,x,4\n");
        // Without `has=`, the empty cell is an error, not a silent gap.
        assert!(expand(&d, "{{#value t kind=x col=ms agg=max}}").is_err());
        assert_eq!(expand(&d, "{{#value t kind=x has=ms col=ms agg=max fmt=.1}}").unwrap(), "4.0\n");
        assert_eq!(expand(&d, "{{#value t kind=x ms= col=name agg=count fmt=.0}}").unwrap(), "1\n");
        assert!(expand(&d, "{{#value t has=nope col=ms agg=max}}").is_err());
    }

    #[test]
    fn values_come_from_the_csv() {
        let d = repo(CSV);
        assert_eq!(expand(&d, "t {{#value t name=b col=ms}} s").unwrap(), "t 2.5 s\n");
        assert_eq!(expand(&d, "{{#value t kind=x col=ms agg=median fmt=.1}}").unwrap(), "2.0\n");
        assert_eq!(expand(&d, "{{#value t name=c col=base/ms fmt=x.1}}").unwrap(), "2.0×\n");
        assert_eq!(expand(&d, "{{#value t kind=x col=ms agg=count fmt=.0}}").unwrap(), "2\n");
        assert_eq!(expand(&d, "{{#value t kind=z col=ms agg=count fmt=.0}}").unwrap(), "0\n");
        assert_eq!(expand(&d, "{{#value t kind=z col=ms missing=n/a%20here}}").unwrap(), "n/a here\n");
        assert!(expand(&d, "{{#value t kind=z col=nope missing=n/a}}").is_err());
        assert_eq!(expand(&d, "{{#value t eq=name:kind col=ms agg=count fmt=.0}}").unwrap(), "0\n");
        assert_eq!(expand(&d, "{{#value t ne=ms:base col=ms agg=count fmt=.0}}").unwrap(), "3\n");
        assert_eq!(expand(&d, "{{#value t col=ms row=3 fmt=,.0}}").unwrap(), "10\n");
        assert_eq!(expand(&d, "{{#value t col=ms num=name:c den=name:a fmt=.1}}").unwrap(), "6.7\n");
        assert_eq!(format_number(1234567.0, ",.0").unwrap(), "1,234,567");
        assert_eq!(format_number(5.7e10, "e.1").unwrap(), "5.7 × 10<sup>10</sup>");
    }

    #[test]
    fn an_unknown_key_fails_with_page_and_line() {
        let d = repo(CSV);
        let e = format!("{:#}", expand(&d, "one\n{{#value t name=a col=nope}}").unwrap_err());
        assert!(e.starts_with("ch/page.md:2:") && e.contains("no column 'nope'"), "{e}");
        let e = format!("{:#}", expand(&d, "{{#value t name=zz col=ms}}").unwrap_err());
        assert!(e.contains("no row"), "{e}");
        let e = format!("{:#}", expand(&d, "\n\n{{#value nosuch col=ms}}").unwrap_err());
        assert!(e.starts_with("ch/page.md:3:") && e.contains("no data set 'nosuch'"), "{e}");
        let e = format!("{:#}", expand(&d, "{{#value t kind=x col=ms}}").unwrap_err());
        assert!(e.contains("2 rows match"), "{e}");
    }

    #[test]
    fn includes_are_checked_and_captioned() {
        let d = repo(CSV);
        let ok = expand(&d, "```rust\n{{#include ../../../src/a.rs:good}}\n```\n").unwrap();
        assert!(ok.contains("listing-caption") && ok.contains("src/a.rs") && ok.contains("good"), "{ok}");
        // The caption names the region's lines and links to them.
        assert!(ok.contains("<code>src/a.rs:2-2</code>") && ok.contains("src/a.rs#L2-L2\""), "{ok}");
        std::fs::write(
            d.path().join("book/book.toml"),
            "[preprocessor.lifesearch]\nrepository-url = \"https://example.org/r/blob/main/\"\n",
        )
        .unwrap();
        let linked = expand(&d, "```rust\n{{#include ../../../src/a.rs:good}}\n```\n").unwrap();
        assert!(linked.contains("href=\"https://example.org/r/blob/main/src/a.rs#L2-L2\""), "{linked}");
        std::fs::remove_file(d.path().join("book/book.toml")).unwrap();
        for (bad, why) in [
            ("../../../src/a.rs:missing", "no anchor 'missing'"),
            ("../../../src/a.rs:empty", "no anchor 'empty'"),
            ("../../../src/none.rs", "no such file"),
        ] {
            let e = format!(
                "{:#}",
                expand(&d, &format!("text\n```rust\n{{{{#include {bad}}}}}\n```\n")).unwrap_err()
            );
            assert!(e.starts_with("ch/page.md:3:") && e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn claims_are_checked_and_a_quick_run_only_warns() {
        let d = repo(CSV);
        let ok = expand(&d, "{{#claim \"c is slowest\" (t name=c col=ms) >= 3 * (t kind=x col=ms agg=max)}}")
            .unwrap();
        assert!(ok.contains(">c is slowest</span>") && !ok.contains("false"), "{ok}");
        assert!(expand(&d, "{{#claim \"x\" (t kind=x col=ms agg=median) < 2}}").is_err());
        assert!(expand(&d, "{{#claim \"x\" 1 <= 1}}").is_ok());
        for bad in [
            "{{#claim x (t name=c col=ms) > 1}}",
            "{{#claim \"x\" (t name=c col=ms) = 1}}",
            "{{#claim \"x\" (t name=c col=ms > 1}}",
            "{{#claim \"x\" 1 < 2 3}}",
        ] {
            assert!(expand(&d, bad).is_err(), "{bad}");
        }
        // The same false claim on data from a quick run: built, with a warning shown.
        std::fs::write(
            d.path().join("data/manifest.json"),
            r#"{"machine":{"cpu":"c","cores":1,"os":"o"},"experiments":{"t":{"mode":"quick",
                "fingerprint":"f","commit":"c","date":"d","seconds":1,"rows":1,"seeds":[],"solvers":[],"notes":[]}}}"#,
        )
        .unwrap();
        let warned = expand(&d, "{{#claim \"x\" (t kind=x col=ms agg=median) < 2}}").unwrap();
        assert!(warned.contains("claim false") && warned.contains("quick"), "{warned}");
    }

    /// An empty cell (a peer that was not installed) fails a full run's book
    /// and is shown as not measured in a quick run's, value and claim alike.
    #[test]
    fn an_empty_cell_fails_a_full_book_and_is_marked_in_a_quick_one() {
        let d = repo("name,kind,ms\na,x,1.5\np,x,\n");
        let value = "{{#value t name=p col=ms fmt=.2}}";
        let claim = "{{#claim \"a is ahead\" (t name=a col=ms) < (t name=p col=ms)}}";
        for text in [value, claim] {
            let e = format!("{:#}", expand(&d, text).unwrap_err());
            assert!(e.contains("column 'ms' is empty"), "{text}: {e}");
        }
        std::fs::write(
            d.path().join("data/manifest.json"),
            r#"{"machine":{"cpu":"c","cores":1,"os":"o"},"experiments":{"t":{"mode":"quick",
                "fingerprint":"f","commit":"c","date":"d","seconds":1,"rows":1,"seeds":[],"solvers":[],"notes":[]}}}"#,
        )
        .unwrap();
        assert_eq!(expand(&d, value).unwrap(), "(not measured in this run)\n");
        let warned = expand(&d, claim).unwrap();
        assert!(warned.contains("claim false") && warned.contains("(no row)"), "{warned}");
        assert_eq!(expand(&d, "{{#value t name=a col=ms fmt=.2}}").unwrap(), "1.50\n");
    }

    /// `{{#took}}` reads the manifest's seconds, sums several experiments,
    /// marks a time from a run that was not full, and refuses an unknown id.
    #[test]
    fn took_reads_the_manifest() {
        let d = repo(CSV);
        let entry = |mode: &str, secs: f64| {
            format!(
                r#"{{"mode":"{mode}","fingerprint":"f","commit":"c","date":"d","seconds":{secs},"rows":1,"seeds":[],"solvers":[],"notes":[]}}"#
            )
        };
        std::fs::write(
            d.path().join("data/manifest.json"),
            format!(
                r#"{{"machine":{{"cpu":"c","cores":1,"os":"o"}},"experiments":{{"a":{},"b":{},"q":{}}}}}"#,
                entry("full", 300.4),
                entry("full", 27.9),
                entry("quick", 2.0)
            ),
        )
        .unwrap();
        assert_eq!(expand(&d, "{{#took a}}").unwrap(), "5 min 00 s\n");
        assert_eq!(expand(&d, "{{#took a b}}").unwrap(), "5 min 28 s\n");
        assert_eq!(expand(&d, "{{#took b}}").unwrap(), "28 s\n");
        let q = expand(&d, "{{#took q}}").unwrap();
        assert!(q.starts_with("2 s") && q.contains("not a full run: q: quick"), "{q}");
        assert!(expand(&d, "{{#took nope}}").is_err());
        assert!(expand(&d, "{{#took}}").is_err());
        assert_eq!(duration_text(0.4), "under a second");
        assert_eq!(duration_text(3856.0), "1 h 04 min");
    }

    #[test]
    fn tex_becomes_mathml_outside_code() {
        let d = repo(CSV);
        let out = expand(&d, "a \\\\(x\\_1^2\\\\) b `\\\\(raw\\\\)`\n```\n\\\\(code\\\\)\n```\n").unwrap();
        assert!(out.contains("<math") && !out.contains("\\\\(x"), "{out}");
        assert!(out.contains("`\\\\(raw\\\\)`") && out.contains("\\\\(code\\\\)"), "{out}");
        assert!(expand(&d, "\\\\(x").is_err());
    }
}
