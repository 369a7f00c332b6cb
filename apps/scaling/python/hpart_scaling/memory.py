"""The memory check: per-rank memory is noisy (allocator, MPI buffers), so only growth well past the
noise is a regression: current > baseline * 1.25 + 16 MiB, on the mean over ranks of the peak
resident set and on the largest growth of one call."""

FIGURES = ("peak_rss_mean_mb", "rss_growth_mb")
FACTOR = 1.25
SLACK_MB = 16.0
RULE = f"current > baseline × {FACTOR} + {SLACK_MB:g} MiB"


def limit(base_value):
    return base_value * FACTOR + SLACK_MB


def differences(base, cur):
    """[(figure, base, current, limit)] of the memory figures over their limit."""
    out = []
    for figure in FIGURES:
        if figure in base and figure in cur and cur[figure] > limit(base[figure]):
            out.append((figure, base[figure], cur[figure], limit(base[figure])))
    return out
