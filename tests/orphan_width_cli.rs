//! `lifesearch orphan-width` from the command line: both proofs written,
//! checked by `orphan-width check`, and broken files refused with the line.

use std::process::{Command, Output};

fn lifesearch(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lifesearch")).args(args).output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn both_proofs_are_written_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    for (name, extra) in [("family", vec![]), ("positions", vec!["--lookahead", "2", "--depth", "8"])] {
        let path = dir.path().join(name);
        let p = path.to_str().unwrap();
        let mut args = vec!["orphan-width", "2", "--quiet", "--json", "-o", p];
        args.extend(extra);
        let o = lifesearch(&args);
        assert!(o.status.success(), "{}", text(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["verdict"], "none-at-any-width", "{v}");
        assert!(v["certificate_members"].as_u64().unwrap() > 0, "{v}");
        let o = lifesearch(&["orphan-width", "check", p, "--json"]);
        assert!(o.status.success(), "{}", text(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!((v["valid"].as_bool(), v["height"].as_u64()), (Some(true), Some(2)), "{v}");
    }
    // A proof set with a window's members all removed is refused, naming the window.
    let p = dir.path().join("positions");
    let proof = std::fs::read_to_string(&p).unwrap();
    let mut lines: Vec<String> = proof.lines().map(String::from).collect();
    lines[5] = "0".repeat(lines[5].len());
    let broken = dir.path().join("broken");
    std::fs::write(&broken, lines.join("\n")).unwrap();
    let o = lifesearch(&["orphan-width", "check", broken.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o).contains("window 0 has no member"), "{}", text(&o));
    // A malformed line is named.
    lines[6] = "xyz".into();
    std::fs::write(&broken, lines.join("\n")).unwrap();
    let o = lifesearch(&["orphan-width", "check", broken.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(text(&o).contains("line 7"), "{}", text(&o));
}

#[test]
fn a_lookahead_too_short_proves_nothing_and_says_so() {
    let o = lifesearch(&["orphan-width", "3", "--lookahead", "1", "--depth", "4", "--quiet"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("not proved"), "{}", text(&o));
    // Heights above 4 and a depth without --lookahead are refused.
    let o = lifesearch(&["orphan-width", "5", "--lookahead", "2", "--quiet"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("heights 1..=4"), "{}", text(&o));
    let o = lifesearch(&["orphan-width", "2", "--depth", "3", "--quiet"]);
    assert!(!o.status.success(), "{}", text(&o));
}

/// The book's claim that positions can close where the reachable sets keep
/// growing: under B168/S135 at height 2 the subset construction has not
/// closed by width 24, and a proof set of windows of 2 columns closes (and
/// its checker accepts it).
#[test]
fn positions_close_where_the_subset_construction_has_not() {
    use lifesearch::automaton::lookahead::{LookaheadOptions, LookaheadVerdict, prove, write_proof};
    use lifesearch::automaton::lookahead_check::{check, parse_lines};
    use lifesearch::automaton::width::{Verdict, WidthOptions, search};
    let rule: lifesearch::life::Rule = "B168/S135".parse().unwrap();
    let wide = WidthOptions {
        rule,
        height: 2,
        max_width: Some(24),
        memory_cap_bytes: 1 << 30,
        time_limit_s: None,
        checkpoint: None,
        progress: false,
        budget: 0,
    };
    let (bfs, _, _) = search(&wide).unwrap();
    assert!(matches!(bfs.verdict, Verdict::LowerBound { width: 24, .. }), "{:?}", bfs.verdict);
    let o = LookaheadOptions { rule, height: 2, lookahead: 2, depth: 6, time_limit_s: None, progress: false };
    let (r, p) = prove(&o).unwrap();
    assert_eq!(r.verdict, LookaheadVerdict::NoneAtAnyWidth);
    let mut out = Vec::new();
    write_proof(&p, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    check(&parse_lines(text.lines().map(|l| Ok(l.to_string()))).unwrap()).unwrap();
}

#[test]
fn a_stopped_search_says_what_one_more_width_would_cost() {
    // Life's height 3 closes only at width 51; stopped at 4 it is a lower bound.
    let o = lifesearch(&["orphan-width", "3", "--max-width", "4", "--quiet", "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["verdict"].as_str(), v["width"].as_u64()), (Some("lower-bound"), Some(4)), "{v}");
    let layers: Vec<f64> = v["layers"].as_array().unwrap().iter().map(|n| n.as_f64().unwrap()).collect();
    let [.., before, last] = layers[..] else { panic!("{v}") };
    assert_eq!(v["growth"].as_f64(), Some(last / before), "{v}");
    let per_set = v["store_bytes"].as_f64().unwrap() / v["members"].as_f64().unwrap();
    let gib = last * (last / before) * per_set / (1u64 << 30) as f64;
    assert!((v["next_layer_gib"].as_f64().unwrap() - gib).abs() < 1e-12, "{v}");
    // The same in words.
    let o = lifesearch(&["orphan-width", "3", "--max-width", "4", "--quiet"]);
    let t = text(&o);
    assert!(t.contains("so width 5 would take about") && t.contains("MiB more"), "{t}");
}
