//! AES-GCM-SIV counter wrap at every position (RFC 8452 §4: the counter is the
//! tag with the top bit of its last byte set, and only its first 32 bits, read
//! little-endian, count — modulo 2^32, never carrying into byte 4).
//!
//! RFC 8452 C.3 and Wycheproof's `WrappedIv` records wrap after the first block
//! or two. Here the wrap is put at every block boundary of short messages and at
//! chosen places in long ones, so it falls at each position of the kernels' wide
//! loops and tails.
//!
//! How: the test knows the key, so it can build a valid message whose tag it
//! chose. For a chosen tag T (first 32 bits 2^32 − p, so that block p is the
//! first with counter 0), the POLYVAL result S it needs is AES⁻¹(enc_key, T) with
//! the nonce XORed back in (retrying T until the top bit of S is clear, as the
//! RFC's tag step requires). POLYVAL is linear in its input blocks, so one free
//! 16-byte block (the first AAD block, or the first plaintext block) can be
//! solved for: with s blocks in all and the free one at index j,
//! S = S₀ + X_j · H^(s−j) in POLYVAL's `dot` field, where S₀ is POLYVAL with
//! X_j = 0. The message is then checked against the model and RustCrypto
//! `aes-gcm-siv`, on every tier and through every API, and the model's tag
//! must come out as the T chosen.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;
#[path = "../src/model.rs"]
mod model;

use aes_gcm::aes::cipher::{BlockCipherDecrypt, KeyInit};
use aes_gcm::aes::{Aes128, Aes256};
use common::{
    TestRng, assert_rejected, assert_seals_and_opens, each_tier_from_slice, rustcrypto_siv_seal,
    to_hex,
};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::{AeadKey, TAG_LEN};
use model::{Block, polyval, polyval_dot};

/// The identity of `dot`: x^128 mod P = x^127 + x^126 + x^121 + 1 as a
/// little-endian block (dot(a, one) = a · x^128 · x^−128 = a).
const DOT_ONE: Block = [0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc2];

/// a^−1 in the `dot` field: a^(2^128 − 2) by square-and-multiply.
fn dot_inverse(a: &Block) -> Block {
    let exponent = u128::MAX - 1;
    let mut result = DOT_ONE;
    for bit in (0..128).rev() {
        result = polyval_dot(&result, &result);
        if (exponent >> bit) & 1 == 1 {
            result = polyval_dot(&result, a);
        }
    }
    result
}

fn xor_block(a: &Block, b: &Block) -> Block {
    core::array::from_fn(|i| a[i] ^ b[i])
}

/// AES decryption of one block (RustCrypto `aes`, through `aes-gcm`'s re-export).
fn aes_decrypt_block(key: &[u8], block: &Block) -> Block {
    let mut b = aes_gcm::aes::Block::from(*block);
    match key.len() {
        16 => Aes128::new_from_slice(key).unwrap().decrypt_block(&mut b),
        32 => Aes256::new_from_slice(key).unwrap().decrypt_block(&mut b),
        n => panic!("{n}-byte AES key"),
    }
    b.into()
}

/// The RFC 8452 §4 POLYVAL input: padded AAD, padded plaintext, length block.
fn polyval_input(aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let mut input = aad.to_vec();
    input.resize(aad.len().div_ceil(16) * 16, 0);
    let pt_start = input.len();
    input.extend_from_slice(pt);
    input.resize(pt_start + pt.len().div_ceil(16) * 16, 0);
    input.extend_from_slice(&(aad.len() as u64 * 8).to_le_bytes());
    input.extend_from_slice(&(pt.len() as u64 * 8).to_le_bytes());
    input
}

/// Which 16 bytes of the message are solved for.
#[derive(Clone, Copy, Debug)]
enum Free {
    /// The first AAD block (the AAD must be at least 16 bytes).
    Aad,
    /// The first plaintext block (the plaintext must be at least 16 bytes).
    Plaintext,
}

/// Rewrites the free block of (`aad`, `pt`) so that the message's tag under
/// (`key`, `nonce`) starts with `first_counter` (little-endian). Returns the tag.
fn choose_tag(
    rng: &mut TestRng,
    key: &[u8],
    nonce: &[u8; 12],
    aad: &mut [u8],
    pt: &mut [u8],
    free: Free,
    first_counter: u32,
) -> Block {
    let (auth_key, enc_key) = model::gcm_siv_derive_keys(key, nonce);

    // A tag with the chosen counter whose preimage has the top bit clear.
    let (tag, preimage) = (0..64)
        .find_map(|_| {
            let mut t: Block = rng.array();
            t[..4].copy_from_slice(&first_counter.to_le_bytes());
            let s = aes_decrypt_block(&enc_key, &t);
            (s[15] & 0x80 == 0).then_some((t, s))
        })
        .expect("64 tries without a preimage with its top bit clear");
    // S = preimage with the nonce XORed back into its first 12 bytes.
    let mut target = preimage;
    for (s, n) in target.iter_mut().zip(nonce) {
        *s ^= n;
    }

    let free_bytes: &mut [u8] = match free {
        Free::Aad => &mut aad[..16],
        Free::Plaintext => &mut pt[..16],
    };
    free_bytes.fill(0);
    let input = polyval_input(aad, pt);
    let free_index = match free {
        Free::Aad => 0,
        Free::Plaintext => aad.len().div_ceil(16),
    };
    let s0 = polyval(&auth_key, &input);
    // The free block's coefficient: POLYVAL of the unit vector at its index.
    let mut unit = vec![0u8; input.len()];
    unit[free_index * 16..free_index * 16 + 16].copy_from_slice(&DOT_ONE);
    let coefficient = polyval(&auth_key, &unit);
    let solved = polyval_dot(&xor_block(&target, &s0), &dot_inverse(&coefficient));

    let free_bytes: &mut [u8] = match free {
        Free::Aad => &mut aad[..16],
        Free::Plaintext => &mut pt[..16],
    };
    free_bytes.copy_from_slice(&solved);
    assert_eq!(
        polyval(&auth_key, &polyval_input(aad, pt)),
        target,
        "the solved block does not give the POLYVAL value needed"
    );
    tag
}

/// Builds a message whose counter starts at 2^32 − `wrap_block` (so that block
/// `wrap_block` is the first with counter 0), and checks it everywhere.
fn check_wrap<K: AeadKey<Nonce = [u8; 12]>>(
    rng: &mut TestRng,
    pt_len: usize,
    aad_len: usize,
    free: Free,
    wrap_block: u32,
) {
    let key = rng.bytes(K::KEY_LEN);
    let nonce: [u8; 12] = rng.array();
    let mut aad = rng.bytes(aad_len);
    let mut pt = rng.bytes(pt_len);
    let first_counter = 0u32.wrapping_sub(wrap_block);
    let tag = choose_tag(rng, &key, &nonce, &mut aad, &mut pt, free, first_counter);
    let what = format!(
        "{}-byte key, pt {pt_len}, aad {aad_len}, free {free:?}, counter {first_counter:#010x} \
         (wraps before block {wrap_block})",
        K::KEY_LEN
    );

    let sealed = model::gcm_siv_seal(&key, &nonce, &aad, &pt);
    assert_eq!(
        sealed[pt_len..],
        tag,
        "{what}: the model's tag is not the one chosen"
    );
    let theirs = rustcrypto_siv_seal(&key, &nonce, &aad, &pt);
    assert!(
        theirs == sealed,
        "{what}: RustCrypto and the model disagree\n  key {}\n  nonce {}\n  aad {}",
        to_hex(&key),
        to_hex(&nonce),
        to_hex(&aad)
    );
    let mut forged = sealed.clone();
    forged[pt_len - 1] ^= 0x04;
    for k in each_tier_from_slice::<K>(&key) {
        assert_seals_and_opens(&k, &nonce, &aad, &pt, &sealed, &what);
        assert_rejected(&k, &nonce, &aad, &forged, &format!("{what}, forged"));
    }
}

/// Every wrap position (plus a start at counter 0) in short messages whose
/// lengths straddle the 8-block and 16-block batch sizes; the free block in the
/// AAD or the plaintext, with and without further AAD.
fn every_position<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let mut cases = 0;
    for (i, pt_len) in [17usize, 31, 32, 33, 100, 127, 128, 129, 255, 256, 257, 300]
        .into_iter()
        .enumerate()
    {
        let blocks = pt_len.div_ceil(16) as u32;
        for wrap_block in 0..=blocks {
            let (free, aad_len) = match (i + wrap_block as usize) % 4 {
                0 => (Free::Aad, 16),
                1 => (Free::Aad, 45),
                2 => (Free::Plaintext, 0),
                _ => (Free::Plaintext, 7),
            };
            check_wrap::<K>(&mut rng, pt_len, aad_len, free, wrap_block);
            cases += 1;
        }
    }
    assert_eq!(cases, 121);
}

/// Long messages: the wrap at several places mod 8 and mod 16 inside a 257-block
/// message, deep inside a 64 KiB one, and a start at 0x7fffffff (the counter's
/// top bit turns on, no wrap).
fn long_messages<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for wrap_block in [1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 255, 256, 257] {
        check_wrap::<K>(&mut rng, 4096 + 5, 20, Free::Aad, wrap_block);
    }
    check_wrap::<K>(&mut rng, 65536 + 5, 0, Free::Plaintext, 4000);
    // First counter 0x7fffffff, not a wrap: 0x80000000 follows.
    check_wrap::<K>(&mut rng, 300, 16, Free::Aad, 0x8000_0001);
}

#[test]
fn dot_field_helpers() {
    let mut rng = TestRng::new(1);
    for _ in 0..8 {
        let a: Block = rng.array();
        assert_eq!(polyval_dot(&a, &DOT_ONE), a);
        assert_eq!(polyval_dot(&a, &dot_inverse(&a)), DOT_ONE);
    }
    // aes_decrypt_block inverts the model's AES.
    let key = rng.bytes(32);
    let block: Block = rng.array();
    assert_eq!(
        aes_decrypt_block(&key, &model::aes_encrypt_block(&key, &block)),
        block
    );
    assert_eq!(TAG_LEN, 16);
}

#[test]
fn aes_128_every_wrap_position() {
    every_position::<Aes128GcmSiv>(0xc128);
}

#[test]
fn aes_256_every_wrap_position() {
    every_position::<Aes256GcmSiv>(0xc256);
}

#[test]
fn aes_128_wrap_in_long_messages() {
    long_messages::<Aes128GcmSiv>(0xd128);
}

#[test]
fn aes_256_wrap_in_long_messages() {
    long_messages::<Aes256GcmSiv>(0xd256);
}
