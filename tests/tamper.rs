//! Forgery rejection: for a set of sealed messages, flipping any single bit of
//! the ciphertext, the tag, the nonce or the AAD makes `open_to` and
//! `open_in_place_detached` return `Error::Authentication` and leave their
//! output all zero. AES-GCM and AES-GCM-SIV, both key sizes, every tier;
//! XAES-256-GCM and KC-XAES-256-GCM (last section), every bit of nonce, AAD,
//! ciphertext, tag and commitment.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;

use common::{TestRng, assert_rejected, each_tier, each_tier_from_slice, tag};
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::xaes_gcm::{KC_TAG_LEN, KcXaes256Gcm, Xaes256Gcm};
use hardware_aead::{AeadKey, Error, TAG_LEN};

const PT_LENS: [usize; 8] = [0, 1, 15, 16, 17, 64, 129, 300];
const AAD_LENS: [usize; 2] = [0, 21];

/// Opens `sealed` (ct || tag) through `open_to` (output prefilled with 0xAA)
/// and `open_in_place_detached`, expecting `Error::Authentication` and all-zero
/// outputs from both.
fn assert_forgery_rejected<K: AeadKey<Nonce = [u8; 12]>>(
    k: &K,
    nonce: &[u8; 12],
    aad: &[u8],
    sealed: &[u8],
    what: &dyn Fn() -> String,
) {
    let ct_len = sealed.len() - TAG_LEN;

    let mut out = vec![0xAAu8; ct_len];
    let result = k.open_to(nonce, aad, sealed, &mut out);
    assert!(
        result == Err(Error::Authentication),
        "{} [{:?}]: open_to returned {result:?}",
        what(),
        k.tier()
    );
    assert!(
        out.iter().all(|&b| b == 0),
        "{} [{:?}]: open_to output not wiped",
        what(),
        k.tier()
    );

    let (ct, t) = sealed.split_at(ct_len);
    let mut buffer = ct.to_vec();
    let result = k.open_in_place_detached(nonce, aad, &mut buffer, &tag(t));
    assert!(
        result == Err(Error::Authentication),
        "{} [{:?}]: open_in_place_detached returned {result:?}",
        what(),
        k.tier()
    );
    assert!(
        buffer.iter().all(|&b| b == 0),
        "{} [{:?}]: in-place buffer not wiped",
        what(),
        k.tier()
    );
}

fn flip(bytes: &mut [u8], bit: usize) {
    bytes[bit / 8] ^= 1 << (bit % 8);
}

/// Every single-bit change of one message, on every tier. Returns the number
/// of forgeries tried per tier.
fn tamper_one<K: AeadKey<Nonce = [u8; 12]>>(
    rng: &mut TestRng,
    pt_len: usize,
    aad_len: usize,
) -> usize {
    let key = rng.bytes(K::KEY_LEN);
    let nonce: [u8; 12] = rng.array();
    let aad = rng.bytes(aad_len);
    let pt = rng.bytes(pt_len);
    let mut tried = 0;

    for k in each_tier_from_slice::<K>(&key) {
        let sealed = k.seal(&nonce, &aad, &pt).expect("encrypt");
        // The unmodified message opens: the rejections below are due to the flips.
        let mut out = vec![0u8; pt_len];
        assert_eq!(k.open_to(&nonce, &aad, &sealed, &mut out), Ok(pt_len));
        assert_eq!(out, pt);
        tried = 0;

        // Ciphertext and tag bits.
        for bit in 0..sealed.len() * 8 {
            let mut forged = sealed.clone();
            flip(&mut forged, bit);
            let part = if bit < pt_len * 8 {
                "ciphertext"
            } else {
                "tag"
            };
            let what = || {
                format!(
                    "{}-byte key, pt {pt_len}, aad {aad_len}: {part} bit {bit} flipped",
                    K::KEY_LEN
                )
            };
            assert_forgery_rejected(&k, &nonce, &aad, &forged, &what);
            tried += 1;
        }
        // Nonce bits.
        for bit in 0..nonce.len() * 8 {
            let mut forged_nonce = nonce;
            flip(&mut forged_nonce, bit);
            let what = || {
                format!(
                    "{}-byte key, pt {pt_len}, aad {aad_len}: nonce bit {bit} flipped",
                    K::KEY_LEN
                )
            };
            assert_forgery_rejected(&k, &forged_nonce, &aad, &sealed, &what);
            tried += 1;
        }
        // AAD bits.
        for bit in 0..aad.len() * 8 {
            let mut forged_aad = aad.clone();
            flip(&mut forged_aad, bit);
            let what = || {
                format!(
                    "{}-byte key, pt {pt_len}, aad {aad_len}: AAD bit {bit} flipped",
                    K::KEY_LEN
                )
            };
            assert_forgery_rejected(&k, &nonce, &forged_aad, &sealed, &what);
            tried += 1;
        }
        // A byte appended to or removed from the AAD.
        let mut longer = aad.clone();
        longer.push(0);
        let what = || {
            format!(
                "{}-byte key, pt {pt_len}, aad {aad_len}: AAD extended",
                K::KEY_LEN
            )
        };
        assert_forgery_rejected(&k, &nonce, &longer, &sealed, &what);
        if let Some((_, shorter)) = aad.split_last() {
            let what = || {
                format!(
                    "{}-byte key, pt {pt_len}, aad {aad_len}: AAD truncated",
                    K::KEY_LEN
                )
            };
            assert_forgery_rejected(&k, &nonce, shorter, &sealed, &what);
        }
    }
    tried
}

fn tamper_all<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let mut tried = 0;
    for pt_len in PT_LENS {
        for aad_len in AAD_LENS {
            tried += tamper_one::<K>(&mut rng, pt_len, aad_len);
        }
    }
    // Per message: every ciphertext and tag bit, 96 nonce bits and every AAD bit.
    let expected: usize = PT_LENS.iter().map(|n| (n + TAG_LEN) * 8).sum::<usize>() * AAD_LENS.len()
        + 96 * PT_LENS.len() * AAD_LENS.len()
        + AAD_LENS.iter().sum::<usize>() * 8 * PT_LENS.len();
    assert_eq!(tried, expected);
}

#[test]
fn aes_128_single_bit_flips() {
    tamper_all::<Aes128Gcm>(0x128);
}

#[test]
fn aes_256_single_bit_flips() {
    tamper_all::<Aes256Gcm>(0x256);
}

#[test]
fn aes_128_gcm_siv_single_bit_flips() {
    tamper_all::<Aes128GcmSiv>(0x5128);
}

#[test]
fn aes_256_gcm_siv_single_bit_flips() {
    tamper_all::<Aes256GcmSiv>(0x5256);
}

/// The tag of one key does not verify under another: a wrong key is rejected.
fn wrong_key<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for pt_len in PT_LENS {
        let nonce: [u8; 12] = rng.array();
        let pt = rng.bytes(pt_len);
        let key_a = rng.bytes(K::KEY_LEN);
        let mut key_b = key_a.clone();
        key_b[K::KEY_LEN - 1] ^= 1;
        let sealed = K::new_from_slice(&key_a)
            .unwrap()
            .seal(&nonce, b"", &pt)
            .unwrap();
        for k in each_tier_from_slice::<K>(&key_b) {
            assert_forgery_rejected(&k, &nonce, b"", &sealed, &|| {
                format!("{}-byte wrong key, pt {pt_len}", K::KEY_LEN)
            });
        }
    }
}

#[test]
fn wrong_key_is_rejected() {
    wrong_key::<Aes256Gcm>(7);
}

#[test]
fn wrong_key_is_rejected_gcm_siv() {
    wrong_key::<Aes128GcmSiv>(8);
    wrong_key::<Aes256GcmSiv>(9);
}

/// A sealed message with bytes dropped from or added to its end (so that the
/// tag is read from the wrong place) is rejected, with outputs zeroed.
fn resized<K: AeadKey<Nonce = [u8; 12]>>(seed: u64) {
    let mut rng = TestRng::new(seed);
    let key = rng.bytes(K::KEY_LEN);
    let nonce: [u8; 12] = rng.array();
    for k in each_tier_from_slice::<K>(&key) {
        for pt_len in PT_LENS {
            let pt = rng.bytes(pt_len);
            let sealed = k.seal(&nonce, b"ad", &pt).unwrap();
            let mut variants = vec![
                ([&sealed[..], &[0u8][..]].concat(), "a zero byte appended"),
                (
                    [&sealed[..], &sealed[..1]].concat(),
                    "its first byte appended",
                ),
            ];
            if pt_len > 0 {
                variants.push((sealed[..sealed.len() - 1].to_vec(), "its last byte dropped"));
                variants.push((sealed[1..].to_vec(), "its first byte dropped"));
            }
            for (forged, how) in &variants {
                assert_forgery_rejected(&k, &nonce, b"ad", forged, &|| {
                    format!("{}-byte key, pt {pt_len}: {how}", K::KEY_LEN)
                });
            }
        }
    }
}

#[test]
fn resized_messages_are_rejected() {
    resized::<Aes128Gcm>(10);
    resized::<Aes256Gcm>(11);
    resized::<Aes128GcmSiv>(12);
    resized::<Aes256GcmSiv>(13);
}

// ---------------------------------------------------------------------------
// XAES-256-GCM and KC-XAES-256-GCM (192-bit nonces; their model in
// tests/common/xaes_model.rs)
// ---------------------------------------------------------------------------

/// Flipping any one bit of the nonce, the AAD, the ciphertext or the tag
/// makes every decrypt API fail and leave its output zero.
#[test]
fn xaes_every_bit_of_nonce_aad_ciphertext_and_tag_is_authenticated() {
    let mut rng = TestRng::new(0x7ae5_0002);
    for (pt_len, aad_len) in [(0, 0), (1, 3), (16, 16), (33, 7), (70, 20)] {
        let key: [u8; 32] = rng.array();
        let nonce: [u8; 24] = rng.array();
        let pt = rng.bytes(pt_len);
        let aad = rng.bytes(aad_len);
        for k in each_tier::<Xaes256Gcm>(&key) {
            let sealed = k.seal(&nonce, &aad, &pt).expect("seal");
            for bit in 0..8 * Xaes256Gcm::NONCE_LEN {
                let mut n = nonce;
                n[bit / 8] ^= 1 << (bit % 8);
                assert_rejected(&k, &n, &aad, &sealed, &format!("nonce bit {bit}"));
            }
            for bit in 0..8 * aad_len {
                let mut a = aad.clone();
                a[bit / 8] ^= 1 << (bit % 8);
                assert_rejected(&k, &nonce, &a, &sealed, &format!("AAD bit {bit}"));
            }
            for bit in 0..8 * sealed.len() {
                let mut s = sealed.clone();
                s[bit / 8] ^= 1 << (bit % 8);
                assert_rejected(&k, &nonce, &aad, &s, &format!("sealed bit {bit}"));
            }
            // The nonce-appended form: every bit of the appended nonce too.
            let appended = [sealed.clone(), nonce.to_vec()].concat();
            assert_eq!(
                k.open_with_nonce_appended(&aad, &appended).as_deref(),
                Ok(&pt[..])
            );
            for bit in 0..8 * appended.len() {
                let mut s = appended.clone();
                s[bit / 8] ^= 1 << (bit % 8);
                let mut out = vec![0xAA; pt_len];
                assert_eq!(
                    k.open_with_nonce_appended_to(&aad, &s, &mut out),
                    Err(Error::Authentication),
                    "appended bit {bit}"
                );
                assert!(
                    out.iter().all(|&b| b == 0),
                    "appended bit {bit}: output wiped"
                );
            }
        }
    }
}

/// A different key or a different nonce does not open the message.
#[test]
fn xaes_wrong_key_or_nonce_is_rejected() {
    let mut rng = TestRng::new(0x7ae5_0003);
    let (key, other): ([u8; 32], [u8; 32]) = (rng.array(), rng.array());
    let nonce: [u8; 24] = rng.array();
    let sealed = Xaes256Gcm::new(&key)
        .unwrap()
        .seal(&nonce, b"a", b"message")
        .unwrap();
    for k in each_tier::<Xaes256Gcm>(&other) {
        assert_rejected(&k, &nonce, b"a", &sealed, "other key");
    }
    // Same first half of the nonce (same Kx), other second half: other Nx.
    let mut n = nonce;
    n[23] ^= 0x80;
    for k in each_tier::<Xaes256Gcm>(&key) {
        assert_rejected(&k, &n, b"a", &sealed, "other Nx");
    }
}

/// Every bit of the nonce, the AAD, the ciphertext, the GCM tag and the
/// commitment is checked: any one flipped fails every open, output zero.
#[test]
fn kc_every_bit_is_authenticated() {
    let mut rng = TestRng::new(0x7ae5_00c2);
    for (pt_len, aad_len) in [(0, 0), (5, 3), (33, 7), (200, 20)] {
        let key: [u8; 32] = rng.array();
        let nonce: [u8; 24] = rng.array();
        let pt = rng.bytes(pt_len);
        let aad = rng.bytes(aad_len);
        for k in each_tier::<KcXaes256Gcm>(&key) {
            let sealed = k.seal(&nonce, &aad, &pt).expect("seal");
            assert_eq!(sealed.len(), pt_len + KC_TAG_LEN);
            for bit in 0..8 * Xaes256Gcm::NONCE_LEN {
                let mut n = nonce;
                n[bit / 8] ^= 1 << (bit % 8);
                assert_rejected(&k, &n, &aad, &sealed, &format!("KC nonce bit {bit}"));
            }
            for bit in 0..8 * aad_len {
                let mut a = aad.clone();
                a[bit / 8] ^= 1 << (bit % 8);
                assert_rejected(&k, &nonce, &a, &sealed, &format!("KC AAD bit {bit}"));
            }
            for bit in 0..8 * sealed.len() {
                let mut s = sealed.clone();
                s[bit / 8] ^= 1 << (bit % 8);
                assert_rejected(&k, &nonce, &aad, &s, &format!("KC sealed bit {bit}"));
            }
        }
    }
}
