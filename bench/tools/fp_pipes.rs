//! What each vector instruction of the stitched loops costs on the FP pipes.
//!
//! Each pattern is one `asm!` block of independent instructions (no chain
//! longer than the instruction's latency allows) run 5·10^7 times; run it
//! under `perf stat` with the CPU's FP-pipe events (`bench/tools/fp-pipes.sh`
//! does) and divide by the iterations. Usage: `fp_pipes <pattern>`, or
//! `fp_pipes --list`.

use std::arch::asm;

/// Iterations of each pattern's block.
const ITERATIONS: u64 = 50_000_000;

/// `concat!` of `$pre r $post` for each register number `r`, one line each.
macro_rules! each {
    ($pre:literal, $post:literal; $($r:literal),*) => {
        concat!($($pre, stringify!($r), $post, "\n"),*)
    };
}

/// `$pre r $mid r $post` for each `r` (destructive two-register forms).
macro_rules! each2 {
    ($pre:literal, $mid:literal, $post:literal; $($r:literal),*) => {
        concat!($($pre, stringify!($r), $mid, stringify!($r), $post, "\n"),*)
    };
}

/// Runs `$body` `ITERATIONS` times with every vector register clobbered.
macro_rules! run {
    ($body:expr) => {
        for _ in 0..ITERATIONS {
            // SAFETY: register-only instructions (no memory, stack or flags)
            // on registers declared clobbered; the caller checked the CPU
            // has the features (`fp-pipes.sh` runs this on AVX-512 + VAES +
            // VPCLMULQDQ machines only).
            unsafe {
                asm!(
                    $body,
                    out("xmm0") _, out("xmm1") _, out("xmm2") _, out("xmm3") _,
                    out("xmm4") _, out("xmm5") _, out("xmm6") _, out("xmm7") _,
                    out("xmm8") _, out("xmm9") _, out("xmm10") _, out("xmm11") _,
                    out("xmm12") _, out("xmm13") _, out("xmm14") _, out("xmm15") _,
                    out("xmm16") _, out("xmm17") _, out("xmm18") _, out("xmm19") _,
                    out("xmm20") _, out("xmm21") _, out("xmm22") _, out("xmm23") _,
                    out("xmm24") _, out("xmm25") _, out("xmm26") _, out("xmm27") _,
                    out("xmm28") _, out("xmm29") _, out("xmm30") _, out("xmm31") _,
                    options(nomem, nostack, preserves_flags),
                );
            }
        }
    };
}

/// The patterns: name, instructions per block, what the block holds.
const PATTERNS: &[(&str, u32, &str)] = &[
    ("aesenc", 14, "14 x vaesenc xmm (14 chains)"),
    ("aesenc-zmm", 14, "14 x vaesenc zmm (14 chains)"),
    ("pclmul", 4, "4 x vpclmulqdq xmm"),
    ("pclmul-zmm", 4, "4 x vpclmulqdq zmm"),
    ("pxor", 16, "16 x vpxord xmm"),
    ("pshufb", 16, "16 x vpshufb xmm"),
    ("pshufd", 16, "16 x vpshufd xmm"),
    ("paddd", 16, "16 x vpaddd xmm"),
    ("ternlog-zmm", 16, "16 x vpternlogq zmm"),
    ("movdqa", 16, "16 x vmovdqa64 xmm (register to register)"),
    ("mix", 56, "28 x vaesenc + 7 x vpclmulqdq + 21 x vpxord (xmm)"),
];

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_default();
    if arg == "--list" {
        for (name, count, what) in PATTERNS {
            println!("{name} {count} {what}");
        }
        return;
    }
    if !(std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("vaes")
        && std::arch::is_x86_feature_detected!("vpclmulqdq"))
    {
        eprintln!("fp_pipes: this CPU lacks AVX-512F, VAES or VPCLMULQDQ");
        std::process::exit(2);
    }
    match arg.as_str() {
        "aesenc" => run!(each2!("vaesenc xmm", ", xmm", ", xmm1"; 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
        "aesenc-zmm" => run!(each2!("vaesenc zmm", ", zmm", ", zmm1"; 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)),
        "pclmul" => run!(each!("vpclmulqdq xmm", ", xmm0, xmm1, 0"; 16, 17, 18, 19)),
        "pclmul-zmm" => run!(each!("vpclmulqdq zmm", ", zmm0, zmm1, 0"; 16, 17, 18, 19)),
        "pxor" => run!(each!("vpxord xmm", ", xmm0, xmm1"; 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)),
        "pshufb" => run!(each!("vpshufb xmm", ", xmm0, xmm1"; 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)),
        "pshufd" => run!(each!("vpshufd xmm", ", xmm0, 0x4e"; 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)),
        "paddd" => run!(each!("vpaddd xmm", ", xmm0, xmm1"; 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)),
        "ternlog-zmm" => run!(each!("vpternlogq zmm", ", zmm0, zmm1, 0x96"; 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)),
        "movdqa" => run!(concat!(
            "vmovdqa64 xmm16, xmm24\nvmovdqa64 xmm17, xmm25\nvmovdqa64 xmm18, xmm26\nvmovdqa64 xmm19, xmm27\n",
            "vmovdqa64 xmm20, xmm28\nvmovdqa64 xmm21, xmm29\nvmovdqa64 xmm22, xmm30\nvmovdqa64 xmm23, xmm31\n",
            "vmovdqa64 xmm24, xmm16\nvmovdqa64 xmm25, xmm17\nvmovdqa64 xmm26, xmm18\nvmovdqa64 xmm27, xmm19\n",
            "vmovdqa64 xmm28, xmm20\nvmovdqa64 xmm29, xmm21\nvmovdqa64 xmm30, xmm22\nvmovdqa64 xmm31, xmm23\n",
        )),
        // Four AES, one multiply and three XORs, seven times: the shape of a
        // stitched loop, to check that the per-instruction costs add up.
        "mix" => run!(concat!(
            each2!("vaesenc xmm", ", xmm", ", xmm1"; 2, 3, 4, 5), "vpclmulqdq xmm16, xmm0, xmm1, 0\n",
            each!("vpxord xmm", ", xmm0, xmm1"; 17, 18, 19),
            each2!("vaesenc xmm", ", xmm", ", xmm1"; 6, 7, 8, 9), "vpclmulqdq xmm20, xmm0, xmm1, 0\n",
            each!("vpxord xmm", ", xmm0, xmm1"; 21, 22, 23),
            each2!("vaesenc xmm", ", xmm", ", xmm1"; 10, 11, 12, 13), "vpclmulqdq xmm24, xmm0, xmm1, 0\n",
            each!("vpxord xmm", ", xmm0, xmm1"; 25, 26, 27),
            each2!("vaesenc xmm", ", xmm", ", xmm1"; 14, 15, 2, 3), "vpclmulqdq xmm28, xmm0, xmm1, 0\n",
            each!("vpxord xmm", ", xmm0, xmm1"; 29, 30, 31),
            each2!("vaesenc xmm", ", xmm", ", xmm1"; 4, 5, 6, 7), "vpclmulqdq xmm16, xmm0, xmm1, 0\n",
            each!("vpxord xmm", ", xmm0, xmm1"; 17, 18, 19),
            each2!("vaesenc xmm", ", xmm", ", xmm1"; 8, 9, 10, 11), "vpclmulqdq xmm20, xmm0, xmm1, 0\n",
            each!("vpxord xmm", ", xmm0, xmm1"; 21, 22, 23),
            each2!("vaesenc xmm", ", xmm", ", xmm1"; 12, 13, 14, 15), "vpclmulqdq xmm24, xmm0, xmm1, 0\n",
            each!("vpxord xmm", ", xmm0, xmm1"; 25, 26, 27),
        )),
        _ => {
            eprintln!("usage: fp_pipes <pattern> | --list");
            std::process::exit(2);
        }
    }
}
