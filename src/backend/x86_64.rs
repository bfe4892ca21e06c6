//! x86_64 kernels. The AES-NI files have aarch64 counterparts with the same
//! function names and contracts (`aes`, `clmul` ↔ `pmull`, `ctr`, `gcm_aesni` ↔
//! `gcm`, `siv`, `xaes`); the wide tiers (`vaes_*`, with `engine.rs` and
//! `vaes.rs` mounted in each) have none.

pub(crate) mod aes;
pub(crate) mod clmul;
mod ctr;
pub(crate) mod gcm_aesni;
pub(crate) mod siv;
pub(crate) mod vaes_avx2;
pub(crate) mod vaes_avx512;
pub(crate) mod xaes;

use crate::cpu::aesni_clmul;
use core::arch::x86_64::{
    __m128i, _mm_loadu_si128, _mm_set_epi64x, _mm_setzero_si128, _mm_storeu_si128,
};

use crate::block::Block;

aesni_clmul! {
    /// Loads a block into a register.
    #[inline]
    pub(crate) fn load(block: &Block) -> __m128i {
        // SAFETY: `block` is 16 readable bytes; `loadu` has no alignment requirement.
        unsafe { _mm_loadu_si128(block.as_ptr().cast()) }
    }

    /// Stores a register as a block.
    #[inline]
    pub(crate) fn store(value: __m128i) -> Block {
        let mut block = [0u8; 16];
        // SAFETY: `block` is 16 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm_storeu_si128(block.as_mut_ptr().cast(), value) };
        block
    }

    /// Stores each of `N` registers as a block.
    #[inline]
    pub(crate) fn store_each<const N: usize>(values: &[__m128i; N]) -> [Block; N] {
        let mut out = [[0u8; 16]; N];
        for (dst, src) in out.iter_mut().zip(values) {
            *dst = store(*src);
        }
        out
    }

    /// A block passed by value (`u128::from_le_bytes` of its bytes) into a register.
    #[inline]
    pub(crate) fn from_u128(block: u128) -> __m128i {
        _mm_set_epi64x((block >> 64) as i64, block as i64)
    }

    /// Loads `N` consecutive blocks from a byte array of `16 * N` bytes.
    #[inline]
    pub(crate) fn load_blocks<const N: usize, const B: usize>(bytes: &[u8; B]) -> [__m128i; N] {
        const { assert!(B == 16 * N) };
        let mut out = [_mm_setzero_si128(); N];
        for (i, v) in out.iter_mut().enumerate() {
            // SAFETY: block `i < N` lies at bytes 16i..16i+16 of the `16 * N`-byte array.
            *v = unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) };
        }
        out
    }

    /// Stores `N` registers as `16 * N` consecutive bytes.
    #[inline]
    pub(crate) fn store_blocks<const N: usize, const B: usize>(values: &[__m128i; N]) -> [u8; B] {
        let mut out = [0u8; B];
        store_blocks_to(&mut out, values);
        out
    }

    /// Stores `N` registers into `16 * N` consecutive bytes.
    #[inline]
    pub(crate) fn store_blocks_to<const N: usize, const B: usize>(out: &mut [u8; B], values: &[__m128i; N]) {
        const { assert!(B == 16 * N) };
        for (i, v) in values.iter().enumerate() {
            // SAFETY: block `i < N` lies at bytes 16i..16i+16 of the `16 * N`-byte array.
            unsafe { _mm_storeu_si128(out.as_mut_ptr().add(16 * i).cast(), *v) };
        }
    }
}
