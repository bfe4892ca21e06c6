//! x86_64 feature tokens.

use core::sync::atomic::AtomicBool;

use crate::cpu::detect_once;
use crate::error::Error;

/// Stamps `#[target_feature(enable = ...)]` with a tier's feature list onto each
/// item that follows. Used only through the tier macros below.
macro_rules! with_target_features {
    ([$($feature:tt),+]) => {};
    ([$($feature:tt),+] $item:item $($rest:item)*) => {
        #[target_feature($(enable = $feature),+)]
        $item
        with_target_features!([$($feature),+] $($rest)*);
    };
}

/// Detects every feature of a list at run time, in order.
macro_rules! detect_features {
    ([$($feature:tt),+]) => {
        $crate::cpu::first_missing(&[$(($feature, std::arch::is_x86_feature_detected!($feature))),+])
    };
}

/// The AES-NI + PCLMULQDQ tier: the only place its feature list is written.
///
/// `aesni_clmul! { fn ... }` compiles each function for this tier, and
/// `aesni_clmul!(@list detect_features)` detects the same list.
macro_rules! aesni_clmul {
    (@list $callback:ident $($args:tt)*) => {
        $callback! { ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1"] $($args)* }
    };
    ($($item:item)*) => {
        aesni_clmul!(@list with_target_features $($item)*);
    };
}
pub(crate) use aesni_clmul;

/// Proof that the CPU has AES-NI, PCLMULQDQ, SSSE3 and SSE4.1.
#[derive(Clone, Copy, Debug)]
pub struct AesNiClmul(());

impl AesNiClmul {
    /// Detects the tier's features; names the first one missing.
    pub(crate) fn detect() -> Result<Self, Error> {
        static DETECTED: AtomicBool = AtomicBool::new(false);
        detect_once(&DETECTED, || aesni_clmul!(@list detect_features)).map(|()| Self(()))
    }
}

/// The VAES + VPCLMULQDQ tier on 256-bit registers: the only place its feature
/// list is written. It contains the whole AES-NI list, so its token can stand in
/// for an [`AesNiClmul`] token ([`VaesAvx2::aesni`]).
macro_rules! vaes_avx2 {
    (@list $callback:ident $($args:tt)*) => {
        $callback! {
            ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1", "avx", "avx2", "vaes", "vpclmulqdq"]
            $($args)*
        }
    };
    ($($item:item)*) => {
        vaes_avx2!(@list with_target_features $($item)*);
    };
}
pub(crate) use vaes_avx2;

/// The VAES + VPCLMULQDQ tier on 512-bit registers: the only place its feature
/// list is written. It contains the whole AVX2 tier's list.
macro_rules! vaes_avx512 {
    (@list $callback:ident $($args:tt)*) => {
        $callback! {
            [
                "aes", "pclmulqdq", "sse2", "ssse3", "sse4.1", "avx", "avx2", "vaes", "vpclmulqdq",
                "avx512f", "avx512bw", "avx512vl"
            ]
            $($args)*
        }
    };
    ($($item:item)*) => {
        vaes_avx512!(@list with_target_features $($item)*);
    };
}
pub(crate) use vaes_avx512;

/// Proof that the CPU has the VAES + VPCLMULQDQ AVX2 tier's features.
#[derive(Clone, Copy, Debug)]
pub struct VaesAvx2(());

impl VaesAvx2 {
    /// Detects the tier's features; names the first one missing.
    pub(crate) fn detect() -> Result<Self, Error> {
        static DETECTED: AtomicBool = AtomicBool::new(false);
        detect_once(&DETECTED, || vaes_avx2!(@list detect_features)).map(|()| Self(()))
    }

    /// The AES-NI token this tier implies (its feature list contains that one;
    /// a unit test checks it).
    pub(crate) fn aesni(self) -> AesNiClmul {
        AesNiClmul(())
    }
}

/// Proof that the CPU has the VAES + VPCLMULQDQ AVX-512 tier's features.
#[derive(Clone, Copy, Debug)]
pub struct VaesAvx512(());

impl VaesAvx512 {
    /// Detects the tier's features; names the first one missing.
    pub(crate) fn detect() -> Result<Self, Error> {
        static DETECTED: AtomicBool = AtomicBool::new(false);
        detect_once(&DETECTED, || vaes_avx512!(@list detect_features)).map(|()| Self(()))
    }

    /// The AES-NI token this tier implies (see [`VaesAvx2::aesni`]).
    pub(crate) fn aesni(self) -> AesNiClmul {
        AesNiClmul(())
    }
}

#[cfg(test)]
mod tests {
    macro_rules! list {
        ([$($feature:tt),+]) => {
            &[$($feature),+]
        };
    }

    #[test]
    fn each_tier_contains_the_tiers_below_it() {
        let aesni: &[&str] = aesni_clmul!(@list list);
        let avx2: &[&str] = vaes_avx2!(@list list);
        let avx512: &[&str] = vaes_avx512!(@list list);
        assert!(
            aesni.iter().all(|f| avx2.contains(f)),
            "{aesni:?} ⊄ {avx2:?}"
        );
        assert!(
            avx2.iter().all(|f| avx512.contains(f)),
            "{avx2:?} ⊄ {avx512:?}"
        );
    }
}
