#!/usr/bin/env bash
# The C library's 64 KiB copy out of uncached memory by destination offset
# relative to the source (mod 4 KiB), and into an L1-sized buffer: the copy
# an `io::Read` source makes into `stream::Reader`'s buffer. See
# bench/tools/copy_offsets.rs.
#
#   bash bench/tools/copy-offsets.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p target
rustc -O --edition 2024 bench/tools/copy_offsets.rs -o target/copy_offsets
taskset -c 1 target/copy_offsets 2>/dev/null || target/copy_offsets
