"""hpart.Migration and hpart.migrate_graph from numpy: the plan's counts and export/import lists
agree with the parts, structured records (several fields, packed) arrive whole at the ranks that
own their parts with every record conserved, dense and sparse exchanges agree bit for bit, a
migrated graph keeps its cut and follows a Migration's order, and bad input on one rank raises the
same hpart.Error on every rank."""
import numpy as np
import pytest
from mpi4py import MPI

import hpart

from conftest import every_rank_raises

COMM = MPI.COMM_WORLD
N = 4000
RECORD = np.dtype([("id", "<i8"), ("x", "<f8", (3,)), ("tag", "u1"), ("name", "S6"), ("part", "<i4")])


def block(comm):
    lo, hi = N * comm.rank // comm.size, N * (comm.rank + 1) // comm.size
    return np.arange(lo, hi, dtype=np.int64)


def records(ids, parts):
    r = np.zeros(len(ids), dtype=RECORD)
    r["id"] = ids
    r["x"] = np.stack([np.sin(ids), np.cos(ids), ids * 0.5], axis=1)
    r["tag"] = ids % 251
    r["name"] = [b"v%d" % (i % 10000) for i in ids]
    r["part"] = parts
    return r


def check_arrived(out, k, owner_of, comm):
    """Each record whole, at the rank owning its part, and every record once over all ranks."""
    ids = out["id"]
    assert (owner_of[out["part"]] == comm.rank).all()
    assert np.array_equal(out["x"], np.stack([np.sin(ids), np.cos(ids), ids * 0.5], axis=1))
    assert (out["tag"] == ids % 251).all()
    assert list(out["name"]) == [b"v%d" % (i % 10000) for i in ids]
    every = np.sort(np.concatenate(comm.allgather(ids)))
    assert np.array_equal(every, np.arange(N))


@pytest.mark.parametrize("split", [False, True])
def test_plan_and_structured_move(split):
    comm = COMM.Split(COMM.rank % 2, COMM.rank) if split else COMM
    R, k = comm.size, 2 * comm.size + 1
    ids = block(comm) if not split else np.arange(comm.rank, N, comm.size, dtype=np.int64)
    parts = ((ids * 7919) % k).astype(np.int32)
    m = hpart.Migration(parts, k, ids=ids, comm=comm)
    owner_of = np.array([p * R // k for p in range(k)])
    assert np.array_equal(m.destinations, owner_of[parts])
    assert np.array_equal(m.send_counts, np.bincount(owner_of[parts], minlength=R))
    sends = np.array(comm.allgather(m.send_counts))
    assert np.array_equal(m.recv_counts, sends[:, comm.rank])
    assert m.num_imports == m.recv_counts.sum() == len(m.sources)
    assert m.num_exports == int((owner_of[parts] != comm.rank).sum())
    assert m.migrated.objects == comm.allreduce(m.num_exports)
    rec = records(ids, parts)
    out = m.move(rec)
    assert out.dtype == RECORD and out.shape == (m.num_imports,)
    if split:
        every = np.sort(np.concatenate(comm.allgather(out["id"])))
        assert np.array_equal(every, np.sort(np.concatenate(comm.allgather(ids))))
    else:
        check_arrived(out, k, owner_of, comm)
    # Arrival order: grouped by source rank (sources), each group in the sender's order.
    assert np.array_equal(m.imported_ids, out["id"])
    source_of = {i: r for r, a in enumerate(comm.allgather(ids)) for i in a}
    assert [source_of[i] for i in out["id"]] == list(m.sources)
    for r in range(R):
        assert (np.diff(out["id"][m.sources == r]) > 0).all()
    # Rows of a plain 2-D array follow the same plan.
    xyz = m.move(np.ascontiguousarray(rec["x"]))
    assert xyz.shape == (m.num_imports, 3) and np.array_equal(xyz, out["x"])
    assert m.bytes_sent >= m.num_exports * RECORD.itemsize
    if split:
        comm.Free()


def test_partition_owner_map_and_exchanges():
    R = COMM.size
    ids = block(COMM)
    xyz = np.ascontiguousarray(np.stack([np.sin(ids), np.cos(ids * 0.3)], axis=1))
    p = hpart.partition_points(xyz, 2 * R)
    owner_of = np.array([(R - 1 - q % R) for q in range(2 * R)], dtype=np.int32)  # not contiguous blocks
    m = hpart.Migration(p, owner_of_part=owner_of)
    assert np.array_equal(m.destinations, owner_of[p.parts])
    assert m.imported_ids is None or m.num_imports == 0  # no ids given
    rec = records(ids, p.parts)
    m.exchange = "dense"
    dense = m.move(rec)
    m.exchange = hpart.Exchange.sparse
    assert m.exchange == hpart.Exchange.sparse
    sparse = m.move(rec)
    assert dense.tobytes() == sparse.tobytes()
    check_arrived(dense, 2 * R, owner_of, COMM)
    # Default blocks from a Partition: owner(p) = p R / K.
    m2 = hpart.Migration(p)
    check_arrived(m2.move(rec), 2 * R, np.array([q * R // (2 * R) for q in range(2 * R)]), COMM)


def grid(nx, ny, comm):
    n = nx * ny
    vtxdist = np.array([n * r // comm.size for r in range(comm.size + 1)], dtype=np.int64)
    lists = []
    for v in range(vtxdist[comm.rank], vtxdist[comm.rank + 1]):
        x, y = v % nx, v // nx
        lists.append([u for u, ok in ((v - 1, x > 0), (v + 1, x < nx - 1), (v - nx, y > 0), (v + nx, y < ny - 1)) if ok])
    xadj = np.zeros(len(lists) + 1, dtype=np.int64)
    xadj[1:] = np.cumsum([len(l) for l in lists])
    adjncy = np.array([u for l in lists for u in l], dtype=np.int64)
    vwgt = (np.arange(vtxdist[comm.rank], vtxdist[comm.rank + 1]) % 3 + 1).astype(np.int64)
    return hpart.Graph(vtxdist, xadj, adjncy, vwgt=vwgt, comm=comm)


def test_migrate_graph():
    g = grid(30, 20, COMM)
    k = COMM.size
    p = hpart.partition_graph(g, k)
    mg = hpart.migrate_graph(g, p)
    h = mg.graph
    assert isinstance(h, hpart.GraphFile) and h.global_vertices == 600
    hpart.validate_graph(h)
    assert (mg.parts == COMM.rank).all() and len(mg.parts) == len(h) == len(mg.old_ids)
    # The vertices arrive as a Migration of the same parts moves a per-vertex array.
    old = np.arange(g.vtxdist[COMM.rank], g.vtxdist[COMM.rank + 1])
    assert np.array_equal(hpart.Migration(p).move(old), mg.old_ids)
    assert np.array_equal(h.vwgt[:, 0], mg.old_ids % 3 + 1)
    assert hpart.graph_metrics(h, mg.parts, k).edge_cut == p.cut.edge_cut
    moved = COMM.allreduce(int((p.parts != COMM.rank).sum()))
    assert mg.migrated.objects == moved


def test_bad_input_one_rank():
    ids = block(COMM)
    mine = COMM.rank == COMM.size - 1
    k = COMM.size + 1
    parts = (ids % k).astype(np.int32)
    every_rank_raises(lambda: hpart.Migration(parts.astype(np.int64) if mine else parts, k), "parts has dtype int64",
                      COMM)
    every_rank_raises(lambda: hpart.Migration(parts, None if mine else k), "num_parts is required", COMM)
    # Scalars of the wrong type on one rank: agreed, never a local TypeError and a hang.
    every_rank_raises(lambda: hpart.Migration(parts, str(k) if mine else k), "num_parts must be an int, got str", COMM)
    every_rank_raises(lambda: hpart.Migration(parts, float(k) if mine else k), "num_parts must be an int, got float", COMM)
    bad = parts.copy()
    if mine:
        bad[0] = k + 5
    every_rank_raises(lambda: hpart.Migration(bad, k), str(k + 5), COMM)
    dup = ids.copy()
    if mine:
        dup[-1] = 0  # rank 0's first id (or a repeat within this rank at np 1)
    every_rank_raises(lambda: hpart.Migration(parts, k, ids=dup), "id 0 is given twice", COMM)
    m = hpart.Migration(parts, k, ids=ids)
    rec = records(ids, parts)
    every_rank_raises(lambda: m.move(rec[:-1] if mine else rec), "rows for", COMM)
    every_rank_raises(lambda: m.move(np.repeat(rec, 2)[::2] if mine else rec), "not C-contiguous", COMM)
    every_rank_raises(lambda: m.move(np.zeros(len(ids), dtype=object) if mine else rec), "Python objects", COMM)
    if COMM.size > 1:
        other = rec.astype([("id", "<i8"), ("x", "<f8", (3,)), ("tag", "u1"), ("name", "S6"), ("part", "<f4")])
        every_rank_raises(lambda: m.move(other if mine else rec), "different dtypes", COMM)
    every_rank_raises(lambda: m.move(list(rec) if mine else rec), "numpy array", COMM)
    # The plan still works after the errors.
    check_arrived(m.move(rec), k, np.array([q * COMM.size // k for q in range(k)]), COMM)
