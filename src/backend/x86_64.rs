//! x86_64 kernels. The AES-NI files have aarch64 counterparts with the same
//! function names and contracts (`aes`, `clmul` ↔ `pmull`, `ctr`, `gcm_aesni` ↔
//! `gcm`, `siv`, `xaes`); the wide tiers (`vaes_*`, over `engine.rs` and
//! `vaes.rs`) have none.

pub(crate) mod aes;
pub(crate) mod clmul;
mod ctr;
mod engine;
pub(crate) mod gcm_aesni;
pub(crate) mod siv;
mod vaes;
pub(crate) mod vaes_avx2;
pub(crate) mod vaes_avx512;
pub(crate) mod xaes;

use core::arch::x86_64::{
    __m128i, _mm_loadu_si128, _mm_set_epi64x, _mm_setzero_si128, _mm_storeu_si128,
};

use crate::block::Block;

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

/// The register-class pieces of a VAES tier, which differ between the
/// tiers only in the register class (`ymm_reg`, `zmm_reg`) and the
/// broadcast instruction (`vbroadcasti128`, `vbroadcasti32x4`): the AES
/// rounds as `asm!` blocks and the broadcast of a block into every lane.
/// Expanded once in each tier file, with the tier's feature list (each
/// function's `#[target_feature]`), register type (a round key in every
/// lane is a register too), register class and broadcast instruction given
/// in the call; every other name it uses is a full path. A macro because
/// `asm!` takes the register class only as a literal token. What each
/// piece is for: `engine::Pieces`.
macro_rules! vaes_register_pieces {
    (
        features = $features:literal,
        reg = $Reg:ty,
        class = $class:ident,
        broadcast = $broadcast:literal $(,)?
    ) => {
        /// One AES round on a group with round key `*k` (16 bytes), as one
        /// `asm!` block that broadcasts the key and runs the rounds. With
        /// intrinsics, LLVM regrouped the rounds into one or two long chains
        /// (both AES units need eight); broadcast apart, every round key of
        /// the group was live at once, and spilled.
        #[inline]
        #[target_feature(enable = $features)]
        fn aes_round<B, const N: usize>(b: &mut [$Reg; N], k: &B) {
            const { assert!((N == 4 || N == 8) && size_of::<B>() >= 16) };
            let kp = core::ptr::from_ref(k);
            if let Some(q) = b.first_chunk_mut::<8>() {
                $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg; 0: q[0], 1: q[1], 2: q[2], 3: q[3], 4: q[4], 5: q[5], 6: q[6], 7: q[7];);
            } else if let Some(q) = b.first_chunk_mut::<4>() {
                $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg; 0: q[0], 1: q[1], 2: q[2], 3: q[3];);
            }
        }

        /// [`aes_round`] that also passes the `P` registers of `pin` (1, 3
        /// or 4) through its `asm!` block unchanged, so that the work on
        /// them stays between the rounds (`engine::Pieces::aes_round_pinned`).
        #[inline]
        #[target_feature(enable = $features)]
        fn aes_round_pinned<B, const N: usize, const P: usize>(
            b: &mut [$Reg; N],
            k: &B,
            pin: &mut [$Reg; P],
        ) {
            const {
                assert!((N == 4 || N == 8) && (P == 1 || P == 3 || P == 4) && size_of::<B>() >= 16)
            };
            let kp = core::ptr::from_ref(k);
            if let Some(q) = b.first_chunk_mut::<8>() {
                if let Some([p0, p1, p2, p3]) = pin.first_chunk_mut::<4>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3], 4: q[4], 5: q[5], 6: q[6], 7: q[7];
                        8: *p0, 9: *p1, 10: *p2, 11: *p3);
                } else if let Some([p0, p1, p2]) = pin.first_chunk_mut::<3>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3], 4: q[4], 5: q[5], 6: q[6], 7: q[7];
                        8: *p0, 9: *p1, 10: *p2);
                } else if let Some([p0]) = pin.first_chunk_mut::<1>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3], 4: q[4], 5: q[5], 6: q[6], 7: q[7];
                        8: *p0);
                }
            } else if let Some(q) = b.first_chunk_mut::<4>() {
                if let Some([p0, p1, p2, p3]) = pin.first_chunk_mut::<4>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3]; 4: *p0, 5: *p1, 6: *p2, 7: *p3);
                } else if let Some([p0, p1, p2]) = pin.first_chunk_mut::<3>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3]; 4: *p0, 5: *p1, 6: *p2);
                } else if let Some([p0]) = pin.first_chunk_mut::<1>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3]; 4: *p0);
                }
            }
        }

        /// The block `*k` (16 bytes: a round key, or H^8) in every lane. Not
        /// `pure`, so LLVM neither hoists it out of a loop nor merges two;
        /// it may still schedule it early and spill the result, so the
        /// group loops' rounds broadcast their keys themselves.
        #[inline]
        #[target_feature(enable = $features)]
        fn broadcast_block<B>(k: &B) -> $Reg {
            const { assert!(size_of::<B>() >= 16) };
            let out: $Reg;
            // SAFETY: reads the first 16 bytes of `*k` (it has at least 16,
            // asserted above) into a register; no other memory, no stack, no
            // flags. The tier's target features provide the instruction.
            unsafe {
                core::arch::asm!(
                    concat!($broadcast, " {o}, xmmword ptr [{p}]"),
                    o = out($class) out,
                    p = in(reg) core::ptr::from_ref(k),
                    options(readonly, nostack, preserves_flags),
                );
            }
            out
        }
    };
}
pub(crate) use vaes_register_pieces;
