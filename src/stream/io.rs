//! [`Writer`], [`Reader`] and [`DecryptingWriter`]: STREAM over `std::io`,
//! in fixed-size segments behind a short header. This file holds what they
//! share: the header and the buffer that is wiped where it held plaintext.
//!
//! The byte format (also in `docs/streaming.md`), for a key with an `n`-byte
//! nonce and a segment size `S` (1 ..= [`MAX_SEGMENT_SIZE`]):
//!
//! ```text
//! header   = prefix (n − 5 bytes) ‖ S as u32 big-endian
//! segments = seg_0 ‖ seg_1 ‖ … ‖ seg_last
//! seg_i    = STREAM segment i, sealed with AAD = header:
//!            every segment but the last holds exactly S plaintext bytes,
//!            the last holds 1 ..= S (0 only in an empty stream)
//! ```
//!
//! A reader finds the end without a length field: after the header it reads
//! `S + T` bytes (T the tag length: 16, 32 for AEGIS with 32-byte tags, 48
//! for KC-XAES-256-GCM) and one
//! more; if that one more exists, the `S + T` are a
//! segment that is not the last, else whatever it read is the last segment.
//! A cut, an appended byte, a dropped, repeated or reordered segment, or a
//! segment taken from another stream all end in a segment opened with the
//! wrong position, flag, prefix or AAD: its tag fails. The header is the AAD
//! of every segment, so a changed segment size fails too.

use alloc::boxed::Box;
use alloc::vec;
use std::io;

use super::{DEFAULT_SEGMENT_SIZE, MAX_NONCE_LEN, MAX_SEGMENT_SIZE, NONCE_OVERHEAD};
use crate::aead::AeadKey;
use crate::block::wipe_bytes;
use crate::error::Error;

mod reader;
mod writer;

pub use reader::{DecryptingWriter, Reader};
pub use writer::Writer;

/// The longest header: the longest prefix (AEGIS-256's 27 bytes) and the
/// segment size.
const MAX_HEADER_LEN: usize = MAX_NONCE_LEN - NONCE_OVERHEAD + 4;

/// The stream header, `prefix ‖ segment size`: written first, and the AAD of
/// every segment.
#[derive(Clone, Copy)]
struct Header {
    bytes: [u8; MAX_HEADER_LEN],
    len: usize,
}

impl Header {
    /// The header length for key type `A`.
    fn len_for<A: AeadKey>() -> usize {
        A::NONCE_LEN - NONCE_OVERHEAD + 4
    }

    fn new(prefix: &[u8], segment_size: usize) -> Result<Self, Error> {
        let size = checked_segment_size(segment_size)?;
        let len = prefix.len() + 4;
        let mut bytes = [0u8; MAX_HEADER_LEN];
        bytes[..prefix.len()].copy_from_slice(prefix);
        bytes[prefix.len()..len].copy_from_slice(&size.to_be_bytes());
        Ok(Self { bytes, len })
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    fn prefix(&self) -> &[u8] {
        &self.bytes[..self.len - 4]
    }

    fn segment_size(&self) -> usize {
        let mut size = [0u8; 4];
        size.copy_from_slice(&self.bytes[self.len - 4..self.len]);
        u32::from_be_bytes(size) as usize
    }
}

/// `segment_size` as the header's `u32`, if it is in 1 ..= `MAX_SEGMENT_SIZE`.
fn checked_segment_size(segment_size: usize) -> Result<u32, Error> {
    match u32::try_from(segment_size) {
        Ok(size) if (1..=MAX_SEGMENT_SIZE).contains(&segment_size) => Ok(size),
        _ => Err(Error::InvalidSegmentSize),
    }
}

/// The first buffer a [`Writer`], [`Reader`]
/// or [`DecryptingWriter`] allocates (or the
/// segment's size, if smaller): a small stream fits in it whole, and zeroing
/// it costs little next to the crypto. (Zeroing a whole 64 KiB segment's
/// buffer would be most of a 16-byte stream's time: docs/benchmarks.md,
/// "Streaming on Zen 4 (`stream`, `ece`)"; before and after:
/// docs/measurements/2026-11-23-zen4/tables.md.)
const FIRST_BUFFER: usize = 4096;

/// The length a buffer of `len` bytes that must reach `want` grows to next:
/// [`FIRST_BUFFER`], then a default segment with room to spare at once,
/// then doubling. A reader grows as bytes arrive, so a header claiming large
/// segments costs memory only when the data is there.
fn grown_len(len: usize, want: usize) -> usize {
    let next = if len < FIRST_BUFFER {
        FIRST_BUFFER
    } else {
        len.saturating_mul(2).max(DEFAULT_SEGMENT_SIZE + 1024)
    };
    next.min(want)
}

/// A heap buffer that may hold plaintext between calls: its first `secret`
/// bytes are overwritten with zeros when it is dropped or grown.
struct SecretBuf {
    bytes: Box<[u8]>,
    /// How far plaintext was ever written (the rest only held ciphertext).
    secret: usize,
}

impl SecretBuf {
    fn new(len: usize) -> Self {
        Self {
            bytes: vec![0u8; len].into_boxed_slice(),
            secret: 0,
        }
    }

    /// Records that `buf[..len]` holds plaintext.
    fn holds_plaintext(&mut self, len: usize) {
        self.secret = self.secret.max(len);
    }

    /// Records that all the plaintext it held was sealed in place (only
    /// ciphertext is left).
    fn sealed_in_place(&mut self) {
        self.secret = 0;
    }

    /// Grows to `len` bytes, keeping the first `keep`.
    fn grow(&mut self, len: usize, keep: usize) {
        let mut bigger = Self::new(len);
        bigger.bytes[..keep].copy_from_slice(&self.bytes[..keep]);
        bigger.secret = self.secret.min(keep);
        core::mem::swap(self, &mut bigger);
        // `bigger` now holds the old bytes and wipes them as it drops.
    }
}

impl Drop for SecretBuf {
    /// Wipes the plaintext area ([`wipe_bytes`]: volatile word stores).
    fn drop(&mut self) {
        wipe_bytes(&mut self.bytes[..self.secret]);
    }
}

/// The error of a writer or reader used after it failed.
fn poisoned() -> io::Error {
    io::Error::other("hardware_aead::stream: used after an earlier error")
}
