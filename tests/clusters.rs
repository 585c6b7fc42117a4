//! Clusters: Even's depth-first traversal against a plain breadth-first
//! flood fill, on random boards and on boards built to be deep.

use lifesearch::life::Grid;
use lifesearch::life::clusters::{Cluster, Clusters, find_clusters};
use proptest::prelude::*;
use rand::SeedableRng;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::Command;

/// The slow obvious twin: scan in row order, flood each new cluster with a queue.
fn bfs_clusters(g: &Grid) -> Clusters {
    let (w, h) = (g.width(), g.height());
    let mut labels = vec![0u32; w * h];
    let mut clusters = Vec::new();
    for sy in 0..h {
        for sx in 0..w {
            if !g.get(sx, sy) || labels[sy * w + sx] != 0 {
                continue;
            }
            let label = clusters.len() as u32 + 1;
            let mut cells = vec![(sx, sy)];
            let mut queue = VecDeque::from([(sx, sy)]);
            labels[sy * w + sx] = label;
            while let Some((x, y)) = queue.pop_front() {
                for dy in -1isize..=1 {
                    for dx in -1isize..=1 {
                        let (nx, ny) = (x as isize + dx, y as isize + dy);
                        if g.get_or_dead(nx, ny) && labels[ny as usize * w + nx as usize] == 0 {
                            labels[ny as usize * w + nx as usize] = label;
                            cells.push((nx as usize, ny as usize));
                            queue.push_back((nx as usize, ny as usize));
                        }
                    }
                }
            }
            let x0 = cells.iter().map(|c| c.0).min().unwrap();
            let x1 = cells.iter().map(|c| c.0).max().unwrap();
            let y0 = cells.iter().map(|c| c.1).min().unwrap();
            let y1 = cells.iter().map(|c| c.1).max().unwrap();
            clusters.push(Cluster {
                size: cells.len(),
                x: x0,
                y: y0,
                width: x1 - x0 + 1,
                height: y1 - y0 + 1,
            });
        }
    }
    Clusters { width: w, height: h, labels, clusters }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn dfs_agrees_with_bfs(w in 0usize..60, h in 0usize..60, density in 0.0f64..1.0, seed in any::<u64>()) {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
        let g = Grid::random(w, h, density, &mut rng);
        let found = find_clusters(&g);
        prop_assert_eq!(&found, &bfs_clusters(&g));
        prop_assert_eq!(found.clusters.iter().map(|c| c.size).sum::<usize>(), g.population());
    }
}

#[test]
fn fully_live_200x200_is_one_cluster() {
    let mut g = Grid::new(200, 200);
    for y in 0..200 {
        for x in 0..200 {
            g.set(x, y, true);
        }
    }
    let found = find_clusters(&g);
    assert_eq!(found.clusters, [Cluster { size: 40_000, x: 0, y: 0, width: 200, height: 200 }]);
}

#[test]
fn checkerboard_1000x1000_is_one_diagonal_cluster() {
    let mut g = Grid::new(1000, 1000);
    for y in 0..1000 {
        for x in 0..1000 {
            g.set(x, y, (x + y) % 2 == 0);
        }
    }
    let found = find_clusters(&g);
    assert_eq!(found.clusters, [Cluster { size: 500_000, x: 0, y: 0, width: 1000, height: 1000 }]);
}

#[test]
fn serpentine_path_has_a_deep_traversal() {
    // A single path of live cells snaking through a 999x999 box: the depth of
    // the traversal is about half a million cells.
    let n = 999;
    let mut g = Grid::new(n, n);
    for y in (0..n).step_by(2) {
        for x in 0..n {
            g.set(x, y, true);
        }
        if y + 1 < n {
            g.set(if (y / 2) % 2 == 0 { n - 1 } else { 0 }, y + 1, true);
        }
    }
    let found = find_clusters(&g);
    assert_eq!(found.clusters.len(), 1);
    assert_eq!(found.clusters[0].size, g.population());
    assert_eq!(found, bfs_clusters(&g));
}

#[test]
fn cli_json_is_in_pattern_coordinates() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats/winlife.lif");
    let o = Command::new(env!("CARGO_BIN_EXE_lifesearch"))
        .args(["clusters", file.to_str().unwrap(), "--json"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(text.lines().count(), 1);
    assert!(text.starts_with(r#"{"count": "#), "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let p = lifesearch::formats::read_pattern(&file).unwrap();
    let found = find_clusters(&p.grid);
    assert_eq!(v["count"], found.clusters.len());
    let clusters = v["clusters"].as_array().unwrap();
    assert_eq!(clusters.len(), found.clusters.len());
    for (j, c) in clusters.iter().zip(&found.clusters) {
        let keys: Vec<&str> = j.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(keys.len(), 5, "{keys:?}");
        assert_eq!(j["size"], c.size);
        assert_eq!(j["x"], p.origin.0 + c.x as i64);
        assert_eq!(j["y"], p.origin.1 + c.y as i64);
        assert_eq!(j["width"], c.width);
        assert_eq!(j["height"], c.height);
    }
    // The glider at (-3, -2), the block at (4, -2), and the cells from (0, 3):
    // (0,3) stands alone; (1,5), (0,6), (2,6) touch.
    let summary: Vec<(i64, i64, u64)> = clusters
        .iter()
        .map(|c| (c["x"].as_i64().unwrap(), c["y"].as_i64().unwrap(), c["size"].as_u64().unwrap()))
        .collect();
    assert_eq!(summary, [(-3, -2, 5), (4, -2, 4), (0, 3, 1), (0, 5, 3)]);
}

#[test]
fn cli_text_listing_and_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("two.rle");
    std::fs::write(&f, "x = 5, y = 1\n2o2bo!\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_lifesearch"))
        .args(["clusters", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.starts_with("2 clusters\n"), "{text}");
    assert_eq!(text.lines().count(), 3);
    std::fs::write(&f, "x = 5, y = 1\n2o2bq!\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_lifesearch"))
        .args(["clusters", f.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with(&format!("error: {}:2: ", f.display())));
}
