"""hpart's file readers and writers and evaluate_partition from Python: the parts of a point file
partitioned from Python equal the `hpart partition` program's (text and HDF5), written files are
byte-identical to the program's (text) and read back exactly, grid cost fields round-trip, the
metrics equal the partitioners', and bad input on one rank is every rank's hpart.Error."""
import os

import numpy as np
import pytest
from mpi4py import MPI

import hpart

from conftest import every_rank_raises, global_block
from hpart_cli import run_cli, shared_tmpdir

COMM = MPI.COMM_WORLD


def gathered(a):
    """The ranks' arrays concatenated in rank order (every rank gets it)."""
    return np.concatenate(COMM.allgather(a))


def skip_unsupported(call):
    try:
        return call()
    except hpart.Error as e:
        if e.code == hpart.ErrorCode.unsupported:
            pytest.skip(str(e))
        raise


def test_text_points_and_parts_equal_the_cpp_program():
    with shared_tmpdir(COMM) as d:
        pts, ref = os.path.join(d, "pts.txt"), os.path.join(d, "pts.part")
        rc, err = run_cli(COMM, "generate", "--shape", "clusters2d", "--n", 5000, "--out", pts)
        assert rc == 0, err
        rc, err = run_cli(COMM, "partition", "--points", pts, "--dim", 2, "--parts", 7, "--out", ref, "--quiet")
        assert rc == 0, err
        f = hpart.read_points_text(pts, dim=2)
        assert isinstance(f, hpart.PointFile) and f.global_count == 5000 and f.dim == 2
        assert f.coords.shape == (len(f), 2) and f.ids.dtype == np.int64
        assert (gathered(f.ids) == np.arange(5000)).all()  # rank order = file order
        # Views of the PointFile's memory, not copies.
        assert f.coords.__array_interface__["data"][0] == f.coords.__array_interface__["data"][0]
        assert not f.coords.flags.owndata and f.coords.base is not None
        p = hpart.partition_points(f.coords, 7, weights=f.weights, ids=f.ids)
        cli_parts = np.loadtxt(ref, dtype=np.int32)
        assert (p.parts == cli_parts[f.ids]).all()
        # Written from Python: the same bytes as the program's part file.
        mine = os.path.join(d, "mine.part")
        hpart.write_parts_text(mine, p.parts)
        COMM.Barrier()
        assert open(mine, "rb").read() == open(ref, "rb").read()


def test_h5_points_and_parts_equal_the_cpp_program():
    with shared_tmpdir(COMM) as d:
        pts, ref = os.path.join(d, "pts.h5"), os.path.join(d, "parts.h5")
        rc, err = run_cli(COMM, "generate", "--shape", "clusters3d", "--n", 4000, "--out", pts)
        if rc == 2 and "HDF5" in err:
            pytest.skip("built without HDF5")
        assert rc == 0, err
        rc, err = run_cli(COMM, "partition", "--h5", pts, "--parts", 6, "--out", ref, "--quiet")
        assert rc == 0, err
        f = hpart.read_points_h5(pts)
        p = hpart.partition_points(f.coords, 6, weights=f.weights, ids=f.ids)
        assert (p.parts == hpart.read_parts_h5(ref)).all()  # same rows: the readers' blocks
        assert os.path.exists(hpart.xdmf_path(ref))


def test_text_round_trip():
    with shared_tmpdir(COMM) as d:
        path = os.path.join(d, "w.txt")
        rng = np.random.default_rng(COMM.rank)
        xyz = rng.random((50 + COMM.rank, 3)) * 1e3 - 5e2
        w = rng.random(len(xyz))
        hpart.write_points_text(path, xyz, weights=w)
        f = hpart.read_points_text(path)
        assert f.dim == 3 and f.weighted
        assert (gathered(f.coords) == gathered(xyz)).all()  # shortest round-trip numbers: exact
        assert (gathered(f.weights) == gathered(w)).all()


def test_h5_round_trip_and_partition_file():
    with shared_tmpdir(COMM) as d:
        path, parts_path = os.path.join(d, "pts.h5"), os.path.join(d, "parts.h5")
        n = 3000
        everything = np.random.default_rng(8).random((n, 2))
        xyz = global_block(everything, COMM)
        ids = global_block(np.arange(n, dtype=np.int64) * 3, COMM)
        w = np.ascontiguousarray(np.column_stack([np.ones(len(xyz)), np.arange(len(xyz), dtype=np.float64)]))
        skip_unsupported(lambda: hpart.write_points_h5(path, xyz, weights=w, ids=ids))
        f = hpart.read_points_h5(path)
        assert (f.coords == xyz).all() and (f.ids == ids).all() and (f.weights == w[:, 0]).all()
        p = hpart.partition_points(xyz, 5, ids=ids)
        hpart.write_partition_h5(parts_path, p, ids=ids, coords=xyz)
        assert (hpart.read_parts_h5(parts_path) == p.parts).all()
        back = hpart.read_points_h5(parts_path)
        assert (back.coords == xyz).all() and (back.ids == ids).all()


def test_grid_partition_file_round_trip():
    with shared_tmpdir(COMM) as d:
        path = os.path.join(d, "grid.h5")
        extent = (24, 10, 7)
        box = hpart.slab_of(extent)
        cost = np.random.default_rng(COMM.rank).random((box.size(2), box.size(1), box.size(0)))
        g = hpart.Grid(extent, box, cost)
        p = hpart.partition_grid(g, 5)
        skip_unsupported(lambda: hpart.write_grid_partition_h5(path, g, p))
        back = hpart.read_grid_cost_h5(path)
        assert back.extent == extent and back.local == box and back.cost.shape == cost.shape
        assert (back.cost == cost).all()
        parts = hpart.read_grid_cost_h5(path, "/parts")
        assert (parts.cost.ravel() == p.parts).all()
        assert (hpart.partition_grid(back, 5).parts == p.parts).all()


def test_pictures():
    with shared_tmpdir(COMM) as d:
        xyz = np.random.default_rng(COMM.rank).random((200, 3))
        p = hpart.partition_points(xyz, 4)
        png = os.path.join(d, "pts.png")
        skip_unsupported(lambda: hpart.write_partition_png(png, xyz, p.parts, 4, max_side=64))
        extent = (30, 20)
        g = hpart.Grid(extent, hpart.slab_of(extent))
        gpng = os.path.join(d, "grid.png")
        hpart.write_grid_partition_png(gpng, g, hpart.partition_grid(g, 4), max_side=64)
        COMM.Barrier()
        for f in (png, gpng):
            assert open(f, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
        # A title and legend add a header (at least 480 pixels wide); node lines need a node per part.
        titled = os.path.join(d, "titled.png")
        hpart.write_grid_partition_png(titled, g, hpart.partition_grid(g, 4), max_side=64, title="grid",
                                       legend=["4 parts", "2 nodes"], node_of_part=[0, 0, 1, 1])
        COMM.Barrier()
        width = int.from_bytes(open(titled, "rb").read(24)[16:20], "big")
        assert width >= 480
        with pytest.raises(hpart.Error, match="legend must be a list or tuple, got str"):
            hpart.write_partition_png(png, xyz, p.parts, 4, legend="one line")
        with pytest.raises(hpart.Error, match="node_of_part has 3 values for 4 parts"):
            hpart.write_grid_partition_png(gpng, g, hpart.partition_grid(g, 4), node_of_part=[0, 0, 1])


def test_evaluate_partition_equals_the_partitioners_numbers():
    xyz = np.random.default_rng(COMM.rank).random((1000, 3))
    w = np.ascontiguousarray(np.random.default_rng(COMM.rank + 50).random((1000, 2)) + 0.1)
    p = hpart.partition_points(xyz, 6, weights=w)
    e = hpart.evaluate_partition(p.parts, 6, weights=w)
    assert e.ncon == 2 and (e.part_sizes == p.part_sizes).all()
    assert np.allclose(e.part_weights, p.part_weights) and np.allclose(e.metrics.imbalance, p.metrics.imbalance)
    sums = np.zeros((6, 2))
    np.add.at(sums, p.parts, w)
    COMM.Allreduce(MPI.IN_PLACE, sums)
    assert np.allclose(e.part_weights, sums)
    t = hpart.evaluate_partition(p.parts, 6, target_sizes=np.arange(1, 7, dtype=np.float64))
    assert t.metrics.imbalance[0] > 0


def test_sub_communicator():
    sub = COMM.Split(COMM.rank % 2, COMM.rank)
    with shared_tmpdir(sub) as d:
        path = os.path.join(d, "sub.txt")
        xyz = np.random.default_rng(COMM.rank).random((20, 2))
        hpart.write_points_text(path, xyz, comm=sub)
        f = hpart.read_points_text(path, comm=sub)
        assert f.global_count == 20 * sub.size
    sub.Free()


def test_missing_file_is_every_ranks_io_error():
    with pytest.raises(hpart.Error) as e:
        hpart.read_points_text("/nonexistent/pts.txt")
    assert e.value.code == hpart.ErrorCode.io
    every_rank_raises(lambda: hpart.read_points_text("/nonexistent/pts.txt"), "nonexistent", COMM)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda d, last: hpart.write_parts_text(os.path.join(d, "p"), np.zeros(3, np.int64 if last else np.int32)), "parts has dtype int64"),
        (lambda d, last: hpart.write_points_text(os.path.join(d, "q"), np.zeros((3, 5 if last else 2))), "2 or 3 columns"),
        (lambda d, last: hpart.evaluate_partition(np.array([9 if last else 0], np.int32), 2), ""),
        (lambda d, last: hpart.evaluate_partition(np.zeros(2, np.int32), 2, weights=np.ones(3 if last else 2)), "weights has 3 rows"),
        (lambda d, last: hpart.read_points_text(os.path.join(d, "other" if last else "pts.txt")), ""),
        (lambda d, last: hpart.write_partition_png(os.path.join(d, "x.png"), np.zeros((2, 2)), np.zeros(1 if last else 2, np.int32), 2), "parts has 1 values"),
        # Scalars, names and paths of the wrong type: agreed, never a local TypeError and a hang.
        (lambda d, last: hpart.read_points_text(3 if last else os.path.join(d, "pts.txt")), "path must be a str or os.PathLike, got int"),
        (lambda d, last: hpart.read_points_text(os.path.join(d, "pts.txt"), dim="2" if last else 2), "dim must be an int, got str"),
        (lambda d, last: hpart.read_parts_h5(os.path.join(d, "p.h5"), 5 if last else "/parts"), "dataset must be a str, got int"),
        (lambda d, last: hpart.write_parts_text(None if last else os.path.join(d, "p"), np.zeros(2, np.int32)), "path must be a str or os.PathLike, got NoneType"),
        (lambda d, last: hpart.evaluate_partition(np.zeros(2, np.int32), "2" if last else 2), "num_parts must be an int, got str"),
        (lambda d, last: hpart.write_partition_png(os.path.join(d, "x.png"), np.zeros((2, 2)), np.zeros(2, np.int32), 2, max_side=10.5 if last else 10), "max_side must be an int, got float"),
    ],
)
def test_bad_input_on_one_rank_is_every_ranks_error(call, match):
    with shared_tmpdir(COMM) as d:
        if COMM.rank == 0:
            with open(os.path.join(d, "pts.txt"), "w") as f:
                f.write("0 0\n1 1\n")
        COMM.Barrier()
        every_rank_raises(lambda: call(d, COMM.rank == COMM.size - 1), match, COMM)


def test_paths_may_be_pathlike():
    """A pathlib.Path is a path wherever a str is (os.fspath)."""
    import pathlib
    with shared_tmpdir(COMM) as d:
        xyz = np.random.default_rng(COMM.rank).random((5, 2))
        hpart.write_points_text(pathlib.Path(d) / "pts.txt", xyz)
        f = hpart.read_points_text(pathlib.Path(d) / "pts.txt")
        assert f.global_count == 5 * COMM.size
        # The file's blocks are byte ranges, not the writers' rows: compare all points in order.
        assert np.array_equal(np.concatenate(COMM.allgather(f.coords)), np.concatenate(COMM.allgather(xyz)))
