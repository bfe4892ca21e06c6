//! Quick start: seal and open a message with AES-128-GCM, AES-256-GCM,
//! AES-256-GCM-SIV and XAES-256-GCM, and see a tampered message rejected.
//!
//! ```text
//! cargo run --example quickstart
//! ```

use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::Aes256GcmSiv;
use hardware_aead::xaes_gcm::Xaes256Gcm;
use hardware_aead::{AeadKey, Error};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Demo keys. Real keys come from a key exchange, a KDF or a CSPRNG, never
    // from the source code.
    let aes128 = Aes128Gcm::new(&[0x0b; 16])?;
    let aes256 = Aes256Gcm::new(&[0x0c; 32])?;
    println!("tier in use: {}\n", aes256.tier());

    // A nonce must never repeat under one key; a counter or 12 random bytes
    // per message are the usual choices.
    let nonce: [u8; 12] = *b"unique nonce";
    round_trip("AES-128-GCM", &aes128, &nonce)?;
    round_trip("AES-256-GCM", &aes256, &nonce)?;
    tamper("AES-256-GCM", &aes256)?;

    // AES-GCM-SIV (RFC 8452): a repeated nonce leaks only whether the same
    // message was sent again; it does not break confidentiality as in GCM.
    let siv = Aes256GcmSiv::new(&[0x0d; 32])?;
    round_trip("AES-256-GCM-SIV", &siv, &nonce)?;
    let nonce = *b"reused nonce";
    let first = siv.seal(&nonce, b"", b"same message")?;
    let again = siv.seal(&nonce, b"", b"same message")?;
    println!(
        "AES-256-GCM-SIV, same nonce and message twice: identical output = {}",
        first == again
    );
    tamper("AES-256-GCM-SIV", &siv)?;

    // XAES-256-GCM: 24-byte nonces, safe to draw at random for ~2^80
    // messages under one key. The generated-nonce methods do it for you and
    // append the nonce to the output.
    let xaes = Xaes256Gcm::new(&[0x0e; 32])?;
    round_trip("XAES-256-GCM", &xaes, b"a 24-byte explicit nonce")?;
    let sealed = xaes.seal_with_generated_nonce_appended(b"", b"random nonce, appended")?;
    println!(
        "XAES-256-GCM, generated nonce: {} bytes = 22 of message + 16 of tag + 24 of nonce; opens: {}",
        sealed.len(),
        xaes.open_with_nonce_appended(b"", &sealed)? == b"random nonce, appended"
    );
    Ok(())
}

/// Encrypts a message, prints the result and decrypts it again.
fn round_trip<K: AeadKey>(
    name: &str,
    key: &K,
    nonce: &K::Nonce,
) -> Result<(), Box<dyn std::error::Error>> {
    let aad = b"message id 1"; // authenticated, not encrypted
    let message = b"hello from the AES instructions";

    let sealed = key.seal(nonce, aad, message)?;
    let opened = key.open(nonce, aad, &sealed)?;

    println!("{name}");
    println!("  plaintext:  {:?}", String::from_utf8_lossy(message));
    println!("  ciphertext: {}", hex(&sealed[..message.len()]));
    println!("  tag:        {}", hex(&sealed[message.len()..]));
    println!("  decrypted:  {:?}", String::from_utf8_lossy(&opened));
    if opened != message {
        return Err("the decrypted message differs from the original".into());
    }
    println!();
    Ok(())
}

/// Flips one ciphertext bit and shows that decryption refuses it.
fn tamper(
    name: &str,
    key: &impl AeadKey<Nonce = [u8; 12]>,
) -> Result<(), Box<dyn std::error::Error>> {
    let nonce: [u8; 12] = *b"other nonce!";
    let mut sealed = key.seal(&nonce, b"", b"pay 100 EUR to Alice")?;
    sealed[4] ^= 0x01;

    println!("{name}, one ciphertext bit flipped");
    match key.open(&nonce, b"", &sealed) {
        Err(e @ Error::Authentication) => {
            println!("  open: Err({e:?}): {e}; no plaintext released");
            Ok(())
        }
        Err(e) => Err(format!("expected Error::Authentication, got {e:?}").into()),
        Ok(forged) => Err(format!("a forged message was accepted: {forged:?}").into()),
    }
}

/// Lowercase hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
