"""scatter, gather and redistribute of torch shards as autograd Functions, on the C++
Redistribution (hpart/tensor/redistribute.hpp): pieces are packed into one buffer per direction
and sent point to point (local pieces copied directly); the output tensor is written in place,
the input read in place (no copies beyond the plan's buffers).

Forward R: every holder of a cell in the target layout gets the value of the cell's primary copy
in the source layout. Backward R^T: every source primary cell gets the SUM of the gradients of its
target copies (a replicated output's gradient is summed over the ranks), other source copies zero.
Plans are cached on the source layout per (target layout, dtype).
"""
import torch
from torch.autograd.function import once_differentiable

from .. import _hpart
from ._checks import DTYPE_OF_CODE, DTYPES, agree, anchor, dtype_code, tensor_problem, wants_grad
from .layout import Layout

_NAMES = ["the source layout (its fingerprint)", "the target layout (its fingerprint)", "dtype"]


def _plan(src, dst, dtype):
    key = (dst, dtype)
    p = src._redist_plans.get(key)
    if p is None:
        p = _hpart._RedistributionPlan(src._impl, dst._impl, DTYPES[dtype][0])  # collective
        src._redist_plans[key] = p
    return p


def _host(t):
    return t if t.device.type == "cpu" else t.detach().to("cpu").contiguous()


class _Redistribute(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, _anchor, src, dst, dtype, device):
        plan = _plan(src, dst, dtype)
        ctx.plan, ctx.src, ctx.dtype, ctx.device, ctx.has_x = plan, src, dtype, device, x is not None
        xin = _host(x) if x is not None else torch.empty(src.local_shape, dtype=dtype)
        y = torch.empty(dst.local_shape, dtype=dtype)
        plan.forward(xin.data_ptr(), y.data_ptr())
        return y if device.type == "cpu" else y.to(device)

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        gy = _host(g).contiguous()
        gx = torch.empty(ctx.src.local_shape, dtype=ctx.dtype)
        ctx.plan.adjoint(gy.data_ptr(), gx.data_ptr())  # collective: runs even where x was None
        if not ctx.has_x:
            return None, None, None, None, None, None
        return (gx if ctx.device.type == "cpu" else gx.to(ctx.device)), None, None, None, None, None


def _run(fn, x, src, dst, x_needed=True):
    """Checks (x: this rank's tensor of src, or None where src holds nothing and x_needed is
    False), the agreement, then the Function."""
    for name, lay in (("from_layout", src), ("to_layout", dst)):
        if not isinstance(lay, Layout):
            raise TypeError(f"{fn}: {name} must be an hpart.torch.Layout, got {type(lay).__name__}")
    problem = None
    if src.size != dst.size:
        problem = f"{fn}: the layouts are on communicators of {src.size} and {dst.size} ranks"
    elif src.shape != dst.shape:
        problem = f"{fn}: the layouts have shapes {src.shape} and {dst.shape}"
    # Ranks that hold nothing of the source (the non-roots of a scatter) may pass None and do not
    # vote on the dtype: they learn it from the agreement.
    voting = x_needed or x is not None
    if problem is None and voting:
        problem = tensor_problem(x, fn, "x", src.local_shape)
    any_grad, agreed = agree(src._impl.comm, fn, problem, [src._fingerprint(), dst._fingerprint(), dtype_code(x)],
                             _NAMES, wants_grad(x), abstain=[False, False, not voting])
    dtype = DTYPE_OF_CODE[agreed[2]]
    device = x.device if voting else torch.device("cpu")
    if not voting:
        x = None
    needs_anchor = any_grad and not (x is not None and x.requires_grad)
    return _Redistribute.apply(x, anchor(needs_anchor), src, dst, dtype, device)


def redistribute(x, from_layout, to_layout):
    """This rank's shard of the same global tensor laid out as `to_layout` (a new tensor of
    to_layout.local_shape). Collective over the layouts' communicator (the same size and global
    shape). x: this rank's shard of from_layout (float32/float64, contiguous). Backward: the
    adjoint (gradients of replicated copies summed into the primary cells). hpart.Error on every
    rank for bad input.

    >>> slabs = hpart.torch.Layout.sharded(shape, (1, 1, 4, 1))
    >>> blocks = hpart.torch.Layout.sharded(shape, (1, 1, 2, 2))
    >>> y = hpart.torch.redistribute(x, slabs, blocks)
    """
    return _run("hpart.torch.redistribute", x, from_layout, to_layout)


def scatter(t, layout, root=0):
    """The whole tensor `t` on rank `root` cut into `layout`'s shards: returns this rank's shard
    (layout.local_shape). Collective. Other ranks may pass None (their t is ignored). Backward:
    the gradients of the shards gathered into t's gradient on root."""
    src = layout._on_rank(int(root)) if isinstance(layout, Layout) else layout
    on_root = isinstance(layout, Layout) and layout.rank == int(root)
    return _run("hpart.torch.scatter", t if on_root else None, src, layout, x_needed=on_root)


def gather(x, layout, root=None):
    """The whole tensor assembled from the shards `x` of `layout`: on every rank (root=None), or
    on rank `root` only (the other ranks get an empty tensor, which they must still keep in their
    loss so that backward runs on every rank: the backward is collective). Backward: the adjoint
    (with root=None, the gradients of the ranks' copies are summed)."""
    if not isinstance(layout, Layout):
        raise TypeError(f"hpart.torch.gather: layout must be an hpart.torch.Layout, got {type(layout).__name__}")
    dst = layout._replicated() if root is None else layout._on_rank(int(root))
    return _run("hpart.torch.gather", x, layout, dst)
