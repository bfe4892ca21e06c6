//! XAES-256-GCM on every tier this CPU has: the C2SP spec's vectors and
//! intermediate values, the shared vector files, the spec's accumulated
//! randomized test (10,000 iterations here, 1,000,000 `#[ignore]`d),
//! differential tests against RustCrypto `xaes-256-gcm` and against a model
//! (the spec's KDF written out below on the slow AES of `src/model.rs`, then
//! AES-256-GCM: the model's, or this crate's `Aes256Gcm`), every length to
//! 300 bytes, tampering with every bit, bad input, generated nonces and the
//! key state's size and wiping. KC-XAES-256-GCM (`KcXaes256Gcm`, last
//! section): AWS-LC's vectors, the commitment's model, every length, every
//! bit, the API, and the property itself — a ciphertext built to open under
//! two keys opens under both as XAES-256-GCM and under one only with the
//! commitment.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;
#[path = "../src/model.rs"]
mod model;

use common::{
    AeadFormat, TestRng, assert_rejected, assert_seals_and_opens, each_tier, each_tier_from_slice,
    hex, parse_aead_file, read_committed_vector_file, read_vector_file, to_hex,
};
use hardware_aead::aes_gcm::Aes256Gcm;
use hardware_aead::placement::{KeySlot, key_state_layout};
use hardware_aead::xaes_gcm::{
    KC_TAG_LEN, KcXaes256Gcm, MAX_AAD_LEN, MAX_PLAINTEXT_LEN, Xaes256Gcm,
};
use hardware_aead::{Error, TAG_LEN};
use proptest::prelude::*;
use sha3::Shake128;
use sha3::digest::{ExtendableOutput, Update, XofReader};

// ---------------------------------------------------------------------------
// The model: the spec's key derivation, by the book
// ---------------------------------------------------------------------------

/// The spec's intermediate values for key `key` and nonce `nonce`.
struct Derivation {
    l: [u8; 16],
    k1: [u8; 16],
    m1: [u8; 16],
    m2: [u8; 16],
    kx: [u8; 32],
    nx: [u8; 12],
}

/// Steps 1 to 6 of the spec's "Detailed key derivation algorithm", on the
/// model's FIPS-197 AES.
fn derive(key: &[u8; 32], nonce: &[u8; 24]) -> Derivation {
    // 1. L = AES-256ₖ(0x00, ..., 0x00)
    let l = model::aes_encrypt_block(key, &[0u8; 16]);
    // 2. If MSB₁(L) = 0, then K1 = L << 1; Else K1 = (L << 1) ⊕ (0x00, ..., 0x00, 0b10000111)
    let mut k1 = [0u8; 16];
    for i in 0..16 {
        let carry = if i < 15 { l[i + 1] >> 7 } else { 0 };
        k1[i] = (l[i] << 1) | carry;
    }
    if l[0] & 0x80 != 0 {
        k1[15] ^= 0b1000_0111;
    }
    // 3. M1 = 0x00 || 0x01 || 0x58 || 0x00 || N[:12]; 4. M2 likewise with 0x02.
    let mut m1 = [0u8; 16];
    m1[..4].copy_from_slice(&[0x00, 0x01, 0x58, 0x00]);
    m1[4..].copy_from_slice(&nonce[..12]);
    let mut m2 = m1;
    m2[1] = 0x02;
    // 5. Kₓ = AES-256ₖ(M1 ⊕ K1) || AES-256ₖ(M2 ⊕ K1)
    let xor = |m: &[u8; 16]| -> [u8; 16] { core::array::from_fn(|i| m[i] ^ k1[i]) };
    let mut kx = [0u8; 32];
    kx[..16].copy_from_slice(&model::aes_encrypt_block(key, &xor(&m1)));
    kx[16..].copy_from_slice(&model::aes_encrypt_block(key, &xor(&m2)));
    // 6. Nₓ = N[12:]
    let mut nx = [0u8; 12];
    nx.copy_from_slice(&nonce[12..]);
    Derivation {
        l,
        k1,
        m1,
        m2,
        kx,
        nx,
    }
}

/// XAES-256-GCM by the book: the KDF above, then the model's AES-256-GCM.
fn model_seal(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let d = derive(key, nonce);
    model::gcm_seal(&d.kx, &d.nx, aad, pt)
}

/// The KDF above, then this crate's AES-256-GCM (fast enough for many cases).
fn kdf_then_aes256gcm(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let d = derive(key, nonce);
    Aes256Gcm::new(&d.kx)
        .expect("AES-256-GCM key")
        .seal(&d.nx, aad, pt)
        .expect("seal")
}

/// RustCrypto `xaes-256-gcm`.
fn rustcrypto_seal(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    use xaes_256_gcm::aead::{Aead as _, KeyInit, Payload};
    let peer = xaes_256_gcm::Xaes256Gcm::new_from_slice(key).expect("key");
    peer.encrypt(&xaes_256_gcm::Nonce::from(*nonce), Payload { msg: pt, aad })
        .expect("RustCrypto seal")
}

/// RustCrypto `xaes-256-gcm`'s open.
fn rustcrypto_open(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
    use xaes_256_gcm::aead::{Aead as _, KeyInit, Payload};
    let peer = xaes_256_gcm::Xaes256Gcm::new_from_slice(key).expect("key");
    peer.decrypt(
        &xaes_256_gcm::Nonce::from(*nonce),
        Payload { msg: sealed, aad },
    )
    .ok()
}

fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    bytes
        .try_into()
        .unwrap_or_else(|_| panic!("{} bytes, expected {N}", bytes.len()))
}

// ---------------------------------------------------------------------------
// Known answers
// ---------------------------------------------------------------------------

/// The spec's two vectors with their intermediate values, written out here
/// so that they run without the vector directory.
#[test]
fn spec_vectors() {
    struct Vector {
        key: [u8; 32],
        aad: &'static [u8],
        l: &'static str,
        k1: &'static str,
        kx: &'static str,
        sealed: &'static str,
    }
    let nonce = *b"ABCDEFGHIJKLMNOPQRSTUVWX";
    let vectors = [
        Vector {
            key: [0x01; 32],
            aad: b"",
            l: "7298caa565031eadc6ce23d23ea66378",
            k1: "e531954aca063d5b8d9c47a47d4cc6f0",
            kx: "c8612c9ed53fe43e8e005b828a1631a0bbcb6ab2f46514ec4f439fcfd0fa969b",
            sealed: "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271",
        },
        Vector {
            key: [0x03; 32],
            aad: b"c2sp.org/XAES-256-GCM",
            l: "91c08762876dccf9ba204a33768fa5fe",
            k1: "23810ec50edb99f374409466ed1f4b7b",
            kx: "e9c621d4cdd9b11b00a6427ad7e559aeedd66b3857646677748f8ca796cb3fd8",
            sealed: "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d",
        },
    ];
    for (i, v) in vectors.iter().enumerate() {
        let d = derive(&v.key, &nonce);
        assert_eq!(to_hex(&d.l), v.l, "vector {i}: L");
        assert_eq!(to_hex(&d.k1), v.k1, "vector {i}: K1");
        assert_eq!(to_hex(&d.m1), "000158004142434445464748494a4b4c");
        assert_eq!(to_hex(&d.m2), "000258004142434445464748494a4b4c");
        assert_eq!(to_hex(&d.kx), v.kx, "vector {i}: Kx");
        assert_eq!(to_hex(&d.nx), "4d4e4f505152535455565758");
        let sealed = hex(v.sealed);
        assert_eq!(model_seal(&v.key, &nonce, v.aad, b"XAES-256-GCM"), sealed);
        for k in each_tier::<Xaes256Gcm>(&v.key) {
            let what = format!("spec vector {i}");
            assert_seals_and_opens(&k, &nonce, v.aad, b"XAES-256-GCM", &sealed, &what);
        }
    }
}

/// `xaes/xaes_256_gcm.json` (the spec's vectors and intermediate values, one
/// AWS-LC vector) on every tier and in the model.
#[test]
fn json_vectors() {
    let Some(text) = read_vector_file("json_vectors", "xaes/xaes_256_gcm.json") else {
        return;
    };
    let json: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let field = |t: &serde_json::Value, name: &str| hex(t[name].as_str().expect(name));
    let mut checked = 0;
    for t in json["tests"].as_array().expect("tests") {
        let what = format!("tcId {}", t["tcId"]);
        assert_eq!(
            t["result"], "valid",
            "{what}: only valid records are expected"
        );
        let key: [u8; 32] = array(&field(t, "key"));
        let nonce: [u8; 24] = array(&field(t, "nonce"));
        let (pt, aad, sealed) = (
            field(t, "plaintext"),
            field(t, "aad"),
            field(t, "ciphertext"),
        );
        assert_eq!(sealed, [field(t, "ct"), field(t, "tag")].concat(), "{what}");
        if let Some(mid) = t.get("intermediate") {
            let d = derive(&key, &nonce);
            let expected = |name: &str| mid[name].as_str().expect(name).to_owned();
            assert_eq!(to_hex(&d.l), expected("L"), "{what}: L");
            assert_eq!(to_hex(&d.k1), expected("K1"), "{what}: K1");
            assert_eq!(to_hex(&d.m1), expected("M1"), "{what}: M1");
            assert_eq!(to_hex(&d.m2), expected("M2"), "{what}: M2");
            assert_eq!(to_hex(&d.kx), expected("Kx"), "{what}: Kx");
            assert_eq!(to_hex(&d.nx), expected("Nx"), "{what}: Nx");
        }
        assert_eq!(model_seal(&key, &nonce, &aad, &pt), sealed, "{what}: model");
        assert_eq!(
            rustcrypto_seal(&key, &nonce, &aad, &pt),
            sealed,
            "{what}: RustCrypto"
        );
        for k in each_tier::<Xaes256Gcm>(&key) {
            assert_seals_and_opens(&k, &nonce, &aad, &pt, &sealed, &what);
        }
        checked += 1;
    }
    assert_eq!(checked, 3, "the JSON file has three vectors");
}

/// `xaes/awslc_xaes_256_gcm_tests.txt` (BoringSSL/AWS-LC format) on every
/// tier.
#[test]
fn awslc_vectors() {
    let Some(text) = read_vector_file("awslc_vectors", "xaes/awslc_xaes_256_gcm_tests.txt") else {
        return;
    };
    let records = parse_aead_file(&text, AeadFormat::BoringSsl);
    assert_eq!(records.len(), 3, "the AWS-LC file has three records");
    for (i, r) in records.iter().enumerate() {
        let what = format!("AWS-LC record {i}");
        assert!(r.fails.is_none(), "{what}: only valid records are expected");
        let nonce: [u8; 24] = array(&r.nonce);
        let sealed = [r.ct.clone(), r.tag.clone()].concat();
        let key: [u8; 32] = array(&r.key);
        assert_eq!(
            model_seal(&key, &nonce, &r.aad, &r.pt),
            sealed,
            "{what}: model"
        );
        for k in each_tier_from_slice::<Xaes256Gcm>(&r.key) {
            assert_seals_and_opens(&k, &nonce, &r.aad, &r.pt, &sealed, &what);
        }
    }
}

// ---------------------------------------------------------------------------
// The spec's accumulated randomized test
// ---------------------------------------------------------------------------

/// "For each test, the following structure […] is read from a deterministic
/// RNG, and the ciphertext is hashed. The deterministic RNG is a single
/// SHAKE-128 instance with an empty input. […] The hash is a separate
/// SHAKE-128 instance." — `opaque key[32]; opaque nonce[24]; opaque
/// plaintext<0..255>; opaque aad<0..255>;`, each variable field after a
/// one-byte length. Every iteration also opens the ciphertext. Returns the
/// hash's first 32 bytes, in hex, per tier.
fn accumulated(iterations: usize) -> Vec<(String, String)> {
    let keys_per_backend = each_tier::<Xaes256Gcm>(&[0; 32]);
    let mut results = Vec::new();
    for probe in keys_per_backend {
        let tier = probe.tier();
        let mut rng = Shake128::default().finalize_xof();
        let mut hash = Shake128::default();
        let mut read = |n: usize| {
            let mut out = vec![0u8; n];
            rng.read(&mut out);
            out
        };
        for i in 0..iterations {
            let key: [u8; 32] = array(&read(32));
            let nonce: [u8; 24] = array(&read(24));
            let pt_len = read(1)[0] as usize;
            let pt = read(pt_len);
            let aad_len = read(1)[0] as usize;
            let aad = read(aad_len);
            let k = Xaes256Gcm::with_tier(&key, tier).expect("key");
            let sealed = k.seal(&nonce, &aad, &pt).expect("seal");
            assert_eq!(
                k.open(&nonce, &aad, &sealed).as_deref(),
                Ok(&pt[..]),
                "[{tier:?}] iteration {i}: open"
            );
            hash.update(&sealed);
        }
        let mut digest = [0u8; 32];
        hash.finalize_xof().read(&mut digest);
        results.push((format!("{tier:?}"), to_hex(&digest)));
    }
    results
}

#[test]
fn accumulated_10_000() {
    // The RNG's first bytes, as the spec gives them.
    let mut first = [0u8; 16];
    Shake128::default().finalize_xof().read(&mut first);
    assert_eq!(to_hex(&first), "7f9c2ba4e88f827d616045507605853e");
    for (tier, digest) in accumulated(10_000) {
        assert_eq!(
            digest, "e6b9edf2df6cec60c8cbd864e2211b597fb69a529160cd040d56c0c210081939",
            "{tier}"
        );
    }
}

#[test]
#[ignore = "1,000,000 iterations per tier: run with --release --ignored"]
fn accumulated_1_000_000() {
    for (tier, digest) in accumulated(1_000_000) {
        assert_eq!(
            digest, "2163ae1445985a30b60585ee67daa55674df06901b890593e824b8a7c885ab15",
            "{tier}"
        );
    }
}

// ---------------------------------------------------------------------------
// Differential
// ---------------------------------------------------------------------------

/// Every plaintext length from 0 to 300 bytes (every tier's short paths and
/// the first groups of the wide ones) with AAD lengths that cross one and
/// eight blocks, and longer lengths around the group boundaries: every
/// tier against the model (the slow one up to 64 bytes, the KDF with this
/// crate's AES-256-GCM beyond), and against RustCrypto.
#[test]
fn every_length_matches_the_model_and_rustcrypto() {
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
    fn differential(seed in any::<u64>(), pt_len in 0usize..=2100, aad_len in 0usize..=300, offset in 1usize..16) {
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

// ---------------------------------------------------------------------------
// Tampering, bad input
// ---------------------------------------------------------------------------

/// Flipping any one bit of the nonce, the AAD, the ciphertext or the tag
/// makes every decrypt API fail and leave its output zero.
#[test]
fn every_bit_of_nonce_aad_ciphertext_and_tag_is_authenticated() {
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
fn wrong_key_or_nonce_is_rejected() {
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

#[test]
fn bad_input_is_a_typed_error() {
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
    assert_eq!(MAX_PLAINTEXT_LEN, (1 << 36) - 32);
    assert_eq!(MAX_AAD_LEN, (1 << 61) - 1);
}

// ---------------------------------------------------------------------------
// Generated nonces, key state
// ---------------------------------------------------------------------------

#[test]
fn generated_nonces_are_random_and_appended_after_the_tag() {
    let key = Xaes256Gcm::new(&[9; 32]).unwrap();
    let mut seen = std::collections::HashSet::new();
    for i in 0..2000usize {
        let pt = vec![i as u8; i % 50];
        let sealed = key.seal_with_generated_nonce_appended(b"ad", &pt).unwrap();
        assert_eq!(sealed.len(), pt.len() + TAG_LEN + Xaes256Gcm::NONCE_LEN);
        let nonce: [u8; 24] = array(&sealed[sealed.len() - Xaes256Gcm::NONCE_LEN..]);
        assert!(seen.insert(nonce), "a generated nonce repeated");
        assert_eq!(
            key.seal(&nonce, b"ad", &pt).unwrap(),
            sealed[..sealed.len() - Xaes256Gcm::NONCE_LEN]
        );
        assert_eq!(key.open_with_nonce_appended(b"ad", &sealed).unwrap(), pt);
        let mut out = vec![0u8; pt.len()];
        assert_eq!(
            key.open_with_nonce_appended_to(b"ad", &sealed, &mut out),
            Ok(pt.len())
        );
        assert_eq!(out, pt);
    }
    let (nonce, sealed) = key.seal_with_generated_nonce(b"", b"x").unwrap();
    assert!(!seen.contains(&nonce));
    assert_eq!(key.open(&nonce, b"", &sealed).unwrap(), b"x");
    // No byte position of the nonces is constant (a counter or a fixed salt
    // would leave some): each takes many values over 2000 nonces.
    for i in 0..Xaes256Gcm::NONCE_LEN {
        let values: std::collections::HashSet<u8> = seen.iter().map(|n| n[i]).collect();
        assert!(
            values.len() > 100,
            "nonce byte {i} takes only {} values",
            values.len()
        );
    }
    let mut out = [0u8; 64];
    let n = key
        .seal_with_generated_nonce_appended_to(b"", b"abc", &mut out)
        .unwrap();
    assert_eq!(n, 3 + TAG_LEN + Xaes256Gcm::NONCE_LEN);
    assert_eq!(
        key.open_with_nonce_appended(b"", &out[..n]).unwrap(),
        b"abc"
    );
}

#[test]
fn generated_nonces_from_many_threads() {
    let key = std::sync::Arc::new(Xaes256Gcm::new(&[3; 32]).unwrap());
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let key = std::sync::Arc::clone(&key);
            std::thread::spawn(move || {
                (0..200)
                    .map(|_| {
                        let (nonce, sealed) = key.seal_with_generated_nonce(b"", b"m").unwrap();
                        assert_eq!(key.open(&nonce, b"", &sealed).unwrap(), b"m");
                        nonce
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut all = std::collections::HashSet::new();
    for h in handles {
        for n in h.join().unwrap() {
            assert!(all.insert(n), "a nonce repeated across threads");
        }
    }
}

#[test]
fn key_state_is_small_and_wiped() {
    assert!(
        size_of::<Xaes256Gcm>() <= 300,
        "{} bytes",
        size_of::<Xaes256Gcm>()
    );
    assert_eq!(
        key_state_layout::<Xaes256Gcm>().size(),
        size_of::<Xaes256Gcm>()
    );
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Xaes256Gcm>();

    let mut slot = KeySlot::<Xaes256Gcm>::new();
    {
        let key = Xaes256Gcm::new_in(&mut slot, &[0x5c; 32]).unwrap();
        let sealed = key.seal(&[2; 24], b"", b"placed").unwrap();
        assert_eq!(
            Xaes256Gcm::new(&[0x5c; 32])
                .unwrap()
                .open(&[2; 24], b"", &sealed)
                .unwrap(),
            b"placed"
        );
        let debug = format!("{:?}", *key);
        assert!(debug.starts_with("Xaes256Gcm"), "{debug}");
        assert!(!debug.contains("5c") && !debug.contains("92"), "{debug}");
    }
    // SAFETY: the slot's storage is `size_of::<Xaes256Gcm>()` bytes; after the
    // guard's drop it holds no live value and is read as bytes.
    let bytes = unsafe {
        core::slice::from_raw_parts((&raw const slot).cast::<u8>(), size_of::<Xaes256Gcm>())
    };
    assert!(bytes.iter().all(|&b| b == 0), "the slot was not wiped");
}

#[test]
fn new_at_builds_the_same_key() {
    use std::alloc::{alloc, dealloc};
    let layout = key_state_layout::<Xaes256Gcm>();
    // SAFETY: the layout has a non-zero size.
    let at = unsafe { alloc(layout) }.cast::<Xaes256Gcm>();
    assert!(!at.is_null());
    // SAFETY: `at` is a fresh allocation of the key's layout.
    unsafe { Xaes256Gcm::new_at(at, &[0x01; 32]).unwrap() };
    // SAFETY: initialised just above.
    let key = unsafe { &*at };
    let sealed = key
        .seal(b"ABCDEFGHIJKLMNOPQRSTUVWX", b"", b"XAES-256-GCM")
        .unwrap();
    assert_eq!(
        to_hex(&sealed),
        "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271"
    );
    // SAFETY: dropped once, then freed.
    unsafe {
        core::ptr::drop_in_place(at);
        dealloc(at.cast(), layout);
    }
}

// ---------------------------------------------------------------------------
// KC-XAES-256-GCM
// ---------------------------------------------------------------------------

/// The key commitment of IACR ePrint 2025/758 (AWS-LC's key-committing
/// XAES-256-GCM), by the book on the model's AES: X = AES-256ₖ("XCMT" ‖
/// N[:12]); KCᵢ = AES-256ₖ(X ⊕ (N[12:] ‖ 0x00 0x01 0x00 i) ⊕ K1), i = 1, 2.
fn model_commitment(key: &[u8; 32], nonce: &[u8; 24]) -> [u8; 32] {
    let d = derive(key, nonce);
    let mut x0 = [0u8; 16];
    x0[..4].copy_from_slice(b"XCMT");
    x0[4..].copy_from_slice(&nonce[..12]);
    let x = model::aes_encrypt_block(key, &x0);
    let mut out = [0u8; 32];
    for i in 1..=2u8 {
        let mut t = [0u8; 16];
        t[..12].copy_from_slice(&nonce[12..]);
        t[12..].copy_from_slice(&[0x00, 0x01, 0x00, i]);
        let w: [u8; 16] = core::array::from_fn(|j| x[j] ^ t[j] ^ d.k1[j]);
        let at = 16 * usize::from(i - 1);
        out[at..at + 16].copy_from_slice(&model::aes_encrypt_block(key, &w));
    }
    out
}

/// KC-XAES-256-GCM by the book: XAES-256-GCM's `ciphertext ‖ tag` (the
/// slow model up to 64 bytes, the KDF and this crate's AES-256-GCM beyond),
/// then the commitment.
fn model_kc_seal(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let mut sealed = if pt.len() <= 64 {
        model_seal(key, nonce, aad, pt)
    } else {
        kdf_then_aes256gcm(key, nonce, aad, pt)
    };
    sealed.extend_from_slice(&model_commitment(key, nonce));
    sealed
}

/// `xaes/awslc_xaes_256_gcm_kc_tests.txt` (AWS-LC's key-committing
/// XAES-256-GCM, `TAG` = GCM tag ‖ commitment) on every tier, and the
/// model against it.
#[test]
fn kc_awslc_vectors() {
    let Some(text) =
        read_committed_vector_file("kc_awslc_vectors", "xaes/awslc_xaes_256_gcm_kc_tests.txt")
    else {
        return;
    };
    let records = parse_aead_file(&text, AeadFormat::BoringSsl);
    assert_eq!(records.len(), 3, "the AWS-LC KC file has three records");
    for (i, r) in records.iter().enumerate() {
        let what = format!("AWS-LC KC record {i}");
        assert!(r.fails.is_none(), "{what}: only valid records are expected");
        assert_eq!(r.tag.len(), KC_TAG_LEN, "{what}: tag and commitment");
        let nonce: [u8; 24] = array(&r.nonce);
        let key: [u8; 32] = array(&r.key);
        let sealed = [r.ct.clone(), r.tag.clone()].concat();
        assert_eq!(
            model_kc_seal(&key, &nonce, &r.aad, &r.pt),
            sealed,
            "{what}: model"
        );
        for k in each_tier_from_slice::<KcXaes256Gcm>(&r.key) {
            assert_seals_and_opens(&k, &nonce, &r.aad, &r.pt, &sealed, &what);
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

/// The whole `AeadKey` surface on KC-XAES-256-GCM: lengths, too-short inputs,
/// generated nonces (24 random bytes, appended after the 48-byte tag),
/// placement, the key state's size (XAES-256-GCM's) and wiping.
#[test]
fn kc_api_lengths_generated_nonces_and_key_state() {
    assert_eq!(KcXaes256Gcm::TAG_LEN, 48);
    assert_eq!(KcXaes256Gcm::NONCE_LEN, 24);
    assert_eq!(size_of::<KcXaes256Gcm>(), size_of::<Xaes256Gcm>());
    let key = KcXaes256Gcm::new(&[0x5c; 32]).unwrap();
    let nonce = [1u8; 24];
    for len in 0..KC_TAG_LEN {
        assert_eq!(
            key.open(&nonce, b"", &vec![0; len]),
            Err(Error::Truncated),
            "{len}"
        );
        assert_eq!(
            key.open_to(&nonce, b"", &vec![0; len], &mut [0; 64]),
            Err(Error::Truncated),
            "{len}"
        );
    }
    for len in 0..KC_TAG_LEN + Xaes256Gcm::NONCE_LEN {
        assert_eq!(
            key.open_with_nonce_appended(b"", &vec![0; len]),
            Err(Error::Truncated),
            "{len}"
        );
    }
    let mut out = vec![0xAAu8; 5 + KC_TAG_LEN - 1];
    assert_eq!(
        key.seal_to(&nonce, b"", b"hello", &mut out),
        Err(Error::BufferTooSmall {
            needed: 5 + KC_TAG_LEN
        })
    );
    assert!(out.iter().all(|&b| b == 0xAA));

    let mut seen = std::collections::HashSet::new();
    for i in 0..200usize {
        let pt = vec![i as u8; i % 40];
        let sealed = key.seal_with_generated_nonce_appended(b"ad", &pt).unwrap();
        assert_eq!(sealed.len(), pt.len() + KC_TAG_LEN + Xaes256Gcm::NONCE_LEN);
        let n: [u8; 24] = array(&sealed[sealed.len() - Xaes256Gcm::NONCE_LEN..]);
        assert!(seen.insert(n), "a generated nonce repeated");
        assert_eq!(
            key.seal(&n, b"ad", &pt).unwrap(),
            sealed[..sealed.len() - Xaes256Gcm::NONCE_LEN]
        );
        assert_eq!(key.open_with_nonce_appended(b"ad", &sealed).unwrap(), pt);
    }
    let (n, sealed) = key.seal_with_generated_nonce(b"", b"x").unwrap();
    assert_eq!(key.open(&n, b"", &sealed).unwrap(), b"x");

    let mut slot = KeySlot::<KcXaes256Gcm>::new();
    {
        let placed = KcXaes256Gcm::new_in(&mut slot, &[0x5c; 32]).unwrap();
        let sealed = placed.seal(&[2; 24], b"", b"placed").unwrap();
        assert_eq!(key.open(&[2; 24], b"", &sealed).unwrap(), b"placed");
        let debug = format!("{:?}", *placed);
        assert!(debug.starts_with("KcXaes256Gcm"), "{debug}");
        assert!(!debug.contains("5c") && !debug.contains("92"), "{debug}");
    }
    // SAFETY: the slot's storage is `size_of::<KcXaes256Gcm>()` bytes; after
    // the guard's drop it holds no live value and is read as bytes.
    let bytes = unsafe {
        core::slice::from_raw_parts((&raw const slot).cast::<u8>(), size_of::<KcXaes256Gcm>())
    };
    assert!(bytes.iter().all(|&b| b == 0), "the slot was not wiped");
}

/// 1 in GHASH's field (its bit order: the first bit is the coefficient of x⁰).
const GF_ONE: [u8; 16] = {
    let mut one = [0u8; 16];
    one[0] = 0x80;
    one
};

/// The inverse of `x` ≠ 0 in GHASH's field: x^(2^128 − 2), by squaring and
/// multiplying on the model's field multiply.
fn gf128_inverse(x: &[u8; 16]) -> [u8; 16] {
    // 2^128 − 2 is 127 one bits, then a zero: from the top, square and
    // multiply 127 times, then square.
    let mut result = GF_ONE;
    for _ in 0..127 {
        result = model::gf128_mul(&model::gf128_mul(&result, &result), x);
    }
    model::gf128_mul(&result, &result)
}

fn xor16(a: &[u8; 16], b: &[u8; 16]) -> [u8; 16] {
    core::array::from_fn(|i| a[i] ^ b[i])
}

/// One AES-GCM ciphertext, two blocks with no AAD, that opens under two
/// XAES-256-GCM keys (the invisible-salamanders construction): for
/// ciphertext C₁ ‖ C₂, GHASH = C₁·H³ ⊕ C₂·H² ⊕ L·H, so the two keys' tags
/// are equal when C₂·(Ha² ⊕ Hb²) = C₁·(Ha³ ⊕ Hb³) ⊕ L·(Ha ⊕ Hb) ⊕ Ea(J0) ⊕
/// Eb(J0): C₁ is chosen, C₂ solved for. Returns `C ‖ tag`.
fn salamander(key_a: &[u8; 32], key_b: &[u8; 32], nonce: &[u8; 24], c1: [u8; 16]) -> Vec<u8> {
    let (da, db) = (derive(key_a, nonce), derive(key_b, nonce));
    let (ha, hb) = (
        model::gcm_hash_subkey(&da.kx),
        model::gcm_hash_subkey(&db.kx),
    );
    let j0 = model::gcm_j0(&da.nx);
    let (ea, eb) = (
        model::aes_encrypt_block(&da.kx, &j0),
        model::aes_encrypt_block(&db.kx, &j0),
    );
    let mut len_block = [0u8; 16];
    len_block[8..].copy_from_slice(&256u64.to_be_bytes());
    let sq = |h: &[u8; 16]| model::gf128_mul(h, h);
    let (ha2, hb2) = (sq(&ha), sq(&hb));
    let (ha3, hb3) = (model::gf128_mul(&ha2, &ha), model::gf128_mul(&hb2, &hb));
    let rhs = xor16(
        &xor16(
            &model::gf128_mul(&c1, &xor16(&ha3, &hb3)),
            &model::gf128_mul(&len_block, &xor16(&ha, &hb)),
        ),
        &xor16(&ea, &eb),
    );
    let c2 = model::gf128_mul(&rhs, &gf128_inverse(&xor16(&ha2, &hb2)));
    let ct = [c1, c2].concat();
    let tag_a = model::gcm_tag(&da.kx, &da.nx, b"", &ct);
    assert_eq!(
        tag_a,
        model::gcm_tag(&db.kx, &db.nx, b"", &ct),
        "the construction failed"
    );
    [ct, tag_a.to_vec()].concat()
}

/// The property KC-XAES-256-GCM exists for. A ciphertext built to open
/// under two keys opens under both with XAES-256-GCM, to two different
/// plaintexts, on every tier; with the commitment of either key
/// appended, KC-XAES-256-GCM opens it under that key only.
#[test]
fn kc_refuses_a_ciphertext_built_for_two_keys() {
    let mut rng = TestRng::new(0x7ae5_00c3);
    let x: [u8; 16] = rng.array();
    assert_eq!(
        model::gf128_mul(&x, &gf128_inverse(&x)),
        GF_ONE,
        "the model's inverse"
    );
    for _ in 0..4 {
        let (key_a, key_b): ([u8; 32], [u8; 32]) = (rng.array(), rng.array());
        let nonce: [u8; 24] = rng.array();
        let sealed = salamander(&key_a, &key_b, &nonce, rng.array());
        let (mut opened_a, mut opened_b) = (None, None);
        for (ka, kb) in each_tier::<Xaes256Gcm>(&key_a)
            .iter()
            .zip(each_tier::<Xaes256Gcm>(&key_b))
        {
            let a = ka
                .open(&nonce, b"", &sealed)
                .expect("XAES-256-GCM opens it under key A");
            let b = kb
                .open(&nonce, b"", &sealed)
                .expect("XAES-256-GCM opens it under key B");
            assert_ne!(a, b, "two keys, two plaintexts");
            assert_eq!(*opened_a.get_or_insert(a.clone()), a);
            assert_eq!(*opened_b.get_or_insert(b.clone()), b);
        }
        for (key, other, plaintext) in [(&key_a, &key_b, &opened_a), (&key_b, &key_a, &opened_b)] {
            let committed = [sealed.clone(), model_commitment(key, &nonce).to_vec()].concat();
            for (k, wrong) in each_tier::<KcXaes256Gcm>(key)
                .iter()
                .zip(each_tier::<KcXaes256Gcm>(other))
            {
                assert_eq!(
                    k.open(&nonce, b"", &committed).ok(),
                    *plaintext,
                    "{:?}",
                    k.tier()
                );
                assert_rejected(&wrong, &nonce, b"", &committed, "KC under the other key");
            }
        }
    }
}
