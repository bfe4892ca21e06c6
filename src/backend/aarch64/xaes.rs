//! XAES-256-GCM's key derivation on ARMv8 AES + PMULL.
//!
//! Contracts of [`cmac_subkey`], [`derive_key`] and [`gcm_short`]: those of `x86_64/aesni/xaes.rs`.

use crate::backend::tail_mode::Gcm;
use core::arch::aarch64::*;

use zeroize::Zeroize;

use super::aes::{encrypt_blocks_inline, load_round_keys};
use super::clmul::byte_reverse;
use super::ctr::{counter_add, counter_blocks, counter_register, hash_padded, xor_and_hash_tail};
use super::{from_u128, load, store, store_each, zero};
use crate::backend::xaes::{MessageKey, SHORT_MAX, T_TAILS, X0_HEAD};
use crate::block::{Block, RoundKeys};
use crate::cpu::Armv8;
use crate::inout::InOut;

/// The per-message AES-256-GCM key in registers, as `(round keys, powers)`:
/// the steps of `x86_64/aesni/xaes.rs`'s `derive_regs!` (`riders` ride Kₓ's
/// schedule, the first the zero block that becomes H), a macro for the same
/// reason. Expand it only inside a function compiled for the tier
/// (`#[target_feature(enable = "neon,aes")]`).
macro_rules! derive_regs {
    ($COMMIT:expr, $keys:expr, $k1:expr, $nonce:expr, $powers_count:expr, $riders:expr) => {{
        use core::arch::aarch64::{veorq_u8, vorrq_u8};
        use $crate::backend::aarch64::aes::{
            encrypt_blocks_inline, expand_256_regs, expand_regs_riding, load_round_keys,
        };
        use $crate::backend::aarch64::clmul::{byte_reverse, mul_x, powers, powers_upto};
        use $crate::backend::aarch64::xaes::{commit_inputs, nonce_first_half};
        use $crate::backend::aarch64::{from_u128, load, zero};
        use $crate::backend::xaes::M_HEADS;
        use $crate::block::{Block, RoundKeys};
        use zeroize::Zeroize;
        let (keys, k1, nonce, powers_count): (&RoundKeys<15>, &Block, &[u8; 24], usize) =
            ($keys, $k1, $nonce, $powers_count);
        let riders = $riders;
        let rk = load_round_keys(keys);
        let k1 = load(k1);
        let first_half = nonce_first_half(nonce);
        let mut kx = M_HEADS.map(|h| veorq_u8(vorrq_u8(first_half, from_u128(h)), k1));
        // KC-XAES: the commitment's last batch beside Kₓ's schedule, as on
        // x86_64 (`commit_inputs`); zero and unused without `COMMIT`.
        let mut commitment = [zero(); 2];
        let kx_keys = if $COMMIT {
            commitment = commit_inputs(&rk, k1, &mut kx, first_half, nonce);
            expand_256_regs(kx[0], kx[1], riders, &rk, &mut commitment)
        } else {
            encrypt_blocks_inline!(&rk, &mut kx);
            expand_regs_riding::<15, _>(kx[0], kx[1], riders)
        };
        let h1 = mul_x(byte_reverse(riders[0]));
        let p = if powers_count >= 8 {
            powers(h1)
        } else {
            powers_upto(h1, powers_count)
        };
        kx.zeroize();
        (kx_keys, p, commitment)
    }};
}

/// CMAC's subkey K1 from K's round keys (NIST SP 800-38B §6.1), the
/// spec's steps 1 and 2: "L = AES-256ₖ(0x00, ..., 0x00)"; "If MSB₁(L) = 0,
/// then K1 = L << 1; Else K1 = (L << 1) ⊕ (0x00, ..., 0x00, 0b10000111)".
/// CMAC reads a block as a big-endian bit string, so MSB₁ is bit 7 of byte
/// 0; the conditional XOR is a mask made from that bit, not a branch.
#[target_feature(enable = "neon,aes")]
pub(crate) fn cmac_subkey(_token: Armv8, keys: &RoundKeys<15>) -> Block {
    let rk = load_round_keys(keys);
    let mut l = [zero()];
    encrypt_blocks_inline!(&rk, &mut l);
    let mut l_bytes = store(l[0]);
    let mut value = u128::from_be_bytes(l_bytes);
    let top_bit_mask = 0u128.wrapping_sub(value >> 127);
    let k1 = ((value << 1) ^ (top_bit_mask & 0x87)).to_be_bytes();
    l.zeroize();
    l_bytes.zeroize();
    value.zeroize();
    k1
}

/// `[0; 4] ‖ N[:12]`, as `x86_64/aesni/xaes.rs`'s `nonce_first_half`.
#[inline]
#[target_feature(enable = "neon,aes")]
fn nonce_first_half(nonce: &[u8; 24]) -> uint8x16_t {
    let [first @ .., _, _, _, _, _, _, _, _] = nonce;
    vextq_u8::<12>(zero(), load(first))
}

/// `N[12:] ‖ [0; 4]`, as `x86_64/aesni/xaes.rs`'s `nonce_second_half`.
#[inline]
#[target_feature(enable = "neon,aes")]
fn nonce_second_half(nonce: &[u8; 24]) -> uint8x16_t {
    let [_, _, _, _, _, _, _, _, last @ ..] = nonce;
    vextq_u8::<4>(load(last), zero())
}

/// KC-XAES-256-GCM's commitment up to its last batch, as
/// `x86_64/aesni/xaes.rs`'s `commit_inputs`: Kₓ's blocks and X =
/// AES-256ₖ("XCMT" ‖ N\[:12\]) in one batch; returns X ⊕ Tᵢ ⊕ K1.
#[inline]
#[target_feature(enable = "neon,aes")]
fn commit_inputs(
    rk: &[uint8x16_t; 15],
    k1: uint8x16_t,
    kx: &mut [uint8x16_t; 2],
    first_half: uint8x16_t,
    nonce: &[u8; 24],
) -> [uint8x16_t; 2] {
    let mut first = [kx[0], kx[1], vorrq_u8(first_half, from_u128(X0_HEAD))];
    encrypt_blocks_inline!(rk, &mut first);
    *kx = [first[0], first[1]];
    let x_k1 = veorq_u8(first[2], k1);
    let second_half = nonce_second_half(nonce);
    first.zeroize();
    T_TAILS.map(|t| veorq_u8(x_k1, vorrq_u8(second_half, from_u128(t))))
}

/// The per-message AES-256-GCM key into `out`, with all eight powers
/// (and with `COMMIT` the commitment); see the module contract and
/// `derive_regs!`.
#[target_feature(enable = "neon,aes")]
pub(crate) fn derive_key<const COMMIT: bool>(
    _token: Armv8,
    keys: &RoundKeys<15>,
    k1: &Block,
    nonce: &[u8; 24],
    out: &mut MessageKey,
    commitment: &mut [Block; 2],
) {
    let mut riders = [zero()];
    let (mut kx_keys, mut p, mut kc) = derive_regs!(COMMIT, keys, k1, nonce, 8, &mut riders);
    riders.zeroize();
    for (dst, src) in out.round_keys.0.iter_mut().zip(&kx_keys) {
        *dst = store(*src);
    }
    for (dst, src) in out.h_powers.0.iter_mut().zip(&p) {
        *dst = store(*src);
    }
    kx_keys.zeroize();
    p.zeroize();
    if COMMIT {
        *commitment = store_each(&kc);
    }
    kc.zeroize();
}

/// XAES-256-GCM seal (`SEAL`) or open of a message of at most
/// `SHORT_MAX` bytes with the derived key in registers, as
/// `x86_64/aesni/xaes.rs`'s `gcm_short`: the message's counter blocks and J0
/// ride Kₓ's schedule beside H's zero block, then the AAD's GHASH, the
/// XOR, the GHASH of the ciphertext and the length block, the tag.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "neon,aes")]
pub(crate) fn gcm_short<const SEAL: bool, const COMMIT: bool>(
    _token: Armv8,
    keys: &RoundKeys<15>,
    k1: &Block,
    nonce: &[u8; 24],
    commitment: &mut [Block; 2],
    powers_count: usize,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    assert!(data.len() <= SHORT_MAX);
    // The smallest batch that holds the message (`by_tail_size!`), with
    // two more riders: H's zero block and J0.
    match data.len().div_ceil(16) {
        0..=1 => short::<SEAL, COMMIT, 1, 16, 3>(
            keys,
            k1,
            nonce,
            commitment,
            powers_count,
            j0,
            aad,
            data,
            len_block,
        ),
        2..=4 => short::<SEAL, COMMIT, 4, 64, 6>(
            keys,
            k1,
            nonce,
            commitment,
            powers_count,
            j0,
            aad,
            data,
            len_block,
        ),
        _ => short::<SEAL, COMMIT, 8, 128, 10>(
            keys,
            k1,
            nonce,
            commitment,
            powers_count,
            j0,
            aad,
            data,
            len_block,
        ),
    }
}

/// [`gcm_short`] for a message of at most `M` blocks (`B` = 16·`M`
/// bytes), with `N` = `M` + 2 riders: H's zero block, J0 and the `M`
/// counter blocks inc32(J0), inc32²(J0), ….
#[inline]
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "neon,aes")]
fn short<const SEAL: bool, const COMMIT: bool, const M: usize, const B: usize, const N: usize>(
    keys: &RoundKeys<15>,
    k1: &Block,
    nonce: &[u8; 24],
    commitment: &mut [Block; 2],
    powers_count: usize,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    const { assert!(N == M + 2) };
    let j0 = from_u128(j0);
    let mut ctr = counter_add::<true>(counter_register::<true>(j0), 1);
    let counters: [uint8x16_t; M] = counter_blocks::<true, M>(&mut ctr);
    let mut riders = [zero(); N];
    riders[1] = j0;
    riders[2..].copy_from_slice(&counters);
    let (mut kx_keys, mut h, mut kc) =
        derive_regs!(COMMIT, keys, k1, nonce, powers_count, &mut riders);
    let acc = hash_padded::<true>(zero(), aad, &h);
    let mut ks: [uint8x16_t; M] = core::array::from_fn(|i| riders[2 + i]);
    let len = byte_reverse(from_u128(len_block));
    let mut buf = [0u8; B];
    let rest = data.read_tail(0, &mut buf);
    // GHASH runs over the ciphertext: the output when sealing, the input when opening.
    let acc = xor_and_hash_tail!(Gcm<SEAL>, M, B, &ks, &mut buf, rest, data, 0, acc, &h, len);
    let tag = store(veorq_u8(byte_reverse(acc), riders[1]));
    kx_keys.zeroize();
    h.zeroize();
    riders.zeroize();
    ks.zeroize();
    if COMMIT {
        *commitment = store_each(&kc);
    }
    kc.zeroize();
    tag
}
