#!/usr/bin/env bash
# Every x86_64 kernel entry point's instruction count, AES rounds and
# carry-less multiplies in a base revision and in the working tree, side by
# side (scripts/kernel_counts.py): the evidence that a refactoring changed no
# kernel. Builds scripts/ct-probe with the default release
# profile, as a user's program gets the crate, once from each tree.
#
#   bash scripts/kernel-counts.sh BASE [--tolerance 0.03]
#
# BASE is any git revision; its tree is checked out (detached) under
# target/kernel-counts/base. Exits 1 where an entry point changed beyond the
# tolerance or in its AES or multiply count.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[[ $# -ge 1 ]] || { echo "usage: $0 BASE [--tolerance T]" >&2; exit 2; }
base=$1
shift
out=target/kernel-counts
mkdir -p "$out"

build() {
    local tree=$1 stem=$2
    cp "$tree/Cargo.lock" "$tree/scripts/ct-probe/Cargo.lock"
    RUSTFLAGS="${RUSTFLAGS:-} -C symbol-mangling-version=v0" \
        cargo build --release --quiet --manifest-path "$tree/scripts/ct-probe/Cargo.toml" \
        --target-dir "$out/$stem-target"
    objdump -d --no-show-raw-insn -C "$out/$stem-target/release/ct-probe" >"$out/$stem.s"
    objdump -R "$out/$stem-target/release/ct-probe" >"$out/$stem.relocs"
}

rm -rf "$out/base"
git worktree prune
git worktree add --quiet --detach "$out/base" "$base"
trap 'git worktree remove --force "$out/base"' EXIT
echo "--- ct-probe at $base ($(git rev-parse --short "$base"))"
build "$out/base" before
echo "--- ct-probe in the working tree"
build . after
python3 scripts/kernel_counts.py "$out/before.s" "$out/after.s" "$@"
