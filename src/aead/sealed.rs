//! The sealed half of the trait: what each algorithm supplies (`Core`), the
//! one tag check (`tags_match_or_wipe`) and `impl_aead!`, which writes `Core`,
//! [`AeadKey`], the inherent methods and `Debug` for a key type.

use super::AeadKey;
use crate::backend::TierToken;
use crate::block::{wipe, wipe_bytes};
use crate::error::Error;
use crate::inout::InOut;

/// What an algorithm supplies: construction from a detected tier, the length
/// limits, and the core seal/open over an in/out buffer. Not nameable outside
/// the crate, so only this crate's types implement [`AeadKey`]. The key,
/// nonce and tag types are [`AeadKey`]'s (callers name them there), so the
/// methods that take them are bound on it.
pub trait Core: Sized {
    /// Builds the key state at `at` without moving it afterwards.
    ///
    /// # Safety
    /// `at` must be valid for writes of `Self` and aligned for it.
    unsafe fn init_at(at: *mut Self, tier: TierToken, key: &<Self as AeadKey>::Key)
    where
        Self: AeadKey;

    /// The next nonce for the generated-nonce methods: the key's counter
    /// sequence (96-bit nonces), or fresh random bytes (XAES-256-GCM's
    /// 192-bit nonces).
    #[cfg(feature = "std")]
    fn generate_nonce(&self) -> Result<<Self as AeadKey>::Nonce, Error>
    where
        Self: AeadKey;

    /// Builds the key state on an already detected tier, in the value it
    /// returns (through [`init_at`](Core::init_at): no copy of the key
    /// state is made on the way).
    fn from_token(tier: TierToken, key: &<Self as AeadKey>::Key) -> Self
    where
        Self: AeadKey,
    {
        let mut state = core::mem::MaybeUninit::<Self>::uninit();
        // SAFETY: `state` is valid for writes of `Self` and aligned for it,
        // and `init_at` initialises every field of it.
        unsafe {
            Self::init_at(state.as_mut_ptr(), tier, key);
            state.assume_init()
        }
    }

    /// The tier the key state was built for.
    fn token(&self) -> TierToken;

    /// Returns `Err(InputTooLong)` if `aad_len` or `text_len` exceed the
    /// algorithm's limits.
    fn check_lengths(aad_len: usize, text_len: usize) -> Result<(), Error>;

    /// Whether the key state still holds its setup mark (`key::Live`).
    fn is_live(&self) -> bool;

    /// What every seal and open checks first: the key state is still
    /// there ([`Error::KeyStateLost`] if the system zeroed it), and the
    /// lengths are within the algorithm's limits.
    #[inline(always)]
    fn check_call(&self, aad_len: usize, text_len: usize) -> Result<(), Error> {
        if !self.is_live() {
            return Err(Error::KeyStateLost);
        }
        Self::check_lengths(aad_len, text_len)
    }

    /// Encrypts `data` and returns the tag. Lengths are already checked.
    fn seal_core(
        &self,
        nonce: &<Self as AeadKey>::Nonce,
        aad: &[u8],
        data: &mut InOut<'_>,
    ) -> <Self as AeadKey>::Tag
    where
        Self: AeadKey;

    /// Decrypts `data`, then releases it or wipes it: whether the tag the
    /// algorithm computes for it equals `tag` (the decision of
    /// [`tags_match_or_wipe`], inlined here). On `false` the output is all
    /// zero. Lengths are already checked. Out of line, one instance per key
    /// type, so that `scripts/ct-check.sh` finds each decision.
    fn open_core(
        &self,
        nonce: &<Self as AeadKey>::Nonce,
        aad: &[u8],
        data: &mut InOut<'_>,
        tag: &<Self as AeadKey>::Tag,
    ) -> bool
    where
        Self: AeadKey;
}

/// The one place that decides whether decrypted bytes are released: whether
/// `computed`, the tag an open computed over what it decrypted into `data`,
/// equals `received`; if not, `data`'s output and `computed` are zeroed
/// first. A tag of KC-XAES-256-GCM (GCM's tag and the key commitment, 48
/// bytes) is compared whole: the two checks are one comparison, with one
/// outcome. Inlined into each key type's [`Core::open_core`], so the
/// computed tag goes from the kernel's registers to the comparison without
/// a trip through memory; the wipes are out of line and cold, so the
/// accepting path is a few instructions.
#[inline(always)]
pub(crate) fn tags_match_or_wipe<T: AsRef<[u8]> + AsMut<[u8]>>(
    computed: T,
    received: &T,
    data: &mut InOut<'_>,
) -> bool {
    // XOR the tags 8 bytes at a time, OR the differences into one word and
    // compare that with zero: no early exit, and the word passes through an
    // empty `asm!` (`opaque`) first, so the compiler cannot turn the
    // folding back into a byte-by-byte test. Both tags are the same type,
    // so of the same length, a multiple of 8.
    let (computed_words, _) = computed.as_ref().as_chunks::<8>();
    let (received_words, _) = received.as_ref().as_chunks::<8>();
    let mut diff = 0u64;
    for (c, r) in computed_words.iter().zip(received_words) {
        diff |= u64::from_le_bytes(*c) ^ u64::from_le_bytes(*r);
    }
    if opaque(diff) == 0 {
        true
    } else {
        wipe_rejected(computed, data);
        false
    }
}

/// What a rejected open leaves: nothing. The output is zeroed, and so is
/// the computed tag, which after a forgery is the valid tag for the forged
/// ciphertext (a tag that matched is the received one, which the caller
/// holds). The tag comes by value: the accepting path never puts it in
/// memory, and the copy made for this call is the one wiped.
#[cold]
#[inline(never)]
fn wipe_rejected<T: AsMut<[u8]>>(mut computed: T, data: &mut InOut<'_>) {
    for word in computed.as_mut().as_chunks_mut::<8>().0 {
        wipe(word);
    }
    // Volatile word stores: `zeroize` on bytes stores one byte at a time,
    // which makes a forged long message cost far more to reject than a
    // genuine one to open (docs/benchmarks.md, "Rejecting forgeries on Zen
    // 4").
    wipe_bytes(data.output_all());
}

/// `x`, hidden from the optimiser: an empty `asm!` that takes it and gives
/// it back in the same register, so nothing known about how `x` was made
/// (the ORs of the tag differences) can shape the code that tests it. Unlike
/// `core::hint::black_box`, the value does not go through memory.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[inline(always)]
fn opaque(mut x: u64) -> u64 {
    // SAFETY: an empty instruction sequence: no memory, stack or flags.
    unsafe {
        core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
    }
    x
}

/// `x` through `core::hint::black_box` where this crate has no kernels
/// (its calls return `Error::UnsupportedCpu` before any tag exists).
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
#[inline(always)]
fn opaque(x: u64) -> u64 {
    core::hint::black_box(x)
}

/// Implements the sealed `Core`, [`AeadKey`], the inherent methods
/// (`impl_inherent!`) and a `Debug` that shows no key bytes for an
/// algorithm's key type, every one of them (AES-GCM, AES-GCM-SIV, XAES and
/// KC-XAES). The type has one field, `key`, of the tier key-state type
/// `state` (with `init_at`, `tier`, `is_live`); its nonces are
/// `[u8; nonce_len]`, its tag `tag`; `nonces` says where generated nonces
/// come from (`counter`: the key's salted counter sequence, `nonces()`;
/// `random`: the operating system, for XAES's 192-bit nonces). The
/// algorithm's `check_lengths`, `seal` and `open` (the last two taking
/// `&self.key` first; `open` returns the tag it computed) are named in the
/// call, so a reader sees at the call site what the trait methods run. One
/// body serves every key type.
macro_rules! impl_aead {
    (
        $name:ident $(<$tl:literal>)?,
        key_len = $key_len:literal,
        nonce_len = $nonce_len:literal,
        tag = $Tag:ty,
        nonces = $nonces:ident,
        state = $State:ident,
        check_lengths = $check_lengths:path,
        seal = $seal:path,
        open = $open:path $(,)?
    ) => {
        impl $crate::aead::sealed::Core for $name $(<$tl>)? {
            unsafe fn init_at(at: *mut Self, tier: $crate::backend::TierToken, key: &[u8; $key_len]) {
                // SAFETY: `at` is valid for writes and aligned (caller), so is
                // its only field.
                unsafe { $State::init_at(core::ptr::addr_of_mut!((*at).key), tier, key) }
            }

            #[cfg(feature = "std")]
            fn generate_nonce(&self) -> Result<[u8; $nonce_len], $crate::Error> {
                $crate::aead::sealed::impl_aead!(@generate $nonces, self, $nonce_len)
            }

            fn token(&self) -> $crate::backend::TierToken {
                self.key.token()
            }

            fn is_live(&self) -> bool {
                self.key.is_live()
            }

            fn check_lengths(aad_len: usize, text_len: usize) -> Result<(), $crate::Error> {
                $check_lengths(aad_len as u64, text_len as u64)
            }

            fn seal_core(
                &self,
                nonce: &[u8; $nonce_len],
                aad: &[u8],
                data: &mut $crate::inout::InOut<'_>,
            ) -> $Tag {
                $seal(&self.key, nonce, aad, data)
            }

            #[inline(never)]
            fn open_core(
                &self,
                nonce: &[u8; $nonce_len],
                aad: &[u8],
                data: &mut $crate::inout::InOut<'_>,
                tag: &$Tag,
            ) -> bool {
                // The received tag's bytes, read before the kernel runs:
                // what is kept across its call is the tag, not a pointer
                // to it, so no address is reloaded from the frame the
                // kernel wrote (scripts/ct-check.sh cannot tell a spilled
                // pointer from bytes a callee may have written near it).
                let received = *tag;
                let computed = $open(&self.key, nonce, aad, data, tag);
                $crate::aead::sealed::tags_match_or_wipe(computed, &received, data)
            }
        }

        impl $crate::AeadKey for $name $(<$tl>)? {
            type Key = [u8; $key_len];
            type Nonce = [u8; $nonce_len];
            type Tag = $Tag;

            const KEY_LEN: usize = $key_len;
            const NONCE_LEN: usize = $nonce_len;
            const TAG_LEN: usize = core::mem::size_of::<$Tag>();
        }

        $crate::aead::impl_inherent!($name $(<$tl>)?, key_len = $key_len, nonce_len = $nonce_len, tag = $Tag);

        impl ::core::fmt::Debug for $name $(<$tl>)? {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct($crate::aead::inherent::type_path!($name $(<$tl>)?))
                    .field("tier", &self.tier())
                    .finish_non_exhaustive()
            }
        }
    };
    (@generate counter, $self:ident, $nonce_len:literal) => {
        $self.key.nonces().next()
    };
    (@generate random, $self:ident, $nonce_len:literal) => {{
        let mut nonce = [0u8; $nonce_len];
        $crate::random::fill(&mut nonce)?;
        Ok(nonce)
    }};
}
pub(crate) use impl_aead;
