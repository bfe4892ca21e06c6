//! AES-GCM and AES-GCM-SIV on VAES + VPCLMULQDQ with 512-bit registers.
//!
//! Four blocks per register. Messages from `BIG_FROM` bytes go through groups
//! of eight registers (32 blocks, 512 bytes), shorter ones (and what is left
//! after the big groups) through groups of four (256 bytes); the loops and
//! the reasons for their shape are `engine.rs`'s, the entry points'
//! bodies `vaes.rs`'s. The key holds H^1..H^8;
//! H^9..H^16 (small groups) or H^9..H^32 (big) are computed per call. A GCM
//! message of at most 64 bytes with at most 32 bytes of AAD runs a leaf
//! function of xmm registers and byte-masked loads and stores
//! (`xmm_short`); any other of at most 256 bytes is one AES batch of up to
//! four registers (`one_batch`), or up to 32 bytes the AES-NI tier's code.
//! What the groups of a longer GCM message
//! leave (less than one small group) is one masked batch too
//! (`rest_batch`) from 33 bytes, and up to 32 bytes the xmm leaf's batch
//! from the state after the groups (`xmm_rest`); GCM-SIV's, the AES-NI
//! tier's pieces (`aesni::siv`); all called out of line
//! (`vaes.rs`: no legacy-SSE instruction runs after wide code). A GCM-SIV
//! message with at most 16 bytes of AAD is a leaf of xmm registers up to
//! 128 bytes (`siv_xmm_short`) and one masked batch of four registers up
//! to 256 (`siv_group`).
//! The contracts of the entry points are those of `aesni/gcm.rs` and
//! `aesni/siv.rs`.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use zeroize::Zeroize;

use super::vaes_register_pieces;
use super::{SMALL, Wide};
use crate::backend::x86_64::KeyBlock;
use crate::backend::x86_64::aes::{encrypt_blocks_in, expand_regs, expand_regs_riding};
use crate::backend::x86_64::aesni;
use crate::backend::x86_64::aesni::ctr::for_hash;
use crate::backend::x86_64::aesni::siv;
use crate::backend::x86_64::clmul;
use crate::backend::x86_64::engine::{BIG, LoopShape, Pieces, Powers};
use crate::backend::x86_64::vaes;
use crate::block::{Block, HPowers, RoundKeys};
use crate::cpu::VaesAvx512;
use crate::inout::InOut;

/// The message length from which the big groups pay for their 16 extra
/// powers, computed per call: below it, small groups, which need half the
/// powers (docs/design.md, "The wide tiers (`vaes.rs`, `vaes/avx2.rs`,
/// `vaes/avx512.rs`)"; chosen with `perf stat` of AES-256-GCM seals).
const BIG_FROM: usize = 2048;

/// The message length from which AES-128-GCM's big groups with four
/// multiplies (Intel) are hashed in pairs (`engine::hash_output_paired`).
/// Every 512-bit instruction issues on one of two ports on Intel's cores,
/// `vaesenc` on one of them: AES-128's group is bound by its count of
/// 512-bit instructions, which pairs cut by about 5.5 of 172 a group, so
/// from 64 KiB pairs take less time; below that the pairs' powers (8
/// products a call) cost more than they save. AES-256's group is bound by
/// its 112 AES rounds on their one port, which pairs do not change, so
/// AES-256 keeps single groups (docs/benchmarks.md, "Intel Emerald Rapids:
/// two ports for every 512-bit instruction"; the runs:
/// docs/measurements/2026-11-27-emerald-rapids/tables.md).
const PAIRS_FROM: usize = 65536;

/// The multiplies per product of GCM's group loops on a CPU whose
/// `vpclmulqdq` issues every cycle (`cpu::x86_64::clmul_every_cycle`: Intel),
/// four: schoolbook. Karatsuba's three trade a multiply for a shuffle on the
/// multiplier's port and an XOR, a loss where every 512-bit instruction
/// competes for two ports; four are faster from 16 KiB in seal and open
/// (docs/benchmarks.md, "Intel Emerald Rapids: two ports for every 512-bit
/// instruction"; run 3 of docs/measurements/2026-11-26-emerald-rapids/tables.md).
/// AMD keeps three (`engine.rs`).
const FULL_RATE_MULS: usize = 4;

/// Bytes per register.
const RB: usize = 64;

/// The longest message that the AES-NI tier's pieces seal or open faster
/// than one masked batch, and the longest tail after the groups that
/// [`xmm_rest`] takes: one or two xmm blocks are the shorter chain; at
/// 32 bytes the two are about even, and from 48 the batch is faster
/// (`perf stat` of AES-256-GCM seals; docs/design.md, "Short GCM messages
/// on AVX-512: one masked batch (`one_batch`)").
const XMM_REST: usize = 32;

/// The longest message [`xmm_short`] takes: four blocks and J0, five
/// independent AES chains of xmm registers. On Zen 4 this is faster than
/// the masked zmm batch up to 64 bytes (a 512-bit `vaesenc` is two 256-bit
/// halves there, and four lanes of one register cost what four xmm blocks
/// do), and than the AES-NI tier's code, with its stack copies and its
/// call layers, from 16 bytes (docs/benchmarks.md, "Short messages and key
/// setup beside haberdashery"). Chosen on Zen 4 alone: on Zen 5, whose
/// 512-bit units are full width, the masked zmm batch was the faster one
/// from 48 bytes against the AES-NI pieces, not yet timed against this leaf.
const XMM_SHORT_MAX: usize = 64;

/// The longest message [`gcm_short`] takes: one small group (four registers),
/// the most [`one_batch`] holds. At exactly one group the masked batch beats
/// the group loop with its per-call powers (Zen 4, `bench/examples/compare.rs`:
/// docs/design.md, "Tier and path choice per CPU").
const GCM_SHORT_MAX: usize = RB * SMALL;

/// A register of blocks (a round key in all four lanes is one too).
type Reg = __m512i;

/// An unreduced sum of 4-lane products.
type Unreduced = clmul::Unreduced<Reg>;

/// Lane-wise XOR.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn xor(a: __m512i, b: __m512i) -> __m512i {
    _mm512_xor_si512(a, b)
}

/// Four copies of a block.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn splat(x: __m128i) -> __m512i {
    _mm512_broadcast_i32x4(x)
}

/// A register from its bytes.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn load_reg(bytes: &[u8; RB]) -> Reg {
    // SAFETY: an unaligned load of exactly the 64 bytes of `bytes`.
    unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
}

/// A register into its bytes.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn store_reg(out: &mut [u8; RB], v: Reg) {
    // SAFETY: an unaligned store of exactly the 64 bytes of `out`.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) }
}

/// Four blocks as the hash takes them (see `ctr::for_hash`).
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn for_hash_reg<const GCM: bool>(x: __m512i) -> __m512i {
    if GCM {
        let mask = _mm512_broadcast_i32x4(_mm_set_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        ));
        _mm512_shuffle_epi8(x, mask)
    } else {
        x
    }
}

/// The next `4 * N` counter blocks (`ctr` as in `aesni/ctr.rs`): lane j of
/// register i holds counter `4i + j`. Each register is the first plus a
/// constant, so no register waits for another.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn counters_group<const GCM: bool, const N: usize>(ctr: &mut __m128i) -> [Reg; N] {
    // As in the AVX2 tier: without a carry out of the low byte, add to byte
    // 15 of the big-endian block and skip the per-register shuffles (the
    // branch depends only on the block position, which is public).
    let no_carry = GCM && (_mm_cvtsi128_si32(*ctr) as u32 & 0xff) as usize + 4 * N <= 256;
    let lanes = |n: [i32; 4]| {
        if no_carry {
            byte15_lanes(n)
        } else {
            _mm512_set_epi32(0, 0, 0, n[3], 0, 0, 0, n[2], 0, 0, 0, n[1], 0, 0, 0, n[0])
        }
    };
    let base = if no_carry {
        splat(for_hash::<true>(*ctr))
    } else {
        splat(*ctr)
    };
    let out = core::array::from_fn(|i| {
        let n = 4 * i as i32;
        let c = _mm512_add_epi32(base, lanes([n, n + 1, n + 2, n + 3]));
        if no_carry { c } else { for_hash_reg::<GCM>(c) }
    });
    *ctr = _mm_add_epi32(*ctr, _mm_set_epi32(0, 0, 0, 4 * N as i32));
    out
}

/// `n[j]` in byte 15 of lane j (the last byte of a big-endian block), zeros
/// elsewhere: what [`counters_group`] adds to a block's low byte when it
/// cannot carry, and what [`whitened_counters`] XORs into it.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn byte15_lanes(n: [i32; 4]) -> Reg {
    _mm512_set_epi32(
        n[3] << 24,
        0,
        0,
        0,
        n[2] << 24,
        0,
        0,
        0,
        n[1] << 24,
        0,
        0,
        0,
        n[0] << 24,
        0,
        0,
        0,
    )
}

/// [`counters_group`]'s blocks XORed with the round key `*k0`. A GCM
/// group of eight registers whose first counter's low byte is 2 modulo 32
/// (every big group of a message: its counters start at 2) and stays
/// below 256 for the group: with `b` that byte, `b + k` is
/// `b ^ (2 ^ (2 + k))` while `2 + k` < 32, so the first seven registers
/// (blocks 0 to 27) are the first block, whitened once, XORed with
/// constants; the last register, whose blocks 30 and 31 carry into bit 5,
/// is added and whitened. Any other group is `counters_group`'s, XORed.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn whitened_counters<B: KeyBlock, const GCM: bool, const N: usize>(
    ctr: &mut __m128i,
    k0: &B,
) -> [Reg; N] {
    let low = _mm_cvtsi128_si32(*ctr) as u32 & 0xff;
    let k = broadcast_block(k0);
    if !(GCM && N == BIG && low % 32 == 2 && low as usize + 4 * N <= 256) {
        return counters_group::<GCM, N>(ctr).map(|c| xor(c, k));
    }
    let base = splat(for_hash::<true>(*ctr));
    let first = xor(base, k);
    let out = core::array::from_fn(|i| {
        let n = 4 * i as i32;
        if i + 1 < N {
            let d = |j: i32| 2 ^ (2 + n + j);
            xor(first, byte15_lanes([d(0), d(1), d(2), d(3)]))
        } else {
            xor(
                _mm512_add_epi32(base, byte15_lanes([n, n + 1, n + 2, n + 3])),
                k,
            )
        }
    });
    *ctr = _mm_add_epi32(*ctr, _mm_set_epi32(0, 0, 0, 4 * N as i32));
    out
}

/// [`counters_group`]'s blocks without its shortcut: each block's
/// 32-bit counter added in full, then put in block order; no branch.
/// (`counters_group` keeps its own copy of this path: written as a call
/// to this function, the AES-256 seal of 256 bytes to 1 KiB measured
/// slower, from LLVM's layout of the group path.)
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn counters_exact<const GCM: bool, const N: usize>(ctr: __m128i) -> [Reg; N] {
    let base = splat(ctr);
    core::array::from_fn(|i| {
        let n = 4 * i as i32;
        let c = _mm512_add_epi32(
            base,
            _mm512_set_epi32(0, 0, 0, n + 3, 0, 0, 0, n + 2, 0, 0, 0, n + 1, 0, 0, 0, n),
        );
        for_hash_reg::<GCM>(c)
    })
}

/// The empty sum.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn unreduced_zero() -> Unreduced {
    Unreduced {
        lo: _mm512_setzero_si512(),
        mid: _mm512_setzero_si512(),
        hi: _mm512_setzero_si512(),
    }
}

/// `acc += a · b` lane by lane, unreduced (four multiplies per lane; the
/// middle terms are added with one three-way XOR). For the powers.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn mul_acc4(acc: &mut Unreduced, a: __m512i, b: __m512i) {
    acc.lo = _mm512_xor_si512(acc.lo, _mm512_clmulepi64_epi128::<0x00>(a, b));
    acc.hi = _mm512_xor_si512(acc.hi, _mm512_clmulepi64_epi128::<0x11>(a, b));
    acc.mid = _mm512_ternarylogic_epi64::<0x96>(
        acc.mid,
        _mm512_clmulepi64_epi128::<0x01>(a, b),
        _mm512_clmulepi64_epi128::<0x10>(a, b),
    );
}

/// `acc += a · b` lane by lane with `MULS` multiplies: 4, schoolbook
/// ([`mul_acc4`]; `bk` unused), or 3, Karatsuba: `bk` holds `b`'s halves
/// XORed, `acc.mid` collects the products of the halves' sums, and
/// [`sum_done`] turns it into the middle term. Which is faster depends
/// on the CPU (`engine.rs`): on AMD `vpclmulqdq` issues once every two
/// cycles and three multiplies are what let a group's hash fit under its
/// AES; on Intel it issues every cycle, on the port the shuffles use, and
/// the shuffle and XOR that Karatsuba adds cost more than the multiply it
/// saves.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn mul_acc<const MULS: usize>(acc: &mut Unreduced, a: __m512i, b: __m512i, bk: __m512i) {
    const { assert!(MULS == 3 || MULS == 4) };
    if MULS == 4 {
        mul_acc4(acc, a, b);
    } else {
        let ak = _mm512_xor_si512(a, _mm512_shuffle_epi32::<0x4e>(a));
        acc.lo = _mm512_xor_si512(acc.lo, _mm512_clmulepi64_epi128::<0x00>(a, b));
        acc.hi = _mm512_xor_si512(acc.hi, _mm512_clmulepi64_epi128::<0x11>(a, b));
        acc.mid = _mm512_xor_si512(acc.mid, _mm512_clmulepi64_epi128::<0x00>(ak, bk));
    }
}

/// The engine's `mul_acc_in_pairs`: the first register of a pair
/// (`first`) leaves its low and high products in `held`, and the second
/// adds both registers' at once with one three-way XOR each; the middle
/// terms go in as each register's are made. With four multiplies (Intel)
/// the two cross products go in with one three-way XOR (as in
/// [`mul_acc4`]): four XORs for two products instead of six, where every
/// 512-bit instruction issues on one of two ports and XORs are what the
/// loop runs out of (docs/benchmarks.md, "Intel Emerald Rapids: two ports
/// for every 512-bit instruction"). With three (Karatsuba: AMD), where
/// XORs share four pipes with the rounds and the multiplies (docs/design.md,
/// "Where the cycles go"), the same pairs, but not while the group hashed
/// is held in registers (`group_held`: a seal's loop): beside it, the
/// powers and Karatsuba's factors, the held products spilled, and seals
/// were slower (docs/design.md, "Multiplies per product").
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn mul_acc_in_pairs<const MULS: usize>(
    acc: &mut Unreduced,
    held: &mut Unreduced,
    first: bool,
    group_held: bool,
    a: __m512i,
    b: __m512i,
    bk: __m512i,
) {
    const { assert!(MULS == 3 || MULS == 4) };
    if MULS == 3 && group_held {
        return mul_acc::<MULS>(acc, a, b, bk);
    }
    let lo = _mm512_clmulepi64_epi128::<0x00>(a, b);
    let hi = _mm512_clmulepi64_epi128::<0x11>(a, b);
    acc.mid = if MULS == 4 {
        _mm512_ternarylogic_epi64::<0x96>(
            acc.mid,
            _mm512_clmulepi64_epi128::<0x01>(a, b),
            _mm512_clmulepi64_epi128::<0x10>(a, b),
        )
    } else {
        let ak = _mm512_xor_si512(a, _mm512_shuffle_epi32::<0x4e>(a));
        _mm512_xor_si512(acc.mid, _mm512_clmulepi64_epi128::<0x00>(ak, bk))
    };
    if first {
        held.lo = lo;
        held.hi = hi;
    } else {
        acc.lo = _mm512_ternarylogic_epi64::<0x96>(acc.lo, held.lo, lo);
        acc.hi = _mm512_ternarylogic_epi64::<0x96>(acc.hi, held.hi, hi);
    }
}

/// A sum built with [`mul_acc`] as an ordinary unreduced sum.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn sum_done<const MULS: usize>(w: Unreduced) -> Unreduced {
    if MULS == 4 {
        w
    } else {
        Unreduced {
            mid: _mm512_ternarylogic_epi64::<0x96>(w.mid, w.lo, w.hi),
            ..w
        }
    }
}

/// The reduction of `clmul.rs`, on each lane.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn reduce4(v: Unreduced) -> __m512i {
    let c = _mm512_set1_epi64(0xc200_0000_0000_0000_u64 as i64);
    let m = _mm512_ternarylogic_epi64::<0x96>(
        v.mid,
        _mm512_shuffle_epi32::<0x4e>(v.lo),
        _mm512_clmulepi64_epi128::<0x00>(v.lo, c),
    );
    _mm512_ternarylogic_epi64::<0x96>(
        v.hi,
        _mm512_shuffle_epi32::<0x4e>(m),
        _mm512_clmulepi64_epi128::<0x00>(m, c),
    )
}

/// The sum of the four lanes.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn fold_lanes(v: __m512i) -> __m128i {
    let y = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
    _mm_xor_si128(_mm256_castsi256_si128(y), _mm256_extracti128_si256::<1>(y))
}

/// `a · b` lane by lane, reduced.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn mul4(a: __m512i, b: __m512i) -> __m512i {
    let mut w = unreduced_zero();
    mul_acc4(&mut w, a, b);
    reduce4(w)
}

/// The multipliers of a big group (`Powers`) from H^1..H^8 (`h`, eight
/// 16-byte powers in order): the last two registers from the key, the two
/// before them times H^8 and, if `big` groups will be used, the first four
/// those times H^16 (else zero). Karatsuba's factors (`k`) only for
/// three multiplies per product (`MULS`); four read none, and the call
/// does not compute them (zero).
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn group_powers<B: KeyBlock, const MULS: usize>(h: &[B; 8], big: bool) -> Powers<Reg, BIG> {
    const { assert!(BIG == 8) };
    let mut p = [_mm512_setzero_si512(); BIG];
    (p[7], p[6]) = key_powers_reversed(h);
    let h8 = broadcast_block(&h[7]);
    p[5] = mul4(p[7], h8);
    p[4] = mul4(p[6], h8);
    if big {
        let h16 = splat(_mm512_castsi512_si128(p[4]));
        for i in 0..4 {
            p[i] = mul4(p[i + 4], h16);
        }
    }
    let k = if MULS == 3 {
        core::array::from_fn(|i| karatsuba_factor(p[i]))
    } else {
        [_mm512_setzero_si512(); BIG]
    };
    Powers { p, k }
}

/// The powers of a pair's first group (`Wide::pair_powers`): each of the
/// big group's `pw` times H^32, the power in its register 0, lane 0.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn pair_powers<const MULS: usize>(pw: &Powers<Reg, BIG>) -> Powers<Reg, BIG> {
    let h32 = splat(_mm512_castsi512_si128(pw.p[0]));
    let mut p = [_mm512_setzero_si512(); BIG];
    let mut k = [_mm512_setzero_si512(); BIG];
    for i in 0..BIG {
        p[i] = mul4(pw.p[i], h32);
        if MULS == 3 {
            k[i] = karatsuba_factor(p[i]);
        }
    }
    Powers { p, k }
}

/// The key's H^1..H^8 (`h`, eight 16-byte powers in order) as two
/// registers with the lane order reversed: H^4..H^1 and H^8..H^5.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn key_powers_reversed<B: KeyBlock>(h: &[B; 8]) -> (Reg, Reg) {
    // 16-byte blocks (`Block` or `__m128i`), read as 128 contiguous bytes.
    const { assert!(size_of::<B>() == 16) };
    // SAFETY: `h` is 8 × 16 = 128 bytes (asserted above); the loads read
    // bytes 0..64 and 64..128 of it, unaligned.
    let (low, high) = unsafe {
        let ptr = h.as_ptr().cast::<u8>();
        (
            _mm512_loadu_si512(ptr.cast()),
            _mm512_loadu_si512(ptr.add(64).cast()),
        )
    };
    (
        _mm512_shuffle_i64x2::<0x1b>(low, low),
        _mm512_shuffle_i64x2::<0x1b>(high, high),
    )
}

/// Karatsuba's middle factor of each lane's power (`mul_acc`'s `bk`):
/// the XOR of its halves, in the low half.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn karatsuba_factor(p: Reg) -> Reg {
    _mm512_xor_si512(p, _mm512_shuffle_epi32::<0x4e>(p))
}

/// A block in lane 0, zeros in the others.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn widen(x: __m128i) -> __m512i {
    _mm512_zextsi128_si512(x)
}

/// The value of an unreduced sum: one reduction, lanes added.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn sum_value(s: Unreduced) -> __m128i {
    fold_lanes(reduce4(s))
}

/// The last AES round of one register.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn aes_last(b: __m512i, k: __m512i) -> __m512i {
    _mm512_aesenclast_epi128(b, k)
}

/// The bytes `mask` selects of the 64 from `src`, zero elsewhere; no
/// load at all for an empty mask: a masked access that selects no byte
/// still costs (docs/design.md, "GCM-SIV of 129 to 256 bytes on
/// AVX-512"). For [`siv_group`]; [`one_batch`]'s loads stay plain masked
/// loads, with which its seals measured faster. Masked-off bytes are not
/// read.
///
/// # Safety
/// Every byte `mask` selects, at `src` plus its bit index, is readable.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
unsafe fn load_masked(mask: u64, src: *const u8) -> Reg {
    if mask == 0 {
        return _mm512_setzero_si512();
    }
    // SAFETY: the caller vouches that every byte `mask` selects is
    // readable (this function's contract); masked-off bytes are not read.
    unsafe { _mm512_maskz_loadu_epi8(mask, src.cast()) }
}

/// Writes the bytes of `v` that `mask` selects to the 64 from `dst`; no
/// store at all for an empty mask (as [`load_masked`]). Masked-off bytes
/// are not written.
///
/// # Safety
/// Every byte `mask` selects, at `dst` plus its bit index, is writable.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
unsafe fn store_masked(mask: u64, dst: *mut u8, v: Reg) {
    if mask != 0 {
        // SAFETY: the caller vouches that every byte `mask` selects is
        // writable (this function's contract); masked-off bytes are not
        // written.
        unsafe { _mm512_mask_storeu_epi8(dst.cast(), mask, v) };
    }
}

/// Whether masked accesses of `W`-byte windows from `p` over `len` bytes
/// (window i at `p + W·i`, the last one partly past the end) reach past
/// byte `len − 1` into the next 4 KiB page (the smallest page; a larger
/// one only joins them, so a window inside the same 4 KiB page as a byte
/// of the caller's slice is mapped). Addresses and lengths are public.
#[inline(always)]
fn reaches_next_page<const W: usize>(p: *const u8, len: usize) -> bool {
    const { assert!(W.is_power_of_two()) };
    let last = (p as usize).wrapping_add(len).wrapping_sub(1);
    let past = len.wrapping_neg() & (W - 1);
    len != 0 && last >> 12 != last.wrapping_add(past) >> 12
}

/// Whether a leaf's byte-masked loads and stores (`W`-byte windows over
/// the text of `data` from `start`, 16-byte ones over `masked_aad`, empty
/// for a leaf that reads its AAD otherwise) stay on the pages of the
/// message's own bytes ([`reaches_next_page`]). A masked-off byte is
/// never read or written, but a window over a page that is not mapped (a
/// guard page, the end of a mapping) takes a fault-suppression assist,
/// hundreds of cycles a call (docs/design.md, "Masked loads and stores
/// near a page's end"). Where they would not, the message goes to the
/// AES-NI tier's code, which copies a partial block through the stack.
/// Tested where the path is chosen ([`gcm_leftover`], GCM-SIV's
/// `Wide::siv_masks_stay_on_pages`), or at the top of the leaf where that
/// was faster ([`short_batch`]); not for GCM's xmm leaf ([`xmm_short`]),
/// whose frameless call the test's registers slowed more than the test
/// saves (docs/design.md).
#[inline(always)]
fn masks_stay_on_pages<const W: usize>(
    masked_aad: &[u8],
    data: &mut InOut<'_>,
    start: usize,
) -> bool {
    let n = data.len() - start;
    if n.is_multiple_of(W) && masked_aad.len().is_multiple_of(16) {
        return true;
    }
    let (src, dst) = data.raw_ptrs();
    !(reaches_next_page::<16>(masked_aad.as_ptr(), masked_aad.len())
        | reaches_next_page::<W>(src.wrapping_add(start), n)
        | reaches_next_page::<W>(dst.wrapping_add(start), n))
}

/// GCM of a message of at most `GCM_SHORT_MAX` bytes: up to `XMM_REST`
/// bytes the AES-NI tier's code, longer ones [`short_batch`].
#[inline]
#[allow(clippy::too_many_arguments)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn gcm_short<const ROUND_KEYS: usize, const SEAL: bool>(
    token: VaesAvx512,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    if data.len() > XMM_REST {
        short_batch::<ROUND_KEYS, SEAL>(token, keys, h_powers, j0, aad, data, len_block)
    } else {
        aesni::gcm::seal_or_open::<ROUND_KEYS, SEAL>(
            token.aesni(),
            keys,
            h_powers,
            j0,
            aad,
            data,
            len_block,
        )
    }
}

/// Whether [`xmm_short`] takes a GCM call with `A` blocks of AAD at most:
/// a message of at most `XMM_SHORT_MAX` bytes with at most 16 bytes of
/// AAD (`A` = 1: a TLS record header, a QUIC short header with a
/// connection ID of up to 11 bytes) or 32 (`A` = 2: a connection ID of up
/// to 20). The two are leaves of their own (`LONG_AAD`), the first tested
/// first: with the two-block AAD in the same function LLVM compiled the
/// AES-256 leaf worse for every call (48-byte seals 1.56 of the time,
/// Zen 5). The entry points test `A` = 1, `gcm_wide` `A` = 2.
#[inline(always)]
fn xmm_fits<const A: usize>(aad: &[u8], data: &InOut<'_>) -> bool {
    data.len() <= XMM_SHORT_MAX && aad.len() <= 16 * A
}

/// GCM of a call [`xmm_fits`] takes ([`xmm_batch`] with the right number
/// of blocks), the tag as its vector: the body of the two leaves below,
/// [`xmm_seal`] and [`xmm_open`], out of line and reached straight from
/// the entry points, so a short message runs a leaf function: no saved
/// registers, no frame, nothing of the longer paths' set-up. A seal's tag
/// leaves as a block stored whole (the caller stores it again, and a
/// 16-byte load of two 8-byte stores would wait for them to reach the
/// cache), an open's in two general registers (the comparison inlined
/// after the call reads it there).
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn xmm_short<const ROUND_KEYS: usize, const SEAL: bool, const LONG_AAD: bool>(
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
) -> __m128i {
    if LONG_AAD {
        xmm_blocks::<ROUND_KEYS, SEAL, 2>(keys, &h_powers.0, j0, aad, data)
    } else if aad.is_empty() {
        xmm_blocks::<ROUND_KEYS, SEAL, 0>(keys, &h_powers.0, j0, aad, data)
    } else {
        xmm_blocks::<ROUND_KEYS, SEAL, 1>(keys, &h_powers.0, j0, aad, data)
    }
}

/// [`xmm_short`] sealing: the tag stored as a block.
#[inline(never)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn xmm_seal<const ROUND_KEYS: usize, const LONG_AAD: bool>(
    _token: VaesAvx512,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
) -> Block {
    crate::backend::x86_64::store(xmm_short::<ROUND_KEYS, true, LONG_AAD>(
        keys, h_powers, j0, aad, data,
    ))
}

/// [`xmm_short`] opening: the tag in two general registers.
#[inline(never)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn xmm_open<const ROUND_KEYS: usize, const LONG_AAD: bool>(
    _token: VaesAvx512,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
) -> u128 {
    let tag = xmm_short::<ROUND_KEYS, false, LONG_AAD>(keys, h_powers, j0, aad, data);
    u128::from(_mm_extract_epi64::<0>(tag) as u64)
        | u128::from(_mm_extract_epi64::<1>(tag) as u64) << 64
}

/// Where [`xmm_batch`] starts: J0 (as the block), the first counter block
/// and the hash so far (both byte-reversed, as `aesni::gcm::State` holds
/// them), the offset of the first byte it takes, and the length block
/// (byte-reversed). For a whole message (`xmm_short`) the counter after
/// J0, no hash and offset 0; for what the groups leave (`xmm_rest`) the
/// state after them.
#[derive(Clone, Copy)]
struct XmmFrom {
    j0: __m128i,
    ctr: __m128i,
    acc: __m128i,
    start: usize,
    lengths: __m128i,
}

impl XmmFrom {
    /// The start of a whole message with pre-counter block `j0` (as
    /// `u128::from_le_bytes`). Made in each arm of [`xmm_blocks`], next to
    /// its use: made once before the arms, its values are computed ahead
    /// of the branches and held in registers across them (docs/design.md,
    /// "Short GCM messages on AVX-512").
    #[inline]
    #[target_feature(
        enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
    )]
    fn message(j0: u128, aad: &[u8], data: &InOut<'_>) -> Self {
        let j0 = crate::backend::x86_64::from_u128(j0);
        XmmFrom {
            j0,
            ctr: _mm_add_epi32(clmul::byte_reverse(j0), _mm_set_epi32(0, 0, 0, 1)),
            acc: _mm_setzero_si128(),
            start: 0,
            // The length block [len(A)]64 ‖ [len(C)]64 in bits, big-endian,
            // byte-reversed: the bit lengths little-endian, C's in the low half.
            lengths: _mm_set_epi64x((aad.len() as i64) << 3, (data.len() as i64) << 3),
        }
    }
}

/// GCM of what the groups leave when it is at most `XMM_REST` bytes
/// (none too: then only J0 and the length block):
/// [`xmm_batch`] from the state after the groups, the text read and
/// written with byte masks (the AES-NI tier's tail copies it through the
/// stack, and a 16-byte load of a block assembled there by narrower
/// stores waits for them to reach the cache: a TLS 1.3 record, whose
/// text is the content and one more byte, always has such a tail).
/// Out of line, a leaf: the group loops' registers are not its concern.
#[inline(never)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn xmm_rest<const ROUND_KEYS: usize, const SEAL: bool>(
    s: &aesni::gcm::State<'_, ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> Block {
    use crate::backend::x86_64::from_u128;
    let from = XmmFrom {
        j0: clmul::byte_reverse(s.j0),
        ctr: s.ctr,
        acc: s.acc,
        start,
        lengths: clmul::byte_reverse(from_u128(len_block)),
    };
    let rest = data.len() - start;
    let tag = if rest == 0 {
        xmm_batch::<ROUND_KEYS, SEAL, 0, 0>(s.keys, &s.h_powers.0, &from, &[], data)
    } else if rest <= 16 {
        xmm_batch::<ROUND_KEYS, SEAL, 1, 0>(s.keys, &s.h_powers.0, &from, &[], data)
    } else {
        xmm_batch::<ROUND_KEYS, SEAL, 2, 0>(s.keys, &s.h_powers.0, &from, &[], data)
    };
    crate::backend::x86_64::store(tag)
}

/// [`xmm_batch`] with as many blocks as the message fills (a branch per
/// 16 bytes of length, most likely first, rather than a jump table).
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn xmm_blocks<const ROUND_KEYS: usize, const SEAL: bool, const A: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
    h: &[Block; 8],
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
) -> __m128i {
    let len = data.len();
    let from = |data: &InOut<'_>| XmmFrom::message(j0, aad, data);
    if len <= 16 {
        if len > 0 {
            xmm_batch::<ROUND_KEYS, SEAL, 1, A>(keys, h, &from(data), aad, data)
        } else {
            xmm_batch::<ROUND_KEYS, SEAL, 0, A>(keys, h, &from(data), aad, data)
        }
    } else if len <= 32 {
        xmm_batch::<ROUND_KEYS, SEAL, 2, A>(keys, h, &from(data), aad, data)
    } else if len <= 48 {
        xmm_batch::<ROUND_KEYS, SEAL, 3, A>(keys, h, &from(data), aad, data)
    } else {
        xmm_batch::<ROUND_KEYS, SEAL, 4, A>(keys, h, &from(data), aad, data)
    }
}

/// GCM of the text from `from.start` of `NB` blocks (`16·(NB − 1) < n ≤
/// 16·NB` bytes) and an AAD of `A` blocks (none, 1 to 16 or 17 to 32 bytes) in xmm
/// registers: the `NB` counter blocks from `from.ctr` and J0 in one AES
/// batch, the text read and written with byte-masked loads and stores
/// (nothing outside the caller's slices is touched, nothing goes through
/// the stack), then the AAD, the ciphertext (zero past its end) and the
/// length block hashed as one sum with one reduction, the hash so far
/// (`from.acc`) added to the first of them: of the `A + NB + 1` blocks,
/// block b (from 0) takes H^(A + NB + 1 − b) from the key's powers.
/// Opening hashes the input, which is there before the AES batch ends, so
/// its hash and AES run side by side; sealing hashes the output.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn xmm_batch<const ROUND_KEYS: usize, const SEAL: bool, const NB: usize, const A: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
    h: &[Block; 8],
    from: &XmmFrom,
    aad: &[u8],
    data: &mut InOut<'_>,
) -> __m128i {
    use crate::backend::x86_64::load;
    const { assert!(NB <= 4 && A <= 2) };
    assert!(from.start <= data.len());
    let len = data.len() - from.start;
    assert!(len <= 16 * NB && len + 16 > 16 * NB);
    assert!(aad.len() <= 16 * A && aad.len() + 16 > 16 * A);
    let (src, dst) = data.raw_ptrs();
    let (src, dst) = (src.wrapping_add(from.start), dst.wrapping_add(from.start));
    // Block i's mask selects its bytes below `len`.
    let masks: [__mmask16; NB] = core::array::from_fn(|i| {
        let n = (len - 16 * i).min(16);
        ((1u32 << n) - 1) as __mmask16
    });

    // The counters from `from.ctr` (byte-reversed: its low 32 bits are
    // the counter), one apart.
    let mut ctr: [__m128i; NB] = core::array::from_fn(|i| {
        clmul::byte_reverse(_mm_add_epi32(from.ctr, _mm_set_epi32(0, 0, 0, i as i32)))
    });
    let rk = &keys.0;
    let mut j = _mm_xor_si128(from.j0, load(&rk[0]));
    for c in ctr.iter_mut() {
        *c = _mm_xor_si128(*c, load(&rk[0]));
    }
    for key in &rk[1..ROUND_KEYS - 1] {
        let k = load(key);
        j = _mm_aesenc_si128(j, k);
        for c in ctr.iter_mut() {
            *c = _mm_aesenc_si128(*c, k);
        }
    }
    let last = load(&rk[ROUND_KEYS - 1]);
    let input: [__m128i; NB] = core::array::from_fn(|i| {
        // SAFETY: the mask selects bytes 16·i.. 16·i + n of the text from
        // `from.start` with 16·i + n ≤ len: all inside the input.
        // Masked-off bytes are not read.
        unsafe { _mm_maskz_loadu_epi8(masks[i], src.wrapping_add(16 * i).cast()) }
    });
    // aesenclast(c, last ^ x) = E(K, counter) ^ x: the XOR rides the last round.
    let output: [__m128i; NB] = core::array::from_fn(|i| {
        _mm_maskz_mov_epi8(
            masks[i],
            _mm_aesenclast_si128(ctr[i], _mm_xor_si128(last, input[i])),
        )
    });
    let tag_mask = _mm_aesenclast_si128(j, last);
    // All loads are done before the first store (in place, `dst` is `src`).
    for (i, out) in output.iter().enumerate() {
        // SAFETY: as for the loads: only bytes inside the output, which
        // is as long as the input. Masked-off bytes are not written.
        unsafe { _mm_mask_storeu_epi8(dst.wrapping_add(16 * i).cast(), masks[i], *out) };
    }

    // GHASH runs over the ciphertext: the output when sealing, the input
    // when opening. The hash so far joins the first block hashed (a zero
    // that the compiler drops for a whole message).
    let hashed = if SEAL { output } else { input };
    let blocks = A + NB + 1;
    let mut w = clmul::unreduced_zero();
    let mut carry = from.acc;
    for i in 0..A {
        let n = (aad.len() - 16 * i).min(16);
        let mask = ((1u32 << n) - 1) as __mmask16;
        // SAFETY: the mask selects the AAD's bytes 16·i..16·i + n, with
        // 16·i + n ≤ aad.len(): all inside it.
        let a = unsafe { _mm_maskz_loadu_epi8(mask, aad.as_ptr().wrapping_add(16 * i).cast()) };
        let x = _mm_xor_si128(clmul::byte_reverse(a), carry);
        clmul::mul_acc(&mut w, x, load(&h[blocks - 1 - i]));
        carry = _mm_setzero_si128();
    }
    for (i, x) in hashed.iter().enumerate() {
        let x = _mm_xor_si128(clmul::byte_reverse(*x), carry);
        clmul::mul_acc(&mut w, x, load(&h[blocks - 1 - A - i]));
        carry = _mm_setzero_si128();
    }
    clmul::mul_acc(&mut w, _mm_xor_si128(from.lengths, carry), load(&h[0]));
    _mm_xor_si128(clmul::byte_reverse(clmul::reduce(w)), tag_mask)
}

/// GCM of a message of `XMM_REST` bytes up to a small group: the AAD,
/// then [`batch_from`]. Not inlined: inlined into the entry points, it
/// costs their group path registers (30 instructions more per call at 256
/// bytes to 1 KiB, round-key addresses spilled: docs/design.md, "Tried and
/// dropped").
#[inline(never)]
#[allow(clippy::too_many_arguments)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn short_batch<const ROUND_KEYS: usize, const SEAL: bool>(
    token: VaesAvx512,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    // Tested here rather than in `gcm_short`, where, inlined into the
    // entry point's frame, it slowed AES-256 seals of 65–128 bytes; the
    // AAD is hashed from memory (`aesni::gcm::state_new`), not masked.
    if !masks_stay_on_pages::<RB>(&[], data, 0) {
        return gcm_unmasked::<ROUND_KEYS, SEAL>(token, keys, h_powers, j0, aad, data, len_block);
    }
    let s = aesni::gcm::state_new(keys, h_powers, j0, aad);
    batch_from::<ROUND_KEYS, SEAL>(&s, data, 0, len_block)
}

/// [`short_batch`]'s message on the AES-NI tier's code
/// (`aesni::gcm::seal_or_open`) where its windows would not stay on the
/// message's pages; a function of its own, so that the AES-NI code is
/// not inlined into the batch.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn gcm_unmasked<const ROUND_KEYS: usize, const SEAL: bool>(
    token: VaesAvx512,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    aesni::gcm::seal_or_open::<ROUND_KEYS, SEAL>(
        token.aesni(),
        keys,
        h_powers,
        j0,
        aad,
        data,
        len_block,
    )
}

/// What the groups leave (`start..`, less than a small group): more
/// than `XMM_REST` bytes in [`rest_batch`], up to `XMM_REST` (none
/// included: J0 and the length block) in [`xmm_rest`], each where its
/// windows stay on the message's pages ([`masks_stay_on_pages`]); else
/// the AES-NI tier's pieces (`vaes::aesni_rest`). Each out of line, called from
/// `vaes::gcm_groups`, whose loops need the registers.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn gcm_leftover<const ROUND_KEYS: usize, const SEAL: bool>(
    t: Token,
    s: &mut aesni::gcm::State<'_, ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> Block {
    let rest = data.len() - start;
    if rest > XMM_REST && masks_stay_on_pages::<RB>(&[], data, start) {
        rest_batch::<ROUND_KEYS, SEAL>(s, data, start, len_block)
    } else if rest <= XMM_REST && masks_stay_on_pages::<16>(&[], data, start) {
        xmm_rest::<ROUND_KEYS, SEAL>(s, data, start, len_block)
    } else {
        vaes::aesni_rest::<ROUND_KEYS, SEAL>(t.aesni(), s, data, start, len_block)
    }
}

/// [`batch_from`] out of line, for [`gcm_leftover`].
#[inline(never)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn rest_batch<const ROUND_KEYS: usize, const SEAL: bool>(
    s: &aesni::gcm::State<'_, ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> Block {
    batch_from::<ROUND_KEYS, SEAL>(s, data, start, len_block)
}

/// The message from `start` (at most a small group) in [`one_batch`]
/// of as few registers as hold it.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn batch_from<const ROUND_KEYS: usize, const SEAL: bool>(
    s: &aesni::gcm::State<'_, ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> Block {
    match (data.len() - start).div_ceil(RB) {
        0..=1 => one_batch::<ROUND_KEYS, SEAL, 1>(s, data, start, len_block),
        2 => one_batch::<ROUND_KEYS, SEAL, 2>(s, data, start, len_block),
        _ => one_batch::<ROUND_KEYS, SEAL, 4>(s, data, start, len_block),
    }
}

/// The message from `start` (at most `RB · N` bytes; more than `RB · N
/// / 2` when `N` > 1) in one AES batch of `N` registers with E(K, J0)
/// beside it, read and written with byte masks, so no byte outside the
/// message is touched and nothing is copied; then the hash of those
/// bytes as ciphertext (zero past the end) and of the length block, one
/// reduction, and the tag. `s` is the state after the AAD and the
/// bytes before `start` (its counter the next block's).
///
/// The powers: block b of t (from 0) takes H^(t + 1 − b), and the length
/// block H^1. A table `d` holds H^20..H^1 (16 bytes each, from entry 0)
/// then zeros, so register i's four multipliers are the four entries
/// from 19 − t + 4i; lanes past the last block read zeros or any power,
/// their data is zero. The table is wiped before returning.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn one_batch<const ROUND_KEYS: usize, const SEAL: bool, const N: usize>(
    s: &aesni::gcm::State<'_, ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> Block {
    const { assert!(N == 1 || N == 2 || N == 4) };
    assert!(start <= data.len());
    let rest = data.len() - start;
    let (src, dst) = data.raw_ptrs();
    let (src, dst) = (src.wrapping_add(start), dst.wrapping_add(start));
    assert!(rest <= RB * N);
    // Register i covers bytes RB·i.. of the message: its mask selects
    // the ones below `rest`.
    let masks: [u64; N] = core::array::from_fn(|i| {
        let n = rest.saturating_sub(RB * i).min(RB);
        ((1u128 << n) - 1) as u64
    });

    // The powers first: their stores then retire long before the loads
    // from the table after the AES batch (a load that spans two stores
    // still in flight waits for them to commit).
    let blocks = rest.div_ceil(16);
    let mut d = [_mm512_setzero_si512(); 7];
    (d[4], d[3]) = key_powers_reversed(&s.h_powers.0);
    if N > 1 {
        let h8 = broadcast_block(&s.h_powers.0[7]);
        d[2] = mul4(d[4], h8);
        if N > 2 {
            d[1] = mul4(d[3], h8);
            d[0] = mul4(d[2], h8);
        }
    }
    // One batch: the counters without `counters_group`'s shortcut, so
    // without its branch.
    let mut b: [Reg; N] = counters_exact::<true, N>(s.ctr);
    let mut j = for_hash::<true>(s.j0);
    let rk = &s.keys.0;
    let k = broadcast_block(&rk[0]);
    for x in b.iter_mut() {
        *x = xor(*x, k);
    }
    j = _mm_xor_si128(j, _mm512_castsi512_si128(k));
    for key in &rk[1..ROUND_KEYS - 1] {
        let k = broadcast_block(key);
        for x in b.iter_mut() {
            *x = _mm512_aesenc_epi128(*x, k);
        }
        j = _mm_aesenc_si128(j, _mm512_castsi512_si128(k));
    }
    let k = broadcast_block(&rk[ROUND_KEYS - 1]);
    let input: [Reg; N] = core::array::from_fn(|i| {
        // SAFETY: the mask selects bytes RB·i.. RB·i + n of the `rest`
        // bytes from `src` (the input from `start ≤ len`) with n ≤ rest
        // − RB·i (none when RB·i ≥ rest): all inside the input.
        // Masked-off bytes are not read.
        unsafe { _mm512_maskz_loadu_epi8(masks[i], src.wrapping_add(RB * i).cast()) }
    });
    let output: [Reg; N] =
        core::array::from_fn(|i| _mm512_maskz_mov_epi8(masks[i], aes_last(b[i], xor(k, input[i]))));
    let tag_mask = _mm_aesenclast_si128(j, _mm512_castsi512_si128(k));
    // All loads are done before the first store (in place, `dst` is `src`).
    for (i, (mask, out)) in masks.iter().zip(&output).enumerate() {
        // SAFETY: as for the loads, the mask selects only bytes inside
        // the output, which is as long as the input.
        unsafe { store_masked(*mask, dst.wrapping_add(RB * i), *out) };
    }

    // GHASH runs over the ciphertext: the output when sealing, the input when opening.
    let hashed = if SEAL { output } else { input };
    let table = d.as_ptr().cast::<__m128i>();
    let powers = |entry: usize| {
        assert!(entry + 4 <= 4 * d.len());
        // SAFETY: entries `entry..entry + 4` of the 4·7 16-byte entries
        // of `d` (checked just above), an unaligned 64-byte load.
        let p = unsafe { _mm512_loadu_si512(table.add(entry).cast()) };
        (p, karatsuba_factor(p))
    };
    let mut w = unreduced_zero();
    for (i, x) in hashed.iter().enumerate() {
        let x = for_hash_reg::<true>(*x);
        let x = if i == 0 { xor(x, widen(s.acc)) } else { x };
        let (p, k) = powers(19 + 4 * i - blocks);
        mul_acc::<3>(&mut w, x, p, k);
    }
    // Entry 19 is H^1, followed by zeros.
    let (p, k) = powers(19);
    mul_acc::<3>(
        &mut w,
        widen(for_hash::<true>(crate::backend::x86_64::from_u128(
            len_block,
        ))),
        p,
        k,
    );
    d.zeroize();
    crate::backend::x86_64::store(_mm_xor_si128(
        for_hash::<true>(sum_value(sum_done::<3>(w))),
        tag_mask,
    ))
}

/// This tier's feature token.
type Token = VaesAvx512;

/// GCM-SIV of a message `siv::is_one_group` takes (an AAD of at most 16
/// bytes, a text of at most 128; seal if `SEAL`, else open with the
/// received `tag`): [`siv_xmm_batch`] with as many blocks as the text
/// fills (`backend::by_block_count`). Out of line and reached straight from the entry points, so a
/// short message runs a leaf function, as [`xmm_short`] does for GCM.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn siv_xmm_short<const ROUND_KEYS: usize, const SEAL: bool>(
    _token: VaesAvx512,
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    crate::backend::by_block_count!(
        data.len(),
        siv_xmm_batch::<ROUND_KEYS, SEAL>(keys, nonce, aad, data, tag, len_block)
    )
}

/// [`siv_xmm_short`] for a text of `NB` blocks (`16·(NB − 1) < len ≤
/// 16·NB`): `siv::one_group_blocks` with the text and the AAD read, and
/// the output written, by byte-masked loads and stores (nothing outside
/// the caller's slices is touched, no byte of the message goes through a
/// stack buffer).
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn siv_xmm_batch<const ROUND_KEYS: usize, const SEAL: bool, const NB: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    let len = data.len();
    assert!(len.div_ceil(16) == NB && aad.len() <= 16);
    let (src, dst) = data.raw_ptrs();
    // Block i's mask selects its bytes below `len`.
    let masks: [__mmask16; NB] = core::array::from_fn(|i| {
        let n = (len - 16 * i).min(16);
        ((1u32 << n) - 1) as __mmask16
    });
    // No load for an empty AAD: its pointer may be dangling, and a masked
    // load whose mask is zero still faults there, at a microcode assist's
    // cost (a suppressed fault) even where nothing is read.
    let aad_block = (!aad.is_empty()).then(|| {
        // SAFETY: the mask selects the AAD's bytes (at most 16): all inside it.
        unsafe { _mm_maskz_loadu_epi8(((1u32 << aad.len()) - 1) as __mmask16, aad.as_ptr().cast()) }
    });
    let input: [__m128i; NB] = core::array::from_fn(|i| {
        // SAFETY: the mask selects bytes 16·i.. 16·i + n of the input with
        // 16·i + n ≤ len: all inside it. Masked-off bytes are not read.
        unsafe { _mm_maskz_loadu_epi8(masks[i], src.wrapping_add(16 * i).cast()) }
    });
    let (tag, output) = aesni::siv::one_group_blocks::<true, ROUND_KEYS, SEAL, NB>(
        keys, nonce, aad_block, &input, len, tag, len_block,
    );
    // All loads are done before the first store (in place, `dst` is `src`).
    for (i, out) in output.iter().enumerate() {
        // SAFETY: as for the loads: only bytes inside the output, which
        // is as long as the input. Masked-off bytes are not written.
        unsafe { _mm_mask_storeu_epi8(dst.wrapping_add(16 * i).cast(), masks[i], *out) };
    }
    crate::backend::x86_64::store(tag)
}

/// The longest GCM-SIV text `Wide::siv_short` takes (with an AAD of at
/// most 16 bytes): one small group, sixteen blocks. Up to eight blocks
/// [`siv_xmm_short`], from nine [`siv_group`].
const SIV_SHORT_MAX: usize = RB * SMALL;

/// GCM-SIV (RFC 8452 §4) of a text of 129..=256 bytes (nine to sixteen
/// blocks) with an AAD of at most 16 (seal if `SEAL`, else open with the
/// received `tag`), in four registers read and written by byte-masked
/// loads and stores, so nothing outside the caller's slices is touched
/// and no byte of the message is copied. Returns the tag as
/// `siv::one_group_blocks` does (open's caller compares it).
///
/// Each step as in `siv::one_group_blocks`, wider: the per-nonce key
/// blocks; beside the encryption key's schedule, the sixteen places'
/// powers ([`siv_place_powers`]) and S_s as one sum of products
/// ([`siv_sum`]); seal's tag rides the schedule and the keystream
/// ([`siv_keystream`]) follows; open's keystream follows the schedule and
/// its plaintext's S_s and tag come last. The key material held in arrays
/// (derivation blocks, powers, round keys) is wiped before returning.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn siv_group<const ROUND_KEYS: usize, const SEAL: bool>(
    _token: VaesAvx512,
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    let len = data.len();
    assert!(len > aesni::ctr::GROUP && len <= SIV_SHORT_MAX && aad.len() <= 16);
    let (src, dst) = data.raw_ptrs();
    // Register i's mask selects its bytes below `len`.
    let masks: [u64; SMALL] = core::array::from_fn(|i| {
        let n = len.saturating_sub(RB * i).min(RB);
        ((1u128 << n) - 1) as u64
    });
    // No load for an empty AAD (see `siv_xmm_batch`).
    let aad_block = (!aad.is_empty()).then(|| {
        // SAFETY: the mask selects the AAD's bytes (at most 16): all inside it.
        unsafe { _mm_maskz_loadu_epi8(((1u32 << aad.len()) - 1) as __mmask16, aad.as_ptr().cast()) }
    });
    let input: [Reg; SMALL] = core::array::from_fn(|i| {
        // SAFETY: the mask selects bytes RB·i.. RB·i + n of the input with
        // RB·i + n ≤ len (none when RB·i ≥ len): all inside it.
        unsafe { load_masked(masks[i], src.wrapping_add(RB * i)) }
    });

    let nonce = crate::backend::x86_64::from_u128(nonce);
    // The per-nonce key blocks: seal's in zmm registers, which leave the
    // AES units to the hash's multiplies sooner (on Zen 4 both share
    // them; seal's hash is on its chain); open's in xmm registers, whose
    // encryption key comes without the zmm registers' extra shuffles
    // (open's chain runs through the schedule). docs/design.md, "GCM-SIV
    // of 129 to 256 bytes on AVX-512".
    let mut seal_blocks = [_mm512_setzero_si512(); 2];
    let mut open_blocks = [_mm_setzero_si128(); 6];
    let [auth, enc0, enc1] = if SEAL {
        let derived;
        (seal_blocks, derived) = siv_key_blocks(keys, nonce);
        derived
    } else {
        open_blocks = aesni::siv::key_blocks_in::<true, ROUND_KEYS>(keys, nonce);
        aesni::siv::derived_keys(&open_blocks)
    };
    let mut pw = siv_place_powers(auth);
    // The AAD block's product with H, for Horner's step into block 0.
    let aad_h = aad_block.map(|a| clmul::mul(a, auth));
    let lengths = crate::backend::x86_64::from_u128(len_block);
    let up = SIV_SHORT_MAX.div_ceil(16) - len.div_ceil(16);
    let (tag, output) = if SEAL {
        let s_s = siv_sum(&input, aad_h, up, lengths, auth, &pw);
        let mut t = [aesni::siv::tag_input(s_s, nonce)];
        let mut enc = expand_regs_riding::<ROUND_KEYS, 1>(enc0, enc1, &mut t);
        let ks = siv_keystream(&enc, aesni::siv::initial_counter(t[0]));
        enc.zeroize();
        let output: [Reg; SMALL] = core::array::from_fn(|i| xor(input[i], ks[i]));
        (t[0], output)
    } else {
        let mut enc = expand_regs::<ROUND_KEYS>(enc0, enc1);
        let ks = siv_keystream(&enc, aesni::siv::initial_counter_from(tag));
        // POLYVAL takes the plaintext's `len` bytes, zero-padded.
        let output: [Reg; SMALL] =
            core::array::from_fn(|i| _mm512_maskz_mov_epi8(masks[i], xor(input[i], ks[i])));
        let s_s = siv_sum(&output, aad_h, up, lengths, auth, &pw);
        let mut t = [aesni::siv::tag_input(s_s, nonce)];
        encrypt_blocks_in::<true, ROUND_KEYS, 1>(&enc, &mut t);
        enc.zeroize();
        (t[0], output)
    };
    // All loads are done before the first store (in place, `dst` is `src`).
    for (i, (mask, out)) in masks.iter().zip(&output).enumerate() {
        // SAFETY: as for the loads: only bytes inside the output, which is
        // as long as the input.
        unsafe { store_masked(*mask, dst.wrapping_add(RB * i), *out) };
    }
    pw.zeroize();
    if SEAL {
        seal_blocks.zeroize();
    } else {
        open_blocks.zeroize();
    }
    crate::backend::x86_64::store(tag)
}

/// RFC 8452 §4's per-nonce key blocks (`aesni::siv::key_blocks_in`)
/// encrypted in one register of four lanes (and, for AES-256's key, one
/// of two), and the keys from them: `[:8] || [:8]` of blocks 0 and 1
/// (the authentication key), 2 and 3, 4 and 5 (the encryption key's
/// halves; AES-128's second half unused). Returns the registers, for
/// the caller to wipe, and the keys.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn siv_key_blocks<const ROUND_KEYS: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: __m128i,
) -> ([Reg; 2], [__m128i; 3]) {
    let base = splat(_mm_slli_si128::<4>(nonce));
    let mut b = [
        _mm512_or_si512(
            base,
            _mm512_set_epi32(0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0),
        ),
        _mm512_or_si512(
            base,
            _mm512_set_epi32(0, 0, 0, 7, 0, 0, 0, 6, 0, 0, 0, 5, 0, 0, 0, 4),
        ),
    ];
    // AES-128's key takes blocks 0..4, all in `b[0]`.
    let mut hi = _mm512_castsi512_si256(b[1]);
    let rk = &keys.0;
    let k = broadcast_block(&rk[0]);
    b[0] = xor(b[0], k);
    if ROUND_KEYS == 15 {
        hi = _mm256_xor_si256(hi, _mm512_castsi512_si256(k));
    }
    for key in &rk[1..ROUND_KEYS - 1] {
        let k = broadcast_block(key);
        b[0] = _mm512_aesenc_epi128(b[0], k);
        if ROUND_KEYS == 15 {
            hi = _mm256_aesenc_epi128(hi, _mm512_castsi512_si256(k));
        }
    }
    let k = broadcast_block(&rk[ROUND_KEYS - 1]);
    b[0] = aes_last(b[0], k);
    if ROUND_KEYS == 15 {
        hi = _mm256_aesenclast_epi128(hi, _mm512_castsi512_si256(k));
    }
    b[1] = _mm512_castsi256_si512(hi);
    // Each lane's low qword beside the next lane's (the lanes rotated by
    // one): lane 0 then holds blocks 0 and 1's, lane 2 blocks 2 and 3's.
    let next = _mm512_shuffle_i64x2::<0b00_11_10_01>(b[0], b[0]);
    let pairs = _mm512_unpacklo_epi64(b[0], next);
    let k45 = _mm_unpacklo_epi64(
        _mm256_castsi256_si128(hi),
        _mm256_extracti128_si256::<1>(hi),
    );
    (
        b,
        [
            _mm512_castsi512_si128(pairs),
            _mm512_extracti32x4_epi32::<2>(pairs),
            k45,
        ],
    )
}

/// H^8..H^5 and H^4..H^1 from H, four to a register, lane 0 the
/// highest: H^2 a square; H^4 and H^3 as two lanes of one product;
/// H^8..H^5 as H^4..H^1 times H^4. Every `vpclmulqdq` costs a 512-bit
/// one's time on Zen 4 (one every two cycles, xmm or zmm), so three
/// products four lanes wide do the work of seven in xmm registers.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn powers_to_8(h: __m128i) -> [Reg; 2] {
    let h2 = clmul::square(h);
    // Lanes 0 and 1: H^2·H^2 and H·H^2.
    let h4_h3 = mul4(_mm512_inserti32x4::<1>(splat(h2), h), splat(h2));
    let low = _mm512_inserti32x4::<3>(_mm512_inserti32x4::<2>(h4_h3, h2), h);
    let high = mul4(low, _mm512_shuffle_i64x2::<0>(h4_h3, h4_h3));
    [high, low]
}

/// `v`, through an empty `asm!` block: the compiler keeps the value but
/// forgets how it was made (`aegis::ZmmRegister::splat` says why).
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
pub(crate) fn opaque(mut v: __m512i) -> __m512i {
    // SAFETY: an empty template: `v` stays in its register, unchanged.
    unsafe {
        core::arch::asm!("/* {0} */", inout(zmm_reg) v, options(pure, nomem, nostack, preserves_flags));
    }
    v
}

/// Builds a GCM key's state where it will live: the round keys and H from
/// `aesni::gcm::round_keys_and_h`, compiled with this tier's features,
/// with H^1..H^8 from [`powers_to_8`] (docs/design.md, "Key setup on
/// the wide tiers").
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
pub(crate) fn init_key<const ROUND_KEYS: usize, const KB: usize>(
    _token: VaesAvx512,
    key: &[u8; KB],
    round_keys: &mut MaybeUninit<RoundKeys<ROUND_KEYS>>,
    h_powers: &mut MaybeUninit<HPowers>,
) {
    let [high, low] = powers_to_8(aesni::gcm::round_keys_and_h(key, round_keys));
    // `HPowers` holds H^1..H^8 upwards: each register's lanes reversed.
    let (low, high) = (
        _mm512_shuffle_i64x2::<0b00_01_10_11>(low, low),
        _mm512_shuffle_i64x2::<0b00_01_10_11>(high, high),
    );
    const { assert!(size_of::<HPowers>() == 2 * size_of::<Reg>()) };
    let out = h_powers.as_mut_ptr().cast::<Reg>();
    // SAFETY: `HPowers` is two registers' bytes (asserted above): two
    // stores, which have no alignment requirement.
    unsafe {
        _mm512_storeu_si512(out, low);
        _mm512_storeu_si512(out.add(1), high);
    }
}

/// The multipliers of [`siv_sum`]'s sixteen places from H: place p
/// (lane p mod 4 of register p / 4) takes H^(16 − p), so register 0
/// holds H^16..H^13 and register 3 H^4..H^1, lane 0 the highest:
/// [`powers_to_8`], then the first two registers the last two times H^8.
/// Four products after the square, the first three on the chain.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn siv_place_powers(h: __m128i) -> [Reg; SMALL] {
    let [high, low] = powers_to_8(h);
    let h8 = _mm512_shuffle_i64x2::<0>(high, high);
    [mul4(high, h8), mul4(low, h8), high, low]
}

/// S_s of [`siv_group`]: POLYVAL from zero of the AAD block (as its
/// product with H, `aad_h`), the text (`text`, zero past its end) and
/// the length block, with `pw` from [`siv_place_powers`] and `h` = H.
/// The text moves `up` places (16 minus its block count) so that its
/// last block is in place 15 ([`blocks_up`]); the AAD's product joins
/// block 0 before the move (Horner's step: (AAD·H + X_0)·H^n). Then
/// S_s = (Σ place·power + length block)·H: one sum of products (three
/// multiplies each), the length block added unreduced as L·x^128 (the
/// reduction divides by x^128, so L comes out as it went in), one
/// reduction, one product with H.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn siv_sum(
    text: &[Reg; SMALL],
    aad_h: Option<__m128i>,
    up: usize,
    lengths: __m128i,
    h: __m128i,
    pw: &[Reg; SMALL],
) -> __m128i {
    let mut x = *text;
    if let Some(a) = aad_h {
        x[0] = xor(x[0], widen(a));
    }
    let y = blocks_up(&x, up);
    let mut w = unreduced_zero();
    for (y, p) in y.iter().zip(pw) {
        mul_acc::<3>(&mut w, *y, *p, karatsuba_factor(*p));
    }
    let mut w = sum_done::<3>(w);
    w.hi = xor(w.hi, widen(lengths));
    clmul::mul(sum_value(w), h)
}

/// The sixteen blocks of `x` (block j in lane j mod 4 of register j / 4)
/// moved `n` (0..8) places up: block j to place j + n, zeros in places
/// below n, the top n blocks dropped. With n = 4q + e, register k takes
/// registers k − q − 1 and k − q side by side shifted down by 8 − 2e
/// qwords (`valignq`, an immediate per e: `n` is public, the message
/// length, and a permute with a variable index is something `ct-check`
/// does not model).
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn blocks_up(x: &[Reg; SMALL], n: usize) -> [Reg; SMALL] {
    assert!(n < 8);
    let z = _mm512_setzero_si512();
    let pairs = if n < 4 {
        [z, x[0], x[1], x[2], x[3]]
    } else {
        [z, z, x[0], x[1], x[2]]
    };
    // Range tests, not a `match`, which LLVM makes a jump table (an
    // indirect jump on data to `ct-check`).
    let e = n % 4;
    let up = |k: usize| -> Reg {
        let (low, high) = (pairs[k], pairs[k + 1]);
        if e < 2 {
            if e < 1 {
                high
            } else {
                _mm512_alignr_epi64::<6>(high, low)
            }
        } else if e < 3 {
            _mm512_alignr_epi64::<4>(high, low)
        } else {
            _mm512_alignr_epi64::<2>(high, low)
        }
    };
    core::array::from_fn(up)
}

/// The keystream of [`siv_group`]: sixteen counter blocks from `ctr`
/// (GCM-SIV's 32-bit little-endian counter), encrypted under `enc`.
#[inline]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn siv_keystream<const ROUND_KEYS: usize>(
    enc: &[__m128i; ROUND_KEYS],
    ctr: __m128i,
) -> [Reg; SMALL] {
    let mut b: [Reg; SMALL] = counters_exact::<false, SMALL>(ctr);
    let k = splat(enc[0]);
    for x in b.iter_mut() {
        *x = xor(*x, k);
    }
    for key in &enc[1..ROUND_KEYS - 1] {
        let k = splat(*key);
        for x in b.iter_mut() {
            *x = _mm512_aesenc_epi128(*x, k);
        }
    }
    let k = splat(enc[ROUND_KEYS - 1]);
    b.map(|x| aes_last(x, k))
}

vaes_register_pieces!(
    features = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl",
    reg = __m512i,
    class = zmm_reg,
    broadcast = "vbroadcasti32x4"
);

impl LoopShape for VaesAvx512 {
    /// As a branch inside the group loop: the shape this tier's loops were
    /// tuned in; before the loop, LLVM lays the group path out differently
    /// here.
    const PEEL_FIRST: bool = false;

    /// Copied: 32 registers hold them.
    const POWERS_IN_REGISTERS: bool = true;

    /// Held: 32 registers have room for a group beside the next.
    const HOLD_WRITTEN: bool = true;
}

/// This tier's pieces for the engine (4 blocks a register). Each
/// method calls the tier's function of the same name; `self` proves the
/// features they are compiled with.
// SAFETY: the token exists only where the CPU has the tier's features,
// SSE2 among them (`cpu::x86_64::vaes_avx512!`).
unsafe impl Pieces<RB> for VaesAvx512 {
    type Reg = Reg;

    #[inline(always)]
    fn load_reg(self, bytes: &[u8; RB]) -> Reg {
        // SAFETY: `self` proves the tier's features.
        unsafe { load_reg(bytes) }
    }

    #[inline(always)]
    fn store_reg(self, out: &mut [u8; RB], v: Reg) {
        // SAFETY: `self` proves the tier's features.
        unsafe { store_reg(out, v) }
    }

    #[inline(always)]
    fn xor(self, a: Reg, b: Reg) -> Reg {
        // SAFETY: `self` proves the tier's features.
        unsafe { xor(a, b) }
    }

    #[inline(always)]
    fn widen(self, x: __m128i) -> Reg {
        // SAFETY: `self` proves the tier's features.
        unsafe { widen(x) }
    }

    #[inline(always)]
    fn for_hash_reg<const GCM: bool>(self, x: Reg) -> Reg {
        // SAFETY: `self` proves the tier's features.
        unsafe { for_hash_reg::<GCM>(x) }
    }

    #[inline(always)]
    fn counters_group<const GCM: bool, const N: usize>(self, ctr: &mut __m128i) -> [Reg; N] {
        // SAFETY: `self` proves the tier's features.
        unsafe { counters_group::<GCM, N>(ctr) }
    }

    #[inline(always)]
    fn whitened_counters<B: KeyBlock, const GCM: bool, const N: usize>(
        self,
        ctr: &mut __m128i,
        k0: &B,
    ) -> [Reg; N] {
        // SAFETY: `self` proves the tier's features.
        unsafe { whitened_counters::<B, GCM, N>(ctr, k0) }
    }

    #[inline(always)]
    fn broadcast_block<B: KeyBlock>(self, k: &B) -> Reg {
        // SAFETY: `self` proves the tier's features.
        unsafe { broadcast_block(k) }
    }

    #[inline(always)]
    fn aes_round<B: KeyBlock, const N: usize>(self, b: &mut [Reg; N], k: &B) {
        // SAFETY: `self` proves the tier's features.
        unsafe { aes_round(b, k) }
    }

    #[inline(always)]
    fn aes_round_pinned<B: KeyBlock, const N: usize, const P: usize>(
        self,
        b: &mut [Reg; N],
        k: &B,
        pin: &mut [Reg; P],
    ) {
        // SAFETY: `self` proves the tier's features.
        unsafe { aes_round_pinned(b, k, pin) }
    }

    #[inline(always)]
    fn aes_last(self, b: Reg, k: Reg) -> Reg {
        // SAFETY: `self` proves the tier's features.
        unsafe { aes_last(b, k) }
    }

    /// `ctr_keys` copied the keys to memory: wiped.
    #[inline(always)]
    fn wipe_ctr_keys<const ROUND_KEYS: usize>(self, keys: &mut [Reg; ROUND_KEYS]) {
        keys.zeroize();
    }

    #[inline(always)]
    fn unreduced_zero(self) -> Unreduced {
        // SAFETY: `self` proves the tier's features.
        unsafe { unreduced_zero() }
    }

    #[inline(always)]
    fn mul_acc<const MULS: usize>(self, acc: &mut Unreduced, a: Reg, b: Reg, bk: Reg) {
        // SAFETY: `self` proves the tier's features.
        unsafe { mul_acc::<MULS>(acc, a, b, bk) }
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn mul_acc_in_pairs<const MULS: usize>(
        self,
        acc: &mut Unreduced,
        held: &mut Unreduced,
        first: bool,
        group_held: bool,
        a: Reg,
        b: Reg,
        bk: Reg,
    ) {
        // SAFETY: `self` proves the tier's features.
        unsafe { mul_acc_in_pairs::<MULS>(acc, held, first, group_held, a, b, bk) }
    }

    #[inline(always)]
    fn sum_done<const MULS: usize>(self, w: Unreduced) -> Unreduced {
        // SAFETY: `self` proves the tier's features.
        unsafe { sum_done::<MULS>(w) }
    }

    #[inline(always)]
    fn sum_value(self, w: Unreduced) -> __m128i {
        // SAFETY: `self` proves the tier's features.
        unsafe { sum_value(w) }
    }
}

/// `vaes::gcm_groups` compiled for this tier with `MULS` multiplies
/// per product, out of line (`vaes::gcm` says why).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn gcm_groups<const ROUND_KEYS: usize, const SEAL: bool, const MULS: usize, const PAIRS: bool>(
    t: Token,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    vaes::gcm_groups::<_, RB, ROUND_KEYS, SEAL, MULS, PAIRS>(
        t, keys, h_powers, j0, aad, data, len_block,
    )
}

/// What this tier supplies to `vaes.rs` beyond the engine's pieces. Each
/// method calls the tier's function of the same name (`self` proves the
/// features it is compiled with).
impl Wide<RB> for VaesAvx512 {
    const BIG_FROM: usize = BIG_FROM;
    const PAIRS_FROM: usize = PAIRS_FROM;
    const FULL_RATE_MULS: usize = FULL_RATE_MULS;
    const GCM_SHORT_MAX: usize = GCM_SHORT_MAX;

    #[inline(always)]
    fn aesni(self) -> crate::cpu::AesNiClmul {
        VaesAvx512::aesni(self)
    }

    #[inline(always)]
    fn group_powers<B: KeyBlock, const MULS: usize>(
        self,
        h: &[B; 8],
        big: bool,
    ) -> Powers<Reg, BIG> {
        // SAFETY: `self` proves the tier's features.
        unsafe { group_powers::<B, MULS>(h, big) }
    }

    #[inline(always)]
    fn pair_powers<const MULS: usize>(self, pw: &Powers<Reg, BIG>) -> Powers<Reg, BIG> {
        // SAFETY: `self` proves the tier's features.
        unsafe { pair_powers::<MULS>(pw) }
    }

    #[inline(always)]
    fn gcm_short<const ROUND_KEYS: usize, const SEAL: bool>(
        self,
        keys: &RoundKeys<ROUND_KEYS>,
        h_powers: &HPowers,
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        // SAFETY: `self` proves the tier's features.
        unsafe { gcm_short::<ROUND_KEYS, SEAL>(self, keys, h_powers, j0, aad, data, len_block) }
    }

    #[inline(always)]
    fn gcm_groups<const ROUND_KEYS: usize, const SEAL: bool>(
        self,
        muls: usize,
        pairs: bool,
        keys: &RoundKeys<ROUND_KEYS>,
        h_powers: &HPowers,
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        let (k, h, d) = (keys, h_powers, data);
        // SAFETY: `self` proves the tier's features.
        unsafe {
            if muls == FULL_RATE_MULS && pairs && Self::pairs_for::<ROUND_KEYS>() {
                gcm_groups::<ROUND_KEYS, SEAL, FULL_RATE_MULS, true>(
                    self, k, h, j0, aad, d, len_block,
                )
            } else if muls == FULL_RATE_MULS {
                gcm_groups::<ROUND_KEYS, SEAL, FULL_RATE_MULS, false>(
                    self, k, h, j0, aad, d, len_block,
                )
            } else {
                gcm_groups::<ROUND_KEYS, SEAL, 3, false>(self, k, h, j0, aad, d, len_block)
            }
        }
    }

    #[inline(always)]
    fn gcm_leftover<const ROUND_KEYS: usize, const SEAL: bool>(
        self,
        s: &mut aesni::gcm::State<'_, ROUND_KEYS>,
        data: &mut InOut<'_>,
        start: usize,
        len_block: u128,
    ) -> Block {
        // SAFETY: `self` proves the tier's features.
        unsafe { gcm_leftover::<ROUND_KEYS, SEAL>(self, s, data, start, len_block) }
    }

    const SIV_SHORT_MAX: usize = SIV_SHORT_MAX;

    #[inline(always)]
    fn siv_masks_stay_on_pages(self, aad: &[u8], data: &mut InOut<'_>) -> bool {
        // `siv_xmm_short`'s windows are blocks, `siv_group`'s registers.
        if data.len() <= aesni::ctr::GROUP {
            masks_stay_on_pages::<16>(aad, data, 0)
        } else {
            masks_stay_on_pages::<RB>(aad, data, 0)
        }
    }

    #[inline(always)]
    fn siv_short<const ROUND_KEYS: usize, const SEAL: bool>(
        self,
        keys: &RoundKeys<ROUND_KEYS>,
        nonce: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        tag: u128,
        len_block: u128,
    ) -> Block {
        // SAFETY: `self` proves the tier's features.
        unsafe {
            if siv::is_one_group(aad, data) {
                siv_xmm_short::<ROUND_KEYS, SEAL>(self, keys, nonce, aad, data, tag, len_block)
            } else {
                siv_group::<ROUND_KEYS, SEAL>(self, keys, nonce, aad, data, tag, len_block)
            }
        }
    }
}

/// GCM encryption (contract: `aesni::gcm::seal`): [`xmm_short`] for what
/// it takes, [`gcm_wide`] for the rest. Only the wide path uses
/// `len_block`, so the caller's arm computes it on that path alone.
///
/// # Safety
/// As for every kernel: `token` proves the tier's features (it is only
/// made by detecting them).
#[inline(always)]
pub(crate) unsafe fn seal<const ROUND_KEYS: usize>(
    token: Token,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    // SAFETY: `token` is a `VaesAvx512`, made only by detecting the
    // features `xmm_seal` and `gcm_wide` are compiled for.
    unsafe {
        if xmm_fits::<1>(aad, data) {
            xmm_seal::<ROUND_KEYS, false>(token, keys, h_powers, j0, aad, data)
        } else {
            gcm_wide::<ROUND_KEYS, true>(token, keys, h_powers, j0, aad, data, len_block)
        }
    }
}

/// GCM decryption (contract: `aesni::gcm::open`), as [`seal`]; the tag in
/// registers, for the comparison.
///
/// # Safety
/// As for [`seal`].
#[inline(always)]
pub(crate) unsafe fn open<const ROUND_KEYS: usize>(
    token: Token,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> u128 {
    // SAFETY: as in `seal`.
    unsafe {
        if xmm_fits::<1>(aad, data) {
            xmm_open::<ROUND_KEYS, false>(token, keys, h_powers, j0, aad, data)
        } else {
            let tag =
                gcm_wide::<ROUND_KEYS, false>(token, keys, h_powers, j0, aad, data, len_block);
            u128::from_le_bytes(tag)
        }
    }
}

/// GCM seal (`SEAL`) or open of what [`xmm_short`]'s first leaves do
/// not take: a short message with 17 to 32 bytes of AAD its other leaves
/// (tested here, so that the entry points' common path keeps its one
/// test), anything else the loops (`vaes::gcm`).
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
fn gcm_wide<const ROUND_KEYS: usize, const SEAL: bool>(
    token: Token,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    if xmm_fits::<2>(aad, data) {
        if SEAL {
            xmm_seal::<ROUND_KEYS, true>(token, keys, h_powers, j0, aad, data)
        } else {
            xmm_open::<ROUND_KEYS, true>(token, keys, h_powers, j0, aad, data).to_le_bytes()
        }
    } else {
        vaes::gcm::<_, RB, ROUND_KEYS, SEAL>(token, keys, h_powers, j0, aad, data, len_block)
    }
}

/// GCM-SIV encryption (contract: `siv::seal`; the passes: `vaes::siv_seal`).
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
pub(crate) fn siv_seal<const ROUND_KEYS: usize>(
    token: Token,
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    vaes::siv_seal::<_, RB, ROUND_KEYS>(token, keys, nonce, aad, data, len_block)
}

/// GCM-SIV decryption (contract: `siv::open`; the pass: `vaes::siv_open`).
#[allow(clippy::too_many_arguments)]
#[target_feature(
    enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq,avx512f,avx512bw,avx512vl"
)]
pub(crate) fn siv_open<const ROUND_KEYS: usize>(
    token: Token,
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    vaes::siv_open::<_, RB, ROUND_KEYS>(token, keys, nonce, aad, data, tag, len_block)
}

#[cfg(test)]
mod tests {
    use super::reaches_next_page;

    /// A pointer at address `a`, never dereferenced.
    fn at(a: usize) -> *const u8 {
        core::ptr::without_provenance(a)
    }

    #[test]
    fn a_window_reaches_the_next_page_only_past_a_last_byte_near_its_end() {
        // 20 bytes: the second 16-byte window runs 12 bytes past the end.
        assert!(reaches_next_page::<16>(at(0x1000 - 20), 20));
        assert!(reaches_next_page::<16>(at(0x1000 - 31), 20));
        assert!(!reaches_next_page::<16>(at(0x1000 - 32), 20));
        // Whole windows, or nothing, never reach past the end.
        assert!(!reaches_next_page::<16>(at(0x1000 - 32), 32));
        assert!(!reaches_next_page::<16>(at(0x1000 - 20), 0));
        // 144 bytes in 64-byte windows: the last runs 48 bytes past the end.
        assert!(reaches_next_page::<64>(at(0x2000 - 144), 144));
        assert!(reaches_next_page::<64>(at(0x2000 - 191), 144));
        assert!(!reaches_next_page::<64>(at(0x2000 - 192), 144));
        assert!(!reaches_next_page::<64>(at(0x2000 - 256), 256));
    }
}
