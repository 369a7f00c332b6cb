"""The noise-aware time rule: is a method slower in the current run than in the baseline?

Why this shape. Wall times of one machine drift between runs (frequency, neighbours, page cache) by
more than the slowdowns worth catching, so a time is never compared raw: every round of the worker
measures the floor (a cheapest-possible pass over the same data) right before the cases, and

    x_i = times_s[i] / floor.times_s[i]          (same run, same round i)

cancels what the round shared with the floor. Rounds are not normally distributed (a round that met
a daemon is slow), so the rule works on medians of log x and takes its p-value from a permutation
test, which assumes only that rounds of one rank count are exchangeable between the two runs when
nothing changed.

Samples: launches where there are several. A run made with --passes K >= 2 (K launches of the
worker per rank count, interleaved in time) gives one sample per launch and rank count: the median
of that launch's rounds' log x. Launches, not rounds, are the unit of replication: each launch
lands differently (where its memory is, which ranks share a core when oversubscribed), and on the
2-core VM those differences (the spread of launch medians: 0.07-0.17 in log) exceed the
round-to-round noise within a launch (0.03-0.15). A test that permuted rounds would take a launch
effect for a regression; permuting launches sees their variance and controls false alarms from it.
With one launch per run the samples are rounds, and only min_effect guards against launch effects.

The rule, per (case, method), with P the rank counts both runs measured:

    d   = mean over P of [ median(log x_current(P)) - median(log x_baseline(P)) ]
    p   = one-sided p-value of d under a stratified permutation test: the baseline/current labels
          are permuted within each P (never across P), d recomputed; exact enumeration of all
          relabellings when there are at most EXACT_LIMIT of them, else N_PERM random ones with a
          fixed seed (p = (1 + #{d_perm >= d}) / (1 + N_PERM), so p >= 1/(1 + N_PERM)).
    regression when  p < alpha  AND  exp(d) > 1 + min_effect          (defaults 0.005, 0.10)

and, so that a slowdown confined to the largest P is not averaged away, per P:

    flag P when  exp(median diff at P) > per_p_effect (2)  AND  its own permutation p < alpha/len(P)

where the per-P p-value comes from the rank sum of the current run's rounds (Wilcoxon-Mann-Whitney,
exact permutation distribution when small): a difference of medians ties under many relabellings
(exchanging rounds away from the middle leaves both medians unchanged), which caps how small its p
can get at one P (20/3432 = 0.0058 for 7 rounds against 7, fully separated); the rank sum's only
extreme relabelling is full separation, so its smallest p is 1/C(2r, r).

The test controls false alarms from round-to-round noise; min_effect controls those from run-to-run
drift that the floor does not cancel (the permutation test cannot see that drift: it is shared by
all rounds of one run), and states the smallest slowdown the suite promises to see. Both are options:
measure the false-alarm rate and the power on the machine with `hpart-scaling calibrate` and tune.
Note the per-P test's floor: with r rounds in each run the smallest p it can reach is 1/C(2r, r)
(1/252 for 5 rounds, 1/924 for 6, 1/3432 for 7), so alpha/len(P) = 0.005/5 = 0.001 needs at least 6
rounds per run (`--rounds`, or `--passes` which appends rounds); with fewer, only the pooled rule
can fire, and the report says "per-P test cannot reach ..." .

Without floor records in one of the runs, the raw times of both are used, and the report says so.
"""
import functools
import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from .records import FLOOR, RunFileError, method_label

N_PERM = 4000
EXACT_LIMIT = 20000
SEED = 20240524


@dataclass
class RuleOptions:
    alpha: float = 0.005  # with 6 launches a side: docs/scaling.md, "Measured false-alarm rate and power"
    min_effect: float = 0.10
    per_p_effect: float = 2.0
    use_floor: bool = True  # normalise by the floor where both runs have one (else raw times)
    weighted: bool = True   # weight the rank counts by 1 / their spread (stratum_weights)
    n_perm: int = N_PERM
    seed: int = SEED


def options_from_args(args):
    """The rule's options from a command line with _add_rule_options (compare, check, calibrate)."""
    return RuleOptions(alpha=args.time_alpha, min_effect=args.min_effect, use_floor=not args.raw_times)


@dataclass
class PerP:
    ranks: int
    effect: float  # exp(median log x current - median log x baseline)
    p: float
    flagged: bool


@dataclass
class TimeVerdict:
    case: str
    method: str
    effect: float  # exp(d)
    p: float
    regression: bool
    reason: str
    per_p: list = field(default_factory=list)
    rounds: tuple = (0, 0)  # samples per P in the baseline and the current run (smallest over P)

    @property
    def label(self):
        return method_label(self.case, self.method)


def uses_floor(*runs, opts=None):
    """Normalise by the floor only when asked (opts.use_floor) and every run has one (else all raw,
    so they stay comparable)."""
    return (opts is None or opts.use_floor) and all(run.has_floor() for run in runs)


def _times(rec, path):
    t = rec.get("times_s")
    if t is None:
        t = [rec["time_s"]] if "time_s" in rec else []
    t = np.asarray(t, dtype=float)
    if t.size and not np.all(t > 0):
        raise RunFileError(f"{path}: {rec['case']}/{rec['method']} at P={rec['ranks']}: a time <= 0")
    return t


def passes_of(run):
    """The launches (passes) behind every record of a run: the fewest pass_rounds entries (1 for a
    run made with --passes 1 or by an older driver)."""
    return min((len(r.get("pass_rounds") or [0]) for r in run.records), default=1)


def _pass_medians(log_x, rec):
    """The median of log x over each pass's rounds (rec["pass_rounds"] says how many each had)."""
    bounds = np.cumsum(rec["pass_rounds"])[:-1]
    return np.array([np.median(part) for part in np.split(log_x, bounds)])


def log_samples(run, normalise, by_pass=False):
    """{(case, method): {P: log x}}, x = time / floor time of the same round (or raw time); with
    by_pass, one sample per pass (launch): the median of its rounds' log x."""
    out = {}
    for case, method in run.methods():
        per_p = {}
        for p, rec in run.series(case, method).items():
            t = _times(rec, run.path)
            if normalise:
                floor = run.index.get((*FLOOR, p))
                if floor is None:
                    raise RunFileError(f"{run.path}: no floor record at P={p}")
                f = _times(floor, run.path)
                if f.size != t.size:
                    raise RunFileError(f"{run.path}: {case}/{method} at P={p} has {t.size} rounds, "
                                       f"the floor {f.size}: rounds cannot be paired")
                t = t / f
            if t.size:
                per_p[p] = _pass_medians(np.log(t), rec) if by_pass else np.log(t)
        out[(case, method)] = per_p
    return out


@functools.lru_cache(maxsize=64)
def _all_relabellings(n, k):
    """Every way to call k of n pooled samples "current": rows of indices, current ones first."""
    rows = []
    for idx in itertools.combinations(range(n), k):
        rest = sorted(set(range(n)) - set(idx))
        rows.append(list(idx) + rest)
    return np.array(rows, dtype=np.intp)


def _pool(base, cur, statistic):
    """The pooled samples, current first; as ranks for the rank-sum statistic (float times have no
    ties to speak of)."""
    pool = np.concatenate([cur, base])
    return pool.argsort().argsort().astype(float) if statistic == "ranks" else pool


def _statistic(shuffled, k, statistic):
    """Per row of relabelled pools (the first k columns called current): the test statistic."""
    cur_part, base_part = shuffled[:, :k], shuffled[:, k:]
    if statistic == "ranks":
        return cur_part.sum(axis=1)
    return np.median(cur_part, axis=1) - np.median(base_part, axis=1)


@functools.lru_cache(maxsize=64)
def _random_relabellings(n, n_perm, seed, stratum):
    """n_perm random permutations of n pooled samples, the same for every call with these arguments
    (the seed is fixed, so they are computed once: calibrate judges thousands of pairs)."""
    rng = np.random.default_rng([seed, stratum])
    return np.argsort(rng.random((n_perm, n)), axis=1)


def _relabelled(base, cur, stratum, n_perm, seed, exact, statistic):
    """The statistic under every relabelling (exact) or n_perm random ones."""
    pool = _pool(base, cur, statistic)
    n = pool.size
    perm = _all_relabellings(n, cur.size) if exact else _random_relabellings(n, n_perm, seed, stratum)
    return _statistic(pool[perm], cur.size, statistic)


MIN_SPREAD = 0.03  # in log: no stratum is trusted to be quieter than 3% (its weight stays finite)


def stratum_weights(strata):
    """1 / spread^2 per stratum, normalised to sum 1: the spread is the root mean square of each
    sample's distance to its own run's median (so a real slowdown, which moves a whole run, does not
    count as spread), at least MIN_SPREAD. Oversubscribed rank counts and launches that met a
    competing job are noisy; weighting by the inverse variance keeps them from drowning the quiet
    ones (the minimum-variance combination of the strata's differences)."""
    spreads = []
    for b, c in strata:
        dev = np.concatenate([b - np.median(b), c - np.median(c)])
        spreads.append(max(MIN_SPREAD, float(np.sqrt(np.mean(dev ** 2)))))
    w = 1.0 / np.square(spreads)
    return w / w.sum()


def stratified_test(strata, n_perm=N_PERM, seed=SEED, statistic="median", weights=None):
    """(d, one-sided p) for strata = [(baseline log x, current log x), ...] (see the module doc).

    d is the weighted mean over strata (weights: stratum_weights, or equal) of the difference of
    medians. The p-value's statistic, the same weighted sum over strata, is that difference
    ("median") or the current run's rank sum ("ranks"); the weights stay fixed under relabelling."""
    w = np.full(len(strata), 1.0 / len(strata)) if weights is None else np.asarray(weights, dtype=float)
    d = float(np.dot(w, [np.median(c) - np.median(b) for b, c in strata]))
    observed = sum(wi * float(_statistic(_pool(b, c, statistic)[None, :], c.size, statistic)[0])
                   for wi, (b, c) in zip(w, strata))
    total = math.prod(math.comb(b.size + c.size, c.size) for b, c in strata)
    exact = total <= EXACT_LIMIT
    per_stratum = [wi * _relabelled(b, c, i, n_perm, seed, exact, statistic)
                   for i, (wi, (b, c)) in enumerate(zip(w, strata))]
    if exact:  # every combination of the strata's relabellings: an outer sum
        null = per_stratum[0]
        for values in per_stratum[1:]:
            null = np.add.outer(null, values).ravel()
    else:
        null = np.sum(per_stratum, axis=0)
    hits = int(np.count_nonzero(null >= observed - 1e-12 * max(1.0, abs(observed))))
    p = hits / null.size if exact else (1 + hits) / (1 + n_perm)
    return d, p


def judge_method(case, method, base_by_p, cur_by_p, opts, shift=0.0):
    """The verdict of one method; `shift` is added to the current log x (calibrate's slowdowns)."""
    ranks = sorted(p for p in set(base_by_p) & set(cur_by_p)
                   if base_by_p[p].size >= 2 and cur_by_p[p].size >= 2)
    if not ranks:
        return TimeVerdict(case, method, math.nan, math.nan, False, "too few rounds to test")
    strata = [(base_by_p[p], cur_by_p[p] + shift) for p in ranks]
    d, p = stratified_test(strata, opts.n_perm, opts.seed, weights=stratum_weights(strata) if opts.weighted else None)
    per_p = []
    for rank, stratum in zip(ranks, strata):
        dp, pp = stratified_test([stratum], opts.n_perm, opts.seed, statistic="ranks")
        flagged = math.exp(dp) > opts.per_p_effect and pp < opts.alpha / len(ranks)
        per_p.append(PerP(rank, math.exp(dp), pp, flagged))
    reasons = []
    if p < opts.alpha and math.exp(d) > 1 + opts.min_effect:
        reasons.append(f"{100 * (math.exp(d) - 1):.0f}% slower over all P (p={p:.2g})")
    for q in per_p:
        if q.flagged:
            reasons.append(f"{q.effect:.2f}x slower at P={q.ranks} (p={q.p:.2g})")
    rounds = (min(base_by_p[r].size for r in ranks), min(cur_by_p[r].size for r in ranks))
    return TimeVerdict(case, method, math.exp(d), p, bool(reasons), "; ".join(reasons) or "ok",
                       per_p, rounds)


def per_p_floor(verdict):
    """The smallest p the per-P test can reach with this verdict's rounds: 1/C(rb + rc, rc)."""
    rb, rc = verdict.rounds
    return 1.0 / math.comb(rb + rc, rc) if rb and rc else 1.0


def by_passes(*runs):
    """Whether the samples are launches: when every run has at least 2 passes (see the module doc)."""
    return all(passes_of(run) >= 2 for run in runs)


def judge_runs(base, cur, opts, base_samples=None, cur_samples=None, shifts=None):
    """[TimeVerdict] of every method both runs measured. Samples may be passed in precomputed."""
    normalise = uses_floor(base, cur, opts=opts)
    launches = by_passes(base, cur)
    base_samples = base_samples or log_samples(base, normalise, launches)
    cur_samples = cur_samples or log_samples(cur, normalise, launches)
    shifts = shifts or {}
    return [judge_method(c, m, base_samples[(c, m)], cur_samples[(c, m)], opts, shifts.get((c, m), 0.0))
            for (c, m) in base_samples if (c, m) in cur_samples]
