//! GF(2^128) arithmetic with PCLMULQDQ: the one field multiplication behind both
//! GHASH (AES-GCM) and POLYVAL (AES-GCM-SIV).
//!
//! # The maths, written once
//!
//! **Field.** POLYVAL's field (RFC 8452 §3): GF(2^128) modulo
//! p(x) = x^128 + x^127 + x^126 + x^121 + 1, an element stored little-endian with
//! bit i of byte j the coefficient of x^(8j+i). PCLMULQDQ multiplies 64-bit
//! polynomials in exactly this bit order, so no bit reflection is ever needed.
//!
//! **Product.** POLYVAL's multiplication is the Montgomery product
//! `dot(a, b) = a · b · x^-128 mod p`. Split a = a1·x^64 + a0 and likewise b; then
//! a·b = a1b1·x^128 + (a1b0 + a0b1)·x^64 + a0b0, four PCLMULQDQs (`hi`, `mid`,
//! `lo`). Products are accumulated unreduced: for n blocks the sum of n products
//! is reduced once ("aggregated reduction"), since reduction is linear.
//!
//! **Reduction by x^128.** Write p = x^128 + c·x^64 + 1 with c = x^63 + x^62 +
//! x^57 (the 64-bit constant `0xc200_0000_0000_0000`). For the 256-bit value
//! V = hi·x^128 + mid·x^64 + lo with lo = lo1·x^64 + lo0:
//!
//! 1. V + lo0·p ≡ V (mod p) and its low 64 bits are lo0 + lo0 = 0. Dividing
//!    by x^64: V·x^-64 ≡ hi·x^64 + M with M = mid + (lo1 + lo0·x^64) +
//!    lo0·c, that is `M = mid ^ swap(lo) ^ clmul(lo0, c)` where `swap`
//!    exchanges the 64-bit halves.
//! 2. The same step on M = M1·x^64 + M0:
//!    V·x^-128 ≡ hi + swap(M) ^ clmul(M0, c).
//!
//! Two PCLMULQDQs, two swaps and four XORs (two three-way XORs where the
//! tier has them), and `mid` is never shifted; the result has degree < 128,
//! fully reduced.
//!
//! **GHASH from POLYVAL.** RFC 8452 Appendix A: GHASH(H, X1, …, Xn) =
//! ByteReverse(POLYVAL(mulX_POLYVAL(ByteReverse(H)), ByteReverse(X1), …,
//! ByteReverse(Xn))). So GCM byte-reverses each input block (`PSHUFB`), keeps
//! H' = mulX_POLYVAL(ByteReverse(H)) = ByteReverse(H)·x mod p as its key, and
//! byte-reverses the final accumulator. POLYVAL itself uses blocks as they are.
//!
//! **Powers.** With dot as the product, S ← dot(S + X, H) over blocks X1..Xn gives
//! S = Σ dot(Xi, H^(n−i+1)) where H^1 = H and H^(k+1) = dot(H^k, H). The keys
//! store H^1..H^8 so eight blocks cost one reduction.

use core::arch::x86_64::*;

/// An unreduced 256-bit product (or sum of products): `hi·x^128 + mid·x^64 + lo`,
/// in each 128-bit lane of a register of type `R` (one lane for `__m128i`; the
/// wide tiers' sums hold two or four).
#[derive(Clone, Copy)]
pub(crate) struct Unreduced<R = __m128i> {
    pub(crate) lo: R,
    pub(crate) mid: R,
    pub(crate) hi: R,
}

/// Reverses the 16 bytes of a block (the GHASH ↔ POLYVAL byte order).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn byte_reverse(x: __m128i) -> __m128i {
    let mask = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    _mm_shuffle_epi8(x, mask)
}

/// The empty sum.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn unreduced_zero() -> Unreduced {
    Unreduced {
        lo: _mm_setzero_si128(),
        mid: _mm_setzero_si128(),
        hi: _mm_setzero_si128(),
    }
}

/// `acc += a · b`, unreduced: four carry-less multiplies (schoolbook; the
/// stitched loops use [`mul_acc_k`]).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn mul_acc(acc: &mut Unreduced, a: __m128i, b: __m128i) {
    acc.lo = _mm_xor_si128(acc.lo, _mm_clmulepi64_si128::<0x00>(a, b));
    acc.hi = _mm_xor_si128(acc.hi, _mm_clmulepi64_si128::<0x11>(a, b));
    acc.mid = _mm_xor_si128(acc.mid, _mm_clmulepi64_si128::<0x01>(a, b));
    acc.mid = _mm_xor_si128(acc.mid, _mm_clmulepi64_si128::<0x10>(a, b));
}

/// `V · x^-128 mod p` for the accumulated V (steps 1 and 2 of the module docs).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn reduce(v: Unreduced) -> __m128i {
    let c = _mm_set_epi64x(0, 0xc200_0000_0000_0000_u64 as i64);
    // Fold `mid` into the halves: L = lo + mid·x^64, H = hi + mid·x^-64.
    // Step 1: M = mid ^ swap(lo) ^ clmul(lo0, c).
    let lo_folded = _mm_xor_si128(
        _mm_shuffle_epi32::<0x4e>(v.lo),
        _mm_clmulepi64_si128::<0x00>(v.lo, c),
    );
    let m = _mm_xor_si128(v.mid, lo_folded);
    // Step 2: hi ^ swap(M) ^ clmul(M0, c).
    let m_folded = _mm_xor_si128(
        _mm_shuffle_epi32::<0x4e>(m),
        _mm_clmulepi64_si128::<0x00>(m, c),
    );
    _mm_xor_si128(v.hi, m_folded)
}

/// `dot(a, b)`: one reduced field product.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn mul(a: __m128i, b: __m128i) -> __m128i {
    let mut w = unreduced_zero();
    mul_acc(&mut w, a, b);
    reduce(w)
}

/// `dot(a, a)`: a square is two carry-less multiplies, not four. Over
/// GF(2) the cross terms a1b0 + a0b1 of a·a are a1a0 + a0a1 = 0, so the
/// product is `hi` = a1², `lo` = a0² and `mid` = 0, then the usual
/// reduction.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn square(a: __m128i) -> __m128i {
    reduce(Unreduced {
        lo: _mm_clmulepi64_si128::<0x00>(a, a),
        mid: _mm_setzero_si128(),
        hi: _mm_clmulepi64_si128::<0x11>(a, a),
    })
}

/// mulX_POLYVAL(h) = h · x mod p (RFC 8452 Appendix A), in constant time:
/// shift left one bit; if bit 127 fell out, add x^128 mod p = x^127 + x^126 +
/// x^121 + 1 (`0xc2…00` in the high half, `1` in the low half).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn mul_x(h: __m128i) -> __m128i {
    let carries = _mm_srli_epi64::<63>(h);
    let shifted = _mm_or_si128(_mm_slli_epi64::<1>(h), _mm_slli_si128::<8>(carries));
    // All ones if bit 127 was set: broadcast dword 3, arithmetic shift.
    let top = _mm_srai_epi32::<31>(_mm_shuffle_epi32::<0xff>(h));
    let poly = _mm_set_epi64x(0xc200_0000_0000_0000_u64 as i64, 1);
    _mm_xor_si128(shifted, _mm_and_si128(top, poly))
}

/// H^1..H^8 from H (already in POLYVAL form), as a tree of depth three
/// rather than a chain of seven: H^2; then H^3, H^4; then H^5..H^8. The
/// even powers H^2, H^4, H^6 and H^8 are squares ([`square`]), half the
/// multiplies. GCM-SIV computes these per message, where the chain's
/// latency showed.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn powers(h: __m128i) -> [__m128i; 8] {
    let h2 = square(h);
    let (h3, h4) = (mul(h2, h), square(h2));
    [
        h,
        h2,
        h3,
        h4,
        mul(h4, h),
        square(h3),
        mul(h4, h3),
        square(h4),
    ]
}

/// H^1..H^n (n ≤ 8) as in [`powers`]; the entries past n are zero and
/// must not be used.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn powers_upto(h: __m128i, n: usize) -> [__m128i; 8] {
    let mut p = [_mm_setzero_si128(); 8];
    p[0] = h;
    if n >= 2 {
        p[1] = square(h);
    }
    if n >= 3 {
        p[2] = mul(p[1], h);
    }
    if n >= 4 {
        p[3] = square(p[1]);
    }
    for i in 4..n.min(8) {
        // H^6 and H^8 are squares of H^3 and H^4.
        p[i] = if i % 2 == 1 {
            square(p[i / 2])
        } else {
            mul(p[3], p[i - 4])
        };
    }
    p
}

/// The Karatsuba middle terms of the powers: `h.lo ^ h.hi` in the low half
/// of each (see [`mul_acc_k`]).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn karatsuba_keys(h: &[__m128i; 8]) -> [__m128i; 8] {
    let mut k = *h;
    for k in k.iter_mut() {
        *k = _mm_xor_si128(*k, _mm_shuffle_epi32::<0x4e>(*k));
    }
    k
}

/// `acc += a · b` with three multiplies instead of four (Karatsuba): the
/// middle term of a·b is (a0 + a1)(b0 + b1) + a0b0 + a1b1, so `acc.mid`
/// collects the products of the halves' sums (`bk` holds b0 + b1 in its
/// low half, [`karatsuba_keys`]) and [`karatsuba_done`] adds the summed
/// `lo` and `hi` once. The carry-less multiplier is the slower unit on the
/// CPUs measured here (one `pclmulqdq` every two cycles against two AES
/// rounds a cycle): three multiplies a block is what lets a group's hash
/// fit under its AES rounds.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn mul_acc_k(acc: &mut Unreduced, a: __m128i, b: __m128i, bk: __m128i) {
    let ak = _mm_xor_si128(a, _mm_shuffle_epi32::<0x4e>(a));
    acc.lo = _mm_xor_si128(acc.lo, _mm_clmulepi64_si128::<0x00>(a, b));
    acc.hi = _mm_xor_si128(acc.hi, _mm_clmulepi64_si128::<0x11>(a, b));
    acc.mid = _mm_xor_si128(acc.mid, _mm_clmulepi64_si128::<0x00>(ak, bk));
}

/// A sum built with [`mul_acc_k`] as an ordinary unreduced sum.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn karatsuba_done(w: Unreduced) -> Unreduced {
    Unreduced {
        mid: _mm_xor_si128(w.mid, _mm_xor_si128(w.lo, w.hi)),
        ..w
    }
}

/// [`fold_blocks`] for exactly eight blocks with [`mul_acc_k`].
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn fold8_karatsuba(
    acc: __m128i,
    x: &[__m128i; 8],
    h: &[__m128i; 8],
    hk: &[__m128i; 8],
) -> __m128i {
    let mut w = unreduced_zero();
    for j in (1..8).rev() {
        mul_acc_k(&mut w, x[j], h[7 - j], hk[7 - j]);
    }
    mul_acc_k(&mut w, _mm_xor_si128(x[0], acc), h[7], hk[7]);
    reduce(karatsuba_done(w))
}

/// Folds up to eight blocks into `acc`: `acc = dot(acc + x[0], H^n) + … +
/// dot(x[n-1], H^1)` with one reduction (`h[i]` holds H^(i+1)).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn fold_blocks(acc: __m128i, x: &[__m128i], h: &[__m128i; 8]) -> __m128i {
    let n = x.len().min(8);
    if n == 0 {
        return acc;
    }
    let mut w = unreduced_zero();
    // Last block first: the block that waits on `acc` is multiplied last.
    for j in (1..n).rev() {
        mul_acc(&mut w, x[j], h[n - 1 - j]);
    }
    mul_acc(&mut w, _mm_xor_si128(x[0], acc), h[n - 1]);
    reduce(w)
}
