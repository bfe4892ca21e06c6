//! AES-GCM on AES-NI + PCLMULQDQ, eight blocks per iteration.
//!
//! Contract of [`seal`] and [`open`]: `j0` is the pre-counter block; data blocks
//! use counters inc32(J0), inc32²(J0), … (the low 32 bits, big-endian, wrapping).
//! `data` is transformed in place or into a disjoint output of the same length;
//! each input byte is read once and each output byte written once. The return
//! value is the tag E(K, J0) ^ GHASH(H, A || C || `len_block`), computed over the
//! ciphertext in both directions. The caller has checked the SP 800-38D lengths.
//!
//! The loops are the shared engine's (`engine.rs`, through `ctr.rs`'s
//! wrappers) with GCM's conventions: seal hashes each group's output during
//! the next group's AES, open hashes each group's input during its own AES.
//! The last 0..127 bytes and E(K, J0) run in one final batch.

use crate::backend::tail_mode::Gcm;
use core::arch::x86_64::*;
use core::mem::MaybeUninit;

use super::ctr::{
    GROUP, by_tail_size, ctr_hash_input, ctr_hash_output, hash_padded, load_powers, tail,
};
use crate::backend::x86_64::aes::{expand_key_regs, load_round_keys};
use crate::backend::x86_64::clmul::{byte_reverse, mul_x, powers};
use crate::backend::x86_64::{from_u128, store, store_each};
use crate::block::{Block, HPowers, RoundKeys};
use crate::cpu::AesNiClmul;
use crate::inout::InOut;

/// Builds a GCM key's state where it will live: the round keys of `key`
/// into `round_keys`, and H = E(K, 0^128) with its powers H^1..H^8, in the
/// POLYVAL form GHASH uses here (see `clmul.rs`: H' =
/// mulX_POLYVAL(ByteReverse(H))), into `h_powers`. The zero block rides
/// the key schedule (`aes::ride`): H is ready a round after the last key.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn init_key<const ROUND_KEYS: usize, const KB: usize>(
    _token: AesNiClmul,
    key: &[u8; KB],
    round_keys: &mut MaybeUninit<RoundKeys<ROUND_KEYS>>,
    h_powers: &mut MaybeUninit<HPowers>,
) {
    let h = round_keys_and_h(key, round_keys);
    h_powers.write(HPowers(store_each(&powers(h))));
}

/// What every x86_64 tier's GCM key setup starts with: the round keys of
/// `key` into `round_keys`, and H = E(K, 0^128), which rides the schedule,
/// returned in the POLYVAL form. The wide tiers' `init_key` compile it
/// with their own features and then compute the powers their own way.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn round_keys_and_h<const ROUND_KEYS: usize, const KB: usize>(
    key: &[u8; KB],
    round_keys: &mut MaybeUninit<RoundKeys<ROUND_KEYS>>,
) -> __m128i {
    let mut h = [_mm_setzero_si128()];
    let rk = expand_key_regs::<ROUND_KEYS, KB, 1>(key, &mut h);
    round_keys.write(RoundKeys(store_each(&rk)));
    mul_x(byte_reverse(h[0]))
}

/// GCM encryption; see the module contract.
#[inline(never)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn seal<const ROUND_KEYS: usize>(
    _token: AesNiClmul,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    let mut s = state_new(keys, h_powers, j0, aad);
    seal_from(&mut s, data, 0, len_block)
}

/// GCM decryption; see the module contract. Returns the tag computed over the
/// ciphertext; the plaintext written is unauthenticated until the caller
/// compares it.
#[inline(never)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn open<const ROUND_KEYS: usize>(
    _token: AesNiClmul,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> u128 {
    let mut s = state_new(keys, h_powers, j0, aad);
    u128::from_le_bytes(open_from(&mut s, data, 0, len_block))
}

/// The first half of extending a GCM seal by one last partial block
/// (`backend::gcm_encrypt_tail`): `block[..n]` (1 ≤ `n` ≤ 16) is encrypted
/// in place with the counter block `ctr_block` and the rest of `block`
/// zeroed, and E(K, J0), the tag's mask, is returned for [`append_block`].
/// Nothing in it waits for the seal of the whole blocks, so the caller runs
/// it first and its two AES blocks overlap that seal.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn encrypt_tail<const ROUND_KEYS: usize>(
    _token: AesNiClmul,
    keys: &RoundKeys<ROUND_KEYS>,
    j0: u128,
    ctr_block: u128,
    block: &mut Block,
    n: usize,
) -> Block {
    use crate::backend::x86_64::aes::encrypt_blocks_and;
    use crate::backend::x86_64::load;
    let rk = load_round_keys(keys);
    let mut ks = [from_u128(ctr_block)];
    let mut e_j0 = from_u128(j0);
    encrypt_blocks_and(&rk, &mut ks, &mut e_j0);
    let kept: Block = core::array::from_fn(|i| if i < n { 0xff } else { 0 });
    *block = store(_mm_and_si128(
        _mm_xor_si128(load(block), ks[0]),
        load(&kept),
    ));
    store(e_j0)
}

/// The second half of extending a GCM seal by one last partial block
/// (`backend::gcm_append_block`): the tag of the message `head ‖ c[..n]`,
/// given `head_tag`, the tag [`seal`] returned for `head` alone (a whole
/// number of blocks, same key, J0 and AAD, length block
/// `lengths.head_len_block`), `e_j0` and the last block's ciphertext `c`
/// (zero past `n`) from [`encrypt_tail`]. Two multiplies, on every x86_64
/// tier.
///
/// GHASH is linear: with Y′ = `head_tag` ⊕ E(K, J0) = GHASH(A ‖ C′ ‖ L′),
/// GHASH(A ‖ C′ ‖ C ‖ L) = (Y′ ⊕ L ⊕ (L′ ⊕ C)·H)·H, which is the fold of
/// the two blocks L′ ⊕ C and Y′ ⊕ L.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn append_block(
    _token: AesNiClmul,
    h_powers: &HPowers,
    lengths: crate::backend::Extension,
    head_tag: &Block,
    e_j0: &Block,
    c: &Block,
) -> Block {
    use crate::backend::x86_64::clmul::fold_blocks;
    use crate::backend::x86_64::load;
    let h = load_powers(h_powers);
    let e_j0 = load(e_j0);
    let y_head = _mm_xor_si128(load(head_tag), e_j0);
    let x = [
        _mm_xor_si128(
            byte_reverse(from_u128(lengths.head_len_block)),
            byte_reverse(load(c)),
        ),
        _mm_xor_si128(
            byte_reverse(y_head),
            byte_reverse(from_u128(lengths.len_block)),
        ),
    ];
    let acc = fold_blocks(_mm_setzero_si128(), &x, &h);
    store(_mm_xor_si128(byte_reverse(acc), e_j0))
}

/// [`seal`] if `SEAL`, else [`open`], the tag as a block: the wide tiers'
/// short messages.
#[inline]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn seal_or_open<const ROUND_KEYS: usize, const SEAL: bool>(
    token: AesNiClmul,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    if SEAL {
        seal(token, keys, h_powers, j0, aad, data, len_block)
    } else {
        open(token, keys, h_powers, j0, aad, data, len_block).to_le_bytes()
    }
}

/// Seals `data` from `start` (a multiple of `GROUP`) to the end and returns
/// the tag. The wide tiers call it for what is left after their loops.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn seal_from<const ROUND_KEYS: usize>(
    s: &mut State<'_, ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> Block {
    let (acc, bulk) = groups::<ROUND_KEYS, true>(s, data, start);
    by_tail_size!(
        data.len() - bulk,
        finish::<ROUND_KEYS, true>(s, acc, data, bulk, len_block)
    )
}

/// Opens `data` from `start` (a multiple of `GROUP`) to the end and returns
/// the computed tag.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn open_from<const ROUND_KEYS: usize>(
    s: &mut State<'_, ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> Block {
    let (acc, bulk) = groups::<ROUND_KEYS, false>(s, data, start);
    by_tail_size!(
        data.len() - bulk,
        finish::<ROUND_KEYS, false>(s, acc, data, bulk, len_block)
    )
}

/// The whole groups from `start` (seal hashes their output, open their
/// input): the hash so far and where the groups end. The key state is
/// loaded only when there is a group (see [`finish`]).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn groups<const ROUND_KEYS: usize, const SEAL: bool>(
    s: &mut State<'_, ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
) -> (__m128i, usize) {
    if data.len() - start < GROUP {
        return (s.acc, start);
    }
    let (rk, h) = (load_round_keys(s.keys), load_powers(s.h_powers));
    if SEAL {
        ctr_hash_output::<ROUND_KEYS, true>(&rk, &h, &mut s.ctr, s.acc, data, start)
    } else {
        ctr_hash_input::<ROUND_KEYS, true>(&rk, &h, &mut s.ctr, s.acc, data, start)
    }
}

/// The last partial group (0..128 bytes from `offset`) with E(K, J0) in the
/// same AES batch, then the length block and the tag; `acc` is the hash
/// so far, the counter `s`'s. The key state is loaded here, where it is
/// used, not by the caller: loaded before the group loop, the round keys
/// are copied to the stack at the call's start (no registers are left for
/// them), which a message shorter than a group paid for and never used.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn finish<const ROUND_KEYS: usize, const SEAL: bool, const M: usize, const B: usize>(
    s: &State<'_, ROUND_KEYS>,
    acc: __m128i,
    data: &mut InOut<'_>,
    offset: usize,
    len_block: u128,
) -> Block {
    let (rk, h) = (load_round_keys(s.keys), load_powers(s.h_powers));
    // GHASH runs over the ciphertext: the output when sealing, the input when opening.
    let len = byte_reverse(from_u128(len_block));
    let (acc, tag_mask) = tail::<ROUND_KEYS, Gcm<SEAL>, M, B>(
        &rk,
        s.ctr,
        data,
        offset,
        byte_reverse(s.j0),
        acc,
        &h,
        len,
    );
    store(_mm_xor_si128(byte_reverse(acc), tag_mask))
}

/// The state of one GCM call after the AAD (see [`State`]).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn state_new<'k, const ROUND_KEYS: usize>(
    keys: &'k RoundKeys<ROUND_KEYS>,
    h_powers: &'k HPowers,
    j0: u128,
    aad: &[u8],
) -> State<'k, ROUND_KEYS> {
    // No AAD (most calls that carry none are short): no call, and no
    // copy of the powers for it.
    let acc = if aad.is_empty() {
        _mm_setzero_si128()
    } else {
        hash_padded::<true>(_mm_setzero_si128(), aad, &load_powers(h_powers))
    };
    let j0 = byte_reverse(from_u128(j0));
    let ctr = _mm_add_epi32(j0, _mm_set_epi32(0, 0, 0, 1));
    State {
        keys,
        h_powers,
        j0,
        ctr,
        acc,
    }
}

/// One GCM call after its AAD: the key state (each loop loads what it needs into
/// registers; copying it here would cost a 400-byte move), J0 and the next
/// counter (both byte-reversed), and the GHASH accumulator.
pub(crate) struct State<'k, const ROUND_KEYS: usize> {
    pub(crate) keys: &'k RoundKeys<ROUND_KEYS>,
    pub(crate) h_powers: &'k HPowers,
    pub(crate) j0: __m128i,
    pub(crate) ctr: __m128i,
    pub(crate) acc: __m128i,
}

#[cfg(test)]
mod tests {
    use core::arch::x86_64::__m128i;

    use super::super::ctr::counter_blocks;
    use super::*;
    use crate::backend::x86_64::clmul::mul;
    use crate::backend::x86_64::{aes, load};
    use crate::model;

    fn token() -> AesNiClmul {
        AesNiClmul::detect().expect("the kernel tests need AES-NI and PCLMULQDQ")
    }

    /// The round keys of `key` from the key-setup kernel `aes::expand`.
    fn expand<const ROUND_KEYS: usize, const KB: usize>(
        t: AesNiClmul,
        key: &[u8; KB],
    ) -> RoundKeys<ROUND_KEYS> {
        let mut rk = MaybeUninit::uninit();
        // SAFETY: `t` proves the tier's features are present.
        unsafe { aes::expand(t, key, &mut rk) };
        // SAFETY: `expand` wrote the round keys.
        unsafe { rk.assume_init() }
    }

    /// The GCM key state of `key` from `init_key`, after checking that its
    /// round keys are `aes::expand`'s.
    fn gcm_key<const ROUND_KEYS: usize, const KB: usize>(
        t: AesNiClmul,
        key: &[u8; KB],
    ) -> (RoundKeys<ROUND_KEYS>, HPowers) {
        let (mut rk, mut h) = (MaybeUninit::uninit(), MaybeUninit::uninit());
        // SAFETY: `t` proves the tier's features are present.
        unsafe { init_key(t, key, &mut rk, &mut h) };
        // SAFETY: `init_key` wrote both.
        let (rk, h): (RoundKeys<ROUND_KEYS>, HPowers) =
            unsafe { (rk.assume_init(), h.assume_init()) };
        assert_eq!(
            rk.0,
            expand::<ROUND_KEYS, KB>(t, key).0,
            "init_key and expand disagree"
        );
        (rk, h)
    }

    /// A deterministic byte pattern for test inputs.
    fn pattern(seed: u8, len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| {
                (i as u8)
                    .wrapping_mul(151)
                    .wrapping_add(seed)
                    .rotate_left(3)
            })
            .collect()
    }

    fn block(seed: u8) -> Block {
        pattern(seed, 16).try_into().unwrap()
    }

    #[test]
    fn field_multiply_matches_polyval_dot() {
        let _t = token();
        for seed in 0..64u8 {
            let (a, b) = (block(seed), block(seed.wrapping_mul(7).wrapping_add(1)));
            // SAFETY: `token()` proved the tier's features are present.
            let got = unsafe { store(mul(load(&a), load(&b))) };
            assert_eq!(got, model::polyval_dot(&a, &b), "seed {seed}");
        }
    }

    #[test]
    fn key_expansion_and_h_powers_match_the_model() {
        let t = token();
        let key256: [u8; 32] = pattern(9, 32).try_into().unwrap();
        let key128: [u8; 16] = pattern(3, 16).try_into().unwrap();
        let ((rk256, h256), (rk128, h128)) =
            (gcm_key::<15, 32>(t, &key256), gcm_key::<11, 16>(t, &key128));
        // Each schedule, run through the kernel's block encryption, must agree
        // with FIPS-197 as the model implements it, on several blocks.
        for seed in 0..8u8 {
            let input = block(seed);
            // SAFETY: `t` proves the tier's features are present.
            let (got256, got128) = unsafe {
                let mut b256 = [load(&input)];
                aes::encrypt_blocks(&aes::load_round_keys(&rk256), &mut b256);
                let mut b128 = [load(&input)];
                aes::encrypt_blocks(&aes::load_round_keys(&rk128), &mut b128);
                (store(b256[0]), store(b128[0]))
            };
            assert_eq!(got256, model::aes_encrypt_block(&key256, &input));
            assert_eq!(got128, model::aes_encrypt_block(&key128, &input));
        }
        for (key, powers) in [(&key256[..], h256), (&key128[..], h128)] {
            // H^1 is mulX_POLYVAL(ByteReverse(E(K, 0))) (RFC 8452 Appendix A) and
            // H^(i+1) = dot(H^i, H^1); compare with the model's field maths.
            let mut h = model::aes_encrypt_block(key, &[0u8; 16]);
            h.reverse();
            let h1 = model::mul_x_polyval(&h);
            let mut expected = h1;
            for (i, p) in powers.0.iter().enumerate() {
                assert_eq!(*p, expected, "H^{}", i + 1);
                expected = model::polyval_dot(&expected, &h1);
            }
        }
    }

    #[test]
    fn counter_batches_wrap_the_low_32_bits_only() {
        let _t = token();
        // Counters whose low byte is about to carry take the per-block path;
        // those far from it take the batched path. Both must be inc32.
        for start in [
            0u32,
            0xf7,
            0xf8,
            0xf9,
            0xff,
            0x1fe,
            0xffff_fff9,
            0xffff_fffe,
            0xffff_ffff,
        ] {
            let mut j = [0xabu8; 16];
            j[12..].copy_from_slice(&start.to_be_bytes());
            // SAFETY: `_t` proved the tier's features are present.
            let blocks: [__m128i; 8] = unsafe {
                let mut ctr = byte_reverse(load(&j));
                counter_blocks::<true, 8>(&mut ctr)
            };
            for (i, b) in blocks.iter().enumerate() {
                let mut expected = j;
                expected[12..].copy_from_slice(&start.wrapping_add(i as u32).to_be_bytes());
                // SAFETY: as above.
                assert_eq!(unsafe { store(*b) }, expected, "start {start:#x} block {i}");
            }
        }
    }
}
