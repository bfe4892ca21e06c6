//! Differential tests (proptest), every 96-bit-nonce key type (AES-GCM and
//! AES-GCM-SIV, both key sizes) through one check: random keys, nonces,
//! plaintexts (0..=4200 bytes) and AAD (0..=600 bytes), in buffers at odd
//! offsets. The `Vec`, `_to` and in-place APIs must agree with each other,
//! with the key type's peer (ring, RustCrypto `aes-gcm-siv`) and with the
//! slow model in `src/model.rs`; the result must open back through each API,
//! and with a forged tag each open fails and wipes exactly its output. On
//! every tier this CPU has (`common::api_check`). XAES-256-GCM and
//! KC-XAES-256-GCM (last section) against RustCrypto `xaes-256-gcm` and the
//! spec's KDF and commitment written out in `common/xaes_model.rs`.
//!
//! The model is slow in a debug build, so the cases that consult it are fewer
//! than those checked against the peer alone.

// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;
#[path = "../src/model.rs"]
mod model;
#[path = "common/oracles.rs"]
mod oracles;
#[path = "common/xaes_model.rs"]
mod xaes_model;

use common::api_check::{Case, case, check_apis};
use common::{TestRng, assert_rejected, assert_seals_and_opens, each_tier};
use hardware_aead::TAG_LEN;
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};
use oracles::Oracles;
use proptest::prelude::*;
use xaes_model::{kdf_then_aes256gcm, model_kc_seal, model_seal, rustcrypto_open, rustcrypto_seal};

/// The peer's output is the expected one; the model must agree with it
/// (where `use_model`), and every API of every tier must produce it.
fn check<K: Oracles>(c: &Case, use_model: bool) -> Result<(), TestCaseError> {
    let expected = K::peer_seal(&c.key, &c.nonce, &c.aad, &c.pt);
    if use_model {
        let from_model = K::model_seal(&c.key, &c.nonce, &c.aad, &c.pt);
        prop_assert!(
            from_model == expected,
            "the model disagrees with {}",
            K::PEER
        );
        let opened = K::model_open(&c.key, &c.nonce, &c.aad, &expected);
        prop_assert!(
            opened.as_deref() == Some(&c.pt[..]),
            "the model cannot open {}'s output",
            K::PEER
        );
    }
    check_apis::<K>(c, &expected, |sealed| {
        K::peer_open(&c.key, &c.nonce, &c.aad, sealed)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn aes_128_gcm_against_model_and_peer(c in case(16)) {
        check::<Aes128Gcm>(&c, true)?;
    }

    #[test]
    fn aes_256_gcm_against_model_and_peer(c in case(32)) {
        check::<Aes256Gcm>(&c, true)?;
    }

    #[test]
    fn aes_128_gcm_siv_against_model_and_peer(c in case(16)) {
        check::<Aes128GcmSiv>(&c, true)?;
    }

    #[test]
    fn aes_256_gcm_siv_against_model_and_peer(c in case(32)) {
        check::<Aes256GcmSiv>(&c, true)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn aes_128_gcm_against_peer(c in case(16)) {
        check::<Aes128Gcm>(&c, false)?;
    }

    #[test]
    fn aes_256_gcm_against_peer(c in case(32)) {
        check::<Aes256Gcm>(&c, false)?;
    }

    #[test]
    fn aes_128_gcm_siv_against_peer(c in case(16)) {
        check::<Aes128GcmSiv>(&c, false)?;
    }

    #[test]
    fn aes_256_gcm_siv_against_peer(c in case(32)) {
        check::<Aes256GcmSiv>(&c, false)?;
    }
}

/// Every plaintext length from 0 to 300 bytes with AAD lengths of none,
/// one byte, one block less and more one byte, one block, and more than
/// two blocks: the short-message paths (one-block, masked and one-batch
/// leaves, the one-group GCM-SIV calls) and the first groups of the wide
/// tiers, each size through every API on every tier against the peer, and
/// against the model up to 80 bytes.
#[test]
fn every_short_length_against_model_and_peer() {
    fn each<K: Oracles>(key_len: usize) {
        let mut rng = TestRng::new(0x5107 ^ key_len as u64);
        for pt_len in 0..=300 {
            for aad_len in [0, 1, 15, 16, 17, 40] {
                let c = Case {
                    key: rng.bytes(key_len),
                    nonce: rng.array(),
                    aad: rng.bytes(aad_len),
                    pt: rng.bytes(pt_len),
                    in_offset: 1 + pt_len % 15,
                    out_offset: 1 + (pt_len + aad_len) % 15,
                    aad_offset: 1 + aad_len % 15,
                };
                if let Err(e) = check::<K>(&c, pt_len <= 80) {
                    panic!("{pt_len}-byte text, {aad_len}-byte AAD: {e}");
                }
            }
        }
    }
    each::<Aes128Gcm>(16);
    each::<Aes256Gcm>(32);
    each::<Aes128GcmSiv>(16);
    each::<Aes256GcmSiv>(32);
}

// ---------------------------------------------------------------------------
// XAES-256-GCM and KC-XAES-256-GCM (192-bit nonces; their model in
// tests/common/xaes_model.rs)
// ---------------------------------------------------------------------------

/// Every plaintext length from 0 to 300 bytes (every tier's short paths and
/// the first groups of the wide ones) with AAD lengths that cross one and
/// eight blocks, and longer lengths around the group boundaries: every
/// tier against the model (the slow one up to 64 bytes, the KDF with this
/// crate's AES-256-GCM beyond), and against RustCrypto.
#[test]
fn xaes_every_length_matches_the_model_and_rustcrypto() {
    let mut rng = TestRng::new(0x7ae5_0001);
    let key: [u8; 32] = rng.array();
    let keys = each_tier::<Xaes256Gcm>(&key);
    let lengths = (0..=300).chain([511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4100]);
    for (n, len) in lengths.enumerate() {
        let aad_len = [0, 1, 15, 16, 17, 31, 48, 127, 128, 129, 200][n % 11];
        let nonce: [u8; 24] = rng.array();
        let pt = rng.bytes(len);
        let aad = rng.bytes(aad_len);
        let expected = if len <= 64 {
            model_seal(&key, &nonce, &aad, &pt)
        } else {
            kdf_then_aes256gcm(&key, &nonce, &aad, &pt)
        };
        assert_eq!(
            rustcrypto_seal(&key, &nonce, &aad, &pt),
            expected,
            "RustCrypto, {len}"
        );
        for k in &keys {
            let what = format!("{len} bytes, AAD {aad_len}");
            assert_seals_and_opens(k, &nonce, &aad, &pt, &expected, &what);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Random keys, nonces, lengths and slice offsets: every tier's
    /// `seal`, `seal_to` at an odd offset, in place, and the three
    /// opens agree with RustCrypto and with the KDF model; RustCrypto opens
    /// our output; a flipped tag bit is rejected with the outputs zeroed.
    #[test]
    fn xaes_against_model_and_peer(seed in any::<u64>(), pt_len in 0usize..=2100, aad_len in 0usize..=300, offset in 1usize..16) {
        let mut rng = TestRng::new(seed);
        let key: [u8; 32] = rng.array();
        let nonce: [u8; 24] = rng.array();
        let pt = rng.bytes(pt_len);
        let aad = rng.bytes(aad_len);
        let expected = rustcrypto_seal(&key, &nonce, &aad, &pt);
        prop_assert_eq!(&kdf_then_aes256gcm(&key, &nonce, &aad, &pt), &expected);
        for k in each_tier::<Xaes256Gcm>(&key) {
            let what = format!("{:?}", k.tier());
            assert_seals_and_opens(&k, &nonce, &aad, &pt, &expected, &what);
            let mut backing = vec![0x5Au8; offset + pt_len + TAG_LEN + 16];
            let n = k.seal_to(&nonce, &aad, &pt, &mut backing[offset..offset + pt_len + TAG_LEN]).expect("seal");
            prop_assert_eq!(&backing[offset..offset + n], &expected[..]);
            prop_assert!(backing[..offset].iter().chain(&backing[offset + n..]).all(|&b| b == 0x5A));
            prop_assert_eq!(rustcrypto_open(&key, &nonce, &aad, &backing[offset..offset + n]), Some(pt.clone()));
            let mut forged = expected.clone();
            forged[pt_len] ^= 1;
            assert_rejected(&k, &nonce, &aad, &forged, &what);
        }
    }
}

/// Every length to 300 bytes and around the group boundaries, on every
/// tier: the model's sealing, whose first `len + 16` bytes are
/// XAES-256-GCM's (the same kernels, the short path to 128 bytes and the
/// tier's AES-256-GCM beyond).
#[test]
fn kc_every_length_matches_the_model() {
    let mut rng = TestRng::new(0x7ae5_00c1);
    let key: [u8; 32] = rng.array();
    let keys = each_tier::<KcXaes256Gcm>(&key);
    let plain = Xaes256Gcm::new(&key).unwrap();
    let lengths = (0..=300).chain([511, 512, 513, 1024, 2049, 4100]);
    for (n, len) in lengths.enumerate() {
        let aad_len = [0, 1, 15, 16, 17, 48, 129][n % 7];
        let nonce: [u8; 24] = rng.array();
        let pt = rng.bytes(len);
        let aad = rng.bytes(aad_len);
        let expected = model_kc_seal(&key, &nonce, &aad, &pt);
        assert_eq!(
            plain.seal(&nonce, &aad, &pt).unwrap(),
            expected[..len + TAG_LEN],
            "{len}: XAES-256-GCM's bytes"
        );
        for k in &keys {
            let what = format!("KC {len} bytes, AAD {aad_len}");
            assert_seals_and_opens(k, &nonce, &aad, &pt, &expected, &what);
        }
    }
}
