#include "points/global_extent.hpp"

#include <mpi.h>

namespace hpart::sfc {

// Negated maxima, so that one MIN reduction gives both corners and the weight.
GlobalExtent global_extent(const Comm& comm, const detail::PointScan& scan) {
  double v[7] = {scan.lo[0], scan.lo[1], scan.lo[2], -scan.hi[0], -scan.hi[1], -scan.hi[2], -scan.max_weight};
  MPI_Allreduce(MPI_IN_PLACE, v, 7, MPI_DOUBLE, MPI_MIN, comm.get());
  GlobalExtent g;
  for (int a = 0; a < 3; ++a) {
    const bool empty = v[a] > -v[3 + a];  // no point anywhere (or the axis is unused): a zero box
    g.box.lo[static_cast<std::size_t>(a)] = empty ? 0.0 : v[a];
    g.box.hi[static_cast<std::size_t>(a)] = empty ? 0.0 : -v[3 + a];
  }
  g.max_weight = -v[6];
  return g;
}

}  // namespace hpart::sfc
