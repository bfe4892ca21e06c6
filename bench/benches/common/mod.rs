//! What both benches share: the nonce, the plaintext, the criterion settings
//! and one key per hardware tier of this crate.

use std::time::Duration;

use std::hint::black_box;

use aes_gcm::aead::KeyInit;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion};
use hardware_aead::{AeadKey, Tier};

/// The plaintext sizes, in bytes: 1500 is a network packet.
pub const SIZES: [usize; 9] = [
    16,
    64,
    256,
    1024,
    1500,
    4 * 1024,
    8 * 1024,
    16 * 1024,
    1024 * 1024,
];

/// One nonce for every call: fine for a benchmark, never for real use.
pub const NONCE: [u8; 12] = [
    0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb,
];

/// Empty additional data, so that every byte counted is a plaintext byte.
pub const AAD: &[u8] = b"";

/// This crate's tiers, best first, with the criterion entry name of each.
const TIERS: [(&str, Tier); 3] = [
    ("hardware-aead/avx512", Tier::VaesAvx512),
    ("hardware-aead/avx2", Tier::VaesAvx2),
    ("hardware-aead/aesni", Tier::AesNiClmul),
];

/// This crate's keys for one algorithm: one per tier this CPU has, and the one
/// [`AeadKey::new`] picks.
pub struct Keys<Hw> {
    /// `(entry name, key)` for every tier `with_tier` accepts, best first.
    pub tiers: Vec<(&'static str, Hw)>,
    /// The key on the default tier, if the CPU has any.
    pub default: Option<Hw>,
}

impl<Hw: AeadKey> Keys<Hw> {
    /// Builds every key the CPU allows from `key` and says on stdout which tiers
    /// are measured under `name`.
    pub fn new(name: &str, key: &[u8]) -> Self {
        let Ok(key_bytes) = Hw::Key::try_from(key) else {
            panic!("{name}: a key of {} bytes", Hw::KEY_LEN);
        };
        let mut tiers = Vec::new();
        for (entry, tier) in TIERS {
            match Hw::with_tier(&key_bytes, tier) {
                Ok(hw) => tiers.push((entry, hw)),
                Err(e) => println!("{name}: {entry} skipped on this CPU: {e}"),
            }
        }
        let default = match Hw::new(&key_bytes) {
            Ok(hw) => {
                println!("{name}: hardware-aead defaults to {}", hw.tier());
                Some(hw)
            }
            Err(e) => {
                println!("{name}: hardware-aead skipped on this CPU: {e}");
                None
            }
        };
        Keys { tiers, default }
    }
}

/// Adds the key-setup entries (`new` + drop) to `group`: this crate on every
/// tier the CPU has (`hardware-aead/<tier>`, through `with_tier`) and on
/// the tier `new` picks (`hardware-aead`), aws-lc-rs (`LessSafeKey::new(
/// UnboundKey::new(..))`, where it has the algorithm) and RustCrypto's `Rc`
/// (`KeyInit::new_from_slice`, entry `rc_name`). Every key is dropped inside the timing, so a wipe on drop
/// is part of what is measured.
pub fn bench_setup<Hw: AeadKey, Rc: KeyInit>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    key: &[u8],
    aws_lc: Option<&'static aws_lc_rs::aead::Algorithm>,
    rc_name: &str,
) {
    let Ok(key_bytes) = Hw::Key::try_from(key) else {
        panic!("a key of {} bytes", Hw::KEY_LEN);
    };
    for (entry, tier) in TIERS {
        if Hw::with_tier(&key_bytes, tier).is_ok() {
            group.bench_function(entry, |b| {
                b.iter(|| drop(Hw::with_tier(black_box(&key_bytes), tier)))
            });
        }
    }
    if Hw::new(&key_bytes).is_ok() {
        group.bench_function("hardware-aead", |b| {
            b.iter(|| drop(Hw::new(black_box(&key_bytes))))
        });
    }
    if let Some(aws_lc) = aws_lc {
        group.bench_function("aws-lc-rs", |b| {
            b.iter(|| {
                aws_lc_rs::aead::LessSafeKey::new(
                    aws_lc_rs::aead::UnboundKey::new(aws_lc, black_box(key))
                        .expect("aws-lc-rs accepts the key"),
                )
            })
        });
    }
    group.bench_function(rc_name, |b| {
        b.iter(|| Rc::new_from_slice(black_box(key)).expect("RustCrypto accepts the key"))
    });
}

/// A deterministic plaintext of `len` bytes.
pub fn plaintext(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 31 + 7) as u8).collect()
}

/// Short times, so that a whole bench runs in a few minutes on two cores: trust
/// ratios within one run, not absolute figures across runs.
pub fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600))
        .sample_size(15)
}
