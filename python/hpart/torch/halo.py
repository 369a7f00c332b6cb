"""Halo exchange of torch shards as autograd Functions, on the C++ HaloExchange (hpart/tensor/halo.hpp).

Forward H: the local shard grown by `halo` cells on each spatial side, the halo cells holding the
neighbours' values (wrapped on periodic axes, zero past the other global edges). Backward: the
adjoint H^T: each halo cell's gradient is sent back to the rank that owns the cell and ADDED to
its interior; the interior gradient is returned.

Plans (HaloExchange: routes, buffers, persistent MPI requests) are cached on the layout per
(halo, dtype, transfer): the first call plans (collectively), later calls only exchange.

Buffers. `halo_exchange` returns a NEW haloed tensor every call: a layer consuming it (conv2d)
saves it for its backward, so writing the next exchange into the same buffer would silently
change a saved tensor (the C++ exchange writes through a raw pointer, which torch's version
counter does not see). Its plan packs every message (HaloTransfer::pack_runs), so the plan's
persistent requests touch only the plan's own buffers and are made once, whatever tensor comes.
`halo_exchange_` exchanges IN PLACE in a haloed tensor the caller keeps (no allocation, no copy of
the interior): the fast path for a buffer reused every step; autograd sees the in-place write
(mark_dirty bumps the version counter), so reusing a buffer that a layer saved raises torch's
"modified by an inplace operation" error instead of giving wrong gradients. Its plan is
HaloTransfer::automatic (H and D faces sent straight from the tensor; requests remade when the
buffer changes).
"""
import torch
from torch.autograd.function import once_differentiable

from .. import _hpart
from ._checks import DTYPES, agree, anchor, dtype_code, tensor_problem, wants_grad

_NAMES = ["the layout (its fingerprint)", "halo along D", "halo along H", "halo along W", "dtype"]


def halo_widths(layout, halo):
    """The halo as one width per spatial axis ((h, w) or (d, h, w)) from an int or a tuple."""
    sd = layout.spatial_dims
    if isinstance(halo, int) and not isinstance(halo, bool):
        return (halo,) * sd
    h = tuple(int(e) for e in halo)
    if len(h) != sd:
        raise ValueError(f"halo {halo!r} needs {sd} widths (one per spatial axis)")
    return h


def _halo3(layout, halo, fn):
    """((d, h, w) widths, problem or None)."""
    try:
        h = halo_widths(layout, halo)
    except (TypeError, ValueError):
        return (0, 0, 0), (f"{fn}: halo must be an int or {layout.spatial_dims} ints (one per spatial axis), "
                           f"got {halo!r}")
    if any(e < 0 for e in h):
        return (0, 0, 0), f"{fn}: halo {h} has a negative width"
    return ((0,) + h) if len(h) == 2 else h, None


def _interior(layout, h3):
    """Slices of the interior in the haloed local tensor."""
    sp = h3[1:] if layout.spatial_dims == 2 else h3
    ext = layout.local_shape[2:]
    return (slice(None), slice(None)) + tuple(slice(w, w + e) for w, e in zip(sp, ext))


def _plan(layout, h3, dtype, transfer):
    key = (h3, dtype, transfer)
    p = layout._halo_plans.get(key)
    if p is None:
        # Collective (validates the halo against every shard's width: the same hpart.Error on
        # every rank), reached by every rank in the same call since the key was agreed.
        p = _hpart._HaloPlan(layout._impl, list(h3), DTYPES[dtype][0], transfer)
        layout._halo_plans[key] = p
    return p


def _checked(fn, x, layout, halo, shape_of):
    """Local checks, then the agreement (one allreduce): (plan inputs, needs-grad on any rank)."""
    from .layout import Layout
    if not isinstance(layout, Layout):
        raise TypeError(f"{fn}: layout must be an hpart.torch.Layout, got {type(layout).__name__}")
    h3, problem = _halo3(layout, halo, fn)
    if problem is None and not layout.has_mesh and any(h3):
        problem = f"{fn}: a halo needs a mesh layout (Layout.sharded), not {layout!r}"
    if problem is None:
        problem = tensor_problem(x, fn, "x", shape_of(layout, h3))
    any_grad, _ = agree(layout._impl.comm, fn, problem, [layout._fingerprint(), *h3, dtype_code(x)], _NAMES,
                        wants_grad(x))
    return h3, any_grad


def _host(t):
    """CPU staging of a CUDA tensor (no CUDA-aware MPI assumed): a contiguous host copy."""
    return t if t.device.type == "cpu" else t.detach().to("cpu").contiguous()


class _HaloExchange(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, _anchor, layout, h3):
        plan = _plan(layout, h3, x.dtype, "pack_runs")
        ctx.plan, ctx.layout, ctx.h3, ctx.device = plan, layout, h3, x.device
        out = torch.empty(layout.halo_shape(h3[3 - layout.spatial_dims:]), dtype=x.dtype)
        if out.numel():
            out[_interior(layout, h3)] = _host(x)
        plan.forward(out.data_ptr())
        return out if x.device.type == "cpu" else out.to(x.device)

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        # A copy the adjoint may overwrite (it adds the halo into the interior and zeroes the halo).
        gh = torch.empty(g.shape, dtype=g.dtype)
        gh.copy_(g)
        ctx.plan.adjoint(gh.data_ptr())
        gx = gh[_interior(ctx.layout, ctx.h3)] if gh.numel() else torch.zeros(ctx.layout.local_shape, dtype=g.dtype)
        return (gx if ctx.device.type == "cpu" else gx.to(ctx.device)), None, None, None


class _HaloExchangeInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, xh, _anchor, layout, h3):
        plan = _plan(layout, h3, xh.dtype, "automatic")
        ctx.plan = plan
        if xh.device.type == "cpu":
            plan.forward(xh.data_ptr())
        else:
            host = _host(xh)
            plan.forward(host.data_ptr())
            xh.copy_(host)
        ctx.mark_dirty(xh)
        return xh

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        gh = torch.empty(g.shape, dtype=g.dtype)
        gh.copy_(g)
        ctx.plan.adjoint(gh.data_ptr())
        return gh.to(g.device), None, None, None


def halo_exchange(x, layout, halo):
    """This rank's shard `x` with its halo filled: a new tensor of layout.halo_shape(halo).

    Collective over layout.comm (every rank calls it with the same layout and halo). x: the local
    shard (shape layout.local_shape), float32 or float64, contiguous, CPU (a CUDA tensor is staged
    through host memory). halo: an int (every spatial axis) or one width per spatial axis
    ((h, w) or (d, h, w)); no wider than a neighbour's shard. Halo cells hold the neighbours'
    values; on periodic axes they wrap around; past the other global edges they are zero.

    An autograd Function: the backward is the adjoint (halo gradients added to the cells' owners),
    a collective too, so every rank must back-propagate through it (any rank's output requires
    grad when any rank's input does). Raises hpart.Error on every rank for bad input.

    >>> L = hpart.torch.Layout.sharded((1, 3, 64, 64), (1, 1, 2, 1))
    >>> xh = hpart.torch.halo_exchange(torch.randn(L.local_shape), L, 1)   # (1, 3, 34, 66)
    >>> y = torch.nn.functional.conv2d(xh, w)                               # = the global conv's rows
    """
    fn = "hpart.torch.halo_exchange"
    h3, any_grad = _checked(fn, x, layout, halo, lambda L, h: L.local_shape)
    return _HaloExchange.apply(x, anchor(any_grad and not x.requires_grad), layout, h3)


def halo_exchange_(xh, layout, halo):
    """In-place halo exchange: `xh` is this rank's haloed tensor (shape layout.halo_shape(halo),
    the shard in its interior); its halo cells are overwritten as halo_exchange fills them, and
    xh is returned. No allocation and no copy of the interior: the path for a buffer kept from
    step to step. Autograd records the in-place write (the backward adds xh's halo gradient into
    the owners' interior gradient and gives the halo zero gradient). A leaf that requires grad
    cannot be written in place (torch refuses): exchange a clone, or use halo_exchange."""
    fn = "hpart.torch.halo_exchange_"
    h3, any_grad = _checked(fn, xh, layout, halo, lambda L, h: L.halo_shape(h[3 - L.spatial_dims:]))
    return _HaloExchangeInPlace.apply(xh, anchor(any_grad and not xh.requires_grad), layout, h3)
