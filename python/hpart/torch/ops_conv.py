"""Sharded convolutions: conv1d/2d/3d (odd kernels, stride 1, dilation 1, any padding up to the
kernel radius, zero or circular) and conv_transpose1d/2d/3d with stride == kernel.

conv: halo-exchange the shard by the kernel radius r, run torch's conv with padding 0 on the
haloed shard (every output cell of the shard sees its whole stencil), and where the padding p is
smaller than r crop r - p cells at the global edges (those outputs do not exist globally). The
halo past a non-periodic global edge is zero, which is exactly zero padding; on a periodic layout
it holds wrapped values, so a zero-padded conv zeroes it first. Circular padding
(nn.Conv*d(padding_mode="circular") calls F.pad(mode="circular") and then the conv with padding
0): F.pad returns the shard already haloed with wrapped values (ops_misc.pad) and the conv uses
that haloed shard directly: one exchange. It needs a layout periodic along the padded axes (the
wrapped values come from the far end of the domain); otherwise F.pad raises hpart.Error.

Weights and biases are replicated: `into_shards` sums their gradients over the ranks.
"""
import torch
import torch.nn.functional as F

from .halo import halo_exchange
from ._collective import agree, into_shards, values_crc
from ._geometry import derive, geometry
from .shard_tensor import ShardTensor, implements


def _grads(*ts):
    """requires_grad of each parameter: agreed, since their backward all-reduces are collectives."""
    return tuple(bool(getattr(t, "requires_grad", False)) for t in ts)


def _tuple(v, d):
    if isinstance(v, int):
        return (v,) * d
    v = tuple(v)
    return v * d if len(v) == 1 else v


def zero_global_edges(xh, g, halo):
    """Zero the halo cells of haloed shard xh that lie past a global edge along a periodic axis
    (the exchange wrapped values into them). Differentiable: those cells get no gradient."""
    for k, h in enumerate(halo):
        a = 2 + k
        if h == 0 or not g.periodic[a]:
            continue
        lo, hi = g.first(a), g.last(a)
        if not (lo or hi):
            continue
        n = xh.shape[a]
        mask = torch.ones(n, dtype=xh.dtype, device=xh.device)
        if lo:
            mask[:h] = 0
        if hi:
            mask[n - h:] = 0
        xh = xh * mask.view([-1 if i == a else 1 for i in range(xh.dim())])
    return xh


def crop_edges(y, g, crop, haloed):
    """Drop the outputs whose stencil centre lies within crop[k] cells of a global edge (padding p
    < radius r: crop = r - p) on the haloed axes (torch's own padding did it on the others);
    returns the cropped local tensor and the per-axis output intervals."""
    intervals = []
    for k, c in enumerate(crop):
        a = 2 + k
        n = g.shape[a]
        iv = []
        for lo, hi in g.intervals[a]:
            s = max(lo, c)
            e = max(min(hi, n - c), s)
            iv.append((s - c, e - c))
        intervals.append(iv)
        if c and haloed[k]:
            s, e = iv[g.pos[a]]
            y = y.narrow(a, s + c - g.start(a), e - s)
    return (y.contiguous() if any(c and h for c, h in zip(crop, haloed)) else y), intervals


def _conv_checks(name, d, x, weight, bias, stride, padding, dilation, groups):
    g = geometry(x.layout)
    k = tuple(weight.shape[2:]) if isinstance(weight, torch.Tensor) else ()
    problem = None
    if isinstance(padding, str):
        pad = tuple(kk // 2 for kk in k) if padding == "same" else (0,) * d
    else:
        pad = _tuple(padding, d)
    if g.ndim != d + 2:
        problem = f"{name}: a {g.ndim}-dim ShardTensor (expected {d + 2}: N, C and {d} spatial)"
    elif not isinstance(weight, torch.Tensor) or weight.dim() != d + 2:
        problem = f"{name}: the weight must be a {d + 2}-dim torch.Tensor"
    elif any(kk % 2 == 0 for kk in k):
        problem = f"{name}: kernel {k} has an even extent; sharded convs need odd kernels (a centre cell)"
    elif any(s != 1 for s in _tuple(stride, d)):
        problem = f"{name}: stride {_tuple(stride, d)} is not supported (sharded convs have stride 1)"
    elif any(v != 1 for v in _tuple(dilation, d)):
        problem = f"{name}: dilation {_tuple(dilation, d)} is not supported (dilation 1 only)"
    elif isinstance(padding, str) and padding not in ("same", "valid"):
        problem = f"{name}: padding {padding!r}"
    elif any(p < 0 or p > kk // 2 for p, kk in zip(pad, k)):
        problem = f"{name}: padding {pad} outside 0..kernel radius {tuple(kk // 2 for kk in k)}"
    elif g.parts[1] > 1:
        problem = f"{name}: the layout splits the channels; convs need every channel on every rank"
    elif weight.shape[1] * groups != g.shape[1]:
        problem = (f"{name}: the input has {g.shape[1]} channels, the weight expects "
                   f"{weight.shape[1] * groups}")
    else:
        for j, kk in enumerate(k):
            a = 2 + j
            r = kk // 2
            if r > 0 and (g.parts[a] > 1 or g.periodic[a]) and g.thinnest(a) < r:
                problem = (f"{name}: a shard of {g.thinnest(a)} cells along axis {a} is thinner than the "
                           f"kernel radius {r} (the halo reaches the next shard only); use fewer shards "
                           f"along that axis or a smaller kernel")
                break
    agree(x.layout.comm, name, problem, same=(("weight shape", tuple(getattr(weight, "shape", ()))),
                                              ("bias", bias is None), ("padding", pad), ("groups", groups),
                                              ("weight values (CRC-32)", values_crc(weight)),
                                              ("bias values (CRC-32)", values_crc(bias)),
                                              ("requires_grad of weight and bias", _grads(weight, bias))))
    return g, k, pad


def _conv(func, d, name):
    def op(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        x = input
        g, k, pad = _conv_checks(name, d, x, weight, bias, stride, padding, dilation, groups)
        comm = x.layout.comm
        r = tuple(kk // 2 for kk in k)
        w, b = into_shards(weight, comm), into_shards(bias, comm)
        if x._haloed is not None and all(p == 0 for p in pad) and x._haloed[2] == r:
            # the output of F.pad(mode="circular") by r: the haloed shard is ready
            xh, base = x._haloed[0], x._haloed[1]
            y = func(xh, w, b, 1, 0, 1, groups)
            gb = geometry(base)
            return ShardTensor._wrap(y, derive(base, (gb.shape[0], weight.shape[0]) + gb.shape[2:],
                                                 [gb.extents(0), [weight.shape[0]]] + [gb.extents(a) for a in range(2, gb.ndim)]))
        # A halo along split axes, where a neighbour's cells are needed; elsewhere torch's own zero
        # padding (no copy into a haloed tensor: one shard alone runs the plain conv).
        haloed = tuple(rr > 0 and g.parts[2 + j] > 1 for j, rr in enumerate(r))
        halo = tuple(rr if h else 0 for rr, h in zip(r, haloed))
        native = tuple(0 if h else p for p, h in zip(pad, haloed))
        xh = halo_exchange(x.local.contiguous(), x.layout, halo) if any(halo) else x.local
        xh = zero_global_edges(xh, g, halo)
        y = func(xh, w, b, 1, native, 1, groups)
        crop = tuple(rr - p for rr, p in zip(r, pad))
        y, intervals = crop_edges(y, g, crop, haloed)
        shape = (g.shape[0], weight.shape[0]) + tuple(n - 2 * c for n, c in zip(g.shape[2:], crop))
        extents = [g.extents(0), [weight.shape[0]]] + [[e - s for s, e in iv] for iv in intervals]
        return ShardTensor._wrap(y, derive(x.layout, shape, extents))
    return op


for _d, _f in ((1, torch.conv1d), (2, torch.conv2d), (3, torch.conv3d)):
    implements(_f, getattr(F, f"conv{_d}d"))(_conv(_f, _d, f"conv{_d}d"))


def _conv_transpose(func, d, name):
    def op(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
        x = input
        g = geometry(x.layout)
        k = tuple(weight.shape[2:]) if isinstance(weight, torch.Tensor) else ()
        s = _tuple(stride, d)
        problem = None
        if g.ndim != d + 2 or not isinstance(weight, torch.Tensor) or weight.dim() != d + 2:
            problem = f"{name}: expected a {d + 2}-dim ShardTensor and weight"
        elif s != k:
            problem = (f"{name}: stride {s} differs from the kernel {k}; sharded transposed convs need "
                       f"stride == kernel (no overlap between shards)")
        elif any(v != 0 for v in _tuple(padding, d)) or any(v != 0 for v in _tuple(output_padding, d)):
            problem = f"{name}: padding and output_padding must be 0"
        elif any(v != 1 for v in _tuple(dilation, d)):
            problem = f"{name}: dilation must be 1"
        elif g.parts[1] > 1:
            problem = f"{name}: the layout splits the channels"
        elif weight.shape[0] != g.shape[1]:
            problem = f"{name}: the input has {g.shape[1]} channels, the weight expects {weight.shape[0]}"
        agree(x.layout.comm, name, problem, same=(("weight shape", tuple(getattr(weight, "shape", ()))),
                                                  ("bias", bias is None), ("groups", groups),
                                                  ("weight values (CRC-32)", values_crc(weight)),
                                                  ("bias values (CRC-32)", values_crc(bias)),
                                              ("requires_grad of weight and bias", _grads(weight, bias))))
        comm = x.layout.comm
        y = func(x.local, into_shards(weight, comm), into_shards(bias, comm), s, 0, 0, groups, 1)
        cout = weight.shape[1] * groups
        shape = (g.shape[0], cout) + tuple(n * kk for n, kk in zip(g.shape[2:], k))
        extents = [g.extents(0), [cout]] + [[e * kk for e in g.extents(2 + j)] for j, kk in enumerate(k)]
        return ShardTensor._wrap(y, derive(x.layout, shape, extents))
    return op


for _d, _f in ((1, torch.conv_transpose1d), (2, torch.conv_transpose2d), (3, torch.conv_transpose3d)):
    implements(_f, getattr(F, f"conv_transpose{_d}d"))(_conv_transpose(_f, _d, f"conv_transpose{_d}d"))
