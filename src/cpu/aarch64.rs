//! aarch64 feature tokens.

use crate::error::Error;

/// Whether the CPU has `$feature`: the standard library's detection with the
/// `std` feature, the crate's own ([`hwcap::has`]) without it.
#[cfg(feature = "std")]
macro_rules! feature_detected {
    ($feature:tt) => {
        std::arch::is_aarch64_feature_detected!($feature)
    };
}

/// See the `std` version above.
#[cfg(not(feature = "std"))]
macro_rules! feature_detected {
    ($feature:tt) => {
        $crate::cpu::aarch64::hwcap::has($feature)
    };
}

/// Detects every feature of a list at run time, in order: the enabled features,
/// then the detect-only ones.
macro_rules! detect_features {
    ([$($feature:tt),+] [$($detect_only:tt),*]) => {
        $crate::cpu::first_missing(&[
            $(($feature, $crate::cpu::aarch64::feature_detected!($feature)),)+
            $(($detect_only, $crate::cpu::aarch64::feature_detected!($detect_only)),)*
        ])
    };
}
pub(crate) use feature_detected;

/// Feature detection without `std`, for the features this crate uses. On
/// Linux and Android it reads the kernel's hardware capabilities
/// (`getauxval`, through libc, which needs no `std`), as the standard
/// library does; elsewhere (bare metal, other systems) it answers from the
/// features the build targets (`-C target-feature`), since reading the ID
/// registers is not allowed at EL0 everywhere. Compiled in every build so
/// that a test compares it with the standard library's answer.
#[cfg_attr(feature = "std", allow(dead_code))]
pub(crate) mod hwcap {
    /// Whether the CPU has `feature`, spelled as in `#[target_feature]`
    /// (`pmull` too); a name this crate does not use reads as absent.
    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub(crate) fn has(feature: &str) -> bool {
        // Linux, arch/arm64/include/uapi/asm/hwcap.h.
        const HWCAP_ASIMD: u64 = 1 << 1;
        const HWCAP_AES: u64 = 1 << 3;
        const HWCAP_PMULL: u64 = 1 << 4;
        const HWCAP_SHA3: u64 = 1 << 17;
        const HWCAP_SHA512: u64 = 1 << 21;
        const HWCAP_DIT: u64 = 1 << 24;
        const HWCAP2_RNG: u64 = 1 << 16;
        // SAFETY: `getauxval` has no preconditions; it returns 0 for an
        // entry the kernel did not pass.
        let (hwcap, hwcap2) = unsafe {
            (
                libc::getauxval(libc::AT_HWCAP) as u64,
                libc::getauxval(libc::AT_HWCAP2) as u64,
            )
        };
        let all = |bits: u64| hwcap & bits == bits;
        match feature {
            "neon" => all(HWCAP_ASIMD),
            // The standard library's "aes" is FEAT_AES and FEAT_PMULL both.
            "aes" => all(HWCAP_AES | HWCAP_PMULL),
            "pmull" => all(HWCAP_PMULL),
            "dit" => all(HWCAP_DIT),
            // The standard library's "sha3" is FEAT_SHA3 and FEAT_SHA512 both.
            "sha3" => all(HWCAP_SHA3 | HWCAP_SHA512),
            "rand" => hwcap2 & HWCAP2_RNG != 0,
            _ => false,
        }
    }

    /// See the Linux version above: here, the build's target features.
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub(crate) fn has(feature: &str) -> bool {
        match feature {
            "neon" => cfg!(target_feature = "neon"),
            "aes" | "pmull" => cfg!(target_feature = "aes"),
            "dit" => cfg!(target_feature = "dit"),
            "sha3" => cfg!(target_feature = "sha3"),
            "rand" => cfg!(target_feature = "rand"),
            _ => false,
        }
    }
}

/// Whether the CPU has FEAT_SHA3, whose `EOR3` (a three-way XOR) the ARMv8
/// tier's group loops use where it is present (`backend/aarch64/clmul.rs`,
/// `xor3`): optional from ARMv8.2, present on Neoverse N2, V1 and V2, absent
/// on N1 and Cortex-A72. Not part of the tier's feature list: a CPU without it
/// runs the same loops with two `EOR`s for each `EOR3`. Read once per
/// process; a speed choice only: either answer computes the same bytes.
pub(crate) fn has_eor3() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0: not read yet; 1: no; 2: yes.
    static ANSWER: AtomicU8 = AtomicU8::new(0);
    match ANSWER.load(Ordering::Relaxed) {
        0 => {
            let yes = feature_detected!("sha3");
            ANSWER.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
            yes
        }
        answer => answer == 2,
    }
}

/// The ARMv8 AES + PMULL tier: the only place its feature list is written.
///
/// The list has two parts. The first is what the kernels are compiled for and
/// what is detected: `neon` (Advanced SIMD) and `aes`. Rust's aarch64 `aes`
/// target feature is LLVM's, which covers both FEAT_AES (`AESE`, `AESMC`) and
/// FEAT_PMULL (`PMULL`, `PMULL2` on 64-bit lanes): `vmull_p64` is compiled
/// under it, and `is_aarch64_feature_detected!("aes")` is true only when the
/// OS reports both. The second part is detected but not enabled: `pmull` has
/// no target feature of its own (rustc rejects `enable = "pmull"`), and
/// detecting it by name as well keeps the check explicit should the two ever
/// be reported apart.
///
/// `armv8_aes!(@list [detect_features])` detects the list. Each function
/// compiled for the tier names its enabled part in `#[target_feature(enable
/// = "neon,aes")]` (a plain attribute, so that rustfmt and rust-analyzer read
/// the kernels), and a test (`every_target_feature_attribute_names_the_tier`)
/// checks each such attribute in `backend/aarch64`.
macro_rules! armv8_aes {
    (@list [$($callback:tt)+] $($args:tt)*) => {
        $($callback)+! { ["neon", "aes"] ["pmull"] $($args)* }
    };
}

/// Proof that the CPU has Advanced SIMD, AES and PMULL.
#[derive(Clone, Copy, Debug)]
pub struct Armv8(());

impl Armv8 {
    /// Detects the tier's features; names the first one missing.
    pub(crate) fn detect() -> Result<Self, Error> {
        match armv8_aes!(@list [detect_features]) {
            None => Ok(Self(())),
            Some(missing) => Err(Error::UnsupportedCpu { missing }),
        }
    }
}

#[cfg(test)]
mod tests {
    macro_rules! lists {
        ([$($feature:tt),+] [$($detect_only:tt),*]) => {
            (&[$($feature),+], &[$($detect_only),*])
        };
    }

    /// The crate's own detection (used without `std`) agrees with the
    /// standard library's on this CPU.
    #[test]
    fn hwcap_detection_agrees_with_std() {
        assert_eq!(
            super::hwcap::has("neon"),
            std::arch::is_aarch64_feature_detected!("neon")
        );
        assert_eq!(
            super::hwcap::has("aes"),
            std::arch::is_aarch64_feature_detected!("aes")
        );
        assert_eq!(
            super::hwcap::has("pmull"),
            std::arch::is_aarch64_feature_detected!("pmull")
        );
        assert_eq!(
            super::hwcap::has("dit"),
            std::arch::is_aarch64_feature_detected!("dit")
        );
        assert_eq!(
            super::hwcap::has("rand"),
            std::arch::is_aarch64_feature_detected!("rand")
        );
        assert_eq!(
            super::hwcap::has("sha3"),
            std::arch::is_aarch64_feature_detected!("sha3")
        );
        assert_eq!(
            super::has_eor3(),
            std::arch::is_aarch64_feature_detected!("sha3")
        );
        assert!(!super::hwcap::has("no-such-feature"));
    }

    #[test]
    fn the_tier_detects_aes_and_pmull_and_compiles_for_aes() {
        let (enabled, detect_only): (&[&str], &[&str]) = armv8_aes!(@list [lists]);
        assert!(enabled.contains(&"aes"), "{enabled:?}");
        assert!(detect_only.contains(&"pmull"), "{detect_only:?}");
    }

    /// Every feature list in the aarch64 backend's source (each kernel's
    /// `#[target_feature(enable = "...")]`) is the tier's enabled list, as
    /// `armv8_aes!` writes it for detection.
    #[test]
    fn every_target_feature_attribute_names_the_tier() {
        use crate::cpu::feature_attributes::{backend_files, lists};
        let (enabled, _detect_only): (&[&str], &[&str]) = armv8_aes!(@list [lists]);
        let tier = enabled.join(",");
        let mut seen = 0;
        for file in backend_files("backend/aarch64") {
            for (place, list) in lists(&file) {
                assert_eq!(list, tier, "{place}: not the tier's feature list");
                seen += 1;
            }
        }
        assert!(
            seen > 0,
            "no #[target_feature] found in the aarch64 backend"
        );
    }
}
