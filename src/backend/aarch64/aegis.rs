//! AEGIS's state words on aarch64 registers (`backend::aegis::Lanes`), and
//! the tier's kernel, as `backend/x86_64/aegis.rs` for x86_64's `Xmm`: `D`
//! `uint8x16_t` registers, a lane each. `AESRound(x, k)` is `AESE` with a
//! zero round key (AddRoundKey of zero, SubBytes, ShiftRows), `AESMC`
//! (MixColumns), then `EOR` with `k`: the AES round in the order x86's
//! `aesenc` runs it.

use core::arch::aarch64::{
    uint8x16_t, vaeseq_u8, vaesmcq_u8, vandq_u8, vdupq_n_u8, veorq_u8, vld1q_u8, vst1q_u8,
};

use crate::backend::aegis::{Lanes, seal_or_open};
use crate::block::Block;
use crate::cpu::Armv8;
use crate::inout::InOut;

/// A state word of `D` lanes in `D` NEON registers.
#[derive(Clone, Copy)]
pub(crate) struct Neon<const D: usize>(Armv8);

impl<const D: usize> From<Armv8> for Neon<D> {
    fn from(t: Armv8) -> Self {
        Self(t)
    }
}

/// `Lanes<WB>` for `Neon<D>` with `WB = 16·D`, one impl per lane count.
macro_rules! neon_lanes {
    ($($d:literal => $wb:literal),+) => {$(
        impl Lanes<$wb> for Neon<$d> {
            type V = [uint8x16_t; $d];

            #[inline(always)]
            fn load(self, bytes: &[u8; $wb]) -> Self::V {
                let mut v = self.splat(0);
                for (i, lane) in v.iter_mut().enumerate() {
                    // SAFETY: NEON (`self.0`); lane `i` reads bytes
                    // `16i..16i + 16` of the `16·D`-byte array.
                    *lane = unsafe { vld1q_u8(bytes.as_ptr().add(16 * i)) };
                }
                v
            }

            #[inline(always)]
            fn store(self, out: &mut [u8; $wb], v: Self::V) {
                for (i, lane) in v.iter().enumerate() {
                    // SAFETY: NEON (`self.0`); bytes `16i..16i + 16` of `out`.
                    unsafe { vst1q_u8(out.as_mut_ptr().add(16 * i), *lane) };
                }
            }

            #[inline(always)]
            fn splat(self, block: u128) -> Self::V {
                let bytes = block.to_le_bytes();
                // SAFETY: NEON (`self.0`); `bytes` is 16 readable bytes.
                [unsafe { vld1q_u8(bytes.as_ptr()) }; $d]
            }

            #[inline(always)]
            fn ctx(self) -> Self::V {
                let mut v = self.splat(0);
                if $d > 1 {
                    for (i, lane) in v.iter_mut().enumerate() {
                        *lane = self.splat((i | ($d - 1) << 8) as u128)[0];
                    }
                }
                v
            }

            #[inline(always)]
            fn xor(self, a: Self::V, b: Self::V) -> Self::V {
                let mut v = a;
                for (x, y) in v.iter_mut().zip(b) {
                    // SAFETY: NEON (`self.0`).
                    *x = unsafe { veorq_u8(*x, y) };
                }
                v
            }

            #[inline(always)]
            fn and(self, a: Self::V, b: Self::V) -> Self::V {
                let mut v = a;
                for (x, y) in v.iter_mut().zip(b) {
                    // SAFETY: NEON (`self.0`).
                    *x = unsafe { vandq_u8(*x, y) };
                }
                v
            }

            #[inline(always)]
            fn aes_round(self, x: Self::V, k: Self::V) -> Self::V {
                let mut v = x;
                for (a, b) in v.iter_mut().zip(k) {
                    // SAFETY: NEON and AES (`self.0`).
                    *a = unsafe { aes_round(*a, b) };
                }
                v
            }

            #[inline(always)]
            fn fold(self, v: Self::V) -> Block {
                let mut acc = v[0];
                for lane in &v[1..] {
                    // SAFETY: NEON (`self.0`).
                    acc = unsafe { veorq_u8(acc, *lane) };
                }
                let mut out = [0u8; 16];
                // SAFETY: NEON (`self.0`); `out` is 16 writable bytes.
                unsafe { vst1q_u8(out.as_mut_ptr(), acc) };
                out
            }
        }
    )+};
}
neon_lanes!(1 => 16, 2 => 32, 4 => 64);

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
