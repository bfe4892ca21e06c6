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
//! - [`Encoder`] (an [`std::io::Write`]) and [`Decoder`] (an [`std::io::Read`]): bodies
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
use core::ops::Range;

use hkdf::Hkdf;
use sha2::Sha256;
use zeroize::{Zeroize, Zeroizing};

use crate::aead::{Aead, Nonce, TAG_LEN};
use crate::aes_gcm::Aes128Gcm;
use crate::block::{wipe_bytes, wipe_memory};
use crate::error::Error;

mod io;

pub use io::{Decoder, Encoder};

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
    Ok(sealer.into_body())
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
    let mut out = WipedVec(alloc::vec![0u8; records.len()]);
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
/// (`out[start..end]`). Past `end`, up to `out.len()`, are bytes of records
/// already handed on: the vector keeps its length, so a record sealed into
/// that space is not zero-filled first (a memset of every record, 7 % of an
/// [`Encoder`]'s time on Zen 4); whatever writes there overwrites every byte.
/// Padding is placed greedily: each record takes as much of what is left as
/// it can hold (up to `rs − 17` bytes), so the first records carry it.
struct Sealer {
    key: RecordKey,
    /// The record size `rs`, at least 18.
    record_size: usize,
    /// Padding not yet placed in a sealed record.
    padding: u64,
    out: WipedVec,
    start: usize,
    end: usize,
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
        let header_len = HEADER_LEN + keyid.len();
        // Zeroed by the allocator (`calloc`), as `Aead::encrypt`'s output is:
        // a large fresh allocation comes zeroed from the kernel.
        let mut out = WipedVec(alloc::vec![0u8; capacity.max(header_len)]);
        let header = out.get_mut(..header_len).unwrap_or_default();
        header[..SALT_LEN].copy_from_slice(salt);
        header[SALT_LEN..SALT_LEN + 4].copy_from_slice(&record_size.to_be_bytes());
        header[HEADER_LEN - 1] = idlen;
        header[HEADER_LEN..].copy_from_slice(keyid);
        Ok(Sealer {
            key,
            record_size: record_size_usize,
            padding,
            out,
            start: header_len,
            end: header_len,
        })
    }

    /// Moves `end` on by `n` bytes and returns where they are in `out`, to
    /// be overwritten in full: they hold zeros or bytes of records handed on.
    fn extend(&mut self, n: usize) -> Result<Range<usize>, Error> {
        let old_end = self.end;
        let new_end = old_end.checked_add(n).ok_or(Error::InputTooLong)?;
        if let Some(more) = new_end.checked_sub(self.out.len()) {
            reserve_wiping(&mut self.out, more)?;
            self.out.resize(new_end, 0);
        }
        self.end = new_end;
        Ok(old_end..new_end)
    }

    /// Appends `bytes` at `end`.
    fn append(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let at = self.extend(bytes.len())?;
        if let Some(space) = self.out.get_mut(at) {
            space.copy_from_slice(bytes);
        }
        Ok(())
    }

    /// The header and every record, once all are sealed: the one-shot
    /// [`encrypt`]'s body.
    fn into_body(mut self) -> Vec<u8> {
        self.out.truncate(self.end);
        self.out.take()
    }

    /// The padding of the record being filled.
    fn record_padding(&self) -> usize {
        let most = self.record_size - RECORD_OVERHEAD;
        usize::try_from(self.padding).map_or(most, |p| min(p, most))
    }

    /// How many more data bytes the record being filled can take.
    fn room(&self) -> usize {
        let capacity = self.record_size - RECORD_OVERHEAD - self.record_padding();
        capacity.saturating_sub(self.end - self.start)
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
        if self.end == self.start && self.padding == 0 && data.len() > room {
            // A whole record's data, and more after it: a middle record,
            // sealed from `data` where it lies.
            self.seal_middle_from(&data[..room])?;
            return Ok(room);
        }
        let taken = min(room, data.len());
        self.append(&data[..taken])?;
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
        let nonce = self.key.next_nonce()?;
        self.append(&[if last { LAST_DELIMITER } else { DELIMITER }])?;
        let padding_at = self.extend(padding)?;
        self.out.get_mut(padding_at).unwrap_or_default().fill(0);
        let record = self.out.get_mut(self.start..self.end).unwrap_or_default();
        let tag = self
            .key
            .aead
            .encrypt_in_place_detached(&nonce, b"", record)?;
        self.append(&tag)?;
        self.padding -= padding as u64;
        self.start = self.end;
        Ok(())
    }

    /// Seals `data` as a middle record without padding straight from the
    /// caller's bytes: no copy of it next to the delimiter
    /// (`Aes128Gcm::seal_with_trailing_byte`). The record being filled
    /// must be empty.
    fn seal_middle_from(&mut self, data: &[u8]) -> Result<(), Error> {
        let nonce = self.key.next_nonce()?;
        let record_at = self.extend(data.len() + 1)?;
        let record = self.out.get_mut(record_at).unwrap_or_default();
        let tag = self
            .key
            .aead
            .seal_with_trailing_byte(&nonce, data, DELIMITER, record)?;
        self.append(&tag)?;
        self.start = self.end;
        Ok(())
    }

    /// The sealed bytes (header and records) not handed on yet.
    fn sealed(&self) -> &[u8] {
        self.out.get(..self.start).unwrap_or_default()
    }

    /// Forgets the first `n` sealed bytes, handed on.
    fn consume(&mut self, n: usize) {
        let n = min(n, self.start);
        self.out.copy_within(n..self.end, 0);
        self.start -= n;
        self.end -= n;
    }
}

/// A byte vector that wipes its whole capacity when it drops (bytes drained
/// or truncated away may have held plaintext), with [`wipe_memory`]'s
/// word stores: `Zeroizing<Vec<u8>>` stores a byte at a time, a tenth of
/// an [`Encoder`]'s time over 1 MiB at 64 KiB records on Zen 1.
#[derive(Default)]
struct WipedVec(Vec<u8>);

impl WipedVec {
    fn with_capacity(capacity: usize) -> Self {
        WipedVec(Vec::with_capacity(capacity))
    }

    /// Wipes the whole capacity and leaves the vector empty.
    fn wipe(&mut self) {
        self.0.clear();
        wipe_memory(self.0.spare_capacity_mut());
    }

    /// The vector, emptied out of `self` without a wipe: the caller's now.
    fn take(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.0)
    }
}

impl core::ops::Deref for WipedVec {
    type Target = Vec<u8>;
    fn deref(&self) -> &Vec<u8> {
        &self.0
    }
}

impl core::ops::DerefMut for WipedVec {
    fn deref_mut(&mut self) -> &mut Vec<u8> {
        &mut self.0
    }
}

impl Drop for WipedVec {
    fn drop(&mut self) {
        self.wipe();
    }
}

/// Makes room for `additional` more bytes in `buffer` without leaving its
/// old contents in freed memory: a larger allocation is filled by copy and
/// the old one wiped.
fn reserve_wiping(buffer: &mut WipedVec, additional: usize) -> Result<(), Error> {
    if buffer.capacity() - buffer.len() >= additional {
        return Ok(());
    }
    let needed = buffer
        .len()
        .checked_add(additional)
        .ok_or(Error::InputTooLong)?;
    let mut larger = WipedVec::with_capacity(needed.max(buffer.capacity().saturating_mul(2)));
    larger.extend_from_slice(buffer);
    // The old allocation is wiped as it drops.
    core::mem::swap(buffer, &mut larger);
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
            wipe_bytes(plaintext);
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

#[cfg(test)]
mod tests {
    use super::{Error, WipedVec, reserve_wiping, unpad};

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

    /// The bytes of a vector's whole capacity, after a wipe.
    fn capacity_bytes(v: &mut WipedVec) -> Vec<u8> {
        v.wipe();
        // SAFETY: `wipe` wrote zeros over the whole capacity.
        v.spare_capacity_mut()
            .iter()
            .map(|b| unsafe { b.assume_init() })
            .collect()
    }

    #[test]
    fn wiped_vec_wipes_its_whole_capacity() {
        // Odd lengths, so both the word stores and the byte stores run.
        for len in [0, 1, 15, 16, 17, 1000, 65_553] {
            let mut v = WipedVec::with_capacity(len + 7);
            v.extend(core::iter::repeat_n(0xa5, len + 7));
            // Bytes drained or truncated away stay in the allocation.
            v.drain(..len / 2);
            v.truncate(len / 3);
            let capacity = v.capacity();
            let bytes = capacity_bytes(&mut v);
            assert!(v.is_empty());
            assert_eq!(bytes.len(), capacity, "len {len}");
            assert!(bytes.iter().all(|&b| b == 0), "len {len}: a byte survived");
        }
    }

    #[test]
    fn reserve_wiping_keeps_the_bytes_and_grows() {
        let mut v = WipedVec::with_capacity(4);
        v.extend_from_slice(b"abcd");
        reserve_wiping(&mut v, 100).unwrap();
        assert_eq!(&v[..], b"abcd");
        assert!(v.capacity() >= 104);
        assert_eq!(reserve_wiping(&mut v, usize::MAX), Err(Error::InputTooLong));
    }
}
