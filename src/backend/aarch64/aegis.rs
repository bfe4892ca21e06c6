//! AEGIS's state words on aarch64 registers (`backend::aegis::Register`),
//! and the tier's kernel, as `backend/x86_64/aegis.rs` for x86_64's `Xmm`:
//! `D` `uint8x16_t` registers, a lane each. `AESRound(x, k)` is `AESE` with a
//! zero round key (AddRoundKey of zero, SubBytes, ShiftRows), `AESMC`
//! (MixColumns), then `EOR` with `k`: the AES round in the order x86's
//! `aesenc` runs it.
//!
//! The one- and two-lane variants have two instances: the three-way XORs
//! (`Lanes::xor3`: a message word's round output, old value and message,
//! and the tag's words) as one `EOR3` where the CPU has FEAT_SHA3
//! (`cpu::aarch64::has_eor3`, read per call as the GCM loops do), or as two
//! `EOR`s. The keystream keeps its `EOR`s: it feeds decryption's plaintext,
//! and so the next state, where `EOR3`'s longer latency costs more than
//! the instruction it saves (modelled: docs/benchmarks.md, "AEGIS on
//! aarch64").

use core::arch::aarch64::{
    uint8x16_t, vaeseq_u8, vaesmcq_u8, vandq_u8, vdupq_n_u8, veorq_u8, vld1q_u8, vst1q_u8,
};

use core::marker::PhantomData;

use crate::backend::aarch64::clmul::xor3;
use crate::backend::aegis::{Lanes, Register, Regs, seal_or_open};
use crate::block::Block;
use crate::cpu::Armv8;
use crate::inout::InOut;

/// A NEON register, one lane; the tier's token. `EOR3`: whether
/// [`Register::xor3`] is one `EOR3` (only instantiated where
/// `cpu::aarch64::has_eor3` said so).
#[derive(Clone, Copy)]
pub(crate) struct NeonRegister<const EOR3: bool>(Armv8);

/// A state word of `D` lanes in `D` NEON registers, three-way XORs as two
/// `EOR`s; [`aegis`] runs its `EOR3` twin where the CPU has FEAT_SHA3.
pub(crate) type Neon<const D: usize> = Regs<NeonRegister<false>, 16, D>;

/// [`Neon<D>`] with each three-way XOR one `EOR3`.
type NeonEor3<const D: usize> = Regs<NeonRegister<true>, 16, D>;

impl<const D: usize, const EOR3: bool> From<Armv8> for Regs<NeonRegister<EOR3>, 16, D> {
    fn from(t: Armv8) -> Self {
        Regs(NeonRegister(t), PhantomData)
    }
}

/// A NEON state word type (`Neon<D>`, as `backend::aegis_dispatch!` names
/// it) and its `EOR3` twin.
pub(crate) trait NeonLanes<const WB: usize>: Lanes<WB> + From<Armv8> {
    /// The same word with each three-way XOR one `EOR3`.
    type Eor3: Lanes<WB> + From<Armv8>;
}

impl<const WB: usize> NeonLanes<WB> for Neon<1> {
    type Eor3 = NeonEor3<1>;
}

impl<const WB: usize> NeonLanes<WB> for Neon<2> {
    type Eor3 = NeonEor3<2>;
}

/// The X4 variants keep two `EOR`s: their state is all 32 NEON registers
/// and spills either way, and with `EOR3` LLVM leaves the per-lane loops of
/// an update rolled (a loop over the four lanes, the state in memory).
impl<const WB: usize> NeonLanes<WB> for Neon<4> {
    type Eor3 = Neon<4>;
}

impl<const EOR3: bool> Register<16> for NeonRegister<EOR3> {
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
    fn xor3(self, a: uint8x16_t, b: uint8x16_t, c: uint8x16_t) -> uint8x16_t {
        if EOR3 {
            // SAFETY: NEON and AES (`self.0`), what `xor3` is compiled for;
            // its `EOR3` also needs FEAT_SHA3, and `NeonRegister<true>` is
            // used only where `cpu::aarch64::has_eor3` said the CPU has it.
            unsafe { xor3::<true>(a, b, c) }
        } else {
            self.xor(a, self.xor(b, c))
        }
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
/// words in `L` (`Neon<D>`), or in its `EOR3` twin where the CPU has
/// FEAT_SHA3, compiled with the tier's features.
#[target_feature(enable = "neon,aes")]
pub(crate) fn aegis<
    const SEAL: bool,
    L: NeonLanes<WB>,
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
    if crate::cpu::aarch64::has_eor3() {
        seal_or_open::<SEAL, L::Eor3, WB, S, W, KB, T>(L::Eor3::from(t), key, nonce, aad, data)
    } else {
        seal_or_open::<SEAL, L, WB, S, W, KB, T>(L::from(t), key, nonce, aad, data)
    }
}
