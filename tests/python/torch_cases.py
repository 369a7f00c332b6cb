"""Shared helpers of the hpart.torch op tests: layouts for any rank count, and the check that a
sharded op's forward and every gradient equal unsharded torch on the same weights."""
import numpy as np
import torch
from mpi4py import MPI

import hpart.torch as ht
from hpart.torch import ShardTensor

TOL = {torch.float64: 1e-12, torch.float32: 1e-5}


def meshes(comm, spatial):
    """Spatial meshes for comm.size ranks: slabs along the first and the last spatial axis, and
    a 2 x 2 grid at 4 ranks."""
    p = comm.size
    out = [(p,) + (1,) * (spatial - 1), (1,) * (spatial - 1) + (p,)]
    if p == 4:
        out.append((1,) * (spatial - 2) + (2, 2))
    return list(dict.fromkeys(out))


def uneven(n, p, align=1, least=2):
    """Explicit extents summing to n, growing along the axis (shard i about (i+1)/sum of n), each
    a multiple of `align` (but the last) and at least `least`."""
    if p == 1:
        return [n]
    tot = p * (p + 1) // 2
    least = min(least, n // p)
    ext = [max(least, (n * (i + 1) // tot) // align * align) for i in range(p - 1)]
    ext.append(n - sum(ext))
    assert ext[-1] >= least, (n, p, ext)
    return ext


def layout(shape, mesh, split="uniform", comm=None, **kw):
    """Layout.sharded over the spatial mesh; split "uniform", "uneven" (explicit growing extents)
    or "cost" (balanced from a cost field that rises along every axis: hpart picks the cuts)."""
    comm = comm or MPI.COMM_WORLD
    full_mesh = (1, 1) + tuple(mesh)
    align = 2 ** kw.get("align_levels", 0)
    if split == "uneven":
        kw.pop("align_levels", None)
        split = [None, None] + [uneven(n, p, align) for n, p in zip(shape[2:], mesh)]
    elif split == "cost":
        sp = shape[2:]
        grids = np.meshgrid(*[np.arange(n, dtype=np.float64) for n in sp], indexing="ij")
        cost = 1.0 + sum(grids)          # rising: the shards at the far end are thinner
        mine = comm.rank == 0            # rank 0 passes every cell's cost, the others none
        kw["cost"] = cost if mine else np.zeros((0,) * len(sp))
        kw["cost_box"] = [(0, n) if mine else (0, 0) for n in sp]
        split = "balanced"
    return ht.Layout.sharded(tuple(shape), full_mesh, split=split, comm=comm, **kw)


def rand(shape, dtype, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(tuple(shape), generator=g, dtype=dtype)


def param(shape, dtype, seed):
    return rand(shape, dtype, seed).requires_grad_()


def assert_close(got, want, dtype, what):
    err = (got.detach() - want.detach()).abs().max().item() if want.numel() else 0.0
    scale = want.detach().abs().max().item() if want.numel() else 1.0
    assert err <= TOL[dtype] * max(scale, 1e-300), f"{what}: max error {err:.3e}, scale {scale:.3e}"


def check_op(op, x, lay, params=(), what="op"):
    """op on the ShardTensor of x (layout lay) against op on x: the output (this rank's shard and
    the gathered whole), x's gradient and each parameter's, for a random output gradient."""
    dtype = x.dtype
    params = list(params)
    xr = x.clone().requires_grad_()
    yr = op(xr)
    gy = rand(yr.shape, dtype, 99)
    (yr * gy).sum().backward()
    want = [xr.grad] + [p.grad.clone() for p in params]
    for p in params:
        p.grad = None
    xs = x.clone().requires_grad_()
    y = op(ShardTensor.from_global(xs, lay))
    assert isinstance(y, ShardTensor), f"{what}: returned {type(y).__name__}"
    assert tuple(y.shape) == tuple(yr.shape), f"{what}: global shape {tuple(y.shape)} != {tuple(yr.shape)}"
    assert tuple(y.local.shape) == tuple(y.layout.local_shape)
    assert_close(y.local, yr[tuple(y.layout.local_slices)], dtype, f"{what}: forward shard")
    assert_close(y.full_tensor(), yr, dtype, f"{what}: full_tensor")
    (y * ShardTensor.from_global(gy, y.layout)).sum().backward()
    got = [xs.grad] + [p.grad for p in params]
    for i, (g, w) in enumerate(zip(got, want)):
        assert g is not None, f"{what}: gradient {i} missing"
        assert_close(g, w, dtype, f"{what}: gradient {'of the input' if i == 0 else f'of parameter {i}'}")
    for p in params:
        p.grad = None
    return y


class ReplicatedGrad(torch.autograd.Function):
    """For gradcheck of a collective function: a tensor every rank holds alike and slices its
    shard from. Identity forward; backward sums the gradient over COMM_WORLD, so every rank's
    gradient is the whole function's."""

    @staticmethod
    def forward(ctx, t):
        return t.view_as(t)

    @staticmethod
    def backward(ctx, g):
        g = g.contiguous().clone()
        MPI.COMM_WORLD.Allreduce(MPI.IN_PLACE, g.numpy())
        return g


class OnRootGrad(torch.autograd.Function):
    """For gradcheck of a collective function: identity whose backward keeps the gradient on rank
    0 only, so a gathered (replicated) output's loss counts once (gradcheck runs the same backward
    on every rank at once)."""

    @staticmethod
    def forward(ctx, t):
        return t.view_as(t)

    @staticmethod
    def backward(ctx, g):
        return g if MPI.COMM_WORLD.rank == 0 else torch.zeros_like(g)
