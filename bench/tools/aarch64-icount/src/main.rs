//! One AES-GCM or AES-GCM-SIV call (`gcm128`, `gcm256`, `siv128` or
//! `siv256`, `seal` in place or `open` into a separate buffer, empty AAD)
//! of `LEN` bytes, `N` times:
//!
//! ```text
//! aarch64-icount ALG OP LEN N
//! ```
//!
//! `bench/tools/aarch64-icount.sh` runs it under qemu with a trace line per
//! executed instruction, for two values of `N`: the difference divided by
//! the difference in calls is the instructions of one call, everything
//! around the loop cancelling out.

use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, alg, op, len, n] = &args[..] else {
        panic!("usage: aarch64-icount gcm128|gcm256|siv128|siv256 seal|open LEN N")
    };
    let (len, n): (usize, usize) = (len.parse().expect("LEN"), n.parse().expect("N"));
    let nonce = [9u8; 12];
    macro_rules! run {
        ($ty:ty, $key:expr) => {{
            let key = <$ty>::new(&$key).expect("a supported CPU");
            let mut buf = vec![0x5a_u8; len];
            let sealed = key.seal(&nonce, b"", &buf).expect("seal");
            let mut out = vec![0u8; len];
            for _ in 0..n {
                match op.as_str() {
                    "seal" => {
                        black_box(key.seal_in_place_detached(&nonce, b"", &mut buf).expect("seal"));
                    }
                    "open" => {
                        black_box(key.open_to(&nonce, b"", &sealed, &mut out).expect("open"));
                    }
                    other => panic!("unknown operation {other}"),
                }
            }
        }};
    }
    match alg.as_str() {
        "gcm128" => run!(Aes128Gcm, [7u8; 16]),
        "gcm256" => run!(Aes256Gcm, [7u8; 32]),
        "siv128" => run!(Aes128GcmSiv, [7u8; 16]),
        "siv256" => run!(Aes256GcmSiv, [7u8; 32]),
        other => panic!("unknown algorithm {other}"),
    }
}
