//! Differential tests (proptest): random keys, nonces, plaintexts (0..=4200 bytes)
//! and AAD (0..=600 bytes), in buffers at odd offsets. The `Vec`, `_to` and
//! in-place APIs must agree with each other, with ring and with the slow model in
//! `src/model.rs`, and the result must decrypt back through each API. Both key
//! sizes, on every tier this CPU has.
//!
//! The model is slow in a debug build, so the cases that consult it are fewer
//! than those checked against ring alone.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;
#[path = "../src/model.rs"]
mod model;

use common::api_check::{Case, case, check_apis};
use common::{ring_open, ring_seal};
use hardware_aead::AeadKey;
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use proptest::prelude::*;

fn check<K: AeadKey<Nonce = [u8; 12]>>(c: &Case, use_model: bool) -> Result<(), TestCaseError> {
    let expected = ring_seal(&c.key, &c.nonce, &c.aad, &c.pt);
    if use_model {
        let from_model = model::gcm_seal(&c.key, &c.nonce, &c.aad, &c.pt);
        prop_assert!(from_model == expected, "the model disagrees with ring");
        let opened = model::gcm_open(&c.key, &c.nonce, &c.aad, &expected);
        prop_assert!(
            opened.as_deref() == Some(&c.pt[..]),
            "the model cannot open ring's output"
        );
    }
    check_apis::<K>(c, &expected, |sealed| {
        ring_open(&c.key, &c.nonce, &c.aad, sealed)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn aes_128_against_model_and_ring(c in case(16)) {
        check::<Aes128Gcm>(&c, true)?;
    }

    #[test]
    fn aes_256_against_model_and_ring(c in case(32)) {
        check::<Aes256Gcm>(&c, true)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn aes_128_against_ring(c in case(16)) {
        check::<Aes128Gcm>(&c, false)?;
    }

    #[test]
    fn aes_256_against_ring(c in case(32)) {
        check::<Aes256Gcm>(&c, false)?;
    }
}
