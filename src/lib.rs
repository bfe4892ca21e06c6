//! # hardware-aead
//!
//! Authenticated encryption that runs every AES round and every GF(2^128)
//! multiplication on the CPU's cryptography instructions.
//!
//! - [`aes_gcm::Aes128Gcm`], [`aes_gcm::Aes256Gcm`]: AES-GCM (NIST SP 800-38D) with
//!   96-bit nonces and 128-bit tags.
//! - [`aes_gcm_siv::Aes128GcmSiv`], [`aes_gcm_siv::Aes256GcmSiv`]: AES-GCM-SIV
//!   (RFC 8452), nonce-misuse resistant.
//! - [`xaes_gcm::Xaes256Gcm`]: XAES-256-GCM (C2SP), AES-256-GCM with 192-bit
//!   nonces that are safe to draw at random.
//! - [`xaes_gcm::KcXaes256Gcm`]: KC-XAES-256-GCM, XAES-256-GCM whose 48-byte
//!   tag also commits to the key (IACR ePrint 2025/758, as AWS-LC).
//! - [`aegis`]: AEGIS-128L, AEGIS-256 and their X2/X4 variants
//!   (draft-irtf-cfrg-aegis-aead-18), AES rounds and no multiplication,
//!   16- or 32-byte tags.
//! - One set of calls on every key type, as inherent methods (no import
//!   needed) and as the trait [`AeadKey`] for generic code: `seal` and
//!   `open`, with explicit or generated nonces, allocating, `_to`
//!   (allocation-free) and in-place.
//! - [`placement`]: key state built in memory the caller chooses, wiped on drop.
//! - [`random`]: a fork-safe AES-256-CTR generator for keys and nonces.
//! - [`quic`]: QUIC's AES header protection (RFC 9001 §5.4.3), for QUIC
//!   stacks; the rustls provider is the crate `hardware-aead-rustls`.
//! - `ece` (cargo feature `ece`): RFC 8188 `aes128gcm`, the encrypted content
//!   coding of HTTP and Web Push, one-shot and as `io::Write` / `io::Read`
//!   adapters.
//!
//! ## Supported CPUs
//!
//! | architecture | needs | [`Tier`] |
//! |---|---|---|
//! | x86_64 | VAES, VPCLMULQDQ, AVX-512F/BW/VL | [`Tier::VaesAvx512`] |
//! | x86_64 | VAES, VPCLMULQDQ, AVX2 | [`Tier::VaesAvx2`] |
//! | x86_64 | AES-NI, PCLMULQDQ, SSSE3, SSE4.1 (Intel Westmere, AMD Bulldozer and later) | [`Tier::AesNiClmul`] |
//! | aarch64 | ARMv8 Cryptography Extension: AES and PMULL | [`Tier::Armv8`] |
//!
//! A key type's `new` ([`AeadKey::new`]) picks the first row the CPU has;
//! `with_tier` ([`AeadKey::with_tier`]) forces one. There is no software fallback. On a CPU without these instructions,
//! key construction returns [`Error::UnsupportedCpu`] naming the first missing
//! feature, before it reads the key.
//!
//! ## Example
//!
//! ```
//! use hardware_aead::{Error, aes_gcm::Aes256Gcm};
//!
//! # fn main() -> Result<(), Error> {
//! let key = Aes256Gcm::new(&[0x42; 32])?;
//! let nonce = [7u8; 12]; // unique per message under one key
//!
//! let sealed = key.seal(&nonce, b"header", b"the plaintext")?;
//! assert_eq!(key.open(&nonce, b"header", &sealed)?, b"the plaintext");
//!
//! // Allocation-free: seal into a caller buffer.
//! let mut out = [0u8; 13 + 16];
//! let n = key.seal_to(&nonce, b"header", b"the plaintext", &mut out)?;
//! assert_eq!(&out[..n], &sealed[..]);
//! # Ok(()) }
//! ```
//!
//! ## Cargo features and `no_std`
//!
//! The crate is `#![no_std]`; what needs more comes with a feature:
//!
//! | feature | adds | why it needs it |
//! |---|---|---|
//! | (none) | every key type: [`AeadKey::new`], [`AeadKey::with_tier`], the `_to` methods, the in-place methods, [`AeadKey::open_with_nonce_appended_to`], [`placement`], [`stream::Encryptor`] and [`stream::Decryptor`] (their `_to` and in-place calls), [`Error`] (with `core::error::Error`) | only `core`: CPU detection reads `cpuid`/`xgetbv` itself on x86_64, and on aarch64 the kernel's hardware capabilities (`getauxval` through libc on Linux and Android) or, elsewhere, the build's target features |
//! | `alloc` | the methods that return a `Vec` ([`AeadKey::seal`], [`AeadKey::open`], [`AeadKey::open_with_nonce_appended`]) | the allocation |
//! | `getrandom` | [`random::Generator`], [`random::process_restored`] | the operating system's randomness (`getrandom`, which works without `std` on the targets it supports); fork detection rides on libc where there is one (`pthread_atfork`, `MADV_WIPEONFORK`, `getpid`) |
//! | `std` (default; implies both) | the generated-nonce methods ([`AeadKey::seal_with_generated_nonce`] and kin), [`random::fill`], the `std::io` adapters of [`stream`] ([`stream::Writer`], [`stream::Reader`], [`stream::DecryptingWriter`]), the standard library's CPU detection | thread-local storage: each thread's nonce reservations and generator, and the re-entrancy flags that keep a signal handler from reusing a nonce; `std::io` for the adapters |
//! | `aead` | RustCrypto's `aead` 0.6 traits ([`aead_traits`]) | the `aead` crate |
//! | `cpu-rng-reseed` (default) | RDSEED / RNDRRS mixed into the generator's seeds | — |
//!
//! x86_64 targets whose ABI is soft-float (`x86_64-unknown-none`,
//! `x86_64-unknown-uefi`) type-check (`cargo check`) but do not build: LLVM
//! cannot compile SSE/AVX register code for them at all, even inside
//! `#[target_feature]` functions (rust-lang/rust#133707), and this crate has
//! no other code. A kernel or firmware that uses the AES instructions saves
//! the vector registers anyway; such code builds with a target whose ABI has
//! SSE2 (a custom target specification, or a hosted target with `#![no_std]`).
//!
//! ## Safety model
//!
//! Kernels are safe `#[target_feature]` functions; they are reached only through a
//! token that proves the CPU features were detected. The remaining `unsafe` is at
//! that dispatch, on raw loads and stores (each bounds-checked), in `asm!` blocks
//! (AES rounds pinned in the stitched loops, the DIT register on aarch64) and in
//! `libc` calls (the fork-detection page, `pthread_atfork`), each justified in
//! place. Key state is zeroized on drop, tags are compared in constant time, and a
//! failed decryption leaves the output all zero.

#![cfg_attr(not(test), no_std)]
// Where there is no tier (architectures other than x86_64 and aarch64),
// `backend::TierToken` has no value: every constructor returns `UnsupportedCpu`,
// and the code after a tier would be used is unreachable there by design.
#![cfg_attr(
    not(any(target_arch = "x86_64", target_arch = "aarch64")),
    allow(unreachable_code, unused_variables, dead_code)
)]

#[cfg(feature = "alloc")]
extern crate alloc;
// Unit tests link std anyway (the crate is `no_std` only outside `cfg(test)`).
#[cfg(all(feature = "std", not(test)))]
extern crate std;

mod cpu;

mod aead;
#[cfg(feature = "aead")]
pub mod aead_traits;
pub mod aegis;
pub mod aes_gcm;
pub mod aes_gcm_siv;
mod backend;
mod block;
#[cfg(feature = "ece")]
pub mod ece;
mod error;
mod inout;
mod key;
mod nonce;
pub mod placement;
pub mod quic;
#[cfg(feature = "getrandom")]
pub mod random;
pub mod stream;
pub mod xaes_gcm;

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod model;

pub use crate::aead::{AeadKey, TAG_LEN, Tag};
pub use crate::backend::Tier;
pub use crate::error::Error;

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
