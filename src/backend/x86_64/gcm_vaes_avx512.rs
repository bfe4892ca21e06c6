//! AES-GCM and AES-GCM-SIV on VAES + VPCLMULQDQ with 512-bit registers.
//!
//! Sixteen blocks per iteration, four blocks per register: the AES rounds of
//! one group of 16 with the 16 carry-less multiplies of another (or the same),
//! one reduction per group done on all four lanes at once and then folded to
//! one block. The key holds H^1..H^8; H^9..H^16 are computed per call (two
//! 4-lane products) when a message has at least one whole 256-byte group.
//!
//! The wide loops cover whole 256-byte groups from the start of the data; what
//! is left (< 256 bytes) is finished by the AES-NI tier's pieces
//! (`gcm_aesni::seal_from`, `siv::open_from`, …), which this tier's features
//! include, compiled here with VEX encodings. The contracts of the entry points
//! are those of `gcm_aesni.rs` and `siv.rs`.

use core::arch::x86_64::*;

use zeroize::Zeroize;

use super::aes::load_round_keys;
use super::ctr::{for_hash, load_powers};
use super::{gcm_aesni, siv};
use crate::backend::{Block, HPowers, InOut, RoundKeys};
use crate::cpu::VaesAvx512;

/// Bytes per wide iteration: sixteen blocks.
const WIDE: usize = 256;

/// A round key in all four lanes.
type Key = __m512i;

/// Sixteen blocks: four per register.
type Group = [__m512i; 4];

/// An unreduced sum of 4-lane products (see `Wide` in `clmul.rs`).
#[derive(Clone, Copy)]
struct Wide4 {
    lo: __m512i,
    mid: __m512i,
    hi: __m512i,
}

vaes_avx512! {
    /// Lane-wise XOR.
    #[inline]
    fn xor(a: __m512i, b: __m512i) -> __m512i {
        _mm512_xor_si512(a, b)
    }

    /// Four copies of a block.
    #[inline]
    fn splat(x: __m128i) -> __m512i {
        _mm512_broadcast_i32x4(x)
    }

    /// The round keys, each in all four lanes.
    #[inline]
    fn splat_keys<const NK: usize>(rk: &[__m128i; NK]) -> [__m512i; NK] {
        let mut out = [_mm512_setzero_si512(); NK];
        for (o, k) in out.iter_mut().zip(rk) {
            *o = splat(*k);
        }
        out
    }

    /// Sixteen blocks from 256 bytes.
    #[inline]
    fn load_group(bytes: &[u8; WIDE]) -> [__m512i; 4] {
        let mut out = [_mm512_setzero_si512(); 4];
        for (i, v) in out.iter_mut().enumerate() {
            // SAFETY: register `i < 4` reads bytes 64i..64i+64 of the 256-byte array.
            *v = unsafe { _mm512_loadu_si512(bytes.as_ptr().add(64 * i).cast()) };
        }
        out
    }

    /// Sixteen blocks into 256 bytes.
    #[inline]
    fn store_group_to(out: &mut [u8; WIDE], v: &[__m512i; 4]) {
        for (i, v) in v.iter().enumerate() {
            // SAFETY: register `i < 4` writes bytes 64i..64i+64 of the 256-byte array.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(64 * i).cast(), *v) };
        }
    }

    /// Four blocks as the hash takes them (see `ctr::for_hash`).
    #[inline]
    fn for_hash_reg<const GCM: bool>(x: __m512i) -> __m512i {
        if GCM {
            let mask = _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
            _mm512_shuffle_epi8(x, mask)
        } else {
            x
        }
    }

    /// The next sixteen counter blocks (`ctr` as in `ctr.rs`): lane j of
    /// register i holds counter `4i + j`.
    #[inline]
    fn counters_group<const GCM: bool>(ctr: &mut __m128i) -> [__m512i; 4] {
        // As in the AVX2 tier: without a carry out of the low byte, add to byte
        // 15 of the big-endian block and skip the per-register shuffles.
        let no_carry = GCM && (_mm_cvtsi128_si32(*ctr) as u32 & 0xff) + 16 <= 256;
        let (first, four) = if no_carry {
            let be = splat(for_hash::<true>(*ctr));
            (
                _mm512_add_epi32(be, _mm512_set_epi32(3 << 24, 0, 0, 0, 2 << 24, 0, 0, 0, 1 << 24, 0, 0, 0, 0, 0, 0, 0)),
                _mm512_set_epi32(4 << 24, 0, 0, 0, 4 << 24, 0, 0, 0, 4 << 24, 0, 0, 0, 4 << 24, 0, 0, 0),
            )
        } else {
            (
                _mm512_add_epi32(splat(*ctr), _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0)),
                _mm512_set_epi32(0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4),
            )
        };
        let mut out = [first; 4];
        for i in 1..4 {
            out[i] = _mm512_add_epi32(out[i - 1], four);
        }
        if !no_carry {
            for o in out.iter_mut() {
                *o = for_hash_reg::<GCM>(*o);
            }
        }
        *ctr = _mm_add_epi32(*ctr, _mm_set_epi32(0, 0, 0, 16));
        out
    }

    /// `acc += a · b` lane by lane, unreduced (four multiplies per lane; the
    /// middle terms are added with one three-way XOR).
    #[inline]
    fn mul_acc4(acc: &mut Wide4, a: __m512i, b: __m512i) {
        acc.lo = _mm512_xor_si512(acc.lo, _mm512_clmulepi64_epi128::<0x00>(a, b));
        acc.hi = _mm512_xor_si512(acc.hi, _mm512_clmulepi64_epi128::<0x11>(a, b));
        acc.mid = _mm512_ternarylogic_epi64::<0x96>(
            acc.mid,
            _mm512_clmulepi64_epi128::<0x01>(a, b),
            _mm512_clmulepi64_epi128::<0x10>(a, b),
        );
    }

    /// The reduction of `clmul.rs`, on each lane.
    #[inline]
    fn reduce4(v: Wide4) -> __m512i {
        let c = _mm512_set1_epi64(0xc200_0000_0000_0000_u64 as i64);
        let l = _mm512_xor_si512(v.lo, _mm512_bslli_epi128::<8>(v.mid));
        let h = _mm512_xor_si512(v.hi, _mm512_bsrli_epi128::<8>(v.mid));
        let m = _mm512_xor_si512(_mm512_shuffle_epi32::<0x4e>(l), _mm512_clmulepi64_epi128::<0x00>(l, c));
        _mm512_ternarylogic_epi64::<0x96>(h, _mm512_shuffle_epi32::<0x4e>(m), _mm512_clmulepi64_epi128::<0x00>(m, c))
    }

    /// The sum of the four lanes.
    #[inline]
    fn fold_lanes(v: __m512i) -> __m128i {
        let y = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
        _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256::<1>(y))
    }

    /// The sixteen powers for a group: register i, lane j holds H^(16 − 4i − j),
    /// so block 4i + j of a group is multiplied by it.
    #[inline]
    fn group_powers(h: &[__m128i; 8]) -> [__m512i; 4] {
        let lanes = |a: __m128i, b: __m128i, c: __m128i, d: __m128i| {
            let v = _mm512_castsi128_si512(a);
            let v = _mm512_inserti32x4::<1>(v, b);
            let v = _mm512_inserti32x4::<2>(v, c);
            _mm512_inserti32x4::<3>(v, d)
        };
        let p3 = lanes(h[3], h[2], h[1], h[0]);
        let p2 = lanes(h[7], h[6], h[5], h[4]);
        let h4 = splat(h[3]);
        let mut w = Wide4 { lo: _mm512_setzero_si512(), mid: _mm512_setzero_si512(), hi: _mm512_setzero_si512() };
        mul_acc4(&mut w, p2, h4);
        let p1 = reduce4(w);
        let mut w = Wide4 { lo: _mm512_setzero_si512(), mid: _mm512_setzero_si512(), hi: _mm512_setzero_si512() };
        mul_acc4(&mut w, p1, h4);
        let p0 = reduce4(w);
        [p0, p1, p2, p3]
    }

    /// Folds sixteen hash-ready blocks into `acc` with one reduction.
    #[inline]
    fn hash_group(acc: __m128i, x: &[__m512i; 4], p: &[__m512i; 4]) -> __m128i {
        let mut w = Wide4 { lo: _mm512_setzero_si512(), mid: _mm512_setzero_si512(), hi: _mm512_setzero_si512() };
        for i in (1..4).rev() {
            mul_acc4(&mut w, x[i], p[i]);
        }
        mul_acc4(&mut w, _mm512_xor_si512(x[0], _mm512_zextsi128_si512(acc)), p[0]);
        fold_lanes(reduce4(w))
    }

    /// One AES round on sixteen blocks.
    #[inline]
    fn aes_round4(b: &mut [__m512i; 4], k: __m512i) {
        for b in b.iter_mut() {
            *b = _mm512_aesenc_epi128(*b, k);
        }
    }

    /// Encrypts sixteen blocks.
    #[inline]
    fn encrypt_group<const NK: usize>(rk: &[__m512i; NK], b: &mut [__m512i; 4]) {
        for b in b.iter_mut() {
            *b = _mm512_xor_si512(*b, rk[0]);
        }
        for k in &rk[1..NK - 1] {
            aes_round4(b, *k);
        }
        for b in b.iter_mut() {
            *b = _mm512_aesenclast_epi128(*b, rk[NK - 1]);
        }
    }

    /// Sixteen AES encryptions with, between their rounds, the sixteen
    /// multiplies of the blocks `x` (loaded and made hash-ready where they are
    /// used; one 4-lane multiply every other round, the one that needs `acc`
    /// last). Returns the keystream and the new accumulator.
    #[inline]
    fn aes_hash_group<const NK: usize, const GCM: bool>(
        rk: &[__m512i; NK],
        mut b: [__m512i; 4],
        x: &[u8; WIDE],
        acc: __m128i,
        p: &[__m512i; 4],
    ) -> ([__m512i; 4], __m128i) {
        const { assert!(NK >= 11) };
        let x = load_group(x);
        let mut w = Wide4 { lo: _mm512_setzero_si512(), mid: _mm512_setzero_si512(), hi: _mm512_setzero_si512() };
        for b in b.iter_mut() {
            *b = _mm512_xor_si512(*b, rk[0]);
        }
        for k in 0..4 {
            aes_round4(&mut b, rk[1 + 2 * k]);
            let i = 3 - k;
            let xi = for_hash_reg::<GCM>(x[i]);
            let xi = if i == 0 { _mm512_xor_si512(xi, _mm512_zextsi128_si512(acc)) } else { xi };
            mul_acc4(&mut w, xi, p[i]);
            aes_round4(&mut b, rk[2 + 2 * k]);
        }
        for k in &rk[9..NK - 1] {
            aes_round4(&mut b, *k);
        }
        for b in b.iter_mut() {
            *b = _mm512_aesenclast_epi128(*b, rk[NK - 1]);
        }
        (b, fold_lanes(reduce4(w)))
    }

}

wide_engine!(vaes_avx512, VaesAvx512);
