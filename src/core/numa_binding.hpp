#pragma once
// Which NUMA domain of its node the calling process is bound to, via hwloc when hpart was built
// with it (HPART_HAVE_HWLOC). Local, no MPI.
namespace hpart::detail {

struct NumaPlace {
  int domain = -1;   // index of the NUMA domain holding the process's whole CPU binding; -1:
                     // unknown (no hwloc, unbound, or the binding spans several domains)
  int domains = 0;   // NUMA domains on this node (0: unknown)
};

NumaPlace numa_place();

}  // namespace hpart::detail
