"""The scaling driver's tests: plain pytest, no MPI. The package comes from apps/scaling/python."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "apps", "scaling", "python"))
sys.path.insert(0, HERE)
LAUNCHER = os.path.join(ROOT, "apps", "scaling", "hpart-scaling")
