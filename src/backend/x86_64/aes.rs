//! AES with AES-NI: key expansion (FIPS-197 §5.2) and block encryption.
//!
//! `AESENC` performs one full round (ShiftRows, SubBytes, MixColumns,
//! AddRoundKey) and `AESENCLAST` the final round without MixColumns, so AES-128
//! is `x ^ rk[0]`, 9 × `AESENC`, 1 × `AESENCLAST`, and AES-256 the same with 13.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use zeroize::Zeroize;

use super::{load, store_each};
use crate::block::RoundKeys;
use crate::cpu::AesNiClmul;

/// The running XOR of the four words of `k`: word i becomes w0 ^ … ^ wi.
/// This is the `w[i] = w[i-Nk] ^ w[i-1]` chain of FIPS-197 §5.2 for one
/// round key, before the `SubWord`/`RotWord` term is added. Two steps
/// rather than three: (w0, w0^w1, w1^w2, w2^w3) after a one-word shift,
/// then a two-word shift adds (0, 0, w0, w0^w1). The schedule is a serial
/// chain of these, so each step's latency counts: two shifts and two XORs
/// finish before the `AESENCLAST` beside them does.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn prefix_xor(k: __m128i) -> __m128i {
    let k = _mm_xor_si128(k, _mm_slli_si128::<4>(k));
    _mm_xor_si128(k, _mm_slli_si128::<8>(k))
}

/// The next AES-128 round key: `prefix_xor(prev) ^ (SubWord(RotWord(w_last))
/// ^ Rcon)` in every word (`prev` and `last` are both the key before).
///
/// `SubWord` comes from `AESENCLAST` rather than `AESKEYGENASSIST`, whose
/// latency is twice as long: when all four columns of the state hold the
/// same word, ShiftRows moves nothing, so `AESENCLAST(broadcast(w), k)` is
/// `broadcast(SubWord(w)) ^ k`. `PSHUFB` broadcasts `RotWord(w_last)`
/// (bytes 13, 14, 15, 12) and `k` puts Rcon in the first byte of each word.
/// The key schedule is serial, and GCM-SIV expands a key per message: a
/// step is the shuffle, the `AESENCLAST` and one XOR, the prefix XOR of the
/// same key running beside the first two.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn key_step_rot(prev: __m128i, last: __m128i, rcon: i32) -> __m128i {
    let t = _mm_aesenclast_si128(
        _mm_shuffle_epi8(last, rot_broadcast()),
        _mm_set1_epi32(rcon),
    );
    _mm_xor_si128(prefix_xor(prev), t)
}

/// `PSHUFB`'s mask for `RotWord` of the last word, in every word.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn rot_broadcast() -> __m128i {
    _mm_set_epi8(
        12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13, 12, 15, 14, 13,
    )
}

/// The next even AES-256 round key, as [`key_step_rot`] but from the key
/// two back (`prev`) and the key before (`last`). With `fold`, the prefix
/// XOR of `prev` (with Rcon), which is ready before `last` is, rides in as
/// `AESENCLAST`'s round key, whose XOR is free: a step is the shuffle and
/// the `AESENCLAST`, one XOR shorter than AES-128's, whose prefix XOR is of
/// the key just made. Only a schedule with nothing riding on it folds: with
/// riders (blocks encrypted round by round as the keys appear, `ride`), the
/// riders hide the chain's latency, and in the AES-NI build the folded form
/// kept more registers live and made GCM-SIV's 128-byte seal slower
/// (docs/design.md, "Tried and dropped").
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn key_step_rot_256(prev: __m128i, last: __m128i, rcon: i32, fold: bool) -> __m128i {
    let shuffled = _mm_shuffle_epi8(last, rot_broadcast());
    if fold {
        let round_key = _mm_xor_si128(prefix_xor(prev), _mm_set1_epi32(rcon));
        _mm_aesenclast_si128(shuffled, round_key)
    } else {
        let t = _mm_aesenclast_si128(shuffled, _mm_set1_epi32(rcon));
        _mm_xor_si128(prefix_xor(prev), t)
    }
}

/// The next odd AES-256 round key: `prefix_xor(prev) ^ SubWord(w_last)`
/// (FIPS-197 §5.2, "Nk > 6 and i mod Nk = 4"), with `SubWord` from
/// `AESENCLAST` on the broadcast last word and, with `fold`, the prefix XOR
/// as its round key (see [`key_step_rot_256`]).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn key_step_sub(prev: __m128i, last: __m128i, fold: bool) -> __m128i {
    let shuffled = _mm_shuffle_epi32::<0xff>(last);
    if fold {
        _mm_aesenclast_si128(shuffled, prefix_xor(prev))
    } else {
        _mm_xor_si128(
            prefix_xor(prev),
            _mm_aesenclast_si128(shuffled, _mm_setzero_si128()),
        )
    }
}

/// Key expansion into `out`: 11 round keys from a 16-byte key (AES-128), 15
/// from a 32-byte key (AES-256). The key state is written where it will
/// live, so no copy of it is left behind.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn expand<const ROUND_KEYS: usize, const KB: usize>(
    _token: AesNiClmul,
    key: &[u8; KB],
    out: &mut MaybeUninit<RoundKeys<ROUND_KEYS>>,
) {
    out.write(RoundKeys(store_each(
        &expand_key_regs::<ROUND_KEYS, KB, 0>(key, &mut []),
    )));
}

/// The key schedule of `key` in registers (`ROUND_KEYS` = 11 for a 16-byte key, 15
/// for a 32-byte one), with `riders` encrypted under it on the way
/// (see [`ride`]).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn expand_key_regs<const ROUND_KEYS: usize, const KB: usize, const N: usize>(
    key: &[u8; KB],
    riders: &mut [__m128i; N],
) -> [__m128i; ROUND_KEYS] {
    const { assert!(KB == 4 * (ROUND_KEYS - 7) && (KB == 16 || KB == 32)) };
    // SAFETY: `key` has KB ≥ 16 readable bytes; `loadu` has no alignment requirement.
    let k0 = unsafe { _mm_loadu_si128(key.as_ptr().cast()) };
    let k1 = if KB == 32 {
        // SAFETY: bytes 16..32 of the 32-byte key.
        unsafe { _mm_loadu_si128(key.as_ptr().add(16).cast()) }
    } else {
        k0
    };
    expand_regs_riding::<ROUND_KEYS, N>(k0, k1, riders)
}

/// AES-128 key expansion in registers, with `riders` encrypted under the
/// new key round by round as its round keys appear (see [`ride`]). Written
/// out step by step: as a loop, LLVM kept it rolled and passed each key to
/// the next step through memory.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn expand_128_regs<const N: usize>(key: __m128i, riders: &mut [__m128i; N]) -> [__m128i; 11] {
    let mut k = [key; 11];
    ride::<11, N>(riders, k[0], 0);
    k[1] = key_step_rot(k[0], k[0], 0x01);
    ride::<11, N>(riders, k[1], 1);
    k[2] = key_step_rot(k[1], k[1], 0x02);
    ride::<11, N>(riders, k[2], 2);
    k[3] = key_step_rot(k[2], k[2], 0x04);
    ride::<11, N>(riders, k[3], 3);
    k[4] = key_step_rot(k[3], k[3], 0x08);
    ride::<11, N>(riders, k[4], 4);
    k[5] = key_step_rot(k[4], k[4], 0x10);
    ride::<11, N>(riders, k[5], 5);
    k[6] = key_step_rot(k[5], k[5], 0x20);
    ride::<11, N>(riders, k[6], 6);
    k[7] = key_step_rot(k[6], k[6], 0x40);
    ride::<11, N>(riders, k[7], 7);
    k[8] = key_step_rot(k[7], k[7], 0x80);
    ride::<11, N>(riders, k[8], 8);
    k[9] = key_step_rot(k[8], k[8], 0x1b);
    ride::<11, N>(riders, k[9], 9);
    k[10] = key_step_rot(k[9], k[9], 0x36);
    ride::<11, N>(riders, k[10], 10);
    k
}

/// AES-256 key expansion in registers, with `riders` (see [`ride`]),
/// and `passengers` encrypted round by round beside them under another,
/// already expanded AES-256 key, `beside` (none: `P` = 0): blocks that
/// would otherwise wait for the schedule or make it wait (KC-XAES-256-GCM's
/// commitment, `xaes.rs`) fill the same gaps in its serial chain.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn expand_256_regs<const N: usize, const P: usize>(
    k0: __m128i,
    k1: __m128i,
    riders: &mut [__m128i; N],
    beside: &[__m128i; 15],
    passengers: &mut [__m128i; P],
) -> [__m128i; 15] {
    // Fold only a schedule with nothing riding on it (`key_step_rot_256`);
    // a constant once inlined.
    let fold = N == 0 && P == 0;
    let mut k = [k0; 15];
    k[1] = k1;
    ride_both(riders, k[0], passengers, beside, 0);
    ride_both(riders, k[1], passengers, beside, 1);
    k[2] = key_step_rot_256(k[0], k[1], 0x01, fold);
    ride_both(riders, k[2], passengers, beside, 2);
    k[3] = key_step_sub(k[1], k[2], fold);
    ride_both(riders, k[3], passengers, beside, 3);
    k[4] = key_step_rot_256(k[2], k[3], 0x02, fold);
    ride_both(riders, k[4], passengers, beside, 4);
    k[5] = key_step_sub(k[3], k[4], fold);
    ride_both(riders, k[5], passengers, beside, 5);
    k[6] = key_step_rot_256(k[4], k[5], 0x04, fold);
    ride_both(riders, k[6], passengers, beside, 6);
    k[7] = key_step_sub(k[5], k[6], fold);
    ride_both(riders, k[7], passengers, beside, 7);
    k[8] = key_step_rot_256(k[6], k[7], 0x08, fold);
    ride_both(riders, k[8], passengers, beside, 8);
    k[9] = key_step_sub(k[7], k[8], fold);
    ride_both(riders, k[9], passengers, beside, 9);
    k[10] = key_step_rot_256(k[8], k[9], 0x10, fold);
    ride_both(riders, k[10], passengers, beside, 10);
    k[11] = key_step_sub(k[9], k[10], fold);
    ride_both(riders, k[11], passengers, beside, 11);
    k[12] = key_step_rot_256(k[10], k[11], 0x20, fold);
    ride_both(riders, k[12], passengers, beside, 12);
    k[13] = key_step_sub(k[11], k[12], fold);
    ride_both(riders, k[13], passengers, beside, 13);
    k[14] = key_step_rot_256(k[12], k[13], 0x40, fold);
    ride_both(riders, k[14], passengers, beside, 14);
    k
}

/// Round `i` for the riders (under the key being expanded, `k`) and
/// for the passengers (under `beside`, expanded already) of
/// [`expand_256_regs`].
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn ride_both<const N: usize, const P: usize>(
    riders: &mut [__m128i; N],
    k: __m128i,
    passengers: &mut [__m128i; P],
    beside: &[__m128i; 15],
    i: usize,
) {
    ride::<15, N>(riders, k, i);
    ride::<15, P>(passengers, beside[i], i);
}

/// Applies round key `i` of `ROUND_KEYS` to each rider: the initial XOR for `i` =
/// 0, `AESENC` up to `ROUND_KEYS` − 2, `AESENCLAST` for the last. The expansions
/// call it right after computing key `i`, so a block to be encrypted
/// under a key that is still being expanded (H = E(K, 0) at key setup,
/// GCM-SIV's tag and keystream block) finishes a round after the schedule
/// does, not 10 or 14 rounds after it: the schedule is serial, each step
/// waiting on an `AESENCLAST`, and the rider's rounds fill those waits.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn ride<const ROUND_KEYS: usize, const N: usize>(riders: &mut [__m128i; N], k: __m128i, i: usize) {
    for b in riders.iter_mut() {
        *b = if i == 0 {
            _mm_xor_si128(*b, k)
        } else if i < ROUND_KEYS - 1 {
            _mm_aesenc_si128(*b, k)
        } else {
            _mm_aesenclast_si128(*b, k)
        };
    }
}

/// Key expansion in registers for `ROUND_KEYS` = 11 (AES-128, from `k0`) or 15
/// (AES-256, from `k0 || k1`): GCM-SIV's per-message encryption key.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn expand_regs<const ROUND_KEYS: usize>(
    k0: __m128i,
    k1: __m128i,
) -> [__m128i; ROUND_KEYS] {
    expand_regs_riding::<ROUND_KEYS, 0>(k0, k1, &mut [])
}

/// [`expand_regs`] with `riders` encrypted under the new key on the way
/// (see [`ride`]).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn expand_regs_riding<const ROUND_KEYS: usize, const N: usize>(
    k0: __m128i,
    k1: __m128i,
    riders: &mut [__m128i; N],
) -> [__m128i; ROUND_KEYS] {
    const { assert!(ROUND_KEYS == 11 || ROUND_KEYS == 15) };
    let mut out = [k0; ROUND_KEYS];
    if ROUND_KEYS == 11 {
        out.copy_from_slice(&expand_128_regs(k0, riders));
    } else {
        out.copy_from_slice(&expand_256_regs(k0, k1, riders, &[k0; 15], &mut []));
    }
    out
}

/// AES encryption of one block under `keys`: QUIC's header-protection
/// mask (`quic::HeaderProtectionKey`, through `backend::encrypt_block`). The block
/// and round keys in registers are wiped before returning.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn encrypt_block<const ROUND_KEYS: usize>(
    _token: AesNiClmul,
    keys: &RoundKeys<ROUND_KEYS>,
    block: &crate::block::Block,
) -> crate::block::Block {
    let mut rk = load_round_keys(keys);
    let mut b = [load(block)];
    encrypt_blocks(&rk, &mut b);
    let out = store_each(&b)[0];
    b.zeroize();
    rk.zeroize();
    out
}

/// Loads the round keys into registers (the compiler keeps what fits).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn load_round_keys<const ROUND_KEYS: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
) -> [__m128i; ROUND_KEYS] {
    let mut rk = [_mm_setzero_si128(); ROUND_KEYS];
    for (dst, src) in rk.iter_mut().zip(keys.0.iter()) {
        *dst = load(src);
    }
    rk
}

/// Encrypts `N` independent blocks, round by round so that `N` AES operations
/// are in flight at once ([`round_all`]).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn encrypt_blocks<const ROUND_KEYS: usize, const N: usize>(
    rk: &[__m128i; ROUND_KEYS],
    blocks: &mut [__m128i; N],
) {
    for b in blocks.iter_mut() {
        *b = _mm_xor_si128(*b, rk[0]);
    }
    for k in &rk[1..ROUND_KEYS - 1] {
        round_all(blocks, *k);
    }
    for b in blocks.iter_mut() {
        *b = _mm_aesenclast_si128(*b, rk[ROUND_KEYS - 1]);
    }
}

/// [`encrypt_blocks`] for code compiled in either encoding: `VEX` (the
/// wide tiers' GCM-SIV short-message leaves) with intrinsics only, no
/// `asm!` block, so that every instruction is VEX-encoded (those leaves
/// run no legacy-SSE instruction, which costs on Intel and Zen 3 after
/// wide code; there LLVM keeps the blocks' rounds interleaved); else
/// [`encrypt_blocks`] itself, whose `asm!` rounds keep the AES-NI tier's
/// batches interleaved (with intrinsics there, the per-nonce key blocks
/// were slower: docs/design.md, "Exact sizes, a leaf per tier").
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn encrypt_blocks_in<const VEX: bool, const ROUND_KEYS: usize, const N: usize>(
    rk: &[__m128i; ROUND_KEYS],
    blocks: &mut [__m128i; N],
) {
    if !VEX {
        return encrypt_blocks(rk, blocks);
    }
    for b in blocks.iter_mut() {
        *b = _mm_xor_si128(*b, rk[0]);
    }
    for k in &rk[1..ROUND_KEYS - 1] {
        for b in blocks.iter_mut() {
            *b = _mm_aesenc_si128(*b, *k);
        }
    }
    for b in blocks.iter_mut() {
        *b = _mm_aesenclast_si128(*b, rk[ROUND_KEYS - 1]);
    }
}

/// One AES round on every block of a batch of 2, 4, 6 or 8, as one
/// `asm!` block: with intrinsics, LLVM emitted such batches (GCM-SIV's
/// per-nonce key blocks, the tails) block by block, ten or fourteen
/// dependent `aesenc` on one register before the next block's first.
/// Other sizes keep the intrinsics.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn round_all<const N: usize>(blocks: &mut [__m128i; N], k: __m128i) {
    match blocks.as_mut_slice() {
        [a, b] => aes_round_asm!(sse xmm_reg, k; 0: *a, 1: *b;),
        [a, b, c, d] => aes_round_asm!(sse xmm_reg, k; 0: *a, 1: *b, 2: *c, 3: *d;),
        [a, b, c, d, e, f] => {
            aes_round_asm!(sse xmm_reg, k; 0: *a, 1: *b, 2: *c, 3: *d, 4: *e, 5: *f;)
        }
        [a, b, c, d, e, f, g, h] => aes_round_asm!(sse xmm_reg, k;
            0: *a, 1: *b, 2: *c, 3: *d, 4: *e, 5: *f, 6: *g, 7: *h;),
        others => {
            for b in others {
                *b = _mm_aesenc_si128(*b, k);
            }
        }
    }
}

/// Encrypts `N` (≥ 1) independent blocks and one more, `extra`, round
/// by round together (GCM's tail batch with E(K, J0)). Each round of
/// `extra` and the first block is one `asm!` block: with intrinsics
/// only, LLVM emitted `extra`'s ten rounds after the tail's hash, where
/// its result is used, and the tag waited for them. Legacy-encoded
/// `aesenc` also where a VAES tier inlines GCM's tail after its loops,
/// as the AES-NI engine's `aes_round_pinned` is.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn encrypt_blocks_and<const ROUND_KEYS: usize, const N: usize>(
    rk: &[__m128i; ROUND_KEYS],
    blocks: &mut [__m128i; N],
    extra: &mut __m128i,
) {
    const { assert!(N >= 1) };
    *extra = _mm_xor_si128(*extra, rk[0]);
    for b in blocks.iter_mut() {
        *b = _mm_xor_si128(*b, rk[0]);
    }
    for k in &rk[1..ROUND_KEYS - 1] {
        let [first, rest @ ..] = blocks.as_mut_slice() else {
            return;
        };
        aes_round_asm!(sse xmm_reg, *k; 0: *extra, 1: *first;);
        for b in rest.iter_mut() {
            *b = _mm_aesenc_si128(*b, *k);
        }
    }
    *extra = _mm_aesenclast_si128(*extra, rk[ROUND_KEYS - 1]);
    for b in blocks.iter_mut() {
        *b = _mm_aesenclast_si128(*b, rk[ROUND_KEYS - 1]);
    }
}

/// One AES round on the listed registers (numbered operands) with the round
/// key `$k`, as one `asm!` block, optionally naming further registers ("pins")
/// that no instruction uses (see `aes_round_pinned`). `vex` is the
/// three-operand VAES form (`vaesenc ymm/zmm`), `sse` the two-operand AES-NI
/// form (`aesenc xmm`, the AES-NI tier's stitched loop in `aesni/ctr.rs`).
macro_rules! aes_round_asm {
    (@emit $class:ident, $k:expr, [$($insn:expr),*]; $($b:expr),*; $($j:literal: $p:expr),*) => {
        // SAFETY: AES rounds on registers only (no memory, stack or flags);
        // this is expanded only in kernels whose target features provide the
        // instruction and the register class. The pinned registers are only
        // named in a comment.
        unsafe {
            core::arch::asm!(
                $($insn,)*
                $(concat!("/* {", $j, "} */"),)*
                $(inout($class) $b,)*
                $(inout($class) $p,)*
                k = in($class) $k,
                options(pure, nomem, nostack, preserves_flags),
            )
        }
    };
    // The VAES form with the round key read from memory inside the block:
    // `$broadcast` puts the 16 bytes at `$kp` into every lane of a scratch
    // register (of type `$kty`) the rounds then use. The scratch is a named
    // output, not `_`: with `out(zmm_reg) _` here, rustc 1.95 gave the
    // scratch a general register (`r16d`) in the AVX-512 tier, which the
    // assembler rejected.
    (vex $class:ident, $broadcast:literal [$kp:expr] $kty:ty; $($i:literal: $b:expr),*; $($j:literal: $p:expr),*) => {
        let _scratch: $kty;
        // SAFETY: reads the 16 bytes at `$kp` (the caller passes a pointer to
        // at least 16 readable bytes) and runs AES rounds on registers (no
        // other memory, no stack or flags); expanded only in kernels whose
        // target features provide the instructions and the register class.
        // The pinned registers are only named in a comment.
        unsafe {
            core::arch::asm!(
                concat!($broadcast, " {k}, xmmword ptr [{kp}]"),
                $(concat!("vaesenc {", $i, "}, {", $i, "}, {k}"),)*
                $(concat!("/* {", $j, "} */"),)*
                $(inout($class) $b,)*
                $(inout($class) $p,)*
                k = out($class) _scratch,
                kp = in(reg) $kp,
                options(pure, readonly, nostack, preserves_flags),
            )
        }
    };
    (vex $class:ident, $k:expr; $($i:literal: $b:expr),*; $($j:literal: $p:expr),*) => {
        $crate::backend::x86_64::aes::aes_round_asm!(@emit $class, $k, [$(concat!("vaesenc {", $i, "}, {", $i, "}, {k}")),*];
            $($b),*; $($j: $p),*)
    };
    (sse $class:ident, $k:expr; $($i:literal: $b:expr),*; $($j:literal: $p:expr),*) => {
        $crate::backend::x86_64::aes::aes_round_asm!(@emit $class, $k, [$(concat!("aesenc {", $i, "}, {k}")),*]; $($b),*; $($j: $p),*)
    };
}
pub(crate) use aes_round_asm;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model;

    fn token() -> AesNiClmul {
        AesNiClmul::detect().expect("the kernel tests need AES-NI and PCLMULQDQ")
    }

    /// Keys of many byte patterns, all-zero and all-ones first.
    fn keys<const KB: usize>() -> impl Iterator<Item = [u8; KB]> {
        (0..200u32).map(|seed| {
            core::array::from_fn(|i| match seed {
                0 => 0,
                1 => 0xff,
                _ => {
                    (seed.wrapping_mul(2_654_435_761).rotate_left(i as u32 % 32) >> 8) as u8
                        ^ (i as u8).wrapping_mul(seed as u8 | 1)
                }
            })
        })
    }

    /// Every round key of [`expand`] is FIPS-197's (the model's), with and
    /// without a block riding the schedule, whose result is E(K, block).
    fn schedule_matches_the_model<const ROUND_KEYS: usize, const KB: usize>() {
        let t = token();
        for key in keys::<KB>() {
            let mut out = MaybeUninit::<RoundKeys<ROUND_KEYS>>::uninit();
            let block: crate::block::Block = core::array::from_fn(|i| key[i] ^ 0x5c);
            // SAFETY: `t` proves the tier's features; `expand` writes `out`.
            let (got, rider) = unsafe {
                expand(t, &key, &mut out);
                let mut riders = [load(&block)];
                let _ = expand_key_regs::<ROUND_KEYS, KB, 1>(&key, &mut riders);
                (out.assume_init(), super::super::store(riders[0]))
            };
            assert_eq!(
                got.0.to_vec(),
                model::AesKey::new(&key).round_keys(),
                "key {key:02x?}"
            );
            assert_eq!(
                rider,
                model::aes_encrypt_block(&key, &block),
                "key {key:02x?}"
            );
        }
    }

    #[test]
    fn aes_128_schedule_matches_the_model() {
        schedule_matches_the_model::<11, 16>();
    }

    #[test]
    fn aes_256_schedule_matches_the_model() {
        schedule_matches_the_model::<15, 32>();
    }
}
