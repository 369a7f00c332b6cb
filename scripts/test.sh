#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs the whole suite (unit tests, MPI tests
# at np 1-4, CLI tests, the installed-package consumer build).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
ctest --test-dir "${HPART_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" --timeout 600
