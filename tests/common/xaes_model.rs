//! XAES-256-GCM's and KC-XAES-256-GCM's oracles: the C2SP spec's key
//! derivation and the commitment of IACR ePrint 2025/758 written out by the
//! book on the slow AES of `src/model.rs`, and RustCrypto `xaes-256-gcm`. A
//! test binary that includes the model includes this file beside it
//! (`#[path = "common/xaes_model.rs"] mod xaes_model;`).

#![allow(dead_code)] // each test binary uses a subset

use hardware_aead::aes_gcm::Aes256Gcm;

use crate::model;

/// The spec's intermediate values for key `key` and nonce `nonce`.
pub struct Derivation {
    pub l: [u8; 16],
    pub k1: [u8; 16],
    pub m1: [u8; 16],
    pub m2: [u8; 16],
    pub kx: [u8; 32],
    pub nx: [u8; 12],
}

/// Steps 1 to 6 of the spec's "Detailed key derivation algorithm", on the
/// model's FIPS-197 AES.
pub fn derive(key: &[u8; 32], nonce: &[u8; 24]) -> Derivation {
    // 1. L = AES-256ₖ(0x00, ..., 0x00)
    let l = model::aes_encrypt_block(key, &[0u8; 16]);
    // 2. If MSB₁(L) = 0, then K1 = L << 1; Else K1 = (L << 1) ⊕ (0x00, ..., 0x00, 0b10000111)
    let mut k1 = [0u8; 16];
    for i in 0..16 {
        let carry = if i < 15 { l[i + 1] >> 7 } else { 0 };
        k1[i] = (l[i] << 1) | carry;
    }
    if l[0] & 0x80 != 0 {
        k1[15] ^= 0b1000_0111;
    }
    // 3. M1 = 0x00 || 0x01 || 0x58 || 0x00 || N[:12]; 4. M2 likewise with 0x02.
    let mut m1 = [0u8; 16];
    m1[..4].copy_from_slice(&[0x00, 0x01, 0x58, 0x00]);
    m1[4..].copy_from_slice(&nonce[..12]);
    let mut m2 = m1;
    m2[1] = 0x02;
    // 5. Kₓ = AES-256ₖ(M1 ⊕ K1) || AES-256ₖ(M2 ⊕ K1)
    let xor = |m: &[u8; 16]| -> [u8; 16] { core::array::from_fn(|i| m[i] ^ k1[i]) };
    let mut kx = [0u8; 32];
    kx[..16].copy_from_slice(&model::aes_encrypt_block(key, &xor(&m1)));
    kx[16..].copy_from_slice(&model::aes_encrypt_block(key, &xor(&m2)));
    // 6. Nₓ = N[12:]
    let mut nx = [0u8; 12];
    nx.copy_from_slice(&nonce[12..]);
    Derivation {
        l,
        k1,
        m1,
        m2,
        kx,
        nx,
    }
}

/// XAES-256-GCM by the book: the KDF above, then the model's AES-256-GCM.
pub fn model_seal(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let d = derive(key, nonce);
    model::gcm_seal(&d.kx, &d.nx, aad, pt)
}

/// The KDF above, then this crate's AES-256-GCM (fast enough for many cases).
pub fn kdf_then_aes256gcm(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let d = derive(key, nonce);
    Aes256Gcm::new(&d.kx)
        .expect("AES-256-GCM key")
        .seal(&d.nx, aad, pt)
        .expect("seal")
}

/// RustCrypto `xaes-256-gcm`.
pub fn rustcrypto_seal(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    use xaes_256_gcm::aead::{Aead as _, KeyInit, Payload};
    let peer = xaes_256_gcm::Xaes256Gcm::new_from_slice(key).expect("key");
    peer.encrypt(&xaes_256_gcm::Nonce::from(*nonce), Payload { msg: pt, aad })
        .expect("RustCrypto seal")
}

/// RustCrypto `xaes-256-gcm`'s open.
pub fn rustcrypto_open(
    key: &[u8; 32],
    nonce: &[u8; 24],
    aad: &[u8],
    sealed: &[u8],
) -> Option<Vec<u8>> {
    use xaes_256_gcm::aead::{Aead as _, KeyInit, Payload};
    let peer = xaes_256_gcm::Xaes256Gcm::new_from_slice(key).expect("key");
    peer.decrypt(
        &xaes_256_gcm::Nonce::from(*nonce),
        Payload { msg: sealed, aad },
    )
    .ok()
}

/// The key commitment of IACR ePrint 2025/758 (AWS-LC's key-committing
/// XAES-256-GCM), by the book on the model's AES: X = AES-256ₖ("XCMT" ‖
/// N[:12]); KCᵢ = AES-256ₖ(X ⊕ (N[12:] ‖ 0x00 0x01 0x00 i) ⊕ K1), i = 1, 2.
pub fn model_commitment(key: &[u8; 32], nonce: &[u8; 24]) -> [u8; 32] {
    let d = derive(key, nonce);
    let mut x0 = [0u8; 16];
    x0[..4].copy_from_slice(b"XCMT");
    x0[4..].copy_from_slice(&nonce[..12]);
    let x = model::aes_encrypt_block(key, &x0);
    let mut out = [0u8; 32];
    for i in 1..=2u8 {
        let mut t = [0u8; 16];
        t[..12].copy_from_slice(&nonce[12..]);
        t[12..].copy_from_slice(&[0x00, 0x01, 0x00, i]);
        let w: [u8; 16] = core::array::from_fn(|j| x[j] ^ t[j] ^ d.k1[j]);
        let at = 16 * usize::from(i - 1);
        out[at..at + 16].copy_from_slice(&model::aes_encrypt_block(key, &w));
    }
    out
}

/// KC-XAES-256-GCM by the book: XAES-256-GCM's `ciphertext ‖ tag` (the
/// slow model up to 64 bytes, the KDF and this crate's AES-256-GCM beyond),
/// then the commitment.
pub fn model_kc_seal(key: &[u8; 32], nonce: &[u8; 24], aad: &[u8], pt: &[u8]) -> Vec<u8> {
    let mut sealed = if pt.len() <= 64 {
        model_seal(key, nonce, aad, pt)
    } else {
        kdf_then_aes256gcm(key, nonce, aad, pt)
    };
    sealed.extend_from_slice(&model_commitment(key, nonce));
    sealed
}
