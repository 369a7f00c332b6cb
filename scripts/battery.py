#!/usr/bin/python3
"""The full file battery (issue 20), by hand: every malformed and mutated input file of
tests/battery through the hpart CLI at np 1, 2 and 3 (about 1600 runs; ctest runs a quick subset
as battery.cli_files). Build first (scripts/build.sh, or the hpart-cli and battery_h5_cases
targets), then:

    scripts/battery.py [--build build] [--work build/battery] [run_battery options ...]
    scripts/battery.py --ranks 1,2,3,4 --seed 7 --scale 2 --json results.json

Prints the counts per kind of file and class of outcome, and every crash, hang, internal error,
messy error and wrong answer with the command that reproduces it; exits 1 if there is any.
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(ROOT, "tests", "battery"))
import run_battery  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="the build directory")
    ap.add_argument("--work", default="", help="where the files go (default: BUILD/battery)")
    known, rest = ap.parse_known_args()
    hpart = os.path.join(known.build, "apps", "hpart", "hpart")
    helper = os.path.join(known.build, "tests", "battery", "battery_h5_cases")
    for path in (hpart, helper):
        if not os.path.exists(path):
            sys.exit(f"battery: {path} is missing: build the hpart-cli and battery_h5_cases targets first")
    shared = os.path.join(ROOT, "..", "shared", "data", "graphs")
    sys.argv = [sys.argv[0], "--hpart", hpart, "--h5-cases", helper, "--work",
                known.work or os.path.join(known.build, "battery"), "--verbose"] + \
               (["--shared", shared] if os.path.isdir(shared) else []) + rest
    return run_battery.main()


if __name__ == "__main__":
    sys.exit(main())
