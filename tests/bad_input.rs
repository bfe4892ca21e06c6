//! Inputs the API must refuse, and how: short output buffers, inputs shorter
//! than a tag, wrong key lengths, the SP 800-38D length limits, and the traits
//! the public types promise.

mod common;

use common::{TestRng, each_backend_from_slice};
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm, MAX_AAD_LEN, MAX_PLAINTEXT_LEN, check_lengths};
use hardware_aead::{Aead, Error, Nonce, TAG_LEN};

// Keys are `Send + Sync` (api.md): checked at compile time.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Aes128Gcm>();
    assert_send_sync::<Aes256Gcm>();
    assert_send_sync::<Error>();
};

const PT_LENS: [usize; 5] = [0, 1, 16, 17, 100];

/// `encrypt_to` with every too-short output length: `BufferTooSmall { needed }`
/// and not one byte written.
fn short_encrypt_out<K: Aead>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let key = rng.bytes(K::KEY_LEN);
    let nonce: Nonce = rng.array();
    for k in each_backend_from_slice::<K>(&key) {
        for pt_len in PT_LENS {
            let pt = rng.bytes(pt_len);
            let needed = pt_len + TAG_LEN;
            for out_len in 0..needed {
                let mut out = vec![0xAAu8; out_len];
                assert_eq!(
                    k.encrypt_to(&nonce, b"aad", &pt, &mut out),
                    Err(Error::BufferTooSmall { needed }),
                    "[{:?}] pt {pt_len}, out {out_len}",
                    k.backend()
                );
                assert!(
                    out.iter().all(|&b| b == 0xAA),
                    "[{:?}] encrypt_to wrote into a short buffer",
                    k.backend()
                );
            }
        }
    }
}

/// `decrypt_to` with every too-short output length: `BufferTooSmall { needed }`
/// (needed = the plaintext length) and not one byte written.
fn short_decrypt_out<K: Aead>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let key = rng.bytes(K::KEY_LEN);
    let nonce: Nonce = rng.array();
    for k in each_backend_from_slice::<K>(&key) {
        for pt_len in PT_LENS {
            let sealed = k.encrypt(&nonce, b"aad", &rng.bytes(pt_len)).unwrap();
            for out_len in 0..pt_len {
                let mut out = vec![0xAAu8; out_len];
                assert_eq!(
                    k.decrypt_to(&nonce, b"aad", &sealed, &mut out),
                    Err(Error::BufferTooSmall { needed: pt_len }),
                    "[{:?}] pt {pt_len}, out {out_len}",
                    k.backend()
                );
                assert!(
                    out.iter().all(|&b| b == 0xAA),
                    "[{:?}] decrypt_to wrote into a short buffer",
                    k.backend()
                );
            }
        }
    }
}

/// Longer output buffers are fine: the length is returned and the bytes past it
/// are left as they were.
fn long_out<K: Aead>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let key = rng.bytes(K::KEY_LEN);
    let nonce: Nonce = rng.array();
    for k in each_backend_from_slice::<K>(&key) {
        for pt_len in PT_LENS {
            let pt = rng.bytes(pt_len);
            let sealed = k.encrypt(&nonce, b"", &pt).unwrap();

            let mut out = vec![0xAAu8; sealed.len() + 33];
            assert_eq!(k.encrypt_to(&nonce, b"", &pt, &mut out), Ok(sealed.len()));
            assert_eq!(out[..sealed.len()], sealed[..]);
            assert!(
                out[sealed.len()..].iter().all(|&b| b == 0xAA),
                "encrypt_to wrote past its output"
            );

            let mut out = vec![0xAAu8; pt_len + 33];
            assert_eq!(k.decrypt_to(&nonce, b"", &sealed, &mut out), Ok(pt_len));
            assert_eq!(out[..pt_len], pt[..]);
            assert!(
                out[pt_len..].iter().all(|&b| b == 0xAA),
                "decrypt_to wrote past its output"
            );
        }
    }
}

/// Inputs of 0..16 bytes hold no tag: `CiphertextTooShort` from `decrypt` and
/// `decrypt_to`, with nothing written.
fn too_short<K: Aead>() {
    let key = vec![0x11u8; K::KEY_LEN];
    for k in each_backend_from_slice::<K>(&key) {
        for len in 0..TAG_LEN {
            let input = vec![0x22u8; len];
            assert_eq!(
                k.decrypt(&[0u8; 12], b"", &input),
                Err(Error::CiphertextTooShort),
                "decrypt, {len} bytes"
            );
            let mut out = [0xAAu8; 32];
            assert_eq!(
                k.decrypt_to(&[0u8; 12], b"x", &input, &mut out),
                Err(Error::CiphertextTooShort),
                "decrypt_to, {len} bytes"
            );
            assert!(out.iter().all(|&b| b == 0xAA));
        }
    }
}

#[test]
fn encrypt_to_short_buffer_128() {
    short_encrypt_out::<Aes128Gcm>(1);
}

#[test]
fn encrypt_to_short_buffer_256() {
    short_encrypt_out::<Aes256Gcm>(2);
}

#[test]
fn decrypt_to_short_buffer_128() {
    short_decrypt_out::<Aes128Gcm>(3);
}

#[test]
fn decrypt_to_short_buffer_256() {
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
fn new_from_slice_checks_the_key_length() {
    let bytes = [0x33u8; 65];
    for len in 0..=64 {
        let r128 = Aes128Gcm::new_from_slice(&bytes[..len]);
        let r256 = Aes256Gcm::new_from_slice(&bytes[..len]);
        if len == 16 {
            assert!(r128.is_ok());
        } else {
            assert_eq!(
                r128.err(),
                Some(Error::InvalidKeyLength),
                "AES-128 with {len} bytes"
            );
        }
        if len == 32 {
            assert!(r256.is_ok());
        } else {
            assert_eq!(
                r256.err(),
                Some(Error::InvalidKeyLength),
                "AES-256 with {len} bytes"
            );
        }
    }
    // The slice constructor builds the same key as the array one.
    let a = Aes128Gcm::new_from_slice(&bytes[..16]).unwrap();
    let b = Aes128Gcm::new(&[0x33u8; 16]).unwrap();
    assert_eq!(
        a.encrypt(&[1; 12], b"a", b"m").unwrap(),
        b.encrypt(&[1; 12], b"a", b"m").unwrap()
    );
}

#[test]
fn length_limits() {
    // SP 800-38D §5.2.1.1: len(P) ≤ 2^39 − 256 bits, len(A) ≤ 2^64 − 1 bits.
    assert_eq!(MAX_PLAINTEXT_LEN, (1u64 << 36) - 32);
    assert_eq!(MAX_AAD_LEN, (1u64 << 61) - 1);

    assert_eq!(check_lengths(0, 0), Ok(()));
    assert_eq!(check_lengths(0, MAX_PLAINTEXT_LEN), Ok(()));
    assert_eq!(
        check_lengths(0, MAX_PLAINTEXT_LEN + 1),
        Err(Error::InputTooLong)
    );
    assert_eq!(check_lengths(MAX_AAD_LEN, 0), Ok(()));
    assert_eq!(check_lengths(MAX_AAD_LEN + 1, 0), Err(Error::InputTooLong));
    assert_eq!(check_lengths(MAX_AAD_LEN, MAX_PLAINTEXT_LEN), Ok(()));
    assert_eq!(
        check_lengths(MAX_AAD_LEN + 1, MAX_PLAINTEXT_LEN + 1),
        Err(Error::InputTooLong)
    );
    assert_eq!(check_lengths(u64::MAX, 0), Err(Error::InputTooLong));
    assert_eq!(check_lengths(0, u64::MAX), Err(Error::InputTooLong));
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
        Error::CiphertextTooShort,
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

#[test]
fn debug_output_does_not_show_the_key() {
    let key = [0xC5u8; 32];
    let text = format!("{:?}", Aes256Gcm::new(&key).unwrap());
    assert!(!text.is_empty());
    assert!(
        !text.to_lowercase().contains("c5c5"),
        "Debug shows key bytes: {text}"
    );
    assert!(!text.contains("197, 197"), "Debug shows key bytes: {text}");
}

#[test]
fn one_key_shared_across_threads() {
    // `Send + Sync` in use: one key, sealing and opening from several threads at once.
    let key = std::sync::Arc::new(Aes256Gcm::new(&[0x44u8; 32]).unwrap());
    let handles: Vec<_> = (0u8..4)
        .map(|i| {
            let key = std::sync::Arc::clone(&key);
            std::thread::spawn(move || {
                for j in 0u8..50 {
                    let nonce = [i, j, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
                    let pt = vec![i ^ j; 100 + j as usize];
                    let sealed = key.encrypt(&nonce, &[i], &pt).unwrap();
                    assert_eq!(key.decrypt(&nonce, &[i], &sealed).unwrap(), pt);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a thread panicked");
    }
}
