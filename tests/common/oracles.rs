//! Every 96-bit-nonce key type with the two oracles its tests compare it
//! against: the slow model (`src/model.rs`) and the peer it is
//! byte-identical with (ring for AES-GCM, RustCrypto `aes-gcm-siv` for
//! AES-GCM-SIV). A test binary that includes the model includes this file
//! beside it (`#[path = "common/oracles.rs"] mod oracles;`), so one generic
//! check serves every key type.

#![allow(dead_code)] // each test binary uses a subset of the oracles

use hardware_aead::AeadKey;
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};

use crate::common::{ring_open, ring_seal, rustcrypto_siv_open, rustcrypto_siv_seal};
use crate::model;

/// A key type, its model and its peer; all take the key as bytes.
pub trait Oracles: AeadKey<Nonce = [u8; 12]> {
    /// The peer's name, for failure messages.
    const PEER: &'static str;
    /// The model's `ciphertext || tag`.
    fn model_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8>;
    /// The model's plaintext, or `None` where it rejects.
    fn model_open(key: &[u8], nonce: &[u8; 12], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>>;
    /// The peer's `ciphertext || tag`.
    fn peer_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8>;
    /// The peer's plaintext, or `None` where it rejects.
    fn peer_open(key: &[u8], nonce: &[u8; 12], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>>;
}

macro_rules! oracles {
    ($key:ty, $peer:literal, $model_seal:path, $model_open:path, $peer_seal:path, $peer_open:path) => {
        impl Oracles for $key {
            const PEER: &'static str = $peer;
            fn model_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
                $model_seal(key, nonce, aad, pt)
            }
            fn model_open(
                key: &[u8],
                nonce: &[u8; 12],
                aad: &[u8],
                sealed: &[u8],
            ) -> Option<Vec<u8>> {
                $model_open(key, nonce, aad, sealed)
            }
            fn peer_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
                $peer_seal(key, nonce, aad, pt)
            }
            fn peer_open(
                key: &[u8],
                nonce: &[u8; 12],
                aad: &[u8],
                sealed: &[u8],
            ) -> Option<Vec<u8>> {
                $peer_open(key, nonce, aad, sealed)
            }
        }
    };
}

oracles!(
    Aes128Gcm,
    "ring",
    model::gcm_seal,
    model::gcm_open,
    ring_seal,
    ring_open
);
oracles!(
    Aes256Gcm,
    "ring",
    model::gcm_seal,
    model::gcm_open,
    ring_seal,
    ring_open
);
oracles!(
    Aes128GcmSiv,
    "RustCrypto aes-gcm-siv",
    model::gcm_siv_seal,
    model::gcm_siv_open,
    rustcrypto_siv_seal,
    rustcrypto_siv_open
);
oracles!(
    Aes256GcmSiv,
    "RustCrypto aes-gcm-siv",
    model::gcm_siv_seal,
    model::gcm_siv_open,
    rustcrypto_siv_seal,
    rustcrypto_siv_open
);
