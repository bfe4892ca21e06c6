//! AES with the ARMv8 cryptography extension: key expansion (FIPS-197 §5.2)
//! and block encryption.
//!
//! The ARM instructions cut the round in a different place from AES-NI.
//! `AESE(x, k)` is AddRoundKey then SubBytes and ShiftRows — `SR(SB(x ^ k))` —
//! and `AESMC` is MixColumns alone. So with round keys k[0..=NR]:
//!
//! - rounds 1..NR−1 are `AESMC(AESE(x, k[r−1]))` for r = 1..NR−1 (the key
//!   XORed at the start of each pair is the one the FIPS round before it ended
//!   with);
//! - the last round is `AESE(x, k[NR−1]) ^ k[NR]`.
//!
//! AES-128 (NR = 10) is nine AESE+AESMC pairs, one AESE and one EOR; AES-256
//! (NR = 14) thirteen pairs, one AESE and one EOR. Cores fuse each adjacent
//! AESE+AESMC pair into one operation, so the pair must stay adjacent in the
//! instruction stream (LLVM emits them so).

use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use zeroize::Zeroize;

use super::{load, store_each, zero};
use crate::block::RoundKeys;
use crate::cpu::Armv8;

/// Encrypts `N` independent blocks in place, round by round so that `N` AES
/// operations are in flight at once: the bulk loops run it once per group, the
/// per-message paths once or twice. (`encrypt_blocks`, the same as a function,
/// serves the tests.)
///
/// LLVM decides whether to inline an `#[inline]` function by its size, and on
/// aarch64 it prices an unrolled 8-block AES (cost ≈ 800) just above its
/// threshold (750); `#[inline(always)]` is not allowed on `#[target_feature]`
/// functions. As a call, the blocks and the round keys would go through the
/// stack once per group. Expand it only inside a function compiled for the tier.
macro_rules! encrypt_blocks_inline {
    ($rk:expr, $blocks:expr) => {{
        let (rk, blocks) = ($rk, $blocks);
        let nk = rk.len();
        for k in &rk[..nk - 2] {
            for b in blocks.iter_mut() {
                *b = $crate::backend::aarch64::aes::round(*b, *k);
            }
        }
        for b in blocks.iter_mut() {
            *b = $crate::backend::aarch64::aes::last_round(*b, rk[nk - 2], rk[nk - 1]);
        }
    }};
}
pub(crate) use encrypt_blocks_inline;

/// The running XOR of the four words of `k`: word i becomes w0 ^ … ^ wi.
/// This is the `w[i] = w[i-Nk] ^ w[i-1]` chain of FIPS-197 §5.2 for one
/// round key, before the `SubWord`/`RotWord` term is added. (`EXT` with a
/// zero register shifts the block up by one word.)
#[inline]
#[target_feature(enable = "neon,aes")]
fn prefix_xor(k: uint8x16_t) -> uint8x16_t {
    // Two steps, as on x86_64 (`x86_64/aes.rs`): a one-word shift, then a
    // two-word one adds (0, 0, w0, w0^w1).
    let k = veorq_u8(k, vextq_u8::<12>(zero(), k));
    veorq_u8(k, vextq_u8::<8>(zero(), k))
}

/// `SubWord` of every word of `x` when all four columns of `x` hold the
/// same word: ShiftRows then moves nothing, so `AESE(x, 0)` is SubBytes
/// alone. (The key XOR of `AESE` comes before the S-box, so unlike
/// `AESENCLAST` it cannot fold in Rcon.)
#[inline]
#[target_feature(enable = "neon,aes")]
fn sub_word_broadcast(x: uint8x16_t) -> uint8x16_t {
    vaeseq_u8(x, zero())
}

/// The next AES-128 round key, or the next even AES-256 round key:
/// `prefix_xor(prev) ^ (SubWord(RotWord(w_last)) ^ Rcon)` in every word.
/// `TBL` broadcasts `RotWord(w_last)` (bytes 13, 14, 15, 12) and Rcon is
/// added to the first byte of each word.
#[inline]
#[target_feature(enable = "neon,aes")]
fn key_step_rot(prev: uint8x16_t, last: uint8x16_t, rcon: u32) -> uint8x16_t {
    const ROT_BROADCAST: [u8; 16] = [
        13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12, 13, 14, 15, 12,
    ];
    let t = sub_word_broadcast(vqtbl1q_u8(last, load(&ROT_BROADCAST)));
    let t = veorq_u8(t, vreinterpretq_u8_u32(vdupq_n_u32(rcon)));
    veorq_u8(prefix_xor(prev), t)
}

/// The next odd AES-256 round key: `prefix_xor(prev) ^ SubWord(w_last)`
/// (FIPS-197 §5.2, "Nk > 6 and i mod Nk = 4"), with `SubWord` from `AESE`
/// on the broadcast last word (see [`sub_word_broadcast`]).
#[inline]
#[target_feature(enable = "neon,aes")]
fn key_step_sub(prev: uint8x16_t, last: uint8x16_t) -> uint8x16_t {
    let last = vreinterpretq_u8_u32(vdupq_laneq_u32::<3>(vreinterpretq_u32_u8(last)));
    veorq_u8(prefix_xor(prev), sub_word_broadcast(last))
}

/// Key expansion into `out`: 11 round keys from a 16-byte key (AES-128), 15
/// from a 32-byte key (AES-256), written where they will live (as on
/// x86_64).
#[target_feature(enable = "neon,aes")]
pub(crate) fn expand<const ROUND_KEYS: usize, const KB: usize>(
    _token: Armv8,
    key: &[u8; KB],
    out: &mut MaybeUninit<RoundKeys<ROUND_KEYS>>,
) {
    out.write(RoundKeys(store_each(
        &expand_key_regs::<ROUND_KEYS, KB, 0>(key, &mut []),
    )));
}

/// The key schedule of `key` in registers (`ROUND_KEYS` = 11 for a 16-byte key, 15
/// for a 32-byte one), with `riders` encrypted under it on the way (see
/// [`ride`]).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn expand_key_regs<const ROUND_KEYS: usize, const KB: usize, const N: usize>(
    key: &[u8; KB],
    riders: &mut [uint8x16_t; N],
) -> [uint8x16_t; ROUND_KEYS] {
    const { assert!(KB == 4 * (ROUND_KEYS - 7) && (KB == 16 || KB == 32)) };
    // SAFETY: `key` has KB ≥ 16 readable bytes; `vld1q_u8` has no alignment requirement.
    let k0 = unsafe { vld1q_u8(key.as_ptr()) };
    let k1 = if KB == 32 {
        // SAFETY: bytes 16..32 of the 32-byte key.
        unsafe { vld1q_u8(key.as_ptr().add(16)) }
    } else {
        k0
    };
    expand_regs_riding::<ROUND_KEYS, N>(k0, k1, riders)
}

/// AES-128 key expansion in registers, with `riders` encrypted under the
/// new key round by round as its round keys appear (see [`ride`]).
#[inline]
#[target_feature(enable = "neon,aes")]
fn expand_128_regs<const N: usize>(
    key: uint8x16_t,
    riders: &mut [uint8x16_t; N],
) -> [uint8x16_t; 11] {
    let mut k = [key; 11];
    k[1] = key_step_rot(k[0], k[0], 0x01);
    ride::<11, N>(riders, k[0], k[1], 1);
    k[2] = key_step_rot(k[1], k[1], 0x02);
    ride::<11, N>(riders, k[1], k[2], 2);
    k[3] = key_step_rot(k[2], k[2], 0x04);
    ride::<11, N>(riders, k[2], k[3], 3);
    k[4] = key_step_rot(k[3], k[3], 0x08);
    ride::<11, N>(riders, k[3], k[4], 4);
    k[5] = key_step_rot(k[4], k[4], 0x10);
    ride::<11, N>(riders, k[4], k[5], 5);
    k[6] = key_step_rot(k[5], k[5], 0x20);
    ride::<11, N>(riders, k[5], k[6], 6);
    k[7] = key_step_rot(k[6], k[6], 0x40);
    ride::<11, N>(riders, k[6], k[7], 7);
    k[8] = key_step_rot(k[7], k[7], 0x80);
    ride::<11, N>(riders, k[7], k[8], 8);
    k[9] = key_step_rot(k[8], k[8], 0x1b);
    ride::<11, N>(riders, k[8], k[9], 9);
    k[10] = key_step_rot(k[9], k[9], 0x36);
    ride::<11, N>(riders, k[9], k[10], 10);
    k
}

/// AES-256 key expansion in registers, with `riders` (see [`ride`]),
/// and `passengers` encrypted beside them under another, already
/// expanded AES-256 key, `beside` (none: `P` = 0), as on x86_64.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn expand_256_regs<const N: usize, const P: usize>(
    k0: uint8x16_t,
    k1: uint8x16_t,
    riders: &mut [uint8x16_t; N],
    beside: &[uint8x16_t; 15],
    passengers: &mut [uint8x16_t; P],
) -> [uint8x16_t; 15] {
    let mut k = [k0; 15];
    k[1] = k1;
    ride_both(riders, k[0], k[1], passengers, beside, 1);
    k[2] = key_step_rot(k[0], k[1], 0x01);
    ride_both(riders, k[1], k[2], passengers, beside, 2);
    k[3] = key_step_sub(k[1], k[2]);
    ride_both(riders, k[2], k[3], passengers, beside, 3);
    k[4] = key_step_rot(k[2], k[3], 0x02);
    ride_both(riders, k[3], k[4], passengers, beside, 4);
    k[5] = key_step_sub(k[3], k[4]);
    ride_both(riders, k[4], k[5], passengers, beside, 5);
    k[6] = key_step_rot(k[4], k[5], 0x04);
    ride_both(riders, k[5], k[6], passengers, beside, 6);
    k[7] = key_step_sub(k[5], k[6]);
    ride_both(riders, k[6], k[7], passengers, beside, 7);
    k[8] = key_step_rot(k[6], k[7], 0x08);
    ride_both(riders, k[7], k[8], passengers, beside, 8);
    k[9] = key_step_sub(k[7], k[8]);
    ride_both(riders, k[8], k[9], passengers, beside, 9);
    k[10] = key_step_rot(k[8], k[9], 0x10);
    ride_both(riders, k[9], k[10], passengers, beside, 10);
    k[11] = key_step_sub(k[9], k[10]);
    ride_both(riders, k[10], k[11], passengers, beside, 11);
    k[12] = key_step_rot(k[10], k[11], 0x20);
    ride_both(riders, k[11], k[12], passengers, beside, 12);
    k[13] = key_step_sub(k[11], k[12]);
    ride_both(riders, k[12], k[13], passengers, beside, 13);
    k[14] = key_step_rot(k[12], k[13], 0x40);
    ride_both(riders, k[13], k[14], passengers, beside, 14);
    k
}

/// Step `i` for the riders (under the key being expanded: `prev`, `k`
/// its keys `i − 1` and `i`) and for the passengers (under `beside`,
/// expanded already) of [`expand_256_regs`].
#[inline]
#[target_feature(enable = "neon,aes")]
fn ride_both<const N: usize, const P: usize>(
    riders: &mut [uint8x16_t; N],
    prev: uint8x16_t,
    k: uint8x16_t,
    passengers: &mut [uint8x16_t; P],
    beside: &[uint8x16_t; 15],
    i: usize,
) {
    ride::<15, N>(riders, prev, k, i);
    ride::<15, P>(passengers, beside[i - 1], beside[i], i);
}

/// Once round key `i` (≥ 1) of `ROUND_KEYS` exists, applies to each rider the
/// round that needs key `i`: `AESE` with key `i − 1` and `AESMC` up to `ROUND_KEYS`
/// − 2, and for the last key `AESE` with key `ROUND_KEYS` − 2 then the XOR with key
/// `ROUND_KEYS` − 1 (see the module docs for where ARM cuts the round). As on
/// x86_64 (`x86_64/aes.rs`, `ride`), a block encrypted under a key still
/// being expanded finishes right after the schedule.
#[inline]
#[target_feature(enable = "neon,aes")]
fn ride<const ROUND_KEYS: usize, const N: usize>(
    riders: &mut [uint8x16_t; N],
    prev: uint8x16_t,
    k: uint8x16_t,
    i: usize,
) {
    for b in riders.iter_mut() {
        *b = if i < ROUND_KEYS - 1 {
            round(*b, prev)
        } else {
            last_round(*b, prev, k)
        };
    }
}

/// Key expansion in registers for `ROUND_KEYS` = 11 (AES-128, from `k0`) or 15
/// (AES-256, from `k0 || k1`): GCM-SIV's per-message encryption key.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn expand_regs<const ROUND_KEYS: usize>(
    k0: uint8x16_t,
    k1: uint8x16_t,
) -> [uint8x16_t; ROUND_KEYS] {
    expand_regs_riding::<ROUND_KEYS, 0>(k0, k1, &mut [])
}

/// [`expand_regs`] with `riders` encrypted under the new key on the way
/// (see [`ride`]).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn expand_regs_riding<const ROUND_KEYS: usize, const N: usize>(
    k0: uint8x16_t,
    k1: uint8x16_t,
    riders: &mut [uint8x16_t; N],
) -> [uint8x16_t; ROUND_KEYS] {
    const { assert!(ROUND_KEYS == 11 || ROUND_KEYS == 15) };
    let mut out = [k0; ROUND_KEYS];
    if ROUND_KEYS == 11 {
        out.copy_from_slice(&expand_128_regs(k0, riders));
    } else {
        out.copy_from_slice(&expand_256_regs(k0, k1, riders, &[k0; 15], &mut []));
    }
    out
}

/// AES encryption of one block under `keys`, as on x86_64: QUIC's
/// header-protection mask (`quic::HeaderProtectionKey`). The block and round keys
/// in registers are wiped before returning.
#[target_feature(enable = "neon,aes")]
pub(crate) fn encrypt_block<const ROUND_KEYS: usize>(
    _token: Armv8,
    keys: &RoundKeys<ROUND_KEYS>,
    block: &crate::block::Block,
) -> crate::block::Block {
    let mut rk = load_round_keys(keys);
    let mut b = [load(block)];
    encrypt_blocks_inline!(&rk, &mut b);
    let out = store_each(&b)[0];
    b.zeroize();
    rk.zeroize();
    out
}

/// Loads the round keys into registers (the compiler keeps what fits).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn load_round_keys<const ROUND_KEYS: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
) -> [uint8x16_t; ROUND_KEYS] {
    let mut rk = [zero(); ROUND_KEYS];
    for (dst, src) in rk.iter_mut().zip(keys.0.iter()) {
        *dst = load(src);
    }
    rk
}

/// One AES round on a block, in ARM's cut: `AESMC(AESE(x, k))` (see the
/// module docs).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn round(x: uint8x16_t, k: uint8x16_t) -> uint8x16_t {
    vaesmcq_u8(vaeseq_u8(x, k))
}

/// The last AES round of a block: `AESE(x, k_penultimate) ^ k_last`.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn last_round(
    x: uint8x16_t,
    k_penultimate: uint8x16_t,
    k_last: uint8x16_t,
) -> uint8x16_t {
    veorq_u8(vaeseq_u8(x, k_penultimate), k_last)
}

/// Encrypts `N` independent blocks, round by round so that `N` AES operations
/// are in flight at once. (`encrypt_blocks_inline!` is its body inline;
/// the kernels use that, the tests this.)
#[cfg(test)]
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn encrypt_blocks<const ROUND_KEYS: usize, const N: usize>(
    rk: &[uint8x16_t; ROUND_KEYS],
    blocks: &mut [uint8x16_t; N],
) {
    const { assert!(ROUND_KEYS >= 3) };
    encrypt_blocks_inline!(rk, blocks);
}
