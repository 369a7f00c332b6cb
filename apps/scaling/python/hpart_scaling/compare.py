"""`compare`: the verdict of a current run against a stored baseline.

Exit status: 0 no regression, 1 regression (the report names each figure), 2 could not compare
(missing or malformed file, or runs of different mode, size, rank counts or threads). Deterministic
figures are checked first and always (deterministic.py); memory (memory.py) and times (time_rule.py)
are skipped under --deterministic-only, which is what CI uses: its machines are too shared for times.
"""
import math
from dataclasses import dataclass, field

from . import deterministic, memory, report
from .records import FLOOR, check_comparable, load_run, method_label
from .time_rule import RuleOptions, by_passes, judge_runs, options_from_args, passes_of, per_p_floor, uses_floor


@dataclass
class Comparison:
    base: object
    cur: object
    failures: list = field(default_factory=list)  # one line per regression, naming the figure
    notes: list = field(default_factory=list)
    rows: dict = field(default_factory=dict)  # (case, method) -> [table rows]
    times: dict = field(default_factory=dict)  # (case, method) -> TimeVerdict

    @property
    def regression(self):
        return bool(self.failures)


def _ratio(b, c):
    if isinstance(b, (int, float)) and isinstance(c, (int, float)) and not isinstance(b, bool) and b:
        return c / b
    return None


def _deterministic_rows(cmp, case, method):
    """Rows of one method's deterministic figures: one per figure when every P agrees, else one per
    differing P. Records of the baseline missing from the current run are failures."""
    label = method_label(case, method)
    base_series = cmp.base.series(case, method)
    cur_series = cmp.cur.series(case, method)
    rows, diffs = [], {}
    for p in sorted(base_series):
        if p not in cur_series:
            cmp.failures.append(f"{label} P={p}: record missing in the current run")
            rows.append(("record", p, "present", "missing", None, "**REGRESSION**"))
            continue
        for figure, b, c, how in deterministic.differences(base_series[p], cur_series[p]):
            diffs.setdefault(figure, []).append((p, b, c, how))
    for p in sorted(set(cur_series) - set(base_series)):
        cmp.notes.append(f"{label} P={p}: new record (not in the baseline)")
    present = [f for f in deterministic.EXACT + deterministic.TOLERANT
               if any(f in r for r in base_series.values())]
    shared = sorted(set(base_series) & set(cur_series))
    for figure in present:
        if figure in diffs:
            for p, b, c, how in diffs[figure]:
                shown = "missing" if c is None else c
                cmp.failures.append(f"{label} P={p}: {figure} {report.fmt(b)} -> {report.fmt(shown)} ({how})")
                rows.append((figure, p, b, shown, _ratio(b, c), f"**REGRESSION** ({how})"))
        elif shared:
            p = shared[-1]
            rows.append((figure, f"all {len(shared)}", base_series[p].get(figure),
                         cur_series[p].get(figure), None, f"identical (shown at P={p})"))
    return rows


def _memory_rows(cmp, case, method):
    label = method_label(case, method)
    base_series, cur_series = cmp.base.series(case, method), cmp.cur.series(case, method)
    rows = []
    for figure in memory.FIGURES:
        worst = None
        for p in sorted(set(base_series) & set(cur_series)):
            b, c = base_series[p].get(figure), cur_series[p].get(figure)
            if b is None or c is None:
                continue
            over = c - memory.limit(b)
            if worst is None or over > worst[0]:
                worst = (over, p, b, c)
        if worst is None:
            continue
        over, p, b, c = worst
        if over > 0:
            cmp.failures.append(f"{label} P={p}: {figure} {b:.1f} -> {c:.1f} MiB ({memory.RULE})")
        rows.append((figure, f"{p} (worst)", b, c, _ratio(b, c),
                     "**REGRESSION**" if over > 0 else "ok"))
    return rows


def _time_rows(cmp, verdict):
    base_series = cmp.base.series(verdict.case, verdict.method)
    cur_series = cmp.cur.series(verdict.case, verdict.method)
    if math.isnan(verdict.effect):
        return [("time", "all", None, None, None, verdict.reason)]
    if verdict.regression:
        cmp.failures.append(f"{verdict.label}: time {verdict.reason}")
    rows = [("time (normalised)", "all", None, None, verdict.effect,
             ("**REGRESSION**: " if verdict.regression else "ok: ") + f"p={verdict.p:.2g}")]
    for q in verdict.per_p:
        rows.append(("time_s", q.ranks, base_series[q.ranks].get("time_s"), cur_series[q.ranks].get("time_s"),
                     q.effect, ("**REGRESSION**" if q.flagged else "ok") + f" p={q.p:.2g}"))
    return rows


def compare_runs(base, cur, deterministic_only=False, opts=None):
    check_comparable(base, cur)
    cmp = Comparison(base, cur)
    methods = base.methods() + [m for m in cur.methods() if m not in base.methods()]
    if base.has_floor():
        methods.append(FLOOR)
    for case, method in methods:
        if (case, method) not in base.methods() and (case, method) != FLOOR:
            cmp.notes.append(f"{method_label(case, method)}: only in the current run")
            continue
        cmp.rows[(case, method)] = _deterministic_rows(cmp, case, method)
    if not deterministic_only:
        for case, method in cmp.rows:
            cmp.rows[(case, method)] += _memory_rows(cmp, case, method)
        opts = opts or RuleOptions()
        if not uses_floor(base, cur, opts=opts):
            cmp.notes.append("times compared raw, not over the floor (--raw-times, or no floor records in one of the runs)")
        if by_passes(base, cur):
            cmp.notes.append(f"time samples: one per launch ({passes_of(base)} and {passes_of(cur)} passes)")
        else:
            cmp.notes.append("time samples: rounds (a run with --passes 1 has one launch per rank count: "
                             "launch-to-launch drift is guarded by min_effect alone; use --passes 3)")
        for verdict in judge_runs(base, cur, opts):
            cmp.times[(verdict.case, verdict.method)] = verdict
            cmp.rows[(verdict.case, verdict.method)] += _time_rows(cmp, verdict)
        unreachable = [v for v in cmp.times.values() if v.per_p and per_p_floor(v) >= opts.alpha / len(v.per_p)]
        if unreachable:
            v = unreachable[0]
            cmp.notes.append(f"per-P test cannot reach p < alpha/len(P) = {opts.alpha / len(v.per_p):.2g} with "
                             f"{v.rounds[0]} and {v.rounds[1]} rounds (smallest p {per_p_floor(v):.2g}): "
                             "only the pooled rule can fire; use more --rounds or --passes")
    if base.meta.get("rounds") != cur.meta.get("rounds"):
        cmp.notes.append(f"rounds per pass differ ({base.meta.get('rounds')} vs {cur.meta.get('rounds')}): "
                         "a deterministic difference may come from the rounds, not the code")
    if base.meta.get("machine_class") != cur.meta.get("machine_class"):
        cmp.notes.append(f"machine classes differ ({base.meta.get('machine_class')} vs "
                         f"{cur.meta.get('machine_class')}): times and memory are not comparable")
    return cmp


def summary(cmp, deterministic_only):
    n_methods, n_ranks = len(cmp.base.methods()), len(cmp.base.ranks())
    what = "deterministic figures" if deterministic_only else "deterministic figures, memory and times"
    if not cmp.regression:
        line = f"PASS: {n_methods} methods x {n_ranks} rank counts; {what} within the rules"
        if cmp.times:
            worst = max(cmp.times.values(), key=lambda v: -1 if math.isnan(v.effect) else v.effect)
            if not math.isnan(worst.effect):
                line += f" (slowest change: {worst.label} x{worst.effect:.3f}, p={worst.p:.2g})"
        return line
    return f"REGRESSION ({len(cmp.failures)}):\n" + "\n".join("  " + f for f in cmp.failures)


def markdown(cmp, deterministic_only, opts):
    meta_rows = [(k, report.fmt(cmp.base.meta.get(k)), report.fmt(cmp.cur.meta.get(k)))
                 for k in ("machine_class", "host", "commit", "date", "mode", "size", "ranks",
                           "rounds", "passes", "threads", "compiler", "mpi", "inject")]
    parts = ["# Scaling comparison", "",
             ("**PASS**" if not cmp.regression else f"**REGRESSION** ({len(cmp.failures)})"), ""]
    parts += [f"- {f}" for f in cmp.failures]
    parts += ["", report.table(["", "baseline", "current"], meta_rows), "", "## Rules", "",
              f"- Deterministic, exactly: {', '.join(deterministic.EXACT)}; within relative "
              f"{deterministic.REL_TOL:g}: {', '.join(deterministic.TOLERANT)}. A baseline record "
              "missing from the current run is a regression."]
    if deterministic_only:
        parts.append("- Memory and times: not compared (--deterministic-only).")
    else:
        parts += [f"- Memory ({', '.join(memory.FIGURES)}): regression when {memory.RULE}.",
                  f"- Times: x = time / floor time of the same round; d = mean over P of the difference "
                  f"of medians of log x; stratified permutation test; regression when p < {opts.alpha:g} "
                  f"and exp(d) > {1 + opts.min_effect:g}, or at one P when the effect > "
                  f"{opts.per_p_effect:g}x and p < alpha/len(P). Ratios in the time rows are normalised "
                  "effects, not ratios of the time_s columns."]
    if cmp.notes:
        parts += ["", "## Notes", ""] + [f"- {n}" for n in cmp.notes]
    for (case, method), rows in cmp.rows.items():
        parts += ["", f"## {method_label(case, method)}", "",
                  report.table(["figure", "P", "baseline", "current", "ratio", "verdict"], rows)]
    return "\n".join(parts)


def main(args):
    base, cur = load_run(args.baseline), load_run(args.current)
    opts = options_from_args(args)
    cmp = compare_runs(base, cur, args.deterministic_only, opts)
    report.write(args.report, markdown(cmp, args.deterministic_only, opts))
    print(summary(cmp, args.deterministic_only))
    for note in cmp.notes:
        print("note:", note)
    return 1 if cmp.regression else 0
