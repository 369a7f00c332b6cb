"""Halo exchange of torch shards as autograd Functions, on the C++ HaloExchange (hpart/tensor/halo.hpp).

Forward H: the local shard grown by `halo` cells on each spatial side, the halo cells holding the
neighbours' values (wrapped on periodic axes, zero past the other global edges). Backward: the
adjoint H^T: each halo cell's gradient is sent back to the rank that owns the cell and ADDED to
its interior; the interior gradient is returned.

Plans (HaloExchange: routes, buffers, persistent MPI requests) are cached on the layout per
(halo, dtype, transfer, padding): the first call plans (collectively), later calls only exchange.
Every call first agrees its arguments over the communicator (one small allreduce), so bad input on
one rank is every rank's hpart.Error and never a rank left waiting in an exchange.

Buffers. `halo_exchange` returns a NEW haloed tensor every call: a layer consuming it (conv2d)
saves it for its backward, so writing the next exchange into the same buffer would silently
change a saved tensor (the C++ exchange writes through a raw pointer, which torch's version
counter does not see). Its plan packs every message (HaloTransfer::pack_runs), so the plan's
persistent requests touch only the plan's own buffers and are made once, whatever tensor comes.
`halo_exchange_` exchanges IN PLACE in a haloed tensor the caller keeps (no allocation, no copy of
the interior): the fast path for a buffer reused every step; autograd sees the in-place write
(mark_dirty bumps the version counter), so reusing a buffer that a layer saved raises torch's
"modified by an inplace operation" error instead of giving wrong gradients. Its plan is
HaloTransfer::automatic (it times its candidates on its first exchanges: faces sent straight from
the tensor, packed, or through mailboxes in shared memory between ranks of one node; requests
remade when the buffer changes). Its padding (halo cells past non-periodic edges) is zeroed every call unless
the caller promises to keep it zero (padding="assume_zero")."""
import torch
from torch.autograd.function import once_differentiable

from .. import _hpart
from ._checks import DTYPES, anchor, dtype_code, tensor_problem, wants_grad

_NAMES = ["the layout (its fingerprint)", "halo along D", "halo along H", "halo along W", "padding", "dtype"]


def halo_widths(layout, halo):
    """The halo as one width per spatial axis ((w,), (h, w) or (d, h, w)) from an int or a tuple."""
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
    return (0,) * (3 - len(h)) + h, None  # the C++ (d, h, w): 0 on the axes a 1-D/2-D tensor lacks


def _interior(layout, h3):
    """Slices of the interior in the haloed local tensor."""
    sp = h3[3 - layout.spatial_dims:]
    ext = layout.local_shape[2:]
    return (slice(None), slice(None)) + tuple(slice(w, w + e) for w, e in zip(sp, ext))


def _plan(layout, h3, dtype, transfer, assume_zero=False):
    key = (h3, dtype, transfer) + (("assume_zero",) if assume_zero else ())
    p = layout._halo_plans.get(key)
    if p is None:
        # Collective (validates the halo against every shard's width: the same hpart.Error on
        # every rank), reached by every rank in the same call since the key was agreed.
        p = _hpart._HaloPlan(layout._impl, list(h3), DTYPES[dtype][0], transfer, assume_zero)
        layout._halo_plans[key] = p
    return p


class _Spec:
    """What every call with one (function, layout, halo, padding) needs, computed once and cached
    on the layout: the per-call work is then the tensor's checks and the agreement (the Python
    overhead of a call is a few microseconds, against ~30 us for a 256 KiB face)."""
    __slots__ = ("h3", "problem", "shape", "haloed", "interior", "values")

    def __init__(self, fn, layout, halo, padding, in_place):
        self.h3, self.problem = _halo3(layout, halo, fn)
        if self.problem is None and padding not in ("zero", "assume_zero"):
            self.problem = f"{fn}: padding '{padding}' (zero or assume_zero)"
        if self.problem is None and not layout.has_mesh and any(self.h3):
            self.problem = f"{fn}: a halo needs a mesh layout (Layout.sharded), not {layout!r}"
        self.shape = self.haloed = self.interior = None
        if self.problem is None:
            self.haloed = torch.Size(layout.halo_shape(self.h3[3 - layout.spatial_dims:]))
            self.shape = self.haloed if in_place else torch.Size(layout.local_shape)
            self.interior = _interior(layout, self.h3)
        # Compared between the ranks by the agreement (the dtype is appended per call).
        self.values = [layout._fingerprint(), *self.h3, int(padding == "assume_zero")]


def _checked(fn, x, layout, halo, in_place, padding="zero"):
    """Local checks, then the agreement (one allreduce): (the _Spec, needs-grad on any rank)."""
    from .layout import Layout
    if not isinstance(layout, Layout):
        raise TypeError(f"{fn}: layout must be an hpart.torch.Layout, got {type(layout).__name__}")
    try:
        key = (fn, halo, padding)
        spec = layout._halo_specs.get(key)
    except TypeError:  # an unhashable halo (a list): not cached
        key, spec = None, None
    if spec is None:
        spec = _Spec(fn, layout, halo, padding, in_place)
        if key is not None:
            layout._halo_specs[key] = spec
    problem = spec.problem
    if problem is None and not (type(x) is torch.Tensor and x.dtype in DTYPES and x.shape == spec.shape
                                and x.layout == torch.strided and x.is_contiguous()):
        problem = tensor_problem(x, fn, "x", spec.shape)
    any_grad, _ = _hpart._torch_agree(layout._impl.comm, fn, problem or "", spec.values + [dtype_code(x)], _NAMES,
                                      wants_grad(x), [])
    return spec, any_grad


def _host(t):
    """CPU staging of a CUDA tensor (no CUDA-aware MPI assumed): a contiguous host copy."""
    return t if t.device.type == "cpu" else t.detach().to("cpu").contiguous()


def _adjoint_on_host(plan, g):
    """The backward of both exchanges: a host copy of g (never g itself, which autograd may still
    hold) with the plan's adjoint applied: each halo cell added into the cell it mirrors, then the
    halo zeroed."""
    gh = torch.empty(g.shape, dtype=g.dtype)
    gh.copy_(g)
    plan.adjoint(gh.data_ptr())
    return gh


class _HaloExchange(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, _anchor, layout, spec):
        plan = _plan(layout, spec.h3, x.dtype, "pack_runs")
        ctx.plan, ctx.layout, ctx.spec, ctx.device = plan, layout, spec, x.device
        out = torch.empty(spec.haloed, dtype=x.dtype)
        if out.numel():
            out[spec.interior] = _host(x)
        plan.forward(out.data_ptr())
        return out if x.device.type == "cpu" else out.to(x.device)

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        gh = _adjoint_on_host(ctx.plan, g)
        gx = gh[ctx.spec.interior] if gh.numel() else torch.zeros(ctx.layout.local_shape, dtype=g.dtype)
        return (gx if ctx.device.type == "cpu" else gx.to(ctx.device)), None, None, None


class _HaloExchangeInPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, xh, _anchor, layout, spec, assume_zero):
        plan = _plan(layout, spec.h3, xh.dtype, "automatic", assume_zero)
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
        return _adjoint_on_host(ctx.plan, g).to(g.device), None, None, None, None


def halo_exchange(x, layout, halo):
    """This rank's shard `x` with its halo filled: a new tensor of layout.halo_shape(halo).

    Collective over layout.comm (every rank calls it with the same layout and halo). x: the local
    shard (shape layout.local_shape), float32 or float64, contiguous, CPU (a CUDA tensor is staged
    through host memory). halo: an int (every spatial axis) or one width per spatial axis
    ((w,), (h, w) or (d, h, w)); no wider than a neighbour's shard. Halo cells hold the neighbours'
    values; on periodic axes they wrap around; past the other global edges they are zero.

    An autograd Function: the backward is the adjoint (halo gradients added to the cells' owners),
    a collective too, so every rank must back-propagate through it (any rank's output requires
    grad when any rank's input does). Raises hpart.Error on every rank for bad input.

    >>> L = hpart.torch.Layout.sharded((1, 3, 64, 64), (1, 1, 2, 1))
    >>> xh = hpart.torch.halo_exchange(torch.randn(L.local_shape), L, 1)   # (1, 3, 34, 66)
    >>> y = torch.nn.functional.conv2d(xh, w)                               # = the global conv's rows
    """
    fn = "hpart.torch.halo_exchange"
    spec, any_grad = _checked(fn, x, layout, halo, False)
    return _HaloExchange.apply(x, anchor(any_grad and not x.requires_grad), layout, spec)


def halo_exchange_(xh, layout, halo, padding="zero"):
    """In-place halo exchange: `xh` is this rank's haloed tensor (shape layout.halo_shape(halo),
    the shard in its interior); its halo cells are overwritten as halo_exchange fills them, and
    xh is returned. No allocation and no copy of the interior: the path for a buffer kept from
    step to step. Autograd records the in-place write (the backward adds xh's halo gradient into
    the owners' interior gradient and gives the halo zero gradient). A leaf that requires grad
    cannot be written in place (torch refuses): exchange a clone, or use halo_exchange.

    padding: "zero" (default) zeroes the padding (halo cells past non-periodic global edges) on
    every exchange: hpart cannot know whether the caller wrote it, and on a 4096^2 x 16 float
    shard that zeroing (one cache line per row) costs ~30x the messages. "assume_zero": the
    caller promises the padding is zero and stays zero (a buffer from torch.zeros whose interior
    alone is written), and the exchange never touches it. Every rank passes the same padding."""
    fn = "hpart.torch.halo_exchange_"
    spec, any_grad = _checked(fn, xh, layout, halo, True, padding)
    return _HaloExchangeInPlace.apply(xh, anchor(any_grad and not xh.requires_grad), layout, spec,
                                      padding == "assume_zero")
