#!/usr/bin/env python3
"""Check that two builds of hpart compute the same partitions, bit for bit.

Runs the same inputs through both builds, one case at a time (base then new), with
OMP_NUM_THREADS=1 and identical arguments:
  * hpart-bench --dump-parts for the suites points, grid, graph (np 1, 2 and 3; the shared graphs
    plus the suite's generated grid3d and rgg2d), hier (np 2, 4 and 6) and repart (np 2: drift3d,
    graphdrift, griddrift, every event of each scenario);
  * the CLI: `hpart partition --graph` on every shared graph (methods graph and metis, several K,
    np 1 and 2), and `hpart generate` + `hpart partition --points` (hilbert, morton).
Then it compares every output file of the base build with the same file of the new build byte
for byte and prints one row per file and the line "N of M part vectors identical" (M counts
the two generated point files too).

Each build needs the targets hpart-bench and hpart-cli (the CLI; the target hpart is the library):
  cmake --build BUILD -j2 --target hpart-bench hpart-cli

Exit status: 0 all identical; 1 some file differs or exists on one side only; 2 a run failed
(or a binary is missing). Comparing a build with itself (--base X --new X) runs it twice: that
is how results that are not reproducible from run to run are found (see EXCLUDED in this script).

  scripts/compare_parts.py --base /tmp/base21/build --new build
  scripts/compare_parts.py --base build --new build --quick      # is the build reproducible?
"""
from __future__ import annotations

import argparse
import fnmatch
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_GRAPHS = Path("/work/shared/data/graphs")

# Records left out of the comparison, as (glob over "run/file", reason): results that differ
# between two runs of one build. None do (two runs of one build agreed on every file, repeatedly):
# the repart scenarios rebalance when the imbalance passes a fixed threshold, never by
# Rebalancer::decide(), whose verdict weighs the measured rebalance time; the CLI's --drift, which
# does use decide(), writes no parts and is not run.
EXCLUDED: list[tuple[str, str]] = []


@dataclass
class Run:
    """One program run; writes its files under OUT/<side>/<name>/ ({dir} in args)."""

    name: str
    program: str  # "bench" (hpart-bench, --dump-parts {dir} appended) or "hpart" (the CLI)
    np: int
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)


def find_binary(build: Path, rel: str) -> Path | None:
    """BUILD/rel, else the only file of that name anywhere under BUILD (folders may move)."""
    direct = build / rel
    if direct.is_file():
        return direct
    hits = [p for p in build.rglob(Path(rel).name) if p.is_file() and os.access(p, os.X_OK)]
    return hits[0] if len(hits) == 1 else None


def plan(quick: bool, graphs: list[Path]) -> list[Run]:
    """The runs, in order. Sizes keep a full comparison to a few minutes per build on 2 cores."""
    runs: list[Run] = []
    nps = [2] if quick else [1, 2]
    suite_nps = [2] if quick else [1, 2, 3]  # bench points/grid/graph: np 3 splits the inputs unevenly
    graph_args = [a for g in graphs for a in ("--graph", str(g))]

    # points: hilbert, morton on uniform3d, clusters3d (weighted), plane.
    n = "100000" if quick else "500000"
    for k in ["64"] if quick else ["64", "10"]:
        for np_ in suite_nps:
            runs.append(Run(f"points.k{k}.np{np_}", "bench", np_,
                            ["--suite", "points", "--libraries", "hpart", "--n", n, "--parts", k]))
    # grid: sfc, blocks, tensor, uniform on hotspot2d/3d; patches knapsack, sfc, sfc-swap on amr2d.
    side2d, side3d = ("512", "32") if quick else ("1024", "64")
    for k in ["64"] if quick else ["64", "10"]:
        for np_ in suite_nps:
            runs.append(Run(f"grid.k{k}.np{np_}", "bench", np_,
                            ["--suite", "grid", "--libraries", "hpart,naive", "--side2d", side2d,
                             "--side3d", side3d, "--parts", k]))
    # graph: graph on every shared graph (--graph runs those files alone); graph and
    # geometric+refine on the generated grid3d and rgg2d (rgg2d has a fixed 1M vertices, the
    # only graphs with coordinates); K 16 and 64.
    for np_ in suite_nps:
        runs.append(Run(f"graph.np{np_}", "bench", np_,
                        ["--suite", "graph", "--libraries", "hpart", *graph_args]))
        runs.append(Run(f"graph.generated.np{np_}", "bench", np_,
                        ["--suite", "graph", "--libraries", "hpart", "--cases", "grid3d,rgg2d",
                         "--side3d", "32" if quick else "64"]))
    if not quick:  # an odd K
        for np_ in [2, 3]:
            runs.append(Run(f"graph.k7.np{np_}", "bench", np_,
                            ["--suite", "graph", "--libraries", "hpart", "--side3d", "64", "--parts", "7",
                             *graph_args]))
    # hier: flat, hier, hier-staircase, hier-boxes on the grids; METIS flat and hier on a graph.
    hier_graph = str(next((g for g in graphs if g.stem == "delaunay_n15"), graphs[0]))
    for np_, topo in [(4, "2x2")] if quick else [(2, "2x1"), (4, "2x2"), (6, "3x2")]:
        runs.append(Run(f"hier.np{np_}", "bench", np_,
                        ["--suite", "hier", "--topology", topo, "--cases", "hotspot3d,hotspot2d,graph",
                         "--graph", hier_graph, "--side2d", "512", "--side3d", "32" if quick else "48",
                         "--parts", "32"]))
    # repart (np 2): incremental and scratch; every event's parts. One case per run: --side sets
    # the size of all three cases.
    steps = "10" if quick else "30"
    for case, side, k in [("drift3d", "40" if quick else "64", "64"),
                          ("graphdrift", "96" if quick else "128", "32"),
                          ("griddrift", "128" if quick else "256", "32")]:
        runs.append(Run(f"repart.{case}.np2", "bench", 2,
                        ["--suite", "repart", "--libraries", "hpart", "--cases", case, "--side", side,
                         "--steps", steps, "--parts", k]))

    # CLI, graphs: hpart's partitioner and its METIS path (shared graphs have no coordinates,
    # so no geometric+refine here; the bench covers it).
    cli_graphs = graphs[:3] if quick else graphs
    for g in cli_graphs:
        for k in ["16"] if quick else ["2", "16", "64"]:
            for method in ["graph", "metis"]:
                for np_ in nps:
                    runs.append(Run(f"cli.{g.stem}.{method}.k{k}.np{np_}", "hpart", np_,
                                    ["partition", "--graph", str(g), "--parts", k, "--method", method,
                                     "--quiet", "--out", "{dir}/parts.txt"]))
    # CLI, points: each build generates the file (compared too) and partitions its own.
    for shape, dim in [("uniform3d", "3"), ("clusters2d", "2")]:
        runs.append(Run(f"cli.generate.{shape}", "hpart", 2,
                        ["generate", "--shape", shape, "--n", "50000" if quick else "200000", "--seed", "7",
                         "--quiet", "--out", "{dir}/points.txt"]))
        for method in ["hilbert", "morton"]:
            for k in ["16"] if quick else ["16", "64"]:
                for np_ in nps:
                    runs.append(Run(f"cli.{shape}.{method}.k{k}.np{np_}", "hpart", np_,
                                    ["partition", "--points", f"{{root}}/cli.generate.{shape}/points.txt",
                                     "--dim", dim, "--parts", k, "--method", method, "--quiet",
                                     "--out", "{dir}/parts.txt"]))
    return runs


def execute(run: Run, binary: Path, root: Path, logs: Path, timeout: float) -> tuple[bool, float, str]:
    """Runs `run` for one build; its files go to root/run.name. Returns (ok, seconds, why)."""
    out = root / run.name
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    args = [a.replace("{dir}", str(out)).replace("{root}", str(root)) for a in run.args]
    if run.program == "bench":
        args += ["--dump-parts", str(out)]
    cmd = ["mpirun", "--oversubscribe", "--bind-to", "none", "-np", str(run.np), str(binary), *args]
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", **run.env)
    env.pop("HPART_VERBOSE", None)
    log = logs / f"{run.name}.log"
    t0 = time.monotonic()
    with open(log, "w") as f:
        f.write(" ".join(cmd) + "\n")
        f.flush()
        try:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            return False, time.monotonic() - t0, f"timed out after {timeout:.0f} s (log {log})"
    seconds = time.monotonic() - t0
    return rc == 0, seconds, "" if rc == 0 else f"exit status {rc} (log {log})"


def files_under(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}


def first_difference(a: bytes, b: bytes, binary: bool) -> str:
    """Where two files part: for int32 dumps the count of differing entries and the first."""
    if binary and len(a) == len(b) and len(a) % 4 == 0:
        import array
        x, y = array.array("i", a), array.array("i", b)
        diff = [i for i in range(len(x)) if x[i] != y[i]]
        return f"{len(diff)} of {len(x)} entries differ, first at {diff[0]} ({x[diff[0]]} vs {y[diff[0]]})"
    i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    return f"first differing byte at {i}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, type=Path, help="build directory of the reference build")
    ap.add_argument("--new", required=True, type=Path, help="build directory to check (may equal --base)")
    ap.add_argument("--out", type=Path, help="keep every output and log here (default: a temporary directory, "
                    "removed when everything is identical)")
    ap.add_argument("--quick", action="store_true", help="fewer and smaller cases (about a tenth of the time)")
    ap.add_argument("--graphs", type=Path, default=DEFAULT_GRAPHS, help="folder of the shared METIS graphs")
    ap.add_argument("--only", metavar="GLOB", help="only the runs whose name matches (e.g. 'repart.*')")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per run before it counts as failed")
    opts = ap.parse_args()

    binaries: dict[str, dict[str, Path]] = {}
    for side, build in (("base", opts.base), ("new", opts.new)):
        binaries[side] = {}
        for program, rel in (("bench", "apps/bench/hpart-bench"), ("hpart", "apps/hpart/hpart")):
            path = find_binary(build.resolve(), rel)
            if path is None:
                print(f"compare_parts: no {rel} in {build} (build the targets hpart-bench and hpart-cli)", file=sys.stderr)
                return 2
            binaries[side][program] = path
    graphs = sorted(p for p in opts.graphs.glob("*") if p.suffix in (".graph", ".mgraph"))
    if not graphs:
        print(f"compare_parts: no .graph/.mgraph files in {opts.graphs}", file=sys.stderr)
        return 2
    runs = [r for r in plan(opts.quick, graphs) if not opts.only or fnmatch.fnmatch(r.name, opts.only)]

    out = opts.out.resolve() if opts.out else Path(tempfile.mkdtemp(prefix="compare_parts."))
    roots = {side: out / side for side in ("base", "new")}
    logs = {side: out / "logs" / side for side in ("base", "new")}
    for side in ("base", "new"):
        if roots[side].exists():
            shutil.rmtree(roots[side])
        roots[side].mkdir(parents=True)
        logs[side].mkdir(parents=True, exist_ok=True)
    print(f"base {binaries['base']['bench'].parent.parent.parent}\nnew  {binaries['new']['bench'].parent.parent.parent}")
    print(f"{len(runs)} runs per build{' (quick)' if opts.quick else ''}, outputs in {out}\n")

    seconds = {"base": 0.0, "new": 0.0}
    failures: list[str] = []
    for i, run in enumerate(runs, 1):
        line = f"[{i:3d}/{len(runs)}] {run.name:<40}"
        for side in ("base", "new"):
            ok, t, why = execute(run, binaries[side][run.program], roots[side], logs[side], opts.timeout)
            seconds[side] += t
            line += f"  {side} {t:6.2f} s" + ("" if ok else " FAILED")
            if not ok:
                failures.append(f"{run.name} ({side}): {why}")
        print(line, flush=True)

    # Compare every file of either side.
    names = sorted(files_under(roots["base"]) | files_under(roots["new"]))
    rows, identical, compared, excluded = [], 0, 0, []
    for name in names:
        reason = next((why for pattern, why in EXCLUDED if fnmatch.fnmatch(name, pattern)), None)
        if reason is not None:
            excluded.append((name, reason))
            continue
        a, b = roots["base"] / name, roots["new"] / name
        compared += 1
        if not a.is_file() or not b.is_file():
            rows.append((name, "-" if not a.is_file() else str(a.stat().st_size),
                         "-" if not b.is_file() else str(b.stat().st_size),
                         "MISSING in " + ("base" if not a.is_file() else "new")))
            continue
        da, db = a.read_bytes(), b.read_bytes()
        if da == db:
            identical += 1
            rows.append((name, str(len(da)), str(len(db)), "identical"))
        else:
            rows.append((name, str(len(da)), str(len(db)),
                         "DIFFERENT: " + first_difference(da, db, name.endswith(".parts"))))

    width = max([len("record")] + [len(r[0]) for r in rows])
    print(f"\n{'record':<{width}}  {'bytes base':>11}  {'bytes new':>11}  result")
    print("-" * (width + 40))
    for name, sa, sb, result in rows:
        print(f"{name:<{width}}  {sa:>11}  {sb:>11}  {result}")
    if excluded:
        print(f"\nexcluded ({len(excluded)} records, not compared):")
        for name, reason in excluded:
            print(f"  {name}: {reason}")
    elif not EXCLUDED:
        print("\nexcluded: none (every record reproduces from run to run; see EXCLUDED in this script)")
    print(f"\nruntime: base {seconds['base']:.1f} s, new {seconds['new']:.1f} s")
    for f in failures:
        print(f"FAILED run: {f}")
    print(f"{identical} of {compared} part vectors identical")

    status = 2 if failures else (0 if identical == compared else 1)
    if status == 0 and opts.out is None:
        shutil.rmtree(out)
    elif opts.out is None:
        print(f"outputs and logs kept in {out}")
    return status


if __name__ == "__main__":
    sys.exit(main())
