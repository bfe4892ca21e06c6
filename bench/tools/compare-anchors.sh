#!/usr/bin/env bash
# bench/tools/compare-anchors.sh [RUNS] [SIZES]
#
# Runs ../shared/tools/compare-anchors.sh (this crate beside ring, aws-lc-rs and
# haberdashery, one process per algorithm, pinned to one core) against this checkout.
# The shared harness reaches the crate through the names it had before 0.9's renames
# (`Backend`, `with_backend`, `backend()`); this wrapper runs a copy of the shared tools
# with those three names mapped to `Tier`, `with_tier` and `tier()`. Nothing else in the
# harness changes. Run from the repository root; same arguments as the shared script.
set -euo pipefail
shared=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../shared/tools" && pwd -P)
copy=/tmp/anchor-tools-copy
mkdir -p "$copy"
# Copy only what changed, so the harness's build stays warm between runs.
(cd "$shared" && find . -type f -not -path '*/target/*' -print0) |
  while IFS= read -r -d '' f; do
    cmp -s "$shared/$f" "$copy/$f" 2>/dev/null || { mkdir -p "$(dirname "$copy/$f")" && cp -p "$shared/$f" "$copy/$f"; }
  done
chmod -R u+w "$copy"
sed -i -e 's/use hardware_aead::Backend;/use hardware_aead::Tier as Backend;/' \
  -e 's/hardware_aead::Backend/hardware_aead::Tier/g' \
  -e 's/with_backend(/with_tier(/g' -e 's/self\.backend()/self.tier()/' \
  "$copy/anchors/bench/src/project.rs"
exec bash "$copy/compare-anchors.sh" "$@"
