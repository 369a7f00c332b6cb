"""hpart.partition_grid, repartition_grid and grid_neighbours from numpy: the parts equal the C++
`hpart grid` program's on the same cost field (every method), they do not depend on how the cells
are spread over ranks, the locator agrees with the parts for every local cell, and bad input on
one rank is every rank's hpart.Error."""
import os

import numpy as np
import pytest
from mpi4py import MPI

import hpart

from conftest import every_rank_raises
from hpart_cli import run_cli, shared_tmpdir

COMM = MPI.COMM_WORLD
METHODS = ["sfc", "blocks", "tensor", "uniform"]


def global_cost(extent, seed=1):
    """A deterministic cost field over the whole grid, shaped (z, y, x): 1 plus a hot corner."""
    rng = np.random.default_rng(seed)
    c = rng.random(tuple(reversed(extent))) + 0.5
    c[tuple(slice(0, max(1, e // 3)) for e in reversed(extent))] += 20.0
    return c


def local_grid(extent, comm=COMM, seed=1, cost=True):
    box = hpart.slab_of(extent, comm=comm)
    c = global_cost(extent, seed)
    sl = tuple(slice(box.lo[d], box.hi[d] + 1) for d in reversed(range(len(extent))))
    return hpart.Grid(extent, box, np.ascontiguousarray(c[sl]) if cost else None), c


def local_cells(box):
    """The cells of a box, row-major with x fastest (the order of partition.parts), int64 (n, dim)."""
    axes = [np.arange(box.lo[d], box.hi[d] + 1) for d in range(box.dim)]
    mesh = np.meshgrid(*reversed(axes), indexing="ij")
    return np.ascontiguousarray(np.stack([m.ravel() for m in reversed(mesh)], axis=1).astype(np.int64))


@pytest.mark.parametrize("extent", [(37, 29), (13, 11, 9)])
@pytest.mark.parametrize("method", METHODS)
def test_parts_cover_and_match_the_locator(method, extent):
    grid, cost = local_grid(extent)
    p = hpart.partition_grid(grid, parts=7, method=method)
    cells = int(np.prod(extent))
    assert isinstance(p, hpart.GridPartition) and isinstance(p, hpart.Partition)
    assert p.parts.dtype == np.int32 and len(p.parts) == grid.local.volume()
    counts = np.bincount(p.parts, minlength=7)
    COMM.Allreduce(MPI.IN_PLACE, counts)
    assert counts.sum() == cells and (counts == p.part_sizes).all()
    assert np.isclose(p.part_weights.sum(), cost.sum())
    xyz = local_cells(grid.local)
    assert (p.parts_of(xyz) == p.parts).all()
    if len(xyz):
        assert p.part_of(tuple(int(v) for v in xyz[-1])) == p.parts[-1]
    assert len(p.boxes) == 7
    inside = np.ones(len(xyz), dtype=bool)
    for q in range(7):
        b = p.boxes[q]
        mine = p.parts == q
        inside[mine] = np.all((xyz[mine] >= b.lo) & (xyz[mine] <= b.hi), axis=1)
    assert inside.all()  # a part's cells lie in its box (sfc: the bounding box)
    assert p.box_shaped == (method != "sfc")
    if method in ("tensor", "uniform"):
        assert np.prod([s for s in p.shape if s > 0]) == 7


@pytest.mark.parametrize("method", METHODS + ["hier"])
def test_same_parts_as_the_cpp_program(method):
    """`hpart grid` (C++, one rank) writes the cost field and its parts; Python reads the field
    over this communicator, partitions it with the same options and must get the same parts."""
    with shared_tmpdir(COMM) as d:
        out = os.path.join(d, "grid.h5")
        cli = ["grid", "--extent", "48,40", "--parts", 6, "--method", method, "--out", out, "--quiet"]
        if method == "hier":
            cli += ["--topology", "1x1"]
        rc, err = run_cli(COMM, *cli)
        assert rc == 0, err
        if method == "hier":
            # The CLI's hierarchy ran on one rank: compare on a one-rank communicator.
            g = hpart.read_grid_cost_h5(out, comm=MPI.COMM_SELF)
            ref = hpart.read_grid_cost_h5(out, "/parts", comm=MPI.COMM_SELF)
            t = hpart.detect_topology("1x1", comm=MPI.COMM_SELF)
            p = hpart.partition_grid_hierarchical(g, 6, topology=t, comm=MPI.COMM_SELF)
        else:
            g = hpart.read_grid_cost_h5(out)
            ref = hpart.read_grid_cost_h5(out, "/parts")  # the parts as a field, same slabs
            p = hpart.partition_grid(g, 6, method=method)
        assert ref.local == g.local
        assert (p.parts == ref.cost.ravel().astype(np.int32)).all()


@pytest.mark.parametrize("method", METHODS)
def test_same_parts_for_any_distribution(method):
    """The partition of this communicator's slabs equals every rank's own one-rank partition of
    the whole grid, restricted to its slab."""
    extent = (31, 23, 6)
    grid, cost = local_grid(extent)
    dist = hpart.partition_grid(grid, 5, method=method, preset="standard")
    whole = hpart.Grid(extent, hpart.Box.from_extent(extent), cost)
    alone = hpart.partition_grid(whole, 5, method=method, preset="standard", comm=MPI.COMM_SELF)
    xyz = local_cells(grid.local)
    assert (dist.parts == alone.parts_of(xyz)).all()
    assert [b.lo for b in dist.boxes] == [b.lo for b in alone.boxes]


def test_presets_and_options():
    grid, _ = local_grid((40, 40))
    fast = hpart.partition_grid(grid, 4, preset="fast")
    assert not fast.box_shaped  # fast: sfc on Morton keys
    forced = hpart.partition_grid(grid, 4, preset="fast", method=hpart.GridMethod.blocks)
    assert forced.box_shaped
    t = hpart.partition_grid(grid, 6, method="tensor", shape=(3, 2))
    assert t.shape == (3, 2, 0) or t.shape[:2] == (3, 2)
    assert hpart.tensor_shape(2, (40, 40), 4)[:2] == (2, 2)
    unit = hpart.partition_grid(local_grid((40, 40), cost=False)[0], 4, method="sfc", target_sizes=np.array([1.0, 1, 1, 3]))
    assert abs(unit.part_sizes[3] - 800) <= 1 and all(abs(unit.part_sizes[:3] - 1600 / 6) <= 1)


def test_repartition_moves_few_cells():
    extent = (64, 48)
    grid, _ = local_grid(extent, seed=1)
    p = hpart.partition_grid(grid, 8, method="blocks")
    # The load drifts: a new cost field (same grid), then the planes move.
    moved, _ = local_grid(extent, seed=2)
    grid.cost = moved.cost
    before = hpart.evaluate_partition(p.parts, 8, weights=grid.cost.ravel())
    r = hpart.repartition_grid(grid, p, imbalance=0.02)
    assert isinstance(r, hpart.GridRepartition) and isinstance(r, hpart.GridPartition)
    changed = np.array([np.count_nonzero(r.parts != p.parts)])
    COMM.Allreduce(MPI.IN_PLACE, changed)
    assert r.migrated.objects == changed[0]
    assert r.metrics.imbalance[0] <= before.metrics.imbalance[0] + 1e-12
    assert (r.parts_of(local_cells(grid.local)) == r.parts).all()
    counts = np.bincount(r.parts, minlength=8)
    COMM.Allreduce(MPI.IN_PLACE, counts)
    assert (counts == r.part_sizes).all()


def test_neighbours_equal_brute_force_from_the_boxes():
    extent = (30, 20, 10)
    grid, _ = local_grid(extent)
    p = hpart.partition_grid(grid, 6, method="blocks")
    n = hpart.grid_neighbours(grid, p, halo=1)
    dom = hpart.Box.from_extent(extent)
    total = 0
    for a in range(6):
        want = []
        halo = p.boxes[a].grown(1).intersect(dom)
        for b in range(6):
            common = halo.intersect(p.boxes[b])
            if b != a and not common.empty():
                want.append((b, common.volume()))
                total += common.volume()
        assert [(q.part, q.halo_cells) for q in n.of_part[a]] == want
    assert n.halo_volume == total


def test_sub_communicator():
    sub = COMM.Split(COMM.rank % 2, COMM.rank)
    grid, cost = local_grid((20, 12), comm=sub)
    p = hpart.partition_grid(grid, 3, method="sfc", comm=sub)
    assert p.metrics.objects == 240 and np.isclose(p.part_weights.sum(), cost.sum())
    sub.Free()


def bad_call(bad):
    grid, _ = local_grid((16, 12))
    args = dict(grid=grid, parts=4)
    if COMM.rank == COMM.size - 1 or "comm" in bad:
        if "cost" in bad:
            grid.cost = bad.pop("cost")
        if "local" in bad:
            grid.local = bad.pop("local")
        args.update(bad)
    return lambda: hpart.partition_grid(**args)


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(cost=np.ones(3, dtype=np.float32)), "dtype float32"),
        (dict(cost=np.ones((2, 2))), "cost has shape"),
        (dict(cost=np.ones((12, 16))[:, ::2]), "C-contiguous|cost has shape"),
        (dict(grid=(16, 12)), "hpart.Grid"),
        (dict(method="peano"), "method"),
        (dict(shape="3x2"), "shape"),
        (dict(parts=0), "parts"),
        (dict(local=hpart.Box((0, 0), (15, 11))), ""),  # overlaps the other ranks' slabs (np > 1)
        (dict(comm=42), "mpi4py communicator"),
        (dict(parts="4"), "parts must be an int, got str"),
        (dict(parts=4.0), "parts must be an int, got float"),
        (dict(imbalance=True), "imbalance must be a number, got bool"),
        (dict(shape=(2, "2")), "shape must be an int, got str"),
        (dict(method=3), "method must be a name .* got int"),
        (dict(local="slab"), "grid.local must be an hpart.Box, got str"),
    ],
)
def test_bad_input_on_one_rank_is_every_ranks_error(bad, match):
    if "local" in bad and COMM.size == 1:
        pytest.skip("needs a second rank to overlap")
    every_rank_raises(bad_call(dict(bad)), match, COMM)


def test_bad_repartition_input_on_one_rank():
    grid, _ = local_grid((16, 12))
    p = hpart.partition_grid(grid, 4)
    prev = p if COMM.rank != COMM.size - 1 else "not a partition"
    every_rank_raises(lambda: hpart.repartition_grid(grid, prev), "previous must be an hpart.GridPartition", COMM)
    every_rank_raises(lambda: hpart.grid_neighbours(grid, prev), "partition must be", COMM)


def test_wrong_scalar_types_on_one_rank():
    grid, _ = local_grid((16, 12))
    p = hpart.partition_grid(grid, 4)
    last = COMM.rank == COMM.size - 1
    every_rank_raises(lambda: hpart.repartition_grid(grid, p, parts="4" if last else 4), "parts must be an int, got str", COMM)
    every_rank_raises(lambda: hpart.repartition_grid(grid, p, imbalance="x" if last else 0.1),
                      "imbalance must be a number, got str", COMM)
    every_rank_raises(lambda: hpart.grid_neighbours(grid, p, halo=1.0 if last else 1), "halo must be an int, got float", COMM)
    every_rank_raises(lambda: hpart.grid_neighbours(grid, p, halo=None if last else 1), "halo must be an int, got NoneType", COMM)
    # A Grid is checked when a collective call uses it, not at construction (a local TypeError
    # there would leave the other ranks waiting in partition_grid).
    bad = hpart.Grid((16.0, 12) if last else (16, 12), grid.local, grid.cost)
    every_rank_raises(lambda: hpart.partition_grid(bad, 4), "grid extent must be an int, got float", COMM)
    bad = hpart.Grid("16x12" if last else (16, 12), grid.local, grid.cost)
    every_rank_raises(lambda: hpart.partition_grid(bad, 4), "grid extent must be 2 or 3 ints", COMM)
    assert grid.extent == (16, 12) and grid.dim == 2 and grid.domain() == hpart.Box((0, 0), (15, 11))
