//! AEGIS's key state: the key itself (AEGIS has no key schedule: the key
//! enters the state at every message's initialisation), the tier and the
//! live mark. 16 or 32 bytes of secret, wiped on drop.

use super::Live;
use crate::backend::TierToken;
use crate::block::{Block, KeyBlocks, as_blocks};

/// AEGIS's key state: `KB` key blocks (1 for the 128 family, 2 for the 256
/// family), the tier and the live mark.
pub(crate) struct AegisKey<const KB: usize> {
    key: KeyBlocks<KB>,
    tier: TierToken,
    /// Written last at setup; see [`Live`].
    live: Live,
}

impl<const KB: usize> AegisKey<KB> {
    /// Builds the key state for `key` (`16·KB` bytes) at `at`, field by
    /// field, so that it is never moved after construction (see
    /// `GcmKey::init_at`).
    ///
    /// # Safety
    /// `at` must be valid for writes of `Self` and aligned for it. Whatever
    /// it held is overwritten without being dropped.
    pub(crate) unsafe fn init_at<const N: usize>(at: *mut Self, tier: TierToken, key: &[u8; N]) {
        let blocks: &[Block; KB] = as_blocks(key);
        // SAFETY: `at` is valid for writes and aligned (caller); each write
        // targets one field of it. The key is copied from the caller's
        // bytes into its field, with no value of it in between (a
        // `KeyBlocks` built first would be a copy of the key on the stack
        // in an unoptimised build, never wiped).
        unsafe {
            core::ptr::addr_of_mut!((*at).tier).write(tier);
            core::ptr::addr_of_mut!((*at).key.0).copy_from_nonoverlapping(blocks, 1);
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

    /// The key, for the kernels.
    pub(crate) fn blocks(&self) -> &[Block; KB] {
        &self.key.0
    }
}
