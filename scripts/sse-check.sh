#!/usr/bin/env bash
# No legacy-SSE instruction after wide code, proved from the machine code
# (docs/design.md, "Legacy SSE after wide code").
#
#   scripts/sse-check.sh
#
# On Intel cores and on Zen 3 a legacy-encoded SSE, AES-NI or PCLMULQDQ
# instruction that runs while the upper halves of the ymm/zmm registers are
# dirty costs a state transition or a merge: microseconds per call for a
# run of them. Which instructions end up after wide code depends on how LLVM
# inlined the crate into the user's binary, so this checks two builds of
# scripts/ct-probe (every AeadKey method of every key type on every backend,
# the random generator, and RFC 8188's record sealing), each as a user
# would get it:
#
#   default   `cargo build --release`'s defaults (no LTO, 16 codegen units)
#   thin-lto  thin LTO and one codegen unit
#
# 1. Self-test of the analyser on known-bad and known-good code.
# 2. Both builds, disassembled (Intel syntax), walked by scripts/sse_check.py:
#    every function, the upper state followed along its control flow, a
#    finding for each non-VEX instruction on xmm registers, and each call,
#    reachable while the state is dirty. Both builds must contain the wide
#    tiers' code, or the check would pass by seeing none.
#
# Needs cargo, objdump (binutils) and python3; x86_64 only. Exits non-zero on
# any finding; the disassemblies are kept under target/sse-check/.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=target/sse-check
mkdir -p "$out"

for tool in objdump python3 cargo; do
    command -v "$tool" >/dev/null || { echo "sse-check: $tool not found" >&2; exit 2; }
done
if [[ $(uname -m) != x86_64 ]]; then
    echo "sse-check: x86_64 code only; skipped on $(uname -m)"
    exit 0
fi

echo "--- self-test"
python3 scripts/sse_check.py --selftest

cp Cargo.lock scripts/ct-probe/Cargo.lock
status=0
for build in default thin-lto; do
    echo "--- $build build of scripts/ct-probe (features: ece)"
    env=(CARGO_PROFILE_RELEASE_DEBUG=false)
    if [[ $build == thin-lto ]]; then
        env+=(CARGO_PROFILE_RELEASE_LTO=thin CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1)
    fi
    env "${env[@]}" cargo build --release --quiet --features ece \
        --manifest-path scripts/ct-probe/Cargo.toml --target-dir "$out/$build"
    objdump -d -M intel --no-show-raw-insn -C "$out/$build/release/ct-probe" >"$out/$build.s"
    python3 scripts/sse_check.py "$out/$build.s" --require vaes::avx2 --require vaes::avx512 ||
        status=1
done
if [[ $status -ne 0 ]]; then
    echo "sse-check: legacy SSE after wide code (listed above)" >&2
fi
exit "$status"
