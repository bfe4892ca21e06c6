//! Seals or opens one message size over and over on a chosen tier: a
//! steady loop to run under `perf stat` (cycles per byte, FP-pipe use).
//!
//! ```text
//! cargo run --release -p hardware-aead-bench --example throughput -- <tier> <algorithm> <seal|open> <size> [total bytes]
//! perf stat -e cycles target/release/examples/throughput avx512 aes256gcm seal 16384
//! ```
//!
//! Backends: `aesni`, `avx2`, `avx512`, `armv8`. Algorithms: `aes128gcm`,
//! `aes256gcm`, `aes128gcmsiv`, `aes256gcmsiv`, `xaes256gcm`, `kcxaes256gcm`. The total defaults to 2·10^9
//! bytes; the program prints the number of calls it made, so cycles per
//! call is the `perf` count divided by it (`bench/tools/fp-pipes.sh --loop`
//! does that division).

use std::hint::black_box;
use std::process::ExitCode;

use hardware_aead::aes_gcm::{Aes128Gcm, Aes256Gcm};
use hardware_aead::aes_gcm_siv::{Aes128GcmSiv, Aes256GcmSiv};
use hardware_aead::xaes_gcm::{KcXaes256Gcm, Xaes256Gcm};
use hardware_aead::{AeadKey, Error, Tier};

/// Seals (or opens) `size` bytes `calls` times with `key` and `nonce`.
fn run<K: AeadKey>(
    key: Result<K, Error>,
    nonce: K::Nonce,
    seal: bool,
    size: usize,
    calls: u64,
) -> Result<(), Error> {
    let key = key?;
    let mut buf = vec![0x5a_u8; size];
    let sealed = key.seal(&nonce, b"", &buf)?;
    let mut out = vec![0u8; size];
    for _ in 0..calls {
        if seal {
            black_box(key.seal_in_place_detached(&nonce, b"", black_box(&mut buf))?);
        } else {
            black_box(key.open_to(&nonce, b"", black_box(&sealed), &mut out)?);
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: throughput <aesni|avx2|avx512|armv8> <aes128gcm|aes256gcm|aes128gcmsiv|aes256gcmsiv|xaes256gcm|kcxaes256gcm> <seal|open> <size> [total bytes]";
    let [tier, algorithm, op, size, rest @ ..] = args.as_slice() else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let tier = match tier.as_str() {
        "aesni" => Tier::AesNiClmul,
        "avx2" => Tier::VaesAvx2,
        "avx512" => Tier::VaesAvx512,
        "armv8" => Tier::Armv8,
        _ => {
            eprintln!("{usage}");
            return ExitCode::FAILURE;
        }
    };
    let seal = match op.as_str() {
        "seal" => true,
        "open" => false,
        _ => {
            eprintln!("{usage}");
            return ExitCode::FAILURE;
        }
    };
    let (Ok(size), Ok(total)) = (
        size.parse::<usize>(),
        rest.first().map_or(Ok(2_000_000_000), |t| t.parse::<u64>()),
    ) else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let calls = (total / size.max(1) as u64).max(1);
    let result = match algorithm.as_str() {
        "aes128gcm" => run(
            Aes128Gcm::with_tier(&[1; 16], tier),
            [7; 12],
            seal,
            size,
            calls,
        ),
        "aes256gcm" => run(
            Aes256Gcm::with_tier(&[1; 32], tier),
            [7; 12],
            seal,
            size,
            calls,
        ),
        "aes128gcmsiv" => run(
            Aes128GcmSiv::with_tier(&[1; 16], tier),
            [7; 12],
            seal,
            size,
            calls,
        ),
        "aes256gcmsiv" => run(
            Aes256GcmSiv::with_tier(&[1; 32], tier),
            [7; 12],
            seal,
            size,
            calls,
        ),
        "xaes256gcm" => run(
            Xaes256Gcm::with_tier(&[1; 32], tier),
            [7; 24],
            seal,
            size,
            calls,
        ),
        "kcxaes256gcm" => run(
            KcXaes256Gcm::with_tier(&[1; 32], tier),
            [7; 24],
            seal,
            size,
            calls,
        ),
        _ => {
            eprintln!("{usage}");
            return ExitCode::FAILURE;
        }
    };
    match result {
        Ok(()) => {
            println!("{calls} calls of {size} bytes");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("throughput: {e}");
            ExitCode::FAILURE
        }
    }
}
