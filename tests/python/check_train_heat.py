#!/usr/bin/python3
"""ctest python.train_heat: examples/python/train_heat.py trains the same loss curve at every rank
count. Runs it at np 1 and at each of the given rank counts (cost-balanced uneven layout), reads
the --json records, and requires every step's loss to equal np 1's within --rtol (relative).

    check_train_heat.py --mpirun "mpirun --oversubscribe -n" --python /usr/bin/python3 --ranks 3 4 -- [example args]
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "python", "train_heat.py")


def run(mpirun, python, np_, args, out):
    cmd = shlex.split(mpirun) + [str(np_), python, EXAMPLE, "--json", out, "--quiet"] + args
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    if r.returncode != 0:
        sys.exit(f"np {np_} failed ({r.returncode}): {' '.join(cmd)}\n{r.stdout}\n{r.stderr}")
    with open(out) as f:
        return [json.loads(line) for line in f]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mpirun", required=True)
    ap.add_argument("--python", default="/usr/bin/python3")
    ap.add_argument("--ranks", type=int, nargs="+", default=[4])
    ap.add_argument("--rtol", type=float, default=1e-10)
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    extra = [x for x in a.args if x != "--"]
    with tempfile.TemporaryDirectory() as d:
        ref = run(a.mpirun, a.python, 1, extra, os.path.join(d, "np1.jsonl"))
        assert len(ref) > 1 and all(r["ranks"] == 1 for r in ref)
        # The model must learn: the curve is not flat (a broken backward would leave it so).
        assert min(r["loss"] for r in ref[1:]) < ref[0]["loss"], [r["loss"] for r in ref]
        worst = 0.0
        for np_ in a.ranks:
            got = run(a.mpirun, a.python, np_, extra, os.path.join(d, f"np{np_}.jsonl"))
            assert [r["step"] for r in got] == [r["step"] for r in ref]
            for r, g in zip(ref, got):
                rel = abs(g["loss"] - r["loss"]) / abs(r["loss"])
                worst = max(worst, rel)
                if rel > a.rtol:
                    sys.exit(f"np {np_} step {g['step']}: loss {g['loss']!r} vs np 1 {r['loss']!r} (relative {rel:.2e} > {a.rtol})")
        print(f"train_heat: {len(ref)} steps, np {a.ranks} equal np 1 within {worst:.2e} relative "
              f"(loss {ref[0]['loss']:.4e} -> {ref[-1]['loss']:.4e})")


if __name__ == "__main__":
    main()
