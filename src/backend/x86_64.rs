//! x86_64 kernels: three tiers over shared pieces.
//!
//! - Every tier: `aes` (key schedule, block encryption), `clmul` (the
//!   GF(2^128) arithmetic of GHASH and POLYVAL), `engine` (the stitched
//!   CTR + hash loops, generic over the tier contract `engine::Pieces`) and
//!   the loads and stores below.
//! - `aesni`: the AES-NI + PCLMULQDQ tier. Its files have aarch64
//!   counterparts with the same names, functions and contracts (`ctr`,
//!   `gcm`, `siv`, `xaes`). The VAES tiers call it for what is too short for
//!   a wide register group, and for XAES's key derivation.
//! - `vaes`: the VAES + VPCLMULQDQ tiers, `vaes::avx2` (256-bit registers)
//!   and `vaes::avx512` (512-bit), with what they share.

pub(crate) mod aegis;
pub(crate) mod aes;
pub(crate) mod aesni;
pub(crate) mod clmul;
mod engine;
pub(crate) mod vaes;

use core::arch::x86_64::{
    __m128i, _mm_loadu_si128, _mm_set_epi64x, _mm_setzero_si128, _mm_storeu_si128,
};

use crate::block::Block;

/// Key material a kernel reads as one 16-byte block: a round key or a power
/// of the hash key, as bytes (`Block`: the key state), as a register value
/// (`__m128i`: keys derived per message), or as a wide register that holds
/// it in every lane (`__m256i`, `__m512i`: round keys a VAES tier broadcast
/// once for a CTR-only pass, `engine::Pieces::ctr_keys`). The kernels' `B`
/// parameters take any of them, so one loop serves all.
///
/// # Safety
///
/// A value of an implementing type starts with 16 initialized bytes that
/// are the block: the `asm!` blocks that broadcast a key read those 16
/// bytes at its address.
pub(crate) unsafe trait KeyBlock: Copy {}

// SAFETY: 16 bytes, all initialized: the block.
unsafe impl KeyBlock for Block {}
// SAFETY: 16 bytes of plain data: the block.
unsafe impl KeyBlock for __m128i {}
// SAFETY: 32 bytes of plain data; used for a block in both lanes, so the first 16 are it.
unsafe impl KeyBlock for core::arch::x86_64::__m256i {}
// SAFETY: 64 bytes of plain data; used for a block in all four lanes, so the first 16 are it.
unsafe impl KeyBlock for core::arch::x86_64::__m512i {}

/// Loads a block into a register.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn load(block: &Block) -> __m128i {
    // SAFETY: `block` is 16 readable bytes; `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(block.as_ptr().cast()) }
}

/// Stores a register as a block.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn store(value: __m128i) -> Block {
    let mut block = [0u8; 16];
    // SAFETY: `block` is 16 writable bytes; `storeu` has no alignment requirement.
    unsafe { _mm_storeu_si128(block.as_mut_ptr().cast(), value) };
    block
}

/// Stores each of `N` registers as a block.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn store_each<const N: usize>(values: &[__m128i; N]) -> [Block; N] {
    let mut out = [[0u8; 16]; N];
    for (dst, src) in out.iter_mut().zip(values) {
        *dst = store(*src);
    }
    out
}

/// A block passed by value (`u128::from_le_bytes` of its bytes) into a register.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn from_u128(block: u128) -> __m128i {
    _mm_set_epi64x((block >> 64) as i64, block as i64)
}

/// Loads `N` consecutive blocks from a byte array of `16 * N` bytes.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
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
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn store_blocks<const N: usize, const B: usize>(values: &[__m128i; N]) -> [u8; B] {
    let mut out = [0u8; B];
    store_blocks_to(&mut out, values);
    out
}

/// Stores `N` registers into `16 * N` consecutive bytes.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn store_blocks_to<const N: usize, const B: usize>(
    out: &mut [u8; B],
    values: &[__m128i; N],
) {
    const { assert!(B == 16 * N) };
    for (i, v) in values.iter().enumerate() {
        // SAFETY: block `i < N` lies at bytes 16i..16i+16 of the `16 * N`-byte array.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().add(16 * i).cast(), *v) };
    }
}
