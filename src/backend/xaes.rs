//! XAES-256-GCM's key state: the fixed part of the key derivation, done once
//! at key setup, and the two per-message paths: up to [`SHORT_MAX`] bytes
//! one kernel call derives the AES-256-GCM key and seals or opens with it in
//! registers; longer messages derive it into a [`MessageKey`] on the stack
//! and run the tier's own GCM kernels on it.
//!
//! The C2SP XAES-256-GCM specification derives, for each 192-bit nonce N, an
//! AES-256 key Kx from the first 96 bits of N with a CMAC-based KDF
//! (NIST SP 800-108r1 counter mode) keyed with K, then runs AES-256-GCM under
//! Kx with the last 96 bits of N. What does not depend on N — K's round keys
//! and CMAC's subkey K1 — is this state; what does (Kx's round keys and the
//! GHASH powers of H = AES-256_Kx(0^128)) lives in registers or on the stack
//! for one call and is wiped when the call returns.

use core::mem::MaybeUninit;

use zeroize::Zeroize;

use super::{Block, HPowers, InOut, Live, RoundKeys, Tier, expand_key};

#[cfg(target_arch = "aarch64")]
use super::aarch64;
#[cfg(target_arch = "x86_64")]
use super::x86_64;

/// The longest message that takes the short path (`gcm_short` in the
/// kernels): the derived key stays in registers and the AES-NI (or ARMv8)
/// code for a message of less than one group (`tail`, up to eight blocks)
/// runs on it, on every tier. Longer messages derive into a [`MessageKey`]
/// and run the tier's own AES-256-GCM kernels. Storing the derived key and
/// reloading it costs about 30 ns, more than the wide tiers' code saves on
/// a message this short: on Zen 4 (docs/benchmarks.md) 48-byte seals went
/// from 131 to 101 ns when this limit moved from 32 to 128 bytes, 80-byte
/// ones from 140 to 129 ns, and 96 to 128 bytes stayed within ±3 %.
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

/// XAES-256-GCM's key state: K's AES-256 round keys, CMAC's subkey K1 and
/// the tier. 240 + 16 bytes of key-equivalent state, zeroized on drop.
pub(crate) struct XaesKey {
    round_keys: RoundKeys<15>,
    k1: Block,
    tier: Tier,
    /// Written last at setup; see [`Live`].
    live: Live,
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
    /// All zero, to be filled by a kernel's `derive_key`.
    fn zeroed() -> Self {
        Self {
            round_keys: RoundKeys([[0u8; 16]; 15]),
            h_powers: HPowers([[0u8; 16]; 8]),
        }
    }
}

/// CMAC's subkey K1 from K's round keys, on the key's tier (the kernels
/// quote the spec's steps 1 and 2).
fn cmac_subkey(tier: Tier, round_keys: &RoundKeys<15>) -> Block {
    // SAFETY: the AES-NI token proves its features were detected.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        x86_64::xaes::cmac_subkey(tier.aesni(), round_keys)
    }
    // SAFETY: the ARMv8 token proves its features were detected.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        aarch64::xaes::cmac_subkey(tier.armv8(), round_keys)
    }
}

impl XaesKey {
    /// Builds the key state for K = `key` at `at`, field by field, so that it
    /// is never moved after construction (see `GcmKey::init_at`): K's round
    /// keys written in place by the key schedule, then K1 from them.
    ///
    /// # Safety
    /// `at` must be valid for writes of `Self` and aligned for it. Whatever
    /// it held is overwritten without being dropped.
    pub(crate) unsafe fn init_at(at: *mut Self, tier: Tier, key: &[u8; 32]) {
        // SAFETY: `at` is valid for writes and aligned (caller); each write
        // targets one field of it (`MaybeUninit<T>` has `T`'s layout), and
        // the field read back (`round_keys`) was fully written just before.
        unsafe {
            core::ptr::addr_of_mut!((*at).tier).write(tier);
            let round_keys = core::ptr::addr_of_mut!((*at).round_keys);
            expand_key(
                tier,
                key,
                &mut *round_keys.cast::<MaybeUninit<RoundKeys<15>>>(),
            );
            let k1 = cmac_subkey(tier, &*round_keys);
            core::ptr::addr_of_mut!((*at).k1).write(k1);
            core::ptr::addr_of_mut!((*at).live).write(Live::new());
        }
    }

    /// Whether the key state is still there (see [`Live`]).
    #[inline(always)]
    pub(crate) fn is_live(&self) -> bool {
        self.live.holds()
    }

    /// The tier this key runs on.
    pub(crate) fn tier(&self) -> Tier {
        self.tier
    }

    /// Fills `key` with the AES-256-GCM key state for one message: Kx =
    /// AES-256ₖ(M1 ⊕ K1) || AES-256ₖ(M2 ⊕ K1) for `kdf_blocks` = [M1, M2]
    /// (as `u128::from_le_bytes`), then Kx's round keys and H^1..H^8.
    /// (Filled in place, not returned: a move could leave an unwiped copy
    /// behind.)
    fn derive(&self, kdf_blocks: [u128; 2], key: &mut MessageKey) {
        // SAFETY: the AES-NI token proves its features were detected.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            x86_64::xaes::derive_key(
                self.tier.aesni(),
                &self.round_keys,
                &self.k1,
                kdf_blocks,
                key,
            )
        };
        // SAFETY: the ARMv8 token proves its features were detected.
        #[cfg(target_arch = "aarch64")]
        unsafe {
            aarch64::xaes::derive_key(
                self.tier.armv8(),
                &self.round_keys,
                &self.k1,
                kdf_blocks,
                key,
            )
        };
    }

    /// Seal (`SEAL`) or open of a message of at most [`SHORT_MAX`] bytes:
    /// derivation and GCM in one kernel call, the derived key in registers.
    fn short<const SEAL: bool>(
        &self,
        kdf_blocks: [u128; 2],
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        let powers = powers_needed(aad.len(), data.len());
        // SAFETY: the AES-NI token proves its features were detected.
        #[cfg(target_arch = "x86_64")]
        unsafe {
            x86_64::xaes::gcm_short::<SEAL>(
                self.tier.aesni(),
                &self.round_keys,
                &self.k1,
                kdf_blocks,
                powers,
                j0,
                aad,
                data,
                len_block,
            )
        }
        // SAFETY: the ARMv8 token proves its features were detected.
        #[cfg(target_arch = "aarch64")]
        unsafe {
            aarch64::xaes::gcm_short::<SEAL>(
                self.tier.armv8(),
                &self.round_keys,
                &self.k1,
                kdf_blocks,
                powers,
                j0,
                aad,
                data,
                len_block,
            )
        }
    }

    /// XAES-256-GCM encryption of `data`, returning the tag: up to
    /// [`SHORT_MAX`] bytes the short path ([`short`](Self::short)), else the
    /// message's key (see [`derive`](Self::derive)) and the tier's
    /// AES-256-GCM seal with `j0` and `len_block` (as for `GcmKey::seal`).
    pub(crate) fn seal(
        &self,
        kdf_blocks: [u128; 2],
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        if data.len() <= SHORT_MAX {
            return self.short::<true>(kdf_blocks, j0, aad, data, len_block);
        }
        let mut key = MessageKey::zeroed();
        self.derive(kdf_blocks, &mut key);
        on_tier!(
            self.tier,
            aesni: x86_64::gcm_aesni::seal,
            avx2: x86_64::gcm_vaes_avx2::seal,
            avx512: x86_64::gcm_vaes_avx512::seal,
            armv8: aarch64::gcm::seal,
            (&key.round_keys, &key.h_powers, j0, aad, data, len_block)
        )
    }

    /// XAES-256-GCM decryption of `data`, returning the tag computed over
    /// the ciphertext for the caller to compare (as for `GcmKey::open`); the
    /// same two paths as [`seal`](Self::seal).
    pub(crate) fn open(
        &self,
        kdf_blocks: [u128; 2],
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        if data.len() <= SHORT_MAX {
            return self.short::<false>(kdf_blocks, j0, aad, data, len_block);
        }
        let mut key = MessageKey::zeroed();
        self.derive(kdf_blocks, &mut key);
        on_tier!(
            self.tier,
            aesni: x86_64::gcm_aesni::open,
            avx2: x86_64::gcm_vaes_avx2::open,
            avx512: x86_64::gcm_vaes_avx512::open,
            armv8: aarch64::gcm::open,
            (&key.round_keys, &key.h_powers, j0, aad, data, len_block)
        )
    }
}

impl Drop for XaesKey {
    fn drop(&mut self) {
        // The round keys wipe themselves (`RoundKeys`'s own drop).
        self.k1.zeroize();
    }
}

#[cfg(test)]
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
