//! `random::process_restored` (a snapshot restore): every key draws a new
//! nonce salt before its next generated nonce. In a binary of its own, since
//! it starts a new process-wide generation under any test running beside it.
// Every test here needs a tier (x86_64 or aarch64); tests/tier.rs
// checks the refusal elsewhere.
#![cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]

use hardware_aead::aes_gcm::Aes256Gcm;
use hardware_aead::aes_gcm_siv::Aes128GcmSiv;
use hardware_aead::random;

#[test]
fn process_restored_resalts_every_key() {
    let gcm = Aes256Gcm::new(&[1; 32]).unwrap();
    let siv = Aes128GcmSiv::new(&[2; 16]).unwrap();
    let (gcm_before, _) = gcm.seal_with_generated_nonce(b"", b"x").unwrap();
    let (siv_before, _) = siv.seal_with_generated_nonce(b"", b"x").unwrap();
    // Without the call, the next nonces share the salt: the first four bytes
    // of a nonce are salt alone (the counter sits in the last eight).
    let (gcm_same, _) = gcm.seal_with_generated_nonce(b"", b"x").unwrap();
    assert_eq!(gcm_before[..4], gcm_same[..4]);

    random::process_restored();
    let (gcm_after, _) = gcm.seal_with_generated_nonce(b"", b"x").unwrap();
    let (siv_after, _) = siv.seal_with_generated_nonce(b"", b"x").unwrap();
    assert_ne!(gcm_before[..4], gcm_after[..4], "AES-GCM key kept its salt");
    assert_ne!(
        siv_before[..4],
        siv_after[..4],
        "AES-GCM-SIV key kept its salt"
    );
    // The new sequence works as before: distinct nonces under the new salt.
    let (next, _) = gcm.seal_with_generated_nonce(b"", b"x").unwrap();
    assert_eq!(next[..4], gcm_after[..4]);
    assert_ne!(next, gcm_after);
}
