//! Byte-for-byte comparison with the output of Knuth's own programs.
//!
//! `tests/data/knuth/*.out.gz` were produced by compiling a transcription of
//! Knuth's C (from the CWEB listings, corrected per the seeds' ERRATA) and
//! running it; the C itself is not part of this repository. File names say
//! the program and its arguments: `sat-life-NAME-tT` (input `in/sat-life-NAME.txt`),
//! `grid-cycle-M-N-R`, `gridquad-cycle-M-N-R`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use lifesearch::error::Location;
use lifesearch::knuth::{self, grid_cycle, gridquad_cycle, sat_life};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/knuth")
}

fn gunzip(path: &Path) -> Vec<u8> {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(f).read_to_end(&mut out).unwrap();
    out
}

/// Every golden case: (file stem, program, arguments, stdin).
fn cases() -> Vec<(String, String, Vec<String>, String)> {
    let mut v = Vec::new();
    for entry in std::fs::read_dir(data_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let Some(stem) = name.strip_suffix(".out.gz") else { continue };
        if let Some(rest) = stem.strip_prefix("sat-life-") {
            let (pat, t) = rest.rsplit_once("-t").unwrap();
            let input = std::fs::read_to_string(data_dir().join(format!("in/sat-life-{pat}.txt"))).unwrap();
            v.push((stem.to_string(), "sat-life".to_string(), vec![t.to_string()], input));
        } else {
            let (prog, nums) = if let Some(n) = stem.strip_prefix("gridquad-cycle-") {
                ("gridquad-cycle", n)
            } else {
                ("grid-cycle", stem.strip_prefix("grid-cycle-").unwrap())
            };
            let args = nums.split('-').map(str::to_string).collect();
            v.push((stem.to_string(), prog.to_string(), args, String::new()));
        }
    }
    v.sort();
    v
}

fn library_output(prog: &str, args: &[String], input: &str) -> String {
    let num = |i: usize| args[i].parse::<i64>().unwrap();
    let listing = match prog {
        "sat-life" => {
            let g = sat_life::read_pattern(&Location::new("<stdin>", None), input).unwrap();
            sat_life::listing(&g, num(0)).unwrap()
        }
        "grid-cycle" => grid_cycle::listing(num(0), num(1), num(2)).unwrap(),
        _ => gridquad_cycle::listing(num(0), num(1), num(2)).unwrap(),
    };
    knuth::write_knuth(&listing)
}

fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}: ours {x:?}, Knuth's {y:?}", i + 1);
        }
    }
    format!("ours has {} lines, Knuth's {}", a.lines().count(), b.lines().count())
}

#[test]
fn library_matches_knuth_byte_for_byte() {
    let cases = cases();
    assert!(cases.len() >= 50, "golden data missing: {} cases", cases.len());
    for (stem, prog, args, input) in cases {
        let want = String::from_utf8(gunzip(&data_dir().join(format!("{stem}.out.gz")))).unwrap();
        let got = library_output(&prog, &args, &input);
        assert!(got == want, "{stem}: {}", first_difference(&got, &want));
    }
}

fn run_cli(args: &[&str], stdin: &str) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_lifesearch"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.code().unwrap_or(-1), out.stdout, String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn cli_matches_knuth_byte_for_byte() {
    for stem in
        ["sat-life-glider-t0", "grid-cycle-3-3-2", "gridquad-cycle-5-4-4", "sat-life-ragged-blank-lines-t3"]
    {
        let (_, prog, args, input) = cases().into_iter().find(|c| c.0 == stem).unwrap();
        let mut argv = vec!["knuth", prog.as_str()];
        argv.extend(args.iter().map(String::as_str));
        let (code, out, err) = run_cli(&argv, &input);
        assert_eq!(code, 0, "{stem}: {err}");
        assert!(out == gunzip(&data_dir().join(format!("{stem}.out.gz"))), "{stem}: CLI output differs");
    }
}

#[test]
fn cli_rejects_bad_input_with_one_line_and_status_2() {
    let bad: [(&[&str], &str, &str); 6] = [
        (&["knuth", "sat-life", "83"], "*\n", "The time should be between 0 and 82 (not 83)!"),
        (&["knuth", "sat-life", "-1"], "*\n", "The time should be between 0 and 82 (not -1)!"),
        (
            &["knuth", "sat-life", "0"],
            "**\n*x\n",
            "<stdin>:2: Unexpected character 'x' found in the pattern!",
        ),
        (&["knuth", "grid-cycle", "3", "3", "85"], "", "The period should be between 0 and 84 (not 85)!"),
        (&["knuth", "gridquad-cycle", "3", "3", "-2"], "", "The period should be between 0 and 84 (not -2)!"),
        (
            &["knuth", "grid-cycle", "-3", "3", "2"],
            "",
            "The grid size m should be between 0 and 65536 (not -3)!",
        ),
    ];
    for (args, stdin, msg) in bad {
        let (code, out, err) = run_cli(args, stdin);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?} wrote output");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

#[test]
fn dimacs_names_every_variable_and_counts_clauses() {
    let (code, out, err) = run_cli(&["knuth", "grid-cycle", "3", "3", "2", "--dimacs"], "");
    assert_eq!(code, 0, "{err}");
    let text = String::from_utf8(out).unwrap();
    let knuth_text = String::from_utf8(gunzip(&data_dir().join("grid-cycle-3-3-2.out.gz"))).unwrap();
    let knuth_clauses: Vec<&str> = knuth_text.lines().skip(1).collect();
    let mut names = std::collections::HashMap::new();
    let mut p_line = None;
    let mut clauses = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("c ") {
            if let Some((n, name)) = rest.split_once(' ')
                && let Ok(n) = n.parse::<usize>()
            {
                names.insert(n, name.to_string());
            }
        } else if let Some(rest) = line.strip_prefix("p cnf ") {
            p_line = Some(rest.to_string());
        } else {
            clauses.push(line.to_string());
        }
    }
    assert_eq!(p_line.unwrap(), format!("{} {}", names.len(), knuth_clauses.len()));
    // Every name reads back as the variable it prints.
    for name in names.values() {
        assert_eq!(&name.parse::<knuth::Var>().unwrap().to_string(), name);
    }
    // Decoding every DIMACS clause through the names gives Knuth's clause back.
    for (dimacs, knuth) in clauses.iter().zip(&knuth_clauses) {
        let lits: Vec<i64> = dimacs.split_whitespace().map(|s| s.parse().unwrap()).collect();
        assert_eq!(lits.last(), Some(&0));
        let decoded: Vec<String> = lits[..lits.len() - 1]
            .iter()
            .map(|&l| format!("{}{}", if l < 0 { "~" } else { "" }, names[&(l.unsigned_abs() as usize)]))
            .collect();
        let want: Vec<&str> = knuth.split_whitespace().collect();
        assert_eq!(decoded, want);
    }
    // Numbered by first appearance: the first clause mentions 1, 2, 3, ... in order.
    assert!(clauses[0].starts_with("1 2 3 4 "));
}

/// Shift every xty name of a Knuth text by (dx, dy): `10a11B2` -> `(10+dx)a(11+dy)B2`.
fn shift_names(text: &str, dx: u32, dy: u32) -> String {
    let shift = |lit: &str| -> String {
        let (neg, name) = lit.strip_prefix('~').map_or(("", lit), |n| ("~", n));
        let xlen = name.find(|c: char| !c.is_ascii_digit()).unwrap();
        let x: u32 = name[..xlen].parse().unwrap();
        let tc = &name[xlen..xlen + 1];
        let rest = &name[xlen + 1..];
        let ylen = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(rest.len());
        let y: u32 = rest[..ylen].parse().unwrap();
        format!("{neg}{}{tc}{}{}", x + dx, y + dy, &rest[ylen..])
    };
    text.lines()
        .map(|l| {
            l.split(' ')
                .map(|w| if w.is_empty() { String::new() } else { shift(w) })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .map(|l| l + "\n")
        .collect()
}

/// Knuth's 50-row, 50-column limit is gone: the same pattern placed 56 rows
/// and 56 columns further on (a multiple of the sharing period, so the
/// sharing scheme is the same) gives Knuth's clauses with shifted names.
#[test]
fn patterns_beyond_knuths_50_rows_are_encoded_the_same_way() {
    for (stem, input) in
        [("sat-life-random-8x8-t2", "random-8x8"), ("sat-life-rpento-margins-t7", "rpento-margins")]
    {
        let text = std::fs::read_to_string(data_dir().join(format!("in/sat-life-{input}.txt"))).unwrap();
        let t: i64 = stem.rsplit_once("-t").unwrap().1.parse().unwrap();
        let mut shifted = "\n".repeat(56);
        for line in text.lines() {
            shifted.push_str(&".".repeat(56));
            shifted.push_str(line);
            shifted.push('\n');
        }
        let g = sat_life::read_pattern(&Location::new("<stdin>", None), &shifted).unwrap();
        assert!(g.height() > 56 && g.width() > 56);
        let got = knuth::write_knuth(&sat_life::listing(&g, t).unwrap());
        let want = String::from_utf8(gunzip(&data_dir().join(format!("{stem}.out.gz")))).unwrap();
        let want = shift_names(&want, 56, 56);
        assert!(got == want, "{stem}: {}", first_difference(&got, &want));
    }
    // And the cycles accept grids over 50 as well.
    let clauses = knuth::grid_cycle(60, 3, 1).unwrap();
    assert!(clauses.iter().flatten().any(|l| l.var.x == 60));
}
