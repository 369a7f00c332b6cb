"""hpart.partition_patches, repartition_patches and patch_neighbours: the result does not depend on
how the patch list is spread over ranks (the C++ promise: equal to the one-rank call on the whole
list), part weights equal the brute-force cost sums, part boxes bound their patches, a
repartition's migrated count equals the patches that changed part, and bad input on one rank is
every rank's hpart.Error."""
import numpy as np
import pytest
from mpi4py import MPI

import hpart

from conftest import every_rank_raises

COMM = MPI.COMM_WORLD
EXTENT = (96, 64)


def patch_level(seed=3):
    """A level of disjoint patches: a 12 x 8 tiling by 8 x 8 blocks, some merged into 16 x 8 ones,
    about a third left out; costs random. int64 (n, 4) rows lo_x lo_y hi_x hi_y."""
    rng = np.random.default_rng(seed)
    rows = []
    for by in range(8):
        bx = 0
        while bx < 12:
            wide = bx + 1 < 12 and rng.random() < 0.3
            w = 2 if wide else 1
            if rng.random() < 0.7:
                rows.append([8 * bx, 8 * by, 8 * (bx + w) - 1, 8 * by + 7])
            bx += w
    boxes = np.array(rows, dtype=np.int64)
    return boxes, rng.random(len(boxes)) * 10 + 1


def mine(a, comm=COMM):
    """Round-robin share of the global list (not a block: any split must give the same parts)."""
    return np.ascontiguousarray(a[comm.rank::comm.size])


def bounding(boxes):
    return tuple(boxes[:, :2].min(axis=0)), tuple(boxes[:, 2:].max(axis=0))


@pytest.mark.parametrize("method", ["knapsack", "sfc", "sfc_swap"])
def test_same_as_one_rank_and_weights_are_cost_sums(method):
    boxes, cost = patch_level()
    p = hpart.partition_patches(mine(boxes), EXTENT, 5, cost=mine(cost), method=method)
    alone = hpart.partition_patches(boxes, EXTENT, 5, cost=cost, method=method, comm=MPI.COMM_SELF)
    assert isinstance(p, hpart.PatchPartition)
    assert (p.parts == mine(alone.parts)).all()
    weights = np.array([cost[alone.parts == q].sum() for q in range(5)])
    assert np.allclose(p.part_weights.ravel(), weights)
    assert (p.part_sizes == np.bincount(alone.parts, minlength=5)).all()
    for q in range(5):
        b = p.boxes[q]
        lo, hi = bounding(boxes[alone.parts == q])
        assert b.lo == lo and b.hi == hi
    assert p.metrics.imbalance[0] == pytest.approx(weights.max() / weights.mean() - 1)


def test_default_cost_is_cells_and_presets():
    boxes, _ = patch_level()
    p = hpart.partition_patches(mine(boxes), EXTENT, 4, preset="fast", curve=hpart.Curve.morton)
    cells = (boxes[:, 2] - boxes[:, 0] + 1) * (boxes[:, 3] - boxes[:, 1] + 1)
    assert p.part_weights.sum() == cells.sum()
    strong = hpart.partition_patches(mine(boxes), EXTENT, 4, preset="strong", method=hpart.PatchMethod.knapsack)
    assert strong.metrics.imbalance[0] <= p.metrics.imbalance[0] + 1e-12


def test_repartition_moves_few_patches():
    boxes, cost = patch_level()
    p = hpart.partition_patches(mine(boxes), EXTENT, 6, cost=mine(cost))
    new_cost = cost.copy()
    new_cost[: len(cost) // 4] *= 3  # a hotspot grows
    r = hpart.repartition_patches(mine(boxes), EXTENT, p.parts, 6, cost=mine(new_cost), imbalance=0.05)
    alone_p = hpart.partition_patches(boxes, EXTENT, 6, cost=cost, comm=MPI.COMM_SELF)
    alone = hpart.repartition_patches(boxes, EXTENT, alone_p.parts, 6, cost=new_cost, imbalance=0.05, comm=MPI.COMM_SELF)
    assert isinstance(r, hpart.PatchRepartition)
    assert (r.parts == mine(alone.parts)).all()
    changed = np.array([np.count_nonzero(r.parts != p.parts)])
    COMM.Allreduce(MPI.IN_PLACE, changed)
    assert r.migrated.objects == changed[0] and r.steps == alone.steps
    before = hpart.evaluate_partition(p.parts, 6, weights=mine(new_cost))
    assert r.metrics.imbalance[0] <= max(0.05, before.metrics.imbalance[0]) + 1e-12


def test_neighbours_are_distribution_independent():
    boxes, cost = patch_level()
    p = hpart.partition_patches(mine(boxes), EXTENT, 4, cost=mine(cost))
    n = hpart.patch_neighbours(mine(boxes), EXTENT, p, halo=2)
    alone_p = hpart.partition_patches(boxes, EXTENT, 4, cost=cost, comm=MPI.COMM_SELF)
    alone = hpart.patch_neighbours(boxes, EXTENT, alone_p, halo=2, comm=MPI.COMM_SELF)
    assert n.halo_volume == alone.halo_volume > 0
    assert [[(q.part, q.halo_cells) for q in l] for l in n.of_part] == [[(q.part, q.halo_cells) for q in l] for l in alone.of_part]


def test_sub_communicator():
    sub = COMM.Split(COMM.rank % 2, COMM.rank)
    boxes, cost = patch_level()
    p = hpart.partition_patches(mine(boxes, sub), EXTENT, 3, cost=mine(cost, sub), comm=sub)
    assert p.metrics.objects == len(boxes)
    sub.Free()


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(boxes=np.zeros((2, 4), dtype=np.int32)), "dtype int32"),
        (dict(boxes=np.zeros((2, 6), dtype=np.int64)), "6 columns"),
        (dict(cost=np.ones(1)), "cost has 1 values"),
        (dict(extent=(96,)), "extent"),
        (dict(method="greedy"), "method"),
        (dict(boxes=np.array([[0, 0, 200, 7]], dtype=np.int64), cost=np.ones(1)), ""),  # outside the domain
        (dict(imbalance=None, parts=0), "parts"),
        (dict(comm="world"), "mpi4py communicator"),
        (dict(parts="4"), "parts must be an int, got str"),
        (dict(parts=4.0), "parts must be an int, got float"),
        (dict(imbalance="0"), "imbalance must be a number, got str"),
        (dict(extent=(96, 64.0)), "extent must be an int, got float"),
        (dict(curve=0), "curve must be a name .* got int"),
    ],
)
def test_bad_input_on_one_rank_is_every_ranks_error(bad, match):
    boxes, cost = patch_level()
    args = dict(boxes=mine(boxes), extent=EXTENT, parts=4, cost=mine(cost))
    if COMM.rank == COMM.size - 1 or "comm" in bad:
        args.update(bad)
    every_rank_raises(lambda: hpart.partition_patches(**args), match, COMM)


def test_bad_current_on_one_rank():
    boxes, cost = patch_level()
    current = np.zeros(len(mine(boxes)), dtype=np.int32)
    if COMM.rank == COMM.size - 1:
        current = current.astype(np.int64)
    every_rank_raises(lambda: hpart.repartition_patches(mine(boxes), EXTENT, current, 4), "current has dtype int64", COMM)


def test_wrong_scalar_types_on_one_rank():
    boxes, cost = patch_level()
    last = COMM.rank == COMM.size - 1
    current = np.zeros(len(mine(boxes)), dtype=np.int32)
    every_rank_raises(lambda: hpart.repartition_patches(mine(boxes), EXTENT, current, None if last else 4),
                      "parts must be an int, got NoneType", COMM)
    p = hpart.partition_patches(mine(boxes), EXTENT, 4, cost=mine(cost))
    every_rank_raises(lambda: hpart.patch_neighbours(mine(boxes), EXTENT, p, halo=True if last else 1),
                      "halo must be an int, got bool", COMM)
