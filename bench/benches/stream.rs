//! `stream::Writer` and `stream::Reader` (XAES-256-GCM, 64 KiB segments)
//! moving 1 MiB through memory, beside the one-shot seal and open of the same
//! megabyte as sixteen 64 KiB AES-256-GCM messages.
//!
//! Groups `stream/write/<call size>` and `stream/read/<call size>`, for call
//! sizes of 64 B, 1 KiB, 8 KiB and 1 MiB (the sizes of the `write` and `read`
//! calls, not of the segments). Each group has the adapter's entry and the
//! one-shot entry (`aes-256-gcm-64k`: `seal_in_place_detached`, or
//! `open_to` for read), so one run gives the ratio the target is stated in
//! (≥ 0.90× the one-shot rate at 64 KiB segments). Every group
//! reports throughput in plaintext bytes.
//!
//! The writer writes into `io::sink()` and includes `Writer::new` (the header
//! and its random prefix) and `finish`; the reader reads from a byte slice
//! into one 1 MiB buffer and includes `Reader::new`. Reads of 1 MiB take the
//! adapter's no-copy path (the segment is read into the caller's buffer and
//! opened there); smaller reads are served from its buffer after the segment
//! verified, one copy more. Run with `cargo bench -p hardware-aead-bench --bench stream`;
//! `bench/examples/compare.rs stream` measures the same cases interleaved.

// Only the key-free helpers are used here.
#[allow(dead_code)]
mod common;

use std::hint::black_box;
use std::io::{Read, Write};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hardware_aead::aes_gcm::Aes256Gcm;
use hardware_aead::stream::{Reader, Writer};
use hardware_aead::xaes_gcm::Xaes256Gcm;

use common::{NONCE, plaintext};

const TOTAL: usize = 1 << 20;
const SEGMENT: usize = 64 * 1024;
const CALL_SIZES: [usize; 4] = [64, 1024, 8192, TOTAL];

fn stream(c: &mut Criterion) {
    let xaes = Xaes256Gcm::new(&[0x58; 32]).expect("a supported CPU");
    let gcm = Aes256Gcm::new(&[0x58; 32]).expect("a supported CPU");
    let pt = plaintext(TOTAL);
    let mut writer = Writer::new(&xaes, Vec::new()).expect("writing to a Vec");
    writer.write_all(&pt).expect("writing to a Vec");
    let sealed = writer.finish().expect("writing to a Vec");
    let one_shot: Vec<Vec<u8>> = pt
        .chunks(SEGMENT)
        .map(|m| gcm.seal(&NONCE, b"", m).expect("seal"))
        .collect();

    for call in CALL_SIZES {
        let mut group = c.benchmark_group(format!("stream/write/{call}"));
        group.throughput(Throughput::Bytes(TOTAL as u64));
        group.bench_function("writer", |b| {
            b.iter(|| {
                let mut writer = Writer::new(&xaes, std::io::sink()).expect("sink");
                for piece in pt.chunks(call) {
                    writer.write_all(black_box(piece)).expect("sink");
                }
                writer.finish().expect("sink")
            })
        });
        let mut buffer = pt.clone();
        group.bench_function("aes-256-gcm-64k", |b| {
            b.iter(|| {
                for message in buffer.chunks_mut(SEGMENT) {
                    black_box(
                        gcm.seal_in_place_detached(&NONCE, b"", message)
                            .expect("seal"),
                    );
                }
            })
        });
        group.finish();

        let mut group = c.benchmark_group(format!("stream/read/{call}"));
        group.throughput(Throughput::Bytes(TOTAL as u64));
        let mut out = vec![0u8; TOTAL];
        group.bench_function("reader", |b| {
            b.iter(|| {
                let mut reader = Reader::new(&xaes, black_box(&sealed[..]));
                let mut at = 0;
                while at < TOTAL {
                    let end = (at + call).min(TOTAL);
                    at += reader.read(&mut out[at..end]).expect("a genuine stream");
                }
                assert_eq!(reader.read(&mut [0u8; 1]).expect("the end"), 0);
            })
        });
        group.bench_function("aes-256-gcm-64k", |b| {
            b.iter(|| {
                for (sealed, out) in one_shot.iter().zip(out.chunks_mut(SEGMENT)) {
                    gcm.open_to(&NONCE, b"", black_box(sealed), out)
                        .expect("open");
                }
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = stream
}
criterion_main!(benches);
