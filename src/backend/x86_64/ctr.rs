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

use super::aes::{aes_round_asm, encrypt_blocks};
use super::clmul::{
    Wide, byte_reverse, fold_blocks, fold8_karatsuba, karatsuba_done, karatsuba_keys, mul_acc_k,
    reduce, wide_zero,
};
use super::{load, load_blocks, store, store_blocks, store_blocks_to};
use crate::backend::{HPowers, InOut, wipe};

/// Bytes per bulk iteration: eight blocks.
pub(super) const GROUP: usize = 128;

/// The hash work done after AES round `round` of a stitched group of `n`
/// registers (this tier's `aes_hash_group`, and the wide tiers'), as a unit
/// number: 0 reduces the state, u in 1..n multiplies register n − u, n
/// multiplies register 0 with the reduced state added. Unit u follows round
/// 1 + ⌊u·(nk − 2)/(n + 1)⌋: spread evenly over the rounds, at most one per
/// round (there are at least as many rounds as units), none after the last
/// full round.
pub(super) const fn unit_after(round: usize, nk: usize, n: usize) -> Option<usize> {
    let mut unit = 0;
    while unit <= n {
        if 1 + unit * (nk - 2) / (n + 1) == round {
            return Some(unit);
        }
        unit += 1;
    }
    None
}

/// The hash between the groups of the stitched loops: the last group's
/// unreduced sum `w` (reduced by the next group, whose last multiply takes
/// it) plus a reduced value `acc` (the hash before the first group; zero
/// after it).
#[derive(Clone, Copy)]
struct HashState {
    w: Wide,
    acc: __m128i,
}

/// What [`aes_hash_group`] carries from round to round.
struct Stitch {
    /// The AES states.
    b: [__m128i; 8],
    /// The reduced hash state (after unit 0).
    acc: __m128i,
    /// The group's sum so far.
    w: Wide,
}

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

    /// The state of a hash whose value so far is `acc`.
    #[inline]
    fn state_from(acc: __m128i) -> HashState {
        HashState { w: wide_zero(), acc }
    }

    /// The value of a hash state.
    #[inline]
    fn state_finish(s: HashState) -> __m128i {
        _mm_xor_si128(reduce(s.w), s.acc)
    }

    /// One AES round on eight blocks, as one `asm!` block that also passes
    /// four registers through unchanged. Written with intrinsics, LLVM moves
    /// every multiply of a group ahead of the group's first round, and the
    /// multiplier and the AES units take turns instead of working together:
    /// what goes through the block is computed before the round and what
    /// comes out is used after it, so the work stays where the source puts it.
    /// The wide tiers inline this for a last 128-byte group among their VEX
    /// code; the legacy encoding is correct there too (it leaves the upper
    /// lanes of the registers alone, and nothing reads them).
    #[inline]
    fn aes_round_pinned(b: &mut [__m128i; 8], k: __m128i, pin: &mut [__m128i; 4]) {
        let [p0, p1, p2, p3] = pin;
        aes_round_asm!(sse xmm_reg, k;
            0: b[0], 1: b[1], 2: b[2], 3: b[3], 4: b[4], 5: b[5], 6: b[6], 7: b[7];
            8: *p0, 9: *p1, 10: *p2, 11: *p3);
    }

    /// AES round `ROUND` (if the key has it before its last) and the hash
    /// unit after it ([`unit_after`]). A function per round, so that every
    /// round and unit is laid out in line with constant indices.
    #[inline]
    fn stitch_round<const NK: usize, const GCM: bool, const ROUND: usize>(
        st: &mut Stitch,
        rk: &[__m128i; NK],
        x: &[[u8; 16]; 8],
        s: &HashState,
        (h, hk): (&[__m128i; 8], &[__m128i; 8]),
    ) {
        if ROUND >= NK - 1 {
            return;
        }
        let unit = const { unit_after(ROUND, NK, 8) };
        // The unit's block is loaded before the round; it and the sum go
        // through the round's `asm!` block.
        let data = match unit {
            Some(u) if u > 0 => load(&x[8 - u]),
            _ => st.b[0],
        };
        let mut pin = [data, st.w.lo, st.w.mid, st.w.hi];
        aes_round_pinned(&mut st.b, rk[ROUND], &mut pin);
        let [data, lo, mid, hi] = pin;
        (st.w.lo, st.w.mid, st.w.hi) = (lo, mid, hi);
        match unit {
            None => {}
            Some(0) => st.acc = state_finish(*s),
            Some(unit) => {
                // Block i of a group is multiplied by H^(8 − i).
                let i = 8 - unit;
                let xi = for_hash::<GCM>(data);
                let xi = if i == 0 { _mm_xor_si128(xi, st.acc) } else { xi };
                mul_acc_k(&mut st.w, xi, h[7 - i], hk[7 - i]);
            }
        }
    }

    /// The CTR encryption of the group at `offset` (from the counter blocks
    /// `b`) with, spread over its AES rounds, the hash of the group at
    /// `hash_at` (of the output as written if `OUTPUT`, else of the input):
    /// the state's reduction first, then one block's three multiplies per
    /// round, each block loaded where it is used, the one that takes the
    /// reduced state last. Returns the new (unreduced) state.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn aes_hash_group<const NK: usize, const GCM: bool, const OUTPUT: bool>(
        rk: &[__m128i; NK],
        mut b: [__m128i; 8],
        data: &mut InOut<'_>,
        offset: usize,
        hash_at: usize,
        s: &HashState,
        keys: (&[__m128i; 8], &[__m128i; 8]),
    ) -> HashState {
        const {
            assert!(NK == 11 || NK == 15);
            // Every unit has a round: the last follows round NK − 2.
            assert!(NK - 2 > 8);
        };
        let x = if OUTPUT { data.written_regs::<16, 8>(hash_at) } else { data.input_regs::<16, 8>(hash_at) };
        for b in b.iter_mut() {
            *b = _mm_xor_si128(*b, rk[0]);
        }
        let mut st = Stitch { b, acc: _mm_setzero_si128(), w: wide_zero() };
        stitch_round::<NK, GCM, 1>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 2>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 3>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 4>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 5>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 6>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 7>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 8>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 9>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 10>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 11>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 12>(&mut st, rk, x, s, keys);
        stitch_round::<NK, GCM, 13>(&mut st, rk, x, s, keys);
        let input = data.input_regs::<16, 8>(offset);
        let c: [__m128i; 8] =
            core::array::from_fn(|i| _mm_aesenclast_si128(st.b[i], _mm_xor_si128(rk[NK - 1], load(&input[i]))));
        for (out, c) in data.output_regs::<16, 8>(offset).iter_mut().zip(c) {
            *out = store(c);
        }
        HashState { w: karatsuba_done(st.w), acc: _mm_setzero_si128() }
    }

    /// Reads the group at `offset`, XORs the keystream, writes it.
    #[inline]
    fn xor_group(data: &mut InOut<'_>, offset: usize, ks: &[__m128i; 8]) {
        let mut c: [__m128i; 8] = load_blocks(data.input::<GROUP>(offset));
        for (c, k) in c.iter_mut().zip(ks) {
            *c = _mm_xor_si128(*c, *k);
        }
        store_blocks_to(data.output::<GROUP>(offset), &c);
    }

    /// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
    /// hashing the output: the output of each group is hashed during the AES of
    /// the next (read back from the output). Returns the accumulator and the
    /// end of the last whole group.
    #[inline]
    pub(super) fn ctr_hash_output<const NK: usize, const GCM: bool>(
        rk: &[__m128i; NK],
        h: &[__m128i; 8],
        ctr: &mut __m128i,
        acc: __m128i,
        data: &mut InOut<'_>,
        start: usize,
    ) -> (__m128i, usize) {
        let bulk = start + (data.len() - start) / GROUP * GROUP;
        if bulk == start {
            return (acc, bulk);
        }
        let hk = karatsuba_keys(h);
        let mut s = state_from(acc);
        let mut ks = counter_blocks::<GCM, 8>(ctr);
        encrypt_blocks(rk, &mut ks);
        xor_group(data, start, &ks);
        let mut offset = start + GROUP;
        while offset < bulk {
            let ctrs = counter_blocks::<GCM, 8>(ctr);
            s = aes_hash_group::<NK, GCM, true>(rk, ctrs, data, offset, offset - GROUP, &s, (h, &hk));
            offset += GROUP;
        }
        let out = data.written_regs::<16, 8>(bulk - GROUP);
        let last: [__m128i; 8] = core::array::from_fn(|i| for_hash::<GCM>(load(&out[i])));
        (fold8_karatsuba(state_finish(s), &last, h, &hk), bulk)
    }

    /// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
    /// hashing the input: each group's input is hashed during its own AES.
    /// Returns the accumulator and the end of the last whole group.
    #[inline]
    pub(super) fn ctr_hash_input<const NK: usize, const GCM: bool>(
        rk: &[__m128i; NK],
        h: &[__m128i; 8],
        ctr: &mut __m128i,
        acc: __m128i,
        data: &mut InOut<'_>,
        start: usize,
    ) -> (__m128i, usize) {
        let bulk = start + (data.len() - start) / GROUP * GROUP;
        if bulk == start {
            return (acc, bulk);
        }
        let hk = karatsuba_keys(h);
        let mut s = state_from(acc);
        let mut offset = start;
        while offset < bulk {
            let ctrs = counter_blocks::<GCM, 8>(ctr);
            s = aes_hash_group::<NK, GCM, false>(rk, ctrs, data, offset, offset, &s, (h, &hk));
            offset += GROUP;
        }
        (state_finish(s), bulk)
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
            xor_group(data, offset, &ks);
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
