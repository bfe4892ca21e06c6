//! AEGIS (draft-irtf-cfrg-aegis-aead-18, the IRTF CFRG's AEGIS family):
//! authenticated encryption from the AES round function alone, with no
//! multiplication, 128- and 256-bit nonces that may be drawn at random, and
//! 128- or 256-bit tags.
//!
//! | type | key | nonce | lanes | rate | best on |
//! |---|---|---|---|---|---|
//! | [`Aegis128L`] | 16 B | 16 B | 1 | 32 B | every tier |
//! | [`Aegis128X2`] | 16 B | 16 B | 2 | 64 B | VAES (ymm) |
//! | [`Aegis128X4`] | 16 B | 16 B | 4 | 128 B | VAES with AVX-512 (zmm) |
//! | [`Aegis256`] | 32 B | 32 B | 1 | 16 B | every tier |
//! | [`Aegis256X2`] | 32 B | 32 B | 2 | 32 B | VAES (ymm) |
//! | [`Aegis256X4`] | 32 B | 32 B | 4 | 64 B | VAES with AVX-512 (zmm) |
//!
//! The X2 and X4 variants are `D` AEGIS-128L or AEGIS-256 states run side
//! by side (the draft's §4); they are different algorithms, not different
//! implementations: each variant reads only its own ciphertexts. Every
//! variant runs on every tier; the wide ones are faster where a register
//! holds their lanes.
//!
//! **The tag length is a type parameter**, `TAG_LEN`, 16 or 32 (the
//! draft's two): `Aegis128L<16>` and `Aegis128L<32>` are different types,
//! with [`AeadKey::Tag`](crate::AeadKey::Tag) `[u8; 16]` or `[u8; 32]`. The
//! tag length is part of the algorithm (a 16-byte tag is not a prefix of the
//! 32-byte one), so a key is bound to one at compile time, as it is to its
//! variant, and no call takes a length that could be wrong. The types exist
//! only for those two lengths (`Aegis128L<20>` has no methods). In
//! expressions write the length: `Aegis128L::<32>::new(&key)`. Pick 32
//! where the tag's size does not matter (the draft's recommendation for
//! new protocols); 16 where a protocol fixes it.
//!
//! Nonces: 16 bytes for the 128 family, 32 for the 256 family. Random nonces
//! are safe for AEGIS-256 at any number of messages; for AEGIS-128L the
//! draft allows about 2^48 messages under one key with random nonces. The
//! generated-nonce calls (`seal_with_generated_nonce` and kin) draw them
//! from the operating system.
//!
//! ```
//! use hardware_aead::aegis::{Aegis128L, Aegis256};
//!
//! # fn main() -> Result<(), hardware_aead::Error> {
//! let key = Aegis256::<32>::new(&[0x42; 32])?;
//! let nonce = [7u8; 32];
//! let sealed = key.seal(&nonce, b"header", b"the plaintext")?;
//! assert_eq!(sealed.len(), 13 + 32);
//! assert_eq!(key.open(&nonce, b"header", &sealed)?, b"the plaintext");
//!
//! let short_tags = Aegis128L::<16>::new(&[0x42; 16])?;
//! let sealed = short_tags.seal(&[7; 16], b"", b"hi")?;
//! assert_eq!(sealed.len(), 2 + 16);
//! # Ok(()) }
//! ```
//!
//! Peers: ciphertexts are byte-identical to the draft's test vectors and to
//! the `aegis` crate's. ring, aws-lc-rs and RustCrypto's `aead` crates have
//! no AEGIS: a peer that uses them cannot open these ciphertexts.

use crate::aead::impl_aead;
use crate::backend;
use crate::block::as_blocks;
use crate::error::Error;
use crate::inout::InOut;
use crate::key::AegisKey;

/// The longest plaintext AEGIS allows, in bytes (the draft's `P_MAX`,
/// 2^61 − 1): every seal and open checks it and returns
/// [`Error::InputTooLong`] past it.
///
/// ```
/// use hardware_aead::aegis::MAX_PLAINTEXT_LEN;
/// assert_eq!(MAX_PLAINTEXT_LEN, (1 << 61) - 1);
/// ```
pub const MAX_PLAINTEXT_LEN: u64 = (1 << 61) - 1;

/// The longest associated data AEGIS allows, in bytes (the draft's
/// `A_MAX`, 2^61 − 1).
///
/// ```
/// use hardware_aead::aegis::MAX_AAD_LEN;
/// assert_eq!(MAX_AAD_LEN, (1 << 61) - 1);
/// ```
pub const MAX_AAD_LEN: u64 = (1 << 61) - 1;

/// Checks the draft's length limits; `Err(InputTooLong)` past either one.
fn check_lengths(aad_len: u64, text_len: u64) -> Result<(), Error> {
    if text_len > MAX_PLAINTEXT_LEN || aad_len > MAX_AAD_LEN {
        Err(Error::InputTooLong)
    } else {
        Ok(())
    }
}

/// One AEGIS key type: the struct, generic over the tag length, with the
/// crate's calls for `TAG_LEN` 16 and 32 (`impl_aead!`), over the variant's
/// dispatch function in `backend.rs`.
macro_rules! aegis_type {
    (
        $(#[$doc:meta])*
        $name:ident, key_len = $key_len:literal, blocks = $kb:literal, dispatch = $dispatch:ident
    ) => {
        $(#[$doc])*
        pub struct $name<const TAG_LEN: usize> {
            key: AegisKey<$kb>,
        }

        impl<const TAG_LEN: usize> $name<TAG_LEN> {
            /// Encryption of `data`, returning the tag.
            fn seal_core_fn(
                key: &AegisKey<$kb>,
                nonce: &[u8; $key_len],
                aad: &[u8],
                data: &mut InOut<'_>,
            ) -> [u8; TAG_LEN] {
                backend::$dispatch::<true, TAG_LEN>(key.token(), key.blocks(), as_blocks(nonce), aad, data)
            }

            /// Decryption of `data`, returning the tag computed for it, to
            /// be compared by the caller.
            fn open_core_fn(
                key: &AegisKey<$kb>,
                nonce: &[u8; $key_len],
                aad: &[u8],
                data: &mut InOut<'_>,
                _tag: &[u8; TAG_LEN],
            ) -> [u8; TAG_LEN] {
                backend::$dispatch::<false, TAG_LEN>(key.token(), key.blocks(), as_blocks(nonce), aad, data)
            }
        }

        impl_aead!(
            $name<16>,
            key_len = $key_len,
            nonce_len = $key_len,
            tag = [u8; 16],
            nonces = random,
            state = AegisKey,
            check_lengths = check_lengths,
            seal = Self::seal_core_fn,
            open = Self::open_core_fn,
        );
        impl_aead!(
            $name<32>,
            key_len = $key_len,
            nonce_len = $key_len,
            tag = [u8; 32],
            nonces = random,
            state = AegisKey,
            check_lengths = check_lengths,
            seal = Self::seal_core_fn,
            open = Self::open_core_fn,
        );
    };
}

aegis_type! {
    /// AEGIS-128L: a 16-byte key and nonce, a 16- or 32-byte tag
    /// (`TAG_LEN`), 32 bytes absorbed per update of its 128-byte state.
    ///
    /// ```
    /// use hardware_aead::aegis::Aegis128L;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aegis128L::<32>::new(&[1; 16])?;
    /// let sealed = key.seal(&[2; 16], b"ad", b"message")?;
    /// assert_eq!(key.open(&[2; 16], b"ad", &sealed)?, b"message");
    /// # Ok(()) }
    /// ```
    Aegis128L, key_len = 16, blocks = 1, dispatch = aegis128l
}

aegis_type! {
    /// AEGIS-128X2: two AEGIS-128L lanes side by side (the draft's §4),
    /// 64 bytes an update; its own algorithm, not interchangeable with
    /// [`Aegis128L`].
    ///
    /// ```
    /// use hardware_aead::aegis::Aegis128X2;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aegis128X2::<16>::new(&[1; 16])?;
    /// let sealed = key.seal(&[2; 16], b"", b"message")?;
    /// assert_eq!(key.open(&[2; 16], b"", &sealed)?, b"message");
    /// # Ok(()) }
    /// ```
    Aegis128X2, key_len = 16, blocks = 1, dispatch = aegis128x2
}

aegis_type! {
    /// AEGIS-128X4: four AEGIS-128L lanes side by side, 128 bytes an
    /// update.
    ///
    /// ```
    /// use hardware_aead::aegis::Aegis128X4;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aegis128X4::<32>::new(&[1; 16])?;
    /// let sealed = key.seal(&[2; 16], b"", b"message")?;
    /// assert_eq!(key.open(&[2; 16], b"", &sealed)?, b"message");
    /// # Ok(()) }
    /// ```
    Aegis128X4, key_len = 16, blocks = 1, dispatch = aegis128x4
}

aegis_type! {
    /// AEGIS-256: a 32-byte key and nonce (random nonces are safe), a 16-
    /// or 32-byte tag, 16 bytes absorbed per update of its 96-byte state.
    ///
    /// ```
    /// use hardware_aead::aegis::Aegis256;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aegis256::<32>::new(&[1; 32])?;
    /// let (nonce, sealed) = key.seal_with_generated_nonce(b"", b"message")?;
    /// assert_eq!(key.open(&nonce, b"", &sealed)?, b"message");
    /// # Ok(()) }
    /// ```
    Aegis256, key_len = 32, blocks = 2, dispatch = aegis256
}

aegis_type! {
    /// AEGIS-256X2: two AEGIS-256 lanes side by side, 32 bytes an update.
    ///
    /// ```
    /// use hardware_aead::aegis::Aegis256X2;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aegis256X2::<16>::new(&[1; 32])?;
    /// let sealed = key.seal(&[2; 32], b"", b"message")?;
    /// assert_eq!(key.open(&[2; 32], b"", &sealed)?, b"message");
    /// # Ok(()) }
    /// ```
    Aegis256X2, key_len = 32, blocks = 2, dispatch = aegis256x2
}

aegis_type! {
    /// AEGIS-256X4: four AEGIS-256 lanes side by side, 64 bytes an update.
    ///
    /// ```
    /// use hardware_aead::aegis::Aegis256X4;
    /// # fn main() -> Result<(), hardware_aead::Error> {
    /// let key = Aegis256X4::<32>::new(&[1; 32])?;
    /// let sealed = key.seal(&[2; 32], b"", b"message")?;
    /// assert_eq!(key.open(&[2; 32], b"", &sealed)?, b"message");
    /// # Ok(()) }
    /// ```
    Aegis256X4, key_len = 32, blocks = 2, dispatch = aegis256x4
}
