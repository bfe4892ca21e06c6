//! x86_64 feature tokens.

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

/// Proof that the CPU has AES-NI, PCLMULQDQ, SSSE3 and SSE4.1.
#[derive(Clone, Copy, Debug)]
pub struct AesNiClmul(());

impl AesNiClmul {
    /// Detects the tier's features; names the first one missing.
    pub(crate) fn detect() -> Result<Self, Error> {
        match aesni_clmul!(@list detect_features) {
            None => Ok(Self(())),
            Some(missing) => Err(Error::UnsupportedCpu { missing }),
        }
    }
}
