"""ShardTensor: this rank's shard of a global tensor (a plain torch tensor, autograd and all) and
the Layout that says which cells it holds.

It is not a torch.Tensor subclass: torch functions reach it through the `__torch_function__`
protocol, which runs before any torch code looks at the argument, so an unmodified nn.Module
(nn.Conv2d calls F.conv2d, nn.GroupNorm calls F.group_norm, ...) hands its ShardTensor input to
the sharded op registered here for that function. Each sharded op is torch ops on the local shard
(halo-exchanged where the op reads neighbours), so autograd differentiates it; its output is a
ShardTensor on the layout the op implies (ops_*.py). A function without a sharded op is an
hpart.Error, never a silent local computation.
"""
import torch

from ._collective import agree, error, into_shards, values_crc
from ._geometry import check_cells, geometry, same_geometry

_HANDLERS = {}      # torch function -> sharded op
_ELEMENTWISE = {    # functions (by name) that act cell by cell: the local op is the sharded op
    "add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "neg", "negative",
    "rsub", "pow", "square", "sqrt", "rsqrt", "exp", "log", "abs", "sin", "cos", "clamp", "clip",
    "maximum", "minimum", "relu", "relu_", "relu6", "gelu", "silu", "sigmoid", "tanh", "leaky_relu",
    "leaky_relu_", "elu", "elu_", "selu", "celu", "softplus", "hardtanh", "hardtanh_", "hardswish",
    "hardsigmoid", "mish", "logsigmoid", "add_", "sub_", "mul_", "div_", "clamp_", "neg_",
}


def implements(*funcs):
    """Register a sharded op for the given torch functions."""
    def register(op):
        for f in funcs:
            _HANDLERS[f] = op
        return op
    return register


class ShardTensor:
    """A torch tensor sharded over the ranks of a Layout: `local` is this rank's shard (its
    requires_grad and autograd graph are the tensor's), `layout` the global picture.

        >>> layout = hpart.torch.Layout.sharded((1, 3, 64, 64), mesh)
        >>> x = ShardTensor.from_global(t, layout)        # t: the same global tensor on every rank
        >>> y = model(x)                                  # unmodified nn.Module, domain-parallel
        >>> y.full_tensor()                               # the global result on every rank

    Collective: constructing one checks the local shape against the layout on every rank.
    """
    __slots__ = ("local", "layout", "_haloed", "__weakref__")

    def __init__(self, local, layout):
        problem = None
        if not isinstance(local, torch.Tensor):
            problem = f"ShardTensor: local must be a torch.Tensor, got {type(local).__name__}"
        elif tuple(local.shape) != tuple(layout.local_shape):
            problem = (f"ShardTensor: the local tensor's shape {tuple(local.shape)} on rank "
                       f"{layout.comm.rank} is not the layout's local shape {tuple(layout.local_shape)}")
        agree(layout.comm, "hpart.torch.ShardTensor", problem)
        check_cells(geometry(layout), layout.comm.size, "hpart.torch.ShardTensor")
        self.local, self.layout, self._haloed = local, layout, None

    @classmethod
    def _wrap(cls, local, layout, haloed=None):
        """An op's output (shapes already right on every rank: no check, no collective)."""
        obj = object.__new__(cls)
        obj.local, obj.layout, obj._haloed = local, layout, haloed
        return obj

    @classmethod
    def from_global(cls, t, layout):
        """The shard of `t` (the whole tensor, the same on every rank) that layout gives this rank.
        No communication forward; backward sums t's gradient over the ranks (t is replicated), so
        t.grad equals the unsharded gradient on every rank. Collective (checks t's shape)."""
        problem = None
        if not isinstance(t, torch.Tensor):
            problem = f"ShardTensor.from_global: expected a torch.Tensor, got {type(t).__name__}"
        elif tuple(t.shape) != tuple(layout.shape):
            problem = (f"ShardTensor.from_global: tensor shape {tuple(t.shape)} on rank {layout.comm.rank} "
                       f"is not the layout's global shape {tuple(layout.shape)}")
        agree(layout.comm, "hpart.torch.ShardTensor.from_global", problem, same=(("dtype", str(getattr(t, "dtype", None))),
                                                                                 ("requires_grad", getattr(t, "requires_grad", False))))
        check_cells(geometry(layout), layout.comm.size, "hpart.torch.ShardTensor.from_global")
        local = into_shards(t, layout.comm)[tuple(layout.local_slices)]
        return cls._wrap(local.clone(memory_format=torch.contiguous_format), layout)

    def full_tensor(self):
        """The whole tensor on every rank (collective; O(global) memory per rank). Differentiable:
        its gradient (replicated, so the full gradient on every rank) goes back to the shards."""
        return _FullTensor.apply(self.local, self.layout)

    # ---- tensor-like attributes ---------------------------------------------------------------
    @property
    def shape(self):
        return torch.Size(self.layout.shape)

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]

    def dim(self):
        return len(self.layout.shape)

    ndim = property(dim)

    def numel(self):
        n = 1
        for s in self.layout.shape:
            n *= s
        return n

    dtype = property(lambda self: self.local.dtype)
    device = property(lambda self: self.local.device)
    requires_grad = property(lambda self: self.local.requires_grad)
    is_leaf = property(lambda self: self.local.is_leaf)

    @property
    def grad(self):
        g = self.local.grad
        return None if g is None else ShardTensor._wrap(g, self.layout)

    def requires_grad_(self, flag=True):
        self.local.requires_grad_(flag)
        return self

    def detach(self):
        return ShardTensor._wrap(self.local.detach(), self.layout)

    def __repr__(self):
        return (f"ShardTensor(shape={tuple(self.layout.shape)}, local_slices={tuple(self.layout.local_slices)}, "
                f"dtype={self.local.dtype}, requires_grad={self.local.requires_grad})")

    # ---- dispatch -----------------------------------------------------------------------------
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        op = _HANDLERS.get(func)
        if op is not None:
            return op(*args, **kwargs)
        name = getattr(func, "__name__", str(func))
        if name in _ELEMENTWISE:
            return elementwise(func, args, kwargs)
        raise error(f"{name} has no sharded op for ShardTensor arguments (see docs/torch.md, "
                    f"'Sharded ops'); gather with .full_tensor() to run it on the whole tensor")

    def __add__(self, o): return elementwise(torch.add, (self, o), {})
    def __radd__(self, o): return elementwise(torch.add, (o, self), {})
    def __sub__(self, o): return elementwise(torch.sub, (self, o), {})
    def __rsub__(self, o): return elementwise(lambda a, b: a - b, (o, self), {})
    def __mul__(self, o): return elementwise(torch.mul, (self, o), {})
    def __rmul__(self, o): return elementwise(torch.mul, (o, self), {})
    def __truediv__(self, o): return elementwise(lambda a, b: a / b, (self, o), {})
    def __rtruediv__(self, o): return elementwise(lambda a, b: a / b, (o, self), {})
    def __pow__(self, o): return elementwise(lambda a, b: a ** b, (self, o), {})
    def __neg__(self): return elementwise(torch.neg, (self,), {})

    def sum(self, *args, **kwargs):
        return torch.sum(self, *args, **kwargs)

    def mean(self, *args, **kwargs):
        return torch.mean(self, *args, **kwargs)

    def relu(self):
        return torch.relu(self)


class _FullTensor(torch.autograd.Function):
    @staticmethod
    def forward(ctx, local, layout):
        from .redistribute import gather
        ctx.slices = tuple(layout.local_slices)
        return gather(local.detach().contiguous(), layout, root=None)

    @staticmethod
    def backward(ctx, g):
        return g[ctx.slices].clone(memory_format=torch.contiguous_format), None


def elementwise(func, args, kwargs):
    """A cell-by-cell function on ShardTensors of one layout, scalars, and replicated tensors that
    broadcast along every sharded axis (size 1 there, e.g. a (C, 1, 1) bias): the local function.
    A replicated tensor that requires grad gets its gradient summed over the ranks."""
    shards = [a for a in list(args) + list(kwargs.values()) if isinstance(a, ShardTensor)]
    layout = shards[0].layout
    g = geometry(layout)
    problem = None
    for s in shards[1:]:
        if not same_geometry(s.layout, layout) or tuple(s.layout.shape) != tuple(layout.shape):
            problem = (f"{getattr(func, '__name__', 'op')}: ShardTensors of different layouts "
                       f"(shapes {tuple(layout.shape)} and {tuple(s.layout.shape)}); redistribute one first")
    plain = [a for a in list(args) + list(kwargs.values()) if isinstance(a, torch.Tensor) and a.dim() > 0]
    for t in plain:
        if t.dim() > g.ndim:
            problem = problem or f"a tensor of {t.dim()} dims combined with a {g.ndim}-dim ShardTensor"
            continue
        for k in range(1, t.dim() + 1):
            a = g.ndim - k
            if t.shape[-k] != 1 and (g.parts[a] > 1 or t.shape[-k] != g.shape[a]):
                problem = problem or (f"a plain tensor of shape {tuple(t.shape)} does not broadcast over "
                                      f"the sharded {tuple(g.shape)} (size 1 or the whole extent on unsplit axes)")
    # always one agreement (a rank passing a plain tensor where another passes a number must not
    # leave the others waiting): the plain tensors' shapes, values and requires_grad flags
    agree(layout.comm, getattr(func, "__name__", "op"), problem,
          same=(("the broadcast tensors' shapes", tuple(tuple(t.shape) for t in plain)),
                ("the broadcast tensors' values (CRC-32)", tuple(values_crc(t) for t in plain)),
                ("the broadcast tensors' requires_grad", tuple(t.requires_grad for t in plain))))

    def unwrap(a):
        if isinstance(a, ShardTensor):
            return a.local
        if isinstance(a, torch.Tensor):
            return into_shards(a, layout.comm)
        return a

    out = func(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
    if isinstance(out, torch.Tensor) and tuple(out.shape) == tuple(layout.local_shape):
        # in-place functions return their input: keep the caller's ShardTensor object
        if isinstance(args[0], ShardTensor) and out is args[0].local:
            return args[0]
        return ShardTensor._wrap(out, layout)
    raise error(f"{getattr(func, '__name__', 'op')}: the result is not cell by cell on the shard")
