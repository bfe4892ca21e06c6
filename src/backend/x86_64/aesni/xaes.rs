//! XAES-256-GCM's key derivation on AES-NI + PCLMULQDQ (every x86_64 tier
//! has these, so every tier derives here).
//!
//! Common to [`derive_key`] and [`gcm_short`]: `keys` are K's round keys,
//! `k1` CMAC's subkey K1, `nonce` the 192-bit nonce, from whose bytes they
//! build the KDF's M1 and M2 (and for KC-XAES the commitment's X₀, T₁, T₂)
//! in registers (`backend::xaes::M_HEADS`). With `COMMIT`, both also write
//! the key commitment into `commitment` (see [`commit_inputs`]); without it, `commitment` is left as it was. [`derive_key`] writes Kₓ's round keys and H^1..H^8 of Kₓ's GHASH
//! key into `out`, in the layout `GcmKey` keeps, and wipes its registers'
//! copies; the caller passes `out` to the tier's GCM kernels and wipes it
//! after. [`gcm_short`] seals or opens a message of at most `SHORT_MAX`
//! bytes itself, with the derived key in registers only.

use crate::backend::tail_mode::Gcm;
use core::arch::x86_64::*;

use zeroize::Zeroize;

use super::ctr::{counter_blocks, hash_padded, xor_and_hash_tail};
use crate::backend::x86_64::aes::{encrypt_blocks, load_round_keys};
use crate::backend::x86_64::clmul::byte_reverse;
use crate::backend::x86_64::{from_u128, load, store, store_each};
use crate::backend::xaes::{MessageKey, SHORT_MAX, T_TAILS, X0_HEAD};
use crate::block::{Block, RoundKeys};
use crate::cpu::AesNiClmul;
use crate::inout::InOut;

/// The per-message AES-256-GCM key in registers, as `(round keys, powers,
/// commitment)`: Kₓ's round keys, H^1..H^`powers_count` of its GHASH key
/// (the rest zero) and, with `COMMIT`, KC-XAES-256-GCM's two commitment
/// blocks (zero without). The spec: "Kₓ = AES-256ₖ(M1 ⊕ K1) || AES-256ₖ(M2 ⊕
/// K1)" — both blocks in one AES batch, with `COMMIT` the commitment's X
/// as a third ([`commit_inputs`]) — then Kₓ expanded in registers (the
/// expansion GCM-SIV uses per message) with `riders` (an array of blocks)
/// encrypted under it on the way (`aes::ride`) and, with `COMMIT`, the
/// commitment's last two blocks encrypted beside them under K
/// (`aes::expand_256_regs`'s passengers). The first rider must be the zero
/// block, which becomes H = AES-256_Kₓ(0^128), taken in the POLYVAL form the
/// GCM kernels use (`clmul.rs`: H' = mulX_POLYVAL(ByteReverse(H))), and its
/// powers: the whole tree for eight, else only the first `powers_count`.
/// The caller wipes the three arrays and the riders.
///
/// A macro rather than a function so that its body is always inlined into
/// the kernel using it (`#[inline(always)]` is not allowed on
/// `#[target_feature]` functions, and as a call LLVM kept it out of line,
/// which sent the derived key through the stack). Expand it only inside a
/// function compiled for the AES-NI tier.
macro_rules! derive_regs {
    ($COMMIT:expr, $keys:expr, $k1:expr, $nonce:expr, $powers_count:expr, $riders:expr) => {{
        use core::arch::x86_64::{_mm_or_si128, _mm_setzero_si128, _mm_xor_si128};
        use $crate::backend::x86_64::aes::{
            encrypt_blocks, expand_256_regs, expand_regs_riding, load_round_keys,
        };
        use $crate::backend::x86_64::aesni::xaes::{commit_inputs, nonce_first_half};
        use $crate::backend::x86_64::clmul::{byte_reverse, mul_x, powers, powers_upto};
        use $crate::backend::x86_64::{from_u128, load};
        use $crate::backend::xaes::M_HEADS;
        use $crate::block::{Block, RoundKeys};
        use zeroize::Zeroize;
        let (keys, k1, nonce, powers_count): (&RoundKeys<15>, &Block, &[u8; 24], usize) =
            ($keys, $k1, $nonce, $powers_count);
        let riders = $riders;
        let rk = load_round_keys(keys);
        let k1 = load(k1);
        let first_half = nonce_first_half(nonce);
        let mut kx = M_HEADS.map(|h| _mm_xor_si128(_mm_or_si128(first_half, from_u128(h)), k1));
        // KC-XAES: the commitment's blocks, X ⊕ Tᵢ ⊕ K1, encrypted beside
        // Kₓ's schedule (`commit_inputs`); zero and unused without `COMMIT`.
        let mut commitment = [_mm_setzero_si128(); 2];
        let kx_keys = if $COMMIT {
            commitment = commit_inputs(&rk, k1, &mut kx, first_half, nonce);
            expand_256_regs(kx[0], kx[1], riders, &rk, &mut commitment)
        } else {
            encrypt_blocks(&rk, &mut kx);
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
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn cmac_subkey(_token: AesNiClmul, keys: &RoundKeys<15>) -> Block {
    let rk = load_round_keys(keys);
    let mut l = [_mm_setzero_si128()];
    encrypt_blocks(&rk, &mut l);
    let mut l_bytes = store(l[0]);
    let mut value = u128::from_be_bytes(l_bytes);
    let top_bit_mask = 0u128.wrapping_sub(value >> 127);
    let k1 = ((value << 1) ^ (top_bit_mask & 0x87)).to_be_bytes();
    l.zeroize();
    l_bytes.zeroize();
    value.zeroize();
    k1
}

/// `[0; 4] ‖ N[:12]`: the nonce's first 16 bytes shifted up four, for
/// the blocks of `M_HEADS` and `X0_HEAD` (`backend::xaes`).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn nonce_first_half(nonce: &[u8; 24]) -> __m128i {
    let [first @ .., _, _, _, _, _, _, _, _] = nonce;
    _mm_slli_si128::<4>(load(first))
}

/// `N[12:] ‖ [0; 4]`: the nonce's last 16 bytes shifted down four, for
/// the blocks of `T_TAILS` (`backend::xaes`).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn nonce_second_half(nonce: &[u8; 24]) -> __m128i {
    let [_, _, _, _, _, _, _, _, last @ ..] = nonce;
    _mm_srli_si128::<4>(load(last))
}

/// KC-XAES-256-GCM's key commitment (IACR ePrint 2025/758) up to its
/// last batch: `kx` holds M1 ⊕ K1 and M2 ⊕ K1 and leaves with Kₓ; X =
/// AES-256ₖ("XCMT" ‖ N\[:12\]) runs in the same batch (from `first_half`,
/// `[0; 4] ‖ N[:12]`), no deeper than Kₓ. Returns the last batch's
/// inputs X ⊕ Tᵢ ⊕ K1, Tᵢ = N\[12:\] ‖ 0x0001 ‖ i, whose AES-256ₖ is the
/// commitment: `derive_regs!` encrypts them beside Kₓ's key schedule
/// (`expand_256_regs`), one round per step, in the gaps of its
/// serial chain. (As a batch of their own they are 14 dependent rounds
/// on the critical path of a short message, before or after the
/// schedule: docs/design.md, "KC-XAES-256-GCM (`KcXaes256Gcm`)"; on Zen 3:
/// docs/measurements/2026-11-26-zen3-kc/tables.md.) X is wiped.
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
fn commit_inputs(
    rk: &[__m128i; 15],
    k1: __m128i,
    kx: &mut [__m128i; 2],
    first_half: __m128i,
    nonce: &[u8; 24],
) -> [__m128i; 2] {
    let mut first = [kx[0], kx[1], _mm_or_si128(first_half, from_u128(X0_HEAD))];
    encrypt_blocks(rk, &mut first);
    *kx = [first[0], first[1]];
    let x_k1 = _mm_xor_si128(first[2], k1);
    let second_half = nonce_second_half(nonce);
    first.zeroize();
    T_TAILS.map(|t| _mm_xor_si128(x_k1, _mm_or_si128(second_half, from_u128(t))))
}

/// The per-message AES-256-GCM key into `out`, with all eight powers
/// (and with `COMMIT` the commitment); see the module contract and
/// `derive_regs!`.
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn derive_key<const COMMIT: bool>(
    _token: AesNiClmul,
    keys: &RoundKeys<15>,
    k1: &Block,
    nonce: &[u8; 24],
    out: &mut MessageKey,
    commitment: &mut [Block; 2],
) {
    let mut riders = [_mm_setzero_si128()];
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

/// XAES-256-GCM seal (`SEAL`) or open of a short message, at most
/// `SHORT_MAX` bytes, with the derived key in registers only: the
/// derivation of `derive_regs!` with the message's counter blocks and J0
/// riding Kₓ's schedule beside H's zero block (so the keystream and
/// E(Kₓ, J0) are ready a round after the schedule, not fourteen), then
/// what `aesni::gcm` does for a message shorter than a group — the AAD's
/// GHASH, the XOR, the GHASH of the ciphertext and the length block, the
/// tag — in one function: no `MessageKey` is stored and reloaded. `j0`
/// and `len_block` are as for `aesni::gcm::seal`; the return value is the
/// tag computed over the ciphertext.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn gcm_short<const SEAL: bool, const COMMIT: bool>(
    _token: AesNiClmul,
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
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
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
    // inc32(J0), byte-reversed as the counter helpers keep it.
    let mut ctr = _mm_add_epi32(byte_reverse(j0), _mm_set_epi32(0, 0, 0, 1));
    let counters: [__m128i; M] = counter_blocks::<true, M>(&mut ctr);
    let mut riders = [_mm_setzero_si128(); N];
    riders[1] = j0;
    riders[2..].copy_from_slice(&counters);
    let (mut kx_keys, mut h, mut kc) =
        derive_regs!(COMMIT, keys, k1, nonce, powers_count, &mut riders);
    let acc = hash_padded::<true>(_mm_setzero_si128(), aad, &h);
    let mut ks: [__m128i; M] = core::array::from_fn(|i| riders[2 + i]);
    let len = byte_reverse(from_u128(len_block));
    let mut buf = [0u8; B];
    let rest = data.read_tail(0, &mut buf);
    // GHASH runs over the ciphertext: the output when sealing, the input when opening.
    let acc = xor_and_hash_tail!(Gcm<SEAL>, M, B, &ks, &mut buf, rest, data, 0, acc, &h, len);
    let tag = store(_mm_xor_si128(byte_reverse(acc), riders[1]));
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
