"""The promise of every collective binding, checked argument by argument: any argument replaced
on ONE rank by a value of a wrong type (a str, a float, a bool, None, an arbitrary object, a mixed
list) gives every rank the same outcome: the same hpart.Error everywhere (or success everywhere),
never a local TypeError on that rank while the others wait in a collective (a hang: ctest's
timeout), never different errors. Found the topology=None-on-one-rank hang of the hierarchical
partitioners (one rank detecting the topology, collectively, while the others did not)."""
import os

import numpy as np
import pytest
from mpi4py import MPI

import hpart

from hpart_cli import shared_tmpdir

COMM = MPI.COMM_WORLD
LAST = COMM.rank == COMM.size - 1
BAD = ["x", 1.5, True, object(), [1, "a"]]


def ring_graph():
    """A ring of 2 vertices a rank."""
    n = 2 * COMM.size
    vtxdist = np.arange(COMM.size + 1, dtype=np.int64) * 2
    first = 2 * COMM.rank
    adjncy = np.array([[(v - 1) % n, (v + 1) % n] for v in (first, first + 1)], dtype=np.int64).ravel()
    return hpart.Graph(vtxdist, np.array([0, 2, 4], dtype=np.int64), adjncy)


def calls(d):
    """Each collective binding with valid arguments (as keywords) for this rank."""
    xyz = np.random.default_rng(COMM.rank).random((20, 3))
    extent = (16, 12)
    slab = hpart.slab_of(extent)
    grid = hpart.Grid(extent, slab, np.ones((slab.size(1), slab.size(0))))
    gp = hpart.partition_grid(grid, 4)
    pp = hpart.partition_points(xyz, 4)
    graph = ring_graph()
    gpart = hpart.partition_graph(graph, 2)
    boxes = np.array([[0, 8 * COMM.rank, 7, 8 * COMM.rank + 7]], dtype=np.int64)
    pext = (16, 8 * COMM.size)
    patches = hpart.partition_patches(boxes, pext, 2)
    topo = hpart.detect_topology(f"{COMM.size}x1")
    txt = os.path.join(d, "p.txt")
    hpart.write_points_text(txt, xyz)
    rb = hpart.Rebalancer(4)
    rb.partition(xyz)
    mig = hpart.Migration(pp.parts, 4)
    p = lambda name: os.path.join(d, name)  # noqa: E731
    return {
        "partition_points": (hpart.partition_points, dict(coords=xyz, parts=4, imbalance=0.01, curve="hilbert", preset="fast")),
        "repartition_points": (hpart.repartition_points, dict(coords=xyz, current=pp.parts, parts=4, imbalance=0.05, max_rounds=3)),
        "partition_grid": (hpart.partition_grid, dict(grid=grid, parts=4, method="blocks", imbalance=0.01, shape=None)),
        "repartition_grid": (hpart.repartition_grid, dict(grid=grid, previous=gp, parts=4, imbalance=0.1)),
        "grid_neighbours": (hpart.grid_neighbours, dict(grid=grid, partition=gp, halo=1)),
        "Grid": (lambda **k: hpart.partition_grid(hpart.Grid(**k), 2), dict(extent=extent, local=slab, cost=None)),
        "detect_topology": (hpart.detect_topology, dict(spec=f"{COMM.size}x1")),
        "partition_grid_hierarchical": (hpart.partition_grid_hierarchical, dict(grid=grid, parts=COMM.size, topology=topo, imbalance=0.01)),
        "partition_points_hierarchical": (hpart.partition_points_hierarchical, dict(coords=xyz, parts=COMM.size, topology=topo)),
        "partition_graph_hierarchical": (hpart.partition_graph_hierarchical, dict(graph=graph, parts=COMM.size, topology=topo, seed=1)),
        "partition_patches": (hpart.partition_patches, dict(boxes=boxes, extent=pext, parts=2, method="sfc", imbalance=0.01)),
        "repartition_patches": (hpart.repartition_patches, dict(boxes=boxes, extent=pext, current=patches.parts, parts=2)),
        "patch_neighbours": (hpart.patch_neighbours, dict(boxes=boxes, extent=pext, partition=patches, halo=1)),
        "map_of": (hpart.map_of, dict(partition=pp, coords=xyz, curve="hilbert")),
        "read_points_text": (hpart.read_points_text, dict(path=txt, dim=3)),
        "write_points_text": (hpart.write_points_text, dict(path=p("w.txt"), coords=xyz, weights=None)),
        "write_parts_text": (hpart.write_parts_text, dict(path=p("q"), parts=pp.parts)),
        "write_partition_h5": (hpart.write_partition_h5, dict(path=p("p.h5"), partition=pp, coords=xyz)),
        "write_grid_partition_h5": (hpart.write_grid_partition_h5, dict(path=p("g.h5"), grid=grid, partition=gp)),
        "read_parts_h5": (hpart.read_parts_h5, dict(path=p("p.h5"), dataset="/parts")),
        "write_partition_png": (hpart.write_partition_png, dict(path=p("x.png"), coords=xyz, parts=pp.parts, num_parts=4, max_side=16)),
        "write_grid_partition_png": (hpart.write_grid_partition_png, dict(path=p("g.png"), grid=grid, partition=gp, max_side=16)),
        "evaluate_partition": (hpart.evaluate_partition, dict(parts=pp.parts, num_parts=4)),
        "Graph": (hpart.Graph, dict(vtxdist=graph.vtxdist, xadj=graph.xadj, adjncy=graph.adjncy, vwgt=None)),
        "validate_graph": (hpart.validate_graph, dict(graph=graph)),
        "partition_graph": (hpart.partition_graph, dict(graph=graph, parts=2, method="graph", imbalance=0.05, seed=1)),
        "repartition_graph": (hpart.repartition_graph, dict(graph=graph, current=gpart.parts, parts=2, imbalance=0.05, itr=10.0)),
        "graph_metrics": (hpart.graph_metrics, dict(graph=graph, parts=gpart.parts, num_parts=2)),
        "read_graph_metis": (hpart.read_graph_metis, dict(path=p("none.graph"))),
        "migrate_graph": (hpart.migrate_graph, dict(graph=graph, parts=gpart.parts, num_parts=2)),
        "Rebalancer": (hpart.Rebalancer, dict(parts=4, imbalance=0.05, horizon=10, incremental=True, verbose=0)),
        "Rebalancer.partition": (rb.partition, dict(objects=xyz, weights=None)),
        "Rebalancer.observe": (rb.observe, dict(step_seconds=0.1, object_costs=np.ones(len(xyz)))),
        "Rebalancer.rebalance": (rb.rebalance, dict(objects=xyz, parts=None, weights=np.ones(len(xyz)))),
        "Rebalancer.record_migration_seconds": (rb.record_migration_seconds, dict(seconds=0.1)),
        "Migration": (hpart.Migration, dict(parts=pp.parts, num_parts=4)),
        "Migration.move": (mig.move, dict(records=xyz)),
    }



def outcome(f, kw):
    try:
        f(**kw)
        return "ok"
    except hpart.Error as e:
        return "hpart.Error: " + str(e)
    except Exception as e:  # noqa: BLE001 (a local exception is what this test looks for)
        return f"local {type(e).__name__}: {e}"


def test_every_argument_of_a_wrong_type_on_one_rank():
    if COMM.size == 1:
        pytest.skip("needs a second rank")
    with shared_tmpdir(COMM) as d:
        problems = []
        checked = 0
        for name, (f, kw) in calls(d).items():
            for arg in kw:
                for bad in BAD + ([None] if kw[arg] is not None else []):
                    k = dict(kw)
                    if LAST:
                        k[arg] = bad
                    mine = outcome(f, k)
                    every = COMM.allgather(mine)
                    checked += 1
                    if mine.startswith("local") or len(set(every)) != 1:
                        problems.append(f"{name}({arg}={bad!r}): {every}")
        assert checked > 500
        assert not problems, "\n".join(problems)
