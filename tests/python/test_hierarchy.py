"""hpart.detect_topology, partition_grid_hierarchical and partition_points_hierarchical: parts
numbered node by node and owned by ranks of their node, every object in one part, the node level
of a point partition equal to a flat one-rank partition into the nodes' shares (as the C++ test),
maps that locate every local object, and bad input on one rank raised on every rank."""
import itertools

import numpy as np
import pytest
from mpi4py import MPI

import hpart

from conftest import every_rank_raises, global_block

COMM = MPI.COMM_WORLD


def emulated(comm=COMM):
    """Two emulated nodes when the size is even, else one node per rank."""
    nodes = 2 if comm.size % 2 == 0 else comm.size
    return hpart.detect_topology(f"{nodes}x{comm.size // nodes}", comm=comm)


def check_levels(p, t, parts):
    assert len(p.node_of_part) == parts and len(p.owner_of_part) == parts
    assert list(p.node_of_part) == sorted(p.node_of_part)  # node by node
    for q in range(parts):
        assert t.node_of_rank[p.owner_of_part[q]] == p.node_of_part[q]
    # Node i gets parts in proportion to its ranks (the emulated nodes have equal ranks, and
    # parts is a multiple of the nodes).
    for node in range(t.nodes):
        assert p.node_of_part.count(node) == parts * t.ranks_on(node) // COMM.size


def test_topology():
    t = emulated()
    assert t.nodes * (COMM.size // t.nodes) == COMM.size and len(t.node_of_rank) == COMM.size
    assert sorted(itertools.chain(*[t.ranks_of(n) for n in range(t.nodes)])) == list(range(COMM.size))
    assert all(t.ranks_on(n) == len(t.ranks_of(n)) for n in range(t.nodes))
    assert t.source == f"{t.nodes}x{COMM.size // t.nodes}"
    every_rank_raises(lambda: hpart.detect_topology(f"{COMM.size + 1}x1"), "", COMM)


@pytest.mark.parametrize("node_cut", ["graph", "staircase", "boxes"])
def test_grid_hierarchy(node_cut):
    extent = (48, 36)
    box = hpart.slab_of(extent)
    rng = np.random.default_rng(5)
    cost = rng.random((extent[1], extent[0])) + 0.5
    g = hpart.Grid(extent, box, np.ascontiguousarray(cost[box.lo[1]:box.hi[1] + 1]))
    t = emulated()
    parts = 2 * COMM.size
    p = hpart.partition_grid_hierarchical(g, parts, topology=t, node_cut=node_cut)
    assert isinstance(p, hpart.HierGridPartition) and isinstance(p, hpart.GridPartition)
    check_levels(p, t, parts)
    counts = np.bincount(p.parts, minlength=parts)
    COMM.Allreduce(MPI.IN_PLACE, counts)
    assert counts.sum() == 48 * 36 and (counts == p.part_sizes).all()
    assert np.isclose(p.part_weights.sum(), cost.sum())
    # The locator and the map agree with the parts on every local cell; every cell lies in its
    # node's box.
    ys, xs = np.meshgrid(np.arange(box.lo[1], box.hi[1] + 1), np.arange(box.lo[0], box.hi[0] + 1), indexing="ij")
    cells = np.ascontiguousarray(np.stack([xs.ravel(), ys.ravel()], axis=1).astype(np.int64))
    assert (p.parts_of(cells) == p.parts).all()
    m = hpart.map_of(p, grid=g)
    assert m.kind == hpart.MapKind.grid
    for i in range(0, len(cells), 97):
        assert m.part_of_cell(tuple(cells[i])) == p.parts[i]
        nb = p.node_boxes[p.node_of_part[p.parts[i]]]
        assert nb.contains(tuple(cells[i]))
    # Halo volume split by level adds up.
    v = hpart.level_volumes(hpart.grid_neighbours(g, p), p.node_of_part)
    assert v.internode + v.intranode == v.total == hpart.grid_neighbours(g, p).halo_volume


def test_grid_hierarchy_default_topology_and_preset():
    extent = (32, 32)
    g = hpart.Grid(extent, hpart.slab_of(extent))
    p = hpart.partition_grid_hierarchical(g, preset="fast")
    assert p.num_parts == COMM.size  # parts 0: one per rank
    assert p.metrics.objects == 32 * 32


def test_point_hierarchy_node_level_equals_a_flat_partition():
    n = 6000
    everything = np.random.default_rng(11).random((n, 3))
    xyz = global_block(everything, COMM)
    ids = global_block(np.arange(n, dtype=np.int64), COMM)
    t = emulated()
    parts = 2 * COMM.size + 1
    h = hpart.partition_points_hierarchical(xyz, parts, ids=ids, topology=t, rank_curve="morton")
    assert isinstance(h, hpart.HierPartition)
    assert len(h.node_of_part) == parts and list(h.node_of_part) == sorted(h.node_of_part)
    for q in range(parts):
        assert t.node_of_rank[h.owner_of_part[q]] == h.node_of_part[q]
    counts = np.bincount(h.parts, minlength=parts)
    COMM.Allreduce(MPI.IN_PLACE, counts)
    assert counts.sum() == n and (counts == h.part_sizes).all() and h.metrics.empty_parts == 0
    share = np.array([h.node_of_part.count(i) for i in range(t.nodes)], dtype=np.float64)
    ref = hpart.partition_points(everything, t.nodes, target_sizes=share, comm=MPI.COMM_SELF)
    node = np.array(h.node_of_part)[h.parts]
    assert (node == ref.parts[ids]).all()
    # The hierarchical map locates every local point (with its id: exact).
    m = hpart.map_of(h, coords=xyz, ids=ids, rank_curve="morton")
    assert m.kind == hpart.MapKind.hierarchical_points
    assert (m.assign(xyz, ids) == h.parts).all()
    assert (m.assign_ranks(xyz, ids) == np.array(h.owner_of_part)[h.parts]).all()


def test_thread_chunks_are_bottleneck_optimal():
    w = np.random.default_rng(2).random(12) + 0.1
    c = hpart.thread_chunks(w, threads=3)
    assert c.dtype == np.int32 and list(c) == sorted(c) and set(c) == {0, 1, 2}
    best = min(max(w[:a].sum(), w[a:b].sum(), w[b:].sum()) for a in range(1, 11) for b in range(a + 1, 12))
    got = max(w[c == k].sum() for k in range(3))
    assert np.isclose(got, best)
    assert list(hpart.thread_chunks(None, n=6, threads=3)) == [0, 0, 1, 1, 2, 2]


def test_sub_communicator():
    sub = COMM.Split(COMM.rank % 2, COMM.rank)
    t = hpart.detect_topology(f"{sub.size}x1", comm=sub)
    xyz = np.random.default_rng(COMM.rank).random((300, 2))
    h = hpart.partition_points_hierarchical(xyz, 2 * sub.size, topology=t, comm=sub)
    assert h.metrics.objects == 300 * sub.size
    extent = (20, 10)
    p = hpart.partition_grid_hierarchical(hpart.Grid(extent, hpart.slab_of(extent, comm=sub)), topology=t, comm=sub)
    assert p.num_parts == sub.size and p.metrics.objects == 200
    sub.Free()


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(topology="2x1"), "topology must be an hpart.Topology"),
        (dict(node_cut="spiral"), "node_cut"),
        (dict(rank_method="peano"), "rank_method"),
        (dict(grid=None), "grid must be an hpart.Grid"),
        (dict(topology=hpart.Topology([0] * 7)), ""),  # a topology of another size
        (dict(imbalance="small"), "imbalance must be a number"),
        (dict(parts="4"), "parts must be an int, got str"),
        (dict(parts=None), "parts must be an int, got NoneType"),
        (dict(node_method=1.5), "node_method must be a name .* got float"),
    ],
)
def test_bad_grid_input_on_one_rank(bad, match):
    extent = (16, 16)
    args = dict(grid=hpart.Grid(extent, hpart.slab_of(extent)), parts=COMM.size, topology=emulated())
    if COMM.rank == COMM.size - 1:
        args.update(bad)
    every_rank_raises(lambda: hpart.partition_grid_hierarchical(**args), match, COMM)


@pytest.mark.parametrize(
    "bad, match",
    [
        (dict(coords=np.zeros((5, 3), dtype=np.float32)), "dtype float32"),
        (dict(node_curve="peano"), "node_curve"),
        (dict(ids=np.arange(4, dtype=np.int64)), "ids has 4 values"),
        (dict(parts=2.0), "parts must be an int, got float"),
        (dict(imbalance=True), "imbalance must be a number, got bool"),
    ],
)
def test_bad_point_input_on_one_rank(bad, match):
    args = dict(coords=np.random.default_rng(COMM.rank).random((5, 3)), parts=COMM.size, topology=emulated())
    if COMM.rank == COMM.size - 1:
        args.update(bad)
    every_rank_raises(lambda: hpart.partition_points_hierarchical(**args), match, COMM)


def test_graph_hierarchy(shared_dir):
    g = hpart.read_graph_metis(f"{shared_dir}/data/graphs/3elt.graph")
    t = emulated()
    parts = 2 * COMM.size
    h = hpart.partition_graph_hierarchical(g, parts, topology=t, imbalance=0.05)
    assert isinstance(h, hpart.HierPartition) and len(h.parts) == len(g)
    check_levels(h, t, parts)
    counts = np.bincount(h.parts, minlength=parts)
    COMM.Allreduce(MPI.IN_PLACE, counts)
    assert counts.sum() == g.global_vertices and (counts == h.part_sizes).all()
    assert h.metrics.within_tolerance and h.metrics.imbalance[0] <= 0.05 + 1e-12
    # The node level cuts fewer edges than the whole partition (nodes group whole parts).
    node = np.array(h.node_of_part, dtype=np.int32)[h.parts]
    assert hpart.graph_metrics(g, node, t.nodes).edge_cut <= hpart.graph_metrics(g, h.parts, parts).edge_cut


def test_bad_graph_hierarchy_input_on_one_rank():
    g = None if COMM.rank == COMM.size - 1 else "graph"
    every_rank_raises(lambda: hpart.partition_graph_hierarchical(g, topology=emulated()), "graph must be an hpart.Graph", COMM)


def test_wrong_scalar_types_on_one_rank(shared_dir):
    last = COMM.rank == COMM.size - 1
    every_rank_raises(lambda: hpart.detect_topology(2 if last else f"{COMM.size}x1"), "spec must be a str, got int", COMM)
    g = hpart.read_graph_metis(f"{shared_dir}/data/graphs/3elt.graph")
    every_rank_raises(lambda: hpart.partition_graph_hierarchical(g, "8" if last else 8, topology=emulated()),
                      "parts must be an int, got str", COMM)
    every_rank_raises(lambda: hpart.partition_graph_hierarchical(g, 8, topology=emulated(), seed=1.5 if last else 1),
                      "seed must be an int, got float", COMM)


def test_topology_given_on_some_ranks_only():
    """None means 'detect' (collective): a rank detecting while the others pass a topology would
    wait in detect_topology's collectives, so the choice is agreed first."""
    if COMM.size == 1:
        pytest.skip("needs a second rank")
    topology = emulated()  # collective: every rank, before one of them drops it
    t = None if COMM.rank == COMM.size - 1 else topology
    xyz = np.random.default_rng(COMM.rank).random((10, 3))
    every_rank_raises(lambda: hpart.partition_points_hierarchical(xyz, COMM.size, topology=t),
                      "topology is given on some ranks and None on others", COMM)
    extent = (16, 16)
    g = hpart.Grid(extent, hpart.slab_of(extent))
    every_rank_raises(lambda: hpart.partition_grid_hierarchical(g, COMM.size, topology=t),
                      "topology is given on some ranks", COMM)
