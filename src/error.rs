//! The one error type of the crate.

use core::fmt;

/// Everything that can go wrong in `hardware-aead`.
///
/// Every fallible call returns this type; no input makes the library panic.
///
/// # Example
///
/// ```
/// use hardware_aead::{Error, aes_gcm::Aes128Gcm};
///
/// # fn main() -> Result<(), Error> {
/// let err = Aes128Gcm::new_from_slice(&[0u8; 15]).unwrap_err();
/// assert_eq!(err, Error::InvalidKeyLength);
/// # Ok(()) }
/// ```
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// The CPU lacks an instruction set extension the requested tier needs.
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
    /// The input ends before something its format requires: a ciphertext
    /// shorter than its tag (or its tag and nonce), a STREAM that ends
    /// inside its header, an RFC 8188 body that ends inside its header or a
    /// record, has no record, or whose final record is not marked as the
    /// last (it was cut at a record boundary: RFC 8188 §2 calls this
    /// truncation). One error for every way of being cut short; as an
    /// `io::Error` it is `UnexpectedEof`.
    Truncated,
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
    /// A STREAM prefix of the wrong length for the key type: it must be
    /// `expected` bytes (the key's nonce length minus 5). See
    /// [`stream`](crate::stream).
    InvalidPrefixLength {
        /// The prefix length the key type needs: 7, or 19 for XAES-256-GCM.
        expected: usize,
    },
    /// A stream segment size of 0 or above
    /// [`MAX_SEGMENT_SIZE`](crate::stream::MAX_SEGMENT_SIZE), asked for by a
    /// caller or read from a stream header.
    InvalidSegmentSize,
    /// RFC 8188 (`ece` module, feature `ece`): a record size below 18, the smallest
    /// that holds a tag, a delimiter and one byte (RFC 8188 §2.1: "Values
    /// smaller than 18 are invalid"), asked for or read from a header.
    RecordSizeTooSmall,
    /// RFC 8188: a header announces records of `size` bytes, more than the
    /// `max` the decoder accepts
    /// ([`DEFAULT_MAX_RECORD_SIZE`](crate::ece::DEFAULT_MAX_RECORD_SIZE)
    /// unless the caller set another). A record is held whole until its tag
    /// verifies, so the size is checked when the header is parsed, before
    /// anything sized by it is allocated or read.
    RecordSizeTooLarge {
        /// The record size the header announces.
        size: u32,
        /// The largest record size the decoder accepts.
        max: u32,
    },
    /// RFC 8188: a key identifier longer than 255 bytes, which the one-byte
    /// `idlen` field of the header cannot describe.
    KeyIdTooLong,
    /// RFC 8188: a record decrypted to zero bytes only; it has no padding
    /// delimiter (§2: "A decrypter MUST fail if the record contains no
    /// non-zero octet").
    MissingDelimiter,
    /// RFC 8188: the last non-zero byte of a decrypted record, its padding
    /// delimiter, is neither 1 nor 2: the padding after the data is not all
    /// zero.
    InvalidPadding,
    /// RFC 8188: a record marked as the last (delimiter 2) has more data
    /// after it. This is also what a record marked last before the end of
    /// the body reports.
    DataAfterLastRecord,
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
            Error::Truncated => {
                f.write_str("input truncated: it ends before its tag, header or last record")
            }
            Error::InputTooLong => f.write_str("input longer than the algorithm allows"),
            Error::NonceExhausted => f.write_str("generated-nonce counter exhausted"),
            Error::Entropy => f.write_str("the operating system gave no randomness"),
            Error::KeyStateLost => {
                f.write_str("the key state was wiped by the system (see placement)")
            }
            Error::InvalidPrefixLength { expected } => {
                write!(f, "invalid stream prefix length: {expected} bytes expected")
            }
            Error::InvalidSegmentSize => f.write_str("invalid stream segment size"),
            Error::RecordSizeTooSmall => f.write_str("record size below 18 bytes"),
            Error::RecordSizeTooLarge { size, max } => {
                write!(
                    f,
                    "record size of {size} bytes above the limit of {max} bytes"
                )
            }
            Error::KeyIdTooLong => f.write_str("key identifier longer than 255 bytes"),
            Error::MissingDelimiter => f.write_str("record without a padding delimiter"),
            Error::InvalidPadding => {
                f.write_str("record padding is not zero (delimiter neither 1 nor 2)")
            }
            Error::DataAfterLastRecord => f.write_str("data after the record marked as the last"),
        }
    }
}

/// `core::error::Error` (Rust 1.81+) is `std::error::Error`: the impl is there
/// with or without the `std` feature.
impl core::error::Error for Error {}

/// The error as an [`std::io::Error`] whose source is it (`get_ref()` and
/// `downcast_ref::<Error>()` give it back), of kind `InvalidData` for a
/// failed tag or a malformed stream, `UnexpectedEof` for input cut short
/// ([`Error::Truncated`]), `InvalidInput` for a bad argument.
///
/// ```
/// use hardware_aead::Error;
/// let e = std::io::Error::from(Error::Authentication);
/// assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
/// assert_eq!(e.get_ref().and_then(|e| e.downcast_ref::<Error>()), Some(&Error::Authentication));
/// ```
#[cfg(feature = "std")]
impl From<Error> for std::io::Error {
    fn from(error: Error) -> Self {
        use std::io::ErrorKind;
        let kind = match error {
            Error::InvalidSegmentSize
            | Error::InvalidPrefixLength { .. }
            | Error::InvalidKeyLength
            | Error::BufferTooSmall { .. } => ErrorKind::InvalidInput,
            Error::RecordSizeTooSmall | Error::KeyIdTooLong => ErrorKind::InvalidInput,
            Error::Truncated => ErrorKind::UnexpectedEof,
            Error::MissingDelimiter | Error::InvalidPadding | Error::DataAfterLastRecord => {
                ErrorKind::InvalidData
            }
            Error::RecordSizeTooLarge { .. } => ErrorKind::InvalidData,
            Error::UnsupportedCpu { .. } => ErrorKind::Unsupported,
            Error::Entropy | Error::KeyStateLost | Error::NonceExhausted => ErrorKind::Other,
            Error::Authentication | Error::InputTooLong => ErrorKind::InvalidData,
        };
        std::io::Error::new(kind, error)
    }
}
