//! RFC 8188 `aes128gcm` (`hardware_aead::ece`, feature `ece`) over 1 MiB at
//! record sizes 4096 and 65536, beside this crate's one-shot AES-128-GCM over
//! the same bytes: what the record layer (key derivation, one delimiter and
//! tag per record, one copy) costs.
//!
//! Each (direction, record size) is one criterion group, named for example
//! `ECE/encrypt/rs65536`; every group reports throughput in bytes of
//! plaintext (1 MiB).
//!
//! | entry | encrypt: call | decrypt: call |
//! |---|---|---|
//! | `ece::encrypt` / `ece::decrypt` | the one-shot functions (they allocate the body / the plaintext) | |
//! | `Writer` / `Reader` | `Writer::new` over a `Vec` with room for the body, one `write_all`, `finish` | `Reader::new` over the body as a `&[u8]`, `read_exact` into a 1 MiB buffer |
//! | `Aes128Gcm::seal` / `Aes128Gcm::open` | one AES-128-GCM message of 1 MiB, allocating its output: the reference | the same |
//! | `Aes128Gcm in place` / `Aes128Gcm open_to` | `seal_in_place_detached`: no allocation | `open_to` into a 1 MiB buffer: no allocation |
//!
//! The target is the ece entries at 0.85× or more of
//! `Aes128Gcm::seal`'s rate at record size 65536. Key derivation
//! (HKDF-SHA-256 and the AES-128 key schedule) is inside every ece timing.
//! Before timing, each group checks once that every ece entry gives the
//! same bytes and the plaintext back.
//!
//! Run with `cargo bench -p hardware-aead-bench --features ece --bench ece`. The times are short
//! (0.2 s warm-up, 0.6 s measurement, 15 samples); trust ratios within one
//! run, not absolute figures across runs.

// Only `config` and `plaintext` of the shared module are used here.
#[allow(dead_code)]
mod common;

use std::hint::black_box;
use std::io::{Read, Write};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hardware_aead::aes_gcm::Aes128Gcm;
use hardware_aead::ece;

use common::plaintext;

/// The plaintext length of every entry.
const LEN: usize = 1024 * 1024;

/// The record sizes measured.
const RECORD_SIZES: [u32; 2] = [4096, 65536];

const IKM: [u8; 16] = [0x2b; 16];
const SALT: [u8; 16] = [0x5d; 16];
const NONCE: [u8; 12] = [0x0c; 12];

fn ece(c: &mut Criterion) {
    let data = plaintext(LEN);
    let key = match Aes128Gcm::new(&IKM) {
        Ok(key) => key,
        Err(e) => {
            println!("ECE: skipped on this CPU: {e}");
            return;
        }
    };
    let sealed = key.seal(&NONCE, b"", &data).expect("seal");

    for rs in RECORD_SIZES {
        let body = ece::encrypt(&IKM, &SALT, b"", rs, &data).expect("ece::encrypt");
        let streamed = encode(rs, &data);
        assert!(
            streamed == body,
            "Writer differs from ece::encrypt at rs {rs}"
        );
        assert!(ece::decrypt(&IKM, &body).expect("ece::decrypt") == data);
        let mut out = vec![0u8; LEN];
        decode(&body, &mut out);
        assert!(out == data, "Reader is wrong at rs {rs}");

        let mut group = c.benchmark_group(format!("ECE/encrypt/rs{rs}"));
        group.throughput(Throughput::Bytes(LEN as u64));
        group.bench_function("ece::encrypt", |b| {
            b.iter(|| ece::encrypt(&IKM, &SALT, b"", black_box(rs), black_box(&data)))
        });
        group.bench_function("Writer", |b| {
            b.iter(|| encode(black_box(rs), black_box(&data)))
        });
        group.bench_function("Aes128Gcm::seal", |b| {
            b.iter(|| key.seal(black_box(&NONCE), b"", black_box(&data)))
        });
        let mut buffer = data.clone();
        group.bench_function("Aes128Gcm in place", |b| {
            b.iter(|| key.seal_in_place_detached(black_box(&NONCE), b"", black_box(&mut buffer)))
        });
        group.finish();

        let mut group = c.benchmark_group(format!("ECE/decrypt/rs{rs}"));
        group.throughput(Throughput::Bytes(LEN as u64));
        group.bench_function("ece::decrypt", |b| {
            b.iter(|| ece::decrypt(&IKM, black_box(&body)))
        });
        group.bench_function("Reader", |b| {
            b.iter(|| decode(black_box(&body), black_box(&mut out)))
        });
        group.bench_function("Aes128Gcm::open", |b| {
            b.iter(|| key.open(black_box(&NONCE), b"", black_box(&sealed)))
        });
        group.bench_function("Aes128Gcm open_to", |b| {
            b.iter(|| {
                key.open_to(
                    black_box(&NONCE),
                    b"",
                    black_box(&sealed),
                    black_box(&mut out),
                )
            })
        });
        group.finish();
    }
}

/// Encrypts `data` through a `Writer` into a `Vec` with room for the body.
fn encode(rs: u32, data: &[u8]) -> Vec<u8> {
    let records = data.len().div_ceil(rs as usize - 17);
    let sink = Vec::with_capacity(ece::HEADER_LEN + data.len() + 17 * records);
    let mut encoder = ece::Writer::new(&IKM, &SALT, b"", rs, sink).expect("Writer::new");
    encoder.write_all(data).expect("write");
    encoder.finish().expect("finish")
}

/// Decrypts `body` through a `Reader` into `out`.
fn decode(body: &[u8], out: &mut [u8]) {
    let mut decoder = ece::Reader::new(&IKM, body);
    decoder.read_exact(out).expect("read");
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = ece
}
criterion_main!(benches);
