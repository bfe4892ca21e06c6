//! AEGIS's state words on x86_64 registers (`backend::aegis::Lanes`), and
//! the AES-NI tier's kernel. The algorithm is `backend/aegis.rs`; what a
//! tier adds is which registers hold a word and the feature list its kernel
//! is compiled with:
//!
//! - [`Xmm<D>`]: `D` xmm registers, a lane each (`aesenc`): AEGIS-128L and
//!   AEGIS-256 on every tier, and every variant on the AES-NI tier;
//! - [`Ymm<N>`]: `N` ymm registers, two lanes each (VAES `vaesenc ymm`):
//!   the X2 variants on both VAES tiers, X4 on the AVX2 tier;
//! - [`Zmm`]: one zmm register, four lanes (`vaesenc zmm`): X4 on the
//!   AVX-512 tier.
//!
//! Each holds the token of the lowest tier whose instructions it uses (the
//! proof its `unsafe` intrinsic calls rest on) and is built from the token
//! of any tier above (`From`). The kernels (`aegis` here for AES-NI, and in
//! `vaes/avx2.rs` and `vaes/avx512.rs`) take the tier's token and are
//! compiled with its features, so the same `Xmm` code is legacy SSE on the
//! AES-NI tier and VEX on the VAES tiers.

use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _mm_aesenc_si128, _mm_and_si128, _mm_loadu_si128, _mm_set_epi64x,
    _mm_storeu_si128, _mm_xor_si128, _mm256_aesenc_epi128, _mm256_and_si256,
    _mm256_broadcastsi128_si256, _mm256_castsi256_si128, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_set_epi64x, _mm256_storeu_si256, _mm256_xor_si256,
    _mm512_aesenc_epi128, _mm512_and_si512, _mm512_broadcast_i32x4, _mm512_castsi512_si128,
    _mm512_extracti32x4_epi32, _mm512_loadu_si512, _mm512_set_epi64, _mm512_storeu_si512,
    _mm512_xor_si512,
};

use crate::backend::aegis::{Lanes, seal_or_open};
use crate::block::Block;
use crate::cpu::{AesNiClmul, VaesAvx2, VaesAvx512};
use crate::inout::InOut;

/// The context of lane `lane` of `lanes` (`backend::aegis::Lanes::ctx`):
/// the byte `lane`, then the byte `lanes − 1`, as the low 64 bits of the
/// block (the high 64 are zero).
const fn ctx_low(lane: usize, lanes: usize) -> i64 {
    (lane | (lanes - 1) << 8) as i64
}

/// A state word of `D` lanes in `D` xmm registers.
#[derive(Clone, Copy)]
pub(crate) struct Xmm<const D: usize>(AesNiClmul);

/// A state word of `2·N` lanes in `N` ymm registers.
#[derive(Clone, Copy)]
pub(crate) struct Ymm<const N: usize>(VaesAvx2);

/// A state word of four lanes in one zmm register.
#[derive(Clone, Copy)]
pub(crate) struct Zmm(VaesAvx512);

impl<const D: usize> From<AesNiClmul> for Xmm<D> {
    fn from(t: AesNiClmul) -> Self {
        Self(t)
    }
}

impl<const D: usize> From<VaesAvx2> for Xmm<D> {
    fn from(t: VaesAvx2) -> Self {
        Self(t.aesni())
    }
}

impl<const D: usize> From<VaesAvx512> for Xmm<D> {
    fn from(t: VaesAvx512) -> Self {
        Self(t.aesni())
    }
}

impl<const N: usize> From<VaesAvx2> for Ymm<N> {
    fn from(t: VaesAvx2) -> Self {
        Self(t)
    }
}

impl<const N: usize> From<VaesAvx512> for Ymm<N> {
    fn from(t: VaesAvx512) -> Self {
        Self(t.avx2())
    }
}

impl From<VaesAvx512> for Zmm {
    fn from(t: VaesAvx512) -> Self {
        Self(t)
    }
}

/// `Lanes<WB>` for `Xmm<D>` with `WB = 16·D`, one impl per lane count.
macro_rules! xmm_lanes {
    ($($d:literal => $rb:literal),+) => {$(
        impl Lanes<$rb> for Xmm<$d> {
            type V = [__m128i; $d];

            #[inline(always)]
            fn load(self, bytes: &[u8; $rb]) -> Self::V {
                let mut v = self.splat(0);
                for (i, lane) in v.iter_mut().enumerate() {
                    // SAFETY: SSE2 (`self.0`); lane `i` reads bytes
                    // `16i..16i + 16` of the `16·D`-byte array, and `loadu`
                    // needs no alignment.
                    *lane = unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) };
                }
                v
            }

            #[inline(always)]
            fn store(self, out: &mut [u8; $rb], v: Self::V) {
                for (i, lane) in v.iter().enumerate() {
                    // SAFETY: as in `load`, bytes `16i..16i + 16` of `out`.
                    unsafe { _mm_storeu_si128(out.as_mut_ptr().add(16 * i).cast(), *lane) };
                }
            }

            #[inline(always)]
            fn splat(self, block: u128) -> Self::V {
                // SAFETY: SSE2 (`self.0`).
                [unsafe { _mm_set_epi64x((block >> 64) as i64, block as i64) }; $d]
            }

            #[inline(always)]
            fn ctx(self) -> Self::V {
                let mut v = self.splat(0);
                if $d > 1 {
                    for (i, lane) in v.iter_mut().enumerate() {
                        // SAFETY: SSE2 (`self.0`).
                        *lane = unsafe { _mm_set_epi64x(0, ctx_low(i, $d)) };
                    }
                }
                v
            }

            #[inline(always)]
            fn xor(self, a: Self::V, b: Self::V) -> Self::V {
                let mut v = a;
                for (x, y) in v.iter_mut().zip(b) {
                    // SAFETY: SSE2 (`self.0`).
                    *x = unsafe { _mm_xor_si128(*x, y) };
                }
                v
            }

            #[inline(always)]
            fn and(self, a: Self::V, b: Self::V) -> Self::V {
                let mut v = a;
                for (x, y) in v.iter_mut().zip(b) {
                    // SAFETY: SSE2 (`self.0`).
                    *x = unsafe { _mm_and_si128(*x, y) };
                }
                v
            }

            #[inline(always)]
            fn aes_round(self, x: Self::V, k: Self::V) -> Self::V {
                let mut v = x;
                for (a, b) in v.iter_mut().zip(k) {
                    // SAFETY: AES-NI (`self.0`).
                    *a = unsafe { _mm_aesenc_si128(*a, b) };
                }
                v
            }

            #[inline(always)]
            fn fold(self, v: Self::V) -> Block {
                let mut acc = v[0];
                for lane in &v[1..] {
                    // SAFETY: SSE2 (`self.0`).
                    acc = unsafe { _mm_xor_si128(acc, *lane) };
                }
                let mut out = [0u8; 16];
                // SAFETY: SSE2 (`self.0`); `out` is 16 writable bytes.
                unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), acc) };
                out
            }
        }
    )+};
}
xmm_lanes!(1 => 16, 2 => 32, 4 => 64);

/// `Lanes<WB>` for `Ymm<N>` with `WB = 32·N`, one impl per register count.
macro_rules! ymm_lanes {
    ($($n:literal => $rb:literal),+) => {$(
        impl Lanes<$rb> for Ymm<$n> {
            type V = [__m256i; $n];

            #[inline(always)]
            fn load(self, bytes: &[u8; $rb]) -> Self::V {
                let mut v = self.splat(0);
                for (i, reg) in v.iter_mut().enumerate() {
                    // SAFETY: AVX (`self.0`); register `i` reads bytes
                    // `32i..32i + 32` of the `32·N`-byte array, and `loadu`
                    // needs no alignment.
                    *reg = unsafe { _mm256_loadu_si256(bytes.as_ptr().add(32 * i).cast()) };
                }
                v
            }

            #[inline(always)]
            fn store(self, out: &mut [u8; $rb], v: Self::V) {
                for (i, reg) in v.iter().enumerate() {
                    // SAFETY: as in `load`, bytes `32i..32i + 32` of `out`.
                    unsafe { _mm256_storeu_si256(out.as_mut_ptr().add(32 * i).cast(), *reg) };
                }
            }

            #[inline(always)]
            fn splat(self, block: u128) -> Self::V {
                // SAFETY: AVX2 (`self.0`).
                [unsafe { _mm256_broadcastsi128_si256(_mm_set_epi64x((block >> 64) as i64, block as i64)) }; $n]
            }

            #[inline(always)]
            fn ctx(self) -> Self::V {
                let mut v = self.splat(0);
                for (i, reg) in v.iter_mut().enumerate() {
                    // SAFETY: AVX (`self.0`).
                    *reg = unsafe {
                        _mm256_set_epi64x(0, ctx_low(2 * i + 1, 2 * $n), 0, ctx_low(2 * i, 2 * $n))
                    };
                }
                v
            }

            #[inline(always)]
            fn xor(self, a: Self::V, b: Self::V) -> Self::V {
                let mut v = a;
                for (x, y) in v.iter_mut().zip(b) {
                    // SAFETY: AVX2 (`self.0`).
                    *x = unsafe { _mm256_xor_si256(*x, y) };
                }
                v
            }

            #[inline(always)]
            fn and(self, a: Self::V, b: Self::V) -> Self::V {
                let mut v = a;
                for (x, y) in v.iter_mut().zip(b) {
                    // SAFETY: AVX2 (`self.0`).
                    *x = unsafe { _mm256_and_si256(*x, y) };
                }
                v
            }

            #[inline(always)]
            fn aes_round(self, x: Self::V, k: Self::V) -> Self::V {
                let mut v = x;
                for (a, b) in v.iter_mut().zip(k) {
                    // SAFETY: VAES on ymm (`self.0`).
                    *a = unsafe { _mm256_aesenc_epi128(*a, b) };
                }
                v
            }

            #[inline(always)]
            fn fold(self, v: Self::V) -> Block {
                let mut acc = v[0];
                for reg in &v[1..] {
                    // SAFETY: AVX2 (`self.0`).
                    acc = unsafe { _mm256_xor_si256(acc, *reg) };
                }
                let mut out = [0u8; 16];
                // SAFETY: AVX2 (`self.0`); `out` is 16 writable bytes.
                unsafe {
                    let lanes = _mm_xor_si128(
                        _mm256_castsi256_si128(acc),
                        _mm256_extracti128_si256::<1>(acc),
                    );
                    _mm_storeu_si128(out.as_mut_ptr().cast(), lanes);
                }
                out
            }
        }
    )+};
}
ymm_lanes!(1 => 32, 2 => 64);

impl Lanes<64> for Zmm {
    type V = __m512i;

    #[inline(always)]
    fn load(self, bytes: &[u8; 64]) -> __m512i {
        // SAFETY: AVX-512F (`self.0`); 64 readable bytes, no alignment needed.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, out: &mut [u8; 64], v: __m512i) {
        // SAFETY: AVX-512F (`self.0`); 64 writable bytes, no alignment needed.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), v) }
    }

    #[inline(always)]
    fn splat(self, block: u128) -> __m512i {
        // SAFETY: AVX-512F (`self.0`).
        unsafe { _mm512_broadcast_i32x4(_mm_set_epi64x((block >> 64) as i64, block as i64)) }
    }

    #[inline(always)]
    fn ctx(self) -> __m512i {
        // SAFETY: AVX-512F (`self.0`).
        unsafe {
            _mm512_set_epi64(
                0,
                ctx_low(3, 4),
                0,
                ctx_low(2, 4),
                0,
                ctx_low(1, 4),
                0,
                ctx_low(0, 4),
            )
        }
    }

    #[inline(always)]
    fn xor(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F (`self.0`).
        unsafe { _mm512_xor_si512(a, b) }
    }

    #[inline(always)]
    fn and(self, a: __m512i, b: __m512i) -> __m512i {
        // SAFETY: AVX-512F (`self.0`).
        unsafe { _mm512_and_si512(a, b) }
    }

    #[inline(always)]
    fn aes_round(self, x: __m512i, k: __m512i) -> __m512i {
        // SAFETY: VAES on zmm (`self.0`).
        unsafe { _mm512_aesenc_epi128(x, k) }
    }

    #[inline(always)]
    fn fold(self, v: __m512i) -> Block {
        let mut out = [0u8; 16];
        // SAFETY: AVX-512F (`self.0`); `out` is 16 writable bytes.
        unsafe {
            let lanes = _mm_xor_si128(
                _mm_xor_si128(_mm512_castsi512_si128(v), _mm512_extracti32x4_epi32::<1>(v)),
                _mm_xor_si128(
                    _mm512_extracti32x4_epi32::<2>(v),
                    _mm512_extracti32x4_epi32::<3>(v),
                ),
            );
            _mm_storeu_si128(out.as_mut_ptr().cast(), lanes);
        }
        out
    }
}

/// AEGIS on the AES-NI tier: `backend::aegis::seal_or_open` with the
/// state words in `L` (`Xmm<D>`), compiled with the tier's features.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn aegis<
    const SEAL: bool,
    L: Lanes<WB> + From<AesNiClmul>,
    const WB: usize,
    const S: usize,
    const W: usize,
    const KB: usize,
    const T: usize,
>(
    t: AesNiClmul,
    key: &[Block; KB],
    nonce: &[Block; KB],
    aad: &[u8],
    data: &mut InOut<'_>,
) -> [u8; T] {
    seal_or_open::<SEAL, L, WB, S, W, KB, T>(L::from(t), key, nonce, aad, data)
}
