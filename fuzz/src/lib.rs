//! What the fuzz targets share: reading fields out of the fuzzer's bytes,
//! choosing an algorithm and a tier, and the checks every opening must pass.
//!
//! Input layout (all targets): a control byte, then fields read in order; a
//! field past the end of the input reads as zeros, so every input is valid and
//! the fuzzer never wastes runs on a parse error. `fuzz/README.md` says how to
//! run the targets and where the seeds come from.

use hardware_aead::{AeadKey, Tier, Error};

/// Every tier the API names; those the CPU (or build) lacks are skipped.
pub const TIERS: [Tier; 4] = [
    Tier::AesNiClmul,
    Tier::VaesAvx2,
    Tier::VaesAvx512,
    Tier::Armv8,
];

/// The length of a nonce.
pub const NONCE_LEN: usize = 12;

/// Fields read from the fuzzer's bytes, in order; zeros past the end.
pub struct Input<'a> {
    data: &'a [u8],
}

impl<'a> Input<'a> {
    /// Reads `data` from the start.
    pub fn new(data: &'a [u8]) -> Self {
        Self { data }
    }

    /// The next byte, or 0.
    pub fn byte(&mut self) -> u8 {
        let (first, rest) = self
            .data
            .split_first()
            .map_or((0, &[][..]), |(f, r)| (*f, r));
        self.data = rest;
        first
    }

    /// The next two bytes, little-endian.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    /// The next `N` bytes, zero-padded.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let n = N.min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        out
    }

    /// Up to `n` bytes (fewer at the end of the input).
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let (head, tail) = self.data.split_at(n.min(self.data.len()));
        self.data = tail;
        head
    }

    /// Everything not read yet.
    pub fn rest(self) -> &'a [u8] {
        self.data
    }
}

/// `len` bytes made by repeating `pattern` (zeros if it is empty): long
/// messages from short inputs.
pub fn stretch(pattern: &[u8], len: usize) -> Vec<u8> {
    if pattern.is_empty() {
        return vec![0u8; len];
    }
    pattern.iter().copied().cycle().take(len).collect()
}

/// The four algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alg {
    /// AES-128-GCM.
    Aes128Gcm,
    /// AES-256-GCM.
    Aes256Gcm,
    /// AES-128-GCM-SIV.
    Aes128GcmSiv,
    /// AES-256-GCM-SIV.
    Aes256GcmSiv,
}

impl Alg {
    /// The algorithm named by the low two bits of `b`.
    pub fn from_byte(b: u8) -> Self {
        match b & 3 {
            0 => Alg::Aes128Gcm,
            1 => Alg::Aes256Gcm,
            2 => Alg::Aes128GcmSiv,
            _ => Alg::Aes256GcmSiv,
        }
    }
}

/// Calls `$f::<K>($args)` with `K` the key type of `$alg`.
#[macro_export]
macro_rules! dispatch {
    ($alg:expr, $f:ident($($arg:expr),* $(,)?)) => {
        match $alg {
            $crate::Alg::Aes128Gcm => $f::<hardware_aead::aes_gcm::Aes128Gcm>($($arg),*),
            $crate::Alg::Aes256Gcm => $f::<hardware_aead::aes_gcm::Aes256Gcm>($($arg),*),
            $crate::Alg::Aes128GcmSiv => $f::<hardware_aead::aes_gcm_siv::Aes128GcmSiv>($($arg),*),
            $crate::Alg::Aes256GcmSiv => $f::<hardware_aead::aes_gcm_siv::Aes256GcmSiv>($($arg),*),
        }
    };
}

/// A key of type `K` from the first `K::KEY_LEN` bytes of `key`, on `tier`
/// (or the default tier for `None`); `None` if this CPU lacks the tier.
pub fn make_key<K: AeadKey>(key: &[u8; 32], tier: Option<Tier>) -> Option<K> {
    let bytes = &key[..K::KEY_LEN];
    match tier {
        None => Some(K::new_from_slice(bytes).expect("the default tier exists here")),
        Some(b) => {
            let kb = K::Key::try_from(bytes).unwrap_or_else(|_| unreachable!("KEY_LEN bytes"));
            match K::with_tier(&kb, b) {
                Ok(k) => Some(k),
                Err(Error::UnsupportedCpu { .. }) => None,
                Err(e) => panic!("with_tier({b:?}) failed with {e:?}"),
            }
        }
    }
}

/// The ways of opening a message the API offers.
#[derive(Clone, Copy, Debug)]
pub enum OpenApi {
    /// `open(nonce, aad, ciphertext || tag)`.
    Open,
    /// `open_to` into a buffer with slack after it.
    OpenTo,
    /// `open_in_place_detached`.
    InPlace,
    /// `open_with_nonce_appended(aad, ciphertext || tag || nonce)`.
    NonceAppended,
}

impl OpenApi {
    /// The API named by the low two bits of `b`.
    pub fn from_byte(b: u8) -> Self {
        match b & 3 {
            0 => OpenApi::Open,
            1 => OpenApi::OpenTo,
            2 => OpenApi::InPlace,
            _ => OpenApi::NonceAppended,
        }
    }
}

/// A byte no correct code leaves in an output buffer by chance.
const FILL: u8 = 0xa5;

/// Opens `data` (laid out as `api` expects; `nonce` is ignored by
/// `NonceAppended`, which reads it from the end of `data`) and checks what the
/// API promises, whatever the bytes:
///
/// - no panic (libFuzzer reports one);
/// - an input shorter than a tag (plus nonce) is `Truncated`, any other
///   failure is `Authentication`;
/// - on failure the plaintext area of the output is all zero, and `open_to`
///   never writes past it;
/// - on success the plaintext, sealed again under the same key, nonce and AAD,
///   gives back exactly `data`: nothing opens but a genuine sealing.
///
/// Returns the plaintext if the message opened.
pub fn open_checked<K: AeadKey<Nonce = [u8; 12]>>(
    key: &K,
    api: OpenApi,
    nonce: &[u8; 12],
    aad: &[u8],
    data: &[u8],
) -> Option<Vec<u8>> {
    let min = match api {
        OpenApi::NonceAppended => K::TAG_LEN + NONCE_LEN,
        _ => K::TAG_LEN,
    };
    let (result, nonce, sealed) = match api {
        OpenApi::Open => (key.open(nonce, aad, data), *nonce, data),
        OpenApi::OpenTo => {
            let text_len = data.len().saturating_sub(K::TAG_LEN);
            let mut out = vec![FILL; text_len + 7];
            let r = key.open_to(nonce, aad, data, &mut out);
            assert!(
                out[text_len..].iter().all(|&b| b == FILL),
                "open_to wrote past the plaintext"
            );
            let r = r.map(|n| {
                assert_eq!(n, text_len);
                out[..n].to_vec()
            });
            if matches!(r, Err(Error::Authentication)) {
                assert!(
                    out[..text_len].iter().all(|&b| b == 0),
                    "forged plaintext left in open_to's output"
                );
            }
            (r, *nonce, data)
        }
        OpenApi::InPlace => {
            if data.len() < K::TAG_LEN {
                return None;
            }
            let (ct, tag) = data.split_at(data.len() - K::TAG_LEN);
            let Ok(tag) = K::Tag::try_from(tag) else {
                unreachable!("TAG_LEN bytes")
            };
            let mut buffer = ct.to_vec();
            let r = key.open_in_place_detached(nonce, aad, &mut buffer, &tag);
            if r == Err(Error::Authentication) {
                assert!(
                    buffer.iter().all(|&b| b == 0),
                    "forged plaintext left in the in-place buffer"
                );
            }
            (r.map(|()| buffer), *nonce, data)
        }
        OpenApi::NonceAppended => {
            let r = key.open_with_nonce_appended(aad, data);
            if data.len() < min {
                (r, [0u8; NONCE_LEN], data)
            } else {
                let (sealed, n) = data.split_at(data.len() - NONCE_LEN);
                (r, n.try_into().unwrap_or_else(|_| unreachable!()), sealed)
            }
        }
    };
    match result {
        Ok(plaintext) => {
            let again = key
                .seal(&nonce, aad, &plaintext)
                .expect("seal of an opened message");
            assert_eq!(
                again, sealed,
                "a message opened that is not the sealing of its plaintext"
            );
            Some(plaintext)
        }
        Err(Error::Truncated) => {
            assert!(
                data.len() < min,
                "Truncated for {} bytes",
                data.len()
            );
            None
        }
        Err(Error::Authentication) => {
            assert!(
                data.len() >= min,
                "Authentication error for a too-short input"
            );
            None
        }
        Err(e) => panic!("unexpected error opening {} bytes: {e:?}", data.len()),
    }
}

/// The fixed message of the forgery check: under this key, nonce and AAD, the
/// only input that may open is the sealing of `FIXED_PLAINTEXT`.
pub const FIXED_NONCE: [u8; 12] = *b"fixed nonce!";
/// See [`FIXED_NONCE`].
pub const FIXED_AAD: &[u8] = b"fixed associated data";
/// See [`FIXED_NONCE`].
pub const FIXED_PLAINTEXT: &[u8] = b"the one message this key ever sealed";

/// Checks that `candidate` opens under the fixed key, nonce and AAD only if it
/// is the one sealed message.
pub fn check_fixed_message<K: AeadKey<Nonce = [u8; 12]>>(candidate: &[u8]) {
    let key = make_key::<K>(&[0x42; 32], None).expect("default tier");
    let sealed = key
        .seal(&FIXED_NONCE, FIXED_AAD, FIXED_PLAINTEXT)
        .expect("seal");
    match key.open(&FIXED_NONCE, FIXED_AAD, candidate) {
        Ok(p) => {
            assert_eq!(
                candidate,
                &sealed[..],
                "a forgery of the fixed message opened"
            );
            assert_eq!(p, FIXED_PLAINTEXT);
        }
        Err(_) => assert_ne!(candidate, &sealed[..], "the fixed message did not open"),
    }
}
