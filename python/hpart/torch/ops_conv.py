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

Edge corrections (one split axis, full padding: the common "same" conv of a slab split). A
haloed copy of the shard costs a new array of the shard's size every call, and its adjoint another:
on a machine where fresh pages are slow (this project's VM: ~15 us per 4 KiB page) that was 26% of
a 2048^2 x 16 conv's forward + backward at np 2. Since the conv is linear, the conv of the haloed
shard equals torch's zero-padded conv of the shard itself plus the conv of the halo cells alone
(zeros where the shard is): y = conv(x, padding=r) + conv([h_lo, 0]) on the first r outputs +
conv([0, h_hi]) on the last r. The halo cells come from a halo exchange of a 2r-cell strip (the
shard's first and last r cells); the corrections are added in place into the first and last r
outputs (an autograd Function whose backward passes the gradient through unchanged), so the
large arrays are exactly those of the unsharded conv. Splits along two or more axes (corners),
padding below the radius and circular padding take the haloed path.

Weights and biases are replicated: `into_shards` sums their gradients over the ranks.
"""
import torch
import torch.nn.functional as F

from torch.autograd.function import once_differentiable

from .halo import _checked, _plan, halo_exchange
from ._checks import anchor, wants_grad
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


def _strip_layout(layout, g, a, r):
    """A layout of 2r cells per shard along axis a (this shard's first and last r cells), the
    others as `layout`'s; its halo exchange brings the r cells past each end. Cached."""
    shape = list(g.shape)
    shape[a] = 2 * r * g.parts[a]
    extents = [g.extents(b) for b in range(g.ndim)]
    extents[a] = [2 * r] * g.parts[a]
    return derive(layout, shape, extents)


def _halo_only(h, a, r, low):
    """[h, 0 x 2r] (low end) or [0 x 2r, h] along a: the conv inputs of the halo cells alone."""
    zshape = list(h.shape)
    zshape[a] = 2 * r
    z = h.new_zeros(zshape)
    return torch.cat((h, z) if low else (z, h), dim=a)


class _EdgeConv(torch.autograd.Function):
    """y = conv(x, padding) + the convs of the halo cells alone on the first and last r outputs
    along a. One Function, so that the gradient of x is the conv's own new array with the halo
    gradients added into its edge cells (autograd would add a zero-filled shard-sized array per
    slice of x taken for the strip). Forward and backward are collective (the strip's exchange and
    its adjoint): every rank runs both (the anchor)."""

    @staticmethod
    def forward(ctx, x, w, b, _anchor, func, plan, spec, a, r, pad, groups, ends, strip):
        y = func(x, w, b, 1, pad, 1, groups)
        n = x.shape[a]
        buf = torch.zeros(spec.haloed, dtype=x.dtype)
        buf[spec.interior] = strip if strip.device.type == "cpu" else strip.cpu()
        plan.forward(buf.data_ptr())
        zpad = tuple(0 if 2 + j == a else p for j, p in enumerate(pad))
        zs = []
        for low, at in ((True, 0), (False, n - r)):
            if not ends[0 if low else 1]:
                zs.append(None)
                continue
            h = buf.narrow(a, 0, r) if low else buf.narrow(a, 3 * r, r)
            z = _halo_only(h.to(x.device), a, r, low)
            y.narrow(a, at, r).add_(func(z, w, None, 1, zpad, 1, groups))
            zs.append(z)
        ctx.save_for_backward(x, w, *(z for z in zs if z is not None))
        ctx.info = (func, plan, spec, a, r, pad, zpad, groups, ends, b is not None)
        return y

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        func, plan, spec, a, r, pad, zpad, groups, ends, has_bias = ctx.info
        x, w, *zs = ctx.saved_tensors
        need_x, need_w, need_b = ctx.needs_input_grad[:3]
        d = x.dim() - 2
        conv_bwd = torch.ops.aten.convolution_backward
        g = g.contiguous()
        gx, gw, gb = conv_bwd(g, x, w, [w.shape[0]] if has_bias else None, [1] * d, list(pad), [1] * d, False,
                              [0] * d, groups, [need_x, need_w, need_b and has_bias])
        n = x.shape[a]
        gbuf = torch.zeros(spec.haloed, dtype=g.dtype)
        zi = iter(zs)
        for low, at in ((True, 0), (False, n - r)):
            if not ends[0 if low else 1]:
                continue
            gz, gwz, _ = conv_bwd(g.narrow(a, at, r).contiguous(), next(zi), w, None, [1] * d, list(zpad), [1] * d,
                                  False, [0] * d, groups, [True, need_w, False])
            gh = gz.narrow(a, 0, r) if low else gz.narrow(a, 2 * r, r)
            gbuf.narrow(a, 0 if low else 3 * r, r).copy_(gh)
            if need_w:
                gw = gw + gwz
        plan.adjoint(gbuf.data_ptr())  # collective: the halo gradients go back to their owners
        if need_x:
            back = gbuf.narrow(a, r, 2 * r).to(gx.device)
            gx.narrow(a, 0, r).add_(back.narrow(a, 0, r))
            gx.narrow(a, n - r, r).add_(back.narrow(a, r, r))
        return (gx if need_x else None, gw if need_w else None, gb if need_b and has_bias else None,
                None, None, None, None, None, None, None, None, None, None)


def _edge_conv(func, x, layout, g, w, b, a, r, pad, groups):
    """The sharded conv by edge corrections (see the module docstring). Collective."""
    sl = _strip_layout(layout, g, a, r)
    n = x.shape[a]
    with torch.no_grad():  # the strip's gradient is the Function's business, not autograd's
        strip = torch.cat((x.narrow(a, 0, r), x.narrow(a, n - r, r)), dim=a)
    # The strip stands for x in the agreement: it requires grad where this rank needs gradients.
    needs = wants_grad(x, w, b)
    spec, any_grad = _checked("conv (edge strip)", strip.requires_grad_(needs), sl,
                              tuple(r if 2 + j == a else 0 for j in range(g.ndim - 2)), False)
    plan = _plan(sl, spec.h3, x.dtype, "pack_runs")
    ends = (not g.first(a), not g.last(a))
    return _EdgeConv.apply(x, w, b, anchor(any_grad and not needs), func, plan, spec, a, r, pad, groups, ends,
                           strip.detach())


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
        split = [j for j, h in enumerate(haloed) if h]
        if len(split) == 1 and pad[split[0]] == r[split[0]]:
            # One split axis, padded by the radius: torch's conv of the shard + edge corrections;
            # torch's padding made every output, so nothing is cropped by hand.
            a = 2 + split[0]
            y = _edge_conv(func, x.local, x.layout, g, w, b, a, r[split[0]], pad, groups)  # collective
            haloed = (False,) * len(r)
        else:
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
