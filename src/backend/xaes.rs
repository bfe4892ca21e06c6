//! XAES-256-GCM's dispatch: the kernels that derive the per-message key
//! (`x86_64/aesni/xaes.rs`, `aarch64/xaes.rs`), called with a key's tier. The key
//! state itself (K's round keys, K1) is `key::XaesKey`, above.
//!
//! The C2SP XAES-256-GCM specification derives, for each 192-bit nonce N, an
//! AES-256 key Kx from the first 96 bits of N with a CMAC-based KDF
//! (NIST SP 800-108r1 counter mode) keyed with K, then runs AES-256-GCM under
//! Kx with the last 96 bits of N. Up to [`SHORT_MAX`] bytes one kernel call
//! derives Kx and seals or opens with it in registers ([`gcm_short`]);
//! longer messages derive it into a [`MessageKey`] on the stack
//! ([`derive_key`]) and run the tier's own AES-256-GCM kernels on it.

use crate::block::{Block, HPowers, RoundKeys};
use crate::inout::InOut;

use super::TierToken;
#[cfg(target_arch = "aarch64")]
use super::aarch64;
#[cfg(target_arch = "x86_64")]
use super::x86_64;

/// The longest message that takes the short path (`gcm_short` in the
/// kernels): the derived key stays in registers and the AES-NI (or ARMv8)
/// code for a message of less than one group (`tail`, up to eight blocks)
/// runs on it, on every tier. Longer messages derive into a [`MessageKey`]
/// and run the tier's own AES-256-GCM kernels. Storing, reloading and
/// wiping the derived key costs more than the wide tiers' code saves on a
/// message this short: raising this limit from 32 to 128 bytes made 48- to
/// 80-byte seals faster and left 96 to 128 bytes level
/// (docs/benchmarks.md, "XAES-256-GCM on Zen 4"; the table:
/// docs/measurements/2026-11-23-zen4/tables.md).
pub(crate) const SHORT_MAX: usize = 128;

/// How many of H^1..H^8 the short path reads for `aad_len` bytes of AAD
/// and `text_len` (at most [`SHORT_MAX`]) of message: the message's blocks
/// plus the length block (folded together), or the AAD's blocks (folded
/// eight at a time), at most eight. Only these are computed: a 16-byte
/// message with a short AAD needs H and H², one multiplication instead of
/// seven.
fn powers_needed(aad_len: usize, text_len: usize) -> usize {
    aad_len.div_ceil(16).max(text_len.div_ceil(16) + 1).min(8)
}

/// The AES-256-GCM key state of one message longer than [`SHORT_MAX`]:
/// Kx's round keys and H^1..H^8, in `GcmKey`'s layout, for the tier's GCM
/// kernels. Wiped on drop by `RoundKeys`'s and `HPowers`'s own drops (one
/// volatile 16-byte store per block).
pub(crate) struct MessageKey {
    pub(crate) round_keys: RoundKeys<15>,
    pub(crate) h_powers: HPowers,
}

impl MessageKey {
    /// All zero, to be filled by [`derive_key`].
    pub(crate) fn zeroed() -> Self {
        Self {
            round_keys: RoundKeys([[0u8; 16]; 15]),
            h_powers: HPowers([[0u8; 16]; 8]),
        }
    }
}

/// The blocks a 192-bit nonce N feeds the kernels: the KDF's M1 and M2
/// (steps 3 and 4: "0x00 || i || 0x58 || 0x00 || N\[:12\]"), and
/// KC-XAES-256-GCM's X₀ = "XCMT" ‖ N\[:12\] and T₁, T₂ = N\[12:\] ‖ 0x00
/// 0x01 0x00 i (ePrint 2025/758). The kernels build them in registers from
/// the nonce's bytes: `[0; 4] ‖ N[:12]` (the first 16 bytes shifted up by
/// four) ORed with a head below, or `N[12:] ‖ [0; 4]` (the last 16 shifted
/// down) ORed with a tail. Built as `u128`s in memory and loaded, a block
/// written as two 8-byte stores and read back as one 16-byte load stalls on
/// the store forwarding, on the critical path of a short message
/// (docs/design.md, "KC-XAES-256-GCM (`KcXaes256Gcm`)").
/// As `u128::from_le_bytes`: the head in the low four bytes, the tail in the
/// high four.
pub(crate) const M_HEADS: [u128; 2] = [
    head([0x00, 0x01, b'X', 0x00]),
    head([0x00, 0x02, b'X', 0x00]),
];
/// X₀'s head, "XCMT" (see [`M_HEADS`]).
pub(crate) const X0_HEAD: u128 = head(*b"XCMT");
/// T₁'s and T₂'s tails, 0x00 0x01 0x00 i (see [`M_HEADS`]).
pub(crate) const T_TAILS: [u128; 2] = [tail(1), tail(2)];

const fn head(bytes: [u8; 4]) -> u128 {
    u32::from_le_bytes(bytes) as u128
}

const fn tail(i: u8) -> u128 {
    (u32::from_le_bytes([0x00, 0x01, 0x00, i]) as u128) << 96
}

/// CMAC's subkey K1 from K's round keys, on `tier` (the kernels quote the
/// spec's steps 1 and 2).
pub(crate) fn cmac_subkey(tier: TierToken, round_keys: &RoundKeys<15>) -> Block {
    on_tier!(
        tier,
        every_x86_64_tier: x86_64::aesni::xaes::cmac_subkey,
        armv8: aarch64::xaes::cmac_subkey,
        (round_keys)
    )
}

/// Fills `key` with the AES-256-GCM key state for one message: Kx =
/// AES-256ₖ(M1 ⊕ K1) || AES-256ₖ(M2 ⊕ K1) for the nonce's M1 and M2,
/// then Kx's round keys and H^1..H^8; with `COMMIT`, KC-XAES-256-GCM's
/// commitment into `commitment` in the same call. (Filled in place, not
/// returned: a move could leave an unwiped copy behind.)
pub(crate) fn derive_key<const COMMIT: bool>(
    tier: TierToken,
    round_keys: &RoundKeys<15>,
    k1: &Block,
    nonce: &[u8; 24],
    key: &mut MessageKey,
    commitment: &mut [Block; 2],
) {
    on_tier!(
        tier,
        every_x86_64_tier: x86_64::aesni::xaes::derive_key::<COMMIT>,
        armv8: aarch64::xaes::derive_key::<COMMIT>,
        (round_keys, k1, nonce, key, commitment)
    )
}

/// Seal (`SEAL`) or open of a message of at most [`SHORT_MAX`] bytes:
/// derivation and GCM in one kernel call, the derived key in registers;
/// returns the tag computed over the ciphertext. `j0` and `len_block` are
/// as for [`gcm_seal`](super::gcm_seal); `nonce` and `commitment` as for
/// [`derive_key`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn gcm_short<const SEAL: bool, const COMMIT: bool>(
    tier: TierToken,
    round_keys: &RoundKeys<15>,
    k1: &Block,
    nonce: &[u8; 24],
    commitment: &mut [Block; 2],
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    let powers = powers_needed(aad.len(), data.len());
    on_tier!(
        tier,
        every_x86_64_tier: x86_64::aesni::xaes::gcm_short::<SEAL, COMMIT>,
        armv8: aarch64::xaes::gcm_short::<SEAL, COMMIT>,
        (round_keys, k1, nonce, commitment, powers, j0, aad, data, len_block)
    )
}

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod tests {
    use super::powers_needed;

    #[test]
    fn powers_needed_counts_blocks_and_the_length_block() {
        assert_eq!(powers_needed(0, 0), 1);
        assert_eq!(powers_needed(0, 16), 2);
        assert_eq!(powers_needed(0, 17), 3);
        assert_eq!(powers_needed(20, 16), 2);
        assert_eq!(powers_needed(48, 16), 3);
        assert_eq!(powers_needed(1000, 1), 8);
        assert_eq!(powers_needed(0, 32), 3);
    }
}
