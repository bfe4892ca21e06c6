//! `impl_inherent!`: each key type's inherent methods and constants, one
//! line each, forwarding to [`AeadKey`](crate::AeadKey). A caller with a
//! concrete key type needs no trait import, and an inherent method wins over
//! any trait's method of the same name (RustCrypto's `aead` traits are
//! implemented on the same types).

/// The rustdoc of a generated item of key type `$name`: `$summary`, then an
/// example. `plain` examples start from nothing; `calls` examples first
/// build `key` (from `[7; $key_len]`) and a `nonce` of the type's length.
/// The body is string pieces, naming the type through `stringify!($name)`.
macro_rules! key_doc {
    (plain $name:ident $(<$tl:literal>)?, $summary:literal, $($body:tt)*) => {
        concat!(
            $summary,
            "\n\n```\nuse ", module_path!(), "::", stringify!($name), ";\n",
            "# fn main() -> Result<(), hardware_aead::Error> {\n",
            $($body)*
            "# Ok(()) }\n```\n",
        )
    };
    (calls $name:ident $(<$tl:literal>)?, $key_len:literal, $summary:literal, $($body:tt)*) => {
        $crate::aead::inherent::key_doc!(
            plain $name,
            $summary,
            "let key = ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::new(&[7; ", stringify!($key_len), "])?;\n",
            "let nonce = [1; ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::NONCE_LEN]; // never twice under one key\n",
            $($body)*
        )
    };
}
pub(crate) use key_doc;

/// The key type `$name` (with its tag length, for the AEGIS types) as
/// written in an expression of a doc example: `Aes128Gcm`,
/// `Aegis128L::<16>`.
macro_rules! type_path {
    ($name:ident) => {
        stringify!($name)
    };
    ($name:ident <$tl:literal>) => {
        concat!(stringify!($name), "::<", stringify!($tl), ">")
    };
}
pub(crate) use type_path;

/// The inherent constructors, constants and seal/open calls of the key type
/// `$name` (key `[u8; $key_len]`, nonce `[u8; $nonce_len]`, tag `$Tag`),
/// each forwarding to [`AeadKey`](crate::AeadKey)'s, under the same `cfg`.
macro_rules! impl_inherent {
    ($name:ident $(<$tl:literal>)?, key_len = $key_len:literal, nonce_len = $nonce_len:literal, tag = $Tag:ty $(,)?) => {
        impl $name $(<$tl>)? {
            #[doc = $crate::aead::inherent::key_doc!(
                plain $name $(<$tl>)?,
                "The key length in bytes ([`AeadKey::KEY_LEN`](crate::AeadKey::KEY_LEN)).",
                "assert_eq!(", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::KEY_LEN, ", stringify!($key_len), ");\n",
                "let key = ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::new(&[7; ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::KEY_LEN])?;\n",
            )]
            pub const KEY_LEN: usize = <Self as $crate::AeadKey>::KEY_LEN;

            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "The nonce length in bytes ([`AeadKey::NONCE_LEN`](crate::AeadKey::NONCE_LEN)): \
                 also what the nonce-appended calls add after the tag.",
                "assert_eq!(", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::NONCE_LEN, ", stringify!($nonce_len), ");\n",
                "let mut sealed = key.seal(&nonce, b\"\", b\"data\")?;\n",
                "sealed.extend_from_slice(&nonce);\n",
                "assert_eq!(key.open_with_nonce_appended(b\"\", &sealed)?, b\"data\");\n",
            )]
            pub const NONCE_LEN: usize = <Self as $crate::AeadKey>::NONCE_LEN;

            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "The length in bytes of the tag, what a seal adds to the plaintext \
                 ([`AeadKey::TAG_LEN`](crate::AeadKey::TAG_LEN)).",
                "let sealed = key.seal(&nonce, b\"\", b\"five!\")?;\n",
                "assert_eq!(sealed.len(), 5 + ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::TAG_LEN);\n",
            )]
            pub const TAG_LEN: usize = <Self as $crate::AeadKey>::TAG_LEN;

            #[doc = $crate::aead::inherent::key_doc!(
                plain $name $(<$tl>)?,
                "Builds the key state on the fastest hardware tier the CPU has, or \
                 returns [`Error::UnsupportedCpu`](crate::Error::UnsupportedCpu) \
                 before reading the key: [`AeadKey::new`](crate::AeadKey::new).",
                "let key = ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::new(&[7; ", stringify!($key_len), "])?;\n",
                "println!(\"{:?}\", key.tier());\n",
            )]
            #[inline]
            pub fn new(key: &[u8; $key_len]) -> Result<Self, $crate::Error> {
                <Self as $crate::AeadKey>::new(key)
            }

            #[doc = $crate::aead::inherent::key_doc!(
                plain $name $(<$tl>)?,
                "Like [`new`](Self::new), from a slice: \
                 [`Error::InvalidKeyLength`](crate::Error::InvalidKeyLength) if it has the \
                 wrong length ([`AeadKey::new_from_slice`](crate::AeadKey::new_from_slice)).",
                "use hardware_aead::Error;\n",
                "assert!(", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::new_from_slice(&[7; ", stringify!($key_len), "]).is_ok());\n",
                "let long = [7; ", stringify!($key_len), " + 1];\n",
                "assert_eq!(", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::new_from_slice(&long).err(), Some(Error::InvalidKeyLength));\n",
            )]
            #[inline]
            pub fn new_from_slice(key: &[u8]) -> Result<Self, $crate::Error> {
                <Self as $crate::AeadKey>::new_from_slice(key)
            }

            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Builds the key state on the tier `tier`, or returns \
                 [`Error::UnsupportedCpu`](crate::Error::UnsupportedCpu) if this CPU (or \
                 this build) does not have it ([`AeadKey::with_tier`](crate::AeadKey::with_tier)).",
                "let again = ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::with_tier(&[7; ", stringify!($key_len), "], key.tier())?;\n",
                "assert_eq!(again.seal(&nonce, b\"\", b\"x\")?, key.seal(&nonce, b\"\", b\"x\")?);\n",
            )]
            #[inline]
            pub fn with_tier(
                key: &[u8; $key_len],
                tier: $crate::Tier,
            ) -> Result<Self, $crate::Error> {
                <Self as $crate::AeadKey>::with_tier(key, tier)
            }

            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "The hardware tier this key uses ([`AeadKey::tier`](crate::AeadKey::tier)).",
                "let tier = key.tier();\n",
                "assert_eq!(", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::with_tier(&[7; ", stringify!($key_len), "], tier)?.tier(), tier);\n",
            )]
            #[inline]
            pub fn tier(&self) -> $crate::Tier {
                <Self as $crate::AeadKey>::tier(self)
            }

            #[doc = $crate::aead::inherent::key_doc!(
                plain $name $(<$tl>)?,
                "Builds the key state inside `slot`, never moved afterwards; dropping \
                 the guard drops the key and zeroes the slot \
                 ([`AeadKey::new_in`](crate::AeadKey::new_in), [`placement`](crate::placement)).",
                "use hardware_aead::placement::KeySlot;\n",
                "let mut slot = KeySlot::new();\n",
                "let key = ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::new_in(&mut slot, &[7; ", stringify!($key_len), "])?;\n",
                "let nonce = [1; ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::NONCE_LEN];\n",
                "let sealed = key.seal(&nonce, b\"\", b\"placed\")?;\n",
                "assert_eq!(key.open(&nonce, b\"\", &sealed)?, b\"placed\");\n",
            )]
            #[inline]
            pub fn new_in<'a>(
                slot: &'a mut $crate::placement::KeySlot<Self>,
                key: &[u8; $key_len],
            ) -> Result<$crate::placement::Placed<'a, Self>, $crate::Error> {
                <Self as $crate::AeadKey>::new_in(slot, key)
            }

            #[doc = $crate::aead::inherent::key_doc!(
                plain $name $(<$tl>)?,
                "Builds the key state at `at`, in memory the caller allocated, on the \
                 fastest tier the CPU has ([`AeadKey::new_at`](crate::AeadKey::new_at)).\n\n\
                 # Safety\n\
                 As for [`AeadKey::new_at`](crate::AeadKey::new_at): `at` valid for reads and \
                 writes of [`key_state_layout`](crate::placement::key_state_layout) bytes and \
                 aligned to it, used by nothing else while the key lives there; the key \
                 dropped in place (`core::ptr::drop_in_place`) before the memory is freed.",
                "use std::alloc::{alloc, dealloc};\n",
                "let layout = hardware_aead::placement::key_state_layout::<", $crate::aead::inherent::type_path!($name $(<$tl>)?), ">();\n",
                "// SAFETY: the layout has a non-zero size.\n",
                "let at = unsafe { alloc(layout) }.cast::<", $crate::aead::inherent::type_path!($name $(<$tl>)?), ">();\n",
                "assert!(!at.is_null());\n",
                "// SAFETY: `at` is a fresh allocation of the key's layout.\n",
                "unsafe { ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::new_at(at, &[7; ", stringify!($key_len), "])? };\n",
                "// SAFETY: initialised just above.\n",
                "let key = unsafe { &*at };\n",
                "let nonce = [1; ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::NONCE_LEN];\n",
                "let sealed = key.seal(&nonce, b\"\", b\"guarded\")?;\n",
                "assert_eq!(key.open(&nonce, b\"\", &sealed)?, b\"guarded\");\n",
                "// SAFETY: the key is dropped once, then the memory is freed.\n",
                "unsafe {\n    core::ptr::drop_in_place(at);\n    dealloc(at.cast(), layout);\n}\n",
            )]
            #[inline]
            pub unsafe fn new_at(at: *mut Self, key: &[u8; $key_len]) -> Result<(), $crate::Error> {
                // SAFETY: the caller keeps `AeadKey::new_at`'s contract.
                unsafe { <Self as $crate::AeadKey>::new_at(at, key) }
            }

            #[cfg(feature = "alloc")]
            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Seals `plaintext` and returns `ciphertext || tag` \
                 ([`AeadKey::seal`](crate::AeadKey::seal)).",
                "let sealed = key.seal(&nonce, b\"header\", b\"hello\")?;\n",
                "assert_eq!(sealed.len(), 5 + ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::TAG_LEN);\n",
                "assert_eq!(key.open(&nonce, b\"header\", &sealed)?, b\"hello\");\n",
            )]
            #[inline]
            pub fn seal(
                &self,
                nonce: &[u8; $nonce_len],
                aad: &[u8],
                plaintext: &[u8],
            ) -> Result<::alloc::vec::Vec<u8>, $crate::Error> {
                <Self as $crate::AeadKey>::seal(self, nonce, aad, plaintext)
            }

            #[cfg(feature = "alloc")]
            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Opens `ciphertext || tag` and returns the plaintext, or \
                 [`Error::Authentication`](crate::Error::Authentication) \
                 ([`AeadKey::open`](crate::AeadKey::open)).",
                "let mut sealed = key.seal(&nonce, b\"id=7\", b\"hello\")?;\n",
                "assert_eq!(key.open(&nonce, b\"id=7\", &sealed)?, b\"hello\");\n",
                "sealed[0] ^= 1;\n",
                "assert_eq!(key.open(&nonce, b\"id=7\", &sealed), Err(hardware_aead::Error::Authentication));\n",
            )]
            #[inline]
            pub fn open(
                &self,
                nonce: &[u8; $nonce_len],
                aad: &[u8],
                ciphertext_and_tag: &[u8],
            ) -> Result<::alloc::vec::Vec<u8>, $crate::Error> {
                <Self as $crate::AeadKey>::open(self, nonce, aad, ciphertext_and_tag)
            }

            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Seals `plaintext` into `out` as `ciphertext || tag` and returns the \
                 bytes written; never allocates ([`AeadKey::seal_to`](crate::AeadKey::seal_to)).",
                "let mut out = [0u8; 5 + ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::TAG_LEN];\n",
                "assert_eq!(key.seal_to(&nonce, b\"\", b\"hello\", &mut out)?, out.len());\n",
                "let mut plain = [0u8; 5];\n",
                "key.open_to(&nonce, b\"\", &out, &mut plain)?;\n",
                "assert_eq!(&plain, b\"hello\");\n",
            )]
            #[inline]
            pub fn seal_to(
                &self,
                nonce: &[u8; $nonce_len],
                aad: &[u8],
                plaintext: &[u8],
                out: &mut [u8],
            ) -> Result<usize, $crate::Error> {
                <Self as $crate::AeadKey>::seal_to(self, nonce, aad, plaintext, out)
            }

            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Opens `ciphertext || tag` into `out` and returns the plaintext length; \
                 never allocates ([`AeadKey::open_to`](crate::AeadKey::open_to)).",
                "let mut sealed = [0u8; 5 + ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::TAG_LEN];\n",
                "key.seal_to(&nonce, b\"\", b\"hello\", &mut sealed)?;\n",
                "let mut plain = [0u8; 5];\n",
                "assert_eq!(key.open_to(&nonce, b\"\", &sealed, &mut plain)?, 5);\n",
                "sealed[0] ^= 1;\n",
                "assert!(key.open_to(&nonce, b\"\", &sealed, &mut plain).is_err());\n",
                "assert_eq!(plain, [0; 5]); // nothing released\n",
            )]
            #[inline]
            pub fn open_to(
                &self,
                nonce: &[u8; $nonce_len],
                aad: &[u8],
                ciphertext_and_tag: &[u8],
                out: &mut [u8],
            ) -> Result<usize, $crate::Error> {
                <Self as $crate::AeadKey>::open_to(self, nonce, aad, ciphertext_and_tag, out)
            }

            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Seals `buffer` in place and returns the tag \
                 ([`AeadKey::seal_in_place_detached`](crate::AeadKey::seal_in_place_detached)).",
                "let mut buffer = *b\"in place\";\n",
                "let tag = key.seal_in_place_detached(&nonce, b\"\", &mut buffer)?;\n",
                "assert_ne!(&buffer, b\"in place\");\n",
                "key.open_in_place_detached(&nonce, b\"\", &mut buffer, &tag)?;\n",
                "assert_eq!(&buffer, b\"in place\");\n",
            )]
            #[inline]
            pub fn seal_in_place_detached(
                &self,
                nonce: &[u8; $nonce_len],
                aad: &[u8],
                buffer: &mut [u8],
            ) -> Result<$Tag, $crate::Error> {
                <Self as $crate::AeadKey>::seal_in_place_detached(self, nonce, aad, buffer)
            }

            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Opens `buffer` in place if `tag` verifies; otherwise returns \
                 [`Error::Authentication`](crate::Error::Authentication) and leaves `buffer` \
                 all zero ([`AeadKey::open_in_place_detached`](crate::AeadKey::open_in_place_detached)).",
                "let mut buffer = *b\"in place\";\n",
                "let mut tag = key.seal_in_place_detached(&nonce, b\"\", &mut buffer)?;\n",
                "tag[0] ^= 1;\n",
                "assert!(key.open_in_place_detached(&nonce, b\"\", &mut buffer, &tag).is_err());\n",
                "assert_eq!(buffer, [0; 8]);\n",
            )]
            #[inline]
            pub fn open_in_place_detached(
                &self,
                nonce: &[u8; $nonce_len],
                aad: &[u8],
                buffer: &mut [u8],
                tag: &$Tag,
            ) -> Result<(), $crate::Error> {
                <Self as $crate::AeadKey>::open_in_place_detached(self, nonce, aad, buffer, tag)
            }

            #[cfg(feature = "std")]
            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Seals with the key's next generated nonce and returns the nonce with \
                 `ciphertext || tag` \
                 ([`AeadKey::seal_with_generated_nonce`](crate::AeadKey::seal_with_generated_nonce)).",
                "let (nonce, sealed) = key.seal_with_generated_nonce(b\"aad\", b\"msg\")?;\n",
                "assert_eq!(key.open(&nonce, b\"aad\", &sealed)?, b\"msg\");\n",
            )]
            #[inline]
            pub fn seal_with_generated_nonce(
                &self,
                aad: &[u8],
                plaintext: &[u8],
            ) -> Result<([u8; $nonce_len], ::alloc::vec::Vec<u8>), $crate::Error> {
                <Self as $crate::AeadKey>::seal_with_generated_nonce(self, aad, plaintext)
            }

            #[cfg(feature = "std")]
            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Seals with the key's next generated nonce and returns \
                 `ciphertext || tag || nonce` \
                 ([`AeadKey::seal_with_generated_nonce_appended`](crate::AeadKey::seal_with_generated_nonce_appended)).",
                "let sealed = key.seal_with_generated_nonce_appended(b\"\", b\"msg\")?;\n",
                "assert_eq!(sealed.len(), 3 + ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::TAG_LEN + ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::NONCE_LEN);\n",
                "assert_eq!(key.open_with_nonce_appended(b\"\", &sealed)?, b\"msg\");\n",
            )]
            #[inline]
            pub fn seal_with_generated_nonce_appended(
                &self,
                aad: &[u8],
                plaintext: &[u8],
            ) -> Result<::alloc::vec::Vec<u8>, $crate::Error> {
                <Self as $crate::AeadKey>::seal_with_generated_nonce_appended(self, aad, plaintext)
            }

            #[cfg(feature = "std")]
            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "[`seal_with_generated_nonce_appended`](Self::seal_with_generated_nonce_appended) \
                 into `out`; returns the bytes written, never allocates \
                 ([`AeadKey::seal_with_generated_nonce_appended_to`](crate::AeadKey::seal_with_generated_nonce_appended_to)).",
                "let mut out = [0u8; 3 + ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::TAG_LEN + ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::NONCE_LEN];\n",
                "let n = key.seal_with_generated_nonce_appended_to(b\"\", b\"msg\", &mut out)?;\n",
                "let mut plain = [0u8; 3];\n",
                "key.open_with_nonce_appended_to(b\"\", &out[..n], &mut plain)?;\n",
                "assert_eq!(&plain, b\"msg\");\n",
            )]
            #[inline]
            pub fn seal_with_generated_nonce_appended_to(
                &self,
                aad: &[u8],
                plaintext: &[u8],
                out: &mut [u8],
            ) -> Result<usize, $crate::Error> {
                <Self as $crate::AeadKey>::seal_with_generated_nonce_appended_to(
                    self, aad, plaintext, out,
                )
            }

            #[cfg(feature = "alloc")]
            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Opens `ciphertext || tag || nonce` and returns the plaintext \
                 ([`AeadKey::open_with_nonce_appended`](crate::AeadKey::open_with_nonce_appended)).",
                "let mut sealed = key.seal(&nonce, b\"\", b\"msg\")?;\n",
                "sealed.extend_from_slice(&nonce);\n",
                "assert_eq!(key.open_with_nonce_appended(b\"\", &sealed)?, b\"msg\");\n",
            )]
            #[inline]
            pub fn open_with_nonce_appended(
                &self,
                aad: &[u8],
                data: &[u8],
            ) -> Result<::alloc::vec::Vec<u8>, $crate::Error> {
                <Self as $crate::AeadKey>::open_with_nonce_appended(self, aad, data)
            }

            #[doc = $crate::aead::inherent::key_doc!(
                calls $name $(<$tl>)?, $key_len,
                "Opens `ciphertext || tag || nonce` into `out` and returns the plaintext \
                 length; never allocates \
                 ([`AeadKey::open_with_nonce_appended_to`](crate::AeadKey::open_with_nonce_appended_to)).",
                "let mut data = [0u8; 3 + ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::TAG_LEN + ", $crate::aead::inherent::type_path!($name $(<$tl>)?), "::NONCE_LEN];\n",
                "let n = key.seal_to(&nonce, b\"\", b\"msg\", &mut data)?;\n",
                "data[n..].copy_from_slice(&nonce);\n",
                "let mut plain = [0u8; 3];\n",
                "assert_eq!(key.open_with_nonce_appended_to(b\"\", &data, &mut plain)?, 3);\n",
                "assert_eq!(&plain, b\"msg\");\n",
            )]
            #[inline]
            pub fn open_with_nonce_appended_to(
                &self,
                aad: &[u8],
                data: &[u8],
                out: &mut [u8],
            ) -> Result<usize, $crate::Error> {
                <Self as $crate::AeadKey>::open_with_nonce_appended_to(self, aad, data, out)
            }
        }
    };
}
pub(crate) use impl_inherent;
