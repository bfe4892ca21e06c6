//! aarch64 feature tokens.

use crate::error::Error;

/// Stamps `#[target_feature(enable = ...)]` with a tier's enabled features onto
/// each item that follows. Used only through the tier macro below.
macro_rules! with_target_features {
    ([$($feature:tt),+] [$($detect_only:tt),*]) => {};
    ([$($feature:tt),+] [$($detect_only:tt),*] $item:item $($rest:item)*) => {
        #[target_feature($(enable = $feature),+)]
        $item
        with_target_features!([$($feature),+] [$($detect_only),*] $($rest)*);
    };
}

/// Detects every feature of a list at run time, in order: the enabled features,
/// then the detect-only ones.
macro_rules! detect_features {
    ([$($feature:tt),+] [$($detect_only:tt),*]) => {
        $crate::cpu::first_missing(&[
            $(($feature, std::arch::is_aarch64_feature_detected!($feature)),)+
            $(($detect_only, std::arch::is_aarch64_feature_detected!($detect_only)),)*
        ])
    };
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
/// `armv8_aes! { fn ... }` compiles each function for this tier, and
/// `armv8_aes!(@list detect_features)` detects the same list.
macro_rules! armv8_aes {
    (@list $callback:ident $($args:tt)*) => {
        $callback! { ["neon", "aes"] ["pmull"] $($args)* }
    };
    ($($item:item)*) => {
        armv8_aes!(@list with_target_features $($item)*);
    };
}

/// Proof that the CPU has Advanced SIMD, AES and PMULL.
#[derive(Clone, Copy, Debug)]
pub struct Armv8(());

impl Armv8 {
    /// Detects the tier's features; names the first one missing.
    pub(crate) fn detect() -> Result<Self, Error> {
        match armv8_aes!(@list detect_features) {
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

    #[test]
    fn the_tier_detects_aes_and_pmull_and_compiles_for_aes() {
        let (enabled, detect_only): (&[&str], &[&str]) = armv8_aes!(@list lists);
        assert!(enabled.contains(&"aes"), "{enabled:?}");
        assert!(detect_only.contains(&"pmull"), "{detect_only:?}");
    }
}
