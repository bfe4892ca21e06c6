#!/usr/bin/env bash
# Constant-time check of the emitted machine code (docs/constant-time.md).
#
#   scripts/ct-check.sh            check; print a per-function summary
#   scripts/ct-check.sh --list     also print every conditional branch
#
# 1. Self-test: compiles scripts/ct_selftest.rs (known-bad and known-good
#    functions) with rustc -O and checks that the analyser flags exactly the
#    bad ones, so a change in the compiler or the script cannot make the real
#    check pass by seeing nothing.
# 2. Builds scripts/ct-probe (a binary calling every AeadKey method of every key
#    type on every backend) in release mode, as a user's program would get the
#    crate, with v0 symbol names (so `seal::<11>` and `seal::<15>` are told
#    apart) and line tables (so each branch is listed with its source line).
# 3. Disassembles it and runs scripts/ct_check.py over the hot functions.
#
# Needs cargo, rustc, objdump and nm (binutils) and python3. Exits non-zero on
# any finding. The full branch listing is written to target/ct-check/report.txt.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=target/ct-check
mkdir -p "$out"

for tool in objdump nm python3 rustc cargo; do
    command -v "$tool" >/dev/null || { echo "ct-check: $tool not found" >&2; exit 2; }
done
if [[ $(uname -m) != x86_64 ]]; then
    echo "ct-check: only x86_64 code is checked so far; skipped on $(uname -m)"
    exit 0
fi

disassemble() {
    local bin=$1 stem=$2
    objdump -d -l --no-show-raw-insn -C "$bin" >"$stem.s"
    objdump -R "$bin" >"$stem.relocs"
    nm -C "$bin" >"$stem.syms"
}

echo "--- self-test (scripts/ct_selftest.rs)"
rustc --edition 2024 -O -C symbol-mangling-version=v0 -C debuginfo=line-tables-only \
    scripts/ct_selftest.rs -o "$out/ct_selftest"
disassemble "$out/ct_selftest" "$out/selftest"
python3 scripts/ct_check.py "$out/selftest.s" --relocs "$out/selftest.relocs" \
    --symbols "$out/selftest.syms" --selftest

echo "--- release build of scripts/ct-probe"
# Resolve the probe's dependencies to the crate's own pinned versions.
cp Cargo.lock scripts/ct-probe/Cargo.lock
RUSTFLAGS="${RUSTFLAGS:-} -C symbol-mangling-version=v0" \
    cargo build --release --quiet --manifest-path scripts/ct-probe/Cargo.toml --target-dir "$out"
disassemble "$out/release/ct-probe" "$out/probe"

echo "--- analysis"
python3 scripts/ct_check.py "$out/probe.s" --relocs "$out/probe.relocs" --symbols "$out/probe.syms" \
    --report "$out/report.txt" "$@"
echo "full branch listing: $out/report.txt"
