//! The `aegis` crate as the peer of this crate's AEGIS: its seal and open for
//! each of the twelve key types, and the sweep that compares the two. Two
//! test binaries include this file by path, each linking another build of
//! the peer:
//!
//! - `tests/aegis.rs`: the library's dev-dependency, the pure-Rust back-end
//!   (software AES);
//! - `bench/tests/aegis_libaegis.rs`: the bench member's dependency, the
//!   default back-end, the bundled C library libaegis (AES-NI, VAES and
//!   ARMv8 intrinsics).
//!
//! It stands alone (no `common` module, its own byte source), so that the
//! bench member can include it. Each binary uses a subset, hence the
//! `dead_code` allowance.

#![allow(dead_code)]

use hardware_aead::aegis::{Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4};
use hardware_aead::{AeadKey, Error, Tier};

/// The `aegis` crate's seal, `ct ‖ tag`, for the variant and tag length of
/// the implementing type, and its open of `ct ‖ tag`; and the name of the
/// draft's vector file for the variant.
pub trait Peer: AeadKey {
    fn peer_seal(key: &[u8], nonce: &[u8], aad: &[u8], pt: &[u8]) -> Vec<u8>;
    fn peer_open(key: &[u8], nonce: &[u8], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>>;
    /// The draft's vector file, relative to `tests/data/`.
    const FILE: &'static str;
}

macro_rules! peer {
    ($($ours:ty => $module:ident :: $theirs:ident, $tag:literal, $file:literal;)+) => {$(
        impl Peer for $ours {
            fn peer_seal(key: &[u8], nonce: &[u8], aad: &[u8], pt: &[u8]) -> Vec<u8> {
                let cipher = aegis::$module::$theirs::<$tag>::new(
                    key.try_into().unwrap(),
                    nonce.try_into().unwrap(),
                );
                let (mut ct, tag) = cipher.encrypt(pt, aad);
                ct.extend_from_slice(&tag);
                ct
            }

            fn peer_open(key: &[u8], nonce: &[u8], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
                let cipher = aegis::$module::$theirs::<$tag>::new(
                    key.try_into().unwrap(),
                    nonce.try_into().unwrap(),
                );
                let (ct, tag) = sealed.split_at(sealed.len() - $tag);
                cipher.decrypt(ct, tag.try_into().unwrap(), aad).ok()
            }

            const FILE: &'static str = $file;
        }
    )+};
}

peer! {
    Aegis128L<16> => aegis128l::Aegis128L, 16, "aegis/aegis-128l-test-vectors.json";
    Aegis128L<32> => aegis128l::Aegis128L, 32, "aegis/aegis-128l-test-vectors.json";
    Aegis128X2<16> => aegis128x2::Aegis128X2, 16, "aegis/aegis-128x2-test-vectors.json";
    Aegis128X2<32> => aegis128x2::Aegis128X2, 32, "aegis/aegis-128x2-test-vectors.json";
    Aegis128X4<16> => aegis128x4::Aegis128X4, 16, "aegis/aegis-128x4-test-vectors.json";
    Aegis128X4<32> => aegis128x4::Aegis128X4, 32, "aegis/aegis-128x4-test-vectors.json";
    Aegis256<16> => aegis256::Aegis256, 16, "aegis/aegis-256-test-vectors.json";
    Aegis256<32> => aegis256::Aegis256, 32, "aegis/aegis-256-test-vectors.json";
    Aegis256X2<16> => aegis256x2::Aegis256X2, 16, "aegis/aegis-256x2-test-vectors.json";
    Aegis256X2<32> => aegis256x2::Aegis256X2, 32, "aegis/aegis-256x2-test-vectors.json";
    Aegis256X4<16> => aegis256x4::Aegis256X4, 16, "aegis/aegis-256x4-test-vectors.json";
    Aegis256X4<32> => aegis256x4::Aegis256X4, 32, "aegis/aegis-256x4-test-vectors.json";
}

/// Runs `$check::<K>()` for each of the twelve key types.
macro_rules! for_each_type {
    ($check:ident) => {
        $check::<Aegis128L<16>>();
        $check::<Aegis128L<32>>();
        $check::<Aegis128X2<16>>();
        $check::<Aegis128X2<32>>();
        $check::<Aegis128X4<16>>();
        $check::<Aegis128X4<32>>();
        $check::<Aegis256<16>>();
        $check::<Aegis256<32>>();
        $check::<Aegis256X2<16>>();
        $check::<Aegis256X2<32>>();
        $check::<Aegis256X4<16>>();
        $check::<Aegis256X4<32>>();
    };
}

/// The nonce of `K` from a slice of its length.
pub fn nonce_of<K: AeadKey>(bytes: &[u8]) -> K::Nonce {
    match K::Nonce::try_from(bytes) {
        Ok(n) => n,
        Err(_) => panic!("nonce of {} bytes, expected {}", bytes.len(), K::NONCE_LEN),
    }
}

/// The key on every tier this CPU has (at least one); any error but
/// `UnsupportedCpu` fails the test.
pub fn each_tier<K: AeadKey>(key: &[u8]) -> Vec<K> {
    let Ok(key) = K::Key::try_from(key) else {
        panic!("key of {} bytes, expected {}", key.len(), K::KEY_LEN)
    };
    let tiers = [
        Tier::AesNiClmul,
        Tier::VaesAvx2,
        Tier::VaesAvx512,
        Tier::Armv8,
    ];
    let keys: Vec<K> = tiers
        .into_iter()
        .filter_map(|tier| match K::with_tier(&key, tier) {
            Ok(k) => Some(k),
            Err(Error::UnsupportedCpu { .. }) => None,
            Err(e) => panic!("with_tier({tier:?}) failed with {e:?}"),
        })
        .collect();
    assert!(!keys.is_empty(), "no tier of this build runs on this CPU");
    keys
}

/// SplitMix64 bytes: the sweep's keys, nonces and messages.
struct Bytes(u64);

impl Bytes {
    fn take(&mut self, len: usize) -> Vec<u8> {
        (0..len)
            .map(|_| {
                self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = self.0;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                (z ^ (z >> 31)) as u8
            })
            .collect()
    }
}

/// The message lengths compared with the peer: every length 0–1,100, then
/// every multiple of 16 up to 64 KiB with its neighbours at boundaries of
/// 64 and 128 bytes (the rates of every variant divide 128).
pub fn peer_lengths() -> Vec<usize> {
    let mut lens: Vec<usize> = (0..=1100).collect();
    let mut edge = 1024;
    while edge <= 65536 {
        for len in [
            edge - 129,
            edge - 65,
            edge - 17,
            edge - 1,
            edge,
            edge + 1,
            edge + 15,
            edge + 127,
        ] {
            if len > 1100 {
                lens.push(len);
            }
        }
        edge += if edge < 8192 { 1024 } else { 8192 };
    }
    lens.sort_unstable();
    lens.dedup();
    lens
}

/// On every tier: this crate's seal equals the peer's for every length of
/// [`peer_lengths`] (AD lengths cycling through 0–300) and for every AD
/// length 0–300; the peer's sealing opens here; ours opens with the peer
/// (every seventh length), and with a tag bit flipped it does not.
pub fn matches_peer_of<K: Peer>() {
    let mut rng = Bytes(0xae9 + K::KEY_LEN as u64 + K::TAG_LEN as u64);
    let key = rng.take(K::KEY_LEN);
    let keys = each_tier::<K>(&key);
    let name = core::any::type_name::<K>();
    for (i, len) in peer_lengths().into_iter().enumerate() {
        let nonce_bytes = rng.take(K::NONCE_LEN);
        let nonce = nonce_of::<K>(&nonce_bytes);
        let aad = rng.take(i % 301);
        let pt = rng.take(len);
        let theirs = K::peer_seal(&key, &nonce_bytes, &aad, &pt);
        for k in &keys {
            let ours = k.seal(&nonce, &aad, &pt).unwrap();
            assert!(
                ours == theirs,
                "{name} [{:?}]: length {len}, AD {}: differs from the aegis crate",
                k.tier(),
                aad.len()
            );
            // The peer's sealing opens here (the same bytes, through the
            // in-place call this time).
            let (ct, tag) = theirs.split_at(len);
            let mut buffer = ct.to_vec();
            let Ok(tag) = K::Tag::try_from(tag) else {
                panic!("a {}-byte tag", K::TAG_LEN)
            };
            k.open_in_place_detached(&nonce, &aad, &mut buffer, &tag)
                .unwrap();
            assert!(buffer == pt, "{name} [{:?}]: length {len}", k.tier());
        }
        if i % 7 == 0 {
            assert_eq!(
                K::peer_open(&key, &nonce_bytes, &aad, &theirs).as_deref(),
                Some(&pt[..]),
                "{name}: the peer does not open length {len}"
            );
            let mut forged = theirs.clone();
            *forged.last_mut().unwrap() ^= 1;
            assert_eq!(K::peer_open(&key, &nonce_bytes, &aad, &forged), None);
        }
    }
    for aad_len in 0..=300 {
        let nonce_bytes = rng.take(K::NONCE_LEN);
        let nonce = nonce_of::<K>(&nonce_bytes);
        let aad = rng.take(aad_len);
        let pt = rng.take(aad_len % 67);
        let theirs = K::peer_seal(&key, &nonce_bytes, &aad, &pt);
        for k in &keys {
            assert!(
                k.seal(&nonce, &aad, &pt).unwrap() == theirs,
                "{name} [{:?}]: AD length {aad_len}",
                k.tier()
            );
        }
    }
}
