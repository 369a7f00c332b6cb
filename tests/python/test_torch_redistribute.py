"""hpart.torch.scatter / gather / redistribute: exact round trips (float32 and float64, 2-D and
3-D, even and cost-balanced uneven layouts, replicated and single-rank layouts, a
sub-communicator), the backward is the adjoint (<R x, y> = <x, R^T y> over every rank's cells),
gradcheck of a chain, and bad input raises the same hpart.Error on every rank."""
import numpy as np
import pytest
import torch
from mpi4py import MPI

import hpart
import hpart.torch as ht

from conftest import every_rank_raises
from torch_cases import OnRootGrad, ReplicatedGrad

COMM = MPI.COMM_WORLD


def global_tensor(shape, dtype=torch.float64, seed=7):
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape)).to(dtype)


def balanced(shape, mesh, comm):
    """Uneven shards from a cost field growing along the first spatial axis."""
    sp = shape[2:]
    lo, hi = sp[0] * comm.rank // comm.size, sp[0] * (comm.rank + 1) // comm.size
    rows = 1.0 + np.arange(lo, hi, dtype=np.float64) ** 3
    cost = np.ascontiguousarray(np.broadcast_to(rows.reshape((-1,) + (1,) * (len(sp) - 1)),
                                                (hi - lo,) + tuple(sp[1:])))
    return ht.Layout.sharded(shape, mesh, cost=cost, cost_box=[(lo, hi)] + [(0, e) for e in sp[1:]], comm=comm)


def layout_set(comm, ndim):
    """Several layouts of one global tensor: slabs, blocks (or columns), balanced, replicated, on a rank."""
    P = comm.size
    if ndim == 4:
        shape = (2, 3, 6 * P + 1, 5 + P)
        slabs, other = (1, 1, P, 1), ((1, 1, 2, P // 2) if P % 2 == 0 and P > 2 else (1, 1, 1, P))
    else:
        shape = (1, 2, 3 * P + 1, 4, 3 + P)
        slabs, other = (1, 1, P, 1, 1), (1, 1, 1, 1, P)
    return shape, [ht.Layout.sharded(shape, slabs, comm=comm), ht.Layout.sharded(shape, other, comm=comm),
                   balanced(shape, slabs, comm), ht.Layout.replicated(shape, comm=comm),
                   ht.Layout.on_rank(shape, root=P - 1, comm=comm)]


@pytest.mark.parametrize("ndim", [4, 5])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_scatter_gather_redistribute_are_exact(ndim, dtype):
    shape, layouts = layout_set(COMM, ndim)
    g = global_tensor(shape, dtype)
    for root in {0, COMM.size - 1}:
        for L in layouts:
            x = ht.scatter(g if COMM.rank == root else None, L, root=root)
            assert x.dtype == dtype and torch.equal(x, g[L.local_slices])
            assert torch.equal(ht.gather(x, L), g)
            whole = ht.gather(x, L, root=root)
            assert torch.equal(whole, g) if COMM.rank == root else whole.numel() == 0
    for A in layouts:
        for B in layouts:
            y = ht.redistribute(g[A.local_slices].contiguous(), A, B)
            assert torch.equal(y, g[B.local_slices])


def test_sub_communicator_round_trip():
    sub = COMM.Split(COMM.rank % 2, COMM.rank)
    shape, layouts = layout_set(sub, 4)
    g = global_tensor(shape)
    for A in layouts:
        x = ht.scatter(g if sub.rank == 0 else None, A)
        B = layouts[(layouts.index(A) + 1) % len(layouts)]
        assert torch.equal(ht.gather(ht.redistribute(x, A, B), B), g)


def test_adjoint_identity():
    """<R x, y> == <x, R^T y> over every rank's cells (replicas included), R^T y through autograd."""
    shape, layouts = layout_set(COMM, 4)
    for A in layouts:
        for B in layouts:
            x = torch.from_numpy(np.random.default_rng(COMM.rank).standard_normal(A.local_shape)).requires_grad_()
            y = torch.from_numpy(np.random.default_rng(50 + COMM.rank).standard_normal(B.local_shape))
            rx = ht.redistribute(x, A, B)
            (rx * y).sum().backward()
            lhs = COMM.allreduce(float((rx.detach() * y).sum()))
            rhs = COMM.allreduce(float((x.detach() * x.grad).sum()))
            assert lhs == pytest.approx(rhs, rel=1e-12, abs=1e-12), (A, B)


def test_scatter_gradient_is_gathered_on_root():
    shape, layouts = layout_set(COMM, 4)
    L = layouts[2]
    root = COMM.size - 1
    g = global_tensor(shape).requires_grad_()
    w = global_tensor(shape, seed=3)
    x = ht.scatter(g if COMM.rank == root else None, L, root=root)
    assert x.requires_grad  # on every rank, so that every rank runs the (collective) backward
    (x * w[L.local_slices]).sum().backward()
    if COMM.rank == root:
        assert torch.equal(g.grad, w)
    else:
        assert g.grad is None


def test_gather_to_every_rank_sums_the_ranks_gradients():
    """The adjoint of a gather to every rank: each cell's gradient is the sum over the ranks'
    copies (a loss computed alike on every rank counts size times: divide it, or see
    ShardTensor.full_tensor for DTensor's convention)."""
    shape, layouts = layout_set(COMM, 4)
    L = layouts[1]
    x = global_tensor(shape)[L.local_slices].contiguous().requires_grad_()
    whole = ht.gather(x, L)
    (whole * (COMM.rank + 1)).sum().backward()
    assert torch.equal(x.grad, torch.full(L.local_shape, float(sum(range(1, COMM.size + 1))), dtype=x.dtype))


def test_gradcheck_of_a_chain():
    """slice -> redistribute (slabs -> balanced -> columns) with a nonlinearity -> gather, by
    gradcheck in lockstep on every rank (input gradient summed over the ranks, output's counted
    on rank 0)."""
    P = COMM.size
    shape = (1, 2, 2 * P + 1, P + 2)
    A = ht.Layout.sharded(shape, (1, 1, P, 1))
    B = balanced(shape, (1, 1, P, 1), COMM)
    C = ht.Layout.sharded(shape, (1, 1, 1, P))

    def f(g):
        x = ReplicatedGrad.apply(g)[A.local_slices].contiguous()
        y = ht.redistribute(x, A, B)
        z = ht.redistribute((y * y).contiguous(), B, C)
        return OnRootGrad.apply(ht.gather(z, C))

    g = global_tensor(shape, seed=11).requires_grad_()
    assert torch.autograd.gradcheck(f, (g,), eps=1e-6, atol=1e-8, rtol=1e-7)


def test_bad_input_on_one_rank_is_every_ranks_error():
    P = COMM.size
    last = COMM.rank == P - 1
    shape, layouts = layout_set(COMM, 4)
    A, B = layouts[0], layouts[1]
    good = torch.zeros(A.local_shape)
    every_rank_raises(lambda: ht.redistribute(torch.zeros(5) if last else good, A, B), "has shape", COMM)
    every_rank_raises(lambda: ht.redistribute(good.to(torch.int64) if last else good, A, B), "dtype", COMM)
    nc = torch.zeros(A.local_shape[::-1]).permute(3, 2, 1, 0) if last else good
    assert nc.shape == good.shape and nc.is_contiguous() == (not last)
    every_rank_raises(lambda: ht.redistribute(nc, A, B), "not contiguous", COMM)
    other = ht.Layout.sharded((1, 1, 2 * P, 2), (1, 1, P, 1))
    every_rank_raises(lambda: ht.redistribute(good, A, other), "shapes", COMM)
    if P > 1:
        every_rank_raises(lambda: ht.redistribute(good.double() if last else good, A, B), "dtype differs", COMM)
        every_rank_raises(lambda: ht.redistribute(good, A, B if not last else layouts[2]), "target layout", COMM)
    bad_root = torch.zeros(3) if COMM.rank == 0 else None
    every_rank_raises(lambda: ht.scatter(bad_root, A, root=0), "has shape", COMM)
    every_rank_raises(lambda: ht.scatter(None, A, root=0), "torch.Tensor", COMM)
    every_rank_raises(lambda: ht.gather(torch.zeros(2) if last else good, A), "has shape", COMM)
