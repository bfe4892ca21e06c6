//! Prints the CPU features this machine has, the tier each key type selects,
//! and checks one known answer per key type. Exits with status 1 if a key cannot
//! be built (for example `UnsupportedCpu { missing: "aes" }` on a CPU without
//! AES-NI) or computes a wrong answer.
//!
//! ```text
//! cargo run --release --example assert_hardware
//! qemu-x86_64-static -cpu Nehalem target/release/examples/assert_hardware   # exits 1
//! ```

use std::process::exit;

use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::xaes_gcm::Xaes256Gcm;
use hardware_aead::{AeadKey, Error, Tier};

/// Every tier, fastest x86_64 tier first.
const TIERS: [Tier; 4] = [
    Tier::VaesAvx512,
    Tier::VaesAvx2,
    Tier::AesNiClmul,
    Tier::Armv8,
];

fn main() {
    println!(
        "hardware-aead {} on {}",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::ARCH
    );
    println!("\nCPU features:");
    for (name, present) in cpu_features() {
        println!("  {name:<12} {}", if present { "yes" } else { "no" });
    }

    println!("\nBackends (Aes128Gcm::with_tier):");
    for tier in TIERS {
        match Aes128Gcm::with_tier(&[0; 16], tier) {
            Ok(_) => println!("  {:<12} available: {tier}", format!("{tier:?}")),
            Err(e) => println!("  {:<12} not available: {e}", format!("{tier:?}")),
        }
    }

    // The known answers: 16 zero bytes sealed under the all-zero key and nonce,
    // `ciphertext || tag`. These are test cases 2 and 14 of the GCM specification
    // (McGrew and Viega), also in NIST's GCM test vectors.
    let aes128 = check(
        "Aes128Gcm",
        Aes128Gcm::new(&[0; 16]),
        "0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf",
    );
    let aes256 = check(
        "Aes256Gcm",
        Aes256Gcm::new(&[0; 32]),
        "cea7403d4d606b6e074ec5d3baf39d18d0d1c8a799996bf0265b98b5d48ab919",
    );

    // RFC 8452 Appendix C.1 and C.2, the first vector of each: key 01 00…,
    // nonce 03 00…, empty plaintext and AAD; the output is the tag alone.
    let mut siv_key = [0u8; 32];
    siv_key[0] = 1;
    let mut siv_nonce = [0u8; 12];
    siv_nonce[0] = 3;
    let mut siv_key_128 = [0u8; 16];
    siv_key_128.copy_from_slice(&siv_key[..16]);
    let siv128 = check_with(
        "Aes128GcmSiv",
        Aes128GcmSiv::new(&siv_key_128),
        &siv_nonce,
        &[],
        "dc20e2d83f25705bb49e439eca56de25",
    );
    let siv256 = check_with(
        "Aes256GcmSiv",
        Aes256GcmSiv::new(&siv_key),
        &siv_nonce,
        &[],
        "07f5f4169bbf55a8400cd47ea6fd400f",
    );

    // The C2SP XAES-256-GCM spec's first vector: key 01…, nonce
    // "ABCDEFGHIJKLMNOPQRSTUVWX", plaintext "XAES-256-GCM", empty AAD.
    let xaes = check_with(
        "Xaes256Gcm",
        Xaes256Gcm::new(&[1; 32]),
        b"ABCDEFGHIJKLMNOPQRSTUVWX",
        b"XAES-256-GCM",
        "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271",
    );

    if aes128 && aes256 && siv128 && siv256 && xaes {
        println!(
            "\nOK: every key type runs on the CPU's AES and carry-less multiply instructions."
        );
    } else {
        eprintln!("\nFAILED: see the errors above.");
        exit(1);
    }
}

/// Reports what `new` selected, and checks one seal against `expected` (hex).
/// Returns whether both worked.
fn check<K: AeadKey<Nonce = [u8; 12]>>(name: &str, key: Result<K, Error>, expected: &str) -> bool {
    check_with(name, key, &[0; 12], &[0; 16], expected)
}

/// [`check`] with a chosen nonce and plaintext.
fn check_with<K: AeadKey>(
    name: &str,
    key: Result<K, Error>,
    nonce: &K::Nonce,
    plaintext: &[u8],
    expected: &str,
) -> bool {
    println!();
    let key = match key {
        Ok(key) => key,
        Err(e) => {
            eprintln!("error: {name}::new failed: {e:?} ({e})");
            return false;
        }
    };
    println!("{name}::new selects {:?} ({})", key.tier(), key.tier());
    match key.seal(nonce, b"", plaintext) {
        Ok(sealed) if hex(&sealed) == expected => {
            println!("{name} known answer: ok");
            true
        }
        Ok(sealed) => {
            eprintln!(
                "error: {name} known answer: got {}, expected {expected}",
                hex(&sealed)
            );
            false
        }
        Err(e) => {
            eprintln!("error: {name} known answer: {e:?} ({e})");
            false
        }
    }
}

/// Lowercase hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The CPU features that matter to the tiers, as detected at run time.
#[cfg(target_arch = "x86_64")]
fn cpu_features() -> Vec<(&'static str, bool)> {
    use std::arch::is_x86_feature_detected as has;
    vec![
        ("aes", has!("aes")),
        ("pclmulqdq", has!("pclmulqdq")),
        ("ssse3", has!("ssse3")),
        ("sse4.1", has!("sse4.1")),
        ("avx2", has!("avx2")),
        ("vaes", has!("vaes")),
        ("vpclmulqdq", has!("vpclmulqdq")),
        ("avx512f", has!("avx512f")),
        ("avx512bw", has!("avx512bw")),
        ("avx512vl", has!("avx512vl")),
    ]
}

/// The CPU features that matter to the tiers, as detected at run time.
#[cfg(target_arch = "aarch64")]
fn cpu_features() -> Vec<(&'static str, bool)> {
    use std::arch::is_aarch64_feature_detected as has;
    vec![
        ("neon", has!("neon")),
        ("aes", has!("aes")),
        ("pmull", has!("pmull")),
    ]
}

/// No feature detection for other architectures: no tier exists for them.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn cpu_features() -> Vec<(&'static str, bool)> {
    Vec::new()
}
