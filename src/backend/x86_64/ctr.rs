//! Counter mode with the universal hash stitched in: the AES-NI tier's engine,
//! shared by AES-GCM (`gcm_aesni.rs`) and AES-GCM-SIV (`siv.rs`).
//!
//! The two modes differ in two conventions, selected by `const GCM: bool`:
//!
//! | | GCM (`true`) | GCM-SIV (`false`) |
//! |---|---|---|
//! | counter | last 4 bytes, big-endian (inc32) | first 4 bytes, little-endian |
//! | hash input | each block byte-reversed (GHASH as POLYVAL) | each block as it is |
//!
//! Both counters wrap modulo 2^32 and leave the other 96 bits alone. The counter
//! register `ctr` is kept so that adding to its dword 0 (`PADDD`) is exactly that
//! increment: for GCM it holds the counter block byte-reversed, for GCM-SIV the
//! block itself.
//!
//! Loop shapes, per 128-byte group (`GROUP`), one reduction per group:
//! - [`ctr_hash_output`]: the AES rounds of group i with the multiplies of the
//!   output of group i − 1 (GCM seal, GCM-SIV open);
//! - [`ctr_hash_input`]: the AES rounds of group i with the multiplies of the
//!   input of group i (GCM open);
//! - [`ctr_only`]: AES only (GCM-SIV seal, whose hash ran in a first pass).
//!
//! Every loop covers whole groups; [`tail`] handles the last 0..127 bytes.

use core::arch::x86_64::*;

use super::aes::encrypt_blocks;
use super::clmul::{
    Wide, byte_reverse, fold_blocks, fold8_karatsuba, karatsuba_keys, mul_acc, reduce, wide_zero,
};
use super::{load, load_blocks, store_blocks, store_blocks_to};
use crate::backend::{HPowers, InOut, wipe};

/// Bytes per bulk iteration: eight blocks.
pub(super) const GROUP: usize = 128;

aesni_clmul! {
    /// H^1..H^8 into registers.
    #[inline]
    pub(super) fn load_powers(h_powers: &HPowers) -> [__m128i; 8] {
        let mut h = [_mm_setzero_si128(); 8];
        for (dst, src) in h.iter_mut().zip(h_powers.0.iter()) {
            *dst = load(src);
        }
        h
    }

    /// A block as the hash takes it: byte-reversed for GHASH, as is for POLYVAL.
    #[inline]
    pub(super) fn for_hash<const GCM: bool>(x: __m128i) -> __m128i {
        if GCM { byte_reverse(x) } else { x }
    }

    /// The next `N` counter blocks (see the module docs for `ctr`).
    #[inline]
    pub(super) fn counter_blocks<const GCM: bool, const N: usize>(ctr: &mut __m128i) -> [__m128i; N] {
        let mut out = [_mm_setzero_si128(); N];
        if !GCM {
            for (i, b) in out.iter_mut().enumerate() {
                *b = _mm_add_epi32(*ctr, _mm_set_epi32(0, 0, 0, i as i32));
            }
        } else if (_mm_cvtsi128_si32(*ctr) as u32 & 0xff) as usize + N <= 256 {
            // No carry leaves the last byte within these N blocks, so add i to
            // byte 15 of the big-endian block directly (it is the top byte of
            // dword 3): one shuffle per batch instead of one per block. The
            // branch depends only on the block position, which is public.
            let first = byte_reverse(*ctr);
            for (i, b) in out.iter_mut().enumerate() {
                *b = _mm_add_epi32(first, _mm_set_epi32((i as i32) << 24, 0, 0, 0));
            }
        } else {
            let one = _mm_set_epi32(0, 0, 0, 1);
            let mut c = *ctr;
            for b in out.iter_mut() {
                *b = byte_reverse(c);
                c = _mm_add_epi32(c, one);
            }
        }
        *ctr = _mm_add_epi32(*ctr, _mm_set_epi32(0, 0, 0, N as i32));
        out
    }

    /// The hash of `bytes` zero-padded to whole blocks (GCM's `A || 0^v`,
    /// GCM-SIV's padded AAD).
    #[inline]
    pub(super) fn hash_padded<const GCM: bool>(mut acc: __m128i, bytes: &[u8], h: &[__m128i; 8]) -> __m128i {
        let (groups, rest) = bytes.as_chunks::<GROUP>();
        for group in groups {
            let mut x: [__m128i; 8] = load_blocks(group);
            for b in x.iter_mut() {
                *b = for_hash::<GCM>(*b);
            }
            acc = fold_blocks(acc, &x, h);
        }
        if !rest.is_empty() {
            let mut buf = [0u8; GROUP];
            buf[..rest.len()].copy_from_slice(rest);
            let mut x: [__m128i; 8] = load_blocks(&buf);
            for b in x.iter_mut() {
                *b = for_hash::<GCM>(*b);
            }
            acc = fold_blocks(acc, &x[..rest.len().div_ceil(16)], h);
            wipe(&mut buf);
        }
        acc
    }

    /// The hash of the input of `data` from `start` (a multiple of `GROUP`) to
    /// the end, zero-padded to whole blocks.
    #[inline]
    pub(super) fn hash_input<const GCM: bool>(
        mut acc: __m128i,
        data: &InOut<'_>,
        start: usize,
        h: &[__m128i; 8],
    ) -> __m128i {
        let bulk = start + (data.len() - start) / GROUP * GROUP;
        let mut offset = start;
        let hk = karatsuba_keys(h);
        while offset < bulk {
            let mut x: [__m128i; 8] = load_blocks(data.input::<GROUP>(offset));
            for b in x.iter_mut() {
                *b = for_hash::<GCM>(*b);
            }
            acc = fold8_karatsuba(acc, &x, h, &hk);
            offset += GROUP;
        }
        let mut buf = [0u8; GROUP];
        let rest = data.read_tail(offset, &mut buf);
        if rest > 0 {
            let mut x: [__m128i; 8] = load_blocks(&buf);
            for b in x.iter_mut() {
                *b = for_hash::<GCM>(*b);
            }
            acc = fold_blocks(acc, &x[..rest.div_ceil(16)], h);
        }
        wipe(&mut buf);
        acc
    }

    /// [`aes_hash_group`] with the hash inputs already in registers (the seal
    /// loop's previous group, which it has at hand).
    #[inline]
    fn aes_hash_group_regs<const NK: usize>(
        rk: &[__m128i; NK],
        mut blocks: [__m128i; 8],
        x: &[__m128i; 8],
        acc: __m128i,
        h: &[__m128i; 8],
    ) -> ([__m128i; 8], __m128i) {
        let mut w: Wide = wide_zero();
        for b in blocks.iter_mut() {
            *b = _mm_xor_si128(*b, rk[0]);
        }
        for round in 1..=7 {
            aes_round(&mut blocks, rk[round]);
            mul_acc(&mut w, x[8 - round], h[round - 1]);
        }
        aes_round(&mut blocks, rk[8]);
        mul_acc(&mut w, _mm_xor_si128(x[0], acc), h[7]);
        for k in &rk[9..NK - 1] {
            aes_round(&mut blocks, *k);
        }
        for b in blocks.iter_mut() {
            *b = _mm_aesenclast_si128(*b, rk[NK - 1]);
        }
        (blocks, reduce(w))
    }

    /// Block `i` (< 8) of a group.
    #[inline]
    fn load_at(bytes: &[u8; GROUP], i: usize) -> __m128i {
        assert!(i < 8);
        // SAFETY: `i < 8`, so bytes 16i..16i+16 lie inside the 128-byte array.
        unsafe { _mm_loadu_si128(bytes.as_ptr().add(16 * i).cast()) }
    }

    /// One AES round on each of eight blocks.
    #[inline]
    fn aes_round(blocks: &mut [__m128i; 8], k: __m128i) {
        for b in blocks.iter_mut() {
            *b = _mm_aesenc_si128(*b, k);
        }
    }

    /// Eight AES encryptions (the keystream of one group) with, between their
    /// rounds, the eight multiplies of `x` (hash-ready blocks; `acc` is added to
    /// `x[0]`). Returns the keystream and the new, reduced accumulator.
    #[inline]
    fn aes_hash_group<const NK: usize, const GCM: bool>(
        rk: &[__m128i; NK],
        mut blocks: [__m128i; 8],
        x: &[u8; GROUP],
        acc: __m128i,
        h: &[__m128i; 8],
    ) -> ([__m128i; 8], __m128i) {
        const { assert!(NK >= 10) };
        let mut w: Wide = wide_zero();
        for b in blocks.iter_mut() {
            *b = _mm_xor_si128(*b, rk[0]);
        }
        // Rounds 1..=8 each carry one multiply: block 7 (by H^1) first, block 0
        // (by H^8, the one that waits on `acc`) last. Each block is loaded and
        // made hash-ready where it is used: sixteen xmm registers cannot hold
        // eight AES blocks and eight hash inputs across the rounds.
        for round in 1..=7 {
            aes_round(&mut blocks, rk[round]);
            let xi = for_hash::<GCM>(load_at(x, 8 - round));
            mul_acc(&mut w, xi, h[round - 1]);
        }
        aes_round(&mut blocks, rk[8]);
        let x0 = for_hash::<GCM>(load_at(x, 0));
        mul_acc(&mut w, _mm_xor_si128(x0, acc), h[7]);
        for k in &rk[9..NK - 1] {
            aes_round(&mut blocks, *k);
        }
        for b in blocks.iter_mut() {
            *b = _mm_aesenclast_si128(*b, rk[NK - 1]);
        }
        (blocks, reduce(w))
    }

    /// Reads the group at `offset`, XORs the keystream, writes it, and returns the
    /// output ready for the hash.
    #[inline]
    fn xor_group<const GCM: bool>(data: &mut InOut<'_>, offset: usize, ks: &[__m128i; 8]) -> [__m128i; 8] {
        let mut c: [__m128i; 8] = load_blocks(data.input::<GROUP>(offset));
        for (c, k) in c.iter_mut().zip(ks) {
            *c = _mm_xor_si128(*c, *k);
        }
        store_blocks_to(data.output::<GROUP>(offset), &c);
        for c in c.iter_mut() {
            *c = for_hash::<GCM>(*c);
        }
        c
    }

    /// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
    /// hashing the output: the output of each group is hashed during the AES of
    /// the next. Returns the accumulator and the end of the last whole group.
    #[inline]
    pub(super) fn ctr_hash_output<const NK: usize, const GCM: bool>(
        rk: &[__m128i; NK],
        h: &[__m128i; 8],
        ctr: &mut __m128i,
        mut acc: __m128i,
        data: &mut InOut<'_>,
        start: usize,
    ) -> (__m128i, usize) {
        let bulk = start + (data.len() - start) / GROUP * GROUP;
        if bulk == start {
            return (acc, bulk);
        }
        let mut ks = counter_blocks::<GCM, 8>(ctr);
        encrypt_blocks(rk, &mut ks);
        let mut prev = xor_group::<GCM>(data, start, &ks);
        let mut offset = start + GROUP;
        while offset < bulk {
            let ctrs = counter_blocks::<GCM, 8>(ctr);
            let (ks, sum) = aes_hash_group_regs::<NK>(rk, ctrs, &prev, acc, h);
            acc = sum;
            prev = xor_group::<GCM>(data, offset, &ks);
            offset += GROUP;
        }
        acc = fold_blocks(acc, &prev, h);
        (acc, bulk)
    }

    /// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
    /// hashing the input: each group's input is hashed during its own AES.
    /// Returns the accumulator and the end of the last whole group.
    #[inline]
    pub(super) fn ctr_hash_input<const NK: usize, const GCM: bool>(
        rk: &[__m128i; NK],
        h: &[__m128i; 8],
        ctr: &mut __m128i,
        mut acc: __m128i,
        data: &mut InOut<'_>,
        start: usize,
    ) -> (__m128i, usize) {
        let bulk = start + (data.len() - start) / GROUP * GROUP;
        let mut offset = start;
        while offset < bulk {
            let ctrs = counter_blocks::<GCM, 8>(ctr);
            let (ks, sum) = aes_hash_group::<NK, GCM>(rk, ctrs, data.input::<GROUP>(offset), acc, h);
            acc = sum;
            let mut output: [__m128i; 8] = load_blocks(data.input::<GROUP>(offset));
            for (o, k) in output.iter_mut().zip(ks) {
                *o = _mm_xor_si128(*o, k);
            }
            store_blocks_to(data.output::<GROUP>(offset), &output);
            offset += GROUP;
        }
        (acc, bulk)
    }

    /// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
    /// no hash. Returns the end of the last whole group.
    #[inline]
    pub(super) fn ctr_only<const NK: usize, const GCM: bool>(
        rk: &[__m128i; NK],
        ctr: &mut __m128i,
        data: &mut InOut<'_>,
        start: usize,
    ) -> usize {
        let bulk = start + (data.len() - start) / GROUP * GROUP;
        let mut offset = start;
        while offset < bulk {
            let mut ks = counter_blocks::<GCM, 8>(ctr);
            encrypt_blocks(rk, &mut ks);
            xor_group::<GCM>(data, offset, &ks);
            offset += GROUP;
        }
        bulk
    }

    /// CTR over the last `data.len() - offset` (< `B` = 16·`M`) bytes, with one
    /// more block, `extra`, encrypted in the same batch (GCM's J0). Then, if
    /// `HASH`, folds the tail's blocks — its output if `OUTPUT`, else its input
    /// — zero-padded, and `last` (the length block) into `acc`.
    ///
    /// Returns the accumulator and E(K, `extra`).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn tail<
        const NK: usize,
        const GCM: bool,
        const HASH: bool,
        const OUTPUT: bool,
        const M: usize,
        const B: usize,
    >(
        rk: &[__m128i; NK],
        mut ctr: __m128i,
        data: &mut InOut<'_>,
        offset: usize,
        extra: __m128i,
        acc: __m128i,
        h: &[__m128i; 8],
        last: __m128i,
    ) -> (__m128i, __m128i) {
        let mut buf = [0u8; B];
        let rest = data.read_tail(offset, &mut buf);

        let mut ks: [__m128i; M] = counter_blocks::<GCM, M>(&mut ctr);
        let mut extra = [extra];
        encrypt_blocks(rk, &mut extra);
        encrypt_blocks(rk, &mut ks);

        let input: [__m128i; M] = load_blocks(&buf);
        let mut output = input;
        for (o, k) in output.iter_mut().zip(&ks) {
            *o = _mm_xor_si128(*o, *k);
        }
        let mut out_bytes: [u8; B] = store_blocks(&output);
        data.write_tail(offset, &out_bytes, rest);
        // Both tails may hold plaintext (a forgery's, when opening): wipe them.
        wipe(&mut buf);
        wipe(&mut out_bytes);
        if !HASH {
            return (acc, extra[0]);
        }
        // The input is already zero past `rest` (the buffer was); the output
        // has keystream there, cleared in registers (byte j of block i is kept
        // when 16i + j < rest): reloading a buffer patched with narrower
        // stores would stall store forwarding.
        let mut hashed = if OUTPUT { output } else { input };
        let iota = _mm_set_epi8(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
        for (i, x) in hashed.iter_mut().enumerate() {
            if OUTPUT {
                let left = (rest as isize - 16 * i as isize).clamp(0, 16) as i8;
                *x = _mm_and_si128(*x, _mm_cmpgt_epi8(_mm_set1_epi8(left), iota));
            }
            *x = for_hash::<GCM>(*x);
        }
        (fold_with_last(acc, &hashed, rest.div_ceil(16), last, h), extra[0])
    }

    /// Folds `x[..n]` (n ≤ 8) and then `last` into `acc`, with one reduction
    /// when they fit in eight blocks.
    #[inline]
    pub(super) fn fold_with_last<const M: usize>(
        acc: __m128i,
        x: &[__m128i; M],
        n: usize,
        last: __m128i,
        h: &[__m128i; 8],
    ) -> __m128i {
        let n = n.min(M);
        if n < 8 {
            // A fixed-count loop, not a slice copy: a variable-length copy
            // becomes a `memcpy` call.
            let mut all = [last; 8];
            for (i, (a, b)) in all.iter_mut().zip(x).enumerate() {
                if i < n {
                    *a = *b;
                }
            }
            fold_blocks(acc, &all[..n + 1], h)
        } else {
            fold_blocks(fold_blocks(acc, &x[..n], h), &[last], h)
        }
    }
}

/// Calls `$f::<.., M, B>(..)` with the smallest tail batch (1, 4 or 8 blocks)
/// that holds `$rest` bytes, so a 16-byte message costs one keystream block.
macro_rules! by_tail_size {
    ($rest:expr, $f:ident::<$($g:tt),*>($($arg:expr),*)) => {
        match ($rest).div_ceil(16) {
            0..=1 => $f::<$($g,)* 1, 16>($($arg),*),
            2..=4 => $f::<$($g,)* 4, 64>($($arg),*),
            _ => $f::<$($g,)* 8, 128>($($arg),*),
        }
    };
}
pub(super) use by_tail_size;
