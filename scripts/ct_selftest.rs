//! Known-bad and known-good functions for `scripts/ct_check.py --selftest`:
//! the checker must flag every `bad_*` function with the finding its name
//! gives, and pass every `good_*` one. Built by `scripts/ct-check.sh` with plain
//! `rustc -O`; never part of the crate.
//!
//! If a compiler change makes one of the bad patterns compile to something the
//! checker no longer flags, the self-test fails and says which: that is the
//! point of keeping it beside the real check.

use std::arch::x86_64::*;
use std::hint::black_box;

static SBOX: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).wrapping_mul(7).wrapping_add(0x63);
        i += 1;
    }
    t
};

#[inline(always)]
unsafe fn load(bytes: &[u8; 16]) -> __m128i {
    // SAFETY: 16 readable bytes; loadu has no alignment requirement.
    unsafe { _mm_loadu_si128(bytes.as_ptr().cast()) }
}

/// Branches on a byte extracted from a vector register.
#[target_feature(enable = "sse4.1")]
#[inline(never)]
fn bad_secret_branch(x: &[u8; 16]) -> u32 {
    // SAFETY: as in `load`.
    let v = black_box(unsafe { load(black_box(x)) });
    if _mm_extract_epi8::<3>(v) == 7 {
        black_box(1)
    } else {
        black_box(2)
    }
}

/// Branches on a data byte read straight from memory (the compiler turns the
/// extraction into a byte compare with memory).
#[target_feature(enable = "sse4.1")]
#[inline(never)]
fn bad_secret_branch_byte(x: &[u8; 16]) -> u32 {
    // SAFETY: as in `load`.
    let v = unsafe { load(black_box(x)) };
    if _mm_extract_epi8::<3>(v) == 7 {
        black_box(1)
    } else {
        black_box(2)
    }
}

/// A table lookup indexed by a value extracted from a vector register.
#[target_feature(enable = "sse4.1")]
#[inline(never)]
fn bad_secret_address(x: &[u8; 16]) -> u8 {
    // SAFETY: as in `load`.
    let v = unsafe { load(black_box(x)) };
    SBOX[(_mm_cvtsi128_si32(v) & 0xff) as usize]
}

/// A table lookup indexed by a byte loaded from memory (T-table AES style).
#[inline(never)]
fn bad_secret_address_byte(x: &[u8; 16]) -> u8 {
    let x = black_box(x);
    SBOX[x[0] as usize] ^ SBOX[x[5] as usize]
}

/// A byte shuffle whose mask is data.
#[target_feature(enable = "ssse3")]
#[inline(never)]
fn bad_pshufb_variable_mask(x: &[u8; 16], y: &[u8; 16]) -> [u8; 16] {
    // SAFETY: as in `load`.
    let r = unsafe { _mm_shuffle_epi8(load(x), load(y)) };
    let mut out = [0u8; 16];
    // SAFETY: 16 writable bytes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), r) };
    out
}

/// A lane permute whose index is data (`vpermilps` with a register control).
#[target_feature(enable = "avx")]
#[inline(never)]
fn bad_permute_variable_index(x: &[u8; 16], y: &[u8; 16]) -> [u8; 16] {
    // SAFETY: as in `load`.
    let (a, i) = unsafe { (_mm_castsi128_ps(load(x)), load(y)) };
    let r = _mm_castps_si128(_mm_permutevar_ps(a, i));
    let mut out = [0u8; 16];
    // SAFETY: 16 writable bytes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), r) };
    out
}

/// The same instruction with an immediate control: a fixed shuffle.
#[target_feature(enable = "avx")]
#[inline(never)]
fn good_permute_immediate(x: &[u8; 16]) -> [u8; 16] {
    // SAFETY: as in `load`.
    let r = _mm_castps_si128(_mm_permute_ps::<0x4e>(_mm_castsi128_ps(unsafe { load(x) })));
    let mut out = [0u8; 16];
    // SAFETY: 16 writable bytes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), r) };
    out
}

/// A two-source permute whose index is a compile-time constant: a fixed
/// shuffle (`vpermt2q` or `vpermi2q` with the index from read-only data).
#[target_feature(enable = "avx512f")]
#[inline(never)]
fn good_permute_constant_index(x: &[u8; 64], y: &[u8; 64]) -> [u8; 64] {
    // SAFETY: 64 readable bytes each, unaligned loads.
    let (a, b) = unsafe {
        (_mm512_loadu_si512(x.as_ptr().cast()), _mm512_loadu_si512(y.as_ptr().cast()))
    };
    let index = _mm512_set_epi64(13, 0, 11, 6, 14, 1, 8, 3);
    let r = _mm512_permutex2var_epi64(a, index, b);
    let mut out = [0u8; 64];
    // SAFETY: 64 writable bytes.
    unsafe { _mm512_storeu_si512(out.as_mut_ptr().cast(), r) };
    out
}

/// AES rounds split by a branch on the state.
#[target_feature(enable = "aes,sse4.1")]
#[inline(never)]
fn bad_aes_split_secret(x: &[u8; 16], k: &[u8; 16]) -> [u8; 16] {
    // SAFETY: as in `load`.
    let (mut s, k) = unsafe { (load(black_box(x)), load(black_box(k))) };
    for _ in 0..5 {
        s = _mm_aesenc_si128(s, k);
    }
    if _mm_extract_epi8::<0>(s) & 1 == 1 {
        s = _mm_aesenc_si128(s, _mm_xor_si128(k, s));
    }
    for _ in 0..4 {
        s = _mm_aesenc_si128(s, k);
    }
    s = _mm_aesenclast_si128(s, k);
    let mut out = [0u8; 16];
    // SAFETY: 16 writable bytes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), s) };
    out
}

/// What an open's kernel returns: the computed tag, out of line (the
/// decision policy takes a call's result as secret). As bytes, it comes
/// back through the caller's frame; as a `u128`, in two registers.
#[inline(never)]
fn computed_tag_bytes(x: &[u8; 16]) -> [u8; 16] {
    black_box(*x)
}

#[inline(never)]
fn computed_tag(x: &[u8; 16]) -> u128 {
    black_box(u128::from_le_bytes(*x))
}

/// An early-exit tag compare: one branch per byte.
#[inline(never)]
fn bad_compare_early_exit(x: &[u8; 16], received: &[u8; 16]) -> bool {
    let computed = computed_tag_bytes(black_box(x));
    let received = black_box(received);
    for i in 0..16 {
        if computed[i] != received[i] {
            return false;
        }
    }
    true
}

/// Ten AES rounds and a GHASH-style multiply with a constant shuffle: clean.
#[target_feature(enable = "aes,pclmulqdq,ssse3")]
#[inline(never)]
fn good_kernel(x: &[u8; 16], k: &[u8; 16], n: usize) -> [u8; 16] {
    // SAFETY: as in `load`.
    let (mut s, k) = unsafe { (load(x), load(k)) };
    let rev = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    for _ in 0..n {
        s = _mm_xor_si128(s, k);
        for _ in 0..9 {
            s = _mm_aesenc_si128(s, k);
        }
        s = _mm_aesenclast_si128(s, k);
        s = _mm_clmulepi64_si128::<0x11>(_mm_shuffle_epi8(s, rev), k);
    }
    let mut out = [0u8; 16];
    // SAFETY: 16 writable bytes.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), s) };
    out
}

/// A tag compare with one decision, as the crate does it: the difference
/// folded into one word, hidden from the optimiser, tested once.
#[inline(never)]
fn good_compare(x: &[u8; 16], received: &[u8; 16], out: &mut [u8]) -> bool {
    let computed = computed_tag(black_box(x));
    let diff = computed ^ u128::from_le_bytes(*black_box(received));
    let mut folded = (diff as u64) | ((diff >> 64) as u64);
    // SAFETY: an empty instruction sequence: no memory, stack or flags.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) folded, options(pure, nomem, nostack, preserves_flags));
    }
    if folded == 0 {
        true
    } else {
        out.fill(0);
        false
    }
}

fn main() {
    let x = black_box([1u8; 16]);
    let y = black_box([2u8; 16]);
    let mut buf = black_box(vec![3u8; 40]);
    assert!(is_x86_feature_detected!("aes") && is_x86_feature_detected!("pclmulqdq"));
    // SAFETY: the features were detected just above (SSE4.1 and SSSE3 come with
    // every CPU that has AES-NI and PCLMULQDQ here, and the self-test only needs
    // to be compiled, not run, to be checked).
    unsafe {
        black_box(bad_secret_branch(&x));
        black_box(bad_secret_branch_byte(&x));
        black_box(bad_secret_address(&x));
        black_box(bad_pshufb_variable_mask(&x, &y));
        black_box(bad_aes_split_secret(&x, &y));
        black_box(good_kernel(&x, &y, black_box(3)));
    }
    if is_x86_feature_detected!("avx") {
        // SAFETY: AVX was detected just above.
        unsafe {
            black_box(bad_permute_variable_index(&x, &y));
            black_box(good_permute_immediate(&x));
        }
    }
    if is_x86_feature_detected!("avx512f") {
        let (x, y) = (black_box([4u8; 64]), black_box([5u8; 64]));
        // SAFETY: AVX-512F was detected just above.
        unsafe { black_box(good_permute_constant_index(&x, &y)) };
    }
    black_box(bad_secret_address_byte(&x));
    black_box(bad_compare_early_exit(&x, &y));
    black_box(good_compare(&x, &y, &mut buf));
}
