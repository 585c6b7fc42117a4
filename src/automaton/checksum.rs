//! An order-free checksum of a set of patterns, so that shards can be summed
//! and runs compared: the sum, modulo 2^64, of one hash per pattern. The hash
//! is a product of one odd 64-bit factor per cell, drawn from the cell's place
//! in the box and its state (a multiplicative cousin of Zobrist hashing). A
//! product splits over any partition of the cells, so the sum over every
//! pairing of a set of top halves with a set of bottom halves is just the
//! product of the two sums: the census never has to visit the pairs one by one.
//!
//! Book: Part IV, "An exhaustive orphan census" (`book/src/beyond/census.md`).

// ANCHOR: factor
/// SplitMix64's finaliser: a good 64-bit mixer.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The odd factor of cell (x, y) of a `w` x `h` box when its state is `alive`.
pub fn factor(w: usize, h: usize, x: usize, y: usize, alive: bool) -> u64 {
    let key = ((w as u64) << 40) | ((h as u64) << 32) | ((x as u64) << 16) | ((y as u64) << 1) | alive as u64;
    mix(key.wrapping_add(0x9e37_79b9_7f4a_7c15)) | 1
}

/// The hash of one `w` x `h` pattern: cell (x, y) is bit `y * w + x` of `bits`.
pub fn pattern_hash(w: usize, h: usize, bits: u64) -> u64 {
    let mut p = 1u64;
    for y in 0..h {
        for x in 0..w {
            p = p.wrapping_mul(factor(w, h, x, y, bits >> (y * w + x) & 1 == 1));
        }
    }
    p
}
// ANCHOR_END: factor

/// The checksum of a list of patterns (the slow obvious way, for tests and twins).
pub fn checksum_of(w: usize, h: usize, patterns: impl IntoIterator<Item = u64>) -> u64 {
    patterns.into_iter().fold(0u64, |s, p| s.wrapping_add(pattern_hash(w, h, p)))
}

/// Checksums as text: 16 hex digits, the form the JSON and CSV use.
pub fn hex(sum: u64) -> String {
    format!("{sum:016x}")
}

/// Read a checksum written by [`hex`].
pub fn parse_hex(s: &str) -> Option<u64> {
    (s.len() == 16).then(|| u64::from_str_radix(s, 16).ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_splits_over_halves() {
        // Sum over all pairs of 3 tops and 2 bottoms of a 2x2 box equals the
        // product of the halves' sums.
        let (w, h) = (2, 2);
        let half = |bits: u64, rows: std::ops::Range<usize>| {
            let mut p = 1u64;
            for y in rows {
                for x in 0..w {
                    p = p.wrapping_mul(factor(w, h, x, y, bits >> (y * w + x) & 1 == 1));
                }
            }
            p
        };
        let tops = [0b00u64, 0b01, 0b11];
        let bottoms = [0b0100u64, 0b1000];
        let by_pairs = checksum_of(w, h, tops.iter().flat_map(|t| bottoms.iter().map(move |b| t | b)));
        let st = tops.iter().fold(0u64, |s, &t| s.wrapping_add(half(t, 0..1)));
        let sb = bottoms.iter().fold(0u64, |s, &b| s.wrapping_add(half(b, 1..2)));
        assert_eq!(by_pairs, st.wrapping_mul(sb));
        assert_eq!(parse_hex(&hex(by_pairs)), Some(by_pairs));
    }

    #[test]
    fn different_patterns_hash_differently() {
        let hashes: std::collections::HashSet<u64> = (0..1u64 << 12).map(|p| pattern_hash(4, 3, p)).collect();
        assert_eq!(hashes.len(), 1 << 12);
        assert_ne!(pattern_hash(4, 3, 5), pattern_hash(3, 4, 5));
    }
}
