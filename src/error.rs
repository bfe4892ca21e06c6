//! The one error type of the crate.

use core::fmt;

/// Everything that can go wrong in `hardware-aead`.
///
/// Every fallible call returns this type; no input makes the library panic.
///
/// # Example
///
/// ```
/// use hardware_aead::{Aead, Error, aes_gcm::Aes128Gcm};
///
/// # fn main() -> Result<(), Error> {
/// let err = Aes128Gcm::new_from_slice(&[0u8; 15]).unwrap_err();
/// assert_eq!(err, Error::InvalidKeyLength);
/// # Ok(()) }
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// The CPU lacks an instruction set extension the requested backend needs.
    /// `missing` names the first one that is absent (for example `"pclmulqdq"`).
    UnsupportedCpu {
        /// The first missing CPU feature, spelled as in `#[target_feature]`.
        missing: &'static str,
    },
    /// The key slice has the wrong length for the algorithm.
    InvalidKeyLength,
    /// The tag did not verify: the ciphertext, tag, nonce, AAD or key is not the
    /// one that was sealed. No plaintext is released.
    Authentication,
    /// The output buffer is shorter than `needed` bytes. Nothing was written.
    BufferTooSmall {
        /// The output length the call needs.
        needed: usize,
    },
    /// The input is shorter than the tag (or tag and nonce) it must contain.
    CiphertextTooShort,
    /// The plaintext, ciphertext or AAD is longer than the algorithm allows.
    InputTooLong,
    /// The generated-nonce counter of this key is used up.
    NonceExhausted,
    /// The operating system gave no randomness.
    Entropy,
    /// The key's state reads back as zero: it was placed in memory that the
    /// system wiped under it (a `MADV_WIPEONFORK` or `MADV_DONTFORK` page in
    /// a child process, a mapping that went away). Sealing with it would use
    /// all-zero round keys and H = 0, so nothing is sealed or opened.
    KeyStateLost,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnsupportedCpu { missing } => {
                write!(f, "unsupported CPU: missing the `{missing}` instructions")
            }
            Error::InvalidKeyLength => f.write_str("invalid key length"),
            Error::Authentication => f.write_str("authentication failed"),
            Error::BufferTooSmall { needed } => {
                write!(f, "output buffer too small: {needed} bytes needed")
            }
            Error::CiphertextTooShort => f.write_str("ciphertext shorter than its tag"),
            Error::InputTooLong => f.write_str("input longer than the algorithm allows"),
            Error::NonceExhausted => f.write_str("generated-nonce counter exhausted"),
            Error::Entropy => f.write_str("the operating system gave no randomness"),
            Error::KeyStateLost => {
                f.write_str("the key state was wiped by the system (see placement)")
            }
        }
    }
}

/// `core::error::Error` (Rust 1.81+) is `std::error::Error`: the impl is there
/// with or without the `std` feature.
impl core::error::Error for Error {}
