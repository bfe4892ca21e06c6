//! XAES-256-GCM's key derivation on AES-NI + PCLMULQDQ (every x86_64 tier
//! has these, so every tier derives here, then runs its own GCM kernels).
//!
//! Contract of [`derive_key`]: `keys` are K's round keys, `k1` CMAC's subkey
//! K1, `kdf_blocks` the KDF's two input blocks M1 and M2 before the XOR with
//! K1 (as `u128::from_le_bytes`; `xaes_gcm.rs` builds them). It writes Kx's
//! round keys and H^1..H^`powers_count` of Kx's GHASH key into `out`, in
//! the layout `GcmKey` keeps (the rest of the powers stay zero), and wipes
//! its registers' copies. The caller passes `out` to the GCM kernels and
//! wipes it after.

use core::arch::x86_64::*;

use zeroize::Zeroize;

use super::aes::{encrypt_blocks, expand_regs, load_round_keys};
use super::clmul::{byte_reverse, mul_x, powers, powers_upto};
use super::{from_u128, load, store};
use crate::backend::xaes::MessageKey;
use crate::backend::{Block, RoundKeys};
use crate::cpu::AesNiClmul;

aesni_clmul! {
    /// CMAC's subkey K1 from K's round keys (NIST SP 800-38B §6.1), the
    /// spec's steps 1 and 2: "L = AES-256ₖ(0x00, ..., 0x00)"; "If MSB₁(L) = 0,
    /// then K1 = L << 1; Else K1 = (L << 1) ⊕ (0x00, ..., 0x00, 0b10000111)".
    /// CMAC reads a block as a big-endian bit string, so MSB₁ is bit 7 of byte
    /// 0; the conditional XOR is a mask made from that bit, not a branch.
    pub(crate) fn cmac_subkey(_token: AesNiClmul, keys: &RoundKeys<15>) -> Block {
        let rk = load_round_keys(keys);
        let mut l = [_mm_setzero_si128()];
        encrypt_blocks(&rk, &mut l);
        let mut l_bytes = store(l[0]);
        let mut value = u128::from_be_bytes(l_bytes);
        let top_bit_mask = 0u128.wrapping_sub(value >> 127);
        let k1 = ((value << 1) ^ (top_bit_mask & 0x87)).to_be_bytes();
        l.zeroize();
        l_bytes.zeroize();
        value.zeroize();
        k1
    }

    /// The per-message AES-256-GCM key; see the module contract. The spec:
    /// "Kx = AES-256ₖ(M1 ⊕ K1) || AES-256ₖ(M2 ⊕ K1)" — both blocks in one
    /// AES batch — then Kx expanded in registers (the expansion GCM-SIV uses
    /// per message), H = AES-256_Kx(0^128) in the POLYVAL form the GCM
    /// kernels take (`clmul.rs`: H' = mulX_POLYVAL(ByteReverse(H))), and its
    /// powers: the whole tree for eight, else only the first `powers_count`.
    pub(crate) fn derive_key(
        _token: AesNiClmul,
        keys: &RoundKeys<15>,
        k1: &Block,
        kdf_blocks: [u128; 2],
        powers_count: usize,
        out: &mut MessageKey,
    ) {
        let rk = load_round_keys(keys);
        let k1 = load(k1);
        let mut kx = kdf_blocks.map(|m| _mm_xor_si128(from_u128(m), k1));
        encrypt_blocks(&rk, &mut kx);
        let mut kx_keys = expand_regs::<15>(kx[0], kx[1]);
        let mut h = [_mm_setzero_si128()];
        encrypt_blocks(&kx_keys, &mut h);
        let h1 = mul_x(byte_reverse(h[0]));
        let mut p = if powers_count >= 8 { powers(h1) } else { powers_upto(h1, powers_count) };
        for (dst, src) in out.round_keys.0.iter_mut().zip(&kx_keys) {
            *dst = store(*src);
        }
        for (dst, src) in out.h_powers.0.iter_mut().zip(&p) {
            *dst = store(*src);
        }
        kx.zeroize();
        kx_keys.zeroize();
        h.zeroize();
        p.zeroize();
    }
}
