//! Book tooling.
//!
//! Part I of the book follows Knuth's CWEB programs section by section. The
//! apparatus that CWEB computes (fragment names with their defining section,
//! "See also sections", "This code is used in section", the index of
//! identifiers and the list of changed sections) is computed here too, from a
//! small description per program (`book/src/knuth/<program>.toml`) and from
//! the Rust code that the sections include. [`apparatus`] writes the chapters,
//! [`check`] says which committed chapters are stale, and [`build_book`]
//! renders the book with mdBook, offline.

pub mod anchors;
pub mod fresh;
pub mod live;
pub mod manifest;
pub mod readme;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;

mod fragments;

/// The description of one CWEB program (one `.toml` file).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Program {
    /// Knuth's name, e.g. `SAT-LIFE`.
    pub program: String,
    /// The file stem of the chapter and of this description.
    pub slug: String,
    /// For a change file: the slug of the program it changes.
    #[serde(default)]
    pub base: Option<String>,
    /// Markdown before section 1.
    #[serde(default)]
    pub preface: String,
    #[serde(rename = "section")]
    pub sections: Vec<Section>,
}

/// One CWEB section.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    pub n: usize,
    pub title: String,
    /// Starred: changed by the change file.
    #[serde(default)]
    pub changed: bool,
    /// Unchanged from the base program: text, code and index entries come from there.
    #[serde(default)]
    pub same: bool,
    /// The named fragment this section's code defines or extends. Not typed:
    /// [`load_programs`] reads it from the `// ⟨Name⟩` comments of the anchors.
    #[serde(skip)]
    pub fragment: Option<String>,
    /// Named fragments that this section's code uses. Not typed: computed
    /// from which identifiers the code refers to (see `fragments.rs`).
    #[serde(skip)]
    pub uses: Vec<String>,
    /// Identifiers defined here (the index finds their uses in the code).
    #[serde(default)]
    pub defines: Vec<String>,
    /// Repository-relative `path:anchor` of the code shown.
    #[serde(default)]
    pub include: Vec<String>,
    /// The explanation, in Markdown.
    #[serde(default)]
    pub text: String,
    /// This is the index section: its body is generated.
    #[serde(default)]
    pub index: bool,
}

/// Where the descriptions and chapters of Part I live, relative to the repository root.
pub const PART_ONE: &str = "book/src/knuth";

/// Read every description in `book/src/knuth`, sorted by file name.
pub fn load_programs(root: &Path) -> Result<Vec<Program>> {
    let dir = root.join(PART_ONE);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("{}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    let mut programs = Vec::new();
    for p in paths {
        let text = std::fs::read_to_string(&p).with_context(|| format!("{}", p.display()))?;
        let prog: Program = toml::from_str(&text).with_context(|| format!("{}", p.display()))?;
        for (i, s) in prog.sections.iter().enumerate() {
            if s.n != i + 1 {
                bail!("{}: section {} is numbered {} (gap or disorder)", p.display(), i + 1, s.n);
            }
        }
        programs.push(prog);
    }
    fragments::compute(root, &mut programs)?;
    Ok(programs)
}

/// The lines of `path` between `ANCHOR: name` and `ANCHOR_END: name`, other anchor lines left out.
pub fn anchor_text(root: &Path, spec: &str) -> Result<String> {
    let (path, name) = spec.rsplit_once(':').with_context(|| format!("include '{spec}' has no anchor"))?;
    let text = std::fs::read_to_string(root.join(path)).with_context(|| format!("include '{spec}'"))?;
    match anchors::region(&text, name) {
        Some(out) if !out.trim().is_empty() => Ok(out),
        _ => bail!("include '{spec}': no such anchor, or it is empty"),
    }
}

/// A section as the chapter shows it, with what it inherits resolved.
struct Resolved<'a> {
    own: &'a Section,
    /// The section that holds the text and code (the base's for `same`).
    body: &'a Section,
}

fn resolve<'a>(prog: &'a Program, all: &'a [Program]) -> Result<Vec<Resolved<'a>>> {
    let base = match &prog.base {
        Some(slug) => {
            Some(all.iter().find(|p| &p.slug == slug).with_context(|| format!("no base '{slug}'"))?)
        }
        None => None,
    };
    let mut out = Vec::new();
    for s in &prog.sections {
        let body = if s.same {
            let b = base.with_context(|| format!("{} §{}: 'same' without a base", prog.slug, s.n))?;
            b.sections
                .get(s.n - 1)
                .with_context(|| format!("{} §{}: base has no such section", prog.slug, s.n))?
        } else {
            s
        };
        out.push(Resolved { own: s, body });
    }
    Ok(out)
}

fn section_ref(n: usize, changed: bool) -> String {
    format!("[{n}{}](#s{n})", if changed { "\\*" } else { "" })
}

fn list(refs: &[String]) -> String {
    match refs.len() {
        0 => String::new(),
        1 => refs[0].clone(),
        2 => format!("{} and {}", refs[0], refs[1]),
        _ => format!("{}, and {}", refs[..refs.len() - 1].join(", "), refs[refs.len() - 1]),
    }
}

/// True if `word` occurs in `text` as a whole identifier. Names of one or
/// two letters (Knuth's `a`..`g`) count only where they are called, `.a(`.
fn mentions(text: &str, word: &str) -> bool {
    if word.len() <= 2 {
        return text.contains(&format!(".{word}("));
    }
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

/// Render one chapter of Part I.
pub fn render(root: &Path, prog: &Program, all: &[Program]) -> Result<String> {
    let secs = resolve(prog, all)?;
    let changed: BTreeSet<usize> = secs.iter().filter(|s| s.own.changed).map(|s| s.own.n).collect();
    let star = |n: usize| changed.contains(&n);
    // Fragments: name -> sections that define or extend it; name -> sections that use it.
    let mut defined: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut used: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for s in &secs {
        if let Some(f) = &s.body.fragment {
            defined.entry(f).or_default().push(s.own.n);
        }
        for u in &s.body.uses {
            used.entry(u).or_default().push(s.own.n);
        }
    }
    for (name, users) in &used {
        if !defined.contains_key(name) {
            bail!("{}: §{} uses fragment ⟨{name}⟩, which no section defines", prog.slug, users[0]);
        }
    }
    let frag = |name: &str| -> String {
        let n = defined[name][0];
        format!("⟨*{name}* {}⟩", section_ref(n, star(n)))
    };
    // Code per section, for the index.
    let mut code: BTreeMap<usize, String> = BTreeMap::new();
    for s in &secs {
        let mut c = String::new();
        for inc in &s.body.include {
            c.push_str(&anchor_text(root, inc)?);
        }
        code.insert(s.own.n, c);
    }

    let mut md = String::new();
    let _ =
        writeln!(md, "<!-- Generated by `bookgen apparatus` from {}.toml: edit that file. -->\n", prog.slug);
    let _ = writeln!(md, "# {}\n", prog.program);
    if !prog.preface.trim().is_empty() {
        let _ = writeln!(md, "{}\n", prog.preface.trim());
    }
    for s in &secs {
        let n = s.own.n;
        let mark = if star(n) { "\\*" } else { "" };
        let _ = writeln!(md, "## {n}.{mark} {} {{#s{n}}}\n", s.own.title);
        if s.own.index {
            md.push_str(&index_body(prog, &secs, &code, &defined, &used, &changed));
            continue;
        }
        if s.own.same {
            let base = prog.base.as_deref().unwrap_or_default();
            let base_name = all.iter().find(|p| p.slug == base).map(|p| p.program.as_str()).unwrap_or(base);
            let _ = writeln!(
                md,
                "*Unchanged.* This is {base_name} [§{n}]({base}.md#s{n}), reused as it stands.\n"
            );
        } else if !s.body.text.trim().is_empty() {
            let _ = writeln!(md, "{}\n", s.body.text.trim());
        }
        if let Some(f) = &s.body.fragment {
            let first = defined[f.as_str()][0];
            let op = if first == n { "≡" } else { "+≡" };
            let _ = writeln!(md, "{} {op}\n", frag(f));
        }
        if !s.own.same {
            for inc in &s.body.include {
                let _ = writeln!(md, "```rust\n{{{{#include ../../../{inc}}}}}\n```\n");
            }
        }
        if !s.body.uses.is_empty() {
            let names: Vec<String> = s.body.uses.iter().map(|u| frag(u)).collect();
            let _ = writeln!(md, "Uses {}.\n", list(&names));
        }
        if let Some(f) = &s.body.fragment
            && defined[f.as_str()][0] == n
        {
            let others: Vec<String> =
                defined[f.as_str()][1..].iter().map(|&m| section_ref(m, star(m))).collect();
            if !others.is_empty() {
                let _ = writeln!(md, "See also sections {}.\n", list(&others));
            }
            let users: Vec<String> =
                used.get(f.as_str()).into_iter().flatten().map(|&m| section_ref(m, star(m))).collect();
            if !users.is_empty() {
                let word = if users.len() == 1 { "section" } else { "sections" };
                let _ = writeln!(md, "This code is used in {word} {}.\n", list(&users));
            }
        }
    }
    Ok(md)
}

/// An index entry: the sections that define an identifier and those that use it.
type Entry = (BTreeSet<usize>, BTreeSet<usize>);

fn index_body(
    prog: &Program,
    secs: &[Resolved],
    code: &BTreeMap<usize, String>,
    defined: &BTreeMap<&str, Vec<usize>>,
    used: &BTreeMap<&str, Vec<usize>>,
    changed: &BTreeSet<usize>,
) -> String {
    let star = |n: usize| changed.contains(&n);
    let mut md = String::new();
    if prog.base.is_some() {
        let refs: Vec<String> = changed.iter().map(|&n| section_ref(n, true)).collect();
        let _ =
            writeln!(md, "The following sections were changed by the change file: {}.\n", refs.join(", "));
    }
    let _ = writeln!(
        md,
        "Each identifier is listed with the sections that define it (in bold) and the \
         sections whose code uses it.\n"
    );
    // identifier -> (defining sections, using sections)
    let mut idx: BTreeMap<String, Entry> = BTreeMap::new();
    for s in secs {
        for d in &s.body.defines {
            idx.entry(d.clone()).or_default().0.insert(s.own.n);
        }
    }
    for (name, (defs, uses)) in idx.iter_mut() {
        for (&n, c) in code {
            if !defs.contains(&n) && mentions(c, name) {
                uses.insert(n);
            }
        }
    }
    let mut entries: Vec<(&String, &Entry)> = idx.iter().collect();
    entries.sort_by_key(|(k, _)| (k.to_lowercase(), (*k).clone()));
    for (name, (defs, uses)) in entries {
        let mut all: Vec<(usize, bool)> = defs.iter().map(|&n| (n, true)).collect();
        all.extend(uses.iter().map(|&n| (n, false)));
        all.sort();
        let refs: Vec<String> = all
            .iter()
            .map(
                |&(n, d)| {
                    if d { format!("**{}**", section_ref(n, star(n))) } else { section_ref(n, star(n)) }
                },
            )
            .collect();
        let _ = writeln!(md, "- `{name}`: {}.", refs.join(", "));
    }
    md.push('\n');
    let _ = writeln!(md, "The named fragments:\n");
    for (name, secs_of) in defined {
        let defs: Vec<String> = secs_of.iter().map(|&n| section_ref(n, star(n))).collect();
        let users: Vec<String> =
            used.get(name).into_iter().flatten().map(|&n| section_ref(n, star(n))).collect();
        let tail = match users.len() {
            0 => String::new(),
            1 => format!(" Used in section {}.", users[0]),
            _ => format!(" Used in sections {}.", list(&users)),
        };
        let _ = writeln!(md, "- ⟨*{name}* {}⟩{tail}", defs.join(", "));
    }
    md
}

/// Every chapter of Part I as it should be: (path, contents).
pub fn expected(root: &Path) -> Result<Vec<(PathBuf, String)>> {
    let programs = load_programs(root)?;
    let mut out = Vec::new();
    for p in &programs {
        out.push((root.join(PART_ONE).join(format!("{}.md", p.slug)), render(root, p, &programs)?));
    }
    Ok(out)
}

/// Write the chapters of Part I; returns the files written.
pub fn apparatus(root: &Path) -> Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (path, text) in expected(root)? {
        if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            write_whole(&path, &text)?;
            written.push(path);
        }
    }
    Ok(written)
}

/// Write `text` to `path` through a temporary file beside it and a rename,
/// so a failed run never leaves a half-written file.
pub(crate) fn write_whole(path: &Path, text: &str) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).with_context(|| format!("{}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("{}", path.display()))?;
    Ok(())
}

/// The chapters whose committed text differs from what [`apparatus`] would write.
pub fn check(root: &Path) -> Result<Vec<PathBuf>> {
    Ok(expected(root)?
        .into_iter()
        .filter(|(path, text)| std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()))
        .map(|(path, _)| path)
        .collect())
}

/// Build the book at `root/book` into `root/book/build` (as `book.toml` says).
/// Fails if a page still holds a literal `{{#include` (mdBook leaves an
/// include it could not resolve as raw text).
pub fn build_book(root: &Path) -> Result<PathBuf> {
    build_book_to(root, None)
}

/// Like [`build_book`], into `dir` instead when given.
pub fn build_book_to(root: &Path, dir: Option<&Path>) -> Result<PathBuf> {
    let mut book = mdbook_driver::MDBook::load(root.join("book")).map_err(|e| anyhow::anyhow!("{e:#}"))?;
    if let Some(d) = dir {
        book.config.build.build_dir = d.to_path_buf();
    }
    // book.toml places `lifesearch` before mdBook's `links`; this replaces the
    // command it names there with the built-in one.
    book.with_preprocessor(live::Live::new(root));
    let out = book.root.join(&book.config.build.build_dir);
    book.build().map_err(|e| anyhow::anyhow!("building the book: {e:#}"))?;
    let bad = unresolved_includes(&out)?;
    if !bad.is_empty() {
        bail!("pages with an unresolved {{{{#include: {}", bad.join(", "));
    }
    Ok(out)
}

/// The HTML pages under `dir` that contain a literal `{{#include`.
pub fn unresolved_includes(dir: &Path) -> Result<Vec<String>> {
    let mut bad = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("{}", d.display()))? {
            let p = e?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "html") {
                let text = std::fs::read_to_string(&p).with_context(|| format!("{}", p.display()))?;
                if text.contains("{{#include") {
                    bad.push(p.display().to_string());
                }
            }
        }
    }
    bad.sort();
    Ok(bad)
}

/// The repository root: the nearest ancestor of `start` holding `book/book.toml`.
pub fn find_root(start: &Path) -> Result<PathBuf> {
    start
        .ancestors()
        .find(|d| d.join("book/book.toml").is_file())
        .map(Path::to_path_buf)
        .with_context(|| format!("no book/book.toml above {}", start.display()))
}
