//! No kernel reads or writes a byte outside the caller's slices: every
//! message, AAD and output buffer here lies flush against a page that cannot
//! be read or written (before its first byte or after its last), so a
//! stray access is a crash, not a silent pass. On every tier, both key
//! sizes, GCM, GCM-SIV, XAES-256-GCM and every AEGIS variant with both tag
//! lengths, every length from 0 to 300 bytes and some longer ones (the masked
//! loads and stores of the AVX-512 short-message batch, the tail copies of the
//! other tiers, AEGIS's padded last block).
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#![cfg(unix)]

mod common;
#[path = "common/guarded.rs"]
mod guarded;

use common::{TestRng, each_tier};
use guarded::Guarded;
use hardware_aead::AeadKey;
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};

fn lengths() -> impl Iterator<Item = usize> {
    (0..=300).chain([
        511, 512, 513, 1000, 1023, 1024, 1025, 2047, 2048, 2100, 4095, 4096, 4097, 8000,
    ])
}

/// For every length and both placements: sealing in place and into a
/// separate buffer, then opening both ways, agree with a seal of ordinary
/// buffers, with message, AAD and output each flush against a guard page.
fn check<K: AeadKey>(keys: &[K], rng: &mut TestRng) {
    let (mut msg_pages, mut aad_pages, mut out_pages) =
        (Guarded::new(), Guarded::new(), Guarded::new());
    for len in lengths() {
        let Ok(nonce) = K::Nonce::try_from(&rng.bytes(K::NONCE_LEN)[..]) else {
            panic!("a {}-byte nonce", K::NONCE_LEN)
        };
        let pt = rng.bytes(len);
        let aad_len = len % 37;
        let aad_src = rng.bytes(aad_len);
        for at_end in [true, false] {
            for k in keys {
                let what = format!("{:?}, {len} bytes, at_end {at_end}", k.tier());
                let expected = k.seal(&nonce, &aad_src, &pt).expect("seal");
                let aad = aad_pages.slice(aad_len, at_end);
                aad.copy_from_slice(&aad_src);
                let aad = &*aad;

                let buf = msg_pages.slice(len, at_end);
                buf.copy_from_slice(&pt);
                let tag = k
                    .seal_in_place_detached(&nonce, aad, buf)
                    .expect("seal in place");
                assert_eq!(&buf[..], &expected[..len], "{what}: ciphertext in place");
                assert_eq!(tag.as_ref(), &expected[len..], "{what}: tag in place");
                k.open_in_place_detached(&nonce, aad, buf, &tag)
                    .expect("open in place");
                assert_eq!(&buf[..], &pt[..], "{what}: plaintext in place");

                let input = msg_pages.slice(len, at_end);
                input.copy_from_slice(&pt);
                let out = out_pages.slice(len + K::TAG_LEN, at_end);
                assert_eq!(
                    k.seal_to(&nonce, aad, input, out),
                    Ok(len + K::TAG_LEN),
                    "{what}"
                );
                assert_eq!(&out[..], &expected[..], "{what}: seal_to");
                let sealed = msg_pages.slice(len + K::TAG_LEN, at_end);
                sealed.copy_from_slice(&expected);
                let out = out_pages.slice(len, at_end);
                assert_eq!(k.open_to(&nonce, aad, sealed, out), Ok(len), "{what}");
                assert_eq!(&out[..], &pt[..], "{what}: open_to");
            }
        }
    }
}

#[test]
fn aes_gcm_stays_inside_the_slices() {
    let mut rng = TestRng::new(0x6a5d);
    check(&each_tier::<Aes128Gcm>(&rng.array()), &mut rng);
    check(&each_tier::<Aes256Gcm>(&rng.array()), &mut rng);
}

#[test]
fn aes_gcm_siv_stays_inside_the_slices() {
    let mut rng = TestRng::new(0x51f0);
    check(&each_tier::<Aes128GcmSiv>(&rng.array()), &mut rng);
    check(&each_tier::<Aes256GcmSiv>(&rng.array()), &mut rng);
}

#[test]
fn xaes_gcm_stays_inside_the_slices() {
    let mut rng = TestRng::new(0x7ae5);
    check(&each_tier::<Xaes256Gcm>(&rng.array()), &mut rng);
    check(&each_tier::<KcXaes256Gcm>(&rng.array()), &mut rng);
}

#[test]
fn aegis_stays_inside_the_slices() {
    use hardware_aead::aegis::{
        Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4,
    };
    let mut rng = TestRng::new(0xae91);
    check(&each_tier::<Aegis128L<16>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis128L<32>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis128X2<16>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis128X2<32>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis128X4<16>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis128X4<32>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis256<16>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis256<32>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis256X2<16>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis256X2<32>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis256X4<16>>(&rng.array()), &mut rng);
    check(&each_tier::<Aegis256X4<32>>(&rng.array()), &mut rng);
}
