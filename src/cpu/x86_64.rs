//! x86_64 feature tokens.

use crate::error::Error;

/// Whether the CPU has `$feature` (and the OS saves the registers it uses):
/// the standard library's detection with the `std` feature, the crate's own
/// reading of `cpuid` and `xgetbv` ([`cpuid::has`]) without it.
#[cfg(feature = "std")]
macro_rules! feature_detected {
    ($feature:tt) => {
        std::arch::is_x86_feature_detected!($feature)
    };
}

/// See the `std` version above.
#[cfg(not(feature = "std"))]
macro_rules! feature_detected {
    ($feature:tt) => {
        $crate::cpu::x86_64::cpuid::has($feature)
    };
}

/// Detects every feature of a tier's list at run time, in order, once per
/// process (`cpu::detect_once`); the value is `Ok(())` or the error naming
/// the first missing feature. Expanded once per tier, so each has its own
/// remembered answer.
macro_rules! detect_tier {
    ([$($feature:tt),+]) => {{
        static DETECTED: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);
        $crate::cpu::detect_once(&DETECTED, &[$($feature),+], || {
            $crate::cpu::first_missing(&[$(($feature, $crate::cpu::x86_64::feature_detected!($feature))),+])
        })
    }};
}
pub(crate) use feature_detected;

/// Feature detection without `std`: what `std::arch::is_x86_feature_detected!`
/// reads, for the features this crate uses. Compiled in every build, so that
/// a test compares it with the standard library's answer on each CPU the
/// suite runs on (natively and under qemu's CPU models).
#[cfg_attr(feature = "std", allow(dead_code))]
pub(crate) mod cpuid {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    use core::sync::atomic::{AtomicU32, Ordering};

    // One bit per feature in the cached word; `READ` marks it filled in.
    const AES: u32 = 1 << 0;
    const PCLMULQDQ: u32 = 1 << 1;
    const SSE2: u32 = 1 << 2;
    const SSSE3: u32 = 1 << 3;
    const SSE41: u32 = 1 << 4;
    const AVX: u32 = 1 << 5;
    const AVX2: u32 = 1 << 6;
    const VAES: u32 = 1 << 7;
    const VPCLMULQDQ: u32 = 1 << 8;
    const AVX512F: u32 = 1 << 9;
    const AVX512BW: u32 = 1 << 10;
    const AVX512VL: u32 = 1 << 11;
    const RDSEED: u32 = 1 << 12;
    const READ: u32 = 1 << 31;

    static FEATURES: AtomicU32 = AtomicU32::new(0);

    /// Whether the CPU has `feature` (spelled as in `#[target_feature]`) and,
    /// for the AVX and AVX-512 ones, the OS saves their registers. A name
    /// this crate does not use reads as absent.
    pub(crate) fn has(feature: &str) -> bool {
        let bit = match feature {
            "aes" => AES,
            "pclmulqdq" => PCLMULQDQ,
            "sse2" => SSE2,
            "ssse3" => SSSE3,
            "sse4.1" => SSE41,
            "avx" => AVX,
            "avx2" => AVX2,
            "vaes" => VAES,
            "vpclmulqdq" => VPCLMULQDQ,
            "avx512f" => AVX512F,
            "avx512bw" => AVX512BW,
            "avx512vl" => AVX512VL,
            "rdseed" => RDSEED,
            _ => return false,
        };
        let mut features = FEATURES.load(Ordering::Relaxed);
        if features & READ == 0 {
            features = read() | READ;
            FEATURES.store(features, Ordering::Relaxed);
        }
        features & bit != 0
    }

    /// XCR0, the register state the OS saves and restores.
    #[target_feature(enable = "xsave")]
    fn xcr0() -> u64 {
        #[allow(unused_unsafe, reason = "a safe intrinsic in later Rust versions")]
        // SAFETY: XGETBV with ECX = 0 reads XCR0; this function is compiled
        // for XSAVE and called only once CPUID reports OSXSAVE.
        unsafe {
            core::arch::x86_64::_xgetbv(0)
        }
    }

    /// The features, from CPUID leaves 1 and 7 (Intel SDM vol. 2A, CPUID:
    /// table 3-8 and 3-8's leaf 07H) and XCR0 (vol. 1 §13.3).
    fn read() -> u32 {
        let bit = |word: u32, n: u32| word >> n & 1 == 1;
        #[allow(unused_unsafe, reason = "a safe intrinsic in later Rust versions")]
        // SAFETY: CPUID exists on every x86_64 CPU; leaf 7 is read only when
        // leaf 0 reports it.
        let (leaf1, leaf7) = unsafe {
            let max_leaf = __cpuid(0).eax;
            (__cpuid(1), (max_leaf >= 7).then(|| __cpuid_count(7, 0)))
        };
        let (ecx1, edx1) = (leaf1.ecx, leaf1.edx);
        let (ebx7, ecx7) = leaf7.map_or((0, 0), |l| (l.ebx, l.ecx));
        // AVX state needs the OS to enable XMM and YMM saving (XCR0 bits 1
        // and 2); AVX-512 also the opmask and ZMM state (bits 5, 6, 7).
        let xcr0 = if bit(ecx1, 27) {
            // SAFETY: CPUID.1:ECX.OSXSAVE[bit 27] says XGETBV is enabled.
            unsafe { xcr0() }
        } else {
            0
        };
        let os_avx = xcr0 & 0b110 == 0b110;
        let os_avx512 = os_avx && xcr0 & 0b1110_0000 == 0b1110_0000;
        let mut features = 0;
        let mut set = |present: bool, feature: u32| {
            if present {
                features |= feature;
            }
        };
        set(bit(ecx1, 25), AES);
        set(bit(ecx1, 1), PCLMULQDQ);
        set(bit(edx1, 26), SSE2);
        set(bit(ecx1, 9), SSSE3);
        set(bit(ecx1, 19), SSE41);
        set(bit(ebx7, 18), RDSEED);
        set(os_avx && bit(ecx1, 28), AVX);
        set(os_avx && bit(ebx7, 5), AVX2);
        set(os_avx && bit(ecx7, 9), VAES);
        set(os_avx && bit(ecx7, 10), VPCLMULQDQ);
        set(os_avx512 && bit(ebx7, 16), AVX512F);
        set(os_avx512 && bit(ebx7, 30), AVX512BW);
        set(os_avx512 && bit(ebx7, 31), AVX512VL);
        features
    }
}

/// The AES-NI + PCLMULQDQ tier's feature list: `aesni_clmul!(@list
/// [detect_tier])` detects it. Each function compiled for the tier names the
/// same list in its `#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]`
/// (a plain attribute, so that rustfmt and rust-analyzer read the kernels),
/// and a test (`every_target_feature_attribute_names_a_tier`) checks each such
/// attribute in `backend/x86_64` against the three tiers' lists.
macro_rules! aesni_clmul {
    (@list [$($callback:tt)+] $($args:tt)*) => {
        $($callback)+! { ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1"] $($args)* }
    };
}

/// Proof that the CPU has AES-NI, PCLMULQDQ, SSSE3 and SSE4.1.
#[derive(Clone, Copy, Debug)]
pub struct AesNiClmul(());

impl AesNiClmul {
    /// Detects the tier's features; names the first one missing.
    pub(crate) fn detect() -> Result<Self, Error> {
        aesni_clmul!(@list [detect_tier]).map(|()| Self(()))
    }
}

/// The AES-NI token, made inside the tier's own code: a function compiled
/// with the tier's features (this one) runs only where the CPU has them,
/// since calling it from anywhere else is `unsafe` with exactly that
/// condition. For the tier's functions that take no token but call code
/// that asks for one (`backend::x86_64::engine`).
#[inline]
#[target_feature(enable = "aes,pclmulqdq,sse2,ssse3,sse4.1")]
pub(crate) fn aesni_clmul_proved() -> AesNiClmul {
    AesNiClmul(())
}

/// The VAES + VPCLMULQDQ tier on 256-bit registers: its feature list (see
/// `aesni_clmul!`). It contains the whole AES-NI list, so its token can
/// stand in for an [`AesNiClmul`] token ([`VaesAvx2::aesni`]).
macro_rules! vaes_avx2 {
    (@list [$($callback:tt)+] $($args:tt)*) => {
        $($callback)+! {
            ["aes", "pclmulqdq", "sse2", "ssse3", "sse4.1", "avx", "avx2", "vaes", "vpclmulqdq"]
            $($args)*
        }
    };
}

/// The VAES + VPCLMULQDQ tier on 512-bit registers: its feature list (see
/// `aesni_clmul!`). It contains the whole AVX2 tier's list.
macro_rules! vaes_avx512 {
    (@list [$($callback:tt)+] $($args:tt)*) => {
        $($callback)+! {
            [
                "aes", "pclmulqdq", "sse2", "ssse3", "sse4.1", "avx", "avx2", "vaes", "vpclmulqdq",
                "avx512f", "avx512bw", "avx512vl"
            ]
            $($args)*
        }
    };
}

/// Proof that the CPU has the VAES + VPCLMULQDQ AVX2 tier's features.
#[derive(Clone, Copy, Debug)]
pub struct VaesAvx2(());

impl VaesAvx2 {
    /// Detects the tier's features; names the first one missing.
    pub(crate) fn detect() -> Result<Self, Error> {
        vaes_avx2!(@list [detect_tier]).map(|()| Self(()))
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
        vaes_avx512!(@list [detect_tier]).map(|()| Self(()))
    }

    /// The AES-NI token this tier implies (see [`VaesAvx2::aesni`]).
    pub(crate) fn aesni(self) -> AesNiClmul {
        AesNiClmul(())
    }

    /// The AVX2 tier's token this tier implies (its feature list contains
    /// that one's; a unit test checks it): 256-bit VAES code (AEGIS's X2
    /// variants) runs on it.
    pub(crate) fn avx2(self) -> VaesAvx2 {
        VaesAvx2(())
    }
}

/// Whether the CPU's `vpclmulqdq` issues every cycle (Intel's cores; on
/// the AMD cores measured here, Zen 3 to 5, it issues once every two
/// cycles), which decides how many multiplies a product takes in GCM's
/// AVX-512 group loops: the tier's `vaes::Wide::FULL_RATE_MULS`
/// (`backend/x86_64/vaes.rs`, set in `vaes/avx512.rs`) where it does, three
/// where it does not (the engine's `MULS`, `backend/x86_64/engine.rs`). Read
/// from the CPUID vendor string once per process; a speed choice only:
/// either answer computes the same bytes.
pub(crate) fn clmul_every_cycle() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering};
    // 0: not read yet; 1: no; 2: yes.
    static ANSWER: AtomicU8 = AtomicU8::new(0);
    match ANSWER.load(Ordering::Relaxed) {
        0 => {
            #[allow(unused_unsafe, reason = "a safe intrinsic in later Rust versions")]
            // SAFETY: CPUID leaf 0 exists on every x86_64 CPU.
            let leaf0 = unsafe { core::arch::x86_64::__cpuid(0) };
            // "GenuineIntel", in the order EBX, EDX, ECX.
            let intel =
                (leaf0.ebx, leaf0.edx, leaf0.ecx) == (0x756e_6547, 0x4965_6e69, 0x6c65_746e);
            ANSWER.store(if intel { 2 } else { 1 }, Ordering::Relaxed);
            intel
        }
        answer => answer == 2,
    }
}

#[cfg(test)]
mod tests {
    macro_rules! list {
        ([$($feature:tt),+]) => {
            &[$($feature),+]
        };
    }

    /// The crate's own detection (used without `std`) agrees with the
    /// standard library's on this CPU, for every feature of every tier.
    #[test]
    fn cpuid_detection_agrees_with_std() {
        let every: &[&str] = vaes_avx512!(@list [list]);
        for &feature in every.iter().chain(&["rdseed"]) {
            let std = match feature {
                "aes" => std::arch::is_x86_feature_detected!("aes"),
                "pclmulqdq" => std::arch::is_x86_feature_detected!("pclmulqdq"),
                "sse2" => std::arch::is_x86_feature_detected!("sse2"),
                "ssse3" => std::arch::is_x86_feature_detected!("ssse3"),
                "sse4.1" => std::arch::is_x86_feature_detected!("sse4.1"),
                "avx" => std::arch::is_x86_feature_detected!("avx"),
                "avx2" => std::arch::is_x86_feature_detected!("avx2"),
                "vaes" => std::arch::is_x86_feature_detected!("vaes"),
                "vpclmulqdq" => std::arch::is_x86_feature_detected!("vpclmulqdq"),
                "avx512f" => std::arch::is_x86_feature_detected!("avx512f"),
                "avx512bw" => std::arch::is_x86_feature_detected!("avx512bw"),
                "avx512vl" => std::arch::is_x86_feature_detected!("avx512vl"),
                "rdseed" => std::arch::is_x86_feature_detected!("rdseed"),
                other => panic!("no std detection listed for {other}"),
            };
            assert_eq!(super::cpuid::has(feature), std, "{feature}");
        }
        assert!(!super::cpuid::has("no-such-feature"));
    }

    #[test]
    fn each_tier_contains_the_tiers_below_it() {
        let aesni: &[&str] = aesni_clmul!(@list [list]);
        let avx2: &[&str] = vaes_avx2!(@list [list]);
        let avx512: &[&str] = vaes_avx512!(@list [list]);
        assert!(
            aesni.iter().all(|f| avx2.contains(f)),
            "{aesni:?} ⊄ {avx2:?}"
        );
        assert!(
            avx2.iter().all(|f| avx512.contains(f)),
            "{avx2:?} ⊄ {avx512:?}"
        );
    }

    /// Every feature list in the x86 backend's source (each kernel's
    /// `#[target_feature(enable = "...")]`, each `vaes_register_pieces!`
    /// call's `features`) is its file's tier's whole list, in its order, as
    /// the tier macros above write it for detection; and each tier's list
    /// is used. A kernel compiled for fewer features than its tier detects
    /// would not build where they differ; for more, it could run on a CPU
    /// without them.
    #[test]
    fn every_target_feature_attribute_names_a_tier() {
        use crate::cpu::feature_attributes::{backend_files, lists};
        let tiers: [&[&str]; 3] = [
            aesni_clmul!(@list [list]),
            vaes_avx2!(@list [list]),
            vaes_avx512!(@list [list]),
        ];
        let tiers: Vec<String> = tiers.iter().map(|t| t.join(",")).collect();
        let mut used = vec![0; tiers.len()];
        let mut files = backend_files("backend/x86_64");
        files.push("cpu/x86_64.rs".to_string());
        for file in &files {
            for (place, list) in lists(file) {
                // The one function outside the tiers: reading XCR0.
                if place.starts_with("cpu/x86_64.rs") && list == "xsave" {
                    continue;
                }
                // A wide tier's file compiles for that tier; every other
                // file's kernels are the AES-NI tier's.
                let tier = match file.as_str() {
                    "backend/x86_64/vaes/avx2.rs" => 1,
                    "backend/x86_64/vaes/avx512.rs" => 2,
                    _ => 0,
                };
                assert_eq!(list, tiers[tier], "{place}: not its tier's feature list");
                used[tier] += 1;
            }
        }
        assert!(
            used.iter().all(|&n| n > 0),
            "a tier's list is never used: {used:?}"
        );
    }
}
