//! The differential check of `differential.rs`, for every key type: one
//! random case, every API, every tier, odd offsets and guard bytes.

use hardware_aead::{AeadKey, Error, TAG_LEN};
use proptest::prelude::*;

use super::{TestRng, each_tier_from_slice, tag, to_hex};

/// One generated case. The byte strings are expanded from a seed so that
/// generating a 4 KiB input stays cheap; shrinking still works on the lengths and
/// offsets.
#[derive(Debug, Clone)]
pub struct Case {
    pub key: Vec<u8>,
    pub nonce: [u8; 12],
    pub aad: Vec<u8>,
    pub pt: Vec<u8>,
    /// Where the input and output slices start inside their backing `Vec`s (1..16).
    pub in_offset: usize,
    pub out_offset: usize,
    pub aad_offset: usize,
}

/// Cases with a `key_len`-byte key, plaintext 0..=4200 bytes, AAD 0..=600.
pub fn case(key_len: usize) -> impl Strategy<Value = Case> {
    (
        any::<u64>(),
        0usize..=4200,
        0usize..=600,
        1usize..16,
        1usize..16,
        1usize..16,
    )
        .prop_map(
            move |(seed, pt_len, aad_len, in_offset, out_offset, aad_offset)| {
                let mut rng = TestRng::new(seed);
                Case {
                    key: rng.bytes(key_len),
                    nonce: rng.array(),
                    aad: rng.bytes(aad_len),
                    pt: rng.bytes(pt_len),
                    in_offset,
                    out_offset,
                    aad_offset,
                }
            },
        )
}

/// `data` copied into a fresh `Vec` at `offset`, surrounded by 0x5A guard bytes.
pub fn at_offset(data: &[u8], offset: usize, room: usize) -> Vec<u8> {
    let mut backing = vec![0x5Au8; offset + data.len().max(room) + 16];
    backing[offset..offset + data.len()].copy_from_slice(data);
    backing
}

/// Checks that the bytes of `backing` outside `offset..offset + len` still hold
/// the 0x5A guard.
pub fn guards_intact(backing: &[u8], offset: usize, len: usize) -> bool {
    backing[..offset].iter().all(|&b| b == 0x5A)
        && backing[offset + len..].iter().all(|&b| b == 0x5A)
}

/// On every tier: the `Vec`, `_to` and in-place seals equal `expected` (the
/// peer's `ciphertext || tag`) and write nothing outside their slices; the
/// peer opens our `_to` output (`peer_open`); every decrypt API returns the
/// plaintext; and with a forged tag every decrypt fails and wipes exactly its
/// output.
pub fn check_apis<K: AeadKey<Nonce = [u8; 12]>>(
    c: &Case,
    expected: &[u8],
    peer_open: impl Fn(&[u8]) -> Option<Vec<u8>>,
) -> Result<(), TestCaseError> {
    let (expected_ct, expected_tag) = expected.split_at(c.pt.len());
    let sealed_len = c.pt.len() + TAG_LEN;

    let aad_backing = at_offset(&c.aad, c.aad_offset, 0);
    let aad = &aad_backing[c.aad_offset..c.aad_offset + c.aad.len()];
    let in_backing = at_offset(&c.pt, c.in_offset, 0);
    let pt = &in_backing[c.in_offset..c.in_offset + c.pt.len()];

    for k in each_tier_from_slice::<K>(&c.key) {
        let b = k.tier();

        // Vec API.
        let sealed = k
            .seal(&c.nonce, aad, pt)
            .map_err(|e| TestCaseError::fail(format!("{b:?} encrypt: {e}")))?;
        prop_assert!(
            sealed == expected,
            "[{:?}] encrypt differs from the peer\n  ours   {}\n  theirs {}",
            b,
            to_hex(&sealed),
            to_hex(expected)
        );

        // `_to` API, into an unaligned slice with guard bytes around it.
        let mut out_backing = at_offset(&[], c.out_offset, sealed_len);
        let n = k
            .seal_to(
                &c.nonce,
                aad,
                pt,
                &mut out_backing[c.out_offset..c.out_offset + sealed_len],
            )
            .map_err(|e| TestCaseError::fail(format!("{b:?} seal_to: {e}")))?;
        prop_assert_eq!(n, sealed_len);
        prop_assert!(
            out_backing[c.out_offset..c.out_offset + n] == expected[..],
            "[{:?}] seal_to differs",
            b
        );
        prop_assert!(
            peer_open(&out_backing[c.out_offset..c.out_offset + n]).as_deref() == Some(&c.pt[..]),
            "[{:?}] the peer cannot open seal_to's output",
            b
        );
        prop_assert!(
            guards_intact(&out_backing, c.out_offset, n),
            "[{:?}] seal_to wrote outside",
            b
        );

        // In place, at an unaligned offset.
        let mut buffer_backing = at_offset(pt, c.in_offset, 0);
        let t = k
            .seal_in_place_detached(
                &c.nonce,
                aad,
                &mut buffer_backing[c.in_offset..c.in_offset + pt.len()],
            )
            .map_err(|e| TestCaseError::fail(format!("{b:?} seal_in_place_detached: {e}")))?;
        prop_assert!(
            buffer_backing[c.in_offset..c.in_offset + pt.len()] == *expected_ct,
            "[{:?}] seal_in_place_detached ciphertext differs",
            b
        );
        prop_assert!(
            t.as_ref() == expected_tag,
            "[{:?}] seal_in_place_detached tag differs",
            b
        );
        prop_assert!(
            guards_intact(&buffer_backing, c.in_offset, pt.len()),
            "[{:?}] in-place seal wrote outside",
            b
        );

        // Decrypt through each API, reading the sealed bytes at an odd offset.
        let sealed_backing = at_offset(expected, c.in_offset, 0);
        let sealed_in = &sealed_backing[c.in_offset..c.in_offset + sealed_len];

        let opened = k
            .open(&c.nonce, aad, sealed_in)
            .map_err(|e| TestCaseError::fail(format!("{b:?} decrypt: {e}")))?;
        prop_assert!(opened == c.pt, "[{:?}] decrypt differs", b);

        let mut out_backing = at_offset(&[], c.out_offset, c.pt.len());
        let n = k
            .open_to(
                &c.nonce,
                aad,
                sealed_in,
                &mut out_backing[c.out_offset..c.out_offset + c.pt.len()],
            )
            .map_err(|e| TestCaseError::fail(format!("{b:?} open_to: {e}")))?;
        prop_assert_eq!(n, c.pt.len());
        prop_assert!(
            out_backing[c.out_offset..c.out_offset + n] == c.pt[..],
            "[{:?}] open_to differs",
            b
        );
        prop_assert!(
            guards_intact(&out_backing, c.out_offset, n),
            "[{:?}] open_to wrote outside",
            b
        );

        k.open_in_place_detached(
            &c.nonce,
            aad,
            &mut buffer_backing[c.in_offset..c.in_offset + pt.len()],
            &tag(expected_tag),
        )
        .map_err(|e| TestCaseError::fail(format!("{b:?} open_in_place_detached: {e}")))?;
        prop_assert!(
            buffer_backing[c.in_offset..c.in_offset + pt.len()] == c.pt[..],
            "[{:?}] open_in_place_detached differs",
            b
        );
        prop_assert!(
            guards_intact(&buffer_backing, c.in_offset, pt.len()),
            "[{:?}] in-place open wrote outside",
            b
        );

        // A forged tag (one bit, chosen by the case): GCM-SIV decrypts before it
        // can verify, so the plaintext it wrote must be wiped — at an odd offset,
        // and without touching the bytes around the output.
        let mut forged = expected.to_vec();
        let bit = (c.in_offset * 8 + c.out_offset) % (TAG_LEN * 8);
        forged[c.pt.len() + bit / 8] ^= 1 << (bit % 8);
        let mut out_backing = at_offset(&vec![0xAAu8; c.pt.len()], c.out_offset, 0);
        let result = k.open_to(
            &c.nonce,
            aad,
            &forged,
            &mut out_backing[c.out_offset..c.out_offset + c.pt.len()],
        );
        prop_assert_eq!(result, Err(Error::Authentication));
        prop_assert!(
            out_backing[c.out_offset..c.out_offset + c.pt.len()]
                .iter()
                .all(|&x| x == 0),
            "[{:?}] open_to left bytes after a forgery",
            b
        );
        prop_assert!(
            guards_intact(&out_backing, c.out_offset, c.pt.len()),
            "[{:?}] failed open_to wrote outside",
            b
        );
        let mut buffer_backing = at_offset(expected_ct, c.in_offset, 0);
        let result = k.open_in_place_detached(
            &c.nonce,
            aad,
            &mut buffer_backing[c.in_offset..c.in_offset + c.pt.len()],
            &tag(&forged[c.pt.len()..]),
        );
        prop_assert_eq!(result, Err(Error::Authentication));
        prop_assert!(
            buffer_backing[c.in_offset..c.in_offset + c.pt.len()]
                .iter()
                .all(|&x| x == 0),
            "[{:?}] open_in_place_detached left bytes after a forgery",
            b
        );
        prop_assert!(
            guards_intact(&buffer_backing, c.in_offset, c.pt.len()),
            "[{:?}] failed in-place open wrote outside",
            b
        );
    }
    Ok(())
}
