//! AEGIS's state words on aarch64 registers (`backend::aegis::Register`),
//! and the tier's kernel, as `backend/x86_64/aegis.rs` for x86_64's `Xmm`:
//! `D` `uint8x16_t` registers, a lane each. `AESRound(x, k)` is `AESE` with a
//! zero round key (AddRoundKey of zero, SubBytes, ShiftRows), `AESMC`
//! (MixColumns), then `EOR` with `k`: the AES round in the order x86's
//! `aesenc` runs it.

use core::arch::aarch64::{
    uint8x16_t, vaeseq_u8, vaesmcq_u8, vandq_u8, vdupq_n_u8, veorq_u8, vld1q_u8, vst1q_u8,
};

use crate::backend::aegis::{Lanes, Register, Regs, seal_or_open};
use crate::block::Block;
use crate::cpu::Armv8;
use crate::inout::InOut;

/// A NEON register, one lane; the tier's token.
#[derive(Clone, Copy)]
pub(crate) struct NeonRegister(Armv8);

/// A state word of `D` lanes in `D` NEON registers.
pub(crate) type Neon<const D: usize> = Regs<NeonRegister, 16, D>;

impl<const D: usize> From<Armv8> for Neon<D> {
    fn from(t: Armv8) -> Self {
        Regs(NeonRegister(t))
    }
}

impl Register<16> for NeonRegister {
    type R = uint8x16_t;

    #[inline(always)]
    fn load(self, bytes: &[u8; 16]) -> uint8x16_t {
        // SAFETY: NEON (`self.0`); 16 readable bytes.
        unsafe { vld1q_u8(bytes.as_ptr()) }
    }

    #[inline(always)]
    fn store(self, out: &mut [u8; 16], r: uint8x16_t) {
        // SAFETY: NEON (`self.0`); 16 writable bytes.
        unsafe { vst1q_u8(out.as_mut_ptr(), r) }
    }

    #[inline(always)]
    fn splat(self, block: u128) -> uint8x16_t {
        self.load(&block.to_le_bytes())
    }

    #[inline(always)]
    fn ctx(self, first: usize, lanes: usize) -> uint8x16_t {
        self.splat((first | (lanes - 1) << 8) as u128)
    }

    #[inline(always)]
    fn xor(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON (`self.0`).
        unsafe { veorq_u8(a, b) }
    }

    #[inline(always)]
    fn and(self, a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON (`self.0`).
        unsafe { vandq_u8(a, b) }
    }

    #[inline(always)]
    fn aes_round(self, x: uint8x16_t, k: uint8x16_t) -> uint8x16_t {
        // SAFETY: NEON and AES (`self.0`).
        unsafe { aes_round(x, k) }
    }

    #[inline(always)]
    fn fold(self, r: uint8x16_t) -> Block {
        let mut out = [0u8; 16];
        self.store(&mut out, r);
        out
    }
}

/// `AESRound(x, k)` on one register. (A function of its own: the AES
/// intrinsics are `#[inline(always)]` with the AES feature and may be
/// called only from code compiled with it.)
#[inline]
#[target_feature(enable = "neon,aes")]
fn aes_round(x: uint8x16_t, k: uint8x16_t) -> uint8x16_t {
    veorq_u8(vaesmcq_u8(vaeseq_u8(x, vdupq_n_u8(0))), k)
}

/// AEGIS on the ARMv8 tier: `backend::aegis::seal_or_open` with the state
/// words in `L` (`Neon<D>`), compiled with the tier's features.
#[target_feature(enable = "neon,aes")]
pub(crate) fn aegis<
    const SEAL: bool,
    L: Lanes<WB> + From<Armv8>,
    const WB: usize,
    const S: usize,
    const W: usize,
    const KB: usize,
    const T: usize,
>(
    t: Armv8,
    key: &[Block; KB],
    nonce: &[Block; KB],
    aad: &[u8],
    data: &mut InOut<'_>,
) -> [u8; T] {
    seal_or_open::<SEAL, L, WB, S, W, KB, T>(L::from(t), key, nonce, aad, data)
}
