//! [`Reader`] (pull) and [`DecryptingWriter`] (push): a STREAM with its
//! header in, verified plaintext out, through one opening state machine.

use core::ops::Deref;
use std::io::{self, BufRead, Read, Write};

use super::{Header, MAX_HEADER_LEN, SecretBuf, checked_segment_size, grown_len, poisoned};
use crate::aead::AeadKey;
use crate::error::Error;
use crate::stream::Decryptor;

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

/// `inner.read(buf)`, its count checked: a `Read` that claims more bytes
/// than `buf` holds is broken or hostile, and trusting the count would
/// count bytes it never wrote (and index past the buffer). An
/// [`io::ErrorKind::InvalidData`] error instead; the reader is left as it
/// was, like after any error of its source.
fn read_checked<R: Read>(inner: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    let len = buf.len();
    match inner.read(buf) {
        Ok(n) if n > len => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "the inner reader returned a count larger than its buffer",
        )),
        other => other,
    }
}

/// What [`Reader`] and [`DecryptingWriter`] share: the header as it
/// arrives, then the decryptor that opens segments in place.
struct Opening<K> {
    state: State<K>,
    header: Header,
}

impl<K: Deref<Target: AeadKey>> Opening<K> {
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
        self.header.segment_size() + K::Target::TAG_LEN
    }

    /// Poisons the stream with `error` and returns it.
    fn fail(&mut self, error: Error) -> Error {
        self.state = State::Failed(error);
        error
    }

    /// Opens `sealed` (`ciphertext ‖ tag`) as the next segment, or the
    /// last: into `out` if given (its first `len − 16` bytes; `sealed` is
    /// only read), else in place. Returns the plaintext length. On failure
    /// the plaintext area is all zero and the stream is poisoned.
    fn open(
        &mut self,
        sealed: &mut [u8],
        out: Option<&mut [u8]>,
        last: bool,
    ) -> Result<usize, Error> {
        let Some(text_len) = sealed.len().checked_sub(K::Target::TAG_LEN) else {
            return Err(self.fail(Error::Truncated));
        };
        let mut decryptor = match core::mem::replace(&mut self.state, State::Done) {
            State::Segments(decryptor) => decryptor,
            // Only called in `State::Segments`; any other state (a failure
            // above all) is put back as it was.
            other => {
                self.state = other;
                return Ok(0);
            }
        };
        let aad = self.header.as_bytes();
        let opened = match (last, out) {
            (true, Some(out)) => decryptor.open_last_to(aad, sealed, out).map(drop),
            (true, None) => split_tag::<K::Target>(sealed, text_len)
                .and_then(|(text, tag)| decryptor.open_last_in_place(aad, text, &tag)),
            (false, out) => {
                let opened = match out {
                    Some(out) => decryptor.open_next_to(aad, sealed, out).map(drop),
                    None => split_tag::<K::Target>(sealed, text_len)
                        .and_then(|(text, tag)| decryptor.open_next_in_place(aad, text, &tag)),
                };
                if opened.is_ok() {
                    self.state = State::Segments(decryptor);
                }
                opened
            }
        };
        match opened {
            Ok(()) => Ok(text_len),
            Err(error) => Err(self.fail(error)),
        }
    }
}

/// `ciphertext ‖ tag` split at `text_len`: the ciphertext, and a copy of the tag.
/// (`text_len` is `sealed.len() − A::TAG_LEN`, so the tag converts.)
fn split_tag<A: AeadKey>(sealed: &mut [u8], text_len: usize) -> Result<(&mut [u8], A::Tag), Error> {
    let (text, tag_bytes) = sealed.split_at_mut(text_len);
    let tag = A::Tag::try_from(tag_bytes).map_err(|_| Error::Truncated)?;
    Ok((text, tag))
}

/// Decrypts a STREAM read from `R` (as written by [`Writer`](crate::stream::Writer)).
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
/// use hardware_aead::{Error, xaes_gcm::Xaes256Gcm, stream::{Reader, Writer}};
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
pub struct Reader<R: Read, K: Deref<Target: AeadKey>> {
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

impl<R: Read, K: Deref<Target: AeadKey>> Reader<R, K> {
    /// A reader of the stream on `inner`, sealed under `key`. It reads the
    /// header on the first `read`.
    ///
    /// ```
    /// use std::io::{Read, Write};
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::{Reader, Writer}};
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
            buf: SecretBuf::new(0),
            filled: 0,
            consumed: 0,
            plain_start: 0,
            plain_end: 0,
        }
    }

    /// The reader it reads from.
    ///
    /// ```
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::Reader};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Xaes256Gcm::new(&[5; 32])?;
    /// let reader = Reader::new(&key, &b"not read yet"[..]);
    /// assert_eq!(reader.into_inner(), b"not read yet");
    /// # Ok(()) }
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The reader it reads from.
    ///
    /// ```
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::Reader};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Xaes256Gcm::new(&[5; 32])?;
    /// let reader = Reader::new(&key, &b"not read yet"[..]);
    /// assert_eq!(*reader.get_ref(), b"not read yet");
    /// # Ok(()) }
    /// ```
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The reader it reads from, mutably. Reading from it directly takes
    /// bytes the stream needs (as with [`std::io::BufReader::get_mut`]).
    ///
    /// ```
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::Reader};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Xaes256Gcm::new(&[5; 32])?;
    /// let mut reader = Reader::new(&key, std::io::Cursor::new(vec![0u8; 8]));
    /// reader.get_mut().set_position(4);
    /// assert_eq!(reader.get_ref().position(), 4);
    /// # Ok(()) }
    /// ```
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// Reads the header; the stream's segment size and prefix come from it.
    fn read_header(&mut self) -> io::Result<()> {
        loop {
            let missing = self.opening.header_missing();
            if missing.is_empty() {
                return Ok(());
            }
            match read_checked(&mut self.inner, missing) {
                Ok(0) => return Err(self.fail(Error::Truncated)),
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
                self.buf.grow(grown_len(self.filled, want), self.filled);
            }
            let end = self.buf.bytes.len().min(want);
            match read_checked(&mut self.inner, &mut self.buf.bytes[self.filled..end]) {
                Ok(0) => break,
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// One step of the stream once the buffered plaintext is used up: the
    /// header, or the next segment ([`next_segment`](Self::next_segment):
    /// `Some` of what it wrote into `out`). `None` at the end of the stream;
    /// the error again once it failed. Not inlined: it runs once a segment,
    /// and inlined into `read` it slows the small reads served from the
    /// buffer; out of line, small reads are faster than with the two
    /// separate loops it replaced, for a little more per whole small stream
    /// (docs/benchmarks.md, "Streaming on Zen 4 (`stream`, `ece`)"; the
    /// runs: docs/measurements/2026-11-23-zen4/tables.md).
    #[inline(never)]
    fn advance(&mut self, out: &mut [u8]) -> io::Result<Option<usize>> {
        match self.opening.state {
            State::Failed(error) => Err(io::Error::from(error)),
            State::Done => Ok(None),
            State::Header { .. } => self.read_header().map(|()| Some(0)),
            State::Segments(_) => self.next_segment(out).map(Some),
        }
    }

    /// Reads the next segment into the buffer and opens it: straight into
    /// `out` if a whole segment's plaintext fits there (returns its length;
    /// on failure that area of `out` is zero), else in the buffer, to be
    /// served by later reads (returns 0). A failure of `R` leaves the reader
    /// as it was.
    fn next_segment(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let sealed_len = self.opening.sealed_len();
        // One byte past a full segment tells whether it is the last.
        let want = sealed_len + 1;
        self.fill(want)?;
        let last = self.filled < want;
        let len = self.filled.min(sealed_len);
        let sealed = &mut self.buf.bytes[..len];
        self.consumed = len;
        if out.len() >= sealed_len - K::Target::TAG_LEN {
            self.opening
                .open(sealed, Some(out), last)
                .map_err(io::Error::from)
        } else {
            let text_len = self
                .opening
                .open(sealed, None, last)
                .map_err(io::Error::from)?;
            self.buf.holds_plaintext(text_len);
            self.plain_start = 0;
            self.plain_end = text_len;
            Ok(0)
        }
    }
}

impl<R: Read, K: Deref<Target: AeadKey>> Read for Reader<R, K> {
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
            match self.advance(out)? {
                None => return Ok(0),
                Some(0) => {}
                Some(written) => return Ok(written),
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
/// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::{DecryptingWriter, Writer}};
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
pub struct DecryptingWriter<W: Write, K: Deref<Target: AeadKey>> {
    inner: W,
    opening: Opening<K>,
    /// Sealed bytes received (`buf[..filled]`), opened in place once a
    /// segment and the byte after it are there.
    buf: SecretBuf,
    filled: usize,
    /// `W` failed: the plaintext written to it may be cut anywhere.
    broken: bool,
}

impl<W: Write, K: Deref<Target: AeadKey>> DecryptingWriter<W, K> {
    /// A decrypting writer for a stream sealed under `key`, writing the
    /// plaintext to `inner`.
    ///
    /// ```
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::DecryptingWriter};
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
            buf: SecretBuf::new(0),
            filled: 0,
            broken: false,
        }
    }

    /// The writer the plaintext goes to.
    ///
    /// ```
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::DecryptingWriter};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let opener = DecryptingWriter::new(&key, Vec::<u8>::new());
    /// assert!(opener.get_ref().is_empty());
    /// # Ok(()) }
    /// ```
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The writer the plaintext goes to, mutably. Writing to it directly
    /// mixes those bytes into the plaintext.
    ///
    /// ```
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::DecryptingWriter};
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let mut opener = DecryptingWriter::new(&key, Vec::<u8>::new());
    /// opener.get_mut().reserve(4096);
    /// assert!(opener.get_ref().capacity() >= 4096);
    /// # Ok(()) }
    /// ```
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// Opens the last segment, writes its plaintext, flushes `W` and
    /// returns it; fails if the stream is incomplete or does not verify.
    ///
    /// ```
    /// use std::io::Write;
    /// use hardware_aead::{Error, xaes_gcm::Xaes256Gcm, stream::{DecryptingWriter, Writer}};
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
                return Err(io::Error::from(self.opening.fail(Error::Truncated)));
            }
            State::Segments(_) | State::Done => {}
        }
        let text_len = self
            .opening
            .open(&mut self.buf.bytes[..self.filled], None, true)?;
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
            if self.filled == self.buf.bytes.len() {
                self.buf.grow(grown_len(self.filled, want), self.filled);
            }
            let n = rest.len().min(self.buf.bytes.len() - self.filled);
            self.buf.bytes[self.filled..self.filled + n].copy_from_slice(&rest[..n]);
            self.filled += n;
            rest = &rest[n..];
            if self.filled == want {
                let text_len = self
                    .opening
                    .open(&mut self.buf.bytes[..sealed_len], None, false)?;
                self.buf.holds_plaintext(text_len);
                self.inner.write_all(&self.buf.bytes[..text_len])?;
                self.buf.bytes[0] = self.buf.bytes[sealed_len];
                self.filled = 1;
            }
        }
        Ok(())
    }
}

impl<W: Write, K: Deref<Target: AeadKey>> Write for DecryptingWriter<W, K> {
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

impl<W: Write, K: Deref<Target: AeadKey>> core::fmt::Debug for DecryptingWriter<W, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DecryptingWriter")
            .field("failed", &matches!(self.opening.state, State::Failed(_)))
            .field("broken", &self.broken)
            .finish_non_exhaustive()
    }
}

/// The plaintext of the segment being read, from the reader's buffer: what
/// `fill_buf` returns has verified, as with `read`. Reading through
/// `BufRead` (`read_line`, `lines`, `read_until`, `fill_buf` and `consume`)
/// needs no `BufReader` around the reader, and no second copy; every
/// segment is then opened in the reader's buffer.
///
/// ```
/// use std::io::{BufRead, Write};
/// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::{Reader, Writer}};
///
/// # fn main() -> std::io::Result<()> {
/// let key = Xaes256Gcm::new(&[0x24; 32])?;
/// let mut writer = Writer::with_segment_size(&key, 8, Vec::new())?;
/// writer.write_all(b"first line\nsecond line\n")?;
/// let sealed = writer.finish()?;
///
/// let lines: Vec<String> = Reader::new(&key, &sealed[..]).lines().collect::<Result<_, _>>()?;
/// assert_eq!(lines, ["first line", "second line"]);
/// # Ok(()) }
/// ```
impl<R: Read, K: Deref<Target: AeadKey>> BufRead for Reader<R, K> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        // No caller buffer: each segment is opened in the reader's.
        while self.plain_start == self.plain_end && self.advance(&mut [])?.is_some() {}
        Ok(&self.buf.bytes[self.plain_start..self.plain_end])
    }

    fn consume(&mut self, amount: usize) {
        self.plain_start = self.plain_end.min(self.plain_start.saturating_add(amount));
    }
}

impl<R: Read, K: Deref<Target: AeadKey>> core::fmt::Debug for Reader<R, K> {
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

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod tests {
    use super::*;
    use crate::stream::io::FIRST_BUFFER;
    use crate::stream::{DEFAULT_SEGMENT_SIZE, Writer};
    use crate::xaes_gcm::Xaes256Gcm;

    fn sealed(key: &Xaes256Gcm, len: usize) -> Vec<u8> {
        let mut writer = Writer::new(key, Vec::new()).unwrap();
        writer.write_all(&vec![9; len]).unwrap();
        writer.finish().unwrap()
    }

    #[test]
    fn buffers_grow_as_the_stream_arrives() {
        let key = Xaes256Gcm::new(&[3; 32]).unwrap();
        let small = sealed(&key, 100);
        let mut reader = Reader::new(&key, &small[..]);
        assert_eq!(reader.read(&mut [0; 10]).unwrap(), 10);
        assert_eq!(reader.buf.bytes.len(), FIRST_BUFFER, "a small stream");
        let mut pushed = DecryptingWriter::new(&key, Vec::new());
        pushed.write_all(&small).unwrap();
        assert_eq!(pushed.buf.bytes.len(), FIRST_BUFFER, "a small stream");
        assert_eq!(pushed.finish().unwrap(), [9; 100]);

        // A whole segment and the byte after it.
        let big = sealed(&key, DEFAULT_SEGMENT_SIZE + 1);
        let mut reader = Reader::new(&key, &big[..]);
        assert_eq!(reader.read(&mut [0; 10]).unwrap(), 10);
        assert_eq!(
            reader.buf.bytes.len(),
            DEFAULT_SEGMENT_SIZE + crate::TAG_LEN + 1
        );
        let mut pushed = DecryptingWriter::new(&key, Vec::new());
        pushed.write_all(&big).unwrap();
        assert_eq!(
            pushed.buf.bytes.len(),
            DEFAULT_SEGMENT_SIZE + crate::TAG_LEN + 1
        );
        assert_eq!(pushed.finish().unwrap(), vec![9; DEFAULT_SEGMENT_SIZE + 1]);
    }

    /// A source that claims one byte more than it was given room for, on
    /// its `lie_at`-th call, and reads `sealed` honestly otherwise.
    struct Lying<'a> {
        sealed: &'a [u8],
        calls: usize,
        lie_at: usize,
    }

    impl Read for Lying<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.calls += 1;
            if self.calls == self.lie_at {
                return Ok(buf.len() + 1);
            }
            let n = buf.len().min(self.sealed.len());
            buf[..n].copy_from_slice(&self.sealed[..n]);
            self.sealed = &self.sealed[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_source_that_claims_more_than_its_buffer_is_an_error_not_a_panic() {
        let key = Xaes256Gcm::new(&[3; 32]).unwrap();
        let sealed = sealed(&key, 3 * DEFAULT_SEGMENT_SIZE / 2);
        // First call: in the header; second: in the first segment.
        for lie_at in [1, 2] {
            let mut reader = Reader::new(
                &key,
                Lying {
                    sealed: &sealed,
                    calls: 0,
                    lie_at,
                },
            );
            let mut out = Vec::new();
            let error = reader.read_to_end(&mut out).unwrap_err();
            assert_eq!(
                error.kind(),
                io::ErrorKind::InvalidData,
                "lie at call {lie_at}"
            );
            assert!(out.is_empty(), "nothing released, lie at call {lie_at}");
            // The reader is as it was: an honest source from there on
            // finishes the stream.
            reader.read_to_end(&mut out).unwrap();
            assert_eq!(
                out,
                vec![9; 3 * DEFAULT_SEGMENT_SIZE / 2],
                "lie at call {lie_at}"
            );
        }
    }

    #[test]
    fn a_failed_stream_stays_failed_if_open_is_called_again() {
        let key = Xaes256Gcm::new(&[3; 32]).unwrap();
        let mut opening = Opening::new(&key);
        let _ = opening.fail(Error::Authentication);
        let mut sealed = [0u8; 40];
        assert_eq!(opening.open(&mut sealed, None, false), Ok(0));
        assert!(matches!(
            opening.state,
            State::Failed(Error::Authentication)
        ));
    }

    #[test]
    fn grown_lengths() {
        use crate::stream::io::grown_len;
        let want = DEFAULT_SEGMENT_SIZE + crate::TAG_LEN + 1;
        assert_eq!(grown_len(0, want), FIRST_BUFFER);
        assert_eq!(grown_len(FIRST_BUFFER, want), want);
        assert_eq!(grown_len(0, 40), 40);
        assert_eq!(grown_len(want, 1 << 24), 2 * want);
    }
}
