"""hpart.torch: domain-parallel torch tensors on hpart's sharded-tensor layouts.

A global tensor (N, C, W), (N, C, H, W) or (N, C, D, H, W) is cut over the ranks of an mpi4py communicator by
an hpart.torch.Layout (shard extents chosen by hpart: equal, balanced from a cost field, aligned
for pooling); each rank holds its shard as a plain torch tensor. Halo exchange, scatter, gather
and redistribute are torch.autograd Functions whose backward passes are the C++ adjoints, so
gradients equal those of the unsharded computation.

    >>> import torch, hpart.torch as ht
    >>> L = ht.Layout.sharded((1, 16, 512, 512), (1, 1, 2, 2))    # collective, 4 ranks
    >>> x = ht.scatter(full if L.rank == 0 else None, L)           # this rank's (1, 16, 256, 256)
    >>> xh = ht.halo_exchange(x, L, 1)                             # (1, 16, 258, 258)
    >>> y = torch.nn.functional.conv2d(xh, w)                      # the global conv's cells
    >>> whole = ht.gather(y, L)                                    # on every rank

Every call is collective over the layout's communicator (SPMD: every rank makes the same calls in
the same order), and bad input raises the same hpart.Error on every rank. CPU tensors go through
MPI directly; CUDA tensors are staged through host memory (no CUDA-aware MPI assumed).
See docs/torch.md.

Kokkos (the C++ tensors' runtime) is initialised when this package is imported and finalised at
interpreter exit, before mpi4py finalises MPI; cached plans are released first.
"""
import atexit as _atexit

import torch  # noqa: F401  (fails early, with torch's own message, where torch is missing)

from .. import _hpart

if not getattr(_hpart, "has_tensor", False):
    raise ImportError("hpart.torch needs hpart built with Kokkos (the C++ sharded tensors): this build has none")

_hpart._kokkos_initialize()
# Python atexit hooks run before mpi4py's MPI_Finalize (a Py_AtExit callback, called after all of
# them), so plans' MPI requests are freed and Kokkos finalised while MPI is still up.
_atexit.register(_hpart._kokkos_finalize)

from .layout import Layout, Replicate, Shard  # noqa: E402
from .halo import halo_exchange, halo_exchange_  # noqa: E402
from .redistribute import gather, redistribute, scatter  # noqa: E402
from .shard_tensor import ShardTensor  # noqa: E402
from . import ops_conv, ops_misc, ops_norm, ops_pool  # noqa: E402,F401  (register ShardTensor's sharded ops)

__all__ = ["Layout", "Shard", "Replicate", "halo_exchange", "halo_exchange_", "scatter", "gather", "redistribute",
           "ShardTensor"]
