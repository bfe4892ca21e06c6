//! Key state: what a key object holds (round keys, GHASH powers, the
//! generated-nonce sequence, the tier and a live mark), built in place and
//! wiped on drop. Above `backend`: every operation here is one call of a
//! `backend` dispatch function with the key's tier.

use core::mem::MaybeUninit;

use crate::backend::{self, TierToken};
use crate::block::{Block, HPowers, RoundKeys};
use crate::inout::InOut;
use crate::nonce::NonceSequence;

mod aegis;
mod xaes;
pub(crate) use aegis::AegisKey;
pub(crate) use xaes::XaesKey;

/// A non-zero mark written last when a key state is built and checked before
/// every call (one load and compare). Key state placed in memory the system
/// zeroes under it — a `MADV_WIPEONFORK` or `MADV_DONTFORK` page in a child
/// process — reads back all zero, and a zero key would seal with all-zero
/// round keys and H = 0, tags that depend on the nonce alone; the call
/// returns [`Error::KeyStateLost`](crate::Error::KeyStateLost) instead.
#[derive(Clone, Copy)]
pub(crate) struct Live(u16);

impl Live {
    /// Any value but zero.
    const MARK: u16 = 0x4b21;

    /// No mark yet: the state is being built.
    pub(crate) const fn unset() -> Self {
        Self(0)
    }

    /// The mark of a key state that is built.
    pub(crate) const fn new() -> Self {
        Self(Self::MARK)
    }

    /// Whether the mark is still there (a volatile read: what matters is the
    /// memory now, not what the compiler saw written).
    #[inline(always)]
    pub(crate) fn holds(&self) -> bool {
        // SAFETY: `self.0` is a valid, aligned `u16`.
        unsafe { core::ptr::read_volatile(&self.0) == Self::MARK }
    }
}

/// What a key keeps besides its secrets: the tier it runs on and its
/// [`Live`] mark, 4 bytes that ride in the padding of its [`NonceSequence`]
/// (28 bytes aligned to 8). So the 32 bytes after the round keys and powers
/// hold all of a key's other state, and `size_of::<Aes256Gcm>()` is 400.
#[derive(Clone, Copy)]
pub(crate) struct KeyTag {
    tier: TierToken,
    /// Written last at setup.
    live: Live,
}

/// The whole AES-GCM key state: round keys, GHASH powers, the generated-nonce
/// state with the tier and the live mark.
///
/// For AES-256 that is 15 × 16 + 8 × 16 = 368 bytes of key-equivalent state.
pub(crate) struct GcmKey<const ROUND_KEYS: usize> {
    round_keys: RoundKeys<ROUND_KEYS>,
    h_powers: HPowers,
    nonces: NonceSequence<KeyTag>,
}

impl<const ROUND_KEYS: usize> GcmKey<ROUND_KEYS> {
    /// Builds the key state for `key` at `at`, field by field, so that it is
    /// never moved after construction: [`AeadKey::new`](crate::AeadKey::new) builds
    /// it in the value it returns, caller-placed keys (`placement.rs`) where
    /// the caller says.
    ///
    /// # Safety
    /// `at` must be valid for writes of `Self` and aligned for it. Whatever it
    /// held is overwritten without being dropped.
    pub(crate) unsafe fn init_at<const KB: usize>(at: *mut Self, tier: TierToken, key: &[u8; KB]) {
        // SAFETY: `at` is valid for writes and aligned (caller); each write
        // targets one field of it, and `MaybeUninit<T>` has `T`'s layout, so
        // the views of the key fields as `MaybeUninit` are valid for writes.
        unsafe {
            let nonces = core::ptr::addr_of_mut!((*at).nonces);
            nonces.write(NonceSequence::new(KeyTag {
                tier,
                live: Live::unset(),
            }));
            backend::init_gcm_key(
                tier,
                key,
                &mut *core::ptr::addr_of_mut!((*at).round_keys)
                    .cast::<MaybeUninit<RoundKeys<ROUND_KEYS>>>(),
                &mut *core::ptr::addr_of_mut!((*at).h_powers).cast::<MaybeUninit<HPowers>>(),
            );
            core::ptr::addr_of_mut!((*nonces).tag.live).write(Live::new());
        }
    }

    /// Whether the key state is still there (see [`Live`]).
    #[inline(always)]
    pub(crate) fn is_live(&self) -> bool {
        self.nonces.tag.live.holds()
    }

    /// The key's generated-nonce state.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn nonces(&self) -> &NonceSequence<KeyTag> {
        &self.nonces
    }

    /// The tier this key runs on.
    pub(crate) fn token(&self) -> TierToken {
        self.nonces.tag.tier
    }

    /// GCM encryption of `data` in place or into its output, returning the tag.
    ///
    /// `j0` is the pre-counter block, which the caller builds (SP 800-38D
    /// §7.1), as `u128::from_le_bytes` of the block so that it passes in
    /// registers.
    #[inline(always)]
    pub(crate) fn seal(&self, j0: u128, aad: &[u8], data: &mut InOut<'_>) -> Block {
        let (keys, powers) = (&self.round_keys, &self.h_powers);
        backend::gcm_seal(self.token(), keys, powers, j0, aad, data)
    }

    /// The first half of extending a [`seal`](Self::seal) of whole blocks
    /// by one last partial block (`backend::gcm_encrypt_tail`):
    /// `block[..n]` encrypted in place with `ctr_block`'s keystream, and
    /// E(K, J0) returned for [`append_block`](Self::append_block).
    pub(crate) fn encrypt_tail(
        &self,
        j0: u128,
        ctr_block: u128,
        block: &mut Block,
        n: usize,
    ) -> Block {
        backend::gcm_encrypt_tail(self.token(), &self.round_keys, j0, ctr_block, block, n)
    }

    /// The second half (`backend::gcm_append_block`): the tag of the whole
    /// message from `head_tag`, the seal's tag for its whole blocks, and
    /// [`encrypt_tail`](Self::encrypt_tail)'s `e_j0` and ciphertext block.
    pub(crate) fn append_block(
        &self,
        lengths: backend::Extension,
        head_tag: &Block,
        e_j0: &Block,
        c: &Block,
    ) -> Block {
        backend::gcm_append_block(self.token(), &self.h_powers, lengths, head_tag, e_j0, c)
    }

    /// GCM decryption of `data`, returning the tag computed over the ciphertext.
    /// The caller compares it with the received tag (and wipes the output if
    /// they differ); this function releases nothing by itself.
    #[inline(always)]
    pub(crate) fn open(&self, j0: u128, aad: &[u8], data: &mut InOut<'_>) -> Block {
        let (keys, powers) = (&self.round_keys, &self.h_powers);
        backend::gcm_open(self.token(), keys, powers, j0, aad, data).to_le_bytes()
    }
}

/// The whole AES-GCM-SIV key state: the key-generating key's round keys and the
/// tier. Nothing else is reusable across nonces (RFC 8452 derives the hash and
/// encryption keys per nonce).
pub(crate) struct SivKey<const ROUND_KEYS: usize> {
    round_keys: RoundKeys<ROUND_KEYS>,
    /// The generated-nonce state, the tier and the live mark (see [`KeyTag`]).
    nonces: NonceSequence<KeyTag>,
}

impl<const ROUND_KEYS: usize> SivKey<ROUND_KEYS> {
    /// Builds the key state for `key` at `at` (see [`GcmKey::init_at`]).
    ///
    /// # Safety
    /// As for [`GcmKey::init_at`].
    pub(crate) unsafe fn init_at<const KB: usize>(at: *mut Self, tier: TierToken, key: &[u8; KB]) {
        // SAFETY: `at` is valid for writes and aligned (caller); each write
        // targets one field of it (`MaybeUninit<T>` has `T`'s layout).
        unsafe {
            let nonces = core::ptr::addr_of_mut!((*at).nonces);
            nonces.write(NonceSequence::new(KeyTag {
                tier,
                live: Live::unset(),
            }));
            let round_keys = core::ptr::addr_of_mut!((*at).round_keys);
            backend::expand_key(
                tier,
                key,
                &mut *round_keys.cast::<MaybeUninit<RoundKeys<ROUND_KEYS>>>(),
            );
            core::ptr::addr_of_mut!((*nonces).tag.live).write(Live::new());
        }
    }

    /// Whether the key state is still there (see [`Live`]).
    #[inline(always)]
    pub(crate) fn is_live(&self) -> bool {
        self.nonces.tag.live.holds()
    }

    /// The key's generated-nonce state.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn nonces(&self) -> &NonceSequence<KeyTag> {
        &self.nonces
    }

    /// The tier this key runs on.
    pub(crate) fn token(&self) -> TierToken {
        self.nonces.tag.tier
    }

    /// GCM-SIV encryption of `data`, returning the tag. `nonce` and
    /// `len_block` are blocks as `u128::from_le_bytes`.
    pub(crate) fn seal(
        &self,
        nonce: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        backend::siv_seal(self.token(), &self.round_keys, nonce, aad, data, len_block)
    }

    /// GCM-SIV decryption of `data` under the received `tag`, returning the tag
    /// computed over the plaintext it wrote, for the caller to compare.
    pub(crate) fn open(
        &self,
        nonce: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        tag: u128,
        len_block: u128,
    ) -> Block {
        backend::siv_open(
            self.token(),
            &self.round_keys,
            nonce,
            aad,
            data,
            tag,
            len_block,
        )
    }
}
