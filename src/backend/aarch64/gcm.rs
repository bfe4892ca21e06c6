//! AES-GCM on ARMv8 AES + PMULL, eight blocks per iteration.
//!
//! Contract of [`seal`] and [`open`] (that of `x86_64/aesni/gcm.rs`): `j0` is
//! the pre-counter block; data blocks use counters inc32(J0), inc32²(J0), … (the
//! low 32 bits, big-endian, wrapping). `data` is transformed in place or into a
//! disjoint output of the same length; each input byte is read once and each
//! output byte written once. The return value is the tag E(K, J0) ^ GHASH(H, A
//! || C || `len_block`), computed over the ciphertext in both directions. The
//! caller has checked the SP 800-38D lengths.
//!
//! The loops are the shared engine of `ctr.rs` with GCM's conventions: seal
//! hashes each group's output during the next group's AES, open hashes each
//! group's input during its own AES. The last 0..127 bytes and E(K, J0) run in
//! one final batch.

use crate::backend::tail_mode::Gcm;
use core::arch::aarch64::*;
use core::mem::MaybeUninit;

use super::aes::{expand_key_regs, load_round_keys};
use super::clmul::{byte_reverse, mul_x, powers};
use super::ctr::{
    by_tail_size, counter_add, counter_register, ctr_hash_input, ctr_hash_output, hash_padded,
    load_powers, tail,
};
use super::{from_u128, store, store_each, zero};
use crate::block::{Block, HPowers, RoundKeys};
use crate::cpu::Armv8;
use crate::inout::InOut;

/// Builds a GCM key's state where it will live, as on x86_64: the round
/// keys of `key` into `round_keys`, and H = E(K, 0^128) with its powers
/// H^1..H^8 in the POLYVAL form GHASH uses here (see `x86_64/clmul.rs`:
/// H' = mulX_POLYVAL(ByteReverse(H))) into `h_powers`: the same bytes the
/// x86_64 tiers store. The zero block rides the key schedule (`aes::ride`).
#[target_feature(enable = "neon,aes")]
pub(crate) fn init_key<const ROUND_KEYS: usize, const KB: usize>(
    _token: Armv8,
    key: &[u8; KB],
    round_keys: &mut MaybeUninit<RoundKeys<ROUND_KEYS>>,
    h_powers: &mut MaybeUninit<HPowers>,
) {
    let mut h = [zero()];
    let rk = expand_key_regs::<ROUND_KEYS, KB, 1>(key, &mut h);
    // The round keys go to their place first: kept in registers through
    // the powers' multiplies, they were spilled to the stack
    // (tests/lifecycle.rs found them there).
    round_keys.write(RoundKeys(store_each(&rk)));
    h_powers.write(HPowers(store_each(&powers(mul_x(byte_reverse(h[0]))))));
}

/// GCM encryption; see the module contract.
#[inline(never)]
#[target_feature(enable = "neon,aes")]
pub(crate) fn seal<const ROUND_KEYS: usize>(
    _token: Armv8,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    let (rk, h) = (load_round_keys(keys), load_powers(h_powers));
    let (j0, mut ctr, acc) = start(&h, j0, aad);
    let (acc, bulk) = if crate::cpu::aarch64::has_eor3() {
        ctr_hash_output::<ROUND_KEYS, true, true>(&rk, &h, &mut ctr, acc, data, 0)
    } else {
        ctr_hash_output::<ROUND_KEYS, true, false>(&rk, &h, &mut ctr, acc, data, 0)
    };
    by_tail_size!(
        data.len() - bulk,
        finish::<ROUND_KEYS, true>(&rk, &h, j0, ctr, acc, data, bulk, len_block)
    )
}

/// GCM decryption; see the module contract. Returns the tag computed over the
/// ciphertext; the plaintext written is unauthenticated until the caller
/// compares it.
#[inline(never)]
#[target_feature(enable = "neon,aes")]
pub(crate) fn open<const ROUND_KEYS: usize>(
    _token: Armv8,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> u128 {
    let (rk, h) = (load_round_keys(keys), load_powers(h_powers));
    let (j0, mut ctr, acc) = start(&h, j0, aad);
    let (acc, bulk) = if crate::cpu::aarch64::has_eor3() {
        ctr_hash_input::<ROUND_KEYS, true, true>(&rk, &h, &mut ctr, acc, data, 0)
    } else {
        ctr_hash_input::<ROUND_KEYS, true, false>(&rk, &h, &mut ctr, acc, data, 0)
    };
    u128::from_le_bytes(by_tail_size!(
        data.len() - bulk,
        finish::<ROUND_KEYS, false>(&rk, &h, j0, ctr, acc, data, bulk, len_block)
    ))
}

/// The first half of extending a GCM seal by one last partial block, as
/// x86_64's `aesni::gcm::encrypt_tail`: `block[..n]` (1 ≤ `n` ≤ 16)
/// encrypted in place with `ctr_block`, the rest zeroed, and E(K, J0)
/// returned for [`append_block`]; run before the seal of the whole blocks.
#[target_feature(enable = "neon,aes")]
pub(crate) fn encrypt_tail<const ROUND_KEYS: usize>(
    _token: Armv8,
    keys: &RoundKeys<ROUND_KEYS>,
    j0: u128,
    ctr_block: u128,
    block: &mut Block,
    n: usize,
) -> Block {
    use super::aes::encrypt_blocks_inline;
    use super::load;
    let rk = load_round_keys(keys);
    let mut batch = [from_u128(ctr_block), from_u128(j0)];
    encrypt_blocks_inline!(&rk, &mut batch);
    let [ks, e_j0] = batch;
    let kept: Block = core::array::from_fn(|i| if i < n { 0xff } else { 0 });
    *block = store(vandq_u8(veorq_u8(load(block), ks), load(&kept)));
    store(e_j0)
}

/// The second half, as x86_64's `aesni::gcm::append_block` (its docs give
/// the maths): the tag of `head ‖ c[..n]` from `head_tag` (the tag of
/// `head` alone, whole blocks, length block `lengths.head_len_block`) and
/// [`encrypt_tail`]'s `e_j0` and ciphertext block `c`.
#[target_feature(enable = "neon,aes")]
pub(crate) fn append_block(
    _token: Armv8,
    h_powers: &HPowers,
    lengths: crate::backend::Extension,
    head_tag: &Block,
    e_j0: &Block,
    c: &Block,
) -> Block {
    use super::clmul::fold_blocks;
    use super::load;
    let h = load_powers(h_powers);
    let e_j0 = load(e_j0);
    let y_head = veorq_u8(load(head_tag), e_j0);
    let x = [
        veorq_u8(
            byte_reverse(from_u128(lengths.head_len_block)),
            byte_reverse(load(c)),
        ),
        veorq_u8(
            byte_reverse(y_head),
            byte_reverse(from_u128(lengths.len_block)),
        ),
    ];
    let acc = fold_blocks(zero(), &x, &h);
    store(veorq_u8(byte_reverse(acc), e_j0))
}

/// J0 into a register, the counter register for inc32(J0), and the GHASH of
/// the AAD.
#[inline]
#[target_feature(enable = "neon,aes")]
fn start(h: &[uint8x16_t; 8], j0: u128, aad: &[u8]) -> (uint8x16_t, uint8x16_t, uint8x16_t) {
    let j0 = from_u128(j0);
    let ctr = counter_add::<true>(counter_register::<true>(j0), 1);
    (j0, ctr, hash_padded::<true>(zero(), aad, h))
}

/// The last partial group (0..128 bytes from `offset`) with E(K, J0) in the
/// same AES batch, then the length block and the tag.
#[inline]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "neon,aes")]
fn finish<const ROUND_KEYS: usize, const SEAL: bool, const M: usize, const B: usize>(
    rk: &[uint8x16_t; ROUND_KEYS],
    h: &[uint8x16_t; 8],
    j0: uint8x16_t,
    ctr: uint8x16_t,
    acc: uint8x16_t,
    data: &mut InOut<'_>,
    offset: usize,
    len_block: u128,
) -> Block {
    // GHASH runs over the ciphertext: the output when sealing, the input when opening.
    let len = byte_reverse(from_u128(len_block));
    let (acc, tag_mask) =
        tail::<ROUND_KEYS, Gcm<SEAL>, M, B>(rk, ctr, data, offset, j0, acc, h, len);
    store(veorq_u8(byte_reverse(acc), tag_mask))
}

#[cfg(test)]
mod tests {
    use super::super::clmul::mul;
    use super::super::ctr::{counter_blocks, counter_group, next_counter_group};
    use super::super::{aes, load};
    use super::*;
    use crate::model;

    fn token() -> Armv8 {
        Armv8::detect().expect("the kernel tests need ARMv8 AES and PMULL")
    }

    /// The round keys of `key` from the key-setup kernel `aes::expand`.
    fn expand<const ROUND_KEYS: usize, const KB: usize>(
        t: Armv8,
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
        t: Armv8,
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
    fn shift_reduction_matches_polyval_dot() {
        use super::super::clmul::mul_reduced_by_shifts;
        let _t = token();
        let mut pairs: Vec<(Block, Block)> = (0..64u8)
            .map(|seed| (block(seed), block(seed.wrapping_mul(7).wrapping_add(1))))
            .collect();
        // Every bit of both halves set: the shifts' carries across lanes.
        pairs.push(([0xff; 16], [0xff; 16]));
        pairs.push(([0xff; 16], block(9)));
        for (a, b) in pairs {
            // SAFETY: `token()` proved the tier's features are present.
            let got = unsafe { store(mul_reduced_by_shifts(load(&a), load(&b))) };
            assert_eq!(got, model::polyval_dot(&a, &b), "{a:02x?} · {b:02x?}");
        }
    }

    #[test]
    fn mul_x_matches_the_model() {
        let _t = token();
        for seed in 0..64u8 {
            let mut h = block(seed);
            // Both values of the bit that falls out.
            h[15] = if seed % 2 == 0 {
                h[15] | 0x80
            } else {
                h[15] & 0x7f
            };
            // SAFETY: `token()` proved the tier's features are present.
            let got = unsafe { store(super::super::clmul::mul_x(load(&h))) };
            assert_eq!(got, model::mul_x_polyval(&h), "seed {seed}");
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
    fn round_keys_are_the_fips_197_schedule() {
        // FIPS-197 Appendix A.1 and A.3: the last round key of each example.
        let t = token();
        let key128 = [
            0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6, 0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf,
            0x4f, 0x3c,
        ];
        let mut key256 = [0u8; 32];
        key256.copy_from_slice(&[
            0x60, 0x3d, 0xeb, 0x10, 0x15, 0xca, 0x71, 0xbe, 0x2b, 0x73, 0xae, 0xf0, 0x85, 0x7d,
            0x77, 0x81, 0x1f, 0x35, 0x2c, 0x07, 0x3b, 0x61, 0x08, 0xd7, 0x2d, 0x98, 0x10, 0xa3,
            0x09, 0x14, 0xdf, 0xf4,
        ]);
        let (rk128, rk256) = (expand::<11, 16>(t, &key128), expand::<15, 32>(t, &key256));
        assert_eq!(
            rk128.0[10],
            [
                0xd0, 0x14, 0xf9, 0xa8, 0xc9, 0xee, 0x25, 0x89, 0xe1, 0x3f, 0x0c, 0xc8, 0xb6, 0x63,
                0x0c, 0xa6
            ]
        );
        assert_eq!(
            rk256.0[14],
            [
                0xfe, 0x48, 0x90, 0xd1, 0xe6, 0x18, 0x8d, 0x0b, 0x04, 0x6d, 0xf3, 0x44, 0x70, 0x6c,
                0x63, 0x1e
            ]
        );
    }

    #[test]
    fn counter_batches_wrap_the_low_32_bits_only() {
        let _t = token();
        for start in [
            0u32,
            0xf7,
            0xff,
            0x1fe,
            0xffff_fff9,
            0xffff_fffe,
            0xffff_ffff,
        ] {
            let mut j = [0xabu8; 16];
            j[12..].copy_from_slice(&start.to_be_bytes());
            // SAFETY: `_t` proved the tier's features are present.
            let blocks: [uint8x16_t; 8] = unsafe {
                let mut ctr = counter_register::<true>(load(&j));
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

    #[test]
    fn siv_counter_batches_wrap_the_first_32_bits_only() {
        let _t = token();
        for start in [0u32, 0xff, 0xffff_fff9, 0xffff_ffff] {
            let mut j = [0xcdu8; 16];
            j[..4].copy_from_slice(&start.to_le_bytes());
            // SAFETY: `_t` proved the tier's features are present.
            let blocks: [uint8x16_t; 8] = unsafe {
                let mut ctr = counter_register::<false>(load(&j));
                counter_blocks::<false, 8>(&mut ctr)
            };
            for (i, b) in blocks.iter().enumerate() {
                let mut expected = j;
                expected[..4].copy_from_slice(&start.wrapping_add(i as u32).to_le_bytes());
                // SAFETY: as above.
                assert_eq!(unsafe { store(*b) }, expected, "start {start:#x} block {i}");
            }
        }
    }

    /// The group loops' counters in memory (`ctr::CounterGroup`): three
    /// groups from each start, for both conventions, equal the counters
    /// `start + i` wrapped in their 32 bits, and `ctr` ends eight blocks on.
    #[test]
    fn counter_groups_in_memory_wrap_the_32_bit_counter_only() {
        let _t = token();
        for start in [0u32, 0xf7, 0xffff_fff0, 0xffff_fff9, 0xffff_ffff] {
            for gcm in [true, false] {
                let mut j = [0x5au8; 16];
                let at = if gcm { 12 } else { 0 };
                let word = |n: u32| {
                    if gcm {
                        n.to_be_bytes()
                    } else {
                        n.to_le_bytes()
                    }
                };
                j[at..at + 4].copy_from_slice(&word(start));
                // SAFETY: `_t` proved the tier's features are present.
                let (groups, after) = unsafe {
                    let mut ctr = if gcm {
                        counter_register::<true>(load(&j))
                    } else {
                        counter_register::<false>(load(&j))
                    };
                    let mut group = if gcm {
                        counter_group::<true>(&mut ctr)
                    } else {
                        counter_group::<false>(&mut ctr)
                    };
                    let mut groups = [[zero(); 8]; 3];
                    for g in groups.iter_mut() {
                        *g = if gcm {
                            next_counter_group::<true>(&mut group)
                        } else {
                            next_counter_group::<false>(&mut group)
                        };
                    }
                    let after = if gcm {
                        counter_register::<true>(ctr)
                    } else {
                        ctr
                    };
                    (groups, store(after))
                };
                for (g, blocks) in groups.iter().enumerate() {
                    for (i, b) in blocks.iter().enumerate() {
                        let mut expected = j;
                        expected[at..at + 4]
                            .copy_from_slice(&word(start.wrapping_add((8 * g + i) as u32)));
                        // SAFETY: as above.
                        let got = unsafe { store(*b) };
                        assert_eq!(
                            got, expected,
                            "start {start:#x} gcm {gcm} group {g} block {i}"
                        );
                    }
                }
                let mut expected = j;
                expected[at..at + 4].copy_from_slice(&word(start.wrapping_add(8)));
                assert_eq!(
                    after, expected,
                    "start {start:#x} gcm {gcm}: ctr after the first group"
                );
            }
        }
    }
}
