#!/usr/bin/python3
"""hpart from Python: partition a distributed point cloud, then check the result.

    mpirun -np 4 /usr/bin/python3 examples/python/partition_points.py [--n 200000] [--parts 16]

Each rank generates its own points (a clustered cloud), hpart partitions them along a Hilbert
curve (collective, no gathering), and rank 0 prints the balance. A deliberate bad call at the end
shows the promise: one rank's float32 array is every rank's hpart.Error, never a hang.
"""
import argparse

import numpy as np
from mpi4py import MPI

import hpart


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=200_000, help="points per rank")
    ap.add_argument("--parts", type=int, default=16)
    a = ap.parse_args()
    comm = MPI.COMM_WORLD
    rng = np.random.default_rng(comm.rank)
    centres = rng.random((8, 3))
    xyz = centres[rng.integers(0, 8, a.n)] + 0.05 * rng.standard_normal((a.n, 3))
    weights = 1.0 + rng.pareto(3.0, a.n)

    p = hpart.partition_points(xyz, parts=a.parts, weights=weights, comm=comm)
    counts = np.bincount(p.parts, minlength=a.parts)
    comm.Allreduce(MPI.IN_PLACE, counts)
    assert (counts == p.part_sizes).all() and counts.sum() == a.n * comm.size
    if comm.rank == 0:
        print(f"hpart {hpart.__version__} from {hpart.__file__}")
        print(f"{a.n * comm.size} weighted points on {comm.size} ranks -> {p.num_parts} parts: "
              f"imbalance {p.metrics.imbalance[0]:.2e}, {p.metrics.seconds:.3f} s")

    bad = xyz.astype(np.float32) if comm.rank == comm.size - 1 else xyz
    try:
        hpart.partition_points(bad, parts=a.parts, comm=comm)
    except hpart.Error as e:
        if comm.rank == 0:
            print(f"hpart.Error on every rank ({e.code}): {e}    <- the example's deliberate bad call")


if __name__ == "__main__":
    main()
