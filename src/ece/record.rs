//! RFC 8188's record layer: the key and nonce of a body (HKDF-SHA-256), the
//! sealing of records into a buffer ([`Sealer`]) and their opening
//! ([`Opener`]), and the buffer that wipes what it held ([`WipedVec`]). The
//! one-shot functions of [`ece`](super) and its `io` types are built on these.

use alloc::vec::Vec;
use core::cmp::min;
use core::ops::Range;

use hkdf::Hkdf;
use sha2::Sha256;
use zeroize::{Zeroize, Zeroizing};

use super::{HEADER_LEN, Header, MIN_RECORD_SIZE, RECORD_OVERHEAD, SALT_LEN};
use crate::aead::{Nonce, TAG_LEN};
use crate::aes_gcm::Aes128Gcm;
use crate::block::{wipe_bytes, wipe_memory};
use crate::error::Error;

/// §2.2: "cek_info = "Content-Encoding: aes128gcm" || 0x00".
const CEK_INFO: &[u8] = b"Content-Encoding: aes128gcm\0";

/// §2.3: "nonce_info = "Content-Encoding: nonce" || 0x00".
const NONCE_INFO: &[u8] = b"Content-Encoding: nonce\0";

/// The delimiter of every record but the last (§2).
const DELIMITER: u8 = 1;

/// The delimiter of the last record (§2).
const LAST_DELIMITER: u8 = 2;

/// The AES-128-GCM key of one body and its record counter.
pub(super) struct RecordKey {
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

/// Encryption, record by record: the one code behind [`encrypt`](super::encrypt) and
/// [`Writer`](super::Writer).
///
/// `out` holds the header and the sealed records not yet handed on
/// (`out[..start]`), then the data of the record being filled
/// (`out[start..end]`). Past `end`, up to `out.len()`, are bytes the buffer
/// held before (records handed on, or where data was before it moved down):
/// the vector keeps its length, so a record sealed into that space is not
/// zero-filled again (a memset of every record showed in profiles of the
/// [`Writer`](super::Writer): docs/measurements/2026-11-23-zen4/tables.md,
/// "Streaming on Zen 4 (`stream`, `ece`)"); whatever writes there
/// overwrites every byte.
/// Padding is placed greedily: each record takes as much of what is left as
/// it can hold (up to `rs − 17` bytes), so the first records carry it.
pub(super) struct Sealer {
    key: RecordKey,
    /// The record size `rs`, at least 18.
    pub(super) record_size: usize,
    /// Padding not yet placed in a sealed record.
    padding: u64,
    out: WipedVec,
    start: usize,
    end: usize,
}

impl Sealer {
    /// Checks the parameters, derives the key and writes the header into
    /// `out`, reserving `capacity` bytes (at least the header's).
    pub(super) fn new(
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
        // Allocated, not filled: `extend` zero-fills each record's space
        // just before it is written (while it is in cache), and only the
        // first time the buffer reaches that far.
        let mut out = WipedVec::with_capacity(capacity.max(HEADER_LEN + keyid.len()));
        // Only `push` copies plaintext in; it raises this.
        out.secret_below(0);
        out.extend_from_slice(salt)?;
        out.extend_from_slice(&record_size.to_be_bytes())?;
        out.extend_from_slice(&[idlen])?;
        out.extend_from_slice(keyid)?;
        let header_len = out.len();
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
    /// be overwritten in full: they hold zeros or bytes the buffer held
    /// before.
    fn extend(&mut self, n: usize) -> Result<Range<usize>, Error> {
        let old_end = self.end;
        let new_end = old_end.checked_add(n).ok_or(Error::InputTooLong)?;
        if new_end > self.out.len() {
            self.out.resize(new_end)?;
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
    /// [`encrypt`](super::encrypt)'s body.
    pub(super) fn into_body(mut self) -> Vec<u8> {
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
    pub(super) fn push(&mut self, data: &[u8]) -> Result<usize, Error> {
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
        // Plaintext now reaches `end`; `consume` only moves bytes down.
        self.out.secret_below(self.end);
        Ok(taken)
    }

    /// Seals one record at the end of the body and returns whether it was
    /// the last: a full record is a middle one while padding remains to be
    /// placed, otherwise the record being filled is the last.
    pub(super) fn finish_step(&mut self) -> Result<bool, Error> {
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
        let tag = self.key.aead.seal_in_place_detached(&nonce, b"", record)?;
        self.append(&tag)?;
        self.padding -= padding as u64;
        self.start = self.end;
        Ok(())
    }

    /// Seals `data` as a middle record without padding straight from the
    /// caller's bytes: no copy of it next to the delimiter
    /// ([`Aes128Gcm::seal_with_trailing_byte_to`](crate::aes_gcm::Aes128Gcm::seal_with_trailing_byte_to)).
    /// The record being filled must be empty.
    fn seal_middle_from(&mut self, data: &[u8]) -> Result<(), Error> {
        let nonce = self.key.next_nonce()?;
        let record_len = data
            .len()
            .checked_add(1 + TAG_LEN)
            .ok_or(Error::InputTooLong)?;
        let record_at = self.extend(record_len)?;
        let record = self.out.get_mut(record_at).unwrap_or_default();
        self.key
            .aead
            .seal_with_trailing_byte_to(&nonce, b"", data, DELIMITER, record)?;
        self.start = self.end;
        Ok(())
    }

    /// The sealed bytes (header and records) not handed on yet.
    pub(super) fn sealed(&self) -> &[u8] {
        self.out.get(..self.start).unwrap_or_default()
    }

    /// Forgets the first `n` sealed bytes, handed on.
    pub(super) fn consume(&mut self, n: usize) {
        let n = min(n, self.start);
        self.out.copy_within(n..self.end, 0);
        self.start -= n;
        self.end -= n;
    }
}

/// A byte vector that wipes what may have held plaintext when it drops:
/// its whole capacity (bytes drained or truncated away stay in the
/// allocation), or, for a user that says where plaintext can be
/// ([`secret_below`](Self::secret_below)), only the start of it. The stores
/// are [`wipe_memory`]'s words: `Zeroizing<Vec<u8>>` stores a byte at a
/// time, which showed in profiles of a [`Writer`](super::Writer) at
/// 64 KiB records (docs/measurements/2026-11-24-zen1/tables.md, "Streaming
/// on Zen 1").
pub(super) struct WipedVec {
    bytes: Vec<u8>,
    /// Only the first `secret` bytes of the allocation may ever have held
    /// plaintext (`usize::MAX`: any of them).
    secret: usize,
}

impl Default for WipedVec {
    fn default() -> Self {
        WipedVec::from(Vec::new())
    }
}

impl From<Vec<u8>> for WipedVec {
    /// Takes `bytes`; any byte of its allocation is wiped on drop.
    fn from(bytes: Vec<u8>) -> Self {
        WipedVec {
            bytes,
            secret: usize::MAX,
        }
    }
}

impl WipedVec {
    fn with_capacity(capacity: usize) -> Self {
        WipedVec::from(Vec::with_capacity(capacity))
    }

    /// Declares that plaintext has been, and will be, only in the first
    /// `end` bytes (never lowered: the caller raises it as plaintext moves
    /// further in). Until then it is any byte.
    fn secret_below(&mut self, end: usize) {
        self.secret = if self.secret == usize::MAX {
            end
        } else {
            self.secret.max(end)
        };
    }

    /// The bytes the allocation holds room for.
    fn capacity(&self) -> usize {
        self.bytes.capacity()
    }

    /// Appends `data`, growing the allocation by [`reserve_wiping`]: the
    /// old one is wiped, never freed as it is.
    fn extend_from_slice(&mut self, data: &[u8]) -> Result<(), Error> {
        reserve_wiping(self, data.len())?;
        self.bytes.extend_from_slice(data);
        Ok(())
    }

    /// Sets the length to `len`, zero-filling any new bytes; grows the
    /// allocation by [`reserve_wiping`].
    pub(super) fn resize(&mut self, len: usize) -> Result<(), Error> {
        if let Some(more) = len.checked_sub(self.bytes.len()) {
            reserve_wiping(self, more)?;
        }
        self.bytes.resize(len, 0);
        Ok(())
    }

    /// Shortens the vector to `len` bytes (the bytes past it stay in the
    /// allocation, to be wiped with it).
    pub(super) fn truncate(&mut self, len: usize) {
        self.bytes.truncate(len);
    }

    /// Wipes the bytes that may have held plaintext and leaves the vector
    /// empty.
    pub(super) fn wipe(&mut self) {
        self.bytes.clear();
        let spare = self.bytes.spare_capacity_mut();
        let n = min(self.secret, spare.len());
        wipe_memory(spare.get_mut(..n).unwrap_or_default());
    }

    /// The vector, emptied out of `self` without a wipe: the caller's now.
    pub(super) fn take(&mut self) -> Vec<u8> {
        core::mem::take(&mut self.bytes)
    }
}

/// The bytes, as a slice: nothing through it can reallocate (and free
/// unwiped memory), unlike the `Vec` itself, which stays private.
impl core::ops::Deref for WipedVec {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

impl core::ops::DerefMut for WipedVec {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.bytes
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
    // `try_reserve_exact`: a size past what can be allocated, or an
    // allocation that fails, is an error, not a panic or an abort.
    let mut larger = WipedVec::default();
    larger
        .bytes
        .try_reserve_exact(needed.max(buffer.capacity().saturating_mul(2)))
        .or_else(|_| larger.bytes.try_reserve_exact(needed))
        .map_err(|_| Error::InputTooLong)?;
    larger.secret = buffer.secret;
    larger.bytes.extend_from_slice(buffer);
    // The old allocation is wiped as it drops.
    core::mem::swap(buffer, &mut larger);
    Ok(())
}

/// A record's ciphertext and tag, and where its plaintext goes.
pub(super) enum RecordBytes<'a> {
    /// Decrypt `from` into `to` (at least `from.len() − 16` bytes).
    Copy { from: &'a [u8], to: &'a mut [u8] },
    /// Decrypt in place: the plaintext lands at the start.
    InPlace(&'a mut [u8]),
}

/// Decryption, record by record: the one code behind [`decrypt`](super::decrypt) and
/// [`Reader`](super::Reader).
pub(super) struct Opener {
    key: RecordKey,
    /// The record size `rs` from the header, at least 18.
    pub(super) record_size: usize,
}

impl Opener {
    pub(super) fn new(ikm: &[u8], header: &Header) -> Result<Self, Error> {
        Ok(Opener {
            key: RecordKey::derive(ikm, &header.salt)?,
            record_size: usize::try_from(header.record_size).map_err(|_| Error::InputTooLong)?,
        })
    }

    /// Opens the next record; `more` says whether body bytes follow it.
    /// Returns the length of its data, which then starts the output. On any
    /// error the output holds no plaintext.
    pub(super) fn open(&mut self, record: RecordBytes<'_>, more: bool) -> Result<usize, Error> {
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
                self.key.aead.open_to(&nonce, b"", from, to)?;
                to
            }
            RecordBytes::InPlace(buffer) => {
                let (text, tag) = buffer.split_at_mut(text_len);
                let mut received = [0u8; TAG_LEN];
                received.copy_from_slice(tag);
                self.key
                    .aead
                    .open_in_place_detached(&nonce, b"", text, &received)?;
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
        (DELIMITER, true) => Err(Error::Truncated),
        (LAST_DELIMITER, false) => Err(Error::DataAfterLastRecord),
        _ => Err(Error::InvalidPadding),
    }
}

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod tests {
    use super::{Error, Sealer, WipedVec, reserve_wiping, unpad};

    #[test]
    fn unpad_rules() {
        assert_eq!(unpad(b"ab\x02", true), Ok(2));
        assert_eq!(unpad(b"ab\x01\0\0", false), Ok(2));
        assert_eq!(unpad(b"\x02\0", true), Ok(0));
        assert_eq!(unpad(b"ab\x01", true), Err(Error::Truncated));
        assert_eq!(unpad(b"ab\x02", false), Err(Error::DataAfterLastRecord));
        assert_eq!(unpad(b"ab\x03\0", true), Err(Error::InvalidPadding));
        assert_eq!(unpad(b"\0\0\0", true), Err(Error::MissingDelimiter));
        assert_eq!(unpad(b"", false), Err(Error::MissingDelimiter));
    }

    /// The bytes of a vector's whole capacity, after a wipe, read through
    /// the vector itself (its spare capacity, the whole allocation once
    /// `wipe` emptied it).
    fn capacity_bytes(v: &mut WipedVec) -> Vec<u8> {
        v.wipe();
        // SAFETY: every byte of the allocation was written before (the
        // callers fill it whole), and `wipe` wrote zeros over what it covers.
        v.bytes
            .spare_capacity_mut()
            .iter()
            .map(|b| unsafe { b.assume_init() })
            .collect()
    }

    #[test]
    fn wiped_vec_wipes_its_whole_capacity() {
        // Odd lengths, so both the word stores and the byte stores run.
        for len in [0, 1, 15, 16, 17, 1000, 65_553] {
            let mut v = WipedVec::with_capacity(len + 7);
            v.extend_from_slice(&vec![0xa5; len + 7]).unwrap();
            // Bytes drained or truncated away stay in the allocation.
            v.bytes.drain(..len / 2);
            v.truncate(len / 3);
            let capacity = v.capacity();
            let bytes = capacity_bytes(&mut v);
            assert!(v.is_empty());
            assert_eq!(bytes.len(), capacity, "len {len}");
            assert!(bytes.iter().all(|&b| b == 0), "len {len}: a byte survived");
        }
    }

    #[test]
    fn wiped_vec_grows_only_through_reserve_wiping() {
        // `resize` and `extend_from_slice` keep the bytes and the mark as
        // the allocation moves (the old one is wiped as it drops, which
        // no safe test can read back: the type now gives no way to grow
        // the vector other than these).
        let mut v = WipedVec::with_capacity(8);
        v.extend_from_slice(b"abcd").unwrap();
        v.secret_below(3);
        let first = v.bytes.as_ptr();
        v.resize(5000).unwrap();
        assert_ne!(v.bytes.as_ptr(), first, "the allocation moved");
        assert_eq!(&v[..4], b"abcd");
        assert!(v[4..].iter().all(|&b| b == 0));
        assert_eq!(v.secret, 3);
        v.truncate(2);
        v.extend_from_slice(&[7; 10_000]).unwrap();
        assert_eq!(v.len(), 10_002);
        assert_eq!(&v[..2], b"ab");
        assert_eq!(v.secret, 3);
        assert_eq!(v.resize(usize::MAX), Err(Error::InputTooLong));
    }

    #[test]
    fn reserve_wiping_keeps_the_bytes_and_grows() {
        let mut v = WipedVec::with_capacity(4);
        v.extend_from_slice(b"abcd").unwrap();
        reserve_wiping(&mut v, 100).unwrap();
        assert_eq!(&v[..], b"abcd");
        assert!(v.capacity() >= 104);
        assert_eq!(reserve_wiping(&mut v, usize::MAX), Err(Error::InputTooLong));
    }

    /// The sealer's mark covers every byte that held plaintext: after
    /// writes of many sizes, records of many sizes with padding, and a
    /// writer that takes half of what is sealed each time (so the record
    /// being filled moves down), no eight bytes of the plaintext are found
    /// at or past the mark. The wipe on drop covers exactly that much.
    #[test]
    fn sealer_plaintext_stays_below_its_wipe_mark() {
        const PATTERN: &[u8] = b"plaintext!plaintext!";
        let data: Vec<u8> = PATTERN[..10].iter().cycle().take(3000).copied().collect();
        let is_plaintext = |w: &[u8]| PATTERN.windows(8).any(|p| p == w);
        for rs in [18u32, 64, 100, 4096] {
            for padding in [0u64, 40] {
                for step in [1usize, 7, 83, 1000, 3000] {
                    let mut sealer =
                        Sealer::new(&[1; 16], &[2; 16], b"id", rs, padding, 0).unwrap();
                    let mut rest = &data[..];
                    let mut plaintext_seen = false;
                    while !rest.is_empty() {
                        let taken = sealer.push(&rest[..step.min(rest.len())]).unwrap();
                        rest = &rest[taken..];
                        plaintext_seen |= sealer.out.windows(8).any(is_plaintext);
                        let half = sealer.sealed().len().div_ceil(2);
                        sealer.consume(half);
                    }
                    while !sealer.finish_step().unwrap() {}
                    let at = format!("rs {rs} padding {padding} step {step}");
                    let mark = sealer.out.secret;
                    assert!(mark <= sealer.out.len(), "{at}");
                    assert!(
                        !sealer.out[mark..].windows(8).any(is_plaintext),
                        "{at}: plaintext past the mark {mark}"
                    );
                    // The test would notice: plaintext did pass through the buffer
                    // whenever a record was filled by copying.
                    if step < rs as usize - 17 {
                        assert!(plaintext_seen, "{at}");
                    }
                }
            }
        }
    }

    #[test]
    fn wiped_vec_wipes_up_to_its_mark() {
        let mut v = WipedVec::with_capacity(100);
        v.extend_from_slice(&[0xa5; 100]).unwrap();
        v.secret_below(10);
        v.secret_below(30);
        v.secret_below(20); // never lowered
        let bytes = capacity_bytes(&mut v);
        assert_eq!(bytes.len(), 100);
        assert!(bytes[..30].iter().all(|&b| b == 0));
        assert!(bytes[30..].iter().all(|&b| b == 0xa5));
    }
}
