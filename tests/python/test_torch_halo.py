"""hpart.torch.halo_exchange: halo values equal the padded global tensor's cells (zero or circular
padding), the backward is the adjoint (<H x, y> = <x, H^T y> summed over the ranks), gradcheck of
a stencil built on it, 2-D and 3-D, even and cost-balanced uneven shards, periodic or not, on
COMM_WORLD and a sub-communicator; bad input raises the same hpart.Error on every rank."""
import numpy as np
import pytest
import torch
from mpi4py import MPI

import hpart
import hpart.torch as ht

from conftest import every_rank_raises
from torch_cases import OnRootGrad, ReplicatedGrad

COMM = MPI.COMM_WORLD


def mesh_for(size, ndim):
    """A mesh of `size` ranks over the spatial axes: 2 x (size/2) when even, else a line."""
    if ndim == 4:
        return (1, 1, 2, size // 2) if size % 2 == 0 and size > 2 else (1, 1, size, 1)
    return (1, 1, size, 1, 1) if size % 2 else (1, 1, 2, 1, size // 2)


def global_tensor(shape, dtype, seed=5):
    return torch.from_numpy(np.random.default_rng(seed).standard_normal(shape)).to(dtype)


def padded_reference(g, halo, periodic):
    """The global tensor padded by `halo` on each spatial axis: circular where periodic, else zero."""
    out = g
    for i, (h, per) in enumerate(zip(halo, periodic[2:])):
        axis = 2 + i
        if h == 0:
            continue
        n = out.shape[axis]
        if per:
            lo = out.narrow(axis, n - h, h)
            hi = out.narrow(axis, 0, h)
        else:
            shp = list(out.shape)
            shp[axis] = h
            lo = hi = torch.zeros(shp, dtype=out.dtype)
        out = torch.cat([lo, out, hi], dim=axis)
    return out


def cost_layout(shape, mesh, comm, periodic, seed=3):
    """A layout balanced on a cost field that grows along the first spatial axis (uneven shards):
    each rank passes the costs of a block of rows of the first spatial axis."""
    sp = shape[2:]
    n0 = sp[0]
    lo, hi = n0 * comm.rank // comm.size, n0 * (comm.rank + 1) // comm.size
    rows = np.arange(lo, hi, dtype=np.float64)
    cost = np.ascontiguousarray(np.broadcast_to((1.0 + rows ** 2).reshape((-1,) + (1,) * (len(sp) - 1)),
                                                (hi - lo,) + tuple(sp[1:])))
    box = [(lo, hi)] + [(0, e) for e in sp[1:]]
    return ht.Layout.sharded(shape, mesh, periodic=periodic, cost=cost, cost_box=box, comm=comm)


def layouts(comm):
    """(name, layout, halo widths) cases for this communicator's size."""
    P = comm.size
    out = []
    for per in ((False, False), (True, True), (True, False)):
        L = ht.Layout.sharded((2, 3, 4 * P + 1, 7), mesh_for(P, 4), periodic=per, comm=comm)
        out.append((f"2d even per={per}", L, (1, 2)))
        L = cost_layout((1, 2, 6 * P + 2, 6), mesh_for(P, 4), comm, per)
        out.append((f"2d balanced per={per}", L, (1, 1)))
    for per in (False, True):
        L = ht.Layout.sharded((1, 2, 2 * P + 3, 4, 5), mesh_for(P, 5), periodic=per, comm=comm)
        out.append((f"3d per={per}", L, (1, 1, 1)))
    L = cost_layout((1, 1, 5 * P + 1, 3, 4), mesh_for(P, 5), comm, (False, True, False))
    out.append(("3d balanced", L, (1, 1, 1)))
    if P % 2 == 0:  # a batch of 1 cut in two: half the ranks hold empty shards
        L = ht.Layout.sharded((1, 2, 3 * P, 5), (2, 1, P // 2, 1), periodic=(True, False), comm=comm)
        out.append(("empty shards", L, (1, 1)))
    return out


def check_against_reference(comm, dtype):
    for name, L, halo in layouts(comm):
        g = global_tensor(L.shape, dtype)
        x = g[L.local_slices].contiguous()
        xh = ht.halo_exchange(x, L, halo)
        assert xh.shape == L.halo_shape(halo), name
        if L.empty:
            continue
        ref = padded_reference(g, halo, L.periodic)
        # The local slices of the padded tensor: the box shifted by the padding, grown by the halo.
        sl = L.local_slices[:2] + tuple(slice(s.start, s.stop + 2 * h) for s, h in zip(L.local_slices[2:], halo))
        assert torch.equal(xh, ref[sl]), name


def test_uneven_layouts_are_uneven():
    """The balanced layouts really are uneven (else the uneven cases would test nothing new)."""
    if COMM.size == 1:
        pytest.skip("one rank: one shard")
    for name, L, _ in layouts(COMM):
        if "balanced" in name:
            ext = L.extents[2]
            assert len(set(ext)) > 1, (name, ext)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_halo_equals_padded_global_tensor(dtype):
    check_against_reference(COMM, dtype)


def test_halo_on_sub_communicator():
    sub = COMM.Split(COMM.rank % 2, COMM.rank)
    check_against_reference(sub, torch.float64)
    # A layout's plans released before its communicator is freed; the layout then plans again.
    L = ht.Layout.sharded((1, 1, 4 * sub.size, 3), (1, 1, sub.size, 1), periodic=True, comm=sub)
    x = torch.ones(L.local_shape)
    buf = torch.zeros(L.halo_shape(1))
    for _ in range(8):
        ht.halo_exchange_(buf, L, 1)
    L.release()
    assert not L._halo_plans
    assert torch.equal(ht.halo_exchange(x, L, 1), torch.ones(L.halo_shape(1)))  # periodic: no padding
    L.release()
    sub.Free()


def test_adjoint_identity():
    """<H x, y> == <x, H^T y>, each side summed over the ranks; H^T y through autograd."""
    for name, L, halo in layouts(COMM):
        x = global_tensor(L.shape, torch.float64, 1)[L.local_slices].contiguous().requires_grad_()
        y = torch.from_numpy(np.random.default_rng(100 + COMM.rank).standard_normal(L.halo_shape(halo)))
        hx = ht.halo_exchange(x, L, halo)
        (hx * y).sum().backward()
        lhs = COMM.allreduce(float((hx.detach() * y).sum()))
        rhs = COMM.allreduce(float((x.detach() * x.grad).sum()))
        assert lhs == pytest.approx(rhs, rel=1e-12, abs=1e-12), name
        assert lhs != 0.0


@pytest.mark.parametrize("case", ["2d", "3d", "2d periodic balanced", "empty shards"])
def test_gradcheck_of_a_sharded_stencil(case):
    """The global function (slice -> halo exchange -> nonlinear stencil -> gather) checked by
    torch.autograd.gradcheck in float64 on every rank in lockstep (the same global input, whose
    gradient is summed over the ranks; the output's gradient counted on rank 0 only)."""
    P = COMM.size
    if case == "2d":
        L = ht.Layout.sharded((1, 2, 2 * P + 1, 4), mesh_for(P, 4))
    elif case == "3d":
        L = ht.Layout.sharded((1, 1, P + 2, 3, 3), mesh_for(P, 5), periodic=(False, True, False))
    elif case == "empty shards":
        L = ht.Layout.sharded((1, 1, 2 * P, 3), (2, 1, P // 2, 1) if P % 2 == 0 else mesh_for(P, 4))
    else:
        L = cost_layout((1, 1, 3 * P + 1, 4), mesh_for(P, 4), COMM, (True, True))
    sd = L.spatial_dims

    def stencil(xh):
        c = xh[(Ellipsis,) + (slice(1, -1),) * sd]
        lo = xh[(Ellipsis,) + (slice(0, -2),) + (slice(1, -1),) * (sd - 1)]
        hi = xh[(Ellipsis,) + (slice(1, -1),) * (sd - 1) + (slice(2, None),)]
        return c * lo + 0.5 * hi

    def f(g):
        x = ReplicatedGrad.apply(g)[L.local_slices].contiguous()
        y = stencil(ht.halo_exchange(x, L, 1))
        return OnRootGrad.apply(ht.gather(y.contiguous(), L))

    g = global_tensor(L.shape, torch.float64, 9).requires_grad_()
    assert torch.autograd.gradcheck(f, (g,), eps=1e-6, atol=1e-8, rtol=1e-7)


def test_in_place_exchange_equals_out_of_place():
    for name, L, halo in layouts(COMM):
        x = global_tensor(L.shape, torch.float64)[L.local_slices].contiguous()
        expect = ht.halo_exchange(x, L, halo)
        buf = torch.full(L.halo_shape(halo), 99.0, dtype=torch.float64)
        if not L.empty:
            buf[(slice(None), slice(None)) + tuple(slice(h, h + e) for h, e in zip(halo, L.local_shape[2:]))] = x
        for _ in range(3):  # the same buffer again: the plan's requests are reused
            out = ht.halo_exchange_(buf, L, halo)
            assert out.data_ptr() == buf.data_ptr()
            assert torch.equal(buf, expect), name
        # padding="assume_zero": the exchange leaves the padding alone (the caller's promise).
        zb = torch.zeros(L.halo_shape(halo), dtype=torch.float64)
        if not L.empty:
            zb[(slice(None), slice(None)) + tuple(slice(h, h + e) for h, e in zip(halo, L.local_shape[2:]))] = x
        assert torch.equal(ht.halo_exchange_(zb, L, halo, padding="assume_zero"), expect), name
        marked = torch.full(L.halo_shape(halo), 99.0, dtype=torch.float64)
        if not L.empty:
            marked[(slice(None), slice(None)) + tuple(slice(h, h + e) for h, e in zip(halo, L.local_shape[2:]))] = x
        ht.halo_exchange_(marked, L, halo, padding="assume_zero")
        padding_cells = int((expect == 0).sum())  # the values are random normals: no zero but the padding
        assert int((marked == 99.0).sum()) == padding_cells, name
        assert torch.equal(torch.where(marked == 99.0, torch.zeros_like(marked), marked), expect), name
        # Its backward: the adjoint on the haloed gradient.
        v = buf.clone().requires_grad_()
        w = v * 1.0
        ht.halo_exchange_(w, L, halo)
        gy = torch.from_numpy(np.random.default_rng(COMM.rank).standard_normal(L.halo_shape(halo)))
        (w * gy).sum().backward()
        lhs = COMM.allreduce(float((w.detach() * gy).sum()))
        rhs = COMM.allreduce(float((v.detach() * v.grad).sum()))
        assert lhs == pytest.approx(rhs, rel=1e-12, abs=1e-12), name


def test_reusing_a_saved_buffer_is_torchs_error_not_a_wrong_gradient():
    """halo_exchange_ bumps the buffer's version: a tensor autograd saved and then exchanged in
    place again makes backward raise instead of using overwritten values."""
    L = ht.Layout.sharded((1, 2, 4 * COMM.size, 6), mesh_for(COMM.size, 4))
    buf = torch.ones(L.halo_shape(1))
    w = torch.ones(L.halo_shape(1), requires_grad=True)
    y = (buf * w).sum()  # mul saves buf for w's gradient
    ht.halo_exchange_(buf, L, 1)
    with pytest.raises(RuntimeError, match="inplace"):
        y.backward()


def test_plans_are_cached():
    L = ht.Layout.sharded((1, 2, 4 * COMM.size, 6), mesh_for(COMM.size, 4))
    x = torch.ones(L.local_shape)
    ht.halo_exchange(x, L, 1)
    plans = dict(L._halo_plans)
    for _ in range(3):
        ht.halo_exchange(x, L, 1)
    assert L._halo_plans == plans and len(plans) == 1
    ht.halo_exchange(x.double(), L, 1)
    assert len(L._halo_plans) == 2


def test_bad_input_on_one_rank_is_every_ranks_error():
    P = COMM.size
    L = ht.Layout.sharded((1, 2, 2 * P, 6), mesh_for(P, 4))
    last = COMM.rank == P - 1
    good = torch.zeros(L.local_shape)

    def call(x=good, halo=1, layout=L):
        return lambda: ht.halo_exchange(x, layout, halo)

    bad_shape = torch.zeros(tuple(e + 1 for e in L.local_shape)) if last else good
    every_rank_raises(call(x=bad_shape), "has shape", COMM)
    if P > 1:
        every_rank_raises(call(x=good.double() if last else good), "dtype differs", COMM)
    every_rank_raises(call(x=good.to(torch.int32) if last else good), "dtype torch.int32", COMM)
    nc = torch.zeros(L.local_shape[::-1]).permute(3, 2, 1, 0) if last else good
    every_rank_raises(call(x=nc), "not contiguous", COMM)
    every_rank_raises(call(x=good.numpy() if last else good), "torch.Tensor", COMM)
    if P > 1:
        every_rank_raises(call(halo=2 if last else 1), "halo along H differs", COMM)
    every_rank_raises(call(halo=(1, 2, 3) if last else 1), "halo must be", COMM)
    xh = torch.zeros(L.halo_shape(1))
    every_rank_raises(lambda: ht.halo_exchange_(xh, L, 1, padding="maybe" if last else "zero"), "padding 'maybe'",
                      COMM)
    if P > 1:
        every_rank_raises(lambda: ht.halo_exchange_(xh, L, 1, padding="assume_zero" if last else "zero"),
                          "padding differs", COMM)
    # Wider than a neighbour's shard (rows are 2 per rank; H is cut whenever P > 1).
    if P > 1:
        every_rank_raises(call(halo=(min(L.extents[2]) + 1, 1)), "wider than shard", COMM)
    # A layout that is not the same on every rank (the other rank's layout has other boxes).
    other = ht.Layout.sharded((1, 2, 2 * P, 6), mesh_for(P, 4), split="uniform", align_levels=1)
    L3 = ht.Layout.sharded((1, 2, 3 * P, 6), mesh_for(P, 4))
    if P > 1:
        every_rank_raises(call(x=torch.zeros(L3.local_shape) if last else good, layout=L3 if last else L),
                          "layout", COMM)
    del other
