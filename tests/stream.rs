//! `hardware_aead::stream`: the segment layer against RustCrypto `aead-stream`
//! 0.6 (both directions, every key type), and the `io` adapters against
//! every attack on a stream the issue lists: truncation at every byte,
//! dropped, duplicated, reordered and foreign segments, appended bytes, a
//! changed header, a changed segment size. In every failing case the test
//! also checks that nothing unverified came out.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use std::io::{self, BufRead, Read, Write};

use aead_stream::{DecryptorBE32, EncryptorBE32};
use hardware_aead::stream::{
    DecryptingWriter, Decryptor, Encryptor, MAX_SEGMENT_SIZE, Reader, Writer,
};
use hardware_aead::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};
use hardware_aead::{Error, aes_gcm, aes_gcm_siv};

/// Deterministic test bytes.
fn bytes(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
        .collect()
}

/// The segments a test stream is cut into: lengths 0, 1, 15, 16, 17, 255, 4096.
const SEGMENTS: [usize; 7] = [0, 1, 15, 16, 17, 255, 4096];

/// Seals `SEGMENTS` with ours, opens with `aead-stream`, and the other way
/// round; both sides' bytes must be equal.
macro_rules! interop {
    ($name:ident, $ours:ty, $theirs:ty, $key_len:literal, $prefix_len:literal) => {
        #[test]
        fn $name() {
            use aead_stream::aead::KeyInit;
            let key = bytes($key_len, 3);
            let prefix = bytes($prefix_len, 9);
            let ours = <$ours>::new_from_slice(&key).unwrap(); // the inherent one, not KeyInit's
            let theirs = <$theirs>::new_from_slice(&key).unwrap();

            let mut ours_enc = Encryptor::new(&ours, &prefix).unwrap();
            let mut theirs_enc = EncryptorBE32::from_aead(
                <$theirs>::new_from_slice(&key).unwrap(),
                prefix.as_slice().try_into().unwrap(),
            );
            let mut sealed = Vec::new();
            for (i, &len) in SEGMENTS.iter().enumerate() {
                let plain = bytes(len, i as u8);
                let aad = bytes(i, 0x40);
                let a = ours_enc.seal_next(&aad, &plain).unwrap();
                let payload = aead_stream::aead::Payload {
                    msg: &plain,
                    aad: &aad,
                };
                let b = theirs_enc.encrypt_next(payload).unwrap();
                assert_eq!(a, b, "segment {i}");
                sealed.push(a);
            }
            let last_plain = bytes(33, 0xee);
            let a = ours_enc.seal_last(b"end", &last_plain).unwrap();
            let payload = aead_stream::aead::Payload {
                msg: &last_plain,
                aad: b"end",
            };
            let b = theirs_enc.encrypt_last(payload).unwrap();
            assert_eq!(a, b, "last segment");

            // Theirs opens ours; ours opens theirs (the same bytes, checked above).
            let mut theirs_dec =
                DecryptorBE32::from_aead(theirs, prefix.as_slice().try_into().unwrap());
            let mut ours_dec = Decryptor::new(&ours, &prefix).unwrap();
            for (i, segment) in sealed.iter().enumerate() {
                let aad = bytes(i, 0x40);
                let payload = aead_stream::aead::Payload {
                    msg: segment,
                    aad: &aad,
                };
                let b = theirs_dec.decrypt_next(payload).unwrap();
                assert_eq!(ours_dec.open_next(&aad, segment).unwrap(), b);
                assert_eq!(b, bytes(SEGMENTS[i], i as u8));
            }
            let payload = aead_stream::aead::Payload {
                msg: &a,
                aad: b"end",
            };
            assert_eq!(theirs_dec.decrypt_last(payload).unwrap(), last_plain);
            assert_eq!(ours_dec.open_last(b"end", &a).unwrap(), last_plain);
        }
    };
}

interop!(
    interop_aes128_gcm,
    aes_gcm::Aes128Gcm,
    ::aes_gcm::Aes128Gcm,
    16,
    7
);
interop!(
    interop_aes256_gcm,
    aes_gcm::Aes256Gcm,
    ::aes_gcm::Aes256Gcm,
    32,
    7
);
interop!(
    interop_aes128_gcm_siv,
    aes_gcm_siv::Aes128GcmSiv,
    ::aes_gcm_siv::Aes128GcmSiv,
    16,
    7
);
interop!(
    interop_aes256_gcm_siv,
    aes_gcm_siv::Aes256GcmSiv,
    ::aes_gcm_siv::Aes256GcmSiv,
    32,
    7
);
interop!(
    interop_xaes256_gcm,
    Xaes256Gcm,
    ::xaes_256_gcm::Xaes256Gcm,
    32,
    19
);
// AEGIS: 16- and 32-byte nonces (11- and 27-byte prefixes), both tag
// lengths, against the `aegis` crate's `aead` 0.6 types.
interop!(
    interop_aegis128l_16,
    hardware_aead::aegis::Aegis128L<16>,
    ::aegis::compat::rustcrypto_traits_06::Aegis128L<16>,
    16,
    11
);
interop!(
    interop_aegis128x4_32,
    hardware_aead::aegis::Aegis128X4<32>,
    ::aegis::compat::rustcrypto_traits_06::Aegis128X4<32>,
    16,
    11
);
interop!(
    interop_aegis256_32,
    hardware_aead::aegis::Aegis256<32>,
    ::aegis::compat::rustcrypto_traits_06::Aegis256<32>,
    32,
    27
);
interop!(
    interop_aegis256x2_16,
    hardware_aead::aegis::Aegis256X2<16>,
    ::aegis::compat::rustcrypto_traits_06::Aegis256X2<16>,
    32,
    27
);

#[test]
fn to_and_in_place_forms_match_the_allocating_ones() {
    let key = aes_gcm::Aes256Gcm::new(&[1; 32]).unwrap();
    let prefix = [2u8; 7];
    let plain = bytes(100, 5);
    let mut a = Encryptor::new(&key, &prefix).unwrap();
    let mut b = Encryptor::new(&key, &prefix).unwrap();
    let mut c = Encryptor::new(&key, &prefix).unwrap();
    for _ in 0..3 {
        let sealed = a.seal_next(b"h", &plain).unwrap();
        let mut out = vec![0u8; 116];
        assert_eq!(b.seal_next_to(b"h", &plain, &mut out).unwrap(), 116);
        let mut buffer = plain.clone();
        let tag = c.seal_next_in_place(b"h", &mut buffer).unwrap();
        buffer.extend_from_slice(&tag);
        assert_eq!(sealed, out);
        assert_eq!(sealed, buffer);
    }
    let sealed = a.seal_last(b"h", &plain).unwrap();
    let mut out = vec![0u8; 116];
    b.seal_last_to(b"h", &plain, &mut out).unwrap();
    let mut buffer = plain.clone();
    let tag = c.seal_last_in_place(b"h", &mut buffer).unwrap();
    buffer.extend_from_slice(&tag);
    assert_eq!(sealed, out);
    assert_eq!(sealed, buffer);
}

#[test]
fn segment_errors_are_typed_and_leave_the_position() {
    let key = aes_gcm::Aes128Gcm::new(&[1; 16]).unwrap();
    let mut enc = Encryptor::new(&key, &[0; 7]).unwrap();
    let mut small = [0u8; 10];
    assert_eq!(
        enc.seal_next_to(b"", b"twelve bytes", &mut small),
        Err(Error::BufferTooSmall { needed: 28 })
    );
    assert_eq!(enc.position(), 0, "a failed seal does not use a position");
    let first = enc.seal_next(b"", b"one").unwrap();
    let mut dec = Decryptor::new(&key, &[0; 7]).unwrap();
    assert_eq!(dec.open_next(b"", &first[..15]), Err(Error::Truncated));
    let mut forged = first.clone();
    forged[0] ^= 1;
    let mut out = [0xffu8; 3];
    assert_eq!(
        dec.open_next_to(b"", &forged, &mut out),
        Err(Error::Authentication)
    );
    assert_eq!(out, [0; 3], "forged plaintext wiped");
    assert_eq!(dec.position(), 0);
    assert_eq!(dec.open_next(b"", &first).unwrap(), b"one");
    assert_eq!(dec.position(), 1);
    // A segment under another prefix (another stream) does not verify.
    let other = Encryptor::new(&key, &[1; 7])
        .unwrap()
        .seal_next(b"", b"one")
        .unwrap();
    let mut dec = Decryptor::new(&key, &[0; 7]).unwrap();
    assert_eq!(dec.open_next(b"", &other), Err(Error::Authentication));
}

/// Writes `plain` through a `Writer` in pieces of `chunk` bytes.
fn seal_stream(key: &Xaes256Gcm, segment: usize, plain: &[u8], chunk: usize) -> Vec<u8> {
    let mut writer = Writer::with_segment_size(key, segment, Vec::new()).unwrap();
    for piece in plain.chunks(chunk.max(1)) {
        writer.write_all(piece).unwrap();
    }
    writer.finish().unwrap()
}

/// Reads a stream to its end in reads of `chunk` bytes; returns what came
/// out and the error that ended it, if any.
fn open_stream(key: &Xaes256Gcm, sealed: &[u8], chunk: usize) -> (Vec<u8>, Option<io::Error>) {
    let mut reader = Reader::new(key, sealed);
    let mut out = Vec::new();
    let mut piece = vec![0u8; chunk];
    loop {
        match reader.read(&mut piece) {
            Ok(0) => return (out, None),
            Ok(n) => out.extend_from_slice(&piece[..n]),
            Err(e) => return (out, Some(e)),
        }
    }
}

/// Pushes a stream through a `DecryptingWriter` in writes of `chunk` bytes;
/// returns the plaintext it wrote and the error that ended it, if any.
fn open_pushed(key: &Xaes256Gcm, sealed: &[u8], chunk: usize) -> (Vec<u8>, Option<io::Error>) {
    let mut out = Vec::new();
    let mut opener = DecryptingWriter::new(key, &mut out);
    let mut error = None;
    for piece in sealed.chunks(chunk) {
        if let Err(e) = opener.write_all(piece) {
            error = Some(e);
            break;
        }
    }
    let error = match error {
        Some(e) => Some(e),
        None => opener.finish().err(),
    };
    (out, error)
}

/// The crate error inside an `io::Error`.
fn crate_error(e: &io::Error) -> Option<Error> {
    e.get_ref()?.downcast_ref::<Error>().copied()
}

/// Opens a damaged stream and checks it fails with a crate error, having
/// released only whole verified segments of the original plaintext.
fn assert_rejected(key: &Xaes256Gcm, sealed: &[u8], segment: usize, plain: &[u8], what: &str) {
    for chunk in [1, 7, segment + 3, 1 << 20] {
        let (out, error) = open_stream(key, sealed, chunk);
        let error = error.unwrap_or_else(|| panic!("{what}: accepted (read size {chunk})"));
        assert!(crate_error(&error).is_some(), "{what}: {error:?}");
        assert!(
            out.len() % segment == 0,
            "{what}: a partial segment released"
        );
        assert_eq!(out, plain[..out.len()], "{what}: released bytes differ");
        assert!(
            out.len() < plain.len().max(1),
            "{what}: the whole stream came out"
        );
    }
}

#[test]
fn writer_and_reader_round_trip() {
    let key = Xaes256Gcm::new(&[7; 32]).unwrap();
    for segment in [1, 16, 100, 4096, 65536] {
        for len in [
            0,
            1,
            segment - 1,
            segment,
            segment + 1,
            3 * segment,
            3 * segment + 5,
        ] {
            let plain = bytes(len, segment as u8);
            for chunk in [1, 13, segment, 3 * segment + 1] {
                if chunk == 1 && len > 50_000 {
                    continue; // byte-at-a-time writes of 200 KB add nothing
                }
                let sealed = seal_stream(&key, segment, &plain, chunk);
                let segments = len.div_ceil(segment).max(1);
                assert_eq!(
                    sealed.len(),
                    23 + len + 16 * segments,
                    "segment {segment} len {len}"
                );
                for read in [1, 5, segment + 17, 1 << 20] {
                    if read == 1 && len > 50_000 {
                        continue;
                    }
                    let (out, error) = open_stream(&key, &sealed, read);
                    assert!(error.is_none(), "{error:?}");
                    assert_eq!(out, plain, "segment {segment} len {len} read {read}");
                    let (out, error) = open_pushed(&key, &sealed, read);
                    assert!(error.is_none(), "{error:?}");
                    assert_eq!(out, plain, "segment {segment} len {len} pushed {read}");
                }
            }
        }
    }
}

#[test]
fn every_stream_gets_its_own_prefix() {
    let key = Xaes256Gcm::new(&[7; 32]).unwrap();
    let a = seal_stream(&key, 64, b"same", 4);
    let b = seal_stream(&key, 64, b"same", 4);
    assert_ne!(a[..19], b[..19]);
    assert_ne!(a[23..], b[23..]);
}

#[test]
fn truncation_at_every_byte_is_rejected() {
    let key = Xaes256Gcm::new(&[8; 32]).unwrap();
    let segment = 16;
    for len in [0, 10, 16, 32, 40] {
        let plain = bytes(len, 1);
        let sealed = seal_stream(&key, segment, &plain, 5);
        for cut in 0..sealed.len() {
            assert_rejected(
                &key,
                &sealed[..cut],
                segment,
                &plain,
                &format!("len {len} cut at {cut}"),
            );
        }
    }
}

#[test]
fn every_flipped_bit_is_rejected() {
    let key = Xaes256Gcm::new(&[9; 32]).unwrap();
    let plain = bytes(40, 2);
    let sealed = seal_stream(&key, 16, &plain, 40);
    for i in 0..sealed.len() {
        for bit in [0x01, 0x80] {
            let mut forged = sealed.clone();
            forged[i] ^= bit;
            assert_rejected(&key, &forged, 16, &plain, &format!("byte {i} bit {bit:#x}"));
        }
    }
}

/// The segments of a stream sealed with segment size 16: header, then each
/// segment's bytes.
fn split(sealed: &[u8]) -> (Vec<u8>, Vec<Vec<u8>>) {
    let (header, body) = sealed.split_at(23);
    (
        header.to_vec(),
        body.chunks(32).map(<[u8]>::to_vec).collect(),
    )
}

#[test]
fn segment_surgery_is_rejected() {
    let key = Xaes256Gcm::new(&[10; 32]).unwrap();
    let plain = bytes(16 * 4 + 8, 3);
    let sealed = seal_stream(&key, 16, &plain, 100);
    let (header, segments) = split(&sealed);
    assert_eq!(segments.len(), 5);
    let join = |parts: &[&Vec<u8>]| -> Vec<u8> {
        let mut out = header.clone();
        for part in parts {
            out.extend_from_slice(part);
        }
        out
    };
    let s = &segments;
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("dropped first", join(&[&s[1], &s[2], &s[3], &s[4]])),
        ("dropped middle", join(&[&s[0], &s[1], &s[3], &s[4]])),
        ("dropped last", join(&[&s[0], &s[1], &s[2], &s[3]])),
        (
            "duplicated",
            join(&[&s[0], &s[1], &s[1], &s[2], &s[3], &s[4]]),
        ),
        (
            "duplicated last",
            join(&[&s[0], &s[1], &s[2], &s[3], &s[4], &s[4]]),
        ),
        ("reordered", join(&[&s[0], &s[2], &s[1], &s[3], &s[4]])),
        ("appended byte", [sealed.clone(), vec![0]].concat()),
        ("appended segment", [sealed.clone(), s[0].clone()].concat()),
    ];
    for (what, forged) in cases {
        assert_rejected(&key, &forged, 16, &plain, what);
    }

    // A segment from another stream under the same key (its own prefix).
    let other = seal_stream(&key, 16, &plain, 100);
    let (_, other_segments) = split(&other);
    let mixed = join(&[&s[0], &other_segments[1], &s[2], &s[3], &s[4]]);
    assert_rejected(&key, &mixed, 16, &plain, "segment from another stream");
    // The other stream's segments under this stream's header.
    let refs: Vec<&Vec<u8>> = other_segments.iter().collect();
    assert_rejected(&key, &join(&refs), 16, &plain, "another stream's body");
}

#[test]
fn a_changed_header_is_rejected() {
    let key = Xaes256Gcm::new(&[11; 32]).unwrap();
    let plain = bytes(100, 4);
    let sealed = seal_stream(&key, 16, &plain, 100);
    // Every header byte, including the segment size (bytes 19..23).
    for i in 0..23 {
        let mut forged = sealed.clone();
        forged[i] ^= 0x04;
        assert_rejected(&key, &forged, 16, &plain, &format!("header byte {i}"));
    }
    // A segment size the reader refuses before reading further.
    for size in [0u32, MAX_SEGMENT_SIZE as u32 + 1, u32::MAX] {
        let mut forged = sealed.clone();
        forged[19..23].copy_from_slice(&size.to_be_bytes());
        let (out, error) = open_stream(&key, &forged, 64);
        assert!(out.is_empty());
        assert_eq!(
            crate_error(&error.unwrap()),
            Some(Error::InvalidSegmentSize)
        );
    }
    // Re-cut under a different segment size claim (32 instead of 16):
    let mut forged = sealed.clone();
    forged[19..23].copy_from_slice(&32u32.to_be_bytes());
    assert_rejected(&key, &forged, 16, &plain, "segment size 32");
    // Under another key.
    let other = Xaes256Gcm::new(&[12; 32]).unwrap();
    let (out, error) = open_stream(&other, &sealed, 64);
    assert!(out.is_empty());
    assert_eq!(crate_error(&error.unwrap()), Some(Error::Authentication));
}

#[test]
fn failed_reader_is_poisoned() {
    let key = Xaes256Gcm::new(&[13; 32]).unwrap();
    let plain = bytes(64, 5);
    let mut sealed = seal_stream(&key, 16, &plain, 64);
    sealed[23 + 32] ^= 1; // the second segment
    // Reads smaller than a segment are served from the reader's buffer
    // after the segment verified: a forged one leaves the caller's buffer
    // untouched.
    let mut reader = Reader::new(&key, &sealed[..]);
    let mut out = [0u8; 8];
    assert_eq!(reader.read(&mut out).unwrap(), 8);
    assert_eq!(out[..], plain[..8]);
    assert_eq!(reader.read(&mut out).unwrap(), 8);
    assert_eq!(out[..], plain[8..16]);
    let mut out = [0xaau8; 8];
    let e = reader.read(&mut out).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    assert_eq!(crate_error(&e), Some(Error::Authentication));
    assert_eq!(out, [0xaa; 8], "the caller's buffer untouched");
    for _ in 0..3 {
        let e = reader.read(&mut out).unwrap_err();
        assert_eq!(crate_error(&e), Some(Error::Authentication));
    }

    // Reads that hold a whole segment's plaintext get it opened straight
    // into the caller's buffer: on failure that area is left all zero.
    let mut reader = Reader::new(&key, &sealed[..]);
    let mut out = [0xaau8; 100];
    assert_eq!(reader.read(&mut out).unwrap(), 16);
    assert_eq!(out[..16], plain[..16]);
    assert_eq!(out[16..], [0xaa; 84], "nothing written past the plaintext");
    let mut out = [0xaau8; 100];
    let e = reader.read(&mut out).unwrap_err();
    assert_eq!(crate_error(&e), Some(Error::Authentication));
    assert_eq!(
        out[..16],
        [0; 16],
        "the forged segment wiped from the caller's buffer"
    );
    assert_eq!(out[16..], [0xaa; 84]);
}

/// Reads a stream to its end through `BufRead` (`fill_buf`, then `consume`
/// of at most `take` bytes); returns what came out and the error that ended
/// it, if any.
fn open_buffered(key: &Xaes256Gcm, sealed: &[u8], take: usize) -> (Vec<u8>, Option<io::Error>) {
    let mut reader = Reader::new(key, sealed);
    let mut out = Vec::new();
    loop {
        match reader.fill_buf() {
            Ok([]) => return (out, None),
            Ok(plain) => {
                let n = plain.len().min(take);
                out.extend_from_slice(&plain[..n]);
                reader.consume(n);
            }
            Err(e) => return (out, Some(e)),
        }
    }
}

#[test]
fn buf_read_serves_verified_segments() {
    let key = Xaes256Gcm::new(&[15; 32]).unwrap();
    for segment in [1, 16, 100, 4096] {
        for len in [0, 1, segment, 3 * segment + 5] {
            let plain = bytes(len, 3);
            let sealed = seal_stream(&key, segment, &plain, 7);
            for take in [1, 5, segment, usize::MAX] {
                let (out, error) = open_buffered(&key, &sealed, take);
                assert!(error.is_none(), "{error:?}");
                assert_eq!(out, plain, "segment {segment} len {len} take {take}");
            }
            // `read` and `BufRead` mixed on one reader.
            let mut reader = Reader::new(&key, &sealed[..]);
            let mut out = vec![0u8; len.min(3)];
            reader.read_exact(&mut out).unwrap();
            reader.read_to_end(&mut out).unwrap();
            assert_eq!(out, plain);
            assert!(reader.fill_buf().unwrap().is_empty(), "the end, again");
        }
    }
    let text = b"first line\nsecond\n\nlast, no newline";
    let sealed = seal_stream(&key, 4, text, 3);
    let lines: Vec<String> = Reader::new(&key, &sealed[..])
        .lines()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(lines, ["first line", "second", "", "last, no newline"]);

    // A forged segment: only whole verified segments came out, and the
    // reader is poisoned.
    let plain = bytes(64, 5);
    let mut sealed = seal_stream(&key, 16, &plain, 64);
    sealed[23 + 32 + 3] ^= 1; // the second segment
    for take in [1, 5, 16] {
        let (out, error) = open_buffered(&key, &sealed, take);
        assert_eq!(out, plain[..16], "take {take}");
        assert_eq!(crate_error(&error.unwrap()), Some(Error::Authentication));
    }
    let mut reader = Reader::new(&key, &sealed[..]);
    assert_eq!(reader.fill_buf().unwrap(), &plain[..16]);
    reader.consume(100); // more than there is: the segment is used up
    let e = reader.fill_buf().unwrap_err();
    assert_eq!(crate_error(&e), Some(Error::Authentication));
    let e = reader.fill_buf().unwrap_err();
    assert_eq!(crate_error(&e), Some(Error::Authentication), "poisoned");
    assert_rejected(&key, &sealed, 16, &plain, "forged, through read");
}

#[test]
fn empty_stream_and_truncated_header() {
    let key = Xaes256Gcm::new(&[14; 32]).unwrap();
    let sealed = seal_stream(&key, 1000, b"", 1);
    assert_eq!(sealed.len(), 23 + 16);
    assert_eq!(open_stream(&key, &sealed, 10).0, b"");
    let (_, error) = open_stream(&key, &sealed[..10], 10);
    let error = error.unwrap();
    assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
    assert_eq!(crate_error(&error), Some(Error::Truncated));
    let (_, error) = open_stream(&key, &sealed[..23], 10);
    assert_eq!(crate_error(&error.unwrap()), Some(Error::Truncated));
}

#[test]
fn writer_dropped_without_finish_is_rejected() {
    let key = Xaes256Gcm::new(&[15; 32]).unwrap();
    let mut sink = Vec::new();
    {
        let mut writer = Writer::with_segment_size(&key, 16, &mut sink).unwrap();
        writer.write_all(&bytes(50, 6)).unwrap();
        // dropped here
    }
    assert_eq!(
        sink.len(),
        23 + 3 * 32,
        "full segments written, the rest held back"
    );
    let plain = bytes(50, 6);
    assert_rejected(&key, &sink, 16, &plain, "no finish");
}

#[test]
fn segment_size_limits() {
    let key = Xaes256Gcm::new(&[16; 32]).unwrap();
    for size in [0, MAX_SEGMENT_SIZE + 1] {
        // The constructor's error is the crate's (it does no I/O); as an
        // `io::Error` it is `InvalidInput`.
        let e = Writer::with_segment_size(&key, size, Vec::new()).unwrap_err();
        assert_eq!(e, Error::InvalidSegmentSize);
        assert_eq!(io::Error::from(e).kind(), io::ErrorKind::InvalidInput);
    }
    let aes = aes_gcm::Aes128Gcm::new(&[1; 16]).unwrap();
    let e = Writer::with_prefix(&aes, &[0; 19], 16, Vec::new()).unwrap_err();
    assert_eq!(e, Error::InvalidPrefixLength { expected: 7 });
}

/// `plain` through `Writer` in 100-byte segments under `key` and `prefix`:
/// the stream is the header followed by the segment layer's segments sealed
/// with the header as AAD, and `Reader` gives `plain` back. Returns the
/// stream.
fn writer_is_the_segment_layer<K: hardware_aead::AeadKey>(
    key: &K,
    prefix: &[u8],
    plain: &[u8],
) -> Vec<u8> {
    let mut writer = Writer::with_prefix(key, prefix, 100, Vec::new()).unwrap();
    writer.write_all(plain).unwrap();
    let sealed = writer.finish().unwrap();
    let header = &sealed[..prefix.len() + 4];
    let mut enc = Encryptor::new(key, prefix).unwrap();
    let mut expected = header.to_vec();
    let pieces = plain.chunks(100).count();
    for (i, piece) in plain.chunks(100).enumerate() {
        if i + 1 == pieces {
            expected.extend(enc.seal_last(header, piece).unwrap());
            break;
        }
        expected.extend(enc.seal_next(header, piece).unwrap());
    }
    assert_eq!(sealed, expected);
    let mut out = Vec::new();
    Reader::new(key, &sealed[..]).read_to_end(&mut out).unwrap();
    assert_eq!(out, plain);
    sealed
}

#[test]
fn other_key_types_through_the_adapters() {
    let key = aes_gcm_siv::Aes256GcmSiv::new(&[1; 32]).unwrap();
    writer_is_the_segment_layer(&key, &[5; 7], &bytes(1000, 8));
}

/// AEGIS-256 with 32-byte tags through the adapters: the longest prefix (27
/// bytes) and a 32-byte tag per segment; the same bytes as the segment layer,
/// and a flipped bit in the last segment's tag refused with nothing of that
/// segment released.
#[test]
fn aegis_through_the_adapters() {
    let key = hardware_aead::aegis::Aegis256::<32>::new(&[2; 32]).unwrap();
    let plain = bytes(1000, 4);
    let sealed = writer_is_the_segment_layer(&key, &[6; 27], &plain);
    assert_eq!(sealed.len(), 31 + 1000 + 10 * 32);

    let mut forged = sealed.clone();
    *forged.last_mut().unwrap() ^= 1;
    let mut out = Vec::new();
    let err = Reader::new(&key, &forged[..])
        .read_to_end(&mut out)
        .unwrap_err();
    assert_eq!(crate_error(&err), Some(Error::Authentication));
    assert_eq!(out, plain[..900], "only the verified segments came out");
}

/// KC-XAES-256-GCM's 48-byte tags through the segment layer and the
/// adapters: the same bytes both ways, every segment 48 bytes longer than
/// its plaintext, and a cut, a flipped commitment bit or a stream read under
/// another key refused with nothing released.
#[test]
fn key_committing_xaes_through_segments_and_adapters() {
    let key = KcXaes256Gcm::new(&[1; 32]).unwrap();
    let plain = bytes(1000, 8);
    let mut writer = Writer::with_prefix(&key, &[5; 19], 100, Vec::new()).unwrap();
    writer.write_all(&plain).unwrap();
    let sealed = writer.finish().unwrap();
    assert_eq!(sealed.len(), 23 + 1000 + 10 * 48);
    let header = &sealed[..23];
    let mut enc = Encryptor::new(&key, &[5; 19]).unwrap();
    let mut expected = header.to_vec();
    for (i, piece) in plain.chunks(100).enumerate() {
        if i == 9 {
            expected.extend(enc.seal_last(header, piece).unwrap());
            break;
        }
        let mut buffer = piece.to_vec();
        let tag = enc.seal_next_in_place(header, &mut buffer).unwrap();
        expected.extend(buffer);
        expected.extend(tag);
    }
    assert_eq!(sealed, expected);
    for chunk in [1, 7, 148, 4096] {
        let mut out = Vec::new();
        let mut reader = io::BufReader::with_capacity(chunk, Reader::new(&key, &sealed[..]));
        reader.read_to_end(&mut out).unwrap();
        assert_eq!(out, plain, "read in pieces of {chunk}");
    }
    let mut dec = Decryptor::new(&key, &[5; 19]).unwrap();
    let first = &sealed[23..23 + 148];
    let (text, tag) = first.split_at(100);
    let mut buffer = text.to_vec();
    dec.open_next_in_place(header, &mut buffer, tag.try_into().unwrap())
        .unwrap();
    assert_eq!(buffer, plain[..100]);

    let mut flipped = sealed.clone();
    flipped[23 + 147] ^= 1; // the first segment's last commitment byte
    let other = KcXaes256Gcm::new(&[2; 32]).unwrap();
    for (what, bytes, key) in [
        ("flipped commitment", &flipped[..], &key),
        ("cut in the last segment", &sealed[..sealed.len() - 1], &key),
        ("another key", &sealed[..], &other),
    ] {
        let mut out = Vec::new();
        let result = Reader::new(key, bytes).read_to_end(&mut out);
        assert!(result.is_err(), "{what}");
        assert!(
            plain.starts_with(&out) && out.len() % 100 == 0,
            "{what}: only verified segments came out"
        );
    }
}

/// A writer that fails after `budget` bytes.
struct FailingWriter {
    budget: usize,
}

impl Write for FailingWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.budget == 0 {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "sink full"));
        }
        let n = data.len().min(self.budget);
        self.budget -= n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn inner_writer_errors_pass_through_and_poison() {
    let key = Xaes256Gcm::new(&[17; 32]).unwrap();
    // The constructor writes nothing; the header goes out on the first
    // flush (or segment), where the inner writer's error surfaces and
    // poisons the writer.
    let mut writer = Writer::new(&key, FailingWriter { budget: 5 }).unwrap();
    let e = writer.flush().unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
    assert_eq!(e.to_string(), "sink full");
    assert!(writer.write(&[0; 1]).is_err(), "poisoned");
    assert!(writer.flush().is_err(), "poisoned");
    assert!(writer.finish().is_err(), "poisoned");

    let mut writer = Writer::with_segment_size(&key, 16, FailingWriter { budget: 30 }).unwrap();
    let e = writer.write_all(&[0; 40]).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
    assert!(writer.write(&[0; 1]).is_err(), "poisoned");
    assert!(writer.finish().is_err(), "poisoned");
}

/// A reader that hands out one byte per call and fails every third call
/// with `Interrupted` or `WouldBlock`.
struct Trickle<'a> {
    data: &'a [u8],
    calls: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        match self.calls % 6 {
            2 => return Err(io::ErrorKind::Interrupted.into()),
            5 => return Err(io::Error::new(io::ErrorKind::WouldBlock, "not yet")),
            _ => {}
        }
        let Some((&first, rest)) = self.data.split_first() else {
            return Ok(0);
        };
        if out.is_empty() {
            return Ok(0);
        }
        out[0] = first;
        self.data = rest;
        Ok(1)
    }
}

#[test]
fn inner_reader_errors_pass_through_and_can_be_retried() {
    let key = Xaes256Gcm::new(&[18; 32]).unwrap();
    let plain = bytes(77, 9);
    let sealed = seal_stream(&key, 16, &plain, 77);
    let mut reader = Reader::new(
        &key,
        Trickle {
            data: &sealed,
            calls: 0,
        },
    );
    let mut out = Vec::new();
    let mut piece = [0u8; 10];
    let mut would_block = 0;
    loop {
        match reader.read(&mut piece) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&piece[..n]),
            Err(e) => {
                assert_eq!(e.kind(), io::ErrorKind::WouldBlock);
                assert_eq!(e.to_string(), "not yet", "the inner error unchanged");
                would_block += 1;
            }
        }
    }
    assert!(would_block > 10);
    assert_eq!(out, plain);
}

#[test]
fn owned_key_handles() {
    let key = std::sync::Arc::new(Xaes256Gcm::new(&[19; 32]).unwrap());
    let handle = std::thread::spawn({
        let key = key.clone();
        move || {
            let mut writer = Writer::new(key, Vec::new()).unwrap();
            writer.write_all(b"from another thread").unwrap();
            writer.finish().unwrap()
        }
    });
    let sealed = handle.join().unwrap();
    let mut out = String::new();
    Reader::new(Box::new(Xaes256Gcm::new(&[19; 32]).unwrap()), &sealed[..])
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(out, "from another thread");
    let _ = key;
}

#[test]
fn decrypting_writer_errors() {
    let key = Xaes256Gcm::new(&[20; 32]).unwrap();
    let plain = bytes(40, 1);
    let sealed = seal_stream(&key, 16, &plain, 40);
    // An error of `W` passes through and breaks the writer.
    let mut opener = DecryptingWriter::new(&key, FailingWriter { budget: 20 });
    let e = opener.write_all(&sealed).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
    assert!(opener.write(&[0]).is_err());
    assert!(opener.finish().is_err());
    // A stream that ends inside its header.
    let mut out = Vec::new();
    let mut opener = DecryptingWriter::new(&key, &mut out);
    opener.write_all(&sealed[..10]).unwrap();
    let e = opener.finish().unwrap_err();
    assert_eq!(crate_error(&e), Some(Error::Truncated));
    // A forged segment poisons it.
    let mut forged = sealed.clone();
    forged[23] ^= 1;
    let mut out = Vec::new();
    let mut opener = DecryptingWriter::new(&key, &mut out);
    let e = opener.write_all(&forged).unwrap_err();
    assert_eq!(crate_error(&e), Some(Error::Authentication));
    let e = opener.write(&[0]).unwrap_err();
    assert_eq!(crate_error(&e), Some(Error::Authentication));
    drop(opener);
    assert!(out.is_empty());
}
