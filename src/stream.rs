//! STREAM: one long message sealed as a sequence of segments, each an AEAD
//! message of its own, so that it can be encrypted and decrypted in bounded
//! memory and no reordering, dropped segment or truncation goes unnoticed.
//!
//! The construction is STREAM from Hoang, Reyhanitabar, Rogaway and Vizár,
//! "Online Authenticated-Encryption and its Nonce-Reuse Misuse-Resistance"
//! (CRYPTO 2015), with the nonce layout RustCrypto's `aead-stream` calls BE32.
//! For a key with an `n`-byte nonce and a prefix `P` of `n − 5` bytes chosen
//! once per stream, segment `i` (counting from 0) is sealed under the nonce
//!
//! ```text
//! P ‖ i as 32-bit big-endian ‖ 0x00      (every segment but the last)
//! P ‖ i as 32-bit big-endian ‖ 0x01      (the last segment)
//! ```
//!
//! The position in the nonce makes a dropped, repeated or reordered segment
//! fail its tag; the last-segment flag makes a stream cut at a segment
//! boundary fail (its new last segment was sealed as "not last"). Prefixes
//! are 7 bytes for the 96-bit-nonce key types, 19 bytes for
//! [`Xaes256Gcm`](crate::xaes_gcm::Xaes256Gcm) and [`KcXaes256Gcm`](crate::xaes_gcm::KcXaes256Gcm)
//! (whose segments carry 48-byte tags), 11 bytes for AEGIS-128L and its
//! X2/X4 variants and 27 bytes for AEGIS-256 and its variants
//! ([`aegis`](crate::aegis)). A prefix must never be used for two streams
//! under one key; a random prefix is safe with XAES-256-GCM (its first 12
//! bytes select a fresh derived key for each stream) and with AEGIS-256
//! (216 bits), not with AES-GCM (a random 7-byte prefix collides after about
//! 2^28 streams) nor with AEGIS-128L (88 bits: about 2^44 streams).
//!
//! Two layers:
//!
//! - [`Encryptor`] and [`Decryptor`] seal and open one segment per call, with
//!   any key type of the crate, caller-chosen AAD per segment, and the same
//!   allocating, `_to` and in-place forms as [`AeadKey`]. They are
//!   byte-identical with `aead-stream` 0.6's `EncryptorBE32` and
//!   `DecryptorBE32` over the matching RustCrypto AEAD (tested both ways).
//! - [`Writer`] and [`Reader`] (feature `std`) wrap an [`std::io::Write`] or
//!   [`std::io::Read`]: they cut the plaintext into fixed-size segments, write
//!   a header, and release plaintext only after its segment verified. Their
//!   byte format is in `docs/streaming.md`.
//!
//! Both take the key as anything that dereferences to one: `&Aes256Gcm` for
//! a borrowed key, `Arc<Xaes256Gcm>` or `Box<_>` for a stream that owns its
//! handle to the key.
//!
//! # Example
//!
//! ```
//! use hardware_aead::{aes_gcm::Aes256Gcm, stream::{Decryptor, Encryptor}};
//!
//! # fn main() -> Result<(), hardware_aead::Error> {
//! let key = Aes256Gcm::new(&[0x42; 32])?;
//! let prefix = [7u8; 7]; // unique per stream under this key
//!
//! let mut enc = Encryptor::new(&key, &prefix)?;
//! let first = enc.seal_next(b"", b"segment one, ")?;
//! let last = enc.seal_last(b"", b"and the end")?;
//!
//! let mut dec = Decryptor::new(&key, &prefix)?;
//! assert_eq!(dec.open_next(b"", &first)?, b"segment one, ");
//! assert_eq!(dec.open_last(b"", &last)?, b"and the end");
//! # Ok(()) }
//! ```

#[cfg(feature = "alloc")]
use alloc::vec::Vec;
use core::ops::Deref;

use crate::aead::AeadKey;
use crate::error::Error;

#[cfg(feature = "std")]
mod io;
#[cfg(feature = "std")]
pub use io::{DecryptingWriter, Reader, Writer};

/// The bytes the STREAM nonce adds after the prefix: a 32-bit segment
/// position and the last-segment flag.
///
/// ```
/// use hardware_aead::{stream::NONCE_OVERHEAD, xaes_gcm::Xaes256Gcm};
/// assert_eq!(Xaes256Gcm::NONCE_LEN - NONCE_OVERHEAD, 19); // the prefix length
/// ```
pub const NONCE_OVERHEAD: usize = 5;

/// The plaintext bytes per segment that [`Writer`] uses unless told
/// otherwise: 64 KiB.
///
/// ```
/// assert_eq!(hardware_aead::stream::DEFAULT_SEGMENT_SIZE, 65536);
/// ```
pub const DEFAULT_SEGMENT_SIZE: usize = 64 * 1024;

/// The largest segment size [`Writer`] writes and [`Reader`] accepts from a
/// header: 16 MiB, so that a forged header cannot make a reader allocate
/// more than that before the first tag is checked.
///
/// ```
/// assert_eq!(hardware_aead::stream::MAX_SEGMENT_SIZE, 1 << 24);
/// ```
pub const MAX_SEGMENT_SIZE: usize = 1 << 24;

/// The longest nonce of any key type (AEGIS-256's 32 bytes); `Segments::new`
/// refuses to compile for a key type with a longer one.
const MAX_NONCE_LEN: usize = 32;

/// What [`Encryptor`] and [`Decryptor`] share: the key, the nonce with the
/// prefix in place, and the position of the next segment.
struct Segments<K> {
    key: K,
    /// `prefix ‖ position ‖ flag`; only the first `NONCE_LEN` bytes are used.
    nonce: [u8; MAX_NONCE_LEN],
    /// The position of the next segment.
    position: u32,
}

impl<K: Deref<Target: AeadKey>> Segments<K> {
    fn new(key: K, prefix: &[u8]) -> Result<Self, Error> {
        const {
            assert!(
                K::Target::NONCE_LEN <= MAX_NONCE_LEN && K::Target::NONCE_LEN > NONCE_OVERHEAD,
                "a nonce STREAM cannot hold"
            );
        }
        let prefix_len = K::Target::NONCE_LEN - NONCE_OVERHEAD;
        if prefix.len() != prefix_len {
            return Err(Error::InvalidPrefixLength {
                expected: prefix_len,
            });
        }
        let mut nonce = [0u8; MAX_NONCE_LEN];
        nonce[..prefix_len].copy_from_slice(prefix);
        Ok(Self {
            key,
            nonce,
            position: 0,
        })
    }

    /// The nonce of the segment at the current position.
    fn nonce(&self, last: bool) -> Result<<K::Target as AeadKey>::Nonce, Error> {
        let len = K::Target::NONCE_LEN;
        let mut nonce = self.nonce;
        nonce[len - 5..len - 1].copy_from_slice(&self.position.to_be_bytes());
        nonce[len - 1] = u8::from(last);
        // The slice is exactly `NONCE_LEN` bytes, so the conversion succeeds.
        <K::Target as AeadKey>::Nonce::try_from(&nonce[..len])
            .map_err(|_| Error::InvalidPrefixLength { expected: len - 5 })
    }

    /// Refuses a non-last segment at the last position: `u32::MAX` is kept
    /// for the last segment, as in `aead-stream`, so the counter never wraps.
    fn check_next(&self) -> Result<(), Error> {
        if self.position == u32::MAX {
            Err(Error::NonceExhausted)
        } else {
            Ok(())
        }
    }

    /// Moves to the next position after a non-last segment succeeded.
    fn advance<T>(&mut self, result: Result<T, Error>) -> Result<T, Error> {
        if result.is_ok() {
            // `check_next` ran first, so this does not overflow.
            self.position += 1;
        }
        result
    }
}

/// The sealing side of a STREAM: seals segments in order, the last one with
/// [`seal_last`](Encryptor::seal_last) (or its `_to`/in-place forms),
/// which consumes the encryptor.
///
/// `K` is a key or a handle to one (`&Aes256Gcm`, `Arc<Xaes256Gcm>`, ...).
///
/// ```
/// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::Encryptor};
///
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = Xaes256Gcm::new(&[1; 32])?;
/// let mut prefix = [0u8; 19];
/// hardware_aead::random::fill(&mut prefix)?; // safe to draw at random with XAES
/// let mut enc = Encryptor::new(&key, &prefix)?;
/// let mut out = [0u8; 5 + 16];
/// assert_eq!(enc.seal_next_to(b"", b"hello", &mut out)?, 21);
/// assert_eq!(enc.position(), 1);
/// # Ok(()) }
/// ```
pub struct Encryptor<K> {
    segments: Segments<K>,
}

impl<K: Deref<Target: AeadKey>> Encryptor<K> {
    /// Starts a stream under `key` with `prefix` (`NONCE_LEN − 5` bytes: 7,
    /// 19 for XAES-256-GCM, 11 for AEGIS-128L, 27 for AEGIS-256; else
    /// [`Error::InvalidPrefixLength`]). The
    /// prefix must not have been used for another stream under this key.
    ///
    /// ```
    /// use hardware_aead::{Error, aes_gcm::Aes128Gcm, stream::Encryptor};
    /// # fn main() -> Result<(), Error> {
    /// let key = Aes128Gcm::new(&[1; 16])?;
    /// assert!(Encryptor::new(&key, &[0u8; 7]).is_ok());
    /// assert_eq!(Encryptor::new(&key, &[0u8; 8]).err(),
    ///            Some(Error::InvalidPrefixLength { expected: 7 }));
    /// # Ok(()) }
    /// ```
    pub fn new(key: K, prefix: &[u8]) -> Result<Self, Error> {
        Ok(Self {
            segments: Segments::new(key, prefix)?,
        })
    }

    /// The position of the next segment (the number sealed so far).
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes128Gcm, stream::Encryptor};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128Gcm::new(&[1; 16])?;
    /// let enc = Encryptor::new(&key, &[0u8; 7])?;
    /// assert_eq!(enc.position(), 0);
    /// # Ok(()) }
    /// ```
    pub fn position(&self) -> u32 {
        self.segments.position
    }

    /// Seals a segment that is not the last into `out` as `ciphertext ‖ tag`
    /// and returns the bytes written. Never allocates. After 2^32 − 1
    /// segments this returns [`Error::NonceExhausted`] (only a last segment
    /// can follow).
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::Encryptor};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let mut enc = Encryptor::new(&key, &[0u8; 7])?;
    /// let mut out = [0u8; 64];
    /// let n = enc.seal_next_to(b"aad", b"part", &mut out)?;
    /// assert_eq!(n, 4 + 16);
    /// # Ok(()) }
    /// ```
    pub fn seal_next_to(
        &mut self,
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.segments.check_next()?;
        let nonce = self.segments.nonce(false)?;
        let result = self.segments.key.seal_to(&nonce, aad, plaintext, out);
        self.segments.advance(result)
    }

    /// Seals a segment that is not the last in place and returns its tag.
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::{Decryptor, Encryptor}};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let mut buffer = *b"in place";
    /// let tag = Encryptor::new(&key, &[0u8; 7])?.seal_next_in_place(b"", &mut buffer)?;
    /// Decryptor::new(&key, &[0u8; 7])?.open_next_in_place(b"", &mut buffer, &tag)?;
    /// assert_eq!(&buffer, b"in place");
    /// # Ok(()) }
    /// ```
    pub fn seal_next_in_place(
        &mut self,
        aad: &[u8],
        buffer: &mut [u8],
    ) -> Result<<K::Target as AeadKey>::Tag, Error> {
        self.segments.check_next()?;
        let nonce = self.segments.nonce(false)?;
        let result = self
            .segments
            .key
            .seal_in_place_detached(&nonce, aad, buffer);
        self.segments.advance(result)
    }

    /// Seals a segment that is not the last and returns `ciphertext ‖ tag`.
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::Encryptor};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let mut enc = Encryptor::new(&key, &[0u8; 7])?;
    /// assert_eq!(enc.seal_next(b"", b"abc")?.len(), 3 + 16);
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "alloc")]
    pub fn seal_next(&mut self, aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        self.segments.check_next()?;
        let nonce = self.segments.nonce(false)?;
        let result = self.segments.key.seal(&nonce, aad, plaintext);
        self.segments.advance(result)
    }

    /// Seals the last segment into `out` and ends the stream; returns the
    /// bytes written.
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::Encryptor};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let mut out = [0u8; 16];
    /// // A stream may end with an empty segment.
    /// assert_eq!(Encryptor::new(&key, &[0u8; 7])?.seal_last_to(b"", b"", &mut out)?, 16);
    /// # Ok(()) }
    /// ```
    pub fn seal_last_to(
        self,
        aad: &[u8],
        plaintext: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let nonce = self.segments.nonce(true)?;
        self.segments.key.seal_to(&nonce, aad, plaintext, out)
    }

    /// Seals the last segment in place, ends the stream and returns the tag.
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::{Decryptor, Encryptor}};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let mut buffer = *b"the end";
    /// let tag = Encryptor::new(&key, &[0u8; 7])?.seal_last_in_place(b"", &mut buffer)?;
    /// Decryptor::new(&key, &[0u8; 7])?.open_last_in_place(b"", &mut buffer, &tag)?;
    /// assert_eq!(&buffer, b"the end");
    /// # Ok(()) }
    /// ```
    pub fn seal_last_in_place(
        self,
        aad: &[u8],
        buffer: &mut [u8],
    ) -> Result<<K::Target as AeadKey>::Tag, Error> {
        let nonce = self.segments.nonce(true)?;
        self.segments
            .key
            .seal_in_place_detached(&nonce, aad, buffer)
    }

    /// Seals the last segment, ends the stream and returns `ciphertext ‖ tag`.
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::Encryptor};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let last = Encryptor::new(&key, &[0u8; 7])?.seal_last(b"", b"fin")?;
    /// assert_eq!(last.len(), 3 + 16);
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "alloc")]
    pub fn seal_last(self, aad: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, Error> {
        let nonce = self.segments.nonce(true)?;
        self.segments.key.seal(&nonce, aad, plaintext)
    }
}

/// The opening side of a STREAM: opens segments in the order they were
/// sealed; the last one with [`open_last`](Decryptor::open_last) (or
/// its `_to`/in-place forms), which consumes the decryptor.
///
/// A segment that fails to verify returns [`Error::Authentication`], releases
/// nothing (the output is left all zero) and does not move the position: the
/// caller may not skip it, only stop or retry with the right bytes.
///
/// ```
/// use hardware_aead::{Error, aes_gcm::Aes128Gcm, stream::{Decryptor, Encryptor}};
///
/// # fn main() -> Result<(), Error> {
/// let key = Aes128Gcm::new(&[3; 16])?;
/// let mut enc = Encryptor::new(&key, &[1u8; 7])?;
/// let a = enc.seal_next(b"", b"first")?;
/// let b = enc.seal_next(b"", b"second")?;
///
/// let mut dec = Decryptor::new(&key, &[1u8; 7])?;
/// // Out of order: segment 1 at position 0 does not verify.
/// assert_eq!(dec.open_next(b"", &b), Err(Error::Authentication));
/// assert_eq!(dec.open_next(b"", &a)?, b"first");
/// assert_eq!(dec.open_next(b"", &b)?, b"second");
/// # Ok(()) }
/// ```
pub struct Decryptor<K> {
    segments: Segments<K>,
}

impl<K: Deref<Target: AeadKey>> Decryptor<K> {
    /// Starts opening the stream sealed under `key` with `prefix`
    /// (`NONCE_LEN − 5` bytes, else [`Error::InvalidPrefixLength`]).
    ///
    /// ```
    /// use hardware_aead::{Error, xaes_gcm::Xaes256Gcm, stream::Decryptor};
    /// # fn main() -> Result<(), Error> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// assert!(Decryptor::new(&key, &[0u8; 19]).is_ok());
    /// assert_eq!(Decryptor::new(&key, &[0u8; 7]).err(),
    ///            Some(Error::InvalidPrefixLength { expected: 19 }));
    /// # Ok(()) }
    /// ```
    pub fn new(key: K, prefix: &[u8]) -> Result<Self, Error> {
        Ok(Self {
            segments: Segments::new(key, prefix)?,
        })
    }

    /// The position of the next segment (the number opened so far).
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes128Gcm, stream::Decryptor};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128Gcm::new(&[1; 16])?;
    /// assert_eq!(Decryptor::new(&key, &[0u8; 7])?.position(), 0);
    /// # Ok(()) }
    /// ```
    pub fn position(&self) -> u32 {
        self.segments.position
    }

    /// Opens a segment that is not the last (`ciphertext ‖ tag`) into `out`
    /// and returns the plaintext length. Never allocates.
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::{Decryptor, Encryptor}};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let sealed = Encryptor::new(&key, &[0u8; 7])?.seal_next(b"", b"part")?;
    /// let mut out = [0u8; 4];
    /// let mut dec = Decryptor::new(&key, &[0u8; 7])?;
    /// assert_eq!(dec.open_next_to(b"", &sealed, &mut out)?, 4);
    /// assert_eq!(&out, b"part");
    /// # Ok(()) }
    /// ```
    pub fn open_next_to(
        &mut self,
        aad: &[u8],
        ciphertext_and_tag: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        self.segments.check_next()?;
        let nonce = self.segments.nonce(false)?;
        let result = self
            .segments
            .key
            .open_to(&nonce, aad, ciphertext_and_tag, out);
        self.segments.advance(result)
    }

    /// Opens a segment that is not the last in place if `tag` verifies;
    /// otherwise returns [`Error::Authentication`] and leaves `buffer` all
    /// zero.
    ///
    /// ```
    /// use hardware_aead::{Error, aes_gcm::Aes256Gcm, stream::{Decryptor, Encryptor}};
    /// # fn main() -> Result<(), Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let mut buffer = *b"secret";
    /// let tag = Encryptor::new(&key, &[0u8; 7])?.seal_next_in_place(b"", &mut buffer)?;
    /// let mut dec = Decryptor::new(&key, &[0u8; 7])?;
    /// // Opened as the last segment, it does not verify.
    /// # let mut copy = buffer;
    /// assert_eq!(Decryptor::new(&key, &[0u8; 7])?.open_last_in_place(b"", &mut copy, &tag),
    ///            Err(Error::Authentication));
    /// dec.open_next_in_place(b"", &mut buffer, &tag)?;
    /// assert_eq!(&buffer, b"secret");
    /// # Ok(()) }
    /// ```
    pub fn open_next_in_place(
        &mut self,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &<K::Target as AeadKey>::Tag,
    ) -> Result<(), Error> {
        self.segments.check_next()?;
        let nonce = self.segments.nonce(false)?;
        let result = self
            .segments
            .key
            .open_in_place_detached(&nonce, aad, buffer, tag);
        self.segments.advance(result)
    }

    /// Opens a segment that is not the last and returns its plaintext.
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::{Decryptor, Encryptor}};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let sealed = Encryptor::new(&key, &[0u8; 7])?.seal_next(b"", b"abc")?;
    /// assert_eq!(Decryptor::new(&key, &[0u8; 7])?.open_next(b"", &sealed)?, b"abc");
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "alloc")]
    pub fn open_next(&mut self, aad: &[u8], ciphertext_and_tag: &[u8]) -> Result<Vec<u8>, Error> {
        self.segments.check_next()?;
        let nonce = self.segments.nonce(false)?;
        let result = self.segments.key.open(&nonce, aad, ciphertext_and_tag);
        self.segments.advance(result)
    }

    /// Opens the last segment into `out`, ends the stream and returns the
    /// plaintext length.
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::{Decryptor, Encryptor}};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let sealed = Encryptor::new(&key, &[0u8; 7])?.seal_last(b"", b"end")?;
    /// let mut out = [0u8; 3];
    /// assert_eq!(Decryptor::new(&key, &[0u8; 7])?.open_last_to(b"", &sealed, &mut out)?, 3);
    /// # Ok(()) }
    /// ```
    pub fn open_last_to(
        self,
        aad: &[u8],
        ciphertext_and_tag: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let nonce = self.segments.nonce(true)?;
        self.segments
            .key
            .open_to(&nonce, aad, ciphertext_and_tag, out)
    }

    /// Opens the last segment in place if `tag` verifies (else
    /// [`Error::Authentication`], `buffer` left all zero) and ends the stream.
    ///
    /// ```
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::{Decryptor, Encryptor}};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let mut buffer = *b"last";
    /// let tag = Encryptor::new(&key, &[0u8; 7])?.seal_last_in_place(b"", &mut buffer)?;
    /// Decryptor::new(&key, &[0u8; 7])?.open_last_in_place(b"", &mut buffer, &tag)?;
    /// assert_eq!(&buffer, b"last");
    /// # Ok(()) }
    /// ```
    pub fn open_last_in_place(
        self,
        aad: &[u8],
        buffer: &mut [u8],
        tag: &<K::Target as AeadKey>::Tag,
    ) -> Result<(), Error> {
        let nonce = self.segments.nonce(true)?;
        self.segments
            .key
            .open_in_place_detached(&nonce, aad, buffer, tag)
    }

    /// Opens the last segment, ends the stream and returns its plaintext.
    ///
    /// ```
    /// use hardware_aead::{Error, aes_gcm::Aes256Gcm, stream::{Decryptor, Encryptor}};
    /// # fn main() -> Result<(), Error> {
    /// let key = Aes256Gcm::new(&[2; 32])?;
    /// let mut enc = Encryptor::new(&key, &[0u8; 7])?;
    /// let not_last = enc.seal_next(b"", b"cut here")?;
    /// // A stream truncated after a segment that was not sealed as the last:
    /// assert_eq!(Decryptor::new(&key, &[0u8; 7])?.open_last(b"", &not_last),
    ///            Err(Error::Authentication));
    /// # Ok(()) }
    /// ```
    #[cfg(feature = "alloc")]
    pub fn open_last(self, aad: &[u8], ciphertext_and_tag: &[u8]) -> Result<Vec<u8>, Error> {
        let nonce = self.segments.nonce(true)?;
        self.segments.key.open(&nonce, aad, ciphertext_and_tag)
    }
}

impl<K> core::fmt::Debug for Encryptor<K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Encryptor")
            .field("position", &self.segments.position)
            .finish_non_exhaustive()
    }
}

impl<K> core::fmt::Debug for Decryptor<K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Decryptor")
            .field("position", &self.segments.position)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
impl<K> Segments<K> {
    /// Test hook: starts at `position`, to reach the end of the counter.
    fn set_position(&mut self, position: u32) {
        self.position = position;
    }
}

#[cfg(all(
    test,
    feature = "alloc",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod tests;
