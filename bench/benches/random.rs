//! The random generator against `getrandom` and ring's `SystemRandom`, and
//! generated-nonce sealing against explicit-nonce sealing.
//!
//! `cargo bench -p hardware-aead-bench --bench random`

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hardware_aead::TAG_LEN;
use hardware_aead::aes_gcm::Aes256Gcm;
use hardware_aead::random::Generator;
use ring::rand::{SecureRandom, SystemRandom};

fn sizes(c: &mut Criterion) {
    let mut rng = Generator::new().expect("hardware AES");
    let system = SystemRandom::new();
    for (name, len) in [("key_32", 32usize), ("nonce_12", 12), ("fill_4096", 4096)] {
        let mut group = c.benchmark_group(format!("random/{name}"));
        group.throughput(Throughput::Bytes(len as u64));
        let mut buf = vec![0u8; len];
        match name {
            "key_32" => group.bench_function("hardware-aead", |b| {
                b.iter(|| black_box(rng.key_32().unwrap()))
            }),
            "nonce_12" => group.bench_function("hardware-aead", |b| {
                b.iter(|| black_box(rng.nonce_12().unwrap()))
            }),
            _ => group.bench_function("hardware-aead", |b| {
                b.iter(|| rng.fill(black_box(&mut buf)).unwrap())
            }),
        };
        group.bench_function("hardware-aead::random::fill", |b| {
            b.iter(|| hardware_aead::random::fill(black_box(&mut buf)).unwrap())
        });
        group.bench_function("getrandom", |b| {
            b.iter(|| getrandom::fill(black_box(&mut buf)).unwrap())
        });
        group.bench_function("ring SystemRandom", |b| {
            b.iter(|| system.fill(black_box(&mut buf)).unwrap())
        });
        group.finish();
    }
}

fn generated_nonce_sealing(c: &mut Criterion) {
    let key = Aes256Gcm::new(&[7; 32]).expect("hardware AES");
    let plaintext = [0u8; 16];
    let mut out = [0u8; 16 + TAG_LEN + 12];
    let mut group = c.benchmark_group("seal-16B/AES-256-GCM");
    group.bench_function("explicit nonce (seal_to)", |b| {
        b.iter(|| {
            key.seal_to(black_box(&[1; 12]), b"", black_box(&plaintext), &mut out)
                .unwrap()
        })
    });
    group.bench_function(
        "generated nonce (seal_with_generated_nonce_appended_to)",
        |b| {
            b.iter(|| {
                key.seal_with_generated_nonce_appended_to(b"", black_box(&plaintext), &mut out)
                    .unwrap()
            })
        },
    );
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600))
        .sample_size(15);
    targets = sizes, generated_nonce_sealing
}
criterion_main!(benches);
