"""`run`: the worker over a list of rank counts, one mpirun per rank count, into one run file per mode.

The worker measures one rank count per launch (a fresh MPI job per P, so nothing of one P's heap or
connections leaks into the next). --passes K runs the whole list K times, interleaved (P = 1..16,
then again), and appends the later passes' rounds to each record's times_s: a slow minute of the
machine then falls on every P a little rather than on one P entirely. The floor's rounds are
appended in the same order, so round i still pairs with floor round i. Deterministic figures must
agree between passes; when they do not, the run reports it and exits 1.

Exit status: 0, 1 (passes disagree; the file is written with the first pass's figures and the
disagreements in meta.nondeterministic), 2 (a worker failed or could not be started).
"""
import datetime
import json
import os
import shlex
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from . import deterministic
from .records import RunFileError, parse_lines, record_key, write_run

SOURCE_DIR = Path(__file__).resolve().parents[4]  # apps/scaling/python/hpart_scaling/runner.py -> the repository
WORKER = "hpart-scaling-worker"


class WorkerError(Exception):
    """A worker that failed, with the command and the tail of its stderr."""


def find_worker(explicit):
    """--worker, else $HPART_SCALING_WORKER, else the PATH, else the usual build directories."""
    if explicit:  # named: that one or none, never a stand-in from elsewhere
        if Path(explicit).is_file() and os.access(explicit, os.X_OK):
            return str(Path(explicit).resolve())
        raise WorkerError(f"--worker {explicit}: not an executable file")
    candidates = [os.environ.get("HPART_SCALING_WORKER"), shutil.which(WORKER),
                  Path(sys.argv[0]).resolve().parent / WORKER,
                  SOURCE_DIR / "build" / "apps" / "scaling" / WORKER, SOURCE_DIR / "build" / "bin" / WORKER]
    for c in candidates:
        if c and Path(c).is_file() and os.access(c, os.X_OK):
            return str(Path(c).resolve())
    raise WorkerError(f"{WORKER} not found: build it (cmake --build build --target {WORKER}) "
                      "or pass --worker PATH")


def _first_line(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def worker_version(worker):
    """The worker's `--version` line: {"hpart": ..., "compiler": ..., "mpi": ...}; {} if it fails."""
    try:
        return json.loads(_first_line([worker, "--version"]))
    except json.JSONDecodeError:
        return {}


def source_commit():
    if not (SOURCE_DIR / ".git").exists():
        return "unknown"
    head = _first_line(["git", "-C", str(SOURCE_DIR), "rev-parse", "--short", "HEAD"])
    dirty = subprocess.run(["git", "-C", str(SOURCE_DIR), "status", "--porcelain"],
                           capture_output=True, text=True).stdout.strip()
    return head + ("+dirty" if dirty else "")


def default_mpirun_args(ranks, cores, mpi_line):
    """Open MPI only (other MPIs reject these flags): as root allow it; oversubscribed, unbound."""
    # Open MPI's mpirun says "mpirun (Open MPI) 4.1.4"; its mpiexec "mpiexec (OpenRTE) 4.1.4".
    if "Open MPI" not in mpi_line and "OpenRTE" not in mpi_line:
        return []
    args = ["--allow-run-as-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
    if ranks > cores:
        args += ["--oversubscribe", "--bind-to", "none"]
    return args


def worker_command(args, ranks, mode, json_path, mpi_line):
    extra = shlex.split(args.mpirun_args) if args.mpirun_args is not None else \
        default_mpirun_args(ranks, os.cpu_count() or 1, mpi_line)
    cmd = shlex.split(args.mpirun) + extra + [args.np_flag, str(ranks), args.worker, "--mode", mode,
                                              "--size", args.size, "--rounds", str(args.rounds),
                                              "--json", str(json_path)]
    if args.threads != 1:  # the worker's default; OMP_NUM_THREADS carries it as well
        cmd += ["--threads", str(args.threads)]
    if args.cases:
        cmd += ["--cases", args.cases]
    return cmd


def run_worker(cmd, json_path, threads, timeout):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    json_path.unlink(missing_ok=True)
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        raise WorkerError(f"{shlex.join(cmd)}: no result after {timeout} s\n{_tail(e.stderr)}") from None
    except OSError as e:
        raise WorkerError(f"{shlex.join(cmd)}: {e}") from None
    if proc.returncode != 0:
        raise WorkerError(f"{shlex.join(cmd)}: exit status {proc.returncode}\n"
                          f"{_tail(proc.stderr) or _tail(proc.stdout)}")
    try:
        with open(json_path) as f:
            _, records = parse_lines(f, str(json_path))
    except (OSError, RunFileError) as e:
        raise WorkerError(f"{shlex.join(cmd)}: {e}") from None
    if not records:
        raise WorkerError(f"{shlex.join(cmd)}: wrote no records to {json_path}")
    return records


def _tail(text, lines=30):
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    return "\n".join((text or "").strip().splitlines()[-lines:])


def merge_pass(merged, records, pass_no, disagreements):
    """Append a later pass's rounds to the first pass's records; collect deterministic disagreements."""
    for rec in records:
        key = record_key(rec)
        first = merged.get(key)
        if first is None:
            merged[key] = dict(rec, passes=1, pass_rounds=[len(rec.get("times_s", [rec.get("time_s")]))])
            continue
        for figure, a, b, how in deterministic.differences(first, rec):
            disagreements.append(f"{key[0]}/{key[1]} P={key[2]} pass {pass_no}: {figure} {a} vs {b}")
        first["times_s"] = first.get("times_s", [first.get("time_s")]) + rec.get("times_s", [rec.get("time_s")])
        first["time_s"] = statistics.median(first["times_s"])
        first["rounds"] = len(first["times_s"])
        first["passes"] += 1
        first["pass_rounds"] = first["pass_rounds"] + [len(rec.get("times_s", [rec.get("time_s")]))]
        for figure in ("peak_rss_mb", "peak_rss_mean_mb", "rss_growth_mb"):
            if figure in rec:
                first[figure] = max(first.get(figure, rec[figure]), rec[figure])


def make_meta(args, mode, mpi_line, version, cmd):
    return {"host": socket.gethostname(), "machine_class": args.machine_class, "cores": os.cpu_count(),
            "mpi": mpi_line, "compiler": version.get("compiler", "unknown"),
            "hpart": version.get("hpart", "unknown"), "commit": source_commit(),
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "mode": mode, "size": args.size, "ranks": args.ranks, "rounds": args.rounds,
            "passes": args.passes, "threads": args.threads, "mpirun": shlex.join(cmd),
            "worker": args.worker, "inject": os.environ.get("HPART_SCALING_INJECT") or None}


def main(args):
    try:
        args.worker = find_worker(args.worker)
    except WorkerError as e:
        print(f"hpart-scaling run: {e}", file=sys.stderr)
        return 2
    modes = ["strong", "weak"] if args.mode == "both" else [args.mode]
    out = Path(args.out)
    raw = out / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    mpi_line = _first_line(shlex.split(args.mpirun) + ["--version"])
    version = worker_version(args.worker)
    merged = {m: {} for m in modes}
    commands, disagreements = {}, {m: [] for m in modes}
    for pass_no in range(1, args.passes + 1):
        for ranks in args.ranks:
            for mode in modes:
                json_path = raw / f"{mode}.np{ranks}.pass{pass_no}.jsonl"
                cmd = worker_command(args, ranks, mode, json_path, mpi_line)
                commands.setdefault(mode, cmd)
                start = time.monotonic()
                try:
                    records = run_worker(cmd, json_path, args.threads, args.timeout)
                except WorkerError as e:
                    print(f"hpart-scaling run: worker failed: {e}", file=sys.stderr)
                    return 2
                merge_pass(merged[mode], records, pass_no, disagreements[mode])
                print(f"{mode} P={ranks} pass {pass_no}/{args.passes}: {time.monotonic() - start:.1f} s, "
                      f"{len(records)} records", flush=True)
    for mode in modes:
        meta = make_meta(args, mode, mpi_line, version, commands[mode])
        if disagreements[mode]:
            meta["nondeterministic"] = disagreements[mode]
        write_run(out / f"{mode}.jsonl", meta, list(merged[mode].values()))
        print(f"wrote {out / f'{mode}.jsonl'}")
    found = [f"{mode}: {d}" for mode in modes for d in disagreements[mode]]
    if found:
        print("hpart-scaling run: deterministic figures differ between passes:\n  " + "\n  ".join(found),
              file=sys.stderr)
        return 1
    return 0
