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
//! The AES-128-GCM is this crate's [`Aes128Gcm`] on the CPU's instructions;
//! HKDF and SHA-256 come from RustCrypto's `hkdf` and `sha2`, the only
//! dependencies the `ece` feature adds.
//!
//! # Which call
//!
//! - [`encrypt`] and [`decrypt`]: a whole body in memory.
//! - [`Encoder`] (an [`io::Write`]) and [`Decoder`] (an [`io::Read`]): bodies
//!   of any length, one record in memory at a time. Padding is an option of
//!   the encoder ([`Encoder::with_padding`]).
//!
//! The one-shot calls and the streaming types run the same record code, so
//! they produce and accept exactly the same bytes.
//!
//! # What decryption guarantees
//!
//! A record's plaintext is released only after its tag verified. Every way
//! the RFC says a body can be wrong returns its own [`Error`]: a record size
//! below 18 ([`Error::RecordSizeTooSmall`]), a header cut short
//! ([`Error::HeaderTooShort`]), a forged or damaged record
//! ([`Error::Authentication`]), a record with no delimiter
//! ([`Error::MissingDelimiter`]) or non-zero padding
//! ([`Error::InvalidPadding`]), a body cut inside a record
//! ([`Error::Truncated`]) or at a record boundary
//! ([`Error::LastRecordNotMarked`]), and bytes after the last record
//! ([`Error::DataAfterLastRecord`]). Record nonces follow the record's
//! position, so a dropped, repeated or reordered record fails its tag.
//!
//! The header is not authenticated as such. The key identifier (`keyid`)
//! takes no part in the key derivation, so a changed one decrypts as before:
//! use it to choose the IKM, never as data to trust. A changed record size
//! splits the records elsewhere and fails their tags, unless it splits them
//! the same way (a body of one record, shorter than both sizes), when the
//! same plaintext comes out. The salt goes into the key: a changed one fails.
//!
//! A [`Decoder`] releases the records it verified before it reaches a bad
//! one (that is what streaming means): only the error at the end says the
//! body was whole. RFC 8188 §4.2: "A partially delivered message MUST NOT
//! be processed as though the entire message was successfully delivered."
//! Use [`decrypt`] (or read the decoder to the end before acting on the
//! data) when that matters.
//!
//! # Secrets
//!
//! The CEK and the PRK bytes are wiped once the key is built; the
//! [`Aes128Gcm`] key state is wiped on drop, and so are the buffers of
//! [`Encoder`] and [`Decoder`] and the copy of the IKM a [`Decoder`] keeps
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
use std::io::{self, Read, Write};

use hkdf::Hkdf;
use sha2::Sha256;
use zeroize::{Zeroize, Zeroizing};

use crate::aead::{Aead, Nonce, TAG_LEN};
use crate::aes_gcm::Aes128Gcm;
use crate::error::Error;

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

/// Tag and delimiter: what every record holds besides data and padding.
const RECORD_OVERHEAD: usize = TAG_LEN + 1;

const _: () = assert!(MIN_RECORD_SIZE as usize == RECORD_OVERHEAD + 1);

/// §2.2: "cek_info = "Content-Encoding: aes128gcm" || 0x00".
const CEK_INFO: &[u8] = b"Content-Encoding: aes128gcm\0";

/// §2.3: "nonce_info = "Content-Encoding: nonce" || 0x00".
const NONCE_INFO: &[u8] = b"Content-Encoding: nonce\0";

/// The delimiter of every record but the last (§2).
const DELIMITER: u8 = 1;

/// The delimiter of the last record (§2).
const LAST_DELIMITER: u8 = 2;

/// Encrypts `plaintext` into an RFC 8188 `aes128gcm` body: the header (`salt`,
/// `record_size`, `keyid`), then records of `record_size` bytes, without
/// padding.
///
/// `salt` must never repeat under one `ikm` (draw it at random, for example
/// with [`random::fill`](crate::random::fill)). Errors:
/// [`Error::RecordSizeTooSmall`] below 18, [`Error::KeyIdTooLong`] past 255
/// bytes, [`Error::UnsupportedCpu`] without AES-NI and carry-less multiply.
/// For padding, or a body larger than memory, use [`Encoder`].
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
    Ok(core::mem::take(&mut *sealer.out))
}

/// Decrypts an RFC 8188 `aes128gcm` body (header, then records) and returns
/// the plaintext. Nothing is returned unless every record verified and the
/// body is whole.
///
/// The key identifier in the header is neither checked nor authenticated;
/// read it (bytes 21 to `21 + body[20]`) to choose `ikm` if you have several.
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
    let header = Header::parse(body)?;
    let records = body.get(header.len()..).ok_or(Error::HeaderTooShort)?;
    let mut opener = Opener::new(ikm, &header)?;
    // The plaintext is never longer than the records; each record decrypts
    // into `out` right after the data of the one before, over its padding.
    let mut out = Zeroizing::new(alloc::vec![0u8; records.len()]);
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
    Ok(core::mem::take(&mut *out))
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
    /// Parses the start of `bytes`: [`Error::HeaderTooShort`] if it ends
    /// before the salt, record size and `idlen` (the key identifier's length
    /// is checked by the caller), [`Error::RecordSizeTooSmall`] for a record
    /// size below 18.
    fn parse(bytes: &[u8]) -> Result<Self, Error> {
        let fixed: &[u8; HEADER_LEN] = bytes
            .get(..HEADER_LEN)
            .and_then(|b| b.try_into().ok())
            .ok_or(Error::HeaderTooShort)?;
        let (salt, rest) = fixed.split_at(SALT_LEN);
        let (rs, idlen) = rest.split_at(4);
        let record_size = u32::from_be_bytes([rs[0], rs[1], rs[2], rs[3]]);
        if record_size < MIN_RECORD_SIZE {
            return Err(Error::RecordSizeTooSmall);
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

/// The AES-128-GCM key of one body and its record counter.
struct RecordKey {
    aead: Aes128Gcm,
    nonce: Nonce,
    seq: u64,
}

impl RecordKey {
    /// Derives the CEK and NONCE (§2.2, §2.3) and builds the key.
    fn derive(ikm: &[u8], salt: &[u8; SALT_LEN]) -> Result<Self, Error> {
        // §2.2: "PRK = HMAC-SHA-256(salt, IKM)".
        let (mut prk, hkdf) = Hkdf::<Sha256>::extract(Some(salt), ikm);
        prk.as_mut_slice().zeroize();
        let mut cek = Zeroizing::new([0u8; 16]);
        let mut nonce = [0u8; 12];
        // Neither length is over HKDF's 255 * 32 bytes, so neither call fails.
        if hkdf.expand(CEK_INFO, &mut cek[..]).is_err()
            || hkdf.expand(NONCE_INFO, &mut nonce).is_err()
        {
            return Err(Error::InvalidKeyLength);
        }
        Ok(RecordKey {
            aead: Aes128Gcm::new(&cek)?,
            nonce,
            seq: 0,
        })
    }

    /// The nonce of the next record, and the counter moved past it. §2.3:
    /// "NONCE = HMAC-SHA-256(PRK, nonce_info || 0x01) XOR SEQ", SEQ a 96-bit
    /// big-endian integer; ours stays below 2^64, so its top 32 bits are zero.
    fn next_nonce(&mut self) -> Result<Nonce, Error> {
        let seq = self.seq;
        self.seq = seq.checked_add(1).ok_or(Error::NonceExhausted)?;
        let mut nonce = self.nonce;
        for (n, s) in nonce[4..].iter_mut().zip(seq.to_be_bytes()) {
            *n ^= s;
        }
        Ok(nonce)
    }
}

impl Drop for RecordKey {
    fn drop(&mut self) {
        self.nonce.zeroize();
    }
}

/// Encryption, record by record: the one code behind [`encrypt`] and
/// [`Encoder`].
///
/// `out` holds the header and the sealed records not yet handed on
/// (`out[..start]`), then the data of the record being filled
/// (`out[start..]`). Padding is placed greedily: each record takes as much of
/// what is left as it can hold (up to `rs − 17` bytes), so the first records
/// carry it.
struct Sealer {
    key: RecordKey,
    /// The record size `rs`, at least 18.
    record_size: usize,
    /// Padding not yet placed in a sealed record.
    padding: u64,
    out: Zeroizing<Vec<u8>>,
    start: usize,
}

impl Sealer {
    /// Checks the parameters, derives the key and writes the header into
    /// `out`, reserving `capacity` bytes.
    fn new(
        ikm: &[u8],
        salt: &[u8; SALT_LEN],
        keyid: &[u8],
        record_size: u32,
        padding: u64,
        capacity: usize,
    ) -> Result<Self, Error> {
        if record_size < MIN_RECORD_SIZE {
            return Err(Error::RecordSizeTooSmall);
        }
        let idlen = u8::try_from(keyid.len()).map_err(|_| Error::KeyIdTooLong)?;
        let record_size_usize = usize::try_from(record_size).map_err(|_| Error::InputTooLong)?;
        let key = RecordKey::derive(ikm, salt)?;
        let mut out = Zeroizing::new(Vec::with_capacity(capacity.max(HEADER_LEN + keyid.len())));
        out.extend_from_slice(salt);
        out.extend_from_slice(&record_size.to_be_bytes());
        out.push(idlen);
        out.extend_from_slice(keyid);
        let start = out.len();
        Ok(Sealer {
            key,
            record_size: record_size_usize,
            padding,
            out,
            start,
        })
    }

    /// The padding of the record being filled.
    fn record_padding(&self) -> usize {
        let most = self.record_size - RECORD_OVERHEAD;
        usize::try_from(self.padding).map_or(most, |p| min(p, most))
    }

    /// How many more data bytes the record being filled can take.
    fn room(&self) -> usize {
        let capacity = self.record_size - RECORD_OVERHEAD - self.record_padding();
        capacity.saturating_sub(self.out.len() - self.start)
    }

    /// Takes data into the record being filled and returns how much it took.
    /// If that record is full, it is sealed as a middle record instead (`data`
    /// proves another follows) and 0 is returned: call again.
    fn push(&mut self, data: &[u8]) -> Result<usize, Error> {
        if data.is_empty() {
            return Ok(0);
        }
        let room = self.room();
        if room == 0 {
            self.seal(false)?;
            return Ok(0);
        }
        let taken = min(room, data.len());
        reserve_wiping(&mut self.out, taken)?;
        self.out.extend_from_slice(&data[..taken]);
        Ok(taken)
    }

    /// Seals one record at the end of the body and returns whether it was
    /// the last: a full record is a middle one while padding remains to be
    /// placed, otherwise the record being filled is the last.
    fn finish_step(&mut self) -> Result<bool, Error> {
        let last = self.room() > 0 || self.padding == self.record_padding() as u64;
        self.seal(last)?;
        Ok(last)
    }

    /// Appends the delimiter and this record's padding to its data, seals it
    /// in place and appends the tag.
    fn seal(&mut self, last: bool) -> Result<(), Error> {
        let padding = self.record_padding();
        reserve_wiping(&mut self.out, 1 + padding + TAG_LEN)?;
        self.out.push(if last { LAST_DELIMITER } else { DELIMITER });
        let padded_len = self.out.len() + padding;
        self.out.resize(padded_len, 0);
        let nonce = self.key.next_nonce()?;
        let record = self.out.get_mut(self.start..).unwrap_or_default();
        let tag = self
            .key
            .aead
            .encrypt_in_place_detached(&nonce, b"", record)?;
        self.out.extend_from_slice(&tag);
        self.padding -= padding as u64;
        self.start = self.out.len();
        Ok(())
    }

    /// The sealed bytes (header and records) not handed on yet.
    fn sealed(&self) -> &[u8] {
        self.out.get(..self.start).unwrap_or_default()
    }

    /// Forgets the first `n` sealed bytes, handed on.
    fn consume(&mut self, n: usize) {
        let n = min(n, self.start);
        self.out.drain(..n);
        self.start -= n;
    }
}

/// Makes room for `additional` more bytes in `buffer` without leaving its
/// old contents in freed memory: a larger allocation is filled by copy and
/// the old one wiped.
fn reserve_wiping(buffer: &mut Vec<u8>, additional: usize) -> Result<(), Error> {
    if buffer.capacity() - buffer.len() >= additional {
        return Ok(());
    }
    let needed = buffer
        .len()
        .checked_add(additional)
        .ok_or(Error::InputTooLong)?;
    let mut larger = Vec::with_capacity(needed.max(buffer.capacity().saturating_mul(2)));
    larger.extend_from_slice(buffer);
    buffer.zeroize();
    *buffer = larger;
    Ok(())
}

/// A record's ciphertext and tag, and where its plaintext goes.
enum RecordBytes<'a> {
    /// Decrypt `from` into `to` (at least `from.len() − 16` bytes).
    Copy { from: &'a [u8], to: &'a mut [u8] },
    /// Decrypt in place: the plaintext lands at the start.
    InPlace(&'a mut [u8]),
}

/// Decryption, record by record: the one code behind [`decrypt`] and
/// [`Decoder`].
struct Opener {
    key: RecordKey,
    /// The record size `rs` from the header, at least 18.
    record_size: usize,
}

impl Opener {
    fn new(ikm: &[u8], header: &Header) -> Result<Self, Error> {
        Ok(Opener {
            key: RecordKey::derive(ikm, &header.salt)?,
            record_size: usize::try_from(header.record_size).map_err(|_| Error::InputTooLong)?,
        })
    }

    /// Opens the next record; `more` says whether body bytes follow it.
    /// Returns the length of its data, which then starts the output. On any
    /// error the output holds no plaintext.
    fn open(&mut self, record: RecordBytes<'_>, more: bool) -> Result<usize, Error> {
        let sealed_len = match &record {
            RecordBytes::Copy { from, .. } => from.len(),
            RecordBytes::InPlace(buffer) => buffer.len(),
        };
        let Some(text_len) = sealed_len.checked_sub(RECORD_OVERHEAD - 1) else {
            return Err(Error::Truncated);
        };
        if text_len == 0 {
            return Err(Error::Truncated);
        }
        let nonce = self.key.next_nonce()?;
        let plaintext = match record {
            RecordBytes::Copy { from, to } => {
                let to = to
                    .get_mut(..text_len)
                    .ok_or(Error::BufferTooSmall { needed: text_len })?;
                self.key.aead.decrypt_to(&nonce, b"", from, to)?;
                to
            }
            RecordBytes::InPlace(buffer) => {
                let (text, tag) = buffer.split_at_mut(text_len);
                let mut received = [0u8; TAG_LEN];
                received.copy_from_slice(tag);
                self.key
                    .aead
                    .decrypt_in_place_detached(&nonce, b"", text, &received)?;
                text
            }
        };
        let result = unpad(plaintext, !more);
        if result.is_err() {
            plaintext.zeroize();
        }
        result
    }
}

/// Finds the end of a decrypted record's data. §2: "the padding delimiter is
/// the last non-zero valued octet of the record. A decrypter MUST fail if the
/// record contains no non-zero octet. A decrypter MUST fail if the last
/// record contains a padding delimiter with a value other than 2 or if any
/// record other than the last contains a padding delimiter with a value
/// other than 1."
fn unpad(plaintext: &[u8], last: bool) -> Result<usize, Error> {
    let at = plaintext
        .iter()
        .rposition(|&b| b != 0)
        .ok_or(Error::MissingDelimiter)?;
    match (plaintext[at], last) {
        (LAST_DELIMITER, true) | (DELIMITER, false) => Ok(at),
        (DELIMITER, true) => Err(Error::LastRecordNotMarked),
        (LAST_DELIMITER, false) => Err(Error::DataAfterLastRecord),
        _ => Err(Error::InvalidPadding),
    }
}

/// Encrypts into an RFC 8188 `aes128gcm` body written to `W`, one record at
/// a time.
///
/// Each record is sealed and written once the data of the next one starts
/// (a record is the last only if nothing follows it), so at most one record
/// is held in memory. [`finish`](Encoder::finish) seals and writes the last
/// record and returns `W`; an encoder dropped without it leaves a body that
/// [`decrypt`] and [`Decoder`] reject. I/O errors of `W` are returned
/// unchanged, and the write that failed can be retried.
///
/// The output is byte for byte that of [`encrypt`] for the same arguments
/// (padding 0), however the data is split into writes.
///
/// ```
/// use std::io::Write;
/// use hardware_aead::ece;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let ikm = [0x4b; 16];
/// let salt = [0x5a; 16]; // draw it at random in real use
/// let mut encoder = ece::Encoder::new(Vec::new(), &ikm, &salt, b"", 4096)?;
/// for line in ["first line\n", "second line\n"] {
///     encoder.write_all(line.as_bytes())?;
/// }
/// let body = encoder.finish()?;
/// assert_eq!(ece::decrypt(&ikm, &body).unwrap(), b"first line\nsecond line\n");
/// # Ok(()) }
/// ```
pub struct Encoder<W: Write> {
    inner: W,
    sealer: Sealer,
}

impl<W: Write> Encoder<W> {
    /// An encoder writing to `inner`, without padding. Nothing is written
    /// until the first `write`, `flush` or `finish`.
    ///
    /// Errors: [`Error::RecordSizeTooSmall`] below 18,
    /// [`Error::KeyIdTooLong`] past 255 bytes, [`Error::UnsupportedCpu`].
    ///
    /// ```
    /// use hardware_aead::{Error, ece};
    /// assert!(ece::Encoder::new(Vec::new(), &[1; 16], &[2; 16], b"", 4096).is_ok());
    /// assert_eq!(
    ///     ece::Encoder::new(Vec::new(), &[1; 16], &[2; 16], b"", 17).err(),
    ///     Some(Error::RecordSizeTooSmall)
    /// );
    /// ```
    pub fn new(
        inner: W,
        ikm: &[u8],
        salt: &[u8; SALT_LEN],
        keyid: &[u8],
        record_size: u32,
    ) -> Result<Self, Error> {
        Self::with_padding(inner, ikm, salt, keyid, record_size, 0)
    }

    /// An encoder that adds `padding` zero bytes to the body in all, to hide
    /// the length of the data: each record, from the first, takes as much of
    /// the padding as it can hold (up to `record_size − 17` bytes; a record
    /// may be all padding), so the data is pushed into later records. The
    /// padding is written even if no data is.
    ///
    /// RFC 8188 §3.2's body (record size 25, one byte of padding, in the
    /// first record) is what this gives for `padding = 1`:
    ///
    /// ```
    /// use std::io::Write;
    /// use hardware_aead::ece;
    ///
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let mut encoder = ece::Encoder::with_padding(Vec::new(), &[1; 16], &[2; 16], b"a1", 25, 1)?;
    /// encoder.write_all(b"I am the walrus")?;
    /// let body = encoder.finish()?;
    /// // two records: 7 bytes of data + delimiter + 1 padding byte, then 8 + delimiter
    /// assert_eq!(body.len(), ece::HEADER_LEN + 2 + 25 + 25);
    /// assert_eq!(ece::decrypt(&[1; 16], &body).unwrap(), b"I am the walrus");
    /// # Ok(()) }
    /// ```
    pub fn with_padding(
        inner: W,
        ikm: &[u8],
        salt: &[u8; SALT_LEN],
        keyid: &[u8],
        record_size: u32,
        padding: u64,
    ) -> Result<Self, Error> {
        Ok(Encoder {
            inner,
            sealer: Sealer::new(ikm, salt, keyid, record_size, padding, 0)?,
        })
    }

    /// Seals and writes the last record, flushes `W` and returns it.
    ///
    /// ```
    /// use hardware_aead::ece;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let empty = ece::Encoder::new(Vec::new(), &[1; 16], &[2; 16], b"", 4096)?.finish()?;
    /// assert_eq!(empty.len(), ece::HEADER_LEN + 17); // one record: delimiter and tag
    /// assert_eq!(ece::decrypt(&[1; 16], &empty).unwrap(), b"");
    /// # Ok(()) }
    /// ```
    pub fn finish(mut self) -> io::Result<W> {
        loop {
            self.write_sealed()?;
            if self.sealer.finish_step().map_err(io::Error::from)? {
                break;
            }
        }
        self.write_sealed()?;
        self.inner.flush()?;
        Ok(self.inner)
    }

    /// The writer the body goes to.
    ///
    /// ```
    /// use hardware_aead::ece;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let encoder = ece::Encoder::new(Vec::new(), &[1; 16], &[2; 16], b"", 4096)?;
    /// assert!(encoder.get_ref().is_empty()); // the header waits for the first write
    /// # Ok(()) }
    /// ```
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// Writes the sealed bytes waiting in the buffer to `inner`.
    fn write_sealed(&mut self) -> io::Result<()> {
        while !self.sealer.sealed().is_empty() {
            match self.inner.write(self.sealer.sealed()) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::WriteZero,
                        "the writer took no bytes of an encrypted record",
                    ));
                }
                Ok(n) => self.sealer.consume(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

impl<W: Write> Write for Encoder<W> {
    /// Takes as much of `data` as fits the record being filled; writes the
    /// records sealed so far to `W` first.
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        loop {
            self.write_sealed()?;
            if data.is_empty() {
                return Ok(0);
            }
            match self.sealer.push(data).map_err(io::Error::from)? {
                0 => continue, // a full record was sealed; write it, then take the data
                n => return Ok(n),
            }
        }
    }

    /// Writes the records sealed so far and flushes `W`. The record being
    /// filled stays in memory: it cannot be sealed before it is known to be
    /// full or the last.
    fn flush(&mut self) -> io::Result<()> {
        self.write_sealed()?;
        self.inner.flush()
    }
}

impl<W: Write> core::fmt::Debug for Encoder<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Encoder")
            .field("record_size", &self.sealer.record_size)
            .finish_non_exhaustive()
    }
}

/// Where a [`Decoder`] is in the body.
// `Records` holds the AES-128-GCM key state inline, as `Aes128Gcm` does: no
// allocation for it, and it is wiped where it lies.
#[allow(clippy::large_enum_variant)]
enum DecoderState {
    /// Reading the header; the IKM waits for the salt.
    Header { ikm: Zeroizing<Vec<u8>> },
    /// Reading records.
    Records(Opener),
    /// The last record was read and verified.
    Done,
    /// An error other than an I/O error of `R`: every later read returns it.
    Failed(Error),
}

/// Decrypts an RFC 8188 `aes128gcm` body read from `R`: an [`io::Read`] of
/// the plaintext.
///
/// It reads one record (and one byte more, to tell a middle record from the
/// last), verifies its tag and the delimiter, and only then hands out its
/// data. The first error of the body (see the [module](self) docs) is
/// returned as an [`io::Error`] whose source is the crate's [`Error`]
/// (`get_ref()` and `downcast_ref::<Error>()` give it back), and every read
/// after it returns it again: a failed decoder is poisoned. I/O errors of
/// `R` pass through unchanged and do not poison it; the read can be retried.
/// After the last record, reads return 0 and `R` is not read again.
///
/// ```
/// use std::io::Read;
/// use hardware_aead::{Error, ece};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let body = ece::encrypt(&[3; 16], &[4; 16], b"", 64, &[0x61; 1000]).unwrap();
/// let mut plaintext = Vec::new();
/// ece::Decoder::new(&body[..], &[3; 16]).read_to_end(&mut plaintext)?;
/// assert_eq!(plaintext, [0x61; 1000]);
///
/// // The same body cut at a record boundary: the records before are
/// // released, then the error.
/// let cut = &body[..ece::HEADER_LEN + 2 * 64];
/// let mut decoder = ece::Decoder::new(cut, &[3; 16]);
/// let mut partial = Vec::new();
/// let err = decoder.read_to_end(&mut partial).unwrap_err();
/// assert_eq!(err.get_ref().and_then(|e| e.downcast_ref::<Error>()), Some(&Error::LastRecordNotMarked));
/// # Ok(()) }
/// ```
pub struct Decoder<R: Read> {
    inner: R,
    state: DecoderState,
    /// Body bytes read and not yet decrypted at `buffer[..filled]`, or
    /// after a record is opened, its data at `buffer[pos..end]` and the byte
    /// read past it at `buffer[end_of_record]`.
    buffer: Zeroizing<Vec<u8>>,
    filled: usize,
    pos: usize,
    end: usize,
    /// Bytes at `buffer[carry_at..filled]` that belong to the next record.
    carry_at: usize,
}

/// The first buffer size of a [`Decoder`]; it grows up to the record size
/// only as the body's bytes arrive, so a header with a huge record size
/// costs nothing until the body is as large.
const FIRST_BUFFER: usize = 16 * 1024;

impl<R: Read> Decoder<R> {
    /// A decoder reading the body from `inner` with the input keying
    /// material `ikm` (kept, wiped on drop, until the header is read).
    /// Nothing is read before the first `read`.
    ///
    /// ```
    /// use std::io::Read;
    /// use hardware_aead::ece;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let body = ece::encrypt(&[3; 16], &[4; 16], b"", 4096, b"hi").unwrap();
    /// let mut text = String::new();
    /// ece::Decoder::new(body.as_slice(), &[3; 16]).read_to_string(&mut text)?;
    /// assert_eq!(text, "hi");
    /// # Ok(()) }
    /// ```
    pub fn new(inner: R, ikm: &[u8]) -> Self {
        Decoder {
            inner,
            state: DecoderState::Header {
                ikm: Zeroizing::new(ikm.to_vec()),
            },
            buffer: Zeroizing::new(Vec::new()),
            filled: 0,
            pos: 0,
            end: 0,
            carry_at: 0,
        }
    }

    /// The reader the body comes from.
    ///
    /// ```
    /// use hardware_aead::ece;
    /// let decoder = ece::Decoder::new(&b"not read yet"[..], &[3; 16]);
    /// assert_eq!(*decoder.get_ref(), b"not read yet");
    /// ```
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// Reads from `inner` until `buffer[..want]` is filled or the body ends;
    /// returns whether it ended. The buffer grows as bytes arrive.
    fn fill(&mut self, want: usize) -> io::Result<bool> {
        while self.filled < want {
            if self.filled == self.buffer.len() {
                let grown = min(want, self.buffer.len().saturating_mul(2).max(FIRST_BUFFER));
                // Only ciphertext is in the buffer while it grows (the first
                // record's), so the old allocation needs no wipe.
                self.buffer.resize(grown, 0);
            }
            let space = self.buffer.get_mut(self.filled..).unwrap_or_default();
            let space_len = space.len();
            match self.inner.read(space) {
                Ok(0) => return Ok(true),
                // A reader that claims more than it was given is not trusted
                // past the buffer.
                Ok(n) => self.filled += min(n, space_len),
                Err(e) => return Err(e),
            }
        }
        Ok(false)
    }

    /// Reads and parses the header, then derives the key.
    fn read_header(&mut self) -> io::Result<()> {
        if self.fill(HEADER_LEN)? {
            return self.fail(Error::HeaderTooShort);
        }
        let header = match Header::parse(&self.buffer[..self.filled]) {
            Ok(header) => header,
            Err(e) => return self.fail(e),
        };
        if self.fill(header.len())? {
            return self.fail(Error::HeaderTooShort);
        }
        let DecoderState::Header { ikm } = &self.state else {
            return Ok(());
        };
        let opener = match Opener::new(ikm, &header) {
            Ok(opener) => opener,
            Err(e) => return self.fail(e),
        };
        // Bytes read past the header start the first record.
        self.buffer.copy_within(header.len()..self.filled, 0);
        self.filled -= header.len();
        self.state = DecoderState::Records(opener);
        Ok(())
    }

    /// Reads the next record and one byte past it, and opens it: straight
    /// into `out` if it can hold the record's plaintext (the return value is
    /// then the data length), else in place in the buffer, with `pos..end`
    /// pointing at its data (and 0 returned). Either way nothing is left
    /// where it can be read unless the tag and the delimiter checked out.
    fn open_record(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let DecoderState::Records(opener) = &self.state else {
            return Ok(0);
        };
        let record_size = opener.record_size;
        if self.carry_at > 0 {
            // The bytes read past the previous record start this one.
            self.buffer.copy_within(self.carry_at..self.filled, 0);
            self.filled -= self.carry_at;
            self.carry_at = 0;
        }
        let Some(want) = record_size.checked_add(1) else {
            return self.fail(Error::InputTooLong);
        };
        let ended = self.fill(want)?;
        if self.filled == 0 {
            // No record after the header (a middle record always has a
            // byte after it, so this is the first).
            return self.fail(Error::Truncated);
        }
        let record_len = min(self.filled, record_size);
        let DecoderState::Records(opener) = &mut self.state else {
            return Ok(0);
        };
        let text_len = record_len.saturating_sub(TAG_LEN);
        let direct = out.len() >= text_len;
        let opened = if direct {
            let from = &self.buffer[..record_len];
            opener.open(RecordBytes::Copy { from, to: out }, !ended)
        } else {
            opener.open(RecordBytes::InPlace(&mut self.buffer[..record_len]), !ended)
        };
        let data_len = match opened {
            Ok(data_len) => data_len,
            Err(e) => return self.fail(e),
        };
        if ended {
            self.state = DecoderState::Done;
        } else {
            self.carry_at = record_len;
        }
        if direct {
            // The delimiter and padding after the data: not part of the read.
            out[data_len..text_len].fill(0);
            Ok(data_len)
        } else {
            self.pos = 0;
            self.end = data_len;
            Ok(0)
        }
    }

    /// Poisons the decoder with `error`, wipes what it held and returns it.
    fn fail<T>(&mut self, error: Error) -> io::Result<T> {
        self.state = DecoderState::Failed(error);
        self.buffer.zeroize();
        self.filled = 0;
        self.pos = 0;
        self.end = 0;
        self.carry_at = 0;
        Err(io::Error::from(error))
    }
}

impl<R: Read> Read for Decoder<R> {
    /// Fills `out` with verified data: what is left of the record opened
    /// last, else the next record's, read, verified and decrypted (straight
    /// into `out` when it has room for the whole record).
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return match self.state {
                DecoderState::Failed(error) => Err(io::Error::from(error)),
                _ => Ok(0),
            };
        }
        loop {
            if self.pos < self.end {
                let n = min(out.len(), self.end - self.pos);
                out[..n].copy_from_slice(&self.buffer[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            match self.state {
                DecoderState::Failed(error) => return Err(io::Error::from(error)),
                DecoderState::Done => return Ok(0),
                DecoderState::Header { .. } => self.read_header()?,
                // A record of padding only gives no data: go on to the next.
                DecoderState::Records(_) => match self.open_record(out)? {
                    0 => continue,
                    n => return Ok(n),
                },
            }
        }
    }
}

impl<R: Read> core::fmt::Debug for Decoder<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let state = match self.state {
            DecoderState::Header { .. } => "header",
            DecoderState::Records(_) => "records",
            DecoderState::Done => "done",
            DecoderState::Failed(_) => "failed",
        };
        f.debug_struct("Decoder")
            .field("state", &state)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::{Error, unpad};

    #[test]
    fn unpad_rules() {
        assert_eq!(unpad(b"ab\x02", true), Ok(2));
        assert_eq!(unpad(b"ab\x01\0\0", false), Ok(2));
        assert_eq!(unpad(b"\x02\0", true), Ok(0));
        assert_eq!(unpad(b"ab\x01", true), Err(Error::LastRecordNotMarked));
        assert_eq!(unpad(b"ab\x02", false), Err(Error::DataAfterLastRecord));
        assert_eq!(unpad(b"ab\x03\0", true), Err(Error::InvalidPadding));
        assert_eq!(unpad(b"\0\0\0", true), Err(Error::MissingDelimiter));
        assert_eq!(unpad(b"", false), Err(Error::MissingDelimiter));
    }
}
