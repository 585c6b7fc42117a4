//! The orphan census against independent twins. Two slow, obvious methods
//! recount the orphans of small boxes: brute force marks the child of every
//! parent (boxes whose (W+2) x (H+2) parents have at most 25 cells: 1x1 to
//! 3x3, 4x2, 2x4, 5x1, 1x5 and 1x6), and a full-row dynamic program walks the
//! tree of target prefixes row by row over whole parent rows, without meeting
//! in the middle (rows along the given width: 3x4, 3x5, 3x6 and 4x3; 6x3 is
//! checked as the transpose of 3x6, which the census reads the other way).
//! Counts, checksums and the orphan lists must agree, for Life and four other
//! rules with orphans. Then: W x H against H x W, the box's symmetries, shards
//! and their merge, checkpoints, and the `census` command line.

use lifesearch::automaton::census::{
    Census, CensusOptions, Plan, census, check_size, max_long, merge, orphan_line,
};
use lifesearch::automaton::checkpoint::Checkpoint;
use lifesearch::automaton::checksum::checksum_of;
use lifesearch::automaton::shard::Shard;
use lifesearch::life::Rule;
use std::process::Command;

/// Life and the other rules the census is checked on.
fn rules() -> Vec<Rule> {
    ["B3/S23", "B/S", "B2/S", "B36/S23", "B1/S1"].iter().map(|r| r.parse().unwrap()).collect()
}

/// `out[(a << 2p) | (b << p) | c]`: the `w` target cells under parent rows
/// `a`, `b`, `c` of `p = w + 2` cells, by counting neighbours one by one.
fn row_table(rule: Rule, w: usize) -> Vec<u8> {
    let p = w + 2;
    let mask = (1usize << p) - 1;
    (0..1usize << (3 * p))
        .map(|i| {
            let rows = [i >> (2 * p), (i >> p) & mask, i & mask];
            let mut out = 0u8;
            for x in 0..w {
                let mut n = 0;
                for (r, row) in rows.iter().enumerate() {
                    for dx in 0..3 {
                        if (r, dx) != (1, 1) {
                            n += (row >> (x + dx)) as u32 & 1;
                        }
                    }
                }
                out |= (rule.next(rows[1] >> (x + 1) & 1 == 1, n) as u8) << x;
            }
            out
        })
        .collect()
}

/// Brute force: mark the child of every parent; the unmarked targets are the orphans.
fn brute_orphans(w: usize, h: usize, rule: Rule) -> Vec<u64> {
    assert!((w + 2) * (h + 2) <= 25, "brute force is for tiny boxes");
    let p = w + 2;
    let out = row_table(rule, w);
    let mut hit = vec![false; 1 << (w * h)];
    let rows = h + 2;
    for parent in 0..1u64 << (p * rows) {
        let row = |r: usize| (parent >> (r * p)) as usize & ((1 << p) - 1);
        let target: usize = (0..h)
            .map(|r| (out[(row(r) << (2 * p)) | (row(r + 1) << p) | row(r + 2)] as usize) << (r * w))
            .sum();
        hit[target] = true;
    }
    (0..1u64 << (w * h)).filter(|&t| !hit[t as usize]).collect()
}

/// The full-row dynamic program: each prefix of target rows keeps the set of
/// parent row pairs that can end a parent of it; a prefix whose set is empty
/// makes orphans of all its completions.
fn dp_orphans(w: usize, h: usize, rule: Rule) -> Vec<u64> {
    fn dfs(out: &[u8], w: usize, h: usize, depth: usize, prefix: u64, set: &[bool], orphans: &mut Vec<u64>) {
        let (p, lines) = (w + 2, 1usize << (w + 2));
        let mut children = vec![vec![false; lines * lines]; 1 << w];
        for ab in (0..lines * lines).filter(|&ab| set[ab]) {
            let (a, b) = (ab / lines, ab % lines);
            for c in 0..lines {
                children[out[(a << (2 * p)) | (b << p) | c] as usize][b * lines + c] = true;
            }
        }
        for (t, child) in children.iter().enumerate() {
            let prefix = prefix | (t as u64) << (depth * w);
            let rest = w * (h - depth - 1);
            if !child.iter().any(|&x| x) {
                orphans.extend((0..1u64 << rest).map(|r| prefix | r << ((depth + 1) * w)));
            } else if depth + 1 < h {
                dfs(out, w, h, depth + 1, prefix, child, orphans);
            }
        }
    }
    let out = row_table(rule, w);
    let mut orphans = Vec::new();
    dfs(&out, w, h, 0, 0, &vec![true; 1 << (2 * (w + 2))], &mut orphans);
    orphans.sort_unstable();
    orphans
}

fn listed(w: usize, h: usize, rule: Rule) -> (Census, Vec<u64>) {
    let mut o = CensusOptions::new(w, h, rule);
    o.list_orphans = true;
    o.checks = 20;
    census(&o).unwrap()
}

/// Equal sorted lists, or a short message naming the first difference.
fn same_list(got: &[u64], want: &[u64], what: &str) {
    if got != want {
        let i = got.iter().zip(want).position(|(a, b)| a != b).unwrap_or(got.len().min(want.len()));
        panic!(
            "{what}: {} orphans listed, {} expected; first difference at {i}: {:?} vs {:?}",
            got.len(),
            want.len(),
            got.get(i),
            want.get(i)
        );
    }
}

fn agree(w: usize, h: usize, rule: Rule, twin: &[u64], name: &str) {
    let (c, list) = listed(w, h, rule);
    assert_eq!(c.orphans, twin.len() as u64, "{name} {w}x{h} {rule}: count");
    assert_eq!(
        c.checksum,
        format!("{:016x}", checksum_of(w, h, twin.iter().copied())),
        "{name} {w}x{h} {rule}"
    );
    same_list(&list, twin, &format!("{name} {w}x{h} {rule}"));
    assert_eq!(c.targets_settled, 1 << (w * h));
}

#[test]
fn brute_force_agrees() {
    let mut some = 0;
    for rule in rules() {
        for (w, h) in
            [(1, 1), (2, 1), (1, 2), (2, 2), (3, 2), (2, 3), (3, 3), (4, 2), (2, 4), (5, 1), (1, 5), (1, 6)]
        {
            let twin = brute_orphans(w, h, rule);
            some += twin.len();
            agree(w, h, rule, &twin, "brute force");
        }
    }
    assert!(some > 0, "some rule has orphans in these boxes");
}

#[test]
fn full_row_dynamic_program_agrees() {
    for rule in rules() {
        for (w, h) in [(3, 4), (3, 5), (3, 6), (4, 3)] {
            agree(w, h, rule, &dp_orphans(w, h, rule), "dynamic program");
        }
    }
}

/// Cell (x, y) of a `w` x `h` pattern sent to (y, x) of the `h` x `w` one.
fn transpose(w: usize, h: usize, t: u64) -> u64 {
    (0..w * h).map(|c| (t >> c & 1) << ((c % w) * h + c / w)).sum()
}

#[test]
fn w_by_h_and_h_by_w_have_the_same_orphans() {
    for rule in rules() {
        // 6x3 is read along its columns by the census; the dynamic program reads 3x6 by rows.
        let dp = dp_orphans(3, 6, rule);
        let (c, list) = listed(6, 3, rule);
        let mut back: Vec<u64> = list.iter().map(|&t| transpose(6, 3, t)).collect();
        back.sort_unstable();
        same_list(&back, &dp, &format!("6x3 {rule}"));
        assert_eq!(c.checksum, format!("{:016x}", checksum_of(6, 3, dp.iter().map(|&t| transpose(3, 6, t)))));
    }
    for rule in ["B2/S", "B1/S1"].map(|r| r.parse::<Rule>().unwrap()) {
        let (a, la) = listed(5, 4, rule);
        let (b, lb) = listed(4, 5, rule);
        assert_eq!(a.orphans, b.orphans, "{rule}");
        let mut t: Vec<u64> = la.iter().map(|&x| transpose(5, 4, x)).collect();
        t.sort_unstable();
        same_list(&t, &lb, &format!("5x4 {rule}"));
    }
}

/// The images of a pattern under the box's symmetries (8 for a square, 4 otherwise).
fn images(w: usize, h: usize, t: u64) -> Vec<u64> {
    let cell = |x: usize, y: usize| t >> (y * w + x) & 1;
    let mut out = Vec::new();
    for (fx, fy) in [(false, false), (true, false), (false, true), (true, true)] {
        let m: u64 = (0..w * h)
            .map(|c| {
                let (x, y) = (c % w, c / w);
                cell(if fx { w - 1 - x } else { x }, if fy { h - 1 - y } else { y }) << c
            })
            .sum();
        out.push(m);
        if w == h {
            out.push(transpose(w, h, m));
        }
    }
    out
}

#[test]
fn orphans_are_closed_under_the_symmetries_of_the_box() {
    let mut checked = 0;
    for rule in ["B2/S", "B1/S1", "B3/S012345678"].map(|r| r.parse::<Rule>().unwrap()) {
        for (w, h) in [(4, 4), (5, 3), (5, 4)] {
            let (_, list) = listed(w, h, rule);
            for &t in &list {
                for m in images(w, h, t) {
                    assert!(
                        list.binary_search(&m).is_ok(),
                        "{rule} {w}x{h}: {t:#x} is an orphan, {m:#x} not"
                    );
                }
            }
            checked += list.len();
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn shards_add_up_and_merge_refuses_bad_sets() {
    let rule: Rule = "B2/S".parse().unwrap();
    let whole = census(&CensusOptions::new(5, 5, rule)).unwrap().0;
    let parts: Vec<Census> = (1..=3)
        .map(|k| {
            let mut o = CensusOptions::new(5, 5, rule);
            o.shard = Shard { k, n: 3 };
            o.checks = 10;
            census(&o).unwrap().0
        })
        .collect();
    assert!(parts.iter().all(|p| p.orphans < whole.orphans && p.orphans > 0));
    let merged = merge(&parts).unwrap();
    assert_eq!((merged.orphans, &merged.checksum), (whole.orphans, &whole.checksum));
    assert_eq!(merged.targets_settled, 1 << 25);
    let err = |ps: &[Census]| merge(ps).unwrap_err().to_string();
    assert!(err(&parts[..2]).contains("missing shard(s) 3/3"));
    assert!(err(&[parts[0].clone(), parts[0].clone(), parts[2].clone()]).contains("given twice"));
    let mut other = parts[1].clone();
    other.rule = "B3/S23".into();
    assert!(err(&[parts[0].clone(), other, parts[2].clone()]).contains("B3/S23"));
    let mut short = parts[2].clone();
    short.targets_settled -= 1;
    assert!(err(&[parts[0].clone(), parts[1].clone(), short]).contains("settled"));
}

#[test]
fn a_killed_run_resumes_from_its_checkpoint() {
    let rule: Rule = "B1/S1".parse().unwrap();
    let whole = census(&CensusOptions::new(5, 4, rule)).unwrap().0;
    // What a run killed half way would have left: the first half of the units done.
    let plan = Plan::new(5, 4, rule).unwrap();
    let mut cp = Checkpoint::new(5, 4, "B1/S1", Shard::WHOLE, plan.units());
    for u in 0..plan.units() / 2 {
        let (tally, pairs, _) = plan.run_unit(u, false, false);
        cp.tally.add(&tally);
        cp.samples.extend(pairs);
        cp.done.push(u);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cp.json");
    cp.save(&path).unwrap();
    let mut o = CensusOptions::new(5, 4, rule);
    o.checkpoint = Some(path.clone());
    let resumed = census(&o).unwrap().0;
    assert_eq!(resumed.units_resumed, plan.units() / 2);
    assert_eq!((resumed.orphans, &resumed.checksum), (whole.orphans, &whole.checksum));
    // A checkpoint of other parameters is refused, not overwritten.
    let mut o = CensusOptions::new(5, 4, "B2/S".parse().unwrap());
    o.checkpoint = Some(path.clone());
    let e = census(&o).unwrap_err().to_string();
    assert!(e.contains("checkpoint of a 5x4 B1/S1 census"), "{e}");
}

#[test]
fn boxes_past_the_longer_side_limit_are_refused() {
    // The longer side may grow as the shorter shrinks: 7 for six cells, 8 for five, 10 for four, 12 for three.
    for (w, h, long) in [(7, 7, 0), (8, 6, 7), (9, 5, 8), (11, 4, 10), (4, 11, 10), (3, 13, 12), (0, 2, 0)] {
        let e = Plan::new(w, h, Rule::CONWAY).err().expect("refused").to_string();
        assert!(e.contains(&format!("{w}x{h}")), "{e}");
        if long > 0 {
            assert!(e.contains(&format!("at most {long} ")), "{e}");
        } else {
            assert!(e.contains("1 to 6 cells on the shorter side"), "{e}");
        }
    }
    // Taken (building the plan of the largest would take a minute and GBs).
    for (w, h) in [(8, 5), (10, 4), (4, 10), (12, 3), (2, 20), (40, 1), (7, 6)] {
        assert!(check_size(w, h).is_ok(), "{w}x{h}");
    }
    assert!(Plan::new(12, 2, Rule::CONWAY).is_ok());
    // No side of 0 or past six cells: no length either (and no panic).
    assert_eq!((max_long(0), max_long(7)), (0, 0));
}

/// The limits typed into the command line's help and the README are the
/// census' own: the test reads them back from `max_long`.
#[test]
fn the_documented_limits_are_max_long() {
    let names = ["one", "two", "three", "four", "five", "six"];
    let help = (1..=6).rev().map(|s| format!("{} for {}", max_long(s), names[s - 1])).collect::<Vec<_>>();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_lifesearch"))
        .args(["census", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).split_whitespace().collect::<Vec<_>>().join(" ");
    let phrase = format!("the longer at most {} cell", help.join(", "));
    assert!(text.contains(&phrase), "`census --help` should say {phrase:?}:\n{text}");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let short = (3..=6).rev().map(|s| format!("{} for {s}", max_long(s))).collect::<Vec<_>>();
    let phrase = format!("longer <= {}", short.join(", "));
    assert!(readme.contains(&phrase), "the README's census row should say {phrase:?}");
}

/// Long narrow boxes (past seven rows, two halves of up to 20 bits each, the
/// halves of unequal depth when the rows are odd): the full-row dynamic
/// program recounts them orphan by orphan, and the transposed box too.
#[test]
fn long_narrow_boxes_agree_with_the_dynamic_program() {
    let mut some = 0;
    for rule in rules() {
        for (w, h) in [(2, 8), (2, 9), (1, 13)] {
            let twin = dp_orphans(w, h, rule);
            some += twin.len();
            agree(w, h, rule, &twin, "dynamic program");
            let mut t: Vec<u64> = twin.iter().map(|&p| transpose(w, h, p)).collect();
            t.sort_unstable();
            agree(h, w, rule, &t, "dynamic program, transposed");
        }
    }
    assert!(some > 0, "some rule has orphans in these boxes");
}

/// Seven rows are cut in three bands (three rows, a middle row, three rows):
/// the full-row dynamic program recounts 1x7 and 2x7 (and, transposed, 7x1
/// and 7x2), orphan by orphan; 7x3 and 3x7 must have the same orphans up to
/// the transpose, closed under the box's symmetries, each re-decided by the
/// column automaton.
#[test]
fn seven_rows_in_three_bands_agree_with_the_dynamic_program() {
    let mut some = 0;
    for rule in rules() {
        for w in [1, 2] {
            let twin = dp_orphans(w, 7, rule);
            some += twin.len();
            agree(w, 7, rule, &twin, "dynamic program");
            let mut t: Vec<u64> = twin.iter().map(|&p| transpose(w, 7, p)).collect();
            t.sort_unstable();
            agree(7, w, rule, &t, "dynamic program, transposed");
        }
    }
    assert!(some > 0, "some rule has orphans in these boxes");
    for rule in ["B1/S1"].map(|r| r.parse::<Rule>().unwrap()) {
        let (wide, list) = listed(7, 3, rule);
        let (_, tall) = listed(3, 7, rule);
        assert!(wide.orphans > 1000 && wide.targets_settled == 1 << 21, "{rule}: {}", wide.orphans);
        let mut t: Vec<u64> = tall.iter().map(|&p| transpose(3, 7, p)).collect();
        t.sort_unstable();
        same_list(&list, &t, &format!("7x3 against 3x7 {rule}"));
        for &p in list.iter().step_by(list.len() / 40) {
            for q in images(7, 3, p) {
                assert!(list.binary_search(&q).is_ok(), "{rule}: an image of {p:#x} is missing");
            }
            let g = Plan::new(7, 3, rule).unwrap().spec(p);
            assert!(lifesearch::automaton::decide(&g, rule).unwrap().predecessor.is_none(), "{p:#x}");
        }
    }
}

#[test]
fn seven_row_shards_add_up() {
    let rule: Rule = "B1/S1".parse().unwrap();
    let whole = census(&CensusOptions::new(4, 7, rule)).unwrap().0;
    let parts: Vec<Census> = (1..=3)
        .map(|k| {
            let mut o = CensusOptions::new(4, 7, rule);
            o.shard = Shard { k, n: 3 };
            o.checks = 10;
            census(&o).unwrap().0
        })
        .collect();
    let merged = merge(&parts).unwrap();
    assert_eq!((merged.orphans, &merged.checksum), (whole.orphans, &whole.checksum));
    assert_eq!(merged.targets_settled, 1 << 28);
    assert!(merge(&parts[1..]).unwrap_err().to_string().contains("missing shard(s) 1/3"));
}

fn lifesearch(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_lifesearch")).args(args).output().unwrap()
}

#[test]
fn the_command_line_counts_shards_and_merges() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let json = |o: &std::process::Output| -> serde_json::Value {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let list = d.join("orphans.txt");
    let whole =
        json(&lifesearch(&["census", "4", "4", "--rule", "B2/S", "--json", "-o", list.to_str().unwrap()]));
    let twin = dp_orphans(4, 4, "B2/S".parse().unwrap());
    assert_eq!(whole["orphans"], twin.len() as u64);
    let lines: Vec<String> = std::fs::read_to_string(&list).unwrap().lines().map(String::from).collect();
    assert!(lines == twin.iter().map(|&t| orphan_line(4, 4, t)).collect::<Vec<_>>(), "the -o file");
    let mut files = Vec::new();
    for k in 1..=3 {
        let o = lifesearch(&["census", "4", "4", "--rule", "B2/S", "--shard", &format!("{k}/3"), "--json"]);
        let v = json(&o);
        assert_eq!((v["shard_k"].as_u64(), v["shard_n"].as_u64()), (Some(k), Some(3)));
        let f = d.join(format!("s{k}.json"));
        std::fs::write(&f, &o.stdout).unwrap();
        files.push(f.to_str().unwrap().to_string());
    }
    let mut args = vec!["census", "merge", "--json"];
    args.extend(files.iter().map(|s| s.as_str()));
    let merged = json(&lifesearch(&args));
    assert_eq!((&merged["orphans"], &merged["checksum"]), (&whole["orphans"], &whole["checksum"]));
    // Text output names the count, the targets and the checksum.
    let text = lifesearch(&["census", "3", "3", "--rule", "B2/S", "--threads", "1"]);
    let s = String::from_utf8_lossy(&text.stdout);
    let (c, _) = listed(3, 3, "B2/S".parse().unwrap());
    assert!(s.contains(&format!("{} orphans of 512 targets, checksum {}", c.orphans, c.checksum)), "{s}");
    // Bad input: status 2 and an error naming the problem (one line where it is ours, not clap's).
    for bad in [vec!["census", "3", "3", "--shard", "4/3"], vec!["census", "3", "3", "--rule", "B9/S"]] {
        let o = lifesearch(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&o.stderr).starts_with("error: invalid value"), "{bad:?}");
    }
    for bad in [
        vec!["census", "7", "7"],
        vec!["census", "11", "4"],
        vec!["census", "merge", &files[0], &files[0], &files[1], &files[2]],
        vec!["census", "merge", &files[0], &files[1]],
    ] {
        let o = lifesearch(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.starts_with("error: ") && err.trim_end().lines().count() == 1, "{bad:?}: {err}");
    }
}
