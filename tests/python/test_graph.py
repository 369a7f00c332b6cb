"""hpart graphs from numpy: hpart.Graph, the readers, partition_graph (every method), repartition_graph,
graph_metrics. The parts equal the C++ CLI's on the same file at the same rank count, the numpy route
equals the reader's, cuts and weights equal a numpy recomputation, and bad input on one rank raises
the same hpart.Error on every rank."""
import os

import numpy as np
import pytest
from mpi4py import MPI

import hpart

from conftest import every_rank_raises, global_block

COMM = MPI.COMM_WORLD


def read_metis_numpy(path):
    """A plain-Python METIS reader (no weights, no comments): global (xadj, adjncy), 0-based."""
    with open(path) as f:
        lines = f.read().split("\n")
    n = int(lines[0].split()[0])
    rows = [np.array(l.split(), dtype=np.int64) - 1 for l in lines[1:n + 1]]
    xadj = np.zeros(n + 1, dtype=np.int64)
    xadj[1:] = np.cumsum([len(r) for r in rows])
    return xadj, np.concatenate(rows)


def block_of(xadj, adjncy, comm, dtype=np.int64):
    """Rank r's block [N r / R, N (r+1) / R) of a global CSR graph, as the readers distribute it."""
    n, size = len(xadj) - 1, comm.size
    vtxdist = np.array([n * r // size for r in range(size + 1)], dtype=dtype)
    lo, hi = vtxdist[comm.rank], vtxdist[comm.rank + 1]
    local_xadj = (xadj[lo:hi + 1] - xadj[lo]).astype(dtype)
    return vtxdist, local_xadj, np.ascontiguousarray(adjncy[xadj[lo]:xadj[hi]], dtype=dtype)


def grid_graph(nx, ny, comm):
    """An nx x ny grid graph (4-neighbours) with coordinates, rank r's block."""
    n = nx * ny
    vtxdist = np.array([n * r // comm.size for r in range(comm.size + 1)], dtype=np.int64)
    ids = np.arange(vtxdist[comm.rank], vtxdist[comm.rank + 1])
    x, y = ids % nx, ids // nx
    lists = []
    for i, v in enumerate(ids):
        l = []
        if x[i] > 0: l.append(v - 1)
        if x[i] < nx - 1: l.append(v + 1)
        if y[i] > 0: l.append(v - nx)
        if y[i] < ny - 1: l.append(v + nx)
        lists.append(l)
    xadj = np.zeros(len(ids) + 1, dtype=np.int64)
    xadj[1:] = np.cumsum([len(l) for l in lists])
    adjncy = np.array([u for l in lists for u in l], dtype=np.int64)
    coords = np.ascontiguousarray(np.stack([x, y], axis=1), dtype=np.float64)
    return vtxdist, xadj, adjncy, coords


def numpy_cut(g, parts, comm):
    """Edge cut (each edge once, with its weight) from the local CSR and every rank's parts."""
    everyone = np.concatenate(comm.allgather(parts))
    own = np.repeat(parts, np.diff(g.xadj))
    w = g.adjwgt if g.adjwgt is not None else np.ones(len(g.adjncy), dtype=np.int64)
    return comm.allreduce(int(w[own != everyone[g.adjncy]].sum())) // 2


def graph_path(shared_dir, name):
    return os.path.join(shared_dir, "data", "graphs", name)


def test_reader_equals_numpy_and_int32(shared_dir):
    path = graph_path(shared_dir, "3elt.graph")
    f = hpart.read_graph_metis(path)
    xadj, adjncy = read_metis_numpy(path)
    vtxdist, lx, la = block_of(xadj, adjncy, COMM)
    assert isinstance(f, hpart.GraphFile) and isinstance(f, hpart.Graph)
    assert f.global_vertices == len(xadj) - 1 and f.global_edges == len(adjncy) // 2
    assert (f.vtxdist == vtxdist).all() and (f.xadj == lx).all() and (f.adjncy == la).all()
    assert f.vwgt is None and f.adjwgt is None and not f.xadj.flags.writeable
    g = hpart.Graph(vtxdist, lx, la)
    # int64 arrays are used in place: the Graph's views share the caller's memory.
    assert np.shares_memory(g.xadj, lx) and np.shares_memory(g.adjncy, la)
    v32, x32, a32 = block_of(xadj, adjncy, COMM, np.int32)
    g32 = hpart.Graph(v32, x32, a32)
    # int32 arrays are used in place too, each at its own width (only vtxdist is widened).
    assert g32.adjncy.dtype == np.int32 and np.shares_memory(g32.adjncy, a32) and (g32.adjncy == la).all()
    assert g32.xadj.dtype == np.int32 and np.shares_memory(g32.xadj, x32) and (g32.xadj == lx).all()
    # int32 weights as well: the same partition as the int64 ones.
    vw = (np.arange(len(lx) - 1) + vtxdist[COMM.rank]) % 4 + 1
    ew = np.ones(len(la), dtype=np.int64) * 2
    gw = hpart.Graph(vtxdist, lx, la, vwgt=vw, adjwgt=ew)
    gw32 = hpart.Graph(v32, x32, a32, vwgt=vw.astype(np.int32), adjwgt=ew.astype(np.int32))
    assert gw32.vwgt.dtype == np.int32 and gw32.adjwgt.dtype == np.int32
    p = [hpart.partition_graph(x, 8) for x in (f, g, g32)]
    assert (p[0].parts == p[1].parts).all() and (p[0].parts == p[2].parts).all()
    assert p[0].cut.edge_cut == p[1].cut.edge_cut == p[2].cut.edge_cut
    pw = [hpart.partition_graph(x, 8) for x in (gw, gw32)]
    assert (pw[0].parts == pw[1].parts).all() and pw[0].cut.edge_cut == pw[1].cut.edge_cut
    assert (pw[0].part_weights == pw[1].part_weights).all()


def cli_parts(np_):
    d = os.environ.get("HPART_GRAPH_CLI_DIR")
    f = d and os.path.join(d, f"3elt.np{np_}.part")
    if not f or not os.path.exists(f):
        pytest.skip("the CLI's part files (ctest fixture python.graph_cli) are absent")
    return np.loadtxt(f, dtype=np.int32)


@pytest.mark.parametrize("split", [False, True])
def test_parts_equal_cli(shared_dir, split):
    """The C++ CLI (hpart partition --graph 3elt.graph --parts 8) at the same rank count, on
    COMM_WORLD and on sub-communicators (the two halves of the ranks)."""
    comm = COMM.Split(COMM.rank % 2, COMM.rank) if split else COMM
    g = hpart.read_graph_metis(graph_path(shared_dir, "3elt.graph"), comm=comm)
    p = hpart.partition_graph(g, 8, comm=comm)
    expect = cli_parts(comm.size)
    lo, hi = g.vtxdist[comm.rank], g.vtxdist[comm.rank + 1]
    assert (p.parts == expect[lo:hi]).all()
    if split:
        comm.Free()


def test_cover_weights_and_cut(shared_dir):
    g = hpart.read_graph_metis(graph_path(shared_dir, "test.mgraph"))  # two vertex weights
    assert g.ncon == 2 and g.vwgt.shape == (len(g), 2)
    p = hpart.partition_graph(g, 6, imbalance=0.05)
    assert p.parts.shape == (len(g),) and p.parts.min(initial=0) >= 0 and p.parts.max(initial=0) < 6
    sizes = np.bincount(p.parts, minlength=6)
    COMM.Allreduce(MPI.IN_PLACE, sizes)
    assert (sizes == p.part_sizes).all() and sizes.sum() == g.global_vertices
    weights = np.zeros((6, 2))
    np.add.at(weights, p.parts, g.vwgt)
    COMM.Allreduce(MPI.IN_PLACE, weights)
    assert np.allclose(weights, p.part_weights)
    m = hpart.graph_metrics(g, p.parts, 6)
    assert m.edge_cut == p.cut.edge_cut == numpy_cut(g, p.parts, COMM)
    assert m.comm_volume == p.cut.comm_volume


def test_methods_seed_targets_and_weights():
    vtxdist, xadj, adjncy, coords = grid_graph(24, 20, COMM)
    rng = np.random.default_rng(COMM.rank)
    g = hpart.Graph(vtxdist, xadj, adjncy, coords=coords)
    assert g.dim == 2 and np.shares_memory(g.coords, coords)
    for method in ("graph", "metis", "geometric_refine", hpart.GraphMethod.metis):
        p = hpart.partition_graph(g, 4, method=method)
        assert p.metrics.within_tolerance and p.part_sizes.sum() == 480
        assert p.cut.edge_cut == numpy_cut(g, p.parts, COMM)
    a = hpart.partition_graph(g, 4, seed=7)
    b = hpart.partition_graph(g, 4, seed=7)
    assert (a.parts == b.parts).all()
    t = hpart.partition_graph(g, 2, target_sizes=np.array([1.0, 3.0]), imbalance=0.05)
    assert abs(t.part_sizes[1] / 480 - 0.75) < 0.05
    # Edge weights: the cut from graph_metrics counts them, as the numpy recomputation does.
    w = ((np.repeat(np.arange(vtxdist[COMM.rank], vtxdist[COMM.rank + 1]), np.diff(xadj)) + adjncy) % 3 + 1)
    gw = hpart.Graph(vtxdist, xadj, adjncy, adjwgt=w.astype(np.int64), vwgt=rng.integers(1, 4, len(xadj) - 1))
    pw = hpart.partition_graph(gw, 3)
    assert hpart.graph_metrics(gw, pw.parts, 3).edge_cut == pw.cut.edge_cut == numpy_cut(gw, pw.parts, COMM)


def test_presets():
    """preset= gives the C++ preset's effort: standard is the default partition, strong is valid,
    within 5% of its cut and not the same partition (the effort reached the kernel), a method given
    beside a preset is kept, a bad name is an error on every rank; the hierarchy takes the names."""
    vtxdist, xadj, adjncy, coords = grid_graph(60, 50, COMM)
    g = hpart.Graph(vtxdist, xadj, adjncy, coords=coords)
    default = hpart.partition_graph(g, 8)
    assert (hpart.partition_graph(g, 8, preset="standard").parts == default.parts).all()
    strong = hpart.partition_graph(g, 8, preset="strong")
    assert strong.metrics.within_tolerance and strong.cut.edge_cut <= 1.05 * default.cut.edge_cut
    assert COMM.allreduce(int((strong.parts != default.parts).any())) > 0
    fast = hpart.partition_graph(g, 8, preset="fast", method="geometric_refine")
    assert fast.metrics.within_tolerance and fast.cut.edge_cut == numpy_cut(g, fast.parts, COMM)
    every_rank_raises(lambda: hpart.partition_graph(g, 8, preset="quick"), "preset", COMM)
    spec = "2x%d" % (COMM.size // 2) if COMM.size % 2 == 0 else "%dx1" % COMM.size
    h = hpart.partition_graph_hierarchical(g, 8, topology=hpart.detect_topology(spec), preset="strong")
    assert h.metrics.within_tolerance and h.part_sizes.sum() == 3000


def test_repartition(shared_dir):
    g = hpart.read_graph_metis(graph_path(shared_dir, "3elt.graph"))
    p = hpart.partition_graph(g, 8)
    # A load that grows on the low ids: the old parts are out of balance.
    ids = np.arange(g.vtxdist[COMM.rank], g.vtxdist[COMM.rank + 1])
    vwgt = np.where(ids < g.global_vertices // 4, 4, 1).astype(np.int64)
    g2 = hpart.Graph(g.vtxdist, g.xadj, g.adjncy, vwgt=vwgt)
    r = hpart.repartition_graph(g2, p.parts, 8, reference_cut=p.cut.edge_cut, migration_sizes=vwgt)
    assert isinstance(r, hpart.GraphRepartition) and isinstance(r, hpart.GraphPartition)
    assert r.metrics.imbalance[0] <= 0.03 + 1e-9
    moved = COMM.allreduce(int((r.parts != p.parts).sum()))
    assert r.migrated.objects == moved > 0
    assert r.migrated.weight == COMM.allreduce(int(vwgt[r.parts != p.parts].sum()))
    assert r.cut.edge_cut == numpy_cut(g2, r.parts, COMM)
    assert r.steps >= 0 and r.surface_growth >= 0


def bad_rank():
    return COMM.size - 1


def test_bad_arrays_one_rank():
    vtxdist, xadj, adjncy, _ = grid_graph(6, 5, COMM)
    mine = COMM.rank == bad_rank()
    every_rank_raises(lambda: hpart.Graph(vtxdist, xadj.astype(np.float64) if mine else xadj, adjncy),
                      "hpart.Graph: xadj has dtype float64, expected int64", COMM)
    every_rank_raises(lambda: hpart.Graph(vtxdist, xadj, np.repeat(adjncy, 2)[::2] if mine else adjncy),
                      "adjncy is not C-contiguous", COMM)
    every_rank_raises(lambda: hpart.partition_graph([1, 2] if mine else hpart.Graph(vtxdist, xadj, adjncy), 2),
                      "graph must be an hpart.Graph", COMM)
    g = hpart.Graph(vtxdist, xadj, adjncy)
    every_rank_raises(lambda: hpart.partition_graph(g, 2, method="spectral" if mine else "graph"),
                      "method", COMM)
    every_rank_raises(lambda: hpart.partition_graph(g, 2, imbalance="x" if mine else 0.03), "imbalance must be a number",
                      COMM)
    # Scalars of the wrong type on one rank: agreed, never a local TypeError and a hang.
    every_rank_raises(lambda: hpart.partition_graph(g, "2" if mine else 2), "parts must be an int, got str", COMM)
    every_rank_raises(lambda: hpart.partition_graph(g, 2, seed=1.0 if mine else 1), "seed must be an int, got float", COMM)
    cur = np.zeros(len(g), dtype=np.int32)
    every_rank_raises(lambda: hpart.repartition_graph(g, cur, None if mine else 2), "parts must be an int, got NoneType",
                      COMM)
    every_rank_raises(lambda: hpart.repartition_graph(g, cur, 2, itr=True if mine else 100.0),
                      "itr must be a number, got bool", COMM)
    every_rank_raises(lambda: hpart.graph_metrics(g, cur, 2.0 if mine else 2), "num_parts must be an int, got float", COMM)
    every_rank_raises(lambda: hpart.read_graph_metis(3 if mine else "x.graph"), "path must be a str or os.PathLike, got int",
                      COMM)


def test_bad_graph_one_rank():
    vtxdist, xadj, adjncy, _ = grid_graph(6, 5, COMM)
    mine = COMM.rank == bad_rank()
    bad = adjncy.copy()
    if mine:
        bad[0] = (bad[0] + 2) % 30 if (bad[0] + 2) % 30 != vtxdist[COMM.rank] else (bad[0] + 3) % 30
    every_rank_raises(lambda: hpart.partition_graph(hpart.Graph(vtxdist, xadj, bad), 2), "asymmetric", COMM)
    vd = vtxdist.copy()
    if mine and COMM.size > 1:
        vd[1] += 1  # disagrees with the other ranks'
    elif mine:
        vd = np.array([0, 31], dtype=np.int64)
    every_rank_raises(lambda: hpart.validate_graph(hpart.Graph(vd, xadj, adjncy)),
                      "vtxdist differs between ranks" if COMM.size > 1 else "xadj has 31 values", COMM)
    short = np.ones(len(adjncy) - (1 if mine else 0), dtype=np.int64)
    every_rank_raises(lambda: hpart.partition_graph(hpart.Graph(vtxdist, xadj, adjncy, adjwgt=short), 2), "adjwgt",
                      COMM)
    g = hpart.Graph(vtxdist, xadj, adjncy)
    cur = np.zeros(len(xadj) - 1 + (1 if mine else 0), dtype=np.int32)
    every_rank_raises(lambda: hpart.repartition_graph(g, cur, 2), "current has", COMM)
    every_rank_raises(lambda: hpart.graph_metrics(g, cur.astype(np.int64), 2), "parts has dtype int64", COMM)


def test_three_formats_same_graph(shared_dir, tmp_path_factory):
    """3elt.graph rewritten as Chaco (numbered lines) and as a symmetric MatrixMarket file (lower
    triangle): the three readers give the same arrays, and so the same parts."""
    path = graph_path(shared_dir, "3elt.graph")
    chaco = mm = None
    if COMM.rank == 0:
        xadj, adjncy = read_metis_numpy(path)
        n = len(xadj) - 1
        d = tmp_path_factory.mktemp("formats")
        chaco, mm = str(d / "3elt.chaco"), str(d / "3elt.mtx")
        with open(chaco, "w") as f:
            f.write(f"{n} {len(adjncy) // 2} 100\n")
            for v in range(n):
                f.write(" ".join(str(x) for x in [v + 1] + list(adjncy[xadj[v]:xadj[v + 1]] + 1)) + "\n")
        rows = np.repeat(np.arange(n), np.diff(xadj))
        lower = rows > adjncy
        with open(mm, "w") as f:
            f.write(f"%%MatrixMarket matrix coordinate pattern symmetric\n{n} {n} {int(lower.sum())}\n")
            f.writelines(f"{i + 1} {j + 1}\n" for i, j in zip(rows[lower], adjncy[lower]))
    chaco, mm = COMM.bcast((chaco, mm))
    graphs = [hpart.read_graph_metis(path), hpart.read_graph_chaco(chaco), hpart.read_graph_matrix_market(mm)]
    for g in graphs[1:]:
        assert g.global_edges == graphs[0].global_edges
        assert (g.vtxdist == graphs[0].vtxdist).all() and (g.xadj == graphs[0].xadj).all()
        # MatrixMarket lists each vertex's neighbours in its own order: compare the sets.
        for v in range(len(g)):
            a, b = g.xadj[v], g.xadj[v + 1]
            assert sorted(g.adjncy[a:b]) == sorted(graphs[0].adjncy[a:b])
    p = [hpart.partition_graph(g, 4).parts for g in graphs[:2]]
    assert (p[0] == p[1]).all()


def test_reader_errors_every_rank(tmp_path_factory):
    path = None
    if COMM.rank == 0:
        d = tmp_path_factory.mktemp("g")
        path = str(d / "bad.graph")
        with open(path, "w") as f:
            f.write("3 2\n2\n1 3\n")  # vertex 3's line is missing, and 2 lists 3
    path = COMM.bcast(path)
    every_rank_raises(lambda: hpart.read_graph_metis(path), "bad.graph", COMM)
    mm = None
    if COMM.rank == 0:
        mm = str(tmp_path_factory.mktemp("m") / "a.mtx")
        with open(mm, "w") as f:
            f.write("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1.0\n2 3 2.0\n3 3 5.0\n")
    mm = COMM.bcast(mm)
    g = hpart.read_graph_matrix_market(mm)
    assert g.global_vertices == 3 and g.global_edges == 2
    assert hpart.graph_metrics(g, np.zeros(len(g), dtype=np.int32), 1).edge_cut == 0
