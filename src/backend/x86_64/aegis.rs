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
//! They are `backend::aegis::Regs` of one register type each
//! ([`XmmRegister`], [`YmmRegister`], [`ZmmRegister`]: the register's
//! instructions, `backend::aegis::Register`). A register type holds the
//! token of the lowest tier whose instructions it uses (the proof its
//! `unsafe` intrinsic calls rest on); a word is built from the token of any
//! tier above (`From`). The kernels (`aegis` here for AES-NI, and one in
//! each VAES tier's module, from `vaes_register_pieces!` in `vaes.rs`)
//! take the tier's token and are
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

use core::marker::PhantomData;

use crate::backend::aegis::{Ascending, Descending, Lanes, Register, Regs, seal_or_open};
use crate::block::Block;
use crate::cpu::{AesNiClmul, VaesAvx2, VaesAvx512};
use crate::inout::InOut;

/// The context of lane `lane` of `lanes` (`backend::aegis::Lanes::ctx`):
/// the byte `lane`, then the byte `lanes − 1`, as the low 64 bits of the
/// block (the high 64 are zero).
const fn ctx_low(lane: usize, lanes: usize) -> i64 {
    (lane | (lanes - 1) << 8) as i64
}

/// An xmm register (`aesenc`), one lane; the AES-NI tier's token.
#[derive(Clone, Copy)]
pub(crate) struct XmmRegister(AesNiClmul);

/// A ymm register (VAES `vaesenc ymm`), two lanes; the AVX2 tier's token.
#[derive(Clone, Copy)]
pub(crate) struct YmmRegister(VaesAvx2);

/// A zmm register (VAES `vaesenc zmm`), four lanes; the AVX-512 tier's token.
#[derive(Clone, Copy)]
pub(crate) struct ZmmRegister(VaesAvx512);

/// A state word of `D` lanes in `D` xmm registers; `O`: the code's layout
/// (`backend::aegis::Schedule`).
pub(crate) type Xmm<const D: usize, O = Ascending> = Regs<XmmRegister, 16, D, O>;

/// A state word of `2·N` lanes in `N` ymm registers; `O` as for [`Xmm`].
pub(crate) type Ymm<const N: usize, O = Ascending> = Regs<YmmRegister, 32, N, O>;

/// A state word of four lanes in one zmm register, an update's words
/// computed from the last (`Descending`, chosen by measurement:
/// docs/benchmarks.md, "AEGIS on Zen 5").
pub(crate) type Zmm = Regs<ZmmRegister, 64, 1, Descending>;

impl<const D: usize, O> From<AesNiClmul> for Xmm<D, O> {
    fn from(t: AesNiClmul) -> Self {
        Regs(XmmRegister(t), PhantomData)
    }
}

impl<const D: usize, O> From<VaesAvx2> for Xmm<D, O> {
    fn from(t: VaesAvx2) -> Self {
        Regs(XmmRegister(t.aesni()), PhantomData)
    }
}

impl<const D: usize, O> From<VaesAvx512> for Xmm<D, O> {
    fn from(t: VaesAvx512) -> Self {
        Regs(XmmRegister(t.aesni()), PhantomData)
    }
}

impl<const N: usize, O> From<VaesAvx2> for Ymm<N, O> {
    fn from(t: VaesAvx2) -> Self {
        Regs(YmmRegister(t), PhantomData)
    }
}

impl<const N: usize, O> From<VaesAvx512> for Ymm<N, O> {
    fn from(t: VaesAvx512) -> Self {
        Regs(YmmRegister(t.avx2()), PhantomData)
    }
}

impl From<VaesAvx512> for Zmm {
    fn from(t: VaesAvx512) -> Self {
        Regs(ZmmRegister(t), PhantomData)
    }
}

impl Register<16> for XmmRegister {
    type R = __m128i;

    #[inline(always)]
    fn load(self, bytes: &[u8; 16]) -> __m128i {
        // SAFETY: SSE2 (`self.0`); 16 readable bytes, no alignment needed.
        unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, out: &mut [u8; 16], r: __m128i) {
        // SAFETY: SSE2 (`self.0`); 16 writable bytes, no alignment needed.
        unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), r) }
    }

    #[inline(always)]
    fn splat(self, block: u128) -> __m128i {
        // SAFETY: SSE2 (`self.0`).
        unsafe { _mm_set_epi64x((block >> 64) as i64, block as i64) }
    }

    #[inline(always)]
    fn ctx(self, first: usize, lanes: usize) -> __m128i {
        // SAFETY: SSE2 (`self.0`).
        unsafe { _mm_set_epi64x(0, ctx_low(first, lanes)) }
    }

    #[inline(always)]
    fn xor(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: SSE2 (`self.0`).
        unsafe { _mm_xor_si128(a, b) }
    }

    #[inline(always)]
    fn and(self, a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: SSE2 (`self.0`).
        unsafe { _mm_and_si128(a, b) }
    }

    #[inline(always)]
    fn aes_round(self, x: __m128i, k: __m128i) -> __m128i {
        // SAFETY: AES-NI (`self.0`).
        unsafe { _mm_aesenc_si128(x, k) }
    }

    #[inline(always)]
    fn fold(self, r: __m128i) -> Block {
        let mut out = [0u8; 16];
        self.store(&mut out, r);
        out
    }
}

impl Register<32> for YmmRegister {
    type R = __m256i;

    #[inline(always)]
    fn load(self, bytes: &[u8; 32]) -> __m256i {
        // SAFETY: AVX (`self.0`); 32 readable bytes, no alignment needed.
        unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, out: &mut [u8; 32], r: __m256i) {
        // SAFETY: AVX (`self.0`); 32 writable bytes, no alignment needed.
        unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), r) }
    }

    #[inline(always)]
    fn splat(self, block: u128) -> __m256i {
        // SAFETY: AVX2 (`self.0`).
        unsafe { _mm256_broadcastsi128_si256(_mm_set_epi64x((block >> 64) as i64, block as i64)) }
    }

    #[inline(always)]
    fn ctx(self, first: usize, lanes: usize) -> __m256i {
        // SAFETY: AVX (`self.0`).
        unsafe { _mm256_set_epi64x(0, ctx_low(first + 1, lanes), 0, ctx_low(first, lanes)) }
    }

    #[inline(always)]
    fn xor(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 (`self.0`).
        unsafe { _mm256_xor_si256(a, b) }
    }

    #[inline(always)]
    fn and(self, a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: AVX2 (`self.0`).
        unsafe { _mm256_and_si256(a, b) }
    }

    #[inline(always)]
    fn aes_round(self, x: __m256i, k: __m256i) -> __m256i {
        // SAFETY: VAES on ymm (`self.0`).
        unsafe { _mm256_aesenc_epi128(x, k) }
    }

    #[inline(always)]
    fn fold(self, r: __m256i) -> Block {
        let mut out = [0u8; 16];
        // SAFETY: AVX2 (`self.0`); `out` is 16 writable bytes.
        unsafe {
            let lanes = _mm_xor_si128(_mm256_castsi256_si128(r), _mm256_extracti128_si256::<1>(r));
            _mm_storeu_si128(out.as_mut_ptr().cast(), lanes);
        }
        out
    }
}

impl ZmmRegister {
    /// `block` in every lane.
    #[inline(always)]
    fn broadcast(self, block: u128) -> __m512i {
        // SAFETY: AVX-512F (`self.0`).
        unsafe { _mm512_broadcast_i32x4(_mm_set_epi64x((block >> 64) as i64, block as i64)) }
    }
}

impl Register<64> for ZmmRegister {
    type R = __m512i;

    #[inline(always)]
    fn load(self, bytes: &[u8; 64]) -> __m512i {
        // SAFETY: AVX-512F (`self.0`); 64 readable bytes, no alignment needed.
        unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
    }

    #[inline(always)]
    fn store(self, out: &mut [u8; 64], r: __m512i) {
        // SAFETY: AVX-512F (`self.0`); 64 writable bytes, no alignment needed.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), r) }
    }

    #[inline(always)]
    fn splat(self, block: u128) -> __m512i {
        // LLVM turns an XOR of two broadcast blocks into an XOR of their
        // xmm registers and a broadcast of the result: a lane shuffle
        // (`vshufi64x2`) on the way from the key to AEGIS's first rounds.
        // A word it cannot see is a broadcast keeps the XOR 512 bits wide
        // ([`splat_xor`](Register::splat_xor); docs/benchmarks.md, "AEGIS
        // on Zen 5").
        // SAFETY: the AVX-512 tier's features (`self.0`).
        unsafe { crate::backend::x86_64::vaes::avx512::opaque(self.broadcast(block)) }
    }

    #[inline(always)]
    fn splat_xor(self, a: u128, b: u128) -> __m512i {
        // `b` plain, so that a zero or a constant folds.
        self.xor(self.splat(a), self.broadcast(b))
    }

    #[inline(always)]
    fn ctx(self, first: usize, lanes: usize) -> __m512i {
        // SAFETY: AVX-512F (`self.0`).
        unsafe {
            _mm512_set_epi64(
                0,
                ctx_low(first + 3, lanes),
                0,
                ctx_low(first + 2, lanes),
                0,
                ctx_low(first + 1, lanes),
                0,
                ctx_low(first, lanes),
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
    fn fold(self, r: __m512i) -> Block {
        let mut out = [0u8; 16];
        // SAFETY: AVX-512F (`self.0`); `out` is 16 writable bytes.
        unsafe {
            let lanes = _mm_xor_si128(
                _mm_xor_si128(_mm512_castsi512_si128(r), _mm512_extracti32x4_epi32::<1>(r)),
                _mm_xor_si128(
                    _mm512_extracti32x4_epi32::<2>(r),
                    _mm512_extracti32x4_epi32::<3>(r),
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
