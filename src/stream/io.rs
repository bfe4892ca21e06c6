//! [`Writer`] and [`Reader`]: STREAM over `std::io`, in fixed-size segments
//! behind a short header.
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
//! `S + 16` bytes and one more; if that one more exists, the `S + 16` are a
//! segment that is not the last, else whatever it read is the last segment.
//! A cut, an appended byte, a dropped, repeated or reordered segment, or a
//! segment taken from another stream all end in a segment opened with the
//! wrong position, flag, prefix or AAD: its tag fails. The header is the AAD
//! of every segment, so a changed segment size fails too.

use core::ops::Deref;
use std::io::{self, Read, Write};

use zeroize::Zeroize;

use super::DEFAULT_SEGMENT_SIZE;
use super::{Decryptor, Encryptor, MAX_NONCE_LEN, MAX_SEGMENT_SIZE, NONCE_OVERHEAD};
use crate::aead::{Aead, TAG_LEN, Tag};
use crate::error::Error;

/// The longest header: a 19-byte prefix and the segment size.
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
    fn len_for<A: Aead>() -> usize {
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
    /// Volatile 16-byte stores over the plaintext area (`Zeroize` on a byte
    /// slice stores one byte at a time: 64 Ki stores for a 64 KiB segment).
    fn drop(&mut self) {
        let (blocks, rest) = self.bytes[..self.secret].as_chunks_mut::<16>();
        for block in blocks {
            // SAFETY: `block` is a valid, exclusive reference to 16 bytes.
            unsafe { core::ptr::write_volatile(block, [0u8; 16]) };
        }
        rest.zeroize();
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

/// Encrypts everything written to it into a STREAM on `W`.
///
/// The header is written by the constructor; each segment as soon as it is
/// full and more plaintext follows; the last one by [`finish`](Writer::finish),
/// which must be called: a writer dropped without it leaves a stream that
/// [`Reader`] rejects (its last segment is missing). Plaintext it holds is
/// wiped when it is dropped.
///
/// `flush` flushes `W` but cannot end a segment early: up to one segment of
/// plaintext stays held until more arrives or `finish` is called.
///
/// After an error (of `W` or of the crate) the writer is poisoned: every
/// later call fails, since the stream on `W` is no longer whole.
///
/// ```
/// use std::io::{Read, Write};
/// use hardware_aead::{Aead, xaes_gcm::Xaes256Gcm, stream::{Reader, Writer}};
///
/// # fn main() -> std::io::Result<()> {
/// let key = Xaes256Gcm::new(&[0x24; 32])?;
///
/// let mut writer = Writer::new(&key, Vec::new())?; // random prefix, 64 KiB segments
/// writer.write_all(b"a stream of any length")?;
/// let sealed = writer.finish()?;
///
/// let mut plaintext = Vec::new();
/// Reader::new(&key, &sealed[..]).read_to_end(&mut plaintext)?;
/// assert_eq!(plaintext, b"a stream of any length");
/// # Ok(()) }
/// ```
pub struct Writer<W: Write, K: Deref<Target: Aead>> {
    inner: W,
    encryptor: Option<Encryptor<K>>,
    header: Header,
    /// One segment: plaintext held (`held` bytes), then sealed in place with
    /// room for its tag.
    buf: SecretBuf,
    held: usize,
}

impl<W: Write, K: Deref<Target: Aead<Nonce = [u8; 24]>>> Writer<W, K> {
    /// Starts a stream on `inner` under an XAES-256-GCM key, with a random
    /// 19-byte prefix and [`DEFAULT_SEGMENT_SIZE`] segments, and writes its
    /// header. One key can encrypt any number of streams this way: each
    /// prefix selects its own derived AES-256 key.
    ///
    /// ```
    /// use hardware_aead::{Aead, xaes_gcm::Xaes256Gcm, stream::Writer};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let sealed = Writer::new(&key, Vec::new())?.finish()?;
    /// assert_eq!(sealed.len(), 19 + 4 + 16); // header and an empty last segment
    /// # Ok(()) }
    /// ```
    pub fn new(key: K, inner: W) -> io::Result<Self> {
        Self::with_segment_size(key, DEFAULT_SEGMENT_SIZE, inner)
    }

    /// [`new`](Writer::new) with `segment_size` plaintext bytes per segment
    /// (1 ..= [`MAX_SEGMENT_SIZE`], else [`Error::InvalidSegmentSize`]).
    ///
    /// ```
    /// use std::io::Write;
    /// use hardware_aead::{Aead, xaes_gcm::Xaes256Gcm, stream::Writer};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let mut writer = Writer::with_segment_size(&key, 1024, Vec::new())?;
    /// writer.write_all(&[0u8; 2048])?;
    /// let sealed = writer.finish()?;
    /// assert_eq!(sealed.len(), 23 + 2 * (1024 + 16));
    /// # Ok(()) }
    /// ```
    pub fn with_segment_size(key: K, segment_size: usize, inner: W) -> io::Result<Self> {
        let mut prefix = [0u8; 19];
        crate::random::fill(&mut prefix).map_err(io::Error::from)?;
        Self::with_prefix(key, &prefix, segment_size, inner)
    }
}

impl<W: Write, K: Deref<Target: Aead>> Writer<W, K> {
    /// Starts a stream on `inner` with a prefix the caller chose, for any key
    /// type, and writes its header. The prefix (`NONCE_LEN − 5` bytes) must
    /// never be used for another stream under the same key; for keys with
    /// 96-bit nonces a random prefix is too short to be unique (prefer
    /// [`new`](Writer::new) with an XAES-256-GCM key).
    ///
    /// ```
    /// use std::io::{Read, Write};
    /// use hardware_aead::{Aead, aes_gcm::Aes256Gcm, stream::{Reader, Writer}};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Aes256Gcm::new(&[1; 32])?;
    /// let file_number: u64 = 17; // unique per stream under this key
    /// let prefix = &file_number.to_be_bytes()[1..];
    /// let mut writer = Writer::with_prefix(&key, prefix, 4096, Vec::new())?;
    /// writer.write_all(b"contents")?;
    /// let sealed = writer.finish()?;
    /// let mut back = String::new();
    /// Reader::new(&key, &sealed[..]).read_to_string(&mut back)?;
    /// assert_eq!(back, "contents");
    /// # Ok(()) }
    /// ```
    pub fn with_prefix(
        key: K,
        prefix: &[u8],
        segment_size: usize,
        mut inner: W,
    ) -> io::Result<Self> {
        let encryptor = Encryptor::new(key, prefix).map_err(io::Error::from)?;
        let header = Header::new(prefix, segment_size).map_err(io::Error::from)?;
        inner.write_all(header.as_bytes())?;
        Ok(Self {
            inner,
            encryptor: Some(encryptor),
            header,
            buf: SecretBuf::new(segment_size + TAG_LEN),
            held: 0,
        })
    }

    /// Seals the plaintext still held as the last segment, writes it, flushes
    /// `W` and returns it.
    ///
    /// ```
    /// use std::io::Write;
    /// use hardware_aead::{Aead, xaes_gcm::Xaes256Gcm, stream::Writer};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let mut writer = Writer::new(&key, Vec::new())?;
    /// writer.write_all(b"12345")?;
    /// assert_eq!(writer.finish()?.len(), 23 + 5 + 16);
    /// # Ok(()) }
    /// ```
    pub fn finish(mut self) -> io::Result<W> {
        let encryptor = self.encryptor.take().ok_or_else(poisoned)?;
        let (text, rest) = self.buf.bytes.split_at_mut(self.held);
        let tag = encryptor
            .encrypt_last_in_place(self.header.as_bytes(), text)
            .map_err(io::Error::from)?;
        rest[..TAG_LEN].copy_from_slice(&tag);
        self.buf.sealed_in_place();
        self.inner
            .write_all(&self.buf.bytes[..self.held + TAG_LEN])?;
        self.inner.flush()?;
        Ok(self.inner)
    }

    /// The writer it writes to.
    ///
    /// ```
    /// use hardware_aead::{Aead, xaes_gcm::Xaes256Gcm, stream::Writer};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let writer = Writer::new(&key, Vec::new())?;
    /// assert_eq!(writer.get_ref().len(), 23); // the header so far
    /// # Ok(()) }
    /// ```
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// Seals `self.buf[..held]` as a segment that is not the last and writes it.
    fn write_held(&mut self) -> io::Result<()> {
        let encryptor = self.encryptor.as_mut().ok_or_else(poisoned)?;
        let (text, rest) = self.buf.bytes.split_at_mut(self.held);
        let tag: Tag = encryptor
            .encrypt_next_in_place(self.header.as_bytes(), text)
            .map_err(io::Error::from)?;
        rest[..TAG_LEN].copy_from_slice(&tag);
        self.buf.sealed_in_place();
        self.inner
            .write_all(&self.buf.bytes[..self.held + TAG_LEN])?;
        self.held = 0;
        Ok(())
    }

    /// Seals a whole segment straight from the caller's bytes (no copy into
    /// the buffer first) and writes it.
    fn write_direct(&mut self, segment: &[u8]) -> io::Result<()> {
        let encryptor = self.encryptor.as_mut().ok_or_else(poisoned)?;
        let len = encryptor
            .encrypt_next_to(self.header.as_bytes(), segment, &mut self.buf.bytes)
            .map_err(io::Error::from)?;
        self.inner.write_all(&self.buf.bytes[..len])
    }

    fn write_segments(&mut self, data: &[u8]) -> io::Result<()> {
        let segment_size = self.header.segment_size();
        let mut rest = data;
        while !rest.is_empty() {
            // A full segment is sealed only once more plaintext follows it:
            // the last segment must carry the last flag.
            if self.held == segment_size {
                self.write_held()?;
            }
            if self.held == 0 && rest.len() > segment_size {
                let (segment, tail) = rest.split_at(segment_size);
                self.write_direct(segment)?;
                rest = tail;
                continue;
            }
            let take = rest.len().min(segment_size - self.held);
            self.buf.bytes[self.held..self.held + take].copy_from_slice(&rest[..take]);
            self.held += take;
            self.buf.holds_plaintext(self.held);
            rest = &rest[take..];
        }
        Ok(())
    }
}

/// The error of a writer or reader used after it failed.
fn poisoned() -> io::Error {
    io::Error::other("hardware_aead::stream: used after an earlier error")
}

impl<W: Write, K: Deref<Target: Aead>> Write for Writer<W, K> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.encryptor.is_none() {
            return Err(poisoned());
        }
        // The common small write: it fits beside what is held, and nothing
        // is sealed until more plaintext follows a full segment.
        let room = self.buf.bytes.len() - TAG_LEN - self.held;
        if data.len() <= room {
            self.buf.bytes[self.held..self.held + data.len()].copy_from_slice(data);
            self.held += data.len();
            self.buf.holds_plaintext(self.held);
            return Ok(data.len());
        }
        match self.write_segments(data) {
            Ok(()) => Ok(data.len()),
            Err(error) => {
                self.encryptor = None;
                Err(error)
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write, K: Deref<Target: Aead>> core::fmt::Debug for Writer<W, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Writer")
            .field("segment_size", &self.header.segment_size())
            .field("held", &self.held)
            .field("poisoned", &self.encryptor.is_none())
            .finish_non_exhaustive()
    }
}

/// Where a [`Reader`] is in its stream.
enum State<K> {
    /// Reading the header (`read` bytes of it so far); the key waits for the
    /// prefix.
    Header { key: K, read: usize },
    /// Opening segments.
    Segments(Decryptor<K>),
    /// The last segment verified; its plaintext may still be buffered.
    Done,
    /// A segment or the header failed: every later call returns this error.
    Failed(Error),
}

/// What [`Reader`] and [`DecryptingWriter`] share: the header as it
/// arrives, then the decryptor that opens segments in place.
struct Opening<K> {
    state: State<K>,
    header: Header,
}

impl<K: Deref<Target: Aead>> Opening<K> {
    fn new(key: K) -> Self {
        Self {
            state: State::Header { key, read: 0 },
            header: Header {
                bytes: [0; MAX_HEADER_LEN],
                len: Header::len_for::<K::Target>(),
            },
        }
    }

    /// The header bytes still to come (empty once it is complete).
    fn header_missing(&mut self) -> &mut [u8] {
        match self.state {
            State::Header { read, .. } => &mut self.header.bytes[read..self.header.len],
            _ => &mut [],
        }
    }

    /// Records that `n` more header bytes arrived; once the header is
    /// complete, checks its segment size and starts the decryptor.
    fn header_received(&mut self, n: usize) -> Result<(), Error> {
        let State::Header { read, .. } = &mut self.state else {
            return Ok(());
        };
        *read += n;
        if *read < self.header.len {
            return Ok(());
        }
        if checked_segment_size(self.header.segment_size()).is_err() {
            return Err(self.fail(Error::InvalidSegmentSize));
        }
        let State::Header { key, .. } = core::mem::replace(&mut self.state, State::Done) else {
            return Ok(()); // matched above
        };
        match Decryptor::new(key, self.header.prefix()) {
            Ok(decryptor) => {
                self.state = State::Segments(decryptor);
                Ok(())
            }
            Err(error) => Err(self.fail(error)),
        }
    }

    /// The sealed length of a full segment.
    fn sealed_len(&self) -> usize {
        self.header.segment_size() + TAG_LEN
    }

    /// Poisons the stream with `error` and returns it.
    fn fail(&mut self, error: Error) -> Error {
        self.state = State::Failed(error);
        error
    }

    /// Opens `sealed` (`ciphertext ‖ tag`) in place as the next segment, or
    /// the last; returns the plaintext length. On failure the plaintext area
    /// is all zero and the stream is poisoned.
    fn open(&mut self, sealed: &mut [u8], last: bool) -> Result<usize, Error> {
        let Some(text_len) = sealed.len().checked_sub(TAG_LEN) else {
            return Err(self.fail(Error::CiphertextTooShort));
        };
        let State::Segments(mut decryptor) = core::mem::replace(&mut self.state, State::Done)
        else {
            return Ok(0); // only called in `State::Segments`
        };
        let (text, tag_bytes) = sealed.split_at_mut(text_len);
        let mut tag: Tag = [0; TAG_LEN];
        tag.copy_from_slice(tag_bytes);
        let aad = self.header.as_bytes();
        let opened = if last {
            decryptor.decrypt_last_in_place(aad, text, &tag)
        } else {
            decryptor
                .decrypt_next_in_place(aad, text, &tag)
                .inspect(|()| self.state = State::Segments(decryptor))
        };
        match opened {
            Ok(()) => Ok(text_len),
            Err(error) => Err(self.fail(error)),
        }
    }
}

/// Decrypts a STREAM read from `R` (as written by [`Writer`]).
///
/// Plaintext is released only after its segment's tag verified: a read
/// returns bytes of a verified segment or an error, never bytes of a
/// segment that has not been checked. A truncated, extended, reordered or
/// altered stream ends in an error, as `io::Error` of kind `InvalidData`
/// (or `UnexpectedEof` inside the header) whose source is the crate's
/// [`Error`]. After such an error the reader is poisoned and returns it
/// again. Errors of `R` itself pass through unchanged and leave the reader
/// as it was, so a read that failed with `Interrupted` or `WouldBlock` can
/// be retried.
///
/// ```
/// use std::io::{Read, Write};
/// use hardware_aead::{Aead, Error, xaes_gcm::Xaes256Gcm, stream::{Reader, Writer}};
///
/// # fn main() -> std::io::Result<()> {
/// let key = Xaes256Gcm::new(&[0x24; 32])?;
/// let mut writer = Writer::with_segment_size(&key, 16, Vec::new())?;
/// writer.write_all(&[7u8; 100])?;
/// let mut sealed = writer.finish()?;
/// sealed.truncate(sealed.len() - 20); // cut the last segment off
///
/// let err = Reader::new(&key, &sealed[..]).read_to_end(&mut Vec::new()).unwrap_err();
/// assert_eq!(err.get_ref().and_then(|e| e.downcast_ref::<Error>()),
///            Some(&Error::Authentication));
/// # Ok(()) }
/// ```
pub struct Reader<R: Read, K: Deref<Target: Aead>> {
    inner: R,
    opening: Opening<K>,
    /// Ciphertext read ahead (`buf[consumed..filled]`) and, before
    /// `consumed`, the plaintext of the last verified segment
    /// (`buf[plain_start..plain_end]`).
    buf: SecretBuf,
    filled: usize,
    consumed: usize,
    plain_start: usize,
    plain_end: usize,
}

impl<R: Read, K: Deref<Target: Aead>> Reader<R, K> {
    /// A reader of the stream on `inner`, sealed under `key`. It reads the
    /// header on the first `read`.
    ///
    /// ```
    /// use std::io::{Read, Write};
    /// use hardware_aead::{Aead, xaes_gcm::Xaes256Gcm, stream::{Reader, Writer}};
    /// # fn main() -> std::io::Result<()> {
    /// let key = std::sync::Arc::new(Xaes256Gcm::new(&[5; 32])?);
    /// let mut writer = Writer::new(key.clone(), Vec::new())?;
    /// writer.write_all(b"owned key handle")?;
    /// let sealed = writer.finish()?;
    /// let mut reader = Reader::new(key, std::io::Cursor::new(sealed));
    /// let mut back = Vec::new();
    /// reader.read_to_end(&mut back)?;
    /// assert_eq!(back, b"owned key handle");
    /// # Ok(()) }
    /// ```
    pub fn new(key: K, inner: R) -> Self {
        Self {
            inner,
            opening: Opening::new(key),
            buf: SecretBuf::new(16),
            filled: 0,
            consumed: 0,
            plain_start: 0,
            plain_end: 0,
        }
    }

    /// The reader it reads from.
    ///
    /// ```
    /// use hardware_aead::{Aead, xaes_gcm::Xaes256Gcm, stream::Reader};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Xaes256Gcm::new(&[5; 32])?;
    /// let reader = Reader::new(&key, &b"not read yet"[..]);
    /// assert_eq!(reader.into_inner(), b"not read yet");
    /// # Ok(()) }
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads the header; the stream's segment size and prefix come from it.
    fn read_header(&mut self) -> io::Result<()> {
        loop {
            let missing = self.opening.header_missing();
            if missing.is_empty() {
                return Ok(());
            }
            match self.inner.read(missing) {
                Ok(0) => return Err(self.fail(Error::CiphertextTooShort)),
                Ok(n) => self.opening.header_received(n).map_err(io::Error::from)?,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Poisons the reader with `error` and returns it as an `io::Error`.
    fn fail(&mut self, error: Error) -> io::Error {
        self.plain_start = 0;
        self.plain_end = 0;
        io::Error::from(self.opening.fail(error))
    }

    /// Reads until `buf[consumed..]` holds `want` bytes or `R` ends; moves
    /// the bytes not yet consumed to the front first.
    fn fill(&mut self, want: usize) -> io::Result<()> {
        self.buf.bytes.copy_within(self.consumed..self.filled, 0);
        self.filled -= self.consumed;
        self.consumed = 0;
        while self.filled < want {
            if self.filled == self.buf.bytes.len() {
                // Grow as bytes arrive, so a header claiming large segments
                // costs memory only when the data is there.
                let len = (2 * self.buf.bytes.len()).max(64 * 1024).min(want);
                self.buf.grow(len, self.filled);
            }
            let end = self.buf.bytes.len().min(want);
            match self.inner.read(&mut self.buf.bytes[self.filled..end]) {
                Ok(0) => break,
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Reads and opens the next segment. If `out` can hold a whole sealed
    /// segment and the byte after it, the segment is read into `out` and
    /// opened there (no copy; returns the plaintext length); else it is read
    /// into the buffer and opened there, to be served by later reads
    /// (returns 0). A failure of `R` leaves the reader as it was.
    fn next_segment(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let sealed_len = self.opening.sealed_len();
        // One byte past a full segment tells whether it is the last.
        let want = sealed_len + 1;
        if out.len() >= want {
            let got = self.read_into(&mut out[..want])?;
            let last = got < want;
            let len = got.min(sealed_len);
            if !last {
                self.buf.bytes[0] = out[sealed_len];
                self.filled = 1;
            }
            let opened = self.opening.open(&mut out[..len], last);
            // The tag and the byte read ahead are not plaintext: clear them.
            let text_len = len.saturating_sub(TAG_LEN);
            out[text_len..got].fill(0);
            opened.map_err(io::Error::from)
        } else {
            self.fill(want)?;
            let last = self.filled < want;
            let len = self.filled.min(sealed_len);
            let text_len = self
                .opening
                .open(&mut self.buf.bytes[..len], last)
                .map_err(io::Error::from)?;
            self.buf.holds_plaintext(text_len);
            self.consumed = len;
            self.plain_start = 0;
            self.plain_end = text_len;
            Ok(0)
        }
    }

    /// Reads the bytes carried over in the buffer and then from `R` into
    /// `out` until it is full or `R` ends; returns the bytes placed. If `R`
    /// fails, what was placed goes back into the buffer (and is cleared from
    /// `out`), so that the read can be retried.
    fn read_into(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let carried = self.filled - self.consumed;
        out[..carried].copy_from_slice(&self.buf.bytes[self.consumed..self.filled]);
        self.filled = 0;
        self.consumed = 0;
        let mut got = carried;
        while got < out.len() {
            match self.inner.read(&mut out[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    if self.buf.bytes.len() < got {
                        self.buf.grow(got, 0);
                    }
                    self.buf.bytes[..got].copy_from_slice(&out[..got]);
                    self.filled = got;
                    out[..got].fill(0);
                    return Err(e);
                }
            }
        }
        Ok(got)
    }
}

impl<R: Read, K: Deref<Target: Aead>> Read for Reader<R, K> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            if self.plain_start < self.plain_end {
                let n = out.len().min(self.plain_end - self.plain_start);
                out[..n].copy_from_slice(&self.buf.bytes[self.plain_start..self.plain_start + n]);
                self.plain_start += n;
                return Ok(n);
            }
            match self.opening.state {
                State::Failed(error) => return Err(io::Error::from(error)),
                State::Done => return Ok(0),
                State::Header { .. } => self.read_header()?,
                State::Segments(_) => {
                    let written = self.next_segment(out)?;
                    if written > 0 {
                        return Ok(written);
                    }
                }
            }
        }
    }
}

/// Decrypts a STREAM written into it and writes the plaintext to `W`: the
/// push-side twin of [`Reader`], for ciphertext that arrives in pieces (a
/// request body, a message queue).
///
/// A segment's plaintext is written to `W` only after its tag verified.
/// [`finish`](DecryptingWriter::finish) opens the last segment and returns
/// `W`; without it, the end of the stream is never checked, and whatever
/// was written to `W` is a prefix of the plaintext that must not be taken
/// for all of it. After an error (a failed tag, or an error of `W`) it is
/// poisoned.
///
/// ```
/// use std::io::Write;
/// use hardware_aead::{Aead, xaes_gcm::Xaes256Gcm, stream::{DecryptingWriter, Writer}};
///
/// # fn main() -> std::io::Result<()> {
/// let key = Xaes256Gcm::new(&[0x24; 32])?;
/// let mut writer = Writer::with_segment_size(&key, 16, Vec::new())?;
/// writer.write_all(b"pushed through in pieces")?;
/// let sealed = writer.finish()?;
///
/// let mut opener = DecryptingWriter::new(&key, Vec::new());
/// for piece in sealed.chunks(5) {
///     opener.write_all(piece)?;
/// }
/// assert_eq!(opener.finish()?, b"pushed through in pieces");
/// # Ok(()) }
/// ```
pub struct DecryptingWriter<W: Write, K: Deref<Target: Aead>> {
    inner: W,
    opening: Opening<K>,
    /// Sealed bytes received (`buf[..filled]`), opened in place once a
    /// segment and the byte after it are there.
    buf: SecretBuf,
    filled: usize,
    /// `W` failed: the plaintext written to it may be cut anywhere.
    broken: bool,
}

impl<W: Write, K: Deref<Target: Aead>> DecryptingWriter<W, K> {
    /// A decrypting writer for a stream sealed under `key`, writing the
    /// plaintext to `inner`.
    ///
    /// ```
    /// use hardware_aead::{Aead, xaes_gcm::Xaes256Gcm, stream::DecryptingWriter};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let opener = DecryptingWriter::new(&key, std::io::sink());
    /// # let _ = opener;
    /// # Ok(()) }
    /// ```
    pub fn new(key: K, inner: W) -> Self {
        Self {
            inner,
            opening: Opening::new(key),
            buf: SecretBuf::new(16),
            filled: 0,
            broken: false,
        }
    }

    /// Opens the last segment, writes its plaintext, flushes `W` and
    /// returns it; fails if the stream is incomplete or does not verify.
    ///
    /// ```
    /// use std::io::Write;
    /// use hardware_aead::{Aead, Error, xaes_gcm::Xaes256Gcm, stream::{DecryptingWriter, Writer}};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let mut writer = Writer::new(&key, Vec::new())?;
    /// writer.write_all(b"complete")?;
    /// let sealed = writer.finish()?;
    /// let mut opener = DecryptingWriter::new(&key, Vec::new());
    /// opener.write_all(&sealed[..sealed.len() - 1])?; // one byte short
    /// let err = opener.finish().unwrap_err();
    /// assert_eq!(err.get_ref().and_then(|e| e.downcast_ref::<Error>()),
    ///            Some(&Error::Authentication));
    /// # Ok(()) }
    /// ```
    pub fn finish(mut self) -> io::Result<W> {
        if self.broken {
            return Err(poisoned());
        }
        match self.opening.state {
            State::Failed(error) => return Err(io::Error::from(error)),
            State::Header { .. } => {
                return Err(io::Error::from(
                    self.opening.fail(Error::CiphertextTooShort),
                ));
            }
            State::Segments(_) | State::Done => {}
        }
        let text_len = self
            .opening
            .open(&mut self.buf.bytes[..self.filled], true)?;
        self.buf.holds_plaintext(text_len);
        self.inner.write_all(&self.buf.bytes[..text_len])?;
        self.inner.flush()?;
        Ok(self.inner)
    }

    fn write_sealed(&mut self, data: &[u8]) -> io::Result<()> {
        let mut rest = data;
        while !rest.is_empty() {
            let missing = self.opening.header_missing();
            if !missing.is_empty() {
                let n = missing.len().min(rest.len());
                missing[..n].copy_from_slice(&rest[..n]);
                rest = &rest[n..];
                self.opening.header_received(n)?;
                continue;
            }
            // One byte past a full segment tells that it is not the last.
            let sealed_len = self.opening.sealed_len();
            let want = sealed_len + 1;
            if self.buf.bytes.len() < want {
                // Grown as bytes arrive, as in `Reader::fill`.
                let len = (2 * self.buf.bytes.len()).max(64 * 1024).min(want);
                self.buf.grow(len, self.filled);
            }
            let n = rest.len().min(self.buf.bytes.len() - self.filled);
            self.buf.bytes[self.filled..self.filled + n].copy_from_slice(&rest[..n]);
            self.filled += n;
            rest = &rest[n..];
            if self.filled == want {
                let text_len = self
                    .opening
                    .open(&mut self.buf.bytes[..sealed_len], false)?;
                self.buf.holds_plaintext(text_len);
                self.inner.write_all(&self.buf.bytes[..text_len])?;
                self.buf.bytes[0] = self.buf.bytes[sealed_len];
                self.filled = 1;
            }
        }
        Ok(())
    }
}

impl<W: Write, K: Deref<Target: Aead>> Write for DecryptingWriter<W, K> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if let State::Failed(error) = self.opening.state {
            return Err(io::Error::from(error));
        }
        if self.broken {
            return Err(poisoned());
        }
        let result = self.write_sealed(data);
        if result.is_err() && !matches!(self.opening.state, State::Failed(_)) {
            self.broken = true; // an error of `W`, not of the stream
        }
        result.map(|()| data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Write, K: Deref<Target: Aead>> core::fmt::Debug for DecryptingWriter<W, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DecryptingWriter")
            .field("failed", &matches!(self.opening.state, State::Failed(_)))
            .field("broken", &self.broken)
            .finish_non_exhaustive()
    }
}

impl<R: Read, K: Deref<Target: Aead>> core::fmt::Debug for Reader<R, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let state = match self.opening.state {
            State::Header { .. } => "header",
            State::Segments(_) => "segments",
            State::Done => "done",
            State::Failed(_) => "failed",
        };
        f.debug_struct("Reader")
            .field("state", &state)
            .finish_non_exhaustive()
    }
}
