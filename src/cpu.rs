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
pub(crate) use self::x86_64::{AesNiClmul, VaesAvx2, VaesAvx512};

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;

#[cfg(target_arch = "aarch64")]
pub(crate) use self::aarch64::Armv8;

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

/// Runs a tier's detection once and answers every later call from `state`,
/// whether the tier was present or not: the CPU neither gains nor loses
/// features while the process runs, and detection is not free: a tier's
/// dozen `is_x86_feature_detected!` tests are work of their own, and
/// `TierToken::best` tries the two VAES tiers before AES-NI, so on a CPU
/// without VAES an uncached failure would be paid by every key setup
/// (docs/design.md, "Key lifecycle (`placement.rs`, `nonce.rs`,
/// `random.rs`, `random/fork.rs`)"; on Zen 1:
/// docs/measurements/2026-11-24-zen1/tables.md).
///
/// `state` is 0 before the first detection, 1 once the tier was found, and
/// 2 + i when the first missing feature is `names[i]`, so the error names it
/// on every call. `names` is the tier's feature list, in the order `detect`
/// tests it.
/// The answer after the first call is one load and a compare in line: the
/// detection itself ([`detect_first`]) is out of line and cold. (Called
/// out of line, `detect_once` is two calls a key setup on a CPU with AVX2
/// and no AVX-512, one for each VAES tier, which `perf record` of a loop
/// of key setups shows: docs/measurements/2026-11-26-issue25-session2/tables.md.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline]
pub(crate) fn detect_once(
    state: &core::sync::atomic::AtomicU8,
    names: &[&'static str],
    detect: impl FnOnce() -> Option<&'static str>,
) -> Result<(), crate::error::Error> {
    let mut known = state.load(core::sync::atomic::Ordering::Relaxed);
    if known == UNKNOWN {
        known = detect_first(state, names, detect);
    }
    match known.checked_sub(2) {
        None => Ok(()),
        Some(i) => Err(crate::error::Error::UnsupportedCpu {
            missing: names
                .get(usize::from(i))
                .copied()
                .unwrap_or("a tier feature"),
        }),
    }
}

/// `state` before the first detection.
const UNKNOWN: u8 = 0;

/// `state` once the tier was found.
const PRESENT: u8 = 1;

/// The first call of [`detect_once`]: runs `detect` and records its answer.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[cold]
#[inline(never)]
fn detect_first(
    state: &core::sync::atomic::AtomicU8,
    names: &[&'static str],
    detect: impl FnOnce() -> Option<&'static str>,
) -> u8 {
    let known = match detect() {
        None => PRESENT,
        Some(missing) => {
            let i = names.iter().position(|&n| n == missing).unwrap_or(0);
            u8::try_from(i).unwrap_or(0).saturating_add(2)
        }
    };
    state.store(known, core::sync::atomic::Ordering::Relaxed);
    known
}

/// The feature lists the backend's source files name, for the tests that
/// hold each `#[target_feature]` to its tier's list (`x86_64::tests`,
/// `aarch64::tests`): the list is written at each kernel, as a plain
/// attribute that rustfmt and rust-analyzer read, and those tests are what
/// keep every copy equal to the list detection uses.
#[cfg(test)]
pub(crate) mod feature_attributes {
    use std::path::Path;

    /// `src/<dir>.rs` and every `.rs` file under `src/<dir>/`, sorted.
    pub(crate) fn backend_files(dir: &str) -> Vec<String> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = vec![format!("{dir}.rs")];
        let mut dirs = vec![dir.to_string()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(src.join(&dir)).expect("a backend directory") {
                let entry = entry.expect("a directory entry");
                let name = entry.file_name();
                let name = name.to_str().expect("a UTF-8 file name");
                if entry.file_type().expect("a file type").is_dir() {
                    dirs.push(format!("{dir}/{name}"));
                } else if name.ends_with(".rs") {
                    files.push(format!("{dir}/{name}"));
                }
            }
        }
        files.sort();
        files
    }

    /// Each `enable = "<list>"` (a `#[target_feature]`) and `features =
    /// "<list>"` (a macro argument that becomes one) in `src/<file>`, outside
    /// comments, as (file:line, list).
    pub(crate) fn lists(file: &str) -> Vec<(String, String)> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(file);
        let text = std::fs::read_to_string(&path).expect("a source file");
        let mut out = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("//") {
                continue;
            }
            for key in ["enable = \"", "features = \""] {
                let mut rest = line;
                while let Some(at) = rest.find(key) {
                    rest = &rest[at + key.len()..];
                    let end = rest.find('"').expect("a closed string literal");
                    out.push((format!("{file}:{}", n + 1), rest[..end].to_string()));
                    rest = &rest[end..];
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::{detect_once, first_missing};
    use crate::error::Error;
    use core::cell::Cell;
    use core::sync::atomic::AtomicU8;

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

    #[test]
    fn detection_runs_once_and_remembers_either_answer() {
        let names = ["aes", "pclmulqdq", "vaes"];
        let runs = Cell::new(0);
        let missing_vaes = || {
            runs.set(runs.get() + 1);
            Some("vaes")
        };
        let absent = AtomicU8::new(0);
        for _ in 0..3 {
            assert_eq!(
                detect_once(&absent, &names, missing_vaes),
                Err(Error::UnsupportedCpu { missing: "vaes" })
            );
        }
        assert_eq!(runs.get(), 1, "a failed detection must be remembered");

        runs.set(0);
        let all_there = || {
            runs.set(runs.get() + 1);
            None
        };
        let present = AtomicU8::new(0);
        for _ in 0..3 {
            assert_eq!(detect_once(&present, &names, all_there), Ok(()));
        }
        assert_eq!(runs.get(), 1, "a successful detection must be remembered");
    }
}
