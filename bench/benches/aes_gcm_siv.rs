//! AES-GCM-SIV seal and open: `hardware-aead` on each of its hardware tiers,
//! side by side with aws-lc-rs 1.19, RustCrypto `aes-gcm-siv` 0.12 and with this
//! crate's own AES-GCM of the same key size, and the cost of key setup.
//!
//! Each (algorithm, direction, size) is one criterion group, named for example
//! `AES-256-GCM-SIV/seal/16384`, so its entries are measured in the same process
//! one after the other and the report lists them together. Every group reports
//! throughput in bytes of plaintext.
//!
//! | library | seal entry: call | open entry: call |
//! |---|---|---|
//! | this crate, one entry per tier | `hardware-aead/avx512`, `/avx2`, `/aesni`: `seal_in_place_detached` | the same names: `open_to` from `ciphertext \|\| tag` into a separate buffer |
//! | aws-lc-rs 1.19 | `aws-lc-rs`: `seal_in_place_separate_tag` | `aws-lc-rs`: `open_separate_gather` from the ciphertext and tag into a separate buffer |
//! | aes-gcm-siv 0.12 | `aes-gcm-siv`: `AeadInOut::encrypt_inout_detached` | `aes-gcm-siv+copy`: copy, then `AeadInOut::decrypt_inout_detached` |
//! | this crate's AES-GCM, default tier | `hardware-aead-gcm`: `seal_in_place_detached` | `hardware-aead-gcm`: `open_to` |
//!
//! A tier entry appears only if `AeadKey::with_tier` accepts that tier on this
//! CPU (the skipped ones are printed). `hardware-aead-gcm` shows what the
//! nonce-misuse resistance costs: GCM-SIV reads the plaintext twice (POLYVAL,
//! then counter mode) and pays a key derivation per message.
//!
//! The group `AES-256-GCM-SIV/setup` (and `AES-128-GCM-SIV/setup`) times
//! building a key from its bytes and dropping it, for each entry above.
//!
//! Nothing allocates inside the timed loop. Seal encrypts the same buffer again
//! and again (its contents do not change the speed). Open must be given a valid
//! tag every time, so `aes-gcm-siv+copy` first copies the prepared ciphertext
//! back into its buffer, inside the timing; this crate's entries decrypt from
//! the prepared `ciphertext || tag` into a separate buffer. Before timing, each
//! size checks once that every tier's seal equals aes-gcm-siv's and that its
//! open returns the plaintext. The AAD is empty and the nonce fixed: a
//! benchmark, not a protocol.
//!
//! Run it all with `cargo bench -p hardware-aead-bench --bench aes_gcm_siv`; one size with
//! `cargo bench -p hardware-aead-bench --bench aes_gcm_siv -- /16384`. The times are short (0.2 s
//! warm-up, 0.6 s measurement, 15 samples) so that the whole run takes a few
//! minutes on two cores; trust ratios within one run, not absolute figures
//! across runs.

mod common;

use std::hint::black_box;

use aes_gcm_siv::aead::{AeadInOut, KeyInit};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hardware_aead::AeadKey;

use common::{AAD, Keys, NONCE, SIZES, plaintext};

/// One AES-GCM-SIV variant: its name and key.
struct Variant {
    name: &'static str,
    key: &'static [u8],
    aws_lc: &'static aws_lc_rs::aead::Algorithm,
}

fn aes_gcm_siv(c: &mut Criterion) {
    bench_variant::<
        hardware_aead::aes_gcm_siv::Aes128GcmSiv,
        hardware_aead::aes_gcm::Aes128Gcm,
        aes_gcm_siv::Aes128GcmSiv,
    >(
        c,
        Variant {
            name: "AES-128-GCM-SIV",
            key: &[0x2b; 16],
            aws_lc: &aws_lc_rs::aead::AES_128_GCM_SIV,
        },
    );
    bench_variant::<
        hardware_aead::aes_gcm_siv::Aes256GcmSiv,
        hardware_aead::aes_gcm::Aes256Gcm,
        aes_gcm_siv::Aes256GcmSiv,
    >(
        c,
        Variant {
            name: "AES-256-GCM-SIV",
            key: &[0x60; 32],
            aws_lc: &aws_lc_rs::aead::AES_256_GCM_SIV,
        },
    );
}

/// Benchmarks one variant: `Hw` is this crate's GCM-SIV key type, `Gcm` its
/// AES-GCM key type of the same size, `Rc` RustCrypto's GCM-SIV.
fn bench_variant<
    Hw: AeadKey<Nonce = [u8; 12]>,
    Gcm: AeadKey<Nonce = [u8; 12]>,
    Rc: AeadInOut + KeyInit,
>(
    c: &mut Criterion,
    variant: Variant,
) {
    let name = variant.name;
    let hw = Keys::<Hw>::new(name, variant.key);
    let gcm = Keys::<Gcm>::new(&format!("{name} (AES-GCM)"), variant.key).default;
    let rc = Rc::new_from_slice(variant.key).expect("aes-gcm-siv accepts the key");
    let rc_nonce = &aes_gcm_siv::aead::Nonce::<Rc>::try_from(&NONCE[..]).expect("a 12-byte nonce");
    let aws_key = aws_lc_rs::aead::LessSafeKey::new(
        aws_lc_rs::aead::UnboundKey::new(variant.aws_lc, variant.key)
            .expect("aws-lc-rs accepts the key"),
    );

    for size in SIZES {
        let mut group = c.benchmark_group(format!("{name}/seal/{size}"));
        group.throughput(Throughput::Bytes(size as u64));
        let mut buffer = plaintext(size);

        for (entry, hw) in &hw.tiers {
            group.bench_function(*entry, |b| {
                b.iter(|| {
                    hw.seal_in_place_detached(
                        black_box(&NONCE),
                        black_box(AAD),
                        black_box(&mut buffer),
                    )
                    .expect("seal")
                })
            });
        }
        group.bench_function("aws-lc-rs", |b| {
            b.iter(|| {
                aws_key
                    .seal_in_place_separate_tag(
                        aws_lc_rs::aead::Nonce::assume_unique_for_key(black_box(NONCE)),
                        aws_lc_rs::aead::Aad::from(black_box(AAD)),
                        black_box(&mut buffer),
                    )
                    .expect("seal")
            })
        });
        group.bench_function("aes-gcm-siv", |b| {
            b.iter(|| {
                rc.encrypt_inout_detached(
                    black_box(rc_nonce),
                    black_box(AAD),
                    black_box(&mut buffer[..]).into(),
                )
                .expect("seal")
            })
        });
        if let Some(gcm) = &gcm {
            group.bench_function("hardware-aead-gcm", |b| {
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
    }

    for size in SIZES {
        let mut group = c.benchmark_group(format!("{name}/open/{size}"));
        group.throughput(Throughput::Bytes(size as u64));

        // The reference `ciphertext || tag`, from aes-gcm-siv; this crate must
        // agree.
        let mut sealed = plaintext(size);
        let rc_tag = rc
            .encrypt_inout_detached(rc_nonce, AAD, (&mut sealed[..]).into())
            .expect("seal");
        let ciphertext = sealed.clone();
        sealed.extend_from_slice(&rc_tag);
        let mut buffer = vec![0u8; size];

        for (entry, hw) in &hw.tiers {
            // Once, outside the timing: every tier must agree with aes-gcm-siv
            // both ways.
            let ours = hw.seal(&NONCE, AAD, &plaintext(size)).expect("seal");
            assert!(
                ours == sealed,
                "{name}: {entry} seal differs from aes-gcm-siv at {size} bytes"
            );
            buffer.fill(0);
            hw.open_to(&NONCE, AAD, &sealed, &mut buffer).expect("open");
            assert!(
                buffer == plaintext(size),
                "{name}: {entry} open is wrong at {size} bytes"
            );

            group.bench_function(*entry, |b| {
                b.iter(|| {
                    hw.open_to(
                        black_box(&NONCE),
                        black_box(AAD),
                        black_box(&sealed),
                        black_box(&mut buffer),
                    )
                    .expect("open")
                })
            });
        }
        group.bench_function("aws-lc-rs", |b| {
            b.iter(|| {
                aws_key
                    .open_separate_gather(
                        aws_lc_rs::aead::Nonce::assume_unique_for_key(black_box(NONCE)),
                        aws_lc_rs::aead::Aad::from(black_box(AAD)),
                        black_box(&ciphertext),
                        black_box(&sealed[size..]),
                        black_box(&mut buffer),
                    )
                    .expect("open")
            })
        });
        group.bench_function("aes-gcm-siv+copy", |b| {
            b.iter(|| {
                buffer.copy_from_slice(black_box(&ciphertext));
                rc.decrypt_inout_detached(
                    black_box(rc_nonce),
                    black_box(AAD),
                    (&mut buffer[..]).into(),
                    black_box(&rc_tag),
                )
                .expect("open")
            })
        });
        if let Some(gcm) = &gcm {
            let gcm_sealed = gcm.seal(&NONCE, AAD, &plaintext(size)).expect("seal");
            group.bench_function("hardware-aead-gcm", |b| {
                b.iter(|| {
                    gcm.open_to(
                        black_box(&NONCE),
                        black_box(AAD),
                        black_box(&gcm_sealed),
                        black_box(&mut buffer),
                    )
                    .expect("open")
                })
            });
        }
        group.finish();
    }

    let mut group = c.benchmark_group(format!("{name}/setup"));
    common::bench_setup::<Hw, Rc>(&mut group, variant.key, Some(variant.aws_lc), "aes-gcm-siv");
    group.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = aes_gcm_siv
}
criterion_main!(benches);
