#!/usr/bin/env bash
# Configures and builds hpart into ${HPART_BUILD_DIR:-build} (Release). Used by demo.sh and test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
"$(pwd)/scripts/install-deps.sh"
build=${HPART_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build" -j "$(nproc)"
