#!/usr/bin/env bash
# The working tree's build of the crate against a base revision's, timed in
# one process (bench/tools/ab-probe): per case, the median over interleaved
# rounds of each round's head ÷ base time. The host's drift between rounds
# divides out, which alternating two binaries cannot do, so a change of a
# few per cent shows (docs/benchmarks.md, "Method", has this floor).
#
#   bash bench/tools/ab-one-process.sh BASE [ROUNDS [CASE...]]
#
# BASE is any git revision; its tree is checked out (detached) under
# target/ab-one-process/base with its package renamed `hardware-aead-base`,
# so that both builds link into one binary. Default release profile; run it
# pinned (`taskset -c 1 bash bench/tools/ab-one-process.sh ...`) on a quiet
# machine. Cases: see bench/tools/ab-probe/src/main.rs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
[[ $# -ge 1 ]] || { echo "usage: $0 BASE [ROUNDS [CASE...]]" >&2; exit 2; }
base=$1
shift
out=target/ab-one-process
mkdir -p "$out"
rm -rf "$out/base"
git worktree prune
git worktree add --quiet --detach "$out/base" "$base"
trap 'git worktree remove --force "$out/base"' EXIT
sed -i 's/^name = "hardware-aead"$/name = "hardware-aead-base"/' "$out/base/Cargo.toml"
cp Cargo.lock bench/tools/ab-probe/Cargo.lock
cargo build --release --quiet --manifest-path bench/tools/ab-probe/Cargo.toml --target-dir "$out/target"
echo "--- base $base ($(git rev-parse --short "$base")), head: the working tree"
"$out/target/release/ab-probe" "$@"
