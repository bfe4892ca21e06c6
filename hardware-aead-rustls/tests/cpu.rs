//! Every public way to a suite of this crate, on the CPU the test runs on.
//! With a hardware-aead tier each gives this crate's suites; without one
//! each returns `UnsupportedCpu`, at configuration time: no configuration
//! is built, no handshake starts, nothing panics. `.ci/run` runs this file
//! under `qemu-x86_64-static -cpu qemu64` (no AES-NI) with
//! `HARDWARE_AEAD_RUSTLS_EXPECT_NO_TIER=1`, so that the refusal is what is
//! tested there and cannot pass as the other case.

use hardware_aead::Error;
use rustls::crypto::CryptoProvider;

/// Whether this CPU has the instructions of hardware-aead's slowest tier,
/// read from the standard library's detection (not hardware-aead's).
fn cpu_has_a_tier() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("aes")
            && std::arch::is_x86_feature_detected!("pclmulqdq")
            && std::arch::is_x86_feature_detected!("ssse3")
            && std::arch::is_x86_feature_detected!("sse4.1")
    }
    #[cfg(target_arch = "aarch64")]
    {
        std::arch::is_aarch64_feature_detected!("aes")
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
    }
}

/// Every public way to one of this crate's suites, by name, with what it
/// gave: the suites it holds, or the error.
fn every_way() -> Vec<(&'static str, Result<Vec<rustls::CipherSuite>, Error>)> {
    let suites_of = |p: CryptoProvider| p.cipher_suites.iter().map(|s| s.suite()).collect();
    let mut tls13_only = rustls::crypto::ring::default_provider();
    tls13_only
        .cipher_suites
        .retain(|s| s.version() == &rustls::version::TLS13);
    vec![
        (
            "cipher_suites()",
            hardware_aead_rustls::cipher_suites().map(|s| s.iter().map(|s| s.suite()).collect()),
        ),
        (
            "provider()",
            hardware_aead_rustls::provider().map(suites_of),
        ),
        (
            "wrap(ring's provider)",
            hardware_aead_rustls::wrap(rustls::crypto::ring::default_provider()).map(suites_of),
        ),
        (
            "wrap(ring's TLS 1.3 suites)",
            hardware_aead_rustls::wrap(tls13_only).map(suites_of),
        ),
    ]
}

#[test]
fn every_public_way_to_a_suite_needs_the_cpu_s_instructions() {
    let expect_no_tier = std::env::var_os("HARDWARE_AEAD_RUSTLS_EXPECT_NO_TIER").is_some();
    let has_tier = cpu_has_a_tier();
    assert!(
        !(expect_no_tier && has_tier),
        "HARDWARE_AEAD_RUSTLS_EXPECT_NO_TIER is set, but this CPU has AES and carry-less multiply"
    );
    for (way, got) in every_way() {
        if has_tier {
            let suites = got.unwrap_or_else(|e| panic!("{way}: {e:?} on a CPU with a tier"));
            assert!(
                suites.contains(&rustls::CipherSuite::TLS13_AES_128_GCM_SHA256),
                "{way}: {suites:?}"
            );
        } else {
            match got {
                Err(Error::UnsupportedCpu { missing }) => {
                    assert!(!missing.is_empty(), "{way}");
                    println!("{way}: UnsupportedCpu {{ missing: {missing:?} }}");
                }
                other => panic!("{way}: {other:?} on a CPU without a tier"),
            }
        }
    }
    // Without a tier, a configuration cannot even be started: the error
    // comes before `ClientConfig::builder_with_provider`.
    let config = hardware_aead_rustls::provider().map(|p| {
        rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(p))
            .with_safe_default_protocol_versions()
            .is_ok()
    });
    assert_eq!(config.is_ok(), has_tier);
}
