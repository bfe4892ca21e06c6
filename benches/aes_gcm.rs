//! AES-GCM seal and open: `hardware-aead` side by side with ring 0.17, RustCrypto
//! `aes-gcm` 0.10 and the bare hardware limit.
//!
//! Each (algorithm, direction, size) is one criterion group, named for example
//! `AES-256-GCM/seal/16384`, so its entries are measured in the same process one
//! after the other and the report lists them together. Every group reports
//! throughput in bytes of plaintext.
//!
//! | library | seal entry: call | open entry: call |
//! |---|---|---|
//! | this crate | `hardware-aead`: `encrypt_in_place_detached` | `hardware-aead`: `decrypt_to` from `ciphertext \|\| tag` into a separate buffer |
//! | this crate | | `hardware-aead+copy`: copy the ciphertext into the buffer, then `decrypt_in_place_detached` |
//! | ring 0.17 | `ring`: `seal_in_place_separate_tag` | `ring+copy`: copy, then `open_in_place_separate_tag` |
//! | aes-gcm 0.10 | `aes-gcm`: `AeadInPlace::encrypt_in_place_detached` | `aes-gcm+copy`: copy, then `AeadInPlace::decrypt_in_place_detached` |
//! | hardware | `limit`: AES-CTR keystream XORed into the buffer, no GHASH (16 KiB and 1 MiB only) | `limit`: the same |
//!
//! Nothing allocates inside the timed loop. Seal encrypts the same buffer again
//! and again (its contents do not change the speed). Open must be given a valid
//! tag every time, so the in-place entries first copy the prepared ciphertext
//! back into their buffer, inside the timing: `hardware-aead+copy` is the
//! like-for-like comparison with the peers, `hardware-aead` the crate's own
//! allocation-free API. Before timing, each size checks once that this crate's
//! seal equals ring's and that its open returns the plaintext. The AAD is empty
//! and the nonce fixed: a benchmark, not a protocol.
//!
//! `limit` is an AES-NI-only counter-mode keystream, 8 blocks in flight. It does
//! what every AES-GCM seal must do at least (all the AES rounds, one load, XOR
//! and store per block) and nothing else, so `entry / limit` is how close an
//! implementation gets to what the AES units of this CPU allow with 128-bit
//! instructions (VAES code can pass it). Each round is one `asm!` block of eight
//! `aesenc`, because with intrinsics LLVM regroups the eight chains (4 + 2 + 1 +
//! 1). It exists only on x86_64 CPUs with AES-NI.
//!
//! Run it all with `cargo bench --bench aes_gcm`; one size with
//! `cargo bench --bench aes_gcm -- 16384`. The times are short (0.3 s warm-up,
//! 1 s measurement, 20 samples) so that the whole run takes a few minutes on two
//! cores; trust ratios within one run, not absolute figures across runs.

use std::hint::black_box;
use std::time::Duration;

use aes_gcm::aead::generic_array::GenericArray;
use aes_gcm::aead::{AeadInPlace, KeyInit};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hardware_aead::{Aead, Tag};
use ring::aead::{AES_128_GCM, AES_256_GCM, Aad, LessSafeKey, UnboundKey};

/// The plaintext sizes, in bytes.
const SIZES: [usize; 6] = [16, 64, 1024, 8 * 1024, 16 * 1024, 1024 * 1024];

/// The sizes at which the hardware limit is measured too.
const LIMIT_SIZES: [usize; 2] = [16 * 1024, 1024 * 1024];

/// One nonce for every call: fine for a benchmark, never for real use.
const NONCE: [u8; 12] = [
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
];

/// Empty additional data, so that every byte counted is a plaintext byte.
const AAD: &[u8] = b"";

/// One AES-GCM variant: its name, key, and how each peer builds it.
struct Variant {
    name: &'static str,
    key: &'static [u8],
    ring: &'static ring::aead::Algorithm,
    /// The keystream-only loop for this key size, if this CPU has one.
    limit: Option<limit::KeystreamXor>,
}

fn aes_gcm(c: &mut Criterion) {
    bench_variant::<hardware_aead::aes_gcm::Aes128Gcm, aes_gcm::Aes128Gcm>(
        c,
        Variant {
            name: "AES-128-GCM",
            key: &[0x2b; 16],
            ring: &AES_128_GCM,
            limit: limit::aes128(),
        },
    );
    bench_variant::<hardware_aead::aes_gcm::Aes256Gcm, aes_gcm::Aes256Gcm>(
        c,
        Variant {
            name: "AES-256-GCM",
            key: &[0x60; 32],
            ring: &AES_256_GCM,
            limit: limit::aes256(),
        },
    );
}

/// Benchmarks one variant: `Hw` is this crate's key type, `Rc` RustCrypto's.
fn bench_variant<Hw: Aead, Rc: AeadInPlace + KeyInit>(c: &mut Criterion, variant: Variant) {
    let name = variant.name;
    let hw = match Hw::new_from_slice(variant.key) {
        Ok(key) => {
            println!("{name}: hardware-aead uses {}", key.backend());
            Some(key)
        }
        Err(e) => {
            println!("{name}: hardware-aead skipped on this CPU: {e}");
            None
        }
    };
    let ring_key =
        LessSafeKey::new(UnboundKey::new(variant.ring, variant.key).expect("ring accepts the key"));
    let rc = Rc::new_from_slice(variant.key).expect("aes-gcm accepts the key");
    let rc_nonce = GenericArray::from_slice(&NONCE);
    if variant.limit.is_none() {
        println!("{name}: no AES-NI keystream limit on this CPU");
    }

    for size in SIZES {
        let mut group = c.benchmark_group(format!("{name}/seal/{size}"));
        group.throughput(Throughput::Bytes(size as u64));
        let mut buffer = plaintext(size);

        if let Some(hw) = &hw {
            group.bench_function("hardware-aead", |b| {
                b.iter(|| {
                    hw.encrypt_in_place_detached(
                        black_box(&NONCE),
                        black_box(AAD),
                        black_box(&mut buffer),
                    )
                    .expect("seal")
                })
            });
        }
        group.bench_function("ring", |b| {
            b.iter(|| {
                ring_key
                    .seal_in_place_separate_tag(
                        ring::aead::Nonce::assume_unique_for_key(black_box(NONCE)),
                        Aad::from(black_box(AAD)),
                        black_box(&mut buffer),
                    )
                    .expect("seal")
            })
        });
        group.bench_function("aes-gcm", |b| {
            b.iter(|| {
                rc.encrypt_in_place_detached(
                    black_box(rc_nonce),
                    black_box(AAD),
                    black_box(&mut buffer),
                )
                .expect("seal")
            })
        });
        if let Some(limit) = variant
            .limit
            .as_ref()
            .filter(|_| LIMIT_SIZES.contains(&size))
        {
            group.bench_function("limit", |b| b.iter(|| limit.apply(black_box(&mut buffer))));
        }
        group.finish();
    }

    for size in SIZES {
        let mut group = c.benchmark_group(format!("{name}/open/{size}"));
        group.throughput(Throughput::Bytes(size as u64));

        // The reference `ciphertext || tag`, from ring; this crate must agree.
        let mut sealed = plaintext(size);
        let ring_tag = ring_key
            .seal_in_place_separate_tag(
                ring::aead::Nonce::assume_unique_for_key(NONCE),
                Aad::from(AAD),
                &mut sealed,
            )
            .expect("seal");
        sealed.extend_from_slice(ring_tag.as_ref());
        let (ciphertext, tag) = sealed.split_at(size);
        let tag: Tag = tag.try_into().expect("a 16-byte tag");
        let mut buffer = vec![0u8; size];

        if let Some(hw) = &hw {
            // Once, outside the timing: this crate must agree with ring both ways.
            let ours = hw.encrypt(&NONCE, AAD, &plaintext(size)).expect("seal");
            assert!(
                ours == sealed,
                "{name}: seal differs from ring at {size} bytes"
            );
            hw.decrypt_to(&NONCE, AAD, &sealed, &mut buffer)
                .expect("open");
            assert!(
                buffer == plaintext(size),
                "{name}: open is wrong at {size} bytes"
            );

            group.bench_function("hardware-aead", |b| {
                b.iter(|| {
                    hw.decrypt_to(
                        black_box(&NONCE),
                        black_box(AAD),
                        black_box(&sealed),
                        black_box(&mut buffer),
                    )
                    .expect("open")
                })
            });
            group.bench_function("hardware-aead+copy", |b| {
                b.iter(|| {
                    buffer.copy_from_slice(black_box(ciphertext));
                    hw.decrypt_in_place_detached(
                        black_box(&NONCE),
                        black_box(AAD),
                        &mut buffer,
                        black_box(&tag),
                    )
                    .expect("open")
                })
            });
        }
        group.bench_function("ring+copy", |b| {
            b.iter(|| {
                buffer.copy_from_slice(black_box(ciphertext));
                ring_key
                    .open_in_place_separate_tag(
                        ring::aead::Nonce::assume_unique_for_key(black_box(NONCE)),
                        Aad::from(black_box(AAD)),
                        ring::aead::Tag::from(black_box(tag)),
                        &mut buffer,
                        0..,
                    )
                    .map(|plaintext| plaintext.len())
                    .expect("open")
            })
        });
        let rc_tag = GenericArray::from_slice(&tag);
        group.bench_function("aes-gcm+copy", |b| {
            b.iter(|| {
                buffer.copy_from_slice(black_box(ciphertext));
                rc.decrypt_in_place_detached(
                    black_box(rc_nonce),
                    black_box(AAD),
                    &mut buffer,
                    black_box(rc_tag),
                )
                .expect("open")
            })
        });
        if let Some(limit) = variant
            .limit
            .as_ref()
            .filter(|_| LIMIT_SIZES.contains(&size))
        {
            group.bench_function("limit", |b| b.iter(|| limit.apply(black_box(&mut buffer))));
        }
        group.finish();
    }
}

/// A deterministic plaintext of `len` bytes.
fn plaintext(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + 7) as u8).collect()
}

/// The hardware limit: AES-CTR keystream only, AES-NI on 128-bit registers.
#[cfg(target_arch = "x86_64")]
mod limit {
    use std::arch::asm;
    use std::arch::x86_64::{
        __m128i, _mm_add_epi64, _mm_loadu_si128, _mm_set_epi64x, _mm_storeu_si128, _mm_xor_si128,
    };

    /// Blocks encrypted per loop iteration: enough independent `aesenc` chains
    /// to cover the instruction's latency.
    const LANES: usize = 8;

    /// The bytes one iteration covers.
    const STRIDE: usize = 16 * LANES;

    /// An AES-CTR keystream XOR for one key size. Only [`build`] makes one, after
    /// detecting AES-NI.
    pub(crate) struct KeystreamXor {
        run: fn(&[__m128i; 15], &mut [u8]),
        /// Arbitrary round keys (the speed of `aesenc` does not depend on them);
        /// AES-128 uses the first 11.
        round_keys: [__m128i; 15],
    }

    impl KeystreamXor {
        /// XORs an AES-CTR keystream into `buffer`.
        pub(crate) fn apply(&self, buffer: &mut [u8]) {
            // `black_box` keeps the compiler from folding the keys into the code.
            (self.run)(std::hint::black_box(&self.round_keys), buffer)
        }
    }

    /// The AES-128 loop (11 round keys, 10 rounds), if this CPU has AES-NI.
    pub(crate) fn aes128() -> Option<KeystreamXor> {
        build::<11>()
    }

    /// The AES-256 loop (15 round keys, 14 rounds), if this CPU has AES-NI.
    pub(crate) fn aes256() -> Option<KeystreamXor> {
        build::<15>()
    }

    fn build<const NK: usize>() -> Option<KeystreamXor> {
        let round_keys = core::array::from_fn(|i| {
            let byte = 0x1b_u8.wrapping_mul(i as u8 + 1);
            // SAFETY: `__m128i` is 16 plain bytes; every bit pattern is valid.
            unsafe { core::mem::transmute::<[u8; 16], __m128i>([byte; 16]) }
        });
        std::arch::is_x86_feature_detected!("aes").then_some(KeystreamXor {
            run: run::<NK>,
            round_keys,
        })
    }

    /// Reached only through a [`KeystreamXor`], so only on a CPU with AES-NI.
    fn run<const NK: usize>(round_keys: &[__m128i; 15], buffer: &mut [u8]) {
        let round_keys = round_keys.first_chunk::<NK>().expect("NK <= 15");
        // SAFETY: `build` makes a `KeystreamXor` (the only way here) only after
        // `is_x86_feature_detected!("aes")` returned true, and AES-NI is the one
        // feature `ctr_xor` enables beyond the x86_64 baseline.
        unsafe { ctr_xor(round_keys, buffer) }
    }

    /// XORs the AES-CTR keystream under `round_keys` into `buffer`, `LANES`
    /// blocks per iteration; a short tail goes through a scratch stride.
    #[target_feature(enable = "aes")]
    fn ctr_xor<const NK: usize>(round_keys: &[__m128i; NK], buffer: &mut [u8]) {
        let (strides, tail) = buffer.as_chunks_mut::<STRIDE>();
        let mut scratch = [0u8; STRIDE];
        scratch[..tail.len()].copy_from_slice(tail);
        let last = (!tail.is_empty()).then_some(&mut scratch);

        let mut counter = _mm_set_epi64x(0x0102_0304_0506_0708, 0);
        for stride in strides.iter_mut().chain(last) {
            let mut blocks: [__m128i; LANES] = core::array::from_fn(|i| {
                _mm_xor_si128(
                    _mm_add_epi64(counter, _mm_set_epi64x(0, i as i64)),
                    round_keys[0],
                )
            });
            counter = _mm_add_epi64(counter, _mm_set_epi64x(0, LANES as i64));
            for round_key in &round_keys[1..NK - 1] {
                aesenc8(&mut blocks, *round_key);
            }
            aesenclast8(&mut blocks, round_keys[NK - 1]);

            let (bytes, _) = stride.as_chunks_mut::<16>();
            for (bytes, block) in bytes.iter_mut().zip(blocks) {
                let p = bytes.as_mut_ptr().cast::<__m128i>();
                // SAFETY: `p` points to the 16 bytes of `bytes`, borrowed mutably
                // here, and an unaligned 128-bit load and store touch only those.
                unsafe { _mm_storeu_si128(p, _mm_xor_si128(_mm_loadu_si128(p), block)) }
            }
        }
        tail.copy_from_slice(&scratch[..tail.len()]);
    }

    /// Defines a function that applies one AES round instruction to eight blocks
    /// in one `asm!` block. The eight independent instructions stay side by side:
    /// written with intrinsics, LLVM regroups the chains (4 + 2 + 1 + 1 here),
    /// and the loop no longer has the shape the limit claims.
    macro_rules! round8 {
        ($name:ident, $insn:literal) => {
            /// One round on each of the eight blocks, with the same round key.
            #[inline(always)]
            fn $name(blocks: &mut [__m128i; 8], round_key: __m128i) {
                let [b0, b1, b2, b3, b4, b5, b6, b7] = blocks;
                // SAFETY: the instructions read and write only the named
                // registers (no memory, stack or flags), and this is reached
                // only from `ctr_xor`, which runs only after AES-NI was
                // detected.
                unsafe {
                    asm!(
                        concat!($insn, " {0}, {k}"),
                        concat!($insn, " {1}, {k}"),
                        concat!($insn, " {2}, {k}"),
                        concat!($insn, " {3}, {k}"),
                        concat!($insn, " {4}, {k}"),
                        concat!($insn, " {5}, {k}"),
                        concat!($insn, " {6}, {k}"),
                        concat!($insn, " {7}, {k}"),
                        inout(xmm_reg) *b0,
                        inout(xmm_reg) *b1,
                        inout(xmm_reg) *b2,
                        inout(xmm_reg) *b3,
                        inout(xmm_reg) *b4,
                        inout(xmm_reg) *b5,
                        inout(xmm_reg) *b6,
                        inout(xmm_reg) *b7,
                        k = in(xmm_reg) round_key,
                        options(pure, nomem, nostack, preserves_flags),
                    )
                }
            }
        };
    }

    round8!(aesenc8, "aesenc");
    round8!(aesenclast8, "aesenclast");
}

/// No hardware limit is measured on other architectures.
#[cfg(not(target_arch = "x86_64"))]
mod limit {
    /// Never built off x86_64.
    pub(crate) enum KeystreamXor {}

    impl KeystreamXor {
        pub(crate) fn apply(&self, _buffer: &mut [u8]) {
            match *self {}
        }
    }

    pub(crate) fn aes128() -> Option<KeystreamXor> {
        None
    }

    pub(crate) fn aes256() -> Option<KeystreamXor> {
        None
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20);
    targets = aes_gcm
}
criterion_main!(benches);
