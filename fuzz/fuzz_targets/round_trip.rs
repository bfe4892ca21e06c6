//! Seal then open, at lengths from 0 to 8191 bytes and at odd buffer offsets,
//! for all four algorithms on every tier this CPU has, through every API:
//! all tiers and all APIs must give the same bytes, every opening must
//! return the plaintext, a one-bit change must be rejected, and no API may
//! write outside its output.
//!
//! Input: `control, aad_len, len[2], offsets, flip[2], key[32], nonce[12],
//! aad[aad_len], pattern`: alg = control bits 0-1; the plaintext is `len %
//! 8192` bytes repeating `pattern`; the output and in-place buffers start at
//! `offsets & 15` and `offsets >> 4` bytes into larger buffers; `flip` picks
//! the bit the tamper check changes.
#![no_main]

use hardware_aead::{AeadKey, TAG_LEN};
use hardware_aead_fuzz::{
    Alg, TIERS, Input, NONCE_LEN, OpenApi, dispatch, make_key, open_checked, stretch,
};
use libfuzzer_sys::fuzz_target;

/// Bytes around the outputs that no API may touch.
const GUARD: u8 = 0x5c;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let alg = Alg::from_byte(input.byte());
    let aad_len = usize::from(input.byte());
    let len = usize::from(input.u16()) % 8192;
    let offsets = input.byte();
    let flip = usize::from(input.u16());
    let key = input.array::<32>();
    let nonce = input.array::<NONCE_LEN>();
    let aad = input.bytes(aad_len);
    let plaintext = stretch(input.rest(), len);
    dispatch!(alg, run(&key, &nonce, aad, &plaintext, offsets, flip));
});

fn run<K: AeadKey<Nonce = [u8; 12]>>(
    key: &[u8; 32],
    nonce: &[u8; 12],
    aad: &[u8],
    plaintext: &[u8],
    offsets: u8,
    flip: usize,
) {
    let out_off = usize::from(offsets & 15);
    let in_off = usize::from(offsets >> 4);
    let mut reference: Option<Vec<u8>> = None;
    for tier in TIERS {
        let Some(k) = make_key::<K>(key, Some(tier)) else {
            continue;
        };
        // encrypt
        let sealed = k.seal(nonce, aad, plaintext).expect("seal");
        assert_eq!(sealed.len(), plaintext.len() + TAG_LEN);
        match &reference {
            None => reference = Some(sealed.clone()),
            Some(r) => assert_eq!(
                &sealed, r,
                "{tier:?} seals differently from the first tier"
            ),
        }
        // seal_to at an offset, guard bytes around
        let mut out = vec![GUARD; out_off + sealed.len() + 9];
        let n = k
            .seal_to(nonce, aad, plaintext, &mut out[out_off..])
            .expect("seal_to");
        assert_eq!(&out[out_off..out_off + n], &sealed[..]);
        assert!(
            out[..out_off]
                .iter()
                .chain(&out[out_off + n..])
                .all(|&b| b == GUARD)
        );
        // too small: nothing written
        if !sealed.is_empty() {
            let mut small = vec![GUARD; sealed.len() - 1];
            assert!(k.seal_to(nonce, aad, plaintext, &mut small).is_err());
            assert!(
                small.iter().all(|&b| b == GUARD),
                "seal_to wrote into a too-small buffer"
            );
        }
        // in place at an offset
        let mut buffer = vec![GUARD; in_off + plaintext.len() + 9];
        buffer[in_off..in_off + plaintext.len()].copy_from_slice(plaintext);
        let tag = k
            .seal_in_place_detached(nonce, aad, &mut buffer[in_off..in_off + plaintext.len()])
            .expect("seal in place");
        assert_eq!(
            &buffer[in_off..in_off + plaintext.len()],
            &sealed[..plaintext.len()]
        );
        assert_eq!(tag.as_ref(), &sealed[plaintext.len()..]);
        assert!(
            buffer[..in_off]
                .iter()
                .chain(&buffer[in_off + plaintext.len()..])
                .all(|&b| b == GUARD)
        );
        k.open_in_place_detached(
            nonce,
            aad,
            &mut buffer[in_off..in_off + plaintext.len()],
            &tag,
        )
        .expect("open in place");
        assert_eq!(&buffer[in_off..in_off + plaintext.len()], plaintext);
        // every opening API returns the plaintext
        for api in [OpenApi::Open, OpenApi::OpenTo, OpenApi::InPlace] {
            let opened = open_checked(&k, api, nonce, aad, &sealed);
            assert_eq!(
                opened.as_deref(),
                Some(plaintext),
                "{api:?} did not open a sealed message"
            );
        }
        // generated nonce, appended
        let appended = k
            .seal_with_generated_nonce_appended(aad, plaintext)
            .expect("seal, generated nonce");
        let opened = open_checked(&k, OpenApi::NonceAppended, nonce, aad, &appended);
        assert_eq!(opened.as_deref(), Some(plaintext));
        // one bit changed anywhere in ciphertext || tag: rejected, output wiped
        let mut tampered = sealed.clone();
        let bit = flip % (tampered.len() * 8);
        tampered[bit / 8] ^= 1 << (bit % 8);
        for api in [OpenApi::Open, OpenApi::OpenTo, OpenApi::InPlace] {
            assert!(
                open_checked(&k, api, nonce, aad, &tampered).is_none(),
                "a one-bit change was accepted"
            );
        }
    }
}
