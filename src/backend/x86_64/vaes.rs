//! The VAES tiers' entry points, written once: GCM and GCM-SIV over the
//! stitched engine (`engine.rs`) with groups of `BIG` registers for long
//! messages and [`SMALL`] for short ones and what the big groups leave, the
//! rest on the AES-NI tier's pieces (`aesni::gcm`, `siv`), whose features
//! every VAES tier includes, or for GCM on the tier's `gcm_leftover`.
//! Generic code over [`Wide`], which each VAES tier's token implements
//! beside the engine's [`Pieces`]: `vaes/avx2.rs` and `vaes/avx512.rs` call
//! [`gcm`], [`siv_seal`] and [`siv_open`] from their `#[target_feature]`
//! entry points (`seal`, `open`, `siv_seal`, `siv_open`), which is what
//! dispatch calls, and [`gcm_groups`] from their out-of-line wrapper of it.
//! Every function here that is generic over the tier (the unit tests'
//! helpers aside) is `#[inline(always)]`, compiled inside its caller's
//! feature list, as the engine's are. Contracts: `aesni/gcm.rs` and
//! `aesni/siv.rs`.

use core::arch::x86_64::__m128i;

use zeroize::Zeroize;

use crate::backend::x86_64;
use crate::backend::x86_64::KeyBlock;
use crate::backend::x86_64::aesni::{self, siv};
use crate::backend::x86_64::engine::{
    ALONE, BIG, HashState, Pieces, Powers, ctr_only, groups_end, hash_input, hash_input_paired,
    hash_output, hash_output_paired, hash_regs, load_group, loop_powers, state_finish, state_from,
};
use crate::block::{Block, HPowers, RoundKeys};
use crate::cpu::AesNiClmul;
use crate::inout::InOut;

pub(crate) mod avx2;
pub(crate) mod avx512;

/// Registers per group for short messages and what the big groups leave,
/// on both VAES tiers.
pub(super) const SMALL: usize = 4;

/// What a VAES tier supplies beyond the engine's pieces: the lengths that
/// pick its paths, its multipliers, and its own code for the messages the
/// groups do not take. Implemented by the tier's token, whose registers
/// hold `RB` bytes.
pub(super) trait Wide<const RB: usize>: Pieces<RB> {
    /// The message length from which the big groups pay for their extra
    /// powers.
    const BIG_FROM: usize;
    /// The multiplies per product GCM's groups use where `vpclmulqdq`
    /// issues every cycle (`cpu::x86_64::clmul_every_cycle`); 3 elsewhere.
    const FULL_RATE_MULS: usize;
    /// The message length from which AES-128-GCM's big groups with
    /// `FULL_RATE_MULS` multiplies are hashed in pairs, one reduction for
    /// two groups ([`hash_output_paired`]), which pays for the pairs' eight
    /// extra powers; `usize::MAX` for never.
    const PAIRS_FROM: usize;
    /// Whether GCM with `ROUND_KEYS` round keys hashes its big groups in
    /// pairs on this tier (from `PAIRS_FROM` bytes, with `FULL_RATE_MULS`):
    /// where the tier sets `PAIRS_FROM`, and for AES-128 only, whose loop
    /// pairs make shorter; AES-256's is bound by its AES rounds, which they
    /// do not cut (docs/design.md, "AES-128 on Intel: one reduction for two
    /// groups (`PAIRS_FROM`)"). A constant: the tiers compile no paired
    /// loops where it is false.
    #[inline(always)]
    fn pairs_for<const ROUND_KEYS: usize>() -> bool {
        ROUND_KEYS == 11 && Self::PAIRS_FROM != usize::MAX
    }

    /// The longest message [`gcm_short`](Self::gcm_short) takes: less
    /// than a small group, or on AVX-512 exactly one, in one masked batch.
    const GCM_SHORT_MAX: usize;

    /// The AES-NI token this tier implies (its feature list contains that
    /// one).
    fn aesni(self) -> AesNiClmul;

    /// The multipliers of a big group from H^1..H^8 (`h`, eight 16-byte
    /// powers in order): all of them if `big` groups will be used, else
    /// the last `SMALL` registers (the rest zero); Karatsuba's factors
    /// (`k`) where products take three multiplies (`MULS`), else zero.
    fn group_powers<B: KeyBlock, const MULS: usize>(
        self,
        h: &[B; 8],
        big: bool,
    ) -> Powers<Self::Reg, BIG>;

    /// The powers a pair's first group is hashed with: each of `pw`'s
    /// (big groups') times H^(L·8), the power of `pw`'s register 0, lane 0;
    /// Karatsuba's factors beside them where products take three
    /// multiplies (`MULS`), else zero.
    fn pair_powers<const MULS: usize>(self, pw: &Powers<Self::Reg, BIG>) -> Powers<Self::Reg, BIG>;

    /// GCM of a message of at most `GCM_SHORT_MAX` bytes (contract:
    /// `aesni::gcm::seal_or_open`).
    #[allow(clippy::too_many_arguments)]
    fn gcm_short<const ROUND_KEYS: usize, const SEAL: bool>(
        self,
        keys: &RoundKeys<ROUND_KEYS>,
        h_powers: &HPowers,
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block;

    /// [`gcm_groups`] compiled for this tier, out of line, with `muls`
    /// multiplies per product: 3, or `FULL_RATE_MULS`; with `FULL_RATE_MULS`
    /// and `pairs`, the big groups in pairs where [`pairs_for`](Self::pairs_for)
    /// says so, a function of its own.
    #[allow(clippy::too_many_arguments)]
    fn gcm_groups<const ROUND_KEYS: usize, const SEAL: bool>(
        self,
        muls: usize,
        pairs: bool,
        keys: &RoundKeys<ROUND_KEYS>,
        h_powers: &HPowers,
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block;

    /// What the groups of a GCM message leave (`start..`, less than a small
    /// group): the AES-NI pieces ([`aesni_rest`]), or on AVX-512 one
    /// masked batch; out of line either way.
    fn gcm_leftover<const ROUND_KEYS: usize, const SEAL: bool>(
        self,
        s: &mut aesni::gcm::State<'_, ROUND_KEYS>,
        data: &mut InOut<'_>,
        start: usize,
        len_block: u128,
    ) -> Block;

    /// The longest GCM-SIV text [`siv_short`](Self::siv_short) takes
    /// (with an AAD of at most 16 bytes): `siv::one_group`'s eight blocks,
    /// or on AVX-512 a small group's sixteen.
    const SIV_SHORT_MAX: usize;

    /// Whether the byte-masked loads and stores of this tier's
    /// [`siv_short`](Self::siv_short) over a message it takes stay on the
    /// pages of the message's own bytes: always where it has none (AVX2);
    /// on AVX-512, unless a window would reach into the next page, where
    /// the masked-off bytes cost a fault-suppression assist if that page is
    /// not mapped (docs/design.md, "Masked loads and stores near a page's
    /// end"). Addresses and lengths are public.
    fn siv_masks_stay_on_pages(self, aad: &[u8], data: &mut InOut<'_>) -> bool;

    /// GCM-SIV of a text of at most `SIV_SHORT_MAX` bytes with an AAD of
    /// at most 16 ([`siv_is_short`]; seal if `SEAL`, else open with the
    /// received `tag`), compiled for this tier, out of line.
    #[allow(clippy::too_many_arguments)]
    fn siv_short<const ROUND_KEYS: usize, const SEAL: bool>(
        self,
        keys: &RoundKeys<ROUND_KEYS>,
        nonce: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        tag: u128,
        len_block: u128,
    ) -> Block;
}

/// Whether a message of `len` bytes takes the big groups.
#[inline(always)]
fn big<T: Wide<RB>, const RB: usize>(len: usize) -> bool {
    len >= T::BIG_FROM
}

/// The tier's `seal` (`SEAL`) or `open`: a short message on `gcm_short`, a
/// longer one in the tier's out-of-line [`gcm_groups`]. Kept apart so that
/// the entry point a short message runs through has none of the group
/// loops' prologue (six saved registers, a 32-byte aligned frame of 1.9
/// KiB): with the split, a 16-byte AES-256-GCM seal on the AVX2 tier pays
/// less over the AES-NI tier, whose code it runs (Zen 3, `compare gcm256
/// 31 16`: docs/measurements/2026-11-26-intel-zen3/tables.md).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn gcm<T: Wide<RB>, const RB: usize, const ROUND_KEYS: usize, const SEAL: bool>(
    t: T,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    if data.len() <= T::GCM_SHORT_MAX {
        t.gcm_short::<ROUND_KEYS, SEAL>(keys, h_powers, j0, aad, data, len_block)
    } else if T::FULL_RATE_MULS != 3 && crate::cpu::x86_64::clmul_every_cycle() {
        t.gcm_groups::<ROUND_KEYS, SEAL>(
            T::FULL_RATE_MULS,
            T::pairs_for::<ROUND_KEYS>() && data.len() >= T::PAIRS_FROM,
            keys,
            h_powers,
            j0,
            aad,
            data,
            len_block,
        )
    } else {
        t.gcm_groups::<ROUND_KEYS, SEAL>(3, false, keys, h_powers, j0, aad, data, len_block)
    }
}

/// [`gcm`] of a message longer than `GCM_SHORT_MAX`: the whole groups on
/// this tier (seal hashes the output, open the input), each product with
/// `MULS` multiplies (`engine.rs`), the rest in the tier's `gcm_leftover`.
/// The body of each tier's out-of-line `gcm_groups`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn gcm_groups<
    T: Wide<RB>,
    const RB: usize,
    const ROUND_KEYS: usize,
    const SEAL: bool,
    const MULS: usize,
    const PAIRS: bool,
>(
    t: T,
    keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    let _a = t.aesni();
    // SAFETY: `_a` proves the AES-NI tier's features.
    let mut s = unsafe { aesni::gcm::state_new(keys, h_powers, j0, aad) };
    let (mut st, mut done) = (state_from(t, s.acc), 0);
    let big = big::<T, RB>(data.len());
    let mut pw = t.group_powers::<_, MULS>(&h_powers.0, big);
    let rk = &keys.0;
    let len = data.len();
    // The big groups in pairs (`PAIRS`), with their own powers. (Not an
    // `Option` of the powers in one function for both: its wipe, on every
    // call, was a loop of single-byte stores over all 1 KiB of it, a cost
    // every message past the short path paid (docs/design.md, "Tried and
    // dropped"), and the paired loops' registers cost the others spills.)
    if PAIRS && big {
        let mut high = t.pair_powers::<MULS>(&pw);
        if SEAL {
            hash_output_paired::<_, RB, _, ROUND_KEYS, MULS>(
                t, rk, &pw, &high, &mut s.ctr, &mut st, data, done,
            );
        } else {
            hash_input_paired::<_, RB, _, ROUND_KEYS, MULS>(
                t, rk, &pw, &high, &mut s.ctr, &mut st, data, done,
            );
        }
        high.zeroize();
    } else if big && SEAL {
        hash_output::<_, RB, _, ROUND_KEYS, true, MULS, BIG>(
            t, rk, &pw, &mut s.ctr, &mut st, data, done,
        );
    } else if big {
        hash_input::<_, RB, _, ROUND_KEYS, true, MULS, BIG>(
            t, rk, &pw, &mut s.ctr, &mut st, data, done,
        );
    }
    if big {
        done = groups_end::<RB, BIG>(len, done);
    }
    if SEAL {
        hash_output::<_, RB, _, ROUND_KEYS, true, MULS, SMALL>(
            t, rk, &pw, &mut s.ctr, &mut st, data, done,
        );
    } else {
        hash_input::<_, RB, _, ROUND_KEYS, true, MULS, SMALL>(
            t, rk, &pw, &mut s.ctr, &mut st, data, done,
        );
    }
    done = groups_end::<RB, SMALL>(len, done);
    pw.zeroize();
    s.acc = state_finish(t, st);
    // The extended powers (wiped above) are the one copy of key state
    // the source makes on this call's stack: the rounds read their keys
    // from the key schedule inside their own `asm!` blocks (`aes_round`),
    // so no round key is held across a group. What the compiler spills
    // of the powers is not wiped (docs/security.md, "What is wiped, and
    // what is not": "Not wiped").
    t.gcm_leftover::<ROUND_KEYS, SEAL>(&mut s, data, done, len_block)
}

/// What the groups leave, on the AES-NI pieces ([`gcm_rest`]), from the
/// counter in `s`, handed over in general registers.
#[inline(always)]
pub(super) fn aesni_rest<const ROUND_KEYS: usize, const SEAL: bool>(
    t: AesNiClmul,
    s: &mut aesni::gcm::State<'_, ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> Block {
    let ctr = u128::from_le_bytes(block_store(t, s.ctr));
    // SAFETY: `t` proves the AES-NI tier's features.
    unsafe { gcm_rest::<ROUND_KEYS, SEAL>(s, ctr, data, start, len_block) }
}

/// Whether the tier's [`Wide::siv_short`] takes a GCM-SIV message: an
/// AAD of at most one block and a text of at most `SIV_SHORT_MAX` bytes
/// (the lengths are public), whose masked windows stay on the message's
/// pages ([`Wide::siv_masks_stay_on_pages`]). A message it does not take
/// goes on below, to the AES-NI tier's passes up to a small group.
#[inline(always)]
fn siv_is_short<T: Wide<RB>, const RB: usize>(t: T, aad: &[u8], data: &mut InOut<'_>) -> bool {
    aad.len() <= 16 && data.len() <= T::SIV_SHORT_MAX && t.siv_masks_stay_on_pages(aad, data)
}

/// The tier's `siv_seal` (contract: `siv::seal`): the POLYVAL pass, then CTR.
#[inline(always)]
pub(super) fn siv_seal<T: Wide<RB>, const RB: usize, const ROUND_KEYS: usize>(
    t: T,
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    let a = t.aesni();
    if siv_is_short::<T, RB>(t, aad, data) {
        return t.siv_short::<ROUND_KEYS, true>(keys, nonce, aad, data, 0, len_block);
    }
    if data.len() < RB * SMALL {
        // Less than a small group: the AES-NI tier's seal, out of line.
        // SAFETY: `a` proves the AES-NI tier's features.
        return unsafe { siv::seal(a, keys, nonce, aad, data, len_block) };
    }
    // SAFETY: `a` proves the AES-NI tier's features.
    let mut s = unsafe { siv::state_new(keys, nonce, aad, data.len()) };
    let (mut st, mut done) = (state_from(t, s.acc), 0);
    let big = big::<T, RB>(data.len());
    let mut pw = t.group_powers::<_, 3>(&s.h, big);
    let len = data.len();
    if big {
        hash_only::<T, RB, false, BIG>(t, &mut st, data, &pw, done);
        done = groups_end::<RB, BIG>(len, done);
    }
    hash_only::<T, RB, false, SMALL>(t, &mut st, data, &pw, done);
    done = groups_end::<RB, SMALL>(len, done);
    pw.zeroize();
    s.acc = state_finish(t, st);
    // SAFETY: `a` proves the AES-NI tier's features.
    let tag = unsafe { siv_hash_rest(&mut s, data, done, len_block) };
    let mut done = 0;
    if big {
        ctr_only::<_, RB, _, ROUND_KEYS, false, BIG>(t, &s.enc, &mut s.ctr, data, done);
        done = groups_end::<RB, BIG>(len, done);
    }
    ctr_only::<_, RB, _, ROUND_KEYS, false, SMALL>(t, &s.enc, &mut s.ctr, data, done);
    done = groups_end::<RB, SMALL>(len, done);
    // SAFETY: `a` proves the AES-NI tier's features.
    unsafe { siv_seal_rest(&mut s, data, done) };
    block_store(a, tag)
}

/// The tier's `siv_open` (contract: `siv::open`): one stitched pass.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn siv_open<T: Wide<RB>, const RB: usize, const ROUND_KEYS: usize>(
    t: T,
    keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    let a = t.aesni();
    if siv_is_short::<T, RB>(t, aad, data) {
        return t.siv_short::<ROUND_KEYS, false>(keys, nonce, aad, data, tag, len_block);
    }
    if data.len() < RB * SMALL {
        // Less than a small group: the AES-NI tier's open, out of line.
        // SAFETY: `a` proves the AES-NI tier's features.
        return unsafe { siv::open(a, keys, nonce, aad, data, tag, len_block) };
    }
    // SAFETY: `a` proves the AES-NI tier's features.
    let mut s = unsafe { siv::state_new(keys, nonce, aad, data.len()) };
    // SAFETY: as above.
    s.ctr = unsafe { siv::initial_counter_from(tag) };
    let (mut st, mut done) = (state_from(t, s.acc), 0);
    let big = big::<T, RB>(data.len());
    let mut pw = t.group_powers::<_, 3>(&s.h, big);
    let len = data.len();
    if big {
        hash_output::<_, RB, _, ROUND_KEYS, false, 3, BIG>(
            t, &s.enc, &pw, &mut s.ctr, &mut st, data, done,
        );
        done = groups_end::<RB, BIG>(len, done);
    }
    hash_output::<_, RB, _, ROUND_KEYS, false, 3, SMALL>(
        t, &s.enc, &pw, &mut s.ctr, &mut st, data, done,
    );
    done = groups_end::<RB, SMALL>(len, done);
    pw.zeroize();
    s.acc = state_finish(t, st);
    // SAFETY: `a` proves the AES-NI tier's features.
    block_store(a, unsafe { siv_open_rest(&mut s, data, done, len_block) })
}

/// The hash of the input's whole `N`-register groups from `start`, into
/// `s` (GCM-SIV seal's first pass; the AES-NI tier's is
/// `ctr::hash_input`); the caller knows where it stopped (`groups_end`).
#[inline(always)]
fn hash_only<T: Pieces<RB>, const RB: usize, const GCM: bool, const N: usize>(
    t: T,
    s: &mut HashState<T::Reg>,
    data: &InOut<'_>,
    pw: &Powers<T::Reg, BIG>,
    start: usize,
) {
    let group = RB * N;
    let end = groups_end::<RB, N>(data.len(), start);
    // The state in a local, so it stays in a register, and the powers
    // where the tier wants them (see `engine::hash_output`); the state is
    // stored back at the end.
    let mut state = *s;
    let mut copy = None;
    let pw = loop_powers::<T, RB>(pw, &mut copy);
    let mut offset = start;
    while offset < end {
        let x = load_group(t, data.input_regs::<RB, N>(offset));
        state = hash_regs::<T, RB, GCM, 3, N, ALONE>(t, &state, &x, pw);
        offset += group;
    }
    *s = state;
}

/// A register as a block.
#[inline(always)]
fn block_store(_t: AesNiClmul, v: __m128i) -> Block {
    // SAFETY: `_t` proves the AES-NI tier's features.
    unsafe { x86_64::store(v) }
}

// What the groups leave, on the AES-NI tier's pieces, out of line and
// compiled for that tier alone: its rounds are `asm!` blocks in the legacy
// encoding (the tier runs on CPUs without AVX), and a legacy instruction
// that runs while the upper halves of the ymm/zmm registers are dirty costs a
// state transition or a merge on Intel cores and on Zen 3, microseconds a
// call (docs/benchmarks.md, "Legacy SSE after wide code (Intel, Zen 3)").
// A call is where LLVM puts a `vzeroupper`; inlined after the groups, those
// rounds ran dirty (and LLVM's own 32-byte moves and zeroing inside the
// inlined pieces dirtied the state again after any `vzeroupper` placed by
// hand). `scripts/sse-check.sh` proves from the machine code that no legacy
// instruction runs dirty; docs/design.md, "Legacy SSE after wide code".
// Here, not in `aesni/gcm.rs` or `aesni/siv.rs`: in this module's codegen
// unit each wrapper gets its own copy of the piece it calls, which LLVM
// inlines into it, while the AES-NI tier's entry points keep theirs inlined
// too.
/// `aesni::gcm::seal_from` (`SEAL`) or `open_from`, after the groups,
/// from the counter block `ctr` (public: the nonce and the block
/// position). It comes in general registers, not in `s`: the tail
/// branches on its low byte (`counter_blocks`), and
/// `scripts/ct-check.sh` treats a vector loaded from memory as secret.
#[inline(never)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn gcm_rest<const ROUND_KEYS: usize, const SEAL: bool>(
    s: &mut aesni::gcm::State<'_, ROUND_KEYS>,
    ctr: u128,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> Block {
    s.ctr = x86_64::from_u128(ctr);
    if SEAL {
        aesni::gcm::seal_from(s, data, start, len_block)
    } else {
        aesni::gcm::open_from(s, data, start, len_block)
    }
}

/// `siv::hash_from`, after seal's hash groups (the tag is AES rounds too).
#[inline(never)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
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
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn siv_seal_rest<const ROUND_KEYS: usize>(
    s: &mut siv::State<ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
) {
    siv::seal_from(s, data, start);
}

/// `siv::open_from`, after open's groups.
#[inline(never)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn siv_open_rest<const ROUND_KEYS: usize>(
    s: &mut siv::State<ROUND_KEYS>,
    data: &mut InOut<'_>,
    start: usize,
    len_block: u128,
) -> __m128i {
    siv::open_from(s, data, start, len_block)
}

/// The register-class pieces of a VAES tier, which differ between the
/// tiers only in the register class (`ymm_reg`, `zmm_reg`) and the
/// broadcast instruction (`vbroadcasti128`, `vbroadcasti32x4`): the AES
/// rounds as `asm!` blocks and the broadcast of a block into every lane;
/// and the tier's AEGIS kernel, which differs only in its feature list.
/// Expanded once in each tier file, with the tier's feature list (each
/// function's `#[target_feature]`), register type (a round key in every
/// lane is a register too), register class and broadcast instruction given
/// in the call; every other name it uses is a full path, but for `Token`,
/// the tier file's alias of its feature token. A macro because `asm!` takes
/// the register class only as a literal token. What each piece is for:
/// `engine::Pieces`.
macro_rules! vaes_register_pieces {
    (
        features = $features:literal,
        reg = $Reg:ty,
        class = $class:ident,
        broadcast = $broadcast:literal $(,)?
    ) => {
        /// One AES round on a group with round key `*k` (16 bytes), as one
        /// `asm!` block that broadcasts the key and runs the rounds. With
        /// intrinsics, LLVM regrouped the rounds into one or two long chains
        /// (both AES units need eight); broadcast apart, every round key of
        /// the group was live at once, and spilled.
        #[inline]
        #[target_feature(enable = $features)]
        fn aes_round<B: $crate::backend::x86_64::KeyBlock, const N: usize>(b: &mut [$Reg; N], k: &B) {
            const { assert!(N == 4 || N == 8) };
            let kp = core::ptr::from_ref(k);
            if let Some(q) = b.first_chunk_mut::<8>() {
                $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg; 0: q[0], 1: q[1], 2: q[2], 3: q[3], 4: q[4], 5: q[5], 6: q[6], 7: q[7];);
            } else if let Some(q) = b.first_chunk_mut::<4>() {
                $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg; 0: q[0], 1: q[1], 2: q[2], 3: q[3];);
            }
        }

        /// [`aes_round`] that also passes the `P` registers of `pin` (1, 3
        /// or 4) through its `asm!` block unchanged, so that the work on
        /// them stays between the rounds (`engine::Pieces::aes_round_pinned`).
        #[inline]
        #[target_feature(enable = $features)]
        fn aes_round_pinned<B: $crate::backend::x86_64::KeyBlock, const N: usize, const P: usize>(
            b: &mut [$Reg; N],
            k: &B,
            pin: &mut [$Reg; P],
        ) {
            const {
                assert!((N == 4 || N == 8) && (P == 1 || P == 3 || P == 4))
            };
            let kp = core::ptr::from_ref(k);
            if let Some(q) = b.first_chunk_mut::<8>() {
                if let Some([p0, p1, p2, p3]) = pin.first_chunk_mut::<4>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3], 4: q[4], 5: q[5], 6: q[6], 7: q[7];
                        8: *p0, 9: *p1, 10: *p2, 11: *p3);
                } else if let Some([p0, p1, p2]) = pin.first_chunk_mut::<3>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3], 4: q[4], 5: q[5], 6: q[6], 7: q[7];
                        8: *p0, 9: *p1, 10: *p2);
                } else if let Some([p0]) = pin.first_chunk_mut::<1>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3], 4: q[4], 5: q[5], 6: q[6], 7: q[7];
                        8: *p0);
                }
            } else if let Some(q) = b.first_chunk_mut::<4>() {
                if let Some([p0, p1, p2, p3]) = pin.first_chunk_mut::<4>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3]; 4: *p0, 5: *p1, 6: *p2, 7: *p3);
                } else if let Some([p0, p1, p2]) = pin.first_chunk_mut::<3>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3]; 4: *p0, 5: *p1, 6: *p2);
                } else if let Some([p0]) = pin.first_chunk_mut::<1>() {
                    $crate::backend::x86_64::aes::aes_round_asm!(vex $class, $broadcast [kp] $Reg;
                        0: q[0], 1: q[1], 2: q[2], 3: q[3]; 4: *p0);
                }
            }
        }

        /// The block `*k` (16 bytes: a round key, or H^8) in every lane. Not
        /// `pure`, so LLVM neither hoists it out of a loop nor merges two;
        /// it may still schedule it early and spill the result, so the
        /// group loops' rounds broadcast their keys themselves.
        #[inline]
        #[target_feature(enable = $features)]
        fn broadcast_block<B: $crate::backend::x86_64::KeyBlock>(k: &B) -> $Reg {
            let out: $Reg;
            // SAFETY: reads the first 16 bytes of `*k`, the block
            // (`KeyBlock`), into a register; no other memory, no stack, no
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

        /// AEGIS on this tier: `backend::aegis::seal_or_open` with the state
        /// words in `L` (`backend/x86_64/aegis.rs`: `Xmm<1>` for the one-lane
        /// variants, VEX-encoded here; `Ymm` or `Zmm` for X2 and X4, as
        /// `backend::aegis_dispatch!` names them), compiled with the tier's
        /// features.
        #[target_feature(enable = $features)]
        pub(crate) fn aegis<
            const SEAL: bool,
            L: $crate::backend::aegis::Lanes<WB> + From<Token>,
            const WB: usize,
            const S: usize,
            const W: usize,
            const KB: usize,
            const T: usize,
        >(
            token: Token,
            key: &[$crate::block::Block; KB],
            nonce: &[$crate::block::Block; KB],
            aad: &[u8],
            data: &mut $crate::inout::InOut<'_>,
        ) -> [u8; T] {
            $crate::backend::aegis::seal_or_open::<SEAL, L, WB, S, W, KB, T>(
                L::from(token),
                key,
                nonce,
                aad,
                data,
            )
        }
    };
}
use vaes_register_pieces;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu::{VaesAvx2, VaesAvx512};
    use crate::error::Error;
    use crate::model;

    /// A tier's token, or `None` after saying that the test is skipped for
    /// it: straight to the process's stderr, since the test harness would
    /// swallow `eprintln!` for a passing test, and a skip must show.
    fn token<T>(detected: Result<T, Error>) -> Option<T> {
        let token = detected.ok();
        if token.is_none() {
            let name = core::any::type_name::<T>();
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("skipped: this CPU has no {name} tier\n").as_bytes(),
            );
        }
        token
    }

    /// GCM seal and open of `len` bytes through the tier's `gcm_groups`
    /// with `muls` multiplies per product (big groups in pairs from the
    /// tier's `PAIRS_FROM`), against the model: (ciphertext, tag) and
    /// (plaintext, tag) as the function returns them; and seal through
    /// [`gcm`], the path callers take.
    fn groups_both_ways<T: Wide<RB>, const RB: usize, const ROUND_KEYS: usize, const KB: usize>(
        t: T,
        muls: usize,
        key: &[u8; KB],
        aad: &[u8],
        len: usize,
    ) {
        use core::mem::MaybeUninit;
        let nonce: [u8; 12] = core::array::from_fn(|i| i as u8 ^ 0x3c);
        let plain: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
        let (mut rk, mut hp) = (MaybeUninit::uninit(), MaybeUninit::uninit());
        // SAFETY: `t.aesni()` proves the AES-NI tier's features; `init_key`
        // writes both.
        let (rk, hp) = unsafe {
            aesni::gcm::init_key::<ROUND_KEYS, KB>(t.aesni(), key, &mut rk, &mut hp);
            (rk.assume_init(), hp.assume_init())
        };
        let j0 = crate::aes_gcm::pre_counter_block(&nonce);
        let len_block = crate::aes_gcm::length_block(aad.len(), len);
        let expected = model::gcm_seal(key, &nonce, aad, &plain);
        let (mut sealed, mut opened) = (vec![0u8; len], vec![0u8; len]);
        let pairs = len >= T::PAIRS_FROM;
        let seal_tag = t.gcm_groups::<ROUND_KEYS, true>(
            muls,
            pairs,
            &rk,
            &hp,
            j0,
            aad,
            &mut InOut::copy(&plain, &mut sealed),
            len_block,
        );
        let open_tag = t.gcm_groups::<ROUND_KEYS, false>(
            muls,
            pairs,
            &rk,
            &hp,
            j0,
            aad,
            &mut InOut::copy(&expected[..len], &mut opened),
            len_block,
        );
        let what = format!(
            "{}: AES-{}, {muls} multiplies, {len} bytes, AAD {}",
            core::any::type_name::<T>(),
            KB * 8,
            aad.len()
        );
        assert_eq!(sealed, expected[..len], "{what}: ciphertext");
        assert_eq!(seal_tag, expected[len..], "{what}: seal's tag");
        assert_eq!(opened, plain, "{what}: plaintext");
        assert_eq!(open_tag, expected[len..], "{what}: open's tag");
        let mut via_gcm = vec![0u8; len];
        let io = &mut InOut::copy(&plain, &mut via_gcm);
        let tag = gcm::<T, RB, ROUND_KEYS, true>(t, &rk, &hp, j0, aad, io, len_block);
        assert_eq!(via_gcm, expected[..len], "{what}: `gcm`'s ciphertext");
        assert_eq!(tag, expected[len..], "{what}: `gcm`'s tag");
    }

    /// The group loops with three multiplies per product and with the
    /// tier's `FULL_RATE_MULS` (four on AVX-512, whichever the CPU's vendor
    /// makes `gcm` pick) give the model's bytes, across big and small
    /// groups, rests on either side of AVX-512's `XMM_REST`, and counter
    /// carries.
    fn group_loops<T: Wide<RB>, const RB: usize>(t: T) {
        let lens = [
            RB * SMALL + 1,
            RB * SMALL + 32,
            RB * SMALL + 33,
            2 * RB * SMALL - 1,
            T::BIG_FROM - 1,
            T::BIG_FROM,
            T::BIG_FROM + 31,
            T::BIG_FROM + 33,
            T::BIG_FROM + RB * BIG + RB * SMALL + 255,
            4096 + 16 * 256 + 100,
            // Big groups in pairs (an even number of groups from
            // `PAIRS_FROM`): an odd group left or not, small groups and a
            // rest after them.
            T::PAIRS_FROM,
            T::PAIRS_FROM + RB * BIG,
            T::PAIRS_FROM + 2 * RB * BIG + RB * SMALL,
            T::PAIRS_FROM + 3 * RB * BIG + RB * SMALL + 17,
        ];
        for len in lens {
            for aad in [&b""[..], &[0xa5u8; 20][..]] {
                for muls in [3, T::FULL_RATE_MULS] {
                    groups_both_ways::<T, RB, 11, 16>(t, muls, &[0x42; 16], aad, len);
                    groups_both_ways::<T, RB, 15, 32>(t, muls, &[0x24; 32], aad, len);
                }
            }
        }
    }

    #[test]
    fn group_loops_match_the_model_with_either_multiply_count() {
        if let Some(t) = token(VaesAvx2::detect()) {
            group_loops(t);
        }
        if let Some(t) = token(VaesAvx512::detect()) {
            group_loops(t);
        }
    }

    /// The type of a tier's GCM key setup, `T` its token.
    type InitKey<T, const ROUND_KEYS: usize, const KB: usize> = unsafe fn(
        T,
        &[u8; KB],
        &mut core::mem::MaybeUninit<RoundKeys<ROUND_KEYS>>,
        &mut core::mem::MaybeUninit<HPowers>,
    );

    /// A wide tier's GCM key state (`init`) is the AES-NI tier's, which
    /// its own tests hold to the model: the round keys and H^1..H^8, for
    /// keys of every byte pattern below.
    fn key_setup_of<T: Wide<RB>, const RB: usize, const ROUND_KEYS: usize, const KB: usize>(
        t: T,
        init: InitKey<T, ROUND_KEYS, KB>,
    ) {
        use core::mem::MaybeUninit;
        for seed in 0..40u8 {
            let key: [u8; KB] = core::array::from_fn(|i| match seed {
                0 => 0,
                1 => 0xff,
                _ => (i as u8)
                    .wrapping_mul(seed)
                    .wrapping_add(seed.rotate_left(3)),
            });
            let (mut rk, mut hp) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (mut rk_ni, mut hp_ni) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            // SAFETY: `t` proves the tier's features, `t.aesni()` the AES-NI
            // tier's; each call writes both of its outputs.
            let (rk, hp, rk_ni, hp_ni): (
                RoundKeys<ROUND_KEYS>,
                HPowers,
                RoundKeys<ROUND_KEYS>,
                HPowers,
            ) = unsafe {
                init(t, &key, &mut rk, &mut hp);
                aesni::gcm::init_key(t.aesni(), &key, &mut rk_ni, &mut hp_ni);
                (
                    rk.assume_init(),
                    hp.assume_init(),
                    rk_ni.assume_init(),
                    hp_ni.assume_init(),
                )
            };
            assert_eq!(rk.0, rk_ni.0, "round keys, key {key:02x?}");
            assert_eq!(hp.0, hp_ni.0, "H^1..H^8, key {key:02x?}");
        }
    }

    #[test]
    fn key_setup_matches_the_aes_ni_tier() {
        if let Some(t) = token(VaesAvx2::detect()) {
            key_setup_of::<_, 32, 11, 16>(t, avx2::init_key::<11, 16>);
            key_setup_of::<_, 32, 15, 32>(t, avx2::init_key::<15, 32>);
        }
        if let Some(t) = token(VaesAvx512::detect()) {
            key_setup_of::<_, 64, 11, 16>(t, avx512::init_key::<11, 16>);
            key_setup_of::<_, 64, 15, 32>(t, avx512::init_key::<15, 32>);
        }
    }

    /// A register's bytes.
    fn reg_bytes<T: Pieces<RB>, const RB: usize>(t: T, v: T::Reg) -> [u8; RB] {
        let mut out = [0u8; RB];
        t.store_reg(&mut out, v);
        out
    }

    /// The tier's big-group powers are H^(L·8)..H^1 in register and lane
    /// order, with Karatsuba's factors beside them.
    fn group_powers_of<T: Wide<RB>, const RB: usize>(t: T) {
        let h1: Block = core::array::from_fn(|i| (i as u8).wrapping_mul(53).wrapping_add(9));
        let blocks = RB * BIG / 16;
        let mut expected = vec![h1; blocks];
        for i in 1..blocks {
            expected[i] = model::polyval_dot(&expected[i - 1], &h1);
        }
        let h: [Block; 8] = core::array::from_fn(|i| expected[i]);
        let powers = t.group_powers::<_, 3>(&h, true);
        let mut got = Vec::new();
        for (p, k) in powers.p.iter().zip(&powers.k) {
            let (pb, kb) = (reg_bytes(t, *p), reg_bytes(t, *k));
            // Karatsuba's factor: the halves of each lane's power XORed.
            for lane in 0..RB / 16 {
                for byte in 0..8 {
                    assert_eq!(
                        kb[16 * lane + byte],
                        pb[16 * lane + byte] ^ pb[16 * lane + 8 + byte]
                    );
                }
            }
            got.extend(pb.chunks(16).map(|b| Block::try_from(b).unwrap()));
        }
        for i in 0..blocks {
            assert_eq!(
                got[i],
                expected[blocks - 1 - i],
                "block {i} should be H^{}",
                blocks - i
            );
        }
    }

    #[test]
    fn group_powers_match_the_model() {
        if let Some(t) = token(VaesAvx2::detect()) {
            group_powers_of(t);
        }
        if let Some(t) = token(VaesAvx512::detect()) {
            group_powers_of(t);
        }
    }

    /// The tier's counter registers (`counters_group`) hold the AES-NI
    /// tier's counter blocks, in order, and its whitened ones
    /// (`whitened_counters`) those blocks XORed with the key block: for big
    /// and small groups, from every low byte 0 to 0x102 (2 modulo 32 and
    /// not, with and without a carry out of it within the group) and
    /// across the 32-bit counter's wrap.
    fn counters_of<T: Wide<RB>, const RB: usize, const N: usize>(t: T) {
        let k0: Block = core::array::from_fn(|i| (i as u8).wrapping_mul(37) ^ 0xc3);
        let starts =
            (0u32..=0x102).chain([0x1e2, 0xffff_ffe2, 0xffff_fff0, 0xffff_fff8, 0xffff_ffff]);
        for start in starts {
            for gcm in [true, false] {
                let mut j = [0x5au8; 16];
                if gcm {
                    j[12..].copy_from_slice(&start.to_be_bytes());
                } else {
                    j[..4].copy_from_slice(&start.to_le_bytes());
                }
                // SAFETY: `t.aesni()` proves the AES-NI tier's features.
                let c = unsafe {
                    let x = x86_64::load(&j);
                    if gcm {
                        x86_64::clmul::byte_reverse(x)
                    } else {
                        x
                    }
                };
                let (mut c1, mut c2, mut c3) = (c, c, c);
                let (plain, whitened): ([T::Reg; N], [T::Reg; N]) = if gcm {
                    (
                        t.counters_group::<true, N>(&mut c1),
                        t.whitened_counters::<Block, true, N>(&mut c3, &k0),
                    )
                } else {
                    (
                        t.counters_group::<false, N>(&mut c1),
                        t.whitened_counters::<Block, false, N>(&mut c3, &k0),
                    )
                };
                let bytes = |regs: [T::Reg; N]| -> Vec<u8> {
                    regs.iter().flat_map(|r| reg_bytes(t, *r)).collect()
                };
                let mut narrow = Vec::new();
                for _ in 0..N * RB / 128 {
                    // SAFETY: `t.aesni()` proves the AES-NI tier's features.
                    let eight: [u8; 128] = unsafe {
                        if gcm {
                            x86_64::store_blocks(&aesni::ctr::counter_blocks::<true, 8>(&mut c2))
                        } else {
                            x86_64::store_blocks(&aesni::ctr::counter_blocks::<false, 8>(&mut c2))
                        }
                    };
                    narrow.extend(eight);
                }
                let narrow_whitened: Vec<u8> = narrow
                    .iter()
                    .zip(k0.iter().cycle())
                    .map(|(c, k)| c ^ k)
                    .collect();
                // SAFETY: as above.
                let next = unsafe { [x86_64::store(c1), x86_64::store(c2), x86_64::store(c3)] };
                assert_eq!(next[0], next[1], "next counter, start {start:#x}");
                assert_eq!(
                    next[2], next[1],
                    "next counter (whitened), start {start:#x}"
                );
                assert_eq!(
                    bytes(plain),
                    narrow,
                    "start {start:#x}, gcm {gcm}, {N} registers"
                );
                assert_eq!(
                    bytes(whitened),
                    narrow_whitened,
                    "whitened, start {start:#x}, gcm {gcm}, {N} registers"
                );
            }
        }
    }

    #[test]
    fn group_counters_match_the_128_bit_ones_across_carries() {
        if let Some(t) = token(VaesAvx2::detect()) {
            counters_of::<_, 32, BIG>(t);
            counters_of::<_, 32, SMALL>(t);
        }
        if let Some(t) = token(VaesAvx512::detect()) {
            counters_of::<_, 64, BIG>(t);
            counters_of::<_, 64, SMALL>(t);
        }
    }
}
