#!/usr/bin/python3
"""Plot hpart-bench --suite graph records (BENCH.md JSON Lines): edge cut against time, both
relative to METIS kway on the same case, k and rank count.

    /usr/bin/python3 scripts/plot_graph_bench.py docs/data/graph_np1.jsonl [docs/data/graph_np2.jsonl ...] \
        [-o docs/img/graph_bench.png]

One marker per (library, method) and record; x = time_s / METIS's, y = edge_cut / METIS's (both
log scale), so METIS sits at (1, 1) and better-and-faster is down-left. Filled markers: np 1,
open: np > 1. Run with Debian's /usr/bin/python3, which has matplotlib.
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

STYLE = {
    ("hpart", "graph"): ("#1f77b4", "o"),
    ("hpart", "geometric+refine"): ("#6baed6", "s"),
    ("scotch", "default"): ("#2ca02c", "^"),
    ("zoltan", "phg"): ("#d62728", "v"),
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--out", default="docs/img/graph_bench.png")
    args = ap.parse_args()
    records = []
    for f in args.files:
        with open(f) as fh:
            records += [json.loads(line) for line in fh if line.strip()]
    metis = {(r["case"], r["parts"], r["ranks"]): r for r in records if r["library"] == "metis"}
    fig, ax = plt.subplots(figsize=(7, 5))
    seen = set()
    for r in records:
        key = (r["library"], r["method"])
        ref = metis.get((r["case"], r["parts"], r["ranks"]))
        if key not in STYLE or ref is None or ref["time_s"] <= 0 or ref["edge_cut"] <= 0:
            continue
        colour, marker = STYLE[key]
        label = f"{key[0]} {key[1]}" if key not in seen else None
        seen.add(key)
        ax.scatter(r["time_s"] / ref["time_s"], r["edge_cut"] / ref["edge_cut"], c=colour if r["ranks"] == 1 else "none",
                   edgecolors=colour, marker=marker, s=36, label=label)
    ax.axhline(1.0, color="#999", lw=0.8)
    ax.axvline(1.0, color="#999", lw=0.8)
    ax.axhline(1.10, color="#c66", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("time / METIS kway time (same case, k, ranks)")
    ax.set_ylabel("edge cut / METIS kway cut")
    ax.set_title("hpart-bench --suite graph (filled: np 1, open: np 2); dashed: 1.10x METIS")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
