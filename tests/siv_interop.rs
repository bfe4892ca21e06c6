//! AES-GCM-SIV: byte-identical interoperation with RustCrypto `aes-gcm-siv` 0.12.
//! For a range of lengths our output equals theirs (combined and detached), ours
//! opens under theirs and theirs under ours — on every tier, with both key
//! sizes.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;

use aes_gcm_siv::aead::{AeadInOut, KeyInit};
use common::{
    TestRng, assert_opens, each_backend_from_slice, rustcrypto_siv_open, rustcrypto_siv_seal,
    to_hex,
};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::{AeadKey, TAG_LEN, Tag};

/// RustCrypto's detached seal (`AeadInOut`): (ciphertext, tag).
fn rustcrypto_detached(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> (Vec<u8>, [u8; 16]) {
    let mut buffer = pt.to_vec();
    let n = &aes_gcm_siv::Nonce::try_from(&nonce[..]).expect("a [u8; 12] of the right length");
    let t = match key.len() {
        16 => aes_gcm_siv::Aes128GcmSiv::new_from_slice(key)
            .expect("key")
            .encrypt_inout_detached(n, aad, (&mut buffer[..]).into()),
        32 => aes_gcm_siv::Aes256GcmSiv::new_from_slice(key)
            .expect("key")
            .encrypt_inout_detached(n, aad, (&mut buffer[..]).into()),
        n => panic!("{n}-byte key"),
    }
    .expect("RustCrypto detached seal");
    (buffer, t.into())
}

/// RustCrypto's detached open (`AeadInOut`) of (ciphertext, tag).
fn rustcrypto_open_detached(
    key: &[u8],
    nonce: &[u8; 12],
    aad: &[u8],
    ct: &[u8],
    tag: &[u8; 16],
) -> Option<Vec<u8>> {
    let mut buffer = ct.to_vec();
    let n = &aes_gcm_siv::Nonce::try_from(&nonce[..]).expect("a [u8; 12] of the right length");
    let t = &aes_gcm_siv::Tag::try_from(&tag[..]).expect("a Tag of the right length");
    match key.len() {
        16 => aes_gcm_siv::Aes128GcmSiv::new_from_slice(key)
            .expect("key")
            .decrypt_inout_detached(n, aad, (&mut buffer[..]).into(), t),
        32 => aes_gcm_siv::Aes256GcmSiv::new_from_slice(key)
            .expect("key")
            .decrypt_inout_detached(n, aad, (&mut buffer[..]).into(), t),
        n => panic!("{n}-byte key"),
    }
    .ok()?;
    Some(buffer)
}

/// One message: ours (every tier) against RustCrypto, both ways.
fn check_message<K: AeadKey<Nonce = [u8; 12], Tag = Tag>>(
    rng: &mut TestRng,
    pt_len: usize,
    aad_len: usize,
) {
    let key = rng.bytes(K::KEY_LEN);
    let nonce: [u8; 12] = rng.array();
    let aad = rng.bytes(aad_len);
    let pt = rng.bytes(pt_len);
    let what = format!("{}-byte key, pt {pt_len}, aad {aad_len}", K::KEY_LEN);

    let theirs = rustcrypto_siv_seal(&key, &nonce, &aad, &pt);
    let (their_ct, their_tag) = rustcrypto_detached(&key, &nonce, &aad, &pt);
    assert_eq!(
        [&their_ct[..], &their_tag[..]].concat(),
        theirs,
        "{what}: RustCrypto's detached and combined seals disagree"
    );

    for k in each_backend_from_slice::<K>(&key) {
        let b = k.tier();
        let ours = k.seal(&nonce, &aad, &pt).expect("encrypt");
        assert!(
            ours == theirs,
            "{what} [{b:?}]: differs from RustCrypto\n  key {}\n  nonce {}\n  ours   {}\n  theirs {}",
            to_hex(&key),
            to_hex(&nonce),
            to_hex(&ours),
            to_hex(&theirs)
        );

        let mut buffer = pt.clone();
        let our_tag = k
            .seal_in_place_detached(&nonce, &aad, &mut buffer)
            .expect("seal_in_place_detached");
        assert!(
            buffer == their_ct && our_tag == their_tag,
            "{what} [{b:?}]: detached seal differs from RustCrypto's"
        );

        // Theirs opens ours, combined and detached.
        assert_eq!(
            rustcrypto_siv_open(&key, &nonce, &aad, &ours).as_deref(),
            Some(&pt[..]),
            "{what} [{b:?}]: RustCrypto cannot open ours"
        );
        assert_eq!(
            rustcrypto_open_detached(&key, &nonce, &aad, &buffer, &our_tag).as_deref(),
            Some(&pt[..]),
            "{what} [{b:?}]: RustCrypto cannot open our detached output"
        );
        // Ours opens theirs through every decrypt API.
        assert_opens(
            &k,
            &nonce,
            &aad,
            &theirs,
            &pt,
            &format!("{what}, sealed by RustCrypto"),
        );

        // And both reject the same forgery: the last tag byte changed.
        let mut forged = ours.clone();
        forged[pt_len + TAG_LEN - 1] ^= 0x40;
        assert_eq!(rustcrypto_siv_open(&key, &nonce, &aad, &forged), None);
        assert!(
            k.open(&nonce, &aad, &forged).is_err(),
            "{what} [{b:?}]: a forged tag opened"
        );
    }
}

/// Lengths 0..=300 (every tail and every block count up to 18 blocks) with the
/// AAD length cycling through empty, partial and multi-block values.
fn small_lengths<K: AeadKey<Nonce = [u8; 12], Tag = Tag>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    const AAD_LENS: [usize; 7] = [0, 1, 13, 16, 17, 64, 300];
    for pt_len in 0..=300 {
        check_message::<K>(&mut rng, pt_len, AAD_LENS[pt_len % AAD_LENS.len()]);
    }
    // And the AAD length alone swept with a short and an empty message.
    for aad_len in 0..=80 {
        check_message::<K>(&mut rng, 5, aad_len);
        check_message::<K>(&mut rng, 0, aad_len);
    }
}

/// The one-group path (an AAD of at most one block, a text of at most eight)
/// and its neighbours: every text length up to 130 bytes with AADs of 0, 1,
/// 15, 16 and 17 bytes, against RustCrypto both ways.
fn one_group_lengths<K: AeadKey<Nonce = [u8; 12], Tag = Tag>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for aad_len in [0, 1, 15, 16, 17] {
        for pt_len in 0..=130 {
            check_message::<K>(&mut rng, pt_len, aad_len);
        }
    }
}

#[test]
fn aes_128_one_group_lengths() {
    one_group_lengths::<Aes128GcmSiv>(0x51b128);
}

#[test]
fn aes_256_one_group_lengths() {
    one_group_lengths::<Aes256GcmSiv>(0x51b256);
}

/// Long messages around the kernels' wide loops, and long AAD.
fn big_lengths<K: AeadKey<Nonce = [u8; 12], Tag = Tag>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for (pt_len, aad_len) in [
        (4096, 0),
        (4096, 4096),
        (4095, 17),
        (4097, 1),
        (8 * 16 * 7 + 3, 129),
        (0, 65536 + 7),
        (65536 + 5, 33),
    ] {
        check_message::<K>(&mut rng, pt_len, aad_len);
    }
}

#[test]
fn aes_128_small_lengths() {
    small_lengths::<Aes128GcmSiv>(0x5128);
}

#[test]
fn aes_256_small_lengths() {
    small_lengths::<Aes256GcmSiv>(0x5256);
}

/// Every length of `common::group_boundaries`.
fn group_boundaries<K: AeadKey<Nonce = [u8; 12], Tag = Tag>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for (pt_len, aad_len) in common::group_boundaries() {
        check_message::<K>(&mut rng, pt_len, aad_len);
    }
}

#[test]
fn aes_128_group_boundaries() {
    group_boundaries::<Aes128GcmSiv>(0x5c128);
}

#[test]
fn aes_256_group_boundaries() {
    group_boundaries::<Aes256GcmSiv>(0x5c256);
}

#[test]
fn aes_128_big_lengths() {
    big_lengths::<Aes128GcmSiv>(0x5b128);
}

#[test]
fn aes_256_big_lengths() {
    big_lengths::<Aes256GcmSiv>(0x5b256);
}
