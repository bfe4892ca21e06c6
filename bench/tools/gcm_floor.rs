//! The bulk floor of an AES-NI + PCLMULQDQ GCM loop on this CPU, by the
//! clock alone (for hosts without hardware performance counters).
//!
//! Each pattern is one `asm!` block of register-only instructions run many
//! times; a chain of dependent 64-bit multiplies (three cycles each on every
//! x86_64 core measured here) gives the clock, so every pattern is reported
//! in cycles. The GCM patterns are what one eight-block group of the AES-NI
//! tier's stitched loop must execute at the least: the AES rounds, the eight
//! byte reversals, Karatsuba halves and three multiplies per block with their
//! accumulating XORs, the two-multiply reduction, and the counter adds and
//! whitening and input XORs ("helper" instructions). No loads or stores, no
//! dependency the real loop does not have: a floor, not a model of the loop.
//!
//! Where the CPU has AVX-512, VAES and VPCLMULQDQ, the 512-bit (and 256-bit)
//! instructions are timed alone and mixed as well (`wide_rows`): how many of
//! each issue a cycle, and whether they share ports.
//!
//! Usage: `bash bench/tools/gcm-floor.sh` (builds this file and runs it).

use std::arch::asm;
use std::time::Instant;

/// Iterations of each pattern.
const ITERATIONS: u64 = 4_000_000;

/// Runs of each pattern; the fastest counts (other tenants of a VM only
/// ever slow a run down).
const RUNS: usize = 7;

/// `concat!` of `$pre r $post` for each register number `r`, one line each.
macro_rules! each {
    ($pre:literal, $post:literal; $($r:literal),*) => {
        concat!($($pre, stringify!($r), $post, "\n"),*)
    };
}

/// One AES round on the eight block registers xmm0..xmm7 (key in xmm15).
macro_rules! round {
    () => {
        each!("aesenc xmm", ", xmm15"; 0, 1, 2, 3, 4, 5, 6, 7)
    };
}

/// The hash of one block (a fresh copy of xmm15 in xmm8; power in xmm14,
/// Karatsuba key in xmm13): byte reversal, the halves' sum, three
/// multiplies, three accumulating XORs into xmm11 and xmm12.
macro_rules! hash_block {
    () => {
        concat!(
            "movdqa xmm8, xmm15\n",
            "pshufb xmm8, xmm14\n",
            "pshufd xmm9, xmm8, 0x4e\n",
            "pxor xmm9, xmm8\n",
            "movdqa xmm10, xmm8\n",
            "pclmulqdq xmm10, xmm14, 0x00\n",
            "pclmulqdq xmm8, xmm14, 0x11\n",
            "pclmulqdq xmm9, xmm13, 0x00\n",
            "pxor xmm11, xmm10\n",
            "pxor xmm12, xmm8\n",
            "pxor xmm11, xmm9\n",
        )
    };
}

/// The group's reduction: two multiplies by the constant, shuffles, XORs.
macro_rules! reduction {
    () => {
        concat!(
            "movdqa xmm10, xmm11\n",
            "pclmulqdq xmm10, xmm14, 0x10\n",
            "pshufd xmm11, xmm11, 0x4e\n",
            "pxor xmm11, xmm10\n",
            "movdqa xmm10, xmm11\n",
            "pclmulqdq xmm10, xmm14, 0x10\n",
            "pshufd xmm11, xmm11, 0x4e\n",
            "pxor xmm11, xmm10\n",
        )
    };
}

/// Per block outside the rounds: a fresh counter block (a register copy,
/// so no chain runs from one iteration to the next), the counter add, the
/// whitening XOR; [`finish`] holds the XOR with the input.
macro_rules! helpers {
    () => {
        concat!(
            each!("movdqa xmm", ", xmm13"; 0, 1, 2, 3, 4, 5, 6, 7),
            each!("paddd xmm", ", xmm15"; 0, 1, 2, 3, 4, 5, 6, 7),
            each!("pxor xmm", ", xmm15"; 0, 1, 2, 3, 4, 5, 6, 7),
        )
    };
}

/// The XOR of each keystream block with its input.
macro_rules! finish {
    () => {
        each!("pxor xmm", ", xmm14"; 0, 1, 2, 3, 4, 5, 6, 7)
    };
}

/// The first nine rounds of a group with its hash spread among them, as
/// the stitched loop spreads it: a block's hash after each of the first
/// eight rounds, the reduction after the ninth.
macro_rules! stitched_rounds {
    () => {
        concat!(
            round!(), hash_block!(), round!(), hash_block!(), round!(), hash_block!(),
            round!(), hash_block!(), round!(), hash_block!(), round!(), hash_block!(),
            round!(), hash_block!(), round!(), hash_block!(), round!(), reduction!(),
        )
    };
}

/// Seconds for `ITERATIONS` runs of `$body`, every vector register
/// clobbered: the fastest of `RUNS` tries.
macro_rules! time {
    ($body:expr) => {{
        (0..RUNS).map(|_| once!($body)).fold(f64::MAX, f64::min)
    }};
}

/// Seconds for `ITERATIONS` runs of `$body`, once.
macro_rules! once {
    ($body:expr) => {{
        let start = Instant::now();
        for _ in 0..ITERATIONS {
            // SAFETY: register-only instructions (no memory, stack or flags)
            // on registers declared clobbered; `main` checked that the CPU
            // has AES-NI, PCLMULQDQ and SSSE3.
            unsafe {
                asm!(
                    $body,
                    out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                    out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
                    out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
                    out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
                    options(nomem, nostack, preserves_flags),
                );
            }
        }
        start.elapsed().as_secs_f64()
    }};
}

fn main() {
    if !(is_x86_feature_detected!("aes")
        && is_x86_feature_detected!("pclmulqdq")
        && is_x86_feature_detected!("ssse3"))
    {
        eprintln!("gcm-floor: this CPU lacks AES-NI, PCLMULQDQ or SSSE3");
        std::process::exit(2);
    }
    // The clock: eight dependent 64-bit multiplies per iteration, three
    // cycles each on every core measured here. (A chain of `add reg, 1`,
    // one a cycle on AMD, read 11.9 GHz on Emerald Rapids: Intel's recent
    // cores fold such adds at rename, so they take no cycle of their own.)
    let imul_chain = || {
        let start = Instant::now();
        let mut x = 3u64;
        for _ in 0..ITERATIONS {
            // SAFETY: register arithmetic only.
            unsafe {
                asm!("imul {0}, {0}", "imul {0}, {0}", "imul {0}, {0}", "imul {0}, {0}",
                     "imul {0}, {0}", "imul {0}, {0}", "imul {0}, {0}", "imul {0}, {0}",
                     inout(reg) x, options(nomem, nostack));
            }
        }
        std::hint::black_box(x);
        start.elapsed().as_secs_f64()
    };
    let fastest = (0..RUNS).map(|_| imul_chain()).fold(f64::MAX, f64::min);
    let hz = (ITERATIONS * 8 * 3) as f64 / fastest;
    println!("clock {:.2} GHz (a chain of dependent multiplies, 3 cycles each)", hz / 1e9);
    let cycles = |seconds: f64, per: f64| seconds * hz / (ITERATIONS as f64 * per);

    let rows: [(&str, f64, f64); 7] = [
        ("aesenc, 8 chains", time!(round!()), 8.0),
        ("pclmulqdq, 8 independent",
         time!(each!("pclmulqdq xmm", ", xmm15, 0x00"; 0, 1, 2, 3, 4, 5, 6, 7)), 8.0),
        ("8 aesenc + 2 pclmulqdq (per aesenc)",
         time!(concat!(round!(), "pclmulqdq xmm8, xmm15, 0x00\n", "pclmulqdq xmm9, xmm15, 0x00\n")), 8.0),
        ("AES-128 keystream, per block",
         time!(concat!(helpers!(), round!(), round!(), round!(), round!(), round!(),
                       round!(), round!(), round!(), round!(), round!(), finish!())), 8.0),
        ("AES-256 keystream, per block",
         time!(concat!(helpers!(), round!(), round!(), round!(), round!(), round!(),
                       round!(), round!(), round!(), round!(), round!(), round!(),
                       round!(), round!(), round!(), finish!())), 8.0),
        ("AES-128-GCM group, per block",
         time!(concat!(helpers!(), stitched_rounds!(), round!(), finish!())), 8.0),
        ("AES-256-GCM group, per block",
         time!(concat!(helpers!(), stitched_rounds!(), round!(), round!(), round!(),
                       round!(), round!(), finish!())), 8.0),
    ];
    for (name, seconds, per) in rows {
        let c = cycles(seconds, per);
        let rate = if name.contains("per block") {
            format!("  ({:.2} GB/s at this clock)", 16.0 * hz / c / 1e9)
        } else {
            String::new()
        };
        println!("{name:<38} {c:6.2} cycles{rate}");
    }
    if is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("vaes")
        && is_x86_feature_detected!("vpclmulqdq")
    {
        // SAFETY: the features were detected just above.
        for (name, seconds, per) in unsafe { wide_rows() } {
            println!("{name:<38} {:6.2} cycles", cycles(seconds, per));
        }
    }
}

/// `concat!` of `$pre r $mid r $post` for each register number `r`, one
/// line each (an instruction that reads and writes register `r`).
macro_rules! each_rw {
    ($pre:literal, $mid:literal, $post:literal; $($r:literal),*) => {
        concat!($($pre, stringify!($r), $mid, stringify!($r), $post, "\n"),*)
    };
}

/// One 512-bit AES round on zmm0..zmm7 (key in zmm15).
macro_rules! zround {
    () => {
        each_rw!("vaesenc zmm", ", zmm", ", zmm15"; 0, 1, 2, 3, 4, 5, 6, 7)
    };
}

/// Seconds for `ITERATIONS` runs of `$body` on zmm registers (the fastest of
/// `RUNS`): the VAES + VPCLMULQDQ tier's instructions alone and mixed, for
/// what the AVX-512 loops can issue per cycle (which port each may use).
macro_rules! ztime {
    ($body:expr) => {{
        (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..ITERATIONS {
                    // SAFETY: register-only instructions on registers
                    // declared clobbered; the caller checked the features.
                    unsafe {
                        asm!(
                            $body,
                            out("zmm0") _, out("zmm1") _, out("zmm2") _, out("zmm3") _,
                            out("zmm4") _, out("zmm5") _, out("zmm6") _, out("zmm7") _,
                            out("zmm8") _, out("zmm9") _, out("zmm10") _, out("zmm11") _,
                            out("zmm12") _, out("zmm13") _, out("zmm14") _, out("zmm15") _,
                            options(nomem, nostack, preserves_flags),
                        );
                    }
                }
                start.elapsed().as_secs_f64()
            })
            .fold(f64::MAX, f64::min)
    }};
}

/// The 512-bit patterns, in cycles per instruction group: `vaesenc` on zmm
/// and on ymm (eight independent chains: throughput), one chain (latency),
/// `vpclmulqdq` on zmm, and `vaesenc` mixed with multiplies, XORs or byte
/// shuffles in the proportions of a stitched group.
#[target_feature(enable = "avx512f,avx512bw,vaes,vpclmulqdq")]
unsafe fn wide_rows() -> [(&'static str, f64, f64); 8] {
    [
        ("vaesenc zmm, 8 chains (per vaesenc)", ztime!(zround!()), 8.0),
        ("vaesenc zmm, 1 chain (per vaesenc)",
         ztime!(concat!("vaesenc zmm0, zmm0, zmm15\n", "vaesenc zmm0, zmm0, zmm15\n",
                        "vaesenc zmm0, zmm0, zmm15\n", "vaesenc zmm0, zmm0, zmm15\n",
                        "vaesenc zmm0, zmm0, zmm15\n", "vaesenc zmm0, zmm0, zmm15\n",
                        "vaesenc zmm0, zmm0, zmm15\n", "vaesenc zmm0, zmm0, zmm15\n")), 8.0),
        ("vaesenc ymm, 8 chains (per vaesenc)",
         ztime!(each_rw!("vaesenc ymm", ", ymm", ", ymm15"; 0, 1, 2, 3, 4, 5, 6, 7)), 8.0),
        ("vpclmulqdq zmm, 8 independent (each)",
         ztime!(each!("vpclmulqdq zmm", ", zmm15, zmm15, 0x00"; 8, 9, 10, 11, 12, 13, 14, 8)), 8.0),
        ("8 vaesenc + 4 vpclmulqdq zmm (per aes)",
         ztime!(concat!(zround!(), each!("vpclmulqdq zmm", ", zmm15, zmm14, 0x00"; 8, 9, 10, 11))), 8.0),
        ("8 vaesenc + 8 vpxord zmm (per aes)",
         ztime!(concat!(zround!(), each!("vpxord zmm", ", zmm15, zmm14"; 8, 9, 10, 11, 12, 13, 8, 9))), 8.0),
        ("8 vaesenc + 8 vpshufb zmm (per aes)",
         ztime!(concat!(zround!(), each!("vpshufb zmm", ", zmm15, zmm14"; 8, 9, 10, 11, 12, 13, 8, 9))), 8.0),
        ("8 vaesenc + 4 clmul + 8 xor (per aes)",
         ztime!(concat!(zround!(), each!("vpclmulqdq zmm", ", zmm15, zmm14, 0x00"; 8, 9, 10, 11),
                        each!("vpxord zmm", ", zmm15, zmm13"; 12, 12, 12, 12, 12, 12, 12, 12))), 8.0),
    ]
}
