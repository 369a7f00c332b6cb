#!/usr/bin/python3
"""A stand-in for mpirun in the driver's tests: `fake_mpirun.py -np P worker ARGS` runs the worker
once with HPART_FAKE_NP=P (the fake worker writes what P ranks would have)."""
import os
import sys

args = sys.argv[1:]
if args == ["--version"]:
    print("fake mpirun 0.0")
    sys.exit(0)
np_at = args.index("-np")
env = dict(os.environ, HPART_FAKE_NP=args[np_at + 1])
command = args[np_at + 2:]
os.execve(command[0], command, env)
