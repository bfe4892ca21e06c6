//! `stream::Reader` (through `read` and through `BufRead`) and
//! `stream::DecryptingWriter` on arbitrary and on damaged streams: never a panic, never
//! a byte released that was not sealed, and nothing accepted but a genuine
//! stream.
//!
//! Input: `control, segment, write, read, body`, where control bit 0 picks
//! the mode, `segment` is the segment size (1 ..= 256) and `write`/`read` the
//! sizes of the writer's and reader's calls (1 ..= 256).
//! - mode 0: `body` is offered as a whole stream (header and segments) to a
//!   reader under a fixed key; it must fail (a forgery would have to guess
//!   a tag), releasing nothing.
//! - mode 1: `body` = `kind, pos[2], value, plaintext`: the plaintext is
//!   written through a `Writer`, the stream changed by `kind` (0: XOR
//!   `value` into byte `pos`; 1: truncate to `pos`; 2: append `value`; 3:
//!   swap the segments at `pos` and `pos + 1`) and read back. It must read
//!   back whole exactly when nothing changed; otherwise it must fail after
//!   releasing a prefix of the plaintext made of whole segments.
#![no_main]

use std::io::{BufRead, Read, Write};

use hardware_aead::stream::{DecryptingWriter, Reader, Writer};
use hardware_aead::xaes_gcm::Xaes256Gcm;
use hardware_aead_fuzz::Input;
use libfuzzer_sys::fuzz_target;

const HEADER_LEN: usize = 19 + 4;

fuzz_target!(|data: &[u8]| {
    let Ok(key) = Xaes256Gcm::new(&[0x5a; 32]) else {
        return;
    };
    let mut input = Input::new(data);
    let control = input.byte();
    let segment = usize::from(input.byte()) + 1;
    let write = usize::from(input.byte()) + 1;
    let read = usize::from(input.byte()) + 1;
    if control & 1 == 0 {
        let stream = input.rest();
        for (released, failed) in [
            read_all(&key, stream, read),
            buffered_all(&key, stream, read),
            push_all(&key, stream, read),
        ] {
            assert!(failed, "an arbitrary stream was accepted");
            assert!(released.is_empty(), "bytes released from a forged stream");
        }
        return;
    }
    let kind = input.byte() & 3;
    let pos = usize::from(input.u16());
    let value = input.byte();
    let plaintext = input.rest();

    let Ok(mut writer) = Writer::with_segment_size(&key, segment, Vec::new()) else {
        return;
    };
    for piece in plaintext.chunks(write) {
        writer.write_all(piece).expect("writing to a Vec");
    }
    let mut sealed = writer.finish().expect("writing to a Vec");
    let changed = match kind {
        0 if pos < sealed.len() && value != 0 => {
            sealed[pos] ^= value;
            true
        }
        1 if pos < sealed.len() => {
            sealed.truncate(pos);
            true
        }
        2 => {
            sealed.push(value);
            true
        }
        3 => {
            let len = segment + 16;
            let a = HEADER_LEN + pos * len;
            let b = a + len;
            if b + len <= sealed.len() && sealed[a..b] != sealed[b..b + len] {
                let (first, second) = sealed[a..b + len].split_at_mut(len);
                first.swap_with_slice(second);
                true
            } else {
                false
            }
        }
        _ => false,
    };
    for (released, failed) in [
        read_all(&key, &sealed, read),
        buffered_all(&key, &sealed, read),
        push_all(&key, &sealed, read),
    ] {
        if changed {
            assert!(failed, "a changed stream was accepted (kind {kind})");
            assert_eq!(released.len() % segment, 0, "a partial segment released");
            assert!(plaintext.starts_with(&released), "released bytes were not sealed");
        } else {
            assert!(!failed, "a genuine stream was rejected");
            assert_eq!(released, plaintext);
        }
    }
});

/// Pushes `stream` through a `DecryptingWriter` in writes of `write` bytes;
/// returns the plaintext it let through and whether it ended in an error.
fn push_all(key: &Xaes256Gcm, stream: &[u8], write: usize) -> (Vec<u8>, bool) {
    let mut released = Vec::new();
    let mut opener = DecryptingWriter::new(key, &mut released);
    let mut result = Ok(());
    for piece in stream.chunks(write) {
        result = opener.write_all(piece);
        if result.is_err() {
            break;
        }
    }
    let result = result.and_then(|()| opener.finish().map(|_| ()));
    if let Err(error) = &result {
        assert!(
            error.get_ref().is_some_and(|e| e.is::<hardware_aead::Error>()),
            "an error that is not the crate's: {error:?}"
        );
    }
    (released, result.is_err())
}

/// Reads `stream` in calls of `read` bytes; returns what came out and
/// whether it ended in an error.
fn read_all(key: &Xaes256Gcm, stream: &[u8], read: usize) -> (Vec<u8>, bool) {
    let mut reader = Reader::new(key, stream);
    let mut released = Vec::new();
    let mut piece = vec![0u8; read];
    loop {
        match reader.read(&mut piece) {
            Ok(0) => return (released, false),
            Ok(n) => released.extend_from_slice(&piece[..n]),
            Err(error) => {
                assert!(
                    error.get_ref().is_some_and(|e| e.is::<hardware_aead::Error>()),
                    "an error that is not the crate's: {error:?}"
                );
                return (released, true);
            }
        }
    }
}

/// Reads `stream` through `BufRead`, consuming at most `take` bytes of what
/// each `fill_buf` offers; returns what came out and whether it ended in an
/// error.
fn buffered_all(key: &Xaes256Gcm, stream: &[u8], take: usize) -> (Vec<u8>, bool) {
    let mut reader = Reader::new(key, stream);
    let mut released = Vec::new();
    loop {
        match reader.fill_buf() {
            Ok([]) => return (released, false),
            Ok(plain) => {
                let n = plain.len().min(take);
                released.extend_from_slice(&plain[..n]);
                reader.consume(n);
            }
            Err(error) => {
                assert!(
                    error.get_ref().is_some_and(|e| e.is::<hardware_aead::Error>()),
                    "an error that is not the crate's: {error:?}"
                );
                return (released, true);
            }
        }
    }
}
