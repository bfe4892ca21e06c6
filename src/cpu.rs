//! CPU feature tokens.
//!
//! A token is a zero-sized value that can only be obtained by detecting, at run
//! time, every feature of one backend tier. Kernels take the token as their first
//! argument, so a kernel cannot be reached without detection having happened.
//!
//! Each tier's feature list is written exactly once, inside a `macro_rules!` in the
//! per-architecture file. The same macro expands both the detection code and the
//! `#[target_feature(enable = ...)]` attribute of every kernel function of that
//! tier, so the two cannot drift apart.

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

#[cfg(target_arch = "x86_64")]
pub(crate) use self::x86_64::{
    AesNiClmul, VaesAvx2, VaesAvx512, aesni_clmul, vaes_avx2, vaes_avx512,
};

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;

#[cfg(target_arch = "aarch64")]
pub(crate) use self::aarch64::{Armv8, armv8_aes};

/// Returns the first feature of `features` whose detection result is `false`.
///
/// Detection runs before any key byte is read, so this is the whole of the
/// `UnsupportedCpu` logic: the first missing feature, in the tier's own order.
#[cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(dead_code)
)]
pub(crate) fn first_missing(features: &[(&'static str, bool)]) -> Option<&'static str> {
    features
        .iter()
        .find(|&&(_, present)| !present)
        .map(|&(name, _)| name)
}

/// Runs a tier's detection until it first succeeds, then answers from
/// `detected`: the CPU does not lose features, and the tier's dozen
/// `is_x86_feature_detected!` tests cost about 10 ns of every key setup.
/// A failure is not remembered, so the error keeps naming the missing feature.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn detect_once(
    detected: &core::sync::atomic::AtomicBool,
    first_missing: impl FnOnce() -> Option<&'static str>,
) -> Result<(), crate::error::Error> {
    use core::sync::atomic::Ordering::Relaxed;
    if detected.load(Relaxed) {
        return Ok(());
    }
    match first_missing() {
        None => {
            detected.store(true, Relaxed);
            Ok(())
        }
        Some(missing) => Err(crate::error::Error::UnsupportedCpu { missing }),
    }
}

#[cfg(test)]
mod tests {
    use super::first_missing;

    #[test]
    fn first_missing_names_the_first_absent_feature() {
        assert_eq!(first_missing(&[("aes", true), ("pclmulqdq", true)]), None);
        assert_eq!(
            first_missing(&[("aes", true), ("pclmulqdq", false), ("ssse3", false)]),
            Some("pclmulqdq")
        );
        assert_eq!(
            first_missing(&[("aes", false), ("pclmulqdq", false)]),
            Some("aes")
        );
    }
}
