//! The stitched engine: counter mode with the universal hash (GHASH as
//! POLYVAL, or POLYVAL) spread over the AES rounds, written once and compiled
//! once per tier: `ctr.rs` (AES-NI: a register is one xmm block),
//! `vaes_avx2.rs` (ymm, two blocks), `vaes_avx512.rs` (zmm, four).
//! Each of those files mounts this one as its `engine` module
//! (`#[path = "engine.rs"] mod engine;`), so every function here is compiled
//! inside that tier's `#[target_feature]` list (`tier!`) and inlined into
//! the tier's entry points exactly as code written there would be.
//!
//! The tier supplies its register-level pieces by these names (the `use
//! super::{..}` below is the whole interface; a missing or mistyped one is a
//! compile error at that line):
//!
//! | name | what |
//! |---|---|
//! | `tier` | the tier's feature macro (`crate::cpu::x86_64`): stamps `#[target_feature]` |
//! | `Reg`, `Key`, `RB` | a register of blocks, a round key in every lane, the bytes of a register |
//! | `BIG` | registers per group in the main loop; `Powers<BIG>` holds their multipliers |
//! | `PEEL_FIRST` | whether [`hash_output`] runs its first group before its loop or as a branch in it |
//! | `load_reg`, `store_reg`, `xor`, `widen`, `for_hash_reg` | data in and out of registers |
//! | `counters_group`, `aes_round`, `aes_round_pinned`, `aes_last`, `broadcast_block` | counter blocks, AES rounds of a group (given the round key's address: the VAES tiers broadcast it inside the round's `asm!` block), a round key in every lane |
//! | `ctr_keys`, `wipe_ctr_keys` | the round keys a CTR-only pass reads, and their wiping after it |
//! | `Unreduced`, `unreduced_zero`, `mul_acc`, `mul_acc_in_pairs`, `sum_done` | unreduced sums of lane-wise products, `MULS` multiplies each (below); in the stitched rounds, two registers' products added at once where the tier can (AVX-512, four multiplies: one three-way XOR for both low halves, one for both high) |
//! | `sum_value` | the reduced value of an unreduced sum, lanes added |
//!
//! # Why the loops look like this
//!
//! On the CPU these loops were tuned on (AMD Zen 5: `perf stat`, and
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
//!   round ([`unit_after`]), and pinned there (`aes_round_pinned`): left
//!   alone, LLVM hoists every multiply of a group above its first round,
//!   and the two units take turns instead of working together;
//! - the group's sum is reduced at the start of the next group, whose last
//!   multiply takes it: the reduction's latency is hidden under AES rounds.
//!
//! `MULS`, the multiplies per lane-wise product, is a parameter of the
//! hashing functions: 3 (Karatsuba, the powers' `k` holding the middle
//! factors) wherever `vpclmulqdq` issues once every two cycles (AMD: Zen 3
//! to 5), 4 (schoolbook; `k` unused) on the AVX-512 tier where it issues
//! every cycle on the port the shuffles use (Intel: Karatsuba trades one
//! multiply for a shuffle and an XOR there, a loss). `vaes.rs` picks it per
//! CPU for GCM; every other caller passes 3.
//!
//! A group of `N` registers (`N` ≤ `BIG`) uses the last `N` registers of the
//! powers, so the VAES tiers run short messages (and what the big groups
//! leave) through groups of four with the same code; the AES-NI tier's
//! groups are always eight blocks.

use core::arch::x86_64::{__m128i, _mm_setzero_si128, _mm_xor_si128};

use zeroize::Zeroize;

use super::{
    BIG, Key, PEEL_FIRST, RB, Reg, Unreduced, aes_last, aes_round, aes_round_pinned,
    broadcast_block, counters_group, ctr_keys, for_hash_reg, load_reg, mul_acc, mul_acc_in_pairs,
    store_reg, sum_done, sum_value, tier, unreduced_zero, widen, wipe_ctr_keys, xor,
};
use crate::inout::InOut;

/// The hash work done after AES round `round` of a stitched group of `n`
/// registers, as a unit number: 0 reduces the state, u in 1..n multiplies
/// register n − u, n multiplies register 0 with the reduced state added.
/// Unit u follows round 1 + ⌊u·(nk − 2)/(n + 1)⌋: spread evenly over the
/// rounds, at most one per round (there are at least as many rounds as
/// units), none after the last full round.
const fn unit_after(round: usize, nk: usize, n: usize) -> Option<usize> {
    let mut unit = 0;
    while unit <= n {
        if 1 + unit * (nk - 2) / (n + 1) == round {
            return Some(unit);
        }
        unit += 1;
    }
    None
}

/// The hash between groups: the last group's unreduced sum `w` (reduced
/// by the next group, whose last multiply takes it) plus a reduced
/// value `acc` (the hash before the first group; zero after it). No
/// variants: the loops never branch on the state.
#[derive(Clone, Copy)]
pub(super) struct HashState {
    w: Unreduced,
    acc: __m128i,
}

/// The multipliers of a group of `N` registers: register i, lane j of
/// `p` holds H^(L·(N − i) − j) for L blocks per register (block L·i + j
/// of a group is multiplied by it); `k` holds, in the low half of each
/// lane, the XOR of that power's halves (Karatsuba's middle factor).
/// The last registers of a big group's powers are a small group's:
/// a group of `N` registers uses registers `BIG − N..BIG`.
pub(super) struct Powers<const N: usize> {
    pub(super) p: [Reg; N],
    pub(super) k: [Reg; N],
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
    w: Unreduced,
    /// The low and high products of an odd unit's register, held for the
    /// next unit to add with its own (`mul_acc_in_pairs`).
    held: Unreduced,
}

tier! {
    /// The state of a hash whose value so far is `acc`.
    #[inline]
    pub(super) fn state_from(acc: __m128i) -> HashState {
        HashState { w: unreduced_zero(), acc }
    }

    /// The value of a hash state.
    #[inline]
    pub(super) fn state_finish(s: HashState) -> __m128i {
        _mm_xor_si128(sum_value(s.w), s.acc)
    }

    /// The state after a group whose sum is `w` (of `MULS`-multiply products).
    #[inline]
    fn state_after<const MULS: usize>(w: Unreduced) -> HashState {
        HashState { w: sum_done::<MULS>(w), acc: _mm_setzero_si128() }
    }
    /// Round key `i`, broadcast (`broadcast_block`).
    #[inline]
    fn broadcast_round_key<B, const ROUND_KEYS: usize>(rk: &[B; ROUND_KEYS], i: usize) -> Key {
        broadcast_block(&rk[i])
    }

    /// Encrypts a group of counter blocks in place.
    #[inline]
    fn encrypt_regs<B, const ROUND_KEYS: usize, const N: usize>(
        rk: &[B; ROUND_KEYS],
        b: &mut [Reg; N],
    ) {
        let k = broadcast_round_key(rk, 0);
        for b in b.iter_mut() {
            *b = xor(*b, k);
        }
        for k in &rk[1..ROUND_KEYS - 1] {
            aes_round(b, k);
        }
        let k = broadcast_round_key(rk, ROUND_KEYS - 1);
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
    fn hash_group<const MULS: usize, const N: usize>(s: &HashState, x: &[Reg; N], pw: &Powers<BIG>) -> HashState {
        const { assert!(N <= BIG) };
        let acc = state_finish(*s);
        let mut w = unreduced_zero();
        for i in (1..N).rev() {
            mul_acc::<MULS>(&mut w, x[i], pw.p[BIG - N + i], pw.k[BIG - N + i]);
        }
        mul_acc::<MULS>(&mut w, xor(x[0], widen(acc)), pw.p[BIG - N], pw.k[BIG - N]);
        state_after::<MULS>(w)
    }

    /// One group of bytes added to the hash state.
    #[inline]
    pub(super) fn hash_bytes<const GCM: bool, const MULS: usize, const N: usize>(
        s: &HashState,
        bytes: &[[u8; RB]; N],
        pw: &Powers<BIG>,
    ) -> HashState {
        let x: [Reg; N] = core::array::from_fn(|i| for_hash_reg::<GCM>(load_reg(&bytes[i])));
        hash_group::<MULS, N>(s, &x, pw)
    }

    /// AES round `ROUND` (if the key has it before its last) and the
    /// hash unit after it ([`unit_after`]). A function per round, so that
    /// every round and unit is laid out in line with constant indices.
    #[inline]
    fn stitch_round<
        B,
        const ROUND_KEYS: usize,
        const GCM: bool,
        const MULS: usize,
        const N: usize,
        const ROUND: usize,
    >(
        st: &mut Stitch<N>,
        rk: &[B; ROUND_KEYS],
        x: &[[u8; RB]; N],
        s: &HashState,
        pw: &Powers<BIG>,
    ) {
        if ROUND >= ROUND_KEYS - 1 {
            return;
        }
        let unit = const { unit_after(ROUND, ROUND_KEYS, N) };
        // The unit's data is loaded before the round; it and the sum go
        // through the round's `asm!` block (see `aes_round_pinned`).
        let data = match unit {
            Some(u) if u > 0 => load_reg(&x[N - u]),
            _ => st.b[0],
        };
        let mut pin = [data, st.w.lo, st.w.mid, st.w.hi];
        aes_round_pinned(&mut st.b, &rk[ROUND], &mut pin);
        let [data, lo, mid, hi] = pin;
        st.w = Unreduced { lo, mid, hi };
        match unit {
            None => {}
            Some(0) => st.acc = state_finish(*s),
            Some(unit) => {
                let i = N - unit;
                let xi = for_hash_reg::<GCM>(data);
                let xi = if i == 0 { xor(xi, widen(st.acc)) } else { xi };
                // Units pair up, 1 with 2, 3 with 4, ...: `N` is even.
                let first = unit % 2 == 1;
                mul_acc_in_pairs::<MULS>(&mut st.w, &mut st.held, first, xi, pw.p[BIG - N + i], pw.k[BIG - N + i]);
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
    fn aes_hash_group<
        B,
        const ROUND_KEYS: usize,
        const GCM: bool,
        const MULS: usize,
        const OUTPUT: bool,
        const N: usize,
    >(
        rk: &[B; ROUND_KEYS],
        mut b: [Reg; N],
        data: &mut InOut<'_>,
        offset: usize,
        hash_at: usize,
        s: &HashState,
        pw: &Powers<BIG>,
    ) -> HashState {
        const {
            assert!(ROUND_KEYS == 11 || ROUND_KEYS == 15);
            // The units' products pair up (`mul_acc_in_pairs`).
            assert!(N.is_multiple_of(2));
            // Every unit has a round: the last follows round ROUND_KEYS − 2.
            assert!(ROUND_KEYS - 2 > N);
        };
        let x = if OUTPUT {
            data.written_regs::<RB, N>(hash_at)
        } else {
            data.input_regs::<RB, N>(hash_at)
        };
        let k = broadcast_round_key(rk, 0);
        for b in b.iter_mut() {
            *b = xor(*b, k);
        }
        let mut st = Stitch { b, acc: _mm_setzero_si128(), w: unreduced_zero(), held: unreduced_zero() };
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 1>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 2>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 3>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 4>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 5>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 6>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 7>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 8>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 9>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 10>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 11>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 12>(&mut st, rk, x, s, pw);
        stitch_round::<_, ROUND_KEYS, GCM, MULS, N, 13>(&mut st, rk, x, s, pw);
        let input = data.input_regs::<RB, N>(offset);
        let k = broadcast_round_key(rk, ROUND_KEYS - 1);
        let c: [Reg; N] = core::array::from_fn(|i| aes_last(st.b[i], xor(k, load_reg(&input[i]))));
        for (out, c) in data.output_regs::<RB, N>(offset).iter_mut().zip(c) {
            store_reg(out, c);
        }
        state_after::<MULS>(st.w)
    }

    /// CTR over the whole `N`-register groups from `start`, hashing each
    /// group's output during the AES of the next group (reading it back
    /// from the output), and the last group's after the loop. (Two groups
    /// behind measured the same for long messages and slower for short
    /// ones, which have fewer groups to stitch.)
    #[inline]
    pub(super) fn hash_output<B, const ROUND_KEYS: usize, const GCM: bool, const MULS: usize, const N: usize>(
        rk: &[B; ROUND_KEYS],
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
        // The first group has nothing before it to hash: CTR alone, before
        // the loop or as a branch in it (`PEEL_FIRST`).
        if PEEL_FIRST && offset < end {
            let mut ks = counters_group::<GCM, N>(&mut next);
            encrypt_regs(rk, &mut ks);
            xor_group(data, offset, &ks);
            offset += group;
        }
        while offset < end {
            let ctrs = counters_group::<GCM, N>(&mut next);
            if !PEEL_FIRST && offset == start {
                let mut ks = ctrs;
                encrypt_regs(rk, &mut ks);
                xor_group(data, offset, &ks);
            } else {
                *s = aes_hash_group::<_, ROUND_KEYS, GCM, MULS, true, N>(rk, ctrs, data, offset, offset - group, s, pw);
            }
            offset += group;
        }
        if end > start {
            *s = hash_bytes::<GCM, MULS, N>(s, data.written_regs::<RB, N>(end - group), pw);
        }
        *ctr = next;
    }

    /// CTR over the whole `N`-register groups from `start`, hashing each
    /// group's input during its own AES. Updates `ctr` and `s`; the
    /// caller knows where it stopped (`groups_end`).
    #[inline]
    pub(super) fn hash_input<B, const ROUND_KEYS: usize, const GCM: bool, const MULS: usize, const N: usize>(
        rk: &[B; ROUND_KEYS],
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
            *s = aes_hash_group::<_, ROUND_KEYS, GCM, MULS, false, N>(rk, ctrs, data, offset, offset, s, pw);
            offset += group;
        }
        *ctr = next;
    }

    /// CTR over the whole `N`-register groups from `start`, no hash.
    /// Updates `ctr`; the caller knows where it stopped (`groups_end`).
    #[inline]
    pub(super) fn ctr_only<B, const ROUND_KEYS: usize, const GCM: bool, const N: usize>(
        rk: &[B; ROUND_KEYS],
        ctr: &mut __m128i,
        data: &mut InOut<'_>,
        start: usize,
    ) {
        let group = RB * N;
        let end = groups_end::<N>(data.len(), start);
        // The counter in a local, so it stays in a register.
        let mut next = *ctr;
        // The tier's copy of the round keys for this pass (`ctr_keys`),
        // wiped after it.
        let mut keys = ctr_keys(rk);
        let mut offset = start;
        while offset < end {
            let mut ks = counters_group::<GCM, N>(&mut next);
            encrypt_regs(&keys, &mut ks);
            xor_group(data, offset, &ks);
            offset += group;
        }
        wipe_ctr_keys(&mut keys);
        *ctr = next;
    }

    /// Where the whole `N`-register groups of `len` bytes from `start`
    /// end. The loops stop there, and their callers compute it too
    /// rather than take it from them: lengths stay visibly public for
    /// `scripts/ct-check.sh` when a loop is not inlined.
    #[inline]
    pub(super) fn groups_end<const N: usize>(len: usize, start: usize) -> usize {
        let group = RB * N;
        start + (len - start) / group * group
    }
}
