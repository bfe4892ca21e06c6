//! Prints the size and alignment of each key type, beside ring's and RustCrypto's.
//!
//! ```text
//! cargo run -p hardware-aead-bench --example state_size
//! ```
//!
//! A key object of this crate holds the AES round keys, the GHASH key powers
//! H^1..H^8 and which tier it uses. The first two are the key-equivalent
//! state, the secret that is zeroized on drop.

use std::mem::{align_of, size_of};

/// Bytes in one AES block, round key or GHASH power.
const BLOCK: usize = 16;

/// GHASH key powers H^1..H^8 kept per key.
const H_POWERS: usize = 8;

/// The most `size_of::<Aes256Gcm>()` may be (docs/design.md, "Where to
/// change what": the 400-byte budget).
const AES256_BUDGET: usize = 400;

fn main() {
    println!(
        "{:<44} {:>6} {:>6} {:>16}",
        "type", "size", "align", "key-equivalent"
    );
    row::<hardware_aead::aes_gcm::Aes128Gcm>(
        "hardware_aead::aes_gcm::Aes128Gcm",
        Some(key_equivalent(11)),
    );
    row::<hardware_aead::aes_gcm::Aes256Gcm>(
        "hardware_aead::aes_gcm::Aes256Gcm",
        Some(key_equivalent(15)),
    );
    // GCM-SIV keeps only the key-generating key's round keys: its hash and
    // encryption keys are derived per nonce (RFC 8452), so no powers are stored.
    row::<hardware_aead::aes_gcm_siv::Aes128GcmSiv>(
        "hardware_aead::aes_gcm_siv::Aes128GcmSiv",
        Some(11 * 16),
    );
    row::<hardware_aead::aes_gcm_siv::Aes256GcmSiv>(
        "hardware_aead::aes_gcm_siv::Aes256GcmSiv",
        Some(15 * 16),
    );
    // XAES-256-GCM keeps K's round keys and CMAC's subkey K1; Kx, its
    // schedule and its GHASH powers are derived per message.
    row::<hardware_aead::xaes_gcm::Xaes256Gcm>(
        "hardware_aead::xaes_gcm::Xaes256Gcm",
        Some(15 * 16 + 16),
    );
    // One type serves both of ring's AES-GCM algorithms.
    row::<ring::aead::LessSafeKey>("ring::aead::LessSafeKey (AES_128_GCM)", None);
    row::<ring::aead::LessSafeKey>("ring::aead::LessSafeKey (AES_256_GCM)", None);
    row::<aes_gcm::Aes128Gcm>("aes_gcm::Aes128Gcm (RustCrypto 0.11)", None);
    row::<aes_gcm::Aes256Gcm>("aes_gcm::Aes256Gcm (RustCrypto 0.11)", None);
    row::<aes_gcm_siv::Aes128GcmSiv>("aes_gcm_siv::Aes128GcmSiv (RustCrypto 0.12)", None);
    row::<aes_gcm_siv::Aes256GcmSiv>("aes_gcm_siv::Aes256GcmSiv (RustCrypto 0.12)", None);
    row::<xaes_256_gcm::Xaes256Gcm>("xaes_256_gcm::Xaes256Gcm (RustCrypto 0.1)", None);

    println!();
    println!(
        "key-equivalent state: AES-128 11 round keys + {H_POWERS} H powers = {} bytes; \
         AES-256 15 + {H_POWERS} = {} bytes",
        key_equivalent(11),
        key_equivalent(15)
    );
    let aes256 = size_of::<hardware_aead::aes_gcm::Aes256Gcm>();
    println!(
        "size_of::<Aes256Gcm>() = {aes256} bytes, budget {AES256_BUDGET}: {}",
        if aes256 <= AES256_BUDGET {
            "within"
        } else {
            "OVER"
        }
    );
}

/// Round keys plus GHASH powers, in bytes, for `round_keys` round keys.
fn key_equivalent(round_keys: usize) -> usize {
    (round_keys + H_POWERS) * BLOCK
}

/// Prints one table row for `T`.
fn row<T>(name: &str, key_equivalent: Option<usize>) {
    let key_equivalent = key_equivalent.map_or_else(|| "-".to_owned(), |n| n.to_string());
    println!(
        "{name:<44} {:>6} {:>6} {key_equivalent:>16}",
        size_of::<T>(),
        align_of::<T>()
    );
}
