//! RustCrypto's [`aead`] 0.6 traits on every key type (cargo feature `aead`).
//!
//! [`Aes128Gcm`], [`Aes256Gcm`], [`Aes128GcmSiv`], [`Aes256GcmSiv`],
//! [`Xaes256Gcm`], [`KcXaes256Gcm`] and the AEGIS types ([`Aegis128L`] and
//! kin, both tag lengths) implement [`AeadCore`] (`NonceSize`
//! 12 bytes, 24 for XAES-256-GCM and KC-XAES-256-GCM, 16 or 32 for AEGIS;
//! `TagSize` 16 bytes, 48 for KC-XAES-256-GCM, whose tag holds the key
//! commitment as AWS-LC's does, 16 or 32 for AEGIS as its type says;
//! the tag after the ciphertext),
//! [`AeadInOut`], [`KeySizeUser`] and [`KeyInit`], like RustCrypto's
//! `aes-gcm` 0.11, `aes-gcm-siv` 0.12 and `xaes-256-gcm` 0.1: code written
//! against those traits (protocol crates, `aead-stream`) takes this crate's
//! keys unchanged, and produces the same bytes. With the `alloc` feature (part
//! of the default `std`), `aead`'s own `alloc` is on too, so the blanket
//! [`aead::Aead`] (`encrypt`/`decrypt` returning `Vec`) applies as well.
//!
//! Both traits sit on the same in-place kernels as this crate's own
//! [`AeadKey`](crate::AeadKey) trait, and keep its rules: a failed
//! [`decrypt_inout_detached`](AeadInOut::decrypt_inout_detached) (and so
//! `decrypt_in_place`, `decrypt`) leaves the output buffer all zero over the
//! message, the tags are compared in constant time, and inputs over the
//! algorithm's limits are refused. Every failure is `aead`'s opaque
//! [`aead::Error`]; the crate's own methods say which one it was.
//!
//! # Construction, and a CPU without the instructions
//!
//! [`KeyInit::new`] cannot return an error, while this crate has no software
//! fallback: on a CPU without the instructions there is no key to return.
//! The choices were a panic in `new`, an error from `new_from_slice`, or no
//! `KeyInit` at all. No `KeyInit` would shut out every generic caller that
//! builds its own keys (`aead-stream`'s `new`, protocol crates bounded by
//! `KeyInit + AeadInOut`), for a condition that holds only on x86_64 CPUs
//! older than 2010 or aarch64 ones without the Cryptography Extension. So:
//!
//! - [`KeyInit::new_from_slice`] never panics: it returns
//!   [`InvalidLength`] for a key of the wrong
//!   length **and** on a CPU without the instructions, since that is the only
//!   error its signature can carry;
//! - [`KeyInit::new`] panics on such a CPU, with a message naming the missing
//!   feature (its signature leaves no other way; it is the crate's one panic
//!   outside a caller's own misuse of an `unsafe` contract).
//!
//! To learn why construction failed, or to never panic, build the key with
//! the crate's own `new` or `new_from_slice` (the key type's inherent
//! methods, or [`AeadKey::new`](crate::AeadKey::new) in generic code)
//! ([`Error::UnsupportedCpu`](crate::Error::UnsupportedCpu) names the missing
//! feature) and hand it to the generic code: every `aead` trait but `KeyInit`
//! works on a key however it was built, including one placed with
//! [`placement`](crate::placement) or forced onto a tier with
//! [`with_tier`](crate::AeadKey::with_tier).
//!
//! # Two vocabularies
//!
//! The crate's own calls are seal and open (`seal`, `open_to`,
//! `seal_in_place_detached`, ...), inherent methods of every key type and
//! the methods of [`AeadKey`](crate::AeadKey); `aead`'s are encrypt and
//! decrypt. No name is shared but the constructors: on a key type,
//! `Aes256Gcm::new(&key)` and `Aes256Gcm::new_from_slice(&key)` are the
//! inherent methods (an inherent method wins over a trait's), returning the
//! crate's [`Error`](crate::Error); `KeyInit::new(&key)` names `aead`'s. In
//! code generic over `K: AeadKey + KeyInit`, name the trait for the
//! constructors (`<K as AeadKey>::new`, `<K as KeyInit>::new`); every other
//! call needs no qualification.
//!
//! # Example
//!
//! ```
//! use hardware_aead::aead_traits::aead::{self, Aead, AeadInOut, KeyInit, Nonce};
//! use hardware_aead::aes_gcm::Aes256Gcm;
//!
//! // Written for any `aead` 0.6 cipher: RustCrypto's, or this crate's.
//! fn seal_and_open<A: KeyInit + AeadInOut>(key: &[u8]) -> Result<(), aead::Error> {
//!     let cipher = A::new_from_slice(key).map_err(|_| aead::Error)?;
//!     let nonce = Nonce::<A>::default(); // unique per message in real use
//!     let sealed = cipher.encrypt(&nonce, b"plaintext".as_ref())?;
//!     assert_eq!(cipher.decrypt(&nonce, sealed.as_slice())?, b"plaintext");
//!     Ok(())
//! }
//! seal_and_open::<Aes256Gcm>(&[0x42; 32]).expect("this CPU has AES and carry-less multiply");
//! ```

/// The `aead` crate these impls are for (version 0.6), re-exported so that a
/// caller names the same version without a dependency of its own.
///
/// ```
/// use hardware_aead::aead_traits::aead::{AeadCore, consts::U12};
/// fn nonce_len<A: AeadCore<NonceSize = U12>>() {}
/// nonce_len::<hardware_aead::aes_gcm_siv::Aes128GcmSiv>();
/// ```
pub use ::aead;

use ::aead::array::Array;
use ::aead::common::InvalidLength;
use ::aead::consts::{U12, U16, U24, U32, U48};
use ::aead::inout::InOutBuf;
use ::aead::{AeadCore, AeadInOut, Key, KeyInit, KeySizeUser, TagPosition};

use crate::aegis::{Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4};
use crate::aes_gcm::{Aes128Gcm, Aes256Gcm};
use crate::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use crate::inout::InOut;
use crate::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};

/// [`AeadInOut::encrypt_inout_detached`] for every key type: the crate's
/// checks, then its core seal over the caller's buffers.
fn seal<K: crate::AeadKey>(
    key: &K,
    nonce: &K::Nonce,
    aad: &[u8],
    mut buffer: InOutBuf<'_, '_, u8>,
) -> ::aead::Result<K::Tag> {
    key.check_call(aad.len(), buffer.len())
        .map_err(|_| ::aead::Error)?;
    Ok(key.seal_core(nonce, aad, &mut InOut::from_inout_buf(&mut buffer)))
}

/// [`AeadInOut::decrypt_inout_detached`] for every key type: the core open
/// writes the output, then the crate's one tag check releases it or wipes it.
fn open<K: crate::AeadKey>(
    key: &K,
    nonce: &K::Nonce,
    aad: &[u8],
    mut buffer: InOutBuf<'_, '_, u8>,
    tag: &K::Tag,
) -> ::aead::Result<()> {
    key.check_call(aad.len(), buffer.len())
        .map_err(|_| ::aead::Error)?;
    if key.open_core(nonce, aad, &mut InOut::from_inout_buf(&mut buffer), tag) {
        Ok(())
    } else {
        Err(::aead::Error)
    }
}

/// [`KeyInit::new`] for every key type: the crate's `new`, or the panic the
/// [module documentation](self) explains.
fn new_or_panic<K: crate::AeadKey>(key: &K::Key) -> K {
    match K::new(key) {
        Ok(key) => key,
        Err(error) => panic!(
            "hardware-aead: KeyInit::new cannot build a key on this CPU ({error}); \
             use KeyInit::new_from_slice or the key type's own new to get an error instead"
        ),
    }
}

/// The four `aead` trait impls of one key type; every body is a call of the
/// generic functions above.
macro_rules! impl_aead_traits {
    ($($name:ident $(<$tl:literal>)?: key $KeySize:ty, nonce $NonceSize:ty, tag $TagSize:ty;)+) => {$(
        impl KeySizeUser for $name $(<$tl>)? {
            type KeySize = $KeySize;
        }

        impl KeyInit for $name $(<$tl>)? {
            fn new(key: &Key<Self>) -> Self {
                new_or_panic::<Self>(key.as_ref())
            }

            fn new_from_slice(key: &[u8]) -> Result<Self, InvalidLength> {
                <Self as crate::AeadKey>::new_from_slice(key).map_err(|_| InvalidLength)
            }
        }

        impl AeadCore for $name $(<$tl>)? {
            type NonceSize = $NonceSize;
            type TagSize = $TagSize;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        impl AeadInOut for $name $(<$tl>)? {
            fn encrypt_inout_detached(
                &self,
                nonce: &::aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> ::aead::Result<::aead::Tag<Self>> {
                seal(self, nonce.as_ref(), associated_data, buffer).map(Array::from)
            }

            fn decrypt_inout_detached(
                &self,
                nonce: &::aead::Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &::aead::Tag<Self>,
            ) -> ::aead::Result<()> {
                open(self, nonce.as_ref(), associated_data, buffer, tag.as_ref())
            }
        }
    )+};
}

impl_aead_traits! {
    Aes128Gcm: key U16, nonce U12, tag U16;
    Aes256Gcm: key U32, nonce U12, tag U16;
    Aes128GcmSiv: key U16, nonce U12, tag U16;
    Aes256GcmSiv: key U32, nonce U12, tag U16;
    Xaes256Gcm: key U32, nonce U24, tag U16;
    KcXaes256Gcm: key U32, nonce U24, tag U48;
    Aegis128L<16>: key U16, nonce U16, tag U16;
    Aegis128L<32>: key U16, nonce U16, tag U32;
    Aegis128X2<16>: key U16, nonce U16, tag U16;
    Aegis128X2<32>: key U16, nonce U16, tag U32;
    Aegis128X4<16>: key U16, nonce U16, tag U16;
    Aegis128X4<32>: key U16, nonce U16, tag U32;
    Aegis256<16>: key U32, nonce U32, tag U16;
    Aegis256<32>: key U32, nonce U32, tag U32;
    Aegis256X2<16>: key U32, nonce U32, tag U16;
    Aegis256X2<32>: key U32, nonce U32, tag U32;
    Aegis256X4<16>: key U32, nonce U32, tag U16;
    Aegis256X4<32>: key U32, nonce U32, tag U32;
}
