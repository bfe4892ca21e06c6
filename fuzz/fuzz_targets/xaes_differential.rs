//! XAES-256-GCM and KC-XAES-256-GCM, differential: on every tier this
//! CPU has, the XAES seal equals RustCrypto `xaes-256-gcm`'s and a model's
//! (the spec's key derivation written out on RustCrypto's AES-256 block
//! cipher, then this crate's AES-256-GCM under Kx and Nx); each side opens
//! the other's output; the KC seal equals the XAES seal followed by the
//! model's commitment (ePrint 2025/758 on the same block cipher) and opens;
//! and both sealings with one bit flipped (a bit of the nonce, the AAD, the
//! ciphertext or the tag, chosen by the input; for KC also a commitment
//! bit) are rejected with the output left zero.
//!
//! Input: `control, aad_len, len[2], flip[2], key[32], nonce[24],
//! aad[aad_len], pattern`: the plaintext is `len % 8192` bytes repeating
//! `pattern`; `flip` picks the bit to flip among all the nonce, AAD and
//! sealed bits; `control` is unused (kept for the layout of the other
//! targets).
#![no_main]

use hardware_aead::aes_gcm::Aes256Gcm;
use hardware_aead::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};
use hardware_aead::{AeadKey, Error};
use hardware_aead_fuzz::{TIERS, Input, make_key, stretch};
use libfuzzer_sys::fuzz_target;
use xaes_256_gcm::aead::{Aead as _, KeyInit, Payload};
use xaes_256_gcm::aes::cipher::BlockCipherEncrypt;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let _control = input.byte();
    let aad_len = usize::from(input.byte());
    let len = usize::from(input.u16()) % 8192;
    let flip = usize::from(input.u16());
    let key = input.array::<32>();
    let nonce = input.array::<24>();
    let aad = input.bytes(aad_len).to_vec();
    let plaintext = stretch(input.rest(), len);

    let peer = xaes_256_gcm::Xaes256Gcm::new_from_slice(&key).unwrap();
    let peer_nonce = xaes_256_gcm::Nonce::from(nonce);
    let expected = peer
        .encrypt(&peer_nonce, Payload { msg: &plaintext, aad: &aad })
        .unwrap();
    let (model, commitment) = model_seal(&key, &nonce, &aad, &plaintext);
    assert_eq!(model, expected, "the model differs from RustCrypto");
    let expected_kc = [expected.clone(), commitment.to_vec()].concat();

    for tier in TIERS {
        let Some(k) = make_key::<Xaes256Gcm>(&key, Some(tier)) else {
            continue;
        };
        let ours = k.seal(&nonce, &aad, &plaintext).expect("seal");
        assert_eq!(ours, expected, "{tier:?} differs from RustCrypto");
        let opened = peer.decrypt(&peer_nonce, Payload { msg: &ours, aad: &aad });
        assert_eq!(opened.expect("RustCrypto opens our sealing"), plaintext);
        assert_eq!(k.open(&nonce, &aad, &expected).expect("open"), plaintext);

        assert_flipped_bit_rejected(&k, &nonce, &aad, &ours, flip, plaintext.len());

        let Some(kc) = make_key::<KcXaes256Gcm>(&key, Some(tier)) else {
            continue;
        };
        let sealed = kc.seal(&nonce, &aad, &plaintext).expect("KC seal");
        assert_eq!(sealed, expected_kc, "{tier:?}: KC differs from XAES and the model's commitment");
        assert_eq!(kc.open(&nonce, &aad, &sealed).expect("KC open"), plaintext);
        // The same choice, counted over the KC sealing (32 bytes longer).
        assert_flipped_bit_rejected(&kc, &nonce, &aad, &sealed, flip, plaintext.len());
    }
});

/// One bit flipped among the nonce's, the AAD's and the sealing's (bit
/// `flip` modulo their count) is rejected, with the output left zero.
fn assert_flipped_bit_rejected<K: AeadKey<Nonce = [u8; 24]>>(
    key: &K,
    nonce: &[u8; 24],
    aad: &[u8],
    sealed: &[u8],
    flip: usize,
    text_len: usize,
) {
    let (mut n, mut a, mut s) = (*nonce, aad.to_vec(), sealed.to_vec());
    let bit = flip % (8 * (n.len() + a.len() + s.len()));
    let (byte, mask) = (bit / 8, 1u8 << (bit % 8));
    if byte < n.len() {
        n[byte] ^= mask;
    } else if byte < n.len() + a.len() {
        a[byte - n.len()] ^= mask;
    } else {
        s[byte - n.len() - a.len()] ^= mask;
    }
    let mut out = vec![0xa5u8; text_len];
    assert_eq!(key.open_to(&n, &a, &s, &mut out), Err(Error::Authentication), "bit {bit}");
    assert!(out.iter().all(|&b| b == 0), "forged plaintext left in the output");
}

/// The spec's key derivation on RustCrypto's AES-256, then this crate's
/// AES-256-GCM (a different code path from the XAES kernels: the key and
/// its powers are set up once, as for any AES-256-GCM key); and the KC
/// commitment: X = AES-256ₖ("XCMT" ‖ N[:12]), then AES-256ₖ(X ⊕ (N[12:] ‖
/// 0x0001 ‖ i) ⊕ K1) for i = 1, 2.
fn model_seal(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], plaintext: &[u8]) -> (Vec<u8>, [u8; 32]) {
    let aes = xaes_256_gcm::aes::Aes256::new_from_slice(key).unwrap();
    let encrypt = |block: [u8; 16]| {
        let mut b = xaes_256_gcm::aes::Block::from(block);
        aes.encrypt_block(&mut b);
        <[u8; 16]>::from(b)
    };
    // L = AES-256ₖ(0¹²⁸); K1 = L << 1, XOR 0x87 into the last byte if MSB₁(L) = 1.
    let l = u128::from_be_bytes(encrypt([0; 16]));
    let k1 = (l << 1) ^ if l >> 127 == 1 { 0x87 } else { 0 };
    let mut kx = [0u8; 32];
    for (i, half) in kx.chunks_exact_mut(16).enumerate() {
        // Mi = 0x00 || i || 0x58 || 0x00 || N[:12]
        let mut m = [0u8; 16];
        m[..4].copy_from_slice(&[0x00, i as u8 + 1, 0x58, 0x00]);
        m[4..].copy_from_slice(&nonce[..12]);
        half.copy_from_slice(&encrypt((u128::from_be_bytes(m) ^ k1).to_be_bytes()));
    }
    let nx: [u8; 12] = nonce[12..].try_into().unwrap();
    let mut x0 = [0u8; 16];
    x0[..4].copy_from_slice(b"XCMT");
    x0[4..].copy_from_slice(&nonce[..12]);
    let x = u128::from_be_bytes(encrypt(x0));
    let mut commitment = [0u8; 32];
    for (i, half) in commitment.chunks_exact_mut(16).enumerate() {
        let mut t = [0u8; 16];
        t[..12].copy_from_slice(&nonce[12..]);
        t[12..].copy_from_slice(&[0x00, 0x01, 0x00, i as u8 + 1]);
        half.copy_from_slice(&encrypt((x ^ u128::from_be_bytes(t) ^ k1).to_be_bytes()));
    }
    (Aes256Gcm::new(&kx).unwrap().seal(&nx, aad, plaintext).unwrap(), commitment)
}
