#!/usr/bin/python3
"""Sharded conv2d under hpart.torch: forward + backward of nn.Conv2d(C, C, 3, padding=1) on a
(1, C, n, n) float32 tensor, in one mpirun -np 2 run, interleaved:
  - plain:   torch's own conv on the whole tensor, one rank (the other waits), no hpart;
  - np1:     the same conv on a ShardTensor over a one-rank layout (hpart.torch on COMM_SELF);
  - np2:     the same conv on a ShardTensor split over both ranks (mesh 1 x 1 x 2 x 1: H halved);
  - floor2:  torch's own conv on each rank's half at once, no halo, no hpart (library=floor): what
             two ranks of this machine can do at best, so np1/floor2 is the speedup available.
Forward + backward = y = conv(x); y.backward(dy): the halo exchange, the conv, its adjoint and the
weight-gradient sum over the ranks. Reports medians over --reps rounds and the ratios the issue
names: np1/np2 (strong-scaling speedup, target >= 1.7) and np1/plain (one-rank overhead, target
<= 1.10). The first round is reported on its own (cold).

    OMP_NUM_THREADS=1 mpirun -np 2 /usr/bin/python3 scripts/bench_torch.py --n 2048 --channels 16 --json conv.jsonl
"""
import argparse
import json
import statistics
import sys
import time

import torch
import torch.nn as nn
from mpi4py import MPI

import hpart.torch as ht
from hpart.torch.shard_tensor import ShardTensor


def timed(comm, fn):
    comm.Barrier()
    t0 = time.perf_counter()
    fn()
    return comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--channels", type=int, default=16)
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--json")
    a = ap.parse_args()
    world = MPI.COMM_WORLD
    if world.size != 2:
        sys.exit("run with mpirun -np 2")
    torch.set_num_threads(1)
    shape = (1, a.channels, a.n, a.n)
    torch.manual_seed(0)
    conv = nn.Conv2d(a.channels, a.channels, 3, padding=1)
    whole = torch.randn(shape) if world.rank == 0 else None
    dwhole = torch.randn(shape) if world.rank == 0 else None

    L2 = ht.Layout.sharded(shape, (1, 1, 2, 1), split="uniform", comm=world)
    sl = L2.local_slices
    full = torch.randn(shape, generator=torch.Generator().manual_seed(1))
    x2 = full[sl].contiguous().requires_grad_()
    dy2 = torch.randn(L2.local_shape)
    if world.rank == 0:
        L1 = ht.Layout.sharded(shape, (1, 1, 1, 1), split="uniform", comm=MPI.COMM_SELF)
        x1 = whole.clone().requires_grad_()
        xp = whole.clone().requires_grad_()

    def plain():
        if world.rank == 0:
            conv(xp).backward(dwhole)

    def np1():
        if world.rank == 0:
            conv(ShardTensor(x1, L1)).local.backward(dwhole)

    def np2():
        conv(ShardTensor(x2, L2)).local.backward(dy2)

    xf = x2.detach().clone().requires_grad_()

    def floor2():
        conv(xf).backward(dy2)

    times = {"plain": [], "np1": [], "np2": [], "floor2": []}
    cold = {}
    for r in range(a.reps + 1):
        for name, fn in (("plain", plain), ("np1", np1), ("np2", np2), ("floor2", floor2)):
            t = timed(world, fn)
            if r == 0:
                cold[name] = t
            else:
                times[name].append(t)
    med = {k: statistics.median(v) for k, v in times.items()}
    if world.rank == 0:
        print(f"conv2d fwd+bwd, (1, {a.channels}, {a.n}, {a.n}) float32, 1 thread per rank, median of {a.reps}:")
        for k in ("plain", "np1", "np2", "floor2"):
            print(f"  {k:6s} {med[k]:.4f} s   (cold {cold[k]:.4f} s)")
        print(f"  speedup np1 -> np2: {med['np1'] / med['np2']:.3f}x    one-rank overhead np1 / plain: "
              f"{med['np1'] / med['plain']:.3f}x    available np1 / floor2: {med['np1'] / med['floor2']:.3f}x")
        if a.json:
            with open(a.json, "w") as f:
                for k, ranks, lib in (("plain", 1, "torch"), ("np1", 1, "hpart-torch"), ("np2", 2, "hpart-torch"),
                                      ("floor2", 2, "floor")):
                    f.write(json.dumps(dict(suite="tensor", case=f"conv2d_{a.n}x{a.channels}", library=lib,
                                            method="conv2d_fwd_bwd", n=a.n * a.n * a.channels, ranks=ranks,
                                            threads=1, time_s=med[k], cold_time_s=cold[k], reps=a.reps)) + "\n")


if __name__ == "__main__":
    main()
