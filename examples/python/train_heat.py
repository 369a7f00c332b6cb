#!/usr/bin/python3
"""Domain-parallel training of an unmodified torch model with hpart.torch: the heat-step CNN of
hpart-train (docs/training.md) written as a plain torch.nn.Module, each sample split across the
ranks by a cost-balanced, uneven hpart layout.

    mpirun -np 4 /usr/bin/python3 examples/python/train_heat.py --n 256 --steps 20 --json train.jsonl

The model learns `--heat-steps` explicit heat steps (a 5-point stencil, zero boundary) from one
random field per step. Fields are made from their global cell index, so every rank count trains
on the same data, and the model's initial weights come from torch.manual_seed(--seed) on every
rank: the loss curve at np 4 equals np 1's (to rounding; in double within 1e-10, tested in ctest
python.train_heat). The layout cuts H and W over a 2-D process mesh (or H only with --mesh
slabs) where hpart's grid partitioner balances a cost field that is 4x heavier in a disc (the
"expensive region" of a simulation), so shards differ in size; --balance uniform cuts equal widths.

Each step prints (rank 0) and writes to --json one record: step, loss, time_s (max over ranks),
as hpart-train does (../shared/BENCH.md fields).
"""
import argparse
import json
import math
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from mpi4py import MPI

import hpart
import hpart.torch as ht
from hpart.torch.shard_tensor import ShardTensor


def field(seed, sample, cells):
    """Uniform in [-1, 1) from (seed, sample, global cell index): hpart-train's field_value
    (splitmix64), vectorised. uint64 arithmetic wraps, as in C++."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(sample + 1) * np.uint64(0xD1B54A32D192ED03)
        z = z + cells.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return 2.0 * (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53 - 1.0


def local_field(layout, seed, sample, dtype):
    """This rank's shard of sample `sample` (shape layout.local_shape), computed from global indices."""
    _, _, hs, ws = layout.local_slices
    n_w = layout.shape[3]
    rows = np.arange(hs.start, hs.stop, dtype=np.int64)[:, None]
    cols = np.arange(ws.start, ws.stop, dtype=np.int64)[None, :]
    v = field(seed, sample, rows * n_w + cols)
    return torch.from_numpy(np.ascontiguousarray(v)).to(dtype).reshape(layout.local_shape)


def cost_field(n, comm):
    """The balancing cost: this rank passes its block of rows of an n x n field that is 4x heavier
    in a disc of radius n/4 centred at (n/3, n/3). Returns (cost, cost_box)."""
    r0, r1 = n * comm.rank // comm.size, n * (comm.rank + 1) // comm.size
    i = np.arange(r0, r1)[:, None] + 0.5
    j = np.arange(n)[None, :] + 0.5
    inside = (i - n / 3) ** 2 + (j - n / 3) ** 2 < (n / 4) ** 2
    return np.ascontiguousarray(np.where(inside, 4.0, 1.0)), ((r0, r1), (0, n))


def mesh_of(ranks, kind):
    if kind == "slabs":
        return (1, 1, ranks, 1)
    ph = int(math.sqrt(ranks))
    while ranks % ph:
        ph -= 1
    return (1, 1, ranks // ph, ph)


class HeatCnn(nn.Module):
    """`depth` 3x3 convs 1 -> C -> ... -> C -> 1, GELU between them (hpart-train's --model cnn)."""

    def __init__(self, channels, depth):
        super().__init__()
        chans = [1] + [channels] * (depth - 1) + [1]
        self.convs = nn.ModuleList(nn.Conv2d(a, b, 3, padding=1) for a, b in zip(chans[:-1], chans[1:]))

    def forward(self, x):
        for k, conv in enumerate(self.convs):
            x = conv(x)
            if k + 1 < len(self.convs):
                x = F.gelu(x)
        return x


class HeatUnet(nn.Module):
    """One level of a U-Net: conv, 2x2 average pool, conv, transposed 2x2 conv back up, the skip
    concatenated on channels, a last conv (the sharded pool/upsample need 2-aligned shards)."""

    def __init__(self, channels):
        super().__init__()
        c = channels
        self.enc = nn.Conv2d(1, c, 3, padding=1)
        self.pool = nn.AvgPool2d(2)
        self.mid = nn.Conv2d(c, c, 3, padding=1)
        self.up = nn.ConvTranspose2d(c, c, 2, stride=2)
        self.norm = nn.GroupNorm(2, 2 * c)
        self.dec = nn.Conv2d(2 * c, 1, 3, padding=1)

    def forward(self, x):
        e = F.gelu(self.enc(x))
        m = F.gelu(self.mid(self.pool(e)))
        u = self.up(m)
        return self.dec(self.norm(torch.cat([e, u], dim=1)))


def heat_target(x, steps, alpha):
    """`steps` explicit heat steps of x: each a 3x3 conv with the 5-point stencil, zero padding."""
    a = alpha
    w = torch.tensor([[0, a, 0], [a, 1 - 4 * a, a], [0, a, 0]], dtype=x.dtype).reshape(1, 1, 3, 3)
    with torch.no_grad():
        for _ in range(steps):
            x = F.conv2d(x, w, padding=1)
    return x


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=256, help="cells per side of each sample (default 256)")
    ap.add_argument("--model", choices=["cnn", "unet"], default="cnn")
    ap.add_argument("--channels", type=int, default=8)
    ap.add_argument("--depth", type=int, default=3, help="cnn: number of 3x3 convs (default 3)")
    ap.add_argument("--heat-steps", type=int, default=3)
    ap.add_argument("--alpha", type=float, default=0.2, help="heat step coefficient (stable for <= 0.25)")
    ap.add_argument("--steps", type=int, default=20, help="training steps, one new sample each")
    ap.add_argument("--optimizer", choices=["adam", "sgd"], default="adam")
    ap.add_argument("--lr", type=float, default=0.0, help="0: adam 0.02, sgd 0.5")
    ap.add_argument("--mesh", choices=["grid", "slabs"], default="grid")
    ap.add_argument("--balance", choices=["cost", "uniform"], default="cost")
    ap.add_argument("--precision", choices=["double", "float"], default="double")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", help="one JSON record per step (rank 0 writes)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    comm = MPI.COMM_WORLD
    dtype = torch.float64 if a.precision == "double" else torch.float32
    threads = torch.get_num_threads()

    shape = (1, 1, a.n, a.n)
    mesh = mesh_of(comm.size, a.mesh)
    align = 1 if a.model == "unet" else 0
    if a.balance == "cost":
        cost, box = cost_field(a.n, comm)
        layout = ht.Layout.sharded(shape, mesh, split="balanced", cost=cost, cost_box=box, align_levels=align, comm=comm)
    else:
        layout = ht.Layout.sharded(shape, mesh, split="uniform", align_levels=align, comm=comm)
    local_cells = comm.gather(int(np.prod(layout.local_shape)), root=0)

    torch.manual_seed(a.seed)
    model = (HeatCnn(a.channels, a.depth) if a.model == "cnn" else HeatUnet(a.channels)).to(dtype)
    lr = a.lr or (0.02 if a.optimizer == "adam" else 0.5)
    opt = torch.optim.Adam(model.parameters(), lr=lr) if a.optimizer == "adam" else torch.optim.SGD(model.parameters(), lr=lr)

    out = open(a.json, "w") if (a.json and comm.rank == 0) else None
    if comm.rank == 0 and not a.quiet:
        print(f"train_heat: {a.model}, {a.n}^2 samples on {comm.size} ranks (mesh {mesh[2]}x{mesh[3]}, "
              f"{a.balance} split: local cells {min(local_cells)}..{max(local_cells)}), {a.precision}, "
              f"{sum(p.numel() for p in model.parameters())} parameters")
    for step in range(a.steps):
        comm.Barrier()
        t0 = time.perf_counter()
        x = ShardTensor(local_field(layout, a.seed, step, dtype), layout)
        target = heat_target(x, a.heat_steps, a.alpha)
        opt.zero_grad()
        loss = F.mse_loss(model(x), target)
        loss.backward()
        opt.step()
        dt = comm.allreduce(time.perf_counter() - t0, op=MPI.MAX)
        value = float(loss)
        if comm.rank == 0:
            if not a.quiet:
                print(f"step {step:4d}  loss {value:.15e}  {dt:.3f} s")
            if out:
                out.write(json.dumps(dict(suite="train", case=f"heat_{a.model}", library="hpart-torch", n=a.n,
                                          ranks=comm.size, threads=threads, precision=a.precision,
                                          balance=a.balance, step=step, loss=value, time_s=dt)) + "\n")
                out.flush()
    if out:
        out.close()


if __name__ == "__main__":
    main()
