"""hpart: dynamic partitioning for MPI + OpenMP codes, from Python.

Every partitioner of the C++ library, over numpy arrays (no copies where the layout allows) and
mpi4py communicators (any communicator, sub-communicators included; default MPI.COMM_WORLD):

    >>> import numpy as np, hpart
    >>> from mpi4py import MPI
    >>> xyz = np.random.default_rng(MPI.COMM_WORLD.rank).random((1000, 3))
    >>> p = hpart.partition_points(xyz, parts=8)      # collective
    >>> p.parts                                        # int32, one per local point

Bad input raises the same hpart.Error (with .code, an hpart.ErrorCode) on every rank of the
communicator: never a hang, never a silent conversion (a float32 array where float64 is
expected is an error naming the argument, not a hidden copy).

hpart.torch (imported on its own: `import hpart.torch`) shards torch tensors spatially over
ranks, with halo exchange, redistribution and sharded layers whose gradients equal the
unsharded model's.

See docs/python.md for the whole API.
"""
# mpi4py initialises MPI (MPI_THREAD_MULTIPLE by default) and finalises it at exit; hpart uses
# that MPI and never initialises or finalises it itself.
from mpi4py import MPI as _MPI  # noqa: F401  (must come before the extension module)

from ._hpart import *  # noqa: F401,F403
from ._hpart import Error, ErrorCode, __version__  # noqa: F401

__all__ = [name for name in dir() if not name.startswith("_")]
