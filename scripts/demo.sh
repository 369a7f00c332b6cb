#!/usr/bin/env bash
# The main job on a built-in default: builds hpart, then at np 4 partitions a generated point
# set, migrates it, lets the load shift and rebalances, printing a table each time.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build=${HPART_BUILD_DIR:-build}
mpi=(mpirun --oversubscribe --bind-to none)
[[ $(id -u) -eq 0 ]] && mpi+=(--allow-run-as-root)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
"${mpi[@]}" -np 4 "$build/examples/basic/points_demo" --n "${HPART_DEMO_N:-2000000}" --parts 64
