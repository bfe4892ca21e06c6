//! The working tree's build of hardware-aead (`head`) against a base
//! revision's (`base`), timed in one process: for each case, rounds of one
//! batch of calls of each build (about 2 ms a batch; the order alternates,
//! base first in odd rounds, head first in even ones), and the median over
//! the rounds of head's time per call over base's in the same round. Drift
//! of the host between rounds (clock, neighbours) divides out of each
//! round's ratio, which the same comparison across two processes cannot do.
//!
//! ```text
//! ab-probe ROUNDS [CASE...]
//! ```
//!
//! A case is `ALG:OP:BYTES` (ALG `gcm128`, `gcm256`, `siv128`, `siv256`, or
//! an AEGIS variant with 16-byte tags: `aegis128l`, `aegis128x2`,
//! `aegis128x4`, `aegis256`, `aegis256x2`, `aegis256x4`; OP
//! `seal` (`seal_in_place_detached`), `sealtls` (the same with a TLS 1.3
//! record header's 5 bytes of AAD), `sealaad<N>` (with N bytes of AAD),
//! `sealrec` (a TLS 1.3 record, AES-GCM
//! only: `seal_with_trailing_byte_to` of BYTES − 1 bytes and a content type,
//! 5 bytes of AAD), `open` (`open_to`) or `setup` (`new` +
//! drop; BYTES ignored)). Without cases: AES-GCM seal and open at 16 B to 1
//! MiB, AES-GCM-SIV at 16 B, 1 KiB and 16 KiB, and key setup, each key size.
//! Every call is the default tier (`new`), or the tier `AB_TIER` names
//! (`aesni`, `avx2`, `avx512`), empty AAD but for `sealtls`, `sealaad<N>` and `sealrec`. Seal works in place
//! and open writes its output in a buffer that moves through the four
//! 16-byte placements in a cache line, the next at every call ([`Moving`]);
//! open reads its input from a 64-byte boundary: both builds see the same
//! placements.

use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "../../../src/moving_buffer.rs"]
mod moving_buffer;
use moving_buffer::Moving;

/// One build's call of a case.
type Call = Box<dyn FnMut()>;

/// The call of case `op` at `bytes` for key type `$ty` (a path in one of the
/// two builds), its key `$key` bytes long (and its nonce 12 bytes, or
/// `$nonce` for AEGIS).
macro_rules! call {
    ($ty:ty, $key:expr, $op:expr, $bytes:expr) => {
        call!($ty, $key, 12, $op, $bytes)
    };
    ($ty:ty, $key:expr, $nonce:expr, $op:expr, $bytes:expr) => {{
        const NONCE: [u8; $nonce] = [9; $nonce];
        let bytes: usize = $bytes;
        let tier = tier();
        let key = match tier {
            // The same tier in both builds: `$ty`'s crate root holds its `Tier`.
            Some(t) => <$ty>::with_tier(&[7u8; $key], t.into()).expect("the tier AB_TIER names"),
            None => <$ty>::new(&[7u8; $key]).expect("a supported CPU"),
        };
        let call: Call = match $op {
            "seal" => {
                let mut buf = Moving::new(bytes);
                Box::new(move || {
                    black_box(key.seal_in_place_detached(&NONCE, b"", buf.next_placement()).unwrap());
                })
            }
            "sealtls" => {
                // A TLS 1.3 record's additional data: its 5-byte header.
                let header = [23u8, 3, 3, 0, 0];
                let mut buf = Moving::new(bytes);
                Box::new(move || {
                    black_box(key.seal_in_place_detached(&NONCE, &header, buf.next_placement()).unwrap());
                })
            }
            op if op.starts_with("sealaad") => {
                let aad = vec![0xa5_u8; op["sealaad".len()..].parse().expect("sealaad<N>")];
                let mut buf = Moving::new(bytes);
                Box::new(move || {
                    black_box(key.seal_in_place_detached(&NONCE, &aad, buf.next_placement()).unwrap());
                })
            }
            "open" => {
                let sealed = key.seal(&NONCE, b"", &vec![0x5a_u8; bytes]).unwrap();
                let mut input = Moving::new(sealed.len());
                input.next_placement().copy_from_slice(&sealed);
                let mut out = Moving::new(bytes);
                Box::new(move || {
                    black_box(key.open_to(&NONCE, b"", input.first(), out.next_placement()).unwrap());
                })
            }
            "setup" => Box::new(move || {
                black_box(match tier {
                    Some(t) => <$ty>::with_tier(black_box(&[7u8; $key]), t.into()).unwrap(),
                    None => <$ty>::new(black_box(&[7u8; $key])).unwrap(),
                });
            }),
            other => panic!("unknown operation {other}"),
        };
        call
    }};
}

/// A TLS 1.3 record's seal (`sealrec`), AES-GCM only:
/// `seal_with_trailing_byte_to` of `bytes − 1` bytes of content and the
/// content type, the record's 5-byte header as AAD, into a buffer of its
/// own.
macro_rules! record_call {
    ($ty:ty, $key:expr, $bytes:expr) => {{
        let bytes: usize = $bytes;
        let key = match tier() {
            Some(t) => <$ty>::with_tier(&[7u8; $key], t.into()).expect("the tier AB_TIER names"),
            None => <$ty>::new(&[7u8; $key]).expect("a supported CPU"),
        };
        let header = [23u8, 3, 3, 0, 0];
        let content = vec![0x5a_u8; bytes.saturating_sub(1)];
        let mut out = vec![0u8; bytes + 16];
        let call: Call = Box::new(move || {
            black_box(
                key.seal_with_trailing_byte_to(&[9u8; 12], &header, &content, 23, &mut out)
                    .unwrap(),
            );
        });
        call
    }};
}

/// The tier `AB_TIER` names (`aesni`, `avx2` or `avx512`), if any: both
/// builds then run on it (`with_tier`) rather than on the default (`new`), so
/// one host measures the tiers below its best.
#[derive(Clone, Copy)]
enum TierName {
    AesNi,
    Avx2,
    Avx512,
}

fn tier() -> Option<TierName> {
    match std::env::var("AB_TIER").ok()?.as_str() {
        "aesni" => Some(TierName::AesNi),
        "avx2" => Some(TierName::Avx2),
        "avx512" => Some(TierName::Avx512),
        other => panic!("AB_TIER: unknown tier {other} (aesni, avx2, avx512)"),
    }
}

macro_rules! tier_into {
    ($krate:ident) => {
        impl From<TierName> for $krate::Tier {
            fn from(t: TierName) -> Self {
                match t {
                    TierName::AesNi => $krate::Tier::AesNiClmul,
                    TierName::Avx2 => $krate::Tier::VaesAvx2,
                    TierName::Avx512 => $krate::Tier::VaesAvx512,
                }
            }
        }
    };
}
tier_into!(base);
tier_into!(head);

/// The two builds' calls of one case.
fn calls(alg: &str, op: &str, bytes: usize) -> (Call, Call) {
    if op == "sealrec" {
        return match alg {
            "gcm128" => (
                record_call!(base::aes_gcm::Aes128Gcm, 16, bytes),
                record_call!(head::aes_gcm::Aes128Gcm, 16, bytes),
            ),
            "gcm256" => (
                record_call!(base::aes_gcm::Aes256Gcm, 32, bytes),
                record_call!(head::aes_gcm::Aes256Gcm, 32, bytes),
            ),
            other => panic!("sealrec is AES-GCM's: not {other}"),
        };
    }
    match alg {
        "gcm128" => (
            call!(base::aes_gcm::Aes128Gcm, 16, op, bytes),
            call!(head::aes_gcm::Aes128Gcm, 16, op, bytes),
        ),
        "gcm256" => (
            call!(base::aes_gcm::Aes256Gcm, 32, op, bytes),
            call!(head::aes_gcm::Aes256Gcm, 32, op, bytes),
        ),
        "siv128" => (
            call!(base::aes_gcm_siv::Aes128GcmSiv, 16, op, bytes),
            call!(head::aes_gcm_siv::Aes128GcmSiv, 16, op, bytes),
        ),
        "siv256" => (
            call!(base::aes_gcm_siv::Aes256GcmSiv, 32, op, bytes),
            call!(head::aes_gcm_siv::Aes256GcmSiv, 32, op, bytes),
        ),
        // AEGIS with 16-byte tags: the nonce is as long as the key.
        "aegis128l" => (
            call!(base::aegis::Aegis128L<16>, 16, 16, op, bytes),
            call!(head::aegis::Aegis128L<16>, 16, 16, op, bytes),
        ),
        "aegis128x2" => (
            call!(base::aegis::Aegis128X2<16>, 16, 16, op, bytes),
            call!(head::aegis::Aegis128X2<16>, 16, 16, op, bytes),
        ),
        "aegis128x4" => (
            call!(base::aegis::Aegis128X4<16>, 16, 16, op, bytes),
            call!(head::aegis::Aegis128X4<16>, 16, 16, op, bytes),
        ),
        "aegis256" => (
            call!(base::aegis::Aegis256<16>, 32, 32, op, bytes),
            call!(head::aegis::Aegis256<16>, 32, 32, op, bytes),
        ),
        "aegis256x2" => (
            call!(base::aegis::Aegis256X2<16>, 32, 32, op, bytes),
            call!(head::aegis::Aegis256X2<16>, 32, 32, op, bytes),
        ),
        "aegis256x4" => (
            call!(base::aegis::Aegis256X4<16>, 32, 32, op, bytes),
            call!(head::aegis::Aegis256X4<16>, 32, 32, op, bytes),
        ),
        other => panic!("unknown algorithm {other}"),
    }
}

/// Calls per batch so that one batch of `f` takes about 2 ms.
fn calibrate(f: &mut Call) -> u64 {
    let mut n = 1u64;
    loop {
        let t = Instant::now();
        for _ in 0..n {
            f();
        }
        if t.elapsed() > Duration::from_millis(2) || n > 1 << 24 {
            return n;
        }
        n *= 2;
    }
}

/// Nanoseconds per call of one batch of `n` calls.
fn batch(f: &mut Call, n: u64) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed().as_nanos() as f64 / n as f64
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().and_then(|r| r.parse().ok()).unwrap_or(31);
    let mut cases: Vec<(String, String, usize)> = args
        .iter()
        .skip(1)
        .map(|c| {
            let p: Vec<&str> = c.split(':').collect();
            assert!(p.len() == 3, "a case is ALG:OP:BYTES, not {c}");
            (p[0].into(), p[1].into(), p[2].parse().expect("BYTES"))
        })
        .collect();
    if cases.is_empty() {
        for alg in ["gcm128", "gcm256"] {
            for bytes in [16, 64, 256, 1024, 1500, 4096, 16384, 65536, 1 << 20] {
                for op in ["seal", "open"] {
                    cases.push((alg.into(), op.into(), bytes));
                }
            }
        }
        for alg in ["siv128", "siv256"] {
            for bytes in [16, 1024, 16384] {
                for op in ["seal", "open"] {
                    cases.push((alg.into(), op.into(), bytes));
                }
            }
        }
        for alg in ["gcm128", "gcm256", "siv128", "siv256"] {
            cases.push((alg.into(), "setup".into(), 0));
        }
    }
    println!(
        "{rounds} rounds; head ÷ base: the median of the rounds' ratios, and their middle half"
    );
    for (alg, op, bytes) in &cases {
        let (mut b, mut h) = calls(alg, op, *bytes);
        let (nb, nh) = (calibrate(&mut b), calibrate(&mut h));
        let (mut tb, mut th, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..rounds {
            let (x, y) = if round % 2 == 0 {
                let x = batch(&mut b, nb);
                (x, batch(&mut h, nh))
            } else {
                let y = batch(&mut h, nh);
                (batch(&mut b, nb), y)
            };
            tb.push(x);
            th.push(y);
            ratio.push(y / x);
        }
        let r = median(&mut ratio);
        let (q1, q3) = (ratio[rounds / 4], ratio[rounds * 3 / 4]);
        println!(
            "{alg:10} {op:5} {bytes:8} B   base {:10.1} ns   head {:10.1} ns   head/base {r:.3} ({q1:.3}-{q3:.3})",
            median(&mut tb),
            median(&mut th),
        );
    }
}
