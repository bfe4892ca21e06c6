//! Which hardware tier a key uses: `new` must select the expected tier on this
//! machine, so that a silent downgrade fails CI, and tiers this build does not
//! have must be refused with `UnsupportedCpu`.

use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::xaes_gcm::Xaes256Gcm;
use hardware_aead::{Error, Tier};

/// Whether this CPU has every feature of a tier, re-derived here from
/// `is_x86_feature_detected!` independently of the library's own lists.
#[cfg(target_arch = "x86_64")]
fn cpu_has(tier: Tier) -> bool {
    use std::arch::is_x86_feature_detected as has;
    let aesni = has!("aes") && has!("pclmulqdq") && has!("ssse3") && has!("sse4.1");
    let vaes = aesni && has!("avx2") && has!("vaes") && has!("vpclmulqdq");
    match tier {
        Tier::AesNiClmul => aesni,
        Tier::VaesAvx2 => vaes,
        Tier::VaesAvx512 => vaes && has!("avx512f") && has!("avx512bw") && has!("avx512vl"),
        Tier::Armv8 => false,
        _ => false,
    }
}

/// Whether this CPU has every feature of a tier, re-derived here from
/// `is_aarch64_feature_detected!` independently of the library's own lists.
#[cfg(target_arch = "aarch64")]
fn cpu_has(tier: Tier) -> bool {
    use std::arch::is_aarch64_feature_detected as has;
    match tier {
        Tier::Armv8 => has!("neon") && has!("aes") && has!("pmull"),
        Tier::AesNiClmul | Tier::VaesAvx2 | Tier::VaesAvx512 => false,
        _ => false,
    }
}

/// The tiers this build has, best first.
#[cfg(target_arch = "x86_64")]
const BUILT: [Tier; 3] = [Tier::VaesAvx512, Tier::VaesAvx2, Tier::AesNiClmul];

/// The tiers this build has, best first.
#[cfg(target_arch = "aarch64")]
const BUILT: [Tier; 1] = [Tier::Armv8];

/// What `new` must select: the best built tier the CPU has. On CPUs with
/// VAES and AVX-512 (Zen 4, Zen 5, Sapphire and Emerald Rapids) that is
/// `VaesAvx512`, on Zen 3 `VaesAvx2`; under `qemu-x86_64-static -cpu max`
/// (VAES but no VPCLMULQDQ) and `-cpu Westmere` it is `AesNiClmul`. A silent downgrade, or a tier chosen on a CPU without
/// one of its instructions, fails here.
#[cfg(target_arch = "x86_64")]
fn expected() -> Tier {
    *BUILT
        .iter()
        .find(|b| cpu_has(**b))
        .expect("every x86_64 CI machine has AES-NI")
}

/// What `new` must select on aarch64: `Armv8`. CI runs the aarch64 build under
/// `qemu-aarch64-static -cpu max`, which has AES and PMULL; a CPU without them
/// fails here rather than passing silently.
#[cfg(target_arch = "aarch64")]
fn expected() -> Tier {
    assert!(
        cpu_has(Tier::Armv8),
        "every aarch64 CI machine (qemu -cpu max) has AES and PMULL"
    );
    Tier::Armv8
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[test]
fn new_selects_the_best_tier_the_cpu_has() {
    let want = expected();
    eprintln!("expected tier on this CPU: {want:?}");
    assert_eq!(Aes128Gcm::new(&[1u8; 16]).unwrap().tier(), want);
    assert_eq!(Aes256Gcm::new(&[1u8; 32]).unwrap().tier(), want);
    assert_eq!(Aes128Gcm::new_from_slice(&[1u8; 16]).unwrap().tier(), want);
    assert_eq!(Aes256Gcm::new_from_slice(&[1u8; 32]).unwrap().tier(), want);
    assert_eq!(Aes128GcmSiv::new(&[1u8; 16]).unwrap().tier(), want);
    assert_eq!(Aes256GcmSiv::new(&[1u8; 32]).unwrap().tier(), want);
    assert_eq!(
        Aes128GcmSiv::new_from_slice(&[1u8; 16]).unwrap().tier(),
        want
    );
    assert_eq!(
        Aes256GcmSiv::new_from_slice(&[1u8; 32]).unwrap().tier(),
        want
    );
    assert_eq!(Xaes256Gcm::new(&[1u8; 32]).unwrap().tier(), want);
    assert_eq!(Xaes256Gcm::new_from_slice(&[1u8; 32]).unwrap().tier(), want);
}

/// `with_tier` gives exactly the tiers that are built and that the CPU has,
/// and each forced tier computes what the default one does.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[test]
fn with_tier_gives_each_available_tier_and_refuses_the_rest() {
    let nonce = [3u8; 12];
    let msg = [0x5au8; 300];
    let reference = Aes256Gcm::new(&[2u8; 32])
        .unwrap()
        .seal(&nonce, b"a", &msg)
        .unwrap();
    let reference_siv = Aes128GcmSiv::new(&[2u8; 16])
        .unwrap()
        .seal(&nonce, b"a", &msg)
        .unwrap();
    for tier in [
        Tier::AesNiClmul,
        Tier::VaesAvx2,
        Tier::VaesAvx512,
        Tier::Armv8,
    ] {
        let available = BUILT.contains(&tier) && cpu_has(tier);
        match Aes256Gcm::with_tier(&[2u8; 32], tier) {
            Ok(key) => {
                assert!(available, "{tier:?} was given on a CPU or build without it");
                assert_eq!(key.tier(), tier);
                assert_eq!(key.seal(&nonce, b"a", &msg).unwrap(), reference, "{tier:?}");
            }
            Err(Error::UnsupportedCpu { missing }) => {
                assert!(!available, "{tier:?} refused although available");
                assert!(!missing.is_empty());
            }
            Err(e) => panic!("{tier:?}: {e:?}"),
        }
        match Aes128GcmSiv::with_tier(&[2u8; 16], tier) {
            Ok(key) => {
                assert!(available, "{tier:?} was given on a CPU or build without it");
                assert_eq!(
                    key.seal(&nonce, b"a", &msg).unwrap(),
                    reference_siv,
                    "{tier:?}"
                );
            }
            Err(Error::UnsupportedCpu { .. }) => assert!(!available),
            Err(e) => panic!("{tier:?}: {e:?}"),
        }
        assert_eq!(Aes128Gcm::with_tier(&[2u8; 16], tier).is_ok(), available);
        assert_eq!(Aes256GcmSiv::with_tier(&[2u8; 32], tier).is_ok(), available);
        assert_eq!(Xaes256Gcm::with_tier(&[2u8; 32], tier).is_ok(), available);
    }
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[test]
fn no_tier_on_this_architecture_yet() {
    // Only x86_64 and aarch64 have tiers: construction must say so, naming
    // this architecture, not panic.
    let arch = std::env::consts::ARCH;
    for got in [
        Aes128Gcm::new(&[0u8; 16]).err(),
        Aes256Gcm::new(&[0u8; 32]).err(),
        Aes128GcmSiv::new(&[0u8; 16]).err(),
        Aes256GcmSiv::new(&[0u8; 32]).err(),
        Xaes256Gcm::new(&[0u8; 32]).err(),
    ] {
        match got {
            Some(Error::UnsupportedCpu { missing }) => {
                assert!(missing.contains(arch), "{missing:?} does not name {arch}");
            }
            other => panic!("{other:?} on {arch}"),
        }
    }
}

#[test]
fn backends_display_distinct_names() {
    let names: Vec<String> = [
        Tier::AesNiClmul,
        Tier::VaesAvx2,
        Tier::VaesAvx512,
        Tier::Armv8,
    ]
    .iter()
    .map(|b| b.to_string())
    .collect();
    for name in &names {
        assert!(!name.trim().is_empty());
    }
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
}
