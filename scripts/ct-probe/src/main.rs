//! Calls every method of the `AeadKey` trait on every key type and every backend
//! this CPU has, and the random generator, with inputs the optimiser cannot
//! see, so that the release binary holds the code a user's program would hold
//! (with the `ece` feature, RFC 8188's record sealing too).
//! `scripts/ct-check.sh` disassembles it; running it only prints which
//! backends it exercised.

use std::hint::black_box;

use hardware_aead::aegis::{Aegis128L, Aegis128X2, Aegis128X4, Aegis256, Aegis256X2, Aegis256X4};
use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};
use hardware_aead::{AeadKey, Tier};

const BACKENDS: [Tier; 4] = [
    Tier::AesNiClmul,
    Tier::VaesAvx2,
    Tier::VaesAvx512,
    Tier::Armv8,
];

/// Every method once, through a generic function as a user's code would call it.
#[inline(never)]
fn exercise<K: AeadKey>(name: &str, key_bytes: &K::Key, nonce: &K::Nonce) {
    for backend in BACKENDS {
        let Ok(key) = K::with_tier(black_box(key_bytes), backend) else {
            continue;
        };
        let nonce = black_box(*nonce);
        let aad = black_box(vec![1u8; 33]);
        let message = black_box(vec![2u8; 600]);
        let sealed = key.seal(&nonce, &aad, &message).expect("seal");
        let opened = key.open(&nonce, &aad, &sealed).expect("open");
        assert_eq!(opened, message);

        let mut out = vec![0u8; message.len() + K::TAG_LEN];
        let n = key
            .seal_to(&nonce, &aad, &message, &mut out)
            .expect("seal_to");
        let mut back = vec![0u8; message.len()];
        key.open_to(&nonce, &aad, &out[..n], &mut back)
            .expect("open_to");

        let mut buffer = message.clone();
        let tag = key
            .seal_in_place_detached(&nonce, &aad, &mut buffer)
            .expect("seal in place");
        let mut forged = tag;
        let last = K::TAG_LEN - 1;
        forged.as_mut()[last] ^= black_box(1);
        assert!(
            key.open_in_place_detached(&nonce, &aad, &mut buffer, &forged)
                .is_err()
        );
        let sealed = key
            .seal_with_generated_nonce_appended(&aad, &message)
            .expect("seal, generated nonce");
        assert_eq!(
            key.open_with_nonce_appended(&aad, &sealed).expect("open"),
            message
        );
        println!("{name} on {backend:?}: ok");
    }
}

/// The random generator: its AES-CTR keystream runs on a secret key.
#[inline(never)]
fn exercise_random() {
    let mut generator = hardware_aead::random::Generator::new().expect("generator");
    let mut out = black_box(vec![0u8; 1000]);
    generator.fill(&mut out).expect("fill");
    hardware_aead::random::fill(&mut out[..77]).expect("thread-local fill");
    black_box(generator.key_32().expect("key"));
    println!("random: ok");
}

/// RFC 8188 records: a record's whole blocks sealed by the AES-GCM kernel,
/// its last bytes and the delimiter by the one-block extension.
#[cfg(feature = "ece")]
#[inline(never)]
fn exercise_ece() {
    use hardware_aead::ece;
    let message = black_box(vec![2u8; 1000]);
    let body = ece::encrypt(&[1; 16], &[2; 16], b"", 300, &message).expect("ece encrypt");
    assert_eq!(ece::decrypt(&[1; 16], &body).expect("ece decrypt"), message);
    println!("ece: ok");
}

fn main() {
    exercise::<Aes128Gcm>("Aes128Gcm", &[3u8; 16], &[7u8; 12]);
    exercise::<Aes256Gcm>("Aes256Gcm", &[4u8; 32], &[7u8; 12]);
    exercise::<Aes128GcmSiv>("Aes128GcmSiv", &[5u8; 16], &[7u8; 12]);
    exercise::<Aes256GcmSiv>("Aes256GcmSiv", &[6u8; 32], &[7u8; 12]);
    exercise::<Xaes256Gcm>("Xaes256Gcm", &[8u8; 32], &[7u8; 24]);
    exercise::<KcXaes256Gcm>("KcXaes256Gcm", &[9u8; 32], &[7u8; 24]);
    exercise::<Aegis128L<16>>("Aegis128L<16>", &[10u8; 16], &[7u8; 16]);
    exercise::<Aegis128L<32>>("Aegis128L<32>", &[10u8; 16], &[7u8; 16]);
    exercise::<Aegis128X2<16>>("Aegis128X2<16>", &[10u8; 16], &[7u8; 16]);
    exercise::<Aegis128X2<32>>("Aegis128X2<32>", &[10u8; 16], &[7u8; 16]);
    exercise::<Aegis128X4<16>>("Aegis128X4<16>", &[10u8; 16], &[7u8; 16]);
    exercise::<Aegis128X4<32>>("Aegis128X4<32>", &[10u8; 16], &[7u8; 16]);
    exercise::<Aegis256<16>>("Aegis256<16>", &[11u8; 32], &[7u8; 32]);
    exercise::<Aegis256<32>>("Aegis256<32>", &[11u8; 32], &[7u8; 32]);
    exercise::<Aegis256X2<16>>("Aegis256X2<16>", &[11u8; 32], &[7u8; 32]);
    exercise::<Aegis256X2<32>>("Aegis256X2<32>", &[11u8; 32], &[7u8; 32]);
    exercise::<Aegis256X4<16>>("Aegis256X4<16>", &[11u8; 32], &[7u8; 32]);
    exercise::<Aegis256X4<32>>("Aegis256X4<32>", &[11u8; 32], &[7u8; 32]);
    exercise_random();
    #[cfg(feature = "ece")]
    exercise_ece();
}
