//! AES-GCM-SIV under a repeated nonce (RFC 8452 §9): the output is a function of
//! (key, nonce, AAD, plaintext) only, so repeating all four repeats it exactly —
//! on any key object, through any API — and nothing else is repeated: messages
//! that differ anywhere (plaintext or AAD) get different tags, hence different
//! counters, hence unrelated keystreams.
//!
//! The "unrelated" checks are the ones a nonce-reusing CTR mode fails; the AES-GCM
//! control at the end shows that they do catch keystream reuse.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;

use common::{TestRng, each_tier_from_slice};
use hardware_aead::aes_gcm::Aes256Gcm;
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::{AeadKey, TAG_LEN};

const PT_LENS: [usize; 9] = [1, 15, 16, 17, 64, 100, 129, 300, 4096];

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

fn ones(bytes: &[u8]) -> u32 {
    bytes.iter().map(|b| b.count_ones()).sum()
}

/// `c1` and `c2` (ct || tag) seal `p1` and `p2` under the same key and nonce, and
/// the messages differ: the tags differ; in every whole 16-byte block, the two
/// keystreams differ (ct XOR is not the pt XOR) and so do the ciphertexts (even
/// where the plaintext blocks are equal); over four blocks or more, about half of
/// the ciphertext bits differ.
fn assert_unrelated(p1: &[u8], p2: &[u8], c1: &[u8], c2: &[u8], what: &str) {
    let len = p1.len();
    assert_eq!(p2.len(), len);
    assert_eq!((c1.len(), c2.len()), (len + TAG_LEN, len + TAG_LEN));
    assert_ne!(c1[len..], c2[len..], "{what}: equal tags");

    let whole = len / 16 * 16;
    let (ct_xor, pt_xor) = (
        xor(&c1[..whole], &c2[..whole]),
        xor(&p1[..whole], &p2[..whole]),
    );
    for (i, (cx, px)) in ct_xor.chunks(16).zip(pt_xor.chunks(16)).enumerate() {
        assert_ne!(cx, px, "{what}: block {i} reuses the keystream");
        assert!(
            cx.iter().any(|&b| b != 0),
            "{what}: block {i} has the same ciphertext in both"
        );
    }
    if whole >= 64 {
        let bits = whole as u32 * 8;
        let differing = ones(&ct_xor);
        assert!(
            differing > bits * 35 / 100 && differing < bits * 65 / 100,
            "{what}: {differing} of {bits} ciphertext bits differ, expected about half"
        );
    }
}

/// Repeating (key, nonce, AAD, plaintext) repeats the output exactly: twice on one
/// key object, on a second object from `new`, one from `new_from_slice`, and on
/// every tier; through `seal`, `seal_to` and the in-place API.
fn same_inputs_same_output<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for pt_len in [0].into_iter().chain(PT_LENS) {
        let key = rng.bytes(K::KEY_LEN);
        let key_bytes = K::Key::try_from(&key[..]).ok().expect("key length");
        let nonce: [u8; 12] = rng.array();
        let aad = rng.bytes(pt_len % 40);
        let pt = rng.bytes(pt_len);
        let what = format!("{}-byte key, pt {pt_len}", K::KEY_LEN);

        let first = K::new(&key_bytes).unwrap();
        let reference = first.seal(&nonce, &aad, &pt).unwrap();
        assert_eq!(
            first.seal(&nonce, &aad, &pt).unwrap(),
            reference,
            "{what}: sealing twice on one key object"
        );
        let mut keys = vec![
            K::new(&key_bytes).unwrap(),
            K::new_from_slice(&key).unwrap(),
        ];
        keys.extend(each_tier_from_slice::<K>(&key));
        for k in &keys {
            let b = k.tier();
            for _ in 0..2 {
                assert_eq!(
                    k.seal(&nonce, &aad, &pt).unwrap(),
                    reference,
                    "{what} [{b:?}]: encrypt repeated differently"
                );
                let mut out = vec![0u8; pt_len + TAG_LEN];
                k.seal_to(&nonce, &aad, &pt, &mut out).unwrap();
                assert_eq!(out, reference, "{what} [{b:?}]: seal_to");
                let mut buffer = pt.clone();
                let t = k.seal_in_place_detached(&nonce, &aad, &mut buffer).unwrap();
                assert_eq!(
                    [&buffer[..], t.as_ref()].concat(),
                    reference,
                    "{what} [{b:?}]: seal_in_place_detached"
                );
            }
        }
        // Sealing other messages in between changes nothing.
        first.seal(&nonce, b"other", &pt).unwrap();
        first.seal(&[0u8; 12], &aad, &pt).unwrap();
        assert_eq!(first.seal(&nonce, &aad, &pt).unwrap(), reference);
    }
}

/// Two plaintexts that differ in one byte (first, middle or last, one bit or all
/// eight), sealed under one key, nonce and AAD, give unrelated outputs; each opens
/// to its own plaintext, and the tags cannot be swapped.
fn one_byte_changed<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let mut pairs = 0;
    for pt_len in PT_LENS {
        let key = rng.bytes(K::KEY_LEN);
        let nonce: [u8; 12] = rng.array();
        let aad = rng.bytes(13);
        let p1 = rng.bytes(pt_len);
        for k in each_tier_from_slice::<K>(&key) {
            let c1 = k.seal(&nonce, &aad, &p1).unwrap();
            for position in [0, pt_len / 2, pt_len - 1] {
                for mask in [0x01u8, 0x80, 0xff] {
                    let mut p2 = p1.clone();
                    p2[position] ^= mask;
                    let c2 = k.seal(&nonce, &aad, &p2).unwrap();
                    let what = format!(
                        "[{:?}] {}-byte key, pt {pt_len}, byte {position} ^= {mask:#04x}",
                        k.tier(),
                        K::KEY_LEN
                    );
                    assert_unrelated(&p1, &p2, &c1, &c2, &what);
                    assert_eq!(k.open(&nonce, &aad, &c2).unwrap(), p2, "{what}");

                    // ct1 with tag2 (and ct2 with tag1) is rejected.
                    let mut swapped = c1.clone();
                    swapped[pt_len..].copy_from_slice(&c2[pt_len..]);
                    assert!(k.open(&nonce, &aad, &swapped).is_err(), "{what}: swap");
                    let mut swapped = c2.clone();
                    swapped[pt_len..].copy_from_slice(&c1[pt_len..]);
                    assert!(k.open(&nonce, &aad, &swapped).is_err(), "{what}: swap");
                    pairs += 1;
                }
            }
            assert_eq!(k.open(&nonce, &aad, &c1).unwrap(), p1);
        }
    }
    assert!(pairs >= PT_LENS.len() * 9);
}

/// The same plaintext under one key and nonce with different AAD (one bit
/// changed, one byte added, or none at all) gives unrelated outputs too.
fn aad_changed<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for pt_len in PT_LENS {
        let key = rng.bytes(K::KEY_LEN);
        let nonce: [u8; 12] = rng.array();
        let pt = rng.bytes(pt_len);
        let aad = rng.bytes(20);
        let mut flipped = aad.clone();
        flipped[7] ^= 0x10;
        let mut longer = aad.clone();
        longer.push(0);
        for k in each_tier_from_slice::<K>(&key) {
            let c1 = k.seal(&nonce, &aad, &pt).unwrap();
            for (other, name) in [
                (&flipped[..], "flipped"),
                (&longer, "longer"),
                (&[], "empty"),
            ] {
                let c2 = k.seal(&nonce, other, &pt).unwrap();
                let what = format!(
                    "[{:?}] {}-byte key, pt {pt_len}, AAD {name}",
                    k.tier(),
                    K::KEY_LEN
                );
                assert_unrelated(&pt, &pt, &c1, &c2, &what);
            }
        }
    }
}

/// A plaintext and its extension under one nonce: the shorter ciphertext is not
/// a prefix of the longer one (the length is authenticated into the counter).
fn prefix_not_kept<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let key = rng.bytes(K::KEY_LEN);
    let nonce: [u8; 12] = rng.array();
    let long = rng.bytes(300);
    for k in each_tier_from_slice::<K>(&key) {
        let c_long = k.seal(&nonce, b"", &long).unwrap();
        for short_len in [16, 17, 32, 100, 299] {
            let c_short = k.seal(&nonce, b"", &long[..short_len]).unwrap();
            let what = format!("[{:?}] prefix {short_len} of 300", k.tier());
            assert_unrelated(
                &long[..short_len],
                &long[..short_len],
                &c_short,
                &[&c_long[..short_len], &c_long[300..]].concat(),
                &what,
            );
        }
    }
}

#[test]
fn aes_128_same_inputs_same_output() {
    same_inputs_same_output::<Aes128GcmSiv>(0x1281);
}

#[test]
fn aes_256_same_inputs_same_output() {
    same_inputs_same_output::<Aes256GcmSiv>(0x2561);
}

#[test]
fn aes_128_one_byte_changed() {
    one_byte_changed::<Aes128GcmSiv>(0x1282);
}

#[test]
fn aes_256_one_byte_changed() {
    one_byte_changed::<Aes256GcmSiv>(0x2562);
}

#[test]
fn aes_128_aad_changed() {
    aad_changed::<Aes128GcmSiv>(0x1283);
}

#[test]
fn aes_256_aad_changed() {
    aad_changed::<Aes256GcmSiv>(0x2563);
}

#[test]
fn aes_128_prefix_not_kept() {
    prefix_not_kept::<Aes128GcmSiv>(0x1284);
}

#[test]
fn aes_256_prefix_not_kept() {
    prefix_not_kept::<Aes256GcmSiv>(0x2564);
}

/// The control: AES-GCM under a repeated nonce reuses its keystream, and the
/// checks of [`assert_unrelated`] see it — the ciphertext XOR equals the
/// plaintext XOR, and unchanged blocks encrypt identically.
#[test]
fn gcm_control_shows_keystream_reuse() {
    let mut rng = TestRng::new(0x6c6d);
    let key: [u8; 32] = rng.array();
    let nonce: [u8; 12] = rng.array();
    let p1 = rng.bytes(64);
    let mut p2 = p1.clone();
    p2[20] ^= 0x01;
    let k = Aes256Gcm::new(&key).unwrap();
    let (c1, c2) = (
        k.seal(&nonce, b"", &p1).unwrap(),
        k.seal(&nonce, b"", &p2).unwrap(),
    );
    assert_eq!(xor(&c1[..64], &c2[..64]), xor(&p1, &p2));
    assert_eq!(c1[..16], c2[..16]);
    let caught = std::panic::catch_unwind(|| assert_unrelated(&p1, &p2, &c1, &c2, "GCM control"));
    assert!(caught.is_err(), "assert_unrelated accepted keystream reuse");
}
