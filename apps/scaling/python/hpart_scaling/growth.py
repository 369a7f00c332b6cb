"""`models`: how each per-rank figure grows with the rank count P, extrapolated to 10^4 and 10^5 ranks.

For each (mode, case, method) and figure y, y(P) is fitted over the measured P by non-negative least
squares (a per-rank count or size cannot have a negative component) on the basis

    1,  log2 P,  P,  N/P          (N = the record's global n; weak mode: N/P is constant, dropped)

P = 1 is left out of the communication figures (a single rank sends nothing). Parsimony: the model
is the smallest subset of terms whose relative RMS residual is within a tolerance of the full
basis's; among subsets of that size, the one that grows slowest (one without a P term before one
with it, then one without log2 P before one with it), then the best fit: growth is claimed only
where the data need it (over P >= 2, 1 and log2 P are near neighbours, and noise alone would pick
either). The tolerance is 0.05 (5 percentage points) for memory, which is noisy, but 0.001 for the
communication figures, which are exact counts: there a small P term is not noise but an Allgather
of per-rank data, and it is the term that decides 10^5 ranks. (Example: bytes = 1000 log2 P + 8 P
fits log2 P alone to 0.6% over P <= 16, yet at 10^5 the 8 P is 98% of it; a 5% tolerance would
have called it ready.)

Verdicts: "O(P) term" when that term is over half the value at 10^5; memory that grows with P at all
(a log2 P or P term in its model) is flagged, unless it stays under 1 MiB at every measured P; a fit
whose relative RMS exceeds 10% is "poor fit" (no basis law describes the data: do not extrapolate).
A log P term in communication is what a tree or a recursive-doubling collective costs and is fine.

Honest limits: five rank counts (four for communication) and up to four terms leave one degree of
freedom or none, so the fit can tell O(1) from O(log P) from O(P) only when the growth is clean; a
model that would need P log P or sqrt(P) (e.g. a 3D halo over N/P) is approximated by its neighbours.
Counts bounded by geometry grow until they saturate: a rank of a 2D (3D) decomposition has at most
8 (26) halo neighbours, reached only from P around 9 (27) on, so over P <= 16 they can read as O(P).
Peak memory per rank includes the MPI library's, which on one node grows with P (per-peer
shared-memory queues): rss_growth_mb, the growth during the call, is hpart's own. Measure more rank
counts (a cluster, up to 64 or 256) before betting a 10^5-rank allocation on a model.
"""
import sys
import itertools
import math

import numpy as np
from scipy.optimize import nnls

from . import report
from .records import load_run, method_label

COMMUNICATION = ("bytes_max", "messages_max", "collectives_max")
MEMORY = ("peak_rss_mean_mb", "rss_growth_mb")
FIGURES = COMMUNICATION + MEMORY
TERMS = {"1": lambda p, n: np.ones_like(p), "log2P": lambda p, n: np.log2(p),
         "P": lambda p, n: p, "N/P": lambda p, n: n / p}
PARSIMONY = {"communication": 0.001, "memory": 0.05}
TARGETS = (1e4, 1e5)
POOR_FIT = 0.10
NEGLIGIBLE_MB = 1.0


def fit_terms(ranks, values, terms, n):
    """(coefficients, relative RMS residual) of a non-negative fit of values on the given terms."""
    p = np.asarray(ranks, dtype=float)
    y = np.asarray(values, dtype=float)
    columns = np.column_stack([TERMS[t](p, n) for t in terms])
    scale = np.max(np.abs(columns), axis=0)
    scale[scale == 0] = 1.0
    coef, _ = nnls(columns / scale, y)
    coef = coef / scale
    norm = math.sqrt(float(np.mean(y ** 2))) or 1.0
    rel = math.sqrt(float(np.mean((columns @ coef - y) ** 2))) / norm
    return dict(zip(terms, coef)), rel


def _growth(model):
    """How fast a model grows with P: 2 with a P term, 1 with log2 P, else 0."""
    return 2 if model.get("P", 0) > 0 else 1 if model.get("log2P", 0) > 0 else 0


def choose_model(ranks, values, n, weak, tolerance=PARSIMONY["communication"]):
    """The parsimonious model {term: coefficient} and its relative RMS (see the module doc)."""
    basis = [t for t in TERMS if not (weak and t == "N/P")]
    if not np.any(np.asarray(values, dtype=float)):
        return {}, 0.0
    _, full = fit_terms(ranks, values, basis, n)
    for size in range(1, len(basis) + 1):
        fits = [fit_terms(ranks, values, list(s), n) for s in itertools.combinations(basis, size)]
        adequate = [(_growth(coef), rel, coef) for coef, rel in fits if rel <= full + tolerance]
        if adequate:
            _, rel, coef = min(adequate, key=lambda f: f[:2])
            return {t: c for t, c in coef.items() if c > 0}, rel
    raise AssertionError("the full basis is always within its own tolerance")


def evaluate(model, p, n):
    return sum(c * float(TERMS[t](np.float64(p), n)) for t, c in model.items())


def describe(figure, model):
    if not model:
        return f"{figure} ≈ 0"
    parts = [f"{c:.3g}" if t == "1" else f"{c:.3g}·{t}" for t, c in model.items()]
    return f"{figure} ≈ " + " + ".join(parts)


def verdict(figure, model, n, rel=0.0, largest=None):
    """"ready for 1e5", or what stands in the way: an O(P) term over half the value at 1e5, memory
    that grows with P, or a fit too poor (relative RMS > POOR_FIT) to extrapolate from. Memory
    under NEGLIGIBLE_MB at every measured P is not judged (allocator noise, not a trend)."""
    at = TARGETS[-1]
    value = evaluate(model, at, n)
    if figure in MEMORY and largest is not None and largest < NEGLIGIBLE_MB:
        return f"ready for 1e5 (under {NEGLIGIBLE_MB:g} MiB)"
    flags = []
    if figure in MEMORY:
        growing = [t for t in ("log2P", "P") if t in model]
        if growing:
            extra = sum(evaluate({t: model[t]}, at, n) for t in growing)
            flags.append(f"memory grows with {' and '.join(growing)}: +{extra:.3g} MiB per rank at 1e5")
    elif "P" in model and value > 0:
        share = evaluate({"P": model["P"]}, at, n) / value
        if share > 0.5:
            flags.append(f"O(P) term: {model['P']:.3g}·P is {share:.0%} at 1e5")
    if rel > POOR_FIT:
        flags.append(f"poor fit (rms {rel:.0%}): measure more rank counts")
    return "; ".join(flags) or "ready for 1e5"


def models_of(run, figures=FIGURES):
    """[(case, method, figure, model, rel, measured at max P, at 1e4, at 1e5, verdict)] of a run."""
    weak = run.mode == "weak"
    rows = []
    for case, method in run.methods():
        series = run.series(case, method)
        for figure in figures:
            points = [(p, r[figure]) for p, r in sorted(series.items())
                      if figure in r and not (figure in COMMUNICATION and p == 1)]
            if len(points) < 2:
                continue
            n = float(series[points[-1][0]].get("n", 0))
            ranks, values = zip(*points)
            tolerance = PARSIMONY["memory" if figure in MEMORY else "communication"]
            model, rel = choose_model(ranks, values, n, weak, tolerance)
            rows.append((case, method, figure, model, rel, points[-1], evaluate(model, 1e4, n),
                         evaluate(model, 1e5, n), verdict(figure, model, n, rel, max(values))))
    return rows


def markdown(run, rows):
    p_max = run.ranks()[-1]
    body = [(method_label(c, m), f, describe(f, model), f"{rel:.1%}", last[1], v4, v5, v)
            for c, m, f, model, rel, last, v4, v5, v in rows]
    flagged = sorted({method_label(c, m) for c, m, *_, v in rows if not v.startswith("ready for 1e5")})
    ready = [method_label(c, m) for c, m in run.methods() if method_label(c, m) not in flagged]
    return "\n".join([
        f"# Growth models ({run.mode} scaling, {run.meta.get('machine_class')}, commit {run.meta.get('commit')})",
        "", f"Measured P: {run.ranks()}. Basis 1, log2 P, P" + ("" if run.mode == "weak" else ", N/P")
        + "; non-negative least squares; the smallest subset within a relative RMS of "
        f"{PARSIMONY['communication']:g} (communication, exact counts) or {PARSIMONY['memory']:g} (memory) "
        "of the full fit. Values per rank (bytes, messages and collectives per call, MiB).", "",
        report.table(["method", "figure", "model", "fit rms", f"at {p_max}", "at 1e4", "at 1e5", "verdict"], body),
        "", f"Ready for 1e5 ranks: {', '.join(ready) or 'none'}.",
        f"Flagged: {', '.join(flagged) or 'none'}.", "",
        "Limits: " + " ".join(__doc__.split("Honest limits: ")[1].split()).replace(
            "five rank counts (four for communication)",
            f"{len(run.ranks())} rank counts ({len(run.ranks()) - 1} for communication)")])


def main(args):
    run = load_run(args.run)
    figures = [f for f in (getattr(args, "figures", None) or "").split(",") if f] or FIGURES
    unknown = [f for f in figures if f not in FIGURES]
    if unknown:
        print(f"hpart-scaling models: unknown figure(s) {', '.join(unknown)} (known: {', '.join(FIGURES)})",
              file=sys.stderr)
        return 2
    rows = models_of(run, figures)
    text = markdown(run, rows)
    report.write(args.report, text)
    print(text)
    return 0
