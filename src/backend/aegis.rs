//! AEGIS (draft-irtf-cfrg-aegis-aead-18): initialisation, absorption,
//! encryption, decryption and finalisation, written once for the six
//! variants and every tier, over [`Lanes`]: a tier's registers holding one
//! state word of `D` lanes.
//!
//! # The maths, once
//!
//! A state is `S` words of `D` lanes, each lane a 128-bit block; `D` lanes
//! are `D` independent AEGIS states that differ only by their context
//! (`ctx`: lane `i` holds the byte `i`, then the byte `D − 1`, then zeros),
//! so `D = 1` is AEGIS-128L or AEGIS-256 itself (its context is zero) and
//! `D = 2, 4` are the X2 and X4 variants. Two families:
//!
//! | family | `S` words | message words `W` per update | key, nonce |
//! |---|---|---|---|
//! | AEGIS-128L, -128X2, -128X4 | 8 | 2 (the rate: 32·D bytes) | 16 bytes each |
//! | AEGIS-256, -256X2, -256X4 | 6 | 1 (16·D bytes) | 32 bytes each |
//!
//! `Update(M)` ([`update`]): `S'[i] = AESRound(S[i − 1], S[i])` for every
//! word (indices mod `S`), where message word `j` is first XORed into
//! `S[4j]`: into `S0` and `S4` for the 128 family, `S0` for the 256 family.
//! `AESRound(x, k)` is one AES encryption round of `x` with round key `k`
//! (SubBytes, ShiftRows, MixColumns, then XOR `k`): `aesenc` on x86_64,
//! `AESE` with a zero key, `AESMC` and an XOR on aarch64. Each word's new
//! value needs one round of the previous state, so an update is one round
//! deep: `S` independent rounds, what the AES units run in parallel.
//!
//! The keystream words `z` ([`keystream`]), XORed into the message:
//! 128 family `z0 = S1 ⊕ S6 ⊕ (S2 ∧ S3)`, `z1 = S2 ⊕ S5 ⊕ (S6 ∧ S7)`;
//! 256 family `z0 = S1 ⊕ S4 ⊕ S5 ⊕ (S2 ∧ S3)`. Encryption absorbs the
//! plaintext words, decryption the plaintext it recovers; a partial last
//! block is zero-padded, and on decryption the recovered plaintext is
//! truncated and zero-padded again before it is absorbed.
//!
//! Initialisation ([`init`]) and finalisation ([`finalize`]) are the
//! draft's §2.4/§3.4 and §2.8/§3.8 (and §4's for `D` > 1): the context is
//! XORed into `S3` and `S[S − 1]` before each of the initial updates (10
//! for the 128 family, 16 for the 256 family); finalisation absorbs the
//! lengths block `LE64(ad bits) ‖ LE64(msg bits)` XORed with `S2` (128) or
//! `S3` (256) seven times, and the tag is the XOR of every lane's words:
//! 16 bytes from `S0 … S6` (128) or `S0 … S5` (256), or 32 bytes from the
//! two halves of the state.

use core::marker::PhantomData;

use crate::block::{Block, wipe};
use crate::inout::{InOut, padded_prefix};

/// The draft's constant C0 (the Fibonacci sequence modulo 256).
const C0: u128 = u128::from_le_bytes([
    0x00, 0x01, 0x01, 0x02, 0x03, 0x05, 0x08, 0x0d, 0x15, 0x22, 0x37, 0x59, 0x90, 0xe9, 0x79, 0x62,
]);
/// The draft's constant C1.
const C1: u128 = u128::from_le_bytes([
    0xdb, 0x3d, 0x18, 0x55, 0x6d, 0xc2, 0x2f, 0xf1, 0x20, 0x11, 0x31, 0x42, 0x73, 0xb5, 0x28, 0xdd,
]);

/// A tier's registers as one AEGIS state word of `D` lanes, `WB = 16·D`
/// bytes: the operations the algorithm needs. Its one implementation is
/// [`Regs`] over a tier's [`Register`]; every method is `#[inline(always)]`,
/// so that the algorithm lands whole in the caller's `#[target_feature]`
/// kernel.
pub(crate) trait Lanes<const WB: usize>: Copy {
    /// One state word: `D` blocks, in one register or several.
    type V: Copy;
    /// How the message loop is laid out ([`Schedule`]).
    type Schedule: Schedule;

    /// A word from `WB` bytes: lane `i` from bytes `16i..16i + 16`.
    fn load(self, bytes: &[u8; WB]) -> Self::V;
    /// A word into `WB` bytes, lane `i` at bytes `16i..16i + 16`.
    fn store(self, out: &mut [u8; WB], v: Self::V);
    /// `block` (`u128::from_le_bytes` of its bytes) in every lane.
    fn splat(self, block: u128) -> Self::V;
    /// `a ⊕ b` in every lane ([`Register::splat_xor`]).
    fn splat_xor(self, a: u128, b: u128) -> Self::V;
    /// The lanes' contexts: lane `i` holds the byte `i`, the byte `D − 1`,
    /// then zeros (all zero for `D = 1`).
    fn ctx(self) -> Self::V;
    /// Lane-wise XOR.
    fn xor(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise `a ⊕ (b ⊕ c)`: one instruction where the tier has one
    /// (`EOR3`), else two XORs with `a` joining last (so pass the operand
    /// that is ready last as `a`).
    fn xor3(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// Lane-wise AND.
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// `AESRound(x, k)` in every lane: one AES encryption round of `x`
    /// with round key `k`.
    fn aes_round(self, x: Self::V, k: Self::V) -> Self::V;
    /// The XOR of the lanes, as a block.
    fn fold(self, v: Self::V) -> Block;
}

/// One register of a tier, `RB` bytes: `RB / 16` lanes of one block. What
/// a tier implements (`backend/x86_64/aegis.rs`, `backend/aarch64/aegis.rs`);
/// [`Regs`] makes a state word of `N` of them. The type holds the tier's
/// feature token, and each method is `#[inline(always)]` over the CPU's
/// instructions, which the token makes sound.
pub(crate) trait Register<const RB: usize>: Copy {
    /// The register.
    type R: Copy;

    /// A register from `RB` bytes, lane `i` from bytes `16i..16i + 16`.
    fn load(self, bytes: &[u8; RB]) -> Self::R;
    /// A register into `RB` bytes.
    fn store(self, out: &mut [u8; RB], r: Self::R);
    /// `block` in every lane.
    fn splat(self, block: u128) -> Self::R;
    /// `a ⊕ b` in every lane: XORed as blocks, then broadcast, unless the
    /// register type does better with the two broadcast first.
    #[inline(always)]
    fn splat_xor(self, a: u128, b: u128) -> Self::R {
        self.splat(a ^ b)
    }
    /// The contexts of lanes `first..first + RB / 16` of a state of
    /// `lanes` lanes ([`Lanes::ctx`]).
    fn ctx(self, first: usize, lanes: usize) -> Self::R;
    /// Lane-wise XOR.
    fn xor(self, a: Self::R, b: Self::R) -> Self::R;
    /// Lane-wise `a ⊕ (b ⊕ c)` ([`Lanes::xor3`]); two XORs unless the
    /// register type has a three-way one.
    #[inline(always)]
    fn xor3(self, a: Self::R, b: Self::R, c: Self::R) -> Self::R {
        self.xor(a, self.xor(b, c))
    }
    /// Lane-wise AND.
    fn and(self, a: Self::R, b: Self::R) -> Self::R;
    /// `AESRound(x, k)` in every lane.
    fn aes_round(self, x: Self::R, k: Self::R) -> Self::R;
    /// The XOR of the register's lanes.
    fn fold(self, r: Self::R) -> Block;
}

/// How [`seal_or_open`]'s code is laid out for one tier and variant: two
/// choices that compute the same state from the same instructions and only
/// steer LLVM's schedule and register allocation. On the 16-register tiers
/// that allocation decides whether a state word spills to the stack inside
/// the message loop (a store and a reload on the ring every update), and
/// the best choice differs between tiers, variants and directions; so each
/// is chosen per tier and variant by measurement (`backend::aegis_dispatch!`;
/// the figures: docs/benchmarks.md, "AEGIS on Zen 4"). Implemented by
/// [`Layout`], named through its four aliases.
pub(crate) trait Schedule: Copy {
    /// Whether [`update`] computes the new words from the last to the
    /// first rather than from the first.
    const DESCENDING: bool;
    /// Whether the message loop takes two updates an iteration (then one
    /// for an odd last block) rather than one.
    const PAIRS: bool;
}

/// The [`Schedule`] with the two choices as parameters.
#[derive(Clone, Copy)]
pub(crate) struct Layout<const DESCENDING: bool, const PAIRS: bool>;

impl<const D: bool, const P: bool> Schedule for Layout<D, P> {
    const DESCENDING: bool = D;
    const PAIRS: bool = P;
}

/// Words from the first; one update a loop iteration.
pub(crate) type Ascending = Layout<false, false>;
/// Words from the last; one update a loop iteration.
#[cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, reason = "x86_64's tiers name it")
)]
pub(crate) type Descending = Layout<true, false>;
/// Words from the first; two updates a loop iteration.
#[cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, reason = "x86_64's tiers name it")
)]
pub(crate) type AscendingPairs = Layout<false, true>;
/// Words from the last; two updates a loop iteration.
#[cfg_attr(
    not(target_arch = "x86_64"),
    allow(dead_code, reason = "x86_64's tiers name it")
)]
pub(crate) type DescendingPairs = Layout<true, true>;

/// A state word of `N` registers of `RB` bytes each (`R`): `Lanes<WB>` for
/// `WB = N·RB`, register `i` holding the word's bytes `i·RB..(i + 1)·RB`,
/// with the code laid out as `O` says ([`Schedule`]).
#[derive(Clone, Copy)]
pub(crate) struct Regs<R, const RB: usize, const N: usize, O = Ascending>(
    pub(crate) R,
    pub(crate) PhantomData<O>,
);

impl<R: Register<RB>, const RB: usize, const N: usize, O: Schedule, const WB: usize> Lanes<WB>
    for Regs<R, RB, N, O>
{
    type V = [R::R; N];
    type Schedule = O;

    #[inline(always)]
    fn load(self, bytes: &[u8; WB]) -> Self::V {
        const { assert!(WB == N * RB) };
        let (regs, _) = bytes.as_chunks::<RB>();
        core::array::from_fn(|i| self.0.load(&regs[i]))
    }

    #[inline(always)]
    fn store(self, out: &mut [u8; WB], v: Self::V) {
        const { assert!(WB == N * RB) };
        let (regs, _) = out.as_chunks_mut::<RB>();
        for (dst, r) in regs.iter_mut().zip(v) {
            self.0.store(dst, r);
        }
    }

    #[inline(always)]
    fn splat(self, block: u128) -> Self::V {
        [self.0.splat(block); N]
    }

    #[inline(always)]
    fn splat_xor(self, a: u128, b: u128) -> Self::V {
        [self.0.splat_xor(a, b); N]
    }

    #[inline(always)]
    fn ctx(self) -> Self::V {
        core::array::from_fn(|i| self.0.ctx(i * RB / 16, N * RB / 16))
    }

    #[inline(always)]
    fn xor(self, a: Self::V, b: Self::V) -> Self::V {
        core::array::from_fn(|i| self.0.xor(a[i], b[i]))
    }

    #[inline(always)]
    fn xor3(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V {
        core::array::from_fn(|i| self.0.xor3(a[i], b[i], c[i]))
    }

    #[inline(always)]
    fn and(self, a: Self::V, b: Self::V) -> Self::V {
        core::array::from_fn(|i| self.0.and(a[i], b[i]))
    }

    #[inline(always)]
    fn aes_round(self, x: Self::V, k: Self::V) -> Self::V {
        core::array::from_fn(|i| self.0.aes_round(x[i], k[i]))
    }

    #[inline(always)]
    fn fold(self, v: Self::V) -> Block {
        let acc = v[1..].iter().fold(v[0], |acc, r| self.0.xor(acc, *r));
        self.0.fold(acc)
    }
}

/// The shape checks of one instantiation: the two families, 16- or
/// 32-byte tags.
const fn check_shape<const S: usize, const W: usize, const KB: usize, const T: usize>() {
    assert!((S == 8 && W == 2 && KB == 1) || (S == 6 && W == 1 && KB == 2));
    assert!(T == 16 || T == 32);
}

/// `Update(M)`: every word becomes `AESRound(S[i − 1], S[i])`, message word
/// `j` XORed into `S[4j]` first.
///
/// The words that take a message are computed as `AESRound(S[i − 1], 0) ⊕
/// (S[i] ⊕ M[j])` (the round key enters by XOR, last): `S[i] ⊕ M[j]` runs
/// beside the round, so the word's path from its own old value is two XORs
/// rather than an XOR and a round, and a message that depends on the state
/// (decryption's plaintext, after the keystream) joins one XOR before the
/// end. An update's longest path stays one round; a round plus an XOR
/// appears only on two of the eight (or one of the six) `S[i − 1] → S'[i]`
/// edges of the ring. `docs/design.md` ("AEGIS") has the cycle counts.
/// Where the tier has a three-way XOR (`EOR3` on aarch64) the two XORs are
/// one ([`Lanes::xor3`]). The words are computed in the order
/// [`Schedule::DESCENDING`] names.
#[inline(always)]
fn update<L: Lanes<WB>, const WB: usize, const S: usize, const W: usize>(
    l: L,
    s: &mut [L::V; S],
    m: &[L::V; W],
) {
    update_and_add_ctx(l, s, m, None);
}

/// [`update`], then, with `ctx`, the context XORed into the new `S3` and
/// `S[S − 1]`, as the next initial update wants them: those two words are
/// computed as `AESRound(S[i − 1], 0) ⊕ S[i] ⊕ ctx`, like the words that
/// take a message, so the context costs no step on any path
/// ([`initial_updates`]).
#[inline(always)]
fn update_and_add_ctx<L: Lanes<WB>, const WB: usize, const S: usize, const W: usize>(
    l: L,
    s: &mut [L::V; S],
    m: &[L::V; W],
    ctx: Option<L::V>,
) {
    let old = *s;
    let zero = l.splat(0);
    for k in 0..S {
        let i = if L::Schedule::DESCENDING {
            S - 1 - k
        } else {
            k
        };
        let prev = old[(i + S - 1) % S];
        s[i] = if i % 4 == 0 && i / 4 < W {
            l.xor3(l.aes_round(prev, zero), old[i], m[i / 4])
        } else if let Some(c) = ctx.filter(|_| i == 3 || i == S - 1) {
            l.xor3(l.aes_round(prev, zero), old[i], c)
        } else {
            l.aes_round(prev, old[i])
        };
    }
}

/// The keystream words of the current state (module documentation).
#[inline(always)]
fn keystream<L: Lanes<WB>, const WB: usize, const S: usize, const W: usize>(
    l: L,
    s: &[L::V; S],
) -> [L::V; W] {
    let mut z = [s[0]; W];
    if S == 8 {
        z[0] = l.xor(l.xor(s[1], s[6]), l.and(s[2], s[3]));
        z[W - 1] = l.xor(l.xor(s[2], s[5]), l.and(s[6], s[7]));
    } else {
        z[0] = l.xor(l.xor(l.xor(s[1], s[4]), s[5]), l.and(s[2], s[3]));
    }
    z
}

/// `Init(key, nonce)` for `D` lanes: the state before any data.
#[inline(always)]
fn init<L: Lanes<WB>, const WB: usize, const S: usize, const W: usize, const KB: usize>(
    l: L,
    key: &[Block; KB],
    nonce: &[Block; KB],
) -> [L::V; S] {
    let k0 = u128::from_le_bytes(key[0]);
    let n0 = u128::from_le_bytes(nonce[0]);
    let ctx = (WB > 16).then(|| l.ctx());
    let mut s = [l.splat(0); S];
    // Every word through `splat_xor`, constants with zero: each register
    // type chooses where the XOR goes (`Register::splat_xor`).
    if S == 8 {
        let words = [
            (k0, n0),
            (C1, 0),
            (C0, 0),
            (C1, 0),
            (k0, n0),
            (k0, C0),
            (k0, C1),
            (k0, C0),
        ];
        for (word, (a, b)) in s.iter_mut().zip(words) {
            *word = l.splat_xor(a, b);
        }
        let m = [l.splat(n0), l.splat(k0)];
        let mut m_w = [m[0]; W];
        m_w[W - 1] = m[1];
        initial_updates(l, &mut s, &[m_w], 10, ctx);
    } else {
        let k1 = u128::from_le_bytes(key[KB - 1]);
        let n1 = u128::from_le_bytes(nonce[KB - 1]);
        let words = [(k0, n0), (k1, n1), (C1, 0), (C0, 0), (k0, C0), (k1, C1)];
        for (word, (a, b)) in s.iter_mut().zip(words) {
            *word = l.splat_xor(a, b);
        }
        let mut rounds = [[l.splat(0); W]; 4];
        for (m, (a, b)) in rounds
            .iter_mut()
            .zip([(k0, 0), (k1, 0), (k0, n0), (k1, n1)])
        {
            *m = [l.splat_xor(a, b); W];
        }
        initial_updates(l, &mut s, &rounds, 4, ctx);
    }
    s
}

/// The initial updates: `repeats` times each of `messages` in turn, with
/// the lanes' context (none for one lane) XORed into `S3` and `S[S − 1]`
/// before each. As the draft writes it, that XOR sits on those words'
/// paths (their old value is the round key: an XOR, then a round, every
/// update); where [`CTX_BESIDE_ROUND`], the context goes in once before
/// the first update, then beside the round inside each
/// ([`update_and_add_ctx`]), and out once after the last: the same
/// state, a step shorter an update.
#[inline(always)]
fn initial_updates<L: Lanes<WB>, const WB: usize, const S: usize, const W: usize>(
    l: L,
    s: &mut [L::V; S],
    messages: &[[L::V; W]],
    repeats: usize,
    ctx: Option<L::V>,
) {
    if CTX_BESIDE_ROUND {
        add_ctx(l, s, ctx);
        for _ in 0..repeats {
            for m in messages {
                update_and_add_ctx(l, s, m, ctx);
            }
        }
        add_ctx(l, s, ctx);
    } else {
        for _ in 0..repeats {
            for m in messages {
                add_ctx(l, s, ctx);
                update(l, s, m);
            }
        }
    }
}

/// Whether [`initial_updates`] adds the context beside each round: on
/// x86_64; on aarch64 the draft's order, where the other moved LLVM's
/// register allocation of AEGIS-128X2's message loop (docs/design.md,
/// "AEGIS").
const CTX_BESIDE_ROUND: bool = cfg!(target_arch = "x86_64");

/// `S3 ⊕= ctx`, `S[S − 1] ⊕= ctx`; nothing without a context.
#[inline(always)]
fn add_ctx<L: Lanes<WB>, const WB: usize, const S: usize>(
    l: L,
    s: &mut [L::V; S],
    ctx: Option<L::V>,
) {
    if let Some(c) = ctx {
        s[3] = l.xor(s[3], c);
        s[S - 1] = l.xor(s[S - 1], c);
    }
}

/// `Finalize(ad bits, msg bits)`: the `T`-byte tag.
#[inline(always)]
fn finalize<L: Lanes<WB>, const WB: usize, const S: usize, const W: usize, const T: usize>(
    l: L,
    mut s: [L::V; S],
    aad_len: usize,
    text_len: usize,
) -> [u8; T] {
    // Both lengths are below 2^61 bytes (the caller checked the draft's
    // limits), so their bit counts fit 64 bits.
    let lengths = u128::from((aad_len as u64) << 3) | u128::from((text_len as u64) << 3) << 64;
    let t = l.xor(s[if S == 8 { 2 } else { 3 }], l.splat(lengths));
    let m = [t; W];
    for _ in 0..7 {
        update(l, &mut s, &m);
    }
    let mut tag = [0u8; T];
    if T == 16 {
        // S0 … S6 for the 128 family, S0 … S5 for the 256 family.
        tag[..16].copy_from_slice(&xor_of(l, &s[..if S == 8 { 7 } else { 6 }]));
    } else {
        tag[..16].copy_from_slice(&xor_of(l, &s[..S / 2]));
        tag[16..].copy_from_slice(&xor_of(l, &s[S / 2..]));
    }
    tag
}

/// The XOR of `words` (at least one), every lane folded into one block.
#[inline(always)]
fn xor_of<L: Lanes<WB>, const WB: usize>(l: L, words: &[L::V]) -> Block {
    let (first, rest) = words.split_at(1);
    let (pairs, last) = rest.as_chunks::<2>();
    let mut acc = first[0];
    for [a, b] in pairs {
        acc = l.xor3(acc, *a, *b);
    }
    for w in last {
        acc = l.xor(acc, *w);
    }
    l.fold(acc)
}

/// Loads `W` message words from `W·WB` bytes.
#[inline(always)]
fn load_words<L: Lanes<WB>, const WB: usize, const W: usize>(
    l: L,
    bytes: &[[u8; WB]; W],
) -> [L::V; W] {
    let mut m = [l.splat(0); W];
    for (word, b) in m.iter_mut().zip(bytes) {
        *word = l.load(b);
    }
    m
}

/// Encrypts (`SEAL`) or decrypts the `W·WB` bytes of `data` at `offset`
/// (all inside it) and absorbs their plaintext: one update.
#[inline(always)]
fn crypt_words<const SEAL: bool, L: Lanes<WB>, const WB: usize, const S: usize, const W: usize>(
    l: L,
    s: &mut [L::V; S],
    data: &mut InOut<'_>,
    offset: usize,
) {
    let input = load_words(l, data.input_regs::<WB, W>(offset));
    let z = keystream::<L, WB, S, W>(l, s);
    let mut out = input;
    for (o, zi) in out.iter_mut().zip(z) {
        *o = l.xor(*o, zi);
    }
    update(l, s, if SEAL { &input } else { &out });
    for (dst, word) in data.output_regs::<WB, W>(offset).iter_mut().zip(out) {
        l.store(dst, word);
    }
}

/// AEGIS encryption (`SEAL`) or decryption of `data` under `key` and
/// `nonce` with associated data `aad`, in place or into the output,
/// returning the tag: the tag to send, or the one to compare with the
/// received tag (the caller compares and wipes). `S`, `W` and `KB` name the
/// family (module documentation), `T` the tag length; lengths are within
/// the draft's limits (checked by the caller).
#[inline(always)]
pub(crate) fn seal_or_open<
    const SEAL: bool,
    L: Lanes<WB>,
    const WB: usize,
    const S: usize,
    const W: usize,
    const KB: usize,
    const T: usize,
>(
    l: L,
    key: &[Block; KB],
    nonce: &[Block; KB],
    aad: &[u8],
    data: &mut InOut<'_>,
) -> [u8; T] {
    const { check_shape::<S, W, KB, T>() };
    let mut s = init::<L, WB, S, W, KB>(l, key, nonce);

    // Absorb the associated data, `W` words at a time, the last zero-padded.
    let (blocks, rest) = aad.as_chunks::<WB>();
    let groups = blocks.chunks_exact(W);
    let leftover = groups.remainder();
    for group in groups {
        let mut m = [l.splat(0); W];
        for (word, b) in m.iter_mut().zip(group) {
            *word = l.load(b);
        }
        update(l, &mut s, &m);
    }
    if !leftover.is_empty() || !rest.is_empty() {
        let mut buf = [[0u8; WB]; W];
        for (dst, src) in buf.iter_mut().zip(leftover) {
            *dst = *src;
        }
        buf[leftover.len()][..rest.len()].copy_from_slice(rest);
        update(l, &mut s, &load_words(l, &buf));
    }

    // The message, `W·WB` bytes an update: two updates an iteration where
    // the tier and variant's layout says so (`Schedule::PAIRS`), then one.
    let len = data.len();
    let rate = W * WB;
    let mut offset = 0;
    if L::Schedule::PAIRS {
        while len - offset >= 2 * rate {
            crypt_words::<SEAL, L, WB, S, W>(l, &mut s, data, offset);
            crypt_words::<SEAL, L, WB, S, W>(l, &mut s, data, offset + rate);
            offset += 2 * rate;
        }
    }
    while len - offset >= rate {
        crypt_words::<SEAL, L, WB, S, W>(l, &mut s, data, offset);
        offset += rate;
    }
    if offset < len {
        // The last partial block, through a zero-padded stack buffer.
        let n = len - offset;
        let mut buf = [[0u8; WB]; W];
        for (w, dst) in buf.iter_mut().enumerate() {
            data.read_tail::<WB>(offset + w * WB, dst);
        }
        let input = load_words(l, &buf);
        let z = keystream::<L, WB, S, W>(l, &s);
        for ((dst, word), zi) in buf.iter_mut().zip(input).zip(z) {
            l.store(dst, l.xor(word, zi));
        }
        let absorbed = if SEAL {
            input
        } else {
            // The plaintext is absorbed truncated: its first `n` bytes,
            // zero-padded (the keystream past the ciphertext's end is not).
            let mut plain = [[0u8; WB]; W];
            for (w, (dst, src)) in plain.iter_mut().zip(&buf).enumerate() {
                *dst = padded_prefix(src, n.saturating_sub(w * WB));
            }
            let words = load_words(l, &plain);
            for block in &mut plain {
                wipe(block);
            }
            words
        };
        update(l, &mut s, &absorbed);
        for (w, src) in buf.iter_mut().enumerate() {
            data.write_tail::<WB>(offset + w * WB, src, n.saturating_sub(w * WB));
            wipe(src);
        }
    }
    finalize::<L, WB, S, W, T>(l, s, aad.len(), len)
}
