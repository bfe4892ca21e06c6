//! AEGIS, differential: for the variant and tag length the input picks, on
//! every tier this CPU has, the seal equals libaegis's (the `aegis` crate's
//! default C back-end); each side opens the other's output; every tier
//! seals alike through `seal`, `seal_to` (at an offset, guard bytes around
//! it untouched) and in place; and one bit flipped (of the nonce, the AAD,
//! the ciphertext or the tag, chosen by the input) is rejected with the
//! output left zero.
//!
//! Input: `control, aad_len, len[2], flip[2], offset, key[32], nonce[32],
//! aad[aad_len], pattern`: the variant is `control % 6` (128L, 128X2,
//! 128X4, 256, 256X2, 256X4), the tag 32 bytes when bit 3 of `control` is
//! set, else 16; the key and nonce are the first 16 (AEGIS-128 family) or 32
//! bytes of their fields; the plaintext is `len % 8192` bytes repeating
//! `pattern`; `flip` picks the bit to flip among all the nonce, AAD and
//! sealed bits; `seal_to` writes `offset & 15` bytes into its buffer.
#![no_main]

use hardware_aead::aegis::{Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4};
use hardware_aead::{AeadKey, Error};
use hardware_aead_fuzz::{Input, TIERS, stretch};
use libfuzzer_sys::fuzz_target;

/// Bytes around `seal_to`'s output that it must not touch.
const GUARD: u8 = 0x5c;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let control = input.byte();
    let aad_len = usize::from(input.byte());
    let len = usize::from(input.u16()) % 8192;
    let case = Case {
        flip: usize::from(input.u16()),
        offset: usize::from(input.byte() & 15),
        key: input.array::<32>(),
        nonce: input.array::<32>(),
        aad: input.bytes(aad_len).to_vec(),
        plaintext: Vec::new(),
    };
    let case = Case {
        plaintext: stretch(input.rest(), len),
        ..case
    };
    let tag32 = control & 8 != 0;
    // The `aegis` crate's seal (`ct ‖ tag`) and open for `$ours`'s variant
    // and tag length `$tl`.
    macro_rules! run {
        ($ours:ident, $module:ident :: $theirs:ident) => {
            if tag32 {
                run!($ours, $module::$theirs, 32)
            } else {
                run!($ours, $module::$theirs, 16)
            }
        };
        ($ours:ident, $module:ident :: $theirs:ident, $tl:literal) => {
            case.run::<$ours<$tl>>(
                |k, n, a, m| {
                    let peer = aegis::$module::$theirs::<$tl>::new(
                        k.try_into().unwrap(),
                        n.try_into().unwrap(),
                    );
                    let (mut ct, tag) = peer.encrypt(m, a);
                    ct.extend_from_slice(&tag);
                    ct
                },
                |k, n, a, c, t| {
                    let peer = aegis::$module::$theirs::<$tl>::new(
                        k.try_into().unwrap(),
                        n.try_into().unwrap(),
                    );
                    peer.decrypt(c, t.try_into().unwrap(), a).ok()
                },
            )
        };
    }
    match control % 6 {
        0 => run!(Aegis128L, aegis128l::Aegis128L),
        1 => run!(Aegis128X2, aegis128x2::Aegis128X2),
        2 => run!(Aegis128X4, aegis128x4::Aegis128X4),
        3 => run!(Aegis256, aegis256::Aegis256),
        4 => run!(Aegis256X2, aegis256x2::Aegis256X2),
        _ => run!(Aegis256X4, aegis256x4::Aegis256X4),
    }
});

struct Case {
    flip: usize,
    offset: usize,
    key: [u8; 32],
    nonce: [u8; 32],
    aad: Vec<u8>,
    plaintext: Vec<u8>,
}

impl Case {
    /// `peer_seal(key, nonce, aad, msg)` gives `ct ‖ tag`;
    /// `peer_open(key, nonce, aad, ct, tag)` the plaintext or `None`.
    fn run<K: AeadKey>(
        &self,
        peer_seal: impl Fn(&[u8], &[u8], &[u8], &[u8]) -> Vec<u8>,
        peer_open: impl Fn(&[u8], &[u8], &[u8], &[u8], &[u8]) -> Option<Vec<u8>>,
    ) where
        K::Nonce: AsMut<[u8]>,
    {
        let key = &self.key[..K::KEY_LEN];
        let nonce = &self.nonce[..K::NONCE_LEN];
        let (Ok(key_bytes), Ok(nonce_n)) = (K::Key::try_from(key), K::Nonce::try_from(nonce))
        else {
            unreachable!("KEY_LEN and NONCE_LEN bytes")
        };
        let (aad, plaintext) = (&self.aad[..], &self.plaintext[..]);
        let expected = peer_seal(key, nonce, aad, plaintext);
        let text_len = plaintext.len();
        for tier in TIERS {
            let k = match K::with_tier(&key_bytes, tier) {
                Ok(k) => k,
                Err(Error::UnsupportedCpu { .. }) => continue,
                Err(e) => panic!("with_tier({tier:?}): {e:?}"),
            };
            let ours = k.seal(&nonce_n, aad, plaintext).expect("seal");
            assert!(ours == expected, "{tier:?} differs from libaegis");
            let (ct, tag) = ours.split_at(text_len);
            let opened = peer_open(key, nonce, aad, ct, tag);
            assert!(
                opened.as_deref() == Some(plaintext),
                "libaegis does not open {tier:?}'s sealing"
            );
            assert!(k.open(&nonce_n, aad, &expected).expect("open") == plaintext);

            let mut out = vec![GUARD; self.offset + expected.len() + 9];
            let n = k
                .seal_to(&nonce_n, aad, plaintext, &mut out[self.offset..])
                .expect("seal_to");
            assert_eq!(n, expected.len());
            assert!(out[self.offset..self.offset + n] == expected[..]);
            assert!(
                out[..self.offset]
                    .iter()
                    .chain(&out[self.offset + n..])
                    .all(|&b| b == GUARD),
                "seal_to wrote outside its output"
            );
            let mut buffer = plaintext.to_vec();
            let tag = k
                .seal_in_place_detached(&nonce_n, aad, &mut buffer)
                .expect("seal in place");
            assert!(buffer == expected[..text_len] && tag.as_ref() == &expected[text_len..]);

            self.assert_flipped_bit_rejected(&k, &nonce_n, &expected);
        }
    }

    /// One bit flipped among the nonce's, the AAD's and the sealing's (bit
    /// `flip` modulo their count) is rejected, with the output left zero.
    fn assert_flipped_bit_rejected<K: AeadKey>(&self, key: &K, nonce: &K::Nonce, sealed: &[u8])
    where
        K::Nonce: AsMut<[u8]>,
    {
        let (mut n, mut a, mut s) = (*nonce, self.aad.clone(), sealed.to_vec());
        let nonce_len = n.as_mut().len();
        let bit = self.flip % (8 * (nonce_len + a.len() + s.len()));
        let (byte, mask) = (bit / 8, 1u8 << (bit % 8));
        if byte < nonce_len {
            n.as_mut()[byte] ^= mask;
        } else if byte < nonce_len + a.len() {
            a[byte - nonce_len] ^= mask;
        } else {
            s[byte - nonce_len - a.len()] ^= mask;
        }
        let mut out = vec![0xa5u8; self.plaintext.len()];
        assert_eq!(
            key.open_to(&n, &a, &s, &mut out),
            Err(Error::Authentication),
            "bit {bit}"
        );
        assert!(
            out.iter().all(|&b| b == 0),
            "forged plaintext left in the output"
        );
    }
}
