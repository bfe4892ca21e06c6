//! What works with neither `std` nor `alloc` (`cargo test --no-default-features
//! --test no_std_api`): tier selection, the allocation-free `_to` methods, the
//! in-place methods, the nonce-appended open, and keys placed in a caller's
//! slot, on every key type and every tier this CPU has. The test harness
//! itself uses `std`; the library calls below are all it offers without it.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use hardware_aead::aegis::{Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4};
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::placement::KeySlot;
use hardware_aead::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};
use hardware_aead::{AeadKey, Error, TAG_LEN, Tier};

const TIERS: [Tier; 4] = [
    Tier::AesNiClmul,
    Tier::VaesAvx2,
    Tier::VaesAvx512,
    Tier::Armv8,
];

/// The largest tag of any key type (KC-XAES-256-GCM's 48 bytes).
const MAX_TAG_LEN: usize = 48;

/// The longest nonce of any key type (AEGIS-256's 32 bytes).
const MAX_NONCE_LEN: usize = 32;

/// Seals and opens `_to`, in place and nonce-appended on `key`; checks a
/// forgery leaves zeros and a short buffer is refused. Returns the sealed
/// bytes of the `_to` call (`100 + K::TAG_LEN` of them, zero after).
fn exercise<K: AeadKey>(key: &K, nonce: &K::Nonce) -> [u8; 100 + MAX_TAG_LEN] {
    let plaintext: [u8; 100] = core::array::from_fn(|i| i as u8);
    let n = 100 + K::TAG_LEN;
    let mut backing = [0u8; 100 + MAX_TAG_LEN];
    let sealed = &mut backing[..n];
    assert_eq!(key.seal_to(nonce, b"aad", &plaintext, sealed), Ok(n));
    assert_eq!(
        key.seal_to(
            nonce,
            b"aad",
            &plaintext,
            &mut [0u8; 100 + MAX_TAG_LEN][..n - 1]
        ),
        Err(Error::BufferTooSmall { needed: n })
    );
    let mut opened = [0u8; 100];
    assert_eq!(key.open_to(nonce, b"aad", sealed, &mut opened), Ok(100));
    assert_eq!(opened, plaintext);

    let mut buffer = plaintext;
    let tag = key
        .seal_in_place_detached(nonce, b"aad", &mut buffer)
        .expect("seal in place");
    assert_eq!(&buffer[..], &sealed[..100]);
    assert_eq!(tag.as_ref(), &sealed[100..]);
    key.open_in_place_detached(nonce, b"aad", &mut buffer, &tag)
        .expect("open in place");
    assert_eq!(buffer, plaintext);

    // ciphertext || tag || nonce, as a generated-nonce seal (std) writes it.
    let mut appended = [0u8; 100 + MAX_TAG_LEN + MAX_NONCE_LEN];
    let len = n + K::NONCE_LEN;
    appended[..n].copy_from_slice(sealed);
    appended[n..len].copy_from_slice(nonce.as_ref());
    let mut out = [0u8; 100];
    assert_eq!(
        key.open_with_nonce_appended_to(b"aad", &appended[..len], &mut out),
        Ok(100)
    );
    assert_eq!(out, plaintext);

    let mut forged = [0u8; 100 + MAX_TAG_LEN];
    forged[..n].copy_from_slice(sealed);
    forged[7] ^= 4;
    let mut out = [0xffu8; 100];
    assert_eq!(
        key.open_to(nonce, b"aad", &forged[..n], &mut out),
        Err(Error::Authentication)
    );
    assert_eq!(out, [0u8; 100], "forged plaintext released");
    backing
}

/// Every tier gives the same bytes as `new`'s, and a placed key too.
fn every_way<K: AeadKey>(key_bytes: &K::Key, nonce: &K::Nonce) {
    let key = K::new(key_bytes).expect("a CPU with AES and carry-less multiply");
    let expected = exercise(&key, nonce);
    let mut tiers = 0;
    for tier in TIERS {
        match K::with_tier(key_bytes, tier) {
            Ok(key) => {
                assert_eq!(key.tier(), tier);
                assert_eq!(exercise(&key, nonce), expected, "{tier:?}");
                tiers += 1;
            }
            Err(Error::UnsupportedCpu { .. }) => {}
            Err(e) => panic!("{tier:?}: {e}"),
        }
    }
    assert!(tiers > 0, "no tier runs here");
    let mut slot = KeySlot::new();
    let placed = K::new_in(&mut slot, key_bytes).expect("placed key");
    assert_eq!(exercise(&*placed, nonce), expected, "placed");
}

#[test]
fn every_key_type_works_without_std_or_alloc() {
    every_way::<Aes128Gcm>(&[1; 16], &[2; 12]);
    every_way::<Aes256Gcm>(&[3; 32], &[4; 12]);
    every_way::<Aes128GcmSiv>(&[5; 16], &[6; 12]);
    every_way::<Aes256GcmSiv>(&[7; 32], &[8; 12]);
    every_way::<Xaes256Gcm>(&[9; 32], &[10; 24]);
    every_way::<KcXaes256Gcm>(&[9; 32], &[10; 24]);
    every_way::<Aegis128L<16>>(&[11; 16], &[12; 16]);
    every_way::<Aegis128L<32>>(&[11; 16], &[12; 16]);
    every_way::<Aegis128X2<16>>(&[13; 16], &[14; 16]);
    every_way::<Aegis128X2<32>>(&[13; 16], &[14; 16]);
    every_way::<Aegis128X4<16>>(&[15; 16], &[16; 16]);
    every_way::<Aegis128X4<32>>(&[15; 16], &[16; 16]);
    every_way::<Aegis256<16>>(&[17; 32], &[18; 32]);
    every_way::<Aegis256<32>>(&[17; 32], &[18; 32]);
    every_way::<Aegis256X2<16>>(&[19; 32], &[20; 32]);
    every_way::<Aegis256X2<32>>(&[19; 32], &[20; 32]);
    every_way::<Aegis256X4<16>>(&[21; 32], &[22; 32]);
    every_way::<Aegis256X4<32>>(&[21; 32], &[22; 32]);
}

#[test]
fn wrong_key_length_and_short_input_are_errors() {
    assert_eq!(
        Aes128Gcm::new_from_slice(&[0; 15]).err(),
        Some(Error::InvalidKeyLength)
    );
    let key = Aes256GcmSiv::new(&[0; 32]).expect("key");
    assert_eq!(
        key.open_to(&[0; 12], b"", &[0; 15], &mut [0; 15]),
        Err(Error::Truncated)
    );
    assert_eq!(
        key.open_with_nonce_appended_to(b"", &[0; 27], &mut [0; 27]),
        Err(Error::Truncated)
    );
}

/// STREAM segments without `std` or `alloc`: the `_to` and in-place calls.
#[test]
fn stream_segments_without_alloc() {
    use hardware_aead::stream::{Decryptor, Encryptor};
    let key = Xaes256Gcm::new(&[3; 32]).expect("a supported CPU");
    let prefix = [9u8; 19];
    let mut enc = Encryptor::new(&key, &prefix).unwrap();
    let mut first = [0u8; 5 + TAG_LEN];
    enc.seal_next_to(b"", b"first", &mut first).unwrap();
    let mut last = *b"last";
    let tag = enc.seal_last_in_place(b"", &mut last).unwrap();

    let mut dec = Decryptor::new(&key, &prefix).unwrap();
    let mut out = [0u8; 5];
    // The last segment opened as a non-last one fails and leaves zeros.
    let mut wrong = Decryptor::new(&key, &prefix).unwrap();
    let mut copy = last;
    assert_eq!(
        wrong.open_next_in_place(b"", &mut copy, &tag),
        Err(Error::Authentication)
    );
    assert_eq!(copy, [0; 4]);
    assert_eq!(dec.open_next_to(b"", &first, &mut out), Ok(5));
    assert_eq!(&out, b"first");
    dec.open_last_in_place(b"", &mut last, &tag).unwrap();
    assert_eq!(&last, b"last");
}
