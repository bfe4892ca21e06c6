//! Counter mode with the universal hash stitched in, on AES-NI + PCLMULQDQ:
//! the AES-NI tier's pieces for the stitched engine (`engine.rs`: the
//! token's `impl Pieces` below), shared by
//! AES-GCM (`aesni/gcm.rs`) and AES-GCM-SIV (`aesni/siv.rs`), and the passes
//! around it (counter blocks, the AAD's and GCM-SIV's hash, the tail).
//!
//! The two modes differ in two conventions, selected by `const GCM: bool`:
//!
//! | | GCM (`true`) | GCM-SIV (`false`) |
//! |---|---|---|
//! | counter | last 4 bytes, big-endian (inc32) | first 4 bytes, little-endian |
//! | hash input | each block byte-reversed (GHASH as POLYVAL) | each block as it is |
//!
//! Both counters wrap modulo 2^32 and leave the other 96 bits alone. The counter
//! register `ctr` is kept so that adding to its dword 0 (`PADDD`) is exactly that
//! increment: for GCM it holds the counter block byte-reversed, for GCM-SIV the
//! block itself.
//!
//! For the engine a register is one block and a group eight registers (128
//! bytes, `GROUP`), one reduction per group:
//! - [`ctr_hash_output`]: the AES rounds of group i with the multiplies of the
//!   output of group i − 1 (GCM seal, GCM-SIV open; `engine::hash_output`);
//! - [`ctr_hash_input`]: the AES rounds of group i with the multiplies of the
//!   input of group i (GCM open; `engine::hash_input`);
//! - [`ctr_only`]: AES only (GCM-SIV seal, whose hash ran in a first pass,
//!   [`hash_input`]; `engine::ctr_only`).
//!
//! Every loop covers whole groups; [`tail`] handles the last 0..127 bytes.

use crate::backend::tail_mode::TailMode;
use core::arch::x86_64::*;

use zeroize::Zeroize;

use crate::backend::x86_64::aes::{
    aes_round_asm, encrypt_blocks, encrypt_blocks_and, expand_key_regs,
};
use crate::backend::x86_64::clmul::{
    Unreduced, byte_reverse, fold_blocks, fold8_karatsuba, karatsuba_done, karatsuba_keys,
    mul_acc_k, reduce, unreduced_zero,
};
use crate::backend::x86_64::engine::{
    self, BIG, LoopShape, Pieces, Powers, groups_end, state_finish, state_from,
};
use crate::backend::x86_64::{
    KeyBlock, from_u128, load, load_blocks, store, store_blocks, store_blocks_to,
};
use crate::block::{HPowers, wipe};
use crate::cpu::AesNiClmul;
use crate::cpu::x86_64::aesni_clmul_proved;
use crate::inout::{InOut, padded_block_value};

/// Bytes per bulk iteration: eight blocks, one group of the engine.
pub(crate) const GROUP: usize = 128;
const _: () = assert!(GROUP == RB * BIG);

/// Bytes per register: one block.
const RB: usize = 16;

impl LoopShape for AesNiClmul {
    /// Before the group loop: the shape this tier's loop was tuned in; as
    /// a branch inside the loop, LLVM does not peel it here and the loop
    /// carries both paths.
    const PEEL_FIRST: bool = true;

    /// Read through the caller's reference: 16 registers cannot hold them
    /// (the same loops either way, measured).
    const POWERS_IN_REGISTERS: bool = false;

    /// Read back: eight more xmm registers across the loop would spill.
    const HOLD_WRITTEN: bool = false;
}

/// The AES-NI tier's pieces for the engine: a register is one block
/// (xmm), the group eight of them. Each method calls the tier's function
/// of the same or the named piece; `self` proves the features they are
/// compiled with.
// SAFETY: the token exists only where the CPU has the tier's features,
// SSE2 among them (`cpu::x86_64::aesni_clmul!`).
unsafe impl Pieces<RB> for AesNiClmul {
    type Reg = __m128i;

    #[inline(always)]
    fn load_reg(self, bytes: &[u8; RB]) -> __m128i {
        // SAFETY: `self` proves the tier's features.
        unsafe { load(bytes) }
    }

    #[inline(always)]
    fn store_reg(self, out: &mut [u8; RB], v: __m128i) {
        // SAFETY: `self` proves the tier's features.
        *out = unsafe { store(v) };
    }

    #[inline(always)]
    fn xor(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: `self` proves the tier's features (SSE2).
        unsafe { _mm_xor_si128(a, b) }
    }

    /// A register has one lane: the block itself.
    #[inline(always)]
    fn widen(self, x: __m128i) -> __m128i {
        x
    }

    #[inline(always)]
    fn for_hash_reg<const GCM: bool>(self, x: __m128i) -> __m128i {
        // SAFETY: `self` proves the tier's features.
        unsafe { for_hash::<GCM>(x) }
    }

    #[inline(always)]
    fn counters_group<const GCM: bool, const N: usize>(self, ctr: &mut __m128i) -> [__m128i; N] {
        // SAFETY: `self` proves the tier's features.
        unsafe { counter_blocks::<GCM, N>(ctr) }
    }

    #[inline(always)]
    fn broadcast_block<B: KeyBlock>(self, k: &B) -> __m128i {
        broadcast_block(k)
    }

    #[inline(always)]
    fn aes_round<B: KeyBlock, const N: usize>(self, b: &mut [__m128i; N], k: &B) {
        // SAFETY: `self` proves the tier's features.
        unsafe { aes_round(b, k) }
    }

    #[inline(always)]
    fn aes_round_pinned<B: KeyBlock, const N: usize, const P: usize>(
        self,
        b: &mut [__m128i; N],
        k: &B,
        pin: &mut [__m128i; P],
    ) {
        // SAFETY: `self` proves the tier's features.
        unsafe { aes_round_pinned(b, k, pin) }
    }

    #[inline(always)]
    fn aes_last(self, b: __m128i, k: __m128i) -> __m128i {
        // SAFETY: `self` proves the tier's features (AES-NI).
        unsafe { _mm_aesenclast_si128(b, k) }
    }

    /// Nothing to wipe: [`ctr_keys`](Pieces::ctr_keys)'s loads stay in
    /// registers (the caller wipes its schedule).
    #[inline(always)]
    fn wipe_ctr_keys<const ROUND_KEYS: usize>(self, _keys: &mut [__m128i; ROUND_KEYS]) {}

    #[inline(always)]
    fn unreduced_zero(self) -> Unreduced {
        // SAFETY: `self` proves the tier's features.
        unsafe { unreduced_zero() }
    }

    /// `clmul::mul_acc_k`: three multiplies (`MULS` is always 3 here).
    #[inline(always)]
    fn mul_acc<const MULS: usize>(self, acc: &mut Unreduced, a: __m128i, b: __m128i, bk: __m128i) {
        const { assert!(MULS == 3) };
        // SAFETY: `self` proves the tier's features.
        unsafe { mul_acc_k(acc, a, b, bk) }
    }

    /// `clmul::karatsuba_done`.
    #[inline(always)]
    fn sum_done<const MULS: usize>(self, w: Unreduced) -> Unreduced {
        const { assert!(MULS == 3) };
        // SAFETY: `self` proves the tier's features.
        unsafe { karatsuba_done(w) }
    }

    /// `clmul::reduce`.
    #[inline(always)]
    fn sum_value(self, w: Unreduced) -> __m128i {
        // SAFETY: `self` proves the tier's features.
        unsafe { reduce(w) }
    }
}

/// The block `*k` (16 bytes: a round key or a hash power) in a register;
/// an xmm register has one lane, so this is a plain load.
#[inline(always)]
fn broadcast_block<B: KeyBlock>(k: &B) -> __m128i {
    // SAFETY: `*k` starts with the 16 bytes of the block (`KeyBlock`);
    // `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(core::ptr::from_ref(k).cast()) }
}

/// The part of a tail after its keystream: `$ks` (`M` blocks) XORed with
/// the tail's `$rest` bytes, already read into `$buf` (`B` bytes, zero past
/// them), the output written at `$offset`, both buffers wiped; then, if
/// `$mode::HASH`, the tail's blocks (the output if `$mode::OUTPUT`, else the
/// input), zero-padded, and `$last` (the length block) folded into `$acc`.
/// Its value is the accumulator. A macro, not a function, so that [`tail`]
/// and XAES's short path (`xaes.rs`, whose keystream rode the key schedule)
/// share it without a call: as an `#[inline]` function with two callers,
/// LLVM kept it out of line and moved GCM's whole tail out of `seal`.
macro_rules! xor_and_hash_tail {
    ($mode:ty, $m:expr, $b:expr, $ks:expr, $buf:expr, $rest:expr, $data:expr, $offset:expr,
     $acc:expr, $h:expr, $last:expr) => {{
        use core::arch::x86_64::{
            __m128i, _mm_and_si128, _mm_cmpgt_epi8, _mm_set_epi8, _mm_set1_epi8, _mm_xor_si128,
        };
        use $crate::inout::InOut;
        let (ks, buf, rest, data, offset, acc, h, last): (
            &[__m128i; $m],
            &mut [u8; $b],
            usize,
            &mut InOut<'_>,
            usize,
            __m128i,
            &[__m128i; 8],
            __m128i,
        ) = ($ks, $buf, $rest, $data, $offset, $acc, $h, $last);
        let input: [__m128i; $m] = $crate::backend::x86_64::load_blocks(buf);
        let mut output = input;
        for (o, k) in output.iter_mut().zip(ks) {
            *o = _mm_xor_si128(*o, *k);
        }
        let mut out_bytes: [u8; $b] = $crate::backend::x86_64::store_blocks(&output);
        data.write_tail(offset, &out_bytes, rest);
        // Both tails may hold plaintext (a forgery's, when opening): wipe them.
        $crate::block::wipe(buf);
        $crate::block::wipe(&mut out_bytes);
        if !<$mode as $crate::backend::tail_mode::TailMode>::HASH {
            acc
        } else {
            // The input is already zero past `rest` (the buffer was); the output
            // has keystream there, cleared in registers (byte j of block i is kept
            // when 16i + j < rest): reloading a buffer patched with narrower
            // stores would stall store forwarding.
            let mut hashed = if <$mode as $crate::backend::tail_mode::TailMode>::OUTPUT {
                output
            } else {
                input
            };
            let iota = _mm_set_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
            for (i, x) in hashed.iter_mut().enumerate() {
                if <$mode as $crate::backend::tail_mode::TailMode>::OUTPUT {
                    let left = (rest as isize - 16 * i as isize).clamp(0, 16) as i8;
                    *x = _mm_and_si128(*x, _mm_cmpgt_epi8(_mm_set1_epi8(left), iota));
                }
                *x = if <$mode as $crate::backend::tail_mode::TailMode>::GCM {
                    $crate::backend::x86_64::aesni::ctr::for_hash::<true>(*x)
                } else {
                    $crate::backend::x86_64::aesni::ctr::for_hash::<false>(*x)
                };
            }
            $crate::backend::x86_64::aesni::ctr::fold_with_last(
                acc,
                &hashed,
                rest.div_ceil(16),
                last,
                h,
            )
        }
    }};
}
pub(crate) use xor_and_hash_tail;

/// H^1..H^8 into registers.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn load_powers(h_powers: &HPowers) -> [__m128i; 8] {
    let mut h = [_mm_setzero_si128(); 8];
    for (dst, src) in h.iter_mut().zip(h_powers.0.iter()) {
        *dst = load(src);
    }
    h
}

/// A block as the hash takes it: byte-reversed for GHASH, as is for POLYVAL.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn for_hash<const GCM: bool>(x: __m128i) -> __m128i {
    if GCM { byte_reverse(x) } else { x }
}

/// The next `N` counter blocks (see the module docs for `ctr`).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn counter_blocks<const GCM: bool, const N: usize>(ctr: &mut __m128i) -> [__m128i; N] {
    let mut out = [_mm_setzero_si128(); N];
    if !GCM {
        for (i, b) in out.iter_mut().enumerate() {
            *b = _mm_add_epi32(*ctr, _mm_set_epi32(0, 0, 0, i as i32));
        }
    } else if (_mm_cvtsi128_si32(*ctr) as u32 & 0xff) as usize + N <= 256 {
        // No carry leaves the last byte within these N blocks, so add i to
        // byte 15 of the big-endian block directly (it is the top byte of
        // dword 3): one shuffle per batch instead of one per block. The
        // branch depends only on the block position, which is public.
        let first = byte_reverse(*ctr);
        for (i, b) in out.iter_mut().enumerate() {
            *b = _mm_add_epi32(first, _mm_set_epi32((i as i32) << 24, 0, 0, 0));
        }
    } else {
        let one = _mm_set_epi32(0, 0, 0, 1);
        let mut c = *ctr;
        for b in out.iter_mut() {
            *b = byte_reverse(c);
            c = _mm_add_epi32(c, one);
        }
    }
    *ctr = _mm_add_epi32(*ctr, _mm_set_epi32(0, 0, 0, N as i32));
    out
}

/// The hash of `bytes` zero-padded to whole blocks (GCM's `A || 0^v`,
/// GCM-SIV's padded AAD).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn hash_padded<const GCM: bool>(
    mut acc: __m128i,
    bytes: &[u8],
    h: &[__m128i; 8],
) -> __m128i {
    let (groups, rest) = bytes.as_chunks::<GROUP>();
    for group in groups {
        let mut x: [__m128i; 8] = load_blocks(group);
        for b in x.iter_mut() {
            *b = for_hash::<GCM>(*b);
        }
        acc = fold_blocks(acc, &x, h);
    }
    // The rest (under a group) block by block, its last partial block
    // zero-padded in registers, so a short AAD (a TLS record header, 5 or
    // 13 bytes) costs one block's work, not a group's.
    if !rest.is_empty() {
        let (blocks, last) = rest.as_chunks::<16>();
        let mut x = [_mm_setzero_si128(); 8];
        for (xi, block) in x.iter_mut().zip(blocks) {
            *xi = for_hash::<GCM>(load(block));
        }
        let mut n = blocks.len();
        // `n` < 8: the rest is under a group.
        if !last.is_empty()
            && let Some(xn) = x.get_mut(n)
        {
            *xn = for_hash::<GCM>(from_u128(padded_block_value(last)));
            n += 1;
        }
        acc = fold_blocks(acc, &x[..n], h);
    }
    acc
}

/// The hash of the input of `data` from `start` (a multiple of `GROUP`) to
/// the end, zero-padded to whole blocks.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn hash_input<const GCM: bool>(
    mut acc: __m128i,
    data: &InOut<'_>,
    start: usize,
    h: &[__m128i; 8],
) -> __m128i {
    let bulk = start + (data.len() - start) / GROUP * GROUP;
    let mut offset = start;
    let hk = karatsuba_keys(h);
    while offset < bulk {
        let mut x: [__m128i; 8] = load_blocks(data.input::<GROUP>(offset));
        for b in x.iter_mut() {
            *b = for_hash::<GCM>(*b);
        }
        acc = fold8_karatsuba(acc, &x, h, &hk);
        offset += GROUP;
    }
    let mut buf = [0u8; GROUP];
    let rest = data.read_tail(offset, &mut buf);
    if rest > 0 {
        let mut x: [__m128i; 8] = load_blocks(&buf);
        for b in x.iter_mut() {
            *b = for_hash::<GCM>(*b);
        }
        acc = fold_blocks(acc, &x[..rest.div_ceil(16)], h);
    }
    wipe(&mut buf);
    acc
}

/// One AES round on a group. A group of eight is one `asm!` block, so
/// the group goes round by round, eight independent `aesenc` at a time:
/// with intrinsics, LLVM emitted the engine's CTR-only group (the first
/// group a seal peels) block by block, ten dependent rounds of one
/// block before the next block's, and a message of one group waited on
/// that chain (docs/design.md, "The stitched loops (`engine.rs`): what the
/// CPU allows", item 4; on Zen 1: docs/measurements/2026-11-24-zen1/tables.md).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn aes_round<B: KeyBlock, const N: usize>(b: &mut [__m128i; N], k: &B) {
    let k = broadcast_block(k);
    if let Some(b) = b.first_chunk_mut::<8>() {
        aes_round_asm!(sse xmm_reg, k;
            0: b[0], 1: b[1], 2: b[2], 3: b[3], 4: b[4], 5: b[5], 6: b[6], 7: b[7];);
    } else {
        for b in b.iter_mut() {
            *b = _mm_aesenc_si128(*b, k);
        }
    }
}

/// One AES round on eight blocks, as one `asm!` block that also passes
/// the `P` registers of `pin` (1, 3 or 4) through unchanged. Written with
/// intrinsics, LLVM moves every multiply of a group ahead of the group's
/// first round, and the multiplier and the AES units take turns instead of
/// working together: what goes through the block is computed before the
/// round and what comes out is used after it, so the work stays where the
/// source puts it. The wide tiers reach this only out of line, in
/// functions without wide registers (`vaes::gcm_rest`, `siv_open_rest`),
/// so its legacy encoding never follows wide code (`scripts/sse-check.sh`).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn aes_round_pinned<B: KeyBlock, const N: usize, const P: usize>(
    b: &mut [__m128i; N],
    k: &B,
    pin: &mut [__m128i; P],
) {
    const { assert!(N == BIG && (P == 1 || P == 3 || P == 4)) };
    let k = broadcast_block(k);
    let Some(b) = b.first_chunk_mut::<8>() else {
        return;
    };
    if let Some([p0, p1, p2, p3]) = pin.first_chunk_mut::<4>() {
        aes_round_asm!(sse xmm_reg, k;
            0: b[0], 1: b[1], 2: b[2], 3: b[3], 4: b[4], 5: b[5], 6: b[6], 7: b[7];
            8: *p0, 9: *p1, 10: *p2, 11: *p3);
    } else if let Some([p0, p1, p2]) = pin.first_chunk_mut::<3>() {
        aes_round_asm!(sse xmm_reg, k;
            0: b[0], 1: b[1], 2: b[2], 3: b[3], 4: b[4], 5: b[5], 6: b[6], 7: b[7];
            8: *p0, 9: *p1, 10: *p2);
    } else if let Some([p0]) = pin.first_chunk_mut::<1>() {
        aes_round_asm!(sse xmm_reg, k;
            0: b[0], 1: b[1], 2: b[2], 3: b[3], 4: b[4], 5: b[5], 6: b[6], 7: b[7];
            8: *p0);
    }
}

/// The multipliers of a group (`engine::Powers`): block i of a group is
/// multiplied by H^(8 − i), `h[7 − i]`.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn group_powers(h: &[__m128i; 8]) -> Powers<__m128i, BIG> {
    let hk = karatsuba_keys(h);
    Powers {
        p: core::array::from_fn(|i| h[7 - i]),
        k: core::array::from_fn(|i| hk[7 - i]),
    }
}

/// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
/// hashing the output: the output of each group is hashed during the AES of
/// the next (read back from the output). Returns the accumulator and the
/// end of the last whole group.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn ctr_hash_output<const ROUND_KEYS: usize, const GCM: bool>(
    rk: &[__m128i; ROUND_KEYS],
    h: &[__m128i; 8],
    ctr: &mut __m128i,
    acc: __m128i,
    data: &mut InOut<'_>,
    start: usize,
) -> (__m128i, usize) {
    let t = aesni_clmul_proved();
    let bulk = groups_end::<RB, BIG>(data.len(), start);
    if bulk == start {
        return (acc, bulk);
    }
    let mut s = state_from(t, acc);
    let pw = group_powers(h);
    engine::hash_output::<_, RB, _, ROUND_KEYS, GCM, 3, BIG>(t, rk, &pw, ctr, &mut s, data, start);
    (state_finish(t, s), bulk)
}

/// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
/// hashing the input: each group's input is hashed during its own AES.
/// Returns the accumulator and the end of the last whole group.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn ctr_hash_input<const ROUND_KEYS: usize, const GCM: bool>(
    rk: &[__m128i; ROUND_KEYS],
    h: &[__m128i; 8],
    ctr: &mut __m128i,
    acc: __m128i,
    data: &mut InOut<'_>,
    start: usize,
) -> (__m128i, usize) {
    let t = aesni_clmul_proved();
    let bulk = groups_end::<RB, BIG>(data.len(), start);
    if bulk == start {
        return (acc, bulk);
    }
    let mut s = state_from(t, acc);
    let pw = group_powers(h);
    engine::hash_input::<_, RB, _, ROUND_KEYS, GCM, 3, BIG>(t, rk, &pw, ctr, &mut s, data, start);
    (state_finish(t, s), bulk)
}

/// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
/// no hash. Returns the end of the last whole group.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn ctr_only<const ROUND_KEYS: usize, const GCM: bool>(
    rk: &[__m128i; ROUND_KEYS],
    ctr: &mut __m128i,
    data: &mut InOut<'_>,
    start: usize,
) -> usize {
    engine::ctr_only::<_, RB, _, ROUND_KEYS, GCM, BIG>(aesni_clmul_proved(), rk, ctr, data, start);
    groups_end::<RB, BIG>(data.len(), start)
}

/// CTR over the last `data.len() - offset` (< `B` = 16·`M`) bytes, with one
/// more block, `extra`, encrypted in the same batch if `Mode::GCM` (GCM's
/// J0; GCM-SIV has none). Then, if `Mode::HASH`, folds the tail's blocks —
/// its output if `Mode::OUTPUT`, else its input — zero-padded, and `last`
/// (the length block) into `acc`.
///
/// Returns the accumulator and E(K, `extra`) (`extra` itself if not
/// `Mode::GCM`).
#[inline]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn tail<const ROUND_KEYS: usize, Mode: TailMode, const M: usize, const B: usize>(
    rk: &[__m128i; ROUND_KEYS],
    mut ctr: __m128i,
    data: &mut InOut<'_>,
    offset: usize,
    extra: __m128i,
    acc: __m128i,
    h: &[__m128i; 8],
    last: __m128i,
) -> (__m128i, __m128i) {
    let mut buf = [0u8; B];
    let rest = data.read_tail(offset, &mut buf);

    let mut ks: [__m128i; M] = if Mode::GCM {
        counter_blocks::<true, M>(&mut ctr)
    } else {
        counter_blocks::<false, M>(&mut ctr)
    };
    let mut extra = extra;
    if Mode::GCM {
        encrypt_blocks_and(rk, &mut ks, &mut extra);
    } else {
        encrypt_blocks(rk, &mut ks);
    }

    let acc = xor_and_hash_tail!(Mode, M, B, &ks, &mut buf, rest, data, offset, acc, h, last);
    (acc, extra)
}

/// Folds `x[..n]` (n ≤ 8) and then `last` into `acc`, with one reduction
/// when they fit in eight blocks.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn fold_with_last<const M: usize>(
    acc: __m128i,
    x: &[__m128i; M],
    n: usize,
    last: __m128i,
    h: &[__m128i; 8],
) -> __m128i {
    let n = n.min(M);
    if n < 8 {
        // A fixed-count loop, not a slice copy: a variable-length copy
        // becomes a `memcpy` call.
        let mut all = [last; 8];
        for (i, (a, b)) in all.iter_mut().zip(x).enumerate() {
            if i < n {
                *a = *b;
            }
        }
        fold_blocks(acc, &all[..n + 1], h)
    } else {
        fold_blocks(fold_blocks(acc, &x[..n], h), &[last], h)
    }
}

/// Calls `$f::<.., M, B>(..)` with the smallest tail batch (1, 4 or 8 blocks)
/// that holds `$rest` bytes, so a 16-byte message costs one keystream block.
macro_rules! by_tail_size {
    ($rest:expr, $f:ident::<$($g:tt),*>($($arg:expr),*)) => {
        match ($rest).div_ceil(16) {
            0..=1 => $f::<$($g,)* 1, 16>($($arg),*),
            2..=4 => $f::<$($g,)* 4, 64>($($arg),*),
            _ => $f::<$($g,)* 8, 128>($($arg),*),
        }
    };
}
pub(crate) use by_tail_size;

/// The random generator's AES-256-CTR keystream (`random.rs`, through `backend::keystream`): counter
/// blocks 0, 1, 2, … (the counter little-endian in the first 32 bits, the
/// rest zero) under `key`; blocks 0 and 1 into `next`, the rest into `out`.
/// The expanded key and the staging buffer are wiped before returning.
#[cfg_attr(not(feature = "getrandom"), allow(dead_code))]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn keystream(_token: AesNiClmul, key: &[u8; 32], next: &mut [u8; 32], out: &mut [u8]) {
    let mut rk = expand_key_regs::<15, 32, 0>(key, &mut []);
    let mut ctr = _mm_setzero_si128();
    let mut first: [__m128i; 2] = counter_blocks::<false, 2>(&mut ctr);
    encrypt_blocks(&rk, &mut first);
    *next = store_blocks(&first);
    let (chunks, rest) = out.as_chunks_mut::<128>();
    for chunk in chunks {
        let mut ks: [__m128i; 8] = counter_blocks::<false, 8>(&mut ctr);
        encrypt_blocks(&rk, &mut ks);
        store_blocks_to(chunk, &ks);
    }
    if !rest.is_empty() {
        let mut ks: [__m128i; 8] = counter_blocks::<false, 8>(&mut ctr);
        encrypt_blocks(&rk, &mut ks);
        let mut buf: [u8; 128] = store_blocks(&ks);
        rest.copy_from_slice(&buf[..rest.len()]);
        buf.zeroize();
        ks.zeroize();
    }
    first.zeroize();
    rk.zeroize();
}
