//! What a message flush against a page that cannot be read costs: the
//! AVX-512 tier reads and writes short messages with byte-masked loads and
//! stores of whole 16- or 64-byte windows, and where a window's masked-off
//! bytes lie on a page that is not mapped, the CPU takes a fault-suppression
//! assist (docs/design.md, "Masked loads and stores near a page's end").
//!
//! ```text
//! cargo run --release -p hardware-aead-bench --example page_end -- [ROUNDS]
//! ```
//!
//! Per algorithm and length: in-place seals of the same message placed
//! where an inaccessible page ends (`mid`: its windows reach forward into
//! mapped memory) and ending where one begins (`end`), alternating in
//! rounds of about 2 ms each; the median over
//! the rounds of each placement's time per call, and of `end / mid` within
//! a round. The default tier (`new`).

use std::hint::black_box;
use std::time::Instant;

use hardware_aead::AeadKey;
use hardware_aead::aes_gcm::Aes256Gcm;
use hardware_aead::aes_gcm_siv::Aes256GcmSiv;

#[path = "../../tests/common/guarded.rs"]
mod guarded;
use guarded::Guarded;

/// Nanoseconds per call of `f`, run for about 2 ms.
fn time_per_call(iters: u32, mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..iters {
        f();
    }
    t.elapsed().as_secs_f64() * 1e9 / f64::from(iters)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The rows of one key type: each length at both placements.
fn rows<K: AeadKey<Nonce = [u8; 12]>>(name: &str, key: &K, rounds: usize) {
    let mut pages = Guarded::new();
    let nonce = [9u8; 12];
    for len in [16, 20, 50, 64, 80, 100, 128, 144, 200, 256] {
        let iters = 20_000;
        let (mut mid, mut end, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
        for r in 0..rounds {
            // Indexed by `at_end`; the order alternates between rounds.
            let mut t = [0.0; 2];
            for at_end in [r % 2 == 1, r % 2 == 0] {
                let buf = pages.slice(len, at_end);
                buf.fill(0x5a);
                t[usize::from(at_end)] = time_per_call(iters, || {
                    black_box(
                        key.seal_in_place_detached(&nonce, b"", black_box(&mut *buf))
                            .unwrap(),
                    );
                });
            }
            mid.push(t[0]);
            end.push(t[1]);
            ratio.push(t[1] / t[0]);
        }
        println!(
            "{name:10} {:?} seal {len:4} B   mid {:7.1} ns   end {:7.1} ns   end/mid {:.2}",
            key.tier(),
            median(&mut mid),
            median(&mut end),
            median(&mut ratio)
        );
    }
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .map_or(11, |a| a.parse().expect("ROUNDS"));
    rows(
        "aes256gcm",
        &Aes256Gcm::new(&[7; 32]).expect("a supported CPU"),
        rounds,
    );
    rows(
        "aes256siv",
        &Aes256GcmSiv::new(&[7; 32]).expect("a supported CPU"),
        rounds,
    );
}
