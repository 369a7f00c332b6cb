#include "core/numa_binding.hpp"

#include "hpart/version.hpp"  // HPART_HAVE_HWLOC

#if HPART_HAVE_HWLOC
#include <hwloc.h>
#endif

namespace hpart::detail {

NumaPlace numa_place() {
  NumaPlace place;
#if HPART_HAVE_HWLOC
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) return place;
  if (hwloc_topology_load(topo) == 0) {
    const int n = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    place.domains = n > 0 ? n : 0;
    hwloc_bitmap_t bound = hwloc_bitmap_alloc();
    // A process that is not bound has the whole machine as its binding: it then lies in one
    // domain only on a single-domain machine, which is the right answer there.
    if (bound && hwloc_get_cpubind(topo, bound, HWLOC_CPUBIND_PROCESS) == 0) {
      for (int k = 0; k < n; ++k) {
        hwloc_obj_t numa = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(k));
        if (numa && numa->cpuset && hwloc_bitmap_isincluded(bound, numa->cpuset)) {
          place.domain = k;
          break;
        }
      }
    }
    if (bound) hwloc_bitmap_free(bound);
  }
  hwloc_topology_destroy(topo);
#endif
  return place;
}

}  // namespace hpart::detail
