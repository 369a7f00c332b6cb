"""`plot`: PNG figures of one run file, the baseline's curves overlaid dashed in the same colour.

speedup_<mode>.png     strong: T1/TP with the ideal P; weak: T1/TP (efficiency, ideal 1)
efficiency_<mode>.png  strong: T1/(P TP); weak: T1/TP
bytes_per_rank_<mode>.png, messages_per_rank_<mode>.png   log-log, max and mean over ranks
memory_per_rank_<mode>.png   peak resident set per rank (mean, max over ranks) and one call's working memory
Times are time_s (median over rounds of the slowest rank). Zeros (one rank sends nothing) are left
off the log axes.
"""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (the backend must be chosen first)

from .records import load_run, method_label  # noqa: E402


def _series(run, case, method, figure):
    pts = [(p, r[figure]) for p, r in sorted(run.series(case, method).items()) if r.get(figure) is not None]
    return [p for p, _ in pts], [v for _, v in pts]


def _time_curve(run, case, method, kind):
    ranks, times = _series(run, case, method, "time_s")
    if not ranks or ranks[0] != 1:
        return [], []
    # A method that only communicates (the halo exchange) has nothing to do on one rank (no
    # traffic, microseconds): T1 is no reference for it, so it gets no speedup curve.
    first = run.series(case, method)[1]
    if first.get("messages_max") == 0 and first.get("collectives_max") == 0 and times[0] < 1e-4:
        return [], []
    t1 = times[0]
    if kind == "speedup" and run.mode == "strong":
        return ranks, [t1 / t for t in times]
    if run.mode == "strong":
        return ranks, [t1 / (p * t) for p, t in zip(ranks, times)]
    return ranks, [t1 / t for t in times]


def _draw(ax, run, baseline, curve, colors):
    for i, (case, method) in enumerate(run.methods()):
        color = colors[i % len(colors)]
        x, y = curve(run, case, method)
        if x:
            ax.plot(x, y, "o-", color=color, label=method_label(case, method))
        if baseline is not None:
            bx, by = curve(baseline, case, method)
            if bx:
                ax.plot(bx, by, "--", color=color, alpha=0.8)


def _finish(fig, ax, path, title, ylabel, baseline, logy=False):
    ax.set_xscale("log", base=2)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel("MPI ranks P")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    if baseline is not None:
        handles.append(plt.Line2D([], [], color="gray", linestyle="--"))
        labels.append("baseline")
    if handles:
        ax.legend(handles, labels, fontsize=7, loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _colors():
    return plt.rcParams["axes.prop_cycle"].by_key()["color"] + ["black", "teal", "olive"]


def time_plots(run, baseline, out, mode):
    written = []
    for kind in ("speedup", "efficiency"):
        fig, ax = plt.subplots(figsize=(7, 5))
        _draw(ax, run, baseline, lambda r, c, m: _time_curve(r, c, m, kind), _colors())
        ranks = run.ranks()
        if kind == "speedup" and mode == "strong":
            ax.plot(ranks, ranks, ":", color="black", label="ideal")
            ylabel, title = "speedup T1 / TP", "Strong scaling: speedup"
        else:
            ax.plot(ranks, [1.0] * len(ranks), ":", color="black", label="ideal")
            ylabel = "efficiency " + ("T1 / (P TP)" if mode == "strong" else "T1 / TP")
            title = f"{mode.capitalize()} scaling: parallel efficiency"
        path = os.path.join(out, f"{kind}_{mode}.png")
        _finish(fig, ax, path, title, ylabel, baseline, logy=(kind == "speedup" and mode == "strong"))
        written.append(path)
    return written


def per_rank_plot(run, baseline, out, mode, name, figures, ylabel, logy):
    fig, axes = plt.subplots(1, len(figures), figsize=(6 * len(figures), 5), squeeze=False)
    for ax, (figure, what) in zip(axes[0], figures):
        def curve(r, c, m, figure=figure):
            x, y = _series(r, c, m, figure)
            keep = [(p, v) for p, v in zip(x, y) if v > 0 or not logy]
            return [p for p, _ in keep], [v for _, v in keep]
        _draw(ax, run, baseline, curve, _colors())
        ax.set_title(what)
    path = os.path.join(out, f"{name}_{mode}.png")
    for ax, (_, what) in zip(axes[0][:-1], figures[:-1]):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log" if logy else "linear")
        ax.set_xlabel("MPI ranks P")
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle(f"{mode.capitalize()} scaling: {ylabel}")
    _finish(fig, axes[0][-1], path, figures[-1][1], ylabel, baseline, logy)
    return path


def plot(run_path, baseline_path, out):
    run = load_run(run_path)
    baseline = load_run(baseline_path) if baseline_path else None
    os.makedirs(out, exist_ok=True)
    mode = run.mode or "run"
    written = time_plots(run, baseline, out, mode)
    written.append(per_rank_plot(run, baseline, out, mode, "bytes_per_rank",
                                 [("bytes_max", "max over ranks"), ("bytes_mean", "mean over ranks")],
                                 "bytes sent per rank per call", True))
    written.append(per_rank_plot(run, baseline, out, mode, "messages_per_rank",
                                 [("messages_max", "max over ranks"), ("messages_mean", "mean over ranks")],
                                 "messages sent per rank per call", True))
    written.append(per_rank_plot(run, baseline, out, mode, "memory_per_rank",
                                 [("peak_rss_mean_mb", "peak RSS, mean over ranks (all inputs resident)"),
                                  ("peak_rss_mb", "peak RSS, max over ranks"),
                                  ("rss_growth_mb", "one call's working memory (cold), max over ranks")],
                                 "memory per rank (MiB)", False))
    return written


def main(args):
    for path in plot(args.run, args.baseline, args.out):
        print("wrote", path)
    return 0
