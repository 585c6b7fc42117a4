//! Part I's named fragments, computed from the code rather than typed.
//!
//! In CWEB a section's code is either unnamed (the program itself) or defines
//! or extends a named fragment such as ⟨*Subroutines*⟩, and CWEB lists, under
//! each fragment, the sections that use it. Here the fragment of a section is
//! the comment on the line right after the opening `ANCHOR:` line of the
//! code it shows, as in `src/knuth/sat_life.rs`:
//!
//! ```text
//! // ⟨Process the command line⟩
//! ```
//!
//! and a section *uses* fragment F when its code refers to an identifier (a
//! function or method called, a type, trait or constant named) that is defined
//! in the code of a section whose fragment is F, other than F itself.
//! Definitions are found by scanning for `fn`, `struct`, `enum`, `trait`,
//! `type`, `const` and `static`; comments and string literals are left out of
//! the scan. A function counts as referred to where it is called (`name(`);
//! names of one or two letters (Knuth's `a`..`g`) only as method calls,
//! `.a(`, as in the index.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use anyhow::{Context, Result, bail};

use super::anchors::marker;
use super::{Program, anchor_text, resolve};

/// What the code says about one section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Relation {
    /// The fragment that the section defines or extends; `None` for unnamed code.
    pub fragment: Option<String>,
    /// The fragments that the section's code uses, in the order of their first definition.
    pub uses: Vec<String>,
}

/// The fragment comment that opens anchor `spec` (`path:anchor`): the line
/// right after the anchor's opening `ANCHOR:` line, of the form `// ⟨Name⟩`. `None` if that
/// line is something else; an error if a fragment comment appears anywhere
/// else in the anchor.
pub fn anchor_fragment(root: &Path, spec: &str) -> Result<Option<String>> {
    let (path, name) = spec.rsplit_once(':').with_context(|| format!("include '{spec}' has no anchor"))?;
    let text = std::fs::read_to_string(root.join(path)).with_context(|| format!("include '{spec}'"))?;
    let mut lines = text.lines().skip_while(|l| marker(l) != Some((true, name)));
    if lines.next().is_none() {
        bail!("include '{spec}': no such anchor");
    }
    let first = lines.next().and_then(fragment_comment);
    for (i, line) in lines.take_while(|l| marker(l) != Some((false, name))).enumerate() {
        if fragment_comment(line).is_some() {
            bail!(
                "{spec}: the fragment comment `{}` is on line {} of the anchor; it belongs on the line \
                 right after the opening `ANCHOR: {name}` line",
                line.trim(),
                i + 2
            );
        }
    }
    Ok(first.map(str::to_string))
}

/// `Name` if `line` is `// ⟨Name⟩` (indented or not).
fn fragment_comment(line: &str) -> Option<&str> {
    let name = line.trim().strip_prefix("//")?.trim().strip_prefix('⟨')?.strip_suffix('⟩')?.trim();
    (!name.is_empty()).then_some(name)
}

/// The fragment of a section that shows the anchors `includes`: the one their
/// comments name. All of them must name the same fragment, or none may.
fn section_fragment(root: &Path, includes: &[String]) -> Result<Option<String>> {
    let mut named: Vec<(&String, String)> = Vec::new();
    let mut bare: Vec<&String> = Vec::new();
    for inc in includes {
        match anchor_fragment(root, inc)? {
            Some(f) => named.push((inc, f)),
            None => bare.push(inc),
        }
    }
    let Some((first_inc, first)) = named.first() else { return Ok(None) };
    if let Some(inc) = bare.first() {
        bail!(
            "{inc}: no fragment comment; add `// ⟨{first}⟩` right after its ANCHOR line (the section \
             also shows {first_inc}, which names ⟨{first}⟩)"
        );
    }
    if let Some((inc, f)) = named.iter().find(|(_, f)| f != first) {
        bail!("{inc} names fragment ⟨{f}⟩ but {first_inc}, shown in the same section, names ⟨{first}⟩");
    }
    Ok(Some(first.clone()))
}

/// One section's code, ready to relate: its fragment, and its code
/// without comments or string literals.
pub struct Unit {
    pub fragment: Option<String>,
    pub code: String,
}

/// Read the sections `(n, includes)`: their fragments and their code.
pub fn units(root: &Path, sections: &[(usize, &[String])]) -> Result<Vec<Unit>> {
    let mut out = Vec::new();
    for &(n, includes) in sections {
        let fragment = section_fragment(root, includes).with_context(|| format!("§{n}"))?;
        let mut code = String::new();
        for inc in includes {
            code.push_str(&anchor_text(root, inc)?);
        }
        out.push(Unit { fragment, code: strip(&code) });
    }
    Ok(out)
}

/// The code without `//` comments and without the contents of string literals.
fn strip(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut chars = code.chars().peekable();
    let (mut in_str, mut in_comment) = (false, false);
    while let Some(c) = chars.next() {
        if in_comment {
            if c == '\n' {
                in_comment = false;
                out.push(c);
            }
        } else if in_str {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => {
                    in_str = false;
                    out.push(c);
                }
                '\n' => out.push(c),
                _ => {}
            }
        } else if c == '/' && chars.peek() == Some(&'/') {
            in_comment = true;
        } else if c == '"' {
            in_str = true;
            out.push(c);
        } else if c == '\'' {
            // A char literal ('x', '\n', '"') is dropped; a lifetime ('a) is kept.
            let rest: Vec<char> = chars.clone().take(12).collect();
            let len = if rest.first() == Some(&'\\') {
                rest.iter().skip(2).position(|&d| d == '\'').map(|i| i + 3)
            } else if rest.get(1) == Some(&'\'') {
                Some(2)
            } else {
                None
            };
            match len {
                Some(len) => {
                    for _ in 0..len {
                        chars.next();
                    }
                    out.push_str("' '");
                }
                None => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// How a name is defined, which decides what counts as a reference to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Def {
    /// A function or method: referred to where it is called.
    Fn,
    /// A type, trait, constant or static: referred to wherever it is named.
    Item,
}

/// An identifier of `code`: its byte offset and text.
fn idents(code: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut iter = code.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        if c.is_alphanumeric() || c == '_' {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = iter.peek() {
                if d.is_alphanumeric() || d == '_' {
                    end = j + d.len_utf8();
                    iter.next();
                } else {
                    break;
                }
            }
            if !c.is_ascii_digit() {
                out.push((i, &code[i..end]));
            }
        }
    }
    out
}

/// The names that `code` defines, with the offsets of the defining occurrences.
fn definitions(code: &str) -> (BTreeMap<String, Def>, BTreeSet<usize>) {
    let ids = idents(code);
    let (mut defs, mut at) = (BTreeMap::new(), BTreeSet::new());
    for w in ids.windows(2) {
        let ((_, kw), (i, name)) = (w[0], w[1]);
        let def = match kw {
            "fn" => Def::Fn,
            "struct" | "enum" | "trait" | "type" | "static" | "union" => Def::Item,
            "const" if name != "fn" => Def::Item,
            _ => continue,
        };
        if matches!(name, "mut" | "fn") {
            continue;
        }
        let e = defs.entry(name.to_string()).or_insert(def);
        *e = (*e).min(def);
        at.insert(i);
    }
    (defs, at)
}

/// Does the occurrence of `name` at byte `i` of `code` refer to a definition of kind `def`?
fn refers(code: &str, i: usize, name: &str, def: Def) -> bool {
    let after = code[i + name.len()..].trim_start();
    match def {
        Def::Item => true,
        Def::Fn if name.len() <= 2 => code[..i].ends_with('.') && after.starts_with('('),
        Def::Fn => after.starts_with('(') || after.starts_with("::<"),
    }
}

/// The fragment and the used fragments of every unit, in order.
pub fn relate(units: &[Unit]) -> Vec<Relation> {
    let defs: Vec<(BTreeMap<String, Def>, BTreeSet<usize>)> =
        units.iter().map(|u| definitions(&u.code)).collect();
    // name -> (kind, the units that define it)
    let mut by_name: BTreeMap<&str, Vec<(usize, Def)>> = BTreeMap::new();
    for (k, (d, _)) in defs.iter().enumerate() {
        for (name, &def) in d {
            by_name.entry(name).or_default().push((k, def));
        }
    }
    // Fragments in the order of their first definition.
    let mut order: Vec<&str> = Vec::new();
    for u in units {
        if let Some(f) = &u.fragment
            && !order.contains(&f.as_str())
        {
            order.push(f);
        }
    }
    let mut out = Vec::new();
    for (k, u) in units.iter().enumerate() {
        let (own, at) = &defs[k];
        let mut used: BTreeSet<&str> = BTreeSet::new();
        for (i, name) in idents(&u.code) {
            if at.contains(&i) || own.contains_key(name) {
                continue;
            }
            for &(d, def) in by_name.get(name).into_iter().flatten() {
                if let Some(f) = &units[d].fragment
                    && u.fragment.as_ref() != Some(f)
                    && refers(&u.code, i, name, def)
                {
                    used.insert(f);
                }
            }
        }
        let uses = order.iter().filter(|f| used.contains(**f)).map(|f| f.to_string()).collect();
        out.push(Relation { fragment: u.fragment.clone(), uses });
    }
    out
}

/// The relation of every section of `prog` (an index section, or a section
/// without code, has an empty one). Sections reused from a base program
/// count with the base's code.
fn program_relations(root: &Path, prog: &Program, all: &[Program]) -> Result<Vec<Relation>> {
    let secs = resolve(prog, all)?;
    let list: Vec<(usize, &[String])> = secs.iter().map(|s| (s.own.n, s.body.include.as_slice())).collect();
    let units = units(root, &list).with_context(|| format!("{}.toml", prog.slug))?;
    Ok(relate(&units))
}

/// Fill in `fragment` and `uses` of every section of every program from the
/// code. A section reused unchanged (`same`) shows its base's apparatus, so
/// the code must relate it the same way in both programs.
pub fn compute(root: &Path, programs: &mut [Program]) -> Result<()> {
    let mut rels = Vec::new();
    for p in programs.iter() {
        rels.push(program_relations(root, p, programs)?);
    }
    for (pi, p) in programs.iter().enumerate() {
        for s in p.sections.iter().filter(|s| s.same) {
            let base = p.base.as_deref().unwrap_or_default();
            let bi =
                programs.iter().position(|b| b.slug == base).with_context(|| format!("no base '{base}'"))?;
            let (here, there) = (&rels[pi][s.n - 1], &rels[bi][s.n - 1]);
            if here != there {
                bail!(
                    "{} §{}: reused unchanged from {base}, but its code uses {:?} here and {:?} there; \
                     change the section instead",
                    p.slug,
                    s.n,
                    here.uses,
                    there.uses
                );
            }
        }
    }
    for (p, rel) in programs.iter_mut().zip(rels) {
        for (s, r) in p.sections.iter_mut().zip(rel) {
            if !s.same {
                s.fragment = r.fragment;
                s.uses = r.uses;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system's temporary directory.
    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("bookgen-fragments-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("src")).unwrap();
        d
    }

    /// Two anchors, `@begin`/`@end` standing for the anchor markers (the
    /// real ones would make this file's anchors unbalanced for `book_sync`).
    const TWO: &str = "\
@begin outline
// ⟨The outline⟩
fn main() {
    let n = helper(3) + LIMIT;
    // helper_in_a_comment(1) is no use
    println!(\"helper(2) in a string is no use either\");
}
@end outline

@begin helpers
// ⟨Subroutines⟩
const LIMIT: usize = 2;
fn helper(k: usize) -> usize {
    k + LIMIT
}
fn helper_in_a_comment(k: usize) -> usize {
    k
}
@end helpers
";

    /// `text` with the anchor markers spelt out.
    fn source(text: &str) -> String {
        let marker = |m: &str| format!("//{m}");
        text.replace("@begin", &marker(" ANCHOR:")).replace("@end", &marker(" ANCHOR_END:"))
    }

    fn inc(spec: &str) -> Vec<String> {
        vec![spec.to_string()]
    }

    #[test]
    fn uses_and_used_in_come_from_calls() {
        let root = scratch("two");
        std::fs::write(root.join("src/two.rs"), source(TWO)).unwrap();
        let (a, b) = (inc("src/two.rs:outline"), inc("src/two.rs:helpers"));
        let units = units(&root, &[(1, &a), (2, &b)]).unwrap();
        let rel = relate(&units);
        assert_eq!(rel[0].fragment.as_deref(), Some("The outline"));
        assert_eq!(rel[0].uses, ["Subroutines"]);
        assert_eq!(rel[1].fragment.as_deref(), Some("Subroutines"));
        assert!(rel[1].uses.is_empty(), "a fragment's own names are no use: {:?}", rel[1].uses);
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn comments_strings_and_field_names_are_no_use() {
        let code = "fn a(&self) { self.bounds.x; let s = \"f()\"; let c = '\"'; } // g()\n";
        let units = [
            Unit { fragment: Some("One".into()), code: strip(code) },
            Unit { fragment: Some("Two".into()), code: strip("fn bounds() {}\nfn f() {}\nfn g() {}\n") },
        ];
        assert!(relate(&units)[0].uses.is_empty());
        // Short names count only as method calls.
        let units = [
            Unit { fragment: None, code: strip("fn x(e: E) { e.g(1); }") },
            Unit { fragment: Some("Two".into()), code: strip("fn g(&self, k: u8) {}") },
        ];
        assert_eq!(relate(&units)[0].uses, ["Two"]);
    }

    #[test]
    fn a_missing_fragment_comment_names_file_and_anchor() {
        let root = scratch("missing");
        let text = source(&TWO.replace("// ⟨Subroutines⟩\n", ""));
        std::fs::write(root.join("src/two.rs"), text).unwrap();
        // Shown in one section with an anchor that names its fragment.
        let both = vec!["src/two.rs:outline".to_string(), "src/two.rs:helpers".to_string()];
        let err = units(&root, &[(1, &both)])
            .err()
            .map(|e| format!("{e:#}"))
            .expect("a missing comment is an error");
        assert!(err.contains("src/two.rs:helpers"), "{err}");
        assert!(err.contains("no fragment comment"), "{err}");
        assert!(err.contains("// ⟨The outline⟩"), "{err}");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn a_misplaced_fragment_comment_is_an_error() {
        let root = scratch("misplaced");
        let text = TWO.replace(
            "// ⟨Subroutines⟩\nconst LIMIT: usize = 2;\n",
            "const LIMIT: usize = 2;\n// ⟨Subroutines⟩\n",
        );
        std::fs::write(root.join("src/two.rs"), source(&text)).unwrap();
        let err = anchor_fragment(&root, "src/two.rs:helpers").unwrap_err().to_string();
        assert!(err.contains("src/two.rs:helpers") && err.contains("right after"), "{err}");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn disagreeing_fragment_comments_are_an_error() {
        let root = scratch("disagree");
        std::fs::write(root.join("src/two.rs"), source(TWO)).unwrap();
        let both = vec!["src/two.rs:outline".to_string(), "src/two.rs:helpers".to_string()];
        let err =
            units(&root, &[(1, &both)]).err().map(|e| format!("{e:#}")).expect("two names are an error");
        assert!(err.contains("⟨Subroutines⟩") && err.contains("⟨The outline⟩"), "{err}");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn strip_keeps_lifetimes_and_drops_char_literals() {
        assert_eq!(strip("fn f<'a>(x: &'a str) -> char { 'y' }"), "fn f<'a>(x: &'a str) -> char { ' ' }");
        assert_eq!(strip("let q = '\\''; g()"), "let q = ' '; g()");
        assert_eq!(strip("s(\"a\\\"b\") // c\nd"), "s(\"\") \nd");
    }
}
