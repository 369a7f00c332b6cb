#!/usr/bin/python3
"""Plot hpart-bench --suite points records (BENCH.md JSON Lines) as grouped bars.

    /usr/bin/python3 scripts/plot_points_bench.py [docs/data/points_np2.jsonl] [-o docs/img/points_bench.png]

One group per case, one bar per (library, method), height time_s on a log axis; each bar is
annotated with its imbalance (floor lines have none). Run with Debian's /usr/bin/python3, which
has matplotlib.
"""
import argparse
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = {
    ("hpart", "hilbert"): "#1f77b4",
    ("hpart", "morton"): "#6baed6",
    ("floor", "morton"): "#7f7f7f",
    ("zoltan", "hsfc"): "#d62728",
    ("zoltan", "rcb"): "#ff7f0e",
    ("zoltan", "rib"): "#e6a700",
}


def load(path):
    records = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError as e:
                sys.exit(f"{path}:{lineno}: not JSON: {e}")
            if r.get("suite") == "points":
                records.append(r)
    if not records:
        sys.exit(f"{path}: no points-suite records")
    return records


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("jsonl", nargs="?", default="docs/data/points_np2.jsonl")
    ap.add_argument("-o", "--output", default="docs/img/points_bench.png")
    args = ap.parse_args()

    records = load(args.jsonl)
    cases = list(dict.fromkeys(r["case"] for r in records))
    methods = list(dict.fromkeys((r["library"], r["method"]) for r in records))
    by_key = {(r["case"], r["library"], r["method"]): r for r in records}

    width = 0.8 / len(methods)
    fig, ax = plt.subplots(figsize=(max(7.0, 2.4 * len(cases)), 4.8))
    for m, (lib, meth) in enumerate(methods):
        xs, ts, labels = [], [], []
        for c, case in enumerate(cases):
            r = by_key.get((case, lib, meth))
            if r is None:
                continue
            xs.append(c - 0.4 + width * (m + 0.5))
            ts.append(r["time_s"])
            labels.append(f"{r['imbalance']:.0e}" if "imbalance" in r else "")
        bars = ax.bar(xs, ts, width * 0.92, label=f"{lib} {meth}", color=COLOURS.get((lib, meth)))
        for bar, text in zip(bars, labels):
            if text:
                ax.annotate(text, (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                            xytext=(0, 2), textcoords="offset points", ha="center", va="bottom",
                            rotation=90, fontsize=7)
    ax.set_yscale("log")
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(cases)
    ax.set_ylabel("time_s (median, log scale)")
    r0 = records[0]
    ax.set_title(f"points suite: n={r0['n']:,}, parts={r0['parts']}, ranks={r0['ranks']}, "
                 f"threads={r0['threads']}  (labels: imbalance)")
    lo, hi = ax.get_ylim()
    ax.set_ylim(lo, hi * 4)  # room for the labels
    ax.legend(fontsize=8, ncol=3, loc="upper left")
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    fig.savefig(args.output, dpi=130)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
