//! Differential seal and open against the peers: ring and RustCrypto
//! `aes-gcm` for AES-GCM, RustCrypto `aes-gcm-siv` for AES-GCM-SIV, on every
//! tier this CPU has. Outputs must be byte-identical and each side must
//! open the other's.
//!
//! Input: `control, aad_len, len[2], key[32], nonce[12], aad[aad_len],
//! pattern`: alg = control bits 0-1, the plaintext is `len % 8192` bytes
//! repeating `pattern`.
#![no_main]

use aes_gcm::aead::{Aead as _, KeyInit, Payload};
use hardware_aead::AeadKey;
use hardware_aead_fuzz::{Alg, TIERS, Input, NONCE_LEN, make_key, stretch};
use libfuzzer_sys::fuzz_target;
use ring::aead as ring_aead;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let alg = Alg::from_byte(input.byte());
    let aad_len = usize::from(input.byte());
    let len = usize::from(input.u16()) % 8192;
    let key = input.array::<32>();
    let nonce = input.array::<NONCE_LEN>();
    let aad = input.bytes(aad_len);
    let plaintext = stretch(input.rest(), len);
    let payload = Payload {
        msg: &plaintext,
        aad,
    };
    let peers: Vec<Vec<u8>> = match alg {
        Alg::Aes128Gcm => vec![
            ring_seal(&ring_aead::AES_128_GCM, &key[..16], &nonce, aad, &plaintext),
            aes_gcm::Aes128Gcm::new_from_slice(&key[..16])
                .unwrap()
                .encrypt((&nonce).into(), payload)
                .unwrap(),
        ],
        Alg::Aes256Gcm => vec![
            ring_seal(&ring_aead::AES_256_GCM, &key, &nonce, aad, &plaintext),
            aes_gcm::Aes256Gcm::new_from_slice(&key)
                .unwrap()
                .encrypt((&nonce).into(), payload)
                .unwrap(),
        ],
        Alg::Aes128GcmSiv => vec![
            aes_gcm_siv::Aes128GcmSiv::new_from_slice(&key[..16])
                .unwrap()
                .encrypt((&nonce).into(), payload)
                .unwrap(),
        ],
        Alg::Aes256GcmSiv => vec![
            aes_gcm_siv::Aes256GcmSiv::new_from_slice(&key)
                .unwrap()
                .encrypt((&nonce).into(), payload)
                .unwrap(),
        ],
    };
    hardware_aead_fuzz::dispatch!(alg, compare(&key, &nonce, aad, &plaintext, &peers));
    // The peers open our sealing (the same bytes as theirs, checked next).
    let ours = peers[0].clone();
    let opened = match alg {
        Alg::Aes128Gcm => aes_gcm::Aes128Gcm::new_from_slice(&key[..16])
            .unwrap()
            .decrypt((&nonce).into(), Payload { msg: &ours, aad }),
        Alg::Aes256Gcm => aes_gcm::Aes256Gcm::new_from_slice(&key)
            .unwrap()
            .decrypt((&nonce).into(), Payload { msg: &ours, aad }),
        Alg::Aes128GcmSiv => aes_gcm_siv::Aes128GcmSiv::new_from_slice(&key[..16])
            .unwrap()
            .decrypt((&nonce).into(), Payload { msg: &ours, aad }),
        Alg::Aes256GcmSiv => aes_gcm_siv::Aes256GcmSiv::new_from_slice(&key)
            .unwrap()
            .decrypt((&nonce).into(), Payload { msg: &ours, aad }),
    };
    assert_eq!(opened.expect("the peer opens the sealing"), plaintext);
});

fn ring_seal(
    alg: &'static ring_aead::Algorithm,
    key: &[u8],
    nonce: &[u8; 12],
    aad: &[u8],
    plaintext: &[u8],
) -> Vec<u8> {
    let key = ring_aead::LessSafeKey::new(ring_aead::UnboundKey::new(alg, key).unwrap());
    let mut buffer = plaintext.to_vec();
    key.seal_in_place_append_tag(
        ring_aead::Nonce::assume_unique_for_key(*nonce),
        ring_aead::Aad::from(aad),
        &mut buffer,
    )
    .unwrap();
    buffer
}

fn compare<K: AeadKey<Nonce = [u8; 12]>>(
    key: &[u8; 32],
    nonce: &[u8; 12],
    aad: &[u8],
    plaintext: &[u8],
    peers: &[Vec<u8>],
) {
    for tier in TIERS {
        let Some(k) = make_key::<K>(key, Some(tier)) else {
            continue;
        };
        let ours = k.seal(nonce, aad, plaintext).expect("seal");
        for (i, theirs) in peers.iter().enumerate() {
            assert_eq!(&ours, theirs, "{tier:?} differs from peer {i}");
        }
        assert_eq!(
            k.open(nonce, aad, &peers[0])
                .expect("open the peer's sealing"),
            plaintext
        );
    }
}
