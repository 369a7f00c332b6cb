#include "balance_warning.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace hpart_cli {

bool warn_if_unbalanced(const hpart::Comm& comm, const hpart::Partition& p, double heaviest, double total,
                        const char* prog) {
  double v[2] = {-heaviest, total};  // one allreduce: MIN of the negated maximum, then the sum
  MPI_Allreduce(MPI_IN_PLACE, &v[0], 1, MPI_DOUBLE, MPI_MIN, comm.get());
  MPI_Allreduce(MPI_IN_PLACE, &v[1], 1, MPI_DOUBLE, MPI_SUM, comm.get());
  const auto& m = p.metrics;
  const bool met = m.within_tolerance || m.tolerance < 0;
  if (comm.rank() != 0 || met) return met;
  std::fflush(stdout);  // after the table it qualifies, also when stdout is a pipe
  int worst = 0;
  for (std::size_t c = 1; c < m.imbalance.size(); ++c)
    if (m.imbalance[c] > m.imbalance[static_cast<std::size_t>(worst)]) worst = static_cast<int>(c);
  std::fprintf(stderr, "%s: warning: imbalance %.4g (constraint %d) exceeds the tolerance %.4g:",
               prog, m.imbalance[static_cast<std::size_t>(worst)], worst + 1, m.tolerance);
  const double share = v[1] / p.num_parts;  // an equal part's first weight
  const double floor = share > 0 ? -v[0] / share - 1.0 : 0.0;  // what the heaviest object alone forces
  if (m.objects < p.num_parts)
    std::fprintf(stderr, " %lld object%s for %d parts: some parts stay empty and the heaviest object sets the balance\n",
                 m.objects, m.objects == 1 ? "" : "s", p.num_parts);
  else if (worst == 0 && -v[0] * static_cast<double>(m.objects) <= v[1] * (1 + 1e-12) &&
           std::ceil(static_cast<double>(m.objects) / p.num_parts) * p.num_parts / static_cast<double>(m.objects) - 1.0 >
               m.tolerance)
    // Equal weights: a part holds a whole number of objects, so ceil(N / K) of them at best.
    std::fprintf(stderr, " %lld objects of equal weight into %d parts: some part holds %.0f of them, %.4g over its share; "
                 "no partition can do better\n",
                 m.objects, p.num_parts, std::ceil(static_cast<double>(m.objects) / p.num_parts),
                 std::ceil(static_cast<double>(m.objects) / p.num_parts) * p.num_parts / static_cast<double>(m.objects) - 1.0);
  else if (worst == 0 && floor > m.tolerance)
    std::fprintf(stderr,
                 " the heaviest object weighs %.4g, %.3gx a part's share (%.4g), so no partition into %d parts can do "
                 "better than %.4g; use fewer parts or split that object\n",
                 -v[0], -v[0] / share, share, p.num_parts, floor);
  else if (worst == 0 && share > 0 && -v[0] / share > m.tolerance)
    // Parts are made of whole objects: a part can end up to one object away from its share.
    std::fprintf(stderr,
                 " objects weigh up to %.4g, %.3g of a part's share (%.4g), and parts hold whole objects, so a part can "
                 "miss its share by up to that much; use fewer parts, a larger tolerance, or finer objects\n",
                 -v[0], -v[0] / share, share);
  else if (m.imbalance.size() > 1)
    std::fprintf(stderr, " the method could not balance all %zu constraints at once; try another method or a larger "
                 "tolerance\n", m.imbalance.size());
  else
    std::fprintf(stderr, " the method stopped short of it; try another method or a larger tolerance\n");
  return met;
}

double worst_imbalance(const hpart::Partition& p) {
  double w = 0.0;
  for (const double x : p.metrics.imbalance) w = std::max(w, x);
  return w;
}

}  // namespace hpart_cli
