"""Shared helpers of the Python tests (run under mpirun: every rank runs every test)."""
import os
import re

import numpy as np
import pytest
from mpi4py import MPI

import hpart


def global_block(a, comm):
    """Rank r's block [n r / R, n (r+1) / R) of a global array (the readers' distribution)."""
    n = len(a)
    lo, hi = n * comm.rank // comm.size, n * (comm.rank + 1) // comm.size
    return np.ascontiguousarray(a[lo:hi])


def every_rank_raises(call, match, comm):
    """call() must raise hpart.Error matching `match` on this rank, with the same message on every
    rank of comm (a test of the promise: never a hang, one error everywhere)."""
    with pytest.raises(hpart.Error, match=match) as info:
        call()
    messages = comm.allgather(str(info.value))
    assert all(m == messages[0] for m in messages), messages
    assert isinstance(info.value.code, hpart.ErrorCode)


@pytest.fixture
def shared_dir():
    d = os.environ.get("HPART_SHARED", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared"))
    if not os.path.isdir(os.path.join(d, "data")):
        pytest.skip("../shared/data is absent")
    return d
