#!/usr/bin/env bash
# The bulk floor of an AES-NI + PCLMULQDQ GCM loop on this CPU, in cycles per
# block, timed by the clock (no hardware counters needed): see
# bench/tools/gcm_floor.rs for what each pattern holds.
#
#   bash bench/tools/gcm-floor.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p target
rustc -O --edition 2024 bench/tools/gcm_floor.rs -o target/gcm_floor
target/gcm_floor
