"""`check`: run, then compare against a stored baseline, in one command (what ctest calls).

The baseline is a directory holding <mode>.jsonl (e.g. baselines/ci/strong.jsonl). Exit status is
compare's: 0 pass, 1 regression (including passes that disagree), 2 could not run or compare. With
--expect-regression the test is of the suite itself (an injected regression must turn it red):
exit 0 when the verdict is a regression, 1 when it wrongly passes, 2 still when nothing could run,
so a broken worker never counts as a caught regression.
"""
import os
import sys

from . import compare, report, runner
from .records import load_run
from .time_rule import options_from_args


def main(args):
    ran = runner.main(args)
    if ran == 2:
        return 2
    modes = ["strong", "weak"] if args.mode == "both" else [args.mode]
    opts = options_from_args(args)
    verdict = ran  # 1 when the passes disagreed: not deterministic is a regression too
    texts, failures = [], []
    for mode in modes:
        base = load_run(os.path.join(args.baseline, f"{mode}.jsonl"))
        cur = load_run(os.path.join(args.out, f"{mode}.jsonl"))
        cmp = compare.compare_runs(base, cur, args.deterministic_only, opts)
        print(f"{mode}: " + compare.summary(cmp, args.deterministic_only))
        texts.append(compare.markdown(cmp, args.deterministic_only, opts))
        verdict = max(verdict, 1 if cmp.regression else 0)
        failures += cmp.failures
    report.write(args.report, "\n\n".join(texts))
    if not args.expect_regression:
        return verdict
    expected = [m for m in (args.expect_only or "").split(",") if m]
    others = [f for f in failures if expected and not any(f.startswith(m + " ") for m in expected)]
    if others:
        print("expected regressions of " + ", ".join(expected) + " only, but also:\n  " + "\n  ".join(others),
              file=sys.stderr)
        return 1
    if verdict == 1 and (not expected or failures):
        print("expected a regression: caught")
        return 0
    print("expected a regression, but the verdict is PASS: the suite missed it", file=sys.stderr)
    return 1
