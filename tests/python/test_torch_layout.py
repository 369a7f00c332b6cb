"""hpart.torch.Layout: the shards cover the global tensor exactly once, properties agree with each
other, a cost field gives balanced uneven shards (better balanced than equal widths), align_levels
aligns the cuts, explicit extents are kept; bad input raises the same hpart.Error on every rank."""
import numpy as np
import pytest
import torch
from mpi4py import MPI

import hpart
import hpart.torch as ht

from conftest import every_rank_raises

COMM = MPI.COMM_WORLD


def mesh2d(P):
    return (1, 1, 2, P // 2) if P % 2 == 0 and P > 2 else (1, 1, P, 1)


def coverage(L):
    """How many ranks' shards hold each global cell (a numpy array of the global shape)."""
    count = np.zeros(L.shape, dtype=np.int64)
    for sl in L.boxes():
        count[sl] += 1
    return count


@pytest.mark.parametrize("shape, mesh", [((2, 3, 11, 7), None), ((1, 2, 5, 6, 7), "3d")])
def test_sharded_covers_every_cell_once(shape, mesh):
    P = COMM.size
    if mesh is None:
        mesh = mesh2d(P)
    else:
        mesh = (1, 1, 1, P, 1) if P % 2 else (1, 1, 2, 1, P // 2)
    L = ht.Layout.sharded(shape, mesh)
    assert L.shape == shape and L.mesh == mesh and L.size == P and L.rank == COMM.rank
    assert L.spatial_dims == len(shape) - 2
    assert (coverage(L) == 1).all()
    assert L.boxes()[COMM.rank] == L.local_slices
    assert L.local_shape == tuple(s.stop - s.start for s in L.local_slices)
    # Every rank computed the same boxes.
    assert COMM.allgather(L.boxes()) == [L.boxes()] * P
    assert L.placements == tuple(ht.Shard(i) if m > 1 else ht.Replicate() for i, m in enumerate(mesh))
    assert [p == ("Shard" if m > 1 else "Replicate") for p, m in zip(L.placements, mesh)] == [True] * len(mesh)
    assert L.periodic == (False,) * len(shape)
    assert L.comm is COMM or L.comm == COMM
    # Extents per mesh position sum to the shape, and this rank's is its local shape.
    for a, ext in enumerate(L.extents):
        assert sum(ext) == shape[a] and len(ext) == mesh[a]
        assert ext[L.mesh_coords[a]] == L.local_shape[a]


def test_periodic_forms():
    P = COMM.size
    a = ht.Layout.sharded((1, 1, 4 * P, 4), mesh2d(P), periodic=True)
    b = ht.Layout.sharded((1, 1, 4 * P, 4), mesh2d(P), periodic=(True, False))
    c = ht.Layout.sharded((1, 1, 4 * P, 4), mesh2d(P), periodic=(False, False, False, True))
    assert a.periodic == (False, False, True, True)
    assert b.periodic == (False, False, True, False)
    assert c.periodic == (False, False, False, True)


def row_cost(n_rows, width, comm):
    """Rank r's block of rows of a cost field growing quadratically along H (its box, costs)."""
    lo, hi = n_rows * comm.rank // comm.size, n_rows * (comm.rank + 1) // comm.size
    rows = np.arange(lo, hi, dtype=np.float64)
    cost = np.ascontiguousarray(np.repeat((1.0 + rows ** 2)[:, None], width, axis=1))
    return cost, ((lo, hi), (0, width))


def test_balanced_from_cost_field():
    P = COMM.size
    H, W = 40 * P, 8
    cost, box = row_cost(H, W, COMM)
    mesh = (1, 1, P, 1)
    L = ht.Layout.sharded((1, 2, H, W), mesh, cost=cost, cost_box=box)
    U = ht.Layout.sharded((1, 2, H, W), mesh, split="uniform")
    full = (1.0 + np.arange(H, dtype=np.float64) ** 2) * W

    def worst(layout):
        return max(full[sl[2]].sum() for sl in layout.boxes())

    assert (coverage(L) == 1).all()
    assert worst(L) <= worst(U)
    if P > 1:
        assert worst(L) < 0.9 * worst(U)          # the quadratic field is far from uniform
        assert len(set(L.extents[2])) > 1          # uneven
        # Within a row's cost of the ideal share (cuts fall between rows).
        assert worst(L) <= full.sum() / P + full.max()
    # Cost boxes given as slices, and torch float64 tensors, are the same split.
    L2 = ht.Layout.sharded((1, 2, H, W), mesh, cost=torch.from_numpy(cost),
                           cost_box=(slice(*box[0]), slice(*box[1])))
    assert L2.boxes() == L.boxes()


def test_align_levels():
    P = COMM.size
    H = 64 * P + 5
    cost, box = row_cost(H, 4, COMM)
    L = ht.Layout.sharded((1, 1, H, 4), (1, 1, P, 1), cost=cost, cost_box=box, align_levels=3)
    starts = np.cumsum([0] + L.extents[2][:-1])
    assert all(s % 8 == 0 for s in starts), starts
    assert (coverage(L) == 1).all()


def test_explicit_extents():
    P = COMM.size
    ext = [3 + i for i in range(P)]
    L = ht.Layout.sharded((1, 2, sum(ext), 5), (1, 1, P, 1), split=[None, None, ext, None])
    assert L.extents[2] == ext
    assert L.local_shape[2] == ext[COMM.rank]


def test_replicated_and_on_rank():
    P = COMM.size
    R = ht.Layout.replicated((1, 2, 3, 4))
    assert R.local_shape == (1, 2, 3, 4) and all(sl == R.local_slices for sl in R.boxes())
    assert R.placements == (ht.Replicate(),) * 4
    root = P - 1
    O = ht.Layout.on_rank((1, 2, 3, 4, 5), root=root)
    assert O.local_shape == ((1, 2, 3, 4, 5) if COMM.rank == root else (0, 0, 0, 0, 0))
    assert O.empty == (COMM.rank != root)


def test_sub_communicator():
    sub = COMM.Split(COMM.rank % 2, COMM.rank)
    L = ht.Layout.sharded((1, 1, 4 * sub.size, 3), (1, 1, sub.size, 1), comm=sub)
    assert L.size == sub.size and L.rank == sub.rank and L.comm is sub
    assert (coverage(L) == 1).all()


def test_bad_input_on_one_rank_is_every_ranks_error():
    P = COMM.size
    last = COMM.rank == P - 1
    mesh = (1, 1, P, 1)

    def sharded(**kw):
        args = dict(shape=(1, 1, 4 * P, 4), mesh=mesh)
        args.update(kw)
        return lambda: ht.Layout.sharded(args.pop("shape"), args.pop("mesh"), **args)

    if P > 1:
        every_rank_raises(sharded(shape=(1, 1, 4 * P + (1 if last else 0), 4)), "shape\\[H\\] differs", COMM)
        every_rank_raises(sharded(shape=(1, 1, 1, 4 * P, 4) if last else (1, 1, 4 * P, 4),
                                  mesh=(1, 1, 1, P, 1) if last else mesh), "spatial axes differs", COMM)
    every_rank_raises(sharded(mesh=(1, 1, P) if last else mesh), "mesh .* has 3 entries", COMM)
    every_rank_raises(sharded(mesh=(1, 1, P + 1, 1)), "mesh", COMM)  # not comm.size ranks
    every_rank_raises(sharded(shape=(1, 1, 0, 4) if last else (1, 1, 4 * P, 4)), "extent < 1", COMM)
    every_rank_raises(sharded(shape="big" if last else (1, 1, 4 * P, 4)), "shape must be", COMM)
    every_rank_raises(sharded(split="fancy" if last else "balanced"), "split 'fancy'", COMM)
    every_rank_raises(sharded(periodic=(True,) * 3 if last else None), "periodic", COMM)
    cost, box = row_cost(4 * P, 4, COMM)
    every_rank_raises(sharded(cost=cost.astype(np.float32) if last else cost, cost_box=box), "float64", COMM)
    every_rank_raises(sharded(cost=cost, cost_box=None if last else box), "cost_box", COMM)
    every_rank_raises(sharded(cost=np.ascontiguousarray(cost[:, :3]) if last else cost, cost_box=box), "cost has shape", COMM)
    every_rank_raises(lambda: ht.Layout.sharded((1, 1, 4, 4), (1, 1, 1, 1), comm=42), "mpi4py communicator", COMM)
    every_rank_raises(lambda: ht.Layout.on_rank((1, 1, 4, 4), root=P if last else 0), "root", COMM)
