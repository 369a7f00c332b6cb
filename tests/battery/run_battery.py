#!/usr/bin/python3
"""The file battery: malformed and mutated input files through the `hpart` CLI under mpirun.

    run_battery.py --hpart build/apps/hpart/hpart --h5-cases build/tests/battery/battery_h5_cases \
                   --work /tmp/battery [--quick N] [--seed 20] [--ranks 1,2,3] [--timeout 20] [--jobs 1]

Writes the files (battery_files), runs every case at every rank count (the quick subset: every
key case at the largest rank count, every N-th other case at one), classifies each run:

  success         exit 0 (a part file written with --out is checked: one id in [0, K) per
                  object reported, and for point files the same file at every rank count)
  clean-error     exit 1 or 2 and exactly one `error:` line (rank 0's)
  messy-error     exit 1 or 2 but no `error:` line, or more than one
  internal-error  exit 3
  crash           a signal, an abort, MPI_ABORT, bad_alloc, `terminate called`, any other exit code
  hang            no exit within the timeout (the whole process group is killed)
  wrong-answer    exit 0 with a part file that contradicts the run's own report, a negative
                  cut, volume or imbalance, or an imbalance above the tolerance without a warning

and then compares, per file, the outcome across rank counts: the same class, and for clean
errors the same message once "rank r: " is stripped (reported, not failed; memory verdicts,
which name each rank's share, are compared with their numbers masked). Exits 1 when any run is
a crash, hang, internal error, messy error or wrong answer, or when a point file's partition
differs between rank counts (hpart promises the same partition at any P).
"""

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import battery_files  # noqa: E402
import mutations  # noqa: E402

FAILING = ("crash", "hang", "internal-error", "messy-error", "wrong-answer")
CLASSES = ("success", "clean-error") + FAILING
# Text a run prints only when it died rather than returned.
CRASH_MARKERS = ("terminate called", "bad_alloc", "MPI_ABORT", "Segmentation fault", "exited on signal",
                 "Process received signal", "core dumped", "Aborted", "AddressSanitizer", "double free",
                 "malloc(): ", "stack smashing", "what():", "killed by signal", "Floating point exception",
                 "without calling \"finalize\"")
ERROR_LINE = re.compile(r"^hpart: error: (.*)$", re.M)
RANK_PREFIX = re.compile(r"^rank \d+( \(and \d+ more\))?: ")


def mpiexec_command(mpiexec):
    cmd = [mpiexec, "--oversubscribe", "--bind-to", "none"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    return cmd


def command(args, case, ranks, out_dir):
    out = os.path.join(out_dir, f"{case.name}.np{ranks}.part")
    argv = [a.replace("{out}", out) for a in case.args]
    return mpiexec_command(args.mpiexec) + ["-np", str(ranks), args.hpart] + argv, out


def run_one(args, case, ranks, out_dir):
    cmd, out = command(args, case, ranks, out_dir)
    if os.path.exists(out):
        os.remove(out)
    start = time.monotonic()
    # Apart, so that rank 0's warnings (stderr) cannot land inside its table (stdout).
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=mutations.run_env(args.memory_limit), start_new_session=True)
    try:
        out_text, err_text = p.communicate(timeout=args.timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out_text, err_text = p.communicate()
        rc = None
    seconds = time.monotonic() - start
    stdout, stderr = out_text.decode("utf-8", "replace"), err_text.decode("utf-8", "replace")
    text = stdout + stderr
    env = "OMP_NUM_THREADS=1 OMPI_MCA_odls_base_sigkill_timeout=0 " + \
        (f"HPART_MEMORY_LIMIT={args.memory_limit} " if args.memory_limit else "")
    result = {"kind": case.kind, "case": case.name, "np": ranks, "rc": rc, "seconds": round(seconds, 2),
              "command": env + shlex.join(cmd), "notes": case.notes, "warned": "warning:" in text}
    result["class"], result["detail"] = classify(rc, stdout, stderr, case, out)
    result["output"] = text[-3000:]
    errors = ERROR_LINE.findall(text)
    result["error"] = RANK_PREFIX.sub("", errors[0]) if errors else ""
    return result


def classify(rc, stdout, stderr, case, out):
    text = stdout + stderr
    if rc is None:
        return "hang", "no exit within the timeout"
    marker = next((m for m in CRASH_MARKERS if m in text), None)
    if rc < 0 or rc not in (0, 1, 2, 3) or marker:
        return "crash", f"exit {rc}" + (f", '{marker}'" if marker else "")
    if rc == 3:
        return "internal-error", "exit 3"
    if rc in (1, 2):
        n = len(ERROR_LINE.findall(text))
        return ("clean-error", "") if n == 1 else ("messy-error", f"exit {rc} with {n} error lines")
    return check_success(stdout, stderr, case, out)


def check_success(text, stderr, case, out):
    if case.check == "grid" or "{out}" not in case.args:
        return check_report(text, "warning:" in stderr, case) if case.check else ("success", "")
    m = re.search(r": (\d+) (points|vertices)", text)
    k = int(case.args[case.args.index("--parts") + 1])
    if not m:
        return "wrong-answer", "exit 0 without the summary line"
    if not os.path.exists(out):
        return "wrong-answer", "exit 0 without the part file"
    with open(out) as f:
        parts = f.read().split()
    if len(parts) != int(m.group(1)):
        return "wrong-answer", f"{len(parts)} part ids for {m.group(1)} {m.group(2)}"
    bad = next((p for p in parts if not p.isdigit() or int(p) >= k), None)
    if bad is not None:
        return "wrong-answer", f"part id {bad!r} outside [0, {k})"
    return check_report(text, "warning:" in stderr, case)


def check_report(text, warned, case):
    """The summary table's numbers: no negative cut, volume or imbalance, and (points and graphs)
    an imbalance above the tolerance only with a warning (issue 20: METIS results beyond it were
    reported as fine)."""
    lines = text.splitlines()
    head = next((i for i, l in enumerate(lines) if l.startswith("method ")), None)
    if head is None or head + 1 >= len(lines):
        return "wrong-answer", "exit 0 without the summary table"
    row = dict(zip(lines[head].split(), lines[head + 1].split()))
    try:
        values = {k: float(v) for k, v in row.items() if k != "method"}
    except ValueError:
        return "wrong-answer", f"summary row not numeric: {lines[head + 1]!r}"
    for column in ("edge_cut", "comm_volume", "imbalance", "empty"):
        if values.get(column, 0) < 0:
            return "wrong-answer", f"{column} {row[column]} is negative"
    if case.check == "grid":  # only sfc and hier promise a tolerance; the box methods cannot
        return "success", ""
    given = case.args[case.args.index("--imbalance") + 1] if "--imbalance" in case.args else None
    tolerance = float(given) if given else (0.03 if case.check == "graph" else 0.001)
    imbalance = values.get("imbalance", 0)
    if imbalance > tolerance * (1 + 1e-9) + 1e-12 and not warned:
        return "wrong-answer", f"imbalance {row['imbalance']} above the tolerance {tolerance:g} without a warning"
    return "success", ""


def schedule(cases, ranks, quick):
    """(case, np) pairs: everything, or in the quick subset each key case at the largest rank
    count (what they break needs ranks without rows, or several ranks) and every `quick`-th
    other case at one rank count (rotating), so that every rank count meets every kind."""
    runs = []
    for i, c in enumerate(cases):
        if not quick:
            runs += [(c, r) for r in ranks]
        elif c.key:
            runs.append((c, max(ranks)))
        elif i % quick == 0:
            runs.append((c, ranks[(i // quick) % len(ranks)]))
    return runs


def compare_across_ranks(results, out_dir):
    """Per case run at several rank counts: differing classes, messages, or point partitions."""
    by_case = defaultdict(dict)
    for r in results:
        by_case[r["case"]][r["np"]] = r
    notes, mismatched_partitions = [], []
    for name, runs in sorted(by_case.items()):
        if len(runs) < 2:
            continue
        classes = {np: r["class"] for np, r in runs.items()}
        if len(set(classes.values())) > 1:
            notes.append(f"{name}: outcome depends on the rank count: {classes}")
            continue
        errors = {np: r["error"] for np, r in runs.items() if r["class"] == "clean-error"}
        # A memory verdict names this rank's share and budget, which depend on the rank count.
        per_rank = {re.sub(r"[0-9.]+", "#", e) for e in errors.values() if "on this rank" in e}
        if len(set(errors.values())) > 1 and not (len(per_rank) == 1 and all("on this rank" in e for e in errors.values())):
            notes.append(f"{name}: the error differs by rank count:\n" +
                         "\n".join(f"      np {np}: {e}" for np, e in sorted(errors.items())))
        first = next(iter(runs.values()))
        if first["class"] == "success" and first["kind"].startswith("points"):
            files = {np: os.path.join(out_dir, f"{name}.np{np}.part") for np in runs}
            contents = {np: open(f).read() if os.path.exists(f) else None for np, f in files.items()}
            if len(set(contents.values())) > 1:
                mismatched_partitions.append(name)
    return notes, mismatched_partitions


def summarise(results, notes, mismatched, show_all):
    kinds = sorted({r["kind"] for r in results})
    table = Counter((r["kind"], r["class"]) for r in results)
    lines = ["", f"{'kind':<14}" + "".join(f"{c:>15}" for c in CLASSES) + f"{'runs':>8}"]
    for k in kinds + ["all"]:
        row = [sum(v for (kk, c), v in table.items() if (k == "all" or kk == k) and c == cls) for cls in CLASSES]
        lines.append(f"{k:<14}" + "".join(f"{v:>15}" for v in row) + f"{sum(row):>8}")
    by_np = Counter((r["np"], r["class"]) for r in results)
    for np in sorted({r["np"] for r in results}):
        lines.append(f"np {np:<11}" + "".join(f"{by_np[(np, c)]:>15}" for c in CLASSES) +
                     f"{sum(by_np[(np, c)] for c in CLASSES):>8}")
    slow = [r for r in results if r["class"] == "clean-error" and r["seconds"] > 5]
    warned = Counter(r["kind"] for r in results if r["class"] == "success" and r["warned"])
    if warned:
        lines.append("successes with a warning (imbalance above the tolerance): " +
                     ", ".join(f"{k} {v}" for k, v in sorted(warned.items())))
    lines.append(f"\n{len(results)} runs of {len({r['case'] for r in results})} files; "
                 f"slowest {max((r['seconds'] for r in results), default=0):.1f} s; "
                 f"{len(slow)} errors took more than 5 s")
    bad = [r for r in results if r["class"] in FAILING]
    for r in bad + (slow if show_all else []):
        lines.append(f"\n[{r['class']}] {r['case']} np {r['np']} ({r['detail']}; {r['seconds']} s) {r['notes'] or ''}")
        lines.append(f"  reproduce: {r['command']}")
        tail = r["output"].strip().splitlines()[-8:]
        lines += ["  | " + l[:300] for l in tail]
    if mismatched:
        lines.append("\npoint partitions that differ between rank counts (the promise: the same partition at any P):")
        lines += ["  " + m for m in mismatched]
    if notes:
        lines.append(f"\n{len(notes)} files whose outcome or message depends on the rank count (reported, not failed):")
        lines += ["  " + n for n in notes]
    if show_all:
        counts = Counter(r["error"].split(":")[-1].strip()[:60] for r in results if r["class"] == "clean-error")
        lines.append("\nmost frequent error endings:")
        lines += [f"  {v:5d}  {k}" for k, v in counts.most_common(40)]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hpart", required=True, help="the hpart CLI binary")
    ap.add_argument("--h5-cases", default="", help="the battery_h5_cases helper (structural HDF5 files)")
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--work", required=True, help="directory for the files and part files (reused)")
    ap.add_argument("--shared", default="", help="directory of the shared METIS graphs (mutated too)")
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies the number of random mutants")
    ap.add_argument("--ranks", default="1,2,3")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds before a run counts as a hang")
    ap.add_argument("--memory-limit", default="2G",
                    help="HPART_MEMORY_LIMIT of every run ('' = the machine's own budget)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at once (each is an mpirun of up to max(ranks))")
    ap.add_argument("--quick", type=int, default=0, metavar="N",
                    help="the quick subset: key cases at the largest rank count, every N-th other case at one")
    ap.add_argument("--only", default="", help="a regular expression: run only the cases whose name matches")
    ap.add_argument("--json", default="", help="write every result here")
    ap.add_argument("--verbose", action="store_true", help="also list slow errors and the frequent messages")
    args = ap.parse_args()

    ranks = [int(r) for r in args.ranks.split(",")]
    t0 = time.monotonic()
    files = os.path.join(args.work, "files")
    out_dir = os.path.join(args.work, "out")
    os.makedirs(out_dir, exist_ok=True)
    cases = battery_files.make_cases(files, args.seed, args.hpart, args.h5_cases, mpiexec_command(args.mpiexec),
                                     args.shared, args.scale)
    if args.only:
        cases = [c for c in cases if re.search(args.only, c.name)]
    runs = schedule(cases, ranks, args.quick)
    print(f"battery: {len(cases)} files, {len(runs)} runs at np {args.ranks} (seed {args.seed}, "
          f"timeout {args.timeout:g} s, files made in {time.monotonic() - t0:.1f} s)", flush=True)
    results = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for i, r in enumerate(pool.map(lambda cr: run_one(args, cr[0], cr[1], out_dir), runs)):
            results.append(r)
            if r["class"] in FAILING:
                print(f"  [{r['class']}] {r['case']} np {r['np']}: {r['detail']}", flush=True)
            if (i + 1) % 100 == 0:
                print(f"  {i + 1}/{len(runs)} runs, {time.monotonic() - t0:.0f} s", flush=True)
    notes, mismatched = compare_across_ranks(results, out_dir)
    print(summarise(results, notes, mismatched, args.verbose))
    print(f"\nbattery: {time.monotonic() - t0:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    failed = sum(r["class"] in FAILING for r in results) + len(mismatched)
    print(f"battery: {'FAILED' if failed else 'passed'}: {failed} failing runs" +
          (f" ({len(mismatched)} point partitions differ between rank counts)" if mismatched else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
