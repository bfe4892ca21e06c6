//! A dudect-style timing test (Reparaz, Balasch, Verbauwhede, "Dude, is my code
//! constant time?", 2017): time one operation many times on inputs from two
//! classes, interleaved at random, and compare the two timing distributions
//! with Welch's t-test. |t| < 4.5 after 10^6 measurements per class is read as
//! "no timing difference detected".
//!
//! Run by hand (about 40 s on a 2-core Sapphire Rapids VM; other load on the
//! machine adds noise to both classes alike, but keep it light):
//!
//! ```text
//! cargo test --release --test timing_constant_time -- --ignored --nocapture
//! ```
//!
//! `CT_MEASUREMENTS=<n>` changes the number of measurements per class (default
//! 10^6); `CT_ONLY=<text>` keeps the cases whose "algorithm tier" (e.g.
//! `AES-256-GCM VaesAvx512`) contains the text; `CT_CONTROL=1` is the control
//! experiment: the same harness and labels, but both classes get the inputs of
//! class 0, so its |t| values are the machine's noise floor. The figures of the
//! recorded runs are in docs/constant-time.md.
//!
//! Experiments, for every key type (AEGIS: every variant, with one of its two
//! tag lengths) on every tier this CPU has:
//! - **tag**: `open_in_place_detached` with a forged tag that differs from
//!   the right one in the first byte, against one that differs in the last
//!   byte. A compare that stopped at the first differing byte would separate
//!   them. Must pass.
//! - **key**: key setup (`with_tier`), `seal_in_place_detached` and drop
//!   under the all-zero key, against a fresh random key each time. Must pass.
//! - **kdf** (XAES-256-GCM and KC-XAES-256-GCM): `seal_in_place_detached` under one key
//!   with the all-zero nonce, against a fresh random nonce each time. The
//!   nonce is public, but each one derives a secret AES-256 key (its key
//!   schedule and GHASH powers are computed per message); class 0 derives
//!   the same one every time, class 1 a new one. Must pass.
//! - **valid**: `open_in_place_detached` with the right tag, against a
//!   forged one. Reported, not asserted: a rejected message is wiped and an
//!   error is built, so the two classes do different work *after* the one
//!   compare by design; whether a message was accepted is public anyway (the
//!   caller sees the result). What this shows is the size of that difference.
//!
//! The class of each measurement is drawn at random, every time (see
//! `collect`), and the inputs of both classes are prepared by the same
//! instructions (the class only selects a mask), outside the timed region, in
//! the same buffers; a fence then drains the stores of the preparation before
//! the clock starts.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use std::hint::black_box;

use hardware_aead::aegis::{Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4};
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};
use hardware_aead::{AeadKey, Tier};

/// Measurements per class unless `CT_MEASUREMENTS` says otherwise.
const DEFAULT_MEASUREMENTS: usize = 1_000_000;

/// The dudect threshold: above it, the classes' timings differ.
const THRESHOLD: f64 = 4.5;

/// Message lengths: one block (the compare is a larger share of the time),
/// 200 bytes (the AVX-512 tier's one masked batch), and two 256-byte groups of
/// the wide tiers with an 88-byte tail (every tier runs its bulk loop and its
/// tail).
const MESSAGE_LENS: [usize; 3] = [16, 200, 600];

const AAD: &[u8] = b"timing test header";
const NONCE: [u8; 12] = *b"timing nonce";

/// XAES-256-GCM's 24-byte nonce.
const XNONCE: [u8; 24] = *b"timing nonce, 24 bytes!!";

/// AEGIS-128L's 16-byte and AEGIS-256's 32-byte nonces.
const NONCE_16: [u8; 16] = *b"timing nonce, 16";
const NONCE_32: [u8; 32] = *b"timing nonce of 32 bytes, AEGIS!";

const TIERS: [Tier; 4] = [
    Tier::AesNiClmul,
    Tier::VaesAvx2,
    Tier::VaesAvx512,
    Tier::Armv8,
];

/// SplitMix64: enough for class choices and test inputs.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let word = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    }

    /// A byte in 1..=255.
    fn nonzero_byte(&mut self) -> u8 {
        (self.next_u64() % 255) as u8 + 1
    }
}

/// A timestamp in cycles (x86_64: RDTSC between LFENCEs, so the timed
/// instructions neither start before the first read nor end after the second).
#[inline(always)]
fn timestamp() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_lfence, _rdtsc};
        // SAFETY: LFENCE is SSE2, part of the x86_64 baseline; RDTSC has no
        // preconditions.
        unsafe {
            _mm_lfence();
            let t = _rdtsc();
            _mm_lfence();
            t
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        use std::time::Instant;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_nanos() as u64
    }
}

/// Runs `case(class, rng)` — which prepares its inputs, then returns the time
/// of the one timed operation — until each class has at least `n`
/// measurements, with the class of each call drawn at random. The first
/// `n / 10` calls warm up caches and predictors and are not kept.
fn collect(n: usize, rng: &mut Rng, mut case: impl FnMut(usize, &mut Rng) -> u64) -> [Vec<u64>; 2] {
    for _ in 0..n / 10 {
        let class = (rng.next_u64() & 1) as usize;
        black_box(case(class, rng));
    }
    // The control run gives both classes the inputs of class 0.
    let control = std::env::var_os("CT_CONTROL").is_some();
    let mut samples = [Vec::with_capacity(n), Vec::with_capacity(n)];
    // Every class is drawn at random until both have `n`: forcing the last
    // draws into the class still short of `n` would give it the last ~sqrt(n)
    // measurements in a row, and any drift of the machine then looks like a
    // difference between the classes.
    while samples[0].len() < n || samples[1].len() < n {
        let class = (rng.next_u64() & 1) as usize;
        let t = case(if control { 0 } else { class }, rng);
        samples[class].push(t);
    }
    samples
}

/// Welch's t statistic of two samples.
fn welch_t(a: &[u64], b: &[u64]) -> f64 {
    fn mean_var(x: &[u64]) -> (f64, f64) {
        // Welford's algorithm.
        let (mut mean, mut m2) = (0.0f64, 0.0f64);
        for (i, &v) in x.iter().enumerate() {
            let v = v as f64;
            let d = v - mean;
            mean += d / (i + 1) as f64;
            m2 += d * (v - mean);
        }
        (mean, m2 / (x.len().max(2) - 1) as f64)
    }
    let (ma, va) = mean_var(a);
    let (mb, vb) = mean_var(b);
    let se = (va / a.len() as f64 + vb / b.len() as f64).sqrt();
    if se == 0.0 { 0.0 } else { (ma - mb) / se }
}

/// The result of one measurement of a case: the largest |t| over the crops,
/// the crop it came from, and the median time of each class.
struct Verdict {
    max_t: f64,
    crop: &'static str,
    median: [u64; 2],
}

/// The t-test on the measurements below several percentiles of the pooled
/// timings (dudect's cropping: interrupts and migrations give a long tail
/// that hides small differences), and on all of them up to the 99.9th
/// percentile.
fn analyse(samples: &[Vec<u64>; 2]) -> Verdict {
    let mut pooled: Vec<u64> = samples[0]
        .iter()
        .chain(samples[1].iter())
        .copied()
        .collect();
    pooled.sort_unstable();
    let at = |p: f64| pooled[((pooled.len() - 1) as f64 * p) as usize];
    let crops: [(&'static str, f64); 6] = [
        ("p99.9", 0.999),
        ("p99", 0.99),
        ("p95", 0.95),
        ("p90", 0.90),
        ("p75", 0.75),
        ("p50", 0.50),
    ];
    let mut best = (0.0f64, "p99.9");
    for (label, p) in crops {
        let cut = at(p);
        let a: Vec<u64> = samples[0].iter().copied().filter(|&t| t <= cut).collect();
        let b: Vec<u64> = samples[1].iter().copied().filter(|&t| t <= cut).collect();
        if a.len() < 1000 || b.len() < 1000 {
            continue;
        }
        let t = welch_t(&a, &b).abs();
        if t > best.0 {
            best = (t, label);
        }
    }
    let median = |x: &Vec<u64>| {
        let mut x = x.clone();
        x.sort_unstable();
        x[x.len() / 2]
    };
    Verdict {
        max_t: best.0,
        crop: best.1,
        median: [median(&samples[0]), median(&samples[1])],
    }
}

/// Sets `key` to all zero (class 0) or to fresh random bytes (class 1), with
/// the same instructions for both.
fn class_key(class: usize, rng: &mut Rng, key: &mut [u8]) {
    let mask = 0u8.wrapping_sub(class as u8);
    rng.fill(key);
    for b in key.iter_mut() {
        *b &= mask;
    }
}

/// A forged tag: `tag` with its first byte changed by a random nonzero XOR
/// masked with `first`, and its last byte with `last`. The tag is built in a
/// register and written whole, so every class leaves the same stores behind.
fn forge<T: AsMut<[u8]> + Copy>(tag: &T, first: u8, last: u8, rng: &mut Rng) -> T {
    let mut forged = *tag;
    let bytes = forged.as_mut();
    let end = bytes.len() - 1;
    bytes[0] ^= rng.nonzero_byte() & first;
    bytes[end] ^= rng.nonzero_byte() & last;
    forged
}

/// Waits until every store of the preparation has left the store buffer, so
/// that the timed call starts from the same state in both classes.
#[inline(always)]
fn settle() {
    std::sync::atomic::fence(std::sync::atomic::Ordering::SeqCst);
}

/// The key type's key bytes from a slice of the right length.
fn key_from<K: AeadKey>(bytes: &[u8]) -> K::Key {
    K::Key::try_from(bytes).unwrap_or_else(|_| panic!("a {}-byte key", K::KEY_LEN))
}

struct Outcome {
    experiment: &'static str,
    algorithm: &'static str,
    len: usize,
    tier: Tier,
    verdict: Verdict,
    asserted: bool,
}

/// The key type's nonce from a slice of the right length.
fn nonce_from<K: AeadKey>(bytes: &[u8]) -> K::Nonce {
    K::Nonce::try_from(bytes).unwrap_or_else(|_| panic!("a {}-byte nonce", K::NONCE_LEN))
}

/// Every experiment on `K` with the fixed nonce `nonce`; with `kdf`, also
/// the per-message key derivation one (XAES-256-GCM).
fn run_algorithm<K: AeadKey>(
    algorithm: &'static str,
    nonce: &[u8],
    kdf: bool,
    n: usize,
    rng: &mut Rng,
    out: &mut Vec<Outcome>,
) {
    for len in MESSAGE_LENS {
        run_length::<K>(algorithm, nonce, kdf, len, n, rng, out);
    }
}

fn run_length<K: AeadKey>(
    algorithm: &'static str,
    nonce: &[u8],
    kdf: bool,
    len: usize,
    n: usize,
    rng: &mut Rng,
    out: &mut Vec<Outcome>,
) {
    let fixed_nonce = nonce_from::<K>(nonce);
    let mut key_bytes = vec![0u8; K::KEY_LEN];
    rng.fill(&mut key_bytes);
    let mut message = vec![0u8; len];
    rng.fill(&mut message);

    for tier in TIERS {
        if let Ok(only) = std::env::var("CT_ONLY")
            && !format!("{algorithm} {tier:?}").contains(&only)
        {
            continue;
        }
        let Ok(key) = K::with_tier(&key_from::<K>(&key_bytes), tier) else {
            continue;
        };
        let mut ciphertext = message.clone();
        let tag = key
            .seal_in_place_detached(&fixed_nonce, AAD, &mut ciphertext)
            .expect("seal");
        let mut buffer = ciphertext.clone();

        // tag: first byte wrong against last byte wrong.
        let samples = collect(n, rng, |class, rng| {
            buffer.copy_from_slice(&ciphertext);
            let first = 0u8.wrapping_sub(class as u8 ^ 1);
            let forged = forge(&tag, first, !first, rng);
            settle();
            let t0 = timestamp();
            let r = key.open_in_place_detached(
                &fixed_nonce,
                AAD,
                black_box(&mut buffer),
                black_box(&forged),
            );
            let t1 = timestamp();
            assert!(black_box(r).is_err());
            t1 - t0
        });
        out.push(Outcome {
            experiment: "tag: first vs last byte wrong",
            algorithm,
            len,
            tier,
            verdict: analyse(&samples),
            asserted: true,
        });

        // valid against forged (reported only).
        let samples = collect(n, rng, |class, rng| {
            buffer.copy_from_slice(&ciphertext);
            let forged_mask = 0u8.wrapping_sub(class as u8);
            let first = forged_mask & 0u8.wrapping_sub((rng.next_u64() & 1) as u8);
            let forged = forge(&tag, first, forged_mask & !first, rng);
            settle();
            let t0 = timestamp();
            let r = key.open_in_place_detached(
                &fixed_nonce,
                AAD,
                black_box(&mut buffer),
                black_box(&forged),
            );
            let t1 = timestamp();
            assert_eq!(black_box(r).is_ok(), class == 0);
            t1 - t0
        });
        out.push(Outcome {
            experiment: "valid vs forged (informational)",
            algorithm,
            len,
            tier,
            verdict: analyse(&samples),
            asserted: false,
        });

        // key: all-zero against random, setup + seal + drop.
        let mut class_key_bytes = key_bytes.clone();
        let samples = collect(n, rng, |class, rng| {
            buffer.copy_from_slice(&message);
            class_key(class, rng, &mut class_key_bytes);
            let key_bytes = key_from::<K>(&class_key_bytes);
            settle();
            let t0 = timestamp();
            let k = K::with_tier(black_box(&key_bytes), tier).expect("detected above");
            let tag = k.seal_in_place_detached(&fixed_nonce, AAD, black_box(&mut buffer));
            drop(black_box(k));
            let t1 = timestamp();
            black_box(tag).expect("seal");
            t1 - t0
        });
        out.push(Outcome {
            experiment: "key: all-zero vs random",
            algorithm,
            len,
            tier,
            verdict: analyse(&samples),
            asserted: true,
        });

        if !kdf {
            continue;
        }
        // kdf: the all-zero nonce against a random one, seal under the
        // fixed key. The nonce is public, but the key it derives is not:
        // each class derives a different secret key, its schedule and its
        // GHASH powers (class 0 the same one every time).
        let mut nonce_bytes = vec![0u8; K::NONCE_LEN];
        let samples = collect(n, rng, |class, rng| {
            buffer.copy_from_slice(&message);
            class_key(class, rng, &mut nonce_bytes);
            let nonce = nonce_from::<K>(&nonce_bytes);
            settle();
            let t0 = timestamp();
            let tag = key.seal_in_place_detached(black_box(&nonce), AAD, black_box(&mut buffer));
            let t1 = timestamp();
            black_box(tag).expect("seal");
            t1 - t0
        });
        out.push(Outcome {
            experiment: "kdf: all-zero vs random nonce",
            algorithm,
            len,
            tier,
            verdict: analyse(&samples),
            asserted: true,
        });
    }
}

#[test]
#[ignore = "timing measurements take minutes; run by hand with --release -- --ignored --nocapture"]
fn timing_constant_time() {
    let n = std::env::var("CT_MEASUREMENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_MEASUREMENTS);
    if cfg!(debug_assertions) {
        eprintln!("warning: a debug build times the debug code; use --release");
    }
    let mut rng = Rng(timestamp() ^ 0x5eed);
    let mut outcomes = Vec::new();
    let started = std::time::Instant::now();
    run_algorithm::<Aes128Gcm>("AES-128-GCM", &NONCE, false, n, &mut rng, &mut outcomes);
    run_algorithm::<Aes256Gcm>("AES-256-GCM", &NONCE, false, n, &mut rng, &mut outcomes);
    run_algorithm::<Aes128GcmSiv>("AES-128-GCM-SIV", &NONCE, false, n, &mut rng, &mut outcomes);
    run_algorithm::<Aes256GcmSiv>("AES-256-GCM-SIV", &NONCE, false, n, &mut rng, &mut outcomes);
    run_algorithm::<Xaes256Gcm>("XAES-256-GCM", &XNONCE, true, n, &mut rng, &mut outcomes);
    // KC-XAES-256-GCM: the first byte wrong is in the GCM tag, the last in
    // the key commitment; the 48 bytes are one comparison.
    run_algorithm::<KcXaes256Gcm>("KC-XAES-256-GCM", &XNONCE, true, n, &mut rng, &mut outcomes);
    // AEGIS: every variant once, each tag length three times (the tag
    // compare is one function per tag length; the kernels one per variant
    // and tier).
    run_algorithm::<Aegis128L<16>>(
        "AEGIS-128L/16",
        &NONCE_16,
        false,
        n,
        &mut rng,
        &mut outcomes,
    );
    run_algorithm::<Aegis128X2<32>>(
        "AEGIS-128X2/32",
        &NONCE_16,
        false,
        n,
        &mut rng,
        &mut outcomes,
    );
    run_algorithm::<Aegis128X4<16>>(
        "AEGIS-128X4/16",
        &NONCE_16,
        false,
        n,
        &mut rng,
        &mut outcomes,
    );
    run_algorithm::<Aegis256<32>>("AEGIS-256/32", &NONCE_32, false, n, &mut rng, &mut outcomes);
    run_algorithm::<Aegis256X2<16>>(
        "AEGIS-256X2/16",
        &NONCE_32,
        false,
        n,
        &mut rng,
        &mut outcomes,
    );
    run_algorithm::<Aegis256X4<32>>(
        "AEGIS-256X4/32",
        &NONCE_32,
        false,
        n,
        &mut rng,
        &mut outcomes,
    );
    assert!(
        !outcomes.is_empty(),
        "no tier could be constructed on this CPU"
    );

    let unit = if cfg!(target_arch = "x86_64") {
        "cycles"
    } else {
        "ns"
    };
    let control = if std::env::var_os("CT_CONTROL").is_some() {
        " (CONTROL RUN: both classes get the class-0 inputs)"
    } else {
        ""
    };
    println!(
        "\n{n} measurements per class{control}, {:.0} s\n",
        started.elapsed().as_secs_f64()
    );
    println!(
        "| experiment | algorithm | bytes | tier | median {unit} (class 0 / 1) | max \\|t\\| (crop) | result |"
    );
    println!("|---|---|---:|---|---|---|---|");
    let mut failures = Vec::new();
    for o in &outcomes {
        let pass = o.verdict.max_t < THRESHOLD;
        let result = match (o.asserted, pass) {
            (true, true) => "pass",
            (true, false) => "FAIL",
            (false, true) => "no difference seen",
            (false, false) => "differs (expected)",
        };
        println!(
            "| {} | {} | {} | {:?} | {} / {} | {:.2} ({}) | {} |",
            o.experiment,
            o.algorithm,
            o.len,
            o.tier,
            o.verdict.median[0],
            o.verdict.median[1],
            o.verdict.max_t,
            o.verdict.crop,
            result
        );
        if o.asserted && !pass {
            failures.push(format!(
                "{} / {} / {} bytes / {:?}: |t| = {:.2}",
                o.experiment, o.algorithm, o.len, o.tier, o.verdict.max_t
            ));
        }
    }
    let asserted: Vec<f64> = outcomes
        .iter()
        .filter(|o| o.asserted)
        .map(|o| o.verdict.max_t)
        .collect();
    println!(
        "\n{} cases, {} asserted; largest |t| of an asserted case: {:.2}",
        outcomes.len(),
        asserted.len(),
        asserted.iter().copied().fold(0.0, f64::max)
    );
    assert!(
        failures.is_empty(),
        "timing differences above |t| = {THRESHOLD}: {failures:#?}"
    );
}
