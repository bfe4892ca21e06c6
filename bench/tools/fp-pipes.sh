#!/usr/bin/env bash
# Where the stitched loops' cycles go, from the CPU's own counters.
#
#   bash bench/tools/fp-pipes.sh                      # cost of each instruction
#   bash bench/tools/fp-pipes.sh --loop avx512 aes256gcm seal 16384
#
# AMD Zen 5 only: PMC event 0x00 with unit masks 0x1, 0x2, 0x4, 0x8 counts
# the cycles each of the four FP/vector execution pipes is busy (the event
# is not in AMD's public list; PmcReader names it "FP pipes"). The first form
# runs bench/tools/fp_pipes.rs's patterns and prints, per instruction, the pipe
# cycles it takes and on which pipes; the second runs bench/examples/throughput.rs
# and prints, per 128 bytes, cycles, instructions and pipe cycles, and how
# busy the four pipes were. Needs `perf` with access to hardware counters.
set -euo pipefail
cd "$(dirname "$0")/../.."

if ! grep -q "AuthenticAMD" /proc/cpuinfo || [ "$(grep -m1 '^cpu family' /proc/cpuinfo | awk '{print $4}')" != 26 ]; then
    echo "fp-pipes: the FP-pipe events used here are AMD Zen 5's (family 26); this CPU is not" >&2
    exit 2
fi
# Five events at once, none multiplexed (the sixth counter does not take
# event 0x00 on Zen 5: it reads zero there).
events="cycles,cpu/event=0x0,umask=0x1/,cpu/event=0x0,umask=0x2/,cpu/event=0x0,umask=0x4/,cpu/event=0x0,umask=0x8/"

# Prints the counts of `perf stat -x,` (stdin) divided by $1, in order
# ("cycles p0 p1 p2 p3").
per() {
    awk -F, -v d="$1" '$1 ~ /^[0-9]+$/ { printf "%.2f ", $1 / d } END { print "" }'
}

if [ "${1:-}" = "--loop" ]; then
    shift
    [ $# -eq 4 ] || { echo "usage: fp-pipes.sh --loop <backend> <algorithm> <seal|open> <size>" >&2; exit 2; }
    cargo build -q --release -p hardware-aead-bench --example throughput
    bin=target/release/examples/throughput
    calls=$("$bin" "$@" | awk '{print $1}')
    units=$(python3 -c "print($calls * $4 / 128)")
    read -r cyc p0 p1 p2 p3 < <(perf stat -x, -e "$events" "$bin" "$@" 2>&1 >/dev/null | per "$units")
    read -r ins < <(perf stat -x, -e instructions "$bin" "$@" 2>&1 >/dev/null | per "$units")
    python3 - "$cyc" "$ins" "$p0" "$p1" "$p2" "$p3" "$*" <<'EOF'
import sys
cyc, ins, *p = map(float, sys.argv[1:7])
s = sum(p)
print(f"{sys.argv[7]}: per 128 bytes {cyc:.1f} cycles, {ins:.1f} instructions, "
      f"FP pipe cycles {s:.1f} (p0..p3 {' '.join(f'{x:.1f}' for x in p)}), "
      f"pipes {100 * s / (4 * cyc):.0f}% busy; {s / 4:.1f} cycles if all four were always busy")
EOF
    exit 0
fi

mkdir -p target
rustc -O --edition 2024 bench/tools/fp_pipes.rs -o target/fp_pipes
printf "%-12s %8s %10s   %s\n" pattern cycles/ins pipe-cyc/ins "p0 p1 p2 p3 (share)"
target/fp_pipes --list | while read -r name count what; do
    iterations=50000000
    read -r cyc p0 p1 p2 p3 < <(perf stat -x, -e "$events" target/fp_pipes "$name" 2>&1 >/dev/null | per $((iterations * count)))
    python3 - "$name" "$cyc" "$p0" "$p1" "$p2" "$p3" "$what" <<'EOF'
import sys
name, cyc, *rest = sys.argv[1:]
p = list(map(float, rest[:4]))
s = sum(p)
share = " ".join(f"{x / s:.2f}" if s else "-" for x in p)
print(f"{name:<12} {float(cyc):8.2f} {s:10.2f}   {share}   ({rest[4]})")
EOF
done
