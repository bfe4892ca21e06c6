//! Inputs the API must refuse, and how: short output buffers, inputs shorter
//! than a tag, wrong key lengths, the SP 800-38D (AES-GCM) and RFC 8452
//! (AES-GCM-SIV) length limits, and the traits the public types promise;
//! XAES-256-GCM's in the last section.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;

use common::{TestRng, each_tier_from_slice};
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm, MAX_AAD_LEN, MAX_PLAINTEXT_LEN};
use hardware_aead::aes_gcm_siv::{self as siv, Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::xaes_gcm::Xaes256Gcm;
use hardware_aead::{AeadKey, Error, TAG_LEN};

// Keys are `Send + Sync` (api.md): checked at compile time.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Aes128Gcm>();
    assert_send_sync::<Aes256Gcm>();
    assert_send_sync::<Aes128GcmSiv>();
    assert_send_sync::<Aes256GcmSiv>();
    assert_send_sync::<Error>();
};

const PT_LENS: [usize; 5] = [0, 1, 16, 17, 100];

/// `seal_to` with every too-short output length: `BufferTooSmall { needed }`
/// and not one byte written.
fn short_encrypt_out<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let key = rng.bytes(K::KEY_LEN);
    let nonce: [u8; 12] = rng.array();
    for k in each_tier_from_slice::<K>(&key) {
        for pt_len in PT_LENS {
            let pt = rng.bytes(pt_len);
            let needed = pt_len + TAG_LEN;
            for out_len in 0..needed {
                let mut out = vec![0xAAu8; out_len];
                assert_eq!(
                    k.seal_to(&nonce, b"aad", &pt, &mut out),
                    Err(Error::BufferTooSmall { needed }),
                    "[{:?}] pt {pt_len}, out {out_len}",
                    k.tier()
                );
                assert!(
                    out.iter().all(|&b| b == 0xAA),
                    "[{:?}] seal_to wrote into a short buffer",
                    k.tier()
                );
            }
        }
    }
}

/// `open_to` with every too-short output length: `BufferTooSmall { needed }`
/// (needed = the plaintext length) and not one byte written.
fn short_decrypt_out<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let key = rng.bytes(K::KEY_LEN);
    let nonce: [u8; 12] = rng.array();
    for k in each_tier_from_slice::<K>(&key) {
        for pt_len in PT_LENS {
            let sealed = k.seal(&nonce, b"aad", &rng.bytes(pt_len)).unwrap();
            for out_len in 0..pt_len {
                let mut out = vec![0xAAu8; out_len];
                assert_eq!(
                    k.open_to(&nonce, b"aad", &sealed, &mut out),
                    Err(Error::BufferTooSmall { needed: pt_len }),
                    "[{:?}] pt {pt_len}, out {out_len}",
                    k.tier()
                );
                assert!(
                    out.iter().all(|&b| b == 0xAA),
                    "[{:?}] open_to wrote into a short buffer",
                    k.tier()
                );
            }
        }
    }
}

/// Longer output buffers are fine: the length is returned and the bytes past it
/// are left as they were.
fn long_out<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let key = rng.bytes(K::KEY_LEN);
    let nonce: [u8; 12] = rng.array();
    for k in each_tier_from_slice::<K>(&key) {
        for pt_len in PT_LENS {
            let pt = rng.bytes(pt_len);
            let sealed = k.seal(&nonce, b"", &pt).unwrap();

            let mut out = vec![0xAAu8; sealed.len() + 33];
            assert_eq!(k.seal_to(&nonce, b"", &pt, &mut out), Ok(sealed.len()));
            assert_eq!(out[..sealed.len()], sealed[..]);
            assert!(
                out[sealed.len()..].iter().all(|&b| b == 0xAA),
                "seal_to wrote past its output"
            );

            let mut out = vec![0xAAu8; pt_len + 33];
            assert_eq!(k.open_to(&nonce, b"", &sealed, &mut out), Ok(pt_len));
            assert_eq!(out[..pt_len], pt[..]);
            assert!(
                out[pt_len..].iter().all(|&b| b == 0xAA),
                "open_to wrote past its output"
            );
        }
    }
}

/// Inputs of 0..16 bytes hold no tag: `Truncated` from `open` and
/// `open_to`, with nothing written.
fn too_short<K: AeadKey<Nonce = [u8; 12]>>() {
    let key = vec![0x11u8; K::KEY_LEN];
    for k in each_tier_from_slice::<K>(&key) {
        for len in 0..TAG_LEN {
            let input = vec![0x22u8; len];
            assert_eq!(
                k.open(&[0u8; 12], b"", &input),
                Err(Error::Truncated),
                "decrypt, {len} bytes"
            );
            let mut out = [0xAAu8; 32];
            assert_eq!(
                k.open_to(&[0u8; 12], b"x", &input, &mut out),
                Err(Error::Truncated),
                "open_to, {len} bytes"
            );
            assert!(out.iter().all(|&b| b == 0xAA));
        }
    }
}

#[test]
fn seal_to_short_buffer_128() {
    short_encrypt_out::<Aes128Gcm>(1);
}

#[test]
fn seal_to_short_buffer_256() {
    short_encrypt_out::<Aes256Gcm>(2);
}

#[test]
fn open_to_short_buffer_128() {
    short_decrypt_out::<Aes128Gcm>(3);
}

#[test]
fn open_to_short_buffer_256() {
    short_decrypt_out::<Aes256Gcm>(4);
}

#[test]
fn long_output_buffers_128() {
    long_out::<Aes128Gcm>(5);
}

#[test]
fn long_output_buffers_256() {
    long_out::<Aes256Gcm>(6);
}

#[test]
fn ciphertext_too_short_128() {
    too_short::<Aes128Gcm>();
}

#[test]
fn ciphertext_too_short_256() {
    too_short::<Aes256Gcm>();
}

#[test]
fn gcm_siv_seal_to_short_buffer() {
    short_encrypt_out::<Aes128GcmSiv>(11);
    short_encrypt_out::<Aes256GcmSiv>(12);
}

#[test]
fn gcm_siv_open_to_short_buffer() {
    short_decrypt_out::<Aes128GcmSiv>(13);
    short_decrypt_out::<Aes256GcmSiv>(14);
}

#[test]
fn gcm_siv_long_output_buffers() {
    long_out::<Aes128GcmSiv>(15);
    long_out::<Aes256GcmSiv>(16);
}

#[test]
fn gcm_siv_ciphertext_too_short() {
    too_short::<Aes128GcmSiv>();
    too_short::<Aes256GcmSiv>();
}

/// `new_from_slice` takes exactly `K::KEY_LEN` bytes: `InvalidKeyLength` for
/// every other length from 0 to 64, and the right length builds the same key as
/// `new`.
fn key_length_checked<K: AeadKey<Nonce = [u8; 12]>>() {
    let bytes = [0x33u8; 65];
    for len in 0..=64 {
        let result = K::new_from_slice(&bytes[..len]);
        if len == K::KEY_LEN {
            assert!(result.is_ok(), "{len}-byte key refused");
        } else {
            assert_eq!(
                result.err(),
                Some(Error::InvalidKeyLength),
                "{}-byte key type with {len} bytes",
                K::KEY_LEN
            );
        }
    }
    // The slice constructor builds the same key as the array one.
    let a = K::new_from_slice(&bytes[..K::KEY_LEN]).unwrap();
    let key_bytes = K::Key::try_from(&bytes[..K::KEY_LEN])
        .ok()
        .expect("key length");
    let b = K::new(&key_bytes).unwrap();
    assert_eq!(
        a.seal(&[1; 12], b"a", b"m").unwrap(),
        b.seal(&[1; 12], b"a", b"m").unwrap()
    );
}

#[test]
fn new_from_slice_checks_the_key_length() {
    assert_eq!((Aes128Gcm::KEY_LEN, Aes256Gcm::KEY_LEN), (16, 32));
    key_length_checked::<Aes128Gcm>();
    key_length_checked::<Aes256Gcm>();
}

#[test]
fn gcm_siv_new_from_slice_checks_the_key_length() {
    assert_eq!((Aes128GcmSiv::KEY_LEN, Aes256GcmSiv::KEY_LEN), (16, 32));
    key_length_checked::<Aes128GcmSiv>();
    key_length_checked::<Aes256GcmSiv>();
}

#[test]
fn length_limits() {
    // SP 800-38D §5.2.1.1: len(P) ≤ 2^39 − 256 bits, len(A) ≤ 2^64 − 1 bits.
    assert_eq!(MAX_PLAINTEXT_LEN, (1u64 << 36) - 32);
    assert_eq!(MAX_AAD_LEN, (1u64 << 61) - 1);
    // Every call checks them first (the unit tests `check_lengths_at_the_limits`).
}

#[test]
fn gcm_siv_length_limits() {
    // RFC 8452 §6: P_MAX = A_MAX = 2^36 bytes.
    assert_eq!(siv::MAX_PLAINTEXT_LEN, 1u64 << 36);
    assert_eq!(siv::MAX_AAD_LEN, 1u64 << 36);
}

#[test]
fn errors_display_and_are_std_errors() {
    let all = [
        Error::UnsupportedCpu {
            missing: "pclmulqdq",
        },
        Error::InvalidKeyLength,
        Error::Authentication,
        Error::BufferTooSmall { needed: 4242 },
        Error::Truncated,
        Error::InputTooLong,
        Error::NonceExhausted,
        Error::Entropy,
    ];
    let mut texts = Vec::new();
    for e in all {
        let text = e.to_string();
        assert!(!text.trim().is_empty(), "{e:?} displays as nothing");
        let as_std: &dyn std::error::Error = &e;
        assert_eq!(as_std.to_string(), text);
        texts.push(text);
    }
    assert!(
        texts[0].contains("pclmulqdq"),
        "UnsupportedCpu names the missing feature: {}",
        texts[0]
    );
    assert!(
        texts[3].contains("4242"),
        "BufferTooSmall gives the length needed: {}",
        texts[3]
    );
    let mut unique = texts.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(
        unique.len(),
        texts.len(),
        "two errors display the same: {texts:?}"
    );
}

/// `Debug` of a key built from 0xC5 bytes shows none of them.
fn debug_hides<K: AeadKey + std::fmt::Debug>() {
    let key = vec![0xC5u8; K::KEY_LEN];
    let text = format!("{:?}", K::new_from_slice(&key).unwrap());
    let pretty = format!("{:#?}", K::new_from_slice(&key).unwrap());
    for text in [text, pretty] {
        assert!(!text.is_empty());
        assert!(
            !text.to_lowercase().contains("c5c5"),
            "Debug shows key bytes: {text}"
        );
        assert!(!text.contains("197, 197"), "Debug shows key bytes: {text}");
        assert!(!text.contains("197,"), "Debug shows key bytes: {text}");
    }
}

#[test]
fn debug_output_does_not_show_the_key() {
    debug_hides::<Aes128Gcm>();
    debug_hides::<Aes256Gcm>();
}

#[test]
fn gcm_siv_debug_output_does_not_show_the_key() {
    debug_hides::<Aes128GcmSiv>();
    debug_hides::<Aes256GcmSiv>();
}

#[test]
fn one_key_shared_across_threads() {
    shared_across_threads::<Aes256Gcm>();
}

#[test]
fn gcm_siv_key_shared_across_threads() {
    shared_across_threads::<Aes128GcmSiv>();
    shared_across_threads::<Aes256GcmSiv>();
}

fn shared_across_threads<K: AeadKey<Nonce = [u8; 12]> + Send + Sync + 'static>() {
    // `Send + Sync` in use: one key, sealing and opening from several threads at once.
    let key = std::sync::Arc::new(K::new_from_slice(&vec![0x44u8; K::KEY_LEN]).unwrap());
    let handles: Vec<_> = (0u8..4)
        .map(|i| {
            let key = std::sync::Arc::clone(&key);
            std::thread::spawn(move || {
                for j in 0u8..50 {
                    let nonce = [i, j, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
                    let pt = vec![i ^ j; 100 + j as usize];
                    let sealed = key.seal(&nonce, &[i], &pt).unwrap();
                    assert_eq!(key.open(&nonce, &[i], &sealed).unwrap(), pt);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a thread panicked");
    }
}

// ---------------------------------------------------------------------------
// XAES-256-GCM and KC-XAES-256-GCM (192-bit nonces; their model in
// tests/common/xaes_model.rs)
// ---------------------------------------------------------------------------

#[test]
fn xaes_bad_input_is_a_typed_error() {
    let key = Xaes256Gcm::new(&[7; 32]).unwrap();
    let nonce = [1u8; 24];
    // Key length.
    assert_eq!(
        Xaes256Gcm::new_from_slice(&[0; 16]).err(),
        Some(Error::InvalidKeyLength)
    );
    assert_eq!(
        Xaes256Gcm::new_from_slice(&[0; 33]).err(),
        Some(Error::InvalidKeyLength)
    );
    assert!(Xaes256Gcm::new_from_slice(&[0; 32]).is_ok());
    // Too short to hold a tag, or a tag and a nonce.
    for len in 0..TAG_LEN {
        assert_eq!(key.open(&nonce, b"", &vec![0; len]), Err(Error::Truncated));
        assert_eq!(
            key.open_to(&nonce, b"", &vec![0; len], &mut [0; 64]),
            Err(Error::Truncated)
        );
    }
    for len in 0..TAG_LEN + Xaes256Gcm::NONCE_LEN {
        assert_eq!(
            key.open_with_nonce_appended(b"", &vec![0; len]),
            Err(Error::Truncated),
            "{len}"
        );
        assert_eq!(
            key.open_with_nonce_appended_to(b"", &vec![0; len], &mut [0; 64]),
            Err(Error::Truncated),
            "{len}"
        );
    }
    // Output buffers one byte short: nothing written.
    let mut out = vec![0xAAu8; 5 + TAG_LEN - 1];
    assert_eq!(
        key.seal_to(&nonce, b"", b"hello", &mut out),
        Err(Error::BufferTooSmall { needed: 21 })
    );
    assert!(out.iter().all(|&b| b == 0xAA));
    let mut out = vec![0xAAu8; 5 + TAG_LEN + Xaes256Gcm::NONCE_LEN - 1];
    assert_eq!(
        key.seal_with_generated_nonce_appended_to(b"", b"hello", &mut out),
        Err(Error::BufferTooSmall { needed: 45 })
    );
    assert!(out.iter().all(|&b| b == 0xAA));
    let sealed = key.seal(&nonce, b"", b"hello").unwrap();
    let mut out = [0xAAu8; 4];
    assert_eq!(
        key.open_to(&nonce, b"", &sealed, &mut out),
        Err(Error::BufferTooSmall { needed: 5 })
    );
    assert_eq!(out, [0xAA; 4]);
    // The limits are AES-256-GCM's.
    assert_eq!(hardware_aead::xaes_gcm::MAX_PLAINTEXT_LEN, (1 << 36) - 32);
    assert_eq!(hardware_aead::xaes_gcm::MAX_AAD_LEN, (1 << 61) - 1);
}
