//! AES-GCM-SIV (RFC 8452): nonce-misuse-resistant AES-GCM.
//!
//! Sealing the same message twice under the same key and nonce gives the same
//! ciphertext, and nothing more leaks: the tag is a PRF of the nonce, AAD and
//! plaintext, and it is also the initial counter. Different messages under a
//! repeated nonce stay confidential (RFC 8452 §9), unlike GCM.
//!
//! This file holds what is the same on every tier: the length block and the
//! limits. Key derivation, POLYVAL, the tag and counter mode run in the kernels
//! behind the backend key state (`SivKey`; see `backend/x86_64/aesni/siv.rs`, where
//! RFC 8452 §4 is quoted step by step).
//!
//! # Example
//!
//! ```
//! use hardware_aead::aes_gcm_siv::Aes256GcmSiv;
//!
//! # fn main() -> Result<(), hardware_aead::Error> {
//! let key = Aes256GcmSiv::new(&[0x11; 32])?;
//! let nonce = [0x22; 12];
//! let sealed = key.seal(&nonce, b"metadata", b"secret")?;
//! assert_eq!(key.open(&nonce, b"metadata", &sealed)?, b"secret");
//! // Deterministic: a repeated (nonce, AAD, plaintext) repeats the output, no more.
//! assert_eq!(key.seal(&nonce, b"metadata", b"secret")?, sealed);
//! # Ok(()) }
//! ```

use crate::aead::impl_aead;
use crate::aead::{Nonce, Tag};
use crate::error::Error;
use crate::inout::InOut;
use crate::key::SivKey;

/// The longest plaintext AES-GCM-SIV allows, in bytes: RFC 8452 §6, P_MAX = 2^36.
///
/// ```
/// use hardware_aead::aes_gcm_siv::MAX_PLAINTEXT_LEN;
/// // Every seal and open checks it and returns `Error::InputTooLong` past it.
/// assert!(MAX_PLAINTEXT_LEN > u64::from(u32::MAX));
/// ```
pub const MAX_PLAINTEXT_LEN: u64 = 1 << 36;

/// The longest AAD AES-GCM-SIV allows, in bytes: RFC 8452 §6, A_MAX = 2^36.
///
/// ```
/// use hardware_aead::aes_gcm_siv::MAX_AAD_LEN;
/// // Every seal and open checks it and returns `Error::InputTooLong` past it.
/// assert!(MAX_AAD_LEN > u64::from(u32::MAX));
/// ```
pub const MAX_AAD_LEN: u64 = 1 << 36;

// The 32-bit block counter covers 2^32 blocks = 2^36 bytes: it never repeats.
const _: () = assert!(MAX_PLAINTEXT_LEN == (1 << 32) * 16);

/// Checks the RFC 8452 §6 length limits; `Err(InputTooLong)` past either one.
pub(crate) fn check_lengths(aad_len: u64, text_len: u64) -> Result<(), Error> {
    if text_len > MAX_PLAINTEXT_LEN || aad_len > MAX_AAD_LEN {
        Err(Error::InputTooLong)
    } else {
        Ok(())
    }
}

/// The nonce as a block value: its 12 bytes, then four zero bytes, read as
/// `u128::from_le_bytes` (blocks travel to the kernels in registers).
fn nonce_block(nonce: &Nonce) -> u128 {
    let mut block = [0u8; 16];
    block[..12].copy_from_slice(nonce);
    u128::from_le_bytes(block)
}

/// RFC 8452 §4: "let length_block be a 16-byte value that is the concatenation
/// of the 64-bit, little-endian encodings of bytelen(additional_data) * 8 and
/// bytelen(plaintext) * 8."
fn length_block(aad_len: usize, text_len: usize) -> u128 {
    u128::from(aad_len as u64 * 8) | u128::from(text_len as u64 * 8) << 64
}

fn seal<const ROUND_KEYS: usize>(
    key: &SivKey<ROUND_KEYS>,
    nonce: &Nonce,
    aad: &[u8],
    data: &mut InOut<'_>,
) -> Tag {
    let len_block = length_block(aad.len(), data.len());
    key.seal(nonce_block(nonce), aad, data, len_block)
}

fn open<const ROUND_KEYS: usize>(
    key: &SivKey<ROUND_KEYS>,
    nonce: &Nonce,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: &Tag,
) -> Tag {
    let len_block = length_block(aad.len(), data.len());
    key.open(
        nonce_block(nonce),
        aad,
        data,
        u128::from_le_bytes(*tag),
        len_block,
    )
}

/// AES-128-GCM-SIV: a 16-byte key, 12-byte nonces, 16-byte tags (RFC 8452).
///
/// Its calls are inherent methods, each forwarding to
/// [`AeadKey`](crate::AeadKey)'s (the trait for code generic over key types).
///
/// ```
/// use hardware_aead::aes_gcm_siv::Aes128GcmSiv;
/// # fn main() -> Result<(), hardware_aead::Error> {
/// // RFC 8452 Appendix C.1, the first vector: empty plaintext and AAD.
/// let mut key = [0u8; 16];
/// key[0] = 1;
/// let mut nonce = [0u8; 12];
/// nonce[0] = 3;
/// let sealed = Aes128GcmSiv::new(&key)?.seal(&nonce, b"", b"")?;
/// assert_eq!(sealed[..4], [0xdc, 0x20, 0xe2, 0xd8]);
/// # Ok(()) }
/// ```
pub struct Aes128GcmSiv {
    key: SivKey<11>,
}

/// AES-256-GCM-SIV: a 32-byte key, 12-byte nonces, 16-byte tags (RFC 8452).
///
/// Its calls are inherent methods, each forwarding to
/// [`AeadKey`](crate::AeadKey)'s (the trait for code generic over key types).
///
/// ```
/// use hardware_aead::aes_gcm_siv::Aes256GcmSiv;
/// # fn main() -> Result<(), hardware_aead::Error> {
/// // RFC 8452 Appendix C.2, the first vector: empty plaintext and AAD.
/// let mut key = [0u8; 32];
/// key[0] = 1;
/// let mut nonce = [0u8; 12];
/// nonce[0] = 3;
/// let sealed = Aes256GcmSiv::new(&key)?.seal(&nonce, b"", b"")?;
/// assert_eq!(sealed[..4], [0x07, 0xf5, 0xf4, 0x16]);
/// # Ok(()) }
/// ```
pub struct Aes256GcmSiv {
    key: SivKey<15>,
}

impl_aead!(
    Aes128GcmSiv,
    key_len = 16,
    nonce_len = 12,
    tag = crate::Tag,
    nonces = counter,
    state = SivKey,
    check_lengths = check_lengths,
    seal = seal,
    open = open,
);
impl_aead!(
    Aes256GcmSiv,
    key_len = 32,
    nonce_len = 12,
    tag = crate::Tag,
    nonces = counter,
    state = SivKey,
    check_lengths = check_lengths,
    seal = seal,
    open = open,
);

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod tests {
    use super::{length_block, nonce_block};

    /// The limits every seal and open checks first: each maximum passes,
    /// one byte more is `InputTooLong`.
    #[test]
    fn check_lengths_at_the_limits() {
        use super::{MAX_AAD_LEN, MAX_PLAINTEXT_LEN, check_lengths};
        use crate::Error;
        assert_eq!(check_lengths(MAX_AAD_LEN, MAX_PLAINTEXT_LEN), Ok(()));
        assert_eq!(check_lengths(MAX_AAD_LEN + 1, 0), Err(Error::InputTooLong));
        assert_eq!(
            check_lengths(0, MAX_PLAINTEXT_LEN + 1),
            Err(Error::InputTooLong)
        );
    }

    #[test]
    fn nonce_and_length_block_layout() {
        let nonce = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
        let mut block = [0u8; 16];
        block[..12].copy_from_slice(&nonce);
        assert_eq!(nonce_block(&nonce).to_le_bytes(), block);
        let mut len = [0u8; 16];
        len[..8].copy_from_slice(&(7u64 * 8).to_le_bytes());
        len[8..].copy_from_slice(&(300u64 * 8).to_le_bytes());
        assert_eq!(length_block(7, 300).to_le_bytes(), len);
    }
}
