"""hpart-scaling: the driver and the analysis of hpart's scaling regression suite (issue 24).

The C++ program `hpart-scaling-worker` measures every method at one rank count and writes JSON Lines
records; this package runs it over a list of rank counts (`run`), keeps the result as one run file per
mode (a `meta` line, then the records), and judges a run against a stored baseline (`compare`), measures
how trustworthy that judgement is (`calibrate`), fits how each figure grows with the rank count
(`models`) and draws it (`plot`). It needs only Debian's python3, numpy, scipy and matplotlib.
"""

__version__ = "0.1"


def main(argv=None):
    """Entry point of the `hpart-scaling` launcher and of `python3 -m hpart_scaling`."""
    from .cli import main as cli_main
    return cli_main(argv)
