#!/usr/bin/env bash
# The main job on a built-in default: builds hpart, then at np 4
#  1. partitions a generated point set, migrates it, lets the load shift and rebalances (table);
#  2. partitions a 2D grid with a cost hotspot by every grid method and hierarchically (table,
#     pictures), and the same field as an AMR patch level;
#  3. runs the heat-diffusion example app briefly (per-step time and imbalance, rebalancing afresh
#     and by moving cut planes);
#  3b. runs the drifting-particles app partitioned once and with the Rebalancer deciding when
#     (feedback: measured step times -> model -> rebalance when it pays), and a short
#     domain-parallel CNN training on sharded tensors (if Kokkos was found);
#  4. runs the hpart CLI (points; and a shared graph by hpart and METIS when ../shared exists, then
#     rebalanced under a drifting load) on a generated 2D file: partition table, part file and a PNG picture.
#  5. installs hpart and builds a C program, a Fortran program and an unchanged ParMETIS caller
#     against the installed package with pkg-config alone, and runs each at np 4.
#  6. from Python (when the package was built): partitions numpy points with an mpi4py
#     communicator, then trains an unmodified torch model domain-parallel on hpart.torch shards.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build=${HPART_BUILD_DIR:-build}
mpi=(mpirun --oversubscribe --bind-to none)
[[ $(id -u) -eq 0 ]] && mpi+=(--allow-run-as-root)
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
"${mpi[@]}" -np 4 "$build/examples/basic/points_demo" --n "${HPART_DEMO_N:-2000000}" --parts 64
out="$build/demo"
mkdir -p "$out"
"${mpi[@]}" -np 4 "$build/examples/basic/grid_demo" --n 1024 --parts 16 --png "$out"
echo
echo "== hpart-heat: heat diffusion with a moving hot region, rebalanced every 5 steps (afresh, then by"
echo "   moving the cut planes of the last partition: --planes), then never =="
for run in "--rebalance-every 5" "--rebalance-every 5 --planes" "--rebalance-every 0"; do
  # shellcheck disable=SC2086  # $run holds several options
  "${mpi[@]}" -np 4 "$build/apps/heat/hpart-heat" --n 512 --steps 100 $run --print-every 25 --clock cpu
done
echo
echo "== hpart-particles: a drifting dense blob; partitioned once, then the Rebalancer decides when =="
for mode in static feedback; do
  "${mpi[@]}" -np 4 "$build/apps/particles/hpart-particles" --mode $mode --n 40000 --steps 200 --print-every 50
done
if [[ -x $build/apps/train/hpart-train ]]; then
  echo
  echo "== hpart-train: a CNN learning heat steps, one 512^2 sample sharded over 4 ranks (2x2 mesh) =="
  "${mpi[@]}" -np 4 "$build/apps/train/hpart-train" --n 512 --steps 10
fi
echo
echo "== hpart CLI: generate a clustered 2D point file, partition it, draw it =="
"${mpi[@]}" -np 4 "$build/apps/hpart/hpart" generate --shape clusters2d --n 500000 --out "$out/points.txt"
# gpmetis's form: FILE K, the part file FILE.part.K (the generated file declares its columns: '# x y w').
"${mpi[@]}" -np 4 "$build/apps/hpart/hpart" partition "$out/points.txt" 16 --png "$out/points.png"
echo
echo "== the promise: bad input on one rank is the same clear error on every rank (exit 2), never a hang =="
# The last line of a copy of the file gets a NaN: only the last rank reads it, every rank reports it.
{ head -n 1000 "$out/points.txt"; echo "0.5 nan"; } > "$out/bad_points.txt"
"${mpi[@]}" -np 4 "$build/apps/hpart/hpart" partition --points "$out/bad_points.txt" --parts 4 --quiet \
  && echo "(unexpected: no error)" || echo "-> mpirun exits $?"
# More parts than memory allows is refused before anything is allocated (here with a 64 MiB limit).
HPART_MEMORY_LIMIT=64M "${mpi[@]}" -np 4 "$build/apps/hpart/hpart" partition --points "$out/points.txt" \
  --dim 2 --parts 16777216 --quiet && echo "(unexpected: no error)" || echo "-> mpirun exits $?"
# An unmet balance is kept and said: the first point weighs half of everything.
{ echo "0 0 1000"; head -n 999 "$out/points.txt" | awk '{print $1, $2, 1}'; } > "$out/heavy_points.txt"
"${mpi[@]}" -np 4 "$build/apps/hpart/hpart" partition --points "$out/heavy_points.txt" --dim 2 --parts 4 --quiet
echo
echo "== hpart CLI: a generated 2^18-vertex random geometric graph, converted to the binary format, partitioned"
echo "   with the three presets (fast, default, strong: cut against time) =="
"${mpi[@]}" -np 4 "$build/apps/hpart/hpart" generate --graph rgg2d --cells 256 --out "$out/rgg.graph"
"${mpi[@]}" -np 4 "$build/apps/hpart/hpart" convert "$out/rgg.graph" "$out/rgg.hgraph"
for preset in fast default strong; do
  "${mpi[@]}" -np 2 "$build/apps/hpart/hpart" partition "$out/rgg.hgraph" 32 -P $preset --no-out -q --json "$out/presets.jsonl"
done
/usr/bin/python3 -c 'import json,sys
for l in open(sys.argv[1]): r=json.loads(l); print("  %-14s edge_cut %7d  imbalance %.4f  %.3f s" % (r["method"], r["edge_cut"], r["imbalance"], r["time_s"]))' "$out/presets.jsonl"
echo
echo "== hpart CLI: a hierarchical grid partition (2 nodes x 2 ranks) written to HDF5 and read back =="
"${mpi[@]}" -np 4 "$build/apps/hpart/hpart" grid --extent 256,192 -k 16 --method hier --topology 2x2 --out "$out/grid_hier.h5" -q
"${mpi[@]}" -np 3 "$build/apps/hpart/hpart" evaluate --grid "$out/grid_hier.h5"
graph=../shared/data/graphs/delaunay_n15.graph
if [[ -f $graph ]]; then
  echo
  echo "== hpart CLI: a graph (32,768-vertex Delaunay mesh) into 64 parts, by hpart and by METIS =="
  for method in graph metis; do
    "${mpi[@]}" -np 4 "$build/apps/hpart/hpart" partition "$graph" 64 --method $method -o "$out/delaunay.$method.part"
  done
  echo
  echo "== hpart CLI: file workflows: METIS's part file measured by hpart; a skewed copy repartitioned =="
  "${mpi[@]}" -np 4 "$build/apps/hpart/hpart" evaluate "$graph" "$out/delaunay.metis.part"
  # The first 1,000 vertices moved to part 0: repartition restores the balance, moving little.
  awk 'NR <= 1000 {print 0; next} {print}' "$out/delaunay.graph.part" > "$out/delaunay.skewed.part"
  "${mpi[@]}" -np 4 "$build/apps/hpart/hpart" repartition "$graph" --from "$out/delaunay.skewed.part" \
    -o "$out/delaunay.repart.part" --json "$out/cli_runs.jsonl"
  echo
  echo "== hpart CLI: the same mesh under a drifting load, the Rebalancer deciding when to rebalance =="
  "${mpi[@]}" -np 4 "$build/apps/hpart/hpart" partition "$graph" 64 --drift 40 --no-out
fi
echo
echo "== simulation codes link it: hpart installed into build/demo/prefix; a C, a Fortran and an"
echo "   unchanged ParMETIS program built against it with pkg-config alone =="
prefix="$(cd "$out" && pwd)/prefix"  # absolute: it goes into the programs' run path
cmake --install "$build" --prefix "$prefix" >/dev/null
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "hpart $(pkg-config --modversion hpart): $(pkg-config --libs hpart)"
rpath="-Wl,-rpath,$prefix/lib"  # a prefix outside the loader's path: the programs carry it
# shellcheck disable=SC2046  # pkg-config's output is a list of flags
mpicc -std=c99 examples/c/partition.c -o "$out/hpart_c_example" $(pkg-config --cflags --libs hpart) "$rpath"
"${mpi[@]}" -np 4 "$out/hpart_c_example"
if pkg-config --exists hpart-fortran; then
  # shellcheck disable=SC2046
  mpifort examples/fortran/partition.f90 -o "$out/hpart_fortran_example" $(pkg-config --cflags --libs hpart-fortran) "$rpath"
  "${mpi[@]}" -np 4 "$out/hpart_fortran_example"
fi
if [[ -f $graph ]] && pkg-config --exists hpart-parmetis; then
  # shellcheck disable=SC2046
  mpicc examples/parmetis/parmetis_caller.c -o "$out/parmetis_caller" $(pkg-config --cflags --libs hpart-parmetis) "$rpath"
  echo "ParMETIS_V3_PartKway (libhpart_parmetis), the Delaunay mesh into 64 parts, ubvec 1.03:"
  "${mpi[@]}" -np 4 "$out/parmetis_caller" "$graph" 64 1.03
fi
if [[ -x "$build/apps/scaling/hpart-scaling-worker" ]]; then
  echo
  echo "== the scaling suite, short: every method at np 1, 2, 4 (small sizes), its deterministic figures"
  echo "   against the stored ci baseline; then the growth of bytes and collectives per rank with P from the"
  echo "   stored weak-scaling run to 64 ranks (docs/scaling.md) =="
  apps/scaling/hpart-scaling check --baseline apps/scaling/baselines/ci --mode strong --ranks 1,2,4 --size ci \
    --rounds 2 --passes 1 --machine-class ci --deterministic-only --worker "$build/apps/scaling/hpart-scaling-worker" \
    --out "$out/scaling"
  apps/scaling/hpart-scaling models docs/data/scaling/models_weak_ci_np64.jsonl --figures bytes_max,collectives_max \
    | grep -E "^\| (method|---|points|hier|halo)|^(Ready|Flagged)"
fi
if compgen -G "$build/python/hpart/_hpart*.so" >/dev/null; then
  echo
  echo "== from Python: hpart over numpy and mpi4py (examples/python/partition_points.py) =="
  PYTHONPATH="$build/python" "${mpi[@]}" -np 4 /usr/bin/python3 examples/python/partition_points.py --n 100000
  if PYTHONPATH="$build/python" /usr/bin/python3 -c "import hpart.torch" 2>/dev/null; then
    echo "== hpart.torch: hpart-train's heat CNN as a plain torch.nn.Module, one 256^2 sample per step"
    echo "   split over 4 ranks by a cost-balanced uneven layout (examples/python/train_heat.py) =="
    PYTHONPATH="$build/python" "${mpi[@]}" -np 4 /usr/bin/python3 examples/python/train_heat.py --n 256 --steps 8
  fi
fi
