"""hpart.torch on 1-D tensors (N, C, W): layouts (the C++ 2-D shape with H = 1), halo exchange,
scatter/gather/redistribute, and the sharded ops (conv1d, conv_transpose1d, avg/max pool1d,
linear/nearest interpolate, group_norm, pad, elementwise, losses): forward and every gradient
equal unsharded torch (double <= 1e-12, float <= 1e-5 relative), even, explicit uneven and
cost-balanced shards, zero and circular padding; a small nn.Sequential trained 2 steps equals the
unsharded one; bad input on one rank is every rank's hpart.Error. Run under mpirun at 1-4 ranks."""
import copy

import numpy as np
import pytest

torch = pytest.importorskip("torch")
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from mpi4py import MPI  # noqa: E402

import hpart  # noqa: E402
import hpart.torch as ht  # noqa: E402
from conftest import every_rank_raises  # noqa: E402
from torch_cases import OnRootGrad, ReplicatedGrad, ShardTensor, check_op, layout, param, rand  # noqa: E402

comm = MPI.COMM_WORLD
P = comm.size
D64, F32 = torch.float64, torch.float32
SPLITS = ["uniform", "uneven", "cost"]


@pytest.fixture(autouse=True)
def same_seed():
    torch.manual_seed(4321)


def lay1(w, split="uniform", c=(2, 3), **kw):
    """A (N, C, W) layout cut along W over every rank."""
    return layout(tuple(c) + (w,), (P,), split, **kw)


# -- layouts --------------------------------------------------------------------------------------
def test_layout_properties_in_three_axes():
    L = ht.Layout.sharded((2, 3, 4 * P + 1), (1, 1, P), periodic=True)
    assert L.shape == (2, 3, 4 * P + 1) and L.ndim == 3 and L.spatial_dims == 1
    assert L.mesh == (1, 1, P) and L.mesh_coords == (0, 0, comm.rank)
    assert L.periodic == (False, False, True)
    assert L.placements == (ht.Replicate(), ht.Replicate(), ht.Shard(2) if P > 1 else ht.Replicate())
    assert len(L.local_slices) == 3 and len(L.local_shape) == 3
    assert L.extents[:2] == [[2], [3]] and sum(L.extents[2]) == 4 * P + 1 and len(L.extents[2]) == P
    assert L.local_shape == (2, 3, L.extents[2][comm.rank])
    assert L.halo_shape(2) == L.halo_shape((2,)) == (2, 3, L.local_shape[2] + 4)
    # the shards cover W once, in rank order
    boxes = L.boxes()
    assert [b[2].start for b in boxes] == [sum(L.extents[2][:r]) for r in range(P)]
    assert boxes[-1][2].stop == 4 * P + 1 and all(b[:2] == (slice(0, 2), slice(0, 3)) for b in boxes)
    # other periodic forms, explicit extents, alignment, a balanced cost field
    assert ht.Layout.sharded((1, 1, 8), (1, 1, P), periodic=(True,)).periodic == (False, False, True)
    assert ht.Layout.sharded((1, 1, 8), (1, 1, P), periodic=(False, False, True)).periodic[2]
    ext = [3 * i + 2 for i in range(P)]
    E = ht.Layout.sharded((1, 2, sum(ext)), (1, 1, P), split=[None, None, ext])
    assert E.extents[2] == ext and E.local_shape == (1, 2, ext[comm.rank])
    A = ht.Layout.sharded((1, 1, 8 * P + 3), (1, 1, P), align_levels=2)
    assert all(e % 4 == 0 for e in A.extents[2][:-1])
    B = lay1(12 * P, "cost")          # cost rising along W: the far shards are thinner
    if P > 1:
        assert B.extents[2][0] > B.extents[2][-1]
    assert sum(B.extents[2]) == 12 * P
    # replicated and on_rank, and the 2-D twin (N, C, 1, W) is another layout
    R = ht.Layout.replicated((2, 3, 7))
    assert R.local_shape == (2, 3, 7) and R.mesh == (1, 1, 1)
    O = ht.Layout.on_rank((2, 3, 7), root=P - 1)
    assert O.local_shape == ((2, 3, 7) if comm.rank == P - 1 else (0, 0, 0))
    twin = ht.Layout.sharded((2, 3, 1, 4 * P + 1), (1, 1, 1, P), periodic=(False, True))
    assert twin != L and L == ht.Layout.sharded((2, 3, 4 * P + 1), (1, 1, P), periodic=True)


# -- halo exchange, scatter/gather/redistribute ------------------------------------------------------
def padded(g, h, periodic):
    if periodic:
        return torch.cat([g[..., g.shape[-1] - h:], g, g[..., :h]], -1)
    z = torch.zeros(g.shape[:-1] + (h,), dtype=g.dtype)
    return torch.cat([z, g, z], -1)


@pytest.mark.parametrize("dtype", [F32, D64])
def test_halo_exchange(dtype):
    for periodic in (False, True):
        for split in ("uniform", "cost"):
            L = lay1(5 * P + 1, split, periodic=periodic)
            g = rand(L.shape, dtype, 1)
            x = g[L.local_slices].contiguous().requires_grad_()
            for halo in (1, (2,)):
                h = halo if isinstance(halo, int) else halo[0]
                xh = ht.halo_exchange(x, L, halo)
                s = L.local_slices[2]
                assert torch.equal(xh, padded(g, h, periodic)[..., s.start:s.stop + 2 * h]), (periodic, split, halo)
                # in place into a kept buffer: the same values
                buf = torch.zeros(L.halo_shape(halo), dtype=dtype)
                buf[..., h:h + L.local_shape[2]] = x.detach()
                assert torch.equal(ht.halo_exchange_(buf, L, halo), xh.detach())
                # backward: the adjoint, <H x, y> = <x, H^T y> over the ranks
                y = rand(xh.shape, D64, 50 + comm.rank).to(dtype)
                x.grad = None
                (xh * y).sum().backward()
                lhs = comm.allreduce(float((xh.detach().double() * y.double()).sum()))
                rhs = comm.allreduce(float((x.detach().double() * x.grad.double()).sum()))
                assert lhs == pytest.approx(rhs, rel=1e-12 if dtype == D64 else 1e-5)


def test_halo_gradcheck():
    L = lay1(3 * P + 1, "uneven", c=(1, 2), periodic=True)

    def f(g):
        xh = ht.halo_exchange(ReplicatedGrad.apply(g)[L.local_slices].contiguous(), L, 1)
        y = (xh[..., 1:-1] * xh[..., :-2] + 0.5 * xh[..., 2:]).contiguous()
        return OnRootGrad.apply(ht.gather(y, L))

    g = rand(L.shape, D64, 3).requires_grad_()
    assert torch.autograd.gradcheck(f, (g,), eps=1e-6, atol=1e-8, rtol=1e-7)


@pytest.mark.parametrize("dtype", [F32, D64])
def test_scatter_gather_redistribute(dtype):
    shape = (2, 3, 6 * P + 1)
    layouts = [lay1(shape[2], s) for s in SPLITS] + [ht.Layout.replicated(shape), ht.Layout.on_rank(shape, P - 1)]
    g = rand(shape, dtype, 5)
    for L in layouts:
        x = ht.scatter(g if comm.rank == 0 else None, L)
        assert torch.equal(x, g[L.local_slices]) and torch.equal(ht.gather(x, L), g)
        for M in layouts:
            assert torch.equal(ht.redistribute(x, L, M), g[M.local_slices])
    # the backward of redistribute is its adjoint
    A, B = layouts[0], layouts[2]
    x = g[A.local_slices].contiguous().requires_grad_()
    y = ht.redistribute(x, A, B)
    gy = rand(y.shape, dtype, 60 + comm.rank)
    (y * gy).sum().backward()
    lhs = comm.allreduce(float((y.detach().double() * gy.double()).sum()))
    rhs = comm.allreduce(float((x.detach().double() * x.grad.double()).sum()))
    assert lhs == pytest.approx(rhs, rel=1e-12 if dtype == D64 else 1e-5)


# -- sharded ops ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [D64, F32])
@pytest.mark.parametrize("split", SPLITS)
def test_conv1d(dtype, split):
    x = rand((2, 3, 6 * P + 5), dtype, 10)
    lay = lay1(x.shape[2], split)
    for k, pad in ((3, 1), (5, 2), (5, 1), (3, 0), (1, 0)):
        w, b = param((4, 3, k), dtype, 11), param((4,), dtype, 12)
        check_op(lambda t: F.conv1d(t, w, b, padding=pad), x, lay, [w, b], f"conv1d k{k} p{pad} {split}")
    w = param((6, 1, 3), dtype, 13)
    check_op(lambda t: F.conv1d(t, w, None, padding="same", groups=3), x, lay, [w], f"conv1d groups {split}")
    # a periodic layout: zero padding (the wrapped halo zeroed at the global edges) and circular
    per = lay1(x.shape[2], split, periodic=True)
    zero = nn.Conv1d(3, 2, 3, padding=1).to(dtype)
    circ = nn.Conv1d(3, 2, 5, padding=2, padding_mode="circular").to(dtype)
    check_op(zero, x, per, list(zero.parameters()), f"zero-padded conv1d, periodic {split}")
    check_op(circ, x, per, list(circ.parameters()), f"circular conv1d {split}")


@pytest.mark.parametrize("dtype", [D64, F32])
def test_conv_transpose_pool_interpolate(dtype):
    x = rand((2, 3, 8 * P + 3), dtype, 20)
    t2 = nn.ConvTranspose1d(3, 4, 2, stride=2).to(dtype)
    t3 = nn.ConvTranspose1d(3, 2, 3, stride=3, bias=False).to(dtype)
    for split in SPLITS:
        lay = lay1(x.shape[2], split)
        check_op(t2, x, lay, list(t2.parameters()), f"conv_transpose1d k2 {split}")
        check_op(t3, x, lay, list(t3.parameters()), f"conv_transpose1d k3 {split}")
        check_op(nn.Upsample(scale_factor=2), x, lay, [], f"nearest x2 {split}")
        check_op(lambda t: F.interpolate(t, scale_factor=3, mode="nearest-exact"), x, lay, [], f"nearest-exact {split}")
        check_op(nn.Upsample(scale_factor=2, mode="linear"), x, lay, [], f"linear x2 {split}")
        check_op(lambda t: F.interpolate(t, size=3 * x.shape[2], mode="linear", align_corners=False), x, lay, [],
                 f"linear size {split}")
        # pooling on shards aligned to the kernel (the odd global end dropped as torch does)
        al = lay1(x.shape[2], split, align_levels=1)
        check_op(nn.MaxPool1d(2), x, al, [], f"max_pool1d {split}")
        check_op(nn.AvgPool1d(2), x, al, [], f"avg_pool1d {split}")
    per = lay1(x.shape[2], "uneven", periodic=True)
    check_op(lambda t: F.interpolate(t, scale_factor=3, mode="linear"), x, per, [], "linear periodic")


@pytest.mark.parametrize("dtype", [D64, F32])
def test_group_norm_pad_elementwise_losses(dtype):
    x = rand((2, 6, 5 * P + 4), dtype, 30) * 3 + 1
    for groups in (1, 3):
        gn = nn.GroupNorm(groups, 6).to(dtype)
        with torch.no_grad():
            gn.weight.copy_(rand((6,), dtype, 31))
            gn.bias.copy_(rand((6,), dtype, 32))
        for split in SPLITS:
            check_op(gn, x, lay1(x.shape[2], split, c=(2, 6)), list(gn.parameters()), f"group_norm {groups} {split}")
    scale, bias = param((1, 6, 1), dtype, 33), param((6, 1), dtype, 34)
    w = param((6, 6, 3), dtype, 35)
    for split in ("uniform", "uneven"):
        lay = lay1(x.shape[2], split, c=(2, 6))
        per = lay1(x.shape[2], split, c=(2, 6), periodic=True)
        check_op(lambda t: F.pad(t, (1, 2), value=0.5), x, lay, [], f"pad constant {split}")
        check_op(lambda t: F.pad(t, (2, 2), mode="circular"), x, per, [], f"pad circular {split}")
        check_op(lambda t: F.conv1d(F.pad(t, (1, 1), mode="circular"), w) * 2, x, per, [w], f"pad, conv {split}")
        check_op(lambda t: torch.cat([F.gelu(t), torch.sigmoid(t) - t / 3.0], 1) * scale.repeat(1, 2, 1)
                 + bias.repeat(2, 1), x, lay, [scale, bias], f"elementwise {split}")
        target = rand(x.shape, dtype, 36)
        for loss in (F.mse_loss, lambda a, b: F.l1_loss(a, b, reduction="sum")):
            xr = x.clone().requires_grad_()
            want = loss(xr * scale, target)
            want.backward()
            wg = [xr.grad, scale.grad.clone()]
            scale.grad = None
            xs = x.clone().requires_grad_()
            got = loss(ShardTensor.from_global(xs, lay) * scale, ShardTensor.from_global(target, lay))
            assert abs(got.item() - want.item()) <= (1e-12 if dtype == D64 else 1e-5) * abs(want.item())
            got.backward()
            for g, r in zip([xs.grad, scale.grad], wg):
                assert (g - r).abs().max() <= (1e-12 if dtype == D64 else 1e-5) * r.abs().max()
            scale.grad = None


@pytest.mark.parametrize("dtype,tol", [(D64, 1e-12), (F32, 1e-5)])
@pytest.mark.parametrize("split", ["uniform", "cost"])
def test_sequential_trains_like_unsharded(dtype, tol, split):
    torch.manual_seed(11)
    ref = nn.Sequential(nn.Conv1d(2, 4, 3, padding=1), nn.GroupNorm(2, 4), nn.ReLU(), nn.AvgPool1d(2),
                        nn.Conv1d(4, 4, 5, padding=2, padding_mode="circular"), nn.Tanh(),
                        nn.ConvTranspose1d(4, 4, 2, stride=2), nn.Conv1d(4, 1, 3, padding=1)).to(dtype)
    x, target = rand((2, 2, 12 * P), dtype, 40), rand((2, 1, 12 * P), dtype, 41)
    model, whole = copy.deepcopy(ref), copy.deepcopy(ref)
    lay = lay1(x.shape[2], split, c=(2, 2), periodic=True, align_levels=1)
    tlay = lay1(x.shape[2], split, c=(2, 1), periodic=True, align_levels=1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    opt_whole = torch.optim.SGD(whole.parameters(), lr=0.1, momentum=0.5)
    xs, ts = ShardTensor.from_global(x, lay), ShardTensor.from_global(target, tlay)
    for step in range(2):
        opt.zero_grad()
        opt_whole.zero_grad()
        loss, loss_whole = F.mse_loss(model(xs), ts), F.mse_loss(whole(x), target)
        loss.backward()
        loss_whole.backward()
        assert abs(loss.item() - loss_whole.item()) <= tol * abs(loss_whole.item()), step
        for (name, p), q in zip(model.named_parameters(), whole.parameters()):
            assert (p.grad - q.grad).abs().max() <= tol * q.grad.abs().max(), f"step {step}: {name}.grad"
        opt.step()
        opt_whole.step()
    for (name, p), q in zip(model.named_parameters(), whole.parameters()):
        assert (p - q).abs().max() <= tol * q.abs().max(), f"{name} after 2 steps"
    sums = comm.allgather([p.detach().sum().item() for p in model.parameters()])
    assert all(s == sums[0] for s in sums)


# -- bad input on one rank ----------------------------------------------------------------------------
def test_bad_input_on_one_rank():
    if P < 2:
        pytest.skip("needs 2 ranks")
    bad = comm.rank == P - 1
    # a 1-D layout on all ranks but one, which asks for its 2-D twin
    every_rank_raises(lambda: ht.Layout.sharded((1, 2, 1, 8 * P) if bad else (1, 2, 8 * P),
                                                (1, 1, 1, P) if bad else (1, 1, P)), "spatial axes", comm)
    every_rank_raises(lambda: ht.Layout.sharded((1, 2, 8 * P), (1, 1, P), cost=np.ones(3),
                                                cost_box=[(0, 3), (0, 1)] if bad else [(0, 3)]), "cost_box", comm)
    L = lay1(4 * P, c=(1, 2))
    x = rand(L.local_shape, D64, 50)
    every_rank_raises(lambda: ht.halo_exchange(x, L, (1, 1) if bad else 1), "halo must be", comm)
    every_rank_raises(lambda: ht.halo_exchange(x, L, (2,) if bad else (1,)), "halo along W differs", comm)
    every_rank_raises(lambda: ht.halo_exchange(x, L, 5), "wider than shard", comm)
    xs = ShardTensor.from_global(rand(L.shape, D64, 51), L)
    # misaligned pooling: shards of 4 cells, a kernel of 3 on one rank
    every_rank_raises(lambda: F.max_pool1d(xs, 3 if bad else 2), "not aligned", comm)
    every_rank_raises(lambda: F.avg_pool1d(xs, 3 if bad else 2), "not aligned", comm)
    every_rank_raises(lambda: F.conv1d(xs, param((2, 2, 2 if bad else 3), D64, 52)), "even extent", comm)
    every_rank_raises(lambda: F.conv1d(xs, param((2, 2, 11 if bad else 3), D64, 53), padding=1 if bad else 1),
                      "thinner than the kernel radius|padding", comm)
    every_rank_raises(lambda: F.conv2d(xs, param((2, 2, 3, 3), D64, 54), padding=1), "3-dim ShardTensor", comm)
    every_rank_raises(lambda: F.interpolate(xs, scale_factor=2, mode="bilinear" if bad else "linear"), "mode", comm)
    every_rank_raises(lambda: F.pad(xs, (1, 1), mode="circular"), "periodic", comm)
    # after the errors the next op works
    w = param((2, 2, 3), D64, 55)
    assert torch.allclose(F.conv1d(xs, w, padding=1).full_tensor(), F.conv1d(rand(L.shape, D64, 51), w, padding=1),
                          rtol=1e-12, atol=1e-12)


def test_sub_communicator_and_split_batch():
    """1-D ops on a layout over a sub-communicator, and with the batch cut over the ranks (group
    statistics per global sample)."""
    x = rand((2, 4, 6 * P + 2), D64, 60)
    conv = nn.Conv1d(4, 4, 3, padding=1, padding_mode="circular").double()
    gn = nn.GroupNorm(2, 4).double()
    sub = comm.Split(comm.rank % 2, comm.rank)
    lay = layout(x.shape, (sub.size,), "uneven", comm=sub, periodic=True)
    check_op(lambda t: gn(conv(t)), x, lay, list(conv.parameters()) + list(gn.parameters()), "sub-communicator")
    sub.Free()
    if P % 2 == 0:
        batch = ht.Layout.sharded(x.shape, (2, 1, P // 2), periodic=True)
        check_op(lambda t: gn(conv(t)), x, batch, list(conv.parameters()) + list(gn.parameters()), "batch split")
