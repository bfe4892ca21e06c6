//! The stitched engine: counter mode with the universal hash (GHASH as
//! POLYVAL, or POLYVAL) spread over the AES rounds, written once as generic
//! code over [`Pieces`], the contract each x86 tier's feature token fulfils:
//! `aesni/ctr.rs` (AES-NI: a register is one xmm block), `vaes/avx2.rs`
//! (ymm, two blocks), `vaes/avx512.rs` (zmm, four).
//!
//! Every function here that touches registers is `#[inline(always)]` and
//! takes the tier's token (`t: T`, or `self` in [`Pieces`]'s default
//! methods). The rest do arithmetic on sizes and indices: [`unit_after`]
//! and [`unit_round`] are `const fn`s, evaluated at compile time;
//! [`loop_powers`] (a copy or a reference) and [`groups_end`] (a length)
//! are `#[inline(always)]` but take no token; `Powers`'s `zeroize` is a
//! plain method, without either.
//!
//! A generic function cannot carry a tier's `#[target_feature]` list, so
//! none here has one: each is compiled inside the `#[target_feature]`
//! function of the tier that calls it, where LLVM also inlines the tier's
//! pieces (each itself a `#[target_feature]` function, called through the
//! trait; the token is the proof that makes those calls sound).
//!
//! The trait is the whole interface of the algorithm: its register type
//! and the register-level pieces (data in and out of registers, counter
//! blocks, AES rounds, lane-wise products). How the loops are laid out
//! (whether [`hash_output`] peels its first group, whether the loops copy
//! the powers) is its supertrait [`LoopShape`]'s. A missing or mistyped
//! piece is a compile error in the tier's `impl`.
//!
//! Two habits of this file come from that: the loops copy what they read
//! in every group (the hash state, the input and output view, and, where
//! the tier has the registers for them, the powers) into locals first, and
//! nothing a group runs builds an array through a closure
//! (`core::array::from_fn`). rustc inlines the engine's functions into
//! their callers before LLVM sees them, and a reference's promise that
//! nothing else writes through it does not survive that: read through the
//! caller's references, the pointers of the view and, on AVX-512, the
//! powers went back to memory around every group's stores. A closure is a
//! function of its own, without the tier's features: with three of them
//! here, LLVM laid out the AES-NI tier's GCM-SIV open loop in 314
//! instructions instead of 267. Both measured with `scripts/ct-probe`'s
//! loops against the code before the trait (`kernel-counts.sh`, and the
//! loops' instructions and stack accesses in `objdump -d`).
//!
//! # Why the loops look like this
//!
//! On the CPU these loops were tuned on (AMD Zen 5: `perf stat`, and
//! loops of single instructions; docs/design.md, "The stitched loops
//! (`engine.rs`): what the CPU allows", and docs/benchmarks.md, "AMD Zen 5:
//! four shared pipes"), `vaesenc` of any width has a latency of four cycles
//! and two can start every cycle, while `vpclmulqdq` of any width starts
//! once every two cycles. So:
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
//!   multiply takes it: the reduction's latency is hidden under AES rounds;
//!   where the loop is bound by its count of instructions rather than its
//!   AES rounds (AES-128 on Intel), two groups share one reduction
//!   ([`hash_output_paired`], `ROLE`).
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

use core::arch::x86_64::{__m128i, _mm_setzero_si128};

use zeroize::Zeroize;

use super::KeyBlock;
use super::clmul::Unreduced;
use crate::inout::InOut;

/// Registers per group in the main loop, on every tier: eight independent
/// AES chains. `Powers<_, BIG>` holds their multipliers.
pub(super) const BIG: usize = 8;

/// A group's place in the hash (`ROLE`, a const parameter of the group
/// functions): hashed alone, its sum reduced by the next group.
pub(super) const ALONE: u8 = 0;
/// The first group of a pair ([`hash_output_paired`]): hashed with the
/// pair's high powers, its sum left for the second.
pub(super) const OPENS_PAIR: u8 = 1;
/// The second group of a pair: its products join the first's sum, and the
/// pair's sum is reduced by the next group, once for both.
pub(super) const CLOSES_PAIR: u8 = 2;

/// How the engine's loops are laid out for a tier: choices that change no
/// result, only the code LLVM makes of the loops, each the shape the tier's
/// loops were tuned in. Kept apart from [`Pieces`], which is the algorithm.
pub(super) trait LoopShape {
    /// How [`hash_output`] runs its first group (CTR alone): before the
    /// group loop (`true`) or as a branch inside it. The shape each tier's
    /// loop was tuned in: LLVM lays the loop out differently for each.
    const PEEL_FIRST: bool;

    /// Whether the loops read the powers from a copy of their own
    /// ([`loop_powers`]): where the registers hold them, as AVX-512's 32
    /// do. Read through the caller's reference instead, each multiply
    /// loads its power as a memory operand, which is what 16 registers
    /// need: with a copy, LLVM keeps powers in registers across the group
    /// and spills the counter instead (AVX2 AES-256 seal, 343 → 347
    /// instructions a group, the counter stored and reloaded four times).
    const POWERS_IN_REGISTERS: bool;

    /// Whether [`hash_output`] keeps each group it wrote in registers for
    /// the next group's hash (`true`), or reads it back from the output.
    /// Read back, each register is a load of what a store wrote a group
    /// earlier, which made Zen 4's AVX-512 seals slower than its opens
    /// (docs/design.md, "Seal hashes what it wrote, held in registers");
    /// held, the group takes `N` registers across the loop, which
    /// AVX-512's 32 have room for and 16 do not.
    const HOLD_WRITTEN: bool;
}

/// What a stitched group hashes ([`aes_hash_group`]): the input or the
/// output as written at an offset, each register loaded where its unit
/// takes it, or registers the loop holds.
#[derive(Clone, Copy)]
enum Hashed<'r, R, const N: usize> {
    Input(usize),
    Written(usize),
    Held(&'r [R; N]),
}

/// [`Hashed`] resolved against the message: bytes to load, or registers.
#[derive(Clone, Copy)]
enum HashRegs<'a, R, const RB: usize, const N: usize> {
    Bytes(&'a [[u8; RB]; N]),
    Held(&'a [R; N]),
}

impl<R: Copy, const RB: usize, const N: usize> HashRegs<'_, R, RB, N> {
    /// Register `i`, loaded here if it is in memory.
    #[inline(always)]
    fn get<T: Pieces<RB, Reg = R>>(self, t: T, i: usize) -> R {
        match self {
            HashRegs::Bytes(b) => t.load_reg(&b[i]),
            HashRegs::Held(r) => r[i],
        }
    }
}

/// The contract between the engine and a tier: implemented by the tier's
/// feature token, whose registers hold `RB` bytes (16, 32 or 64). Each
/// method is one of the tier's pieces; the implementation calls the
/// tier's `#[target_feature]` function, which the token (`self`) makes
/// sound, and is `#[inline(always)]` so that the piece lands in the
/// caller's code, as the engine itself does.
///
/// # Safety
///
/// A value of the implementing type exists only where the CPU has SSE2
/// (every tier's token: each feature list has it): the engine's own block
/// operation ([`block_zero`]) relies on it.
pub(super) unsafe trait Pieces<const RB: usize>: Copy + LoopShape {
    /// A register of `RB / 16` blocks; a round key broadcast into every
    /// lane is one too.
    type Reg: Copy + Zeroize + KeyBlock;

    /// A register from its bytes.
    fn load_reg(self, bytes: &[u8; RB]) -> Self::Reg;
    /// A register into its bytes.
    fn store_reg(self, out: &mut [u8; RB], v: Self::Reg);
    /// Lane-wise XOR.
    fn xor(self, a: Self::Reg, b: Self::Reg) -> Self::Reg;
    /// A block in lane 0, zeros in the others.
    fn widen(self, x: __m128i) -> Self::Reg;
    /// Each block as the hash takes it: byte-reversed for GHASH (`GCM`),
    /// as it is for POLYVAL.
    fn for_hash_reg<const GCM: bool>(self, x: Self::Reg) -> Self::Reg;
    /// The next `N` registers of counter blocks from `ctr` (`aesni/ctr.rs`'s
    /// convention), and `ctr` advanced past them.
    fn counters_group<const GCM: bool, const N: usize>(self, ctr: &mut __m128i) -> [Self::Reg; N];
    /// [`counters_group`](Self::counters_group)'s blocks XORed with the
    /// round key `*k0` (AES's first step): the counter blocks every group
    /// loop encrypts.
    #[inline(always)]
    fn whitened_counters<B: KeyBlock, const GCM: bool, const N: usize>(
        self,
        ctr: &mut __m128i,
        k0: &B,
    ) -> [Self::Reg; N] {
        let mut c = self.counters_group::<GCM, N>(ctr);
        let k = self.broadcast_block(k0);
        for b in c.iter_mut() {
            *b = self.xor(*b, k);
        }
        c
    }
    /// The block `*k` (16 bytes: a round key or a hash power) in every lane.
    fn broadcast_block<B: KeyBlock>(self, k: &B) -> Self::Reg;
    /// One AES round on a group, with the round key at `k` (the VAES
    /// tiers broadcast it inside the round's `asm!` block).
    fn aes_round<B: KeyBlock, const N: usize>(self, b: &mut [Self::Reg; N], k: &B);
    /// [`aes_round`](Self::aes_round), passing the `P` registers of `pin`
    /// (1, 3 or 4: a unit's data, the sum's three parts, or both) through
    /// the same `asm!` block unchanged: what is computed from them stays
    /// after the round.
    fn aes_round_pinned<B: KeyBlock, const N: usize, const P: usize>(
        self,
        b: &mut [Self::Reg; N],
        k: &B,
        pin: &mut [Self::Reg; P],
    );
    /// The last AES round of one register.
    fn aes_last(self, b: Self::Reg, k: Self::Reg) -> Self::Reg;
    /// The round keys a CTR-only pass ([`ctr_only`]) reads: each broadcast
    /// once, before the pass, rather than at every round from the key
    /// schedule. Measured on the VAES tiers, a CTR-only pass that reads the
    /// GCM-SIV message keys (just derived, on the caller's stack) at every
    /// round runs at half speed on Zen 5, from these at full (docs/design.md,
    /// "AES-GCM-SIV (`aesni/siv.rs`, RFC 8452)"); on AES-NI a
    /// broadcast is a load, and the copies stay in registers. (A closure,
    /// once per pass, outside the loop: the same code as each tier's own
    /// copy of this made; filling the array in a loop instead cost each
    /// VAES GCM-SIV seal 180 instructions more.)
    #[inline(always)]
    fn ctr_keys<B: KeyBlock, const ROUND_KEYS: usize>(
        self,
        rk: &[B; ROUND_KEYS],
    ) -> [Self::Reg; ROUND_KEYS] {
        core::array::from_fn(|i| self.broadcast_block(&rk[i]))
    }
    /// Wipes what [`ctr_keys`](Self::ctr_keys) copied to memory, if anything.
    fn wipe_ctr_keys<const ROUND_KEYS: usize>(self, keys: &mut [Self::Reg; ROUND_KEYS]);
    /// The empty unreduced sum.
    fn unreduced_zero(self) -> Unreduced<Self::Reg>;
    /// `acc += a · b` lane by lane, unreduced, with `MULS` multiplies: 3
    /// (Karatsuba: `bk` holds `b`'s halves XORed) or 4 (schoolbook).
    fn mul_acc<const MULS: usize>(
        self,
        acc: &mut Unreduced<Self::Reg>,
        a: Self::Reg,
        b: Self::Reg,
        bk: Self::Reg,
    );
    /// [`mul_acc`](Self::mul_acc) for the stitched rounds, whose products
    /// come in pairs (`first` is the first of a pair): a tier may hold the
    /// first's products in `held` and add both at once. `group_held` says
    /// that the group hashed is itself in registers (`Hashed::Held`), for a
    /// tier that has no registers to spare for `held` then.
    /// Unless the tier says otherwise, each product is added on its own.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn mul_acc_in_pairs<const MULS: usize>(
        self,
        acc: &mut Unreduced<Self::Reg>,
        _held: &mut Unreduced<Self::Reg>,
        _first: bool,
        _group_held: bool,
        a: Self::Reg,
        b: Self::Reg,
        bk: Self::Reg,
    ) {
        self.mul_acc::<MULS>(acc, a, b, bk);
    }
    /// A sum of `MULS`-multiply products as an ordinary unreduced sum.
    fn sum_done<const MULS: usize>(self, w: Unreduced<Self::Reg>) -> Unreduced<Self::Reg>;
    /// The reduced value of an unreduced sum, its lanes added.
    fn sum_value(self, w: Unreduced<Self::Reg>) -> __m128i;
}

/// The hash work done after AES round `round` of a stitched group of `n`
/// registers, as a unit number: 0 reduces the state, u in 1..n multiplies
/// register n − u, n multiplies register 0 with the reduced state added.
/// Unit u follows round 1 + ⌊u·(nk − 2)/(n + 1)⌋: spread evenly over the
/// rounds, at most one per round (there are at least as many rounds as
/// units), none after the last full round.
const fn unit_after(round: usize, nk: usize, n: usize) -> Option<usize> {
    let mut unit = 0;
    while unit <= n {
        if unit_round(unit, nk, n) == round {
            return Some(unit);
        }
        unit += 1;
    }
    None
}

/// The round unit `unit` follows ([`unit_after`]).
const fn unit_round(unit: usize, nk: usize, n: usize) -> usize {
    1 + unit * (nk - 2) / (n + 1)
}

/// The hash between groups: the last group's unreduced sum `w`, reduced
/// by the next group (whose last multiply takes it) or by
/// [`state_finish`]. The hash before the first group, a reduced value,
/// starts as the high part of a sum whose other parts are zero
/// ([`state_from`]): reducing that gives the value back, so the loops
/// carry one thing, not a sum and a value that is zero after the first
/// group (which LLVM kept on the stack and XORed in every group). No
/// variants: the loops never branch on the state. Between the two groups
/// of a pair ([`OPENS_PAIR`]), `w` is the first group's sum as its
/// multiplies left it (with three multiplies, before `sum_done`), for the
/// second group alone to continue.
#[derive(Clone, Copy)]
pub(super) struct HashState<R> {
    w: Unreduced<R>,
}

/// The multipliers of a group of `N` registers of type `R`: register i,
/// lane j of `p` holds H^(L·(N − i) − j) for L blocks per register (block
/// L·i + j of a group is multiplied by it); `k` holds, in the low half of
/// each lane, the XOR of that power's halves (Karatsuba's middle factor).
/// The last registers of a big group's powers are a small group's:
/// a group of `N` registers uses registers `BIG − N..BIG`.
pub(super) struct Powers<R, const N: usize> {
    pub(super) p: [R; N],
    pub(super) k: [R; N],
}

impl<R: Zeroize, const N: usize> Zeroize for Powers<R, N> {
    fn zeroize(&mut self) {
        self.p.zeroize();
        self.k.zeroize();
    }
}

/// What `aes_hash_group` carries from round to round.
struct Stitch<R, const N: usize> {
    /// The AES states.
    b: [R; N],
    /// The reduced hash state (after unit 0).
    acc: __m128i,
    /// The group's sum so far.
    w: Unreduced<R>,
    /// The low and high products of an odd unit's register, held for the
    /// next unit to add with its own (`mul_acc_in_pairs`).
    held: Unreduced<R>,
}

/// The zero block.
#[inline(always)]
fn block_zero<T: Pieces<RB>, const RB: usize>(_t: T) -> __m128i {
    // SAFETY: `_t` proves SSE2 (`Pieces`'s safety contract).
    unsafe { _mm_setzero_si128() }
}

/// The powers a loop reads: a copy in the loop's own local where the tier
/// keeps them in registers (`POWERS_IN_REGISTERS`), else the caller's.
/// Through the caller's reference, LLVM reloads them in every group: the
/// group's stores to the output might, for all it can prove, have changed
/// them (the engine's functions are inlined by rustc before LLVM sees
/// them, and the reference's no-alias promise does not survive that). A
/// local whose address never leaves the loop's function cannot be one of
/// those stores' targets, so its registers are loaded once: on AVX-512 the
/// small open loop's 8 reloads a group go. Not wiped: like the spills of
/// the caller's powers (docs/security.md, "What is wiped, and what is
/// not": "Not wiped").
#[inline(always)]
pub(super) fn loop_powers<'a, T: Pieces<RB>, const RB: usize>(
    pw: &'a Powers<T::Reg, BIG>,
    copy: &'a mut Option<Powers<T::Reg, BIG>>,
) -> &'a Powers<T::Reg, BIG> {
    if T::POWERS_IN_REGISTERS {
        copy.insert(Powers { p: pw.p, k: pw.k })
    } else {
        pw
    }
}

/// The state of a hash whose value so far is `acc`: the sum with `acc`
/// as its high part, in the first lane. Every tier's reduction
/// (`clmul::reduce`, lane by lane on the wide tiers) folds the low and
/// middle parts into the high one and returns it, so with those zero it
/// returns `acc`, and the other lanes add nothing.
#[inline(always)]
pub(super) fn state_from<T: Pieces<RB>, const RB: usize>(t: T, acc: __m128i) -> HashState<T::Reg> {
    HashState {
        w: Unreduced {
            hi: t.widen(acc),
            ..t.unreduced_zero()
        },
    }
}

/// The value of a hash state.
#[inline(always)]
pub(super) fn state_finish<T: Pieces<RB>, const RB: usize>(t: T, s: HashState<T::Reg>) -> __m128i {
    t.sum_value(s.w)
}

/// The state after a group (in its `ROLE`) whose sum is `w` (of
/// `MULS`-multiply products): the sum as an ordinary unreduced sum, except
/// after a pair's first group, whose sum the second continues as it is.
#[inline(always)]
fn state_after<T: Pieces<RB>, const RB: usize, const MULS: usize, const ROLE: u8>(
    t: T,
    w: Unreduced<T::Reg>,
) -> HashState<T::Reg> {
    HashState {
        w: if ROLE == OPENS_PAIR {
            w
        } else {
            t.sum_done::<MULS>(w)
        },
    }
}

/// Encrypts a group of counter blocks in place, from their whitening on
/// ([`Pieces::whitened_counters`] made them with the first round key).
#[inline(always)]
fn encrypt_regs<
    T: Pieces<RB>,
    const RB: usize,
    B: KeyBlock,
    const ROUND_KEYS: usize,
    const N: usize,
>(
    t: T,
    rk: &[B; ROUND_KEYS],
    b: &mut [T::Reg; N],
) {
    for k in &rk[1..ROUND_KEYS - 1] {
        t.aes_round(b, k);
    }
    let k = t.broadcast_block(&rk[ROUND_KEYS - 1]);
    for b in b.iter_mut() {
        *b = t.aes_last(*b, k);
    }
}

/// Reads the group at `offset`, XORs the keystream, writes it; returns
/// it as written.
#[inline(always)]
fn xor_group<T: Pieces<RB>, const RB: usize, const N: usize>(
    t: T,
    data: &mut InOut<'_>,
    offset: usize,
    ks: &[T::Reg; N],
) -> [T::Reg; N] {
    let input = data.input_regs::<RB, N>(offset);
    let mut c = *ks;
    for (c, input) in c.iter_mut().zip(input) {
        *c = t.xor(t.load_reg(input), *c);
    }
    for (out, c) in data.output_regs::<RB, N>(offset).iter_mut().zip(c) {
        t.store_reg(out, c);
    }
    c
}

/// A group of hash-ready blocks added to the state, in its `ROLE`:
/// [`ALONE`] or [`OPENS_PAIR`], the state's reduction enters with the
/// first register; [`CLOSES_PAIR`], the group's products join the
/// unreduced sum the pair's first group left.
#[inline(always)]
fn hash_group<T: Pieces<RB>, const RB: usize, const MULS: usize, const N: usize, const ROLE: u8>(
    t: T,
    s: &HashState<T::Reg>,
    x: &[T::Reg; N],
    pw: &Powers<T::Reg, BIG>,
) -> HashState<T::Reg> {
    const { assert!(N <= BIG) };
    let (mut w, acc) = if ROLE == CLOSES_PAIR {
        (s.w, block_zero(t))
    } else {
        (t.unreduced_zero(), state_finish(t, *s))
    };
    for i in (1..N).rev() {
        t.mul_acc::<MULS>(&mut w, x[i], pw.p[BIG - N + i], pw.k[BIG - N + i]);
    }
    let first = t.xor(x[0], t.widen(acc));
    t.mul_acc::<MULS>(&mut w, first, pw.p[BIG - N], pw.k[BIG - N]);
    state_after::<T, RB, MULS, ROLE>(t, w)
}

/// A group of `N` registers read from `bytes`.
#[inline(always)]
pub(super) fn load_group<T: Pieces<RB>, const RB: usize, const N: usize>(
    t: T,
    bytes: &[[u8; RB]; N],
) -> [T::Reg; N] {
    core::array::from_fn(|i| t.load_reg(&bytes[i]))
}

/// One group of registers, as the message has them, added to the hash
/// state.
#[inline(always)]
pub(super) fn hash_regs<
    T: Pieces<RB>,
    const RB: usize,
    const GCM: bool,
    const MULS: usize,
    const N: usize,
    const ROLE: u8,
>(
    t: T,
    s: &HashState<T::Reg>,
    regs: &[T::Reg; N],
    pw: &Powers<T::Reg, BIG>,
) -> HashState<T::Reg> {
    let mut x = *regs;
    for x in x.iter_mut() {
        *x = t.for_hash_reg::<GCM>(*x);
    }
    hash_group::<T, RB, MULS, N, ROLE>(t, s, &x, pw)
}

/// AES round `ROUND` (if the key has it before its last) and the
/// hash unit after it ([`unit_after`]). A function per round, so that
/// every round and unit is laid out in line with constant indices.
#[inline(always)]
fn stitch_round<
    T: Pieces<RB>,
    const RB: usize,
    B: KeyBlock,
    const ROUND_KEYS: usize,
    const GCM: bool,
    const MULS: usize,
    const N: usize,
    const ROLE: u8,
    const ROUND: usize,
>(
    t: T,
    st: &mut Stitch<T::Reg, N>,
    rk: &[B; ROUND_KEYS],
    x: HashRegs<'_, T::Reg, RB, N>,
    s: &HashState<T::Reg>,
    pw: &Powers<T::Reg, BIG>,
) {
    if ROUND >= ROUND_KEYS - 1 {
        return;
    }
    let unit = const { unit_after(ROUND, ROUND_KEYS, N) };
    // A multiplying unit's data is loaded before the round; it and the sum
    // go through the round's `asm!` block (see `aes_round_pinned`). Until
    // the first multiply the sum is zero (but where the group continues a
    // pair's): not pinned, it stays a constant, and the first products
    // are its value rather than XORed into three zeroed registers.
    let sum_live = ROLE == CLOSES_PAIR || ROUND > const { unit_round(1, ROUND_KEYS, N) };
    let data = match unit {
        Some(u) if u > 0 => {
            let data = x.get(t, N - u);
            if sum_live {
                let mut pin = [data, st.w.lo, st.w.mid, st.w.hi];
                t.aes_round_pinned(&mut st.b, &rk[ROUND], &mut pin);
                let [data, lo, mid, hi] = pin;
                st.w = Unreduced { lo, mid, hi };
                data
            } else {
                let mut pin = [data];
                t.aes_round_pinned(&mut st.b, &rk[ROUND], &mut pin);
                pin[0]
            }
        }
        _ => {
            if sum_live {
                let mut pin = [st.w.lo, st.w.mid, st.w.hi];
                t.aes_round_pinned(&mut st.b, &rk[ROUND], &mut pin);
                let [lo, mid, hi] = pin;
                st.w = Unreduced { lo, mid, hi };
            } else {
                t.aes_round(&mut st.b, &rk[ROUND]);
            }
            st.b[0]
        }
    };
    match unit {
        None => {}
        // A pair's second group has no state to reduce: it continues
        // the first's sum.
        Some(0) if ROLE == CLOSES_PAIR => {}
        Some(0) => st.acc = state_finish(t, *s),
        Some(unit) => {
            let i = N - unit;
            let xi = t.for_hash_reg::<GCM>(data);
            let xi = if i == 0 {
                t.xor(xi, t.widen(st.acc))
            } else {
                xi
            };
            // Units pair up, 1 with 2, 3 with 4, ...: `N` is even.
            let first = unit % 2 == 1;
            let group_held = matches!(x, HashRegs::Held(_));
            let (p, k) = (pw.p[BIG - N + i], pw.k[BIG - N + i]);
            t.mul_acc_in_pairs::<MULS>(&mut st.w, &mut st.held, first, group_held, xi, p, k);
        }
    }
}

/// The CTR encryption of the group at `offset` (from the counter
/// blocks `b`, whitened: [`Pieces::whitened_counters`]) with, spread
/// over its AES rounds, the hash of the group `hashed` names: the
/// state's reduction first (none if the group
/// [`CLOSES_PAIR`]: it continues the state's sum), then one register's
/// multiplies per round, each loaded where it is used (if in memory),
/// the one that takes the reduced state last. The last round XORs the
/// input into its round key. Returns the new (unreduced) state and the
/// group as written.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn aes_hash_group<
    T: Pieces<RB>,
    const RB: usize,
    B: KeyBlock,
    const ROUND_KEYS: usize,
    const GCM: bool,
    const MULS: usize,
    const N: usize,
    const ROLE: u8,
>(
    t: T,
    rk: &[B; ROUND_KEYS],
    b: [T::Reg; N],
    data: &mut InOut<'_>,
    offset: usize,
    hashed: Hashed<'_, T::Reg, N>,
    s: &HashState<T::Reg>,
    pw: &Powers<T::Reg, BIG>,
) -> (HashState<T::Reg>, [T::Reg; N]) {
    const {
        assert!(ROUND_KEYS == 11 || ROUND_KEYS == 15);
        // The units' products pair up (`mul_acc_in_pairs`).
        assert!(N.is_multiple_of(2));
        // Every unit has a round: the last follows round ROUND_KEYS − 2.
        assert!(ROUND_KEYS - 2 > N);
    };
    let x = match hashed {
        Hashed::Input(at) => HashRegs::Bytes(data.input_regs::<RB, N>(at)),
        Hashed::Written(at) => HashRegs::Bytes(data.written_regs::<RB, N>(at)),
        Hashed::Held(r) => HashRegs::Held(r),
    };
    let zero = t.unreduced_zero();
    let mut st = Stitch {
        b,
        acc: block_zero(t),
        w: if ROLE == CLOSES_PAIR { s.w } else { zero },
        held: zero,
    };
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 1>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 2>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 3>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 4>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 5>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 6>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 7>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 8>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 9>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 10>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 11>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 12>(t, &mut st, rk, x, s, pw);
    stitch_round::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ROLE, 13>(t, &mut st, rk, x, s, pw);
    let input = data.input_regs::<RB, N>(offset);
    let k = t.broadcast_block(&rk[ROUND_KEYS - 1]);
    let mut c = st.b;
    for (c, input) in c.iter_mut().zip(input) {
        *c = t.aes_last(*c, t.xor(k, t.load_reg(input)));
    }
    for (out, c) in data.output_regs::<RB, N>(offset).iter_mut().zip(c) {
        t.store_reg(out, c);
    }
    (state_after::<T, RB, MULS, ROLE>(t, st.w), c)
}

/// CTR over the whole `N`-register groups from `start`, hashing each
/// group's output during the AES of the next group (held in registers
/// or read back from the output: `LoopShape::HOLD_WRITTEN`), and the
/// last group's after the loop. (Two groups behind measured the same
/// for long messages and slower for short ones, which have fewer groups
/// to stitch.)
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn hash_output<
    T: Pieces<RB>,
    const RB: usize,
    B: KeyBlock,
    const ROUND_KEYS: usize,
    const GCM: bool,
    const MULS: usize,
    const N: usize,
>(
    t: T,
    rk: &[B; ROUND_KEYS],
    pw: &Powers<T::Reg, BIG>,
    ctr: &mut __m128i,
    s: &mut HashState<T::Reg>,
    data: &mut InOut<'_>,
    start: usize,
) {
    let group = RB * N;
    let end = groups_end::<RB, N>(data.len(), start);
    // The counter, the hash state and the view in locals, so they stay in
    // registers, and the powers where the tier wants them (`loop_powers`);
    // the counter and the state are stored back at the end.
    let mut next = *ctr;
    let mut state = *s;
    let data = &mut data.reborrow();
    let mut copy = None;
    let pw = loop_powers::<T, RB>(pw, &mut copy);
    let mut offset = start;
    // The group written last, where the tier holds it (`HOLD_WRITTEN`).
    let mut written = [t.widen(block_zero(t)); N];
    // The first group has nothing before it to hash: CTR alone, before
    // the loop or as a branch in it (`PEEL_FIRST`).
    if T::PEEL_FIRST && offset < end {
        let mut ks = t.whitened_counters::<B, GCM, N>(&mut next, &rk[0]);
        encrypt_regs(t, rk, &mut ks);
        written = xor_group(t, data, offset, &ks);
        offset += group;
    }
    while offset < end {
        let ctrs = t.whitened_counters::<B, GCM, N>(&mut next, &rk[0]);
        if !T::PEEL_FIRST && offset == start {
            let mut ks = ctrs;
            encrypt_regs(t, rk, &mut ks);
            written = xor_group(t, data, offset, &ks);
        } else {
            let before = written_before::<T, RB, N>(&written, offset - group);
            (state, written) = aes_hash_group::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ALONE>(
                t, rk, ctrs, data, offset, before, &state, pw,
            );
        }
        offset += group;
    }
    if end > start {
        state = if T::HOLD_WRITTEN {
            hash_regs::<T, RB, GCM, MULS, N, ALONE>(t, &state, &written, pw)
        } else {
            let last = load_group(t, data.written_regs::<RB, N>(end - group));
            hash_regs::<T, RB, GCM, MULS, N, ALONE>(t, &state, &last, pw)
        };
    }
    *s = state;
    *ctr = next;
}

/// CTR over the whole `N`-register groups from `start`, hashing each
/// group's input during its own AES. Updates `ctr` and `s`; the
/// caller knows where it stopped (`groups_end`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn hash_input<
    T: Pieces<RB>,
    const RB: usize,
    B: KeyBlock,
    const ROUND_KEYS: usize,
    const GCM: bool,
    const MULS: usize,
    const N: usize,
>(
    t: T,
    rk: &[B; ROUND_KEYS],
    pw: &Powers<T::Reg, BIG>,
    ctr: &mut __m128i,
    s: &mut HashState<T::Reg>,
    data: &mut InOut<'_>,
    start: usize,
) {
    let group = RB * N;
    let end = groups_end::<RB, N>(data.len(), start);
    // The counter, the hash state and the view in locals, so they stay in
    // registers, and the powers where the tier wants them (`loop_powers`);
    // the counter and the state are stored back at the end.
    let mut next = *ctr;
    let mut state = *s;
    let data = &mut data.reborrow();
    let mut copy = None;
    let pw = loop_powers::<T, RB>(pw, &mut copy);
    let mut offset = start;
    while offset < end {
        let ctrs = t.whitened_counters::<B, GCM, N>(&mut next, &rk[0]);
        let input = Hashed::Input(offset);
        (state, _) = aes_hash_group::<T, RB, B, ROUND_KEYS, GCM, MULS, N, ALONE>(
            t, rk, ctrs, data, offset, input, &state, pw,
        );
        offset += group;
    }
    *s = state;
    *ctr = next;
}

/// The group written before the one at hand, for its hash: the registers
/// the loop holds, or the output at `at` (`LoopShape::HOLD_WRITTEN`).
#[inline(always)]
fn written_before<T: Pieces<RB>, const RB: usize, const N: usize>(
    written: &[T::Reg; N],
    at: usize,
) -> Hashed<'_, T::Reg, N> {
    if T::HOLD_WRITTEN {
        Hashed::Held(written)
    } else {
        Hashed::Written(at)
    }
}

/// [`hash_output`] over big groups with one reduction for every two
/// groups: groups pair up, the first of a pair hashed with `high` (the
/// powers of `pw` times H^(blocks in a group): [`Wide::pair_powers`]),
/// the second with `pw`, both products in one unreduced sum, which the
/// next pair's first group reduces. Half the reductions (two multiplies,
/// two shuffles, two XORs) and half the folds of the lanes into one block
/// (two extracts, two XORs), for eight more registers of powers, read from
/// memory. An odd group left at the end is hashed alone. The first group
/// is peeled (CTR alone) on every tier.
///
/// [`Wide::pair_powers`]: super::vaes::Wide::pair_powers
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn hash_output_paired<
    T: Pieces<RB>,
    const RB: usize,
    B: KeyBlock,
    const ROUND_KEYS: usize,
    const MULS: usize,
>(
    t: T,
    rk: &[B; ROUND_KEYS],
    pw: &Powers<T::Reg, BIG>,
    high: &Powers<T::Reg, BIG>,
    ctr: &mut __m128i,
    s: &mut HashState<T::Reg>,
    data: &mut InOut<'_>,
    start: usize,
) {
    const N: usize = BIG;
    let group = RB * N;
    let end = groups_end::<RB, N>(data.len(), start);
    if end == start {
        return;
    }
    // Locals as in `hash_output`.
    let mut next = *ctr;
    let mut state = *s;
    let data = &mut data.reborrow();
    let mut copy = None;
    let pw = loop_powers::<T, RB>(pw, &mut copy);
    let mut ks = t.whitened_counters::<B, true, N>(&mut next, &rk[0]);
    encrypt_regs(t, rk, &mut ks);
    let mut written = xor_group(t, data, start, &ks);
    // Each step encrypts the group at `offset` and hashes the one before
    // it, which is written and not hashed yet; the last written group is
    // hashed after the loop, closing the pair its predecessor opened or
    // alone.
    let mut offset = start + group;
    let pair_open = loop {
        if offset == end {
            break false;
        }
        let ctrs = t.whitened_counters::<B, true, N>(&mut next, &rk[0]);
        let before = written_before::<T, RB, N>(&written, offset - group);
        (state, written) = aes_hash_group::<T, RB, B, ROUND_KEYS, true, MULS, N, OPENS_PAIR>(
            t, rk, ctrs, data, offset, before, &state, high,
        );
        offset += group;
        if offset == end {
            break true;
        }
        let ctrs = t.whitened_counters::<B, true, N>(&mut next, &rk[0]);
        let before = written_before::<T, RB, N>(&written, offset - group);
        (state, written) = aes_hash_group::<T, RB, B, ROUND_KEYS, true, MULS, N, CLOSES_PAIR>(
            t, rk, ctrs, data, offset, before, &state, pw,
        );
        offset += group;
    };
    if !T::HOLD_WRITTEN {
        written = load_group(t, data.written_regs::<RB, N>(end - group));
    }
    state = if pair_open {
        hash_regs::<T, RB, true, MULS, N, CLOSES_PAIR>(t, &state, &written, pw)
    } else {
        hash_regs::<T, RB, true, MULS, N, ALONE>(t, &state, &written, pw)
    };
    *s = state;
    *ctr = next;
}

/// [`hash_input`] over big groups in pairs, as [`hash_output_paired`].
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn hash_input_paired<
    T: Pieces<RB>,
    const RB: usize,
    B: KeyBlock,
    const ROUND_KEYS: usize,
    const MULS: usize,
>(
    t: T,
    rk: &[B; ROUND_KEYS],
    pw: &Powers<T::Reg, BIG>,
    high: &Powers<T::Reg, BIG>,
    ctr: &mut __m128i,
    s: &mut HashState<T::Reg>,
    data: &mut InOut<'_>,
    start: usize,
) {
    const N: usize = BIG;
    let group = RB * N;
    let end = groups_end::<RB, N>(data.len(), start);
    // Locals as in `hash_output`.
    let mut next = *ctr;
    let mut state = *s;
    let data = &mut data.reborrow();
    let mut copy = None;
    let pw = loop_powers::<T, RB>(pw, &mut copy);
    let mut offset = start;
    while offset + group < end {
        let ctrs = t.whitened_counters::<B, true, N>(&mut next, &rk[0]);
        let input = Hashed::Input(offset);
        (state, _) = aes_hash_group::<T, RB, B, ROUND_KEYS, true, MULS, N, OPENS_PAIR>(
            t, rk, ctrs, data, offset, input, &state, high,
        );
        let (o, ctrs) = (
            offset + group,
            t.whitened_counters::<B, true, N>(&mut next, &rk[0]),
        );
        let input = Hashed::Input(o);
        (state, _) = aes_hash_group::<T, RB, B, ROUND_KEYS, true, MULS, N, CLOSES_PAIR>(
            t, rk, ctrs, data, o, input, &state, pw,
        );
        offset += 2 * group;
    }
    if offset < end {
        let ctrs = t.whitened_counters::<B, true, N>(&mut next, &rk[0]);
        let input = Hashed::Input(offset);
        (state, _) = aes_hash_group::<T, RB, B, ROUND_KEYS, true, MULS, N, ALONE>(
            t, rk, ctrs, data, offset, input, &state, pw,
        );
    }
    *s = state;
    *ctr = next;
}

/// CTR over the whole `N`-register groups from `start`, no hash.
/// Updates `ctr`; the caller knows where it stopped (`groups_end`).
#[inline(always)]
pub(super) fn ctr_only<
    T: Pieces<RB>,
    const RB: usize,
    B: KeyBlock,
    const ROUND_KEYS: usize,
    const GCM: bool,
    const N: usize,
>(
    t: T,
    rk: &[B; ROUND_KEYS],
    ctr: &mut __m128i,
    data: &mut InOut<'_>,
    start: usize,
) {
    let group = RB * N;
    let end = groups_end::<RB, N>(data.len(), start);
    // The counter and the view in locals, so they stay in registers.
    let mut next = *ctr;
    let data = &mut data.reborrow();
    // The tier's copy of the round keys for this pass (`ctr_keys`),
    // wiped after it.
    let mut keys = t.ctr_keys(rk);
    let mut offset = start;
    while offset < end {
        let mut ks = t.whitened_counters::<_, GCM, N>(&mut next, &keys[0]);
        encrypt_regs(t, &keys, &mut ks);
        xor_group(t, data, offset, &ks);
        offset += group;
    }
    t.wipe_ctr_keys(&mut keys);
    *ctr = next;
}

/// Where the whole groups of `N` registers of `RB` bytes, in `len` bytes
/// from `start`, end. The loops stop there, and their callers compute it
/// too rather than take it from them: lengths stay visibly public for
/// `scripts/ct-check.sh` when a loop is not inlined.
#[inline(always)]
pub(super) fn groups_end<const RB: usize, const N: usize>(len: usize, start: usize) -> usize {
    let group = RB * N;
    start + (len - start) / group * group
}
