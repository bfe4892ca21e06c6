//! XAES-256-GCM's key state: the fixed part of the key derivation, done
//! once at key setup (K's round keys and CMAC's subkey K1). What depends on
//! the nonce (Kx's round keys, the powers of its H) lives in registers or on
//! the stack for one call (`backend::xaes`) and is wiped when it returns.

use core::mem::MaybeUninit;

use zeroize::Zeroize;

use super::Live;
use crate::backend::xaes::{self, MessageKey, SHORT_MAX};
use crate::backend::{self, TierToken};
use crate::block::{Block, RoundKeys};
use crate::inout::InOut;

/// XAES-256-GCM's key state: K's AES-256 round keys, CMAC's subkey K1 and
/// the tier. 240 + 16 bytes of key-equivalent state, zeroized on drop.
pub(crate) struct XaesKey {
    round_keys: RoundKeys<15>,
    k1: Block,
    tier: TierToken,
    /// Written last at setup; see [`Live`].
    live: Live,
}

impl XaesKey {
    /// Builds the key state for K = `key` at `at`, field by field, so that it
    /// is never moved after construction (see `GcmKey::init_at`): K's round
    /// keys written in place by the key schedule, then K1 from them.
    ///
    /// # Safety
    /// `at` must be valid for writes of `Self` and aligned for it. Whatever
    /// it held is overwritten without being dropped.
    pub(crate) unsafe fn init_at(at: *mut Self, tier: TierToken, key: &[u8; 32]) {
        // SAFETY: `at` is valid for writes and aligned (caller); each write
        // targets one field of it (`MaybeUninit<T>` has `T`'s layout), and
        // the field read back (`round_keys`) was fully written just before.
        unsafe {
            core::ptr::addr_of_mut!((*at).tier).write(tier);
            let round_keys = core::ptr::addr_of_mut!((*at).round_keys);
            backend::expand_key(
                tier,
                key,
                &mut *round_keys.cast::<MaybeUninit<RoundKeys<15>>>(),
            );
            let k1 = xaes::cmac_subkey(tier, &*round_keys);
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
    pub(crate) fn token(&self) -> TierToken {
        self.tier
    }

    /// XAES-256-GCM encryption of `data`, returning the tag (see
    /// [`seal_or_open`](Self::seal_or_open)).
    pub(crate) fn seal<const COMMIT: bool>(
        &self,
        nonce: &[u8; 24],
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
        commitment: &mut [Block; 2],
    ) -> Block {
        self.seal_or_open::<true, COMMIT>(nonce, j0, aad, data, len_block, commitment)
    }

    /// XAES-256-GCM decryption of `data`, returning the tag computed over
    /// the ciphertext for the caller to compare (as for `GcmKey::open`).
    pub(crate) fn open<const COMMIT: bool>(
        &self,
        nonce: &[u8; 24],
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
        commitment: &mut [Block; 2],
    ) -> Block {
        self.seal_or_open::<false, COMMIT>(nonce, j0, aad, data, len_block, commitment)
    }

    /// Seal (`SEAL`) or open: up to [`SHORT_MAX`] bytes the short path
    /// (`xaes::gcm_short`), else the message's key (`xaes::derive_key`) and
    /// the tier's AES-256-GCM kernels with `j0` and `len_block` (as for
    /// `GcmKey::seal`). With `COMMIT` (KC-XAES-256-GCM) the same kernel
    /// call that derives Kₓ writes the key commitment into `commitment`.
    fn seal_or_open<const SEAL: bool, const COMMIT: bool>(
        &self,
        nonce: &[u8; 24],
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
        commitment: &mut [Block; 2],
    ) -> Block {
        let (tier, keys, k1) = (self.tier, &self.round_keys, &self.k1);
        if data.len() <= SHORT_MAX {
            return xaes::gcm_short::<SEAL, COMMIT>(
                tier, keys, k1, nonce, commitment, j0, aad, data, len_block,
            );
        }
        let mut key = MessageKey::zeroed();
        xaes::derive_key::<COMMIT>(tier, keys, k1, nonce, &mut key, commitment);
        let (rk, h) = (&key.round_keys, &key.h_powers);
        if SEAL {
            backend::gcm_seal(tier, rk, h, j0, aad, data)
        } else {
            backend::gcm_open(tier, rk, h, j0, aad, data).to_le_bytes()
        }
    }
}

impl Drop for XaesKey {
    fn drop(&mut self) {
        // The round keys wipe themselves (`RoundKeys`'s own drop).
        self.k1.zeroize();
    }
}
