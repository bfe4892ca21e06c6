//! RFC 8188 `aes128gcm`: the encrypted content coding of HTTP and Web Push
//! (feature `ece`).
//!
//! A body is a header followed by records:
//!
//! ```text
//! +-----------+--------+-----------+---------------+------------+-----+------------+
//! | salt (16) | rs (4) | idlen (1) | keyid (idlen) | record 0   | ... | last record |
//! +-----------+--------+-----------+---------------+------------+-----+------------+
//! ```
//!
//! `rs` (big-endian, at least 18) is the record size: every record but the
//! last is exactly `rs` bytes, the last at most `rs`. A record is the
//! AES-128-GCM sealing (empty AAD) of `data ‖ delimiter ‖ 0x00 * n`: the
//! delimiter is 2 in the last record and 1 in every other (RFC 8188 §2).
//! The key and the nonces come from HKDF-SHA-256 (RFC 5869) over the input
//! keying material (IKM) and the salt (§2.2, §2.3):
//!
//! ```text
//! PRK   = HKDF-Extract(salt, IKM)
//! CEK   = HKDF-Expand(PRK, "Content-Encoding: aes128gcm" ‖ 0x00, 16)
//! NONCE = HKDF-Expand(PRK, "Content-Encoding: nonce" ‖ 0x00, 12)
//! nonce of record SEQ = NONCE XOR SEQ   (SEQ a 96-bit big-endian counter from 0)
//! ```
//!
//! The AES-128-GCM is this crate's [`Aes128Gcm`](crate::aes_gcm::Aes128Gcm) on the CPU's instructions;
//! HKDF and SHA-256 come from RustCrypto's `hkdf` and `sha2`, the only
//! dependencies the `ece` feature adds.
//!
//! # Which call
//!
//! - [`encrypt`] and [`decrypt`]: a whole body in memory.
//! - [`Writer`] (an [`std::io::Write`]) and [`Reader`] (an [`std::io::Read`]): bodies
//!   of any length, one record in memory at a time. Padding is an option of
//!   the encoder ([`Writer::with_padding`]).
//! - [`decrypt_with_max_record_size`] and [`Reader::with_max_record_size`]:
//!   the same, for a record size other than [`DEFAULT_MAX_RECORD_SIZE`].
//!
//! The one-shot calls and the streaming types run the same record code, so
//! they produce and accept exactly the same bytes.
//!
//! # What decryption guarantees
//!
//! A record's plaintext is released only after its tag verified. Every way
//! the RFC says a body can be wrong returns its own [`Error`]: a record size
//! below 18 ([`Error::RecordSizeTooSmall`]) or above the decoder's limit
//! ([`Error::RecordSizeTooLarge`], see below), a body cut short — inside its
//! header, inside a record, or at a record boundary (its final record not
//! marked as the last) — ([`Error::Truncated`]), a forged or damaged record
//! ([`Error::Authentication`]), a record with no delimiter
//! ([`Error::MissingDelimiter`]) or non-zero padding
//! ([`Error::InvalidPadding`]), and bytes after the last record
//! ([`Error::DataAfterLastRecord`]). Record nonces follow the record's
//! position, so a dropped, repeated or reordered record fails its tag.
//!
//! # Record size limit
//!
//! A record is held whole in memory until its tag verifies, and the record
//! size comes from the unauthenticated header: up to 2^32 − 1 bytes, whatever
//! the sender writes there. RFC 8188 leaves the largest size a receiver
//! accepts to the application, so decryption refuses a header whose
//! record size is above [`DEFAULT_MAX_RECORD_SIZE`] (1 MiB) with
//! [`Error::RecordSizeTooLarge`], as soon as the header is parsed and before
//! anything sized by it is allocated or read. [`decrypt_with_max_record_size`]
//! and [`Reader::with_max_record_size`] take another limit. Encryption
//! accepts any record size from 18 up: the limit is the receiver's.
//!
//! The header is not authenticated as such. The key identifier (`keyid`)
//! takes no part in the key derivation, so a changed one decrypts as before:
//! use it to choose the IKM, never as data to trust. A changed record size
//! splits the records elsewhere and fails their tags, unless it splits them
//! the same way (a body of one record, shorter than both sizes), when the
//! same plaintext comes out. The salt goes into the key: a changed one fails.
//!
//! A [`Reader`] releases the records it verified before it reaches a bad
//! one (that is what streaming means): only the error at the end says the
//! body was whole. RFC 8188 §4.2: "A partially delivered message MUST NOT
//! be processed as though the entire message was successfully delivered."
//! Use [`decrypt`] (or read the decoder to the end before acting on the
//! data) when that matters.
//!
//! # Secrets
//!
//! The CEK and the PRK bytes are wiped once the key is built; the
//! [`Aes128Gcm`](crate::aes_gcm::Aes128Gcm) key state is wiped on drop, and so are the buffers of
//! [`Writer`] and [`Reader`] and the copy of the IKM a [`Reader`] keeps
//! until it has read the header. `hkdf` 0.12 does not wipe its own HMAC
//! states (keyed by the salt and by the PRK) when they go out of scope;
//! those stack bytes are left to be overwritten.
//!
//! The padding delimiter is found by a scan from the end of the record, whose
//! time depends on the length of the padding: padding hides the length of
//! the data from the size of the body, not from the timing of the receiver.
//!
//! # Example
//!
//! ```
//! use hardware_aead::{Error, ece, random};
//!
//! # fn main() -> Result<(), Error> {
//! let ikm = [0x4b; 16]; // the input keying material, shared out of band
//! let mut salt = [0u8; 16];
//! random::fill(&mut salt)?; // never reuse a salt with the same IKM
//!
//! let body = ece::encrypt(&ikm, &salt, b"key-1", 4096, b"I am the walrus")?;
//! assert_eq!(&body[..16], &salt);
//! assert_eq!(ece::decrypt(&ikm, &body)?, b"I am the walrus");
//! # Ok(()) }
//! ```

use alloc::vec::Vec;
use core::cmp::min;

use crate::aead::TAG_LEN;
use crate::error::Error;

mod io;
mod record;

pub use io::{Reader, Writer};
use record::{Opener, RecordBytes, Sealer, WipedVec};

extern crate alloc;

/// The length of the salt at the start of the header.
///
/// ```
/// assert_eq!(hardware_aead::ece::SALT_LEN, 16);
/// ```
pub const SALT_LEN: usize = 16;

/// The length of the header without its key identifier: salt (16), record
/// size (4) and `idlen` (1).
///
/// ```
/// use hardware_aead::ece;
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let body = ece::encrypt(&[1; 16], &[2; 16], b"id", 4096, b"")?;
/// // header, then one record: the delimiter and the tag
/// assert_eq!(body.len(), ece::HEADER_LEN + 2 + 17);
/// # Ok(()) }
/// ```
pub const HEADER_LEN: usize = SALT_LEN + 4 + 1;

/// The smallest record size RFC 8188 allows (§2.1: "Values smaller than 18
/// are invalid"): a 16-byte tag, the delimiter and one byte of data.
///
/// ```
/// use hardware_aead::{Error, ece};
/// assert_eq!(ece::MIN_RECORD_SIZE, 18);
/// assert_eq!(ece::encrypt(&[1; 16], &[2; 16], b"", 17, b"x"), Err(Error::RecordSizeTooSmall));
/// ```
pub const MIN_RECORD_SIZE: u32 = 18;

/// The longest key identifier: its length must fit the header's one-byte
/// `idlen`.
///
/// ```
/// use hardware_aead::{Error, ece};
/// assert_eq!(ece::MAX_KEYID_LEN, 255);
/// let too_long = [b'k'; 256];
/// assert_eq!(ece::encrypt(&[1; 16], &[2; 16], &too_long, 4096, b"x"), Err(Error::KeyIdTooLong));
/// ```
pub const MAX_KEYID_LEN: usize = 255;

/// The largest record size that [`decrypt`] and [`Reader::new`] accept in a
/// header: 1 MiB (2^20 = 1,048,576 bytes). A larger one is refused with
/// [`Error::RecordSizeTooLarge`] when the header is parsed, before anything
/// sized by it is allocated or read.
///
/// Why a limit: a record's plaintext cannot be released before its tag,
/// at the record's end, verifies, so a receiver holds a whole record in
/// memory, and the size of that record is whatever the unauthenticated
/// header says, up to 2^32 − 1 bytes. Without a limit any sender could make
/// a [`Reader`] grow its buffer to 4 GiB per body (and a failed allocation
/// aborts the process). RFC 8188 leaves the limit to the application.
///
/// Why 1 MiB: senders use small records. 4096 is the usual size (RFC 8188's
/// first example; Web Push, RFC 8291, sends one record in a body of at most
/// 4096 bytes), and 65536 is what this crate's benchmarks measure as a large
/// one. 1 MiB is 256 times the first and 16 times the second, far past the
/// size where the 17 bytes and the tag of each record stop mattering, and
/// bounds what a decoder holds to about a megabyte per body; it is also the
/// most a [`Writer`] reserves up front. Raise or lower it per call with
/// [`decrypt_with_max_record_size`] and [`Reader::with_max_record_size`].
///
/// ```
/// use hardware_aead::{Error, ece};
/// # fn main() -> Result<(), Error> {
/// assert_eq!(ece::DEFAULT_MAX_RECORD_SIZE, 1 << 20);
/// // Encryption takes any record size; decryption, by default, up to the limit.
/// let body = ece::encrypt(&[1; 16], &[2; 16], b"", ece::DEFAULT_MAX_RECORD_SIZE + 1, b"x")?;
/// assert_eq!(
///     ece::decrypt(&[1; 16], &body),
///     Err(Error::RecordSizeTooLarge { size: (1 << 20) + 1, max: 1 << 20 })
/// );
/// # Ok(()) }
/// ```
pub const DEFAULT_MAX_RECORD_SIZE: u32 = 1 << 20;

/// Tag and delimiter: what every record holds besides data and padding.
const RECORD_OVERHEAD: usize = TAG_LEN + 1;

const _: () = assert!(MIN_RECORD_SIZE as usize == RECORD_OVERHEAD + 1);

/// Encrypts `plaintext` into an RFC 8188 `aes128gcm` body: the header (`salt`,
/// `record_size`, `keyid`), then records of `record_size` bytes, without
/// padding.
///
/// `salt` must never repeat under one `ikm` (draw it at random, for example
/// with [`random::fill`](crate::random::fill)). Errors:
/// [`Error::RecordSizeTooSmall`] below 18, [`Error::KeyIdTooLong`] past 255
/// bytes, [`Error::UnsupportedCpu`] without AES-NI and carry-less multiply.
/// For padding, or a body larger than memory, use [`Writer`].
///
/// ```
/// use hardware_aead::ece;
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let body = ece::encrypt(&[7; 16], &[9; 16], b"", 18, b"abc")?;
/// // three records of one byte each: 18 + 18 + 18 bytes after the header
/// assert_eq!(body.len(), ece::HEADER_LEN + 3 * 18);
/// assert_eq!(ece::decrypt(&[7; 16], &body)?, b"abc");
/// # Ok(()) }
/// ```
pub fn encrypt(
    ikm: &[u8],
    salt: &[u8; SALT_LEN],
    keyid: &[u8],
    record_size: u32,
    plaintext: &[u8],
) -> Result<Vec<u8>, Error> {
    let capacity = encrypted_len(plaintext.len(), record_size, keyid.len())?;
    let mut sealer = Sealer::new(ikm, salt, keyid, record_size, 0, capacity)?;
    let mut rest = plaintext;
    while !rest.is_empty() {
        let taken = sealer.push(rest)?;
        rest = rest.get(taken..).unwrap_or_default();
    }
    while !sealer.finish_step()? {}
    Ok(sealer.into_body())
}

/// Decrypts an RFC 8188 `aes128gcm` body (header, then records) and returns
/// the plaintext. Nothing is returned unless every record verified and the
/// body is whole.
///
/// The key identifier in the header is neither checked nor authenticated;
/// read it (bytes 21 to `21 + body[20]`) to choose `ikm` if you have several.
/// A record size above [`DEFAULT_MAX_RECORD_SIZE`] (1 MiB) is refused with
/// [`Error::RecordSizeTooLarge`]; [`decrypt_with_max_record_size`] takes
/// another limit.
///
/// ```
/// use hardware_aead::{Error, ece};
/// # fn main() -> Result<(), Error> {
/// let mut body = ece::encrypt(&[7; 16], &[9; 16], b"", 4096, b"attack at dawn")?;
/// assert_eq!(ece::decrypt(&[7; 16], &body)?, b"attack at dawn");
/// assert_eq!(ece::decrypt(&[8; 16], &body), Err(Error::Authentication));
/// body.pop();
/// assert_eq!(ece::decrypt(&[7; 16], &body), Err(Error::Authentication));
/// # Ok(()) }
/// ```
pub fn decrypt(ikm: &[u8], body: &[u8]) -> Result<Vec<u8>, Error> {
    decrypt_with_max_record_size(ikm, body, DEFAULT_MAX_RECORD_SIZE)
}

/// [`decrypt`] with a limit of `max_record_size` bytes on the record size
/// the header announces, instead of [`DEFAULT_MAX_RECORD_SIZE`]. A larger
/// record size is refused with [`Error::RecordSizeTooLarge`] before any
/// record is read; a limit below 18 refuses every body.
///
/// Give a [`Reader`] the same limit
/// ([`Reader::with_max_record_size`]) and the two accept the same bodies.
///
/// ```
/// use hardware_aead::{Error, ece};
/// # fn main() -> Result<(), Error> {
/// let body = ece::encrypt(&[7; 16], &[9; 16], b"", 4096, b"attack at dawn")?;
/// // Lower: only records of up to 1024 bytes.
/// assert_eq!(
///     ece::decrypt_with_max_record_size(&[7; 16], &body, 1024),
///     Err(Error::RecordSizeTooLarge { size: 4096, max: 1024 })
/// );
/// // Higher: a sender known to use 4 MiB records.
/// let big = ece::encrypt(&[7; 16], &[9; 16], b"", 4 << 20, b"attack at dawn")?;
/// assert!(ece::decrypt(&[7; 16], &big).is_err());
/// assert_eq!(ece::decrypt_with_max_record_size(&[7; 16], &big, 4 << 20)?, b"attack at dawn");
/// # Ok(()) }
/// ```
pub fn decrypt_with_max_record_size(
    ikm: &[u8],
    body: &[u8],
    max_record_size: u32,
) -> Result<Vec<u8>, Error> {
    let header = Header::parse(body, max_record_size)?;
    let records = body.get(header.len()..).ok_or(Error::Truncated)?;
    let mut opener = Opener::new(ikm, &header)?;
    // The plaintext is never longer than the records; each record decrypts
    // into `out` right after the data of the one before, over its padding.
    let mut out = WipedVec::from(alloc::vec![0u8; records.len()]);
    let mut written = 0;
    let mut rest = records;
    if rest.is_empty() {
        return Err(Error::Truncated);
    }
    while !rest.is_empty() {
        let (record, after) = rest.split_at(min(opener.record_size, rest.len()));
        let to = out.get_mut(written..).ok_or(Error::Truncated)?;
        written += opener.open(RecordBytes::Copy { from: record, to }, !after.is_empty())?;
        rest = after;
    }
    out.truncate(written);
    Ok(out.take())
}

/// The body length [`encrypt`] produces: header, data, and the 17 bytes of
/// tag and delimiter of each record.
fn encrypted_len(plaintext_len: usize, record_size: u32, keyid_len: usize) -> Result<usize, Error> {
    let per_record = usize::try_from(record_size)
        .map_err(|_| Error::InputTooLong)?
        .checked_sub(RECORD_OVERHEAD)
        .filter(|&n| n > 0)
        .ok_or(Error::RecordSizeTooSmall)?;
    let records = plaintext_len.div_ceil(per_record).max(1);
    records
        .checked_mul(RECORD_OVERHEAD)
        .and_then(|n| n.checked_add(plaintext_len))
        .and_then(|n| n.checked_add(HEADER_LEN + min(keyid_len, MAX_KEYID_LEN)))
        .ok_or(Error::InputTooLong)
}

/// The fixed part of a header, parsed.
struct Header {
    salt: [u8; SALT_LEN],
    record_size: u32,
    keyid_len: usize,
}

impl Header {
    /// Parses the start of `bytes`: [`Error::Truncated`] if it ends
    /// before the salt, record size and `idlen` (the key identifier's length
    /// is checked by the caller), [`Error::RecordSizeTooSmall`] for a record
    /// size below 18, [`Error::RecordSizeTooLarge`] for one above
    /// `max_record_size`. Nothing sized by the record size exists yet.
    fn parse(bytes: &[u8], max_record_size: u32) -> Result<Self, Error> {
        let fixed: &[u8; HEADER_LEN] = bytes
            .get(..HEADER_LEN)
            .and_then(|b| b.try_into().ok())
            .ok_or(Error::Truncated)?;
        let (salt, rest) = fixed.split_at(SALT_LEN);
        let (rs, idlen) = rest.split_at(4);
        let record_size = u32::from_be_bytes([rs[0], rs[1], rs[2], rs[3]]);
        if record_size < MIN_RECORD_SIZE {
            return Err(Error::RecordSizeTooSmall);
        }
        if record_size > max_record_size {
            return Err(Error::RecordSizeTooLarge {
                size: record_size,
                max: max_record_size,
            });
        }
        let mut salt_bytes = [0u8; SALT_LEN];
        salt_bytes.copy_from_slice(salt);
        Ok(Header {
            salt: salt_bytes,
            record_size,
            keyid_len: usize::from(idlen[0]),
        })
    }

    /// The header's length with its key identifier.
    fn len(&self) -> usize {
        HEADER_LEN + self.keyid_len
    }
}
