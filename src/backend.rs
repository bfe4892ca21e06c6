//! The one dispatch point between the algorithms and the per-tier kernels.
//!
//! A key records, at setup, which tier it uses ([`TierToken`]); each operation matches
//! on it exactly once. A tier can only be constructed through detection (its
//! variant holds the CPU feature token), and no software tier exists.

use core::fmt;
use core::mem::MaybeUninit;

use crate::block::{Block, HPowers, RoundKeys};
use crate::error::Error;
use crate::inout::InOut;

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;

pub(crate) mod aegis;
pub(crate) mod tail_mode;

/// The hardware tier a key uses: which instructions run its AES rounds and
/// its GF(2^128) multiplies.
///
/// [`new`](crate::AeadKey::new) picks the fastest tier the CPU supports;
/// [`with_tier`](crate::AeadKey::with_tier) forces one and returns
/// [`Error::UnsupportedCpu`] if the CPU (or this build) lacks it. The enum is
/// `#[non_exhaustive]`: later versions may add tiers, so a `match` on it
/// needs a `_` arm.
///
/// # Example
///
/// ```
/// use hardware_aead::{Tier, aes_gcm::Aes128Gcm};
///
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = Aes128Gcm::new(&[7u8; 16])?;
/// println!("sealing with {}", key.tier());
/// # #[cfg(target_arch = "x86_64")]
/// assert_eq!(Aes128Gcm::with_tier(&[7u8; 16], Tier::AesNiClmul)?.tier(),
///            Tier::AesNiClmul);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tier {
    /// x86_64 AES-NI and PCLMULQDQ on 128-bit registers, 8 blocks per iteration.
    AesNiClmul,
    /// x86_64 VAES and VPCLMULQDQ on 256-bit registers (AVX2).
    VaesAvx2,
    /// x86_64 VAES and VPCLMULQDQ on 512-bit registers (AVX-512F/BW/VL).
    VaesAvx512,
    /// aarch64 ARMv8 cryptography extension: AES and PMULL.
    Armv8,
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tier::AesNiClmul => "AES-NI + PCLMULQDQ",
            Tier::VaesAvx2 => "VAES + VPCLMULQDQ (AVX2)",
            Tier::VaesAvx512 => "VAES + VPCLMULQDQ (AVX-512)",
            Tier::Armv8 => "ARMv8 AES + PMULL",
        })
    }
}

/// A tier that detection found, holding its CPU feature token: the proof a
/// kernel needs. (`pub` only to appear in the sealed trait; the module is
/// private, so it cannot be named outside the crate.) `repr(u8)`: the tag is
/// a byte and zero is the first variant, so key state that the system zeroed
/// (see [`key::Live`](crate::key::Live)) is still a valid value to read the
/// mark from.
///
/// On other architectures it has no variant: no value of it, and so no key
/// state, can exist (every constructor returns `UnsupportedCpu` first).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(any(target_arch = "x86_64", target_arch = "aarch64"), repr(u8))]
pub enum TierToken {
    #[cfg(target_arch = "x86_64")]
    AesNiClmul(crate::cpu::AesNiClmul),
    #[cfg(target_arch = "x86_64")]
    VaesAvx2(crate::cpu::VaesAvx2),
    #[cfg(target_arch = "x86_64")]
    VaesAvx512(crate::cpu::VaesAvx512),
    #[cfg(target_arch = "aarch64")]
    Armv8(crate::cpu::Armv8),
}

/// `UnsupportedCpu`'s `missing` on an architecture without a tier: the
/// architecture, and where the tiers are.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const NO_TIER_HERE: &str = if cfg!(target_arch = "x86") {
    "a tier for x86 (32-bit): the tiers are for x86_64 and aarch64"
} else if cfg!(target_arch = "arm") {
    "a tier for arm (32-bit): the tiers are for x86_64 and aarch64"
} else if cfg!(target_arch = "riscv64") {
    "a tier for riscv64: the tiers are for x86_64 and aarch64"
} else if cfg!(target_arch = "wasm32") {
    "a tier for wasm32: the tiers are for x86_64 and aarch64"
} else {
    "a tier for this architecture: the tiers are for x86_64 and aarch64"
};

impl TierToken {
    /// The fastest tier this CPU supports.
    pub(crate) fn best() -> Result<Self, Error> {
        #[cfg(target_arch = "x86_64")]
        {
            if let Ok(t) = crate::cpu::VaesAvx512::detect() {
                return Ok(TierToken::VaesAvx512(t));
            }
            if let Ok(t) = crate::cpu::VaesAvx2::detect() {
                return Ok(TierToken::VaesAvx2(t));
            }
            crate::cpu::AesNiClmul::detect().map(TierToken::AesNiClmul)
        }
        #[cfg(target_arch = "aarch64")]
        {
            crate::cpu::Armv8::detect().map(TierToken::Armv8)
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            Err(Error::UnsupportedCpu {
                missing: NO_TIER_HERE,
            })
        }
    }

    /// The token of `tier`, if this CPU and this build have it.
    pub(crate) fn detect(tier: Tier) -> Result<Self, Error> {
        match tier {
            #[cfg(target_arch = "x86_64")]
            Tier::AesNiClmul => crate::cpu::AesNiClmul::detect().map(TierToken::AesNiClmul),
            #[cfg(target_arch = "x86_64")]
            Tier::VaesAvx512 => crate::cpu::VaesAvx512::detect().map(TierToken::VaesAvx512),
            #[cfg(target_arch = "x86_64")]
            Tier::VaesAvx2 => crate::cpu::VaesAvx2::detect().map(TierToken::VaesAvx2),
            #[cfg(not(target_arch = "x86_64"))]
            Tier::VaesAvx2 => Err(Error::UnsupportedCpu {
                missing: "x86_64 vaes (this build is not for x86_64)",
            }),
            #[cfg(not(target_arch = "x86_64"))]
            Tier::VaesAvx512 => Err(Error::UnsupportedCpu {
                missing: "x86_64 vaes (this build is not for x86_64)",
            }),
            #[cfg(not(target_arch = "x86_64"))]
            Tier::AesNiClmul => Err(Error::UnsupportedCpu {
                missing: "x86_64 aes (this build is not for x86_64)",
            }),
            #[cfg(target_arch = "aarch64")]
            Tier::Armv8 => crate::cpu::Armv8::detect().map(TierToken::Armv8),
            #[cfg(not(target_arch = "aarch64"))]
            Tier::Armv8 => Err(Error::UnsupportedCpu {
                missing: "aarch64 aes (this build is not for aarch64)",
            }),
        }
    }

    /// The public name of this tier.
    pub(crate) fn tier(self) -> Tier {
        match self {
            #[cfg(target_arch = "x86_64")]
            TierToken::AesNiClmul(_) => Tier::AesNiClmul,
            #[cfg(target_arch = "x86_64")]
            TierToken::VaesAvx2(_) => Tier::VaesAvx2,
            #[cfg(target_arch = "x86_64")]
            TierToken::VaesAvx512(_) => Tier::VaesAvx512,
            #[cfg(target_arch = "aarch64")]
            TierToken::Armv8(_) => Tier::Armv8,
        }
    }

    /// The AES-NI token every x86_64 tier implies: key setup (key expansion and
    /// the GHASH powers) runs on it for all of them.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn aesni(self) -> crate::cpu::AesNiClmul {
        match self {
            TierToken::AesNiClmul(t) => t,
            TierToken::VaesAvx2(t) => t.aesni(),
            TierToken::VaesAvx512(t) => t.aesni(),
        }
    }

    /// The ARMv8 token: the only aarch64 tier, so key setup runs on it.
    #[cfg(target_arch = "aarch64")]
    fn armv8(self) -> crate::cpu::Armv8 {
        match self {
            TierToken::Armv8(t) => t,
        }
    }
}

/// Calls `$f::<.., NB>(..)` with `NB` = the 16-byte blocks in `$len` bytes
/// (0 to 8: the sizes of the GCM-SIV short-message paths of both
/// architectures, `siv::is_one_group`'s): a branch per 16 bytes of length rather than a jump table, which
/// the constant-time check reads as an indirect jump on data.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
macro_rules! by_block_count {
    ($len:expr, $f:ident::<$($g:tt),*>($($arg:expr),*)) => {{
        let n: usize = $len;
        if n <= 64 {
            if n == 0 {
                $f::<$($g,)* 0>($($arg),*)
            } else if n <= 16 {
                $f::<$($g,)* 1>($($arg),*)
            } else if n <= 32 {
                $f::<$($g,)* 2>($($arg),*)
            } else if n <= 48 {
                $f::<$($g,)* 3>($($arg),*)
            } else {
                $f::<$($g,)* 4>($($arg),*)
            }
        } else if n <= 80 {
            $f::<$($g,)* 5>($($arg),*)
        } else if n <= 96 {
            $f::<$($g,)* 6>($($arg),*)
        } else if n <= 112 {
            $f::<$($g,)* 7>($($arg),*)
        } else {
            $f::<$($g,)* 8>($($arg),*)
        }
    }};
}
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(crate) use by_block_count;

/// Calls the kernel of `$tier` with its token first, then `$args`: the one
/// place where a tier meets its kernels. Each operation of each algorithm is
/// one invocation, that is one `match`. The second form is for the kernels
/// that run on the AES-NI code on every x86_64 tier (key setup, QUIC's
/// header protection block, XAES's key derivation and short path, the
/// generator's keystream, RFC 8188's appended block): they take the AES-NI
/// token every x86_64 tier implies (`TierToken::aesni`), or on aarch64 the ARMv8 one. Either way the ARMv8
/// kernels run with data-independent timing set around them, where the CPU
/// has it.
macro_rules! on_tier {
    (
        $tier:expr,
        aesni: $aesni:path,
        avx2: $avx2:path,
        avx512: $avx512:path,
        armv8: $armv8:path,
        ($($arg:expr),* $(,)?)
    ) => {
        match $tier {
            // SAFETY: the token in `TierToken::AesNiClmul` proves the tier's features were detected.
            #[cfg(target_arch = "x86_64")]
            TierToken::AesNiClmul(t) => unsafe { $aesni(t, $($arg),*) },
            // SAFETY: the token in `TierToken::VaesAvx2` proves the tier's features were detected.
            #[cfg(target_arch = "x86_64")]
            TierToken::VaesAvx2(t) => unsafe { $avx2(t, $($arg),*) },
            // SAFETY: the token in `TierToken::VaesAvx512` proves the tier's features were detected.
            #[cfg(target_arch = "x86_64")]
            TierToken::VaesAvx512(t) => unsafe { $avx512(t, $($arg),*) },
            // Data-independent timing set around the kernel, where the CPU has it.
            #[cfg(target_arch = "aarch64")]
            TierToken::Armv8(t) => {
                let _dit = aarch64::DitGuard::new();
                // SAFETY: the token in `TierToken::Armv8` proves the tier's features were detected.
                unsafe { $armv8(t, $($arg),*) }
            }
        }
    };
    (
        $tier:expr,
        every_x86_64_tier: $aesni:path,
        armv8: $armv8:path,
        ($($arg:expr),* $(,)?)
    ) => {{
        // SAFETY: every x86_64 tier's token holds the AES-NI token, which
        // proves the AES-NI tier's features were detected.
        #[cfg(target_arch = "x86_64")]
        let out = unsafe { $aesni($tier.aesni(), $($arg),*) };
        #[cfg(target_arch = "aarch64")]
        let out = {
            let _dit = aarch64::DitGuard::new();
            // SAFETY: the token in `TierToken::Armv8` proves the tier's features were detected.
            unsafe { $armv8($tier.armv8(), $($arg),*) }
        };
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let out = crate::backend::no_tier($tier);
        out
    }};
}

/// Any value: on an architecture without a tier, `TierToken` has no value, so a
/// dispatch (`on_tier!`) is never reached there.
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) fn no_tier<T>(tier: TierToken) -> T {
    match tier {}
}

// XAES-256-GCM's dispatch: its key derivation and short path run the
// AES-NI (ARMv8) kernels on every tier (`on_tier!`'s second form).
pub(crate) mod xaes;

/// Expands `key` into `round_keys` on `tier`'s AES instructions (`ROUND_KEYS` = 11 for
/// a 16-byte key, 15 for a 32-byte one).
pub(crate) fn expand_key<const ROUND_KEYS: usize, const KB: usize>(
    tier: TierToken,
    key: &[u8; KB],
    round_keys: &mut MaybeUninit<RoundKeys<ROUND_KEYS>>,
) {
    on_tier!(
        tier,
        every_x86_64_tier: x86_64::aes::expand,
        armv8: aarch64::aes::expand,
        (key, round_keys)
    )
}

/// AES encryption of one block under `round_keys` on `tier`'s instructions:
/// QUIC's header-protection mask ([`crate::quic::HeaderProtectionKey`]).
pub(crate) fn encrypt_block<const ROUND_KEYS: usize>(
    tier: TierToken,
    round_keys: &RoundKeys<ROUND_KEYS>,
    block: &Block,
) -> Block {
    on_tier!(
        tier,
        every_x86_64_tier: x86_64::aes::encrypt_block,
        armv8: aarch64::aes::encrypt_block,
        (round_keys, block)
    )
}

/// Expands `key` into `round_keys` and computes H^1..H^8 into `h_powers`, on
/// `tier`'s instructions.
pub(crate) fn init_gcm_key<const ROUND_KEYS: usize, const KB: usize>(
    tier: TierToken,
    key: &[u8; KB],
    round_keys: &mut MaybeUninit<RoundKeys<ROUND_KEYS>>,
    h_powers: &mut MaybeUninit<HPowers>,
) {
    on_tier!(
        tier,
        aesni: x86_64::aesni::gcm::init_key,
        avx2: x86_64::vaes::avx2::init_key,
        avx512: x86_64::vaes::avx512::init_key,
        armv8: aarch64::gcm::init_key,
        (key, round_keys, h_powers)
    )
}

/// GCM's last GHASH block, as the kernels take it (`len_block`): SP 800-38D
/// §7.1, step 5: "u = 128·⌈len(C)/128⌉ − len(C), v = 128·⌈len(A)/128⌉ −
/// len(A); S = GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64)".
/// Lengths are in bits, big-endian; the block as `u128::from_le_bytes`.
pub(crate) fn length_block(aad_len: usize, text_len: usize) -> u128 {
    let aad_bits = (aad_len as u64 * 8).to_be_bytes();
    let text_bits = (text_len as u64 * 8).to_be_bytes();
    u128::from(u64::from_le_bytes(aad_bits)) | u128::from(u64::from_le_bytes(text_bits)) << 64
}

/// GCM encryption of `data` with the key state `round_keys`, `h_powers`,
/// returning the tag: `j0` is the pre-counter block, as
/// `u128::from_le_bytes`. The length block is made here, in each tier's
/// arm, for the kernels that take it (the AVX-512 tier's short messages
/// make their own, so on that path it is never computed).
#[inline(always)]
pub(crate) fn gcm_seal<const ROUND_KEYS: usize>(
    tier: TierToken,
    round_keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
) -> Block {
    let data_len = data.len();
    on_tier!(
        tier,
        aesni: x86_64::aesni::gcm::seal,
        avx2: x86_64::vaes::avx2::seal,
        avx512: x86_64::vaes::avx512::seal,
        armv8: aarch64::gcm::seal,
        (round_keys, h_powers, j0, aad, data, length_block(aad.len(), data_len))
    )
}

/// GCM decryption of `data`, returning the tag computed over the ciphertext
/// as `u128::from_le_bytes` (in registers: the caller's comparison, inlined
/// after this call, takes it from there, and wipes on a mismatch). A seal's
/// tag stays a block in memory ([`gcm_seal`]): the caller stores it, and a
/// 16-byte load of it from two 8-byte stores would wait for them.
#[inline(always)]
pub(crate) fn gcm_open<const ROUND_KEYS: usize>(
    tier: TierToken,
    round_keys: &RoundKeys<ROUND_KEYS>,
    h_powers: &HPowers,
    j0: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
) -> u128 {
    let data_len = data.len();
    on_tier!(
        tier,
        aesni: x86_64::aesni::gcm::open,
        avx2: x86_64::vaes::avx2::open,
        avx512: x86_64::vaes::avx512::open,
        armv8: aarch64::gcm::open,
        (round_keys, h_powers, j0, aad, data, length_block(aad.len(), data_len))
    )
}

/// The length blocks of a GCM seal extended by one last partial block
/// ([`gcm_append_block`]), each as `u128::from_le_bytes` of the block.
#[derive(Clone, Copy)]
pub(crate) struct Extension {
    /// The length block of the first part (whole blocks), which its tag
    /// covers.
    pub(crate) head_len_block: u128,
    /// The length block of the whole message.
    pub(crate) len_block: u128,
}

/// The first half of extending a GCM seal by one last partial block (RFC
/// 8188 and TLS 1.3 records: the caller's data sealed where it lies, then
/// its last bytes with the delimiter or content type): `block[..n]` (1 ≤
/// `n` ≤ 16) is encrypted in place with the counter block `ctr_block` and
/// the rest of `block` zeroed, and E(K, J0) is returned for
/// [`gcm_append_block`]. It needs nothing from the seal of the whole
/// blocks, so it runs first and its two AES blocks overlap that seal. The
/// same AES-NI (or ARMv8) code on every tier.
pub(crate) fn gcm_encrypt_tail<const ROUND_KEYS: usize>(
    tier: TierToken,
    round_keys: &RoundKeys<ROUND_KEYS>,
    j0: u128,
    ctr_block: u128,
    block: &mut Block,
    n: usize,
) -> Block {
    on_tier!(
        tier,
        every_x86_64_tier: x86_64::aesni::gcm::encrypt_tail,
        armv8: aarch64::gcm::encrypt_tail,
        (round_keys, j0, ctr_block, block, n)
    )
}

/// The second half: the tag of `head ‖ c[..n]` from `head_tag`,
/// [`gcm_seal`]'s tag for `head` (whole blocks) under the same key, J0 and
/// AAD, and [`gcm_encrypt_tail`]'s `e_j0` and ciphertext block `c`. Two
/// multiplies.
pub(crate) fn gcm_append_block(
    tier: TierToken,
    h_powers: &HPowers,
    lengths: Extension,
    head_tag: &Block,
    e_j0: &Block,
    c: &Block,
) -> Block {
    on_tier!(
        tier,
        every_x86_64_tier: x86_64::aesni::gcm::append_block,
        armv8: aarch64::gcm::append_block,
        (h_powers, lengths, head_tag, e_j0, c)
    )
}

/// GCM-SIV encryption of `data` under the key-generating key's
/// `round_keys`, returning the tag; `nonce` and `len_block` as
/// `u128::from_le_bytes`.
pub(crate) fn siv_seal<const ROUND_KEYS: usize>(
    tier: TierToken,
    round_keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    len_block: u128,
) -> Block {
    on_tier!(
        tier,
        aesni: x86_64::aesni::siv::seal,
        avx2: x86_64::vaes::avx2::siv_seal,
        avx512: x86_64::vaes::avx512::siv_seal,
        armv8: aarch64::siv::seal,
        (round_keys, nonce, aad, data, len_block)
    )
}

/// GCM-SIV decryption of `data` under the received `tag`, returning the tag
/// computed over the plaintext it wrote, for the caller to compare.
pub(crate) fn siv_open<const ROUND_KEYS: usize>(
    tier: TierToken,
    round_keys: &RoundKeys<ROUND_KEYS>,
    nonce: u128,
    aad: &[u8],
    data: &mut InOut<'_>,
    tag: u128,
    len_block: u128,
) -> Block {
    on_tier!(
        tier,
        aesni: x86_64::aesni::siv::open,
        avx2: x86_64::vaes::avx2::siv_open,
        avx512: x86_64::vaes::avx512::siv_open,
        armv8: aarch64::siv::open,
        (round_keys, nonce, aad, data, tag, len_block)
    )
}

/// One AES-256-CTR keystream under `key` from counter 0, on `tier`: blocks 0
/// and 1 into `next`, the rest into `out` (the random generator's refill;
/// `random.rs` says what it does with them).
#[cfg_attr(
    not(feature = "getrandom"),
    allow(dead_code, reason = "the generator needs getrandom")
)]
pub(crate) fn keystream(tier: TierToken, key: &[u8; 32], next: &mut [u8; 32], out: &mut [u8]) {
    on_tier!(
        tier,
        every_x86_64_tier: x86_64::aesni::ctr::keystream,
        armv8: aarch64::ctr::keystream,
        (key, next, out)
    )
}

/// The dispatch function of one AEGIS variant: encryption (`SEAL`) or
/// decryption of `data` under `key` and `nonce` (`KB` blocks each), the
/// `T`-byte tag returned (to send, or for the caller to compare). Each tier
/// runs `backend::aegis::seal_or_open` for the family (`S` state words, `W`
/// message words an update) with `WB`-byte state words in the registers
/// named here, with the code laid out as the second parameter says
/// (`backend::aegis::Schedule`: the word order of an update and the updates
/// a loop iteration, measured per tier and variant: docs/benchmarks.md,
/// "AEGIS on Zen 4"; `Ascending` when none is named).
macro_rules! aegis_dispatch {
    ($(
        $(#[$doc:meta])*
        $name:ident: S = $s:literal, W = $w:literal, KB = $kb:literal, WB = $wb:literal,
        aesni: $xmm:ty, avx2: $avx2:ty, avx512: $avx512:ty, armv8: $neon:ty;
    )+) => {$(
        $(#[$doc])*
        pub(crate) fn $name<const SEAL: bool, const T: usize>(
            tier: TierToken,
            key: &[Block; $kb],
            nonce: &[Block; $kb],
            aad: &[u8],
            data: &mut InOut<'_>,
        ) -> [u8; T] {
            on_tier!(
                tier,
                aesni: x86_64::aegis::aegis::<SEAL, $xmm, $wb, $s, $w, $kb, T>,
                avx2: x86_64::vaes::avx2::aegis::<SEAL, $avx2, $wb, $s, $w, $kb, T>,
                avx512: x86_64::vaes::avx512::aegis::<SEAL, $avx512, $wb, $s, $w, $kb, T>,
                armv8: aarch64::aegis::aegis::<SEAL, $neon, $wb, $s, $w, $kb, T>,
                (key, nonce, aad, data)
            )
        }
    )+};
}

aegis_dispatch! {
    /// AEGIS-128L: one lane, in xmm registers on every x86_64 tier.
    aegis128l: S = 8, W = 2, KB = 1, WB = 16,
        aesni: x86_64::aegis::Xmm<1, aegis::AscendingPairs>,
        avx2: x86_64::aegis::Xmm<1, aegis::DescendingPairs>,
        avx512: x86_64::aegis::Xmm<1, aegis::Descending>,
        armv8: aarch64::aegis::Neon<1>;
    /// AEGIS-128X2: two lanes, a ymm register a word on the VAES tiers.
    aegis128x2: S = 8, W = 2, KB = 1, WB = 32,
        aesni: x86_64::aegis::Xmm<2, aegis::AscendingPairs>,
        avx2: x86_64::aegis::Ymm<1, aegis::AscendingPairs>,
        avx512: x86_64::aegis::Ymm<1, aegis::Descending>,
        armv8: aarch64::aegis::Neon<2>;
    /// AEGIS-128X4: four lanes, two ymm or one zmm register a word.
    aegis128x4: S = 8, W = 2, KB = 1, WB = 64,
        aesni: x86_64::aegis::Xmm<4, aegis::AscendingPairs>,
        avx2: x86_64::aegis::Ymm<2, aegis::AscendingPairs>,
        avx512: x86_64::aegis::Zmm,
        armv8: aarch64::aegis::Neon<4>;
    /// AEGIS-256: one lane, in xmm registers on every x86_64 tier.
    aegis256: S = 6, W = 1, KB = 2, WB = 16,
        aesni: x86_64::aegis::Xmm<1, aegis::AscendingPairs>,
        avx2: x86_64::aegis::Xmm<1, aegis::Descending>,
        avx512: x86_64::aegis::Xmm<1, aegis::Descending>,
        armv8: aarch64::aegis::Neon<1>;
    /// AEGIS-256X2: two lanes, a ymm register a word on the VAES tiers.
    aegis256x2: S = 6, W = 1, KB = 2, WB = 32,
        aesni: x86_64::aegis::Xmm<2, aegis::AscendingPairs>,
        avx2: x86_64::aegis::Ymm<1, aegis::Descending>,
        avx512: x86_64::aegis::Ymm<1, aegis::Descending>,
        armv8: aarch64::aegis::Neon<2>;
    /// AEGIS-256X4: four lanes, two ymm or one zmm register a word.
    aegis256x4: S = 6, W = 1, KB = 2, WB = 64,
        aesni: x86_64::aegis::Xmm<4, aegis::AscendingPairs>,
        avx2: x86_64::aegis::Ymm<2, aegis::DescendingPairs>,
        avx512: x86_64::aegis::Zmm,
        armv8: aarch64::aegis::Neon<4>;
}
