//! AES-GCM-SIV (RFC 8452) on ARMv8 AES + PMULL.
//!
//! Contract of [`seal`] and [`open`] (that of `x86_64/aesni/siv.rs`): `keys` are the
//! round keys of the key-generating key; `nonce` is the 12-byte nonce as
//! `u128::from_le_bytes` of the nonce followed by four zero bytes; `len_block`
//! is RFC 8452's length block (the AAD and plaintext lengths in bits,
//! little-endian 64-bit each). `data` is transformed in place or into a
//! disjoint output of the same length. Both return the tag computed over the
//! plaintext — seal over its input, open over its output — which open's caller
//! compares with the received one. The caller has checked the RFC 8452 §6
//! lengths.
//!
//! Seal runs two passes, as the construction requires (the tag is the initial
//! counter): POLYVAL over the plaintext, eight blocks per reduction, then CTR,
//! eight blocks per iteration. Open runs one: CTR of each group interleaved with
//! POLYVAL of the plaintext of the group before. The per-message keys live in
//! registers and stack arrays that are zeroized before returning.

use crate::backend::tail_mode::{SivOpen, SivSeal};
use core::arch::aarch64::*;

use zeroize::Zeroize;

use super::aes::{encrypt_blocks_inline, expand_regs, expand_regs_riding, load_round_keys};
use super::clmul::{fold_blocks_inline, mul, mul_acc, powers, powers_upto, reduce, unreduced_zero};
use super::ctr::{
    GROUP, by_tail_size, counter_blocks, ctr_hash_output, ctr_only, hash_input, hash_padded, tail,
};
use super::{from_u128, load, store, zero};
use crate::block::{Block, RoundKeys, wipe};
use crate::cpu::Armv8;
use crate::inout::{InOut, padded_block};

/// RFC 8452 §4, per-nonce key derivation: "message_authentication_key =
/// AES(key_generating_key, little_endian_uint32(0) || nonce)\[:8\] ||
/// AES(key_generating_key, little_endian_uint32(1) || nonce)\[:8\]" and the
/// message-encryption key from the first 8 bytes of the blocks for counters
/// 2 and 3 (and, "if the key-generating key is 256 bits", 4 and 5). All
/// blocks are encrypted in one batch. Returns the authentication key and
/// the encryption key's two halves (the second unused for AES-128).
#[inline]
#[target_feature(enable = "neon,aes")]
fn derive_key_blocks<const ROUND_KEYS: usize>(
    rk: &[uint8x16_t; ROUND_KEYS],
    nonce: uint8x16_t,
) -> [uint8x16_t; 3] {
    // `little_endian_uint32(i) || nonce`: the nonce moved up one word
    // (`EXT` with zero), then i in word 0.
    let base = vreinterpretq_u32_u8(vextq_u8::<12>(zero(), nonce));
    let mut blocks = [zero(); 6];
    for (i, b) in blocks.iter_mut().enumerate() {
        *b = vreinterpretq_u8_u32(vsetq_lane_u32::<0>(i as u32, base));
    }
    if ROUND_KEYS == 15 {
        encrypt_blocks_inline!(rk, &mut blocks);
    } else {
        let mut four = [blocks[0], blocks[1], blocks[2], blocks[3]];
        encrypt_blocks_inline!(rk, &mut four);
        blocks[..4].copy_from_slice(&four);
        four.zeroize();
    }
    let keys = [
        low_halves(blocks[0], blocks[1]),
        low_halves(blocks[2], blocks[3]),
        low_halves(blocks[4], blocks[5]),
    ];
    blocks.zeroize();
    keys
}

/// The per-nonce keys ([`derive_key_blocks`]): the authentication key and
/// the expanded encryption key.
#[inline]
#[target_feature(enable = "neon,aes")]
fn derive_keys<const ROUND_KEYS: usize>(
    rk: &[uint8x16_t; ROUND_KEYS],
    nonce: uint8x16_t,
) -> (uint8x16_t, [uint8x16_t; ROUND_KEYS]) {
    let [auth, enc0, enc1] = derive_key_blocks(rk, nonce);
    (auth, expand_regs::<ROUND_KEYS>(enc0, enc1))
}

/// `a[:8] || b[:8]`: the low halves of two blocks, side by side.
#[inline]
#[target_feature(enable = "neon,aes")]
fn low_halves(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    vreinterpretq_u8_u64(vzip1q_u64(vreinterpretq_u64_u8(a), vreinterpretq_u64_u8(b)))
}

/// RFC 8452 §4: "XOR the first twelve bytes of S_s with the nonce and clear
/// the most significant bit of the last byte. Encrypt the result with AES
/// using the message-encryption key to produce the tag."
#[inline]
#[target_feature(enable = "neon,aes")]
fn compute_tag<const ROUND_KEYS: usize>(
    enc: &[uint8x16_t; ROUND_KEYS],
    s: uint8x16_t,
    nonce: uint8x16_t,
) -> uint8x16_t {
    let mut t = [tag_input(s, nonce)];
    encrypt_blocks_inline!(enc, &mut t);
    t[0]
}

/// The block [`compute_tag`] encrypts: S_s XOR the nonce, top bit cleared.
#[inline]
#[target_feature(enable = "neon,aes")]
fn tag_input(s: uint8x16_t, nonce: uint8x16_t) -> uint8x16_t {
    let clear_top_bit = vsetq_lane_u8::<15>(0x7f, vdupq_n_u8(0xff));
    vandq_u8(veorq_u8(s, nonce), clear_top_bit)
}

/// RFC 8452 §4: "the initial counter block is the tag with the most
/// significant bit of the last byte set to one." The counter is then the first
/// 32 bits, little-endian, wrapping (`ctr.rs`, GCM-SIV convention).
#[inline]
#[target_feature(enable = "neon,aes")]
fn initial_counter(tag: uint8x16_t) -> uint8x16_t {
    vorrq_u8(tag, vsetq_lane_u8::<15>(0x80, zero()))
}

/// AES-GCM-SIV encryption; see the module contract. Returns the tag.
#[inline(never)]
#[target_feature(enable = "neon,aes")]
pub(crate) fn seal<const ROUND_KEYS: usize>(
    _token: Armv8,
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    if is_one_group(aad, data) {
        return one_group::<ROUND_KEYS, true>(keys, nonce, aad, data, 0, len_block);
    }
    let s = state_new(keys, nonce, aad);
    // First pass: RFC 8452 §4, "S_s = POLYVAL(message-authentication-key,
    // padded AAD, padded plaintext, length block)", then the tag.
    let acc = hash_input::<false>(s.acc, data, 0, &s.h);
    let s_s = fold_blocks_inline!(acc, &[from_u128(len_block)], &s.h);
    let tag = compute_tag(&s.enc, s_s, s.nonce);
    // Second pass: counter mode from the tag.
    let mut ctr = initial_counter(tag);
    let bulk = ctr_only::<ROUND_KEYS, false>(&s.enc, &mut ctr, data, 0);
    let rest = data.len() - bulk;
    if rest > 0 {
        by_tail_size!(rest, seal_tail::<ROUND_KEYS>(&s.enc, ctr, data, bulk));
    }
    store(tag)
}

/// AES-GCM-SIV decryption; see the module contract. Returns the tag computed
/// over the plaintext it wrote, which is unauthenticated until the caller
/// compares that tag with `tag`.
#[inline(never)]
#[target_feature(enable = "neon,aes")]
pub(crate) fn open<const ROUND_KEYS: usize>(
    _token: Armv8,
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    if is_one_group(aad, data) {
        return one_group::<ROUND_KEYS, false>(keys, nonce, aad, data, tag, len_block);
    }
    let s = state_new(keys, nonce, aad);
    let mut ctr = initial_counter(from_u128(tag));
    let (acc, bulk) = if crate::cpu::aarch64::has_eor3() {
        ctr_hash_output::<ROUND_KEYS, false, true>(&s.enc, &s.h, &mut ctr, s.acc, data, 0)
    } else {
        ctr_hash_output::<ROUND_KEYS, false, false>(&s.enc, &s.h, &mut ctr, s.acc, data, 0)
    };
    let len = from_u128(len_block);
    let s_s = by_tail_size!(
        data.len() - bulk,
        open_tail::<ROUND_KEYS>(&s.enc, &s.h, ctr, acc, data, bulk, len)
    );
    store(compute_tag(&s.enc, s_s, s.nonce))
}

/// Whether [`one_group`] takes the message: an AAD of at most one block
/// and a text of at most one group, eight blocks (the lengths are public).
#[inline]
#[target_feature(enable = "neon,aes")]
fn is_one_group(aad: &[u8], data: &InOut<'_>) -> bool {
    aad.len() <= 16 && data.len() <= GROUP
}

/// GCM-SIV of a message [`is_one_group`] takes (seal if `SEAL`, else
/// open with the received `tag`): [`one_group_sized`] with as many blocks
/// as the text fills (`backend::by_block_count`).
#[inline]
#[target_feature(enable = "neon,aes")]
fn one_group<const ROUND_KEYS: usize, const SEAL: bool>(
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    crate::backend::by_block_count!(
        data.len(),
        one_group_sized::<ROUND_KEYS, SEAL>(keys, nonce, aad, data, tag, len_block)
    )
}

/// RFC 8452 §4 for a text of `NB` blocks (`16·(NB − 1) < len ≤ 16·NB`)
/// and an AAD of at most 16 bytes, a function per size, as on x86_64
/// (`x86_64/aesni/siv.rs`: `one_group_batch`, `one_group_blocks`, which
/// say why each step is where it is): the whole blocks loaded and stored
/// in place, the last one (whole or not) and the AAD through 16-byte
/// stack buffers (the text's is wiped); the per-nonce keys; H^1..H^(NB+1)
/// beside the schedule; seal's tag or open's keystream riding the
/// schedule; S_s as one sum of products ([`polyval_blocks`]). Returns the
/// tag (seal: the one to send; open: the one computed over the
/// plaintext, for the caller to compare).
#[inline(never)]
#[target_feature(enable = "neon,aes")]
fn one_group_sized<const ROUND_KEYS: usize, const SEAL: bool, const NB: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    let len = data.len();
    assert!(len.div_ceil(16) == NB && aad.len() <= 16);
    let last = 16 * NB.saturating_sub(1);
    let mut input = [zero(); NB];
    let mut last_bytes = [0u8; 16];
    for (i, x) in input.iter_mut().enumerate() {
        *x = if 16 * i < last {
            load(data.input::<16>(16 * i))
        } else {
            data.read_tail(last, &mut last_bytes);
            load(&last_bytes)
        };
    }
    let aad_block = (!aad.is_empty()).then(|| load(&padded_block(aad)));
    let nonce = from_u128(nonce);
    let [auth, enc0, enc1] = derive_key_blocks(&load_round_keys(keys), nonce);
    let mut h = powers_upto(auth, (NB + 1).min(8));
    let lengths = from_u128(len_block);
    let (tag, output) = if SEAL {
        let s_s = polyval_blocks::<true, NB>(aad_block, &input, lengths, &h);
        let mut t = [tag_input(s_s, nonce)];
        let mut enc = expand_regs_riding::<ROUND_KEYS, 1>(enc0, enc1, &mut t);
        let mut ctr = initial_counter(t[0]);
        let mut out: [uint8x16_t; NB] = counter_blocks::<false, NB>(&mut ctr);
        encrypt_blocks_inline!(&enc, &mut out);
        for (o, x) in out.iter_mut().zip(&input) {
            *o = veorq_u8(*o, *x);
        }
        enc.zeroize();
        (t[0], out)
    } else {
        let mut ctr = initial_counter(from_u128(tag));
        let mut out: [uint8x16_t; NB] = counter_blocks::<false, NB>(&mut ctr);
        let mut enc = expand_regs_riding::<ROUND_KEYS, NB>(enc0, enc1, &mut out);
        for (o, x) in out.iter_mut().zip(&input) {
            *o = veorq_u8(*o, *x);
        }
        // POLYVAL takes the plaintext's `len` bytes, zero-padded.
        if let Some(last_block) = out.last_mut() {
            *last_block = vandq_u8(*last_block, first_bytes_mask(len - last));
        }
        let s_s = polyval_blocks::<false, NB>(aad_block, &out, lengths, &h);
        let mut t = [tag_input(s_s, nonce)];
        encrypt_blocks_inline!(&enc, &mut t);
        enc.zeroize();
        (t[0], out)
    };
    // Only the powers computed hold key material; the other slots are
    // still zero.
    h[..(NB + 1).min(8)].iter_mut().for_each(Zeroize::zeroize);
    // All loads are done before the first store (in place, the output is
    // the input).
    for (i, y) in output.iter().enumerate() {
        if 16 * i < last {
            *data.output::<16>(16 * i) = store(*y);
        } else {
            last_bytes = store(*y);
            data.write_tail(last, &last_bytes, len - last);
        }
    }
    wipe(&mut last_bytes);
    store(tag)
}

/// POLYVAL from zero of the `NB + 2` blocks `first`, `text` and `last`
/// (`NB + 1` without `first`), with `h` = H^1..H^(NB+1) (at most H^8),
/// as x86_64's `siv::polyval_blocks` (which says why): `first` times H
/// beside the powers, joining the first text block; one sum of products
/// and one reduction; for eight text blocks, seal (`TEXT_FIRST`) takes a
/// second Horner step and open H^9.
#[inline]
#[target_feature(enable = "neon,aes")]
fn polyval_blocks<const TEXT_FIRST: bool, const NB: usize>(
    first: Option<uint8x16_t>,
    text: &[uint8x16_t; NB],
    last: uint8x16_t,
    h: &[uint8x16_t; 8],
) -> uint8x16_t {
    let first_h = match first {
        Some(a) => mul(a, h[0]),
        None => zero(),
    };
    let Some((t0, others)) = text.split_first() else {
        // No text: S_s = first·H^2 + last·H = (first·H + last)·H.
        return mul(veorq_u8(last, first_h), h[0]);
    };
    // `head` is text block `j0` plus the Horner steps before it; it takes
    // H^(NB + 1 − j0), and text block j > j0 takes H^(NB + 1 − j).
    let mut head = veorq_u8(*t0, first_h);
    let (j0, top) = match (NB, others.first()) {
        (8, Some(t1)) if TEXT_FIRST => {
            head = veorq_u8(*t1, mul(head, h[0]));
            (1, h[7])
        }
        (8, _) => (0, mul(h[7], h[0])),
        _ => (0, h[NB.min(7)]),
    };
    let mut w = unreduced_zero();
    mul_acc(&mut w, last, h[0]);
    for j in (j0 + 1..NB).rev() {
        mul_acc(&mut w, text[j], h[NB - j]);
    }
    mul_acc(&mut w, head, top);
    reduce::<false>(w)
}

/// A mask of `min(n, 16)` 0xff bytes followed by zeros, by comparison
/// with the byte positions (no table, so no load at an index).
#[inline]
#[target_feature(enable = "neon,aes")]
fn first_bytes_mask(n: usize) -> uint8x16_t {
    const POSITIONS: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    // SAFETY: `POSITIONS` is 16 readable bytes.
    let positions = unsafe { vld1q_u8(POSITIONS.as_ptr()) };
    vcltq_u8(positions, vdupq_n_u8(n.min(16) as u8))
}

/// Derives the per-message keys and powers and hashes the AAD, the first
/// part of S_s.
#[inline]
#[target_feature(enable = "neon,aes")]
fn state_new<const ROUND_KEYS: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
) -> State<ROUND_KEYS> {
    let rk = load_round_keys(keys);
    let nonce = from_u128(nonce);
    let (auth, enc) = derive_keys(&rk, nonce);
    let h = powers(auth);
    let acc = hash_padded::<false>(zero(), aad, &h);
    State { enc, h, nonce, acc }
}

/// The last 1..127 bytes of a seal.
#[inline]
#[target_feature(enable = "neon,aes")]
fn seal_tail<const ROUND_KEYS: usize, const M: usize, const B: usize>(
    enc: &[uint8x16_t; ROUND_KEYS],
    ctr: uint8x16_t,
    data: &mut InOut<'_>,
    offset: usize,
) {
    let z = zero();
    tail::<ROUND_KEYS, SivSeal, M, B>(enc, ctr, data, offset, z, z, &[z; 8], z);
}

/// The last 0..127 bytes of an open, then POLYVAL of their plaintext and the
/// length block: returns S_s.
#[inline]
#[target_feature(enable = "neon,aes")]
fn open_tail<const ROUND_KEYS: usize, const M: usize, const B: usize>(
    enc: &[uint8x16_t; ROUND_KEYS],
    h: &[uint8x16_t; 8],
    ctr: uint8x16_t,
    acc: uint8x16_t,
    data: &mut InOut<'_>,
    offset: usize,
    len: uint8x16_t,
) -> uint8x16_t {
    let z = zero();
    tail::<ROUND_KEYS, SivOpen, M, B>(enc, ctr, data, offset, z, acc, h, len).0
}

/// The per-message state of one GCM-SIV call: the message-encryption round
/// keys, the powers of the message-authentication key, the nonce and the
/// POLYVAL accumulator of the AAD. The keys are zeroized when it drops.
struct State<const ROUND_KEYS: usize> {
    enc: [uint8x16_t; ROUND_KEYS],
    h: [uint8x16_t; 8],
    nonce: uint8x16_t,
    acc: uint8x16_t,
}

impl<const ROUND_KEYS: usize> Drop for State<ROUND_KEYS> {
    fn drop(&mut self) {
        self.enc.zeroize();
        self.h.zeroize();
    }
}
