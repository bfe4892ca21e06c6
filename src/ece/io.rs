//! [`Writer`] and [`Reader`]: RFC 8188 bodies through `std::io`, one
//! record at a time, on the record engine of the parent module.

use alloc::vec::Vec;
use core::cmp::min;
use std::io::{self, Read, Write};

use zeroize::Zeroizing;

use super::record::{Opener, RecordBytes, Sealer, WipedVec};
use super::{DEFAULT_MAX_RECORD_SIZE, HEADER_LEN, Header, SALT_LEN};
use crate::aead::TAG_LEN;

use crate::error::Error;

/// Encrypts into an RFC 8188 `aes128gcm` body written to `W`, one record at
/// a time.
///
/// Each record is sealed and written once the data of the next one starts
/// (a record is the last only if nothing follows it), so at most one record
/// is held in memory. [`finish`](Writer::finish) seals and writes the last
/// record and returns `W`; an encoder dropped without it leaves a body that
/// [`decrypt`](super::decrypt) and [`Reader`] reject. I/O errors of `W` are returned
/// unchanged, and the write that failed can be retried.
///
/// The output is byte for byte that of [`encrypt`](super::encrypt) for the same arguments
/// (padding 0), however the data is split into writes.
///
/// ```
/// use std::io::Write;
/// use hardware_aead::ece;
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let ikm = [0x4b; 16];
/// let salt = [0x5a; 16]; // draw it at random in real use
/// let mut encoder = ece::Writer::new(&ikm, &salt, b"", 4096, Vec::new())?;
/// for line in ["first line\n", "second line\n"] {
///     encoder.write_all(line.as_bytes())?;
/// }
/// let body = encoder.finish()?;
/// assert_eq!(ece::decrypt(&ikm, &body).unwrap(), b"first line\nsecond line\n");
/// # Ok(()) }
/// ```
pub struct Writer<W: Write> {
    inner: W,
    sealer: Sealer,
}

impl<W: Write> Writer<W> {
    /// An encoder writing to `inner`, without padding. Nothing is written
    /// until the first `write`, `flush` or `finish`.
    ///
    /// Errors: [`Error::RecordSizeTooSmall`] below 18,
    /// [`Error::KeyIdTooLong`] past 255 bytes, [`Error::UnsupportedCpu`].
    ///
    /// ```
    /// use hardware_aead::{Error, ece};
    /// assert!(ece::Writer::new(&[1; 16], &[2; 16], b"", 4096, Vec::new()).is_ok());
    /// assert_eq!(
    ///     ece::Writer::new(&[1; 16], &[2; 16], b"", 17, Vec::new()).err(),
    ///     Some(Error::RecordSizeTooSmall)
    /// );
    /// ```
    pub fn new(
        ikm: &[u8],
        salt: &[u8; SALT_LEN],
        keyid: &[u8],
        record_size: u32,
        inner: W,
    ) -> Result<Self, Error> {
        Self::with_padding(ikm, salt, keyid, record_size, 0, inner)
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
    /// let mut encoder = ece::Writer::with_padding(&[1; 16], &[2; 16], b"a1", 25, 1, Vec::new())?;
    /// encoder.write_all(b"I am the walrus")?;
    /// let body = encoder.finish()?;
    /// // two records: 7 bytes of data + delimiter + 1 padding byte, then 8 + delimiter
    /// assert_eq!(body.len(), ece::HEADER_LEN + 2 + 25 + 25);
    /// assert_eq!(ece::decrypt(&[1; 16], &body).unwrap(), b"I am the walrus");
    /// # Ok(()) }
    /// ```
    pub fn with_padding(
        ikm: &[u8],
        salt: &[u8; SALT_LEN],
        keyid: &[u8],
        record_size: u32,
        padding: u64,
        inner: W,
    ) -> Result<Self, Error> {
        // Room for the header and one record, so the buffer does not grow
        // (a copy, a wipe) as the first record fills; records above
        // `ENCODER_BUFFER` grow it as their bytes arrive.
        let record =
            usize::try_from(record_size).map_or(ENCODER_BUFFER, |rs| min(rs, ENCODER_BUFFER));
        let capacity = HEADER_LEN + keyid.len() + record;
        Ok(Writer {
            inner,
            sealer: Sealer::new(ikm, salt, keyid, record_size, padding, capacity)?,
        })
    }

    /// Seals and writes the last record, flushes `W` and returns it.
    ///
    /// ```
    /// use hardware_aead::ece;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let empty = ece::Writer::new(&[1; 16], &[2; 16], b"", 4096, Vec::new())?.finish()?;
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
    /// let encoder = ece::Writer::new(&[1; 16], &[2; 16], b"", 4096, Vec::new())?;
    /// assert!(encoder.get_ref().is_empty()); // the header waits for the first write
    /// # Ok(()) }
    /// ```
    pub fn get_ref(&self) -> &W {
        &self.inner
    }

    /// The writer the body goes to, mutably. Writing to it directly
    /// corrupts the body (as with [`std::io::BufWriter::get_mut`]).
    ///
    /// ```
    /// use hardware_aead::ece;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let mut writer = ece::Writer::new(&[1; 16], &[2; 16], b"", 4096, Vec::<u8>::new())?;
    /// writer.get_mut().reserve(8192);
    /// assert!(writer.get_ref().capacity() >= 8192);
    /// # Ok(()) }
    /// ```
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.inner
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

impl<W: Write> Write for Writer<W> {
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

impl<W: Write> core::fmt::Debug for Writer<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Writer")
            .field("record_size", &self.sealer.record_size)
            .finish_non_exhaustive()
    }
}

/// Where a [`Reader`] is in the body.
// `Records` holds the AES-128-GCM key state inline, as `Aes128Gcm` does: no
// allocation for it, and it is wiped where it lies.
#[allow(clippy::large_enum_variant)]
enum ReaderState {
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
/// data. The first error of the body (see the [module](crate::ece) docs) is
/// returned as an [`io::Error`] whose source is the crate's [`Error`]
/// (`get_ref()` and `downcast_ref::<Error>()` give it back), and every read
/// after it returns it again: a failed decoder is poisoned. I/O errors of
/// `R` pass through unchanged and do not poison it; the read can be retried.
/// After the last record, reads return 0 and `R` is not read again.
///
/// A header whose record size is above [`DEFAULT_MAX_RECORD_SIZE`] (1 MiB;
/// [`with_max_record_size`](Reader::with_max_record_size) sets another
/// limit) fails with [`Error::RecordSizeTooLarge`] as soon as the header is
/// read: no more of `R` is read and nothing sized by the record size is
/// allocated.
///
/// ```
/// use std::io::Read;
/// use hardware_aead::{Error, ece};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let body = ece::encrypt(&[3; 16], &[4; 16], b"", 64, &[0x61; 1000]).unwrap();
/// let mut plaintext = Vec::new();
/// ece::Reader::new(&[3; 16], &body[..]).read_to_end(&mut plaintext)?;
/// assert_eq!(plaintext, [0x61; 1000]);
///
/// // The same body cut at a record boundary: the records before are
/// // released, then the error.
/// let cut = &body[..ece::HEADER_LEN + 2 * 64];
/// let mut decoder = ece::Reader::new(&[3; 16], cut);
/// let mut partial = Vec::new();
/// let err = decoder.read_to_end(&mut partial).unwrap_err();
/// assert_eq!(err.get_ref().and_then(|e| e.downcast_ref::<Error>()), Some(&Error::Truncated));
/// # Ok(()) }
/// ```
pub struct Reader<R: Read> {
    inner: R,
    state: ReaderState,
    /// The largest record size accepted in the header.
    max_record_size: u32,
    /// Body bytes read and not yet decrypted at `buffer[..filled]`, or
    /// after a record is opened, its data at `buffer[pos..end]` and the
    /// bytes read past it (the next record's first) at
    /// `buffer[carry_at..filled]`.
    buffer: WipedVec,
    filled: usize,
    pos: usize,
    end: usize,
    /// Bytes at `buffer[carry_at..filled]` that belong to the next record.
    carry_at: usize,
}

/// The most a [`Writer`] reserves before data arrives (allocated, not
/// touched): a record of up to this size is sealed without growing its
/// buffer.
const ENCODER_BUFFER: usize = 1 << 20;

/// The first buffer size of a [`Reader`]; it grows up to the record size
/// only as the body's bytes arrive, so a header with a huge record size
/// costs nothing until the body is as large.
const FIRST_BUFFER: usize = 16 * 1024;

impl<R: Read> Reader<R> {
    /// A decoder reading the body from `inner` with the input keying
    /// material `ikm` (kept, wiped on drop, until the header is read).
    /// Nothing is read before the first `read`. Record sizes above
    /// [`DEFAULT_MAX_RECORD_SIZE`] (1 MiB) are refused with
    /// [`Error::RecordSizeTooLarge`].
    ///
    /// ```
    /// use std::io::Read;
    /// use hardware_aead::ece;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let body = ece::encrypt(&[3; 16], &[4; 16], b"", 4096, b"hi").unwrap();
    /// let mut text = String::new();
    /// ece::Reader::new(&[3; 16], body.as_slice()).read_to_string(&mut text)?;
    /// assert_eq!(text, "hi");
    /// # Ok(()) }
    /// ```
    pub fn new(ikm: &[u8], inner: R) -> Self {
        Self::with_max_record_size(ikm, DEFAULT_MAX_RECORD_SIZE, inner)
    }

    /// A decoder as [`new`](Reader::new) makes, that accepts record sizes
    /// up to `max_record_size` bytes instead of [`DEFAULT_MAX_RECORD_SIZE`].
    /// A header with a larger one fails the first `read` with
    /// [`Error::RecordSizeTooLarge`], before any record is read; a limit
    /// below 18 refuses every body. The decoder holds up to `max_record_size
    /// + 1` bytes of the body at a time (it grows its buffer as they arrive).
    ///
    /// ```
    /// use std::io::Read;
    /// use hardware_aead::{Error, ece};
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let body = ece::encrypt(&[3; 16], &[4; 16], b"", 4096, b"hi").unwrap();
    ///
    /// // Lower: a receiver that holds at most 1 KiB records.
    /// let mut decoder = ece::Reader::with_max_record_size(&[3; 16], 1024, body.as_slice());
    /// let err = decoder.read_to_end(&mut Vec::new()).unwrap_err();
    /// assert_eq!(
    ///     err.get_ref().and_then(|e| e.downcast_ref::<Error>()),
    ///     Some(&Error::RecordSizeTooLarge { size: 4096, max: 1024 })
    /// );
    ///
    /// // Higher: a sender known to use 4 MiB records.
    /// let big = ece::encrypt(&[3; 16], &[4; 16], b"", 4 << 20, b"hi").unwrap();
    /// let mut text = String::new();
    /// ece::Reader::with_max_record_size(&[3; 16], 4 << 20, big.as_slice())
    ///     .read_to_string(&mut text)?;
    /// assert_eq!(text, "hi");
    /// # Ok(()) }
    /// ```
    pub fn with_max_record_size(ikm: &[u8], max_record_size: u32, inner: R) -> Self {
        Reader {
            inner,
            state: ReaderState::Header {
                ikm: Zeroizing::new(ikm.to_vec()),
            },
            max_record_size,
            buffer: WipedVec::default(),
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
    /// let decoder = ece::Reader::new(&[3; 16], &b"not read yet"[..]);
    /// assert_eq!(*decoder.get_ref(), b"not read yet");
    /// ```
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    /// The reader the body comes from, mutably. Reading from it directly
    /// takes bytes the body needs (as with [`std::io::BufReader::get_mut`]).
    ///
    /// ```
    /// use hardware_aead::ece;
    /// let mut reader = ece::Reader::new(&[3; 16], std::io::Cursor::new(vec![0u8; 8]));
    /// reader.get_mut().set_position(4);
    /// assert_eq!(reader.get_ref().position(), 4);
    /// ```
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    /// The reader the body comes from; bytes read from it and not yet
    /// released are dropped (and wiped).
    ///
    /// ```
    /// use hardware_aead::ece;
    /// let reader = ece::Reader::new(&[3; 16], &b"not read yet"[..]);
    /// assert_eq!(reader.into_inner(), b"not read yet");
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads from `inner` until `buffer[..want]` is filled or the body ends;
    /// returns whether it ended. The buffer grows as bytes arrive.
    fn fill(&mut self, want: usize) -> io::Result<bool> {
        while self.filled < want {
            if self.filled == self.buffer.len() {
                let grown = min(want, self.buffer.len().saturating_mul(2).max(FIRST_BUFFER));
                // Only ciphertext is in the buffer while it grows (it reaches
                // its full size in the first record), and `WipedVec` wipes
                // the old allocation as it grows anyway.
                if let Err(e) = self.buffer.resize(grown) {
                    return self.fail(e);
                }
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
            return self.fail(Error::Truncated);
        }
        // The record size is checked here, with only the fixed header read:
        // nothing sized by it is allocated or read before.
        let header = match Header::parse(&self.buffer[..self.filled], self.max_record_size) {
            Ok(header) => header,
            Err(e) => return self.fail(e),
        };
        if self.fill(header.len())? {
            return self.fail(Error::Truncated);
        }
        let ReaderState::Header { ikm } = &self.state else {
            return Ok(());
        };
        let opener = match Opener::new(ikm, &header) {
            Ok(opener) => opener,
            Err(e) => return self.fail(e),
        };
        // Bytes read past the header start the first record.
        self.buffer.copy_within(header.len()..self.filled, 0);
        self.filled -= header.len();
        self.state = ReaderState::Records(opener);
        Ok(())
    }

    /// Reads the next record and one byte past it, and opens it: straight
    /// into `out` if it can hold the record's plaintext (the return value is
    /// then the data length), else in place in the buffer, with `pos..end`
    /// pointing at its data (and 0 returned). Either way nothing is left
    /// where it can be read unless the tag and the delimiter checked out.
    fn open_record(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let ReaderState::Records(opener) = &self.state else {
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
        let ReaderState::Records(opener) = &mut self.state else {
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
            self.state = ReaderState::Done;
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
        self.state = ReaderState::Failed(error);
        self.buffer.wipe();
        self.filled = 0;
        self.pos = 0;
        self.end = 0;
        self.carry_at = 0;
        Err(io::Error::from(error))
    }
}

impl<R: Read> Read for Reader<R> {
    /// Fills `out` with verified data: what is left of the record opened
    /// last, else the next record's, read, verified and decrypted (straight
    /// into `out` when it has room for the whole record).
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return match self.state {
                ReaderState::Failed(error) => Err(io::Error::from(error)),
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
                ReaderState::Failed(error) => return Err(io::Error::from(error)),
                ReaderState::Done => return Ok(0),
                ReaderState::Header { .. } => self.read_header()?,
                // A record of padding only gives no data: go on to the next.
                ReaderState::Records(_) => match self.open_record(out)? {
                    0 => continue,
                    n => return Ok(n),
                },
            }
        }
    }
}

impl<R: Read> core::fmt::Debug for Reader<R> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let state = match self.state {
            ReaderState::Header { .. } => "header",
            ReaderState::Records(_) => "records",
            ReaderState::Done => "done",
            ReaderState::Failed(_) => "failed",
        };
        f.debug_struct("Reader")
            .field("state", &state)
            .field("max_record_size", &self.max_record_size)
            .finish_non_exhaustive()
    }
}
