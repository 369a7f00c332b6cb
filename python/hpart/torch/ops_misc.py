"""Sharded pad, cat, and the reductions that end a model: sum, mean, mse_loss, l1_loss.

Reductions return a plain, replicated torch scalar (the same value on every rank); its backward
hands every rank the full gradient (to_replicated), so `loss.backward()` on every rank gives each
shard its cells' gradient and each replicated parameter the unsharded model's gradient.
"""
import math

import torch
import torch.nn.functional as F

from .halo import halo_exchange
from ._collective import agree, error, to_replicated
from ._geometry import derive, geometry
from .shard_tensor import ShardTensor, elementwise, implements


@implements(F.pad, torch._C._nn.pad)
def pad(input, pad, mode="constant", value=None):
    """F.pad on the spatial axes. constant: the shards at the global edges grow. circular: the
    wrapped cells come from the far end of a periodic axis by halo exchange (layout periodic along
    every padded axis, lo == hi); the result also keeps the haloed shard, so a conv with padding 0
    (nn.Conv*d(padding_mode="circular")) runs on it with no second exchange."""
    x = input
    g = geometry(x.layout)
    pad = tuple(int(p) for p in pad)
    m = len(pad) // 2
    lohi = [(0, 0)] * g.ndim
    for j in range(m):
        lohi[g.ndim - 1 - j] = (pad[2 * j], pad[2 * j + 1])
    problem = None
    if len(pad) % 2 or m > g.ndim - 2:
        problem = f"pad: {pad} pads more than the {g.ndim - 2} spatial axes (N and C are not padded)"
    elif any(p < 0 for p in pad):
        problem = "pad: negative padding (cropping) is not supported on a ShardTensor"
    elif mode not in ("constant", "circular"):
        problem = f"pad: mode {mode!r} is not supported on a ShardTensor (constant, circular)"
    elif mode == "circular":
        for a in range(2, g.ndim):
            lo, hi = lohi[a]
            if lo == hi == 0:
                continue
            if lo != hi:
                problem = f"pad: circular padding {lo} != {hi} on axis {a} (symmetric only)"
            elif not g.periodic[a]:
                problem = (f"pad: circular padding of axis {a} needs a layout periodic along it "
                           f"(Layout.sharded(..., periodic=...)): the wrapped cells live on the far shard")
            elif g.thinnest(a) < lo:
                problem = (f"pad: circular padding {lo} wider than the thinnest shard ({g.thinnest(a)} cells) "
                           f"along axis {a}")
            if problem:
                break
    agree(x.layout.comm, "pad", problem, same=(("pad", pad), ("mode", mode)))
    shape = tuple(n + lo + hi for n, (lo, hi) in zip(g.shape, lohi))
    extents = []
    for a in range(g.ndim):
        ext = list(g.extents(a))
        ext[0] += lohi[a][0]
        ext[-1] += lohi[a][1]
        extents.append(ext)
    if mode == "constant":
        local_pad = []
        for a in reversed(range(2, g.ndim)):
            local_pad += [lohi[a][0] if g.first(a) else 0, lohi[a][1] if g.last(a) else 0]
        y = F.pad(x.local, local_pad, value=0.0 if value is None else value)
        per = tuple(g.periodic[a] and lohi[a] == (0, 0) for a in range(2, g.ndim))
        return ShardTensor._wrap(y, derive(x.layout, shape, extents, per))
    halo = tuple(lohi[a][0] for a in range(2, g.ndim))
    xh = halo_exchange(x.local.contiguous(), x.layout, halo)
    y = xh
    for a in range(2, g.ndim):
        h = lohi[a][0]
        if h:
            y = y.narrow(a, 0 if g.first(a) else h, g.stop(a) - g.start(a) + h * (g.first(a) + g.last(a)))
    y = y.contiguous()
    per = tuple(g.periodic[a] and lohi[a] == (0, 0) for a in range(2, g.ndim))
    return ShardTensor._wrap(y, derive(x.layout, shape, extents, per), haloed=(xh, x.layout, halo))


@implements(torch.cat, torch.concat)
def cat(tensors, dim=0, *, out=None):
    """Concatenation along an unsplit axis (channels; the batch where it is whole)."""
    xs = list(tensors)
    if not xs or not all(isinstance(t, ShardTensor) for t in xs):
        raise error("cat: every tensor must be a ShardTensor")
    g = geometry(xs[0].layout)
    d = dim + g.ndim if dim < 0 else dim
    problem = None
    if out is not None:
        problem = "cat: out= is not supported on ShardTensors"
    elif not 0 <= d < g.ndim or g.parts[d] > 1:
        problem = f"cat: axis {dim} is split over the ranks (or out of range); concatenate along channels"
    else:
        for t in xs[1:]:
            gt = geometry(t.layout)
            if gt.ndim != g.ndim or any(gt.intervals[a] != g.intervals[a] for a in range(g.ndim) if a != d):
                problem = "cat: the tensors are sharded differently (shapes or shard extents differ)"
    agree(xs[0].layout.comm, "cat", problem)
    y = torch.cat([t.local for t in xs], d)
    shape = list(g.shape)
    shape[d] = sum(geometry(t.layout).shape[d] for t in xs)
    extents = [g.extents(a) if a != d else [shape[d]] for a in range(g.ndim)]
    return ShardTensor._wrap(y, derive(xs[0].layout, shape, extents))


def _copies(layout):
    """How many ranks hold each cell: 1 for a sharded layout, the rank count for a replicated one."""
    g = geometry(layout)
    parts = math.prod(g.parts)
    if layout.comm.size % parts:
        raise error("reduction: a layout whose ranks hold overlapping shards")
    return layout.comm.size // parts


def _replicated_sum(local_sum, layout):
    c = _copies(layout)
    if c == layout.comm.size:          # every rank holds everything: nothing to add
        return local_sum
    if c != 1:
        raise error("reduction: layouts with replicas of a sharded tensor are not supported")
    return to_replicated(local_sum, layout.comm)


@implements(torch.sum, torch.Tensor.sum)
def sum_(input, *args, **kwargs):
    """The sum of every cell: a replicated scalar (dim= reductions are not supported)."""
    if args or kwargs.get("dim") is not None:
        raise error("sum: only the sum over every cell is supported on a ShardTensor (no dim=)")
    return _replicated_sum(input.local.sum(dtype=kwargs.get("dtype")), input.layout)


@implements(torch.mean, torch.Tensor.mean)
def mean(input, *args, **kwargs):
    if args or kwargs.get("dim") is not None:
        raise error("mean: only the mean over every cell is supported on a ShardTensor (no dim=)")
    return _replicated_sum(input.local.sum(dtype=kwargs.get("dtype")), input.layout) / input.numel()


def _loss(name, cell):
    def op(input, target, size_average=None, reduce=None, reduction="mean"):
        if size_average is not None or reduce is not None:
            reduction = "sum" if size_average is False else "mean"
            reduction = "none" if reduce is False else reduction
        if not (isinstance(input, ShardTensor) and isinstance(target, ShardTensor)):
            raise error(f"{name}: input and target must both be ShardTensors (of one layout)")
        d = elementwise(cell, (input, target), {})
        if reduction == "none":
            return d
        s = _replicated_sum(d.local.sum(), input.layout)
        if reduction == "sum":
            return s
        if reduction == "mean":
            return s / input.numel()
        raise error(f"{name}: reduction {reduction!r}")
    return op


implements(F.mse_loss)(_loss("mse_loss", lambda a, b: (a - b) * (a - b)))
implements(F.l1_loss)(_loss("l1_loss", lambda a, b: (a - b).abs()))


@implements(F.dropout, F.dropout2d, F.dropout3d)
def dropout(input, p=0.5, training=True, inplace=False):
    """Identity in eval mode (or p == 0); training-mode dropout would draw a different mask on
    every rank (and differ from the unsharded model's), so it is an hpart.Error."""
    if training and p > 0:
        raise error("dropout: training-mode dropout is not supported on a ShardTensor (model.eval(), or p=0)")
    return input
