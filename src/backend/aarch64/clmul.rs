//! GF(2^128) arithmetic with PMULL: the one field multiplication behind both
//! GHASH (AES-GCM) and POLYVAL (AES-GCM-SIV), on aarch64.
//!
//! The maths is that of `backend/x86_64/clmul.rs`, derived there once: POLYVAL's
//! field and bit order, the Montgomery product `dot(a, b) = a · b · x^-128`,
//! products accumulated unreduced and reduced once per group of up to eight
//! blocks by two multiplies by `c = 0xc200_0000_0000_0000`, GHASH as POLYVAL
//! over byte-reversed blocks with H' = mulX_POLYVAL(ByteReverse(H)), and the key
//! powers H^1..H^8 in that form — so `HPowers` holds the same bytes on both
//! architectures. This file only maps each step onto NEON:
//!
//! - `PMULL` multiplies the low 64-bit lanes of two registers into a 128-bit
//!   product, `PMULL2` the high lanes, in the same bit order as PCLMULQDQ
//!   (bit i of the lane is the coefficient of x^i). The cross terms take one
//!   operand with its halves swapped (`EXT #8`), so the four products of a
//!   block are `PMULL`/`PMULL2` of (block, power) and of (block, swapped
//!   power) — or of the swapped block, in the hash-only loops.
//! - `swap` (exchange the 64-bit halves) is `EXT #8` of a register with
//!   itself.
//! - The stitched loops' plain path (CPUs without FEAT_SHA3) reduces with
//!   shifts instead of the two multiplies by `c` ([`reduce_by_shifts`]): a
//!   product by `c`'s three terms is three shifted copies, and on those
//!   cores the shifts run on the vector pipe that the AES rounds and `PMULL`
//!   leave free. Only that product by the public constant `c` is shifts:
//!   every product of data and key is still `PMULL`.

use core::arch::aarch64::*;

use super::zero;

/// The body of [`fold_blocks`], for the loops that run it once per group and
/// the per-message paths: LLVM's size-based inliner prices the unrolled eight
/// multiplies and reduction above its threshold on aarch64, and
/// `#[inline(always)]` is not allowed on `#[target_feature]` functions (see
/// `aes::encrypt_blocks_inline!`). `$x` is a slice or array of at most eight blocks.
/// Expand it only inside a function compiled for the tier.
macro_rules! fold_blocks_inline {
    ($acc:expr, $x:expr, $h:expr) => {{
        use $crate::backend::aarch64::clmul::{mul_acc_swap_data, reduce, unreduced_zero};
        let (acc, x, h): (_, &[_], &[_; 8]) = ($acc, $x, $h);
        let n = x.len().min(8);
        if n == 0 {
            acc
        } else {
            let mut w = unreduced_zero();
            // Last block first: the block that waits on `acc` is multiplied last.
            for j in (1..n).rev() {
                mul_acc_swap_data(&mut w, x[j], h[n - 1 - j]);
            }
            mul_acc_swap_data(&mut w, core::arch::aarch64::veorq_u8(x[0], acc), h[n - 1]);
            reduce::<false>(w)
        }
    }};
}
pub(crate) use fold_blocks_inline;

/// One instruction on the registers `$a` and `$b` (`{a}`, `{b}` in
/// `$template`) into a fresh one (`{r}`), as an `asm!` block: where LLVM
/// would otherwise rewrite the intrinsic into something slower (see
/// `byte_reverse` and `clmul_lo`). Expand it only inside a function
/// compiled for the tier, whose target features provide the instruction.
macro_rules! neon_asm {
    ($template:literal, $a:expr, $b:expr) => {{
        let r: core::arch::aarch64::uint8x16_t;
        // SAFETY: one instruction on registers (no memory, stack or flags);
        // the enclosing function's target features (`neon`, `aes`) provide
        // it.
        unsafe {
            core::arch::asm!(
                $template,
                r = lateout(vreg) r,
                a = in(vreg) $a,
                b = in(vreg) $b,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        r
    }};
}

/// An unreduced 256-bit product (or sum of products): `hi·x^128 + mid·x^64 + lo`.
#[derive(Clone, Copy)]
pub(crate) struct Unreduced {
    lo: uint8x16_t,
    mid: uint8x16_t,
    hi: uint8x16_t,
}

impl Unreduced {
    /// The sum with `lo` and `hi` exchanged. [`mul_acc`] (or [`mul_acc2`]) of
    /// a block and a power that both have their halves swapped computes the
    /// same four products, the low and the high one trading places (`PMULL`
    /// of their low lanes multiplies the blocks' high halves): a sum
    /// accumulated from such pairs is the true sum once exchanged.
    #[inline]
    pub(crate) fn halves_exchanged(self) -> Unreduced {
        Unreduced {
            lo: self.hi,
            mid: self.mid,
            hi: self.lo,
        }
    }
}

/// Reverses the 16 bytes of a block (the GHASH ↔ POLYVAL byte order):
/// one `TBL`, as an `asm!` block. Written with the intrinsic, LLVM turns
/// the constant permutation into `REV64` and `EXT`, two instructions on
/// the vector pipes for every block GCM hashes.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn byte_reverse(x: uint8x16_t) -> uint8x16_t {
    const REVERSE: [u8; 16] = [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0];
    neon_asm!(
        "tbl {r:v}.16b, {{{a:v}.16b}}, {b:v}.16b",
        x,
        super::load(&REVERSE)
    )
}

/// The halves of a block exchanged: `swap` of `clmul.rs`.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn swap(x: uint8x16_t) -> uint8x16_t {
    vextq_u8::<8>(x, x)
}

/// The 128-bit carry-less product of the low 64-bit lanes (`PMULL`), as
/// an `asm!` block. The intrinsic takes the lanes as 64-bit integers:
/// LLVM then hoisted the powers' low lanes out of the group loops into
/// general registers and moved each back with a `DUP` per multiply, 16
/// vector instructions a group (seen in `scripts/aarch64-model.sh`'s
/// loops).
#[inline]
#[target_feature(enable = "neon,aes")]
fn clmul_lo(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    neon_asm!("pmull {r:v}.1q, {a:v}.1d, {b:v}.1d", a, b)
}

/// [`clmul_lo`] through the intrinsic, which takes the lanes as 64-bit
/// integers (see [`mul_acc_swap_data`] for where this is the faster form).
#[inline]
#[target_feature(enable = "neon,aes")]
fn clmul_lo_lanes(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    let a = vgetq_lane_u64::<0>(vreinterpretq_u64_u8(a));
    let b = vgetq_lane_u64::<0>(vreinterpretq_u64_u8(b));
    vreinterpretq_u8_p128(vmull_p64(a, b))
}

/// The 128-bit carry-less product of the high 64-bit lanes (`PMULL2`).
#[inline]
#[target_feature(enable = "neon,aes")]
fn clmul_hi(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    vreinterpretq_u8_p128(vmull_high_p64(
        vreinterpretq_p64_u8(a),
        vreinterpretq_p64_u8(b),
    ))
}

/// The empty sum.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn unreduced_zero() -> Unreduced {
    Unreduced {
        lo: zero(),
        mid: zero(),
        hi: zero(),
    }
}

/// `acc += a · b`, unreduced: four carry-less multiplies (schoolbook, as on
/// x86_64). `a` is the data block, `b` the power: swapping the halves of
/// `b` gives the cross terms a0·b1 (`PMULL`) and a1·b0 (`PMULL2`). The
/// power is the one swapped because in the loops it is the same every
/// group: LLVM swaps it once, before the loop, and the loop has no `EXT`.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn mul_acc(acc: &mut Unreduced, a: uint8x16_t, b: uint8x16_t) {
    let b_swapped = swap(b);
    acc.lo = veorq_u8(acc.lo, clmul_lo(a, b));
    acc.hi = veorq_u8(acc.hi, clmul_hi(a, b));
    acc.mid = veorq_u8(acc.mid, clmul_lo(a, b_swapped));
    acc.mid = veorq_u8(acc.mid, clmul_hi(a, b_swapped));
}

/// `a ^ b ^ c`: one `EOR3` (FEAT_SHA3) if `EOR3`, else two `EOR`. As an
/// `asm!` block, with the extension enabled for it alone, so that the
/// same functions compile for the tier's features and the CPU decides
/// at run time (`cpu::aarch64::has_eor3`) which loops run.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn xor3<const EOR3: bool>(a: uint8x16_t, b: uint8x16_t, c: uint8x16_t) -> uint8x16_t {
    if EOR3 {
        let r: uint8x16_t;
        // SAFETY: one EOR3 on registers (no memory, stack or flags); only
        // the loops chosen when `cpu::aarch64::has_eor3()` said the CPU
        // has FEAT_SHA3 instantiate this arm.
        unsafe {
            core::arch::asm!(
                ".arch_extension sha3",
                "eor3 {r:v}.16b, {a:v}.16b, {b:v}.16b, {c:v}.16b",
                r = lateout(vreg) r,
                a = in(vreg) a,
                b = in(vreg) b,
                c = in(vreg) c,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        r
    } else {
        veorq_u8(veorq_u8(a, b), c)
    }
}

/// Karatsuba's middle factors of two blocks or powers, `[b0 + b1, d0 +
/// d1]` (one 64-bit lane each), for [`mul_acc2`]: `TRN1`, `TRN2` and
/// `EOR`, as one `asm!` block. Through the intrinsics, LLVM rebuilt it
/// from lane moves and `EXT`s, twice the instructions.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn karatsuba_factors(b: uint8x16_t, d: uint8x16_t) -> uint8x16_t {
    let r: uint8x16_t;
    // SAFETY: three instructions on registers (no memory, stack or
    // flags), all in the tier's base features (`neon`).
    unsafe {
        core::arch::asm!(
            "trn1 {t:v}.2d, {b:v}.2d, {d:v}.2d",
            "trn2 {r:v}.2d, {b:v}.2d, {d:v}.2d",
            "eor {r:v}.16b, {r:v}.16b, {t:v}.16b",
            r = out(vreg) r,
            t = out(vreg) _,
            b = in(vreg) b,
            d = in(vreg) d,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    r
}

/// `acc += a · b + c · d`, two blocks' products, each added with its
/// pair's in one [`xor3`]. `bd` is [`karatsuba_factors`]`(b, d)`.
///
/// On the EOR3 path, schoolbook: [`mul_acc`] for two blocks. On the
/// plain path, Karatsuba: three multiplies a block, not four, the
/// blocks' half-sums from one `TRN1`/`TRN2` pair and an `EOR`, and
/// `acc.mid` gathering only the middle products `(a0 + a1)(b0 + b1)`,
/// which make the true middle term once the low and high sums are added
/// ([`karatsuba_finished`], once a group). Why each: in llvm-mca's
/// Neoverse N1 model, which runs the plain path, `PMULL` and the AES
/// instructions share one pipe (V0) and bound the loop, so a multiply
/// saved is a cycle saved; on N2, V1 and V2, whose cores have EOR3, every
/// vector pipe runs every one of these instructions, and Karatsuba's
/// `TRN`s and `EOR` cost what its saved multiplies did
/// (`scripts/aarch64-model.sh` models it slower there:
/// docs/measurements/2026-11-26-aarch64-model/tables.md).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn mul_acc2<const EOR3: bool>(
    acc: &mut Unreduced,
    a: uint8x16_t,
    b: uint8x16_t,
    c: uint8x16_t,
    d: uint8x16_t,
    bd: uint8x16_t,
) {
    acc.lo = xor3::<EOR3>(acc.lo, clmul_lo(a, b), clmul_lo(c, d));
    acc.hi = xor3::<EOR3>(acc.hi, clmul_hi(a, b), clmul_hi(c, d));
    if EOR3 {
        let (b_swapped, d_swapped) = (swap(b), swap(d));
        acc.mid = xor3::<EOR3>(acc.mid, clmul_lo(a, b_swapped), clmul_hi(a, b_swapped));
        acc.mid = xor3::<EOR3>(acc.mid, clmul_lo(c, d_swapped), clmul_hi(c, d_swapped));
    } else {
        let ac = karatsuba_factors(a, c);
        acc.mid = xor3::<EOR3>(acc.mid, clmul_lo(ac, bd), clmul_hi(ac, bd));
    }
}

/// `a · b + c · d`, unreduced, as [`mul_acc2`] gathers it, into an empty
/// sum: no zeroed registers, one three-way XOR fewer.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn mul2_first<const EOR3: bool>(
    a: uint8x16_t,
    b: uint8x16_t,
    c: uint8x16_t,
    d: uint8x16_t,
    bd: uint8x16_t,
) -> Unreduced {
    let lo = veorq_u8(clmul_lo(a, b), clmul_lo(c, d));
    let hi = veorq_u8(clmul_hi(a, b), clmul_hi(c, d));
    let mid = if EOR3 {
        let (b_swapped, d_swapped) = (swap(b), swap(d));
        veorq_u8(
            xor3::<EOR3>(
                clmul_lo(a, b_swapped),
                clmul_hi(a, b_swapped),
                clmul_lo(c, d_swapped),
            ),
            clmul_hi(c, d_swapped),
        )
    } else {
        let ac = karatsuba_factors(a, c);
        veorq_u8(clmul_lo(ac, bd), clmul_hi(ac, bd))
    };
    Unreduced { lo, mid, hi }
}

/// The sum of products that [`mul_acc2`] gathered by Karatsuba (the plain
/// path): its middle products plus the low and high sums make the middle
/// term.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn karatsuba_finished(v: Unreduced) -> Unreduced {
    Unreduced {
        mid: veorq_u8(veorq_u8(v.mid, v.lo), v.hi),
        ..v
    }
}

/// [`mul_acc`] as the hash-only loops (`fold_blocks_inline!`) have it:
/// the data block's halves swapped, and `PMULL` through the intrinsic,
/// which LLVM schedules itself. In the POLYVAL pass, where no AES rounds
/// hide the multiplies' latencies, `scripts/aarch64-model.sh` models this
/// form faster than [`mul_acc`]'s on V1 (the POLYVAL pass's figures:
/// `scripts/aarch64-model.txt`).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn mul_acc_swap_data(acc: &mut Unreduced, a: uint8x16_t, b: uint8x16_t) {
    let a_swapped = swap(a);
    acc.lo = veorq_u8(acc.lo, clmul_lo_lanes(a, b));
    acc.hi = veorq_u8(acc.hi, clmul_hi(a, b));
    acc.mid = veorq_u8(acc.mid, clmul_lo_lanes(a_swapped, b));
    acc.mid = veorq_u8(acc.mid, clmul_hi(a_swapped, b));
}

/// `V · x^-128 mod p` for the accumulated V (steps 1 and 2 of
/// `clmul.rs`): two multiplies, two swaps and two three-way XORs
/// ([`xor3`]).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn reduce<const EOR3: bool>(v: Unreduced) -> uint8x16_t {
    let c = vreinterpretq_u8_u64(vdupq_n_u64(0xc200_0000_0000_0000));
    let m = xor3::<EOR3>(v.mid, swap(v.lo), clmul_lo(v.lo, c));
    xor3::<EOR3>(v.hi, swap(m), clmul_lo(m, c))
}

/// [`reduce`] with its two multiplies by `c` done by shifts, for the
/// stitched loops' plain path (CPUs without FEAT_SHA3, N1 in the model).
/// There `PMULL` and `AESE` share one pipe (V0), which the rounds keep
/// busy, while the shifts run on the other (V1, which has room): the
/// reduction's two `PMULL`s become six `USHL`s, two `DUP`s and four
/// `EOR`s ([`mul_c_by_shifts`]).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn reduce_by_shifts(v: Unreduced) -> uint8x16_t {
    let m = veorq_u8(veorq_u8(v.mid, swap(v.lo)), mul_c_by_shifts(v.lo));
    veorq_u8(veorq_u8(v.hi, swap(m)), mul_c_by_shifts(m))
}

/// `clmul_lo(x, c)`, the 128-bit product of the low lane x0 of `x` by
/// `c = x^63 + x^62 + x^57`, as shifts: x0 · x^k is `x0 << k` in the low
/// lane and `x0 >> (64 − k)` in the high lane. `x0` goes to both lanes
/// (`DUP`), and one `USHL` per term shifts lane 0 left by k and lane 1
/// right by 64 − k (a negative count shifts right).
#[inline]
#[target_feature(enable = "neon,aes")]
fn mul_c_by_shifts(x: uint8x16_t) -> uint8x16_t {
    let x0 = vdupq_laneq_u64::<0>(vreinterpretq_u64_u8(x));
    let by = |k: i64| vcombine_s64(vcreate_s64(k as u64), vcreate_s64((k - 64) as u64));
    let terms = [
        vshlq_u64(x0, by(63)),
        vshlq_u64(x0, by(62)),
        vshlq_u64(x0, by(57)),
    ];
    vreinterpretq_u8_u64(veorq_u64(veorq_u64(terms[0], terms[1]), terms[2]))
}

/// `dot(a, b)`: one reduced field product.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn mul(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    let mut w = unreduced_zero();
    mul_acc(&mut w, a, b);
    reduce::<false>(w)
}

/// [`mul`] with [`reduce_by_shifts`]: the tests hold both reductions to
/// the model.
#[cfg(test)]
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn mul_reduced_by_shifts(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
    let mut w = unreduced_zero();
    mul_acc(&mut w, a, b);
    reduce_by_shifts(w)
}

/// mulX_POLYVAL(h) = h · x mod p (RFC 8452 Appendix A), in constant time:
/// shift left one bit; if bit 127 fell out, add x^128 mod p = x^127 + x^126 +
/// x^121 + 1 (`0xc2…00` in the high half, `1` in the low half).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn mul_x(h: uint8x16_t) -> uint8x16_t {
    let h64 = vreinterpretq_u64_u8(h);
    // Bit 63 of the low lane moves to bit 0 of the high lane.
    let carries = vextq_u64::<1>(vdupq_n_u64(0), vshrq_n_u64::<63>(h64));
    let shifted = vorrq_u64(vshlq_n_u64::<1>(h64), carries);
    // All ones if bit 127 was set: broadcast the high lane, arithmetic shift.
    let top = vshrq_n_s64::<63>(vdupq_laneq_s64::<1>(vreinterpretq_s64_u8(h)));
    let poly = vcombine_u64(vcreate_u64(1), vcreate_u64(0xc200_0000_0000_0000));
    vreinterpretq_u8_u64(veorq_u64(
        shifted,
        vandq_u64(vreinterpretq_u64_s64(top), poly),
    ))
}

/// H^1..H^8 from H (already in POLYVAL form), as a tree of depth three
/// rather than a chain of seven: H^2; then H^3, H^4; then H^5..H^8 from H^4.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn powers(h: uint8x16_t) -> [uint8x16_t; 8] {
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

/// `dot(a, a)`: a square is two `PMULL`s, not four (the cross terms of
/// a·a cancel over GF(2); as `x86_64/clmul.rs`'s `square`).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn square(a: uint8x16_t) -> uint8x16_t {
    reduce::<false>(Unreduced {
        lo: clmul_lo(a, a),
        mid: zero(),
        hi: clmul_hi(a, a),
    })
}

/// H^1..H^n (n ≤ 8) as in [`powers`]; the entries past n are zero and
/// must not be used (as on x86_64).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn powers_upto(h: uint8x16_t, n: usize) -> [uint8x16_t; 8] {
    let mut p = [zero(); 8];
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

/// Folds up to eight blocks into `acc`: `acc = dot(acc + x[0], H^n) + … +
/// dot(x[n-1], H^1)` with one reduction (`h[i]` holds H^(i+1)).
/// (`fold_blocks_inline!` is its body inline.)
#[inline]
#[target_feature(enable = "neon,aes")]
pub(crate) fn fold_blocks(acc: uint8x16_t, x: &[uint8x16_t], h: &[uint8x16_t; 8]) -> uint8x16_t {
    fold_blocks_inline!(acc, x, h)
}
