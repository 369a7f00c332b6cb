"""The `hpart` command-line program as a reference for the Python tests: rank 0 runs it as a
one-rank MPI program (singleton: the mpirun job's variables are removed from its environment),
so a test can compare a Python call with the C++ program's output on the same input."""
import contextlib
import os
import shutil
import subprocess
import tempfile

import pytest

import hpart


def cli_path():
    """build/apps/hpart/hpart beside build/python (HPART_CLI overrides); None when absent."""
    p = os.environ.get("HPART_CLI")
    if not p:
        build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(hpart.__file__))))
        p = os.path.join(build, "apps", "hpart", "hpart")
    return p if os.access(p, os.X_OK) else None


def run_cli(comm, *args):
    """Runs `hpart args...` on rank 0 of comm; every rank gets its exit code and stderr. Skips
    the test (on every rank) when the program is absent."""
    exe = cli_path() if comm.rank == 0 else None
    exe = comm.bcast(exe)
    if exe is None:
        pytest.skip("the hpart program is not built")
    result = None
    if comm.rank == 0:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMIX_", "PRTE_", "OPAL_", "HYDRA_", "PMI_"))}
        env["OMP_NUM_THREADS"] = "1"
        r = subprocess.run([exe, *map(str, args)], env=env, capture_output=True, text=True, timeout=120)
        result = (r.returncode, r.stderr)
    return comm.bcast(result)


@contextlib.contextmanager
def shared_tmpdir(comm):
    """A fresh directory every rank of comm sees (made by rank 0, removed after the block)."""
    d = comm.bcast(tempfile.mkdtemp(prefix="hpart-py-") if comm.rank == 0 else None)
    try:
        yield d
    finally:
        comm.Barrier()
        if comm.rank == 0:
            shutil.rmtree(d, ignore_errors=True)
