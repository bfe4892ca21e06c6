//! AES-GCM-SIV differential tests (proptest): random keys, nonces, plaintexts
//! (0..=4200 bytes) and AAD (0..=600 bytes), in buffers at odd offsets. The `Vec`,
//! `_to` and in-place APIs must agree with each other, with RustCrypto
//! `aes-gcm-siv` and with the slow model in `src/model.rs`, and the result must
//! decrypt back through each API; with a forged tag, each decrypt fails and wipes
//! exactly its output. Both key sizes, on every tier this CPU has.
//!
//! The model is slow in a debug build, so the cases that consult it are fewer
//! than those checked against RustCrypto alone.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;
#[path = "../src/model.rs"]
mod model;

use common::api_check::{Case, case, check_apis};
use common::{rustcrypto_siv_open, rustcrypto_siv_seal};
use hardware_aead::AeadKey;
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use proptest::prelude::*;

fn check<K: AeadKey<Nonce = [u8; 12]>>(c: &Case, use_model: bool) -> Result<(), TestCaseError> {
    let expected = rustcrypto_siv_seal(&c.key, &c.nonce, &c.aad, &c.pt);
    if use_model {
        let from_model = model::gcm_siv_seal(&c.key, &c.nonce, &c.aad, &c.pt);
        prop_assert!(
            from_model == expected,
            "the model disagrees with RustCrypto"
        );
        let opened = model::gcm_siv_open(&c.key, &c.nonce, &c.aad, &expected);
        prop_assert!(
            opened.as_deref() == Some(&c.pt[..]),
            "the model cannot open RustCrypto's output"
        );
    }
    check_apis::<K>(c, &expected, |sealed| {
        rustcrypto_siv_open(&c.key, &c.nonce, &c.aad, sealed)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn aes_128_against_model_and_rustcrypto(c in case(16)) {
        check::<Aes128GcmSiv>(&c, true)?;
    }

    #[test]
    fn aes_256_against_model_and_rustcrypto(c in case(32)) {
        check::<Aes256GcmSiv>(&c, true)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    #[test]
    fn aes_128_against_rustcrypto(c in case(16)) {
        check::<Aes128GcmSiv>(&c, false)?;
    }

    #[test]
    fn aes_256_against_rustcrypto(c in case(32)) {
        check::<Aes256GcmSiv>(&c, false)?;
    }
}
