//! The shared AEAD trait: every public method written once, over a core seal/open
//! that each algorithm supplies.

#[cfg(feature = "alloc")]
use alloc::{vec, vec::Vec};

use subtle::ConstantTimeEq;
use zeroize::Zeroize;

use crate::backend::{Backend, Tier};
use crate::error::Error;
use crate::inout::InOut;
use crate::placement::{KeySlot, Placed};

/// A 128-bit authentication tag.
pub type Tag = [u8; 16];

/// The length of a [`Tag`] in bytes.
pub const TAG_LEN: usize = 16;

pub use crate::nonce::{NONCE_LEN, Nonce};

pub(crate) mod sealed {
    use super::{Error, InOut, Tag, Tier, Zeroize};

    /// What an algorithm supplies: construction from a detected tier, the length
    /// limits, and the core seal/open over an in/out buffer. Not nameable outside
    /// the crate, so only this crate's types implement [`Aead`](super::Aead).
    pub trait Core: Sized {
        /// Builds the key state at `at` without moving it afterwards.
        ///
        /// # Safety
        /// `at` must be valid for writes of `Self` and aligned for it.
        unsafe fn init_at(at: *mut Self, tier: Tier, key: &Self::KeyBytes);

        /// The next nonce for the generated-nonce methods: the key's counter
        /// sequence (96-bit nonces), or fresh random bytes (XAES-256-GCM's
        /// 192-bit nonces).
        #[cfg(feature = "std")]
        fn generate_nonce(&self) -> Result<Self::Nonce, Error>;

        /// The key bytes, `[u8; 16]` or `[u8; 32]`.
        type KeyBytes: AsRef<[u8]> + Zeroize + for<'a> TryFrom<&'a [u8]>;

        /// The nonce: `[u8; 12]` ([`Nonce`](super::Nonce)), or `[u8; 24]` for
        /// XAES-256-GCM.
        type Nonce: AsRef<[u8]> + Copy + Send + Sync + for<'a> TryFrom<&'a [u8]>;

        /// Builds the key state on an already detected tier, in the value it
        /// returns (through [`init_at`](Core::init_at): no copy of the key
        /// state is made on the way).
        fn from_tier(tier: Tier, key: &Self::KeyBytes) -> Self {
            let mut state = core::mem::MaybeUninit::<Self>::uninit();
            // SAFETY: `state` is valid for writes of `Self` and aligned for it,
            // and `init_at` initialises every field of it.
            unsafe {
                Self::init_at(state.as_mut_ptr(), tier, key);
                state.assume_init()
            }
        }

        /// The tier the key state was built for.
        fn tier(&self) -> Tier;

        /// Returns `Err(InputTooLong)` if `aad_len` or `text_len` exceed the
        /// algorithm's limits.
        fn check_lengths(aad_len: usize, text_len: usize) -> Result<(), Error>;

        /// Whether the key state still holds its setup mark (`backend::Live`).
        fn is_live(&self) -> bool;

        /// What every seal and open checks first: the key state is still
        /// there ([`Error::KeyStateLost`] if the system zeroed it), and the
        /// lengths are within the algorithm's limits.
        #[inline(always)]
        fn check_call(&self, aad_len: usize, text_len: usize) -> Result<(), Error> {
            if !self.is_live() {
                return Err(Error::KeyStateLost);
            }
            Self::check_lengths(aad_len, text_len)
        }

        /// Encrypts `data` and returns the tag. Lengths are already checked.
        fn seal_core(&self, nonce: &Self::Nonce, aad: &[u8], data: &mut InOut<'_>) -> Tag;

        /// Decrypts `data` and returns the tag the algorithm computes for it, to
        /// be compared by the caller. Lengths are already checked. The plaintext
        /// it writes is unauthenticated until that comparison succeeds.
        fn open_core(
            &self,
            nonce: &Self::Nonce,
            aad: &[u8],
            data: &mut InOut<'_>,
            tag: &Tag,
        ) -> Tag;
    }
}

/// The AEAD interface shared by every key type of the crate.
///
/// Bring it into scope to call the methods:
///
/// ```
/// use hardware_aead::{Aead, aes_gcm::Aes256Gcm};
///
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = Aes256Gcm::new(&[0x42; 32])?;
/// let nonce = [0u8; 12]; // never reuse a nonce with the same key
/// let sealed = key.encrypt(&nonce, b"header", b"hello")?;
/// assert_eq!(key.decrypt(&nonce, b"header", &sealed)?, b"hello");
/// # Ok(()) }
/// ```
///
/// The nonce type is the key type's: `[u8; 12]` for AES-GCM and AES-GCM-SIV,
/// `[u8; 24]` for XAES-256-GCM. Generic code over 96-bit-nonce keys names it
/// with a bound:
///
/// ```
/// use hardware_aead::{Aead, Nonce, aes_gcm_siv::Aes128GcmSiv};
///
/// fn seal_twice<K: Aead<Nonce = Nonce>>(key: &K, nonce: &Nonce) -> bool {
///     key.encrypt(nonce, b"", b"x").ok() == key.encrypt(nonce, b"", b"x").ok()
/// }
/// # fn main() -> Result<(), hardware_aead::Error> {
/// assert!(seal_twice(&Aes128GcmSiv::new(&[1; 16])?, &[2; 12]));
/// # Ok(()) }
/// ```
///
/// Rules that hold for every method:
/// - `*_to` methods never allocate, read each input byte once and write each output
///   byte once;
/// - a failed authentication returns [`Error::Authentication`] and leaves the
///   plaintext area of the output (or the in-place buffer) all zero;
/// - tags are compared in constant time;
/// - no input makes a method panic.
pub trait Aead: sealed::Core + Send + Sync {
    /// The key length in bytes.
    const KEY_LEN: usize;

    /// The nonce length in bytes: 12, or 24 for XAES-256-GCM.
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm::Aes256Gcm, xaes_gcm::Xaes256Gcm};
    /// assert_eq!(Aes256Gcm::NONCE_LEN, 12);
    /// assert_eq!(Xaes256Gcm::NONCE_LEN, 24);
    /// ```
    const NONCE_LEN: usize;

    /// Builds the key state on the fastest hardware tier the CPU has.
    ///
    /// The CPU is checked before the key is read: on a CPU without the needed
    /// instructions this returns [`Error::UnsupportedCpu`].
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm::Aes128Gcm};
    /// let key = Aes128Gcm::new(&[1u8; 16]).expect("this CPU has AES and carry-less multiply");
    /// # let _ = key;
    /// ```
    fn new(key: &Self::KeyBytes) -> Result<Self, Error> {
        let tier = Tier::best()?;
        Ok(Self::from_tier(tier, key))
    }

    /// Like [`new`](Aead::new), from a slice: [`Error::InvalidKeyLength`] if it has
    /// the wrong length.
    ///
    /// ```
    /// use hardware_aead::{Aead, Error, aes_gcm::Aes256Gcm};
    /// assert!(Aes256Gcm::new_from_slice(&[0u8; 32]).is_ok());
    /// assert_eq!(Aes256Gcm::new_from_slice(&[0u8; 16]).err(), Some(Error::InvalidKeyLength));
    /// ```
    fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        let tier = Tier::best()?;
        let mut key = Self::KeyBytes::try_from(key).map_err(|_| Error::InvalidKeyLength)?;
        let state = Self::from_tier(tier, &key);
        key.zeroize();
        Ok(state)
    }

    /// Builds the key state on the tier `backend`, or returns
    /// [`Error::UnsupportedCpu`] if this CPU (or this build) does not have it.
    ///
    /// ```
    /// use hardware_aead::{Aead, Backend, Error, aes_gcm::Aes128Gcm};
    /// match Aes128Gcm::with_backend(&[0u8; 16], Backend::Armv8) {
    ///     Ok(key) => assert_eq!(key.backend(), Backend::Armv8),
    ///     Err(Error::UnsupportedCpu { missing }) => println!("no ARMv8 path: {missing}"),
    ///     Err(e) => panic!("{e}"),
    /// }
    /// ```
    fn with_backend(key: &Self::KeyBytes, backend: Backend) -> Result<Self, Error> {
        let tier = Tier::for_backend(backend)?;
        Ok(Self::from_tier(tier, key))
    }

    /// The hardware tier this key uses.
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm::Aes128Gcm};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// println!("{:?}", Aes128Gcm::new(&[0u8; 16])?.backend());
    /// # Ok(()) }
    /// ```
    fn backend(&self) -> Backend {
        self.tier().backend()
    }

    #[cfg(feature = "alloc")]
    /// Encrypts `plaintext` and returns `ciphertext || tag`.
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm::Aes128Gcm};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128Gcm::new(&[3u8; 16])?;
    /// let sealed = key.encrypt(&[9u8; 12], b"", b"attack at dawn")?;
    /// assert_eq!(sealed.len(), 14 + 16);
    /// # Ok(()) }
    /// ```
    fn encrypt(&self, nonce: &Self::Nonce, aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        self.check_call(aad.len(), plaintext.len())?;
        let mut out = vec![0u8; plaintext.len() + TAG_LEN];
        let written = self.encrypt_to(nonce, aad, plaintext, &mut out)?;
        debug_assert_eq!(written, out.len());
        Ok(out)
    }

    #[cfg(feature = "alloc")]
    /// Decrypts `ciphertext || tag` and returns the plaintext, or
    /// [`Error::Authentication`] if the tag does not verify.
    ///
    /// ```
    /// use hardware_aead::{Aead, Error, aes_gcm::Aes128Gcm};
    /// # fn main() -> Result<(), Error> {
    /// let key = Aes128Gcm::new(&[3u8; 16])?;
    /// let mut sealed = key.encrypt(&[9u8; 12], b"id=7", b"attack at dawn")?;
    /// assert_eq!(key.decrypt(&[9u8; 12], b"id=7", &sealed)?, b"attack at dawn");
    /// sealed[0] ^= 1;
    /// assert_eq!(key.decrypt(&[9u8; 12], b"id=7", &sealed), Err(Error::Authentication));
    /// # Ok(()) }
    /// ```
    fn decrypt(
        &self,
        nonce: &Self::Nonce,
        aad: &[u8],
        ciphertext_and_tag: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let text_len = ciphertext_and_tag
            .len()
            .checked_sub(TAG_LEN)
            .ok_or(Error::CiphertextTooShort)?;
        self.check_call(aad.len(), text_len)?;
        let mut out = vec![0u8; text_len];
        self.decrypt_to(nonce, aad, ciphertext_and_tag, &mut out)?;
        Ok(out)
    }

    /// Encrypts `plaintext` into `out` as `ciphertext || tag` and returns the
    /// number of bytes written (`plaintext.len() + 16`). Never allocates.
    ///
    /// If `out` is too short this returns [`Error::BufferTooSmall`] and writes
    /// nothing.
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm::Aes256Gcm};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[5u8; 32])?;
    /// let mut out = [0u8; 64];
    /// let n = key.encrypt_to(&[1u8; 12], b"", b"sixteen byte msg", &mut out)?;
    /// assert_eq!(n, 32);
    /// # Ok(()) }
    /// ```
    fn encrypt_to(
        &self,
        nonce: &Self::Nonce,
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.check_call(aad.len(), plaintext.len())?;
        let needed = plaintext.len() + TAG_LEN;
        let Some(out) = out.get_mut(..needed) else {
            return Err(Error::BufferTooSmall { needed });
        };
        let (ciphertext, tag_out) = out.split_at_mut(plaintext.len());
        let tag = self.seal_core(nonce, aad, &mut InOut::copy(plaintext, ciphertext));
        tag_out.copy_from_slice(&tag);
        Ok(needed)
    }

    /// Decrypts `ciphertext || tag` into `out` and returns the plaintext length.
    /// Never allocates.
    ///
    /// On [`Error::Authentication`] the first `ciphertext_and_tag.len() - 16` bytes
    /// of `out` are all zero. If `out` is too short this returns
    /// [`Error::BufferTooSmall`] and writes nothing.
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm::Aes256Gcm};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[5u8; 32])?;
    /// let sealed = key.encrypt(&[1u8; 12], b"", b"hi")?;
    /// let mut out = [0u8; 2];
    /// assert_eq!(key.decrypt_to(&[1u8; 12], b"", &sealed, &mut out)?, 2);
    /// assert_eq!(&out, b"hi");
    /// # Ok(()) }
    /// ```
    fn decrypt_to(
        &self,
        nonce: &Self::Nonce,
        aad: &[u8],
        ciphertext_and_tag: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let text_len = ciphertext_and_tag
            .len()
            .checked_sub(TAG_LEN)
            .ok_or(Error::CiphertextTooShort)?;
        self.check_call(aad.len(), text_len)?;
        let (ciphertext, tag) = ciphertext_and_tag.split_at(text_len);
        let Some(out) = out.get_mut(..text_len) else {
            return Err(Error::BufferTooSmall { needed: text_len });
        };
        let mut received = [0u8; TAG_LEN];
        received.copy_from_slice(tag);
        let computed = self.open_core(nonce, aad, &mut InOut::copy(ciphertext, out), &received);
        verify_or_wipe(computed, &received, out)?;
        Ok(text_len)
    }

    /// Encrypts `buffer` in place and returns the tag.
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm::Aes128Gcm};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128Gcm::new(&[8u8; 16])?;
    /// let mut buffer = *b"in place";
    /// let tag = key.encrypt_in_place_detached(&[2u8; 12], b"", &mut buffer)?;
    /// key.decrypt_in_place_detached(&[2u8; 12], b"", &mut buffer, &tag)?;
    /// assert_eq!(&buffer, b"in place");
    /// # Ok(()) }
    /// ```
    fn encrypt_in_place_detached(
        &self,
        nonce: &Self::Nonce,
        aad: &[u8],
        buffer: &mut [u8],
    ) -> Result<Tag, Error> {
        self.check_call(aad.len(), buffer.len())?;
        Ok(self.seal_core(nonce, aad, &mut InOut::in_place(buffer)))
    }

    /// Decrypts `buffer` in place if `tag` verifies; otherwise returns
    /// [`Error::Authentication`] and leaves `buffer` all zero.
    ///
    /// ```
    /// use hardware_aead::{Aead, Error, aes_gcm::Aes128Gcm};
    /// # fn main() -> Result<(), Error> {
    /// let key = Aes128Gcm::new(&[8u8; 16])?;
    /// let mut buffer = *b"in place";
    /// let mut tag = key.encrypt_in_place_detached(&[2u8; 12], b"", &mut buffer)?;
    /// tag[15] ^= 0x80;
    /// assert_eq!(key.decrypt_in_place_detached(&[2u8; 12], b"", &mut buffer, &tag),
    ///            Err(Error::Authentication));
    /// assert_eq!(buffer, [0u8; 8]);
    /// # Ok(()) }
    /// ```
    fn decrypt_in_place_detached(
        &self,
        nonce: &Self::Nonce,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Tag,
    ) -> Result<(), Error> {
        self.check_call(aad.len(), buffer.len())?;
        let computed = self.open_core(nonce, aad, &mut InOut::in_place(buffer), tag);
        verify_or_wipe(computed, tag, buffer)
    }

    /// Builds the key state inside `slot` (never moved afterwards) on the
    /// fastest tier the CPU has. Dropping the returned guard drops the key and
    /// zeroes every byte of the slot. See [`placement`](crate::placement).
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm::Aes128Gcm, placement::KeySlot};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let mut slot = KeySlot::new();
    /// let key = Aes128Gcm::new_in(&mut slot, &[9; 16])?;
    /// let (nonce, sealed) = key.encrypt_with_generated_nonce(b"", b"hi")?;
    /// assert_eq!(key.decrypt(&nonce, b"", &sealed)?, b"hi");
    /// # Ok(()) }
    /// ```
    fn new_in<'a>(
        slot: &'a mut KeySlot<Self>,
        key: &Self::KeyBytes,
    ) -> Result<Placed<'a, Self>, Error> {
        let tier = Tier::best()?;
        // SAFETY: the slot's storage is valid for writes of `Self` and aligned
        // for it; what it held (nothing live: a `Placed` borrowing it would
        // prevent this call) is overwritten.
        unsafe { Self::init_at(slot.as_mut_ptr(), tier, key) };
        // SAFETY: `init_at` initialised every field.
        Ok(unsafe { Placed::new(slot) })
    }

    /// Builds the key state at `at`, in memory the caller allocated (for
    /// example locked or guarded pages), on the fastest tier the CPU has.
    ///
    /// # Safety
    /// - `at` must be valid for reads and writes of
    ///   [`key_state_layout::<Self>()`](crate::placement::key_state_layout)
    ///   bytes and aligned to it, and not used by anything else while the key
    ///   lives there;
    /// - on `Ok`, `*at` is an initialised key: use it through `&*at`, and end
    ///   its life with [`core::ptr::drop_in_place`] (which zeroizes the round
    ///   keys and GHASH powers) before the memory is freed or reused — wiping
    ///   the rest of the bytes then is up to the caller;
    /// - on `Err`, nothing was written.
    ///
    /// ```
    /// use std::alloc::{alloc, dealloc};
    /// use hardware_aead::{Aead, aes_gcm::Aes256Gcm, placement::key_state_layout};
    ///
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let layout = key_state_layout::<Aes256Gcm>();
    /// // SAFETY: the layout has a non-zero size.
    /// let at = unsafe { alloc(layout) }.cast::<Aes256Gcm>();
    /// assert!(!at.is_null());
    /// // SAFETY: `at` is a fresh allocation of the key's layout.
    /// unsafe { Aes256Gcm::new_at(at, &[3; 32])? };
    /// // SAFETY: initialised just above.
    /// let key = unsafe { &*at };
    /// let sealed = key.encrypt(&[0; 12], b"", b"guarded")?;
    /// // SAFETY: the key is dropped once, then the memory is freed.
    /// unsafe {
    ///     core::ptr::drop_in_place(at);
    ///     dealloc(at.cast(), layout);
    /// }
    /// # let _ = sealed;
    /// # Ok(()) }
    /// ```
    unsafe fn new_at(at: *mut Self, key: &Self::KeyBytes) -> Result<(), Error> {
        let tier = Tier::best()?;
        // SAFETY: the caller guarantees `at` is valid for writes and aligned.
        unsafe { Self::init_at(at, tier, key) };
        Ok(())
    }

    #[cfg(feature = "std")]
    /// Encrypts with the next generated nonce of this key and returns the
    /// nonce with `ciphertext || tag`.
    ///
    /// For the 96-bit-nonce types, nonces are a 96-bit salt drawn from the
    /// operating system on first use, XORed with a 64-bit per-key counter
    /// (thread-safe; re-salted in a child after `fork()`); they never repeat
    /// under one key. After 2^64 nonces this returns [`Error::NonceExhausted`].
    ///
    /// For [`Xaes256Gcm`](crate::xaes_gcm::Xaes256Gcm), a nonce is 24 random
    /// bytes from the crate's generator ([`random`](crate::random)): no
    /// counter, no state in the key, and a repeat is a 2^-192 event per pair
    /// of messages.
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm::Aes256Gcm};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[4; 32])?;
    /// let (nonce, sealed) = key.encrypt_with_generated_nonce(b"aad", b"msg")?;
    /// assert_eq!(key.decrypt(&nonce, b"aad", &sealed)?, b"msg");
    /// # Ok(()) }
    /// ```
    fn encrypt_with_generated_nonce(
        &self,
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<(Self::Nonce, Vec<u8>), Error> {
        self.check_call(aad.len(), plaintext.len())?;
        let nonce = self.generate_nonce()?;
        Ok((nonce, self.encrypt(&nonce, aad, plaintext)?))
    }

    #[cfg(feature = "std")]
    /// Encrypts with the next generated nonce and returns
    /// `ciphertext || tag || nonce`, for [`decrypt_nonce_appended`](Aead::decrypt_nonce_appended).
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm_siv::Aes128GcmSiv};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128GcmSiv::new(&[4; 16])?;
    /// let sealed = key.encrypt_nonce_appended_generated(b"", b"msg")?;
    /// assert_eq!(sealed.len(), 3 + 16 + 12);
    /// assert_eq!(key.decrypt_nonce_appended(b"", &sealed)?, b"msg");
    /// # Ok(()) }
    /// ```
    fn encrypt_nonce_appended_generated(
        &self,
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.check_call(aad.len(), plaintext.len())?;
        let mut out = vec![0u8; plaintext.len() + TAG_LEN + Self::NONCE_LEN];
        let written = self.encrypt_nonce_appended_generated_to(aad, plaintext, &mut out)?;
        debug_assert_eq!(written, out.len());
        Ok(out)
    }

    #[cfg(feature = "std")]
    /// [`encrypt_nonce_appended_generated`](Aead::encrypt_nonce_appended_generated)
    /// into `out`; returns the bytes written (`plaintext.len() + 16 +
    /// NONCE_LEN`: + 28, or + 40 for XAES-256-GCM). Never
    /// allocates. If `out` is too short: [`Error::BufferTooSmall`], nothing
    /// written and no nonce used.
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm::Aes128Gcm};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128Gcm::new(&[4; 16])?;
    /// let mut out = [0u8; 64];
    /// let n = key.encrypt_nonce_appended_generated_to(b"", b"msg", &mut out)?;
    /// let mut plain = [0u8; 3];
    /// key.decrypt_nonce_appended_to(b"", &out[..n], &mut plain)?;
    /// assert_eq!(&plain, b"msg");
    /// # Ok(()) }
    /// ```
    fn encrypt_nonce_appended_generated_to(
        &self,
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.check_call(aad.len(), plaintext.len())?;
        let needed = plaintext.len() + TAG_LEN + Self::NONCE_LEN;
        let Some(out) = out.get_mut(..needed) else {
            return Err(Error::BufferTooSmall { needed });
        };
        let nonce = self.generate_nonce()?;
        let (sealed, nonce_out) = out.split_at_mut(needed - Self::NONCE_LEN);
        self.encrypt_to(&nonce, aad, plaintext, sealed)?;
        nonce_out.copy_from_slice(nonce.as_ref());
        Ok(needed)
    }

    #[cfg(feature = "alloc")]
    /// Decrypts `ciphertext || tag || nonce` as produced by
    /// [`encrypt_nonce_appended_generated`](Aead::encrypt_nonce_appended_generated).
    ///
    /// ```
    /// use hardware_aead::{Aead, Error, aes_gcm::Aes256Gcm};
    /// # fn main() -> Result<(), Error> {
    /// let key = Aes256Gcm::new(&[4; 32])?;
    /// let mut sealed = key.encrypt_nonce_appended_generated(b"", b"msg")?;
    /// let last = sealed.len() - 1;
    /// sealed[last] ^= 1; // a nonce bit
    /// assert_eq!(key.decrypt_nonce_appended(b"", &sealed), Err(Error::Authentication));
    /// # Ok(()) }
    /// ```
    fn decrypt_nonce_appended(&self, aad: &[u8], data: &[u8]) -> Result<Vec<u8>, Error> {
        let text_len = data
            .len()
            .checked_sub(TAG_LEN + Self::NONCE_LEN)
            .ok_or(Error::CiphertextTooShort)?;
        self.check_call(aad.len(), text_len)?;
        let mut out = vec![0u8; text_len];
        self.decrypt_nonce_appended_to(aad, data, &mut out)?;
        Ok(out)
    }

    /// [`decrypt_nonce_appended`](Aead::decrypt_nonce_appended) into `out`;
    /// returns the plaintext length. Never allocates; on
    /// [`Error::Authentication`] the plaintext area of `out` is all zero.
    ///
    /// ```
    /// use hardware_aead::{Aead, aes_gcm_siv::Aes256GcmSiv};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256GcmSiv::new(&[4; 32])?;
    /// let sealed = key.encrypt_nonce_appended_generated(b"", b"msg")?;
    /// let mut out = [0u8; 3];
    /// assert_eq!(key.decrypt_nonce_appended_to(b"", &sealed, &mut out)?, 3);
    /// # Ok(()) }
    /// ```
    fn decrypt_nonce_appended_to(
        &self,
        aad: &[u8],
        data: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let sealed_len = data
            .len()
            .checked_sub(Self::NONCE_LEN)
            .ok_or(Error::CiphertextTooShort)?;
        if sealed_len < TAG_LEN {
            return Err(Error::CiphertextTooShort);
        }
        let (sealed, nonce) = data.split_at(sealed_len);
        // `nonce` is exactly `NONCE_LEN` bytes, so the conversion succeeds.
        let nonce = Self::Nonce::try_from(nonce).map_err(|_| Error::CiphertextTooShort)?;
        self.decrypt_to(&nonce, aad, sealed, out)
    }
}

/// The one place that decides whether decrypted bytes are released: compares the
/// tags in constant time and, if they differ, zeroes `plaintext` before returning
/// [`Error::Authentication`]. The computed tag is wiped either way.
pub(crate) fn verify_or_wipe(
    mut computed: Tag,
    received: &Tag,
    plaintext: &mut [u8],
) -> Result<(), Error> {
    // XOR the tags as two words and compare the OR of the differences with zero:
    // no early exit, and `subtle` keeps the final test branch-free up to the
    // one public decision below.
    let diff = u128::from_le_bytes(computed) ^ u128::from_le_bytes(*received);
    let folded = (diff as u64) | ((diff >> 64) as u64);
    // After a forgery the computed tag is the valid tag for the forged
    // ciphertext: do not leave it on the stack.
    computed.zeroize();
    if bool::from(folded.ct_eq(&0)) {
        Ok(())
    } else {
        plaintext.zeroize();
        Err(Error::Authentication)
    }
}

/// Implements the sealed `Core`, [`Aead`] and a `Debug` that shows no key bytes
/// for an algorithm's key type. The type has one field, `key`, of the backend
/// key-state type `state` (with `init_at`, `tier` and `nonces`); the
/// algorithm's `check_lengths`, `seal` and `open` (the last two taking
/// `&self.key` first) are named in the call, so a reader sees at the call
/// site what the trait methods run. One body serves every key type.
macro_rules! impl_aead {
    (
        $name:ident,
        key_len = $key_len:literal,
        state = $State:ident,
        check_lengths = $check_lengths:path,
        seal = $seal:path,
        open = $open:path $(,)?
    ) => {
        impl $crate::aead::sealed::Core for $name {
            type KeyBytes = [u8; $key_len];
            type Nonce = $crate::Nonce;

            unsafe fn init_at(at: *mut Self, tier: $crate::backend::Tier, key: &[u8; $key_len]) {
                // SAFETY: `at` is valid for writes and aligned (caller), so is
                // its only field.
                unsafe { $State::init_at(core::ptr::addr_of_mut!((*at).key), tier, key) }
            }

            #[cfg(feature = "std")]
            fn generate_nonce(&self) -> Result<$crate::Nonce, $crate::Error> {
                self.key.nonces().next()
            }

            fn tier(&self) -> $crate::backend::Tier {
                self.key.tier()
            }

            fn is_live(&self) -> bool {
                self.key.is_live()
            }

            fn check_lengths(aad_len: usize, text_len: usize) -> Result<(), $crate::Error> {
                $check_lengths(aad_len as u64, text_len as u64)
            }

            fn seal_core(
                &self,
                nonce: &$crate::Nonce,
                aad: &[u8],
                data: &mut $crate::inout::InOut<'_>,
            ) -> $crate::Tag {
                $seal(&self.key, nonce, aad, data)
            }

            fn open_core(
                &self,
                nonce: &$crate::Nonce,
                aad: &[u8],
                data: &mut $crate::inout::InOut<'_>,
                tag: &$crate::Tag,
            ) -> $crate::Tag {
                $open(&self.key, nonce, aad, data, tag)
            }
        }

        impl $crate::Aead for $name {
            const KEY_LEN: usize = $key_len;
            const NONCE_LEN: usize = $crate::NONCE_LEN;
        }

        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("backend", &$crate::Aead::backend(self))
                    .finish_non_exhaustive()
            }
        }
    };
}
pub(crate) use impl_aead;
