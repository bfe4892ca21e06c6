//! Which hardware tier a key uses: `new` must select the expected tier on this
//! machine, so that a silent downgrade fails CI, and tiers this build does not
//! have must be refused with `UnsupportedCpu`.

use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::{Aead, Backend, Error};

/// The only tier built so far is AES-NI + PCLMULQDQ, and every x86_64 machine
/// this project runs on (developers' and CI) has it, so `new` must select it.
///
/// UPDATE THIS when the VAES tiers land: the development and CI machines also
/// have VAES, VPCLMULQDQ and AVX-512, so the expected tier will then be the
/// widest one built — asserting it is what catches a silent downgrade.
#[cfg(target_arch = "x86_64")]
#[test]
fn new_selects_aesni_clmul_on_x86_64() {
    assert_eq!(
        Aes128Gcm::new(&[1u8; 16]).unwrap().backend(),
        Backend::AesNiClmul
    );
    assert_eq!(
        Aes256Gcm::new(&[1u8; 32]).unwrap().backend(),
        Backend::AesNiClmul
    );
    assert_eq!(
        Aes128Gcm::new_from_slice(&[1u8; 16]).unwrap().backend(),
        Backend::AesNiClmul
    );
    assert_eq!(
        Aes256Gcm::new_from_slice(&[1u8; 32]).unwrap().backend(),
        Backend::AesNiClmul
    );
}

#[cfg(target_arch = "x86_64")]
#[test]
fn with_backend_aesni_clmul_on_x86_64() {
    let k128 = Aes128Gcm::with_backend(&[2u8; 16], Backend::AesNiClmul).unwrap();
    let k256 = Aes256Gcm::with_backend(&[2u8; 32], Backend::AesNiClmul).unwrap();
    assert_eq!(k128.backend(), Backend::AesNiClmul);
    assert_eq!(k256.backend(), Backend::AesNiClmul);
    // A forced tier computes what the default one does.
    let nonce = [3u8; 12];
    assert_eq!(
        k128.encrypt(&nonce, b"a", b"message").unwrap(),
        Aes128Gcm::new(&[2u8; 16])
            .unwrap()
            .encrypt(&nonce, b"a", b"message")
            .unwrap()
    );
}

/// Not built yet: the VAES (AVX2, AVX-512) and ARMv8 tiers. UPDATE THIS as each
/// lands (then it must succeed where the CPU has the features).
#[test]
fn unbuilt_tiers_are_refused() {
    for backend in [Backend::VaesAvx2, Backend::VaesAvx512, Backend::Armv8] {
        match Aes128Gcm::with_backend(&[0u8; 16], backend) {
            Err(Error::UnsupportedCpu { missing }) => assert!(!missing.is_empty()),
            other => panic!("AES-128 with_backend({backend:?}) gave {other:?}"),
        }
        match Aes256Gcm::with_backend(&[0u8; 32], backend) {
            Err(Error::UnsupportedCpu { missing }) => assert!(!missing.is_empty()),
            other => panic!("AES-256 with_backend({backend:?}) gave {other:?}"),
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[test]
fn no_tier_on_this_architecture_yet() {
    // Only x86_64 has a tier in this build: construction must say so, not panic.
    assert!(matches!(
        Aes128Gcm::new(&[0u8; 16]),
        Err(Error::UnsupportedCpu { .. })
    ));
}

#[test]
fn backends_display_distinct_names() {
    let names: Vec<String> = [
        Backend::AesNiClmul,
        Backend::VaesAvx2,
        Backend::VaesAvx512,
        Backend::Armv8,
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
