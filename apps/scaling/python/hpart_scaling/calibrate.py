"""`calibrate`: how often the time rule cries wolf on this machine, and how often it catches a wolf.

From K >= 2 runs of one commit (no injection), for every ordered pair (i, j), i != j, the rule judges
run j against run i: the fraction of pairs that flag a method is its false-alarm rate. Power: the
same pairs with run j's times of that method (not the floor's) multiplied by s; since the rule works
on log(time / floor time), that is adding log s to run j's samples. Runs made with a real injection
(meta.inject set, e.g. "graph.kway:slow:1.25") are judged against every clean run; the report says how
often the injected method was caught by the time rule and by the deterministic figures, and how often
another method was flagged (a false alarm caused by the injection).

With K runs there are K(K-1) pairs, which are not independent: K = 5 gives 20 pairs, so a rate is
known to a few tens of percent; take K >= 8 before trusting a false-alarm rate of a few percent.
"""
import math

import numpy as np

from . import deterministic, report
from .records import RunFileError, check_comparable, load_run, method_label
from .time_rule import by_passes, judge_method, log_samples, options_from_args, passes_of, uses_floor


def parse_inject(text):
    """[((case, method), kind)] of an HPART_SCALING_INJECT value "case.method:kind[:factor],..."."""
    out = []
    for item in (text or "").split(","):
        target, _, kind = item.strip().partition(":")
        case, _, method = target.partition(".")
        if case and method:
            out.append(((case, method), kind.split(":")[0] or "?"))
    return out


def flagged_pairs(runs, samples, opts, slowdown=1.0):
    """{(case, method): number of ordered pairs flagged} with run j's method times times `slowdown`."""
    counts = {m: 0 for m in runs[0].methods()}
    shift = math.log(slowdown)
    for i, _ in enumerate(runs):
        for j, _ in enumerate(runs):
            if i == j:
                continue
            for m in counts:
                if m in samples[i] and m in samples[j]:
                    counts[m] += judge_method(*m, samples[i][m], samples[j][m], opts, shift).regression
    return counts


def injected_rows(clean, clean_samples, injected, normalise, opts, launches=False):
    rows = []
    for run in injected:
        cur = log_samples(run, normalise, launches)
        targets = parse_inject(run.meta.get("inject"))
        target_methods = {m for m, _ in targets} or set(cur)  # "*:...": every method
        caught_time = caught_det = others = 0
        for base, base_samples in zip(clean, clean_samples):
            verdicts = {m: judge_method(*m, base_samples[m], cur[m], opts) for m in base_samples if m in cur}
            caught_time += any(verdicts[m].regression for m in target_methods if m in verdicts)
            caught_det += any(deterministic.differences(base.index[k], run.index[k])
                              for k in base.index if (k[0], k[1]) in target_methods and k in run.index)
            others += any(v.regression for m, v in verdicts.items() if m not in target_methods)
        n = len(clean)
        rows.append((run.meta.get("inject"), n, f"{caught_time}/{n}", f"{caught_det}/{n}", f"{others}/{n}"))
    return rows


SPLIT_SEED = 20261207


def _columns(slowdowns):
    return [("false alarms", 1.0)] + [(f"{s:g}x" if s >= 2 else f"+{round(100 * (s - 1))}%", s)
                                      for s in slowdowns]


def _subset(samples, chosen):
    """The samples of the passes `chosen` (indices), for every method and P."""
    return {m: {p: v[chosen] for p, v in per_p.items()} for m, per_p in samples.items()}


def self_comparison(run, k, draws, slowdowns, opts):
    """The baseline against itself: `draws` ordered pairs of disjoint k-pass subsets of one run of
    >= 2k passes (launch samples, as two runs of --passes k would give), judged by the rule."""
    n = passes_of(run)
    if n < 2 * k:
        raise RunFileError(f"{run.path}: --split {k} needs a run of at least {2 * k} passes (it has {n})")
    pool = log_samples(run, uses_floor(run, opts=opts), by_pass=True)
    rng = np.random.default_rng(SPLIT_SEED)
    columns = _columns(slowdowns)
    counts = {name: {m: 0 for m in run.methods()} for name, _ in columns}
    for _ in range(draws):
        order = rng.permutation(n)
        base, cur = _subset(pool, order[:k]), _subset(pool, order[k:2 * k])
        for name, s in columns:
            for m in counts[name]:
                counts[name][m] += judge_method(*m, base[m], cur[m], opts, math.log(s)).regression
    rows = [[method_label(*m)] + [f"{counts[name][m] / draws:.1%} ({counts[name][m]}/{draws})" for name, _ in columns]
            for m in run.methods()]
    return pool, [f"{run.path}: {n} passes; {draws} ordered pairs of disjoint {k}-pass subsets (seed {SPLIT_SEED}), "
                  f"alpha {opts.alpha:g}, min effect {opts.min_effect:g}.", "",
                  report.table(["method"] + [name for name, _ in columns], rows)]


def injected_against_pool(pool, run, draws, opts):
    """A run with a real injection against `draws` random subsets of the pool's passes (as many as the
    run has): how often the injected method was caught, and how often another was flagged."""
    k = passes_of(run)
    cur = log_samples(run, uses_floor(run, opts=opts), by_pass=True)
    n = len(next(iter(next(iter(pool.values())).values())))
    targets = {m for m, _ in parse_inject(run.meta.get("inject"))} or set(cur)  # "*": every method
    rng = np.random.default_rng(SPLIT_SEED + 1)
    caught = {m: 0 for m in cur if m in pool}
    others = 0
    for _ in range(draws):
        base = _subset(pool, rng.permutation(n)[:k])
        verdicts = {m: judge_method(*m, base[m], cur[m], opts) for m in caught}
        for m in caught:
            caught[m] += verdicts[m].regression
        others += any(v.regression for m, v in verdicts.items() if m not in targets)
    rows = [[method_label(*m), f"{caught[m] / draws:.1%} ({caught[m]}/{draws})"] for m in caught if m in targets]
    return [f"{run.path} ({run.meta.get('inject')}, {k} passes) against {draws} random {k}-pass subsets of the pool; "
            f"another method flagged in {others}/{draws}.", "", report.table(["method", "caught by the time rule"], rows)]


def calibrate_split(paths, k, draws, slowdowns, opts):
    runs = [load_run(p) for p in paths]
    for run in runs[1:]:
        check_comparable(runs[0], run)
    clean = [r for r in runs if not r.meta.get("inject")]
    injected = [r for r in runs if r.meta.get("inject")]
    if len(clean) != 1:
        raise RunFileError("calibrate --split takes one clean run of many passes (and any injected runs)")
    pool, text = self_comparison(clean[0], k, draws, slowdowns, opts)
    text = ["# Time-rule calibration: the baseline against itself", ""] + text
    for run in injected:
        text += ["", "## A run with a real injection", ""] + injected_against_pool(pool, run, draws, opts)
    return "\n".join(text)


def calibrate(paths, slowdowns, opts):
    runs = [load_run(p) for p in paths]
    for run in runs[1:]:
        check_comparable(runs[0], run)
    clean = [r for r in runs if not r.meta.get("inject")]
    injected = [r for r in runs if r.meta.get("inject")]
    if len(clean) < 2:
        raise RunFileError("calibrate needs at least two runs without injection (meta.inject null)")
    normalise = uses_floor(*runs, opts=opts)
    launches = by_passes(*runs)
    samples = [log_samples(r, normalise, launches) for r in clean]
    pairs = len(clean) * (len(clean) - 1)
    columns = _columns(slowdowns)
    counts = {name: flagged_pairs(clean, samples, opts, s) for name, s in columns}
    rows = [[method_label(*m)] + [f"{counts[name][m] / pairs:.0%} ({counts[name][m]}/{pairs})"
                                  for name, _ in columns]
            for m in clean[0].methods()]
    text = ["# Time-rule calibration", "",
            f"{len(clean)} clean runs ({pairs} ordered pairs), machine class "
            f"{clean[0].meta.get('machine_class')}, commit {clean[0].meta.get('commit')}; alpha "
            f"{opts.alpha:g}, min effect {opts.min_effect:g}; times "
            + ("normalised by the floor" if normalise else "raw (no floor records)") + ".", "",
            report.table(["method"] + [name for name, _ in columns], rows)]
    if injected:
        text += ["", "## Runs with a real injection", "",
                 report.table(["inject", "pairs", "caught by time rule", "caught by deterministic figures",
                               "another method flagged"],
                              injected_rows(clean, samples, injected, normalise, opts, launches))]
    return "\n".join(text)


def main(args):
    slowdowns = [float(s) for s in args.slowdowns.split(",") if s]
    opts = options_from_args(args)
    if args.split:
        text = calibrate_split(args.runs, args.split, args.draws, slowdowns, opts)
    else:
        text = calibrate(args.runs, slowdowns, opts)
    report.write(args.report, text)
    print(text)
    return 0
