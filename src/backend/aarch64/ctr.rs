//! Counter mode with the universal hash stitched in: the ARMv8 tier's engine,
//! shared by AES-GCM (`gcm.rs`) and AES-GCM-SIV (`siv.rs`). It has the
//! functions and contracts of `backend/x86_64/aesni/ctr.rs`; the loops
//! differ where the instructions do (no pinned rounds; two paths chosen at
//! run time, the `EOR3` path with schoolbook multiplies and the plain path
//! with Karatsuba, see `clmul::mul_acc2`; counters built with scalar
//! instructions, see [`CounterGroup`]; docs/design.md,
//! "aarch64 (ARMv8 AES + PMULL) (`backend/aarch64/`)").
//!
//! The two modes differ in two conventions, selected by `const GCM: bool`:
//!
//! | | GCM (`true`) | GCM-SIV (`false`) |
//! |---|---|---|
//! | counter | last 4 bytes, big-endian (inc32) | first 4 bytes, little-endian |
//! | hash input | each block byte-reversed (GHASH as POLYVAL) | each block as it is |
//!
//! Both counters wrap modulo 2^32 and leave the other 96 bits alone. The counter
//! register `ctr` is kept so that a 32-bit lane add is exactly that increment:
//! for GCM it holds the counter block with the bytes of each 32-bit word
//! reversed (`REV32`), so lane 3 is the counter as a native integer and `REV32`
//! of `ctr + i` is the i-th block; for GCM-SIV it holds the block itself, whose
//! lane 0 is already the little-endian counter.
//!
//! Loop shapes, per 128-byte group (`GROUP`), one reduction per group:
//! - [`ctr_hash_output`]: the AES rounds of group i with the multiplies of the
//!   output of group i − 1 (GCM seal, GCM-SIV open);
//! - [`ctr_hash_input`]: the AES rounds of group i with the multiplies of the
//!   input of group i (GCM open);
//! - [`ctr_only`]: AES only (GCM-SIV seal, whose hash ran in a first pass).
//!
//! Every loop covers whole groups; [`tail`] handles the last 0..127 bytes.

use crate::backend::tail_mode::TailMode;
use core::arch::aarch64::*;

use zeroize::Zeroize;

use super::aes::{encrypt_blocks_inline, expand_key_regs};
use super::clmul::{byte_reverse, fold_blocks, fold_blocks_inline, karatsuba_factors, swap, xor3};
use super::{from_u128, load, load_blocks, store_blocks, store_blocks_to, store_each, zero};
use crate::block::{HPowers, wipe};
use crate::cpu::Armv8;
use crate::inout::{InOut, padded_block_value};

/// Bytes per bulk iteration: eight blocks.
pub(super) const GROUP: usize = 128;

/// Eight AES encryptions (the keystream of one group) with, between their
/// rounds, the eight multiplies of `$x` (blocks as [`for_group_hash`] gives
/// them; `$acc` is added to `$x[0]`), two blocks' products added at once
/// (`clmul::mul_acc2`: the `EOR3` path where `$eor3` says so; `$hk` holds
/// the plain path's Karatsuba factors, [`power_pair_factors`]). Evaluates
/// to the eight blocks after their last `AESE` (the caller XORs in the last
/// round key and the data: [`xor_last_round`]) and the new, reduced
/// accumulator.
///
/// The group runs as two halves of four blocks, one after the other, each
/// with two pairs of multiplies among its rounds (after its second and its
/// fifth). In llvm-mca's Neoverse N1 model, which runs the plain path, the
/// 128-entry reorder buffer is full most cycles and V0 alone runs `AESE`,
/// `AESMC` and `PMULL`, so every other operation the model sends to V0
/// costs the loop a cycle: with eight-block rounds V0 takes 11 of the fused
/// seal group's XORs, shuffles and spill stores, in halves 6 (the model's
/// choice; why the order changes it is not known), so in halves the
/// modelled AES-256-GCM seal takes fewer cycles a block
/// (`scripts/aarch64-model.sh`;
/// docs/measurements/2026-11-26-aarch64-model/tables.md). On N2, V1 and V2
/// (the EOR3 path) the halves model the same or a little faster. The two
/// halves are independent, so an out-of-order core can still overlap one
/// half's last rounds with the other's first.
///
/// The plain path reduces by shifts (`clmul::reduce_by_shifts`), the EOR3
/// path with two multiplies (`clmul::reduce`).
///
/// Where `$swapped` (GCM on the EOR3 path) the blocks come with their halves
/// swapped: the powers are taken swapped too, `acc` is swapped to match, and
/// the sum's low and high products exchanged before the reduction
/// (`Unreduced::halves_exchanged`). LLVM swaps the powers once, before the
/// loop.
///
/// The stitched body of both hashing loops. A macro, not a function, for the
/// reason given at `aes::encrypt_blocks_inline!`: as a call (LLVM will not
/// inline it), each group would pass its blocks, round keys and powers through
/// the stack.
macro_rules! aes_hash_group {
    ($eor3:ident, $swapped:expr; $rk:expr, $blocks:expr, $x:expr, $acc:expr, $h:expr, $hk:expr) => {{
        use core::arch::aarch64::{vaeseq_u8, veorq_u8};
        use $crate::backend::aarch64::clmul::{karatsuba_finished, mul_acc2, mul2_first, reduce, reduce_by_shifts, swap};
        let (rk, x, h_given, hk): (&[_], &[_; 8], &[_; 8], &[_; 4]) = ($rk, $x, $h, $hk);
        let mut h = *h_given;
        let mut acc = $acc;
        if $swapped {
            for p in h.iter_mut() {
                *p = swap(*p);
            }
            acc = swap(acc);
        }
        let blocks: [_; 8] = $blocks;
        // ROUND_KEYS - 2 >= 9 AESE+AESMC rounds (the callers assert
        // ROUND_KEYS >= 11), then one AESE. Blocks 7 and 6 (by H^1, H^2) are
        // multiplied first, down to blocks 1 and 0 (by H^7, H^8): block 0
        // waits on `acc`, so it comes last. Written out, round by round: as
        // loops, LLVM kept them loops once the multiplies held `asm!` blocks
        // (`clmul::clmul_lo`), which its unrolling threshold prices high.
        let nk = rk.len();
        let mut a = [blocks[0], blocks[1], blocks[2], blocks[3]];
        let mut b = [blocks[4], blocks[5], blocks[6], blocks[7]];
        $crate::backend::aarch64::ctr::round_if_below!(a, rk, nk - 2; 0 1);
        let mut w = mul2_first::<$eor3>(x[7], h[0], x[6], h[1], hk[0]);
        $crate::backend::aarch64::ctr::round_if_below!(a, rk, nk - 2; 2 3 4);
        mul_acc2::<$eor3>(&mut w, x[5], h[2], x[4], h[3], hk[1]);
        $crate::backend::aarch64::ctr::round_if_below!(a, rk, nk - 2; 5 6 7 8 9 10 11 12);
        for v in a.iter_mut() {
            *v = vaeseq_u8(*v, rk[nk - 2]);
        }
        $crate::backend::aarch64::ctr::round_if_below!(b, rk, nk - 2; 0 1);
        mul_acc2::<$eor3>(&mut w, x[3], h[4], x[2], h[5], hk[2]);
        $crate::backend::aarch64::ctr::round_if_below!(b, rk, nk - 2; 2 3 4);
        mul_acc2::<$eor3>(&mut w, x[1], h[6], veorq_u8(x[0], acc), h[7], hk[3]);
        $crate::backend::aarch64::ctr::round_if_below!(b, rk, nk - 2; 5 6 7 8 9 10 11 12);
        for v in b.iter_mut() {
            *v = vaeseq_u8(*v, rk[nk - 2]);
        }
        if !$eor3 {
            w = karatsuba_finished(w);
        }
        if $swapped {
            w = w.halves_exchanged();
        }
        let reduced = if $eor3 { reduce::<$eor3>(w) } else { reduce_by_shifts(w) };
        ([a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]], reduced)
    }};
}

/// Round `i` of `$blocks` for each listed `i` below `$end` (a constant once
/// inlined, so the conditions fold away).
macro_rules! round_if_below {
    ($blocks:ident, $rk:ident, $end:expr; $($i:literal)*) => {$(
        if $i < $end {
            for b in $blocks.iter_mut() {
                *b = $crate::backend::aarch64::aes::round(*b, $rk[$i]);
            }
        }
    )*};
}
pub(super) use round_if_below;

/// The part of a tail after its keystream, as `x86_64/aesni/ctr.rs`'s macro of
/// the same name: `$ks` XORed with the `$rest` bytes read into `$buf`, the
/// output written, both buffers wiped, then (if `$mode::HASH`) the tail's
/// blocks and `$last` folded into `$acc`; its value is the accumulator.
/// Shared by [`tail`] and XAES's short path (`xaes.rs`) without a call.
macro_rules! xor_and_hash_tail {
    ($mode:ty, $m:expr, $b:expr, $ks:expr, $buf:expr, $rest:expr, $data:expr, $offset:expr,
     $acc:expr, $h:expr, $last:expr) => {{
        use core::arch::aarch64::{uint8x16_t, vandq_u8, vcgtq_u8, vdupq_n_u8, veorq_u8};
        use $crate::backend::aarch64::load;
        use $crate::inout::InOut;
        let (ks, buf, rest, data, offset, acc, h, last): (
            &[uint8x16_t; $m],
            &mut [u8; $b],
            usize,
            &mut InOut<'_>,
            usize,
            uint8x16_t,
            &[uint8x16_t; 8],
            uint8x16_t,
        ) = ($ks, $buf, $rest, $data, $offset, $acc, $h, $last);
        let input: [uint8x16_t; $m] = $crate::backend::aarch64::load_blocks(buf);
        let mut output = input;
        for (o, k) in output.iter_mut().zip(ks) {
            *o = veorq_u8(*o, *k);
        }
        let mut out_bytes: [u8; $b] = $crate::backend::aarch64::store_blocks(&output);
        data.write_tail(offset, &out_bytes, rest);
        // Both tails may hold plaintext (a forgery's, when opening): wipe them.
        $crate::block::wipe(buf);
        $crate::block::wipe(&mut out_bytes);
        if !<$mode as $crate::backend::tail_mode::TailMode>::HASH {
            acc
        } else {
            // The input is already zero past `rest` (the buffer was); the output
            // has keystream there, cleared in registers (byte j of block i is kept
            // when 16i + j < rest) rather than by reloading a patched buffer.
            let mut hashed = if <$mode as $crate::backend::tail_mode::TailMode>::OUTPUT {
                output
            } else {
                input
            };
            const IOTA: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
            let iota = load(&IOTA);
            for (i, x) in hashed.iter_mut().enumerate() {
                if <$mode as $crate::backend::tail_mode::TailMode>::OUTPUT {
                    let left = rest.saturating_sub(16 * i).min(16) as u8;
                    *x = vandq_u8(*x, vcgtq_u8(vdupq_n_u8(left), iota));
                }
                *x = if <$mode as $crate::backend::tail_mode::TailMode>::GCM {
                    $crate::backend::aarch64::ctr::for_hash::<true>(*x)
                } else {
                    $crate::backend::aarch64::ctr::for_hash::<false>(*x)
                };
            }
            $crate::backend::aarch64::ctr::fold_with_last(acc, &hashed, rest.div_ceil(16), last, h)
        }
    }};
}
pub(super) use xor_and_hash_tail;

/// The counter blocks of one group, kept in memory for the group loops: each
/// group loads its eight blocks ([`next_counter_group`]) and then writes the
/// next group's eight 32-bit counters over them with scalar instructions
/// (`ADD`, `REV`, `STR`), on the integer and store pipes, which the loops
/// leave idle. Built in registers, each block took a vector `ADD` and a
/// `REV32`: 16 of a group's ~330 vector operations (BoringSSL's 2026 kernels
/// build theirs with scalar instructions too). A group's rounds lie between
/// each store and the load that reads it: a 16-byte load cannot take its
/// bytes from a 4-byte store still in flight, so the layout counts on the
/// store having reached the cache by then (reasoned, not measured: no
/// aarch64 machine has run this).
#[repr(C, align(16))]
pub(super) struct CounterGroup {
    blocks: [[u8; 16]; 8],
    /// The counter of the next group's first block, as a native integer
    /// (wrapping, as inc32 does).
    next: u32,
}

/// H^1..H^8 into registers.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn load_powers(h_powers: &HPowers) -> [uint8x16_t; 8] {
    let mut h = [zero(); 8];
    for (dst, src) in h.iter_mut().zip(h_powers.0.iter()) {
        *dst = load(src);
    }
    h
}

/// A block as the hash takes it: byte-reversed for GHASH, as is for POLYVAL.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn for_hash<const GCM: bool>(x: uint8x16_t) -> uint8x16_t {
    if GCM { byte_reverse(x) } else { x }
}

/// A block as the stitched loops (`aes_hash_group!`) hash it: on the
/// EOR3 path, GCM's block is [`for_hash`]'s with its halves swapped, one
/// `REV64` (the bytes reversed within each half) where the whole reversal
/// is a `TBL`, two operations in llvm-mca's Neoverse models. The plain
/// path keeps [`for_hash`]'s form: its Karatsuba multiplies take the
/// powers as stored, and with swapped blocks they would need them
/// swapped too, which LLVM recomputed inside the loop rather than keep.
#[inline]
#[target_feature(enable = "neon,aes")]
fn for_group_hash<const GCM: bool, const EOR3: bool>(x: uint8x16_t) -> uint8x16_t {
    if GCM && EOR3 {
        vrev64q_u8(x)
    } else {
        for_hash::<GCM>(x)
    }
}

/// The counter register for the counter block `block` (see the module docs).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn counter_register<const GCM: bool>(block: uint8x16_t) -> uint8x16_t {
    if GCM { vrev32q_u8(block) } else { block }
}

/// `ctr` advanced by `n` blocks, wrapping in its 32-bit lane.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn counter_add<const GCM: bool>(ctr: uint8x16_t, n: u32) -> uint8x16_t {
    let z = vdupq_n_u32(0);
    let add = if GCM {
        vsetq_lane_u32::<3>(n, z)
    } else {
        vsetq_lane_u32::<0>(n, z)
    };
    vreinterpretq_u8_u32(vaddq_u32(vreinterpretq_u32_u8(ctr), add))
}

/// The next `N` counter blocks (see the module docs for `ctr`).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn counter_blocks<const GCM: bool, const N: usize>(
    ctr: &mut uint8x16_t,
) -> [uint8x16_t; N] {
    let mut out = [zero(); N];
    for (i, b) in out.iter_mut().enumerate() {
        // `REV32` is its own inverse: it turns the register back into a block.
        *b = counter_register::<GCM>(counter_add::<GCM>(*ctr, i as u32));
    }
    *ctr = counter_add::<GCM>(*ctr, N as u32);
    out
}

/// Karatsuba's middle factors of the power pairs (H^1, H^2), …, (H^7,
/// H^8) for `aes_hash_group!` on the plain path, computed before its loop
/// (LLVM does not hoist the `asm!` blocks that compute them). The EOR3
/// path multiplies by schoolbook and needs none.
#[inline]
#[target_feature(enable = "neon,aes")]
fn power_pair_factors<const EOR3: bool>(h: &[uint8x16_t; 8]) -> [uint8x16_t; 4] {
    let mut hk = [zero(); 4];
    if !EOR3 {
        for (i, k) in hk.iter_mut().enumerate() {
            *k = karatsuba_factors(h[2 * i], h[2 * i + 1]);
        }
    }
    hk
}

/// The counter blocks `ctr`, `ctr + 1`, …, `ctr + 7` in memory, ready for
/// [`next_counter_group`]; `ctr` advances by eight.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn counter_group<const GCM: bool>(ctr: &mut uint8x16_t) -> CounterGroup {
    let blocks: [uint8x16_t; 8] = counter_blocks::<GCM, 8>(ctr);
    let lanes = vreinterpretq_u32_u8(*ctr);
    let next = if GCM {
        vgetq_lane_u32::<3>(lanes)
    } else {
        vgetq_lane_u32::<0>(lanes)
    };
    CounterGroup {
        blocks: store_each(&blocks),
        next,
    }
}

/// The group's eight counter blocks; then the next group's counters
/// written over them (see [`CounterGroup`]). The accesses are volatile
/// so that the blocks stay in memory: LLVM would otherwise keep them in
/// registers and insert each counter with a vector instruction.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn next_counter_group<const GCM: bool>(group: &mut CounterGroup) -> [uint8x16_t; 8] {
    let mut out = [zero(); 8];
    for (o, block) in out.iter_mut().zip(group.blocks.iter()) {
        // SAFETY: `block` is a live 16-byte array, 16-byte aligned (the
        // struct is `align(16)` and each block 16 bytes): a valid read of
        // a `uint8x16_t`, which any 16 bytes are.
        *o = unsafe { core::ptr::read_volatile(block.as_ptr().cast::<uint8x16_t>()) };
    }
    for (i, block) in group.blocks.iter_mut().enumerate() {
        let n = group.next.wrapping_add(i as u32);
        // GCM's counter: the last four bytes, big-endian; GCM-SIV's: the
        // first four, little-endian (see the module docs).
        let (at, word) = if GCM { (12, n.to_be()) } else { (0, n.to_le()) };
        // SAFETY: `at + 4 <= 16` bytes into a live, exclusively borrowed
        // block; the address is 4-byte aligned (a 16-byte aligned block
        // plus 0 or 12).
        unsafe { core::ptr::write_volatile(block.as_mut_ptr().add(at).cast::<u32>(), word) };
    }
    group.next = group.next.wrapping_add(8);
    out
}

/// The hash of `bytes` zero-padded to whole blocks (GCM's `A || 0^v`,
/// GCM-SIV's padded AAD).
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn hash_padded<const GCM: bool>(
    mut acc: uint8x16_t,
    bytes: &[u8],
    h: &[uint8x16_t; 8],
) -> uint8x16_t {
    let (groups, rest) = bytes.as_chunks::<GROUP>();
    for group in groups {
        let mut x: [uint8x16_t; 8] = load_blocks(group);
        for b in x.iter_mut() {
            *b = for_hash::<GCM>(*b);
        }
        acc = fold_blocks_inline!(acc, &x, h);
    }
    // The rest (under a group) block by block, its last partial block
    // zero-padded in registers, so a short AAD (a TLS record header, 5 or
    // 13 bytes) costs one block's work, not a group's.
    if !rest.is_empty() {
        let (blocks, last) = rest.as_chunks::<16>();
        let mut x = [zero(); 8];
        for (xi, block) in x.iter_mut().zip(blocks) {
            *xi = for_hash::<GCM>(load(block));
        }
        let mut n = blocks.len();
        // `n` < 8: the rest is under a group.
        if !last.is_empty()
            && let Some(xn) = x.get_mut(n)
        {
            *xn = for_hash::<GCM>(from_u128(padded_block_value(last)));
            n += 1;
        }
        acc = fold_blocks(acc, &x[..n], h);
    }
    acc
}

/// The hash of the input of `data` from `start` (a multiple of `GROUP`) to
/// the end, zero-padded to whole blocks.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn hash_input<const GCM: bool>(
    mut acc: uint8x16_t,
    data: &InOut<'_>,
    start: usize,
    h: &[uint8x16_t; 8],
) -> uint8x16_t {
    let bulk = start + (data.len() - start) / GROUP * GROUP;
    let mut offset = start;
    while offset < bulk {
        let mut x: [uint8x16_t; 8] = load_blocks(data.input::<GROUP>(offset));
        for b in x.iter_mut() {
            *b = for_hash::<GCM>(*b);
        }
        acc = fold_blocks_inline!(acc, &x, h);
        offset += GROUP;
    }
    let mut buf = [0u8; GROUP];
    let rest = data.read_tail(offset, &mut buf);
    if rest > 0 {
        let mut x: [uint8x16_t; 8] = load_blocks(&buf);
        for b in x.iter_mut() {
            *b = for_hash::<GCM>(*b);
        }
        acc = fold_blocks(acc, &x[..rest.div_ceil(16)], h);
    }
    wipe(&mut buf);
    acc
}

/// Reads the group at `offset`, XORs the keystream, writes it, and returns
/// the output.
#[inline]
#[target_feature(enable = "neon,aes")]
fn xor_group(data: &mut InOut<'_>, offset: usize, ks: &[uint8x16_t; 8]) -> [uint8x16_t; 8] {
    let mut c: [uint8x16_t; 8] = load_blocks(data.input::<GROUP>(offset));
    for (c, k) in c.iter_mut().zip(ks) {
        *c = veorq_u8(*c, *k);
    }
    store_blocks_to(data.output::<GROUP>(offset), &c);
    c
}

/// A stitched group's input (loaded before its rounds) with the last
/// round key XORed in on the plain path: there these eight XORs then
/// issue beside the AES rounds, on the pipe the rounds leave free,
/// instead of in a burst after them (in llvm-mca's N1 model that burst
/// leaves V0, which alone runs the rounds, idle:
/// docs/measurements/2026-11-26-aarch64-model/tables.md).
/// The EOR3 path adds the key in [`xor_last_round`]'s `EOR3`.
#[inline]
#[target_feature(enable = "neon,aes")]
fn add_last_key<const EOR3: bool>(input: &mut [uint8x16_t; 8], k_last: uint8x16_t) {
    if !EOR3 {
        for x in input.iter_mut() {
            *x = veorq_u8(*x, k_last);
        }
    }
}

/// A stitched group's output, in place of `blocks` (after their last
/// `AESE`): XORed with the input and the last round key as
/// [`add_last_key`] left them (one [`xor3`] on the EOR3 path, one `EOR`
/// on the plain path).
#[inline]
#[target_feature(enable = "neon,aes")]
fn xor_last_round<const EOR3: bool>(
    blocks: &mut [uint8x16_t; 8],
    input: &[uint8x16_t; 8],
    k_last: uint8x16_t,
) {
    for (b, x) in blocks.iter_mut().zip(input) {
        *b = if EOR3 {
            xor3::<EOR3>(*x, *b, k_last)
        } else {
            veorq_u8(*b, *x)
        };
    }
}

/// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
/// hashing the output: the output of each group is hashed during the AES of
/// the next. Returns the accumulator and the end of the last whole group.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn ctr_hash_output<const ROUND_KEYS: usize, const GCM: bool, const EOR3: bool>(
    rk: &[uint8x16_t; ROUND_KEYS],
    h: &[uint8x16_t; 8],
    ctr: &mut uint8x16_t,
    mut acc: uint8x16_t,
    data: &mut InOut<'_>,
    start: usize,
) -> (uint8x16_t, usize) {
    const { assert!(ROUND_KEYS >= 11) };
    let bulk = start + (data.len() - start) / GROUP * GROUP;
    if bulk == start {
        return (acc, bulk);
    }
    let hk = power_pair_factors::<EOR3>(h);
    let mut counters = counter_group::<GCM>(ctr);
    let mut ks = next_counter_group::<GCM>(&mut counters);
    encrypt_blocks_inline!(rk, &mut ks);
    let mut prev = xor_group(data, start, &ks);
    for p in prev.iter_mut() {
        *p = for_group_hash::<GCM, EOR3>(*p);
    }
    let mut offset = start + GROUP;
    while offset < bulk {
        let blocks = next_counter_group::<GCM>(&mut counters);
        let mut input: [uint8x16_t; 8] = load_blocks(data.input::<GROUP>(offset));
        add_last_key::<EOR3>(&mut input, rk[ROUND_KEYS - 1]);
        let (mut ks, sum) = aes_hash_group!(EOR3, GCM && EOR3; rk, blocks, &prev, acc, h, &hk);
        acc = sum;
        xor_last_round::<EOR3>(&mut ks, &input, rk[ROUND_KEYS - 1]);
        store_blocks_to(data.output::<GROUP>(offset), &ks);
        for c in ks.iter_mut() {
            *c = for_group_hash::<GCM, EOR3>(*c);
        }
        prev = ks;
        offset += GROUP;
    }
    *ctr = counter_add::<GCM>(*ctr, ((bulk - start) / 16 - 8) as u32);
    if GCM && EOR3 {
        for p in prev.iter_mut() {
            *p = swap(*p);
        }
    }
    (fold_blocks_inline!(acc, &prev, h), bulk)
}

/// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
/// hashing the input: each group's input is hashed during its own AES.
/// Returns the accumulator and the end of the last whole group.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn ctr_hash_input<const ROUND_KEYS: usize, const GCM: bool, const EOR3: bool>(
    rk: &[uint8x16_t; ROUND_KEYS],
    h: &[uint8x16_t; 8],
    ctr: &mut uint8x16_t,
    mut acc: uint8x16_t,
    data: &mut InOut<'_>,
    start: usize,
) -> (uint8x16_t, usize) {
    const { assert!(ROUND_KEYS >= 11) };
    let bulk = start + (data.len() - start) / GROUP * GROUP;
    if bulk == start {
        return (acc, bulk);
    }
    let hk = power_pair_factors::<EOR3>(h);
    let mut counters = counter_group::<GCM>(ctr);
    let mut offset = start;
    while offset < bulk {
        let input: [uint8x16_t; 8] = load_blocks(data.input::<GROUP>(offset));
        let mut hashed = input;
        for b in hashed.iter_mut() {
            *b = for_group_hash::<GCM, EOR3>(*b);
        }
        let mut keyed = input;
        add_last_key::<EOR3>(&mut keyed, rk[ROUND_KEYS - 1]);
        let blocks = next_counter_group::<GCM>(&mut counters);
        let (mut ks, sum) = aes_hash_group!(EOR3, GCM && EOR3; rk, blocks, &hashed, acc, h, &hk);
        acc = sum;
        xor_last_round::<EOR3>(&mut ks, &keyed, rk[ROUND_KEYS - 1]);
        store_blocks_to(data.output::<GROUP>(offset), &ks);
        offset += GROUP;
    }
    *ctr = counter_add::<GCM>(*ctr, ((bulk - start) / 16 - 8) as u32);
    (acc, bulk)
}

/// CTR over the whole groups of `data` from `start` (a multiple of `GROUP`),
/// no hash. Returns the end of the last whole group.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn ctr_only<const ROUND_KEYS: usize, const GCM: bool>(
    rk: &[uint8x16_t; ROUND_KEYS],
    ctr: &mut uint8x16_t,
    data: &mut InOut<'_>,
    start: usize,
) -> usize {
    let bulk = start + (data.len() - start) / GROUP * GROUP;
    if bulk == start {
        return bulk;
    }
    let mut counters = counter_group::<GCM>(ctr);
    let mut offset = start;
    while offset < bulk {
        let mut ks = next_counter_group::<GCM>(&mut counters);
        encrypt_blocks_inline!(rk, &mut ks);
        xor_group(data, offset, &ks);
        offset += GROUP;
    }
    *ctr = counter_add::<GCM>(*ctr, ((bulk - start) / 16 - 8) as u32);
    bulk
}

/// CTR over the last `data.len() - offset` (< `B` = 16·`M`) bytes, with one
/// more block, `extra`, encrypted in the same batch (GCM's J0). Then, if
/// `Mode::HASH`, folds the tail's blocks — its output if `Mode::OUTPUT`, else its input
/// — zero-padded, and `last` (the length block) into `acc`.
///
/// Returns the accumulator and E(K, `extra`).
#[inline]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "neon,aes")]
pub(super) fn tail<const ROUND_KEYS: usize, Mode: TailMode, const M: usize, const B: usize>(
    rk: &[uint8x16_t; ROUND_KEYS],
    mut ctr: uint8x16_t,
    data: &mut InOut<'_>,
    offset: usize,
    extra: uint8x16_t,
    acc: uint8x16_t,
    h: &[uint8x16_t; 8],
    last: uint8x16_t,
) -> (uint8x16_t, uint8x16_t) {
    let mut buf = [0u8; B];
    let rest = data.read_tail(offset, &mut buf);

    let mut ks: [uint8x16_t; M] = if Mode::GCM {
        counter_blocks::<true, M>(&mut ctr)
    } else {
        counter_blocks::<false, M>(&mut ctr)
    };
    let mut extra = [extra];
    encrypt_blocks_inline!(rk, &mut extra);
    encrypt_blocks_inline!(rk, &mut ks);

    let acc = xor_and_hash_tail!(Mode, M, B, &ks, &mut buf, rest, data, offset, acc, h, last);
    (acc, extra[0])
}

/// Folds `x[..n]` (n ≤ 8) and then `last` into `acc`, with one reduction
/// when they fit in eight blocks.
#[inline]
#[target_feature(enable = "neon,aes")]
pub(super) fn fold_with_last<const M: usize>(
    acc: uint8x16_t,
    x: &[uint8x16_t; M],
    n: usize,
    last: uint8x16_t,
    h: &[uint8x16_t; 8],
) -> uint8x16_t {
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
        fold_blocks_inline!(acc, &all[..n + 1], h)
    } else {
        let acc = fold_blocks_inline!(acc, &x[..n], h);
        fold_blocks_inline!(acc, &[last], h)
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

/// The random generator's AES-256-CTR keystream (`random.rs`, through `backend::keystream`), as on x86_64:
/// counter blocks 0, 1, 2, … (the counter little-endian in the first 32
/// bits, the rest zero) under `key`; blocks 0 and 1 into `next`, the rest
/// into `out`. The expanded key and the staging buffers are wiped before
/// returning.
#[cfg_attr(not(feature = "getrandom"), allow(dead_code))]
#[target_feature(enable = "neon,aes")]
pub(crate) fn keystream(_token: Armv8, key: &[u8; 32], next: &mut [u8; 32], out: &mut [u8]) {
    let mut rk = expand_key_regs::<15, 32, 0>(key, &mut []);
    let mut ctr = zero();
    let mut first: [uint8x16_t; 2] = counter_blocks::<false, 2>(&mut ctr);
    encrypt_blocks_inline!(&rk, &mut first);
    *next = store_blocks(&first);
    let (chunks, rest) = out.as_chunks_mut::<128>();
    for chunk in chunks {
        let mut ks: [uint8x16_t; 8] = counter_blocks::<false, 8>(&mut ctr);
        encrypt_blocks_inline!(&rk, &mut ks);
        store_blocks_to(chunk, &ks);
    }
    if !rest.is_empty() {
        let mut ks: [uint8x16_t; 8] = counter_blocks::<false, 8>(&mut ctr);
        encrypt_blocks_inline!(&rk, &mut ks);
        let mut buf: [u8; 128] = store_blocks(&ks);
        rest.copy_from_slice(&buf[..rest.len()]);
        buf.zeroize();
        ks.zeroize();
    }
    first.zeroize();
    rk.zeroize();
}
