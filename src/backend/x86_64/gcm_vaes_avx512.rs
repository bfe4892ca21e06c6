//! AES-GCM and AES-GCM-SIV on VAES + VPCLMULQDQ with 512-bit registers.
//!
//! Four blocks per register. Messages from `BIG_FROM` bytes go through groups
//! of eight registers (32 blocks, 512 bytes), shorter ones (and what is left
//! after the big groups) through groups of four (256 bytes); the loops and
//! the reasons for their shape are `wide.rs`'s. The key holds H^1..H^8;
//! H^9..H^16 (small groups) or H^9..H^32 (big) are computed per call. Less
//! than 256 bytes is finished by the AES-NI tier's pieces (`gcm_aesni`,
//! `siv`), which this tier's features include, compiled here with VEX
//! encodings. The contracts of the entry points are those of `gcm_aesni.rs`
//! and `siv.rs`.

use core::arch::x86_64::*;

use zeroize::Zeroize;

use super::ctr::for_hash;
use super::{gcm_aesni, siv};
use crate::backend::{Block, HPowers, InOut, RoundKeys};
use crate::cpu::VaesAvx512;

/// Registers per group in the main loop: eight independent AES chains.
const BIG: usize = 8;

/// Registers per group for short messages and what the big groups leave.
const SMALL: usize = 4;

/// The message length from which the big groups pay for their 16 extra
/// powers (`perf stat`, AES-256-GCM seal: docs/benchmarks.md).
const BIG_FROM: usize = 2048;

/// Bytes per register.
const RB: usize = 64;

/// A register of blocks.
type Reg = __m512i;

/// A round key in all four lanes.
type Key = Reg;

/// An unreduced sum of 4-lane products (see `Wide` in `clmul.rs`).
#[derive(Clone, Copy)]
struct Wide {
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

    /// A register from its bytes.
    #[inline]
    fn load_reg(bytes: &[u8; RB]) -> Reg {
        // SAFETY: an unaligned load of exactly the 64 bytes of `bytes`.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
    }

    /// A register into its bytes.
    #[inline]
    fn store_reg(out: &mut [u8; RB], v: Reg) {
        // SAFETY: an unaligned store of exactly the 64 bytes of `out`.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) }
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

    /// The next `4 * N` counter blocks (`ctr` as in `ctr.rs`): lane j of
    /// register i holds counter `4i + j`. Each register is the first plus a
    /// constant, so no register waits for another.
    #[inline]
    fn counters_group<const GCM: bool, const N: usize>(ctr: &mut __m128i) -> [Reg; N] {
        // As in the AVX2 tier: without a carry out of the low byte, add to byte
        // 15 of the big-endian block and skip the per-register shuffles (the
        // branch depends only on the block position, which is public).
        let no_carry = GCM && (_mm_cvtsi128_si32(*ctr) as u32 & 0xff) as usize + 4 * N <= 256;
        let lanes = |n: [i32; 4]| {
            if no_carry {
                _mm512_set_epi32(n[3] << 24, 0, 0, 0, n[2] << 24, 0, 0, 0, n[1] << 24, 0, 0, 0, n[0] << 24, 0, 0, 0)
            } else {
                _mm512_set_epi32(0, 0, 0, n[3], 0, 0, 0, n[2], 0, 0, 0, n[1], 0, 0, 0, n[0])
            }
        };
        let base = if no_carry { splat(for_hash::<true>(*ctr)) } else { splat(*ctr) };
        let out = core::array::from_fn(|i| {
            let n = 4 * i as i32;
            let c = _mm512_add_epi32(base, lanes([n, n + 1, n + 2, n + 3]));
            if no_carry { c } else { for_hash_reg::<GCM>(c) }
        });
        *ctr = _mm_add_epi32(*ctr, _mm_set_epi32(0, 0, 0, 4 * N as i32));
        out
    }

    /// The empty sum.
    #[inline]
    fn wide_zero() -> Wide {
        Wide { lo: _mm512_setzero_si512(), mid: _mm512_setzero_si512(), hi: _mm512_setzero_si512() }
    }

    /// `acc += a · b` lane by lane, unreduced (four multiplies per lane; the
    /// middle terms are added with one three-way XOR). For the powers.
    #[inline]
    fn mul_acc4(acc: &mut Wide, a: __m512i, b: __m512i) {
        acc.lo = _mm512_xor_si512(acc.lo, _mm512_clmulepi64_epi128::<0x00>(a, b));
        acc.hi = _mm512_xor_si512(acc.hi, _mm512_clmulepi64_epi128::<0x11>(a, b));
        acc.mid = _mm512_ternarylogic_epi64::<0x96>(
            acc.mid,
            _mm512_clmulepi64_epi128::<0x01>(a, b),
            _mm512_clmulepi64_epi128::<0x10>(a, b),
        );
    }

    /// `acc += a · b` lane by lane with three multiplies (Karatsuba): `bk`
    /// holds `b`'s halves XORed, `acc.mid` collects the products of the
    /// halves' sums, and [`karatsuba_done`] turns it into the middle term.
    /// The multiplier has half the throughput of the AES units on the CPUs
    /// with VAES measured here: three multiplies instead of four is what lets
    /// a group's hash fit under its AES.
    #[inline]
    fn mul_acc_k(acc: &mut Wide, a: __m512i, b: __m512i, bk: __m512i) {
        let ak = _mm512_xor_si512(a, _mm512_shuffle_epi32::<0x4e>(a));
        acc.lo = _mm512_xor_si512(acc.lo, _mm512_clmulepi64_epi128::<0x00>(a, b));
        acc.hi = _mm512_xor_si512(acc.hi, _mm512_clmulepi64_epi128::<0x11>(a, b));
        acc.mid = _mm512_xor_si512(acc.mid, _mm512_clmulepi64_epi128::<0x00>(ak, bk));
    }

    /// A sum built with [`mul_acc_k`] as an ordinary unreduced sum.
    #[inline]
    fn karatsuba_done(w: Wide) -> Wide {
        Wide { mid: _mm512_ternarylogic_epi64::<0x96>(w.mid, w.lo, w.hi), ..w }
    }

    /// The reduction of `clmul.rs`, on each lane.
    #[inline]
    fn reduce4(v: Wide) -> __m512i {
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

    /// `a · b` lane by lane, reduced.
    #[inline]
    fn mul4(a: __m512i, b: __m512i) -> __m512i {
        let mut w = wide_zero();
        mul_acc4(&mut w, a, b);
        reduce4(w)
    }

    /// The multipliers of a big group (`Powers`) from H^1..H^8 (`h`, eight
    /// 16-byte powers in order): the last two registers from the key, the two
    /// before them times H^8 and, if `big` groups will be used, the first four
    /// those times H^16 (else zero).
    #[inline]
    fn group_powers<B>(h: &[B; 8], big: bool) -> Powers<BIG> {
        const { assert!(size_of::<B>() == 16 && BIG == 8) };
        // SAFETY: `h` is 8 × 16 = 128 bytes (asserted above); the loads read
        // bytes 0..64 and 64..128 of it, unaligned.
        let (low, high) = unsafe {
            let ptr = h.as_ptr().cast::<u8>();
            (_mm512_loadu_si512(ptr.cast()), _mm512_loadu_si512(ptr.add(64).cast()))
        };
        // Lane order reversed with a constant shuffle: H^4..H^1, H^8..H^5.
        let mut p = [_mm512_setzero_si512(); BIG];
        p[7] = _mm512_shuffle_i64x2::<0x1b>(low, low);
        p[6] = _mm512_shuffle_i64x2::<0x1b>(high, high);
        let h8 = splat_key(&h[7]);
        p[5] = mul4(p[7], h8);
        p[4] = mul4(p[6], h8);
        if big {
            let h16 = splat(_mm512_castsi512_si128(p[4]));
            for i in 0..4 {
                p[i] = mul4(p[i + 4], h16);
            }
        }
        let k = core::array::from_fn(|i| _mm512_xor_si512(p[i], _mm512_shuffle_epi32::<0x4e>(p[i])));
        Powers { p, k }
    }

    /// A block in lane 0, zeros in the others.
    #[inline]
    fn widen(x: __m128i) -> __m512i {
        _mm512_zextsi128_si512(x)
    }

    /// The value of an unreduced sum: one reduction, lanes added.
    #[inline]
    fn sum_value(s: Wide) -> __m128i {
        fold_lanes(reduce4(s))
    }

    /// The last AES round of one register.
    #[inline]
    fn aes_last(b: __m512i, k: __m512i) -> __m512i {
        _mm512_aesenclast_epi128(b, k)
    }
}

wide_engine!(vaes_avx512, VaesAvx512, zmm_reg, "vbroadcasti32x4");
