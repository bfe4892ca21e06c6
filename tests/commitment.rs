//! Key commitment: a ciphertext built to open under two keys (an "invisible
//! salamander", solved in GHASH's field) opens under both as XAES-256-GCM and
//! under one only as KC-XAES-256-GCM, whose 48-byte tag commits to the key.

// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;
#[path = "../src/model.rs"]
mod model;
#[path = "common/xaes_model.rs"]
mod xaes_model;
use common::{TestRng, assert_rejected, each_tier};
use hardware_aead::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};
use xaes_model::{derive, model_commitment};

/// 1 in GHASH's field (its bit order: the first bit is the coefficient of x⁰).
const GF_ONE: [u8; 16] = {
    let mut one = [0u8; 16];
    one[0] = 0x80;
    one
};

/// The inverse of `x` ≠ 0 in GHASH's field: x^(2^128 − 2), by squaring and
/// multiplying on the model's field multiply.
fn gf128_inverse(x: &[u8; 16]) -> [u8; 16] {
    // 2^128 − 2 is 127 one bits, then a zero: from the top, square and
    // multiply 127 times, then square.
    let mut result = GF_ONE;
    for _ in 0..127 {
        result = model::gf128_mul(&model::gf128_mul(&result, &result), x);
    }
    model::gf128_mul(&result, &result)
}

fn xor16(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    core::array::from_fn(|i| a[i] ^ b[i])
}

/// One AES-GCM ciphertext, two blocks with no AAD, that opens under two
/// XAES-256-GCM keys (the invisible-salamanders construction): for
/// ciphertext C₁ ‖ C₂, GHASH = C₁·H³ ⊕ C₂·H² ⊕ L·H, so the two keys' tags
/// are equal when C₂·(Ha² ⊕ Hb²) = C₁·(Ha³ ⊕ Hb³) ⊕ L·(Ha ⊕ Hb) ⊕ Ea(J0) ⊕
/// Eb(J0): C₁ is chosen, C₂ solved for. Returns `C ‖ tag`.
fn salamander(key_a: &[u8; 32], key_b: &[u8; 32], nonce: &[u8; 24], c1: [u8; 16]) -> Vec<u8> {
    let (da, db) = (derive(key_a, nonce), derive(key_b, nonce));
    let (ha, hb) = (
        model::gcm_hash_subkey(&da.kx),
        model::gcm_hash_subkey(&db.kx),
    );
    let j0 = model::gcm_j0(&da.nx);
    let (ea, eb) = (
        model::aes_encrypt_block(&da.kx, &j0),
        model::aes_encrypt_block(&db.kx, &j0),
    );
    let mut len_block = [0u8; 16];
    len_block[8..].copy_from_slice(&256u64.to_be_bytes());
    let sq = |h: &[u8; 16]| model::gf128_mul(h, h);
    let (ha2, hb2) = (sq(&ha), sq(&hb));
    let (ha3, hb3) = (model::gf128_mul(&ha2, &ha), model::gf128_mul(&hb2, &hb));
    let rhs = xor16(
        &xor16(
            &model::gf128_mul(&c1, &xor16(&ha3, &hb3)),
            &model::gf128_mul(&len_block, &xor16(&ha, &hb)),
        ),
        &xor16(&ea, &eb),
    );
    let c2 = model::gf128_mul(&rhs, &gf128_inverse(&xor16(&ha2, &hb2)));
    let ct = [c1, c2].concat();
    let tag_a = model::gcm_tag(&da.kx, &da.nx, b"", &ct);
    assert_eq!(
        tag_a,
        model::gcm_tag(&db.kx, &db.nx, b"", &ct),
        "the construction failed"
    );
    [ct, tag_a.to_vec()].concat()
}

/// The property KC-XAES-256-GCM exists for. A ciphertext built to open
/// under two keys opens under both with XAES-256-GCM, to two different
/// plaintexts, on every tier; with the commitment of either key
/// appended, KC-XAES-256-GCM opens it under that key only.
#[test]
fn kc_refuses_a_ciphertext_built_for_two_keys() {
    let mut rng = TestRng::new(0x7ae5_00c3);
    let x: [u8; 16] = rng.array();
    assert_eq!(
        model::gf128_mul(&x, &gf128_inverse(&x)),
        GF_ONE,
        "the model's inverse"
    );
    for _ in 0..4 {
        let (key_a, key_b): ([u8; 32], [u8; 32]) = (rng.array(), rng.array());
        let nonce: [u8; 24] = rng.array();
        let sealed = salamander(&key_a, &key_b, &nonce, rng.array());
        let (mut opened_a, mut opened_b) = (None, None);
        for (ka, kb) in each_tier::<Xaes256Gcm>(&key_a)
            .iter()
            .zip(each_tier::<Xaes256Gcm>(&key_b))
        {
            let a = ka
                .open(&nonce, b"", &sealed)
                .expect("XAES-256-GCM opens it under key A");
            let b = kb
                .open(&nonce, b"", &sealed)
                .expect("XAES-256-GCM opens it under key B");
            assert_ne!(a, b, "two keys, two plaintexts");
            assert_eq!(*opened_a.get_or_insert(a.clone()), a);
            assert_eq!(*opened_b.get_or_insert(b.clone()), b);
        }
        for (key, other, plaintext) in [(&key_a, &key_b, &opened_a), (&key_b, &key_a, &opened_b)] {
            let committed = [sealed.clone(), model_commitment(key, &nonce).to_vec()].concat();
            for (k, wrong) in each_tier::<KcXaes256Gcm>(key)
                .iter()
                .zip(each_tier::<KcXaes256Gcm>(other))
            {
                assert_eq!(
                    k.open(&nonce, b"", &committed).ok(),
                    *plaintext,
                    "{:?}",
                    k.tier()
                );
                assert_rejected(&wrong, &nonce, b"", &committed, "KC under the other key");
            }
        }
    }
}
