"""hpart.Rebalancer and hpart.repartition_points from numpy: fresh partitions equal the C++
partitioners' (partition_points / partition_graph), decisions are the same on every rank and
consistent with their numbers (the observed imbalance equals a numpy recomputation), rebalances
reach the tolerance and report what moved, and bad input on one rank raises the same hpart.Error
on every rank."""
import os

import numpy as np
import pytest
from mpi4py import MPI

import hpart

from conftest import every_rank_raises, global_block

COMM = MPI.COMM_WORLD
N = 6000


def points(comm):
    return global_block(np.random.default_rng(11).random((N, 2)), comm)


def part_loads(parts, cost, k, comm):
    load = np.zeros(k)
    np.add.at(load, parts, cost)
    comm.Allreduce(MPI.IN_PLACE, load)
    return load


def same_everywhere(value, comm):
    every = comm.allgather(value)
    assert all(v == every[0] for v in every), every


@pytest.mark.parametrize("split", [False, True])
def test_fresh_partition_is_partition_points(split):
    comm = COMM.Split(COMM.rank % 2, COMM.rank) if split else COMM
    xyz = global_block(np.random.default_rng(11).random((N, 2)), comm)
    # The fresh partition is partition_points with the Rebalancer's curve and min(0.001, imbalance / 4).
    rb = hpart.Rebalancer(6, imbalance=0.004, curve="morton", comm=comm)
    p = rb.partition(xyz)
    q = hpart.partition_points(xyz, 6, curve="morton", imbalance=0.001, comm=comm)
    assert (p.parts == q.parts).all()
    assert rb.stats.kind == hpart.RebalanceKind.scratch and rb.stats.rebalances == 0
    assert rb.options.parts == 6 and rb.options.curve == hpart.Curve.morton and rb.options.imbalance == 0.004
    if split:
        comm.Free()


def test_balanced_load_never_rebalances():
    xyz = points(COMM)
    rb = hpart.Rebalancer(4)
    p = rb.partition(xyz)
    cost = np.ones(len(xyz))
    for _ in range(5):
        rb.observe(step_seconds=1.0, object_costs=cost)
        d = rb.decide()
        same_everywhere((d.rebalance, d.reason, d.imbalance), COMM)
        assert not d.rebalance and not d
        assert d.imbalance == pytest.approx(part_loads(p.parts, cost, 4, COMM).max() / (N / 4) - 1, abs=1e-12)


def test_growing_imbalance_rebalances():
    xyz = points(COMM)
    k = 4
    rb = hpart.Rebalancer(k, imbalance=0.02)
    p = rb.partition(xyz)
    decided = None
    for step in range(8):
        cost = np.where(xyz[:, 0] < 0.2 + 0.05 * step, 6.0, 1.0)
        load = part_loads(p.parts, cost, k, COMM)
        # A step lasts as long as the heaviest part (10 s a unit of load: rebalancing pays).
        rb.observe(step_seconds=10.0 * load.max() / load.mean(), object_costs=cost)
        d = rb.decide()
        same_everywhere((d.rebalance, d.reason, d.predicted_gain_seconds, d.predicted_cost_seconds), COMM)
        assert d.imbalance == pytest.approx(load.max() / load.mean() - 1, rel=1e-9)
        assert d.steps_since == step + 1
        if d.rebalance:
            assert d.predicted_gain_seconds > d.predicted_cost_seconds and d.predicted_imbalance > 0.02
            decided = cost
            break
    assert decided is not None, "a growing 10-s imbalance must be worth a rebalance"
    q = rb.rebalance(xyz, weights=decided)
    rb.record_migration_seconds(0.01)
    load = part_loads(q.parts, decided, k, COMM)
    assert load.max() / load.mean() - 1 <= 0.02 + 1e-12
    moved = COMM.allreduce(int((q.parts != p.parts).sum()))
    s = rb.stats
    assert s.rebalances == 1 and s.migrated.objects == moved > 0
    assert s.kind in (hpart.RebalanceKind.diffusion, hpart.RebalanceKind.shift, hpart.RebalanceKind.scratch)
    assert s.migration_seconds == pytest.approx(0.01) and rb.last_decision.rebalance


def test_cost_model_fit():
    """Step times that are exactly 2e-3 x sum(feature) + 5e-4 x count on every rank: the fitted
    coefficients are (2e-3, 5e-4), the same on every rank, and predicted_costs applies them."""
    xyz = points(COMM)
    rb = hpart.Rebalancer(3)
    p = rb.partition(xyz)
    assert len(rb.cost_coefficients()) == 0
    for step in range(4):
        feats = np.ascontiguousarray(xyz[:, :1] * (1.0 + step))
        t = 2e-3 * feats.sum() + 5e-4 * len(xyz)
        rb.observe(step_seconds=float(t), features=feats, parts=p.parts)
    coef = rb.cost_coefficients()
    same_everywhere(coef.tolist(), COMM)
    assert coef == pytest.approx([2e-3, 5e-4], rel=1e-6)
    pred = rb.predicted_costs(feats)
    assert pred == pytest.approx(2e-3 * feats[:, 0] + 5e-4, rel=1e-6)
    every_rank_raises(lambda: rb.predicted_costs(np.ones((3, 2))), "columns", MPI.COMM_SELF)


def test_graph_rebalancer_is_partition_graph(shared_dir):
    g = hpart.read_graph_metis(os.path.join(shared_dir, "data", "graphs", "3elt.graph"))
    rb = hpart.Rebalancer(8, imbalance=0.03)
    p = rb.partition(g)
    q = hpart.partition_graph(g, 8, imbalance=0.03)
    assert (p.parts == q.parts).all() and rb.stats.surface == q.cut.edge_cut
    ids = np.arange(g.vtxdist[COMM.rank], g.vtxdist[COMM.rank + 1])
    vwgt = np.where(ids < g.global_vertices // 5, 3, 1).astype(np.int64)
    g2 = hpart.Graph(g.vtxdist, g.xadj, g.adjncy, vwgt=vwgt)
    r = rb.rebalance(g2)  # parts: the last returned ones
    load = part_loads(r.parts, vwgt, 8, COMM)
    assert load.max() / load.mean() - 1 <= 0.03 + 1e-12
    assert rb.stats.surface == hpart.graph_metrics(g2, r.parts, 8).edge_cut
    assert rb.stats.migrated.objects == COMM.allreduce(int((r.parts != p.parts).sum()))


def test_repartition_points():
    xyz = points(COMM)
    p = hpart.partition_points(xyz, 5)
    w = np.where(xyz[:, 1] > 0.7, 3.0, 1.0)
    r = hpart.repartition_points(xyz, p.parts, 5, weights=w, imbalance=0.02)
    assert isinstance(r, hpart.PointRepartition) and isinstance(r, hpart.Partition)
    load = part_loads(r.parts, w, 5, COMM)
    assert load.max() / load.mean() - 1 <= 0.02 + 1e-12
    assert np.allclose(load, r.part_weights[:, 0])
    changed = r.parts != p.parts
    assert r.migrated.objects == COMM.allreduce(int(changed.sum()))
    assert r.migrated.weight == pytest.approx(COMM.allreduce(float(w[changed].sum())))


def test_bad_input_one_rank():
    xyz = points(COMM)
    mine = COMM.rank == COMM.size - 1
    every_rank_raises(lambda: hpart.Rebalancer(4, curve="peano" if mine else "hilbert"), "curve", COMM)
    every_rank_raises(lambda: hpart.Rebalancer(4, smoothing=2.0 if mine else 0.3), "smoothing", COMM)
    # Scalars of the wrong type on one rank: agreed, never a local TypeError and a hang.
    every_rank_raises(lambda: hpart.Rebalancer("4" if mine else 4), "parts must be an int, got str", COMM)
    every_rank_raises(lambda: hpart.Rebalancer(4, incremental=1 if mine else True), "incremental must be True or False",
                      COMM)
    every_rank_raises(lambda: hpart.Rebalancer(4, max_rounds=2.5 if mine else 3), "max_rounds must be an int, got float",
                      COMM)
    every_rank_raises(lambda: hpart.repartition_points(xyz, np.zeros(len(xyz), dtype=np.int32), 4.0 if mine else 4),
                      "parts must be an int, got float", COMM)
    rb = hpart.Rebalancer(4)
    rb.partition(xyz)
    n = len(xyz)
    every_rank_raises(lambda: rb.observe(object_costs=np.ones(n + 1 if mine else n)), "observe", COMM)
    bad = np.ones(n)
    if mine:
        bad[min(3, n - 1)] = np.nan
    every_rank_raises(lambda: rb.observe(object_costs=bad), "observe", COMM)
    every_rank_raises(lambda: rb.observe(object_costs=np.ones(n, dtype=np.float32 if mine else np.float64)),
                      "object_costs has dtype float32", COMM)
    every_rank_raises(lambda: rb.observe(step_seconds="1" if mine else 1.0), "step_seconds", COMM)
    every_rank_raises(lambda: rb.record_migration_seconds(None if mine else 0.1), "seconds is required", COMM)
    every_rank_raises(lambda: rb.rebalance(xyz, np.zeros(n + (1 if mine else 0), dtype=np.int32)), "parts has", COMM)
    g = hpart.Graph(np.array([0] * (COMM.size + 1)), np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64))
    if COMM.size > 1:  # a graph on one rank, points on the others
        every_rank_raises(lambda: rb.rebalance(g if mine else xyz), "same kind", COMM)
        every_rank_raises(lambda: hpart.repartition_points(xyz, np.zeros(n, dtype=np.int32), 4 if mine else 5),
                          "parts", COMM)
    every_rank_raises(lambda: hpart.repartition_points(xyz, np.full(n, 7 if mine else 0, dtype=np.int32), 5),
                      "7", COMM)
    # The Rebalancer is still usable after the errors (every rank stopped at the same place).
    assert len(rb.rebalance(xyz, weights=np.ones(n)).parts) == n
