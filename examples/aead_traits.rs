//! This crate's keys through RustCrypto's `aead` 0.6 traits.
//!
//! ```sh
//! cargo run -p hardware-aead-examples --features aead --example aead_traits
//! ```
//!
//! One function written against `KeyInit + AeadInOut` seals and opens with
//! this crate's AES-256-GCM and XAES-256-GCM; a key built with the crate's
//! own (fallible) constructor goes to the same generic code; a forged message
//! is refused and its buffer left zeroed.

use hardware_aead::aead_traits::aead::{self, Aead, AeadInOut, KeyInit, Nonce};
use hardware_aead::aes_gcm::Aes256Gcm;
use hardware_aead::xaes_gcm::Xaes256Gcm;

/// Generic over any `aead` 0.6 cipher (this crate's or RustCrypto's): seals
/// `message` under a nonce of all `nonce_byte`, opens it again and returns
/// the sealed bytes.
fn round_trip<A: AeadInOut>(
    cipher: &A,
    nonce_byte: u8,
    message: &[u8],
) -> Result<Vec<u8>, aead::Error> {
    let mut nonce = Nonce::<A>::default();
    nonce.fill(nonce_byte); // in real use: unique per message under one key
    let sealed = cipher.encrypt(&nonce, message)?;
    assert_eq!(cipher.decrypt(&nonce, sealed.as_slice())?, message);
    Ok(sealed)
}

/// Builds the cipher through `KeyInit`, as generic protocol code does.
fn from_key<A: KeyInit>(key: &[u8]) -> Result<A, aead::Error> {
    // `new_from_slice` also fails, rather than panics, on a CPU without AES.
    A::new_from_slice(key).map_err(|_| aead::Error)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let key = [0x42u8; 32];

    let gcm: Aes256Gcm = from_key(&key)?;
    let sealed = round_trip(&gcm, 1, b"through the aead traits")?;
    println!(
        "AES-256-GCM via aead::AeadInOut: {} bytes sealed",
        sealed.len()
    );

    let xaes: Xaes256Gcm = from_key(&key)?;
    let sealed = round_trip(&xaes, 2, b"24-byte nonces")?;
    println!(
        "XAES-256-GCM via aead::AeadInOut: {} bytes sealed",
        sealed.len()
    );

    // The crate's own constructor (an inherent method: it wins over
    // `KeyInit::new`) says why it failed (here it does not), and its keys
    // work with every `aead` trait.
    let key = Aes256Gcm::new(&key)?;
    println!("tier: {}", key.tier());
    round_trip(&key, 3, b"built by Aes256Gcm::new")?;

    // A forgery: refused, and the in-place buffer holds no plaintext.
    let nonce = Nonce::<Aes256Gcm>::default();
    let mut buffer = *b"in place";
    let mut tag = key.encrypt_inout_detached(&nonce, b"", buffer.as_mut_slice().into())?;
    tag[0] ^= 1;
    let refused = key.decrypt_inout_detached(&nonce, b"", buffer.as_mut_slice().into(), &tag);
    assert!(refused.is_err());
    assert_eq!(buffer, [0; 8]);
    println!("forged tag: refused ({}), buffer zeroed", aead::Error);
    Ok(())
}
