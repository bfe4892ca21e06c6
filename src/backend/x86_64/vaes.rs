//! The VAES tiers' entry points, written once: GCM and GCM-SIV over the
//! stitched engine (`engine.rs`) with groups of `BIG` registers for long
//! messages and `SMALL` for short ones and what the big groups leave, the
//! rest on the AES-NI tier's pieces (`gcm_aesni`, `siv`), whose features
//! every VAES tier includes, or for GCM on the tier's `gcm_leftover`. `vaes_avx2.rs` and `vaes_avx512.rs`
//! each mount this file as their `vaes` module (`#[path]`) and name its
//! functions in their plain entry points (`seal`, `open`, `siv_seal`,
//! `siv_open`), which is what dispatch calls. Contracts: `gcm_aesni.rs`
//! and `siv.rs`.
//!
//! Besides the engine's pieces, the tier supplies `Token` (its feature
//! token), `SMALL`, `BIG_FROM` (the message length from which the big
//! groups pay for their extra powers), `FULL_RATE_MULS` (the multiplies
//! per product GCM's groups use where `vpclmulqdq` issues every cycle,
//! `cpu::x86_64::clmul_every_cycle`; 3 elsewhere), `group_powers`, and `gcm_short` with
//! `GCM_SHORT_MAX` (GCM of a message of at most that many bytes: less than a
//! small group, or on AVX-512 exactly one, in one masked batch),
//! `gcm_leftover` (what the groups of a longer GCM message leave: the
//! AES-NI pieces, [`gcm_rest`], or on AVX-512 one masked batch) and
//! `siv_one_group` (GCM-SIV of a message `siv::one_group` takes).

use core::arch::x86_64::__m128i;

use zeroize::Zeroize;

use super::engine::{
    HashState, Powers, ctr_only, groups_end, hash_bytes, hash_input, hash_output, state_finish,
    state_from,
};
use super::{
    BIG, BIG_FROM, FULL_RATE_MULS, GCM_SHORT_MAX, RB, SMALL, Token, gcm_leftover, gcm_short,
    group_powers, siv_one_group, tier,
};
use crate::backend::x86_64::{self, gcm_aesni, siv};
use crate::block::{Block, HPowers, RoundKeys};
use crate::cpu::aesni_clmul;
use crate::inout::InOut;

tier! {
    /// Whether a message of `len` bytes takes the big groups.
    #[inline]
    fn big(len: usize) -> bool {
        len >= BIG_FROM
    }

    /// The tier's `seal` (`SEAL`) or `open`: a short message on
    /// `gcm_short`, a longer one in [`gcm_groups`]. Kept apart so that the
    /// entry point a short message runs through has none of the group
    /// loops' prologue (six saved registers, a 32-byte aligned frame of
    /// 1.9 KiB): on Zen 3 a 16-byte AES-256-GCM seal on the AVX2 tier took
    /// 4.6–4.9 ns longer than on the AES-NI tier whose code it runs, 4.0–4.2
    /// ns with the split (`compare gcm256 31 16`, two alternated runs).
    #[inline]
    pub(super) fn gcm<const ROUND_KEYS: usize, const SEAL: bool>(
        token: Token,
        keys: &RoundKeys<ROUND_KEYS>,
        h_powers: &HPowers,
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        if data.len() <= GCM_SHORT_MAX {
            gcm_short::<ROUND_KEYS, SEAL>(token, keys, h_powers, j0, aad, data, len_block)
        } else if FULL_RATE_MULS != 3 && crate::cpu::x86_64::clmul_every_cycle() {
            gcm_groups::<ROUND_KEYS, SEAL, FULL_RATE_MULS>(keys, h_powers, j0, aad, data, len_block)
        } else {
            gcm_groups::<ROUND_KEYS, SEAL, 3>(keys, h_powers, j0, aad, data, len_block)
        }
    }

    /// [`gcm`] of a message longer than `GCM_SHORT_MAX`: the whole groups
    /// on this tier (seal hashes the output, open the input), each product
    /// with `MULS` multiplies (`engine.rs`), the rest in the tier's
    /// `gcm_leftover`.
    #[inline(never)]
    pub(super) fn gcm_groups<const ROUND_KEYS: usize, const SEAL: bool, const MULS: usize>(
        keys: &RoundKeys<ROUND_KEYS>,
        h_powers: &HPowers,
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        let mut s = gcm_aesni::state_new(keys, h_powers, j0, aad);
        let (mut st, mut done) = (state_from(s.acc), 0);
        let big = big(data.len());
        let mut pw = group_powers::<_, MULS>(&h_powers.0, big);
        let rk = &keys.0;
        if SEAL {
            if big {
                hash_output::<_, ROUND_KEYS, true, MULS, BIG>(rk, &pw, &mut s.ctr, &mut st, data, done);

                done = groups_end::<BIG>(data.len(), done);
            }
            hash_output::<_, ROUND_KEYS, true, MULS, SMALL>(rk, &pw, &mut s.ctr, &mut st, data, done);

            done = groups_end::<SMALL>(data.len(), done);
        } else {
            if big {
                hash_input::<_, ROUND_KEYS, true, MULS, BIG>(rk, &pw, &mut s.ctr, &mut st, data, done);

                done = groups_end::<BIG>(data.len(), done);
            }
            hash_input::<_, ROUND_KEYS, true, MULS, SMALL>(rk, &pw, &mut s.ctr, &mut st, data, done);

            done = groups_end::<SMALL>(data.len(), done);
        }
        pw.zeroize();
        s.acc = state_finish(st);
        // The extended powers (wiped above) are the one copy of key state
        // the source makes on this call's stack: the rounds read their keys
        // from the key schedule inside their own `asm!` blocks (`aes_round`),
        // so no round key is held across a group. What the compiler spills
        // of the powers is not wiped (docs/security.md, "Not wiped").
        gcm_leftover::<ROUND_KEYS, SEAL>(&mut s, data, done, len_block)
    }

    /// What the groups leave, on the AES-NI pieces ([`gcm_rest`]), from the
    /// counter in `s`, handed over in general registers.
    #[inline]
    pub(super) fn aesni_rest<const ROUND_KEYS: usize, const SEAL: bool>(
        s: &mut gcm_aesni::State<'_, ROUND_KEYS>,
        data: &mut InOut<'_>,
        start: usize,
        len_block: u128,
    ) -> Block {
        let ctr = u128::from_le_bytes(x86_64::store(s.ctr));
        gcm_rest::<ROUND_KEYS, SEAL>(s, ctr, data, start, len_block)
    }

    /// The tier's `siv_seal` (contract: `siv::seal`): the POLYVAL pass, then CTR.
    #[inline]
    pub(super) fn siv_seal<const ROUND_KEYS: usize>(
        token: Token,
        keys: &RoundKeys<ROUND_KEYS>,
        nonce: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        if siv::is_one_group(aad, data) {
            return siv_one_group::<ROUND_KEYS, true>(token, keys, nonce, aad, data, 0, len_block);
        }
        if data.len() < RB * SMALL {
            // Less than a small group: the AES-NI tier's seal, out of line.
            return siv::seal(token.aesni(), keys, nonce, aad, data, len_block);
        }
        let mut s = siv::state_new(keys, nonce, aad, data.len());
        let (mut st, mut done) = (state_from(s.acc), 0);
        let big = big(data.len());
        let mut pw = group_powers::<_, 3>(&s.h, big);
        if big {
            hash_only::<false, BIG>(&mut st, data, &pw, done);

            done = groups_end::<BIG>(data.len(), done);
        }
        hash_only::<false, SMALL>(&mut st, data, &pw, done);

        done = groups_end::<SMALL>(data.len(), done);
        pw.zeroize();
        s.acc = state_finish(st);
        let tag = siv_hash_rest(&mut s, data, done, len_block);
        let mut done = 0;
        if big {
            ctr_only::<_, ROUND_KEYS, false, BIG>(&s.enc, &mut s.ctr, data, done);

            done = groups_end::<BIG>(data.len(), done);
        }
        ctr_only::<_, ROUND_KEYS, false, SMALL>(&s.enc, &mut s.ctr, data, done);

        done = groups_end::<SMALL>(data.len(), done);
        siv_seal_rest(&mut s, data, done);
        byte_store(tag)
    }

    /// The tier's `siv_open` (contract: `siv::open`): one stitched pass.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn siv_open<const ROUND_KEYS: usize>(
        token: Token,
        keys: &RoundKeys<ROUND_KEYS>,
        nonce: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        tag: u128,
        len_block: u128,
    ) -> Block {
        if siv::is_one_group(aad, data) {
            return siv_one_group::<ROUND_KEYS, false>(token, keys, nonce, aad, data, tag, len_block);
        }
        if data.len() < RB * SMALL {
            // Less than a small group: the AES-NI tier's open, out of line.
            return siv::open(token.aesni(), keys, nonce, aad, data, tag, len_block);
        }
        let mut s = siv::state_new(keys, nonce, aad, data.len());
        s.ctr = siv::initial_counter_from(tag);
        let (mut st, mut done) = (state_from(s.acc), 0);
        let big = big(data.len());
        let mut pw = group_powers::<_, 3>(&s.h, big);
        if big {
            hash_output::<_, ROUND_KEYS, false, 3, BIG>(&s.enc, &pw, &mut s.ctr, &mut st, data, done);

            done = groups_end::<BIG>(data.len(), done);
        }
        hash_output::<_, ROUND_KEYS, false, 3, SMALL>(&s.enc, &pw, &mut s.ctr, &mut st, data, done);

        done = groups_end::<SMALL>(data.len(), done);
        pw.zeroize();
        s.acc = state_finish(st);
        byte_store(siv_open_rest(&mut s, data, done, len_block))
    }

    /// The hash of the input's whole `N`-register groups from `start`,
    /// into `s` (GCM-SIV seal's first pass; the AES-NI tier's is
    /// `ctr::hash_input`); the caller knows where it stopped (`groups_end`).
    #[inline]
    pub(super) fn hash_only<const GCM: bool, const N: usize>(
        s: &mut HashState,
        data: &InOut<'_>,
        pw: &Powers<BIG>,
        start: usize,
    ) {
        let group = RB * N;
        let end = groups_end::<N>(data.len(), start);
        let mut offset = start;
        while offset < end {
            *s = hash_bytes::<GCM, 3, N>(s, data.input_regs::<RB, N>(offset), pw);
            offset += group;
        }
    }

    /// A register as a block.
    #[inline]
    fn byte_store(v: __m128i) -> Block {
        x86_64::store(v)
    }
}

// What the groups leave, on the AES-NI tier's pieces, out of line and
// compiled for that tier alone: its rounds are `asm!` blocks in the legacy
// encoding (the tier runs on CPUs without AVX), and a legacy instruction
// that runs while the upper halves of the ymm/zmm registers are dirty costs a
// state transition or a merge, 1.3–4 µs a call on Intel cores and on Zen 3.
// A call is where LLVM puts a `vzeroupper`; inlined after the groups, those
// rounds ran dirty (and LLVM's own 32-byte moves and zeroing inside the
// inlined pieces dirtied the state again after any `vzeroupper` placed by
// hand). `scripts/sse-check.sh` proves from the machine code that no legacy
// instruction runs dirty; docs/design.md, "Legacy SSE after wide code".
// Here, not in `gcm_aesni.rs` or `siv.rs`: in this module's codegen unit each
// wrapper gets its own copy of the piece it calls, which LLVM inlines into
// it, while the AES-NI tier's entry points keep theirs inlined too.
aesni_clmul! {
    /// `gcm_aesni::seal_from` (`SEAL`) or `open_from`, after the groups,
    /// from the counter block `ctr` (public: the nonce and the block
    /// position). It comes in general registers, not in `s`: the tail
    /// branches on its low byte (`counter_blocks`), and
    /// `scripts/ct-check.sh` treats a vector loaded from memory as secret.
    #[inline(never)]
    fn gcm_rest<const ROUND_KEYS: usize, const SEAL: bool>(
        s: &mut gcm_aesni::State<'_, ROUND_KEYS>,
        ctr: u128,
        data: &mut InOut<'_>,
        start: usize,
        len_block: u128,
    ) -> Block {
        s.ctr = x86_64::from_u128(ctr);
        if SEAL {
            gcm_aesni::seal_from(s, data, start, len_block)
        } else {
            gcm_aesni::open_from(s, data, start, len_block)
        }
    }

    /// `siv::hash_from`, after seal's hash groups (the tag is AES rounds too).
    #[inline(never)]
    fn siv_hash_rest<const ROUND_KEYS: usize>(
        s: &mut siv::State<ROUND_KEYS>,
        data: &InOut<'_>,
        start: usize,
        len_block: u128,
    ) -> __m128i {
        siv::hash_from(s, data, start, len_block)
    }

    /// `siv::seal_from`, after seal's CTR groups.
    #[inline(never)]
    fn siv_seal_rest<const ROUND_KEYS: usize>(
        s: &mut siv::State<ROUND_KEYS>,
        data: &mut InOut<'_>,
        start: usize,
    ) {
        siv::seal_from(s, data, start);
    }

    /// `siv::open_from`, after open's groups.
    #[inline(never)]
    fn siv_open_rest<const ROUND_KEYS: usize>(
        s: &mut siv::State<ROUND_KEYS>,
        data: &mut InOut<'_>,
        start: usize,
        len_block: u128,
    ) -> __m128i {
        siv::open_from(s, data, start, len_block)
    }
}

#[cfg(test)]
mod tests {
    use core::arch::x86_64::_mm_setzero_si128;

    use super::super::{counters_group, store_reg};
    use super::*;
    use crate::model;

    /// This tier's token, or `None` after saying that the test is skipped:
    /// straight to the process's stderr, since the test harness would
    /// swallow `eprintln!` for a passing test, and a skip must show.
    fn token() -> Option<Token> {
        let token = Token::detect().ok();
        if token.is_none() {
            let name = core::any::type_name::<Token>();
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("skipped: this CPU has no {name} tier\n").as_bytes(),
            );
        }
        token
    }

    /// GCM seal and open of `len` bytes through [`gcm_groups`] with `MULS`
    /// multiplies per product, against the model: (ciphertext, tag) and
    /// (plaintext, tag) as the function returns them.
    fn groups_both_ways<const ROUND_KEYS: usize, const KB: usize, const MULS: usize>(
        t: Token,
        key: &[u8; KB],
        aad: &[u8],
        len: usize,
    ) {
        use core::mem::MaybeUninit;
        let nonce: [u8; 12] = core::array::from_fn(|i| i as u8 ^ 0x3c);
        let plain: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
        let (mut rk, mut hp) = (MaybeUninit::uninit(), MaybeUninit::uninit());
        // SAFETY: `t` proves the tier's features, which include the AES-NI
        // tier's; `init_key` writes both.
        let (rk, hp) = unsafe {
            gcm_aesni::init_key::<ROUND_KEYS, KB>(t.aesni(), key, &mut rk, &mut hp);
            (rk.assume_init(), hp.assume_init())
        };
        let j0 = crate::aes_gcm::pre_counter_block(&nonce);
        let len_block = crate::aes_gcm::length_block(aad.len(), len);
        let expected = model::gcm_seal(key, &nonce, aad, &plain);
        let (mut sealed, mut opened) = (vec![0u8; len], vec![0u8; len]);
        // SAFETY: `t` proves the tier's features are present.
        let (seal_tag, open_tag) = unsafe {
            (
                gcm_groups::<ROUND_KEYS, true, MULS>(
                    &rk,
                    &hp,
                    j0,
                    aad,
                    &mut InOut::copy(&plain, &mut sealed),
                    len_block,
                ),
                gcm_groups::<ROUND_KEYS, false, MULS>(
                    &rk,
                    &hp,
                    j0,
                    aad,
                    &mut InOut::copy(&expected[..len], &mut opened),
                    len_block,
                ),
            )
        };
        let what = format!(
            "AES-{}, {MULS} multiplies, {len} bytes, AAD {}",
            KB * 8,
            aad.len()
        );
        assert_eq!(sealed, expected[..len], "{what}: ciphertext");
        assert_eq!(seal_tag, expected[len..], "{what}: seal's tag");
        assert_eq!(opened, plain, "{what}: plaintext");
        assert_eq!(open_tag, expected[len..], "{what}: open's tag");
    }

    /// The group loops with three multiplies per product and with the
    /// tier's `FULL_RATE_MULS` (four on AVX-512, whichever the CPU's vendor
    /// makes `gcm` pick) give the model's bytes, across big and small
    /// groups, rests on either side of `XMM_REST`, and counter carries.
    #[test]
    fn group_loops_match_the_model_with_either_multiply_count() {
        let Some(t) = token() else { return };
        let lens = [
            RB * SMALL + 1,
            RB * SMALL + 32,
            RB * SMALL + 33,
            2 * RB * SMALL - 1,
            BIG_FROM - 1,
            BIG_FROM,
            BIG_FROM + 31,
            BIG_FROM + 33,
            BIG_FROM + RB * BIG + RB * SMALL + 255,
            4096 + 16 * 256 + 100,
        ];
        for len in lens {
            for aad in [&b""[..], &[0xa5u8; 20][..]] {
                groups_both_ways::<11, 16, 3>(t, &[0x42; 16], aad, len);
                groups_both_ways::<11, 16, FULL_RATE_MULS>(t, &[0x42; 16], aad, len);
                groups_both_ways::<15, 32, 3>(t, &[0x24; 32], aad, len);
                groups_both_ways::<15, 32, FULL_RATE_MULS>(t, &[0x24; 32], aad, len);
            }
        }
    }

    #[test]
    fn group_powers_match_the_model() {
        let Some(_t) = token() else { return };
        let h1: Block = core::array::from_fn(|i| (i as u8).wrapping_mul(53).wrapping_add(9));
        const BLOCKS: usize = RB * BIG / 16;
        let mut expected = [h1; BLOCKS];
        for i in 1..BLOCKS {
            expected[i] = model::polyval_dot(&expected[i - 1], &h1);
        }
        // SAFETY: `_t` proves the tier's features are present.
        let got: [[u8; 16]; BLOCKS] = unsafe {
            let mut h = [_mm_setzero_si128(); 8];
            for (i, x) in h.iter_mut().enumerate() {
                *x = x86_64::load(&expected[i]);
            }
            let mut regs = [[0u8; RB]; BIG];
            let powers = group_powers::<_, 3>(&h, true);
            for (p, k) in powers.p.iter().zip(&powers.k) {
                // Karatsuba's factor: the halves of each lane's power XORed.
                let mut pb = [0u8; 64];
                let mut kb = [0u8; 64];
                core::ptr::copy_nonoverlapping(
                    core::ptr::from_ref(p).cast::<u8>(),
                    pb.as_mut_ptr(),
                    size_of_val(p),
                );
                core::ptr::copy_nonoverlapping(
                    core::ptr::from_ref(k).cast::<u8>(),
                    kb.as_mut_ptr(),
                    size_of_val(k),
                );
                for lane in 0..size_of_val(p) / 16 {
                    for byte in 0..8 {
                        assert_eq!(
                            kb[16 * lane + byte],
                            pb[16 * lane + byte] ^ pb[16 * lane + 8 + byte]
                        );
                    }
                }
            }
            for (r, p) in regs.iter_mut().zip(&powers.p) {
                store_reg(r, *p);
            }
            core::mem::transmute::<[[u8; RB]; BIG], [[u8; 16]; BLOCKS]>(regs)
        };
        for i in 0..BLOCKS {
            assert_eq!(
                got[i],
                expected[BLOCKS - 1 - i],
                "block {i} should be H^{}",
                BLOCKS - i
            );
        }
    }

    #[test]
    fn group_counters_match_the_128_bit_ones_across_carries() {
        let Some(_t) = token() else { return };
        for start in [
            2u32,
            0xef,
            0xf0,
            0xf1,
            0xff,
            0x1f0,
            0xffff_fff0,
            0xffff_fff8,
            0xffff_ffff,
        ] {
            for gcm in [true, false] {
                let mut j = [0x5au8; 16];
                if gcm {
                    j[12..].copy_from_slice(&start.to_be_bytes());
                } else {
                    j[..4].copy_from_slice(&start.to_le_bytes());
                }
                // SAFETY: `_t` proves the tier's features, which include the AES-NI ones.
                let (wide, narrow) = unsafe {
                    let x = x86_64::load(&j);
                    let c = if gcm {
                        x86_64::clmul::byte_reverse(x)
                    } else {
                        x
                    };
                    let (mut c1, mut c2) = (c, c);
                    const BLOCKS: usize = RB * BIG / 16;
                    let mut regs = [[0u8; RB]; BIG];
                    if gcm {
                        for (r, c) in regs.iter_mut().zip(counters_group::<true, BIG>(&mut c1)) {
                            store_reg(r, c);
                        }
                    } else {
                        for (r, c) in regs.iter_mut().zip(counters_group::<false, BIG>(&mut c1)) {
                            store_reg(r, c);
                        }
                    }
                    let bytes = core::mem::transmute::<[[u8; RB]; BIG], [u8; 16 * BLOCKS]>(regs);
                    let narrow: [u8; 16 * BLOCKS] = if gcm {
                        x86_64::store_blocks(&x86_64::ctr::counter_blocks::<true, BLOCKS>(&mut c2))
                    } else {
                        x86_64::store_blocks(&x86_64::ctr::counter_blocks::<false, BLOCKS>(&mut c2))
                    };
                    assert_eq!(
                        x86_64::store(c1),
                        x86_64::store(c2),
                        "next counter, start {start:#x}"
                    );
                    (bytes, narrow)
                };
                assert_eq!(wide, narrow, "start {start:#x}, gcm {gcm}");
            }
        }
    }
}
