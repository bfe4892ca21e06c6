//! Byte-identical interoperation with ring and RustCrypto `aes-gcm` 0.11: for a
//! range of lengths, our output equals theirs, ours opens under both, and theirs
//! opens under ours — on every tier, with both key sizes.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;

use aes_gcm::aead::{Aead as _, KeyInit, Payload};
use common::{TestRng, assert_opens, each_backend_from_slice, ring_open, ring_seal, to_hex};
use hardware_aead::AeadKey;
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};

/// RustCrypto `aes-gcm` seal: ct || tag.
fn rustcrypto_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let payload = Payload { msg: pt, aad };
    let nonce = &aes_gcm::Nonce::try_from(&nonce[..]).expect("a [u8; 12] of the right length");
    match key.len() {
        16 => aes_gcm::Aes128Gcm::new_from_slice(key)
            .expect("key")
            .encrypt(nonce, payload),
        32 => aes_gcm::Aes256Gcm::new_from_slice(key)
            .expect("key")
            .encrypt(nonce, payload),
        n => panic!("{n}-byte key"),
    }
    .expect("RustCrypto seal")
}

/// RustCrypto `aes-gcm` open of ct || tag.
fn rustcrypto_open(key: &[u8], nonce: &[u8; 12], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
    let payload = Payload { msg: sealed, aad };
    let nonce = &aes_gcm::Nonce::try_from(&nonce[..]).expect("a [u8; 12] of the right length");
    match key.len() {
        16 => aes_gcm::Aes128Gcm::new_from_slice(key)
            .expect("key")
            .decrypt(nonce, payload),
        32 => aes_gcm::Aes256Gcm::new_from_slice(key)
            .expect("key")
            .decrypt(nonce, payload),
        n => panic!("{n}-byte key"),
    }
    .ok()
}

/// One message: ours (every tier) against ring and RustCrypto, both ways.
fn check_message<K: AeadKey<Nonce = [u8; 12]>>(rng: &mut TestRng, pt_len: usize, aad_len: usize) {
    let key = rng.bytes(K::KEY_LEN);
    let nonce: [u8; 12] = rng.array();
    let aad = rng.bytes(aad_len);
    let pt = rng.bytes(pt_len);
    let what = format!("{}-byte key, pt {pt_len}, aad {aad_len}", K::KEY_LEN);

    let from_ring = ring_seal(&key, &nonce, &aad, &pt);
    let from_rustcrypto = rustcrypto_seal(&key, &nonce, &aad, &pt);
    assert_eq!(
        from_ring, from_rustcrypto,
        "{what}: the peers disagree with each other"
    );

    for k in each_backend_from_slice::<K>(&key) {
        let ours = k.seal(&nonce, &aad, &pt).expect("encrypt");
        assert!(
            ours == from_ring,
            "{what} [{:?}]: differs from ring\n  key {}\n  nonce {}\n  ours {}\n  ring {}",
            k.tier(),
            to_hex(&key),
            to_hex(&nonce),
            to_hex(&ours),
            to_hex(&from_ring)
        );
        assert_eq!(
            ring_open(&key, &nonce, &aad, &ours).as_deref(),
            Some(&pt[..]),
            "{what}: ring cannot open ours"
        );
        assert_eq!(
            rustcrypto_open(&key, &nonce, &aad, &ours).as_deref(),
            Some(&pt[..]),
            "{what}: RustCrypto cannot open ours"
        );
        assert_opens(
            &k,
            &nonce,
            &aad,
            &from_ring,
            &pt,
            &format!("{what}, sealed by ring"),
        );
        assert_opens(
            &k,
            &nonce,
            &aad,
            &from_rustcrypto,
            &pt,
            &format!("{what}, sealed by RustCrypto"),
        );
    }
}

/// Lengths 0..=300 (every tail and every block count up to 18 blocks) with the
/// AAD length cycling through empty, partial and multi-block values.
fn small_lengths<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    const AAD_LENS: [usize; 7] = [0, 1, 13, 16, 17, 64, 300];
    for pt_len in 0..=300 {
        check_message::<K>(&mut rng, pt_len, AAD_LENS[pt_len % AAD_LENS.len()]);
    }
    // And the AAD length alone swept with a short message.
    for aad_len in 0..=80 {
        check_message::<K>(&mut rng, 5, aad_len);
    }
}

/// Long messages around the kernels' 8-block and wider loops.
fn big_lengths<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for (pt_len, aad_len) in [
        (4096, 0),
        (4096, 4096),
        (4095, 17),
        (4097, 1),
        (8 * 16 * 7 + 3, 129),
        (65536 + 5, 33),
    ] {
        check_message::<K>(&mut rng, pt_len, aad_len);
    }
}

#[test]
fn aes_128_small_lengths() {
    small_lengths::<Aes128Gcm>(1);
}

#[test]
fn aes_256_small_lengths() {
    small_lengths::<Aes256Gcm>(2);
}

/// Every length of `common::group_boundaries`.
fn group_boundaries<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for (pt_len, aad_len) in common::group_boundaries() {
        check_message::<K>(&mut rng, pt_len, aad_len);
    }
}

#[test]
fn aes_128_group_boundaries() {
    group_boundaries::<Aes128Gcm>(0x9128);
}

#[test]
fn aes_256_group_boundaries() {
    group_boundaries::<Aes256Gcm>(0x9256);
}

#[test]
fn aes_128_big_lengths() {
    big_lengths::<Aes128Gcm>(3);
}

#[test]
fn aes_256_big_lengths() {
    big_lengths::<Aes256Gcm>(4);
}
