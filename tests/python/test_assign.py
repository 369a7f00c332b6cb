"""hpart.PartitionMap and hpart.map_of: the located part equals the assigned part for every local
point (with ids, and without where keys are distinct), box assign equals brute force over the
cells of a grid (exact there) and contains every sampled point's part for point maps, ranks follow
the parts' owners, the map is the same on every rank and survives save/load and pickle, and bad
input to the collective map_of on one rank is every rank's hpart.Error."""
import os
import pickle

import numpy as np
import pytest
from mpi4py import MPI

import hpart

from conftest import every_rank_raises, global_block
from hpart_cli import shared_tmpdir

COMM = MPI.COMM_WORLD


def points(n=8000, dim=3, seed=21):
    everything = np.random.default_rng(seed).random((n, dim))
    return everything, global_block(everything, COMM), global_block(np.arange(n, dtype=np.int64), COMM)


@pytest.mark.parametrize("curve", ["hilbert", "morton"])
@pytest.mark.parametrize("dim", [2, 3])
def test_located_part_is_assigned_part(curve, dim):
    _, xyz, ids = points(dim=dim)
    p = hpart.partition_points(xyz, 7, ids=ids, curve=curve)
    m = hpart.map_of(p, coords=xyz, ids=ids, curve=curve)
    assert m.kind == hpart.MapKind.points and m.dim == dim and m.num_parts == 7 and m.num_ranks == COMM.size
    assert (m.assign(xyz, ids) == p.parts).all()
    assert (m.assign(xyz) == p.parts).all()  # random points: distinct keys, no ties at the cuts
    for i in range(0, len(xyz), 503):
        assert m.part_of(xyz[i], int(ids[i])) == p.parts[i]
        assert m.part_of(tuple(xyz[i])) == p.parts[i]
        assert p.parts[i] in m.parts_at(xyz[i])
    # Owners: the library's default block owners of parts over ranks.
    owner = [q * COMM.size // 7 for q in range(7)]
    assert [m.rank_of_part(q) for q in range(7)] == owner
    assert (m.assign_ranks(xyz) == np.array(owner)[p.parts]).all()
    if len(xyz):
        assert m.rank_of(xyz[0]) == owner[p.parts[0]]
    # The same descriptor on every rank.
    texts = COMM.allgather(m.save())
    assert all(t == texts[0] for t in texts)


def test_box_assign_contains_every_point_inside():
    everything, xyz, ids = points(n=20000, dim=2)
    p = hpart.partition_points(xyz, 9, ids=ids)
    parts_all = np.empty(len(everything), dtype=np.int32)
    COMM.Allgatherv(p.parts, [parts_all, COMM.allgather(len(p.parts))])
    m = hpart.map_of(p, coords=xyz, ids=ids)
    rng = np.random.default_rng(4)
    for _ in range(20):
        lo = rng.random(2) * 0.8
        hi = lo + rng.random(2) * 0.3
        inside = np.all((everything >= lo) & (everything <= hi), axis=1)
        brute = set(np.unique(parts_all[inside]).tolist())
        got = m.parts_in_box(lo, hi)
        assert got.dtype == np.int32 and list(got) == sorted(got)
        assert brute <= set(got.tolist())
        assert list(m.ranks_in_box(lo, hi)) == sorted({m.rank_of_part(q) for q in got})
    # The whole domain meets every part.
    assert list(m.parts_in_box((0, 0), (1, 1))) == list(range(9))


@pytest.mark.parametrize("method", ["sfc", "blocks", "tensor"])
def test_grid_box_assign_equals_brute_force(method):
    extent = (40, 24)
    g = hpart.Grid(extent, hpart.slab_of(extent))
    p = hpart.partition_grid(g, 6, method=method)
    m = hpart.map_of(p, grid=g)
    assert m.kind == hpart.MapKind.grid
    whole = hpart.Box.from_extent(extent)
    every = np.array([[x, y] for y in range(24) for x in range(40)], dtype=np.int64)
    part_of = p.parts_of(every).reshape(24, 40)
    rng = np.random.default_rng(9)
    for _ in range(15):
        lo = rng.integers(0, [40, 24])
        hi = np.minimum(lo + rng.integers(0, 15, 2), [39, 23])
        box = hpart.Box(tuple(int(v) for v in lo), tuple(int(v) for v in hi))
        brute = np.unique(part_of[lo[1]:hi[1] + 1, lo[0]:hi[0] + 1])
        assert list(m.parts_in_box(box)) == list(brute)
        # Coordinates in cell units: cell c spans [c, c + 1).
        assert list(m.parts_in_box(lo + 0.5, hi + 0.5)) == list(brute)
    assert (m.assign(every.astype(np.float64) + 0.5) == part_of.ravel()).all()
    assert m.part_of_cell((3, 5)) == part_of[5, 3]
    assert list(m.parts_in_box(whole)) == sorted(set(part_of.ravel()))


def test_save_load_pickle_and_file():
    _, xyz, ids = points()
    p = hpart.partition_points(xyz, 5, ids=ids)
    m = hpart.map_of(p, coords=xyz, ids=ids, owner_of_part=np.array([4, 3, 2, 1, 0], dtype=np.int32) % COMM.size)
    again = hpart.PartitionMap.load(m.save())
    assert again.save() == m.save()
    assert (again.assign(xyz, ids) == p.parts).all()
    assert [again.rank_of_part(q) for q in range(5)] == [(4 - q) % COMM.size for q in range(5)]
    assert (pickle.loads(pickle.dumps(m)).assign(xyz) == m.assign(xyz)).all()
    with shared_tmpdir(COMM) as d:
        path = os.path.join(d, f"map.{COMM.rank}.txt")
        m.save_file(path)
        assert hpart.PartitionMap.load_file(path).save() == m.save()
    with pytest.raises(hpart.Error) as e:
        hpart.PartitionMap.load("hpart-partition-map 999\n")
    assert e.value.code == hpart.ErrorCode.io
    assert hpart.PartitionMap().empty()
    with pytest.raises(hpart.Error):
        hpart.PartitionMap().part_of((0.0, 0.0))


def test_local_query_errors():
    _, xyz, _ = points(dim=3)
    m = hpart.map_of(hpart.partition_points(xyz, 3), coords=xyz)
    with pytest.raises(hpart.Error, match="coords has 2 columns"):
        m.assign(np.zeros((4, 2)))
    with pytest.raises(hpart.Error, match="dtype float32"):
        m.assign(np.zeros((4, 3), dtype=np.float32))
    with pytest.raises(hpart.Error):
        m.part_of((0.0, 0.0))  # two values for a 3-D map
    with pytest.raises(hpart.Error):
        m.part_of((np.nan, 0.0, 0.0))


def test_sub_communicator():
    sub = COMM.Split(COMM.rank % 2, COMM.rank)
    xyz = np.random.default_rng(COMM.rank).random((400, 3))
    p = hpart.partition_points(xyz, 4, comm=sub)
    m = hpart.map_of(p, coords=xyz, comm=sub)
    assert m.num_ranks == sub.size and (m.assign(xyz) == p.parts).all()
    sub.Free()


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(coords=np.zeros((10, 3), dtype=np.float32)), "dtype float32"),
        (dict(coords=None), "coords"),
        (dict(curve="peano"), "curve"),
        (dict(partition="p"), "partition must be an hpart.Partition"),
        (dict(owner_of_part=np.zeros(3, dtype=np.int64)), "owner_of_part has dtype int64"),
        (dict(comm=7), "mpi4py communicator"),
        (dict(curve=1), "curve must be a name .* got int"),
        (dict(node_curve=2.0), "node_curve must be a name .* got float"),
    ],
)
def test_bad_map_input_on_one_rank(bad, match):
    xyz = np.random.default_rng(COMM.rank).random((10, 3))
    p = hpart.partition_points(xyz, 3)
    args = dict(partition=p, coords=xyz)
    if COMM.rank == COMM.size - 1 or "comm" in bad:
        args.update(bad)
    every_rank_raises(lambda: hpart.map_of(args.pop("partition"), **args), match, COMM)


def test_grid_map_without_grid_on_one_rank():
    extent = (16, 8)
    g = hpart.Grid(extent, hpart.slab_of(extent))
    p = hpart.partition_grid(g, 2)
    grid = None if COMM.rank == COMM.size - 1 else g
    every_rank_raises(lambda: hpart.map_of(p, grid=grid), "grid", COMM)


def test_partition_of_another_kind_on_one_rank():
    """A grid partition on one rank and a point partition on the others: each kind runs its own
    collectives, so the kind is agreed first and every rank raises the same error."""
    extent = (16, 8)
    g = hpart.Grid(extent, hpart.slab_of(extent))
    gp = hpart.partition_grid(g, 2)
    xyz = np.random.default_rng(COMM.rank).random((10, 3))
    pp = hpart.partition_points(xyz, 2)
    last = COMM.rank == COMM.size - 1
    if COMM.size > 1:  # (at np 1 the one rank's grid partition is a valid call)
        every_rank_raises(lambda: hpart.map_of(gp if last else pp, coords=xyz, grid=g), "different kinds", COMM)
    # Both kinds still work afterwards.
    assert (hpart.map_of(pp, coords=xyz).assign(xyz) == pp.parts).all()
    assert hpart.map_of(gp, grid=g).num_parts == 2
