//! AEGIS (`hardware_aead::aegis`): the six variants with both tag lengths,
//! on every tier this CPU has, against
//! - every test vector of draft-irtf-cfrg-aegis-aead-18 (`tests/data/aegis/`,
//!   the draft repository's JSON files), the failing ones included;
//! - the `aegis` crate (0.9, its pure-Rust back-end, software AES in this
//!   build): byte-identical ciphertexts and tags both ways, every message
//!   length 0–1,100 and around every block boundary to 64 KiB, associated
//!   data of 0–300 bytes (`common/aegis_peer.rs`, which
//!   `bench/tests/aegis_libaegis.rs` runs against the C back-end);
//! - single-bit changes of ciphertext, tag, nonce and associated data:
//!   each rejected, the output left all zero.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs checks the
// refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;
#[macro_use]
#[path = "common/aegis_peer.rs"]
mod aegis_peer;

use aegis_peer::{Peer, matches_peer_of, nonce_of};
use common::{TestRng, assert_rejected, assert_seals_and_opens, each_tier_from_slice, hex};
use hardware_aead::Error;
use hardware_aead::aegis::{
    Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4, MAX_AAD_LEN,
    MAX_PLAINTEXT_LEN,
};

/// Every record of the draft's file for `K`: the passing ones sealed and
/// opened through every call, the failing ones rejected with the output
/// wiped; the one-lane files must give 5 passing and 4 failing records.
fn draft_vectors_of<K: Peer>() {
    let text = common::read_committed_vector_file("aegis", K::FILE)
        .unwrap_or_else(|| panic!("{} is missing", K::FILE));
    let records: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let tag_field = if K::TAG_LEN == 16 { "tag128" } else { "tag256" };
    let mut passing = 0;
    let mut failing = 0;
    for record in records.as_array().expect("an array") {
        let field = |name: &str| record.get(name).and_then(|v| v.as_str()).map(hex);
        // The update-function and initial-state records hold no message.
        let (Some(key), Some(nonce), Some(tag)) = (field("key"), field("nonce"), field(tag_field))
        else {
            continue;
        };
        let name = record["name"].as_str().unwrap_or("?");
        let what = format!("{} {name} ({}-byte tag)", K::FILE, K::TAG_LEN);
        let aad = field("ad").unwrap_or_default();
        let ct = field("ct").expect("ct");
        let mut sealed = ct.clone();
        sealed.extend_from_slice(&tag);
        let nonce = nonce_of::<K>(&nonce);
        for k in each_tier_from_slice::<K>(&key) {
            if record.get("error").is_some() {
                assert_rejected(&k, &nonce, &aad, &sealed, &what);
            } else {
                let msg = field("msg").expect("msg");
                assert_seals_and_opens(&k, &nonce, &aad, &msg, &sealed, &what);
            }
        }
        if record.get("error").is_some() {
            failing += 1;
        } else {
            passing += 1;
        }
    }
    // The draft gives 5 passing and 4 failing records for the one-lane
    // variants, 2 passing for each X variant.
    assert!(passing >= 2, "{}: only {passing} passing records", K::FILE);
    if K::FILE.ends_with("128l-test-vectors.json") || K::FILE.ends_with("256-test-vectors.json") {
        assert_eq!((passing, failing), (5, 4), "{}", K::FILE);
    }
}

#[test]
fn draft_test_vectors() {
    for_each_type!(draft_vectors_of);
}

#[test]
fn matches_the_aegis_crate() {
    for_each_type!(matches_peer_of);
}

fn tamper_of<K: Peer>() {
    let mut rng = TestRng::new(0x7a3 + K::TAG_LEN as u64);
    let key = rng.bytes(K::KEY_LEN);
    for len in [0, 1, 17, 33, 130] {
        let nonce_bytes = rng.bytes(K::NONCE_LEN);
        let nonce = nonce_of::<K>(&nonce_bytes);
        let aad = rng.bytes(19);
        let pt = rng.bytes(len);
        for k in each_tier_from_slice::<K>(&key) {
            let sealed = k.seal(&nonce, &aad, &pt).unwrap();
            for bit in 0..sealed.len() * 8 {
                let mut forged = sealed.clone();
                forged[bit / 8] ^= 1 << (bit % 8);
                assert_rejected(&k, &nonce, &aad, &forged, &format!("sealed bit {bit}"));
            }
            for bit in 0..K::NONCE_LEN * 8 {
                let mut other = nonce_bytes.clone();
                other[bit / 8] ^= 1 << (bit % 8);
                assert_rejected(
                    &k,
                    &nonce_of::<K>(&other),
                    &aad,
                    &sealed,
                    &format!("nonce bit {bit}"),
                );
            }
            for bit in 0..aad.len() * 8 {
                let mut other = aad.clone();
                other[bit / 8] ^= 1 << (bit % 8);
                assert_rejected(&k, &nonce, &other, &sealed, &format!("AD bit {bit}"));
            }
            // AD one byte shorter is another message too.
            assert_rejected(&k, &nonce, &aad[..18], &sealed, "AD cut short");
        }
    }
}

#[test]
fn every_single_bit_change_is_rejected() {
    for_each_type!(tamper_of);
}

fn bad_input_of<K: Peer>() {
    let key = vec![3u8; K::KEY_LEN];
    let nonce = nonce_of::<K>(&vec![4u8; K::NONCE_LEN]);
    for k in each_tier_from_slice::<K>(&key) {
        // Shorter than a tag: an error, not a panic.
        for len in 0..K::TAG_LEN {
            assert!(k.open(&nonce, b"", &vec![0; len]).is_err());
        }
        // An output too short for the ciphertext and tag.
        let mut out = vec![0u8; 4 + K::TAG_LEN - 1];
        assert!(k.seal_to(&nonce, b"", b"four", &mut out).is_err());
    }
    // A key of the wrong length.
    assert_eq!(
        K::new_from_slice(&vec![0; K::KEY_LEN + 1]).err(),
        Some(Error::InvalidKeyLength)
    );
}

#[test]
fn bad_input_is_an_error() {
    for_each_type!(bad_input_of);
}

#[test]
fn limits_are_the_drafts() {
    assert_eq!(MAX_PLAINTEXT_LEN, (1 << 61) - 1);
    assert_eq!(MAX_AAD_LEN, (1 << 61) - 1);
}

/// The variants are distinct algorithms: the same key, nonce and message
/// give six different ciphertexts, and the 16-byte tag is not a prefix of
/// the 32-byte one.
#[test]
fn variants_and_tag_lengths_differ() {
    let k16 = [9u8; 16];
    let k32 = [9u8; 32];
    let pt = [5u8; 200];
    let mut seen = vec![
        Aegis128L::<16>::new(&k16)
            .unwrap()
            .seal(&[1; 16], b"", &pt)
            .unwrap(),
        Aegis128X2::<16>::new(&k16)
            .unwrap()
            .seal(&[1; 16], b"", &pt)
            .unwrap(),
        Aegis128X4::<16>::new(&k16)
            .unwrap()
            .seal(&[1; 16], b"", &pt)
            .unwrap(),
        Aegis256::<16>::new(&k32)
            .unwrap()
            .seal(&[1; 32], b"", &pt)
            .unwrap(),
        Aegis256X2::<16>::new(&k32)
            .unwrap()
            .seal(&[1; 32], b"", &pt)
            .unwrap(),
        Aegis256X4::<16>::new(&k32)
            .unwrap()
            .seal(&[1; 32], b"", &pt)
            .unwrap(),
    ];
    let n = seen.len();
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), n);
    let short = Aegis128L::<16>::new(&k16)
        .unwrap()
        .seal(&[1; 16], b"", &pt)
        .unwrap();
    let long = Aegis128L::<32>::new(&k16)
        .unwrap()
        .seal(&[1; 16], b"", &pt)
        .unwrap();
    assert_eq!(short[..200], long[..200]);
    assert_ne!(short[200..], long[200..216]);
}
