//! The random generator: independent instances, uniform-looking output, and
//! the thread-local `fill`. (The AES-CTR core against the standards, fast key
//! erasure, reseeding and the `Entropy` error are unit tests in `src/random.rs`;
//! fork safety is `tests/fork.rs`.)
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use hardware_aead::random::{self, Generator};

#[test]
fn two_generators_never_match() {
    let mut a = Generator::new().unwrap();
    let mut b = Generator::new().unwrap();
    for _ in 0..100 {
        assert_ne!(*a.key_32().unwrap(), *b.key_32().unwrap());
        assert_ne!(a.nonce_12().unwrap(), b.nonce_12().unwrap());
    }
    let mut x = [0u8; 4096];
    let mut y = [0u8; 4096];
    random::fill(&mut x).unwrap();
    random::fill(&mut y).unwrap();
    assert_ne!(x, y);
}

#[test]
fn consecutive_outputs_differ_at_every_size() {
    let mut rng = Generator::new().unwrap();
    for len in [1usize, 15, 16, 17, 31, 32, 33, 127, 128, 129, 1000] {
        let mut a = vec![0u8; len];
        let mut b = vec![0u8; len];
        rng.fill(&mut a).unwrap();
        rng.fill(&mut b).unwrap();
        if len >= 8 {
            assert_ne!(a, b, "len {len}");
        }
    }
    assert_eq!(rng.key_16().unwrap().len(), 16);
}

/// Chi-squared test of byte frequencies over 1 MiB: 255 degrees of freedom,
/// mean 255, standard deviation ≈ 22.6. The bounds (150, 400) fail a fair
/// source with probability below 10^-9 and catch any gross bias (a stuck
/// byte, a short cycle, unwritten output).
#[test]
fn byte_frequencies_pass_a_chi_squared_smoke_test() {
    let mut rng = Generator::new().unwrap();
    let mut counts = [0u64; 256];
    let mut buf = vec![0u8; 4096];
    for _ in 0..256 {
        rng.fill(&mut buf).unwrap();
        for b in &buf {
            counts[*b as usize] += 1;
        }
    }
    let n = (256 * 4096) as f64;
    let expected = n / 256.0;
    let chi2: f64 = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    assert!((150.0..400.0).contains(&chi2), "chi-squared {chi2}");
}

#[test]
fn generators_are_send_and_debug_hides_the_key() {
    fn is_send<T: Send>() {}
    is_send::<Generator>();
    let rng = Generator::new().unwrap();
    let shown = format!("{rng:?}");
    assert!(shown.starts_with("Generator"), "{shown}");
    assert!(!shown.contains("key"), "{shown}");
}
