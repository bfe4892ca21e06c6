//! RFC 8188 `aes128gcm` (`hardware_aead::ece`): arbitrary and damaged bodies
//! into `decrypt` and `Reader` must error, never panic, with the same error
//! both ways, and the decoder must release nothing but a prefix of the true
//! plaintext; intact bodies round-trip, and `Writer` writes exactly what
//! `encrypt` does however the data is split.
//!
//! Input: `control, rs[2], padding, len[2], at[2], change, step, ikm[16],
//! salt[16], keyid_len, keyid[keyid_len % 8], rest`. The mode is control
//! bits 0-1:
//! - 0: `rest` is the body, decrypted under `ikm`;
//! - 1: a body sealed from `len % 2048` bytes repeating `rest`, record size
//!   `18 + rs % 512`, `padding` bytes of padding, then changed by `change`
//!   (bits 0-1: flip the byte `at` with `change | 1`, cut the body at `at`,
//!   append `rest`, or nothing) and decrypted: only the intact body may
//!   decrypt (and a changed key id or record size, which RFC 8188 does not
//!   authenticate, only to the same plaintext);
//! - 2 and 3: the same body, round-tripped through every API.
//!
//! The decoder reads through a reader that gives `1 + step % 61` bytes a
//! call, into buffers of `1 + (step >> 2) % 97` bytes (some smaller than a
//! record, some larger, so both of its decryption paths run).
#![no_main]

use std::io::{self, Read, Write};

use hardware_aead::{Error, ece};
use hardware_aead_fuzz::{Input, stretch};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let control = input.byte();
    let rs = 18 + u32::from(input.u16() % 512);
    let padding = u64::from(input.byte());
    let len = usize::from(input.u16()) % 2048;
    let at = usize::from(input.u16());
    let change = input.byte();
    let step = input.byte();
    let ikm = input.array::<16>();
    let salt = input.array::<16>();
    let keyid_len = usize::from(input.byte() % 8);
    let keyid = input.bytes(keyid_len);
    let rest = input.rest();
    let reads = Reads {
        step: 1 + usize::from(step % 61),
        buffer: 1 + usize::from(step >> 2) % 97,
    };

    if control & 3 == 0 {
        // Only a genuine sealing under `ikm` could decrypt; `decode_both`
        // has checked that both ways agree, whatever the outcome.
        let _ = decode_both(&ikm, rest, &[], reads);
        return;
    }
    let plaintext = stretch(rest, len);
    let body = encode(&ikm, &salt, keyid, rs, padding, &plaintext, reads.step);
    if control & 3 == 1 {
        let mut changed = body.clone();
        let keyid_bytes = ece::HEADER_LEN..ece::HEADER_LEN + keyid.len();
        let intact = match change & 3 {
            0 => {
                let at = at % body.len();
                changed[at] ^= change | 1;
                // RFC 8188 authenticates neither the key identifier nor the
                // record size: a changed keyid, or a changed rs that splits
                // the records the same way (one record, shorter than both),
                // decrypts as before.
                if keyid_bytes.contains(&at) || (ece::SALT_LEN..ece::SALT_LEN + 4).contains(&at) {
                    let result = decode_both(&ikm, &changed, &plaintext, reads);
                    assert!(result.is_err() || result == Ok(plaintext));
                    return;
                }
                false
            }
            1 => {
                changed.truncate(at % body.len());
                false
            }
            2 => {
                changed.extend_from_slice(if rest.is_empty() { b"!" } else { rest });
                false
            }
            _ => true,
        };
        let result = decode_both(&ikm, &changed, &plaintext, reads);
        if intact {
            assert_eq!(result, Ok(plaintext), "an intact body did not decrypt");
        } else {
            assert!(result.is_err(), "a changed body decrypted");
        }
        return;
    }
    // Round trip: one-shot and streaming agree byte for byte.
    if padding == 0 {
        let one_shot = ece::encrypt(&ikm, &salt, keyid, rs, &plaintext).expect("encrypt");
        assert!(one_shot == body, "Writer and encrypt differ");
    }
    assert_eq!(decode_both(&ikm, &body, &plaintext, reads), Ok(plaintext));
    // Another split of the writes gives the same bytes.
    let again = encode(&ikm, &salt, keyid, rs, padding, &stretch(rest, len), 1 + step as usize);
    assert!(again == body, "the split of the writes changed the body");
});

/// How the decoder is fed and read.
#[derive(Clone, Copy)]
struct Reads {
    step: usize,
    buffer: usize,
}

/// Seals through a `Writer` with writes of `step` bytes.
fn encode(
    ikm: &[u8],
    salt: &[u8; 16],
    keyid: &[u8],
    rs: u32,
    padding: u64,
    plaintext: &[u8],
    step: usize,
) -> Vec<u8> {
    let mut encoder =
        ece::Writer::with_padding(ikm, salt, keyid, rs, padding, Vec::new()).expect("encoder");
    for chunk in plaintext.chunks(step) {
        encoder.write_all(chunk).expect("write");
    }
    encoder.finish().expect("finish")
}

/// Decrypts `body` with `decrypt` and with a `Reader`: both must give the
/// same result, and the decoder, on failure, must have released a prefix of
/// `expected` (the true plaintext; empty when there is none) and nothing else.
fn decode_both(ikm: &[u8], body: &[u8], expected: &[u8], reads: Reads) -> Result<Vec<u8>, Error> {
    let one_shot = ece::decrypt(ikm, body);
    let mut decoder = ece::Reader::new(
        ikm,
        Trickle {
            data: body,
            step: reads.step,
        },
    );
    let mut released = Vec::new();
    let mut buffer = vec![0u8; reads.buffer];
    let streamed = loop {
        match decoder.read(&mut buffer) {
            Ok(0) => break Ok(released),
            Ok(n) => released.extend_from_slice(&buffer[..n]),
            Err(e) => {
                let ours = e.get_ref().and_then(|e| e.downcast_ref::<Error>()).copied();
                let error = ours.expect("the decoder failed with an error not its own");
                // Poisoned: the error again, nothing more.
                let again = decoder.read(&mut buffer).expect_err("a failed decoder read on");
                assert_eq!(
                    again.get_ref().and_then(|e| e.downcast_ref::<Error>()),
                    Some(&error)
                );
                assert!(
                    expected.starts_with(&released),
                    "the decoder released bytes that are not the plaintext's"
                );
                break Err(error);
            }
        }
    };
    assert_eq!(one_shot, streamed, "decrypt and Reader disagree");
    one_shot
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
