//! RFC 8188 `aes128gcm` (`hardware_aead::ece`): the RFC's examples byte for
//! byte, round trips over record sizes and lengths (one-shot, `Writer` and
//! `Reader` agreeing byte for byte), every rejection the RFC requires with
//! its typed error, truncation at every offset and a forged byte anywhere
//! rejected with nothing unverified released, I/O errors passed through.
#![cfg(feature = "ece")]
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use std::io::{self, Read, Write};

use hardware_aead::aes_gcm::Aes128Gcm;
use hardware_aead::{Error, ece};

/// Decodes unpadded base64url (RFC 4648 §5), as the RFC's examples are written.
fn b64url(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'-' => 62,
            b'_' => 63,
            _ => panic!("not base64url: {c}"),
        }
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        acc = acc << 6 | value(c);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

/// A deterministic plaintext of `len` bytes, different for every `seed`.
fn plaintext(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_be_bytes()[0] ^ seed)
        .collect()
}

/// The decoder's error as the crate's `Error`, or `None` for an I/O error
/// that is not ours.
fn ours(err: &io::Error) -> Option<Error> {
    err.get_ref()
        .and_then(|e| e.downcast_ref::<Error>())
        .copied()
}

/// Reads `body` through a `Reader` whose reader gives `step` bytes per call;
/// returns what it released and the error it ended with, if any.
fn decode_stepwise(ikm: &[u8], body: &[u8], step: usize) -> (Vec<u8>, Option<io::Error>) {
    let mut decoder = ece::Reader::new(ikm, Trickle { data: body, step });
    let mut released = Vec::new();
    let mut chunk = [0u8; 37];
    loop {
        match decoder.read(&mut chunk) {
            Ok(0) => return (released, None),
            Ok(n) => released.extend_from_slice(&chunk[..n]),
            Err(e) => return (released, Some(e)),
        }
    }
}

/// A reader that returns at most `step` bytes per call.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Encrypts through a `Writer` with writes of `step` bytes.
fn encode_stepwise(
    ikm: &[u8],
    salt: &[u8; 16],
    keyid: &[u8],
    rs: u32,
    padding: u64,
    data: &[u8],
    step: usize,
) -> Vec<u8> {
    let mut encoder =
        ece::Writer::with_padding(ikm, salt, keyid, rs, padding, Vec::new()).expect("encoder");
    for chunk in data.chunks(step.max(1)) {
        encoder.write_all(chunk).expect("write");
    }
    encoder.finish().expect("finish")
}

/// Builds a body from record plaintexts given whole (data, delimiter and
/// padding as the test wants them), with the RFC's key schedule written out
/// here from `hkdf` and `sha2` directly: a model independent of `ece`.
fn raw_body(ikm: &[u8], salt: &[u8; 16], rs: u32, keyid: &[u8], records: &[&[u8]]) -> Vec<u8> {
    let hk = hkdf::Hkdf::<sha2::Sha256>::new(Some(salt), ikm);
    let mut cek = [0u8; 16];
    let mut base = [0u8; 12];
    hk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
        .unwrap();
    hk.expand(b"Content-Encoding: nonce\0", &mut base).unwrap();
    let key = Aes128Gcm::new(&cek).unwrap();
    let mut body = salt.to_vec();
    body.extend_from_slice(&rs.to_be_bytes());
    body.push(keyid.len() as u8);
    body.extend_from_slice(keyid);
    for (seq, record) in records.iter().enumerate() {
        let mut nonce = base;
        for (n, s) in nonce[4..].iter_mut().zip((seq as u64).to_be_bytes()) {
            *n ^= s;
        }
        body.extend_from_slice(&key.seal(&nonce, b"", record).unwrap());
    }
    body
}

const IKM: [u8; 16] = [0x3c; 16];
const SALT: [u8; 16] = [0xa7; 16];

// ---------------------------------------------------------------- RFC 8188 §3

#[test]
fn rfc8188_3_1_single_record() {
    let ikm = b64url("yqdlZ-tYemfogSmv7Ws5PQ");
    // The RFC's text says 54 octets; its base64url is 53: 21 + 15 + 1 + 16.
    let body = b64url("I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg");
    assert_eq!(body.len(), 53);
    let salt: [u8; 16] = body[..16].try_into().unwrap();
    assert_eq!(salt.to_vec(), b64url("I1BsxtFttlv3u_Oo94xnmw"));

    let sealed = ece::encrypt(&ikm, &salt, b"", 4096, b"I am the walrus").unwrap();
    assert_eq!(sealed, body);
    for step in [1, 4, 100] {
        assert_eq!(
            encode_stepwise(&ikm, &salt, b"", 4096, 0, b"I am the walrus", step),
            body
        );
    }
    assert_eq!(ece::decrypt(&ikm, &body).unwrap(), b"I am the walrus");
    let (released, err) = decode_stepwise(&ikm, &body, 1);
    assert!(err.is_none());
    assert_eq!(released, b"I am the walrus");
}

#[test]
fn rfc8188_3_2_multiple_records_with_padding() {
    let ikm = b64url("BO3ZVPxUlnLORbVGMpbT1Q");
    let body = b64url(
        "uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF\
         1Fvkj6hQPdPHI51OEUKEpgz3SsLWIqS_uA",
    );
    assert_eq!(body.len(), 73);
    assert_eq!(&body[16..23], &[0, 0, 0, 25, 2, b'a', b'1']);
    let salt: [u8; 16] = body[..16].try_into().unwrap();

    // rs 25, keyid "a1", one byte of padding in the first record.
    for step in [1, 7, 8, 15] {
        assert_eq!(
            encode_stepwise(&ikm, &salt, b"a1", 25, 1, b"I am the walrus", step),
            body,
            "writes of {step} bytes"
        );
    }
    assert_eq!(ece::decrypt(&ikm, &body).unwrap(), b"I am the walrus");
    let (released, err) = decode_stepwise(&ikm, &body, 1);
    assert!(err.is_none());
    assert_eq!(released, b"I am the walrus");
    // The same records without padding are a different body.
    assert_ne!(
        ece::encrypt(&ikm, &salt, b"a1", 25, b"I am the walrus").unwrap(),
        body
    );
}

#[test]
fn independent_model_agrees() {
    // The key schedule, nonces and record layout written out in this file
    // give the bytes `ece::encrypt` gives.
    let data = plaintext(40, 1);
    let records: [&[u8]; 3] = [
        &[&data[..15], &[1][..]].concat(),
        &[&data[15..30], &[1][..]].concat(),
        &[&data[30..], &[2][..]].concat(),
    ];
    let model = raw_body(&IKM, &SALT, 32, b"kid", &records);
    assert_eq!(ece::encrypt(&IKM, &SALT, b"kid", 32, &data).unwrap(), model);
}

// ---------------------------------------------------------------- round trips

/// Record sizes from the smallest to 2^16, around the AES block and the
/// crate's batch boundaries.
const RECORD_SIZES: [u32; 14] = [
    18, 19, 20, 33, 34, 64, 145, 273, 1000, 4096, 4113, 16384, 65535, 65536,
];

fn lengths_for(rs: u32) -> Vec<usize> {
    let per = rs as usize - 17;
    let mut lengths = vec![0, 1, 2, 15, 16, 17, per - 1, per, per + 1];
    lengths.extend([2 * per - 1, 2 * per, 2 * per + 1, 3 * per + per / 2]);
    if per < 1000 {
        lengths.extend([7 * per, 7 * per + 3]);
    }
    lengths.sort_unstable();
    lengths.dedup();
    lengths
}

#[test]
fn round_trip_over_record_sizes_and_lengths() {
    for rs in RECORD_SIZES {
        let per = rs as usize - 17;
        for len in lengths_for(rs) {
            let data = plaintext(len, rs as u8);
            let keyid: &[u8] = if len % 2 == 0 { b"" } else { b"key-7" };
            let body = ece::encrypt(&IKM, &SALT, keyid, rs, &data).unwrap();
            // header, data, and 17 bytes per record; at least one record
            let records = len.div_ceil(per).max(1);
            assert_eq!(
                body.len(),
                21 + keyid.len() + len + 17 * records,
                "rs {rs} len {len}"
            );
            assert_eq!(&body[16..20], &rs.to_be_bytes());
            assert_eq!(
                ece::decrypt(&IKM, &body).unwrap(),
                data,
                "rs {rs} len {len}"
            );

            // Writer: writes of several sizes give the same bytes.
            for step in [1, 13, per, per + 5, len.max(1)] {
                if step == 1 && len > 5000 {
                    continue;
                }
                let streamed = encode_stepwise(&IKM, &SALT, keyid, rs, 0, &data, step);
                assert!(
                    streamed == body,
                    "rs {rs} len {len}: Writer with writes of {step}"
                );
            }
            // Reader: one byte at a time, and in large reads.
            if len <= 5000 {
                let (released, err) = decode_stepwise(&IKM, &body, 1);
                assert!(err.is_none(), "rs {rs} len {len}: {err:?}");
                assert!(released == data);
            }
            let mut released = Vec::new();
            ece::Reader::new(&IKM, &body[..])
                .read_to_end(&mut released)
                .unwrap();
            assert!(released == data, "rs {rs} len {len}: Reader");
        }
    }
}

#[test]
fn round_trip_with_padding() {
    for rs in [18, 19, 25, 64, 4096] {
        let most = rs as u64 - 17;
        for padding in [0, 1, most - 1, most, most + 1, 3 * most + 2] {
            for len in [0, 1, 5, 40, 300] {
                let data = plaintext(len, 9);
                let body = encode_stepwise(&IKM, &SALT, b"p", rs, padding, &data, 11);
                // Every record's plaintext is its data, the delimiter and its
                // padding: the padding asked for is all there.
                let record_bytes = (body.len() - 22) as u64;
                let records = record_bytes.div_ceil(u64::from(rs));
                let plain_bytes = record_bytes - 16 * records;
                assert_eq!(
                    plain_bytes,
                    len as u64 + records + padding,
                    "rs {rs} padding {padding} len {len}"
                );
                assert_eq!(ece::decrypt(&IKM, &body).unwrap(), data);
                let (released, err) = decode_stepwise(&IKM, &body, 3);
                assert!(err.is_none());
                assert_eq!(released, data);
                // Same bytes whatever the writes.
                assert_eq!(
                    encode_stepwise(&IKM, &SALT, b"p", rs, padding, &data, 1),
                    body
                );
            }
        }
    }
}

#[test]
fn zero_length_and_no_writes() {
    let body = ece::Writer::new(&IKM, &SALT, b"", 4096, Vec::new())
        .unwrap()
        .finish()
        .unwrap();
    assert_eq!(body, ece::encrypt(&IKM, &SALT, b"", 4096, b"").unwrap());
    assert_eq!(body.len(), 21 + 17);
    assert_eq!(ece::decrypt(&IKM, &body).unwrap(), b"");
    let (released, err) = decode_stepwise(&IKM, &body, 1);
    assert!(err.is_none() && released.is_empty());
}

#[test]
fn huge_record_size_in_header_costs_only_the_body() {
    // rs = 2^32 − 1, allowed by the caller: one record holds everything; the
    // decoder must not reserve the record size up front.
    let data = plaintext(70_000, 3);
    let body = ece::encrypt(&IKM, &SALT, b"", u32::MAX, &data).unwrap();
    assert_eq!(body.len(), 21 + data.len() + 17);
    assert_eq!(
        ece::decrypt_with_max_record_size(&IKM, &body, u32::MAX).unwrap(),
        data
    );
    let mut released = Vec::new();
    ece::Reader::with_max_record_size(&IKM, u32::MAX, &body[..])
        .read_to_end(&mut released)
        .unwrap();
    assert!(released == data);
}

#[test]
fn encoder_holds_at_most_one_record() {
    let rs = 100;
    let data = plaintext(83 * 10 + 5, 4);
    let mut encoder = ece::Writer::new(&IKM, &SALT, b"", rs, Vec::new()).unwrap();
    encoder.write_all(&data).unwrap();
    // Ten full records are sealed and written; the last (5 bytes) waits.
    assert_eq!(encoder.get_ref().len(), 21 + 10 * 100);
    let body = encoder.finish().unwrap();
    assert_eq!(body.len(), 21 + 10 * 100 + 5 + 17);
    assert_eq!(body, ece::encrypt(&IKM, &SALT, b"", rs, &data).unwrap());
}

// ---------------------------------------------------------------- rejections

#[test]
fn record_size_below_18_is_rejected() {
    for rs in [0, 1, 16, 17] {
        assert_eq!(
            ece::encrypt(&IKM, &SALT, b"", rs, b"x"),
            Err(Error::RecordSizeTooSmall)
        );
        assert_eq!(
            ece::Writer::new(&IKM, &SALT, b"", rs, Vec::new()).err(),
            Some(Error::RecordSizeTooSmall)
        );
        // The same in a header.
        let mut body = ece::encrypt(&IKM, &SALT, b"", 18, b"x").unwrap();
        body[16..20].copy_from_slice(&rs.to_be_bytes());
        assert_eq!(ece::decrypt(&IKM, &body), Err(Error::RecordSizeTooSmall));
        let (released, err) = decode_stepwise(&IKM, &body, 1);
        assert!(released.is_empty());
        assert_eq!(ours(&err.unwrap()), Some(Error::RecordSizeTooSmall));
    }
    assert!(ece::encrypt(&IKM, &SALT, b"", 18, b"x").is_ok());
}

// ------------------------------------------------------- record size limit

/// A reader that gives `header`, then bytes without end, counting what it
/// gave; past `limit` bytes it fails, so a decoder that waits for a huge
/// record ends with that I/O error (and about `limit` bytes held), not with
/// gigabytes.
struct Endless {
    header: Vec<u8>,
    given: usize,
    limit: usize,
}

impl Read for Endless {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.given >= self.limit {
            return Err(io::Error::other("the decoder read past the header"));
        }
        let n = out.len().min(self.limit - self.given);
        for (i, byte) in out[..n].iter_mut().enumerate() {
            *byte = self.header.get(self.given + i).copied().unwrap_or(0xa5);
        }
        self.given += n;
        Ok(n)
    }
}

/// The header of a body with record size `rs` and key identifier `keyid`.
fn header(rs: u32, keyid: &[u8]) -> Vec<u8> {
    let mut header = SALT.to_vec();
    header.extend_from_slice(&rs.to_be_bytes());
    header.push(keyid.len() as u8);
    header.extend_from_slice(keyid);
    header
}

#[test]
fn default_max_record_size_is_1_mib() {
    assert_eq!(ece::DEFAULT_MAX_RECORD_SIZE, 1 << 20);
}

#[test]
fn record_size_above_the_limit_is_rejected_by_default() {
    let max = ece::DEFAULT_MAX_RECORD_SIZE;
    for rs in [max + 1, max + 18, u32::MAX] {
        let expected = Error::RecordSizeTooLarge { size: rs, max };
        // A genuine body: the encoder takes any record size.
        let body = ece::encrypt(&IKM, &SALT, b"k", rs, b"x").unwrap();
        assert!(ece::Writer::new(&IKM, &SALT, b"k", rs, Vec::new()).is_ok());
        assert_eq!(ece::decrypt(&IKM, &body), Err(expected), "rs {rs}");
        let (released, err) = decode_stepwise(&IKM, &body, 1);
        assert!(released.is_empty());
        let err = err.expect("the decoder accepted the record size");
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert_eq!(ours(&err), Some(expected), "rs {rs}");
        // The same header before a few bytes that are no record.
        let mut short = header(rs, b"k");
        short.extend_from_slice(&[0x5a; 5]);
        assert_eq!(ece::decrypt(&IKM, &short), Err(expected), "rs {rs}");
    }
}

#[test]
fn decoder_refuses_a_huge_record_size_before_buffering() {
    let max = ece::DEFAULT_MAX_RECORD_SIZE;
    for rs in [max + 1, u32::MAX] {
        let expected = Error::RecordSizeTooLarge { size: rs, max };
        let reader = Endless {
            header: header(rs, b"key"),
            given: 0,
            limit: 1 << 20,
        };
        let mut decoder = ece::Reader::new(&IKM, reader);
        let mut out = [0u8; 64];
        let err = decoder.read(&mut out).unwrap_err();
        assert_eq!(ours(&err), Some(expected), "rs {rs}: {err}");
        // Not a byte past the fixed header (not even the key identifier)
        // was read, let alone the record.
        assert!(
            decoder.get_ref().given <= ece::HEADER_LEN,
            "rs {rs}: {} bytes read",
            decoder.get_ref().given
        );
        // Poisoned: the same error, and nothing more is read.
        let again = decoder.read(&mut out).unwrap_err();
        assert_eq!(ours(&again), Some(expected));
        assert!(decoder.get_ref().given <= ece::HEADER_LEN);
        // Read to the end: the same.
        let err = decoder.read_to_end(&mut Vec::new()).unwrap_err();
        assert_eq!(ours(&err), Some(expected));
    }
}

#[test]
fn record_size_at_the_limit_is_accepted() {
    let rs = ece::DEFAULT_MAX_RECORD_SIZE;
    let per = rs as usize - 17;
    // Two full records and a short last one.
    let data = plaintext(2 * per + 1000, 11);
    let body = ece::encrypt(&IKM, &SALT, b"", rs, &data).unwrap();
    assert_eq!(body.len(), 21 + data.len() + 3 * 17);
    assert!(ece::decrypt(&IKM, &body).unwrap() == data);
    let mut released = Vec::new();
    ece::Reader::new(&IKM, &body[..])
        .read_to_end(&mut released)
        .unwrap();
    assert!(released == data);
    // The same limit given explicitly.
    assert!(ece::decrypt_with_max_record_size(&IKM, &body, rs).unwrap() == data);
}

#[test]
fn raising_the_limit_accepts_larger_records() {
    let rs = ece::DEFAULT_MAX_RECORD_SIZE + 1;
    let per = rs as usize - 17;
    let data = plaintext(per + 77, 12);
    let body = ece::encrypt(&IKM, &SALT, b"big", rs, &data).unwrap();
    let expected = Error::RecordSizeTooLarge {
        size: rs,
        max: ece::DEFAULT_MAX_RECORD_SIZE,
    };
    assert_eq!(ece::decrypt(&IKM, &body), Err(expected));
    let err = ece::Reader::new(&IKM, &body[..])
        .read_to_end(&mut Vec::new())
        .unwrap_err();
    assert_eq!(ours(&err), Some(expected));

    for max in [rs, rs + 1, 16 << 20, u32::MAX] {
        assert!(ece::decrypt_with_max_record_size(&IKM, &body, max).unwrap() == data);
        let mut released = Vec::new();
        ece::Reader::with_max_record_size(&IKM, max, &body[..])
            .read_to_end(&mut released)
            .unwrap();
        assert!(released == data, "max {max}");
    }
    // One byte short of the record size: refused both ways.
    let lower = Error::RecordSizeTooLarge {
        size: rs,
        max: rs - 1,
    };
    assert_eq!(
        ece::decrypt_with_max_record_size(&IKM, &body, rs - 1),
        Err(lower)
    );
    let err = ece::Reader::with_max_record_size(&IKM, rs - 1, &body[..])
        .read_to_end(&mut Vec::new())
        .unwrap_err();
    assert_eq!(ours(&err), Some(lower));
}

#[test]
fn lowering_the_limit_rejects_what_the_default_accepts() {
    let data = plaintext(10_000, 13);
    let body = ece::encrypt(&IKM, &SALT, b"", 4096, &data).unwrap();
    assert_eq!(ece::decrypt(&IKM, &body).unwrap(), data);
    for max in [4095, 1024, 18, 17, 0] {
        let expected = Error::RecordSizeTooLarge { size: 4096, max };
        assert_eq!(
            ece::decrypt_with_max_record_size(&IKM, &body, max),
            Err(expected)
        );
        let mut decoder = ece::Reader::with_max_record_size(&IKM, max, &body[..]);
        let mut released = Vec::new();
        let err = decoder.read_to_end(&mut released).unwrap_err();
        assert!(released.is_empty(), "max {max}");
        assert_eq!(ours(&err), Some(expected));
    }
    // At the record size itself: accepted.
    assert_eq!(
        ece::decrypt_with_max_record_size(&IKM, &body, 4096).unwrap(),
        data
    );
    let mut released = Vec::new();
    ece::Reader::with_max_record_size(&IKM, 4096, &body[..])
        .read_to_end(&mut released)
        .unwrap();
    assert_eq!(released, data);
    // A record size below 18 is still that error, whatever the limit.
    let mut small = body.clone();
    small[16..20].copy_from_slice(&17u32.to_be_bytes());
    assert_eq!(
        ece::decrypt_with_max_record_size(&IKM, &small, 0),
        Err(Error::RecordSizeTooSmall)
    );
}

#[test]
fn keyid_longer_than_255_is_rejected() {
    let long = [b'k'; 256];
    assert_eq!(
        ece::encrypt(&IKM, &SALT, &long, 4096, b"x"),
        Err(Error::KeyIdTooLong)
    );
    assert_eq!(
        ece::Writer::new(&IKM, &SALT, &long, 4096, Vec::new()).err(),
        Some(Error::KeyIdTooLong)
    );
    let body = ece::encrypt(&IKM, &SALT, &long[..255], 4096, b"x").unwrap();
    assert_eq!(body[20], 255);
    assert_eq!(&body[21..276], &long[..255]);
    assert_eq!(ece::decrypt(&IKM, &body).unwrap(), b"x");
}

#[test]
fn short_header_is_rejected() {
    let body = ece::encrypt(&IKM, &SALT, b"abcde", 4096, b"data").unwrap();
    // Every cut inside the header (21 fixed bytes and 5 of key id).
    for cut in 0..26 {
        assert_eq!(
            ece::decrypt(&IKM, &body[..cut]),
            Err(Error::Truncated),
            "cut {cut}"
        );
        let (released, err) = decode_stepwise(&IKM, &body[..cut], 2);
        assert!(released.is_empty());
        let err = err.expect("an error");
        assert_eq!(ours(&err), Some(Error::Truncated), "cut {cut}");
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }
    // Header only: no record at all.
    assert_eq!(ece::decrypt(&IKM, &body[..26]), Err(Error::Truncated));
    let (_, err) = decode_stepwise(&IKM, &body[..26], 2);
    assert_eq!(ours(&err.unwrap()), Some(Error::Truncated));
}

/// Decrypts `body` both ways and checks both give `expected`, with nothing
/// released by the decoder beyond `released_ok`.
fn assert_rejected(body: &[u8], expected: Error, released_ok: &[u8]) {
    assert_eq!(ece::decrypt(&IKM, body), Err(expected));
    for step in [1, 1000] {
        let (released, err) = decode_stepwise(&IKM, body, step);
        let err = err.expect("the decoder must fail");
        assert_eq!(ours(&err), Some(expected));
        assert_eq!(released, released_ok);
    }
}

#[test]
fn record_without_delimiter_is_rejected() {
    let body = raw_body(&IKM, &SALT, 64, b"", &[&[0, 0, 0]]);
    assert_rejected(&body, Error::MissingDelimiter, b"");
    // All zero in a middle record: the records before it are released.
    let first = [b"abc".as_slice(), &[1], &[0; 64 - 16 - 4]].concat();
    let body = raw_body(&IKM, &SALT, 64, b"", &[&first, &[0; 64 - 16], b"z\x02"]);
    assert_rejected(&body, Error::MissingDelimiter, b"abc");
}

#[test]
fn non_zero_padding_is_rejected() {
    for record in [&b"abc\x03"[..], b"abc\x02\0\x05\0", b"abc\xff", b"\x80"] {
        let body = raw_body(&IKM, &SALT, 64, b"", &[record]);
        assert_rejected(&body, Error::InvalidPadding, b"");
    }
}

#[test]
fn last_record_marked_not_last_is_rejected() {
    let body = raw_body(&IKM, &SALT, 64, b"", &[b"abc\x01"]);
    assert_rejected(&body, Error::Truncated, b"");
    // A body cut at a record boundary: the records before are released.
    let data = plaintext(47 * 3 + 10, 5);
    let body = ece::encrypt(&IKM, &SALT, b"", 64, &data).unwrap();
    for records in 1..=3 {
        assert_rejected(
            &body[..21 + 64 * records],
            Error::Truncated,
            &data[..47 * (records - 1)],
        );
    }
}

#[test]
fn non_last_record_marked_last_is_rejected() {
    let first = [b"abc".as_slice(), &[2], &[0; 64 - 16 - 4]].concat();
    let body = raw_body(&IKM, &SALT, 64, b"", &[&first, b"def\x02"]);
    assert_rejected(&body, Error::DataAfterLastRecord, b"");
}

#[test]
fn data_after_the_last_record_is_rejected() {
    // A last record of full size followed by anything.
    let data = plaintext(47 * 2, 6);
    let body = ece::encrypt(&IKM, &SALT, b"", 64, &data).unwrap();
    assert_eq!(body.len(), 21 + 2 * 64);
    let another = ece::encrypt(&IKM, &SALT, b"", 64, b"more").unwrap();
    for extra in [&[0u8][..], b"trailing garbage", &another[21..]] {
        let appended = [&body[..], extra].concat();
        assert_rejected(&appended, Error::DataAfterLastRecord, &data[..47]);
    }
    // After a short last record, appended bytes become part of it: its tag fails.
    let body = ece::encrypt(&IKM, &SALT, b"", 64, b"short").unwrap();
    let appended = [&body[..], b"x"].concat();
    assert_rejected(&appended, Error::Authentication, b"");
}

#[test]
fn truncation_inside_a_record_is_rejected() {
    let data = plaintext(47 + 20, 7);
    let body = ece::encrypt(&IKM, &SALT, b"", 64, &data).unwrap();
    // 1 to 16 bytes of the last record: no room for a tag and a delimiter.
    for kept in 1..=16 {
        assert_rejected(&body[..21 + 64 + kept], Error::Truncated, &data[..47]);
    }
    // Longer cuts fail the tag.
    for kept in 17..37 {
        assert_rejected(&body[..21 + 64 + kept], Error::Authentication, &data[..47]);
    }
}

#[test]
fn truncation_at_every_offset_is_rejected() {
    let rs = 25;
    let data = plaintext(8 * 3 + 5, 8);
    let body = ece::encrypt(&IKM, &SALT, b"id", rs, &data).unwrap();
    let header = 23;
    for cut in 0..body.len() {
        assert!(ece::decrypt(&IKM, &body[..cut]).is_err(), "cut {cut}");
        let (released, err) = decode_stepwise(&IKM, &body[..cut], 1);
        assert!(
            err.is_some(),
            "cut {cut}: the decoder accepted a truncated body"
        );
        // Released: the data of the records before the one that was cut and
        // the one before it (a record is released once a byte of the next
        // one is seen, so a cut right at a boundary releases one fewer).
        let whole_records = cut.saturating_sub(header) / rs as usize;
        let next_started = cut > header + whole_records * rs as usize;
        let released_records = if next_started {
            whole_records
        } else {
            whole_records.saturating_sub(1)
        };
        assert_eq!(released, data[..8 * released_records], "cut {cut}");
    }
    assert_eq!(ece::decrypt(&IKM, &body).unwrap(), data);
}

#[test]
fn a_forged_byte_anywhere_is_rejected() {
    let rs = 25;
    let data = plaintext(8 * 3 + 5, 9);
    let body = ece::encrypt(&IKM, &SALT, b"id", rs, &data).unwrap();
    let header = 23;
    for at in 0..body.len() {
        for flip in [0x01, 0x80, 0xff] {
            let mut forged = body.clone();
            forged[at] ^= flip;
            if (21..header).contains(&at) {
                // The key identifier only names the IKM: RFC 8188 does not
                // authenticate it, so a changed one decrypts as before.
                assert_eq!(ece::decrypt(&IKM, &forged).unwrap(), data);
                continue;
            }
            let result = ece::decrypt(&IKM, &forged);
            assert!(result.is_err(), "byte {at} ^ {flip:#x} accepted");
            let (released, err) = decode_stepwise(&IKM, &forged, 1);
            assert!(
                err.is_some(),
                "byte {at} ^ {flip:#x} accepted by the decoder"
            );
            // Only the records before the forged one may be released.
            let before = if at < header {
                0
            } else {
                (at - header) / rs as usize
            };
            assert_eq!(released, data[..8 * before], "byte {at} ^ {flip:#x}");
            if at >= header {
                assert_eq!(ours(&err.unwrap()), Some(Error::Authentication));
                assert_eq!(result, Err(Error::Authentication));
            }
        }
    }
}

#[test]
fn dropped_repeated_and_reordered_records_are_rejected() {
    let rs = 25usize;
    let data = plaintext(8 * 3 + 5, 10);
    let body = ece::encrypt(&IKM, &SALT, b"", rs as u32, &data).unwrap();
    let record = |i: usize| &body[21 + i * rs..(21 + (i + 1) * rs).min(body.len())];
    let header = &body[..21];
    let variants = [
        [header, record(0), record(2), record(3)].concat(),
        [
            header,
            record(0),
            record(0),
            record(1),
            record(2),
            record(3),
        ]
        .concat(),
        [header, record(1), record(0), record(2), record(3)].concat(),
        [
            header,
            record(0),
            record(1),
            record(2),
            record(2),
            record(3),
        ]
        .concat(),
    ];
    for forged in variants {
        assert_eq!(ece::decrypt(&IKM, &forged), Err(Error::Authentication));
        let (released, err) = decode_stepwise(&IKM, &forged, 1);
        assert_eq!(ours(&err.unwrap()), Some(Error::Authentication));
        assert!(released[..] == data[..released.len()]);
    }
}

#[test]
fn wrong_key_is_rejected() {
    let body = ece::encrypt(&IKM, &SALT, b"", 4096, b"secret").unwrap();
    assert_eq!(ece::decrypt(&[0x3d; 16], &body), Err(Error::Authentication));
    assert_eq!(ece::decrypt(b"", &body), Err(Error::Authentication));
    let (released, err) = decode_stepwise(&[0x3d; 16], &body, 1);
    assert!(released.is_empty());
    let err = err.unwrap();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    assert_eq!(ours(&err), Some(Error::Authentication));
}

// ---------------------------------------------------------------- the adapters

#[test]
fn failed_decoder_is_poisoned() {
    let data = plaintext(47 * 3, 11);
    let mut body = ece::encrypt(&IKM, &SALT, b"", 64, &data).unwrap();
    body[21 + 64 + 3] ^= 1;
    let mut decoder = ece::Reader::new(&IKM, &body[..]);
    let mut out = vec![0u8; 47];
    decoder.read_exact(&mut out).unwrap();
    assert_eq!(out, data[..47]);
    for _ in 0..3 {
        let err = decoder.read(&mut out).unwrap_err();
        assert_eq!(ours(&err), Some(Error::Authentication));
    }
}

#[test]
fn forged_record_leaves_no_plaintext_in_the_callers_buffer() {
    // A read buffer large enough for a whole record: the decoder decrypts
    // into it directly, and must leave zeros there when the tag fails.
    let data = plaintext(3000, 14);
    for (at, flip) in [(21 + 5, 1u8), (21 + 64 - 1, 0x80), (21 + 64 + 10, 4)] {
        let mut body = ece::encrypt(&IKM, &SALT, b"", 64, &data).unwrap();
        body[at] ^= flip;
        let mut decoder = ece::Reader::new(&IKM, &body[..]);
        let mut out = [0xaau8; 4096];
        let mut released = Vec::new();
        let err = loop {
            match decoder.read(&mut out) {
                Ok(n) => released.extend_from_slice(&out[..n]),
                Err(e) => break e,
            }
        };
        assert_eq!(ours(&err), Some(Error::Authentication));
        assert_eq!(released, data[..47 * ((at - 21) / 64)]);
        assert!(
            out[..48].iter().all(|&b| b == 0),
            "forged plaintext left in the buffer"
        );
        assert!(
            out[48..].iter().all(|&b| b == 0xaa),
            "written past the record"
        );
    }
    // The same through an in-place record (a buffer smaller than a record).
    let mut body = ece::encrypt(&IKM, &SALT, b"", 64, &data).unwrap();
    body[30] ^= 1;
    let mut out = [0xaau8; 20];
    let err = ece::Reader::new(&IKM, &body[..])
        .read(&mut out)
        .unwrap_err();
    assert_eq!(ours(&err), Some(Error::Authentication));
    assert_eq!(out, [0xaa; 20]);
}

/// A reader that fails once with `error` after `fail_at` bytes, then goes on.
struct FailOnce<'a> {
    data: &'a [u8],
    given: usize,
    fail_at: usize,
    error: Option<io::Error>,
}

impl Read for FailOnce<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.given == self.fail_at
            && let Some(e) = self.error.take()
        {
            return Err(e);
        }
        let limit = if self.given < self.fail_at {
            self.fail_at - self.given
        } else {
            usize::MAX
        };
        let n = out.len().min(self.data.len()).min(limit).min(7);
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.given += n;
        Ok(n)
    }
}

#[test]
fn reader_errors_pass_through_and_can_be_retried() {
    let data = plaintext(300, 12);
    let body = ece::encrypt(&IKM, &SALT, b"k", 64, &data).unwrap();
    for fail_at in [0, 5, 21, 22, 23, 60, 87, 88, 89, body.len() - 1, body.len()] {
        for kind in [
            io::ErrorKind::Other,
            io::ErrorKind::WouldBlock,
            io::ErrorKind::Interrupted,
        ] {
            let reader = FailOnce {
                data: &body,
                given: 0,
                fail_at,
                error: Some(io::Error::new(kind, "the network went away")),
            };
            let mut decoder = ece::Reader::new(&IKM, reader);
            let mut released = Vec::new();
            let mut chunk = [0u8; 50];
            let mut failures = 0;
            loop {
                match decoder.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => released.extend_from_slice(&chunk[..n]),
                    Err(e) => {
                        // Unchanged: the reader's own error, not one of ours.
                        assert_eq!(e.kind(), kind);
                        assert_eq!(e.to_string(), "the network went away");
                        assert!(ours(&e).is_none());
                        failures += 1;
                    }
                }
            }
            assert_eq!(failures, 1, "fail_at {fail_at}");
            assert_eq!(released, data, "fail_at {fail_at} {kind:?}");
        }
    }
}

/// A writer that fails once after `fail_at` bytes and takes at most 10 bytes
/// a call.
struct FlakyWriter {
    out: Vec<u8>,
    fail_at: usize,
    failed: bool,
}

impl Write for FlakyWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if !self.failed && self.out.len() >= self.fail_at {
            self.failed = true;
            return Err(io::Error::other("disk full"));
        }
        let n = data.len().min(10);
        self.out.extend_from_slice(&data[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn writer_errors_pass_through_and_can_be_retried() {
    let data = plaintext(500, 13);
    let expected = ece::encrypt(&IKM, &SALT, b"k", 64, &data).unwrap();
    for fail_at in [0, 10, 21, 30, 100, 300, 500] {
        let writer = FlakyWriter {
            out: Vec::new(),
            fail_at,
            failed: false,
        };
        let mut encoder = ece::Writer::new(&IKM, &SALT, b"k", 64, writer).unwrap();
        let mut rest = &data[..];
        let mut failures = 0;
        while !rest.is_empty() {
            match encoder.write(&rest[..rest.len().min(33)]) {
                Ok(n) => rest = &rest[n..],
                Err(e) => {
                    assert_eq!(e.to_string(), "disk full");
                    failures += 1;
                }
            }
        }
        // Every failure falls inside the writes: the body is longer than 500.
        let body = encoder.finish().unwrap().out;
        assert_eq!(failures, 1, "fail_at {fail_at}");
        assert_eq!(body, expected, "fail_at {fail_at}");
    }
}

#[test]
fn io_error_carries_the_crate_error() {
    let body = ece::encrypt(&IKM, &SALT, b"", 64, b"x").unwrap();
    let mut decoder = ece::Reader::new(&IKM, &body[..body.len() - 1]);
    let err = decoder.read_to_end(&mut Vec::new()).unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::InvalidData);
    let inner = err.into_inner().unwrap();
    assert_eq!(*inner.downcast::<Error>().unwrap(), Error::Authentication);
}

#[test]
fn display_texts_name_the_problem() {
    assert_eq!(
        Error::RecordSizeTooSmall.to_string(),
        "record size below 18 bytes"
    );
    assert!(Error::Truncated.to_string().contains("truncated"));
    assert!(Error::DataAfterLastRecord.to_string().contains("after"));
    assert!(Error::KeyIdTooLong.to_string().contains("255"));
    assert_eq!(
        Error::RecordSizeTooLarge {
            size: 4096,
            max: 1024
        }
        .to_string(),
        "record size of 4096 bytes above the limit of 1024 bytes"
    );
}
