//! Unit tests of `model` (a child module: it reaches private items).

use super::*;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    assert_eq!(s.len() % 2, 0, "odd-length hex");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex digit"))
        .collect()
}

fn block(s: &str) -> Block {
    hex(s).try_into().expect("16 bytes")
}

fn nonce(s: &str) -> [u8; 12] {
    hex(s).try_into().expect("12 bytes")
}

#[test]
fn sbox_spot_values() {
    // FIPS-197 Figure 7: S(0x00) = 0x63, S(0x53) = 0xed, S(0xff) = 0x16.
    assert_eq!(sub_byte(0x00), 0x63);
    assert_eq!(sub_byte(0x53), 0xed);
    assert_eq!(sub_byte(0xff), 0x16);
    // A permutation.
    let mut seen = [false; 256];
    for &x in sbox_table() {
        assert!(!seen[x as usize]);
        seen[x as usize] = true;
    }
}

#[test]
fn fips197_key_expansion_appendix_a1() {
    // FIPS-197 Appendix A.1: the last word of the AES-128 schedule, w[43].
    let w = key_expansion(&hex("2b7e151628aed2a6abf7158809cf4f3c"), sbox_table());
    assert_eq!(w.len(), 44);
    assert_eq!(w[4], [0xa0, 0xfa, 0xfe, 0x17]);
    assert_eq!(w[43], [0xb6, 0x63, 0x0c, 0xa6]);
}

#[test]
fn fips197_appendix_c1_aes128() {
    let key = hex("000102030405060708090a0b0c0d0e0f");
    let pt = block("00112233445566778899aabbccddeeff");
    assert_eq!(
        aes_encrypt_block(&key, &pt),
        block("69c4e0d86a7b0430d8cdb78070b4c55a")
    );
}

#[test]
fn fips197_appendix_c3_aes256() {
    let key = hex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
    let pt = block("00112233445566778899aabbccddeeff");
    assert_eq!(
        aes_encrypt_block(&key, &pt),
        block("8ea2b7ca516745bfeafc49904b496089")
    );
}

/// (key, iv, plaintext, aad, ciphertext, tag): McGrew & Viega, "The Galois/Counter
/// Mode of Operation (GCM)", Appendix B, test cases 1–4 and 13–16.
const GCM_SPEC_CASES: &[(&str, &str, &str, &str, &str, &str)] = &[
    // Test case 1
    (
        "00000000000000000000000000000000",
        "000000000000000000000000",
        "",
        "",
        "",
        "58e2fccefa7e3061367f1d57a4e7455a",
    ),
    // Test case 2
    (
        "00000000000000000000000000000000",
        "000000000000000000000000",
        "00000000000000000000000000000000",
        "",
        "0388dace60b6a392f328c2b971b2fe78",
        "ab6e47d42cec13bdf53a67b21257bddf",
    ),
    // Test case 3
    (
        "feffe9928665731c6d6a8f9467308308",
        "cafebabefacedbaddecaf888",
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
         1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
        "",
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
         21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
        "4d5c2af327cd64a62cf35abd2ba6fab4",
    ),
    // Test case 4
    (
        "feffe9928665731c6d6a8f9467308308",
        "cafebabefacedbaddecaf888",
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
         1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39",
        "feedfacedeadbeeffeedfacedeadbeefabaddad2",
        "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e\
         21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
        "5bc94fbc3221a5db94fae95ae7121a47",
    ),
    // Test case 13
    (
        "0000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000",
        "",
        "",
        "",
        "530f8afbc74536b9a963b4f1c4cb738b",
    ),
    // Test case 14
    (
        "0000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000",
        "00000000000000000000000000000000",
        "",
        "cea7403d4d606b6e074ec5d3baf39d18",
        "d0d1c8a799996bf0265b98b5d48ab919",
    ),
    // Test case 15
    (
        "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308",
        "cafebabefacedbaddecaf888",
        "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
         1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255",
        "",
        "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa\
         8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
        "b094dac5d93471bdec1a502270e3cc6c",
    ),
    // Test case 16
    (
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
    for (i, &(key, iv, pt, aad, ct, tag)) in GCM_SPEC_CASES.iter().enumerate() {
        let (key, iv, pt, aad) = (hex(key), nonce(iv), hex(pt), hex(aad));
        let mut expected = hex(ct);
        expected.extend_from_slice(&hex(tag));
        let sealed = gcm_seal(&key, &iv, &aad, &pt);
        assert_eq!(sealed, expected, "seal, case index {i}");
        assert_eq!(
            gcm_open(&key, &iv, &aad, &sealed),
            Some(pt),
            "open, case index {i}"
        );
        // Any changed bit of the tag or ciphertext is rejected.
        let mut forged = sealed.clone();
        *forged.last_mut().unwrap() ^= 1;
        assert_eq!(
            gcm_open(&key, &iv, &aad, &forged),
            None,
            "forged tag, case index {i}"
        );
        forged = sealed.clone();
        forged[0] ^= 0x80;
        assert_eq!(
            gcm_open(&key, &iv, &aad, &forged),
            None,
            "forged first byte, case index {i}"
        );
    }
}

#[test]
fn gcm_spec_hash_subkeys() {
    // McGrew & Viega, Appendix B: H for test cases 1 and 3.
    assert_eq!(
        gcm_hash_subkey(&[0u8; 16]),
        block("66e94bd4ef8a2c3b884cfa59ca342b2e")
    );
    assert_eq!(
        gcm_hash_subkey(&hex("feffe9928665731c6d6a8f9467308308")),
        block("b83b533708bf535d0aa6e52980d53b78")
    );
}

#[test]
fn gcm_open_rejects_short_input() {
    for len in 0..16 {
        assert_eq!(gcm_open(&[0u8; 16], &[0u8; 12], &[], &vec![0u8; len]), None);
    }
}

#[test]
fn gf128_mul_identity_and_commutativity() {
    // The multiplicative identity is the block with only bit 0 (leftmost) set.
    let one = block("80000000000000000000000000000000");
    let a = block("66e94bd4ef8a2c3b884cfa59ca342b2e");
    let b = block("0388dace60b6a392f328c2b971b2fe78");
    assert_eq!(gf128_mul(&a, &one), a);
    assert_eq!(gf128_mul(&one, &a), a);
    assert_eq!(gf128_mul(&a, &b), gf128_mul(&b, &a));
}

#[test]
fn inc32_wraps_only_the_low_32_bits() {
    let b = block("000102030405060708090a0bffffffff");
    assert_eq!(inc32(&b), block("000102030405060708090a0b00000000"));
}

#[test]
fn rfc8452_appendix_a_polyval() {
    let h = block("25629347589242761d31f826ba4b757b");
    let mut data = hex("4f4f95668c83dfb6401762bb2d01a262");
    data.extend_from_slice(&hex("d1a24ddd2721d006bbe45f20d3c9f362"));
    let expected = block("f7a3b47b846119fae5b7866cf5e5b77e");
    assert_eq!(polyval(&h, &data), expected);
    // The Appendix A mapping through GHASH gives the same value, and its
    // intermediate mulX_GHASH(ByteReverse(H)) is as printed there.
    let mut h_rev = h;
    h_rev.reverse();
    assert_eq!(
        mul_x_ghash(&h_rev),
        block("dcbaa5dd137c188ebb21492c23c9b112")
    );
    assert_eq!(polyval_via_ghash(&h, &data), expected);
}

#[test]
fn polyval_matches_its_ghash_mapping_on_other_inputs() {
    // A deterministic spread of inputs: POLYVAL directly and via GHASH agree.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u8
    };
    for blocks in 0..5 {
        let h: Block = core::array::from_fn(|_| next());
        let data: Vec<u8> = (0..16 * blocks).map(|_| next()).collect();
        assert_eq!(polyval(&h, &data), polyval_via_ghash(&h, &data));
    }
}

/// (key, nonce, plaintext, aad, ciphertext, tag) from RFC 8452: the §8 example,
/// Appendix C.1 (AEAD_AES_128_GCM_SIV), C.2 (AEAD_AES_256_GCM_SIV) and C.3
/// (counter wrap).
const GCM_SIV_CASES: &[(&str, &str, &str, &str, &str, &str)] = &[
    // §8: "Hello world" / "example".
    (
        "ee8e1ed9ff2540ae8f2ba9f50bc2f27c",
        "752abad3e0afb5f434dc4310",
        "48656c6c6f20776f726c64",
        "6578616d706c65",
        "5d349ead175ef6b1def6fd",
        "4fbcdeb7e4793f4a1d7e4faa70100af1",
    ),
    // C.1
    (
        "01000000000000000000000000000000",
        "030000000000000000000000",
        "",
        "",
        "",
        "dc20e2d83f25705bb49e439eca56de25",
    ),
    (
        "01000000000000000000000000000000",
        "030000000000000000000000",
        "0100000000000000",
        "",
        "b5d839330ac7b786",
        "578782fff6013b815b287c22493a364c",
    ),
    (
        "01000000000000000000000000000000",
        "030000000000000000000000",
        "0100000000000000000000000000000002000000000000000000000000000000",
        "",
        "84e07e62ba83a6585417245d7ec413a9fe427d6315c09b57ce45f2e3936a9445",
        "1a8e45dcd4578c667cd86847bf6155ff",
    ),
    (
        "01000000000000000000000000000000",
        "030000000000000000000000",
        "0200000000000000000000000000000003000000000000000000000000000000",
        "01",
        "620048ef3c1e73e57e02bb8562c416a319e73e4caac8e96a1ecb2933145a1d71",
        "e6af6a7f87287da059a71684ed3498e1",
    ),
    // C.2
    (
        "0100000000000000000000000000000000000000000000000000000000000000",
        "030000000000000000000000",
        "",
        "",
        "",
        "07f5f4169bbf55a8400cd47ea6fd400f",
    ),
    (
        "0100000000000000000000000000000000000000000000000000000000000000",
        "030000000000000000000000",
        "01000000000000000000000000000000",
        "",
        "85a01b63025ba19b7fd3ddfc033b3e76",
        "c9eac6fa700942702e90862383c6c366",
    ),
    // C.3: the tag's first 32 bits are 0xffffffff, so the counter wraps.
    (
        "0000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000",
        "000000000000000000000000000000004db923dc793ee6497c76dcc03a98e108",
        "",
        "f3f80f2cf0cb2dd9c5984fcda908456cc537703b5ba70324a6793a7bf218d3ea",
        "ffffffff000000000000000000000000",
    ),
    (
        "0000000000000000000000000000000000000000000000000000000000000000",
        "000000000000000000000000",
        "eb3640277c7ffd1303c7a542d02d3e4c0000000000000000",
        "",
        "18ce4f0b8cb4d0cac65fea8f79257b20888e53e72299e56d",
        "ffffffff000000000000000000000000",
    ),
];

#[test]
fn rfc8452_gcm_siv_vectors() {
    for (i, &(key, n, pt, aad, ct, tag)) in GCM_SIV_CASES.iter().enumerate() {
        let (key, n, pt, aad) = (hex(key), nonce(n), hex(pt), hex(aad));
        let mut expected = hex(ct);
        expected.extend_from_slice(&hex(tag));
        let sealed = gcm_siv_seal(&key, &n, &aad, &pt);
        assert_eq!(sealed, expected, "seal, case index {i}");
        assert_eq!(
            gcm_siv_open(&key, &n, &aad, &sealed),
            Some(pt),
            "open, case index {i}"
        );
        let mut forged = sealed.clone();
        forged[sealed.len() - 16] ^= 1;
        assert_eq!(
            gcm_siv_open(&key, &n, &aad, &forged),
            None,
            "forged tag, case index {i}"
        );
    }
}

#[test]
fn rfc8452_c1_derived_keys() {
    // RFC 8452 C.1, first vector: the printed record-authentication and
    // record-encryption keys.
    let (auth, enc) = gcm_siv_derive_keys(
        &hex("01000000000000000000000000000000"),
        &nonce("030000000000000000000000"),
    );
    assert_eq!(auth, block("d9b360279694941ac5dbc6987ada7377"));
    assert_eq!(enc, hex("4004a0dcd862f2a57360219d2d44ef6c"));
}
