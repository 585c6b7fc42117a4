//! Slivers: the 2x3 (or 3x2) overlap of two orthogonally neighbouring slices,
//! 64 bits for its six pixels (thesis Section 5.1, Figure 5.3, Table 5.2).
//!
//! Folding ORs away the three pixels a member does not share; because both
//! members keep their shared pixels in the same relative order, their slivers
//! come out numbered alike and can simply be ANDed. Expanding inserts the
//! three pixels back, duplicating runs of bits (the "interleaving" of Figures
//! 5.4 and 5.5). All of it is branch-free shifts and masks on 64-bit words.
//!
//! Book: Part II, chapter 5, section 5.1 (`book/src/thesis/ch5.md`).

use super::convention::Layout;
use super::slice::Slice;

/// A slice ran out of constellations: the pattern (or the current branch of
/// the search) has no predecessor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contradiction;

/// The word index of sliver group `k` with a zero inserted at bit `b`.
#[inline(always)]
const fn insert_zero(k: usize, b: usize) -> usize {
    ((k >> b) << (b + 1)) | (k & ((1 << b) - 1))
}

// Pack the 16 bits whose positions have bits `b` and `b+3` clear (b is 0 or 2).
#[inline(always)]
fn compress_col(y: u64, b: usize) -> u64 {
    if b == 0 {
        let z = y & 0x0055_0055_0055_0055;
        let z = (z | z >> 1) & 0x0033_0033_0033_0033;
        let z = (z | z >> 2) & 0x000f_000f_000f_000f;
        let z = (z | z >> 12) & 0x0000_00ff_0000_00ff;
        (z | z >> 24) & 0xffff
    } else {
        let z = y & 0x0f0f_0f0f;
        let z = (z | z >> 4) & 0x00ff_00ff;
        (z | z >> 8) & 0xffff
    }
}

// The inverse of `compress_col`: spread 16 bits back to their positions.
#[inline(always)]
const fn spread_col(x: u64, b: usize) -> u64 {
    if b == 0 {
        let z = (x | x << 24) & 0x0000_00ff_0000_00ff;
        let z = (z | z << 12) & 0x000f_000f_000f_000f;
        let z = (z | z << 2) & 0x0033_0033_0033_0033;
        (z | z << 1) & 0x0055_0055_0055_0055
    } else {
        let z = (x | x << 8) & 0x00ff_00ff;
        (z | z << 4) & 0x0f0f_0f0f
    }
}

// ANCHOR: fold
/// Fold away the column of pixels `b`, `b+3`, `b+6` (b = 0 or 2).
#[inline(always)]
pub fn fold_column(s: &Slice, b: usize) -> u64 {
    debug_assert!(b == 0 || b == 2);
    let mut out = 0;
    for k in 0..4 {
        // Pixel b+6 is bit b of the word index: OR the two words it tells apart.
        let lo = insert_zero(k, b);
        let x = s.0[lo] | s.0[lo | (1 << b)];
        // Pixels b and b+3 are bits b and b+3 of the position inside the word.
        let y = x | x >> (1 << b);
        let y = y | y >> (8 << b);
        out |= compress_col(y, b) << (16 * k);
    }
    out
}

/// Fold away the top row, pixels 0, 1, 2: each byte of a word ORs into one bit.
#[inline(always)]
pub fn fold_top(s: &Slice) -> u64 {
    let mut out = 0;
    for (w, &x) in s.0.iter().enumerate() {
        let y = x | x >> 1;
        let y = y | y >> 2;
        let y = y | y >> 4;
        // Gather bit 0 of every byte into one byte (no two partial products collide).
        let byte = (y & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        out |= byte << (8 * w);
    }
    out
}

/// Fold away the bottom row, pixels 6, 7, 8: they select the word, so OR all words.
#[inline(always)]
pub fn fold_bottom(s: &Slice) -> u64 {
    s.0.iter().fold(0, |a, w| a | w)
}
// ANCHOR_END: fold

// ANCHOR: expand
/// Insert the column of pixels `b`, `b+3`, `b+6` back: every constellation of
/// the sliver, with any states of the three pixels.
#[inline(always)]
pub const fn expand_column(sliver: u64, b: usize) -> Slice {
    let mut out = Slice::EMPTY;
    // A `while` loop so that tables of expansions can be built at compile time.
    let mut k = 0;
    while k < 4 {
        let z = spread_col((sliver >> (16 * k)) & 0xffff, b);
        let z = z | z << (1 << b);
        let z = z | z << (8 << b);
        let lo = insert_zero(k, b);
        out.0[lo] = z;
        out.0[lo | (1 << b)] = z;
        k += 1;
    }
    out
}

// ANCHOR: bmi2
/// The positions that survive folding away column `b` (bits b and b+3 clear).
const fn column_mask(b: usize) -> u64 {
    if b == 0 { 0x0055_0055_0055_0055 } else { 0x0000_0000_0f0f_0f0f }
}

/// [`fold_column`] with BMI2's `pext` doing the packing.
///
/// # Safety
/// The CPU must support BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
pub unsafe fn fold_column_bmi2(s: &Slice, b: usize) -> u64 {
    use std::arch::x86_64::_pext_u64;
    let mut out = 0;
    for k in 0..4 {
        let lo = insert_zero(k, b);
        let x = s.0[lo] | s.0[lo | (1 << b)];
        let y = x | x >> (1 << b);
        let y = y | y >> (8 << b);
        out |= _pext_u64(y, column_mask(b)) << (16 * k);
    }
    out
}

/// [`expand_column`] with BMI2's `pdep` doing the spreading.
///
/// # Safety
/// The CPU must support BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
#[inline]
pub unsafe fn expand_column_bmi2(sliver: u64, b: usize) -> Slice {
    use std::arch::x86_64::_pdep_u64;
    let mut out = Slice::EMPTY;
    for k in 0..4 {
        let z = _pdep_u64((sliver >> (16 * k)) & 0xffff, column_mask(b));
        let z = z | z << (1 << b);
        let z = z | z << (8 << b);
        let lo = insert_zero(k, b);
        out.0[lo] = z;
        out.0[lo | (1 << b)] = z;
    }
    out
}
// ANCHOR_END: bmi2

// ANCHOR: avx2
/// [`fold_column`] on two 256-bit halves, with no scalar step until the end:
/// pixel `b+6` pairs words across (b = 2) or within (b = 0) the halves, two
/// shifts fold pixels `b` and `b+3` in all four groups at once, shifts and
/// masks pack each group's 16 surviving bits into two bytes, and one byte
/// shuffle puts the four groups in order.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub unsafe fn fold_column_avx2(s: &Slice, b: usize) -> u64 {
    use std::arch::x86_64::*;
    let (lo, hi) = halves(s);
    let splat = |m: u64| _mm256_set1_epi64x(m as i64);
    if b == 0 {
        // Lanes: groups 0, 2 | 1, 3 (words 0|1, 4|5 | 2|3, 6|7).
        let x = _mm256_or_si256(_mm256_unpacklo_epi64(lo, hi), _mm256_unpackhi_epi64(lo, hi));
        let y = _mm256_or_si256(x, _mm256_srli_epi64::<1>(x));
        let y = _mm256_or_si256(y, _mm256_srli_epi64::<8>(y));
        // Survivors: bits 0, 2, 4, 6 of bytes 0, 2, 4, 6; gather them into
        // nibbles, then the nibbles of bytes 0|2 and 4|6 into bytes 0 and 4.
        let z = _mm256_and_si256(y, splat(0x0055_0055_0055_0055));
        let z = _mm256_and_si256(_mm256_or_si256(z, _mm256_srli_epi64::<1>(z)), splat(0x0033_0033_0033_0033));
        let z = _mm256_and_si256(_mm256_or_si256(z, _mm256_srli_epi64::<2>(z)), splat(0x000f_000f_000f_000f));
        let z = _mm256_or_si256(z, _mm256_srli_epi64::<12>(z));
        // Group g to bytes 2g, 2g+1 of the result: the low half holds groups
        // 0 and 2, the high half 1 and 3, so OR the halves after shuffling.
        let pick = _mm256_setr_epi8(
            0, 4, -1, -1, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, //
            -1, -1, 0, 4, -1, -1, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1,
        );
        let p = _mm256_shuffle_epi8(z, pick);
        let q = _mm_or_si128(_mm256_castsi256_si128(p), _mm256_extracti128_si256::<1>(p));
        _mm_cvtsi128_si64(q) as u64
    } else {
        // Lanes: groups 0-3 (words k | k+4).
        let x = _mm256_or_si256(lo, hi);
        let y = _mm256_or_si256(x, _mm256_srli_epi64::<4>(x));
        let y = _mm256_or_si256(y, _mm256_srli_epi64::<32>(y));
        // Survivors: bits 0-3 of bytes 0-3; the nibbles of bytes 0|1 and 2|3
        // into bytes 0 and 2.
        let z = _mm256_and_si256(y, splat(0x0f0f_0f0f));
        let z = _mm256_or_si256(z, _mm256_srli_epi64::<4>(z));
        let pick = _mm256_setr_epi8(
            0, 2, 8, 10, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, //
            0, 2, 8, 10, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        );
        let p = _mm256_shuffle_epi8(z, pick);
        // Dwords 0 and 4 hold groups 0, 1 and 2, 3.
        let q = _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
        _mm256_extract_epi64::<0>(q) as u64
    }
}

/// [`fold_top`]: byte `j` of word `w` holds the 8 states of pixels 0-2, so the
/// sliver's bit `8w + j` is "that byte is not zero", one compare and one
/// `movemask` per half.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub unsafe fn fold_top_avx2(s: &Slice) -> u64 {
    use std::arch::x86_64::*;
    let (lo, hi) = halves(s);
    let zero = _mm256_setzero_si256();
    let a = _mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, zero)) as u32 as u64;
    let b = _mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, zero)) as u32 as u64;
    !(a | b << 32)
}

/// [`fold_bottom`]: OR the two halves, then the two 128-bit lanes, then the two words.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub unsafe fn fold_bottom_avx2(s: &Slice) -> u64 {
    use std::arch::x86_64::*;
    let (lo, hi) = halves(s);
    let x = _mm256_or_si256(lo, hi);
    let y = _mm_or_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
    let z = _mm_or_si128(y, _mm_unpackhi_epi64(y, y));
    _mm_cvtsi128_si64(z) as u64
}

/// [`expand_top`]: the inverse of `movemask`: spread bit `8w + j` over byte `j`
/// of word `w` (copy each sliver byte over eight bytes, test one bit in each).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub unsafe fn expand_top_avx2(sliver: u64) -> Slice {
    use std::arch::x86_64::*;
    // Within each 128-bit lane: bytes 0-7 from sliver byte 2l, 8-15 from byte 2l+1.
    let pick = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
    );
    let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    let spread = |v: u32| {
        let x = _mm256_shuffle_epi8(_mm256_set1_epi32(v as i32), pick);
        _mm256_cmpeq_epi8(_mm256_and_si256(x, bit), bit)
    };
    let (lo, hi) = (spread(sliver as u32), spread((sliver >> 32) as u32));
    let mut out = Slice::EMPTY;
    let p = out.0.as_mut_ptr() as *mut __m256i;
    // SAFETY: a slice is 64 bytes of words, two unaligned 256-bit stores.
    unsafe {
        _mm256_storeu_si256(p, lo);
        _mm256_storeu_si256(p.add(1), hi);
    }
    out
}

/// A slice's words 0-3 and 4-7 as two 256-bit vectors.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn halves(s: &Slice) -> (std::arch::x86_64::__m256i, std::arch::x86_64::__m256i) {
    use std::arch::x86_64::*;
    let p = s.0.as_ptr() as *const __m256i;
    // SAFETY: a slice is 64 bytes of words, two unaligned 256-bit loads.
    unsafe { (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1))) }
}
// ANCHOR_END: avx2

const fn spread_bytes() -> [u64; 256] {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if (b >> k) & 1 == 1 {
                t[b] |= 0xff << (8 * k);
            }
            k += 1;
        }
        b += 1;
    }
    t
}
/// Bit k of the index becomes byte k full of ones.
static SPREAD: [u64; 256] = spread_bytes();

/// Insert the top row back.
#[inline(always)]
pub fn expand_top(sliver: u64) -> Slice {
    let mut out = Slice::EMPTY;
    for (w, o) in out.0.iter_mut().enumerate() {
        *o = SPREAD[((sliver >> (8 * w)) & 0xff) as usize];
    }
    out
}

/// Insert the bottom row back.
#[inline(always)]
pub fn expand_bottom(sliver: u64) -> Slice {
    Slice([sliver; 8])
}
// ANCHOR_END: expand

// ANCHOR: confront
/// Which members of a confrontation lost constellations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Changed {
    pub first: bool,
    pub second: bool,
}

/// Confront two slivers: AND them and cut each parent down to the expansion
/// of the result. A member changes exactly when its sliver is not inside the
/// intersection.
#[inline(always)]
fn confront(
    a: &mut Slice,
    b: &mut Slice,
    sa: u64,
    sb: u64,
    expand_a: impl Fn(u64) -> Slice,
    expand_b: impl Fn(u64) -> Slice,
) -> Result<Changed, Contradiction> {
    let s = sa & sb;
    if s == 0 {
        return Err(Contradiction);
    }
    let ch = Changed { first: sa != s, second: sb != s };
    if ch.first {
        *a = a.and(&expand_a(s));
    }
    if ch.second {
        *b = b.and(&expand_b(s));
    }
    Ok(ch)
}

/// East-west: `w` is the west member (drops its west column), `e` the east one.
#[inline]
pub fn confront_ew<L: Layout>(w: &mut Slice, e: &mut Slice) -> Result<Changed, Contradiction> {
    let (sw, se) = (fold_column(w, L::WEST), fold_column(e, L::EAST));
    confront(w, e, sw, se, |s| expand_column(s, L::WEST), |s| expand_column(s, L::EAST))
}

/// North-south: `n` is the north member (drops its top row), `s` the south one.
#[inline]
pub fn confront_ns(n: &mut Slice, s: &mut Slice) -> Result<Changed, Contradiction> {
    let (sn, ss) = (fold_top(n), fold_bottom(s));
    confront(n, s, sn, ss, expand_top, expand_bottom)
}
// ANCHOR_END: confront

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Random slices of every density, sparse ones included (they exercise
    /// the zero bytes and groups the vector code tests for).
    fn slices() -> Vec<Slice> {
        let mut rng = rand_pcg::Pcg64::seed_from_u64(6);
        (0..2000)
            .map(|i| {
                let p = [0.002, 0.02, 0.1, 0.5, 0.9][i % 5];
                Slice(std::array::from_fn(|_| (0..64).fold(0, |w, b| w | (rng.random_bool(p) as u64) << b)))
            })
            .collect()
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_folds_and_expands_match_portable() {
        if !(std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2")) {
            return;
        }
        for s in slices() {
            // SAFETY: the features were detected above.
            unsafe {
                assert_eq!(fold_column_avx2(&s, 0), fold_column(&s, 0));
                assert_eq!(fold_column_avx2(&s, 2), fold_column(&s, 2));
                assert_eq!(fold_top_avx2(&s), fold_top(&s));
                assert_eq!(fold_bottom_avx2(&s), fold_bottom(&s));
                let x = s.0[3] ^ s.0[5].rotate_left(17);
                assert_eq!(expand_top_avx2(x), expand_top(x));
            }
        }
    }
}
