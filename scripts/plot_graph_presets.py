#!/usr/bin/python3
"""Cut, time and memory of hpart's graph presets against METIS, from hpart-bench --suite graph
--preset fast,default,strong records (BENCH.md JSON Lines):

    /usr/bin/python3 scripts/plot_graph_presets.py docs/data/graph_presets_large_np1.jsonl \
        docs/data/graph_presets_np2.jsonl [-o docs/img/graph_presets.png] [--table]

Left: edge cut / METIS's against time / METIS's (same case, k and rank count; log scales), one
colour per preset, filled markers np 1, open np > 1. Right: the memory the call added to the
process (rss_growth_mb, max over ranks), per preset and METIS, for the large generated graphs
(grid3d, rgg2d). --table prints the Markdown table of docs/benchmarks.md ("Graph presets":
cut, time and memory per preset). Run with Debian's /usr/bin/python3 (matplotlib).
"""
import argparse
import json
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PRESETS = [("graph-fast", "fast", "#9ecae1"), ("graph", "default", "#1f77b4"), ("graph-strong", "strong", "#08306b")]
LARGE = ("grid3d", "rgg2d")


def load(files):
    records = []
    for f in files:
        with open(f) as fh:
            records += [json.loads(line) for line in fh if line.strip()]
    return records


def key(r):
    return (r["case"], r["parts"], r["ranks"])


def table(records, metis):
    print("| case | k | np | METIS cut, time_s, +MB | fast: cut, time, +MB | default | strong |")
    print("|---|---|---|---|---|---|---|")
    rows = sorted({key(r) for r in records if r["case"] in LARGE and key(r) in metis})
    for k in rows:
        m = metis[k]
        cells = [f"{m['edge_cut']}, {m['time_s']:.2f}, {m.get('rss_growth_mb', float('nan')):.0f}"]
        for method, _, _ in PRESETS:
            r = next((x for x in records if x["library"] == "hpart" and x["method"] == method and key(x) == k), None)
            cells.append("-" if r is None else f"{r['edge_cut'] / m['edge_cut']:.3f}, {r['time_s'] / m['time_s']:.2f}x, "
                                               f"{r.get('rss_growth_mb', float('nan')):.0f}")
        print(f"| {k[0]} | {k[1]} | {k[2]} | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("-o", "--out", default="docs/img/graph_presets.png")
    ap.add_argument("--table", action="store_true", help="print the Markdown table too")
    args = ap.parse_args()
    records = load(args.files)
    metis = {key(r): r for r in records if r["library"] == "metis"}
    if args.table:
        table(records, metis)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 5), gridspec_kw={"width_ratios": [3, 2]})
    for method, name, colour in PRESETS:
        first = True
        for r in records:
            ref = metis.get(key(r))
            if r["library"] != "hpart" or r["method"] != method or ref is None or ref["time_s"] <= 0:
                continue
            ax.scatter(r["time_s"] / ref["time_s"], r["edge_cut"] / ref["edge_cut"], s=40, marker="o",
                       c=colour if r["ranks"] == 1 else "none", edgecolors=colour, label=name if first else None)
            first = False
    ax.axhline(1.0, color="#999", lw=0.8)
    ax.axvline(1.0, color="#999", lw=0.8)
    ax.axhline(0.80, color="#c66", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("partition-call time / METIS kway's (same case, k, ranks)")
    ax.set_ylabel("edge cut / METIS kway's")
    ax.set_title("presets against METIS (filled: np 1, open: np 2); dashed: 0.80x")
    ax.legend(loc="upper right", fontsize=8)
    # Memory: one group of bars per large case at np 1 (k 16), the presets and METIS.
    groups = [k for k in sorted(metis) if k[0] in LARGE and k[2] == 1 and k[1] == 16]
    width = 0.2
    for i, (method, name, colour) in enumerate(PRESETS + [("metis", "METIS kway", "#d62728")]):
        heights = []
        for k in groups:
            lib = "metis" if method == "metis" else "hpart"
            r = next((x for x in records if x["library"] == lib and (lib == "metis" or x["method"] == method)
                      and key(x) == k), None)
            heights.append(r.get("rss_growth_mb", math.nan) if r else math.nan)
        bx.bar([g + (i - 1.5) * width for g in range(len(groups))], heights, width, color=colour, label=name)
    bx.set_xticks(range(len(groups)), [f"{k[0]} k {k[1]}" for k in groups])
    bx.set_ylabel("memory the call added (MB, max over ranks)")
    bx.set_title("memory per call, np 1 (input not counted)")
    bx.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
