//! The shared AEAD trait, [`AeadKey`]: every public call written once, over a
//! core seal/open that each algorithm supplies, and forwarded to by each key
//! type's inherent methods (`impl_inherent!`).

#[cfg(feature = "alloc")]
use alloc::{vec, vec::Vec};

use zeroize::Zeroize;

use crate::backend::{Tier, TierToken};
use crate::error::Error;
use crate::inout::InOut;
use crate::placement::{KeySlot, Placed};

/// A 128-bit authentication tag: what the detached calls of every key type
/// but [`KcXaes256Gcm`](crate::xaes_gcm::KcXaes256Gcm) return and take (its
/// [`AeadKey::Tag`]; KC-XAES-256-GCM's is [`KcTag`](crate::xaes_gcm::KcTag)).
///
/// ```
/// use hardware_aead::{Tag, aes_gcm::Aes128Gcm};
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = Aes128Gcm::new(&[1; 16])?;
/// let mut buffer = *b"in place";
/// let tag: Tag = key.seal_in_place_detached(&[2; 12], b"", &mut buffer)?;
/// key.open_in_place_detached(&[2; 12], b"", &mut buffer, &tag)?;
/// assert_eq!(&buffer, b"in place");
/// # Ok(()) }
/// ```
pub type Tag = [u8; 16];

/// The length of a [`Tag`] in bytes: what a seal adds to the plaintext (for
/// every key type but `KcXaes256Gcm`, whose `TAG_LEN` is 48).
///
/// ```
/// use hardware_aead::{TAG_LEN, aes_gcm::Aes128Gcm};
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = Aes128Gcm::new(&[1; 16])?;
/// assert_eq!(key.seal(&[2; 12], b"", b"five!")?.len(), 5 + TAG_LEN);
/// # Ok(()) }
/// ```
pub const TAG_LEN: usize = 16;

pub(crate) use crate::nonce::Nonce;

pub(crate) mod inherent;
pub(crate) mod sealed;

/// The AEAD interface shared by every key type of the crate, for generic
/// code.
///
/// Every key type also has each of these calls as an inherent method of the
/// same name, which forwards to the trait's: a caller with a concrete key
/// type needs no import, and an inherent method wins over any other trait's
/// method of the same name (RustCrypto's `aead` traits among them). The
/// trait is for code generic over the key type:
///
/// ```
/// use hardware_aead::{AeadKey, Error, aes_gcm::Aes256Gcm, xaes_gcm::Xaes256Gcm};
///
/// fn round_trip<K: AeadKey>(key: &K, nonce: &K::Nonce) -> Result<bool, Error> {
///     let sealed = key.seal(nonce, b"header", b"hello")?;
///     Ok(sealed.len() == 5 + K::TAG_LEN && key.open(nonce, b"header", &sealed)? == b"hello")
/// }
/// # fn main() -> Result<(), Error> {
/// assert!(round_trip(&Aes256Gcm::new(&[0x42; 32])?, &[0; 12])?);
/// assert!(round_trip(&Xaes256Gcm::new(&[0x42; 32])?, &[0; 24])?);
/// # Ok(()) }
/// ```
///
/// The vocabulary is seal and open, which no RustCrypto trait uses: a
/// generic function bound on both `AeadKey` and `aead::AeadInOut` (feature
/// `aead`) calls either trait's methods without naming the trait.
///
/// Each key type has its own key, nonce and tag types ([`Key`](AeadKey::Key),
/// [`Nonce`](AeadKey::Nonce), [`Tag`](AeadKey::Tag)) and lengths
/// ([`KEY_LEN`](AeadKey::KEY_LEN), [`NONCE_LEN`](AeadKey::NONCE_LEN),
/// [`TAG_LEN`](AeadKey::TAG_LEN)): 12-byte nonces for AES-GCM and
/// AES-GCM-SIV, 24 for XAES-256-GCM and KC-XAES-256-GCM; 16-byte tags
/// ([`Tag`]) for all but KC-XAES-256-GCM, whose 48-byte tag holds
/// the key commitment too. Generic code over 96-bit-nonce keys names the
/// nonce with a bound:
///
/// ```
/// use hardware_aead::{AeadKey, aes_gcm_siv::Aes128GcmSiv};
///
/// fn seal_twice<K: AeadKey<Nonce = [u8; 12]>>(key: &K, nonce: &[u8; 12]) -> bool {
///     key.seal(nonce, b"", b"x").ok() == key.seal(nonce, b"", b"x").ok()
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
///
/// The trait is sealed: only this crate's key types implement it.
pub trait AeadKey: sealed::Core + Send + Sync {
    /// The key bytes: `[u8; 16]` for the AES-128 types, `[u8; 32]` for the
    /// others.
    ///
    /// ```
    /// use hardware_aead::{AeadKey, Error, aes_gcm::Aes128Gcm};
    ///
    /// fn from_bytes<K: AeadKey>(bytes: &[u8]) -> Result<K, Error> {
    ///     let key = K::Key::try_from(bytes).map_err(|_| Error::InvalidKeyLength)?;
    ///     K::new(&key)
    /// }
    /// assert!(from_bytes::<Aes128Gcm>(&[1; 16]).is_ok());
    /// assert_eq!(from_bytes::<Aes128Gcm>(&[1; 32]).err(), Some(Error::InvalidKeyLength));
    /// ```
    type Key: AsRef<[u8]> + Zeroize + for<'a> TryFrom<&'a [u8]>;

    /// The nonce: `[u8; 12]` for AES-GCM and AES-GCM-SIV, `[u8; 24]` for
    /// XAES-256-GCM and KC-XAES-256-GCM.
    ///
    /// ```
    /// use hardware_aead::{AeadKey, xaes_gcm::Xaes256Gcm};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Xaes256Gcm::new(&[7; 32])?;
    /// let mut nonce: <Xaes256Gcm as AeadKey>::Nonce = [0; 24];
    /// hardware_aead::random::fill(&mut nonce)?; // random nonces are XAES's point
    /// let sealed = key.seal(&nonce, b"", b"hi")?;
    /// assert_eq!(key.open(&nonce, b"", &sealed)?, b"hi");
    /// # Ok(()) }
    /// ```
    type Nonce: AsRef<[u8]> + Copy + Send + Sync + for<'a> TryFrom<&'a [u8]>;

    /// What a seal appends to the ciphertext and an open checks, as one
    /// array: `[u8; 16]` ([`Tag`]), or `[u8; 48]`
    /// ([`KcTag`](crate::xaes_gcm::KcTag)) for KC-XAES-256-GCM (the GCM tag,
    /// then the key commitment). The detached calls return and take it.
    ///
    /// ```
    /// use hardware_aead::{AeadKey, Error, xaes_gcm::KcXaes256Gcm};
    ///
    /// fn forged<K: AeadKey>(key: &K, nonce: &K::Nonce) -> Result<bool, Error> {
    ///     let mut buffer = *b"data";
    ///     let mut tag: K::Tag = key.seal_in_place_detached(nonce, b"", &mut buffer)?;
    ///     tag.as_mut()[K::TAG_LEN - 1] ^= 1;
    ///     Ok(key.open_in_place_detached(nonce, b"", &mut buffer, &tag) == Err(Error::Authentication))
    /// }
    /// # fn main() -> Result<(), Error> {
    /// assert!(forged(&KcXaes256Gcm::new(&[1; 32])?, &[2; 24])?);
    /// # Ok(()) }
    /// ```
    type Tag: AsRef<[u8]>
        + AsMut<[u8]>
        + Copy
        + Send
        + Sync
        + Zeroize
        + core::fmt::Debug
        + PartialEq
        + for<'a> TryFrom<&'a [u8]>;

    /// The key length in bytes: 16 for the AES-128 types, 32 for the others.
    ///
    /// ```
    /// use hardware_aead::{AeadKey, Error, aes_gcm::{Aes128Gcm, Aes256Gcm}};
    ///
    /// fn key_len<K: AeadKey>() -> usize {
    ///     K::KEY_LEN
    /// }
    /// assert_eq!((key_len::<Aes128Gcm>(), key_len::<Aes256Gcm>()), (16, 32));
    /// let short = [7u8; Aes256Gcm::KEY_LEN - 1];
    /// assert_eq!(Aes256Gcm::new_from_slice(&short).err(), Some(Error::InvalidKeyLength));
    /// ```
    const KEY_LEN: usize;

    /// The nonce length in bytes: 12, or 24 for XAES-256-GCM and
    /// KC-XAES-256-GCM.
    ///
    /// ```
    /// use hardware_aead::{AeadKey, aes_gcm::Aes256Gcm, xaes_gcm::Xaes256Gcm};
    /// assert_eq!(<Aes256Gcm as AeadKey>::NONCE_LEN, 12);
    /// assert_eq!(Xaes256Gcm::NONCE_LEN, 24);
    /// ```
    const NONCE_LEN: usize;

    /// The length in bytes of what a seal appends (the key type's tag, [`Self::Tag`]): 16
    /// ([`TAG_LEN`]), or 48 for
    /// [`KcXaes256Gcm`](crate::xaes_gcm::KcXaes256Gcm) (GCM's tag, then the
    /// 32-byte key commitment).
    ///
    /// ```
    /// use hardware_aead::{AeadKey, aes_gcm::Aes256Gcm, xaes_gcm::KcXaes256Gcm};
    /// assert_eq!(<Aes256Gcm as AeadKey>::TAG_LEN, 16);
    /// assert_eq!(KcXaes256Gcm::TAG_LEN, 48);
    /// ```
    const TAG_LEN: usize;

    /// Builds the key state on the fastest hardware tier the CPU has.
    ///
    /// The CPU is checked before the key is read: on a CPU without the needed
    /// instructions this returns [`Error::UnsupportedCpu`].
    ///
    /// ```
    /// use hardware_aead::aes_gcm::Aes128Gcm;
    /// let key = Aes128Gcm::new(&[1u8; 16]).expect("this CPU has AES and carry-less multiply");
    /// # let _ = key;
    /// ```
    fn new(key: &Self::Key) -> Result<Self, Error> {
        let tier = TierToken::best()?;
        Ok(Self::from_token(tier, key))
    }

    /// Like [`new`](AeadKey::new), from a slice: [`Error::InvalidKeyLength`] if it has
    /// the wrong length.
    ///
    /// ```
    /// use hardware_aead::{Error, aes_gcm::Aes256Gcm};
    /// assert!(Aes256Gcm::new_from_slice(&[0u8; 32]).is_ok());
    /// assert_eq!(Aes256Gcm::new_from_slice(&[0u8; 16]).err(), Some(Error::InvalidKeyLength));
    /// ```
    fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        let tier = TierToken::best()?;
        let mut key = Self::Key::try_from(key).map_err(|_| Error::InvalidKeyLength)?;
        let state = Self::from_token(tier, &key);
        key.zeroize();
        Ok(state)
    }

    /// Builds the key state on the tier `tier`, or returns
    /// [`Error::UnsupportedCpu`] if this CPU (or this build) does not have it.
    ///
    /// ```
    /// use hardware_aead::{Tier, Error, aes_gcm::Aes128Gcm};
    /// match Aes128Gcm::with_tier(&[0u8; 16], Tier::Armv8) {
    ///     Ok(key) => assert_eq!(key.tier(), Tier::Armv8),
    ///     Err(Error::UnsupportedCpu { missing }) => println!("no ARMv8 path: {missing}"),
    ///     Err(e) => panic!("{e}"),
    /// }
    /// ```
    fn with_tier(key: &Self::Key, tier: Tier) -> Result<Self, Error> {
        let tier = TierToken::detect(tier)?;
        Ok(Self::from_token(tier, key))
    }

    /// The hardware tier this key uses.
    ///
    /// ```
    /// use hardware_aead::aes_gcm::Aes128Gcm;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// println!("{:?}", Aes128Gcm::new(&[0u8; 16])?.tier());
    /// # Ok(()) }
    /// ```
    fn tier(&self) -> Tier {
        self.token().tier()
    }

    #[cfg(feature = "alloc")]
    /// Seals `plaintext` and returns `ciphertext || tag`.
    ///
    /// ```
    /// use hardware_aead::aes_gcm::Aes128Gcm;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128Gcm::new(&[3u8; 16])?;
    /// let sealed = key.seal(&[9u8; 12], b"", b"attack at dawn")?;
    /// assert_eq!(sealed.len(), 14 + 16);
    /// # Ok(()) }
    /// ```
    fn seal(&self, nonce: &Self::Nonce, aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        self.check_call(aad.len(), plaintext.len())?;
        let mut out = vec![0u8; plaintext.len() + Self::TAG_LEN];
        let written = self.seal_to(nonce, aad, plaintext, &mut out)?;
        debug_assert_eq!(written, out.len());
        Ok(out)
    }

    #[cfg(feature = "alloc")]
    /// Opens `ciphertext || tag` and returns the plaintext, or
    /// [`Error::Authentication`] if the tag does not verify.
    ///
    /// ```
    /// use hardware_aead::{Error, aes_gcm::Aes128Gcm};
    /// # fn main() -> Result<(), Error> {
    /// let key = Aes128Gcm::new(&[3u8; 16])?;
    /// let mut sealed = key.seal(&[9u8; 12], b"id=7", b"attack at dawn")?;
    /// assert_eq!(key.open(&[9u8; 12], b"id=7", &sealed)?, b"attack at dawn");
    /// sealed[0] ^= 1;
    /// assert_eq!(key.open(&[9u8; 12], b"id=7", &sealed), Err(Error::Authentication));
    /// # Ok(()) }
    /// ```
    fn open(
        &self,
        nonce: &Self::Nonce,
        aad: &[u8],
        ciphertext_and_tag: &[u8],
    ) -> Result<Vec<u8>, Error> {
        let text_len = ciphertext_and_tag
            .len()
            .checked_sub(Self::TAG_LEN)
            .ok_or(Error::Truncated)?;
        self.check_call(aad.len(), text_len)?;
        let mut out = vec![0u8; text_len];
        self.open_to(nonce, aad, ciphertext_and_tag, &mut out)?;
        Ok(out)
    }

    /// Seals `plaintext` into `out` as `ciphertext || tag` and returns the
    /// number of bytes written (`plaintext.len() + TAG_LEN`: + 16, or + 48 for
    /// KC-XAES-256-GCM). Never allocates.
    ///
    /// If `out` is too short this returns [`Error::BufferTooSmall`] and writes
    /// nothing.
    ///
    /// ```
    /// use hardware_aead::aes_gcm::Aes256Gcm;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[5u8; 32])?;
    /// let mut out = [0u8; 64];
    /// let n = key.seal_to(&[1u8; 12], b"", b"sixteen byte msg", &mut out)?;
    /// assert_eq!(n, 32);
    /// # Ok(()) }
    /// ```
    #[inline]
    fn seal_to(
        &self,
        nonce: &Self::Nonce,
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.check_call(aad.len(), plaintext.len())?;
        let needed = plaintext.len() + Self::TAG_LEN;
        let Some(out) = out.get_mut(..needed) else {
            return Err(Error::BufferTooSmall { needed });
        };
        let (ciphertext, tag_out) = out.split_at_mut(plaintext.len());
        let tag = self.seal_core(nonce, aad, &mut InOut::copy(plaintext, ciphertext));
        tag_out.copy_from_slice(tag.as_ref());
        Ok(needed)
    }

    /// Opens `ciphertext || tag` into `out` and returns the plaintext length.
    /// Never allocates.
    ///
    /// On [`Error::Authentication`] the first `ciphertext_and_tag.len() - TAG_LEN`
    /// bytes of `out` are all zero. If `out` is too short this returns
    /// [`Error::BufferTooSmall`] and writes nothing.
    ///
    /// ```
    /// use hardware_aead::aes_gcm::Aes256Gcm;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[5u8; 32])?;
    /// let sealed = key.seal(&[1u8; 12], b"", b"hi")?;
    /// let mut out = [0u8; 2];
    /// assert_eq!(key.open_to(&[1u8; 12], b"", &sealed, &mut out)?, 2);
    /// assert_eq!(&out, b"hi");
    /// # Ok(()) }
    /// ```
    #[inline]
    fn open_to(
        &self,
        nonce: &Self::Nonce,
        aad: &[u8],
        ciphertext_and_tag: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let text_len = ciphertext_and_tag
            .len()
            .checked_sub(Self::TAG_LEN)
            .ok_or(Error::Truncated)?;
        self.check_call(aad.len(), text_len)?;
        let (ciphertext, tag) = ciphertext_and_tag.split_at(text_len);
        let Some(out) = out.get_mut(..text_len) else {
            return Err(Error::BufferTooSmall { needed: text_len });
        };
        // `tag` is exactly `TAG_LEN` bytes, so the conversion succeeds.
        let received = Self::Tag::try_from(tag).map_err(|_| Error::Truncated)?;
        if self.open_core(nonce, aad, &mut InOut::copy(ciphertext, out), &received) {
            Ok(text_len)
        } else {
            Err(Error::Authentication)
        }
    }

    /// Seals `buffer` in place and returns the tag.
    ///
    /// ```
    /// use hardware_aead::aes_gcm::Aes128Gcm;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128Gcm::new(&[8u8; 16])?;
    /// let mut buffer = *b"in place";
    /// let tag = key.seal_in_place_detached(&[2u8; 12], b"", &mut buffer)?;
    /// key.open_in_place_detached(&[2u8; 12], b"", &mut buffer, &tag)?;
    /// assert_eq!(&buffer, b"in place");
    /// # Ok(()) }
    /// ```
    #[inline]
    fn seal_in_place_detached(
        &self,
        nonce: &Self::Nonce,
        aad: &[u8],
        buffer: &mut [u8],
    ) -> Result<Self::Tag, Error> {
        self.check_call(aad.len(), buffer.len())?;
        Ok(self.seal_core(nonce, aad, &mut InOut::in_place(buffer)))
    }

    /// Opens `buffer` in place if `tag` verifies; otherwise returns
    /// [`Error::Authentication`] and leaves `buffer` all zero.
    ///
    /// ```
    /// use hardware_aead::{Error, aes_gcm::Aes128Gcm};
    /// # fn main() -> Result<(), Error> {
    /// let key = Aes128Gcm::new(&[8u8; 16])?;
    /// let mut buffer = *b"in place";
    /// let mut tag = key.seal_in_place_detached(&[2u8; 12], b"", &mut buffer)?;
    /// tag[15] ^= 0x80;
    /// assert_eq!(key.open_in_place_detached(&[2u8; 12], b"", &mut buffer, &tag),
    ///            Err(Error::Authentication));
    /// assert_eq!(buffer, [0u8; 8]);
    /// # Ok(()) }
    /// ```
    #[inline]
    fn open_in_place_detached(
        &self,
        nonce: &Self::Nonce,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &Self::Tag,
    ) -> Result<(), Error> {
        self.check_call(aad.len(), buffer.len())?;
        if self.open_core(nonce, aad, &mut InOut::in_place(buffer), tag) {
            Ok(())
        } else {
            Err(Error::Authentication)
        }
    }

    /// Builds the key state inside `slot` (never moved afterwards) on the
    /// fastest tier the CPU has. Dropping the returned guard drops the key and
    /// zeroes every byte of the slot. See [`placement`](crate::placement).
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes128Gcm, placement::KeySlot};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let mut slot = KeySlot::new();
    /// let key = Aes128Gcm::new_in(&mut slot, &[9; 16])?;
    /// let (nonce, sealed) = key.seal_with_generated_nonce(b"", b"hi")?;
    /// assert_eq!(key.open(&nonce, b"", &sealed)?, b"hi");
    /// # Ok(()) }
    /// ```
    fn new_in<'a>(slot: &'a mut KeySlot<Self>, key: &Self::Key) -> Result<Placed<'a, Self>, Error> {
        let tier = TierToken::best()?;
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
    /// use hardware_aead::{aes_gcm::Aes256Gcm, placement::key_state_layout};
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
    /// let sealed = key.seal(&[0; 12], b"", b"guarded")?;
    /// // SAFETY: the key is dropped once, then the memory is freed.
    /// unsafe {
    ///     core::ptr::drop_in_place(at);
    ///     dealloc(at.cast(), layout);
    /// }
    /// # let _ = sealed;
    /// # Ok(()) }
    /// ```
    unsafe fn new_at(at: *mut Self, key: &Self::Key) -> Result<(), Error> {
        let tier = TierToken::best()?;
        // SAFETY: the caller guarantees `at` is valid for writes and aligned.
        unsafe { Self::init_at(at, tier, key) };
        Ok(())
    }

    #[cfg(feature = "std")]
    /// Seals with the next generated nonce of this key and returns the
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
    /// use hardware_aead::aes_gcm::Aes256Gcm;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[4; 32])?;
    /// let (nonce, sealed) = key.seal_with_generated_nonce(b"aad", b"msg")?;
    /// assert_eq!(key.open(&nonce, b"aad", &sealed)?, b"msg");
    /// # Ok(()) }
    /// ```
    fn seal_with_generated_nonce(
        &self,
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<(Self::Nonce, Vec<u8>), Error> {
        self.check_call(aad.len(), plaintext.len())?;
        let nonce = self.generate_nonce()?;
        Ok((nonce, self.seal(&nonce, aad, plaintext)?))
    }

    #[cfg(feature = "std")]
    /// Seals with the next generated nonce and returns
    /// `ciphertext || tag || nonce`, for [`open_with_nonce_appended`](AeadKey::open_with_nonce_appended).
    ///
    /// ```
    /// use hardware_aead::aes_gcm_siv::Aes128GcmSiv;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128GcmSiv::new(&[4; 16])?;
    /// let sealed = key.seal_with_generated_nonce_appended(b"", b"msg")?;
    /// assert_eq!(sealed.len(), 3 + 16 + 12);
    /// assert_eq!(key.open_with_nonce_appended(b"", &sealed)?, b"msg");
    /// # Ok(()) }
    /// ```
    fn seal_with_generated_nonce_appended(
        &self,
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<Vec<u8>, Error> {
        self.check_call(aad.len(), plaintext.len())?;
        let mut out = vec![0u8; plaintext.len() + Self::TAG_LEN + Self::NONCE_LEN];
        let written = self.seal_with_generated_nonce_appended_to(aad, plaintext, &mut out)?;
        debug_assert_eq!(written, out.len());
        Ok(out)
    }

    #[cfg(feature = "std")]
    /// [`seal_with_generated_nonce_appended`](AeadKey::seal_with_generated_nonce_appended)
    /// into `out`; returns the bytes written (`plaintext.len() + TAG_LEN +
    /// NONCE_LEN`: + 28, + 40 for XAES-256-GCM, + 72 for KC-XAES-256-GCM). Never
    /// allocates. If `out` is too short: [`Error::BufferTooSmall`], nothing
    /// written and no nonce used.
    ///
    /// ```
    /// use hardware_aead::aes_gcm::Aes128Gcm;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128Gcm::new(&[4; 16])?;
    /// let mut out = [0u8; 64];
    /// let n = key.seal_with_generated_nonce_appended_to(b"", b"msg", &mut out)?;
    /// let mut plain = [0u8; 3];
    /// key.open_with_nonce_appended_to(b"", &out[..n], &mut plain)?;
    /// assert_eq!(&plain, b"msg");
    /// # Ok(()) }
    /// ```
    fn seal_with_generated_nonce_appended_to(
        &self,
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.check_call(aad.len(), plaintext.len())?;
        let needed = plaintext.len() + Self::TAG_LEN + Self::NONCE_LEN;
        let Some(out) = out.get_mut(..needed) else {
            return Err(Error::BufferTooSmall { needed });
        };
        let nonce = self.generate_nonce()?;
        let (sealed, nonce_out) = out.split_at_mut(needed - Self::NONCE_LEN);
        self.seal_to(&nonce, aad, plaintext, sealed)?;
        nonce_out.copy_from_slice(nonce.as_ref());
        Ok(needed)
    }

    #[cfg(feature = "alloc")]
    /// Opens `ciphertext || tag || nonce` as produced by
    /// [`seal_with_generated_nonce_appended`](AeadKey::seal_with_generated_nonce_appended).
    ///
    /// ```
    /// use hardware_aead::{Error, aes_gcm::Aes256Gcm};
    /// # fn main() -> Result<(), Error> {
    /// let key = Aes256Gcm::new(&[4; 32])?;
    /// let mut sealed = key.seal_with_generated_nonce_appended(b"", b"msg")?;
    /// let last = sealed.len() - 1;
    /// sealed[last] ^= 1; // a nonce bit
    /// assert_eq!(key.open_with_nonce_appended(b"", &sealed), Err(Error::Authentication));
    /// # Ok(()) }
    /// ```
    fn open_with_nonce_appended(&self, aad: &[u8], data: &[u8]) -> Result<Vec<u8>, Error> {
        let text_len = data
            .len()
            .checked_sub(Self::TAG_LEN + Self::NONCE_LEN)
            .ok_or(Error::Truncated)?;
        self.check_call(aad.len(), text_len)?;
        let mut out = vec![0u8; text_len];
        self.open_with_nonce_appended_to(aad, data, &mut out)?;
        Ok(out)
    }

    /// [`open_with_nonce_appended`](AeadKey::open_with_nonce_appended) into `out`;
    /// returns the plaintext length. Never allocates; on
    /// [`Error::Authentication`] the plaintext area of `out` is all zero.
    ///
    /// ```
    /// use hardware_aead::aes_gcm_siv::Aes256GcmSiv;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256GcmSiv::new(&[4; 32])?;
    /// let sealed = key.seal_with_generated_nonce_appended(b"", b"msg")?;
    /// let mut out = [0u8; 3];
    /// assert_eq!(key.open_with_nonce_appended_to(b"", &sealed, &mut out)?, 3);
    /// # Ok(()) }
    /// ```
    fn open_with_nonce_appended_to(
        &self,
        aad: &[u8],
        data: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let sealed_len = data
            .len()
            .checked_sub(Self::NONCE_LEN)
            .ok_or(Error::Truncated)?;
        if sealed_len < Self::TAG_LEN {
            return Err(Error::Truncated);
        }
        let (sealed, nonce) = data.split_at(sealed_len);
        // `nonce` is exactly `NONCE_LEN` bytes, so the conversion succeeds.
        let nonce = Self::Nonce::try_from(nonce).map_err(|_| Error::Truncated)?;
        self.open_to(&nonce, aad, sealed, out)
    }
}

pub(crate) use inherent::impl_inherent;
pub(crate) use sealed::impl_aead;
