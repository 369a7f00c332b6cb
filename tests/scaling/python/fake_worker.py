#!/usr/bin/python3
"""A stand-in for hpart-scaling-worker in the driver's tests: writes fabricate.py's records for
P = $HPART_FAKE_NP. HPART_FAKE_FAIL_AT=P fails at that P; HPART_FAKE_NONDETERMINISTIC=1 changes a
checksum from launch to launch; HPART_SCALING_INJECT=points.hilbert:messages adds a message."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fabricate import run_records  # noqa: E402

if sys.argv[1:] == ["--version"]:
    print(json.dumps({"hpart": "0.0-fake", "compiler": "fake-cc 1", "mpi": "fake"}))
    sys.exit(0)
parser = argparse.ArgumentParser()
for flag in ("--mode", "--size", "--rounds", "--threads", "--json", "--cases"):
    parser.add_argument(flag)
args = parser.parse_args()
ranks = int(os.environ["HPART_FAKE_NP"])
if os.environ.get("HPART_FAKE_FAIL_AT") == str(ranks):
    print("fake worker: rank 0: out of memory in the splitter search", file=sys.stderr)
    sys.exit(3)
records = run_records(mode=args.mode, ranks=(ranks,), rounds=int(args.rounds),
                      seed=int.from_bytes(os.urandom(4), "little"))
for rec in records:
    if os.environ.get("HPART_FAKE_NONDETERMINISTIC") and rec["case"] == "grid":
        rec["checksum"] = os.urandom(8).hex()
    if os.environ.get("HPART_SCALING_INJECT") == "points.hilbert:messages" and rec["case"] == "points" and ranks > 1:
        rec["messages_max"] += 1
with open(args.json, "w") as f:
    for rec in records:
        f.write(json.dumps(rec) + "\n")
