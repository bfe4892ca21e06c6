//! AES-GCM-SIV (RFC 8452) on AES-NI + PCLMULQDQ.
//!
//! Contract of [`seal`] and [`open`]: `keys` are the round keys of the
//! key-generating key; `nonce` is the 12-byte nonce as `u128::from_le_bytes` of
//! the nonce followed by four zero bytes; `len_block` is RFC 8452's length block
//! (the AAD and plaintext lengths in bits, little-endian 64-bit each). `data` is
//! transformed in place or into a disjoint output of the same length. Both
//! return the tag computed over the plaintext — seal over its input, open over
//! its output — which open's caller compares with the received one. The caller
//! has checked the RFC 8452 §6 lengths.
//!
//! Seal runs two passes, as the construction requires (the tag is the initial
//! counter): POLYVAL over the plaintext, eight blocks per reduction, then CTR,
//! eight blocks per iteration. Open runs one: CTR of each group interleaved with
//! POLYVAL of the plaintext of the group before. The per-message keys live in
//! registers and stack arrays that are zeroized before returning.

use crate::backend::tail_mode::{SivOpen, SivSeal};
use core::arch::x86_64::*;

use zeroize::Zeroize;

use super::ctr::{
    GROUP, by_tail_size, counter_blocks, ctr_hash_output, ctr_only, hash_input, hash_padded, tail,
};
use crate::backend::x86_64::aes::{
    encrypt_blocks, encrypt_blocks_in, expand_regs, expand_regs_riding, load_round_keys,
};
use crate::backend::x86_64::clmul::{
    fold_blocks, mul, mul_acc, powers, powers_upto, reduce, unreduced_zero,
};
use crate::backend::x86_64::{from_u128, load, store};
use crate::block::{Block, RoundKeys, wipe};
use crate::cpu::AesNiClmul;
use crate::inout::{InOut, padded_block};

/// The blocks [`key_blocks_in`] encrypts under the key-generating key:
/// `little_endian_uint32(i) || nonce` for i = 0..6 (AES-128 uses the
/// first four).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn derivation_blocks(nonce: __m128i) -> [__m128i; 6] {
    let base = _mm_slli_si128::<4>(nonce);
    let mut blocks = [base; 6];
    for (i, b) in blocks.iter_mut().enumerate() {
        *b = _mm_or_si128(base, _mm_set_epi32(0, 0, 0, i as i32));
    }
    blocks
}

/// The keys from the encrypted [`derivation_blocks`], `[:8] || [:8]`: the
/// low halves of two blocks side by side. Returns the authentication key
/// and the encryption key's two halves (the second is AES-256's).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn derived_keys(blocks: &[__m128i; 6]) -> [__m128i; 3] {
    [
        _mm_unpacklo_epi64(blocks[0], blocks[1]),
        _mm_unpacklo_epi64(blocks[2], blocks[3]),
        _mm_unpacklo_epi64(blocks[4], blocks[5]),
    ]
}

/// RFC 8452 §4, per-nonce key derivation: "message_authentication_key =
/// AES(key_generating_key, little_endian_uint32(0) || nonce)\[:8\] ||
/// AES(key_generating_key, little_endian_uint32(1) || nonce)\[:8\]" and the
/// message-encryption key from the first 8 bytes of the blocks for counters
/// 2 and 3 (and, "if the key-generating key is 256 bits", 4 and 5), all
/// blocks in one batch ([`key_blocks_in`]). Returns the authentication key
/// and the expanded encryption key.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn derive_keys<const ROUND_KEYS: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: __m128i,
) -> (__m128i, [__m128i; ROUND_KEYS]) {
    let mut blocks = key_blocks_in::<false, ROUND_KEYS>(keys, nonce);
    let [auth, enc0, enc1] = derived_keys(&blocks);
    blocks.zeroize();
    (auth, expand_regs::<ROUND_KEYS>(enc0, enc1))
}

/// RFC 8452 §4: "XOR the first twelve bytes of S_s with the nonce and clear
/// the most significant bit of the last byte. Encrypt the result with AES
/// using the message-encryption key to produce the tag."
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn compute_tag<const ROUND_KEYS: usize>(
    enc: &[__m128i; ROUND_KEYS],
    s: __m128i,
    nonce: __m128i,
) -> __m128i {
    let mut t = [tag_input(s, nonce)];
    encrypt_blocks(enc, &mut t);
    t[0]
}

/// The block [`compute_tag`] encrypts: S_s XOR the nonce, top bit cleared.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn tag_input(s: __m128i, nonce: __m128i) -> __m128i {
    let clear_top_bit = _mm_set_epi32(0x7fff_ffff, -1, -1, -1);
    _mm_and_si128(_mm_xor_si128(s, nonce), clear_top_bit)
}

/// RFC 8452 §4: "the initial counter block is the tag with the most
/// significant bit of the last byte set to one." The counter is then the first
/// 32 bits, little-endian, wrapping (`ctr.rs`, GCM-SIV convention).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn initial_counter(tag: __m128i) -> __m128i {
    _mm_or_si128(tag, _mm_set_epi32(i32::MIN, 0, 0, 0))
}

/// [`initial_counter`] of a received tag (a block as `u128`).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn initial_counter_from(tag: u128) -> __m128i {
    initial_counter(from_u128(tag))
}

/// AES-GCM-SIV encryption; see the module contract. Returns the tag.
#[inline(never)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn seal<const ROUND_KEYS: usize>(
    _token: AesNiClmul,
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    if is_one_group(aad, data) {
        return one_group::<ROUND_KEYS, true>(keys, nonce, aad, data, 0, len_block);
    }
    let mut s = state_new(keys, nonce, aad, data.len());
    let tag = hash_from(&mut s, data, 0, len_block);
    seal_from(&mut s, data, 0);
    store(tag)
}

/// AES-GCM-SIV decryption; see the module contract. Returns the tag computed
/// over the plaintext it wrote, which is unauthenticated until the caller
/// compares that tag with `tag`.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn open<const ROUND_KEYS: usize>(
    _token: AesNiClmul,
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
    let mut s = state_new(keys, nonce, aad, data.len());
    s.ctr = initial_counter_from(tag);
    store(open_from(&mut s, data, 0, len_block))
}

/// Whether [`one_group`] takes the message: an AAD of at most one block
/// and a text of at most one group, eight blocks (the lengths are public).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn is_one_group(aad: &[u8], data: &InOut<'_>) -> bool {
    aad.len() <= 16 && data.len() <= GROUP
}

/// GCM-SIV of a message [`is_one_group`] takes (seal if `SEAL`, else
/// open with the received `tag`): [`one_group_batch`] with as many blocks
/// as the text fills (`backend::by_block_count`).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn one_group<const ROUND_KEYS: usize, const SEAL: bool>(
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

/// [`one_group_batch`] out of line, a function per size: with sixteen
/// registers, the sizes inlined into one function shared one frame and
/// spilled the round keys for all of them.
#[inline(never)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn one_group_sized<const ROUND_KEYS: usize, const SEAL: bool, const NB: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    one_group_batch::<false, ROUND_KEYS, SEAL, NB>(keys, nonce, aad, data, tag, len_block)
}

/// [`one_group_blocks`] for a text of `NB` blocks (`16·(NB − 1) < len ≤
/// 16·NB`), the whole blocks loaded and stored in place, the last one
/// (whole or not) and the AAD through 16-byte stack buffers; the text's
/// is wiped. The AES-NI tier's (`VEX` false) and the AVX2 tier's (`VEX`
/// true; AVX-512 has byte-masked loads and stores: `vaes/avx512.rs`).
/// Returns the tag as [`one_group_blocks`] does.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn one_group_batch<
    const VEX: bool,
    const ROUND_KEYS: usize,
    const SEAL: bool,
    const NB: usize,
>(
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
    let mut input = [_mm_setzero_si128(); NB];
    let mut last_bytes = [0u8; 16];
    for (i, x) in input.iter_mut().enumerate() {
        *x = if 16 * i < last {
            load(data.input::<16>(16 * i))
        } else {
            data.read_tail(last, &mut last_bytes);
            load(&last_bytes)
        };
    }
    let (tag, output) = one_group_blocks::<VEX, ROUND_KEYS, SEAL, NB>(
        keys,
        nonce,
        (!aad.is_empty()).then(|| load(&padded_block(aad))),
        &input,
        len,
        tag,
        len_block,
    );
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

/// [`derivation_blocks`] encrypted under the key-generating key `keys`
/// in one batch (AES-128's key takes the first four; the last two stay
/// as they are, unused), for the short paths: `VEX` as in
/// [`one_group_blocks`]. The caller takes the keys with
/// [`derived_keys`] and wipes the blocks.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn key_blocks_in<const VEX: bool, const ROUND_KEYS: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: __m128i,
) -> [__m128i; 6] {
    let mut blocks = derivation_blocks(nonce);
    let kgk = load_round_keys(keys);
    if ROUND_KEYS == 15 {
        encrypt_blocks_in::<VEX, _, _>(&kgk, &mut blocks);
    } else {
        let mut four = [blocks[0], blocks[1], blocks[2], blocks[3]];
        encrypt_blocks_in::<VEX, _, _>(&kgk, &mut four);
        blocks[..4].copy_from_slice(&four);
        four.zeroize();
    }
    blocks
}

/// RFC 8452 §4 for a message [`is_one_group`] takes, on blocks in
/// registers: every x86 tier's short path ([`one_group_batch`] on the
/// AES-NI and AVX2 tiers, the masked leaf of `vaes/avx512.rs`), each
/// bringing the text in and taking the result out its own way. `input`
/// is the text in `NB` blocks
/// (`16·(NB − 1) < len ≤ 16·NB`), zero past its `len` bytes; `aad_block`
/// the AAD (at most 16 bytes) zero-padded, `None` if empty. Returns the
/// tag (seal: the one to send; open: the one computed over the
/// plaintext, for the caller to compare) and the output blocks (past
/// `len`, seal's hold keystream, open's zeros).
///
/// The per-nonce key blocks under the key-generating key; then, beside
/// the encryption key's schedule, H^1..H^(NB+1) from the authentication
/// key and S_s = POLYVAL(AAD block, text, length block) as one sum of
/// products ([`polyval_blocks`]). Seal: the tag rides the schedule
/// (`aes::ride`), then the keystream from it. Open: the keystream rides
/// the schedule (the received tag is the counter), then the plaintext's
/// S_s and the tag. The arrays of key
/// material (the derivation blocks, the powers, the round keys) are wiped
/// before returning, as everywhere (docs/security.md; what it costs:
/// docs/design.md, "One sum of products"). `VEX`: the caller is a wide
/// tier's, compiled with AVX (`aes::encrypt_blocks_in`).
#[inline]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn one_group_blocks<
    const VEX: bool,
    const ROUND_KEYS: usize,
    const SEAL: bool,
    const NB: usize,
>(
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad_block: Option<__m128i>,
    input: &[__m128i; NB],
    len: usize,
    tag: u128,
    len_block: u128,
) -> (__m128i, [__m128i; NB]) {
    const { assert!(NB <= 8) };
    let nonce = from_u128(nonce);
    let mut blocks = key_blocks_in::<VEX, ROUND_KEYS>(keys, nonce);
    let [auth, enc0, enc1] = derived_keys(&blocks);
    let mut h = powers_upto(auth, (NB + 1).min(8));
    let lengths = from_u128(len_block);
    let result = if SEAL {
        let s_s = polyval_blocks::<true, NB>(aad_block, input, lengths, &h);
        let mut t = [tag_input(s_s, nonce)];
        let mut enc = expand_regs_riding::<ROUND_KEYS, 1>(enc0, enc1, &mut t);
        let mut ctr = initial_counter(t[0]);
        let mut out: [__m128i; NB] = counter_blocks::<false, NB>(&mut ctr);
        encrypt_blocks_in::<VEX, _, _>(&enc, &mut out);
        for (o, x) in out.iter_mut().zip(input) {
            *o = _mm_xor_si128(*o, *x);
        }
        enc.zeroize();
        (t[0], out)
    } else {
        let mut ctr = initial_counter_from(tag);
        let mut out: [__m128i; NB] = counter_blocks::<false, NB>(&mut ctr);
        let mut enc = expand_regs_riding::<ROUND_KEYS, NB>(enc0, enc1, &mut out);
        for (o, x) in out.iter_mut().zip(input) {
            *o = _mm_xor_si128(*o, *x);
        }
        // POLYVAL takes the plaintext's `len` bytes, zero-padded.
        if let Some(last) = out.last_mut() {
            *last = _mm_and_si128(*last, first_bytes_mask(len - 16 * NB.saturating_sub(1)));
        }
        let s_s = polyval_blocks::<false, NB>(aad_block, &out, lengths, &h);
        let mut t = [tag_input(s_s, nonce)];
        encrypt_blocks_in::<VEX, _, _>(&enc, &mut t);
        enc.zeroize();
        (t[0], out)
    };
    // Only the powers computed hold key material; the other slots are
    // still zero.
    h[..(NB + 1).min(8)].iter_mut().for_each(Zeroize::zeroize);
    blocks.zeroize();
    result
}

/// POLYVAL from zero of the `NB + 2` blocks `first`, `text` and `last`
/// (`NB + 1` without `first`, which changes no power: a leading zero
/// block adds nothing to the sum), with `h` = H^1..H^(NB+1) (at most
/// H^8). `first` (the AAD block) is multiplied by H on its own, beside
/// the powers, and the product joins the first text block (Horner's rule
/// for one step), so the powers stop one short of the block count: one
/// multiply less on the chain for one and three blocks of text. The rest
/// is one sum of products and one reduction. Eight text blocks need
/// H^9: `TEXT_FIRST` (seal, whose text is there from the start) takes
/// one more Horner step instead, the first text block times H beside the
/// powers; open, whose plaintext comes last, computes H^9 while its
/// keystream is still under way.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn polyval_blocks<const TEXT_FIRST: bool, const NB: usize>(
    first: Option<__m128i>,
    text: &[__m128i; NB],
    last: __m128i,
    h: &[__m128i; 8],
) -> __m128i {
    let first_h = match first {
        Some(a) => mul(a, h[0]),
        None => _mm_setzero_si128(),
    };
    let Some((t0, others)) = text.split_first() else {
        // No text: S_s = first·H^2 + last·H = (first·H + last)·H.
        return mul(_mm_xor_si128(last, first_h), h[0]);
    };
    // `head` is text block `j0` plus the Horner steps before it; it takes
    // H^(NB + 1 − j0), and text block j > j0 takes H^(NB + 1 − j).
    let mut head = _mm_xor_si128(*t0, first_h);
    let (j0, top) = match (NB, others.first()) {
        (8, Some(t1)) if TEXT_FIRST => {
            head = _mm_xor_si128(*t1, mul(head, h[0]));
            (1, h[7])
        }
        (8, _) => (0, mul(h[7], h[0])),
        _ => (0, h[NB.min(7)]),
    };
    let mut w = unreduced_zero();
    // The last block first: the block that waits on `first` is multiplied
    // last.
    mul_acc(&mut w, last, h[0]);
    for j in (j0 + 1..NB).rev() {
        mul_acc(&mut w, text[j], h[NB - j]);
    }
    mul_acc(&mut w, head, top);
    reduce(w)
}

/// A mask of `min(n, 16)` 0xff bytes followed by zeros, by comparison
/// with the byte positions (no table, so no load at an index).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn first_bytes_mask(n: usize) -> __m128i {
    let positions = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    _mm_cmpgt_epi8(_mm_set1_epi8(n.min(16) as i8), positions)
}

/// Derives the per-message keys and powers and hashes the AAD. RFC 8452 §4:
/// "S_s = POLYVAL(message-authentication-key, padded AAD, padded plaintext,
/// length block)"; this is its first part.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn state_new<const ROUND_KEYS: usize>(
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    text_len: usize,
) -> State<ROUND_KEYS> {
    let nonce = from_u128(nonce);
    let (auth, enc) = derive_keys(keys, nonce);
    // No fold of this message covers more blocks than the AAD's or the
    // text's, plus the length block (capped at eight): a short message
    // skips the powers it would not use, which are on its critical path.
    let needed = (aad.len().div_ceil(16).max(text_len.div_ceil(16)) + 1).min(8);
    let h = if needed == 8 {
        powers(auth)
    } else {
        powers_upto(auth, needed)
    };
    let acc = hash_padded::<false>(_mm_setzero_si128(), aad, &h);
    State {
        enc,
        h,
        nonce,
        ctr: _mm_setzero_si128(),
        acc,
    }
}

/// Seal's first pass from `start`: POLYVAL over the rest of the plaintext
/// and the length block, then the tag. Sets the initial counter and returns
/// the tag.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn hash_from<const ROUND_KEYS: usize>(
    s: &mut State<ROUND_KEYS>,
    data: &InOut<'_>,
    start: usize,
    len_block: u128,
) -> __m128i {
    let acc = hash_input::<false>(s.acc, data, start, &s.h);
    let s_s = fold_blocks(acc, &[from_u128(len_block)], &s.h);
    let tag = compute_tag(&s.enc, s_s, s.nonce);
    s.ctr = initial_counter(tag);
    tag
}

/// Seal's second pass from `start`: counter mode to the end.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn seal_from<const ROUND_KEYS: usize>(
    s: &mut State<ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
) {
    let bulk = ctr_only::<ROUND_KEYS, false>(&s.enc, &mut s.ctr, data, start);
    let rest = data.len() - bulk;
    if rest > 0 {
        by_tail_size!(rest, seal_tail::<ROUND_KEYS>(&s.enc, s.ctr, data, bulk));
    }
}

/// Open from `start` to the end: counter mode stitched with POLYVAL of the
/// plaintext, the length block, and the tag it computes.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn open_from<const ROUND_KEYS: usize>(
    s: &mut State<ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> __m128i {
    let (acc, bulk) =
        ctr_hash_output::<ROUND_KEYS, false>(&s.enc, &s.h, &mut s.ctr, s.acc, data, start);
    let len = from_u128(len_block);
    let s_s = by_tail_size!(
        data.len() - bulk,
        open_tail::<ROUND_KEYS>(&s.enc, &s.h, s.ctr, acc, data, bulk, len)
    );
    compute_tag(&s.enc, s_s, s.nonce)
}

/// The last 1..127 bytes of a seal.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn seal_tail<const ROUND_KEYS: usize, const M: usize, const B: usize>(
    enc: &[__m128i; ROUND_KEYS],
    ctr: __m128i,
    data: &mut InOut<'_>,
    offset: usize,
) {
    let z = _mm_setzero_si128();
    tail::<ROUND_KEYS, SivSeal, M, B>(enc, ctr, data, offset, z, z, &[z; 8], z);
}

/// The last 0..127 bytes of an open, then POLYVAL of their plaintext and the
/// length block: returns S_s.
#[inline]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn open_tail<const ROUND_KEYS: usize, const M: usize, const B: usize>(
    enc: &[__m128i; ROUND_KEYS],
    h: &[__m128i; 8],
    ctr: __m128i,
    acc: __m128i,
    data: &mut InOut<'_>,
    offset: usize,
    len: __m128i,
) -> __m128i {
    let z = _mm_setzero_si128();
    tail::<ROUND_KEYS, SivOpen, M, B>(enc, ctr, data, offset, z, acc, h, len).0
}

/// The per-message state of one GCM-SIV call: the message-encryption round
/// keys, the powers of the message-authentication key, the nonce, the counter
/// and the POLYVAL accumulator. The keys are zeroized when it drops.
pub(crate) struct State<const ROUND_KEYS: usize> {
    pub(crate) enc: [__m128i; ROUND_KEYS],
    pub(crate) h: [__m128i; 8],
    pub(crate) nonce: __m128i,
    pub(crate) ctr: __m128i,
    pub(crate) acc: __m128i,
}

impl<const ROUND_KEYS: usize> Drop for State<ROUND_KEYS> {
    fn drop(&mut self) {
        self.enc.zeroize();
        self.h.zeroize();
    }
}
