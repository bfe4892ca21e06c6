//! AES-GCM on AES-NI + PCLMULQDQ, eight blocks per iteration.
//!
//! Contract of [`seal`] and [`open`]: `j0` is the pre-counter block; data blocks
//! use counters inc32(J0), inc32²(J0), … (the low 32 bits, big-endian, wrapping).
//! `data` is transformed in place or into a disjoint output of the same length;
//! each input byte is read once and each output byte written once. The return
//! value is the tag E(K, J0) ^ GHASH(H, A || C || `len_block`), computed over the
//! ciphertext in both directions. The caller has checked the SP 800-38D lengths.
//!
//! Shape of the bulk loop (both directions), for 128-byte groups:
//! - seal: the AES rounds of group i run interleaved with the GHASH multiplies of
//!   the ciphertext of group i − 1 (already in registers);
//! - open: the AES rounds of group i run interleaved with the GHASH multiplies of
//!   the ciphertext of group i itself (it is the input).
//!
//! Either way one reduction per group. The last partial group (< 128 bytes) and
//! E(K, J0) are computed together in [`finish`].

use core::arch::x86_64::*;

use super::aes::{encrypt_blocks, load_round_keys};
use super::clmul::{Wide, byte_reverse, fold_blocks, mul_acc, mul_x, powers, reduce, wide_zero};
use super::{from_u128, load, load_blocks, store, store_blocks};
use crate::backend::{Block, HPowers, InOut, RoundKeys};
use crate::cpu::AesNiClmul;

/// Bytes per bulk iteration.
const GROUP: usize = 128;

aesni_clmul! {
    /// Computes H = E(K, 0^128) and stores H^1..H^8 in the POLYVAL form GHASH uses
    /// here (see `clmul.rs`: H' = mulX_POLYVAL(ByteReverse(H))).
    pub(crate) fn h_powers<const NK: usize>(_token: AesNiClmul, keys: &RoundKeys<NK>) -> HPowers {
        let rk = load_round_keys(keys);
        let mut h = [_mm_setzero_si128()];
        encrypt_blocks(&rk, &mut h);
        let p = powers(mul_x(byte_reverse(h[0])));
        let mut out = HPowers([[0u8; 16]; 8]);
        for (dst, src) in out.0.iter_mut().zip(p) {
            *dst = store(src);
        }
        out
    }

    /// GCM encryption; see the module contract.
    pub(crate) fn seal<const NK: usize>(
        _token: AesNiClmul,
        keys: &RoundKeys<NK>,
        h_powers: &HPowers,
        j0: u128,
        aad: &[u8],
        mut data: InOut<'_>,
        len_block: u128,
    ) -> Block {
        let rk = load_round_keys(keys);
        let h = load_powers(h_powers);
        let mut acc = ghash_padded(_mm_setzero_si128(), aad, &h);
        let j0 = byte_reverse(from_u128(j0));
        let mut ctr = _mm_add_epi32(j0, _mm_set_epi32(0, 0, 0, 1));

        let bulk = data.len() / GROUP * GROUP;
        if bulk > 0 {
            // First group: AES only; its ciphertext is hashed during the next group.
            let mut ks = counter_blocks(&mut ctr);
            encrypt_blocks(&rk, &mut ks);
            let mut prev = xor_group(&mut data, 0, &ks);
            let mut offset = GROUP;
            while offset < bulk {
                let (ks, sum) = aes_ghash_group(&rk, counter_blocks(&mut ctr), &prev, acc, &h);
                acc = sum;
                prev = xor_group(&mut data, offset, &ks);
                offset += GROUP;
            }
            acc = fold_blocks(acc, &prev, &h);
        }
        finish::<NK, true>(&rk, &h, j0, ctr, acc, &mut data, bulk, len_block)
    }

    /// GCM decryption; see the module contract. Returns the tag computed over the
    /// ciphertext; the plaintext written is unauthenticated until the caller
    /// compares it.
    pub(crate) fn open<const NK: usize>(
        _token: AesNiClmul,
        keys: &RoundKeys<NK>,
        h_powers: &HPowers,
        j0: u128,
        aad: &[u8],
        mut data: InOut<'_>,
        len_block: u128,
    ) -> Block {
        let rk = load_round_keys(keys);
        let h = load_powers(h_powers);
        let mut acc = ghash_padded(_mm_setzero_si128(), aad, &h);
        let j0 = byte_reverse(from_u128(j0));
        let mut ctr = _mm_add_epi32(j0, _mm_set_epi32(0, 0, 0, 1));

        let bulk = data.len() / GROUP * GROUP;
        let mut offset = 0;
        while offset < bulk {
            let ct: [__m128i; 8] = load_blocks(&data.read::<GROUP>(offset));
            let mut hashed = ct;
            for b in hashed.iter_mut() {
                *b = byte_reverse(*b);
            }
            let (ks, sum) = aes_ghash_group(&rk, counter_blocks(&mut ctr), &hashed, acc, &h);
            acc = sum;
            let mut pt = ct;
            for (p, k) in pt.iter_mut().zip(ks) {
                *p = _mm_xor_si128(*p, k);
            }
            data.write(offset, &store_blocks::<8, GROUP>(&pt));
            offset += GROUP;
        }
        finish::<NK, false>(&rk, &h, j0, ctr, acc, &mut data, bulk, len_block)
    }

    /// H^1..H^8 into registers.
    #[inline]
    fn load_powers(h_powers: &HPowers) -> [__m128i; 8] {
        let mut h = [_mm_setzero_si128(); 8];
        for (dst, src) in h.iter_mut().zip(h_powers.0.iter()) {
            *dst = load(src);
        }
        h
    }

    /// The next `N` counter blocks. `ctr` is J0-style and byte-reversed, so its
    /// low dword is the 32-bit block counter and `PADDD` on it is exactly inc32.
    #[inline]
    fn counter_blocks<const N: usize>(ctr: &mut __m128i) -> [__m128i; N] {
        let mut out = [_mm_setzero_si128(); N];
        let low_byte = _mm_cvtsi128_si32(*ctr) as u32 & 0xff;
        if low_byte as usize + N <= 256 {
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

    /// Eight AES encryptions (the keystream of one group) with, between their
    /// rounds, the eight GHASH multiplies of `x` (byte-reversed blocks; `acc` is
    /// added to `x[0]`). Returns the keystream and the new, reduced accumulator.
    #[inline]
    fn aes_ghash_group<const NK: usize>(
        rk: &[__m128i; NK],
        mut blocks: [__m128i; 8],
        x: &[__m128i; 8],
        acc: __m128i,
        h: &[__m128i; 8],
    ) -> ([__m128i; 8], __m128i) {
        const { assert!(NK >= 10) };
        let mut w: Wide = wide_zero();
        for b in blocks.iter_mut() {
            *b = _mm_xor_si128(*b, rk[0]);
        }
        // Rounds 1..=8 each carry one multiply: block 7 (by H^1) first, block 0
        // (by H^8, the one that waits on `acc`) last.
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

    /// One AES round on each of eight blocks.
    #[inline]
    fn aes_round(blocks: &mut [__m128i; 8], k: __m128i) {
        for b in blocks.iter_mut() {
            *b = _mm_aesenc_si128(*b, k);
        }
    }

    /// Reads the group at `offset`, XORs the keystream, writes it, and returns the
    /// ciphertext byte-reversed for GHASH.
    #[inline]
    fn xor_group(data: &mut InOut<'_>, offset: usize, ks: &[__m128i; 8]) -> [__m128i; 8] {
        let mut c: [__m128i; 8] = load_blocks(&data.read::<GROUP>(offset));
        for (c, k) in c.iter_mut().zip(ks) {
            *c = _mm_xor_si128(*c, *k);
        }
        data.write(offset, &store_blocks::<8, GROUP>(&c));
        for c in c.iter_mut() {
            *c = byte_reverse(*c);
        }
        c
    }

    /// GHASH of `bytes` zero-padded to a whole number of blocks (GCM's `A || 0^v`).
    #[inline]
    fn ghash_padded(mut acc: __m128i, bytes: &[u8], h: &[__m128i; 8]) -> __m128i {
        let mut groups = bytes.chunks_exact(GROUP);
        for group in &mut groups {
            let mut x: [__m128i; 8] = load_blocks(group.try_into().unwrap_or(&[0; GROUP]));
            for b in x.iter_mut() {
                *b = byte_reverse(*b);
            }
            acc = fold_blocks(acc, &x, h);
        }
        let rest = groups.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; GROUP];
            buf[..rest.len()].copy_from_slice(rest);
            let mut x: [__m128i; 8] = load_blocks(&buf);
            for b in x.iter_mut() {
                *b = byte_reverse(*b);
            }
            acc = fold_blocks(acc, &x[..rest.len().div_ceil(16)], h);
        }
        acc
    }

    /// The last partial group (0..128 bytes from `offset`), E(K, J0), the length
    /// block, and the tag. Picks an AES batch just wide enough for the blocks
    /// left, so a 16-byte message costs two AES blocks, not nine.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn finish<const NK: usize, const ENCRYPT: bool>(
        rk: &[__m128i; NK],
        h: &[__m128i; 8],
        j0: __m128i,
        ctr: __m128i,
        acc: __m128i,
        data: &mut InOut<'_>,
        offset: usize,
        len_block: u128,
    ) -> Block {
        match (data.len() - offset).div_ceil(16) {
            0..=1 => finish_n::<NK, ENCRYPT, 1, 16>(rk, h, j0, ctr, acc, data, offset, len_block),
            2..=4 => finish_n::<NK, ENCRYPT, 4, 64>(rk, h, j0, ctr, acc, data, offset, len_block),
            _ => finish_n::<NK, ENCRYPT, 8, 128>(rk, h, j0, ctr, acc, data, offset, len_block),
        }
    }

    /// [`finish`] for at most `M` blocks (`B` = 16·`M` bytes) of data.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn finish_n<const NK: usize, const ENCRYPT: bool, const M: usize, const B: usize>(
        rk: &[__m128i; NK],
        h: &[__m128i; 8],
        j0: __m128i,
        mut ctr: __m128i,
        acc: __m128i,
        data: &mut InOut<'_>,
        offset: usize,
        len_block: u128,
    ) -> Block {
        let mut buf = [0u8; B];
        let rest = data.read_tail(offset, &mut buf);
        let n = rest.div_ceil(16);

        // E(K, J0) rides along with the keystream blocks.
        let mut ks: [__m128i; M] = counter_blocks(&mut ctr);
        let mut tag_mask = [byte_reverse(j0)];
        encrypt_blocks(rk, &mut tag_mask);
        encrypt_blocks(rk, &mut ks);

        let input: [__m128i; M] = load_blocks(&buf);
        let mut output = input;
        for (o, k) in output.iter_mut().zip(&ks) {
            *o = _mm_xor_si128(*o, *k);
        }
        let mut out_bytes: [u8; B] = store_blocks(&output);
        data.write_tail(offset, &out_bytes[..rest]);

        // GHASH runs over the ciphertext, zero-padded: the input when opening,
        // the output with the keystream past `rest` cleared when sealing.
        let mut ct = if ENCRYPT {
            out_bytes[rest..].fill(0);
            load_blocks::<M, B>(&out_bytes)
        } else {
            input
        };
        for c in ct.iter_mut() {
            *c = byte_reverse(*c);
        }
        let len = byte_reverse(from_u128(len_block));
        let acc = if n < 8 {
            let mut x = [len; 8];
            x[..M].copy_from_slice(&ct);
            x[n] = len;
            fold_blocks(acc, &x[..n + 1], h)
        } else {
            fold_blocks(fold_blocks(acc, &ct, h), &[len], h)
        };
        store(_mm_xor_si128(byte_reverse(acc), tag_mask[0]))
    }
}

#[cfg(test)]
mod tests {
    use core::arch::x86_64::__m128i;

    use super::super::clmul::{byte_reverse, mul};
    use super::super::{aes, load, store};
    use super::*;
    use crate::model;

    fn token() -> AesNiClmul {
        AesNiClmul::detect().expect("the kernel tests need AES-NI and PCLMULQDQ")
    }

    /// A deterministic byte pattern for test inputs.
    fn pattern(seed: u8, len: usize) -> Vec<u8> {
        (0..len)
            .map(|i| {
                (i as u8)
                    .wrapping_mul(151)
                    .wrapping_add(seed)
                    .rotate_left(3)
            })
            .collect()
    }

    fn block(seed: u8) -> Block {
        pattern(seed, 16).try_into().unwrap()
    }

    #[test]
    fn field_multiply_matches_polyval_dot() {
        let _t = token();
        for seed in 0..64u8 {
            let (a, b) = (block(seed), block(seed.wrapping_mul(7).wrapping_add(1)));
            // SAFETY: `token()` proved the tier's features are present.
            let got = unsafe { store(mul(load(&a), load(&b))) };
            assert_eq!(got, model::polyval_dot(&a, &b), "seed {seed}");
        }
    }

    #[test]
    fn key_expansion_and_h_powers_match_the_model() {
        let t = token();
        let key256: [u8; 32] = pattern(9, 32).try_into().unwrap();
        let key128: [u8; 16] = pattern(3, 16).try_into().unwrap();
        // SAFETY: `t` proves the tier's features are present.
        let (rk256, rk128) = unsafe { (aes::expand_256(t, &key256), aes::expand_128(t, &key128)) };
        // Each schedule, run through the kernel's block encryption, must agree
        // with FIPS-197 as the model implements it, on several blocks.
        for seed in 0..8u8 {
            let input = block(seed);
            // SAFETY: `t` proves the tier's features are present.
            let (got256, got128) = unsafe {
                let mut b256 = [load(&input)];
                encrypt_blocks(&aes::load_round_keys(&rk256), &mut b256);
                let mut b128 = [load(&input)];
                encrypt_blocks(&aes::load_round_keys(&rk128), &mut b128);
                (store(b256[0]), store(b128[0]))
            };
            assert_eq!(got256, model::aes_encrypt_block(&key256, &input));
            assert_eq!(got128, model::aes_encrypt_block(&key128, &input));
        }
        for (key, powers) in [
            // SAFETY: `t` proves the tier's features are present.
            (&key256[..], unsafe { h_powers(t, &rk256) }),
            // SAFETY: as above.
            (&key128[..], unsafe { h_powers(t, &rk128) }),
        ] {
            // H^1 is mulX_POLYVAL(ByteReverse(E(K, 0))) (RFC 8452 Appendix A) and
            // H^(i+1) = dot(H^i, H^1); compare with the model's field maths.
            let mut h = model::aes_encrypt_block(key, &[0u8; 16]);
            h.reverse();
            let h1 = model::mul_x_polyval(&h);
            let mut expected = h1;
            for (i, p) in powers.0.iter().enumerate() {
                assert_eq!(*p, expected, "H^{}", i + 1);
                expected = model::polyval_dot(&expected, &h1);
            }
        }
    }

    #[test]
    fn counter_batches_wrap_the_low_32_bits_only() {
        let _t = token();
        // Counters whose low byte is about to carry take the per-block path;
        // those far from it take the batched path. Both must be inc32.
        for start in [
            0u32,
            0xf7,
            0xf8,
            0xf9,
            0xff,
            0x1fe,
            0xffff_fff9,
            0xffff_fffe,
            0xffff_ffff,
        ] {
            let mut j = [0xabu8; 16];
            j[12..].copy_from_slice(&start.to_be_bytes());
            // SAFETY: `_t` proved the tier's features are present.
            let blocks: [__m128i; 8] = unsafe {
                let mut ctr = byte_reverse(load(&j));
                counter_blocks(&mut ctr)
            };
            for (i, b) in blocks.iter().enumerate() {
                let mut expected = j;
                expected[12..].copy_from_slice(&start.wrapping_add(i as u32).to_be_bytes());
                // SAFETY: as above.
                assert_eq!(unsafe { store(*b) }, expected, "start {start:#x} block {i}");
            }
        }
    }
}
