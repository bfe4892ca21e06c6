//! Byte-identical interoperation, every 96-bit-nonce key type (AES-GCM and
//! AES-GCM-SIV, both key sizes) through one check: for a range of lengths,
//! on every tier, our output equals each peer's (combined and detached),
//! ours opens under each peer and each peer's under every open API of ours,
//! and a forged tag is rejected by all. The peers: ring and RustCrypto
//! `aes-gcm` 0.11 for AES-GCM; RustCrypto `aes-gcm-siv` 0.12, through its
//! combined (`Aead`) and detached (`AeadInOut`) calls, for AES-GCM-SIV.
//! XAES-256-GCM's interoperation with RustCrypto `xaes-256-gcm` is part of
//! its differential tests (`tests/differential.rs`).

// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

mod common;

use common::{
    TestRng, assert_opens, each_tier_from_slice, ring_open, ring_seal, rustcrypto_siv_open,
    rustcrypto_siv_seal, to_hex,
};
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::{AeadKey, TAG_LEN, Tag};

/// A seal of (key, nonce, aad, plaintext) into `ct || tag`.
type SealFn = fn(&[u8], &[u8; 12], &[u8], &[u8]) -> Vec<u8>;
/// An open of (key, nonce, aad, `ct || tag`): the plaintext, or `None`.
type OpenFn = fn(&[u8], &[u8; 12], &[u8], &[u8]) -> Option<Vec<u8>>;

/// Another implementation of the same algorithm, the key as bytes.
struct Peer {
    name: &'static str,
    seal: SealFn,
    open: OpenFn,
}

/// A key type and the peers it must be byte-identical with.
trait Peers: AeadKey<Nonce = [u8; 12], Tag = Tag> {
    const PEERS: &'static [Peer];
}

const GCM_PEERS: &[Peer] = &[
    Peer {
        name: "ring",
        seal: ring_seal,
        open: ring_open,
    },
    Peer {
        name: "RustCrypto aes-gcm",
        seal: rustcrypto_gcm_seal,
        open: rustcrypto_gcm_open,
    },
];
const SIV_PEERS: &[Peer] = &[
    Peer {
        name: "RustCrypto aes-gcm-siv",
        seal: rustcrypto_siv_seal,
        open: rustcrypto_siv_open,
    },
    Peer {
        name: "RustCrypto aes-gcm-siv, detached",
        seal: rustcrypto_siv_detached,
        open: rustcrypto_siv_open_detached,
    },
];
impl Peers for Aes128Gcm {
    const PEERS: &'static [Peer] = GCM_PEERS;
}
impl Peers for Aes256Gcm {
    const PEERS: &'static [Peer] = GCM_PEERS;
}
impl Peers for Aes128GcmSiv {
    const PEERS: &'static [Peer] = SIV_PEERS;
}
impl Peers for Aes256GcmSiv {
    const PEERS: &'static [Peer] = SIV_PEERS;
}

/// RustCrypto `aes-gcm` seal: ct || tag.
fn rustcrypto_gcm_seal(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    use aes_gcm::aead::{Aead as _, KeyInit, Payload};
    let payload = Payload { msg: pt, aad };
    let nonce = &aes_gcm::Nonce::try_from(&nonce[..]).expect("a [u8; 12] of the right length");
    match key.len() {
        16 => aes_gcm::Aes128Gcm::new_from_slice(key)
            .expect("key")
            .encrypt(nonce, payload),
        32 => aes_gcm::Aes256Gcm::new_from_slice(key)
            .expect("key")
            .encrypt(nonce, payload),
        n => panic!("{n}-byte key"),
    }
    .expect("RustCrypto seal")
}

/// RustCrypto `aes-gcm` open of ct || tag.
fn rustcrypto_gcm_open(key: &[u8], nonce: &[u8; 12], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
    use aes_gcm::aead::{Aead as _, KeyInit, Payload};
    let payload = Payload { msg: sealed, aad };
    let nonce = &aes_gcm::Nonce::try_from(&nonce[..]).expect("a [u8; 12] of the right length");
    match key.len() {
        16 => aes_gcm::Aes128Gcm::new_from_slice(key)
            .expect("key")
            .decrypt(nonce, payload),
        32 => aes_gcm::Aes256Gcm::new_from_slice(key)
            .expect("key")
            .decrypt(nonce, payload),
        n => panic!("{n}-byte key"),
    }
    .ok()
}

/// RustCrypto's detached seal (`AeadInOut`), as ct || tag.
fn rustcrypto_siv_detached(key: &[u8], nonce: &[u8; 12], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    use aes_gcm_siv::aead::{AeadInOut, KeyInit};
    let mut buffer = pt.to_vec();
    let n = &aes_gcm_siv::Nonce::try_from(&nonce[..]).expect("a [u8; 12] of the right length");
    let t = match key.len() {
        16 => aes_gcm_siv::Aes128GcmSiv::new_from_slice(key)
            .expect("key")
            .encrypt_inout_detached(n, aad, (&mut buffer[..]).into()),
        32 => aes_gcm_siv::Aes256GcmSiv::new_from_slice(key)
            .expect("key")
            .encrypt_inout_detached(n, aad, (&mut buffer[..]).into()),
        n => panic!("{n}-byte key"),
    }
    .expect("RustCrypto detached seal");
    buffer.extend_from_slice(&t);
    buffer
}

/// RustCrypto's detached open (`AeadInOut`) of ct || tag.
fn rustcrypto_siv_open_detached(
    key: &[u8],
    nonce: &[u8; 12],
    aad: &[u8],
    sealed: &[u8],
) -> Option<Vec<u8>> {
    use aes_gcm_siv::aead::{AeadInOut, KeyInit};
    let (ct, tag) = sealed.split_at_checked(sealed.len().checked_sub(TAG_LEN)?)?;
    let mut buffer = ct.to_vec();
    let n = &aes_gcm_siv::Nonce::try_from(&nonce[..]).expect("a [u8; 12] of the right length");
    let t = &aes_gcm_siv::Tag::try_from(tag).expect("a Tag of the right length");
    match key.len() {
        16 => aes_gcm_siv::Aes128GcmSiv::new_from_slice(key)
            .expect("key")
            .decrypt_inout_detached(n, aad, (&mut buffer[..]).into(), t),
        32 => aes_gcm_siv::Aes256GcmSiv::new_from_slice(key)
            .expect("key")
            .decrypt_inout_detached(n, aad, (&mut buffer[..]).into(), t),
        n => panic!("{n}-byte key"),
    }
    .ok()?;
    Some(buffer)
}

/// One message: ours (every tier) against every peer, both ways.
fn check_message<K: Peers>(rng: &mut TestRng, pt_len: usize, aad_len: usize) {
    let key = rng.bytes(K::KEY_LEN);
    let nonce: [u8; 12] = rng.array();
    let aad = rng.bytes(aad_len);
    let pt = rng.bytes(pt_len);
    let what = format!("{}-byte key, pt {pt_len}, aad {aad_len}", K::KEY_LEN);

    let theirs = (K::PEERS[0].seal)(&key, &nonce, &aad, &pt);
    for peer in &K::PEERS[1..] {
        assert_eq!(
            (peer.seal)(&key, &nonce, &aad, &pt),
            theirs,
            "{what}: {} and {} disagree",
            peer.name,
            K::PEERS[0].name
        );
    }

    for k in each_tier_from_slice::<K>(&key) {
        let t = k.tier();
        let ours = k.seal(&nonce, &aad, &pt).expect("seal");
        assert!(
            ours == theirs,
            "{what} [{t:?}]: differs from {}\n  key {}\n  nonce {}\n  ours   {}\n  theirs {}",
            K::PEERS[0].name,
            to_hex(&key),
            to_hex(&nonce),
            to_hex(&ours),
            to_hex(&theirs)
        );
        let mut buffer = pt.clone();
        let our_tag = k
            .seal_in_place_detached(&nonce, &aad, &mut buffer)
            .expect("seal_in_place_detached");
        assert!(
            [&buffer[..], &our_tag[..]].concat() == theirs,
            "{what} [{t:?}]: the detached seal differs from the combined one"
        );

        // A forged tag: the last byte changed.
        let mut forged = ours.clone();
        forged[pt_len + TAG_LEN - 1] ^= 0x40;
        assert!(
            k.open(&nonce, &aad, &forged).is_err(),
            "{what} [{t:?}]: a forged tag opened"
        );

        for peer in K::PEERS {
            assert_eq!(
                (peer.open)(&key, &nonce, &aad, &ours).as_deref(),
                Some(&pt[..]),
                "{what} [{t:?}]: {} cannot open ours",
                peer.name
            );
            assert_eq!(
                (peer.open)(&key, &nonce, &aad, &forged),
                None,
                "{what} [{t:?}]: {} opens the forgery",
                peer.name
            );
            let sealed = (peer.seal)(&key, &nonce, &aad, &pt);
            assert_opens(
                &k,
                &nonce,
                &aad,
                &sealed,
                &pt,
                &format!("{what}, sealed by {}", peer.name),
            );
        }
    }
}

/// Lengths 0..=300 (every tail and every block count up to 18 blocks) with the
/// AAD length cycling through empty, partial and multi-block values, then
/// the AAD length alone swept with a short and an empty message.
fn small_lengths<K: Peers>(seed: u64) {
    let mut rng = TestRng::new(seed);
    const AAD_LENS: [usize; 7] = [0, 1, 13, 16, 17, 64, 300];
    for pt_len in 0..=300 {
        check_message::<K>(&mut rng, pt_len, AAD_LENS[pt_len % AAD_LENS.len()]);
    }
    for aad_len in 0..=80 {
        check_message::<K>(&mut rng, 5, aad_len);
        check_message::<K>(&mut rng, 0, aad_len);
    }
}

/// The short paths (AES-GCM-SIV's one group: an AAD of at most one block, a
/// text of at most eight; AES-GCM's leaf on the AVX-512 tier: an AAD of at
/// most 16 bytes, a text of at most 64) and their neighbours: every text
/// length up to 130 bytes with AADs of 0, 1, 15, 16 and 17 bytes.
fn one_group_lengths<K: Peers>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for aad_len in [0, 1, 15, 16, 17] {
        for pt_len in 0..=130 {
            check_message::<K>(&mut rng, pt_len, aad_len);
        }
    }
}

/// Every length of `common::group_boundaries`.
fn group_boundaries<K: Peers>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for (pt_len, aad_len) in common::group_boundaries() {
        check_message::<K>(&mut rng, pt_len, aad_len);
    }
}

/// Long messages around the kernels' wide loops, and a long AAD.
fn big_lengths<K: Peers>(seed: u64) {
    let mut rng = TestRng::new(seed);
    for (pt_len, aad_len) in [
        (4096, 0),
        (4096, 4096),
        (4095, 17),
        (4097, 1),
        (8 * 16 * 7 + 3, 129),
        (0, 65536 + 7),
        (65536 + 5, 33),
    ] {
        check_message::<K>(&mut rng, pt_len, aad_len);
    }
}

/// Every length set for one key type, each with its own seed.
fn all_lengths<K: Peers>(seed: u64) {
    small_lengths::<K>(seed);
    one_group_lengths::<K>(seed + 1);
    group_boundaries::<K>(seed + 2);
    big_lengths::<K>(seed + 3);
}

#[test]
fn aes_128_gcm() {
    all_lengths::<Aes128Gcm>(0x9128_0000);
}

#[test]
fn aes_256_gcm() {
    all_lengths::<Aes256Gcm>(0x9256_0000);
}

#[test]
fn aes_128_gcm_siv() {
    all_lengths::<Aes128GcmSiv>(0x5128_0000);
}

#[test]
fn aes_256_gcm_siv() {
    all_lengths::<Aes256GcmSiv>(0x5256_0000);
}
