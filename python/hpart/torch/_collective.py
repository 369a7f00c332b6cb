"""Collectives of the sharded ops: agreed errors and the three reductions autograd needs.

Gradient convention (as DTensor's): a *replicated* tensor (a parameter, a loss, a group-norm
statistic) carries its FULL gradient on every rank; a sharded tensor carries the gradient of its
own cells. Hence three sums over the mesh, differing only in their backward:

- `into_shards(t)`: identity forward; backward all-reduces (sums) the gradient. Applied where a
  replicated tensor enters sharded work (a conv weight, a broadcast bias, from_global's input):
  each rank's local backward sees only its cells' share of the gradient.
- `to_replicated(t)`: all-reduce forward; identity backward. A sharded partial result becoming a
  replicated one (sum, mean, losses): the full gradient already arrives on every rank.
- `shared_sum(t)`: all-reduce forward and backward: partial sums whose total is used again by
  every shard (group-norm statistics), the exact adjoint of y_r = sum_q s_q.

Backward collectives run in autograd's order, which is the same on every rank as long as every
rank builds the same graph (SPMD: the same ops, the same requires_grad flags).
"""
import zlib

import torch
from mpi4py import MPI

from ._checks import agree as _agree_values
from ._checks import error  # noqa: F401  (the ops raise it from here)


_SLOTS = 8  # elements of a tuple compared one by one (a longer one is compared by its CRC)


def _flatten(name, v, values, names):
    """1 + _SLOTS ints per entry whatever the value (the agreement is one allreduce over int64s:
    every rank must contribute as many, even where a rank passes None instead of a tuple):
    slot 0 is an int itself, or a tuple's length (-1 for None), or the CRC-32 of a float's or a
    string's repr; then the tuple's elements (ints, or CRCs), 0 where there are none."""
    def one(e):
        if isinstance(e, (bool, int)):
            return int(e)
        return zlib.crc32(repr(e).encode())

    if v is None:
        head, elems = -1, []
    elif isinstance(v, (tuple, list)):
        head, elems = (len(v), [one(e) for e in v]) if len(v) <= _SLOTS else (one(tuple(v)), [])
    else:
        head, elems = one(v), []
    values.extend([head] + elems + [0] * (_SLOTS - len(elems)))
    names.extend([name] + [f"{name}[{i}]" for i in range(_SLOTS)])


def values_crc(t):
    """A CRC-32 of a (small, replicated) tensor's values, for `agree`: replicated parameters must
    be identical on every rank (a rank seeded differently would train a model of its own)."""
    if not isinstance(t, torch.Tensor):
        return -1
    return zlib.crc32(t.detach().to("cpu").contiguous().numpy().tobytes())


def agree(comm, fn, problem, same=()):
    """Collective check (one allreduce, the package's _checks.agree): raise the same hpart.Error on
    every rank of comm when any rank has a `problem` (a message, or None; the lowest failing
    rank's wins), or when a value in `same` (pairs (name, value) every rank must pass alike, e.g.
    ("weight shape", (8, 3, 3, 3))) differs between the ranks."""
    values, names = [], []
    for name, v in same:
        _flatten(name, v, values, names)
    _agree_values(comm, fn, problem, values, names)


def _allreduce(t, comm):
    """Sum of t over comm (a new tensor; CUDA tensors staged through host memory)."""
    if comm.size == 1:
        return t.clone()
    host = t.detach().to("cpu", copy=True).contiguous()
    comm.Allreduce(MPI.IN_PLACE, host.numpy())
    return host.to(t.device)


class _IntoShards(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, comm):
        ctx.comm = comm
        return t.view_as(t)

    @staticmethod
    def backward(ctx, g):
        return _allreduce(g, ctx.comm), None


class _ToReplicated(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, comm):
        return _allreduce(t, comm)

    @staticmethod
    def backward(ctx, g):
        return g, None


class _SharedSum(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t, comm):
        ctx.comm = comm
        return _allreduce(t, comm)

    @staticmethod
    def backward(ctx, g):
        return _allreduce(g, ctx.comm), None


def into_shards(t, comm):
    """A replicated tensor (parameter) used by sharded work: its gradient is summed over comm,
    so every rank's .grad equals the unsharded model's. None and constants pass through."""
    if t is None or not isinstance(t, torch.Tensor) or not t.requires_grad or comm.size == 1:
        return t
    return _IntoShards.apply(t, comm)


def to_replicated(t, comm):
    """Sum of per-rank partial results, replicated (forward all-reduce, backward identity)."""
    if comm.size == 1:
        return t
    return _ToReplicated.apply(t, comm)


def shared_sum(t, comm):
    """Sum of per-rank partial results that every shard uses again (all-reduce both ways)."""
    if comm.size == 1:
        return t
    return _SharedSum.apply(t, comm)

