"""Exit order of hpart.torch (ctest python.torch_exit, under mpirun): at interpreter exit the cached
plans still referenced (a global, a reference cycle) are released and Kokkos is finalised by
hpart.torch's atexit hook while MPI is still initialised (mpi4py finalises it from a Py_AtExit
callback, after every atexit hook), and a released plan raises hpart.Error instead of touching
freed requests. Prints "exit order ok" on success; exits 3 otherwise."""
import atexit
import os

from mpi4py import MPI

import hpart


def after_hpart_torch():
    # Registered before hpart.torch's hook, so it runs after it (atexit is last in, first out).
    ok = not MPI.Is_finalized() and not hpart._hpart._kokkos_is_initialized()
    try:
        KEEP[1].forward(0)
        ok = False
    except hpart.Error as e:
        ok = ok and "after release" in str(e)
    print("exit order ok" if ok else "exit order WRONG", flush=True)
    if not ok:
        os._exit(3)


atexit.register(after_hpart_torch)

import torch  # noqa: E402

import hpart.torch as ht  # noqa: E402

C = MPI.COMM_WORLD
L = ht.Layout.sharded((1, 2, 8 * C.size, 6), (1, 1, C.size, 1), periodic=True)
x = torch.ones(L.local_shape)
for _ in range(20):  # both halo plans (the automatic one past its tuning: <= 4 x 4 exchanges), requests made
    ht.halo_exchange_(ht.halo_exchange(x, L, 1), L, 1)
ht.redistribute(x, L, L._replicated())
plan = L._halo_plans[((0, 1, 1), torch.float32, "automatic")]
assert not plan.tuning
cycle = [L]
cycle.append(cycle)  # a layout kept alive by a reference cycle too
KEEP = [L, plan]
