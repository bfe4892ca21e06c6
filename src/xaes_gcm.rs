//! XAES-256-GCM (C2SP, <https://c2sp.org/XAES-256-GCM>): AES-256-GCM with
//! 192-bit nonces, safe to draw at random.
//!
//! From the specification: "XAES-256-GCM derives a subkey for use with
//! AES-256-GCM from the input key and half the input nonce using a NIST SP
//! 800-108r1 KDF […]. The derived key and the second half (last 96 bits) of
//! the input nonce are used to encrypt the message with AES-256-GCM." Its
//! key derivation, as the spec details it, for a 256-bit key K and a 192-bit
//! nonce N:
//!
//! 1. L = AES-256ₖ(0x00, …, 0x00)
//! 2. If MSB₁(L) = 0, then K1 = L << 1; else K1 = (L << 1) ⊕ (0x00, …, 0x00, 0b10000111)
//! 3. M1 = 0x00 || 0x01 || 0x58 || 0x00 || N\[:12\]
//! 4. M2 = 0x00 || 0x02 || 0x58 || 0x00 || N\[:12\]
//! 5. Kₓ = AES-256ₖ(M1 ⊕ K1) || AES-256ₖ(M2 ⊕ K1)
//! 6. Nₓ = N\[12:\]
//!
//! "Note that Steps 1 and 2 can be precomputed and reused across every
//! operation that uses the same input key K": key setup here expands K and
//! computes K1 once ([`Xaes256Gcm::new`]). Per message,
//! the kernels build steps 3 and 4 in registers from the nonce's bytes
//! (`backend::xaes::M_HEADS`), step 5 runs as one batch of two AES blocks
//! on the key's tier, followed by Kₓ's key schedule and GHASH key; then
//! AES-256-GCM under (Kₓ, Nₓ): for messages of up to 128 bytes
//! (`backend::xaes::SHORT_MAX`) in the same kernel call, with Kₓ in registers, for longer ones in the tier's
//! AES-256-GCM kernels. Kₓ, its round keys and its GHASH powers are wiped
//! before the call returns.
//!
//! # When to use it
//!
//! - **Over AES-GCM with generated nonces**: an AES-GCM key's generated
//!   nonces are a counter, unique per key object; two key objects built from
//!   the same key bytes (two processes, two machines, a restart) draw
//!   independent 96-bit salts, and random 96-bit nonces collide after about
//!   2^32 messages under one key. XAES-256-GCM's 192-bit nonces are simply
//!   random: the spec gives "2⁸⁰ messages with collision risk 2⁻³²" under
//!   one key, across any number of processes sharing it, with no state to
//!   keep. Pick it when one key seals from many places or for a long time.
//! - **Over AES-GCM-SIV**: GCM-SIV survives a repeated nonce (it then only
//!   shows that two messages were equal) but keeps 96-bit nonces and runs
//!   two passes over the plaintext when sealing. XAES-256-GCM is not
//!   nonce-misuse resistant, but with random 192-bit nonces a repeat is out
//!   of reach, and it seals in one pass. Pick GCM-SIV when nonces may repeat
//!   by design (deterministic encryption, no randomness at hand); XAES when
//!   they are random. Neither is key-committing: for that, [`KcXaes256Gcm`].
//!
//! The cost over AES-256-GCM is three AES blocks per message (two of them
//! the KDF, one the new GHASH key), Kₓ's key schedule and the GHASH powers the
//! message uses: a fixed amount, which matters for short messages only.
//!
//! # Example
//!
//! ```
//! use hardware_aead::xaes_gcm::Xaes256Gcm;
//!
//! # fn main() -> Result<(), hardware_aead::Error> {
//! let key = Xaes256Gcm::new(&[0x11; 32])?;
//! // Random nonces, appended to the output: the usual way to use it.
//! let sealed = key.seal_with_generated_nonce_appended(b"metadata", b"secret")?;
//! assert_eq!(sealed.len(), 6 + 16 + 24);
//! assert_eq!(key.open_with_nonce_appended(b"metadata", &sealed)?, b"secret");
//! # Ok(()) }
//! ```

use crate::aead::{Tag, impl_aead};
use crate::aes_gcm::{length_block, pre_counter_block};
use crate::block::Block;
use crate::inout::InOut;
use crate::key::XaesKey;

/// A 192-bit XAES-256-GCM nonce: the first 12 bytes go into the key
/// derivation, the last 12 are the AES-256-GCM nonce Nₓ. (Callers name it
/// `<Xaes256Gcm as AeadKey>::Nonce` or `[u8; 24]`.)
type XaesNonce = [u8; 24];

/// The longest plaintext XAES-256-GCM allows, in bytes: that of AES-256-GCM
/// under the derived key ([`aes_gcm::MAX_PLAINTEXT_LEN`](crate::aes_gcm::MAX_PLAINTEXT_LEN),
/// 2^36 − 32), the spec's "up to approximately 64GiB".
///
/// ```
/// use hardware_aead::xaes_gcm::MAX_PLAINTEXT_LEN;
/// assert_eq!(MAX_PLAINTEXT_LEN, (1 << 36) - 32);
/// ```
pub const MAX_PLAINTEXT_LEN: u64 = crate::aes_gcm::MAX_PLAINTEXT_LEN;

/// The longest AAD XAES-256-GCM allows, in bytes: that of AES-256-GCM
/// ([`aes_gcm::MAX_AAD_LEN`](crate::aes_gcm::MAX_AAD_LEN), 2^61 − 1), the
/// spec's "up to 2 EiB".
///
/// ```
/// use hardware_aead::xaes_gcm::MAX_AAD_LEN;
/// assert_eq!(MAX_AAD_LEN, (1 << 61) - 1);
/// ```
pub const MAX_AAD_LEN: u64 = crate::aes_gcm::MAX_AAD_LEN;

/// AES-256-GCM's pre-counter block for Nₓ = N\[12:\] (step 6).
fn derived_j0(nonce: &XaesNonce) -> u128 {
    let mut nx = [0u8; 12];
    nx.copy_from_slice(&nonce[12..]);
    pre_counter_block(&nx)
}

/// XAES-256-GCM: a 32-byte key, 24-byte nonces, 16-byte tags.
///
/// Its calls are inherent methods (each forwards to
/// [`AeadKey`](crate::AeadKey)'s), with `&[u8; 24]` nonces. Generated nonces
/// ([`seal_with_generated_nonce_appended`](Xaes256Gcm::seal_with_generated_nonce_appended)
/// and its kin) are 24 random bytes from the crate's AES-CTR generator
/// ([`random`](crate::random)), appended after the tag as for the other key
/// types. The key holds K's round keys and CMAC's subkey K1 (272 bytes,
/// zeroized on drop) and no nonce state.
///
/// ```
/// use hardware_aead::xaes_gcm::Xaes256Gcm;
/// # fn main() -> Result<(), hardware_aead::Error> {
/// // The spec's first test vector.
/// let key = Xaes256Gcm::new(&[0x01; 32])?;
/// let sealed = key.seal(b"ABCDEFGHIJKLMNOPQRSTUVWX", b"", b"XAES-256-GCM")?;
/// assert_eq!(sealed[..4], [0xce, 0x54, 0x6e, 0xf6]);
/// assert_eq!(key.open(b"ABCDEFGHIJKLMNOPQRSTUVWX", b"", &sealed)?, b"XAES-256-GCM");
/// # Ok(()) }
/// ```
pub struct Xaes256Gcm {
    key: XaesKey,
}

/// Seal (`SEAL`) or open of `data` under `key` and `nonce`: the GCM tag
/// computed over the ciphertext, and with `COMMIT` the key commitment
/// (zero without), both from the same kernel call.
fn seal_or_open<const SEAL: bool, const COMMIT: bool>(
    key: &XaesKey,
    nonce: &XaesNonce,
    aad: &[u8],
    data: &mut InOut<'_>,
) -> (Tag, [Block; 2]) {
    let len_block = length_block(aad.len(), data.len());
    let j0 = derived_j0(nonce);
    let mut commitment = [[0u8; 16]; 2];
    let tag = if SEAL {
        key.seal::<COMMIT>(nonce, j0, aad, data, len_block, &mut commitment)
    } else {
        key.open::<COMMIT>(nonce, j0, aad, data, len_block, &mut commitment)
    };
    (tag, commitment)
}

/// XAES-256-GCM's seal: the GCM tag (no commitment is computed).
fn seal(key: &XaesKey, nonce: &XaesNonce, aad: &[u8], data: &mut InOut<'_>) -> Tag {
    seal_or_open::<true, false>(key, nonce, aad, data).0
}

/// XAES-256-GCM's open: the GCM tag computed over the ciphertext, for the
/// trait to compare with the received one.
fn open(key: &XaesKey, nonce: &XaesNonce, aad: &[u8], data: &mut InOut<'_>, _tag: &Tag) -> Tag {
    seal_or_open::<false, false>(key, nonce, aad, data).0
}

impl_aead!(
    Xaes256Gcm,
    key_len = 32,
    nonce_len = 24,
    tag = Tag,
    nonces = random,
    state = XaesKey,
    check_lengths = crate::aes_gcm::check_lengths,
    seal = seal,
    open = open,
);

/// What a [`KcXaes256Gcm`] seal appends: the GCM tag (16 bytes), then the
/// key commitment (32 bytes), as aws-lc's key-committing XAES-256-GCM writes
/// them.
///
/// ```
/// use hardware_aead::xaes_gcm::{KcTag, KcXaes256Gcm};
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = KcXaes256Gcm::new(&[1; 32])?;
/// let mut buffer = *b"data";
/// let tag: KcTag = key.seal_in_place_detached(&[2; 24], b"", &mut buffer)?;
/// key.open_in_place_detached(&[2; 24], b"", &mut buffer, &tag)?;
/// assert_eq!(&buffer, b"data");
/// # Ok(()) }
/// ```
pub type KcTag = [u8; KC_TAG_LEN];

/// The length of a [`KcTag`] in bytes: 16 of GCM tag, 32 of commitment
/// ([`KcXaes256Gcm::TAG_LEN`]).
///
/// ```
/// use hardware_aead::xaes_gcm::{KC_TAG_LEN, KcXaes256Gcm};
/// assert_eq!(KC_TAG_LEN, KcXaes256Gcm::TAG_LEN);
/// ```
pub const KC_TAG_LEN: usize = 48;

/// KC-XAES-256-GCM: XAES-256-GCM whose output also commits to the key. A
/// 32-byte key, 24-byte nonces, 48-byte tags (the GCM tag, then the
/// commitment: [`KcTag`]).
///
/// AES-GCM, and XAES-256-GCM with it, lets whoever knows two keys build one
/// ciphertext that opens under both, to different plaintexts: GHASH is
/// linear, so one block of the ciphertext can be solved for to make the two
/// keys' tags equal ("invisible salamanders"; partitioning oracles against
/// password- or key-list-based decryption). This type appends a 32-byte
/// commitment to the key and the nonce, computed with three more AES-256
/// blocks under K in the kernel call that derives Kₓ (IACR ePrint 2025/758,
/// the construction the C2SP spec points to; byte-compatible with aws-lc's
/// key-committing XAES-256-GCM):
///
/// ```text
/// X  = AES-256ₖ("XCMT" ‖ N[:12])
/// KC = AES-256ₖ(X ⊕ (N[12:] ‖ 0x00010001) ⊕ K1) ‖ AES-256ₖ(X ⊕ (N[12:] ‖ 0x00010002) ⊕ K1)
/// ```
///
/// with K1 the CMAC subkey of XAES-256-GCM's key derivation. Open computes
/// both the GCM tag and the commitment and compares all 48 bytes at once, in
/// constant time: nothing is released unless both hold, and a failure
/// leaves the output zero like every other key type.
///
/// What it commits to: the key (and the nonce, which the receiver has). Not
/// the associated data or the plaintext beyond what GCM's tag already
/// authenticates under the right key: two different keys cannot both open
/// one KC-XAES ciphertext, but the commitment alone says nothing about the
/// message. The ciphertext and the GCM tag are exactly
/// [`Xaes256Gcm`]'s for the same key, nonce and input.
///
/// Its calls are inherent methods (each forwards to
/// [`AeadKey`](crate::AeadKey)'s), with `&[u8; 24]` nonces and [`KcTag`]
/// tags; generated nonces are 24 random bytes, as for
/// [`Xaes256Gcm`]. The key state is [`Xaes256Gcm`]'s (K's round keys and
/// K1, zeroized on drop).
///
/// ```
/// use hardware_aead::{Error, xaes_gcm::{KcXaes256Gcm, Xaes256Gcm}};
/// # fn main() -> Result<(), Error> {
/// let key = KcXaes256Gcm::new(&[0x01; 32])?;
/// let nonce = *b"ABCDEFGHIJKLMNOPQRSTUVWX";
/// let sealed = key.seal(&nonce, b"", b"XAES-256-GCM")?;
/// assert_eq!(sealed.len(), 12 + 48);
/// // aws-lc's vector: ciphertext and GCM tag as XAES-256-GCM's, then the commitment.
/// let plain = Xaes256Gcm::new(&[0x01; 32])?.seal(&nonce, b"", b"XAES-256-GCM")?;
/// assert_eq!(sealed[..28], plain[..]);
/// assert_eq!(sealed[28..32], [0x04, 0x07, 0x6b, 0x60]);
/// assert_eq!(key.open(&nonce, b"", &sealed)?, b"XAES-256-GCM");
/// // Under another key it does not open.
/// let other = KcXaes256Gcm::new(&[0x02; 32])?;
/// assert_eq!(other.open(&nonce, b"", &sealed), Err(Error::Authentication));
/// # Ok(()) }
/// ```
pub struct KcXaes256Gcm {
    key: XaesKey,
}

/// KC-XAES-256-GCM's tag: the GCM tag, then the commitment's two blocks.
fn committed_tag((tag, commitment): (Tag, [Block; 2])) -> KcTag {
    let mut out = [0u8; KC_TAG_LEN];
    out[..16].copy_from_slice(&tag);
    out[16..32].copy_from_slice(&commitment[0]);
    out[32..].copy_from_slice(&commitment[1]);
    out
}

/// KC-XAES-256-GCM's seal: the GCM tag and the key commitment, from one
/// kernel call.
fn kc_seal(key: &XaesKey, nonce: &XaesNonce, aad: &[u8], data: &mut InOut<'_>) -> KcTag {
    committed_tag(seal_or_open::<true, true>(key, nonce, aad, data))
}

/// KC-XAES-256-GCM's open: the GCM tag over the ciphertext and the
/// commitment, for the trait to compare with the received 48 bytes at once.
fn kc_open(
    key: &XaesKey,
    nonce: &XaesNonce,
    aad: &[u8],
    data: &mut InOut<'_>,
    _tag: &KcTag,
) -> KcTag {
    committed_tag(seal_or_open::<false, true>(key, nonce, aad, data))
}

impl_aead!(
    KcXaes256Gcm,
    key_len = 32,
    nonce_len = 24,
    tag = KcTag,
    nonces = random,
    state = XaesKey,
    check_lengths = crate::aes_gcm::check_lengths,
    seal = kc_seal,
    open = kc_open,
);

#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
mod tests {
    use super::derived_j0;
    use crate::backend::xaes::{M_HEADS, T_TAILS, X0_HEAD};

    #[test]
    fn nonce_blocks_and_j0_are_the_spec_layout() {
        // The spec's M1, M2 and Nₓ for N = "ABCDEFGHIJKLMNOPQRSTUVWX", and
        // KC-XAES's X₀, T₁, T₂, built as the kernels build them: the
        // nonce's first 16 bytes shifted up four (`[0; 4] ‖ N[:12]`), its
        // last 16 shifted down four (`N[12:] ‖ [0; 4]`), ORed with the heads
        // and tails of `backend::xaes`.
        let nonce = *b"ABCDEFGHIJKLMNOPQRSTUVWX";
        let word = |bytes: &[u8]| u128::from_le_bytes(core::array::from_fn(|i| bytes[i]));
        let first_half = word(&nonce[..16]) << 32;
        let second_half = word(&nonce[8..]) >> 32;
        let hex = |b: u128| {
            b.to_le_bytes()
                .iter()
                .map(|x| format!("{x:02x}"))
                .collect::<String>()
        };
        assert_eq!(
            hex(first_half | M_HEADS[0]),
            "000158004142434445464748494a4b4c"
        );
        assert_eq!(
            hex(first_half | M_HEADS[1]),
            "000258004142434445464748494a4b4c"
        );
        assert_eq!(
            hex(first_half | X0_HEAD),
            "58434d544142434445464748494a4b4c"
        );
        assert_eq!(
            hex(second_half | T_TAILS[0]),
            "4d4e4f50515253545556575800010001"
        );
        assert_eq!(
            hex(second_half | T_TAILS[1]),
            "4d4e4f50515253545556575800010002"
        );
        assert_eq!(hex(derived_j0(&nonce)), "4d4e4f50515253545556575800000001");
    }
}
