"""The command line: `hpart-scaling run | compare | calibrate | models | plot`."""
import argparse
import sys
import textwrap

from .records import RunFileError

DESCRIPTION = """\
hpart's scaling regression suite: run every method at a list of rank counts, keep the result as a
run file (JSON Lines: a meta line, then one record per case, method and rank count), and judge a
new run against a stored baseline.

  run        run hpart-scaling-worker under mpirun at each rank count -> DIR/<mode>.jsonl
  compare    verdict of CURRENT against BASELINE: exit 0 pass, 1 regression, 2 could not compare
  calibrate  false-alarm rate and power of the time rule from repeated runs of one commit
  models     fit bytes, messages, collectives and memory per rank against P; extrapolate to 1e5
  plot       speedup, efficiency, bytes, messages and memory per rank (PNG), baseline overlaid
  check      run, then compare with a stored baseline (what ctest calls)

`hpart-scaling COMMAND --help` explains each."""

EPILOG = """\
examples:
  # a baseline for this machine class (2 cores: P > 2 runs oversubscribed)
  hpart-scaling run --mode both --ranks 1,2,4,8,16 --size default --rounds 5 --passes 2 \\
      --machine-class laptop-2c --out baselines/laptop-2c
  # after a change: run again and compare
  hpart-scaling run --mode strong --machine-class laptop-2c --passes 2 --out /tmp/now
  hpart-scaling compare baselines/laptop-2c/strong.jsonl /tmp/now/strong.jsonl --report report.md
  # CI: small, deterministic figures only
  hpart-scaling run --mode strong --ranks 1,2,4 --size ci --rounds 1 --out /tmp/ci --machine-class ci
  hpart-scaling compare baselines/ci/strong.jsonl /tmp/ci/strong.jsonl --deterministic-only
  # prove the suite sees a regression: the worker injects extra messages into points/hilbert
  HPART_SCALING_INJECT=points.hilbert:messages hpart-scaling run ... --out /tmp/bad
"""


def _wrap(text):
    """Descriptions are written as paragraphs separated by a blank line; the help wraps them."""
    return "\n\n".join(textwrap.fill(" ".join(par.split()), 95) for par in text.split("\n\n"))


def _ranks(text):
    try:
        ranks = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--ranks {text!r}: a comma-separated list of integers") from None
    if not ranks or min(ranks) < 1:
        raise argparse.ArgumentTypeError("--ranks needs positive rank counts")
    return sorted(set(ranks))


def _add_rule_options(p):
    p.add_argument("--time-alpha", type=float, default=0.005, metavar="A",
                   help="significance level of the time rule's permutation test (default 0.005)")
    p.add_argument("--min-effect", type=float, default=0.10, metavar="E",
                   help="smallest slowdown the time rule reports, as a fraction: 0.10 = 10%% "
                        "(default 0.10); tune both with `calibrate`")
    p.add_argument("--raw-times", action="store_true",
                   help="compare raw times instead of times over the in-run floor of the same round")


def _add_run_options(p):
    """The options of `run`, shared by `check`."""
    p.add_argument("--mode", choices=["strong", "weak", "both"], default="both",
                   help="strong: fixed global size; weak: fixed size per rank; both (default)")
    p.add_argument("--ranks", type=_ranks, default=[1, 2, 4, 8, 16], help="rank counts (default 1,2,4,8,16)")
    p.add_argument("--size", choices=["ci", "small", "default", "large"], default="default",
                   help="problem size class of the worker (default default)")
    p.add_argument("--rounds", type=int, default=5, help="measured rounds per pass (default 5)")
    p.add_argument("--passes", type=int, default=6,
                   help="run the whole rank list K times, interleaved (launches: the time rule's samples; "
                        "the figures must agree between them); rounds are appended (default 6: with 4 the "
                        "time rule's false alarms exceeded 5%% for 4 of 18 method-modes on a 2-core VM)")
    p.add_argument("--machine-class", required=True, metavar="NAME",
                   help="the name baselines are kept under (e.g. laptop-2c, cluster-epyc)")
    p.add_argument("--out", required=True, metavar="DIR", help="output directory")
    p.add_argument("--worker", metavar="PATH",
                   help="hpart-scaling-worker (default: $HPART_SCALING_WORKER, PATH, build/apps/scaling)")
    p.add_argument("--mpirun", default="mpirun", help="launcher command (default mpirun)")
    p.add_argument("--mpirun-args", metavar="ARGS", help="launcher arguments, replacing the defaults")
    p.add_argument("--np-flag", default="-np", help="the launcher's rank-count flag (default -np; srun: -n)")
    p.add_argument("--threads", type=int, default=1, help="OpenMP threads per rank (default 1)")
    p.add_argument("--cases", metavar="A,B", help="only these cases (the worker's names)")
    p.add_argument("--timeout", type=float, default=3600, help="seconds per worker launch (default 3600)")


def build_parser():
    parser = argparse.ArgumentParser(prog="hpart-scaling", description=DESCRIPTION, epilog=EPILOG,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    raw = argparse.RawDescriptionHelpFormatter

    p = sub.add_parser("run", formatter_class=raw, help="run the worker over rank counts",
                       description=_wrap("Run hpart-scaling-worker once per rank count (a fresh mpirun "
                       "each) and write DIR/<mode>.jsonl (meta line + records; the worker's own files "
                       "stay in DIR/raw). Exit 0, 1 if the passes' deterministic figures disagree, "
                       "2 if a worker fails (its stderr tail is shown).\n\nDefault mpirun arguments "
                       "(Open MPI; replaced entirely by --mpirun-args): --allow-run-as-root as root; "
                       "--oversubscribe --bind-to none when P > cores. OMP_NUM_THREADS=--threads; "
                       "HPART_SCALING_INJECT passes through to the worker and is recorded in meta."),
                       epilog="example:\n  hpart-scaling run --mode strong --ranks 1,2,4 --size ci "
                       "--rounds 3 --machine-class ci --out /tmp/ci\n  on a cluster (inside an "
                       "allocation):\n  hpart-scaling run --mpirun srun --np-flag -n --mpirun-args \"--cpu-bind=cores\" ...")
    _add_run_options(p)

    p = sub.add_parser("compare", formatter_class=raw, help="verdict of a run against a baseline",
                       description=_wrap("Compare CURRENT with BASELINE: deterministic figures exactly "
                       "(checksum, messages, bytes, collectives) or within 1e-9 relative (imbalance, "
                       "edge cut, migrated); memory per rank against baseline x 1.25 + 16 MiB; times by "
                       "the noise-aware rule (see `pydoc hpart_scaling.time_rule`). Exit 0 = no "
                       "regression, 1 = regression, 2 = could not compare."),
                       epilog="example:\n  hpart-scaling compare base/strong.jsonl now/strong.jsonl "
                       "--report report.md")
    p.add_argument("baseline", metavar="BASELINE.jsonl")
    p.add_argument("current", metavar="CURRENT.jsonl")
    p.add_argument("--report", metavar="FILE.md", help="write the Markdown report here")
    p.add_argument("--deterministic-only", action="store_true",
                   help="compare deterministic figures only (no memory, no times): for shared CI machines")
    _add_rule_options(p)

    p = sub.add_parser("calibrate", formatter_class=raw, help="false alarms and power of the time rule",
                       description=_wrap("From K >= 2 runs of one commit on one machine: the fraction of "
                       "ordered pairs in which the time rule flags each method (false alarms), and with "
                       "run j's times of that method multiplied by each slowdown (power). Runs made "
                       "with HPART_SCALING_INJECT are reported apart: how often their injection was caught. "
                       "With --split K, one run of many passes is compared against itself: random pairs of "
                       "disjoint K-pass subsets stand for two runs of --passes K."),
                       epilog="example:\n  for i in 1 2 3 4 5 6; do hpart-scaling run --passes 2 "
                       "--machine-class m --out cal/$i; done\n  hpart-scaling calibrate cal/*/strong.jsonl "
                       "--report calib.md\n  hpart-scaling run --passes 8 --machine-class m --out pool && "
                       "hpart-scaling calibrate pool/strong.jsonl --split 3")
    p.add_argument("runs", nargs="+", metavar="RUN.jsonl")
    p.add_argument("--split", type=int, metavar="K",
                   help="compare the baseline against itself: from one run of >= 2K passes, draw pairs of "
                        "disjoint K-pass halves (K = the --passes the suite's runs use)")
    p.add_argument("--draws", type=int, default=200, help="with --split: pairs drawn (default 200, fixed seed)")
    p.add_argument("--slowdowns", default="1.10,1.25,2.0", help="slowdown factors (default 1.10,1.25,2.0)")
    p.add_argument("--report", metavar="FILE.md")
    _add_rule_options(p)

    p = sub.add_parser("models", formatter_class=raw, help="growth models of per-rank figures",
                       description=_wrap("Fit bytes, messages and collectives per rank, and memory per rank, "
                       "against P on the basis 1, log2 P, P, N/P (non-negative least squares, the "
                       "smallest subset within a relative RMS of 0.001 of the full fit for the exact counts, 0.05 for "
                       "memory); extrapolate to 1e4 and 1e5 ranks; "
                       "flag O(P) terms and memory that grows with P."),
                       epilog="example:\n  hpart-scaling models base/strong.jsonl --report models.md")
    p.add_argument("run", metavar="RUN.jsonl")
    p.add_argument("--report", metavar="FILE.md")
    p.add_argument("--figures", metavar="A,B", help="only these figures (default: bytes_max, messages_max, "
                   "collectives_max, peak_rss_mean_mb, rss_growth_mb)")

    p = sub.add_parser("plot", formatter_class=raw, help="PNG plots of a run",
                       description=_wrap("speedup_<mode>.png, efficiency_<mode>.png, bytes_per_rank_<mode>.png, "
                       "messages_per_rank_<mode>.png, memory_per_rank_<mode>.png; the baseline dashed."),
                       epilog="example:\n  hpart-scaling plot now/strong.jsonl --baseline base/strong.jsonl "
                       "--out plots/")
    p.add_argument("run", metavar="RUN.jsonl")
    p.add_argument("--baseline", metavar="BASE.jsonl")
    p.add_argument("--out", required=True, metavar="DIR")

    p = sub.add_parser("check", formatter_class=raw, help="run, then compare with a baseline (for ctest)",
                       description=_wrap("`run` with the same options, then `compare` of each mode's "
                       "run file with BASELINE_DIR/<mode>.jsonl. Exit 0 pass, 1 regression (or passes "
                       "that disagree), 2 could not run or compare.\n\nWith --expect-regression it tests "
                       "the suite itself: exit 0 when the verdict is a regression, 1 when it passes, 2 when "
                       "nothing could run."),
                       epilog="examples (ctest):\n  hpart-scaling check --baseline baselines/ci --mode strong "
                       "--ranks 1,2,4 --size ci --rounds 1 \\\n      --machine-class ci --out ci-run "
                       "--deterministic-only\n  HPART_SCALING_INJECT=points.hilbert:messages hpart-scaling "
                       "check ... --expect-regression")
    p.add_argument("--baseline", required=True, metavar="BASELINE_DIR",
                   help="directory with the baseline's <mode>.jsonl")
    _add_run_options(p)
    p.add_argument("--report", metavar="FILE.md")
    p.add_argument("--deterministic-only", action="store_true", help="as for compare")
    p.add_argument("--expect-regression", action="store_true",
                   help="succeed only when the verdict is a regression (tests the suite)")
    p.add_argument("--expect-only", metavar="CASE/METHOD,...",
                   help="with --expect-regression: every regression found must be of these methods "
                        "(so the test proves the injected change was caught, not some other drift)")
    _add_rule_options(p)
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    from . import calibrate, check, compare, growth, plots, runner
    command = {"run": runner.main, "compare": compare.main, "calibrate": calibrate.main,
               "models": growth.main, "plot": plots.main, "check": check.main}[args.command]
    try:
        return command(args)
    except RunFileError as e:
        print(f"hpart-scaling {args.command}: {e}", file=sys.stderr)
        return 2
