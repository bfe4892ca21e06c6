#!/usr/bin/env bash
# Instructions per AES-GCM or AES-GCM-SIV call on aarch64, a base revision's build
# against the working tree's, counted under qemu (no aarch64 machine here
# to time them): bench/tools/aarch64-icount runs one call N times under
# `qemu-aarch64-static -cpu max -singlestep -d exec,nochain`, which logs a
# line per executed instruction, once with N = 1 and once with N = 11; a
# tenth of the difference is one call, from the API to its return.
#
#   [ALGS="gcm128 gcm256 siv128 siv256"] bash bench/tools/aarch64-icount.sh BASE [LEN...]
#
# Needs the aarch64 target, aarch64-linux-gnu-gcc and qemu-aarch64-static
# (CI's aarch64 job installs them). Default lengths: 0 16 32 64 100 128.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
[[ $# -ge 1 ]] || { echo "usage: $0 BASE [LEN...]" >&2; exit 2; }
base=$1
shift
lens=("$@")
[[ ${#lens[@]} -gt 0 ]] || lens=(0 16 32 64 100 128)
out=target/aarch64-icount
mkdir -p "$out"
rm -rf "$out/base"
git worktree prune
git worktree add --quiet --detach "$out/base" "$base"
trap 'git worktree remove --force "$out/base"' EXIT
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
build() {
    local tree=$1 stem=$2
    mkdir -p "$out/$stem-src"
    cp -r bench/tools/aarch64-icount/. "$out/$stem-src/"
    sed -i "s#path = \"../../..\"#path = \"$(cd "$tree" && pwd -P)\"#" "$out/$stem-src/Cargo.toml"
    cp Cargo.lock "$out/$stem-src/Cargo.lock"
    cargo build --release --quiet --target aarch64-unknown-linux-gnu \
        --manifest-path "$out/$stem-src/Cargo.toml" --target-dir "$out/$stem-target"
    cp "$out/$stem-target/aarch64-unknown-linux-gnu/release/aarch64-icount" "$out/$stem-bin"
}
build "$out/base" base
build . head
count() {
    qemu-aarch64-static -cpu max -L /usr/aarch64-linux-gnu -singlestep -d exec,nochain \
        -D "$out/trace.log" "$out/$1-bin" "$2" "$3" "$4" "$5" >/dev/null
    grep -c Trace "$out/trace.log"
}
echo "--- instructions per call, base $base ($(git rev-parse --short "$base")) and the working tree"
read -r -a algs <<<"${ALGS:-siv128 siv256}"
for alg in "${algs[@]}"; do
    for op in seal open; do
        for len in "${lens[@]}"; do
            b=$(( ($(count base $alg $op "$len" 11) - $(count base $alg $op "$len" 1)) / 10 ))
            h=$(( ($(count head $alg $op "$len" 11) - $(count head $alg $op "$len" 1)) / 10 ))
            awk -v a="$alg" -v o="$op" -v l="$len" -v b="$b" -v h="$h" \
                'BEGIN { printf "%s %s %4s B  base %5d  head %5d  head/base %.2f\n", a, o, l, b, h, h / b }'
        done
    done
done
