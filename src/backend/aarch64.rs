//! aarch64 kernels (ARMv8 AES + PMULL). Each file mirrors its x86_64
//! counterpart (same function names and contracts): `aes.rs` ↔ `aes.rs`,
//! `pmull.rs` ↔ `clmul.rs`, `ctr.rs` ↔ `ctr.rs`, `gcm.rs` ↔ `gcm_aesni.rs`,
//! `siv.rs` ↔ `siv.rs`.
//!
//! A block lives in a `uint8x16_t` with byte i in lane i, as `vld1q_u8` loads it.
//! aarch64 runs little-endian here, so the same register read as two 64-bit
//! lanes has bytes 0..8 in lane 0 — the layout x86's `__m128i` has — and the
//! key state (`RoundKeys`, `HPowers`) is byte for byte the same on both.

pub(crate) mod aes;
mod ctr;
pub(crate) mod gcm;
pub(crate) mod pmull;
pub(crate) mod siv;
pub(crate) mod xaes;

use core::arch::aarch64::*;

use crate::backend::Block;

// Big-endian aarch64 would put the bytes of each 64-bit lane the other way round.
#[cfg(not(target_endian = "little"))]
compile_error!("the aarch64 backend assumes a little-endian target");

armv8_aes! {
    /// Loads a block into a register.
    #[inline]
    pub(crate) fn load(block: &Block) -> uint8x16_t {
        // SAFETY: `block` is 16 readable bytes; `vld1q_u8` has no alignment requirement.
        unsafe { vld1q_u8(block.as_ptr()) }
    }

    /// Stores a register as a block.
    #[inline]
    pub(crate) fn store(value: uint8x16_t) -> Block {
        let mut block = [0u8; 16];
        // SAFETY: `block` is 16 writable bytes; `vst1q_u8` has no alignment requirement.
        unsafe { vst1q_u8(block.as_mut_ptr(), value) };
        block
    }

    /// A block passed by value (`u128::from_le_bytes` of its bytes) into a register.
    #[inline]
    pub(crate) fn from_u128(block: u128) -> uint8x16_t {
        vreinterpretq_u8_p128(block)
    }

    /// The all-zero block.
    #[inline]
    pub(crate) fn zero() -> uint8x16_t {
        vdupq_n_u8(0)
    }

    /// Loads `N` consecutive blocks from a byte array of `16 * N` bytes.
    #[inline]
    pub(crate) fn load_blocks<const N: usize, const B: usize>(bytes: &[u8; B]) -> [uint8x16_t; N] {
        const { assert!(B == 16 * N) };
        let mut out = [zero(); N];
        for (i, v) in out.iter_mut().enumerate() {
            // SAFETY: block `i < N` lies at bytes 16i..16i+16 of the `16 * N`-byte array.
            *v = unsafe { vld1q_u8(bytes.as_ptr().add(16 * i)) };
        }
        out
    }

    /// Stores `N` registers as `16 * N` consecutive bytes.
    #[inline]
    pub(crate) fn store_blocks<const N: usize, const B: usize>(values: &[uint8x16_t; N]) -> [u8; B] {
        let mut out = [0u8; B];
        store_blocks_to(&mut out, values);
        out
    }

    /// Stores `N` registers into `16 * N` consecutive bytes.
    #[inline]
    pub(crate) fn store_blocks_to<const N: usize, const B: usize>(out: &mut [u8; B], values: &[uint8x16_t; N]) {
        const { assert!(B == 16 * N) };
        for (i, v) in values.iter().enumerate() {
            // SAFETY: block `i < N` lies at bytes 16i..16i+16 of the `16 * N`-byte array.
            unsafe { vst1q_u8(out.as_mut_ptr().add(16 * i), *v) };
        }
    }
}
