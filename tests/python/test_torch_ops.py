"""hpart.torch sharded ops (ShardTensor through __torch_function__): every op's forward and every
gradient (input, weight, bias) equal unsharded torch on the same weights, double <= 1e-12 and
float <= 1e-5 relative, on even, explicit uneven and cost-balanced shards, 2-D and 3-D, zero and
circular padding. Run under mpirun at 1-4 ranks; every rank also computes the unsharded reference."""
import pytest

torch = pytest.importorskip("torch")
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from mpi4py import MPI  # noqa: E402

import hpart  # noqa: E402

from torch_cases import ShardTensor, check_op, layout, meshes, param, rand  # noqa: E402

comm = MPI.COMM_WORLD


@pytest.fixture(autouse=True)
def same_seed():
    """torch seeds every process differently: modules built in a test get rank-identical weights."""
    torch.manual_seed(1234)


D64, F32 = torch.float64, torch.float32
SPLITS = ["uniform", "uneven", "cost"]


@pytest.mark.parametrize("dtype", [D64, F32])
@pytest.mark.parametrize("split", SPLITS)
@pytest.mark.parametrize("kernel,padding", [(3, 1), ((3, 5), (1, 2)), (3, 0), (5, (2, 1)), (1, 0)])
def test_conv2d(dtype, split, kernel, padding):
    k = (kernel, kernel) if isinstance(kernel, int) else kernel
    x = rand((2, 3, 13, 11), dtype, 0)
    w, b = param((4, 3) + k, dtype, 1), param((4,), dtype, 2)
    for mesh in meshes(comm, 2):
        lay = layout(x.shape, mesh, split)
        check_op(lambda t: F.conv2d(t, w, b, padding=padding), x, lay, [w, b], f"conv2d {k} p{padding} {mesh}")


def test_conv2d_groups_no_bias_and_same():
    x = rand((1, 4, 9, 10), D64, 3)
    w = param((6, 2, 3, 3), D64, 4)
    for mesh in meshes(comm, 2):
        lay = layout(x.shape, mesh, "uneven")
        check_op(lambda t: F.conv2d(t, w, None, padding="same", groups=2), x, lay, [w], "conv2d groups")


@pytest.mark.parametrize("dtype", [D64, F32])
def test_conv2d_periodic_layout(dtype):
    """Zero padding on a periodic layout (the wrapped halo is zeroed at the global edges) and
    nn.Conv2d(padding_mode="circular") (F.pad circular + conv with padding 0, one exchange)."""
    x = rand((2, 2, 12, 10), dtype, 5)
    zero = nn.Conv2d(2, 3, 3, padding=1).to(dtype)
    circ = nn.Conv2d(2, 3, (3, 5), padding=(1, 2), padding_mode="circular").to(dtype)
    for mesh in meshes(comm, 2):
        for split in ("uniform", "uneven"):
            lay = layout(x.shape, mesh, split, periodic=True)
            check_op(zero, x, lay, list(zero.parameters()), f"zero-padded conv, periodic {mesh} {split}")
            check_op(circ, x, lay, list(circ.parameters()), f"circular conv {mesh} {split}")


@pytest.mark.parametrize("dtype", [D64, F32])
def test_conv3d(dtype):
    x = rand((1, 2, 9, 6, 8), dtype, 6)
    zero = nn.Conv3d(2, 3, 3, padding=1).to(dtype)
    valid = nn.Conv3d(2, 2, (3, 1, 3), padding=(0, 0, 1)).to(dtype)
    circ = nn.Conv3d(2, 2, 3, padding=1, padding_mode="circular").to(dtype)
    for mesh in meshes(comm, 3):
        for split in SPLITS:
            lay = layout(x.shape, mesh, split)
            check_op(zero, x, lay, list(zero.parameters()), f"conv3d {mesh} {split}")
            check_op(valid, x, lay, list(valid.parameters()), f"conv3d partial padding {mesh} {split}")
        lay = layout(x.shape, mesh, "uneven", periodic=True)
        check_op(circ, x, lay, list(circ.parameters()), f"circular conv3d {mesh}")


@pytest.mark.parametrize("dtype", [D64, F32])
def test_conv_transpose(dtype):
    x2, x3 = rand((2, 3, 7, 5), dtype, 7), rand((1, 2, 5, 4, 6), dtype, 8)
    t2 = nn.ConvTranspose2d(3, 4, 2, stride=2).to(dtype)
    t2b = nn.ConvTranspose2d(3, 2, (3, 2), stride=(3, 2), bias=False).to(dtype)
    t3 = nn.ConvTranspose3d(2, 3, 2, stride=2).to(dtype)
    for split in SPLITS:
        for mesh in meshes(comm, 2):
            lay = layout(x2.shape, mesh, split)
            check_op(t2, x2, lay, list(t2.parameters()), f"conv_transpose2d {mesh} {split}")
            check_op(t2b, x2, lay, list(t2b.parameters()), f"conv_transpose2d (3, 2) {mesh} {split}")
        for mesh in meshes(comm, 3):
            check_op(t3, x3, layout(x3.shape, mesh, split), list(t3.parameters()), f"conv_transpose3d {mesh}")


@pytest.mark.parametrize("dtype", [D64, F32])
def test_pooling(dtype):
    """kernel == stride on shards aligned to it: align_levels layouts, explicit even extents, and
    an odd global extent whose remainder the last shard drops as torch does."""
    x2, x3 = rand((2, 3, 16, 13), dtype, 9), rand((1, 2, 8, 6, 9), dtype, 10)
    for mesh in meshes(comm, 2):
        for split in ("uniform", "uneven", "cost"):
            lay = layout(x2.shape, mesh, split, align_levels=1)
            check_op(nn.MaxPool2d(2), x2, lay, [], f"max_pool2d {mesh} {split}")
            check_op(nn.AvgPool2d(2), x2, lay, [], f"avg_pool2d {mesh} {split}")
            check_op(lambda t: F.avg_pool2d(t, (2, 1)), x2, lay, [], f"avg_pool2d (2, 1) {mesh} {split}")
    for mesh in meshes(comm, 3):
        lay = layout(x3.shape, mesh, "uneven", align_levels=1)
        check_op(nn.MaxPool3d(2), x3, lay, [], f"max_pool3d {mesh}")
        check_op(nn.AvgPool3d(2), x3, lay, [], f"avg_pool3d {mesh}")


@pytest.mark.parametrize("dtype", [D64, F32])
def test_interpolate(dtype):
    """nearest and (bi/tri)linear, align_corners=False, integer scales: linear modes read one cell
    of the neighbours and clamp at the global edges only (also on periodic layouts)."""
    x2, x3 = rand((2, 2, 9, 7), dtype, 11), rand((1, 2, 5, 4, 6), dtype, 12)
    for mesh in meshes(comm, 2):
        for split in SPLITS:
            lay = layout(x2.shape, mesh, split)
            check_op(nn.Upsample(scale_factor=2), x2, lay, [], f"nearest x2 {mesh} {split}")
            check_op(lambda t: F.interpolate(t, scale_factor=3), x2, lay, [], f"nearest x3 {mesh} {split}")
            check_op(lambda t: F.interpolate(t, scale_factor=(2, 3), mode="nearest-exact"), x2, lay, [],
                     f"nearest-exact {mesh} {split}")
            check_op(nn.Upsample(scale_factor=2, mode="bilinear"), x2, lay, [], f"bilinear x2 {mesh} {split}")
            check_op(lambda t: F.interpolate(t, size=(27, 14), mode="bilinear", align_corners=False), x2, lay, [],
                     f"bilinear size (27, 14) {mesh} {split}")
        lay = layout(x2.shape, mesh, "uneven", periodic=True)
        check_op(lambda t: F.interpolate(t, scale_factor=3, mode="bilinear"), x2, lay, [], f"bilinear periodic {mesh}")
    for mesh in meshes(comm, 3):
        lay = layout(x3.shape, mesh, "uneven")
        check_op(nn.Upsample(scale_factor=2, mode="trilinear"), x3, lay, [], f"trilinear {mesh}")
        check_op(nn.Upsample(scale_factor=2), x3, lay, [], f"nearest 3-D {mesh}")


@pytest.mark.parametrize("dtype", [D64, F32])
def test_group_norm(dtype):
    x2, x3 = rand((2, 6, 9, 7), dtype, 13) * 3 + 1, rand((2, 4, 5, 4, 6), dtype, 14)
    for groups in (1, 3, 6):
        gn = nn.GroupNorm(groups, 6).to(dtype)
        with torch.no_grad():
            gn.weight.copy_(rand((6,), dtype, 15))
            gn.bias.copy_(rand((6,), dtype, 16))
        for mesh in meshes(comm, 2):
            for split in SPLITS:
                check_op(gn, x2, layout(x2.shape, mesh, split), list(gn.parameters()), f"group_norm {groups} {mesh}")
    plain = nn.GroupNorm(2, 4, affine=False).to(dtype)
    for mesh in meshes(comm, 3):
        check_op(plain, x3, layout(x3.shape, mesh, "uneven"), [], f"group_norm 3-D {mesh}")
    if comm.size > 1:  # the batch split over the ranks: statistics per global sample
        lay = ht_layout_batch(x2.shape)
        gn = nn.GroupNorm(3, 6).to(dtype)
        check_op(gn, x2, lay, list(gn.parameters()), "group_norm, batch split")


def ht_layout_batch(shape):
    import hpart.torch as ht
    p = comm.size
    return ht.Layout.sharded(shape, (2, 1, p // 2, 1) if p % 2 == 0 else (1, 1, p, 1))


@pytest.mark.parametrize("dtype", [D64, F32])
def test_pad(dtype):
    x2, x3 = rand((1, 2, 9, 10), dtype, 17), rand((1, 1, 5, 6, 4), dtype, 18)
    for mesh in meshes(comm, 2):
        for split in ("uniform", "uneven"):
            lay = layout(x2.shape, mesh, split)
            check_op(lambda t: F.pad(t, (1, 2, 0, 3), value=0.5), x2, lay, [], f"pad constant {mesh} {split}")
            per = layout(x2.shape, mesh, split, periodic=True)
            check_op(lambda t: F.pad(t, (2, 2, 1, 1), mode="circular"), x2, per, [], f"pad circular {mesh} {split}")
            # a padded tensor is an ordinary ShardTensor: a "valid" conv on it, then pooling
            w = param((2, 2, 3, 3), dtype, 19)
            check_op(lambda t: F.conv2d(F.pad(t, (1, 1, 1, 1), mode="circular"), w) * 2, x2, per, [w],
                     f"circular pad, conv, scale {mesh} {split}")
    for mesh in meshes(comm, 3):
        lay = layout(x3.shape, mesh, "uneven", periodic=(True, False, True))
        check_op(lambda t: F.pad(t, (1, 1, 0, 0, 1, 1), mode="circular"), x3, lay, [], f"pad circular 3-D {mesh}")
        check_op(lambda t: F.pad(t, (0, 1, 2, 0, 1, 1)), x3, lay, [], f"pad constant 3-D {mesh}")


@pytest.mark.parametrize("dtype", [D64, F32])
def test_elementwise_cat_and_losses(dtype):
    x = rand((2, 3, 10, 9), dtype, 20)
    t = rand((2, 6, 10, 9), dtype, 21)
    scale = param((1, 6, 1, 1), dtype, 22)
    bias = param((6, 1, 1), dtype, 23)

    def body(v):
        return torch.cat([F.relu(v), torch.sigmoid(v) * 2.0 - v / 3.0], dim=1) * scale + bias

    for mesh in meshes(comm, 2):
        for split in SPLITS:
            lay = layout(x.shape, mesh, split)
            check_op(body, x, lay, [scale, bias], f"elementwise and cat {mesh} {split}")
            for loss in (lambda y, z: F.mse_loss(y, z), lambda y, z: F.l1_loss(y, z, reduction="sum"),
                         lambda y, z: (y * z).mean() + y.sum() * 0.25):
                xr = x.clone().requires_grad_()
                lr = loss(body(xr), t)
                lr.backward()
                want = [xr.grad, scale.grad.clone(), bias.grad.clone()]
                scale.grad = bias.grad = None
                xs = x.clone().requires_grad_()
                ls = loss(body(ShardTensor.from_global(xs, lay)), ShardTensor.from_global(t, layout(t.shape, mesh, split)))
                assert isinstance(ls, torch.Tensor) and ls.dim() == 0
                assert abs(ls.item() - lr.item()) <= 1e-12 * abs(lr.item()) if dtype == D64 else 1e-5 * abs(lr.item())
                ls.backward()
                for g, w in zip([xs.grad, scale.grad, bias.grad], want):
                    assert (g - w).abs().max() <= (1e-12 if dtype == D64 else 1e-5) * w.abs().max()
                scale.grad = bias.grad = None


def test_full_tensor_gradient_and_dropout():
    """full_tensor() is differentiable with DTensor's convention: a loss computed alike on every
    rank from the gathered tensor gives the unsharded gradient (not size times it); dropout is the
    identity in eval mode and an error in training mode."""
    x = rand((1, 2, 10, 9), D64, 25)
    conv = nn.Conv2d(2, 2, 3, padding=1).double()
    model = nn.Sequential(conv, nn.Dropout(0.3)).eval()
    xr = x.clone().requires_grad_()
    (model(xr) ** 2).sum().backward()
    want = [xr.grad, conv.weight.grad.clone(), conv.bias.grad.clone()]
    conv.zero_grad()
    for mesh in meshes(comm, 2):
        xs = x.clone().requires_grad_()
        y = model(ShardTensor.from_global(xs, layout(x.shape, mesh, "uneven")))
        (y.full_tensor() ** 2).sum().backward()
        for g, w in zip([xs.grad, conv.weight.grad, conv.bias.grad], want):
            assert (g - w).abs().max() <= 1e-12 * w.abs().max()
        conv.zero_grad()
    model.train()
    with pytest.raises(hpart.Error, match="dropout"):
        model(ShardTensor.from_global(x, layout(x.shape, meshes(comm, 2)[0], "uniform")))


def test_sub_communicator():
    """The ops on a layout over a sub-communicator (two halves run different meshes at once)."""
    if comm.size < 2:
        pytest.skip("needs 2 ranks")
    sub = comm.Split(comm.rank % 2, comm.rank)
    x = rand((1, 2, 10, 9), D64, 24)
    conv = nn.Conv2d(2, 2, 3, padding=1, padding_mode="circular").double()
    mesh = (sub.size, 1) if comm.rank % 2 == 0 else (1, sub.size)
    lay = layout(x.shape, mesh, "uneven", comm=sub, periodic=True)
    check_op(lambda t: F.avg_pool2d(conv(t), (1, 1)), x, lay, list(conv.parameters()), "sub-communicator")
    sub.Free()
