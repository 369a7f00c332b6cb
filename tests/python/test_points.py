"""hpart.partition_points from numpy: the parts equal the C++ call's (through the CLI-independent
property that the partition is the same for any rank count), and bad input raises hpart.Error on
every rank."""
import numpy as np
import pytest
from mpi4py import MPI

import hpart

from conftest import global_block, every_rank_raises

COMM = MPI.COMM_WORLD


def test_parts_cover_and_balance():
    n = 20000
    xyz = global_block(np.random.default_rng(7).random((n, 3)), COMM)
    p = hpart.partition_points(xyz, parts=8)
    assert p.parts.dtype == np.int32 and p.parts.shape == (len(xyz),)
    assert p.parts.min(initial=0) >= 0 and p.parts.max(initial=0) < 8
    counts = np.bincount(p.parts, minlength=8)
    COMM.Allreduce(MPI.IN_PLACE, counts)
    assert counts.sum() == n
    assert (counts == p.part_sizes).all()
    assert p.metrics.imbalance[0] <= 0.001 + 1e-12
    assert p.metrics.objects == n


def test_same_parts_for_any_rank_count():
    """Every rank computes the np-1 partition on a sub-communicator of itself and compares its block."""
    n = 5000
    everything = np.random.default_rng(3).random((n, 2))
    w = np.random.default_rng(4).random(n) + 0.5
    mine = global_block(everything, COMM)
    lo = global_block(np.arange(n), COMM)
    dist = hpart.partition_points(mine, parts=5, weights=np.ascontiguousarray(w[lo]), curve="morton")
    alone = hpart.partition_points(everything, parts=5, weights=w, curve=hpart.Curve.morton, comm=MPI.COMM_SELF)
    assert (dist.parts == alone.parts[lo]).all()


def test_int32_ids_are_the_int64_ids():
    """Ids break ties between equal keys: int32 ids (read in place) give the int64 ids' parts,
    and a repeated int32 id is the same error on every rank."""
    n = 6000
    xy = np.floor(np.random.default_rng(11).random((n, 2)) * 8)  # many equal points: ids decide
    ids = np.random.default_rng(12).permutation(n) * 3
    lo = global_block(np.arange(n), COMM)
    mine = np.ascontiguousarray(xy[lo])
    a = hpart.partition_points(mine, parts=7, ids=ids[lo].astype(np.int64))
    b = hpart.partition_points(mine, parts=7, ids=ids[lo].astype(np.int32))
    assert (a.parts == b.parts).all() and (a.part_sizes == b.part_sizes).all()
    bad = ids[lo].astype(np.int32)
    if COMM.rank == COMM.size - 1 and len(bad) > 1:
        bad[1] = bad[0]
    every_rank_raises(lambda: hpart.partition_points(mine, parts=7, ids=bad), "given twice", COMM)


def test_parts_is_a_view_not_a_copy():
    p = hpart.partition_points(np.random.default_rng(COMM.rank).random((100, 3)), parts=3)
    a = p.parts
    b = p.parts
    assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]


def test_sub_communicator():
    sub = COMM.Split(COMM.rank % 2, COMM.rank)
    xyz = np.random.default_rng(COMM.rank).random((500, 3))
    p = hpart.partition_points(xyz, parts=4, comm=sub)
    assert p.metrics.objects == 500 * sub.size
    sub.Free()


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(coords=np.zeros((10, 3), dtype=np.float32)), "dtype float32"),
        (dict(coords=np.zeros((10, 4))), "2 or 3 columns"),
        (dict(coords=np.zeros((3, 10)).T), "C-contiguous"),
        (dict(coords=[[0.0, 0.0, 0.0]]), "numpy array"),
        (dict(weights=np.ones(9)), "weights has 9 rows"),
        (dict(parts=0), "parts"),
        (dict(curve="peano"), "curve"),
        (dict(comm=42), "mpi4py communicator"),
        # Scalars of the wrong type: converted inside the call and agreed, never a local
        # TypeError on the one rank while the others wait in the agreement.
        (dict(parts="4"), "parts must be an int, got str"),
        (dict(parts=4.0), "parts must be an int, got float"),
        (dict(parts=True), "parts must be an int, got bool"),
        (dict(parts=None), "parts must be an int, got NoneType"),
        (dict(parts=2**40), "parts = 1099511627776 is out of range"),
        (dict(imbalance="0.1"), "imbalance must be a number, got str"),
        (dict(imbalance=False), "imbalance must be a number, got bool"),
        (dict(curve=1), "curve must be a name .* got int"),
        (dict(preset=2.0), "preset must be a name .* got float"),
    ],
)
def test_bad_input_on_one_rank_is_every_ranks_error(bad, match):
    """The bad argument is passed on the last rank only; every rank must raise the same error."""
    args = dict(coords=np.random.default_rng(COMM.rank).random((10, 3)), parts=4)
    if COMM.rank == COMM.size - 1 or "comm" in bad:
        args.update(bad)
    every_rank_raises(lambda: hpart.partition_points(**args), match, COMM)


def test_numpy_scalars_are_numbers():
    """numpy integers and floats are accepted where ints and numbers are (what a script computes)."""
    xyz = np.random.default_rng(COMM.rank).random((200, 3))
    p = hpart.partition_points(xyz, np.int64(4), imbalance=np.float32(0.01))
    q = hpart.partition_points(xyz, 4, imbalance=0.01)
    assert p.num_parts == 4 and (p.parts == q.parts).all()
