//! AES-GCM and AES-GCM-SIV on VAES + VPCLMULQDQ with 256-bit registers (AVX2).
//!
//! Two blocks per register. Messages from `BIG_FROM` bytes go through groups
//! of eight registers (16 blocks, 256 bytes), shorter ones (and what is left
//! after the big groups) through groups of four (128 bytes); the loops and the
//! reasons for their shape are `engine.rs`'s, the entry points' bodies
//! `vaes.rs`'s. For CPUs that have VAES but no
//! AVX-512, and for users who force this tier to avoid 512-bit registers.
//! The key holds H^1..H^8; H^9..H^16 are computed per call for big groups.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use zeroize::Zeroize;

use super::vaes_register_pieces;
use super::{SMALL, Wide};
use crate::backend::x86_64::KeyBlock;
use crate::backend::x86_64::aesni;
use crate::backend::x86_64::aesni::ctr::for_hash;
use crate::backend::x86_64::clmul;
use crate::backend::x86_64::engine::{BIG, LoopShape, Pieces, Powers};
use crate::backend::x86_64::vaes;
use crate::block::{Block, HPowers, RoundKeys};
use crate::cpu::VaesAvx2;
use crate::inout::InOut;

/// The message length from which the big groups pay for their 8 extra
/// powers, computed per call: below it, small groups, which need half the
/// powers (docs/design.md, "The wide tiers (`vaes.rs`, `vaes/avx2.rs`,
/// `vaes/avx512.rs`)"; chosen with `perf stat` of AES-256-GCM seals).
const BIG_FROM: usize = 1024;

/// The message length from which GCM's big groups are hashed in pairs
/// (`engine::hash_output_paired`): never on this tier. On Zen 3 (the
/// CPUs it is the best tier of) pairs measured slower at 16 KiB and no
/// faster beyond (docs/benchmarks.md, "AMD Zen 3: two pipes for rounds and
/// multiplies"): with 16 registers the pair's powers and sums go through
/// the stack (70 stack accesses a pair against 29 a group). The unit
/// tests turn them on, to test the engine's paired loops on CPUs without
/// AVX-512.
const PAIRS_FROM: usize = if cfg!(test) { 8192 } else { usize::MAX };

/// The multiplies per product of GCM's group loops on a CPU whose
/// `vpclmulqdq` issues every cycle: three, as everywhere on this tier (the
/// CPUs it is the best tier of, Zen 3, issue one every two cycles).
const FULL_RATE_MULS: usize = 3;

/// Bytes per register.
const RB: usize = 32;

/// A register of blocks (a round key in both lanes is one too).
type Reg = __m256i;

/// An unreduced sum of 2-lane products.
type Unreduced = clmul::Unreduced<Reg>;

/// Lane-wise XOR.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn xor(a: __m256i, b: __m256i) -> __m256i {
    _mm256_xor_si256(a, b)
}

/// Two copies of a block.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn splat(x: __m128i) -> __m256i {
    _mm256_broadcastsi128_si256(x)
}

/// A register from its bytes.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn load_reg(bytes: &[u8; RB]) -> Reg {
    // SAFETY: an unaligned load of exactly the 32 bytes of `bytes`.
    unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
}

/// A register into its bytes.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn store_reg(out: &mut [u8; RB], v: Reg) {
    // SAFETY: an unaligned store of exactly the 32 bytes of `out`.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) }
}

/// Two blocks as the hash takes them (see `ctr::for_hash`).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn for_hash_reg<const GCM: bool>(x: __m256i) -> __m256i {
    if GCM {
        let mask = splat(_mm_set_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        ));
        _mm256_shuffle_epi8(x, mask)
    } else {
        x
    }
}

/// The next `2 * N` counter blocks (`ctr` as in `aesni/ctr.rs`): lane j of
/// register i holds counter `2i + j`. Each register is the first plus a
/// constant, so no register waits for another.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn counters_group<const GCM: bool, const N: usize>(ctr: &mut __m128i) -> [Reg; N] {
    // GCM's counter is big-endian in the last four bytes. When its low byte
    // cannot carry within the group, add to byte 15 of the big-endian block
    // directly: one shuffle per group instead of one per register (the
    // branch depends only on the block position, which is public).
    let no_carry = GCM && (_mm_cvtsi128_si32(*ctr) as u32 & 0xff) as usize + 2 * N <= 256;
    let lanes = |n: [i32; 2]| {
        if no_carry {
            _mm256_set_epi32(n[1] << 24, 0, 0, 0, n[0] << 24, 0, 0, 0)
        } else {
            _mm256_set_epi32(0, 0, 0, n[1], 0, 0, 0, n[0])
        }
    };
    let base = if no_carry {
        splat(for_hash::<true>(*ctr))
    } else {
        splat(*ctr)
    };
    let out = core::array::from_fn(|i| {
        let n = 2 * i as i32;
        let c = _mm256_add_epi32(base, lanes([n, n + 1]));
        if no_carry { c } else { for_hash_reg::<GCM>(c) }
    });
    *ctr = _mm_add_epi32(*ctr, _mm_set_epi32(0, 0, 0, 2 * N as i32));
    out
}

/// The empty sum.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn unreduced_zero() -> Unreduced {
    Unreduced {
        lo: _mm256_setzero_si256(),
        mid: _mm256_setzero_si256(),
        hi: _mm256_setzero_si256(),
    }
}

/// `acc += a · b` lane by lane, unreduced.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn mul_acc2(acc: &mut Unreduced, a: __m256i, b: __m256i) {
    acc.lo = _mm256_xor_si256(acc.lo, _mm256_clmulepi64_epi128::<0x00>(a, b));
    acc.hi = _mm256_xor_si256(acc.hi, _mm256_clmulepi64_epi128::<0x11>(a, b));
    acc.mid = _mm256_xor_si256(acc.mid, _mm256_clmulepi64_epi128::<0x01>(a, b));
    acc.mid = _mm256_xor_si256(acc.mid, _mm256_clmulepi64_epi128::<0x10>(a, b));
}

/// `acc += a · b` lane by lane with three multiplies (Karatsuba; the
/// engine's `MULS`, always 3 on this tier): `bk` holds `b`'s halves
/// XORed, `acc.mid` collects the products of the halves' sums, and
/// [`sum_done`] turns it into the middle term. The multiplier has half
/// the throughput of the AES units on the CPUs with VAES and AVX2 alone
/// (Zen 3): three multiplies instead of four is what lets a group's hash
/// fit under its AES.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn mul_acc<const MULS: usize>(acc: &mut Unreduced, a: __m256i, b: __m256i, bk: __m256i) {
    const { assert!(MULS == 3) };
    let ak = _mm256_xor_si256(a, _mm256_shuffle_epi32::<0x4e>(a));
    acc.lo = _mm256_xor_si256(acc.lo, _mm256_clmulepi64_epi128::<0x00>(a, b));
    acc.hi = _mm256_xor_si256(acc.hi, _mm256_clmulepi64_epi128::<0x11>(a, b));
    acc.mid = _mm256_xor_si256(acc.mid, _mm256_clmulepi64_epi128::<0x00>(ak, bk));
}

/// A sum built with [`mul_acc`] as an ordinary unreduced sum.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn sum_done<const MULS: usize>(w: Unreduced) -> Unreduced {
    const { assert!(MULS == 3) };
    Unreduced {
        mid: _mm256_xor_si256(w.mid, _mm256_xor_si256(w.lo, w.hi)),
        ..w
    }
}

/// The reduction of `clmul.rs`, on each lane.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn reduce2(v: Unreduced) -> __m256i {
    let c = _mm256_set1_epi64x(0xc200_0000_0000_0000_u64 as i64);
    let lo_folded = _mm256_xor_si256(
        _mm256_shuffle_epi32::<0x4e>(v.lo),
        _mm256_clmulepi64_epi128::<0x00>(v.lo, c),
    );
    let m = _mm256_xor_si256(v.mid, lo_folded);
    let m_folded = _mm256_xor_si256(
        _mm256_shuffle_epi32::<0x4e>(m),
        _mm256_clmulepi64_epi128::<0x00>(m, c),
    );
    _mm256_xor_si256(v.hi, m_folded)
}

/// The sum of the two lanes.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn fold_lanes(v: __m256i) -> __m128i {
    _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v))
}

/// `a · b` lane by lane, reduced.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn mul2(a: __m256i, b: __m256i) -> __m256i {
    let mut w = unreduced_zero();
    mul_acc2(&mut w, a, b);
    reduce2(w)
}

/// Builds a GCM key's state where it will live: the round keys and H from
/// `aesni::gcm::round_keys_and_h`, compiled with this tier's features,
/// with H^3..H^8 two lanes at a time: H^2 a square, then (H^3, H^4) as
/// (H, H^2) times H^2, and (H^5, H^6), (H^7, H^8) as (H, H^2), (H^3, H^4)
/// times H^4: three products two lanes wide for the xmm code's six.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
pub(crate) fn init_key<const ROUND_KEYS: usize, const KB: usize>(
    _token: VaesAvx2,
    key: &[u8; KB],
    round_keys: &mut MaybeUninit<RoundKeys<ROUND_KEYS>>,
    h_powers: &mut MaybeUninit<HPowers>,
) {
    let h = aesni::gcm::round_keys_and_h(key, round_keys);
    let h2 = clmul::square(h);
    let h1_h2 = _mm256_inserti128_si256::<1>(splat(h), h2);
    let h3_h4 = mul2(h1_h2, splat(h2));
    let h4 = _mm256_permute2x128_si256::<0x11>(h3_h4, h3_h4);
    const { assert!(size_of::<HPowers>() == 4 * size_of::<Reg>()) };
    let out = h_powers.as_mut_ptr().cast::<Reg>();
    // SAFETY: `HPowers` is four registers' bytes (asserted above): four
    // stores, which have no alignment requirement.
    unsafe {
        _mm256_storeu_si256(out, h1_h2);
        _mm256_storeu_si256(out.add(1), h3_h4);
        _mm256_storeu_si256(out.add(2), mul2(h1_h2, h4));
        _mm256_storeu_si256(out.add(3), mul2(h3_h4, h4));
    }
}

/// The multipliers of a big group (`Powers`) from H^1..H^8 (`h`, eight
/// 16-byte powers in order): the last four registers from the key and, if
/// `big` groups will be used, the first four those times H^8 (else zero).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn group_powers<B: KeyBlock, const MULS: usize>(h: &[B; 8], big: bool) -> Powers<Reg, BIG> {
    // Three multiplies per product on this tier (`FULL_RATE_MULS`).
    // 16-byte blocks (`Block` or `__m128i`), read as 128 contiguous bytes.
    const { assert!(size_of::<B>() == 16 && BIG == 8 && MULS == 3) };
    let mut p = [_mm256_setzero_si256(); BIG];
    for i in 0..4 {
        // SAFETY: `h` is 8 × 16 = 128 bytes (asserted above); this reads
        // bytes 32i..32i + 32 of it, unaligned (i < 4).
        let pair = unsafe { _mm256_loadu_si256(h.as_ptr().cast::<u8>().add(32 * i).cast()) };
        // H^(2i+2) in lane 0, H^(2i+1) in lane 1: a constant lane swap.
        p[BIG - 1 - i] = _mm256_permute2x128_si256::<0x01>(pair, pair);
    }
    if big {
        let h8 = broadcast_block(&h[7]);
        for i in 0..4 {
            p[i] = mul2(p[i + 4], h8);
        }
    }
    let k = core::array::from_fn(|i| _mm256_xor_si256(p[i], _mm256_shuffle_epi32::<0x4e>(p[i])));
    Powers { p, k }
}

/// The powers of a pair's first group (`Wide::pair_powers`): each of the
/// big group's `pw` times H^16, the power in its register 0, lane 0, with
/// Karatsuba's factors.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn pair_powers<const MULS: usize>(pw: &Powers<Reg, BIG>) -> Powers<Reg, BIG> {
    const { assert!(MULS == 3) };
    let h16 = splat(_mm256_castsi256_si128(pw.p[0]));
    let mut p = [_mm256_setzero_si256(); BIG];
    let mut k = [_mm256_setzero_si256(); BIG];
    for i in 0..BIG {
        p[i] = mul2(pw.p[i], h16);
        k[i] = _mm256_xor_si256(p[i], _mm256_shuffle_epi32::<0x4e>(p[i]));
    }
    Powers { p, k }
}

/// A block in lane 0, zeros in the others.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn widen(x: __m128i) -> __m256i {
    _mm256_zextsi128_si256(x)
}

/// The value of an unreduced sum: one reduction, lanes added.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn sum_value(s: Unreduced) -> __m128i {
    fold_lanes(reduce2(s))
}

/// The last AES round of one register.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn aes_last(b: __m256i, k: __m256i) -> __m256i {
    _mm256_aesenclast_epi128(b, k)
}

/// The longest message [`gcm_short`] takes: less than a small group.
const GCM_SHORT_MAX: usize = RB * SMALL - 1;

/// GCM of a message shorter than a small group: the AES-NI tier's code
/// (byte-masked loads and stores, which a one-batch tail needs, are
/// AVX-512's).
#[inline]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn gcm_short<const ROUND_KEYS: usize, const SEAL: bool>(
    token: VaesAvx2,
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

/// What the groups leave (`start..`, less than a small group): the
/// AES-NI tier's pieces (`vaes::aesni_rest`, out of line).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn gcm_leftover<const ROUND_KEYS: usize, const SEAL: bool>(
    t: Token,
    s: &mut aesni::gcm::State<'_, ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> Block {
    vaes::aesni_rest::<ROUND_KEYS, SEAL>(t.aesni(), s, data, start, len_block)
}

/// This tier's feature token.
type Token = VaesAvx2;

/// GCM-SIV of a message `siv::is_one_group` takes (an AAD of at most 16
/// bytes, a text of at most 128; seal if `SEAL`, else open with the
/// received `tag`): `siv::one_group_batch` with as many blocks as the
/// text fills (`backend::by_block_count`), compiled for this tier (VEX
/// encodings, no legacy-SSE instruction). Out of line and reached
/// straight from the entry points, so a short message runs a leaf
/// function.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
fn siv_short<const ROUND_KEYS: usize, const SEAL: bool>(
    _token: VaesAvx2,
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    use aesni::siv::one_group_batch;
    crate::backend::by_block_count!(
        data.len(),
        one_group_batch::<true, ROUND_KEYS, SEAL>(keys, nonce, aad, data, tag, len_block)
    )
}

vaes_register_pieces!(
    features = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq",
    reg = __m256i,
    class = ymm_reg,
    broadcast = "vbroadcasti128"
);

impl LoopShape for VaesAvx2 {
    /// As a branch inside the group loop: the shape this tier's loops were
    /// tuned in; before the loop, LLVM lays the group path out differently
    /// here.
    const PEEL_FIRST: bool = false;

    /// Read through the caller's reference: 16 registers cannot hold them
    /// beside a group.
    const POWERS_IN_REGISTERS: bool = false;

    /// Read back: 16 registers cannot hold a group beside the next.
    const HOLD_WRITTEN: bool = false;
}

/// This tier's pieces for the engine (2 blocks a register). Each
/// method calls the tier's function of the same name; `self` proves the
/// features they are compiled with.
// SAFETY: the token exists only where the CPU has the tier's features,
// SSE2 among them (`cpu::x86_64::vaes_avx2!`).
unsafe impl Pieces<RB> for VaesAvx2 {
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
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
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
impl Wide<RB> for VaesAvx2 {
    const BIG_FROM: usize = BIG_FROM;
    const PAIRS_FROM: usize = PAIRS_FROM;
    const FULL_RATE_MULS: usize = FULL_RATE_MULS;
    const GCM_SHORT_MAX: usize = GCM_SHORT_MAX;

    #[inline(always)]
    fn aesni(self) -> crate::cpu::AesNiClmul {
        VaesAvx2::aesni(self)
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

    const SIV_SHORT_MAX: usize = aesni::ctr::GROUP;

    /// `siv_short` copies a partial block through the stack: no masks.
    #[inline(always)]
    fn siv_masks_stay_on_pages(self, _aad: &[u8], _data: &mut InOut<'_>) -> bool {
        true
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
        unsafe { siv_short::<ROUND_KEYS, SEAL>(self, keys, nonce, aad, data, tag, len_block) }
    }
}

/// GCM encryption (contract: `aesni::gcm::seal`; the loops: `vaes::gcm`).
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
pub(crate) fn seal<const ROUND_KEYS: usize>(
    token: Token,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    vaes::gcm::<_, RB, ROUND_KEYS, true>(token, keys, h_powers, j0, aad, data, len_block)
}

/// GCM decryption (contract: `aesni::gcm::open`; the loops: `vaes::gcm`).
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
pub(crate) fn open<const ROUND_KEYS: usize>(
    token: Token,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> u128 {
    let tag =
        vaes::gcm::<_, RB, ROUND_KEYS, false>(token, keys, h_powers, j0, aad, data, len_block);
    u128::from_le_bytes(tag)
}

/// GCM-SIV encryption (contract: `siv::seal`; the passes: `vaes::siv_seal`).
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
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
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1,avx,avx2,vaes,vpclmulqdq")]
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
