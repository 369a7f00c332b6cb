"""Sharded pooling (average and max, kernel == stride, shards aligned to the kernel) and
interpolation (integer scale factors: nearest, nearest-exact, and linear/bilinear/trilinear with
align_corners=False).

Pooling reads no neighbour when every shard starts on a multiple of the kernel and ends on one
(or at the global end, where the floor of torch's output size drops the remainder the same way):
build layouts with align_levels for that. A misaligned shard is an hpart.Error on every rank.

Linear interpolation with align_corners=False reads one cell beyond the shard: output o samples
input position (o + 1/2)/s - 1/2, clamped to the domain. The shard is halo-exchanged by 1 along
the interpolated axes, the halo past a global edge replaced by the edge cells (torch's clamp:
interpolating between a cell and its copy gives the cell), then the haloed shard is interpolated
to s (e + 2) cells and s cells are cropped at each side: local output j then samples haloed
position (j + 1/2)/s + 1/2, i.e. global (start s + j + 1/2)/s - 1/2, as torch does.
"""
import torch
import torch.nn.functional as F

from .halo import halo_exchange
from ._collective import agree
from ._geometry import derive, geometry
from .shard_tensor import ShardTensor, implements


def _tuple(v, d):
    if isinstance(v, (int, float)):
        return (v,) * d
    v = tuple(v)
    return v * d if len(v) == 1 else v


def _pool(local_fn, d, name):
    def op(input, kernel_size, stride=None, padding=0, *rest, **kwargs):
        x = input
        g = geometry(x.layout)
        k = _tuple(kernel_size, d)
        s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _tuple(stride, d)
        problem = None
        # positional tails: avg (ceil_mode, count_include_pad[, divisor_override]); max (dilation,
        # ceil_mode, return_indices) arrive as keywords from F.max_poolNd
        ceil = kwargs.get("ceil_mode", rest[0] if rest and name.startswith("avg") else False)
        if g.ndim != d + 2:
            problem = f"{name}: a {g.ndim}-dim ShardTensor (expected {d + 2})"
        elif s != k:
            problem = f"{name}: stride {s} differs from the kernel {k} (sharded pooling needs stride == kernel)"
        elif any(p != 0 for p in _tuple(padding, d)) or ceil:
            problem = f"{name}: padding and ceil_mode are not supported on a ShardTensor"
        elif kwargs.get("return_indices"):
            problem = f"{name}: return_indices is not supported on a ShardTensor"
        elif any(v != 1 for v in _tuple(kwargs.get("dilation", 1), d)):
            problem = f"{name}: dilation must be 1"
        else:
            for j, kk in enumerate(k):
                a = 2 + j
                for lo, hi in g.intervals[a]:
                    if lo % kk or (hi % kk and hi != g.shape[a]):
                        problem = (f"{name}: the shard [{lo}, {hi}) along axis {a} is not aligned to the "
                                   f"pooling kernel {kk}; build the layout with align_levels (or extents "
                                   f"that are multiples of {kk})")
                        break
                if problem:
                    break
        agree(x.layout.comm, name, problem, same=(("kernel", k),))
        y = local_fn(x.local, *(k, k, 0), *rest, **kwargs)
        shape = g.shape[:2] + tuple(n // kk for n, kk in zip(g.shape[2:], k))
        extents = [g.extents(0), g.extents(1)] + [[hi // kk - lo // kk for lo, hi in g.intervals[2 + j]]
                                                  for j, kk in enumerate(k)]
        return ShardTensor._wrap(y, derive(x.layout, shape, extents))
    return op


implements(torch.avg_pool1d, F.avg_pool1d)(_pool(torch.avg_pool1d, 1, "avg_pool1d"))
implements(torch._C._nn.avg_pool2d, F.avg_pool2d)(_pool(torch._C._nn.avg_pool2d, 2, "avg_pool2d"))
implements(torch._C._nn.avg_pool3d, F.avg_pool3d)(_pool(torch._C._nn.avg_pool3d, 3, "avg_pool3d"))
implements(F.max_pool1d)(_pool(F.max_pool1d, 1, "max_pool1d"))
implements(F.max_pool2d)(_pool(F.max_pool2d, 2, "max_pool2d"))
implements(F.max_pool3d)(_pool(F.max_pool3d, 3, "max_pool3d"))

_LINEAR = {"linear": 1, "bilinear": 2, "trilinear": 3}


def replicate_global_edges(xh, g, halo):
    """Replace halo cells past a global edge by copies of the edge cells (torch's clamp), axis by
    axis so corners get the corner cell. Differentiable (the copies' gradients go to the edge)."""
    for k, h in enumerate(halo):
        a = 2 + k
        if h == 0:
            continue
        n = xh.shape[a]
        parts = []
        if g.first(a):
            parts.append(xh.narrow(a, h, 1).expand(*[h if i == a else -1 for i in range(xh.dim())]))
            parts.append(xh.narrow(a, h, n - h))
        else:
            parts.append(xh.narrow(a, 0, n))
        if g.last(a):
            body = torch.cat(parts, a) if len(parts) > 1 else parts[0]
            nb = body.shape[a]
            body = body.narrow(a, 0, nb - h)
            edge = body.narrow(a, nb - h - 1, 1).expand(*[h if i == a else -1 for i in range(xh.dim())])
            xh = torch.cat([body, edge], a)
        else:
            xh = torch.cat(parts, a) if len(parts) > 1 else parts[0]
    return xh


@implements(F.interpolate)
def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    x = input
    g = geometry(x.layout)
    d = g.ndim - 2
    problem, s = None, None
    if size is not None:
        sz = _tuple(size, d)
        if len(sz) != d or any(o % n for o, n in zip(sz, g.shape[2:])):
            problem = f"interpolate: size {sz} is not an integer multiple of the shape {g.shape[2:]}"
        else:
            s = tuple(o // n for o, n in zip(sz, g.shape[2:]))
    elif scale_factor is not None:
        sf = _tuple(scale_factor, d)
        if len(sf) != d or any(float(v) != int(v) or v < 1 for v in sf):
            problem = f"interpolate: scale_factor {sf} must be positive integers on a ShardTensor"
        else:
            s = tuple(int(v) for v in sf)
    else:
        problem = "interpolate: give size or scale_factor"
    if problem is None:
        if antialias or recompute_scale_factor:
            problem = "interpolate: antialias and recompute_scale_factor are not supported on a ShardTensor"
        elif mode in _LINEAR:
            if _LINEAR[mode] != d:
                problem = f"interpolate: mode {mode!r} on a {g.ndim}-dim tensor"
            elif align_corners:
                problem = "interpolate: align_corners=True is not supported on a ShardTensor"
            elif any(g.thinnest(2 + j) < 1 and g.parts[2 + j] > 1 for j in range(d)):
                problem = "interpolate: an empty shard along an interpolated axis"
        elif mode not in ("nearest", "nearest-exact"):
            problem = f"interpolate: mode {mode!r} is not supported on a ShardTensor"
    agree(x.layout.comm, "interpolate", problem, same=(("scale", s), ("mode", mode)))
    local_kw = dict(mode=mode)
    if mode in _LINEAR:
        local_kw["align_corners"] = False
    ext_local = [g.stop(2 + j) - g.start(2 + j) for j in range(d)]
    if mode in _LINEAR:
        halo = (1,) * d
        xh = replicate_global_edges(halo_exchange(x.local.contiguous(), x.layout, halo), g, halo)
        if size is not None:
            y = F.interpolate(xh, size=tuple((e + 2) * sj for e, sj in zip(ext_local, s)), **local_kw)
        else:
            y = F.interpolate(xh, scale_factor=scale_factor, **local_kw)
        for j in range(d):
            y = y.narrow(2 + j, s[j], ext_local[j] * s[j])
        y = y.contiguous()
    elif size is not None:
        y = F.interpolate(x.local, size=tuple(e * sj for e, sj in zip(ext_local, s)), **local_kw)
    else:
        y = F.interpolate(x.local, scale_factor=scale_factor, **local_kw)
    shape = g.shape[:2] + tuple(n * sj for n, sj in zip(g.shape[2:], s))
    extents = [g.extents(0), g.extents(1)] + [[e * s[j] for e in g.extents(2 + j)] for j in range(d)]
    return ShardTensor._wrap(y, derive(x.layout, shape, extents))

