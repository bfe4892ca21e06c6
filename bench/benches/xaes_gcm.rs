//! XAES-256-GCM seal and open: `hardware-aead` on each of its hardware tiers,
//! side by side with RustCrypto `xaes-256-gcm` 0.1 and with this crate's own
//! AES-256-GCM, and the cost of key setup.
//!
//! Each (direction, size) is one criterion group, named for example
//! `XAES-256-GCM/seal/16384`, so its entries are measured in the same process
//! one after the other and the report lists them together. Every group reports
//! throughput in bytes of plaintext.
//!
//! | library | seal entry: call | open entry: call |
//! |---|---|---|
//! | this crate, one entry per tier | `hardware-aead/avx512`, `/avx2`, `/aesni`: `seal_in_place_detached` | the same names: `open_to` from `ciphertext \|\| tag` into a separate buffer |
//! | xaes-256-gcm 0.1 | `xaes-256-gcm`: `AeadInOut::encrypt_inout_detached` in place | `xaes-256-gcm+copy`: copy, then `AeadInOut::decrypt_inout_detached` in place |
//! | this crate's AES-256-GCM, default tier | `hardware-aead-aes256gcm`: `seal_in_place_detached` | `hardware-aead-aes256gcm`: `open_to` |
//!
//! A tier entry appears only if `AeadKey::with_tier` accepts that tier on this
//! CPU (the skipped ones are printed). `hardware-aead-aes256gcm` shows what
//! the 192-bit nonce costs: XAES-256-GCM derives an AES-256 key and its GHASH
//! key per message, a fixed cost that shows at 16 bytes and fades by 16 KiB.
//!
//! The group `XAES-256-GCM/setup` times building a key from its bytes and
//! dropping it, for each tier and for xaes-256-gcm.
//!
//! Nothing allocates inside the timed loop. Seal encrypts the same buffer
//! again and again (its contents do not change the speed). Open must be given
//! a valid tag every time, so `xaes-256-gcm+copy` first copies the prepared
//! ciphertext back into its buffer, inside the timing; this crate's entries
//! decrypt from the prepared `ciphertext || tag` into a separate buffer.
//! Before timing, each size checks once that every tier's seal equals
//! xaes-256-gcm's and that its open returns the plaintext. The AAD is empty
//! and the nonce fixed: a benchmark, not a protocol.
//!
//! Run it all with `cargo bench -p hardware-aead-bench --bench xaes_gcm`; one size with
//! `cargo bench -p hardware-aead-bench --bench xaes_gcm -- /16384`. The times are short (0.2 s
//! warm-up, 0.6 s measurement, 15 samples); trust ratios within one run, not
//! absolute figures across runs.

mod common;

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hardware_aead::aes_gcm::Aes256Gcm;
use hardware_aead::xaes_gcm::Xaes256Gcm;
use xaes_256_gcm::aead::{AeadInOut, KeyInit};

use common::{AAD, Keys, NONCE, SIZES, plaintext};

/// The key of every entry.
const KEY: [u8; 32] = [0x58; 32];

/// One 24-byte nonce for every call: fine for a benchmark, never for real use.
const XNONCE: [u8; 24] = [
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
    0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
];

const NAME: &str = "XAES-256-GCM";

fn xaes_gcm(c: &mut Criterion) {
    let hw = Keys::<Xaes256Gcm>::new(NAME, &KEY);
    let gcm = Keys::<Aes256Gcm>::new(&format!("{NAME} (AES-256-GCM)"), &KEY).default;
    let rc = xaes_256_gcm::Xaes256Gcm::new_from_slice(&KEY).expect("xaes-256-gcm accepts the key");
    let rc_nonce = xaes_256_gcm::Nonce::from(XNONCE);

    for size in SIZES {
        let pt = plaintext(size);
        let expected = {
            let mut buffer = pt.clone();
            let tag = rc
                .encrypt_inout_detached(&rc_nonce, AAD, buffer.as_mut_slice().into())
                .expect("xaes-256-gcm seal");
            [buffer, tag.to_vec()].concat()
        };
        for (entry, key) in &hw.tiers {
            assert!(
                key.seal(&XNONCE, AAD, &pt).expect("seal") == expected,
                "{NAME} {entry}: seal differs from xaes-256-gcm at {size} bytes"
            );
            assert!(
                key.open(&XNONCE, AAD, &expected).expect("open") == pt,
                "{NAME} {entry}: open at {size} bytes"
            );
        }

        let mut group = c.benchmark_group(format!("{NAME}/seal/{size}"));
        group.throughput(Throughput::Bytes(size as u64));
        let mut buffer = pt.clone();
        for (entry, key) in &hw.tiers {
            group.bench_function(*entry, |b| {
                b.iter(|| {
                    key.seal_in_place_detached(
                        black_box(&XNONCE),
                        black_box(AAD),
                        black_box(&mut buffer),
                    )
                    .expect("seal")
                })
            });
        }
        group.bench_function("xaes-256-gcm", |b| {
            b.iter(|| {
                rc.encrypt_inout_detached(
                    black_box(&rc_nonce),
                    black_box(AAD),
                    black_box(buffer.as_mut_slice()).into(),
                )
                .expect("seal")
            })
        });
        if let Some(gcm) = &gcm {
            group.bench_function("hardware-aead-aes256gcm", |b| {
                b.iter(|| {
                    gcm.seal_in_place_detached(
                        black_box(&NONCE),
                        black_box(AAD),
                        black_box(&mut buffer),
                    )
                    .expect("seal")
                })
            });
        }
        group.finish();

        let mut group = c.benchmark_group(format!("{NAME}/open/{size}"));
        group.throughput(Throughput::Bytes(size as u64));
        let mut out = vec![0u8; size];
        for (entry, key) in &hw.tiers {
            group.bench_function(*entry, |b| {
                b.iter(|| {
                    key.open_to(
                        black_box(&XNONCE),
                        black_box(AAD),
                        black_box(&expected),
                        black_box(&mut out),
                    )
                    .expect("open")
                })
            });
        }
        let (ct, tag) = expected.split_at(size);
        let rc_tag = xaes_256_gcm::Tag::try_from(tag).expect("a 16-byte tag");
        group.bench_function("xaes-256-gcm+copy", |b| {
            b.iter(|| {
                out.copy_from_slice(ct);
                rc.decrypt_inout_detached(
                    black_box(&rc_nonce),
                    black_box(AAD),
                    black_box(out.as_mut_slice()).into(),
                    &rc_tag,
                )
                .expect("open")
            })
        });
        if let Some(gcm) = &gcm {
            let gcm_sealed = gcm.seal(&NONCE, AAD, &pt).expect("seal");
            group.bench_function("hardware-aead-aes256gcm", |b| {
                b.iter(|| {
                    gcm.open_to(
                        black_box(&NONCE),
                        black_box(AAD),
                        black_box(&gcm_sealed),
                        black_box(&mut out),
                    )
                    .expect("open")
                })
            });
        }
        group.finish();
    }

    // Key setup: build and drop (the drop, with its zeroization, is timed).
    let mut group = c.benchmark_group(format!("{NAME}/setup"));
    common::bench_setup::<Xaes256Gcm, xaes_256_gcm::Xaes256Gcm>(
        &mut group,
        &KEY,
        None,
        "xaes-256-gcm",
    );
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = xaes_gcm
}
criterion_main!(benches);
