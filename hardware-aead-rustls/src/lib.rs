//! [hardware-aead]'s AES-GCM as the record and packet protection of
//! [rustls] 0.23: TLS 1.3, TLS 1.2 and QUIC.
//!
//! rustls takes its cryptography from a [`CryptoProvider`]. [`provider`]
//! returns rustls's *ring* provider with its AES-GCM cipher suites replaced by
//! this crate's, which seal and open every TLS record and QUIC packet with
//! hardware-aead's [`Aes128Gcm`] and [`Aes256Gcm`]; [`wrap`] does the same to
//! a provider you built. Everything else — the other suites
//! (ChaCha20-Poly1305), key exchange, certificate signatures, the hash, HKDF
//! and TLS 1.2 PRF of these suites, randomness — stays the base provider's.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let provider = std::sync::Arc::new(hardware_aead_rustls::provider()?);
//! let config = rustls::ClientConfig::builder_with_provider(provider)
//!     .with_safe_default_protocol_versions()?
//!     .with_root_certificates(rustls::RootCertStore::empty())
//!     .with_no_client_auth();
//! # drop(config);
//! # Ok(()) }
//! ```
//!
//! **No suite without the CPU.** hardware-aead has no software fallback:
//! on a CPU without AES and carry-less multiply instructions its keys
//! cannot be built. rustls builds record keys in the middle of a handshake
//! and cannot take an error there (it unwraps a failed seal), so this crate
//! decides before any handshake: its suites are not public statics, and
//! the only ways to one — [`provider`], [`wrap`] and [`cipher_suites`] —
//! return [`Error::UnsupportedCpu`] on such a CPU. A configuration that
//! holds one of these suites was built on a CPU where every key, encrypter,
//! decrypter and packet key of it works.
//!
//! **Why ring as the base.** ring is what the suites borrow their hash, HKDF
//! and PRF from: it builds with no C toolchain beyond `cc` and no CMake, and
//! rustls exposes it as a provider module of its own. The AEAD, where a TLS
//! connection spends its time in bulk, is hardware-aead's.
//!
//! **What the suites are.** TLS 1.3: `TLS13_AES_128_GCM_SHA256` and
//! `TLS13_AES_256_GCM_SHA384`, RFC 8446 §5.2–5.3 (the per-record nonce is
//! the IV XOR the 64-bit sequence number, big-endian, left-padded; the
//! additional data is the record header; the content type rides inside the
//! ciphertext). TLS 1.2: the ECDHE-ECDSA and ECDHE-RSA AES-128/256-GCM
//! suites, RFC 5288 (a 4-byte implicit salt and an 8-byte explicit nonce sent
//! before each record's ciphertext; the additional data is the sequence
//! number, type, version and plaintext length, RFC 5246 §6.2.3.3). Each
//! keeps rustls's name ([`rustls::CipherSuite`]): pick one from
//! [`cipher_suites`] by it.
//!
//! **Records.** A record of 4 KiB or more whose plaintext is one
//! contiguous piece (rustls's usual case for a large write) is sealed
//! straight from the caller's bytes into the record buffer, the TLS 1.3
//! content type after it ([`Aes128Gcm::seal_with_trailing_byte_to`]); a
//! shorter record, or one in several pieces, is copied into the buffer and
//! sealed there, which costs less than a second tag computation when the
//! plaintext is short. A record that does not verify is
//! [`rustls::Error::DecryptError`] and leaves nothing of its plaintext in
//! the buffer (hardware-aead's open wipes it); one of more than 2^14 bytes
//! of plaintext is [`rustls::Error::PeerSentOversizedRecord`] (RFC 8446
//! §5.2, RFC 5246 §6.2), as with rustls's own providers.
//!
//! **Keys.** The record keys are hardware-aead's key types, which wipe their
//! state on drop; the IVs the encrypters and decrypters hold are wiped too.
//!
//! **QUIC.** The TLS 1.3 suites carry a `quic::Algorithm` (RFC 9001): packet
//! protection with hardware-aead's AES-GCM keys (the nonce is the IV XOR the
//! packet number, the header the additional data), with the multipath
//! nonces of draft-ietf-quic-multipath (the IV XOR the path id and packet
//! number) that QUIC stacks such as noq use for every packet; header
//! protection with [`hardware_aead::quic::HeaderProtectionKey`] (§5.4.3).
//! rustls's `quic` connections, and QUIC stacks built on them, take them
//! from the provider as they take ring's.
//!
//! [hardware-aead]: https://docs.rs/hardware-aead
//! [rustls]: https://docs.rs/rustls/0.23
//! [`CryptoProvider`]: ::rustls::crypto::CryptoProvider
//! [`Aes128Gcm`]: hardware_aead::aes_gcm::Aes128Gcm
//! [`Aes256Gcm`]: hardware_aead::aes_gcm::Aes256Gcm
//! [`Aes128Gcm::seal_with_trailing_byte_to`]: hardware_aead::aes_gcm::Aes128Gcm::seal_with_trailing_byte_to

use std::marker::PhantomData;

use ::rustls::crypto::CryptoProvider;
use ::rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, KeyBlockShape, MessageDecrypter,
    MessageEncrypter, OutboundChunks, OutboundOpaqueMessage, OutboundPlainMessage, PrefixedPayload,
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

use hardware_aead::Tag;
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::quic::HeaderProtectionKey;

pub use hardware_aead::Error;

/// A 96-bit GCM nonce.
type Nonce = [u8; 12];

/// Bytes of a GCM tag.
const TAG_LEN: usize = 16;

/// Bytes of TLS 1.2 GCM's explicit nonce, sent before each record's
/// ciphertext (RFC 5288 §3).
const EXPLICIT_LEN: usize = 8;

/// Bytes of TLS 1.2 GCM's implicit salt, from the key block.
const SALT_LEN: usize = 4;

/// The most plaintext a TLS record may carry: 2^14 bytes (RFC 8446 §5.1,
/// RFC 5246 §6.2.1).
const MAX_FRAGMENT_LEN: usize = 1 << 14;

/// The record protection keys: hardware-aead's AES-GCM key types, with what
/// the suites need to know of each.
trait RecordKey:
    hardware_aead::AeadKey<Nonce = Nonce, Tag = Tag> + Send + Sync + Sized + 'static
{
    /// The key and IV as rustls's kernel-TLS export names them.
    fn secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets;

    /// The key type's `seal_with_trailing_byte_to`: `plaintext ‖ byte`
    /// sealed into `out` without a copy of `plaintext`.
    fn seal_with_trailing_byte_to(
        &self,
        nonce: &Nonce,
        aad: &[u8],
        plaintext: &[u8],
        byte: u8,
        out: &mut [u8],
    ) -> Result<usize, Error>;
}

impl RecordKey for Aes128Gcm {
    fn secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
        ConnectionTrafficSecrets::Aes128Gcm { key, iv }
    }

    fn seal_with_trailing_byte_to(
        &self,
        nonce: &Nonce,
        aad: &[u8],
        plaintext: &[u8],
        byte: u8,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        Aes128Gcm::seal_with_trailing_byte_to(self, nonce, aad, plaintext, byte, out)
    }
}

impl RecordKey for Aes256Gcm {
    fn secrets(key: AeadKey, iv: Iv) -> ConnectionTrafficSecrets {
        ConnectionTrafficSecrets::Aes256Gcm { key, iv }
    }

    fn seal_with_trailing_byte_to(
        &self,
        nonce: &Nonce,
        aad: &[u8],
        plaintext: &[u8],
        byte: u8,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        Aes256Gcm::seal_with_trailing_byte_to(self, nonce, aad, plaintext, byte, out)
    }
}

/// The key for `key` (rustls's bytes of exactly `K::KEY_LEN`). `None` only
/// where hardware-aead cannot make one: a CPU without a tier, which no
/// suite of this crate reaches (the only ways to a suite check the CPU
/// first), or a key of another length, which rustls never passes. The
/// encrypters and decrypters then fail every record with an error; they
/// cannot fail earlier, since rustls's calls that make them are
/// infallible.
fn record_key<K: RecordKey>(key: &AeadKey) -> Option<K> {
    K::new_from_slice(key.as_ref()).ok()
}

/// From this many bytes of plaintext in one piece, a record is sealed
/// straight from the caller's bytes into the record buffer (zeroed first);
/// below it the plaintext is copied into the buffer and sealed there. The
/// copy costs a pass over the plaintext; the straight seal costs zeroing
/// the buffer and, for TLS 1.3, a second tag computation for the content
/// type's block. The copy wins on short records, the straight seal on long
/// ones, and they cross near here (docs/benchmarks.md, "rustls: TLS 1.3
/// record protection", "Sealing from one piece").
const ONE_PASS_FROM: usize = 4096;

/// `record` grown by `len` zero bytes, for a seal to write into: rustls's
/// record buffer offers no uninitialised room, and zeros cost one write
/// where a staging copy costs a read and a write.
fn grow(record: &mut PrefixedPayload, len: usize) {
    record.extend(std::iter::repeat_n(&0u8, len));
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

/// The nonce of packet `packet_number` on path `path_id`: `iv` XOR the
/// 96-bit big-endian `path_id ‖ packet_number` (draft-ietf-quic-multipath,
/// "Nonce Calculation"; path 0 is RFC 9001 §5.3's nonce).
fn path_nonce(iv: &[u8; 12], path_id: u32, packet_number: u64) -> Nonce {
    let mut nonce = record_nonce(iv, packet_number);
    for (n, p) in nonce[..4].iter_mut().zip(path_id.to_be_bytes()) {
        *n ^= p;
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
        <K as hardware_aead::AeadKey>::KEY_LEN
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
        let nonce = self.0.nonce(seq);
        let aad = make_tls13_aad(total);
        // TLSInnerPlaintext: the content, then its real type (RFC 8446 §5.2).
        let typ = msg.typ.to_array()[0];
        let mut payload = PrefixedPayload::with_capacity(total);
        match msg.payload {
            OutboundChunks::Single(content) if content.len() >= ONE_PASS_FROM => {
                grow(&mut payload, total);
                key.seal_with_trailing_byte_to(&nonce, &aad, content, typ, payload.as_mut())
                    .map_err(|_| ::rustls::Error::EncryptError)?;
            }
            _ => {
                payload.extend_from_chunks(&msg.payload);
                payload.extend_from_slice(&[typ]);
                let tag = key
                    .seal_in_place_detached(&nonce, &aad, payload.as_mut())
                    .map_err(|_| ::rustls::Error::EncryptError)?;
                payload.extend_from_slice(&tag);
            }
        }
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
            enc_key_len: <K as hardware_aead::AeadKey>::KEY_LEN,
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
        let aad = make_tls12_aad(seq, msg.typ, msg.version, text_len);
        match msg.payload {
            OutboundChunks::Single(text) if text.len() >= ONE_PASS_FROM => {
                grow(&mut payload, text_len + TAG_LEN);
                key.seal_to(&nonce, &aad, text, &mut payload.as_mut()[EXPLICIT_LEN..])
                    .map_err(|_| ::rustls::Error::EncryptError)?;
            }
            _ => {
                payload.extend_from_chunks(&msg.payload);
                let tag = key
                    .seal_in_place_detached(&nonce, &aad, &mut payload.as_mut()[EXPLICIT_LEN..])
                    .map_err(|_| ::rustls::Error::EncryptError)?;
                payload.extend_from_slice(&tag);
            }
        }
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
        // RFC 5246 §6.2.1: at most 2^14 bytes of plaintext. GCM's plaintext
        // is as long as its ciphertext, so this is known before opening.
        if text_len > MAX_FRAGMENT_LEN {
            return Err(::rustls::Error::PeerSentOversizedRecord);
        }
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

/// QUIC packet protection (RFC 9001 §5.3, hardware-aead's AES-GCM with key
/// type `K`) and header protection (§5.4.3, with an AES key of the same
/// length) for a TLS 1.3 suite.
struct QuicGcm<K>(PhantomData<fn() -> K>);

impl<K: RecordKey> quic::Algorithm for QuicGcm<K> {
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn quic::PacketKey> {
        Box::new(QuicPacketKey(KeyAndIv::<K>::new(&key, Some(iv_bytes(&iv)))))
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn quic::HeaderProtectionKey> {
        // `None` only where `record_key` would give none.
        Box::new(QuicHeaderKey(HeaderProtectionKey::new(key.as_ref()).ok()))
    }

    fn aead_key_len(&self) -> usize {
        <K as hardware_aead::AeadKey>::KEY_LEN
    }
}

/// Seals and opens QUIC packet payloads: the nonce is the IV XOR the packet
/// number (as for TLS records), or for a multipath packet the IV XOR the
/// path id and packet number; the additional data is the packet's header.
struct QuicPacketKey<K>(KeyAndIv<K>);

impl<K: RecordKey> QuicPacketKey<K> {
    /// Seals `payload` in place under `nonce` and returns the tag.
    fn seal(
        &self,
        nonce: &Nonce,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, ::rustls::Error> {
        let key = self.0.key(::rustls::Error::EncryptError)?;
        let tag = key
            .seal_in_place_detached(nonce, header, payload)
            .map_err(|_| ::rustls::Error::EncryptError)?;
        Ok(quic::Tag::from(&tag[..]))
    }

    /// Opens `payload` (ciphertext then tag) in place under `nonce` and
    /// returns the plaintext; on failure the plaintext bytes are zero.
    fn open<'a>(
        &self,
        nonce: &Nonce,
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
        key.open_in_place_detached(nonce, header, text, &tag)
            .map_err(|_| ::rustls::Error::DecryptError)?;
        Ok(&payload[..text_len])
    }
}

impl<K: RecordKey> quic::PacketKey for QuicPacketKey<K> {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, ::rustls::Error> {
        self.seal(&self.0.nonce(packet_number), header, payload)
    }

    fn encrypt_in_place_for_path(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, ::rustls::Error> {
        self.seal(
            &path_nonce(&self.0.iv, path_id, packet_number),
            header,
            payload,
        )
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], ::rustls::Error> {
        self.open(&self.0.nonce(packet_number), header, payload)
    }

    fn decrypt_in_place_for_path<'a>(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], ::rustls::Error> {
        self.open(
            &path_nonce(&self.0.iv, path_id, packet_number),
            header,
            payload,
        )
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

/// QUIC header protection with AES (RFC 9001 §5.4.3): hardware-aead's
/// [`HeaderProtectionKey`], which wipes its round keys on drop. `None`
/// only where no key could be made (see [`record_key`]): every use is then
/// an error.
struct QuicHeaderKey(Option<HeaderProtectionKey>);

impl QuicHeaderKey {
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
        let key = self.0.as_ref().ok_or(::rustls::Error::EncryptError)?;
        let sample = <&[u8; 16]>::try_from(sample).map_err(|_| {
            ::rustls::Error::General(
                "QUIC header protection: a sample of other than 16 bytes".into(),
            )
        })?;
        if packet_number.len() > 4 {
            return Err(::rustls::Error::General(
                "QUIC header protection: a packet number of more than 4 bytes".into(),
            ));
        }
        let mut mask = key.new_mask(sample);
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

impl quic::HeaderProtectionKey for QuicHeaderKey {
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
static TLS13_AES_128_GCM_SHA256: SupportedCipherSuite = SupportedCipherSuite::Tls13(&tls13_suite(
    ring_suites::TLS13_AES_128_GCM_SHA256,
    &Tls13Gcm::<Aes128Gcm>(PhantomData),
    &QuicGcm::<Aes128Gcm>(PhantomData),
));

/// TLS 1.3 `TLS_AES_256_GCM_SHA384`, records sealed with [`Aes256Gcm`].
static TLS13_AES_256_GCM_SHA384: SupportedCipherSuite = SupportedCipherSuite::Tls13(&tls13_suite(
    ring_suites::TLS13_AES_256_GCM_SHA384,
    &Tls13Gcm::<Aes256Gcm>(PhantomData),
    &QuicGcm::<Aes256Gcm>(PhantomData),
));

/// TLS 1.2 `TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256`, records sealed with
/// [`Aes128Gcm`].
static TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls12(&tls12_suite(
        ring_suites::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        &Tls12Gcm::<Aes128Gcm>(PhantomData),
    ));

/// TLS 1.2 `TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384`, records sealed with
/// [`Aes256Gcm`].
static TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: SupportedCipherSuite =
    SupportedCipherSuite::Tls12(&tls12_suite(
        ring_suites::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        &Tls12Gcm::<Aes256Gcm>(PhantomData),
    ));

/// TLS 1.2 `TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256`, records sealed with
/// [`Aes128Gcm`].
static TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: SupportedCipherSuite =
    SupportedCipherSuite::Tls12(&tls12_suite(
        ring_suites::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        &Tls12Gcm::<Aes128Gcm>(PhantomData),
    ));

/// TLS 1.2 `TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384`, records sealed with
/// [`Aes256Gcm`].
static TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: SupportedCipherSuite =
    SupportedCipherSuite::Tls12(&tls12_suite(
        ring_suites::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        &Tls12Gcm::<Aes256Gcm>(PhantomData),
    ));

/// Every suite of this crate, TLS 1.3 first, AES-256 before AES-128 in
/// each version (the order of rustls's own providers). Private: reached
/// only through [`cipher_suites`], which checks the CPU.
static ALL_CIPHER_SUITES: &[SupportedCipherSuite] = &[
    TLS13_AES_256_GCM_SHA384,
    TLS13_AES_128_GCM_SHA256,
    TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
    TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
];

/// This crate's suites, TLS 1.3 first, AES-256 before AES-128 in each
/// version (the order of rustls's own providers): for a provider of your
/// own. Each keeps rustls's name; pick one by its
/// [`CipherSuite`](::rustls::CipherSuite).
///
/// # Errors
///
/// [`Error::UnsupportedCpu`] where hardware-aead has no tier for the CPU:
/// then no suite of this crate exists in the process, so no handshake can
/// reach a key that cannot be built.
///
/// ```
/// use rustls::CipherSuite;
/// # fn main() -> Result<(), hardware_aead_rustls::Error> {
/// let suites = hardware_aead_rustls::cipher_suites()?;
/// assert_eq!(suites.len(), 6);
/// let tls13_aes128 = suites
///     .iter()
///     .find(|s| s.suite() == CipherSuite::TLS13_AES_128_GCM_SHA256)
///     .copied();
/// assert!(tls13_aes128.is_some());
/// # Ok(()) }
/// ```
pub fn cipher_suites() -> Result<&'static [SupportedCipherSuite], Error> {
    // The suites' keys are hardware-aead key types, which need the same
    // tier: a key that builds here means every key of every suite builds.
    Aes128Gcm::new(&[0; 16])?;
    Ok(ALL_CIPHER_SUITES)
}

/// rustls's *ring* provider with its AES-GCM suites replaced by this
/// crate's ([`wrap`] of `rustls::crypto::ring::default_provider()`).
///
/// # Errors
///
/// [`Error::UnsupportedCpu`] where hardware-aead has no tier for the CPU.
///
/// ```
/// use rustls::CipherSuite;
/// # fn main() -> Result<(), hardware_aead_rustls::Error> {
/// let provider = hardware_aead_rustls::provider()?;
/// assert!(provider.cipher_suites.iter().any(|s| s.suite() == CipherSuite::TLS13_AES_128_GCM_SHA256));
/// # Ok(()) }
/// ```
pub fn provider() -> Result<CryptoProvider, Error> {
    wrap(::rustls::crypto::ring::default_provider())
}

/// `base` with each AES-GCM suite (any provider's, matched by its
/// [`CipherSuite`](::rustls::CipherSuite) identifier) replaced by this
/// crate's, in the same place of the list; its other suites, key exchange
/// groups, signature algorithms, key provider and randomness unchanged. The
/// suites this crate adds take their hash, HKDF and PRF from ring, whatever
/// `base` is.
///
/// # Errors
///
/// [`Error::UnsupportedCpu`] where hardware-aead has no tier for the CPU.
///
/// ```
/// # fn main() -> Result<(), hardware_aead_rustls::Error> {
/// let mut base = rustls::crypto::ring::default_provider();
/// base.cipher_suites.retain(|s| s.version() == &rustls::version::TLS13);
/// let provider = hardware_aead_rustls::wrap(base)?;
/// assert_eq!(provider.cipher_suites.len(), 3); // AES-256, AES-128 (ours), ChaCha20 (ring's)
/// # Ok(()) }
/// ```
pub fn wrap(mut base: CryptoProvider) -> Result<CryptoProvider, Error> {
    let ours = cipher_suites()?;
    for suite in &mut base.cipher_suites {
        if let Some(mine) = ours.iter().find(|mine| mine.suite() == suite.suite()) {
            *suite = *mine;
        }
    }
    Ok(base)
}

/// The README's example, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

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
    fn path_nonces_are_rustls_s_and_path_zero_is_rfc_9001_s() {
        let iv: [u8; 12] = core::array::from_fn(|i| 0xf0 ^ i as u8);
        for (path, pn) in [
            (0, 0),
            (0, 77),
            (1, 0),
            (3, 0x00ab_cdef),
            (u32::MAX, u64::MAX),
        ] {
            let theirs = ::rustls::crypto::cipher::Nonce::for_path(path, &Iv::new(iv), pn);
            assert_eq!(
                path_nonce(&iv, path, pn),
                theirs.0,
                "path {path}, packet {pn}"
            );
        }
        assert_eq!(path_nonce(&iv, 0, 12345), record_nonce(&iv, 12345));
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

    /// draft-ietf-quic-multipath's nonces on a packet key: picoquic's
    /// `multipath_aead_test` packet (the vector rustls's ring provider
    /// tests), path 2, AES-128-GCM, keys expanded from its secret with
    /// rustls's own HKDF-Expand-Label; then every path id of that test
    /// round-trips, and a packet does not open under another path's nonce.
    #[test]
    fn multipath_packet_of_picoquic_s_multipath_aead_test() {
        use ::rustls::crypto::tls13::{OkmBlock, expand};
        use ::rustls::quic::PacketKey;
        const SECRET: [u8; 32] = [
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 35, 26, 27, 28, 29, 30, 31,
        ];
        const PAYLOAD: &[u8] = b"The quick brown fox jumps over the lazy dog";
        const HEADER: &[u8] = b"This is a test";
        const EXPECTED: [u8; 59] = [
            123, 139, 232, 52, 136, 25, 201, 143, 250, 89, 87, 39, 37, 63, 0, 210, 220, 227, 186,
            140, 183, 251, 13, 203, 6, 116, 204, 100, 166, 64, 43, 185, 174, 85, 212, 163, 242,
            141, 24, 166, 62, 228, 187, 137, 248, 31, 152, 126, 240, 151, 79, 51, 253, 130, 43,
            114, 173, 234, 254,
        ];
        let ring = ring13(ring_suites::TLS13_AES_128_GCM_SHA256);
        let expander = ring.hkdf_provider.expander_for_okm(&OkmBlock::new(&SECRET));
        // RFC 8446 §7.1's HkdfLabel: length, "tls13 " label, empty context.
        let label = |name: &[u8], len: u16| -> [Vec<u8>; 1] {
            let full = [&b"tls13 "[..], name].concat();
            [[&len.to_be_bytes()[..], &[full.len() as u8], &full, &[0]].concat()]
        };
        let key_info = label(b"quic key", 16);
        let iv_info = label(b"quic iv", 12);
        let key: [u8; 16] = expand(expander.as_ref(), &[&key_info[0]]);
        let iv: [u8; 12] = expand(expander.as_ref(), &[&iv_info[0]]);
        let packet_key = QuicPacketKey(KeyAndIv::<Aes128Gcm> {
            key: Aes128Gcm::new_from_slice(&key).ok(),
            iv,
        });
        let mut buf = PAYLOAD.to_vec();
        let tag = packet_key
            .encrypt_in_place_for_path(2, 12345, HEADER, &mut buf)
            .unwrap();
        buf.extend_from_slice(tag.as_ref());
        assert_eq!(buf[..], EXPECTED[..]);
        for path in [0, 1, 2, 0xaead] {
            let mut buf = PAYLOAD.to_vec();
            let tag = packet_key
                .encrypt_in_place_for_path(path, 12345, HEADER, &mut buf)
                .unwrap();
            buf.extend_from_slice(tag.as_ref());
            let mut other = buf.clone();
            assert_eq!(
                packet_key
                    .decrypt_in_place_for_path(path, 12345, HEADER, &mut buf)
                    .unwrap(),
                PAYLOAD,
                "path {path}"
            );
            assert!(
                packet_key
                    .decrypt_in_place_for_path(path ^ 1, 12345, HEADER, &mut other)
                    .is_err(),
                "path {path} opened as path {}",
                path ^ 1
            );
        }
    }
}
