"""hpart.torch: an unmodified nn.Module trained domain-parallel on ShardTensors equals the same
module trained on the whole tensor (losses and parameters after every SGD step), and bad input to
the sharded ops is the same hpart.Error on every rank (the bad argument on one rank only)."""
import copy

import pytest

torch = pytest.importorskip("torch")
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from mpi4py import MPI  # noqa: E402

import hpart  # noqa: E402
import hpart.torch as ht  # noqa: E402
from conftest import every_rank_raises  # noqa: E402
from torch_cases import ShardTensor, layout, meshes, param, rand  # noqa: E402

comm = MPI.COMM_WORLD
last = comm.size - 1


class Net(nn.Module):
    """conv - GroupNorm - ReLU - pool - circular conv - transposed conv - skip concat - conv."""

    def __init__(self, c=4):
        super().__init__()
        self.inp = nn.Conv2d(2, c, 3, padding=1)
        self.norm = nn.GroupNorm(2, c)
        self.pool = nn.MaxPool2d(2)
        self.mid = nn.Conv2d(c, c, 3, padding=1, padding_mode="circular")
        self.up = nn.ConvTranspose2d(c, c, 2, stride=2)
        self.out = nn.Conv2d(2 * c, 1, 3, padding=1)

    def forward(self, x):
        h = F.relu(self.norm(self.inp(x)))
        u = self.up(F.gelu(self.mid(self.pool(h))))
        return self.out(torch.cat([h, u], dim=1))


@pytest.mark.parametrize("dtype,tol", [(torch.float64, 1e-12), (torch.float32, 1e-5)])
@pytest.mark.parametrize("split", ["uniform", "cost"])
def test_unmodified_module_trains_like_unsharded(dtype, tol, split):
    torch.manual_seed(7)
    ref = Net().to(dtype)
    x, target = rand((2, 2, 16, 12), dtype, 30), rand((2, 1, 16, 12), dtype, 31)
    for mesh in meshes(comm, 2):
        model = copy.deepcopy(ref)
        whole = copy.deepcopy(ref)
        lay = layout(x.shape, mesh, split, periodic=True, align_levels=1)
        tlay = layout(target.shape, mesh, split, periodic=True, align_levels=1)
        assert lay.extents[2:] == tlay.extents[2:]
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
        opt_whole = torch.optim.SGD(whole.parameters(), lr=0.1, momentum=0.5)
        xs, ts = ShardTensor.from_global(x, lay), ShardTensor.from_global(target, tlay)
        for step in range(3):
            opt.zero_grad()
            opt_whole.zero_grad()
            loss = F.mse_loss(model(xs), ts)
            loss_whole = F.mse_loss(whole(x), target)
            loss.backward()
            loss_whole.backward()
            assert abs(loss.item() - loss_whole.item()) <= tol * abs(loss_whole.item()), (step, mesh)
            for (name, p), q in zip(model.named_parameters(), whole.parameters()):
                err = (p.grad - q.grad).abs().max().item()
                assert err <= tol * q.grad.abs().max().item(), f"step {step} {mesh}: {name}.grad error {err}"
            opt.step()
            opt_whole.step()
        for (name, p), q in zip(model.named_parameters(), whole.parameters()):
            assert (p - q).abs().max().item() <= tol * q.abs().max().item(), f"{mesh}: {name} after 3 steps"
        # every rank holds the same parameters (their gradients were summed over the ranks)
        sums = comm.allgather([p.detach().sum().item() for p in model.parameters()])
        assert all(s == sums[0] for s in sums)


def _lay(shape=(1, 2, 12, 8), **kw):
    return layout(shape, (comm.size, 1), "uniform", **kw)


def test_bad_input_on_one_rank():
    if comm.size < 2:
        pytest.skip("needs 2 ranks")
    lay = _lay()
    x = ShardTensor.from_global(rand((1, 2, 12, 8), torch.float64, 40), lay)
    bad = comm.rank == last

    def conv(kernel=3, stride=1, padding=None, cin=2):
        w = param((2, cin, kernel, kernel), torch.float64, 41)
        return lambda: F.conv2d(x, w, None, stride, kernel // 2 if padding is None else padding)

    every_rank_raises(conv(kernel=2 if bad else 3), "even extent", comm)
    every_rank_raises(conv(stride=2 if bad else 1), "stride", comm)
    every_rank_raises(conv(padding=2 if bad else 1), "padding", comm)
    every_rank_raises(conv(cin=3 if bad else 2), "channels", comm)
    # a halo narrower than the kernel radius: shards of 12 / P rows, a wider radius on one rank
    every_rank_raises(conv(kernel=2 * (12 // comm.size) + 3 if bad else 3), "thinner than the kernel radius", comm)
    thin = layout((1, 2, 2 * comm.size, 8), (comm.size, 1), "uniform")
    xt = ShardTensor.from_global(rand((1, 2, 2 * comm.size, 8), torch.float64, 42), thin)
    w7 = param((2, 2, 7, 7), torch.float64, 43)   # radius 3 > the 2-row shards
    every_rank_raises(lambda: F.conv2d(xt, w7, None, 1, 3), "thinner than the kernel radius", comm)
    # misaligned pooling: shards of 4 rows, kernel 3 on one rank
    aligned = layout((1, 2, 4 * comm.size, 8), (comm.size, 1), "uniform")
    xa = ShardTensor.from_global(rand((1, 2, 4 * comm.size, 8), torch.float64, 51), aligned)
    every_rank_raises(lambda: F.max_pool2d(xa, 3 if bad else 2), "not aligned", comm)
    every_rank_raises(lambda: F.avg_pool2d(xa, 2, 1 if bad else 2), "stride", comm)
    uneven = layout((1, 2, 12, 8), (comm.size, 1), "uneven")
    xu = ShardTensor.from_global(rand((1, 2, 12, 8), torch.float64, 44), uneven)
    if any(e % 4 for e in uneven.extents[2][:-1]):
        every_rank_raises(lambda: F.avg_pool2d(xu, 4), "not aligned", comm)
    # shapes that differ across ranks
    every_rank_raises(lambda: ShardTensor.from_global(rand((1, 2, 13 if bad else 12, 8), torch.float64, 45), lay),
                      "global shape", comm)
    every_rank_raises(lambda: ShardTensor(torch.zeros(3 if bad else 1, 2, *lay.local_shape[2:]), lay),
                      "local shape", comm)
    # a replicated weight whose values differ on one rank (seeded differently)
    w = param((2, 2, 3, 3), torch.float64, 46 if bad else 47)
    every_rank_raises(lambda: F.conv2d(x, w, None, 1, 1), "weight values", comm)
    # circular padding on a layout that is not periodic; unsupported modes and ops
    every_rank_raises(lambda: F.pad(x, (1, 1, 1, 1), mode="circular"), "periodic", comm)
    every_rank_raises(lambda: F.pad(x, (1, 1, 1, 1), mode="reflect" if bad else "constant"), "reflect|mode", comm)
    every_rank_raises(lambda: F.interpolate(x, scale_factor=1.5 if bad else 2.0), "scale_factor|scale", comm)
    every_rank_raises(lambda: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=bad), "align_corners|mode",
                      comm)
    every_rank_raises(lambda: F.group_norm(x, 3 if bad else 2), "groups", comm)
    every_rank_raises(lambda: torch.flip(x, [2]), "no sharded op", comm)
    # layouts a ShardTensor cannot live on: replicated, or with a rank that holds no cells
    every_rank_raises(lambda: ShardTensor.from_global(torch.zeros(1, 2, 12, 8), ht.Layout.replicated((1, 2, 12, 8))),
                      "Layout.sharded", comm)
    tiny = ht.Layout.sharded((1, 1, comm.size - 1, 4), (1, 1, comm.size, 1))
    every_rank_raises(lambda: ShardTensor.from_global(torch.zeros(1, 1, comm.size - 1, 4), tiny), "without cells", comm)


def test_ops_compose_after_a_bad_call():
    """An agreed error leaves no message in flight: the next collective op works on every rank."""
    lay = _lay()
    x = ShardTensor.from_global(rand((1, 2, 12, 8), torch.float64, 48), lay)
    with pytest.raises(hpart.Error):
        F.conv2d(x, param((2, 2, 2, 2), torch.float64, 49))
    w = param((2, 2, 3, 3), torch.float64, 50)
    y = F.conv2d(x, w, None, 1, 1)
    assert torch.allclose(y.full_tensor(), F.conv2d(rand((1, 2, 12, 8), torch.float64, 48), w, None, 1, 1),
                          rtol=1e-12, atol=1e-12)
    assert isinstance(ht.ShardTensor, type)
