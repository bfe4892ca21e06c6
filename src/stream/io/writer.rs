//! [`Writer`]: plaintext in, a STREAM with its header out.

use core::ops::Deref;
use std::io::{self, Write};

use super::{FIRST_BUFFER, Header, SecretBuf, poisoned};
use crate::Error;
use crate::aead::AeadKey;
use crate::stream::{DEFAULT_SEGMENT_SIZE, Encryptor};

/// Encrypts everything written to it into a STREAM on `W`.
///
/// Nothing is written by the constructor: the header goes out with the first
/// segment, or on the first `flush`; each segment as soon as it is full and
/// more plaintext follows; the last one by [`finish`](Writer::finish),
/// which must be called: a writer dropped without it leaves a stream that
/// [`Reader`](crate::stream::Reader) rejects (its last segment is missing). Plaintext it holds is
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
/// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::{Reader, Writer}};
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
pub struct Writer<W: Write, K: Deref<Target: AeadKey>> {
    inner: W,
    encryptor: Option<Encryptor<K>>,
    header: Header,
    /// Whether `header` has been written to `inner`.
    header_written: bool,
    /// One segment: plaintext held (`held` bytes), then sealed in place with
    /// room for its tag. It starts smaller ([`FIRST_BUFFER`]) and grows to
    /// a whole segment and its tag on the first write that does not fit.
    buf: SecretBuf,
    held: usize,
}

impl<W: Write, K: Deref<Target: AeadKey<Nonce = [u8; 24]>>> Writer<W, K> {
    /// A stream on `inner` under an XAES-256-GCM key, with a random 19-byte
    /// prefix and [`DEFAULT_SEGMENT_SIZE`]
    /// segments. One key can encrypt any number of streams this way: each
    /// prefix selects its own derived AES-256 key. Errors:
    /// [`Error::Entropy`] if the OS gave no randomness.
    ///
    /// ```
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::Writer};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let sealed = Writer::new(&key, Vec::new())?.finish()?;
    /// assert_eq!(sealed.len(), 19 + 4 + 16); // header and an empty last segment
    /// # Ok(()) }
    /// ```
    pub fn new(key: K, inner: W) -> Result<Self, Error> {
        Self::with_segment_size(key, DEFAULT_SEGMENT_SIZE, inner)
    }

    /// [`new`](Writer::new) with `segment_size` plaintext bytes per segment
    /// (1 ..= [`MAX_SEGMENT_SIZE`](crate::stream::MAX_SEGMENT_SIZE), else [`Error::InvalidSegmentSize`]).
    ///
    /// ```
    /// use std::io::Write;
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::Writer};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let mut writer = Writer::with_segment_size(&key, 1024, Vec::new())?;
    /// writer.write_all(&[0u8; 2048])?;
    /// let sealed = writer.finish()?;
    /// assert_eq!(sealed.len(), 23 + 2 * (1024 + 16));
    /// # Ok(()) }
    /// ```
    pub fn with_segment_size(key: K, segment_size: usize, inner: W) -> Result<Self, Error> {
        let mut prefix = [0u8; 19];
        crate::random::fill(&mut prefix)?;
        Self::with_prefix(key, &prefix, segment_size, inner)
    }
}

impl<W: Write, K: Deref<Target: AeadKey>> Writer<W, K> {
    /// A stream on `inner` with a prefix the caller chose, for any key type.
    /// The prefix (`NONCE_LEN − 5` bytes, else
    /// [`Error::InvalidPrefixLength`]) must
    /// never be used for another stream under the same key; for keys with
    /// 96-bit nonces a random prefix is too short to be unique (prefer
    /// [`new`](Writer::new) with an XAES-256-GCM key, or a random 27-byte
    /// prefix with an AEGIS-256 key, [`crate::aegis`]).
    ///
    /// ```
    /// use std::io::{Read, Write};
    /// use hardware_aead::{aes_gcm::Aes256Gcm, stream::{Reader, Writer}};
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
        inner: W,
    ) -> Result<Self, Error> {
        let encryptor = Encryptor::new(key, prefix)?;
        let header = Header::new(prefix, segment_size)?;
        Ok(Self {
            inner,
            encryptor: Some(encryptor),
            header,
            header_written: false,
            // Grown to a whole segment when the plaintext needs it
            // (`write_segments`).
            buf: SecretBuf::new((segment_size + K::Target::TAG_LEN).min(FIRST_BUFFER)),
            held: 0,
        })
    }

    /// Seals the plaintext still held as the last segment, writes it, flushes
    /// `W` and returns it.
    ///
    /// ```
    /// use std::io::Write;
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::Writer};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let mut writer = Writer::new(&key, Vec::new())?;
    /// writer.write_all(b"12345")?;
    /// assert_eq!(writer.finish()?.len(), 23 + 5 + 16);
    /// # Ok(()) }
    /// ```
    pub fn finish(mut self) -> io::Result<W> {
        if self.encryptor.is_none() {
            return Err(poisoned());
        }
        self.write_header()?;
        let encryptor = self.encryptor.take().ok_or_else(poisoned)?;
        let (text, rest) = self.buf.bytes.split_at_mut(self.held);
        let tag = encryptor
            .seal_last_in_place(self.header.as_bytes(), text)
            .map_err(io::Error::from)?;
        rest[..K::Target::TAG_LEN].copy_from_slice(tag.as_ref());
        self.buf.sealed_in_place();
        self.inner
            .write_all(&self.buf.bytes[..self.held + K::Target::TAG_LEN])?;
        self.inner.flush()?;
        Ok(self.inner)
    }

    /// The writer it writes to.
    ///
    /// ```
    /// use std::io::Write;
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::Writer};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let mut writer = Writer::new(&key, Vec::new())?;
    /// assert!(writer.get_ref().is_empty()); // nothing written yet
    /// writer.flush()?;
    /// assert_eq!(writer.get_ref().len(), 23); // the header
    /// # Ok(()) }
    /// ```
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The writer it writes to, mutably. Writing to it directly corrupts the
    /// stream (as with [`std::io::BufWriter::get_mut`]).
    ///
    /// ```
    /// use hardware_aead::{xaes_gcm::Xaes256Gcm, stream::Writer};
    /// # fn main() -> std::io::Result<()> {
    /// let key = Xaes256Gcm::new(&[1; 32])?;
    /// let mut writer = Writer::new(&key, Vec::<u8>::new())?;
    /// writer.get_mut().reserve(1 << 20);
    /// assert!(writer.get_ref().capacity() >= 1 << 20);
    /// # Ok(()) }
    /// ```
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    /// Writes the header to `inner` unless it has been.
    fn write_header(&mut self) -> io::Result<()> {
        if !self.header_written {
            self.inner.write_all(self.header.as_bytes())?;
            self.header_written = true;
        }
        Ok(())
    }

    /// Seals `self.buf[..held]` as a segment that is not the last and writes it.
    fn write_held(&mut self) -> io::Result<()> {
        self.write_header()?;
        let encryptor = self.encryptor.as_mut().ok_or_else(poisoned)?;
        let (text, rest) = self.buf.bytes.split_at_mut(self.held);
        let tag = encryptor
            .seal_next_in_place(self.header.as_bytes(), text)
            .map_err(io::Error::from)?;
        rest[..K::Target::TAG_LEN].copy_from_slice(tag.as_ref());
        self.buf.sealed_in_place();
        self.inner
            .write_all(&self.buf.bytes[..self.held + K::Target::TAG_LEN])?;
        self.held = 0;
        Ok(())
    }

    /// Seals a whole segment straight from the caller's bytes (no copy into
    /// the buffer first) and writes it.
    fn write_direct(&mut self, segment: &[u8]) -> io::Result<()> {
        self.write_header()?;
        let encryptor = self.encryptor.as_mut().ok_or_else(poisoned)?;
        let len = encryptor
            .seal_next_to(self.header.as_bytes(), segment, &mut self.buf.bytes)
            .map_err(io::Error::from)?;
        self.inner.write_all(&self.buf.bytes[..len])
    }

    fn write_segments(&mut self, data: &[u8]) -> io::Result<()> {
        let segment_size = self.header.segment_size();
        if self.buf.bytes.len() < segment_size + K::Target::TAG_LEN {
            self.buf.grow(segment_size + K::Target::TAG_LEN, self.held);
        }
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

impl<W: Write, K: Deref<Target: AeadKey>> Write for Writer<W, K> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.encryptor.is_none() {
            return Err(poisoned());
        }
        // The common small write: it fits beside what is held, and nothing
        // is sealed until more plaintext follows a full segment.
        let room = self.buf.bytes.len() - K::Target::TAG_LEN - self.held;
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
        if self.encryptor.is_none() {
            return Err(poisoned());
        }
        if let Err(error) = self.write_header() {
            self.encryptor = None;
            return Err(error);
        }
        self.inner.flush()
    }
}

impl<W: Write, K: Deref<Target: AeadKey>> core::fmt::Debug for Writer<W, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Writer")
            .field("segment_size", &self.header.segment_size())
            .field("held", &self.held)
            .field("poisoned", &self.encryptor.is_none())
            .finish_non_exhaustive()
    }
}

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod tests {
    use super::*;
    use crate::stream::io::FIRST_BUFFER;
    use crate::xaes_gcm::Xaes256Gcm;

    #[test]
    fn buffer_grows_to_a_segment_only_when_the_plaintext_needs_it() {
        let key = Xaes256Gcm::new(&[3; 32]).unwrap();
        let mut writer = Writer::new(&key, Vec::new()).unwrap();
        writer.write_all(&[1; 100]).unwrap();
        assert_eq!(writer.buf.bytes.len(), FIRST_BUFFER, "a small stream");
        // Fill the first buffer exactly, then one byte more.
        writer
            .write_all(&[2; FIRST_BUFFER - crate::TAG_LEN - 100])
            .unwrap();
        assert_eq!(writer.buf.bytes.len(), FIRST_BUFFER, "full, not grown");
        writer.write_all(&[3]).unwrap();
        assert_eq!(
            writer.buf.bytes.len(),
            DEFAULT_SEGMENT_SIZE + crate::TAG_LEN
        );
        assert_eq!(
            writer.held,
            FIRST_BUFFER - crate::TAG_LEN + 1,
            "held bytes kept"
        );
        // A segment smaller than the first buffer is allocated whole.
        let small = Writer::with_segment_size(&key, 100, Vec::new()).unwrap();
        assert_eq!(small.buf.bytes.len(), 100 + crate::TAG_LEN);
    }
}
