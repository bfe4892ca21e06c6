//! This crate's AES-GCM as the record protection of [rustls] 0.23 (feature
//! `rustls`).
//!
//! rustls takes its cryptography from a [`CryptoProvider`]. [`provider`]
//! returns rustls's *ring* provider with its AES-GCM cipher suites replaced by
//! this module's, which seal and open every TLS record with this crate's
//! [`Aes128Gcm`] and [`Aes256Gcm`]; [`wrap`] does the same to a provider
//! you built. Everything else — the other suites (ChaCha20-Poly1305), key
//! exchange, certificate signatures, the hash, HKDF and TLS 1.2 PRF of these
//! suites, randomness — stays the base provider's.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let provider = std::sync::Arc::new(hardware_aead::rustls::provider()?);
//! let config = rustls::ClientConfig::builder_with_provider(provider)
//!     .with_safe_default_protocol_versions()?
//!     .with_root_certificates(rustls::RootCertStore::empty())
//!     .with_no_client_auth();
//! # drop(config);
//! # Ok(()) }
//! ```
//!
//! **Why ring as the base.** ring is what the suites borrow their hash, HKDF
//! and PRF from: it is already in this crate's test dependencies, it builds
//! with no C toolchain beyond `cc` and no CMake, and rustls exposes it as a
//! provider module of its own. The AEAD, where a TLS connection spends its
//! time in bulk, is this crate's.
//!
//! **What the suites are.** TLS 1.3: [`TLS13_AES_128_GCM_SHA256`] and
//! [`TLS13_AES_256_GCM_SHA384`], RFC 8446 §5.2–5.3 (the per-record nonce is
//! the IV XOR the 64-bit sequence number, big-endian, left-padded; the
//! additional data is the record header; the content type rides inside the
//! ciphertext). TLS 1.2: the ECDHE-ECDSA and ECDHE-RSA AES-128/256-GCM
//! suites, RFC 5288 (a 4-byte implicit salt and an 8-byte explicit nonce sent
//! before each record's ciphertext; the additional data is the sequence
//! number, type, version and plaintext length, RFC 5246 §6.2.3.3).
//!
//! **Keys.** The record keys are this crate's key types, which wipe their
//! state on drop; the IVs the encrypters and decrypters hold are wiped too.
//! A record that does not verify is [`rustls::Error::DecryptError`] and
//! leaves nothing of its plaintext in the buffer (the crate's open wipes it).
//!
//! **CPU.** [`provider`] and [`wrap`] return [`Error::UnsupportedCpu`]
//! where this crate has no tier for the CPU, before any key exists: a
//! connection never falls back to another implementation silently.
//!
//! **QUIC.** The TLS 1.3 suites carry a `quic::Algorithm` (RFC 9001): packet
//! protection with this crate's AES-GCM keys (the nonce is the IV XOR the
//! packet number, the header the additional data), header protection with
//! one AES block of the sample on the same hardware tier (§5.4.3), its round
//! keys wiped on drop. rustls's `quic` connections take them from the
//! provider as they take ring's.
//!
//! [rustls]: https://docs.rs/rustls/0.23
//! [`CryptoProvider`]: ::rustls::crypto::CryptoProvider
//! [`Aes128Gcm`]: crate::aes_gcm::Aes128Gcm
//! [`Aes256Gcm`]: crate::aes_gcm::Aes256Gcm

use alloc::boxed::Box;
use core::marker::PhantomData;

use ::rustls::crypto::CryptoProvider;
use ::rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, KeyBlockShape, MessageDecrypter,
    MessageEncrypter, OutboundOpaqueMessage, OutboundPlainMessage, PrefixedPayload,
    Tls12AeadAlgorithm, Tls13AeadAlgorithm, UnsupportedOperationError, make_tls12_aad,
    make_tls13_aad,
};
use ::rustls::crypto::ring::cipher_suite as ring_suites;
use ::rustls::quic;
use ::rustls::{
    CipherSuiteCommon, ConnectionTrafficSecrets, ContentType, ProtocolVersion,
    SupportedCipherSuite, Tls12CipherSuite, Tls13CipherSuite,
};
use zeroize::Zeroize;

use crate::aead::Nonce;
use crate::aes_gcm::{Aes128Gcm, Aes256Gcm};
use crate::backend::{self, Tier};
use crate::block::{Block, RoundKeys};
use crate::{Error, Tag};

/// Bytes of a GCM tag.
const TAG_LEN: usize = 16;

/// Bytes of TLS 1.2 GCM's explicit nonce, sent before each record's
/// ciphertext (RFC 5288 §3).
const EXPLICIT_LEN: usize = 8;

/// Bytes of TLS 1.2 GCM's implicit salt, from the key block.
const SALT_LEN: usize = 4;

/// The record protection keys: this crate's AES-GCM key types, with what the
/// suites need to know of each.
trait RecordKey: crate::AeadKey<Nonce = Nonce, Tag = Tag> + Send + Sync + Sized + 'static {
    /// The key and IV as rustls's kernel-TLS export names them.
    fn secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets;
}

impl RecordKey for Aes128Gcm {
    fn secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
        ConnectionTrafficSecrets::Aes128Gcm { key, iv }
    }
}

impl RecordKey for Aes256Gcm {
    fn secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
        ConnectionTrafficSecrets::Aes256Gcm { key, iv }
    }
}

/// The key for `key` (rustls's bytes of exactly `K::KEY_LEN`), or `None` if
/// this crate cannot make one (a CPU without a tier, which [`provider`] and
/// [`wrap`] rule out before any suite is used; or a key of another length).
/// The encrypters and decrypters then fail every record with an error
/// rather than panic, since rustls gives them no way to fail earlier.
fn record_key<K: RecordKey>(key: &AeadKey) -> Option<K> {
    K::new_from_slice(key.as_ref()).ok()
}

/// The nonce of record `seq`: `iv` XOR the sequence number, big-endian,
/// in the last eight bytes (RFC 8446 §5.3; RFC 5288 §3's explicit part,
/// chosen the same way).
fn record_nonce(iv: &[u8; 12], seq: u64) -> Nonce {
    let mut nonce = *iv;
    for (n, s) in nonce[12 - 8..].iter_mut().zip(seq.to_be_bytes()) {
        *n ^= s;
    }
    nonce
}

/// A record (or packet) key and the 12 bytes its nonces are made from: the
/// IV (TLS 1.3, QUIC), the salt and explicit part of record 0 (TLS 1.2
/// sealing), or the salt then zeros (TLS 1.2 opening). The bytes are wiped
/// on drop; the key wipes itself.
struct KeyAndIv<K> {
    key: Option<K>,
    iv: [u8; 12],
}

impl<K: RecordKey> KeyAndIv<K> {
    /// `key` with `iv`; with no IV (lengths rustls should never pass), no
    /// key either, and every record an error.
    fn new(key: &AeadKey, iv: Option<[u8; 12]>) -> Self {
        match iv {
            Some(iv) => Self {
                key: record_key(key),
                iv,
            },
            None => Self {
                key: None,
                iv: [0; 12],
            },
        }
    }

    /// The key, or `error` where there is none ([`record_key`]).
    fn key(&self, error: ::rustls::Error) -> Result<&K, ::rustls::Error> {
        self.key.as_ref().ok_or(error)
    }

    /// The nonce of record (or packet) `seq`.
    fn nonce(&self, seq: u64) -> Nonce {
        record_nonce(&self.iv, seq)
    }
}

impl<K> Drop for KeyAndIv<K> {
    fn drop(&mut self) {
        self.iv.zeroize();
    }
}

/// A TLS 1.3 AES-GCM record protection with key type `K`.
struct Tls13Gcm<K>(PhantomData<fn() -> K>);

impl<K: RecordKey> Tls13AeadAlgorithm for Tls13Gcm<K> {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageEncrypter> {
        Box::new(Tls13Encrypter(KeyAndIv::<K>::new(
            &key,
            Some(iv_bytes(&iv)),
        )))
    }

    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageDecrypter> {
        Box::new(Tls13Decrypter(KeyAndIv::<K>::new(
            &key,
            Some(iv_bytes(&iv)),
        )))
    }

    fn key_len(&self) -> usize {
        <K as crate::AeadKey>::KEY_LEN
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Ok(K::secrets(key, iv))
    }
}

/// The 12 bytes of a rustls IV (always 12: `Iv` holds exactly that many).
fn iv_bytes(iv: &Iv) -> [u8; 12] {
    let mut out = [0u8; 12];
    out.copy_from_slice(iv.as_ref());
    out
}

/// Seals TLS 1.3 records.
struct Tls13Encrypter<K>(KeyAndIv<K>);

/// Opens TLS 1.3 records.
struct Tls13Decrypter<K>(KeyAndIv<K>);

impl<K: RecordKey> MessageEncrypter for Tls13Encrypter<K> {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, ::rustls::Error> {
        let key = self.0.key(::rustls::Error::EncryptError)?;
        let total = self.encrypted_payload_len(msg.payload.len());
        // TLSInnerPlaintext: the content, then its real type (RFC 8446 §5.2).
        let mut payload = PrefixedPayload::with_capacity(total);
        payload.extend_from_chunks(&msg.payload);
        payload.extend_from_slice(&msg.typ.to_array());
        let tag = key
            .seal_in_place_detached(&self.0.nonce(seq), &make_tls13_aad(total), payload.as_mut())
            .map_err(|_| ::rustls::Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(OutboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            payload,
        ))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG_LEN
    }
}

impl<K: RecordKey> MessageDecrypter for Tls13Decrypter<K> {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, ::rustls::Error> {
        let key = self.0.key(::rustls::Error::DecryptError)?;
        let len = msg.payload.len();
        let text_len = len
            .checked_sub(TAG_LEN)
            .ok_or(::rustls::Error::DecryptError)?;
        let (text, tag) = msg.payload.split_at_mut(text_len);
        let tag = Tag::try_from(&*tag).map_err(|_| ::rustls::Error::DecryptError)?;
        key.open_in_place_detached(&self.0.nonce(seq), &make_tls13_aad(len), text, &tag)
            .map_err(|_| ::rustls::Error::DecryptError)?;
        msg.payload.truncate(text_len);
        msg.into_tls13_unpadded_message()
    }
}

/// A TLS 1.2 AES-GCM record protection (RFC 5288) with key type `K`.
struct Tls12Gcm<K>(PhantomData<fn() -> K>);

impl<K: RecordKey> Tls12AeadAlgorithm for Tls12Gcm<K> {
    fn encrypter(&self, key: AeadKey, iv: &[u8], extra: &[u8]) -> Box<dyn MessageEncrypter> {
        // The nonce of record 0, salt then explicit part; later records XOR
        // in their sequence number.
        Box::new(Tls12Encrypter(KeyAndIv::<K>::new(
            &key,
            tls12_nonce(iv, extra),
        )))
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        // The salt, then zeros where each record's explicit part goes.
        Box::new(Tls12Decrypter(KeyAndIv::<K>::new(
            &key,
            tls12_nonce(iv, &[0; EXPLICIT_LEN]),
        )))
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        KeyBlockShape {
            enc_key_len: <K as crate::AeadKey>::KEY_LEN,
            fixed_iv_len: SALT_LEN,
            explicit_nonce_len: EXPLICIT_LEN,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        let nonce = tls12_nonce(iv, explicit).ok_or(UnsupportedOperationError)?;
        Ok(K::secrets(key, Iv::new(nonce)))
    }
}

/// The 12-byte nonce `salt || explicit` (4 + 8 bytes), if the lengths are those.
fn tls12_nonce(salt: &[u8], explicit: &[u8]) -> Option<[u8; 12]> {
    if salt.len() != SALT_LEN || explicit.len() != EXPLICIT_LEN {
        return None;
    }
    let mut nonce = [0u8; 12];
    nonce[..SALT_LEN].copy_from_slice(salt);
    nonce[SALT_LEN..].copy_from_slice(explicit);
    Some(nonce)
}

/// Seals TLS 1.2 records.
struct Tls12Encrypter<K>(KeyAndIv<K>);

/// Opens TLS 1.2 records.
struct Tls12Decrypter<K>(KeyAndIv<K>);

impl<K: RecordKey> MessageEncrypter for Tls12Encrypter<K> {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, ::rustls::Error> {
        let key = self.0.key(::rustls::Error::EncryptError)?;
        let nonce = self.0.nonce(seq);
        let text_len = msg.payload.len();
        let mut payload = PrefixedPayload::with_capacity(self.encrypted_payload_len(text_len));
        payload.extend_from_slice(&nonce[SALT_LEN..]);
        payload.extend_from_chunks(&msg.payload);
        let aad = make_tls12_aad(seq, msg.typ, msg.version, text_len);
        let tag = key
            .seal_in_place_detached(&nonce, &aad, &mut payload.as_mut()[EXPLICIT_LEN..])
            .map_err(|_| ::rustls::Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        EXPLICIT_LEN + payload_len + TAG_LEN
    }
}

impl<K: RecordKey> MessageDecrypter for Tls12Decrypter<K> {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, ::rustls::Error> {
        let key = self.0.key(::rustls::Error::DecryptError)?;
        let len = msg.payload.len();
        let text_len = len
            .checked_sub(EXPLICIT_LEN + TAG_LEN)
            .ok_or(::rustls::Error::DecryptError)?;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, text_len);
        let (explicit, rest) = msg.payload.split_at_mut(EXPLICIT_LEN);
        let nonce =
            tls12_nonce(&self.0.iv[..SALT_LEN], explicit).ok_or(::rustls::Error::DecryptError)?;
        let (text, tag) = rest.split_at_mut(text_len);
        let tag = Tag::try_from(&*tag).map_err(|_| ::rustls::Error::DecryptError)?;
        key.open_in_place_detached(&nonce, &aad, text, &tag)
            .map_err(|_| ::rustls::Error::DecryptError)?;
        Ok(msg.into_plain_message_range(EXPLICIT_LEN..EXPLICIT_LEN + text_len))
    }
}

/// QUIC packet protection (RFC 9001 §5.3, this crate's AES-GCM with key
/// type `K`) and header protection (§5.4.3, one AES block under a key of
/// `KB` bytes, `ROUND_KEYS` round keys) for a TLS 1.3 suite.
struct QuicGcm<K, const ROUND_KEYS: usize, const KB: usize>(PhantomData<fn() -> K>);

impl<K: RecordKey, const ROUND_KEYS: usize, const KB: usize> quic::Algorithm
    for QuicGcm<K, ROUND_KEYS, KB>
{
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn quic::PacketKey> {
        Box::new(QuicPacketKey(KeyAndIv::<K>::new(&key, Some(iv_bytes(&iv)))))
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn quic::HeaderProtectionKey> {
        Box::new(QuicHeaderKey::<ROUND_KEYS>::new::<KB>(&key))
    }

    fn aead_key_len(&self) -> usize {
        <K as crate::AeadKey>::KEY_LEN
    }
}

/// Seals and opens QUIC packet payloads: the nonce is the IV XOR the packet
/// number (as for TLS records), the additional data the packet's header.
struct QuicPacketKey<K>(KeyAndIv<K>);

impl<K: RecordKey> quic::PacketKey for QuicPacketKey<K> {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, ::rustls::Error> {
        let key = self.0.key(::rustls::Error::EncryptError)?;
        let tag = key
            .seal_in_place_detached(&self.0.nonce(packet_number), header, payload)
            .map_err(|_| ::rustls::Error::EncryptError)?;
        Ok(quic::Tag::from(&tag[..]))
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], ::rustls::Error> {
        let key = self.0.key(::rustls::Error::DecryptError)?;
        let text_len = payload
            .len()
            .checked_sub(TAG_LEN)
            .ok_or(::rustls::Error::DecryptError)?;
        let (text, tag) = payload.split_at_mut(text_len);
        let tag = Tag::try_from(&*tag).map_err(|_| ::rustls::Error::DecryptError)?;
        key.open_in_place_detached(&self.0.nonce(packet_number), header, text, &tag)
            .map_err(|_| ::rustls::Error::DecryptError)?;
        Ok(&payload[..text_len])
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    /// RFC 9001 §6.6: 2^23 packets for AEAD_AES_128_GCM and AEAD_AES_256_GCM.
    fn confidentiality_limit(&self) -> u64 {
        1 << 23
    }

    /// RFC 9001 §6.6: 2^52 failed openings for AEAD_AES_128_GCM and AEAD_AES_256_GCM.
    fn integrity_limit(&self) -> u64 {
        1 << 52
    }
}

/// QUIC header protection with AES (RFC 9001 §5.4.3): the mask is one AES
/// block of a 16-byte sample of the ciphertext, on this crate's hardware
/// tier. The round keys are expanded in place on the heap and wiped on drop
/// (`RoundKeys`' `Drop`).
struct QuicHeaderKey<const ROUND_KEYS: usize> {
    keys: Option<(Tier, Box<RoundKeys<ROUND_KEYS>>)>,
}

impl<const ROUND_KEYS: usize> QuicHeaderKey<ROUND_KEYS> {
    /// The key for `key`, or none (every use then an error) on a CPU
    /// without a tier or for a key of another length than `KB` bytes.
    fn new<const KB: usize>(key: &AeadKey) -> Self {
        let keys = (|| {
            let tier = Tier::best().ok()?;
            let key = <&[u8; KB]>::try_from(key.as_ref()).ok()?;
            let mut round_keys = Box::<RoundKeys<ROUND_KEYS>>::new_uninit();
            backend::expand_key::<ROUND_KEYS, KB>(tier, key, &mut round_keys);
            // SAFETY: `expand_key` writes the whole value (every round key).
            Some((tier, unsafe { round_keys.assume_init() }))
        })();
        Self { keys }
    }

    /// Adds (`protect`) or removes header protection, RFC 9001 §5.4.1: the
    /// low 4 (long header) or 5 (short header) bits of the first byte and
    /// the packet number's bytes, as many as the unprotected first byte's
    /// low two bits say, XOR the mask.
    fn apply(
        &self,
        protect: bool,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), ::rustls::Error> {
        let (tier, round_keys) = self.keys.as_ref().ok_or(::rustls::Error::EncryptError)?;
        let sample = Block::try_from(sample).map_err(|_| {
            ::rustls::Error::General(
                "QUIC header protection: a sample of other than 16 bytes".into(),
            )
        })?;
        if packet_number.len() > 4 {
            return Err(::rustls::Error::General(
                "QUIC header protection: a packet number of more than 4 bytes".into(),
            ));
        }
        let mut mask = backend::encrypt_block(*tier, round_keys, &sample);
        let bits = if *first & 0x80 != 0 { 0x0f } else { 0x1f };
        let unprotected_first = if protect {
            *first
        } else {
            *first ^ (mask[0] & bits)
        };
        let pn_len = usize::from(unprotected_first & 0x03) + 1;
        *first ^= mask[0] & bits;
        for (byte, m) in packet_number.iter_mut().zip(&mask[1..]).take(pn_len) {
            *byte ^= m;
        }
        mask.zeroize();
        Ok(())
    }
}

impl<const ROUND_KEYS: usize> quic::HeaderProtectionKey for QuicHeaderKey<ROUND_KEYS> {
    fn encrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), ::rustls::Error> {
        self.apply(true, sample, first, packet_number)
    }

    fn decrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), ::rustls::Error> {
        self.apply(false, sample, first, packet_number)
    }

    fn sample_len(&self) -> usize {
        16
    }
}

/// ring's TLS 1.3 suite behind `suite`, for its hash and HKDF.
const fn ring13(suite: SupportedCipherSuite) -> &'static Tls13CipherSuite {
    match suite {
        SupportedCipherSuite::Tls13(s) => s,
        SupportedCipherSuite::Tls12(_) => panic!("a TLS 1.3 suite of ring's"),
    }
}

/// ring's TLS 1.2 suite behind `suite`, for its hash, PRF, key exchange and
/// signature schemes.
const fn ring12(suite: SupportedCipherSuite) -> &'static Tls12CipherSuite {
    match suite {
        SupportedCipherSuite::Tls12(s) => s,
        SupportedCipherSuite::Tls13(_) => panic!("a TLS 1.2 suite of ring's"),
    }
}

/// A TLS 1.3 suite: `base`'s hash and HKDF, this crate's AES-GCM for TLS
/// records and QUIC packets.
const fn tls13_suite(
    base: SupportedCipherSuite,
    aead_alg: &'static dyn Tls13AeadAlgorithm,
    quic: &'static dyn quic::Algorithm,
) -> Tls13CipherSuite {
    let base = ring13(base);
    Tls13CipherSuite {
        common: CipherSuiteCommon {
            suite: base.common.suite,
            hash_provider: base.common.hash_provider,
            confidentiality_limit: base.common.confidentiality_limit,
        },
        hkdf_provider: base.hkdf_provider,
        aead_alg,
        quic: Some(quic),
    }
}

/// A TLS 1.2 suite: `base`'s hash, PRF, key exchange and signature
/// schemes, this crate's AES-GCM.
const fn tls12_suite(
    base: SupportedCipherSuite,
    aead_alg: &'static dyn Tls12AeadAlgorithm,
) -> Tls12CipherSuite {
    let base = ring12(base);
    Tls12CipherSuite {
        common: CipherSuiteCommon {
            suite: base.common.suite,
            hash_provider: base.common.hash_provider,
            confidentiality_limit: base.common.confidentiality_limit,
        },
        prf_provider: base.prf_provider,
        kx: base.kx,
        sign: base.sign,
        aead_alg,
    }
}

/// TLS 1.3 `TLS_AES_128_GCM_SHA256`, records sealed with [`Aes128Gcm`].
///
/// ```
/// use hardware_aead::rustls::TLS13_AES_128_GCM_SHA256;
/// assert_eq!(TLS13_AES_128_GCM_SHA256.suite(), rustls::CipherSuite::TLS13_AES_128_GCM_SHA256);
/// ```
pub static TLS13_AES_128_GCM_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls13(&tls13_suite(
        ring_suites::TLS13_AES_128_GCM_SHA256,
        &Tls13Gcm::<Aes128Gcm>(PhantomData),
        &QuicGcm::<Aes128Gcm, 11, 16>(PhantomData),
    ));

/// TLS 1.3 `TLS_AES_256_GCM_SHA384`, records sealed with [`Aes256Gcm`].
///
/// ```
/// use hardware_aead::rustls::TLS13_AES_256_GCM_SHA384;
/// assert_eq!(TLS13_AES_256_GCM_SHA384.suite(), rustls::CipherSuite::TLS13_AES_256_GCM_SHA384);
/// ```
pub static TLS13_AES_256_GCM_SHA384: SupportedCipherSuite =
    SupportedCipherSuite::Tls13(&tls13_suite(
        ring_suites::TLS13_AES_256_GCM_SHA384,
        &Tls13Gcm::<Aes256Gcm>(PhantomData),
        &QuicGcm::<Aes256Gcm, 15, 32>(PhantomData),
    ));

/// TLS 1.2 `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256`, records sealed with
/// [`Aes128Gcm`].
///
/// ```
/// use hardware_aead::rustls::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256 as SUITE;
/// assert_eq!(SUITE.suite(), rustls::CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256);
/// ```
pub static TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls12(&tls12_suite(
        ring_suites::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        &Tls12Gcm::<Aes128Gcm>(PhantomData),
    ));

/// TLS 1.2 `TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384`, records sealed with
/// [`Aes256Gcm`].
///
/// ```
/// use hardware_aead::rustls::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384 as SUITE;
/// assert_eq!(SUITE.suite(), rustls::CipherSuite::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384);
/// ```
pub static TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: SupportedCipherSuite =
    SupportedCipherSuite::Tls12(&tls12_suite(
        ring_suites::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        &Tls12Gcm::<Aes256Gcm>(PhantomData),
    ));

/// TLS 1.2 `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`, records sealed with
/// [`Aes128Gcm`].
///
/// ```
/// use hardware_aead::rustls::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 as SUITE;
/// assert_eq!(SUITE.suite(), rustls::CipherSuite::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256);
/// ```
pub static TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls12(&tls12_suite(
        ring_suites::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        &Tls12Gcm::<Aes128Gcm>(PhantomData),
    ));

/// TLS 1.2 `TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384`, records sealed with
/// [`Aes256Gcm`].
///
/// ```
/// use hardware_aead::rustls::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 as SUITE;
/// assert_eq!(SUITE.suite(), rustls::CipherSuite::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384);
/// ```
pub static TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: SupportedCipherSuite =
    SupportedCipherSuite::Tls12(&tls12_suite(
        ring_suites::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        &Tls12Gcm::<Aes256Gcm>(PhantomData),
    ));

/// This module's suites, TLS 1.3 first, AES-256 before AES-128 in each
/// version (the order of rustls's own providers).
///
/// ```
/// use hardware_aead::rustls::{ALL_CIPHER_SUITES, TLS13_AES_256_GCM_SHA384};
/// assert_eq!(ALL_CIPHER_SUITES.len(), 6);
/// assert_eq!(ALL_CIPHER_SUITES[0].suite(), TLS13_AES_256_GCM_SHA384.suite());
/// ```
pub static ALL_CIPHER_SUITES: &[SupportedCipherSuite] = &[
    TLS13_AES_256_GCM_SHA384,
    TLS13_AES_128_GCM_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
];

/// rustls's *ring* provider with its AES-GCM suites replaced by this
/// module's ([`wrap`] of `rustls::crypto::ring::default_provider()`).
///
/// # Errors
///
/// [`Error::UnsupportedCpu`] where this crate has no tier for the CPU.
///
/// ```
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let provider = hardware_aead::rustls::provider()?;
/// assert!(provider.cipher_suites.contains(&hardware_aead::rustls::TLS13_AES_128_GCM_SHA256));
/// # Ok(()) }
/// ```
pub fn provider() -> Result<CryptoProvider, Error> {
    wrap(::rustls::crypto::ring::default_provider())
}

/// `base` with each AES-GCM suite (any provider's, matched by its
/// [`CipherSuite`](::rustls::CipherSuite) identifier) replaced by this module's, in the same place
/// of the list; its other suites, key exchange groups, signature
/// algorithms, key provider and randomness unchanged. The suites this
/// module adds take their hash, HKDF and PRF from ring, whatever `base` is.
///
/// # Errors
///
/// [`Error::UnsupportedCpu`] where this crate has no tier for the CPU.
///
/// ```
/// # fn main() -> Result<(), hardware_aead::Error> {
/// let mut base = rustls::crypto::ring::default_provider();
/// base.cipher_suites.retain(|s| s.version() == &rustls::version::TLS13);
/// let provider = hardware_aead::rustls::wrap(base)?;
/// assert_eq!(provider.cipher_suites.len(), 3); // AES-256, AES-128 (ours), ChaCha20 (ring's)
/// # Ok(()) }
/// ```
pub fn wrap(mut base: CryptoProvider) -> Result<CryptoProvider, Error> {
    crate::backend::Tier::best()?;
    for suite in &mut base.cipher_suites {
        if let Some(ours) = ALL_CIPHER_SUITES
            .iter()
            .find(|ours| ours.suite() == suite.suite())
        {
            *suite = *ours;
        }
    }
    Ok(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_nonces_xor_the_sequence_number_into_the_last_eight_bytes() {
        let iv: [u8; 12] = core::array::from_fn(|i| i as u8 * 17);
        assert_eq!(record_nonce(&iv, 0), iv);
        let n = record_nonce(&iv, 0x0102_0304_0506_0708);
        assert_eq!(n[..4], iv[..4]);
        for i in 4..12 {
            assert_eq!(n[i], iv[i] ^ (i as u8 - 3), "byte {i}");
        }
        // rustls's own construction agrees.
        let theirs = ::rustls::crypto::cipher::Nonce::new(&Iv::new(iv), 0x0102_0304_0506_0708);
        assert_eq!(n, theirs.0);
    }

    #[test]
    fn tls12_nonces_need_a_four_byte_salt_and_an_eight_byte_explicit_part() {
        assert_eq!(
            tls12_nonce(&[1; 4], &[2; 8]),
            Some([1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2])
        );
        assert_eq!(tls12_nonce(&[1; 3], &[2; 8]), None);
        assert_eq!(tls12_nonce(&[1; 4], &[2; 9]), None);
    }
}
