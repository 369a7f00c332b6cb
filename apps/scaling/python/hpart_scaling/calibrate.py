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

from . import deterministic, report
from .records import RunFileError, check_comparable, load_run, method_label
from .time_rule import RuleOptions, judge_method, log_samples, uses_floor


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


def injected_rows(clean, clean_samples, injected, normalise, opts):
    rows = []
    for run in injected:
        cur = log_samples(run, normalise)
        targets = parse_inject(run.meta.get("inject"))
        target_methods = {m for m, _ in targets}
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


def calibrate(paths, slowdowns, opts):
    runs = [load_run(p) for p in paths]
    for run in runs[1:]:
        check_comparable(runs[0], run)
    clean = [r for r in runs if not r.meta.get("inject")]
    injected = [r for r in runs if r.meta.get("inject")]
    if len(clean) < 2:
        raise RunFileError("calibrate needs at least two runs without injection (meta.inject null)")
    normalise = uses_floor(*runs)
    samples = [log_samples(r, normalise) for r in clean]
    pairs = len(clean) * (len(clean) - 1)
    columns = [("false alarms", 1.0)] + [(f"{s:g}x" if s >= 2 else f"+{round(100 * (s - 1))}%", s)
                                         for s in slowdowns]
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
                              injected_rows(clean, samples, injected, normalise, opts))]
    return "\n".join(text)


def main(args):
    slowdowns = [float(s) for s in args.slowdowns.split(",") if s]
    text = calibrate(args.runs, slowdowns, RuleOptions(alpha=args.time_alpha, min_effect=args.min_effect))
    report.write(args.report, text)
    print(text)
    return 0
