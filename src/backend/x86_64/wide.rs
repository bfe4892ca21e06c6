//! The wide tiers' loops and entry points, written once.
//!
//! `wide_engine!(tier_macro, Token, register_class, broadcast_instruction)`
//! expands, inside the tier's feature macro,
//! to the group loops (`wide_hash_output`, `wide_hash_input`,
//! `wide_ctr_only`, `wide_hash`) and the four entry points (`seal`, `open`,
//! `siv_seal`, `siv_open`) of a wide tier. The invoking file supplies the
//! register-level pieces under fixed names, for its register width:
//!
//! | name | what |
//! |---|---|
//! | `Reg`, `Key`, `RB` | a register of blocks, a round key in every lane, the bytes of a register |
//! | `BIG`, `SMALL`, `BIG_FROM` | registers per group in the main loop and in the short one; the message length from which the big groups are used |
//! | `group_powers`, `Powers` | the powers H^n..H^1 with their Karatsuba factors, laid out for the loops |
//! | `load_reg`, `store_reg`, `xor`, `widen`, `for_hash_reg` | data in and out of registers |
//! | `counters_group`, `aes_round`, `aes_round_pinned`, `aes_last` | counter blocks and AES rounds of a group |
//! | `Wide`, `wide_zero`, `mul_acc_k`, `karatsuba_done` | unreduced sums of lane-wise products, three multiplies each |
//! | `sum_value` | the reduced value of an unreduced sum, lanes added |
//! | `gcm_short`, `GCM_SHORT_MAX` | GCM of a message of at most `GCM_SHORT_MAX` bytes (less than a small group, or on AVX-512 exactly one) |
//!
//! # Why the loops look like this
//!
//! On the CPU these tiers were tuned on (AMD Zen 5: `perf stat`, and
//! micro-benchmarks of single instructions, docs/benchmarks.md), `vaesenc`
//! of any width has a latency of four cycles and two can start every cycle,
//! while `vpclmulqdq` of any width starts once every two cycles. So:
//!
//! - a group has eight registers (`BIG`): eight independent AES chains are
//!   what it takes to start two rounds every cycle; with four the AES units
//!   idle half the time (the earlier design's ceiling);
//! - each register's product takes three multiplies (Karatsuba), not four:
//!   a group's 3·8 + 2 multiplies then fit under its AES rounds;
//! - the multiplies are spread over the rounds, one register after each
//!   round, and pinned there (`aes_round_pinned`): left alone, LLVM hoists
//!   every multiply of a group above its first round, and the two units take
//!   turns instead of working together;
//! - the group's sum is reduced at the start of the next group, whose last
//!   multiply takes it: the reduction's latency is hidden under AES rounds.
//!
//! Short messages use `SMALL` groups (four registers) with the same code:
//! they need half the powers, which saves the per-call cost of computing
//! them; so does what is left after the big groups. Less than a small
//! group is finished by the AES-NI tier's pieces (`gcm_aesni`, `siv`),
//! whose features every wide tier includes, except a GCM message shorter
//! than a small group, which is the tier's `gcm_short` (on AVX-512 one
//! batch with byte-masked loads and stores). Contracts of the entry
//! points: `gcm_aesni.rs` and `siv.rs`.

/// One AES round on the listed registers (numbered operands) with the round
/// key `$k`, as one `asm!` block, optionally naming further registers ("pins")
/// that no instruction uses (see `aes_round_pinned`). `vex` is the
/// three-operand VAES form (`vaesenc ymm/zmm`), `sse` the two-operand AES-NI
/// form (`aesenc xmm`, the AES-NI tier's stitched loop in `ctr.rs`).
macro_rules! aes_round_asm {
    (@emit $class:ident, $k:expr, [$($insn:expr),*]; $($b:expr),*; $($j:literal: $p:expr),*) => {
        // SAFETY: AES rounds on registers only (no memory, stack or flags);
        // this is expanded only in kernels whose target features provide the
        // instruction and the register class. The pinned registers are only
        // named in a comment.
        unsafe {
            core::arch::asm!(
                $($insn,)*
                $(concat!("/* {", $j, "} */"),)*
                $(inout($class) $b,)*
                $(inout($class) $p,)*
                k = in($class) $k,
                options(pure, nomem, nostack, preserves_flags),
            )
        }
    };
    (vex $class:ident, $k:expr; $($i:literal: $b:expr),*; $($j:literal: $p:expr),*) => {
        aes_round_asm!(@emit $class, $k, [$(concat!("vaesenc {", $i, "}, {", $i, "}, {k}")),*];
            $($b),*; $($j: $p),*)
    };
    (sse $class:ident, $k:expr; $($i:literal: $b:expr),*; $($j:literal: $p:expr),*) => {
        aes_round_asm!(@emit $class, $k, [$(concat!("aesenc {", $i, "}, {k}")),*]; $($b),*; $($j: $p),*)
    };
}

macro_rules! wide_engine {
    ($tier:ident, $token:ident, $class:ident, $broadcast:literal) => {
        /// The hash between groups: the last group's unreduced sum `w` (reduced
        /// by the next group, whose last multiply takes it) plus a reduced
        /// value `acc` (the hash before the first group; zero after it). No
        /// variants: the loops never branch on the state.
        #[derive(Clone, Copy)]
        struct HashState {
            w: Wide,
            acc: __m128i,
        }

        /// The multipliers of a group of `N` registers: register i, lane j of
        /// `p` holds H^(L·(N − i) − j) for L blocks per register (block L·i + j
        /// of a group is multiplied by it); `k` holds, in the low half of each
        /// lane, the XOR of that power's halves (Karatsuba's middle factor).
        /// The last registers of a big group's powers are a small group's:
        /// a group of `N` registers uses registers `BIG − N..BIG`.
        struct Powers<const N: usize> {
            p: [Reg; N],
            k: [Reg; N],
        }

        impl<const N: usize> Zeroize for Powers<N> {
            fn zeroize(&mut self) {
                self.p.zeroize();
                self.k.zeroize();
            }
        }

        /// What `aes_hash_group` carries from round to round.
        struct Stitch<const N: usize> {
            /// The AES states.
            b: [Reg; N],
            /// The reduced hash state (after unit 0).
            acc: __m128i,
            /// The group's sum so far.
            w: Wide,
        }

        $tier! {
            /// One AES round on a group, as one `asm!` block. Written with
            /// intrinsics, LLVM regroups the rounds into long runs on one
            /// register (one chain), and eight independent chains, which keep
            /// both AES units busy through the instruction's latency, become one
            /// or two.
            #[inline]
            fn aes_round<const N: usize>(b: &mut [Reg; N], k: Key) {
                const { assert!(N == 4 || N == 8) };
                if let Some(q) = b.first_chunk_mut::<8>() {
                    aes_round_asm!(vex $class, k; 0: q[0], 1: q[1], 2: q[2], 3: q[3], 4: q[4], 5: q[5], 6: q[6], 7: q[7];);
                } else if let Some(q) = b.first_chunk_mut::<4>() {
                    aes_round_asm!(vex $class, k; 0: q[0], 1: q[1], 2: q[2], 3: q[3];);
                }
            }

            /// [`aes_round`] that also passes four registers through its `asm!`
            /// block unchanged. What goes in is computed before the round and
            /// what comes out is used after it, so work on those values stays
            /// between the rounds where the source puts it: otherwise LLVM moves
            /// every multiply of a group ahead of the group's first round, and
            /// the multiplier and the AES units take turns instead of working
            /// together.
            #[inline]
            fn aes_round_pinned<const N: usize>(b: &mut [Reg; N], k: Key, pin: &mut [Reg; 4]) {
                const { assert!(N == 4 || N == 8) };
                let [p0, p1, p2, p3] = pin;
                if let Some(q) = b.first_chunk_mut::<8>() {
                    aes_round_asm!(vex $class, k;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3], 4: q[4], 5: q[5], 6: q[6], 7: q[7];
                        8: *p0, 9: *p1, 10: *p2, 11: *p3);
                } else if let Some(q) = b.first_chunk_mut::<4>() {
                    aes_round_asm!(vex $class, k; 0: q[0], 1: q[1], 2: q[2], 3: q[3]; 4: *p0, 5: *p1, 6: *p2, 7: *p3);
                }
            }

            /// The state of a hash whose value so far is `acc`.
            #[inline]
            fn state_from(acc: __m128i) -> HashState {
                HashState { w: wide_zero(), acc }
            }

            /// The value of a hash state.
            #[inline]
            fn state_finish(s: HashState) -> __m128i {
                _mm_xor_si128(sum_value(s.w), s.acc)
            }

            /// The state after a group whose sum is `w`.
            #[inline]
            fn state_after(w: Wide) -> HashState {
                HashState { w: karatsuba_done(w), acc: _mm_setzero_si128() }
            }

            /// Round key `k` (the first 16 bytes of `*k`) in every lane. An
            /// `asm!` block without `pure`, so LLVM neither hoists it out of a
            /// loop nor merges two of them: round keys are broadcast where they
            /// are used, straight from the key schedule, and never stored in a
            /// copy on the stack (which would then have to be wiped).
            #[inline]
            fn splat_key<B>(k: &B) -> Key {
                const { assert!(size_of::<B>() >= 16) };
                let out: Key;
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

            /// Round key `i`, broadcast (`splat_key`).
            #[inline]
            fn splat_key_at<B, const NK: usize>(rk: &[B; NK], i: usize) -> Key {
                splat_key(&rk[i])
            }

            /// Encrypts a group of counter blocks in place.
            #[inline]
            fn encrypt_regs<B, const NK: usize, const N: usize>(rk: &[B; NK], b: &mut [Reg; N]) {
                let k = splat_key_at(rk, 0);
                for b in b.iter_mut() {
                    *b = xor(*b, k);
                }
                for i in 1..NK - 1 {
                    aes_round(b, splat_key_at(rk, i));
                }
                let k = splat_key_at(rk, NK - 1);
                for b in b.iter_mut() {
                    *b = aes_last(*b, k);
                }
            }

            /// Reads the group at `offset`, XORs the keystream, writes it.
            #[inline]
            fn xor_group<const N: usize>(data: &mut InOut<'_>, offset: usize, ks: &[Reg; N]) {
                let input = data.input_regs::<RB, N>(offset);
                let c: [Reg; N] = core::array::from_fn(|i| xor(load_reg(&input[i]), ks[i]));
                for (out, c) in data.output_regs::<RB, N>(offset).iter_mut().zip(c) {
                    store_reg(out, c);
                }
            }

            /// A group of hash-ready blocks added to the state. The state's
            /// reduction enters with the first register.
            #[inline]
            fn hash_group<const N: usize>(s: &HashState, x: &[Reg; N], pw: &Powers<BIG>) -> HashState {
                const { assert!(N <= BIG) };
                let acc = state_finish(*s);
                let mut w = wide_zero();
                for i in (1..N).rev() {
                    mul_acc_k(&mut w, x[i], pw.p[BIG - N + i], pw.k[BIG - N + i]);
                }
                mul_acc_k(&mut w, xor(x[0], widen(acc)), pw.p[BIG - N], pw.k[BIG - N]);
                state_after(w)
            }

            /// One group of bytes added to the hash state.
            #[inline]
            fn hash_bytes<const GCM: bool, const N: usize>(
                s: &HashState,
                bytes: &[[u8; RB]; N],
                pw: &Powers<BIG>,
            ) -> HashState {
                let x: [Reg; N] = core::array::from_fn(|i| for_hash_reg::<GCM>(load_reg(&bytes[i])));
                hash_group(s, &x, pw)
            }

            /// AES round `ROUND` (if the key has it before its last) and the
            /// hash unit after it (`ctr::unit_after`). A function per round, so that
            /// every round and unit is laid out in line with constant indices.
            #[inline]
            fn stitch_round<B, const NK: usize, const GCM: bool, const N: usize, const ROUND: usize>(
                st: &mut Stitch<N>,
                rk: &[B; NK],
                x: &[[u8; RB]; N],
                s: &HashState,
                pw: &Powers<BIG>,
            ) {
                if ROUND >= NK - 1 {
                    return;
                }
                let unit = const { super::ctr::unit_after(ROUND, NK, N) };
                // The unit's data is loaded before the round; it and the sum go
                // through the round's `asm!` block (see `aes_round_pinned`).
                let data = match unit {
                    Some(u) if u > 0 => load_reg(&x[N - u]),
                    _ => st.b[0],
                };
                let mut pin = [data, st.w.lo, st.w.mid, st.w.hi];
                aes_round_pinned(&mut st.b, splat_key_at(rk, ROUND), &mut pin);
                let [data, lo, mid, hi] = pin;
                st.w = Wide { lo, mid, hi };
                match unit {
                    None => {}
                    Some(0) => st.acc = state_finish(*s),
                    Some(unit) => {
                        let i = N - unit;
                        let xi = for_hash_reg::<GCM>(data);
                        let xi = if i == 0 { xor(xi, widen(st.acc)) } else { xi };
                        mul_acc_k(&mut st.w, xi, pw.p[BIG - N + i], pw.k[BIG - N + i]);
                    }
                }
            }

            /// The CTR encryption of the group at `offset` (from the counter
            /// blocks `b`) with, spread over its AES rounds, the hash of the
            /// group at `hash_at` (of the output as written if `OUTPUT`, else of
            /// the input): the state's reduction first, then one register's
            /// multiplies per round, each loaded where it is used, the one that
            /// takes the reduced state last. The last round XORs the input into
            /// its round key. Returns the new (unreduced) state.
            #[inline]
            #[allow(clippy::too_many_arguments)]
            fn aes_hash_group<B, const NK: usize, const GCM: bool, const OUTPUT: bool, const N: usize>(
                rk: &[B; NK],
                mut b: [Reg; N],
                data: &mut InOut<'_>,
                offset: usize,
                hash_at: usize,
                s: &HashState,
                pw: &Powers<BIG>,
            ) -> HashState {
                const {
                    assert!(NK == 11 || NK == 15);
                    // Every unit has a round: the last follows round NK − 2.
                    assert!(NK - 2 > N);
                };
                let x = if OUTPUT {
                    data.written_regs::<RB, N>(hash_at)
                } else {
                    data.input_regs::<RB, N>(hash_at)
                };
                let k = splat_key_at(rk, 0);
                for b in b.iter_mut() {
                    *b = xor(*b, k);
                }
                let mut st = Stitch { b, acc: _mm_setzero_si128(), w: wide_zero() };
                stitch_round::<_, NK, GCM, N, 1>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 2>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 3>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 4>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 5>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 6>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 7>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 8>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 9>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 10>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 11>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 12>(&mut st, rk, x, s, pw);
                stitch_round::<_, NK, GCM, N, 13>(&mut st, rk, x, s, pw);
                let input = data.input_regs::<RB, N>(offset);
                let k = splat_key_at(rk, NK - 1);
                let c: [Reg; N] = core::array::from_fn(|i| aes_last(st.b[i], xor(k, load_reg(&input[i]))));
                for (out, c) in data.output_regs::<RB, N>(offset).iter_mut().zip(c) {
                    store_reg(out, c);
                }
                state_after(st.w)
            }

            /// CTR over the whole `N`-register groups from `start`, hashing each
            /// group's output during the AES of the next group (reading it back
            /// from the output), and the last group's after the loop. (Two groups
            /// behind measured the same for long messages and slower for short
            /// ones, which have fewer groups to stitch.)
            #[inline]
            fn wide_hash_output<B, const NK: usize, const GCM: bool, const N: usize>(
                rk: &[B; NK],
                pw: &Powers<BIG>,
                ctr: &mut __m128i,
                s: &mut HashState,
                data: &mut InOut<'_>,
                start: usize,
            ) {
                let group = RB * N;
                let end = groups_end::<N>(data.len(), start);
                // The counter in a local, so it stays in a register.
                let mut next = *ctr;
                let mut offset = start;
                while offset < end {
                    let ctrs = counters_group::<GCM, N>(&mut next);
                    if offset == start {
                        let mut ks = ctrs;
                        encrypt_regs(rk, &mut ks);
                        xor_group(data, offset, &ks);
                    } else {
                        *s = aes_hash_group::<_, NK, GCM, true, N>(rk, ctrs, data, offset, offset - group, s, pw);
                    }
                    offset += group;
                }
                if end > start {
                    *s = hash_bytes::<GCM, N>(s, data.written_regs::<RB, N>(end - group), pw);
                }
                *ctr = next;
            }

            /// CTR over the whole `N`-register groups from `start`, hashing each
            /// group's input during its own AES. Updates `ctr` and `s`; the
            /// caller knows where it stopped (`groups_end`).
            #[inline]
            fn wide_hash_input<B, const NK: usize, const GCM: bool, const N: usize>(
                rk: &[B; NK],
                pw: &Powers<BIG>,
                ctr: &mut __m128i,
                s: &mut HashState,
                data: &mut InOut<'_>,
                start: usize,
            ) {
                let group = RB * N;
                let end = groups_end::<N>(data.len(), start);
                // The counter in a local, so it stays in a register.
                let mut next = *ctr;
                let mut offset = start;
                while offset < end {
                    let ctrs = counters_group::<GCM, N>(&mut next);
                    *s = aes_hash_group::<_, NK, GCM, false, N>(rk, ctrs, data, offset, offset, s, pw);
                    offset += group;
                }
                *ctr = next;
            }

            /// CTR over the whole `N`-register groups from `start`, no hash.
            /// Updates `ctr`; the caller knows where it stopped (`groups_end`).
            #[inline]
            fn wide_ctr_only<B, const NK: usize, const GCM: bool, const N: usize>(
                rk: &[B; NK],
                ctr: &mut __m128i,
                data: &mut InOut<'_>,
                start: usize,
            ) {
                let group = RB * N;
                let end = groups_end::<N>(data.len(), start);
                // The counter in a local, so it stays in a register.
                let mut next = *ctr;
                // Broadcast copies of the round keys, read by `splat_key` like the
                // key schedule itself: measured, a CTR-only pass that reads the
                // GCM-SIV message keys (just derived, on the caller's stack) at
                // every round runs at half speed on Zen 5, from these at full.
                let mut wide: [Key; NK] = core::array::from_fn(|i| splat_key(&rk[i]));
                let mut offset = start;
                while offset < end {
                    let mut ks = counters_group::<GCM, N>(&mut next);
                    encrypt_regs(&wide, &mut ks);
                    xor_group(data, offset, &ks);
                    offset += group;
                }
                wide.zeroize();
                *ctr = next;
            }

            /// The hash of the input's whole `N`-register groups from `start`,
            /// into `s`; the caller knows where it stopped (`groups_end`).
            #[inline]
            fn wide_hash<const GCM: bool, const N: usize>(
                s: &mut HashState,
                data: &InOut<'_>,
                pw: &Powers<BIG>,
                start: usize,
            ) {
                let group = RB * N;
                let end = groups_end::<N>(data.len(), start);
                let mut offset = start;
                while offset < end {
                    *s = hash_bytes::<GCM, N>(s, data.input_regs::<RB, N>(offset), pw);
                    offset += group;
                }
            }

            /// Where the whole `N`-register groups of `len` bytes from `start`
            /// end. The loops stop there, and their callers compute it too
            /// rather than take it from them: lengths stay visibly public for
            /// `scripts/ct-check.sh` when a loop is not inlined.
            #[inline]
            fn groups_end<const N: usize>(len: usize, start: usize) -> usize {
                let group = RB * N;
                start + (len - start) / group * group
            }

            /// Whether a message of `len` bytes takes the big groups.
            #[inline]
            fn big(len: usize) -> bool {
                len >= BIG_FROM
            }

            /// GCM encryption (contract: `gcm_aesni::seal`).
            pub(crate) fn seal<const NK: usize>(
                token: $token,
                keys: &RoundKeys<NK>,
                h_powers: &HPowers,
                j0: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                len_block: u128,
            ) -> Block {
                gcm::<NK, true>(token, keys, h_powers, j0, aad, data, len_block)
            }

            /// GCM decryption (contract: `gcm_aesni::open`).
            pub(crate) fn open<const NK: usize>(
                token: $token,
                keys: &RoundKeys<NK>,
                h_powers: &HPowers,
                j0: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                len_block: u128,
            ) -> Block {
                gcm::<NK, false>(token, keys, h_powers, j0, aad, data, len_block)
            }

            /// [`seal`] (`SEAL`) or [`open`]: the whole groups on this tier (seal
            /// hashes the output, open the input), the rest on the AES-NI pieces.
            #[inline]
            fn gcm<const NK: usize, const SEAL: bool>(
                token: $token,
                keys: &RoundKeys<NK>,
                h_powers: &HPowers,
                j0: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                len_block: u128,
            ) -> Block {
                if data.len() <= GCM_SHORT_MAX {
                    return gcm_short::<NK, SEAL>(token, keys, h_powers, j0, aad, data, len_block);
                }
                let mut s = gcm_aesni::state_new(keys, h_powers, j0, aad);
                let (mut st, mut done) = (state_from(s.acc), 0);
                let big = big(data.len());
                let mut pw = group_powers(&h_powers.0, big);
                let rk = &keys.0;
                if SEAL {
                    if big {
                        wide_hash_output::<_, NK, true, BIG>(rk, &pw, &mut s.ctr, &mut st, data, done);

                        done = groups_end::<BIG>(data.len(), done);
                    }
                    wide_hash_output::<_, NK, true, SMALL>(rk, &pw, &mut s.ctr, &mut st, data, done);

                    done = groups_end::<SMALL>(data.len(), done);
                } else {
                    if big {
                        wide_hash_input::<_, NK, true, BIG>(rk, &pw, &mut s.ctr, &mut st, data, done);

                        done = groups_end::<BIG>(data.len(), done);
                    }
                    wide_hash_input::<_, NK, true, SMALL>(rk, &pw, &mut s.ctr, &mut st, data, done);

                    done = groups_end::<SMALL>(data.len(), done);
                }
                pw.zeroize();
                s.acc = state_finish(st);
                // The extended powers (wiped above) are the one copy of key
                // state this call made on its stack: round keys are broadcast
                // from the key where they are used (`splat_key`).
                if SEAL {
                    gcm_aesni::seal_from(&mut s, data, done, len_block)
                } else {
                    gcm_aesni::open_from(&mut s, data, done, len_block)
                }
            }

            /// GCM-SIV of a message `siv::one_group` takes (seal if `SEAL`, else
            /// open with the received `tag`), compiled for this tier: with its
            /// VEX encodings and, on AVX-512, 32 vector registers, the 15 round
            /// keys, 8 blocks and 8 powers spill far less than in the AES-NI
            /// build. Not inlined into the entry points (their group loops
            /// need the registers).
            #[inline(never)]
            #[allow(clippy::too_many_arguments)]
            fn siv_one_group<const NK: usize, const SEAL: bool>(
                _token: $token,
                keys: &RoundKeys<NK>,
                nonce: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                tag: u128,
                len_block: u128,
            ) -> Block {
                siv::one_group::<NK, SEAL>(keys, nonce, aad, data, tag, len_block)
            }

            /// GCM-SIV encryption (contract: `siv::seal`): the POLYVAL pass, then CTR.
            pub(crate) fn siv_seal<const NK: usize>(
                token: $token,
                keys: &RoundKeys<NK>,
                nonce: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                len_block: u128,
            ) -> Block {
                if siv::is_one_group(aad, data) {
                    return siv_one_group::<NK, true>(token, keys, nonce, aad, data, 0, len_block);
                }
                let mut s = siv::state_new(keys, nonce, aad, data.len());
                if data.len() < RB * SMALL {
                    let tag = siv::hash_from(&mut s, data, 0, len_block);
                    siv::seal_from(&mut s, data, 0);
                    return byte_store(tag);
                }
                let (mut st, mut done) = (state_from(s.acc), 0);
                let big = big(data.len());
                let mut pw = group_powers(&s.h, big);
                if big {
                    wide_hash::<false, BIG>(&mut st, data, &pw, done);

                    done = groups_end::<BIG>(data.len(), done);
                }
                wide_hash::<false, SMALL>(&mut st, data, &pw, done);

                done = groups_end::<SMALL>(data.len(), done);
                pw.zeroize();
                s.acc = state_finish(st);
                let tag = siv::hash_from(&mut s, data, done, len_block);
                let mut done = 0;
                if big {
                    wide_ctr_only::<_, NK, false, BIG>(&s.enc, &mut s.ctr, data, done);

                    done = groups_end::<BIG>(data.len(), done);
                }
                wide_ctr_only::<_, NK, false, SMALL>(&s.enc, &mut s.ctr, data, done);

                done = groups_end::<SMALL>(data.len(), done);
                siv::seal_from(&mut s, data, done);
                byte_store(tag)
            }

            /// GCM-SIV decryption (contract: `siv::open`): one stitched pass.
            #[allow(clippy::too_many_arguments)]
            pub(crate) fn siv_open<const NK: usize>(
                token: $token,
                keys: &RoundKeys<NK>,
                nonce: u128,
                aad: &[u8],
                data: &mut InOut<'_>,
                tag: u128,
                len_block: u128,
            ) -> Block {
                if siv::is_one_group(aad, data) {
                    return siv_one_group::<NK, false>(token, keys, nonce, aad, data, tag, len_block);
                }
                let mut s = siv::state_new(keys, nonce, aad, data.len());
                s.ctr = siv::initial_counter_from(tag);
                let mut done = 0;
                if data.len() >= RB * SMALL {
                    let mut st = state_from(s.acc);
                    let big = big(data.len());
                    let mut pw = group_powers(&s.h, big);
                    if big {
                        wide_hash_output::<_, NK, false, BIG>(&s.enc, &pw, &mut s.ctr, &mut st, data, done);

                        done = groups_end::<BIG>(data.len(), done);
                    }
                    wide_hash_output::<_, NK, false, SMALL>(&s.enc, &pw, &mut s.ctr, &mut st, data, done);

                    done = groups_end::<SMALL>(data.len(), done);
                    pw.zeroize();
                    s.acc = state_finish(st);
                }
                byte_store(siv::open_from(&mut s, data, done, len_block))
            }

            /// A register as a block.
            #[inline]
            fn byte_store(v: __m128i) -> Block {
                super::store(v)
            }
        }

        #[cfg(test)]
        mod engine_tests {
            use super::*;
            use crate::model;
            use core::arch::x86_64::_mm_setzero_si128;

            #[test]
            fn group_powers_match_the_model() {
                let Ok(_t) = $token::detect() else {
                    // Straight to the process's stderr: the test harness would
                    // swallow `eprintln!` for a passing test, and a skip must show.
                    let _ = std::io::Write::write_all(
                        &mut std::io::stderr(),
                        concat!("skipped: this CPU has no ", stringify!($token), " tier\n").as_bytes(),
                    );
                    return;
                };
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
                        *x = super::super::load(&expected[i]);
                    }
                    let mut regs = [[0u8; RB]; BIG];
                    let powers = group_powers(&h, true);
                    for (p, k) in powers.p.iter().zip(&powers.k) {
                        // Karatsuba's factor: the halves of each lane's power XORed.
                        let mut pb = [0u8; 64];
                        let mut kb = [0u8; 64];
                        core::ptr::copy_nonoverlapping(core::ptr::from_ref(p).cast::<u8>(), pb.as_mut_ptr(), size_of_val(p));
                        core::ptr::copy_nonoverlapping(core::ptr::from_ref(k).cast::<u8>(), kb.as_mut_ptr(), size_of_val(k));
                        for lane in 0..size_of_val(p) / 16 {
                            for byte in 0..8 {
                                assert_eq!(kb[16 * lane + byte], pb[16 * lane + byte] ^ pb[16 * lane + 8 + byte]);
                            }
                        }
                    }
                    for (r, p) in regs.iter_mut().zip(&powers.p) {
                        store_reg(r, *p);
                    }
                    core::mem::transmute::<[[u8; RB]; BIG], [[u8; 16]; BLOCKS]>(regs)
                };
                for i in 0..BLOCKS {
                    assert_eq!(got[i], expected[BLOCKS - 1 - i], "block {i} should be H^{}", BLOCKS - i);
                }
            }

            #[test]
            fn group_counters_match_the_128_bit_ones_across_carries() {
                let Ok(_t) = $token::detect() else {
                    // Straight to the process's stderr: the test harness would
                    // swallow `eprintln!` for a passing test, and a skip must show.
                    let _ = std::io::Write::write_all(
                        &mut std::io::stderr(),
                        concat!("skipped: this CPU has no ", stringify!($token), " tier\n").as_bytes(),
                    );
                    return;
                };
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
                            let x = super::super::load(&j);
                            let c = if gcm {
                                super::super::clmul::byte_reverse(x)
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
                                super::super::store_blocks(&super::super::ctr::counter_blocks::<true, BLOCKS>(
                                    &mut c2,
                                ))
                            } else {
                                super::super::store_blocks(&super::super::ctr::counter_blocks::<false, BLOCKS>(
                                    &mut c2,
                                ))
                            };
                            assert_eq!(
                                super::super::store(c1),
                                super::super::store(c2),
                                "next counter, start {start:#x}"
                            );
                            (bytes, narrow)
                        };
                        assert_eq!(wide, narrow, "start {start:#x}, gcm {gcm}");
                    }
                }
            }
        }
    };
}
