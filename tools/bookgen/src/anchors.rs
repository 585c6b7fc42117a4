//! The one parser of anchor regions (a `//` comment line with `ANCHOR:` and
//! a name opens one, `ANCHOR_END:` closes it) and of `{{#include FILE[:ANCHOR]}}` directives. Std only: bookgen uses it as a
//! module, and `tests/book_sync.rs` (which runs with the crate's own tests,
//! without bookgen's dependencies) includes this very file with `#[path]`.

use std::collections::BTreeMap;

/// On a `//` comment line: `Some((true, name))` where an anchor `name`
/// opens, `Some((false, name))` where it closes.
pub fn marker(line: &str) -> Option<(bool, &str)> {
    for (m, start) in [("ANCHOR_END:", false), ("ANCHOR:", true)] {
        if let Some(i) = line.find(m)
            && line[..i].trim_end().ends_with("//")
        {
            return Some((start, line[i + m.len()..].trim()));
        }
    }
    None
}

/// The lines inside the anchor region `name` (other anchor lines left out);
/// `None` if there is no such anchor.
pub fn region(text: &str, name: &str) -> Option<String> {
    let (mut inside, mut found, mut out) = (false, false, String::new());
    for line in text.lines() {
        match marker(line) {
            Some((true, n)) => {
                inside |= n == name;
                found |= n == name;
            }
            Some((false, n)) => inside &= n != name,
            None if inside => {
                out.push_str(line);
                out.push('\n');
            }
            None => {}
        }
    }
    found.then_some(out)
}

/// The first and last line (1-based) of the anchor region `name`, other
/// anchors' marker lines left out: what a listing caption links to.
pub fn lines(text: &str, name: &str) -> Option<(usize, usize)> {
    let (mut first, mut last, mut inside) = (None, None, false);
    for (i, line) in text.lines().enumerate() {
        match marker(line) {
            Some((open, n)) if n == name => inside = open,
            Some(_) => {}
            None if inside => {
                first.get_or_insert(i + 1);
                last = Some(i + 1);
            }
            None => {}
        }
    }
    Some((first?, last?))
}

/// The anchors of one file: name -> (non-blank lines inside, line of its
/// start). Errors (line, message) for unbalanced or duplicate anchors.
#[allow(clippy::type_complexity)]
pub fn parse(text: &str) -> Result<BTreeMap<String, (usize, usize)>, Vec<(usize, String)>> {
    let (mut found, mut open, mut errors) = (BTreeMap::new(), BTreeMap::<String, usize>::new(), Vec::new());
    let mut content: BTreeMap<String, usize> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        match marker(line) {
            Some((true, name)) => {
                if found.contains_key(name) || open.contains_key(name) {
                    errors.push((n, format!("duplicate anchor '{name}'")));
                } else {
                    open.insert(name.to_string(), n);
                    content.insert(name.to_string(), 0);
                }
            }
            Some((false, name)) => match open.remove(name) {
                Some(start) => {
                    found.insert(name.to_string(), (content[name], start));
                }
                None => errors.push((n, format!("ANCHOR_END '{name}' without its ANCHOR"))),
            },
            None if !line.trim().is_empty() => {
                for name in open.keys() {
                    *content.entry(name.clone()).or_default() += 1;
                }
            }
            None => {}
        }
    }
    for (name, line) in open {
        errors.push((line, format!("ANCHOR '{name}' is never closed")));
    }
    if errors.is_empty() { Ok(found) } else { Err(errors) }
}

/// The `{{#include ...}}` (and `{{#rustdoc_include ...}}`) directives of a
/// page: (line, argument). An include escaped with `\` is mdBook's literal text.
pub fn includes(text: &str) -> Vec<(usize, String)> {
    let mut v = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("{{#include ").or_else(|| rest.find("{{#rustdoc_include ")) {
            let escaped = rest[..at].ends_with('\\');
            let after = &rest[at..];
            let arg_start = after.find(' ').unwrap_or(0) + 1;
            let Some(end) = after.find("}}") else { break };
            if !escaped {
                v.push((i + 1, after[arg_start..end].trim().to_string()));
            }
            rest = &after[end..];
        }
    }
    v
}

/// An include argument split into the file and an anchor (`None` for whole
/// files and line ranges such as `FILE:3:9`).
pub fn split_include(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once(':') {
        None => (arg, None),
        Some((file, sel)) if sel.split(':').all(|p| p.chars().all(|c| c.is_ascii_digit())) => (file, None),
        Some((file, sel)) => (file, Some(sel)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_includes_and_balance() {
        // Written with @begin/@end so that this file holds no anchors itself.
        let t = |s: &str| {
            s.replace("@begin", &format!("// {}:", "ANCHOR"))
                .replace("@end", &format!("// {}:", "ANCHOR_END"))
        };
        let text = &t("a\n@begin x\nb\n@begin y\nc\n@end y\n@end x\n");
        assert_eq!(region(text, "x").unwrap(), "b\nc\n");
        assert_eq!(region(text, "y").unwrap(), "c\n");
        assert!(region(text, "z").is_none());
        let a = parse(text).unwrap();
        assert_eq!(a["x"], (2, 2));
        assert!(parse(&t("@begin x\n")).is_err());
        assert!(parse(&t("@end x\n")).is_err());
        assert!(parse(&t("@begin x\n@end x\n@begin x\n@end x\n")).is_err());
        assert_eq!(includes("x {{#include ../a.rs:b}} y"), vec![(1, "../a.rs:b".to_string())]);
        assert!(includes("mdBook leaves \\{{#include a.rs:b}} alone").is_empty());
        assert_eq!(split_include("a.rs:b"), ("a.rs", Some("b")));
        assert_eq!(split_include("a.rs:3:9"), ("a.rs", None));
    }
}
