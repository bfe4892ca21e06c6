#!/usr/bin/env bash
# The crate's public items (every feature on), from rustdoc's JSON output,
# against the committed list scripts/public-api.txt: a renamed, added or
# removed public item fails the check until the list is rewritten and
# committed with it. See scripts/public_api.py for what a line holds.
#
#   bash scripts/public-api.sh           # check
#   bash scripts/public-api.sh --write   # rewrite scripts/public-api.txt
#
# rustdoc's JSON output is unstable: a nightly toolchain, or stable with
# RUSTC_BOOTSTRAP=1 where none is installed (as .ci/run's nightly sections).
set -euo pipefail
cd "$(dirname "$0")/.."
if cargo +nightly --version >/dev/null 2>&1; then
    rustdoc_json() { cargo +nightly rustdoc "$@"; }
else
    rustdoc_json() { RUSTC_BOOTSTRAP=1 cargo rustdoc "$@"; }
fi
rustdoc_json --quiet --lib --all-features --target-dir target/public-api \
    -- -Z unstable-options --output-format json
mode=--check
[[ ${1:-} == --write ]] && mode=--write
python3 scripts/public_api.py target/public-api/doc/hardware_aead.json "$mode" scripts/public-api.txt
