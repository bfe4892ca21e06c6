#!/usr/bin/env bash
# The ARMv8 tier's steady-state loops (GCM seal and open, GCM-SIV's loops)
# in llvm-mca-19's Neoverse N1, N2, V1 and V2 models, cycles per block as
# emitted and with AESE+AESMC fused; no aarch64 machine needed. See
# scripts/aarch64_model.py for how the loops are found and counted, and
# docs/benchmarks.md ("aarch64 (ARMv8 AES + PMULL, `Tier::Armv8`): modelled,
# not measured") for the reference kernels and what the figures mean.
#
#   bash scripts/aarch64-model.sh           # print, and check against scripts/aarch64-model.txt
#   bash scripts/aarch64-model.sh --write   # print, and rewrite scripts/aarch64-model.txt
#
# Needs the aarch64-unknown-linux-gnu target (rustup target add) and
# llvm-mca-19 (Debian: apt-get install llvm-19); no cross linker (the library
# is compiled to assembly only). The build is the release profile with one
# codegen unit, so that the crate's code is one assembly file.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v llvm-mca-19 >/dev/null || { echo "aarch64-model: llvm-mca-19 not found (apt-get install llvm-19)" >&2; exit 2; }
target_dir=target/aarch64-model
# Rebuilt every time: cargo does not count a deleted .s as stale.
cargo clean --quiet -p hardware-aead --release --target aarch64-unknown-linux-gnu --target-dir "$target_dir"
cargo rustc --quiet --release --lib --target aarch64-unknown-linux-gnu --target-dir "$target_dir" \
    -- --emit=asm -C codegen-units=1
asm=$(ls "$target_dir"/aarch64-unknown-linux-gnu/release/deps/hardware_aead-*.s)
mode=--check
[[ ${1:-} == --write ]] && mode=--write
python3 scripts/aarch64_model.py "$asm" "$mode" scripts/aarch64-model.txt
