//! The one dispatch point between the algorithms and the per-tier kernels.
//!
//! A key records, at setup, which tier it uses ([`Tier`]); each operation matches
//! on it exactly once. A tier can only be constructed through detection (its
//! variant holds the CPU feature token), and no software tier exists.

use core::fmt;
use core::marker::PhantomData;
use core::mem::MaybeUninit;

use crate::error::Error;
use crate::nonce::NonceSequence;

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;

/// The hardware path a key uses.
///
/// [`new`](crate::Aead::new) picks the fastest tier the CPU supports;
/// [`with_backend`](crate::Aead::with_backend) forces one and returns
/// [`Error::UnsupportedCpu`] if the CPU (or this build) lacks it. The enum is
/// `#[non_exhaustive]`: later versions may add tiers, so a `match` on it
/// needs a `_` arm.
///
/// # Example
///
/// ```
/// use hardware_aead::{Aead, Backend, aes_gcm::Aes128Gcm};
///
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = Aes128Gcm::new(&[7u8; 16])?;
/// println!("sealing with {}", key.backend());
/// # #[cfg(target_arch = "x86_64")]
/// assert_eq!(Aes128Gcm::with_backend(&[7u8; 16], Backend::AesNiClmul)?.backend(),
///            Backend::AesNiClmul);
/// # Ok(()) }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// x86_64 AES-NI and PCLMULQDQ on 128-bit registers, 8 blocks per iteration.
    AesNiClmul,
    /// x86_64 VAES and VPCLMULQDQ on 256-bit registers (AVX2).
    VaesAvx2,
    /// x86_64 VAES and VPCLMULQDQ on 512-bit registers (AVX-512F/BW/VL).
    VaesAvx512,
    /// aarch64 ARMv8 cryptography extension: AES and PMULL.
    Armv8,
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Backend::AesNiClmul => "AES-NI + PCLMULQDQ",
            Backend::VaesAvx2 => "VAES + VPCLMULQDQ (AVX2)",
            Backend::VaesAvx512 => "VAES + VPCLMULQDQ (AVX-512)",
            Backend::Armv8 => "ARMv8 AES + PMULL",
        })
    }
}

/// A detected tier: the proof a kernel needs. (`pub` only to appear in the sealed
/// trait; the module is private, so it cannot be named outside the crate.)
/// `repr(u8)`: the tag is a byte and zero is the first variant, so key state
/// that the system zeroed (see [`Live`]) is still a valid value to read the
/// mark from.
#[derive(Clone, Copy, Debug)]
#[repr(u8)]
pub enum Tier {
    #[cfg(target_arch = "x86_64")]
    AesNiClmul(crate::cpu::AesNiClmul),
    #[cfg(target_arch = "x86_64")]
    VaesAvx2(crate::cpu::VaesAvx2),
    #[cfg(target_arch = "x86_64")]
    VaesAvx512(crate::cpu::VaesAvx512),
    #[cfg(target_arch = "aarch64")]
    Armv8(crate::cpu::Armv8),
}

impl Tier {
    /// The fastest tier this CPU supports.
    pub(crate) fn best() -> Result<Self, Error> {
        #[cfg(target_arch = "x86_64")]
        {
            if let Ok(t) = crate::cpu::VaesAvx512::detect() {
                return Ok(Tier::VaesAvx512(t));
            }
            if let Ok(t) = crate::cpu::VaesAvx2::detect() {
                return Ok(Tier::VaesAvx2(t));
            }
            crate::cpu::AesNiClmul::detect().map(Tier::AesNiClmul)
        }
        #[cfg(target_arch = "aarch64")]
        {
            crate::cpu::Armv8::detect().map(Tier::Armv8)
        }
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            Err(Error::UnsupportedCpu {
                missing: "x86_64 aes (no backend for this architecture in this build)",
            })
        }
    }

    /// The tier for `backend`, if this CPU and this build have it.
    pub(crate) fn for_backend(backend: Backend) -> Result<Self, Error> {
        match backend {
            #[cfg(target_arch = "x86_64")]
            Backend::AesNiClmul => crate::cpu::AesNiClmul::detect().map(Tier::AesNiClmul),
            #[cfg(target_arch = "x86_64")]
            Backend::VaesAvx512 => crate::cpu::VaesAvx512::detect().map(Tier::VaesAvx512),
            #[cfg(target_arch = "x86_64")]
            Backend::VaesAvx2 => crate::cpu::VaesAvx2::detect().map(Tier::VaesAvx2),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::VaesAvx2 => Err(Error::UnsupportedCpu {
                missing: "x86_64 vaes (this build is not for x86_64)",
            }),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::VaesAvx512 => Err(Error::UnsupportedCpu {
                missing: "x86_64 vaes (this build is not for x86_64)",
            }),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::AesNiClmul => Err(Error::UnsupportedCpu {
                missing: "x86_64 aes (this build is not for x86_64)",
            }),
            #[cfg(target_arch = "aarch64")]
            Backend::Armv8 => crate::cpu::Armv8::detect().map(Tier::Armv8),
            #[cfg(not(target_arch = "aarch64"))]
            Backend::Armv8 => Err(Error::UnsupportedCpu {
                missing: "aarch64 aes (this build is not for aarch64)",
            }),
        }
    }

    /// The public name of this tier.
    pub(crate) fn backend(self) -> Backend {
        match self {
            #[cfg(target_arch = "x86_64")]
            Tier::AesNiClmul(_) => Backend::AesNiClmul,
            #[cfg(target_arch = "x86_64")]
            Tier::VaesAvx2(_) => Backend::VaesAvx2,
            #[cfg(target_arch = "x86_64")]
            Tier::VaesAvx512(_) => Backend::VaesAvx512,
            #[cfg(target_arch = "aarch64")]
            Tier::Armv8(_) => Backend::Armv8,
        }
    }

    /// The AES-NI token every x86_64 tier implies: key setup (key expansion and
    /// the GHASH powers) runs on it for all of them.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn aesni(self) -> crate::cpu::AesNiClmul {
        match self {
            Tier::AesNiClmul(t) => t,
            Tier::VaesAvx2(t) => t.aesni(),
            Tier::VaesAvx512(t) => t.aesni(),
        }
    }

    /// The ARMv8 token: the only aarch64 tier, so key setup runs on it.
    #[cfg(target_arch = "aarch64")]
    fn armv8(self) -> crate::cpu::Armv8 {
        match self {
            Tier::Armv8(t) => t,
        }
    }
}

/// Calls the kernel of `$tier` with its token first, then `$args`: the one
/// place where a tier meets its kernels. Each operation of each algorithm is
/// one invocation, that is one `match`.
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
            // SAFETY: the token in `Tier::AesNiClmul` proves the tier's features were detected.
            #[cfg(target_arch = "x86_64")]
            Tier::AesNiClmul(t) => unsafe { $aesni(t, $($arg),*) },
            // SAFETY: the token in `Tier::VaesAvx2` proves the tier's features were detected.
            #[cfg(target_arch = "x86_64")]
            Tier::VaesAvx2(t) => unsafe { $avx2(t, $($arg),*) },
            // SAFETY: the token in `Tier::VaesAvx512` proves the tier's features were detected.
            #[cfg(target_arch = "x86_64")]
            Tier::VaesAvx512(t) => unsafe { $avx512(t, $($arg),*) },
            // Data-independent timing set around the kernel, where the CPU has it.
            #[cfg(target_arch = "aarch64")]
            Tier::Armv8(t) => {
                let _dit = aarch64::DitGuard::new();
                // SAFETY: the token in `Tier::Armv8` proves the tier's features were detected.
                unsafe { $armv8(t, $($arg),*) }
            }
        }
    };
}

// XAES-256-GCM's key state: after `on_tier!`, which it uses.
mod xaes;
pub(crate) use xaes::XaesKey;

/// Overwrites a stack buffer of message bytes before it goes out of scope
/// (tails and partial blocks copied through the stack): one volatile store of
/// the whole array, which the compiler lowers to wide stores and may not drop.
#[inline(always)]
pub(crate) fn wipe<const N: usize>(buf: &mut [u8; N]) {
    // SAFETY: `buf` is a valid, aligned, exclusive reference to `N` bytes.
    unsafe { core::ptr::write_volatile(buf, [0u8; N]) };
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// One 16-byte block.
pub(crate) type Block = [u8; 16];

/// The first `min(16, bytes.len())` bytes of `bytes`, zero-padded to a block.
#[inline(always)]
pub(crate) fn padded_block(bytes: &[u8]) -> Block {
    let mut block = [0u8; 16];
    let n = bytes.len().min(16);
    // SAFETY: `n <= bytes.len()` and `n <= 16`; `block` is a distinct local.
    unsafe { copy_short::<16>(bytes.as_ptr(), block.as_mut_ptr(), n) };
    block
}

/// Overwrites blocks of key state with zeros when they drop: one volatile
/// 16-byte store a block. (`Zeroize` on `[[u8; 16]; N]` stores byte by byte:
/// 368 single-byte stores for an AES-256-GCM key, a third of its setup time.)
#[inline(always)]
pub(crate) fn wipe_blocks<const N: usize>(blocks: &mut [Block; N]) {
    for block in blocks {
        // SAFETY: `block` is a valid, aligned, exclusive reference to 16 bytes.
        unsafe { core::ptr::write_volatile(block, [0u8; 16]) };
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// AES round keys in the FIPS-197 byte order: `NK` = 11 for AES-128, 15 for AES-256.
#[repr(C, align(16))]
pub(crate) struct RoundKeys<const NK: usize>(pub(crate) [Block; NK]);

/// The GHASH key powers H^1..H^8 in the POLYVAL representation (see
/// `backend/x86_64/clmul.rs` for the maths): `0[i]` holds H^(i+1).
#[repr(C, align(16))]
pub(crate) struct HPowers(pub(crate) [Block; 8]);

/// A non-zero mark written last when a key state is built and checked before
/// every call (one load and compare). Key state placed in memory the system
/// zeroes under it — a `MADV_WIPEONFORK` or `MADV_DONTFORK` page in a child
/// process — reads back all zero, and a zero key would seal with all-zero
/// round keys and H = 0, tags that depend on the nonce alone; the call
/// returns [`Error::KeyStateLost`] instead.
#[derive(Clone, Copy)]
pub(crate) struct Live(u16);

impl Live {
    /// Any value but zero.
    const MARK: u16 = 0x4b21;

    /// No mark yet: the state is being built.
    pub(crate) const fn unset() -> Self {
        Self(0)
    }

    /// The mark of a key state that is built.
    pub(crate) const fn new() -> Self {
        Self(Self::MARK)
    }

    /// Whether the mark is still there (a volatile read: what matters is the
    /// memory now, not what the compiler saw written).
    #[inline(always)]
    pub(crate) fn holds(&self) -> bool {
        // SAFETY: `self.0` is a valid, aligned `u32`.
        unsafe { core::ptr::read_volatile(&self.0) == Self::MARK }
    }
}

/// What a key keeps besides its secrets: the tier it runs on and its
/// [`Live`] mark, 4 bytes that ride in the padding of its [`NonceSequence`]
/// (28 bytes aligned to 8). So the 32 bytes after the round keys and powers
/// hold all of a key's other state, and `size_of::<Aes256Gcm>()` is 400.
#[derive(Clone, Copy)]
pub(crate) struct KeyTag {
    tier: Tier,
    /// Written last at setup.
    live: Live,
}

/// The whole AES-GCM key state: round keys, GHASH powers, the generated-nonce
/// state with the tier and the live mark.
///
/// For AES-256 that is 15 × 16 + 8 × 16 = 368 bytes of key-equivalent state.
pub(crate) struct GcmKey<const NK: usize> {
    round_keys: RoundKeys<NK>,
    h_powers: HPowers,
    nonces: NonceSequence<KeyTag>,
}

impl<const NK: usize> Drop for RoundKeys<NK> {
    fn drop(&mut self) {
        wipe_blocks(&mut self.0);
    }
}

impl Drop for HPowers {
    fn drop(&mut self) {
        wipe_blocks(&mut self.0);
    }
}

/// Expands `key` into `round_keys` on `tier`'s AES instructions (`NK` = 11 for
/// a 16-byte key, 15 for a 32-byte one).
fn expand_key<const NK: usize, const KB: usize>(
    tier: Tier,
    key: &[u8; KB],
    round_keys: &mut MaybeUninit<RoundKeys<NK>>,
) {
    // SAFETY: the AES-NI token proves its features were detected.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        x86_64::aes::expand(tier.aesni(), key, round_keys)
    }
    #[cfg(target_arch = "aarch64")]
    let _dit = aarch64::DitGuard::new();
    // SAFETY: the ARMv8 token proves its features were detected.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        aarch64::aes::expand(tier.armv8(), key, round_keys)
    }
}

/// Expands `key` into `round_keys` and computes H^1..H^8 into `h_powers`, on
/// `tier`'s instructions.
fn init_gcm_key<const NK: usize, const KB: usize>(
    tier: Tier,
    key: &[u8; KB],
    round_keys: &mut MaybeUninit<RoundKeys<NK>>,
    h_powers: &mut MaybeUninit<HPowers>,
) {
    // SAFETY: the AES-NI token proves its features were detected.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        x86_64::gcm_aesni::init_key(tier.aesni(), key, round_keys, h_powers)
    }
    #[cfg(target_arch = "aarch64")]
    let _dit = aarch64::DitGuard::new();
    // SAFETY: the ARMv8 token proves its features were detected.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        aarch64::gcm::init_key(tier.armv8(), key, round_keys, h_powers)
    }
}

impl<const NK: usize> GcmKey<NK> {
    /// Builds the key state for `key` at `at`, field by field, so that it is
    /// never moved after construction: [`Aead::new`](crate::Aead::new) builds
    /// it in the value it returns, caller-placed keys (`placement.rs`) where
    /// the caller says.
    ///
    /// # Safety
    /// `at` must be valid for writes of `Self` and aligned for it. Whatever it
    /// held is overwritten without being dropped.
    pub(crate) unsafe fn init_at<const KB: usize>(at: *mut Self, tier: Tier, key: &[u8; KB]) {
        // SAFETY: `at` is valid for writes and aligned (caller); each write
        // targets one field of it, and `MaybeUninit<T>` has `T`'s layout, so
        // the views of the key fields as `MaybeUninit` are valid for writes.
        unsafe {
            let nonces = core::ptr::addr_of_mut!((*at).nonces);
            nonces.write(NonceSequence::new(KeyTag {
                tier,
                live: Live::unset(),
            }));
            init_gcm_key(
                tier,
                key,
                &mut *core::ptr::addr_of_mut!((*at).round_keys)
                    .cast::<MaybeUninit<RoundKeys<NK>>>(),
                &mut *core::ptr::addr_of_mut!((*at).h_powers).cast::<MaybeUninit<HPowers>>(),
            );
            core::ptr::addr_of_mut!((*nonces).tag.live).write(Live::new());
        }
    }

    /// Whether the key state is still there (see [`Live`]).
    #[inline(always)]
    pub(crate) fn is_live(&self) -> bool {
        self.nonces.tag.live.holds()
    }

    /// The key's generated-nonce state.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn nonces(&self) -> &NonceSequence<KeyTag> {
        &self.nonces
    }

    /// The tier this key runs on.
    pub(crate) fn tier(&self) -> Tier {
        self.nonces.tag.tier
    }

    /// GCM encryption of `data` in place or into its output, returning the tag.
    ///
    /// `j0` is the pre-counter block, `len_block` the final GHASH block
    /// `[len(A)]64 || [len(C)]64`; the caller builds both (SP 800-38D §7.1),
    /// as `u128::from_le_bytes` of the block so they pass in registers.
    pub(crate) fn seal(
        &self,
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        on_tier!(
            self.tier(),
            aesni: x86_64::gcm_aesni::seal,
            avx2: x86_64::gcm_vaes_avx2::seal,
            avx512: x86_64::gcm_vaes_avx512::seal,
            armv8: aarch64::gcm::seal,
            (&self.round_keys, &self.h_powers, j0, aad, data, len_block)
        )
    }

    /// GCM decryption of `data`, returning the tag computed over the ciphertext.
    /// The caller compares it with the received tag (and wipes the output if
    /// they differ); this function releases nothing by itself.
    pub(crate) fn open(
        &self,
        j0: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        on_tier!(
            self.tier(),
            aesni: x86_64::gcm_aesni::open,
            avx2: x86_64::gcm_vaes_avx2::open,
            avx512: x86_64::gcm_vaes_avx512::open,
            armv8: aarch64::gcm::open,
            (&self.round_keys, &self.h_powers, j0, aad, data, len_block)
        )
    }
}

/// The whole AES-GCM-SIV key state: the key-generating key's round keys and the
/// tier. Nothing else is reusable across nonces (RFC 8452 derives the hash and
/// encryption keys per nonce).
pub(crate) struct SivKey<const NK: usize> {
    round_keys: RoundKeys<NK>,
    /// The generated-nonce state, the tier and the live mark (see [`KeyTag`]).
    nonces: NonceSequence<KeyTag>,
}

impl<const NK: usize> SivKey<NK> {
    /// Builds the key state for `key` at `at` (see [`GcmKey::init_at`]).
    ///
    /// # Safety
    /// As for [`GcmKey::init_at`].
    pub(crate) unsafe fn init_at<const KB: usize>(at: *mut Self, tier: Tier, key: &[u8; KB]) {
        // SAFETY: `at` is valid for writes and aligned (caller); each write
        // targets one field of it (`MaybeUninit<T>` has `T`'s layout).
        unsafe {
            let nonces = core::ptr::addr_of_mut!((*at).nonces);
            nonces.write(NonceSequence::new(KeyTag {
                tier,
                live: Live::unset(),
            }));
            let round_keys = core::ptr::addr_of_mut!((*at).round_keys);
            expand_key(
                tier,
                key,
                &mut *round_keys.cast::<MaybeUninit<RoundKeys<NK>>>(),
            );
            core::ptr::addr_of_mut!((*nonces).tag.live).write(Live::new());
        }
    }

    /// Whether the key state is still there (see [`Live`]).
    #[inline(always)]
    pub(crate) fn is_live(&self) -> bool {
        self.nonces.tag.live.holds()
    }

    /// The key's generated-nonce state.
    #[cfg_attr(not(feature = "std"), allow(dead_code))]
    pub(crate) fn nonces(&self) -> &NonceSequence<KeyTag> {
        &self.nonces
    }

    /// The tier this key runs on.
    pub(crate) fn tier(&self) -> Tier {
        self.nonces.tag.tier
    }

    /// GCM-SIV encryption of `data`, returning the tag. `nonce` and
    /// `len_block` are blocks as `u128::from_le_bytes`.
    pub(crate) fn seal(
        &self,
        nonce: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        len_block: u128,
    ) -> Block {
        on_tier!(
            self.tier(),
            aesni: x86_64::siv::seal,
            avx2: x86_64::gcm_vaes_avx2::siv_seal,
            avx512: x86_64::gcm_vaes_avx512::siv_seal,
            armv8: aarch64::siv::seal,
            (&self.round_keys, nonce, aad, data, len_block)
        )
    }

    /// GCM-SIV decryption of `data` under the received `tag`, returning the tag
    /// computed over the plaintext it wrote, for the caller to compare.
    pub(crate) fn open(
        &self,
        nonce: u128,
        aad: &[u8],
        data: &mut InOut<'_>,
        tag: u128,
        len_block: u128,
    ) -> Block {
        on_tier!(
            self.tier(),
            aesni: x86_64::siv::open,
            avx2: x86_64::gcm_vaes_avx2::siv_open,
            avx512: x86_64::gcm_vaes_avx512::siv_open,
            armv8: aarch64::siv::open,
            (&self.round_keys, nonce, aad, data, tag, len_block)
        )
    }
}

/// The input and output of a kernel: one buffer transformed in place, or two
/// disjoint buffers of the same length. Reads and writes are bounds-checked
/// against that length, so a kernel cannot touch a byte outside the caller's
/// slices.
///
/// In place, a kernel must read a range before it writes it; every kernel reads a
/// group of blocks into registers, then writes the group.
pub struct InOut<'a> {
    src: *const u8,
    dst: *mut u8,
    len: usize,
    _buffers: PhantomData<&'a mut [u8]>,
}

impl<'a> InOut<'a> {
    /// Transforms `buffer` in place.
    pub(crate) fn in_place(buffer: &'a mut [u8]) -> Self {
        let dst = buffer.as_mut_ptr();
        Self {
            src: dst,
            dst,
            len: buffer.len(),
            _buffers: PhantomData,
        }
    }

    /// Reads `input`, writes the first `input.len()` bytes of `output`.
    /// The caller has checked `output.len() >= input.len()`; the length is the
    /// smaller of the two all the same.
    pub(crate) fn copy(input: &'a [u8], output: &'a mut [u8]) -> Self {
        let len = input.len().min(output.len());
        Self {
            src: input.as_ptr(),
            dst: output.as_mut_ptr(),
            len,
            _buffers: PhantomData,
        }
    }

    /// The buffers of an `aead` [`InOutBuf`](::aead::inout::InOutBuf): one
    /// buffer in place or two disjoint ones of the same length, as here. The
    /// view borrows `buffer` mutably for its whole life, so nothing else
    /// touches either buffer meanwhile.
    #[cfg(feature = "aead")]
    pub(crate) fn from_inout_buf(buffer: &'a mut ::aead::inout::InOutBuf<'_, '_, u8>) -> Self {
        let len = buffer.len();
        let (src, dst) = buffer.reborrow().into_raw();
        Self {
            src,
            dst,
            len,
            _buffers: PhantomData,
        }
    }

    /// The number of bytes to transform.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The `N` input bytes at `offset`, borrowed: kernels load them straight
    /// into registers.
    ///
    /// In place, the same bytes are the output; the shared borrow of `self`
    /// ends before [`output`](Self::output) can be called, so a kernel reads a
    /// range before it writes it and never holds both.
    #[inline(always)]
    pub(crate) fn input<const N: usize>(&self, offset: usize) -> &[u8; N] {
        let [bytes] = self.input_regs::<N, 1>(offset);
        bytes
    }

    /// The `N` output bytes at `offset`, borrowed mutably.
    #[cfg_attr(
        not(target_arch = "aarch64"),
        allow(dead_code, reason = "the x86_64 loops write through `output_regs`")
    )]
    #[inline(always)]
    pub(crate) fn output<const N: usize>(&mut self, offset: usize) -> &mut [u8; N] {
        let [bytes] = self.output_regs::<N, 1>(offset);
        bytes
    }

    /// The input bytes at `offset` as `N` registers of `R` bytes (see
    /// [`input`](Self::input)).
    #[inline(always)]
    pub(crate) fn input_regs<const R: usize, const N: usize>(
        &self,
        offset: usize,
    ) -> &[[u8; R]; N] {
        assert!(offset <= self.len && R * N <= self.len - offset);
        // SAFETY: `offset + R·N <= len` was just checked and `src` is valid for
        // `len` bytes of reads for `'a`; `[[u8; R]; N]` is `R·N` bytes with
        // alignment 1. Nothing writes these bytes while the borrow lives.
        unsafe { &*self.src.add(offset).cast::<[[u8; R]; N]>() }
    }

    /// The output bytes at `offset` as already written, as `N` registers of
    /// `R` bytes: the stitched loops hash what they wrote a group earlier
    /// from here.
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "only the x86_64 loops read their output back")
    )]
    #[inline(always)]
    pub(crate) fn written_regs<const R: usize, const N: usize>(
        &self,
        offset: usize,
    ) -> &[[u8; R]; N] {
        assert!(offset <= self.len && R * N <= self.len - offset);
        // SAFETY: `offset + R·N <= len` was just checked and `dst` comes from a
        // `&mut` slice of `len` bytes, so it is valid for reads for `'a`.
        // Nothing writes these bytes while the returned borrow (of `self`) lives.
        unsafe { &*self.dst.add(offset).cast::<[[u8; R]; N]>() }
    }

    /// The output bytes at `offset` as `N` registers of `R` bytes, borrowed
    /// mutably.
    #[inline(always)]
    pub(crate) fn output_regs<const R: usize, const N: usize>(
        &mut self,
        offset: usize,
    ) -> &mut [[u8; R]; N] {
        assert!(offset <= self.len && R * N <= self.len - offset);
        // SAFETY: `offset + R·N <= len` was just checked and `dst` is valid for
        // `len` bytes of writes for `'a` (it comes from a `&mut` slice); the
        // mutable borrow of `self` excludes any other access while it lives.
        unsafe { &mut *self.dst.add(offset).cast::<[[u8; R]; N]>() }
    }

    /// The input and the output as raw pointers, for byte-masked loads and
    /// stores (the AVX-512 tier's short-message batch), which touch only the
    /// bytes their masks select: a caller's masks may select only bytes
    /// below `len()`. The pointers are not dereferenced here.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(crate) fn raw_ptrs(&mut self) -> (*const u8, *mut u8) {
        (self.src, self.dst)
    }

    /// Copies the input bytes `offset..` (at most `B`) into the front of
    /// `buf` and returns how many were copied.
    #[inline(always)]
    pub(crate) fn read_tail<const B: usize>(&self, offset: usize, buf: &mut [u8; B]) -> usize {
        let n = self.len.saturating_sub(offset).min(B);
        // SAFETY: `offset + n <= len`, so the source range is inside the input
        // slice; `buf` is a distinct local buffer of `B >= n` bytes.
        unsafe { copy_short::<B>(self.src.wrapping_add(offset), buf.as_mut_ptr(), n) };
        n
    }

    /// Writes the first `n` bytes of `bytes` to the output at `offset`
    /// (clipped to the output length).
    #[inline(always)]
    pub(crate) fn write_tail<const B: usize>(&mut self, offset: usize, bytes: &[u8; B], n: usize) {
        let n = self.len.saturating_sub(offset).min(n).min(B);
        // SAFETY: `offset + n <= len`, so the range is inside the output slice;
        // `bytes` is a distinct local buffer of `B >= n` bytes.
        unsafe { copy_short::<B>(bytes.as_ptr(), self.dst.wrapping_add(offset), n) };
    }
}

/// Copies `n <= MAX` bytes (a tail) without a call to `memcpy`: whole 16-byte
/// blocks (a loop of fixed trip count `MAX / 16` with a test inside, which the
/// compiler unrolls instead of turning it into a `memcpy` call), then the rest
/// with two overlapping loads and stores of the widest size that fits, all
/// inside `src[..n]` and `dst[..n]`.
///
/// # Safety
/// `src` must be valid for `n` bytes of reads and `dst` for `n` bytes of
/// writes, and the two ranges must not overlap.
#[inline(always)]
unsafe fn copy_short<const MAX: usize>(src: *const u8, dst: *mut u8, n: usize) {
    /// Copies `src[..n]` to `dst[..n]` for `W <= n <= 2W` with two windows.
    ///
    /// # Safety
    /// As for `copy_short`, and `W <= n`.
    #[inline(always)]
    unsafe fn pair<const W: usize>(src: *const u8, dst: *mut u8, n: usize) {
        // SAFETY: W <= n, so both W-byte windows, at 0 and at n - W, lie inside
        // `src[..n]` and `dst[..n]`, which the caller guarantees are valid.
        unsafe {
            let head = src.cast::<[u8; W]>().read_unaligned();
            let tail = src.add(n - W).cast::<[u8; W]>().read_unaligned();
            dst.cast::<[u8; W]>().write_unaligned(head);
            dst.add(n - W).cast::<[u8; W]>().write_unaligned(tail);
        }
    }
    let whole = n / 16 * 16;
    for i in 0..MAX / 16 {
        if 16 * i < whole {
            // SAFETY: `16i + 16 <= whole <= n`, inside both ranges.
            unsafe { pair::<16>(src.add(16 * i), dst.add(16 * i), 16) };
        }
    }
    let rest = n - whole;
    // SAFETY: `whole + rest == n`; each call's window stays within the last `rest` bytes.
    unsafe {
        let (s, d) = (src.add(whole), dst.add(whole));
        match rest {
            0 => {}
            1 => *d = *s,
            2..=3 => pair::<2>(s, d, rest),
            4..=7 => pair::<4>(s, d, rest),
            _ => pair::<8>(s, d, rest),
        }
    }
}
