//! AES-GCM seal and open: `hardware-aead` on each of its hardware tiers, side by
//! side with ring 0.17, aws-lc-rs 1.19, RustCrypto `aes-gcm` 0.11 and the bare
//! hardware limits, and the cost of key setup (`new` + drop) for each of them.
//!
//! Each (algorithm, direction, size) is one criterion group, named for example
//! `AES-256-GCM/seal/16384`, so its entries are measured in the same process one
//! after the other and the report lists them together. Every group reports
//! throughput in bytes of plaintext.
//!
//! | library | seal entry: call | open entry: call |
//! |---|---|---|
//! | this crate, one entry per tier | `hardware-aead/avx512`, `/avx2`, `/aesni`: `seal_in_place_detached` | the same names: `open_to` from `ciphertext \|\| tag` into a separate buffer |
//! | this crate, default tier | | `hardware-aead+copy`: copy the ciphertext into the buffer, then `open_in_place_detached` |
//! | ring 0.17 | `ring`: `seal_in_place_separate_tag` | `ring+copy`: copy, then `open_in_place_separate_tag` |
//! | aws-lc-rs 1.19 | `aws-lc-rs`: `seal_in_place_separate_tag` | `aws-lc-rs`: `open_separate_gather` from the ciphertext and tag into a separate buffer |
//! | aes-gcm 0.11 | `aes-gcm`: `AeadInOut::encrypt_inout_detached` | `aes-gcm+copy`: copy, then `AeadInOut::decrypt_inout_detached` |
//!
//! The group `AES-256-GCM/setup` (and `AES-128-GCM/setup`) times building a
//! key from its bytes and dropping it: `hardware-aead/<tier>` is
//! `with_tier`, `hardware-aead` is `new`, the peers their usual
//! constructors (ring and aws-lc-rs: `LessSafeKey::new(UnboundKey::new(..))`).
//! | hardware | `limit-vaes512`, `limit-vaes256`, `limit-aesni`: AES-CTR keystream XORed into the buffer, no GHASH (16 KiB and 1 MiB only) | the same |
//!
//! A tier entry appears only if `AeadKey::with_tier` accepts that tier on this
//! CPU (the skipped ones are printed), a limit only if the CPU has its
//! instructions.
//!
//! Nothing allocates inside the timed loop. Seal encrypts the same buffer again
//! and again (its contents do not change the speed). Open must be given a valid
//! tag every time, so the in-place entries first copy the prepared ciphertext
//! back into their buffer, inside the timing: `hardware-aead+copy` is the
//! like-for-like comparison with the peers, the tier entries the crate's own
//! allocation-free API. Before timing, each size checks once that every tier's
//! seal equals ring's and that its open returns the plaintext. The AAD is empty
//! and the nonce fixed: a benchmark, not a protocol.
//!
//! The limits are counter-mode keystream loops, 16 blocks in flight for VAES
//! (`limit-vaes512`: 4 zmm registers of 4 blocks; `limit-vaes256`: 8 ymm
//! registers of 2 blocks) and 8 for AES-NI (`limit-aesni`: 8 xmm registers).
//! Each does what every AES-GCM seal must do at least (all the AES rounds, one
//! load, XOR and store per block) and nothing else, so `entry / limit` is how
//! close an implementation gets to what the AES units of this CPU allow with
//! that register width. Each round is one `asm!` block holding the round
//! instruction for every register, because with intrinsics LLVM regroups the
//! independent chains (4 + 2 + 1 + 1 for eight). They exist only on x86_64,
//! each on CPUs with its instructions (`aes`; `vaes` + `avx2`; `vaes` +
//! `avx512f`); before timing, the VAES loops are checked once to produce the
//! AES-NI loop's output.
//!
//! Run it all with `cargo bench -p hardware-aead-bench --bench aes_gcm`; one size with
//! `cargo bench -p hardware-aead-bench --bench aes_gcm -- /16384`. The times are short (0.2 s warm-up,
//! 0.6 s measurement, 15 samples) so that the whole run takes a few minutes on
//! two cores; trust ratios within one run, not absolute figures across runs.

mod common;

use std::hint::black_box;

use aes_gcm::aead::{AeadInOut, KeyInit};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hardware_aead::{AeadKey, Tag};
use ring::aead::{AES_128_GCM, AES_256_GCM, Aad, LessSafeKey, UnboundKey};

use common::{AAD, Keys, NONCE, SIZES, plaintext};

/// The sizes at which the hardware limits are measured too.
const LIMIT_SIZES: [usize; 2] = [16 * 1024, 1024 * 1024];

/// One AES-GCM variant: its name, key, and how each peer builds it.
struct Variant {
    name: &'static str,
    key: &'static [u8],
    ring: &'static ring::aead::Algorithm,
    aws_lc: &'static aws_lc_rs::aead::Algorithm,
    /// The keystream-only loops for this key size that this CPU has.
    limits: Vec<limit::KeystreamXor>,
}

fn aes_gcm(c: &mut Criterion) {
    bench_variant::<hardware_aead::aes_gcm::Aes128Gcm, aes_gcm::Aes128Gcm>(
        c,
        Variant {
            name: "AES-128-GCM",
            key: &[0x2b; 16],
            ring: &AES_128_GCM,
            aws_lc: &aws_lc_rs::aead::AES_128_GCM,
            limits: limit::aes128(),
        },
    );
    bench_variant::<hardware_aead::aes_gcm::Aes256Gcm, aes_gcm::Aes256Gcm>(
        c,
        Variant {
            name: "AES-256-GCM",
            key: &[0x60; 32],
            ring: &AES_256_GCM,
            aws_lc: &aws_lc_rs::aead::AES_256_GCM,
            limits: limit::aes256(),
        },
    );
}

/// Benchmarks one variant: `Hw` is this crate's key type, `Rc` RustCrypto's.
fn bench_variant<Hw: AeadKey<Nonce = [u8; 12], Tag = Tag>, Rc: AeadInOut + KeyInit>(
    c: &mut Criterion,
    variant: Variant,
) {
    let name = variant.name;
    let hw = Keys::<Hw>::new(name, variant.key);
    let ring_key =
        LessSafeKey::new(UnboundKey::new(variant.ring, variant.key).expect("ring accepts the key"));
    let aws_key = aws_lc_rs::aead::LessSafeKey::new(
        aws_lc_rs::aead::UnboundKey::new(variant.aws_lc, variant.key)
            .expect("aws-lc-rs accepts the key"),
    );
    let rc = Rc::new_from_slice(variant.key).expect("aes-gcm accepts the key");
    let rc_nonce = &aes_gcm::aead::Nonce::<Rc>::try_from(&NONCE[..]).expect("a 12-byte nonce");
    let limit_names: Vec<_> = variant.limits.iter().map(|l| l.name()).collect();
    println!("{name}: limits on this CPU: {limit_names:?}");
    limit::check(name, &variant.limits);

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
        group.bench_function("aes-gcm", |b| {
            b.iter(|| {
                rc.encrypt_inout_detached(
                    black_box(rc_nonce),
                    black_box(AAD),
                    black_box(&mut buffer[..]).into(),
                )
                .expect("seal")
            })
        });
        if LIMIT_SIZES.contains(&size) {
            for limit in &variant.limits {
                group.bench_function(limit.name(), |b| {
                    b.iter(|| limit.apply(black_box(&mut buffer)))
                });
            }
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

        for (entry, hw) in &hw.tiers {
            // Once, outside the timing: every tier must agree with ring both ways.
            let ours = hw.seal(&NONCE, AAD, &plaintext(size)).expect("seal");
            assert!(
                ours == sealed,
                "{name}: {entry} seal differs from ring at {size} bytes"
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
        if let Some(hw) = &hw.default {
            group.bench_function("hardware-aead+copy", |b| {
                b.iter(|| {
                    buffer.copy_from_slice(black_box(ciphertext));
                    hw.open_in_place_detached(
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
        group.bench_function("aws-lc-rs", |b| {
            b.iter(|| {
                aws_key
                    .open_separate_gather(
                        aws_lc_rs::aead::Nonce::assume_unique_for_key(black_box(NONCE)),
                        aws_lc_rs::aead::Aad::from(black_box(AAD)),
                        black_box(ciphertext),
                        black_box(&tag),
                        black_box(&mut buffer),
                    )
                    .expect("open")
            })
        });
        let rc_tag = &aes_gcm::aead::Tag::<Rc>::try_from(&tag[..]).expect("a 16-byte tag");
        group.bench_function("aes-gcm+copy", |b| {
            b.iter(|| {
                buffer.copy_from_slice(black_box(ciphertext));
                rc.decrypt_inout_detached(
                    black_box(rc_nonce),
                    black_box(AAD),
                    (&mut buffer[..]).into(),
                    black_box(rc_tag),
                )
                .expect("open")
            })
        });
        if LIMIT_SIZES.contains(&size) {
            for limit in &variant.limits {
                group.bench_function(limit.name(), |b| {
                    b.iter(|| limit.apply(black_box(&mut buffer)))
                });
            }
        }
        group.finish();
    }

    let mut group = c.benchmark_group(format!("{name}/setup"));
    common::bench_setup::<Hw, Rc>(&mut group, variant.key, Some(variant.aws_lc), "aes-gcm");
    group.bench_function("ring", |b| {
        b.iter(|| {
            LessSafeKey::new(
                UnboundKey::new(variant.ring, black_box(variant.key))
                    .expect("ring accepts the key"),
            )
        })
    });
    group.finish();
}

/// The hardware limits: AES-CTR keystream only, on 128-, 256- and 512-bit
/// registers.
#[cfg(target_arch = "x86_64")]
mod limit {
    use std::arch::asm;
    use std::arch::is_x86_feature_detected as has;
    use std::arch::x86_64::{
        __m128i, __m256i, __m512i, _mm_add_epi64, _mm_loadu_si128, _mm_set_epi64x,
        _mm_storeu_si128, _mm_xor_si128, _mm256_add_epi64, _mm256_broadcastsi128_si256,
        _mm256_loadu_si256, _mm256_storeu_si256, _mm256_xor_si256, _mm512_add_epi64,
        _mm512_broadcast_i32x4, _mm512_loadu_si512, _mm512_storeu_si512, _mm512_xor_si512,
    };

    /// Blocks encrypted per loop iteration on 128-bit registers: enough
    /// independent `aesenc` chains to cover the instruction's latency.
    const LANES_XMM: usize = 8;

    /// Blocks encrypted per loop iteration on 256- and 512-bit registers
    /// (8 ymm or 4 zmm registers).
    const LANES_VAES: usize = 16;

    /// The counter block every loop starts from; block `i` of the stream adds
    /// `i` to its low 64 bits.
    const COUNTER: [u64; 2] = [0, 0x0102_0304_0506_0708];

    /// An AES-CTR keystream XOR for one key size and register width. Only
    /// [`build`] makes one, after detecting the instructions it uses.
    pub(crate) struct KeystreamXor {
        name: &'static str,
        run: fn(&[__m128i; 15], &mut [u8]),
        /// Arbitrary round keys (the speed of `aesenc` does not depend on them);
        /// AES-128 uses the first 11.
        round_keys: [__m128i; 15],
    }

    impl KeystreamXor {
        /// The criterion entry name.
        pub(crate) fn name(&self) -> &'static str {
            self.name
        }

        /// XORs an AES-CTR keystream into `buffer`.
        pub(crate) fn apply(&self, buffer: &mut [u8]) {
            // `black_box` keeps the compiler from folding the keys into the code.
            (self.run)(std::hint::black_box(&self.round_keys), buffer)
        }
    }

    /// The AES-128 loops (11 round keys, 10 rounds) this CPU has, widest first.
    pub(crate) fn aes128() -> Vec<KeystreamXor> {
        build::<11>()
    }

    /// The AES-256 loops (15 round keys, 14 rounds) this CPU has, widest first.
    pub(crate) fn aes256() -> Vec<KeystreamXor> {
        build::<15>()
    }

    /// Panics unless every loop in `limits` writes the same keystream (the
    /// VAES loops must do exactly the AES-NI loop's work). Odd length, so the
    /// tails are exercised too.
    pub(crate) fn check(name: &str, limits: &[KeystreamXor]) {
        let len = 3 * 1024 + 16 * 5 + 7;
        let mut outputs = limits.iter().map(|limit| {
            let mut buffer = vec![0u8; len];
            limit.apply(&mut buffer);
            (limit.name, buffer)
        });
        if let Some((first_name, first)) = outputs.next() {
            assert!(
                first != vec![0u8; len],
                "{name}: {first_name} wrote nothing"
            );
            for (other_name, other) in outputs {
                assert!(
                    first == other,
                    "{name}: {other_name} differs from {first_name}"
                );
            }
        }
    }

    fn build<const NK: usize>() -> Vec<KeystreamXor> {
        let round_keys = core::array::from_fn(|i| {
            let byte = 0x1b_u8.wrapping_mul(i as u8 + 1);
            // SAFETY: `__m128i` is 16 plain bytes; every bit pattern is valid.
            unsafe { core::mem::transmute::<[u8; 16], __m128i>([byte; 16]) }
        });
        let mut limits = Vec::new();
        if has!("vaes") && has!("avx512f") {
            limits.push(KeystreamXor {
                name: "limit-vaes512",
                run: run_zmm::<NK>,
                round_keys,
            });
        }
        if has!("vaes") && has!("avx2") {
            limits.push(KeystreamXor {
                name: "limit-vaes256",
                run: run_ymm::<NK>,
                round_keys,
            });
        }
        if has!("aes") {
            limits.push(KeystreamXor {
                name: "limit-aesni",
                run: run_xmm::<NK>,
                round_keys,
            });
        }
        limits
    }

    /// Reached only through a [`KeystreamXor`] named `limit-aesni`, so only on
    /// a CPU with AES-NI.
    fn run_xmm<const NK: usize>(round_keys: &[__m128i; 15], buffer: &mut [u8]) {
        let round_keys = round_keys.first_chunk::<NK>().expect("NK <= 15");
        // SAFETY: `build` stores `run_xmm` in a `KeystreamXor` (the only way
        // here) only after `is_x86_feature_detected!("aes")` returned true, and
        // AES-NI is the one feature `ctr_xor_xmm` enables beyond the x86_64
        // baseline.
        unsafe { ctr_xor_xmm(round_keys, buffer) }
    }

    /// Reached only through a [`KeystreamXor`] named `limit-vaes256`, so only
    /// on a CPU with VAES and AVX2.
    fn run_ymm<const NK: usize>(round_keys: &[__m128i; 15], buffer: &mut [u8]) {
        let round_keys = round_keys.first_chunk::<NK>().expect("NK <= 15");
        // SAFETY: `build` stores `run_ymm` in a `KeystreamXor` only after
        // `is_x86_feature_detected!` found `vaes` and `avx2`, the features
        // `ctr_xor_ymm` enables.
        unsafe { ctr_xor_ymm(round_keys, buffer) }
    }

    /// Reached only through a [`KeystreamXor`] named `limit-vaes512`, so only
    /// on a CPU with VAES and AVX-512F.
    fn run_zmm<const NK: usize>(round_keys: &[__m128i; 15], buffer: &mut [u8]) {
        let round_keys = round_keys.first_chunk::<NK>().expect("NK <= 15");
        // SAFETY: `build` stores `run_zmm` in a `KeystreamXor` only after
        // `is_x86_feature_detected!` found `vaes` and `avx512f`, the features
        // `ctr_xor_zmm` enables.
        unsafe { ctr_xor_zmm(round_keys, buffer) }
    }

    /// Reinterprets plain 64-bit words (lowest first) as a vector register value.
    #[inline(always)]
    fn vector<const N: usize, V: Copy>(words: [u64; N]) -> V {
        assert_eq!(size_of::<[u64; N]>(), size_of::<V>());
        // SAFETY: the sizes are equal (checked above), `read_unaligned` needs no
        // alignment, and the callers use only `__m128i`, `__m256i` and
        // `__m512i`, plain integer vectors for which every bit pattern is valid.
        unsafe { core::ptr::from_ref(&words).cast::<V>().read_unaligned() }
    }

    /// Applies one AES round instruction to every listed register of an array
    /// in one `asm!` block, with the same round key. The independent
    /// instructions stay side by side: written with intrinsics, LLVM regroups
    /// the chains (4 + 2 + 1 + 1 for eight), and the loop no longer has the
    /// shape the limit claims. `sse` is the two-operand AES-NI form
    /// (`aesenc xmm, xmm`), `vex` the three-operand VAES form
    /// (`vaesenc ymm, ymm, ymm` or the zmm one).
    macro_rules! rounds {
        (sse $insn:literal, $class:ident, $blocks:ident, $key:expr, [$($i:literal)*]) => {
            // SAFETY: the instructions read and write only the named registers
            // (no memory, stack or flags), and this is expanded only inside a
            // `#[target_feature]` function that enables the instruction and the
            // register class, reached only after those features were detected.
            unsafe {
                asm!(
                    $(concat!($insn, " {", $i, "}, {k}"),)*
                    $(inout($class) $blocks[$i],)*
                    k = in($class) $key,
                    options(pure, nomem, nostack, preserves_flags),
                )
            }
        };
        (vex $insn:literal, $class:ident, $blocks:ident, $key:expr, [$($i:literal)*]) => {
            // SAFETY: as for the `sse` form.
            unsafe {
                asm!(
                    $(concat!($insn, " {", $i, "}, {", $i, "}, {k}"),)*
                    $(inout($class) $blocks[$i],)*
                    k = in($class) $key,
                    options(pure, nomem, nostack, preserves_flags),
                )
            }
        };
    }

    /// XORs the AES-CTR keystream under `round_keys` into `buffer`,
    /// `LANES_XMM` blocks per iteration on 128-bit registers; a short tail goes
    /// through a scratch stride.
    #[target_feature(enable = "aes")]
    fn ctr_xor_xmm<const NK: usize>(round_keys: &[__m128i; NK], buffer: &mut [u8]) {
        const STRIDE: usize = 16 * LANES_XMM;
        let (strides, tail) = buffer.as_chunks_mut::<STRIDE>();
        let mut scratch = [0u8; STRIDE];
        scratch[..tail.len()].copy_from_slice(tail);
        let last = (!tail.is_empty()).then_some(&mut scratch);

        let mut counter: __m128i = vector(COUNTER);
        let step: __m128i = vector([LANES_XMM as u64, 0]);
        for stride in strides.iter_mut().chain(last) {
            let mut blocks: [__m128i; LANES_XMM] = core::array::from_fn(|i| {
                _mm_xor_si128(
                    _mm_add_epi64(counter, _mm_set_epi64x(0, i as i64)),
                    round_keys[0],
                )
            });
            counter = _mm_add_epi64(counter, step);
            for round_key in &round_keys[1..NK - 1] {
                rounds!(sse "aesenc", xmm_reg, blocks, *round_key, [0 1 2 3 4 5 6 7]);
            }
            rounds!(sse "aesenclast", xmm_reg, blocks, round_keys[NK - 1], [0 1 2 3 4 5 6 7]);

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

    /// XORs the AES-CTR keystream under `round_keys` into `buffer`,
    /// `LANES_VAES` blocks per iteration in eight 256-bit registers; a short
    /// tail goes through a scratch stride.
    #[target_feature(enable = "vaes,avx2")]
    fn ctr_xor_ymm<const NK: usize>(round_keys: &[__m128i; NK], buffer: &mut [u8]) {
        const STRIDE: usize = 16 * LANES_VAES;
        let (strides, tail) = buffer.as_chunks_mut::<STRIDE>();
        let mut scratch = [0u8; STRIDE];
        scratch[..tail.len()].copy_from_slice(tail);
        let last = (!tail.is_empty()).then_some(&mut scratch);

        let round_keys: [__m256i; NK] =
            core::array::from_fn(|i| _mm256_broadcastsi128_si256(round_keys[i]));
        // Register `j` holds blocks `2j` and `2j + 1` of the stride.
        let [lo, hi] = COUNTER;
        let mut counter: __m256i = vector([lo, hi, lo + 1, hi]);
        let offsets: [__m256i; 8] = core::array::from_fn(|j| {
            let o = 2 * j as u64;
            vector([o, 0, o, 0])
        });
        let s = LANES_VAES as u64;
        let step: __m256i = vector([s, 0, s, 0]);
        for stride in strides.iter_mut().chain(last) {
            let mut blocks: [__m256i; 8] = core::array::from_fn(|j| {
                _mm256_xor_si256(_mm256_add_epi64(counter, offsets[j]), round_keys[0])
            });
            counter = _mm256_add_epi64(counter, step);
            for round_key in &round_keys[1..NK - 1] {
                rounds!(vex "vaesenc", ymm_reg, blocks, *round_key, [0 1 2 3 4 5 6 7]);
            }
            rounds!(vex "vaesenclast", ymm_reg, blocks, round_keys[NK - 1], [0 1 2 3 4 5 6 7]);

            let (bytes, _) = stride.as_chunks_mut::<32>();
            for (bytes, block) in bytes.iter_mut().zip(blocks) {
                let p = bytes.as_mut_ptr().cast::<__m256i>();
                // SAFETY: `p` points to the 32 bytes of `bytes`, borrowed mutably
                // here, and an unaligned 256-bit load and store touch only those.
                unsafe { _mm256_storeu_si256(p, _mm256_xor_si256(_mm256_loadu_si256(p), block)) }
            }
        }
        tail.copy_from_slice(&scratch[..tail.len()]);
    }

    /// XORs the AES-CTR keystream under `round_keys` into `buffer`,
    /// `LANES_VAES` blocks per iteration in four 512-bit registers; a short
    /// tail goes through a scratch stride.
    #[target_feature(enable = "vaes,avx512f")]
    fn ctr_xor_zmm<const NK: usize>(round_keys: &[__m128i; NK], buffer: &mut [u8]) {
        const STRIDE: usize = 16 * LANES_VAES;
        let (strides, tail) = buffer.as_chunks_mut::<STRIDE>();
        let mut scratch = [0u8; STRIDE];
        scratch[..tail.len()].copy_from_slice(tail);
        let last = (!tail.is_empty()).then_some(&mut scratch);

        let round_keys: [__m512i; NK] =
            core::array::from_fn(|i| _mm512_broadcast_i32x4(round_keys[i]));
        // Register `j` holds blocks `4j` to `4j + 3` of the stride.
        let [lo, hi] = COUNTER;
        let mut counter: __m512i = vector([lo, hi, lo + 1, hi, lo + 2, hi, lo + 3, hi]);
        let offsets: [__m512i; 4] = core::array::from_fn(|j| {
            let o = 4 * j as u64;
            vector([o, 0, o, 0, o, 0, o, 0])
        });
        let s = LANES_VAES as u64;
        let step: __m512i = vector([s, 0, s, 0, s, 0, s, 0]);
        for stride in strides.iter_mut().chain(last) {
            let mut blocks: [__m512i; 4] = core::array::from_fn(|j| {
                _mm512_xor_si512(_mm512_add_epi64(counter, offsets[j]), round_keys[0])
            });
            counter = _mm512_add_epi64(counter, step);
            for round_key in &round_keys[1..NK - 1] {
                rounds!(vex "vaesenc", zmm_reg, blocks, *round_key, [0 1 2 3]);
            }
            rounds!(vex "vaesenclast", zmm_reg, blocks, round_keys[NK - 1], [0 1 2 3]);

            let (bytes, _) = stride.as_chunks_mut::<64>();
            for (bytes, block) in bytes.iter_mut().zip(blocks) {
                let p = bytes.as_mut_ptr().cast::<__m512i>();
                // SAFETY: `p` points to the 64 bytes of `bytes`, borrowed mutably
                // here, and an unaligned 512-bit load and store touch only those.
                unsafe { _mm512_storeu_si512(p, _mm512_xor_si512(_mm512_loadu_si512(p), block)) }
            }
        }
        tail.copy_from_slice(&scratch[..tail.len()]);
    }
}

/// No hardware limit is measured on other architectures.
#[cfg(not(target_arch = "x86_64"))]
mod limit {
    /// Never built off x86_64.
    pub(crate) enum KeystreamXor {}

    impl KeystreamXor {
        /// The criterion entry name.
        pub(crate) const fn name(&self) -> &'static str {
            match *self {}
        }

        pub(crate) fn apply(&self, _buffer: &mut [u8]) {
            match *self {}
        }
    }

    pub(crate) fn aes128() -> Vec<KeystreamXor> {
        Vec::new()
    }

    pub(crate) fn aes256() -> Vec<KeystreamXor> {
        Vec::new()
    }

    pub(crate) fn check(_name: &str, _limits: &[KeystreamXor]) {}
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = aes_gcm
}
criterion_main!(benches);
