"""Synthetic run files for the tests: the records a worker would write, with a realistic noise.

Times: t = model(P) * machine * round_i * exp(N(0, sigma)), where `machine` is a per-run factor
(another day, another node: sigma 0.15 in log) and round_i a per-round factor (a daemon woke up),
both shared by the floor and every case of the run, and the last factor each record's own noise.
The floor cancels the shared factors; what the time rule must live with is the records' own noise.
Deterministic figures are functions of (mode, case, method, P) only, as they are for the worker.
"""
import hashlib
import json
import math

import numpy as np

METHODS = [("points", "hilbert"), ("grid", "sfc"), ("graph", "kway")]
RANKS = (1, 2, 4, 8, 16)
N = 1 << 20


def deterministic_figures(mode, case, method, p):
    lg = math.log2(p)
    rec = {"checksum": hashlib.sha1(f"{mode}{case}{method}{p}".encode()).hexdigest()[:16],
           "messages_max": int(2 * lg), "messages_mean": 1.5 * lg,
           "bytes_max": int(1000 * lg + 8 * p) if p > 1 else 0, "bytes_mean": 800.0 * lg,
           "collectives_max": int(3 + lg), "collectives_mean": 3.0 + lg,
           "collective_kinds": {"Allreduce": int(2 + lg), "Exscan": 1},
           "imbalance": 0.01 + 1e-3 * p}
    if case == "graph":
        rec["edge_cut"] = 100 * p
    return rec


def run_records(mode="strong", ranks=RANKS, rounds=5, sigma=0.07, seed=0, methods=METHODS,
                slow=None, floor=True):
    """The records of one synthetic run; slow = {(case, method) or (case, method, P): factor}."""
    rng = np.random.default_rng(seed)
    slow = slow or {}
    machine = math.exp(rng.normal(0, 0.15))
    records = []
    for p in ranks:
        per_round = np.exp(rng.normal(0, 0.1, rounds)) * machine
        scale = 1.0 / p if mode == "strong" else 1.0
        n = N if mode == "strong" else (N // 16) * p
        cases = ([("floor", "floor")] if floor else []) + list(methods)
        for i, (case, method) in enumerate(cases):
            base = 0.05 * scale * (1 + i) * (1 + 0.05 * math.log2(p))
            factor = slow.get((case, method), 1.0) * slow.get((case, method, p), 1.0)
            times = base * factor * per_round * np.exp(rng.normal(0, sigma, rounds))
            rec = {"suite": "scaling", "mode": mode, "case": case,
                   "library": "floor" if case == "floor" else "hpart", "method": method, "n": n,
                   "parts": 64, "ranks": p, "threads": 1, "rounds": rounds,
                   "time_s": float(np.median(times)), "times_s": [float(t) for t in times],
                   "peak_rss_mb": 60 + 120 / p, "peak_rss_mean_mb": 50 + 100 / p, "rss_growth_mb": 5.0}
            if case != "floor":
                rec.update(deterministic_figures(mode, case, method, p))
            records.append(rec)
    return records


def meta(mode="strong", ranks=RANKS, rounds=5, **extra):
    m = {"host": "synthetic", "machine_class": "test", "cores": 2, "mpi": "none", "compiler": "none",
         "commit": "abc1234", "date": "2026-01-01T00:00:00+00:00", "mode": mode, "size": "ci",
         "ranks": list(ranks), "rounds": rounds, "passes": 1, "threads": 1, "mpirun": "none", "inject": None}
    m.update(extra)
    return m


def write(path, records, meta_obj):
    with open(path, "w") as f:
        f.write(json.dumps({"meta": meta_obj}) + "\n")
        for rec in records:
            f.write(json.dumps(rec) + "\n")
    return str(path)


def fabricate(path, mode="strong", ranks=RANKS, rounds=5, edit=None, meta_extra=None, **kw):
    """Write a run file; edit(records) may change the records before they are written."""
    records = run_records(mode=mode, ranks=ranks, rounds=rounds, **kw)
    if edit:
        edit(records)
    return write(path, records, meta(mode, ranks, rounds, **(meta_extra or {})))


def find(records, case, method, p):
    return next(r for r in records if (r["case"], r["method"], r["ranks"]) == (case, method, p))
