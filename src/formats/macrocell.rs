//! Golly's macrocell format (`.mc`): a HashLife quadtree written node by
//! node, so that a pattern of 2^40 cells a side stays a small file.
//!
//! ```text
//! [M2] (golly 3.3)
//! #R B3/S23
//! $$$$......*$.......*$.....***$
//! 4 0 1 0 0
//! ```
//!
//! After the `[M2]` header and `#` lines (`#R` rule, `#G` generation, `#C`
//! comments), each line defines one node, numbered from 1 in file order. An
//! 8x8 leaf is its rows of `.` (dead) and `*` (alive), each ended by `$`,
//! trailing dead cells and rows left out. A larger node is `k nw ne sw se`:
//! its level (a `2^k` square, `k >= 4`) and its quadrants by number, 0 for
//! empty. The last node is the whole pattern; Golly centres it so that its
//! top-left cell is `(-2^(k-1), 1 - 2^(k-1))`, y downwards, which is how
//! [`HashLife`] keeps its root too, so reading and writing are
//! node-for-node copies.
//!
//! Book: Part III, "The Life 1.05 format", section "Other formats" (`book/src/winlife/life105.md`).

use super::{Pattern, Warnings, numbered_lines, one_line};
use crate::error::{Error, Location, Result};
use crate::life::hashlife::{HashLife, LEAF_LEVEL};
use crate::life::rule::Rule;
use rustc_hash::FxHashMap;

/// A macrocell file as read: the tree and the header lines.
#[derive(Debug, Clone)]
pub struct Macrocell {
    pub tree: HashLife,
    pub rule: Option<Rule>,
    pub generation: Option<u128>,
    pub comments: Vec<String>,
}

/// Whether a text starts like a macrocell file.
pub fn is_macrocell(first_line: &str) -> bool {
    first_line.trim_start().starts_with("[M2]")
}

// ANCHOR: mc_read
/// Read a macrocell file into a quadtree (built under Conway's rule; the
/// caller sets the rule to run with).
pub fn read_tree(
    loc: &Location,
    text: &str,
    memory_cap_bytes: usize,
    warn: &mut Warnings,
) -> Result<Macrocell> {
    let mut tree = HashLife::new(Rule::CONWAY, memory_cap_bytes)?;
    let (mut rule, mut generation, mut comments) = (None, None, Vec::new());
    // Node ids by line number in the file's own count (index 0 = empty).
    let mut ids: Vec<u32> = vec![u32::MAX];
    let mut header = false;
    for (n, raw) in numbered_lines(text) {
        let here = loc.at(n);
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if !header {
            if !is_macrocell(line) {
                return Err(Error::parse(&here, "not a macrocell file: expected a first line '[M2] ...'"));
            }
            header = true;
            continue;
        }
        if let Some(rest) = line.strip_prefix('#') {
            if let Some(r) = rest.strip_prefix('R') {
                let r = r.trim();
                rule = Some(r.parse::<Rule>().map_err(|e| Error::parse(&here, e.to_string()))?);
            } else if let Some(g) = rest.strip_prefix('G') {
                let g = g.trim();
                generation = Some(
                    g.parse::<u128>().map_err(|_| Error::parse(&here, format!("bad generation '{g}'")))?,
                );
            } else if let Some(c) = rest.strip_prefix(['C', 'c']) {
                comments.push(c.trim().to_string());
            } else {
                warn.push(&here, format!("unknown line '{line}' ignored"));
            }
            continue;
        }
        let id = if line.starts_with(['.', '*', '$']) {
            tree.leaf(parse_leaf(&here, line)?)
        } else {
            let f: Vec<&str> = line.split_whitespace().collect();
            let nums: Option<Vec<u64>> = f.iter().map(|w| w.parse::<u64>().ok()).collect();
            let Some(nums) = nums.filter(|v| v.len() == 5) else {
                return Err(Error::parse(
                    &here,
                    format!("expected a leaf or 'level nw ne sw se', found '{line}'"),
                ));
            };
            let level = nums[0];
            if level <= LEAF_LEVEL as u64 {
                return Err(Error::parse(
                    &here,
                    format!(
                        "node of level {level}: only two-state files (8x8 leaves, levels 4 and up) are supported"
                    ),
                ));
            }
            if level > 120 {
                return Err(Error::parse(&here, format!("node of level {level}: at most 120 is supported")));
            }
            let mut kids = [0u32; 4];
            for (k, &c) in kids.iter_mut().zip(&nums[1..]) {
                *k = if c == 0 {
                    tree.empty(level as u32 - 1)
                } else {
                    let Some(&id) = ids.get(c as usize) else {
                        return Err(Error::parse(&here, format!("node {c} is used before it is defined")));
                    };
                    if tree.level(id) as u64 != level - 1 {
                        return Err(Error::parse(
                            &here,
                            format!(
                                "node {c} has level {} but a quadrant of level {level} needs {}",
                                tree.level(id),
                                level - 1
                            ),
                        ));
                    }
                    id
                };
            }
            tree.join(kids)
        };
        ids.push(id);
    }
    if !header {
        return Err(Error::parse(loc, "empty macrocell file"));
    }
    if let Some(&root) = ids.last().filter(|_| ids.len() > 1) {
        tree.set_root(root);
    }
    Ok(Macrocell { tree, rule, generation, comments })
}

/// One leaf line: rows ended by `$`, `.` dead, `*` alive.
fn parse_leaf(loc: &Location, line: &str) -> Result<u64> {
    let (mut bits, mut x, mut y) = (0u64, 0u32, 0u32);
    for c in line.chars() {
        match c {
            '$' => {
                (x, y) = (0, y + 1);
                continue;
            }
            '.' | '*' => {}
            _ => return Err(Error::parse(loc, format!("unexpected character '{c}' in a leaf"))),
        }
        if x >= 8 || y >= 8 {
            return Err(Error::parse(loc, "a leaf holds at most 8 rows of 8 cells"));
        }
        if c == '*' {
            bits |= 1 << (8 * y + x);
        }
        x += 1;
    }
    Ok(bits)
}
// ANCHOR_END: mc_read

// ANCHOR: mc_write
/// Write a quadtree as a macrocell file (`#R` only when a rule is given): nodes in depth-first order,
/// quadrants NW, NE, SW, SE before their parent, each once.
pub fn write_tree(
    tree: &HashLife,
    rule: Option<Rule>,
    generation: Option<u128>,
    comments: &[String],
) -> String {
    let mut out = String::from("[M2] (lifesearch)\n");
    if let Some(rule) = rule {
        out.push_str(&format!("#R {rule}\n"));
    }
    if let Some(g) = generation.filter(|&g| g > 0) {
        out.push_str(&format!("#G {g}\n"));
    }
    for c in comments {
        out.push_str(&format!("#C {}\n", one_line(c)));
    }
    let mut numbers: FxHashMap<u32, u64> = FxHashMap::default();
    let mut count = 0u64;
    // An explicit stack: (node, whether its quadrants are written).
    let mut stack = vec![(tree.root(), false)];
    while let Some((n, ready)) = stack.pop() {
        if tree.node_population(n) == 0 && n != tree.root() || numbers.contains_key(&n) {
            continue;
        }
        if tree.level(n) == LEAF_LEVEL {
            out.push_str(&leaf_line(tree.leaf_bits(n)));
        } else if !ready {
            stack.push((n, true));
            for &k in tree.kids(n).iter().rev() {
                stack.push((k, false));
            }
            continue;
        } else {
            let k = tree.kids(n).map(|c| numbers.get(&c).copied().unwrap_or(0));
            out.push_str(&format!("{} {} {} {} {}\n", tree.level(n), k[0], k[1], k[2], k[3]));
        }
        count += 1;
        numbers.insert(n, count);
    }
    out
}

fn leaf_line(bits: u64) -> String {
    let mut s = String::new();
    let rows = 8 - (bits.leading_zeros() / 8) as usize;
    for y in 0..rows {
        let row = (bits >> (8 * y)) as u8;
        let len = 8 - row.leading_zeros() as usize;
        s.extend((0..len).map(|x| if row >> x & 1 == 1 { '*' } else { '.' }));
        s.push('$');
    }
    s.push('\n');
    s
}
// ANCHOR_END: mc_write

/// Read a macrocell file as a dense pattern (an error when it is too large for one).
pub fn read(loc: &Location, text: &str, warn: &mut Warnings) -> Result<Pattern> {
    let mc = read_tree(loc, text, usize::MAX / 2, warn)?;
    let (grid, origin) = mc.tree.to_grid().map_err(|e| Error::parse(loc, e.to_string()))?;
    Ok(Pattern { grid, origin, rule: mc.rule, comments: mc.comments, ..Pattern::default() })
}

/// Write a dense pattern as a macrocell file.
pub fn write(p: &Pattern) -> String {
    // The tree only stores cells: build it under Conway (B0 rules are fine to write).
    let mut tree = HashLife::from_grid(&p.grid, p.origin, Rule::CONWAY, usize::MAX / 2)
        .expect("Conway's rule is accepted");
    tree.shrink();
    write_tree(&tree, p.rule, None, &[])
}
