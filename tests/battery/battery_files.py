"""The battery's input files: malformed and mutated point, graph, MatrixMarket and HDF5 files.

make_cases(work, seed, ...) writes every file under `work` and returns the cases, each a file
plus the `hpart` command line that reads it. The same seed gives the same files and command
lines. Standard library only (the HDF5 inputs are written by `hpart` itself and by the
battery_h5_cases helper, then mutated byte by byte).
"""

import os
import random

from graph_files import graph_cases
from h5_files import h5_cases
from matrix_market_files import mm_cases
from point_files import point_text_cases


def make_cases(work, seed, hpart, h5_helper, mpiexec, shared, scale=1.0):
    """Every case of the battery; `scale` multiplies the number of random mutants of each kind."""
    os.makedirs(work, exist_ok=True)
    count = lambda n: max(1, int(round(n * scale)))
    cases = []
    cases += point_text_cases(random.Random(f"{seed}-points"), work, count(110))
    cases += graph_cases(random.Random(f"{seed}-graphs"), work, shared, count(110))
    cases += mm_cases(random.Random(f"{seed}-mm"), work, count(50))
    cases += h5_cases(random.Random(f"{seed}-h5"), work, hpart, h5_helper, mpiexec, count(90))
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    return cases
