#!/usr/bin/python3
"""Binding overhead of the Python package: hpart.partition_points from numpy against the C++ call
inside it, in one run on the same points.

Each repeat times the Python call from before the call to after it (barrier first, max over
ranks) and reads the C++ call's own time from the result (metrics.seconds: the wall time of
hpart::partition_points, max over ranks). Their ratio is what the binding adds: argument checks
and their agreement (one allreduce), the result's wrapping. The first call of a fresh process is
reported on its own (cold: first touch of fresh memory, first MPI connections).

    mpirun -np 2 /usr/bin/python3 scripts/bench_python.py --n 4000000 --parts 64 --reps 15 --json py.jsonl

Writes ../shared/BENCH.md records: library=hpart-python (the Python call) and library=hpart
(the C++ call inside it), case uniform3d, method hilbert, one line per (library, cold|warm).
"""
import argparse
import json
import os
import statistics
import sys
import time

import numpy as np
from mpi4py import MPI

import hpart


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=4_000_000, help="global points (default 4e6)")
    ap.add_argument("--parts", type=int, default=64)
    ap.add_argument("--reps", type=int, default=15, help="warm repeats (default 15)")
    ap.add_argument("--json", help="write JSON Lines records here (rank 0)")
    a = ap.parse_args()
    comm = MPI.COMM_WORLD
    lo, hi = a.n * comm.rank // comm.size, a.n * (comm.rank + 1) // comm.size
    xyz = np.random.default_rng(1000 + comm.rank).random((hi - lo, 3))

    def once():
        comm.Barrier()
        t0 = time.perf_counter()
        p = hpart.partition_points(xyz, parts=a.parts)
        t = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)
        return t, p.metrics.seconds, p.metrics.imbalance[0]

    cold = once()
    warm = [once() for _ in range(a.reps)]
    ratios = [w[0] / w[1] for w in warm]
    py_t = statistics.median(w[0] for w in warm)
    cpp_t = statistics.median(w[1] for w in warm)
    threads = int(os.environ.get("OMP_NUM_THREADS", "0")) or os.cpu_count()
    base = dict(suite="points", case="uniform3d", method="hilbert", n=a.n, parts=a.parts, ranks=comm.size,
                threads=threads)
    records = [
        dict(base, library="hpart-python", run="cold", time_s=cold[0], imbalance=cold[2]),
        dict(base, library="hpart", run="cold", time_s=cold[1], imbalance=cold[2]),
        dict(base, library="hpart-python", run="warm", time_s=py_t, reps=a.reps, imbalance=warm[-1][2],
             overhead_ratio_median=statistics.median(ratios), overhead_ratio_max=max(ratios)),
        dict(base, library="hpart", run="warm", time_s=cpp_t, reps=a.reps, imbalance=warm[-1][2]),
    ]
    if comm.rank == 0:
        print(f"points {a.n} -> {a.parts} parts, np {comm.size}, threads {threads}")
        print(f"  cold: python {cold[0]:.4f} s   C++ {cold[1]:.4f} s   ratio {cold[0] / cold[1]:.4f}")
        print(f"  warm (median of {a.reps}): python {py_t:.4f} s   C++ {cpp_t:.4f} s   "
              f"pair ratio median {statistics.median(ratios):.4f} (min {min(ratios):.4f}, max {max(ratios):.4f})")
        if a.json:
            with open(a.json, "w") as f:
                for r in records:
                    f.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
