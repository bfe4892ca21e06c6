//! The crate's keys through RustCrypto's `aead` 0.6 traits (feature `aead`):
//! every function that seals, opens or streams below is generic, bounded only
//! by `aead` traits, and runs unchanged on this crate's five key types and on
//! RustCrypto's `aes-gcm` 0.11, `aes-gcm-siv` 0.12 and `xaes-256-gcm` 0.1.
//! The outputs are compared byte for byte, each side opens the other's, and
//! `aead-stream` 0.6 (STREAM, BE32 layout) drives both.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#![cfg(feature = "aead")]

mod common;

use core::ops::Sub;

use aead_stream::{DecryptorBE32, EncryptorBE32, StreamBE32};
use common::{TestRng, each_tier_from_slice};
use hardware_aead::aead_traits::aead::array::{ArraySize, typenum::Unsigned};
use hardware_aead::aead_traits::aead::consts::{U5, U12, U16, U24, U32, U48};
use hardware_aead::aead_traits::aead::inout::InOutBuf;
use hardware_aead::aead_traits::aead::{
    Aead as _, AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, Nonce, Payload, Tag, TagPosition,
};
use hardware_aead::{aes_gcm, aes_gcm_siv, xaes_gcm};

// ---------------------------------------------------------------------------
// Generic code: `aead` traits only
// ---------------------------------------------------------------------------

/// Builds a cipher both ways `KeyInit` offers and checks they agree on one
/// message; returns the one from the slice.
fn build<A: KeyInit + AeadInOut>(key: &[u8]) -> A {
    let from_slice = A::new_from_slice(key).expect("a key of the right length");
    let from_array = A::new(&Key::<A>::try_from(key).expect("a key of the right length"));
    let nonce = Nonce::<A>::default();
    assert_eq!(
        from_slice.encrypt(&nonce, b"one message".as_ref()),
        from_array.encrypt(&nonce, b"one message".as_ref()),
        "new and new_from_slice built different keys"
    );
    from_slice
}

/// Seals one message four ways — `Aead::encrypt`, `encrypt_in_place` on a
/// `Vec`, `encrypt_inout_detached` in place and into a second buffer — checks
/// they agree, and returns `ciphertext || tag`.
fn seal<A: AeadInOut>(cipher: &A, nonce: &[u8], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let nonce = Nonce::<A>::try_from(nonce).expect("a nonce of the right length");
    let sealed = cipher
        .encrypt(&nonce, Payload { msg: pt, aad })
        .expect("encrypt");
    assert_eq!(sealed.len(), pt.len() + A::TagSize::USIZE);

    let mut buffer = pt.to_vec();
    cipher
        .encrypt_in_place(&nonce, aad, &mut buffer)
        .expect("encrypt_in_place");
    assert_eq!(buffer, sealed, "encrypt_in_place");

    let mut in_place = pt.to_vec();
    let tag = cipher
        .encrypt_inout_detached(&nonce, aad, in_place.as_mut_slice().into())
        .expect("encrypt_inout_detached in place");
    assert_eq!(
        [&in_place[..], &tag[..]].concat(),
        sealed,
        "detached in place"
    );

    let mut out = vec![0xa5; pt.len()];
    let buffers = InOutBuf::new(pt, &mut out).expect("equal lengths");
    let tag = cipher
        .encrypt_inout_detached(&nonce, aad, buffers)
        .expect("encrypt_inout_detached into a second buffer");
    assert_eq!(
        [&out[..], &tag[..]].concat(),
        sealed,
        "detached, two buffers"
    );
    sealed
}

/// Opens `ciphertext || tag` four ways, like [`seal`]. On success returns the
/// plaintext (all four agree); on failure checks that every way failed and,
/// if `wipes` (this crate's promise; RustCrypto's ciphers check the tag
/// before they decrypt and leave the ciphertext), that each left no byte of
/// its output but zeros over the message, and returns `None`.
fn open<A: AeadInOut>(cipher: &A, nonce: &[u8], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
    open_checked(cipher, nonce, aad, sealed, true)
}

/// [`open`] for a peer: a failure need not leave zeros.
fn peer_open<A: AeadInOut>(cipher: &A, nonce: &[u8], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
    open_checked(cipher, nonce, aad, sealed, false)
}

fn open_checked<A: AeadInOut>(
    cipher: &A,
    nonce: &[u8],
    aad: &[u8],
    sealed: &[u8],
    wipes: bool,
) -> Option<Vec<u8>> {
    let nonce = Nonce::<A>::try_from(nonce).expect("a nonce of the right length");
    let opened = cipher.decrypt(&nonce, Payload { msg: sealed, aad }).ok();

    let mut buffer = sealed.to_vec();
    let in_place = cipher.decrypt_in_place(&nonce, aad, &mut buffer);
    assert_eq!(in_place.is_ok(), opened.is_some(), "decrypt_in_place");

    let Some(text_len) = sealed.len().checked_sub(A::TagSize::USIZE) else {
        assert!(
            opened.is_none(),
            "a sealed message shorter than a tag opened"
        );
        return None;
    };
    let (ciphertext, tag) = sealed.split_at(text_len);
    let tag = Tag::<A>::try_from(tag).expect("a tag of the right length");

    let mut detached = ciphertext.to_vec();
    let detached_ok = cipher
        .decrypt_inout_detached(&nonce, aad, detached.as_mut_slice().into(), &tag)
        .is_ok();

    let mut out = vec![0xa5; text_len];
    let buffers = InOutBuf::new(ciphertext, &mut out).expect("equal lengths");
    let two_ok = cipher
        .decrypt_inout_detached(&nonce, aad, buffers, &tag)
        .is_ok();

    match opened {
        Some(pt) => {
            assert!(detached_ok && two_ok, "the detached opens disagree");
            assert_eq!(buffer, pt, "decrypt_in_place");
            assert_eq!(detached, pt, "detached in place");
            assert_eq!(out, pt, "detached, two buffers");
            Some(pt)
        }
        None => {
            assert!(
                !detached_ok && !two_ok,
                "a detached open accepted a forgery"
            );
            if !wipes {
                return None;
            }
            assert!(
                buffer[..text_len].iter().all(|&b| b == 0),
                "decrypt_in_place left bytes in the buffer"
            );
            assert!(
                detached.iter().all(|&b| b == 0) && out.iter().all(|&b| b == 0),
                "a failed detached open left bytes in its output"
            );
            None
        }
    }
}

/// One message under `ours` and `theirs` (the same key): identical bytes,
/// each opens the other's, and each refuses the other's with a flipped bit
/// (in the ciphertext, the tag, or the AAD).
fn agree<A: AeadInOut, B: AeadInOut>(
    ours: &A,
    theirs: &B,
    rng: &mut TestRng,
    pt_len: usize,
    aad_len: usize,
) {
    assert_eq!(A::NonceSize::USIZE, B::NonceSize::USIZE);
    let nonce = rng.bytes(A::NonceSize::USIZE);
    let aad = rng.bytes(aad_len);
    let pt = rng.bytes(pt_len);
    let sealed = seal(ours, &nonce, &aad, &pt);
    assert_eq!(
        sealed,
        seal(theirs, &nonce, &aad, &pt),
        "pt {pt_len}, aad {aad_len}: not byte-identical"
    );
    assert_eq!(open(ours, &nonce, &aad, &sealed).as_deref(), Some(&pt[..]));
    assert_eq!(
        peer_open(theirs, &nonce, &aad, &sealed).as_deref(),
        Some(&pt[..])
    );

    let mut forged = sealed.clone();
    let bit = rng.next_u64() as usize % (forged.len() * 8);
    forged[bit / 8] ^= 1 << (bit % 8);
    assert_eq!(open(ours, &nonce, &aad, &forged), None, "bit {bit} flipped");
    assert_eq!(
        peer_open(theirs, &nonce, &aad, &forged),
        None,
        "bit {bit} flipped"
    );
    if !aad.is_empty() {
        let mut aad = aad.clone();
        aad[0] ^= 0x80;
        assert_eq!(open(ours, &nonce, &aad, &sealed), None, "AAD changed");
    }
}

/// Lengths either side of a block, a small group and a big group of every
/// tier, and a few odd ones.
const LENGTHS: [usize; 16] = [
    0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 127, 129, 255, 1024, 2049, 4099,
];

/// `agree` for every length, with a key built by `KeyInit` on both sides,
/// and with this crate's key on every tier it has.
fn interop<Ours, Theirs>(seed: u64)
where
    Ours: KeyInit + AeadInOut + hardware_aead::AeadKey,
    Theirs: KeyInit + AeadInOut<NonceSize = Ours::NonceSize, TagSize = Ours::TagSize>,
{
    let mut rng = TestRng::new(seed);
    let key = rng.bytes(<Ours as KeySizeUser>::KeySize::USIZE);
    let ours: Ours = build(&key);
    let theirs: Theirs = build(&key);
    for (i, &pt_len) in LENGTHS.iter().enumerate() {
        agree(
            &ours,
            &theirs,
            &mut rng,
            pt_len,
            LENGTHS[(i * 7) % LENGTHS.len()] % 300,
        );
    }
    // Built by this crate's own API, on each tier, used through `aead` only.
    for ours in each_tier_from_slice::<Ours>(&key) {
        for pt_len in [0, 5, 16, 100, 1000, 5000] {
            agree(&ours, &theirs, &mut rng, pt_len, pt_len % 37);
        }
    }
}

/// STREAM (BE32) over `cipher`: the segments sealed in order, the last one
/// marked last.
fn stream_seal<A>(cipher: A, nonce: &[u8], aad: &[u8], segments: &[Vec<u8>]) -> Vec<Vec<u8>>
where
    A: AeadInOut,
    A::NonceSize: Sub<U5>,
    <A::NonceSize as Sub<U5>>::Output: ArraySize,
{
    let nonce = aead_stream::Nonce::<A, StreamBE32<A>>::try_from(nonce).expect("nonce length");
    let mut encryptor = EncryptorBE32::from_aead(cipher, &nonce);
    let (last, rest) = segments.split_last().expect("one segment at least");
    let mut sealed: Vec<Vec<u8>> = rest
        .iter()
        .map(|msg| {
            encryptor
                .encrypt_next(Payload { msg, aad })
                .expect("encrypt_next")
        })
        .collect();
    sealed.push(
        encryptor
            .encrypt_last(Payload { msg: last, aad })
            .expect("encrypt_last"),
    );
    sealed
}

/// Opens a STREAM sealed by [`stream_seal`]; `None` at the first segment
/// that fails.
fn stream_open<A>(cipher: A, nonce: &[u8], aad: &[u8], sealed: &[Vec<u8>]) -> Option<Vec<Vec<u8>>>
where
    A: AeadInOut,
    A::NonceSize: Sub<U5>,
    <A::NonceSize as Sub<U5>>::Output: ArraySize,
{
    let nonce = aead_stream::Nonce::<A, StreamBE32<A>>::try_from(nonce).expect("nonce length");
    let mut decryptor = DecryptorBE32::from_aead(cipher, &nonce);
    let (last, rest) = sealed.split_last().expect("one segment at least");
    let mut opened = Vec::new();
    for msg in rest {
        opened.push(decryptor.decrypt_next(Payload { msg, aad }).ok()?);
    }
    opened.push(decryptor.decrypt_last(Payload { msg: last, aad }).ok()?);
    Some(opened)
}

/// `aead-stream` over this crate's key and over RustCrypto's: identical
/// segments, each opens the other's, and reordered, truncated or altered
/// streams are refused.
fn stream_interop<Ours, Theirs>(seed: u64)
where
    Ours: KeyInit + AeadInOut,
    Ours::NonceSize: Sub<U5>,
    <Ours::NonceSize as Sub<U5>>::Output: ArraySize,
    Theirs: KeyInit + AeadInOut<NonceSize = Ours::NonceSize, TagSize = Ours::TagSize>,
{
    let mut rng = TestRng::new(seed);
    let key = rng.bytes(<Ours as KeySizeUser>::KeySize::USIZE);
    let nonce = rng.bytes(Ours::NonceSize::USIZE - 5);
    let aad = rng.bytes(11);
    let segments: Vec<Vec<u8>> = [4096, 4096, 1, 0, 300]
        .iter()
        .map(|&n| rng.bytes(n))
        .collect();

    let ours = stream_seal(build::<Ours>(&key), &nonce, &aad, &segments);
    let theirs = stream_seal(build::<Theirs>(&key), &nonce, &aad, &segments);
    assert_eq!(ours, theirs, "the STREAM segments differ");
    assert_eq!(
        stream_open(build::<Ours>(&key), &nonce, &aad, &theirs).as_ref(),
        Some(&segments)
    );
    assert_eq!(
        stream_open(build::<Theirs>(&key), &nonce, &aad, &ours).as_ref(),
        Some(&segments)
    );

    let mut swapped = ours.clone();
    swapped.swap(0, 1);
    assert_eq!(
        stream_open(build::<Ours>(&key), &nonce, &aad, &swapped),
        None,
        "reordered"
    );
    let truncated = &ours[..ours.len() - 1];
    assert_eq!(
        stream_open(build::<Ours>(&key), &nonce, &aad, truncated),
        None,
        "truncated"
    );
    let mut altered = ours.clone();
    altered[2][0] ^= 1;
    assert_eq!(
        stream_open(build::<Ours>(&key), &nonce, &aad, &altered),
        None,
        "altered"
    );
}

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

/// The associated types are RustCrypto's, so generic code bounded by them
/// takes either.
#[test]
fn sizes_are_those_of_the_rustcrypto_ciphers() {
    fn sizes<A: KeySizeUser + AeadCore>() -> (usize, usize, usize, TagPosition) {
        (
            A::KeySize::USIZE,
            A::NonceSize::USIZE,
            A::TagSize::USIZE,
            A::TAG_POSITION,
        )
    }
    fn same<A, B>()
    where
        A: KeySizeUser + AeadCore,
        B: KeySizeUser<KeySize = A::KeySize>
            + AeadCore<NonceSize = A::NonceSize, TagSize = A::TagSize>,
    {
        assert_eq!(sizes::<A>(), sizes::<B>());
    }
    same::<aes_gcm::Aes128Gcm, ::aes_gcm::Aes128Gcm>();
    same::<aes_gcm::Aes256Gcm, ::aes_gcm::Aes256Gcm>();
    same::<aes_gcm_siv::Aes128GcmSiv, ::aes_gcm_siv::Aes128GcmSiv>();
    same::<aes_gcm_siv::Aes256GcmSiv, ::aes_gcm_siv::Aes256GcmSiv>();
    same::<xaes_gcm::Xaes256Gcm, ::xaes_256_gcm::Xaes256Gcm>();
    assert_eq!(
        sizes::<aes_gcm::Aes128Gcm>(),
        (16, 12, 16, TagPosition::Postfix)
    );
    assert_eq!(
        sizes::<xaes_gcm::Xaes256Gcm>(),
        (32, 24, 16, TagPosition::Postfix)
    );
    fn typed<A: KeySizeUser<KeySize = U32> + AeadCore<NonceSize = U24, TagSize = U16>>() {}
    typed::<xaes_gcm::Xaes256Gcm>();
    fn typed12<A: AeadCore<NonceSize = U12>>() {}
    typed12::<aes_gcm_siv::Aes256GcmSiv>();
}

#[test]
fn aes_128_gcm_is_byte_identical_with_aes_gcm() {
    interop::<aes_gcm::Aes128Gcm, ::aes_gcm::Aes128Gcm>(1);
}

#[test]
fn aes_256_gcm_is_byte_identical_with_aes_gcm() {
    interop::<aes_gcm::Aes256Gcm, ::aes_gcm::Aes256Gcm>(2);
}

#[test]
fn aes_128_gcm_siv_is_byte_identical_with_aes_gcm_siv() {
    interop::<aes_gcm_siv::Aes128GcmSiv, ::aes_gcm_siv::Aes128GcmSiv>(3);
}

#[test]
fn aes_256_gcm_siv_is_byte_identical_with_aes_gcm_siv() {
    interop::<aes_gcm_siv::Aes256GcmSiv, ::aes_gcm_siv::Aes256GcmSiv>(4);
}

#[test]
fn xaes_256_gcm_is_byte_identical_with_xaes_256_gcm() {
    interop::<xaes_gcm::Xaes256Gcm, ::xaes_256_gcm::Xaes256Gcm>(5);
}

/// AEGIS, every variant and tag length, against the `aegis` crate's own
/// `aead` 0.6 implementations (its pure-Rust back-end).
#[test]
fn aegis_is_byte_identical_with_the_aegis_crate() {
    use ::aegis::compat::rustcrypto_traits_06 as theirs;
    use hardware_aead::aegis as ours;
    interop::<ours::Aegis128L<16>, theirs::Aegis128L<16>>(20);
    interop::<ours::Aegis128L<32>, theirs::Aegis128L<32>>(21);
    interop::<ours::Aegis128X2<16>, theirs::Aegis128X2<16>>(22);
    interop::<ours::Aegis128X2<32>, theirs::Aegis128X2<32>>(23);
    interop::<ours::Aegis128X4<16>, theirs::Aegis128X4<16>>(24);
    interop::<ours::Aegis128X4<32>, theirs::Aegis128X4<32>>(25);
    interop::<ours::Aegis256<16>, theirs::Aegis256<16>>(26);
    interop::<ours::Aegis256<32>, theirs::Aegis256<32>>(27);
    interop::<ours::Aegis256X2<16>, theirs::Aegis256X2<16>>(28);
    interop::<ours::Aegis256X2<32>, theirs::Aegis256X2<32>>(29);
    interop::<ours::Aegis256X4<16>, theirs::Aegis256X4<16>>(30);
    interop::<ours::Aegis256X4<32>, theirs::Aegis256X4<32>>(31);
    stream_interop::<ours::Aegis256<32>, theirs::Aegis256<32>>(32);
}

#[test]
fn aead_stream_drives_every_key_type_and_interoperates() {
    stream_interop::<aes_gcm::Aes128Gcm, ::aes_gcm::Aes128Gcm>(6);
    stream_interop::<aes_gcm::Aes256Gcm, ::aes_gcm::Aes256Gcm>(7);
    stream_interop::<aes_gcm_siv::Aes128GcmSiv, ::aes_gcm_siv::Aes128GcmSiv>(8);
    stream_interop::<aes_gcm_siv::Aes256GcmSiv, ::aes_gcm_siv::Aes256GcmSiv>(9);
    stream_interop::<xaes_gcm::Xaes256Gcm, ::xaes_256_gcm::Xaes256Gcm>(10);
}

/// `new_from_slice` refuses a key of the wrong length with `InvalidLength`,
/// through the trait.
#[test]
fn key_init_refuses_wrong_key_lengths() {
    fn refuses<A: KeyInit>(len: usize) -> bool {
        A::new_from_slice(&vec![7; len]).is_err()
    }
    for len in [0, 15, 17, 24, 31, 33, 64] {
        assert_eq!(refuses::<aes_gcm::Aes128Gcm>(len), len != 16, "{len}");
        assert_eq!(
            refuses::<aes_gcm_siv::Aes128GcmSiv>(len),
            len != 16,
            "{len}"
        );
        assert_eq!(refuses::<aes_gcm::Aes256Gcm>(len), len != 32, "{len}");
        assert_eq!(
            refuses::<aes_gcm_siv::Aes256GcmSiv>(len),
            len != 32,
            "{len}"
        );
        assert_eq!(refuses::<xaes_gcm::Xaes256Gcm>(len), len != 32, "{len}");
    }
    assert!(!refuses::<aes_gcm::Aes128Gcm>(16));
}

/// Inputs shorter than a tag are refused (`decrypt`), and a mismatched
/// `InOutBuf` cannot be built, so no call can reach the kernels with one.
#[test]
fn short_input_is_refused_without_panic() {
    let key: aes_gcm::Aes128Gcm = build(&[1; 16]);
    for len in 0..16 {
        assert_eq!(
            open(&key, &[0; 12], b"", &vec![0; len]),
            None,
            "{len} bytes"
        );
    }
    let mut out = [0u8; 3];
    assert!(InOutBuf::new(&[0u8; 4][..], &mut out[..]).is_err());
}

/// Generic code bound on both the crate's trait and `aead`'s calls either
/// trait's methods unqualified (seal/open and encrypt/decrypt): the same
/// message both ways, or `None` if the two differ.
fn both_traits<K: hardware_aead::AeadKey + AeadInOut>(
    key: &K,
    nonce: &K::Nonce,
) -> Option<Vec<u8>> {
    let ours = key.seal(nonce, b"aad", b"the same cipher").ok()?;
    let theirs_nonce = Nonce::<K>::try_from(nonce.as_ref()).ok()?;
    let theirs = key
        .encrypt(
            &theirs_nonce,
            Payload {
                msg: b"the same cipher",
                aad: b"aad",
            },
        )
        .ok()?;
    (ours == theirs).then_some(ours)
}

/// The crate's own API and the `aead` traits are the same cipher: a message
/// sealed by one opens under the other, and a forgery through the traits
/// leaves the in-place buffer zeroed like the crate's own method does.
#[test]
fn the_traits_and_the_crate_api_agree() {
    // `aead`'s traits (`KeyInit`, `AeadInOut`, `Aead`) are in scope here;
    // the crate's calls are inherent methods (`new` wins over `KeyInit`'s)
    // with names of their own, so none is qualified.
    let key = aes_gcm_siv::Aes256GcmSiv::new(&[3; 32]).expect("key");
    let nonce = [4u8; 12];
    let ours = key.seal(&nonce, b"aad", b"the same cipher").expect("seal");
    assert_eq!(seal(&key, &nonce, b"aad", b"the same cipher"), ours);
    assert_eq!(both_traits(&key, &nonce), Some(ours));
    let mut buffer = *b"in place";
    let mut tag = key
        .seal_in_place_detached(&nonce, b"", &mut buffer)
        .expect("seal");
    tag[0] ^= 1;
    let result = AeadInOut::decrypt_inout_detached(
        &key,
        &Nonce::<aes_gcm_siv::Aes256GcmSiv>::from(nonce),
        b"",
        buffer.as_mut_slice().into(),
        &Tag::<aes_gcm_siv::Aes256GcmSiv>::from(tag),
    );
    assert!(result.is_err());
    assert_eq!(buffer, [0; 8], "the forged plaintext was released");
}

/// KC-XAES-256-GCM through the `aead` traits: `TagSize` 48 (the GCM tag
/// and the commitment, as AWS-LC counts them), the four seals and opens of
/// [`seal`] and [`open`] agree with the crate's own API on every tier,
/// a flipped commitment bit is refused with the outputs wiped, and
/// `aead-stream` drives it (no RustCrypto peer implements it).
#[test]
fn kc_xaes_through_the_traits() {
    fn typed<A: KeySizeUser<KeySize = U32> + AeadCore<NonceSize = U24, TagSize = U48>>() {}
    typed::<xaes_gcm::KcXaes256Gcm>();
    assert_eq!(
        (
            <xaes_gcm::KcXaes256Gcm as KeySizeUser>::KeySize::USIZE,
            <xaes_gcm::KcXaes256Gcm as AeadCore>::NonceSize::USIZE,
            <xaes_gcm::KcXaes256Gcm as AeadCore>::TagSize::USIZE,
            <xaes_gcm::KcXaes256Gcm as AeadCore>::TAG_POSITION,
        ),
        (32, 24, 48, TagPosition::Postfix)
    );
    let mut rng = TestRng::new(0xc0_11);
    let key = rng.bytes(32);
    let built: xaes_gcm::KcXaes256Gcm = build(&key);
    for ours in each_tier_from_slice::<xaes_gcm::KcXaes256Gcm>(&key) {
        for pt_len in [0, 5, 16, 100, 129, 1000, 5000] {
            let (nonce, aad, pt) = (rng.bytes(24), rng.bytes(pt_len % 37), rng.bytes(pt_len));
            let nonce24: [u8; 24] = nonce.as_slice().try_into().expect("24 bytes");
            let sealed = seal(&ours, &nonce, &aad, &pt);
            assert_eq!(ours.seal(&nonce24, &aad, &pt).expect("seal"), sealed);
            assert_eq!(seal(&built, &nonce, &aad, &pt), sealed);
            assert_eq!(open(&ours, &nonce, &aad, &sealed), Some(pt.clone()));
            let mut forged = sealed.clone();
            let last = forged.len() - 1;
            forged[last] ^= 0x80; // a bit of the commitment
            assert_eq!(open(&ours, &nonce, &aad, &forged), None);
        }
    }
    let nonce = rng.bytes(19);
    let segments: Vec<Vec<u8>> = [4096, 1, 0, 300].iter().map(|&n| rng.bytes(n)).collect();
    let sealed = stream_seal(
        build::<xaes_gcm::KcXaes256Gcm>(&key),
        &nonce,
        b"s",
        &segments,
    );
    assert!(
        sealed
            .iter()
            .zip(&segments)
            .all(|(s, p)| s.len() == p.len() + 48)
    );
    assert_eq!(
        stream_open(build::<xaes_gcm::KcXaes256Gcm>(&key), &nonce, b"s", &sealed).as_ref(),
        Some(&segments)
    );
}
