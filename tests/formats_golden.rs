//! Golden files in `tests/data/formats/`, written by hand from the specifications
//! (the WinLife manual for Life 1.05, Golly's and LifeWiki's conventions for the rest).

use lifesearch::error::Location;
use lifesearch::formats::{self, Format, Loaded, Pattern};
use lifesearch::life::Rule;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats").join(name)
}

fn load(name: &str) -> Loaded {
    formats::load(&data(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn text(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

fn parse(text: &str, ext: Option<&str>) -> Loaded {
    formats::parse(&Location::new("t.lif", None), text, ext).unwrap()
}

#[test]
fn winlife_file_with_descriptions_rule_blocks_and_crlf() {
    let raw = text("winlife.lif");
    assert!(raw.contains("\r\n"), "the golden file must use CR LF");
    let l = load("winlife.lif");
    assert_eq!(l.format, Format::Lif);
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    let p = &l.pattern;
    // Leading and trailing spaces of #D lines are ignored; an empty #D is kept.
    assert_eq!(
        p.comments,
        ["Two gliders and a block, written by hand", "from the WinLife manual's description.", ""]
    );
    // #R is survival/birth: 1, 2, 5 survive; 3, 6 give birth.
    let r = p.rule.unwrap();
    assert_eq!((r.survival, r.birth), ((1 << 1) | (1 << 2) | (1 << 5), (1 << 3) | (1 << 6)));
    assert_eq!(r, "B36/S125".parse::<Rule>().unwrap());
    // Three #P blocks (one after an empty line, one with a blank row '.'),
    // compared with the same cells listed by hand as Life 1.06.
    let expected = load("winlife.lif106").pattern;
    assert_eq!(p.live_set(), expected.live_set());
    assert_eq!(p.origin, (-3, -2));
    assert_eq!((p.grid.width(), p.grid.height()), (9, 9));
    // The same text with LF line ends reads the same.
    assert_eq!(parse(&raw.replace("\r\n", "\n"), Some("lif")).pattern, *p);
}

#[test]
fn winlife_file_rewritten_reads_back_the_same() {
    let p = load("winlife.lif").pattern;
    let w = formats::write(&p, Format::Lif).unwrap();
    assert!(w.warnings.is_empty());
    assert!(w.text.starts_with("#Life 1.05\r\n"));
    assert!(w.text.contains("\r\n#R 125/36\r\n"));
    let back = parse(&w.text, None);
    assert!(back.warnings.is_empty());
    assert_eq!(back.pattern, p);
}

#[test]
fn xlife_comments_and_extension() {
    let l = load("xlife_glider.life");
    assert_eq!(l.format, Format::Lif);
    assert!(l.warnings.is_empty(), "a .life file needs no #Life header: {:?}", l.warnings);
    assert_eq!(l.pattern.comments, ["A glider in Xlife notation", "second comment line"]);
    assert_eq!(l.pattern.rule, Some(Rule::CONWAY));
    assert_eq!(l.pattern.grid, load("glider.txt").pattern.grid);
    // The same text in a .lif file reads too, with a warning about the header.
    let as_lif = parse(&text("xlife_glider.life"), Some("lif"));
    assert_eq!(as_lif.pattern, l.pattern);
    assert_eq!(as_lif.warnings.len(), 1);
    assert!(as_lif.warnings[0].starts_with("t.lif:1: warning:"), "{:?}", as_lif.warnings);
}

#[test]
fn one_glider_in_five_formats() {
    let glider = |name: &str| {
        let l = load(name);
        assert!(l.warnings.is_empty(), "{name}: {:?}", l.warnings);
        l
    };
    let (lif, rle, cells, txt, l106) = (
        glider("glider.lif"),
        glider("glider.rle"),
        glider("glider.cells"),
        glider("glider.txt"),
        glider("glider.lif106"),
    );
    let formats = [&lif, &rle, &cells, &txt, &l106].map(|l| l.format);
    assert_eq!(formats, [Format::Lif, Format::Rle, Format::Cells, Format::Txt, Format::Lif106]);
    for l in [&lif, &rle, &cells, &l106] {
        assert_eq!(l.pattern.grid, txt.pattern.grid);
    }
    for l in [&lif, &rle, &l106] {
        assert_eq!(l.pattern.origin, (-1, -1));
    }
    for l in [&lif, &rle, &cells] {
        assert_eq!(l.pattern.name.as_deref(), Some("Glider"));
        assert_eq!(l.pattern.author.as_deref(), Some("Richard K. Guy"));
        assert_eq!(l.pattern.comments, ["The smallest spaceship."]);
    }
    assert_eq!(lif.pattern.rule, Some(Rule::CONWAY));
    assert_eq!(rle.pattern, lif.pattern);
}

#[test]
fn writers_reproduce_the_golden_files_byte_for_byte() {
    for (name, f) in [
        ("glider.rle", Format::Rle),
        ("gun.rle", Format::Rle),
        ("glider.cells", Format::Cells),
        ("glider.txt", Format::Txt),
        ("glider.lif106", Format::Lif106),
    ] {
        let p = load(name).pattern;
        assert_eq!(formats::write_pattern(&p, f).unwrap(), text(name), "{name}");
    }
    // Life 1.05 is written with CR LF.
    let p = load("glider.lif").pattern;
    assert_eq!(formats::write_pattern(&p, Format::Lif).unwrap(), text("glider.lif").replace('\n', "\r\n"));
}

#[test]
fn golly_rle_gun_matches_the_plaintext_gun() {
    let (rle, cells) = (load("gun.rle").pattern, load("gun.cells").pattern);
    assert_eq!(rle.grid, cells.grid);
    assert_eq!(rle.grid.population(), 36);
    assert_eq!(rle.rule, Some(Rule::CONWAY));
    // Plaintext holds no rule; converting it to RLE gives the gun minus its rule.
    let converted = formats::write_pattern(&cells, Format::Rle).unwrap();
    assert_eq!(converted, text("gun.rle").replace(", rule = B3/S23", ""));
}

#[test]
fn version_numbers() {
    let body = "#P 0 0\n*\n";
    assert!(parse(&format!("#Life 1.02\n{body}"), None).warnings.is_empty());
    assert!(parse(&format!("#Life 1.05\n{body}"), None).warnings.is_empty());
    let newer = parse(&format!("#Life 1.07\n{body}"), None);
    assert_eq!(newer.warnings.len(), 1);
    assert!(newer.warnings[0].contains("newer"), "{:?}", newer.warnings);
    assert_eq!(newer.pattern.grid.population(), 1);
}

#[test]
fn too_many_or_too_long_descriptions_are_warnings() {
    let mut s = "#Life 1.05\n".to_string();
    for i in 0..23 {
        s.push_str(&format!("#D line {i}\n"));
    }
    s.push_str(&format!("#D {}\n#P 0 0\n*\n", "x".repeat(79)));
    let l = parse(&s, None);
    assert_eq!(l.warnings.len(), 2, "{:?}", l.warnings);
    assert!(l.warnings[0].starts_with("t.lif:24: warning:"), "{:?}", l.warnings);
    assert!(l.warnings[1].starts_with("t.lif:25: warning:"), "{:?}", l.warnings);
    assert_eq!(l.pattern.comments.len(), 24);
    // The writer keeps to the limits again.
    let w = formats::write(&l.pattern, Format::Lif).unwrap();
    assert!(!w.warnings.is_empty());
    assert!(parse(&w.text, None).warnings.is_empty());
}

#[test]
fn rle_rule_names_and_grid_suffix() {
    let l = parse("x = 2, y = 1, rule = B36/S23:T200,200\n2o!\n", Some("rle"));
    assert_eq!(l.pattern.rule, Some(Rule::HILIFE));
    assert_eq!(l.warnings.len(), 1);
    let l = parse("#C hi\nx=1,y=1,rule=Life\no!\n", None);
    assert_eq!(l.format, Format::Rle);
    assert_eq!(l.pattern.rule, Some(Rule::CONWAY));
    assert_eq!(l.pattern.comments, ["hi"]);
    let l = parse("x = 3, y = 2, rule = 23/36\n$3\no!", None);
    assert_eq!(l.pattern.rule, Some(Rule::HILIFE));
    assert_eq!(l.pattern.grid.to_rows(), ["...", "***"]);
}

#[test]
fn detection_prefers_content_to_extension() {
    let rle = text("glider.rle");
    assert_eq!(parse(&rle, Some("lif")).format, Format::Rle);
    assert_eq!(parse(&text("glider.lif"), Some("rle")).format, Format::Lif);
    assert_eq!(parse(&text("glider.cells"), Some("txt")).format, Format::Cells);
    assert_eq!(parse(&text("glider.txt"), Some("cells")).format, Format::Cells);
    assert_eq!(parse(&text("glider.txt"), None).format, Format::Txt);
    assert_eq!(formats::detect("0 0\n1 1\n", None), Format::Lif106);
    assert_eq!(formats::detect("0 0\n1 1\n", Some("txt")), Format::Txt);
    let _: Pattern = formats::parse_pattern(&Location::new("x", None), &text("glider.lif106")).unwrap();
}

#[test]
fn byte_order_mark_and_headerless_xlife_rows() {
    let l = parse(&format!("\u{feff}{}", text("glider.lif")), None);
    assert_eq!(l.pattern, load("glider.lif").pattern);
    let x = parse("#C no #P here\n.*\n..*\n***\n", Some("life"));
    assert!(x.warnings.is_empty(), "{:?}", x.warnings);
    assert_eq!(x.pattern.grid, load("glider.txt").pattern.grid);
    assert_eq!(x.pattern.origin, (0, 0));
}
