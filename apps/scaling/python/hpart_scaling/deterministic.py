"""The deterministic figures of a record and how two values of one are compared.

Checksums and message, byte and collective counts are integers or exact means of integers: two runs
of the same commit must print the same value, so they are compared exactly. Imbalance, edge cut and
migration are computed deterministically too, but as floating-point sums whose last printed digit may
differ between printers: a relative tolerance of 1e-9 absorbs that and nothing a change to the
partition could produce. The same comparison checks that the passes of one `run` agree.
"""
import math

EXACT = ("checksum", "messages_max", "messages_mean", "bytes_max", "bytes_mean",
         "collectives_max", "collectives_mean", "collective_kinds")
TOLERANT = ("imbalance", "edge_cut", "migrated")
REL_TOL = 1e-9


def same(figure, a, b):
    if figure in TOLERANT and isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-300)
    return a == b


def differences(base, cur):
    """[(figure, base value, current value, what)] for every deterministic figure that differs.

    A figure the baseline has and the current record lacks is a difference ("missing"); one only the
    current record has is new information, not a regression, and is left out."""
    out = []
    for figure in EXACT + TOLERANT:
        if figure not in base:
            continue
        if figure not in cur:
            out.append((figure, base[figure], None, "missing"))
        elif not same(figure, base[figure], cur[figure]):
            out.append((figure, base[figure], cur[figure],
                        "exact" if figure in EXACT else f"rel. tol. {REL_TOL:g}"))
    return out
