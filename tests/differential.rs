//! Differential tests (proptest), every 96-bit-nonce key type (AES-GCM and
//! AES-GCM-SIV, both key sizes) through one check: random keys, nonces,
//! plaintexts (0..=4200 bytes) and AAD (0..=600 bytes), in buffers at odd
//! offsets. The `Vec`, `_to` and in-place APIs must agree with each other,
//! with the key type's peer (ring, RustCrypto `aes-gcm-siv`) and with the
//! slow model in `src/model.rs`; the result must open back through each API,
//! and with a forged tag each open fails and wipes exactly its output. On
//! every tier this CPU has (`common::api_check`). XAES-256-GCM's differential
//! tests are in `tests/xaes.rs`, beside its KDF model.
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

use common::api_check::{Case, case, check_apis};
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use oracles::Oracles;
use proptest::prelude::*;

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
