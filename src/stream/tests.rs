//! Unit tests of `stream` (a child module: it reaches private items).

use super::*;
use crate::aes_gcm::Aes128Gcm;

#[test]
fn counter_refuses_to_wrap_but_allows_the_last_segment() {
    let key = Aes128Gcm::new(&[5; 16]).unwrap();
    let mut enc = Encryptor::new(&key, &[9; 7]).unwrap();
    enc.segments.set_position(u32::MAX - 1);
    let a = enc.seal_next(b"", b"a").unwrap();
    assert_eq!(enc.position(), u32::MAX);
    assert_eq!(enc.seal_next(b"", b"b"), Err(Error::NonceExhausted));
    let mut out = [0u8; 32];
    assert_eq!(
        enc.seal_next_to(b"", b"b", &mut out),
        Err(Error::NonceExhausted)
    );
    assert_eq!(out, [0; 32], "nothing written when the counter is used up");
    let last = enc.seal_last(b"", b"z").unwrap();

    let mut dec = Decryptor::new(&key, &[9; 7]).unwrap();
    dec.segments.set_position(u32::MAX - 1);
    assert_eq!(dec.open_next(b"", &a).unwrap(), b"a");
    assert_eq!(dec.open_next(b"", &last), Err(Error::NonceExhausted));
    assert_eq!(dec.open_last(b"", &last).unwrap(), b"z");
}

#[test]
fn nonce_layout_is_prefix_position_flag() {
    let key = Aes128Gcm::new(&[5; 16]).unwrap();
    let mut enc = Encryptor::new(&key, &[1, 2, 3, 4, 5, 6, 7]).unwrap();
    enc.segments.set_position(0x0a0b_0c0d);
    assert_eq!(
        enc.segments.nonce(true).unwrap(),
        [1, 2, 3, 4, 5, 6, 7, 0x0a, 0x0b, 0x0c, 0x0d, 1]
    );
    let sealed = enc.seal_next(b"x", b"y").unwrap();
    let nonce = [1, 2, 3, 4, 5, 6, 7, 0x0a, 0x0b, 0x0c, 0x0d, 0];
    assert_eq!(key.open(&nonce, b"x", &sealed).unwrap(), b"y");
}
