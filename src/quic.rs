//! QUIC header protection with AES (RFC 9001 §5.4.3), for QUIC stacks.
//!
//! QUIC hides the low bits of a packet's first byte and its packet number
//! under a 5-byte mask: the first five bytes of one AES block of a 16-byte
//! sample of the packet's ciphertext, under the header-protection key (a
//! key of the same length as the packet key's, derived with the label
//! `quic hp`). [`HeaderProtectionKey`] computes that mask on this crate's
//! hardware tier. Packet protection itself (RFC 9001 §5.3) is plain
//! AES-GCM: [`Aes128Gcm`](crate::aes_gcm::Aes128Gcm) and
//! [`Aes256Gcm`](crate::aes_gcm::Aes256Gcm) with the packet header as the
//! additional data and the IV XOR the packet number as the nonce.
//!
//! RFC 9001 Appendix A.2: protecting the client Initial's header, whose
//! first byte is `0xc3` (a long header, a 4-byte packet number) and whose
//! packet number is 2.
//!
//! ```
//! use hardware_aead::quic::HeaderProtectionKey;
//! # fn main() -> Result<(), hardware_aead::Error> {
//! let hp = [
//!     0x9f, 0x50, 0x44, 0x9e, 0x04, 0xa0, 0xe8, 0x10,
//!     0x28, 0x3a, 0x1e, 0x99, 0x33, 0xad, 0xed, 0xd2,
//! ];
//! // The 16 bytes of ciphertext that start 4 bytes after the packet number's.
//! let sample = [
//!     0xd1, 0xb1, 0xc9, 0x8d, 0xd7, 0x68, 0x9f, 0xb8,
//!     0xec, 0x11, 0xd2, 0x42, 0xb1, 0x23, 0xdc, 0x9b,
//! ];
//! let mask = HeaderProtectionKey::new(&hp)?.new_mask(&sample);
//! let (mut first, mut packet_number) = (0xc3u8, [0u8, 0, 0, 2]);
//! first ^= mask[0] & 0x0f; // long header: the low four bits
//! for (byte, m) in packet_number.iter_mut().zip(&mask[1..]) {
//!     *byte ^= m;
//! }
//! assert_eq!((first, packet_number), (0xc0, [0x7b, 0x9a, 0xec, 0x34]));
//! # Ok(()) }
//! ```

use core::fmt;
use core::mem::MaybeUninit;

use zeroize::Zeroize;

use crate::backend::{self, TierToken};
use crate::block::{Block, RoundKeys};
use crate::error::Error;

/// An AES-128 or AES-256 QUIC header-protection key (RFC 9001 §5.4.3):
/// its round keys, expanded on the CPU's AES instructions and wiped on
/// drop.
///
/// RFC 9001 Appendix A.2's client Initial packet: the mask of its sample.
///
/// ```
/// use hardware_aead::quic::HeaderProtectionKey;
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let hp = [
///     0x9f, 0x50, 0x44, 0x9e, 0x04, 0xa0, 0xe8, 0x10,
///     0x28, 0x3a, 0x1e, 0x99, 0x33, 0xad, 0xed, 0xd2,
/// ];
/// let sample = [
///     0xd1, 0xb1, 0xc9, 0x8d, 0xd7, 0x68, 0x9f, 0xb8,
///     0xec, 0x11, 0xd2, 0x42, 0xb1, 0x23, 0xdc, 0x9b,
/// ];
/// let key = HeaderProtectionKey::new(&hp)?;
/// assert_eq!(key.new_mask(&sample), [0x43, 0x7b, 0x9a, 0xec, 0x36]);
/// # Ok(()) }
/// ```
pub struct HeaderProtectionKey {
    tier: TierToken,
    round_keys: RoundKeysOf,
}

/// The round keys of either key size.
enum RoundKeysOf {
    Aes128(RoundKeys<11>),
    Aes256(RoundKeys<15>),
}

/// `key`'s round keys (`ROUND_KEYS` = 11 for 16 bytes, 15 for 32), expanded
/// on `tier`.
fn expand<const ROUND_KEYS: usize, const KB: usize>(
    tier: TierToken,
    key: &[u8; KB],
) -> RoundKeys<ROUND_KEYS> {
    let mut round_keys = MaybeUninit::uninit();
    backend::expand_key::<ROUND_KEYS, KB>(tier, key, &mut round_keys);
    // SAFETY: `expand_key` writes the whole value (every round key).
    unsafe { round_keys.assume_init() }
}

impl HeaderProtectionKey {
    /// The header-protection key for `key`: AES-128 for 16 bytes, AES-256
    /// for 32.
    ///
    /// # Errors
    ///
    /// [`Error::UnsupportedCpu`] where this crate has no tier for the CPU
    /// (before `key` is read), [`Error::InvalidKeyLength`] for a key of
    /// another length.
    ///
    /// ```
    /// use hardware_aead::{Error, quic::HeaderProtectionKey};
    /// # fn main() -> Result<(), Error> {
    /// let key = HeaderProtectionKey::new(&[7u8; 32])?; // AES-256
    /// assert_eq!(HeaderProtectionKey::new(&[7u8; 24]).err(), Some(Error::InvalidKeyLength));
    /// # drop(key);
    /// # Ok(()) }
    /// ```
    pub fn new(key: &[u8]) -> Result<Self, Error> {
        let tier = TierToken::best()?;
        let round_keys = if let Ok(key) = <&[u8; 16]>::try_from(key) {
            RoundKeysOf::Aes128(expand(tier, key))
        } else if let Ok(key) = <&[u8; 32]>::try_from(key) {
            RoundKeysOf::Aes256(expand(tier, key))
        } else {
            return Err(Error::InvalidKeyLength);
        };
        Ok(Self { tier, round_keys })
    }

    /// The mask of `sample` (RFC 9001 §5.4.3): the first five bytes of its
    /// AES encryption. `mask[0]` masks the first byte's low four (long
    /// header) or five (short header) bits, `mask[1..]` the packet number's
    /// bytes (§5.4.1).
    ///
    /// ```
    /// use hardware_aead::quic::HeaderProtectionKey;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = HeaderProtectionKey::new(&[0u8; 16])?;
    /// // AES-128 of the zero block under the zero key starts 66 e9 4b d4 ef.
    /// assert_eq!(key.new_mask(&[0; 16]), [0x66, 0xe9, 0x4b, 0xd4, 0xef]);
    /// # Ok(()) }
    /// ```
    pub fn new_mask(&self, sample: &[u8; 16]) -> [u8; 5] {
        let sample: &Block = sample;
        let mut block = match &self.round_keys {
            RoundKeysOf::Aes128(keys) => backend::encrypt_block(self.tier, keys, sample),
            RoundKeysOf::Aes256(keys) => backend::encrypt_block(self.tier, keys, sample),
        };
        let mut mask = [0u8; 5];
        mask.copy_from_slice(&block[..5]);
        block.zeroize();
        mask
    }
}

/// Names the key size only: the round keys are not printed.
///
/// ```
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = hardware_aead::quic::HeaderProtectionKey::new(&[0u8; 16])?;
/// assert_eq!(format!("{key:?}"), "HeaderProtectionKey(AES-128)");
/// # Ok(()) }
/// ```
impl fmt::Debug for HeaderProtectionKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.round_keys {
            RoundKeysOf::Aes128(_) => "HeaderProtectionKey(AES-128)",
            RoundKeysOf::Aes256(_) => "HeaderProtectionKey(AES-256)",
        })
    }
}
