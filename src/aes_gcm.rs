//! AES-GCM with a 96-bit nonce and a 128-bit tag (NIST SP 800-38D).
//!
//! This file holds the parts of the mode that are the same on every tier: the
//! pre-counter block J0, the length block and the length limits. The counter-mode
//! encryption and GHASH run in the kernels behind the tier key state (`GcmKey`).
//!
//! # Example
//!
//! ```
//! use hardware_aead::aes_gcm::Aes256Gcm;
//!
//! # fn main() -> Result<(), hardware_aead::Error> {
//! let key = Aes256Gcm::new(&[0x11; 32])?;
//! let nonce = [0x22; 12];
//! let sealed = key.seal(&nonce, b"metadata", b"secret")?;
//! assert_eq!(key.open(&nonce, b"metadata", &sealed)?, b"secret");
//! # Ok(()) }
//! ```

use crate::aead::impl_aead;
use crate::aead::{Nonce, Tag};
pub(crate) use crate::backend::length_block;
use crate::error::Error;
use crate::inout::InOut;
use crate::key::GcmKey;
use zeroize::Zeroize;

/// The longest plaintext GCM allows, in bytes.
///
/// SP 800-38D §5.2.1.1: len(P) ≤ 2^39 − 256 bits, that is 2^36 − 32 bytes. It is
/// also the most the 32-bit block counter can cover: 2^32 − 2 blocks follow J0.
///
/// ```
/// use hardware_aead::aes_gcm::MAX_PLAINTEXT_LEN;
/// assert_eq!(MAX_PLAINTEXT_LEN, ((1u64 << 32) - 2) * 16); // 64 GiB less 32 bytes
/// ```
pub const MAX_PLAINTEXT_LEN: u64 = (1 << 36) - 32;

/// The longest additional authenticated data GCM allows, in bytes.
///
/// SP 800-38D §5.2.1.1: len(A) ≤ 2^64 − 1 bits, that is at most 2^61 − 1 bytes.
///
/// ```
/// use hardware_aead::aes_gcm::MAX_AAD_LEN;
/// // Every seal and open checks it and returns `Error::InputTooLong` past it.
/// assert!(MAX_AAD_LEN > u64::from(u32::MAX));
/// ```
pub const MAX_AAD_LEN: u64 = (1 << 61) - 1;

const _: () = assert!(MAX_PLAINTEXT_LEN == ((1 << 32) - 2) * 16);
const _: () = assert!(MAX_AAD_LEN * 8 < u64::MAX);

/// Checks the SP 800-38D length limits; `Err(InputTooLong)` past either one.
pub(crate) fn check_lengths(aad_len: u64, text_len: u64) -> Result<(), Error> {
    if text_len > MAX_PLAINTEXT_LEN || aad_len > MAX_AAD_LEN {
        Err(Error::InputTooLong)
    } else {
        Ok(())
    }
}

/// J0 for a 96-bit IV. SP 800-38D §7.1, step 2: "If len(IV) = 96, then let
/// J0 = IV || 0^31 || 1."
///
/// Blocks handed to the kernels are `u128` values whose little-endian bytes are
/// the block (`u128::from_le_bytes`), so they travel in registers: a block
/// assembled from small stores and reloaded whole would stall store forwarding.
pub(crate) fn pre_counter_block(nonce: &Nonce) -> u128 {
    let mut iv = [0u8; 16];
    iv[..12].copy_from_slice(nonce);
    u128::from_le_bytes(iv) | 1 << 120
}

fn seal<const ROUND_KEYS: usize>(
    key: &GcmKey<ROUND_KEYS>,
    nonce: &Nonce,
    aad: &[u8],
    data: &mut InOut<'_>,
) -> Tag {
    // §7.1 steps 3–6: C = GCTR_K(inc32(J0), P); T = MSB_128(GCTR_K(J0, S)).
    key.seal(pre_counter_block(nonce), aad, data)
}

fn open<const ROUND_KEYS: usize>(
    key: &GcmKey<ROUND_KEYS>,
    nonce: &Nonce,
    aad: &[u8],
    data: &mut InOut<'_>,
    _tag: &Tag,
) -> Tag {
    // §7.2 steps 3–8: P = GCTR_K(inc32(J0), C); T' = MSB_128(GCTR_K(J0, S)).
    key.open(pre_counter_block(nonce), aad, data)
}

/// The counter block of data block `i` (from 0): inc32^(i + 1)(J0), the
/// low 32 bits big-endian and wrapping (SP 800-38D §6.5).
fn counter_block(j0: u128, i: u32) -> u128 {
    let mut block = j0.to_le_bytes();
    let [.., a, b, c, d] = block;
    let counter = u32::from_be_bytes([a, b, c, d])
        .wrapping_add(i)
        .wrapping_add(1);
    block[12..].copy_from_slice(&counter.to_be_bytes());
    u128::from_le_bytes(block)
}

/// AES-GCM of `data ‖ byte` under `aad` into `out` (`data.len() + 1`
/// bytes), returning the tag: exactly the sealing of the concatenation,
/// without copying `data` next to `byte`. The whole blocks of `data` are
/// sealed where they lie; its last 0..15 bytes and `byte` (one block at
/// most) then extend that seal: that block is encrypted first
/// (`GcmKey::encrypt_tail`, whose AES blocks overlap the seal), and folded
/// into the tag after it (`GcmKey::append_block`). The tag of the first
/// part alone never leaves this function: two tags under one J0 would give
/// away equations in H. Lengths are checked by the caller.
fn seal_with_trailing_byte<const ROUND_KEYS: usize>(
    key: &GcmKey<ROUND_KEYS>,
    nonce: &Nonce,
    aad: &[u8],
    data: &[u8],
    byte: u8,
    out: &mut [u8],
) -> Tag {
    let whole = data.len() / 16 * 16;
    let (head, rest) = data.split_at(whole);
    let (out_head, out_rest) = out.split_at_mut(whole);
    let j0 = pre_counter_block(nonce);
    let n = rest.len() + 1;
    let mut block = [0u8; 16];
    block[..rest.len()].copy_from_slice(rest);
    block[rest.len()] = byte;
    // `whole / 16` < 2^32: the caller checked the length against
    // MAX_PLAINTEXT_LEN.
    let ctr_block = counter_block(j0, (whole / 16) as u32);
    // `block` holds ciphertext from here on.
    let mut e_j0 = key.encrypt_tail(j0, ctr_block, &mut block, n);
    let mut head_tag = key.seal(j0, aad, &mut InOut::copy(head, out_head));
    let lengths = crate::backend::Extension {
        head_len_block: length_block(aad.len(), whole),
        len_block: length_block(aad.len(), whole + n),
    };
    let tag = key.append_block(lengths, &head_tag, &e_j0, &block);
    head_tag.zeroize();
    e_j0.zeroize();
    out_rest[..n].copy_from_slice(&block[..n]);
    tag
}

/// [`Aes128Gcm::seal_with_trailing_byte_to`] and its AES-256 twin: the
/// checks every seal makes ([`AeadKey::seal_to`](crate::AeadKey::seal_to)'s),
/// then [`seal_with_trailing_byte`] into `out` and the tag after it.
fn seal_with_trailing_byte_to<K: crate::AeadKey, const ROUND_KEYS: usize>(
    this: &K,
    key: &GcmKey<ROUND_KEYS>,
    nonce: &Nonce,
    aad: &[u8],
    plaintext: &[u8],
    byte: u8,
    out: &mut [u8],
) -> Result<usize, Error> {
    let len = plaintext.len().checked_add(1).ok_or(Error::InputTooLong)?;
    this.check_call(aad.len(), len)?;
    let needed = len + crate::TAG_LEN;
    let Some(out) = out.get_mut(..needed) else {
        return Err(Error::BufferTooSmall { needed });
    };
    let (ciphertext, tag_out) = out.split_at_mut(len);
    let tag = if plaintext.len() < TRAILING_BYTE_IN_PLACE_BELOW {
        ciphertext[..plaintext.len()].copy_from_slice(plaintext);
        ciphertext[plaintext.len()] = byte;
        seal(key, nonce, aad, &mut InOut::in_place(ciphertext))
    } else {
        seal_with_trailing_byte(key, nonce, aad, plaintext, byte, ciphertext)
    };
    tag_out.copy_from_slice(&tag);
    Ok(needed)
}

/// Below this many bytes of plaintext, [`seal_with_trailing_byte_to`]
/// copies `plaintext ‖ byte` into `out` and seals it there: one seal, where
/// extending a seal costs a second tag computation (two AES blocks, two
/// multiplies) that a short message does not earn back. From here on the
/// pass over the plaintext that the copy saves is worth more
/// (docs/benchmarks.md, "Sealing from one piece").
const TRAILING_BYTE_IN_PLACE_BELOW: usize = 2048;

impl Aes128Gcm {
    /// Seals `plaintext ‖ byte` into `out` as `ciphertext || tag` and
    /// returns the number of bytes written (`plaintext.len() + 1 + 16`):
    /// the same bytes as [`seal_to`](crate::AeadKey::seal_to) of the
    /// concatenation, without the caller copying `plaintext` to put `byte`
    /// after it. From 2 KiB of plaintext the seal reads `plaintext` where
    /// it lies and extends itself by the last block; a shorter one is
    /// copied into `out` and sealed there, which costs less than the
    /// extension's second tag computation. A TLS 1.3 record is its content
    /// then its content type (RFC 8446 §5.2), an RFC 8188 record its data
    /// then a delimiter. Never allocates.
    ///
    /// # Errors
    ///
    /// As [`seal_to`](crate::AeadKey::seal_to): [`Error::BufferTooSmall`]
    /// (nothing written) if `out` is shorter, [`Error::InputTooLong`] past
    /// GCM's limits.
    ///
    /// ```
    /// use hardware_aead::aes_gcm::Aes128Gcm;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes128Gcm::new(&[5u8; 16])?;
    /// let mut out = [0u8; 3 + 1 + 16];
    /// let n = key.seal_with_trailing_byte_to(&[1u8; 12], b"hdr", b"abc", 23, &mut out)?;
    /// assert_eq!(out[..n], key.seal(&[1u8; 12], b"hdr", b"abc\x17")?[..]);
    /// # Ok(()) }
    /// ```
    pub fn seal_with_trailing_byte_to(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        plaintext: &[u8],
        byte: u8,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        seal_with_trailing_byte_to(self, &self.key, nonce, aad, plaintext, byte, out)
    }
}

impl Aes256Gcm {
    /// Seals `plaintext ‖ byte` into `out` as `ciphertext || tag`, as
    /// [`Aes128Gcm::seal_with_trailing_byte_to`] does under a 32-byte key.
    ///
    /// # Errors
    ///
    /// As [`seal_to`](crate::AeadKey::seal_to).
    ///
    /// ```
    /// use hardware_aead::aes_gcm::Aes256Gcm;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aes256Gcm::new(&[5u8; 32])?;
    /// let mut out = [0u8; 3 + 1 + 16];
    /// let n = key.seal_with_trailing_byte_to(&[1u8; 12], b"hdr", b"abc", 23, &mut out)?;
    /// assert_eq!(out[..n], key.seal(&[1u8; 12], b"hdr", b"abc\x17")?[..]);
    /// # Ok(()) }
    /// ```
    pub fn seal_with_trailing_byte_to(
        &self,
        nonce: &[u8; 12],
        aad: &[u8],
        plaintext: &[u8],
        byte: u8,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        seal_with_trailing_byte_to(self, &self.key, nonce, aad, plaintext, byte, out)
    }
}

#[cfg(test)]
mod tests {
    use super::{length_block, pre_counter_block};

    /// The limits every seal and open checks first: each maximum passes,
    /// one byte more is `InputTooLong`.
    #[test]
    fn check_lengths_at_the_limits() {
        use super::{MAX_AAD_LEN, MAX_PLAINTEXT_LEN, check_lengths};
        use crate::Error;
        assert_eq!(check_lengths(MAX_AAD_LEN, MAX_PLAINTEXT_LEN), Ok(()));
        assert_eq!(check_lengths(MAX_AAD_LEN + 1, 0), Err(Error::InputTooLong));
        assert_eq!(
            check_lengths(0, MAX_PLAINTEXT_LEN + 1),
            Err(Error::InputTooLong)
        );
    }

    #[test]
    fn j0_and_length_block_layout() {
        let nonce = [
            0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xab,
        ];
        let mut j0 = [0u8; 16];
        j0[..12].copy_from_slice(&nonce);
        j0[15] = 1;
        assert_eq!(pre_counter_block(&nonce).to_le_bytes(), j0);
        let mut len = [0u8; 16];
        len[..8].copy_from_slice(&(20u64 * 8).to_be_bytes());
        len[8..].copy_from_slice(&(60u64 * 8).to_be_bytes());
        assert_eq!(length_block(20, 60).to_le_bytes(), len);
    }

    #[test]
    fn counter_block_is_inc32_of_j0() {
        for (low, i, expected) in [
            (1u32, 0u32, 2u32),
            (1, 5, 7),
            (0xffff_fffe, 0, 0xffff_ffff),
            (0xffff_fffe, 1, 0),
            (0xffff_ffff, 3, 3),
        ] {
            let mut j0 = [0xc3u8; 16];
            j0[12..].copy_from_slice(&low.to_be_bytes());
            let mut want = j0;
            want[12..].copy_from_slice(&expected.to_be_bytes());
            let got = super::counter_block(u128::from_le_bytes(j0), i).to_le_bytes();
            assert_eq!(got, want, "low {low:#x}, block {i}");
        }
    }

    /// Sealing `data ‖ byte` in two pieces gives the bytes and tag of
    /// sealing the concatenation, at every length around the block and
    /// group boundaries of every tier's loops, for both key sizes, with
    /// and without AAD, on every tier the CPU has (the first piece runs on
    /// the tier's kernel).
    #[cfg(all(
        feature = "alloc",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    #[test]
    fn seal_with_trailing_byte_is_the_seal_of_the_concatenation() {
        use crate::Tier;
        let mut tiers = 0;
        for tier in [
            Tier::AesNiClmul,
            Tier::VaesAvx2,
            Tier::VaesAvx512,
            Tier::Armv8,
        ] {
            if crate::backend::TierToken::detect(tier).is_ok() {
                trailing_byte_on(tier);
                tiers += 1;
            }
        }
        assert!(
            tiers > 0,
            "no tier available: the tests need a supported CPU"
        );
    }

    #[cfg(all(
        feature = "alloc",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    fn trailing_byte_on(tier: crate::Tier) {
        use crate::aes_gcm::{Aes128Gcm, Aes256Gcm};
        use alloc::{vec, vec::Vec};
        let k128 = Aes128Gcm::with_tier(&[0x42; 16], tier).unwrap();
        let k256 = Aes256Gcm::with_tier(&[0x24; 32], tier).unwrap();
        let nonce = [0x6b; 12];
        // Both sides of TRAILING_BYTE_IN_PLACE_BELOW (2048), the group
        // boundaries of the extension's first part.
        let lengths = (0..=600).chain([
            1023, 1024, 1025, 2047, 2048, 2049, 4079, 4095, 4096, 16384, 65519, 65535,
        ]);
        for len in lengths {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let byte = if len % 2 == 0 { 1 } else { 0x17 };
            let aad: &[u8] = match len % 3 {
                0 => b"",
                1 => &[0x17, 3, 3, 0x40, 0x11],
                _ => &[0xa5; 21],
            };
            let mut whole = data.clone();
            whole.push(byte);
            let want128 = k128.seal(&nonce, aad, &whole).unwrap();
            let want256 = k256.seal(&nonce, aad, &whole).unwrap();
            // One byte of room past the record, which must stay untouched.
            let mut out = vec![0x99u8; len + 1 + 16 + 1];
            let n = k128
                .seal_with_trailing_byte_to(&nonce, aad, &data, byte, &mut out)
                .unwrap();
            assert_eq!(n, len + 1 + 16);
            assert_eq!(out[..n], want128[..], "AES-128, length {len}");
            assert_eq!(
                out[n], 0x99,
                "AES-128, length {len}: a byte past the record"
            );
            let n = k256
                .seal_with_trailing_byte_to(&nonce, aad, &data, byte, &mut out)
                .unwrap();
            assert_eq!(out[..n], want256[..], "AES-256, length {len}");
            assert_eq!(
                out[n], 0x99,
                "AES-256, length {len}: a byte past the record"
            );
        }
        let mut short = [0u8; 4 + 1 + 15];
        assert_eq!(
            k128.seal_with_trailing_byte_to(&nonce, b"", &[0; 4], 2, &mut short),
            Err(crate::Error::BufferTooSmall { needed: 21 })
        );
        assert_eq!(short, [0; 20], "nothing written on BufferTooSmall");
        assert_eq!(
            k256.seal_with_trailing_byte_to(&nonce, b"", &[0; 4], 2, &mut short),
            Err(crate::Error::BufferTooSmall { needed: 21 })
        );
    }
}

/// AES-128-GCM: a 16-byte key, 12-byte nonces, 16-byte tags.
///
/// Its calls are inherent methods, each forwarding to
/// [`AeadKey`](crate::AeadKey)'s (the trait for code generic over key types).
///
/// ```
/// use hardware_aead::aes_gcm::Aes128Gcm;
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = Aes128Gcm::new(&[0u8; 16])?;
/// let sealed = key.seal(&[0u8; 12], b"", b"")?;
/// // The empty message under the all-zero key: GCM spec test case 1.
/// assert_eq!(sealed[..4], [0x58, 0xe2, 0xfc, 0xce]);
/// # Ok(()) }
/// ```
pub struct Aes128Gcm {
    key: GcmKey<11>,
}

/// AES-256-GCM: a 32-byte key, 12-byte nonces, 16-byte tags.
///
/// Its calls are inherent methods, each forwarding to
/// [`AeadKey`](crate::AeadKey)'s (the trait for code generic over key types).
///
/// ```
/// use hardware_aead::aes_gcm::Aes256Gcm;
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let key = Aes256Gcm::new(&[0u8; 32])?;
/// let sealed = key.seal(&[0u8; 12], b"", b"")?;
/// // The empty message under the all-zero key: GCM spec test case 13.
/// assert_eq!(sealed[..4], [0x53, 0x0f, 0x8a, 0xfb]);
/// # Ok(()) }
/// ```
pub struct Aes256Gcm {
    key: GcmKey<15>,
}

impl_aead!(
    Aes128Gcm,
    key_len = 16,
    nonce_len = 12,
    tag = crate::Tag,
    nonces = counter,
    state = GcmKey,
    check_lengths = check_lengths,
    seal = seal,
    open = open,
);
impl_aead!(
    Aes256Gcm,
    key_len = 32,
    nonce_len = 12,
    tag = crate::Tag,
    nonces = counter,
    state = GcmKey,
    check_lengths = check_lengths,
    seal = seal,
    open = open,
);
