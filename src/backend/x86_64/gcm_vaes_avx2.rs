//! AES-GCM and AES-GCM-SIV on VAES + VPCLMULQDQ with 256-bit registers (AVX2).
//!
//! Twelve blocks per iteration, two blocks per register (six registers): the
//! AES rounds of one group with the twelve carry-less multiplies of another (or
//! the same), one reduction per group on both lanes at once, then folded to one
//! block. For CPUs that have VAES but no AVX-512, and for users who force this
//! tier to avoid 512-bit registers. The loops and entry points are
//! `wide.rs`'s; this file supplies the 256-bit pieces.

use core::arch::x86_64::*;

use zeroize::Zeroize;

use super::aes::load_round_keys;
use super::ctr::{for_hash, load_powers};
use super::{gcm_aesni, siv};
use crate::backend::{Block, HPowers, InOut, RoundKeys};
use crate::cpu::VaesAvx2;

/// Bytes per wide iteration: `2 * REGS` blocks.
const WIDE: usize = 32 * REGS;

/// Registers per group: twelve blocks. With sixteen ymm registers, a
/// sixteen-block group (eight registers of data plus the hash state and a
/// round key) spills; eight blocks leave the AES units too few chains. Twelve
/// measured best of four, six and eight registers (`perf stat`, AES-256 at
/// 12 KiB: 53, 53 and 54–56 cycles per 128 bytes for seal/open, against 57/55
/// for four).
const REGS: usize = 6;

/// A round key in both lanes.
type Key = __m256i;

/// A group of blocks: two per register.
type Group = [__m256i; REGS];

/// An unreduced sum of 2-lane products (see `Wide` in `clmul.rs`).
#[derive(Clone, Copy)]
struct Wide2 {
    lo: __m256i,
    mid: __m256i,
    hi: __m256i,
}

vaes_avx2! {
    /// Lane-wise XOR.
    #[inline]
    fn xor(a: __m256i, b: __m256i) -> __m256i {
        _mm256_xor_si256(a, b)
    }

    /// Two copies of a block.
    #[inline]
    fn splat(x: __m128i) -> __m256i {
        _mm256_broadcastsi128_si256(x)
    }

    /// The round keys, each in both lanes.
    #[inline]
    fn splat_keys<const NK: usize>(rk: &[__m128i; NK]) -> [__m256i; NK] {
        let mut out = [_mm256_setzero_si256(); NK];
        for (o, k) in out.iter_mut().zip(rk) {
            *o = splat(*k);
        }
        out
    }

    /// A group of blocks from `WIDE` bytes.
    #[inline]
    fn load_group(bytes: &[u8; WIDE]) -> Group {
        let mut out = [_mm256_setzero_si256(); REGS];
        for (i, v) in out.iter_mut().enumerate() {
            // SAFETY: register `i < REGS` reads bytes 32i..32i+32 of the `32 * REGS`-byte array.
            *v = unsafe { _mm256_loadu_si256(bytes.as_ptr().add(32 * i).cast()) };
        }
        out
    }

    /// Blocks 2i and 2i + 1 of a group.
    #[inline]
    fn load_at(bytes: &[u8; WIDE], i: usize) -> __m256i {
        assert!(i < REGS);
        // SAFETY: `i < REGS`, so bytes 32i..32i+32 lie inside the `32 * REGS`-byte array.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().add(32 * i).cast()) }
    }

    /// A group of blocks into `WIDE` bytes.
    #[inline]
    fn store_group_to(out: &mut [u8; WIDE], v: &Group) {
        for (i, v) in v.iter().enumerate() {
            // SAFETY: register `i < REGS` writes bytes 32i..32i+32 of the `32 * REGS`-byte array.
            unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(32 * i).cast(), *v) };
        }
    }

    /// Two blocks as the hash takes them (see `ctr::for_hash`).
    #[inline]
    fn for_hash_reg<const GCM: bool>(x: __m256i) -> __m256i {
        if GCM {
            let mask = splat(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
            _mm256_shuffle_epi8(x, mask)
        } else {
            x
        }
    }

    /// The next `2 * REGS` counter blocks (`ctr` as in `ctr.rs`): lane j of
    /// register i holds counter `2i + j`.
    #[inline]
    fn counters_group<const GCM: bool>(ctr: &mut __m128i) -> Group {
        // GCM's counter is big-endian in the last four bytes. When its low byte
        // cannot carry within the group, add to byte 15 of the big-endian block
        // directly: one shuffle per group instead of one per register (the
        // branch depends only on the block position, which is public).
        let no_carry = GCM && (_mm_cvtsi128_si32(*ctr) as u32 & 0xff) as usize + 2 * REGS <= 256;
        let (first, step) = if no_carry {
            let be = splat(for_hash::<true>(*ctr));
            (_mm256_add_epi32(be, _mm256_set_epi32(1 << 24, 0, 0, 0, 0, 0, 0, 0)), 2 << 24)
        } else {
            (_mm256_add_epi32(splat(*ctr), _mm256_set_epi32(0, 0, 0, 1, 0, 0, 0, 0)), 2)
        };
        let step = if no_carry {
            _mm256_set_epi32(step, 0, 0, 0, step, 0, 0, 0)
        } else {
            _mm256_set_epi32(0, 0, 0, step, 0, 0, 0, step)
        };
        let mut out = [first; REGS];
        for i in 1..REGS {
            out[i] = _mm256_add_epi32(out[i - 1], step);
        }
        if !no_carry {
            for o in out.iter_mut() {
                *o = for_hash_reg::<GCM>(*o);
            }
        }
        *ctr = _mm_add_epi32(*ctr, _mm_set_epi32(0, 0, 0, 2 * REGS as i32));
        out
    }

    /// The empty sum.
    #[inline]
    fn wide2_zero() -> Wide2 {
        Wide2 { lo: _mm256_setzero_si256(), mid: _mm256_setzero_si256(), hi: _mm256_setzero_si256() }
    }

    /// `acc += a · b` lane by lane, unreduced.
    #[inline]
    fn mul_acc2(acc: &mut Wide2, a: __m256i, b: __m256i) {
        acc.lo = _mm256_xor_si256(acc.lo, _mm256_clmulepi64_epi128::<0x00>(a, b));
        acc.hi = _mm256_xor_si256(acc.hi, _mm256_clmulepi64_epi128::<0x11>(a, b));
        acc.mid = _mm256_xor_si256(acc.mid, _mm256_clmulepi64_epi128::<0x01>(a, b));
        acc.mid = _mm256_xor_si256(acc.mid, _mm256_clmulepi64_epi128::<0x10>(a, b));
    }

    /// The reduction of `clmul.rs`, on each lane.
    #[inline]
    fn reduce2(v: Wide2) -> __m256i {
        let c = _mm256_set1_epi64x(0xc200_0000_0000_0000_u64 as i64);
        let l = _mm256_xor_si256(v.lo, _mm256_bslli_epi128::<8>(v.mid));
        let h = _mm256_xor_si256(v.hi, _mm256_bsrli_epi128::<8>(v.mid));
        let m = _mm256_xor_si256(_mm256_shuffle_epi32::<0x4e>(l), _mm256_clmulepi64_epi128::<0x00>(l, c));
        let r = _mm256_xor_si256(_mm256_shuffle_epi32::<0x4e>(m), _mm256_clmulepi64_epi128::<0x00>(m, c));
        _mm256_xor_si256(h, r)
    }

    /// The sum of the two lanes.
    #[inline]
    fn fold_lanes(v: __m256i) -> __m128i {
        _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v))
    }

    /// The powers for a group: register i, lane j holds H^(2·REGS − 2i − j),
    /// so block 2i + j of a group is multiplied by it.
    #[inline]
    fn group_powers(h: &[__m128i; 8]) -> Group {
        const { assert!(REGS >= 4 && REGS <= 8) };
        let mut p = [_mm256_setzero_si256(); REGS];
        // The last four registers from the key's H^1..H^8; the first ones are
        // the last ones times H^8.
        for i in 0..4 {
            p[REGS - 1 - i] = _mm256_set_m128i(h[2 * i], h[2 * i + 1]);
        }
        let h8 = splat(h[7]);
        for i in 0..REGS - 4 {
            let mut w = wide2_zero();
            mul_acc2(&mut w, p[i + 4], h8);
            p[i] = reduce2(w);
        }
        p
    }

    /// Folds a group of hash-ready blocks into `acc` with one reduction.
    #[inline]
    fn hash_group(acc: __m128i, x: &Group, p: &Group) -> __m128i {
        let mut w = wide2_zero();
        for i in (1..REGS).rev() {
            mul_acc2(&mut w, x[i], p[i]);
        }
        mul_acc2(&mut w, _mm256_xor_si256(x[0], _mm256_zextsi128_si256(acc)), p[0]);
        fold_lanes(reduce2(w))
    }

    /// One AES round on a group.
    #[inline]
    fn aes_round8(b: &mut Group, k: __m256i) {
        for b in b.iter_mut() {
            *b = _mm256_aesenc_epi128(*b, k);
        }
    }

    /// Encrypts a group.
    #[inline]
    fn encrypt_group<const NK: usize>(rk: &[__m256i; NK], b: &mut Group) {
        for b in b.iter_mut() {
            *b = _mm256_xor_si256(*b, rk[0]);
        }
        for k in &rk[1..NK - 1] {
            aes_round8(b, *k);
        }
        for b in b.iter_mut() {
            *b = _mm256_aesenclast_epi128(*b, rk[NK - 1]);
        }
    }

    /// A group of AES encryptions with, between their rounds, the
    /// multiplies of the blocks `x` (loaded and made hash-ready where they are
    /// used, so no register holds them across rounds; one 2-lane multiply per
    /// round in rounds 1..=REGS, the one that needs `acc` last). Returns the
    /// keystream and the new accumulator.
    #[inline]
    fn aes_hash_group<const NK: usize, const GCM: bool>(
        rk: &[__m256i; NK],
        mut b: Group,
        x: &[u8; WIDE],
        acc: __m128i,
        p: &Group,
    ) -> (Group, __m128i) {
        const { assert!(NK >= 11) };
        let mut w = wide2_zero();
        for b in b.iter_mut() {
            *b = _mm256_xor_si256(*b, rk[0]);
        }
        for (round, k) in rk[1..REGS].iter().enumerate() {
            aes_round8(&mut b, *k);
            let i = REGS - 1 - round;
            mul_acc2(&mut w, for_hash_reg::<GCM>(load_at(x, i)), p[i]);
        }
        aes_round8(&mut b, rk[REGS]);
        let x0 = _mm256_xor_si256(for_hash_reg::<GCM>(load_at(x, 0)), _mm256_zextsi128_si256(acc));
        mul_acc2(&mut w, x0, p[0]);
        for k in &rk[REGS + 1..NK - 1] {
            aes_round8(&mut b, *k);
        }
        for b in b.iter_mut() {
            *b = _mm256_aesenclast_epi128(*b, rk[NK - 1]);
        }
        (b, fold_lanes(reduce2(w)))
    }
}

wide_engine!(vaes_avx2, VaesAvx2);
